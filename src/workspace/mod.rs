//! Workspace: documents by path, the edit session, and the dispatch of tool calls (docs/architecture.md).
//!
//! A pure state machine: no I/O, no clock. A call either finishes ([`Step::Done`]) or asks the
//! shell for storage work — writes ([`Step::Persist`], reported back through
//! [`Workspace::complete_persist`]) or reads ([`Step::Load`], reported through
//! [`Workspace::complete_load`]) — and each report returns the next step, until one is `Done`.
//! Changes storage made on its own reach the core through [`Workspace::storage_changed`].

use std::fmt;

use ropey::Rope;
use serde_json::Value;

use crate::diagnostics::{Category, Diagnostics};
use crate::preview::{PreviewMode, PreviewOptions};
use crate::response::{Response, Status, TaskView};
use crate::session::Session;
use crate::small_map::{SmallMap, SmallSet};
use crate::tasks::TaskStack;
use crate::text::Text;
use crate::tools::{ArgError, ToolDefinition};
use crate::workflow::{Flags, PersistMode, WorkflowState};

mod auto_rebase;
mod create;
mod edit;
mod find;
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub(crate) use find::read_vectors;
mod history_book;
mod live;
mod log;
mod options;
mod outcome;
mod persist;
mod versions;
pub use persist::PersistEdit;
mod guidance;
mod host;
mod read;
mod record;
pub use host::{ContentPart, LiveContextBlock, LiveContextRequest};
pub use record::{RecordRequest, RecordResult};
mod stored_read;
pub use stored_read::StoredAt;
// The JS sides of steps and reports, for the binding (wasm32) and src/typescript.rs (tests).
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub(crate) use host::{
    take_long_json_strings, take_long_strings, CompressedHistory, JsonStep, LoadReport, LongSlot, PersistReport, StepView, ValidationResult,
};
#[cfg(test)]
pub(crate) use host::{EditorStateInput, LiveContextRequestInput};
mod recall;
mod registry;
pub use registry::{parse_call, Tool, ToolHandler, ToolRow};
mod replace_all;
mod state;
mod stored;
mod sync;
mod views;
mod visibility;
mod words;

pub use options::{Config, OptionKind, OptionSpec, OptionValue, OPTIONS};
pub use read::ReadLimits;

/// A tool of the registry and whether the current state offers it ([`Workspace::tool_states`]).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ToolState {
    pub definition: ToolDefinition,
    pub available: bool,
    /// Why not, when not offered: the summary a call to it would get.
    pub reason: Option<String>,
    /// What to do instead (that call's guidance).
    pub guidance: Option<String>,
}

use history_book::HistoryBook;
use outcome::{SessionOutcome, StateNote};
use views::{pending_views, render_preview};

/// Candidates listed by default (A–E, docs/responses.md#candidates); `show_all_matches` lists up to Z.
pub const DEFAULT_CANDIDATES_SHOWN: usize = 5;

/// The largest document the workspace holds, in bytes of its storage form (UTF-8, with its line
/// breaks and BOM): 128 MiB. `open`, an external change, a reload and an edit that would make a
/// document larger are refused above it, saying the size and the limit.
///
/// Why 128 MiB: wasm32 memory ends at 4 GiB and a document lives there several times over — the
/// string crossing from JS, the rope, the flat copy exact search keeps, the draft, the storage
/// string a commit writes and the texts crossing back: measured through the npm package, 592 MiB
/// after opening, editing and committing 128 MiB of code-like lines (about 1 GiB for one very
/// long line), and linear memory never shrinks. That leaves room for other documents, and every
/// JS string the text becomes stays far below V8's ~512 M-character limit.
pub const MAX_DOCUMENT_BYTES: usize = 128 * 1024 * 1024;

/// The task stack and thought tree ([`Workspace::task_report`]).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TaskReport {
    pub task_stack: Vec<TaskView>,
    pub task_tree: Vec<crate::response::TaskNodeView>,
    pub task_tree_earlier: usize,
    pub markdown: String,
}

