//! The compact and full previews: changed lines with line-number gutters (see the parent
//! module's doc), hunks separated by `─` rules, each hunk capped at `max_preview_length` chars
//! and at most [`MAX_HUNKS`] hunks shown when capped.

use std::ops::Range;

use ropey::Rope;

use super::ChangeSpan;
use crate::locale::{Locale, Words};
use crate::text::visible_line_count;

/// Most hunks a capped preview (`max_preview_length` not 0) shows; a line `… N more changed
/// places` stands for the rest. A replace-all over thousands of places previews its first
/// hunks, not a response of megabytes; `memo_preview(preview_mode="stats")` lists every change.
pub const MAX_HUNKS: usize = 10;

/// The hunks of a gutter preview: each a list of numbered rows, and how many changed places
/// (blocks of changed lines) were left out past [`MAX_HUNKS`]. A hunk's gutter width is chosen
/// when it is written, once the cap has said which rows it shows.
pub(super) struct Hunks {
    rows: Vec<Vec<Row>>,
    more_places: usize,
    /// The indices of the spans each hunk shows, in order.
    pub(super) spans: Vec<Vec<usize>>,
}

/// A run of changed lines: whole lines of the base that become whole lines of the draft.
struct Block {
    base: Range<usize>,
    draft: Range<usize>,
    /// The spans it holds (indices into the spans given).
    spans: Vec<usize>,
}

/// Width of the line-number column of a block of numbered lines: the digits of the largest
/// number the block shows (lines 1–40: 2, 355–370: 3), so that its bars line up without padding
/// every gutter to a fixed width the model pays for on every later turn (docs/decisions.md
/// "Gutters as wide as their block"). Cost: O(1).
pub fn gutter_width(largest_line: usize) -> usize {
    largest_line.max(1).ilog10() as usize + 1
}

/// Writes `12│ text` right-aligned to `width` (marker `' '`, `'-'` or `'+'` after the bar).
/// The digits are written by hand: `core::fmt`'s padding was a tenth of a warm 40-line read
/// (docs/performance.md#a-warm-call-on-a-small-document). Cost: O(text).
pub fn gutter_line(out: &mut String, width: usize, line: usize, marker: char, text: &str) {
    push_right_aligned(out, width, line);
    out.push('│');
    out.push(marker);
    out.push_str(text);
    out.push('\n');
}

