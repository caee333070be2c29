//! Session: the staged edits between the first edit and `commit`/`revert` (docs/architecture.md#pending-changes).
//!
//! Pending changes are stored against the **base** text (the committed text when the session
//! opened), never overlap and never touch, and are lettered A–Z in creation order. The draft —
//! what the agent sees and what matching runs on — is `base + pending`, kept as its own rope and
//! updated in O(log n) per staged edit. An edit whose draft range touches a pending change is
//! merged into it: the merged change keeps the earlier letter and is marked `amended`.
//!
//! The pending changes of one path, sorted by base position, form a [`ChangeSet`]
//! ([`Session::change_set`]): every base ↔ draft conversion here (draft ranges of changes,
//! staging, remapping the selection, rebasing onto an external change) is that change set's
//! arithmetic. `changes` stays the one source of truth (other modules read and filter it); the
//! change set is derived from it on demand, O(k log k) for k ≤ 26 changes.

use std::fmt;
use std::ops::Range;

use ropey::Rope;

use xxhash_rust::xxh3::Xxh3;

use crate::changeset::{Assoc, ChangeSet, Replacement};
use crate::small_map::SmallMap;
use crate::text::{Fingerprint, Text};

/// Letters A–Z: at most this many pending changes per session.
pub const MAX_PENDING_CHANGES: usize = 26;

/// A letter naming a pending change or a candidate: `A`..=`Z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Letter(u8);

impl Letter {
    /// The `index`-th letter (0 → A); `None` past Z.
    pub fn from_index(index: usize) -> Option<Letter> {
        (index < 26).then(|| Letter(b'A' + index as u8))
    }

    /// Parses `"A"`..`"Z"` exactly (upper case, one letter).
    pub fn parse(s: &str) -> Option<Letter> {
        match s.as_bytes() {
            [b] if b.is_ascii_uppercase() => Some(Letter(*b)),
            _ => None,
        }
    }

    pub fn index(self) -> usize {
        (self.0 - b'A') as usize
    }
}

impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 as char)
    }
}

/// One staged edit, in base coordinates (chars).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingChange {
    pub id: Letter,
    pub path: String,
    pub base_range: Range<usize>,
    pub old_text: String,
    pub new_text: String,
    pub amended: bool,
}

impl PendingChange {
    /// Change in length, in chars.
    pub fn delta(&self) -> isize {
        self.new_text.chars().count() as isize - self.base_range.len() as isize
    }
}

/// The base snapshot and the live draft of one document touched by the session.
#[derive(Clone, Debug)]
pub struct DraftDoc {
    pub base: Text,
    pub draft: Rope,
}

/// The cached candidates of the last multi-match or near miss (docs/architecture.md#pending-changes).
#[derive(Clone, Debug)]
pub struct Selection {
    pub path: String,
    /// What was searched (tool, needle or markers, search_after): a later call with the same
    /// query reuses the letters.
    pub query: String,
    pub new_text: String,
    /// The text the search looked for (old_text, gutters stripped). A near-miss candidate
    /// differs from it, so a pick applies only the change from it to new_text onto the
    /// candidate's own text (src/matching/three_way.rs).
    pub needle: String,
    pub kind: SelectionKind,
    pub candidates: Vec<SelectionCandidate>,
    /// True from a MultiMatch until one candidate is staged: the workflow is `SelectionPending`.
    /// The selection stays cached afterwards so later `match_id`s keep their letters.
    pub awaiting_choice: bool,
}

/// Where a selection's candidates came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectionKind {
    /// Matches (exact or one fuzzy tier) of a search that found several.
    Matches,
    /// Regions similar to a needle that matched nowhere (`NoMatch`).
    NearMisses,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SelectionCandidate {
    pub id: Letter,
    /// Char range in the current draft.
    pub range: Range<usize>,
    /// How this candidate was found (`exact`, a tier, `similar:0.92`).
    pub quality: crate::matching::CandidateQuality,
    /// How new_text is re-indented here (indentation-blind tiers).
    pub reindent: Option<crate::matching::Reindent>,
    /// 0-based index among all matches when the selection was made.
    pub occurrence: usize,
    /// Its text was changed by a staged edit: it can no longer be chosen.
    pub stale: bool,
}

