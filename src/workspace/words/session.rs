//! The session in words: a call while storage works, a stray completion, `memo_preview`,
//! `memo_begin_task`, `memo_export_session`, a path that is not open, an internal defect.

use super::{invalid, Voice};
use crate::response::{Response, Status};
use crate::tools::Tool;
use crate::workspace::outcome::*;
use crate::workspace::views::plural;

/// The defect note of a response whose Markdown fails the validator (`id`: the call's records).
pub fn schema_defect(id: &str) -> String {
    format!("Response format does not match the spec (see the TextEdit.Schema record of {id}).")
}

/// What guidance ends with while diagnostics record `categories`: where this call's records are.
pub fn diagnostics_pointer(categories: &[&str], id: &str) -> String {
    format!("Diagnostics are on ({}): the records of this call are {id}.", categories.join(", "))
}

/// The guidance of an answer that has none of its own: what the state offers next.
pub fn next_step(actions: &[String]) -> String {
    format!("Next: {}.", actions.join(" or "))
}

/// The response for a session outcome; the caller adds the preview, log or task id.
/// Cost: O(size of the words).
pub fn session(o: &SessionOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    match o {
        SessionOutcome::Waiting => Response::new(Status::Blocked, "The workspace is waiting for the storage to finish a write or read.")
            .with_guidance("The host must report it (completePersist / completeLoad) before the next call."),
        SessionOutcome::WrongCompletion { what, method, kind } => {
            Response::new(Status::InvalidArguments, format!("Invalid call: no {what} is waiting for the storage. Nothing was changed."))
                .with_guidance(format!("Call {method} only after a step asked for it (kind \"{kind}\")."))
        }
        SessionOutcome::NothingToPreview { path } => {
            Response::new(Status::NoOp, format!("No pending changes in {path}.")).with_guidance(format!("Stage an edit with {p}_replace first."))
        }
        SessionOutcome::Previewed { path, count, mode } => {
            Response::new(Status::Success, format!("{count} pending change{}{} ({mode} preview).", plural(*count), v.in_path(path))).with_guidance(
                if let Some(short) = v.save_short() {
                    short
                } else if v.offers(Tool::Commit) {
                    format!("Call {p}_commit(summary) to save, or {p}_revert(reason) to drop them.")
                } else {
                    v.save_or_drop.clone()
                },
            )
        }
        SessionOutcome::TaskBegun { id, goal, depth } => {
            Response::new(Status::Success, format!("Task #{id} begun: \"{goal}\" (depth {depth}).")).with_guidance(if v.offers(Tool::Commit) {
                format!("Work on it; {p}_commit(summary) completes it, {p}_revert(reason) abandons it.")
            } else {
                format!("Work on it; a commit completes it, {p}_revert(reason) abandons it.")
            })
        }
        SessionOutcome::TaskRefused { error: e @ crate::tasks::TaskError::TooDeep { .. } } => {
            Response::new(Status::Blocked, format!("Cannot begin the task: {e}. Nothing was changed.")).with_guidance(format!(
                "Split the work: finish the current task with {p}_commit(summary) first, or do this step inside it without a new task."
            ))
        }
        SessionOutcome::TaskRefused { error } => {
            invalid(&error.to_string(), "Give a one-line goal; leave parent_task_id out to nest under the current task.".into())
        }
        SessionOutcome::SessionLog { calls } => {
            Response::new(Status::Success, format!("Session log: {calls} call{} (this one included).", plural(*calls)))
                .with_guidance("Nothing was changed: the log lists the calls oldest first, to pick up where you left off.")
        }
        SessionOutcome::NotOpen { error } => {
            let create = if v.offers(Tool::Create) { format!(" To make a new document, call {}(path, text).", Tool::Create.name(p)) } else { String::new() };
            invalid(&error.to_string(), format!("Pass `path` as one of the open documents, or leave it out for the default.{create}"))
        }
        SessionOutcome::DispatchedTwice { tool } => Response::new(Status::Exception, format!("Internal error: {tool:?} was dispatched twice.")),
    }
}
