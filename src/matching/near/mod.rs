//! Near misses (docs/architecture.md#matching): when `old_text` matches nowhere — not exactly, not under any fuzzy
//! tier — the regions of the document that come closest, how close they are, and a
//! character-level account of what differs, so the model can fix its call instead of retrying
//! blind. Nothing here ever decides to apply anything: it ranks and describes.
//!
//! # How [`near_misses`] finds regions
//!
//! Comparing the needle against every offset of the document would be O(n·m); instead the work is
//! split in two:
//!
//! 1. **Candidate generation, one linear pass** over the document bytes from `from` on.
//!    - Every byte trigram of the needle (bigram, for needles with fewer than eight trigrams) is
//!      hashed into a small table sized to the needle. A window's *hits* are the needle's
//!      trigrams it holds, counted as multisets (a trigram the needle holds twice counts at most
//!      twice, so repetitive text cannot outscore the real region by repeating one token).
//!    - Windows of the needle's width slide over the text (across newlines: an agent may join or
//!      split lines); each *peak* (a window whose hits no window ending within the next half
//!      needle beats) is a candidate, so one region yields about one candidate however long its
//!      line, and a long line yields several; for a one-line needle, so is the best window of
//!      every line. One typo only spoils three trigrams, so the region the agent meant stays
//!      near the top.
//!    - For a multi-line needle, also: every document line equal to needle line `j` but for
//!      whitespace votes for a window starting `j` lines earlier, weighted by the line's length,
//!      and the best start per block of that many lines is a candidate (one region cannot crowd
//!      out the others). Votes find a block with one line rewritten; hits find one where every
//!      line has a typo, lines were joined or split, or lines are far longer than the needle's.
//! 2. **Precise scoring of the best candidates** (a dozen for long needles, up to a few hundred
//!    for short ones, which are cheap to align): a semi-global edit-distance alignment (the
//!    needle aligned whole, the window free at both ends) gives the exact span of the window
//!    that corresponds to the needle — the best anywhere in the window, and the best ending
//!    where the candidate was found, so that a window also holding a better neighbour still
//!    yields its own region. Its similarity to the needle ([`similarity`]) ranks it. Ties in
//!    the alignment prefer substituting a document char for a needle char at the edges over
//!    leaving it out, so `timeout: 3O` against `api.timeout: 30  # s` spans `timeout: 30`, not
//!    `timeout: 3`; whitespace at the edges of a span that the needle has no counterpart for is
//!    dropped when that makes it more similar.
//!
//! Finally regions are sorted best first (ties: document order) and kept only when they do not
//! overlap a better one.
//!
//! # Bounds (no clock: `similar`'s deadlines read `std::time::Instant`, which panics on
//! `wasm32-unknown-unknown`, so every cost is bounded by input size instead)
//!
//! - [`similarity`] counts a longest common subsequence of chars with a bit-parallel algorithm
//!   (64 chars per machine word, [`LCS_WORD_STEPS`] at most); longer texts are diffed line by
//!   line with changed blocks refined, and beyond [`LINE_DIFF_LIMIT`] lines compared as
//!   multisets of lines.
//! - Myers diffs (from `similar`, for edit scripts: pairing lines, showing a difference) only run
//!   when their cost `(a+b)·D`, D known beforehand from the LCS, is under [`MYERS_STEPS`].
//! - An alignment runs on at most [`ALIGN_CELL_LIMIT`] DP cells; a larger window is aligned at
//!   its two ends only (the needle's first and last [`EDGE_CHARS`] chars).

mod align;
mod candidates;
pub mod clear_best;
mod describe;
mod similarity;
mod view;

use std::ops::Range;

use ropey::Rope;

use super::work::{Budget, Stopped};

