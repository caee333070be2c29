//! Keeping the cache and storage in step, in words: a conflict reported, `memo_diff`,
//! `memo_rebase`, `memo_refresh`, `memo_discard`, a failed read, and the notes that say what
//! storage did on its own.

use super::{task_note, with_reason, Voice};
use crate::response::{Response, Status};
use crate::tools::Tool;
use crate::workspace::outcome::*;
use crate::workspace::views::{clip, plural};

/// The response for a sync outcome; the caller adds the preview or patch and the fingerprint.
/// Cost: O(size of the words).
pub fn sync(o: &SyncOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    match o {
        SyncOutcome::Conflict { documents, tool } => {
            let what: Vec<String> = documents
                .iter()
                .map(|d| {
                    let (path, n) = (&d.path, d.pending);
                    match &d.version {
                        Some(version) => format!("{path} (now version {version}, {n} pending change{} of yours)", plural(n)),
                        None => format!("{path} (deleted, {n} pending change{} of yours)", plural(n)),
                    }
                })
                .collect();
            Response::new(
                Status::ExternalConflict,
                format!("Storage changed underneath your pending changes: {}. {} was not run.", what.join(", "), tool.name(p)),
            )
            .with_guidance(format!(
                "Compare with {p}_diff(against=\"storage\"); then {p}_rebase keeps your changes that do not overlap the external edit, or {p}_refresh / {p}_discard drops them."
            ))
        }
        SyncOutcome::NoPendingChanges { path } => {
            let r = Response::new(Status::NoOp, format!("No pending changes in {path}: the draft is the committed text."));
            // Without memo_replace (storage busy) the state's next actions say what to do.
            if v.offers(Tool::Replace) {
                r.with_guidance(format!("Nothing to compare: stage an edit in {path} with {p}_replace first."))
            } else {
                r
            }
        }
        SyncOutcome::DraftDiff { path, pending } => {
            Response::new(Status::Success, format!("Diff of {path}: {pending} pending change{} against the committed text.", plural(*pending)))
        }
        SyncOutcome::NotInStorage { path, draft_chars } => {
            Response::new(Status::Success, format!("{path} does not exist in storage; your draft has {draft_chars} chars.")).with_guidance(
                if v.offers(Tool::PersistAs) {
                    format!("{p}_persist_as(new_path) saves the draft elsewhere; {p}_discard(reason) drops the changes.")
                } else {
                    format!("A commit creates it again; {p}_revert(reason) drops the changes.")
                },
            )
        }
        SyncOutcome::StorageIsDraft { path, version, conflict } => {
            let r = Response::new(Status::NoOp, format!("Storage (version {version}) holds exactly your draft of {path}."));
            // Comparing again tells nothing new: taking storage's text ends the conflict and
            // loses nothing.
            if *conflict && v.offers(Tool::Refresh) {
                r.with_guidance(format!("Storage already holds your changes: {p}_refresh takes its text and ends the conflict, losing nothing."))
            } else {
                r
            }
        }
        SyncOutcome::StorageDiff { path, version, conflict } => {
            Response::new(Status::Success, format!("Storage (version {version}) against your draft of {path} (`-` storage, `+` draft).")).with_guidance(
                if *conflict {
                    format!("{p}_rebase keeps your changes that do not overlap storage's; {p}_refresh takes storage's text and drops yours.")
                } else if v.offers(Tool::Commit) {
                    format!("{p}_commit(summary) writes your draft over it.")
                } else {
                    v.save_or_drop.clone()
                },
            )
        }
        SyncOutcome::NothingToRebase { path } => Response::new(Status::NoOp, format!("{path} has no external change to rebase onto.")),
        SyncOutcome::RebaseOntoDeleted { path } => {
            Response::new(Status::Blocked, format!("{path} was deleted from storage: there is no text to rebase onto. Nothing was changed."))
                .with_guidance(format!("Save your draft with {p}_persist_as(new_path), or {p}_discard(reason) to drop it."))
        }
        SyncOutcome::Rebased { path, version, kept, dropped } => {
            let kept: Vec<String> = kept.iter().map(|l| l.to_string()).collect();
            let mut summary = format!(
                "Rebased {path} onto storage's version {version}: kept {} pending change{}{}.",
                kept.len(),
                plural(kept.len()),
                if kept.is_empty() { String::new() } else { format!(" ({})", kept.join(", ")) }
            );
            if dropped.is_empty() {
                return Response::new(Status::Success, summary).with_guidance(format!("Check the preview, then {p}_commit(summary) to save."));
            }
            let lost: Vec<String> = dropped.iter().map(|c| format!("change {}: {} → {}", c.id, clip(&c.old_text), clip(&c.new_text))).collect();
            summary.push_str(&format!(
                " {} overlapped storage's change and {} dropped: {}.",
                lost.len(),
                if lost.len() == 1 { "was" } else { "were" },
                lost.join("; ")
            ));
            Response::new(Status::Success, summary)
                .with_guidance(format!("Read {path} again and redo the dropped edits where they still apply, then {p}_commit(summary)."))
                .warn()
        }
        SyncOutcome::RefreshDeleted { path, conflict: false } => {
            Response::new(Status::NoOp, format!("{path} no longer exists in storage; there is nothing to reload. Nothing was changed."))
                .with_guidance("Its last text is kept here; committing changes to it creates it again.")
        }
        SyncOutcome::RefreshDeleted { path, conflict: true } => {
            Response::new(Status::ExternalConflict, format!("{path} no longer exists in storage. Nothing was changed."))
                .with_guidance(format!("Save your draft elsewhere with {p}_persist_as(new_path), or {p}_discard(reason)."))
        }
        SyncOutcome::AlreadyInStep { path, version } => {
            Response::new(Status::NoOp, format!("{path} already matches storage (version {version}); nothing to reload."))
        }
        SyncOutcome::Reloaded { path, version, dropped } => Response::new(
            Status::Success,
            format!("Reloaded {path} from storage (version {version}); dropped {dropped} pending change{}.", plural(*dropped)),
        )
        .with_guidance(format!("Read it again with {p}_read before editing.")),
        SyncOutcome::Discarded { changes, reason, reloaded, task } => {
            let reloaded: Vec<String> = reloaded
                .iter()
                .map(|d| match &d.version {
                    Some(version) => format!("{} (version {version})", d.path),
                    None => format!("{} (deleted in storage; its last text is kept)", d.path),
                })
                .collect();
            Response::new(
                Status::Success,
                format!(
                    "Discarded {changes} pending change{}{} and reloaded {} from storage.{}",
                    plural(*changes),
                    with_reason(reason, v),
                    reloaded.join(", "),
                    task_note(task.as_ref(), "reverted", v)
                ),
            )
        }
        SyncOutcome::LoadFailed { path, error } => {
            Response::new(Status::Exception, format!("Could not read {path} from storage: {error}. Nothing was changed."))
                .with_guidance("Check the storage, then call again.")
        }
    }
}

