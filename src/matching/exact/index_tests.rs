//! The block index never loses an occurrence: searched through it, every needle gets the
//! offsets a plain scan gives (random texts dense in matches, multibyte UTF-8, long runs,
//! needles across block edges and longer than a block, 1–3-byte needles, random `from`), and
//! after random sequences of edits — on bytes directly and through `Text::committed` — the
//! updated index is exactly what its blocks' bytes give (`BlockGrams::check`) and answers as a
//! freshly built one does. Run: `cargo test --lib index_tests`. (Here, beside the search, because they
//! drive it: the index module itself stays below `matching`; its bit-level unit tests are in
//! src/text_index/tests.rs.)

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;

use crate::changeset::ChangeSet;
use crate::matching::exact::occurrences_in;
use crate::text::Text;
use crate::text_index::{BlockGrams, ByteEdit, BLOCK, W};

/// Text dense in matches — a few chars (1 to 4 bytes in UTF-8) in short stretches, and long
/// runs of one char, so runs straddle block edges and bordered needles occur everywhere — and
/// stretches of many different chars, whose blocks' bitmaps differ, so the index does rule
/// blocks out (in dense text every block holds every trigram, and nothing is tested).
fn text_strategy(max_pieces: usize) -> impl Strategy<Value = String> {
    let ch = prop_oneof![Just('a'), Just('b'), Just(' '), Just('\n'), Just('é'), Just('中'), Just('😀')];
    let diverse =
        prop_oneof![8 => proptest::char::range('!', '~'), 1 => Just('é'), 1 => proptest::char::range('一', '龥'), 1 => Just('😀')];
    let piece = prop_oneof![
        3 => proptest::collection::vec(ch.clone(), 1..400).prop_map(|v| v.into_iter().collect::<String>()),
        1 => (ch, 1usize..6000).prop_map(|(c, n)| c.to_string().repeat(n)),
        4 => proptest::collection::vec(diverse, 1..3000).prop_map(|v| v.into_iter().collect::<String>()),
    ];
    proptest::collection::vec(piece, 0..max_pieces).prop_map(|v| v.concat())
}

