//! The escape tier of `memo_replace` (docs/architecture.md#matching): an old_text written with
//! escapes (`\n`, `\t`, `\"`, `\\`) where the document has the characters matches nowhere as
//! given. Read with its escapes as the characters and found in exactly one place (exactly or
//! through a fuzzy tier), only the change old_text → new_text is applied to the text there, by
//! the three-way apply (src/matching/three_way.rs), which reads new_text's escapes the same way
//! only where that is unambiguous; `match_quality` says `unescaped`. Several places, or a change
//! the three-way apply refuses, are not guessed: the near misses answer instead.

use super::{Edit, Search, StageInfo};
use crate::matching::three_way::{count_escapes, merge_pick, unescape, Outcome};
use crate::matching::{self, CandidateQuality};
use crate::workspace::outcome::Note;
use crate::workspace::{Step, Workspace};

impl Workspace {
    /// Stages the change of `search` at the one place `old` with its escapes read as characters
    /// occurs, or `None` when `old` has no escapes, that text occurs elsewhere than once, or the
    /// three-way apply refuses the change there. Cost: one [`matching::locate_within`] of the
    /// unescaped text and one [`merge_pick`].
    pub(super) fn replace_unescaped(&mut self, search: &Search, old: &str) -> Option<Step> {
        let escapes = count_escapes(old);
        if escapes == 0 {
            return None;
        }
        let needle = unescape(old);
        let draft = self.draft_rope(&search.path);
        let located = matching::locate_within(&draft, &needle, search.anchor_end.unwrap_or(0), self.search_budget());
        // Gutters as well as escapes: too many readings at once to stage without asking.
        let [m] = located.matches.as_slice() else { return None };
        if located.gutter.is_some() {
            return None;
        }
        // Only the change, onto the text there: a new_text written with the document's own
        // characters is not unescaped a second time (`'\\n'` in code stays `'\\n'`).
        let region = draft.slice(m.range.clone()).to_string();
        let (Outcome::Merged(merged), _) = merge_pick(old, &search.new_text, &region) else { return None };
        let mut notes = search.notes.clone();
        notes.push(Note::EscapesRead);
        let info = StageInfo {
            tool: search.tool,
            quality: Some(CandidateQuality::Unescaped(m.quality)),
            preview_only: search.preview_only,
            chosen: None,
            notes,
            warn: true,
        };
        let edit = Edit { range: m.range.clone(), new_text: merged.text };
        Some(self.stage(&search.path, vec![edit], info))
    }
}
