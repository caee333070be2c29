//! The flat text a document keeps for search (`Text::flat`) is made with the text — at open,
//! at commit from the old flat text and the change set, at every reload — and always equals
//! the rope's text (docs/performance.md#edit-calls). Checked here on `Text` directly over random
//! change sets, and through a workspace over random sequences of edits, commits (also failed
//! ones), external changes (with and without automatic rebase) and refreshes.

#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::changeset::ChangeSet;
use agentpad::text::{fingerprint_of, Text};
use agentpad::Config;
use common::Host;
use proptest::prelude::*;
use ropey::Rope;
use serde_json::json;

/// Text with what makes offsets hard: multi-byte chars, surrogate pairs in UTF-16, CR, LF and
/// U+FEFF (which becomes a BOM at the start of a committed text without one).
fn text_strategy(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![Just('a'), Just('z'), Just(' '), Just('\n'), Just('\r'), Just('é'), Just('中'), Just('😀'), Just('\u{FEFF}')],
        0..max,
    )
    .prop_map(|v| v.into_iter().collect())
}

/// Sorted, non-overlapping replacements over `n` chars from raw cut points.
fn change_set(n: usize, cuts: &[(usize, usize, String)]) -> ChangeSet {
    let mut sorted = cuts.to_vec();
    sorted.sort_by_key(|c| c.0);
    let mut set = ChangeSet::new(n);
    let mut at = 0;
    for (start, len, text) in sorted {
        let start = start.min(n).max(at);
        let end = (start + len).min(n);
        // Line breaks in the rope are LF only: a replacement never brings a CR in.
        set.try_push(start..end, text.replace('\r', "")).unwrap();
        at = end;
    }
    set
}

