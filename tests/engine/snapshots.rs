//! Snapshot tests of the Markdown the model reads: real `Workspace` calls in both locales and both
//! candidate styles, compared byte for byte with `tests/snapshots/*.md`.
//!
//! Every status × workflow state that can occur has a snapshot (Success/Refreshing cannot be
//! observed: a response is only returned once storage answered), plus the three example
//! flows in Chinese with the list style. Each file is a transcript: for every call shown, a
//! comment line `<!-- N. tool {args} -->`, a comment line with the call's `markdown_basic`, an
//! empty line, then the call's `markdown`.
//!
//! A missing or changed snapshot fails with a diff-like message; `UPDATE_SNAPSHOTS=1 cargo test
//! --test engine snapshots::` writes them all (and removes snapshots no scenario produces).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use agentpad::{CallContext, Config, PersistMode, Response, Status, WorkflowState};
use agentpad::{CandidateStyle, Locale};
use common::Host;
use serde_json::{json, Value};

/// 2026-01-01T00:00:00Z; every call is one second after the one before.
const NOW_MS: f64 = 1_767_225_600_000.0;

const CONFIG_JSON: &str = "{\n  \"features\": {\n    \"stable\": [\"A\", \"B\", \"C\"],\n    \"experimental\": []\n  }\n}\n";

/// The three-timeouts flow: `timeout: 30` on lines 12, 45 and 78, each under a comment.
fn timeouts(comments: [&str; 3]) -> String {
    let mut lines: Vec<String> = (1..=90).map(|i| format!("key{i}: value")).collect();
    for ((line, section), comment) in [(12, "database"), (45, "api"), (78, "cache")].into_iter().zip(comments) {
        lines[line - 2] = comment.to_string();
        lines[line - 1] = format!("{section}.timeout: 30");
    }
    lines.join("\n") + "\n"
}

#[derive(Clone, Copy)]
struct Variant {
    locale: Locale,
    style: CandidateStyle,
}

/// A workspace in one variant, recording the calls a snapshot shows.
struct Run {
    host: Host,
    calls: u32,
    out: String,
}

impl Run {
    fn new(files: &[(&str, &str)], v: Variant, persist_mode: PersistMode) -> Run {
        let config = Config { locale: v.locale, candidate_style: v.style, persist_mode, ..Config::default() };
        Run { host: Host::with_config(files, config), calls: 0, out: String::new() }
    }

    /// A call whose response the snapshot does not show (setting the scene).
    fn quiet(&mut self, name: &str, args: Value) -> Response {
        self.calls += 1;
        let ctx = CallContext { tool_call_id: Some(format!("call_{}", self.calls)), now_ms: NOW_MS + f64::from(self.calls) * 1000.0 };
        let step = self.host.ws.call(name, &args, &ctx);
        self.host.drive(step)
    }

    /// A call the snapshot shows, checked to end in `status`/`state`.
    fn call(&mut self, name: &str, args: Value, status: Status, state: WorkflowState) -> Response {
        let r = self.quiet(name, args.clone());
        assert_eq!((r.status, r.workflow_state), (status, state), "{name} {args}:\n{}", r.markdown);
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        let _ = writeln!(self.out, "<!-- {}. {name} {} -->", self.calls, serde_json::to_string(&args).unwrap());
        let _ = writeln!(self.out, "<!-- markdown_basic: {} -->", r.markdown_basic);
        let _ = write!(self.out, "\n{}", r.markdown);
        r
    }
}

type Scenario = fn(Variant) -> String;

/// Scenarios whose responses carry no candidates: one snapshot per locale.
const PLAIN: &[(&str, Scenario)] = &[
    ("success_idle_read", success_idle_read),
    ("success_persist_pending_stage", success_persist_pending_stage),
    ("success_warning_fuzzy", success_warning_fuzzy),
    ("noop", noop),
    ("no_match_idle", no_match_idle),
    ("invalid_arguments", invalid_arguments),
    ("blocked", blocked),
    ("stale_reference", stale_reference),
    ("persist_failure_out_of_sync", persist_failure_out_of_sync),
    ("external_conflict_out_of_sync", external_conflict_out_of_sync),
    ("disabled_read_only", disabled_read_only),
    ("task_stack", task_stack),
    ("session_log", session_log),
    ("versions_and_undo", versions_and_undo),
    ("create_and_commit_auto", create_and_commit_auto),
    ("argument_errors", argument_errors),
    ("immediate_mode", immediate_mode),
    ("diagnostics_on", diagnostics_on),
    ("auto_rebase_note", auto_rebase_note),
    ("near_miss_lines", near_miss_lines),
    ("preview_markers", preview_markers),
    ("wrong_document", wrong_document),
];

/// Scenarios with candidates: one snapshot per locale and candidate style.
const WITH_CANDIDATES: &[(&str, Scenario)] = &[
    ("multi_match_recommended", multi_match_recommended),
    ("multi_match_fuzzy", multi_match_fuzzy),
    ("multi_match_stale", multi_match_stale),
    ("no_match_near_misses", no_match_near_misses),
    ("find_units", find_units),
];

