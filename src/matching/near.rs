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

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::ops::{Range, RangeInclusive};

use ropey::Rope;
use similar::DiffOp;

use crate::changeset::myers_replace_ops;

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

/// Largest alignment (needle chars × window chars) computed in full: ~1 M cells, a few ms.
pub const ALIGN_CELL_LIMIT: usize = 1 << 20;

/// How many chars at each end of the needle are aligned when the whole needle is too large.
pub const EDGE_CHARS: usize = 64;

/// Longest [`describe_difference`] answer, in chars, `…` included.
pub const MAX_DESCRIPTION_CHARS: usize = 600;

/// Fewest windows scored precisely (per source), whatever `limit` is: the coarse ranking is a
/// heuristic, the region the agent meant may be a few places down.
const MIN_SCORED_WINDOWS: usize = 12;

/// Most windows scored precisely per source (for short needles).
const MAX_SCORED_WINDOWS: usize = 256;

/// Alignment cells the precise scoring of one call plans for, per source of candidates (windows
/// are about twice the needle): more windows for short needles, [`MIN_SCORED_WINDOWS`] for long
/// ones.
pub const SCORING_CELLS: usize = 1 << 20;

/// Most chars of equal text shown next to a difference in [`describe_difference`].
const CONTEXT_CHARS: usize = 20;

/// Most chars of one changed part shown in [`describe_difference`].
const CHANGED_CHARS: usize = 60;

/// Most lines of each side [`describe_difference`] looks at (its answer is capped anyway).
const DESCRIBED_LINES: usize = 500;

/// Longest head or tail region searched for the needle's ends in a window too large to align.
const EDGE_REGION_CHARS: usize = 8_192;

/// A region of the document that resembles the needle.
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
    let s = if similarity.is_nan() {
        0.0
    } else {
        similarity.clamp(0.0, 1.0)
    };
    // The nudge keeps 0.29 (stored as 0.28999…) at 0.29; the cap keeps 0.999 below 1.00.
    let mut hundredths = (s * 100.0 + 1e-9).floor() as u32;
    if s < 1.0 {
        hundredths = hundredths.min(99);
    }
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
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
pub fn near_misses(rope: &Rope, needle: &str, from: usize, limit: usize) -> Vec<NearMiss> {
    let from = from.min(rope.len_chars());
    if needle.is_empty() || limit == 0 || from == rope.len_chars() {
        return Vec::new();
    }
    let needle_chars: Vec<char> = needle.chars().collect();
    // Short needles are cheap to align: score more windows (ties in the coarse ranking, like a
    // needle whose only distinctive word occurs fifty times, are then still all scored).
    let per_window = needle_chars
        .len()
        .saturating_mul(2 * needle_chars.len() + 16)
        .max(1);
    let wanted = (SCORING_CELLS / per_window)
        .clamp(MIN_SCORED_WINDOWS, MAX_SCORED_WINDOWS)
        .max(limit.min(32) * 2);
    let windows = candidate_windows(rope, from, needle, needle_chars.len(), wanted);

    let mut spans: Vec<Range<usize>> = windows
        .iter()
        .flat_map(|w| spans_in_window(rope, &needle_chars, w))
        .collect();
    crate::sort::sort_by_key(&mut spans, |r| (r.start, r.end));
    spans.dedup();
    let mut found: Vec<NearMiss> = spans
        .into_iter()
        .filter_map(|span| best_version(rope, needle, span))
        .filter(|n| n.similarity > 0.0)
        .collect();
    crate::sort::sort_by(&mut found, |a, b| {
        b.similarity
            .total_cmp(&a.similarity)
            .then(a.range.start.cmp(&b.range.start))
    });
    found.dedup_by(|a, b| a.range == b.range);

    let mut chosen: Vec<NearMiss> = Vec::new();
    for candidate in found {
        if chosen.len() == limit {
            break;
        }
        let overlaps = chosen
            .iter()
            .any(|c| candidate.range.start < c.range.end && c.range.start < candidate.range.end);
        if !overlaps {
            chosen.push(candidate);
        }
    }
    chosen
}

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
    if a == b {
        return 1.0;
    }
    let a_len = a.chars().count();
    let b_len = b.chars().count();
    let matched = if lcs_steps(a_len, b_len) <= LCS_WORD_STEPS {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        lcs_len(&a, &b)
    } else {
        common_chars_by_lines(a, b)
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
fn lcs_len<T: Copy + Ord>(a: &[T], b: &[T]) -> usize {
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
            let used = if w + 1 == words && tail_bits != 0 {
                (1u64 << tail_bits) - 1
            } else {
                u64::MAX
            };
            (!vw & used).count_ones() as usize
        })
        .sum()
}

/// Myers edit script of `a` → `b`, or `None` when it would cost more than [`MYERS_STEPS`]
/// (checked with the LCS first, so no deadline is needed).
fn bounded_myers<T: Copy + Ord + std::hash::Hash>(a: &[T], b: &[T]) -> Option<Vec<DiffOp>> {
    if lcs_steps(a.len(), b.len()) > LCS_WORD_STEPS {
        return None;
    }
    let edits = a.len() + b.len() - 2 * lcs_len(a, b);
    ((a.len() + b.len()).saturating_mul(edits) <= MYERS_STEPS)
        .then(|| myers_replace_ops(a, b))
}

