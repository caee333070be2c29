//! The words of the sync, persist, create and session outcomes on plain data: every variant is
//! worded, in both locales' layouts, into a valid response with the status it promises, a
//! summary naming the values it carries, and guidance that names only the tools the voice offers.

use super::*;
use crate::format::{Locale, RenderOptions};
use crate::session::Letter;
use crate::tasks::TaskError;
use crate::workflow::{Flags, WorkflowState};
use crate::workspace::outcome::*;
use crate::workspace::WorkspaceError;

fn letter(s: &str) -> Letter {
    Letter::parse(s).unwrap_or_else(|| panic!("letter {s}"))
}

fn task() -> Option<TaskEnded> {
    Some(TaskEnded { id: 2, goal: "raise the timeout".into() })
}

/// A voice offering `offered`, in manual mode, under the prefix `nb` (so a hard-coded `memo_`
/// would show).
fn voice(offered: Vec<Tool>) -> Voice {
    Voice {
        locale: crate::locale::Locale::En,
        prefix: "nb".into(),
        persist_mode: PersistMode::Manual,
        offered,
        save_or_drop: "nb_revert(reason) drops the pending changes.".into(),
        one_document: false,
        heard: Default::default(),
    }
}

fn every_sync_outcome() -> Vec<(SyncOutcome, Status)> {
    vec![
        (
            SyncOutcome::Conflict {
                documents: vec![
                    Conflicted { path: "a.md".into(), version: Some("v7".into()), pending: 2 },
                    Conflicted { path: "b.md".into(), version: None, pending: 1 },
                ],
                tool: Tool::Replace,
            },
            Status::ExternalConflict,
        ),
        (SyncOutcome::NoPendingChanges { path: "a.md".into() }, Status::NoOp),
        (SyncOutcome::DraftDiff { path: "a.md".into(), pending: 3 }, Status::Success),
        (SyncOutcome::NotInStorage { path: "a.md".into(), draft_chars: 41 }, Status::Success),
        (SyncOutcome::StorageIsDraft { path: "a.md".into(), version: "v7".into(), conflict: true }, Status::NoOp),
        (SyncOutcome::StorageIsDraft { path: "a.md".into(), version: "v7".into(), conflict: false }, Status::NoOp),
        (SyncOutcome::StorageDiff { path: "a.md".into(), version: "v7".into(), conflict: true }, Status::Success),
        (SyncOutcome::StorageDiff { path: "a.md".into(), version: "v7".into(), conflict: false }, Status::Success),
        (SyncOutcome::NothingToRebase { path: "a.md".into() }, Status::NoOp),
        (SyncOutcome::RebaseOntoDeleted { path: "a.md".into() }, Status::Blocked),
        (
            SyncOutcome::Rebased { path: "a.md".into(), version: "v7".into(), kept: vec![letter("A"), letter("C")], dropped: vec![] },
            Status::Success,
        ),
        (
            SyncOutcome::Rebased {
                path: "a.md".into(),
                version: "v7".into(),
                kept: vec![],
                dropped: vec![DroppedChange { id: letter("B"), old_text: "timeout: 30".into(), new_text: "timeout: 60".into() }],
            },
            Status::Success,
        ),
        (SyncOutcome::RefreshDeleted { path: "a.md".into(), conflict: false }, Status::NoOp),
        (SyncOutcome::RefreshDeleted { path: "a.md".into(), conflict: true }, Status::ExternalConflict),
        (SyncOutcome::AlreadyInStep { path: "a.md".into(), version: "v7".into() }, Status::NoOp),
        (SyncOutcome::Reloaded { path: "a.md".into(), version: "v7".into(), dropped: 1 }, Status::Success),
        (
            SyncOutcome::Discarded {
                changes: 2,
                reason: "wrong file.".into(),
                reloaded: vec![
                    ReloadedDocument { path: "a.md".into(), version: Some("v7".into()) },
                    ReloadedDocument { path: "b.md".into(), version: None },
                ],
                task: task(),
            },
            Status::Success,
        ),
        (SyncOutcome::LoadFailed { path: "a.md".into(), error: "EACCES".into() }, Status::Exception),
    ]
}

/// Which variant, by an exhaustive match: a new variant does not compile until it is listed.
fn sync_kind(o: &SyncOutcome) -> usize {
    match o {
        SyncOutcome::Conflict { .. } => 0,
        SyncOutcome::NoPendingChanges { .. } => 1,
        SyncOutcome::DraftDiff { .. } => 2,
        SyncOutcome::NotInStorage { .. } => 3,
        SyncOutcome::StorageIsDraft { .. } => 4,
        SyncOutcome::StorageDiff { .. } => 5,
        SyncOutcome::NothingToRebase { .. } => 6,
        SyncOutcome::RebaseOntoDeleted { .. } => 7,
        SyncOutcome::Rebased { .. } => 8,
        SyncOutcome::RefreshDeleted { .. } => 9,
        SyncOutcome::AlreadyInStep { .. } => 10,
        SyncOutcome::Reloaded { .. } => 11,
        SyncOutcome::Discarded { .. } => 12,
        SyncOutcome::LoadFailed { .. } => 13,
    }
}

