//! Matching (docs/architecture.md#matching) through the public API: every tier and every replace-like tool, table-driven where
//! the cases share a shape, each checking the status, the reported quality and the resulting
//! draft (or that nothing changed).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::{Config, Status, WorkflowState};
use common::Host;
use serde_json::{json, Value};

struct TierCase {
    name: &'static str,
    doc: &'static str,
    old: &'static str,
    new: &'static str,
    status: Status,
    quality: Option<&'static str>,
    /// The draft afterwards; `None`: unchanged.
    draft: Option<&'static str>,
}

#[test]
fn memo_replace_by_tier() {
    use Status::*;
    let cases = [
        TierCase {
            name: "exact",
            doc: "a = 1\n",
            old: "a = 1",
            new: "a = 2",
            status: Success,
            quality: Some("exact"),
            draft: Some("a = 2\n"),
        },
        TierCase {
            name: "trailing whitespace",
            doc: "fn a() {  \n}\n",
            old: "fn a() {\n}",
            new: "fn b() {\n}",
            status: Success,
            quality: Some("trailing_whitespace"),
            // The line's own trailing whitespace stays: the model changed only `a`.
            draft: Some("fn b() {  \n}\n"),
        },
        TierCase {
            name: "indentation, tabs stay tabs",
            doc: "fn f() {\n\tif x {\n\t\ty();\n\t}\n}\n",
            old: "if x {\n    y();\n}",
            new: "if x {\n    z();\n    w();\n}",
            status: Success,
            quality: Some("indentation"),
            draft: Some("fn f() {\n\tif x {\n\t\tz();\n\t\tw();\n\t}\n}\n"),
        },
        TierCase {
            name: "unicode look-alikes",
            doc: "say \u{201C}hi\u{201D} \u{2014} ok\n",
            old: "say \"hi\" - ok",
            new: "say \"bye\" - ok",
            status: Success,
            quality: Some("unicode"),
            // The quotes and the dash the model kept are the document's own.
            draft: Some("say \u{201C}bye\u{201D} \u{2014} ok\n"),
        },
        TierCase {
            name: "NBSP and full-width space",
            doc: "a\u{00A0}b\u{3000}c\n",
            old: "a b c",
            new: "abc",
            status: Success,
            quality: Some("unicode"),
            draft: Some("abc\n"),
        },
        TierCase {
            name: "whitespace runs",
            doc: "let  x =\t1;\n",
            old: "let x = 1;",
            new: "let x = 2;",
            status: Success,
            quality: Some("whitespace"),
            // The runs the model kept are the document's.
            draft: Some("let  x =\t2;\n"),
        },
        TierCase {
            name: "copied gutters, stripped from new_text too",
            doc: "one\ntwo\nthree\n",
            old: "   2│ two\n   3│ three",
            new: "   2│ TWO\n   3│ three",
            status: Success,
            quality: Some("gutter"),
            draft: Some("one\nTWO\nthree\n"),
        },
        TierCase {
            name: "line-key gutters",
            doc: "one\ntwo\n",
            old: "1#0000│ one",
            new: "uno",
            status: Success,
            quality: Some("gutter"),
            draft: Some("uno\ntwo\n"),
        },
        TierCase {
            name: "two fuzzy matches are candidates, never a pick",
            doc: "v = 1  \nw\nv = 1 \n",
            old: "v = 1\t",
            new: "v = 2",
            status: MultiMatch,
            quality: Some("trailing_whitespace"),
            draft: None,
        },
        TierCase {
            name: "a final line break the document lacks",
            doc: "a\nx = 1",
            old: "x = 1\n",
            new: "x = 2\n",
            status: Success,
            quality: Some("trailing_whitespace"),
            // new_text's final break is the one old_text assumed: the document still has none.
            draft: Some("a\nx = 2"),
        },
        TierCase {
            name: "elided middle: the lines the placeholder stands for stay",
            doc: "fn f() {\n    a();\n    b();\n    c();\n}\n",
            old: "fn f() {\n    // ... existing code ...\n    c();\n}",
            new: "fn f() {\n    // ... existing code ...\n    c();\n    d();\n}",
            status: Success,
            quality: Some("elided"),
            draft: Some("fn f() {\n    a();\n    b();\n    c();\n    d();\n}\n"),
        },
        TierCase {
            name: "elided middle with a bare ellipsis, new_text changing a piece",
            doc: "class S:\n    def a(self):\n        pass\n\n    def b(self):\n        return 1\n",
            old: "class S:\n    ...\n    def b(self):\n        return 1",
            new: "class S:\n    ...\n    def b(self):\n        return 2",
            status: Success,
            quality: Some("elided"),
            draft: Some("class S:\n    def a(self):\n        pass\n\n    def b(self):\n        return 2\n"),
        },
        TierCase {
            name: "a placeholder line the document holds is text: exact",
            doc: "def f():\n    ...\n",
            old: "def f():\n    ...",
            new: "def f():\n    return 1",
            status: Success,
            quality: Some("exact"),
            draft: Some("def f():\n    return 1\n"),
        },
        TierCase {
            name: "two elided regions are candidates, never a pick",
            doc: "fn f() {\n    a();\n}\nfn f() {\n    b();\n}\n",
            old: "fn f() {\n...\n}",
            new: "fn g() {\n...\n}",
            status: MultiMatch,
            quality: Some("elided"),
            draft: None,
        },
        TierCase {
            name: "elided old_text, new_text without its placeholder: refused, never written",
            doc: "fn f() {\n    a();\n    b();\n}\n",
            old: "fn f() {\n    ...\n}",
            new: "fn f() {\n    c();\n}",
            status: InvalidArguments,
            quality: None,
            draft: None,
        },
        TierCase {
            name: "needle at start",
            doc: "abc def",
            old: "abc",
            new: "X",
            status: Success,
            quality: Some("exact"),
            draft: Some("X def"),
        },
        TierCase {
            name: "needle at end",
            doc: "abc def",
            old: "def",
            new: "X",
            status: Success,
            quality: Some("exact"),
            draft: Some("abc X"),
        },
        TierCase {
            name: "overlapping occurrences",
            doc: "a-a-a-a",
            old: "a-a-a",
            new: "b",
            status: Success,
            quality: Some("exact"),
            draft: Some("b-a"),
        },
        // One exact match ending inside a word of the document: a candidate to confirm.
        TierCase {
            name: "a match that cuts a word",
            doc: "aaaa",
            old: "aaa",
            new: "b",
            status: StaleReference,
            quality: Some("exact"),
            draft: None,
        },
        TierCase {
            name: "one-line document",
            doc: "only",
            old: "only",
            new: "one",
            status: Success,
            quality: Some("exact"),
            draft: Some("one"),
        },
        TierCase { name: "empty document", doc: "", old: "x", new: "y", status: NoMatch, quality: None, draft: None },
        TierCase { name: "needle longer than document", doc: "ab", old: "abc\nabc", new: "y", status: NoMatch, quality: None, draft: None },
        TierCase {
            name: "different words are not fuzzy",
            doc: "let x = 1;\n",
            old: "const q = 99;",
            new: "y",
            status: NoMatch,
            quality: None,
            draft: None,
        },
    ];
    for c in cases {
        let mut h = Host::new(&[("a", c.doc)]);
        let r = h.call("memo_replace", json!({"old_text": c.old, "new_text": c.new}));
        assert_eq!(r.status, c.status, "{}: {}", c.name, r.markdown);
        if c.status != NoMatch {
            assert_eq!(r.match_quality.as_deref(), c.quality, "{}", c.name);
        }
        let fuzzy = c.quality.is_some_and(|q| q != "exact");
        assert_eq!(r.summary.starts_with("[Warning]"), fuzzy, "{}: {}", c.name, r.summary);
        if fuzzy {
            assert!(r.markdown.contains("### [Warning] Overview"), "{}", c.name);
        }
        let want = c.draft.map_or(c.doc.to_string(), str::to_string);
        assert_eq!(h.ws.draft(None).unwrap(), want, "{}", c.name);
        if c.status == MultiMatch {
            assert!(r.candidates.iter().all(|k| k.match_quality == c.quality.unwrap()), "{}", c.name);
            assert_eq!(r.workflow_state, WorkflowState::SelectionPending);
        }
    }
}

