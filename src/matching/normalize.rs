//! The fuzzy tiers' normalisations (docs/architecture.md#matching), one line at a time, with a map back to the
//! original characters so that a match found in normalised text is located in the real one.
//!
//! Tiers are cumulative — each ignores what the previous ones ignore and more — so a needle with
//! curly quotes *and* lost indentation is still found (at the `unicode` tier):
//!
//! | tier | ignores |
//! | --- | --- |
//! | `trailing_whitespace` | whitespace at the end of each line |
//! | `indentation` | + whitespace at the start of each line (`new_text` is re-indented) |
//! | `normalization` | + the Unicode normalisation form: `é` as one character or as `e` + U+0301 |
//! | `unicode` | + look-alikes: curly quotes, dashes, NBSP and other spaces, `…`, zero-width chars |
//! | `whitespace` | + the length of whitespace runs inside a line |
//!
//! Line breaks are never normalised away: every tier is line-based.
//!
//! One more tier normalises nothing: `elided` ([`elide`](super::elide)), an `old_text` whose
//! marker lines (`...`, `// ... existing code ...`) stand for lines it left out.

use std::fmt;
use std::ops::ControlFlow;

use super::work::Budget;

/// A tier beyond the exact search, in the order they are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    TrailingWhitespace,
    Indentation,
    /// NFC and NFD alike: every character read in its canonical decomposition.
    Normalization,
    Unicode,
    Whitespace,
    /// Found by the pieces around its marker lines ([`elide`](super::elide)); nothing is
    /// normalised.
    Elided,
}

impl Tier {
    /// Every tier, as reported in `match_quality`.
    pub const ALL: [Tier; 6] =
        [Tier::TrailingWhitespace, Tier::Indentation, Tier::Normalization, Tier::Unicode, Tier::Whitespace, Tier::Elided];
    /// The tiers that normalise lines ([`fuzzy`](super::fuzzy)), in the order they are tried.
    pub const FUZZY: [Tier; 5] = [Tier::TrailingWhitespace, Tier::Indentation, Tier::Normalization, Tier::Unicode, Tier::Whitespace];

    /// The name reported as `match_quality`.
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::TrailingWhitespace => "trailing_whitespace",
            Tier::Indentation => "indentation",
            Tier::Normalization => "normalization",
            Tier::Unicode => "unicode",
            Tier::Whitespace => "whitespace",
            Tier::Elided => "elided",
        }
    }

    pub fn ignores_indentation(self) -> bool {
        matches!(self, Tier::Indentation | Tier::Normalization | Tier::Unicode | Tier::Whitespace)
    }

    /// Whether the tier reads every character in its canonical decomposition.
    pub fn ignores_normalization(self) -> bool {
        matches!(self, Tier::Normalization | Tier::Unicode | Tier::Whitespace)
    }

    fn folds_lookalikes(self) -> bool {
        matches!(self, Tier::Unicode | Tier::Whitespace)
    }

    fn collapses_runs(self) -> bool {
        self == Tier::Whitespace
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The plain-ASCII stand-in of a Unicode look-alike, `Some("")` for zero-width characters, `None`
/// for every other character. Full-width letters and CJK punctuation are left alone: in CJK
/// text `，` and `,` are different characters, not typing accidents.
pub fn fold_lookalike(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2035}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{2036}' => "\"",
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' | '\u{2043}' => "-",
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => " ",
        '\u{200B}' | '\u{2060}' | '\u{FEFF}' => "",
        '\u{2026}' => "...",
        _ => return None,
    })
}

/// Whitespace inside a line (a line never contains `\n`).
pub fn is_line_space(c: char) -> bool {
    c != '\n' && c.is_whitespace()
}

/// True for a character no tier changes or looks through: the verbatim core of a needle, which
/// must occur unchanged in the document wherever the needle matches at any tier.
#[inline]
pub fn is_stable(c: char) -> bool {
    if c.is_ascii() {
        // Most text: no ASCII char folds, so only whitespace and the four targets of folds.
        // (A letter an accent may follow is still stable: the decomposition keeps it.)
        return !c.is_ascii_whitespace() && c != '\u{0B}' && !matches!(c, '\'' | '"' | '-' | '.');
    }
    !c.is_whitespace() && fold_lookalike(c).is_none() && !super::marks::is_mark(c) && !decomposes(c) && !is_conjoining_jamo(c)
}

/// A Hangul conjoining jamo (U+1100–U+11FF): what a syllable (`한`) decomposes into, so at the
/// `normalization` tier a needle's jamo may read a document's syllable — not stable, as a
/// combining mark is not.
fn is_conjoining_jamo(c: char) -> bool {
    ('\u{1100}'..='\u{11FF}').contains(&c)
}

/// Whether `c` has a canonical decomposition (`é`, `Å`, Hangul syllables). Cost: a table lookup.
pub fn decomposes(c: char) -> bool {
    let mut same = true;
    crate::decomposition::decompose_canonical(c, |d| same &= d == c);
    !same
}