fn committed(lead: Option<&str>, in_memory: bool) -> PersistOutcome {
    PersistOutcome::Committed(Committed {
        changes: 3,
        delta: -4,
        summary: "Raise the timeouts.".into(),
        in_memory,
        task: task(),
        lead: lead.map(str::to_string),
        saved: Some(SavedVersions { now: vec![("a.md".into(), 3), ("b.md".into(), 1)], before: 2, path_arg: false }),
        dropped: lead.is_none().then(|| (Letter::from_index(0), Letter::from_index(2))).and_then(|(a, b)| a.zip(b)),
    })
}

fn every_persist_outcome() -> Vec<(PersistOutcome, Status)> {
    vec![
        (PersistOutcome::TaskCompleted(TaskEnded { id: 1, goal: "tidy".into() }), Status::Success),
        (PersistOutcome::NothingToCommit, Status::NoOp),
        (PersistOutcome::DraftTooLarge { path: "a.md".into(), bytes: 200 << 20, limit: 128 << 20 }, Status::InvalidArguments),
        (committed(None, false), Status::Success),
        (committed(Some("Staged change A in a.md at line 2 (+1 chars)."), true), Status::Success),
        (
            PersistOutcome::CommitFailed(CommitFailed {
                failures: vec![("b.md".into(), "disk full".into())],
                restored: vec![("a.md".into(), "v9".into())],
                kept_new: vec!["c.md".into()],
                lead: Some("Staged change A in a.md at line 2 (+1 chars).".into()),
                dropped: None,
                changed: Vec::new(),
            }),
            Status::PersistFailure,
        ),
        (
            PersistOutcome::CommitFailed(CommitFailed {
                failures: vec![("a.md".into(), "version mismatch".into())],
                restored: Vec::new(),
                kept_new: Vec::new(),
                lead: None,
                dropped: Letter::from_index(0).zip(Letter::from_index(1)),
                changed: vec![("a.md".into(), Some("v4".into()))],
            }),
            Status::PersistFailure,
        ),
        (PersistOutcome::NothingToRevert { task: None }, Status::NoOp),
        (PersistOutcome::NothingToRevert { task: task() }, Status::Success),
        (PersistOutcome::Reverted { changes: 2, reason: "wrong approach.".into(), task: task() }, Status::Success),
        (PersistOutcome::NewPathEmpty { path: "a.md".into() }, Status::InvalidArguments),
        (PersistOutcome::NewPathOpen { path: "a.md".into(), new_path: "b.md".into() }, Status::InvalidArguments),
        (
            PersistOutcome::NewPathUnsafe { path: "a.md".into(), new_path: "../x.md".into(), why: UnsafePath::ParentSegment },
            Status::InvalidArguments,
        ),
        (PersistOutcome::PersistDisabled, Status::Blocked),
        (
            PersistOutcome::SavedAs { path: "a.md".into(), new_path: "a.md.recovered".into(), version: "v1".into(), chars: 41, pending: 2 },
            Status::Success,
        ),
        (
            PersistOutcome::SaveAsFailed { path: "a.md".into(), new_path: "a.md.recovered".into(), error: "exists".into() },
            Status::PersistFailure,
        ),
    ]
}

fn persist_kind(o: &PersistOutcome) -> usize {
    match o {
        PersistOutcome::TaskCompleted(_) => 0,
        PersistOutcome::NothingToCommit => 1,
        PersistOutcome::DraftTooLarge { .. } => 2,
        PersistOutcome::Committed(_) => 3,
        PersistOutcome::CommitFailed(_) => 4,
        PersistOutcome::NothingToRevert { .. } => 5,
        PersistOutcome::Reverted { .. } => 6,
        PersistOutcome::NewPathEmpty { .. } => 7,
        PersistOutcome::NewPathOpen { .. } => 8,
        PersistOutcome::NewPathUnsafe { .. } => 9,
        PersistOutcome::PersistDisabled => 10,
        PersistOutcome::SavedAs { .. } => 11,
        PersistOutcome::SaveAsFailed { .. } => 12,
    }
}

fn every_create_refusal() -> Vec<CreateRefusal> {
    vec![
        CreateRefusal::PathEmpty,
        CreateRefusal::Exists { path: "a.md".into() },
        CreateRefusal::Unsafe { path: "/etc/passwd".into(), why: UnsafePath::Absolute },
        CreateRefusal::Unsafe { path: "a\u{7}.md".into(), why: UnsafePath::ControlChar },
        CreateRefusal::TextEmpty,
        CreateRefusal::TooLarge { path: "big.md".into(), bytes: 200 << 20, limit: 128 << 20 },
    ]
}

fn every_session_outcome() -> Vec<(SessionOutcome, Status)> {
    vec![
        (SessionOutcome::Waiting, Status::Blocked),
        (SessionOutcome::WrongCompletion { what: "write", method: "completePersist", kind: "persist" }, Status::InvalidArguments),
        (SessionOutcome::NothingToPreview { path: "a.md".into() }, Status::NoOp),
        (SessionOutcome::Previewed { path: "a.md".into(), count: 2, mode: "compact" }, Status::Success),
        (SessionOutcome::TaskBegun { id: 3, goal: "raise the timeout".into(), depth: 2 }, Status::Success),
        (SessionOutcome::TaskRefused { error: TaskError::TooDeep { goal: "deeper".into(), depth: 4, limit: 3 } }, Status::Blocked),
        (SessionOutcome::TaskRefused { error: TaskError::EmptyGoal }, Status::InvalidArguments),
        (SessionOutcome::SessionLog { calls: 7 }, Status::Success),
        (
            SessionOutcome::NotOpen { error: WorkspaceError::NotOpen { path: "c.md".into(), open: vec!["a.md".into(), "b.md".into()] } },
            Status::InvalidArguments,
        ),
    ]
}

