//! Ending a session: `memo_commit` (all documents, all or nothing), `memo_commit_auto`,
//! `memo_revert`, `memo_persist_as`, and the write protocol with the shell
//! (docs/architecture.md#sans-io-steps, docs/workflow.md#saving).
//!
//! A commit asks the shell to write every touched document ([`Step::Persist`]). If every write
//! succeeds, the drafts become the committed texts. If one fails, the documents already written
//! are written back to their old text (compensating writes, a second `Persist` step), every
//! draft is kept, and the status is `PersistFailure`: there is never a half commit that the
//! agent does not hear about. Only when a compensating write fails too does storage keep a new
//! text; the response then says which documents were committed after all.

use super::outcome::{CommitFailed, Committed, PendingSummary, PersistOutcome, TaskEnded, UnsafePath};
use super::words::{self, Voice};
use super::{Awaiting, Document, LoadResult, PersistRequest, PersistResult, Step, Workspace};
use serde_json::json;

use crate::changeset::ChangeSet;
use crate::diagnostics::Category;
use crate::live_context::VersionKind;
use crate::response::{Response, Status};
use crate::session::Letter;
use crate::tasks::TaskStatus;
use crate::text::{char_to_utf16, Text};
use crate::workflow::PersistMode;
use ropey::Rope;

/// A commit whose writes the shell is performing.
#[derive(Clone, Debug)]
pub(super) struct CommitInFlight {
    summary: String,
    /// The new committed text of each touched document, in write order.
    texts: Vec<(String, Text)>,
    /// The pending changes of each text in `texts` (same order), against its committed text:
    /// the write's edits, and inverted, the compensating write's.
    sets: Vec<ChangeSet>,
    changes: usize,
    delta: isize,
    /// Complete and pop the current task when the commit succeeds.
    auto_pop: bool,
    /// What an immediate-mode edit staged, reported with the outcome.
    lead: Option<Lead>,
    /// The candidates that waited for a choice when the commit began (first and last letter
    /// still stageable): the commit dropped them (docs/workflow.md#visible-tools).
    dropped: Option<(Letter, Letter)>,
}

/// The staging an immediate-mode commit reports before its outcome: the edit's summary
/// sentences, whether it warned (the view writes `[Warning]` from it) and its preview.
#[derive(Clone, Debug)]
pub(super) struct Lead {
    pub summary: String,
    pub preview: Option<String>,
    pub warned: bool,
}

/// A commit whose writes failed, waiting for storage to be read again before its answer
/// ([`Workspace::commit_failed`]).
#[derive(Clone, Debug)]
pub(super) struct FailedSave {
    outcome: CommitFailed,
    /// What an immediate-mode edit staged: its preview and warning lead the answer.
    lead: Option<Lead>,
}

/// Compensating writes after a failed multi-document commit.
#[derive(Clone, Debug)]
pub(super) struct RollbackInFlight {
    commit: CommitInFlight,
    /// `path: error` of the writes that failed or were not attempted.
    failures: Vec<(String, String)>,
    /// Documents the commit had written, with the version storage gave them.
    written: Vec<(String, String)>,
}

impl Workspace {
    /// The committed texts the host holds a copy of, by fingerprint, for the call about to run
    /// (src/host_texts.rs): a commit's write of one of them is requested without its text,
    /// which the host makes from the edits. Returns the ones set before. Cost: O(1).
    #[cfg(any(target_arch = "wasm32", test))]
    pub(crate) fn set_held_by_host(&mut self, held: Vec<(String, crate::text::Fingerprint)>) -> Vec<(String, crate::text::Fingerprint)> {
        std::mem::replace(&mut self.documents.held_by_host, held)
    }

