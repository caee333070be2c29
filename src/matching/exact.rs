//! The exact tier (docs/architecture.md#matching): `memchr::memmem` over the rope's chunks — no copy of the
//! document, no O(n·m) scan — with `search_after` anchoring.

use memchr::memmem::Finder;
use ropey::Rope;

use super::Match;
use crate::changeset::{Assoc, ChangeSet};
use crate::text::Text;
use crate::text_index::BlockGrams;

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
    scan(rope, needle, |block_at, at| {
        hits.push(block_at + at);
        true
    });
    hits
}

/// The byte offset of the first occurrence of `needle` (empty: none), for callers that only ask
/// whether or where it first occurs (a `search_after` anchor, another document holding the
/// text): the scan stops there instead of collecting every hit. Cost: O(bytes up to the first
/// hit + m).
pub fn find_first_byte(rope: &Rope, needle: &str) -> Option<usize> {
    let mut first = None;
    scan(rope, needle, |block_at, at| {
        first = Some(block_at + at);
        false
    });
    first
}

/// Char offsets of the same occurrences as [`find_bytes`]. In an ASCII document they are the
/// byte offsets. Otherwise a few hits are converted with the
/// rope's index (O(log n) each); many are converted in one left-to-right sweep over the chunks
/// ([`utf8::count_chars`], 16 bytes at a time), which beats a tree walk plus a chunk scan
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
            chars += chunk.get(at..off).map_or(0, utf8::count_chars);
            out.push(chars);
            at = off;
            hits.next();
        }
        if hits.peek().is_none() {
            break;
        }
        chunk_char += utf8::count_chars(chunk);
        chunk_byte = end;
    }
    out
}

/// The block search behind [`find_bytes`]: `on_hit(block_at, at)` for each match at byte
/// `block_at + at`, left to right.
/// `on_hit(block_at, at)` returns whether to go on; `false` ends the scan.
fn scan(rope: &Rope, needle: &str, mut on_hit: impl FnMut(usize, usize) -> bool) {
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
    // Whether to go on after searching `block`.
    let mut search = |block: &[u8], block_at: usize| {
        let from = allowed.saturating_sub(block_at).min(block.len());
        for at in finder.find_iter(block.get(from..).unwrap_or_default()) {
            if !on_hit(block_at, from + at) {
                return false;
            }
            allowed = block_at + from + at + m;
        }
        true
    };
    for chunk in rope.chunks() {
        block.extend_from_slice(chunk.as_bytes());
        if block.len() >= block_bytes {
            if !search(&block, block_at) {
                return;
            }
            // Keep the last m-1 bytes: a match starting there ends in the next block.
            let keep = (m - 1).min(block.len());
            let cut = block.len() - keep;
            block.drain(..cut);
            block_at += cut;
        }
    }
    let _ = search(&block, block_at);
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

impl Layered<'_> {
    /// Whether the draft holds no combining mark: its chars are the base's and the
    /// replacements', so neither holding one is enough (the base's answer is kept with its flat
    /// copy). Cost: O(1) once the base was asked, plus the replacements' bytes; O(n) the first
    /// time.
    pub fn marks_free(&self) -> bool {
        !self.base.holds_marks(super::marks::holds_marks) && !self.changes.replacements().iter().any(|r| super::marks::holds_marks(&r.text))
    }
}

/// Char offsets in the draft of every non-overlapping occurrence of `needle` — the same set
/// `str::match_indices` gives on the flattened draft. Cost: [`find_chars_layered_upto`] without
/// a cap: O(n + m) the first time a base is searched (its flat copy), then O(n) memmem over the
/// flat base plus O(k·m + size of the replacements) — no copy.
pub fn find_chars_layered(layers: &Layered<'_>, needle: &str) -> Vec<usize> {
    find_chars_layered_upto(layers, needle, 0, usize::MAX).0
}