fn session_kind(o: &SessionOutcome) -> usize {
    match o {
        SessionOutcome::Waiting => 0,
        SessionOutcome::WrongCompletion { .. } => 1,
        SessionOutcome::NothingToPreview { .. } => 2,
        SessionOutcome::Previewed { .. } => 3,
        SessionOutcome::TaskBegun { .. } => 4,
        SessionOutcome::TaskRefused { .. } => 5,
        SessionOutcome::SessionLog { .. } => 6,
        SessionOutcome::NotOpen { .. } => 7,
    }
}

fn every_state_note() -> Vec<StateNote> {
    vec![
        StateNote::Reloaded { path: "a.md".into(), version: "v7".into() },
        StateNote::Deleted { path: "a.md".into() },
        StateNote::KeptInMemory { path: "a.md".into(), version: Some("v7".into()) },
        StateNote::KeptInMemory { path: "a.md".into(), version: None },
        StateNote::TooLarge { path: "a.md".into(), version: "v7".into(), bytes: 200 << 20, limit: 128 << 20, kept: "v6".into() },
        // `why` is the storage's own error text, quoted as it is in every locale.
        StateNote::Unreadable { path: "a.md".into(), why: "EACCES".into(), kept: "v6".into() },
        StateNote::Conflict { paths: vec!["a.md".into(), "b.md".into()] },
        StateNote::ReadOnly,
        StateNote::NotStored { paths: vec!["a.md".into()], fresh: true },
        StateNote::NotStored { paths: vec!["a.md".into()], fresh: false },
        StateNote::Stored { path: "a.md".into() },
        StateNote::Rebased { path: "a.md".into(), version: "v7".into(), kept: vec!["A".into(), "B".into()], had_choice: true },
    ]
}

fn state_note_kind(n: &StateNote) -> usize {
    match n {
        StateNote::Reloaded { .. } => 0,
        StateNote::Deleted { .. } => 1,
        StateNote::KeptInMemory { .. } => 2,
        StateNote::TooLarge { .. } => 3,
        StateNote::Unreadable { .. } => 4,
        StateNote::Conflict { .. } => 5,
        StateNote::ReadOnly => 6,
        StateNote::NotStored { .. } => 7,
        StateNote::Stored { .. } => 8,
        StateNote::Rebased { .. } => 9,
    }
}

/// `[0, 1, …, n-1]` when `kinds` lists every variant, in order.
fn covered(mut kinds: Vec<usize>) -> Vec<usize> {
    kinds.dedup();
    kinds
}

#[test]
fn every_variant_is_listed() {
    assert_eq!(covered(every_sync_outcome().iter().map(|(o, _)| sync_kind(o)).collect()), (0..14).collect::<Vec<_>>());
    assert_eq!(covered(every_persist_outcome().iter().map(|(o, _)| persist_kind(o)).collect()), (0..13).collect::<Vec<_>>());
    assert_eq!(covered(every_session_outcome().iter().map(|(o, _)| session_kind(o)).collect()), (0..8).collect::<Vec<_>>());
    assert_eq!(covered(every_state_note().iter().map(state_note_kind).collect()), (0..10).collect::<Vec<_>>());
}

/// Every `nb_tool` a text names, without its arguments.
fn tools_named(text: &str) -> Vec<Tool> {
    let mut named = Vec::new();
    for (at, _) in text.match_indices("nb_") {
        let rest = &text[at..];
        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let tool = Tool::from_name("nb", &rest[..end]).unwrap_or_else(|| panic!("{} names no tool: {text}", &rest[..end]));
        named.push(tool);
    }
    named
}

/// Each worded outcome: the status it promises, a summary and (unless `bare`) guidance naming
/// only offered tools, no unfilled template, and a valid response in both locales.
fn check(what: &str, mut r: Response, status: Status, bare: bool, v: &Voice) {
    assert_eq!(r.status, status, "{what}");
    assert!(!r.summary.trim().is_empty() && !r.summary.contains("{}") && !r.summary.contains("``"), "{what}: {}", r.summary);
    assert!(!r.summary.contains("memo_"), "{what}: the prefix is the voice's: {}", r.summary);
    let guidance = r.guidance.clone().unwrap_or_default();
    assert_eq!(guidance.trim().is_empty(), bare, "{what}: guidance {guidance:?}");
    for tool in tools_named(&guidance) {
        assert!(v.offered.contains(&tool), "{what}: the guidance names {tool:?}, which the voice does not offer: {guidance}");
    }
    if matches!(status, Status::InvalidArguments | Status::Blocked | Status::Exception | Status::PersistFailure)
        && r.summary.starts_with("Invalid")
    {
        assert!(r.summary.ends_with("Nothing was changed."), "{what}: {}", r.summary);
    }
    // The state these statuses leave (the validator checks the pair); the rest leave any.
    if matches!(status, Status::ExternalConflict | Status::PersistFailure) {
        r.workflow_state = WorkflowState::OutOfSync;
        r.flags = Flags::derive(WorkflowState::OutOfSync, PersistMode::Manual);
        if status == Status::ExternalConflict {
            r.flags = r.flags | Flags::EXTERNAL_CONFLICT;
        }
    }
    for locale in [Locale::En, Locale::Zh] {
        r.render(RenderOptions { locale, ..RenderOptions::default() });
        if let Err(violations) = crate::validate::validate(&r.markdown) {
            panic!("{what} in {locale:?}: {violations:?}\n{}", r.markdown);
        }
    }
}

