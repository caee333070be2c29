//! The editing tools (docs/tools.md): `memo_replace`, `memo_replace_span`, `memo_replace_selection`,
//! `memo_replace_lines` and `memo_append`. Each one locates its target with [`crate::matching`],
//! then goes through the same choice — one match is staged, several become lettered candidates,
//! none gives the closest regions — and the same staging, so they answer alike.

use std::ops::Range;

use ropey::Rope;

use super::views::{candidate_view, clip, plural, plural_es};
use super::{Step, Workspace, DEFAULT_CANDIDATES_SHOWN};
use crate::format::code;
use crate::matching::gutter::{self, GutterKind};
use crate::matching::line_key::LineKey;
use crate::matching::near;
use crate::changeset::ChangeSet;
use crate::diagnostics::Category;
use crate::matching::exact::Layered;
use crate::matching::recommend::{self, Hints};
use crate::text::Text;
use crate::matching::{self, CandidateQuality, Match, SearchError};
use crate::response::{Candidate, Response, Status};
use crate::session::{Letter, Selection, SelectionCandidate, SelectionKind, Session};
use crate::text::{self, normalize_line_breaks};
use crate::tools::{Args, Tool};

mod escapes;
mod near_pick;
mod stage;

/// Near misses shown after `NoMatch` (lettered only at or above the threshold).
const NEAR_MISSES_SHOWN: usize = 3;

/// A located request of one of the search-based tools, before the choice.
struct Search {
    tool: Tool,
    path: String,
    /// Identity of the search: the same query later reuses the selection's letters.
    query: String,
    /// How the needle is named in messages, e.g. "old_text `timeout: 30`".
    describe: String,
    new_text: String,
    anchor_end: Option<usize>,
    match_id: Option<Letter>,
    show_all: bool,
    preview_only: bool,
    replace_all: bool,
    expected: Option<usize>,
    /// Sentences the summary must carry (gutters stripped, a marker dropped…).
    notes: Vec<String>,
    /// A note that needs the model's attention: the response is a `[Warning]`.
    warn: bool,
}

/// One staging request: replace `range` of the draft by `new_text`.
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
    notes: Vec<String>,
    warn: bool,
}

fn arg_text(args: &Args, name: &str) -> String {
    normalize_line_breaks(args.str(name).unwrap_or_default()).into_owned()
}

impl Workspace {
    /// `StaleReference` when `expected_fingerprint` is given and the draft's differs.
    fn check_fingerprint(&self, path: &str, args: &Args) -> Option<Response> {
        let expected = args.str("expected_fingerprint")?;
        let fp = self.draft_fingerprint(path).to_string();
        if expected == fp {
            return None;
        }
        let r = Response::new(
            Status::StaleReference,
            format!("The draft of {path} changed since your read (expected fingerprint {expected}, now {fp}). Nothing was changed."),
        )
        .with_guidance(format!("Call {}_read and retry with the new fingerprint.", self.config.tool_prefix));
        Some(self.finish(r, Some(path)))
    }

    /// Char offset where `search_after` ends, or a `NoMatch` naming the anchor.
    fn anchor(&self, path: &str, draft: &Rope, args: &Args) -> Result<Option<usize>, Box<Response>> {
        let Some(anchor) = args.str("search_after").map(|s| normalize_line_breaks(s).into_owned()) else {
            return Ok(None);
        };
        match matching::anchor_end(draft, Some(&anchor)) {
            Ok(at) => Ok(Some(at)),
            Err(SearchError::AnchorNotFound { anchor }) => {
                let r = Response::new(
                    Status::NoMatch,
                    format!("search_after text {} does not occur in {path}. Nothing was changed.", code(&clip(&anchor))),
                )
                .with_guidance(format!("Copy search_after exactly from {}_read output, or leave it out.", self.config.tool_prefix));
                Err(Box::new(self.finish(r, Some(path))))
            }
        }
    }

    // ---- memo_replace ----------------------------------------------------------------------

