//! Precise location (see the module doc of `near`): a semi-global alignment places the
//! needle inside each candidate window, and the span is scored in its best version.

use std::collections::HashMap;
use std::ops::{Range, RangeInclusive};

use ropey::Rope;

use super::candidates::Window;
use super::similarity::similarity_within;
use super::NearMiss;
use crate::matching::work::Budget;

/// Largest alignment (needle chars × window chars) computed in full: ~1 M cells, a few ms.
pub const ALIGN_CELL_LIMIT: usize = 1 << 20;

/// How many chars at each end of the needle are aligned when the whole needle is too large.
pub const EDGE_CHARS: usize = 64;

/// Longest head or tail region searched for the needle's ends in a window too large to align.
const EDGE_REGION_CHARS: usize = 8_192;

/// Where, inside `window`, the needle's best alignments lie (as rope char ranges, none empty):
/// the best anywhere and the best ending in `window.near_ends` (often the same).
// Bounds: `edge` ≤ the needle's length.
#[allow(clippy::indexing_slicing)]
pub(super) fn spans_in_window(rope: &Rope, needle: &[char], window: &Window, budget: &mut Budget) -> Vec<Range<usize>> {
    let len = window.range.len();
    if len == 0 || needle.is_empty() {
        return Vec::new();
    }
    let base = window.range.start;
    let chars = |r: Range<usize>| -> Vec<char> { rope.slice(base + r.start..base + r.end).chars().collect() };
    if needle.len().saturating_mul(len) <= ALIGN_CELL_LIMIT {
        let row = AlignmentRow::of(needle, &chars(0..len), true, budget);
        let anywhere = row.best(0..=len, window.anchor);
        let near = row.best(window.near_ends.clone(), window.anchor);
        let mut spans = Vec::with_capacity(2);
        spans.push(base + anywhere.start..base + anywhere.end);
        if near != anywhere {
            spans.push(base + near.start..base + near.end);
        }
        spans.retain(|r| !r.is_empty());
        return spans;
    }
    // Too large to align whole: place the needle's first and last EDGE_CHARS chars.
    let edge = needle.len().min(EDGE_CHARS);
    let head_len = (window.head + edge).min(EDGE_REGION_CHARS).min(len);
    let tail_len = (window.tail + edge).min(EDGE_REGION_CHARS).min(len);
    let head = chars(0..head_len);
    let tail = chars(len - tail_len..len);
    let start = AlignmentRow::of(&needle[..edge], &head, true, budget).best(0..=head_len, 0).start;
    let reversed_needle: Vec<char> = needle[needle.len() - edge..].iter().rev().copied().collect();
    let reversed_tail: Vec<char> = tail.iter().rev().copied().collect();
    let end = len - AlignmentRow::of(&reversed_needle, &reversed_tail, true, budget).best(0..=tail_len, 0).start;
    let span = if start < end { base + start..base + end } else { base..base + len };
    std::iter::once(span).collect()
}

/// `span` scored against the needle, in its best version: as aligned, or without the whitespace
/// at either edge when the needle has none there — whichever is most similar (ties: the
/// shorter). An alignment may substitute a space for a needle char at an edge at no extra cost
/// (`timeout: 3O` against `timeout: 3 # s` spans `timeout: 3 `); dropping it is then better, while
/// whitespace the needle does have, inside (`…\n  Q` against `…\n   `), stays.
///
/// `scored` keeps the similarity of every text scored in this search: repetitive documents
/// offer many spans of the same text, and a long one costs milliseconds to compare.
pub(super) fn best_version(
    rope: &Rope,
    needle: &str,
    span: Range<usize>,
    scored: &mut HashMap<String, f64>,
    budget: &mut Budget,
) -> Option<NearMiss> {
    let (first, last) = (needle.chars().next()?, needle.chars().next_back()?);
    let mut trimmed_start = span.start;
    if !first.is_whitespace() {
        while trimmed_start < span.end && rope.char(trimmed_start).is_whitespace() {
            trimmed_start += 1;
        }
    }
    let mut trimmed_end = span.end;
    if !last.is_whitespace() {
        while trimmed_end > span.start && rope.char(trimmed_end - 1).is_whitespace() {
            trimmed_end -= 1;
        }
    }
    let mut best: Option<NearMiss> = None;
    for start in [trimmed_start, span.start] {
        for end in [trimmed_end, span.end] {
            if start >= end || best.as_ref().is_some_and(|b| b.range == (start..end)) {
                continue;
            }
            let text = rope.slice(start..end).to_string();
            let similarity = match scored.get(&text) {
                Some(&s) => s,
                None => {
                    let s = similarity_within(needle, &text, budget);
                    scored.insert(text, s);
                    s
                }
            };
            if best.as_ref().map_or(true, |b| similarity > b.similarity) {
                best = Some(NearMiss { range: start..end, similarity });
            }
        }
    }
    best
}

/// A semi-global alignment: the whole needle against `text[start..end]`.
#[derive(Debug, PartialEq)]
struct Alignment {
    start: usize,
    end: usize,
    /// Edit distance (insertions, deletions and substitutions cost 1).
    cost: u32,
}

