//! Property tests: any sequence of staged edits keeps the session's laws, checked against a
//! plain model (the base string with the pending changes applied from scratch).
#![cfg(not(target_arch = "wasm32"))]

use std::ops::Range;

use agentpad::changeset::{Assoc, ChangeSet, MappedBack, Replacement};
use agentpad::matching::MatchQuality;
use agentpad::session::{Letter, PendingChange, Selection, SelectionCandidate, SelectionKind, Session, SessionError, MAX_PENDING_CHANGES};
use agentpad::text::Text;
use proptest::prelude::*;

use super::tests::replay_path as replay;
use ropey::Rope;

/// Sorted draft ranges that do not overlap (they may touch), from raw (gap, len) numbers
/// wrapped into a draft of `n` chars: the places a replace-all stages.
fn places_in(n: usize, raw: &[(usize, usize, String)]) -> Vec<(Range<usize>, String)> {
    let mut out = Vec::new();
    let mut at = raw.first().map_or(0, |(gap, _, _)| gap % (n + 1));
    for (i, (gap, len, text)) in raw.iter().enumerate() {
        let start = if i == 0 { at } else { (at + gap % 12).min(n) };
        let end = (start + len).min(n);
        // Two insertions at one point, or one at the start of the previous place, are not what a
        // search returns.
        if out.last().is_some_and(|(r, _): &(Range<usize>, String)| r.start == start) {
            continue;
        }
        out.push((start..end, text.clone()));
        at = end;
    }
    out
}

fn edit() -> impl Strategy<Value = (usize, usize, String)> {
    (0usize..200, 0usize..6, "[a-c\n😀中]{0,4}")
}

proptest! {
    #![proptest_config(agentpad::internal_tests::seeded("proptest-regressions/session/model_tests.txt", 400))]

    #[test]
    fn staged_edits_keep_the_draft_equal_to_the_replayed_model(
        base in "[a-c\n😀中 ]{0,80}",
        edits in prop::collection::vec(edit(), 1..40),
    ) {
        let mut session = Session::new(1);
        session.touch("p", &Text::from_storage(&base));
        for (start, len, new_text) in edits {
            let draft_len = session.draft("p").unwrap().len_chars();
            let start = start % (draft_len + 1);
            let end = (start + len).min(draft_len);
            let letters_before: Vec<_> = session.changes.iter().map(|c| c.id).collect();
            match session.stage("p", start..end, &new_text) {
                Ok(_) => {}
                Err(e) => {
                    // only refused when every letter is used
                    prop_assert!(letters_before.len() <= MAX_PENDING_CHANGES);
                    let refused = matches!(e, SessionError::TooManyChanges { .. });
                    prop_assert!(refused, "unexpected error {:?}", e);
                    continue;
                }
            }
            let draft = session.draft("p").unwrap().to_string();
            prop_assert_eq!(replay(&session, "p"), draft);
            let mut ids: Vec<_> = session.changes.iter().map(|c| c.id).collect();
            let n = ids.len();
            ids.sort();
            ids.dedup();
            prop_assert_eq!(ids.len(), n, "letters are unique");
        }
    }
}

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

/// `text` with chars `range` replaced by `new`: the plain string model of one edit.
fn splice(text: &str, range: Range<usize>, new: &str) -> String {
    let mut v = chars(text);
    v.splice(range, new.chars());
    v.into_iter().collect()
}

/// Random replacements in base order (touching allowed), from raw numbers.
fn replacements(base_len: usize, raw: &[(usize, usize, String)]) -> Vec<Replacement> {
    let mut out: Vec<Replacement> = Vec::new();
    let mut at = 0;
    for (gap, len, text) in raw {
        let start = (at + gap % 4).min(base_len);
        let end = (start + len % 4).min(base_len);
        let insertion_before_previous = out.last().is_some_and(|p| p.range.start == start && !p.range.is_empty());
        if start == end && insertion_before_previous {
            continue;
        }
        out.push(Replacement { range: start..end, text: text.clone() });
        at = end;
    }
    out
}

