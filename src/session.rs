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

/// The staged searches a workspace remembers ([`remember_sent`]).
pub const SENT_KEPT: usize = 32;

/// Adds `entry` to `log` (the searches whose edits were staged, the latest last, so the same
/// call sent again is known: docs/workflow.md#visible-tools); the oldest is forgotten past
/// [`SENT_KEPT`]. O(SENT_KEPT).
pub fn remember_sent(log: &mut Vec<Sent>, entry: Sent) {
    log.retain(|e| *e != entry);
    if log.len() >= SENT_KEPT {
        log.remove(0);
    }
    log.push(entry);
}

/// A search whose edit was staged ([`remember_sent`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    pub path: String,
    pub query: String,
    /// new_text as the call sent it.
    pub new_text: String,
    /// What was written in its place (new_text re-indented by a tolerant tier).
    pub written: String,
}

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

/// One place of a pending change: a replacement in base coordinates (chars).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub base_range: Range<usize>,
    /// The base text of `base_range`.
    pub old_text: String,
    pub new_text: String,
}

impl Place {
    /// Change in length, in chars. Cost: O(chars of `new_text`).
    pub fn delta(&self) -> isize {
        self.new_text.chars().count() as isize - self.base_range.len() as isize
    }
}

/// What [`PendingChange::first_place`] gives for a change without places (none is ever kept).
static NO_PLACE: Place = Place { base_range: 0..0, old_text: String::new(), new_text: String::new() };

/// One staged edit under one letter: one place for an ordinary edit, several for a replace-all
/// (docs/architecture.md#pending-changes). Places are in base order, at least one, and never
/// overlap or touch one another nor the places of other changes — so the text between two
/// places is never held by the change, however far apart they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingChange {
    pub id: Letter,
    pub path: String,
    pub places: Vec<Place>,
    pub amended: bool,
}

impl PendingChange {
    /// Change in length of all its places, in chars. Cost: O(chars of the new texts).
    pub fn delta(&self) -> isize {
        self.places.iter().map(Place::delta).sum()
    }

    /// From the first place's base start to the last one's end: where the change lies (for
    /// ordering and positions), never a text to read — it spans the gaps between places. O(1).
    pub fn base_range(&self) -> Range<usize> {
        match (self.places.first(), self.places.last()) {
            (Some(a), Some(b)) => a.base_range.start..b.base_range.end,
            _ => 0..0,
        }
    }

    /// The first place: what a one-line view of the change shows. O(1).
    pub fn first_place(&self) -> &Place {
        self.places.first().unwrap_or(&NO_PLACE)
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
    /// The candidates staged by a pick (in pick order): the same search sent again is answered
    /// with the change a pick made, not a new listing (docs/workflow.md#visible-tools).
    pub picked: Vec<Letter>,
}

/// Where a selection's candidates came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectionKind {
    /// Matches (exact or one fuzzy tier) of a search that found several.
    Matches,
    /// Regions similar to a needle that matched nowhere (`NoMatch`).
    NearMisses,
    /// Units `memo_find` ranked (docs/tools.md#memo_find): no choice is awaited; a pick
    /// replaces the whole unit, and `memo_replace(within)` searches inside one.
    Units,
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
    /// chars: later ones shift, touched ones become stale. Kept for the model test, which checks
    /// it against the original rule; [`Selection::remap_through`] does the work.
    /// Cost: O(candidates + new_len).
    #[cfg(all(test, not(target_arch = "wasm32")))]
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

