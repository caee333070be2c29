//! The session in words: a call while storage works, a stray completion, `memo_preview`,
//! `memo_begin_task`, `memo_export_session`, a path that is not open, an internal defect.

use super::{invalid_v, Voice};
use crate::locale::Locale;
use crate::response::{Response, Status};
use crate::workspace::outcome::*;
use crate::workspace::Tool;

/// The defect note of a response whose Markdown fails the validator (`id`: the call's records).
pub fn schema_defect(id: &str, locale: Locale) -> String {
    locale.words().t("schema_defect", &[("id", &id)])
}

/// What guidance ends with while diagnostics record `categories`: where this call's records are.
pub fn diagnostics_pointer(categories: &[&str], id: &str, locale: Locale) -> String {
    locale.words().t("diagnostics_pointer", &[("categories", &categories.join(", ")), ("id", &id)])
}

/// The guidance of an answer that has none of its own: what the state offers next.
pub fn next_step(actions: &[String], locale: Locale) -> String {
    let w = locale.words();
    w.t("next_step", &[("actions", &actions.join(w.phrase("next_step.or")))])
}

/// The response for a session outcome; the caller adds the preview, log or task id.
/// Cost: O(size of the words).
pub fn session(o: &SessionOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    match o {
        SessionOutcome::Waiting => {
            Response::new(Status::Blocked, v.t("session.waiting", &[])).with_guidance(v.t("session.waiting.guidance", &[]))
        }
        SessionOutcome::WrongCompletion { what, method, kind } => {
            Response::new(Status::InvalidArguments, v.t("invalid", &[("what", &v.t("session.wrong_completion", &[("what", what)]))]))
                .with_guidance(v.t("session.wrong_completion.guidance", &[("method", method), ("kind", kind)]))
        }
        SessionOutcome::NothingToPreview { path } => Response::new(Status::NoOp, v.t("session.nothing_to_preview", &[("path", path)]))
            .with_guidance(v.t("commit.nothing.guidance", &[("p", &p)])),
        SessionOutcome::Previewed { path, count, mode } => Response::new(
            Status::Success,
            v.t("session.previewed", &[("changes", &v.count("n_pending_changes", *count)), ("in_path", &v.in_path(path)), ("mode", mode)]),
        )
        .with_guidance(if let Some(short) = v.save_short() {
            short
        } else if v.offers(Tool::Commit) {
            v.t("session.previewed.guidance", &[("p", &p)])
        } else {
            v.save_or_drop.clone()
        }),
        SessionOutcome::TaskBegun { id, goal, depth } => {
            Response::new(Status::Success, v.t("task.begun", &[("id", id), ("goal", goal), ("depth", depth)])).with_guidance(
                if v.offers(Tool::Commit) {
                    v.t("task.begun.guidance", &[("p", &p)])
                } else {
                    v.t("task.begun.guidance_no_commit", &[("p", &p)])
                },
            )
        }
        SessionOutcome::TaskRefused { error: crate::tasks::TaskError::TooDeep { goal, depth, limit } } => {
            Response::new(Status::Blocked, v.t("task.too_deep", &[("goal", goal), ("depth", depth), ("limit", limit)]))
                // Guidance names only offered tools: with a choice pending and nothing staged,
                // no commit can finish the task.
                .with_guidance(if v.offers(Tool::Commit) {
                    v.t("task.too_deep.guidance", &[("p", &p)])
                } else {
                    v.t("task.too_deep.guidance.inside", &[])
                })
        }
        SessionOutcome::TaskRefused { error } => {
            let what = match error {
                crate::tasks::TaskError::NotInnermost { given, innermost: None } => v.t("task.refused.no_active", &[("given", given)]),
                crate::tasks::TaskError::NotInnermost { given, innermost: Some(id) } => {
                    v.t("task.refused.not_innermost", &[("given", given), ("id", id)])
                }
                crate::tasks::TaskError::EmptyGoal => v.t("task.refused.empty_goal", &[]),
                other => other.to_string(),
            };
            invalid_v(&what, v.t("task.refused.guidance", &[]), v)
        }
        SessionOutcome::SessionLog { calls } => {
            Response::new(Status::Success, v.t("session.log", &[("calls", &v.count("n_calls", *calls))]))
                .with_guidance(v.t("session.log.guidance", &[]))
        }
        SessionOutcome::NotOpen { error } => {
            let create =
                if v.offers(Tool::Create) { v.t("session.not_open.create", &[("tool", &Tool::Create.name(p))]) } else { String::new() };
            let what = match error {
                crate::workspace::WorkspaceError::NotOpen { path, open } => {
                    let open = if open.is_empty() { v.t("session.not_open.none", &[]) } else { open.join(v.locale.words().letters_and) };
                    v.t("session.not_open", &[("path", path), ("open", &open)])
                }
                crate::workspace::WorkspaceError::EmptyPath => v.t("session.empty_path", &[]),
                other => other.to_string(),
            };
            invalid_v(&what, v.t("session.not_open.guidance", &[("create", &create)]), v)
        }
    }
}
