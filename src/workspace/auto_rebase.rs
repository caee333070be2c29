//! Automatic rebase (docs/co-editing.md §Automatic rebase): live, a person's keystroke between
//! two agent calls is an external change. With `auto_rebase` on, a change that does not overlap
//! the pending changes of its document maps them through it — the next summary says so — and
//! only an overlap is an `ExternalConflict`. The external change is the exact one when the
//! shell knows it (a Yjs event's delta, UTF-16 edits per step) and checks out against the text
//! storage now holds; otherwise the diff of the old and new text.

use std::ops::Range;

use ropey::Rope;

use super::outcome::StateNote;
use super::{Document, PersistEdit, Workspace};
use crate::changeset::{Assoc, ChangeSet};
use crate::text::{char_to_utf16, utf16_to_char};

impl Workspace {
    /// With `auto_rebase` on, moves the pending changes of `path` onto storage's new text when
    /// none of them overlaps the external change, says so in the next summary and returns the
    /// action for the diagnostics record; `None` (nothing changed) when the option is off, the
    /// document was deleted, a conflict on it is already pending, or a change overlaps.
    /// `steps`: the external change as the shell saw it, in order (each step UTF-16 edits of the
    /// text before it). `diffed`: the change from the committed text to storage's, which
    /// reading storage's text computed ([`Text::reloaded`](crate::text::Text::reloaded)); used
    /// instead of diffing again when the session's base is that committed text. Cost: O(steps'
    /// edits · log n) to compose them, O(n) to check them against storage's text (or the diff's
    /// cost without them and without `diffed`), and O(n) for the new draft.
    pub(super) fn auto_rebase(
        &mut self,
        path: &str,
        storage: Option<&Document>,
        steps: Option<&[Vec<PersistEdit>]>,
        diffed: Option<&ChangeSet>,
    ) -> Option<&'static str> {
        if !self.settings.config.auto_rebase || self.sync.conflicts.contains_key(path) {
            return None;
        }
        let storage = storage?;
        let session = self.turn.session.as_ref()?;
        let base_text = &session.docs.get(path)?.base;
        let base = base_text.rope();
        let exact = steps.and_then(|s| compose_steps(base, s)).filter(|(_, now)| now == storage.text.rope());
        // The diff already made, when it starts from this base (same content: same fingerprint
        // and length).
        let committed = self.documents.docs.get(path).map(|d| d.text.fingerprint());
        let diffed = diffed.filter(|set| committed == Some(base_text.fingerprint()) && set.base_len() == base.len_chars());
        let (external, how) = match (exact, diffed) {
            (Some((set, _)), _) => (set, "rebased: no overlap with the pending changes (the exact change)"),
            (None, Some(set)) => (set.clone(), "rebased: no overlap with the pending changes (a diff of the texts)"),
            (None, None) => {
                (ChangeSet::diff(base, storage.text.rope()), "rebased: no overlap with the pending changes (a diff of the texts)")
            }
        };
        let had_choice = session.selection.as_ref().is_some_and(|s| s.path == path);
        let mut trial = session.clone();
        let outcome = trial.rebase_with(path, &storage.text, &external);
        if !outcome.conflicts.is_empty() {
            return None;
        }
        self.turn.session = Some(trial);
        self.record_external(path, storage);
        self.documents.docs.insert(path.to_string(), storage.clone());
        self.sync.persist_failures.remove(path);
        let kept: Vec<String> = outcome.kept.iter().map(|l| l.to_string()).collect();
        self.note(StateNote::Rebased { path: path.to_string(), version: storage.version.clone(), kept, had_choice });
        Some(how)
    }
}

impl Workspace {
    /// Before a conflict on `path` is recorded (or updated): remembers the exact external change
    /// from the session's base to `storage`, composed from `steps` (and from the change already
    /// remembered, when a conflict on `path` is pending), for `memo_rebase`; forgets it when the
    /// steps are missing or do not lead to storage's text. Cost: as [`compose_steps`] + O(n) to
    /// check the result.
    pub(super) fn remember_exact(&mut self, path: &str, storage: Option<&Document>, steps: Option<&[Vec<PersistEdit>]>) {
        let exact = (|| {
            let (storage, steps) = (storage?, steps?);
            let (from, earlier) = match self.sync.conflicts.get(path) {
                Some(Some(pending)) => {
                    let (version, set) = self.sync.exact_external.get(path)?;
                    if *version != pending.version {
                        return None;
                    }
                    (pending.text.rope().clone(), Some(set.clone()))
                }
                Some(None) => return None,
                None => (self.turn.session.as_ref()?.docs.get(path)?.base.rope().clone(), None),
            };
            let (step, now) = compose_steps(&from, steps)?;
            if &now != storage.text.rope() {
                return None;
            }
            match earlier {
                None => Some(step),
                Some(earlier) => compose(&earlier, &step, &now),
            }
        })();
        match (exact, storage) {
            (Some(set), Some(storage)) => {
                self.sync.exact_external.insert(path.to_string(), (storage.version.clone(), set));
            }
            _ => {
                self.sync.exact_external.remove(path);
            }
        }
    }