    /// `memo_commit`: asks the shell to write every document with pending changes (or applies
    /// them in memory when persistence is disabled). `lead` prefixes the summary (immediate mode
    /// reports the edit it saved). Cost: O(size of the documents written) for the texts in
    /// storage form.
    pub(super) fn commit(&mut self, summary: &str, auto_pop: bool, lead: Option<Lead>) -> Step {
        let Some(session) = self.turn.session.as_ref().filter(|s| !s.is_empty()) else {
            if auto_pop && lead.is_none() {
                if let Some(task) = self.records.tasks.pop(TaskStatus::Completed, summary) {
                    let task = TaskEnded { id: task.id, goal: task.goal.clone() };
                    let r = self.persisted(&PersistOutcome::TaskCompleted(task));
                    return Step::Done(self.finish(r, None));
                }
            }
            let r = self.persisted(&PersistOutcome::NothingToCommit);
            return Step::Done(self.finish(r, None));
        };
        let mut texts = Vec::new();
        let mut sets = Vec::new();
        let writes = self.settings.config.persist_mode != PersistMode::Disabled;
        let mut edits = Vec::new();
        for (p, doc) in &session.docs {
            if session.changes.iter().any(|c| &c.path == p) {
                // Edits cannot grow a draft past the limit, but a rebase onto a larger storage
                // text can: such a draft is never written.
                let bytes = doc.base.storage_len_of(&doc.draft);
                if bytes > super::MAX_DOCUMENT_BYTES {
                    let r = self.persisted(&PersistOutcome::DraftTooLarge { path: p.clone(), bytes, limit: super::MAX_DOCUMENT_BYTES });
                    return Step::Done(self.finish(r, Some(p)));
                }
                let set = session.change_set(p).0;
                // Where the changes cut the flat text, found once: the new flat text, its block
                // index and the write's edits all cut there (docs/performance.md#commit-and-text).
                let ranges = set.byte_ranges(doc.base.rope(), doc.base.flat()).ok();
                let text = doc.base.committed_at(doc.draft.clone(), &set, ranges.as_deref());
                if writes {
                    // The write edits the committed text, which the session's base is unless
                    // something replaced it underneath (then its own ranges are found).
                    let old = &self.open_doc(p).text;
                    edits.push(match ranges.as_deref() {
                        Some(at) if old.fingerprint() == doc.base.fingerprint() => write_edits_at(old, &set, at, text.rope()),
                        _ => write_edits(old, &set, text.rope()),
                    });
                }
                texts.push((p.clone(), text));
                sets.push(set);
            }
        }
        let (changes, delta) = (session.changes.len(), session.changes.iter().map(|c| c.delta()).sum());
        // An edit saved at once (immediate mode) keeps the listing it may have come from.
        let dropped = if lead.is_none() { self.drop_waiting_candidates() } else { None };
        let commit = CommitInFlight { summary: summary.to_string(), changes, delta, texts, sets, auto_pop, lead, dropped };
        self.forget_replaced_flats(&commit.texts);
        if self.settings.config.persist_mode == PersistMode::Disabled {
            let results = commit
                .texts
                .iter()
                .map(|(p, _)| PersistResult::Saved { path: p.clone(), version: self.open_doc(p).version.clone() })
                .collect();
            self.turn.awaiting = Some(Awaiting::Commit(commit));
            return self.persist_completed(results);
        }
        let requests: Vec<PersistRequest> = commit
            .texts
            .iter()
            .zip(edits)
            .map(|((p, t), edits)| {
                let old = self.open_doc(p);
                // The host makes the text of a write it holds the committed text of from the
                // edits (src/host_texts.rs strips it): the storage-form copy is not made.
                let held = self.documents.held_by_host.iter().any(|(q, f)| q == p && *f == old.text.fingerprint());
                let text =
                    if held && !t.has_bom() && t.line_ending() == crate::text::LineEnding::Lf { String::new() } else { t.to_storage() };
                PersistRequest { path: p.clone(), text, expected_version: old.version.clone(), edits }
            })
            .collect();
        self.persistence_record("commit: writes requested", None, || {
            json!(requests
                .iter()
                .zip(&commit.texts)
                .map(|(r, (_, t))| json!({"path": r.path, "expected_version": r.expected_version, "bytes": t.storage_len_of(t.rope())}))
                .collect::<Vec<_>>())
        });
        self.turn.awaiting = Some(Awaiting::Commit(commit));
        Step::Persist(requests)
    }

    /// Ends a wait for a choice: the candidates are dropped (the selection goes), and the first
    /// and last letter that could still be staged are returned for the answer to name. `None`
    /// when no choice was pending. Cost: O(candidates).
    fn drop_waiting_candidates(&mut self) -> Option<(Letter, Letter)> {
        let session = self.turn.session.as_mut()?;
        let sel = session.selection.as_ref().filter(|s| s.awaiting_choice)?;
        let mut live = sel.candidates.iter().filter(|c| !c.stale).map(|c| c.id);
        let first = live.next();
        let last = live.next_back().or(first);
        session.selection = None;
        self.turn.recommended = None;
        first.zip(last)
    }

    /// The committed texts `texts` replace keep their flat copies only until the commit is
    /// decided, and are searched again only if it fails: let go of them now, so a 10 MB
    /// document's old flat text is free before the write's string is made instead of the two
    /// living side by side. A failed commit's next search builds the old one again (O(n), once).
    fn forget_replaced_flats(&mut self, texts: &[(String, Text)]) {
        for (path, _) in texts {
            if let Some(d) = self.documents.docs.get_mut(path) {
                d.text.forget_flat();
            }
            if let Some(d) = self.turn.session.as_mut().and_then(|s| s.docs.get_mut(path)) {
                d.base.forget_flat();
            }
        }
    }

    /// `memo_commit_auto`: a commit with a generated summary; while a choice is pending, the
    /// recommended candidate is staged first.
    pub(super) fn commit_auto(&mut self) -> Step {
        // With none recommended (offered only when changes are pending), the commit saves them
        // and drops the candidates, as memo_commit does (docs/workflow.md#visible-tools).
        if let Some(letter) = self.turn.recommended.filter(|_| self.state() == crate::WorkflowState::SelectionPending) {
            let args = super::registry::ReplaceSelectionArgs { selection_id: crate::tools::Choice(letter.index()), ..Default::default() };
            match self.replace_selection(None, &args) {
                Step::Done(r) if r.status == Status::Success => {}
                other => return other,
            }
        }
        let summary = self.auto_summary();
        self.commit(&summary, true, None)
    }

    /// What the pending changes do, for `memo_commit_auto`'s summary (words::auto_summary:
    /// "3 changes in config.json: `timeout: 30` → `timeout: 60` ×3").
    fn auto_summary(&self) -> String {
        let Some(s) = self.turn.session.as_ref() else { return String::new() };
        let Some(first) = s.changes.first().map(|c| c.first_place()) else { return String::new() };
        let mut paths: Vec<String> = s.changes.iter().map(|c| c.path.clone()).collect();
        paths.dedup();
        // A replace-all's places count like changes here: `×3` says the edit was made 3 times.
        let places = s.changes.iter().flat_map(|c| &c.places);
        let same = places.clone().all(|p| p.old_text == first.old_text && p.new_text == first.new_text);
        let times = places.count();
        words::auto_summary(
            &PendingSummary {
                changes: s.changes.len(),
                paths,
                old_text: first.old_text.clone(),
                new_text: first.new_text.clone(),
                repeated: (same && times > 1).then_some(times),
            },
            self.settings.config.locale,
        )
    }