    /// The draft of `path` as layers for the exact search: its base text (whose flat copy is
    /// kept across calls) and the pending replacements. Cost: O(k log k) for k changes.
    fn layers(&self, path: &str) -> (Text, ChangeSet) {
        match self.session.as_ref().and_then(|s| s.docs.get(path).map(|d| (s, d))) {
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
    fn match_trace(&mut self, tool: &str, path: &str, draft: &ropey::Rope, needle: &str, anchor_end: Option<usize>, matches: &[matching::Match]) {
        if !self.diagnostics.enabled(Category::MatchTrace) {
            return;
        }
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
        self.diagnostics.record(Category::MatchTrace, &id, tool, None, detail);
    }

    pub(super) fn replace(&mut self, path: &str, args: &Args) -> Step {
        if let Some(r) = self.check_fingerprint(path, args) {
            return Step::Done(r);
        }
        let old = arg_text(args, "old_text");
        let mut new = arg_text(args, "new_text");
        let preview_only = args.bool("preview_only").unwrap_or(false);
        if old.is_empty() {
            // Empty old_text appends: arguments that choose among matches mean nothing there,
            // and a call that passes them expects something other than an append.
            let choosing: Vec<String> = [
                args.str("match_id").map(|v| format!("`match_id` ({v})")),
                args.bool("replace_all").filter(|&b| b).map(|_| "`replace_all` (true)".to_string()),
                args.int("expected_occurrences").map(|n| format!("`expected_occurrences` ({n})")),
                args.str("search_after").filter(|s| !s.is_empty()).map(|s| format!("`search_after` ({})", code(&clip(s)))),
            ]
            .into_iter()
            .flatten()
            .collect();
            if !choosing.is_empty() {
                return Step::Done(self.invalid(
                    &format!("old_text is empty (an append), but {} choose among matches of a text", choosing.join(", ")),
                    format!("Pass the text to replace as old_text, or leave out {} to append{}.", choosing.join(", "), self.or_call(Tool::Append, "")),
                ));
            }
            let end = self.draft_rope(path).len_chars();
            let info = StageInfo { tool: Tool::Replace, quality: None, preview_only, chosen: None, notes: Vec::new(), warn: false };
            return self.stage(path, vec![Edit { range: end..end, new_text: new }], info);
        }
        let draft = self.draft_rope(path);
        let anchor_end = match self.anchor(path, &draft, args) {
            Ok(a) => a,
            Err(r) => return Step::Done(*r),
        };
        let (base, changes) = self.layers(path);
        let layers = Layered { base: &base, changes: &changes, draft: &draft };
        let located = matching::locate_layered(&layers, &old, anchor_end.unwrap_or(0));
        self.match_trace("memo_replace", path, &draft, &old, anchor_end, &located.matches);
        let mut notes = Vec::new();
        if let Some(g) = &located.gutter {
            notes.push(format!(
                "old_text had line-number gutters like {} on every line; they were stripped before searching.",
                g.kind.example()
            ));
            if let Some(stripped) = gutter::strip_kind(&new, g.kind) {
                new = stripped;
                notes.push("The same gutters were stripped from new_text.".into());
            }
        }
        let search = Search {
            tool: Tool::Replace,
            path: path.to_string(),
            query: format!("replace\u{0}{old}\u{0}{}", args.str("search_after").unwrap_or_default()),
            describe: format!("old_text {}", code(&clip(&old))),
            new_text: new,
            anchor_end,
            match_id: args.str("match_id").and_then(Letter::parse),
            show_all: args.bool("show_all_matches").unwrap_or(false),
            preview_only,
            replace_all: args.bool("replace_all").unwrap_or(false),
            expected: args.int("expected_occurrences").map(|n| n as usize),
            warn: located.gutter.is_some(),
            notes,
        };
        if located.matches.is_empty() {
            if let Some(staged) = self.replace_unescaped(&search, &old) {
                return staged;
            }
            return self.no_match(search, &located.needle);
        }
        self.choose(search, located.matches)
    }

    // ---- memo_replace_span -----------------------------------------------------------------

    pub(super) fn replace_span(&mut self, path: &str, args: &Args) -> Step {
        if let Some(r) = self.check_fingerprint(path, args) {
            return Step::Done(r);
        }
        let start = arg_text(args, "old_span_start");
        let end = arg_text(args, "old_span_end");
        let new = arg_text(args, "new_text");
        for (name, value) in [("old_span_start", &start), ("old_span_end", &end)] {
            if value.is_empty() {
                return Step::Done(self.invalid(
                    &format!("argument `{name}` is empty"),
                    format!("Pass a few words where the region starts and ends, or use {}_append to add at the end.", self.config.tool_prefix),
                ));
            }
        }
        let keep_start = args.bool("keep_start").unwrap_or(false);
        let keep_end = args.bool("keep_end").unwrap_or(false);
        let draft = self.draft_rope(path);
        let anchor_end = match self.anchor(path, &draft, args) {
            Ok(a) => a,
            Err(r) => return Step::Done(*r),
        };
        let mut notes = Vec::new();
        let mut warn = false;
        for (marker, kept, name, flag) in [(&start, keep_start, "old_span_start", "keep_start"), (&end, keep_end, "old_span_end", "keep_end")] {
            if !kept && !new.contains(marker.trim()) {
                warn = true;
                notes.push(format!(
                    "{name} {} is replaced too and new_text does not restate it, so it will be gone (pass {flag}=true to keep it).",
                    code(&clip(marker))
                ));
            }
        }
        let mut search = Search {
            tool: Tool::ReplaceSpan,
            path: path.to_string(),
            query: format!("span\u{0}{start}\u{0}{end}\u{0}{keep_start}{keep_end}\u{0}{}", args.str("search_after").unwrap_or_default()),
            describe: format!("old_span_start {}", code(&clip(&start))),
            new_text: new,
            anchor_end,
            match_id: args.str("match_id").and_then(Letter::parse),
            show_all: false,
            preview_only: args.bool("preview_only").unwrap_or(false),
            replace_all: false,
            expected: None,
            notes,
            warn,
        };
        let (base, changes) = self.layers(path);
        let layers = Layered { base: &base, changes: &changes, draft: &draft };
        let starts = matching::locate_layered(&layers, &start, anchor_end.unwrap_or(0));
        self.match_trace("memo_replace_span", path, &draft, &start, anchor_end, &starts.matches);
        if starts.matches.is_empty() {
            return self.no_match(search, &starts.needle);
        }
        // The end marker is searched once, from the end of the first start marker; each start
        // takes the first of those matches that begins at or after its own end. (One search per
        // start made many starts quadratic: fuzzing found 7 s for a 41 KB run of spaces.) Ends
        // are the search's non-overlapping matches, so for an end marker that overlaps itself
        // (`aa` in `aaaa`) a start may skip to the next one of those.
        let first_end = starts.matches.iter().map(|s| s.range.end).min().unwrap_or(0);
        let ends = matching::locate_layered(&layers, &end, first_end);
        let mut spans = Vec::new();
        for s in &starts.matches {
            let next = ends.matches.partition_point(|e| e.range.start < s.range.end);
            let Some(e) = ends.matches.get(next) else { continue };
            let quality = if s.quality.is_exact() { e.quality } else { s.quality };
            let from = if keep_start { s.range.end } else { s.range.start };
            let to = if keep_end { e.range.start } else { e.range.end };
            spans.push(Match { range: from..to.max(from), quality, reindent: None });
        }
        if spans.is_empty() {
            let line = starts.matches.first().map_or(0, |m| text::line_of(&draft, m.range.start));
            let r = Response::new(
                Status::NoMatch,
                format!(
                    "old_span_end {} does not occur after old_span_start {} (line {line}) in {path}. Nothing was changed.",
                    code(&clip(&end)),
                    code(&clip(&start))
                ),
            )
            .with_guidance(format!(
                "Copy old_span_end from {}_read: it must come after the start marker.",
                self.config.tool_prefix
            ));
            return Step::Done(self.finish(r, Some(path)));
        }
        search.describe = format!("the span {} … {}", code(&clip(&start)), code(&clip(&end)));
        self.choose(search, spans)
    }

    // ---- memo_replace_selection ------------------------------------------------------------

    pub(super) fn replace_selection(&mut self, path: Option<&str>, args: &Args) -> Step {
        let p = self.config.tool_prefix.clone();
        let Some(sel) = self.session.as_ref().and_then(|s| s.selection.clone()) else {
            let r = Response::new(Status::Blocked, "There is no selection to choose from. Nothing was changed.")
                .with_guidance(format!("{p}_replace lists lettered candidates when old_text matches several places."));
            return Step::Done(self.finish(r, path));
        };
        if let Some(given) = path.filter(|g| *g != sel.path) {
            return Step::Done(self.invalid(
                &format!("argument `path` is {given} but the selection is in {}", sel.path),
                "Leave `path` out, or pass the selection's document.".into(),
            ));
        }
        let index = args.letter_index("selection_id").unwrap_or(usize::MAX);
        let Some(c) = sel.candidates.get(index).cloned() else {
            let last = sel.candidates.last().map_or("A".to_string(), |c| c.id.to_string());
            return Step::Done(self.invalid(
                &format!(
                    "argument `selection_id` names candidate {} but the selection has {} (A–{last})",
                    Letter::from_index(index).map_or_else(|| (index + 1).to_string(), |l| l.to_string()),
                    sel.candidates.len()
                ),
                format!("Pass a selection_id from \"A\" to \"{last}\"."),
            ));
        };
        if c.stale {
            return self.stale_candidate(c.id, &sel.path);
        }
        let new = match args.str("new_text") {
            Some(t) => normalize_line_breaks(t).into_owned(),
            None => sel.new_text.clone(),
        };
        if sel.kind == SelectionKind::NearMisses {
            let info = StageInfo {
                tool: Tool::ReplaceSelection,
                warn: true,
                quality: Some(c.quality),
                preview_only: args.bool("preview_only").unwrap_or(false),
                chosen: Some(c.id),
                notes: Vec::new(),
            };
            return self.stage_near_miss(&sel.path, c.id, c.range, &sel.needle, &new, info);
        }
        let replacement = match &c.reindent {
            Some(r) => r.apply(&new),
            None => new,
        };
        let info = StageInfo {
            tool: Tool::ReplaceSelection,
            warn: !c.quality.is_exact(),
            quality: Some(c.quality),
            preview_only: args.bool("preview_only").unwrap_or(false),
            chosen: Some(c.id),
            notes: Vec::new(),
        };
        self.stage(&sel.path, vec![Edit { range: c.range, new_text: replacement }], info)
    }

    // ---- memo_replace_lines ----------------------------------------------------------------

    pub(super) fn replace_lines(&mut self, path: &str, args: &Args) -> Step {
        if let Some(r) = self.check_fingerprint(path, args) {
            return Step::Done(r);
        }
        // Both keys passed the schema check; parse errors cannot happen here.
        let Some(start) = args.str("start_key").and_then(|k| LineKey::parse(k).ok()) else {
            return Step::Done(self.invalid("argument `start_key` is not a line key", "Pass a key like \"12#a3f1\" from memo_read(line_keys=true).".into()));
        };
        let end = args.str("end_key").and_then(|k| LineKey::parse(k).ok()).unwrap_or(start);
        if end.line < start.line {
            return Step::Done(self.invalid(
                &format!("argument `end_key` ({end}) is before `start_key` ({start})"),
                "Pass end_key at or after start_key, or leave it out to replace one line.".into(),
            ));
        }
        let draft = self.draft_rope(path);
        let last = text::visible_line_count(&draft);
        let stale: Vec<String> = [start, end]
            .iter()
            .filter(|k| k.line > last || !k.matches(&text::line_text(&draft, k.line - 1)))
            .map(|k| {
                if k.line > last {
                    format!("line {} does not exist any more ({path} has {last} line{})", k.line, plural(last))
                } else {
                    format!("line {} is now {} (key {}), not the line you read (key {k})", k.line, code(&clip(&text::line_text(&draft, k.line - 1))), LineKey::of(k.line, &text::line_text(&draft, k.line - 1)))
                }
            })
            .collect();
        let mut stale = stale;
        if stale.is_empty() {
            // Both ends match, but lines between may have moved under them (an insertion above
            // shifts `}` … `}` onto another block): every line of the range must be the line
            // the keys were read with.
            if let Some(read) = self.keys_read_from(path) {
                let read_last = text::visible_line_count(&read);
                let ends_read_there = [start, end].iter().all(|k| k.line <= read_last && k.matches(&text::line_text(&read, k.line - 1)));
                if ends_read_there {
                    if let Some(l) = (start.line..=end.line).find(|&l| text::line_text(&read, l - 1) != text::line_text(&draft, l - 1)) {
                        let now = text::line_text(&draft, l - 1);
                        stale.push(format!(
                            "line {l} is now {} (key {}), not the line you read there ({}): lines moved since your read",
                            code(&clip(&now)),
                            LineKey::of(l, &now),
                            code(&clip(&text::line_text(&read, l - 1)))
                        ));
                    }
                }
            }
        }
        if !stale.is_empty() {
            stale.dedup();
            let from = start.line.min(last).saturating_sub(2).max(1);
            let to = (end.line + 2).min(last);
            let mut r = Response::new(
                Status::StaleReference,
                format!("The lines changed since your read: {}. Nothing was changed.", stale.join("; ")),
            )
            .with_guidance(format!(
                "Use the current keys shown below (lines {from}–{to}), or call {}_read(line_keys=true) again.",
                self.config.tool_prefix
            ));
            r.content = Some(super::read::keyed_lines(&draft, &draft, from, to.max(from), last));
            self.keys_shown_from(path, &draft);
            return Step::Done(self.finish(r, Some(path)));
        }
        let mut new = arg_text(args, "new_text");
        let mut notes = Vec::new();
        if new.contains('#') {
            if let Some(stripped) = gutter::strip_kind(&new, GutterKind::LineKey) {
                new = stripped;
                notes.push("new_text had line keys on every line; they were stripped.".into());
            }
        }
        let mut range = draft.line_to_char(start.line - 1)..draft.line_to_char(end.line - 1) + text::line_text(&draft, end.line - 1).chars().count();
        if new.is_empty() {
            // Deleting lines removes their line break too, not just their text.
            if range.end < draft.len_chars() {
                range.end += 1;
            } else if range.start > 0 {
                range.start -= 1;
            }
        }
        let info = StageInfo {
            tool: Tool::ReplaceLines,
            quality: None,
            preview_only: args.bool("preview_only").unwrap_or(false),
            chosen: None,
            warn: false,
            notes,
        };
        self.stage(path, vec![Edit { range, new_text: new }], info)
    }

    // ---- memo_append -----------------------------------------------------------------------

    pub(super) fn append(&mut self, path: &str, args: &Args) -> Step {
        if let Some(r) = self.check_fingerprint(path, args) {
            return Step::Done(r);
        }
        let end = self.draft_rope(path).len_chars();
        let info = StageInfo {
            tool: Tool::Append,
            quality: None,
            preview_only: args.bool("preview_only").unwrap_or(false),
            chosen: None,
            notes: Vec::new(),
            warn: false,
        };
        self.stage(path, vec![Edit { range: end..end, new_text: arg_text(args, "text") }], info)
    }

    // ---- the choice: one, several, a letter, all --------------------------------------------

    /// `StaleReference` for a candidate whose text a staged edit has changed.
    fn stale_candidate(&self, letter: Letter, path: &str) -> Step {
        let r = Response::new(
            Status::StaleReference,
            format!("Candidate {letter} no longer holds the text it matched: an edit staged since changed it. Nothing was changed."),
        )
        .with_guidance(format!("Choose another candidate, or call {}_preview to see what is staged.", self.config.tool_prefix));
        Step::Done(self.finish(r, Some(path)))
    }

    /// The live selection of this query, if it still describes these matches (its letters then
    /// stay valid: docs/architecture.md#pending-changes).
    fn same_selection(&self, search: &Search, matches: &[Match]) -> bool {
        self.session.as_ref().and_then(|s| s.selection.as_ref()).is_some_and(|sel| {
            sel.path == search.path
                && sel.query == search.query
                && sel.kind == SelectionKind::Matches
                && sel.candidates.iter().filter(|c| !c.stale).map(|c| c.range.clone()).eq(matches.iter().map(|m| m.range.clone()))
        })
    }

    /// Whether `path` was reloaded from storage after the last response (the reload's note,
    /// pushed by `take_from_storage` in sync.rs, is still waiting to be said). Cost: O(notes).
    fn reloaded_since_last_response(&self, path: &str) -> bool {
        let reload_note = format!("[{path} changed in storage (version ");
        self.notes.iter().any(|n| n.starts_with(&reload_note) && n.contains(") and was reloaded"))
    }

    fn choose(&mut self, search: Search, matches: Vec<Match>) -> Step {
        let p = self.config.tool_prefix.clone();
        // Callers answer "no match" themselves, with the needle as searched; an empty list here
        // gets the same status rather than a panic.
        let Some(quality) = matches.first().map(|m| m.quality) else { return self.no_match(search, "") };
        let same = self.same_selection(&search, &matches);

        if let Some(letter) = search.match_id {
            let chosen = if same {
                let sel = self.session.as_ref().and_then(|s| s.selection.as_ref());
                match sel.and_then(|sel| sel.candidates.iter().find(|c| c.id == letter)) {
                    Some(c) if c.stale => return self.stale_candidate(letter, &search.path),
                    Some(c) => Some((c.range.clone(), c.reindent.clone(), c.quality)),
                    None => None,
                }
            } else if self.reloaded_since_last_response(&search.path) {
                // Storage replaced the text since the agent last heard from us, and the reload
                // dropped any listing: the letter was read from a listing of the old text.
                // Letters name a listing's candidates, never positions in today's text: list
                // the current ones instead of guessing, as memo_replace_selection refuses a
                // selection that no longer exists.
                let summary = format!(
                    "match_id {letter} names a candidate of a listing that no longer exists: {} was reloaded from storage since; nothing was staged. The current matches of {} are listed below.",
                    search.path, search.describe
                );
                let guidance = format!("Check the candidates below and call again with the match_id of the one you mean (or {p}_replace_selection).");
                return self.list(search, matches, Status::StaleReference, summary, guidance);
            } else {
                // A direct pick without a listing: the letters are those a listing would give.
                matches.get(letter.index()).map(|m| (m.range.clone(), m.reindent.clone(), m.quality.into()))
            };
            let Some((range, reindent, q)) = chosen else {
                let count = if same {
                    self.session.as_ref().and_then(|s| s.selection.as_ref()).map_or(0, |s| s.candidates.len())
                } else {
                    matches.len()
                };
                let last = Letter::from_index(count.saturating_sub(1).min(25)).map_or("A".into(), |l| l.to_string());
                let r = Response::new(
                    Status::InvalidArguments,
                    format!(
                        "Invalid call: argument `match_id` is {letter} but {} has {count} match{} (A–{last}). Nothing was changed.",
                        search.describe,
                        plural_es(count)
                    ),
                )
                .with_guidance(format!("Pass a match_id from A to {last}."));
                return Step::Done(self.finish(r, Some(&search.path)));
            };
            if !same && !search.preview_only {
                // A direct pick without a prior listing: the selection is this search.
                self.select(&search, &matches, SelectionKind::Matches, false);
            }
            let new_text = match &reindent {
                Some(r) => r.apply(&search.new_text),
                None => search.new_text.clone(),
            };
            let info = StageInfo {
                tool: search.tool,
                warn: search.warn || !q.is_exact(),
                quality: Some(q),
                preview_only: search.preview_only,
                chosen: Some(letter),
                notes: search.notes,
            };
            return self.stage(&search.path, vec![Edit { range, new_text }], info);
        }

        if let Some(expected) = search.expected.filter(|&n| n != matches.len()) {
            let found = matches.len();
            let lines: Vec<String> = self.lines_of(&search.path, &matches);
            let summary = format!(
                "expected_occurrences is {expected} but {} matches {found} place{} in {} (line{} {}); nothing was staged.",
                search.describe,
                plural(found),
                search.path,
                plural(found),
                lines.join(", ")
            );
            let guidance = format!(
                "Check the candidates: stage one with match_id, make the text longer so it matches exactly what you mean, or pass expected_occurrences={found} with replace_all=true if all of them are meant."
            );
            return self.list(search, matches, Status::StaleReference, summary, guidance);
        }

        if search.replace_all && matches.len() > 1 {
            if !quality.is_exact() {
                let summary = format!(
                    "replace_all needs exact matches, but {} was only found with {} ({} places); nothing was staged.",
                    search.describe,
                    quality.describe().unwrap_or_default(),
                    matches.len()
                );
                let guidance = format!(
                    "Copy old_text exactly from {p}_read to replace all, or stage the candidates one by one with match_id."
                );
                return self.list(search, matches, Status::MultiMatch, summary, guidance);
            }
            let edits: Vec<Edit> = matches.iter().map(|m| Edit { range: m.range.clone(), new_text: search.new_text.clone() }).collect();
            let info = StageInfo {
                tool: search.tool,
                quality: Some(quality.into()),
                preview_only: search.preview_only,
                chosen: None,
                warn: search.warn,
                notes: search.notes,
            };
            // One pending change however many places (docs/tools.md §memo_replace).
            return self.stage_as(&search.path, edits, info, true);
        }

        if let [m] = matches.as_slice() {
            let info = StageInfo {
                tool: search.tool,
                quality: Some(m.quality.into()),
                preview_only: search.preview_only,
                chosen: None,
                warn: search.warn || !m.quality.is_exact(),
                notes: search.notes,
            };
            let new_text = m.replacement(&search.new_text);
            return self.stage(&search.path, vec![Edit { range: m.range.clone(), new_text }], info);
        }

        let total = matches.len();
        let fuzzy = quality.describe().map_or(String::new(), |d| format!(" (not exactly: {d})"));
        let summary = format!("{} matches {total} places in {}{fuzzy}; nothing was staged.", search.describe, search.path);
        let guidance = String::new(); // filled by `list`
        self.list(search, matches, Status::MultiMatch, summary, guidance)
    }

    fn lines_of(&self, path: &str, matches: &[Match]) -> Vec<String> {
        let draft = self.draft_rope(path);
        matches.iter().take(26).map(|m| text::line_of(&draft, m.range.start).to_string()).collect()
    }

    /// Lists `matches` as lettered candidates (the live selection) with a recommendation when one
    /// is clearly best. Nothing is staged.
    fn list(&mut self, search: Search, matches: Vec<Match>, status: Status, mut summary: String, guidance: String) -> Step {
        let p = self.config.tool_prefix.clone();
        let draft = self.draft_rope(&search.path);
        let same = self.same_selection(&search, &matches);
        if !search.preview_only {
            if same {
                if let Some(sel) = self.session.as_mut().and_then(|s| s.selection.as_mut()) {
                    sel.awaiting_choice = true;
                    // The letters stay; the replacement is the one given with this search.
                    sel.new_text = search.new_text.clone();
                }
            } else {
                self.select(&search, &matches, SelectionKind::Matches, true);
            }
        }
        // (letter, range, quality, stale, occurrence), from the selection when it is live.
        let listing: Vec<(Letter, Range<usize>, CandidateQuality, bool, usize)> = match self.session.as_ref().and_then(|s| s.selection.as_ref()) {
            Some(sel) if same || !search.preview_only => {
                sel.candidates.iter().map(|c| (c.id, c.range.clone(), c.quality, c.stale, c.occurrence)).collect()
            }
            _ => matches
                .iter()
                .enumerate()
                .filter_map(|(i, m)| Letter::from_index(i).map(|l| (l, m.range.clone(), m.quality.into(), false, i)))
                .collect(),
        };
        let shown = if search.show_all { 26 } else { DEFAULT_CANDIDATES_SHOWN };
        // A prefix of the listing holding `shown` live candidates: stale ones (staged since the
        // listing, kept so their letters stay put) are listed where they fall but take no place,
        // so a listing again after staging A still offers five choices.
        let mut live_seen = 0;
        let prefix = listing
            .iter()
            .position(|l| {
                live_seen += usize::from(!l.3);
                live_seen > shown
            })
            .unwrap_or(listing.len());
        let mut candidates: Vec<Candidate> = listing
            .iter()
            .take(prefix)
            .map(|(id, range, q, stale, occ)| candidate_view(&draft, *id, range, *q, *stale, *occ))
            .collect();
        // Candidates still current (not stale), by their index in `listing`.
        let live: Vec<usize> = listing.iter().enumerate().filter(|(_, l)| !l.3).map(|(i, _)| i).collect();
        let ranges: Vec<Range<usize>> = live.iter().filter_map(|&i| listing.get(i)).map(|l| l.1.clone()).collect();
        let goal = self.tasks.innermost().map(|t| t.goal.clone());
        let hints = Hints { anchor_end: search.anchor_end, focus: self.focus(&search.path), goal: goal.as_deref() };
        let recommended = recommend::recommend(&draft, &ranges, &hints).and_then(|r| Some((*live.get(r.index)?, r.reason)));
        if !search.preview_only {
            self.recommended = recommended.and_then(|(i, _)| listing.get(i)).map(|l| l.0);
        }
        if let Some((i, reason)) = recommended {
            if let Some(c) = candidates.get_mut(i) {
                c.recommended = true;
                c.recommended_reason = Some(reason);
                summary.push_str(&format!(" Recommended: {} ({reason}).", c.id));
            }
        }
        let total = matches.len();
        let hidden = total.saturating_sub(candidates.iter().filter(|c| !c.stale).count());
        if hidden > 0 {
            summary.push_str(&format!(
                " {hidden} more not shown{}.",
                if total > 26 { " (only A–Z can be listed)" } else { "; pass show_all_matches=true to list them" }
            ));
        }
        for n in &search.notes {
            summary.push(' ');
            summary.push_str(n);
        }
        // The letters that can still be staged: stale ones (staged since the listing) are not.
        let first = candidates.iter().find(|c| !c.stale).map_or("A".to_string(), |c| c.id.clone());
        let last = candidates.iter().rev().find(|c| !c.stale).map_or("A".to_string(), |c| c.id.clone());
        let guidance = if guidance.is_empty() && self.is_visible(Tool::ReplaceSelection) {
            format!(
                "Call {p}_replace_selection(selection_id=\"{first}\"–\"{last}\") to stage one (or repeat the call with match_id), or make the text longer so it matches once."
            )
        } else if guidance.is_empty() {
            // No choice is pending (a preview, or storage out of sync): only match_id stages one.
            format!("Repeat the call with match_id (\"{first}\"–\"{last}\") to stage one, or make the text longer so it matches once.")
        } else {
            guidance
        };
        let mut r = Response::new(status, summary).with_guidance(guidance);
        let quality = matches.first().map(|m| m.quality);
        if search.warn || !quality.is_some_and(|q| q.is_exact()) {
            r = r.warn();
        }
        r.candidates = candidates;
        r.metrics.selection_count = Some(total);
        r.metrics.new_length = Some(draft.len_chars());
        r.match_quality = quality.map(|q| q.to_string());
        r.fingerprint = Some(self.draft_fingerprint(&search.path).to_string());
        Step::Done(self.finish(r, Some(&search.path)))
    }

    /// Char offset of the last staged change in `path`, for recommendations.
    fn focus(&self, path: &str) -> Option<usize> {
        let s = self.session.as_ref()?;
        let id = s.last_staged?;
        s.changes_in_draft(path).into_iter().find(|(c, _)| c.id == id).map(|(_, r)| r.start)
    }

    /// Caches `found` as the live selection (letters in document order).
    fn select(&mut self, search: &Search, found: &[Match], kind: SelectionKind, awaiting: bool) {
        let candidates = found
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                Letter::from_index(i).map(|id| SelectionCandidate {
                    id,
                    range: m.range.clone(),
                    quality: m.quality.into(),
                    reindent: m.reindent.clone(),
                    occurrence: i,
                    stale: false,
                })
            })
            .collect();
        self.set_selection(Selection {
            path: search.path.clone(),
            query: search.query.clone(),
            new_text: search.new_text.clone(),
            needle: String::new(),
            kind,
            candidates,
            awaiting_choice: awaiting,
        });
    }

