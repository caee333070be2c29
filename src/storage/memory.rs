//! [`MemoryStorage`]: documents in a map, for tests, demos and fault injection (the Rust twin of
//! the package's `MemoryStorage`).

use std::collections::BTreeMap;

use super::{load_result, Storage, StorageError, Stored};
use crate::workspace::{LoadResult, PersistRequest};

/// What a save fails with when [`MemoryStorage::fail_next_save`] or
/// [`MemoryStorage::failing_paths`] asks for a failure.
pub const INJECTED_SAVE_ERROR: &str = "disk full";
/// What a load fails with when [`MemoryStorage::fail_next_load`] asks for a failure.
pub const INJECTED_LOAD_ERROR: &str = "permission denied";

/// How a [`MemoryStorage`] numbers versions (`"v<n>"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbering {
    /// `v1`, `v2`, … per path, as the package's MemoryStorage: a document removed and written
    /// again starts at `v1` anew.
    #[default]
    PerPath,
    /// One counter for every path: no version string is ever given twice, even to a path
    /// removed and written again (what a property test that deletes documents needs).
    Shared,
}

/// Documents in memory. Versions are `"v<n>"` ([`Numbering`]). The fields are plain data a
/// test may read and change directly: the documents, the log of saves, and the failures to
/// simulate. A save checks the expected version like a real storage and fails with
/// [`StorageError::VersionMismatch`] when it differs.
///
/// ```
/// use agentpad::{MemoryStorage, Storage};
///
/// let mut storage = MemoryStorage::new(&[("a.md", "one\n")]);
/// assert_eq!(storage.version("a.md").as_deref(), Some("v1"));
/// let v2 = storage.write("a.md", "two\n"); // another program changes it
/// assert_eq!(v2, "v2");
/// assert_eq!(storage.load("a.md")?.map(|d| d.text).as_deref(), Some("two\n"));
/// assert!(storage.load("b.md")?.is_none());
/// # Ok::<(), agentpad::StorageError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MemoryStorage {
    /// Path → (raw text, version number).
    pub files: BTreeMap<String, (String, u64)>,
    /// Every save performed, in order: (path, text), while `log_writes` is on.
    pub writes: Vec<(String, String)>,
    /// Whether saves are logged in `writes` (on by default; a benchmark turns it off: each
    /// entry is a copy of the text).
    pub log_writes: bool,
    /// The next save (of any path) fails with [`INJECTED_SAVE_ERROR`].
    pub fail_next_save: bool,
    /// Saves of these paths fail with [`INJECTED_SAVE_ERROR`] until removed.
    pub failing_paths: Vec<String>,
    /// Every path of the next load step fails with [`INJECTED_LOAD_ERROR`].
    pub fail_next_load: bool,
    pub numbering: Numbering,
    /// The last number [`Numbering::Shared`] gave.
    last_shared: u64,
}

impl Default for MemoryStorage {
    fn default() -> Self {
        MemoryStorage {
            files: BTreeMap::new(),
            writes: Vec::new(),
            log_writes: true,
            fail_next_save: false,
            failing_paths: Vec::new(),
            fail_next_load: false,
            numbering: Numbering::PerPath,
            last_shared: 0,
        }
    }
}

impl MemoryStorage {
    /// A storage holding `documents` (path, raw text), each at version `v1` (with
    /// [`Numbering::Shared`]: `v1`, `v2`, … in order). O(total size).
    pub fn new(documents: &[(&str, &str)]) -> MemoryStorage {
        MemoryStorage::with_numbering(documents, Numbering::PerPath)
    }

    /// [`MemoryStorage::new`] with another [`Numbering`].
    pub fn with_numbering(documents: &[(&str, &str)], numbering: Numbering) -> MemoryStorage {
        let mut storage = MemoryStorage { numbering, ..MemoryStorage::default() };
        for (path, text) in documents {
            storage.write(path, text);
        }
        storage
    }

    /// An external change: stores `text` at `path` under a new version and returns it
    /// (nothing is logged in [`MemoryStorage::writes`]). O(1) besides moving the text.
    pub fn write(&mut self, path: &str, text: &str) -> String {
        let n = self.next_number(path);
        self.files.insert(path.to_string(), (text.to_string(), n));
        format!("v{n}")
    }

    /// An external deletion; whether the path held a document. O(log n).
    pub fn remove(&mut self, path: &str) -> bool {
        self.files.remove(path).is_some()
    }

    /// The stored raw text of `path`. O(log n).
    pub fn text(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(|(text, _)| text.as_str())
    }

    /// The stored version of `path` (`"v<n>"`). O(log n).
    pub fn version(&self, path: &str) -> Option<String> {
        self.files.get(path).map(|(_, n)| format!("v{n}"))
    }

    fn next_number(&mut self, path: &str) -> u64 {
        match self.numbering {
            Numbering::PerPath => self.files.get(path).map_or(1, |(_, n)| n + 1),
            Numbering::Shared => {
                self.last_shared += 1;
                self.last_shared
            }
        }
    }
}

impl Storage for MemoryStorage {
    /// The stored document, or [`INJECTED_LOAD_ERROR`] when `fail_next_load` is set (which it
    /// clears). O(size of the text): it is copied.
    fn load(&mut self, path: &str) -> Result<Option<Stored>, StorageError> {
        if std::mem::take(&mut self.fail_next_load) {
            return Err(StorageError::Injected { path: path.to_string(), message: INJECTED_LOAD_ERROR.into() });
        }
        Ok(self.files.get(path).map(|(text, n)| Stored { text: text.clone(), version: format!("v{n}") }))
    }

    /// Stores the text under the next version if the stored version is the expected one.
    /// Errors: [`StorageError::Injected`] as asked (`fail_next_save`, which it clears, or
    /// `failing_paths`), [`StorageError::VersionMismatch`]. O(size of the text).
    fn save(&mut self, request: PersistRequest) -> Result<String, StorageError> {
        let PersistRequest { path, text, expected_version, .. } = request;
        if std::mem::take(&mut self.fail_next_save) || self.failing_paths.contains(&path) {
            return Err(StorageError::Injected { path, message: INJECTED_SAVE_ERROR.into() });
        }
        let found = self.version(&path);
        if found.as_deref().unwrap_or("") != expected_version {
            return Err(StorageError::VersionMismatch { path, expected: expected_version, found });
        }
        let n = self.next_number(&path);
        if self.log_writes {
            self.writes.push((path.clone(), text.clone()));
        }
        self.files.insert(path, (text, n));
        Ok(format!("v{n}"))
    }

    /// Every path read; `fail_next_load` fails every path of the step, not only the first.
    fn load_all(&mut self, paths: &[String]) -> Vec<LoadResult> {
        let fail = std::mem::take(&mut self.fail_next_load);
        paths
            .iter()
            .map(|path| {
                self.fail_next_load = fail;
                let result = load_result(path, self.load(path));
                self.fail_next_load = false;
                result
            })
            .collect()
    }
}
