//! Keeping the cache and storage in step (docs/workflow.md#external-changes-and-conflicts): changes storage made on
//! its own ([`Workspace::storage_changed`]), and the tools that resolve a disagreement —
//! `memo_diff`, `memo_refresh`, `memo_rebase`, `memo_discard` — with the read protocol
//! ([`Step::Load`] → [`Workspace::complete_load`]).
//!
//! An external change to a document without pending changes is taken silently (the next
//! summary says so). With pending changes it is a conflict: `OutOfSync` + `ExternalConflict`,
//! commit blocked, and the next editing call reports `ExternalConflict` instead of running.

use super::outcome::{Conflicted, DroppedChange, ReloadedDocument, StateNote, SyncOutcome, TaskEnded};
use super::views::render_preview;
use super::words::{self, Voice};
use super::{Awaiting, Document, LoadResult, Step, Workspace};
use crate::changeset::ChangeSet;
use crate::diagnostics::Category;
use crate::preview::{self, PreviewMode, PreviewOptions};
use crate::response::Response;
use crate::tasks::TaskStatus;
use crate::text::Text;
use crate::workspace::Tool;
use serde_json::json;

/// Why the workspace asked the shell to read storage.
#[derive(Clone, Debug)]
pub(super) enum LoadPurpose {
    /// `memo_refresh(path)`: reload, dropping its pending changes.
    Refresh { path: String },
    /// `memo_discard` while out of sync: drop everything and reload these documents.
    Discard { reason: String, paths: Vec<String> },
    /// `memo_diff(against="storage")` when storage's text is not known yet.
    Diff { path: String },
    /// A commit's writes failed: what storage holds now for those documents, before the answer
    /// (docs/workflow.md#saving).
    AfterFailedSave(Box<super::persist::FailedSave>),
}

impl Workspace {
    /// The shell reports what storage holds for `path` now (`raw: None`: the document was
    /// deleted). Versions the workspace already holds are ignored (the echo of its own save).
    /// Without pending changes in `path` the document is reloaded and the next summary says so;
    /// with pending changes it becomes a conflict. Returns whether anything changed.
    /// Cost: O(n) to load the text.
    pub fn storage_changed(&mut self, path: &str, raw: Option<&str>, version: Option<&str>) -> bool {
        self.storage_changed_with_edits(path, raw, version, None)
    }

    /// The text `raw` as the stored document `path` at `version`, with the change from the
    /// committed text to it when `path` is open and the change is the line diff of the two
    /// (not one replacement of a large middle): made as an edit of the committed text
    /// ([`Text::reloaded`]), so the two share every chunk the change does not touch and keeping
    /// both as versions costs only what changed (docs/workflow.md#live-context). A `String`
    /// handed over becomes the flat text without a copy. Cost: as `Text::reloaded` (O(n) for
    /// one changed region); O(n) for a path not open.
    fn stored(&self, path: &str, raw: impl Into<String>, version: &str) -> (Document, Option<ChangeSet>) {
        let version = version.to_string();
        match self.documents.docs.get(path) {
            Some(doc) => {
                let (text, changes) = doc.text.reloaded(raw.into());
                (Document { text, version }, changes)
            }
            None => (Document { text: Text::from_storage_string(raw.into()), version }, None),
        }
    }

