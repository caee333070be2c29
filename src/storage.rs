//! Driving the sans-IO steps from Rust (docs/architecture.md#sans-io-steps): the [`Storage`]
//! a host saves to and loads from, and [`Workspace::run`], which runs a tool call to its final
//! [`Response`] by performing every [`Step::Persist`] and [`Step::Load`] with a storage, as the
//! TypeScript `Workspace` does with its `StorageProvider`.
//!
//! Two storages ship: [`MemoryStorage`] (always; tests, demos, fault injection) and, with the
//! `fs` cargo feature (off by default, never on for wasm), [`FsStorage`] on a folder.

use std::fmt;

use serde_json::Value;

use crate::response::Response;
use crate::workspace::{
    CallContext, LoadResult, PersistRequest, PersistResult, RecordRequest, RecordResult, Step, StoredAt, Workspace, WorkspaceError,
};

#[cfg(all(feature = "fs", not(target_arch = "wasm32")))]
mod fs;
#[cfg(all(feature = "fs", not(target_arch = "wasm32")))]
mod fs_lock;
mod memory;

#[cfg(all(feature = "fs", not(target_arch = "wasm32")))]
pub use fs::FsStorage;
pub use memory::{MemoryStorage, Numbering};

/// A document as storage holds it: the raw text (line endings and BOM as stored) and the
/// storage's version string for exactly these bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub text: String,
    pub version: String,
}

/// Where documents live. The workspace never calls a storage itself: [`Workspace::run`] (or
/// the host's own loop) does, for the steps a call returns. Implement [`load`](Storage::load)
/// and [`save`](Storage::save); [`persist`](Storage::persist) and
/// [`load_all`](Storage::load_all) have the protocol's defaults.
pub trait Storage {
    /// The document at `path`, or `None` when storage holds none there.
    fn load(&mut self, path: &str) -> Result<Option<Stored>, StorageError>;

    /// Writes `request.text` to `request.path` if storage still holds `request.expected_version`
    /// there (`""`: no document may exist yet), and returns the new version. On any error
    /// nothing may have been written. `request.edits` is the same write as UTF-16 replacements,
    /// for storages that merge live edits; a file storage ignores it. The request is handed
    /// over, so a storage that keeps the text keeps it without a copy.
    fn save(&mut self, request: PersistRequest) -> Result<String, StorageError>;

    /// One [`Step::Persist`]: the writes in order, stopping at the first failure (later
    /// documents are left untouched), one result per write attempted. Override it to write a
    /// step as one transaction.
    fn persist(&mut self, requests: Vec<PersistRequest>) -> Vec<PersistResult> {
        let mut results = Vec::with_capacity(requests.len());
        for request in requests {
            let path = request.path.clone();
            match self.save(request) {
                Ok(version) => results.push(PersistResult::Saved { path, version }),
                Err(e) => {
                    results.push(PersistResult::Failed { path, error: e.to_string() });
                    break;
                }
            }
        }
        results
    }

    /// One [`Step::Record`] (asked only after [`Workspace::keep_records`]): record what a call
    /// saved in the storage's own history and say what came of it. Default: nothing recorded.
    fn record(&mut self, request: &RecordRequest) -> RecordResult {
        let _ = request;
        RecordResult::None
    }

    /// One [`Step::LoadAt`] (asked only after [`Workspace::keep_records`]): `path` as it was at
    /// `version` of the storage's own history. Default: no such history.
    fn load_at(&mut self, path: &str, version: &str) -> StoredAt {
        let _ = (path, version);
        StoredAt::None
    }

    /// One [`Step::Load`]: every path read, one result each.
    fn load_all(&mut self, paths: &[String]) -> Vec<LoadResult> {
        paths.iter().map(|path| load_result(path, self.load(path))).collect()
    }
}

