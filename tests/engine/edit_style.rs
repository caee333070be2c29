//! Imperfect edits written in the document's own style, through the public API
//! (docs/architecture.md#matching): indentation, look-alikes, trailing whitespace; an old_text
//! from another open document; copied gutters.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::Status;
use common::Host;
use serde_json::json;

fn replaced(doc: &str, old: &str, new: &str) -> String {
    let mut h = Host::new(&[("a.txt", doc)]);
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    h.ws.draft(None).unwrap()
}

#[test]
fn kept_text_is_written_in_the_documents_characters() {
    // Trailing whitespace: kept on the lines the model kept, gone with the line it rewrote.
    assert_eq!(replaced("x\nalpha   \nbeta\t\ny\n", "alpha\nbeta", "ALPHA\nBETA"), "x\nALPHA\nBETA\ny\n");
    assert_eq!(replaced("x\nalpha   \nbeta\t\ny\n", "alpha\nbeta", "alpha\nbeta = 2"), "x\nalpha   \nbeta = 2\t\ny\n");
    // Look-alikes: the curly quotes and the dash stay; the model's new quote is its own.
    assert_eq!(
        replaced("It\u{2019}s \u{201C}done\u{201D} \u{2014} ok.\n", "It's \"done\" - ok.", "It's \"done\" - ok, 'really'."),
        "It\u{2019}s \u{201C}done\u{201D} \u{2014} ok, 'really'.\n"
    );
    // Indentation: tabs stay tabs, and the block's inner nesting is kept.
    assert_eq!(
        replaced("fn f() {\n\tif a {\n\t\tb();\n\t}\n}\n", "if a {\n  b();\n}", "if a {\n  b();\n  if c {\n    d();\n  }\n}"),
        "fn f() {\n\tif a {\n\t\tb();\n\t\tif c {\n\t\t\td();\n\t\t}\n\t}\n}\n"
    );
    // Two-space documents stay two-space when the model wrote four.
    assert_eq!(replaced("a:\n  b:\n    c: 1\n", "b:\n    c: 1", "b:\n    c: 2\n    d: 3"), "a:\n  b:\n    c: 2\n    d: 3\n");
}

#[test]
fn a_document_without_a_final_line_break_keeps_it_absent() {
    assert_eq!(replaced("q\nx = 1", "x = 1\n", "x = 2\n"), "q\nx = 2");
    // Lines added after the last one: joined by breaks, none at the end.
    assert_eq!(replaced("q\na", "a\n", "a\nb\n"), "q\na\nb");
    assert_eq!(replaced("q\na", "a\n", "b\na\n"), "q\nb\na");
}

#[test]
fn a_line_after_blank_lines_keeps_its_own_depth_when_new_text_drops_a_line() {
    // Four-space document, two-space old_text; new_text deletes `b()`, so `def g():` sits where
    // old_text had a blank line: it keeps column 0, not the blank line's borrowed shift.
    let doc = "class A:\n    def f(self):\n        a()\n        b()\n\n\ndef g():\n    pass\n";
    assert_eq!(
        replaced(doc, "  def f(self):\n    a()\n    b()\n\n\ndef g():", "  def f(self):\n    a()\n\n\ndef g():"),
        "class A:\n    def f(self):\n        a()\n\n\ndef g():\n    pass\n"
    );
}

#[test]
fn an_old_text_from_another_open_document_is_named_not_edited() {
    let mut h = Host::new(&[("a.rs", "fn a() {}\n"), ("b.rs", "fn x() {}\nfn b() { 1 }\n")]);
    let r = h.call("memo_replace", json!({"old_text": "fn b() { 1 }", "new_text": "fn b() { 2 }", "path": "a.rs"}));
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    let guidance = r.guidance.clone().unwrap_or_default();
    assert!(guidance.contains("b.rs (line 2)") && guidance.contains("path=\"b.rs\""), "{guidance}");
    assert_eq!(h.ws.draft(Some("a.rs")).unwrap(), "fn a() {}\n");
    assert_eq!(h.ws.draft(Some("b.rs")).unwrap(), "fn x() {}\nfn b() { 1 }\n");
    // Text found nowhere names no document.
    let r = h.call("memo_replace", json!({"old_text": "fn zzz() { 9 }", "new_text": "x", "path": "a.rs"}));
    assert!(!r.guidance.unwrap_or_default().contains("b.rs"));
}