    /// The selection after `changes` (a change set against the draft of `path`) were staged, as
    /// a value: what [`Selection::remap_through`] does, taking and returning the selection (a
    /// selection on another path comes back as it was). Cost: O(candidates · log k).
    pub fn mapped(mut self, path: &str, changes: &ChangeSet) -> Selection {
        self.remap_through(path, changes);
        self
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
        if self.kind == SelectionKind::Units {
            for c in &mut self.candidates {
                match unit_through(&c.range, changes) {
                    Some(moved) => c.range = moved,
                    None => c.stale = true,
                }
            }
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

/// A `memo_find` unit after `changes`: an edit inside it grows or shrinks it (a `within` edit
/// keeps its unit), an edit outside moves it; one across its edge, or one replacing it whole,
/// leaves no unit to name (`None`). Cost: O(log k) for k replacements.
fn unit_through(unit: &Range<usize>, changes: &ChangeSet) -> Option<Range<usize>> {
    let reps = changes.replacements();
    let first = reps.partition_point(|r| r.range.end < unit.start);
    for r in reps.iter().skip(first).take_while(|r| r.range.start <= unit.end) {
        let inside = r.range.start >= unit.start && r.range.end <= unit.end;
        let whole = r.range == *unit;
        let touching_outside = r.range.end == unit.start || r.range.start == unit.end;
        if whole || !(inside || touching_outside) {
            return None;
        }
    }
    // Text replaced right after the unit is not the unit's: its end stays before the new text.
    let after = reps.iter().skip(first).any(|r| r.range.start == unit.end && r.range.end > r.range.start);
    let end = changes.map_pos(unit.end, if after { Assoc::Before } else { Assoc::After });
    Some(changes.map_pos(unit.start, Assoc::Before)..end)
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

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::TooManyChanges { limit } => {
                write!(f, "all {limit} change letters of this session are used; commit or revert first")
            }
            SessionError::NotTouched { path } => write!(f, "`{path}` was staged before it was prepared for editing (a defect)"),
            SessionError::OutOfRange { path, range, draft_len } => {
                write!(f, "range {}..{} is outside the {draft_len} chars of the draft of `{path}` (a defect)", range.start, range.end)
            }
        }
    }
}

impl std::error::Error for SessionError {}

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
    /// The units the last `memo_find` listed, moved through later edits like the selection
    /// (`memo_replace(within)` names them after another search replaced the selection).
    pub found: Option<Selection>,
    /// The change the last stage created or amended: recommendation prefers candidates near it.
    pub last_staged: Option<Letter>,
    /// Per document, the text its line keys were last shown from: `memo_replace_lines` checks
    /// every line of a key range against it, not only the two keyed ends.
    pub keys_shown: SmallMap<String, Rope>,
    letters_used: usize,
}

impl Session {
    pub fn new(id: u64) -> Session {
        Session {
            id,
            docs: SmallMap::new(),
            changes: Vec::new(),
            selection: None,
            found: None,
            last_staged: None,
            keys_shown: SmallMap::new(),
            letters_used: 0,
        }
    }

    /// Letters still free in this session (the tests' view of the 26-letter limit).
    #[cfg(test)]
    pub fn room(&self) -> usize {
        MAX_PENDING_CHANGES - self.letters_used
    }

    /// Takes a base snapshot of `path` the first time the session touches it (O(1): ropes share).
    pub fn touch(&mut self, path: &str, committed: &Text) -> &DraftDoc {
        self.docs.get_or_insert_with(path.to_string(), || DraftDoc { base: committed.clone(), draft: committed.rope().clone() })
    }

    /// Every place of `path`'s pending changes in base order, as (index in `changes`, index in
    /// its `places`). Cost: O(p log p) for p places.
    fn places_in_base_order(&self, path: &str) -> Vec<(usize, usize)> {
        let mut idx: Vec<(usize, usize, usize, usize)> = Vec::new();
        for (i, c) in self.changes.iter().enumerate().filter(|(_, c)| c.path == path) {
            idx.extend(c.places.iter().enumerate().map(|(j, p)| (p.base_range.start, p.base_range.end, i, j)));
        }
        // Unique keys, so the stable sort orders them as any sort would; crate::sort's one
        // instantiation instead of one for this tuple (docs/performance.md#wasm-size).
        crate::sort::sort_by(&mut idx, Ord::cmp);
        idx.into_iter().map(|(_, _, i, j)| (i, j)).collect()
    }

