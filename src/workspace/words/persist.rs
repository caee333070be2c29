//! Ending a session in words: `memo_commit`, `memo_commit_auto`, `memo_revert`,
//! `memo_persist_as`, and `memo_create`'s refusals.

use super::{invalid_v, saved_versions, task_note, with_reason, Voice};
use crate::locale::Locale;
use crate::response::{Response, Status};
use crate::session::Letter;
use crate::workspace::outcome::*;
use crate::workspace::Tool;

/// The response for a persist outcome; the caller adds the metrics, fingerprint and the
/// immediate edit's preview. Cost: O(size of the words).
pub fn persist(o: &PersistOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    match o {
        PersistOutcome::TaskCompleted(task) => {
            Response::new(Status::Success, v.t("commit.task_completed", &[("id", &task.id), ("goal", &task.goal)]))
                .with_guidance(v.t("commit.task_completed.guidance", &[("p", &p)]))
        }
        // Immediate mode saves every edit as it is made: a commit has nothing left to do, and
        // says so without an error (docs/workflow.md#persist-modes).
        PersistOutcome::NothingToCommit if v.persist_mode == crate::workflow::PersistMode::Immediate => {
            Response::new(Status::NoOp, v.t("commit.nothing.immediate", &[]))
                .with_guidance(v.t("commit.nothing.immediate.guidance", &[("p", &p)]))
        }
        PersistOutcome::NothingToCommit => {
            Response::new(Status::NoOp, v.t("commit.nothing", &[])).with_guidance(v.t("commit.nothing.guidance", &[("p", &p)]))
        }
        PersistOutcome::DraftTooLarge { path, bytes, limit } => Response::new(
            Status::InvalidArguments,
            v.t("commit.too_large", &[("path", path), ("bytes", bytes), ("limit", limit), ("mib", &(limit / (1024 * 1024)))]),
        )
        .with_guidance(v.t("commit.too_large.guidance", &[("path", path), ("p", &p)])),
        PersistOutcome::Committed(c) => {
            let mode_note = if c.in_memory { v.t("commit.in_memory", &[]) } else { String::new() };
            let saved = v.t(
                "commit.committed",
                &[
                    ("changes", &v.count("n_changes", c.changes)),
                    ("delta", &v.chars_delta(c.delta)),
                    ("summary", &c.summary.trim_end_matches(['.', '。'])),
                    ("mode_note", &mode_note),
                    ("task", &task_note(c.task.as_ref(), "completed", v)),
                ],
            );
            // An edit saved at once (immediate mode): its staging summary already says the one
            // change and its delta; the commit adds that it is saved (the guidance names the
            // version). With more changes saved (kept from a failed save) the commit says them.
            let alone = c.changes == 1 && !c.in_memory;
            let summary = match &c.lead {
                Some(lead) if alone => format!("{lead}{}{}", v.t("commit.saved", &[]), task_note(c.task.as_ref(), "completed", v)),
                Some(lead) => format!("{lead}{}{saved}", v.sep()),
                None => saved,
            } + &dropped_note(c.dropped, v);
            let mut r = Response::new(Status::Success, summary);
            r.guidance = c.saved.as_ref().map(|s| saved_versions(s, v));
            r.delta_in_summary = c.lead.is_some() && alone;
            r
        }
        PersistOutcome::CommitFailed(f) => {
            let what: Vec<String> = f.failures.iter().map(|(path, e)| format!("{path}: {e}")).collect();
            let mut parts = vec![v.t("commit.failed", &[("what", &what.join(&v.t("list_sep", &[])))])];
            let comma = v.t("comma_sep", &[]);
            if !f.restored.is_empty() {
                let restored: Vec<String> = f
                    .restored
                    .iter()
                    .map(|(path, version)| v.t("commit.failed.restored_doc", &[("path", path), ("version", version)]))
                    .collect();
                let key = if restored.len() == 1 { "commit.failed.restored.one" } else { "commit.failed.restored.other" };
                parts.push(v.t(key, &[("docs", &restored.join(&comma))]));
            }
            if !f.kept_new.is_empty() {
                let key = if f.kept_new.len() == 1 { "commit.failed.kept_new.one" } else { "commit.failed.kept_new.other" };
                parts.push(v.t(key, &[("docs", &f.kept_new.join(&comma))]));
            }
            if !f.changed.is_empty() {
                let now: Vec<String> = f
                    .changed
                    .iter()
                    .map(|(path, version)| match version {
                        Some(version) => v.t("commit.failed.changed.at", &[("path", path), ("version", version)]),
                        None => v.t("commit.failed.changed.deleted", &[("path", path)]),
                    })
                    .collect();
                parts.push(v.t("commit.failed.changed", &[("now", &now.join(&comma))]));
            }
            parts.push(v.t("commit.failed.kept", &[]));
            let mut summary = parts.join(v.sep()) + &dropped_note(f.dropped, v);
            if let Some(lead) = &f.lead {
                summary = format!("{lead}{}{summary}", v.sep());
            }
            // A retry that would fail the same way is not offered: what storage holds now is
            // compared, rebased onto or reloaded first (the state says which it allows).
            let guidance = if v.offers(Tool::Commit) { v.t("commit.failed.guidance", &[("p", &p)]) } else { v.save_or_drop.clone() };
            Response::new(Status::PersistFailure, summary).with_guidance(guidance)
        }
        PersistOutcome::NothingToRevert { task } => {
            let status = if task.is_none() { Status::NoOp } else { Status::Success };
            Response::new(status, v.t("revert.nothing", &[("task", &task_note(task.as_ref(), "reverted", v))]))
                .with_guidance(v.t("revert.nothing.guidance", &[("p", &p)]))
        }
        PersistOutcome::Reverted { changes, reason, task } => Response::new(
            Status::Success,
            v.t(
                "revert.reverted",
                &[
                    ("changes", &v.count("n_pending_changes", *changes)),
                    ("reason", &with_reason(reason, v)),
                    ("task", &task_note(task.as_ref(), "reverted", v)),
                ],
            ),
        )
        .with_guidance(v.t("revert.reverted.guidance", &[("p", &p)])),
        PersistOutcome::NewPathEmpty { path } => {
            invalid_v(&v.t("path.empty", &[("arg", &"new_path")]), v.t("persist_as.new_path.guidance", &[("path", path)]), v)
        }
        PersistOutcome::NewPathOpen { path, new_path } => invalid_v(
            &v.t("persist_as.new_path_open", &[("new_path", new_path)]),
            v.t("persist_as.new_path.guidance", &[("path", path)]),
            v,
        ),
        PersistOutcome::NewPathUnsafe { path, new_path, why } => {
            invalid_v(&unsafe_path("new_path", new_path, *why, v), v.t("persist_as.new_path_unsafe.guidance", &[("path", path)]), v)
        }
        PersistOutcome::PersistDisabled => {
            Response::new(Status::Blocked, v.t("persist_as.disabled", &[])).with_guidance(v.t("persist_as.disabled.guidance", &[("p", &p)]))
        }
        PersistOutcome::SavedAs { path, new_path, version, chars, pending } => Response::new(
            Status::Success,
            v.t(
                "persist_as.saved",
                &[
                    ("path", path),
                    ("new_path", new_path),
                    ("version", version),
                    ("chars", chars),
                    ("pending", &v.count("n_pending_changes", *pending)),
                ],
            ),
        )
        .with_guidance(if v.offers(Tool::Commit) {
            v.t("persist_as.saved.guidance", &[("path", path), ("p", &p), ("new_path", new_path)])
        } else {
            v.t("persist_as.saved.guidance_drop", &[("path", path), ("p", &p), ("new_path", new_path), ("save_or_drop", &v.save_or_drop)])
        }),
        PersistOutcome::SaveAsFailed { path, new_path, error } => {
            Response::new(Status::PersistFailure, v.t("persist_as.failed", &[("path", path), ("new_path", new_path), ("error", error)]))
                .with_guidance(v.t("persist_as.failed.guidance", &[("p", &p)]))
        }
    }
}

