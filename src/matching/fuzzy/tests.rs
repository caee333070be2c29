//! Unit tests of the fuzzy tiers (src/matching/fuzzy.rs).
use super::*;

fn run(doc: &str, needle: &str) -> (Vec<String>, Option<Tier>) {
    let rope = Rope::from_str(doc);
    let found = find(&rope, needle, 0, &mut Budget::unlimited());
    (found.iter().map(|m| slice(&rope, &m.range)).collect(), found.first().and_then(|m| m.quality.tier))
}

#[test]
fn each_tier_finds_what_it_ignores_and_no_more() {
    struct Case {
        doc: &'static str,
        needle: &'static str,
        hits: &'static [&'static str],
        tier: Option<Tier>,
    }
    let cases = [
        Case { doc: "fn a() {  \n}\n", needle: "fn a() {\n}", hits: &["fn a() {  \n}"], tier: Some(Tier::TrailingWhitespace) },
        Case {
            doc: "x\n    if y:\n        z()\n",
            needle: "if y:\n    z()",
            hits: &["    if y:\n        z()"],
            tier: Some(Tier::Indentation),
        },
        Case {
            doc: "say \u{201C}hi\u{201D} \u{2014} ok\n",
            needle: "say \"hi\" - ok",
            hits: &["say \u{201C}hi\u{201D} \u{2014} ok"],
            tier: Some(Tier::Unicode),
        },
        Case { doc: "let  x =\t1;\n", needle: "let x = 1;", hits: &["let  x =\t1;"], tier: Some(Tier::Whitespace) },
        Case { doc: "a\u{00A0}b\n", needle: "a b", hits: &["a\u{00A0}b"], tier: Some(Tier::Unicode) },
        Case { doc: "a\u{3000}b\n", needle: "a b", hits: &["a\u{3000}b"], tier: Some(Tier::Unicode) },
        // Nothing to find: different words are not a whitespace difference.
        Case { doc: "let x = 1;\n", needle: "let y = 1;", hits: &[], tier: None },
        // Whitespace-only needles never match fuzzily.
        Case { doc: "a  \n  b\n", needle: "   ", hits: &[], tier: None },
    ];
    for c in cases {
        let (hits, tier) = run(c.doc, c.needle);
        assert_eq!(hits, c.hits, "needle {:?} in {:?}", c.needle, c.doc);
        assert_eq!(tier, c.tier, "needle {:?}", c.needle);
    }
}

#[test]
fn the_lowest_tier_wins_and_all_its_matches_are_candidates() {
    // Two lines match with trailing whitespace ignored, one more only at the whitespace tier.
    let doc = "v = 1  \nv  =  1\nv = 1 \n";
    let (hits, tier) = run(doc, "v = 1 \t");
    assert_eq!(tier, Some(Tier::TrailingWhitespace));
    // A matched line's trailing whitespace is part of the match (`new_text` replaces it).
    assert_eq!(hits, vec!["v = 1  ", "v = 1 "]);
}

#[test]
fn fragments_match_inside_lines() {
    let (hits, tier) = run("call(a,  b) + 1\n", "(a, b)");
    assert_eq!((hits, tier), (vec!["(a,  b)".to_string()], Some(Tier::Whitespace)));
    // first line a suffix, last line a prefix
    let (hits, _) = run("x = [  \n  1,\n  2] + y\n", "[\n1,\n2]");
    assert_eq!(hits, vec!["[  \n  1,\n  2]"]);
}

