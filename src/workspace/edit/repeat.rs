//! The same edit sent again (docs/workflow.md#visible-tools): a model that repeats a call whose
//! edit is staged already is told so — `Success`, nothing new staged — instead of a NoMatch
//! whose closest region is its own edit (a pick of which would stage something it never asked
//! for), or a refused letter.

use std::ops::Range;

use super::Search;
use crate::matching;
use crate::session::{Letter, Sent, Session};
use crate::text;
use crate::workspace::outcome::{AlreadyStaged, EditOutcome};
use crate::workspace::{Step, Workspace};

/// Most places of one pending change looked into (a replace-all's can be thousands; a repeated
/// edit is one place or a few).
const PLACES_LOOKED_AT: usize = 64;

/// The pending change of `path` that holds the edit `old` → `new` already: one of its places
/// reads, in the base text, as `old` (found as a search would find it, tolerant tiers included)
/// with text around it, and its new text is that with `old` replaced by `new` (re-indented as a
/// staging would) — or, merged with another edit there, holds `new` more often than its base
/// text does. Pure. Cost: one search of `old` in each place's base text.
pub(super) fn holding_change(session: &Session, path: &str, old: &str, new: &str) -> Option<Letter> {
    if old.is_empty() {
        return None;
    }
    session.changes.iter().filter(|c| c.path == path).find_map(|c| {
        c.places
            .iter()
            .take(PLACES_LOOKED_AT)
            .any(|p| {
                // Exact occurrences first (cheap, and the common repeat), then the search's tiers.
                let exact = p.old_text.match_indices(old).any(|(at, _)| {
                    let (Some(head), Some(tail)) = (p.old_text.get(..at), p.old_text.get(at + old.len()..)) else { return false };
                    p.new_text.len() == head.len() + new.len() + tail.len()
                        && p.new_text.starts_with(head)
                        && p.new_text.ends_with(tail)
                        && p.new_text.get(head.len()..).is_some_and(|rest| rest.starts_with(new))
                });
                // Merged with a change beside it (amended): the place still lost old_text and
                // gained new_text.
                let merged =
                    || !new.is_empty() && p.old_text.contains(old) && p.new_text.matches(new).count() > p.old_text.matches(new).count();
                exact || merged() || {
                    let rope = ropey::Rope::from_str(&p.old_text);
                    matching::locate(&rope, old, 0).matches.iter().any(|m| {
                        let mut made = rope.clone();
                        made.try_remove(m.range.clone()).is_ok()
                            && made.try_insert(m.range.start, &m.replacement(new)).is_ok()
                            && made == p.new_text.as_str()
                    })
                }
            })
            .then_some(c.id)
    })
}

impl Workspace {
    /// The change a pick from the live selection staged, when `search` is that selection's
    /// search sent again (same query and new_text) and `letter` (any pick when `None`) was
    /// picked: the pending change over the picked candidate's place. Cost: O(candidates + k).
    pub(super) fn picked_before(&self, search: &Search, letter: Option<Letter>) -> Option<Letter> {
        let s = self.turn.session.as_ref()?;
        let sel =
            s.selection.as_ref().filter(|sel| sel.path == search.path && sel.query == search.query && sel.new_text == search.new_text)?;
        let picked = sel.picked.iter().rev().filter(|l| letter.map_or(true, |want| **l == want));
        let changes = s.changes_in_draft(&search.path);
        picked
            .filter_map(|l| sel.candidates.iter().find(|c| c.id == *l && c.stale))
            .find_map(|c| changes.iter().find(|(_, r)| r.start <= c.range.end && c.range.start <= r.end).map(|(change, _)| change.id))
    }

    /// Where the draft holds what `search` wrote when this very search (same path, query and
    /// new_text) staged its edit before: the draft ranges of the written text, at most 26, in
    /// order; empty when it was never staged or is no longer there. Found as an exact search
    /// finds old_text (the base's flat copy and block index, windows around the pending
    /// changes: docs/performance.md#edit-calls), with `match_indices`'s rule, so a call sent
    /// again after a revert does not copy and scan the whole draft. Cost: that search, capped at
    /// 26, only when such a search was staged.
    fn written_before(&self, search: &Search) -> Vec<Range<usize>> {
        let Some(sent) =
            self.turn.sent.iter().rev().find(|e| e.path == search.path && e.query == search.query && e.new_text == search.new_text)
        else {
            return Vec::new();
        };
        if sent.written.is_empty() {
            return Vec::new();
        }
        let draft = self.draft_rope(&search.path);
        let (base, changes) = self.layers(&search.path);
        let layers = matching::exact::Layered { base: &base, changes: &changes, draft: &draft };
        let len = sent.written.chars().count();
        let (starts, _) = matching::exact::find_chars_layered_upto(&layers, &sent.written, 0, 26);
        starts.into_iter().map(|start| start..start + len).collect()
    }

    /// The same call sent again, nothing to stage: its text is where it wrote it, and old_text
    /// is found nowhere else — not at all (`matches` empty), or only at the edge of what it wrote
    /// (`host: 3` inside the `host: 300` it staged: staged again it would write `host: 30000`).
    /// The answer names the pending change holding it, or none when it is committed. A
    /// `match_id` asks for a place by letter and is never taken for a repeat. Cost: that of
    /// [`Workspace::written_before`].
    pub(super) fn sent_again(&self, search: &Search, matches: &[matching::Match]) -> Option<AlreadyStaged> {
        if search.match_id.is_some() || matches.len() > 1 {
            return None;
        }
        let written = self.written_before(search);
        let at = written.into_iter().find(|w| matches.iter().all(|m| w.start < m.range.end && m.range.start < w.end))?;
        let draft = self.draft_rope(&search.path);
        let id = self.turn.session.as_ref().and_then(|s| {
            s.changes_in_draft(&search.path).into_iter().find(|(_, r)| r.start <= at.start && at.end <= r.end).map(|(c, _)| c.id)
        });
        Some(AlreadyStaged { path: search.path.clone(), id, line: text::line_of(&draft, at.start) })
    }

    /// Remembers that `search` staged its edit (`step` succeeded, not a preview; in immediate
    /// mode the step is its save), for [`Workspace::sent_again`]. O(1).
    pub(super) fn remember_sent(&mut self, sent: Sent, step: &Step) {
        if matches!(step, Step::Persist(_)) || matches!(step, Step::Done(r) if r.status == crate::response::Status::Success) {
            crate::session::remember_sent(&mut self.turn.sent, sent);
        }
    }

    /// `Success`, nothing staged: the edit of `search` is pending change `id` already.
    pub(super) fn already_staged(&self, search: &Search, id: Letter) -> Step {
        let path = &search.path;
        let draft = self.draft_rope(path);
        let line = self
            .turn
            .session
            .as_ref()
            .and_then(|s| s.changes_in_draft(path).into_iter().find(|(c, _)| c.id == id).map(|(_, r)| text::line_of(&draft, r.start)))
            .unwrap_or(1);
        self.answer_again(AlreadyStaged { path: path.clone(), id: Some(id), line })
    }

    /// The answer to an edit sent again, finished.
    pub(super) fn answer_again(&self, again: AlreadyStaged) -> Step {
        let path = again.path.clone();
        let r = self.worded(&EditOutcome::AlreadyStaged(again));
        Step::Done(self.finish(r, Some(&path)))
    }
}