impl Selection {
    /// Moves candidate ranges through a staged edit that replaced draft `edited` with `new_len`
    /// chars: later ones shift, touched ones become stale. Kept for callers that only know the
    /// length; [`Selection::remap_through`] does the work. Cost: O(candidates + new_len).
    pub fn remap(&mut self, path: &str, edited: &Range<usize>, new_len: usize) {
        if path != self.path {
            return;
        }
        // The draft is at least as long as every range in it.
        let draft_len = self.candidates.iter().map(|c| c.range.end).fold(edited.end, usize::max);
        let edit = Replacement { range: edited.clone(), text: " ".repeat(new_len) };
        if let Ok(edit) = ChangeSet::try_from_replacements(draft_len, [edit]) {
            self.remap_through(path, &edit);
        }
    }

    /// Moves candidate ranges (draft positions of `path`) through `changes`, a change set
    /// against that draft: a candidate whose text a replacement changes — or that an insertion
    /// sits at the start of, or that is empty where a replacement starts
    /// ([`ChangeSet::map_range`]) — becomes stale and keeps its range; the others move.
    /// Cost: O(candidates · log k).
    pub fn remap_through(&mut self, path: &str, changes: &ChangeSet) {
        if path != self.path {
            return;
        }
        for c in &mut self.candidates {
            match changes.map_range(c.range.clone()) {
                Some(moved) => c.range = moved,
                None => c.stale = true,
            }
        }
    }
}

/// Errors of staging.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// All 26 letters of this session are used.
    TooManyChanges { limit: usize },
    /// `stage` before `touch` for this path: a caller defect, reported rather than panicking.
    NotTouched { path: String },
    /// The range is reversed or past the draft's end (`draft_len` chars): a caller defect,
    /// reported rather than panicking.
    OutOfRange { path: String, range: Range<usize>, draft_len: usize },
}

/// What a successful stage did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Staged {
    /// The change now holding the edit; `None` when merging made it a no-op and it was dropped.
    pub change: Option<Letter>,
    pub amended: bool,
    /// Draft range that was replaced, before the edit, and the length that replaced it.
    pub draft_range: Range<usize>,
    pub delta: isize,
}

/// What [`Session::rebase`] did with the pending changes of a path whose stored text changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rebase {
    /// Changes re-applied to the new base (same letters, moved base ranges), by letter.
    pub kept: Vec<Letter>,
    /// Changes the external edit overlapped or touched: removed from the session, returned as
    /// they were (base ranges in the old base), by letter.
    pub conflicts: Vec<PendingChange>,
}

#[derive(Clone, Debug)]
pub struct Session {
    pub id: u64,
    pub docs: SmallMap<String, DraftDoc>,
    /// Pending changes in creation order (letters ascending).
    pub changes: Vec<PendingChange>,
    pub selection: Option<Selection>,
    /// The change the last stage created or amended: recommendation prefers candidates near it.
    pub last_staged: Option<Letter>,
    /// Per document, the text its line keys were last shown from: `memo_replace_lines` checks
    /// every line of a key range against it, not only the two keyed ends.
    pub keys_shown: SmallMap<String, Rope>,
    letters_used: usize,
}

impl Session {
    pub fn new(id: u64) -> Session {
        Session { id, docs: SmallMap::new(), changes: Vec::new(), selection: None, last_staged: None, keys_shown: SmallMap::new(), letters_used: 0 }
    }

    /// Letters still free in this session.
    pub fn room(&self) -> usize {
        MAX_PENDING_CHANGES - self.letters_used
    }

    /// Takes a base snapshot of `path` the first time the session touches it (O(1): ropes share).
    pub fn touch(&mut self, path: &str, committed: &Text) -> &DraftDoc {
        self.docs.get_or_insert_with(path.to_string(), || DraftDoc { base: committed.clone(), draft: committed.rope().clone() })
    }

