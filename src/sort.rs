//! Stable sorting through one instantiation of the standard library's sort.
//!
//! `slice::sort_by` is generic over the element and the comparator, so every call site with its
//! own closure compiles its own copy of driftsort — about 5 KB of wasm each, 101 KB over the
//! crate's call sites (twiggy; docs/performance.md#wasm-size). The vectors sorted here are short (candidates, pending
//! changes, near-miss spans, memory turns), so [`sort_by`] sorts a vector of indices with a
//! `dyn` comparator — one copy of the sort for the whole crate — and moves the elements into that
//! order; only that small move is generic. Hot sorts of many plain values (`sort_unstable` on
//! integer tuples) keep the standard call.
use std::cmp::Ordering;

/// The order that sorts `len` elements stably by `cmp` (which compares elements by index): the
/// one instantiation of the standard sort. Cost: O(n log n) comparisons, one `Vec<usize>`.
fn stable_order(len: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Sorts `v` stably by `cmp`, like `slice::sort_by`. Cost: O(n log n) comparisons through a
/// `dyn` call, and two allocations of n words.
pub(crate) fn sort_by<T>(v: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = {
        let items: &[T] = v;
        stable_order(items.len(), &mut |a, b| match (items.get(a), items.get(b)) {
            (Some(x), Some(y)) => cmp(x, y),
            _ => Ordering::Equal, // not reached: the indices are 0..len
        })
    };
    let mut slots: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    v.extend(order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)));
}

/// Sorts `v` stably by the key `key` returns, like `slice::sort_by_key`.
pub(crate) fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (splitmix64), so the cases are the same on every run.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[test]
    fn agrees_with_the_standard_stable_sort_keys_and_ties_included() {
        let mut state = 7;
        for len in [0usize, 1, 2, 3, 5, 26, 100, 1000] {
            // (key, original position): few distinct keys, so ties are many and stability shows.
            let items: Vec<(u64, usize)> = (0..len).map(|i| (next(&mut state) % 7, i)).collect();
            let mut ours = items.clone();
            sort_by_key(&mut ours, |&(k, _)| k);
            let mut std_sorted = items.clone();
            std_sorted.sort_by_key(|&(k, _)| k);
            assert_eq!(ours, std_sorted, "len {len}");
            let mut desc = items.clone();
            sort_by(&mut desc, |a, b| b.0.cmp(&a.0));
            let mut std_desc = items;
            std_desc.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
            assert_eq!(desc, std_desc, "len {len}, descending");
        }
    }

    #[test]
    fn moves_owned_values_without_cloning_or_dropping_any() {
        let mut v: Vec<String> = ["pear", "fig", "apple", "fig", "kiwi"].iter().map(|s| s.to_string()).collect();
        sort_by_key(&mut v, |s| s.len());
        assert_eq!(v, ["fig", "fig", "pear", "kiwi", "apple"]);
    }
}