/// A bad option or a refused `open`. Messages carry the value and what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkspaceError {
    BadOption {
        option: String,
        value: String,
        allowed: String,
    },
    EmptyPath,
    NotOpen {
        path: String,
        open: Vec<String>,
    },
    /// Re-opening a document the session has pending changes for would lose them.
    PendingChanges {
        path: String,
    },
    /// A line or column (1-based) outside the document.
    BadPosition {
        what: String,
        value: usize,
        min: usize,
        max: usize,
    },
    /// A document larger than [`MAX_DOCUMENT_BYTES`] (`bytes` of its storage form).
    TooLarge {
        path: String,
        bytes: usize,
        limit: usize,
    },
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
            WorkspaceError::BadPosition { what, value, min, max } => {
                write!(f, "{what} must be from {min} to {max}, got {value}")
            }
            WorkspaceError::TooLarge { path, bytes, limit } => write!(
                f,
                "document `{path}` is {bytes} bytes, over the limit of {limit} bytes ({} MiB) per document; split it into smaller documents",
                limit / (1024 * 1024)
            ),
            WorkspaceError::PendingChanges { path } => write!(
                f,
                "document `{path}` has pending changes; commit or revert them before opening it again"
            ),
        }
    }
}

impl std::error::Error for WorkspaceError {}

/// `TooLarge` when a document of `bytes` (storage form) exceeds [`MAX_DOCUMENT_BYTES`].
pub(crate) fn check_size(path: &str, bytes: usize) -> Result<(), WorkspaceError> {
    if bytes > MAX_DOCUMENT_BYTES {
        return Err(WorkspaceError::TooLarge { path: path.to_string(), bytes, limit: MAX_DOCUMENT_BYTES });
    }
    Ok(())
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "(none)".into()
    } else {
        items.join(", ")
    }
}

/// A committed document: its text and the storage's version string for it.
#[derive(Clone, Debug)]
pub struct Document {
    pub text: Text,
    pub version: String,
}

/// What the shell must write: `text` in storage form (line endings and BOM restored), refused by
/// the storage if its version is no longer `expected_version`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PersistRequest {
    pub path: String,
    pub text: String,
    pub expected_version: String,
    /// The same write as replacements of the stored text (docs/co-editing.md §Commits as
    /// edits): a storage that merges live edits (Yjs) applies these, a file storage ignores them.
    pub edits: Vec<persist::PersistEdit>,
}

/// What the storage did with one [`PersistRequest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PersistResult {
    Saved { path: String, version: String },
    Failed { path: String, error: String },
}

/// What the storage read for one path of a [`Step::Load`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadResult {
    Loaded {
        path: String,
        text: String,
        version: String,
    },
    /// Storage holds no document at that path.
    Missing {
        path: String,
    },
    Failed {
        path: String,
        error: String,
    },
}

impl LoadResult {
    pub fn path(&self) -> &str {
        match self {
            LoadResult::Loaded { path, .. } | LoadResult::Missing { path } | LoadResult::Failed { path, .. } => path,
        }
    }
}

/// The result of [`Workspace::call`] and of each completion.
// Returned once per call and consumed at once, never stored in bulk: boxing the response would
// only add an allocation per call.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Done(Response),
    /// Perform these writes in order, stopping at the first failure, then call
    /// [`Workspace::complete_persist`] with one result per write attempted.
    Persist(Vec<PersistRequest>),
    /// Read these paths from storage, then call [`Workspace::complete_load`].
    Load(Vec<String>),
    /// Embed these texts with the host's model, then call [`Workspace::complete_embed`] with
    /// one vector each, in order (`memo_find`, docs/architecture.md#sans-io-steps).
    Embed(Vec<String>),
    /// The call's saves all succeeded and the storage keeps a history ([`Workspace::keep_records`]):
    /// record them, then call [`Workspace::complete_record`] with what that came to.
    Record(RecordRequest),
    /// `memo_read({ version })` of a version of the storage's own history (a git commit id):
    /// read `path` there, then call [`Workspace::complete_load_at`].
    LoadAt {
        path: String,
        version: String,
    },
}

/// Per-call context from the shell. Time is passed in, never read.
#[derive(Clone, Debug, Default)]
pub struct CallContext {
    pub tool_call_id: Option<String>,
    pub now_ms: f64,
}

