//! Copied gutters (docs/architecture.md#matching): line numbers a model copied from a view into `old_text`.
//!
//! Recognised only when **every** line of the text starts with the same kind of gutter and the
//! numbers are consecutive — a text that merely begins with `1: ` is not a copied view. Kinds:
//!
//! | kind | example | from |
//! | --- | --- | --- |
//! | `box` | `12│ text`, ` 9│ text` | `memo_read` (right-aligned to the block's widest number) |
//! | `line_key` | `12#a3f1│ text` | `memo_read(line_keys=true)` |
//! | `colon` | `12: text` | many viewers |
//! | `tab` | `    12\ttext` | `cat -n` |
//! | `arrow` | `    12→text` | other agents' file viewers |
//!
//! A last empty line (the text ended with a line break) needs no gutter.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GutterKind {
    Box,
    LineKey,
    Colon,
    Tab,
    Arrow,
    /// `12 | `: a number, spaces, a pipe (compiler diagnostics, `nl`-style listings).
    Pipe,
}

impl GutterKind {
    pub fn as_str(self) -> &'static str {
        match self {
            GutterKind::Box => "box",
            GutterKind::LineKey => "line_key",
            GutterKind::Colon => "colon",
            GutterKind::Tab => "tab",
            GutterKind::Arrow => "arrow",
            GutterKind::Pipe => "pipe",
        }
    }

    /// An example of the gutter, for messages.
    pub fn example(self) -> &'static str {
        match self {
            GutterKind::Box => "`12│ `",
            GutterKind::LineKey => "`12#a3f1│ `",
            GutterKind::Colon => "`12: `",
            GutterKind::Tab => "`12<tab>`",
            GutterKind::Arrow => "`12→`",
            GutterKind::Pipe => "`12 | `",
        }
    }
}

impl fmt::Display for GutterKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text with its gutters removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gutter {
    pub kind: GutterKind,
    /// The number in the first line's gutter.
    pub first_line: usize,
    /// Lines that had a gutter.
    pub lines: usize,
    pub text: String,
}

/// Splits one line into (kind, number, rest) when it starts with a gutter.
fn parse_line(line: &str) -> Option<(GutterKind, usize, &str)> {
    let body = line.trim_start_matches(' ');
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let (number, after) = body.split_at_checked(digits)?;
    let number: usize = number.parse().ok()?;
    if let Some(rest) = after.strip_prefix('│') {
        return Some((GutterKind::Box, number, one_space(rest)?));
    }
    if let Some(rest) = after.strip_prefix('#') {
        let (hex, rest) = rest.split_at_checked(4)?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        return Some((GutterKind::LineKey, number, one_space(rest.strip_prefix('│')?)?));
    }
    if let Some(rest) = after.strip_prefix(':') {
        return Some((GutterKind::Colon, number, one_space(rest)?));
    }
    if let Some(rest) = after.strip_prefix('\t') {
        return Some((GutterKind::Tab, number, rest));
    }
    if let Some(rest) = after.strip_prefix('→') {
        return Some((GutterKind::Arrow, number, rest));
    }
    let spaced = after.trim_start_matches(' ');
    if spaced.len() < after.len() {
        if let Some(rest) = spaced.strip_prefix('|') {
            return Some((GutterKind::Pipe, number, one_space(rest)?));
        }
    }
    None
}

/// `│ text` → `text`, or `│` alone for an empty line.
fn one_space(s: &str) -> Option<&str> {
    if s.is_empty() {
        Some(s)
    } else {
        s.strip_prefix(' ')
    }
}

/// The text without its gutters, if every line has one of the same kind with consecutive
/// numbers. Cost: O(len).
pub fn strip(text: &str) -> Option<Gutter> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let trailing_break = lines.len() > 1 && lines.last() == Some(&"");
    if trailing_break {
        lines.pop();
    }
    let mut kind = None;
    let mut first_line = 0;
    let mut out = String::with_capacity(text.len());
    for (i, line) in lines.iter().enumerate() {
        let (k, n, rest) = parse_line(line)?;
        match kind {
            None => {
                kind = Some(k);
                first_line = n;
            }
            Some(prev) if prev != k || n != first_line + i => return None,
            Some(_) => {}
        }
        if i > 0 {
            out.push('\n');
        }
        out.push_str(rest);
    }
    if trailing_break {
        out.push('\n');
    }
    Some(Gutter { kind: kind?, first_line, lines: lines.len(), text: out })
}