    /// Finishes a write step with what the storage did (one result per request, in order; a
    /// missing result counts as not written). Returns the next step: `Done`, or the compensating
    /// writes of a failed multi-document commit.
    pub fn complete_persist(&mut self, results: Vec<PersistResult>) -> Step {
        self.note_saved(&results);
        let mut step = self.persist_completed(results);
        self.after_step(&mut step);
        step
    }

    /// [`Workspace::complete_persist`] without the end-of-call bookkeeping (rendering, log,
    /// history): a commit with persistence disabled completes inside its own call, which ends once.
    fn persist_completed(&mut self, results: Vec<PersistResult>) -> Step {
        match self.turn.awaiting.take() {
            Some(Awaiting::Commit(commit)) => self.commit_written(commit, results),
            Some(Awaiting::Rollback(rollback)) => self.rollback_written(rollback, results),
            Some(Awaiting::PersistAs { path, new_path, text }) => Step::Done(self.persist_as_written(&path, &new_path, text, results)),
            other => {
                self.turn.awaiting = other;
                self.wrong_completion("write", "completePersist", "persist")
            }
        }
    }

    /// A `TextEdit.Persistence` record of the call under way.
    fn persistence_record(&mut self, what: &str, error: Option<String>, detail: impl FnOnce() -> serde_json::Value) {
        let id = self.operation_id();
        self.records.diagnostics.record(Category::Persistence, &id, what, error, detail);
    }

    fn commit_written(&mut self, commit: CommitInFlight, results: Vec<PersistResult>) -> Step {
        let error = results.iter().find_map(|r| match r {
            PersistResult::Failed { path, error } => Some(format!("{path}: {error}")),
            PersistResult::Saved { .. } => None,
        });
        self.persistence_record("commit: writes reported", error, || results_json(&results));
        let mut written = Vec::new();
        let mut failures = Vec::new();
        for (path, _) in &commit.texts {
            match result_for(&results, path) {
                Some(PersistResult::Saved { version, .. }) => written.push((path.clone(), version.clone())),
                Some(PersistResult::Failed { error, .. }) => failures.push((path.clone(), error.clone())),
                None => failures.push((path.clone(), "not written (an earlier write failed, or the host reported nothing)".into())),
            }
        }
        if failures.is_empty() {
            return Step::Done(self.commit_succeeded(commit, written));
        }
        if written.is_empty() {
            return self.commit_failed(&commit, &failures, &[], &[]);
        }
        // Write the old texts back, expecting the versions the commit just produced.
        let requests = written
            .iter()
            .map(|(p, v)| {
                let old = &self.open_doc(p).text;
                let edits = match commit.texts.iter().zip(&commit.sets).find(|((path, _), _)| path == p) {
                    Some(((_, new), set)) => match set.invert(old.rope()) {
                        Ok(back) => write_edits(new, &back, old.rope()),
                        Err(_) => edits_between(new.rope(), old.rope()),
                    },
                    None => edits_between(&Rope::new(), old.rope()),
                };
                PersistRequest { path: p.clone(), text: old.to_storage(), expected_version: v.clone(), edits }
            })
            .collect();
        self.turn.awaiting = Some(Awaiting::Rollback(RollbackInFlight { commit, failures, written }));
        Step::Persist(requests)
    }

    fn commit_succeeded(&mut self, commit: CommitInFlight, written: Vec<(String, String)>) -> Response {
        let first_path = commit.texts.first().map(|(p, _)| p.clone());
        self.records.recording.summary = Some(commit.summary.clone());
        let committed: Vec<String> = commit.texts.iter().map(|(p, _)| p.clone()).collect();
        if self.settings.config.persist_mode == PersistMode::Disabled {
            self.documents.in_memory_commits.extend(commit.texts.iter().map(|(p, _)| p.clone()));
        }
        if let Some(s) = &self.turn.session {
            let outcome =
                crate::history::Outcome::Committed { summary: commit.summary.clone(), changes: commit.changes, delta: commit.delta };
            self.records.history.end(s.id, outcome);
        }
        for (path, text) in commit.texts {
            let version = written.iter().find(|(p, _)| *p == path).map(|(_, v)| v.clone()).unwrap_or_default();
            let spans = self.session_spans(&path);
            self.record_version(&path, VersionKind::Commit, commit.summary.clone(), None, text.rope().clone(), spans);
            self.documents.docs.insert(path, Document { text, version });
        }
        // Immediate mode: the save of one edit ends the session, not the listing it was picked
        // from — its letters keep naming the places the model read (ranges in the draft, which is
        // the committed text now), and a wait for a choice goes on (docs/workflow.md#persist-modes).
        let kept = commit.lead.as_ref().and(self.turn.session.as_ref()).and_then(|s| s.selection.clone());
        self.turn.session = None;
        if let Some(selection) = kept {
            let mut session = crate::session::Session::new(self.turn.next_session_id);
            self.turn.next_session_id += 1;
            session.select(selection);
            self.turn.session = Some(session);
        } else {
            self.turn.recommended = None;
        }
        self.sync.persist_failures.clear();
        let task = if commit.auto_pop {
            self.records.tasks.pop(TaskStatus::Completed, &commit.summary).map(|t| TaskEnded { id: t.id, goal: t.goal.clone() })
        } else {
            None
        };
        let (lead, preview, warned) = match commit.lead {
            Some(lead) => (Some(lead.summary), lead.preview, lead.warned),
            None => (None, None, false),
        };
        let mut r = self.persisted(&PersistOutcome::Committed(Committed {
            changes: commit.changes,
            delta: commit.delta,
            summary: commit.summary,
            in_memory: self.settings.config.persist_mode == PersistMode::Disabled,
            task,
            lead,
            saved: self.saved_versions(&committed),
            dropped: commit.dropped,
        }));
        r.preview = preview;
        r.warned = warned;
        r.metrics.delta = commit.delta;
        if let Some(path) = &first_path {
            r.metrics.new_length = Some(self.open_doc(path).text.rope().len_chars());
            r.fingerprint = Some(self.open_doc(path).text.fingerprint().to_string());
        }
        self.finish(r, first_path.as_deref())
    }