/// The first `cap` of [`find_chars_layered`]'s occurrences that start at or after draft char
/// `from`, and whether there are more (`true`: the search stopped at `cap + 1`). Occurrences
/// are of two kinds: those overlapping a replacement (found first, in a window of `m-1` chars
/// around each) and those inside unchanged base text (found in the base one at a time, mapped
/// through the changes); the two sorted streams are merged and taken greedily left to right,
/// as `match_indices` takes them. Cost: O(k·m + size of the replacements), plus the base
/// scanned up to the place where the search stops — O(n) without a cap; with one, the stretch
/// from `from` (from 0 for a needle that overlaps itself) to the `cap + 1`-th hit, so ten
/// million hits of a one-char needle are never collected to list ten thousand.
pub fn find_chars_layered_upto(layers: &Layered<'_>, needle: &str, from: usize, cap: usize) -> (Vec<usize>, bool) {
    if needle.is_empty() {
        return (Vec::new(), false);
    }
    let finder = NeedleFinder::new(needle.as_bytes());
    let m = needle.chars().count();
    let reps = layers.changes.replacements();
    let (flat, grams) = layers.base.flat_and_grams();
    // (1) Occurrences overlapping a replacement's text in the draft (or spanning the point where
    // one deleted text), sorted.
    let mut near: Vec<usize> = Vec::new();
    let draft_len = layers.draft.len_chars();
    for d in layers.changes.draft_ranges() {
        let lo = d.start.saturating_sub(m - 1);
        let hi = (d.end + m - 1).min(draft_len);
        let window = layers.draft.slice(lo..hi).to_string();
        let mut chars_before = 0;
        let mut last_byte = 0;
        for b in occurrences(window.as_bytes(), &finder, 0, None) {
            // Match starts are char boundaries (the needle is UTF-8).
            chars_before += window.get(last_byte..b).map_or(0, utf8::count_chars);
            last_byte = b;
            let h = lo + chars_before;
            let overlaps = if d.is_empty() { h < d.start && h + m > d.start } else { h < d.end && h + m > d.start };
            if overlaps {
                near.push(h);
            }
        }
    }
    near.sort_unstable();
    near.dedup();
    // (2) Occurrences in the base, overlapping ones included, whose inside no replacement
    // touches (a replacement [a, b) spoils [s, s+m) when it overlaps it, an insertion at p when
    // s < p < s+m), as draft offsets: ascending, since `map_pos` keeps order.
    // A needle that cannot overlap itself has no greedy choice to make: its occurrences before
    // `from` change nothing, and the base is scanned from where `from` maps back to (m chars
    // early, to be safe) — a `search_after` near the end of ten million hits skips them.
    let bordered = super::kmp::failure(needle.as_bytes()).last().is_some_and(|&border| border > 0);
    let skip_chars =
        if bordered { 0 } else { layers.changes.map_back_pos(from, Assoc::Before).saturating_sub(m).min(layers.base.rope().len_chars()) };
    let skip_bytes = layers.base.rope().char_to_byte(skip_chars);
    let mut to_char = CharsOf::new(layers.base, flat, skip_bytes, skip_chars);
    let mut r = 0; // first replacement that may still spoil a hit (hits are sorted)
    let base = occurrences(flat.as_bytes(), &finder, skip_bytes, grams).map(move |b| to_char.at(b)).filter_map(move |s| {
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
        (!spoiled).then(|| layers.changes.map_pos(s, Assoc::After))
    });
    // (3) Both streams merged, then greedy, left to right, non-overlapping: `match_indices`'s
    // rule, applied from the start of the draft (so `from` never changes which ones count).
    let mut near = near.into_iter().peekable();
    let mut base = base.peekable();
    let (mut hits, mut allowed, mut last) = (Vec::new(), 0usize, None);
    loop {
        let h = match (base.peek(), near.peek()) {
            (Some(&b), Some(&n)) if n < b => near.next(),
            (Some(_), _) => base.next(),
            (None, _) => near.next(),
        };
        let Some(h) = h else { break };
        if last == Some(h) || h < allowed {
            continue;
        }
        last = Some(h);
        allowed = h + m;
        if h >= from {
            if hits.len() == cap {
                return (hits, true);
            }
            hits.push(h);
        }
    }
    (hits, false)
}

/// [`find_exact`] on a layered draft: the same matches, found by [`find_chars_layered`].
pub fn find_exact_layered(layers: &Layered<'_>, needle: &str, from: usize) -> Vec<Match> {
    find_exact_layered_upto(layers, needle, from, usize::MAX).0
}

/// The first `cap` matches of [`find_exact_layered`], and whether there are more. Cost:
/// [`find_chars_layered_upto`].
pub fn find_exact_layered_upto(layers: &Layered<'_>, needle: &str, from: usize, cap: usize) -> (Vec<Match>, bool) {
    let (starts, more) = find_chars_layered_upto(layers, needle, from, cap);
    (exact_matches(starts, needle, from), more)
}