/// The char boundary at or before byte `at` of `s` (clamped to its length).
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A needle for `text`: a substring (starting anywhere, or just before a block edge of `grams`,
/// where an occurrence straddles two blocks), possibly with one char changed so it may occur
/// nowhere, or a short string of the alphabet.
fn needle_for(text: &str, grams: &BlockGrams, pick: (u8, usize, usize, usize, char)) -> String {
    let (kind, a, len, edge, c) = pick;
    let starts = grams.starts();
    let start = match kind % 4 {
        0 | 1 => a % (text.len() + 1),
        2 => starts.get(edge % starts.len().max(1)).map_or(0, |&s| s.saturating_sub(1 + a % 4)),
        _ => starts.get(edge % starts.len().max(1)).map_or(0, |&s| s.saturating_sub(a % (W + 8))),
    };
    let start = floor_boundary(text, start);
    let end = floor_boundary(text, start + len);
    let mut needle = text.get(start..end).unwrap_or_default().to_string();
    match kind % 8 {
        // one char swapped for another: a near miss, or another needle of the alphabet
        6 if !needle.is_empty() => {
            let at = floor_boundary(&needle, a % needle.len());
            let next = at + needle[at..].chars().next().map_or(0, char::len_utf8);
            needle.replace_range(at..next, &c.to_string());
        }
        7 => needle = c.to_string().repeat(1 + len % 4),
        _ => {}
    }
    needle
}

fn needle_pick() -> impl Strategy<Value = (u8, usize, usize, usize, char)> {
    let len = prop_oneof![3 => 1usize..8, 3 => 8usize..80, 1 => 80usize..9000];
    // (several needles per case, so edge-straddling long needles come up often)
    (any::<u8>(), any::<usize>(), len, any::<usize>(), prop_oneof![Just('a'), Just('b'), Just(' '), Just('中'), Just('x')])
}

/// Asserts that `grams` answers every needle as the plain scan does, from several starts.
fn assert_answers_like_a_scan(text: &str, grams: &BlockGrams, needles: &[String], froms: &[usize]) -> Result<(), TestCaseError> {
    for needle in needles.iter().filter(|n| !n.is_empty()) {
        for &from in froms {
            let from = floor_boundary(text, from % (text.len() + 1));
            let plain = occurrences_in(text.as_bytes(), needle.as_bytes(), from, None);
            let indexed = occurrences_in(text.as_bytes(), needle.as_bytes(), from, Some(grams));
            prop_assert_eq!(&indexed, &plain, "needle {:?} ({} bytes) from {}", needle.get(..needle.len().min(40)), needle.len(), from);
        }
    }
    Ok(())
}

/// Random byte edits over `len` bytes, sorted and non-overlapping (touching and several
/// insertions at one point allowed), some placed on block edges of `grams`.
fn byte_edits(len: usize, grams: &BlockGrams, raw: &[(bool, usize, usize, usize)]) -> Vec<ByteEdit> {
    let starts = grams.starts();
    let mut points: Vec<(usize, usize, usize)> = raw
        .iter()
        .map(|&(on_edge, a, cut, new_len)| {
            // Near a block start: just before it, just after it, or where the window of the block
            // before it ends (start + W .. start + W + 3).
            let near = |s: usize| match a % 3 {
                0 => s.saturating_sub(a / 3 % 4),
                1 => s + a / 3 % 4,
                _ => s + W - 1 + a / 3 % 5,
            };
            let at = if on_edge { starts.get(a / 16 % starts.len().max(1)).map_or(0, |&s| near(s)) } else { a % (len + 1) };
            (at.min(len), cut, new_len)
        })
        .collect();
    points.sort_unstable();
    let mut at = 0;
    let mut edits = Vec::new();
    for (start, cut, new_len) in points {
        let start = start.max(at);
        let end = (start + cut).min(len);
        edits.push(ByteEdit { old: start..end, new_len });
        at = end;
    }
    edits
}

/// `old` with `edits` applied, the new bytes taken from `fill` (cycled).
fn apply_bytes(old: &[u8], edits: &[ByteEdit], fill: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut k = 0usize;
    for e in edits {
        out.extend_from_slice(&old[at..e.old.start]);
        for _ in 0..e.new_len {
            out.push(fill[k % fill.len()]);
            k += 1;
        }
        at = e.old.end;
    }
    out.extend_from_slice(&old[at..]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Through the index, every needle finds what the plain scan finds.
    #[test]
    fn the_index_finds_what_a_scan_finds(
        text in text_strategy(40),
        picks in proptest::collection::vec(needle_pick(), 1..12),
        froms in proptest::collection::vec(any::<usize>(), 1..4),
    ) {
        let grams = BlockGrams::build(text.as_bytes());
        grams.check(text.as_bytes()).map_err(TestCaseError::fail)?;
        let needles: Vec<String> = picks.into_iter().map(|p| needle_for(&text, &grams, p)).collect();
        let mut froms = froms;
        froms.push(0);
        assert_answers_like_a_scan(&text, &grams, &needles, &froms)?;
    }

    /// After random byte edits (any bytes, not only UTF-8), step after step, the updated index
    /// is exactly what its blocks' bytes give, and answers as a fresh one.
    #[test]
    fn updated_bytes_index_is_exact_after_every_step(
        start in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b'\n'), any::<u8>(), any::<u8>()], 0..30_000),
        steps in proptest::collection::vec(
            proptest::collection::vec((any::<bool>(), any::<usize>(), prop_oneof![4 => 0usize..40, 1 => 0usize..9000], prop_oneof![4 => 0usize..40, 1 => 0usize..9000]), 0..8),
            1..6,
        ),
        fill in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), any::<u8>()], 1..50),
    ) {
        let mut bytes = start;
        let mut grams = BlockGrams::build(&bytes);
        for raw in steps {
            let edits = byte_edits(bytes.len(), &grams, &raw);
            let next = apply_bytes(&bytes, &edits, &fill);
            let updated = grams.updated(&next, &edits);
            updated.check(&next).map_err(|e| TestCaseError::fail(format!("after {edits:?}: {e}")))?;
            // The same trigram bits for every byte range: any needle gets the fresh index's answer.
            let fresh = BlockGrams::build(&next);
            // Probes: short ones, and 40 bytes starting in the last byte of a block (the window's edge).
            let mut probes: Vec<&[u8]> = vec![&next[..next.len().min(5)], &fill[..], b"ab\n", b"bab"];
            probes.extend(updated.starts().iter().skip(1).step_by(2).map(|&s| &next[s - 1..(s + 39).min(next.len())]));
            for probe in probes {
                if !probe.is_empty() {
                    prop_assert_eq!(occurrences_in(&next, probe, 0, Some(&updated)), occurrences_in(&next, probe, 0, Some(&fresh)));
                    prop_assert_eq!(occurrences_in(&next, probe, 0, Some(&updated)), occurrences_in(&next, probe, 0, None));
                }
            }
            bytes = next;
            grams = updated;
        }
    }

    /// Through `Text::committed`, the way a commit makes the new text: change sets in chars over
    /// multibyte text, commit after commit; the index is exact and every needle is found as
    /// a scan finds it.
    #[test]
    fn committed_texts_carry_an_exact_index(
        raw in text_strategy(30),
        commits in proptest::collection::vec(
            proptest::collection::vec((any::<usize>(), prop_oneof![4 => 0usize..30, 1 => 0usize..6000], text_strategy(3)), 0..6),
            1..5,
        ),
        picks in proptest::collection::vec(needle_pick(), 1..6),
    ) {
        let mut text = Text::from_storage(&raw.replace('\u{FEFF}', ""));
        for cuts in commits {
            let n = text.rope().len_chars();
            let mut sorted: Vec<(usize, usize, String)> = cuts.into_iter().map(|(a, len, s)| (a % (n + 1), len, s)).collect();
            sorted.sort_by_key(|c| c.0);
            let mut set = ChangeSet::new(n);
            let mut at = 0;
            for (start, len, with) in sorted {
                let start = start.max(at);
                let end = (start + len).min(n);
                set.try_push(start..end, with).unwrap();
                at = end;
            }
            let draft = set.apply(text.rope()).unwrap();
            let next = text.committed(draft, &set);
            let (flat, grams) = next.flat_and_grams();
            let grams = grams.expect("a committed text comes with its index");
            grams.check(flat.as_bytes()).map_err(TestCaseError::fail)?;
            let needles: Vec<String> = picks.iter().map(|&p| needle_for(flat, grams, p)).collect();
            assert_answers_like_a_scan(flat, grams, &needles, &[0, flat.len() / 2])?;
            text = next;
        }
    }
}

