//! The text rules several modules share, in one place so that they cannot drift apart: which
//! characters are CJK, how a text splits into words, where Markdown headings and code fences
//! are, how a text is cut short or kept on one line, and Myers' diff over `similar`.
//!
//! Each rule is plain and pure; the modules that use it add their own policy on top (stop
//! words, bigrams, budgets).

use similar::algorithms::{myers, Capture, Replace};
use similar::DiffOp;

mod case;
pub use case::{lower_chars, push_lower};

// ---- CJK --------------------------------------------------------------------------------------

/// CJK letters, as inclusive code point ranges in ascending order: Han (with extensions and
/// compatibility ideographs), Hiragana, Katakana (with half-width forms), Bopomofo, Hangul
/// syllables and jamo, `々` and `〇`. www/playground/src/cjk-ranges.ts is rendered from these.
pub const CJK_LETTERS: &[(u32, u32)] = &[
    (0x1100, 0x11FF),
    (0x3005, 0x3005),
    (0x3007, 0x3007),
    (0x3040, 0x30FF),
    (0x3100, 0x312F),
    (0x3130, 0x318F),
    (0x31A0, 0x31BF),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7AF),
    (0xD7B0, 0xD7FF),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFF9F),
    (0x20000, 0x323AF),
];

/// What sits between CJK letters and is as wide as one: CJK radicals and ideographic
/// description characters, CJK symbols and punctuation, Kanbun, strokes, enclosed and
/// compatibility forms, Yijing hexagrams, full-width forms, and the rest of planes 2 and 3.
pub const CJK_MARKS: &[(u32, u32)] =
    &[(0x2E80, 0x2FFF), (0x3000, 0x303F), (0x3190, 0x33FF), (0x4DC0, 0x4DFF), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF)];

fn in_ranges(c: char, ranges: &[(u32, u32)]) -> bool {
    let c = c as u32;
    ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// A CJK letter ([`CJK_LETTERS`]): searched by character bigrams, one word each.
/// Cost: O(1) (ASCII and Latin return at the first comparison).
pub fn is_cjk(c: char) -> bool {
    (c as u32) >= 0x1100 && in_ranges(c, CJK_LETTERS)
}

/// A CJK letter or a CJK mark ([`CJK_MARKS`]): a wide character, about one model token, and
/// one diff token on its own. Cost: O(1).
pub fn is_wide(c: char) -> bool {
    is_cjk(c) || ((c as u32) >= 0x2E80 && in_ranges(c, CJK_MARKS))
}

// ---- words ------------------------------------------------------------------------------------

/// A char of an identifier or number: a letter or digit outside CJK, or `_`. Where such chars
/// meet, a token goes on: a match or region edge between two of them cuts a word, and the
/// three-way apply's tokens run over them. Cost: O(1).
pub fn is_word_char(c: char) -> bool {
    !is_wide(c) && (c.is_alphanumeric() || c == '_')
}

/// What a character is to a word tokeniser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharClass {
    /// A letter or digit outside CJK, or a combining mark (so a decomposed `é` stays in its word).
    Word,
    /// A CJK letter ([`is_cjk`]).
    Cjk,
    /// Everything else: it separates words.
    Other,
}

/// Combining marks that continue a word.
fn is_combining(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// The class of `c`. Cost: O(1).
pub fn char_class(c: char) -> CharClass {
    if is_cjk(c) {
        CharClass::Cjk
    } else if c.is_alphanumeric() || is_combining(c) {
        CharClass::Word
    } else {
        CharClass::Other
    }
}

/// The maximal runs of `chars` of one class that make words — `Word` runs and `Cjk` runs, each
/// with the char offset where it starts; `Other` runs are skipped. `_`, `.`, `-` separate
/// (`api_timeout` → `api`, `timeout`). Cost: O(n).
pub fn word_runs(chars: &[char]) -> impl Iterator<Item = (CharClass, usize, &[char])> {
    let mut next = 0;
    chars.chunk_by(|a, b| char_class(*a) == char_class(*b)).filter_map(move |run| {
        let start = next;
        next += run.len();
        let class = char_class(*run.first()?);
        (class != CharClass::Other).then_some((class, start, run))
    })
}

/// A `Word` run lower-cased (`Timeout` → `timeout`). Cost: O(run).
pub fn lower(run: &[char]) -> String {
    lower_chars(run.iter().copied())
}

// ---- Markdown headings and fences ---------------------------------------------------------------

// CommonMark's rules (https://spec.commonmark.org/0.31.2/#atx-headings and #fenced-code-blocks):
// up to three spaces of indentation (four make indented code); a fence is three or more
// backticks or tildes, closed by a run of the same char at least as long with nothing after it.

/// An ATX heading (`#` … `######` after at most 3 spaces, then a space, a tab or the end):
/// its level and its text, trimmed, without the closing `#` sequence (`## a ##` → `(2, "a")`;
/// `# C#` keeps its `#`). Cost: O(line).
pub fn atx_heading(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 {
        return None;
    }
    let rest = t.trim_start_matches('#');
    let level = t.len() - rest.len();
    if !(1..=6).contains(&level) || !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let text = rest.trim();
    let stripped = text.trim_end_matches('#');
    // The closing sequence counts only after a blank (or as the whole text).
    let text = if stripped.is_empty() || stripped.ends_with([' ', '\t']) { stripped.trim_end() } else { text };
    Some((level, text))
}

/// An open code fence: its char (`` ` `` or `~`), the length of its run and its indentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fence {
    pub ch: char,
    pub len: usize,
    pub indent: usize,
}

