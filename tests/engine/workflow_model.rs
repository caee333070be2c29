//! Model-based property test of the whole workflow through tool calls: random sequences of
//! replace / choose / append / commit (sometimes failing) / revert / discard / external writes
//! against a plain model of two strings — what storage holds and what the draft is.
//!
//! Laws checked after every step: the draft is the model's draft; the committed text is the
//! model's; storage holds exactly what was committed; revert restores the committed text byte
//! for byte; a failed save changes nothing in storage and keeps the draft; no call panics.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::{Status, WorkflowState};
use common::{utf16_to_byte, Host};
use proptest::prelude::*;
use serde_json::json;

#[derive(Clone, Debug)]
enum Op {
    /// Replace the draft's text at [start, start+len) (chars, clamped) by `new`.
    Replace {
        start: usize,
        len: usize,
        new: String,
    },
    /// Choose candidate `pick` (modulo the count) of a pending choice.
    Choose {
        pick: usize,
    },
    Append {
        text: String,
    },
    Commit {
        fail: bool,
    },
    Revert,
    Discard,
    /// Another program writes `text` to storage.
    External {
        text: String,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0usize..80, 1usize..6, "[ab\n中😀 ]{0,4}").prop_map(|(start, len, new)| Op::Replace { start, len, new }),
        2 => (0usize..26).prop_map(|pick| Op::Choose { pick }),
        1 => "[ab\n]{1,3}".prop_map(|text| Op::Append { text }),
        2 => any::<bool>().prop_map(|fail| Op::Commit { fail }),
        1 => Just(Op::Revert),
        1 => Just(Op::Discard),
        1 => "[ab\n中 ]{0,30}".prop_map(|text| Op::External { text }),
    ]
}

