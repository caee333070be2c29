//! `memo_undo` (docs/workflow.md#undo): the last commit undone, or a version brought back, as
//! a new commit through the same checks as any commit — and refused, changing nothing, where
//! undoing would drop what someone else wrote.

use crate::common;

use agentpad::{Config, PersistMode, Status};
use common::Host;
use serde_json::json;

fn commit(h: &mut Host, old: &str, new: &str, summary: &str) {
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = h.call("memo_commit", json!({"summary": summary}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
}

#[test]
fn undo_restores_the_text_before_the_last_commit_as_a_new_commit() {
    let mut h = Host::new(&[("a.md", "title\nx = 1\ny = 1\n")]);
    commit(&mut h, "x = 1", "x = 2", "x to 2");
    commit(&mut h, "y = 1", "y = 2", "y to 2");
    let r = h.call("memo_undo", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.md"), "title\nx = 2\ny = 1\n", "only the last commit is undone");
    assert!(r.summary.contains("Undid v2 (\"y to 2\")") && r.summary.contains("reads as v1 again"), "{}", r.summary);
    assert!(r.guidance.as_deref().unwrap_or_default().contains("now v3"), "{}", r.markdown);
    assert!(r.preview.as_deref().is_some_and(|p| p.contains("y = 1")), "{}", r.markdown);
    assert!(r.pending_changes.is_empty(), "the undo is saved, not left pending: {}", r.markdown);
    // The undo is a commit like any other: undoing it brings the change back.
    let r = h.call("memo_undo", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("Undid v3 (\"Undo v2: y to 2\")"), "{}", r.summary);
    assert_eq!(h.stored("a.md"), "title\nx = 2\ny = 2\n");
    // The versions before stay readable.
    let r = h.call("memo_read", json!({"version": "v1"}));
    assert_eq!(r.content.as_deref(), Some("1│ title\n2│ x = 2\n3│ y = 1\n"), "{}", r.markdown);
}

#[test]
fn a_named_version_is_restored_whole_with_the_summary_given() {
    let mut h = Host::new(&[("a.md", "a\nb\n"), ("b.md", "other\n")]);
    commit(&mut h, "a", "A", "upper a");
    commit(&mut h, "b", "B", "upper b");
    let r = h.call("memo_undo", json!({"version": "v0", "summary": "back to the start"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.md"), "a\nb\n");
    assert!(r.summary.contains("Restored a.md to v0"), "{}", r.summary);
    commit(&mut h, "a", "A", "upper a again");
    let r = h.call("memo_read", json!({"version": "v3"}));
    assert!(r.summary.contains("after \"back to the start\""), "the history keeps the summary given: {}", r.summary);
    assert_eq!(r.content.as_deref(), Some("1│ a\n2│ b\n"), "{}", r.markdown);
    // Another document's versions are its own; the one named by path is undone.
    let r = h.call("memo_undo", json!({"path": "b.md"}));
    assert_eq!(r.status, Status::NoOp, "{}", r.markdown);
    assert!(r.summary.contains("no commit of b.md to undo"), "{}", r.summary);
    assert!(r.guidance.as_deref().unwrap_or_default().contains("memo_undo(version=\"v0\", path=\"b.md\")"), "{}", r.markdown);
    assert_eq!(h.stored("b.md"), "other\n");
}

#[test]
fn nothing_to_undo_and_already_there_change_nothing() {
    let mut h = Host::new(&[("a.md", "x = 1\n")]);
    let version = h.version("a.md");
    let r = h.call("memo_undo", json!({}));
    assert_eq!(r.status, Status::NoOp, "{}", r.markdown);
    assert_eq!(r.status.severity(), agentpad::response::Severity::Ok, "{}", r.markdown);
    commit(&mut h, "x = 1", "x = 2", "x to 2");
    let r = h.call("memo_undo", json!({"version": "v1"}));
    assert_eq!(r.status, Status::NoOp, "{}", r.markdown);
    assert!(r.summary.contains("already reads as v1"), "{}", r.summary);
    for bad in ["v9", "nine"] {
        let r = h.call("memo_undo", json!({"version": bad}));
        assert_eq!(r.status, Status::InvalidArguments, "{bad}: {}", r.markdown);
    }
    assert_eq!(h.stored("a.md"), "x = 2\n");
    assert_ne!(h.version("a.md"), version, "only the commit wrote");
}

#[test]
fn with_pending_changes_undo_is_blocked_and_says_what_to_call() {
    let mut h = Host::new(&[("a.md", "x = 1\ny = 1\n")]);
    commit(&mut h, "x = 1", "x = 2", "x to 2");
    h.call("memo_replace", json!({"old_text": "y = 1", "new_text": "y = 2"}));
    let r = h.call("memo_undo", json!({}));
    assert_eq!(r.status, Status::Blocked, "{}", r.markdown);
    let guidance = r.guidance.clone().unwrap_or_default();
    assert!(guidance.contains("memo_commit(summary)") && guidance.contains("memo_revert(reason)"), "{guidance}");
    assert_eq!(h.stored("a.md"), "x = 2\ny = 1\n");
    assert_eq!(h.ws.draft(None).unwrap(), "x = 2\ny = 2\n", "the pending change stays");
}

#[test]
fn an_outside_change_after_the_commit_is_never_undone_silently() {
    let mut h = Host::new(&[("a.md", "x = 1\ny = 1\n")]);
    commit(&mut h, "x = 1", "x = 2", "x to 2");
    assert!(h.external_write("a.md", "x = 2\ny = 9\n"));
    h.call("memo_read", json!({}));
    let r = h.call("memo_undo", json!({}));
    assert_eq!(r.status, Status::StaleReference, "{}", r.markdown);
    assert!(r.summary.contains("changed outside the workspace") && r.summary.contains("v1 (\"x to 2\")"), "{}", r.summary);
    assert_eq!(h.stored("a.md"), "x = 2\ny = 9\n", "nothing written");
    // What the guidance offers works: v0 whole, the outside change dropped as it said.
    assert!(r.guidance.as_deref().unwrap_or_default().contains("memo_undo(version=\"v0\")"), "{}", r.markdown);
    let r = h.call("memo_undo", json!({"version": "v0"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.md"), "x = 1\ny = 1\n");
}

#[test]
fn an_undo_that_meets_another_version_in_storage_is_not_reported_saved() {
    let mut h = Host::new(&[("a.md", "x = 1\n")]);
    commit(&mut h, "x = 1", "x = 2", "x to 2");
    // Storage changes without the workspace hearing of it (within a watcher's debounce): the
    // undo's write expects the version the workspace last saw.
    h.storage.write("a.md", "x = 7\n");
    let r = h.call("memo_undo", json!({}));
    assert_ne!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.md"), "x = 7\n", "the other writer's text stays: {}", r.markdown);
    assert!(!r.summary.contains("Saved"), "{}", r.markdown);
}

#[test]
fn undo_works_in_immediate_mode() {
    let mut h = Host::with_config(&[("a.md", "x = 1\n")], Config { persist_mode: PersistMode::Immediate, ..Config::default() });
    let r = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.md"), "x = 2\n");
    let r = h.call("memo_undo", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.md"), "x = 1\n");
}
