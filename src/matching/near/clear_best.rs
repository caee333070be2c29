//! Which near miss is clearly the region the agent meant (docs/architecture.md#matching).
//!
//! After `NoMatch`, a near miss is recommended only when its difference from `old_text` is one
//! an agent plausibly makes about the right place, and no other region is as plausible:
//!
//! - **Small difference** ([`small_difference`]), on words and symbols with whitespace ignored:
//!   none at all (the text was reflowed or its spaces collapsed), one word or symbol run
//!   misremembered (`headr` for `header`, `parse` for `parse_config`), or only whole lines the
//!   document has and `old_text` lacks (at most [`MAX_ADDED_LINES`], e.g. a line the agent's own
//!   earlier edit added). Anything more — two separate differences, a line `old_text` has and
//!   the document lacks, a rewritten phrase — is no recommendation: the text may be another
//!   block's, or the agent's picture of this one is wrong in a way a merge would hide.
//! - **Enough unchanged**: at least [`MIN_KEPT_TOKENS`] of `old_text`'s tokens are unchanged (in
//!   a three-token needle one token is everything) and the similarity is at least
//!   [`SIMILARITY_FLOOR`].
//! - **Clearly best**: it is the most similar region, by at least [`MARGIN`] over the next, and
//!   the only one with a small difference. Two regions that differ from `old_text` alike (two
//!   copies of a block) give no recommendation.
//!
//! The region found by the near-miss search may stop short of or start past `old_text`'s first
//! and last lines (the alignment trims what it cannot match), so the comparison runs on the
//! region's whole lines widened by a few lines of context, and document text before the first
//! or after the last matched token is context, not a difference.

use std::collections::HashMap;
use std::ops::Range;

use ropey::Rope;

use super::NearMiss;
use crate::matching::recommend::Reason;
use crate::text_rules::is_cjk;

/// Lowest similarity a recommended near miss may have.
pub const SIMILARITY_FLOOR: f64 = 0.9;
/// The recommended region is at least this much more similar than the next one.
pub const MARGIN: f64 = 0.02;
/// Fewest of `old_text`'s tokens that must be unchanged.
pub const MIN_KEPT_TOKENS: usize = 4;
/// Most whole lines the document may have that `old_text` lacks.
pub const MAX_ADDED_LINES: usize = 3;
/// Above this many tokens in `old_text` no difference is classified (bounds the token diff).
pub const MAX_NEEDLE_TOKENS: usize = 1_000;
/// Most cells of the token alignment table (4 bytes each).
pub const MAX_ALIGN_CELLS: usize = 1 << 19;
/// Context lines around a region, at least (more when `old_text` has more lines than it).
const CONTEXT_LINES: usize = 2;
/// Context lines around a region, at most.
const MAX_CONTEXT_LINES: usize = 8;

/// What distinguishes a region from `old_text`, when it is small enough to recommend it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmallDifference {
    /// The same words and symbols; only whitespace and line breaks differ.
    WhitespaceOnly,
    /// One word or symbol run differs.
    OneToken,
    /// Only whole lines the document has and `old_text` lacks.
    AddedLines,
}

impl SmallDifference {
    pub const fn reason(self) -> Reason {
        match self {
            SmallDifference::WhitespaceOnly => Reason::WhitespaceOnly,
            SmallDifference::OneToken => Reason::OneToken,
            SmallDifference::AddedLines => Reason::AddedLines,
        }
    }
}

