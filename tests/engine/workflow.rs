//! The workflow state machine end to end (docs/workflow.md): every row of
//! the transition table, the visibility matrix, persist modes, failures, external
//! changes, atomic multi-document commits, and the nested-task example flow.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::Tool;
use agentpad::{CallContext, Config, LoadResult, PersistMode, PersistResult, Status, Step, WorkflowState, Workspace};
use common::Host;
use serde_json::json;

fn mode(m: PersistMode) -> Config {
    Config { persist_mode: m, ..Config::default() }
}

fn visible(h: &Host) -> Vec<Tool> {
    h.ws.visible_tools()
}

const THREE: &str = "db.timeout: 30\napi.timeout: 30\ncache.timeout: 30\n";

// ---- transitions, row by row ------------------------------------------------------------

#[test]
fn row_1_single_match_in_immediate_mode_stays_idle() {
    let mut h = Host::with_config(&[("a", "x = 1\n")], mode(PersistMode::Immediate));
    let r = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert_eq!((r.status, r.workflow_state), (Status::Success, WorkflowState::Idle), "{}", r.markdown);
    assert!(r.flags.names().is_empty());
    assert!(!visible(&h).contains(&Tool::ReplaceSelection));
    assert_eq!(h.stored("a"), "x = 2\n");
    assert!(r.summary.starts_with("Staged change A"), "{}", r.summary);
}

#[test]
fn row_2_single_match_in_manual_mode_is_persist_pending() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    let r = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert_eq!((r.status, r.workflow_state), (Status::Success, WorkflowState::PersistPending));
    assert_eq!(r.flags.names(), vec!["PersistPending"]);
    assert!(visible(&h).contains(&Tool::Commit));
    assert_eq!(h.stored("a"), "x = 1\n");
}

#[test]
fn row_3_multi_match_in_any_state_and_mode_is_selection_pending() {
    for m in [PersistMode::Manual, PersistMode::Immediate, PersistMode::Disabled] {
        let mut h = Host::with_config(&[("a", THREE)], mode(m));
        let r = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
        assert_eq!((r.status, r.workflow_state), (Status::MultiMatch, WorkflowState::SelectionPending), "{m:?}");
        assert!(r.flags.names().contains(&"SelectionPending"));
        let v = visible(&h);
        assert!(v.contains(&Tool::ReplaceSelection));
        for locked in [Tool::Append, Tool::Commit] {
            assert!(!v.contains(&locked), "{locked:?} must be locked in {m:?}");
        }
    }
    // from PersistPending too
    let mut h = Host::new(&[("a", THREE)]);
    h.call("memo_replace", json!({"old_text": "db.", "new_text": "database."}));
    let r = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert_eq!(r.workflow_state, WorkflowState::SelectionPending);
}

#[test]
fn row_4_and_5_choosing_a_candidate() {
    let mut h = Host::with_config(&[("a", THREE)], mode(PersistMode::Immediate));
    h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    let r = h.call("memo_replace_selection", json!({"selection_id": "B"}));
    assert_eq!((r.status, r.workflow_state), (Status::Success, WorkflowState::Idle), "{}", r.markdown);
    assert!(!r.flags.names().contains(&"SelectionPending"));
    assert_eq!(h.stored("a"), "db.timeout: 30\napi.timeout: 60\ncache.timeout: 30\n");

    let mut h = Host::new(&[("a", THREE)]);
    h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    let r = h.call("memo_replace_selection", json!({"selection_id": 2}));
    assert_eq!((r.status, r.workflow_state), (Status::Success, WorkflowState::PersistPending));
    assert_eq!(r.flags.names(), vec!["PersistPending"]);
    assert!(visible(&h).contains(&Tool::Commit));
}

#[test]
fn row_6_commit_succeeds() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    let r = h.call("memo_commit", json!({"summary": "bump"}));
    assert_eq!((r.status, r.workflow_state), (Status::Success, WorkflowState::Idle));
    assert!(r.flags.names().is_empty());
    assert_eq!(h.stored("a"), "x = 2\n");
}

#[test]
fn row_7_commit_fails_out_of_sync_with_the_draft_kept() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    h.fail_next_save = true;
    let r = h.call("memo_commit", json!({"summary": "bump"}));
    assert_eq!((r.status, r.workflow_state), (Status::PersistFailure, WorkflowState::OutOfSync));
    assert_eq!(r.flags.names(), vec!["OutOfSync"], "PersistPending removed, OutOfSync added");
    let g = r.guidance.clone().unwrap();
    for offered in ["memo_commit", "memo_diff(against=\"storage\")", "memo_persist_as", "memo_discard"] {
        assert!(g.contains(offered), "guidance offers {offered}: {g}");
    }
    let v = visible(&h);
    assert!(v.contains(&Tool::Diff) && v.contains(&Tool::Refresh) && v.contains(&Tool::PersistAs));
    // README "Workflow": committing again is the retry after a failed save.
    assert!(v.contains(&Tool::Commit));
    assert_eq!(h.ws.draft(None).unwrap(), "x = 2\n");
    assert_eq!(h.stored("a"), "x = 1\n");
}

