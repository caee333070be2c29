//! The matcher (docs/architecture.md#matching): `locate` (exact → gutters → fuzzy tiers) on a document, a needle and
//! a start offset; the layered search on a draft with pending replacements; near misses,
//! similarity, difference descriptions, tier normalisation, gutter stripping and
//! recommendations.
//!
//! Invariants: no panic; every range is in bounds, sorted and non-overlapping; exact matches
//! are exactly the needle's non-overlapping occurrences (`str::match_indices`) at or after the
//! start that cut no character from its combining marks; no match of any tier cuts one; an
//! elided match gives back its region for the needle itself; the layered search finds what a search of the flattened draft finds; similarity is in
//! 0..=1 and 1 only for identical text.

use agentpad::changeset::ChangeSet;
use agentpad::matching::exact::Layered;
use agentpad::matching::recommend::{self, Hints};
use agentpad::matching::{self, fuzzy, gutter, near, normalize, MatchQuality, Tier};
use agentpad::text::Text;
use arbitrary::{Result, Unstructured};
use ropey::Rope;

use super::gen;

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = run_inner(&mut u);
}

fn run_inner(u: &mut Unstructured) -> Result<()> {
    let doc = gen::document(u)?;
    let needle = gen::needle(u, &doc)?;
    let rope = Rope::from_str(&doc);
    let len = rope.len_chars();
    let from = if u.ratio(2, 3)? { 0 } else { u.int_in_range(0..=len)? };

    // Tier normalisation and gutter stripping on their own.
    for line in needle.split('\n').chain(doc.split('\n').take(4)) {
        for tier in Tier::ALL {
            let n = normalize::normalize_line(line, tier, &mut matching::Budget::unlimited());
            let _ = (n.len(), n.is_empty());
        }
        let _ = normalize::indentation(line);
    }
    if let Some(g) = gutter::strip(&needle) {
        assert!(g.lines > 0, "a gutter strip of no lines: {g:?}");
    }

    if !needle.is_empty() {
        // The full search order.
        let located = matching::locate(&rope, &needle, from);
        check_matches(&rope, &located.matches, "locate");
        let naive = naive_exact(&doc, &needle, from);
        if !naive.is_empty() {
            let got: Vec<_> = located.matches.iter().map(|m| (m.range.clone(), m.quality)).collect();
            let want: Vec<_> = naive.iter().map(|r| (r.clone(), MatchQuality::EXACT)).collect();
            assert_eq!(got, want, "exact matches of {needle:?} from {from} in {doc:?}");
        }
        for m in &located.matches {
            assert!(
                !agentpad::matching::marks::splits_a_character(&rope, &m.range),
                "a match cuts a character from its mark: {:?} in {doc:?}",
                m.range
            );
            if m.quality.is_exact() {
                assert_eq!(rope.slice(m.range.clone()).to_string(), needle, "an exact match that is not the needle");
            } else if m.quality == (MatchQuality { tier: None, gutter: true, elided: false }) {
                assert_eq!(rope.slice(m.range.clone()).to_string(), located.needle, "a gutter match that is not the stripped needle");
            }
            if m.quality.tier == Some(Tier::Elided) {
                // The needle written back at its elided match is the region as it is.
                assert_eq!(
                    m.replacement(&needle),
                    rope.slice(m.range.clone()).to_string(),
                    "an elided match of {needle:?} that does not give back its region"
                );
            }
            let _ = m.replacement("new\n  text");
        }
        // The fuzzy tiers directly.
        let fz = fuzzy::find(&rope, &needle, from, &mut matching::Budget::unlimited());
        check_matches(&rope, &fz, "fuzzy::find");

        // Recommendation among the candidates.
        if located.matches.len() >= 2 {
            let ranges: Vec<_> = located.matches.iter().map(|m| m.range.clone()).collect();
            let hints = Hints {
                anchor_end: if u.arbitrary()? { Some(u.int_in_range(0..=len)?) } else { None },
                focus: if u.arbitrary()? { Some(u.int_in_range(0..=len)?) } else { None },
                goal: if u.arbitrary()? { Some("change the timeout of section B") } else { None },
            };
            if let Some(r) = recommend::recommend(&rope, &ranges, &hints) {
                assert!(r.index < ranges.len(), "recommended {} of {} candidates", r.index, ranges.len());
            }
        }

        // Near misses, as shown after NoMatch.
        let limit = u.int_in_range(0..=5usize)?;
        for n in near::near_misses(&rope, &needle, from, limit) {
            assert!(n.range.start <= n.range.end && n.range.end <= len, "near miss {:?} out of 0..{len}", n.range);
            assert!((0.0..=1.0).contains(&n.similarity), "similarity {}", n.similarity);
            let found = rope.slice(n.range.clone()).to_string();
            let _ = near::describe_difference(&needle, &found, &|l| format!("{l:?}: "));
            let _ = near::two_decimals(n.similarity);
        }
    }

    // Similarity of two strings.
    let other = gen::needle(u, &doc)?;
    let s = near::similarity(&needle, &other);
    assert!((0.0..=1.0).contains(&s), "similarity({needle:?}, {other:?}) = {s}");
    if needle != other {
        assert!(s < 1.0, "similarity of different texts is 1: {needle:?} vs {other:?}");
    }
    let _ = near::describe_difference(&needle, &other, &|l| format!("{l:?}: "));

    // The layered search over base + pending replacements equals a search of the flat draft.
    let base = Text::from_storage(&doc);
    let base_len = base.rope().len_chars();
    let mut changes = ChangeSet::new(base_len);
    let mut cursor = 0usize;
    for _ in 0..u.int_in_range(0..=3u8)? {
        let start = (cursor + u.int_in_range(0..=6usize)?).min(base_len);
        let end = (start + u.int_in_range(0..=4usize)?).min(base_len);
        let text = if u.arbitrary()? { gen::needle(u, &doc)? } else { gen::text(u, 8)? };
        if changes.try_push(start..end, text).is_ok() {
            cursor = end;
        }
    }
    let Ok(draft) = changes.apply(base.rope()) else { panic!("a valid change set did not apply") };
    if !needle.is_empty() {
        let dfrom = from.min(draft.len_chars());
        let layers = Layered { base: &base, changes: &changes, draft: &draft };
        let layered = matching::locate_layered(&layers, &needle, dfrom);
        let flat = matching::locate(&draft, &needle, dfrom);
        assert_eq!(layered, flat, "layered and flat search disagree for {needle:?} from {dfrom} in {:?}", draft.to_string());
    }
    Ok(())
}