pub use align::{ALIGN_CELL_LIMIT, EDGE_CHARS};
pub use describe::{describe_difference, difference, DiffPiece, Difference, DifferenceLine, Label, LineAt, MAX_DESCRIPTION_CHARS};
pub use similarity::{similarity, LCS_WORD_STEPS, LINE_DIFF_LIMIT, MYERS_STEPS};
pub use view::NearMissView;

use align::{best_version, spans_in_window};
use candidates::candidate_windows;

/// Fewest windows scored precisely (per source), whatever `limit` is: the coarse ranking is a
/// heuristic, the region the agent meant may be a few places down.
const MIN_SCORED_WINDOWS: usize = 12;

/// Most windows scored precisely per source (for short needles).
const MAX_SCORED_WINDOWS: usize = 256;

/// Alignment cells the precise scoring of one call plans for, per source of candidates (windows
/// are about twice the needle): more windows for short needles, [`MIN_SCORED_WINDOWS`] for long
/// ones.
pub const SCORING_CELLS: usize = 1 << 20;

#[derive(Clone, Debug, PartialEq)]
pub struct NearMiss {
    /// Char range in the searched rope: the part that corresponds to the needle, not whole lines.
    pub range: Range<usize>,
    /// [`similarity`] of the needle and this range's text: 0.0..=1.0, 1.0 only for identical text.
    pub similarity: f64,
}

impl NearMiss {
    /// `similar:0.92`, the `match_quality` of a near-miss candidate (docs/architecture.md#matching). Two decimals,
    /// truncated: a region is never shown better than it is, and only identical text reads
    /// `similar:1.00`.
    pub fn quality(&self) -> super::CandidateQuality {
        super::CandidateQuality::Similar(self.similarity)
    }
}

/// `similarity` truncated to two decimals; `1.00` only for exactly 1.0.
pub fn two_decimals(similarity: f64) -> String {
    let s = if similarity.is_nan() { 0.0 } else { similarity.clamp(0.0, 1.0) };
    // The nudge keeps 0.29 (stored as 0.28999…) at 0.29; the cap keeps 0.999 below 1.00.
    let mut hundredths = (s * 100.0 + 1e-9).floor() as u32;
    if s < 1.0 {
        hundredths = hundredths.min(99);
    }
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

/// What [`search`] found: the closest regions, or where it stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct NearSearch {
    /// As [`near_misses`] finds them; empty when the search stopped.
    pub found: Vec<NearMiss>,
    /// Set when this search, or the fuzzy steps of the same needle just before it
    /// ([`super::locate`]), stopped at the work budget ([`SEARCH_BUDGET`](super::work::SEARCH_BUDGET)): `found` is then
    /// empty and means nothing.
    pub stopped: Option<Stopped>,
}

/// [`near_misses`] under the work budget of one search ([`SEARCH_BUDGET`](super::work::SEARCH_BUDGET)): the regions,
/// or — when the search spent its budget, or the fuzzy steps of the same needle just stopped at
/// theirs — nothing but where it stopped. Never a partial list.
///
/// `after` is the budget of the [`super::locate`] of the same needle just before (its
/// `Located::budget`): this search spends only what is left of it, and after a stop answers
/// with that stop. A caller with no such locate passes a fresh budget.
///
/// Cost: that of [`near_misses`], at most what is left of `after`.
pub fn search(rope: &Rope, needle: &str, from: usize, limit: usize, after: &Budget) -> NearSearch {
    if let Some(stopped) = after.stopped() {
        return NearSearch { found: Vec::new(), stopped: Some(stopped) };
    }
    let mut budget = after.rest();
    let found = regions(rope, needle, from, limit, &mut budget);
    match budget.stopped() {
        Some(s) => NearSearch { found: Vec::new(), stopped: Some(s) },
        None => NearSearch { found, stopped: None },
    }
}

