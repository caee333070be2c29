//! The exact tier (docs/architecture.md#matching): `memchr::memmem` over the rope's chunks — no copy of the
//! document, no O(n·m) scan — with `search_after` anchoring.

use memchr::memmem::Finder;
use ropey::Rope;

use super::Match;
use crate::changeset::{Assoc, ChangeSet};
use crate::text::Text;

/// The rope is searched in blocks of about this many bytes, copied from its chunks: memmem runs
/// near its flat-string speed on blocks this size, while per-chunk searches (ropey's chunks are
/// about 1 KB) spend more time starting than scanning.
const BLOCK_BYTES: usize = 64 * 1024;

/// Byte offsets of every non-overlapping occurrence of `needle` in `rope`, left to right — the
/// same set `str::match_indices` gives on the flattened text. `needle` must not be empty.
///
/// Cost: O(n + m) with memchr's SIMD search, plus one copy of the text through a reused
/// 64 KB buffer. Consecutive blocks overlap by `m-1` bytes, so a match across a block boundary
/// is found in the later block; `allowed` keeps the greedy left-to-right order of a flat search.
pub fn find_bytes(rope: &Rope, needle: &str) -> Vec<usize> {
    let mut hits = Vec::new();
    scan(rope, needle, |block_at, at| hits.push(block_at + at));
    hits
}

/// Char offsets of the same occurrences as [`find_bytes`]. In an ASCII document they are the
/// byte offsets. Otherwise a few hits are converted with the
/// rope's index (O(log n) each); many are converted in one left-to-right sweep over the chunks
/// (`str::chars().count()`, counted a word at a time), which beats a tree walk plus a chunk scan
/// per hit once hits are dense. Cost: O(n + m).
pub fn find_chars(rope: &Rope, needle: &str) -> Vec<usize> {
    /// Below this many hits per 1,000 chunks, per-hit lookups are cheaper than a sweep.
    const SWEEP_HITS_PER_1000_CHUNKS: usize = 100;
    let bytes = find_bytes(rope, needle);
    if rope.len_bytes() == rope.len_chars() {
        return bytes; // ASCII only (ropey keeps both counts): a byte offset is a char offset
    }
    let chunks_estimate = rope.len_bytes() / 1000 + 1;
    if bytes.len() * 1000 < SWEEP_HITS_PER_1000_CHUNKS * chunks_estimate {
        return bytes.into_iter().map(|b| rope.byte_to_char(b)).collect();
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut hits = bytes.into_iter().peekable();
    let (mut chunk_byte, mut chunk_char) = (0usize, 0usize);
    for chunk in rope.chunks() {
        let end = chunk_byte + chunk.len();
        // Hits in this chunk: count from the previous one (or the chunk start) to each.
        let (mut at, mut chars) = (0usize, chunk_char);
        while let Some(&b) = hits.peek().filter(|&&b| b < end) {
            let off = b - chunk_byte;
            chars += chunk.get(at..off).map_or(0, |s| s.chars().count());
            out.push(chars);
            at = off;
            hits.next();
        }
        if hits.peek().is_none() {
            break;
        }
        chunk_char += chunk.chars().count();
        chunk_byte = end;
    }
    out
}

/// The block search behind [`find_bytes`]: `on_hit(block_at, at)` for each match at byte
/// `block_at + at`, left to right.
fn scan(rope: &Rope, needle: &str, mut on_hit: impl FnMut(usize, usize)) {
    let needle = needle.as_bytes();
    let m = needle.len();
    if m == 0 {
        return;
    }
    let finder = Finder::new(needle);
    // Earliest byte a new match may start at (matches never overlap).
    let mut allowed = 0usize;
    // A block holds at least two needles, so each search consumes at least half of it (O(n)
    // overall even for needles longer than a block).
    let block_bytes = BLOCK_BYTES.max(2 * m);
    let mut block: Vec<u8> = Vec::with_capacity(block_bytes + 1024);
    // Offset of block[0] in the whole text.
    let mut block_at = 0usize;
    let mut search = |block: &[u8], block_at: usize| {
        let from = allowed.saturating_sub(block_at).min(block.len());
        for at in finder.find_iter(block.get(from..).unwrap_or_default()) {
            on_hit(block_at, from + at);
            allowed = block_at + from + at + m;
        }
    };
    for chunk in rope.chunks() {
        block.extend_from_slice(chunk.as_bytes());
        if block.len() >= block_bytes {
            search(&block, block_at);
            // Keep the last m-1 bytes: a match starting there ends in the next block.
            let keep = (m - 1).min(block.len());
            let cut = block.len() - keep;
            block.drain(..cut);
            block_at += cut;
        }
    }
    search(&block, block_at);
}

/// Every exact, non-overlapping occurrence of `needle` that starts at or after char `from`, as
/// char ranges in document order. Cost: O(n + m).
pub fn find_exact(rope: &Rope, needle: &str, from: usize) -> Vec<Match> {
    exact_matches(find_chars(rope, needle), needle, from)
}

/// Char starts → exact matches of `needle` that start at or after `from`.
fn exact_matches(starts: Vec<usize>, needle: &str, from: usize) -> Vec<Match> {
    let needle_chars = needle.chars().count();
    starts.into_iter().filter(|&c| c >= from).map(|start| Match::exact(start..start + needle_chars)).collect()
}

/// A draft seen as layers: its base text and the pending replacements on top (`draft` is
/// `changes` applied to `base`). The exact search scans the base's flat copy ([`Text::flat`],
/// built once per base and kept across the session) and only the draft around each
/// replacement, instead of copying the whole draft out of its rope on every call.
#[derive(Clone, Copy)]
pub struct Layered<'a> {
    pub base: &'a Text,
    pub changes: &'a ChangeSet,
    pub draft: &'a Rope,
}