#[test]
fn pipe_gutters_copied_on_every_line_are_stripped_unless_the_document_holds_them() {
    let doc = "one\ntwo\nthree\n";
    let mut h = Host::new(&[("a.txt", doc)]);
    let r = h.call("memo_replace", json!({"old_text": "2 | two\n3 | three", "new_text": "2 | TWO\n3 | three"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "one\nTWO\nthree\n");
    // A document that holds the lines with their pipes is edited as text.
    let table = "1 | a\n2 | b\n";
    let mut h = Host::new(&[("t.md", table)]);
    let r = h.call("memo_replace", json!({"old_text": "1 | a\n2 | b", "new_text": "1 | a\n2 | c"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), "1 | a\n2 | c\n");
}

#[test]
fn a_pick_whose_change_is_already_there_says_so_instead_of_refusing() {
    let doc = "fn main() {\n    let timeout = 60;\n    let retries = 5;\n    run(timeout, retries);\n}\n";
    let mut h = Host::new(&[("a.rs", doc)]);
    let old = "    let timeout = 30;\n    let retries = 5;\n    run(timeout, retries);";
    let new = "    let timeout = 60;\n    let retries = 5;\n    run(timeout, retries);";
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    assert!(!r.candidates.is_empty(), "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::NoOp, "{}", r.markdown);
    assert!(r.summary.contains("already there"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), doc);
    // A change that is not there yet, over drift it overlaps, is still refused.
    let drifted = "fn main() {\n    let timeout = 45;\n    let retries = 5;\n    run(timeout, retries);\n}\n";
    let mut h = Host::new(&[("a.rs", drifted)]);
    h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_eq!(r.status, Status::StaleReference, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), drifted);
}

mod reindent_property {
    use super::*;
    use proptest::prelude::*;

    fn indent(unit: &str, depth: usize) -> String {
        unit.repeat(depth)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// A block copied with another indent unit (2 or 4 spaces, or tabs) and at another
        /// depth lands in the document's unit and depth, every line at its own level, lines the
        /// model inserted (at a level the block has) included.
        #[test]
        fn reindented_new_text_keeps_relative_indentation(
            steps in prop::collection::vec(0usize..3, 2..8),
            doc_unit in prop::sample::select(vec!["\t", "  ", "    "]),
            model_unit in prop::sample::select(vec!["\t", "  ", "    "]),
            doc_base in 0usize..3,
            model_base in 0usize..2,
            insert_after in 0usize..8,
        ) {
            // Depths: each line at most one deeper than the one before.
            let mut depths = vec![0usize];
            for s in &steps {
                let last = *depths.last().unwrap_or(&0);
                depths.push(match s { 0 => last + 1, 1 => last, _ => last.saturating_sub(1) });
            }
            prop_assume!(doc_unit != model_unit || doc_base != model_base);
            let line = |i: usize, unit: &str, base: usize, d: usize| format!("{}item_{i}();", indent(unit, base + d));
            let block = |unit: &str, base: usize| -> Vec<String> { depths.iter().enumerate().map(|(i, &d)| line(i, unit, base, d)).collect() };
            let doc_lines = block(doc_unit, doc_base);
            let doc = format!("start();\n{}\nend();\n", doc_lines.join("\n"));
            let old = block(model_unit, model_base).join("\n");
            let at = insert_after.min(depths.len() - 1);
            let d = depths[at];
            let mut new_lines = block(model_unit, model_base);
            new_lines.insert(at + 1, format!("{}added();", indent(model_unit, model_base + d)));
            let mut want_lines = doc_lines.clone();
            want_lines.insert(at + 1, format!("{}added();", indent(doc_unit, doc_base + d)));
            let mut h = Host::new(&[("a.txt", doc.as_str())]);
            let r = h.call("memo_replace", json!({"old_text": old, "new_text": new_lines.join("\n")}));
            prop_assert_eq!(r.status, Status::Success, "{}", r.markdown);
            prop_assert_eq!(h.ws.draft(None).unwrap(), format!("start();\n{}\nend();\n", want_lines.join("\n")));
        }
    }
}