#[test]
fn row_8_external_write_with_pending_changes_conflicts() {
    let mut h = Host::new(&[("a", "x = 1\ny = 1\n")]);
    h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert!(h.external_write("a", "x = 1\ny = 5\n"));
    assert_eq!(h.ws.state(), WorkflowState::OutOfSync);
    let r = h.call("memo_commit", json!({"summary": "bump"}));
    assert_eq!((r.status, r.workflow_state), (Status::ExternalConflict, WorkflowState::OutOfSync));
    assert_eq!(r.flags.names(), vec!["OutOfSync", "ExternalConflict"]);
    assert!(r.summary.contains("memo_commit was not run"), "{}", r.summary);
    let v = visible(&h);
    assert!(v.contains(&Tool::Diff) && v.contains(&Tool::Rebase));
    assert!(!v.contains(&Tool::Commit));
    let again = h.call("memo_commit", json!({"summary": "bump"}));
    assert_eq!(again.status, Status::Blocked);
    assert!(again.guidance.unwrap().contains("memo_rebase"));
    assert_eq!(h.stored("a"), "x = 1\ny = 5\n", "storage was never overwritten");
}

#[test]
fn row_8_external_write_without_pending_changes_reloads_silently() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_read", json!({}));
    assert!(h.external_write("a", "x = 7\n"));
    assert_eq!(h.ws.state(), WorkflowState::Idle);
    let r = h.call("memo_read", json!({}));
    assert_eq!(r.status, Status::Success);
    assert!(r.summary.starts_with("[a changed in storage (version v2) and was reloaded"), "{}", r.summary);
    assert!(r.content.unwrap().contains("x = 7"));
    let next = h.call("memo_read", json!({}));
    assert!(!next.summary.contains("changed in storage"), "said once");
    // our own save's echo is not an external change
    h.call("memo_replace", json!({"old_text": "7", "new_text": "8"}));
    h.call("memo_commit", json!({"summary": "s"}));
    let v = h.version("a");
    assert!(!h.ws.storage_changed("a", Some("x = 8\n"), Some(&v)));
}

#[test]
fn row_9_refresh_is_refreshing_until_storage_answers() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    let step = h.ws.call("memo_refresh", &json!({}), &CallContext::default());
    assert_eq!(step, Step::Load(vec!["a".into()]));
    assert_eq!(h.ws.state(), WorkflowState::Refreshing);
    assert!(h.ws.flags().names().contains(&"DiagnosticHint"));
    assert!(h.ws.visible_tools().is_empty(), "every tool hidden while refreshing");
    let r = h.drive(step);
    assert_eq!((r.status, r.workflow_state), (Status::Success, WorkflowState::Idle), "{}", r.markdown);
    assert!(r.summary.contains("dropped 1 pending change"));
    assert_eq!(h.ws.draft(None).unwrap(), "x = 1\n");
    let again = h.call("memo_refresh", json!({}));
    assert_eq!(again.status, Status::NoOp);
}

#[test]
fn calls_while_storage_works_are_blocked() {
    let mut ws = Workspace::new(Config::default());
    ws.open("a", "x\n", "v1").unwrap();
    let Step::Load(_) = ws.call("memo_refresh", &json!({}), &CallContext::default()) else { panic!("expected a load") };
    let Step::Done(r) = ws.call("memo_read", &json!({}), &CallContext::default()) else { panic!("expected done") };
    assert_eq!((r.status, r.workflow_state), (Status::Blocked, WorkflowState::Refreshing));
    // a completion of the wrong kind is refused and keeps waiting
    let Step::Done(wrong) = ws.complete_persist(vec![]) else { panic!() };
    assert_eq!(wrong.status, Status::InvalidArguments);
    assert_eq!(ws.state(), WorkflowState::Refreshing);
}

// ---- the visibility matrix ----------------------------------------------------------------

#[test]
fn visibility_matrix_per_state() {
    // Named, not `Tool::*`: a tool variant named like an imported type (`Status`) would clash.
    use Tool::{Append, BeginTask, Commit, CommitAuto, Diff, Discard, PersistAs, Read, Rebase, Refresh, Replace, ReplaceSelection};
    let names = |h: &Host| visible(h);
    let mut h = Host::new(&[("a", THREE)]);
    let idle = names(&h);
    for t in [Read, Replace, Append, Commit, Discard, Refresh, BeginTask] {
        assert!(idle.contains(&t), "Idle shows {t:?}");
    }
    for t in [ReplaceSelection, Diff, Rebase, PersistAs] {
        assert!(!idle.contains(&t), "Idle hides {t:?}");
    }
    h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    let sel = names(&h);
    for t in [Replace, ReplaceSelection, Discard, Refresh, Diff] {
        assert!(sel.contains(&t), "SelectionPending shows {t:?}");
    }
    // Nothing pending and none recommended: commit and commit_auto could not succeed
    // (tests/engine/retries.rs covers when they can).
    assert!(!sel.contains(&CommitAuto), "SelectionPending hides CommitAuto with nothing to save or take");
    for t in [Append, Commit, Rebase, PersistAs] {
        assert!(!sel.contains(&t), "SelectionPending hides {t:?}");
    }
    h.call("memo_replace_selection", json!({"selection_id": "A"}));
    let pending = names(&h);
    for t in [Replace, Append, Commit, Discard, Refresh, Diff] {
        assert!(pending.contains(&t), "PersistPending shows {t:?}");
    }
    assert!(!pending.contains(&ReplaceSelection));
    // a hidden tool answers Blocked with what to call instead, and changes nothing
    let before = h.ws.draft(None).unwrap();
    let r = h.call("memo_replace_selection", json!({"selection_id": "B"}));
    assert_eq!(r.status, Status::Blocked);
    assert!(r.guidance.unwrap().contains("memo_replace"));
    assert_eq!(h.ws.draft(None).unwrap(), before);
    // definitions handed to the LLM are exactly the visible tools
    assert_eq!(h.ws.tool_definitions().len(), pending.len());
}

