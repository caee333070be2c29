//! `memo_find` through the workspace (docs/tools.md#memo_find): lettered units, a pick that
//! replaces a whole unit, `memo_replace(within)`, `memo_read(unit)`, and bad input that changes
//! nothing.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::Tool;
use agentpad::{Status, WorkflowState};
use common::{utf16_to_byte, Host};
use serde_json::json;

const GUIDE: &str = "# Guide\n\nIntro.\n\n## Install\n\nRun the installer with retries.\n\n## Deploy\n\nUpload the build; set retries to 3.\n\n## Caching\n\nResults are cached for an hour.\n";

fn host() -> Host {
    Host::new(&[
        ("guide.md", GUIDE),
        ("app.py", "def load(path):\n    return open(path).read()\n\ndef save(path, data):\n    open(path, 'w').write(data)\n"),
    ])
}

#[test]
fn find_lists_units_as_lettered_candidates_with_their_text() {
    let mut h = host();
    let r = h.call("memo_find", json!({"query": "caching hour"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.workflow_state, WorkflowState::Idle, "listing awaits no choice");
    let a = &r.candidates[0];
    assert_eq!((a.id.as_str(), a.line, a.end_line), ("A", 13, Some(15)), "{}", r.markdown);
    assert!(a.recommended, "one clear best: {}", r.markdown);
    // The offsets are the unit's text in the draft (UTF-16, as JS slices).
    let text = &GUIDE[utf16_to_byte(GUIDE, a.context_start)..utf16_to_byte(GUIDE, a.context_end)];
    assert_eq!(text, "## Caching\n\nResults are cached for an hour.");
    assert!(r.markdown.contains("- [A] line 13: `→15 · Guide › Caching`"), "{}", r.markdown);
}

#[test]
fn two_close_units_are_listed_without_a_recommendation() {
    let mut h = host();
    let r = h.call("memo_find", json!({"query": "retries", "limit": 5}));
    let lines: Vec<usize> = r.candidates.iter().map(|c| c.line).collect();
    assert_eq!(lines.len(), 2, "{}", r.markdown);
    assert!(lines.contains(&5) || lines.contains(&7), "{}", r.markdown);
    assert!(!r.candidates.iter().any(|c| c.recommended), "{}", r.markdown);
}

#[test]
fn replace_selection_replaces_the_whole_unit() {
    let mut h = host();
    h.call("memo_find", json!({"query": "cached"}));
    assert!(h.ws.is_visible(Tool::ReplaceSelection));
    let r = h.call("memo_replace_selection", json!({"selection_id": "A", "new_text": "## Caching\n\nNothing is cached."}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(h.ws.draft(Some("guide.md")).unwrap().ends_with("## Caching\n\nNothing is cached.\n"));
    // Without new_text a unit pick is refused, nothing changes.
    h.call("memo_find", json!({"query": "deploy"}));
    let before = h.ws.draft(Some("guide.md")).unwrap();
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    assert!(r.summary.contains("new_text"), "{}", r.summary);
    assert_eq!(h.ws.draft(Some("guide.md")).unwrap(), before);
}

#[test]
fn within_confines_the_search_to_the_unit() {
    let mut h = host();
    // "retries" is in Install and Deploy: plain memo_replace finds two.
    let r = h.call("memo_replace", json!({"old_text": "retries", "new_text": "attempts", "preview_only": true}));
    assert_eq!(r.status, Status::MultiMatch, "{}", r.markdown);
    h.call("memo_revert", json!({"reason": "next"}));
    let r = h.call("memo_find", json!({"query": "deploy upload build"}));
    assert_eq!(r.candidates[0].line, 9, "{}", r.markdown);
    let r = h.call("memo_replace", json!({"old_text": "retries", "new_text": "attempts", "within": "A"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let draft = h.ws.draft(Some("guide.md")).unwrap();
    assert!(draft.contains("set attempts to 3") && draft.contains("installer with retries"), "{draft}");
    // The unit moved with the edit: it is still there for the next within.
    let r = h.call("memo_replace", json!({"old_text": "3", "new_text": "5", "within": "A"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    // Text outside the unit is not found within it.
    let r = h.call("memo_replace", json!({"old_text": "Intro.", "new_text": "x", "within": "A"}));
    assert_ne!(r.status, Status::Success, "{}", r.markdown);
    assert!(!h.ws.draft(Some("guide.md")).unwrap().contains("\nx\n"));
}

#[test]
fn within_and_unit_without_a_find_are_refused_clearly() {
    let mut h = host();
    let r = h.call("memo_replace", json!({"old_text": "Intro.", "new_text": "x", "within": "A"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    assert!(r.summary.contains("within=\"A\"") && r.guidance.as_deref().unwrap_or("").contains("memo_find(query)"), "{}", r.markdown);
    assert_eq!(h.ws.draft(Some("guide.md")).unwrap(), GUIDE);
    // A letter the last find did not list.
    h.call("memo_find", json!({"query": "caching", "limit": 1}));
    let r = h.call("memo_read", json!({"unit": "C"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
}

#[test]
fn read_unit_reads_its_lines() {
    let mut h = host();
    h.call("memo_find", json!({"query": "install"}));
    let r = h.call("memo_read", json!({"unit": "A"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.content.as_deref(), Some("5│ ## Install\n6│ \n7│ Run the installer with retries.\n"), "{}", r.markdown);
}

#[test]
fn code_functions_are_units() {
    let mut h = host();
    let r = h.call("memo_find", json!({"query": "save data", "path": "app.py"}));
    assert_eq!((r.candidates[0].line, r.candidates[0].end_line), (4, Some(5)), "{}", r.markdown);
}

#[test]
fn a_chinese_query_finds_the_chinese_paragraph() {
    let mut h = Host::new(&[("说明.md", "# 说明\n\n本项目使用缓存来加速构建。\n\n部署时需要配置数据库连接。\n")]);
    let r = h.call("memo_find", json!({"query": "数据库"}));
    assert_eq!(r.candidates[0].line, 5, "{}", r.markdown);
}

#[test]
fn bad_input_gets_a_clear_status_and_changes_nothing() {
    let mut h = host();
    for (args, status) in [
        (json!({"query": "  "}), Status::InvalidArguments),
        (json!({"query": "·—!"}), Status::InvalidArguments),
        (json!({"query": "x", "limit": 0}), Status::InvalidArguments),
        (json!({"query": "install", "path": "nope.md"}), Status::InvalidArguments),
        (json!({"query": "kubernetes"}), Status::NoMatch),
    ] {
        let r = h.call("memo_find", args.clone());
        assert_eq!(r.status, status, "{args}: {}", r.markdown);
        assert!(r.guidance.is_some(), "{args}: guidance says what to do");
        assert_eq!(h.ws.draft(Some("guide.md")).unwrap(), GUIDE);
        assert!(!h.ws.is_visible(Tool::ReplaceSelection), "{args}: no units listed");
    }
}

/// A fake embedder: one dimension per topic, 1 when the text holds one of its words ("ship"
/// and "upload" mean deploy to it), and a small constant one.
fn embed(texts: &[String]) -> Vec<Vec<f32>> {
    const TOPICS: [&[&str]; 4] = [&["install"], &["deploy", "ship", "upload"], &["cach"], &["intro"]];
    let has = |t: &str, words: &[&str]| words.iter().any(|w| t.to_lowercase().contains(w));
    texts.iter().map(|t| TOPICS.iter().map(|words| if has(t, words) { 1.0 } else { 0.0 }).chain([0.1]).collect()).collect()
}

#[test]
fn embeddings_are_asked_of_the_host_cached_and_combined() {
    use agentpad::{CallContext, Step};
    let mut h = host();
    // No unit holds "ship" or "it": by words nothing scores; the query's vector says Deploy.
    assert_eq!(h.call("memo_find", json!({"query": "ship it"})).status, Status::NoMatch);
    h.ws.set_embedder(true);
    let ctx = CallContext::default();
    let Step::Embed(texts) = h.ws.call("memo_find", &json!({"query": "ship it"}), &ctx) else { panic!("an embed step") };
    assert_eq!(texts.last().map(String::as_str), Some("ship it"), "the query comes last");
    let asked = texts.len();
    assert!(asked > 2, "{texts:?}");
    let Step::Done(r) = h.ws.complete_embed(Ok(embed(&texts))) else { panic!("done") };
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.candidates[0].line, 9, "{}", r.markdown);
    // The same units again: only the query is asked for.
    let Step::Embed(texts) = h.ws.call("memo_find", &json!({"query": "install"}), &ctx) else { panic!("an embed step") };
    assert_eq!(texts, ["install"]);
    // A broken answer (wrong count) ranks by words alone and says so; nothing else changes.
    let Step::Done(r) = h.ws.complete_embed(Ok(vec![vec![1.0], vec![1.0]])) else { panic!("done") };
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("ranked by words alone"), "{}", r.summary);
    assert_eq!(r.candidates[0].line, 5, "{}", r.markdown);
    // A completion nobody waits for is refused.
    let Step::Done(r) = h.ws.complete_embed(Ok(vec![])) else { panic!("done") };
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    assert_eq!(h.ws.draft(Some("guide.md")).unwrap(), GUIDE);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..proptest::prelude::ProptestConfig::default() })]
    /// Any text, any query: memo_find answers, its candidates' offsets lie in the draft, and a
    /// whole-unit pick or a `within` edit of what it listed never panics.
    #[test]
    fn find_and_its_picks_never_panic(
        text in "(?s)[a-zA-Z_ #\\-*`{}():\n\t\r文件配置é]{0,300}",
        query in "[a-zA-Z 文件配置]{0,12}",
        code in proptest::prelude::any::<bool>(),
    ) {
        let path = if code { "x.rs" } else { "x.md" };
        let mut h = Host::new(&[(path, &text)]);
        let r = h.call("memo_find", json!({"query": query, "limit": 3}));
        let draft = h.ws.draft(None).unwrap();
        let len = draft.encode_utf16().count();
        for c in &r.candidates {
            proptest::prop_assert!(c.context_start <= c.context_end && c.context_end <= len, "{c:?}");
            proptest::prop_assert!(c.end_line.unwrap_or(c.line) >= c.line);
        }
        if !r.candidates.is_empty() {
            h.call("memo_replace", json!({"old_text": "a", "new_text": "b", "within": "A"}));
            h.call("memo_read", json!({"unit": "A"}));
            h.call("memo_replace_selection", json!({"selection_id": "A", "new_text": "y"}));
        }
    }
}