    /// The remembered exact change of `path` if it leads from the session's base to `storage`
    /// (checked: O(n)); forgotten either way.
    pub(super) fn take_exact(&mut self, path: &str, storage: &Document) -> Option<ChangeSet> {
        let (version, set) = self.sync.exact_external.remove(path)?;
        let base = self.turn.session.as_ref()?.docs.get(path)?.base.rope();
        (version == storage.version && set.apply(base).ok().as_ref() == Some(storage.text.rope())).then_some(set)
    }
}

/// The steps composed into one change set of `base` (in chars), with the text they lead to.
/// `None` when a step does not fit the text before it: out of range, unsorted, overlapping, or
/// an offset inside a surrogate pair. Cost: O(total edits · log n + text inserted).
pub(super) fn compose_steps(base: &Rope, steps: &[Vec<PersistEdit>]) -> Option<(ChangeSet, Rope)> {
    let mut acc = ChangeSet::new(base.len_chars());
    let mut now = base.clone();
    for step in steps {
        let set = step_set(&now, step)?;
        let next = set.apply(&now).ok()?;
        acc = compose(&acc, &set, &next)?;
        now = next;
    }
    Some((acc, now))
}

/// UTF-16 edits of `text` as a char change set; `None` if they do not fit it.
fn step_set(text: &Rope, edits: &[PersistEdit]) -> Option<ChangeSet> {
    let mut set = ChangeSet::new(text.len_chars());
    let units = text.len_utf16_cu();
    for e in edits {
        if e.from > e.to || e.to > units {
            return None;
        }
        let (from, to) = (utf16_to_char(text, e.from), utf16_to_char(text, e.to));
        if char_to_utf16(text, from) != e.from || char_to_utf16(text, to) != e.to {
            return None; // inside a surrogate pair
        }
        set.try_push(from..to, e.insert.clone()).ok()?;
    }
    Some(set)
}

/// `a` (base → mid) then `b` (mid → `new`) as one change set of base. The ranges both touch
/// are merged in mid coordinates; each merged range becomes one replacement whose text is read
/// from `new`. Text between them is unchanged by both, so positions there map exactly.
/// Cost: O((k_a + k_b) · log k) + the text of the merged ranges.
fn compose(a: &ChangeSet, b: &ChangeSet, new: &Rope) -> Option<ChangeSet> {
    let mut ranges: Vec<Range<usize>> = a.draft_ranges().chain(b.replacements().iter().map(|r| r.range.clone())).collect();
    crate::sort::sort_by_key(&mut ranges, |r| (r.start, r.end));
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    let mut out = ChangeSet::new(a.base_len());
    for m in merged {
        let base = a.map_back_pos(m.start, Assoc::Before)..a.map_back_pos(m.end, Assoc::After);
        let (from, to) = (b.map_pos(m.start, Assoc::Before), b.map_pos(m.end, Assoc::After));
        if from > to || to > new.len_chars() {
            return None;
        }
        out.try_push(base, new.slice(from..to).to_string()).ok()?;
    }
    Some(out)
}

// proptest is a native-only dev-dependency (`wasm-pack test` builds unit tests for wasm32 too).
#[cfg(test)]
#[cfg(not(target_arch = "wasm32"))]
mod tests {
    use super::compose_steps;
    use crate::workspace::PersistEdit;
    use proptest::prelude::*;
    use ropey::Rope;

    fn edit(from: usize, to: usize, insert: &str) -> PersistEdit {
        PersistEdit { from, to, insert: insert.into() }
    }

