//! Property tests of the matching engine against plain models: the chunked memmem search and
//! `locate` agree with `str::match_indices`; every fuzzy match normalises to the needle under its
//! tier; nothing panics on arbitrary text.
#![cfg(not(target_arch = "wasm32"))]

use agentpad::changeset::ChangeSet;
use agentpad::matching::exact::{find_bytes, find_chars_layered, Layered};
use agentpad::matching::normalize::{normalize_line, Tier};
use agentpad::matching::{locate, near};
use agentpad::text::Text;
use proptest::prelude::*;
use ropey::Rope;

proptest! {
    #![proptest_config(agentpad::internal_tests::seeded("proptest-regressions/matching/model_tests.txt", 300))]

    #[test]
    fn chunked_search_equals_match_indices(
        pieces in prop::collection::vec("[ab\n中]{0,300}", 1..12),
        needle in "[ab\n中]{1,6}",
    ) {
        // Building by inserts at the end leaves chunk seams at arbitrary places.
        let mut rope = Rope::new();
        for p in &pieces {
            let end = rope.len_chars();
            rope.insert(end, p);
        }
        let flat: String = pieces.concat();
        let model: Vec<usize> = flat.match_indices(needle.as_str()).map(|(i, _)| i).collect();
        prop_assert_eq!(find_bytes(&rope, &needle), model);
    }

    #[test]
    fn layered_search_equals_match_indices_on_the_draft(
        base in "[ab\n中😀]{0,120}",
        edits in prop::collection::vec((0usize..130, 0usize..5, "[ab中]{0,4}"), 0..6),
        needle_pick in prop_oneof![
            "[ab\n中😀]{1,4}".prop_map(Some),
            Just(None),
        ],
        needle_at in 0usize..200,
        needle_len in 1usize..8,
    ) {
        // Random non-overlapping replacements on a random base (chars), searched for a random
        // needle or for a piece of the draft (so hits across replacement edges are common).
        let chars: Vec<char> = base.chars().collect();
        let mut cuts: Vec<(usize, usize, String)> = edits.into_iter().map(|(s, l, t)| {
            let s = s.min(chars.len());
            (s, (s + l).min(chars.len()), t)
        }).collect();
        cuts.sort_by_key(|c| (c.0, c.1));
        let mut set = ChangeSet::new(chars.len());
        let mut last_end = 0;
        for (s, e, t) in cuts {
            if s < last_end { continue; }
            if set.try_push(s..e, t).is_ok() { last_end = e; }
        }
        let text = Text::from_storage(&base);
        let draft = set.apply(text.rope()).unwrap();
        let flat = draft.to_string();
        let needle = needle_pick.unwrap_or_else(|| {
            let d: Vec<char> = flat.chars().collect();
            if d.is_empty() { return "a".into(); }
            let at = needle_at % d.len();
            d[at..(at + needle_len).min(d.len())].iter().collect()
        });
        let model: Vec<usize> = flat.match_indices(needle.as_str()).map(|(b, _)| flat[..b].chars().count()).collect();
        let layers = Layered { base: &text, changes: &set, draft: &draft };
        prop_assert_eq!(find_chars_layered(&layers, &needle), model, "needle {:?} in {:?}", needle, flat);
    }

    #[test]
    fn chunks_of_every_size_and_needles_of_every_length(
        inserts in prop::collection::vec(("[ab\n中]{1,200}", any::<prop::sample::Index>()), 1..60),
        needle_at in any::<prop::sample::Index>(),
        needle_len in prop_oneof![1usize..8, 8usize..120, 120usize..900],
    ) {
        // Inserts at random places fragment the rope: long chunks are searched in place, short
        // ones gathered into blocks, and long needles cross several chunks.
        let mut rope = Rope::new();
        let mut flat = String::new();
        for (piece, at) in &inserts {
            let char_at = at.index(rope.len_chars() + 1);
            rope.insert(char_at, piece);
            let byte_at = flat.char_indices().nth(char_at).map_or(flat.len(), |(b, _)| b);
            flat.insert_str(byte_at, piece);
        }
        let starts: Vec<usize> = flat.char_indices().map(|(b, _)| b).collect();
        let from = starts[needle_at.index(starts.len())];
        let to = starts.iter().copied().chain([flat.len()]).find(|&b| b >= from + needle_len.min(flat.len() - from)).unwrap_or(flat.len());
        let needle = &flat[from..to.max(from + 1).min(flat.len())];
        prop_assume!(!needle.is_empty() && flat.is_char_boundary(from + needle.len()));
        let model: Vec<usize> = flat.match_indices(needle).map(|(i, _)| i).collect();
        prop_assert_eq!(find_bytes(&rope, needle), model);
    }
}