/// A [`Storage::load`] outcome as the workspace takes it.
pub(crate) fn load_result(path: &str, loaded: Result<Option<Stored>, StorageError>) -> LoadResult {
    let path = path.to_string();
    match loaded {
        Ok(Some(Stored { text, version })) => LoadResult::Loaded { path, text, version },
        Ok(None) => LoadResult::Missing { path },
        Err(e) => LoadResult::Failed { path, error: e.to_string() },
    }
}

/// Why a path is refused before storage is touched (the rules of the package's NodeFsStorage).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathRule {
    /// The empty path.
    Empty,
    /// A NUL character.
    Nul,
    /// `\` (the separator is `/` on every platform).
    Backslash,
    /// `/etc/x`, `C:…`: paths are relative to the root.
    Absolute,
    /// A `..` segment would leave the root.
    ParentSegment,
    /// `./a`, `a//b`: empty or `.` segments (one path, one spelling).
    EmptyOrDotSegment,
}

impl PathRule {
    /// What the rule asks of a path.
    pub fn guidance(self) -> &'static str {
        match self {
            PathRule::Empty => "the path must be a non-empty string relative to the root",
            PathRule::Nul => "the path contains a NUL character",
            PathRule::Backslash => "use \"/\" as the separator (no \"\\\")",
            PathRule::Absolute => "absolute paths are not allowed; give a path relative to the root",
            PathRule::ParentSegment => "\"..\" would leave the root",
            PathRule::EmptyOrDotSegment => "write the path without empty or \".\" segments (e.g. \"docs/a.md\", not \"./docs//a.md\")",
        }
    }

    /// The first rule `path` breaks, if any. O(length of the path).
    pub fn check(path: &str) -> Option<PathRule> {
        let bytes = path.as_bytes();
        if path.is_empty() {
            Some(PathRule::Empty)
        } else if path.contains('\0') {
            Some(PathRule::Nul)
        } else if path.contains('\\') {
            Some(PathRule::Backslash)
        } else if path.starts_with('/')
            || (bytes.len() >= 2 && bytes.first().is_some_and(u8::is_ascii_alphabetic) && bytes.get(1) == Some(&b':'))
        {
            Some(PathRule::Absolute)
        } else if path.split('/').any(|s| s == "..") {
            Some(PathRule::ParentSegment)
        } else if path.split('/').any(|s| s.is_empty() || s == ".") {
            Some(PathRule::EmptyOrDotSegment)
        } else {
            None
        }
    }
}