    fn rollback_written(&mut self, rollback: RollbackInFlight, results: Vec<PersistResult>) -> Step {
        self.persistence_record("commit: compensating writes reported", None, || results_json(&results));
        let RollbackInFlight { commit, failures, written } = rollback;
        let mut restored = Vec::new();
        let mut kept_new = Vec::new();
        for (path, new_version) in &written {
            match result_for(&results, path) {
                Some(PersistResult::Saved { version, .. }) => {
                    if let Some(d) = self.documents.docs.get_mut(path) {
                        d.version = version.clone();
                    }
                    restored.push((path.clone(), version.clone()));
                }
                _ => {
                    // Storage keeps the committed text: say so, and make it the committed text
                    // here too, so the workspace never pretends otherwise.
                    if let Some((_, text)) = commit.texts.iter().find(|(p, _)| p == path) {
                        let spans = self.session_spans(path);
                        self.record_version(path, VersionKind::Commit, commit.summary.clone(), None, text.rope().clone(), spans);
                        self.documents.docs.insert(path.clone(), Document { text: text.clone(), version: new_version.clone() });
                    }
                    if let Some(s) = &mut self.turn.session {
                        s.changes.retain(|c| &c.path != path);
                        s.docs.remove(path);
                    }
                    // Committed and in storage: a failure of an earlier commit is over.
                    self.sync.persist_failures.remove(path);
                    kept_new.push(path.clone());
                }
            }
        }
        self.commit_failed(&commit, &failures, &restored, &kept_new)
    }

    /// A commit some of whose writes failed: the drafts are kept, and storage is read again for
    /// the failed documents ([`Step::Load`]) before the answer, so that a save refused because
    /// storage changed underneath (within a watcher's debounce, before the workspace heard of
    /// it) is answered with what resolves it rather than a retry that fails the same way
    /// (docs/workflow.md#saving). [`Workspace::reread_after_failed_save`] answers.
    fn commit_failed(
        &mut self,
        commit: &CommitInFlight,
        failures: &[(String, String)],
        restored: &[(String, String)],
        kept_new: &[String],
    ) -> Step {
        for (path, error) in failures {
            self.sync.persist_failures.insert(path.clone(), error.clone());
            if let Some((_, text)) = commit.texts.iter().find(|(p, _)| p == path) {
                let spans = self.session_spans(path);
                self.record_version(path, VersionKind::Failed, commit.summary.clone(), Some(error.clone()), text.rope().clone(), spans);
            }
        }
        let failed = FailedSave {
            outcome: CommitFailed {
                failures: failures.to_vec(),
                restored: restored.to_vec(),
                kept_new: kept_new.to_vec(),
                lead: commit.lead.as_ref().map(|l| l.summary.clone()),
                dropped: commit.dropped,
                changed: Vec::new(),
            },
            lead: commit.lead.clone(),
        };
        let paths: Vec<String> = failures.iter().map(|(p, _)| p.clone()).filter(|p| self.documents.docs.contains_key(p)).collect();
        if paths.is_empty() {
            return Step::Done(self.failed_save_answer(failed));
        }
        self.turn.awaiting = Some(Awaiting::Load(super::sync::LoadPurpose::AfterFailedSave(Box::new(failed))));
        Step::Load(paths)
    }

    /// What storage holds now for the documents a commit failed to save (`results` of the read
    /// [`Workspace::commit_failed`] asked for): a version other than the one the save expected
    /// is an external change like any other (a conflict with the pending changes, or moved onto
    /// with automatic rebase), and the answer names it. A read that fails leaves the failure
    /// as it was. Cost: O(size of the texts read).
    pub(super) fn reread_after_failed_save(&mut self, failed: FailedSave, results: Vec<LoadResult>) -> Response {
        let FailedSave { mut outcome, lead } = failed;
        for result in results {
            let (path, raw, version) = match result {
                LoadResult::Loaded { path, text, version } => (path, Some(text), Some(version)),
                LoadResult::Missing { path } => (path, None, None),
                LoadResult::Failed { .. } => continue,
            };
            let Some(doc) = self.documents.docs.get(&path).filter(|_| outcome.failures.iter().any(|(p, _)| *p == path)) else { continue };
            let moved = match &version {
                Some(v) => *v != doc.version,
                None => !doc.version.is_empty(),
            };
            if moved && self.storage_changed_with_edits(&path, raw, version.as_deref(), None) {
                outcome.changed.push((path, version));
            }
        }
        if !outcome.changed.is_empty() {
            // This answer says it: the next editing call runs.
            self.sync.unreported_conflict = false;
        }
        self.failed_save_answer(FailedSave { outcome, lead })
    }