#[test]
fn every_sync_outcome_is_worded_in_both_locales() {
    let v = voice(Tool::ALL.to_vec());
    for (o, status) in every_sync_outcome() {
        // A diff's answer without a next step gets the state's next actions when finished.
        let bare = matches!(
            o,
            SyncOutcome::DraftDiff { .. }
                | SyncOutcome::StorageIsDraft { conflict: false, .. }
                | SyncOutcome::NothingToRebase { .. }
                | SyncOutcome::AlreadyInStep { .. }
                | SyncOutcome::Discarded { .. }
        );
        check(&format!("{o:?}"), sync(&o, &v), status, bare, &v);
    }
}

#[test]
fn every_persist_and_create_outcome_is_worded_in_both_locales() {
    let v = voice(Tool::ALL.to_vec());
    for (o, status) in every_persist_outcome() {
        check(&format!("{o:?}"), persist(&o, &v), status, false, &v);
    }
    for refusal in every_create_refusal() {
        let r = create_refused(&refusal, &v);
        assert!(r.summary.starts_with("Invalid call: "), "{}", r.summary);
        check(&format!("{refusal:?}"), r, Status::InvalidArguments, false, &v);
    }
}

#[test]
fn every_session_outcome_is_worded_in_both_locales() {
    let v = voice(Tool::ALL.to_vec());
    for (o, status) in every_session_outcome() {
        check(&format!("{o:?}"), session(&o, &v), status, false, &v);
    }
}

#[test]
fn a_near_miss_already_made_and_a_wrong_file_are_worded_in_both_locales() {
    let v = voice(Tool::ALL.to_vec());
    let there = AlreadyThere { letter: letter("B"), path: "a.md".into(), line: 12 };
    let r = already_there(&there, &v);
    assert!(r.summary.contains("candidate B in a.md (line 12)") && r.summary.ends_with("Nothing was staged."), "{}", r.summary);
    check("AlreadyThere", r, Status::NoOp, false, &v);

    let nowhere = ExactlyElsewhere { path: "a.md".into(), places: vec![] };
    assert_eq!(exactly_elsewhere(&nowhere, &v), None);
    let elsewhere = ExactlyElsewhere { path: "a.md".into(), places: vec![("b.md".into(), 4), ("c.md".into(), 9)] };
    let lead = exactly_elsewhere(&elsewhere, &v).unwrap_or_default();
    assert_eq!(
        lead,
        "old_text occurs exactly in b.md (line 4), c.md (line 9), not in a.md: if you meant that document, call nb_replace with path=\"b.md\" (nothing was changed there)."
    );
    let r = Response::new(Status::NoMatch, "old_text `x` was not found in a.md. Nothing was changed.").with_guidance(lead);
    check("ExactlyElsewhere", r, Status::NoMatch, false, &v);
}

#[test]
fn every_state_note_is_one_bracketed_sentence() {
    for n in every_state_note() {
        let s = state_note(&n, "nb", Locale::En);
        assert!(s.starts_with('[') && s.ends_with(".]") && !s.contains("{}"), "{s}");
        assert!(!s.contains("memo_"), "{s}");
        // In Chinese: the same note, a Chinese sentence in the same brackets.
        let zh = state_note(&n, "nb", Locale::Zh);
        assert!(zh.starts_with('[') && zh.ends_with("。]") && !zh.contains('{'), "{zh}");
        assert_eq!(english_sentence(&zh), None, "{zh}");
        assert_eq!(tools_named(&zh), tools_named(&s), "{zh}");
    }
}

#[test]
fn guidance_follows_the_tools_the_voice_offers() {
    // Without memo_commit (a choice pending, storage out of sync) the diff and the save-as say
    // how to save from this state instead.
    let without_commit = voice(Tool::ALL.iter().copied().filter(|t| *t != Tool::Commit).collect());
    let diff = SyncOutcome::StorageDiff { path: "a.md".into(), version: "v7".into(), conflict: false };
    assert_eq!(sync(&diff, &voice(Tool::ALL.to_vec())).guidance.as_deref(), Some("nb_commit(summary) writes your draft over it."));
    assert_eq!(sync(&diff, &without_commit).guidance.as_deref(), Some("nb_revert(reason) drops the pending changes."));
    let saved = PersistOutcome::SavedAs { path: "a.md".into(), new_path: "a.md.bak".into(), version: "v1".into(), chars: 3, pending: 1 };
    let g = persist(&saved, &without_commit).guidance.unwrap_or_default();
    assert!(g.ends_with("nb_revert(reason) drops the pending changes.") && !g.contains("nb_commit"), "{g}");
    // Storage holding exactly the draft under a conflict: refresh loses nothing (when offered).
    let same = SyncOutcome::StorageIsDraft { path: "a.md".into(), version: "v7".into(), conflict: true };
    assert!(sync(&same, &voice(Tool::ALL.to_vec()))
        .guidance
        .unwrap_or_default()
        .starts_with("Storage already holds your changes: nb_refresh"));
    assert_eq!(sync(&same, &voice(vec![Tool::Read])).guidance, None);
    let nothing = SyncOutcome::NoPendingChanges { path: "b.md".into() };
    assert_eq!(
        sync(&nothing, &voice(Tool::ALL.to_vec())).guidance.as_deref(),
        Some("Nothing to compare: stage an edit in b.md with nb_replace first.")
    );
    assert_eq!(sync(&nothing, &voice(vec![Tool::Read])).guidance, None);
    // Without memo_persist_as, a document gone from storage is recreated by a commit.
    let gone = SyncOutcome::NotInStorage { path: "a.md".into(), draft_chars: 3 };
    let without_save_as = voice(Tool::ALL.iter().copied().filter(|t| *t != Tool::PersistAs).collect());
    assert_eq!(sync(&gone, &without_save_as).guidance.as_deref(), Some("A commit creates it again; nb_revert(reason) drops the changes."));
    // A path not open mentions memo_create only when it is offered.
    let not_open = SessionOutcome::NotOpen { error: WorkspaceError::NotOpen { path: "c.md".into(), open: vec!["a.md".into()] } };
    assert!(session(&not_open, &voice(Tool::ALL.to_vec())).guidance.unwrap_or_default().contains("nb_create(path, text)"));
    let without_create = voice(Tool::ALL.iter().copied().filter(|t| *t != Tool::Create).collect());
    assert!(!session(&not_open, &without_create).guidance.unwrap_or_default().contains("nb_create"));
}