/// Everything the flat text must agree with.
fn assert_consistent(t: &Text, what: &str) {
    assert!(t.has_flat(), "{what}: the flat text is not built");
    assert_eq!(t.flat(), t.rope().to_string(), "{what}: flat text differs from the rope");
    assert_eq!(t.fingerprint(), fingerprint_of(t.rope()), "{what}: fingerprint");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// At open and at commit: the flat text is built and is the rope's text; the committed text
    /// is what `with_rope` (the rope-only way) gives, in content, storage form and bytes written.
    #[test]
    fn the_committed_flat_text_is_the_draft(
        raw in text_strategy(60),
        cuts in proptest::collection::vec((0usize..80, 0usize..5, text_strategy(8)), 0..7),
    ) {
        let base = Text::from_storage(&raw);
        assert_consistent(&base, "opened");
        let owned = Text::from_storage_string(raw.clone());
        prop_assert_eq!(owned.rope(), base.rope());
        let set = change_set(base.rope().len_chars(), &cuts);
        let draft = set.apply(base.rope()).unwrap();
        let committed = base.committed(draft.clone(), &set);
        assert_consistent(&committed, "committed");
        let reference = base.with_rope(draft);
        prop_assert_eq!(committed.rope(), reference.rope());
        prop_assert_eq!((committed.has_bom(), committed.line_ending()), (reference.has_bom(), reference.line_ending()));
        prop_assert_eq!(committed.fingerprint(), reference.fingerprint());
        prop_assert_eq!(committed.to_storage(), reference.to_storage());
        // A commit of a commit: the flat text carries through.
        let set2 = change_set(committed.rope().len_chars(), &cuts[cuts.len() / 2..]);
        let again = committed.committed(set2.apply(committed.rope()).unwrap(), &set2);
        assert_consistent(&again, "committed twice");
    }

    /// `apply_flat` itself (the commit's fast path, which `committed` would otherwise hide
    /// behind its fallback): the same text as applying the change set to the rope.
    #[test]
    fn apply_flat_is_apply(
        raw in text_strategy(60),
        cuts in proptest::collection::vec((0usize..80, 0usize..5, text_strategy(8)), 0..7),
    ) {
        let base = Text::from_storage(&raw);
        let set = change_set(base.rope().len_chars(), &cuts);
        prop_assert_eq!(set.apply_flat(base.rope(), base.flat()).unwrap(), set.apply(base.rope()).unwrap().to_string());
        let shorter = base.flat().get(..base.flat().len().saturating_sub(1)).unwrap_or_default();
        if !base.flat().is_empty() && base.flat().is_char_boundary(shorter.len()) {
            prop_assert!(set.apply_flat(base.rope(), shorter).is_err(), "a flat text that is not the rope's is refused");
        }
    }

    /// Storage's new text taken as an edit of the old one (an external change, a reload): the
    /// same text as opening it afresh — rope, flat text, fingerprint, storage form — and the
    /// change set returned leads from the old rope to the new one.
    #[test]
    fn a_reloaded_text_is_the_text_opened_afresh(
        raw in text_strategy(60),
        cuts in proptest::collection::vec((0usize..80, 0usize..5, text_strategy(8)), 0..7),
        other in text_strategy(40),
        rewrite in any::<bool>(),
    ) {
        let old = Text::from_storage(&raw);
        // A few replacements of the stored text, or another text altogether.
        let new_raw = if rewrite { other } else { change_set(raw.chars().count(), &cuts).apply_str(&raw).unwrap() };
        let (reloaded, changes) = old.reloaded(new_raw.clone());
        let fresh = Text::from_storage(&new_raw);
        assert_consistent(&reloaded, "reloaded");
        prop_assert_eq!(reloaded.rope(), fresh.rope());
        prop_assert_eq!((reloaded.has_bom(), reloaded.line_ending()), (fresh.has_bom(), fresh.line_ending()));
        prop_assert_eq!(reloaded.to_storage(), fresh.to_storage());
        // Small texts are always diffed by lines: the change set is there.
        prop_assert_eq!(&changes.expect("the line diff").apply(old.rope()).unwrap(), reloaded.rope());
        prop_assert!(reloaded.flat_index_bytes().is_some(), "a reloaded text comes with its index");
    }

    /// A change set that does not fit (another base) falls back to the draft's own text.
    #[test]
    fn a_change_set_that_does_not_fit_falls_back_to_the_draft(raw in text_strategy(30), other in text_strategy(30)) {
        let base = Text::from_storage(&raw);
        let draft = Rope::from_str(&other.replace('\r', ""));
        let wrong = ChangeSet::new(base.rope().len_chars() + 1);
        let committed = base.committed(draft.clone(), &wrong);
        assert_consistent(&committed, "fallback");
        let reference = base.with_rope(draft);
        prop_assert_eq!(committed.rope(), reference.rope());
    }
}

