//! Staging: the edits a tool found become pending changes of the session, all or nothing, with
//! the response that shows them (docs/architecture.md#pending-changes). [`plan`] stages into a
//! copy of the session and decides on plain data; [`Workspace::stage_as`] applies the plan and
//! words it.

use std::ops::Range;

use ropey::Rope;

use super::{Edit, StageInfo};
use crate::preview::{self, ChangeSpan};
use crate::session::{Letter, Session, SessionError};
use crate::text::{self, Text};
use crate::workflow::PersistMode;
use crate::workspace::outcome::{ChangeMade, EditOutcome, Refusal, Staged};
use crate::workspace::views::pending_views;
use crate::workspace::words;
use crate::workspace::{Step, Workspace, MAX_DOCUMENT_BYTES};

/// What staging edits into a copy of the session came to.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    /// The session with the edits staged (and the selection ended or marked chosen).
    pub session: Session,
    pub change: ChangeMade,
    /// Chars added minus chars removed.
    pub delta: isize,
    /// Draft offset of the first edit, in the draft after it.
    pub first: usize,
    /// What this call changes, as spans from the draft before it to the draft after it.
    pub call_spans: Vec<ChangeSpan>,
}

/// Stages `edits` — draft ranges of `path` in document order, not overlapping — into
/// `session` (a copy; the workspace's is untouched), all or nothing; with `one_change` (and
/// more than one edit) they become one pending change with a place each. `chosen`: the
/// selection's candidate the edit came from. Refused when the edits change nothing, would need more letters than
/// a session has, or would make the document larger than [`MAX_DOCUMENT_BYTES`] in storage
/// form (`committed`'s line ending and BOM; an edit that shrinks a document already above it
/// passes). Pure. Cost: O(edits · log k) for k pending changes, plus the edits' text.
pub(super) fn plan(
    mut session: Session,
    path: &str,
    draft: &Rope,
    committed: &Text,
    edits: &[Edit],
    one_change: bool,
    chosen: Option<Letter>,
) -> Result<Plan, Refusal> {
    let list: Vec<(Range<usize>, &str)> = edits.iter().map(|e| (e.range.clone(), e.new_text.as_str())).collect();
    // The spans of what changes: none when every place already holds its new text (compared
    // once per place, here and for the preview alike).
    let call_spans = crate::workspace::replace_all::call_spans(draft, &list);
    let same = match &call_spans {
        Some(spans) => spans.is_empty(),
        None => edits.iter().all(|e| draft.get_slice(e.range.clone()).is_some_and(|t| t == e.new_text.as_str())),
    };
    if same {
        return Err(Refusal::SameText);
    }
    let call_spans = call_spans.unwrap_or_default();
    let places = edits.len();
    let one_change = one_change && places > 1;
    session.touch(path, committed);
    let (mut shift, mut delta, mut amended) = (0isize, 0isize, false);
    let mut letters: Vec<Letter> = Vec::new();
    let mut first = None;
    // A replace-all's places are staged together, as one change; other edits one by one.
    let batches: Vec<&[(Range<usize>, &str)]> = if one_change { vec![&list[..]] } else { list.chunks(1).collect() };
    for batch in batches {
        let shifted: Vec<(Range<usize>, &str)> =
            batch.iter().map(|(r, t)| ((r.start as isize + shift) as usize..(r.end as isize + shift) as usize, *t)).collect();
        match session.stage_places(path, &shifted) {
            Ok(staged) => {
                shift += staged.delta;
                delta += staged.delta;
                amended |= staged.amended;
                letters.extend(staged.change);
                first.get_or_insert(staged.draft_range.start);
            }
            Err(SessionError::TooManyChanges { limit }) => {
                return Err(Refusal::TooManyChanges { limit, edits: if one_change { 1 } else { places } })
            }
            Err(SessionError::NotTouched { path }) => return Err(Refusal::NotPrepared { path }),
            Err(SessionError::OutOfRange { path, range, draft_len }) => return Err(Refusal::OutOfRange { path, range, draft_len }),
        }
    }
    if let Some(after) = session.draft(path) {
        let (now, bytes) = (committed.storage_len_of(draft), committed.storage_len_of(after));
        if bytes > MAX_DOCUMENT_BYTES && bytes > now {
            return Err(Refusal::TooLarge { path: path.to_string(), bytes, now, limit: MAX_DOCUMENT_BYTES });
        }
    }
    session.staged_edit(path, chosen);
    crate::sort::sort_by(&mut letters, |a, b| a.cmp(b));
    letters.dedup();
    let change = match letters.as_slice() {
        [] => ChangeMade::Restored,
        [id] => ChangeMade::One { id: *id, amended, places: if one_change { places } else { 1 } },
        ids => ChangeMade::Several { ids: ids.to_vec(), edits: places },
    };
    Ok(Plan { session, change, delta, first: first.unwrap_or(0), call_spans })
}

