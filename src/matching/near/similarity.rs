//! How alike two texts are ([`similarity`], the ratio every near miss is ranked by), and the
//! bounded diffs the other parts share: a bit-parallel LCS, and Myers only when its cost is
//! known to be small (docs/architecture.md#matching).

use std::collections::HashMap;

use similar::DiffOp;

use crate::matching::work::Budget;

use crate::text_rules::myers_replace_ops;

/// Most steps of the bit-parallel LCS ([`lcs_len`]: longer length × shorter length / 64) for a
/// char-level comparison, ~1 ms: two texts of up to ~8,000 chars each. Longer texts are compared
/// line by line.
pub const LCS_WORD_STEPS: usize = 1 << 20;

/// Most steps (`(a+b)·D`, D known beforehand from the LCS) a Myers diff may take when the edit
/// script itself is needed (line pairing, rendering a difference): a few ms.
pub const MYERS_STEPS: usize = 4_000_000;

/// Texts with at most this many lines together are diffed line by line when too long for a char
/// comparison; larger ones are compared as multisets of lines (an overestimate that ignores order).
pub const LINE_DIFF_LIMIT: usize = 8_000;

/// Similarity of two texts in 0.0..=1.0: `2·M / (len a + len b)` in chars, M the length of a
/// longest common subsequence — the ratio of `similar`'s `TextDiff::from_chars` and of Python's
/// `difflib`, without their heuristics. 1.0 exactly when the texts are equal (two empty texts
/// included); symmetric.
///
/// Cost: O(a·⌈b/64⌉) (bit-parallel LCS) while that is at most [`LCS_WORD_STEPS`] (texts up to
/// ~8,000 chars each); longer texts are diffed line by line, equal lines counting whole and
/// changed blocks refined char by char within the same budget (the exact ratio whenever the
/// changes are confined to lines that differ); beyond [`LINE_DIFF_LIMIT`] lines, or when the
/// line diff would cost more than [`MYERS_STEPS`], the common lines are counted as multisets in
/// O(a+b), an overestimate that ignores order (kept below 1.0 for unequal texts).
pub fn similarity(a: &str, b: &str) -> f64 {
    similarity_within(a, b, &mut Budget::unlimited())
}

/// [`similarity`], its work charged to `budget` (the near-miss search scores spans with it).
/// Cost: as [`similarity`].
pub fn similarity_within(a: &str, b: &str, budget: &mut Budget) -> f64 {
    if a == b {
        return 1.0;
    }
    let a_len = a.chars().count();
    let b_len = b.chars().count();
    let matched = if lcs_steps(a_len, b_len) <= LCS_WORD_STEPS {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        lcs_len(&a, &b, budget)
    } else {
        common_chars_by_lines(a, b, budget)
    };
    let ratio = 2.0 * matched as f64 / (a_len + b_len) as f64;
    // Unequal texts never reach 1.0 (the multiset count can, for reordered lines).
    ratio.clamp(0.0, 1.0 - 1e-9)
}

/// Steps [`lcs_len`] takes for sequences of these lengths.
fn lcs_steps(a: usize, b: usize) -> usize {
    a.max(b).saturating_mul(a.min(b).div_ceil(64))
}

