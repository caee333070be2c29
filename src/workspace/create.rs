//! `memo_create(path, text)`: a new document, staged like any edit (docs/tools.md §memo_create).
//!
//! The document is opened empty with no storage version (`""`: storage does not hold it) and
//! its text is staged as one lettered pending change, so preview, revert and commit treat it
//! like any other. The commit writes it expecting version `""`, which a storage accepts only for
//! a path it does not hold. Until then it exists only here: when its change is dropped (revert,
//! discard) it is forgotten again ([`Workspace::forget_unsaved_creations`]).

use super::outcome::CreateRefusal;
use super::registry::AppendArgs;
use super::words::{self, Voice};
use super::{Document, Step, Workspace, MAX_DOCUMENT_BYTES};
use crate::response::Status;
use crate::text::Text;

impl Workspace {
    /// Stages the new document `path` with `text`. Refused (`InvalidArguments`, nothing
    /// changed) when `path` is empty, already open, unsafe (a `..` segment, a control character,
    /// an absolute path where the documents are relative — the rules of `memo_persist_as`),
    /// `text` is empty, or it is over the size limit. Cost: O(size of text).
    pub(super) fn create(&mut self, path: &str, text: &str) -> Step {
        let path = path.trim();
        if let Some(refusal) = self.create_refusal(path, text) {
            let r = words::create_refused(&refusal, &Voice::of(self));
            return Step::Done(self.finish(r, None));
        }
        self.documents.docs.insert(path.to_string(), Document { text: Text::from_storage(""), version: String::new() });
        // Its `v0` is the empty text before it, as for a document opened empty.
        self.records.timeline.created(path);
        self.documents.order.push(path.to_string());
        self.documents.created.insert(path.to_string());
        let step = self.append(path, &AppendArgs { text: text.to_string(), ..AppendArgs::default() });
        match step {
            Step::Done(mut r) if r.status == Status::Success => {
                r.summary = words::created(path, &r.summary, self.settings.config.locale);
                Step::Done(r)
            }
            Step::Done(r) => {
                // Refused (e.g. no letter left): the document was never there.
                self.forget_unsaved_creations();
                Step::Done(r)
            }
            // Immediate mode: written by this call.
            other => other,
        }
    }

    /// Why `memo_create(path, text)` must create nothing, if it must. Cost: O(length of path).
    fn create_refusal(&self, path: &str, text: &str) -> Option<CreateRefusal> {
        let own = self.documents.order.first().map_or("", String::as_str);
        if path.is_empty() {
            Some(CreateRefusal::PathEmpty)
        } else if self.documents.docs.contains_key(path) {
            Some(CreateRefusal::Exists { path: path.to_string() })
        } else if let Some(why) = super::persist::unsafe_new_path(path, own) {
            Some(CreateRefusal::Unsafe { path: path.to_string(), why })
        } else if text.is_empty() {
            Some(CreateRefusal::TextEmpty)
        } else if text.len() > MAX_DOCUMENT_BYTES {
            Some(CreateRefusal::TooLarge { path: path.to_string(), bytes: text.len(), limit: MAX_DOCUMENT_BYTES })
        } else {
            None
        }
    }

    /// Forgets documents `memo_create` opened whose text was never saved and is no longer
    /// pending (a revert, a discard, a refused create): storage does not hold them and nothing
    /// here does any more. Documents committed in memory only (persistence disabled) stay.
    /// Cost: O(created documents).
    pub(super) fn forget_unsaved_creations(&mut self) {
        if self.documents.created.is_empty() || self.turn.awaiting.is_some() {
            return;
        }
        let created: Vec<String> = self.documents.created.iter().cloned().collect();
        for path in created {
            let saved = self.documents.docs.get(&path).is_some_and(|d| !d.version.is_empty());
            if saved {
                self.documents.created.remove(&path);
                continue;
            }
            let held = self.pending_in(&path) > 0
                || self.documents.in_memory_commits.contains(&path)
                || self.sync.persist_failures.contains_key(&path)
                || self.sync.conflicts.contains_key(&path);
            if !held {
                self.documents.created.remove(&path);
                self.records.timeline.forget(&path);
                self.documents.docs.remove(&path);
                self.documents.order.retain(|p| p != &path);
                if let Some(session) = &mut self.turn.session {
                    session.drop_path(&path);
                }
            }
        }
    }
}
