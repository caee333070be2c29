//! The escape tier of `memo_replace` (docs/architecture.md#matching): an old_text written with
//! escapes (`\n`, `\t`, `\"`, `\\`) where the document has the characters matches nowhere as
//! given. Read with its escapes as the characters and found in exactly one place (exactly or
//! through a fuzzy tier), it is staged there with new_text read the same way, and
//! `match_quality` says `unescaped`. Several places, or a new_text holding more escapes than
//! old_text (it may add real ones), are not guessed: the near misses answer instead.

use super::{Edit, Search, StageInfo};
use crate::matching::three_way::{count_escapes, unescape};
use crate::matching::{self, CandidateQuality};
use crate::workspace::{Step, Workspace};

impl Workspace {
    /// Stages `search` at the one place `old` with its escapes read as characters occurs, or
    /// `None` when `old` has no escapes, that text occurs elsewhere than once, or new_text
    /// holds more escapes than `old`. Cost: one [`matching::locate`] of the unescaped text.
    pub(super) fn replace_unescaped(&mut self, search: &Search, old: &str) -> Option<Step> {
        let escapes = count_escapes(old);
        if escapes == 0 || count_escapes(&search.new_text) > escapes {
            return None;
        }
        let needle = unescape(old);
        let draft = self.draft_rope(&search.path);
        let located = matching::locate(&draft, &needle, search.anchor_end.unwrap_or(0));
        // Gutters as well as escapes: too many readings at once to stage without asking.
        let [m] = located.matches.as_slice() else { return None };
        if located.gutter.is_some() {
            return None;
        }
        let new_text = unescape(&search.new_text);
        let mut notes = search.notes.clone();
        notes.push(if new_text == search.new_text {
            "The escapes in old_text (\\n, \\t, \\\") were read as the characters the document has.".to_string()
        } else {
            "The escapes in old_text (\\n, \\t, \\\") were read as the characters the document has, and those in new_text the same way.".to_string()
        });
        let info = StageInfo {
            tool: search.tool,
            quality: Some(CandidateQuality::Unescaped(m.quality)),
            preview_only: search.preview_only,
            chosen: None,
            notes,
            warn: true,
        };
        let edit = Edit { range: m.range.clone(), new_text: m.replacement(&new_text) };
        Some(self.stage(&search.path, vec![edit], info))
    }
}
