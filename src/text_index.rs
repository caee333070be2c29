//! The trigram block index of a flat text (docs/performance.md#the-first-call-on-a-text-just-taken):
//! it rules out the blocks of a text that cannot hold a needle, so the exact search runs
//! `memmem` over a few KB instead of reading all 10 MB from memory on the first call after an
//! open or a commit, when the text is out of the CPU caches.
//!
//! The text's bytes are split into blocks of [`MIN_BLOCK`]..=[`MAX_BLOCK`] bytes (byte ranges; the
//! boundaries need not be char boundaries). Each block keeps a bitmap of the hashes of the byte
//! trigrams that START in `[start, end + W)` at an EVEN distance from `start` ([`W`] a fixed
//! window; every other start, so building hashes half the text's trigrams). A needle of
//! m ≥ 4 bytes asks for the hashes of its trigrams at offsets `0 ..= min(W, m − 3)`, in two
//! classes — the even offsets and the odd ones: a block that holds neither class whole holds no
//! occurrence starting inside it.
//!
//! Why no occurrence is missed: an occurrence starting at `s` in block `[start, end)`, with
//! `r = (s − start) mod 2`, holds for each offset `i ≤ min(W, m − 3)` with `i ≡ r (mod 2)` the
//! trigram at `p = s + i`: `p − start` is even, `p ≥ start`, `p < end + W` (as `s ≤ end − 1`
//! and `i ≤ W`), and it ends inside the text (`p + 3 ≤ s + m ≤ n`). So the whole class `r` is in
//! the block's bitmap (and the class is not empty: it holds `i = r ≤ 1 ≤ m − 3`). The distance
//! is counted from the block's start, not from the text's, so a block moved by an odd number of
//! bytes at a commit keeps its bitmap. The occurrence itself lies in `[start, end + m − 1)`, the
//! range a candidate block is searched over. The bounds are tight: one more query offset, or one
//! byte less of window in the bitmaps, loses occurrences that start in a block's last byte (the
//! tests plant both).
//!
//! Layout: transposed. Per hash bucket a bitset over the blocks (row-major, `rows[h·stride + g]`
//! holds blocks 64g..64g + 64 of bucket h), so a query reads only its ≤ W rows — 32 × 40 words
//! at 10 MB, about 10 KB, twice: one AND per class — instead of one cache line per block (2,500 at 10 MB: 100–200 µs
//! measured natively with block-major bitmaps, against a few µs). Memory: 2^12 bits per block
//! of 2–8 KB: 1.25 MB per 10 MB when built whole, 2.5 MB at most. Built with the flat text at
//! open and reload ([`BlockGrams::build`]); at a commit only the blocks whose bytes (or window)
//! a change touches are hashed again ([`BlockGrams::updated`]); the others keep their bits —
//! the rows copied whole when every block keeps its number (the usual commit), bit ranges of
//! them moved to the new numbers otherwise.

use std::ops::Range;

/// The block a text is split into: `ceil(len / BLOCK)` even blocks of at most this many bytes.
pub(crate) const BLOCK: usize = 4096;
/// The largest block a commit leaves: a run of blocks an edit touched is split again into as
/// many blocks as it had while they stay under this size, so that the other blocks keep their
/// numbers (their bits are then copied word by word).
pub(crate) const MAX_BLOCK: usize = 2 * BLOCK;
/// The smallest block, except in a text of one block: a re-split run shorter than this takes in
/// a neighbour, so that commits never leave a crumble of tiny blocks (memory grows per block).
pub(crate) const MIN_BLOCK: usize = BLOCK / 2;
/// The window: a block's bitmap holds the trigrams starting in `[start, end + W)`, so a query
/// checks the needle's first `W + 1` trigrams.
pub(crate) const W: usize = 32;
/// Bits per block bitmap: 2^12. Code fills about a third of them per 4 KB.
const BITS_LOG2: u32 = 12;
const WORDS: usize = (1 << BITS_LOG2) / 64;