/// Storage work the workspace waits for; while it waits every call is `Blocked`.
#[derive(Clone, Debug)]
enum Awaiting {
    /// A commit's writes.
    Commit(persist::CommitInFlight),
    /// Writing the old texts back after some writes of a multi-document commit failed.
    Rollback(persist::RollbackInFlight),
    /// `memo_persist_as`: the draft of `path` written to `new_path`.
    PersistAs { path: String, new_path: String, text: Text },
    /// Reads for `memo_refresh`, `memo_discard` or `memo_diff(against="storage")`.
    Load(sync::LoadPurpose),
    /// The host's embeddings for a `memo_find`.
    Embed(find::FindInFlight),
    /// The storage's record of the call's saves; the finished response (not yet rendered) and
    /// the paths saved.
    Record(Box<(Response, Vec<String>)>),
    /// A read of a version of the storage's own history (stored_read.rs).
    LoadAt(Box<stored_read::PendingStoredRead>),
}

/// An agent's editing workspace. Its state is grouped into parts (state.rs) so a reader sees
/// what a call may touch (docs/architecture.md#the-path-of-a-tool-call).
#[derive(Debug)]
pub struct Workspace {
    settings: state::Settings,
    documents: state::Documents,
    sync: state::StorageSync,
    turn: state::Turn,
    records: state::Records,
}

impl Workspace {
    /// An empty workspace: no document open, state `Idle`. Cost: O(1).
    ///
    /// ```
    /// use agentpad::{Config, Locale, PersistMode, Workspace, WorkflowState};
    ///
    /// let ws = Workspace::new(Config { locale: Locale::Zh, persist_mode: PersistMode::Immediate, ..Config::default() });
    /// assert_eq!(ws.state(), WorkflowState::Idle);
    /// assert!(ws.paths().is_empty());
    /// ```
    pub fn new(config: Config) -> Workspace {
        let tasks = TaskStack::new(config.max_task_depth);
        Workspace {
            settings: state::Settings { config, search_limit: crate::matching::work::SEARCH_BUDGET, embedder: false },
            documents: state::Documents {
                docs: SmallMap::new(),
                order: Vec::new(),
                created: Default::default(),
                unstored: Default::default(),
                newly_unstored: false,
                in_memory_commits: Default::default(),
                held_by_host: Vec::new(),
            },
            sync: state::StorageSync {
                persist_failures: SmallMap::new(),
                conflicts: SmallMap::new(),
                exact_external: SmallMap::new(),
                unreported_conflict: false,
                reloaded_since_response: SmallSet::new(),
            },
            turn: state::Turn {
                session: None,
                next_session_id: 1,
                awaiting: None,
                recommended: None,
                sent: Vec::new(),
                listed: Vec::new(),
                call_tool: None,
                notes: Vec::new(),
                said: views::Said::default(),
            },
            records: state::Records {
                tasks,
                log: log::SessionLog::default(),
                history: HistoryBook::default(),
                diagnostics: Diagnostics::default(),
                timeline: Default::default(),
                editor: Default::default(),
                memory: Default::default(),
                embed_cache: find::EmbedCache::default(),
                last_now_ms: 0.0,
                recording: record::Recording::default(),
            },
        }
    }

    pub fn config(&self) -> &Config {
        &self.settings.config
    }

    /// Opens (or re-opens) `path` with `raw` as storage holds it. Cost: O(n), one copy of `raw`
    /// more than [`Workspace::open_string`].
    pub fn open(&mut self, path: &str, raw: &str, version: &str) -> Result<(), WorkspaceError> {
        self.open_string(path, raw.to_owned(), version)
    }