    /// [`Workspace::storage_changed`], with the change itself when the shell knows it exactly
    /// (`steps`: in order, each the UTF-16 edits of the LF text before it, as a Yjs event's
    /// delta gives them). With `auto_rebase` on, pending changes the change does not overlap
    /// move onto it (docs/co-editing.md §Automatic rebase); steps that do not lead from the
    /// committed text to `raw` are ignored and the texts are diffed instead. `raw` as a `String`
    /// becomes the document's flat text without a copy. Cost: O(1) for a version the workspace
    /// knows (the echo of its own save: nothing is read); O(n) to load a new text.
    pub fn storage_changed_with_edits(
        &mut self,
        path: &str,
        raw: Option<impl AsRef<str> + Into<String>>,
        version: Option<&str>,
        steps: Option<&[Vec<super::PersistEdit>]>,
    ) -> bool {
        if let (Some(raw), Some(version)) = (&raw, version) {
            let bytes = raw.as_ref().len();
            if bytes > super::MAX_DOCUMENT_BYTES {
                return self.storage_too_large(path, version, bytes);
            }
        }
        let Some(doc) = self.documents.docs.get(path) else { return false };
        // What storage holds now: a version, or None when the document is gone.
        let reported = match (&raw, version) {
            (Some(_), Some(version)) => Some(version),
            _ => None,
        };
        let same = match reported {
            Some(v) => v == doc.version,
            None => doc.version.is_empty(),
        };
        let known_conflict = self.sync.conflicts.get(path).map(|c| c.as_ref().map(|d| d.version.as_str()));
        let known_version = doc.version.clone();
        let new_version = reported.map(str::to_string);
        if same || known_conflict == Some(new_version.as_deref()) {
            self.external_record(
                path,
                &known_version,
                new_version.as_deref(),
                "ignored: the version is already known (our own save, or a change already reported)",
            );
            return false;
        }
        // Read only now: the echo of a save, or a change already reported, never builds a text.
        let (storage, change) = match (raw, reported) {
            (Some(raw), Some(version)) => {
                let (doc, change) = self.stored(path, raw, version);
                (Some(doc), change)
            }
            _ => (None, None),
        };
        let pending = self.pending_in(path) > 0 && !self.documents.in_memory_commits.contains(path);
        if let Some(action) = if pending { self.auto_rebase(path, storage.as_ref(), steps, change.as_ref()) } else { None } {
            self.external_record(path, &known_version, new_version.as_deref(), action);
            return true;
        }
        let action = if self.documents.in_memory_commits.contains(path) && self.pending_in(path) == 0 {
            "kept: committed in memory only (persistence disabled)"
        } else if self.pending_in(path) == 0 {
            "reloaded: no pending changes"
        } else {
            "conflict: pending changes"
        };
        if self.documents.in_memory_commits.contains(path) && self.pending_in(path) == 0 {
            let version = storage.as_ref().map(|d| d.version.clone());
            self.note(StateNote::KeptInMemory { path: path.to_string(), version });
        } else if self.pending_in(path) == 0 {
            self.take_from_storage(path, storage);
        } else {
            self.remember_exact(path, storage.as_ref(), steps);
            self.sync.conflicts.insert(path.to_string(), storage);
            self.sync.unreported_conflict = true;
        }
        self.external_record(path, &known_version, new_version.as_deref(), action);
        true
    }

    /// Storage holds `bytes` at `version` for `path`, more than [`super::MAX_DOCUMENT_BYTES`]:
    /// the text is not loaded, the workspace keeps what it has (its drafts too), and the next
    /// response says so. A later save is refused by storage (its version moved on). Returns
    /// whether the workspace took notice (false for a path not open or a version it knows).
    /// The shell calls this directly for a text too large to hand over.
    pub fn storage_too_large(&mut self, path: &str, version: &str, bytes: usize) -> bool {
        let Some(doc) = self.documents.docs.get(path) else { return false };
        if doc.version == version {
            return false;
        }
        let known_version = doc.version.clone();
        let limit = super::MAX_DOCUMENT_BYTES;
        self.note(StateNote::TooLarge { path: path.to_string(), version: version.to_string(), bytes, limit, kept: known_version.clone() });
        self.external_record(path, &known_version, Some(version), &format!("refused: {bytes} bytes, over the limit of {limit}"));
        true
    }

    /// Storage reported a change of `path` that could not be taken in: the storage failed to
    /// read it, or returned something that is not a text and a version (`why` says which and
    /// where). Nothing is loaded; the next response says so. Returns whether the workspace took
    /// notice (false when `path` is not open).
    pub fn storage_unreadable(&mut self, path: &str, why: &str) -> bool {
        let Some(doc) = self.documents.docs.get(path) else { return false };
        let known_version = doc.version.clone();
        self.note(StateNote::Unreadable { path: path.to_string(), why: why.to_string(), kept: known_version.clone() });
        self.external_record(path, &known_version, None, &format!("refused: {why}"));
        true
    }

    /// A `TextEdit.External` record: what storage reported and what the workspace did.
    fn external_record(&mut self, path: &str, known: &str, reported: Option<&str>, action: &str) {
        let (state, flags) = (self.state(), self.flags());
        let id = format!("ext-{}", self.records.log.seq());
        self.records.diagnostics.record_event(
            Category::External,
            &id,
            "storage_changed",
            state.as_str(),
            &flags.names(),
            || json!({ "path": path, "known_version": known, "reported_version": reported, "action": action }),
        );
    }

    /// Makes storage's text (or its absence) the committed text of `path`, dropping the
    /// session's copy of it; says so in the next summary.
    pub(super) fn take_from_storage(&mut self, path: &str, storage: Option<Document>) {
        self.drop_path_from_session(path);
        self.sync.conflicts.remove(path);
        self.sync.persist_failures.remove(path);
        match storage {
            Some(doc) => {
                let version = doc.version.clone();
                self.record_external(path, &doc);
                self.documents.docs.insert(path.to_string(), doc);
                self.note(StateNote::Reloaded { path: path.to_string(), version });
                self.sync.reloaded_since_response.insert(path.to_string());
            }
            None => {
                if let Some(d) = self.documents.docs.get_mut(path) {
                    d.version = String::new(); // a later save must create it anew
                }
                self.note(StateNote::Deleted { path: path.to_string() });
            }
        }
    }