/// The laws of a change set against its base, checked with plain strings: apply equals the
/// spliced model, invert restores the base byte for byte, map_pos is monotonic and keeps every
/// unreplaced char, map_back undoes map_pos away from replacements.
fn check_change_set(set: &ChangeSet, base: &str, model_draft: &str) -> Result<(), TestCaseError> {
    let draft = set.apply_str(base).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&draft, model_draft);
    let rope = Rope::from_str(base);
    prop_assert_eq!(set.apply(&rope).unwrap().to_string(), draft.clone());
    let inverse = set.invert(&rope).unwrap();
    let restored = inverse.apply_str(&draft).unwrap();
    prop_assert_eq!(restored.as_bytes(), base.as_bytes());
    let (b, d) = (chars(base), chars(&draft));
    prop_assert_eq!(set.draft_len(), d.len());
    for (r, dr) in set.replacements().iter().zip(set.draft_ranges()) {
        prop_assert_eq!(d[dr].iter().collect::<String>(), r.text.clone());
    }
    for assoc in [Assoc::Before, Assoc::After] {
        let mapped: Vec<usize> = (0..=b.len()).map(|p| set.map_pos(p, assoc)).collect();
        prop_assert!(mapped.windows(2).all(|w| w[0] <= w[1]), "map_pos {:?} not monotonic: {:?}", assoc, mapped);
        prop_assert!(mapped.iter().all(|&q| q <= d.len()));
    }
    for p in 0..b.len() {
        if set.replacements().iter().all(|r| !r.range.contains(&p)) {
            prop_assert_eq!(d[set.map_pos(p, Assoc::After)], b[p], "char at base {} moved wrongly", p);
        }
    }
    for p in 0..=b.len() {
        if set.touching(p..p).is_empty() {
            prop_assert_eq!(set.map_pos(p, Assoc::Before), set.map_pos(p, Assoc::After));
            prop_assert_eq!(set.map_back(set.map_pos(p, Assoc::Before)), MappedBack::Base(p));
        }
    }
    Ok(())
}

/// The original `Selection::remap` rule (before change sets), kept as the model.
fn old_remap(range: &Range<usize>, edited: &Range<usize>, new_len: usize) -> Option<Range<usize>> {
    if range.end <= edited.start && !(range.is_empty() && range.start == edited.start) {
        return Some(range.clone());
    }
    if range.start >= edited.end && !(edited.is_empty() && range.start == edited.start) {
        return Some(range.start + new_len - edited.len()..range.end + new_len - edited.len());
    }
    None
}

fn selection(path: &str, ranges: &[Range<usize>]) -> Selection {
    Selection {
        path: path.into(),
        query: "q".into(),
        new_text: String::new(),
        needle: String::new(),
        kind: SelectionKind::Matches,
        candidates: ranges
            .iter()
            .enumerate()
            .map(|(i, r)| SelectionCandidate {
                id: Letter::from_index(i).unwrap(),
                range: r.clone(),
                quality: MatchQuality::EXACT.into(),
                reindent: None,
                occurrence: i,
                stale: false,
            })
            .collect(),
        awaiting_choice: true,
        picked: Vec::new(),
    }
}

const PATHS: [&str; 2] = ["p", "q"];

