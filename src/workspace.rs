//! Workspace: documents by path, the edit session, and the dispatch of tool calls (DESIGN §1–§3).
//!
//! A pure state machine: no I/O, no clock. A call either finishes ([`Step::Done`]) or asks the
//! shell to persist texts ([`Step::Persist`]); the shell performs the writes with its storage and
//! reports back through [`Workspace::complete_persist`], which returns the final response.

use std::collections::BTreeMap;
use std::fmt;

use ropey::Rope;
use serde_json::Value;

use crate::format::{signed, Locale};
use crate::matching::{self, Match, SearchError};
use crate::preview::{self, ChangeSpan, DEFAULT_CONTEXT_LINES};
use crate::response::{Candidate, PendingChangeView, Response, Status};
use crate::session::{Letter, Selection, SelectionCandidate, Session, SessionError};
use crate::text::{self, fingerprint_of, normalize_line_breaks, Text};
use crate::tools::{self, ArgError, Args, Tool, ToolDefinition};
use crate::workflow::{Flags, PersistMode, WorkflowState};

/// Candidates listed by default (`000` §3.1: A–E); `show_all_matches` lists up to Z.
pub const DEFAULT_CANDIDATES_SHOWN: usize = 5;

/// Workspace options (the JS `Workspace.create` options, snake_case).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The document tools work on when no `path` is given; default: the first one opened.
    pub default_path: Option<String>,
    pub locale: Locale,
    /// Tool names are `{tool_prefix}_{verb}`; `memory_notebook` gives `000`'s names.
    pub tool_prefix: String,
    pub persist_mode: PersistMode,
}

impl Default for Config {
    fn default() -> Config {
        Config { default_path: None, locale: Locale::En, tool_prefix: "memo".into(), persist_mode: PersistMode::Manual }
    }
}

/// A bad option or a refused `open`. Messages carry the value and what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkspaceError {
    BadOption { option: String, value: String, allowed: &'static str },
    EmptyPath,
    NotOpen { path: String, open: Vec<String> },
    /// Re-opening a document the session has pending changes for would lose them.
    PendingChanges { path: String },
}

impl fmt::Display for WorkspaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkspaceError::BadOption { option, value, allowed } => {
                write!(f, "option `{option}` must be {allowed}, got {value}")
            }
            WorkspaceError::EmptyPath => write!(f, "a document path must not be empty"),
            WorkspaceError::NotOpen { path, open } => {
                write!(f, "document `{path}` is not open; open documents: {}", list_or_none(open))
            }
            WorkspaceError::PendingChanges { path } => write!(
                f,
                "document `{path}` has pending changes; commit or revert them before opening it again"
            ),
        }
    }
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "(none)".into()
    } else {
        items.join(", ")
    }
}

impl Config {
    /// Reads options from a JSON object with snake_case keys; unknown keys are refused so that a
    /// typo does not silently fall back to a default.
    pub fn from_json(v: &Value) -> Result<Config, WorkspaceError> {
        let mut c = Config::default();
        let Some(map) = v.as_object() else {
            if v.is_null() {
                return Ok(c);
            }
            return Err(bad("options", v, "an object"));
        };
        for (key, value) in map {
            if value.is_null() {
                continue;
            }
            match key.as_str() {
                "default_path" => {
                    let s = value.as_str().filter(|s| !s.is_empty()).ok_or_else(|| bad(key, value, "a non-empty string"))?;
                    c.default_path = Some(s.to_string());
                }
                "locale" => {
                    c.locale = value.as_str().and_then(Locale::parse).ok_or_else(|| bad(key, value, "\"en\" or \"zh\""))?;
                }
                "tool_prefix" => {
                    let s = value
                        .as_str()
                        .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
                        .ok_or_else(|| bad(key, value, "a non-empty string of ASCII letters, digits and _"))?;
                    c.tool_prefix = s.to_string();
                }
                "persist_mode" => {
                    c.persist_mode = value
                        .as_str()
                        .and_then(PersistMode::parse)
                        .ok_or_else(|| bad(key, value, "\"manual\", \"immediate\" or \"disabled\""))?;
                }
                _ => return Err(bad(key, value, "one of the known options: default_path, locale, tool_prefix, persist_mode")),
            }
        }
        Ok(c)
    }
}

fn bad(option: &str, value: &Value, allowed: &'static str) -> WorkspaceError {
    WorkspaceError::BadOption { option: option.to_string(), value: value.to_string(), allowed }
}

/// A committed document: its text and the storage's version string for it.
#[derive(Clone, Debug)]
pub struct Document {
    pub text: Text,
    pub version: String,
}

/// What the shell must write: `text` in storage form (line endings and BOM restored), refused by
/// the storage if its version is no longer `expected_version`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PersistRequest {
    pub path: String,
    pub text: String,
    pub expected_version: String,
}