/// The example flows, in Chinese with the list style.
const APPENDIX_A: &[(&str, Scenario)] = &[
    ("example_1_experimental_x", example_1_experimental_x),
    ("example_2_three_timeouts", example_2_three_timeouts),
    ("example_3_nested_tasks", example_3_nested_tasks),
    ("quick_start", quick_start),
];

/// The README's quick start (README.md#quick-start); its zh transcript is docs/zh-sample.md.
fn quick_start(v: Variant) -> String {
    let mut run = Run::new(&[("config.json", "{ \"timeout\": 30 }\n")], v, PersistMode::Manual);
    run.call(
        "memo_replace",
        json!({"old_text": "\"timeout\": 30", "new_text": "\"timeout\": 60"}),
        Status::Success,
        WorkflowState::PersistPending,
    );
    run.call("memo_commit", json!({"summary": "把超时时间调到 60 秒"}), Status::Success, WorkflowState::Idle);
    run.out
}

fn success_idle_read(v: Variant) -> String {
    let mut run = Run::new(&[("config.json", CONFIG_JSON)], v, PersistMode::Manual);
    run.call("memo_read", json!({}), Status::Success, WorkflowState::Idle);
    run.out
}

fn success_persist_pending_stage(v: Variant) -> String {
    let mut run = Run::new(&[("config.json", CONFIG_JSON)], v, PersistMode::Manual);
    run.call(
        "memo_replace",
        json!({"old_text": "\"experimental\": []", "new_text": "\"experimental\": [\"X\"]"}),
        Status::Success,
        WorkflowState::PersistPending,
    );
    // An edit touching change A amends it.
    run.call("memo_replace", json!({"old_text": "[\"X\"]", "new_text": "[\"X\", \"Y\"]"}), Status::Success, WorkflowState::PersistPending);
    run.call("memo_commit", json!({"summary": "Enable X and Y"}), Status::Success, WorkflowState::Idle);
    run.out
}

fn success_warning_fuzzy(v: Variant) -> String {
    let mut run = Run::new(&[("main.rs", "fn main() {\n    let  x =\t1;\n}\n")], v, PersistMode::Manual);
    run.call("memo_replace", json!({"old_text": "let x = 1;", "new_text": "let x = 2;"}), Status::Success, WorkflowState::PersistPending);
    run.out
}

fn noop(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n")], v, PersistMode::Manual);
    run.call("memo_commit", json!({"summary": "nothing"}), Status::NoOp, WorkflowState::Idle);
    run.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 1"}), Status::NoOp, WorkflowState::Idle);
    run.out
}

fn no_match_idle(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n")], v, PersistMode::Manual);
    run.call("memo_replace", json!({"old_text": "nothing like it", "new_text": "z"}), Status::NoMatch, WorkflowState::Idle);
    run.out
}