/// Char ranges of `needle` in `hay` by the naive reference: `str::match_indices`.
fn naive_char_ranges(hay: &str, needle: &str) -> Vec<std::ops::Range<usize>> {
    let n = needle.chars().count();
    hay.match_indices(needle)
        .map(|(b, _)| {
            let start = hay[..b].chars().count();
            start..start + n
        })
        .collect()
}

/// Each line of `text` normalised under `tier`, as strings.
fn normalised_lines(text: &str, tier: Tier) -> Vec<String> {
    text.split('\n').map(|l| normalize_line(l, tier, &mut agentpad::matching::Budget::unlimited()).text.into_iter().collect()).collect()
}

/// Documents full of what the tiers look through: spaces, tabs, NBSP, curly quotes, dashes.
const FUZZY_DOC: &str = "[ab \t\n\u{00A0}\u{201C}\"\u{2014}\\-中😀]{1,160}";

proptest! {
    #![proptest_config(agentpad::internal_tests::seeded("proptest-regressions/matching/model_tests.txt", 400))]

    /// Whenever the needle occurs, `locate` reports exactly the naive occurrences, exact.
    #[test]
    fn locate_agrees_with_the_naive_reference(doc in "[ab\n中😀 ]{0,200}", needle in "[ab\n中😀 ]{1,5}") {
        let rope = Rope::from_str(&doc);
        let naive = naive_char_ranges(&doc, &needle);
        let located = locate(&rope, &needle, 0);
        if !naive.is_empty() {
            prop_assert_eq!(located.matches.iter().map(|m| m.range.clone()).collect::<Vec<_>>(), naive);
            prop_assert!(located.matches.iter().all(|m| m.quality.is_exact()));
        } else {
            prop_assert!(located.matches.iter().all(|m| !m.quality.is_exact()));
        }
    }

    /// Every match, sliced from the document, equals the needle (exact) or normalises to it line
    /// by line under its tier; matches are in order, in bounds and never overlap.
    #[test]
    fn every_match_normalises_to_the_needle(doc in FUZZY_DOC, start in 0usize..160, len in 1usize..12, from in 0usize..40) {
        let chars: Vec<char> = doc.chars().collect();
        let start = start % chars.len();
        let end = (start + len).min(chars.len());
        // A needle cut from the document, with its whitespace and look-alikes disturbed.
        let needle: String = chars[start..end]
            .iter()
            .map(|&c| match c {
                '\u{00A0}' => ' ',
                '\u{201C}' => '"',
                '\u{2014}' => '-',
                '\t' => ' ',
                c => c,
            })
            .collect();
        prop_assume!(!needle.is_empty());
        let rope = Rope::from_str(&doc);
        let located = locate(&rope, &needle, from);
        let mut last_end = 0;
        for m in &located.matches {
            prop_assert!(m.range.start >= from.min(rope.len_chars()) && m.range.end <= rope.len_chars());
            prop_assert!(m.range.start >= last_end, "overlap or disorder: {:?}", located.matches);
            last_end = m.range.end.max(m.range.start);
            let found = rope.slice(m.range.clone()).to_string();
            match m.quality.tier {
                None => prop_assert_eq!(&found, &located.needle),
                Some(tier) => {
                    let mut want = normalised_lines(&located.needle, tier);
                    // A final line break may match the end of a document that has none.
                    if m.range.end == rope.len_chars() && !found.ends_with('\n') && located.needle.ends_with('\n') {
                        want.pop();
                    }
                    prop_assert_eq!(normalised_lines(&found, tier), want, "found {:?}", found)
                }
            }
        }
    }

    /// Nothing panics on arbitrary text, and near misses stay in bounds.
    #[test]
    fn arbitrary_input_never_panics(doc in "\\PC{0,120}", needle in "\\PC{1,20}", from in 0usize..200) {
        let rope = Rope::from_str(&doc);
        let located = locate(&rope, &needle, from);
        for m in &located.matches {
            prop_assert!(m.range.start <= m.range.end && m.range.end <= rope.len_chars());
            let _ = m.replacement("x\n\ty");
        }
        if located.matches.is_empty() {
            for n in near::near_misses(&rope, &needle, from, 3) {
                prop_assert!(n.range.end <= rope.len_chars() && (0.0..=1.0).contains(&n.similarity));
            }
        }
    }
}

// ---- the elided-middle tier (src/matching/elide.rs) -------------------------------------------
// In random documents full of repeated lines, a block copied with its middle left out under a
// placeholder is found as exactly that block, or offered as candidates, or refused — never a
// wider or another region; and what is written there is the block with only the model's change.