/// One line under a tier: the normalised text and, for each of its chars, the original char
/// range (in chars, relative to the line start) it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormLine {
    pub text: Vec<char>,
    /// `spans[i]` = (start, end) in the original line of normalised char `i`.
    pub spans: Vec<(usize, usize)>,
    /// Length of the original line in chars.
    pub original_len: usize,
}

impl NormLine {
    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Original char offset where normalised char `i` starts (the line's end for `i == len`).
    pub fn start_of(&self, i: usize) -> usize {
        self.spans.get(i).map_or(self.original_len, |s| s.0)
    }

    /// Original char offset just past normalised char `i - 1` (0 for `i == 0`).
    pub fn end_before(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            self.spans.get(i - 1).map_or(self.original_len, |s| s.1)
        }
    }
}

/// Normalises one line (no `\n` inside) under `tier`, charging `budget`. Cost: O(line length).
pub fn normalize_line(line: &str, tier: Tier, budget: &mut Budget) -> NormLine {
    let mut text = Vec::with_capacity(line.len());
    let mut spans: Vec<(usize, usize)> = Vec::with_capacity(line.len());
    let original_len = normalize_each(line.chars(), tier, budget, |c, span| {
        text.push(c);
        spans.push(span);
        ControlFlow::Continue(())
    });
    NormLine { text, spans, original_len: original_len.unwrap_or(0) }
}

/// The normalised chars of a line (no `\n` inside) under `tier`, handed to `emit` one by one
/// with the original char range each came from — [`normalize_line`] without building the line:
/// the fuzzy tiers scan a 10 MB line in O(length) time and O(needle) memory this way. `emit`
/// may stop early (`Break`); the result is then `None`, else the line's length in chars.
///
/// Whitespace is held back until a non-space follows, so the trimmed ends are never emitted
/// (leading whitespace from `indentation` on, trailing at every tier) and a collapsed run is
/// emitted once with its whole span. Cost: O(line length); memory O(longest inner whitespace
/// run) below the `whitespace` tier, O(1) from it, two units of `budget` a char read.
pub fn normalize_each(
    line: impl Iterator<Item = char>,
    tier: Tier,
    budget: &mut Budget,
    emit: impl FnMut(char, (usize, usize)) -> ControlFlow<()>,
) -> Option<usize> {
    let (read, whole) = normalize_counted(line, tier, emit);
    NORMALIZED_CHARS.with(|n| n.set(n.get().saturating_add(read as u64)));
    budget.charge(2 * read as u64);
    whole
}

