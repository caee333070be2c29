//! Lower case without core's case tables: what `char::to_lowercase` gives, from a table of
//! runs an eighth of the size. Core's table lists each of the ~1,460 mappings as a pair of
//! chars (11.7 KB of the wasm's data, which every module of a split keeps whole); here a run of
//! chars that map at one distance (`À`–`Ö` +32; `Ā`, `Ă`, … +1 every other char) is one entry
//! (docs/performance.md#2026-12-04-phrase-tables-packed-lower-case-by-runs). The test below
//! checks every char against `char::to_lowercase`, so the table follows the toolchain's Unicode
//! version: when it fails it prints the table to paste here.

/// The runs of chars whose lower case is one other char, ascending: `(first char, chars in the
/// run, step between them, lower case minus char)`. ASCII is not listed (answered directly), nor
/// U+0130 `İ`, the one char whose lower case is two (`i` U+0307).
const SOURCE: &[(u32, u8, u8, i32)] = &[
    (0x000C0, 23, 1, 32),
    (0x000D8, 7, 1, 32),
    (0x00100, 24, 2, 1),
    (0x00132, 3, 2, 1),
    (0x00139, 8, 2, 1),
    (0x0014A, 23, 2, 1),
    (0x00178, 1, 1, -121),
    (0x00179, 3, 2, 1),
    (0x00181, 1, 1, 210),
    (0x00182, 2, 2, 1),
    (0x00186, 1, 1, 206),
    (0x00187, 1, 1, 1),
    (0x00189, 2, 1, 205),
    (0x0018B, 1, 1, 1),
    (0x0018E, 1, 1, 79),
    (0x0018F, 1, 1, 202),
    (0x00190, 1, 1, 203),
    (0x00191, 1, 1, 1),
    (0x00193, 1, 1, 205),
    (0x00194, 1, 1, 207),
    (0x00196, 1, 1, 211),
    (0x00197, 1, 1, 209),
    (0x00198, 1, 1, 1),
    (0x0019C, 1, 1, 211),
    (0x0019D, 1, 1, 213),
    (0x0019F, 1, 1, 214),
    (0x001A0, 3, 2, 1),
    (0x001A6, 1, 1, 218),
    (0x001A7, 1, 1, 1),
    (0x001A9, 1, 1, 218),
    (0x001AC, 1, 1, 1),
    (0x001AE, 1, 1, 218),
    (0x001AF, 1, 1, 1),
    (0x001B1, 2, 1, 217),
    (0x001B3, 2, 2, 1),
    (0x001B7, 1, 1, 219),
    (0x001B8, 1, 1, 1),
    (0x001BC, 1, 1, 1),
    (0x001C4, 1, 1, 2),
    (0x001C5, 1, 1, 1),
    (0x001C7, 1, 1, 2),
    (0x001C8, 1, 1, 1),
    (0x001CA, 1, 1, 2),
    (0x001CB, 9, 2, 1),
    (0x001DE, 9, 2, 1),
    (0x001F1, 1, 1, 2),
    (0x001F2, 2, 2, 1),
    (0x001F6, 1, 1, -97),
    (0x001F7, 1, 1, -56),
    (0x001F8, 20, 2, 1),
    (0x00220, 1, 1, -130),
    (0x00222, 9, 2, 1),
    (0x0023A, 1, 1, 10795),
    (0x0023B, 1, 1, 1),
    (0x0023D, 1, 1, -163),
    (0x0023E, 1, 1, 10792),
    (0x00241, 1, 1, 1),
    (0x00243, 1, 1, -195),
    (0x00244, 1, 1, 69),
    (0x00245, 1, 1, 71),
    (0x00246, 5, 2, 1),
    (0x00370, 2, 2, 1),
    (0x00376, 1, 1, 1),
    (0x0037F, 1, 1, 116),
    (0x00386, 1, 1, 38),
    (0x00388, 3, 1, 37),
    (0x0038C, 1, 1, 64),
    (0x0038E, 2, 1, 63),
    (0x00391, 17, 1, 32),
    (0x003A3, 9, 1, 32),
    (0x003CF, 1, 1, 8),
    (0x003D8, 12, 2, 1),
    (0x003F4, 1, 1, -60),
    (0x003F7, 1, 1, 1),
    (0x003F9, 1, 1, -7),
    (0x003FA, 1, 1, 1),
    (0x003FD, 3, 1, -130),
    (0x00400, 16, 1, 80),
    (0x00410, 32, 1, 32),
    (0x00460, 17, 2, 1),
    (0x0048A, 27, 2, 1),
    (0x004C0, 1, 1, 15),
    (0x004C1, 7, 2, 1),
    (0x004D0, 48, 2, 1),
    (0x00531, 38, 1, 48),
    (0x010A0, 38, 1, 7264),
    (0x010C7, 1, 1, 7264),
    (0x010CD, 1, 1, 7264),
    (0x013A0, 80, 1, 38864),
    (0x013F0, 6, 1, 8),
    (0x01C89, 1, 1, 1),
    (0x01C90, 43, 1, -3008),
    (0x01CBD, 3, 1, -3008),
    (0x01E00, 75, 2, 1),
    (0x01E9E, 1, 1, -7615),
    (0x01EA0, 48, 2, 1),
    (0x01F08, 8, 1, -8),
    (0x01F18, 6, 1, -8),
    (0x01F28, 8, 1, -8),
    (0x01F38, 8, 1, -8),
    (0x01F48, 6, 1, -8),
    (0x01F59, 4, 2, -8),
    (0x01F68, 8, 1, -8),
    (0x01F88, 8, 1, -8),
    (0x01F98, 8, 1, -8),
    (0x01FA8, 8, 1, -8),
    (0x01FB8, 2, 1, -8),
    (0x01FBA, 2, 1, -74),
    (0x01FBC, 1, 1, -9),
    (0x01FC8, 4, 1, -86),
    (0x01FCC, 1, 1, -9),
    (0x01FD8, 2, 1, -8),
    (0x01FDA, 2, 1, -100),
    (0x01FE8, 2, 1, -8),
    (0x01FEA, 2, 1, -112),
    (0x01FEC, 1, 1, -7),
    (0x01FF8, 2, 1, -128),
    (0x01FFA, 2, 1, -126),
    (0x01FFC, 1, 1, -9),
    (0x02126, 1, 1, -7517),
    (0x0212A, 1, 1, -8383),
    (0x0212B, 1, 1, -8262),
    (0x02132, 1, 1, 28),
    (0x02160, 16, 1, 16),
    (0x02183, 1, 1, 1),
    (0x024B6, 26, 1, 26),
    (0x02C00, 48, 1, 48),
    (0x02C60, 1, 1, 1),
    (0x02C62, 1, 1, -10743),
    (0x02C63, 1, 1, -3814),
    (0x02C64, 1, 1, -10727),
    (0x02C67, 3, 2, 1),
    (0x02C6D, 1, 1, -10780),
    (0x02C6E, 1, 1, -10749),
    (0x02C6F, 1, 1, -10783),
    (0x02C70, 1, 1, -10782),
    (0x02C72, 1, 1, 1),
    (0x02C75, 1, 1, 1),
    (0x02C7E, 2, 1, -10815),
    (0x02C80, 50, 2, 1),
    (0x02CEB, 2, 2, 1),
    (0x02CF2, 1, 1, 1),
    (0x0A640, 23, 2, 1),
    (0x0A680, 14, 2, 1),
    (0x0A722, 7, 2, 1),
    (0x0A732, 31, 2, 1),
    (0x0A779, 2, 2, 1),
    (0x0A77D, 1, 1, -35332),
    (0x0A77E, 5, 2, 1),
    (0x0A78B, 1, 1, 1),
    (0x0A78D, 1, 1, -42280),
    (0x0A790, 2, 2, 1),
    (0x0A796, 10, 2, 1),
    (0x0A7AA, 1, 1, -42308),
    (0x0A7AB, 1, 1, -42319),
    (0x0A7AC, 1, 1, -42315),
    (0x0A7AD, 1, 1, -42305),
    (0x0A7AE, 1, 1, -42308),
    (0x0A7B0, 1, 1, -42258),
    (0x0A7B1, 1, 1, -42282),
    (0x0A7B2, 1, 1, -42261),
    (0x0A7B3, 1, 1, 928),
    (0x0A7B4, 8, 2, 1),
    (0x0A7C4, 1, 1, -48),
    (0x0A7C5, 1, 1, -42307),
    (0x0A7C6, 1, 1, -35384),
    (0x0A7C7, 2, 2, 1),
    (0x0A7CB, 1, 1, -42343),
    (0x0A7CC, 8, 2, 1),
    (0x0A7DC, 1, 1, -42561),
    (0x0A7F5, 1, 1, 1),
    (0x0FF21, 26, 1, 32),
    (0x10400, 40, 1, 40),
    (0x104B0, 36, 1, 40),
    (0x10570, 11, 1, 39),
    (0x1057C, 15, 1, 39),
    (0x1058C, 7, 1, 39),
    (0x10594, 2, 1, 39),
    (0x10C80, 51, 1, 64),
    (0x10D50, 22, 1, 32),
    (0x118A0, 32, 1, 32),
    (0x16E40, 32, 1, 32),
    (0x16EA0, 25, 1, 27),
    (0x1E900, 34, 1, 34),
];