    /// The pending changes of `path` as a change set against its base (sorted by base position),
    /// and for each replacement the index of its change in `changes`. For an untouched path the
    /// base length is taken as the furthest change end. Cost: O(k log k + chars of the new texts).
    pub fn change_set(&self, path: &str) -> (ChangeSet, Vec<usize>) {
        let mut idx: Vec<(usize, &PendingChange)> = self.changes.iter().enumerate().filter(|(_, c)| c.path == path).collect();
        crate::sort::sort_by_key(&mut idx, |(_, c)| (c.base_range.start, c.base_range.end));
        let base_len = match self.docs.get(path) {
            Some(doc) => doc.base.rope().len_chars(),
            None => idx.iter().map(|(_, c)| c.base_range.end).max().unwrap_or(0),
        };
        let mut set = ChangeSet::new(base_len);
        let mut kept = Vec::with_capacity(idx.len());
        for (i, c) in idx {
            match set.try_push(c.base_range.clone(), c.new_text.clone()) {
                Ok(()) => kept.push(i),
                // Only a caller that edited `changes` by hand can get here.
                Err(e) => debug_assert!(false, "pending changes of {path} break the invariant: {e}"),
            }
        }
        (set, kept)
    }

    /// Pending changes of one path, sorted by base position, with their current draft ranges.
    /// Cost: O(k log k).
    pub fn changes_in_draft(&self, path: &str) -> Vec<(&PendingChange, Range<usize>)> {
        let (set, idx) = self.change_set(path);
        idx.into_iter().zip(set.draft_ranges()).filter_map(|(i, r)| Some((self.changes.get(i)?, r))).collect()
    }

