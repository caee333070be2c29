//! The live context of a workspace (docs/workflow.md#live-context): recording versions as commits, failed
//! saves and external changes happen, the editor state the host sets, and building the block
//! ([`crate::live_context`] holds the data types and their Markdown).

use ropey::Rope;

use super::{Workspace, WorkspaceError};
use crate::changeset::ChangeSet;
use crate::live_context::{
    cap_patch, heading_index, iso_utc, AnchorDiff, CurrentDocument, DiffSummary, EditorState, EditorStateView, LineCol, LiveContext,
    LiveContextOptions, PlanHint, SelectionView, Version, VersionKind, MAX_HEADING_INDEX_CHARS, MAX_LINE_CHARS,
};
use crate::preview::{self, ChangeSpan, PreviewMode, PreviewOptions};
use crate::text;

impl Workspace {
    /// What the user's editor shows, as the host last set it.
    pub fn editor_state(&self) -> &EditorState {
        &self.records.editor
    }

    /// Sets the editor state the live context reports (cursor, selection, active file).
    /// Positions are 1-based lines and columns (UTF-16 units) of the path's draft.
    ///
    /// Errors (the state is unchanged then): [`WorkspaceError::NotOpen`] for an unknown path,
    /// [`WorkspaceError::BadPosition`] for a line or column outside the draft (with the limit).
    /// Cost: O(log n + length of the named lines).
    pub fn set_editor_state(&mut self, state: EditorState) -> Result<(), WorkspaceError> {
        let path = self.resolve(state.path.as_deref())?;
        let draft = self.draft_rope(&path);
        let positions = state
            .cursor
            .iter()
            .map(|c| ("cursor", *c))
            .chain(state.selection.iter().flat_map(|(a, h)| [("selection anchor", *a), ("selection head", *h)]));
        for (what, pos) in positions {
            to_char(&draft, pos, what)?;
        }
        self.records.editor = EditorState { path: Some(path), ..state };
        Ok(())
    }

    /// Puts back a state [`Workspace::editor_state`] returned (the binding's undo when a live
    /// context that set a new state cannot be built).
    pub fn restore_editor_state(&mut self, state: EditorState) {
        self.records.editor = state;
    }

    /// Builds the live context block. `clock` is the caller's clock in ms, asked only to keep
    /// diffs within `opts.diff_deadline_ms` (the core never reads time itself).
    ///
    /// Errors: [`WorkspaceError::NotOpen`] when `opts.path` (or the default) is not open.
    /// Cost: O(window + headings scan of the document) + one diff per shown external change and
    /// for the anchor (bounded by the deadline) + O(size of the shown patches).
    pub fn live_context(&self, opts: &LiveContextOptions, clock: &mut dyn FnMut() -> f64) -> Result<LiveContext, WorkspaceError> {
        let editor_path = self.records.editor.path.as_deref().filter(|p| self.documents.docs.contains_key(*p));
        let path = self.resolve(opts.path.as_deref().or(editor_path))?;
        let deadline = clock() + opts.diff_deadline_ms.max(0.0);
        let mut expired = move || clock() > deadline;

        let recent_diffs = self
            .records
            .timeline
            .newest_first(None)
            .take(opts.recent_diffs)
            .map(|v| self.diff_summary(v, opts.max_diff_chars, &mut expired))
            .collect();
        let anchor_diff = self.anchor_diff(&path, opts, &mut expired);
        let (task_stack, task_tree, task_tree_earlier) = self.task_views();
        Ok(LiveContext {
            generated_at_ms: opts.now_ms,
            current_document: self.current_document(&path, opts.max_document_chars),
            recent_diffs,
            anchor_diff,
            editor_state: self.editor_view(&path),
            plan_hints: self
                .records
                .log
                .newest(opts.plan_hints)
                .map(|e| PlanHint {
                    seq: e.seq,
                    tool: e.tool.clone(),
                    status: e.status.map_or("running", |s| s.as_str()).to_string(),
                    at_ms: e.at_ms,
                })
                .collect(),
            memory_digest: self.records.memory.digest(),
            task_stack,
            task_tree,
            task_tree_earlier,
            read_tool: self.tool_name(crate::workspace::Tool::Read),
        })
    }

    /// Records a version of `path` (a commit, a failed save, an external change) at the time of
    /// the call under way. Nothing is recorded when the text did not change.
    pub(super) fn record_version(
        &mut self,
        path: &str,
        kind: VersionKind,
        summary: String,
        error: Option<String>,
        after: Rope,
        spans: Option<Vec<ChangeSpan>>,
    ) {
        let Some(before) = self.documents.docs.get(path).map(|d| d.text.rope().clone()) else { return };
        if kind == VersionKind::External && before == after {
            return;
        }
        let at_ms = self.records.last_now_ms;
        self.records.timeline.record(Version {
            path: path.to_string(),
            seq: 0,
            at_ms,
            kind,
            summary,
            error,
            before,
            after,
            spans,
            bytes: 0,
        });
    }

