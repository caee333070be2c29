//! [`FsStorage`]: documents as the files of a root folder (cargo feature `fs`; never in the
//! wasm build, which has no file system). The path rules, the versions and the save lock are
//! the package's NodeFsStorage's, so both can share a folder (docs/reliability.md#locks).

use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::fs_lock::SaveLock;
use super::{PathRule, Storage, StorageError, Stored};
use crate::workspace::{PersistRequest, MAX_DOCUMENT_BYTES};

/// Suffix of the temporary file a save writes beside its target before renaming it over.
const TEMP_SUFFIX: &str = ".agentpad-tmp";

/// Documents are the files under `root`, addressed by relative paths with `/` separators
/// (`"notes.md"`, `"docs/intro.md"`).
///
/// - Versions are content hashes: `"sha256:"` + the first 16 hex digits of the SHA-256 of the
///   file's bytes (the package's NodeFsStorage writes the same), so touching a file or
///   rewriting the same bytes is no change.
/// - [`load`](Storage::load) returns the raw text (BOM and line endings as stored); it refuses
///   a file over [`MAX_DOCUMENT_BYTES`] before reading it, and bytes that are not UTF-8.
/// - [`save`](Storage::save) takes the file's lock (a directory `.<name>.agentpad-lock` beside
///   it, the protocol of the package's NodeFsStorage: a Rust program and an `agentpad-mcp` on
///   one folder wait for each other; a lock untouched for the stale time, 10 s by default, is a
///   crashed holder's and is taken over), re-reads the file and writes nothing unless its hash
///   is still the expected version (`""`: the file must not exist); it writes a temporary file
///   in the same folder, flushed to disk, checks the target once more and renames the temporary
///   file over it, keeping the target's permission bits, then releases the lock. Read-only files
///   are refused, naming their mode; parent folders are created as needed. A program that
///   ignores the lock (an editor) and writes in the instant between the last check and the
///   rename is overwritten.
/// - Paths that break a [`PathRule`] (`..`, absolute, `\`, empty or `.` segments), paths that
///   resolve through a symbolic link to outside the root, and anything that is not a regular
///   file (a folder, a FIFO, a device) are refused. A dangling link counts as missing: a save
///   replaces the link itself, which stays inside the root.
///
/// ```
/// use agentpad::{CallContext, Config, FsStorage, Status, Workspace};
/// use serde_json::json;
///
/// let dir = std::env::temp_dir().join(format!("agentpad-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("config.yaml"), "timeout: 30\r\n")?;
/// let mut storage = FsStorage::new(&dir)?;
/// let mut ws = Workspace::new(Config::default());
/// ws.open_from(&mut storage, "config.yaml")?;
/// let ctx = CallContext::default();
/// ws.run("memo_replace", &json!({"old_text": "30", "new_text": "60"}), &ctx, &mut storage);
/// let r = ws.run("memo_commit", &json!({"summary": "longer timeout"}), &ctx, &mut storage);
/// assert_eq!(r.status, Status::Success);
/// assert_eq!(std::fs::read_to_string(dir.join("config.yaml"))?, "timeout: 60\r\n");
/// assert!(ws.open_from(&mut storage, "../escape.md").is_err());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct FsStorage {
    /// The root folder with every symbolic link resolved.
    root: PathBuf,
    /// A save lock untouched for this long is a crashed holder's (the package's `lockStaleMs`).
    lock_stale: Duration,
}

/// The stale time of a save lock unless [`FsStorage::with_lock_stale`] sets another: the
/// package's default `lockStaleMs`.
const DEFAULT_LOCK_STALE: Duration = Duration::from_secs(10);

/// Distinguishes the temporary files of saves within one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The version of some bytes: `"sha256:"` + the first 16 hex digits (64 bits) of their SHA-256,
/// as the package's NodeFsStorage writes it. Cost: one pass over the bytes.
fn version_of(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut version = String::with_capacity(7 + 16);
    version.push_str("sha256:");
    for byte in digest.iter().take(8) {
        let _ = write!(version, "{byte:02x}");
    }
    version
}

/// What a non-regular file is, for refusals.
fn kind_of(meta: &fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// The permission bits of a file (0 where the platform has none).
fn mode_of(meta: &fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o7777
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        0
    }
}