impl Workspace {
    /// Stages (or, with `preview_only`, shows) `edits` — draft ranges of `path` in document
    /// order, not overlapping — all or nothing.
    pub(super) fn stage(&mut self, path: &str, edits: Vec<Edit>, info: StageInfo) -> Step {
        self.stage_as(path, edits, info, false)
    }

    /// [`Workspace::stage`]; with `one_change` the edits (a replace-all's places) become one
    /// pending change with a place each (docs/architecture.md#pending-changes). Cost: [`plan`],
    /// then the preview of what this call changed.
    pub(super) fn stage_as(&mut self, path: &str, edits: Vec<Edit>, info: StageInfo, one_change: bool) -> Step {
        let draft = self.draft_rope(path);
        let committed = self.open_doc(path).text.clone();
        // Stage into a copy (ropes clone in O(1)); it replaces the real session only when every
        // edit was staged and this is not a preview.
        let session = self.turn.session.clone().unwrap_or_else(|| Session::new(self.turn.next_session_id));
        let plan = match plan(session, path, &draft, &committed, &edits, one_change, info.chosen) {
            Ok(plan) => plan,
            Err(refusal) => return self.refuse(refusal, Some(path)),
        };
        let one_change = one_change && edits.len() > 1;
        let new_draft = plan.session.draft(path).cloned().unwrap_or_default();
        // The diff of what this call changed, draft before → draft after (memo_preview shows
        // every pending change against the committed text): a response stays the size of one
        // edit however many changes are pending, and its line numbers are the draft's.
        // A replace-all is one change with its places (what `stats` counts).
        let change_of: Vec<usize> = (0..plan.call_spans.len()).map(|i| if one_change { 0 } else { i }).collect();
        // One line of context: the model wrote old_text and sees where it landed (preview.rs).
        let mut opts = self.preview_options(None, None);
        opts.context_lines = opts.context_lines.min(preview::STAGED_CONTEXT_LINES);
        let preview_text = preview::render_changes(&draft, &new_draft, &plan.call_spans, &change_of, path, &opts);
        let line = text::line_of(&new_draft, plan.first);
        let staged = Staged {
            tool: info.tool,
            path: path.to_string(),
            line,
            change: plan.change,
            chosen: info.chosen,
            quality: info.quality,
            delta: plan.delta,
            preview_only: info.preview_only,
            notes: info.notes,
            warn: info.warn || info.quality.is_some_and(|q| !q.is_exact()),
        };
        let fingerprint = plan.session.draft_fingerprint(path).map(|f| f.to_string());
        let with_data = |mut r: crate::response::Response| {
            r.preview = Some(preview_text);
            r.match_quality = info.quality.map(|q| q.to_string());
            r.metrics.delta = plan.delta;
            r.metrics.new_length = Some(new_draft.len_chars());
            r.fingerprint = fingerprint;
            r
        };
        if info.preview_only {
            let r = with_data(self.worded(&EditOutcome::Staged(staged)));
            // Report the trial's pending changes, not the real ones.
            let mut done = self.finish(r, Some(path));
            done.pending_changes = pending_views(&plan.session, &self.documents.docs);
            return Step::Done(done);
        }
        if self.turn.session.is_none() {
            self.turn.next_session_id += 1;
        }
        self.turn.session = Some(plan.session);
        // Worded against the state this edit leaves: what saves the changes depends on it.
        let r = with_data(self.worded(&EditOutcome::Staged(staged)));
        if self.pending_in(path) == 0 {
            // The edit restored the committed text, which storage holds: a failed save of this
            // document has nothing left to retry, so it no longer keeps the workspace OutOfSync.
            self.sync.persist_failures.remove(path);
        }
        if self.settings.config.persist_mode == PersistMode::Immediate {
            // Immediate mode: the edit is saved at once; tasks stay open, since
            // one edit rarely finishes one.
            let summary = words::immediate_commit_summary(path, line, self.settings.config.locale);
            let lead = crate::workspace::persist::Lead { summary: r.summary, preview: r.preview, warned: r.warned };
            return self.commit(&summary, false, Some(lead));
        }
        Step::Done(self.finish(r, Some(path)))
    }
}