    /// [`Workspace::open`] taking the string: it becomes the document's flat text without a
    /// copy (`Text::from_storage_string`). Cost: O(n).
    pub fn open_string(&mut self, path: &str, raw: String, version: &str) -> Result<(), WorkspaceError> {
        if path.is_empty() {
            return Err(WorkspaceError::EmptyPath);
        }
        if self.turn.session.as_ref().is_some_and(|s| s.changes.iter().any(|c| c.path == path)) {
            return Err(WorkspaceError::PendingChanges { path: path.to_string() });
        }
        check_size(path, raw.len())?;
        let text = Text::from_storage_string(raw);
        self.records.timeline.opened(path, text.rope());
        self.documents.docs.insert(path.to_string(), Document { text, version: version.to_string() });
        if !self.documents.order.iter().any(|p| p == path) {
            if self.settings.config.default_path.as_deref() == Some(path) {
                self.documents.order.insert(0, path.to_string());
            } else {
                self.documents.order.push(path.to_string());
            }
        }
        Ok(())
    }

    /// Open paths, the default document first.
    pub fn paths(&self) -> &[String] {
        &self.documents.order
    }

    pub fn document(&self, path: &str) -> Option<&Document> {
        self.documents.docs.get(path)
    }

    /// The open document at `path`, for paths the workspace itself resolved: `resolve`,
    /// sessions, selections and storage requests only name paths that are open. Reloads and
    /// renames insert; the one removal (a created document dropped before any commit, in
    /// create.rs) takes the path out of the session and the open order in the same step, so no
    /// later lookup names it and this cannot miss. Not for paths a caller passes in: those go
    /// through `resolve` or [`Workspace::document`].
    #[allow(clippy::expect_used)]
    fn open_doc(&self, path: &str) -> &Document {
        self.documents.docs.get(path).expect("open_doc: the workspace only resolves paths that are open")
    }

    /// The storage version the workspace holds for `path` (what a save expects to replace).
    pub fn version(&self, path: &str) -> Option<&str> {
        self.documents.docs.get(path).map(|d| d.version.as_str())
    }

    fn resolve(&self, path: Option<&str>) -> Result<String, WorkspaceError> {
        let path = match path {
            Some(p) => p.to_string(),
            None => match self.settings.config.default_path.clone().or_else(|| self.documents.order.first().cloned()) {
                Some(p) => p,
                None => return Err(WorkspaceError::NotOpen { path: "(default)".into(), open: Vec::new() }),
            },
        };
        if self.documents.docs.contains_key(&path) {
            Ok(path)
        } else {
            Err(WorkspaceError::NotOpen { path, open: self.documents.order.clone() })
        }
    }

    /// Committed text of `path` (default document when `None`), LF-normalised.
    pub fn text(&self, path: Option<&str>) -> Result<String, WorkspaceError> {
        let path = self.resolve(path)?;
        Ok(crate::text::rope_string(self.open_doc(&path).text.rope()))
    }

    /// Draft (committed + pending) of `path`, LF-normalised.
    pub fn draft(&self, path: Option<&str>) -> Result<String, WorkspaceError> {
        let path = self.resolve(path)?;
        Ok(crate::text::rope_string(&self.draft_rope(&path)))
    }

    fn draft_rope(&self, path: &str) -> Rope {
        match self.turn.session.as_ref().and_then(|s| s.draft(path)) {
            Some(d) => d.clone(),
            None => self.documents.docs.get(path).map(|d| d.text.rope().clone()).unwrap_or_default(),
        }
    }

    /// Fingerprint of the draft of `path` (committed text when nothing is pending). Cost: O(k)
    /// for k pending changes; see [`Session::draft_fingerprint`].
    fn draft_fingerprint(&self, path: &str) -> crate::text::Fingerprint {
        self.turn
            .session
            .as_ref()
            .and_then(|s| s.draft_fingerprint(path))
            .or_else(|| self.documents.docs.get(path).map(|d| d.text.fingerprint()))
            .unwrap_or(crate::text::Fingerprint(0))
    }

    /// Pending changes of `path` in the session.
    fn pending_in(&self, path: &str) -> usize {
        self.turn.session.as_ref().map_or(0, |s| s.changes.iter().filter(|c| c.path == path).count())
    }