#[test]
fn immediate_mode_commits_nothing_and_disabled_mode_is_read_only() {
    // Immediate mode: a commit answers that every edit is saved already (docs/workflow.md#persist-modes).
    let mut h = Host::with_config(&[("a", "x\n")], mode(PersistMode::Immediate));
    assert!(visible(&h).contains(&Tool::Commit) && !visible(&h).contains(&Tool::CommitAuto));
    assert_eq!(h.call("memo_commit", json!({"summary": "s"})).status, Status::NoOp);
    let mut h = Host::with_config(&[("a", "x = 1\n")], mode(PersistMode::Disabled));
    for state_call in [json!({}), json!({"old_text": "1", "new_text": "2"})] {
        let name = if state_call.as_object().unwrap().is_empty() { "memo_read" } else { "memo_replace" };
        let r = h.call(name, state_call);
        assert!(r.flags.names().contains(&"PersistReadOnly"), "{name}: PersistReadOnly is always set");
    }
    let c = h.call("memo_commit", json!({"summary": "in memory"}));
    assert!(c.summary.contains("not written to storage"), "{}", c.summary);
    let read = h.call("memo_read", json!({}));
    assert!(read.summary.ends_with("[Read-only: persistence is disabled, results stay in memory.]"), "read-only note: {}", read.summary);
    assert!(h.writes.is_empty());
    let as_file = h.call("memo_persist_as", json!({"new_path": "b"}));
    assert_eq!(as_file.status, Status::Blocked, "persist_as is hidden outside OutOfSync");
}

// ---- workflow scenarios -----------------------------------------------------------------------

#[test]
fn flow_5_3_persist_failure_then_diff_and_persist_as() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    h.failing_paths.push("a".into());
    let f = h.call("memo_commit", json!({"summary": "bump"}));
    assert_eq!(f.status, Status::PersistFailure);
    let d = h.call("memo_diff", json!({"against": "storage"}));
    assert_eq!(d.status, Status::Success, "{}", d.markdown);
    let patch = d.preview.unwrap();
    assert!(patch.contains("--- storage/a") && patch.contains("-x = 1") && patch.contains("+x = 2"), "{patch}");
    let saved = h.call("memo_persist_as", json!({"new_path": "a.recovered"}));
    assert_eq!(saved.status, Status::Success, "{}", saved.markdown);
    assert_eq!(h.stored("a.recovered"), "x = 2\n");
    assert!(h.ws.paths().contains(&"a.recovered".to_string()));
    assert_eq!(h.ws.state(), WorkflowState::OutOfSync, "a itself is still unsaved");
    // persist_as never overwrites: the path must be new
    let twice = h.call("memo_persist_as", json!({"new_path": "a.recovered"}));
    assert_eq!(twice.status, Status::InvalidArguments);
    h.failing_paths.clear();
    let retry = h.call("memo_commit", json!({"summary": "bump"}));
    assert_eq!((retry.status, retry.workflow_state), (Status::Success, WorkflowState::Idle));
    assert_eq!(h.stored("a"), "x = 2\n");
}

#[test]
fn flow_5_4_external_conflict_then_diff_rebase_and_commit() {
    let base = "title\n\nalpha = 1\nbeta = 1\ngamma = 1\n";
    let mut h = Host::new(&[("a", base)]);
    h.call("memo_replace", json!({"old_text": "alpha = 1", "new_text": "alpha = 2"})); // A
    h.call("memo_replace", json!({"old_text": "gamma = 1", "new_text": "gamma = 2"})); // B
    h.external_write("a", "title\n\nalpha = 1\nbeta = 1\ngamma = 9\ndelta = 1\n");
    let c = h.call("memo_replace", json!({"old_text": "beta = 1", "new_text": "beta = 2"}));
    assert_eq!(c.status, Status::ExternalConflict, "the edit is not run: {}", c.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "title\n\nalpha = 2\nbeta = 1\ngamma = 2\n");
    let d = h.call("memo_diff", json!({"against": "storage"}));
    let patch = d.preview.unwrap();
    assert!(patch.contains("-gamma = 9") && patch.contains("+gamma = 2"), "{patch}");
    let r = h.call("memo_rebase", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.starts_with("[Warning]") && r.summary.contains("change B:"), "B overlapped: {}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), "title\n\nalpha = 2\nbeta = 1\ngamma = 9\ndelta = 1\n");
    assert_eq!(r.workflow_state, WorkflowState::PersistPending);
    let ok = h.call("memo_commit", json!({"summary": "alpha"}));
    assert_eq!(ok.status, Status::Success, "{}", ok.markdown);
    assert_eq!(h.stored("a"), "title\n\nalpha = 2\nbeta = 1\ngamma = 9\ndelta = 1\n");
}

#[test]
fn flow_5_4_refresh_or_discard_drop_the_cache() {
    for tool in ["memo_refresh", "memo_discard"] {
        let mut h = Host::new(&[("a", "x = 1\n")]);
        h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
        h.external_write("a", "x = 5\n");
        let r = h.call(tool, json!({}));
        assert_eq!((r.status, r.workflow_state), (Status::Success, WorkflowState::Idle), "{tool}: {}", r.markdown);
        assert_eq!(h.ws.draft(None).unwrap(), "x = 5\n", "{tool}");
        assert_eq!(h.ws.version("a"), Some("v2"));
        assert!(r.flags.names().is_empty());
    }
}

#[test]
fn a_deleted_document_is_a_conflict_that_rebase_refuses() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    h.files.remove("a");
    assert!(h.ws.storage_changed("a", None, None));
    let r = h.call("memo_rebase", json!({}));
    assert_eq!(r.status, Status::Blocked, "{}", r.markdown);
    let saved = h.call("memo_persist_as", json!({"new_path": "a.kept"}));
    assert_eq!(saved.status, Status::Success, "{}", saved.markdown);
    assert_eq!(h.stored("a.kept"), "x = 2\n");
}

