//! Replays every input kept under fuzz/regressions/<target>/ through its fuzz harness
//! (fuzz/harness/, shared with the `cargo fuzz` targets): each crash a fuzz run found, once
//! minimised and fixed, stays here as a regression test, beside a few hand-made seeds per
//! target (empty input, odd bytes, a surrogate-like sequence) so every harness runs on real data.
//!
//! Fuzzing itself is `./build.sh fuzz [target]`; this test only replays.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../../fuzz/harness/mod.rs"]
mod harness;
use crate::internal_tests::common;

use std::path::PathBuf;

use agentpad::{CallContext, Status};
use common::Host;
use serde_json::json;

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn replay(target: &str, run: harness::Harness) {
    let files = inputs(target);
    assert!(!files.is_empty(), "fuzz/regressions/{target}/ holds no inputs: keep at least the hand-made seeds");
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).expect("a readable input");
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            failed.push(file.display().to_string());
        }
    }
    assert!(failed.is_empty(), "{target}: {} of {} inputs fail: {failed:#?}", failed.len(), files.len());
}

#[test]
fn every_target_has_a_regressions_directory() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    for entry in std::fs::read_dir(&dir).expect("fuzz/regressions/") {
        let name = entry.expect("a directory entry").file_name().to_string_lossy().into_owned();
        assert!(harness::TARGETS.iter().any(|(t, _)| *t == name), "fuzz/regressions/{name}/ is not a fuzz target");
    }
    assert_eq!(harness::TARGETS.len(), 5);
}

#[test]
fn tool_calls() {
    replay("tool_calls", harness::tool_calls::run);
}

#[test]
fn matcher() {
    replay("matcher", harness::matcher::run);
}

#[test]
fn span_markers() {
    replay("span_markers", harness::span_markers::run);
}

#[test]
fn line_keys() {
    replay("line_keys", harness::line_keys::run);
}

#[test]
fn markdown_validator() {
    replay("markdown_validator", harness::markdown_validator::run);
}

// ---- the defects fuzzing found, as readable scenarios -----------------------------------------

/// tool_calls (crash-refresh-deleted-*): `memo_refresh` of a document storage deleted without
/// the shell saying so answered `ExternalConflict` in state `Idle` (or `PersistPending`), which
/// the Markdown contract forbids. Without pending changes the deletion is now taken like any
/// external deletion (`NoOp`, the text kept); with pending changes it is a conflict (`OutOfSync`).
#[test]
fn refresh_of_a_document_deleted_behind_the_workspace() {
    let mut host = Host::new(&[("a.md", "one\ntwo\n")]);
    host.files.remove("a.md");
    let r = host.call("memo_refresh", json!({}));
    assert_eq!((r.status, r.workflow_state.as_str()), (Status::NoOp, "Idle"), "{}", r.markdown);
    assert_eq!(host.ws.text(None).unwrap(), "one\ntwo\n", "the text is kept");

    let mut host = Host::new(&[("a.md", "one\ntwo\n")]);
    let r = host.call("memo_replace", json!({ "old_text": "two", "new_text": "2" }));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    host.files.remove("a.md");
    let r = host.call("memo_refresh", json!({}));
    assert_eq!((r.status, r.workflow_state.as_str()), (Status::ExternalConflict, "OutOfSync"), "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), "one\n2\n", "the pending change is kept");
    let r = host.call("memo_discard", json!({ "reason": "gone" }));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), host.ws.text(None).unwrap());
}

/// tool_calls (crash-session-log-empty-tool-name-*): a call named "" (or blank), or a blank
/// tool_call_id, left an empty cell in the session log, which the Markdown contract forbids.
#[test]
fn session_log_rows_keep_their_cells_for_blank_names() {
    let mut host = Host::new(&[("a.md", "x\n")]);
    for name in ["", "  ", "\u{3000}"] {
        let r = host.call(name, json!({}));
        assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    }
    let step = host.ws.call("memo_read", &json!({}), &CallContext { tool_call_id: Some(" ".into()), now_ms: 5.0 });
    host.drive(step);
    let r = host.call("memo_export_session", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.markdown.contains("| 1 | ` ` | InvalidArguments |"), "{}", r.markdown);
}