    /// The workflow state, derived from the data (never stored beside it).
    pub fn state(&self) -> WorkflowState {
        match &self.turn.awaiting {
            Some(Awaiting::Load(_) | Awaiting::LoadAt(_)) => return WorkflowState::Refreshing,
            // Embedding changes nothing: the state is the one the data gives.
            Some(Awaiting::Embed(_)) => {}
            Some(_) => return WorkflowState::PersistPending,
            None => {}
        }
        if !self.sync.persist_failures.is_empty() || !self.sync.conflicts.is_empty() {
            WorkflowState::OutOfSync
        } else if self.turn.session.as_ref().and_then(|s| s.selection.as_ref()).is_some_and(|s| s.awaiting_choice) {
            WorkflowState::SelectionPending
        } else if self.turn.session.as_ref().is_some_and(|s| !s.is_empty()) {
            WorkflowState::PersistPending
        } else {
            WorkflowState::Idle
        }
    }

    /// The state's flags (docs/workflow.md#states-and-flags), plus `ExternalConflict` while storage
    /// changed underneath pending changes.
    pub fn flags(&self) -> Flags {
        let mut f = Flags::derive(self.state(), self.settings.config.persist_mode);
        if !self.sync.conflicts.is_empty() {
            f = f | Flags::EXTERNAL_CONFLICT;
        }
        if self.records.diagnostics.is_on() {
            f = f | Flags::DIAGNOSTIC_HINT;
        }
        if !self.documents.unstored.is_empty() {
            f = f | Flags::NOT_STORED;
        }
        f
    }

    /// Turns diagnostics on for `categories` (empty: off). Records collect until
    /// [`Workspace::take_diagnostics`]. Cost: O(1).
    pub fn set_diagnostics(&mut self, categories: impl IntoIterator<Item = Category>) {
        self.records.diagnostics = Diagnostics::new(categories.into_iter().collect());
    }

    /// The diagnostics records since the last call of this, oldest first.
    pub fn take_diagnostics(&mut self) -> Vec<crate::diagnostics::Record> {
        self.records.diagnostics.drain()
    }

    /// The host's message array with every ended session's calls and results replaced by one
    /// summary message each, in the OpenAI or Anthropic format; every other message
    /// is kept as it was and no call is left without its result. Cost: O(size of the messages).
    pub fn compress_history(
        &self,
        messages: &Value,
        format: crate::history::Format,
    ) -> Result<crate::history::Compressed, crate::history::HistoryError> {
        crate::history::compress(messages, format, &self.records.history.ended, self.settings.config.locale)
    }

    /// `op-<n>`: the diagnostics id of the call under way (n counts this workspace's calls).
    fn operation_id(&self) -> String {
        format!("op-{}", self.records.log.seq())
    }

    /// Runs one tool call. Never panics on any input: bad input is a response with a clear status.
    /// Cost: that of the tool, plus O(size of args) for the session log. Returns
    /// [`Step::Done`], or storage work for the host ([`Step::Persist`], [`Step::Load`]);
    /// [`Workspace::run`] does that work with a [`crate::Storage`].
    ///
    /// ```
    /// use agentpad::{CallContext, Config, Status, Step, Workspace};
    /// use serde_json::json;
    ///
    /// let mut ws = Workspace::new(Config::default());
    /// ws.open("a.md", "timeout: 30\ntimeout: 30\n", "v1")?;
    /// let ctx = CallContext::default();
    /// // Two places match: nothing is staged, the candidates are lettered.
    /// let Step::Done(r) = ws.call("memo_replace", &json!({"old_text": "30", "new_text": "60"}), &ctx) else { unreachable!() };
    /// assert_eq!(r.status, Status::MultiMatch);
    /// // A bad argument changes nothing and says why.
    /// let Step::Done(r) = ws.call("memo_replace", &json!({"old_text": 30}), &ctx) else { unreachable!() };
    /// assert_eq!(r.status, Status::InvalidArguments);
    /// # Ok::<(), agentpad::WorkspaceError>(())
    /// ```
    pub fn call(&mut self, name: &str, args: &Value, ctx: &CallContext) -> Step {
        self.records.log.begin(name, args, ctx);
        self.records.recording.begin();
        self.turn.call_tool = Tool::from_name(&self.settings.config.tool_prefix, name);
        self.records.last_now_ms = ctx.now_ms;
        self.records.diagnostics.begin();
        self.records.history.begin(self.turn.session.as_ref().map(|s| s.id), ctx.tool_call_id.clone(), name, args);
        let mut step = self.dispatch(name, args, ctx);
        self.after_step(&mut step);
        step
    }