/// ` The open candidates A–C were dropped.` when a commit ended a wait for a choice, else
/// nothing (docs/workflow.md#visible-tools).
fn dropped_note(dropped: Option<(Letter, Letter)>, v: &Voice) -> String {
    match dropped {
        Some((a, b)) if a == b => format!("{}{}", v.sep(), v.t("dropped.one", &[("a", &a)])),
        Some((a, b)) => format!("{}{}", v.sep(), v.t("dropped.other", &[("a", &a), ("b", &b)])),
        None => String::new(),
    }
}

/// `memo_commit_auto`'s summary: what the pending changes do
/// (`3 changes in config.json: \`timeout: 30\` → \`timeout: 60\` ×3`), in `locale`.
pub fn auto_summary(s: &PendingSummary, locale: Locale) -> String {
    let w = locale.words();
    let what = |t: &str| crate::text::clip(&t.trim().replace('\n', "⏎"), 40);
    let edit = if s.old_text.is_empty() {
        w.t("auto_summary.add", &[("text", &what(&s.new_text))])
    } else if s.new_text.is_empty() {
        w.t("auto_summary.remove", &[("text", &what(&s.old_text))])
    } else {
        w.t("auto_summary.replace", &[("old", &what(&s.old_text)), ("new", &what(&s.new_text))])
    };
    let rest = match s.repeated {
        Some(times) => format!(" ×{times}"),
        None if s.changes > 1 => w.t("auto_summary.more", &[("n", &(s.changes - 1))]),
        None => String::new(),
    };
    w.t("auto_summary", &[("changes", &w.count("n_changes", s.changes)), ("paths", &s.paths.join(", ")), ("edit", &edit), ("rest", &rest)])
}