// ---- atomic multi-document commit ----------------------------------------------------------

#[test]
fn a_failed_save_restores_the_documents_already_written() {
    let mut h = Host::new(&[("a", "a = 1\n"), ("b", "b = 1\n"), ("c", "c = 1\n")]);
    for p in ["a", "b", "c"] {
        h.call("memo_replace", json!({"path": p, "old_text": "1", "new_text": "2"}));
    }
    h.failing_paths.push("b".into());
    let r = h.call("memo_commit", json!({"summary": "all three"}));
    assert_eq!((r.status, r.workflow_state), (Status::PersistFailure, WorkflowState::OutOfSync), "{}", r.markdown);
    assert!(r.summary.contains("Nothing was committed") && r.summary.contains("a (now version v3)"), "{}", r.summary);
    assert_eq!(h.stored("a"), "a = 1\n", "a was written, then restored");
    assert_eq!(h.stored("b"), "b = 1\n");
    assert_eq!(h.stored("c"), "c = 1\n", "c was never written");
    assert_eq!(h.writes.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), vec!["a", "a"]);
    assert_eq!(r.pending_changes.len(), 3, "every draft is kept");
    for (p, want) in [("a", "a = 2\n"), ("b", "b = 2\n"), ("c", "c = 2\n")] {
        assert_eq!(h.ws.draft(Some(p)).unwrap(), want);
    }
    h.failing_paths.clear();
    let ok = h.call("memo_commit", json!({"summary": "all three"}));
    assert_eq!(ok.status, Status::Success, "{}", ok.markdown);
    assert_eq!((h.stored("a"), h.stored("b"), h.stored("c")), ("a = 2\n", "b = 2\n", "c = 2\n"));
}

#[test]
fn a_failed_restore_is_reported_as_committed_after_all() {
    let mut ws = Workspace::new(Config::default());
    ws.open("a", "a = 1\n", "v1").unwrap();
    ws.open("b", "b = 1\n", "v1").unwrap();
    let ctx = CallContext::default();
    for p in ["a", "b"] {
        ws.call("memo_replace", &json!({"path": p, "old_text": "1", "new_text": "2"}), &ctx);
    }
    let Step::Persist(reqs) = ws.call("memo_commit", &json!({"summary": "s"}), &ctx) else { panic!() };
    assert_eq!(reqs.len(), 2);
    let step = ws.complete_persist(vec![
        PersistResult::Saved { path: "a".into(), version: "v2".into() },
        PersistResult::Failed { path: "b".into(), error: "locked".into() },
    ]);
    let Step::Persist(rollback) = step else { panic!("expected compensating writes, got {step:?}") };
    assert_eq!((rollback[0].path.as_str(), rollback[0].text.as_str(), rollback[0].expected_version.as_str()), ("a", "a = 1\n", "v2"));
    // Storage is read again for the document that failed (docs/workflow.md#saving): unchanged.
    let Step::Load(paths) = ws.complete_persist(vec![PersistResult::Failed { path: "a".into(), error: "gone".into() }]) else { panic!() };
    assert_eq!(paths, vec!["b".to_string()]);
    let Step::Done(r) = ws.complete_load(vec![LoadResult::Loaded { path: "b".into(), text: "b = 1\n".into(), version: "v1".into() }])
    else {
        panic!()
    };
    assert_eq!(r.status, Status::PersistFailure);
    assert!(r.summary.contains("a could not be restored"), "{}", r.summary);
    assert_eq!(ws.text(Some("a")).unwrap(), "a = 2\n", "the workspace says what storage holds");
    assert_eq!(ws.draft(Some("b")).unwrap(), "b = 2\n");
    assert_eq!(r.pending_changes.len(), 1);
}

// ---- tasks, commit_auto, export ------------------------------------------------------------