    fn dispatch(&mut self, name: &str, args: &Value, ctx: &CallContext) -> Step {
        if self.turn.awaiting.is_some() {
            return Step::Done(self.session_worded(&SessionOutcome::Waiting, None));
        }
        let (tool, args) = match registry::parse_call(&self.settings.config.tool_prefix, name, args) {
            Ok(parsed) => parsed,
            Err(e) => return Step::Done(self.arg_refused(&e)),
        };
        if self.sync.unreported_conflict && !self.sync.conflicts.is_empty() && tool.edits() {
            return Step::Done(self.conflict_report(tool));
        }
        if !self.is_visible(tool) {
            return Step::Done(self.blocked(tool));
        }
        (tool.row().handler.run)(self, &args, ctx)
    }

    /// Bookkeeping after a call or completion produced `step`: a finished response is rendered,
    /// the log gets the status, and notes said in it are not said again.
    fn after_step(&mut self, step: &mut Step) {
        if self.hold_for_record(step) {
            // Rendered once the storage has said what came of its record (record.rs).
            return;
        }
        if let Step::Done(r) = step {
            if let Some((note, fresh)) = self.unstored_note() {
                // A commit only applied here is not a plain success (docs/co-editing.md §Stored).
                r.notes.lead.push(note);
                r.warned |= fresh;
            }
            self.forget_unsaved_creations();
            let asked = matches!(self.turn.call_tool, Some(Tool::Preview | Tool::Commit | Tool::CommitAuto));
            self.turn.said.mark(r, asked);
            // The one render of the call: the data is final (the history delta below is JSON only).
            r.render(self.settings.config.render_options());
            if self.records.diagnostics.enabled(Category::Schema) {
                self.schema_check(r);
            }
            self.records.log.finish(r.status);
            self.turn.notes.clear();
            self.sync.reloaded_since_response = SmallSet::new();
            let open = self.turn.session.as_ref().map(|s| s.id);
            if let Some(delta) = self.records.history.finish(open, r, self.settings.config.locale) {
                // For the host (its compressHistory); the model is not told: it cannot act on it.
                r.history_delta = Some(delta);
            }
            self.records.diagnostics.close(r.status.as_str(), r.workflow_state.as_str(), &r.flags.names());
        }
    }

    /// `TextEdit.Schema`: a response whose Markdown fails the validator is a defect
    /// of ours; it is recorded with the violations, flagged `SchemaViolation`, and its summary
    /// starts `[Fail] Response format does not match the spec` so the model does not trust a
    /// half-read layout. Cost: O(size of the Markdown); only while the category is on.
    #[cold]
    #[inline(never)]
    fn schema_check(&mut self, r: &mut Response) {
        let Err(violations) = crate::validate::validate(&r.markdown) else { return };
        let id = self.operation_id();
        let first = violations.first().map(|v| v.to_string());
        let markdown = r.markdown.clone();
        self.records.diagnostics.record(
            Category::Schema,
            &id,
            "render",
            first,
            || serde_json::json!({ "violations": violations, "markdown": markdown }),
        );
        r.flags = r.flags | Flags::SCHEMA_VIOLATION;
        r.notes.defect = Some(words::schema_defect(&id, self.settings.config.locale));
        // The only second render of a call: the answer must say it is defective.
        r.render(self.settings.config.render_options());
    }

    /// A completion that does not answer what the workspace waits for: refused, nothing changes.
    fn wrong_completion(&self, what: &'static str, method: &'static str, kind: &'static str) -> Step {
        Step::Done(self.session_worded(&SessionOutcome::WrongCompletion { what, method, kind }, None))
    }

    /// An argument error (`Invalid call: {what}. Nothing was changed.`) in the workspace's
    /// locale, finished.
    fn arg_refused(&self, e: &ArgError) -> Response {
        let w = self.settings.config.locale.words();
        let r = Response::new(Status::InvalidArguments, w.t("invalid", &[("what", &e.words(w))]))
            .with_guidance(e.guidance(w, &self.settings.config.tool_prefix));
        self.finish(r, None)
    }

