//! Guidance that depends on the state: a response only names tools the state it leaves offers
//! (docs/responses.md §Statuses; `tests/guidance_walk.rs` checks every guidance the core emits).

use super::Workspace;
use crate::tools::Tool;
use crate::workflow::{PersistMode, WorkflowState};

impl Workspace {
    /// How to save or drop the pending changes from the current state, as one sentence:
    /// `lead` (e.g. "Nothing is saved until ") goes before a commit when one is offered. While
    /// a choice is pending or storage changed underneath, it says what unblocks the commit
    /// instead. Cost: O(1).
    pub(super) fn save_or_drop(&self, lead: &str) -> String {
        let p = &self.config.tool_prefix;
        if self.is_visible(Tool::Commit) {
            return match self.config.persist_mode {
                PersistMode::Disabled => {
                    format!("{lead}{p}_commit(summary) (in memory only: persistence is disabled); {p}_revert(reason) drops them.")
                }
                _ => format!("{lead}{p}_commit(summary); {p}_revert(reason) drops all pending changes."),
            };
        }
        if !self.conflicts.is_empty() {
            return format!(
                "Storage changed underneath your pending changes: compare with {p}_diff(against=\"storage\"), then {p}_rebase to keep the changes storage did not touch, or {p}_discard(reason) to drop them."
            );
        }
        match self.state() {
            WorkflowState::SelectionPending => {
                let auto = if self.is_visible(Tool::CommitAuto) { format!(" (or {p}_commit_auto to take the recommended one)") } else { String::new() };
                format!("Choose a candidate with {p}_replace_selection(selection_id) first{auto}, or drop the session with {p}_revert(reason).")
            }
            _ if self.config.persist_mode == PersistMode::Immediate => "Edits are saved as they are made in immediate mode.".to_string(),
            _ => format!("{p}_revert(reason) drops the pending changes."),
        }
    }
}