/// One step of a random workspace history.
#[derive(Clone, Debug)]
enum Op {
    /// `memo_replace` of line `n` (mod the line count) by this text.
    Edit(usize, String),
    Commit,
    /// A commit whose write fails.
    FailedCommit,
    /// Another program rewrites line `n` (the workspace hears of it).
    External(usize, String),
    Refresh,
    Revert,
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let line = proptest::collection::vec(prop_oneof![Just('b'), Just('é'), Just('😀'), Just(' ')], 0..6)
        .prop_map(|v| v.into_iter().collect::<String>());
    prop_oneof![
        3 => (0usize..20, line.clone()).prop_map(|(n, s)| Op::Edit(n, s)),
        2 => Just(Op::Commit),
        1 => Just(Op::FailedCommit),
        2 => (0usize..20, line).prop_map(|(n, s)| Op::External(n, s)),
        1 => Just(Op::Refresh),
        1 => Just(Op::Revert),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Through the workspace: after every commit, reload and external change the document's
    /// text has its flat text built (the next search does not build it) and it is the rope's
    /// text; after a failed commit it is built again on the next search, the same text.
    #[test]
    fn every_text_the_workspace_takes_comes_with_its_flat_text(
        crlf in any::<bool>(),
        bom in any::<bool>(),
        auto_rebase in any::<bool>(),
        ops in proptest::collection::vec(op_strategy(), 1..14),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let lines: Vec<String> = (0..8).map(|i| format!("line {i} 中😀")).collect();
        let raw = format!("{}{}{eol}", if bom { "\u{FEFF}" } else { "" }, lines.join(eol));
        let mut host = Host::with_config(&[("a", raw.as_str())], Config { auto_rebase, ..Config::default() });
        assert_consistent(&host.ws.document("a").unwrap().text, "opened");
        let mut serial = 0;
        for op in ops {
            serial += 1;
            match &op {
                Op::Edit(n, s) => {
                    let draft = host.ws.draft(Some("a")).unwrap();
                    let lines: Vec<&str> = draft.lines().collect();
                    let old = lines[n % lines.len().max(1)].to_string();
                    host.call("memo_replace", json!({"old_text": old, "new_text": format!("edit {serial} {s}")}));
                }
                Op::Commit | Op::FailedCommit => {
                    host.fail_next_save = matches!(op, Op::FailedCommit);
                    host.call("memo_commit", json!({"summary": "s"}));
                }
                Op::External(n, s) => {
                    let stored = host.stored("a").to_string();
                    let mut lines: Vec<String> = stored.split(eol).map(str::to_string).collect();
                    let i = n % lines.len();
                    lines[i] = format!("external {serial} {s}");
                    host.external_write("a", &lines.join(eol));
                }
                Op::Refresh => {
                    host.call("memo_refresh", json!({}));
                }
                Op::Revert => {
                    host.call("memo_revert", json!({"reason": "r"}));
                }
            }
            host.fail_next_save = false;
            let text = &host.ws.document("a").unwrap().text;
            let failed = matches!(op, Op::FailedCommit) && host.ws.state() != agentpad::WorkflowState::Idle;
            if failed {
                // Let go of at the commit; the next search builds it again.
                prop_assert_eq!(text.flat(), text.rope().to_string());
            } else if !matches!(op, Op::Edit(..) | Op::Revert) {
                assert_consistent(text, &format!("after {op:?}"));
            }
            prop_assert_eq!(text.flat(), text.rope().to_string());
        }
    }
}

/// Text whose blocks differ (src/text_index.rs rules blocks out only then): stretches of many
/// different chars, one-byte and multibyte, and lines repeated from a few, so needles occur
/// once, twice or many times, across block edges too.
fn indexed_text_strategy() -> impl Strategy<Value = String> {
    let diverse = prop_oneof![8 => proptest::char::range('!', '~'), 1 => Just('é'), 1 => proptest::char::range('一', '龥'), 1 => Just('😀'), 1 => Just('\n')];
    let line = prop_oneof![Just("let total = items.len();\n"), Just("    x.push(y);\n"), Just("aaaa aaaa\n"), Just("中文 行\n")];
    let piece = prop_oneof![
        3 => proptest::collection::vec(diverse, 1..3000).prop_map(|v| v.into_iter().collect::<String>()),
        1 => (line, 1usize..80).prop_map(|(l, n)| l.repeat(n)),
    ];
    // Half of them twice over: each needle then occurs at least twice, at other distances from
    // the block edges in each half, and missing one of the two would stage an ambiguous edit.
    (proptest::collection::vec(piece, 1..16), any::<bool>()).prop_map(|(v, twice)| v.concat().repeat(if twice { 2 } else { 1 }))
}

/// One step of a search-heavy history.
#[derive(Clone, Debug)]
enum SearchOp {
    /// `memo_replace` of the substring of the draft at (start, len) in chars: unique → staged,
    /// repeated → refused as ambiguous.
    One(usize, usize),
    /// The same with `replace_all`: every occurrence.
    All(usize, usize),
    /// `One` for a needle that starts `back` bytes before the edge of index block `block` as a
    /// text of this size is split when opened (even blocks of at most 4 KB): occurrences in a
    /// block's last bytes reach into the next one.
    Edge(usize, usize, usize),
    Commit,
    /// Another program replaces the committed text's substring at (start, len) in chars (taken
    /// as an edit of the committed text, its block index updated), when nothing is pending.
    External(usize, usize),
}

fn search_op_strategy() -> impl Strategy<Value = SearchOp> {
    let len = prop_oneof![2 => 3usize..12, 2 => 12usize..60, 1 => 60usize..5000];
    prop_oneof![
        3 => (any::<usize>(), len.clone()).prop_map(|(a, n)| SearchOp::One(a, n)),
        3 => (any::<usize>(), 1usize..5, len.clone()).prop_map(|(b, back, n)| SearchOp::Edge(b, back, n)),
        2 => (any::<usize>(), len).prop_map(|(a, n)| SearchOp::All(a, n)),
        2 => Just(SearchOp::Commit),
        1 => (any::<usize>(), 0usize..300).prop_map(|(a, n)| SearchOp::External(a, n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Through the workspace, on texts of several index blocks, across commits (each updating
    /// the committed text's block index): a needle the draft holds once is staged where a
    /// `String` model has it, one it holds more than once is never staged as if unique, and
    /// `replace_all` replaces exactly `str::replace`'s occurrences.
    #[test]
    fn searches_through_the_block_index_agree_with_a_string_model(
        raw in indexed_text_strategy(),
        ops in proptest::collection::vec(search_op_strategy(), 1..12),
    ) {
        let mut host = Host::new(&[("a", raw.as_str())]);
        let mut model = host.ws.draft(Some("a")).unwrap();
        let mut committed = model.clone();
        let mut serial = 0;
        for op in ops {
            serial += 1;
            let pick = |a: usize, n: usize| -> String {
                let chars: Vec<char> = model.chars().collect();
                let start = a % chars.len().max(1);
                chars[start..(start + n).min(chars.len())].iter().collect()
            };
            let op = match op {
                SearchOp::Edge(block, back, n) => {
                    let bytes = model.len();
                    let blocks = bytes.div_ceil(4096).max(1);
                    let mut at = ((block % blocks) * bytes / blocks).saturating_sub(back);
                    while !model.is_char_boundary(at) {
                        at -= 1;
                    }
                    SearchOp::One(model[..at].chars().count(), n)
                }
                other => other,
            };
            match op {
                SearchOp::One(a, n) | SearchOp::All(a, n) => {
                    let needle = pick(a, n);
                    if needle.trim().chars().count() < 3 {
                        continue;
                    }
                    let all = matches!(op, SearchOp::All(..));
                    let with = format!("⟨{serial}⟩");
                    let r = host.call("memo_replace", json!({"old_text": needle, "new_text": with, "replace_all": all}));
                    let count = model.matches(needle.as_str()).count();
                    if all {
                        prop_assert_eq!(r.status, agentpad::Status::Success, "replace_all of {:?} ({} places)", needle, count);
                        model = model.replace(needle.as_str(), &with);
                    } else if count == 1 && model.find(needle.as_str()).is_some_and(|at| common::cuts_a_word(&model, at, &needle)) {
                        // One match cutting a word of the document: a candidate to confirm.
                        prop_assert_eq!(r.status, agentpad::Status::StaleReference, "unique {:?} cuts a word", needle);
                        host.call("memo_revert", json!({"reason": "r"}));
                        model = committed.clone();
                    } else if count == 1 {
                        prop_assert_eq!(r.status, agentpad::Status::Success, "unique {:?}", needle);
                        model = model.replacen(needle.as_str(), &with, 1);
                    } else {
                        prop_assert_ne!(r.status, agentpad::Status::Success, "{:?} occurs {} times: never staged as unique", needle, count);
                        if host.ws.state() == agentpad::WorkflowState::SelectionPending {
                            // The candidates it offers block a commit: drop the session.
                            host.call("memo_revert", json!({"reason": "r"}));
                            model = committed.clone();
                        }
                    }
                }
                SearchOp::Edge(..) => {}
                SearchOp::External(a, n) => {
                    if model != committed {
                        continue; // pending changes: a conflict, not a reload
                    }
                    let chars: Vec<char> = committed.chars().collect();
                    let start = a % chars.len().max(1);
                    let end = (start + n).min(chars.len());
                    let stored: String = chars[..start].iter().chain(format!("«{serial}»").chars().collect::<Vec<_>>().iter()).chain(chars[end..].iter()).collect();
                    host.external_write("a", &stored);
                    model = stored.clone();
                    committed = stored;
                    prop_assert_eq!(host.ws.text(Some("a")).unwrap(), model.clone(), "reloaded");
                    prop_assert!(host.ws.document("a").unwrap().text.flat_index_bytes().is_some(), "a reloaded text comes with its index");
                }
                SearchOp::Commit => {
                    let r = host.call("memo_commit", json!({"summary": "s"}));
                    prop_assert!(matches!(r.status, agentpad::Status::Success | agentpad::Status::NoOp), "commit: {}", r.markdown);
                    prop_assert_eq!(host.ws.text(Some("a")).unwrap(), model.clone(), "committed");
                    committed = model.clone();
                    prop_assert!(host.ws.document("a").unwrap().text.flat_index_bytes().is_some(), "a committed text comes with its index");
                }
            }
            prop_assert_eq!(host.ws.draft(Some("a")).unwrap(), model.clone(), "after {:?}", op);
        }
    }
}

/// The first search after a commit reads the committed text's block index (updated from the
/// old one at the commit, docs/performance.md#commit-and-text): the old text's (same length
/// here, so nothing tells them apart by size) has no trigram of the words the commit brought,
/// and would miss them.
#[test]
fn the_first_search_after_a_commit_uses_the_committed_texts_index() {
    let raw: String = (0..8000).map(|i| format!("line {i:05} of the text\n")).collect();
    let mut host = Host::new(&[("a", raw.as_str())]);
    for (needle, with) in [("line 05000 of", "zqxj 05000 of"), ("line 07000 of", "kvwy 07000 of")] {
        let r = host.call("memo_replace", json!({"old_text": needle, "new_text": with}));
        assert_eq!(r.status, agentpad::Status::Success, "{}", r.markdown);
    }
    let r = host.call("memo_commit", json!({"summary": "same length"}));
    assert_eq!(r.status, agentpad::Status::Success, "{}", r.markdown);
    let committed = host.ws.document("a").unwrap().text.clone();
    assert_eq!(committed.flat().len(), raw.len());
    // The commit's fingerprint is the new text's, made at once (every response carries it).
    assert_eq!(r.fingerprint, Some(fingerprint_of(committed.rope()).to_string()));
    for (needle, with) in [("zqxj 05000", "ZQXJ 05000"), ("kvwy 07000", "KVWY 07000")] {
        let r = host.call("memo_replace", json!({"old_text": needle, "new_text": with}));
        assert_eq!(r.status, agentpad::Status::Success, "{needle}: {}", r.markdown);
        // Found by the exact search (a fuzzy tier reads the rope, and would hide a miss).
        assert_eq!(r.match_quality.as_deref(), Some("exact"), "{needle}");
    }
    // A second commit, then an external change: the reload is an edit of the committed text
    // (its index updated from the commit's) and is found by what it brought.
    let r = host.call("memo_commit", json!({"summary": "caps"}));
    assert_eq!(r.status, agentpad::Status::Success, "{}", r.markdown);
    let stored = host.stored("a").replace("line 03000 of", "ywvk 03000 of");
    assert!(host.external_write("a", &stored));
    assert_eq!(host.ws.text(Some("a")).unwrap(), stored);
    for needle in ["ywvk 03000", "ZQXJ 05000"] {
        let r = host.call("memo_replace", json!({"old_text": needle, "new_text": "seen"}));
        assert_eq!(r.status, agentpad::Status::Success, "{needle}: {}", r.markdown);
        assert_eq!(r.match_quality.as_deref(), Some("exact"), "{needle}");
    }
}