fn invalid_arguments(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n")], v, PersistMode::Manual);
    run.call("memo_replace", json!({"old_text": "x"}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_read", json!({"path": "nope.md"}), Status::InvalidArguments, WorkflowState::Idle);
    run.out
}

fn blocked(v: Variant) -> String {
    let mut run = Run::new(&[("t.yaml", &timeouts(["# database", "# api", "# cache"]))], v, PersistMode::Manual);
    run.quiet("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    run.call("memo_commit", json!({"summary": "x"}), Status::Blocked, WorkflowState::SelectionPending);
    run.out
}

fn stale_reference(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\ny = 1\n")], v, PersistMode::Manual);
    let fp = run.quiet("memo_read", json!({})).fingerprint.unwrap();
    run.quiet("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    run.call(
        "memo_replace",
        json!({"old_text": "y = 1", "new_text": "y = 2", "expected_fingerprint": fp}),
        Status::StaleReference,
        WorkflowState::PersistPending,
    );
    run.call("memo_replace_lines", json!({"start_key": "9#0000", "new_text": "z"}), Status::StaleReference, WorkflowState::PersistPending);
    run.out
}

/// old_text is not in the document named but is, exactly, in another: the guidance names it
/// before the no-match's own.
fn wrong_document(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n"), ("b.md", "y = 1\nz = 1\n")], v, PersistMode::Manual);
    run.call(
        "memo_replace",
        json!({"path": "a.md", "old_text": "y = 1", "new_text": "y = 2"}),
        Status::NoMatch,
        WorkflowState::SelectionPending,
    );
    run.out
}

fn persist_failure_out_of_sync(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n")], v, PersistMode::Manual);
    run.quiet("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    run.host.fail_next_save = true;
    run.call("memo_commit", json!({"summary": "bump"}), Status::PersistFailure, WorkflowState::OutOfSync);
    run.call("memo_diff", json!({"against": "storage"}), Status::Success, WorkflowState::OutOfSync);
    run.call("memo_commit", json!({"summary": "bump"}), Status::Success, WorkflowState::Idle);
    run.out
}

fn external_conflict_out_of_sync(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\ny = 1\n")], v, PersistMode::Manual);
    run.quiet("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert!(run.host.external_write("a.md", "x = 1\ny = 5\n"));
    run.call("memo_commit", json!({"summary": "bump"}), Status::ExternalConflict, WorkflowState::OutOfSync);
    run.call("memo_commit", json!({"summary": "bump"}), Status::Blocked, WorkflowState::OutOfSync);
    run.call("memo_read", json!({}), Status::Success, WorkflowState::OutOfSync);
    run.call("memo_rebase", json!({}), Status::Success, WorkflowState::PersistPending);
    run.out
}

fn disabled_read_only(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n")], v, PersistMode::Disabled);
    run.call("memo_replace", json!({"old_text": "1", "new_text": "2"}), Status::Success, WorkflowState::PersistPending);
    run.call("memo_commit", json!({"summary": "in memory"}), Status::Success, WorkflowState::Idle);
    run.out
}

fn task_stack(v: Variant) -> String {
    let mut run = Run::new(&[("deps.toml", "y = \"1.0\"\n")], v, PersistMode::Manual);
    run.call("memo_begin_task", json!({"goal": "add module Y"}), Status::Success, WorkflowState::Idle);
    run.call("memo_begin_task", json!({"goal": "check dependency versions", "parent_task_id": "1"}), Status::Success, WorkflowState::Idle);
    run.call("memo_replace", json!({"old_text": "1.0", "new_text": "1.1"}), Status::Success, WorkflowState::PersistPending);
    run.call("memo_revert", json!({"reason": "1.0 is fine"}), Status::Success, WorkflowState::Idle);
    // The revert abandoned task #2: #3 and #4 nest under #1, #5 would be too deep.
    run.call("memo_begin_task", json!({"goal": "pin the versions"}), Status::Success, WorkflowState::Idle);
    run.call("memo_begin_task", json!({"goal": "pin serde"}), Status::Success, WorkflowState::Idle);
    run.call("memo_begin_task", json!({"goal": "pin serde_json"}), Status::Blocked, WorkflowState::Idle);
    // Finishing every task: the thought tree shows #1 with the reverted #2 and the nested #3/#4.
    run.quiet("memo_commit", json!({"summary": "serde pinned"}));
    run.quiet("memo_commit", json!({"summary": "versions pinned"}));
    run.call("memo_commit", json!({"summary": "module Y added"}), Status::Success, WorkflowState::Idle);
    run.out
}

fn session_log(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n")], v, PersistMode::Manual);
    run.quiet("memo_read", json!({}));
    run.quiet("memo_replace", json!({"old_text": "nope", "new_text": "y"}));
    run.quiet("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    run.quiet("memo_commit", json!({"summary": "s"}));
    run.call("memo_export_session", json!({}), Status::Success, WorkflowState::Idle);
    run.out
}

/// Reading committed versions (and refusals of a bad one), a diff without guidance of its own
/// (the state's next step), and undoing a commit.
fn versions_and_undo(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\ny = 1\n")], v, PersistMode::Manual);
    run.quiet("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    run.quiet("memo_commit", json!({"summary": "bump x"}));
    run.call("memo_read", json!({"version": "v0"}), Status::Success, WorkflowState::Idle);
    run.call("memo_read", json!({"version": "v1", "start_line": 1, "end_line": 1}), Status::Success, WorkflowState::Idle);
    run.call("memo_read", json!({"version": "two"}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_read", json!({"version": "v7"}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_read", json!({"version": "v0", "start_line": 5}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_read", json!({"start_line": 9}), Status::InvalidArguments, WorkflowState::Idle);
    run.quiet("memo_replace", json!({"old_text": "y = 1", "new_text": "y = 2"}));
    run.call("memo_diff", json!({}), Status::Success, WorkflowState::PersistPending);
    run.quiet("memo_revert", json!({"reason": "not now"}));
    run.call("memo_undo", json!({}), Status::Success, WorkflowState::Idle);
    run.out
}

/// A new document, its refusals, and a commit whose summary the engine writes.
fn create_and_commit_auto(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n")], v, PersistMode::Manual);
    run.call("memo_create", json!({"path": "notes/todo.md", "text": "- buy milk\n"}), Status::Success, WorkflowState::PersistPending);
    run.call("memo_create", json!({"path": "a.md", "text": "y"}), Status::InvalidArguments, WorkflowState::PersistPending);
    run.call("memo_create", json!({"path": "../out.md", "text": "y"}), Status::InvalidArguments, WorkflowState::PersistPending);
    run.call("memo_create", json!({"path": "b.md", "text": ""}), Status::InvalidArguments, WorkflowState::PersistPending);
    run.call("memo_commit_auto", json!({}), Status::Success, WorkflowState::Idle);
    run.out
}

/// Argument errors the tool schema finds, one of each kind a model makes.
fn argument_errors(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n")], v, PersistMode::Manual);
    run.call("memo_edit", json!({"old_text": "x"}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_read", json!({"start": 2}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_read", json!({"start_line": "two"}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_read", json!({"start_line": 0}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_read", json!({"line_numbers": "yes"}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_preview", json!({"format": "side-by-side"}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_replace_lines", json!({"start_key": "line 3", "new_text": "z"}), Status::InvalidArguments, WorkflowState::Idle);
    run.call("memo_replace", json!(["x", "y"]), Status::InvalidArguments, WorkflowState::Idle);
    run.out
}

/// Immediate mode: each edit is saved with a commit the engine names.
fn immediate_mode(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\ny = 1\n")], v, PersistMode::Immediate);
    run.call("memo_replace", json!({"old_text": "y = 1", "new_text": "y = 2"}), Status::Success, WorkflowState::Idle);
    run.call("memo_commit", json!({"summary": "done"}), Status::NoOp, WorkflowState::Idle);
    run.quiet("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    // v1 is named by the commit the first edit made.
    run.call("memo_read", json!({"version": "v1"}), Status::Success, WorkflowState::Idle);
    run.out
}

/// Diagnostics on: every guidance ends with where the call's records are.
fn diagnostics_on(v: Variant) -> String {
    let mut run = Run::new(&[("a.md", "x = 1\n")], v, PersistMode::Manual);
    run.host.ws.set_diagnostics([agentpad::diagnostics::Category::MatchTrace]);
    run.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}), Status::Success, WorkflowState::PersistPending);
    run.call("memo_diff", json!({}), Status::Success, WorkflowState::PersistPending);
    run.out
}

/// Live co-editing: storage changes under pending changes it does not overlap, and they move
/// onto it, said in a note.
fn auto_rebase_note(v: Variant) -> String {
    let config = Config { locale: v.locale, candidate_style: v.style, auto_rebase: true, ..Config::default() };
    let mut run = Run { host: Host::with_config(&[("a.md", "x = 1\ny = 1\nz = 1\n")], config), calls: 0, out: String::new() };
    run.quiet("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert!(run.host.external_write("a.md", "x = 1\ny = 1\nz = 5\n"));
    run.call("memo_read", json!({}), Status::Success, WorkflowState::PersistPending);
    run.out
}

/// The markers of a capped preview (lines, changed places left out) and the `stats` lines.
fn preview_markers(v: Variant) -> String {
    let text: String = (1..=12).map(|i| format!("t: 1\n{}", "x\n".repeat(8 + i % 2))).collect();
    let config = Config { locale: v.locale, candidate_style: v.style, max_preview_length: 60, ..Config::default() };
    let mut run = Run { host: Host::with_config(&[("a.md", &text)], config), calls: 0, out: String::new() };
    run.call(
        "memo_replace",
        json!({"old_text": "t: 1\nx\n", "new_text": "t: 2\nnew line one\nnew line two\nnew line three\nnew line four\n"}),
        Status::MultiMatch,
        WorkflowState::SelectionPending,
    );
    run.call("memo_replace_selection", json!({"selection_id": "A"}), Status::Success, WorkflowState::PersistPending);
    run.quiet("memo_revert", json!({"reason": "again"}));
    run.quiet("memo_replace", json!({"old_text": "t: 1", "new_text": "t: 2", "replace_all": true, "expected_occurrences": 12}));
    run.call("memo_preview", json!({}), Status::Success, WorkflowState::PersistPending);
    run.call("memo_preview", json!({"format": "stats"}), Status::Success, WorkflowState::PersistPending);
    run.out
}

/// A near miss over several lines: the preview labels the differing lines.
fn near_miss_lines(v: Variant) -> String {
    let doc = "[server]\n  host: api.local\n  timeout: 30\n  retries: 3\n";
    let mut run = Run::new(&[("a.toml", doc)], v, PersistMode::Manual);
    run.call(
        "memo_replace",
        json!({"old_text": "  host: api.locl\n  timeout: 30\n  backoff: 2\n  retries: 3", "new_text": "  host: api.locl\n  timeout: 60\n  backoff: 2\n  retries: 3"}),
        Status::NoMatch,
        WorkflowState::SelectionPending,
    );
    run.out
}

fn multi_match_recommended(v: Variant) -> String {
    let text = "# database\ntimeout: 30\n\n# api gateway\ntimeout: 30\n\n# cache\ntimeout: 30\n";
    let mut run = Run::new(&[("a.yaml", text)], v, PersistMode::Manual);
    run.quiet("memo_begin_task", json!({"goal": "raise the api gateway timeout"}));
    run.call(
        "memo_replace",
        json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}),
        Status::MultiMatch,
        WorkflowState::SelectionPending,
    );
    // A read while the choice is pending shows the markers.
    run.call("memo_read", json!({}), Status::Success, WorkflowState::SelectionPending);
    run.call("memo_replace_selection", json!({"selection_id": "B"}), Status::Success, WorkflowState::PersistPending);
    run.out
}

/// `memo_find` (docs/tools.md#memo_find): units listed, one recommended, then edited inside
/// with `within`, replaced whole with a pick, and a query with no words refused.
fn find_units(v: Variant) -> String {
    let text =
        "# Guide\n\n## Install\n\nRun the installer.\n\n## Retry policy\n\nRequests are retried 3 times.\n\n## 缓存\n\n结果缓存一小时。\n";
    let mut run = Run::new(&[("guide.md", text)], v, PersistMode::Manual);
    run.call("memo_find", json!({"query": "how often are requests retried"}), Status::Success, WorkflowState::Idle);
    run.call("memo_replace", json!({"old_text": "3", "new_text": "5", "within": "A"}), Status::Success, WorkflowState::PersistPending);
    run.call("memo_find", json!({"query": "缓存时间"}), Status::Success, WorkflowState::PersistPending);
    run.call(
        "memo_replace_selection",
        json!({"selection_id": "A", "new_text": "## 缓存\n\n不缓存。"}),
        Status::Success,
        WorkflowState::PersistPending,
    );
    run.call("memo_find", json!({"query": "…"}), Status::InvalidArguments, WorkflowState::PersistPending);
    run.out
}

fn multi_match_fuzzy(v: Variant) -> String {
    let mut run = Run::new(&[("a.txt", "v = 1  \nw = 1\nv = 1 \n")], v, PersistMode::Manual);
    run.call("memo_replace", json!({"old_text": "v = 1\t", "new_text": "v = 2"}), Status::MultiMatch, WorkflowState::SelectionPending);
    run.out
}

fn multi_match_stale(v: Variant) -> String {
    let mut run = Run::new(&[("t.yaml", &timeouts(["# database", "# api", "# cache"]))], v, PersistMode::Manual);
    run.quiet("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    run.call("memo_replace_selection", json!({"selection_id": "A"}), Status::Success, WorkflowState::PersistPending);
    // Listing again: A holds `timeout: 60` now.
    run.call(
        "memo_replace",
        json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}),
        Status::MultiMatch,
        WorkflowState::SelectionPending,
    );
    run.call("memo_replace_selection", json!({"selection_id": "A"}), Status::StaleReference, WorkflowState::SelectionPending);
    run.out
}

fn no_match_near_misses(v: Variant) -> String {
    let doc = "database:\n  host: db.local\n  timeout: 30\nretries: 5\n";
    let mut run = Run::new(&[("a.yaml", doc)], v, PersistMode::Manual);
    run.call(
        "memo_replace",
        json!({"old_text": "timeout: 3O", "new_text": "timeout: 60"}),
        Status::NoMatch,
        WorkflowState::SelectionPending,
    );
    // The change (3O → 60) is where the candidate differs (30): one token changed two ways, so
    // the pick is refused, quoting both lines (src/matching/three_way/complete.rs).
    run.call("memo_replace_selection", json!({"selection_id": "A"}), Status::StaleReference, WorkflowState::SelectionPending);
    // A misremembered line away from the change: only the change is applied (three-way).
    run.call(
        "memo_replace",
        json!({"old_text": "host: db.locl\n  timeout: 30", "new_text": "host: db.locl\n  timeout: 60"}),
        Status::NoMatch,
        WorkflowState::SelectionPending,
    );
    run.call("memo_replace_selection", json!({"selection_id": "A"}), Status::Success, WorkflowState::PersistPending);
    run.out
}

fn example_1_experimental_x(v: Variant) -> String {
    let mut run = Run::new(&[("config.json", CONFIG_JSON)], v, PersistMode::Manual);
    run.call("memo_begin_task", json!({"goal": "启用实验性功能 X"}), Status::Success, WorkflowState::Idle);
    run.call("memo_read", json!({}), Status::Success, WorkflowState::Idle);
    run.call(
        "memo_replace",
        json!({"old_text": "\"experimental\": []", "new_text": "\"experimental\": [\"X\"]"}),
        Status::Success,
        WorkflowState::PersistPending,
    );
    run.call("memo_commit", json!({"summary": "启用实验性功能 X"}), Status::Success, WorkflowState::Idle);
    run.out
}

fn example_2_three_timeouts(v: Variant) -> String {
    let text = timeouts(["# 数据库连接配置", "# API 调用配置", "# 缓存过期时间"]);
    let mut run = Run::new(&[("config.yaml", &text)], v, PersistMode::Manual);
    let args = |m: Option<&str>| match m {
        None => json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}),
        Some(id) => json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": id}),
    };
    run.call("memo_replace", args(None), Status::MultiMatch, WorkflowState::SelectionPending);
    for id in ["A", "B", "C"] {
        run.call("memo_replace", args(Some(id)), Status::Success, WorkflowState::PersistPending);
    }
    run.call("memo_commit", json!({"summary": "统一超时时间为 60 秒"}), Status::Success, WorkflowState::Idle);
    run.out
}

fn example_3_nested_tasks(v: Variant) -> String {
    let mut run = Run::new(&[("config.json", CONFIG_JSON)], v, PersistMode::Manual);
    // Flow 1 ran before in the same session: task #1 is done, so #2 and #3 follow.
    run.quiet("memo_begin_task", json!({"goal": "启用实验性功能 X"}));
    run.quiet("memo_replace", json!({"old_text": "\"experimental\": []", "new_text": "\"experimental\": [\"X\"]"}));
    run.quiet("memo_commit", json!({"summary": "启用实验性功能 X"}));
    run.call("memo_begin_task", json!({"goal": "添加新功能模块 Y"}), Status::Success, WorkflowState::Idle);
    run.call("memo_begin_task", json!({"goal": "检查依赖版本", "parent_task_id": "2"}), Status::Success, WorkflowState::Idle);
    run.call("memo_commit", json!({"summary": "依赖版本已确认满足要求", "auto_pop_task": true}), Status::Success, WorkflowState::Idle);
    run.call(
        "memo_replace",
        json!({"old_text": "\"stable\": [\"A\", \"B\", \"C\"]", "new_text": "\"stable\": [\"A\", \"B\", \"C\", \"Y\"]"}),
        Status::Success,
        WorkflowState::PersistPending,
    );
    run.call("memo_commit", json!({"summary": "功能模块 Y 添加完成"}), Status::Success, WorkflowState::Idle);
    run.out
}

/// Every snapshot: file name → content.
fn all_snapshots() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for locale in [Locale::En, Locale::Zh] {
        let table = Variant { locale, style: CandidateStyle::Table };
        for (name, f) in PLAIN {
            out.insert(format!("{name}.{}.md", locale.as_str()), f(table));
        }
        for style in [CandidateStyle::Table, CandidateStyle::List] {
            for (name, f) in WITH_CANDIDATES {
                out.insert(format!("{name}.{}.{}.md", locale.as_str(), style.as_str()), f(Variant { locale, style }));
            }
        }
    }
    for (name, f) in APPENDIX_A {
        out.insert(format!("{name}.zh.list.md"), f(Variant { locale: Locale::Zh, style: CandidateStyle::List }));
    }
    out
}

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("snapshots")
}

/// Where `expected` and `actual` first differ, as `-`/`+` lines with a little context.
fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.split('\n').collect(), actual.split('\n').collect());
    let first = e.iter().zip(&a).position(|(x, y)| x != y).unwrap_or(e.len().min(a.len()));
    // The end of the difference: the longest common suffix after `first`.
    let mut suffix = 0;
    while suffix < e.len() - first && suffix < a.len() - first && e[e.len() - 1 - suffix] == a[a.len() - 1 - suffix] {
        suffix += 1;
    }
    let mut out = String::new();
    let from = first.saturating_sub(2);
    let _ = writeln!(out, "@@ line {} @@", first + 1);
    for line in &e[from..first] {
        let _ = writeln!(out, " {line}");
    }
    for (mark, lines) in [('-', &e[first..e.len() - suffix]), ('+', &a[first..a.len() - suffix])] {
        for line in lines.iter().take(40) {
            let _ = writeln!(out, "{mark}{line}");
        }
        if lines.len() > 40 {
            let _ = writeln!(out, "{mark}… {} more lines", lines.len() - 40);
        }
    }
    for line in e[e.len() - suffix..].iter().take(2) {
        let _ = writeln!(out, " {line}");
    }
    out
}

#[test]
fn markdown_snapshots() {
    let snapshots = all_snapshots();
    assert_eq!(snapshots, all_snapshots(), "the same calls give the same bytes");
    let dir = snapshot_dir();
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| !v.is_empty() && v != "0");
    if update {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let mut failures = Vec::new();
    for (name, actual) in &snapshots {
        let path = dir.join(name);
        match std::fs::read_to_string(&path) {
            Ok(expected) if &expected == actual => {}
            _ if update => std::fs::write(&path, actual).unwrap(),
            Ok(expected) => failures.push(format!("tests/snapshots/{name} changed:\n{}", diff(&expected, actual))),
            Err(_) => failures.push(format!("tests/snapshots/{name} is missing ({} bytes expected)", actual.len())),
        }
    }
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") && !snapshots.contains_key(&name) {
            if update {
                std::fs::remove_file(entry.path()).unwrap();
            } else {
                failures.push(format!("tests/snapshots/{name} belongs to no scenario"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} snapshots differ; if the change is intended, run UPDATE_SNAPSHOTS=1 cargo test --test engine snapshots::\n\n{}",
        failures.len(),
        snapshots.len(),
        failures.join("\n")
    );
}

#[test]
fn candidate_style_is_an_option() {
    let c = Config::from_json(&json!({"candidate_style": "list", "locale": "zh"})).unwrap();
    assert_eq!((c.candidate_style, c.locale), (CandidateStyle::List, Locale::Zh));
    // One line each by default: what the model needs to pick (the table's markers and offsets
    // are the JSON's).
    assert_eq!(Config::default().candidate_style, CandidateStyle::List);
    let e = Config::from_json(&json!({"candidate_style": "rows"})).unwrap_err().to_string();
    assert_eq!(e, "option `candidate_style` must be \"table\" or \"list\", got \"rows\"");
    let e = Config::from_json(&json!({"candidate_styles": "list"})).unwrap_err().to_string();
    assert!(e.contains("candidate_style,"), "{e}");
}

#[test]
fn the_diff_helper_points_at_the_change() {
    let d = diff("a\nb\nc\nd\n", "a\nb\nX\nd\n");
    assert_eq!(d, "@@ line 3 @@\n a\n b\n-c\n+X\n d\n \n");
}

/// English words that only English prose uses: one of them outside code, quotes and identifiers
/// in a zh response is an English sentence or label (`line 3`, `similarity 0.90`, `Nothing was
/// changed`), however short.
const ENGLISH_WORDS: &[&str] = &[
    "the",
    "is",
    "are",
    "was",
    "were",
    "be",
    "and",
    "or",
    "of",
    "to",
    "in",
    "on",
    "at",
    "with",
    "for",
    "from",
    "not",
    "no",
    "nothing",
    "this",
    "that",
    "it",
    "its",
    "your",
    "you",
    "line",
    "lines",
    "similarity",
    "only",
    "after",
    "before",
];

/// The English in `line` outside code spans and quotes: each run of three or more English words
/// (a sentence) and each word only English prose uses ([`ENGLISH_WORDS`]). Identifiers
/// (`memo_read(version="v0")`, `old_text`, `A–C`, `a.md`) are not words; quoted text (“…”, "…",
/// `…`) is the model's or the document's and is left out; a word's brackets and punctuation
/// (`[-only`, `document+}`, `lines:`) are not part of it.
fn english_runs(line: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (None, '`' | '"') => quote = Some(c),
            (None, '“') => quote = Some('”'),
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            // A Chinese character or mark ends a run, as a token of its own.
            (None, _) if !c.is_ascii() => plain.push_str(" | "),
            (None, _) => plain.push(c),
        }
    }
    // A word: ASCII letters only, its brackets and punctuation aside. Anything else (a number,
    // an identifier, a Chinese character) ends a run.
    let word = |t: &str| -> Option<String> {
        let t = t.trim_start_matches(['[', '-', '{', '+', '(']).trim_end_matches([',', '.', ';', ':', '!', '?', ')', '-', ']', '+', '}']);
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_alphabetic())).then(|| t.to_string())
    };
    let plain = plain.trim_start().trim_start_matches("- summary:").trim_start_matches("- guidance:");
    let mut found = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for token in plain.split_whitespace() {
        match word(token) {
            Some(w) => {
                if ENGLISH_WORDS.contains(&w.as_str()) {
                    found.push(w);
                }
                run.push(token);
            }
            None => {
                if run.len() >= 3 {
                    found.push(run.join(" "));
                }
                run.clear();
            }
        }
    }
    if run.len() >= 3 {
        found.push(run.join(" "));
    }
    found
}