/// The closest regions to `needle` that start at or after char `from`, best first (ties:
/// document order), at most `limit`, never overlapping; regions with nothing in common with the
/// needle (similarity 0) are left out. The text before `from` is not searched at all: a region
/// may not start before `from`, even if part of it lies after.
///
/// Empty needle, `limit` 0, or `from` at or past the end → no regions. A needle with no two
/// consecutive bytes on one line and no line found in the document has no candidates: at that
/// size a "similar" region would mean nothing.
///
/// Cost: one pass over the document from `from` (O(n), a few ns per byte; memory O(needle),
/// plus 2 bytes per line for multi-line needles), then alignments planned at about
/// [`SCORING_CELLS`] DP cells in all (at least a dozen windows, each at most
/// [`ALIGN_CELL_LIMIT`] cells) and one bounded [`similarity`] per span. About 50 ms for a
/// one-line needle and 80 ms for a five-line one on a 10 MB document of near-identical code
/// lines (the worst case for the pass: half its bytes are hits), native, release build.
///
/// Unmetered: it always completes (see [`search`] for the call a tool answers with).
pub fn near_misses(rope: &Rope, needle: &str, from: usize, limit: usize) -> Vec<NearMiss> {
    regions(rope, needle, from, limit, &mut Budget::unlimited())
}