/// Length of a longest common subsequence of `a` and `b`, by Hyyrö's bit-vector algorithm: the
/// shorter sequence is a bit vector, each item of the longer one updates it with one addition
/// and a few bit operations per 64 items. Cost: O(longer·⌈shorter/64⌉) time, O(alphabet of the
/// shorter·⌈shorter/64⌉) memory.
// Bounds: `masks` has `words` slots per alphabet item and `k` is a position in `alphabet`;
// `i / 64 < words` for every position `i` of `pattern`.
#[allow(clippy::indexing_slicing)]
fn lcs_len<T: Copy + Ord>(a: &[T], b: &[T], budget: &mut Budget) -> usize {
    let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if pattern.is_empty() {
        return 0;
    }
    let words = pattern.len().div_ceil(64);
    let mut alphabet: Vec<T> = pattern.to_vec();
    alphabet.sort_unstable();
    alphabet.dedup();
    // masks[k·words..]: positions in `pattern` holding alphabet[k].
    let mut masks = vec![0u64; alphabet.len() * words];
    for (i, item) in pattern.iter().enumerate() {
        if let Ok(k) = alphabet.binary_search(item) {
            masks[k * words + i / 64] |= 1 << (i % 64);
        }
    }
    // Zero bits of `v` mark pattern positions used by the LCS so far.
    let mut v = vec![u64::MAX; words];
    budget.charge(2 * (text.len() * words) as u64);
    for item in text {
        let Ok(k) = alphabet.binary_search(item) else {
            continue;
        };
        let mask = &masks[k * words..(k + 1) * words];
        let mut carry = false;
        for (vw, &mw) in v.iter_mut().zip(mask) {
            let u = *vw & mw;
            let (sum, c1) = vw.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            carry = c1 || c2;
            *vw = sum | (*vw & !u);
        }
    }
    let tail_bits = pattern.len() % 64;
    v.iter()
        .enumerate()
        .map(|(w, &vw)| {
            let used = if w + 1 == words && tail_bits != 0 { (1u64 << tail_bits) - 1 } else { u64::MAX };
            (!vw & used).count_ones() as usize
        })
        .sum()
}

/// Myers edit script of `a` → `b`, or `None` when it would cost more than [`MYERS_STEPS`]
/// (checked with the LCS first, so no deadline is needed).
pub(super) fn bounded_myers<T: Copy + Ord + std::hash::Hash>(a: &[T], b: &[T], budget: &mut Budget) -> Option<Vec<DiffOp>> {
    if lcs_steps(a.len(), b.len()) > LCS_WORD_STEPS {
        return None;
    }
    let edits = a.len() + b.len() - 2 * lcs_len(a, b, budget);
    ((a.len() + b.len()).saturating_mul(edits) <= MYERS_STEPS).then(|| {
        budget.charge(((a.len() + b.len()) * edits) as u64);
        myers_replace_ops(a, b)
    })
}

/// Common chars of two long texts (see [`similarity`]): a line diff where equal lines count
/// whole and replaced blocks count their char LCS (within [`LCS_WORD_STEPS`] per block and four
/// times that in all; a larger block pairs its lines in order), or the multiset count when the
/// line diff is too large.
// Bounds: the ops come from `bounded_myers` over exactly these line lists, so each op's
// ranges lie in them.
#[allow(clippy::indexing_slicing)]
fn common_chars_by_lines(a: &str, b: &str, budget: &mut Budget) -> usize {
    let a_lines: Vec<&str> = a.split_inclusive('\n').collect();
    let b_lines: Vec<&str> = b.split_inclusive('\n').collect();
    if a_lines.len() + b_lines.len() > LINE_DIFF_LIMIT {
        return common_chars_as_multisets(&a_lines, &b_lines);
    }
    // Lines as ids, so that the diff compares integers.
    fn to_ids<'t>(lines: &[&'t str], ids: &mut HashMap<&'t str, u32>) -> Vec<u32> {
        lines
            .iter()
            .map(|&line| {
                let next = ids.len() as u32;
                *ids.entry(line).or_insert(next)
            })
            .collect()
    }
    let mut ids = HashMap::new();
    let a_ids = to_ids(&a_lines, &mut ids);
    let b_ids = to_ids(&b_lines, &mut ids);
    let Some(ops) = bounded_myers(&a_ids, &b_ids, budget) else {
        return common_chars_as_multisets(&a_lines, &b_lines);
    };
    let mut matched = 0;
    let mut refine_budget = 4 * LCS_WORD_STEPS;
    for op in ops {
        match op {
            DiffOp::Equal { old_index, len, .. } => {
                matched += a_lines[old_index..old_index + len].iter().map(|l| l.chars().count()).sum::<usize>();
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                let old = &a_lines[old_index..old_index + old_len];
                let new = &b_lines[new_index..new_index + new_len];
                let chars = |lines: &[&str]| -> Vec<char> { lines.iter().flat_map(|l| l.chars()).collect() };
                let (old_chars, new_chars) = (chars(old), chars(new));
                let steps = lcs_steps(old_chars.len(), new_chars.len());
                if steps <= LCS_WORD_STEPS && steps <= refine_budget {
                    refine_budget -= steps;
                    matched += lcs_len(&old_chars, &new_chars, budget);
                } else {
                    // Too large as a whole: pair the lines in order. Common subsequences of the
                    // pairs, concatenated, are one of the blocks, so this never overestimates.
                    for (o, n) in old.iter().zip(new) {
                        let (o, n): (Vec<char>, Vec<char>) = (o.chars().collect(), n.chars().collect());
                        let steps = lcs_steps(o.len(), n.len());
                        if steps <= refine_budget {
                            refine_budget -= steps;
                            matched += lcs_len(&o, &n, budget);
                        }
                    }
                }
            }
            DiffOp::Delete { .. } | DiffOp::Insert { .. } => {}
        }
    }
    matched
}