    /// The pending changes of `path` as a change set against its base (one replacement per
    /// place, sorted by base position), and for each replacement the index of its change in
    /// `changes` (a change of several places appears once per place). For an untouched path the
    /// base length is taken as the furthest change end. Cost: O(p log p + chars of the new
    /// texts) for p places.
    pub fn change_set(&self, path: &str) -> (ChangeSet, Vec<usize>) {
        let (set, idx) = self.place_set(path);
        (set, idx.into_iter().map(|(i, _)| i).collect())
    }

    /// [`Session::change_set`] with (change index, place index) per replacement.
    fn place_set(&self, path: &str) -> (ChangeSet, Vec<(usize, usize)>) {
        let idx = self.places_in_base_order(path);
        let base_len = match self.docs.get(path) {
            Some(doc) => doc.base.rope().len_chars(),
            None => self.changes.iter().filter(|c| c.path == path).map(|c| c.base_range().end).max().unwrap_or(0),
        };
        let mut set = ChangeSet::new(base_len);
        let mut kept = Vec::with_capacity(idx.len());
        for (i, j) in idx {
            let Some(place) = self.changes.get(i).and_then(|c| c.places.get(j)) else { continue };
            match set.try_push(place.base_range.clone(), place.new_text.clone()) {
                Ok(()) => kept.push((i, j)),
                // Only a caller that edited `changes` by hand can get here.
                Err(e) => debug_assert!(false, "pending changes of {path} break the invariant: {e}"),
            }
        }
        (set, kept)
    }

    /// Pending changes of one path, sorted by base position, each with its draft range from its
    /// first place's start to its last place's end (where it lies, not what it holds).
    /// Cost: O(p log p) for p places.
    pub fn changes_in_draft(&self, path: &str) -> Vec<(&PendingChange, Range<usize>)> {
        let mut out: Vec<(usize, Range<usize>)> = Vec::new();
        for ((i, _), r) in self.places_in_draft_idx(path) {
            match out.iter_mut().find(|(k, _)| *k == i) {
                Some((_, hull)) => hull.end = hull.end.max(r.end),
                None => out.push((i, r)),
            }
        }
        out.into_iter().filter_map(|(i, r)| Some((self.changes.get(i)?, r))).collect()
    }

    /// Every place of `path`'s pending changes in base order, with its change and its current
    /// draft range: what previews and the live context show. Cost: O(p log p) for p places.
    pub fn places_in_draft(&self, path: &str) -> Vec<(&PendingChange, &Place, Range<usize>)> {
        self.places_in_draft_idx(path)
            .into_iter()
            .filter_map(|((i, j), r)| {
                let c = self.changes.get(i)?;
                Some((c, c.places.get(j)?, r))
            })
            .collect()
    }

    fn places_in_draft_idx(&self, path: &str) -> Vec<((usize, usize), Range<usize>)> {
        let (set, idx) = self.place_set(path);
        idx.into_iter().zip(set.draft_ranges()).collect()
    }

    /// Stages "replace draft `range` of `path` with `new_text`": [`Session::stage_places`] with
    /// one place (the tests' shorthand: the workspace stages through `stage_places`).
    #[cfg(test)]
    pub fn stage(&mut self, path: &str, range: Range<usize>, new_text: &str) -> Result<Staged, SessionError> {
        self.stage_places(path, &[(range, new_text)])
    }

