//! `memo_find` (docs/tools.md#memo_find): the draft's units ranked against a query
//! ([`crate::find`]), listed as lettered candidates the other tools can name — a pick replaces a
//! whole unit, `memo_replace(within)` searches inside one, `memo_read(unit)` reads one. Listing
//! stages nothing and awaits no choice: the workflow state stays what it was.

use std::ops::Range;

use ropey::Rope;
use serde_json::Value;

use super::words::{self, Voice};
use super::{Step, Workspace};
use crate::find::{self, units::is_code_path, Indexed};
use crate::matching::recommend::Reason;
use crate::matching::{CandidateQuality, MatchQuality};
use crate::response::{Candidate, Response};
use crate::session::{Letter, Selection, SelectionCandidate, SelectionKind};
use crate::text;
use crate::text_rules::clip_within;
use crate::tools::Args;

/// Candidates listed without a `limit`.
pub const DEFAULT_FIND_LIMIT: usize = 5;
/// Chars of a candidate's preview after its heading path.
const PREVIEW_CHARS: usize = 60;

/// A unit a tool names by its `memo_find` letter: where it is now, or why it cannot be used.
pub(super) enum UnitRef {
    Live {
        range: Range<usize>,
    },
    /// No `memo_find` listed units, or not this letter, or not in this document.
    Unknown,
    /// A staged edit changed its text since it was listed.
    Stale,
}

impl Workspace {
    /// `memo_find(query, limit?, path?)`: the best units as candidates, `NoMatch` when no unit
    /// shares a term with the query, `InvalidArguments` for a query without words. Cost: one
    /// pass over the draft to split it, then [`find::rank`].
    pub(super) fn find(&mut self, path: &str, args: &Args) -> Step {
        let query = args.str("query").unwrap_or_default().trim().to_string();
        let v = Voice::of(self);
        if find::bm25::query_terms(&query).is_empty() {
            return Step::Done(self.finish(words::find_no_words(&v), None));
        }
        let limit = args.int("limit").map_or(DEFAULT_FIND_LIMIT, |n| usize::try_from(n).unwrap_or(1).clamp(1, find::MAX_LIMIT));
        let draft = self.draft_rope(path);
        let flat = draft.to_string();
        let lines: Vec<&str> = flat.split('\n').collect();
        let indexed = find::index(&lines, is_code_path(path));
        let ranking = find::rank(&indexed, &query, limit, None);
        if ranking.found.is_empty() {
            let r = words::find_none(path, &query, indexed.len(), &v);
            return Step::Done(self.finish(r, Some(path)));
        }
        let mut candidates = Vec::new();
        let mut views = Vec::new();
        for (i, f) in ranking.found.iter().enumerate() {
            let (Some(id), Some(x)) = (Letter::from_index(i), indexed.get(f.index)) else { continue };
            let range = unit_range(&draft, &x.unit.lines);
            let mut view = unit_view(&draft, id, &range, x);
            if i == 0 && ranking.recommended {
                view.recommended = true;
                view.recommended_reason = Some(Reason::BestByMargin);
            }
            views.push(view);
            candidates.push(SelectionCandidate {
                id,
                range,
                quality: CandidateQuality::Match(MatchQuality::EXACT),
                reindent: None,
                occurrence: i,
                stale: false,
            });
        }
        let selection = Selection {
            path: path.to_string(),
            query: format!("find\u{0}{query}"),
            new_text: String::new(),
            needle: String::new(),
            kind: SelectionKind::Units,
            candidates,
            awaiting_choice: false,
            picked: Vec::new(),
        };
        // A choice another search is waiting for is not taken away: the units are kept for
        // `within` and `unit`, and become the selection once that choice is made.
        let mut session = self.take_session();
        if !session.selection.as_ref().is_some_and(|s| s.awaiting_choice) {
            session.selection = Some(selection.clone());
        }
        session.found = Some(selection);
        self.session = Some(session);
        let v = Voice::of(self);
        let mut r = words::find_found(views.len(), &query, &v);
        r.candidates = views;
        r.metrics.selection_count = Some(r.candidates.len());
        r.fingerprint = Some(self.draft_fingerprint(path).to_string());
        Step::Done(self.finish(r, Some(path)))
    }