/// The last row of a semi-global alignment DP (Sellers' algorithm): for every end `j` in the
/// text, the fewest edits (insertions, deletions, substitutions; cost 1 each) that turn some
/// `text[start..j]` into the whole needle, and that `start`. With `free_start` the text before
/// the alignment is skipped for free. Ties inside the DP prefer a substitution over a gap, so the
/// needle's edge chars take the document's chars in their place rather than being left out.
///
/// Cost: O(needle·text) time, O(text) memory. Callers keep the product under
/// [`ALIGN_CELL_LIMIT`].
struct AlignmentRow {
    cost: Vec<u32>,
    start: Vec<usize>,
    needle_len: usize,
}

impl AlignmentRow {
    // Bounds: `cost` and `start` have `w + 1` slots and `j` runs over 1..=w, so `j - 1`
    // indexes `text` (of length w).
    #[allow(clippy::indexing_slicing)]
    fn of(needle: &[char], text: &[char], free_start: bool, budget: &mut Budget) -> AlignmentRow {
        let w = text.len();
        budget.charge((needle.len() * w) as u64);
        let mut cost: Vec<u32> = (0..=w).map(|j| if free_start { 0 } else { j as u32 }).collect();
        let mut start: Vec<usize> = (0..=w).map(|j| if free_start { j } else { 0 }).collect();
        for (i, &nc) in needle.iter().enumerate() {
            let mut diag_cost = cost[0];
            let mut diag_start = start[0];
            cost[0] = i as u32 + 1;
            for j in 1..=w {
                let (up_cost, up_start) = (cost[j], start[j]);
                let substitute = diag_cost + u32::from(nc != text[j - 1]);
                let skip_needle = up_cost + 1;
                let skip_text = cost[j - 1] + 1;
                let (c, s) = if substitute <= skip_needle && substitute <= skip_text {
                    (substitute, diag_start)
                } else if skip_needle <= skip_text {
                    (skip_needle, up_start)
                } else {
                    (skip_text, start[j - 1])
                };
                diag_cost = up_cost;
                diag_start = up_start;
                cost[j] = c;
                start[j] = s;
            }
        }
        AlignmentRow { cost, start, needle_len: needle.len() }
    }

    /// The best alignment ending within `ends`: fewest edits, then the span whose length is
    /// closest to the needle's, then the end nearest `anchor`, then the earliest.
    // Bounds: `ends` is clamped to `w = cost.len() - 1` (`cost` has at least one slot), and
    // `start[j] ≤ j` for every j (an alignment starts at or before it ends).
    #[allow(clippy::indexing_slicing)]
    fn best(&self, ends: RangeInclusive<usize>, anchor: usize) -> Alignment {
        let w = self.cost.len() - 1;
        let ends = (*ends.start()).min(w)..=(*ends.end()).min(w);
        let key = |j: usize| (self.cost[j], (j - self.start[j]).abs_diff(self.needle_len), j.abs_diff(anchor), self.start[j]);
        let best = ends.min_by_key(|&j| key(j)).unwrap_or(w);
        Alignment { start: self.start[best], end: best, cost: self.cost[best] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment_prefers_substitution_at_the_edges() {
        let text: Vec<char> = "  api.timeout: 30  # s".chars().collect();
        let needle: Vec<char> = "timeout: 3O".chars().collect();
        let align = |needle: &[char], text: &[char], free_start: bool, ends: RangeInclusive<usize>, anchor: usize| {
            AlignmentRow::of(needle, text, free_start, &mut Budget::unlimited()).best(ends, anchor)
        };
        assert_eq!(align(&needle, &text, true, 0..=text.len(), 0), Alignment { start: 6, end: 17, cost: 1 });
        // Equally good regions: the one ending nearest the anchor.
        let two: Vec<char> = "retries: 4\nretries: 5".chars().collect();
        let needle_r: Vec<char> = "retries: 3".chars().collect();
        assert_eq!(align(&needle_r, &two, true, 0..=two.len(), 0), Alignment { start: 0, end: 10, cost: 1 });
        assert_eq!(align(&needle_r, &two, true, 0..=two.len(), 20), Alignment { start: 11, end: 21, cost: 1 });
        assert_eq!(align(&needle_r, &two, true, 15..=two.len(), 0), Alignment { start: 11, end: 21, cost: 1 });
        // The best ending near the first line, although the second is better.
        let better: Vec<char> = "retries: 4\nretries: 3!".chars().collect();
        assert_eq!(align(&needle_r, &better, true, 0..=better.len(), 0), Alignment { start: 11, end: 21, cost: 0 });
        assert_eq!(align(&needle_r, &better, true, 5..=12, 10), Alignment { start: 0, end: 10, cost: 1 });
        let anchored: Vec<char> = "timeout: 30".chars().collect();
        assert_eq!(align(&needle, &anchored, false, 11..=11, 0), Alignment { start: 0, end: 11, cost: 1 });
    }
}