/// The near miss of `found` (best first, as [`super::near_misses`] returns them) to recommend
/// for `needle` in `rope`, with why — see the module documentation. `None` when none is clearly
/// best.
///
/// Cost: for each region, one token diff of `needle` against the region's lines and context:
/// O(n + m) to tokenise and a Myers diff O((n + m)·D) run only when at most one of the needle's
/// tokens is missing from the window; nothing for needles over [`MAX_NEEDLE_TOKENS`] tokens.
pub fn recommend(rope: &Rope, needle: &str, found: &[NearMiss]) -> Option<(usize, Reason)> {
    let best = found.first()?;
    if best.similarity < SIMILARITY_FLOOR {
        return None;
    }
    if found.get(1).is_some_and(|next| best.similarity - next.similarity < MARGIN) {
        return None;
    }
    let needle_tokens = tokens(needle);
    if needle_tokens.len() > MAX_NEEDLE_TOKENS {
        return None;
    }
    let needle_lines = needle.split('\n').count();
    let small: Vec<Option<SmallDifference>> = found.iter().map(|n| classify(rope, &needle_tokens, needle_lines, &n.range)).collect();
    let first = small.first().copied().flatten()?;
    if small.iter().skip(1).any(Option::is_some) {
        return None;
    }
    Some((0, first.reason()))
}

/// The small difference between `needle` and the region `range` of `rope`, if it is small
/// (see the module documentation). Cost: as for one region of [`recommend`].
pub fn small_difference(rope: &Rope, needle: &str, range: &Range<usize>) -> Option<SmallDifference> {
    let needle_tokens = tokens(needle);
    if needle_tokens.len() > MAX_NEEDLE_TOKENS {
        return None;
    }
    classify(rope, &needle_tokens, needle.split('\n').count(), range)
}

/// A word (letters, digits, `_`), a CJK char, or a run of other non-space chars, with the line
/// (0-based, within the text tokenised) it is on.
#[derive(Clone, Debug, PartialEq)]
struct Token {
    text: String,
    line: usize,
    /// Char offset of its first char in the text tokenised.
    at: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Space,
    Word,
    Cjk,
    Symbol,
}

fn kind(c: char) -> Kind {
    if c.is_whitespace() {
        Kind::Space
    } else if is_cjk(c) {
        Kind::Cjk
    } else if c.is_alphanumeric() || c == '_' {
        Kind::Word
    } else {
        Kind::Symbol
    }
}

/// The tokens of `s`, whitespace dropped. Cost: O(len).
fn tokens(s: &str) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut line = 0;
    let mut prev = Kind::Space;
    for (at, c) in s.chars().enumerate() {
        let k = kind(c);
        match k {
            Kind::Space => {
                if c == '\n' {
                    line += 1;
                }
            }
            Kind::Word | Kind::Symbol if k == prev => {
                if let Some(t) = out.last_mut() {
                    t.text.push(c);
                }
            }
            _ => out.push(Token { text: c.to_string(), line, at }),
        }
        prev = k;
    }
    out
}

/// The region's whole lines widened by context lines, as tokens, and which of them are the
/// region's own. `None` when it is too large.
fn window(rope: &Rope, needle_lines: usize, range: &Range<usize>) -> Option<(Vec<Token>, Range<usize>)> {
    let len = rope.len_chars();
    let start = range.start.min(len);
    let end = range.end.min(len).max(start);
    let first = rope.char_to_line(start);
    let last = if end > start { rope.char_to_line(end - 1) } else { first };
    let own = last - first + 1;
    let context = (CONTEXT_LINES + needle_lines.saturating_sub(own)).min(MAX_CONTEXT_LINES);
    let from = first.saturating_sub(context);
    let to = (last + context + 1).min(rope.len_lines());
    let chars = rope.line_to_char(to) - rope.line_to_char(from);
    // Long lines: a window far larger than the needle is no small difference.
    if chars > 64 * 1024 {
        return None;
    }
    let base = rope.line_to_char(from);
    let text = rope.slice(base..rope.line_to_char(to)).to_string();
    let t = tokens(&text);
    let own_from = t.partition_point(|t| t.at + base < start);
    let own_to = t.partition_point(|t| t.at + base < end);
    (t.len() <= 4 * MAX_NEEDLE_TOKENS).then_some((t, own_from..own_to))
}

/// How many of `needle`'s tokens have no counterpart in `window`, counted as multisets.
fn missing(needle: &[Token], window: &[Token]) -> usize {
    let mut have: HashMap<&str, usize> = HashMap::new();
    for t in window {
        *have.entry(t.text.as_str()).or_default() += 1;
    }
    let mut missing = 0;
    for t in needle {
        match have.get_mut(t.text.as_str()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => missing += 1,
        }
    }
    missing
}

