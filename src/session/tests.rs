//! Unit tests of the session: staging, merging, letters, selections and rebasing.

use super::*;

fn session_with(text: &str) -> Session {
    let mut s = Session::new(1);
    s.touch("a", &Text::from_storage(text));
    s
}

fn draft(s: &Session) -> String {
    s.draft("a").map(|r| r.to_string()).unwrap_or_default()
}

/// The base with every place of every pending change applied, left to right; panics if two
/// places (of one change or of two) overlap, touch, or misreport their old text, if a place is
/// a no-op, or if a change has no place — the laws the session promises.
pub(super) fn replay_path(session: &Session, path: &str) -> String {
    let base: Vec<char> = session.docs.get(path).unwrap().base.rope().to_string().chars().collect();
    let changes: Vec<&PendingChange> = session.changes.iter().filter(|c| c.path == path).collect();
    assert!(changes.iter().all(|c| !c.places.is_empty()), "a change without places: {changes:?}");
    for c in &changes {
        assert!(c.places.windows(2).all(|w| w[0].base_range.end < w[1].base_range.start), "places of {} out of order: {c:?}", c.id);
    }
    let mut places: Vec<&Place> = changes.iter().flat_map(|c| &c.places).collect();
    places.sort_by_key(|p| p.base_range.start);
    let mut out = String::new();
    let mut at = 0;
    for (i, p) in places.iter().enumerate() {
        assert!(i == 0 || p.base_range.start > at, "places overlap or touch: {changes:?}");
        out.extend(&base[at..p.base_range.start]);
        assert_eq!(p.old_text, base[p.base_range.clone()].iter().collect::<String>());
        assert_ne!(p.old_text, p.new_text, "a no-op place was kept");
        out.push_str(&p.new_text);
        at = p.base_range.end;
    }
    out.extend(&base[at..]);
    out
}

/// [`replay_path`] of the one document these tests open.
fn replay(s: &Session) -> String {
    replay_path(s, "a")
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
    assert_eq!(s.changes[2].base_range(), 8..13);
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
    assert_eq!(s.changes[0].first_place().old_text, "abc def ghi");
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
        picked: Vec::new(),
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
        picked: Vec::new(),
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
    let new_base = Text::from_storage("new line\nalpha beta GAMMA! delta epsi-lon");
    let r = s.rebase("a", &new_base);
    assert_eq!(r.kept, Letter::parse("A").into_iter().chain(Letter::parse("B")).collect::<Vec<_>>());
    assert_eq!(r.conflicts.len(), 1);
    assert_eq!(r.conflicts[0].id, Letter::parse("C").unwrap());
    assert_eq!(r.conflicts[0].base_range(), 23..30, "returned as it was");
    assert_eq!(draft(&s), "new line\nalpha BETA GAMMA! DELTA epsi-lon");
    assert_eq!(replay(&s), draft(&s));
    assert_eq!(s.changes[0].base_range(), 15..19);
    assert_eq!(s.changes[1].first_place().old_text, "delta");
    assert!(s.selection.is_none());
    assert_eq!(s.docs.get("a").unwrap().base.rope().to_string(), "new line\nalpha beta GAMMA! delta epsi-lon");
    // Later edits stage against the new base.
    s.stage("a", 0..3, "NEW").unwrap();
    assert_eq!(replay(&s), draft(&s));
}

