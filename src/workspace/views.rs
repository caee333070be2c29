//! Views the workspace's responses are built from: pending changes, candidates, previews and
//! the small text helpers of summaries.

use std::ops::Range;

use ropey::Rope;

use super::Document;
use crate::changeset::ChangeSet;
use crate::matching::CandidateQuality;
use crate::preview::{self, ChangeSpan, PreviewMode, PreviewOptions};
use crate::response::{Candidate, PendingChangeView, PendingPlaceView, Response, TaskNodeView, TaskView, MAX_PLACES_LISTED};
use crate::session::{Letter, Session};
use crate::small_map::SmallMap;
use crate::text;

/// A candidate as the model sees it: `range` is a char range into `draft`.
pub(super) fn candidate_view(
    draft: &Rope,
    id: Letter,
    range: &Range<usize>,
    quality: CandidateQuality,
    stale: bool,
    occurrence: usize,
) -> Candidate {
    let line_idx = draft.char_to_line(range.start.min(draft.len_chars()));
    Candidate {
        id: id.to_string(),
        line: line_idx + 1,
        end_line: None,
        // `api.timeout: 30`, not just `timeout: 30`: which one it is matters to the model.
        preview: crate::outline::key_path_preview(draft, line_idx),
        marker_start: format!("[[SEL#{id}]]"),
        marker_end: format!("[[/SEL#{id}]]"),
        occurrence,
        context_start: text::char_to_utf16(draft, range.start),
        context_end: text::char_to_utf16(draft, range.end),
        recommended: false,
        recommended_reason: None,
        pick_refused: false,
        stale,
        match_quality: quality.to_string(),
    }
}

/// How far [`distinguish`] looks for an enclosing line (up) or a line that differs (each way).
const ENCLOSING_SCAN_LINES: usize = 200;
const DIFFERING_SCAN_LINES: usize = 20;
/// The most chars of the line that tells candidates apart.
const TELL_APART_CHARS: usize = 60;

/// Candidates whose previews read the same (three `stepNumber: steps.length,`) get what tells
/// them apart after ` · `: the Markdown heading they lie under or the line enclosing them
/// (`in export function step3(steps: Step[]) {`) when those differ, else the nearest line, above
/// or below, that differs between all of them (`above: a = 1;`), worded in the response's locale
/// (`上方：a = 1;`). Candidates with their own preview, and groups nothing within the scan tells
/// apart, are left as they are.
/// Cost: O(c log c) for c candidates, plus O(ENCLOSING_SCAN_LINES + DIFFERING_SCAN_LINES) lines
/// read per candidate of a group.
/// Out of line: only a response with candidates calls it (docs/performance.md#cold-start).
#[inline(never)]
pub(super) fn distinguish(draft: &Rope, path: &str, candidates: &mut [Candidate], words: &crate::locale::Words) {
    let mut groups: std::collections::BTreeMap<String, Vec<usize>> = std::collections::BTreeMap::new();
    for (i, c) in candidates.iter().enumerate() {
        groups.entry(c.preview.clone()).or_default().push(i);
    }
    let markdown = [".md", ".markdown", ".mdx"].iter().any(|ext| path.to_ascii_lowercase().ends_with(ext));
    for members in groups.values().filter(|m| m.len() > 1) {
        let lines: Vec<usize> = members.iter().filter_map(|&i| candidates.get(i)).map(|c| c.line.saturating_sub(1)).collect();
        let enclosing: Vec<Option<String>> =
            lines.iter().map(|&l| if markdown { crate::outline::heading_path(draft, l).pop() } else { enclosing_line(draft, l) }).collect();
        let notes: Option<Vec<String>> = if enclosing.iter().all(Option::is_some) && all_distinct(&enclosing) {
            Some(
                enclosing
                    .into_iter()
                    .flatten()
                    .map(|e| words.t("candidate.tell_apart.in", &[("line", &text::clip(&e, TELL_APART_CHARS))]))
                    .collect(),
            )
        } else {
            nearest_differing(draft, &lines, words)
        };
        for (&i, note) in members.iter().zip(notes.into_iter().flatten()) {
            if let Some(c) = candidates.get_mut(i) {
                c.preview = format!("{} · {note}", c.preview);
            }
        }
    }
}

