//! Maps and sets of a few entries, kept as a vector sorted by key.
//!
//! `BTreeMap` compiles its node code (search, split, merge, iterators, drop) once per key and
//! value type: about 6 KB of wasm each, 79 KB over the 13 types the crate used (twiggy, issue
//! 7). The maps here hold one entry per open document, per open session or per diagnostics
//! category — a handful — so a sorted vector does their work with a fraction of the code:
//! [`SmallMap`] is a `Vec<(K, V)>` searched by binary search, and only `Vec`'s own methods are
//! instantiated per type. A map collected at once may be large (a transcript's call ids: one
//! sort, O(n log n)); maps filled one insert at a time that grow with the input (the memory
//! store's terms, the call ids still open while a transcript is walked) stay `BTreeMap`s and
//! `BTreeSet`s, since each insert into a sorted vector costs O(n).
//!
//! Iteration is in key order, as with `BTreeMap`, so what is built from these maps (responses,
//! lists of paths) reads the same.
use std::borrow::Borrow;

/// A map of a few entries in key order. Cost: `get`, `contains_key` O(log n); `insert` and
/// `remove` O(n) (the entries after the key move); iteration O(n) in key order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SmallMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap { entries: Vec::new() }
    }
}

impl<K: Ord, V> SmallMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Where `key` is (`Ok`) or would go (`Err`).
    fn position<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        let i = self.position(key).ok()?;
        self.entries.get(i).map(|(_, v)| v)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        let i = self.position(key).ok()?;
        self.entries.get_mut(i).map(|(_, v)| v)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.position(key).is_ok()
    }

    /// Sets `key` to `value`; returns the value it replaces, as `BTreeMap::insert` does (the
    /// key itself is kept).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.position(&key) {
            Ok(i) => self.entries.get_mut(i).map(|(_, v)| std::mem::replace(v, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let i = self.position(key).ok()?;
        Some(self.entries.remove(i).1)
    }

    /// The value of `key`, inserted by `make` first when there is none (`BTreeMap`'s
    /// `entry(key).or_insert_with(make)`).
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.position(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        // Bounds: `i` is the key's index, found or just inserted.
        #[allow(clippy::indexing_slicing)]
        &mut self.entries[i].1
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.into_iter()
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }
}

/// Later pairs win over earlier ones with the same key, as with `BTreeMap`. Cost: O(n log n).
impl<K: Ord, V> FromIterator<(K, V)> for SmallMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut entries: Vec<(K, V)> = iter.into_iter().collect();
        // Stable: equal keys keep their order, so the last of them is the later pair.
        crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
        let mut out: Vec<(K, V)> = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            match out.last_mut() {
                Some(last) if last.0 == k => last.1 = v,
                _ => out.push((k, v)),
            }
        }
        SmallMap { entries: out }
    }
}

impl<K, V> IntoIterator for SmallMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a SmallMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

/// A set of a few values in order: a [`SmallMap`] to `()`. Same costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallSet<T> {
    map: SmallMap<T, ()>,
}

impl<T> Default for SmallSet<T> {
    fn default() -> Self {
        SmallSet { map: SmallMap::default() }
    }
}

impl<T: Ord> SmallSet<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn contains<Q: Ord + ?Sized>(&self, value: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.map.contains_key(value)
    }

    /// Adds `value`; false when it was there already.
    pub fn insert(&mut self, value: T) -> bool {
        self.map.insert(value, ()).is_none()
    }

    /// Takes `value` out; false when it was not there.
    pub fn remove<Q: Ord + ?Sized>(&mut self, value: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.map.remove(value).is_some()
    }

    /// The values in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator {
        self.map.keys()
    }
}

impl<T: Ord> FromIterator<T> for SmallSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        SmallSet { map: iter.into_iter().map(|v| (v, ())).collect() }
    }
}

impl<T: Ord> Extend<T> for SmallSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for v in iter {
            self.insert(v);
        }
    }
}