/// The Chinese sentence-end mark followed by a space and more text in `line`, as English
/// joins sentences (`。 下面…`), or a full-width mark inside a sentence followed by a space and
/// a Han character (`（第 1 行） 中`): the mark, if any. A space beside Latin text or code stays.
fn english_sentence_gap(line: &str) -> Option<char> {
    let chars: Vec<char> = line.chars().collect();
    let han = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    chars
        .windows(3)
        .find(|w| {
            w[1] == ' '
                && ((matches!(w[0], '。' | '；' | '！' | '？') && w[2] != '·')
                    || (matches!(w[0], '）' | '，' | '：' | '、' | '」' | '》') && han(w[2])))
        })
        .map(|w| w[0])
}

/// A line inside a fence that is document text: a gutter line (`12│ …`, `3│-…`) or a line of a
/// unified diff. The other fence lines (the near-miss legend and headers, a difference's line
/// labels, a refused pick's headings) are the response's own words.
fn is_document_line(line: &str) -> bool {
    let gutter = line.trim_start().split_once('│').is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    gutter || line.starts_with(['+', '-', ' ', '@', '\\'])
}

#[test]
fn zh_responses_carry_no_english_sentence() {
    let mut leaks = Vec::new();
    let (mut checked, mut fence_lines, mut files) = (0, 0, 0);
    for (name, text) in all_snapshots().iter().filter(|(name, _)| name.contains(".zh.")) {
        files += 1;
        let mut fenced = false;
        for line in text.lines() {
            if line.starts_with("```") {
                fenced = !fenced;
                continue;
            }
            // The one-line view is the engine's too; the call line above it is the test's own.
            let line = match line.strip_prefix("<!-- markdown_basic: ") {
                Some(basic) => basic.trim_end_matches(" -->"),
                None => line,
            };
            // The task stack's and the task tree's lines are the model's goals; the header keys
            // and values are the same in every locale.
            if (fenced && is_document_line(line))
                || ["✅", "↩️", "📝"].iter().any(|m| line.contains(m))
                || line.trim_start().starts_with("- [#")
                || line.starts_with("<!--")
                || line.starts_with("status:")
                || line.starts_with("state:")
                || line.starts_with("flags:")
                || line.starts_with("| Id |")
            {
                continue;
            }
            checked += 1;
            fence_lines += usize::from(fenced);
            let found = english_runs(line);
            if !found.is_empty() {
                leaks.push(format!("{name}: {line}\n    English: {found:?}"));
            }
            // Chinese puts no space after a sentence's full stop; the one-line view's ` · ` is
            // a separator of its own.
            if let Some(gap) = english_sentence_gap(line) {
                leaks.push(format!("{name}: {line}\n    a space after `{gap}`"));
            }
        }
    }
    // Every zh snapshot of the suite, the near-miss previews' own lines among them.
    assert_eq!(files, all_snapshots().keys().filter(|n| n.contains(".zh.")).count());
    assert!(checked > 400 && fence_lines > 20, "only {checked} lines checked, {fence_lines} in fences");
    assert!(leaks.is_empty(), "{} zh lines hold English:\n{}", leaks.len(), leaks.join("\n"));
}

