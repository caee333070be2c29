//! Guidance that depends on the state: a response only names tools the state it leaves offers
//! (docs/responses.md §Statuses; `tests/engine/guidance_walk.rs` checks every guidance the core emits).

use super::Workspace;
use crate::workflow::{PersistMode, WorkflowState};
use crate::workspace::Tool;

impl Workspace {
    /// How to save or drop the pending changes from the current state, as one sentence in the
    /// workspace's locale: `lead`, the key of a phrase holding `{commit}` (e.g. `lead.nothing_saved`:
    /// "Nothing is saved until {commit}"), leads a commit when one is offered. While a choice is
    /// pending or storage changed underneath, it says what unblocks the commit instead. Cost: O(1).
    pub(super) fn save_or_drop(&self, lead: &str) -> String {
        let p = &self.settings.config.tool_prefix;
        let w = self.settings.config.locale.words();
        if self.is_visible(Tool::Commit) {
            let lead = w.t(lead, &[("commit", &format!("{p}_commit(summary)"))]);
            return match self.settings.config.persist_mode {
                PersistMode::Disabled => w.t("save.disabled", &[("lead", &lead), ("p", p)]),
                _ => w.t("save.manual", &[("lead", &lead), ("p", p)]),
            };
        }
        if !self.sync.conflicts.is_empty() {
            return w.t("save.conflicts", &[("p", p)]);
        }
        match self.state() {
            WorkflowState::SelectionPending => {
                let auto = if self.is_visible(Tool::CommitAuto) { w.t("save.choose.auto", &[("p", p)]) } else { String::new() };
                w.t("save.choose", &[("p", p), ("auto", &auto)])
            }
            _ if self.settings.config.persist_mode == PersistMode::Immediate => w.t("save.immediate", &[]),
            _ => w.t("save.revert", &[("p", p)]),
        }
    }
}