/// `n` in decimal, spaces before it up to `width` chars (as `{n:>width$}`). Cost: O(width).
pub(crate) fn push_right_aligned(out: &mut String, width: usize, n: usize) {
    let mut digits = [0u8; 20];
    let mut len = 0;
    let mut rest = n;
    for slot in digits.iter_mut().rev() {
        *slot = b'0' + (rest % 10) as u8;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for _ in len..width {
        out.push(' ');
    }
    for &d in digits.iter().skip(digits.len() - len) {
        out.push(char::from(d));
    }
}

/// The compact preview of `spans` (sorted by position, non-overlapping) with `context` lines
/// around each group of changed lines. Cost: O(size of the changed lines + context) plus
/// O(log n) per change.
pub fn compact(base: &Rope, draft: &Rope, spans: &[ChangeSpan], context: usize) -> String {
    join_gutter_hunks(&gutter_hunks(base, draft, spans, context, 0), 0, None, Locale::En.words()).0
}

/// Length of the `─` rule between two hunks: one length whatever the hunks' gutter widths.
const RULE_CHARS: usize = 24;

/// One numbered row of a hunk before its width is known: line number, marker, text.
type Row = (usize, char, String);

/// The hunks of a gutter preview, each a list of numbered rows. Context and `+` lines carry
/// their draft line numbers; a `-` line carries the draft line where it stood — the number its
/// replacement line at the same offset has, or for lines only removed the draft line now after
/// them — so every number the model reads counts the draft's lines (docs/decisions.md "One line
/// numbering"), as a staging preview's does.
/// Cost: as [`compact`].
/// `max_length` 0: every hunk; otherwise at most [`MAX_HUNKS`] (the rows of the rest are not built).
pub(super) fn gutter_hunks(base: &Rope, draft: &Rope, spans: &[ChangeSpan], context: usize, max_length: usize) -> Hunks {
    let blocks = blocks(base, draft, spans);
    let mut hunks: Vec<Vec<Row>> = Vec::new();
    let mut hunk_spans: Vec<Vec<usize>> = Vec::new();
    let mut shown_until: Option<usize> = None; // next draft line (0-based) not yet printed
    let mut more_places = 0;
    for (i, b) in blocks.iter().enumerate() {
        let first = draft.char_to_line(b.draft.start);
        let from = first.saturating_sub(context);
        let from = match shown_until {
            Some(next) if from <= next => next, // close to the previous hunk: continue it
            _ => {
                if max_length != 0 && hunks.len() == MAX_HUNKS {
                    more_places = blocks.len() - i;
                    break;
                }
                hunks.push(Vec::new());
                hunk_spans.push(Vec::new());
                from
            }
        };
        if let Some(held) = hunk_spans.last_mut() {
            held.extend(&b.spans);
        }
        let Some(rows) = hunks.last_mut() else { break };
        for l in from..first {
            rows.push((l + 1, ' ', crate::text::line_text(draft, l)));
        }
        for (k, line) in lines_of(&base.slice(b.base.clone()).to_string()).iter().enumerate() {
            rows.push((first + k + 1, '-', line.to_string()));
        }
        let new_region = draft.slice(b.draft.clone()).to_string();
        let new_lines = lines_of(&new_region);
        for (k, line) in new_lines.iter().enumerate() {
            rows.push((first + k + 1, '+', line.to_string()));
        }
        let after = first + new_lines.len();
        let next_first = blocks.get(i + 1).map(|n| draft.char_to_line(n.draft.start));
        let until = match next_first {
            Some(nf) if nf <= after + 2 * context => nf, // the next hunk's context joins this one
            _ => (after + context).min(visible_line_count(draft)),
        };
        for l in after..until {
            rows.push((l + 1, ' ', crate::text::line_text(draft, l)));
        }
        shown_until = Some(until);
    }
    Hunks { rows: hunks, more_places, spans: hunk_spans }
}

/// Gutter hunks separated by `─` rules, each capped at `max_length` chars (0: no cap) with its
/// gutter as wide as the largest number it shows ([`hunk_rows`]), then `… N more changed
/// places` when hunks were left out; with `labels`, each hunk starts with its label line
/// (`── [C]`) in place of the rule. Also says whether every hunk is shown whole.
pub(super) fn join_gutter_hunks(hunks: &Hunks, max_length: usize, labels: Option<&[String]>, w: &Words) -> (String, bool) {
    let mut out = String::new();
    let mut whole = hunks.more_places == 0;
    for (i, rows) in hunks.rows.iter().enumerate() {
        match labels.and_then(|l| l.get(i)) {
            Some(label) => {
                out.push_str(label);
                out.push('\n');
            }
            None if i > 0 => {
                out.push_str(&"─".repeat(RULE_CHARS));
                out.push('\n');
            }
            None => {}
        }
        let (width, shown) = hunk_rows(rows, max_length);
        let written: Vec<String> = rows
            .iter()
            .take(shown)
            .map(|(line, marker, text)| {
                let mut s = String::new();
                gutter_line(&mut s, width, *line, *marker, text);
                s
            })
            .collect();
        whole &= push_rows(&mut out, &written, rows.len() - shown, max_length, w);
    }
    if hunks.more_places > 0 {
        out.push_str(&w.count("preview.more_places", hunks.more_places));
        out.push('\n');
    }
    (out, whole)
}

/// A hunk's gutter width and how many of its rows the cap `max_length` lets it show (0: all):
/// the rows that fit at the width of the largest number among them. Found at the widest width,
/// then at the (narrower or equal) width of what that shows, where more rows can fit — up to the
/// first whose number would not. Cost: O(chars of the rows).
fn hunk_rows(rows: &[Row], max_length: usize) -> (usize, usize) {
    let digits_of = |rows: &[Row]| gutter_width(rows.iter().map(|r| r.0).max().unwrap_or(1));
    let widest = digits_of(rows);
    if max_length == 0 {
        return (widest, rows.len());
    }
    let texts: Vec<usize> = rows.iter().map(|r| r.2.chars().count()).collect();
    // `12│-text\n`: the number, the bar, the marker, the text and the line break.
    let fitting = |width: usize| rows_fitting(texts.iter().map(|t| width + 3 + t), max_length);
    let width = digits_of(rows.get(..fitting(widest)).unwrap_or(rows));
    let wider = rows.iter().position(|r| gutter_width(r.0) > width).unwrap_or(rows.len());
    (width, fitting(width).min(wider))
}

/// How many rows of these lengths (in chars, line break included) fit in `max_length` chars
/// (0: all): those that fit, and always the first. Cost: O(rows shown).
fn rows_fitting(lens: impl Iterator<Item = usize>, max_length: usize) -> usize {
    let mut used = 0;
    let mut shown = 0;
    for len in lens {
        if max_length != 0 && used + len > max_length {
            return shown.max(1);
        }
        used += len;
        shown += 1;
    }
    shown
}

/// Appends a hunk's rows (each ending in `\n`) while they fit in `max_length` chars, then
/// `… N more lines` for the N rows left out. The first row is always shown, cut to
/// `max_length` chars and `…` when it alone is longer. `max_length` 0: every row. Says whether
/// every row was shown whole.
pub(super) fn push_capped(out: &mut String, rows: &[String], max_length: usize, w: &Words) -> bool {
    let shown = rows_fitting(rows.iter().map(|r| r.chars().count()), max_length);
    push_rows(out, rows.get(..shown).unwrap_or(rows), rows.len() - shown, max_length, w)
}

/// Appends `rows` (they fit in `max_length` chars, bar the first, which is cut to `max_length`
/// chars and `…` when it alone is longer), then `… N more lines` when `left` rows were left
/// out. Says whether every row was shown whole.
fn push_rows(out: &mut String, rows: &[String], left: usize, max_length: usize, w: &Words) -> bool {
    let mut cut = false;
    for (k, row) in rows.iter().enumerate() {
        // (a first row's line break does not count against the cap)
        if max_length == 0 || k > 0 || row.trim_end_matches('\n').chars().count() <= max_length {
            out.push_str(row);
        } else {
            out.extend(row.chars().take(max_length));
            out.push_str("…\n");
            cut = true;
        }
    }
    if left > 0 {
        out.push_str(&w.count("preview.more_lines", left));
        out.push('\n');
    }
    left == 0 && !cut
}

/// Groups changes that share a draft line and widens each group to whole lines, identically in
/// base and draft (the text around a group is the same in both).
fn blocks(base: &Rope, draft: &Rope, spans: &[ChangeSpan]) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for (i, s) in spans.iter().enumerate() {
        let line_start = draft.line_to_char(draft.char_to_line(s.draft.start));
        let prefix = s.draft.start - line_start;
        let suffix = suffix_to_line_end(base, draft, &s.base, &s.draft, prefix);
        let block = Block {
            // (a prefix holding an earlier change of the same line is merged below; its start
            // is then unused, hence saturating)
            base: s.base.start.saturating_sub(prefix)..(s.base.end + suffix),
            draft: line_start..(s.draft.end + suffix),
            spans: vec![i],
        };
        match out.last_mut() {
            Some(prev) if block.draft.start < prev.draft.end => {
                // Shares a line with the previous group: one block covering both, ending where
                // this change's block ends on either side.
                prev.base.end = block.base.end;
                prev.draft.end = block.draft.end;
                prev.spans.push(i);
            }
            _ => out.push(block),
        }
    }
    out
}

