//! The editing tools (docs/tools.md): `memo_replace`, `memo_replace_span`, `memo_replace_selection`,
//! `memo_replace_lines` and `memo_append`. Each one locates its target with [`crate::matching`],
//! then goes through the same choice (edit/choose.rs) — one match is staged, several become
//! lettered candidates, none gives the closest regions — and the same staging (edit/stage.rs),
//! so they answer alike.
//!
//! Each step decides first, as plain data (src/workspace/outcome.rs: what was found, staged,
//! listed, or why not), then applies the state change, then words the outcome
//! (src/workspace/words/, the one place the answers are written).

use std::ops::Range;

use ropey::Rope;

use crate::changeset::ChangeSet;
use crate::diagnostics::Category;
use crate::matching::exact::Layered;
use crate::matching::gutter::{self, GutterKind};
use crate::matching::line_key::LineKey;
use crate::matching::{self, Budget, CandidateQuality, Match, SearchError};
use crate::response::Response;
use crate::session::{Letter, Selection, SelectionKind};
use crate::text::{self, normalize_line_breaks, Text};
use crate::workspace::find::UnitRef;
use crate::workspace::outcome::{ChoiceArg, EditOutcome, ExactlyElsewhere, LineChange, Needle, Note, Refusal, SpanEnd};
use crate::workspace::registry::{AppendArgs, ReplaceArgs, ReplaceLinesArgs, ReplaceSelectionArgs, ReplaceSpanArgs, Tool};
use crate::workspace::words::{self, Voice};
use crate::workspace::{Step, Workspace};

mod choose;
mod escapes;
mod near_pick;
mod repeat;
mod stage;
#[cfg(test)]
mod tests;
mod undo;

/// A located request of one of the search-based tools, before the choice.
struct Search {
    tool: Tool,
    path: String,
    /// Identity of the search: the same query later reuses the selection's letters.
    query: String,
    /// What was searched for, as the answer names it.
    needle: Needle,
    new_text: String,
    anchor_end: Option<usize>,
    match_id: Option<Letter>,
    show_all: bool,
    preview_only: bool,
    replace_all: bool,
    expected: Option<usize>,
    /// Facts the summary must carry (gutters stripped, a marker dropped…).
    notes: Vec<Note>,
    /// A note that needs the model's attention: the response is a `[Warning]`.
    warn: bool,
}

/// One staging request: replace `range` of the draft by `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Edit {
    range: Range<usize>,
    new_text: String,
}

/// What a staging call reports besides the edits.
struct StageInfo {
    tool: Tool,
    /// `None` for edits not found by a search (append, line keys).
    quality: Option<CandidateQuality>,
    preview_only: bool,
    chosen: Option<Letter>,
    notes: Vec<Note>,
    warn: bool,
}

/// A text argument with its line breaks normalised (`\r\n` → `\n`).
fn arg_text(text: &str) -> String {
    normalize_line_breaks(text).into_owned()
}

/// `DraftMoved` when `expected` is given and is not the draft's fingerprint `now`. Cost: O(1).
fn fingerprint_refusal(path: &str, expected: Option<&str>, now: &str) -> Option<Refusal> {
    let expected = expected?;
    (expected != now).then(|| Refusal::DraftMoved { path: path.to_string(), expected: expected.to_string(), now: now.to_string() })
}

