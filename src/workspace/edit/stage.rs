//! Staging: the edits a tool found become pending changes of the session, all or nothing, with
//! the response that shows them (docs/architecture.md#pending-changes).

use std::ops::Range;

use ropey::Rope;

use super::{Edit, StageInfo};
use crate::format::signed;
use crate::matching::CandidateQuality;
use crate::preview;
use crate::response::{Response, Status};
use crate::session::{Session, SessionError};
use crate::text::{self, Text};
use crate::tools::Tool;
use crate::workflow::PersistMode;
use crate::workspace::views::pending_views;
use crate::workspace::{Step, Workspace};

impl Workspace {
    /// Stages (or, with `preview_only`, shows) `edits` — draft ranges of `path` in document
    /// order, not overlapping — all or nothing.
    pub(super) fn stage(&mut self, path: &str, edits: Vec<Edit>, info: StageInfo) -> Step {
        self.stage_as(path, edits, info, false)
    }

    /// [`Workspace::stage`]; with `one_change` the edits (a replace-all's places) become one
    /// pending change with a place each (docs/architecture.md#pending-changes).
    pub(super) fn stage_as(&mut self, path: &str, edits: Vec<Edit>, info: StageInfo, one_change: bool) -> Step {
        let p = self.config.tool_prefix.clone();
        let draft = self.draft_rope(path);
        if edits.iter().all(|e| draft.slice(e.range.clone()) == e.new_text.as_str()) {
            let r = Response::new(Status::NoOp, "The new text is the same as the text there: there is nothing to change.")
                .with_guidance("Give new_text the text you want in its place.");
            return Step::Done(self.finish(r, Some(path)));
        }
        let places = edits.len();
        let one_change = one_change && places > 1;
        let committed = self.open_doc(path).text.clone();
        // Stage into a copy (ropes clone in O(1)); it replaces the real session only when every
        // edit was staged and this is not a preview.
        let mut session = self.session.clone().unwrap_or_else(|| Session::new(self.next_session_id));
        session.touch(path, &committed);
        let mut shift: isize = 0;
        let mut letters = Vec::new();
        let mut amended = false;
        let mut delta = 0isize;
        let mut first_line = None;
        // What this call changes, as spans from the draft before it to the draft after it.
        let list: Vec<(Range<usize>, &str)> = edits.iter().map(|e| (e.range.clone(), e.new_text.as_str())).collect();
        let call_spans = crate::workspace::replace_all::call_spans(&draft, &list).unwrap_or_default();
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
                    first_line.get_or_insert(staged.draft_range.start);
                }
                Err(SessionError::TooManyChanges { limit }) => {
                    let r = Response::new(
                        Status::Blocked,
                        format!(
                            "This would need more than the {limit} pending changes (A–Z) one session can hold{}. Nothing was changed.",
                            if edits.len() > 1 && !one_change { format!(" ({} edits)", edits.len()) } else { String::new() }
                        ),
                    )
                    .with_guidance(if self.is_visible(Tool::Commit) {
                        format!("Call {p}_commit(summary) to save the pending changes; the next edit starts a new session with all 26 letters free.")
                    } else {
                        format!("Drop the pending changes with {p}_revert(reason), or make this edit touch a pending change (that amends it and needs no letter).")
                    });
                    return Step::Done(self.finish(r, Some(path)));
                }
                Err(SessionError::NotTouched { path }) => {
                    let r = Response::new(Status::Exception, format!("Internal error: document {path} was not prepared for editing. Nothing was changed."));
                    return Step::Done(self.finish(r, Some(&path)));
                }
                Err(SessionError::OutOfRange { path, range, draft_len }) => {
                    let r = Response::new(
                        Status::Exception,
                        format!("Internal error: range {range:?} lies outside the {draft_len} chars of {path}'s draft. Nothing was changed."),
                    )
                    .with_guidance(format!("Read the document again with {p}_read and retry; please report this."));
                    return Step::Done(self.finish(r, Some(&path)));
                }
            }
        }
        if let Some(refused) = self.too_large_after(path, &committed, &draft, session.draft(path)) {
            return Step::Done(refused);
        }
        if let Some(sel) = &mut session.selection {
            if info.chosen.is_some() {
                sel.awaiting_choice = false;
            } else if sel.path == path {
                // An edit that did not come from the selection ends it.
                session.selection = None;
            }
        }
        crate::sort::sort_by(&mut letters, |a, b| a.cmp(b));
        letters.dedup();
        let new_draft = session.draft(path).cloned().unwrap_or_default();
        // The diff of what this call changed, draft before → draft after (memo_preview shows
        // every pending change against the committed text): a response stays the size of one
        // edit however many changes are pending, and its line numbers are the draft's.
        // A replace-all is one change with its places (what `stats` counts).
        let change_of: Vec<usize> = (0..call_spans.len()).map(|i| if one_change { 0 } else { i }).collect();
        let preview_text = preview::render_changes(&draft, &new_draft, &call_spans, &change_of, path, &self.preview_options(None, None));
        let line = text::line_of(&new_draft, first_line.unwrap_or(0));
        let what = match (letters.as_slice(), amended) {
            ([], _) => "no change (this edit restores the committed text there)".to_string(),
            ([id], false) if one_change => format!("change {id} ({places} places)"),
            ([id], true) if one_change => format!("change {id} ({places} places; amended: merged with the pending changes it touches)"),
            ([id], false) => format!("change {id}"),
            ([id], true) => format!("change {id} (amended: merged with an edit it touches)"),
            (ids, _) => format!(
                "changes {} ({} edits)",
                ids.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", "),
                edits.len()
            ),
        };
        let quality = info.quality;
        let how = match quality {
            Some(q @ CandidateQuality::Similar(_)) => format!(" It was not an exact match but a similar region ({q}): check the preview."),
            Some(q @ CandidateQuality::Unescaped(_)) => format!(" Found with old_text's escapes read as characters (match_quality `{q}`), not exactly: check the preview."),
            Some(q @ CandidateQuality::Merged(_)) => format!(
                " Your old_text differed from the text there ({q}): only your change (old_text → new_text) was applied to that text. Check the preview."
            ),
            Some(q @ CandidateQuality::Match(m)) => m
                .describe()
                .map_or(String::new(), |d| format!(" Found with {d} (match_quality `{q}`), not exactly: check the preview.")),
            None => String::new(),
        };
        let chosen = info.chosen.map_or(String::new(), |l| format!(" (candidate {l})"));
        let (mut summary, guidance) = if info.preview_only {
            (
                format!("Preview only: this edit{chosen} at {path} line {line} would become {what}; nothing was staged.{how}"),
                format!("Call {} again without preview_only to stage it.", info.tool.name(&p)),
            )
        } else {
            let staged = format!("Staged {what}{chosen} in {path} at line {line} ({} chars).", signed(delta));
            match self.config.persist_mode {
                PersistMode::Manual => (
                    format!("{staged} Nothing is saved until commit.{how}"),
                    format!("Check the preview, then call {p}_commit(summary) to save, or {p}_revert(reason) to drop all pending changes."),
                ),
                PersistMode::Disabled => (
                    format!("{staged} Persistence is disabled: nothing is ever written to storage.{how}"),
                    format!("Check the preview, then call {p}_commit(summary) to apply the changes in memory, or {p}_revert(reason) to drop them."),
                ),
                // The commit below replaces the guidance.
                PersistMode::Immediate => (format!("{staged}{how}"), String::new()),
            }
        };
        for n in &info.notes {
            summary.push(' ');
            summary.push_str(n);
        }
        let mut r = Response::new(Status::Success, summary).with_guidance(guidance);
        if info.warn || quality.is_some_and(|q| !q.is_exact()) {
            r = r.warn();
        }
        r.preview = Some(preview_text);
        r.match_quality = quality.map(|q| q.to_string());
        r.metrics.delta = delta;
        r.metrics.new_length = Some(new_draft.len_chars());
        r.fingerprint = session.draft_fingerprint(path).map(|f| f.to_string());
        if info.preview_only {
            // Report the trial's pending changes, not the real ones.
            let mut done = self.finish(r, Some(path));
            done.pending_changes = pending_views(&session, &self.docs);
            return Step::Done(done);
        }
        if self.session.is_none() {
            self.next_session_id += 1;
        }
        self.session = Some(session);
        if self.config.persist_mode != PersistMode::Immediate {
            // What saves the changes depends on the state this edit leaves.
            r.guidance = Some(self.save_or_drop("Check the preview, then call "));
        }
        if self.pending_in(path) == 0 {
            // The edit restored the committed text, which storage holds: a failed save of this
            // document has nothing left to retry, so it no longer keeps the workspace OutOfSync.
            self.persist_failures.remove(path);
        }
        if self.config.persist_mode == PersistMode::Immediate {
            // Immediate mode: the edit is saved at once; tasks stay open, since
            // one edit rarely finishes one.
            let summary = format!("Edit at {path} line {line}");
            let lead = crate::workspace::persist::Lead { summary: r.summary, preview: r.preview, warned: r.warned };
            return self.commit(&summary, false, Some(lead));
        }
        Step::Done(self.finish(r, Some(path)))
    }

    /// `InvalidArguments` when an edit would grow `path` past [`crate::workspace::MAX_DOCUMENT_BYTES`] (in
    /// storage form: `committed`'s line ending and BOM). An edit that shrinks a document already
    /// above it (after a rebase) passes. Cost: O(1).
    fn too_large_after(&self, path: &str, committed: &Text, before: &Rope, after: Option<&Rope>) -> Option<Response> {
        let (old, new) = (committed.storage_len_of(before), committed.storage_len_of(after?));
        let limit = crate::workspace::MAX_DOCUMENT_BYTES;
        if new <= limit || new <= old {
            return None;
        }
        let r = Response::new(
            Status::InvalidArguments,
            format!(
                "This edit would make {path} {new} bytes (it is {old} now), over the limit of {limit} bytes ({} MiB) per document. Nothing was changed.",
                limit / (1024 * 1024)
            ),
        )
        .with_guidance("Stage a smaller new_text, or put the rest in another document; the pending changes are as they were.");
        Some(self.finish(r, Some(path)))
    }
}