/// [`SOURCE`] packed: the first char in bits 0–20, the run's length in 21–27, a step of 2 in
/// bit 28; then the distance.
static RUNS: [(u32, i32); SOURCE.len()] = pack(SOURCE);

/// `SOURCE` as [`RUNS`]; at compile time, where an index out of range or a field too wide fails
/// the build.
#[allow(clippy::indexing_slicing)]
const fn pack<const N: usize>(source: &[(u32, u8, u8, i32)]) -> [(u32, i32); N] {
    let mut out = [(0, 0); N];
    let mut i = 0;
    while i < N {
        let (first, len, step, delta) = source[i];
        assert!(first < 1 << 21 && len < 1 << 7 && (step == 1 || step == 2));
        out[i] = (first | (len as u32) << 21 | ((step as u32 - 1) << 28), delta);
        i += 1;
    }
    out
}

/// Appends the lower case of `c` to `out`, as `out.extend(c.to_lowercase())`. Cost: O(1) for
/// ASCII, O(log runs) else.
pub fn push_lower(out: &mut String, c: char) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
    } else if c == '\u{130}' {
        out.push_str("i\u{307}");
    } else {
        out.push(lower_one(c));
    }
}

/// The lower case of a char other than U+0130 (which [`push_lower`] answers).
fn lower_one(c: char) -> char {
    let u = c as u32;
    let i = RUNS.partition_point(|(key, _)| key & 0x1F_FFFF <= u);
    let Some(&(key, delta)) = i.checked_sub(1).and_then(|i| RUNS.get(i)) else { return c };
    let (first, len, step) = (key & 0x1F_FFFF, (key >> 21) & 0x7F, ((key >> 28) & 1) + 1);
    let k = u - first;
    if k % step != 0 || k / step >= len {
        return c;
    }
    u.checked_add_signed(delta).and_then(char::from_u32).unwrap_or(c)
}