type Bitmap = [u64; WORDS];

/// A replacement in bytes: `old` (a range of the old text) became `new_len` bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ByteEdit {
    pub old: Range<usize>,
    pub new_len: usize,
}

/// The index of one text: block starts and, per hash bucket, a bitset over the blocks. See the
/// module notes.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct BlockGrams {
    /// Bytes of the text it was built for.
    len: usize,
    /// Block starts, ascending; the first is 0; empty for an empty text.
    starts: Vec<usize>,
    /// Words per row: `ceil(blocks / 64)`.
    stride: usize,
    /// `BUCKETS` rows of `stride` words: bit `b % 64` of `rows[h·stride + b / 64]` says block `b`
    /// holds a trigram of bucket `h`. Bits past the last block are 0.
    rows: Vec<u64>,
}

const BUCKETS: usize = 1 << BITS_LOG2;

impl std::fmt::Debug for BlockGrams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BlockGrams({} bytes, {} blocks)", self.len, self.starts.len())
    }
}

/// The bucket of trigram `tri` (its three bytes in the low 24 bits): a multiplicative hash's top
/// bits, so similar trigrams spread. Always below 2^BITS_LOG2.
#[inline]
fn bucket(tri: u32) -> usize {
    (tri.wrapping_mul(0x9E37_79B1) >> (32 - BITS_LOG2)) as usize
}

/// Sets the bit of every trigram starting at an EVEN offset of `bytes` (0, 2, 4, …; the last two
/// bytes start none): half the hashing of every trigram, see the module notes. Four starts at a
/// time from one 8-byte load and the two bytes after it; the trigram at `p` is
/// `bytes[p] | bytes[p+1] << 8 | bytes[p+2] << 16` either way.
#[inline]
fn add_even_trigrams(bitmap: &mut Bitmap, bytes: &[u8]) {
    let mut set = |tri: u64| {
        let h = bucket(tri as u32 & 0x00FF_FFFF);
        // `h >> 6` < WORDS (bucket < 2^BITS_LOG2): the check compiles away.
        if let Some(word) = bitmap.get_mut(h >> 6) {
            *word |= 1 << (h & 63);
        }
    };
    let mut p = 0;
    while let Some(ten) = bytes.get(p..p + 10) {
        let (Some(eight), Some(&b8), Some(&b9)) = (ten.get(..8).and_then(|s| <[u8; 8]>::try_from(s).ok()), ten.get(8), ten.get(9)) else {
            break;
        };
        let low = u64::from_le_bytes(eight);
        let high = low >> 16 | u64::from(b8) << 48 | u64::from(b9) << 56;
        set(low);
        set(low >> 16);
        set(low >> 32);
        set(high >> 32);
        p += 8;
    }
    let rest = bytes.get(p..).unwrap_or_default();
    // Starts left over (the last chunk without two bytes after it, and the remainder); `p` is
    // even, so the even offsets of `rest` are those of `bytes`.
    for window in rest.windows(3).step_by(2) {
        if let &[a, b, c] = window {
            set(u64::from(a) | u64::from(b) << 8 | u64::from(c) << 16);
        }
    }
}

/// The bitmap of block `start..end` of `text`: trigrams starting in `[start, end + W)` an even
/// distance from `start`, i.e. from the bytes `[start, end + W + 2)` clipped to the text.
fn bitmap_of(text: &[u8], start: usize, end: usize) -> Bitmap {
    let mut bitmap = [0; WORDS];
    let cover_end = end.saturating_add(W + 2).min(text.len());
    add_even_trigrams(&mut bitmap, text.get(start..cover_end).unwrap_or_default());
    bitmap
}

