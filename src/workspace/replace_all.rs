//! `replace_all`: every place one search found becomes ONE pending change (docs/tools.md
//! §memo_replace). The 26 letters of a session count changes, not places, so a rename that
//! touches 300 lines is staged like any other edit; its preview still shows each place.

use std::ops::Range;

use ropey::Rope;

use crate::preview::ChangeSpan;

/// The places of one replace-all, merged: the draft range from the first place's start to the
/// last one's end, the text that replaces it (the places replaced, what lies between them
/// kept), and for the preview each place as a span from the draft before to the draft after.
/// `places` are sorted and do not overlap (what a search returns). Cost: O(chars of the merged
/// range + new texts).
pub(super) fn merge_places(draft: &Rope, places: &[(Range<usize>, &str)]) -> Option<(Range<usize>, String, Vec<ChangeSpan>)> {
    let (first, last) = (places.first()?, places.last()?);
    let start = first.0.start;
    let end = last.0.end.min(draft.len_chars());
    if start > end {
        return None;
    }
    let mut text = String::new();
    let mut spans = Vec::with_capacity(places.len());
    let mut at = start;
    let mut shift: isize = 0;
    for (range, new_text) in places {
        if range.start < at || range.end > end {
            return None; // overlapping or unsorted: not what a search gives
        }
        text.push_str(&draft.slice(at..range.start).to_string());
        text.push_str(new_text);
        let new_len = new_text.chars().count();
        let draft_start = (range.start as isize + shift) as usize;
        if draft.slice(range.clone()) != *new_text {
            spans.push(ChangeSpan { base: range.clone(), draft: draft_start..draft_start + new_len });
        }
        shift += new_len as isize - range.len() as isize;
        at = range.end;
    }
    Some((start..end, text, spans))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_merge_into_one_range_with_a_span_each() {
        let draft = Rope::from_str("t: 30\nx\nt: 30\nt: 30\n");
        let places = [(0..5, "t: 60"), (8..13, "t: 60"), (14..19, "t: 600")];
        let (range, text, spans) = merge_places(&draft, &places).unwrap();
        assert_eq!(range, 0..19);
        assert_eq!(text, "t: 60\nx\nt: 60\nt: 600");
        assert_eq!(spans.len(), 3);
        assert_eq!(spans[2], ChangeSpan { base: 14..19, draft: 14..20 });
        // A place already holding the new text is no span of the preview.
        let (_, _, spans) = merge_places(&draft, &[(0..5, "t: 30"), (8..13, "t: 60")]).unwrap();
        assert_eq!(spans, vec![ChangeSpan { base: 8..13, draft: 8..13 }]);
        assert!(merge_places(&draft, &[(8..13, "a"), (0..5, "b")]).is_none());
        assert!(merge_places(&draft, &[]).is_none());
    }
}