#[test]
fn outcomes_name_their_values_and_limits() {
    let v = voice(Tool::ALL.to_vec());
    let s = persist(&PersistOutcome::DraftTooLarge { path: "a.md".into(), bytes: 200 << 20, limit: 128 << 20 }, &v).summary;
    assert!(s.contains("209715200 bytes") && s.contains("134217728 bytes (128 MiB)"), "{s}");
    let s = create_refused(&CreateRefusal::TooLarge { path: "big.md".into(), bytes: 200 << 20, limit: 128 << 20 }, &v).summary;
    assert!(s.contains("`big.md` is 209715200 bytes") && s.contains("134217728 bytes"), "{s}");
    let s = sync(&every_sync_outcome()[0].0, &v).summary;
    assert_eq!(
        s,
        "Storage changed underneath your pending changes: a.md (now version v7, 2 pending changes of yours), b.md (deleted, 1 pending change of yours). nb_replace was not run."
    );
    // A commit: the change count, the delta, the summary without its period, the task, the lead.
    let r = persist(&committed(Some("Staged change A."), true), &v);
    assert_eq!(
        r.summary,
        "Staged change A. Committed 3 changes (-4 chars): Raise the timeouts. Persistence is disabled: the result stays in memory and is not written to storage. Task #2 completed: \"raise the timeout\"."
    );
    assert_eq!(r.guidance.as_deref(), Some("a.md is now v3, b.md is now v1; nb_read(version=\"v2\") shows a.md as it was before."));
    let (o, _) = &every_persist_outcome()[5];
    let s = persist(o, &v).summary;
    assert!(
        s.contains("b.md: disk full")
            && s.contains("a.md (now version v9) had been saved and was restored")
            && s.contains("c.md could not be restored"),
        "{s}"
    );
    // Storage changed underneath the save: said with its version; the candidates dropped.
    let (o, _) = &every_persist_outcome()[6];
    let s = persist(o, &v).summary;
    assert!(s.contains("a.md is at version v4 there now") && s.ends_with("The open candidates A–B were dropped."), "{s}");
    let s = sync(&SyncOutcome::Rebased { path: "a.md".into(), version: "v7".into(), kept: vec![], dropped: every_dropped() }, &v).summary;
    assert!(s.ends_with("2 overlapped storage's change and were dropped: change B: timeout: 30 → timeout: 60; change C: x → y."), "{s}");
    let s = sync(&every_sync_outcome()[16].0, &v).summary;
    assert_eq!(s, "Discarded 2 pending changes (wrong file) and reloaded a.md (version v7), b.md (deleted in storage; its last text is kept) from storage. Task #2 reverted: \"raise the timeout\".");
}

#[test]
fn a_generated_commit_summary_says_what_the_changes_do() {
    let s = |changes, old: &str, new: &str, repeated| {
        auto_summary(
            &PendingSummary { changes, paths: vec!["a.md".into(), "b.md".into()], old_text: old.into(), new_text: new.into(), repeated },
            Locale::En,
        )
    };
    let zh = |changes, old: &str, new: &str| {
        auto_summary(
            &PendingSummary { changes, paths: vec!["a.md".into()], old_text: old.into(), new_text: new.into(), repeated: None },
            Locale::Zh,
        )
    };
    assert_eq!(zh(3, "", "tail"), "a.md 中的 3 处变更：添加 `tail`，另有 2 处");
    assert_eq!(zh(1, "x", "y"), "a.md 中的 1 处变更：`x` → `y`");
    assert_eq!(s(1, "timeout: 30", "timeout: 60", Some(3)), "1 change in a.md, b.md: `timeout: 30` → `timeout: 60` ×3");
    assert_eq!(s(3, "", "tail\nline", None), "3 changes in a.md, b.md: add `tail⏎line` and 2 more");
    assert_eq!(s(2, "  gone ", "", None), "2 changes in a.md, b.md: remove `gone` and 1 more");
    assert_eq!(s(1, "x", "y", None), "1 change in a.md, b.md: `x` → `y`");
    assert_eq!(external_version("v3", Locale::En), "changed in storage (version v3)");
    assert_eq!(external_version("v3", Locale::Zh), "在存储中被修改（版本 v3）");
}

