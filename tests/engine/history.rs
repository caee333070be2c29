//! History compression through the workspace: which calls belong to a session, the
//! `history_delta` prediction on the call that ends it, and compressing real transcripts.
#![cfg(not(target_arch = "wasm32"))]

use agentpad::history::{check, Format};
use agentpad::{CallContext, Config, MemoryStorage, Status, Workspace};
use serde_json::{json, Value};

/// Runs `calls` with ids `c1`, `c2`, … (`Workspace::run`, with a storage holding the open
/// documents as the workspace opened them) and returns the OpenAI transcript an agent loop keeps.
fn run(ws: &mut Workspace, calls: &[(&str, Value)]) -> (Vec<Value>, Vec<agentpad::Response>) {
    let open: Vec<(String, String)> = ws.paths().iter().map(|p| (p.clone(), ws.text(Some(p)).unwrap())).collect();
    let mut storage = MemoryStorage::new(&open.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect::<Vec<_>>());
    let mut transcript = vec![json!({"role": "user", "content": "go"})];
    let mut responses = Vec::new();
    for (i, (tool, args)) in calls.iter().enumerate() {
        let id = format!("c{}", i + 1);
        let ctx = CallContext { tool_call_id: Some(id.clone()), now_ms: 0.0 };
        let r = ws.run(tool, args, &ctx, &mut storage);
        transcript.push(json!({"role": "assistant", "content": null, "tool_calls": [{"id": id, "type": "function", "function": {"name": tool, "arguments": args.to_string()}}]}));
        transcript.push(json!({"role": "tool", "tool_call_id": id, "content": r.markdown}));
        responses.push(r);
    }
    (transcript, responses)
}

#[test]
fn the_ending_call_predicts_what_compression_removes() {
    let mut ws = Workspace::new(Config::default());
    ws.open("a", "x = 1\ny = 1\n", "v1").unwrap();
    let (transcript, rs) = run(
        &mut ws,
        &[
            ("memo_read", json!({})),                                            // before the session: kept
            ("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"})), // opens session 1
            ("memo_read", json!({})),                                            // inside: removed
            ("memo_commit", json!({"summary": "x to 2"})),                       // ends it: removed
            ("memo_read", json!({})),                                            // after: kept
        ],
    );
    assert_eq!(rs[3].status, Status::Success);
    let delta = rs[3].history_delta.expect("the commit carries history_delta");
    assert_eq!(delta.messages_removed, 6);
    // The model is not told (it cannot act on it); the host reads history_delta.
    assert!(!rs[3].markdown.contains("[History:") && !rs[3].markdown.contains("tokens saved"), "{}", rs[3].markdown);
    assert!(rs.iter().enumerate().all(|(i, r)| (i == 3) == r.history_delta.is_some()));
    let out = ws.compress_history(&Value::Array(transcript.clone()), Format::OpenAi).unwrap();
    assert_eq!(out.delta.messages_removed, 6);
    assert_eq!(out.sessions, vec![1]);
    check(&out.messages, Format::OpenAi).unwrap();
    let names: Vec<&str> =
        out.messages.as_array().unwrap().iter().filter_map(|m| m["tool_calls"][0]["function"]["name"].as_str()).collect();
    assert_eq!(names, vec!["memo_read", "memo_read"]);
    assert_eq!(out.messages[3]["content"], json!("[Edit session #1 committed]\nSummary: x to 2\nChanges: 1 replacement, 0 chars"));
    assert_eq!(out.messages[0], transcript[0], "everything else is kept as it was");
}

#[test]
fn a_revert_ends_its_session_too() {
    let mut ws = Workspace::new(Config::default());
    ws.open("a", "x = 1\n", "v1").unwrap();
    let (transcript, rs) =
        run(&mut ws, &[("memo_replace", json!({"old_text": "1", "new_text": "2"})), ("memo_revert", json!({"reason": "not needed"}))]);
    assert_eq!(rs[1].history_delta.map(|d| d.messages_removed), Some(4));
    let out = ws.compress_history(&Value::Array(transcript), Format::OpenAi).unwrap();
    assert_eq!(out.messages.as_array().unwrap().len(), 2);
    assert_eq!(out.messages[1]["content"], json!("[Edit session #1 reverted]\nReason: not needed"));
}
