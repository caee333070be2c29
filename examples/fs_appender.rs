//! A native writer for the shared-folder test (www/test/fs-interop.test.mjs): appends the lines
//! `<TAG> 0` … `<TAG> <COUNT-1>` to one file through `FsStorage`, each append a load and a save
//! expecting the loaded version, retried after a version mismatch — the loop of an agent that
//! reads again after a conflict. Prints the file's version at the end.
//! `cargo run --example fs_appender -- DIR PATH TAG COUNT`
use agentpad::{FsStorage, PersistRequest, Storage, StorageError};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, path, tag, count] = args.as_slice() else {
        eprintln!("usage: fs_appender DIR PATH TAG COUNT");
        std::process::exit(2);
    };
    let count: usize = count.parse().unwrap_or_else(|_| fail(&format!("COUNT must be a whole number, got {count}")));
    let mut storage = FsStorage::new(dir).unwrap_or_else(|e| fail(&e.to_string()));
    for i in 0..count {
        loop {
            let (text, version) = match storage.load(path) {
                Ok(Some(stored)) => (stored.text, stored.version),
                Ok(None) => (String::new(), String::new()),
                Err(e) => fail(&e.to_string()),
            };
            let request =
                PersistRequest { path: path.clone(), text: format!("{text}{tag} {i}\n"), expected_version: version, edits: Vec::new() };
            match storage.save(request) {
                Ok(_) => break,
                Err(StorageError::VersionMismatch { .. } | StorageError::ChangedDuringSave { .. }) => continue,
                Err(e) => fail(&e.to_string()),
            }
        }
    }
    match storage.load(path) {
        Ok(Some(stored)) => println!("{}", stored.version),
        other => fail(&format!("the file is gone after the appends: {other:?}")),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("fs_appender: {message}");
    std::process::exit(1);
}
