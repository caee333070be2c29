//! Matching: where in a document an agent's `old_text` is (DESIGN §4).
//!
//! This slice has the exact tier: `memchr::memmem` over the rope's chunks (no copy of the
//! document, no O(n·m) scan), with `search_after` anchoring. Fuzzy tiers come later and only run
//! when this finds nothing.

use std::ops::Range;

use memchr::memmem::Finder;
use ropey::Rope;

/// How a match was found. Only `Exact` exists in this slice; the field is reported to the model
/// as `match_quality` so that a fuzzy match can never pass as an exact one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchQuality {
    Exact,
}

impl MatchQuality {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchQuality::Exact => "exact",
        }
    }
}

/// One occurrence of the needle, as a char range into the searched text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub range: Range<usize>,
    pub quality: MatchQuality,
}

/// Why a search could not even be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// `search_after` was given but does not occur in the text.
    AnchorNotFound { anchor: String },
}

/// Byte offsets of every non-overlapping occurrence of `needle` in `rope`, left to right — the
/// same set `str::match_indices` gives on the flattened text. `needle` must not be empty.
///
/// Cost: O(n + m) with memchr's SIMD search, reading the rope chunk by chunk. Matches that
/// straddle a chunk boundary are found in a window of the last `m-1` bytes before the boundary
/// plus the first `m-1` after it.
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
        if !carry.is_empty() {
            // Matches that start in `carry` and end inside this chunk (or later chunks, for
            // needles longer than a chunk: those are caught when the carry has grown enough).
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

/// Every exact, non-overlapping occurrence of `needle` as char ranges, in document order.
/// With `search_after`, only matches starting at or after the end of the anchor's first
/// occurrence count (DESIGN §4.2). Cost: O(n + m + k log n) for k matches.
pub fn find_exact(rope: &Rope, needle: &str, search_after: Option<&str>) -> Result<Vec<Match>, SearchError> {
    let from_byte = match search_after {
        None => 0,
        Some(anchor) if anchor.is_empty() => 0,
        Some(anchor) => match find_bytes(rope, anchor).first() {
            Some(&at) => at + anchor.len(),
            None => return Err(SearchError::AnchorNotFound { anchor: anchor.to_string() }),
        },
    };
    let needle_chars = needle.chars().count();
    Ok(find_bytes(rope, needle)
        .into_iter()
        .filter(|&b| b >= from_byte)
        .map(|b| {
            let start = rope.byte_to_char(b);
            Match { range: start..start + needle_chars, quality: MatchQuality::Exact }
        })
        .collect())
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
        let hits = find_exact(&rope, "x = 1", None).unwrap();
        assert_eq!(hits.iter().map(|m| m.range.clone()).collect::<Vec<_>>(), vec![2..7, 10..15]);
    }

    #[test]
    fn search_after_skips_matches_before_the_anchor_end() {
        let rope = Rope::from_str("a=1\n[b]\na=1\n[c]\na=1\n");
        let hits = find_exact(&rope, "a=1", Some("[c]")).unwrap();
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].range.start, 16);
        assert_eq!(
            find_exact(&rope, "a=1", Some("[zz]")),
            Err(SearchError::AnchorNotFound { anchor: "[zz]".into() })
        );
    }

    #[test]
    fn empty_needle_finds_nothing() {
        assert!(find_bytes(&Rope::from_str("abc"), "").is_empty());
    }
}
