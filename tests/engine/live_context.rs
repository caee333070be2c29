//! Live context (docs/workflow.md#live-context) and the memory tools (docs/workflow.md#memory-store) through the workspace: what the block
//! holds after commits, failed saves and external changes, its size budget on a 10 MB document,
//! the anchor diff under a deadline, the editor state, and `memo_recall_context` /
//! `memo_search_memory`.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::live_context::{Anchor, EditorState, LineCol, LiveContextOptions, VersionKind};
use agentpad::memory::TurnRecord;
use agentpad::response::MemoryView;
use agentpad::Tool;
use agentpad::{Config, Locale, Status, WorkspaceError};
use common::Host;
use serde_json::json;

fn opts(now_ms: f64) -> LiveContextOptions {
    LiveContextOptions { now_ms, ..LiveContextOptions::default() }
}

/// A clock that never reaches the deadline.
fn frozen() -> impl FnMut() -> f64 {
    || 0.0
}

/// Applies a unified diff (as `patch -p1` would, hunks in order) to `old`; panics on a hunk that
/// does not match, so a wrong patch fails the test.
fn apply_unified(old: &str, patch: &str) -> String {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let mut out = String::new();
    let mut at = 0usize; // next old line (0-based) not yet copied
    let mut lines = patch.lines().peekable();
    while let Some(l) = lines.next() {
        let Some(h) = l.strip_prefix("@@ -") else { continue };
        let start: usize = h.split([',', ' ']).next().unwrap().parse().unwrap();
        let start = if h.split(' ').next().unwrap().ends_with(",0") { start } else { start - 1 };
        while at < start {
            out.push_str(old_lines[at]);
            at += 1;
        }
        while let Some(&body) = lines.peek() {
            if body.starts_with("@@") {
                break;
            }
            lines.next();
            if body == "\\ No newline at end of file" {
                if out.ends_with('\n') {
                    out.pop();
                }
                continue;
            }
            let (tag, text) = body.split_at(1);
            match tag {
                " " => {
                    assert_eq!(old_lines[at].trim_end_matches('\n'), text, "context line {}", at + 1);
                    out.push_str(old_lines[at]);
                    at += 1;
                }
                "-" => {
                    assert_eq!(old_lines[at].trim_end_matches('\n'), text, "removed line {}", at + 1);
                    at += 1;
                }
                "+" => {
                    out.push_str(text);
                    out.push('\n');
                }
                _ => panic!("bad patch line {body:?}"),
            }
        }
    }
    for l in &old_lines[at..] {
        out.push_str(l);
    }
    out
}

