//! Unit tests of the three-way apply (the parent module).

use super::*;

fn merged(base: &str, ours: &str, theirs: &str) -> String {
    match merge(base, ours, theirs) {
        Outcome::Merged(m) => m.text,
        Outcome::Conflict(c) => panic!("conflict {c:?}"),
    }
}

fn conflict(base: &str, ours: &str, theirs: &str) -> Conflict {
    match merge(base, ours, theirs) {
        Outcome::Merged(m) => panic!("merged {:?}", crate::text::clip(&m.text, 200)),
        Outcome::Conflict(c) => c,
    }
}

#[test]
fn tokens_concatenate_back_and_keep_marks_with_their_character() {
    let text = "caf\u{65}\u{301} = 30;\n\t東京 x_1  \"y\"";
    let t = tokens(text);
    assert_eq!(t.concat(), text);
    assert_eq!(t, ["caf\u{65}\u{301} ", "= ", "30", ";", "\n\t", "東", "京 ", "x_1  ", "\"", "y", "\""]);
    assert_eq!(tokens("  a"), ["  ", "a"]);
}

#[test]
fn a_stale_line_keeps_the_earlier_edit() {
    // An earlier edit made 30 → 45 on line 1; the model still remembers 30 and changes line 2.
    let base = "timeout = 30\nretries = 3\n";
    let ours = "timeout = 30\nretries = 5\n";
    let theirs = "timeout = 45\nretries = 3\n";
    assert_eq!(merged(base, ours, theirs), "timeout = 45\nretries = 5\n");
    let Outcome::Merged(m) = merge(base, ours, theirs) else { panic!() };
    assert_eq!((m.applied, m.kept), (1, 1));
}

#[test]
fn a_misremembered_token_is_not_injected() {
    let base = "output = model.generate(args.promt)";
    let ours = "output = model.generate(args.promt, max_tokens=256)";
    let theirs = "output = model.generate(args.prompt)";
    assert_eq!(merged(base, ours, theirs), "output = model.generate(args.prompt, max_tokens=256)");
}

#[test]
fn a_change_to_text_that_differs_is_refused_with_a_proposal() {
    let base = "timeout = 30\n";
    let ours = "timeout = 60\n";
    let theirs = "timeout = 45\n";
    let c = conflict(base, ours, theirs);
    assert_eq!(c.reason, ConflictReason::Overlap);
    assert_eq!(c.base_range, 10..12);
    assert_eq!(c.proposal.as_deref(), Some("timeout = 60\n"));
    // Touching counts: an insertion right after a token that differs is ambiguous.
    let c = conflict("a b", "a bc", "a B");
    assert_eq!(c.reason, ConflictReason::Overlap);
}

#[test]
fn the_same_change_on_both_sides_is_refused_and_copied_gutters_are_stripped_first() {
    // Both sides deleted one space of two: they agree on the text, which is written once.
    assert_eq!(merged("a  b\nx = 1", "a b\nx = 2", "a b\nx = 1"), "a b\nx = 2");
    // Copied gutters are not part of the change: new_text dropped them as the document does
    // (so even unstripped, the region lies on new_text's path: it is completed, not refused).
    let base = "  12│ fn a() {}\n  13│ fn b() {}";
    let ours = "fn a() {}\nfn b() {}\nfn c() {}";
    let theirs = "fn a() {}\nfn b() {}";
    assert_eq!(merged(base, ours, theirs), ours);
    // Gutters new_text kept, away from its change: the region's text without them is kept.
    assert_eq!(merged(base, "  12│ fn a() {}\n  13│ fn b() {} // b", theirs), "fn a() {}\nfn b() {} // b");
    let (Outcome::Merged(m), reading) = merge_pick(base, ours, theirs) else { panic!("gutters not stripped") };
    assert_eq!(m.text, "fn a() {}\nfn b() {}\nfn c() {}");
    assert!(reading.gutters && !reading.unescaped);
    let (Outcome::Merged(m), _) = merge_pick(base, "  12│ fn a() {}\n  13│ fn b2() {}", theirs) else { panic!() };
    assert_eq!(m.text, "fn a() {}\nfn b2() {}");
}