/// The arguments of a `memo_replace` that choose among matches: they mean nothing for an
/// append (an empty old_text), and a call that passes them expects something else. Cost: O(1).
fn choice_args(args: &ReplaceArgs) -> Vec<ChoiceArg> {
    [
        args.match_id.clone().map(ChoiceArg::MatchId),
        args.replace_all.filter(|&b| b).map(|_| ChoiceArg::ReplaceAll),
        args.expected_occurrences.map(ChoiceArg::ExpectedOccurrences),
        args.search_after.clone().filter(|s| !s.is_empty()).map(ChoiceArg::SearchAfter),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The span markers new_text does not restate and no keep flag keeps: the staged edit drops
/// them. Cost: O(new_text · marker).
fn lost_span_markers(start: &str, end: &str, keep_start: bool, keep_end: bool, new_text: &str) -> Vec<Note> {
    [(start, keep_start, SpanEnd::Start), (end, keep_end, SpanEnd::End)]
        .into_iter()
        .filter(|(marker, kept, _)| !kept && !new_text.contains(marker.trim()))
        .map(|(marker, _, end)| Note::SpanMarkerLost { end, marker: marker.to_string() })
        .collect()
}

/// Spans from each start match to the first end match that begins at or after its end
/// (`ends` sorted, not overlapping); `keep_start`/`keep_end` leave the markers out of the
/// span. A start with no end after it gives none. Cost: O(s log e).
fn pair_spans(starts: &[Match], ends: &[Match], keep_start: bool, keep_end: bool) -> Vec<Match> {
    let mut spans = Vec::with_capacity(starts.len());
    // Starts come in document order, so the first end after each only moves forward: one walk
    // over both lists (a binary search per start cost a cache miss per step at a million starts).
    let (mut next, mut last) = (0, 0);
    for s in starts {
        if s.range.end < last {
            next = ends.partition_point(|e| e.range.start < s.range.end);
        }
        last = s.range.end;
        while ends.get(next).is_some_and(|e| e.range.start < s.range.end) {
            next += 1;
        }
        let Some(e) = ends.get(next) else { continue };
        let quality = if s.quality.is_exact() { e.quality } else { s.quality };
        let from = if keep_start { s.range.end } else { s.range.start };
        let to = if keep_end { e.range.start } else { e.range.end };
        spans.push(Match { range: from..to.max(from), quality, reindent: None });
    }
    spans
}

/// The keyed lines `start`..=`end` that are not what was read: an end key whose line is gone
/// or holds other text, or — both ends matching — a line between them that differs from the
/// text the keys were read from (`read`; lines moved under the keys). Empty: all current.
/// Cost: O(lines of the range).
fn changed_lines(draft: &Rope, read: Option<&Rope>, start: LineKey, end: LineKey) -> Vec<LineChange> {
    let last = text::visible_line_count(draft);
    let mut changes: Vec<LineChange> = [start, end]
        .iter()
        .filter(|k| k.line > last || !k.matches(&text::line_text(draft, k.line - 1)))
        .map(|k| {
            if k.line > last {
                LineChange::Gone { line: k.line, last }
            } else {
                let now = text::line_text(draft, k.line - 1);
                LineChange::Differs { line: k.line, now_key: LineKey::of(k.line, &now), now, read: *k }
            }
        })
        .collect();
    changes.dedup();
    if !changes.is_empty() {
        return changes;
    }
    // Both ends match, but lines between may have moved under them (an insertion above shifts
    // `}` … `}` onto another block): every line of the range must be the line read there.
    let Some(read) = read else { return changes };
    let read_last = text::visible_line_count(read);
    let ends_read_there = [start, end].iter().all(|k| k.line <= read_last && k.matches(&text::line_text(read, k.line - 1)));
    if ends_read_there {
        if let Some(l) = (start.line..=end.line).find(|&l| text::line_text(read, l - 1) != text::line_text(draft, l - 1)) {
            let now = text::line_text(draft, l - 1);
            changes.push(LineChange::Moved { line: l, now_key: LineKey::of(l, &now), now, was: text::line_text(read, l - 1) });
        }
    }
    changes
}

/// The draft range `memo_replace_lines` replaces: lines `start`..=`end` (1-based, present);
/// deleting them (`deleting`) takes a line break too. Cost: O(log n).
fn lines_range(draft: &Rope, start: usize, end: usize, deleting: bool) -> Range<usize> {
    let mut range = draft.line_to_char(start - 1)..draft.line_to_char(end - 1) + text::line_text(draft, end - 1).chars().count();
    if deleting {
        if range.end < draft.len_chars() {
            range.end += 1;
        } else if range.start > 0 {
            range.start -= 1;
        }
    }
    range
}

impl Workspace {
    /// The response for `outcome`, worded against the current state. Cost: O(its words).
    fn worded(&self, outcome: &EditOutcome) -> Response {
        words::edit(outcome, &words::Voice::of(self))
    }

    /// A refusal, finished: nothing was changed.
    fn refuse(&self, refusal: Refusal, path: Option<&str>) -> Step {
        Step::Done(self.finish(self.worded(&EditOutcome::Refused(refusal)), path))
    }

    /// `StaleReference` when `expected_fingerprint` is given and the draft's differs.
    fn check_fingerprint(&self, path: &str, expected: Option<&str>) -> Option<Step> {
        let now = self.draft_fingerprint(path).to_string();
        fingerprint_refusal(path, expected, &now).map(|r| self.refuse(r, Some(path)))
    }

    /// Char offset where `search_after` ends, or the refusal naming the anchor. Cost: one
    /// exact search of the draft.
    fn anchor(&self, path: &str, draft: &Rope, search_after: Option<&str>) -> Result<Option<usize>, Refusal> {
        let Some(anchor) = search_after.map(|s| normalize_line_breaks(s).into_owned()) else {
            return Ok(None);
        };
        match matching::anchor_end(draft, Some(&anchor)) {
            Ok(at) => Ok(Some(at)),
            Err(SearchError::AnchorNotFound { anchor }) => Err(Refusal::AnchorMissing { path: path.to_string(), anchor }),
        }
    }

    // ---- memo_replace ----------------------------------------------------------------------

    /// The draft of `path` as layers for the exact search: its base text (whose flat copy is
    /// kept across calls) and the pending replacements. Cost: O(k log k) for k changes.
    fn layers(&self, path: &str) -> (Text, ChangeSet) {
        match self.turn.session.as_ref().and_then(|s| s.docs.get(path).map(|d| (s, d))) {
            Some((s, d)) => (d.base.clone(), s.change_set(path).0),
            None => {
                let text = self.open_doc(path).text.clone();
                let len = text.rope().len_chars();
                (text, ChangeSet::new(len))
            }
        }
    }

    /// A `TextEdit.MatchTrace` record of one search: what was searched, how and where it was
    /// found, and the draft it ran on (enough to replay the decision).
    /// Inlined: without the category on (the common case) only the check runs, and the record's
    /// making is not compiled (docs/performance.md#cold-start).
    #[inline]
    fn match_trace(
        &mut self,
        tool: &str,
        path: &str,
        draft: &ropey::Rope,
        needle: &str,
        anchor_end: Option<usize>,
        matches: &[matching::Match],
    ) {
        if self.records.diagnostics.enabled(Category::MatchTrace) {
            self.record_match_trace(tool, path, draft, needle, anchor_end, matches);
        }
    }

    #[cold]
    #[inline(never)]
    fn record_match_trace(
        &mut self,
        tool: &str,
        path: &str,
        draft: &ropey::Rope,
        needle: &str,
        anchor_end: Option<usize>,
        matches: &[matching::Match],
    ) {
        let id = self.operation_id();
        let fingerprint = self.draft_fingerprint(path).to_string();
        let detail = || {
            serde_json::json!({
                "path": path,
                "needle": crate::text::clip(needle, 200),
                "needle_chars": needle.chars().count(),
                "search_after_end": anchor_end,
                "matches": matches.len(),
                "quality": matches.first().map(|m| m.quality.to_string()),
                "lines": matches.iter().take(26).map(|m| text::line_of(draft, m.range.start)).collect::<Vec<_>>(),
                "draft_fingerprint": fingerprint,
            })
        };
        self.records.diagnostics.record(Category::MatchTrace, &id, tool, None, detail);
    }

    pub(super) fn replace(&mut self, path: &str, args: &ReplaceArgs) -> Step {
        if let Some(refused) = self.check_fingerprint(path, args.expected_fingerprint.as_deref()) {
            return refused;
        }
        let old = arg_text(&args.old_text);
        let mut new = arg_text(&args.new_text);
        let preview_only = args.preview_only.unwrap_or(false);
        // `within`: only inside a unit the last memo_find listed (docs/tools.md#memo_find).
        let within = match args.within.as_deref().and_then(Letter::parse) {
            Some(letter) => match self.unit(path, letter) {
                UnitRef::Live { range } => Some(range),
                why => return Step::Done(self.unit_refused(path, "within", letter, &why)),
            },
            None => None,
        };
        if old.is_empty() {
            return self.replace_empty(path, args, within, new, preview_only);
        }
        let draft = self.draft_rope(path);
        let anchor_end = match self.anchor(path, &draft, args.search_after.as_deref()) {
            Ok(a) => a,
            Err(refusal) => return self.refuse(refusal, Some(path)),
        };
        let (base, changes) = self.layers(path);
        let layers = Layered { base: &base, changes: &changes, draft: &draft };
        let replace_all = args.replace_all.unwrap_or(false);
        let from = within.as_ref().map_or(0, |r| r.start).max(anchor_end.unwrap_or(0));
        let (mut located, capped) =
            matching::locate_layered_upto(&layers, &old, from, choose::match_cap(replace_all), self.search_budget());
        if let Some(unit) = &within {
            located.matches.retain(|m| m.range.start >= unit.start && m.range.end <= unit.end);
        }
        self.match_trace("memo_replace", path, &draft, &old, anchor_end, &located.matches);
        // Found by the lines around its placeholders: new_text's placeholders must map to the
        // lines those stand for, or nothing is written (a placeholder is never text).
        let pick = args.match_id.as_deref().and_then(Letter::parse).map(Letter::index);
        if let Some(why) = matching::elide::unmapped(&located.matches, pick, &new) {
            return self.refuse(Refusal::ElidedNewText { path: path.to_string(), why }, Some(path));
        }
        let mut notes = Vec::new();
        if let Some(g) = &located.gutter {
            notes.push(Note::GuttersStripped(g.kind));
            if let Some(stripped) = gutter::strip_kind(&new, g.kind) {
                new = stripped;
                notes.push(Note::NewTextGuttersStripped);
            }
        }
        // A lazy sketch: new_text's placeholders where old_text has none are written as the
        // lines of old_text they stand for, or nothing is (a placeholder is never text).
        if located.matches.first().map_or(true, |m| m.reindent.as_ref().map_or(true, |r| r.elided.is_none())) {
            match fill_placeholders(&located.needle, &new, located.matches.is_empty()) {
                Ok(Some((filled, note))) => {
                    new = filled;
                    notes.push(note);
                }
                Ok(None) => {}
                Err(why) => return self.refuse(Refusal::ElidedNewText { path: path.to_string(), why }, Some(path)),
            }
        }
        let search = Search {
            tool: Tool::Replace,
            path: path.to_string(),
            query: format!(
                "replace\u{0}{old}\u{0}{}\u{0}{}",
                args.search_after.as_deref().unwrap_or_default(),
                args.within.as_deref().unwrap_or_default()
            ),
            needle: Needle::OldText(old.clone()),
            new_text: new,
            anchor_end,
            match_id: args.match_id.as_deref().and_then(Letter::parse),
            show_all: args.show_all_matches.unwrap_or(false),
            preview_only,
            replace_all,
            expected: args.expected_occurrences.map(|n| n as usize),
            warn: located.gutter.is_some() || notes.iter().any(|n| matches!(n, Note::PlaceholdersFilled { .. })),
            notes,
        };
        if located.matches.is_empty() {
            // The near-miss search shares the budget of the locate of the same needle from the
            // same place (`within` starts the locate elsewhere: the near search gets its own).
            let after = if from == anchor_end.unwrap_or(0) { located.budget } else { self.search_budget() };
            return self.replace_unmatched(path, &old, search, &located.needle, &after);
        }
        if let Some(again) = self.sent_again(&search, &located.matches) {
            return self.answer_again(again);
        }
        self.choose_upto(search, located.matches, capped)
    }

    /// [`Workspace::replace`] with an empty old_text: new_text appended (within a unit, at the
    /// unit's end). Out of line, as [`Workspace::replace_unmatched`].
    #[inline(never)]
    fn replace_empty(&mut self, path: &str, args: &ReplaceArgs, within: Option<Range<usize>>, new: String, preview_only: bool) -> Step {
        let choosing = choice_args(args);
        if !choosing.is_empty() {
            return self.refuse(Refusal::AppendWithChoice { args: choosing }, None);
        }
        // Within a unit, an empty old_text appends at the unit's end.
        let end = within.as_ref().map_or_else(|| self.draft_rope(path).len_chars(), |r| r.end);
        let info = StageInfo { tool: Tool::Replace, quality: None, preview_only, chosen: None, notes: Vec::new(), warn: false };
        self.stage(path, vec![Edit { range: end..end, new_text: new }], info)
    }

    /// [`Workspace::replace`] of an old_text not found (`needle` as searched; `after` the
    /// budget left for the near-miss search): out of line, so that a replace that finds its
    /// text does not compile this path on its first call (docs/performance.md#cold-start).
    #[inline(never)]
    fn replace_unmatched(&mut self, path: &str, old: &str, search: Search, needle: &str, after: &Budget) -> Step {
        // The same edit sent again after it was staged (docs/workflow.md#visible-tools).
        let holding = self.turn.session.as_ref().and_then(|s| repeat::holding_change(s, path, old, &search.new_text));
        if let Some(id) = holding.or_else(|| self.picked_before(&search, search.match_id)) {
            return self.already_staged(&search, id);
        }
        if let Some(again) = self.sent_again(&search, &[]) {
            return self.answer_again(again);
        }
        if let Some(staged) = self.replace_unescaped(&search, old) {
            return staged;
        }
        let elsewhere = self.exactly_elsewhere(path, old);
        match self.no_match(search, needle, after) {
            Step::Done(r) => Step::Done(self.naming_elsewhere(r, path, elsewhere)),
            step => step,
        }
    }

    /// A fresh budget for one search (docs/reliability.md#matching-time-and-read-size). Cost: O(1).
    pub(super) fn search_budget(&self) -> Budget {
        Budget::new(self.settings.search_limit)
    }

    /// The other open documents holding `old_text` exactly, with the line of the first
    /// occurrence (at most 3): an old_text copied from the wrong document. Cost: O(size of the
    /// other open documents), on the no-match path only.
    fn exactly_elsewhere(&self, path: &str, old_text: &str) -> Vec<(String, usize)> {
        let mut found = Vec::new();
        for other in self.paths().iter().filter(|p| p.as_str() != path) {
            let rope = self.draft_rope(other);
            if let Some(at) = matching::exact::find_first_byte(&rope, old_text) {
                found.push((other.clone(), rope.byte_to_line(at) + 1));
                if found.len() == 3 {
                    break;
                }
            }
        }
        found
    }

    /// A no-match answer whose guidance first names the documents that hold old_text exactly
    /// (nothing is changed there: the model says which document it meant).
    fn naming_elsewhere(&self, mut r: Response, path: &str, places: Vec<(String, usize)>) -> Response {
        let elsewhere = ExactlyElsewhere { path: path.to_string(), places };
        let v = words::Voice::of(self);
        let Some(lead) = words::exactly_elsewhere(&elsewhere, &v) else { return r };
        r.guidance = Some(match r.guidance.take() {
            Some(g) if !g.trim().is_empty() => words::joined(&lead, &g, &v),
            _ => lead,
        });
        r
    }

    // ---- memo_replace_span -----------------------------------------------------------------

    pub(super) fn replace_span(&mut self, path: &str, args: &ReplaceSpanArgs) -> Step {
        if let Some(refused) = self.check_fingerprint(path, args.expected_fingerprint.as_deref()) {
            return refused;
        }
        let start = arg_text(&args.old_span_start);
        let end = arg_text(&args.old_span_end);
        let new = arg_text(&args.new_text);
        for (which, value) in [(SpanEnd::Start, &start), (SpanEnd::End, &end)] {
            if value.is_empty() {
                return self.refuse(Refusal::EmptySpanMarker { end: which }, None);
            }
        }
        let keep_start = args.keep_start.unwrap_or(false);
        let keep_end = args.keep_end.unwrap_or(false);
        let draft = self.draft_rope(path);
        let anchor_end = match self.anchor(path, &draft, args.search_after.as_deref()) {
            Ok(a) => a,
            Err(refusal) => return self.refuse(refusal, Some(path)),
        };
        let notes = lost_span_markers(&start, &end, keep_start, keep_end, &new);
        let mut search = Search {
            tool: Tool::ReplaceSpan,
            path: path.to_string(),
            query: format!(
                "span\u{0}{start}\u{0}{end}\u{0}{keep_start}{keep_end}\u{0}{}",
                args.search_after.as_deref().unwrap_or_default()
            ),
            needle: Needle::SpanStart(start.clone()),
            new_text: new,
            anchor_end,
            match_id: args.match_id.as_deref().and_then(Letter::parse),
            show_all: false,
            preview_only: args.preview_only.unwrap_or(false),
            replace_all: false,
            expected: None,
            warn: !notes.is_empty(),
            notes,
        };
        let (base, changes) = self.layers(path);
        let layers = Layered { base: &base, changes: &changes, draft: &draft };
        let (starts, capped) =
            matching::locate_layered_upto(&layers, &start, anchor_end.unwrap_or(0), choose::MATCH_CAP, self.search_budget());
        self.match_trace("memo_replace_span", path, &draft, &start, anchor_end, &starts.matches);
        if starts.matches.is_empty() {
            return self.no_match(search, &starts.needle, &starts.budget);
        }
        if capped {
            return self.choose_upto(search, starts.matches, capped);
        }
        // The end marker is searched once, from the end of the first start marker; each start
        // takes the first of those matches that begins at or after its own end. (One search per
        // start made many starts quadratic: fuzzing found 7 s for a 41 KB run of spaces.) Ends
        // are the search's non-overlapping matches, so for an end marker that overlaps itself
        // (`aa` in `aaaa`) a start may skip to the next one of those.
        let first_end = starts.matches.iter().map(|s| s.range.end).min().unwrap_or(0);
        // The first MATCH_CAP ends serve every start that ends before the last of them (a
        // heading and `\n`); starts past them take theirs from the search continued there.
        let (mut ends, more) = matching::locate_layered_upto(&layers, &end, first_end, choose::MATCH_CAP, self.search_budget());
        if more {
            let start_ends: Vec<usize> = starts.matches.iter().map(|s| s.range.end).collect();
            ends.matches = match matching::exact::continued_ends(&layers, &end, &start_ends, ends.matches, choose::MATCH_CAP) {
                Some(found) => found,
                None => matching::locate_layered_within(&layers, &end, first_end, self.search_budget()).matches,
            };
        }
        let spans = pair_spans(&starts.matches, &ends.matches, keep_start, keep_end);
        if spans.is_empty() {
            let start_line = starts.matches.first().map_or(0, |m| text::line_of(&draft, m.range.start));
            return self.refuse(Refusal::SpanEndMissing { path: path.to_string(), start, end, start_line }, Some(path));
        }
        search.needle = Needle::Span { start, end };
        self.choose(search, spans)
    }

    // ---- memo_replace_selection ------------------------------------------------------------

    pub(super) fn replace_selection(&mut self, path: Option<&str>, args: &ReplaceSelectionArgs) -> Step {
        let Some(sel) = self.turn.session.as_ref().and_then(|s| s.selection.clone()) else {
            return self.refuse(Refusal::NoSelection, path);
        };
        let index = args.selection_id.0;
        let c = match pick_from(&sel, path, index) {
            Ok(c) => c.clone(),
            Err(Refusal::StaleCandidate { letter }) => return self.refuse(Refusal::StaleCandidate { letter }, Some(&sel.path)),
            Err(refusal) => return self.refuse(refusal, None),
        };
        let preview_only = args.preview_only.unwrap_or(false);
        if sel.kind == SelectionKind::Units {
            // A unit is replaced whole by the new_text given now: no search gave one.
            let Some(new) = args.new_text.as_deref().map(arg_text) else {
                return Step::Done(self.finish(words::unit_needs_new_text(c.id, &Voice::of(self)), None));
            };
            let info = StageInfo {
                tool: Tool::ReplaceSelection,
                warn: false,
                quality: Some(c.quality),
                preview_only,
                chosen: Some(c.id),
                notes: Vec::new(),
            };
            return self.stage(&sel.path, vec![Edit { range: c.range, new_text: new }], info);
        }
        let mut new = match args.new_text.as_deref() {
            Some(t) => arg_text(t),
            None => sel.new_text.clone(),
        };
        let mut notes = Vec::new();
        // A new new_text may be a lazy sketch of the candidate's old_text (the selection's was
        // filled when it was searched).
        let elided = c.reindent.as_ref().is_some_and(|r| r.elided.is_some());
        if !elided && args.new_text.is_some() {
            match fill_placeholders(&sel.needle, &new, sel.kind == SelectionKind::NearMisses) {
                Ok(Some((filled, note))) => {
                    new = filled;
                    notes.push(note);
                }
                Ok(None) => {}
                Err(why) => return self.refuse(Refusal::ElidedNewText { path: sel.path.clone(), why }, Some(&sel.path)),
            }
        }
        if sel.kind == SelectionKind::NearMisses {
            let info =
                StageInfo { tool: Tool::ReplaceSelection, warn: true, quality: Some(c.quality), preview_only, chosen: Some(c.id), notes };
            return self.stage_near_miss(&sel.path, c.id, c.range, &sel.needle, &new, info);
        }
        if let Some(Err(why)) = c.reindent.as_ref().map(|r| r.check(&new)) {
            return self.refuse(Refusal::ElidedNewText { path: sel.path.clone(), why }, Some(&sel.path));
        }
        let replacement = match &c.reindent {
            Some(r) => r.apply(&new),
            None => new,
        };
        let info = StageInfo {
            tool: Tool::ReplaceSelection,
            warn: !c.quality.is_exact() || !notes.is_empty(),
            quality: Some(c.quality),
            preview_only,
            chosen: Some(c.id),
            notes,
        };
        self.stage(&sel.path, vec![Edit { range: c.range, new_text: replacement }], info)
    }

    // ---- memo_replace_lines ----------------------------------------------------------------

    pub(super) fn replace_lines(&mut self, path: &str, args: &ReplaceLinesArgs) -> Step {
        if let Some(refused) = self.check_fingerprint(path, args.expected_fingerprint.as_deref()) {
            return refused;
        }
        // Both keys passed the schema check; parse errors cannot happen here.
        let Ok(start) = LineKey::parse(&args.start_key) else {
            return self.refuse(Refusal::NotALineKey, None);
        };
        let end = args.end_key.as_deref().and_then(|k| LineKey::parse(k).ok()).unwrap_or(start);
        if end.line < start.line {
            return self.refuse(Refusal::EndKeyBeforeStart { start, end }, None);
        }
        let draft = self.draft_rope(path);
        let changes = changed_lines(&draft, self.keys_read_from(path).as_ref(), start, end);
        if !changes.is_empty() {
            let last = text::visible_line_count(&draft);
            let from = start.line.min(last).saturating_sub(2).max(1);
            let to = (end.line + 2).min(last);
            let mut r = self.worded(&EditOutcome::Refused(Refusal::LinesChanged { path: path.to_string(), changes, shown: from..=to }));
            r.content = Some(super::read::keyed_lines(&draft, &draft, from, to.max(from)));
            self.keys_shown_from(path, &draft);
            return Step::Done(self.finish(r, Some(path)));
        }
        let mut new = arg_text(&args.new_text);
        let mut notes = Vec::new();
        if new.contains('#') {
            if let Some(stripped) = gutter::strip_kind(&new, GutterKind::LineKey) {
                new = stripped;
                notes.push(Note::LineKeysStripped);
            }
        }
        let range = lines_range(&draft, start.line, end.line, new.is_empty());
        let info = StageInfo {
            tool: Tool::ReplaceLines,
            quality: None,
            preview_only: args.preview_only.unwrap_or(false),
            chosen: None,
            warn: false,
            notes,
        };
        self.stage(path, vec![Edit { range, new_text: new }], info)
    }

    // ---- memo_append -----------------------------------------------------------------------

    pub(super) fn append(&mut self, path: &str, args: &AppendArgs) -> Step {
        if let Some(refused) = self.check_fingerprint(path, args.expected_fingerprint.as_deref()) {
            return refused;
        }
        let end = self.draft_rope(path).len_chars();
        let info = StageInfo {
            tool: Tool::Append,
            quality: None,
            preview_only: args.preview_only.unwrap_or(false),
            chosen: None,
            notes: Vec::new(),
            warn: false,
        };
        self.stage(path, vec![Edit { range: end..end, new_text: arg_text(&args.text) }], info)
    }
}

/// `new_text` with its placeholder lines (those `old_text` does not hold) written as the
/// lines of `old_text` they stand for, and the note saying so; `Ok(None)` when it has none.
/// Not for an `old_text` with placeholder-like lines of its own that was not found
/// (`unmatched`): those may be placeholders, whose mapping the near-miss pick decides.
/// Cost: [`matching::elide::sketch::expand`].
fn fill_placeholders(old_text: &str, new_text: &str, unmatched: bool) -> Result<Option<(String, Note)>, matching::elide::Unmapped> {
    // Without a placeholder-like line in new_text there is nothing to fill: the common edit
    // returns here, and the filling (a line diff) is not compiled on its first call
    // (docs/performance.md#cold-start).
    if !new_text.split('\n').any(matching::elide::is_elision_line) {
        return Ok(None);
    }
    fill_found_placeholders(old_text, new_text, unmatched)
}

/// [`fill_placeholders`] once new_text has a placeholder-like line.
#[inline(never)]
fn fill_found_placeholders(old_text: &str, new_text: &str, unmatched: bool) -> Result<Option<(String, Note)>, matching::elide::Unmapped> {
    if unmatched && old_text.split('\n').any(matching::elide::is_elision_line) {
        return Ok(None);
    }
    let filled = matching::elide::sketch::expand(old_text, new_text)?;
    Ok(filled.map(|f| {
        let held: std::collections::HashSet<&str> = old_text.split('\n').map(str::trim).collect();
        let count = new_text.split('\n').filter(|l| matching::elide::is_elision_line(l) && !held.contains(&l.trim())).count();
        (f, Note::PlaceholdersFilled { count })
    }))
}

/// The candidate `memo_replace_selection` picks: the one at `index` of `sel`, when `path`
/// (if given) is the selection's and the candidate is still current. Cost: O(1).
fn pick_from<'a>(sel: &'a Selection, path: Option<&str>, index: usize) -> Result<&'a crate::session::SelectionCandidate, Refusal> {
    if let Some(given) = path.filter(|g| *g != sel.path) {
        return Err(Refusal::SelectionElsewhere { given: given.to_string(), selection_path: sel.path.clone() });
    }
    let Some(c) = sel.candidates.get(index) else {
        let last = sel.candidates.last().map(|c| c.id);
        return Err(Refusal::SelectionIdOutOfRange { index, count: sel.candidates.len(), last });
    };
    if c.stale {
        return Err(Refusal::StaleCandidate { letter: c.id });
    }
    Ok(c)
}