/// The end markers a span's starts pair with when the exact search of the marker stopped at
/// `cap` (`found`: its first `cap` whole occurrences from the first start on): each start that
/// ends past the last of them (`start_ends`, ascending) takes the first whole occurrence at or
/// after its end from an exact search continued there, `cap` at a time, and only the
/// occurrences some start takes are kept — so ten million blanks between two headings are
/// never collected. Returns `found` followed by those, in order; `None` for a needle that
/// overlaps itself (each continued search would scan from the start: search it whole).
/// Cost: O(draft after the first start + cap per continued search).
pub fn continued_ends(layers: &Layered<'_>, needle: &str, start_ends: &[usize], mut found: Vec<Match>, cap: usize) -> Option<Vec<Match>> {
    if super::kmp::failure(needle.as_bytes()).last().is_some_and(|&border| border > 0) {
        return None;
    }
    let reached = found.last().map_or(0, |e| e.range.start);
    let mut i = start_ends.partition_point(|&e| e <= reached);
    while let Some(&from) = start_ends.get(i) {
        let (mut batch, more) = find_exact_layered_upto(layers, needle, from, cap.max(1));
        let Some(raw_last) = batch.last().map(|e| e.range.start) else { break };
        super::marks::retain_whole_unless_free(layers.draft, &mut batch, &|| layers.marks_free());
        // The starts this batch serves: those ending at or before its last occurrence.
        let served = start_ends.get(i..).unwrap_or_default().iter().take_while(|&&e| e <= raw_last).count();
        for &end in start_ends.get(i..i + served).unwrap_or_default() {
            let k = batch.partition_point(|m| m.range.start < end);
            if let Some(m) = batch.get(k).filter(|m| found.last().map_or(true, |l| l.range.start < m.range.start)) {
                found.push(m.clone());
            }
        }
        i += served;
        if !more {
            break;
        }
    }
    Some(found)
}

/// Byte offsets of every occurrence of the finder's needle in `hay` at or after byte `from` (a
/// char boundary; a bordered needle is always searched from 0), overlapping ones included,
/// one at a time. A needle that can overlap itself (it has a border: `aa…a`, `}\n}`) may occur
/// at every position, and restarting memmem after each hit would cost O(n·m); such needles are
/// found by KMP in O(n + m). A needle without a border never overlaps itself: memmem, O(n + m)
/// too. Either way a caller that stops early pays only for the text up to where it stopped.
///
/// With `grams`, the index of `hay` (src/text_index.rs), only the blocks whose trigrams hold the
/// needle's are searched — the same occurrences, from a few KB instead of the whole text
/// (docs/performance.md#the-first-call-on-a-text-just-taken). Needles under 4 bytes, bordered
/// ones longer than [`KMP_PER_RUN_MAX`], and needles most blocks may hold scan the whole text.
fn occurrences<'a>(
    hay: &'a [u8],
    finder: &'a NeedleFinder<'a>,
    from: usize,
    grams: Option<&'a BlockGrams>,
) -> Box<dyn Iterator<Item = usize> + 'a> {
    occurrences_with(hay, finder, from, grams, true)
}

/// [`occurrences`]; `scan_if_dense: false` searches the candidate runs even when they cover
/// most of the text (for the index's tests, on texts of a few blocks).
fn occurrences_with<'a>(
    hay: &'a [u8],
    finder: &'a NeedleFinder<'a>,
    from: usize,
    grams: Option<&'a BlockGrams>,
    scan_if_dense: bool,
) -> Box<dyn Iterator<Item = usize> + 'a> {
    let needle = finder.needle();
    let bordered = super::kmp::failure(needle).last().is_some_and(|&border| border > 0);
    let from = if bordered { 0 } else { from };
    let runs = grams
        .filter(|_| !bordered || needle.len() <= KMP_PER_RUN_MAX)
        .and_then(|g| g.candidates(hay.len(), needle, from))
        .filter(|c| !(scan_if_dense && c.most_blocks()));
    if let Some(runs) = runs {
        let reach = needle.len() - 1;
        return Box::new(runs.flat_map(move |run| {
            // Occurrences starting in the run lie in run.start .. run.end + m − 1.
            let piece = hay.get(run.start..run.end.saturating_add(reach).min(hay.len())).unwrap_or_default();
            let hits: Box<dyn Iterator<Item = usize> + 'a> = if bordered {
                Box::new(super::kmp::BytesKmp::new(piece, needle))
            } else {
                memmem_from(piece, finder, from.saturating_sub(run.start))
            };
            hits.map(move |h| run.start + h).take_while(move |&h| h < run.end)
        }));
    }
    if bordered {
        return Box::new(super::kmp::BytesKmp::new(hay, needle));
    }
    memmem_from(hay, finder, from)
}

