//! Preview: the pending changes rendered for the model (DESIGN §5 "Preview modes"; this slice
//! has `compact`). Rendered from the known change ranges — never from a whole-document diff — so
//! its cost follows the size of the changes, not of the document.
//!
//! ```text
//!  565│   "features": {
//!  566│     "stable": ["A", "B", "C"],
//!  567│-    "experimental": []
//!  567│+    "experimental": ["X"]
//!  568│   }
//! ```
//! Context and `+` lines carry draft line numbers, `-` lines base line numbers (they coincide for
//! the first change). Hunks further apart than twice the context are separated by a `─` rule.

use std::fmt::Write as _;
use std::ops::Range;

use ropey::Rope;

use crate::text::visible_line_count;

/// Where one pending change sits in the base and in the draft (char ranges).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangeSpan {
    pub base: Range<usize>,
    pub draft: Range<usize>,
}

/// Lines of context around each change in the compact preview (`000` §3.2).
pub const DEFAULT_CONTEXT_LINES: usize = 3;

/// A run of changed lines: whole lines of the base that become whole lines of the draft.
struct Block {
    base: Range<usize>,
    draft: Range<usize>,
}

/// Width of the line-number column: at least 4, as in the seeds' examples.
pub fn gutter_width(last_line: usize) -> usize {
    last_line.to_string().len().max(4)
}

/// Writes `  12│ text` (marker `' '`, `'-'` or `'+'` after the bar).
pub fn gutter_line(out: &mut String, width: usize, line: usize, marker: char, text: &str) {
    let _ = writeln!(out, "{line:>width$}│{marker}{text}");
}

/// The compact preview of `spans` (sorted by position, non-overlapping) with `context` lines
/// around each group of changed lines. Cost: O(size of the changed lines + context) plus
/// O(log n) per change.
pub fn compact(base: &Rope, draft: &Rope, spans: &[ChangeSpan], context: usize) -> String {
    let blocks = blocks(base, draft, spans);
    let width = gutter_width(visible_line_count(draft).max(visible_line_count(base)));
    let mut out = String::new();
    let mut shown_until: Option<usize> = None; // next draft line (0-based) not yet printed
    for (i, b) in blocks.iter().enumerate() {
        let first = draft.char_to_line(b.draft.start);
        let from = first.saturating_sub(context);
        let from = match shown_until {
            Some(next) if from <= next => next, // close to the previous hunk: continue it
            Some(_) => {
                out.push_str(&"─".repeat(width + 24));
                out.push('\n');
                from
            }
            None => from,
        };
        for l in from..first {
            gutter_line(&mut out, width, l + 1, ' ', &crate::text::line_text(draft, l));
        }
        let base_first = base.char_to_line(b.base.start);
        for (k, line) in lines_of(&base.slice(b.base.clone()).to_string()).iter().enumerate() {
            gutter_line(&mut out, width, base_first + k + 1, '-', line);
        }
        let new_region = draft.slice(b.draft.clone()).to_string();
        let new_lines = lines_of(&new_region);
        for (k, line) in new_lines.iter().enumerate() {
            gutter_line(&mut out, width, first + k + 1, '+', line);
        }
        let after = first + new_lines.len();
        let next_first = blocks.get(i + 1).map(|n| draft.char_to_line(n.draft.start));
        let until = match next_first {
            Some(nf) if nf <= after + 2 * context => nf, // the next hunk's context joins this one
            _ => (after + context).min(visible_line_count(draft)),
        };
        for l in after..until {
            gutter_line(&mut out, width, l + 1, ' ', &crate::text::line_text(draft, l));
        }
        shown_until = Some(until);
    }
    out
}