#[test]
fn crlf_documents_stay_crlf() {
    let mut h = Host::new(&[("a", "fn a() {\r\n    x();\r\n}\r\n")]);
    let r = h.call("memo_replace", json!({"old_text": "fn a() {\r\nx();", "new_text": "fn a() {\r\ny();"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.match_quality.as_deref(), Some("indentation"));
    h.call("memo_commit", json!({"summary": "y"}));
    assert_eq!(h.stored("a"), "fn a() {\r\n    y();\r\n}\r\n");
}

/// UTF-16 offsets of `s[..byte]`.
fn utf16_at(s: &str, byte: usize) -> usize {
    s[..byte].encode_utf16().count()
}

#[test]
fn candidate_offsets_slice_in_utf16_after_emoji_and_cjk() {
    let doc = "😀😀 中文 x = 1\n🎉 x = 1 中\n𝄞x = 1";
    let mut h = Host::new(&[("a", doc)]);
    let r = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    assert_eq!(r.status, Status::MultiMatch);
    let units: Vec<u16> = doc.encode_utf16().collect();
    let starts: Vec<usize> = doc.match_indices("x = 1").map(|(b, _)| utf16_at(doc, b)).collect();
    assert_eq!(r.candidates.iter().map(|c| c.context_start).collect::<Vec<_>>(), starts);
    for c in &r.candidates {
        assert_eq!(String::from_utf16(&units[c.context_start..c.context_end]).unwrap(), "x = 1");
    }
}

#[test]
fn search_after_counts_only_later_matches_and_a_missing_anchor_is_named() {
    let doc = "[a]\nk = 1\n[b]\nk = 1\n[c]\nk = 1\n";
    let mut h = Host::new(&[("a", doc)]);
    let r = h.call("memo_replace", json!({"old_text": "k = 1", "new_text": "k = 2", "search_after": "[b]"}));
    assert_eq!(r.status, Status::MultiMatch);
    assert_eq!(r.candidates.iter().map(|c| c.line).collect::<Vec<_>>(), vec![4, 6]);
    // The first match after the anchor is the clear recommendation.
    assert!(r.candidates[0].recommended && !r.candidates[1].recommended, "{}", r.markdown);
    let r = h.call("memo_replace", json!({"old_text": "k = 1", "new_text": "k = 2", "search_after": "[c]"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(r.pending_changes[0].line, 6);
    let r = h.call("memo_replace", json!({"old_text": "k = 1", "new_text": "k = 2", "search_after": "[zz]"}));
    assert_eq!(r.status, Status::NoMatch);
    assert!(r.summary.contains("`[zz]`"), "{}", r.summary);
}

#[test]
fn recommendation_prefers_the_candidate_near_the_last_edit_and_ties_recommend_nothing() {
    let mut doc = String::new();
    for i in 1..=100 {
        doc.push_str(&match i {
            10 => "edited = 1\n".to_string(),
            12 | 90 => "dup = 1\n".to_string(),
            _ => format!("line {i}\n"),
        });
    }
    let mut h = Host::new(&[("a", &doc)]);
    let none = h.call("memo_replace", json!({"old_text": "dup = 1", "new_text": "dup = 2"}));
    assert!(none.candidates.iter().all(|c| !c.recommended), "nothing known: no recommendation");
    h.call("memo_revert", json!({"reason": "start over"}));
    h.call("memo_replace", json!({"old_text": "edited = 1", "new_text": "edited = 2"}));
    let r = h.call("memo_replace", json!({"old_text": "dup = 1", "new_text": "dup = 2"}));
    let rec: Vec<usize> = r.candidates.iter().filter(|c| c.recommended).map(|c| c.line).collect();
    assert_eq!(rec, vec![12], "{}", r.markdown);
    assert!(r.summary.contains("Recommended: A"), "{}", r.summary);
}

#[test]
fn expected_occurrences_and_replace_all() {
    let doc = "t: 30\nx\nt: 30\nt: 30\n";
    let mut h = Host::new(&[("a", doc)]);
    let r = h.call("memo_replace", json!({"old_text": "t: 30", "new_text": "t: 60", "expected_occurrences": 2}));
    assert_eq!(r.status, Status::StaleReference);
    assert!(
        r.summary.contains("expected_occurrences is 2") && r.summary.contains("3 places") && r.summary.contains("1, 3, 4"),
        "{}",
        r.summary
    );
    assert_eq!(h.ws.draft(None).unwrap(), doc);
    let r = h.call("memo_replace", json!({"old_text": "t: 30", "new_text": "t: 60", "expected_occurrences": 3, "replace_all": true}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    // One pending change for the three places (the letters count changes, not places).
    assert_eq!(r.pending_changes.iter().map(|c| c.change_id.as_str()).collect::<Vec<_>>(), vec!["A"]);
    assert!(r.summary.contains("change A (3 places)"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), "t: 60\nx\nt: 60\nt: 60\n");
    // Fuzzy matches are never replaced all at once.
    let mut h = Host::new(&[("a", "v = 1 \nv = 1  \n")]);
    let r = h.call("memo_replace", json!({"old_text": "v = 1", "new_text": "v = 2", "replace_all": true}));
    assert_eq!(r.status, Status::Success, "exact matches inside the lines: {}", r.markdown);
    let mut h = Host::new(&[("a", "if a:\n\tv()\nif b:\n\tv()\n")]);
    let r = h.call("memo_replace", json!({"old_text": "  v()\n", "new_text": "  w()\n", "replace_all": true}));
    assert_eq!(r.status, Status::MultiMatch, "{}", r.markdown);
    assert!(r.summary.contains("replace_all needs exact matches"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), "if a:\n\tv()\nif b:\n\tv()\n");
}

#[test]
fn replace_span_tool() {
    let doc = "# A\nold 1\nold 2\n# B\nkeep\n";
    let mut h = Host::new(&[("a", doc)]);
    let r =
        h.call("memo_replace_span", json!({"old_span_start": "# A", "old_span_end": "# B", "new_text": "# A\nnew\n", "keep_end": true}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(!r.summary.starts_with("[Warning]"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), "# A\nnew\n# B\nkeep\n");

    // A dropped end marker that new_text does not restate is staged with a warning.
    let mut h = Host::new(&[("a", doc)]);
    let r = h.call("memo_replace_span", json!({"old_span_start": "# A", "old_span_end": "# B", "new_text": "# A\nnew"}));
    assert_eq!(r.status, Status::Success);
    assert!(
        r.summary.starts_with("[Warning]") && r.summary.contains("old_span_end `# B`") && r.summary.contains("keep_end=true"),
        "{}",
        r.summary
    );
    assert_eq!(h.ws.draft(None).unwrap(), "# A\nnew\nkeep\n");

    // keep_start keeps the start marker; several start markers → candidates; match_id picks.
    let doc = "## x\na\n## end\n## x\nb\n## end\n";
    let mut h = Host::new(&[("a", doc)]);
    let r = h.call(
        "memo_replace_span",
        json!({"old_span_start": "## x", "old_span_end": "## end", "new_text": "\nB\n", "keep_start": true, "keep_end": true}),
    );
    assert_eq!(r.status, Status::MultiMatch, "{}", r.markdown);
    assert_eq!(r.candidates.len(), 2);
    let r = h.call(
        "memo_replace_span",
        json!({"old_span_start": "## x", "old_span_end": "## end", "new_text": "\nB\n", "keep_start": true, "keep_end": true, "match_id": "B"}),
    );
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "## x\na\n## end\n## x\nB\n## end\n");

    // search_after picks the later section; an end marker that never follows is named.
    let mut h = Host::new(&[("a", doc)]);
    let r = h.call(
        "memo_replace_span",
        json!({"old_span_start": "## x", "old_span_end": "## end", "new_text": "## y\n", "search_after": "b\n", "keep_end": true}),
    );
    assert_eq!(r.status, Status::NoMatch, "the start must come after the anchor: {}", r.markdown);
    let r = h.call("memo_replace_span", json!({"old_span_start": "## x", "old_span_end": "## nope", "new_text": ""}));
    assert_eq!(r.status, Status::NoMatch);
    assert!(r.summary.contains("old_span_end `## nope` does not occur after"), "{}", r.summary);
    let r = h.call("memo_replace_span", json!({"old_span_start": "", "old_span_end": "x", "new_text": ""}));
    assert_eq!(r.status, Status::InvalidArguments);
    assert_eq!(h.ws.draft(None).unwrap(), doc);
}

#[test]
fn replace_selection_by_letter_or_number() {
    let doc = "t: 30\nt: 30\nt: 30\n";
    let mut h = Host::new(&[("a", doc)]);
    let hidden = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(hidden.status, Status::Blocked, "no choice pending: {}", hidden.markdown);
    assert!(!h.ws.tool_definitions().iter().any(|t| t.name == "memo_replace_selection"));
    h.call("memo_replace", json!({"old_text": "t: 30", "new_text": "t: 60"}));
    assert!(h.ws.tool_definitions().iter().any(|t| t.name == "memo_replace_selection"));
    let r = h.call("memo_replace_selection", json!({"selection_id": 2}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "t: 30\nt: 60\nt: 30\n");
    // After staging the state is PersistPending; the other letters stay usable via match_id.
    let r = h.call("memo_replace", json!({"old_text": "t: 30", "new_text": "t: 90", "match_id": "C"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "t: 30\nt: 60\nt: 90\n");

    let mut h = Host::new(&[("a", doc)]);
    h.call("memo_replace", json!({"old_text": "t: 30", "new_text": "t: 60"}));
    for bad in [json!({"selection_id": 0}), json!({"selection_id": 27}), json!({"selection_id": "a"}), json!({"selection_id": "D"})] {
        let r = h.call("memo_replace_selection", bad.clone());
        assert_eq!(r.status, Status::InvalidArguments, "{bad}: {}", r.markdown);
        assert!(r.summary.contains("selection_id"), "{}", r.summary);
        assert_eq!(r.workflow_state, WorkflowState::SelectionPending);
    }
    let r = h.call("memo_replace_selection", json!({"selection_id": "C", "new_text": "t: 45"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(h.ws.draft(None).unwrap(), "t: 30\nt: 30\nt: 45\n");
}

/// The line keys of a `line_keys` read, by line number.
fn keys(h: &mut Host) -> Vec<String> {
    let r = h.call("memo_read", json!({"line_keys": true}));
    r.content.unwrap().lines().map(|l| l.split('│').next().unwrap().trim().to_string()).collect()
}

#[test]
fn replace_lines_by_key() {
    let doc = "a\nb\nc\nd\n";
    let mut h = Host::new(&[("a", doc)]);
    let k = keys(&mut h);
    assert_eq!(k.len(), 4);
    assert!(k[1].starts_with("2#"), "{k:?}");
    let r = h.call("memo_replace_lines", json!({"start_key": k[1], "end_key": k[2], "new_text": "B\nC"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "a\nB\nC\nd\n");
    // The old key of line 2 no longer matches: refused, with the current keys.
    let r = h.call("memo_replace_lines", json!({"start_key": k[1], "new_text": "x"}));
    assert_eq!(r.status, Status::StaleReference, "{}", r.markdown);
    let now = keys(&mut h);
    assert!(r.content.as_deref().unwrap().contains(&now[1]), "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "a\nB\nC\nd\n");
    // Deleting whole lines; a key past the end; end before start.
    let r = h.call("memo_replace_lines", json!({"start_key": now[3], "new_text": ""}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(h.ws.draft(None).unwrap(), "a\nB\nC\n");
    let r = h.call("memo_replace_lines", json!({"start_key": "9#0000", "new_text": "x"}));
    assert_eq!(r.status, Status::StaleReference);
    assert!(r.summary.contains("line 9 does not exist"), "{}", r.summary);
    let r = h.call("memo_replace_lines", json!({"start_key": now[2], "end_key": now[0], "new_text": "x"}));
    assert_eq!(r.status, Status::InvalidArguments);
}

#[test]
fn append_and_every_tool_on_a_second_document() {
    let mut h = Host::new(&[("main.md", "main\n"), ("notes.md", "# Notes\nk: 1\nk: 1\n")]);
    let r = h.call("memo_append", json!({"text": "- new\n", "path": "notes.md"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = h.call("memo_replace", json!({"old_text": "# Notes", "new_text": "# Notes!", "path": "notes.md"}));
    assert_eq!(r.status, Status::Success);
    let r = h.call("memo_replace", json!({"old_text": "k: 1", "new_text": "k: 2", "path": "notes.md"}));
    assert_eq!(r.status, Status::MultiMatch);
    let r = h.call("memo_replace_selection", json!({"selection_id": "B", "path": "notes.md"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = h.call("memo_replace_span", json!({"old_span_start": "- ", "old_span_end": "new", "new_text": "* newer", "path": "notes.md"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = h.call("memo_read", json!({"line_keys": true, "path": "notes.md"}));
    let first = r.content.unwrap().lines().next().unwrap().split('│').next().unwrap().trim().to_string();
    let r = h.call("memo_replace_lines", json!({"start_key": first, "new_text": "# Title", "path": "notes.md"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(Some("notes.md")).unwrap(), "# Title\nk: 1\nk: 2\n* newer\n");
    assert_eq!(h.ws.draft(Some("main.md")).unwrap(), "main\n");
    let r = h.call("memo_append", json!({"text": "x", "path": "nope.md"}));
    assert_eq!(r.status, Status::InvalidArguments);
}

#[test]
fn near_miss_offers_a_candidate_that_stages_in_one_step() {
    let doc = "database:\n  host: db.local\n  timeout: 30\nretries: 5\n";
    let mut h = Host::new(&[("a", doc)]);
    let r = h.call("memo_replace", json!({"old_text": "timeout: 3O", "new_text": "timeout: 60"}));
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    assert_eq!(r.workflow_state, WorkflowState::SelectionPending);
    assert_eq!(r.candidates.len(), 1, "{}", r.markdown);
    let c = &r.candidates[0];
    assert!(c.match_quality.starts_with("similar:0."), "{}", c.match_quality);
    assert_eq!(c.line, 3);
    assert!(r.preview.as_deref().unwrap().contains("[A] line 3"), "{}", r.markdown);
    assert!(r.content.as_deref().unwrap().contains("\n3│   timeout: 30\n"), "small documents are shown whole: {}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc, "nothing is applied on similarity alone");
    // The change (3O → 60) is where the candidate differs (30): one token changed two ways.
    // The offer says the pick is refused, quoting both, the guidance does not send the model
    // to it, and nothing is recommended that would be; the pick (made anyway) is refused.
    assert!(!c.recommended, "{}", r.markdown);
    assert!(c.pick_refused && r.summary.contains("yours: `timeout: 60` · there: `timeout: 30`"), "{}", r.markdown);
    assert!(!r.guidance.as_deref().unwrap().contains("memo_replace_selection"), "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::StaleReference, "{}", r.markdown);
    assert!(r.summary.contains("yours: `timeout: 60` · there: `timeout: 30`"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), doc);
    // Sent as the document has it, it stages.
    let r = h.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "database:\n  host: db.local\n  timeout: 60\nretries: 5\n");
}

/// A near-miss pick applies only the change old_text → new_text to the candidate's own text:
/// an earlier edit the old_text does not know about stays, a misremembered token is not
/// injected, and `match_quality` says it was merged.
#[test]
fn near_miss_pick_applies_only_the_intended_change() {
    let doc = "def load(path):\n    with open(path) as handle:\n        data = handle.read()\n    return parse(data)\n";
    let mut h = Host::new(&[("a.py", doc)]);
    // An earlier edit the model forgot: parse → parse_all.
    let r = h.call("memo_replace", json!({"old_text": "return parse(data)", "new_text": "return parse_all(data)"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    // Stale old_text (still `parse`), and a misremembered `hadle`; the change is `.strip()`.
    let old = "        data = hadle.read()\n    return parse(data)";
    let new = "        data = hadle.read().strip()\n    return parse(data)";
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    assert_eq!(r.candidates.len(), 1, "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.match_quality.as_deref().is_some_and(|q| q.starts_with("similar:0.") && q.ends_with("+merged")), "{:?}", r.match_quality);
    assert!(r.summary.contains("only your change (old_text → new_text) was applied"), "{}", r.markdown);
    assert_eq!(
        h.ws.draft(None).unwrap(),
        "def load(path):\n    with open(path) as handle:\n        data = handle.read().strip()\n    return parse_all(data)\n"
    );
}

/// A picked near miss whose new_text adds an elision placeholder never writes it: the
/// placeholder is read as the lines of old_text it stands for (`b();` and the misremembered
/// `cc();`), so the change is the added `d();` — right next to the token the document differs
/// in, which the pick refuses.
#[test]
fn near_miss_pick_never_writes_a_placeholder() {
    let doc = "fn f() {\n    a();\n    b();\n    c();\n}\n";
    let mut h = Host::new(&[("a.rs", doc)]);
    let r = h.call(
        "memo_replace",
        json!({"old_text": "fn f() {\n    a();\n    b();\n    cc();\n}", "new_text": "fn f() {\n    a();\n    // ...\n    d();\n}"}),
    );
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::StaleReference, "{}", r.markdown);
    assert!(r.markdown.contains("after line 4: {+····d();⏎+}") && !r.markdown.contains("// ..."), "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc);
}

#[test]
fn near_misses_below_the_threshold_are_shown_but_not_offered() {
    let doc = "alpha beta gamma\n";
    let config = Config::from_json(&json!({"near_match_threshold": 0.99})).unwrap();
    let mut h = Host::with_config(&[("a", doc)], config);
    let r = h.call("memo_replace", json!({"old_text": "alpha betta gamma", "new_text": "x"}));
    assert_eq!(r.status, Status::NoMatch);
    assert!(r.candidates.is_empty());
    assert_eq!(r.workflow_state, WorkflowState::Idle);
    assert!(r.preview.as_deref().is_some_and(|p| p.contains("line 1")), "{}", r.markdown);
    for bad in [json!({"near_match_threshold": 0}), json!({"near_match_threshold": 1.5}), json!({"near_match_threshold": "high"})] {
        let e = Config::from_json(&bad).unwrap_err().to_string();
        assert!(e.contains("near_match_threshold") && e.contains("at most 1"), "{e}");
    }
}

#[test]
fn json_candidates_carry_their_quality() {
    let mut h = Host::new(&[("a", "x  = 1\nx =  1\n")]);
    let r = h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    let v: Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(v["candidates"][0]["match_quality"], json!("whitespace"));
    assert_eq!(v["match_quality"], json!("whitespace"));
    assert!(r.markdown.contains("[A] line 1: `x  = 1` · whitespace"), "{}", r.markdown);
}

/// An elided old_text (`...` for lines left out) lands on call 1: the lines around the marker
/// place the region (each once in it, in order), the elided lines stay, and the answer says how
/// it was found. Candidates when two regions qualify; a pick keeps its own elided lines.
#[test]
fn an_elided_old_text_lands_on_call_one_and_keeps_the_elided_lines() {
    let doc = "fn f() {\n    let a = 1;\n    let b = 2;\n    let c = 3;\n    done(a, b, c);\n}\n\nfn g() {\n    done(0, 0, 0);\n}\n";
    let mut h = Host::new(&[("a.rs", doc)]);
    let old = "fn f() {\n    let a = 1;\n    ...\n    done(a, b, c);\n}";
    let new = "fn f() {\n    let a = 1;\n    ...\n    done(a, b, c);\n    log(a);\n}";
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!((r.status, r.match_quality.as_deref()), (Status::Success, Some("elided")), "{}", r.markdown);
    assert!(r.summary.contains("Found with the lines your `...` stands for kept as they are (match_quality `elided`)"), "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc.replace("    done(a, b, c);\n}", "    done(a, b, c);\n    log(a);\n}"));

    // `}` after the marker: the nearest one, which closes f (g's is further, and a region
    // reaching it would hold `}` twice).
    let mut h = Host::new(&[("a.rs", doc)]);
    let r = h.call("memo_replace", json!({"old_text": "    let c = 3;\n    ...\n}", "new_text": "    let c = 4;\n    ...\n}"}));
    assert_eq!((r.status, r.match_quality.as_deref()), (Status::Success, Some("elided")), "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc.replace("let c = 3", "let c = 4"));

    // Two regions: candidates; the pick keeps the lines its own placeholder stands for, and a
    // new new_text without the placeholder is refused.
    let two = "fn f() {\n    one();\n}\nfn f() {\n    two();\n}\n";
    let mut h = Host::new(&[("a.rs", two)]);
    let r = h.call("memo_replace", json!({"old_text": "fn f() {\n...\n}", "new_text": "fn f() {\n...\n    last();\n}"}));
    assert_eq!((r.status, r.candidates.len()), (Status::MultiMatch, 2), "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "B", "new_text": "fn f() {\n    last();\n}"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    assert!(r.summary.contains("Nothing was changed") && r.guidance.as_deref().unwrap().contains("full block"), "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), two);
    let r = h.call("memo_replace_selection", json!({"selection_id": "B"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "fn f() {\n    one();\n}\nfn f() {\n    two();\n    last();\n}\n");

    // new_text that drops the placeholder would delete the lines it stands for: refused.
    let mut h = Host::new(&[("a.rs", doc)]);
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": "fn f() {\n    done(a, b, c);\n}"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    assert!(r.summary.contains("would delete the lines left out"), "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc);
}

/// An elided old_text whose anchor is not in the document as written is no match; its near
/// miss, picked, places that anchor at its clear-best near miss (one token misremembered) and
/// applies only the change: the anchor, unchanged by the model, stays as the document has it.
/// An anchor with no clear near miss places nothing, and its candidate is not offered (a pick
/// of it would be refused).
#[test]
fn near_miss_pick_of_an_elided_old_text_with_a_misremembered_anchor_keeps_the_document_s_anchor() {
    let doc = "fn f() {\n    let a = 1;\n    let b = 2;\n    let c = 3;\n    done(a, b, c);\n}\n\nfn g() {\n    done(0, 0, 0);\n}\n";
    // A low threshold: the test is about the pick, not about how similar an elided text reads.
    let config = Config::from_json(&json!({"near_match_threshold": 0.5})).unwrap();
    let mut h = Host::with_config(&[("a.rs", doc)], config.clone());
    let old = "fn f() {\n    let a = 10;\n    ...\n    done(a, b, c);\n}";
    let new = "fn f() {\n    let a = 10;\n    ...\n    done(a, b, c);\n    log(a);\n}";
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    assert!(!r.candidates.is_empty(), "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc.replace("done(a, b, c);\n", "done(a, b, c);\n    log(a);\n"));
    // An anchor written nowhere, not even nearly: no region, so no candidate to pick.
    let mut h = Host::with_config(&[("a.rs", doc)], config);
    let old = "fn f() {\n    let total = compute_everything(now);\n    ...\n    done(a, b, c);\n}";
    let new = "fn f() {\n    let total = compute_everything(now);\n    ...\n    done(a, b, c);\n    log(a);\n}";
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    assert!(r.candidates.is_empty(), "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc);
}

/// An over-escaped old_text (`\n` where the document has line breaks) picked as a near miss:
/// read as the characters, new_text the same way, and said so.
#[test]
fn near_miss_pick_of_an_over_escaped_old_text_reads_the_escapes() {
    let doc = "def render(name):\n    greeting = \"Hello, \" + name\n    return greeting\n";
    let mut h = Host::new(&[("a.py", doc)]);
    // `greting`: misremembered too, so the escape tier alone finds nothing; a near miss does.
    let old = r#"def render(name):\n    greting = \"Hello, \" + name"#;
    let new = r#"def render(name):\n    greting = \"Hi, \" + name"#;
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("were read as the characters"), "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc.replace("Hello", "Hi"));
}

/// The escape tier: an old_text over-escaped as a whole (`\n`, `\"` where the document has the
/// characters) found once is staged on the first call, new_text read the same way, and
/// `match_quality` says `unescaped`. A new_text with more escapes than old_text (it may add
/// real ones) is not guessed, nor is a text that occurs twice.
#[test]
fn the_escape_tier_reads_escapes_as_characters_when_that_is_unambiguous() {
    let doc = "def render(name):\n    greeting = \"Hello, \" + name\n    return greeting\n";
    let old = r#"def render(name):\n    greeting = \"Hello, \" + name"#;
    let mut h = Host::new(&[("a.py", doc)]);
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": r#"def render(name):\n    greeting = \"Hi, \" + name"#}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.match_quality.as_deref(), Some("unescaped"));
    assert!(r.summary.contains("only your change was applied"), "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc.replace("Hello", "Hi"));

    // new_text written with the document's own `\n` (in code): not unescaped a second time.
    let code = "x = s.indexOf('\\n');\ny = 1;\n";
    let mut h = Host::new(&[("a.js", code)]);
    let r = h.call("memo_replace", json!({"old_text": r#"x = s.indexOf('\\n');\ny = 1;"#, "new_text": "x = s.indexOf('\\n');\ny = 2;"}));
    assert_ne!(h.ws.draft(None).unwrap(), "x = s.indexOf('\n');\ny = 2;\n", "a line break written into the string: {}", r.markdown);

    // new_text adds an escape of its own (`\t`): escapes or characters is not clear.
    let mut h = Host::new(&[("a.py", doc)]);
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": r#"def render(name):\n    greeting = \"Hi,\t\" + name"#}));
    assert_ne!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc);

    // Twice in the document: not guessed.
    let twice = format!("{doc}{doc}");
    let mut h = Host::new(&[("a.py", twice.as_str())]);
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": "x"}));
    assert_ne!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), twice);
}

#[test]
fn an_indentation_match_re_indents_only_the_lines_the_change_touches() {
    // A Makefile recipe: tab then six spaces on its continuation lines; old_text sent with
    // spaces. Only the changed first line takes the re-indentation.
    let doc = "all: build\n\nbuild:\n\tgcc -o app main.c \\\n\t      util.c \\\n\t      io.c\n";
    let mut h = Host::new(&[("Makefile", doc)]);
    let old = "build:\n    gcc -o app main.c \\\n          util.c \\\n          io.c";
    let new = "build:\n    gcc -O2 -o app main.c \\\n          util.c \\\n          io.c\n    strip app";
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.match_quality.as_deref(), Some("indentation"));
    h.call("memo_commit", json!({"summary": "O2"}));
    assert_eq!(h.stored("Makefile"), "all: build\n\nbuild:\n\tgcc -O2 -o app main.c \\\n\t      util.c \\\n\t      io.c\n\tstrip app\n");
}

#[test]
fn nfc_and_nfd_are_one_tier_and_land_in_the_document_s_form() {
    // (document, old_text, new_text, the document afterwards)
    let cases = [
        // NFD document, NFC old_text: found on the first call; the kept é stays decomposed, and
        // so does the é new_text adds.
        (
            "title: Cafe\u{301} de Flore\ncity: Paris\n",
            "title: Caf\u{e9} de Flore\ncity: Paris",
            "title: Caf\u{e9} de Flore\ncity: Montr\u{e9}al",
            "title: Cafe\u{301} de Flore\ncity: Montre\u{301}al\n",
        ),
        // NFC document, NFD old_text: the kept é is the document's own.
        (
            "name = \"Jos\u{e9}\"\nage = 40\n",
            "name = \"Jose\u{301}\"\nage = 40",
            "name = \"Jose\u{301}\"\nage = 41",
            "name = \"Jos\u{e9}\"\nage = 41\n",
        ),
        // NFC Korean document, old_text in NFD (a syllable as its conjoining jamo, as macOS
        // file names and some clipboards write it): the jamo are no stable chars of the needle.
        (
            "title = \"\u{d55c}\u{ad6d}\u{c5b4}\"\nage = 40\n",
            "title = \"\u{1112}\u{1161}\u{11ab}\u{1100}\u{116e}\u{11a8}\u{110b}\u{1165}\"\nage = 40",
            "title = \"\u{1112}\u{1161}\u{11ab}\u{1100}\u{116e}\u{11a8}\u{110b}\u{1165}\"\nage = 41",
            "title = \"\u{d55c}\u{ad6d}\u{c5b4}\"\nage = 41\n",
        ),
    ];
    for (doc, old, new, after) in cases {
        let mut h = Host::new(&[("a.toml", doc)]);
        let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
        assert_eq!(r.match_quality.as_deref(), Some("normalization"));
        assert!(r.summary.starts_with("[Warning]"), "never silent: {}", r.summary);
        h.call("memo_commit", json!({"summary": "s"}));
        assert_eq!(h.stored("a.toml"), after);
    }
}

/// Candidates whose previews read the same get what tells them apart in the response's locale:
/// the line that encloses each (`in …` / `所在：…`) or the nearest line that differs
/// (`above: …` / `上方：…`). The quoted line stays as the document has it.
#[test]
fn what_tells_candidates_apart_is_worded_in_the_locale() {
    let enclosed = "function a() {\n  x = 1;\n}\nfunction b() {\n  x = 1;\n}\n";
    let headed = "# 数据库\ntimeout: 30\n\n# 缓存\ntimeout: 30\n";
    let cases = [
        ("en", "a.ts", enclosed, "x = 1;", ["x = 1; · in function a() {", "x = 1; · in function b() {"]),
        ("zh", "a.ts", enclosed, "x = 1;", ["x = 1; · 所在：function a() {", "x = 1; · 所在：function b() {"]),
        ("en", "a.txt", headed, "timeout: 30", ["timeout: 30 · above: # 数据库", "timeout: 30 · above: # 缓存"]),
        ("zh", "a.txt", headed, "timeout: 30", ["timeout: 30 · 上方：# 数据库", "timeout: 30 · 上方：# 缓存"]),
    ];
    for (locale, path, doc, old, previews) in cases {
        let config = Config::from_json(&json!({ "locale": locale })).unwrap();
        let mut h = Host::with_config(&[(path, doc)], config);
        let r = h.call("memo_replace", json!({"old_text": old, "new_text": "y"}));
        assert_eq!(r.status, Status::MultiMatch, "{locale} {path}");
        let got: Vec<&str> = r.candidates.iter().map(|c| c.preview.as_str()).collect();
        assert_eq!(got, previews, "{locale} {path}");
    }
}
