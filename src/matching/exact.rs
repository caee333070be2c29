//! The exact tier (DESIGN §4.2): `memchr::memmem` over the rope's chunks — no copy of the
//! document, no O(n·m) scan — with `search_after` anchoring.

use memchr::memmem::Finder;
use ropey::Rope;

use super::Match;

/// Byte offsets of every non-overlapping occurrence of `needle` in `rope`, left to right — the
/// same set `str::match_indices` gives on the flattened text. `needle` must not be empty.
///
/// Cost: O(n + m) with memchr's SIMD search, reading the rope chunk by chunk. Matches that
/// straddle a chunk boundary start in the last `m-1` bytes before it: those few positions are
/// checked in place (or, when the rest of the needle spans more than the next chunk, searched in
/// a window of those bytes plus the next `m-1`).
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
    // The last (m-1) bytes seen so far, and the offset of carry[0] in the whole text.
    let mut carry: Vec<u8> = Vec::with_capacity(m.saturating_sub(1) * 2);
    let mut carry_at = 0usize;
    let mut chunk_at = 0usize;
    let mut window: Vec<u8> = Vec::new();
    for chunk in rope.chunks() {
        let bytes = chunk.as_bytes();
        if !carry.is_empty() && bytes.len() >= m - 1 {
            // The common case: a match starting in `carry` ends inside this chunk. Check the
            // few positions where the needle's first byte occurs in place — no copy, no search
            // set-up per chunk seam. The first hit ends past the seam, so it is the only one.
            let from = allowed.saturating_sub(carry_at).min(carry.len());
            for p in memchr::memchr_iter(needle[0], &carry[from..]).map(|p| p + from) {
                let k = carry.len() - p;
                if carry[p..] == needle[..k] && bytes[..m - k] == needle[k..] {
                    hits.push(carry_at + p);
                    allowed = carry_at + p + m;
                    break;
                }
            }
        } else if !carry.is_empty() {
            // Matches that start in `carry` and end inside this chunk or later ones (needles
            // longer than a chunk are caught once the carry has grown enough).
            window.clear();
            window.extend_from_slice(&carry);
            window.extend_from_slice(&bytes[..bytes.len().min(m - 1)]);
            // Searching from `allowed` on keeps find_iter's greedy left-to-right order equal to
            // a search of the whole text.
            let from = allowed.saturating_sub(carry_at).min(window.len());
            for at in finder.find_iter(&window[from..]).map(|at| at + from) {
                if at >= carry.len() {
                    break; // starts inside the chunk: the chunk pass below reports it
                }
                hits.push(carry_at + at);
                allowed = carry_at + at + m;
            }
        }
        let from = allowed.saturating_sub(chunk_at).min(bytes.len());
        for at in finder.find_iter(&bytes[from..]) {
            hits.push(chunk_at + from + at);
            allowed = chunk_at + from + at + m;
        }
        // Keep the last m-1 bytes of (carry + chunk).
        let keep = m - 1;
        if bytes.len() >= keep {
            carry.clear();
            carry.extend_from_slice(&bytes[bytes.len() - keep..]);
            carry_at = chunk_at + bytes.len() - keep;
        } else {
            carry.extend_from_slice(bytes);
            let excess = carry.len().saturating_sub(keep);
            carry.drain(..excess);
            carry_at += excess;
        }
        chunk_at += bytes.len();
    }
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
        let hay = unit.repeat(500);
        let rope = Rope::from_str(&hay);
        assert!(rope.chunks().count() > 10);
        for needle in ["timeout: 30", "30\nbeta", "a", "中文 t", "\n", &unit[3..40]] {
            assert_eq!(find_bytes(&rope, needle), model(&hay, needle), "needle {needle:?}");
        }
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
