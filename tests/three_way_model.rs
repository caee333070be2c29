//! Three-way apply (src/matching/three_way.rs) as a property: for random documents, an earlier
//! edit the model does not know about and a stale `old_text` spanning it, applying the model's
//! `old_text` → `new_text` to the region's current text gives the current text plus only the
//! intended change, or a refusal — never anything else.
#![cfg(not(target_arch = "wasm32"))]

use agentpad::matching::three_way::{merge, Outcome};
use proptest::prelude::*;

/// Words that repeat a lot (so diffs have ambiguous alignments to get wrong), separators and
/// punctuation, a combining accent.
const VOCAB: &[&str] = &["a", "b", "x", "foo", "bar", "=", "(", ")", " ", "  ", "\n", "\n", "\t", ",", "1", "30", "e\u{301}", "\\n", "\""];

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCAB), 0..max).prop_map(|w| w.concat())
}

/// A char offset of `s` that is never inside a char (chars, not bytes).
fn at(s: &str, pick: prop::sample::Index) -> usize {
    pick.index(s.chars().count() + 1)
}

fn byte(s: &str, chars: usize) -> usize {
    s.char_indices().nth(chars).map_or(s.len(), |(b, _)| b)
}

fn splice(s: &str, r: std::ops::Range<usize>, with: &str) -> String {
    let (a, b) = (byte(s, r.start), byte(s, r.end));
    format!("{}{with}{}", &s[..a], &s[b..])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn result_is_the_current_text_plus_only_the_intended_change_or_a_refusal(
        doc in text(40),
        picks in prop::array::uniform4(any::<prop::sample::Index>()),
        earlier in text(4),
        intended in text(4),
        earlier_first in any::<bool>(),
    ) {
        // Two disjoint ranges of `doc`: the earlier edit's and the intended one's.
        let mut cuts: Vec<usize> = picks.iter().map(|p| at(&doc, *p)).collect();
        cuts.sort_unstable();
        let (first, second) = (cuts[0]..cuts[1], cuts[2]..cuts[3]);
        let (e1, e2) = if earlier_first { (first, second) } else { (second, first) };
        // The stale old_text spans both; the region now is that span after the earlier edit.
        let span = cuts[0]..cuts[3];
        let chars: Vec<char> = doc.chars().collect();
        let old_text: String = chars[span.clone()].iter().collect();
        let rel = |r: &std::ops::Range<usize>| r.start - span.start..r.end - span.start;
        let new_text = splice(&old_text, rel(&e2), &intended);
        let region = splice(&old_text, rel(&e1), &earlier);
        // The expected text: the region with the intended change, placed after the earlier edit
        // when it comes after it.
        let e1_len = earlier.chars().count() as isize - e1.len() as isize;
        let e2_now = if earlier_first { (rel(&e2).start as isize + e1_len) as usize..(rel(&e2).end as isize + e1_len) as usize } else { rel(&e2) };
        let expected = splice(&region, e2_now, &intended);
        match merge(&old_text, &new_text, &region) {
            Outcome::Merged(m) => prop_assert_eq!(
                &m.text, &expected,
                "old_text {:?} new_text {:?} region {:?}", old_text, new_text, region
            ),
            Outcome::Conflict(_) => {}
        }
    }
}

/// The property must be able to fail: a merge that wrote new_text verbatim (what a near-miss
/// pick used to stage) is caught on a stale line, and merges do happen (not only refusals).
#[test]
fn the_property_separates_merging_from_writing_new_text() {
    let (old_text, new_text, region) = ("timeout = 30\nretries = 3\n", "timeout = 30\nretries = 5\n", "timeout = 45\nretries = 3\n");
    let Outcome::Merged(m) = merge(old_text, new_text, region) else { panic!("refused a clean merge") };
    assert_eq!(m.text, "timeout = 45\nretries = 5\n");
    assert_ne!(m.text, new_text, "verbatim new_text would revert the earlier edit");
}
