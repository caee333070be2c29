//! The fuzzy tiers' line checks on a stream of chars ([`normalize_each`]): whether a document
//! line, normalised, equals / ends with / starts with / contains a normalised needle line, and
//! where — without building the normalised line. Each costs O(line) time at most (the prefix
//! and equality checks stop early) and O(needle line) memory, so a 10 MB line is scanned, never
//! copied four times over.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use ropey::Rope;

use super::normalize::{is_line_space, normalize_each, Tier};
use super::work::Budget;

/// The chars of document line `i` without its line break; none past the last line (the open
/// end after a document without a final break).
pub fn line_chars(rope: &Rope, i: usize) -> impl Iterator<Item = char> + '_ {
    let line = (i < rope.len_lines()).then(|| rope.line(i));
    line.into_iter().flat_map(|l| l.chars()).take_while(|&c| c != '\n')
}

/// Longest indentation kept by [`line_head`] (re-indentation only needs the indentation).
const MAX_HEAD_CHARS: usize = 4096;

/// The start of line `i` up to and including its first non-space char: all that
/// re-indentation looks at (its indentation, and whether it is blank).
pub fn line_head(rope: &Rope, i: usize) -> String {
    let mut head = String::new();
    for c in line_chars(rope, i).take(MAX_HEAD_CHARS) {
        head.push(c);
        if !is_line_space(c) {
            break;
        }
    }
    head
}

/// Whether `line`, normalised under `tier`, is exactly `want`. Stops at the first difference.
pub fn equals(line: impl Iterator<Item = char>, tier: Tier, want: &[char], budget: &mut Budget) -> bool {
    let mut at = 0usize;
    let whole = normalize_each(line, tier, budget, |c, _| {
        if want.get(at) != Some(&c) {
            return ControlFlow::Break(());
        }
        at += 1;
        ControlFlow::Continue(())
    });
    whole.is_some() && at == want.len()
}

