//! Property tests of near misses (docs/architecture.md#matching): on arbitrary text nothing panics, regions are in
//! bounds, after `from`, non-overlapping, best first, and their similarity is the similarity of
//! their own text; a needle copied from the document with one char changed is found; the
//! similarity and the description keep their bounds.
#![cfg(not(target_arch = "wasm32"))]

use agentpad::matching::near::{describe_difference, near_misses, similarity, Label, NearMiss, MAX_DESCRIPTION_CHARS};
use proptest::prelude::*;
use ropey::Rope;

/// Text over an alphabet that hits the awkward cases: newlines, spaces, tabs, multi-byte chars
/// (CJK, emoji, combining marks), and a few letters so that trigrams repeat.
fn awkward_text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!['a', 'b', 'c', ' ', ' ', '\n', '\n', '\t', '超', '时', '🚀', 'é', '\u{301}', '·', '0']),
        0..max,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// Code-like text: words from a small vocabulary, spaces, newlines and indentation.
fn wordy_text() -> impl Strategy<Value = String> {
    let vocabulary: Vec<&str> =
        "let|value|=|compute(|);|return|timeout:|30|retries|{|}|if|else|超时|🚀|api.timeout|# s|fn|main()|x".split('|').collect();
    prop::collection::vec((prop::sample::select(vocabulary), prop::sample::select(vec![" ", " ", "\n", "\n    "])), 20..200)
        .prop_map(|words| words.into_iter().flat_map(|(w, sep)| [w, sep]).collect())
}

fn check_invariants(rope: &Rope, needle: &str, from: usize, limit: usize, found: &[NearMiss]) {
    assert!(found.len() <= limit);
    let from = from.min(rope.len_chars());
    for (i, n) in found.iter().enumerate() {
        assert!(n.range.start >= from, "{n:?} starts before {from}");
        assert!(n.range.start < n.range.end && n.range.end <= rope.len_chars(), "{n:?} out of bounds");
        assert!(n.similarity > 0.0 && n.similarity <= 1.0, "{n:?}");
        let text = rope.slice(n.range.clone()).to_string();
        assert_eq!(n.similarity, similarity(needle, &text), "similarity of {text:?}");
        if let Some(next) = found.get(i + 1) {
            assert!(
                n.similarity > next.similarity || (n.similarity == next.similarity && n.range.start < next.range.start),
                "not best first: {n:?} then {next:?}"
            );
        }
        for other in &found[i + 1..] {
            assert!(n.range.end <= other.range.start || other.range.end <= n.range.start, "{n:?} overlaps {other:?}");
        }
    }
}

