//! The words of the tools' outcomes (src/workspace/outcome.rs): status, summary, guidance and
//! the worded previews, one module per family of outcomes — edit.rs (the edit tools), read.rs
//! (`memo_read` of the draft and of a version, a commit's versions), memory.rs (the memory
//! tools). The one place they are written; deciding and changing state happen before, in
//! edit.rs and edit/*, read.rs, versions.rs, recall.rs.
//!
//! Summaries, guidance and notes are the locale's phrases (src/locale/en.rs, zh.rs), looked up by
//! key through [`Voice::t`] with named placeholders; tool names, arguments and quoted text are
//! filled in as they are (docs/responses.md#locales-and-styles). The families not yet moved to
//! the phrase tables still write English in every locale (the zh check in tests/engine/snapshots.rs
//! names them).
//!
//! Guidance names only tools the state offers (docs/responses.md#statuses): an outcome is
//! worded after its state change is applied, against the state it leaves.

mod edit;
mod find;
mod memory;
mod near;
mod persist;
mod read;
mod session;
mod sync;

#[cfg(test)]
pub use edit::note;
pub use edit::{already_there, edit, exactly_elsewhere, immediate_commit_summary};
pub use find::{find_embed_failed, find_found, find_no_words, find_none, unit_needs_new_text, unit_refused};
pub use memory::memory;
#[cfg(test)]
pub use near::near_misses_text;
pub use persist::{auto_summary, create_refused, created, persist, undo, undo_summary, undone};
pub use read::{read, saved_versions, version};
pub use session::{diagnostics_pointer, next_step, schema_defect, session};
pub use sync::{external_version, state_note, sync};

use super::outcome::TaskEnded;
use super::Workspace;
use crate::locale::Locale;
use crate::response::{Response, Status};
use crate::session::Letter;
use crate::workflow::PersistMode;
use crate::workspace::Tool;

/// What wording needs to know of the state an outcome leaves, as plain data: the tool prefix,
/// the persist mode, the tools the state offers and how to save from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Voice {
    /// The language of the words.
    pub locale: Locale,
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

/// Two sentences (or runs of them) as one text, with the locale's gap between them: a space in
/// English, nothing in Chinese.
pub fn joined(first: &str, then: &str, v: &Voice) -> String {
    format!("{first}{}{then}", v.sep())
}

impl Voice {
    /// The voice of `ws` in its current state. Cost: O(tools).
    pub fn of(ws: &Workspace) -> Voice {
        Voice {
            locale: ws.settings.config.locale,
            prefix: ws.settings.config.tool_prefix.clone(),
            persist_mode: ws.settings.config.persist_mode,
            offered: ws.visible_tools(),
            save_or_drop: ws.save_or_drop("lead.nothing_saved"),
            one_document: ws.documents.order.len() == 1,
            heard: {
                let session = ws.turn.session.as_ref().map(|s| format!("s{}", s.id));
                let (gutters, save) = ws.turn.said.knows(session.as_deref());
                Heard { gutters, save }
            },
        }
    }

    /// The save note in short, once the model has it in full (docs/responses.md#said-once):
    /// `Save with memo_commit(summary).` when a commit is offered. Cost: O(tools).
    fn save_short(&self) -> Option<String> {
        (self.heard.save && self.offers(Tool::Commit)).then(|| self.t("save.short", &[("p", &self.prefix())]))
    }

    /// `" in {path}"` when several documents are open, else nothing: with one, the model knows
    /// which.
    fn in_path(&self, path: &str) -> String {
        if self.one_document {
            String::new()
        } else {
            self.t("in_path", &[("path", &path)])
        }
    }

    /// The phrase under `key`, its placeholders filled from `args` (src/locale.rs).
    fn t(&self, key: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
        self.locale.words().t(key, args)
    }

    /// `1 place`, `3 places` / `3 处`: the phrase `key.one` or `key.other` with `{n}`.
    fn count(&self, key: &str, n: usize) -> String {
        self.locale.words().count(key, n)
    }

    /// Between two sentences: a space in English, nothing in Chinese.
    fn sep(&self) -> &'static str {
        self.locale.words().phrase("sentence_sep")
    }

    /// `+12 chars`, `±0 chars` / `+12 个字符`.
    fn chars_delta(&self, n: isize) -> String {
        let n = if n == 0 { "±0".to_string() } else { crate::locale::signed(n) };
        self.t("chars", &[("n", &n)])
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
            self.t("or_call", &[("tool", &tool.name(&self.prefix))])
        } else {
            String::new()
        }
    }
}

/// `InvalidArguments` as every argument error reads (`Invalid call: …. Nothing was changed.`), in
/// the voice's locale.
pub(super) fn invalid_v(what: &str, guidance: String, v: &Voice) -> Response {
    Response::new(Status::InvalidArguments, v.t("invalid", &[("what", &what)])).with_guidance(guidance)
}

/// A letter as the answer names it; `A` when there is none.
fn letter_or_a(letter: Option<Letter>) -> String {
    letter.map_or("A".into(), |l| l.to_string())
}

/// ` Task #2 completed: "goal".` (`how`: completed, reverted), or nothing.
fn task_note(task: Option<&TaskEnded>, how: &str, v: &Voice) -> String {
    task.map_or(String::new(), |t| v.t(&format!("task_note.{how}"), &[("id", &t.id), ("goal", &t.goal)]))
}

/// ` (reason)` without its final period, or nothing for a blank reason.
fn with_reason(reason: &str, v: &Voice) -> String {
    if reason.trim().is_empty() {
        String::new()
    } else {
        v.t("with_reason", &[("reason", &reason.trim().trim_end_matches(['.', '。']))])
    }
}

#[cfg(test)]
mod tests;
