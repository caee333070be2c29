//! The block index's bit-level helpers against naive ones (the search through the index is
//! tested beside it, in src/matching/exact/index_tests.rs). Run: `cargo test --lib text_index`.

#[test]
fn transpose_and_bit_copies_are_the_naive_ones() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let m: [u64; 64] = std::array::from_fn(|_| next());
    let mut t = m;
    super::transpose64(&mut t);
    for (i, row) in t.iter().enumerate() {
        for (j, column) in m.iter().enumerate() {
            assert_eq!(row >> j & 1, column >> i & 1, "bit ({i}, {j})");
        }
    }
    let src: Vec<u64> = (0..5).map(|_| next()).collect();
    let bit = |v: &[u64], i: usize| v[i / 64] >> (i % 64) & 1;
    for (from, to, len) in [(0, 0, 320), (3, 70, 200), (64, 1, 63), (100, 127, 1), (5, 0, 0), (17, 200, 64), (63, 63, 130)] {
        let mut dst = vec![0u64; 6];
        super::copy_bits(&mut dst, to, &src, from, len);
        for i in 0..384 {
            let want = if (to..to + len).contains(&i) { bit(&src, from + i - to) } else { 0 };
            assert_eq!(bit(&dst, i), want, "copy {from}->{to} x{len}: bit {i}");
        }
    }
}

#[test]
fn trigram_bits_are_those_of_each_window() {
    // Four starts per load in the bulk, every other window in the tail: the same bits.
    for len in 0..40 {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 37 % 251) as u8).collect();
        let mut fast = [0u64; super::WORDS];
        super::add_even_trigrams(&mut fast, &bytes);
        let mut naive = [0u64; super::WORDS];
        for w in bytes.windows(3).step_by(2) {
            let h = super::bucket(u32::from(w[0]) | u32::from(w[1]) << 8 | u32::from(w[2]) << 16);
            naive[h / 64] |= 1 << (h % 64);
        }
        assert_eq!(fast, naive, "{len} bytes");
    }
}
