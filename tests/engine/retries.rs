//! A model that retries never gets stuck, and never escapes by a wrong write
//! (docs/workflow.md#visible-tools, docs/decisions.md#no-dead-ends-for-a-model-that-retries):
//! a commit with candidates open saves the pending changes and drops the candidates; a
//! repeated edit is "already staged"; a save refused because storage changed underneath
//! reads storage again and offers what resolves it; immediate mode describes and answers
//! itself. tests/engine/retry_model.rs drives random sequences of the same behaviour.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::Tool;
use agentpad::{Config, PersistMode, Status, WorkflowState};
use common::Host;
use serde_json::json;

const CONFIG: &str = "database:\n  host: db.local\n  timeout: 30\napi:\n  host: api.local\n  timeout: 30\n";
const API_30: &str = "  host: api.local\n  timeout: 30";
const API_60: &str = "  host: api.local\n  timeout: 60";

fn immediate() -> Config {
    Config { persist_mode: PersistMode::Immediate, ..Config::default() }
}

/// The tools a guidance names (`memo_commit(summary)` → Commit), in order.
fn named(h: &Host, guidance: &str) -> Vec<Tool> {
    let mut out = Vec::new();
    let mut rest = guidance;
    while let Some(at) = rest.find("memo_") {
        let name: String = rest[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if let Some(t) = Tool::from_name("memo", &name) {
            out.push(t);
        }
        rest = &rest[at + name.len()..];
    }
    let _ = h;
    out
}

/// Every tool the response's guidance names is offered now.
fn guidance_is_callable(h: &Host, r: &agentpad::Response) {
    let g = r.guidance.clone().unwrap_or_default();
    for t in named(h, &g) {
        assert!(h.ws.is_visible(t), "guidance names {t:?}, which the state {} does not offer: {g}", h.ws.state());
    }
}

// ---- a commit with candidates open --------------------------------------------------------

#[test]
fn a_commit_with_candidates_open_saves_the_pending_changes_and_drops_the_candidates() {
    let mut h = Host::new(&[("config.yaml", CONFIG)]);
    let r = h.call("memo_replace", json!({"old_text": "  host: db.local", "new_text": "  host: db.internal"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    // A typo: nothing matches, the near misses wait for a choice.
    let r = h.call("memo_replace", json!({"old_text": "  hots: api.local", "new_text": "  host: api.internal"}));
    assert_eq!((r.status, r.workflow_state), (Status::NoMatch, WorkflowState::SelectionPending), "{}", r.markdown);
    assert!(h.ws.is_visible(Tool::Commit), "the staged change can be saved while candidates are open");
    let r = h.call("memo_commit", json!({"summary": "db host"}));
    assert_eq!((r.status, r.workflow_state), (Status::Success, WorkflowState::Idle), "{}", r.markdown);
    assert!(r.summary.contains("open candidate A was dropped"), "the commit says it dropped the candidate: {}", r.summary);
    assert_eq!(h.stored("config.yaml"), CONFIG.replace("db.local", "db.internal"), "only the staged change is written");
    assert!(r.candidates.is_empty());
}

#[test]
fn a_commit_with_candidates_open_and_nothing_pending_is_still_blocked_naming_what_works() {
    let mut h = Host::new(&[("config.yaml", CONFIG)]);
    let r = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert_eq!(r.status, Status::MultiMatch);
    let r = h.call("memo_commit", json!({"summary": "s"}));
    assert_eq!(r.status, Status::Blocked, "{}", r.markdown);
    guidance_is_callable(&h, &r);
}

#[test]
fn commit_auto_is_offered_only_when_it_can_succeed() {
    // Near misses with none recommended, a change pending: commit_auto saves the change.
    let mut h = Host::new(&[("config.yaml", CONFIG)]);
    h.call("memo_replace", json!({"old_text": API_30, "new_text": API_60}));
    let r = h.call("memo_replace", json!({"old_text": "  hots: db.lcoal\n  timeuot: 30", "new_text": "  host: db.local\n  timeout: 45"}));
    assert_eq!(r.workflow_state, WorkflowState::SelectionPending, "{}", r.markdown);
    assert!(r.candidates.iter().all(|c| !c.recommended), "{}", r.markdown);
    guidance_is_callable(&h, &r);
    let r = h.call("memo_commit_auto", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("config.yaml"), CONFIG.replace(API_30, API_60));

    // A listing with nothing pending and none recommended: commit_auto cannot succeed, and no
    // guidance names it.
    let mut h = Host::new(&[("config.yaml", CONFIG)]);
    let r = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert_eq!(r.status, Status::MultiMatch);
    assert!(r.candidates.iter().all(|c| !c.recommended), "{}", r.markdown);
    let blocked = h.call("memo_commit", json!({"summary": "s"}));
    assert!(!blocked.guidance.unwrap_or_default().contains("commit_auto"), "commit_auto would answer that no candidate is recommended");
    assert!(!h.ws.is_visible(Tool::CommitAuto));
}

// ---- the same edit sent again -------------------------------------------------------------

#[test]
fn the_same_replace_sent_again_is_already_staged() {
    let mut h = Host::new(&[("config.yaml", CONFIG)]);
    let first = h.call("memo_replace", json!({"old_text": API_30, "new_text": API_60}));
    assert_eq!(first.status, Status::Success);
    let again = h.call("memo_replace", json!({"old_text": API_30, "new_text": API_60}));
    assert_eq!((again.status, again.workflow_state), (Status::Success, WorkflowState::PersistPending), "{}", again.markdown);
    assert!(again.summary.contains("already staged as change A"), "{}", again.summary);
    assert!(again.candidates.is_empty(), "no candidate is offered: {}", again.markdown);
    assert_eq!(again.pending_changes.len(), 1);
    guidance_is_callable(&h, &again);
    let r = h.call("memo_commit", json!({"summary": "api timeout"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("config.yaml"), CONFIG.replace(API_30, API_60), "database.timeout stays 30");
}

#[test]
fn a_picked_near_miss_sent_again_is_already_staged() {
    let mut h = Host::new(&[("config.yaml", CONFIG)]);
    // A typo on a line the change keeps: the pick applies only 30 → 60 there.
    let typo = json!({"old_text": "  host: api.lcoal\n  timeout: 30", "new_text": "  host: api.lcoal\n  timeout: 60"});
    let r = h.call("memo_replace", typo.clone());
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let again = h.call("memo_replace", typo);
    assert_eq!((again.status, again.workflow_state), (Status::Success, WorkflowState::PersistPending), "{}", again.markdown);
    assert!(again.summary.contains("already staged as change A"), "{}", again.summary);
}

#[test]
fn a_match_id_pick_sent_again_is_already_staged() {
    let mut h = Host::new(&[("config.yaml", CONFIG)]);
    let pick = json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": "B"});
    assert_eq!(h.call("memo_replace", pick.clone()).status, Status::Success);
    let again = h.call("memo_replace", pick);
    assert_eq!(again.status, Status::Success, "{}", again.markdown);
    assert!(again.summary.contains("already staged as change A"), "{}", again.summary);
    assert_eq!(again.pending_changes.len(), 1);
}

// ---- a save refused because storage changed underneath ----------------------------------

#[test]
fn a_commit_that_meets_a_changed_storage_reads_it_and_offers_what_resolves_it() {
    let mut h = Host::new(&[("a.md", "x = 1\ny = 2\n")]);
    h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 5"}));
    // Another program writes, and the watcher has not told the workspace yet.
    h.storage.write("a.md", "x = 1\ny = 3\n");
    let r = h.call("memo_commit", json!({"summary": "x"}));
    assert_eq!(r.status, Status::PersistFailure, "{}", r.markdown);
    let g = r.guidance.clone().unwrap_or_default();
    assert!(!g.contains("Retry with memo_commit"), "a retry fails the same way: {g}");
    assert!(g.contains("memo_rebase"), "{g}");
    guidance_is_callable(&h, &r);
    let r = h.call("memo_rebase", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = h.call("memo_commit", json!({"summary": "x"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.md"), "x = 5\ny = 3\n", "the other writer's change is kept");
}

#[test]
fn a_save_that_fails_with_storage_unchanged_still_offers_the_retry() {
    let mut h = Host::new(&[("a.md", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 5"}));
    h.storage.fail_next_save = true;
    let r = h.call("memo_commit", json!({"summary": "x"}));
    assert_eq!(r.status, Status::PersistFailure, "{}", r.markdown);
    assert!(r.guidance.clone().unwrap_or_default().contains("Retry with memo_commit"), "{}", r.markdown);
    guidance_is_callable(&h, &r);
    assert_eq!(h.call("memo_commit", json!({"summary": "x"})).status, Status::Success);
    assert_eq!(h.stored("a.md"), "x = 5\n");
}

// ---- immediate mode -----------------------------------------------------------------------

#[test]
fn in_immediate_mode_descriptions_do_not_promise_a_commit() {
    let h = Host::with_config(&[("a.md", "x = 1\n")], immediate());
    for d in h.ws.enabled_tool_definitions() {
        assert!(!d.description.contains("nothing is saved until"), "{}: {}", d.name, d.description);
        assert!(!d.description.contains("memo_commit writes it"), "{}: {}", d.name, d.description);
    }
    let manual = Host::new(&[("a.md", "x = 1\n")]);
    let replace = manual.ws.enabled_tool_definitions().into_iter().find(|d| d.name == "memo_replace").unwrap();
    assert!(replace.description.contains("nothing is saved until memo_commit"), "{}", replace.description);
}

#[test]
fn in_immediate_mode_a_commit_is_not_an_error() {
    let mut h = Host::with_config(&[("a.md", "x = 1\n")], immediate());
    h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 5"}));
    let r = h.call("memo_commit", json!({"summary": "done"}));
    assert_eq!(r.status, Status::NoOp, "{}", r.markdown);
    assert!(r.summary.contains("immediate"), "{}", r.summary);
    guidance_is_callable(&h, &r);
    // With a task open, the commit completes it (immediate saves do not).
    h.call("memo_begin_task", json!({"goal": "raise x"}));
    h.call("memo_replace", json!({"old_text": "x = 5", "new_text": "x = 6"}));
    let r = h.call("memo_commit", json!({"summary": "done"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.task_stack.is_empty(), "{}", r.markdown);
}
