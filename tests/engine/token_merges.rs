//! A merge never writes a token the document changed (docs/architecture.md#three-way-apply):
//! a near-miss pick whose change and the document's difference change one token two ways is
//! refused, showing both lines; an exact match that cuts a word or number of the document is
//! a candidate to confirm, never staged at once; a near miss is never recommended where its
//! pick would be refused. Controls: drift elsewhere on the line, whitespace drift and
//! look-alike characters still land.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::{Response, Status};
use common::Host;
use serde_json::json;

fn replace(doc: &str, old: &str, new: &str) -> (Host, Response) {
    let mut h = Host::new(&[("a.txt", doc)]);
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    (h, r)
}

fn draft(h: &mut Host) -> String {
    let r = h.call("memo_read", json!({}));
    r.content.unwrap_or_default()
}

#[test]
fn a_number_the_document_changed_is_not_overwritten_by_a_pick() {
    let cases = [
        ("limits:\n  max: 16\n  min: 2\n", "  max: 1\n  min: 2", "  max: 6\n  min: 2", "`max: 6` · there: `max: 16`"),
        (
            "[net]\nretries = 35\nbackoff = 2\n",
            "retries = 3\nbackoff = 2",
            "retries = 5\nbackoff = 2",
            "`retries = 5` · there: `retries = 35`",
        ),
        (
            "[package]\nversion = \"2.10.0\"\nedition = \"2021\"\n",
            "version = \"2.1.0\"\nedition = \"2021\"",
            "version = \"2.0.0\"\nedition = \"2021\"",
            "there: `version = \"2.10.0\"`",
        ),
        ("timeouts:\n  read: 300\n  write: 10\n", "  read: 30\n  write: 10", "  read: 60\n  write: 10", "there: `read: 300`"),
    ];
    for (doc, old, new, shown) in cases {
        let (mut h, r) = replace(doc, old, new);
        assert_eq!(r.status, Status::NoMatch, "{old:?}\n{}", r.markdown);
        let a = r.candidates.first().unwrap_or_else(|| panic!("no candidate for {old:?}\n{}", r.markdown));
        assert!(!a.recommended, "a pick that would be refused is recommended: {old:?}\n{}", r.markdown);
        // The offer says so, quoting the same lines, before any pick.
        assert!(
            a.pick_refused && r.summary.contains("so picking it is refused") && r.summary.contains(shown),
            "{old:?}: the offer does not say its pick is refused\n{}",
            r.markdown
        );
        let before = draft(&mut h);
        let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
        assert_eq!(r.status, Status::StaleReference, "{old:?} -> {new:?} was merged:\n{}", r.markdown);
        assert!(r.summary.contains(shown), "{}", r.summary);
        assert_eq!(draft(&mut h), before, "nothing is staged");
    }
}

#[test]
fn a_misremembered_word_moved_elsewhere_is_not_written_as_remembered() {
    let doc = "const merged = combine(base, ...extra);\nreturn merged;\n";
    let (mut h, r) = replace(
        doc,
        "const merged = combine(base, ...extras);\nreturn merged;",
        "const merged = combine(...extras, base);\nreturn merged;",
    );
    assert_eq!(r.status, Status::NoMatch, "{}", r.markdown);
    let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    assert_ne!(r.status, Status::Success, "{}", r.markdown);
    assert!(!draft(&mut h).contains("...extras"));
}

#[test]
fn drift_away_from_the_changed_token_still_lands() {
    // (document, old_text, new_text, the document afterwards)
    let cases = [
        // Another value on the same line.
        (
            "server: { port: 8080, host: example.org, workers: 4 }\n",
            "server: { port: 8080, host: example.com, workers: 4 }",
            "server: { port: 9090, host: example.com, workers: 4 }",
            "server: { port: 9090, host: example.org, workers: 4 }\n",
        ),
        // Another key changed in the block.
        (
            "server:\n  port: 8080\n  host: example.org\n  workers: 4\n",
            "  port: 8080\n  host: example.com\n  workers: 4",
            "  port: 9090\n  host: example.com\n  workers: 4",
            "server:\n  port: 9090\n  host: example.org\n  workers: 4\n",
        ),
        // Look-alike quotes and a dash in the document.
        (
            "say \u{201C}retry\u{201D} \u{2014} 3 times\nthen stop\n",
            "say \"retry\" - 3 times\nthen stop!",
            "say \"retry\" - 5 times\nthen stop!",
            "say \u{201C}retry\u{201D} \u{2014} 5 times\nthen stop\n",
        ),
    ];
    for (doc, old, new, after) in cases {
        let (mut h, r) = replace(doc, old, new);
        let r = if r.status == Status::NoMatch { h.call("memo_replace_selection", json!({"selection_id": "A"})) } else { r };
        assert_eq!(r.status, Status::Success, "{old:?}:\n{}", r.markdown);
        let r = h.call("memo_commit", json!({"summary": "s"}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
        assert_eq!(h.stored("a.txt"), after);
    }
    // Whitespace-only drift on the changed line.
    let (mut h, r) = replace("limits:\n  max:   1\n", "limits:\n  max: 1", "limits:\n  max: 2");
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(draft(&mut h).contains("max:   2"));
}

#[test]
fn an_exact_match_cutting_a_number_or_word_is_a_candidate_to_confirm() {
    // (document, old_text, new_text, the word cut, what a pick writes)
    let cases = [
        ("limits:\n  max: 16\n  min: 2\n", "max: 1", "max: 6", "`16`", "`max: 66`"),
        ("function load() {}\n", "unction load()", "function save()", "`function`", "`ffunction save()`"),
        ("let countdown = 3;\n", "let count", "let total", "`countdown`", "`let totaldown`"),
    ];
    for (doc, old, new, word, written) in cases {
        let (mut h, r) = replace(doc, old, new);
        assert_eq!(r.status, Status::StaleReference, "{old:?} was staged:\n{}", r.markdown);
        assert!(r.summary.contains(word) && r.summary.contains(written), "{}", r.summary);
        assert_eq!(r.candidates.len(), 1);
        assert!(!r.candidates.iter().any(|c| c.recommended));
        assert!(!draft(&mut h).contains(written.trim_matches('`')), "staged before it was confirmed");
        // Confirmed, the pick writes what the answer said.
        let r = h.call("memo_replace_selection", json!({"selection_id": "A"}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
        let shown = written.trim_matches('`');
        assert!(draft(&mut h).contains(shown), "{shown}");
    }
    // Whole words at both edges (and CJK, which has no word boundaries) stage at once.
    for (doc, old, new) in
        [("limits:\n  max: 16\n", "max: 16", "max: 6"), ("a = f(x)\n", "f(x", "g(x"), ("配置超时时间为三十秒。\n", "超时时间", "等待时间")]
    {
        let (_, r) = replace(doc, old, new);
        assert_eq!(r.status, Status::Success, "{old:?}:\n{}", r.markdown);
    }
}
