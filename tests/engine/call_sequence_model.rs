//! Model-based test of whole tool-call sequences : 2–3 documents open at once
//! (LF or CRLF, with or without a BOM), exact and fuzzy replaces, lettered selections, direct
//! `match_id` picks, appends, multi-document commits (with a save and with compensating writes
//! failing), `memo_persist_as`, revert, discard, refresh, rebase and external writes, all run
//! through `Workspace::call` and a storage host, against a plain model that holds, per document,
//! what storage holds, the committed text and the draft (committed + pending edits).
//!
//! Laws checked after every step (the staging laws of src/session/model_tests.rs, extended to several documents):
//! - the draft, the committed text and storage's bytes of every document are the model's
//!   (storage in the document's own line endings and BOM);
//! - the reported pending changes applied to the committed text give the draft
//!   (`draft = apply(base, changes)`), for every document;
//! - the workflow state is the one the model derives (OutOfSync / SelectionPending /
//!   PersistPending / Idle) and every response reports the workspace's state;
//! - a commit asks to write exactly the drafts of the documents with pending changes, in path
//!   order, and storage receives nothing else; when a save fails, the documents already written
//!   get their old text back (compensating writes), drafts are kept, and only a failed
//!   compensating write leaves a new text in storage — which the workspace then treats as
//!   committed; no write ever fails a version check (storage is never written over a text the
//!   workspace has not taken in: an external change under pending changes blocks commit until
//!   refresh / rebase / revert / discard);
//! - revert restores every committed text byte for byte; discard reloads what storage holds;
//! - an external change to a document without pending changes is reloaded silently and the next
//!   response says so; with pending changes it is a conflict (`ExternalConflict` on the next
//!   editing call and only then, `OutOfSync`, commit blocked); a rebase keeps only changes that
//!   were pending, with their letters and texts, and leaves other documents' changes alone;
//! - a fuzzy match is never silent (`match_quality` is not `exact`, the summary starts
//!   `[Warning]`); the edited region, normalised by the reported tier, equals the normalised
//!   needle; an independent line-window matcher finds nothing at any lower tier, something at
//!   the reported one, and — when its windows cannot overlap — exactly as many matches as the
//!   engine reports (so one fuzzy match is never a guess among several); NoMatch only when no
//!   tier matches;
//! - exact multi-matches list every occurrence (A, B, … in document order for a new query);
//!   choosing a letter (or its 1-based number) edits exactly that candidate; a letter out of
//!   range or a stale one is refused; `match_id` stages that occurrence or is refused;
//! - a refused call (NoOp, InvalidArguments, Blocked, StaleReference, ExternalConflict) changes
//!   no draft, committed text, storage text, pending change or state; no call returns
//!   `Exception`; nothing panics; every response passes `agentpad::validate::validate`.
//!
//! Not modelled: Immediate and Disabled persist modes, `memo_replace_span`,
//! `memo_replace_lines`, `search_after`, `replace_all`, tasks — other tests cover them.
//!
//! Each case is generated from a u64 seed by a small deterministic generator (splitmix64), so a
//! failure is replayable. On failure the test prints `seed=…`, the failing step and a shrunk op
//! list (ops are data, so dropping some keeps a valid sequence).
//!
//! Replay / knobs (environment variables):
//! - `AGENTPAD_MODEL_SEED=<n>`: run only the case with seed n; add `AGENTPAD_MODEL_TRACE=1` and
//!   `-- --nocapture` to print every step;
//! - `AGENTPAD_MODEL_CASES=<n>`: number of cases (default 600 in debug, 6000 in release);
//! - `AGENTPAD_MODEL_BASE=<n>`: first seed (default 0x5EED_0000); cases use base, base+1, …
//! - `AGENTPAD_MODEL_MAX_OPS=<n>`: longest op sequence (default 40; a case's ops depend on it, so
//!   replay a seed with the same value).
//!
//! Long run: `AGENTPAD_MODEL_CASES=20000 AGENTPAD_MODEL_MAX_OPS=100 cargo test --release --test
//! engine call_sequence_model::`. Coverage counters (statuses, tiers, commit failures, rebases)
//! are printed with `-- --nocapture`.
//!
//! The parts: `generator` (seeded cases and ops), `text` (text helpers and the independent
//! matcher), `model`, `driver` (the storage host with injected failures), `case` (running a case
//! and the laws checked after every step) and `steps` (each op's call and its expected outcome);
//! this file holds the runner and the regressions the model found.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::Host;

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};