/// Char offsets in the draft of every non-overlapping occurrence of `needle` — the same set
/// `str::match_indices` gives on the flattened draft. Occurrences are of two kinds, found
/// separately and then taken greedily left to right: those inside unchanged base text (found in
/// the base, mapped through the changes) and those overlapping a replacement (found in a window
/// of `m-1` chars around it). Cost: O(n + m) the first time a base is searched (the flat copy),
/// then O(n) memmem over the flat base plus O(k·m + size of the replacements) — no copy.
pub fn find_chars_layered(layers: &Layered<'_>, needle: &str) -> Vec<usize> {
    if needle.is_empty() {
        return Vec::new();
    }
    let finder = Finder::new(needle.as_bytes());
    let m = needle.chars().count();
    let reps = layers.changes.replacements();
    let flat = layers.base.flat();
    // (1) Occurrences in the base, overlapping ones included, whose inside no replacement
    // touches: a replacement [a, b) spoils [s, s+m) when it overlaps it, an insertion at p
    // when s < p < s+m.
    let base_hits = base_char_offsets(layers.base, flat, all_occurrences(flat.as_bytes(), &finder).into_iter());
    let mut hits = Vec::with_capacity(base_hits.len());
    let mut r = 0; // first replacement that may still spoil a hit (hits are sorted)
    for s in base_hits {
        let e = s + m;
        while reps.get(r).is_some_and(|x| x.range.end <= s && !(x.range.is_empty() && x.range.start > s)) {
            r += 1;
        }
        let spoiled = reps.get(r..).unwrap_or_default().iter().take_while(|x| x.range.start < e).any(|x| {
            if x.range.is_empty() {
                s < x.range.start && x.range.start < e
            } else {
                x.range.start < e && x.range.end > s
            }
        });
        if !spoiled {
            hits.push(layers.changes.map_pos(s, Assoc::After));
        }
    }
    let base_count = hits.len();
    // (2) Occurrences overlapping a replacement's text in the draft (or spanning the point
    // where one deleted text).
    let draft_len = layers.draft.len_chars();
    for d in layers.changes.draft_ranges() {
        let from = d.start.saturating_sub(m - 1);
        let to = (d.end + m - 1).min(draft_len);
        let window = layers.draft.slice(from..to).to_string();
        let mut chars_before = 0;
        let mut last_byte = 0;
        for b in all_occurrences(window.as_bytes(), &finder) {
            // Match starts are char boundaries (the needle is UTF-8).
            chars_before += window.get(last_byte..b).map_or(0, |t| t.chars().count());
            last_byte = b;
            let h = from + chars_before;
            let overlaps = if d.is_empty() { h < d.start && h + m > d.start } else { h < d.end && h + m > d.start };
            if overlaps {
                hits.push(h);
            }
        }
    }
    // The base's hits are ascending (`map_pos` keeps order): only hits near replacements need
    // sorting in.
    if hits.len() > base_count {
        hits.sort_unstable();
        hits.dedup();
    }
    // Greedy, left to right, non-overlapping: `match_indices`'s rule — in place, since a million
    // hits (a one-space needle in a page of blanks) made each extra copy cost page faults.
    let mut allowed = 0;
    hits.retain(|&h| {
        let keep = h >= allowed;
        if keep {
            allowed = h + m;
        }
        keep
    });
    hits
}