#[test]
fn reindent_keeps_tabs_tabs() {
    let doc = "fn f() {\n\t\tif x {\n\t\t\ty();\n\t\t}\n}\n";
    let rope = Rope::from_str(doc);
    let found = find(&rope, "    if x {\n        y();\n    }", 0, &mut Budget::unlimited());
    assert_eq!(found.len(), 1);
    let m = &found[0];
    assert_eq!(m.quality.tier, Some(Tier::Indentation));
    assert_eq!(slice(&rope, &m.range), "\t\tif x {\n\t\t\ty();\n\t\t}");
    let r = m.reindent.as_ref().unwrap();
    assert_eq!(r.tab_width, 4);
    assert_eq!(m.replacement("    if x {\n        z();\n            w();\n    }"), "\t\tif x {\n\t\t\tz();\n\t\t\t\tw();\n\t\t}");
}

#[test]
fn reindent_from_unindented_needle_and_to_spaces() {
    let rope = Rope::from_str("class A:\n    def f(self):\n        return 1\n");
    let found = find(&rope, "def f(self):\n    return 1", 0, &mut Budget::unlimited());
    assert_eq!(found[0].replacement("def f(self):\n    return 2"), "    def f(self):\n        return 2");
    let r = Reindent {
        lines: vec![("\t".into(), 0)],
        tab_width: 4,
        doc_tabs: Some(false),
        skip_first_line: false,
        old_text: String::new(),
        swaps: Vec::new(),
        drop_final_break: false,
        elided: None,
        kept_indents: Vec::new(),
        decompose: false,
    };
    // A tab is as wide as the 4 spaces it becomes: lines keep their width, written as spaces.
    assert_eq!(r.apply("\ta\n\t\tb\n\n  \nc"), "    a\n        b\n\n  \nc");
    // One flattened nested line gets its depth back; extra lines take the last shift.
    let rope = Rope::from_str("fn a() {\n    x();\n}\n");
    let found = find(&rope, "fn a() {\nx();", 0, &mut Budget::unlimited());
    assert_eq!(found[0].replacement("fn a() {\ny();\nz();"), "fn a() {\n    y();\n    z();");
    // Same width, other style: spaces become the document's tab.
    let rope = Rope::from_str("if a:\n\tv()\nif b:\n\tv()\n");
    let found = find(&rope, "if b:\n    v()", 0, &mut Budget::unlimited());
    assert_eq!(found[0].replacement("if b:\n    w()"), "if b:\n\tw()");
    // An inserted line follows the old_text line with its indentation, not its position.
    let rope = Rope::from_str("\t\tdeep()\nz\n");
    let found = find(&rope, "  deep()\nz", 0, &mut Budget::unlimited());
    assert_eq!(found[0].replacement("  a()\n  b()\nz"), "\t\ta()\n\t\tb()\nz");
}

#[test]
fn a_needle_starting_mid_line_keeps_its_first_line() {
    let rope = Rope::from_str("x = f(\n        a,\n        b)\n");
    let found = find(&rope, "f(\n    a,\n    b)", 0, &mut Budget::unlimited());
    assert_eq!(found.len(), 1);
    assert_eq!(slice(&rope, &found[0].range), "f(\n        a,\n        b)");
    assert_eq!(found[0].replacement("f(\n    c,\n    d)"), "f(\n        c,\n        d)");
}

#[test]
fn from_is_respected_and_windows_without_a_token_are_scanned() {
    let doc = "a  b\nc\na  b\n";
    let rope = Rope::from_str(doc);
    // "a b" has no stable token of 3 chars: every line is examined.
    assert_eq!(find(&rope, "a b", 0, &mut Budget::unlimited()).len(), 2);
    assert_eq!(find(&rope, "a b", 5, &mut Budget::unlimited()).len(), 1);
    assert_eq!(find(&rope, "a b", 5, &mut Budget::unlimited())[0].range.start, 7);
}

#[test]
fn needles_longer_than_the_document_and_empty_documents() {
    assert!(run("", "abc").0.is_empty());
    assert!(run("a", "a\nb\nc").0.is_empty());
    assert!(run("\n\n", "x").0.is_empty());
}

