//! The words of the tools' outcomes (src/workspace/outcome.rs): status, summary, guidance and
//! the worded previews, one module per family of outcomes — edit.rs (the edit tools), read.rs
//! (`memo_read` of the draft and of a version, a commit's versions), memory.rs (the memory
//! tools). The one place they are written; deciding and changing state happen before, in
//! edit.rs and edit/*, read.rs, versions.rs, recall.rs.
//!
//! Summaries and guidance are English in every locale (docs/responses.md#locales-and-styles):
//! they quote the model's own text, tool names and arguments; the fixed words around them
//! (headings, metric names, candidate lines) are translated where the response is rendered
//! (src/locale.rs, format.rs). A translated summary would go here, behind [`Voice`].
//!
//! Guidance names only tools the state offers (docs/responses.md#statuses): an outcome is
//! worded after its state change is applied, against the state it leaves.

mod edit;
mod memory;
mod persist;
mod read;
mod session;
mod sync;

pub use edit::{already_there, edit, exactly_elsewhere, immediate_commit_summary};
#[cfg(test)]
pub use edit::note;
pub use memory::memory;
pub use persist::{auto_summary, create_refused, created, persist, undo, undo_summary, undone};
pub use read::{read, saved_versions, version};
pub use session::{diagnostics_pointer, next_step, schema_defect, session};
pub use sync::{external_version, state_note, sync};

use super::outcome::TaskEnded;
use super::Workspace;
use crate::response::{Response, Status};
use crate::session::Letter;
use crate::tools::Tool;
use crate::workflow::PersistMode;

/// What wording needs to know of the state an outcome leaves, as plain data: the tool prefix,
/// the persist mode, the tools the state offers and how to save from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Voice {
    pub prefix: String,
    pub persist_mode: PersistMode,
    pub offered: Vec<Tool>,
    /// How to save or drop the pending changes from this state, after "Check the preview, then
    /// call " (src/workspace/guidance.rs).
    pub save_or_drop: String,
    /// Only one document is open: summaries leave its path out (the pending list does too).
    pub one_document: bool,
    /// The model has the gutter note of a read and the save note of a staging from this edit
    /// session or from before any (docs/responses.md#said-once): they are said short.
    pub heard: Heard,
}

/// Which notes said once the model has (docs/responses.md#said-once).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heard {
    pub gutters: bool,
    pub save: bool,
}

impl Voice {
    /// The voice of `ws` in its current state. Cost: O(tools).
    pub fn of(ws: &Workspace) -> Voice {
        Voice {
            prefix: ws.config.tool_prefix.clone(),
            persist_mode: ws.config.persist_mode,
            offered: ws.visible_tools(),
            save_or_drop: ws.save_or_drop("Nothing is saved until "),
            one_document: ws.order.len() == 1,
            heard: {
                let session = ws.session.as_ref().map(|s| format!("s{}", s.id));
                let (gutters, save) = ws.said.knows(session.as_deref());
                Heard { gutters, save }
            },
        }
    }

    /// The save note in short, once the model has it in full (docs/responses.md#said-once):
    /// `Save with memo_commit(summary).` when a commit is offered. Cost: O(tools).
    fn save_short(&self) -> Option<String> {
        (self.heard.save && self.offers(Tool::Commit)).then(|| format!("Save with {}_commit(summary).", self.prefix()))
    }

    /// `" in {path}"` when several documents are open, else nothing: with one, the model knows
    /// which.
    fn in_path(&self, path: &str) -> String {
        if self.one_document {
            String::new()
        } else {
            format!(" in {path}")
        }
    }

    fn prefix(&self) -> &str {
        &self.prefix
    }

    fn offers(&self, tool: Tool) -> bool {
        self.offered.contains(&tool)
    }

    /// ` (or call memo_append)` when the state offers `tool`, else nothing.
    fn or_call(&self, tool: Tool) -> String {
        if self.offers(tool) {
            format!(" (or call {})", tool.name(&self.prefix))
        } else {
            String::new()
        }
    }
}

/// `InvalidArguments` as every argument error reads (`Invalid call: …. Nothing was changed.`).
pub fn invalid(what: &str, guidance: String) -> Response {
    Response::new(Status::InvalidArguments, format!("Invalid call: {what}. Nothing was changed.")).with_guidance(guidance)
}

/// A letter as the answer names it; `A` when there is none.
fn letter_or_a(letter: Option<Letter>) -> String {
    letter.map_or("A".into(), |l| l.to_string())
}

/// ` Task #2 completed: "goal".` (`how`: completed, reverted), or nothing.
fn task_note(task: Option<&TaskEnded>, how: &str) -> String {
    task.map_or(String::new(), |t| format!(" Task #{} {how}: \"{}\".", t.id, t.goal))
}

/// ` (reason)` without its final period, or nothing for a blank reason.
fn with_reason(reason: &str) -> String {
    if reason.trim().is_empty() {
        String::new()
    } else {
        format!(" ({})", reason.trim().trim_end_matches('.'))
    }
}

#[cfg(test)]
mod tests;