#[test]
fn the_finishing_sentences_name_their_values() {
    assert_eq!(
        next_step(&["nb_read()".into(), "nb_replace(old_text, new_text)".into()], Locale::En),
        "Next: nb_read() or nb_replace(old_text, new_text)."
    );
    assert_eq!(
        diagnostics_pointer(&["MatchTrace", "Schema"], "op-4", Locale::En),
        "Diagnostics are on (MatchTrace, Schema): the records of this call are op-4."
    );
    assert_eq!(schema_defect("op-4", Locale::En), "Response format does not match the spec (see the TextEdit.Schema record of op-4).");
    assert_eq!(
        next_step(&["nb_read()".into(), "nb_replace(old_text, new_text)".into()], Locale::Zh),
        "下一步：nb_read() 或 nb_replace(old_text, new_text)。"
    );
    assert_eq!(
        diagnostics_pointer(&["MatchTrace", "Schema"], "op-4", Locale::Zh),
        "诊断已开启（MatchTrace, Schema）：本次调用的记录是 op-4。"
    );
    assert_eq!(schema_defect("op-4", Locale::Zh), "响应格式不符合规范（见 op-4 的 TextEdit.Schema 记录）。");
}

fn every_dropped() -> Vec<DroppedChange> {
    vec![
        DroppedChange { id: letter("B"), old_text: "timeout: 30".into(), new_text: "timeout: 60".into() },
        DroppedChange { id: letter("C"), old_text: "x".into(), new_text: "y".into() },
    ]
}

/// Runs of three or more plain ASCII words separated by single spaces (identifiers such as
/// `nb_search_memory(query)` hold no space and are one token), outside quotes (“…”, "…", `…`:
/// the model's or the document's text): an English sentence.
fn english_sentence(text: &str) -> Option<String> {
    let mut plain = String::new();
    let mut closing: Option<char> = None;
    for c in text.chars() {
        match closing {
            Some(end) if c == end => closing = None,
            Some(_) => {}
            None => match c {
                '“' => closing = Some('”'),
                '"' | '`' => closing = Some(c),
                _ => plain.push(c),
            },
        }
    }
    let mut run: Vec<&str> = Vec::new();
    for token in plain.split(|c: char| c == ' ' || !c.is_ascii()) {
        if !token.is_empty() && token.chars().all(|c| c.is_ascii_alphabetic()) {
            run.push(token);
            if run.len() >= 3 {
                return Some(run.join(" "));
            }
        } else {
            run.clear();
        }
    }
    None
}