proptest! {
    #![proptest_config(agentpad::internal_tests::seeded("proptest-regressions/matching/near/model_tests.txt", 400))]

    #[test]
    fn arbitrary_text_never_panics_and_regions_keep_their_invariants(
        doc in awkward_text(300),
        needle in awkward_text(40),
        from in 0usize..320,
        limit in 0usize..8,
    ) {
        let rope = Rope::from_str(&doc);
        let found = near_misses(&rope, &needle, from, limit);
        check_invariants(&rope, &needle, from, limit, &found);
        if needle.is_empty() || limit == 0 {
            prop_assert!(found.is_empty());
        }
    }

    #[test]
    fn a_copied_region_with_one_char_changed_is_found(
        doc in wordy_text(),
        start_pick in any::<prop::sample::Index>(),
        len in 8usize..80,
        change_pick in any::<prop::sample::Index>(),
        replacement in prop::sample::select(vec!['Q', 'z', '#', '界', ' ']),
    ) {
        let chars: Vec<char> = doc.chars().collect();
        prop_assume!(chars.len() > len);
        let start = start_pick.index(chars.len() - len);
        let region = start..start + len;
        let mut needle: Vec<char> = chars[region.clone()].to_vec();
        let at = change_pick.index(len);
        prop_assume!(needle[at] != replacement);
        needle[at] = replacement;
        let needle: String = needle.into_iter().collect();
        let rope = Rope::from_str(&doc);
        let found = near_misses(&rope, &needle, 0, 5);
        check_invariants(&rope, &needle, 0, 5, &found);
        let region_text: String = chars[region.clone()].iter().collect();
        let region_similarity = similarity(&needle, &region_text);
        let top = found.first().expect("a region copied from the document must come back");
        let overlaps = top.range.start < region.end && region.start < top.range.end;
        prop_assert!(
            overlaps || top.similarity >= region_similarity,
            "region {region:?} (similarity {region_similarity}) missed; top {top:?}"
        );
    }

    #[test]
    fn similarity_is_bounded_symmetric_and_one_only_for_equal_text(
        a in awkward_text(60),
        b in awkward_text(60),
    ) {
        let s = similarity(&a, &b);
        prop_assert!((0.0..=1.0).contains(&s));
        prop_assert_eq!(s == 1.0, a == b);
        prop_assert_eq!(s, similarity(&b, &a));
        prop_assert_eq!(similarity(&a, &a), 1.0);
    }

    #[test]
    fn description_is_bounded_and_empty_only_for_equal_text(
        a in awkward_text(400),
        b in awkward_text(400),
    ) {
        // Labels as English words them (src/locale/en.rs `diff.*`).
        let en = |l: Label| match l {
            Label::Line(n) => format!("line {n}: "),
            Label::After(n) => format!("after line {n}: "),
            Label::BeforeFirst => "before line 1: ".to_string(),
            Label::DifferencesAfter(n) => format!("(differences after line {n})"),
        };
        let d = describe_difference(&a, &b, &en);
        prop_assert!(d.chars().count() <= MAX_DESCRIPTION_CHARS);
        prop_assert_eq!(d.is_empty(), a == b);
        // Whitespace is always made visible: only the `line N: ` labels hold spaces (the last
        // line of a cut answer may end inside a label).
        let cut = d.ends_with('…') && d.chars().count() == MAX_DESCRIPTION_CHARS;
        let shown = d.lines().count() - usize::from(cut);
        for line in d.lines().take(shown) {
            let body = ["before line 1: ", "after line ", "line "]
                .iter()
                .find_map(|label| line.strip_prefix(label))
                .map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_digit()))
                .map(|rest| rest.trim_start_matches(": "))
                .unwrap_or(line);
            prop_assert!(!body.contains(' ') && !body.contains('\t'), "{:?}", line);
        }
    }
}

#[test]
fn a_large_document_is_searched_without_scanning_every_offset() {
    // Not a timing test: a 2 MB document with a quadratic scan would not finish in a test run.
    let mut doc = String::new();
    for i in 0..50_000 {
        doc.push_str(&format!("    let value_{i} = compute({}, \"k{}\");\n", i * 7 % 1000, i % 97));
    }
    let rope = Rope::from_str(&doc);
    let needle = "    let value_31337 = compute(358, \"k6\");\n    let value_31338 = compute(366, \"k7\");";
    let found = near_misses(&rope, needle, 0, 3);
    let top = rope.slice(found[0].range.clone()).to_string();
    assert_eq!(top, "    let value_31337 = compute(359, \"k6\");\n    let value_31338 = compute(366, \"k7\");");
    // One line, with the typo in the number.
    let found = near_misses(&rope, "value_31338 = compute(336", 0, 3);
    assert_eq!(rope.slice(found[0].range.clone()).to_string(), "value_31338 = compute(366");
}

// ---- the near-miss recommendation (matching/near/clear_best.rs)

/// Words for blocks (letters only) and for the filler around them (digits only: no word, and few
/// trigrams, in common with a block).
const BLOCK_WORDS: &[&str] = &["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"];
const SWAP_WORDS: &[&str] = &["mike", "oscar", "papa", "romeo", "sierra", "tango"];

/// A block of 4 to 6 lines of 5 to 7 block words, each line indented by 4 spaces.
fn block() -> impl Strategy<Value = Vec<Vec<&'static str>>> {
    prop::collection::vec(prop::collection::vec(prop::sample::select(BLOCK_WORDS), 5..8), 4..7)
}

fn render(lines: &[Vec<&str>]) -> String {
    lines.iter().map(|l| format!("    {}", l.join(" "))).collect::<Vec<_>>().join("\n")
}

/// Filler lines of numbers.
fn filler() -> impl Strategy<Value = String> {
    prop::collection::vec(0u32..100_000, 1..12).prop_map(|ns| ns.iter().map(|n| format!("{n} {}\n", n * 7)).collect())
}