/// Char range → byte range of `s`.
fn bytes(s: &str, start: usize, end: usize) -> (usize, usize) {
    let at = |c: usize| s.char_indices().nth(c).map_or(s.len(), |(b, _)| b);
    (at(start), at(end))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn tool_calls_follow_the_string_model(doc in "[ab\n中😀 ]{1,60}", ops in prop::collection::vec(op(), 1..25)) {
        let mut h = Host::new(&[("d", doc.as_str())]);
        let mut committed = doc.clone();
        let mut draft = doc.clone();
        // The needle and replacement of the pending choice, if any.
        let mut choice: Option<(String, String)> = None;
        // Storage changed under pending changes (a conflict): a revert then takes storage's text.
        let mut conflict = false;
        for op in ops {
            let state = h.ws.state();
            match op {
                Op::Replace { start, len, new } => {
                    let n = draft.chars().count();
                    if n == 0 { continue; }
                    let start = start % n;
                    let end = (start + len).min(n);
                    let (b0, b1) = bytes(&draft, start, end);
                    let needle = draft[b0..b1].to_string();
                    let r = h.call("memo_replace", json!({"old_text": needle, "new_text": new}));
                    match r.status {
                        Status::Success => {
                            prop_assert_eq!(draft.matches(needle.as_str()).count(), 1, "staged a needle that is not unique");
                            draft = draft.replacen(needle.as_str(), &new, 1);
                            choice = None;
                        }
                        Status::MultiMatch => {
                            prop_assert!(draft.matches(needle.as_str()).count() > 1);
                            // OutOfSync outranks a pending choice (choose with match_id then)
                            prop_assert!(matches!(r.workflow_state, WorkflowState::SelectionPending | WorkflowState::OutOfSync));
                            // (a stale candidate — its text was changed by a staged edit — keeps its letter)
                            for c in r.candidates.iter().filter(|c| !c.stale) {
                                let (s, e) = (utf16_to_byte(&draft, c.context_start), utf16_to_byte(&draft, c.context_end));
                                prop_assert_eq!(&draft[s..e], needle.as_str(), "candidate {} slices the needle", &c.id);
                            }
                            choice = Some((needle, new));
                        }
                        // One match cutting a word of the document: listed to confirm.
                        Status::StaleReference if draft.matches(needle.as_str()).count() == 1 && draft.find(needle.as_str()).is_some_and(|at| common::cuts_a_word(&draft, at, &needle)) => {
                            choice = Some((needle, new));
                        }
                        // blocked while out of sync is fine: nothing may change
                        Status::NoOp | Status::Blocked | Status::ExternalConflict => {}
                        other => prop_assert!(false, "replace of an exact substring gave {other:?}: {}", r.markdown),
                    }
                }
                Op::Choose { pick } => {
                    let Some((needle, new)) = choice.clone() else { continue };
                    if state != WorkflowState::SelectionPending { continue; }
                    let before = h.call("memo_read", json!({})); // candidates stay; a read changes nothing
                    prop_assert_eq!(before.workflow_state, WorkflowState::SelectionPending);
                    // The letters as listed now (the same search lists the same letters again).
                    let listed = h.call("memo_replace", json!({"old_text": needle, "new_text": new, "show_all_matches": true}));
                    if listed.status == Status::Success {
                        // only one place is left: the search staged it
                        prop_assert_eq!(draft.matches(needle.as_str()).count(), 1);
                        draft = draft.replacen(needle.as_str(), &new, 1);
                        choice = None;
                        continue;
                    }
                    let live: Vec<_> = listed.candidates.iter().filter(|c| !c.stale).collect();
                    if live.is_empty() { continue; }
                    let c = live[pick % live.len()];
                    let at = utf16_to_byte(&draft, c.context_start);
                    let r = h.call("memo_replace_selection", json!({"selection_id": c.id}));
                    if r.status == Status::Success {
                        prop_assert_eq!(&draft[at..at + needle.len()], needle.as_str());
                        draft.replace_range(at..at + needle.len(), &new);
                        choice = None;
                    } else {
                        prop_assert!(matches!(r.status, Status::NoOp | Status::StaleReference), "{}", r.markdown);
                    }
                }
                Op::Append { text } => {
                    let r = h.call("memo_append", json!({"text": text}));
                    if r.status == Status::Success {
                        draft.push_str(&text);
                    }
                }
                Op::Commit { fail } => {
                    h.fail_next_save = fail;
                    let stored_before = h.stored("d").to_string();
                    let r = h.call("memo_commit", json!({"summary": "s"}));
                    match r.status {
                        Status::Success => {
                            prop_assert_eq!(h.stored("d"), draft.as_str(), "commit writes exactly the draft");
                            committed = draft.clone();
                        }
                        Status::PersistFailure => {
                            prop_assert!(fail);
                            prop_assert_eq!(h.stored("d"), stored_before.as_str(), "a failed save changes nothing");
                            prop_assert_eq!(r.workflow_state, WorkflowState::OutOfSync);
                        }
                        _ => {}
                    }
                    h.fail_next_save = false;
                    choice = None.or(if h.ws.state() == WorkflowState::SelectionPending { choice } else { None });
                }
                Op::Revert | Op::Discard => {
                    let name = if matches!(op, Op::Revert) { "memo_revert" } else { "memo_discard" };
                    let r = h.call(name, json!({"reason": "model"}));
                    prop_assert!(matches!(r.status, Status::Success | Status::NoOp), "{}", r.markdown);
                    // discard reloads storage when out of sync; revert takes storage's text after a
                    // conflict (the changes it conflicted with are gone), else keeps the cache
                    if name == "memo_discard" || conflict { committed = h.stored("d").to_string(); }
                    conflict = false;
                    draft = committed.clone();
                    prop_assert_eq!(h.ws.draft(Some("d")).unwrap(), committed.clone(), "revert restores byte-exact");
                    choice = None;
                }
                Op::External { text } => {
                    let pending = !h.ws.draft(Some("d")).unwrap().eq(&h.ws.text(Some("d")).unwrap());
                    h.external_write("d", &text);
                    if pending { conflict = true; }
                    if !pending && h.ws.state() != WorkflowState::OutOfSync {
                        committed = text.clone();
                        draft = text;
                        choice = None;
                    }
                }
            }
            prop_assert_eq!(h.ws.draft(Some("d")).unwrap(), draft.clone());
            prop_assert_eq!(h.ws.text(Some("d")).unwrap(), committed.clone());
            if h.ws.state() == WorkflowState::Idle {
                prop_assert_eq!(draft.clone(), committed.clone(), "Idle means nothing is pending");
            }
        }
    }
}