impl BlockGrams {
    /// The index of `text`, split into `ceil(len / BLOCK)` even blocks. Cost: O(n), one pass of
    /// trigram hashing (plus `W + 2` bytes per block), and a 64×64 bit transpose per 64 words
    /// of bitmaps.
    pub(crate) fn build(text: &[u8]) -> BlockGrams {
        let mut starts = Vec::with_capacity(text.len().div_ceil(BLOCK));
        push_split(&mut starts, 0, text.len());
        let mut grams = BlockGrams::empty(text.len(), starts);
        let mut group = Group::default();
        for i in 0..grams.starts.len() {
            let bitmap = bitmap_of(text, grams.start_of(i), grams.end_of(i));
            group.add(&mut grams, i, bitmap);
        }
        group.flush(&mut grams);
        grams
    }

    /// An index of blocks `starts` over `len` bytes with no bit set yet.
    fn empty(len: usize, starts: Vec<usize>) -> BlockGrams {
        let stride = starts.len().div_ceil(64);
        BlockGrams { len, starts, stride, rows: vec![0; BUCKETS * stride] }
    }

    /// Bytes of memory the index holds (its two vectors' contents). Cost: O(1).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.starts.capacity() * std::mem::size_of::<usize>() + self.rows.capacity() * std::mem::size_of::<u64>()
    }

    /// Start of block `i` (the text's end past the last).
    fn start_of(&self, i: usize) -> usize {
        self.starts.get(i).copied().unwrap_or(self.len)
    }

    /// End of block `i` (the next one's start, or the text's end).
    fn end_of(&self, i: usize) -> usize {
        self.starts.get(i + 1).copied().unwrap_or(self.len)
    }

    /// Row `h` (its `stride` words).
    fn row(&self, h: usize) -> &[u64] {
        self.rows.get(h * self.stride..(h + 1) * self.stride).unwrap_or_default()
    }

    /// The index of `text`, which is the text this index was built for with `edits` applied
    /// (sorted, non-overlapping byte ranges of the old text; replacements may touch). A block
    /// keeps its bitmap, at its shifted offset, when no edit touches the bytes its bitmap was
    /// made from (`[start, end + W + 2)`, edges included); each run of touched blocks is split
    /// again from the new text (taking in neighbours while it is shorter than [`MIN_BLOCK`]).
    /// Edits that do not fit (unsorted, out of range, or lengths that do not add up to
    /// `text.len()`) give a fresh [`BlockGrams::build`] instead — never a wrong index.
    /// Cost: O(k·log b) for k edits and b blocks, a copy of the kept bitmaps (O(b)), and hashing
    /// the rebuilt runs (a few KB per edit).
    pub(crate) fn updated(&self, text: &[u8], edits: &[ByteEdit]) -> BlockGrams {
        self.try_update(text, edits).unwrap_or_else(|| BlockGrams::build(text))
    }

    fn try_update(&self, text: &[u8], edits: &[ByteEdit]) -> Option<BlockGrams> {
        // The edits fit the old text and give the new one's length.
        let mut prev_end = 0;
        let mut new_len = self.len;
        for e in edits {
            if e.old.start < prev_end || e.old.start > e.old.end || e.old.end > self.len {
                return None;
            }
            prev_end = e.old.end;
            new_len = (new_len - e.old.len()).checked_add(e.new_len)?;
        }
        if new_len != text.len() || self.starts.is_empty() {
            return None;
        }
        let blocks = self.starts.len();
        // Blocks an edit touches: `start ≤ e.end` and `e.start ≤ end + W + 2`.
        let mut touched = vec![false; blocks];
        for e in edits {
            let hi = self.starts.partition_point(|&s| s <= e.old.end);
            let lo = self.starts.get(1..).unwrap_or_default().partition_point(|&next| next + W + 2 < e.old.start);
            touched.get_mut(lo..hi).unwrap_or_default().iter_mut().for_each(|t| *t = true);
        }
        // Runs of touched blocks; one whose new length is under MIN_BLOCK takes in the block
        // after it (or, at the end, the one before) until it is not, or it is the whole text.
        loop {
            let mut grown = false;
            let runs: Vec<Range<usize>> = self.runs(&touched).collect();
            for run in runs {
                if self.new_len_of(edits, &run)? >= MIN_BLOCK {
                    continue;
                }
                let neighbour = if run.end < blocks { Some(run.end) } else { run.start.checked_sub(1) };
                if let Some(t) = neighbour.and_then(|n| touched.get_mut(n)) {
                    *t = true;
                    grown = true;
                }
            }
            if !grown {
                break;
            }
        }
        // The new blocks: kept ones shifted by the edits before them, runs split again.
        let mut starts = Vec::with_capacity(blocks + edits.len());
        // Kept stretches (old blocks → their first new block) and the blocks to hash.
        let mut kept: Vec<(Range<usize>, usize)> = Vec::new();
        let mut fresh: Vec<usize> = Vec::new();
        let mut shift: isize = 0;
        // Edits inside the runs: all of them, or the kept bits would be wrong.
        let mut placed = 0;
        let mut i = 0;
        let mut runs = self.runs(&touched).peekable();
        while i < blocks {
            if let Some(run) = runs.next_if(|r| r.start == i) {
                let (old_start, old_end) = (self.start_of(run.start), self.end_of(run.end - 1));
                let new_start = old_start.checked_add_signed(shift)?;
                let new_end = new_start.checked_add(self.new_len_of(edits, &run)?)?;
                if new_end > text.len() {
                    return None;
                }
                let first = starts.len();
                let len = new_end - new_start;
                if (run.len() * MIN_BLOCK..=run.len() * MAX_BLOCK).contains(&len) {
                    push_pieces(&mut starts, new_start, new_end, run.len());
                } else {
                    push_split(&mut starts, new_start, new_end);
                }
                fresh.extend(first..starts.len());
                shift = new_end as isize - old_end as isize;
                placed += edits_in(edits, self, &run).count();
                i = run.end;
            } else {
                let end = runs.peek().map_or(blocks, |r| r.start);
                kept.push((i..end, starts.len()));
                for old in i..end {
                    starts.push(self.start_of(old).checked_add_signed(shift)?);
                }
                i = end;
            }
        }
        // Every edit was inside a run, so the shifts add up to the new length.
        if placed != edits.len() || self.len.checked_add_signed(shift)? != text.len() {
            return None;
        }
        let mut out = if starts.len() == blocks && kept.iter().all(|(from, to)| from.start == *to) {
            // The usual commit: each run split again into as many blocks as it had, so every
            // kept block keeps its number: the old rows with the rebuilt blocks' bits cleared.
            let mut keep = vec![u64::MAX; self.stride];
            for &b in &fresh {
                if let Some(word) = keep.get_mut(b / 64) {
                    *word &= !(1 << (b % 64));
                }
            }
            let mut rows = self.rows.clone();
            for row in rows.chunks_exact_mut(self.stride.max(1)) {
                row.iter_mut().zip(&keep).for_each(|(word, keep)| *word &= keep);
            }
            BlockGrams { len: text.len(), starts, stride: self.stride, rows }
        } else {
            let mut out = BlockGrams::empty(text.len(), starts);
            for h in 0..BUCKETS {
                let (old, new) = (self.row(h), out.rows.get_mut(h * out.stride..(h + 1) * out.stride).unwrap_or_default());
                for (from, to) in &kept {
                    copy_bits(new, *to, old, from.start, from.len());
                }
            }
            out
        };
        let mut group = Group::default();
        for b in fresh {
            let bitmap = bitmap_of(text, out.start_of(b), out.end_of(b));
            group.add(&mut out, b, bitmap);
        }
        group.flush(&mut out);
        Some(out)
    }

    /// The length in the new text of the old blocks `run`: their bytes with their edits applied.
    /// `None` when the edits do not fit in them.
    fn new_len_of(&self, edits: &[ByteEdit], run: &Range<usize>) -> Option<usize> {
        let old = self.end_of(run.end.checked_sub(1)?).checked_sub(self.starts.get(run.start).copied()?)?;
        edits_in(edits, self, run).try_fold(old, |len, e| len.checked_sub(e.old.len())?.checked_add(e.new_len))
    }

    /// Maximal runs of `true` in `touched`, as block index ranges, in order.
    fn runs<'a>(&self, touched: &'a [bool]) -> impl Iterator<Item = Range<usize>> + 'a {
        let mut i = 0;
        std::iter::from_fn(move || {
            let start = i + touched.get(i..)?.iter().position(|&t| t)?;
            let end = start + touched.get(start..)?.iter().position(|&t| !t).unwrap_or(touched.len() - start);
            i = end;
            Some(start..end)
        })
    }

    /// The byte ranges where `needle` may START at or after byte `from`, ascending and disjoint:
    /// runs of adjacent blocks that hold all the needle's query buckets. An occurrence starting
    /// in `range` lies in `range.start .. min(range.end + m − 1, len)`. `None` when the index
    /// cannot rule anything out: a needle under 4 bytes (its odd class would be empty), or a
    /// `hay_len` that is not the length of the text it was built for. Cost: O(W · blocks / 64)
    /// word ANDs (the query's rows).
    pub(crate) fn candidates(&self, hay_len: usize, needle: &[u8], from: usize) -> Option<Candidates<'_>> {
        if needle.len() < 4 || hay_len != self.len {
            return None;
        }
        // Trigrams at offsets 0 ..= min(W, m − 3): the bytes needle[..min(W + 3, m)]; the even
        // offsets in one class, the odd ones in the other.
        let head = needle.get(..needle.len().min(W + 3))?;
        let holding = |bytes: &[u8]| -> Vec<u64> {
            let mut query = [0u64; WORDS];
            add_even_trigrams(&mut query, bytes);
            let mut blocks: Vec<u64> = vec![u64::MAX; self.stride];
            for (w, &bits) in query.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let h = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    blocks.iter_mut().zip(self.row(h)).for_each(|(have, &row)| *have &= row);
                }
            }
            blocks
        };
        // A block is a candidate when it holds either class whole.
        let mut blocks = holding(head);
        blocks.iter_mut().zip(holding(head.get(1..)?)).for_each(|(even, odd)| *even |= odd);
        // From the block that holds `from` on.
        let block = self.starts.partition_point(|&s| s <= from).saturating_sub(1);
        Some(Candidates { grams: self, blocks, block })
    }
}