/// Chars of the lines `a` and `b` have in common, counted as multisets (order ignored).
fn common_chars_as_multisets(a: &[&str], b: &[&str]) -> usize {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for line in a {
        *counts.entry(line).or_insert(0) += 1;
    }
    let mut matched = 0;
    for line in b {
        if let Some(n) = counts.get_mut(line) {
            if *n > 0 {
                *n -= 1;
                matched += line.chars().count();
            }
        }
    }
    matched
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_only_differences_are_close_to_but_below_one() {
        let s = similarity("let a = 1;", "let a  =  1;");
        assert!(s > 0.85 && s < 1.0, "{s}");
        let s = similarity("\tif x {", "    if x {");
        assert!(s > 0.6 && s < 1.0, "{s}");
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("same", "same"), 1.0);
        assert_eq!(similarity("abc", ""), 0.0);
        assert_eq!(similarity("abc", "xyz"), 0.0);
    }

    #[test]
    fn similarity_is_the_char_ratio() {
        // LCS "timeout: 3" = 10 of 11 + 11 chars.
        assert_eq!(similarity("timeout: 3O", "timeout: 30"), 20.0 / 22.0);
    }

    #[test]
    fn bit_parallel_lcs_agrees_with_myers() {
        // A small LCG: pseudo-random sequences over small alphabets, lengths across word limits.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        for round in 0..300 {
            let alphabet = 2 + next(5);
            let a: Vec<u8> = (0..next(200)).map(|_| next(alphabet) as u8).collect();
            let b: Vec<u8> = (0..next(200)).map(|_| next(alphabet) as u8).collect();
            let myers: usize = myers_replace_ops(&a, &b).iter().map(|op| if let DiffOp::Equal { len, .. } = op { *len } else { 0 }).sum();
            assert_eq!(lcs_len(&a, &b, &mut Budget::unlimited()), myers, "round {round}: {a:?} {b:?}");
            assert_eq!(lcs_len(&b, &a, &mut Budget::unlimited()), myers);
        }
        assert_eq!(lcs_len::<char>(&[], &['a'], &mut Budget::unlimited()), 0);
    }

    #[test]
    fn similarity_of_long_texts_is_bounded_and_below_one() {
        let a: String = (0..1000).map(|i| format!("line number {i}\n")).collect();
        assert!(lcs_steps(a.len(), a.len()) > LCS_WORD_STEPS);
        let mut b = a.clone();
        b.push_str("tail\n");
        let s = similarity(&a, &b);
        assert!(s > 0.99 && s < 1.0, "{s}");
        // Beyond the line limit, the multiset count: reordered lines are still below 1.
        let many: Vec<String> = (0..5000).map(|i| format!("{i}\n")).collect();
        let forward = many.concat();
        let backward: String = many.iter().rev().map(String::as_str).collect();
        let s = similarity(&forward, &backward);
        assert!(s > 0.99 && s < 1.0, "{s}");
    }
}
