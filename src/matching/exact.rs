//! The exact tier (DESIGN §4.2): `memchr::memmem` over the rope's chunks — no copy of the
//! document, no O(n·m) scan — with `search_after` anchoring.

use memchr::memmem::Finder;
use ropey::Rope;

use super::Match;

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
    let needle = needle.as_bytes();
    let m = needle.len();
    if m == 0 {
        return Vec::new();
    }
    let finder = Finder::new(needle);
    let mut hits = Vec::new();
    // Earliest byte a new match may start at (matches never overlap).
    let mut allowed = 0usize;
    // A block holds at least two needles, so each search consumes at least half of it (O(n)
    // overall even for needles longer than a block).
    let block_bytes = BLOCK_BYTES.max(2 * m);
    let mut block: Vec<u8> = Vec::with_capacity(block_bytes + 1024);
    // Offset of block[0] in the whole text.
    let mut block_at = 0usize;
    let mut search = |block: &[u8], block_at: usize, hits: &mut Vec<usize>| {
        let from = allowed.saturating_sub(block_at).min(block.len());
        for at in finder.find_iter(&block[from..]) {
            hits.push(block_at + from + at);
            allowed = block_at + from + at + m;
        }
    };
    for chunk in rope.chunks() {
        block.extend_from_slice(chunk.as_bytes());
        if block.len() >= block_bytes {
            search(&block, block_at, &mut hits);
            // Keep the last m-1 bytes: a match starting there ends in the next block.
            let keep = (m - 1).min(block.len());
            let cut = block.len() - keep;
            block.drain(..cut);
            block_at += cut;
        }
    }
    search(&block, block_at, &mut hits);
    hits
}

/// Every exact, non-overlapping occurrence of `needle` that starts at or after char `from`, as
/// char ranges in document order. Cost: O(n + m + k log n) for k matches.
pub fn find_exact(rope: &Rope, needle: &str, from: usize) -> Vec<Match> {
    let needle_chars = needle.chars().count();
    let from_byte = rope.char_to_byte(from.min(rope.len_chars()));
    find_bytes(rope, needle)
        .into_iter()
        .filter(|&b| b >= from_byte)
        .map(|b| {
            let start = rope.byte_to_char(b);
            Match::exact(start..start + needle_chars)
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
    fn empty_needle_finds_nothing() {
        assert!(find_bytes(&Rope::from_str("abc"), "").is_empty());
    }
}