    /// Stages several replacements of `path` — draft ranges of the current draft, sorted, not
    /// overlapping (they may touch) — as ONE pending change with a place each (a replace-all).
    /// `path` must have been touched (else `NotTouched`); a range reversed, unsorted or past the
    /// draft's end is `OutOfRange`. A pending change any of them overlaps or touches is merged
    /// in whole (all its places; the earliest letter is kept, marked `amended`); replacements
    /// and places that touch one another become one place; a place that ends up holding its base
    /// text is dropped, and a change left without places is gone. Refuses a 27th letter.
    /// Cost: O(p log p + log n per replacement) for p pending places, plus the texts of the
    /// places it creates — never the text between them.
    pub fn stage_places(&mut self, path: &str, edits: &[(Range<usize>, &str)]) -> Result<Staged, SessionError> {
        let (set, idx) = self.place_set(path);
        let Some(doc) = self.docs.get(path) else {
            return Err(SessionError::NotTouched { path: path.to_string() });
        };
        let draft_len = doc.draft.len_chars();
        let edit = ChangeSet::try_from_replacements(
            draft_len,
            edits.iter().map(|(range, text)| Replacement { range: range.clone(), text: text.to_string() }),
        )
        .map_err(|_| {
            let range = edits.first().map(|e| e.0.start).unwrap_or(0)..edits.last().map(|e| e.0.end).unwrap_or(0);
            SessionError::OutOfRange { path: path.to_string(), range, draft_len }
        })?;
        let hull = match (edits.first(), edits.last()) {
            (Some(a), Some(b)) => a.0.start..b.0.end,
            _ => return Ok(Staged { change: None, amended: false, draft_range: 0..0, delta: 0 }),
        };
        let delta = edit.draft_len() as isize - draft_len as isize;
        // The changes the edits touch join the new change whole.
        let mut joined: Vec<usize> = Vec::new();
        for (range, _) in edits {
            for k in set.draft_touching(range.clone()) {
                if let Some(&(i, _)) = idx.get(k) {
                    if !joined.contains(&i) {
                        joined.push(i);
                    }
                }
            }
        }
        if joined.is_empty() && self.letters_used >= MAX_PENDING_CHANGES {
            return Err(SessionError::TooManyChanges { limit: MAX_PENDING_CHANGES });
        }
        // Draft intervals that become the new change: every edit and every place of a joined
        // change. Those that overlap or touch form one place.
        let mut spans: Vec<Range<usize>> = edits.iter().map(|(r, _)| r.clone()).collect();
        for (k, (i, _)) in idx.iter().enumerate() {
            if joined.contains(i) {
                spans.extend(set.draft_range(k));
            }
        }
        crate::sort::sort_by_key(&mut spans, |r| (r.start, r.end));
        let mut groups: Vec<Range<usize>> = Vec::new();
        for r in spans {
            match groups.last_mut() {
                Some(g) if r.start <= g.end => g.end = g.end.max(r.end),
                _ => groups.push(r),
            }
        }
        let mut places = Vec::with_capacity(groups.len());
        let mut next_edit = edits.iter().peekable();
        for g in groups {
            let base_range = set.map_back_pos(g.start, Assoc::Before)..set.map_back_pos(g.end, Assoc::After);
            let mut new_text = String::new();
            let mut at = g.start;
            while let Some((range, text)) = next_edit.next_if(|(r, _)| r.end <= g.end) {
                push_slice(&mut new_text, &doc.draft, at..range.start);
                new_text.push_str(text);
                at = range.end;
            }
            push_slice(&mut new_text, &doc.draft, at..g.end);
            let old_text = doc.base.rope().slice(base_range.clone()).to_string();
            if old_text != new_text {
                places.push(Place { base_range, old_text, new_text });
            }
        }
        let amended = !joined.is_empty();
        let id = match joined.iter().filter_map(|&i| self.changes.get(i)).map(|c| c.id).min() {
            Some(id) => id,
            None if places.is_empty() => return Ok(Staged { change: None, amended: false, draft_range: hull, delta: 0 }),
            None => {
                let Some(id) = Letter::from_index(self.letters_used) else {
                    return Err(SessionError::TooManyChanges { limit: MAX_PENDING_CHANGES });
                };
                self.letters_used += 1;
                id
            }
        };
        if amended {
            self.changes =
                std::mem::take(&mut self.changes).into_iter().enumerate().filter(|(i, _)| !joined.contains(i)).map(|(_, c)| c).collect();
        }
        // Merged edits that cancel out leave nothing pending there.
        let change = (!places.is_empty()).then_some(id);
        if change.is_some() {
            let at = self.changes.iter().position(|c| c.id > id).unwrap_or(self.changes.len());
            self.changes.insert(at, PendingChange { id, path: path.to_string(), places, amended });
        }
        if let Some(doc) = self.docs.get_mut(path) {
            for (range, text) in edits.iter().rev() {
                doc.draft.remove(range.clone());
                doc.draft.insert(range.start, text);
            }
        }
        self.selection = self.selection.take().map(|sel| sel.mapped(path, &edit));
        self.found = self.found.take().map(|sel| sel.mapped(path, &edit));
        if change.is_some() {
            self.last_staged = change;
        }
        Ok(Staged { change, amended: amended && change.is_some(), draft_range: hull, delta })
    }

