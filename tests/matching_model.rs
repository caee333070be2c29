//! Property test: the chunked memmem search finds exactly what `str::match_indices` finds on the
//! flattened text, for ropes built from many small pieces (so matches straddle chunk seams).
#![cfg(not(target_arch = "wasm32"))]

use agentpad::matching::exact::find_bytes;
use proptest::prelude::*;
use ropey::Rope;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn chunked_search_equals_match_indices(
        pieces in prop::collection::vec("[ab\n中]{0,300}", 1..12),
        needle in "[ab\n中]{1,6}",
    ) {
        // Building by inserts at the end leaves chunk seams at arbitrary places.
        let mut rope = Rope::new();
        for p in &pieces {
            let end = rope.len_chars();
            rope.insert(end, p);
        }
        let flat: String = pieces.concat();
        let model: Vec<usize> = flat.match_indices(needle.as_str()).map(|(i, _)| i).collect();
        prop_assert_eq!(find_bytes(&rope, &needle), model);
    }
}