/// [`find_exact`] on a layered draft: the same matches, found by [`find_chars_layered`].
pub fn find_exact_layered(layers: &Layered<'_>, needle: &str, from: usize) -> Vec<Match> {
    exact_matches(find_chars_layered(layers, needle), needle, from)
}

/// Byte offsets of every occurrence of the finder's needle in `hay`, overlapping ones included.
/// A needle that can overlap itself (it has a border: `aa…a`, `}\n}`) may occur at every
/// position, and restarting memmem after each hit would cost O(n·m); such needles are found by
/// KMP in O(n + m). A needle without a border never overlaps itself: memmem, O(n + m) too.
fn all_occurrences(hay: &[u8], finder: &Finder<'_>) -> Vec<usize> {
    let needle = finder.needle();
    if super::kmp::failure(needle).last().is_some_and(|&border| border > 0) {
        return super::kmp::find_all_bytes(hay, needle);
    }
    let mut at = 0;
    std::iter::from_fn(move || {
        let hit = at + finder.find(hay.get(at..)?)?;
        at = hit + 1;
        Some(hit)
    })
    .collect()
}

/// Base byte offsets (ascending) as char offsets: free for ASCII, a rope lookup each for a
/// few, one counting sweep over `flat` for many.
fn base_char_offsets(base: &Text, flat: &str, bytes: impl Iterator<Item = usize>) -> Vec<usize> {
    let rope = base.rope();
    if rope.len_bytes() == rope.len_chars() {
        return bytes.collect();
    }
    let bytes: Vec<usize> = bytes.collect();
    if bytes.len() * 1000 < 100 * (rope.len_bytes() / 1000 + 1) {
        return bytes.into_iter().map(|b| rope.byte_to_char(b)).collect();
    }
    let (mut at, mut chars) = (0, 0);
    bytes
        .into_iter()
        .map(|b| {
            chars += flat.get(at..b).map_or(0, |t| t.chars().count());
            at = b;
            chars
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain model: `str::match_indices` on the flattened text.
    fn model(hay: &str, needle: &str) -> Vec<usize> {
        hay.match_indices(needle).map(|(i, _)| i).collect()
    }

    #[test]
    fn finds_matches_across_chunk_boundaries() {
        // Big enough for many ropey chunks; the needle lands on every boundary eventually.
        let unit = "alpha timeout: 30\nbeta 中文 timeout: 30 gamma\n";
        let hay = unit.repeat(6000);
        let rope = Rope::from_str(&hay);
        assert!(hay.len() > 4 * BLOCK_BYTES, "several blocks, so block seams are crossed");
        for needle in ["timeout: 30", "30\nbeta", "a", "中文 t", "\n", &unit[3..40]] {
            assert_eq!(find_bytes(&rope, needle), model(&hay, needle), "needle {needle:?}");
        }
    }

    #[test]
    fn char_offsets_agree_with_the_rope_across_blocks() {
        let unit = "😀 x = 1 中文\nplain x = 1\n";
        let hay = unit.repeat(9000);
        let rope = Rope::from_str(&hay);
        assert!(hay.len() > 4 * BLOCK_BYTES);
        for needle in ["x = 1", "文\np", "😀", "1 中文\nplain x = 1\n😀"] {
            let want: Vec<usize> = find_bytes(&rope, needle).into_iter().map(|b| rope.byte_to_char(b)).collect();
            assert_eq!(find_chars(&rope, needle), want, "{needle:?}");
        }
        let ascii = Rope::from_str(&"plain x = 1\n".repeat(30_000));
        let want: Vec<usize> = find_bytes(&ascii, "x = 1").into_iter().map(|b| ascii.byte_to_char(b)).collect();
        assert_eq!(find_chars(&ascii, "x = 1"), want);
    }

    #[test]
    fn needles_longer_than_a_block() {
        let hay: String = (0..300_000).map(|i| char::from(b'a' + (i % 11) as u8)).collect();
        let rope = Rope::from_str(&hay);
        let needle = &hay[1_000..101_000];
        assert_eq!(find_bytes(&rope, needle), model(&hay, needle));
        let mut other = hay.clone();
        other.replace_range(150_000..150_001, "z");
        assert_eq!(find_bytes(&Rope::from_str(&other), needle), model(&other, needle));
    }

    #[test]
    fn needles_longer_than_a_chunk() {
        let hay: String = (0..4000).map(|i| char::from(b'a' + (i % 7) as u8)).collect();
        let rope = Rope::from_str(&hay);
        let needle = &hay[1000..3500];
        assert_eq!(find_bytes(&rope, needle), model(&hay, needle));
    }

    #[test]
    fn overlapping_candidates_are_not_reported_twice() {
        let rope = Rope::from_str("aaaa");
        assert_eq!(find_bytes(&rope, "aa"), vec![0, 2]);
    }

    #[test]
    fn char_ranges_after_multibyte_text() {
        let rope = Rope::from_str("😀 x = 1\n中 x = 1\n");
        let hits = find_exact(&rope, "x = 1", 0);
        assert_eq!(hits.iter().map(|m| m.range.clone()).collect::<Vec<_>>(), vec![2..7, 10..15]);
    }

    #[test]
    fn from_skips_matches_that_start_earlier() {
        let rope = Rope::from_str("a=1\n[b]\na=1\n[c]\na=1\n");
        let starts: Vec<usize> = find_exact(&rope, "a=1", 9).iter().map(|m| m.range.start).collect();
        assert_eq!(starts, vec![16]);
        assert_eq!(find_exact(&rope, "a=1", 8).len(), 2);
    }

    #[test]
    fn self_overlapping_needles_are_found_in_linear_time_with_overlaps() {
        // Every position of `aaaa` holds `aa`: KMP, not memmem restarted after each hit.
        for (hay, needle) in [("aaaaaa", "aa"), ("abababab", "abab"), ("}\n}\n}\n", "}\n}"), ("xyz", "xyzx")] {
            let finder = Finder::new(needle.as_bytes());
            let want: Vec<usize> = (0..=hay.len().saturating_sub(needle.len())).filter(|&i| hay[i..].starts_with(needle)).collect();
            assert_eq!(all_occurrences(hay.as_bytes(), &finder), want, "{hay:?} {needle:?}");
        }
        // A 40 KB periodic needle against 40 KB of the same: ~40 K overlapping hits, found in
        // one pass (the fuzzer's slow unit took 1.4 s here with memmem restarts).
        let hay = "a".repeat(40_000);
        let finder = Finder::new(&hay.as_bytes()[..20_000]);
        assert_eq!(all_occurrences(hay.as_bytes(), &finder).len(), 20_001);
    }

    #[test]
    fn empty_needle_finds_nothing() {
        assert!(find_bytes(&Rope::from_str("abc"), "").is_empty());
    }
}