    /// The `PersistFailure` answer of a failed commit, finished.
    fn failed_save_answer(&mut self, failed: FailedSave) -> Response {
        let FailedSave { outcome, lead } = failed;
        let path = outcome.failures.first().map(|(p, _)| p.clone());
        let mut r = self.persisted(&PersistOutcome::CommitFailed(outcome));
        r.preview = lead.as_ref().and_then(|l| l.preview.clone());
        // The staged edit's `[Warning]` still leads the summary (the view writes it from the flag).
        r.warned = lead.as_ref().is_some_and(|l| l.warned);
        self.finish(r, path.as_deref())
    }

    /// The response for `outcome`, worded against the current state. Cost: O(its words).
    fn persisted(&self, outcome: &PersistOutcome) -> Response {
        words::persist(outcome, &Voice::of(self))
    }

    /// `memo_revert`: drops every pending change; the current task is marked Reverted.
    pub(super) fn revert(&mut self, reason: &str) -> Response {
        let task = self.records.tasks.pop(TaskStatus::Reverted, reason).map(|t| TaskEnded { id: t.id, goal: t.goal.clone() });
        self.sync.persist_failures.clear();
        self.turn.recommended = None;
        let session = self.turn.session.take();
        if let Some(s) = &session {
            self.records.history.end(s.id, crate::history::Outcome::Reverted { reason: reason.to_string() });
        }
        // With the pending changes gone, what storage changed to is simply the text now.
        for (path, storage) in std::mem::take(&mut self.sync.conflicts) {
            self.take_from_storage(&path, storage);
        }
        self.sync.unreported_conflict = false;
        let outcome = match session {
            None => PersistOutcome::NothingToRevert { task },
            Some(s) => PersistOutcome::Reverted { changes: s.changes.len(), reason: reason.to_string(), task },
        };
        let r = self.persisted(&outcome);
        self.finish(r, None)
    }

    /// `memo_persist_as`: writes the draft of `path` to `new_path`, which must not exist yet.
    pub(super) fn persist_as(&mut self, path: &str, new_path: &str) -> Step {
        let new_path = new_path.trim();
        let (path_, new_path_) = (path.to_string(), new_path.to_string());
        let refused = if new_path.is_empty() {
            Some(PersistOutcome::NewPathEmpty { path: path_ })
        } else if self.documents.docs.contains_key(new_path) {
            Some(PersistOutcome::NewPathOpen { path: path_, new_path: new_path_ })
        } else {
            unsafe_new_path(new_path, path).map(|why| PersistOutcome::NewPathUnsafe { path: path_, new_path: new_path_, why })
        };
        if let Some(refused) = refused {
            // An argument error, answered like every other one: on no document.
            let r = self.persisted(&refused);
            return Step::Done(self.finish(r, None));
        }
        // The draft's flat text from the committed one and the pending changes, as a commit
        // makes it: the new document is searched without building it first.
        let text = match self.turn.session.as_ref().and_then(|s| s.docs.get(path).map(|d| (d, s.change_set(path).0))) {
            Some((d, set)) => d.base.committed(d.draft.clone(), &set),
            None => self.open_doc(path).text.clone(),
        };
        let edits = edits_between(&Rope::new(), text.rope());
        let request = PersistRequest { path: new_path.to_string(), text: text.to_storage(), expected_version: String::new(), edits };
        if self.settings.config.persist_mode == PersistMode::Disabled {
            let r = self.persisted(&PersistOutcome::PersistDisabled);
            return Step::Done(self.finish(r, Some(path)));
        }
        self.turn.awaiting = Some(Awaiting::PersistAs { path: path.to_string(), new_path: new_path.to_string(), text });
        Step::Persist(vec![request])
    }

    fn persist_as_written(&mut self, path: &str, new_path: &str, text: Text, results: Vec<PersistResult>) -> Response {
        self.persistence_record("persist_as: write reported", None, || results_json(&results));
        match result_for(&results, new_path) {
            Some(PersistResult::Saved { version, .. }) => {
                let version = version.clone();
                let chars = text.rope().len_chars();
                self.documents.docs.insert(new_path.to_string(), Document { text, version: version.clone() });
                self.documents.order.push(new_path.to_string());
                let pending = self.pending_in(path);
                let mut r = self.persisted(&PersistOutcome::SavedAs {
                    path: path.to_string(),
                    new_path: new_path.to_string(),
                    version,
                    chars,
                    pending,
                });
                r.metrics.new_length = Some(chars);
                self.finish(r, Some(new_path))
            }
            other => {
                let error = match other {
                    Some(PersistResult::Failed { error, .. }) => error.clone(),
                    _ => "the host reported no result".to_string(),
                };
                let r = self.persisted(&PersistOutcome::SaveAsFailed { path: path.to_string(), new_path: new_path.to_string(), error });
                self.finish(r, Some(path))
            }
        }
    }
}