/// What the storage did with one [`PersistRequest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PersistResult {
    Saved { path: String, version: String },
    Failed { path: String, error: String },
}

impl PersistResult {
    /// Reads the host's report: `[{path, ok: true, version} | {path, ok: false, error}]`.
    pub fn list_from_json(v: &Value) -> Result<Vec<PersistResult>, String> {
        let items = v.as_array().ok_or("persist results must be an array")?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let field = |name: &str| item.get(name).and_then(Value::as_str).map(str::to_string);
                let path = field("path").ok_or(format!("persist result {i} has no string `path`"))?;
                match item.get("ok").and_then(Value::as_bool) {
                    Some(true) => Ok(PersistResult::Saved {
                        path,
                        version: field("version").ok_or(format!("persist result {i} is ok but has no string `version`"))?,
                    }),
                    Some(false) => Ok(PersistResult::Failed { path, error: field("error").unwrap_or_else(|| "unknown error".into()) }),
                    None => Err(format!("persist result {i} has no boolean `ok`")),
                }
            })
            .collect()
    }
}

/// The result of [`Workspace::call`].
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Done(Response),
    /// Perform these writes, then call [`Workspace::complete_persist`].
    Persist(Vec<PersistRequest>),
}

/// Per-call context from the shell. Time is passed in, never read.
#[derive(Clone, Debug, Default)]
pub struct CallContext {
    pub tool_call_id: Option<String>,
    pub now_ms: f64,
}

/// A commit whose writes the shell is performing.
#[derive(Clone, Debug)]
struct AwaitingPersist {
    summary: String,
    texts: Vec<(String, Text)>,
    changes: usize,
    delta: isize,
    /// The path the committing call reported on.
    path: String,
}

#[derive(Debug)]
pub struct Workspace {
    config: Config,
    docs: BTreeMap<String, Document>,
    /// Open paths, default first.
    order: Vec<String>,
    session: Option<Session>,
    next_session_id: u64,
    awaiting: Option<AwaitingPersist>,
    /// The last commit could not be saved: the workflow is `OutOfSync` until a retry or revert.
    persist_failed: bool,
}

