//! The edit tools' decisions on plain data (they are pure: outcomes, not strings, are tested),
//! and the wording of every outcome in both locales.

use ropey::Rope;

use super::choose::{decide, near_report, Choice};
use super::near_pick::{decide_pick, Pick};
use super::*;
use crate::format::{Locale, RenderOptions};
use crate::matching::elide::Unmapped;
use crate::matching::gutter::GutterKind;
use crate::matching::near::NearMissView;
use crate::matching::normalize::Tier;
use crate::matching::recommend::Reason;
use crate::matching::three_way::ConflictReason;
use crate::matching::Budget;
use crate::matching::MatchQuality;
use crate::response::{Response, Status};
use crate::session::{Selection, SelectionCandidate, SelectionKind};
use crate::text::Text;
use crate::workspace::outcome::*;
use crate::workspace::registry::ReadArgs;
use crate::workspace::words;
use crate::workspace::{Config, Workspace};

fn letter(s: &str) -> Letter {
    Letter::parse(s).unwrap()
}

fn exact(range: Range<usize>) -> Match {
    Match { range, quality: MatchQuality::EXACT, reindent: None }
}

fn fuzzy(range: Range<usize>) -> Match {
    Match { range, quality: MatchQuality { tier: Some(Tier::Whitespace), gutter: false, elided: false }, reindent: None }
}

fn search(old: &str, new: &str) -> Search {
    Search {
        tool: Tool::Replace,
        path: "a.txt".into(),
        query: format!("replace\u{0}{old}\u{0}"),
        needle: Needle::OldText(old.into()),
        new_text: new.into(),
        anchor_end: None,
        match_id: None,
        show_all: false,
        preview_only: false,
        replace_all: false,
        expected: None,
        notes: Vec::new(),
        warn: false,
    }
}

fn selection(ranges: &[(Range<usize>, bool)]) -> Selection {
    Selection {
        path: "a.txt".into(),
        query: "q".into(),
        new_text: "n".into(),
        needle: String::new(),
        kind: SelectionKind::Matches,
        candidates: ranges
            .iter()
            .enumerate()
            .map(|(i, (range, stale))| SelectionCandidate {
                id: Letter::from_index(i).unwrap(),
                range: range.clone(),
                quality: MatchQuality::EXACT.into(),
                reindent: None,
                occurrence: i,
                stale: *stale,
            })
            .collect(),
        awaiting_choice: true,
        picked: Vec::new(),
    }
}

// ---- deciding ---------------------------------------------------------------------------

#[test]
fn a_fingerprint_refusal_names_both_fingerprints() {
    assert_eq!(fingerprint_refusal("a", None, "f1"), None);
    assert_eq!(fingerprint_refusal("a", Some("f1"), "f1"), None);
    assert_eq!(
        fingerprint_refusal("a", Some("f0"), "f1"),
        Some(Refusal::DraftMoved { path: "a".into(), expected: "f0".into(), now: "f1".into() })
    );
}

#[test]
fn spans_pair_each_start_with_the_first_end_after_it() {
    let starts = [exact(0..2), exact(10..12)];
    let ends = [exact(5..7), exact(20..22)];
    let spans: Vec<Range<usize>> = pair_spans(&starts, &ends, false, false).into_iter().map(|m| m.range).collect();
    assert_eq!(spans, vec![0..7, 10..22]);
    let kept: Vec<Range<usize>> = pair_spans(&starts, &ends, true, true).into_iter().map(|m| m.range).collect();
    assert_eq!(kept, vec![2..5, 12..20]);
    // A start after every end has no span; a fuzzy start gives its quality.
    assert!(pair_spans(&[exact(30..31)], &ends, false, false).is_empty());
    assert_eq!(pair_spans(&[fuzzy(0..2)], &ends, false, false)[0].quality, fuzzy(0..0).quality);
}

#[test]
fn span_markers_new_text_drops_are_noted() {
    assert_eq!(lost_span_markers("fn a", "}", false, false, "fn a() { 1 }"), Vec::<Note>::new(), "both restated");
    assert_eq!(
        lost_span_markers("fn a", "// end", false, true, "fn b"),
        vec![Note::SpanMarkerLost { end: SpanEnd::Start, marker: "fn a".into() }],
        "the end is kept, the start is lost"
    );
}

#[test]
fn line_keys_that_moved_or_vanished_are_named() {
    let draft = Rope::from_str("one\ntwo\nthree\n");
    let key = |line: usize, text: &str| LineKey::of(line, text);
    assert!(changed_lines(&draft, None, key(1, "one"), key(3, "three")).is_empty());
    assert_eq!(changed_lines(&draft, None, key(9, "x"), key(9, "x")), vec![LineChange::Gone { line: 9, last: 3 }], "one entry per line");
    assert_eq!(
        changed_lines(&draft, None, key(2, "TWO"), key(2, "TWO")),
        vec![LineChange::Differs { line: 2, now: "two".into(), now_key: key(2, "two"), read: key(2, "TWO") }]
    );
    // Both ends match, a line between differs from the text the keys were read from.
    let read = Rope::from_str("one\n2\nthree\n");
    assert_eq!(
        changed_lines(&draft, Some(&read), key(1, "one"), key(3, "three")),
        vec![LineChange::Moved { line: 2, now: "two".into(), now_key: key(2, "two"), was: "2".into() }]
    );
}

#[test]
fn deleting_lines_takes_a_line_break() {
    let draft = Rope::from_str("a\nb\nc");
    assert_eq!(lines_range(&draft, 2, 2, false), 2..3);
    assert_eq!(lines_range(&draft, 2, 2, true), 2..4, "the break after");
    assert_eq!(lines_range(&draft, 3, 3, true), 3..5, "the last line: the break before");
}