/// [`near_misses`]' work, stopping early (with a partial list the callers discard) once
/// `budget` is out.
fn regions(rope: &Rope, needle: &str, from: usize, limit: usize, budget: &mut Budget) -> Vec<NearMiss> {
    let from = from.min(rope.len_chars());
    if needle.is_empty() || limit == 0 || from == rope.len_chars() {
        return Vec::new();
    }
    let needle_chars: Vec<char> = needle.chars().collect();
    // Short needles are cheap to align: score more windows (ties in the coarse ranking, like a
    // needle whose only distinctive word occurs fifty times, are then still all scored).
    let per_window = needle_chars.len().saturating_mul(2 * needle_chars.len() + 16).max(1);
    let wanted = (SCORING_CELLS / per_window).clamp(MIN_SCORED_WINDOWS, MAX_SCORED_WINDOWS).max(limit.min(32) * 2);
    let windows = candidate_windows(rope, from, needle, needle_chars.len(), wanted, budget);

    let mut spans: Vec<Range<usize>> = Vec::new();
    for w in &windows {
        if budget.exhausted() {
            break;
        }
        spans.extend(spans_in_window(rope, &needle_chars, w, budget));
    }
    crate::sort::sort_by_key(&mut spans, |r| (r.start, r.end));
    spans.dedup();
    let mut scored = std::collections::HashMap::new();
    let mut found: Vec<NearMiss> = Vec::new();
    for span in spans {
        if budget.exhausted() {
            break;
        }
        budget.candidate();
        found.extend(best_version(rope, needle, span, &mut scored, budget).filter(|n| n.similarity > 0.0));
    }
    crate::sort::sort_by(&mut found, |a, b| b.similarity.total_cmp(&a.similarity).then(a.range.start.cmp(&b.range.start)));
    found.dedup_by(|a, b| a.range == b.range);

    let mut chosen: Vec<NearMiss> = Vec::new();
    for candidate in found {
        if chosen.len() == limit {
            break;
        }
        let overlaps = chosen.iter().any(|c| candidate.range.start < c.range.end && c.range.start < candidate.range.end);
        if !overlaps {
            chosen.push(candidate);
        }
    }
    chosen
}
// Native only: property tests and the test host (src/internal_tests.rs) are not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod model_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(rope: &Rope, found: &[NearMiss]) -> Vec<String> {
        found.iter().map(|n| rope.slice(n.range.clone()).to_string()).collect()
    }

    #[test]
    fn typo_in_one_line_needle_finds_the_corresponding_part_of_the_line() {
        let doc = "[server]\n  host: example.org\n  api.timeout: 30  # s\n  retries: 3\n";
        let rope = Rope::from_str(doc);
        let found = near_misses(&rope, "timeout: 3O", 0, 3);
        assert_eq!(texts(&rope, &found)[0], "timeout: 30");
        assert!(found[0].similarity >= 0.8, "{found:?}");
        assert_eq!(found[0].quality().to_string(), "similar:0.90");
    }

    #[test]
    fn multi_line_needle_with_one_changed_line_finds_the_window() {
        let mut doc = String::new();
        for i in 0..200 {
            doc.push_str(&format!("fn f{i}() {{\n    let x = {i};\n    x + 1\n}}\n"));
        }
        let rope = Rope::from_str(&doc);
        let needle = "fn f120() {\n    let x = 121;\n    x + 1\n}";
        let found = near_misses(&rope, needle, 0, 3);
        assert_eq!(texts(&rope, &found)[0], "fn f120() {\n    let x = 120;\n    x + 1\n}");
        assert!(found[0].similarity > 0.9);
    }

    #[test]
    fn every_line_with_a_typo_is_still_found_by_trigrams() {
        let doc = "alpha beta gamma\ndelta epsilon zeta\neta theta iota\nkappa lambda mu\nnu xi\n";
        let rope = Rope::from_str(doc);
        let found = near_misses(&rope, "delta epsilom zeta\neta thets iota", 0, 1);
        assert_eq!(texts(&rope, &found), vec!["delta epsilon zeta\neta theta iota"]);
    }

    #[test]
    fn an_inserted_line_is_inside_the_range() {
        let doc = "a0 = 0\nfirst line here\nsecond line here\nEXTRA\nthird line here\nz = 9\n";
        let rope = Rope::from_str(doc);
        let found = near_misses(&rope, "first line here\nsecond line here\nthird line here", 0, 1);
        assert_eq!(texts(&rope, &found), vec!["first line here\nsecond line here\nEXTRA\nthird line here"]);
    }

    #[test]
    fn needle_ending_with_newline_keeps_the_newline() {
        let rope = Rope::from_str("one\nretries: 4\nthree\n");
        let found = near_misses(&rope, "retries: 3\n", 0, 1);
        assert_eq!(texts(&rope, &found), vec!["retries: 4\n"]);
        let found = near_misses(&rope, "one\nretries: 3\n", 0, 1);
        assert_eq!(texts(&rope, &found), vec!["one\nretries: 4\n"]);
    }

    #[test]
    fn from_is_respected() {
        let doc = "retries: 4\nretries: 5\nother\n";
        let rope = Rope::from_str(doc);
        let all = near_misses(&rope, "retries: 3", 0, 5);
        assert_eq!(texts(&rope, &all), vec!["retries: 4", "retries: 5"]);
        let after = near_misses(&rope, "retries: 3", 11, 5);
        assert_eq!(texts(&rope, &after), vec!["retries: 5"]);
        // Mid-line: the rest of the first line may still be a (weaker) region, never more.
        let mid = near_misses(&rope, "retries: 3", 1, 5);
        assert_eq!(texts(&rope, &mid), vec!["retries: 5", "etries: 4"]);
        assert!(mid.iter().all(|n| n.range.start >= 1));
        assert!(near_misses(&rope, "retries: 3", rope.len_chars(), 5).is_empty());
        assert!(near_misses(&rope, "retries: 3", usize::MAX, 5).is_empty());
    }

    #[test]
    fn best_first_then_document_order_and_never_overlapping() {
        let doc = "colour = rod\ncolor = rex\ncolor = red!\ncolor = rex\n";
        let rope = Rope::from_str(doc);
        let found = near_misses(&rope, "color = red?", 0, 10);
        let sims: Vec<f64> = found.iter().map(|n| n.similarity).collect();
        assert!(sims.windows(2).all(|w| w[0] >= w[1]), "{sims:?}");
        assert_eq!(texts(&rope, &found)[0], "color = red!");
        // The two equal "color = rex" lines tie: document order.
        let rex: Vec<usize> = found.iter().filter(|n| rope.slice(n.range.clone()) == "color = rex").map(|n| n.range.start).collect();
        assert_eq!(rex.len(), 2);
        assert!(rex[0] < rex[1]);
        for (i, a) in found.iter().enumerate() {
            for b in &found[i + 1..] {
                assert!(a.range.end <= b.range.start || b.range.end <= a.range.start);
            }
        }
        assert_eq!(near_misses(&rope, "color = red?", 0, 1).len(), 1);
    }

    #[test]
    fn cjk_and_emoji_ranges_are_char_ranges() {
        let doc = "前言\n配置：超时 30 秒 🚀 完成\n结束 🎉\n";
        let rope = Rope::from_str(doc);
        let found = near_misses(&rope, "超时 31 秒 🚀", 0, 2);
        assert_eq!(texts(&rope, &found)[0], "超时 30 秒 🚀");
        let found = near_misses(&rope, "前言\n配置：超时 30 秒 🚀 完成X", 0, 1);
        assert_eq!(texts(&rope, &found), vec!["前言\n配置：超时 30 秒 🚀 完成"]);
    }

    #[test]
    fn degenerate_inputs_give_nothing_or_something_in_bounds() {
        let empty = Rope::from_str("");
        assert!(near_misses(&empty, "abc", 0, 3).is_empty());
        let rope = Rope::from_str("\n\n\nabc\n\n");
        assert!(near_misses(&rope, "", 0, 3).is_empty());
        assert!(near_misses(&rope, "abd", 0, 0).is_empty());
        assert!(near_misses(&rope, "\n", 0, 3).iter().all(|n| n.range.end <= rope.len_chars()));
        assert!(near_misses(&rope, "\n\n\n\n\n\n\n\n", 0, 3).iter().all(|n| n.range.end <= rope.len_chars()));
        let longer = near_misses(&rope, "abd\nlonger than the whole document\n", 0, 3);
        assert!(longer.iter().all(|n| n.range.end <= rope.len_chars()));
        // Nothing in common at all: no region.
        assert!(near_misses(&Rope::from_str("xyz\n"), "abcdef", 0, 3).is_empty());
    }

    #[test]
    fn a_long_line_yields_several_regions() {
        let mut line = "word ".repeat(2000);
        line.insert_str(5000, "needle_value = 42;");
        line.insert_str(1000, "needle_value = 41;");
        let rope = Rope::from_str(&line);
        let found = near_misses(&rope, "needle_value = 43;", 0, 2);
        let mut t = texts(&rope, &found);
        t.sort();
        assert_eq!(t, vec!["needle_value = 41;", "needle_value = 42;"]);
    }

    #[test]
    fn needles_too_large_to_align_whole_are_placed_by_their_ends() {
        let body: String = (0..120).map(|i| format!("    statement_{i}(argument, {i});\n")).collect();
        let doc = format!("prefix();\nfn big() {{\n{body}}}\nsuffix();\n");
        let rope = Rope::from_str(&doc);
        let needle = format!("fn big() {{\n{}}}", body.replace("statement_60(", "statement_6O("));
        assert!(needle.chars().count() * needle.chars().count() > ALIGN_CELL_LIMIT);
        let found = near_misses(&rope, &needle, 0, 1);
        assert_eq!(texts(&rope, &found), vec![format!("fn big() {{\n{body}}}")]);
        assert!(found[0].similarity > 0.99);
    }

    #[test]
    fn quality_is_truncated_to_two_decimals() {
        let q = |similarity| NearMiss { range: 0..1, similarity }.quality().to_string();
        assert_eq!(q(0.929), "similar:0.92");
        assert_eq!(q(0.29), "similar:0.29");
        assert_eq!(q(0.99999), "similar:0.99");
        assert_eq!(q(1.0), "similar:1.00");
        assert_eq!(q(0.0), "similar:0.00");
    }
}