    /// Stages "replace draft `range` of `path` with `new_text`". `path` must have been touched
    /// (else `NotTouched`); `range` must lie inside the draft (the caller got it from a search).
    /// Merges with every pending change the range overlaps or touches. Refuses a 27th letter,
    /// and a range that is reversed or past the draft's end (`OutOfRange`). Cost: O(k log k +
    /// log n) for k pending changes, plus the pending texts' lengths (the change set is derived
    /// from `changes`).
    pub fn stage(&mut self, path: &str, range: Range<usize>, new_text: &str) -> Result<Staged, SessionError> {
        let (set, idx) = self.change_set(path);
        let touching = set.draft_touching(range.clone());
        if touching.is_empty() && self.letters_used >= MAX_PENDING_CHANGES {
            return Err(SessionError::TooManyChanges { limit: MAX_PENDING_CHANGES });
        }
        let Some(doc) = self.docs.get_mut(path) else {
            return Err(SessionError::NotTouched { path: path.to_string() });
        };
        let draft_len = doc.draft.len_chars();
        let edit = ChangeSet::try_from_replacements(draft_len, [Replacement { range: range.clone(), text: new_text.to_string() }])
            .map_err(|_| SessionError::OutOfRange { path: path.to_string(), range: range.clone(), draft_len })?;
        let new_len = edit.draft_range(0).map_or(0, |r| r.len());
        let delta = new_len as isize - range.len() as isize;
        // Base positions of the edit's ends; ends inside or touching a pending change go to
        // that change's outer edge, so the merged change covers it whole.
        let base_range = set.map_back_pos(range.start, Assoc::Before)..set.map_back_pos(range.end, Assoc::After);
        let old_text = doc.base.rope().slice(base_range.clone()).to_string();
        let staged = if touching.is_empty() {
            if old_text == new_text {
                return Ok(Staged { change: None, amended: false, draft_range: range, delta: 0 });
            }
            let Some(id) = Letter::from_index(self.letters_used) else {
                return Err(SessionError::TooManyChanges { limit: MAX_PENDING_CHANGES });
            };
            self.letters_used += 1;
            self.changes.push(PendingChange {
                id,
                path: path.to_string(),
                base_range,
                old_text,
                new_text: new_text.to_string(),
                amended: false,
            });
            Staged { change: Some(id), amended: false, draft_range: range.clone(), delta }
        } else {
            let draft_of = |j: usize| set.draft_range(j).unwrap_or(range.clone());
            let union = range.start.min(draft_of(touching.start).start)..range.end.max(draft_of(touching.end - 1).end);
            let mut merged = doc.draft.slice(union.start..range.start).to_string();
            merged.push_str(new_text);
            merged.push_str(&doc.draft.slice(range.end..union.end).to_string());
            let remove = idx.get(touching).unwrap_or_default();
            let id = remove.iter().filter_map(|&i| self.changes.get(i)).map(|c| c.id).min().unwrap_or(Letter(b'A'));
            self.changes = std::mem::take(&mut self.changes)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !remove.contains(i))
                .map(|(_, c)| c)
                .collect();
            let change = if merged == old_text {
                None // the edits cancel out: nothing is pending here any more
            } else {
                let at = self.changes.iter().position(|c| c.id > id).unwrap_or(self.changes.len());
                self.changes.insert(
                    at,
                    PendingChange { id, path: path.to_string(), base_range, old_text, new_text: merged, amended: true },
                );
                Some(id)
            };
            Staged { change, amended: change.is_some(), draft_range: range.clone(), delta }
        };
        doc.draft.remove(range.clone());
        doc.draft.insert(range.start, new_text);
        if let Some(sel) = &mut self.selection {
            sel.remap_through(path, &edit);
        }
        if staged.change.is_some() {
            self.last_staged = staged.change;
        }
        Ok(staged)
    }

    /// Drops every pending change of `path` and its base and draft (the path is untouched
    /// afterwards); the selection goes too if it was on `path`. Letters are not reused. Returns
    /// how many changes were dropped. Cost: O(k).
    pub fn drop_path(&mut self, path: &str) -> usize {
        let before = self.changes.len();
        self.changes.retain(|c| c.path != path);
        self.docs.remove(path);
        if self.selection.as_ref().is_some_and(|s| s.path == path) {
            self.selection = None;
        }
        self.forget_missing_last_staged();
        before - self.changes.len()
    }

    /// The stored text of `path` changed behind the session (an external write) from the
    /// session's base to `new_base`. The external change set is [`ChangeSet::diff`] of the two
    /// bases; each pending change of `path` whose base range neither overlaps nor touches one of
    /// its replacements is kept — same letter and texts, base range mapped through it — and the
    /// others are conflicts, removed and returned. The base becomes `new_base`, the draft
    /// `new_base` with the kept changes applied; a selection on `path` is dropped (its ranges
    /// were in the old draft). An untouched path only loses its selection.
    /// Cost: the diff's (see [`ChangeSet::diff`]) + O(n) for the new draft.
    pub fn rebase(&mut self, path: &str, new_base: &Text) -> Rebase {
        let external = self.docs.get(path).map(|doc| ChangeSet::diff(doc.base.rope(), new_base.rope())).unwrap_or_default();
        self.rebase_with(path, new_base, &external)
    }

    /// [`Session::rebase`] through a known external change set (base → `new_base`, e.g. a
    /// Yjs delta) instead of a diff. Cost: O(changes · log k) + O(n) for the new draft.
    pub fn rebase_with(&mut self, path: &str, new_base: &Text, external: &ChangeSet) -> Rebase {
        if self.selection.as_ref().is_some_and(|s| s.path == path) {
            self.selection = None;
        }
        if !self.docs.contains_key(path) {
            return Rebase::default();
        }
        let (_, idx) = self.change_set(path);
        let mut conflicting = Vec::new();
        for i in idx {
            let Some(change) = self.changes.get_mut(i) else { continue };
            let range = change.base_range.clone();
            if external.touching(range.clone()).is_empty() {
                // No external replacement at or inside: both ends map unambiguously.
                change.base_range = external.map_pos(range.start, Assoc::After)..external.map_pos(range.end, Assoc::Before);
            } else {
                conflicting.push(i);
            }
        }
        let (conflicts, kept): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.changes).into_iter().enumerate().partition(|(i, _)| conflicting.contains(i));
        self.changes = kept.into_iter().map(|(_, c)| c).collect();
        let rebase = Rebase {
            kept: self.changes.iter().filter(|c| c.path == path).map(|c| c.id).collect(),
            conflicts: conflicts.into_iter().map(|(_, c)| c).collect(),
        };
        if let Some(doc) = self.docs.get_mut(path) {
            doc.base = new_base.clone();
        }
        let (set, _) = self.change_set(path);
        let draft = set.apply(new_base.rope()).unwrap_or_else(|e| {
            debug_assert!(false, "rebased changes of {path} do not fit the new base: {e}");
            new_base.rope().clone()
        });
        if let Some(doc) = self.docs.get_mut(path) {
            doc.draft = draft;
        }
        self.forget_missing_last_staged();
        rebase
    }

    fn forget_missing_last_staged(&mut self) {
        if let Some(id) = self.last_staged {
            if !self.changes.iter().any(|c| c.id == id) {
                self.last_staged = None;
            }
        }
    }

    /// Fingerprint of the draft of a touched path, derived from its base's fingerprint and its
    /// pending changes in base order — O(k) for k changes instead of hashing the whole draft on
    /// every call. Without changes it is the base's, so a reverted or emptied draft matches a
    /// fresh read. Two change sets giving the same text by different edits get different
    /// fingerprints: the worst that does is a conservative `StaleReference`.
    pub fn draft_fingerprint(&self, path: &str) -> Option<Fingerprint> {
        let doc = self.docs.get(path)?;
        let base = doc.base.fingerprint();
        let mut changes: Vec<&PendingChange> = self.changes.iter().filter(|c| c.path == path).collect();
        if changes.is_empty() {
            return Some(base);
        }
        crate::sort::sort_by_key(&mut changes, |c| c.base_range.start);
        let mut h = Xxh3::new();
        h.update(&base.0.to_le_bytes());
        for c in changes {
            h.update(&(c.base_range.start as u64).to_le_bytes());
            h.update(&(c.base_range.end as u64).to_le_bytes());
            h.update(&(c.new_text.len() as u64).to_le_bytes());
            h.update(c.new_text.as_bytes());
        }
        Some(Fingerprint(h.digest()))
    }

    /// The draft of a touched path.
    pub fn draft(&self, path: &str) -> Option<&Rope> {
        self.docs.get(path).map(|d| &d.draft)
    }

    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session_with(text: &str) -> Session {
        let mut s = Session::new(1);
        s.touch("a", &Text::from_storage(text));
        s
    }

    fn draft(s: &Session) -> String {
        s.draft("a").map(|r| r.to_string()).unwrap_or_default()
    }

    /// Applies the pending changes to the base from scratch: the model the draft must equal.
    fn replay(s: &Session) -> String {
        let base = s.docs.get("a").unwrap().base.rope().to_string();
        let chars: Vec<char> = base.chars().collect();
        let mut changes: Vec<&PendingChange> = s.changes.iter().collect();
        changes.sort_by_key(|c| c.base_range.start);
        let mut out = String::new();
        let mut at = 0;
        for c in changes {
            assert!(c.base_range.start >= at, "changes overlap");
            out.extend(&chars[at..c.base_range.start]);
            assert_eq!(c.old_text, chars[c.base_range.clone()].iter().collect::<String>());
            out.push_str(&c.new_text);
            at = c.base_range.end;
        }
        out.extend(&chars[at..]);
        out
    }

    #[test]
    fn separate_edits_get_letters_in_creation_order() {
        let mut s = session_with("one two three four");
        let b = s.stage("a", 14..18, "FOUR").unwrap();
        let a = s.stage("a", 0..3, "1").unwrap();
        assert_eq!(b.change, Letter::parse("A"));
        assert_eq!(a.change, Letter::parse("B"));
        assert_eq!(draft(&s), "1 two three FOUR");
        assert_eq!(replay(&s), draft(&s));
        // draft positions after the shorter "1" are mapped back to base positions
        let c = s.stage("a", 6..11, "3").unwrap();
        assert_eq!(c.change, Letter::parse("C"));
        assert_eq!(s.changes[2].base_range, 8..13);
        assert_eq!(replay(&s), "1 two 3 FOUR");
    }

    #[test]
    fn touching_edit_merges_into_the_earlier_letter() {
        let mut s = session_with("abc def ghi");
        s.stage("a", 8..11, "GHI").unwrap(); // A
        s.stage("a", 0..3, "ABC").unwrap(); // B
        let m = s.stage("a", 3..8, "_").unwrap(); // touches B and A
        assert_eq!(m.change, Letter::parse("A"));
        assert!(m.amended);
        assert_eq!(s.changes.len(), 1);
        assert_eq!(s.changes[0].old_text, "abc def ghi");
        assert_eq!(draft(&s), "ABC_GHI");
        assert_eq!(replay(&s), draft(&s));
    }

    #[test]
    fn merging_back_to_the_base_text_drops_the_change() {
        let mut s = session_with("x = 1");
        s.stage("a", 4..5, "2").unwrap();
        let undo = s.stage("a", 4..5, "1").unwrap();
        assert_eq!(undo.change, None);
        assert!(s.is_empty());
        assert_eq!(draft(&s), "x = 1");
    }

    #[test]
    fn the_27th_letter_is_refused() {
        let text = "x ".repeat(30);
        let mut s = session_with(&text);
        for i in 0..26 {
            s.stage("a", (i * 2)..(i * 2 + 1), "y").unwrap();
        }
        let err = s.stage("a", 56..57, "y").unwrap_err();
        assert_eq!(err, SessionError::TooManyChanges { limit: 26 });
        assert_eq!(replay(&s), draft(&s));
        // an edit that merges into an existing change still works
        assert!(s.stage("a", 0..1, "z").is_ok());
    }

    #[test]
    fn selection_candidates_shift_and_go_stale() {
        let mut s = session_with("t: 30\nt: 30\nt: 30\n");
        s.selection = Some(Selection {
            path: "a".into(),
            query: "replace t: 30".into(),
            new_text: "t: 60".into(),
            needle: "t: 30".into(),
            kind: SelectionKind::Matches,
            candidates: [0usize, 6, 12]
                .iter()
                .enumerate()
                .map(|(i, &at)| SelectionCandidate {
                    id: Letter::from_index(i).unwrap(),
                    range: at..at + 5,
                    quality: crate::matching::MatchQuality::EXACT.into(),
                    reindent: None,
                    occurrence: i,
                    stale: false,
                })
                .collect(),
            awaiting_choice: true,
        });
        s.stage("a", 0..5, "timeout: 60").unwrap();
        let sel = s.selection.as_ref().unwrap();
        assert!(sel.candidates[0].stale);
        assert_eq!(sel.candidates[1].range, 12..17);
        assert_eq!(sel.candidates[2].range, 18..23);
        assert_eq!(&draft(&s)[12..17], "t: 30");
    }

    fn selection_on(path: &str, range: Range<usize>) -> Selection {
        Selection {
            path: path.into(),
            query: "q".into(),
            new_text: String::new(),
            needle: String::new(),
            kind: SelectionKind::Matches,
            candidates: vec![SelectionCandidate {
                id: Letter(b'A'),
                range,
                quality: crate::matching::MatchQuality::EXACT.into(),
                reindent: None,
                occurrence: 0,
                stale: false,
            }],
            awaiting_choice: false,
        }
    }

    #[test]
    fn change_set_matches_changes_in_draft() {
        let mut s = session_with("中文 😀 abc def");
        s.stage("a", 9..12, "DEF").unwrap(); // A
        s.stage("a", 0..2, "汉").unwrap(); // B
        let (set, idx) = s.change_set("a");
        assert_eq!(idx, vec![1, 0], "base order: B then A");
        assert_eq!(set.apply(s.docs.get("a").unwrap().base.rope()).unwrap(), *s.draft("a").unwrap());
        let in_draft: Vec<_> = s.changes_in_draft("a").into_iter().map(|(c, r)| (c.id, r)).collect();
        assert_eq!(in_draft, vec![(s.changes[1].id, 0..1), (s.changes[0].id, 8..11)]);
        let inverse = set.invert(s.docs.get("a").unwrap().base.rope()).unwrap();
        assert_eq!(inverse.apply(s.draft("a").unwrap()).unwrap().to_string(), "中文 😀 abc def");
    }

    #[test]
    fn drop_path_forgets_the_path_and_its_selection() {
        let mut s = session_with("one two");
        s.touch("b", &Text::from_storage("other"));
        s.stage("a", 0..3, "1").unwrap(); // A
        s.stage("b", 0..1, "O").unwrap(); // B
        s.stage("a", 4..5, "O").unwrap(); // C
        s.selection = Some(selection_on("a", 2..3));
        assert_eq!(s.drop_path("a"), 2);
        assert!(s.draft("a").is_none() && s.selection.is_none());
        assert_eq!(s.changes.iter().map(|c| c.id.to_string()).collect::<String>(), "B");
        assert_eq!(s.last_staged, None, "C was dropped");
        assert_eq!(s.room(), 23, "letters are not reused");
        assert_eq!(s.drop_path("a"), 0);
        s.selection = Some(selection_on("b", 0..1));
        assert_eq!(s.drop_path("zzz"), 0);
        assert!(s.selection.is_some(), "a selection on another path stays");
    }

    #[test]
    fn rebase_keeps_changes_away_from_the_external_edit() {
        let mut s = session_with("alpha beta gamma delta epsilon");
        s.stage("a", 6..10, "BETA").unwrap(); // A
        s.stage("a", 17..22, "DELTA").unwrap(); // B
        s.stage("a", 23..30, "EPS").unwrap(); // C
        s.selection = Some(selection_on("a", 0..5));
        // Storage: a line above, "gamma" rewritten, "epsilon" changed right where C edits.
        let new_base = Text::from_storage("new line\nalpha beta GAMMA! delta epsilon!");
        let r = s.rebase("a", &new_base);
        assert_eq!(r.kept, Letter::parse("A").into_iter().chain(Letter::parse("B")).collect::<Vec<_>>());
        assert_eq!(r.conflicts.len(), 1);
        assert_eq!(r.conflicts[0].id, Letter::parse("C").unwrap());
        assert_eq!(r.conflicts[0].base_range, 23..30, "returned as it was");
        assert_eq!(draft(&s), "new line\nalpha BETA GAMMA! DELTA epsilon!");
        assert_eq!(replay(&s), draft(&s));
        assert_eq!(s.changes[0].base_range, 15..19);
        assert_eq!(s.changes[1].old_text, "delta");
        assert!(s.selection.is_none());
        assert_eq!(s.docs.get("a").unwrap().base.rope().to_string(), "new line\nalpha beta GAMMA! delta epsilon!");
        // Later edits stage against the new base.
        s.stage("a", 0..3, "NEW").unwrap();
        assert_eq!(replay(&s), draft(&s));
    }

    #[test]
    fn an_external_edit_touching_a_change_is_a_conflict() {
        for storage in ["abc def!", "abcdef", "abc def ghi"] {
            let mut s = session_with("abc def");
            s.stage("a", 4..7, "DEF").unwrap();
            let r = s.rebase("a", &Text::from_storage(storage));
            assert_eq!(r.conflicts.len(), 1, "{storage}");
            assert!(r.kept.is_empty() && s.is_empty());
            assert_eq!(draft(&s), storage, "the draft is storage's text");
        }
        let mut s = session_with("abc def");
        s.stage("a", 4..7, "DEF").unwrap();
        let r = s.rebase("a", &Text::from_storage("abcX def"));
        assert_eq!((r.kept.len(), draft(&s).as_str()), (1, "abcX DEF"), "one char away is not touching");
    }

    #[test]
    fn rebase_of_an_untouched_path_only_drops_its_selection() {
        let mut s = Session::new(1);
        s.selection = Some(selection_on("x", 0..1));
        assert_eq!(s.rebase("x", &Text::from_storage("abc")), Rebase::default());
        assert!(s.selection.is_none() && s.docs.is_empty());
    }

    #[test]
    fn a_range_past_the_draft_is_an_error_not_a_panic() {
        let mut s = session_with("abc");
        assert_eq!(s.stage("a", 2..9, "x"), Err(SessionError::OutOfRange { path: "a".into(), range: 2..9, draft_len: 3 }));
        #[allow(clippy::reversed_empty_ranges)]
        let reversed = 2..1;
        assert!(matches!(s.stage("a", reversed, "x"), Err(SessionError::OutOfRange { .. })));
        assert!(s.is_empty());
    }

    #[test]
    fn letters() {
        assert_eq!(Letter::parse("a"), None);
        assert_eq!(Letter::parse("AB"), None);
        assert_eq!(Letter::parse("Z").map(Letter::index), Some(25));
        assert_eq!(Letter::from_index(26), None);
    }
}