/// The trimmed line of draft line `idx` (0-based), `None` past the end.
fn trimmed_line(draft: &Rope, idx: usize) -> Option<String> {
    (idx < draft.len_lines()).then(|| first_chars(draft.line(idx), LINE_CHARS_READ).trim().to_string())
}

/// The most chars of a line [`distinguish`] reads.
const LINE_CHARS_READ: usize = 1000;

/// The first `max` chars of `line`: its chunks copied whole when it is no longer (a char at a
/// time through ropey's iterator cost a quarter of telling a find-all's candidates apart,
/// docs/performance.md#cjk-text).
fn first_chars(line: ropey::RopeSlice<'_>, max: usize) -> String {
    if line.len_chars() > max {
        return line.chars().take(max).collect();
    }
    let mut s = String::with_capacity(line.len_bytes());
    line.chunks().for_each(|c| s.push_str(c));
    s
}

/// The nearest line above `idx` indented less than it that is not blank or only closing
/// brackets: the function, class or block it lies in. `None` for a line in column 0.
fn enclosing_line(draft: &Rope, idx: usize) -> Option<String> {
    // Indentation within the line's first 1,000 chars, read from the rope: a line is copied
    // out only once it is indented less (copying the 200 lines above each of a group's
    // candidates was a quarter of a 545-hit listing on 1 MB of CJK, docs/performance.md#cjk-text).
    let indent = |l: ropey::RopeSlice<'_>| l.chars().take(LINE_CHARS_READ).take_while(|c| *c == ' ' || *c == '\t').count();
    let own = indent(draft.get_line(idx)?);
    if own == 0 {
        return None; // nothing is indented less than column 0
    }
    (idx.saturating_sub(ENCLOSING_SCAN_LINES)..idx).rev().find_map(|i| {
        let line = draft.get_line(i)?;
        if indent(line) >= own {
            return None;
        }
        let l = first_chars(line, LINE_CHARS_READ);
        let t = l.trim();
        let closing = t.chars().all(|c| matches!(c, '}' | ')' | ']' | ';' | ','));
        (!t.is_empty() && !closing).then(|| t.to_string())
    })
}

/// The nearest offset (1 above, 1 below, 2 above, …) at which the lines of all `lines` differ
/// from one another, as `above: …` / `below: …` per line (in `words`' locale).
fn nearest_differing(draft: &Rope, lines: &[usize], words: &crate::locale::Words) -> Option<Vec<String>> {
    for d in 1..=DIFFERING_SCAN_LINES {
        for (above, key) in [(true, "candidate.tell_apart.above"), (false, "candidate.tell_apart.below")] {
            let at: Vec<Option<String>> = lines
                .iter()
                .map(|&l| if above { l.checked_sub(d) } else { Some(l + d) })
                .map(|i| i.and_then(|i| trimmed_line(draft, i)).filter(|t| !t.is_empty()))
                .collect();
            if at.iter().all(Option::is_some) && all_distinct(&at) {
                return Some(at.into_iter().flatten().map(|t| words.t(key, &[("line", &text::clip(&t, TELL_APART_CHARS))])).collect());
            }
        }
    }
    None
}

fn all_distinct(items: &[Option<String>]) -> bool {
    // Sorted through crate::sort, then neighbours compared: a group can hold every match of a
    // needle (thousands), so not pairwise; collecting into a BTreeSet compiled a sort of its own.
    let mut sorted: Vec<&Option<String>> = items.iter().collect();
    crate::sort::sort_by(&mut sorted, |a, b| a.cmp(b));
    sorted.iter().zip(sorted.iter().skip(1)).all(|(a, b)| a != b)
}