/// One run of differences between the needle's tokens and the window's.
#[derive(Debug, PartialEq)]
struct Hunk {
    /// The needle's tokens it removes.
    old: Range<usize>,
    /// The window's tokens it puts in their place.
    new: Range<usize>,
}

fn classify(rope: &Rope, needle: &[Token], needle_lines: usize, range: &Range<usize>) -> Option<SmallDifference> {
    let (window, own) = window(rope, needle_lines, range)?;
    // The context may lend a token that makes a region's own one-word difference read as a
    // larger one (its repeated words aligned across the line before): the region alone is
    // tried too, so a copy of a block differing by one word is never missed as a rival.
    classify_in(needle, &window, own.clone()).or_else(|| {
        let alone = window.get(own.clone())?;
        classify_in(needle, alone, 0..alone.len())
    })
}

/// [`classify`] on a window of tokens, `own` being the region's.
fn classify_in(needle: &[Token], window: &[Token], own: Range<usize>) -> Option<SmallDifference> {
    // One needle token missing at most: cheap to check before aligning.
    if needle.is_empty() || missing(needle, window) > 1 {
        return None;
    }
    let (hunks, span) = align(needle, window)?;
    // The context only completes the region: what is aligned must be mostly the region itself,
    // else a region beside the place meant would be read as that place.
    let shared = span.end.min(own.end).saturating_sub(span.start.max(own.start));
    if 2 * shared < own.len() || own.is_empty() {
        return None;
    }
    let removed: usize = hunks.iter().map(|h| h.old.len()).sum();
    if needle.len() - removed < MIN_KEPT_TOKENS {
        return None;
    }
    match hunks.as_slice() {
        [] => Some(SmallDifference::WhitespaceOnly),
        [h] if h.old.len() == 1 && h.new.len() == 1 => Some(SmallDifference::OneToken),
        [h] if h.old.is_empty() && slides(window, &h.new, &span).any(|at| whole_lines(window, &at)) => Some(SmallDifference::AddedLines),
        _ => None,
    }
}