impl FsStorage {
    /// A storage on the folder `root`. Errors: [`StorageError::Io`] when it does not exist or
    /// cannot be resolved, [`StorageError::NotAFile`] (kind "a file") when it is not a folder.
    /// Cost: one `canonicalize`.
    pub fn new(root: impl AsRef<Path>) -> Result<FsStorage, StorageError> {
        let shown = root.as_ref().display().to_string();
        let root = fs::canonicalize(root.as_ref()).map_err(|source| StorageError::Io {
            path: shown.clone(),
            operation: "open the folder",
            source,
        })?;
        if !root.is_dir() {
            return Err(StorageError::NotAFile { path: shown, kind: "a file, not a folder" });
        }
        Ok(FsStorage { root, lock_stale: DEFAULT_LOCK_STALE })
    }

    /// The same storage with save locks going stale after `stale` (at least 2 s, the package's
    /// lower bound for `lockStaleMs`; a shorter one is raised to it). A save waits for a live
    /// lock up to 1.5 × `stale`.
    pub fn with_lock_stale(mut self, stale: Duration) -> FsStorage {
        self.lock_stale = stale.max(Duration::from_secs(2));
        self
    }

    /// The root folder, symbolic links resolved.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where `path` really is (every symbolic link of its existing part resolved) and whether
    /// it exists; refuses a path that breaks a rule, leaves the root, or is not a regular file.
    fn locate(&self, path: &str) -> Result<(PathBuf, bool), StorageError> {
        if let Some(rule) = PathRule::check(path) {
            return Err(StorageError::BadPath { path: path.to_string(), rule });
        }
        let abs = path.split('/').fold(self.root.clone(), |p, segment| p.join(segment));
        let mut rest: Vec<std::ffi::OsString> = Vec::new();
        let mut probe = abs.as_path();
        let real = loop {
            match fs::canonicalize(probe) {
                Ok(real) => break real,
                Err(e) if e.kind() == io::ErrorKind::NotFound => match (probe.parent(), probe.file_name()) {
                    (Some(parent), Some(name)) => {
                        rest.push(name.to_os_string());
                        probe = parent;
                    }
                    _ => return Err(StorageError::Io { path: path.to_string(), operation: "resolve", source: e }),
                },
                Err(source) => return Err(StorageError::Io { path: path.to_string(), operation: "resolve", source }),
            }
        };
        let exists = rest.is_empty();
        let target = rest.iter().rev().fold(real, |p, name| p.join(name));
        if !target.starts_with(&self.root) || target == self.root {
            return Err(StorageError::OutsideRoot { path: path.to_string(), target, root: self.root.clone() });
        }
        if exists {
            let meta = fs::metadata(&target).map_err(|source| StorageError::Io { path: path.to_string(), operation: "inspect", source })?;
            if !meta.is_file() {
                return Err(StorageError::NotAFile { path: path.to_string(), kind: kind_of(&meta) });
            }
        }
        Ok((target, exists))
    }

    /// The bytes of the regular file `target`, or `None` when it does not exist (any more).
    /// The size is checked on the open handle before reading.
    fn read(path: &str, target: &Path) -> Result<Option<Vec<u8>>, StorageError> {
        let io = |operation, source| StorageError::Io { path: path.to_string(), operation, source };
        let mut file = match File::open(target) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io("read", e)),
        };
        let meta = file.metadata().map_err(|e| io("read", e))?;
        if !meta.is_file() {
            return Err(StorageError::NotAFile { path: path.to_string(), kind: kind_of(&meta) });
        }
        if meta.len() > MAX_DOCUMENT_BYTES as u64 {
            return Err(StorageError::TooLarge { path: path.to_string(), bytes: meta.len(), limit: MAX_DOCUMENT_BYTES });
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.read_to_end(&mut bytes).map_err(|e| io("read", e))?;
        Ok(Some(bytes))
    }

    /// Writes `bytes` to a new temporary file beside `target`, flushed, with `mode`'s
    /// permissions when given; returns its path.
    fn write_temp(path: &str, target: &Path, bytes: &[u8], permissions: Option<fs::Permissions>) -> Result<PathBuf, StorageError> {
        let io = |operation, source| StorageError::Io { path: path.to_string(), operation, source };
        let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let salt = xxhash_rust::xxh3::xxh3_64(format!("{nanos}:{n}:{name}").as_bytes()) & 0xffff_ffff_ffff;
        let tmp = target.with_file_name(format!(".{name}.{}.{salt:012x}{TEMP_SUFFIX}", std::process::id()));
        let written = (|| {
            let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            if let Some(permissions) = permissions {
                fs::set_permissions(&tmp, permissions)?;
            }
            Ok(())
        })();
        match written {
            Ok(()) => Ok(tmp),
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                Err(io("write", e))
            }
        }
    }
}