#[test]
fn example_flow_3_nested_tasks() {
    let mut h = Host::new(&[("deps.toml", "y = \"1.0\"\n")]);
    let t2 = h.call("memo_begin_task", json!({"goal": "add module Y"}));
    assert_eq!(t2.task_id.as_deref(), Some("1"));
    let t3 = h.call("memo_begin_task", json!({"goal": "check dependency versions", "parent_task_id": "1"}));
    assert_eq!(t3.task_stack.iter().map(|t| (t.task_id.as_str(), t.depth)).collect::<Vec<_>>(), vec![("1", 1), ("2", 2)]);
    assert!(
        t3.markdown.contains("### [Tasks] Task stack\n- [#1] add module Y (Active)\n  - [#2] check dependency versions (current)"),
        "{}",
        t3.markdown
    );
    let done = h.call("memo_commit", json!({"summary": "versions are fine", "auto_pop_task": true}));
    assert_eq!(done.status, Status::Success, "{}", done.markdown);
    assert!(done.summary.contains("Task #2 completed"), "{}", done.summary);
    assert_eq!(done.task_stack.len(), 1);
    h.call("memo_replace", json!({"old_text": "1.0", "new_text": "1.1"}));
    let main = h.call("memo_commit", json!({"summary": "module Y added"}));
    assert!(main.summary.contains("Task #1 completed"), "{}", main.summary);
    assert!(main.task_stack.is_empty());
    // The thought tree: #1 with the nested #2, as data and as Markdown.
    let tree: Vec<_> = main.task_tree.iter().map(|n| (n.task_id.as_str(), n.status.as_str(), n.children.len())).collect();
    assert_eq!(tree, vec![("1", "Completed", 1)]);
    assert_eq!(main.task_tree[0].children[0].summary.as_deref(), Some("versions are fine"));
    assert!(
        main.markdown.ends_with(
            "### [Tasks] Task stack\n🌳 Tasks finished in this session:\n- ✅ add module Y\n  └─ ✅ check dependency versions\n"
        ),
        "{}",
        main.markdown
    );
    assert_eq!(h.stored("deps.toml"), "y = \"1.1\"\n");
}

#[test]
fn task_depth_is_guarded_and_revert_marks_reverted() {
    let mut h = Host::new(&[("a", "x\n")]);
    for g in ["one", "two", "three"] {
        assert_eq!(h.call("memo_begin_task", json!({"goal": g})).status, Status::Success);
    }
    let deep = h.call("memo_begin_task", json!({"goal": "four"}));
    assert_eq!(deep.status, Status::Blocked);
    assert!(deep.summary.contains("depth 4, deeper than the limit of 3") && deep.guidance.unwrap().contains("Split"), "{}", deep.summary);
    let r = h.call("memo_revert", json!({"reason": "wrong approach"}));
    assert!(r.summary.contains("Task #3 reverted"), "{}", r.summary);
    assert_eq!(r.task_stack.len(), 2);
}

#[test]
fn commit_auto_stages_the_recommendation_and_summarises() {
    let text = "[db]\ntimeout: 30\n[api]\ntimeout: 30\n";
    let mut h = Host::new(&[("a", text)]);
    let m = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "search_after": "[api]"}));
    // one match after the anchor: staged directly, so commit_auto just commits
    assert_eq!(m.status, Status::Success);
    let c = h.call("memo_commit_auto", json!({}));
    assert_eq!(c.status, Status::Success, "{}", c.markdown);
    assert!(c.summary.contains("1 change in a: `timeout: 30` → `timeout: 60`"), "{}", c.summary);

    // no recommendation (no anchor, no staged change nearby, no task) → refused, nothing staged
    let mut h = Host::new(&[("a", THREE)]);
    let m = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert!(!m.candidates.iter().any(|c| c.recommended), "{}", m.markdown);
    let r = h.call("memo_commit_auto", json!({}));
    assert_eq!((r.status, r.workflow_state), (Status::Blocked, WorkflowState::SelectionPending));
    assert!(r.guidance.unwrap().contains("memo_replace_selection"));
    assert!(h.writes.is_empty() && r.pending_changes.is_empty());
}

#[test]
fn export_session_lists_every_call() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_read", json!({}));
    h.call("memo_replace", json!({"old_text": "nope", "new_text": "y"}));
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    h.call("memo_commit", json!({"summary": "s"}));
    let r = h.call("memo_export_session", json!({}));
    let log = r.session_log.unwrap();
    let got: Vec<(String, Option<Status>)> = log.iter().map(|e| (e.tool.clone(), e.status)).collect();
    assert_eq!(
        got,
        vec![
            ("memo_read".into(), Some(Status::Success)),
            ("memo_replace".into(), Some(Status::NoMatch)),
            ("memo_replace".into(), Some(Status::Success)),
            ("memo_commit".into(), Some(Status::Success)),
            ("memo_export_session".into(), None),
        ]
    );
    assert_eq!(log[2].args["new_text"], json!("2"));
    assert!(r.markdown.contains("### [Log] Session log\n| # | tool | status | at_ms | tool_call_id |"), "{}", r.markdown);
}

#[test]
fn the_task_goal_recommends_the_candidate_it_names() {
    let text = "# database\ntimeout: 30\n\n# api gateway\ntimeout: 30\n\n# cache\ntimeout: 30\n";
    let mut h = Host::new(&[("a", text)]);
    h.call("memo_begin_task", json!({"goal": "raise the api gateway timeout"}));
    let m = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    let rec: Vec<&str> = m.candidates.iter().filter(|c| c.recommended).map(|c| c.id.as_str()).collect();
    assert_eq!(rec, vec!["B"], "{}", m.markdown);
    assert!(m.summary.contains("Recommended: B (shares most words with the task goal)"), "{}", m.summary);
    // and memo_commit_auto takes it
    let c = h.call("memo_commit_auto", json!({}));
    assert_eq!(c.status, Status::Success, "{}", c.markdown);
    assert_eq!(h.stored("a"), text.replacen("gateway\ntimeout: 30", "gateway\ntimeout: 60", 1));
    assert!(c.summary.contains("Task #1 completed"), "{}", c.summary);
}