/// The differences of the best alignment of all of `needle` with a part of `window` (the
/// window's tokens before and after that part are free: they are context), or `None` when the
/// table would exceed [`MAX_ALIGN_CELLS`].
///
/// Best: the most of the needle's tokens matched, then the fewest window tokens inserted between
/// them (a needle token lost costs more than all the window's tokens together), then the fewest
/// hunks (the walk back keeps a run of differences going while that stays optimal). Plain edit
/// distance would rather substitute the needle's first tokens for the context before a line the
/// document added than insert that line. Cost: O(n·m) time and memory.
// Bounds: `cost` has (n + 1)·w cells, w = m + 1; row i is `cost[i·w..(i + 1)·w]`; `a` has n and
// `b` m items, indexed by i − 1 < n and j − 1 < m only where i, j ≥ 1.
#[allow(clippy::indexing_slicing)]
fn align(needle: &[Token], window: &[Token]) -> Option<(Vec<Hunk>, Range<usize>)> {
    let (n, m) = (needle.len(), window.len());
    if (n + 1).saturating_mul(m + 1) > MAX_ALIGN_CELLS {
        return None;
    }
    // Tokens as numbers: one comparison per cell.
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut a: Vec<u32> = Vec::with_capacity(n);
    let mut b: Vec<u32> = Vec::with_capacity(m);
    for (ts, out) in [(needle, &mut a), (window, &mut b)] {
        for t in ts {
            let next = ids.len() as u32;
            out.push(*ids.entry(t.text.as_str()).or_insert(next));
        }
    }
    // Costs: a window token inserted 1, a needle token lost or substituted `lost` (more than
    // every window token: a substitution at either end then ties with a loss beside free
    // context, and the walk back prefers the substitution). At most n·lost + m: within u32
    // under MAX_ALIGN_CELLS.
    let lost = m as u32 + 1;
    let (ins, del, sub) = (1, lost, lost);
    let w = m + 1;
    // cost[i·w + j]: needle[..i] aligned so that it ends before window[j]; row 0 is free.
    let mut cost = vec![0u32; (n + 1) * w];
    for (i, &x) in a.iter().enumerate() {
        let (done, rest) = cost.split_at_mut((i + 1) * w);
        let prev = &done[i * w..];
        let row = &mut rest[..w];
        row[0] = prev[0] + del;
        for (j, &y) in b.iter().enumerate() {
            let diagonal = prev[j] + if x == y { 0 } else { sub };
            row[j + 1] = diagonal.min(prev[j + 1] + del).min(row[j] + ins);
        }
    }
    let last = &cost[n * w..];
    // The last of the best ends: a substitution of the needle's last token ties with its loss
    // before free context, and is what happened.
    let best = last.iter().min().copied()?;
    let mut j = (0..=m).rev().find(|&j| last[j] == best)?;
    let end = j;
    let at = |i: usize, j: usize| cost[i * w + j];
    // Walk back along an optimal path; a run of differing steps is one hunk, `open` holding its
    // end while it runs. In a run, another differing step is preferred when it is as good.
    let mut out: Vec<Hunk> = Vec::new();
    let mut open: Option<(usize, usize)> = None;
    let mut i = n;
    while i > 0 {
        let here = at(i, j);
        let same = j > 0 && a[i - 1] == b[j - 1] && here == at(i - 1, j - 1);
        let inserted = j > 0 && here == at(i, j - 1) + ins;
        let deleted = here == at(i - 1, j) + del;
        let substituted = j > 0 && a[i - 1] != b[j - 1] && here == at(i - 1, j - 1) + sub;
        let (pi, pj, differs) = match (open.is_some(), same) {
            (true, _) if inserted => (i, j - 1, true),
            (true, _) if deleted => (i - 1, j, true),
            (_, true) => (i - 1, j - 1, false),
            _ if substituted => (i - 1, j - 1, true),
            _ if deleted => (i - 1, j, true),
            _ => (i, j.saturating_sub(1), true),
        };
        match (differs, open) {
            (true, None) => open = Some((i, j)),
            (false, Some((oe, ne))) => {
                out.push(Hunk { old: i..oe, new: j..ne });
                open = None;
            }
            _ => {}
        }
        (i, j) = (pi, pj);
    }
    if let Some((oe, ne)) = open {
        out.push(Hunk { old: 0..oe, new: j..ne });
    }
    out.reverse();
    Some((out, j..end))
}

/// Where an inserted run `new` of `window` can sit with the same alignment, within the aligned
/// `span`: `b c` inserted into `a b | c` is also `a | b c` (a diff places such a run anywhere
/// among equal tokens; the whole-lines test must see every place). Cost: O(span).
fn slides<'w>(window: &'w [Token], new: &Range<usize>, span: &Range<usize>) -> impl Iterator<Item = Range<usize>> + 'w {
    let same = |x: usize, y: usize| window.get(x).zip(window.get(y)).is_some_and(|(p, q)| p.text == q.text);
    let mut first = new.clone();
    while first.start > span.start && same(first.start - 1, first.end - 1) {
        first = first.start - 1..first.end - 1;
    }
    let mut last = new.clone();
    while last.end < span.end && same(last.start, last.end) {
        last = last.start + 1..last.end + 1;
    }
    let len = new.len();
    (first.start..=last.start).map(move |s| s..s + len)
}