thread_local! {
    /// Chars read by [`normalize_each`] on this thread: the fuzzy tiers' unit of work.
    static NORMALIZED_CHARS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Chars the fuzzy tiers have normalised on this thread so far (a work count, not a time: the
/// core reads no clock). Tests bound it by the input's size. Cost: O(1).
pub fn normalized_chars() -> u64 {
    NORMALIZED_CHARS.with(|n| n.get())
}

/// [`normalize_each`] returning also how many chars of `line` it read.
fn normalize_counted(
    line: impl Iterator<Item = char>,
    tier: Tier,
    mut emit: impl FnMut(char, (usize, usize)) -> ControlFlow<()>,
) -> (usize, Option<usize>) {
    // Spaces pushed since the last non-space, not yet known to be inner.
    let mut held: Vec<(char, (usize, usize))> = Vec::new();
    let mut started = false;
    let mut n = 0usize;
    for (i, c) in line.enumerate() {
        n = i + 1;
        let folded = if tier.folds_lookalikes() { fold_lookalike(c) } else { None };
        let mut one = |out: char| -> ControlFlow<()> {
            if is_line_space(out) {
                match held.last_mut() {
                    // Extend the run's single space over this char.
                    Some(last) if tier.collapses_runs() => last.1 .1 = i + 1,
                    _ => held.push((if tier.collapses_runs() { ' ' } else { out }, (i, i + 1))),
                }
                return ControlFlow::Continue(());
            }
            if started || !tier.ignores_indentation() {
                for (h, span) in held.drain(..) {
                    emit(h, span)?;
                }
            } else {
                held.clear(); // indentation: not part of the normalised line
            }
            started = true;
            emit(out, (i, i + 1))
        };
        let flow = match folded {
            Some(s) => s.chars().try_for_each(&mut one),
            None if tier.ignores_normalization() && !c.is_ascii() => {
                let mut flow = ControlFlow::Continue(());
                crate::decomposition::decompose_canonical(c, |d| {
                    if flow.is_continue() {
                        flow = one(d);
                    }
                });
                flow
            }
            None => one(c),
        };
        if flow.is_break() {
            return (n, None);
        }
    }
    (n, Some(n))
}

/// The leading whitespace of a line.
pub fn indentation(line: &str) -> &str {
    let body = line.trim_start_matches(is_line_space);
    line.strip_suffix(body).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The materialising normaliser `normalize_each` replaced, kept as the model it must agree with.
    fn reference(line: &str, tier: Tier) -> NormLine {
        let mut text = Vec::with_capacity(line.len());
        let mut spans: Vec<(usize, usize)> = Vec::with_capacity(line.len());
        let mut n = 0usize;
        for (i, c) in line.chars().enumerate() {
            n = i + 1;
            let folded = if tier.folds_lookalikes() { fold_lookalike(c) } else { None };
            let mut push = |out: char| {
                let space = is_line_space(out);
                if space && tier.collapses_runs() && text.last().is_some_and(|&p: &char| p == ' ') {
                    // Extend the run's single space over this char.
                    if let Some(last) = spans.last_mut() {
                        *last = (last.0, i + 1);
                    }
                    return;
                }
                text.push(if space && tier.collapses_runs() { ' ' } else { out });
                spans.push((i, i + 1));
            };
            match folded {
                Some(s) => s.chars().for_each(&mut push),
                None if tier.ignores_normalization() => crate::decomposition::decompose_canonical(c, &mut push),
                None => push(c),
            }
        }
        // Trim: trailing whitespace for every tier, leading whitespace from `indentation` on.
        while text.last().is_some_and(|&c| is_line_space(c)) {
            text.pop();
            spans.pop();
        }
        if tier.ignores_indentation() {
            let lead = text.iter().take_while(|&&c| is_line_space(c)).count();
            text.drain(..lead);
            spans.drain(..lead);
        }
        NormLine { text, spans, original_len: n }
    }

    #[test]
    fn the_streaming_normaliser_agrees_with_the_materialising_one() {
        let alphabet = [' ', '\t', 'a', 'b', '\u{00A0}', '\u{200B}', '\u{2026}', '\u{201C}', '-', '\u{3000}', 'é'];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 9) as usize;
            let line: String = (0..len).map(|i| alphabet[((seed >> (4 * i + 8)) % alphabet.len() as u64) as usize]).collect();
            for tier in Tier::FUZZY {
                assert_eq!(normalize_line(&line, tier, &mut Budget::unlimited()), reference(&line, tier), "{line:?} {tier}");
            }
        }
    }

    fn norm(line: &str, tier: Tier) -> String {
        normalize_line(line, tier, &mut Budget::unlimited()).text.into_iter().collect()
    }

    #[test]
    fn tiers_are_cumulative() {
        let line = "\t\u{201C}a\u{00A0}\u{00A0}\u{2014} b\u{201D}  ";
        assert_eq!(norm(line, Tier::TrailingWhitespace), "\t\u{201C}a\u{00A0}\u{00A0}\u{2014} b\u{201D}");
        assert_eq!(norm(line, Tier::Indentation), "\u{201C}a\u{00A0}\u{00A0}\u{2014} b\u{201D}");
        assert_eq!(norm(line, Tier::Unicode), "\"a  - b\"");
        assert_eq!(norm(line, Tier::Whitespace), "\"a - b\"");
    }

    #[test]
    fn spans_point_back_into_the_original_line() {
        let line = "  x\u{3000}\u{3000}= \u{2026}";
        let n = normalize_line(line, Tier::Whitespace, &mut Budget::unlimited());
        assert_eq!(n.text.iter().collect::<String>(), "x = ...");
        // the collapsed run "\u{3000}\u{3000}" is one space covering chars 3..5
        assert_eq!(n.spans[1], (3, 5));
        // the three dots all come from the ellipsis at char 7
        assert_eq!(&n.spans[4..], &[(7, 8), (7, 8), (7, 8)]);
        assert_eq!(n.start_of(0), 2);
        assert_eq!(n.end_before(n.len()), 8);
        assert_eq!(n.start_of(n.len()), 8);
    }

    #[test]
    fn zero_width_characters_vanish_at_the_unicode_tier() {
        assert_eq!(norm("a\u{200B}b", Tier::Unicode), "ab");
        assert_eq!(norm("a\u{200B}b", Tier::Indentation), "a\u{200B}b");
    }

    #[test]
    fn stable_characters_are_what_no_tier_touches() {
        assert!(is_stable('x') && is_stable('中') && is_stable('('));
        for c in [' ', '\t', '\u{00A0}', '\u{2019}', '\'', '"', '-', '.', '\u{2026}', '\u{1112}', '\u{d55c}'] {
            assert!(!is_stable(c), "{c:?}");
        }
        // The ASCII shortcut says what the general rule says.
        for c in (0u8..128).map(char::from) {
            let general = !c.is_whitespace() && fold_lookalike(c).is_none() && !matches!(c, '\'' | '"' | '-' | '.');
            assert_eq!(is_stable(c), general, "{c:?}");
        }
    }

    #[test]
    fn indentation_is_the_leading_whitespace() {
        assert_eq!(indentation("\t  x y"), "\t  ");
        assert_eq!(indentation("   "), "   ");
        assert_eq!(indentation("x"), "");
    }
}