/// The preview of every pending change of `path` against its committed text, each hunk
/// labelled with its changes' letters (preview::render_labelled), and whether it shows every
/// pending change of the session whole: then the pending list would repeat it. Cost:
/// O(k log k) for k pending changes plus the size of the rendered hunks.
pub(super) fn render_preview(session: &Session, path: &str, opts: &PreviewOptions, words: &crate::locale::Words) -> preview::Labelled {
    let Some(doc) = session.docs.get(path) else { return preview::Labelled { text: String::new(), whole: false } };
    let mut spans: Vec<ChangeSpan> = Vec::new();
    // The letter of each span: a replace-all is previewed as one change with its places.
    let mut change_of: Vec<usize> = Vec::new();
    for (c, place, draft) in session.places_in_draft(path) {
        // A place over several lines (merged edits) is shown as what differs inside it, so the
        // lines between its edits are not listed as changed. Stats count per place.
        if opts.mode != PreviewMode::Stats && place.old_text.contains('\n') {
            let inner = ChangeSet::diff(&Rope::from_str(&place.old_text), &Rope::from_str(&place.new_text));
            for (r, d) in inner.replacements().iter().zip(inner.draft_ranges()) {
                spans.push(ChangeSpan {
                    base: place.base_range.start + r.range.start..place.base_range.start + r.range.end,
                    draft: draft.start + d.start..draft.start + d.end,
                });
                change_of.push(c.id.index());
            }
        } else {
            spans.push(ChangeSpan { base: place.base_range.clone(), draft });
            change_of.push(c.id.index());
        }
    }
    let mut shown = preview::render_labelled(doc.base.rope(), &doc.draft, &spans, &change_of, path, opts, words);
    shown.whole &= session.changes.iter().all(|c| c.path == path);
    shown
}

/// The pending changes as reported: positions in the base text, lines in the draft (what every
/// other line number the model reads counts) and in the base. Cost: O(p log p) for p places, plus
/// O(log n) per place listed.
pub(super) fn pending_views(session: &Session, docs: &SmallMap<String, Document>) -> Vec<PendingChangeView> {
    // The draft start of each place, by (change, base start): places never overlap, so the pair
    // names one place.
    let mut draft_start: std::collections::BTreeMap<(usize, usize), usize> = std::collections::BTreeMap::new();
    for path in session.docs.keys() {
        for (c, place, draft) in session.places_in_draft(path) {
            draft_start.insert((c.id.index(), place.base_range.start), draft.start);
        }
    }
    session
        .changes
        .iter()
        .map(|c| {
            let base =
                session.docs.get(&c.path).map(|d| d.base.rope().clone()).or_else(|| docs.get(&c.path).map(|d| d.text.rope().clone()));
            let base = base.unwrap_or_default();
            let draft = session.draft(&c.path).cloned().unwrap_or_else(|| base.clone());
            let draft_line = |base_start: usize| match draft_start.get(&(c.id.index(), base_start)) {
                Some(&d) => text::line_of(&draft, d),
                None => text::line_of(&base, base_start),
            };
            let first = c.first_place();
            let places = c
                .places
                .iter()
                .take(MAX_PLACES_LISTED)
                .map(|p| PendingPlaceView {
                    position: text::char_to_utf16(&base, p.base_range.start),
                    line: draft_line(p.base_range.start),
                    base_line: text::line_of(&base, p.base_range.start),
                    old_text: p.old_text.clone(),
                    new_text: p.new_text.clone(),
                })
                .collect();
            PendingChangeView {
                change_id: c.id.to_string(),
                path: c.path.clone(),
                position: text::char_to_utf16(&base, first.base_range.start),
                line: draft_line(first.base_range.start),
                base_line: text::line_of(&base, first.base_range.start),
                old_text: first.old_text.clone(),
                new_text: first.new_text.clone(),
                delta: c.delta(),
                amended: c.amended,
                place_count: c.places.len(),
                places,
            }
        })
        .collect()
}