    /// Makes `selection` the live one (docs/architecture.md#pending-changes), replacing any
    /// other: a search listed candidates or picked one of several. O(1).
    pub fn select(&mut self, selection: Selection) {
        self.selection = Some(selection);
    }

    /// A search listed the live selection's candidates again: it waits for a choice again, with
    /// `new_text` as the replacement a pick will stage; its letters and ranges stay. Returns
    /// false without a selection. O(chars of `new_text`).
    pub fn relist(&mut self, new_text: &str) -> bool {
        let Some(sel) = &mut self.selection else { return false };
        sel.awaiting_choice = true;
        sel.new_text = new_text.to_string();
        true
    }

    /// What staging an edit of `path` ends: a pick from the selection (`chosen`) ends the wait
    /// for a choice — the selection stays so later `match_id`s keep their letters — and any other
    /// edit of its path ends the selection. An edit elsewhere leaves it. O(1).
    pub fn staged_edit(&mut self, path: &str, chosen: Option<Letter>) {
        self.selection = match self.selection.take() {
            Some(mut sel) if chosen.is_some() => {
                sel.picked.extend(chosen);
                Some(Selection { awaiting_choice: false, ..sel })
            }
            // Listed units are not a choice that other edits end: they move with the text.
            Some(sel) if sel.path == path && sel.kind != SelectionKind::Units => None,
            other => other,
        };
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
        if self.found.as_ref().is_some_and(|s| s.path == path) {
            self.found = None;
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
        if self.found.as_ref().is_some_and(|s| s.path == path) {
            self.found = None;
        }
        if !self.docs.contains_key(path) {
            return Rebase::default();
        }
        let mut conflicting = Vec::new();
        for (i, change) in self.changes.iter_mut().enumerate().filter(|(_, c)| c.path == path) {
            // A change is kept or dropped whole: an external edit at one of its places
            // conflicts with all of them (its letter is one edit).
            if change.places.iter().any(|p| external.overlaps_pending(&p.base_range)) {
                conflicting.push(i);
                continue;
            }
            for place in &mut change.places {
                // No external replacement at or inside: both ends map unambiguously.
                let range = place.base_range.clone();
                place.base_range = external.map_pos(range.start, Assoc::After)..external.map_pos(range.end, Assoc::Before);
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
    /// pending places in base order — O(p log p) for p places instead of hashing the whole draft on
    /// every call. Without changes it is the base's, so a reverted or emptied draft matches a
    /// fresh read. Two change sets giving the same text by different edits get different
    /// fingerprints: the worst that does is a conservative `StaleReference`.
    pub fn draft_fingerprint(&self, path: &str) -> Option<Fingerprint> {
        let doc = self.docs.get(path)?;
        let base = doc.base.fingerprint();
        let places = self.places_in_base_order(path);
        if places.is_empty() {
            return Some(base);
        }
        let mut h = Xxh3::new();
        h.update(&base.0.to_le_bytes());
        for p in places.into_iter().filter_map(|(i, j)| self.changes.get(i)?.places.get(j)) {
            h.update(&(p.base_range.start as u64).to_le_bytes());
            h.update(&(p.base_range.end as u64).to_le_bytes());
            h.update(&(p.new_text.len() as u64).to_le_bytes());
            h.update(p.new_text.as_bytes());
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

/// Appends `rope`'s chars `range` to `out`, chunk by chunk (no intermediate String).
fn push_slice(out: &mut String, rope: &Rope, range: Range<usize>) {
    if range.start < range.end {
        for chunk in rope.slice(range).chunks() {
            out.push_str(chunk);
        }
    }
}

// Native only: property tests and the test host (src/internal_tests.rs) are not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod model_tests;

#[cfg(test)]
mod tests;