/// A bordered needle is searched by KMP in each candidate run of the index, which builds its
/// failure table per run: O(m) each, so only short needles take that path.
const KMP_PER_RUN_MAX: usize = 256;

/// Every occurrence at or after `from` of a needle that cannot overlap itself, by memmem
/// restarted after each hit.
fn memmem_from<'a>(hay: &'a [u8], finder: &'a NeedleFinder<'a>, from: usize) -> Box<dyn Iterator<Item = usize> + 'a> {
    let mut at = from;
    Box::new(std::iter::from_fn(move || {
        let hit = at + finder.find(hay.get(at..)?)?;
        at = hit + 1;
        Some(hit)
    }))
}

#[cfg(test)]
fn all_occurrences(hay: &[u8], finder: &NeedleFinder<'_>) -> Vec<usize> {
    occurrences(hay, finder, 0, None).collect()
}

/// [`occurrences`] for the index's tests: with and without `grams`, the same offsets.
#[cfg(test)]
pub(crate) fn occurrences_in(hay: &[u8], needle: &[u8], from: usize, grams: Option<&BlockGrams>) -> Vec<usize> {
    let finder = NeedleFinder::new(needle);
    occurrences_with(hay, &finder, from, grams, false).collect()
}

/// Base byte offsets (ascending) as char offsets, one at a time: free for ASCII; otherwise the
/// chars counted from the hit before when it is in the same block of the base's char index
/// ([`Text::char_blocks`]), else from the block's start, whose char offset the index holds —
/// so each hit counts at most a block (16 bytes at a time, [`utf8::chars_starting_in`]).
/// Without the index, the chars are counted from the hit before when it is near, else from
/// the start of the rope chunk holding the hit (found in O(log n), its char offset kept by the
/// rope); in wasm a lookup costs about as much as counting 4 KB. The index is made (O(n), once
/// per text) when this search has counted a quarter of the text's bytes: a search with many hits
/// would count them all (docs/performance.md#cjk-text).
struct CharsOf<'a> {
    base: &'a Text,
    flat: &'a [u8],
    ascii: bool,
    blocks: Option<&'a [usize]>,
    /// Bytes counted without the index.
    counted: usize,
    /// The last offset converted, in bytes and chars.
    byte: usize,
    chars: usize,
}

impl<'a> CharsOf<'a> {
    /// Up to this many bytes from the previous hit, counting them beats finding the hit's chunk.
    const COUNT_BYTES: usize = 4096;

    /// Offsets from byte `byte` on, which is char `chars`.
    fn new(base: &'a Text, flat: &'a str, byte: usize, chars: usize) -> CharsOf<'a> {
        let rope = base.rope();
        let ascii = rope.len_bytes() == rope.len_chars();
        CharsOf { base, flat: flat.as_bytes(), ascii, blocks: base.char_blocks_built(), counted: 0, byte, chars }
    }

    /// The char offset of byte offset `b` (a char boundary, at or after the previous one).
    fn at(&mut self, b: usize) -> usize {
        if self.ascii {
            return b;
        }
        let counted_from = |byte: usize, chars: usize| chars + self.flat.get(byte..b).map_or(0, utf8::chars_starting_in);
        if self.blocks.is_none() && self.counted > self.flat.len() / 4 {
            self.blocks = Some(self.base.char_blocks(utf8::char_blocks));
        }
        let block = b / utf8::CHAR_BLOCK;
        let block_start = block * utf8::CHAR_BLOCK;
        self.chars = match self.blocks.map(|blocks| blocks.get(block)) {
            Some(Some(&block_chars)) if block_start > self.byte => counted_from(block_start, block_chars),
            Some(_) => counted_from(self.byte, self.chars),
            None if b - self.byte <= Self::COUNT_BYTES => {
                self.counted += b - self.byte;
                counted_from(self.byte, self.chars)
            }
            None => match self.base.rope().get_chunk_at_byte(b) {
                Some((_, chunk_byte, _, _)) if chunk_byte <= self.byte => {
                    self.counted += b - self.byte;
                    counted_from(self.byte, self.chars)
                }
                Some((_, chunk_byte, chunk_char, _)) => {
                    self.counted += b - chunk_byte;
                    counted_from(chunk_byte, chunk_char)
                }
                None => self.base.rope().byte_to_char(b),
            },
        };
        self.byte = b;
        self.chars
    }
}