#[test]
fn a_read_during_a_pending_choice_marks_the_candidates() {
    let mut h = Host::new(&[("a", THREE)]);
    h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    let r = h.call("memo_read", json!({}));
    let content = r.content.unwrap();
    assert!(content.starts_with("1│ db.[[SEL#A]]timeout: 30[[/SEL#A]]\n2│ api.[[SEL#B]]timeout: 30[[/SEL#B]]\n"), "{content}");
    assert!(r.summary.contains("Candidates A, B, C are marked"), "{}", r.summary);
    // line keys are those of the text, not of the marked line
    let keyed = h.call("memo_read", json!({"line_keys": true})).content.unwrap();
    let plain = Host::new(&[("a", THREE)]).call("memo_read", json!({"line_keys": true})).content.unwrap();
    let key = |s: &str| s.lines().next().unwrap().split('│').next().unwrap().to_string();
    assert_eq!(key(&keyed), key(&plain));
    // the committed view and a read after the choice have no markers
    assert!(!h.call("memo_read", json!({"view": "committed"})).content.unwrap().contains("[[SEL#"));
    h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert!(!h.call("memo_read", json!({})).content.unwrap().contains("[[SEL#"));
}

#[test]
fn preview_formats_and_the_length_cap() {
    let text: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    let mut h = Host::with_config(&[("a", &text)], Config { max_preview_length: 40, ..Config::default() });
    h.call("memo_replace", json!({"old_text": "line 2\n", "new_text": "LINE 2\n"}));
    h.call("memo_replace", json!({"old_text": "line 20\nline 21\nline 22\nline 23\n", "new_text": "gone\n"}));
    let stats = h.call("memo_preview", json!({"format": "stats"})).preview.unwrap();
    // What differs: `line` → `LINE`, and four lines into `gone` (the final line break shared).
    assert!(stats.contains("+4/-4 chars") && stats.contains("+4/-31 chars") && stats.contains("total: 2 changes"), "{stats}");
    let diff = h.call("memo_preview", json!({"format": "diff", "context_lines": 1})).preview.unwrap();
    assert!(
        diff.starts_with(
            "--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@ change A\n line 1\n-line 2\n+LINE 2\n… 1 more line\n@@ -19,6 +19,3 @@ change B\n"
        ),
        "{diff}"
    );
    let full = h.call("memo_preview", json!({"format": "full"})).preview.unwrap();
    assert!(full.contains("\n20│-line 20\n") && full.contains("… "), "the 40-char cap cuts the long hunk: {full}");
    assert!(full.contains("more lines"), "{full}");
    let compact = h.call("memo_preview", json!({})).preview.unwrap();
    assert!(compact.contains("\n2│+LINE 2\n"), "{compact}");
    let bad = h.call("memo_preview", json!({"format": "fancy"}));
    assert_eq!(bad.status, Status::InvalidArguments);
    // memo_diff against the base is the unified diff
    let d = h.call("memo_diff", json!({}));
    assert!(d.preview.unwrap().starts_with("--- a/a\n+++ b/a\n@@ "));
}

#[test]
fn repeating_a_search_with_another_new_text_updates_the_default_replacement() {
    let mut h = Host::new(&[("a", THREE)]);
    h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    let again = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 90"}));
    assert_eq!(again.status, Status::MultiMatch);
    h.call("memo_replace_selection", json!({"selection_id": "C"}));
    assert_eq!(h.ws.draft(None).unwrap(), "db.timeout: 30\napi.timeout: 30\ncache.timeout: 90\n");
}

#[test]
fn feedback_from_the_playground() {
    // immediate mode: a failed save can be retried with commit (the only way there)
    let mut h = Host::with_config(&[("a", "x = 1\n")], mode(PersistMode::Immediate));
    h.fail_next_save = true;
    let f = h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    assert_eq!((f.status, f.workflow_state), (Status::PersistFailure, WorkflowState::OutOfSync));
    assert!(f.preview.as_deref().is_some_and(|p| p.contains("+x = 2")), "the edit's diff is shown: {:?}", f.preview);
    assert!(visible(&h).contains(&Tool::Commit));
    let retry = h.call("memo_commit", json!({"summary": "retry"}));
    assert_eq!((retry.status, retry.workflow_state), (Status::Success, WorkflowState::Idle), "{}", retry.markdown);
    // immediate mode: a saved edit shows its diff
    let ok = h.call("memo_replace", json!({"old_text": "2", "new_text": "3"}));
    assert!(ok.preview.unwrap().contains("+x = 3"));

    // a conflict is said in every response's summary, not only by the flags
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    h.external_write("a", "x = 5\n");
    h.call("memo_commit", json!({"summary": "s"})); // reports ExternalConflict
    let read = h.call("memo_read", json!({}));
    assert!(read.summary.starts_with("[Storage changed under your pending changes in a:"), "{}", read.summary);

    // disabled mode: in-memory commits survive an external change
    let mut h = Host::with_config(&[("a", "x = 1\n")], mode(PersistMode::Disabled));
    let staged = h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    assert!(staged.summary.contains("nothing is ever written") && !staged.summary.contains("saved until commit"), "{}", staged.summary);
    h.call("memo_commit", json!({"summary": "in memory"}));
    h.external_write("a", "x = 9\n");
    let read = h.call("memo_read", json!({}));
    assert!(read.summary.contains("your in-memory commits of it are kept"), "{}", read.summary);
    assert_eq!(h.ws.text(None).unwrap(), "x = 2\n");
    h.call("memo_refresh", json!({}));
    assert_eq!(h.ws.text(None).unwrap(), "x = 9\n");

    // no document → new_length is "-", and discard without a reason does not invent one
    let t = h.call("memo_begin_task", json!({"goal": "g"}));
    assert_eq!(t.metrics.new_length, None);
    // Nothing changed and nothing is selected: the Markdown has no Metrics table to show.
    assert!(!t.markdown.contains("### [Metrics]"), "{}", t.markdown);
    h.call("memo_replace", json!({"old_text": "9", "new_text": "8"}));
    let d = h.call("memo_discard", json!({}));
    assert!(d.summary.starts_with("Reverted: dropped 1 pending change."), "{}", d.summary);
}