#[test]
fn the_memory_outcomes_are_worded_in_each_locale() {
    let outcomes = [
        MemoryOutcome::Recalled { turns: vec![3] },
        MemoryOutcome::Recalled { turns: vec![1, 2] },
        MemoryOutcome::NotRecalled {
            error: crate::memory::MemoryError::UnknownTurns { turns: vec![9], known: Some((1, 4)) },
            known: Some((1, 4)),
        },
        MemoryOutcome::NotRecalled { error: crate::memory::MemoryError::UnknownTurns { turns: vec![1], known: None }, known: None },
        MemoryOutcome::Found { count: 1, query: "parser".into() },
        MemoryOutcome::Found { count: 2, query: "性能".into() },
        MemoryOutcome::NotFound { query: "x".into(), why: NothingFound::StoreEmpty },
        MemoryOutcome::NotFound { query: "!!".into(), why: NothingFound::NoWords },
        MemoryOutcome::NotFound { query: "cache".into(), why: NothingFound::NoTurnMatches { stored: 5 } },
    ];
    let en: Vec<String> = outcomes.iter().map(|o| memory(o, &voice(vec![])).summary.clone()).collect();
    assert_eq!(en[0], "Recalled turn 3 from the memory store.");
    assert_eq!(en[1], "Recalled turns 1, 2 from the memory store.");
    assert_eq!(en[4], "1 turn match \"parser\", best first.");
    assert_eq!(en[8], "No memory matches \"cache\": no stored turn (5 stored) contains any of its words.");
    // The store's refusal of unknown turns reads as the store's own message did.
    assert_eq!(
        en[2],
        format!(
            "Nothing recalled: {}. Nothing was changed.",
            crate::memory::MemoryError::UnknownTurns { turns: vec![9], known: Some((1, 4)) }
        )
    );
    assert_eq!(
        en[3],
        format!("Nothing recalled: {}. Nothing was changed.", crate::memory::MemoryError::UnknownTurns { turns: vec![1], known: None })
    );
    let zh = Voice { locale: crate::locale::Locale::Zh, ..voice(vec![]) };
    for o in &outcomes {
        let r = memory(o, &zh);
        let guidance = r.guidance.clone().unwrap_or_default();
        assert!(r.summary.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{o:?}: {}", r.summary);
        for text in [r.summary.as_str(), guidance.as_str()] {
            assert_eq!(english_sentence(text), None, "{o:?}: {text}");
        }
        assert!(
            guidance.contains("nb_") || matches!(o, MemoryOutcome::NotRecalled { known: None, .. } | MemoryOutcome::NotFound { .. }),
            "{guidance}"
        );
    }
}

#[test]
fn the_persist_and_undo_outcomes_read_chinese_under_zh() {
    let zh = Voice { locale: crate::locale::Locale::Zh, ..voice(Tool::ALL.to_vec()) };
    // The lead is the staging's own sentence (the edit family's words); the test data holds an
    // English one, so it is left out here.
    let lead = "Staged change A in a.md at line 2 (+1 chars).";
    for (o, _) in every_persist_outcome() {
        // `memo_persist_as` path refusals are argument errors, worded with the tool schema's.
        if matches!(o, PersistOutcome::NewPathEmpty { .. } | PersistOutcome::NewPathOpen { .. } | PersistOutcome::NewPathUnsafe { .. }) {
            continue;
        }
        let r = persist(&o, &zh);
        for text in [r.summary.replace(lead, ""), r.guidance.clone().unwrap_or_default()] {
            assert_eq!(english_sentence(&text), None, "{o:?}: {text}");
        }
    }
    for o in [
        UndoOutcome::NothingToUndo { path: "a.md".into(), current: 0, path_arg: true },
        UndoOutcome::ChangedSince { path: "a.md".into(), commit: 2, summary: "tidy".into(), now: 3, path_arg: false },
        UndoOutcome::AlreadyThere { path: "a.md".into(), version: "v1".into() },
    ] {
        let r = undo(&o, &zh);
        for text in [r.summary.clone(), r.guidance.clone().unwrap_or_default()] {
            assert_eq!(english_sentence(&text), None, "{o:?}: {text}");
            assert!(text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{o:?}: {text}");
        }
    }
}

/// A Chinese text: it holds Chinese and no English sentence outside quotes and identifiers.
fn reads_chinese(what: &str, text: &str) {
    assert!(text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{what}: {text}");
    assert_eq!(english_sentence(text), None, "{what}: {text}");
    assert!(crate::locale::placeholders(text).is_empty(), "{what}: an unfilled placeholder: {text}");
}

#[test]
fn version_reads_creation_and_argument_errors_read_chinese_under_zh() {
    let zh = Voice { locale: Locale::Zh, ..voice(Tool::ALL.to_vec()) };
    let read = |of, stopped| VersionRead {
        path: "a.md".into(),
        version: "v2".into(),
        of,
        first: 1,
        last_shown: 3,
        lines: 9,
        stopped,
        path_arg: true,
    };
    let versions = [
        VersionOutcome::Read(read(VersionOf::Failed { summary: "bump".into() }, true)),
        VersionOutcome::Read(read(VersionOf::Opened, false)),
        VersionOutcome::Read(read(VersionOf::Created, false)),
        VersionOutcome::Read(read(VersionOf::Now, false)),
        VersionOutcome::Read(read(VersionOf::After { summary: "bump".into() }, false)),
        VersionOutcome::WithCurrentTextArg { arg: "view", version: "v2".into() },
        VersionOutcome::NotAVersion { given: "two".into(), current: 3 },
        VersionOutcome::NoSuchVersion { path: "a.md".into(), version: "v9".into(), current: 3, path_arg: true },
        VersionOutcome::AgedOut { path: "a.md".into(), version: "v1".into(), ring: 32, bytes: 64 << 20, oldest: 4, path_arg: false },
        VersionOutcome::LinesNotInVersion { path: "a.md".into(), version: "v1".into(), start: 5, end: 9, lines: 3 },
    ];
    for o in &versions {
        let (en, r) = (version(o, &voice(Tool::ALL.to_vec())), version(o, &zh));
        assert_eq!(r.status, en.status, "{o:?}");
        reads_chinese(&format!("{o:?}"), &r.summary);
        reads_chinese(&format!("{o:?}"), r.guidance.as_deref().unwrap_or_default());
        assert_eq!(tools_named(r.guidance.as_deref().unwrap_or_default()), tools_named(en.guidance.as_deref().unwrap_or_default()));
    }
    let refusals = [
        CreateRefusal::PathEmpty,
        CreateRefusal::Exists { path: "a.md".into() },
        CreateRefusal::Unsafe { path: "../x.md".into(), why: UnsafePath::ParentSegment },
        CreateRefusal::Unsafe { path: "/x.md".into(), why: UnsafePath::Absolute },
        CreateRefusal::Unsafe { path: "x\t.md".into(), why: UnsafePath::ControlChar },
        CreateRefusal::TextEmpty,
        CreateRefusal::TooLarge { path: "big.md".into(), bytes: 200 << 20, limit: 128 << 20 },
    ];
    for o in &refusals {
        let r = create_refused(o, &zh);
        assert_eq!(r.status, Status::InvalidArguments, "{o:?}");
        reads_chinese(&format!("{o:?}"), &r.summary);
        reads_chinese(&format!("{o:?}"), r.guidance.as_deref().unwrap_or_default());
    }
    for (o, _) in every_persist_outcome() {
        if matches!(o, PersistOutcome::NewPathEmpty { .. } | PersistOutcome::NewPathOpen { .. } | PersistOutcome::NewPathUnsafe { .. }) {
            let r = persist(&o, &zh);
            reads_chinese(&format!("{o:?}"), &r.summary);
            reads_chinese(&format!("{o:?}"), r.guidance.as_deref().unwrap_or_default());
        }
    }
    assert_eq!(
        created("b.md", "已在第 1 行暂存变更 A，+3 个字符。", Locale::Zh),
        "新文档 b.md（尚未写入存储）：已在第 1 行暂存变更 A，+3 个字符。"
    );
    assert_eq!(immediate_commit_summary("a.md", 4, Locale::Zh), "编辑 a.md 第 4 行");
    assert_eq!(immediate_commit_summary("a.md", 4, Locale::En), "Edit at a.md line 4");
    for undo in [
        Undone { path: "a.md".into(), version: "v1".into(), undone: Some((2, "bump".into())) },
        Undone { path: "a.md".into(), version: "v0".into(), undone: None },
    ] {
        reads_chinese("undone", &undone(&undo, Locale::Zh));
        reads_chinese("undo_summary", &undo_summary(&undo, Locale::Zh));
    }
}

#[test]
fn every_argument_error_reads_chinese_under_zh_and_as_before_in_english() {
    use crate::tools::ArgError;
    let errors = [
        ArgError::UnknownTool { name: "nb_edit".into(), known: vec!["nb_read".into(), "nb_replace".into()] },
        ArgError::NotAnObject { got: "string \"x\"".into() },
        ArgError::UnknownArgument { tool: "nb_diff".into(), arg: "x".into(), allowed: vec![] },
        ArgError::UnknownArgument { tool: "nb_read".into(), arg: "x".into(), allowed: vec!["path", "start_line"] },
        ArgError::Missing { tool: "nb_replace".into(), arg: "new_text" },
        ArgError::WrongType { arg: "old_text", expected: "kind.string", got: "number 3".into() },
        ArgError::WrongType { arg: "line_numbers", expected: "kind.boolean", got: "number 3".into() },
        ArgError::WrongType { arg: "start_line", expected: "kind.whole_number", got: "string \"a\"".into() },
        ArgError::WrongType { arg: "start_key", expected: "kind.line_key_string", got: "number 3".into() },
        ArgError::WrongItem { arg: "turn_numbers", expected: "kind.integer_list", got: "string \"a\"".into() },
        ArgError::BelowMinimum { arg: "start_line", value: 0, min: 1 },
        ArgError::AboveMaximum { arg: "start_line", value: "number 9e99".into(), max: 7 },
        ArgError::NotAllowed { arg: "selection_id", value: "string \"b\"".into(), allowed: vec!["kind.upper_letter".into()] },
        ArgError::NotAllowed {
            arg: "match_id",
            value: "string \"?\"".into(),
            allowed: vec!["kind.letter".into(), "kind.number_1_26".into()],
        },
        ArgError::NotAllowed { arg: "start_key", value: "string \"x\"".into(), allowed: vec!["kind.line_key".into()] },
        ArgError::NotAllowed { arg: "format", value: "string \"x\"".into(), allowed: vec!["\"compact\"".into(), "\"full\"".into()] },
        ArgError::ListSize { arg: "turn_numbers", value: "array []".into(), max: 20 },
        ArgError::UnpairedSurrogate { arg: "old_text".into(), offset: 3 },
        ArgError::NotJson { arg: "old_text".into(), got: "a function".into() },
    ];
    let (en, zh) = (Locale::En.words(), Locale::Zh.words());
    for e in &errors {
        assert!(!e.words(en).contains("kind.") && !e.guidance(en, "nb").contains("kind."), "{e:?}");
        assert_eq!(e.to_string(), e.words(en), "{e:?}");
        reads_chinese(&format!("{e:?}"), &e.words(zh).replace("a function", ""));
        reads_chinese(&format!("{e:?}"), &e.guidance(zh, "nb"));
    }
    // The English messages as they read before the phrase tables.
    assert_eq!(errors[4].to_string(), "missing required argument `new_text` for nb_replace");
    assert_eq!(errors[9].to_string(), "argument `turn_numbers` must be an array of whole numbers like [2, 5], got an item string \"a\"");
    assert_eq!(errors[13].to_string(), "argument `match_id` must be one of a letter \"A\"–\"Z\", a number 1–26, got string \"?\"");
    assert_eq!(errors[16].to_string(), "argument `turn_numbers` must be one of an array of 1 to 20 whole numbers, got array []");
    assert_eq!(errors[13].words(zh), "参数 `match_id` 必须是 字母 \"A\"–\"Z\"、数字 1–26 之一，收到的是 string \"?\"");
}

#[test]
fn the_session_outcomes_read_chinese_under_zh() {
    let zh = Voice { locale: Locale::Zh, ..voice(Tool::ALL.to_vec()) };
    let mut outcomes: Vec<SessionOutcome> = every_session_outcome().into_iter().map(|(o, _)| o).collect();
    outcomes.extend([
        SessionOutcome::TaskRefused { error: TaskError::NotInnermost { given: "7".into(), innermost: None } },
        SessionOutcome::TaskRefused { error: TaskError::NotInnermost { given: "7".into(), innermost: Some(2) } },
        SessionOutcome::NotOpen { error: WorkspaceError::EmptyPath },
    ]);
    for o in &outcomes {
        // A stray completion names the host's protocol (`write`, `completePersist`): host words.
        if matches!(o, SessionOutcome::WrongCompletion { .. }) {
            continue;
        }
        let r = session(o, &zh);
        reads_chinese(&format!("{o:?}"), &r.summary);
        if let Some(g) = r.guidance.as_deref() {
            reads_chinese(&format!("{o:?}"), g);
        }
    }
}