    fn set_selection(&mut self, selection: Selection) {
        let mut session = self.take_session();
        session.selection = Some(selection);
        self.session = Some(session);
    }

    /// Takes the session out (opening a new one if there is none); the caller puts it back.
    fn take_session(&mut self) -> Session {
        self.session.take().unwrap_or_else(|| {
            self.next_session_id += 1;
            Session::new(self.next_session_id - 1)
        })
    }

    // ---- no match: the closest regions -----------------------------------------------------

    fn no_match(&mut self, search: Search, needle: &str) -> Step {
        let p = self.config.tool_prefix.clone();
        let path = search.path.clone();
        let draft = self.draft_rope(&path);
        let from = search.anchor_end.unwrap_or(0);

        // A letter for the live selection of the same query: a stale one is refused, a near
        // miss is staged.
        if let Some(letter) = search.match_id {
            let sel = self.session.as_ref().and_then(|s| s.selection.as_ref()).filter(|sel| sel.path == path && sel.query == search.query);
            let candidate = sel.and_then(|sel| sel.candidates.iter().find(|c| c.id == letter)).cloned();
            if candidate.as_ref().is_some_and(|c| c.stale) {
                return self.stale_candidate(letter, &path);
            }
            if let Some(c) = candidate.filter(|_| sel.is_some_and(|s| s.kind == SelectionKind::NearMisses)) {
                let info = StageInfo {
                    tool: search.tool,
                    quality: Some(c.quality),
                    preview_only: search.preview_only,
                    chosen: Some(letter),
                    notes: search.notes,
                    warn: true,
                };
                return self.stage_near_miss(&path, letter, c.range, needle, &search.new_text, info);
            }
        }

        let near = near::near_misses(&draft, needle, from, NEAR_MISSES_SHOWN);
        let threshold = self.config.near_match_threshold;
        let lettered: Vec<&near::NearMiss> = near.iter().filter(|n| n.similarity >= threshold).collect();
        let mut summary = format!(
            "{} was not found in {path}: no exact match, and none with whitespace, indentation or look-alike characters ignored. Nothing was changed.",
            search.describe
        );
        // Where the text occurs before the anchor, the anchor is what to fix.
        let mut before_anchor = None;
        if let Some(end) = search.anchor_end {
            summary.push_str(" (Only the text after search_after was searched.)");
            if !needle.is_empty() {
                let head = draft.slice(..end.min(draft.len_chars())).to_string();
                before_anchor = head.find(needle).map(|byte| text::line_of(&draft, draft.byte_to_char(byte)));
            }
        }
        // The span tool's notes warn about markers a staged edit drops: nothing is staged here.
        if search.tool != Tool::ReplaceSpan {
            for n in &search.notes {
                summary.push(' ');
                summary.push_str(n);
            }
        }
        let mut preview = String::new();
        for (i, n) in near.iter().enumerate() {
            let region = draft.slice(n.range.clone()).to_string();
            let line = text::line_of(&draft, n.range.start);
            let label = if n.similarity >= threshold {
                Letter::from_index(lettered.iter().position(|l| l.range == n.range).unwrap_or(0)).map_or(String::new(), |l| format!("[{l}] "))
            } else {
                String::new()
            };
            if i > 0 {
                preview.push('\n');
            }
            preview.push_str(&format!("{label}line {line}, similarity {} — [-only in yours-] {{+only in the document+}}:\n", similarity_shown(n)));
            preview.push_str(&near::describe_difference(needle, &region));
            preview.push('\n');
        }
        // A preview sets no choice, and OutOfSync hides it.
        let can_choose = !search.preview_only && self.persist_failures.is_empty() && self.conflicts.is_empty();
        let guidance = if let Some(best) = lettered.first().filter(|_| can_choose) {
            let line = text::line_of(&draft, best.range.start);
            summary.push_str(&format!(
                " The closest region (line {line}, similarity {}) is offered as candidate A{}.",
                similarity_shown(best),
                if lettered.len() > 1 { format!("; {} candidates in all", lettered.len()) } else { String::new() }
            ));
            format!(
                "If candidate A is the place you meant, call {p}_replace_selection(selection_id=\"A\") to apply your change there (only what differs between your old_text and new_text, onto its text); otherwise copy the text exactly from {p}_read (without the line-number gutters)."
            )
        } else if near.is_empty() {
            format!("Call {p}_read to see the current text and copy it exactly (without the line-number gutters).")
        } else {
            format!("The closest regions are shown with what differs; copy the text exactly from {p}_read (without the line-number gutters).")
        };
        let guidance = match before_anchor {
            Some(line) => format!(
                "{} occurs before the search_after text (line {line}), not after it: drop search_after or pass one that comes earlier. {guidance}",
                search.describe
            ),
            None => guidance,
        };
        if !lettered.is_empty() && !search.preview_only {
            let candidates = lettered
                .iter()
                .enumerate()
                .filter_map(|(i, n)| {
                    Letter::from_index(i).map(|id| SelectionCandidate {
                        id,
                        range: n.range.clone(),
                        quality: n.quality(),
                        reindent: None,
                        occurrence: i,
                        stale: false,
                    })
                })
                .collect();
            self.set_selection(Selection {
                path: path.clone(),
                query: search.query.clone(),
                new_text: search.new_text.clone(),
                needle: needle.to_string(),
                kind: SelectionKind::NearMisses,
                candidates,
                awaiting_choice: true,
            });
        }
        let mut r = Response::new(Status::NoMatch, summary).with_guidance(guidance);
        r.candidates = lettered
            .iter()
            .enumerate()
            .filter_map(|(i, n)| Letter::from_index(i).map(|id| candidate_view(&draft, id, &n.range, n.quality(), false, i)))
            .collect();
        if !r.candidates.is_empty() {
            r.metrics.selection_count = Some(r.candidates.len());
        }
        if !preview.is_empty() {
            r.preview = Some(preview);
        }
        // Small documents are shown whole (a failed match shows what is there).
        if draft.len_chars() < self.config.max_preview_length.saturating_mul(4) {
            let last = text::visible_line_count(&draft);
            r.content = Some(super::read::numbered_lines(&draft, 1, last, last, true));
        }
        r.metrics.new_length = Some(draft.len_chars());
        r.fingerprint = Some(self.draft_fingerprint(&path).to_string());
        Step::Done(self.finish(r, Some(&path)))
    }
}

/// The similarity as the candidate's `match_quality` shows it (`0.97` of `similar:0.97`), so a
/// response never states two numbers for one region.
fn similarity_shown(n: &near::NearMiss) -> String {
    near::two_decimals(n.similarity)
}