#[test]
fn over_escaped_old_text_is_read_as_the_characters_when_the_region_has_no_backslash() {
    // new_text with real line breaks (the model fixed its escapes there, not in old_text).
    let (Outcome::Merged(m), reading) = merge_pick("- a\\n- b\\n- c", "- a2\n- b\n- c", "- a\n- b\n- c") else { panic!() };
    assert_eq!(m.text, "- a2\n- b\n- c");
    assert!(reading.unescaped);
    // new_text over-escaped the same way.
    let (Outcome::Merged(m), _) = merge_pick(r#"say(\"hi\")\nend"#, r#"say(\"hello\")\nend"#, "say(\"hi\")\nend") else { panic!() };
    assert_eq!(m.text, "say(\"hello\")\nend");
    // More escapes in new_text than in old_text: it may add real ones. Refused.
    let (Outcome::Conflict(c), _) = merge_pick("a\\nb", "a\\nb\\tc\\n", "a\nb") else { panic!() };
    assert_eq!(c.reason, ConflictReason::Escapes);
    // A region with backslashes of its own: no unescaping.
    let (_, reading) = merge_pick("x = \"\\n\"", "x = \"\\t\"", "x = \"\\n\"  ");
    assert!(!reading.unescaped);
}

#[test]
fn escapes_and_elisions_in_the_base_are_kept_as_the_document_has_them() {
    let base = r#"greeting = \"Hello, \" + name\nreturn greeting"#;
    let ours = r#"greeting = \"Hi, \" + name\nreturn greeting"#;
    let theirs = "greeting = \"Hello, \" + name\nreturn greeting";
    assert_eq!(merged(base, ours, theirs), "greeting = \"Hi, \" + name\nreturn greeting");
    let base = "fn f() {\n    // ... existing code ...\n    done()\n}";
    let ours = "fn f() {\n    // ... existing code ...\n    done()\n    log()\n}";
    let theirs = "fn f() {\n    a()\n    b()\n    done()\n}";
    assert_eq!(merged(base, ours, theirs), "fn f() {\n    a()\n    b()\n    done()\n    log()\n}");
    let Outcome::Merged(m) = merge(base, ours, theirs) else { panic!() };
    assert_eq!(m.elided_kept, 1);
}

#[test]
fn an_added_placeholder_or_escape_is_refused() {
    let c = conflict("a()\nb()\n", "a()\n...\nc()\n", "a()\nb()\n");
    assert_eq!(c.reason, ConflictReason::Placeholder { line: "...".into() });
    let c = conflict(r#"x = \"a\"; y = 1"#, r#"x = \"a\"; y = \"b\\n\""#, "x = \"a\"; y = 1");
    assert_eq!(c.reason, ConflictReason::Escapes);
}

#[test]
fn elided_pieces_are_the_lines_around_the_markers() {
    assert_eq!(elided_pieces("a\nb\n...\n\nc\n    // ... existing code ...\nd"), ["a\nb", "c", "d"]);
    assert!(elided_pieces("a\nb").is_empty());
    // A difference outside the markers is refused: the anchors may have found the wrong place.
    let c = conflict("x\n...\ny = 1\n", "x\n...\ny = 2\n", "x2\nq\ny = 1\n");
    assert_eq!(c.reason, ConflictReason::ElidedAnchorsDiffer);
}

#[test]
fn an_insertion_that_could_slide_to_the_other_side_s_insertion_is_refused() {
    // `=` inserted before or after `=`; `a` inserted before it: "=a=" or "a==".
    assert_eq!(conflict("=", "==", "a=").reason, ConflictReason::Overlap);
    // Inside one token: `30` → `3030` may insert `30` before it, where `=` was inserted.
    assert_eq!(conflict("30", "3030", "=30").reason, ConflictReason::Overlap);
    // Across a token boundary: `\n ` inserted before `\n` is ` \n` after it, where `a` went.
    assert_eq!(conflict("\n", "\n \n", "\na").reason, ConflictReason::Overlap);
    // Both slide: `=oo` after `foo` is `oo=` after `f`, and `f=` before it is `=f` after `f`.
    assert_eq!(conflict("foo", "foo=oo", "f=foo").reason, ConflictReason::Overlap);
    // A change that surely keeps its first char stays separate: `promt` → `prompt`.
    assert_eq!(merged("x promt", "y promt", "x prompt"), "y prompt");
}

#[test]
fn a_misremembered_token_new_text_spells_as_the_document_does_is_completed() {
    // old_text misremembers the very token the change is on; new_text spells it as the
    // document does: the region lies on new_text's path, so new_text's token is written.
    let base = "const cmps = this.set[i]\nfor (k < comps.length)";
    let ours = "const compsNext = this.set[i]\nfor (k < comps.length)";
    let theirs = "const comps = this.set[i]\nfor (k < comps.length)";
    assert_eq!(merged(base, ours, theirs), ours);
    // A letter the region dropped, new_text replaced with more.
    assert_eq!(
        merged("| Code::HexEscapes\n| Code::Comma", "| Code::HexEscapeNext\n| Code::Comma", "| Code::HexEscape\n| Code::Comma"),
        "| Code::HexEscapeNext\n| Code::Comma"
    );
    // A whole token: `text` is `content` there, new_text writes `content.trim_end()`.
    let base = "fn render(content: &str) {\n    let lines = wrap(text, width);";
    let ours = "fn render(content: &str) {\n    let lines = wrap(content.trim_end(), width);";
    let theirs = "fn render(content: &str) {\n    let lines = wrap(content, width);";
    assert_eq!(merged(base, ours, theirs), ours);
    // new_text holding only part of the region's difference in words (an earlier edit on the
    // line it does not hold): the shared part may be a coincidence. Refused.
    assert!(matches!(merge("x = cmps + 30;", "x = compsNext + 30;", "x = comps + 45;"), Outcome::Conflict(_)));
}

#[test]
fn a_change_that_does_not_hold_the_region_s_difference_is_still_refused() {
    // new_text keeps the base's `30` where the region has `45`: it would revert it.
    assert_eq!(conflict("timeout = 30", "timeout = 300", "timeout = 45").reason, ConflictReason::Overlap);
    // An insertion next to the region's, not holding it: two readings.
    assert_eq!(conflict("a b", "a bc", "a B").reason, ConflictReason::Overlap);
    // Which `o` stays is not known (`foo` → `o`), and the region dropped one of them.
    assert!(matches!(merge("=aa==foo)", "o)", "=aa==fo)a"), Outcome::Conflict(_)));
    // Around a `=` the region may have kept either of: refused, not guessed.
    assert!(matches!(merge("\na=aaa  = =", " =", "\na=aaa  =,"), Outcome::Conflict(_)));
    // `a` between two breaks, one of which the region deleted: before or after the one left.
    assert!(matches!(merge("\n\n", "\na\n", "\n"), Outcome::Conflict(_)));
}

#[test]
fn a_reflowed_region_takes_the_word_change_and_keeps_its_own_breaks_elsewhere() {
    // old_text wrapped at one width, the document at another; new_text rewraps around its
    // word change. Breaks new_text moved where the region has spaces are completed, the
    // region's breaks elsewhere kept.
    let base = "we care that\nthe macro is provided with input it produces. Consider\nusing it";
    let ours = "we care that\nthe macro is providedly with input it produces.\nConsider using it";
    let theirs = "we care that the macro\nis provided with input it\nproduces. Consider using it";
    let m = merged(base, ours, theirs);
    assert!(m.starts_with("we care that the macro\nis providedly with input it\nproduces."), "{m:?}");
    assert_eq!(m.split_whitespace().collect::<Vec<_>>(), theirs.replace("provided", "providedly").split_whitespace().collect::<Vec<_>>());
}

#[test]
fn a_doubly_escaped_old_text_is_read_once_unescaped_when_the_region_has_backslashes() {
    // The document's `\n` (code) was sent as `\\n`; new_text escaped the same way.
    let (Outcome::Merged(m), reading) = merge_pick(r#"].join("\\n");"#, r#"].join("\\r\\n");"#, r#"].join("\n");"#) else { panic!() };
    assert_eq!(m.text, r#"].join("\r\n");"#);
    assert!(reading.unescaped);
    // new_text written as the document reads: taken as it is.
    let old = "// see pull/92\nconst i = s.indexOf('\\\\n');";
    let new = "// see pullAlt/92\nconst i = s.indexOf('\\n');";
    let region = "// see pull/92\nconst i = s.indexOf('\\n');";
    let (Outcome::Merged(m), _) = merge_pick(old, new, region) else { panic!() };
    assert_eq!(m.text, "// see pullAlt/92\nconst i = s.indexOf('\\n');");
    // A new kind of escape old_text never used: ambiguous, refused.
    let (Outcome::Conflict(c), _) = merge_pick(r#"].join("\\n");"#, r#"].join("\t\\n");"#, r#"].join("\n");"#) else { panic!() };
    assert_eq!(c.reason, ConflictReason::Escapes);
    // Unescaping that does not bring old_text closer to the region: not done.
    let (_, reading) = merge_pick(r#"a("\n")"#, r#"a("\t")"#, r#"a("\n") "#);
    assert!(!reading.unescaped);
}

#[test]
fn elision_lines() {
    for yes in [
        "...",
        "  …",
        "// ... existing code ...",
        "# ...",
        "<!-- ... -->",
        "[...]",
        "/* ... rest unchanged */",
        "    // rest unchanged",
        "# existing code here",
    ] {
        assert!(is_elision_line(yes), "{yes}");
    }
    for no in [
        "...rest,",
        "f(...)",
        "return ...args",
        "a...b",
        "// see above...",
        "rest unchanged",
        "// the parser keeps the rest unchanged when the input is empty",
    ] {
        assert!(!is_elision_line(no), "{no}");
    }
}

#[test]
fn a_difference_too_large_is_refused() {
    let big: String = (0..5000).map(|i| format!("w{i} ")).collect();
    let c = conflict("x", &big, "x");
    assert!(matches!(c.reason, ConflictReason::TooLarge { limit: MAX_DIFF_TOKENS, .. }), "{c:?}");
}

#[test]
fn one_token_changed_two_ways_is_a_conflict_even_on_a_char_path() {
    // The document has 16 where old_text remembers 1; new_text sets 6. `16` lies on a char
    // path from `1` to `6`, yet the number was changed two ways: the other writer's 16 stays.
    for (base, ours, theirs) in [
        ("  max: 1\n  min: 2", "  max: 6\n  min: 2", "  max: 16\n  min: 2"),
        ("retries = 3\nbackoff = 2", "retries = 5\nbackoff = 2", "retries = 35\nbackoff = 2"),
        ("version = \"2.1.0\"", "version = \"2.0.0\"", "version = \"2.10.0\""),
        ("timeout = 30", "timeout = 3000", "timeout = 300"),
        ("limit = 1", "limit = 162", "limit = 16"),
    ] {
        assert_eq!(conflict(base, ours, theirs).reason, ConflictReason::Overlap, "{base:?} -> {ours:?} over {theirs:?}");
    }
    // A misremembered word new_text moves away: the document's `...extra` is not rewritten.
    let base = "f(a, ...extras)\ng(b)";
    let ours = "f(a)\ng(b, ...extras)";
    let theirs = "f(a, ...extra)\ng(b)";
    assert!(matches!(merge(base, ours, theirs), Outcome::Conflict(_)));
    // Controls: drift elsewhere on the line, whitespace drift, a word new_text extends whole.
    assert_eq!(merged("max: 1 # cap", "max: 6 # cap", "max: 1 # the cap"), "max: 6 # the cap");
    assert_eq!(merged("max:  1\nmin: 2", "max:  1\nmin: 3", "max: 1\nmin: 2"), "max: 1\nmin: 3");
    assert_eq!(merged("let cmps = 1;", "let compsNext = 1;", "let comps = 1;"), "let compsNext = 1;");
    // new_text writing the number as the document has it: completed.
    assert_eq!(merged("max: 1", "max: 16\nmin: 2", "max: 16"), "max: 16\nmin: 2");
}

#[test]
fn units_split_words_blanks_and_symbols() {
    assert_eq!(complete::units("max:  16,x_1 e\u{301}"), ["max", ":", "  ", "16", ",", "x_1", " ", "e\u{301}"]);
    assert_eq!(complete::units("東京"), ["東", "京"]);
}

#[test]
fn a_typo_only_in_old_text_that_new_text_spells_as_the_document_does_is_a_clean_merge() {
    // Both sides dropped one space of two: they agree on the text there, written once.
    assert_eq!(merged("retries:  3\ntimeout: 30", "retries: 3\ntimeout: 60", "retries: 3\ntimeout: 30"), "retries: 3\ntimeout: 60");
    // Not when the change does more than the region there: which space each dropped decides
    // the text (one or none), so it is refused.
    assert!(matches!(merge("a\n  =", "a\n ", "a\n ="), Outcome::Conflict(_)));
    // A misspelt key next to the change.
    assert_eq!(merged("databse.timeout: 30", "database.timeout: 60", "database.timeout: 30"), "database.timeout: 60");
}