/// The live context's summary of a version storage made: `changed in storage (version v3)`.
pub fn external_version(version: &str) -> String {
    format!("changed in storage (version {version})")
}

/// A note said once at the start of the next summary (a conflict's, on every response while it
/// lasts), in brackets. `prefix`: the tool prefix. Cost: O(size of the words).
pub fn state_note(n: &StateNote, prefix: &str) -> String {
    let p = prefix;
    match n {
        StateNote::Reloaded { path, version } => {
            format!("[{path} changed in storage (version {version}) and was reloaded; earlier reads of it are out of date.]")
        }
        StateNote::Deleted { path } => format!("[{path} was deleted from storage; its text is kept here, and committing creates it again.]"),
        StateNote::KeptInMemory { path, version } => {
            let version = version.as_ref().map_or("deleted".to_string(), |v| format!("version {v}"));
            format!(
                "[{path} changed in storage ({version}). Persistence is disabled, so your in-memory commits of it are kept and storage differs; {p}_refresh takes storage's text.]"
            )
        }
        StateNote::TooLarge { path, version, bytes, limit, kept } => format!(
            "[{path} changed in storage (version {version}) to {bytes} bytes, over the limit of {limit} bytes per document: it was not loaded. This workspace keeps its earlier text (version {kept}) and any pending changes; saving {path} will fail until storage holds a smaller text.]"
        ),
        StateNote::Unreadable { path, why, kept } => format!(
            "[{path} changed in storage but could not be read: {why}. Kept the earlier text (version {kept}) and any pending changes; a commit of {path} may fail until storage holds readable text.]"
        ),
        StateNote::Conflict { paths } => format!(
            "[Storage changed under your pending changes in {}: compare with {p}_diff(against=\"storage\"), then {p}_rebase or {p}_refresh.]",
            paths.join(", ")
        ),
        StateNote::ReadOnly => "[Read-only: persistence is disabled, results stay in memory.]".to_string(),
        StateNote::NotStored { paths, fresh: true } => format!(
            "[Not stored yet: {} applied here, but storage has not acknowledged it (its server is unreachable or has not answered). It is sent when the connection is back; a later response says when it is stored. Until then it is lost if this process ends.]",
            paths.join(", ")
        ),
        StateNote::NotStored { paths, fresh: false } => {
            format!("[Not stored yet: storage has not acknowledged your last commit of {}.]", paths.join(", "))
        }
        StateNote::Stored { path } => format!("[Stored: storage acknowledged your commit of {path}.]"),
    }
}