mod elided {
    use agentpad::matching::elide;
    use agentpad::matching::locate;
    use agentpad::matching::normalize::Tier;
    use proptest::prelude::*;
    use ropey::Rope;

    /// Lines that repeat a lot (so anchors are often ambiguous), none of them a placeholder.
    const LINES: [&str; 9] = ["fn f() {", "    x();", "}", "", "    let a = 1;", "...rest", "# note", "  }", "end"];
    const MARKERS: [&str; 6] = ["...", "    // ... existing code ...", "# ...", "…", "/* ... */", "    // rest unchanged"];

    /// The char range of lines `from..to` of `lines` (joined by `\n`), without the last line break.
    fn block_range(lines: &[&str], from: usize, to: usize) -> std::ops::Range<usize> {
        let start: usize = lines.iter().take(from).map(|l| l.chars().count() + 1).sum();
        let len: usize = lines.get(from..to).unwrap_or_default().iter().map(|l| l.chars().count() + 1).sum::<usize>() - 1;
        start..start + len
    }

    proptest! {
        #![proptest_config(ProptestConfig { max_global_rejects: 1_000_000, ..agentpad::internal_tests::seeded("proptest-regressions/matching/model_tests.txt", 2000) })]

        #[test]
        fn an_elided_block_is_found_as_itself_or_not_at_all(
            picks in prop::collection::vec(0usize..LINES.len(), 4..60),
            at in any::<prop::sample::Index>(),
            sizes in (1usize..4, 0usize..8, 1usize..4),
            marker in 0usize..MARKERS.len(),
            change_first in any::<bool>(),
        ) {
            let lines: Vec<&str> = picks.iter().map(|&i| LINES[i]).collect();
            let (head, middle, tail) = sizes;
            prop_assume!(head + middle + tail <= lines.len());
            let from = at.index(lines.len() - (head + middle + tail) + 1);
            let (a, b, to) = (from + head, from + head + middle, from + head + middle + tail);
            // Each side of the placeholder holds some text (else the block is not what it anchors).
            prop_assume!(lines[from..a].iter().any(|l| !l.trim().is_empty()) && lines[b..to].iter().any(|l| !l.trim().is_empty()));
            let doc = format!("{}\n", lines.join("\n"));
            let mut needle_lines: Vec<&str> = lines[from..a].to_vec();
            needle_lines.push(MARKERS[marker]);
            needle_lines.extend_from_slice(&lines[b..to]);
            let needle = needle_lines.join("\n");
            // The model's change: a line added after the first line, or after the last.
            let mut new_lines = needle_lines.clone();
            let mut want_lines = lines.clone();
            if change_first {
                new_lines.insert(1, "ADDED");
                want_lines.insert(from + 1, "ADDED");
            } else {
                new_lines.push("ADDED");
                want_lines.insert(to, "ADDED");
            }
            let new_text = new_lines.join("\n");
            let want = format!("{}\n", want_lines.join("\n"));

            let rope = Rope::from_str(&doc);
            let located = locate(&rope, &needle, 0);
            let Some(quality) = located.quality() else { return Ok(()) };
            // A needle the document holds with a placeholder-like line is another tier's.
            prop_assume!(quality.tier == Some(Tier::Elided));
            let block = block_range(&lines, from, to);
            // Candidates never overlap one another.
            for pair in located.matches.windows(2) {
                prop_assert!(pair[0].range.end <= pair[1].range.start);
            }
            if located.matches.len() > 1 {
                return Ok(()); // listed as candidates: nothing is written
            }
            let m = &located.matches[0];
            if elide::unmapped(&located.matches, None, &new_text).is_some() {
                return Ok(()); // refused: nothing is written
            }
            let reindent = m.reindent.as_ref().expect("an elided match carries its lines");
            let e = reindent.elided.as_deref().expect("an elided match carries its lines");
            if e.unsettled.is_none() && e.unsettled_first.is_none() {
                prop_assert_eq!(m.range.clone(), block, "the one match is the block");
            } else {
                // Another reading is possible: the match is never wider than the block's lines.
                prop_assert!(m.range.start >= block.start && m.range.end <= block.end, "{:?} within {:?}", m.range, block);
            }
            let written = m.replacement(&new_text);
            let mut got = doc.clone();
            got.replace_range(m.range.clone(), &written); // the alphabet is ASCII: chars are bytes
            prop_assert_eq!(got, want, "needle {:?} new_text {:?}", needle, new_text);
        }
    }
}