impl Storage for FsStorage {
    /// Errors: the path rules, [`StorageError::OutsideRoot`], [`StorageError::NotAFile`],
    /// [`StorageError::TooLarge`], [`StorageError::NotUtf8`], [`StorageError::Io`]. Cost: one
    /// read and one hash of the file.
    fn load(&mut self, path: &str) -> Result<Option<Stored>, StorageError> {
        let (target, exists) = self.locate(path)?;
        if !exists {
            return Ok(None);
        }
        let Some(bytes) = FsStorage::read(path, &target)? else { return Ok(None) };
        let version = version_of(&bytes);
        let text = String::from_utf8(bytes)
            .map_err(|e| StorageError::NotUtf8 { path: path.to_string(), valid_up_to: e.utf8_error().valid_up_to() })?;
        Ok(Some(Stored { text, version }))
    }

    /// Errors: the path rules, [`StorageError::VersionMismatch`], [`StorageError::ReadOnly`],
    /// [`StorageError::ChangedDuringSave`], [`StorageError::OutsideRoot`],
    /// [`StorageError::NotAFile`], [`StorageError::Io`]; the file is unchanged then. Cost: two
    /// reads of the file, one write and fsync, one rename.
    fn save(&mut self, request: PersistRequest) -> Result<String, StorageError> {
        let path = request.path.as_str();
        let io = |operation, source| StorageError::Io { path: path.to_string(), operation, source };
        let (target, exists) = self.locate(path)?;
        if !exists {
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent).map_err(|e| io("create the folder of", e))?;
                // A link put in the way since `locate` looked would lead the rename elsewhere.
                let real = fs::canonicalize(parent).map_err(|e| io("resolve", e))?;
                if real != parent {
                    return Err(StorageError::OutsideRoot { path: path.to_string(), target: real, root: self.root.clone() });
                }
            }
        }
        // Under the lock: the version check, the write and the rename see no other agentpad save.
        let lock = SaveLock::take(path, &target, self.lock_stale)?;
        let before = if exists { FsStorage::read(path, &target)? } else { None };
        let found = before.as_deref().map(version_of);
        if found.as_deref().unwrap_or("") != request.expected_version {
            return Err(StorageError::VersionMismatch { path: path.to_string(), expected: request.expected_version.clone(), found });
        }
        let permissions = match before {
            Some(_) => {
                let meta = fs::metadata(&target).map_err(|e| io("inspect", e))?;
                if meta.permissions().readonly() {
                    return Err(StorageError::ReadOnly { path: path.to_string(), mode: mode_of(&meta) });
                }
                Some(meta.permissions())
            }
            None => None,
        };
        let bytes = request.text.as_bytes();
        let tmp = FsStorage::write_temp(path, &target, bytes, permissions)?;
        // A large write may have taken a while: the lock says it is alive before the last look.
        lock.touch();
        // The last look before the rename: a program may have written meanwhile.
        let now = FsStorage::read(path, &target);
        if !matches!(&now, Ok(now) if *now == before) {
            let _ = fs::remove_file(&tmp);
            return Err(match now {
                Err(e) => e,
                Ok(_) => StorageError::ChangedDuringSave { path: path.to_string() },
            });
        }
        if let Err(e) = fs::rename(&tmp, &target) {
            let _ = fs::remove_file(&tmp);
            return Err(io("rename over", e));
        }
        drop(lock);
        Ok(version_of(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("agentpad-fs-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn request(path: &str, text: &str, expected: &str) -> PersistRequest {
        PersistRequest { path: path.into(), text: text.into(), expected_version: expected.into(), edits: Vec::new() }
    }

    #[test]
    fn saves_over_the_expected_version_only_and_keeps_the_mode() {
        let dir = scratch("save");
        let mut s = FsStorage::new(&dir).unwrap();
        let v1 = s.save(request("docs/a.md", "one\n", "")).unwrap();
        assert_eq!(fs::read_to_string(dir.join("docs/a.md")).unwrap(), "one\n");
        assert_eq!(s.load("docs/a.md").unwrap(), Some(Stored { text: "one\n".into(), version: v1.clone() }));
        let e = s.save(request("docs/a.md", "two\n", "")).unwrap_err();
        assert!(matches!(&e, StorageError::VersionMismatch { found: Some(f), .. } if *f == v1), "{e}");
        let e = s.save(request("docs/a.md", "two\n", "sha256:0000000000000000")).unwrap_err();
        assert!(e.to_string().contains("expected sha256:0000000000000000"), "{e}");
        assert_eq!(fs::read_to_string(dir.join("docs/a.md")).unwrap(), "one\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(dir.join("docs/a.md"), fs::Permissions::from_mode(0o640)).unwrap();
            let v2 = s.save(request("docs/a.md", "two\n", &v1)).unwrap();
            assert_ne!(v1, v2);
            assert_eq!(fs::metadata(dir.join("docs/a.md")).unwrap().permissions().mode() & 0o777, 0o640);
            fs::set_permissions(dir.join("docs/a.md"), fs::Permissions::from_mode(0o444)).unwrap();
            let e = s.save(request("docs/a.md", "three\n", &v2)).unwrap_err();
            assert!(matches!(e, StorageError::ReadOnly { mode: 0o444, .. }), "{e}");
        }
        let leftovers: Vec<_> = fs::read_dir(dir.join("docs"))
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(TEMP_SUFFIX))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_paths_that_leave_the_root_and_what_is_not_text() {
        let dir = scratch("rules");
        let mut s = FsStorage::new(&dir).unwrap();
        for (path, rule) in [
            ("", PathRule::Empty),
            ("a\0b", PathRule::Nul),
            ("a\\b", PathRule::Backslash),
            ("/etc/passwd", PathRule::Absolute),
            ("C:x", PathRule::Absolute),
            ("../x", PathRule::ParentSegment),
            ("a/../../x", PathRule::ParentSegment),
            ("./a", PathRule::EmptyOrDotSegment),
            ("a//b", PathRule::EmptyOrDotSegment),
        ] {
            let e = s.load(path).unwrap_err();
            assert!(matches!(e, StorageError::BadPath { rule: r, .. } if r == rule), "{path:?}: {e}");
        }
        fs::create_dir(dir.join("sub")).unwrap();
        assert!(matches!(s.load("sub").unwrap_err(), StorageError::NotAFile { kind: "a directory", .. }));
        fs::write(dir.join("bin"), [b'o', b'k', 0xff, 0xfe]).unwrap();
        assert!(matches!(s.load("bin").unwrap_err(), StorageError::NotUtf8 { valid_up_to: 2, .. }));
        assert_eq!(s.load("missing.md").unwrap(), None);
        #[cfg(unix)]
        {
            let outside = scratch("outside");
            fs::write(outside.join("secret"), "s").unwrap();
            std::os::unix::fs::symlink(outside.join("secret"), dir.join("link")).unwrap();
            std::os::unix::fs::symlink(&outside, dir.join("away")).unwrap();
            assert!(matches!(s.load("link").unwrap_err(), StorageError::OutsideRoot { .. }));
            let e = s.save(request("away/new.md", "x", "")).unwrap_err();
            assert!(matches!(e, StorageError::OutsideRoot { .. }), "{e}");
            assert!(!outside.join("new.md").exists());
            // A link inside the root is followed.
            fs::write(dir.join("real.md"), "r").unwrap();
            std::os::unix::fs::symlink(dir.join("real.md"), dir.join("alias.md")).unwrap();
            assert_eq!(s.load("alias.md").unwrap().map(|d| d.text).as_deref(), Some("r"));
            fs::remove_dir_all(&outside).unwrap();
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