#[test]
fn an_external_edit_touching_a_change_is_a_conflict() {
    for storage in ["abc dXef", "abcdef", "abc de"] {
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
    // An insertion right at either edge stays outside (the highlight's rule).
    for (storage, want) in [("abc def!", "abc DEF!"), ("abc >def", "abc >DEF")] {
        let mut s = session_with("abc def");
        s.stage("a", 4..7, "DEF").unwrap();
        let r = s.rebase("a", &Text::from_storage(storage));
        assert_eq!((r.kept.len(), draft(&s).as_str()), (1, want), "{storage}");
    }
    // An insertion at the agent's own insertion point is ambiguous: a conflict.
    let mut s = session_with("abc def");
    s.stage("a", 3..3, "!").unwrap();
    assert_eq!(s.rebase("a", &Text::from_storage("abc? def")).conflicts.len(), 1);
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
fn places_stage_as_one_letter_holding_only_the_places() {
    let mut s = session_with("x1 a x2 b x3 c");
    s.stage("a", 3..4, "A").unwrap(); // A: the "a"
    let all = s.stage_places("a", &[(0..2, "y1"), (5..7, "y2"), (10..12, "y3")]).unwrap();
    assert_eq!((all.change, all.amended, all.delta), (Letter::parse("B"), false, 0));
    assert_eq!(draft(&s), "y1 A y2 b y3 c");
    assert_eq!(replay(&s), draft(&s));
    let b = &s.changes[1];
    assert_eq!(b.places.iter().map(|p| p.old_text.as_str()).collect::<Vec<_>>(), ["x1", "x2", "x3"]);
    assert_eq!(b.base_range(), 0..12);
    let in_draft: Vec<_> = s.places_in_draft("a").into_iter().map(|(c, _, r)| (c.id.to_string(), r)).collect();
    assert_eq!(in_draft, [("B".into(), 0..2), ("A".into(), 3..4), ("B".into(), 5..7), ("B".into(), 10..12)]);
    // An edit touching the second place joins it; the letter keeps all three.
    let m = s.stage("a", 6..8, "Z!").unwrap();
    assert_eq!((m.change, m.amended), (Letter::parse("B"), true));
    assert_eq!(s.changes[1].places[1].old_text, "x2 ");
    assert_eq!(s.changes[1].places[1].new_text, "yZ!");
    // Restoring one place drops that place only.
    s.stage("a", 0..2, "x1").unwrap();
    assert_eq!(s.changes[1].places.len(), 2);
    assert_eq!(draft(&s), "x1 A yZ!b y3 c");
    assert_eq!(replay(&s), draft(&s));
}

#[test]
fn places_touching_a_pending_change_merge_it_and_touching_places_join() {
    let mut s = session_with("aa bb aa cc aa");
    s.stage("a", 9..11, "CC").unwrap(); // A
    s.stage("a", 3..5, "BB").unwrap(); // B
                                       // Places 0..1 and 1..2 touch (one place); 6..8 touches nothing; 11..14 touches A.
    let r = s.stage_places("a", &[(0..1, "X"), (1..2, "_"), (6..8, "X"), (11..14, " X")]).unwrap();
    assert_eq!((r.change, r.amended), (Letter::parse("A"), true));
    assert_eq!(s.changes.iter().map(|c| (c.id.to_string(), c.places.len())).collect::<Vec<_>>(), [("A".into(), 3), ("B".into(), 1)]);
    assert_eq!((s.changes[0].places[0].old_text.as_str(), s.changes[0].places[0].new_text.as_str()), ("aa", "X_"));
    assert_eq!((s.changes[0].places[2].old_text.as_str(), s.changes[0].places[2].new_text.as_str()), ("cc aa", "CC X"));
    assert_eq!(draft(&s), "X_ BB X CC X");
    assert_eq!(replay(&s), draft(&s));
    // Unsorted or out-of-range places are refused and change nothing.
    let before = s.changes.clone();
    assert!(matches!(s.stage_places("a", &[(5..6, "q"), (0..1, "q")]), Err(SessionError::OutOfRange { .. })));
    assert!(matches!(s.stage_places("a", &[(0..99, "q")]), Err(SessionError::OutOfRange { .. })));
    assert_eq!(s.changes, before);
}

#[test]
fn rebase_keeps_a_letter_whole_or_drops_it_whole() {
    let mut s = session_with("k1 m k2 n k3.");
    s.stage_places("a", &[(0..2, "K1"), (5..7, "K2"), (10..12, "K3")]).unwrap(); // A
                                                                                 // External edits between places are no conflict: every place moves.
    let r = s.rebase("a", &Text::from_storage("k1 mm k2 N! k3."));
    assert_eq!((r.kept.len(), r.conflicts.len()), (1, 0));
    assert_eq!(draft(&s), "K1 mm K2 N! K3.");
    assert_eq!(replay(&s), draft(&s));
    // One at a place conflicts with the letter: all its places go.
    let r = s.rebase("a", &Text::from_storage("k1 mm k!2 N! k3."));
    assert_eq!((r.kept.len(), r.conflicts.len()), (0, 1));
    assert_eq!(r.conflicts[0].places.len(), 3);
    assert_eq!(draft(&s), "k1 mm k!2 N! k3.");
}

#[test]
fn the_selection_lives_through_picks_and_ends_with_other_edits_of_its_path() {
    let mut s = session_with("t: 30\nt: 30\n");
    let sel = Selection { awaiting_choice: true, ..selection_on("a", 0..5) };
    s.select(sel);
    assert!(s.relist("t: 60"));
    assert_eq!(s.selection.as_ref().map(|x| (x.awaiting_choice, x.new_text.as_str())), Some((true, "t: 60")));
    // A pick: staged, mapped, no longer awaiting, kept.
    s.stage("a", 6..11, "t: 600").unwrap();
    s.staged_edit("a", Letter::from_index(0));
    let kept = s.selection.clone().unwrap();
    assert!(!kept.awaiting_choice && kept.candidates[0].range == (0..5));
    assert_eq!(kept.picked, vec![Letter(b'A')], "the pick is remembered: the same search again is that change");
    // An edit of another path leaves it; another edit of its path ends it.
    s.staged_edit("b", None);
    assert!(s.selection.is_some());
    s.staged_edit("a", None);
    assert!(s.selection.is_none() && !s.relist("x"));
    // Mapping is a value: a selection on another path comes back unchanged.
    let edit = ChangeSet::try_from_replacements(12, [Replacement { range: 0..1, text: "XX".into() }]).unwrap();
    assert_eq!(selection_on("b", 2..3).mapped("a", &edit).candidates[0].range, 2..3);
    assert_eq!(selection_on("a", 2..3).mapped("a", &edit).candidates[0].range, 3..4);
}

#[test]
fn letters() {
    assert_eq!(Letter::parse("a"), None);
    assert_eq!(Letter::parse("AB"), None);
    assert_eq!(Letter::parse("Z").map(Letter::index), Some(25));
    assert_eq!(Letter::from_index(26), None);
}