/// Whether `new` (window tokens) is exactly the tokens of at most [`MAX_ADDED_LINES`] whole
/// lines: no token before or after it shares a line with it.
fn whole_lines(window: &[Token], new: &Range<usize>) -> bool {
    let (Some(first), Some(last)) = (window.get(new.start), new.end.checked_sub(1).and_then(|i| window.get(i))) else {
        return false;
    };
    let before_ok = new.start.checked_sub(1).and_then(|i| window.get(i)).map_or(true, |t| t.line < first.line);
    let after_ok = window.get(new.end).map_or(true, |t| t.line > last.line);
    before_ok && after_ok && last.line - first.line < MAX_ADDED_LINES
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `needle`'s near misses in `doc` and the recommendation for them.
    fn rec(doc: &str, needle: &str) -> Option<(usize, Reason)> {
        let rope = Rope::from_str(doc);
        let found = super::super::near_misses(&rope, needle, 0, 3);
        recommend(&rope, needle, &found)
    }

    fn small(doc: &str, region: &str, needle: &str) -> Option<SmallDifference> {
        let rope = Rope::from_str(doc);
        let b = doc.find(region).unwrap();
        let start = doc[..b].chars().count();
        small_difference(&rope, needle, &(start..start + region.chars().count()))
    }

    const DOC: &str = "\
fn load(path: &str) -> Config {
    let text = read(path);
    let parsed = parse_config(&text);
    validate(&parsed);
    parsed
}