/// The fence `line` opens, if it is an opening fence: 3 or more backticks or tildes after at
/// most 3 spaces; a backtick fence's info string holds no backtick. Cost: O(line).
pub fn fence_open(line: &str) -> Option<Fence> {
    let t = line.trim_start_matches(' ');
    let indent = line.len() - t.len();
    let ch = t.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let info = t.trim_start_matches(ch);
    let len = t.len() - info.len();
    (indent <= 3 && len >= 3 && !(ch == '`' && info.contains('`'))).then_some(Fence { ch, len, indent })
}

impl Fence {
    /// Whether `line` closes this fence: at most 3 spaces, a run of the same char at least as
    /// long, then only spaces and tabs. Cost: O(line).
    pub fn is_closed_by(&self, line: &str) -> bool {
        let t = line.trim_start_matches(' ');
        let rest = t.trim_start_matches(self.ch);
        line.len() - t.len() <= 3 && t.len() - rest.len() >= self.len && rest.trim_matches([' ', '\t']).is_empty()
    }
}

// ---- short texts ------------------------------------------------------------------------------

/// `s` cut to at most `max` chars, with `…` added when something was cut (so up to `max + 1`
/// chars). Char-safe. Cost: O(max).
pub fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((at, _)) => format!("{}…", s.get(..at).unwrap_or_default()),
    }
}