/// Where `line`, normalised under `tier`, starts with `want`: the char offset in the line just
/// past the original chars of `want` (0 for an empty `want`). Stops once `want` is seen.
pub fn prefix_end(line: impl Iterator<Item = char>, tier: Tier, want: &[char], budget: &mut Budget) -> Option<usize> {
    if want.is_empty() {
        return Some(0);
    }
    let (mut at, mut end) = (0usize, None);
    normalize_each(line, tier, budget, |c, span| {
        if want.get(at) != Some(&c) {
            return ControlFlow::Break(());
        }
        at += 1;
        if at == want.len() {
            end = Some(span.1);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    end
}

/// Where `line`, normalised under `tier`, ends with `want`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suffix {
    /// Char offset in the line where the original chars of `want` start (the line's length for
    /// an empty `want`).
    pub start: usize,
    /// `want` is the whole normalised line.
    pub whole: bool,
    /// The line's length in chars.
    pub line_len: usize,
}

/// Whether `line`, normalised under `tier`, ends with `want`, and where. Reads the whole line,
/// keeping only its last `want.len()` normalised chars.
pub fn suffix(line: impl Iterator<Item = char>, tier: Tier, want: &[char], budget: &mut Budget) -> Option<Suffix> {
    let m = want.len();
    let mut tail: VecDeque<(char, usize)> = VecDeque::with_capacity(m + 1);
    let mut count = 0usize;
    let line_len = normalize_each(line, tier, budget, |c, span| {
        count += 1;
        if m > 0 {
            if tail.len() == m {
                tail.pop_front();
            }
            tail.push_back((c, span.0));
        }
        ControlFlow::Continue(())
    })?;
    if count < m || !tail.iter().map(|(c, _)| c).eq(want.iter()) {
        return None;
    }
    let start = tail.front().map_or(line_len, |&(_, s)| s);
    Some(Suffix { start, whole: count == m, line_len })
}

/// A hash of `line` normalised under `tier` (equal normalised lines hash alike).
pub fn hash(line: impl Iterator<Item = char>, tier: Tier, budget: &mut Budget) -> u64 {
    let mut h = 0xCBF2_9CE4_8422_2325u64;
    normalize_each(line, tier, budget, |c, _| {
        h = (h.rotate_left(5) ^ u64::from(c)).wrapping_mul(0x0100_0000_01B3);
        ControlFlow::Continue(())
    });
    h
}

/// One occurrence of a needle in a normalised line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// Position in the normalised line.
    pub at: usize,
    /// Char range in the original line.
    pub start: usize,
    pub end: usize,
}

/// Non-overlapping occurrences of `want` (not empty) in `line` normalised under `tier`, left to
/// right; at most `limit`. KMP over the stream: O(line + want) time, O(want) memory.
// Bounds: `k < m` whenever `want[k]` is read (a full match resets k to 0), `fail` has m slots
// and `starts` m slots indexed modulo m.
#[allow(clippy::indexing_slicing)]
pub fn occurrences(line: impl Iterator<Item = char>, tier: Tier, want: &[char], limit: usize, budget: &mut Budget) -> Vec<Occurrence> {
    let m = want.len();
    let mut out = Vec::new();
    if m == 0 || limit == 0 {
        return out;
    }
    let fail = super::kmp::failure(want);
    let mut starts = vec![0usize; m];
    let (mut k, mut q) = (0usize, 0usize);
    normalize_each(line, tier, budget, |c, span| {
        starts[q % m] = span.0;
        while k > 0 && c != want[k] {
            k = fail[k - 1];
        }
        if c == want[k] {
            k += 1;
        }
        if k == m {
            let at = q + 1 - m;
            out.push(Occurrence { at, start: starts[at % m], end: span.1 });
            k = 0; // non-overlapping, leftmost first
            if out.len() == limit {
                return ControlFlow::Break(());
            }
        }
        q += 1;
        ControlFlow::Continue(())
    });
    out
}

#[cfg(test)]
mod tests {
    use super::super::kmp::find_disjoint;
    use super::super::normalize::normalize_line;
    use super::*;

    /// Every streamed check agrees with the same check on the normalised line built whole.
    #[test]
    fn streamed_checks_agree_with_built_lines() {
        let alphabet = [' ', '\t', 'a', 'b', '\u{00A0}', '\u{200B}', '\u{2026}', '.', '\u{2014}', '-'];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20_000 {
            let line: String = (0..next(12)).map(|_| alphabet[next(alphabet.len())]).collect();
            let want_src: String = (0..next(4)).map(|_| alphabet[next(alphabet.len())]).collect();
            for tier in Tier::FUZZY {
                let b = &mut Budget::unlimited();
                let norm = normalize_line(&line, tier, b);
                let want = normalize_line(&want_src, tier, b).text;
                assert_eq!(equals(line.chars(), tier, &want, b), norm.text == want, "{line:?} {want_src:?} {tier}");
                let pre = norm.text.starts_with(&want).then(|| norm.end_before(want.len()));
                assert_eq!(prefix_end(line.chars(), tier, &want, b), pre, "{line:?} {want_src:?} {tier}");
                let suf = norm.text.ends_with(&want).then(|| {
                    let p = norm.len() - want.len();
                    Suffix {
                        start: if want.is_empty() { norm.original_len } else { norm.start_of(p) },
                        whole: p == 0,
                        line_len: norm.original_len,
                    }
                });
                assert_eq!(suffix(line.chars(), tier, &want, b), suf, "{line:?} {want_src:?} {tier}");
                if !want.is_empty() {
                    let built: Vec<Occurrence> = find_disjoint(&norm.text, &want)
                        .into_iter()
                        .map(|p| Occurrence { at: p, start: norm.start_of(p), end: norm.end_before(p + want.len()) })
                        .collect();
                    assert_eq!(occurrences(line.chars(), tier, &want, usize::MAX, b), built, "{line:?} {want_src:?} {tier}");
                }
            }
        }
    }
}