    /// UTF-16 edits applied to a String, the obvious way.
    fn apply_utf16(text: &str, edits: &[PersistEdit]) -> String {
        let mut units: Vec<u16> = text.encode_utf16().collect();
        for e in edits.iter().rev() {
            units.splice(e.from..e.to, e.insert.encode_utf16());
        }
        String::from_utf16(&units).unwrap()
    }

    #[test]
    fn steps_compose_into_one_change_of_the_base() {
        let base = Rope::from_str("a😀 one two three");
        // Typing "X" after the emoji, then deleting " two" (now shifted by one), then replacing the X.
        let steps = vec![vec![edit(3, 3, "X")], vec![edit(8, 12, "")], vec![edit(3, 4, "YZ")]];
        let (set, now) = compose_steps(&base, &steps).unwrap();
        assert_eq!(now.to_string(), "a😀YZ one three");
        assert_eq!(set.apply(&base).unwrap(), now);
        let ranges: Vec<_> = set.replacements().iter().map(|r| (r.range.clone(), r.text.as_str())).collect();
        assert_eq!(ranges, vec![(2..2, "YZ"), (6..10, "")], "two separate places, in base chars");
    }

    #[test]
    fn a_step_that_does_not_fit_is_refused() {
        let base = Rope::from_str("a😀b");
        assert!(compose_steps(&base, &[vec![edit(2, 2, "x")]]).is_none(), "inside the surrogate pair");
        assert!(compose_steps(&base, &[vec![edit(0, 9, "")]]).is_none(), "past the end");
        assert!(compose_steps(&base, &[vec![edit(3, 4, ""), edit(0, 1, "")]]).is_none(), "unsorted");
        assert!(compose_steps(&base, &[vec![]]).is_some_and(|(s, _)| s.is_empty()));
    }

    use crate::workspace::{CallContext, Config, PersistResult, Step, Workspace};
    use crate::{Status, WorkflowState};
    use serde_json::json;

    fn workspace(auto_rebase: bool, text: &str) -> Workspace {
        let mut ws = Workspace::new(Config { auto_rebase, ..Config::default() });
        ws.open("a", text, "v1").unwrap();
        ws
    }

    fn call(ws: &mut Workspace, name: &str, args: serde_json::Value) -> crate::Response {
        match ws.call(name, &args, &CallContext::default()) {
            Step::Done(r) => r,
            Step::Persist(requests) => {
                let results = requests.iter().map(|r| PersistResult::Saved { path: r.path.clone(), version: "v9".into() }).collect();
                match ws.complete_persist(results) {
                    Step::Done(r) => r,
                    other => panic!("{other:?}"),
                }
            }
            other => panic!("{other:?}"),
        }
    }