/// `chars` lower-cased into one string by [`push_lower`]: for a `str`, `str::to_lowercase` without
/// its one rule of context (a final `Σ` reads `ς` there, `σ` here). Cost: O(chars).
pub fn lower_chars(chars: impl Iterator<Item = char>) -> String {
    let mut out = String::with_capacity(chars.size_hint().0);
    for c in chars {
        push_lower(&mut out, c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs of `char::to_lowercase` as [`SOURCE`] lists them, as Rust source.
    fn derived() -> String {
        let mut pairs: Vec<(u32, i64)> = Vec::new();
        for c in (0x80..=0x10FFFF).filter_map(char::from_u32) {
            let mut lower = c.to_lowercase();
            if let (Some(l), None) = (lower.next(), lower.next()) {
                if l != c {
                    pairs.push((c as u32, i64::from(l as u32) - i64::from(c as u32)));
                }
            }
        }
        let mut out = String::new();
        let mut i = 0;
        while i < pairs.len() {
            let (first, delta) = pairs[i];
            let run = |step: u32| (1..).take_while(|&n| pairs.get(i + n as usize) == Some(&(first + n * step, delta))).count() + 1;
            let (len, step) = if run(2) > run(1) { (run(2), 2) } else { (run(1), 1) };
            out.push_str(&format!("    (0x{first:05X}, {len}, {step}, {delta}),\n"));
            i += len;
        }
        out
    }

    #[test]
    fn every_char_lowers_as_core_does() {
        let mut wrong = Vec::new();
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let mut ours = String::new();
            push_lower(&mut ours, c);
            if ours != c.to_lowercase().collect::<String>() {
                wrong.push(c);
            }
        }
        assert!(
            wrong.is_empty(),
            "{} chars lower differently (first {:?}); SOURCE for this toolchain:\n{}",
            wrong.len(),
            wrong.first(),
            derived()
        );
    }

    #[test]
    fn strings_lower_as_core_does_but_a_final_sigma() {
        for s in ["", "Rest Of The CODE", "ÀÉÎ Ōō Ǆ ǅ ǆ", "İstanbul", "\u{212A}elvin \u{212B}", "ΑΒΓ", "𐐀𐐁 Ꭰ ᏸ", "超时 Timeout"]
        {
            assert_eq!(lower_chars(s.chars()), s.to_lowercase(), "{s}");
        }
        assert_eq!(lower_chars("ΟΔΟΣ".chars()), "οδοσ");
        assert_eq!("ΟΔΟΣ".to_lowercase(), "οδος");
    }
}