/// One replacement of a write, for storages that merge concurrent edits (docs/co-editing.md
/// §Commits as edits): replace UTF-16 units `from..to` of the stored text with `insert`. Offsets
/// index the text as the workspace holds it — LF line breaks, no BOM, what `Workspace.text()`
/// returns — before the write; the edits of one write are sorted and never overlap, so applied
/// from last to first (or first to last, shifting) they turn the stored text into the written
/// one. Both ends sit on code-point boundaries: a surrogate pair is never split.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "TextEdit"))]
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PersistEdit {
    pub from: usize,
    pub to: usize,
    pub insert: String,
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl PersistEdit {
    /// The edits of each write as a host hands them back (`storageChanged`'s `steps`: arrays of
    /// `{ from, to, insert }`); `None` when any part has another shape. Read by hand as serde's
    /// derived reader read them (other keys ignored; an edit may also be `[from, to, insert]`):
    /// a derive would link serde's readers and core's float formatting
    /// (docs/performance.md#wasm-size). Cost: O(size of `v`).
    pub fn steps_from_json(v: &serde_json::Value) -> Option<Vec<Vec<PersistEdit>>> {
        v.as_array()?.iter().map(|step| step.as_array()?.iter().map(PersistEdit::from_json).collect()).collect()
    }

    /// One edit: offsets are whole numbers ≥ 0 that fit a `usize`, `insert` a string.
    fn from_json(v: &serde_json::Value) -> Option<PersistEdit> {
        use serde_json::Value;
        let offset = |v: &Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
        let (from, to, insert) = match v {
            Value::Object(map) => (map.get("from")?, map.get("to")?, map.get("insert")?),
            Value::Array(items) => match items.as_slice() {
                [from, to, insert] => (from, to, insert),
                _ => return None,
            },
            _ => return None,
        };
        Some(PersistEdit { from: offset(from)?, to: offset(to)?, insert: insert.as_str()?.to_string() })
    }
}

/// The edits of a write of `new`, made from `old` by `set` — exactly the pending changes, never
/// a re-diff (a diff of the texts could attribute a change to the wrong copy of repeated text,
/// and a storage that holds concurrent edits needs the agent's own). When `new` is not `set`
/// applied to `old` (a leading U+FEFF became the BOM, see [`Text::with_rope`]), the one edit
/// between their common prefix and suffix. Cost: O(changes × log n); the fallback O(n).
fn write_edits(old: &Text, set: &ChangeSet, new: &Rope) -> Vec<PersistEdit> {
    match set.byte_ranges(old.rope(), old.flat()) {
        Ok(ranges) => write_edits_at(old, set, &ranges, new),
        Err(_) => edits_between(old.rope(), new),
    }
}

/// [`write_edits`] with the changes' byte ranges in `old`'s flat text
/// ([`ChangeSet::byte_ranges`]): each change is trimmed on the flat text, not on a slice of the
/// rope (which counts the chunks at both of its ends again). Cost: O(changes × log n + the
/// changes' bytes).
fn write_edits_at(old: &Text, set: &ChangeSet, ranges: &[std::ops::Range<usize>], new: &Rope) -> Vec<PersistEdit> {
    let rope = old.rope();
    if set.base_len() != rope.len_chars() || set.draft_len() != new.len_chars() || ranges.len() != set.len() {
        return edits_between(rope, new);
    }
    let flat = old.flat();
    let mut edits = Vec::with_capacity(ranges.len());
    for (r, bytes) in set.replacements().iter().zip(ranges) {
        let Some(gone) = flat.get(bytes.clone()) else { return edits_between(rope, new) };
        // Only the chars that change: a person's cursor inside the rest of the matched text
        // stays where it is. Trimmed by whole chars, so never inside a surrogate pair; the
        // same chars on both sides take the same bytes, and the kept prefix and suffix may
        // not overlap in either text.
        let (mut prefix, mut prefix_chars) = (0, 0);
        for (a, _) in gone.chars().zip(r.text.chars()).take_while(|(a, b)| a == b) {
            prefix += a.len_utf8();
            prefix_chars += 1;
        }
        let room = gone.len().min(r.text.len()) - prefix;
        let (mut suffix, mut suffix_chars) = (0, 0);
        for (a, b) in gone.chars().rev().zip(r.text.chars().rev()) {
            if a != b || suffix + a.len_utf8() > room {
                break;
            }
            suffix += a.len_utf8();
            suffix_chars += 1;
        }
        let (from, to) = (r.range.start + prefix_chars, r.range.end.saturating_sub(suffix_chars));
        let insert = r.text.get(prefix..r.text.len() - suffix).unwrap_or_default();
        if from < to || !insert.is_empty() {
            edits.push(PersistEdit { from: char_to_utf16(rope, from), to: char_to_utf16(rope, to), insert: insert.to_string() });
        }
    }
    edits
}

/// At most one edit: what lies between the common prefix and suffix of `old` and `new` (in
/// chars, so never inside a surrogate pair); none when they are equal. Cost: O(n).
fn edits_between(old: &Rope, new: &Rope) -> Vec<PersistEdit> {
    let prefix = old.chars().zip(new.chars()).take_while(|(a, b)| a == b).count();
    let max_suffix = old.len_chars().min(new.len_chars()) - prefix;
    let suffix = old
        .chars_at(old.len_chars())
        .reversed()
        .zip(new.chars_at(new.len_chars()).reversed())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    let (old_end, new_end) = (old.len_chars() - suffix, new.len_chars() - suffix);
    if prefix == old_end && prefix == new_end {
        return Vec::new();
    }
    vec![PersistEdit { from: char_to_utf16(old, prefix), to: char_to_utf16(old, old_end), insert: new.slice(prefix..new_end).to_string() }]
}

/// Why a model-given `new_path` must not reach the storage: it climbs out with `..`, is absolute
/// while the document's own path is not, or holds a control character (NUL included). Storage
/// providers may check too; the core refuses first so every host gets the same answer.
pub(super) fn unsafe_new_path(new_path: &str, own: &str) -> Option<UnsafePath> {
    let absolute = |p: &str| {
        p.starts_with('/')
            || p.starts_with('\\')
            || (p.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) && p.as_bytes().get(1) == Some(&b':'))
    };
    if new_path.chars().any(char::is_control) {
        Some(UnsafePath::ControlChar)
    } else if new_path.split(['/', '\\']).any(|s| s == "..") {
        Some(UnsafePath::ParentSegment)
    } else if absolute(new_path) && !absolute(own) {
        Some(UnsafePath::Absolute)
    } else {
        None
    }
}

