//! A near miss as the response carries it ([`NearMissView`]: where, how similar, what differs,
//! all as data). Its text in the `NoMatch` preview is written from that data alone, in the
//! response's locale, by src/workspace/words/near.rs.

use ropey::Rope;
use serde::Serialize;

use super::describe::{difference, Difference};
use super::NearMiss;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_is_the_region_as_data() {
        let draft = Rope::from_str("[server]\n  api.timeout: 30  # s\n  retries: 3\n");
        let needle = "timeout: 3O";
        let found = super::super::near_misses(&draft, needle, 0, 3);
        let views: Vec<NearMissView> =
            found.iter().enumerate().map(|(i, n)| NearMissView::of(&draft, n, needle, (i == 0).then(|| "A".to_string()))).collect();
        let first = &views[0];
        assert_eq!((first.line, first.end_line, first.start, first.end), (2, 2, 15, 26));
        assert_eq!(first.difference, difference(needle, "timeout: 30"));
        // UTF-16 offsets: a char outside the BMP before the region counts two.
        let draft = Rope::from_str("🚀\nretries: 4\n");
        let found = super::super::near_misses(&draft, "retries: 3", 0, 1);
        let view = NearMissView::of(&draft, &found[0], "retries: 3", None);
        assert_eq!((view.line, view.start, view.end, view.id), (2, 3, 13, None));
    }
}
