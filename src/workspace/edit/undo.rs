//! `memo_undo` (docs/workflow.md#undo): the last commit of a document undone, or an earlier
//! version brought back whole, as a new commit. The restoring edit is staged like any other
//! (one pending change, its preview) and committed at once through [`Workspace::commit`], so
//! it meets the same checks as a commit the model makes: the expected version in storage, the
//! document size limit, a failed save kept as pending changes.

use super::stage::plan;
use super::Edit;
use crate::changeset::ChangeSet;
use crate::live_context::VersionKind;
use crate::preview;
use crate::session::Session;
use crate::workspace::outcome::{UndoOutcome, Undone};
use crate::workspace::persist::Lead;
use crate::workspace::registry::UndoArgs;
use crate::workspace::words::{self, Voice};
use crate::workspace::{Step, Workspace};

/// What an undo restores: the text, its version id, and the commit undone (its version and
/// summary) when no version was named.
type Target = (ropey::Rope, String, Option<(u64, String)>);

impl Workspace {
    /// `memo_undo(version?, summary?, path?)`. Offered only with nothing pending
    /// (visibility.rs), so the draft is the committed text. Without `version` it restores the
    /// text before `path`'s last commit, refused when storage changed the document after that
    /// commit (undoing it whole would drop that change too). Cost: O(RING) to find the
    /// version, one diff of the two texts ([`ChangeSet::diff`]), then a commit.
    pub(in crate::workspace) fn undo(&mut self, path: &str, args: &UndoArgs) -> Step {
        let decided = match args.version.as_deref() {
            Some(version) => {
                self.version_text(path, version).map(|(rope, _)| (rope, version.trim().to_string(), None)).map_err(UndoOutcome::Version)
            }
            None => self.last_commit_before(path),
        };
        let (target, version, undone) = match decided {
            Ok(found) => found,
            Err(o) => return self.undo_refused(&o, path),
        };
        let committed = self.open_doc(path).text.clone();
        let now = committed.rope().clone();
        if now == target {
            return self.undo_refused(&UndoOutcome::AlreadyThere { path: path.to_string(), version }, path);
        }
        let edits: Vec<Edit> = ChangeSet::diff(&now, &target)
            .replacements()
            .iter()
            .map(|r| Edit { range: r.range.clone(), new_text: r.text.clone() })
            .collect();
        let session = self.turn.session.clone().unwrap_or_else(|| Session::new(self.turn.next_session_id));
        let plan = match plan(session, path, &now, &committed, &edits, true, None) {
            Ok(plan) => plan,
            Err(refusal) => return self.refuse(refusal, Some(path)),
        };
        let after = plan.session.draft(path).cloned().unwrap_or_default();
        let change_of = vec![0; plan.call_spans.len()];
        let mut opts = self.preview_options(None, None);
        opts.context_lines = opts.context_lines.min(preview::STAGED_CONTEXT_LINES);
        let shown = preview::render_changes(&now, &after, &plan.call_spans, &change_of, path, &opts);
        let u = Undone { path: path.to_string(), version, undone };
        let summary = args
            .summary
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map_or_else(|| words::undo_summary(&u, self.settings.config.locale), str::to_string);
        if self.turn.session.is_none() {
            self.turn.next_session_id += 1;
        }
        self.turn.session = Some(plan.session);
        let lead = Lead { summary: words::undone(&u, self.settings.config.locale), preview: Some(shown), warned: false };
        self.commit(&summary, false, Some(lead))
    }

    /// The text before `path`'s last commit, its version id and the commit undone. Errors:
    /// `NothingToUndo` when no commit is kept, `ChangedSince` when storage changed the document
    /// after it. Cost: O(RING).
    fn last_commit_before(&self, path: &str) -> Result<Target, UndoOutcome> {
        let path_arg = Some(path) != self.documents.order.first().map(String::as_str);
        let current = self.records.timeline.current_seq(path);
        let mut kept = self.records.timeline.newest_first(Some(path)).filter(|v| v.kind != VersionKind::Failed);
        let newest = kept.next().ok_or_else(|| UndoOutcome::NothingToUndo { path: path.to_string(), current, path_arg })?;
        if newest.kind == VersionKind::Commit {
            let before = format!("v{}", newest.seq.saturating_sub(1));
            return Ok((newest.before.clone(), before, Some((newest.seq, newest.summary.clone()))));
        }
        // The newest is a change from outside: name the commit it came after, if one is kept.
        match std::iter::once(newest).chain(kept).find(|v| v.kind == VersionKind::Commit) {
            Some(commit) => Err(UndoOutcome::ChangedSince {
                path: path.to_string(),
                commit: commit.seq,
                summary: commit.summary.clone(),
                now: current,
                path_arg,
            }),
            None => Err(UndoOutcome::NothingToUndo { path: path.to_string(), current, path_arg }),
        }
    }

    fn undo_refused(&self, o: &UndoOutcome, path: &str) -> Step {
        let r = words::undo(o, &Voice::of(self));
        Step::Done(self.finish(r, Some(path)))
    }
}