/// `text` without gutters of `kind` on every non-empty line, numbers not checked: for `new_text`,
/// whose new lines a model may number any way. `None` when a line lacks the gutter.
pub fn strip_kind(text: &str, kind: GutterKind) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.is_empty() {
            continue;
        }
        match parse_line(line) {
            Some((k, _, rest)) if k == kind => out.push_str(rest),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_recognised() {
        let cases = [
            ("  12│ a\n  13│   b\n  14│", GutterKind::Box, "a\n  b\n"),
            ("7#00ff│ x\n8#a3f1│ y", GutterKind::LineKey, "x\ny"),
            ("3: x\n4: y\n", GutterKind::Colon, "x\ny\n"),
            ("     9\tx\n    10\t\ty", GutterKind::Tab, "x\n\ty"),
            ("     1→x\n     2→  y", GutterKind::Arrow, "x\n  y"),
            ("98 |     a\n99 | b\n100 |", GutterKind::Pipe, "    a\nb\n"),
            (" 9 | x\n10 |  y", GutterKind::Pipe, "x\n y"),
        ];
        for (text, kind, stripped) in cases {
            let g = strip(text).unwrap_or_else(|| panic!("{text:?}"));
            assert_eq!((g.kind, g.text.as_str()), (kind, stripped), "{text:?}");
        }
        assert_eq!(strip("  12│ a\n  13│ b").unwrap().first_line, 12);
    }

    #[test]
    fn partial_mixed_or_non_consecutive_gutters_are_text() {
        for text in [
            "12│ a\nb",     // a line without
            "12│ a\n13: b", // mixed kinds
            "12│ a\n14│ b", // not consecutive
            "no gutter",
            "12│x",       // no space after the bar: not our view
            "12#zzzz│ a", // not a hash
            "",
            "1234567890│ a", // not a line number
            "12| a\n13| b",  // a pipe without the spaces before it: a table
            "12 |a\n13 |b",  // no space after the pipe
        ] {
            assert_eq!(strip(text), None, "{text:?}");
        }
    }

    /// A read or preview right-aligns its numbers to the widest one of the block (1 to 7 digits
    /// here), where they used to be 4 wide: a copied block is stripped the same either way, its
    /// first number kept, and new_text's gutters of any width go too.
    #[test]
    fn box_gutters_of_every_block_width_and_the_old_four_wide_form_are_recognised() {
        for width in 1..=7u32 {
            // Lines crossing into `width` digits (7–9 for one digit), and an empty line.
            let last = 10usize.pow(width) - 1;
            let first = if width == 1 { 7 } else { 10usize.pow(width - 1) - 2 };
            let lines: Vec<String> =
                (first..=last.min(first + 3)).map(|n| if n == first + 1 { String::new() } else { format!("  line {n}") }).collect();
            // As a read prints them (src/preview/gutter.rs; matching does not import preview).
            let block_width = (last.min(first + 3)).to_string().len();
            let copied: String = lines.iter().enumerate().map(|(k, text)| format!("{:>block_width$}│ {text}\n", first + k)).collect();
            assert_eq!(copied.lines().map(|l| l.find('│')).collect::<std::collections::HashSet<_>>().len(), 1, "one bar column: {copied}");
            let g = strip(&copied).unwrap_or_else(|| panic!("{copied:?}"));
            assert_eq!((g.kind, g.first_line, g.text), (GutterKind::Box, first, lines.join("\n") + "\n"), "{copied:?}");
            let new_text = copied.replace("line", "LINE");
            assert_eq!(strip_kind(&new_text, GutterKind::Box), Some(lines.join("\n").replace("line", "LINE") + "\n"), "{new_text:?}");
        }
        // The old four-wide form, and a copy of part of a wider block.
        let old = "   9│ a\n  10│ b\n  11│";
        assert_eq!(strip(old).map(|g| (g.kind, g.first_line, g.text)), Some((GutterKind::Box, 9, "a\nb\n".to_string())));
        assert_eq!(strip(" 99│ a\n100│ b").map(|g| (g.first_line, g.text)), Some((99, "a\nb".to_string())));
        // Still refused as a gutter: no space after the bar, numbers not consecutive, one line without.
        for text in ["9│a\n10│b", " 9│ a\n11│ b", " 9│ a\nb"] {
            assert_eq!(strip(text), None, "{text:?}");
        }
    }

    #[test]
    fn new_text_gutters_need_only_the_kind() {
        assert_eq!(strip_kind("  12│ a\n  12│ b\n\n  40│ c", GutterKind::Box).as_deref(), Some("a\nb\n\nc"));
        assert_eq!(strip_kind("  12│ a\nb", GutterKind::Box), None);
    }
}
