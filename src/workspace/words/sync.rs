//! Keeping the cache and storage in step, in words: a conflict reported, `memo_diff`,
//! `memo_rebase`, `memo_refresh`, `memo_discard`, a failed read, and the notes that say what
//! storage did on its own.

use super::{task_note, with_reason, Voice};
use crate::locale::Locale;
use crate::response::{Response, Status};
use crate::workspace::outcome::*;
use crate::workspace::views::clip;
use crate::workspace::Tool;

/// The response for a sync outcome; the caller adds the preview or patch and the fingerprint.
/// Cost: O(size of the words).
pub fn sync(o: &SyncOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    let and = v.locale.words().letters_and;
    match o {
        SyncOutcome::Conflict { documents, tool } => {
            let what: Vec<String> = documents
                .iter()
                .map(|d| {
                    let (path, n) = (&d.path, v.count("n_pending_changes", d.pending));
                    match &d.version {
                        Some(version) => v.t("sync.conflict.doc", &[("path", path), ("version", version), ("n", &n)]),
                        None => v.t("sync.conflict.deleted", &[("path", path), ("n", &n)]),
                    }
                })
                .collect();
            Response::new(Status::ExternalConflict, v.t("sync.conflict", &[("what", &what.join(and)), ("tool", &tool.name(p))]))
                .with_guidance(v.t("sync.conflict.guidance", &[("p", &p)]))
        }
        SyncOutcome::NoPendingChanges { path } => {
            let r = Response::new(Status::NoOp, v.t("sync.no_pending", &[("path", path)]));
            // Without memo_replace (storage busy) the state's next actions say what to do.
            if v.offers(Tool::Replace) {
                r.with_guidance(v.t("sync.no_pending.guidance", &[("path", path), ("p", &p)]))
            } else {
                r
            }
        }
        SyncOutcome::DraftDiff { path, pending } => {
            Response::new(Status::Success, v.t("sync.draft_diff", &[("path", path), ("n", &v.count("n_pending_changes", *pending))]))
        }
        SyncOutcome::NotInStorage { path, draft_chars } => {
            Response::new(Status::Success, v.t("sync.not_in_storage", &[("path", path), ("chars", draft_chars)])).with_guidance(
                if v.offers(Tool::PersistAs) {
                    v.t("sync.not_in_storage.persist_as", &[("p", &p)])
                } else {
                    v.t("sync.not_in_storage.commit", &[("p", &p)])
                },
            )
        }
        SyncOutcome::StorageIsDraft { path, version, conflict } => {
            let r = Response::new(Status::NoOp, v.t("sync.storage_is_draft", &[("version", version), ("path", path)]));
            // Comparing again tells nothing new: taking storage's text ends the conflict and
            // loses nothing.
            if *conflict && v.offers(Tool::Refresh) {
                r.with_guidance(v.t("sync.storage_is_draft.guidance", &[("p", &p)]))
            } else {
                r
            }
        }
        SyncOutcome::StorageDiff { path, version, conflict } => {
            Response::new(Status::Success, v.t("sync.storage_diff", &[("version", version), ("path", path)])).with_guidance(if *conflict {
                v.t("sync.storage_diff.conflict", &[("p", &p)])
            } else if v.offers(Tool::Commit) {
                v.t("sync.storage_diff.commit", &[("p", &p)])
            } else {
                v.save_or_drop.clone()
            })
        }
        SyncOutcome::NothingToRebase { path } => Response::new(Status::NoOp, v.t("sync.nothing_to_rebase", &[("path", path)])),
        SyncOutcome::RebaseOntoDeleted { path } => Response::new(Status::Blocked, v.t("sync.rebase_onto_deleted", &[("path", path)]))
            .with_guidance(v.t("sync.rebase_onto_deleted.guidance", &[("p", &p)])),
        SyncOutcome::Rebased { path, version, kept, dropped } => {
            let kept_ids: Vec<String> = kept.iter().map(|l| l.to_string()).collect();
            let ids = if kept_ids.is_empty() { String::new() } else { v.t("sync.rebased.ids", &[("ids", &kept_ids.join(and))]) };
            let mut summary = v.t(
                "sync.rebased",
                &[("path", path), ("version", version), ("kept", &v.count("n_pending_changes", kept_ids.len())), ("ids", &ids)],
            );
            if dropped.is_empty() {
                return Response::new(Status::Success, summary).with_guidance(v.t("sync.rebased.guidance", &[("p", &p)]));
            }
            let lost: Vec<String> = dropped
                .iter()
                .map(|c| v.t("sync.rebased.lost", &[("id", &c.id), ("old", &clip(&c.old_text)), ("new", &clip(&c.new_text))]))
                .collect();
            summary.push_str(&v.t(
                if lost.len() == 1 { "sync.rebased.dropped.one" } else { "sync.rebased.dropped.other" },
                &[("n", &lost.len()), ("lost", &lost.join(v.t("list_sep", &[]).as_str()))],
            ));
            Response::new(Status::Success, summary).with_guidance(v.t("sync.rebased.dropped.guidance", &[("path", path), ("p", &p)])).warn()
        }
        SyncOutcome::RefreshDeleted { path, conflict: false } => {
            Response::new(Status::NoOp, v.t("sync.refresh_deleted", &[("path", path)]))
                .with_guidance(v.t("sync.refresh_deleted.guidance", &[]))
        }
        SyncOutcome::RefreshDeleted { path, conflict: true } => {
            Response::new(Status::ExternalConflict, v.t("sync.refresh_deleted.conflict", &[("path", path)]))
                .with_guidance(v.t("sync.refresh_deleted.conflict.guidance", &[("p", &p)]))
        }
        SyncOutcome::AlreadyInStep { path, version } => {
            Response::new(Status::NoOp, v.t("sync.already_in_step", &[("path", path), ("version", version)]))
        }
        SyncOutcome::Reloaded { path, version, dropped } => Response::new(
            Status::Success,
            v.t("sync.reloaded", &[("path", path), ("version", version), ("n", &v.count("n_pending_changes", *dropped))]),
        )
        .with_guidance(v.t("sync.reloaded.guidance", &[("p", &p)])),
        SyncOutcome::Discarded { changes, reason, reloaded, task } => {
            let reloaded: Vec<String> = reloaded
                .iter()
                .map(|d| match &d.version {
                    Some(version) => v.t("sync.discarded.doc", &[("path", &d.path), ("version", version)]),
                    None => v.t("sync.discarded.deleted", &[("path", &d.path)]),
                })
                .collect();
            Response::new(
                Status::Success,
                v.t(
                    "sync.discarded",
                    &[
                        ("n", &v.count("n_pending_changes", *changes)),
                        ("reason", &with_reason(reason, v)),
                        ("reloaded", &reloaded.join(and)),
                        ("task", &task_note(task.as_ref(), "reverted", v)),
                    ],
                ),
            )
        }
        SyncOutcome::LoadFailed { path, error } => {
            Response::new(Status::Exception, v.t("sync.load_failed", &[("path", path), ("error", error)]))
                .with_guidance(v.t("sync.load_failed.guidance", &[]))
        }
    }
}

