//! The compact and full previews: changed lines with line-number gutters (see the parent
//! module's doc), hunks separated by `─` rules, each hunk capped at `max_preview_length` chars
//! and at most [`MAX_HUNKS`] hunks shown when capped.

use std::fmt::Write as _;
use std::ops::Range;

use ropey::Rope;

use super::ChangeSpan;
use crate::text::visible_line_count;

/// Most hunks a capped preview (`max_preview_length` not 0) shows; a line `… N more changed
/// places` stands for the rest. A replace-all over thousands of places previews its first
/// hunks, not a response of megabytes; `memo_preview(preview_mode="stats")` lists every change.
pub const MAX_HUNKS: usize = 10;

/// The hunks of a gutter preview: each a list of rows ending in `\n`, the gutter width, and
/// how many changed places (blocks of changed lines) were left out past [`MAX_HUNKS`].
pub(super) struct Hunks {
    rows: Vec<Vec<String>>,
    width: usize,
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

/// Width of the line-number column: at least 4. Cost: O(1).
pub fn gutter_width(last_line: usize) -> usize {
    last_line.to_string().len().max(4)
}

/// Writes `  12│ text` (marker `' '`, `'-'` or `'+'` after the bar). Cost: O(text).
pub fn gutter_line(out: &mut String, width: usize, line: usize, marker: char, text: &str) {
    let _ = writeln!(out, "{line:>width$}│{marker}{text}");
}

/// The compact preview of `spans` (sorted by position, non-overlapping) with `context` lines
/// around each group of changed lines. Cost: O(size of the changed lines + context) plus
/// O(log n) per change.
pub fn compact(base: &Rope, draft: &Rope, spans: &[ChangeSpan], context: usize) -> String {
    join_gutter_hunks(&gutter_hunks(base, draft, spans, context, 0), 0, None).0
}

/// The hunks of a gutter preview, each a list of rows ending in `\n`, and the gutter width.
/// Cost: as [`compact`].
/// `max_length` 0: every hunk; otherwise at most [`MAX_HUNKS`] (the rows of the rest are not built).
pub(super) fn gutter_hunks(base: &Rope, draft: &Rope, spans: &[ChangeSpan], context: usize, max_length: usize) -> Hunks {
    let blocks = blocks(base, draft, spans);
    let width = gutter_width(visible_line_count(draft).max(visible_line_count(base)));
    let row = |line: usize, marker: char, text: &str| {
        let mut s = String::new();
        gutter_line(&mut s, width, line, marker, text);
        s
    };
    let mut hunks: Vec<Vec<String>> = Vec::new();
    let mut hunk_spans: Vec<Vec<usize>> = Vec::new();
    let mut shown_until: Option<usize> = None; // next draft line (0-based) not yet printed
    for (i, b) in blocks.iter().enumerate() {
        let first = draft.char_to_line(b.draft.start);
        let from = first.saturating_sub(context);
        let from = match shown_until {
            Some(next) if from <= next => next, // close to the previous hunk: continue it
            _ => {
                if max_length != 0 && hunks.len() == MAX_HUNKS {
                    return Hunks { rows: hunks, width, more_places: blocks.len() - i, spans: hunk_spans };
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
            rows.push(row(l + 1, ' ', &crate::text::line_text(draft, l)));
        }
        let base_first = base.char_to_line(b.base.start);
        for (k, line) in lines_of(&base.slice(b.base.clone()).to_string()).iter().enumerate() {
            rows.push(row(base_first + k + 1, '-', line));
        }
        let new_region = draft.slice(b.draft.clone()).to_string();
        let new_lines = lines_of(&new_region);
        for (k, line) in new_lines.iter().enumerate() {
            rows.push(row(first + k + 1, '+', line));
        }
        let after = first + new_lines.len();
        let next_first = blocks.get(i + 1).map(|n| draft.char_to_line(n.draft.start));
        let until = match next_first {
            Some(nf) if nf <= after + 2 * context => nf, // the next hunk's context joins this one
            _ => (after + context).min(visible_line_count(draft)),
        };
        for l in after..until {
            rows.push(row(l + 1, ' ', &crate::text::line_text(draft, l)));
        }
        shown_until = Some(until);
    }
    Hunks { rows: hunks, width, more_places: 0, spans: hunk_spans }
}

/// Gutter hunks separated by `─` rules, each capped at `max_length` chars (0: no cap), then
/// `… N more changed places` when hunks were left out; with `labels`, each hunk starts with its
/// label line (`── [C]`) in place of the rule. Also says whether every hunk is shown whole.
pub(super) fn join_gutter_hunks(hunks: &Hunks, max_length: usize, labels: Option<&[String]>) -> (String, bool) {
    let mut out = String::new();
    let mut whole = hunks.more_places == 0;
    for (i, rows) in hunks.rows.iter().enumerate() {
        match labels.and_then(|l| l.get(i)) {
            Some(label) => {
                out.push_str(label);
                out.push('\n');
            }
            None if i > 0 => {
                out.push_str(&"─".repeat(hunks.width + 24));
                out.push('\n');
            }
            None => {}
        }
        whole &= push_capped(&mut out, rows, max_length);
    }
    if hunks.more_places > 0 {
        let n = hunks.more_places;
        let _ = writeln!(out, "… {n} more changed place{}", if n == 1 { "" } else { "s" });
    }
    (out, whole)
}

/// Appends a hunk's rows (each ending in `\n`) while they fit in `max_length` chars, then
/// `… N more lines` for the N rows left out. The first row is always shown, cut to
/// `max_length` chars and `…` when it alone is longer. `max_length` 0: every row. Says whether
/// every row was shown whole.
pub(super) fn push_capped(out: &mut String, rows: &[String], max_length: usize) -> bool {
    let (mut used, mut shown, mut cut) = (0, 0, false);
    for row in rows {
        let len = row.chars().count();
        if max_length != 0 && used + len > max_length {
            if shown == 0 {
                // (its line break does not count against it)
                if row.trim_end_matches('\n').chars().count() <= max_length {
                    out.push_str(row);
                } else {
                    out.extend(row.chars().take(max_length));
                    out.push_str("…\n");
                    cut = true;
                }
                shown = 1;
            }
            break;
        }
        out.push_str(row);
        used += len;
        shown += 1;
    }
    let left = rows.len() - shown;
    if left > 0 {
        let _ = writeln!(out, "… {left} more line{}", if left == 1 { "" } else { "s" });
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
