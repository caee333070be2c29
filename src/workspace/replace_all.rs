//! `replace_all`: every place one search found becomes ONE pending change with a place each
//! (docs/tools.md §memo_replace, docs/architecture.md#pending-changes). The 26 letters of a
//! session count changes, not places, so a rename that touches 300 lines is staged like any
//! other edit; each place is a small range of the base ([`crate::session::Place`]), so the text
//! between places is never copied into the change, and its preview shows each place.

use std::ops::Range;

use ropey::Rope;

use crate::preview::ChangeSpan;

/// What replacing `places` of `draft` changes, as spans from the draft before to the draft
/// after (what the call's preview shows): a place already holding its new text is no span.
/// `places` are sorted and do not overlap (what a search returns); `None` otherwise.
/// Cost: O(places · log n).
pub(super) fn call_spans(draft: &Rope, places: &[(Range<usize>, &str)]) -> Option<Vec<ChangeSpan>> {
    let mut spans = Vec::with_capacity(places.len());
    let mut at = 0;
    let mut shift: isize = 0;
    for (range, new_text) in places {
        if range.start < at || range.start > range.end || range.end > draft.len_chars() {
            return None; // overlapping or unsorted: not what a search gives
        }
        let new_len = new_text.chars().count();
        let draft_start = range.start.checked_add_signed(shift)?;
        // Texts of other lengths differ: only same-length ones are compared (a rope slice each).
        if new_len != range.len() || draft.slice(range.clone()) != *new_text {
            spans.push(ChangeSpan { base: range.clone(), draft: draft_start..draft_start + new_len });
        }
        shift += new_len as isize - range.len() as isize;
        at = range.end;
    }
    Some(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_place_is_a_span_from_the_draft_before_to_the_draft_after() {
        let draft = Rope::from_str("t: 30\nx\nt: 30\nt: 30\n");
        let spans = call_spans(&draft, &[(0..5, "t: 60"), (8..13, "t: 6"), (14..19, "t: 600")]).unwrap();
        assert_eq!(spans.len(), 3);
        assert_eq!(spans[1], ChangeSpan { base: 8..13, draft: 8..12 });
        assert_eq!(spans[2], ChangeSpan { base: 14..19, draft: 13..19 });
        // A place already holding the new text is no span of the preview.
        let spans = call_spans(&draft, &[(0..5, "t: 30"), (8..13, "t: 60")]).unwrap();
        assert_eq!(spans, vec![ChangeSpan { base: 8..13, draft: 8..13 }]);
        assert!(call_spans(&draft, &[(8..13, "a"), (0..5, "b")]).is_none());
        assert!(call_spans(&draft, &[(8..99, "a")]).is_none());
        assert_eq!(call_spans(&draft, &[]), Some(vec![]));
    }
}