#[test]
fn diagnostics_record_matches_persistence_and_external_changes() {
    use agentpad::diagnostics::Category;
    let mut h = Host::new(&[("a", THREE)]);
    // off by default: no records, no DiagnosticHint
    let r = h.call("memo_read", json!({}));
    assert!(!r.flags.names().contains(&"DiagnosticHint"));
    assert!(h.ws.take_diagnostics().is_empty());

    h.ws.set_diagnostics(Category::ALL);
    let m = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert!(m.flags.names().contains(&"DiagnosticHint"));
    assert!(m.guidance.as_deref().unwrap().contains("Diagnostics are on (TextEdit.MatchTrace, TextEdit.Persistence, TextEdit.External, TextEdit.Schema): the records of this call are op-2."), "{:?}", m.guidance);
    let d = h.ws.take_diagnostics();
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].category, d[0].operation_id.as_str(), d[0].status.as_deref()), (Category::MatchTrace, "op-2", Some("MultiMatch")));
    assert_eq!(d[0].detail["matches"], json!(3));
    assert_eq!(d[0].detail["lines"], json!([1, 2, 3]));
    assert_eq!(d[0].state.as_deref(), Some("SelectionPending"));

    h.call("memo_replace_selection", json!({"selection_id": "A"}));
    h.fail_next_save = true;
    let f = h.call("memo_commit", json!({"summary": "s"}));
    assert_eq!(f.status, Status::PersistFailure);
    let d = h.ws.take_diagnostics();
    let persistence: Vec<_> = d.iter().filter(|r| r.category == Category::Persistence).collect();
    assert_eq!(persistence.len(), 2, "{d:?}");
    assert_eq!(persistence[1].error.as_deref(), Some("a: disk full"));
    assert!(persistence.iter().all(|r| r.status.as_deref() == Some("PersistFailure")));

    h.call("memo_discard", json!({}));
    h.ws.take_diagnostics();
    h.external_write("a", "x\n");
    let d = h.ws.take_diagnostics();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].category, Category::External);
    assert_eq!(d[0].detail["action"], json!("reloaded: no pending changes"));
    assert_eq!(d[0].status, None);

    h.ws.set_diagnostics([]);
    assert!(!h.call("memo_read", json!({})).flags.names().contains(&"DiagnosticHint"));
}

#[test]
fn revert_during_a_conflict_takes_storage_text() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_replace", json!({"old_text": "1", "new_text": "2"}));
    h.external_write("a", "x = 5\n");
    let r = h.call("memo_revert", json!({"reason": "start over"}));
    assert_eq!((r.status, r.workflow_state), (Status::Success, WorkflowState::Idle), "{}", r.markdown);
    assert_eq!(h.ws.text(None).unwrap(), "x = 5\n");
    h.external_write("a", "x = 6\n");
    let c = h.call("memo_commit", json!({"summary": "nothing"}));
    assert_eq!(c.status, Status::NoOp, "no stale conflict report: {}", c.markdown);
}