use agentpad::{CallContext, Status, WorkflowState};
use serde_json::json;

/// A law: on failure the step returns its message (the runner adds the seed and the step).
macro_rules! law {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err(format!($($arg)+));
        }
    };
}

mod case;
mod driver;
mod generator;
mod model;
mod steps;
mod text;

use case::run_case;
use driver::{drive, FailPlan};
use generator::{gen_case, Case};

// ---- coverage counters (printed at the end, so a run shows what it exercised) ---------------

thread_local! {
    static STATS: std::cell::RefCell<BTreeMap<String, usize>> = const { std::cell::RefCell::new(BTreeMap::new()) };
}

fn stat(name: impl Into<String>) {
    STATS.with(|s| *s.borrow_mut().entry(name.into()).or_default() += 1);
}

// ---- the runner -------------------------------------------------------------------------------

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| {
        let v = v.trim();
        v.strip_prefix("0x").map_or_else(|| v.parse().ok(), |h| u64::from_str_radix(h, 16).ok())
    })
}

fn run_caught(case: &Case) -> Result<(), String> {
    match panic::catch_unwind(AssertUnwindSafe(|| run_case(case))) {
        Ok(r) => r,
        Err(p) => Err(format!(
            "panic: {}",
            p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
        )),
    }
}

/// Drops ops while the case still fails (any failure), to show a small reproduction.
fn shrink(mut case: Case) -> (Case, String) {
    let mut err = run_caught(&case).err().unwrap_or_default();
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let mut i = 0;
    while i < case.ops.len() {
        let mut smaller = Case { docs: case.docs.clone(), styles: case.styles.clone(), ops: case.ops.clone() };
        smaller.ops.remove(i);
        match run_caught(&smaller) {
            Err(e) => {
                case = smaller;
                err = e;
            }
            Ok(()) => i += 1,
        }
    }
    panic::set_hook(hook);
    (case, err)
}

#[test]
fn call_sequences_follow_the_model() {
    let default_cases = if cfg!(debug_assertions) { 600 } else { 6000 };
    let (base, cases) = match env_u64("AGENTPAD_MODEL_SEED") {
        Some(seed) => (seed, 1),
        None => (env_u64("AGENTPAD_MODEL_BASE").unwrap_or(0x5EED_0000), env_u64("AGENTPAD_MODEL_CASES").unwrap_or(default_cases)),
    };
    let mut steps = 0usize;
    for seed in base..base + cases {
        let case = gen_case(seed);
        steps += case.ops.len();
        if let Err(e) = run_caught(&case) {
            let (small, small_err) = shrink(gen_case(seed));
            panic!(
                "seed={seed} (replay: AGENTPAD_MODEL_SEED={seed} cargo test --test engine call_sequence_model:: -- --nocapture)\n{e}\n\nshrunk to {} of {} ops: {small_err}\ndocs: {:?}\nstyles: {:?}\nops: {:#?}",
                small.ops.len(),
                case.ops.len(),
                small.docs,
                small.styles,
                small.ops
            );
        }
    }
    STATS.with(|s| {
        for (k, v) in s.borrow().iter() {
            eprintln!("  {v:>6}  {k}");
        }
    });
    eprintln!("call_sequence_model: {cases} cases, {steps} steps, seeds {base}..{}", base + cases);
}

// ---- regressions found by the model -----------------------------------------------------------