/// Appends to `starts` the starts of `from..to` split into `ceil(len / BLOCK)` even blocks
/// (none when empty): each of MIN_BLOCK..=BLOCK bytes when the span has at least MIN_BLOCK.
fn push_split(starts: &mut Vec<usize>, from: usize, to: usize) {
    push_pieces(starts, from, to, to.saturating_sub(from).div_ceil(BLOCK));
}

/// Appends to `starts` the starts of `from..to` split into `pieces` even blocks.
fn push_pieces(starts: &mut Vec<usize>, from: usize, to: usize, pieces: usize) {
    let len = to.saturating_sub(from);
    // In u64: `p * len` passes 2^32 on wasm32 for a 128 MiB span.
    starts.extend((0..pieces).map(|p| from + ((p as u64 * len as u64) / pieces as u64) as usize));
}

/// Copies `len` bits of `src` from bit `from` into `dst` (zero there) at bit `to`, 64 at a
/// time. Bits that would fall past `dst` are dropped (there are none: callers copy blocks that
/// exist into blocks that exist).
fn copy_bits(dst: &mut [u64], to: usize, src: &[u64], from: usize, len: usize) {
    let read = |at: usize| -> u64 {
        let (w, off) = (at / 64, at % 64);
        let low = src.get(w).copied().unwrap_or(0) >> off;
        if off == 0 {
            low
        } else {
            low | src.get(w + 1).copied().unwrap_or(0) << (64 - off)
        }
    };
    let mut done = 0;
    while done < len {
        let n = (len - done).min(64);
        let bits = if n == 64 { read(from + done) } else { read(from + done) & ((1u64 << n) - 1) };
        let (w, off) = ((to + done) / 64, (to + done) % 64);
        if let Some(word) = dst.get_mut(w) {
            *word |= bits << off;
        }
        if off != 0 {
            if let Some(word) = dst.get_mut(w + 1) {
                *word |= bits >> (64 - off);
            }
        }
        done += n;
    }
}