#[path = "exact/utf8.rs"]
mod utf8;
#[path = "exact/window.rs"]
mod window;
use window::NeedleFinder;

#[cfg(test)]
#[path = "exact/index_tests.rs"]
mod index_tests;

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
    fn the_first_hit_is_str_finds_wherever_it_falls() {
        // First hits before, across and after block boundaries, in the last partial block, and none.
        let filler = "abc ".repeat(3 * BLOCK_BYTES / 4);
        for at in [0, 5, BLOCK_BYTES - 3, BLOCK_BYTES, 2 * BLOCK_BYTES + 1, filler.len() - 2] {
            let mut hay = filler.clone();
            hay.insert_str(at, "NEEDLE");
            hay.push_str("NEEDLE");
            let rope = Rope::from_str(&hay);
            assert_eq!(find_first_byte(&rope, "NEEDLE"), hay.find("NEEDLE"), "at {at}");
            assert_eq!(find_first_byte(&rope, "NEEDLE"), find_bytes(&rope, "NEEDLE").first().copied());
        }
        assert_eq!(find_first_byte(&Rope::from_str(&filler), "NEEDLE"), None);
        assert_eq!(find_first_byte(&Rope::from_str(&filler), ""), None);
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
            let finder = NeedleFinder::new(needle.as_bytes());
            let want: Vec<usize> = (0..=hay.len().saturating_sub(needle.len())).filter(|&i| hay[i..].starts_with(needle)).collect();
            assert_eq!(all_occurrences(hay.as_bytes(), &finder), want, "{hay:?} {needle:?}");
        }
        // A 40 KB periodic needle against 40 KB of the same: ~40 K overlapping hits, found in
        // one pass (the fuzzer's slow unit took 1.4 s here with memmem restarts).
        let hay = "a".repeat(40_000);
        let finder = NeedleFinder::new(&hay.as_bytes()[..20_000]);
        assert_eq!(all_occurrences(hay.as_bytes(), &finder).len(), 20_001);
    }

    #[test]
    fn dense_hits_make_the_char_index_and_convert_the_same_with_it() {
        // 1–4-byte chars, so that the index's block starts fall inside chars; hits every few
        // hundred bytes (dense) and one unique needle (sparse); a replacement on top.
        let unit = "- [ ] 更新变更日志 é 😀 ab\n".repeat(9) + "中文段落和同步与段落的版本 x\n";
        let base_text = unit.repeat(400) + "the end 😀\n";
        let text = Text::from_storage(&base_text);
        let mut set = ChangeSet::new(text.rope().len_chars());
        set.try_push(1_000..1_003, "更新变").unwrap();
        let draft = set.apply(text.rope()).unwrap();
        let flat = draft.to_string();
        let layers = Layered { base: &text, changes: &set, draft: &draft };
        let model = |needle: &str| -> Vec<usize> { flat.match_indices(needle).map(|(b, _)| flat[..b].chars().count()).collect() };
        assert_eq!(find_chars_layered(&layers, "the end"), model("the end"));
        assert!(text.char_blocks_built().is_none(), "one hit needs no index");
        assert_eq!(find_chars_layered(&layers, "更新变更日志"), model("更新变更日志"));
        assert!(text.char_blocks_built().is_some(), "a search counting most of the text makes the index");
        for needle in ["更新变更日志", "😀 ab\n- [ ]", "x\n", "é", "the end", "段落的版本 x\n- [ ] 更新变更日志 é 😀 ab\n- [ ]"]
        {
            assert_eq!(find_chars_layered(&layers, needle), model(needle), "{needle:?} with the index");
        }
    }

    #[test]
    fn a_capped_layered_search_is_the_prefix_of_the_whole_one() {
        // A base past the lookup distance of `CharsOf` (sparse and dense hits, multibyte text),
        // replacements on top, needles with and without borders, several caps and starts.
        let unit = "中 ab  x\n".repeat(700) + &" ".repeat(9000) + "aaaa 😀 ab\n";
        let base_text = unit.repeat(3);
        let text = Text::from_storage(&base_text);
        let len = text.rope().len_chars();
        let mut set = ChangeSet::new(len);
        for (at, cut, with) in [(5, 2, "  ab"), (7_000, 0, " a"), (12_000, 40, ""), (30_000, 3, "中 ab")] {
            set.try_push(at..at + cut, with).unwrap();
        }
        let draft = set.apply(text.rope()).unwrap();
        let flat = draft.to_string();
        let layers = Layered { base: &text, changes: &set, draft: &draft };
        for needle in [" ", "  ", "ab", "aa", "x\n中", "😀"] {
            let all: Vec<usize> = flat.match_indices(needle).map(|(b, _)| flat[..b].chars().count()).collect();
            assert_eq!(find_chars_layered(&layers, needle), all, "{needle:?}");
            for from in [0, 5, 6, 7, 7_000, 7_001, 7_002, 9_500, 11_990, 12_000, 12_001, 29_999, 30_000, 30_002, 30_005, 40_000] {
                let after: Vec<usize> = all.iter().copied().filter(|&h| h >= from).collect();
                for cap in [0, 1, 25, 10_000, usize::MAX] {
                    let (got, more) = find_chars_layered_upto(&layers, needle, from, cap);
                    assert_eq!(got, after[..cap.min(after.len())], "{needle:?} from {from} cap {cap}");
                    assert_eq!(more, after.len() > cap, "{needle:?} from {from} cap {cap}");
                }
            }
        }
    }

    #[test]
    fn a_mark_a_replacement_brings_still_keeps_a_match_from_cutting_it_off() {
        // A CJK base without a mark, many hits (the pass over the text, not per-match lookups):
        // the base's cached answer alone would skip the check; the replacement's mark must not.
        let text = Text::from_storage(&"中文 ab 中文\n".repeat(2000));
        assert!(!text.holds_marks(crate::matching::marks::holds_marks));
        let at = text.rope().len_chars() / 2 + 5; // just after an "ab"
        assert_eq!(text.rope().slice(at - 2..at).to_string(), "ab");
        let mut set = ChangeSet::new(text.rope().len_chars());
        set.try_push(at..at, "\u{0301}").unwrap();
        let draft = set.apply(text.rope()).unwrap();
        let layers = Layered { base: &text, changes: &set, draft: &draft };
        assert!(!layers.marks_free());
        let located = crate::matching::locate_layered(&layers, "ab", 0);
        assert_eq!(located.matches.len(), 1999, "every \"ab\" but the one its accent follows");
        assert!(located.matches.iter().all(|m| m.range.start != at - 2));
        // Without the mark: every hit, and the text's answer is kept.
        let plain = ChangeSet::new(text.rope().len_chars());
        let layers = Layered { base: &text, changes: &plain, draft: text.rope() };
        assert!(layers.marks_free());
        assert_eq!(crate::matching::locate_layered(&layers, "ab", 0).matches.len(), 2000);
    }

    #[test]
    fn continued_ends_give_each_start_its_first_end() {
        // Starts spread among dense ends, with a replacement: every start gets the end a whole
        // search gives it, whatever the cap.
        let base_text = "S ab b\n".repeat(50) + &"b ".repeat(400) + "S\n" + &"b\n".repeat(30) + "S end";
        let text = Text::from_storage(&base_text);
        let mut set = ChangeSet::new(text.rope().len_chars());
        set.try_push(700..704, "S b").unwrap();
        let draft = set.apply(text.rope()).unwrap();
        let layers = Layered { base: &text, changes: &set, draft: &draft };
        let flat = draft.to_string();
        let start_ends: Vec<usize> = flat.match_indices('S').map(|(b, _)| flat[..b].chars().count() + 1).collect();
        for needle in ["b", "\n"] {
            let all = find_exact_layered(&layers, needle, 0);
            let want: Vec<Option<usize>> =
                start_ends.iter().map(|&e| all.iter().find(|m| m.range.start >= e).map(|m| m.range.start)).collect();
            for cap in [1, 2, 5, 40] {
                let (found, more) = find_exact_layered_upto(&layers, needle, start_ends[0], cap);
                assert!(more);
                let ends = continued_ends(&layers, needle, &start_ends, found, cap).unwrap();
                assert!(ends.windows(2).all(|w| w[0].range.start < w[1].range.start), "{needle:?} cap {cap}");
                let got: Vec<Option<usize>> =
                    start_ends.iter().map(|&e| ends.iter().find(|m| m.range.start >= e).map(|m| m.range.start)).collect();
                assert_eq!(got, want, "{needle:?} cap {cap}");
            }
        }
        assert!(continued_ends(&layers, "bb", &start_ends, Vec::new(), 3).is_none(), "a bordered needle is searched whole");
    }

    #[test]
    fn empty_needle_finds_nothing() {
        assert!(find_bytes(&Rope::from_str("abc"), "").is_empty());
    }
}