/// The live context's summary of a version storage made: `changed in storage (version v3)`.
pub fn external_version(version: &str, locale: Locale) -> String {
    locale.words().t("note.external_version", &[("version", &version)])
}

/// A note said once at the start of the next summary (a conflict's, on every response while it
/// lasts), in brackets, in `locale`. `prefix`: the tool prefix. Cost: O(size of the words).
pub fn state_note(n: &StateNote, prefix: &str, locale: Locale) -> String {
    let w = locale.words();
    let p: &dyn std::fmt::Display = &prefix;
    let and = w.phrase("comma_sep");
    match n {
        StateNote::Reloaded { path, version } => w.t("note.reloaded", &[("path", path), ("version", version)]),
        StateNote::Deleted { path } => w.t("note.deleted", &[("path", path)]),
        StateNote::KeptInMemory { path, version } => {
            let version = match version {
                Some(v) => w.t("note.kept_in_memory.version", &[("version", v)]),
                None => w.t("note.kept_in_memory.deleted", &[]),
            };
            w.t("note.kept_in_memory", &[("path", path), ("version", &version), ("p", p)])
        }
        StateNote::TooLarge { path, version, bytes, limit, kept } => {
            w.t("note.too_large", &[("path", path), ("version", version), ("bytes", bytes), ("limit", limit), ("kept", kept)])
        }
        StateNote::Unreadable { path, why, kept } => w.t("note.unreadable", &[("path", path), ("why", why), ("kept", kept)]),
        StateNote::Conflict { paths } => w.t("note.conflict", &[("paths", &paths.join(and)), ("p", p)]),
        StateNote::ReadOnly => w.t("note.read_only", &[]),
        StateNote::NotStored { paths, fresh: true } => w.t("note.not_stored.fresh", &[("paths", &paths.join(and))]),
        StateNote::NotStored { paths, fresh: false } => w.t("note.not_stored", &[("paths", &paths.join(and))]),
        StateNote::Stored { path } => w.t("note.stored", &[("path", path)]),
        StateNote::Rebased { path, version, kept, had_choice } => {
            let choice = if *had_choice { w.t("note.rebased.choice", &[("p", p)]) } else { String::new() };
            w.t(
                "note.rebased",
                &[
                    ("path", path),
                    ("version", version),
                    ("changes", &w.count("n_pending_changes", kept.len())),
                    ("ids", &kept.join(and)),
                    ("choice", &choice),
                ],
            )
        }
    }
}