#[test]
fn a_small_edit_hashes_only_the_blocks_around_it() {
    let text = "fn alpha() { beta(1, 2); }\n".repeat(40_000); // ~1 MB, 264 blocks
    let grams = BlockGrams::build(text.as_bytes());
    let at = text.len() / 2;
    let edits = [ByteEdit { old: at..at + 5, new_len: 9 }];
    let mut next = text.as_bytes().to_vec();
    next.splice(at..at + 5, *b"123456789");
    let updated = grams.updated(&next, &edits);
    updated.check(&next).unwrap();
    // Kept blocks: same bitmap at the same offset before the edit, shifted by 4 after it.
    let kept = (0..grams.starts().len())
        .filter(|&i| {
            let s = grams.starts()[i];
            let moved = if s > at { s + 4 } else { s };
            updated.starts().iter().position(|&t| t == moved).is_some_and(|j| updated.bitmap(j) == grams.bitmap(i))
        })
        .count();
    assert!(kept + 3 >= grams.starts().len(), "{kept} of {} blocks kept", grams.starts().len());
    assert_ne!(updated, BlockGrams::build(&next), "not a fresh build (whose blocks would all move)");
}

#[test]
fn edits_that_do_not_fit_give_a_fresh_index() {
    let text = b"abcabcabc".repeat(2000);
    let grams = BlockGrams::build(&text);
    let short = &text[..text.len() - 1];
    for edits in [
        vec![ByteEdit { old: std::ops::Range { start: 5, end: 3 }, new_len: 0 }],
        vec![ByteEdit { old: 10..12, new_len: 1 }, ByteEdit { old: 4..6, new_len: 2 }],
        vec![ByteEdit { old: 0..text.len() + 1, new_len: 0 }],
        vec![ByteEdit { old: 0..0, new_len: 0 }], // lengths do not add up to `short`'s
    ] {
        assert_eq!(grams.updated(short, &edits), BlockGrams::build(short), "{edits:?}");
    }
}

#[test]
fn tiny_and_empty_texts() {
    for text in ["", "a", "ab", "abc", "abcd"] {
        let grams = BlockGrams::build(text.as_bytes());
        grams.check(text.as_bytes()).unwrap();
        for needle in ["a", "ab", "abc", "bcd", "abcd", "abcde"] {
            assert_eq!(
                occurrences_in(text.as_bytes(), needle.as_bytes(), 0, Some(&grams)),
                occurrences_in(text.as_bytes(), needle.as_bytes(), 0, None)
            );
        }
    }
    let grams = BlockGrams::build(b"abc");
    let emptied = grams.updated(b"", &[ByteEdit { old: 0..3, new_len: 0 }]);
    emptied.check(b"").unwrap();
    let grown = emptied.updated(&b"xy".repeat(BLOCK), &[ByteEdit { old: 0..0, new_len: 2 * BLOCK }]);
    grown.check(&b"xy".repeat(BLOCK)).unwrap();
}

#[test]
fn a_unique_needle_reads_few_blocks() {
    // The point of the index: on 1 MB of repetitive code, a line that occurs once leaves one or
    // two candidate blocks, not the whole text.
    let mut text = "    let total = items.iter().map(|x| x.len()).sum::<usize>();\n".repeat(16_000);
    let at = text.len() * 5 / 8;
    let at = floor_boundary(&text, at);
    text.insert_str(at, "    let ledger = reconcile_quarterly_ledger(&snapshot, Mode::Strict)?;\n");
    let grams = BlockGrams::build(text.as_bytes());
    let runs: Vec<_> =
        grams.candidates(text.len(), b"    let ledger = reconcile_quarterly_ledger(&snapshot, Mode::Strict)?;", 0).unwrap().collect();
    let bytes: usize = runs.iter().map(|r| r.len()).sum();
    assert!(bytes <= 2 * BLOCK, "{runs:?}");
}