proptest! {
    #![proptest_config(agentpad::internal_tests::seeded("proptest-regressions/matching/near/model_tests.txt", 96))]

    /// Two copies of a block, each one word away from old_text (the same word, swapped for
    /// different ones): both are as plausible, and nothing is recommended. One copy alone is.
    #[test]
    fn two_equally_plausible_regions_get_no_recommendation(
        lines in block(),
        line in any::<prop::sample::Index>(),
        word in any::<prop::sample::Index>(),
        swaps in (prop::sample::select(SWAP_WORDS), prop::sample::select(SWAP_WORDS)),
        (head, mid, tail) in (filler(), filler(), filler()),
    ) {
        use agentpad::matching::near::clear_best::recommend;
        let needle = render(&lines);
        let at = line.index(lines.len());
        let w = word.index(lines[at].len());
        let copy = |swap: &'static str| {
            let mut c = lines.clone();
            c[at][w] = swap;
            render(&c)
        };
        let (one, two) = (copy(swaps.0), copy(swaps.1));
        let doc = format!("{head}{one}\n{mid}{two}\n{tail}");
        let rope = Rope::from_str(&doc);
        let found = near_misses(&rope, &needle, 0, 3);
        prop_assert!(found.len() >= 2, "both copies are found: {found:?}");
        prop_assert_eq!(recommend(&rope, &needle, &found), None);
        // The same copy twice: no recommendation either.
        let doc = format!("{head}{one}\n{mid}{one}\n{tail}");
        let rope = Rope::from_str(&doc);
        let found = near_misses(&rope, &needle, 0, 3);
        prop_assert_eq!(recommend(&rope, &needle, &found), None);
        // One copy: it is recommended, for its one word.
        let doc = format!("{head}{one}\n{mid}");
        let rope = Rope::from_str(&doc);
        let found = near_misses(&rope, &needle, 0, 3);
        prop_assert_eq!(
            recommend(&rope, &needle, &found),
            Some((0, agentpad::Reason::OneToken)),
            "{:?}", found
        );
    }
}

/// Through the workspace: a `NoMatch` whose best near miss differs in one word marks it
/// recommended with its reason, in the JSON and beside the candidate in the Markdown (which keeps
/// the response contract), and picking it stages the change there; a second copy of the block
/// takes the recommendation away.
#[test]
fn a_recommended_near_miss_is_explained_and_stages_in_one_pick() {
    use agentpad::{CallContext, Config, MemoryStorage, Status, Workspace};
    let block = "def load(path):\n    with open(path) as handle:\n        data = handle.read()\n    return parse_config(data)\n";
    let attempt = serde_json::json!({
        "old_text": "    with open(path) as handle:\n        data = handle.read()\n    return parse(data)",
        "new_text": "    with open(path) as handle:\n        data = handle.read().strip()\n    return parse(data)",
    });
    let run = |doc: &str| {
        let mut storage = MemoryStorage::new(&[("a.py", doc)]);
        let mut ws = Workspace::new(Config::default());
        ws.open_from(&mut storage, "a.py").unwrap();
        let r = ws.run("memo_replace", &attempt, &CallContext::default(), &mut storage);
        assert!(agentpad::validate::validate(&r.markdown).is_ok(), "{}", r.markdown);
        (ws, storage, r)
    };
    let (mut ws, mut storage, r) = run(&format!("import os\n\n{block}"));
    assert_eq!(r.status, Status::NoMatch);
    let a = &r.candidates[0];
    assert!(a.recommended, "{}", r.markdown);
    assert_eq!(a.recommended_reason, Some(agentpad::Reason::OneToken));
    assert!(r.markdown.contains("← recommended (only one word or symbol differs from your old_text)"), "{}", r.markdown);
    let picked = ws.run("memo_replace_selection", &serde_json::json!({"selection_id": "A"}), &CallContext::default(), &mut storage);
    assert_eq!(picked.status, Status::Success, "{}", picked.markdown);
    assert!(ws.draft(None).unwrap().contains("data = handle.read().strip()\n    return parse_config(data)"));
    // Two copies: equally plausible, nothing recommended.
    let (_, _, r) = run(&format!("{block}\n{block}"));
    assert_eq!(r.status, Status::NoMatch);
    assert!(r.candidates.len() >= 2 && r.candidates.iter().all(|c| !c.recommended), "{}", r.markdown);
}