    /// Records storage's text of `path` as an external version for the live context (nothing
    /// when it equals the committed text).
    pub(super) fn record_external(&mut self, path: &str, storage: &Document) {
        let summary = words::external_version(&storage.version, self.settings.config.locale);
        self.record_version(path, crate::live_context::VersionKind::External, summary, None, storage.text.rope().clone(), None);
    }

    /// Drops the pending changes (and draft, and selection) of `path`; returns how many
    /// changes were dropped. An emptied session ends.
    fn drop_path_from_session(&mut self, path: &str) -> usize {
        let Some(s) = &mut self.turn.session else { return 0 };
        let dropped = s.drop_path(path);
        if s.is_empty() && s.selection.is_none() {
            self.turn.session = None;
        }
        dropped
    }

    /// The response that tells the agent, once, that storage changed under its pending changes;
    /// the editing call `tool` was not run.
    pub(super) fn conflict_report(&mut self, tool: Tool) -> Response {
        self.sync.unreported_conflict = false;
        let documents = self
            .sync
            .conflicts
            .iter()
            .map(|(path, s)| Conflicted {
                path: path.clone(),
                version: s.as_ref().map(|d| d.version.clone()),
                pending: self.pending_in(path),
            })
            .collect();
        let r = self.synced(&SyncOutcome::Conflict { documents, tool });
        let path = self.sync.conflicts.keys().next().cloned();
        self.finish(r, path.as_deref())
    }

    /// `memo_diff`: the draft against the committed text, or storage's text against the draft.
    pub(super) fn diff(&mut self, path: &str, against_storage: bool) -> Step {
        if !against_storage {
            let Some(session) = self.turn.session.as_ref().filter(|s| s.changes.iter().any(|c| c.path == path)) else {
                let r = self.synced(&SyncOutcome::NoPendingChanges { path: path.to_string() });
                return Step::Done(self.finish(r, Some(path)));
            };
            let mut r = self.synced(&SyncOutcome::DraftDiff { path: path.to_string(), pending: self.pending_in(path) });
            let opts = PreviewOptions { mode: PreviewMode::Diff, ..self.preview_options(None, None) };
            r.preview = Some(render_preview(session, path, &opts, self.settings.config.locale.words()).text);
            return Step::Done(self.finish(r, Some(path)));
        }
        match self.sync.conflicts.get(path) {
            Some(storage) => {
                let storage = storage.clone();
                Step::Done(self.storage_diff(path, storage.as_ref()))
            }
            None => {
                self.turn.awaiting = Some(Awaiting::Load(LoadPurpose::Diff { path: path.to_string() }));
                Step::Load(vec![path.to_string()])
            }
        }
    }

    /// Storage's text (`a/`) against the draft (`b/`), whole-document (storage's change ranges
    /// are unknown).
    fn storage_diff(&self, path: &str, storage: Option<&Document>) -> Response {
        let draft = self.draft_rope(path).to_string();
        let Some(storage) = storage else {
            let r = self.synced(&SyncOutcome::NotInStorage { path: path.to_string(), draft_chars: draft.chars().count() });
            return self.finish(r, Some(path));
        };
        let stored = storage.text.rope().to_string();
        let patch =
            preview::unified_whole(&stored, &draft, &format!("storage/{path}"), &format!("draft/{path}"), preview::DEFAULT_CONTEXT_LINES);
        if patch.is_empty() {
            let conflict = self.sync.conflicts.contains_key(path);
            let r = self.synced(&SyncOutcome::StorageIsDraft { path: path.to_string(), version: storage.version.clone(), conflict });
            return self.finish(r, Some(path));
        }
        let conflict = self.sync.conflicts.contains_key(path);
        let mut r = self.synced(&SyncOutcome::StorageDiff { path: path.to_string(), version: storage.version.clone(), conflict });
        r.preview = Some(patch);
        self.finish(r, Some(path))
    }

    /// `memo_refresh`: reloads `path` from storage, dropping its pending changes.
    pub(super) fn refresh(&mut self, path: &str) -> Step {
        self.turn.awaiting = Some(Awaiting::Load(LoadPurpose::Refresh { path: path.to_string() }));
        Step::Load(vec![path.to_string()])
    }