/// Char ranges of `needle`'s non-overlapping occurrences in `doc` (left to right, from the
/// start) that begin at or after char `from` and cut no character from its combining marks
/// (`cafe` is not in `cafe\u{301}`).
fn naive_exact(doc: &str, needle: &str, from: usize) -> Vec<std::ops::Range<usize>> {
    let m = needle.chars().count();
    let rope = Rope::from_str(doc);
    // Char offsets counted from the previous hit: linear, however many hits.
    let (mut at_byte, mut at_char) = (0usize, 0usize);
    doc.match_indices(needle)
        .map(|(b, _)| {
            at_char += doc[at_byte..b].chars().count();
            at_byte = b;
            at_char
        })
        .filter(|&c| c >= from)
        .map(|c| c..c + m)
        .filter(|r| !agentpad::matching::marks::splits_a_character(&rope, r))
        .collect()
}

fn check_matches(rope: &Rope, matches: &[matching::Match], what: &str) {
    let len = rope.len_chars();
    let mut end = 0;
    for (i, m) in matches.iter().enumerate() {
        assert!(m.range.start <= m.range.end && m.range.end <= len, "{what}: range {:?} out of 0..{len}", m.range);
        assert!(
            i == 0 || m.range.start >= end,
            "{what}: overlapping or unsorted ranges {:?}",
            matches.iter().map(|m| &m.range).collect::<Vec<_>>()
        );
        assert_eq!(m.quality, matches[0].quality, "{what}: matches of different qualities");
        end = m.range.end;
    }
}