fn save(path: &str, config: &Config) {
    write(path, &dump(config));
}
";

    #[test]
    fn tokens_split_words_symbols_and_cjk() {
        let t: Vec<String> = tokens("a_b += f(x);\n 超时 30s").into_iter().map(|t| t.text).collect();
        assert_eq!(t, ["a_b", "+=", "f", "(", "x", ");", "超", "时", "30s"]);
        assert_eq!(tokens("a\n\nb").iter().map(|t| t.line).collect::<Vec<_>>(), [0, 2]);
    }

    #[test]
    fn one_misremembered_token_is_recommended() {
        let needle = "    let text = read(path);\n    let parsed = parse(&text);\n    validate(&parsed);";
        assert_eq!(rec(DOC, needle), Some((0, Reason::OneToken)));
    }

    #[test]
    fn reflowed_text_is_recommended() {
        let doc = "# Title\n\nThe quick brown fox jumps over\nthe lazy dog and runs away\ninto the forest.\n\nOther text here.\n";
        let needle = "The quick brown fox jumps over the lazy dog and\nruns away into the forest.";
        assert_eq!(rec(doc, needle), Some((0, Reason::WhitespaceOnly)));
    }

    #[test]
    fn a_line_the_document_added_is_recommended() {
        let needle = "    let text = read(path);\n    let parsed = parse_config(&text);\n    parsed\n}";
        assert_eq!(
            small(DOC, "    let text = read(path);\n    let parsed = parse_config(&text);\n    validate(&parsed);\n    parsed\n}", needle),
            Some(SmallDifference::AddedLines)
        );
        assert_eq!(rec(DOC, needle), Some((0, Reason::AddedLines)));
    }

    #[test]
    fn a_line_old_text_has_and_the_document_lacks_is_not() {
        // The agent believes in a line that is not there: its picture of the block is wrong.
        let needle =
            "    let text = read(path);\n    let parsed = parse_config(&text);\n    check(&parsed);\n    validate(&parsed);\n    parsed";
        assert_eq!(rec(DOC, needle), None);
    }

    #[test]
    fn two_separate_differences_are_not() {
        let needle = "    let text = load(path);\n    let parsed = parse_config(&text);\n    check(&parsed);";
        assert_eq!(rec(DOC, needle), None);
    }

    #[test]
    fn a_misremembered_phrase_is_not() {
        let needle = "fn save(path: &str, config: &Config) {\n    write(path, &serde_json::to_string(config));\n}";
        assert_eq!(rec(DOC, needle), None);
    }

    #[test]
    fn a_misremembered_first_or_last_token_is_one_token() {
        let doc = "x\nlet alpha = one + two;\ny\n";
        assert_eq!(small(doc, "let alpha = one + two;", "lot alpha = one + two;"), Some(SmallDifference::OneToken));
        assert_eq!(small(doc, "let alpha = one + two;", "let alpha = one + two!"), Some(SmallDifference::OneToken));
    }

    #[test]
    fn a_short_needle_needs_enough_unchanged() {
        // Two of three tokens kept: one token is a third of the text.
        let doc = "alpha = 1\nbeta = 2\n";
        assert_eq!(small(doc, "alpha = 1", "alpha = 7"), None);
        // Four kept: enough.
        let doc = "let alpha = one + two;\n";
        assert_eq!(small(doc, "let alpha = one + two;", "let alpha = one + tow;"), Some(SmallDifference::OneToken));
    }

    #[test]
    fn two_copies_give_no_recommendation() {
        let block = "    retries = compute_retries(config)\n    timeout = compute_timeout(config)\n";
        let doc = format!("def a(config):\n{block}\n\ndef b(config):\n{block}\n");
        let needle = "    retries = compute_retries(config)\n    timeout = compute_timeuot(config)";
        assert_eq!(rec(&doc, needle), None);
        // One copy: recommended.
        let doc = format!("def a(config):\n{block}\n\ndef b(config):\n    pass\n");
        assert_eq!(rec(&doc, needle), Some((0, Reason::OneToken)));
    }

    #[test]
    fn a_region_beside_the_place_meant_is_not_read_as_it() {
        // The lines after the place meant: its context holds the place, the region does not.
        let needle = "    let text = read(path);\n    let parsed = parse(&text);";
        assert_eq!(small(DOC, "validate(&parsed);\n    parsed\n}", needle), None);
        assert_eq!(
            small(DOC, "    let text = read(path);\n    let parsed = parse_config(&text);", needle),
            Some(SmallDifference::OneToken)
        );
    }

    #[test]
    fn the_runner_up_must_be_clearly_worse() {
        let rope = Rope::from_str(DOC);
        let needle = "    let text = read(path);\n    let parsed = parse(&text);\n    validate(&parsed);";
        let found = super::super::near_misses(&rope, needle, 0, 3);
        assert!(recommend(&rope, needle, &found).is_some());
        // The same regions, the runner-up made as similar as the best: no recommendation.
        let mut tied = found.clone();
        tied.insert(1, NearMiss { range: 0..5, similarity: found[0].similarity - MARGIN / 2.0 });
        assert_eq!(recommend(&rope, needle, &tied), None);
        // Below the floor: none either.
        let low = vec![NearMiss { similarity: SIMILARITY_FLOOR - 0.01, ..found[0].clone() }];
        assert_eq!(recommend(&rope, needle, &low), None);
        assert_eq!(recommend(&rope, needle, &[]), None);
    }

    #[test]
    fn a_region_trimmed_by_the_alignment_is_read_with_its_lines() {
        // The region starts mid-line past the needle's first line; the whole lines decide.
        let doc = "x = 0\n  return err\n  // checked\n}\n\nclass Result {\n  constructor (opts) {\n";
        let needle = "  return err\n}\n\nclass Result {\n  constructor (opts) {";
        assert_eq!(small(doc, "checked\n}\n\nclass Result {\n  constructor (opts) {", needle), Some(SmallDifference::AddedLines));
    }

    #[test]
    fn too_many_added_lines_are_not_small() {
        let doc = "a b c d\n1\n2\n3\n4\ne f g h\n";
        let needle = "a b c d\ne f g h";
        assert_eq!(small(doc, doc.trim_end(), needle), None);
        let doc = "a b c d\n1\n2\n3\ne f g h\n";
        assert_eq!(small(doc, doc.trim_end(), needle), Some(SmallDifference::AddedLines));
        // Added words inside a line are no added line.
        let doc = "a b c d extra\ne f g h\n";
        assert_eq!(small(doc, doc.trim_end(), needle), None);
    }

    #[test]
    fn out_of_bounds_and_empty_inputs_do_not_panic() {
        let rope = Rope::from_str("abc\n");
        assert_eq!(small_difference(&rope, "", &(0..3)), None);
        assert_eq!(small_difference(&rope, "abc def ghi jkl", &(50..90)), None);
        // A reversed range, on purpose: a bad region must not panic.
        let found = vec![NearMiss { range: std::ops::Range { start: 7, end: 2 }, similarity: 0.95 }];
        assert_eq!(recommend(&rope, "abc def ghi jkl", &found), None);
    }
}
