//! Chars of UTF-8 text counted fast, for the exact search's byte → char offsets
//! (docs/performance.md#cjk-text).

/// The chars of `s`: its bytes that are not UTF-8 continuation bytes (`0b10xx_xxxx`), 16 at a
/// time: `str::chars().count()` reads a machine word at a time, 4 bytes in wasm32, and counting
/// the chars between the hits of a find-all on 1 MB of CJK took as long as the `memmem` that
/// found them (docs/performance.md#cjk-text). Cost: O(len).
pub(crate) fn count_chars(s: &str) -> usize {
    chars_starting_in(s.as_bytes())
}

/// The chars that start in `bytes` (a piece of UTF-8 text cut anywhere): its bytes that are not
/// continuation bytes, as [`count_chars`] counts them. Cost: O(len).
pub(crate) fn chars_starting_in(bytes: &[u8]) -> usize {
    let mut blocks = bytes.chunks_exact(16);
    let continuations = continuation_bytes_in(&mut blocks);
    let rest = blocks.remainder();
    bytes.len() - rest.len() - continuations + rest.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// The bytes of a block of [`char_blocks`].
pub(crate) const CHAR_BLOCK: usize = 512;

/// The char offset of every [`CHAR_BLOCK`]-byte block of the UTF-8 text `bytes` (entry `i`: the
/// chars before byte `i * CHAR_BLOCK`), so that the char offset of a byte offset is an entry
/// plus the chars of at most a block: [`crate::text::Text::char_blocks`] keeps it with the
/// flat text (a word per 512 bytes). Cost: O(len).
pub(crate) fn char_blocks(bytes: &[u8]) -> Box<[usize]> {
    let mut chars = 0;
    bytes
        .chunks(CHAR_BLOCK)
        .map(|block| {
            let before = chars;
            chars += chars_starting_in(block);
            before
        })
        .collect()
}

/// The continuation bytes of `blocks` (16 bytes each): two `u64`s a block, their continuation
/// bytes' top bits counted by `count_ones`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn continuation_bytes_in(blocks: &mut std::slice::ChunksExact<'_, u8>) -> usize {
    let mut continuations = 0;
    for block in blocks {
        let (low, high) = halves(block);
        continuations += (continuation_bytes(low) + continuation_bytes(high)) as usize;
    }
    continuations
}

/// The continuation bytes of `blocks` (16 bytes each) in wasm's 128-bit lanes: a block is one
/// vector (built from its two `u64`s: a vector load from a slice needs `unsafe`), its
/// continuation bytes (below -64 as `i8`) subtracted as -1 from 16 byte-wide counters, which are
/// added up every 255 blocks, before one can wrap. About three times the `u64` count's speed.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn continuation_bytes_in(blocks: &mut std::slice::ChunksExact<'_, u8>) -> usize {
    use core::arch::wasm32::{
        i64x2, i8x16_lt, i8x16_splat, i8x16_sub, u16x8_extadd_pairwise_u8x16, u32x4_extadd_pairwise_u16x8, u32x4_extract_lane, u8x16_splat,
    };
    let below = i8x16_splat(-0x40);
    let mut continuations = 0;
    let mut runs = 0;
    let mut lanes = u8x16_splat(0);
    let add_up = |lanes| {
        let wide = u32x4_extadd_pairwise_u16x8(u16x8_extadd_pairwise_u8x16(lanes));
        (u32x4_extract_lane::<0>(wide) + u32x4_extract_lane::<1>(wide) + u32x4_extract_lane::<2>(wide) + u32x4_extract_lane::<3>(wide))
            as usize
    };
    for block in blocks {
        let (low, high) = halves(block);
        let v = i64x2(low as i64, high as i64);
        // A lane of the comparison is all ones (-1) where the byte continues a char.
        lanes = i8x16_sub(lanes, i8x16_lt(v, below));
        runs += 1;
        if runs == 255 {
            continuations += add_up(lanes);
            lanes = u8x16_splat(0);
            runs = 0;
        }
    }
    continuations + add_up(lanes)
}

/// A 16-byte block as two little-endian `u64`s (zeros for a shorter slice, which
/// `chunks_exact(16)` never gives).
#[inline]
fn halves(block: &[u8]) -> (u64, u64) {
    let word = |at: usize| block.get(at..at + 8).and_then(|b| <[u8; 8]>::try_from(b).ok()).map_or(0, u64::from_le_bytes);
    (word(0), word(8))
}

/// The bytes of `w` with bit 7 set and bit 6 clear (`w << 1` moves each byte's bit 6 to its bit 7).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline]
fn continuation_bytes(w: u64) -> u32 {
    (w & !(w << 1) & 0x8080_8080_8080_8080).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_chars_count_counts() {
        let pieces = ["", "a", "中", "😀", "é", "x = 1;\n", "中文 ab\n", "\u{0301}", "ÿ€"];
        // Lengths around the 16-byte blocks, mixed widths.
        for n in [0, 1, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1_361, 10_000] {
            for (i, p) in pieces.iter().enumerate() {
                let s: String = (0..n).map(|k| pieces[(i + k) % pieces.len()]).chain([*p]).collect();
                assert_eq!(count_chars(&s), s.chars().count(), "{n} pieces from {i}");
            }
        }
    }

    #[test]
    fn blocks_give_the_chars_before_each_block_start() {
        // 1, 2, 3 and 4-byte chars, so that block starts fall inside chars too.
        let s: String = ["a", "é", "中", "😀", "\n"].iter().cycle().take(3 * CHAR_BLOCK + 7).copied().collect();
        let blocks = char_blocks(s.as_bytes());
        assert_eq!(blocks.len(), s.len().div_ceil(CHAR_BLOCK));
        for (i, &chars) in blocks.iter().enumerate() {
            let start = i * CHAR_BLOCK;
            let model = s.char_indices().take_while(|&(b, _)| b < start).count();
            assert_eq!(chars, model, "block {i}");
            // A piece cut inside a char counts the chars that start in it.
            let piece = &s.as_bytes()[start..(start + 100).min(s.len())];
            let starting = s.char_indices().filter(|&(b, _)| (start..start + piece.len()).contains(&b)).count();
            assert_eq!(chars_starting_in(piece), starting, "piece at {start}");
        }
    }
}