    /// `memo_discard`: `memo_revert`, and while out of sync also a reload of the documents that
    /// disagree with storage.
    pub(super) fn discard(&mut self, reason: Option<&str>) -> Step {
        let reason = reason.unwrap_or_default().to_string();
        let mut paths: Vec<String> = self.sync.conflicts.keys().chain(self.sync.persist_failures.keys()).cloned().collect();
        crate::sort::sort_by(&mut paths, |a, b| a.cmp(b));
        paths.dedup();
        if paths.is_empty() {
            return Step::Done(self.revert(&reason));
        }
        self.turn.awaiting = Some(Awaiting::Load(LoadPurpose::Discard { reason, paths: paths.clone() }));
        Step::Load(paths)
    }

    /// `memo_rebase`: re-applies the pending changes of `path` that storage's change does not
    /// overlap onto storage's text; the others are dropped and listed.
    pub(super) fn rebase(&mut self, path: &str) -> Response {
        let Some(storage) = self.sync.conflicts.get(path).cloned() else {
            let r = self.synced(&SyncOutcome::NothingToRebase { path: path.to_string() });
            return self.finish(r, Some(path));
        };
        let Some(storage) = storage else {
            let r = self.synced(&SyncOutcome::RebaseOntoDeleted { path: path.to_string() });
            return self.finish(r, Some(path));
        };
        let exact = self.take_exact(path, &storage);
        let outcome = match (self.turn.session.as_mut(), exact) {
            (Some(s), Some(external)) => s.rebase_with(path, &storage.text, &external),
            (Some(s), None) => s.rebase(path, &storage.text),
            (None, _) => Default::default(),
        };
        let version = storage.version.clone();
        self.record_external(path, &storage);
        self.documents.docs.insert(path.to_string(), storage);
        self.sync.conflicts.remove(path);
        self.sync.persist_failures.remove(path);
        if self.sync.conflicts.is_empty() {
            self.sync.unreported_conflict = false;
        }
        let dropped = outcome
            .conflicts
            .iter()
            .map(|c| DroppedChange { id: c.id, old_text: c.first_place().old_text.clone(), new_text: c.first_place().new_text.clone() })
            .collect();
        let mut r = self.synced(&SyncOutcome::Rebased { path: path.to_string(), version, kept: outcome.kept.clone(), dropped });
        if let Some(s) = &self.turn.session {
            if s.changes.iter().any(|c| c.path == path) {
                r.preview = Some(render_preview(s, path, &self.preview_options(None, None), self.settings.config.locale.words()).text);
            }
        }
        r.fingerprint = Some(self.draft_fingerprint(path).to_string());
        self.finish(r, Some(path))
    }

    /// Finishes a read step with what storage returned (one result per path).
    pub fn complete_load(&mut self, results: Vec<LoadResult>) -> Step {
        let mut step = match self.turn.awaiting.take() {
            Some(Awaiting::Load(purpose)) => Step::Done(self.loaded(purpose, results)),
            other => {
                self.turn.awaiting = other;
                self.wrong_completion("read", "completeLoad", "load")
            }
        };
        self.after_step(&mut step);
        step
    }

