//! memmem for the exact search's needles, a long one searched by a window of it
//! (docs/performance.md#cjk-text). memchr searches a needle of up to 32 bytes with its vector
//! searcher — candidates at its two rarest bytes, each compared whole — and a longer one with
//! Two-Way behind the same candidates, which compares a candidate a byte at a time: of a
//! find-all of 545 hits of a 78-byte needle in 1 MB of CJK, Two-Way took a third of the search.
//! Here a needle of 33–[`WINDOW_MAX`] bytes is searched by its 32 bytes around its rarest
//! two, each candidate compared whole, so the hits are the same; a needle whose window keeps
//! matching where the needle does not (more than one candidate per [`MIN_BYTES_PER_MISS`]
//! bytes) goes on with Two-Way, so the search stays O(n + m).

use memchr::arch::all::packedpair::Pair;
use memchr::memmem::Finder;

/// memchr's vector searcher's longest needle.
const WINDOW: usize = 32;
/// Longer needles keep Two-Way: a miss compares up to this many bytes.
const WINDOW_MAX: usize = 256;
/// Misses allowed before the window gives way: 8, then one per this many bytes searched.
const MIN_BYTES_PER_MISS: usize = 256;

/// The searcher of one needle.
pub(super) struct NeedleFinder<'n> {
    needle: &'n [u8],
    whole: Finder<'n>,
    /// The window's searcher and where the window starts in the needle.
    window: Option<(Finder<'n>, usize)>,
}

impl<'n> NeedleFinder<'n> {
    pub(super) fn new(needle: &'n [u8]) -> NeedleFinder<'n> {
        let window = (WINDOW < needle.len() && needle.len() <= WINDOW_MAX).then(|| Pair::new(needle)).flatten().and_then(|pair| {
            let (rarest, other) = (usize::from(pair.index1()), usize::from(pair.index2()));
            let start = if rarest.abs_diff(other) < WINDOW { rarest.min(other) } else { rarest };
            let start = start.min(needle.len() - WINDOW);
            Some((Finder::new(needle.get(start..start + WINDOW)?), start))
        });
        NeedleFinder { needle, whole: Finder::new(needle), window }
    }

    pub(super) fn needle(&self) -> &'n [u8] {
        self.needle
    }

    /// The first occurrence of the needle in `hay`, as `memmem::Finder::find` gives it.
    pub(super) fn find(&self, hay: &[u8]) -> Option<usize> {
        let Some((window, start)) = &self.window else { return self.whole.find(hay) };
        let mut at = *start; // a window found before `start` has no room for the needle's head
        let mut misses = 0;
        loop {
            let p = at + window.find(hay.get(at..)?)? - start;
            // The window matched: the needle's head and tail are what is left to compare.
            let (head, tail) = (*start, *start + WINDOW);
            if hay.get(p..p + head).is_some_and(|h| same_bytes(h, self.needle.get(..head).unwrap_or_default()))
                && hay.get(p + tail..p + self.needle.len()).is_some_and(|t| same_bytes(t, self.needle.get(tail..).unwrap_or_default()))
            {
                return Some(p);
            }
            misses += 1;
            if misses > 8 + p / MIN_BYTES_PER_MISS {
                return self.whole.find(hay.get(p + 1..)?).map(|q| p + 1 + q);
            }
            at = p + start + 1;
        }
    }
}

/// `a == b` for slices of the same length, 8 bytes at a time: `==` on `[u8]` calls `memcmp`,
/// which wasm32 runs a byte at a time (a tenth of the search's time for a find-all of 545 hits
/// of a 78-byte needle on cjk-1MB, docs/performance.md#cjk-text).
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let word = |s: &[u8], at: usize| s.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()).map(u64::from_ne_bytes);
    if a.len() != b.len() {
        return false;
    }
    let Some(last) = a.len().checked_sub(8) else { return a.iter().zip(b).all(|(x, y)| x == y) };
    // Words at 0, 8, … and the last one, which may overlap the one before.
    let mut at = 0;
    loop {
        if word(a, at) != word(b, at) {
            return false;
        }
        if at == last {
            return true;
        }
        at = (at + 8).min(last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every occurrence, overlapping ones too, as the exact search asks for them.
    fn all(f: &NeedleFinder<'_>, hay: &[u8]) -> Vec<usize> {
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(p) = hay.get(at..).and_then(|h| f.find(h)) {
            out.push(at + p);
            at += p + 1;
        }
        out
    }

    fn model(hay: &[u8], needle: &[u8]) -> Vec<usize> {
        (0..=hay.len().saturating_sub(needle.len())).filter(|&i| hay[i..].starts_with(needle)).collect()
    }

    #[test]
    fn finds_what_memmem_finds() {
        let cjk = "- [ ] 更新变更日志并提升版本号，然后通知所有相关的维护人员。\n段落和同步与段落的版本 `x_y` | 范围 |\n";
        let hay = cjk.repeat(200) + &"a".repeat(3000) + "ab" + &"xy".repeat(500);
        let long_a = "a".repeat(40) + "b";
        let near_misses = "- [ ] 更新变更日志并提升版本号，然后通知所有相关的维护人员!";
        for needle in ["- [ ] 更新变更日志并提升版本号，然后通知所有相关的维护", near_misses, &long_a, &"xy".repeat(30), "短", &cjk[..42]]
        {
            let f = NeedleFinder::new(needle.as_bytes());
            assert_eq!(all(&f, hay.as_bytes()), model(hay.as_bytes(), needle.as_bytes()), "{needle:?}");
        }
        assert!(NeedleFinder::new(long_a.as_bytes()).window.is_some(), "a 41-byte needle is searched by its window");
    }

    #[test]
    fn same_bytes_is_slice_equality() {
        let base: Vec<u8> = (0..41u8).collect();
        for len in [0, 1, 7, 8, 9, 16, 23, 40] {
            let a = &base[..len];
            assert!(same_bytes(a, a), "{len}");
            for i in 0..len {
                let mut b = a.to_vec();
                b[i] ^= 0x80;
                assert!(!same_bytes(a, &b), "{len}: byte {i} differs");
            }
            assert!(!same_bytes(a, &base[..len + 1]), "{len}: lengths differ");
        }
    }

    #[test]
    fn a_window_that_keeps_missing_gives_way_to_two_way() {
        // Near misses: the needle with one byte outside its window changed, a thousand times,
        // so the window matches every 42 bytes (past the allowed misses), then the needle.
        let needle = b"q-a-long-needle-of-42-bytes-with-a-tail:b!";
        let f = NeedleFinder::new(needle);
        let start = f.window.as_ref().map(|w| w.1).unwrap();
        let outside = if start > 0 { 0 } else { needle.len() - 1 };
        let mut miss = needle.to_vec();
        miss[outside] = b'#';
        let mut hay = miss.repeat(1000);
        hay.extend_from_slice(needle);
        hay.extend(miss.repeat(3));
        hay.extend_from_slice(needle);
        assert_eq!(all(&f, &hay), model(&hay, needle));
        assert_eq!(all(&f, &hay).len(), 2);
    }
}