fn results_json(results: &[PersistResult]) -> serde_json::Value {
    json!(results
        .iter()
        .map(|r| match r {
            PersistResult::Saved { path, version } => json!({"path": path, "ok": true, "version": version}),
            PersistResult::Failed { path, error } => json!({"path": path, "ok": false, "error": error}),
        })
        .collect::<Vec<_>>())
}

fn result_for<'a>(results: &'a [PersistResult], path: &str) -> Option<&'a PersistResult> {
    results.iter().find(|r| matches!(r, PersistResult::Saved { path: p, .. } | PersistResult::Failed { path: p, .. } if p == path))
}

// proptest is a native-only dev-dependency (`wasm-pack test` builds unit tests for wasm32 too).
#[cfg(test)]
#[cfg(not(target_arch = "wasm32"))]
mod tests {
    use super::{edits_between, unsafe_new_path, write_edits, PersistEdit};
    use crate::changeset::ChangeSet;
    use crate::text::{char_to_utf16, Text};
    use proptest::prelude::*;
    use ropey::Rope;

    /// The write's edits as they were made before they were cut on the flat text: each change
    /// trimmed on a slice of the rope. [`write_edits`] must give exactly these.
    fn write_edits_on_the_rope(old: &Rope, set: &ChangeSet) -> Vec<PersistEdit> {
        set.replacements()
            .iter()
            .filter_map(|r| {
                let gone = old.slice(r.range.clone());
                let prefix = gone.chars().zip(r.text.chars()).take_while(|(a, b)| a == b).count();
                let text_len = r.text.chars().count();
                let room = gone.len_chars().min(text_len).saturating_sub(prefix);
                let suffix =
                    gone.chars_at(gone.len_chars()).reversed().zip(r.text.chars().rev()).take(room).take_while(|(a, b)| a == b).count();
                let (from, to) = (r.range.start + prefix, r.range.end.saturating_sub(suffix));
                let insert: String = r.text.chars().skip(prefix).take(text_len.saturating_sub(prefix + suffix)).collect();
                (from < to || !insert.is_empty()).then(|| PersistEdit {
                    from: char_to_utf16(old, from),
                    to: char_to_utf16(old, to),
                    insert,
                })
            })
            .collect()
    }

    /// The plain model of a storage that applies edits: a JS string (UTF-16 units), edits
    /// applied from last to first. Panics (fails the test) on a split surrogate pair.
    fn apply_utf16(stored: &str, edits: &[PersistEdit]) -> String {
        let mut units: Vec<u16> = stored.encode_utf16().collect();
        let mut end = usize::MAX;
        for e in edits.iter().rev() {
            assert!(e.from <= e.to && e.to <= end, "edits sorted and apart: {edits:?}");
            for at in [e.from, e.to] {
                let inside_pair = at > 0 && at < units.len() && (0xDC00..0xE000).contains(&units[at]);
                assert!(!inside_pair, "offset {at} splits a surrogate pair: {edits:?}");
            }
            units.splice(e.from..e.to, e.insert.encode_utf16());
            end = e.from;
        }
        String::from_utf16(&units).expect("well-formed UTF-16")
    }

    /// Char ranges applied to a String the slow, obvious way.
    fn apply_chars(base: &str, changes: &[(std::ops::Range<usize>, String)]) -> String {
        let chars: Vec<char> = base.chars().collect();
        let mut out = String::new();
        let mut at = 0;
        for (range, text) in changes {
            out.extend(&chars[at..range.start]);
            out.push_str(text);
            at = range.end;
        }
        out.extend(&chars[at..]);
        out
    }

    fn text_strategy() -> impl Strategy<Value = String> {
        proptest::collection::vec(prop_oneof![Just('a'), Just('z'), Just('\n'), Just('é'), Just('中'), Just('😀'), Just('👍')], 0..40)
            .prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        /// The write's edits turn the stored text into the saved text, checked against a plain
        /// String model, over random change sets on text with emoji (surrogate pairs in UTF-16).
        #[test]
        fn write_edits_turn_the_stored_text_into_the_saved_text(
            base in text_strategy(),
            cuts in proptest::collection::vec((0usize..60, 0usize..4, text_strategy()), 0..6),
        ) {
            let n = base.chars().count();
            let mut changes: Vec<(std::ops::Range<usize>, String)> = Vec::new();
            let mut at = 0;
            let mut sorted = cuts.clone();
            sorted.sort_by_key(|c| c.0);
            for (start, len, text) in sorted {
                let start = start.min(n).max(at);
                let end = (start + len).min(n);
                changes.push((start..end, text));
                at = end;
            }
            let mut set = ChangeSet::new(n);
            for (range, text) in &changes {
                set.try_push(range.clone(), text.clone()).unwrap();
            }
            let old = Rope::from_str(&base);
            let new = set.apply(&old).unwrap();
            let expected = apply_chars(&base, &changes);
            prop_assert_eq!(new.to_string(), expected.clone());
            let edits = write_edits(&Text::from_storage(&base), &set, &new);
            prop_assert_eq!(&edits, &write_edits_on_the_rope(&old, &set), "the same edits as trimmed on the rope");
            prop_assert!(edits.len() <= set.len(), "at most one edit per pending change, never a whole-text replace");
            let inserted: usize = edits.iter().map(|e| e.insert.chars().count()).sum();
            prop_assert!(inserted <= set.replacements().iter().map(|r| r.text.chars().count()).sum::<usize>());
            prop_assert_eq!(apply_utf16(&base, &edits), expected.clone());
            // The compensating write: the inverted set takes the saved text back.
            let back = set.invert(&old).unwrap();
            let back_edits = write_edits(&Text::from_storage(&expected), &back, &old);
            prop_assert_eq!(&back_edits, &write_edits_on_the_rope(&new, &back));
            prop_assert_eq!(apply_utf16(&expected, &back_edits), base.clone());
            // The fallback edit, between any two texts.
            let between = edits_between(&old, &new);
            prop_assert!(between.len() <= 1);
            prop_assert_eq!(apply_utf16(&base, &between), expected);
        }
    }

