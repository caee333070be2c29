//! The `stats` preview: one line per change with the chars it puts in and takes out.

use ropey::Rope;

use super::ChangeSpan;
use crate::locale::Words;

/// `line 4, col 19: +5/-2 chars` for each change, then `total: 2 changes, +7/-3 chars`. The
/// position is where the change starts in the draft (1-based line and column, columns in chars:
/// the line the summary and the pending list name); `+N` counts the chars the change puts in, `-M` the chars it takes out — what differs,
/// not the text around it that old_text and new_text share (one changed digit is `+1/-1`, not
/// the whole line twice). A change of several places (`change_of` names each span's change) is
/// one line at its first place, summing its places, ending `in N places`. Cost: O(log n) per
/// change + O(spans · log changes) + O(size of the spans) to find what they share.
pub(super) fn stats(base: &Rope, draft: &Rope, spans: &[ChangeSpan], change_of: &[usize], w: &Words) -> String {
    struct Sum {
        start: usize,
        added: usize,
        removed: usize,
        places: usize,
    }
    // Changes in the order their first places come; a span without a change is its own.
    let mut slot_of: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    let mut sums: Vec<Sum> = Vec::new();
    for (i, s) in spans.iter().enumerate() {
        let id = change_of.get(i).copied().unwrap_or(usize::MAX - i);
        let (shared_start, shared_end) = shared(base, draft, s);
        let slot = *slot_of.entry(id).or_insert_with(|| {
            sums.push(Sum { start: s.draft.start, added: 0, removed: 0, places: 0 });
            sums.len() - 1
        });
        if let Some(sum) = sums.get_mut(slot) {
            sum.added += s.draft.len() - shared_start - shared_end;
            sum.removed += s.base.len() - shared_start - shared_end;
            sum.places += 1;
        }
    }
    let mut out = String::new();
    for sum in &sums {
        let line = draft.char_to_line(sum.start);
        let col = sum.start - draft.line_to_char(line) + 1;
        let in_places = if sum.places > 1 { w.t("preview.stats.in_places", &[("n", &sum.places)]) } else { String::new() };
        let line = line + 1;
        out.push_str(&w.t(
            "preview.stats.line",
            &[("line", &line), ("col", &col), ("added", &sum.added), ("removed", &sum.removed), ("in_places", &in_places)],
        ));
        out.push('\n');
    }
    let (added, removed) = sums.iter().fold((0, 0), |(a, r), s| (a + s.added, r + s.removed));
    let n = sums.len();
    let key = if n == 1 { "preview.stats.total.one" } else { "preview.stats.total.other" };
    out.push_str(&w.t(key, &[("n", &n), ("added", &added), ("removed", &removed)]));
    out.push('\n');
    out
}

/// The chars a span's base and draft text share at its start and at its end (not overlapping).
/// Cost: O(length of the span).
fn shared(base: &Rope, draft: &Rope, s: &ChangeSpan) -> (usize, usize) {
    let (Some(b), Some(d)) = (base.get_slice(s.base.clone()), draft.get_slice(s.draft.clone())) else { return (0, 0) };
    let start = b.chars().zip(d.chars()).take_while(|(x, y)| x == y).count();
    let room = b.len_chars().min(d.len_chars()) - start;
    let end = b.chars_at(b.len_chars()).reversed().zip(d.chars_at(d.len_chars()).reversed()).take(room).take_while(|(x, y)| x == y).count();
    (start, end)
}