/// Bounded text for summaries: 80 chars, `…` marking a cut.
/// A text shown inside a summary: at most 80 chars.
pub(super) fn clip(s: &str) -> String {
    text::clip(s, 80)
}

/// What earlier responses told the model, so that a list it has already is not repeated
/// (docs/decisions.md#what-the-model-reads-is-said-once).
#[derive(Debug, Default)]
pub(super) struct Said {
    /// The pending list as the model knows it: the last one listed, with each later call's
    /// summarised change.
    pending: Vec<PendingChangeView>,
    /// The task stack, tree and left-out count last shown.
    tasks: (Vec<TaskView>, Vec<TaskNodeView>, usize),
    /// Where the model read the gutter note and the save note last (docs/responses.md#said-once).
    gutters: Option<HeardWhere>,
    save: Option<HeardWhere>,
}

/// Where a note said once was read: outside an edit session (a host's history compression keeps
/// those calls) or in the session of this id (its calls are summarised away when it ends;
/// docs/workflow.md#history-compression).
#[derive(Debug, Clone, PartialEq, Eq)]
enum HeardWhere {
    Outside,
    In(String),
}

impl HeardWhere {
    fn of(session: Option<&str>) -> HeardWhere {
        session.map_or(HeardWhere::Outside, |s| HeardWhere::In(s.to_string()))
    }

    /// The model still has what was said here while `session` is open.
    fn holds(heard: &Option<HeardWhere>, session: Option<&str>) -> bool {
        match heard {
            Some(HeardWhere::Outside) => true,
            Some(HeardWhere::In(s)) => Some(s.as_str()) == session,
            None => false,
        }
    }
}

impl Said {
    /// Marks what `r` need not show. The pending list is left out unless `asked` (a preview or a
    /// commit) or something the model could not know changed: a change it knew is gone, or more
    /// than one change is new or different (the summary and preview say the one a call staged;
    /// line numbers that moved with it are not news). The task stack is left out when it equals
    /// the one last shown, unless `asked`. Cost: O(p²) for p pending changes (p ≤ 26), plus the
    /// size of the task views.
    pub(super) fn mark(&mut self, r: &mut Response, asked: bool) {
        let same = |a: &PendingChangeView, b: &PendingChangeView| {
            (&a.change_id, &a.path, &a.old_text, &a.new_text, a.delta, a.amended, a.place_count)
                == (&b.change_id, &b.path, &b.old_text, &b.new_text, b.delta, b.amended, b.place_count)
        };
        let gone = self.pending.iter().any(|k| !r.pending_changes.iter().any(|c| c.change_id == k.change_id));
        let news = r.pending_changes.iter().filter(|c| !self.pending.iter().any(|k| same(k, c))).count();
        // A preview that shows every change lettered says the list (docs/responses.md#previews).
        r.pending_said_before = (!asked && !gone && news <= 1) || r.pending_in_preview;
        self.pending = r.pending_changes.clone();
        let tasks = (r.task_stack.clone(), r.task_tree.clone(), r.task_tree_earlier);
        r.tasks_said_before = !asked && tasks == self.tasks;
        self.tasks = tasks;
        let session = r.session_id.as_deref();
        if r.once.gutters {
            self.gutters = Some(HeardWhere::of(session));
        }
        if r.once.gutters_again {
            self.gutters = None;
        }
        if r.once.save {
            self.save = Some(HeardWhere::of(session));
        }
    }

    /// The model has the gutter note of a read, and the save note of a staging, while `session`
    /// (the open edit session's id, `s3`) is open. Cost: O(1).
    pub(super) fn knows(&self, session: Option<&str>) -> (bool, bool) {
        (HeardWhere::holds(&self.gutters, session), HeardWhere::holds(&self.save, session))
    }
}