    /// The response for a session outcome, worded against the current state and finished.
    /// Cost: O(its words).
    fn session_worded(&self, outcome: &SessionOutcome, path: Option<&str>) -> Response {
        self.finish(words::session(outcome, &words::Voice::of(self)), path)
    }

    /// An `InvalidArguments` response for an argument the shell could not convert (e.g. an
    /// unpaired surrogate found at the JS boundary).
    /// Cost: O(size of the response).
    pub fn invalid_arguments(&self, error: &ArgError) -> Response {
        let mut r = self.arg_refused(error);
        // Answered without a call: rendered here.
        r.render(self.settings.config.render_options());
        r
    }

    // ---- memo_preview ----------------------------------------------------------------------

    /// Preview options from the config, with a tool call's `format`/`context_lines` over them.
    fn preview_options(&self, format: Option<&str>, context_lines: Option<i64>) -> PreviewOptions {
        PreviewOptions {
            mode: format.and_then(PreviewMode::parse).unwrap_or(self.settings.config.preview_mode),
            context_lines: context_lines.map_or(self.settings.config.preview_context_lines, |n| n.clamp(0, 100) as usize),
            max_length: self.settings.config.max_preview_length,
            locale: self.settings.config.locale,
        }
    }

    fn preview(&self, path: &str, args: &registry::PreviewArgs) -> Response {
        let Some(session) = self.turn.session.as_ref().filter(|s| s.changes.iter().any(|c| c.path == path)) else {
            return self.session_worded(&SessionOutcome::NothingToPreview { path: path.to_string() }, Some(path));
        };
        let opts = self.preview_options(args.format.as_deref(), args.context_lines);
        let count = session.changes.iter().filter(|c| c.path == path).count();
        let previewed = SessionOutcome::Previewed { path: path.to_string(), count, mode: opts.mode.as_str() };
        let mut r = words::session(&previewed, &words::Voice::of(self));
        let shown = render_preview(session, path, &opts, self.settings.config.locale.words());
        (r.preview, r.pending_in_preview) = (Some(shown.text), shown.whole);
        let draft = self.draft_rope(path);
        r.metrics.new_length = Some(draft.len_chars());
        r.fingerprint = Some(self.draft_fingerprint(path).to_string());
        self.finish(r, Some(path))
    }

    // ---- memo_begin_task / memo_export_session ---------------------------------------------

    fn begin_task(&mut self, goal: &str, parent: Option<&str>, now_ms: f64) -> Response {
        match self.records.tasks.begin(goal, parent, now_ms) {
            Ok(task) => {
                let (id, depth, goal) = (task.id, task.depth, task.goal.clone());
                let mut r = self.session_worded(&SessionOutcome::TaskBegun { id, goal, depth }, None);
                r.task_id = Some(id.to_string());
                r
            }
            Err(error) => self.session_worded(&SessionOutcome::TaskRefused { error }, None),
        }
    }

    fn export_session(&self) -> Response {
        let mut r = self.session_worded(&SessionOutcome::SessionLog { calls: self.records.log.len() }, None);
        r.session_log = Some(self.records.log.entries());
        r
    }

    // ---- responses -------------------------------------------------------------------------

    /// The task stack and thought tree on their own (`ws.tasks()`), as data and as the lines of
    /// the Task stack section in the configured locale.
    pub fn task_report(&self) -> TaskReport {
        let (task_stack, task_tree, task_tree_earlier) = self.task_views();
        let markdown = crate::format::TaskLines {
            stack: &task_stack,
            tree: &task_tree,
            earlier: task_tree_earlier,
            words: self.settings.config.locale.words(),
        }
        .to_string();
        TaskReport { task_stack, task_tree, task_tree_earlier, markdown }
    }

