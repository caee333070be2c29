//! A near miss as the response carries it ([`NearMissView`]: where, how similar, what differs,
//! all as data) and its text in the `NoMatch` preview ([`render_near_misses`], a view over that
//! data only).

use ropey::Rope;
use serde::Serialize;

use super::describe::{difference, Difference};
use super::{two_decimals, NearMiss};
use crate::text;

/// One near miss of a `NoMatch` (`Response.near_misses`), best first: the region, its
/// similarity and what differs, for a host or a UI to show without reading the preview text.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "NearMiss"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NearMissView {
    /// The candidate's letter when it is offered (similarity at or above
    /// `nearMatchThreshold`): `match_id` / `memo_replace_selection` stage it. `null` otherwise.
    #[cfg_attr(test, ts(type = "Letter | null"))]
    pub id: Option<String>,
    /// 1-based lines of the region's first and last char in the draft.
    pub line: usize,
    pub end_line: usize,
    /// UTF-16 offsets of the region in the draft (`draft.slice(start, end)` in JS).
    pub start: usize,
    pub end: usize,
    /// Similarity of `old_text` and the region, 0..1 (shown truncated to two decimals, as in
    /// `match_quality` `similar:0.92`).
    pub similarity: f64,
    /// What differs: per differing line of `old_text`, the pieces equal, only in `old_text`,
    /// only in the document, or left out.
    pub difference: Difference,
}

impl NearMissView {
    /// The data of `miss`, a region of `draft` near `needle`, offered as `id` (or not). Cost:
    /// that of [`difference`] on the needle and the region's text, plus O(log n) offsets.
    pub(crate) fn of(draft: &Rope, miss: &NearMiss, needle: &str, id: Option<String>) -> NearMissView {
        let end = miss.range.end.min(draft.len_chars());
        let start = miss.range.start.min(end);
        let region = draft.slice(start..end).to_string();
        NearMissView {
            id,
            line: text::line_of(draft, start),
            end_line: text::line_of(draft, end.saturating_sub(1).max(start)),
            start: text::char_to_utf16(draft, start),
            end: text::char_to_utf16(draft, end),
            similarity: miss.similarity,
            difference: difference(needle, &region),
        }
    }
}

/// The `NoMatch` preview of `misses`: the legend `[-only in yours-] {+only in the document+}`
/// once, then per region a header (`[A] line 5, similarity 0.92:`, the letter only for an
/// offered one) and its [`Difference::render`] text. Regions not offered whose similarity and
/// difference read the same are one entry naming all their lines (`lines 2, 6, 10, …`), at the
/// place of the first. Cost: O(output) plus O(m²) comparisons for m misses (m is small), each
/// difference at most ~600 chars.
pub fn render_near_misses<'a>(misses: impl IntoIterator<Item = &'a NearMissView>) -> String {
    // (header lines, similarity, rendered difference) per entry, in order.
    let mut entries: Vec<(Option<&str>, Vec<usize>, String, String)> = Vec::new();
    for n in misses {
        let (similarity, text) = (two_decimals(n.similarity), n.difference.render());
        let same = entries.iter_mut().find(|(id, _, sim, t)| id.is_none() && n.id.is_none() && *sim == similarity && *t == text);
        match same {
            Some((_, lines, _, _)) => lines.push(n.line),
            None => entries.push((n.id.as_deref(), vec![n.line], similarity, text)),
        }
    }
    let mut preview = String::new();
    if !entries.is_empty() {
        preview.push_str("[-only in yours-] {+only in the document+}\n");
    }
    for (id, lines, similarity, text) in entries {
        preview.push('\n');
        let label = id.map_or(String::new(), |l| format!("[{l}] "));
        let at = match lines.as_slice() {
            [one] => format!("line {one}"),
            many => format!("lines {}", many.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
        };
        preview.push_str(&format!("{label}{at}, similarity {similarity}:\n{text}\n"));
    }
    preview
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preview_is_a_view_over_the_data() {
        let draft = Rope::from_str("[server]\n  api.timeout: 30  # s\n  retries: 3\n");
        let needle = "timeout: 3O";
        let found = super::super::near_misses(&draft, needle, 0, 3);
        let views: Vec<NearMissView> =
            found.iter().enumerate().map(|(i, n)| NearMissView::of(&draft, n, needle, (i == 0).then(|| "A".to_string()))).collect();
        let first = &views[0];
        assert_eq!((first.line, first.end_line, first.start, first.end), (2, 2, 15, 26));
        assert_eq!(first.difference, difference(needle, "timeout: 30"));
        let preview = render_near_misses(&views);
        assert!(
            preview.starts_with("[-only in yours-] {+only in the document+}\n\n[A] line 2, similarity 0.90:\ntimeout:·3[-O-]{+0+}\n"),
            "{preview}"
        );
        assert_eq!(preview.matches("only in yours").count(), 1, "the legend once: {preview}");
        assert_eq!(preview.matches("line").count(), views.len(), "{preview}");
        // UTF-16 offsets: a char outside the BMP before the region counts two.
        let draft = Rope::from_str("🚀\nretries: 4\n");
        let found = super::super::near_misses(&draft, "retries: 3", 0, 1);
        let view = NearMissView::of(&draft, &found[0], "retries: 3", None);
        assert_eq!((view.line, view.start, view.end, view.id), (2, 3, 13, None));
    }

    #[test]
    fn regions_that_read_the_same_are_one_entry_naming_their_lines() {
        let draft = Rope::from_str("a = steps.len;\nx\na = steps.len;\ny\na = steps.len;\nb = steps.len;\n");
        let needle = "a = steps.size;";
        let found = super::super::near_misses(&draft, needle, 0, 4);
        let views: Vec<NearMissView> = found.iter().map(|n| NearMissView::of(&draft, n, needle, None)).collect();
        assert!(views.len() >= 3, "{views:?}");
        let preview = render_near_misses(&views);
        assert!(preview.contains("lines 1, 3, 5, similarity "), "{preview}");
        assert_eq!(preview.matches("a·=·steps.").count(), 1, "one entry for the three equal regions: {preview}");
        assert_eq!(preview.matches("only in yours").count(), 1, "{preview}");
        // An offered region keeps its own entry: its letter is what the model picks.
        let mut offered = views.clone();
        offered[0].id = Some("A".into());
        let preview = render_near_misses(&offered);
        assert!(preview.contains("[A] line 1, similarity "), "{preview}");
        assert!(preview.contains("lines 3, 5, similarity "), "{preview}");
    }
}
