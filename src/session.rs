//! Session: the staged edits between the first edit and `commit`/`revert` (DESIGN §2).
//!
//! Pending changes are stored against the **base** text (the committed text when the session
//! opened), never overlap and never touch, and are lettered A–Z in creation order. The draft —
//! what the agent sees and what matching runs on — is `base + pending`, kept as its own rope and
//! updated in O(log n) per staged edit. An edit whose draft range touches a pending change is
//! merged into it: the merged change keeps the earlier letter and is marked `amended`.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use ropey::Rope;

use xxhash_rust::xxh3::Xxh3;

use crate::text::{Fingerprint, Text};

/// Letters A–Z: at most this many pending changes per session (`000` §3.1).
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

/// The cached candidates of the last multi-match or near miss (DESIGN §2 "Selection").
#[derive(Clone, Debug)]
pub struct Selection {
    pub path: String,
    /// What was searched (tool, needle or markers, search_after): a later call with the same
    /// query reuses the letters.
    pub query: String,
    pub new_text: String,
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
    /// chars: later ones shift, touched ones become stale. Cost: O(candidates).
    pub fn remap(&mut self, path: &str, edited: &Range<usize>, new_len: usize) {
        if path != self.path {
            return;
        }
        for c in &mut self.candidates {
            if c.range.end <= edited.start && !(c.range.is_empty() && c.range.start == edited.start) {
                continue;
            }
            if c.range.start >= edited.end && !(edited.is_empty() && c.range.start == edited.start) {
                c.range = (c.range.start + new_len - edited.len())..(c.range.end + new_len - edited.len());
            } else {
                c.stale = true;
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

#[derive(Clone, Debug)]
pub struct Session {
    pub id: u64,
    pub docs: BTreeMap<String, DraftDoc>,
    /// Pending changes in creation order (letters ascending).
    pub changes: Vec<PendingChange>,
    pub selection: Option<Selection>,
    /// The change the last stage created or amended: recommendation prefers candidates near it.
    pub last_staged: Option<Letter>,
    letters_used: usize,
}

impl Session {
    pub fn new(id: u64) -> Session {
        Session { id, docs: BTreeMap::new(), changes: Vec::new(), selection: None, last_staged: None, letters_used: 0 }
    }

    /// Letters still free in this session.
    pub fn room(&self) -> usize {
        MAX_PENDING_CHANGES - self.letters_used
    }

    /// Takes a base snapshot of `path` the first time the session touches it (O(1): ropes share).
    pub fn touch(&mut self, path: &str, committed: &Text) -> &DraftDoc {
        self.docs
            .entry(path.to_string())
            .or_insert_with(|| DraftDoc { base: committed.clone(), draft: committed.rope().clone() })
    }

    /// Pending changes of one path, sorted by base position, with their current draft ranges.
    pub fn changes_in_draft(&self, path: &str) -> Vec<(usize, Range<usize>)> {
        let mut idx: Vec<usize> = (0..self.changes.len()).filter(|&i| self.changes[i].path == path).collect();
        idx.sort_by_key(|&i| self.changes[i].base_range.start);
        let mut shift: isize = 0;
        idx.into_iter()
            .map(|i| {
                let c = &self.changes[i];
                let start = (c.base_range.start as isize + shift) as usize;
                let end = start + c.new_text.chars().count();
                shift += c.delta();
                (i, start..end)
            })
            .collect()
    }

    /// Stages "replace draft `range` of `path` with `new_text`". `path` must have been touched
    /// (else `NotTouched`); `range` must lie inside the draft (the caller got it from a search).
    /// Merges with every pending change the range overlaps or touches. Refuses a 27th letter.
    /// Cost: O(k + log n) for k pending changes, plus the merged text's length.
    pub fn stage(&mut self, path: &str, range: Range<usize>, new_text: &str) -> Result<Staged, SessionError> {
        let in_draft = self.changes_in_draft(path);
        let touching: Vec<&(usize, Range<usize>)> =
            in_draft.iter().filter(|(_, r)| r.start <= range.end && r.end >= range.start).collect();
        if touching.is_empty() && self.letters_used >= MAX_PENDING_CHANGES {
            return Err(SessionError::TooManyChanges { limit: MAX_PENDING_CHANGES });
        }
        let Some(doc) = self.docs.get_mut(path) else {
            return Err(SessionError::NotTouched { path: path.to_string() });
        };
        // Base offset of a draft offset that lies outside every pending change.
        let shift_before = |pos: usize| -> isize {
            in_draft
                .iter()
                .filter(|(_, r)| r.end <= pos)
                .map(|(i, _)| self.changes[*i].delta())
                .sum()
        };
        let new_len = new_text.chars().count();
        let delta = new_len as isize - range.len() as isize;
        let staged = if touching.is_empty() {
            let base_start = (range.start as isize - shift_before(range.start)) as usize;
            let base_range = base_start..base_start + range.len();
            let old_text = doc.base.rope().slice(base_range.clone()).to_string();
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
            let first = &self.changes[touching[0].0];
            let last = &self.changes[touching[touching.len() - 1].0];
            let (first_draft, last_draft) = (touching[0].1.clone(), touching[touching.len() - 1].1.clone());
            let union = range.start.min(first_draft.start)..range.end.max(last_draft.end);
            let base_start = if range.start < first_draft.start {
                (range.start as isize - shift_before(range.start)) as usize
            } else {
                first.base_range.start
            };
            let base_end = last.base_range.end + range.end.saturating_sub(last_draft.end);
            let mut merged = doc.draft.slice(union.start..range.start).to_string();
            merged.push_str(new_text);
            merged.push_str(&doc.draft.slice(range.end..union.end).to_string());
            let id = touching.iter().map(|(i, _)| self.changes[*i].id).min().unwrap_or(Letter(b'A'));
            let old_text = doc.base.rope().slice(base_start..base_end).to_string();
            let remove: Vec<usize> = touching.iter().map(|(i, _)| *i).collect();
            let mut keep = Vec::with_capacity(self.changes.len());
            for (i, c) in self.changes.drain(..).enumerate() {
                if !remove.contains(&i) {
                    keep.push(c);
                }
            }
            self.changes = keep;
            let change = if merged == old_text {
                None // the edits cancel out: nothing is pending here any more
            } else {
                let at = self.changes.iter().position(|c| c.id > id).unwrap_or(self.changes.len());
                self.changes.insert(
                    at,
                    PendingChange {
                        id,
                        path: path.to_string(),
                        base_range: base_start..base_end,
                        old_text,
                        new_text: merged,
                        amended: true,
                    },
                );
                Some(id)
            };
            Staged { change, amended: change.is_some(), draft_range: range.clone(), delta }
        };
        doc.draft.remove(range.clone());
        doc.draft.insert(range.start, new_text);
        if let Some(sel) = &mut self.selection {
            sel.remap(path, &range, new_len);
        }
        if staged.change.is_some() {
            self.last_staged = staged.change;
        }
        Ok(staged)
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
        changes.sort_by_key(|c| c.base_range.start);
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
        let base = s.docs["a"].base.rope().to_string();
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

    #[test]
    fn letters() {
        assert_eq!(Letter::parse("a"), None);
        assert_eq!(Letter::parse("AB"), None);
        assert_eq!(Letter::parse("Z").map(Letter::index), Some(25));
        assert_eq!(Letter::from_index(26), None);
    }
}