/// Why `arg` (a path) is refused: `argument \`path\` "../x" has a \`..\` segment …`.
fn unsafe_path(arg: &str, path: &str, why: UnsafePath, v: &Voice) -> String {
    let why = match why {
        UnsafePath::ControlChar => v.t("path.unsafe.control_char", &[]),
        UnsafePath::ParentSegment => v.t("path.unsafe.parent_segment", &[]),
        UnsafePath::Absolute => v.t("path.unsafe.absolute", &[]),
    };
    v.t("path.unsafe", &[("arg", &arg), ("path", &crate::text::clip(&format!("{path:?}"), 80)), ("why", &why)])
}

/// The response for a refused `memo_create`: `InvalidArguments`, nothing changed.
pub fn create_refused(r: &CreateRefusal, v: &Voice) -> Response {
    let p = v.prefix();
    match r {
        CreateRefusal::PathEmpty => invalid_v(&v.t("path.empty", &[("arg", &"path")]), v.t("create.path_empty.guidance", &[]), v),
        CreateRefusal::Exists { path } => {
            invalid_v(&v.t("create.exists", &[("path", path)]), v.t("create.exists.guidance", &[("p", &p), ("path", path)]), v)
        }
        CreateRefusal::Unsafe { path, why } => invalid_v(&unsafe_path("path", path, *why, v), v.t("create.unsafe.guidance", &[]), v),
        CreateRefusal::TextEmpty => invalid_v(&v.t("path.empty", &[("arg", &"text")]), v.t("create.text_empty.guidance", &[]), v),
        CreateRefusal::TooLarge { path, bytes, limit } => invalid_v(
            &v.t("create.too_large", &[("path", path), ("bytes", bytes), ("limit", limit), ("mib", &(limit >> 20))]),
            v.t("create.too_large.guidance", &[]),
            v,
        ),
    }
}

/// The summary of a `memo_create` that staged the new document: `staged` is the append's.
pub fn created(path: &str, staged: &str, locale: Locale) -> String {
    locale.words().t("create.created", &[("path", &path), ("staged", &staged)])
}

/// `memo_undo` when it commits nothing. Cost: O(size of the words).
pub fn undo(o: &UndoOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    let path_arg = |path: &str, named: bool| if named { format!("path=\"{path}\"") } else { String::new() };
    match o {
        UndoOutcome::NothingToUndo { path, current, path_arg: named } => {
            let a = path_arg(path, *named);
            let args = if a.is_empty() { String::new() } else { format!(", {a}") };
            Response::new(Status::NoOp, v.t("undo.nothing", &[("path", path), ("current", current)]))
                .with_guidance(v.t("undo.nothing.guidance", &[("p", &p), ("args", &args)]))
        }
        UndoOutcome::ChangedSince { path, commit, summary, now, path_arg: named } => {
            let a = path_arg(path, *named);
            let args = if a.is_empty() { String::new() } else { format!(", {a}") };
            let before = commit.saturating_sub(1);
            Response::new(
                Status::StaleReference,
                v.t("undo.changed_since", &[("path", path), ("now", now), ("commit", commit), ("summary", summary)]),
            )
            .with_guidance(
                v.t("undo.changed_since.guidance", &[("path", path), ("p", &p), ("a", &a), ("before", &before), ("args", &args)]),
            )
        }
        UndoOutcome::AlreadyThere { path, version } => {
            Response::new(Status::NoOp, v.t("undo.already_there", &[("path", path), ("version", version)]))
                .with_guidance(v.t("undo.already_there.guidance", &[("p", &p)]))
        }
        UndoOutcome::Version(o) => super::version(o, v),
    }
}

/// The lead sentence of the commit `memo_undo` makes. O(summary).
pub fn undone(u: &Undone, locale: Locale) -> String {
    let w = locale.words();
    match &u.undone {
        Some((seq, summary)) => w.t("undo.undone", &[("seq", seq), ("summary", summary), ("path", &u.path), ("version", &u.version)]),
        None => w.t("undo.restored", &[("path", &u.path), ("version", &u.version)]),
    }
}

/// The history line of an undo commit when the model gave none. O(summary).
pub fn undo_summary(u: &Undone, locale: Locale) -> String {
    let w = locale.words();
    match &u.undone {
        Some((seq, summary)) => w.t("undo.summary", &[("seq", seq), ("summary", summary)]),
        None => w.t("undo.summary.restore", &[("path", &u.path), ("version", &u.version)]),
    }
}
