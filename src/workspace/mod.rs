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
use crate::response::{Response, Status};
use crate::session::Session;
use crate::text::Text;
use crate::tools::{self, ArgError, Tool, ToolDefinition};
use crate::workflow::{Flags, PersistMode, WorkflowState};

mod edit;
mod read;
mod views;

use views::{guidance_for, pending_views, plural, render_preview};

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
    /// Near misses at or above this similarity become lettered candidates (DESIGN §4.4).
    pub near_match_threshold: f64,
    /// Preview size unit (`000` §3.2, default 500): a failed match shows documents shorter than
    /// four times this whole.
    pub max_preview_length: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            default_path: None,
            locale: Locale::En,
            tool_prefix: "memo".into(),
            persist_mode: PersistMode::Manual,
            near_match_threshold: 0.8,
            max_preview_length: 500,
        }
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
                "near_match_threshold" => {
                    c.near_match_threshold = value
                        .as_f64()
                        .filter(|t| (0.0..=1.0).contains(t) && *t > 0.0)
                        .ok_or_else(|| bad(key, value, "a number above 0 and at most 1 (default 0.8)"))?;
                }
                "max_preview_length" => {
                    c.max_preview_length = value
                        .as_u64()
                        .filter(|n| (1..=1_000_000).contains(n))
                        .map(|n| n as usize)
                        .ok_or_else(|| bad(key, value, "a whole number from 1 to 1000000 (default 500)"))?;
                }
                _ => {
                    return Err(bad(
                        key,
                        value,
                        "one of the known options: default_path, locale, tool_prefix, persist_mode, near_match_threshold, max_preview_length",
                    ))
                }
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

    /// Fingerprint of the draft of `path` (committed text when nothing is pending). Cost: O(k)
    /// for k pending changes; see [`Session::draft_fingerprint`].
    fn draft_fingerprint(&self, path: &str) -> crate::text::Fingerprint {
        self.session
            .as_ref()
            .and_then(|s| s.draft_fingerprint(path))
            .or_else(|| self.docs.get(path).map(|d| d.text.fingerprint()))
            .unwrap_or(crate::text::Fingerprint(0))
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
            Tool::Read | Tool::Preview | Tool::Revert | Tool::Replace | Tool::ReplaceSpan | Tool::ReplaceLines => state != Refreshing,
            // `003` §7.2: choosing a candidate is only possible while a choice is pending.
            Tool::ReplaceSelection => state == SelectionPending,
            // `003` §7.2: no appending while a choice is pending or storage is out of sync.
            Tool::Append => matches!(state, Idle | PersistPending),
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
        if tool == Tool::ReplaceSelection {
            // The selection knows its document; `path` only has to agree with it.
            return self.replace_selection(args.str("path"), &args);
        }
        let path = match self.resolve(args.str("path")) {
            Ok(p) => p,
            Err(e) => return Step::Done(self.invalid(&e.to_string(), "Pass `path` as one of the open documents, or leave it out for the default.".into())),
        };
        match tool {
            Tool::Read => Step::Done(self.read(&path, &args)),
            Tool::Replace => self.replace(&path, &args),
            Tool::ReplaceSpan => self.replace_span(&path, &args),
            Tool::ReplaceSelection => self.replace_selection(Some(&path), &args),
            Tool::ReplaceLines => self.replace_lines(&path, &args),
            Tool::Append => self.append(&path, &args),
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
            WorkflowState::SelectionPending => format!(
                "Choose a candidate with {p}_replace_selection(selection_id) first, or drop the session with {p}_revert(reason)."
            ),
            _ if tool == Tool::ReplaceSelection => format!(
                "There is no choice pending: {p}_replace lists lettered candidates when old_text matches several places or nowhere exactly."
            ),
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
        r.fingerprint = Some(self.draft_fingerprint(path).to_string());
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
            WorkflowState::SelectionPending => vec![
                format!("{p}_replace_selection(selection_id)"),
                format!("{p}_replace(old_text, new_text, match_id)"),
                format!("{p}_revert(reason)"),
            ],
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

