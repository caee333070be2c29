//! `memo_create(path, text)`: a new document staged as a lettered pending change and written
//! at commit with an empty expected version (docs/tools.md §memo_create).

use crate::common;

use agentpad::{Config, PersistMode, Status, WorkflowState};
use common::Host;
use serde_json::json;

#[test]
fn a_created_document_is_a_pending_change_until_commit_writes_it() {
    let mut h = Host::new(&[("a.md", "# A\n")]);
    let r = h.call("memo_create", json!({"path": "notes/todo.md", "text": "# Todo\n\n- one\n"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.workflow_state, WorkflowState::PersistPending);
    assert!(r.summary.starts_with("New document notes/todo.md (not in storage yet): Staged change A"), "{}", r.summary);
    assert_eq!(r.pending_changes.len(), 1);
    assert_eq!(r.pending_changes[0].path, "notes/todo.md");
    assert!(r.preview.as_deref().unwrap_or_default().contains("+# Todo"), "{}", r.markdown);
    assert!(!h.files.contains_key("notes/todo.md"), "nothing is written before commit");
    // It reads and edits like any open document.
    let r = h.call("memo_read", json!({"path": "notes/todo.md"}));
    assert!(r.content.as_deref().unwrap_or_default().contains("- one"), "{}", r.markdown);
    let r = h.call("memo_append", json!({"path": "notes/todo.md", "text": "- two\n"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.pending_changes.len(), 1, "the append touches the created text: one change");
    let r = h.call("memo_commit", json!({"summary": "add the todo list"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("notes/todo.md"), "# Todo\n\n- one\n- two\n");
    assert_eq!(h.ws.version("notes/todo.md"), Some("v1"));
    assert_eq!(h.ws.paths(), ["a.md", "notes/todo.md"]);
    // Now it exists: creating it again is refused.
    let r = h.call("memo_create", json!({"path": "notes/todo.md", "text": "x"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    assert!(r.summary.contains("already exists"), "{}", r.summary);
}

#[test]
fn a_reverted_creation_is_forgotten() {
    let mut h = Host::new(&[("a.md", "# A\n")]);
    h.call("memo_create", json!({"path": "b.md", "text": "b\n"}));
    h.call("memo_replace", json!({"old_text": "# A", "new_text": "# AA"}));
    let r = h.call("memo_revert", json!({"reason": "not needed"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.paths(), ["a.md"]);
    assert!(h.ws.document("b.md").is_none());
    // A path that is not open says how to make it.
    let r = h.call("memo_append", json!({"path": "b.md", "text": "x"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    assert!(r.guidance.as_deref().unwrap_or_default().contains("memo_create(path, text)"), "{}", r.markdown);
    let r = h.call("memo_commit", json!({"summary": "nothing"}));
    assert_eq!(r.status, Status::NoOp, "{}", r.markdown);
    assert!(h.writes.is_empty(), "{:?}", h.writes);
}

#[test]
fn bad_creations_change_nothing() {
    let mut h = Host::new(&[("a.md", "# A\n")]);
    for (args, says) in [
        (json!({"path": "a.md", "text": "x"}), "already exists"),
        (json!({"path": "../outside.md", "text": "x"}), "`..` segment"),
        (json!({"path": "/etc/passwd", "text": "x"}), "absolute path"),
        (json!({"path": "bad\u{7}.md", "text": "x"}), "control character"),
        (json!({"path": "  ", "text": "x"}), "`path` is empty"),
        (json!({"path": "new.md", "text": ""}), "`text` is empty"),
        (json!({"path": "new.md"}), "missing required argument `text`"),
    ] {
        let r = h.call("memo_create", args.clone());
        assert_eq!(r.status, Status::InvalidArguments, "{args}: {}", r.markdown);
        assert!(r.summary.contains(says), "{args}: {}", r.summary);
        assert_eq!(r.workflow_state, WorkflowState::Idle);
        assert_eq!(h.ws.paths(), ["a.md"]);
    }
    // While a choice is pending it is blocked, saying what to do instead.
    let mut h = Host::new(&[("a.md", "x\nx\n")]);
    h.call("memo_replace", json!({"old_text": "x", "new_text": "y"}));
    let r = h.call("memo_create", json!({"path": "n.md", "text": "n"}));
    assert_eq!(r.status, Status::Blocked, "{}", r.markdown);
    assert_eq!(h.ws.paths(), ["a.md"]);
}

#[test]
fn a_path_storage_already_holds_fails_at_commit_and_the_draft_is_kept() {
    let mut h = Host::new(&[("a.md", "# A\n")]);
    // Storage holds b.md, but the workspace did not open it.
    h.files.insert("b.md".into(), ("theirs\n".into(), 1));
    h.call("memo_create", json!({"path": "b.md", "text": "mine\n"}));
    let r = h.call("memo_commit", json!({"summary": "create b"}));
    assert_eq!(r.status, Status::PersistFailure, "{}", r.markdown);
    assert_eq!(r.workflow_state, WorkflowState::OutOfSync);
    assert_eq!(h.stored("b.md"), "theirs\n", "storage's file is not overwritten");
    assert_eq!(h.ws.draft(Some("b.md")).unwrap(), "mine\n");
    // Saving the draft elsewhere recovers it.
    let r = h.call("memo_persist_as", json!({"path": "b.md", "new_path": "b.mine.md"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("b.mine.md"), "mine\n");
}

#[test]
fn immediate_mode_writes_at_once_and_disabled_mode_keeps_it_in_memory() {
    let mut h = Host::with_config(&[("a.md", "# A\n")], Config { persist_mode: PersistMode::Immediate, ..Config::default() });
    let r = h.call("memo_create", json!({"path": "c.md", "text": "c\r\nd\r\n"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.workflow_state, WorkflowState::Idle);
    assert_eq!(h.stored("c.md"), "c\nd\n", "a new document is written with LF line breaks");

    let mut h = Host::with_config(&[("a.md", "# A\n")], Config { persist_mode: PersistMode::Disabled, ..Config::default() });
    h.call("memo_create", json!({"path": "c.md", "text": "c\n"}));
    let r = h.call("memo_commit", json!({"summary": "in memory"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(h.writes.is_empty());
    assert_eq!(h.ws.text(Some("c.md")).unwrap(), "c\n", "committed in memory, still open");
}

#[test]
fn creating_in_an_empty_workspace_makes_the_default_document() {
    let mut h = Host::new(&[]);
    let r = h.call("memo_read", json!({}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    assert!(r.guidance.as_deref().unwrap_or_default().contains("memo_create"), "{}", r.markdown);
    let r = h.call("memo_create", json!({"path": "first.md", "text": "hello\n"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = h.call("memo_commit", json!({"summary": "first"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "hello\n");
}