/// Block bitmaps waiting to be written into the rows, up to the 64 blocks of one row word
/// (group `g`: blocks 64g..64g + 64): many at once are transposed 64×64 bits at a time, a few
/// are written bit by bit.
#[derive(Default)]
struct Group {
    g: usize,
    members: Vec<(usize, Bitmap)>,
}

impl Group {
    /// Adds the bitmap of block `b`, writing out the group first when `b` is in another one.
    fn add(&mut self, grams: &mut BlockGrams, b: usize, bitmap: Bitmap) {
        if b / 64 != self.g {
            self.flush(grams);
            self.g = b / 64;
        }
        self.members.push((b % 64, bitmap));
    }

    /// Writes the group's bitmaps into `grams`' rows and empties it.
    fn flush(&mut self, grams: &mut BlockGrams) {
        let (g, stride) = (self.g, grams.stride);
        let mut set = |h: usize, bits: u64| {
            if let Some(word) = grams.rows.get_mut(h * stride + g) {
                *word |= bits;
            }
        };
        if self.members.len() >= 8 {
            for w in 0..WORDS {
                let mut matrix = [0u64; 64];
                for (j, bitmap) in &self.members {
                    if let (Some(row), Some(&word)) = (matrix.get_mut(*j), bitmap.get(w)) {
                        *row = word;
                    }
                }
                transpose64(&mut matrix);
                for (bit, &blocks) in matrix.iter().enumerate() {
                    set(w * 64 + bit, blocks);
                }
            }
        } else {
            for (j, bitmap) in &self.members {
                for (w, &word) in bitmap.iter().enumerate() {
                    let mut word = word;
                    while word != 0 {
                        set(w * 64 + word.trailing_zeros() as usize, 1 << j);
                        word &= word - 1;
                    }
                }
            }
        }
        self.members.clear();
    }
}