    /// The pending changes of `path` as ranges of its base and draft (what a commit writes).
    pub(super) fn session_spans(&self, path: &str) -> Option<Vec<ChangeSpan>> {
        let s = self.turn.session.as_ref()?;
        Some(s.places_in_draft(path).into_iter().map(|(_, place, draft)| ChangeSpan { base: place.base_range.clone(), draft }).collect())
    }

    fn diff_summary(&self, v: &Version, max_chars: usize, expired: &mut dyn FnMut() -> bool) -> DiffSummary {
        let (patch, affected_lines, coarse) = unified(&v.before, &v.after, v.spans.as_deref(), &v.path, expired);
        let (patch, omitted_lines) = cap_patch(patch, max_chars);
        DiffSummary {
            version_id: v.version_id(),
            path: v.path.clone(),
            time_ms: v.at_ms,
            time: iso_utc(v.at_ms),
            kind: v.kind,
            summary: v.summary.clone(),
            patch,
            affected_lines,
            is_error: v.kind == VersionKind::Failed,
            error: v.error.clone(),
            omitted_lines,
            coarse,
        }
    }

    fn anchor_diff(&self, path: &str, opts: &LiveContextOptions, expired: &mut dyn FnMut() -> bool) -> Option<AnchorDiff> {
        let point = self.records.timeline.anchor(path, opts.anchor, opts.now_ms)?;
        let now = self.documents.docs.get(path)?.text.rope();
        if point.rope == now {
            return None;
        }
        let (patch, affected_lines, coarse) = unified(point.rope, now, None, path, expired);
        let (patch, omitted_lines) = cap_patch(patch, opts.max_diff_chars);
        Some(AnchorDiff {
            path: path.to_string(),
            from_version: format!("v{}", point.seq),
            from_time_ms: point.at_ms,
            to_version: format!("v{}", self.records.timeline.current_seq(path)),
            patch,
            affected_lines,
            omitted_lines,
            coarse,
        })
    }

    fn current_document(&self, path: &str, max_chars: usize) -> CurrentDocument {
        let pending = self.pending_in(path);
        let rope = self.draft_rope(path);
        let total_lines = text::visible_line_count(&rope);
        let total_chars = rope.len_chars();
        let focus_line = self.focus_line(path, &rope);
        let width = preview::gutter_width(total_lines);
        let row = |l: usize, clip: bool| {
            let line = text::line_text(&rope, l - 1);
            let line = if clip { text::clip(&line, MAX_LINE_CHARS) } else { line };
            let mut out = String::new();
            preview::gutter_line(&mut out, width, l, ' ', &line);
            out
        };
        let mut doc = CurrentDocument {
            path: path.to_string(),
            view: if pending > 0 { "draft" } else { "committed" },
            pending_changes: pending,
            version_id: format!("v{}", self.records.timeline.current_seq(path)),
            total_lines,
            total_chars,
            start_line: 1,
            end_line: total_lines,
            complete: true,
            focus_line,
            text: String::new(),
            headings: Vec::new(),
            headings_omitted: 0,
        };
        if total_chars <= max_chars {
            doc.text = (1..=total_lines).map(|l| row(l, false)).collect();
            if doc.text.chars().count() <= max_chars.saturating_add(width * total_lines + total_lines) {
                return doc;
            }
        }
        // A window of whole rows around the focus, growing down and up in turn while it fits.
        doc.complete = false;
        let centre = focus_line.unwrap_or(1).clamp(1, total_lines.max(1));
        let first = row(centre, true);
        let mut used = first.chars().count();
        let (mut start, mut end) = (centre, centre);
        let (mut above, mut below) = (Vec::new(), vec![first]);
        let (mut up_open, mut down_open) = (true, true);
        while up_open || down_open {
            if down_open {
                if end < total_lines {
                    let r = row(end + 1, true);
                    let n = r.chars().count();
                    if used + n <= max_chars {
                        used += n;
                        end += 1;
                        below.push(r);
                    } else {
                        down_open = false;
                    }
                } else {
                    down_open = false;
                }
            }
            if up_open {
                if start > 1 {
                    let r = row(start - 1, true);
                    let n = r.chars().count();
                    if used + n <= max_chars {
                        used += n;
                        start -= 1;
                        above.push(r);
                    } else {
                        up_open = false;
                    }
                } else {
                    up_open = false;
                }
            }
        }
        above.reverse();
        doc.text = above.into_iter().chain(below).collect();
        doc.start_line = start;
        doc.end_line = end;
        (doc.headings, doc.headings_omitted) = heading_index(&rope, MAX_HEADING_INDEX_CHARS);
        doc
    }