    fn loaded(&mut self, purpose: LoadPurpose, results: Vec<LoadResult>) -> Response {
        let paths = match purpose {
            LoadPurpose::Refresh { ref path } | LoadPurpose::Diff { ref path } => vec![path.clone()],
            LoadPurpose::Discard { ref paths, .. } => paths.clone(),
            // A read that fails here leaves the save's failure as it was.
            LoadPurpose::AfterFailedSave(failed) => return self.reread_after_failed_save(*failed, results),
        };
        let mut read = Vec::new();
        let mut results = results;
        for path in &paths {
            match results.iter_mut().find(|r| r.path() == path) {
                Some(LoadResult::Loaded { text, .. }) if text.len() > super::MAX_DOCUMENT_BYTES => {
                    let error = super::check_size(path, text.len()).err().map(|e| e.to_string()).unwrap_or_default();
                    return self.load_failed(path, &error);
                }
                // The string is taken, not copied: it becomes the document's flat text.
                Some(LoadResult::Loaded { text, version, .. }) => {
                    read.push((path.clone(), Some(self.stored(path, std::mem::take(text), version).0)))
                }
                Some(LoadResult::Missing { .. }) => read.push((path.clone(), None)),
                Some(LoadResult::Failed { error, .. }) => return self.load_failed(path, error),
                None => return self.load_failed(path, "the host reported no result"),
            }
        }
        match purpose {
            LoadPurpose::Diff { path } => {
                let storage = read.pop().and_then(|(_, d)| d);
                let changed = match &storage {
                    Some(d) => d.version != self.open_doc(&path).version,
                    None => !self.open_doc(&path).version.is_empty(),
                };
                if changed {
                    // What the diff revealed is an external change like any other.
                    let raw = storage.as_ref().map(|d| d.text.to_storage());
                    let version = storage.as_ref().map(|d| d.version.clone());
                    self.storage_changed_with_edits(&path, raw, version.as_deref(), None);
                    self.sync.unreported_conflict = false; // this response says it
                }
                self.storage_diff(&path, storage.as_ref())
            }
            LoadPurpose::Refresh { path } => {
                let storage = read.pop().and_then(|(_, d)| d);
                let Some(storage) = storage else {
                    // A deletion the workspace did not know of is an external change like any
                    // other: a conflict with pending changes, else taken (the text is kept).
                    if !self.open_doc(&path).version.is_empty() {
                        self.storage_changed(&path, None, None);
                    }
                    let conflict = self.sync.conflicts.contains_key(&path);
                    if conflict {
                        self.sync.unreported_conflict = false; // this response says it
                    }
                    let r = self.synced(&SyncOutcome::RefreshDeleted { path: path.clone(), conflict });
                    return self.finish(r, Some(&path));
                };
                let unchanged = storage.version == self.open_doc(&path).version && storage.text.rope() == self.open_doc(&path).text.rope();
                let quiet = !self.sync.conflicts.contains_key(&path)
                    && !self.sync.persist_failures.contains_key(&path)
                    && !self.documents.in_memory_commits.contains(&path);
                if unchanged && quiet && self.pending_in(&path) == 0 {
                    // Nothing to reload and nothing to drop: a pending choice stays (its ranges
                    // are still those of this text), as a NoOp promises.
                    let r = self.synced(&SyncOutcome::AlreadyInStep { path: path.clone(), version: storage.version.clone() });
                    return self.finish(r, Some(&path));
                }
                let dropped = self.drop_path_from_session(&path);
                self.documents.in_memory_commits.remove(&path);
                let version = storage.version.clone();
                self.record_external(&path, &storage);
                self.documents.docs.insert(path.clone(), storage);
                self.sync.conflicts.remove(&path);
                self.sync.persist_failures.remove(&path);
                if self.sync.conflicts.is_empty() {
                    self.sync.unreported_conflict = false;
                }
                let r = self.synced(&if unchanged && dropped == 0 {
                    SyncOutcome::AlreadyInStep { path: path.clone(), version }
                } else {
                    SyncOutcome::Reloaded { path: path.clone(), version, dropped }
                });
                self.finish(r, Some(&path))
            }
            LoadPurpose::Discard { reason, .. } => {
                let n = self.turn.session.as_ref().map_or(0, |s| s.changes.len());
                let task = self.records.tasks.pop(TaskStatus::Reverted, &reason).map(|t| TaskEnded { id: t.id, goal: t.goal.clone() });
                if let Some(s) = self.turn.session.take() {
                    self.records.history.end(s.id, crate::history::Outcome::Reverted { reason: reason.clone() });
                }
                self.turn.recommended = None;
                self.sync.persist_failures.clear();
                self.sync.conflicts.clear();
                self.sync.unreported_conflict = false;
                let mut reloaded = Vec::new();
                for (path, storage) in read {
                    match storage {
                        Some(doc) => {
                            reloaded.push(ReloadedDocument { path: path.clone(), version: Some(doc.version.clone()) });
                            self.record_external(&path, &doc);
                            self.documents.docs.insert(path, doc);
                        }
                        None => {
                            if let Some(d) = self.documents.docs.get_mut(&path) {
                                d.version = String::new();
                            }
                            reloaded.push(ReloadedDocument { path, version: None });
                        }
                    }
                }
                let r = self.synced(&SyncOutcome::Discarded { changes: n, reason, reloaded, task });
                self.finish(r, None)
            }
            LoadPurpose::AfterFailedSave(failed) => self.reread_after_failed_save(*failed, Vec::new()),
        }
    }

    /// The response for `outcome`, worded against the current state. Cost: O(its words).
    fn synced(&self, outcome: &SyncOutcome) -> Response {
        words::sync(outcome, &Voice::of(self))
    }

    /// Says `note` once, at the start of the next response's summary.
    pub(super) fn note(&mut self, note: StateNote) {
        self.turn.notes.push(words::state_note(&note, &self.settings.config.tool_prefix, self.settings.config.locale));
    }

    fn load_failed(&mut self, path: &str, error: &str) -> Response {
        let r = self.synced(&SyncOutcome::LoadFailed { path: path.to_string(), error: error.to_string() });
        self.finish(r, Some(path))
    }
}