/// Why a storage refused a load or a save. Every variant names the path, and the bad value and
/// the limit where there is one; nothing was written when a save returns one.
#[derive(Debug)]
#[non_exhaustive]
pub enum StorageError {
    /// The stored version is not the one the write expected (`expected` `""`: no document may
    /// exist; `found` `None`: none exists).
    VersionMismatch { path: String, expected: String, found: Option<String> },
    /// A path that breaks a [`PathRule`].
    BadPath { path: String, rule: PathRule },
    /// The path leads, through a symbolic link, to `target` outside the storage's root.
    OutsideRoot { path: String, target: std::path::PathBuf, root: std::path::PathBuf },
    /// Something other than a regular file is there (`kind`: "a directory", "a named pipe", …).
    NotAFile { path: String, kind: &'static str },
    /// The document is `bytes` long, over `limit` ([`crate::MAX_DOCUMENT_BYTES`]); not read.
    TooLarge { path: String, bytes: u64, limit: usize },
    /// The bytes are not UTF-8 from byte `valid_up_to` on; not read.
    NotUtf8 { path: String, valid_up_to: usize },
    /// The file has no write permission (`mode`: its permission bits, 0 where there are none).
    ReadOnly { path: String, mode: u32 },
    /// Another program wrote the file while it was being saved; nothing was written.
    ChangedDuringSave { path: String },
    /// Another save holds the file's lock (`lock`: its directory) and kept it alive for the
    /// whole wait of `waited_ms`; nothing was written.
    Locked { path: String, lock: std::path::PathBuf, waited_ms: u64 },
    /// The operating system refused (`operation`: "read", "write", "rename", …).
    Io { path: String, operation: &'static str, source: std::io::Error },
    /// A failure a [`MemoryStorage`] was told to simulate; `message` is what it reads as.
    Injected { path: String, message: String },
}

impl StorageError {
    /// The path the error is about.
    pub fn path(&self) -> &str {
        match self {
            StorageError::VersionMismatch { path, .. }
            | StorageError::BadPath { path, .. }
            | StorageError::OutsideRoot { path, .. }
            | StorageError::NotAFile { path, .. }
            | StorageError::TooLarge { path, .. }
            | StorageError::NotUtf8 { path, .. }
            | StorageError::ReadOnly { path, .. }
            | StorageError::ChangedDuringSave { path }
            | StorageError::Locked { path, .. }
            | StorageError::Io { path, .. }
            | StorageError::Injected { path, .. } => path,
        }
    }
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::VersionMismatch { path, expected, found } => match (expected.as_str(), found) {
                ("", Some(found)) => write!(f, "version mismatch for \"{path}\": expected a new document, storage has {found}; load it first"),
                (expected, None) => write!(f, "version mismatch for \"{path}\": expected {expected}, but storage holds no such document"),
                (expected, Some(found)) => write!(f, "version mismatch for \"{path}\": expected {expected}, storage has {found} (it changed since it was loaded; load it again)"),
            },
            StorageError::BadPath { path, rule } => write!(f, "path {path:?} refused: {}", rule.guidance()),
            StorageError::OutsideRoot { path, target, root } => {
                write!(f, "path {path:?} refused: it resolves through a symbolic link to {}, outside the root {}", target.display(), root.display())
            }
            StorageError::NotAFile { path, kind } => write!(f, "path {path:?} refused: it is {kind}, not a regular file"),
            StorageError::TooLarge { path, bytes, limit } => write!(
                f,
                "\"{path}\" is {bytes} bytes, over the limit of {limit} bytes ({} MiB) per document; it was not read",
                limit / (1024 * 1024)
            ),
            StorageError::NotUtf8 { path, valid_up_to } => {
                write!(f, "\"{path}\" is not UTF-8 text (invalid bytes at byte {valid_up_to}); open only text files")
            }
            StorageError::ReadOnly { path, mode } => write!(f, "cannot save \"{path}\": it is read-only (mode {mode:04o}); the file is unchanged"),
            StorageError::ChangedDuringSave { path } => {
                write!(f, "\"{path}\" changed on disk while it was being saved; nothing was written. Load it again")
            }
            StorageError::Locked { path, lock, waited_ms } => write!(
                f,
                "cannot save \"{path}\": another save holds its lock {} (waited {} s); nothing was written. If no agentpad process is saving it, remove that directory",
                lock.display(),
                waited_ms / 1000
            ),
            StorageError::Io { path, operation, source } => write!(f, "cannot {operation} \"{path}\": {source}"),
            StorageError::Injected { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for StorageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StorageError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why [`Workspace::open_from`] opened nothing.
#[derive(Debug)]
pub enum OpenError {
    /// Storage holds no document at the path.
    Missing { path: String },
    /// The storage refused the load.
    Storage(StorageError),
    /// The workspace refused the text (too large, pending changes, …).
    Workspace(WorkspaceError),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Missing { path } => write!(f, "storage holds no document at \"{path}\"; create it with memo_create"),
            OpenError::Storage(e) => e.fmt(f),
            OpenError::Workspace(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Missing { .. } => None,
            OpenError::Storage(e) => Some(e),
            OpenError::Workspace(e) => Some(e),
        }
    }
}

impl From<StorageError> for OpenError {
    fn from(e: StorageError) -> Self {
        OpenError::Storage(e)
    }
}

impl From<WorkspaceError> for OpenError {
    fn from(e: WorkspaceError) -> Self {
        OpenError::Workspace(e)
    }
}

impl Workspace {
    /// Runs the tool call `name` with `args` to its final response: every [`Step::Persist`]
    /// and [`Step::Load`] the call returns is performed with `storage` and reported back
    /// ([`Storage::persist`], [`Storage::load_all`]). Never fails: a storage error becomes the
    /// response's status (`PersistFailure`, `OutOfSync`, …) with the storage's message.
    /// Cost: the call's, plus the storage's work (a commit writes each touched document once,
    /// and once more for compensating writes when a multi-document commit fails part way).
    ///
    /// ```
    /// use agentpad::{CallContext, Config, MemoryStorage, Status, Workspace};
    /// use serde_json::json;
    ///
    /// let mut storage = MemoryStorage::new(&[("config.yaml", "timeout: 30\n")]);
    /// let mut ws = Workspace::new(Config::default());
    /// ws.open_from(&mut storage, "config.yaml")?;
    /// let ctx = CallContext::default();
    /// let staged = ws.run("memo_replace", &json!({"old_text": "30", "new_text": "60"}), &ctx, &mut storage);
    /// assert_eq!(staged.status, Status::Success);
    /// let committed = ws.run("memo_commit", &json!({"summary": "longer timeout"}), &ctx, &mut storage);
    /// assert_eq!(committed.status, Status::Success);
    /// assert_eq!(storage.text("config.yaml"), Some("timeout: 60\n"));
    /// # Ok::<(), agentpad::OpenError>(())
    /// ```
    pub fn run<S: Storage + ?Sized>(&mut self, name: &str, args: &Value, ctx: &CallContext, storage: &mut S) -> Response {
        let step = self.call(name, args, ctx);
        self.drive(step, storage)
    }

    /// Performs `step` and every step after it with `storage` until the workspace is done —
    /// for a step the host obtained itself (from [`Workspace::call`], or a completion).
    /// Cost: the storage's work and the completions'.
    pub fn drive<S: Storage + ?Sized>(&mut self, mut step: Step, storage: &mut S) -> Response {
        loop {
            step = match step {
                Step::Done(response) => return response,
                Step::Persist(requests) => {
                    let results = storage.persist(requests);
                    self.complete_persist(results)
                }
                Step::Load(paths) => {
                    let results = storage.load_all(&paths);
                    self.complete_load(results)
                }
                // A storage embeds nothing: the find ranks by words alone and says so.
                Step::Embed(_) => self.complete_embed(Err("this host has no embedder".into())),
                Step::Record(request) => {
                    let result = storage.record(&request);
                    self.complete_record(result)
                }
                Step::LoadAt { path, version } => {
                    let found = storage.load_at(&path, &version);
                    self.complete_load_at(found)
                }
            }
        }
    }

    /// Loads `path` from `storage` and opens it at the stored version ([`Workspace::open`]).
    /// Errors: [`OpenError::Missing`] when storage holds no document there, the storage's
    /// error, or the workspace's (a document over [`crate::MAX_DOCUMENT_BYTES`], pending changes
    /// to it). Cost: one load, and O(n) to take the text in.
    ///
    /// ```
    /// use agentpad::{Config, MemoryStorage, OpenError, Workspace};
    ///
    /// let mut storage = MemoryStorage::new(&[("notes.md", "# Notes\r\n")]);
    /// let mut ws = Workspace::new(Config::default());
    /// ws.open_from(&mut storage, "notes.md")?;
    /// assert_eq!(ws.version("notes.md"), Some("v1"));
    /// assert_eq!(ws.text(None)?, "# Notes\n"); // line endings are restored when it is written
    /// assert!(matches!(ws.open_from(&mut storage, "missing.md"), Err(OpenError::Missing { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_from<S: Storage + ?Sized>(&mut self, storage: &mut S, path: &str) -> Result<(), OpenError> {
        let stored = storage.load(path)?.ok_or_else(|| OpenError::Missing { path: path.to_string() })?;
        self.open(path, &stored.text, &stored.version)?;
        Ok(())
    }
}