    /// The task stack (outermost first), the thought tree of the last
    /// [`crate::tasks::TREE_ROOTS`] finished root tasks, and how many earlier ones it leaves out.
    fn task_views(&self) -> (Vec<TaskView>, Vec<crate::response::TaskNodeView>, usize) {
        let stack = self
            .records
            .tasks
            .active()
            .map(|t| TaskView { task_id: t.id.to_string(), goal: t.goal.clone(), status: t.status.as_str().to_string(), depth: t.depth })
            .collect();
        let (tree, earlier) = self.records.tasks.recent_tree(crate::tasks::TREE_ROOTS);
        (stack, tree.iter().map(crate::response::TaskNodeView::from).collect(), earlier)
    }

    /// Fills what every response carries — state, flags, pending changes, tasks, tools, next
    /// actions, notes for the agent. The views are rendered once, when the call ends
    /// ([`Workspace::after_step`]).
    fn finish(&self, mut r: Response, path: Option<&str>) -> Response {
        if self.settings.config.persist_mode == PersistMode::Disabled {
            self.read_only_note(&mut r);
        }
        // Notes said once go before the sentences (after `[Warning]`: the view puts it first).
        r.notes.lead.extend(self.turn.notes.iter().cloned());
        // (ExternalConflict says it itself; a Blocked call's guidance already gives the way out.)
        if !self.sync.conflicts.is_empty() && !matches!(r.status, Status::ExternalConflict | Status::Blocked) {
            self.conflict_note(&mut r);
        }
        r.workflow_state = self.state();
        r.flags = self.flags();
        r.path = path.map(str::to_string);
        if let Some(s) = &self.turn.session {
            r.session_id = Some(format!("s{}", s.id));
            r.pending_changes = pending_views(s, &self.documents.docs);
        }
        if r.metrics.new_length.is_none() {
            r.metrics.new_length = path.map(|p| self.draft_rope(p).len_chars());
        }
        (r.task_stack, r.task_tree, r.task_tree_earlier) = self.task_views();
        if self.records.diagnostics.is_on() {
            self.diagnostics_pointer(&mut r);
        }
        if let (Some(p), true) = (path, r.candidates.len() > 1) {
            views::distinguish(&self.draft_rope(p), p, &mut r.candidates, self.settings.config.locale.words());
        }
        r.visible_tools = self.visible_tools().into_iter().map(|t| self.tool_name(t)).collect();
        r.next_actions = self.next_actions();
        if !r.guidance.as_deref().is_some_and(|g| !g.trim().is_empty()) && !r.next_actions.is_empty() {
            // Never an empty guidance: at least what the state offers next.
            r.guidance = Some(words::next_step(&r.next_actions, self.settings.config.locale));
        }
        r
    }

    // The parts of `finish` only some states need, out of line: V8 compiles a wasm function whole
    // on its first call, and the first call of a workspace is in none of these states
    // (docs/performance.md#cold-start).

    /// With PersistReadOnly the summary says that nothing is written.
    #[cold]
    #[inline(never)]
    fn read_only_note(&self, r: &mut Response) {
        if !r.summary.contains(self.settings.config.locale.words().phrase("note.read_only.said")) {
            r.notes.trail.push(words::state_note(&StateNote::ReadOnly, &self.settings.config.tool_prefix, self.settings.config.locale));
        }
    }

    /// Every response says a conflict while it lasts, not only the state and flags.
    #[cold]
    #[inline(never)]
    fn conflict_note(&self, r: &mut Response) {
        let paths = self.sync.conflicts.keys().cloned().collect();
        r.notes.lead.push(words::state_note(
            &StateNote::Conflict { paths },
            &self.settings.config.tool_prefix,
            self.settings.config.locale,
        ));
    }

    /// The guidance ends with where the diagnostics of the call are.
    #[cold]
    #[inline(never)]
    fn diagnostics_pointer(&self, r: &mut Response) {
        let cats: Vec<&str> = self.records.diagnostics.categories().map(Category::as_str).collect();
        let pointer = words::diagnostics_pointer(&cats, &self.operation_id(), self.settings.config.locale);
        r.guidance = Some(match r.guidance.take() {
            Some(g) if !g.trim().is_empty() => format!("{g}{}{pointer}", self.settings.config.locale.words().phrase("sentence_sep")),
            _ => pointer,
        });
    }
}

// Native only: property tests and the test host (src/internal_tests.rs) are not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod reliability_tests;
#[cfg(test)]
mod render_tests;