#[test]
fn one_match_is_staged_several_are_listed() {
    let draft = Rope::from_str("x = 1\nx = 1\n");
    let s = search("x = 1", "x = 2");
    match decide(&s, &[exact(0..5)], &draft, None, false) {
        Choice::One { edit, chosen: None, select: false, warn: false, .. } => {
            assert_eq!(edit, Edit { range: 0..5, new_text: "x = 2".into() })
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        decide(&s, &[exact(0..5), exact(6..11)], &draft, None, false),
        Choice::List(ListReason::Several { quality: MatchQuality::EXACT })
    );
    // A fuzzy single match is staged with a warning.
    assert!(matches!(decide(&s, &[fuzzy(0..5)], &draft, None, false), Choice::One { warn: true, .. }));
}

#[test]
fn expected_occurrences_and_replace_all_decide_on_counts_and_quality() {
    let draft = Rope::from_str("x = 1\nx = 1\n");
    let two = [exact(0..5), exact(6..11)];
    let mut s = search("x = 1", "x = 2");
    s.expected = Some(3);
    assert_eq!(
        decide(&s, &two, &draft, None, false),
        Choice::List(ListReason::ExpectedOccurrences { expected: 3, found: 2, lines: vec![1, 2] })
    );
    s.expected = Some(2);
    s.replace_all = true;
    match decide(&s, &two, &draft, None, false) {
        Choice::All { edits, quality } => {
            assert_eq!(edits.len(), 2);
            assert!(quality.is_exact());
        }
        other => panic!("{other:?}"),
    }
    let fuzzy_two = [fuzzy(0..5), fuzzy(6..11)];
    assert!(matches!(decide(&s, &fuzzy_two, &draft, None, false), Choice::List(ListReason::ReplaceAllNotExact { found: 2, .. })));
}

#[test]
fn a_match_id_picks_refuses_or_relists() {
    let draft = Rope::from_str("x = 1\nx = 1\n");
    let two = [exact(0..5), exact(6..11)];
    let mut s = search("x = 1", "x = 2");
    s.match_id = Some(letter("B"));
    // Without a listing: the letter a listing would give, and the search becomes the selection.
    assert!(matches!(decide(&s, &two, &draft, None, false), Choice::One { chosen: Some(l), select: true, .. } if l == letter("B")));
    s.match_id = Some(letter("C"));
    assert_eq!(
        decide(&s, &two, &draft, None, false),
        Choice::Refuse(Refusal::MatchIdOutOfRange { letter: letter("C"), needle: Needle::OldText("x = 1".into()), count: 2 })
    );
    // The text was reloaded since the listing: list again instead of guessing.
    assert_eq!(decide(&s, &two, &draft, None, true), Choice::List(ListReason::ListingReloaded { letter: letter("C") }));
    // A stale candidate of the live selection is refused.
    let sel = selection(&[(0..5, true), (6..11, false)]);
    s.match_id = Some(letter("A"));
    assert_eq!(decide(&s, &two[1..], &draft, Some(&sel), false), Choice::Refuse(Refusal::StaleCandidate { letter: letter("A") }));
}

#[test]
fn a_listing_shows_five_live_candidates_and_marks_the_recommended_one() {
    use super::choose::show_listing;
    let draft = Rope::from_str(&"x = 1\n".repeat(8));
    let ranges: Vec<(Range<usize>, bool)> = (0..8).map(|i| (i * 6..i * 6 + 5, i < 2)).collect();
    let sel = selection(&ranges);
    // The two stale ones (A, B) are listed where they fall but take no place.
    let hints = crate::matching::recommend::Hints { anchor_end: Some(20), ..Default::default() };
    let (shown, recommended) = show_listing(&draft, &sel.candidates, 5, &hints);
    assert_eq!(shown.iter().map(|c| c.id.as_str()).collect::<String>(), "ABCDEFG");
    assert_eq!(recommended, Some((4, Reason::AfterAnchor)), "E starts first after the anchor's end");
    assert!(shown[4].recommended && shown.iter().filter(|c| c.recommended).count() == 1);
    let (_, none) = show_listing(&draft, &sel.candidates, 5, &Default::default());
    assert_eq!(none, None, "no hint: no clear winner among equal lines");
}

#[test]
fn a_selection_pick_checks_path_letter_and_staleness() {
    let sel = selection(&[(0..5, false), (6..11, true)]);
    assert_eq!(
        super::pick_from(&sel, Some("b.txt"), 0),
        Err(Refusal::SelectionElsewhere { given: "b.txt".into(), selection_path: "a.txt".into() })
    );
    assert_eq!(super::pick_from(&sel, None, 5), Err(Refusal::SelectionIdOutOfRange { index: 5, count: 2, last: Some(letter("B")) }));
    assert_eq!(super::pick_from(&sel, None, 1), Err(Refusal::StaleCandidate { letter: letter("B") }));
    assert_eq!(super::pick_from(&sel, Some("a.txt"), 0).map(|c| c.id), Ok(letter("A")));
}

#[test]
fn near_misses_are_offered_only_when_a_choice_can_be_set() {
    let draft = Rope::from_str("database:\n  timeout: 30\n");
    let s = search("timeout: 3O", "timeout: 60");
    let (report, lettered) = near_report(&s, &draft, "timeout: 3O", 0.8, true, &Budget::search());
    assert_eq!(lettered.len(), 1);
    let offered = report.offered.clone().unwrap();
    assert_eq!((offered.line, offered.count), (2, 1));
    assert_eq!(report.regions.first().and_then(|r| r.id.clone()), Some("A".to_string()));
    let (report, lettered) = near_report(&s, &draft, "timeout: 3O", 0.8, false, &Budget::search());
    assert_eq!((report.offered, lettered.len()), (None, 1), "a preview letters them but offers none");
    // Found only before search_after: the anchor is what to fix.
    let mut s = search("database", "db");
    s.anchor_end = Some(12);
    let (report, _) = near_report(&s, &draft, "database", 0.8, true, &Budget::search());
    assert_eq!((report.after_anchor, report.before_anchor), (true, Some(1)));
}

#[test]
fn a_near_miss_pick_merges_or_refuses_with_what_is_there() {
    let draft = Rope::from_str("host: db.local\ntimeout: 30\n");
    // Only the change is applied; the differing text there is kept.
    match decide_pick(&draft, "a", letter("A"), 0..26, "host: db.locl\ntimeout: 30", "host: db.locl\ntimeout: 60", None) {
        Pick::Stage { edit, quality: CandidateQuality::Merged(_), notes } => {
            assert_eq!(edit.new_text, "host: db.local\ntimeout: 60");
            assert_eq!(notes, vec![Note::KeptAsIs { places: 1, elided: false }]);
        }
        other => panic!("{other:?}"),
    }
    // A value the region has as `30`, old_text as `3O` and new_text as `60`: one token changed
    // two ways (src/matching/three_way/complete.rs), though `30` lies on a char path from `3O`
    // to `60`. Refused, quoting both lines.
    match decide_pick(&draft, "a", letter("A"), 15..26, "timeout: 3O", "timeout: 60", None) {
        Pick::Refuse(Refusal::PickConflict(c)) => assert_eq!(c.clash, Some(("timeout: 60".to_string(), "timeout: 30".to_string()))),
        other => panic!("{other:?}"),
    }
    // The same with a word new_text writes whole over the region's: `locl` is `local` there.
    match decide_pick(&draft, "a", letter("A"), 0..14, "host: db.locl", "host: db.localhost", None) {
        Pick::Stage { edit, .. } => assert_eq!(edit.new_text, "host: db.localhost"),
        other => panic!("{other:?}"),
    }
    // The change is where the texts differ and writes the misremembered `O` back: refused.
    match decide_pick(&draft, "a", letter("A"), 15..26, "timeout: 3O", "timeout: 3Os", None) {
        Pick::Refuse(Refusal::PickConflict(c)) => {
            assert_eq!(c.reason, ConflictReason::Overlap);
            assert_eq!(c.touched, "3O");
            assert_eq!((c.there.line, c.there.text.as_str()), (2, "timeout: 30"));
            assert!(c.proposal.is_some());
        }
        other => panic!("{other:?}"),
    }
    // An elided old_text whose anchor occurs nowhere: refused, naming it.
    match decide_pick(&draft, "a", letter("A"), 0..14, "host: x\n...\nport: 1", "host: y\n...\nport: 1", None) {
        Pick::Refuse(Refusal::ElidedAnchorNotOnce { piece, count: 0, .. }) => assert_eq!(piece, "host: x"),
        other => panic!("{other:?}"),
    }
}

// ---- wording ----------------------------------------------------------------------------

/// One refusal of each kind. [`refusal_kind`] fails to compile when a variant is added without
/// an entry here.
fn every_refusal() -> Vec<Refusal> {
    let there = ThereNow { letter: letter("A"), line: 3, text: "timeout: 30".into() };
    let key = LineKey::of(2, "two");
    vec![
        Refusal::DraftMoved { path: "a.txt".into(), expected: "0000000000000000".into(), now: "1111111111111111".into() },
        Refusal::AnchorMissing { path: "a.txt".into(), anchor: "[server]".into() },
        Refusal::SpanEndMissing { path: "a.txt".into(), start: "fn a".into(), end: "}".into(), start_line: 4 },
        Refusal::AppendWithChoice {
            args: vec![
                ChoiceArg::MatchId("B".into()),
                ChoiceArg::ReplaceAll,
                ChoiceArg::ExpectedOccurrences(2),
                ChoiceArg::SearchAfter("x".into()),
            ],
        },
        Refusal::EmptySpanMarker { end: SpanEnd::End },
        Refusal::NoSelection,
        Refusal::SelectionElsewhere { given: "b.txt".into(), selection_path: "a.txt".into() },
        Refusal::SelectionIdOutOfRange { index: 7, count: 2, last: Some(letter("B")) },
        Refusal::MatchIdOutOfRange { letter: letter("D"), needle: Needle::OldText("x".into()), count: 2 },
        Refusal::StaleCandidate { letter: letter("B") },
        Refusal::NotALineKey,
        Refusal::EndKeyBeforeStart { start: LineKey::of(5, "x"), end: key },
        Refusal::LinesChanged {
            path: "a.txt".into(),
            changes: vec![
                LineChange::Gone { line: 9, last: 3 },
                LineChange::Differs { line: 2, now: "two".into(), now_key: key, read: LineKey::of(2, "TWO") },
                LineChange::Moved { line: 2, now: "two".into(), now_key: key, was: "2".into() },
            ],
            shown: 1..=3,
        },
        Refusal::SameText,
        Refusal::TooManyChanges { limit: 26, edits: 3 },
        Refusal::NotPrepared { path: "a.txt".into() },
        Refusal::OutOfRange { path: "a.txt".into(), range: 5..9, draft_len: 4 },
        Refusal::TooLarge { path: "a.txt".into(), bytes: 200 << 20, now: 10, limit: 128 << 20 },
        Refusal::TooManyPlaces { needle: Needle::OldText(" ".into()), path: "a.txt".into(), limit: 10_000, replace_all: false },
        Refusal::TooManyPlaces { needle: Needle::SpanStart(" ".into()), path: "a.txt".into(), limit: 20_000, replace_all: true },
        Refusal::ElidedElsewhere { lines: (7, 9), there: there.clone() },
        Refusal::ElidedAnchorNotOnce { path: "a.txt".into(), piece: "host:".into(), count: 2, there: there.clone() },
        Refusal::PickConflict(Box::new(PickConflict {
            reason: ConflictReason::Overlap,
            touched: "3O".into(),
            quality: CandidateQuality::Similar(0.9),
            there,
            change: crate::matching::near::difference("timeout: 3O", "timeout: 60"),
            proposal: Some(crate::matching::near::difference("timeout: 30", "timeout: 60")),
            clash: Some(("timeout: 60".into(), "timeout: 30".into())),
        })),
        Refusal::ElidedNewText { path: "a.txt".into(), why: Unmapped::Markers { old: 1, new: 0, line: "...".into() } },
        Refusal::ElidedNewText { path: "a.txt".into(), why: Unmapped::Markers { old: 2, new: 1, line: "// ...".into() } },
        Refusal::ElidedNewText { path: "a.txt".into(), why: Unmapped::BlankLines { marker: 1 } },
        Refusal::ElidedNewText { path: "a.txt".into(), why: Unmapped::Outside { marker: 2 } },
        Refusal::ElidedNewText { path: "a.txt".into(), why: Unmapped::Unsettled { marker: 1, line: "}".into(), before: false } },
        Refusal::ElidedNewText { path: "a.txt".into(), why: Unmapped::Unsettled { marker: 1, line: "fn a() {".into(), before: true } },
        Refusal::ElidedNewText {
            path: "a.txt".into(),
            why: Unmapped::Sketch { marker: 1, line: "// ...".into(), near: Some("let v = 1;".into()) },
        },
        Refusal::ElidedNewText { path: "a.txt".into(), why: Unmapped::Sketch { marker: 2, line: "// ...".into(), near: None } },
    ]
}

/// The index of `r`'s variant in [`every_refusal`]: exhaustive, so a new variant must be added.
fn refusal_kind(r: &Refusal) -> usize {
    match r {
        Refusal::DraftMoved { .. } => 0,
        Refusal::AnchorMissing { .. } => 1,
        Refusal::SpanEndMissing { .. } => 2,
        Refusal::AppendWithChoice { .. } => 3,
        Refusal::EmptySpanMarker { .. } => 4,
        Refusal::NoSelection => 5,
        Refusal::SelectionElsewhere { .. } => 6,
        Refusal::SelectionIdOutOfRange { .. } => 7,
        Refusal::MatchIdOutOfRange { .. } => 8,
        Refusal::StaleCandidate { .. } => 9,
        Refusal::NotALineKey => 10,
        Refusal::EndKeyBeforeStart { .. } => 11,
        Refusal::LinesChanged { .. } => 12,
        Refusal::SameText => 13,
        Refusal::TooManyChanges { .. } => 14,
        Refusal::NotPrepared { .. } => 15,
        Refusal::OutOfRange { .. } => 16,
        Refusal::TooLarge { .. } => 17,
        Refusal::TooManyPlaces { .. } => 18,
        Refusal::ElidedElsewhere { .. } => 19,
        Refusal::ElidedAnchorNotOnce { .. } => 20,
        Refusal::PickConflict(_) => 21,
        Refusal::ElidedNewText { .. } => 22,
    }
}

fn every_note() -> Vec<Note> {
    vec![
        Note::GuttersStripped(GutterKind::Box),
        Note::NewTextGuttersStripped,
        Note::SpanMarkerLost { end: SpanEnd::Start, marker: "fn a".into() },
        Note::LineKeysStripped,
        Note::EscapesRead,
        Note::PickEscapesRead,
        Note::PickDocumentEscapesRead,
        Note::PickGuttersIgnored,
        Note::KeptAsIs { places: 2, elided: true },
        Note::PlaceholdersFilled { count: 2 },
    ]
}

fn every_outcome() -> Vec<EditOutcome> {
    let listing = |why| Listing {
        why,
        needle: Needle::Span { start: "a".into(), end: "b".into() },
        path: "a.txt".into(),
        total: 30,
        recommended: Some((letter("B"), Reason::GoalWords)),
        hidden: 25,
        first: Some(letter("A")),
        last: Some(letter("E")),
        notes: every_note(),
        warn: true,
    };
    let staged = |change, preview_only| Staged {
        tool: Tool::Replace,
        path: "a.txt".into(),
        line: 4,
        change,
        chosen: Some(letter("B")),
        quality: Some(CandidateQuality::Merged(0.9)),
        delta: 3,
        preview_only,
        notes: every_note(),
        warn: true,
    };
    let mut all: Vec<EditOutcome> = every_refusal().into_iter().map(EditOutcome::Refused).collect();
    all.extend([
        EditOutcome::Staged(staged(ChangeMade::Restored, false)),
        EditOutcome::AlreadyStaged(AlreadyStaged { path: "a.txt".into(), id: Some(letter("B")), line: 6 }),
        EditOutcome::AlreadyStaged(AlreadyStaged { path: "a.txt".into(), id: None, line: 6 }),
        EditOutcome::Staged(staged(ChangeMade::One { id: letter("A"), amended: true, places: 3 }, false)),
        EditOutcome::Staged(staged(ChangeMade::Several { ids: vec![letter("A"), letter("B")], edits: 2 }, true)),
        EditOutcome::Listed(listing(ListReason::Several {
            quality: MatchQuality { tier: Some(Tier::Indentation), gutter: true, elided: false },
        })),
        EditOutcome::Listed(listing(ListReason::ExpectedOccurrences { expected: 1, found: 30, lines: vec![1, 2] })),
        EditOutcome::Listed(listing(ListReason::ReplaceAllNotExact {
            quality: MatchQuality { tier: Some(Tier::Unicode), gutter: false, elided: false },
            found: 30,
        })),
        EditOutcome::Listed(listing(ListReason::ListingReloaded { letter: letter("C") })),
        EditOutcome::Listed(listing(ListReason::ListingEnded { letter: letter("C") })),
        EditOutcome::NoMatch(NearMisses {
            needle: Needle::OldText("timeout: 3O".into()),
            path: "a.txt".into(),
            after_anchor: true,
            before_anchor: Some(1),
            notes: every_note(),
            regions: {
                let draft = Rope::from_str("a:\n  timeout: 30\n  host: x\n");
                let miss = |range, similarity| crate::matching::near::NearMiss { range, similarity };
                vec![
                    NearMissView::of(&draft, &miss(5..16, 0.9), "timeout: 3O", Some("A".into())),
                    NearMissView::of(&draft, &miss(19..26, 0.42), "timeout: 3O", None),
                ]
            },
            offered: Some(Offered {
                line: 3,
                similarity: 0.9,
                count: 2,
                recommended: None,
                refused: vec![RefusedPick { letter: letter("B"), line: 9, clash: Some(("max: 6".into(), "max: 16".into())) }],
            }),
            stopped: None,
        }),
        EditOutcome::NoMatch(NearMisses {
            needle: Needle::SpanStart("zzz".into()),
            path: "a.txt".into(),
            after_anchor: false,
            before_anchor: None,
            notes: Vec::new(),
            regions: Vec::new(),
            offered: None,
            stopped: None,
        }),
        EditOutcome::NoMatch(NearMisses {
            needle: Needle::OldText("}\n\n}".into()),
            path: "a.txt".into(),
            after_anchor: false,
            before_anchor: None,
            notes: Vec::new(),
            regions: Vec::new(),
            offered: None,
            stopped: Some(crate::matching::work::Stopped { candidates: 12, units: 90_000_001 }),
        }),
    ]);
    all
}

/// The status each outcome must get.
fn status_of(o: &EditOutcome) -> Status {
    match o {
        EditOutcome::Staged(_) | EditOutcome::AlreadyStaged(AlreadyStaged { id: Some(_), .. }) => Status::Success,
        EditOutcome::AlreadyStaged(_) => Status::NoOp,
        EditOutcome::Listed(Listing { why: ListReason::Several { .. } | ListReason::ReplaceAllNotExact { .. }, .. }) => Status::MultiMatch,
        EditOutcome::Listed(_) => Status::StaleReference,
        EditOutcome::NoMatch(_) => Status::NoMatch,
        EditOutcome::Refused(r) => match r {
            Refusal::AnchorMissing { .. } | Refusal::SpanEndMissing { .. } => Status::NoMatch,
            Refusal::NoSelection | Refusal::TooManyChanges { .. } => Status::Blocked,
            Refusal::SameText => Status::NoOp,
            Refusal::TooManyPlaces { .. } => Status::MultiMatch,
            Refusal::NotPrepared { .. } | Refusal::OutOfRange { .. } => Status::Exception,
            Refusal::DraftMoved { .. }
            | Refusal::StaleCandidate { .. }
            | Refusal::LinesChanged { .. }
            | Refusal::ElidedElsewhere { .. }
            | Refusal::ElidedAnchorNotOnce { .. }
            | Refusal::PickConflict(_) => Status::StaleReference,
            _ => Status::InvalidArguments,
        },
    }
}

#[test]
fn every_refusal_variant_is_covered() {
    let mut kinds: Vec<usize> = every_refusal().iter().map(refusal_kind).collect();
    kinds.dedup();
    assert_eq!(kinds, (0..23).collect::<Vec<_>>());
}

#[test]
fn every_outcome_is_worded_in_both_locales() {
    for locale in [Locale::En, Locale::Zh] {
        let ws = Workspace::new(Config { locale, ..Config::default() });
        let voice = words::Voice::of(&ws);
        for outcome in every_outcome() {
            let mut r = words::edit(&outcome, &voice);
            assert_eq!(r.status, status_of(&outcome), "{outcome:?}");
            assert!(!r.summary.trim().is_empty(), "{outcome:?}");
            let internal = matches!(outcome, EditOutcome::Refused(Refusal::NotPrepared { .. }));
            assert_eq!(r.guidance.as_deref().is_some_and(|g| !g.trim().is_empty()), !internal, "guidance of {outcome:?}: {:?}", r.guidance);
            // Every value the outcome carries is named: the summary states what went wrong.
            assert!(!r.summary.contains("{}") && !r.summary.contains("``"), "{}", r.summary);
            if matches!(outcome, EditOutcome::Refused(_)) && r.status != Status::NoOp {
                let says = if locale == Locale::En { &["Nothing was"][..] } else { &["未做任何修改", "未暂存任何内容"][..] };
                assert!(says.iter().any(|s| r.summary.contains(s)), "a refusal says nothing changed: {}", r.summary);
            }
            // The finished answer is a valid response in this locale.
            r.render(RenderOptions { locale, ..RenderOptions::default() });
            if let Err(v) = crate::validate::validate(&r.markdown) {
                panic!("{outcome:?} in {locale:?}: {v:?}\n{}", r.markdown);
            }
        }
    }
}

#[test]
fn a_staged_edit_says_what_saves_it_in_every_persist_mode() {
    use crate::workflow::PersistMode;
    let staged = |preview_only| {
        EditOutcome::Staged(Staged {
            tool: Tool::Append,
            path: "a.txt".into(),
            line: 2,
            change: ChangeMade::One { id: letter("A"), amended: false, places: 1 },
            chosen: None,
            quality: None,
            delta: -4,
            preview_only,
            notes: Vec::new(),
            warn: false,
        })
    };
    for (mode, says) in [
        (PersistMode::Manual, "Staged change A in a.txt at line 2 (-4 chars)."),
        (
            PersistMode::Disabled,
            "Staged change A in a.txt at line 2 (-4 chars). Persistence is disabled: nothing is ever written to storage.",
        ),
        (PersistMode::Immediate, "Staged change A in a.txt at line 2 (-4 chars)."),
    ] {
        let ws = Workspace::new(Config { persist_mode: mode, ..Config::default() });
        let r = words::edit(&staged(false), &words::Voice::of(&ws));
        assert_eq!((r.status, r.summary.as_str(), r.warned), (Status::Success, says, false), "{mode:?}");
        // Immediate mode commits at once: the commit's answer says what comes next.
        assert_eq!(r.guidance.as_deref().is_some_and(|g| !g.is_empty()), mode != PersistMode::Immediate, "{mode:?}");
        let r = words::edit(&staged(true), &words::Voice::of(&ws));
        assert_eq!(r.summary, "Preview only: this edit at a.txt line 2 would become change A; nothing was staged.");
        assert_eq!(r.guidance.as_deref(), Some("Call memo_append again without preview_only to stage it."));
    }
}

#[test]
fn every_note_is_a_sentence() {
    for locale in crate::locale::Locale::all() {
        let ws = Workspace::new(Config { locale, ..Config::default() });
        let voice = words::Voice::of(&ws);
        for n in every_note() {
            let s = words::note(&n, &voice);
            assert!((s.ends_with('.') || s.ends_with('。')) && s.chars().next().is_some_and(|c| !c.is_whitespace()), "{s}");
        }
    }
}

#[test]
fn refusals_name_the_bad_value_and_the_limit() {
    let ws = Workspace::new(Config::default());
    let voice = words::Voice::of(&ws);
    let word = |r: Refusal| words::edit(&EditOutcome::Refused(r), &voice).summary;
    let s = word(Refusal::TooLarge { path: "a.txt".into(), bytes: 200, now: 10, limit: 128 << 20 });
    assert!(s.contains("200 bytes") && s.contains("134217728 bytes (128 MiB)"), "{s}");
    let s = word(Refusal::MatchIdOutOfRange { letter: letter("D"), needle: Needle::OldText("x".into()), count: 2 });
    assert!(s.contains("`match_id` is D") && s.contains("2 matches (A–B)"), "{s}");
    let s = word(Refusal::TooManyChanges { limit: 26, edits: 3 });
    assert!(s.contains("26 pending changes") && s.contains("(3 edits)"), "{s}");
}

// ---- the read and memory tools' words ----------------------------------------------------

fn every_read_outcome() -> Vec<(ReadOutcome, Status)> {
    let report = ReadReport {
        path: "a.txt".into(),
        first: 1,
        last_shown: 40,
        lines: 90,
        of: ReadOf::Draft { pending: 2 },
        fingerprint: Some("0123456789abcdef".into()),
        other_documents: Some((vec!["b.md".into()], 3)),
        marked: vec![letter("A"), letter("C")],
        unmarked: vec![(letter("B"), 7)],
        gutter: ReadGutter::Keys,
        stopped_by: Some(("max_read_lines", 40)),
        clipped: vec![1, 2, 3, 4, 5, 6],
        line_chars: 10_000,
    };
    let bare = ReadReport {
        of: ReadOf::Committed,
        fingerprint: None,
        other_documents: None,
        marked: Vec::new(),
        unmarked: Vec::new(),
        gutter: ReadGutter::Bare,
        stopped_by: None,
        clipped: Vec::new(),
        ..report.clone()
    };
    vec![
        (ReadOutcome::Read(report.clone()), Status::Success),
        (
            ReadOutcome::Read(ReadReport {
                gutter: ReadGutter::Numbers,
                clipped: vec![3],
                stopped_by: Some(("max_read_chars", 100)),
                ..report
            }),
            Status::Success,
        ),
        (ReadOutcome::Read(ReadReport { of: ReadOf::Draft { pending: 0 }, ..bare.clone() }), Status::Success),
        (ReadOutcome::StartPastEnd { path: "a.txt".into(), start: 91, lines: 90 }, Status::InvalidArguments),
        (ReadOutcome::EndBeforeStart { start: 5, end: 2 }, Status::InvalidArguments),
    ]
}

fn every_version_outcome() -> Vec<(VersionOutcome, Status)> {
    let read = |of, stopped| VersionRead {
        path: "b.md".into(),
        version: "v2".into(),
        of,
        first: 1,
        last_shown: 9,
        lines: 9,
        stopped,
        path_arg: true,
    };
    vec![
        (VersionOutcome::Read(read(VersionOf::Failed { summary: "Bump".into() }, true)), Status::Success),
        (VersionOutcome::Read(read(VersionOf::Opened, false)), Status::Success),
        (VersionOutcome::Read(read(VersionOf::Created, false)), Status::Success),
        (VersionOutcome::Read(read(VersionOf::Now, false)), Status::Success),
        (VersionOutcome::Read(read(VersionOf::After { summary: "Bump".into() }, false)), Status::Success),
        (VersionOutcome::WithCurrentTextArg { arg: "line_keys", version: "v2".into() }, Status::InvalidArguments),
        (VersionOutcome::NotAVersion { given: "3".into(), current: 4 }, Status::InvalidArguments),
        (
            VersionOutcome::NoSuchVersion { path: "b.md".into(), version: "v9".into(), current: 4, path_arg: false },
            Status::InvalidArguments,
        ),
        (
            VersionOutcome::AgedOut { path: "b.md".into(), version: "v1".into(), ring: 32, bytes: 64 << 20, oldest: 3, path_arg: true },
            Status::InvalidArguments,
        ),
        (
            VersionOutcome::LinesNotInVersion { path: "b.md".into(), version: "v2".into(), start: 12, end: 9, lines: 9 },
            Status::InvalidArguments,
        ),
    ]
}

fn every_memory_outcome() -> Vec<(MemoryOutcome, Status)> {
    vec![
        (MemoryOutcome::Recalled { turns: vec![3, 5] }, Status::Success),
        (
            MemoryOutcome::NotRecalled {
                error: crate::memory::MemoryError::UnknownTurns { turns: vec![9], known: Some((1, 5)) },
                known: Some((1, 5)),
            },
            Status::NoMatch,
        ),
        (
            MemoryOutcome::NotRecalled { error: crate::memory::MemoryError::UnknownTurns { turns: vec![9], known: None }, known: None },
            Status::NoMatch,
        ),
        (MemoryOutcome::Found { count: 2, query: "timeout".into() }, Status::Success),
        (MemoryOutcome::NotFound { query: "x".into(), why: NothingFound::StoreEmpty }, Status::NoMatch),
        (MemoryOutcome::NotFound { query: "的".into(), why: NothingFound::NoWords }, Status::NoMatch),
        (MemoryOutcome::NotFound { query: "zebra".into(), why: NothingFound::NoTurnMatches { stored: 4 } }, Status::NoMatch),
    ]
}

#[test]
fn every_read_version_and_memory_outcome_is_worded_in_both_locales() {
    for locale in [Locale::En, Locale::Zh] {
        let ws = Workspace::new(Config { locale, ..Config::default() });
        let voice = words::Voice::of(&ws);
        let worded: Vec<(String, Response, Status)> = every_read_outcome()
            .into_iter()
            .map(|(o, s)| (format!("{o:?}"), words::read(&o, &voice), s))
            .chain(every_version_outcome().into_iter().map(|(o, s)| (format!("{o:?}"), words::version(&o, &voice), s)))
            .chain(every_memory_outcome().into_iter().map(|(o, s)| (format!("{o:?}"), words::memory(&o, &voice), s)))
            .collect();
        for (what, mut r, status) in worded {
            assert_eq!(r.status, status, "{what}");
            assert!(!r.summary.trim().is_empty(), "{what}");
            let bare_read = what.starts_with("Read(") && what.contains("gutter: Bare") && what.contains("stopped_by: None");
            assert_eq!(r.guidance.as_deref().is_some_and(|g| !g.trim().is_empty()), !bare_read, "guidance of {what}: {:?}", r.guidance);
            r.render(RenderOptions { locale, ..RenderOptions::default() });
            if let Err(v) = crate::validate::validate(&r.markdown) {
                panic!("{what} in {locale:?}: {v:?}\n{}", r.markdown);
            }
        }
    }
}

#[test]
fn a_read_names_what_ended_it_and_where_to_go_on() {
    let ws = Workspace::new(Config::default());
    let voice = words::Voice::of(&ws);
    let (read, _) = every_read_outcome().remove(0);
    let r = words::read(&read, &voice);
    assert!(r.summary.contains("stopped at line 40: one read shows at most 40 lines (option max_read_lines)"), "{}", r.summary);
    assert!(r.summary.contains("Lines 1, 2, 3, 4, 5 and 1 more longer than 10000 chars are clipped"), "{}", r.summary);
    let g = r.guidance.unwrap_or_default();
    assert!(g.starts_with("Read on with memo_read(start_line=41).") && g.contains("memo_replace_lines"), "{g}");
}

// ---- staging ------------------------------------------------------------------------------

fn edit_at(range: Range<usize>, new_text: &str) -> Edit {
    Edit { range, new_text: new_text.into() }
}

#[test]
fn a_staging_plan_names_the_changes_it_made() {
    use super::stage::plan;
    let committed = Text::from_storage("alpha beta gamma\n");
    let draft = committed.rope().clone();
    let fresh = || crate::session::Session::new(1);
    assert_eq!(plan(fresh(), "a", &draft, &committed, &[edit_at(0..5, "alpha")], false, None).map(|p| p.change), Err(Refusal::SameText));
    let one = plan(fresh(), "a", &draft, &committed, &[edit_at(0..5, "ALPHA!")], false, None).unwrap();
    assert_eq!((one.change.clone(), one.delta, one.first), (ChangeMade::One { id: letter("A"), amended: false, places: 1 }, 1, 0));
    assert_eq!(one.session.draft("a").map(|d| d.to_string()), Some("ALPHA! beta gamma\n".into()));
    let two = [edit_at(0..5, "A"), edit_at(11..16, "G")];
    assert_eq!(
        plan(fresh(), "a", &draft, &committed, &two, false, None).map(|p| p.change),
        Ok(ChangeMade::Several { ids: vec![letter("A"), letter("B")], edits: 2 })
    );
    assert_eq!(
        plan(fresh(), "a", &draft, &committed, &two, true, None).map(|p| p.change),
        Ok(ChangeMade::One { id: letter("A"), amended: false, places: 2 }),
        "a replace-all's places are one change"
    );
    // Restoring the committed text drops the change; touching it amends it.
    let after = one.session.draft("a").cloned().unwrap();
    let restored = plan(one.session.clone(), "a", &after, &committed, &[edit_at(0..6, "alpha")], false, None).unwrap();
    assert_eq!((restored.change, restored.delta), (ChangeMade::Restored, -1));
    let amended = plan(one.session, "a", &after, &committed, &[edit_at(5..7, "? b")], false, None).unwrap();
    assert_eq!(amended.change, ChangeMade::One { id: letter("A"), amended: true, places: 1 });
}

#[test]
fn a_staging_plan_refuses_past_the_letters() {
    use super::stage::plan;
    let committed = Text::from_storage(&"x ".repeat(30));
    let mut session = crate::session::Session::new(1);
    let mut draft = committed.rope().clone();
    for i in 0..26 {
        let p = plan(session, "a", &draft, &committed, &[edit_at(i * 2..i * 2 + 1, "y")], false, None).unwrap();
        session = p.session;
        draft = session.draft("a").cloned().unwrap();
    }
    let refused = plan(session.clone(), "a", &draft, &committed, &[edit_at(56..57, "y")], false, None).map(|p| p.change);
    assert_eq!(refused, Err(Refusal::TooManyChanges { limit: 26, edits: 1 }));
    let refused = plan(session, "a", &draft, &committed, &[edit_at(54..55, "y"), edit_at(56..57, "y")], false, None).map(|p| p.change);
    assert_eq!(refused, Err(Refusal::TooManyChanges { limit: 26, edits: 2 }));
}

#[test]
fn a_no_match_carries_its_near_misses_as_data_and_as_their_text() {
    let mut ws = Workspace::new(Config::default());
    ws.open("a.yaml", "database:\n  host: db.local\n  timeout: 30\nretries: 5\n", "v1").unwrap();
    let args = serde_json::json!({ "old_text": "timeout: 3O", "new_text": "timeout: 60" });
    let crate::workspace::Step::Done(r) = ws.call("memo_replace", &args, &crate::workspace::CallContext::default()) else {
        panic!("not done")
    };
    assert_eq!(r.status, Status::NoMatch);
    assert_eq!(r.near_misses.first().and_then(|n| n.id.clone()), Some("A".to_string()));
    assert_eq!((r.near_misses.len(), r.near_misses[0].line), (2, 3));
    assert_eq!(
        r.preview.as_deref(),
        Some(crate::workspace::words::near_misses_text(&r.near_misses, crate::locale::Locale::En.words()).as_str())
    );
}

#[test]
fn a_search_past_its_work_budget_says_it_stopped_and_what_to_send_instead() {
    // Counted work, not time: 300 KB of `}` and blank lines against a 400-line needle cost
    // about two million units; a budget of one million stops the search (matching::work).
    let doc = "}\n\n".repeat(100_000);
    let needle = format!("{}x", "}\n\n".repeat(200));
    let call_within = |limit: u64, doc: &str, old: &str| {
        let mut ws = Workspace::new(Config::default());
        ws.settings.search_limit = limit;
        ws.open("a.txt", doc, "v1").unwrap();
        let args = serde_json::json!({ "old_text": old, "new_text": "y" });
        let crate::workspace::Step::Done(r) = ws.call("memo_replace", &args, &crate::workspace::CallContext::default()) else {
            panic!("not done")
        };
        r
    };
    let call = |doc: &str, old: &str| call_within(crate::matching::work::SEARCH_BUDGET, doc, old);
    let r = call_within(1_000_000, &doc, &needle);
    assert_eq!(r.status, Status::NoMatch);
    assert!(
        r.summary.contains(" stopped ") && r.summary.contains("work limit") && r.summary.contains("Nothing was changed"),
        "{}",
        r.summary
    );
    let guidance = r.guidance.clone().unwrap_or_default();
    assert!(guidance.contains("memo_replace_lines") && guidance.contains("memo_read"), "{guidance}");
    assert!(r.near_misses.is_empty() && r.preview.is_none() && r.candidates.is_empty());
    // A near miss in an ordinary document spends a sliver of the same budget and is answered.
    let r = call_within(1_000_000, "database:\n  timeout: 30\n", "timeout: 3O");
    assert!(!r.summary.contains("stopped") && r.near_misses.len() == 1, "{}", r.summary);
    // Under the real budget the large search completes: no match, nothing close.
    let r = call(&doc, &needle);
    assert!(!r.summary.contains("stopped") && r.status == Status::NoMatch, "{}", r.summary);
}

// ---- reads decide without changing anything -----------------------------------------------

fn read_args(args: serde_json::Value) -> ReadArgs {
    use crate::tools::ToolArgs;
    ReadArgs::from_checked(&crate::workspace::parse_call("memo", "memo_read", &args).unwrap().1)
}

#[test]
fn a_read_decides_its_lines_and_what_to_say_about_them() {
    let mut ws = Workspace::new(Config::default());
    ws.open("a.txt", "one\ntwo\nthree\n", "v1").unwrap();
    ws.open("b.txt", "b\n", "v1").unwrap();
    let rope = ws.draft_rope("a.txt");
    let decide = |args| ws.decide_read("a.txt", &rope, false, &read_args(args));
    assert_eq!(
        decide(serde_json::json!({ "start_line": 5 })),
        (ReadOutcome::StartPastEnd { path: "a.txt".into(), start: 5, lines: 3 }, None)
    );
    assert_eq!(decide(serde_json::json!({ "start_line": 3, "end_line": 2 })), (ReadOutcome::EndBeforeStart { start: 3, end: 2 }, None));
    let (outcome, content) = decide(serde_json::json!({ "start_line": 2, "line_keys": true }));
    let ReadOutcome::Read(report) = outcome else { panic!("{outcome:?}") };
    assert_eq!(
        (report.first, report.last_shown, report.lines, report.of, report.gutter),
        (2, 3, 3, ReadOf::Draft { pending: 0 }, ReadGutter::Keys)
    );
    assert_eq!(report.other_documents, Some((vec!["b.txt".to_string()], 0)), "no path named: the others are");
    assert_eq!(report.fingerprint, Some(ws.draft_fingerprint("a.txt").to_string()));
    assert_eq!(content.as_deref(), Some(format!("{}│ two\n{}│ three\n", LineKey::of(2, "two"), LineKey::of(3, "three")).as_str()));
    let (outcome, _) = decide(serde_json::json!({ "path": "a.txt" }));
    assert!(matches!(outcome, ReadOutcome::Read(ReadReport { other_documents: None, gutter: ReadGutter::Numbers, .. })));
}

#[test]
fn a_version_read_decides_which_text_or_why_not() {
    let mut ws = Workspace::new(Config::default());
    ws.open("a.txt", "one\ntwo\n", "v1").unwrap();
    let decide = |args: serde_json::Value| {
        let version = args["version"].as_str().unwrap_or_default().to_string();
        ws.decide_version_read("a.txt", &version, &read_args(args)).0
    };
    assert_eq!(decide(serde_json::json!({ "version": "3" })), VersionOutcome::NotAVersion { given: "3".into(), current: 0 });
    assert_eq!(
        decide(serde_json::json!({ "version": "v4" })),
        VersionOutcome::NoSuchVersion { path: "a.txt".into(), version: "v4".into(), current: 0, path_arg: false }
    );
    assert_eq!(
        decide(serde_json::json!({ "version": "v0", "line_keys": true })),
        VersionOutcome::WithCurrentTextArg { arg: "line_keys", version: "v0".into() }
    );
    assert_eq!(
        decide(serde_json::json!({ "version": "v0", "start_line": 9 })),
        VersionOutcome::LinesNotInVersion { path: "a.txt".into(), version: "v0".into(), start: 9, end: 2, lines: 2 }
    );
    assert!(matches!(
        decide(serde_json::json!({ "version": "v0" })),
        VersionOutcome::Read(VersionRead { first: 1, last_shown: 2, stopped: false, .. })
    ));
}

#[test]
fn a_commit_names_the_versions_it_saved_and_how_to_read_the_one_before() {
    let ws = Workspace::new(Config::default());
    let saved = SavedVersions { now: vec![("b.md".into(), 3), ("c.md".into(), 1)], before: 2, path_arg: true };
    assert_eq!(
        words::saved_versions(&saved, &words::Voice::of(&ws)),
        "b.md is now v3, c.md is now v1; memo_read(version=\"v2\", path=\"b.md\") shows b.md as it was before."
    );
    let saved = SavedVersions { path_arg: false, ..saved };
    assert!(words::saved_versions(&saved, &words::Voice::of(&ws)).contains("memo_read(version=\"v2\") shows b.md"));
}

#[test]
fn guidance_names_only_tools_the_voice_offers() {
    use crate::workflow::PersistMode;
    let voice = |offered: Vec<Tool>| words::Voice {
        locale: crate::locale::Locale::En,
        prefix: "nb".into(),
        persist_mode: PersistMode::Manual,
        offered,
        save_or_drop: "nb_revert(reason) drops the pending changes.".into(),
        one_document: true,
        heard: Default::default(),
    };
    let guidance = |r: Refusal, v: &words::Voice| words::edit(&EditOutcome::Refused(r), v).guidance.unwrap_or_default();
    let append = Refusal::AppendWithChoice { args: vec![ChoiceArg::ReplaceAll] };
    assert!(guidance(append.clone(), &voice(vec![Tool::Append])).ends_with("to append (or call nb_append)."));
    assert!(guidance(append, &voice(Vec::new())).ends_with("to append."));
    let full = Refusal::TooManyChanges { limit: 26, edits: 1 };
    assert!(guidance(full.clone(), &voice(vec![Tool::Commit])).starts_with("Call nb_commit(summary)"));
    assert!(guidance(full, &voice(Vec::new())).starts_with("Drop the pending changes with nb_revert(reason)"));
}
