//! Knuth–Morris–Pratt search over any sequence of comparable items: linear time however
//! repetitive the text (`aaaa…` against `aa…ab` included), where a naive scan costs
//! O(text·pattern). The fuzzy tiers use it on normalised chars within a line and on line ids
//! across a document.

/// The failure table: `fail[i]` is the length of the longest proper border of `pattern[..=i]`.
// Bounds: `k < i + 1 ≤ pattern.len()` throughout, and `fail` has a slot per pattern item.
#[allow(clippy::indexing_slicing)]
pub fn failure<T: PartialEq>(pattern: &[T]) -> Vec<usize> {
    let mut fail = vec![0usize; pattern.len()];
    let mut k = 0;
    for i in 1..pattern.len() {
        while k > 0 && pattern[i] != pattern[k] {
            k = fail[k - 1];
        }
        if pattern[i] == pattern[k] {
            k += 1;
        }
        fail[i] = k;
    }
    fail
}

/// Start of every occurrence of `pattern` in `text`, overlapping ones included, left to right;
/// every position (`0..=text.len()`) for an empty pattern. Cost: O(text + pattern).
// Bounds: `k < pattern.len()` when `pattern[k]` is read (k is reset through `fail` on a full
// match), and `fail[k - 1]` with `k ≥ 1`.
#[allow(clippy::indexing_slicing)]
pub fn find_all<T: PartialEq>(text: &[T], pattern: &[T]) -> Vec<usize> {
    if pattern.is_empty() {
        return (0..=text.len()).collect();
    }
    let fail = failure(pattern);
    let mut out = Vec::new();
    let mut k = 0;
    for (i, item) in text.iter().enumerate() {
        while k > 0 && *item != pattern[k] {
            k = fail[k - 1];
        }
        if *item == pattern[k] {
            k += 1;
        }
        if k == pattern.len() {
            out.push(i + 1 - k);
            k = fail[k - 1];
        }
    }
    out
}

/// [`find_all`] for bytes: while no prefix of the pattern is matched, memchr skips to the next
/// byte equal to its first. Same result; the same O(n + m) bound, and far fewer steps when that
/// byte is rare in the text.
pub fn find_all_bytes(text: &[u8], pattern: &[u8]) -> Vec<usize> {
    if pattern.is_empty() {
        return (0..=text.len()).collect();
    }
    BytesKmp::new(text, pattern).collect()
}

/// The occurrences [`find_all_bytes`] finds, one at a time: a search that stops after its first
/// k hits costs O(m + the text up to the k-th), not O(n). An empty pattern gives nothing.
pub struct BytesKmp<'a> {
    text: &'a [u8],
    pattern: &'a [u8],
    fail: Vec<usize>,
    /// Pattern bytes matched so far, and the next text byte to read.
    k: usize,
    i: usize,
}

impl<'a> BytesKmp<'a> {
    /// Cost: O(m) for the failure table.
    pub fn new(text: &'a [u8], pattern: &'a [u8]) -> BytesKmp<'a> {
        BytesKmp { text, pattern, fail: failure(pattern), k: 0, i: 0 }
    }
}

impl Iterator for BytesKmp<'_> {
    type Item = usize;

    // Bounds: `k < pattern.len()` between steps (a full match falls back through `fail`), `fail`
    // has a slot per pattern byte, and `i < text.len()` inside the loop.
    #[allow(clippy::indexing_slicing)]
    fn next(&mut self) -> Option<usize> {
        let (text, pattern) = (self.text, self.pattern);
        let &first = pattern.first()?;
        while self.i < text.len() {
            if self.k == 0 {
                match memchr::memchr(first, &text[self.i..]) {
                    Some(skip) => self.i += skip,
                    None => {
                        self.i = text.len();
                        return None;
                    }
                }
            }
            let item = text[self.i];
            while self.k > 0 && item != pattern[self.k] {
                self.k = self.fail[self.k - 1];
            }
            if item == pattern[self.k] {
                self.k += 1;
            }
            self.i += 1;
            if self.k == pattern.len() {
                self.k = self.fail[self.k - 1];
                return Some(self.i - pattern.len());
            }
        }
        None
    }
}

/// Whether `pattern` occurs in `text` (an empty pattern always does). Cost: O(text + pattern),
/// stopping at the first occurrence.
pub fn contains<T: PartialEq + Copy>(text: &[T], pattern: &[T]) -> bool {
    contains_in(text.iter().copied(), pattern)
}

/// [`contains`] over a stream of items (a 10 MB line's stable chars, never collected).
// Bounds: as in `find_all`.
#[allow(clippy::indexing_slicing)]
pub fn contains_in<T: PartialEq>(text: impl Iterator<Item = T>, pattern: &[T]) -> bool {
    if pattern.is_empty() {
        return true;
    }
    let fail = failure(pattern);
    let mut k = 0;
    for item in text {
        while k > 0 && item != pattern[k] {
            k = fail[k - 1];
        }
        if item == pattern[k] {
            k += 1;
        }
        if k == pattern.len() {
            return true;
        }
    }
    false
}

/// Non-overlapping occurrences, taken greedily left to right (`str::match_indices`'s rule).
/// Cost: O(text + pattern).
pub fn find_disjoint<T: PartialEq>(text: &[T], pattern: &[T]) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for at in find_all(text, pattern) {
        if out.last().map_or(true, |&p| at >= p + pattern.len().max(1)) {
            out.push(at);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(text: &[u8], pattern: &[u8]) -> Vec<usize> {
        (0..=text.len().saturating_sub(pattern.len())).filter(|&i| text.get(i..i + pattern.len()) == Some(pattern)).collect()
    }

    #[test]
    fn agrees_with_a_naive_scan() {
        for (text, pattern) in [("aaaaaa", "aa"), ("abababab", "abab"), ("abcabcabd", "abcabd"), ("xyz", "q"), ("aab", "aab"), ("a", "aa")]
        {
            assert_eq!(find_all(text.as_bytes(), pattern.as_bytes()), naive(text.as_bytes(), pattern.as_bytes()), "{text} {pattern}");
        }
        assert_eq!(find_disjoint(b"aaaaa", b"aa"), vec![0, 2]);
        for (text, pattern) in [("abcabcabd", "abcabd"), ("abcabcabe", "abcabd"), ("", ""), ("x", "")] {
            assert_eq!(
                contains(text.as_bytes(), pattern.as_bytes()),
                !naive(text.as_bytes(), pattern.as_bytes()).is_empty() || pattern.is_empty(),
                "{text} {pattern}"
            );
        }
        assert_eq!(find_all::<u8>(b"ab", b""), vec![0, 1, 2]);
        assert_eq!(find_all_bytes(b"ab", b""), vec![0, 1, 2]);
    }

    #[test]
    fn the_byte_search_agrees_with_a_naive_scan() {
        // A small LCG: texts and patterns over small alphabets, so that borders and near misses
        // abound.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        for round in 0..3_000 {
            let alphabet = 1 + next(4) as u8;
            let text: Vec<u8> = (0..next(80)).map(|_| b'a' + next(u64::from(alphabet)) as u8).collect();
            let pattern: Vec<u8> = (0..1 + next(6)).map(|_| b'a' + next(u64::from(alphabet)) as u8).collect();
            assert_eq!(find_all_bytes(&text, &pattern), naive(&text, &pattern), "round {round}: {text:?} {pattern:?}");
        }
    }
}