    fn requests(step: crate::workspace::Step) -> Vec<crate::workspace::PersistRequest> {
        match step {
            crate::workspace::Step::Persist(r) => r,
            other => panic!("expected a write step, got {other:?}"),
        }
    }

    fn call(ws: &mut crate::workspace::Workspace, name: &str, args: serde_json::Value) -> crate::workspace::Step {
        ws.call(name, &args, &crate::workspace::CallContext::default())
    }

    /// A commit's write carries its edits against the stored text (LF, no BOM), the
    /// compensating write of a failed multi-document commit the inverse ones.
    #[test]
    fn a_commit_writes_its_pending_changes_as_edits() {
        use crate::workspace::{PersistResult, Workspace};
        use serde_json::json;
        let mut ws = Workspace::new(crate::workspace::Config::default());
        let a = "\u{FEFF}title 😀\r\nx = 1\r\ny = 1\r\n";
        ws.open("a", a, "v1").unwrap();
        ws.open("b", "keep\n", "v1").unwrap();
        call(&mut ws, "memo_replace", json!({"old_text": "x = 1", "new_text": "x = 👍"}));
        call(&mut ws, "memo_replace", json!({"old_text": "y = 1", "new_text": "y = 2"}));
        call(&mut ws, "memo_replace", json!({"path": "b", "old_text": "keep", "new_text": "kept"}));
        let writes = requests(call(&mut ws, "memo_commit", json!({"summary": "s"})));
        let stored_a = "title 😀\nx = 1\ny = 1\n";
        assert_eq!(writes[0].edits.len(), 2, "{:?}", writes[0].edits);
        assert_eq!(apply_utf16(stored_a, &writes[0].edits), "title 😀\nx = 👍\ny = 2\n");
        assert_eq!(writes[0].text, "\u{FEFF}title 😀\r\nx = 👍\r\ny = 2\r\n", "the text stays in storage form");
        assert_eq!(writes[0].edits[0], PersistEdit { from: 13, to: 14, insert: "👍".into() }, "only the chars that change");
        // a is saved, b fails: a is written back with the inverse edits.
        let step = ws.complete_persist(vec![
            PersistResult::Saved { path: "a".into(), version: "v2".into() },
            PersistResult::Failed { path: "b".into(), error: "disk full".into() },
        ]);
        let back = requests(step);
        assert_eq!(back[0].path, "a");
        assert_eq!(apply_utf16("title 😀\nx = 👍\ny = 2\n", &back[0].edits), stored_a);
    }

    #[test]
    fn edits_are_in_utf16_units_and_keep_emoji_whole() {
        let old = Rope::from_str("a😀b😀c");
        let mut set = ChangeSet::new(5);
        set.try_push(3..4, "👍").unwrap(); // the second 😀
        let new = set.apply(&old).unwrap();
        let edits = write_edits(&Text::from_storage("a😀b😀c"), &set, &new);
        assert_eq!(edits, vec![PersistEdit { from: 4, to: 6, insert: "👍".into() }]);
        // 😀 and 👍 share their high surrogate: a unit-wise diff would replace half a pair.
        assert_eq!(edits_between(&old, &new), vec![PersistEdit { from: 4, to: 6, insert: "👍".into() }]);
        assert_eq!(edits_between(&old, &old), vec![]);
    }

    #[test]
    fn a_draft_whose_leading_feff_became_the_bom_falls_back_to_one_edit() {
        let old = Rope::from_str("abc");
        let mut set = ChangeSet::new(3);
        set.try_push(0..0, "\u{FEFF}x").unwrap();
        let new = Rope::from_str("xabc"); // Text::with_rope took the U+FEFF as the BOM
        let old_text = Text::from_storage("abc");
        assert_eq!(write_edits(&old_text, &set, &new), vec![PersistEdit { from: 0, to: 0, insert: "x".into() }]);
        let mut same = ChangeSet::new(3);
        same.try_push(0..3, "abc").unwrap();
        assert_eq!(write_edits(&old_text, &same, &old), vec![], "a change to the same text writes nothing");
    }

    #[test]
    fn new_paths_that_leave_the_storage_are_refused() {
        for ok in ["notes.md.recovered", "docs/a..b.md", "..notes", "docs/./a.md", "C.md"] {
            assert_eq!(unsafe_new_path(ok, "notes.md"), None, "{ok}");
        }
        assert_eq!(unsafe_new_path("/srv/docs/a.md.bak", "/srv/docs/a.md"), None, "absolute like the document's own");
        for bad in ["../x.md", "docs/../../x.md", "..\\x.md", "/etc/passwd", "\\\\server\\share", "C:\\x.md", "c:x.md", "a\0b", "a\nb"] {
            assert!(unsafe_new_path(bad, "notes.md").is_some(), "{bad:?}");
        }
    }
}