/// `s` cut to at most `max` chars in all, the `…` that marks a cut included. Char-safe.
/// Cost: O(len).
pub fn clip_within(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `s` on one line: every `\n` and `\r` becomes a space. Cost: O(len).
pub fn one_line(s: &str) -> String {
    s.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect()
}

// ---- Myers' diff ------------------------------------------------------------------------------

/// Myers' edit script of `a` against `b`, uncompacted: similar 2.x's `Compact` hook (used by
/// `capture_diff_slices`) can leave ops with inconsistent indices (mitsuhiko/similar#78, fixed
/// in 3.1), which would misplace replacements. No deadline: the clock is never read.
/// Cost: O((a + b)·D) for D edits.
pub fn myers_ops<T: PartialEq>(a: &[T], b: &[T]) -> Vec<DiffOp> {
    let mut capture = Capture::new();
    match myers::diff(&mut capture, a, 0..a.len(), b, 0..b.len()) {
        Ok(()) => capture.into_ops(),
        Err(never) => match never {},
    }
}

/// [`myers_ops`] with adjacent deletes and inserts joined into replaces (similar's `Replace`
/// hook), still without `Compact`. Same cost.
pub fn myers_replace_ops<T: PartialEq>(a: &[T], b: &[T]) -> Vec<DiffOp> {
    let mut hook = Replace::new(Capture::new());
    match myers::diff(&mut hook, a, 0..a.len(), b, 0..b.len()) {
        Ok(()) => hook.into_inner().into_ops(),
        Err(never) => match never {},
    }
}

/// www/playground/src/cjk-ranges.ts: the two tables for the page's token estimate (it counts
/// tokens the way history.rs does, before asking the core what compression saves).
#[cfg(all(test, not(target_arch = "wasm32")))]
fn playground_ranges() -> String {
    let table = |name: &str, doc: &str, ranges: &[(u32, u32)]| {
        let rows: Vec<String> = ranges.iter().map(|(lo, hi)| format!("  [0x{lo:X}, 0x{hi:X}],")).collect();
        format!("/** {doc} */\nexport const {name}: readonly (readonly [number, number])[] = [\n{}\n];\n", rows.join("\n"))
    };
    format!(
        "// Rendered from src/text_rules.rs by its tests (AGENTPAD_WRITE_TS=1 cargo test --lib text_rules rewrites it).\n\n{}\n{}\n{}",
        table("CJK_LETTERS", "CJK letters (text_rules.rs `CJK_LETTERS`), inclusive code point ranges.", CJK_LETTERS),
        table("CJK_MARKS", "CJK punctuation, symbols and full-width forms (text_rules.rs `CJK_MARKS`).", CJK_MARKS),
        "/** A CJK letter or mark: about one model token (text_rules.rs `is_wide`). */\nexport function isWide(c: number): boolean {\n  return [CJK_LETTERS, CJK_MARKS].some((t) => t.some(([lo, hi]) => c >= lo && c <= hi));\n}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_letters_and_marks() {
        for c in ['中', 'ひ', 'カ', '한', 'ㄅ', '々', '〇', 'ｶ', '𠀀'] {
            assert!(is_cjk(c) && is_wide(c), "{c}");
        }
        for c in ['。', '，', '「', '⺀', '㈱', 'Ａ'] {
            assert!(!is_cjk(c) && is_wide(c), "{c}");
        }
        for c in ['a', 'é', '1', ' ', 'Ж', 'α', '🎉'] {
            assert!(!is_cjk(c) && !is_wide(c), "{c}");
        }
        for table in [CJK_LETTERS, CJK_MARKS] {
            assert!(table.iter().all(|(lo, hi)| lo <= hi) && table.windows(2).all(|w| w[0].0 < w[1].0));
        }
    }

    #[test]
    fn words_are_runs_of_one_class() {
        let chars: Vec<char> = "api_timeout 超时设置 Cafe\u{301}".chars().collect();
        let runs: Vec<(CharClass, usize, String)> = word_runs(&chars).map(|(c, at, r)| (c, at, r.iter().collect())).collect();
        assert_eq!(
            runs,
            vec![
                (CharClass::Word, 0, "api".into()),
                (CharClass::Word, 4, "timeout".into()),
                (CharClass::Cjk, 12, "超时设置".into()),
                (CharClass::Word, 17, "Cafe\u{301}".into()),
            ]
        );
        assert_eq!(lower(&['T', 'İ']), "ti\u{307}");
        assert_eq!(word_runs(&[]).count(), 0);
    }

    #[test]
    fn atx_headings() {
        assert_eq!(atx_heading("# a"), Some((1, "a")));
        assert_eq!(atx_heading("   ### a b ###  "), Some((3, "a b")));
        assert_eq!(atx_heading("## C#"), Some((2, "C#")));
        assert_eq!(atx_heading("#"), Some((1, "")));
        assert_eq!(atx_heading("## ##"), Some((2, "")));
        assert_eq!(atx_heading("#\tx"), Some((1, "x")));
        for no in ["#hashtag", "    # code", "####### seven", "", "text # x"] {
            assert_eq!(atx_heading(no), None, "{no}");
        }
    }

    #[test]
    fn fences() {
        let f = fence_open("````rust").unwrap();
        assert_eq!(f, Fence { ch: '`', len: 4, indent: 0 });
        assert!(!f.is_closed_by("```") && !f.is_closed_by("~~~~") && !f.is_closed_by("```` x"));
        assert!(f.is_closed_by("````") && f.is_closed_by("   `````  ") && !f.is_closed_by("    ````"));
        assert_eq!(fence_open("  ~~~ a`b"), Some(Fence { ch: '~', len: 3, indent: 2 }));
        for no in ["``", "``` a`b", "    ```", "text", ""] {
            assert_eq!(fence_open(no), None, "{no}");
        }
    }

    #[test]
    fn clips() {
        assert_eq!(clip("héllo", 3), "hél…");
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip_within("héllo", 3), "hé…");
        assert_eq!(clip_within("abc", 3), "abc");
        assert_eq!(clip_within("abc", 0), "…");
        assert_eq!(one_line("a\nb\r\nc"), "a b  c");
    }

    /// `b` rebuilt from `a` and the script: equal runs copied from `a`, the rest taken from `b`.
    fn rebuild(a: &[char], b: &[char], ops: &[DiffOp]) -> String {
        let mut out = String::new();
        for op in ops {
            match *op {
                DiffOp::Equal { old_index, new_index, len } => {
                    assert_eq!(a[old_index..old_index + len], b[new_index..new_index + len]);
                    out.extend(&a[old_index..old_index + len]);
                }
                DiffOp::Insert { new_index, new_len, .. } | DiffOp::Replace { new_index, new_len, .. } => {
                    out.extend(&b[new_index..new_index + new_len])
                }
                DiffOp::Delete { .. } => {}
            }
        }
        out
    }

    #[test]
    fn myers_scripts() {
        let (a, b): (Vec<char>, Vec<char>) = ("abcxd".chars().collect(), "aXcd".chars().collect());
        let ops = myers_ops(&a, &b);
        assert_eq!(rebuild(&a, &b, &ops), "aXcd");
        assert!(ops.iter().all(|o| o.tag() != similar::DiffTag::Replace));
        let ops = myers_replace_ops(&a, &b);
        assert_eq!(rebuild(&a, &b, &ops), "aXcd");
        let tags: Vec<_> = ops.iter().map(|o| o.tag()).collect();
        use similar::DiffTag::*;
        assert_eq!(tags, vec![Equal, Replace, Equal, Delete, Equal]);
        assert!(myers_ops::<u8>(&[], &[]).is_empty());
    }

    /// The playground's copy of the tables follows them (AGENTPAD_WRITE_TS=1 rewrites it).
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn the_playground_tables_are_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/playground/src/cjk-ranges.ts");
        let text = playground_ranges();
        if std::env::var("AGENTPAD_WRITE_TS").is_ok_and(|v| v == "1") {
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(committed == text, "{} is stale: AGENTPAD_WRITE_TS=1 cargo test --lib text_rules rewrites it", path.display());
    }
}
