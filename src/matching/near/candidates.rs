//! Candidate generation (see the module doc of `near`): one linear pass over the document
//! that finds the windows worth aligning — peaks of the needle's q-grams, and for a needle of
//! several lines, starts voted for by lines equal to one of its lines but for whitespace.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::ops::{Range, RangeInclusive};

use ropey::Rope;

use crate::matching::work::Budget;

/// A stretch of the document worth aligning against the needle.
#[derive(Clone, Debug)]
pub(super) struct Window {
    /// Char range in the rope.
    pub(super) range: Range<usize>,
    /// Chars from `range.start` within which the needle's first char is expected (used only when
    /// the window is too large to align whole).
    pub(super) head: usize,
    /// Chars before `range.end` within which the needle's last char is expected (idem).
    pub(super) tail: usize,
    /// Where, from `range.start`, the needle is expected to end: among equally good alignments
    /// the one ending nearest wins.
    pub(super) anchor: usize,
    /// Where (from `range.start`) the region this window was found for ends. The window is
    /// aligned twice: its best region anywhere, and its best region ending here — so a window
    /// that also holds a better neighbour (two similar lines in a row) still yields its own.
    pub(super) near_ends: RangeInclusive<usize>,
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
        let grams = || text.split('\n').flat_map(move |line| line.as_bytes().windows(len));
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
        TopScores { heap: BinaryHeap::with_capacity(capacity + 1), capacity }
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
        let mut kept: Vec<(u32, usize, usize)> = self.heap.into_iter().map(|Reverse((s, Reverse(p), x))| (s, p, x)).collect();
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
    let hash = line.bytes().filter(|&b| !is_blank(b)).fold(0u64, line_hash_step);
    (hash != 0).then(|| line_hash_finish(hash))
}

/// The windows worth aligning (see the module doc), at most `wanted` from each source:
/// - the peaks of hits in needle-wide windows, widened by half the needle on each side;
/// - for a needle of several lines, window starts voted for by lines equal but for whitespace
///   to a needle line, the best per block of `k` lines (k = the needle's line count), widened
///   by a line on each side.
pub(super) fn candidate_windows(
    rope: &Rope,
    from: usize,
    needle: &str,
    needle_len: usize,
    wanted: usize,
    budget: &mut Budget,
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
    let scan = if keys.is_empty() { scan::<false> } else { scan::<true> };
    let Scan { dense_ends, votes } = scan(rope, from_byte, &grams, needle, &keys, wanted, budget);
    if budget.exhausted() {
        // The pass stopped at the budget: its peaks and votes are partial, and unused.
        return Vec::new();
    }

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
    // The best start per block of k lines: most votes, the earliest on a tie. (Most lines have
    // no vote: a block's maximum is found first, its position only when it has votes.)
    for (b, block) in votes.chunks(k).enumerate() {
        let best = block.iter().copied().max().unwrap_or(0);
        if best > 0 {
            let at = block.iter().position(|&v| v == best).unwrap_or(0);
            by_votes.offer(u32::from(best), b * k + at, 0);
        }
    }
    let voted: Vec<usize> = by_votes.into_best().into_iter().map(|(s, _)| s).collect();
    // Lines s-1 ..= s+k of each voted start, found with one memchr pass.
    let mut needed: Vec<usize> = Vec::with_capacity(voted.len() * 5);
    for &s in &voted {
        needed.extend([s.saturating_sub(1), s + 1, (s + k).saturating_sub(1), s + k, s + k + 1].map(|l| l.min(line_count)));
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
        windows.push(Window { range: start..end, head, tail, anchor, near_ends });
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
    budget: &mut Budget,
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
        // The budget (matching::work): a few units a byte, what the pass costs; past it the
        // pass stops and the search says so.
        budget.charge(3 * bytes.len() as u64);
        if budget.exhausted() {
            break;
        }
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
                let leaving = if leaving == 0 { no_gram } else { usize::from(leaving) };
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
    Scan { dense_ends: peaks.into_best().into_iter().map(|(end, _)| end).collect(), votes }
}

/// Byte offset of each wanted line of the text that starts at `from_byte` (line 0 starts there;
/// line `line_count` means the end of the rope). Cost: one memchr pass up to the last wanted line.
fn line_offsets(rope: &Rope, from_byte: usize, line_count: usize, mut wanted: Vec<usize>) -> HashMap<usize, usize> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::near::{near_misses, NearMiss};

    fn texts(rope: &Rope, found: &[NearMiss]) -> Vec<String> {
        found.iter().map(|n| rope.slice(n.range.clone()).to_string()).collect()
    }

    #[test]
    fn lines_equal_but_for_whitespace_hash_alike() {
        assert_eq!(normalized_line_hash("    let x = 1;"), normalized_line_hash("let x  =\t1;"));
        assert_ne!(normalized_line_hash("let x = 1;"), normalized_line_hash("let x = 2;"));
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
}