#[test]
fn a_final_line_break_the_document_lacks_is_trailing_whitespace() {
    let (hits, tier) = run("y\nx = 1", "x = 1\n");
    assert_eq!((hits, tier), (vec!["x = 1".to_string()], Some(Tier::TrailingWhitespace)));
    let (hits, _) = run("a\nb", "a\nb\n");
    assert_eq!(hits, vec!["a\nb"]);
    // With the break present the exact tier finds it; without a needle break nothing changes.
    assert!(run("x = 1\n", "x = 2\n").0.is_empty());
    // new_text keeping the break adds none: the document still ends without one.
    let rope = Rope::from_str("y\nx = 1");
    assert_eq!(find(&rope, "x = 1\n", 0, &mut Budget::unlimited())[0].replacement("x = 2\n"), "x = 2");
    assert_eq!(find(&rope, "x = 1\n", 0, &mut Budget::unlimited())[0].replacement("x = 2\nz\n"), "x = 2\nz");
}

/// The linear scan over line ids finds exactly what examining every window finds, on
/// documents made of a few repeated lines (where they differ in cost) and needles cut from
/// them, some with their whitespace mangled.
#[test]
fn the_line_id_scan_agrees_with_examining_every_window() {
    let pool = ["}", "  }", "", "a b", "a  b ", "\tx = 1", "x = 1  ", "  \u{201C}q\u{201D}"];
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for _ in 0..3000 {
        let doc_lines: Vec<&str> = (0..1 + next(40)).map(|_| pool[next(pool.len())]).collect();
        let mut doc = doc_lines.join("\n");
        if next(2) == 0 {
            doc.push('\n');
        }
        let start = next(doc_lines.len());
        let len = 1 + next(doc_lines.len() - start);
        let mut needle_lines: Vec<String> = doc_lines[start..start + len].iter().map(|l| l.to_string()).collect();
        for l in &mut needle_lines {
            match next(4) {
                0 => *l = l.trim_start().to_string(),
                1 => l.push_str("  "),
                2 => *l = l.replace("  ", " "),
                _ => {}
            }
        }
        let mut needle = needle_lines.join("\n");
        if next(3) == 0 {
            needle.push('\n');
        }
        if needle.chars().all(char::is_whitespace) {
            continue;
        }
        let rope = Rope::from_str(&doc);
        let from = next(rope.len_chars() + 1);
        let lines: Vec<&str> = needle.split('\n').collect();
        let k = lines.len();
        let open_end = lines.last() == Some(&"") && rope.len_chars() > 0 && rope.char(rope.len_chars() - 1) != '\n';
        let line_count = rope.len_lines() + usize::from(open_end);
        if k > line_count {
            continue;
        }
        let first_line = rope.char_to_line(from.min(rope.len_chars()));
        let per_tier: Vec<Vec<NormLine>> =
            Tier::FUZZY.iter().map(|&t| lines.iter().map(|l| normalize_line(l, t, &mut Budget::unlimited())).collect()).collect();
        let every: Vec<usize> = (first_line..=line_count - k).collect();
        let windowed = leftmost(by_windows(&rope, every, &lines, &per_tier, from, &mut Budget::unlimited()));
        let scanned = leftmost(by_line_ids(&rope, first_line, line_count, &lines, &per_tier, from, &mut Budget::unlimited()));
        assert_eq!(scanned, windowed, "doc {doc:?} needle {needle:?} from {from}");
    }
}