/// Transposes a 64×64 bit matrix in place: bit `j` of `m[i]` becomes bit `i` of `m[j]`
/// (recursive block swaps, Hacker's Delight §7-3).
// Bounds: `k` runs over the indices with bit `j` clear, below 64, so `k + j < 64`.
#[allow(clippy::indexing_slicing)]
fn transpose64(m: &mut [u64; 64]) {
    let mut j = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((m[k] >> j) ^ m[k + j]) & mask;
            m[k] ^= t << j;
            m[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        mask ^= mask << j;
    }
}

/// The edits inside the old byte range of blocks `run` (every edit that touches a block of a
/// run starts in it: [`BlockGrams::updated`] marks the blocks on both sides of an edge).
fn edits_in<'a>(edits: &'a [ByteEdit], grams: &BlockGrams, run: &Range<usize>) -> impl Iterator<Item = &'a ByteEdit> {
    let start = grams.start_of(run.start);
    let end = grams.end_of(run.end.saturating_sub(1));
    let first = edits.partition_point(|e| e.old.start < start);
    edits.get(first..).unwrap_or_default().iter().take_while(move |e| e.old.start <= end)
}

/// [`BlockGrams::candidates`]: runs of candidate blocks as byte ranges.
pub(crate) struct Candidates<'a> {
    grams: &'a BlockGrams,
    /// Bit `b`: block `b` holds every query bucket.
    blocks: Vec<u64>,
    /// The next block to look at.
    block: usize,
}