/// How many chars after a change to include so that both sides end on a line boundary (or at
/// the end of the text). `prefix` chars before the change on its line are part of the block.
/// The text after the change is the same in base and draft.
fn suffix_to_line_end(base: &Rope, draft: &Rope, b: &Range<usize>, d: &Range<usize>, prefix: usize) -> usize {
    // A side ends on a boundary when its block so far is empty or ends with a line break.
    let ends_clean = |rope: &Rope, r: &Range<usize>| {
        (prefix == 0 && r.is_empty()) || (r.end > 0 && r.end > r.start.saturating_sub(prefix) && rope.char(r.end - 1) == '\n')
    };
    if ends_clean(base, b) && ends_clean(draft, d) {
        return 0;
    }
    // To the end of d.end's line, its `\n` included (the rope's line index: O(log n), where walking
    // the chars made a replace-all joining many lines quadratic in the line's length).
    let next_line = (draft.char_to_line(d.end) + 1).min(draft.len_lines());
    draft.line_to_char(next_line).saturating_sub(d.end)
}

/// Splits a region made of whole lines: `"a\nb\n"` → `["a", "b"]`, `"a"` → `["a"]`, `""` → `[]`.
fn lines_of(region: &str) -> Vec<&str> {
    if region.is_empty() {
        return Vec::new();
    }
    let body = region.strip_suffix('\n').unwrap_or(region);
    body.split('\n').collect()
}

#[cfg(test)]
mod gutter_digits_tests {
    use super::*;

    #[test]
    fn hand_written_gutters_match_the_formatter() {
        for n in [0, 1, 9, 10, 99, 100, 12_345, 999_999, usize::MAX] {
            for width in [0, 1, 2, 3, 7, 25] {
                let mut out = String::new();
                gutter_line(&mut out, width, n, '+', "x│y");
                assert_eq!(out, format!("{n:>width$}│+x│y\n"));
            }
        }
    }
}