impl Workspace {
    pub fn new(config: Config) -> Workspace {
        Workspace {
            config,
            docs: BTreeMap::new(),
            order: Vec::new(),
            session: None,
            next_session_id: 1,
            awaiting: None,
            persist_failed: false,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Opens (or re-opens) `path` with `raw` as storage holds it. Cost: O(n).
    pub fn open(&mut self, path: &str, raw: &str, version: &str) -> Result<(), WorkspaceError> {
        if path.is_empty() {
            return Err(WorkspaceError::EmptyPath);
        }
        if self.session.as_ref().is_some_and(|s| s.changes.iter().any(|c| c.path == path)) {
            return Err(WorkspaceError::PendingChanges { path: path.to_string() });
        }
        self.docs.insert(path.to_string(), Document { text: Text::from_storage(raw), version: version.to_string() });
        if !self.order.iter().any(|p| p == path) {
            if self.config.default_path.as_deref() == Some(path) {
                self.order.insert(0, path.to_string());
            } else {
                self.order.push(path.to_string());
            }
        }
        Ok(())
    }

    /// Open paths, the default document first.
    pub fn paths(&self) -> &[String] {
        &self.order
    }

    pub fn document(&self, path: &str) -> Option<&Document> {
        self.docs.get(path)
    }

    fn resolve(&self, path: Option<&str>) -> Result<String, WorkspaceError> {
        let path = match path {
            Some(p) => p.to_string(),
            None => match self.config.default_path.clone().or_else(|| self.order.first().cloned()) {
                Some(p) => p,
                None => return Err(WorkspaceError::NotOpen { path: "(default)".into(), open: Vec::new() }),
            },
        };
        if self.docs.contains_key(&path) {
            Ok(path)
        } else {
            Err(WorkspaceError::NotOpen { path, open: self.order.clone() })
        }
    }

    /// Committed text of `path` (default document when `None`), LF-normalised.
    pub fn text(&self, path: Option<&str>) -> Result<String, WorkspaceError> {
        let path = self.resolve(path)?;
        Ok(self.docs[&path].text.rope().to_string())
    }

    /// Draft (committed + pending) of `path`, LF-normalised.
    pub fn draft(&self, path: Option<&str>) -> Result<String, WorkspaceError> {
        let path = self.resolve(path)?;
        Ok(self.draft_rope(&path).to_string())
    }

    fn draft_rope(&self, path: &str) -> Rope {
        match self.session.as_ref().and_then(|s| s.draft(path)) {
            Some(d) => d.clone(),
            None => self.docs.get(path).map(|d| d.text.rope().clone()).unwrap_or_default(),
        }
    }

    /// The workflow state, derived from the data (never stored beside it).
    pub fn state(&self) -> WorkflowState {
        if self.awaiting.is_some() {
            WorkflowState::PersistPending
        } else if self.persist_failed {
            WorkflowState::OutOfSync
        } else if self.session.as_ref().and_then(|s| s.selection.as_ref()).is_some_and(|s| s.awaiting_choice) {
            WorkflowState::SelectionPending
        } else if self.session.as_ref().is_some_and(|s| !s.is_empty()) {
            WorkflowState::PersistPending
        } else {
            WorkflowState::Idle
        }
    }

    pub fn flags(&self) -> Flags {
        Flags::derive(self.state(), self.config.persist_mode)
    }

    /// Whether `tool` may be called now (`003` §7.2 for this slice's tools). Hidden tools return
    /// `Blocked` saying what to call instead.
    pub fn is_visible(&self, tool: Tool) -> bool {
        use WorkflowState::*;
        let state = self.state();
        match tool {
            Tool::Read | Tool::Preview | Tool::Revert | Tool::Replace => state != Refreshing,
            Tool::Commit => match state {
                Idle | PersistPending => self.config.persist_mode != PersistMode::Immediate,
                // A failed save is retried by committing again.
                OutOfSync => self.persist_failed,
                SelectionPending | Refreshing => false,
            },
        }
    }

    pub fn visible_tools(&self) -> Vec<Tool> {
        Tool::ALL.into_iter().filter(|t| self.is_visible(*t)).collect()
    }

    /// Definitions of the visible tools, for LLM SDKs.
    pub fn tool_definitions(&self) -> Vec<ToolDefinition> {
        self.visible_tools().into_iter().map(|t| t.definition(&self.config.tool_prefix)).collect()
    }

    fn tool_name(&self, tool: Tool) -> String {
        tool.name(&self.config.tool_prefix)
    }

    /// Runs one tool call. Never panics on any input: bad input is a response with a clear status.
    pub fn call(&mut self, name: &str, args: &Value, ctx: &CallContext) -> Step {
        let _ = ctx; // tool_call_id and time are recorded by the history issue; accepted now.
        if self.awaiting.is_some() {
            let r = Response::new(Status::Blocked, "A commit is waiting for the storage to finish.")
                .with_guidance("The host must report the write with completePersist before the next call.");
            return Step::Done(self.finish(r, None));
        }
        let (tool, args) = match tools::parse_call(&self.config.tool_prefix, name, args) {
            Ok(parsed) => parsed,
            Err(e) => return Step::Done(self.invalid(&e.to_string(), guidance_for(&e, &self.config.tool_prefix))),
        };
        if !self.is_visible(tool) {
            return Step::Done(self.blocked(tool));
        }
        let path = match self.resolve(args.str("path")) {
            Ok(p) => p,
            Err(e) => return Step::Done(self.invalid(&e.to_string(), "Pass `path` as one of the open documents, or leave it out for the default.".into())),
        };
        match tool {
            Tool::Read => Step::Done(self.read(&path, &args)),
            Tool::Replace => self.replace(&path, &args),
            Tool::Preview => Step::Done(self.preview(&path)),
            Tool::Commit => self.commit(args.str("summary").unwrap_or_default(), &path),
            Tool::Revert => Step::Done(self.revert(args.str("reason").unwrap_or_default(), &path)),
        }
    }

    fn invalid(&self, summary: &str, guidance: String) -> Response {
        let r = Response::new(Status::InvalidArguments, format!("Invalid call: {summary}. Nothing was changed."))
            .with_guidance(guidance);
        self.finish(r, None)
    }

    /// An `InvalidArguments` response for an argument the shell could not convert (e.g. an
    /// unpaired surrogate found at the JS boundary).
    pub fn invalid_arguments(&self, error: &ArgError) -> Response {
        self.invalid(&error.to_string(), guidance_for(error, &self.config.tool_prefix))
    }

    fn blocked(&self, tool: Tool) -> Response {
        let state = self.state();
        let p = &self.config.tool_prefix;
        let instead = match state {
            WorkflowState::SelectionPending => {
                format!("Choose a candidate with {p}_replace(old_text, new_text, match_id), or drop the session with {p}_revert(reason).")
            }
            WorkflowState::Idle | WorkflowState::PersistPending if self.config.persist_mode == PersistMode::Immediate => {
                "Edits are saved as they are made in immediate mode; there is nothing to commit.".to_string()
            }
            WorkflowState::OutOfSync => format!("Call {p}_revert(reason) to drop the pending changes."),
            _ => format!("Call {p}_read to see the current state."),
        };
        let r = Response::new(Status::Blocked, format!("{} is not available in state {state}. Nothing was changed.", self.tool_name(tool)))
            .with_guidance(instead);
        self.finish(r, None)
    }

    // ---- memo_read -------------------------------------------------------------------------

    fn read(&self, path: &str, args: &Args) -> Response {
        let committed = args.str("view") == Some("committed");
        let rope = if committed { self.docs[path].text.rope().clone() } else { self.draft_rope(path) };
        let last = text::visible_line_count(&rope);
        let start = args.int("start_line").unwrap_or(1) as usize;
        let end = (args.int("end_line").map(|n| n as usize).unwrap_or(last)).min(last);
        if start > last {
            return self.invalid(
                &format!("argument `start_line` is {start} but {path} has {last} lines"),
                format!("Pass a start_line from 1 to {last}."),
            );
        }
        if end < start {
            return self.invalid(
                &format!("argument `end_line` ({end}) is before `start_line` ({start})"),
                "Pass end_line ≥ start_line, or leave it out to read to the end.".into(),
            );
        }
        let numbered = args.bool("line_numbers").unwrap_or(true);
        let width = preview::gutter_width(last);
        let mut content = String::new();
        for l in (start - 1)..end {
            let line = text::line_text(&rope, l);
            if numbered {
                preview::gutter_line(&mut content, width, l + 1, ' ', &line);
            } else {
                content.push_str(&line);
                content.push('\n');
            }
        }
        let pending = self.session.as_ref().map_or(0, |s| s.changes.iter().filter(|c| c.path == path).count());
        let which = if committed {
            "committed text".to_string()
        } else if pending > 0 {
            format!("draft with {pending} pending change{}", plural(pending))
        } else {
            "no pending changes".to_string()
        };
        let mut r = Response::new(Status::Success, format!("Read lines {start}–{end} of {path} ({last} lines, {which})."));
        if numbered {
            r.guidance = Some("The `  12│ ` gutters are not part of the text: leave them out of old_text.".into());
        }
        r.content = Some(content);
        r.fingerprint = Some(fingerprint_of(&rope).to_string());
        r.metrics.new_length = rope.len_chars();
        self.finish(r, Some(path))
    }

    // ---- memo_replace ----------------------------------------------------------------------

    fn replace(&mut self, path: &str, args: &Args) -> Step {
        let old = normalize_line_breaks(args.str("old_text").unwrap_or_default()).into_owned();
        let new = normalize_line_breaks(args.str("new_text").unwrap_or_default()).into_owned();
        let search_after = args.str("search_after").map(|s| normalize_line_breaks(s).into_owned());
        let match_id = args.str("match_id").and_then(Letter::parse);
        let preview_only = args.bool("preview_only").unwrap_or(false);
        let draft = self.draft_rope(path);
        let fp = fingerprint_of(&draft).to_string();
        if let Some(expected) = args.str("expected_fingerprint") {
            if expected != fp {
                let r = Response::new(
                    Status::StaleReference,
                    format!("The draft of {path} changed since your read (expected fingerprint {expected}, now {fp}). Nothing was changed."),
                )
                .with_guidance(format!("Call {}_read and retry with the new fingerprint.", self.config.tool_prefix));
                return Step::Done(self.finish(r, Some(path)));
            }
        }

        // Empty old_text appends (`001`).
        if old.is_empty() {
            let end = draft.len_chars();
            return self.stage(path, end..end, &new, preview_only, None);
        }

        let found = match matching::find_exact(&draft, &old, search_after.as_deref()) {
            Ok(found) => found,
            Err(SearchError::AnchorNotFound { anchor }) => {
                let r = Response::new(
                    Status::NoMatch,
                    format!("search_after text {} does not occur in {path}. Nothing was changed.", crate::format::code(&clip(&anchor))),
                )
                .with_guidance(format!("Copy search_after exactly from {}_read output, or leave it out.", self.config.tool_prefix));
                return Step::Done(self.finish(r, Some(path)));
            }
        };
        if found.is_empty() {
            let r = Response::new(
                Status::NoMatch,
                format!("old_text {} was not found in {path} (exact match). Nothing was changed.", crate::format::code(&clip(&old))),
            )
            .with_guidance(format!(
                "Call {}_read to see the current text and copy old_text exactly, without the line-number gutters.",
                self.config.tool_prefix
            ));
            return Step::Done(self.finish(r, Some(path)));
        }

        // Keep the selection's letters when it is about the same needle and still describes the
        // same places (DESIGN §2: letters survive staging).
        let same_selection = self.session.as_ref().and_then(|s| s.selection.as_ref()).is_some_and(|sel| {
            sel.path == path
                && sel.needle == old
                && sel.search_after == search_after
                && sel.candidates.iter().filter(|c| !c.stale).map(|c| c.range.clone()).eq(found.iter().map(|m| m.range.clone()))
        });

        if let Some(letter) = match_id {
            let chosen = if same_selection {
                let sel = self.session.as_ref().and_then(|s| s.selection.as_ref());
                match sel.and_then(|sel| sel.candidates.iter().find(|c| c.id == letter)) {
                    Some(c) if c.stale => {
                        let r = Response::new(
                            Status::StaleReference,
                            format!("Candidate {letter} no longer holds old_text: an edit staged since changed it. Nothing was changed."),
                        )
                        .with_guidance(format!("Choose another candidate, or call {}_preview to see what is staged.", self.config.tool_prefix));
                        return Step::Done(self.finish(r, Some(path)));
                    }
                    Some(c) => Some(c.range.clone()),
                    None => None,
                }
            } else {
                found.get(letter.index()).map(|m| m.range.clone())
            };
            let Some(range) = chosen else {
                let count = if same_selection {
                    self.session.as_ref().and_then(|s| s.selection.as_ref()).map_or(0, |s| s.candidates.len())
                } else {
                    found.len()
                };
                let last = Letter::from_index(count.saturating_sub(1).min(25)).map_or("A".into(), |l| l.to_string());
                let r = Response::new(
                    Status::InvalidArguments,
                    format!("Invalid call: argument `match_id` is {letter} but old_text has {count} match{} (A–{last}). Nothing was changed.", plural_es(count)),
                )
                .with_guidance(format!("Pass a match_id from A to {last}."));
                return Step::Done(self.finish(r, Some(path)));
            };
            if !same_selection {
                // A direct pick without a prior listing: the selection is this search.
                self.select(path, &old, &new, search_after.clone(), &found, false);
            }
            return self.stage(path, range, &new, preview_only, Some(letter));
        }

        if found.len() == 1 {
            return self.stage(path, found[0].range.clone(), &new, preview_only, None);
        }

        // Several matches: lettered candidates, nothing staged.
        if !same_selection && !preview_only {
            self.select(path, &old, &new, search_after.clone(), &found, true);
        } else if let Some(sel) = self.session.as_mut().and_then(|s| s.selection.as_mut()) {
            sel.awaiting_choice = !preview_only || sel.awaiting_choice;
        }
        let shown = if args.bool("show_all_matches").unwrap_or(false) { 26 } else { DEFAULT_CANDIDATES_SHOWN };
        let listing: Vec<(Letter, Match, bool)> = match self.session.as_ref().and_then(|s| s.selection.as_ref()) {
            Some(sel) if same_selection || !preview_only => sel
                .candidates
                .iter()
                .map(|c| (c.id, Match { range: c.range.clone(), quality: matching::MatchQuality::Exact }, c.stale))
                .collect(),
            _ => found.iter().enumerate().filter_map(|(i, m)| Letter::from_index(i).map(|l| (l, m.clone(), false))).collect(),
        };
        let candidates: Vec<Candidate> =
            listing.iter().take(shown).map(|(id, m, stale)| candidate_view(&draft, *id, m, *stale, occurrence_of(&found, m))).collect();
        let total = found.len();
        let hidden = total.saturating_sub(candidates.iter().filter(|c| !c.stale).count());
        let last = candidates.last().map_or("A".to_string(), |c| c.id.clone());
        let mut summary = format!("old_text matches {total} places in {path}; nothing was staged.");
        if hidden > 0 {
            summary.push_str(&format!(
                " {hidden} more not shown{}.",
                if total > 26 { " (only A–Z can be listed)" } else { "; pass show_all_matches=true to list them" }
            ));
        }
        let mut r = Response::new(Status::MultiMatch, summary).with_guidance(format!(
            "Call {p}_replace again with the same old_text and match_id \"A\"–\"{last}\" to stage one, or make old_text longer so it matches once.",
            p = self.config.tool_prefix
        ));
        r.candidates = candidates;
        r.metrics.selection_count = Some(total);
        r.metrics.new_length = draft.len_chars();
        r.match_quality = Some(matching::MatchQuality::Exact.as_str().into());
        r.fingerprint = Some(fp);
        Step::Done(self.finish(r, Some(path)))
    }

    /// Caches `found` as the live selection (letters in document order).
    fn select(&mut self, path: &str, needle: &str, new: &str, search_after: Option<String>, found: &[Match], awaiting: bool) {
        let session = self.session_mut();
        session.selection = Some(Selection {
            path: path.to_string(),
            needle: needle.to_string(),
            new_text: new.to_string(),
            search_after,
            candidates: found
                .iter()
                .enumerate()
                .filter_map(|(i, m)| {
                    Letter::from_index(i).map(|id| SelectionCandidate { id, range: m.range.clone(), occurrence: i, stale: false })
                })
                .collect(),
            awaiting_choice: awaiting,
        });
    }

    fn session_mut(&mut self) -> &mut Session {
        let session = self.take_session();
        self.session.insert(session)
    }

    /// Takes the session out (opening a new one if there is none); the caller puts it back.
    fn take_session(&mut self) -> Session {
        self.session.take().unwrap_or_else(|| {
            self.next_session_id += 1;
            Session::new(self.next_session_id - 1)
        })
    }

    /// Stages (or, with `preview_only`, shows) "replace draft `range` of `path` with `new`".
    fn stage(&mut self, path: &str, range: std::ops::Range<usize>, new: &str, preview_only: bool, chosen: Option<Letter>) -> Step {
        let draft = self.draft_rope(path);
        let old: String = draft.slice(range.clone()).to_string();
        if old == new {
            let r = Response::new(Status::NoOp, "old_text and new_text are the same: there is nothing to change.")
                .with_guidance("Give new_text the text you want in its place.");
            return Step::Done(self.finish(r, Some(path)));
        }
        let committed = self.docs[path].text.clone();
        // Stage into an owned session: the real one (put back below) or, for preview_only, a
        // throwaway copy (ropes clone in O(1)).
        let mut session = if preview_only { self.session.clone().unwrap_or_else(|| Session::new(0)) } else { self.take_session() };
        session.touch(path, &committed);
        let staged = session.stage(path, range.clone(), new);
        if let (Some(sel), Ok(_)) = (&mut session.selection, &staged) {
            if chosen.is_some() {
                sel.awaiting_choice = false;
            } else if sel.path == path {
                // An edit that did not come from the selection ends it (different needle).
                session.selection = None;
            }
        }
        let preview_text = render_preview(&session, path);
        let new_draft = session.draft(path).cloned().unwrap_or_default();
        let trial = if preview_only {
            Some(session)
        } else {
            self.session = Some(session);
            None
        };
        let staged = match staged {
            Ok(s) => s,
            Err(SessionError::TooManyChanges { limit }) => {
                let r = Response::new(
                    Status::Blocked,
                    format!("This session already has {limit} pending changes (A–Z), the most one session can hold. Nothing was changed."),
                )
                .with_guidance(format!("Call {}_commit(summary) to save them, then continue in a new session.", self.config.tool_prefix));
                return Step::Done(self.finish(r, Some(path)));
            }
            Err(SessionError::NotTouched { path }) => {
                let r = Response::new(Status::Exception, format!("Internal error: document {path} was not prepared for editing."));
                return Step::Done(self.finish(r, Some(&path)));
            }
        };
        let line = text::line_of(&new_draft, range.start);
        let what = match (&staged.change, staged.amended) {
            (Some(id), false) => format!("change {id}"),
            (Some(id), true) => format!("change {id} (amended: merged with an edit it touches)"),
            (None, _) => "no change (this edit restores the committed text there)".to_string(),
        };
        let (summary, guidance) = if preview_only {
            (
                format!("Preview only: this edit at {path} line {line} would become {what}; nothing was staged."),
                format!("Call {}_replace again without preview_only to stage it.", self.config.tool_prefix),
            )
        } else {
            (
                format!(
                    "Staged {what} in {path} at line {line}: {} chars replaced by {} ({}). Nothing is saved until commit.",
                    old.chars().count(),
                    new.chars().count(),
                    signed(staged.delta)
                ),
                format!(
                    "Check the preview, then call {p}_commit(summary) to save, or {p}_revert(reason) to drop all pending changes.",
                    p = self.config.tool_prefix
                ),
            )
        };
        let mut r = Response::new(Status::Success, summary).with_guidance(guidance);
        r.preview = Some(preview_text);
        r.match_quality = Some(matching::MatchQuality::Exact.as_str().into());
        r.metrics.delta = staged.delta;
        r.metrics.new_length = new_draft.len_chars();
        r.fingerprint = Some(fingerprint_of(&new_draft).to_string());
        if let Some(trial) = trial {
            // Report the trial's pending changes, not the real ones.
            let mut done = self.finish(r, Some(path));
            done.pending_changes = pending_views(&trial, &self.docs);
            done.render(self.config.locale);
            return Step::Done(done);
        }
        if self.config.persist_mode == PersistMode::Immediate {
            let summary = format!("Edit at {path} line {line}");
            return self.commit(&summary, path);
        }
        Step::Done(self.finish(r, Some(path)))
    }

    // ---- memo_preview ----------------------------------------------------------------------

    fn preview(&self, path: &str) -> Response {
        let Some(session) = self.session.as_ref().filter(|s| s.changes.iter().any(|c| c.path == path)) else {
            let r = Response::new(Status::NoOp, format!("No pending changes in {path}."))
                .with_guidance(format!("Stage an edit with {}_replace first.", self.config.tool_prefix));
            return self.finish(r, Some(path));
        };
        let count = session.changes.iter().filter(|c| c.path == path).count();
        let mut r = Response::new(Status::Success, format!("{count} pending change{} in {path}.", plural(count)))
            .with_guidance(format!(
                "Call {p}_commit(summary) to save, or {p}_revert(reason) to drop them.",
                p = self.config.tool_prefix
            ));
        r.preview = Some(render_preview(session, path));
        let draft = self.draft_rope(path);
        r.metrics.new_length = draft.len_chars();
        r.fingerprint = Some(fingerprint_of(&draft).to_string());
        self.finish(r, Some(path))
    }

    // ---- memo_commit / memo_revert ---------------------------------------------------------

    fn commit(&mut self, summary: &str, path: &str) -> Step {
        let Some(session) = self.session.as_ref().filter(|s| !s.is_empty()) else {
            let r = Response::new(Status::NoOp, "There are no pending changes to commit.")
                .with_guidance(format!("Stage an edit with {}_replace first.", self.config.tool_prefix));
            return Step::Done(self.finish(r, Some(path)));
        };
        let mut texts = Vec::new();
        for (p, doc) in &session.docs {
            if session.changes.iter().any(|c| &c.path == p) {
                texts.push((p.clone(), doc.base.with_rope(doc.draft.clone())));
            }
        }
        let awaiting = AwaitingPersist {
            summary: summary.to_string(),
            changes: session.changes.len(),
            delta: session.changes.iter().map(|c| c.delta()).sum(),
            texts,
            path: path.to_string(),
        };
        if self.config.persist_mode == PersistMode::Disabled {
            let results = awaiting
                .texts
                .iter()
                .map(|(p, _)| PersistResult::Saved { path: p.clone(), version: self.docs[p].version.clone() })
                .collect();
            self.awaiting = Some(awaiting);
            return Step::Done(self.complete_persist(results));
        }
        let requests = awaiting
            .texts
            .iter()
            .map(|(p, t)| PersistRequest { path: p.clone(), text: t.to_storage(), expected_version: self.docs[p].version.clone() })
            .collect();
        self.awaiting = Some(awaiting);
        Step::Persist(requests)
    }

    /// Finishes a commit with what the storage did (one result per request; a missing result
    /// counts as a failure). Saved documents become committed; if any write failed, its pending
    /// changes are kept whole and the workflow is `OutOfSync` until a retry or a revert.
    pub fn complete_persist(&mut self, results: Vec<PersistResult>) -> Response {
        let Some(done) = self.awaiting.take() else {
            let r = Response::new(Status::InvalidArguments, "Invalid call: no commit is waiting for the storage. Nothing was changed.")
                .with_guidance("Call completePersist only after a call returned persist requests.");
            return self.finish(r, None);
        };
        let mut failures = Vec::new();
        for (path, text) in &done.texts {
            match results.iter().find(|r| matches!(r, PersistResult::Saved { path: p, .. } | PersistResult::Failed { path: p, .. } if p == path)) {
                Some(PersistResult::Saved { version, .. }) => {
                    self.docs.insert(path.clone(), Document { text: text.clone(), version: version.clone() });
                    if let Some(s) = &mut self.session {
                        s.changes.retain(|c| &c.path != path);
                        s.docs.remove(path);
                    }
                }
                Some(PersistResult::Failed { error, .. }) => failures.push(format!("{path}: {error}")),
                None => failures.push(format!("{path}: the host reported no result")),
            }
        }
        let mode_note = if self.config.persist_mode == PersistMode::Disabled {
            " Persistence is disabled: the result stays in memory and is not written to storage."
        } else {
            ""
        };
        let path = done.path.clone();
        if failures.is_empty() {
            self.session = None;
            self.persist_failed = false;
            let mut r = Response::new(
                Status::Success,
                format!(
                    "Committed {} change{} ({} chars): {}.{mode_note}",
                    done.changes,
                    plural(done.changes),
                    signed(done.delta),
                    done.summary.trim_end_matches('.')
                ),
            );
            r.metrics.delta = done.delta;
            r.metrics.new_length = self.docs.get(&path).map_or(0, |d| d.text.rope().len_chars());
            r.fingerprint = self.docs.get(&path).map(|d| d.text.fingerprint().to_string());
            return self.finish(r, Some(&path));
        }
        self.persist_failed = true;
        let p = &self.config.tool_prefix;
        let r = Response::new(
            Status::PersistFailure,
            format!("Could not save {}. The pending changes are kept.", failures.join("; ")),
        )
        .with_guidance(format!("Call {p}_commit(summary) again to retry, or {p}_revert(reason) to drop the changes."));
        self.finish(r, Some(&path))
    }

    fn revert(&mut self, reason: &str, path: &str) -> Response {
        let Some(session) = self.session.take() else {
            let r = Response::new(Status::NoOp, "There is no edit session to revert.");
            return self.finish(r, Some(path));
        };
        self.persist_failed = false;
        let n = session.changes.len();
        let r = Response::new(
            Status::Success,
            format!("Reverted: dropped {n} pending change{} ({}).", plural(n), reason.trim_end_matches('.')),
        );
        self.finish(r, Some(path))
    }

    // ---- responses -------------------------------------------------------------------------

    /// Fills what every response carries — state, flags, pending changes, tools, next actions —
    /// and renders the Markdown views.
    fn finish(&self, mut r: Response, path: Option<&str>) -> Response {
        r.workflow_state = self.state();
        r.flags = self.flags();
        r.path = path.map(str::to_string);
        if let Some(s) = &self.session {
            r.session_id = Some(format!("s{}", s.id));
            r.pending_changes = pending_views(s, &self.docs);
        }
        if r.metrics.new_length == 0 {
            if let Some(p) = path {
                r.metrics.new_length = self.draft_rope(p).len_chars();
            }
        }
        r.visible_tools = self.visible_tools().into_iter().map(|t| self.tool_name(t)).collect();
        r.next_actions = self.next_actions();
        r.render(self.config.locale);
        r
    }

    fn next_actions(&self) -> Vec<String> {
        let p = &self.config.tool_prefix;
        match self.state() {
            WorkflowState::Idle => vec![format!("{p}_read()"), format!("{p}_replace(old_text, new_text)")],
            WorkflowState::SelectionPending => {
                vec![format!("{p}_replace(old_text, new_text, match_id)"), format!("{p}_revert(reason)")]
            }
            WorkflowState::PersistPending => {
                let mut v = vec![format!("{p}_commit(summary)"), format!("{p}_revert(reason)"), format!("{p}_preview()")];
                if self.config.persist_mode == PersistMode::Immediate {
                    v.remove(0);
                }
                v
            }
            WorkflowState::OutOfSync => vec![format!("{p}_commit(summary)"), format!("{p}_revert(reason)")],
            WorkflowState::Refreshing => Vec::new(),
        }
    }
}

fn render_preview(session: &Session, path: &str) -> String {
    let Some(doc) = session.docs.get(path) else { return String::new() };
    let spans: Vec<ChangeSpan> = session
        .changes_in_draft(path)
        .into_iter()
        .map(|(i, draft)| ChangeSpan { base: session.changes[i].base_range.clone(), draft })
        .collect();
    preview::compact(doc.base.rope(), &doc.draft, &spans, DEFAULT_CONTEXT_LINES)
}

fn pending_views(session: &Session, docs: &BTreeMap<String, Document>) -> Vec<PendingChangeView> {
    session
        .changes
        .iter()
        .map(|c| {
            let base = session.docs.get(&c.path).map(|d| d.base.rope().clone()).or_else(|| docs.get(&c.path).map(|d| d.text.rope().clone()));
            let base = base.unwrap_or_default();
            PendingChangeView {
                change_id: c.id.to_string(),
                path: c.path.clone(),
                position: text::char_to_utf16(&base, c.base_range.start),
                line: text::line_of(&base, c.base_range.start),
                old_text: c.old_text.clone(),
                new_text: c.new_text.clone(),
                delta: c.delta(),
                amended: c.amended,
            }
        })
        .collect()
}

fn candidate_view(draft: &Rope, id: Letter, m: &Match, stale: bool, occurrence: usize) -> Candidate {
    let line_idx = draft.char_to_line(m.range.start.min(draft.len_chars()));
    Candidate {
        id: id.to_string(),
        line: line_idx + 1,
        preview: clip(text::line_text(draft, line_idx).trim()),
        marker_start: format!("[[SEL#{id}]]"),
        marker_end: format!("[[/SEL#{id}]]"),
        occurrence,
        context_start: text::char_to_utf16(draft, m.range.start),
        context_end: text::char_to_utf16(draft, m.range.end),
        recommended: false,
        stale,
    }
}

fn occurrence_of(found: &[Match], m: &Match) -> usize {
    found.iter().position(|f| f.range == m.range).unwrap_or(0)
}

/// Bounded text for summaries: 80 chars, `…` marking a cut.
fn clip(s: &str) -> String {
    const MAX: usize = 80;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        s.chars().take(MAX).collect::<String>() + "…"
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn plural_es(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "es"
    }
}

/// What to do about an argument error, as a sentence for the model.
fn guidance_for(e: &ArgError, prefix: &str) -> String {
    match e {
        ArgError::UnknownTool { .. } => "Call one of the listed tools.".into(),
        ArgError::NotAnObject { .. } => "Pass the arguments as a JSON object, e.g. {\"old_text\": \"…\", \"new_text\": \"…\"}.".into(),
        ArgError::UnknownArgument { .. } => "Remove that argument or fix its spelling; argument names are snake_case.".into(),
        ArgError::Missing { arg, .. } => format!("Add `{arg}` and call again."),
        ArgError::WrongType { arg, expected, .. } => format!("Pass `{arg}` as {expected}."),
        ArgError::BelowMinimum { arg, min, .. } => format!("Pass `{arg}` ≥ {min}."),
        ArgError::NotAllowed { arg, .. } => format!("Pass one of the allowed values for `{arg}`."),
        ArgError::NotJson { arg, .. } => format!("Pass `{arg}` as plain JSON data."),
        ArgError::UnpairedSurrogate { arg, .. } => {
            format!("Remove the broken character from `{arg}` (copy the text again from {prefix}_read).")
        }
    }
}