#[test]
fn recent_diffs_list_commits_failures_and_external_changes_newest_first() {
    let mut h = Host::new(&[("config.yaml", "name: orders\ntimeout: 30\nretries: 3\n")]);
    h.call_at(1_760_013_296_000.0, "memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    h.call_at(1_760_013_296_000.0, "memo_commit", json!({"summary": "raise the timeout"}));
    h.call_at(1_760_013_300_000.0, "memo_replace", json!({"old_text": "retries: 3", "new_text": "retries: 5"}));
    h.fail_next_save = true;
    let failed = h.call_at(1_760_013_301_000.0, "memo_commit", json!({"summary": "more retries"}));
    assert_eq!(failed.status, Status::PersistFailure);
    h.call_at(1_760_013_302_000.0, "memo_revert", json!({"reason": "give up"}));
    h.external_write("config.yaml", "name: orders\ntimeout: 60\nretries: 3\nowner: ops\n");
    h.call_at(1_760_013_303_000.0, "memo_read", json!({})); // the silent reload happens here

    let ctx = h.ws.live_context(&opts(1_760_013_304_000.0), &mut frozen()).unwrap();
    let ids: Vec<&str> = ctx.recent_diffs.iter().map(|d| d.version_id.as_str()).collect();
    assert_eq!(ids, ["v2", "v2-failed", "v1"], "newest first; a failed save uses no number");
    let [external, failure, commit] = &ctx.recent_diffs[..] else { panic!() };
    assert_eq!(external.kind, VersionKind::External);
    assert!(external.patch.contains("+owner: ops\n"), "{}", external.patch);
    assert!(failure.is_error && failure.error.as_deref() == Some("disk full"), "{failure:?}");
    assert!(failure.patch.contains("-retries: 3\n+retries: 5\n"), "{}", failure.patch);
    assert_eq!((commit.kind, commit.is_error, commit.summary.as_str()), (VersionKind::Commit, false, "raise the timeout"));
    assert_eq!(commit.time, "2025-10-09T12:34:56Z");
    assert_eq!(commit.affected_lines, Some((2, 2)));
    assert_eq!(
        commit.patch,
        "--- a/config.yaml\n+++ b/config.yaml\n@@ -1,3 +1,3 @@\n name: orders\n-timeout: 30\n+timeout: 60\n retries: 3\n"
    );
    // The anchor (the text when opened) against now: both changes at once.
    let anchor = ctx.anchor_diff.as_ref().unwrap();
    assert_eq!((anchor.from_version.as_str(), anchor.to_version.as_str()), ("v0", "v2"));
    assert_eq!(apply_unified("name: orders\ntimeout: 30\nretries: 3\n", &anchor.patch), h.ws.text(None).unwrap());
    // Only the last N.
    let one = h.ws.live_context(&LiveContextOptions { recent_diffs: 1, ..opts(0.0) }, &mut frozen()).unwrap();
    assert_eq!(one.recent_diffs.len(), 1);

    let md = ctx.markdown(Locale::En);
    for needle in [
        "# Live Context\n",
        "## Current Document\n`config.yaml` — committed v2, 4 lines,",
        "## Recent Diffs (new→old)\n- Version: v2 · config.yaml · external change\n",
        "- Version: v2-failed · config.yaml · failed commit\n  Time: 2025-10-09T12:35:01Z\n  Summary: more retries\n  is_error: true — disk full\n",
        "## Anchor Diff\nconfig.yaml v0 → v2 (now)\n```diff\n",
        "## Editor State\n- Active file: `config.yaml`\n",
        "## Plan Hints\n- #6 memo_read → Success\n- #5 memo_revert → Success\n",
    ] {
        assert!(md.contains(needle), "missing {needle:?} in\n{md}");
    }
    let zh = ctx.markdown(Locale::Zh);
    for needle in [
        "# 实时上下文\n",
        "## 当前文档\n`config.yaml` — 已提交 v2，4 行，",
        "## 最近变更（新→旧）\n- 版本：v2 · config.yaml · 外部修改\n",
        "- 版本：v2-failed · config.yaml · 提交失败\n  时间：2025-10-09T12:35:01Z\n  摘要：more retries\n",
        "## 锚点差异\nconfig.yaml v0 → v2（当前）\n",
        "## 编辑器状态\n- 当前文件：`config.yaml`\n",
        "- 工作流：Idle，0 处待定变更\n",
    ] {
        assert!(zh.contains(needle), "missing {needle:?} in\n{zh}");
    }
    assert!(md.contains("- Workflow: Idle, 0 pending changes\n"), "{md}");
    assert_eq!(ctx.sections(Locale::En).concat().len() + ctx.sections(Locale::En).len() - 1, md.len(), "markdown = sections joined");
}

#[test]
fn anchors_by_commit_count_and_age() {
    let mut h = Host::new(&[("a.txt", "one\n")]);
    for (i, word) in ["two", "three", "four"].iter().enumerate() {
        let t = 1_000.0 * (i as f64 + 1.0);
        let prev = ["one", "two", "three"][i];
        h.call_at(t, "memo_replace", json!({"old_text": prev, "new_text": word}));
        h.call_at(t, "memo_commit", json!({"summary": format!("to {word}")}));
    }
    let anchor = |a: Anchor, now: f64| {
        let o = LiveContextOptions { anchor: a, ..opts(now) };
        h.ws.live_context(&o, &mut frozen()).unwrap().anchor_diff.map(|d| (d.from_version, d.patch))
    };
    let (v, p) = anchor(Anchor::CommitsBack(1), 0.0).unwrap();
    assert_eq!(v, "v2");
    assert!(p.contains("-three\n+four\n"), "{p}");
    assert_eq!(anchor(Anchor::CommitsBack(3), 0.0).unwrap().0, "v0");
    assert_eq!(anchor(Anchor::AgeMs(1_500.0), 3_000.0).unwrap().0, "v1", "the text as it was at t=1500");
    assert_eq!(anchor(Anchor::AgeMs(0.0), 3_000.0), None, "now against now: nothing to show");
    assert_eq!(anchor(Anchor::None, 0.0), None);
}

#[test]
fn a_ten_megabyte_document_stays_within_the_budget_and_the_anchor_diff_is_correct() {
    // ~10 MB of Markdown-like text with repeated boilerplate, then 1 % of its lines changed.
    let mut old = String::new();
    let mut i = 0;
    while old.len() < 10_000_000 {
        if i % 400 == 0 {
            old.push_str(&format!("## Section {i}\n"));
        }
        old.push_str(&format!("- item {i}: the quick brown fox jumps over the lazy dog\n"));
        old.push_str("  boilerplate: true\n");
        i += 1;
    }
    let new: String = old
        .split_inclusive('\n')
        .enumerate()
        .map(|(n, l)| if n % 100 == 37 { format!("{}EDITED\n", l.trim_end_matches('\n')) } else { l.to_string() })
        .collect();
    let mut h = Host::new(&[("big.md", &old)]);
    h.external_write("big.md", &new);
    h.call_at(5_000.0, "memo_replace", json!({"old_text": "- item 120000: the quick", "new_text": "- item 120000: a quick"}));

    let o = LiveContextOptions { max_diff_chars: 0, ..opts(6_000.0) };
    let ctx = h.ws.live_context(&o, &mut frozen()).unwrap();
    let doc = &ctx.current_document;
    assert!(!doc.complete && doc.view == "draft" && doc.pending_changes == 1);
    let focus = doc.focus_line.unwrap();
    assert!(
        doc.start_line <= focus && focus <= doc.end_line,
        "the window holds the last edit: {focus} in {}..{}",
        doc.start_line,
        doc.end_line
    );
    assert!(doc.text.contains("│ - item 120000: a quick"), "the staged text is shown");
    assert!(doc.text.chars().count() <= o.max_document_chars);
    assert!(!doc.headings.is_empty() && doc.headings[0].text == "Section 0");
    let anchor = ctx.anchor_diff.as_ref().unwrap();
    assert!(!anchor.coarse);
    assert_eq!(apply_unified(&old, &anchor.patch), new, "the anchor diff turns the opened text into the current one");
    let changed = anchor.patch.lines().filter(|l| l.starts_with('+') && !l.starts_with("+++")).count();
    assert_eq!(changed, new.lines().filter(|l| l.ends_with("EDITED")).count(), "minimal: only the changed lines");

    // With the default limits the whole block stays within its budget.
    let ctx = h.ws.live_context(&opts(6_000.0), &mut frozen()).unwrap();
    let md = ctx.markdown(Locale::En);
    let budget = opts(0.0).budget_chars(0, 0, 0);
    assert!(md.chars().count() <= budget, "{} chars > budget {budget}", md.chars().count());
    assert!(ctx.recent_diffs[0].omitted_lines > 0 && md.contains("more lines of this diff left out"));
}

#[test]
fn a_passed_deadline_makes_the_anchor_diff_coarse_but_still_correct() {
    let old: String = (0..20_000).map(|i| format!("line {i} of the document\n")).collect();
    let new: String =
        old.split_inclusive('\n').enumerate().map(|(n, l)| if n % 50 == 3 { "changed\n".to_string() } else { l.to_string() }).collect();
    let mut h = Host::new(&[("f", &old)]);
    h.external_write("f", &new);
    h.call("memo_read", json!({"start_line": 1, "end_line": 1}));
    let o = LiveContextOptions { max_diff_chars: 0, diff_deadline_ms: 10.0, ..opts(0.0) };
    let mut t = 0.0;
    let mut ticking = || {
        t += 4.0; // every question costs 4 ms: the budget ends after two
        t
    };
    let ctx = h.ws.live_context(&o, &mut ticking).unwrap();
    let (fine_ctx, coarse) = (h.ws.live_context(&o, &mut frozen()).unwrap(), ctx.anchor_diff.unwrap());
    let fine = fine_ctx.anchor_diff.unwrap();
    assert!(coarse.coarse && !fine.coarse);
    // Past the deadline the unique-line anchors still cut the texts into small pieces (they are
    // found in one linear pass): only the Myers runs inside pieces are skipped.
    assert!(coarse.patch.len() >= fine.patch.len());
    assert_eq!(apply_unified(&old, &coarse.patch), new);
    assert_eq!(apply_unified(&old, &fine.patch), new);
}

#[test]
fn editor_state_is_checked_and_reported() {
    let mut h = Host::new(&[("a.md", "# Title\nhello wörld 😀 end\n"), ("b.md", "x\n")]);
    let bad =
        h.ws.set_editor_state(EditorState { path: Some("a.md".into()), cursor: Some(LineCol { line: 3, column: 1 }), selection: None });
    assert_eq!(bad, Err(WorkspaceError::BadPosition { what: "cursor line".into(), value: 3, min: 1, max: 2 }));
    assert_eq!(bad.unwrap_err().to_string(), "cursor line must be from 1 to 2, got 3");
    let bad =
        h.ws.set_editor_state(EditorState { path: Some("a.md".into()), cursor: Some(LineCol { line: 2, column: 20 }), selection: None });
    assert!(matches!(bad, Err(WorkspaceError::BadPosition { max: 19, .. })), "{bad:?}: 18 UTF-16 units, so columns 1..=19");
    assert!(matches!(
        h.ws.set_editor_state(EditorState { path: Some("nope".into()), ..Default::default() }),
        Err(WorkspaceError::NotOpen { .. })
    ));
    assert_eq!(h.ws.editor_state(), &EditorState::default(), "refused states change nothing");

    // Select `wörld 😀` (columns in UTF-16 units: the emoji is two).
    let sel = (LineCol { line: 2, column: 7 }, LineCol { line: 2, column: 15 });
    h.ws.set_editor_state(EditorState { path: Some("a.md".into()), cursor: Some(sel.1), selection: Some(sel) }).unwrap();
    let ctx = h.ws.live_context(&opts(0.0), &mut frozen()).unwrap();
    let e = &ctx.editor_state;
    assert_eq!(e.active_path, "a.md");
    assert_eq!(e.selection.as_ref().unwrap().text, "wörld 😀");
    assert_eq!(e.open_paths, ["a.md", "b.md"]);
    let md = ctx.markdown(Locale::En);
    assert!(md.contains("- Cursor: line 2, column 15\n- Selection: line 2, column 7 → line 2, column 15: `wörld 😀`\n"), "{md}");
    assert!(md.contains("- Open files: `a.md`, `b.md`\n"), "{md}");
    // The active document is the one shown, and a small one is shown whole.
    assert_eq!(ctx.current_document.path, "a.md");
    assert!(ctx.current_document.complete);
    assert_eq!(ctx.current_document.text, "1│ # Title\n2│ hello wörld 😀 end\n");
}

#[test]
fn the_task_tree_and_memory_digest_join_the_block() {
    let mut h = Host::new(&[("a", "x = 1\n")]);
    h.call("memo_begin_task", json!({"goal": "bump x"}));
    h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    h.call("memo_commit", json!({"summary": "x is 2"}));
    h.call("memo_begin_task", json!({"goal": "check y"}));
    h.ws.memory_add(TurnRecord {
        turn: 1,
        at_ms: 0.0,
        summary: "分析了代码库结构".into(),
        insights: vec![],
        context: "Files: a".into(),
        tags: vec![],
    })
    .unwrap();
    let md = h.ws.live_context(&opts(0.0), &mut frozen()).unwrap().markdown(Locale::En);
    assert!(md.contains("## Memory\n[Turn 1] 分析了代码库结构\n"), "{md}");
    assert!(md.ends_with("## Tasks\n- [#2] check y (current)\n🌳 Tasks finished in this session:\n- ✅ bump x\n"), "{md}");
}

fn memory_host() -> Host {
    let mut h = Host::with_config(&[("a", "x\n")], Config { memory: true, ..Config::default() });
    let turns = [
        (1, "分析了代码库结构，发现3个模块", "Files: main.ts, utils.ts, config.ts"),
        (2, "发现性能瓶颈", "benchmark.ts: parse() takes 80% of the time"),
        (3, "Optimised the parser", "utils.ts rewritten; parse() 5x faster"),
    ];
    for (turn, summary, context) in turns {
        let r = TurnRecord {
            turn,
            at_ms: f64::from(turn) * 1000.0,
            summary: summary.into(),
            insights: vec![],
            context: context.into(),
            tags: vec![],
        };
        h.ws.memory_add(r).unwrap();
    }
    h
}

#[test]
fn memory_tools_recall_and_search() {
    let mut h = memory_host();
    assert!(h.ws.visible_tools().contains(&Tool::RecallContext) && h.ws.visible_tools().contains(&Tool::SearchMemory));
    let r = h.call("memo_recall_context", json!({"turn_numbers": [2]}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let Some(MemoryView::Recall { turns }) = &r.memory else { panic!("{:?}", r.memory) };
    assert_eq!(turns.iter().map(|t| t.turn).collect::<Vec<_>>(), [2]);
    assert!(r.content.as_deref().unwrap().starts_with("[Turn 2] 发现性能瓶颈\nContext:\nbenchmark.ts"), "{:?}", r.content);

    let r = h.call("memo_search_memory", json!({"query": "性能"}));
    let Some(MemoryView::Search { hits, .. }) = &r.memory else { panic!("{}", r.markdown) };
    assert_eq!(hits.iter().map(|h| h.turn).collect::<Vec<_>>(), [2], "CJK bigram search");
    let r = h.call("memo_search_memory", json!({"query": "parse utils", "limit": 1}));
    let Some(MemoryView::Search { hits, .. }) = &r.memory else { panic!("{}", r.markdown) };
    assert_eq!(hits.len(), 1);

    let r = h.call("memo_recall_context", json!({"turn_numbers": [2, 9]}));
    assert_eq!(r.status, Status::NoMatch);
    assert!(r.summary.contains("unknown turn 9; the stored turns are 1 to 3"), "{}", r.summary);
    let r = h.call("memo_search_memory", json!({"query": "kubernetes"}));
    assert_eq!(r.status, Status::NoMatch);
    assert!(r.summary.contains("no stored turn (3 stored) contains any of its words"), "{}", r.summary);
}

#[test]
fn memory_tools_refuse_bad_arguments_and_are_hidden_without_a_store() {
    let mut h = memory_host();
    for (args, says) in [
        (json!({"turn_numbers": 2}), "must be an array of whole numbers like [2, 5], got number 2"),
        (json!({"turn_numbers": []}), "must be one of an array of 1 to 10 whole numbers"),
        (json!({"turn_numbers": [0]}), "must be at least 1, got 0"),
        (json!({"turn_numbers": ["2"]}), "got an item string \"2\""),
        (json!({}), "missing required argument `turn_numbers`"),
    ] {
        let r = h.call("memo_recall_context", args.clone());
        assert_eq!(r.status, Status::InvalidArguments, "{args}");
        assert!(r.summary.contains(says), "{args}: {}", r.summary);
    }
    let r = h.call("memo_search_memory", json!({"query": "x", "limit": 0}));
    assert_eq!(r.status, Status::InvalidArguments);

    let mut plain = Host::new(&[("a", "x\n")]);
    assert!(!plain.ws.visible_tools().contains(&Tool::RecallContext));
    let r = plain.call("memo_search_memory", json!({"query": "x"}));
    assert_eq!(r.status, Status::Blocked);
    assert!(r.summary.contains("this workspace has no memory store") && r.guidance.unwrap().contains("`memory` option"));
}
