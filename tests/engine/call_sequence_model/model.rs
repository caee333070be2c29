//! The plain model the workspace is checked against: per document, what storage holds, the
//! committed text and the draft; the pending choice, conflicts and failed saves.

use super::generator::Style;
use agentpad::response::PendingChangeView;
use agentpad::WorkflowState;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq)]
pub(super) struct DocM {
    pub(super) style: Style,
    /// Storage's text, LF (storage holds `raw(style, stored)`).
    pub(super) stored: String,
    pub(super) committed: String,
    pub(super) draft: String,
}

#[derive(Clone, Debug)]
pub(super) struct SelM {
    pub(super) path: String,
    /// The needle the listing was for (the selection's query).
    pub(super) needle: String,
    pub(super) new_text: String,
    pub(super) awaiting: bool,
    pub(super) fuzzy: bool,
    /// Shown candidates: (letter, draft byte range, stale).
    pub(super) shown: Vec<(String, usize, usize, bool)>,
    /// How many candidates the selection holds, when all were shown.
    pub(super) len: Option<usize>,
}

#[derive(Clone, Debug)]
pub(super) struct Model {
    pub(super) docs: BTreeMap<String, DocM>,
    pub(super) conflicts: BTreeSet<String>,
    pub(super) failures: BTreeSet<String>,
    pub(super) unreported: bool,
    pub(super) sel: Option<SelM>,
    /// The pending changes as the last response reported them.
    pub(super) pending: Vec<PendingChangeView>,
    pub(super) marker: u32,
}

impl Model {
    pub(super) fn state(&self) -> WorkflowState {
        if !self.conflicts.is_empty() || !self.failures.is_empty() {
            WorkflowState::OutOfSync
        } else if self.sel.as_ref().is_some_and(|s| s.awaiting) {
            WorkflowState::SelectionPending
        } else if !self.pending.is_empty() {
            WorkflowState::PersistPending
        } else {
            WorkflowState::Idle
        }
    }
    pub(super) fn has_pending(&self, path: &str) -> bool {
        self.pending.iter().any(|c| c.path == path)
    }
    /// `path`'s committed text becomes storage's. Its line-ending style is detected from that
    /// text again: a text without any line break is LF (`LineEnding::detect`).
    pub(super) fn take_storage(&mut self, path: &str) {
        let dm = self.docs.get_mut(path).unwrap();
        dm.committed = dm.stored.clone();
        if !dm.stored.contains('\n') {
            dm.style.crlf = false;
        }
    }

    /// After an edit was staged in `path`: when it left nothing pending there (it restored the
    /// committed text), a failed save of `path` has nothing left to retry.
    pub(super) fn staged(&mut self, path: &str) {
        if !self.has_pending(path) {
            self.failures.remove(path);
        }
    }

    pub(super) fn drop_sel_on(&mut self, path: &str) {
        if self.sel.as_ref().is_some_and(|s| s.path == path) {
            self.sel = None;
        }
    }
}

pub(super) fn key(c: &PendingChangeView) -> (String, String, usize, String, String) {
    (c.change_id.clone(), c.path.clone(), c.position, c.old_text.clone(), c.new_text.clone())
}
