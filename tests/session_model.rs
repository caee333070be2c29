//! Property tests: any sequence of staged edits keeps the session's laws, checked against a
//! plain model (the base string with the pending changes applied from scratch).
#![cfg(not(target_arch = "wasm32"))]

use agentpad::session::{PendingChange, Session, SessionError, MAX_PENDING_CHANGES};
use agentpad::text::Text;
use proptest::prelude::*;

/// The base with every pending change applied, left to right; panics if two changes overlap,
/// touch, or misreport their old text — the laws the session promises.
fn replay(session: &Session, path: &str) -> String {
    let base: Vec<char> = session.docs[path].base.rope().to_string().chars().collect();
    let mut changes: Vec<&PendingChange> = session.changes.iter().filter(|c| c.path == path).collect();
    changes.sort_by_key(|c| c.base_range.start);
    let mut out = String::new();
    let mut at = 0;
    for (i, c) in changes.iter().enumerate() {
        assert!(i == 0 || c.base_range.start > at, "changes overlap or touch: {changes:?}");
        out.extend(&base[at..c.base_range.start]);
        assert_eq!(c.old_text, base[c.base_range.clone()].iter().collect::<String>());
        assert_ne!(c.old_text, c.new_text, "a no-op change was kept");
        out.push_str(&c.new_text);
        at = c.base_range.end;
    }
    out.extend(&base[at..]);
    out
}

fn edit() -> impl Strategy<Value = (usize, usize, String)> {
    (0usize..200, 0usize..6, "[a-c\n😀中]{0,4}")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

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