impl Candidates<'_> {
    /// Whether more than half the blocks are candidates: a plain scan of the text then costs
    /// about the same and starts once, not once per run.
    pub(crate) fn most_blocks(&self) -> bool {
        let ones: usize = self.blocks.iter().map(|w| w.count_ones() as usize).sum();
        ones * 2 > self.grams.starts.len()
    }

    /// The first candidate block at or after `b` (`bit == true`), or the first non-candidate
    /// (`bit == false`); the number of blocks when there is none.
    fn next_with(&self, b: usize, bit: bool) -> usize {
        let mut w = b / 64;
        let flip = if bit { 0 } else { u64::MAX };
        let mut word = self.blocks.get(w).map_or(0, |&x| x ^ flip) & (u64::MAX << (b % 64));
        loop {
            if word != 0 {
                return w * 64 + word.trailing_zeros() as usize;
            }
            w += 1;
            match self.blocks.get(w) {
                Some(&x) => word = x ^ flip,
                None => return self.blocks.len() * 64,
            }
        }
    }
}

impl Iterator for Candidates<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        let first = self.next_with(self.block, true);
        // Blocks past the last one have no bit set, so a run ends at the last block at most.
        let end = self.next_with(first, false).min(self.grams.starts.len());
        if first >= end {
            return None;
        }
        self.block = end;
        Some(self.grams.start_of(first)..self.grams.start_of(end))
    }
}

// The index tests' helpers; those tests are native only (src/matching/exact/index_tests.rs).
#[cfg(all(test, not(target_arch = "wasm32")))]
impl BlockGrams {
    /// What must hold of an index of `text`: it covers exactly the text in ascending, non-empty
    /// blocks of MIN_BLOCK..=MAX_BLOCK bytes (one shorter block only when it is the whole text), and
    /// each bitmap is the one its block's bytes give. `Err` names the first thing that does not.
    pub(crate) fn check(&self, text: &[u8]) -> Result<(), String> {
        if self.len != text.len() {
            return Err(format!("built for {} bytes, the text has {}", self.len, text.len()));
        }
        if text.is_empty() != self.starts.is_empty() || self.starts.first().is_some_and(|&s| s != 0) {
            return Err(format!("the blocks do not start at 0: {:?}", self.starts.first()));
        }
        if self.rows.len() != BUCKETS * self.starts.len().div_ceil(64) {
            return Err(format!("{} row words for {} blocks", self.rows.len(), self.starts.len()));
        }
        for (i, &start) in self.starts.iter().enumerate() {
            let end = self.end_of(i);
            let size = end.checked_sub(start).ok_or(format!("block {i} ends at {end} before its start {start}"))?;
            let alone = self.starts.len() == 1;
            if size == 0 || size > MAX_BLOCK || (size < MIN_BLOCK && !alone) {
                return Err(format!("block {i} ({start}..{end}) has {size} bytes, outside {MIN_BLOCK}..={MAX_BLOCK}"));
            }
            if self.bitmap(i) != bitmap_of(text, start, end) {
                return Err(format!("block {i} ({start}..{end}): its bits are not its bytes'"));
            }
        }
        // Bits past the last block stay 0 (a query would take them for blocks).
        let blocks = self.starts.len();
        if blocks % 64 != 0 && (0..BUCKETS).any(|h| self.row(h).last().is_some_and(|&w| w >> (blocks % 64) != 0)) {
            return Err("a bit is set past the last block".into());
        }
        Ok(())
    }

    /// Block `i`'s bitmap, read back from the rows (for tests).
    pub(crate) fn bitmap(&self, i: usize) -> Bitmap {
        let mut bitmap = [0u64; WORDS];
        for h in 0..BUCKETS {
            if self.row(h).get(i / 64).is_some_and(|&w| w >> (i % 64) & 1 == 1) {
                bitmap[h / 64] |= 1 << (h % 64);
            }
        }
        bitmap
    }

    /// Block starts (for tests).
    pub(crate) fn starts(&self) -> &[usize] {
        &self.starts
    }
}

#[cfg(test)]
#[path = "text_index/tests.rs"]
mod tests;