/// A one-line `old_text` that begins like a colon gutter (`60: `) and matches fuzzily as given was
/// read as a gutter first: the engine edited `30 #`, leaving `60: ` behind, where the document
/// holds the needle itself with other trailing whitespace (seed 1124027640, 100 ops).
#[test]
fn a_gutter_like_prefix_is_kept_when_the_needle_matches_fuzzily_as_given() {
    let mut h = Host::new(&[("a.md", "\tretry = 'yes'\n\nttimeout: 60: 30 # again")]);
    let r = h.call("memo_replace", json!({"old_text": "60: 30 #  \t", "new_text": "X"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.match_quality.as_deref(), Some("trailing_whitespace"));
    assert_eq!(h.ws.draft(Some("a.md")).unwrap(), "\tretry = 'yes'\n\nttimeout: X again");
}

/// `memo_refresh` of a document storage still holds unchanged answered NoOp ("nothing to
/// reload") but dropped the document's pending choice: SelectionPending became Idle and the
/// agent's next `memo_replace_selection` was Blocked.
#[test]
fn a_refresh_with_nothing_to_reload_keeps_a_pending_choice() {
    let mut h = Host::new(&[("a.md", "x = 1\nx = 1\n"), ("b.md", "y\n")]);
    let r = h.call("memo_replace", json!({"path": "a.md", "old_text": "x = 1", "new_text": "x = 2"}));
    assert_eq!(r.status, Status::MultiMatch);
    let r = h.call("memo_refresh", json!({"path": "a.md"}));
    assert_eq!(r.status, Status::NoOp, "{}", r.markdown);
    assert_eq!(h.ws.state(), WorkflowState::SelectionPending, "a NoOp refresh must not drop the pending choice");
    let r = h.call("memo_replace_selection", json!({"selection_id": "B"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(Some("a.md")).unwrap(), "x = 1\nx = 2\n");
}

/// After a failed save, an edit that restores the committed text leaves nothing pending and
/// storage agreeing with the workspace; it used to stay OutOfSync, with `memo_commit` answering
/// NoOp ("no pending changes") and never leaving that state.
#[test]
fn undoing_the_changes_of_a_failed_save_ends_out_of_sync() {
    let mut h = Host::new(&[("a.md", "x = 1\n"), ("b.md", "y\n")]);
    assert_eq!(h.call("memo_replace", json!({"path": "a.md", "old_text": "x = 1", "new_text": "x = 2"})).status, Status::Success);
    assert_eq!(h.call("memo_replace", json!({"path": "b.md", "old_text": "y", "new_text": "z"})).status, Status::Success);
    h.failing_paths.push("a.md".into());
    let r = h.call("memo_commit", json!({"summary": "s"}));
    assert_eq!(r.status, Status::PersistFailure);
    assert_eq!(r.workflow_state, WorkflowState::OutOfSync);
    h.failing_paths.clear();
    let r = h.call("memo_replace", json!({"path": "a.md", "old_text": "x = 2", "new_text": "x = 1"}));
    assert_eq!(r.status, Status::Success);
    assert!(!r.pending_changes.iter().any(|c| c.path == "a.md"));
    // b.md's save failed too (not attempted after a.md), and b.md still has its change.
    assert_eq!(r.workflow_state, WorkflowState::OutOfSync, "b.md's failed save is still pending");
    let r = h.call("memo_replace", json!({"path": "b.md", "old_text": "z", "new_text": "y"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(r.workflow_state, WorkflowState::Idle, "nothing is pending and storage holds the committed texts: {}", r.markdown);
    assert_eq!(h.stored("a.md"), "x = 1\n");
    assert_eq!(h.stored("b.md"), "y\n");
}

/// A document whose save failed in one commit and which a later commit then wrote for good
/// (its compensating write failed, so it is committed after all) kept its old persist failure:
/// the workspace stayed OutOfSync with nothing of it pending, until that document was
/// refreshed, reverted or discarded.
#[test]
fn a_document_committed_after_all_drops_its_earlier_save_failure() {
    let mut h = Host::new(&[("a.md", "a\n"), ("b.md", "b\n"), ("c.md", "c\n")]);
    for p in ["a.md", "b.md", "c.md"] {
        assert_eq!(h.call("memo_append", json!({"path": p, "text": "x"})).status, Status::Success);
    }
    // a.md written, b.md fails (c.md not attempted); a.md's restore fails → a.md committed.
    let step = h.ws.call("memo_commit", &json!({"summary": "s"}), &CallContext::default());
    let d = drive(&mut h, step, FailPlan { commit: Some(1), restore: Some(0) }).unwrap();
    assert_eq!(d.r.status, Status::PersistFailure);
    // b.md written, c.md fails; b.md's restore fails → b.md committed.
    let step = h.ws.call("memo_commit", &json!({"summary": "s"}), &CallContext::default());
    let d = drive(&mut h, step, FailPlan { commit: Some(1), restore: Some(0) }).unwrap();
    assert_eq!(d.r.status, Status::PersistFailure);
    assert!(d.r.summary.contains("committed after all"), "{}", d.r.summary);
    assert_eq!(h.stored("b.md"), "b\nx");
    assert_eq!(h.ws.text(Some("b.md")).unwrap(), "b\nx");
    // Only c.md is still unsaved: dropping its change ends OutOfSync.
    let r = h.call("memo_refresh", json!({"path": "c.md"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(r.workflow_state, WorkflowState::Idle, "b.md is committed and saved: {}", r.markdown);
}