    /// The write a commit asks for, without completing it.
    fn commit_request(ws: &mut Workspace) -> crate::workspace::PersistRequest {
        match ws.call("memo_commit", &json!({"summary": "s"}), &CallContext::default()) {
            Step::Persist(mut r) => r.remove(0),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_change_away_from_the_pending_ones_is_taken_and_said() {
        let mut ws = workspace(true, "alpha = 1\nbeta = 1\ngamma = 1\n");
        assert_eq!(call(&mut ws, "memo_replace", json!({"old_text": "beta = 1", "new_text": "beta = 2"})).status, Status::Success);
        // A person types on the last line: exact steps, as a Y.Text event gives them.
        let steps = vec![vec![edit(27, 28, "")], vec![edit(27, 27, "9")]];
        assert!(ws.storage_changed_with_edits("a", Some("alpha = 1\nbeta = 1\ngamma = 9\n"), Some("v2"), Some(&steps)));
        assert_eq!(ws.state(), WorkflowState::PersistPending, "no conflict");
        let r = call(&mut ws, "memo_replace", json!({"old_text": "alpha = 1", "new_text": "alpha = 2"}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
        assert!(r.markdown.contains("did not overlap them, so your 1 pending change (A) moved onto it"), "{}", r.markdown);
        let write = commit_request(&mut ws);
        assert_eq!(write.expected_version, "v2");
        assert_eq!(write.text, "alpha = 2\nbeta = 2\ngamma = 9\n");
    }

    #[test]
    fn an_overlapping_change_is_still_a_conflict() {
        let mut ws = workspace(true, "alpha = 1\nbeta = 1\n");
        call(&mut ws, "memo_replace", json!({"old_text": "beta = 1", "new_text": "beta = 2"}));
        assert!(ws.storage_changed_with_edits("a", Some("alpha = 1\nbeta = 5\n"), Some("v2"), Some(&[vec![edit(17, 18, "5")]])));
        assert_eq!(ws.state(), WorkflowState::OutOfSync);
        assert_eq!(call(&mut ws, "memo_commit", json!({"summary": "s"})).status, Status::ExternalConflict);
    }

    #[test]
    fn a_keystroke_at_either_edge_of_a_pending_change_is_outside_it() {
        // The highlight's rule (docs/co-editing.md §Awareness): typing right before or right
        // after a pending change is outside it, so it is rebased over, not a conflict.
        for (at, typed, want) in [(18, " # ok", "alpha = 1\nbeta = 2 # ok\n"), (10, "# ", "alpha = 1\n# beta = 2\n")] {
            let mut ws = workspace(true, "alpha = 1\nbeta = 1\n");
            call(&mut ws, "memo_replace", json!({"old_text": "beta = 1", "new_text": "beta = 2"}));
            let now = format!("alpha = 1\n{}", if at == 18 { "beta = 1 # ok\n" } else { "# beta = 1\n" });
            assert!(ws.storage_changed_with_edits("a", Some(&now), Some("v2"), Some(&[vec![edit(at, at, typed)]])));
            assert_eq!(ws.state(), WorkflowState::PersistPending, "an insertion at {at} is outside the change");
            assert_eq!(commit_request(&mut ws).text, want);
        }
        // A deletion reaching the change's edge, or an insertion at the agent's own insertion
        // point, is still an overlap.
        let mut ws = workspace(true, "alpha = 1\nbeta = 1\n");
        call(&mut ws, "memo_replace", json!({"old_text": "beta = 1", "new_text": "beta = 2"}));
        assert!(ws.storage_changed_with_edits("a", Some("alpha = 1beta = 1\n"), Some("v2"), Some(&[vec![edit(9, 10, "")]])));
        assert_eq!(ws.state(), WorkflowState::OutOfSync);
    }

    #[test]
    fn off_by_default_and_without_steps_the_texts_are_diffed() {
        let mut off = workspace(false, "alpha = 1\nbeta = 1\n");
        call(&mut off, "memo_replace", json!({"old_text": "beta = 1", "new_text": "beta = 2"}));
        off.storage_changed("a", Some("alpha = 7\nbeta = 1\n"), Some("v2"));
        assert_eq!(off.state(), WorkflowState::OutOfSync, "auto_rebase is opt-in");
        // A file storage knows no steps; steps that do not lead to storage's text are ignored.
        for steps in [None, Some(vec![vec![edit(0, 1, "Z")]])] {
            let mut ws = workspace(true, "alpha = 1\nbeta = 1\n");
            call(&mut ws, "memo_replace", json!({"old_text": "beta = 1", "new_text": "beta = 2"}));
            assert!(ws.storage_changed_with_edits("a", Some("alpha = 7\nbeta = 1\n"), Some("v2"), steps.as_deref()));
            assert_eq!(ws.state(), WorkflowState::PersistPending);
            assert_eq!(commit_request(&mut ws).text, "alpha = 7\nbeta = 2\n");
        }
    }

    /// Stages "x = 2" on the second of two equal lines (a multi-match, then candidate B).
    fn second_line_staged() -> Workspace {
        let mut ws = workspace(true, "x = 1\nx = 1\n");
        assert_eq!(call(&mut ws, "memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"})).status, Status::MultiMatch);
        assert_eq!(call(&mut ws, "memo_replace_selection", json!({"selection_id": "B"})).status, Status::Success);
        ws
    }

    #[test]
    fn the_exact_change_keeps_a_pending_edit_on_its_own_copy_of_repeated_text() {
        assert_eq!(commit_request(&mut second_line_staged()).edits, vec![edit(10, 11, "2")]);
        // A person inserts a third copy at the top. A diff of the texts reads that as a line
        // added at the end and leaves the change on line 2; the exact step moves it to line 3,
        // where the line it was made on now is.
        let mut ws = second_line_staged();
        assert!(ws.storage_changed_with_edits("a", Some("x = 1\nx = 1\nx = 1\n"), Some("v2"), Some(&[vec![edit(0, 0, "x = 1\n")]])));
        let write = commit_request(&mut ws);
        assert_eq!(write.edits, vec![edit(16, 17, "2")], "the agent's line moved down with the person's insertion");
        assert_eq!(write.text, "x = 1\nx = 1\nx = 2\n");
        let mut diffed = second_line_staged();
        assert!(diffed.storage_changed_with_edits("a", Some("x = 1\nx = 1\nx = 1\n"), Some("v2"), None));
        assert_eq!(commit_request(&mut diffed).edits, vec![edit(10, 11, "2")], "what a re-diff does instead");
    }

    #[test]
    fn memo_rebase_after_an_overlap_maps_the_rest_through_the_exact_change() {
        for auto in [true, false] {
            // Pending: "x = 2" on the second of two equal lines (B), and "y = 2".
            let mut ws = workspace(auto, "x = 1\nx = 1\ny = 1\n");
            assert_eq!(call(&mut ws, "memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"})).status, Status::MultiMatch);
            call(&mut ws, "memo_replace_selection", json!({"selection_id": "B"}));
            call(&mut ws, "memo_replace", json!({"old_text": "y = 1", "new_text": "y = 2"}));
            // A person duplicates the first line, then edits the y line: an overlap.
            let steps = vec![vec![edit(0, 0, "x = 1\n")], vec![edit(22, 23, "5")]];
            assert!(ws.storage_changed_with_edits("a", Some("x = 1\nx = 1\nx = 1\ny = 5\n"), Some("v2"), Some(&steps)));
            assert_eq!(ws.state(), WorkflowState::OutOfSync, "auto_rebase {auto}: the y change overlaps");
            let r = call(&mut ws, "memo_rebase", json!({}));
            assert!(r.summary.contains("kept 1 pending change (A)"), "{}", r.summary);
            let write = commit_request(&mut ws);
            assert_eq!(write.text, "x = 1\nx = 1\nx = 2\ny = 5\n", "auto_rebase {auto}: A stays on the line it was made on");
        }
    }