#[test]
fn tool_states_list_every_tool_and_say_why_a_hidden_one_is_hidden_as_its_call_would() {
    let mut h = Host::new(&[("a", THREE)]);
    for step in [
        None,
        Some(("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}))), // SelectionPending
        Some(("memo_replace_selection", json!({"selection_id": "B"}))),                        // PersistPending
    ] {
        if let Some((tool, args)) = step {
            h.call(tool, args);
        }
        let states = h.ws.tool_states();
        assert_eq!(states.len(), Tool::ALL.len(), "every tool, hidden ones too");
        let available: Vec<String> = states.iter().filter(|s| s.available).map(|s| s.definition.name.clone()).collect();
        let visible: Vec<String> = visible(&h).into_iter().map(|t| t.name("memo")).collect();
        assert_eq!(available, visible, "available = offered in state {}", h.ws.state());
        for s in states.iter().filter(|s| !s.available) {
            let before = h.ws.state();
            let r = h.call(&s.definition.name, valid_args(&s.definition.input_schema));
            assert_eq!(r.status, Status::Blocked, "{} in {before}", s.definition.name);
            assert_eq!(s.reason.as_deref(), Some(r.summary.as_str()), "the reason is what the call says");
            assert_eq!(s.guidance.as_deref(), r.guidance.as_deref());
            assert!(s.available || s.reason.is_some());
        }
        assert!(states.iter().filter(|s| s.available).all(|s| s.reason.is_none() && s.guidance.is_none()));
    }
}

/// Arguments that pass `schema`: each required property with a value of its type (so that a call
/// reaches the visibility check, which comes after the argument check).
fn valid_args(schema: &serde_json::Value) -> serde_json::Value {
    let mut args = serde_json::Map::new();
    for name in schema["required"].as_array().into_iter().flatten().filter_map(|n| n.as_str()) {
        let p = &schema["properties"][name];
        let value = if let Some(first) = p["enum"].as_array().and_then(|e| e.first()) {
            first.clone()
        } else {
            match p["type"].as_str() {
                Some("integer") => json!(p["minimum"].as_i64().unwrap_or(1).max(1)),
                Some("array") => json!([1]),
                Some("boolean") => json!(false),
                Some("string") => json!("x"),
                _ => json!("A"),
            }
        };
        args.insert(name.to_string(), value);
    }
    serde_json::Value::Object(args)
}

// ---- the stable tool list (docs/workflow.md "Tools in every state") ------------------------

/// The definitions a host sends as its tool list, as JSON bytes: what a provider's prompt cache
/// keys on.
fn enabled_list(h: &Host) -> String {
    serde_json::to_string(&h.ws.enabled_tool_definitions()).unwrap()
}

#[test]
fn the_enabled_tool_list_is_byte_identical_in_all_five_states() {
    let mut h = Host::new(&[("a", THREE)]);
    let mut seen = vec![(h.ws.state(), enabled_list(&h), visible(&h).len())];
    // SelectionPending
    let r = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert_eq!(r.status, Status::MultiMatch, "{}", r.markdown);
    seen.push((h.ws.state(), enabled_list(&h), visible(&h).len()));
    // PersistPending
    h.call("memo_replace_selection", json!({"selection_id": "B"}));
    seen.push((h.ws.state(), enabled_list(&h), visible(&h).len()));
    // OutOfSync (an external change under a pending change)
    assert!(h.external_write("a", "db.timeout: 31\napi.timeout: 30\ncache.timeout: 30\n"));
    seen.push((h.ws.state(), enabled_list(&h), visible(&h).len()));
    // Refreshing (storage has not answered yet)
    let step = h.ws.call("memo_refresh", &json!({}), &CallContext::default());
    seen.push((h.ws.state(), enabled_list(&h), visible(&h).len()));
    let states: Vec<WorkflowState> = seen.iter().map(|s| s.0).collect();
    assert_eq!(
        states,
        [
            WorkflowState::Idle,
            WorkflowState::SelectionPending,
            WorkflowState::PersistPending,
            WorkflowState::OutOfSync,
            WorkflowState::Refreshing
        ]
    );
    for (state, list, _) in &seen[1..] {
        assert_eq!(list, &seen[0].1, "the list changed in {state:?}");
    }
    // ... while the visible subset does change with the state.
    let visible_counts: std::collections::BTreeSet<usize> = seen.iter().map(|s| s.2).collect();
    assert!(visible_counts.len() > 2, "{visible_counts:?}");
    h.drive(step);
}

#[test]
fn the_enabled_tool_list_follows_the_configuration_and_a_hidden_call_is_blocked_with_guidance() {
    let manual = Host::new(&[("a", "x\n")]);
    let immediate = Host::with_config(&[("a", "x\n")], mode(PersistMode::Immediate));
    let memory = Host::with_config(&[("a", "x\n")], Config { memory: true, ..Config::default() });
    let names = |h: &Host| h.ws.enabled_tool_definitions().into_iter().map(|d| d.name).collect::<Vec<_>>();
    assert!(names(&manual).contains(&"memo_commit_auto".to_string()) && !names(&manual).contains(&"memo_recall_context".to_string()));
    assert!(!names(&immediate).contains(&"memo_commit_auto".to_string()));
    assert!(names(&memory).contains(&"memo_recall_context".to_string()));
    // Listed but not valid now: Blocked, naming what to call instead, and nothing changes.
    let mut h = Host::new(&[("a", "x\n")]);
    assert!(names(&h).contains(&"memo_replace_selection".to_string()));
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::Blocked, "{}", r.markdown);
    assert!(r.guidance.is_some_and(|g| g.contains("memo_")));
    assert_eq!(h.ws.draft(None).unwrap(), "x\n");
}

#[test]
fn a_read_without_path_names_the_other_open_documents() {
    let mut h = Host::new(&[("notes.md", "n\n"), ("docs/b.txt", "b\n"), ("c.txt", "c\n")]);
    let r = h.call("memo_read", json!({}));
    assert!(r.summary.starts_with("Read lines 1–1 of notes.md"), "{}", r.summary);
    assert!(r.summary.ends_with("Other open documents: docs/b.txt, c.txt (pass `path` to read one)."), "{}", r.summary);
    let named = h.call("memo_read", json!({"path": "c.txt"}));
    assert!(!named.summary.contains("Other open documents"), "a read that named its path needs no list: {}", named.summary);
    let mut single = Host::new(&[("a", "x\n")]);
    assert!(!single.call("memo_read", json!({})).summary.contains("Other open documents"));
    let many: Vec<(String, String)> = (0..14).map(|i| (format!("f{i:02}.txt"), "x\n".to_string())).collect();
    let refs: Vec<(&str, &str)> = many.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let mut lots = Host::new(&refs);
    let r = lots.call("memo_read", json!({}));
    assert!(r.summary.contains("f01.txt, f02.txt") && r.summary.contains("f10.txt and 3 more"), "{}", r.summary);
}
