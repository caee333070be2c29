//! Reliability of the core against adversarial calls (docs/reliability.md §Matching time and
//! read size): edits that used to land in the wrong place, calls that used to succeed where
//! they must be refused, and reads without a size cap. Each test failed before its fix.

use crate::internal_tests::common;

use common::Host;
use serde_json::json;

/// The key `memo_read(line_keys=true)` shows for 1-based `line`.
fn key_of(host: &mut Host, line: usize) -> String {
    let r = host.call("memo_read", json!({"line_keys": true}));
    let content = r.content.clone().unwrap_or_default();
    let row = content.lines().nth(line - 1).unwrap_or_else(|| panic!("no line {line} in {content}"));
    row.split('│').next().unwrap_or_default().trim().to_string()
}

#[test]
fn stale_keys_whose_ends_still_match_do_not_replace_the_wrong_block() {
    let mut host = Host::new(&[("a.txt", "a\n}\nfoo()\n}\nbar()\n}\n")]);
    // Keys for lines 4–6 as read: `}`, `bar()`, `}`.
    let (k4, k6) = (key_of(&mut host, 4), key_of(&mut host, 6));
    // Two lines inserted above: lines 4–6 are now `}`, `foo()`, `}` — same ends, other middle.
    let r = host.call("memo_replace", json!({"old_text": "a\n", "new_text": "x\ny\na\n"}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    let before = host.ws.draft(None).unwrap();
    let r = host.call("memo_replace_lines", json!({"start_key": k4, "end_key": k6, "new_text": "baz()"}));
    assert_eq!(r.status.as_str(), "StaleReference", "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), before, "nothing changed");
    // The response shows the current keys; with them the call goes through.
    let content = r.content.clone().unwrap_or_default();
    assert!(content.contains("│ foo()"), "current keyed lines shown: {content}");
    let (k4, k6) = (key_of(&mut host, 4), key_of(&mut host, 6));
    let r = host.call("memo_replace_lines", json!({"start_key": k4, "end_key": k6, "new_text": "baz()"}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), "x\ny\na\nbaz()\nbar()\n}\n");
}

#[test]
fn fresh_keys_of_a_range_still_replace_it() {
    let mut host = Host::new(&[("a.txt", "a\n}\nfoo()\n}\nbar()\n}\n")]);
    let r = host.call("memo_replace", json!({"old_text": "a\n", "new_text": "x\ny\na\n"}));
    assert_eq!(r.status.as_str(), "Success");
    // Keys read after the staged insertion: the range is what the model sees.
    let (k4, k6) = (key_of(&mut host, 4), key_of(&mut host, 6));
    let r = host.call("memo_replace_lines", json!({"start_key": k4, "end_key": k6, "new_text": "baz()"}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), "x\ny\na\nbaz()\nbar()\n}\n");
}

#[test]
fn a_yaml_block_copied_without_its_indentation_is_not_read_as_gutters() {
    let doc = "order: low\nmid\nhigh\nlevels:\n  1: low\n  2: mid\n";
    let mut host = Host::new(&[("a.yaml", doc)]);
    // `1: ` and `2: ` look like copied line numbers, and `low\nmid` occurs elsewhere; but the
    // document holds these very lines, indented: that reading keeps every visible character.
    let r = host.call("memo_replace", json!({"old_text": "1: low\n2: mid", "new_text": "1: low\n2: high"}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), "order: low\nmid\nhigh\nlevels:\n  1: low\n  2: high\n");
}

#[test]
fn real_copied_gutters_are_still_stripped() {
    let mut host = Host::new(&[("a.txt", "one\ntwo\nthree\n")]);
    let r = host.call("memo_replace", json!({"old_text": "2: two\n3: three", "new_text": "2: TWO\n3: three"}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), "one\nTWO\nthree\n");
}

#[test]
fn match_id_after_a_silent_reload_is_refused_not_picked_by_position() {
    let doc = "x: 1\ntimeout: 30\ny: 2\ntimeout: 30\n";
    let mut host = Host::new(&[("a.txt", doc)]);
    let r = host.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert_eq!(r.status.as_str(), "MultiMatch", "{}", r.markdown);
    // Storage gains a third timeout at the top: without pending changes the reload is silent,
    // and "B" by position would now be the old A.
    assert!(host.external_write("a.txt", "timeout: 30\nx: 1\ntimeout: 30\ny: 2\ntimeout: 30\n"));
    let before = host.ws.draft(None).unwrap();
    let r = host.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": "B"}));
    assert_eq!(r.status.as_str(), "StaleReference", "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), before, "nothing staged");
    assert!(r.summary.contains("match_id B"), "{}", r.summary);
    // The refusal lists the current candidates; a letter from that listing is honoured.
    let r = host.call("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": "C"}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), "timeout: 30\nx: 1\ntimeout: 30\ny: 2\ntimeout: 60\n");
}

#[test]
fn an_exact_match_never_cuts_a_character_from_its_combining_mark() {
    // `café` written as `e` + U+0301: `cafe` is not in it, the plain `cafe` later is.
    let doc = "un cafe\u{301} noir\nun cafe glacé\n";
    let mut host = Host::new(&[("a.txt", doc)]);
    let r = host.call("memo_replace", json!({"old_text": "cafe", "new_text": "thé"}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), "un cafe\u{301} noir\nun thé glacé\n");
    // Only the decomposed one: no match, nothing staged, and the accent stays on its `e`.
    let mut host = Host::new(&[("a.txt", "un cafe\u{301} noir\n")]);
    let r = host.call("memo_replace", json!({"old_text": "cafe", "new_text": "tea"}));
    assert_eq!(r.status.as_str(), "NoMatch", "{}", r.markdown);
    assert_eq!(host.ws.draft(None).unwrap(), "un cafe\u{301} noir\n");
    // Nor may a match start on a mark and leave its base behind.
    let r = host.call("memo_replace", json!({"old_text": "\u{301} noir", "new_text": " blanc"}));
    assert_eq!(r.status.as_str(), "NoMatch", "{}", r.markdown);
}

#[test]
fn a_read_of_a_huge_line_is_clipped_and_says_how_much() {
    let line = "x".repeat(20_000_000);
    let mut host = Host::new(&[("big.txt", &format!("{line}\nshort\n"))]);
    let r = host.call("memo_read", json!({}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.summary);
    let content = r.content.clone().unwrap_or_default();
    assert!(content.len() < 20_000, "a read of a 20 MB line returned {} bytes", content.len());
    assert!(content.contains("⟪clipped: 19990000 more chars⟫"), "{}", &content[content.len() - 200..]);
    assert!(content.ends_with("\n2│ short\n"), "the next line still shown");
    assert!(r.summary.contains("Line 1 longer than 10000 chars is clipped"), "{}", r.summary);
    assert!(r.guidance.as_deref().unwrap_or_default().contains("memo_replace"), "{:?}", r.guidance);
}

#[test]
fn a_read_of_a_million_lines_stops_at_the_limit_and_says_where_to_read_on() {
    let doc = "\n".repeat(1_000_000);
    let mut host = Host::new(&[("empty-lines.txt", &doc)]);
    let r = host.call("memo_read", json!({}));
    let content = r.content.clone().unwrap_or_default();
    assert!(content.len() < 40_000, "a read of a million empty lines returned {} bytes", content.len());
    assert_eq!(content.lines().count(), 2_000);
    assert!(r.summary.contains("Read lines 1–2000 of 1000000 ("), "{}", r.summary);
    assert!(r.summary.contains("at most 2000 lines (option max_read_lines)"), "{}", r.summary);
    let guidance = r.guidance.clone().unwrap_or_default();
    assert!(guidance.starts_with("Read on with memo_read(start_line=2001)."), "{guidance}");
    // The call it names works and goes on from there.
    let r = host.call("memo_read", json!({"start_line": 2001}));
    assert!(r.summary.contains("Read lines 2001–4000"), "{}", r.summary);
}

#[test]
fn read_limits_are_options_and_count_chars_too() {
    let config = agentpad::Config::from_json(&json!({"max_read_chars": 24, "max_read_line_chars": 8})).unwrap();
    let mut host = Host::with_config(&[("a.txt", "0123456789abcdef\nshort\nline three\nfour\n")], config);
    let r = host.call("memo_read", json!({"line_numbers": false}));
    assert_eq!(r.content.as_deref(), Some("01234567⟪clipped: 8 more chars⟫\nshort\nline thr⟪clipped: 2 more chars⟫\n"));
    assert!(r.summary.contains("at most 24 chars of text (option max_read_chars)"), "{}", r.summary);
    assert!(r.guidance.as_deref().unwrap_or_default().contains("memo_read(start_line=4)"), "{:?}", r.guidance);
    let e = agentpad::Config::from_json(&json!({"max_read_lines": 0})).unwrap_err().to_string();
    assert!(e.contains("max_read_lines") && e.contains("from 1 to 100000000") && e.contains("got 0"), "{e}");
}

#[test]
fn a_documents_own_marker_text_is_never_taken_for_a_candidate_marker() {
    let doc = "Reads mark candidates as [[SEL#B]]…[[/SEL#B]].\nx = 1\ny = 2\nx = 1\n";
    let mut host = Host::new(&[("notes.md", doc)]);
    let r = host.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 3"}));
    assert_eq!(r.status.as_str(), "MultiMatch", "{}", r.markdown);
    let r = host.call("memo_read", json!({}));
    let content = r.content.clone().unwrap_or_default();
    // Only the document's own marker text is there, once, on its own line: no inserted ones.
    assert_eq!(content.matches("[[SEL#").count(), 1, "{content}");
    assert!(content.starts_with("1│ Reads mark candidates as [[SEL#B]]…[[/SEL#B]]."), "{content}");
    assert!(r.summary.contains("not marked in this read") && r.summary.contains("candidate A at line 2, B at line 4"), "{}", r.summary);
    // A document without such text still gets its markers.
    let mut host = Host::new(&[("notes.md", "x = 1\ny = 2\nx = 1\n")]);
    host.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 3"}));
    let r = host.call("memo_read", json!({}));
    assert!(r.content.unwrap_or_default().contains("[[SEL#B]]x = 1[[/SEL#B]]"));
}

/// The fuzzy tiers' work on the adversarial shapes, in chars normalised (a count, not a time:
/// speed is the benchmark's business). Before the line-id scan and the streamed line checks it
/// grew with (document lines × needle lines): 400 lines of `}`/blank against a document of
/// them normalised ~14,500 windows × 400 lines × 4 tiers. Now it stays within a small multiple
/// of the document.
#[test]
fn fuzzy_work_on_repetitive_documents_stays_linear() {
    use agentpad::matching::normalize::normalized_chars;
    let csv_row = "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n";
    let code_line = "    let value = compute(alpha, beta, gamma); // same line\n";
    let mut csv_needle = csv_row.repeat(100);
    csv_needle.replace_range(1600..1601, "1");
    let mut code_needle = code_line.repeat(200);
    code_needle.replace_range(5800..5801, "Q");
    let unit = "abcdefghij ";
    let mut long_needle = unit.repeat(2_000 / unit.len());
    long_needle.replace_range(1000..1001, "#");
    let shapes: Vec<(&str, String, String)> = vec![
        ("400 lines of }/blank", "}\n\n".repeat(10_000), format!("{}x", "}\n\n".repeat(200))),
        ("100-row CSV near miss", csv_row.repeat(10_000), csv_needle),
        ("200 identical lines", code_line.repeat(4_000), code_needle),
        ("one 200 KB line", unit.repeat(200_000 / unit.len()), long_needle),
    ];
    for (name, doc, needle) in shapes {
        let mut host = Host::new(&[("d.txt", &doc)]);
        let before = normalized_chars();
        let r = host.call("memo_replace", json!({"old_text": needle, "new_text": "x"}));
        let work = normalized_chars() - before;
        assert_eq!(r.status.as_str(), "NoMatch", "{name}");
        let bound = 12 * (doc.len() + needle.len()) as u64;
        assert!(
            work <= bound,
            "{name}: {work} chars normalised for a {} B document and a {} B needle (bound {bound})",
            doc.len(),
            needle.len()
        );
    }
}

/// A one-char old_text in a page of blanks used to collect every one of its matches (ten
/// million at 10 MB, 1.2 s) to list five of them. The search now stops past 10,000 and says so,
/// naming the limit; nothing is staged or selected, and the document is unchanged.
#[test]
fn a_text_found_in_too_many_places_is_refused_naming_the_limit_and_changes_nothing() {
    let doc = "               \n".repeat(2_000); // 30,000 blanks
    let mut host = Host::new(&[("a.txt", &doc)]);
    let calls = [
        ("memo_replace", json!({"old_text": " ", "new_text": "x"}), "old_text ` ` matches more than 10000 places"),
        (
            "memo_replace_span",
            json!({"old_span_start": " ", "old_span_end": "\n", "new_text": "x"}),
            "old_span_start ` ` matches more than 10000 places",
        ),
        ("memo_replace", json!({"old_text": " ", "new_text": "x", "expected_occurrences": 30_000}), "matches more than 10000 places"),
    ];
    for (tool, args, says) in calls {
        let r = host.call(tool, args);
        assert_eq!(r.status.as_str(), "MultiMatch", "{tool}: {}", r.markdown);
        assert!(r.summary.contains(says), "{tool}: {}", r.summary);
        assert!(r.guidance.as_deref().is_some_and(|g| g.contains("search_after") && g.contains("longer")), "{tool}: {:?}", r.guidance);
        assert!(r.candidates.is_empty(), "{tool}: no candidates");
        assert_eq!(host.ws.draft(None).unwrap(), doc, "{tool}: nothing changed");
        // Nothing was selected: there is no listing to pick from.
        let r = host.call("memo_replace_selection", json!({"selection_id": "A"}));
        assert_ne!(r.status.as_str(), "Success", "{}", r.markdown);
    }
    // replace_all stages up to 20,000 places, and refuses more, naming that limit.
    let mut host = Host::new(&[("b.txt", &"a b\n".repeat(20_000))]);
    let r = host.call("memo_replace", json!({"old_text": " ", "new_text": "_", "replace_all": true}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    assert!(r.summary.contains("20000 places"), "{}", r.summary);
    let more = "ab".repeat(20_001);
    let mut host = Host::new(&[("c.txt", &more)]);
    let r = host.call("memo_replace", json!({"old_text": "a", "new_text": "_", "replace_all": true}));
    assert_eq!(r.status.as_str(), "MultiMatch", "{}", r.markdown);
    assert!(r.summary.contains("more than 20000 places") && r.summary.contains("replace_all"), "{}", r.summary);
    assert_eq!(host.ws.draft(None).unwrap(), more, "nothing changed");
}

/// Span ends past the cap: the first 10,000 serve a start above them; starts spread past them
/// get the whole search, so every start still pairs with its first end.
#[test]
fn span_ends_found_in_many_places_still_pair_with_each_start() {
    let blanks = "        \n".repeat(3_000); // 24,000 blanks between the markers
    let doc = format!("S1 end\n{blanks}S2 end\n");
    let mut host = Host::new(&[("a.txt", &doc)]);
    let r = host.call("memo_replace_span", json!({"old_span_start": "S1", "old_span_end": " ", "new_text": "T1 ", "keep_end": false}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    assert!(host.ws.draft(None).unwrap().starts_with("T1 end\n"), "the first end after the start");
    let r = host.call("memo_revert", json!({"reason": "next"}));
    assert_eq!(r.status.as_str(), "Success", "{}", r.markdown);
    let r = host.call("memo_replace_span", json!({"old_span_start": "S", "old_span_end": " ", "new_text": "T "}));
    assert_eq!(r.status.as_str(), "MultiMatch", "{}", r.markdown);
    assert_eq!(r.candidates.len(), 2, "both starts pair with the end just after them: {}", r.markdown);
}