#[test]
fn the_english_check_finds_sentences_and_spares_identifiers() {
    assert_eq!(
        english_runs("- summary: old_text `timeout: 30` matches 3 places; nothing was staged."),
        vec!["nothing", "was", "places; nothing was staged."]
    );
    assert_eq!(
        english_runs("- summary: Staged change A from candidate A at line 12"),
        vec!["from", "at", "line", "Staged change A from candidate A at line"]
    );
    assert_eq!(english_runs("- guidance: 用 memo_commit(summary) 保存。Save it now."), vec!["it", "Save it now."]);
    // Short English the three-word rule misses: a label, a legend, one word of prose.
    assert_eq!(english_runs("[A] line 3, similarity 0.90:"), vec!["line", "similarity"]);
    assert_eq!(
        english_runs("[-only in yours-] {+only in the document+}"),
        vec!["only", "in", "only", "in", "the", "[-only in yours-] {+only in the document+}"]
    );
    assert_eq!(
        english_runs("- summary: 已读取第 1–2 行。Read-only: edits apply to the draft."),
        vec!["to", "the", "edits apply to the draft."]
    );
    assert!(english_runs("- guidance: 调用 memo_replace_selection(selection_id=\"A\"–\"C\") 暂存其中一个。").is_empty());
    assert!(english_runs("- summary: 已提交 1 处变更：“Enable X and Y”。").is_empty());
    assert!(english_runs("### [Warning] 概览").is_empty());
    assert!(english_runs("- [A] 第 12 行：`database.timeout: 30` ← 推荐（基于上下文相关性）").is_empty());
    assert!(english_runs("[A] 第 3 行，相似度 0.90：").is_empty());
    assert!(english_runs("[OK] Success · PersistPending · 已在第 1 行暂存变更 A，±0 个字符。").is_empty());
    // Document text in a fence is left out; the response's own fence lines are not.
    assert!(is_document_line("12│ the rest of the line") && is_document_line("3│-x = 1") && is_document_line("+added line"));
    assert!(!is_document_line("[A] line 3, similarity 0.90:") && !is_document_line("line 1: ··host:·db.loc{+a+}l"));
    // A space after a full stop, or after a mark inside a sentence before a Han character.
    assert_eq!(english_sentence_gap("未做任何修改。 下一步"), Some('。'));
    assert_eq!(english_sentence_gap("出现在 b.md（第 1 行） 中"), Some('）'));
    assert_eq!(english_sentence_gap("已暂存。 · 候选 A"), None);
    assert_eq!(english_sentence_gap("（第 1 行） `x = 1`，在 a.md 中"), None);
}

/// docs/zh-sample.md shows the README's quick start in Chinese as the engine writes it: the
/// transcript there is this suite's `quick_start.zh.list.md`, byte for byte.
#[test]
fn the_zh_sample_in_docs_is_the_snapshot() {
    let sample = all_snapshots().remove("quick_start.zh.list.md").expect("the quick-start scenario");
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs").join("zh-sample.md")).unwrap();
    assert!(doc.contains(&sample), "docs/zh-sample.md no longer holds tests/snapshots/quick_start.zh.list.md: copy it in again");
}