#[test]
fn interned_lines_are_the_ropes_lines_across_chunks() {
    let mut doc = String::new();
    for i in 0..20_000 {
        doc.push_str(&["}", "", "  x = 1", "中文 line"][i % 4].repeat(1 + i % 7));
        doc.push('\n');
    }
    doc.push_str("tail");
    let rope = Rope::from_str(&doc);
    for first in [0, 1, 777, rope.len_lines() - 1] {
        for extra in [0, 1] {
            let (distinct, raw) = intern_lines(&rope, first, rope.len_lines() + extra, &mut Budget::unlimited());
            let got: Vec<&str> = raw.iter().map(|&id| distinct[id as usize].as_ref()).collect();
            let mut want: Vec<String> = rope.lines_at(first).map(|l| l.to_string().trim_end_matches('\n').to_string()).collect();
            want.extend(std::iter::repeat(String::new()).take(extra));
            assert_eq!(got, want, "from line {first}, {extra} past the end");
            // Equal lines share one id: as many ids as distinct texts.
            let texts: std::collections::BTreeSet<&String> = want.iter().collect();
            assert_eq!(distinct.len(), texts.len(), "from line {first}, {extra} past the end");
        }
    }
}

#[test]
fn replacements_keep_the_documents_trailing_whitespace_lookalikes_and_tabs() {
    let rep = |doc: &str, old: &str, new: &str| {
        let rope = Rope::from_str(doc);
        let found = find(&rope, old, 0, &mut Budget::unlimited());
        assert_eq!(found.len(), 1, "{doc:?} / {old:?}");
        let m = &found[0];
        let mut out = doc.to_string();
        let (a, b) = (rope.char_to_byte(m.range.start), rope.char_to_byte(m.range.end));
        out.replace_range(a..b, &m.replacement(new));
        out
    };
    // A rewritten line takes its trailing whitespace with it; a kept one keeps it.
    assert_eq!(rep("x\nalpha   \nbeta\t\ny", "alpha\nbeta", "ALPHA\nBETA"), "x\nALPHA\nBETA\ny");
    assert_eq!(rep("x\nalpha   \nbeta\t\ny", "alpha\nbeta", "alpha\nbeta2"), "x\nalpha   \nbeta2\t\ny");
    // Look-alikes the model kept are the document's; its own new text is its own.
    assert_eq!(
        rep("say \u{201C}hi\u{201D} \u{2014} it\u{2019}s\n", "say \"hi\" - it's", "say \"hi\" - it's 'ok'"),
        "say \u{201C}hi\u{201D} \u{2014} it\u{2019}s 'ok'\n"
    );
    // Re-indentation and look-alikes together: tabs stay tabs, the dash stays a dash.
    assert_eq!(
        rep("{\n\tif a {\n\t\tb(\u{2013}1);\n\t}\n}\n", "if a {\n    b(-1);\n}", "if a {\n    b(-1);\n    c();\n}"),
        "{\n\tif a {\n\t\tb(\u{2013}1);\n\t\tc();\n\t}\n}\n"
    );
}

#[test]
fn overlapping_windows_keep_the_leftmost() {
    let (hits, _) = run("}  \n}  \n}  \n", "}\n}");
    assert_eq!(hits, vec!["}  \n}  "]);
}

/// The ASCII path of the skeleton check answers what the char stream answers: on ASCII texts
/// with blanks, quotes, dashes and dots (which are not stable), and needles inside and outside
/// ASCII; on a text with a char outside ASCII it is the char stream.
#[test]
fn the_skeleton_check_of_an_ascii_text_is_the_char_streams() {
    let texts = ["a - b. \"c\" 'd'  e", "x=1; y = 2;\ty=3", "", "  ...  ", "héllo wörld", "a\u{0301}b c"];
    let needles = ["ab", "abcde", "x=1;y=2;", "y=3", "", "c\"d", "hllo", "héllo", "wörld", "ab", "bc", "zz"];
    let mut checked = 0;
    for text in texts {
        for needle in needles {
            let skeleton: Vec<char> = stable_chars(needle.chars()).collect();
            let by_chars = crate::matching::kmp::contains_in(stable_chars(text.chars()), &skeleton);
            assert_eq!(skeleton_contains(text, &skeleton, ascii_bytes(&skeleton).as_deref()), by_chars, "{text:?} / {needle:?}");
            checked += usize::from(by_chars);
        }
    }
    assert!(checked >= 8, "too few needles occur for the check to mean anything: {checked}");
}