    #[test]
    fn the_exact_change_survives_a_second_external_change_during_the_conflict() {
        let mut ws = second_line_staged();
        // The person edits inside A (conflict), then inserts a copy of the line at the top.
        assert!(ws.storage_changed_with_edits("a", Some("x = 1\nx = !1\n"), Some("v2"), Some(&[vec![edit(10, 10, "!")]])));
        assert!(ws.storage_changed_with_edits("a", Some("x = 1\nx = 1\nx = !1\n"), Some("v3"), Some(&[vec![edit(0, 0, "x = 1\n")]])));
        let (version, set) = ws.sync.exact_external.get("a").cloned().unwrap();
        assert_eq!(version, "v3");
        assert_eq!(set.apply_str("x = 1\nx = 1\n").unwrap(), "x = 1\nx = 1\nx = !1\n");
        // Without steps the remembered change is forgotten (the diff is used).
        assert!(ws.storage_changed_with_edits("a", Some("x = 1\nx = 1\nx = !!1\n"), Some("v4"), None));
        assert!(ws.sync.exact_external.get("a").is_none());
    }

    fn text_strategy() -> impl Strategy<Value = String> {
        proptest::collection::vec(prop_oneof![Just('a'), Just('b'), Just('\n'), Just('é'), Just('😀')], 0..24)
            .prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// Random steps of random edits: the composed change set turns the base into the final
        /// text (checked against a String model), and a position away from every edit maps
        /// the way the text moved.
        #[test]
        fn composed_steps_match_a_string_model(
            base in text_strategy(),
            raw in proptest::collection::vec(proptest::collection::vec((0usize..30, 0usize..3, text_strategy()), 0..3), 0..5),
        ) {
            let mut text = base.clone();
            let mut steps = Vec::new();
            for cuts in raw {
                let chars: Vec<char> = text.chars().collect();
                let mut sorted = cuts.clone();
                sorted.sort_by_key(|c| c.0);
                let (mut at, mut edits) = (0usize, Vec::new());
                for (start, len, insert) in sorted {
                    let start = start.min(chars.len()).max(at);
                    let end = (start + len).min(chars.len());
                    let u = |i: usize| chars[..i].iter().map(|c| c.len_utf16()).sum::<usize>();
                    edits.push(edit(u(start), u(end), &insert));
                    at = end;
                }
                text = apply_utf16(&text, &edits);
                steps.push(edits);
            }
            let (set, now) = compose_steps(&Rope::from_str(&base), &steps).unwrap();
            prop_assert_eq!(now.to_string(), text.clone());
            prop_assert_eq!(set.apply_str(&base).unwrap(), text);
        }
    }
}