    /// The line to centre the window on: the last staged change in `path`, else the newest
    /// version's first changed line, else the cursor.
    fn focus_line(&self, path: &str, draft: &Rope) -> Option<usize> {
        if let Some(s) = &self.turn.session {
            if let Some(last) = s.last_staged {
                let staged = s.changes_in_draft(path).into_iter().find(|(c, _)| c.id == last);
                if let Some((_, range)) = staged {
                    return Some(text::line_of(draft, range.start.min(draft.len_chars())));
                }
            }
        }
        if let Some(v) = self.records.timeline.newest_first(Some(path)).find(|v| v.kind != VersionKind::Failed) {
            if let Some(span) = v.spans.as_ref().and_then(|s| s.last()) {
                return Some(text::line_of(draft, span.draft.start.min(draft.len_chars())));
            }
        }
        match (&self.records.editor.path, self.records.editor.cursor) {
            (Some(p), Some(c)) if p == path => Some(c.line),
            _ => None,
        }
    }

    fn editor_view(&self, path: &str) -> EditorStateView {
        let active = self.records.editor.path.clone().filter(|p| self.documents.docs.contains_key(p)).unwrap_or_else(|| path.to_string());
        let draft = self.draft_rope(&active);
        // Positions were checked when set, but the draft may have changed since: drop any that
        // no longer fit rather than report them.
        let valid = |p: LineCol| to_char(&draft, p, "").ok().map(|_| p);
        let selection = self.records.editor.selection.and_then(|(a, h)| {
            let (ca, ch) = (to_char(&draft, a, "").ok()?, to_char(&draft, h, "").ok()?);
            let (lo, hi) = (ca.min(ch), ca.max(ch));
            Some(SelectionView { anchor: a, head: h, text: text::clip(&draft.slice(lo..hi).to_string(), MAX_LINE_CHARS) })
        });
        EditorStateView {
            active_path: active,
            cursor: self.records.editor.cursor.and_then(valid),
            selection,
            open_paths: self.documents.order.clone(),
            workflow_state: self.state().as_str().to_string(),
            pending_changes: self.turn.session.as_ref().map_or(0, |s| s.changes.len()),
        }
    }
}

/// The char offset of a 1-based line and UTF-16 column of `rope`, or the error naming the limit.
fn to_char(rope: &Rope, pos: LineCol, what: &str) -> Result<usize, WorkspaceError> {
    let lines = text::visible_line_count(rope).max(1);
    if pos.line == 0 || pos.line > lines {
        return Err(WorkspaceError::BadPosition { what: format!("{what} line"), value: pos.line, min: 1, max: lines });
    }
    let start = rope.line_to_char(pos.line - 1);
    let line = text::line_text(rope, pos.line - 1);
    let max = text::utf16_len(&line) + 1;
    if pos.column == 0 || pos.column > max {
        return Err(WorkspaceError::BadPosition { what: format!("{what} column (line {})", pos.line), value: pos.column, min: 1, max });
    }
    let (mut units, mut chars) = (0usize, 0usize);
    for c in line.chars() {
        if units + 1 >= pos.column {
            break;
        }
        units += c.len_utf16();
        chars += 1;
    }
    Ok(start + chars)
}

/// The unified diff `before` → `after` (of known spans, or diffed under the deadline), the first
/// and last changed lines of `after` (1-based), and whether the deadline made it coarse.
fn unified(
    before: &Rope,
    after: &Rope,
    spans: Option<&[ChangeSpan]>,
    path: &str,
    expired: &mut dyn FnMut() -> bool,
) -> (String, Option<(usize, usize)>, bool) {
    let (spans, coarse) = match spans {
        Some(s) => (s.to_vec(), false),
        None => {
            let (cs, coarse) = ChangeSet::diff_until(before, after, expired);
            let spans =
                cs.replacements().iter().zip(cs.draft_ranges()).map(|(r, draft)| ChangeSpan { base: r.range.clone(), draft }).collect();
            (spans, coarse)
        }
    };
    let opts = PreviewOptions {
        mode: PreviewMode::Diff,
        context_lines: preview::DEFAULT_CONTEXT_LINES,
        max_length: 0,
        ..PreviewOptions::default()
    };
    let patch = preview::render(before, after, &spans, path, &opts);
    let lines = match (spans.first(), spans.last()) {
        (Some(a), Some(b)) => {
            let last = b.draft.end.saturating_sub(1).max(b.draft.start).min(after.len_chars());
            Some((text::line_of(after, a.draft.start.min(after.len_chars())), text::line_of(after, last)))
        }
        _ => None,
    };
    (patch, lines, coarse)
}
