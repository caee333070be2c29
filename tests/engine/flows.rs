//! Scenario tests through the public API: the first two example flows
//! (docs/workflow.md#transcripts), the response contract (docs/responses.md), and the host side of persistence — with a small in-memory host that
//! performs persist requests the way the TypeScript shell does.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::{Config, PersistMode, Status, WorkflowState};
use common::{timeouts, Host};
use serde_json::{json, Value};

const CONFIG_JSON: &str = "{\n  \"features\": {\n    \"stable\": [\"A\", \"B\", \"C\"],\n    \"experimental\": []\n  }\n}\n";

#[test]
fn example_flow_1_enable_experimental_feature() {
    let mut h = Host::new(&[("config.json", CONFIG_JSON)]);
    let read = h.call("memo_read", json!({}));
    assert_eq!(read.status, Status::Success);
    assert!(read.content.as_deref().unwrap().contains("\n4│     \"experimental\": []\n"));

    let r = h.call("memo_replace", json!({"old_text": "\"experimental\": []", "new_text": "\"experimental\": [\"X\"]"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.workflow_state, WorkflowState::PersistPending);
    assert_eq!(r.flags.names(), vec!["PersistPending"]);
    // `"X"` is 3 chars: the delta counts what the text says.
    assert_eq!(r.metrics.delta, 3);
    assert_eq!(r.pending_changes.len(), 1);
    assert_eq!(r.pending_changes[0].change_id, "A");
    assert_eq!(r.pending_changes[0].line, 4);
    let preview = r.preview.as_deref().unwrap();
    assert!(preview.contains("\n4│-    \"experimental\": []\n4│+    \"experimental\": [\"X\"]\n"), "{preview}");
    assert!(r.markdown.contains("### [Diff] Preview"));
    // nothing is saved before commit
    assert_eq!(h.stored("config.json"), CONFIG_JSON);

    let c = h.call("memo_commit", json!({"summary": "Enable experimental feature X"}));
    assert_eq!(c.status, Status::Success, "{}", c.markdown);
    assert_eq!(c.workflow_state, WorkflowState::Idle);
    assert!(c.summary.contains("1 change (+3 chars)"), "{}", c.summary);
    assert_eq!(c.metrics.new_length, Some(CONFIG_JSON.chars().count() + 3));
    assert_eq!(h.stored("config.json"), CONFIG_JSON.replace("[]", "[\"X\"]"));
    assert_eq!(h.ws.text(None).unwrap(), h.stored("config.json"));
    assert!(c.pending_changes.is_empty());
}

#[test]
fn example_flow_2_three_timeouts_by_letter() {
    let text = timeouts();
    let mut h = Host::new(&[("timeouts.yaml", &text)]);
    let r = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert_eq!(r.status, Status::MultiMatch);
    assert_eq!(r.workflow_state, WorkflowState::SelectionPending);
    assert_eq!(r.metrics.selection_count, Some(3));
    let lines: Vec<usize> = r.candidates.iter().map(|c| c.line).collect();
    assert_eq!(lines, vec![12, 45, 78]);
    assert_eq!(r.candidates.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), vec!["A", "B", "C"]);
    assert_eq!(r.candidates[1].preview, "api.timeout: 30");
    assert!(r.markdown.contains("### [Target] Candidates"));
    // commit is blocked while a choice is pending
    let blocked = h.call("memo_commit", json!({"summary": "x"}));
    assert_eq!(blocked.status, Status::Blocked);
    assert!(blocked.guidance.as_deref().unwrap().contains("memo_replace_selection(selection_id)"));

    for (letter, expect_pending) in [("A", 1), ("B", 2), ("C", 3)] {
        let r = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": letter}));
        assert_eq!(r.status, Status::Success, "{letter}: {}", r.markdown);
        assert_eq!(r.workflow_state, WorkflowState::PersistPending);
        assert_eq!(r.pending_changes.len(), expect_pending);
        assert_eq!(r.pending_changes.last().unwrap().change_id, letter);
    }
    let lines: Vec<usize> = h.call("memo_preview", json!({})).pending_changes.iter().map(|c| c.line).collect();
    assert_eq!(lines, vec![12, 45, 78]);
    // the same call again is already staged: nothing new (docs/workflow.md#visible-tools)
    let again = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": "A"}));
    assert!(again.summary.contains("already staged as change A"), "{}", again.markdown);
    assert_eq!(again.pending_changes.len(), 3);
    // a letter already staged is stale for another edit
    let other = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 90", "match_id": "A"}));
    assert_eq!(other.status, Status::StaleReference, "{}", other.markdown);

    let c = h.call("memo_commit", json!({"summary": "Set every timeout to 60 seconds"}));
    assert_eq!(c.status, Status::Success, "{}", c.markdown);
    assert!(c.summary.contains("3 changes (±0 chars)"), "{}", c.summary);
    assert_eq!(h.stored("timeouts.yaml"), text.replace("timeout: 30", "timeout: 60"));
}

#[test]
fn match_id_without_a_prior_listing_picks_in_document_order() {
    let mut h = Host::new(&[("t", &timeouts())]);
    let r = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": "B"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(r.pending_changes[0].line, 45);
    let bad = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": "F"}));
    assert_eq!(bad.status, Status::InvalidArguments);
    assert!(bad.summary.contains("`match_id` is F"), "{}", bad.summary);
}

#[test]
fn show_all_matches_lists_past_e() {
    let text = "x = 1\n".repeat(8);
    let mut h = Host::new(&[("a", &text)]);
    let r = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert_eq!(r.candidates.len(), 5);
    assert!(r.summary.contains("3 more not shown"), "{}", r.summary);
    let all = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2", "show_all_matches": true}));
    assert_eq!(all.candidates.last().unwrap().id, "H");
    assert_eq!(all.metrics.selection_count, Some(8));
}

#[test]
fn listing_again_shows_five_live_candidates_beside_the_stale_ones() {
    // Seven lines `x = 1`: A–E listed; A staged; the same call lists again: A is stale (it holds
    // `x = 2` now) and must not take one of the five places — B–F are shown, G is the one hidden.
    let text = "x = 1\n".repeat(7);
    let mut h = Host::new(&[("a", &text)]);
    let first = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert_eq!(first.candidates.len(), 5);
    assert!(first.summary.contains("2 more not shown"), "{}", first.summary);
    let staged = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(staged.status, Status::Success, "{}", staged.markdown);
    let again = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert_eq!(again.status, Status::MultiMatch, "{}", again.markdown);
    let ids = |r: &agentpad::Response, stale: bool| -> Vec<String> {
        r.candidates.iter().filter(|c| c.stale == stale).map(|c| c.id.clone()).collect()
    };
    assert_eq!(ids(&again, false), vec!["B", "C", "D", "E", "F"], "{}", again.markdown);
    assert_eq!(ids(&again, true), vec!["A"]);
    assert_eq!(again.metrics.selection_count, Some(6));
    assert!(again.summary.contains("1 more not shown"), "{}", again.summary);
    let guidance = again.guidance.as_deref().unwrap_or_default();
    assert!(guidance.contains("selection_id=\"B\"–\"F\""), "only live letters are offered: {guidance}");
    // F is live and stages the sixth line.
    let f = h.call("memo_replace_selection", json!({"selection_id": "F"}));
    assert_eq!(f.status, Status::Success, "{}", f.markdown);
    assert_eq!(f.pending_changes.iter().map(|c| c.line).collect::<Vec<_>>(), vec![1, 6]);
}
#[test]
fn candidate_offsets_are_utf16_after_emoji_and_cjk() {
    let text = "😀 中文 a=1\n🎉 a=1\n";
    let mut h = Host::new(&[("a", text)]);
    let r = h.call("memo_replace", json!({"old_text": "a=1", "new_text": "a=2"}));
    let utf16: Vec<u16> = text.encode_utf16().collect();
    for c in &r.candidates {
        let slice = String::from_utf16(&utf16[c.context_start..c.context_end]).unwrap();
        assert_eq!(slice, "a=1");
    }
    assert_eq!(r.candidates[0].context_start, 6);
}

#[test]
fn empty_old_text_appends_and_preview_only_changes_nothing() {
    let mut h = Host::new(&[("notes.md", "# Notes\n")]);
    let p = h.call("memo_replace", json!({"old_text": "", "new_text": "- one\n", "preview_only": true}));
    assert_eq!(p.status, Status::Success);
    assert!(p.summary.starts_with("Preview only"));
    assert!(p.preview.as_deref().unwrap().contains("\n2│+- one\n"));
    assert_eq!(p.workflow_state, WorkflowState::Idle);
    assert_eq!(h.ws.draft(None).unwrap(), "# Notes\n");
    let a = h.call("memo_replace", json!({"old_text": "", "new_text": "- one\n"}));
    assert_eq!(a.status, Status::Success);
    assert_eq!(h.ws.draft(None).unwrap(), "# Notes\n- one\n");
    let b = h.call("memo_replace", json!({"old_text": "", "new_text": "- two\n"}));
    // the second append touches the first: one amended change
    assert_eq!(b.pending_changes.len(), 1);
    assert!(b.pending_changes[0].amended);
    assert_eq!(h.ws.draft(None).unwrap(), "# Notes\n- one\n- two\n");
}

#[test]
fn revert_drops_everything_and_storage_is_untouched() {
    let mut h = Host::new(&[("a", "alpha beta\n")]);
    h.call("memo_replace", json!({"old_text": "beta", "new_text": "gamma"}));
    let r = h.call("memo_revert", json!({"reason": "wrong word"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(r.workflow_state, WorkflowState::Idle);
    assert!(r.summary.contains("dropped 1 pending change (wrong word)"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), "alpha beta\n");
    assert_eq!(h.call("memo_revert", json!({"reason": "again"})).status, Status::NoOp);
    assert_eq!(h.call("memo_commit", json!({"summary": "nothing"})).status, Status::NoOp);
}

#[test]
fn crlf_and_bom_survive_an_edit() {
    let raw = "\u{FEFF}line one\r\nline two\r\n";
    let mut h = Host::new(&[("win.txt", raw)]);
    // a needle typed with CRLF still matches
    let r = h.call("memo_replace", json!({"old_text": "one\r\nline", "new_text": "1\r\nline"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    h.call("memo_commit", json!({"summary": "number"}));
    assert_eq!(h.stored("win.txt"), "\u{FEFF}line 1\r\nline two\r\n");
    assert_eq!(h.ws.text(None).unwrap(), "line 1\nline two\n");
}

#[test]
fn persist_failure_keeps_the_draft_and_a_retry_saves_it() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    h.fail_next_save = true;
    let f = h.call("memo_commit", json!({"summary": "bump"}));
    assert_eq!(f.status, Status::PersistFailure);
    assert_eq!(f.workflow_state, WorkflowState::OutOfSync);
    assert!(f.summary.contains("disk full"));
    assert_eq!(h.stored("a"), "x = 1\n");
    assert_eq!(h.ws.draft(None).unwrap(), "x = 2\n");
    let ok = h.call("memo_commit", json!({"summary": "bump"}));
    assert_eq!(ok.status, Status::Success, "{}", ok.markdown);
    assert_eq!(h.stored("a"), "x = 2\n");
}

#[test]
fn argument_errors_change_nothing() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    let before = h.ws.draft(None).unwrap();
    for (name, args, needle) in [
        ("memo_replace", json!({"old_text": "x"}), "missing required argument `new_text`"),
        ("memo_replace", json!({"old_text": 1, "new_text": "y"}), "`old_text` must be a string"),
        ("memo_replace", json!({"old_text": "x", "new_text": "y", "extra": true}), "unknown argument `extra`"),
        ("memo_read", json!({"start_line": 9}), "`start_line` is 9 but a has 1 line"),
        ("memo_read", json!({"path": "nope.md"}), "document `nope.md` is not open"),
        ("memo_frobnicate", json!({}), "unknown tool `memo_frobnicate`"),
        ("memo_commit", json!("summary"), "arguments must be a JSON object"),
    ] {
        let r = h.call(name, args);
        assert_eq!(r.status, Status::InvalidArguments, "{name}");
        assert!(r.summary.contains(needle), "{name}: {}", r.summary);
        assert!(r.guidance.is_some());
        assert_eq!(h.ws.draft(None).unwrap(), before);
        assert_eq!(r.workflow_state, WorkflowState::PersistPending);
    }
}

#[test]
fn stale_fingerprint_is_refused() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    let read = h.call("memo_read", json!({}));
    let fp = read.fingerprint.clone().unwrap();
    h.call("memo_replace", json!({"old_text": "x", "new_text": "y", "expected_fingerprint": fp}));
    let stale = h.call("memo_replace", json!({"old_text": "1", "new_text": "2", "expected_fingerprint": fp}));
    assert_eq!(stale.status, Status::StaleReference);
    assert_eq!(h.ws.draft(None).unwrap(), "y = 1\n");
}

#[test]
fn no_match_says_what_to_do() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    let r = h.call("memo_replace", json!({"old_text": "nothing like it", "new_text": "z"}));
    assert_eq!(r.status, Status::NoMatch);
    assert!(r.guidance.as_deref().unwrap().contains("memo_read"));
    assert!(r.markdown.starts_with("status: `NoMatch`\nstate: `Idle`\nflags: -\n\n### [Fail] Overview\n- summary: "), "{}", r.markdown);
    let anchor = h.call("memo_replace", json!({"old_text": "x", "new_text": "z", "search_after": "[missing]"}));
    assert_eq!(anchor.status, Status::NoMatch);
    assert!(anchor.summary.contains("search_after text `[missing]`"), "{}", anchor.summary);
}

#[test]
fn immediate_and_disabled_modes() {
    let config = Config { persist_mode: PersistMode::Immediate, ..Config::default() };
    let mut h = Host::with_config(&[("a", "x = 1\n")], config);
    let r = h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(r.workflow_state, WorkflowState::Idle);
    assert_eq!(h.stored("a"), "x = 2\n");
    // commit is offered (it has nothing to save), commit_auto is not
    assert!(!r.visible_tools.contains(&"memo_commit_auto".to_string()));

    let config = Config { persist_mode: PersistMode::Disabled, ..Config::default() };
    let mut h = Host::with_config(&[("a", "x = 1\n")], config);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    let c = h.call("memo_commit", json!({"summary": "in memory"}));
    assert_eq!(c.status, Status::Success);
    assert!(c.flags.names().contains(&"PersistReadOnly"));
    assert_eq!(h.stored("a"), "x = 1\n");
    assert_eq!(h.ws.text(None).unwrap(), "x = 2\n");
}

#[test]
fn tool_prefix_renames_every_tool() {
    let config = Config { tool_prefix: "memory_notebook".into(), ..Config::default() };
    let mut h = Host::with_config(&[("a", "x\n")], config);
    let names: Vec<String> = h.ws.tool_definitions().into_iter().map(|d| d.name).collect();
    assert!(names.contains(&"memory_notebook_replace".to_string()));
    let r = h.call("memory_notebook_replace", json!({"old_text": "x", "new_text": "y"}));
    assert_eq!(r.status, Status::Success);
    assert!(r.guidance.unwrap().contains("memory_notebook_commit(summary)"));
    assert_eq!(h.call("memo_replace", json!({})).status, Status::InvalidArguments);
}

#[test]
fn json_has_the_contract_fields_in_order() {
    let mut h = Host::new(&[("a", "x\n")]);
    let r = h.call("memo_read", json!({}));
    let v: Value = serde_json::from_str(&r.to_json()).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    // serde_json's Map is sorted unless preserve_order: compare as sets, then check the raw order
    for field in [
        "status",
        "workflow_state",
        "flags",
        "summary",
        "guidance",
        "metrics",
        "candidates",
        "pending_changes",
        "match_quality",
        "preview",
        "content",
        "fingerprint",
        "path",
        "session_id",
        "task_stack",
        "next_actions",
        "visible_tools",
        "markdown",
        "markdown_basic",
    ] {
        assert!(keys.contains(&field), "missing {field}");
    }
    let raw = r.to_json();
    assert!(raw.starts_with("{\"status\":\"Success\",\"workflow_state\":\"Idle\",\"flags\":{\"mask\":0,\"names\":[]},\"summary\":"));
}

#[test]
fn fingerprints_follow_the_draft_without_rehashing_it() {
    let mut h = Host::new(&[("a", "x = 1\ny = 2\n")]);
    let read = h.call("memo_read", json!({})).fingerprint.unwrap();
    let staged = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 3", "expected_fingerprint": read}));
    assert_eq!(staged.status, Status::Success);
    let after = staged.fingerprint.clone().unwrap();
    assert_ne!(after, read);
    assert_eq!(h.call("memo_read", json!({})).fingerprint.unwrap(), after, "a read sees the staged draft's fingerprint");
    assert_eq!(h.call("memo_read", json!({"view": "committed"})).fingerprint.unwrap(), read);
    // The fingerprint from the staging response is accepted by the next edit; the old one is not.
    let next = h.call("memo_replace", json!({"old_text": "y = 2", "new_text": "y = 4", "expected_fingerprint": after}));
    assert_eq!(next.status, Status::Success, "{}", next.markdown);
    let stale = h.call("memo_replace", json!({"old_text": "y = 4", "new_text": "y = 5", "expected_fingerprint": after}));
    assert_eq!(stale.status, Status::StaleReference);
    h.call("memo_revert", json!({"reason": "back"}));
    assert_eq!(h.call("memo_read", json!({})).fingerprint.unwrap(), read, "after revert the draft is the committed text again");
    h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 9"}));
    let committed = h.call("memo_commit", json!({"summary": "x"})).fingerprint.unwrap();
    assert_eq!(h.call("memo_read", json!({})).fingerprint.unwrap(), committed);
    assert_ne!(committed, read);
}

#[test]
fn only_line_feeds_number_lines() {
    // U+2028, NEL, VT and FF are characters inside a line, as in editors and `str::lines`.
    let mut h = Host::new(&[("a", "one\u{2028}still one\u{85}\u{0B}\u{0C}\ntwo\n")]);
    let r = h.call("memo_read", json!({}));
    assert_eq!(r.content.as_deref(), Some("1│ one\u{2028}still one\u{85}\u{0B}\u{0C}\n2│ two\n"));
    let k = h.call("memo_read", json!({"line_keys": true})).content.unwrap();
    assert_eq!(k.lines().count(), 2, "{k}");
}
