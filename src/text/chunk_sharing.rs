//! Which chunks of two ropes are the same memory: what a kept version of the live context
//! costs (docs/workflow.md#live-context). A rope edit copies only the chunks it touches and keeps
//! the rest, in their order, so the two ropes' chunks are walked side by side; sorting every
//! chunk address of a 1 MB text (~1,000 chunks) cost a commit about 0.25 ms in wasm
//! (docs/performance.md#commit-and-text).

use ropey::Rope;

/// How far ahead in the other rope a chunk is looked for, and how many chunks in a row may be
/// missing from there before the walk gives up and sorts (~64 KB of text).
const WINDOW: usize = 64;

/// The bytes of `rope`'s chunks that `other` does not share — held at another address, so a
/// copy of their own in memory. A rope edit copies only the chunks (~1 KB each) it touches and
/// shares the rest with the rope it was made from; a rope built from a string shares nothing.
/// Shared chunks are in the same order in both ropes (edits never reorder text), so each chunk
/// is looked for just ahead of the last one found; a chunk not found there is a copy when a
/// later one is found (it would come before it), and a run of more than [`WINDOW`] such chunks,
/// or one at the end with more than that left unmatched, is decided by sorted addresses instead.
/// Cost: O(c) for the c chunks of both ropes plus O([`WINDOW`]) per copied chunk (O(c·log c)
/// when sorting), one vector of c words.
pub fn unshared_bytes(rope: &Rope, other: &Rope) -> usize {
    let mut theirs: Vec<usize> = other.chunks().map(address).collect();
    let mut sorted = false;
    // At most twice: walking in order, then (given up) looking every chunk up by sorted address.
    loop {
        let (mut next, mut misses, mut unshared) = (0, 0, 0);
        for chunk in rope.chunks() {
            if sorted {
                unshared += if theirs.binary_search(&address(chunk)).is_err() { chunk.len() } else { 0 };
                continue;
            }
            let ahead = theirs.get(next..).unwrap_or_default();
            match ahead.iter().take(WINDOW).position(|&a| a == address(chunk)) {
                Some(at) => (next, misses) = (next + at + 1, 0),
                None => {
                    (misses, unshared) = (misses + 1, unshared + chunk.len());
                    if misses > WINDOW {
                        break;
                    }
                }
            }
        }
        let undecided = misses > WINDOW || (misses > 0 && theirs.len() > next + WINDOW);
        if sorted || !undecided {
            return unshared;
        }
        theirs.sort_unstable();
        sorted = true;
    }
}

fn address(chunk: &str) -> usize {
    chunk.as_ptr() as usize
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The measure by definition: every chunk of `rope` looked up among all of `other`'s.
    fn unshared_by_lookup(rope: &Rope, other: &Rope) -> usize {
        let shared: std::collections::HashSet<usize> = other.chunks().map(|c| c.as_ptr() as usize).collect();
        rope.chunks().filter(|c| !shared.contains(&(c.as_ptr() as usize))).map(str::len).sum()
    }

    fn text_of(len: usize) -> String {
        (0..len).map(|i| if i % 7 == 0 { '\n' } else { ['a', '字', 'é', 'z'][i % 4] }).collect()
    }

    #[test]
    fn an_edit_shares_all_but_the_chunks_it_touched_and_a_fresh_rope_shares_nothing() {
        let before = Rope::from_str(&text_of(200_000));
        let mut after = before.clone();
        after.insert(1_000, "inserted");
        after.remove(150_000..150_010);
        let copied = unshared_bytes(&after, &before);
        assert!(copied > 0 && copied < 8 * 1024, "{copied}");
        assert_eq!(copied, unshared_by_lookup(&after, &before));
        assert_eq!(unshared_bytes(&before, &before.clone()), 0);
        let fresh = Rope::from_str(&before.to_string());
        assert_eq!(unshared_bytes(&fresh, &before), fresh.len_bytes());
        // Shared chunks further apart than the walk looks ahead: a long insertion in either.
        let mut long = before.clone();
        long.insert(100_000, &text_of(150_000));
        let split = unshared_bytes(&before, &long);
        assert!(split < 8 * 1024, "only the chunk the insertion split is a copy: {split}");
        assert_eq!(split, unshared_by_lookup(&before, &long));
        assert_eq!(unshared_bytes(&long, &before), unshared_by_lookup(&long, &before));
        long.insert(long.len_chars(), &text_of(150_000));
        assert_eq!(unshared_bytes(&long, &before), unshared_by_lookup(&long, &before));
        // The last chunks shared, but further on in the other rope than the walk looks.
        let mut near_end = before.clone();
        near_end.insert(before.len_chars() - 8_000, &text_of(150_000));
        assert_eq!(unshared_bytes(&before, &near_end), unshared_by_lookup(&before, &near_end));
    }

    proptest! {
        #[test]
        fn the_walk_counts_what_looking_every_chunk_up_counts(
            len in 0usize..60_000,
            edits in prop::collection::vec((0.0f64..1.0, 0usize..3_000, 0usize..5_000), 0..30),
        ) {
            let before = Rope::from_str(&text_of(len));
            let mut after = before.clone();
            for (at, removed, inserted) in edits {
                let start = (at * after.len_chars() as f64) as usize;
                let end = (start + removed).min(after.len_chars());
                after.remove(start..end);
                after.insert(start, &text_of(inserted));
            }
            prop_assert_eq!(unshared_bytes(&after, &before), unshared_by_lookup(&after, &before));
            prop_assert_eq!(unshared_bytes(&before, &after), unshared_by_lookup(&before, &after));
        }
    }
}