/// Groups changes that share a draft line and widens each group to whole lines, identically in
/// base and draft (the text around a group is the same in both).
fn blocks(base: &Rope, draft: &Rope, spans: &[ChangeSpan]) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for s in spans {
        let line_start = draft.line_to_char(draft.char_to_line(s.draft.start));
        let prefix = s.draft.start - line_start;
        let suffix = suffix_to_line_end(base, draft, &s.base, &s.draft, prefix);
        let block = Block {
            // (a prefix holding an earlier change of the same line is merged below; its start
            // is then unused, hence saturating)
            base: s.base.start.saturating_sub(prefix)..(s.base.end + suffix),
            draft: line_start..(s.draft.end + suffix),
        };
        match out.last_mut() {
            Some(prev) if block.draft.start < prev.draft.end => {
                // Shares a line with the previous group: one block covering both, ending where
                // this change's block ends on either side.
                prev.base.end = block.base.end;
                prev.draft.end = block.draft.end;
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
    let mut n = 0;
    for c in draft.chars_at(d.end) {
        n += 1;
        if c == '\n' {
            break;
        }
    }
    n
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
mod tests {
    use super::*;

    /// Builds base/draft and spans from plain edits (base ranges, sorted) — the model.
    fn preview(base: &str, edits: &[(Range<usize>, &str)], ctx: usize) -> String {
        let chars: Vec<char> = base.chars().collect();
        let mut draft = String::new();
        let mut spans = Vec::new();
        let mut at = 0;
        let mut shift: isize = 0;
        for (r, new) in edits {
            draft.extend(&chars[at..r.start]);
            let ds = (r.start as isize + shift) as usize;
            draft.push_str(new);
            let dl = new.chars().count();
            spans.push(ChangeSpan { base: r.clone(), draft: ds..ds + dl });
            shift += dl as isize - r.len() as isize;
            at = r.end;
        }
        draft.extend(&chars[at..]);
        compact(&Rope::from_str(base), &Rope::from_str(&draft), &spans, ctx)
    }

    #[test]
    fn seed_example_shape() {
        let base = "{\n  \"features\": {\n    \"stable\": [\"A\", \"B\", \"C\"],\n    \"experimental\": []\n  }\n}\n";
        let at = base.find("\"experimental\": []").unwrap();
        let got = preview(base, &[(at..at + 18, "\"experimental\": [\"X\"]")], 3);
        let expected = "   1│ {
   2│   \"features\": {
   3│     \"stable\": [\"A\", \"B\", \"C\"],
   4│-    \"experimental\": []
   4│+    \"experimental\": [\"X\"]
   5│   }
   6│ }
";
        assert_eq!(got, expected);
    }

    #[test]
    fn whole_line_deletion_and_insertion() {
        assert_eq!(preview("a\nb\nc\n", &[(2..4, "")], 1), "   1│ a\n   2│-b\n   2│ c\n");
        assert_eq!(preview("a\nc\n", &[(2..2, "b\n")], 0), "   2│+b\n");
        // replacing a line's break joins two lines: both show as changed
        assert_eq!(preview("a\nb\nc\n", &[(3..4, "")], 0), "   2│-b\n   3│-c\n   2│+bc\n");
    }

    #[test]
    fn two_changes_on_one_line_are_one_block() {
        assert_eq!(preview("x = 1, y = 2\n", &[(4..5, "10"), (11..12, "20")], 0), "   1│-x = 1, y = 2\n   1│+x = 10, y = 20\n");
    }

    #[test]
    fn distant_hunks_are_separated_and_close_ones_joined() {
        let base: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let at = |s: &str| base.find(s).unwrap();
        let far = preview(&base, &[(at("l2\n")..at("l2\n") + 2, "L2"), (at("l18")..at("l18") + 3, "L18")], 1);
        assert_eq!(far.matches('─').count() > 0, true);
        assert!(far.starts_with("   1│ l1\n   2│-l2\n   2│+L2\n   3│ l3\n────"));
        let near = preview(&base, &[(at("l2\n")..at("l2\n") + 2, "L2"), (at("l4\n")..at("l4\n") + 2, "L4")], 1);
        assert_eq!(near, "   1│ l1\n   2│-l2\n   2│+L2\n   3│ l3\n   4│-l4\n   4│+L4\n   5│ l5\n");
    }

    #[test]
    fn append_at_end_without_trailing_newline() {
        assert_eq!(preview("a\nb", &[(3..3, "\nc")], 1), "   1│ a\n   2│-b\n   2│+b\n   3│+c\n");
    }
}