    /// The unit `letter` of the last `memo_find` in `path`, as it is in the draft now.
    /// O(candidates).
    pub(super) fn unit(&self, path: &str, letter: Letter) -> UnitRef {
        let found = self.session.as_ref().and_then(|s| s.found.as_ref()).filter(|f| f.path == path);
        match found.and_then(|f| f.candidates.iter().find(|c| c.id == letter)) {
            None => UnitRef::Unknown,
            Some(c) if c.stale => UnitRef::Stale,
            Some(c) => UnitRef::Live { range: c.range.clone() },
        }
    }

    /// The refusal of a tool naming unit `letter` through `arg` (`within`, `unit`) that
    /// [`Workspace::unit`] did not find live: `InvalidArguments`, nothing changed.
    pub(super) fn unit_refused(&self, path: &str, arg: &str, letter: Letter, why: &UnitRef) -> Response {
        let r = words::unit_refused(path, arg, letter, matches!(why, UnitRef::Stale), &Voice::of(self));
        self.finish(r, None)
    }

    /// `memo_read(unit)`: the unit's lines, read like `start_line`/`end_line`.
    pub(super) fn read_unit(&mut self, path: &str, args: &Args) -> Response {
        let Some(letter) = args.str("unit").and_then(Letter::parse) else { return self.read(path, args) };
        match self.unit(path, letter) {
            UnitRef::Live { range, .. } => {
                let draft = self.draft_rope(path);
                let start = draft.char_to_line(range.start.min(draft.len_chars())) + 1;
                let end = draft.char_to_line(range.end.min(draft.len_chars())) + 1;
                let args = args.clone().with("start_line", Value::from(start)).with("end_line", Value::from(end.max(start)));
                self.read(path, &args)
            }
            why => self.unit_refused(path, "unit", letter, &why),
        }
    }
}

/// The char range of lines `lines` (0-based, end exclusive) in `draft`, without the last line's
/// line break: replacing it with text that has none keeps the next line where it was. O(log n).
fn unit_range(draft: &Rope, lines: &Range<usize>) -> Range<usize> {
    let n = draft.len_lines();
    let start = draft.line_to_char(lines.start.min(n));
    let end = if lines.end < n { draft.line_to_char(lines.end).saturating_sub(1) } else { draft.len_chars() };
    start..end.max(start)
}

/// A unit as a candidate: its lines, `→<end line> · <heading path> · <first line>` as its
/// preview, and its UTF-16 offsets in the draft. O(log n + preview).
fn unit_view(draft: &Rope, id: Letter, range: &Range<usize>, x: &Indexed) -> Candidate {
    let line = x.unit.lines.start + 1;
    let end_line = x.unit.lines.end.max(line);
    let first = x.head.lines().chain(x.body.lines()).find(|l| !l.trim().is_empty()).unwrap_or_default();
    let mut parts = Vec::new();
    if end_line > line {
        parts.push(format!("→{end_line}"));
    }
    // A section's and a code block's path ends with their own heading (their first line).
    let heading = x.unit.heading_path.join(" › ");
    if !heading.is_empty() {
        parts.push(heading);
    }
    if !matches!(x.unit.kind, find::UnitKind::Section | find::UnitKind::Block) {
        parts.push(clip_within(first.trim(), PREVIEW_CHARS));
    }
    Candidate {
        id: id.to_string(),
        line,
        end_line: Some(end_line),
        preview: parts.join(" · "),
        marker_start: format!("[[SEL#{id}]]"),
        marker_end: format!("[[/SEL#{id}]]"),
        occurrence: id.index(),
        context_start: text::char_to_utf16(draft, range.start),
        context_end: text::char_to_utf16(draft, range.end),
        recommended: false,
        recommended_reason: None,
        pick_refused: false,
        stale: false,
        match_quality: "exact".into(),
    }
}
