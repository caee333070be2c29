//! The save lock [`super::FsStorage`] shares with the package's NodeFsStorage
//! (docs/reliability.md#locks): a directory `.<name>.agentpad-lock` beside the target, made
//! with one `mkdir` (atomic on every file system) and removed when the save ends. A lock whose
//! directory was not touched for the stale time is a crashed holder's and is taken over. This
//! is the protocol of `proper-lockfile`, which the package uses with the same directory name,
//! so a Rust program and an `agentpad-mcp` saving into one folder wait for each other.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::StorageError;

/// Suffix of the lock directory: `.<target name>.agentpad-lock`, the package's name for it.
pub(super) const LOCK_SUFFIX: &str = ".agentpad-lock";

/// The lock directory of `target`, beside it.
pub(super) fn lock_path_of(target: &Path) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    target.with_file_name(format!(".{name}{LOCK_SUFFIX}"))
}

/// A held save lock; dropping it removes the directory.
#[derive(Debug)]
pub(super) struct SaveLock {
    dir: PathBuf,
}

impl SaveLock {
    /// Takes the lock of `target` for the save of `path`. A lock untouched for `stale` is taken
    /// over; a live one is waited for up to 1.5 × `stale` (10 ms between tries, growing to
    /// 250 ms), then [`StorageError::Locked`]. Any other failure to make the directory is
    /// [`StorageError::Io`]. Cost: one `mkdir` when the lock is free.
    pub(super) fn take(path: &str, target: &Path, stale: Duration) -> Result<SaveLock, StorageError> {
        let dir = lock_path_of(target);
        let wait = stale.mul_f64(1.5);
        let started = SystemTime::now();
        let mut pause = Duration::from_millis(10);
        loop {
            match fs::create_dir(&dir) {
                Ok(()) => return Ok(SaveLock { dir }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(source) => return Err(StorageError::Io { path: path.to_string(), operation: "take the save lock of", source }),
            }
            if is_stale(&dir, stale) {
                // A crashed holder's: remove it and try again at once. Another taker may win
                // the `mkdir` race; then this one waits for it like any live holder.
                let _ = fs::remove_dir_all(&dir);
                continue;
            }
            let waited = started.elapsed().unwrap_or_default();
            if waited >= wait {
                return Err(StorageError::Locked { path: path.to_string(), lock: dir, waited_ms: waited.as_millis() as u64 });
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(250));
        }
    }

    /// Marks the lock as alive (its directory's mtime is now), as the package's holder does every
    /// half stale time: called between the steps of a long save. Errors are ignored: a lock taken
    /// over meanwhile is found by the save's own last look at the file.
    pub(super) fn touch(&self) {
        if let Ok(dir) = fs::File::open(&self.dir) {
            let _ = dir.set_modified(SystemTime::now());
        }
    }
}

impl Drop for SaveLock {
    fn drop(&mut self) {
        let _ = fs::remove_dir(&self.dir);
    }
}

/// Whether the lock directory `dir` was last touched more than `stale` ago (a vanished one is
/// not stale: the next `mkdir` takes it).
fn is_stale(dir: &Path, stale: Duration) -> bool {
    fs::metadata(dir).and_then(|m| m.modified()).is_ok_and(|mtime| SystemTime::now().duration_since(mtime).is_ok_and(|age| age > stale))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("agentpad-lock-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_live_lock_is_waited_for_then_refused_naming_it() {
        let dir = scratch("held");
        let target = dir.join("a.md");
        let held = SaveLock::take("a.md", &target, Duration::from_secs(10)).unwrap();
        assert!(dir.join(".a.md.agentpad-lock").is_dir());
        // The holder keeps its lock alive, as the package's does, through the whole wait.
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let keeper = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    held.touch();
                    std::thread::sleep(Duration::from_millis(5));
                }
                drop(held);
            })
        };
        // Stale after 300 ms: far more than the keeper's 5 ms between touches, even on a busy machine.
        let e = SaveLock::take("a.md", &target, Duration::from_millis(300)).unwrap_err();
        assert!(
            matches!(&e, StorageError::Locked { lock, waited_ms, .. } if lock.ends_with(".a.md.agentpad-lock") && *waited_ms >= 450),
            "{e}"
        );
        assert!(e.to_string().contains(".a.md.agentpad-lock"), "{e}");
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        keeper.join().unwrap();
        assert!(!dir.join(".a.md.agentpad-lock").exists(), "released");
        SaveLock::take("a.md", &target, Duration::from_millis(40)).unwrap();
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_untouched_lock_goes_stale_and_is_taken_over() {
        let dir = scratch("stale");
        let target = dir.join("b.md");
        // A holder that crashed: its directory stays, nobody touches it.
        std::mem::forget(SaveLock::take("b.md", &target, Duration::from_secs(10)).unwrap());
        let lock = lock_path_of(&target);
        assert!(!is_stale(&lock, Duration::from_secs(10)));
        std::thread::sleep(Duration::from_millis(80));
        assert!(is_stale(&lock, Duration::from_millis(50)));
        let taken = SaveLock::take("b.md", &target, Duration::from_millis(50)).unwrap();
        taken.touch();
        assert!(!is_stale(&lock, Duration::from_millis(50)), "a touched lock is alive");
        drop(taken);
        assert!(!lock.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