/// Common chars of two long texts (see [`similarity`]): a line diff where equal lines count
/// whole and replaced blocks count their char LCS (within [`LCS_WORD_STEPS`] per block and four
/// times that in all; a larger block pairs its lines in order), or the multiset count when the
/// line diff is too large.
// Bounds: the ops come from `bounded_myers` over exactly these line lists, so each op's
// ranges lie in them.
#[allow(clippy::indexing_slicing)]
fn common_chars_by_lines(a: &str, b: &str) -> usize {
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
    let Some(ops) = bounded_myers(&a_ids, &b_ids) else {
        return common_chars_as_multisets(&a_lines, &b_lines);
    };
    let mut matched = 0;
    let mut refine_budget = 4 * LCS_WORD_STEPS;
    for op in ops {
        match op {
            DiffOp::Equal { old_index, len, .. } => {
                matched += a_lines[old_index..old_index + len]
                    .iter()
                    .map(|l| l.chars().count())
                    .sum::<usize>();
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let old = &a_lines[old_index..old_index + old_len];
                let new = &b_lines[new_index..new_index + new_len];
                let chars = |lines: &[&str]| -> Vec<char> {
                    lines.iter().flat_map(|l| l.chars()).collect()
                };
                let (old_chars, new_chars) = (chars(old), chars(new));
                let steps = lcs_steps(old_chars.len(), new_chars.len());
                if steps <= LCS_WORD_STEPS && steps <= refine_budget {
                    refine_budget -= steps;
                    matched += lcs_len(&old_chars, &new_chars);
                } else {
                    // Too large as a whole: pair the lines in order. Common subsequences of the
                    // pairs, concatenated, are one of the blocks, so this never overestimates.
                    for (o, n) in old.iter().zip(new) {
                        let (o, n): (Vec<char>, Vec<char>) =
                            (o.chars().collect(), n.chars().collect());
                        let steps = lcs_steps(o.len(), n.len());
                        if steps <= refine_budget {
                            refine_budget -= steps;
                            matched += lcs_len(&o, &n);
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

// ---------------------------------------------------------------------------------------------
// Candidate generation
// ---------------------------------------------------------------------------------------------

/// A stretch of the document worth aligning against the needle.
#[derive(Clone, Debug)]
struct Window {
    /// Char range in the rope.
    range: Range<usize>,
    /// Chars from `range.start` within which the needle's first char is expected (used only when
    /// the window is too large to align whole).
    head: usize,
    /// Chars before `range.end` within which the needle's last char is expected (idem).
    tail: usize,
    /// Where, from `range.start`, the needle is expected to end: among equally good alignments
    /// the one ending nearest wins.
    anchor: usize,
    /// Where (from `range.start`) the region this window was found for ends. The window is
    /// aligned twice: its best region anywhere, and its best region ending here — so a window
    /// that also holds a better neighbour (two similar lines in a row) still yields its own.
    near_ends: RangeInclusive<usize>,
}

/// Most needle lines one document line may vote for (see [`candidate_windows`]).
const MAX_VOTES_PER_LINE: usize = 4;

/// Fewest trigram occurrences a needle needs for trigrams to be used; below, bigrams are. One
/// edit spoils up to three trigrams, so a short needle (or one of very short lines: grams never
/// span a newline) could lose them all: `value` → `vaQue` keeps no trigram, but `va` and `ue`.
const MIN_TRIGRAMS: i64 = 8;

/// The needle's byte q-grams (trigrams, or bigrams for short needles; none spanning a newline),
/// hashed into a table of small ids sized to the needle (from 1 Ki slots, 2 KiB, in L1 cache, up
/// to 64 Ki slots for long needles: at most 1/64 of it used, so a gram the needle lacks rarely
/// hits by collision — and a collision only adds noise to a heuristic count).
struct Grams {
    /// q: 3, or 2.
    len: usize,
    /// Keeps the last `len` bytes of a rolling `u32`.
    mask: u32,
    /// 32 − log2(table size).
    shift: u32,
    /// Slot → id (1-based; 0: not in the needle).
    ids: Box<[u16]>,
    /// Id → occurrences in the needle (0 for id 0).
    needed: Vec<i32>,
}

impl Grams {
    fn of(text: &str) -> Grams {
        let trigrams = Grams::with_len(text, 3);
        if trigrams.needed.iter().map(|&n| i64::from(n)).sum::<i64>() >= MIN_TRIGRAMS {
            trigrams
        } else {
            Grams::with_len(text, 2)
        }
    }

    // Bounds: `slot` shifts a 32-bit hash right by 32 - table_bits, so it is below the table's
    // 2^table_bits slots; every id stored is below `needed.len()` (ids are handed out as the
    // length before a push, and capped at u16::MAX once pushing stops).
    #[allow(clippy::indexing_slicing)]
    fn with_len(text: &str, len: usize) -> Grams {
        let grams = || {
            text.split('\n')
                .flat_map(move |line| line.as_bytes().windows(len))
        };
        let occurrences = grams().count().max(1);
        let table_bits = (occurrences.next_power_of_two().trailing_zeros() + 6).clamp(10, 16);
        let mut set = Grams {
            len,
            mask: if len == 3 { 0xFF_FFFF } else { 0xFFFF },
            shift: 32 - table_bits,
            ids: vec![0u16; 1 << table_bits].into_boxed_slice(),
            needed: vec![0],
        };
        for w in grams() {
            let slot = set.slot(w.iter().fold(0u32, |g, &b| g << 8 | u32::from(b)));
            if set.ids[slot] == 0 {
                // At most 2^16 slots: the last id is shared rather than overflowing.
                set.ids[slot] = set.needed.len().min(usize::from(u16::MAX)) as u16;
                if set.needed.len() <= usize::from(u16::MAX) {
                    set.needed.push(0);
                }
            }
            let needed = &mut set.needed[usize::from(set.ids[slot])];
            *needed = needed.saturating_add(1);
        }
        set
    }

    fn is_empty(&self) -> bool {
        self.needed.len() == 1
    }

    #[inline(always)]
    fn slot(&self, gram: u32) -> usize {
        (gram.wrapping_mul(0x9E37_79B1) >> self.shift) as usize
    }

    /// The id of `gram` (0 when the needle does not hold it).
    #[inline(always)]
    // Bounds: `slot` is below the table's size (see `with_len`).
    #[allow(clippy::indexing_slicing)]
    fn id(&self, gram: u32) -> u16 {
        self.ids[self.slot(gram)]
    }
}

/// Keeps the `capacity` best `(score, position)` pairs, each with a payload: higher score first,
/// then earlier position. Positions must be distinct.
struct TopScores {
    heap: BinaryHeap<Reverse<(u32, Reverse<usize>, usize)>>,
    capacity: usize,
}

impl TopScores {
    fn new(capacity: usize) -> TopScores {
        TopScores {
            heap: BinaryHeap::with_capacity(capacity + 1),
            capacity,
        }
    }

    #[inline]
    fn offer(&mut self, score: u32, position: usize, payload: usize) {
        if score == 0 || self.capacity == 0 {
            return;
        }
        if self.heap.len() < self.capacity {
            self.heap.push(Reverse((score, Reverse(position), payload)));
        } else if let Some(Reverse((worst_score, Reverse(worst_position), _))) = self.heap.peek() {
            if (score, Reverse(position)) > (*worst_score, Reverse(*worst_position)) {
                self.heap.pop();
                self.heap.push(Reverse((score, Reverse(position), payload)));
            }
        }
    }

    /// `(position, payload)` pairs, best first.
    fn into_best(self) -> Vec<(usize, usize)> {
        let mut kept: Vec<(u32, usize, usize)> = self
            .heap
            .into_iter()
            .map(|Reverse((s, Reverse(p), x))| (s, p, x))
            .collect();
        crate::sort::sort_by(&mut kept, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        kept.into_iter().map(|(_, p, x)| (p, x)).collect()
    }
}

/// The rope's bytes from `from_byte` on, chunk by chunk, each with the absolute offset of its
/// first byte. (Plain loops over these keep the scanners' state in registers.)
fn byte_chunks(rope: &Rope, from_byte: usize) -> impl Iterator<Item = (usize, &[u8])> {
    let (chunks, mut chunk_start, _, _) = rope.chunks_at_byte(from_byte);
    chunks.map(move |chunk| {
        let bytes = chunk.as_bytes();
        let base = chunk_start;
        chunk_start += bytes.len();
        let skip = from_byte.saturating_sub(base).min(bytes.len());
        (base + skip, bytes.get(skip..).unwrap_or_default())
    })
}

/// One byte into a line's hash: a rotate and a xor, two cycles of latency per byte on the
/// scan's critical path (a multiplying hash takes twice that). Weak alone; [`line_hash_finish`]
/// mixes the result, and a collision only casts a stray vote.
#[inline(always)]
fn line_hash_step(hash: u64, b: u8) -> u64 {
    hash.rotate_left(7) ^ u64::from(b)
}

/// The finished hash of a line (0 only for a line without non-blank bytes, which never votes).
fn line_hash_finish(hash: u64) -> u64 {
    (hash ^ (hash >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
}

/// ASCII whitespace other than the newline.
#[inline]
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0B | 0x0C)
}

/// Hash of a line's non-blank bytes, by the same rule as the pass in [`scan`]: lines that
/// differ only in whitespace hash alike. `None` for a blank line (and, as in the pass, for the
/// rare line whose steps cancel out to 0: it merely casts no vote).
fn normalized_line_hash(line: &str) -> Option<u64> {
    let hash = line
        .bytes()
        .filter(|&b| !is_blank(b))
        .fold(0u64, line_hash_step);
    (hash != 0).then(|| line_hash_finish(hash))
}

/// The windows worth aligning (see the module doc), at most `wanted` from each source:
/// - the peaks of hits in needle-wide windows, widened by half the needle on each side;
/// - for a needle of several lines, window starts voted for by lines equal but for whitespace
///   to a needle line, the best per block of `k` lines (k = the needle's line count), widened
///   by a line on each side.
fn candidate_windows(
    rope: &Rope,
    from: usize,
    needle: &str,
    needle_len: usize,
    wanted: usize,
) -> Vec<Window> {
    let grams = Grams::of(needle);
    let needle_lines: Vec<&str> = needle.split_inclusive('\n').collect();
    let k = needle_lines.len();
    // (line hash, line index in the needle, weight), sorted for binary search. A one-line
    // needle has no use for them: a line equal to it but for whitespace is a fuzzy-tier match.
    let mut keys: Vec<(u64, usize, u16)> = Vec::new();
    if k > 1 {
        keys = needle_lines
            .iter()
            .enumerate()
            .filter_map(|(j, line)| {
                let line = line.strip_suffix('\n').unwrap_or(line);
                let weight = line.trim().len().clamp(1, 80) as u16;
                normalized_line_hash(line).map(|h| (h, j, weight))
            })
            .collect();
        keys.sort_unstable();
        // A line the needle repeats more than MAX_VOTES_PER_LINE times (`}`, a blank-ish
        // line, one CSV row) says little about where the needle starts, and every document
        // line equal to it would cast that many votes: (document lines × needle lines) work.
        // Such lines do not vote; the others, and the trigram peaks, still find the region.
        let mut kept = Vec::with_capacity(keys.len());
        for group in keys.chunk_by(|a, b| a.0 == b.0) {
            if group.len() <= MAX_VOTES_PER_LINE {
                kept.extend_from_slice(group);
            }
        }
        keys = kept;
    }
    if grams.is_empty() && keys.is_empty() {
        return Vec::new();
    }
    let from_byte = rope.char_to_byte(from);
    let scan = if keys.is_empty() {
        scan::<false>
    } else {
        scan::<true>
    };
    let Scan { dense_ends, votes } = scan(rope, from_byte, &grams, needle, &keys, wanted);

    let mut windows = Vec::new();
    let slack = needle_len / 2 + 8;
    let len_chars = rope.len_chars();
    for end_byte in dense_ends {
        let end = rope.byte_to_char(end_byte);
        let start = from.max(end.saturating_sub(needle_len + slack));
        // The peak ends at the last needle trigram of the region it found; the region may end a
        // little later (a mangled tail) and hardly earlier.
        let anchor = end - start;
        let near = needle_len / 4 + 4;
        windows.push(Window {
            range: start..(end + slack).min(len_chars),
            head: 2 * slack,
            tail: 2 * slack,
            anchor,
            near_ends: anchor.saturating_sub(near)..=anchor + near,
        });
    }
    if keys.is_empty() {
        return windows;
    }

    let line_count = votes.len();
    let mut by_votes = TopScores::new(wanted);
    let mut block_best = (0u16, 0usize);
    for (s, &v) in votes.iter().enumerate() {
        if v > block_best.0 {
            block_best = (v, s);
        }
        if (s + 1) % k == 0 || s + 1 == line_count {
            by_votes.offer(u32::from(block_best.0), block_best.1, 0);
            block_best = (0, 0);
        }
    }
    let voted: Vec<usize> = by_votes.into_best().into_iter().map(|(s, _)| s).collect();
    // Lines s-1 ..= s+k of each voted start, found with one memchr pass.
    let mut needed: Vec<usize> = Vec::with_capacity(voted.len() * 5);
    for &s in &voted {
        needed.extend(
            [
                s.saturating_sub(1),
                s + 1,
                (s + k).saturating_sub(1),
                s + k,
                s + k + 1,
            ]
            .map(|l| l.min(line_count)),
        );
    }
    let offsets = line_offsets(rope, from_byte, line_count, needed);
    // Every line asked for below is in `needed` (clamped the same way), so the lookup hits; a
    // miss would mean the start of the text rather than a panic.
    let char_at = |line: usize| rope.byte_to_char(offsets.get(&line.min(line_count)).copied().unwrap_or(from_byte));
    for s in voted {
        let start = char_at(s.saturating_sub(1));
        let end = char_at(s + k + 1);
        let head = char_at(s + 1).saturating_sub(start);
        let tail = end.saturating_sub(char_at((s + k).saturating_sub(1)));
        let anchor = char_at(s + k).saturating_sub(start + 1);
        // The needle's last line is document line s+k-1, or s+k with a line inserted.
        let near_ends = (end - start).saturating_sub(tail)..=end - start;
        windows.push(Window {
            range: start..end,
            head,
            tail,
            anchor,
            near_ends,
        });
    }
    windows
}

/// What the one pass over the document found.
struct Scan {
    /// End bytes of the best peaks of hits, best first.
    dense_ends: Vec<usize>,
    /// With `VOTE`: per line of the searched text (line 0 starts at `from`), the weight of the
    /// lines voting for a window that starts there. Empty otherwise.
    votes: Vec<u16>,
}

/// The pass over the document from `from_byte` on: slides a needle-wide window (grams do not
/// span newlines, windows do) and keeps its `wanted` best peaks — for a one-line needle, also
/// the best window of every line; with `VOTE`, also hashes every line's non-blank bytes and lets
/// it vote through `keys`. One plain loop with local state (splitting it into a loop per task,
/// or visiting only the hits, measured slower): a few ns per byte.
// Bounds: `votes` gets a slot per line before its votes, and `start = i - j ≤ i` names one;
// `first` is a partition point of `keys`; `ring` has `width.max(1)` slots and `slot` wraps
// at its length; `spare` has a cell per gram id (ids are below `needed.len()`, see
// `Grams::with_len`) plus NO_GRAM_CELLS cells, and `no_gram` is `real_ids + (slot & 7)`.
#[allow(clippy::indexing_slicing)]
fn scan<const VOTE: bool>(
    rope: &Rope,
    from_byte: usize,
    grams: &Grams,
    needle: &str,
    keys: &[(u64, usize, u16)],
    wanted: usize,
) -> Scan {
    let mut votes: Vec<u16> = Vec::new();
    let vote = |votes: &mut Vec<u16>, hash: u64| {
        let i = votes.len();
        votes.push(0);
        if hash != 0 {
            let hash = line_hash_finish(hash);
            let first = keys.partition_point(|key| key.0 < hash);
            for &(_, j, weight) in keys[first..].iter().take_while(|key| key.0 == hash) {
                if let Some(start) = i.checked_sub(j) {
                    votes[start] = votes[start].saturating_add(weight);
                }
            }
        }
    };
    let one_line = !needle.trim_end_matches('\n').contains('\n');
    let width = needle.len();
    let radius = (width / 2).max(1);
    let mut peaks = TopScores::new(wanted);
    // The window: the gram id ending at each of its last `width` bytes (0: none), as a ring;
    // per id, how many more the needle holds than the window (≤ 0: further ones do not count,
    // so repeating one token cannot outscore the region the needle was copied from); and its
    // hits, the grams it shares with the needle as multisets. Locals and branch-free updates:
    // this is the hot loop. "No gram" is most bytes; its counter must never count and must not
    // chain every byte to the previous one through one memory cell, so it is spread over
    // NO_GRAM_CELLS cells (by ring position) that start far below zero.
    const NO_GRAM_CELLS: usize = 8;
    let real_ids = grams.needed.len();
    let mut ring = vec![0u16; width.max(1)];
    let mut slot = 0usize;
    let mut spare: Vec<i32> = grams.needed.clone();
    spare.extend([i32::MIN / 2; NO_GRAM_CELLS]);
    spare[0] = i32::MIN / 2;
    let mut hits = 0u32;
    let mut gram = 0u32;
    let mut in_line = 0usize;
    let mut best = 0u32;
    let mut best_end = 0usize;
    let mut hash = 0u64;
    for (base, bytes) in byte_chunks(rope, from_byte) {
        for (i, &b) in bytes.iter().enumerate() {
            let id = if b == b'\n' {
                if one_line && best > 0 {
                    // A one-line needle: every line offers its best window (short lines
                    // similar to the needle are then never hidden by a better neighbour).
                    peaks.offer(best, best_end, 0);
                    best = 0;
                }
                if VOTE {
                    vote(&mut votes, hash);
                    hash = 0;
                }
                in_line = 0;
                0
            } else {
                gram = (gram << 8 | u32::from(b)) & grams.mask;
                in_line += 1;
                if VOTE && !is_blank(b) {
                    hash = line_hash_step(hash, b);
                }
                if in_line >= grams.len {
                    grams.id(gram)
                } else {
                    0
                }
            };
            let leaving = ring[slot];
            if leaving != id {
                // (Equal ids change nothing; skipping them also keeps the two updates below on
                // different cells, which the CPU would otherwise have to order.)
                let no_gram = real_ids + (slot & (NO_GRAM_CELLS - 1));
                let leaving = if leaving == 0 {
                    no_gram
                } else {
                    usize::from(leaving)
                };
                spare[leaving] += 1;
                hits -= u32::from(spare[leaving] > 0);
                ring[slot] = id;
                let entering = if id == 0 { no_gram } else { usize::from(id) };
                hits += u32::from(spare[entering] > 0);
                spare[entering] -= 1;
            }
            slot += 1;
            if slot == ring.len() {
                slot = 0;
            }
            let end = base + i + 1;
            if hits > best {
                best = hits;
                best_end = end;
            } else if best > 0 && end >= best_end + radius {
                // Nothing beat the peak within half a needle: it is a candidate.
                peaks.offer(best, best_end, 0);
                best = 0;
            }
        }
    }
    peaks.offer(best, best_end, 0);
    if VOTE {
        vote(&mut votes, hash);
    }
    Scan {
        dense_ends: peaks.into_best().into_iter().map(|(end, _)| end).collect(),
        votes,
    }
}

/// Byte offset of each wanted line of the text that starts at `from_byte` (line 0 starts there;
/// line `line_count` means the end of the rope). Cost: one memchr pass up to the last wanted line.
fn line_offsets(
    rope: &Rope,
    from_byte: usize,
    line_count: usize,
    mut wanted: Vec<usize>,
) -> HashMap<usize, usize> {
    wanted.sort_unstable();
    wanted.dedup();
    let mut offsets = HashMap::with_capacity(wanted.len());
    let mut pending = wanted.into_iter().peekable();
    while pending.peek() == Some(&0) {
        offsets.insert(0, from_byte);
        pending.next();
    }
    let mut line = 0usize;
    let (chunks, mut chunk_start, _, _) = rope.chunks_at_byte(from_byte);
    'chunks: for chunk in chunks {
        let bytes = chunk.as_bytes();
        let skip = from_byte.saturating_sub(chunk_start).min(bytes.len());
        for at in memchr::memchr_iter(b'\n', bytes.get(skip..).unwrap_or_default()) {
            line += 1;
            while pending.peek() == Some(&line) {
                offsets.insert(line, chunk_start + skip + at + 1);
                pending.next();
            }
            if pending.peek().is_none() {
                break 'chunks;
            }
        }
        chunk_start += bytes.len();
    }
    for rest in pending {
        debug_assert!(rest >= line_count);
        offsets.insert(rest, rope.len_bytes());
    }
    offsets
}

// ---------------------------------------------------------------------------------------------
// Precise location
// ---------------------------------------------------------------------------------------------

/// Where, inside `window`, the needle's best alignments lie (as rope char ranges, none empty):
/// the best anywhere and the best ending in `window.near_ends` (often the same).
// Bounds: `edge` ≤ the needle's length.
#[allow(clippy::indexing_slicing)]
fn spans_in_window(rope: &Rope, needle: &[char], window: &Window) -> Vec<Range<usize>> {
    let len = window.range.len();
    if len == 0 || needle.is_empty() {
        return Vec::new();
    }
    let base = window.range.start;
    let chars = |r: Range<usize>| -> Vec<char> {
        rope.slice(base + r.start..base + r.end).chars().collect()
    };
    if needle.len().saturating_mul(len) <= ALIGN_CELL_LIMIT {
        let row = AlignmentRow::of(needle, &chars(0..len), true);
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
    let start = AlignmentRow::of(&needle[..edge], &head, true)
        .best(0..=head_len, 0)
        .start;
    let reversed_needle: Vec<char> = needle[needle.len() - edge..]
        .iter()
        .rev()
        .copied()
        .collect();
    let reversed_tail: Vec<char> = tail.iter().rev().copied().collect();
    let end = len
        - AlignmentRow::of(&reversed_needle, &reversed_tail, true)
            .best(0..=tail_len, 0)
            .start;
    let span = if start < end {
        base + start..base + end
    } else {
        base..base + len
    };
    std::iter::once(span).collect()
}

/// `span` scored against the needle, in its best version: as aligned, or without the whitespace
/// at either edge when the needle has none there — whichever is most similar (ties: the
/// shorter). An alignment may substitute a space for a needle char at an edge at no extra cost
/// (`timeout: 3O` against `timeout: 3 # s` spans `timeout: 3 `); dropping it is then better, while
/// whitespace the needle does have, inside (`…\n  Q` against `…\n   `), stays.
fn best_version(rope: &Rope, needle: &str, span: Range<usize>) -> Option<NearMiss> {
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
            let similarity = similarity(needle, &rope.slice(start..end).to_string());
            if best.as_ref().map_or(true, |b| similarity > b.similarity) {
                best = Some(NearMiss {
                    range: start..end,
                    similarity,
                });
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
    fn of(needle: &[char], text: &[char], free_start: bool) -> AlignmentRow {
        let w = text.len();
        let mut cost: Vec<u32> = (0..=w)
            .map(|j| if free_start { 0 } else { j as u32 })
            .collect();
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
        AlignmentRow {
            cost,
            start,
            needle_len: needle.len(),
        }
    }

    /// The best alignment ending within `ends`: fewest edits, then the span whose length is
    /// closest to the needle's, then the end nearest `anchor`, then the earliest.
    // Bounds: `ends` is clamped to `w = cost.len() - 1` (`cost` has at least one slot), and
    // `start[j] ≤ j` for every j (an alignment starts at or before it ends).
    #[allow(clippy::indexing_slicing)]
    fn best(&self, ends: RangeInclusive<usize>, anchor: usize) -> Alignment {
        let w = self.cost.len() - 1;
        let ends = (*ends.start()).min(w)..=(*ends.end()).min(w);
        let key = |j: usize| {
            (
                self.cost[j],
                (j - self.start[j]).abs_diff(self.needle_len),
                j.abs_diff(anchor),
                self.start[j],
            )
        };
        let best = ends.min_by_key(|&j| key(j)).unwrap_or(w);
        Alignment {
            start: self.start[best],
            end: best,
            cost: self.cost[best],
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Describing a difference
// ---------------------------------------------------------------------------------------------

/// A short character-level account of how `found` (the document) differs from `expected`
/// (`old_text`), for a language model. Empty when they are equal.
///
/// Format, one line per differing line, wdiff style:
///
/// ```text
/// timeout:·3[-O-]{+0+}
/// ```
///
/// - `[-…-]`: only in `expected` (the agent's `old_text`); `{+…+}`: only in `found` (the
///   document); everything else is in both.
/// - Whitespace is made visible everywhere in the answer, not only in changed parts, so that the
///   model can count it: space `·`, tab `→`, newline `⏎`, carriage return `␍`; any other
///   whitespace, control or invisible format char as `<U+00A0>`. (A literal `·`, `→`, `⏎` in
///   the text is shown as is.)
/// - When either text has more than one line, lines are paired by a line diff and each
///   differing one is prefixed `line N: `, N its 1-based number in `expected`; a line only in
///   `expected` reads `line N: [-…-]`, a line only in `found` reads `after line N: {+…+}`
///   (`before line 1: ` at the top). Equal lines are not shown. A newline missing at the end
///   shows as `[-⏎-]` or `{+⏎+}`.
/// - Equal text longer than 20 chars next to a change is shortened with `…`; a changed part
///   longer than 60 chars is cut with `…`; the whole answer is at most
///   [`MAX_DESCRIPTION_CHARS`] chars, ending with `…` when cut.
///
/// Cost: a line diff of at most 500 lines per side and one char diff per differing line pair,
/// each bounded by [`MYERS_STEPS`] (a pair that differs too much to diff within it is shown as
/// replaced whole, after its common prefix and suffix); rendering stops once the answer is full.
// Bounds: the ops come from a diff over exactly `old_lines` and `new_lines`, so each op's
// ranges (and `p < min(old_len, new_len)` inside a replace) lie in them.
#[allow(clippy::indexing_slicing)]
pub fn describe_difference(expected: &str, found: &str) -> String {
    if expected == found {
        return String::new();
    }
    let old_lines: Vec<&str> = expected
        .split_inclusive('\n')
        .take(DESCRIBED_LINES)
        .collect();
    let new_lines: Vec<&str> = found.split_inclusive('\n').take(DESCRIBED_LINES).collect();
    let mut out = Description::default();
    if old_lines.len() <= 1 && new_lines.len() <= 1 {
        out.push_line("", &wdiff_line(expected, found));
        return out.finish();
    }
    let line_ops = bounded_myers(&old_lines, &new_lines).unwrap_or_else(|| {
        vec![DiffOp::Replace {
            old_index: 0,
            old_len: old_lines.len(),
            new_index: 0,
            new_len: new_lines.len(),
        }]
    });
    for op in line_ops {
        if out.full() {
            break;
        }
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete {
                old_index, old_len, ..
            } => {
                for (n, line) in old_lines.iter().enumerate().skip(old_index).take(old_len) {
                    out.push_line(&format!("line {}: ", n + 1), &wdiff_line(line, ""));
                }
            }
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => {
                for line in &new_lines[new_index..new_index + new_len] {
                    out.push_line(&inserted_label(old_index), &wdiff_line("", line));
                }
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let paired = old_len.min(new_len);
                for p in 0..paired {
                    let (old, new) = (old_lines[old_index + p], new_lines[new_index + p]);
                    // A newline both lines end with is structure, not a difference.
                    let (old, new) = match (old.strip_suffix('\n'), new.strip_suffix('\n')) {
                        (Some(o), Some(n)) => (o, n),
                        _ => (old, new),
                    };
                    out.push_line(
                        &format!("line {}: ", old_index + p + 1),
                        &wdiff_line(old, new),
                    );
                }
                let unpaired = old_lines.iter().enumerate().skip(old_index + paired);
                for (n, line) in unpaired.take(old_len - paired) {
                    out.push_line(&format!("line {}: ", n + 1), &wdiff_line(line, ""));
                }
                for line in &new_lines[new_index + paired..new_index + new_len] {
                    out.push_line(&inserted_label(old_index + old_len), &wdiff_line("", line));
                }
            }
        }
    }
    if out.text.is_empty() {
        // The texts differ only past the lines looked at.
        out.push_line("", &format!("(differences after line {DESCRIBED_LINES})"));
    }
    out.finish()
}

fn inserted_label(before_old_index: usize) -> String {
    if before_old_index == 0 {
        "before line 1: ".to_string()
    } else {
        format!("after line {before_old_index}: ")
    }
}

/// The answer of [`describe_difference`] under construction, capped in chars.
#[derive(Default)]
struct Description {
    text: String,
    chars: usize,
}

impl Description {
    fn full(&self) -> bool {
        self.chars > MAX_DESCRIPTION_CHARS
    }

    fn push_line(&mut self, label: &str, body: &str) {
        if self.full() {
            return;
        }
        if !self.text.is_empty() {
            self.text.push('\n');
            self.chars += 1;
        }
        for part in [label, body] {
            for c in part.chars() {
                self.text.push(c);
                self.chars += 1;
                if self.full() {
                    return;
                }
            }
        }
    }

    fn finish(self) -> String {
        if self.chars <= MAX_DESCRIPTION_CHARS {
            return self.text;
        }
        let mut cut: String = self.text.chars().take(MAX_DESCRIPTION_CHARS - 1).collect();
        cut.push('…');
        cut
    }
}

/// One piece of a rendered line diff.
enum Piece {
    Same(Vec<char>),
    Changed { old: Vec<char>, new: Vec<char> },
}

/// `expected` → `found` as one wdiff line (see [`describe_difference`]).
// Bounds: `prefix` ≤ both lengths and `suffix` counts only after it; the ops come from a diff
// over exactly the two middles.
#[allow(clippy::indexing_slicing)]
fn wdiff_line(expected: &str, found: &str) -> String {
    let old: Vec<char> = expected.chars().collect();
    let new: Vec<char> = found.chars().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_middle, new_middle) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut pieces: Vec<Piece> = Vec::new();
    if prefix > 0 {
        pieces.push(Piece::Same(old[..prefix].to_vec()));
    }
    match bounded_myers(old_middle, new_middle) {
        Some(ops) => {
            for op in ops {
                let piece = match op {
                    DiffOp::Equal { old_index, len, .. } => {
                        Piece::Same(old_middle[old_index..old_index + len].to_vec())
                    }
                    DiffOp::Delete {
                        old_index, old_len, ..
                    } => Piece::Changed {
                        old: old_middle[old_index..old_index + old_len].to_vec(),
                        new: Vec::new(),
                    },
                    DiffOp::Insert {
                        new_index, new_len, ..
                    } => Piece::Changed {
                        old: Vec::new(),
                        new: new_middle[new_index..new_index + new_len].to_vec(),
                    },
                    DiffOp::Replace {
                        old_index,
                        old_len,
                        new_index,
                        new_len,
                    } => Piece::Changed {
                        old: old_middle[old_index..old_index + old_len].to_vec(),
                        new: new_middle[new_index..new_index + new_len].to_vec(),
                    },
                };
                push_merged(&mut pieces, piece);
            }
        }
        None => push_merged(
            &mut pieces,
            Piece::Changed {
                old: old_middle.to_vec(),
                new: new_middle.to_vec(),
            },
        ),
    }
    if suffix > 0 {
        pieces.push(Piece::Same(old[old.len() - suffix..].to_vec()));
    }
    render_pieces(&pieces)
}

/// Appends `piece`, merging adjacent changes, and folding an equal run of at most two chars
/// between two changes into them (`a[-b-]{+x+}c[-d-]{+y+}` reads better as `a[-bcd-]{+xcy+}`).
fn push_merged(pieces: &mut Vec<Piece>, piece: Piece) {
    match piece {
        Piece::Same(same) => pieces.push(Piece::Same(same)),
        Piece::Changed { mut old, mut new } => {
            let short_same_between = matches!(
                pieces.as_slice(),
                [.., Piece::Changed { .. }, Piece::Same(s)] if s.len() <= 2
            );
            if short_same_between {
                if let Some(Piece::Same(s)) = pieces.pop() {
                    old.splice(0..0, s.iter().copied());
                    new.splice(0..0, s);
                }
            }
            if let Some(Piece::Changed {
                old: prev_old,
                new: prev_new,
            }) = pieces.last_mut()
            {
                prev_old.extend(old);
                prev_new.extend(new);
            } else {
                pieces.push(Piece::Changed { old, new });
            }
        }
    }
}

// Bounds: the cuts at CONTEXT_CHARS are taken only when `n` > CONTEXT_CHARS (the first
// branch took the shorter ones); `text.len().min(…)` bounds the changed text.
#[allow(clippy::indexing_slicing)]
fn render_pieces(pieces: &[Piece]) -> String {
    let mut out = String::new();
    let last = pieces.len().saturating_sub(1);
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Same(same) => {
                let n = same.len();
                let (first, is_last) = (i == 0, i == last);
                if first && is_last
                    || n <= CONTEXT_CHARS
                    || (!first && !is_last && n <= 2 * CONTEXT_CHARS)
                {
                    push_visible(&mut out, same);
                } else if first {
                    out.push('…');
                    push_visible(&mut out, &same[n - CONTEXT_CHARS..]);
                } else if is_last {
                    push_visible(&mut out, &same[..CONTEXT_CHARS]);
                    out.push('…');
                } else {
                    push_visible(&mut out, &same[..CONTEXT_CHARS]);
                    out.push('…');
                    push_visible(&mut out, &same[n - CONTEXT_CHARS..]);
                }
            }
            Piece::Changed { old, new } => {
                for (text, open, close) in [(old, "[-", "-]"), (new, "{+", "+}")] {
                    if text.is_empty() {
                        continue;
                    }
                    out.push_str(open);
                    push_visible(&mut out, &text[..text.len().min(CHANGED_CHARS)]);
                    if text.len() > CHANGED_CHARS {
                        out.push('…');
                    }
                    out.push_str(close);
                }
            }
        }
    }
    out
}

/// `chars` with whitespace and invisible chars made visible (see [`describe_difference`]).
fn push_visible(out: &mut String, chars: &[char]) {
    for &c in chars {
        match c {
            ' ' => out.push('·'),
            '\t' => out.push('→'),
            '\n' => out.push('⏎'),
            '\r' => out.push('␍'),
            c if c.is_whitespace() || c.is_control() || is_invisible_format(c) => {
                out.push_str(&format!("<U+{:04X}>", c as u32));
            }
            c => out.push(c),
        }
    }
}

/// Zero-width and direction-format chars that render as nothing.
fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{FEFF}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(rope: &Rope, found: &[NearMiss]) -> Vec<String> {
        found
            .iter()
            .map(|n| rope.slice(n.range.clone()).to_string())
            .collect()
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
        assert_eq!(
            texts(&rope, &found)[0],
            "fn f120() {\n    let x = 120;\n    x + 1\n}"
        );
        assert!(found[0].similarity > 0.9);
    }

    #[test]
    fn every_line_with_a_typo_is_still_found_by_trigrams() {
        let doc = "alpha beta gamma\ndelta epsilon zeta\neta theta iota\nkappa lambda mu\nnu xi\n";
        let rope = Rope::from_str(doc);
        let found = near_misses(&rope, "delta epsilom zeta\neta thets iota", 0, 1);
        assert_eq!(
            texts(&rope, &found),
            vec!["delta epsilon zeta\neta theta iota"]
        );
    }

    #[test]
    fn an_inserted_line_is_inside_the_range() {
        let doc = "a0 = 0\nfirst line here\nsecond line here\nEXTRA\nthird line here\nz = 9\n";
        let rope = Rope::from_str(doc);
        let found = near_misses(
            &rope,
            "first line here\nsecond line here\nthird line here",
            0,
            1,
        );
        assert_eq!(
            texts(&rope, &found),
            vec!["first line here\nsecond line here\nEXTRA\nthird line here"]
        );
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
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        for round in 0..300 {
            let alphabet = 2 + next(5);
            let a: Vec<u8> = (0..next(200)).map(|_| next(alphabet) as u8).collect();
            let b: Vec<u8> = (0..next(200)).map(|_| next(alphabet) as u8).collect();
            let myers: usize = myers_replace_ops(&a, &b)
                .iter()
                .map(|op| {
                    if let DiffOp::Equal { len, .. } = op {
                        *len
                    } else {
                        0
                    }
                })
                .sum();
            assert_eq!(lcs_len(&a, &b), myers, "round {round}: {a:?} {b:?}");
            assert_eq!(lcs_len(&b, &a), myers);
        }
        assert_eq!(lcs_len::<char>(&[], &['a']), 0);
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
        let rex: Vec<usize> = found
            .iter()
            .filter(|n| rope.slice(n.range.clone()) == "color = rex")
            .map(|n| n.range.start)
            .collect();
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
        assert!(near_misses(&rope, "\n", 0, 3)
            .iter()
            .all(|n| n.range.end <= rope.len_chars()));
        assert!(near_misses(&rope, "\n\n\n\n\n\n\n\n", 0, 3)
            .iter()
            .all(|n| n.range.end <= rope.len_chars()));
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
        let body: String = (0..120)
            .map(|i| format!("    statement_{i}(argument, {i});\n"))
            .collect();
        let doc = format!("prefix();\nfn big() {{\n{body}}}\nsuffix();\n");
        let rope = Rope::from_str(&doc);
        let needle = format!(
            "fn big() {{\n{}}}",
            body.replace("statement_60(", "statement_6O(")
        );
        assert!(needle.chars().count() * needle.chars().count() > ALIGN_CELL_LIMIT);
        let found = near_misses(&rope, &needle, 0, 1);
        assert_eq!(texts(&rope, &found), vec![format!("fn big() {{\n{body}}}")]);
        assert!(found[0].similarity > 0.99);
    }

    #[test]
    fn alignment_prefers_substitution_at_the_edges() {
        let text: Vec<char> = "  api.timeout: 30  # s".chars().collect();
        let needle: Vec<char> = "timeout: 3O".chars().collect();
        let align = |needle: &[char],
                     text: &[char],
                     free_start: bool,
                     ends: RangeInclusive<usize>,
                     anchor: usize| {
            AlignmentRow::of(needle, text, free_start).best(ends, anchor)
        };
        assert_eq!(
            align(&needle, &text, true, 0..=text.len(), 0),
            Alignment {
                start: 6,
                end: 17,
                cost: 1
            }
        );
        // Equally good regions: the one ending nearest the anchor.
        let two: Vec<char> = "retries: 4\nretries: 5".chars().collect();
        let needle_r: Vec<char> = "retries: 3".chars().collect();
        assert_eq!(
            align(&needle_r, &two, true, 0..=two.len(), 0),
            Alignment {
                start: 0,
                end: 10,
                cost: 1
            }
        );
        assert_eq!(
            align(&needle_r, &two, true, 0..=two.len(), 20),
            Alignment {
                start: 11,
                end: 21,
                cost: 1
            }
        );
        assert_eq!(
            align(&needle_r, &two, true, 15..=two.len(), 0),
            Alignment {
                start: 11,
                end: 21,
                cost: 1
            }
        );
        // The best ending near the first line, although the second is better.
        let better: Vec<char> = "retries: 4\nretries: 3!".chars().collect();
        assert_eq!(
            align(&needle_r, &better, true, 0..=better.len(), 0),
            Alignment {
                start: 11,
                end: 21,
                cost: 0
            }
        );
        assert_eq!(
            align(&needle_r, &better, true, 5..=12, 10),
            Alignment {
                start: 0,
                end: 10,
                cost: 1
            }
        );
        let anchored: Vec<char> = "timeout: 30".chars().collect();
        assert_eq!(
            align(&needle, &anchored, false, 11..=11, 0),
            Alignment {
                start: 0,
                end: 11,
                cost: 1
            }
        );
    }

    #[test]
    fn lines_equal_but_for_whitespace_hash_alike() {
        assert_eq!(
            normalized_line_hash("    let x = 1;"),
            normalized_line_hash("let x  =\t1;")
        );
        assert_ne!(
            normalized_line_hash("let x = 1;"),
            normalized_line_hash("let x = 2;")
        );
        assert_eq!(normalized_line_hash(" \t "), None);
        assert_eq!(normalized_line_hash(""), None);
    }

    #[test]
    fn short_needles_fall_back_to_bigrams() {
        // `vaQue` shares no trigram with `value`, but two bigrams.
        let rope = Rope::from_str("alpha\nvalue\nomega\n");
        let found = near_misses(&rope, "vaQue", 0, 1);
        assert_eq!(texts(&rope, &found), vec!["value"]);
        assert_eq!(Grams::of("vaQue").len, 2);
        assert_eq!(Grams::of("a longer needle").len, 3);
    }

    #[test]
    fn quality_is_truncated_to_two_decimals() {
        let q = |similarity| {
            NearMiss {
                range: 0..1,
                similarity,
            }
            .quality()
            .to_string()
        };
        assert_eq!(q(0.929), "similar:0.92");
        assert_eq!(q(0.29), "similar:0.29");
        assert_eq!(q(0.99999), "similar:0.99");
        assert_eq!(q(1.0), "similar:1.00");
        assert_eq!(q(0.0), "similar:0.00");
    }

    #[test]
    fn describe_one_line() {
        assert_eq!(
            describe_difference("timeout: 3O", "timeout: 30"),
            "timeout:·3[-O-]{+0+}"
        );
        assert_eq!(describe_difference("a\tb", "a  b"), "a[-→-]{+··+}b");
        assert_eq!(describe_difference("x = 1\n", "x = 1"), "x·=·1[-⏎-]");
        assert_eq!(describe_difference("same", "same"), "");
        assert_eq!(
            describe_difference("a\u{a0}b", "a b"),
            "a[-<U+00A0>-]{+·+}b"
        );
    }

    #[test]
    fn describe_many_lines() {
        let expected = "[server]\n  timeout: 3O\n  retries: 3\nend";
        let found = "[server]\n  timeout: 30\n  backoff: 2\n  retries: 3\n";
        assert_eq!(
            describe_difference(expected, found),
            concat!(
                "line 2: ··timeout:·3[-O-]{+0+}\n",
                "after line 2: {+··backoff:·2⏎+}\n",
                "line 4: [-end-]"
            )
        );
        assert_eq!(describe_difference("a\nb\n", "b\n"), "line 1: [-a⏎-]");
        assert_eq!(
            describe_difference("b\n", "a\nb\n"),
            "before line 1: {+a⏎+}"
        );
    }

    #[test]
    fn describe_shortens_long_equal_runs_and_caps_the_answer() {
        let long = "abcdefghijklmnopqrstuvwxyz0123456789";
        assert_eq!(
            describe_difference(&format!("{long}X{long}"), &format!("{long}Y{long}")),
            "…qrstuvwxyz0123456789[-X-]{+Y+}abcdefghijklmnopqrst…"
        );
        let many_old: String = (0..100).map(|i| format!("value_{i} = {i}\n")).collect();
        let many_new = many_old.replace(" = ", " := ");
        let d = describe_difference(&many_old, &many_new);
        assert_eq!(d.chars().count(), MAX_DESCRIPTION_CHARS);
        assert!(d.ends_with('…'));
        assert!(
            d.starts_with("line 1: value_0·{+:+}=·0\nline 2: value_1·{+:+}=·1\n"),
            "{d}"
        );
    }
}
