//! The canonical decomposition of one character (`é` → `e` + U+0301), which the `normalization`
//! tier reads every character in (src/matching/normalize.rs).
//!
//! Natively it comes from the `unicode-normalization` crate's tables. In wasm it comes from the
//! JS engine's own (`String.prototype.normalize("NFD")`, in every JS host the module can run in:
//! wasm-bindgen's glue is JS): the module does not carry a second copy of tables its host has,
//! 21.6 KB of the module gzipped (docs/decisions.md#canonical-decomposition-from-the-js-host).
//! The binding registers the host's function at start (src/wasm.rs); each character is asked of
//! the host once per process and kept.

#[cfg(not(target_arch = "wasm32"))]
pub use unicode_normalization::char::decompose_canonical;

#[cfg(target_arch = "wasm32")]
pub use host::{decompose_canonical, set_host};

#[cfg(target_arch = "wasm32")]
mod host {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::sync::OnceLock;

    /// Writes the host's canonical decomposition of a char into the string. Registered by the
    /// binding.
    pub type HostDecomposition = fn(char, &mut String);

    static HOST: OnceLock<HostDecomposition> = OnceLock::new();

    /// Registers the host's decomposition; the first registration stays. Called by the binding.
    pub fn set_host(f: HostDecomposition) {
        let _ = HOST.set(f);
    }

    /// What the host said, per char asked. The Basic Multilingual Plane (most text) is indexed
    /// directly — the tier reads every char of every line it compares, so a lookup must cost no
    /// more than the tables' — and the other planes by a map.
    #[derive(Default)]
    struct Asked {
        /// Per BMP code point: 0 not asked yet, [`NONE`] no decomposition, else
        /// `start << 3 | len` of its chars in `parts`.
        bmp: Vec<u32>,
        parts: Vec<char>,
        other: HashMap<char, Box<[char]>>,
    }

    const NONE: u32 = 1 << 3;

    thread_local! {
        static ASKED: RefCell<Asked> = RefCell::default();
    }

    /// No canonical decomposition: everything below U+00C0, and the unified ideographs (Han text;
    /// the compatibility ideographs, U+F900–FAFF and U+2F800–2FA1F, do decompose). Saves the
    /// lookups of most CJK text. Checked against the tables for every char (tests/wasm.rs).
    fn never_decomposes(u: u32) -> bool {
        u < 0xC0
            || (0x3400..=0x4DBF).contains(&u)
            || (0x4E00..=0x9FFF).contains(&u)
            || (0x2_0000..=0x2_F7FF).contains(&u)
            || (0x3_0000..=0x3_FFFF).contains(&u)
    }

    /// The host's decomposition of `c`, empty when it has none.
    fn ask(host: HostDecomposition, c: char) -> Vec<char> {
        let mut out = String::new();
        host(c, &mut out);
        if out.chars().eq(std::iter::once(c)) {
            Vec::new()
        } else {
            out.chars().collect()
        }
    }

    impl Asked {
        /// `c`'s decomposition (empty: none), asking the host the first time. Cost: O(1) after.
        fn parts(&mut self, host: HostDecomposition, c: char) -> &[char] {
            let u = u32::from(c);
            let Ok(i) = usize::try_from(u) else { return &[] };
            if u > 0xFFFF {
                return self.other.entry(c).or_insert_with(|| ask(host, c).into_boxed_slice());
            }
            if self.bmp.is_empty() {
                self.bmp = vec![0; 0x1_0000];
            }
            let mut entry = self.bmp.get(i).copied().unwrap_or(NONE);
            if entry == 0 {
                let parts = ask(host, c);
                entry = match (u32::try_from(self.parts.len()), u32::try_from(parts.len())) {
                    (Ok(start), Ok(len @ 1..=7)) if start < 1 << 28 => start << 3 | len,
                    _ => NONE, // none (or longer than any canonical decomposition)
                };
                self.parts.extend(parts.iter().take(if entry == NONE { 0 } else { 7 }));
                if let Some(slot) = self.bmp.get_mut(i) {
                    *slot = entry;
                }
            }
            let (start, len) = ((entry >> 3) as usize, (entry & 7) as usize);
            self.parts.get(start..start + len).unwrap_or_default()
        }
    }

    /// Calls `emit` with each char of `c`'s canonical decomposition, or with `c` itself when it
    /// has none (as unicode-normalization's function of the same name). Cost: O(1) for a char
    /// asked before; one call to the host for a char first seen.
    pub fn decompose_canonical(c: char, mut emit: impl FnMut(char)) {
        if never_decomposes(u32::from(c)) {
            return emit(c);
        }
        let Some(&host) = HOST.get() else {
            return emit(c); // no host registered: only before the binding's start, never in the package
        };
        let emit_parts = |parts: &[char], emit: &mut dyn FnMut(char)| match parts {
            [] => emit(c),
            _ => parts.iter().copied().for_each(emit),
        };
        ASKED.with(|asked| match asked.try_borrow_mut() {
            Ok(mut asked) => emit_parts(asked.parts(host, c), &mut emit),
            Err(_) => emit_parts(&ask(host, c), &mut emit), // asked from within an `emit`: not kept
        });
    }
}