#[derive(Clone, Debug)]
enum Op {
    /// Replace draft `start..start+len` (wrapped into the draft) of a path.
    Stage {
        path: usize,
        start: usize,
        len: usize,
        text: String,
    },
    /// A replace-all: several draft ranges (see `places_in`) staged as one change.
    StagePlaces {
        path: usize,
        places: Vec<(usize, usize, String)>,
    },
    /// The session ends: committed (the change sets applied to the bases become the committed
    /// texts) or reverted (the committed texts stay); the next edit opens a new session.
    End {
        commit: bool,
    },
    /// Select candidates at draft ranges of a path.
    Select {
        path: usize,
        ranges: Vec<(usize, usize)>,
    },
    Drop {
        path: usize,
    },
    /// Storage changed: the committed text edited at a few places, or replaced outright.
    Rebase {
        path: usize,
        edits: Vec<(usize, usize, String)>,
        replace_with: Option<String>,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let text = "[ab\n😀中 ]{0,4}";
    prop_oneof![
        6 => (0usize..2, 0usize..200, 0usize..6, text)
            .prop_map(|(path, start, len, text)| Op::Stage { path, start, len, text }),
        3 => (0usize..2, prop::collection::vec((0usize..200, 0usize..4, text), 1..8))
            .prop_map(|(path, places)| Op::StagePlaces { path, places }),
        1 => any::<bool>().prop_map(|commit| Op::End { commit }),
        1 => (0usize..2, prop::collection::vec((0usize..200, 0usize..5), 0..4))
            .prop_map(|(path, ranges)| Op::Select { path, ranges }),
        1 => (0usize..2).prop_map(|path| Op::Drop { path }),
        2 => (
            0usize..2,
            prop::collection::vec((0usize..200, 0usize..6, text), 0..3),
            prop::option::weighted(0.2, "[ab\n😀中 ]{0,40}"),
        )
            .prop_map(|(path, edits, replace_with)| Op::Rebase { path, edits, replace_with }),
    ]
}

/// Everything the session promises about one path, against the model draft.
fn check_path(session: &Session, path: &str, model: &Option<String>) -> Result<(), TestCaseError> {
    let Some(model) = model else {
        prop_assert!(session.draft(path).is_none(), "{} should be untouched", path);
        prop_assert!(session.changes.iter().all(|c| c.path != path));
        return Ok(());
    };
    let draft = session.draft(path).unwrap().to_string();
    prop_assert_eq!(&draft, model, "draft of {}", path);
    prop_assert_eq!(replay(session, path), draft.clone());
    let base = session.docs.get(path).unwrap().base.rope().to_string();
    let (set, idx) = session.change_set(path);
    prop_assert_eq!(idx.len(), session.changes.iter().filter(|c| c.path == path).map(|c| c.places.len()).sum::<usize>());
    check_change_set(&set, &base, &draft)?;
    let d = chars(&draft);
    for (_, place, r) in session.places_in_draft(path) {
        prop_assert_eq!(d[r].iter().collect::<String>(), place.new_text.clone());
    }
    let hulls = session.changes_in_draft(path);
    prop_assert_eq!(hulls.len(), session.changes.iter().filter(|c| c.path == path).count());
    for (c, r) in hulls {
        prop_assert_eq!(
            d[r.start..].iter().take(c.first_place().new_text.chars().count()).collect::<String>(),
            c.first_place().new_text.clone()
        );
    }
    prop_assert!(session.draft_fingerprint(path).is_some());
    Ok(())
}

proptest! {
    #![proptest_config(agentpad::internal_tests::seeded("proptest-regressions/session/model_tests.txt", 300))]

    #[test]
    fn change_sets_agree_with_the_string_model(
        base in "[ab\n😀中é ]{0,30}",
        raw in prop::collection::vec((0usize..6, 0usize..6, "[xy😀\n]{0,3}"), 0..8),
    ) {
        let n = base.chars().count();
        let reps = replacements(n, &raw);
        let set = ChangeSet::try_from_replacements(n, reps.clone()).unwrap();
        let mut model = base.clone();
        for r in reps.iter().rev() {
            model = splice(&model, r.range.clone(), &r.text);
        }
        check_change_set(&set, &base, &model)?;
    }

    #[test]
    fn bad_replacements_are_refused_not_panicked_on(
        base_len in 0usize..10,
        raw in prop::collection::vec((0usize..14, 0usize..14, "[x]{0,2}"), 0..6),
        pos in 0usize..30,
    ) {
        let mut set = ChangeSet::new(base_len);
        for (a, b, t) in raw {
            let before = set.clone();
            if set.try_push(a..b, t).is_err() {
                prop_assert_eq!(&set, &before, "a refused push changes nothing");
            }
        }
        let _ = (set.map_pos(pos, Assoc::Before), set.map_pos(pos, Assoc::After), set.map_back(pos));
        let _ = (set.map_back_pos(pos, Assoc::Before), set.map_range(pos..pos / 2), set.draft_touching(pos..pos));
        prop_assert!(set.apply_str(&"x".repeat(base_len + 1)).is_err());
    }

    #[test]
    fn diff_turns_the_old_text_into_the_new(
        old in "[ab\n😀中 ]{0,60}",
        edits in prop::collection::vec((0usize..80, 0usize..6, "[ab\n😀中 ]{0,5}"), 0..4),
        unrelated in prop::option::weighted(0.3, "[ab\n😀中 ]{0,60}"),
    ) {
        let new = unrelated.unwrap_or_else(|| {
            edits.iter().fold(old.clone(), |t, (at, len, s)| {
                let n = t.chars().count();
                let start = at % (n + 1);
                splice(&t, start..(start + len).min(n), s)
            })
        });
        let set = ChangeSet::diff(&Rope::from_str(&old), &Rope::from_str(&new));
        prop_assert_eq!(set.apply_str(&old).unwrap(), new.clone());
        prop_assert!(set.replacements().windows(2).all(|w| w[0].range.end < w[1].range.start), "touching: {:?}", set);
        check_change_set(&set, &old, &new)?;
    }

    #[test]
    fn selection_remap_keeps_the_original_rule(
        candidates in prop::collection::vec((0usize..30, 0usize..5), 0..6),
        edit_start in 0usize..30,
        edit_len in 0usize..5,
        new_len in 0usize..5,
    ) {
        let ranges: Vec<Range<usize>> = candidates.iter().map(|&(s, l)| s..s + l).collect();
        let edited = edit_start..edit_start + edit_len;
        let mut sel = selection("p", &ranges);
        sel.remap("p", &edited, new_len);
        for (c, r) in sel.candidates.iter().zip(&ranges) {
            match old_remap(r, &edited, new_len) {
                Some(moved) => { prop_assert!(!c.stale); prop_assert_eq!(&c.range, &moved); }
                None => { prop_assert!(c.stale); prop_assert_eq!(&c.range, r); }
            }
        }
        sel.remap("other", &edited, new_len); // another path: untouched
    }

    /// Random stage (overlapping edits amend), select, drop_path and rebase on two paths against
    /// a plain `String` model of each draft.
    #[test]
    fn sessions_follow_the_string_model(
        initial in prop::collection::vec("[ab\n😀中 ]{0,40}", 2),
        ops in prop::collection::vec(op(), 1..40),
    ) {
        let mut committed: Vec<String> = initial;
        let mut model: Vec<Option<String>> = vec![None, None];
        // Candidates selected, with their text when selected: a candidate that is not stale
        // still holds that text.
        let mut selected: Vec<String> = Vec::new();
        let mut session = Session::new(1);
        for op in ops {
            match op {
                Op::Stage { path, start, len, text } => {
                    let name = PATHS[path];
                    if model[path].is_none() {
                        session.touch(name, &Text::from_storage(&committed[path]));
                        model[path] = Some(committed[path].clone());
                    }
                    let draft = model[path].clone().unwrap();
                    let n = draft.chars().count();
                    let start = start % (n + 1);
                    let end = (start + len).min(n);
                    let before: Vec<PendingChange> = session.changes.clone();
                    match session.stage(name, start..end, &text) {
                        Ok(staged) => {
                            prop_assert_eq!(staged.draft_range, start..end);
                            model[path] = Some(splice(&draft, start..end, &text));
                        }
                        Err(e) => {
                            let refused = matches!(e, SessionError::TooManyChanges { limit: MAX_PENDING_CHANGES });
                            prop_assert!(refused, "unexpected error {:?}", e);
                            prop_assert_eq!(session.room(), 0);
                            prop_assert_eq!(&session.changes, &before, "a refused stage changes nothing");
                        }
                    }
                }
                Op::StagePlaces { path, places } => {
                    let name = PATHS[path];
                    if model[path].is_none() {
                        session.touch(name, &Text::from_storage(&committed[path]));
                        model[path] = Some(committed[path].clone());
                    }
                    let draft = model[path].clone().unwrap();
                    let places = places_in(draft.chars().count(), &places);
                    let edits: Vec<(Range<usize>, &str)> = places.iter().map(|(r, t)| (r.clone(), t.as_str())).collect();
                    let before: Vec<PendingChange> = session.changes.clone();
                    match session.stage_places(name, &edits) {
                        Ok(staged) => {
                            let mut next = draft.clone();
                            for (r, t) in places.iter().rev() {
                                next = splice(&next, r.clone(), t);
                            }
                            model[path] = Some(next);
                            prop_assert!(session.changes.len() <= before.len() + 1);
                            if let Some(id) = staged.change {
                                let c = session.changes.iter().find(|c| c.id == id).unwrap();
                                if !staged.amended {
                                    // Nothing merged in: the change holds its places, never the
                                    // text between them (the old merged range did).
                                    prop_assert!(before.iter().all(|b| b.id != id), "a new letter");
                                    let held: usize = c.places.iter().map(|p| p.old_text.chars().count()).sum();
                                    let replaced: usize = places.iter().map(|(r, _)| r.len()).sum();
                                    prop_assert!(held <= replaced, "change {} holds {} chars for {} replaced: {:?}", id, held, replaced, c);
                                    prop_assert!(c.places.len() <= places.len());
                                } else {
                                    // Merged: it keeps the earliest letter of what it joined, and
                                    // every other change is as it was.
                                    prop_assert!(before.iter().any(|b| b.id == id), "an earlier letter");
                                    let joined: Vec<&PendingChange> = before.iter().filter(|b| !session.changes.contains(b)).collect();
                                    prop_assert!(joined.iter().all(|b| b.id >= id));
                                }
                            }
                        }
                        Err(e) => {
                            let refused = matches!(e, SessionError::TooManyChanges { limit: MAX_PENDING_CHANGES });
                            prop_assert!(refused, "unexpected error {:?}", e);
                            prop_assert_eq!(&session.changes, &before, "a refused stage changes nothing");
                        }
                    }
                }
                Op::End { commit } => {
                    for (i, name) in PATHS.iter().enumerate() {
                        if commit && model[i].is_some() {
                            // What a commit writes: the change set applied to the base.
                            let base = session.docs.get(*name).unwrap().base.rope().clone();
                            let written = session.change_set(name).0.apply(&base).unwrap().to_string();
                            prop_assert_eq!(Some(&written), model[i].as_ref());
                            committed[i] = written;
                        }
                        model[i] = None;
                    }
                    session = Session::new(2);
                    selected.clear();
                }
                Op::Select { path, ranges } => {
                    let name = PATHS[path];
                    let text = model[path].clone().unwrap_or_else(|| committed[path].clone());
                    let t = chars(&text);
                    let ranges: Vec<Range<usize>> = ranges
                        .iter()
                        .map(|&(s, l)| { let s = s % (t.len() + 1); s..(s + l).min(t.len()) })
                        .collect();
                    selected = ranges.iter().map(|r| t[r.clone()].iter().collect()).collect();
                    session.selection = Some(selection(name, &ranges));
                }
                Op::Drop { path } => {
                    let name = PATHS[path];
                    let expected = session.changes.iter().filter(|c| c.path == name).count();
                    let selection_here = session.selection.as_ref().is_some_and(|s| s.path == name);
                    prop_assert_eq!(session.drop_path(name), expected);
                    model[path] = None;
                    if selection_here {
                        prop_assert!(session.selection.is_none());
                    }
                }
                Op::Rebase { path, edits, replace_with } => {
                    let name = PATHS[path];
                    let new_base = replace_with.unwrap_or_else(|| {
                        edits.iter().fold(committed[path].clone(), |t, (at, len, s)| {
                            let n = t.chars().count();
                            let start = at % (n + 1);
                            splice(&t, start..(start + len).min(n), s)
                        })
                    });
                    let previous: Vec<PendingChange> =
                        session.changes.iter().filter(|c| c.path == name).cloned().collect();
                    let others: Vec<PendingChange> =
                        session.changes.iter().filter(|c| c.path != name).cloned().collect();
                    let selection_here = session.selection.as_ref().is_some_and(|s| s.path == name);
                    let rebase = session.rebase(name, &Text::from_storage(&new_base));
                    committed[path] = new_base.clone();
                    if selection_here {
                        prop_assert!(session.selection.is_none());
                    }
                    prop_assert_eq!(
                        session.changes.iter().filter(|c| c.path != name).cloned().collect::<Vec<_>>(),
                        others
                    );
                    if model[path].is_none() {
                        prop_assert!(rebase.kept.is_empty() && rebase.conflicts.is_empty());
                        continue;
                    }
                    // kept + conflicts == the previous changes, letters and texts unchanged.
                    let mut all: Vec<Letter> =
                        rebase.kept.iter().copied().chain(rebase.conflicts.iter().map(|c| c.id)).collect();
                    all.sort();
                    prop_assert_eq!(all, previous.iter().map(|c| c.id).collect::<Vec<_>>());
                    for c in &rebase.conflicts {
                        prop_assert!(previous.contains(c), "a conflict is returned as it was");
                    }
                    let nb = chars(&new_base);
                    for id in &rebase.kept {
                        let now = session.changes.iter().find(|c| c.id == *id).unwrap();
                        let was = previous.iter().find(|c| c.id == *id).unwrap();
                        prop_assert_eq!(now.places.len(), was.places.len());
                        prop_assert_eq!(now.amended, was.amended);
                        for (p, w) in now.places.iter().zip(&was.places) {
                            prop_assert_eq!((&p.old_text, &p.new_text), (&w.old_text, &w.new_text));
                            prop_assert_eq!(nb[p.base_range.clone()].iter().collect::<String>(), p.old_text.clone());
                        }
                    }
                    prop_assert_eq!(session.docs.get(name).unwrap().base.rope().to_string(), new_base);
                    // The new draft is the new base with the kept changes applied (replay, below).
                    model[path] = Some(replay(&session, name));
                }
            }
            for (i, name) in PATHS.iter().enumerate() {
                check_path(&session, name, &model[i])?;
            }
            let mut ids: Vec<Letter> = session.changes.iter().map(|c| c.id).collect();
            let n = ids.len();
            ids.sort();
            ids.dedup();
            prop_assert_eq!(ids.len(), n, "letters are unique");
            if let Some(sel) = &session.selection {
                let text = model[PATHS.iter().position(|p| *p == sel.path).unwrap()].clone();
                if let Some(text) = text {
                    let t = chars(&text);
                    for (c, was) in sel.candidates.iter().zip(&selected) {
                        if !c.stale {
                            prop_assert_eq!(&t[c.range.clone()].iter().collect::<String>(), was);
                        }
                    }
                }
            }
        }
    }
}