impl<T> IntoIterator for SmallSet<T> {
    type Item = T;
    type IntoIter = std::iter::Map<std::vec::IntoIter<(T, ())>, fn((T, ())) -> T>;
    fn into_iter(self) -> Self::IntoIter {
        self.map.into_iter().map(|(v, ())| v)
    }
}

// proptest is a native-only dev-dependency: `wasm-pack test` builds the lib's unit tests for
// wasm32 too.
#[cfg(test)]
#[cfg(not(target_arch = "wasm32"))]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[derive(Clone, Debug)]
    enum Op {
        Insert(u8, u16),
        Remove(u8),
        GetOrInsert(u8, u16),
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0u8..24, any::<u16>()).prop_map(|(k, v)| Op::Insert(k, v)),
            2 => (0u8..24).prop_map(Op::Remove),
            2 => (0u8..24, any::<u16>()).prop_map(|(k, v)| Op::GetOrInsert(k, v)),
            1 => Just(Op::Clear),
        ]
    }

    proptest! {
        /// Every operation answers as `BTreeMap` does, and the entries stay sorted and unique.
        #[test]
        fn behaves_as_btree_map(ops in proptest::collection::vec(op(), 0..80)) {
            let mut small: SmallMap<u8, u16> = SmallMap::new();
            let mut model: BTreeMap<u8, u16> = BTreeMap::new();
            for op in ops {
                match op {
                    Op::Insert(k, v) => prop_assert_eq!(small.insert(k, v), model.insert(k, v)),
                    Op::Remove(k) => prop_assert_eq!(small.remove(&k), model.remove(&k)),
                    Op::GetOrInsert(k, v) => {
                        // Wrapping: a generated value may be u16::MAX.
                        let s = small.get_or_insert_with(k, || v);
                        *s = s.wrapping_add(1);
                        let m = model.entry(k).or_insert(v);
                        *m = m.wrapping_add(1);
                    }
                    Op::Clear => {
                        small.clear();
                        model.clear();
                    }
                }
                prop_assert!(small.entries.windows(2).all(|w| w[0].0 < w[1].0), "not sorted: {:?}", small.entries);
                prop_assert_eq!(small.entries.len(), model.len());
                let pairs: Vec<(u8, u16)> = small.iter().map(|(k, v)| (*k, *v)).collect();
                let expected: Vec<(u8, u16)> = model.iter().map(|(k, v)| (*k, *v)).collect();
                prop_assert_eq!(pairs, expected);
                for k in 0u8..24 {
                    prop_assert_eq!(small.get(&k), model.get(&k));
                    prop_assert_eq!(small.contains_key(&k), model.contains_key(&k));
                }
            }
        }

        /// Collecting keeps the later of equal keys, as `BTreeMap` does.
        #[test]
        fn collect_behaves_as_btree_map(pairs in proptest::collection::vec((0u8..16, any::<u16>()), 0..40)) {
            let small: SmallMap<u8, u16> = pairs.iter().copied().collect();
            let model: BTreeMap<u8, u16> = pairs.iter().copied().collect();
            prop_assert_eq!(small.into_iter().collect::<Vec<_>>(), model.into_iter().collect::<Vec<_>>());
        }
    }

    #[test]
    fn string_keys_are_looked_up_by_str() {
        let mut m: SmallMap<String, u32> = SmallMap::new();
        m.insert("b.md".into(), 2);
        m.insert("a.md".into(), 1);
        assert_eq!(m.get("a.md"), Some(&1));
        assert_eq!(m.keys().map(String::as_str).collect::<Vec<_>>(), ["a.md", "b.md"]);
        let mut s: SmallSet<String> = ["z".to_string(), "a".to_string(), "z".to_string()].into_iter().collect();
        assert_eq!(s.iter().count(), 2);
        assert!(s.contains("z"));
        assert!(!s.insert("a".into()));
        assert!(s.remove("a"));
        assert_eq!(s.into_iter().collect::<Vec<_>>(), ["z"]);
    }
}
