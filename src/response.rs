//! Response: what every tool call returns (docs/responses.md), and the records it carries (log
//! entries, the history delta, task views). Plain data at the bottom of the module graph: it
//! imports no view. The Markdown the model reads is a view over it ([`crate::format`]), filled in
//! once at the end of a call by `Response::render` (defined there, crate-private) so that JSON
//! and Markdown can never say different things.

use serde::Serialize;
use serde_json::Value;

use crate::workflow::{Flags, WorkflowState};

/// The outcome of one call (docs/responses.md#statuses).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Status {
    Success,
    NoMatch,
    MultiMatch,
    NoOp,
    PersistFailure,
    ExternalConflict,
    Exception,
    InvalidArguments,
    Blocked,
    StaleReference,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Success => "Success",
            Status::NoMatch => "NoMatch",
            Status::MultiMatch => "MultiMatch",
            Status::NoOp => "NoOp",
            Status::PersistFailure => "PersistFailure",
            Status::ExternalConflict => "ExternalConflict",
            Status::Exception => "Exception",
            Status::InvalidArguments => "InvalidArguments",
            Status::Blocked => "Blocked",
            Status::StaleReference => "StaleReference",
        }
    }

    /// The Overview icon: `[OK]`, `[Warning]` or `[Fail]`.
    pub fn severity(self) -> Severity {
        match self {
            Status::Success | Status::NoOp => Severity::Ok,
            Status::MultiMatch => Severity::Warning,
            _ => Severity::Fail,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Ok,
    Warning,
    Fail,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Ok => "OK",
            Severity::Warning => "Warning",
            Severity::Fail => "Fail",
        }
    }
}

#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Change in length made by this call, in chars.
    pub delta: isize,
    /// Length of the document's draft after this call, in chars; `None` (`-`) when the call
    /// concerned no document (a task, the session log, a refused call).
    pub new_length: Option<usize>,
    /// Number of candidates, when the call produced a selection.
    pub selection_count: Option<usize>,
}

/// One candidate of a multi-match. Offsets are UTF-16 code units into the draft, so
/// `draft.slice(context_start, context_end)` in JS is the matched text.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    #[cfg_attr(test, ts(type = "Letter"))]
    pub id: String,
    pub line: usize,
    /// The last line of a `memo_find` unit (its text is `line`..=`end_line`); `None` for a match.
    pub end_line: Option<usize>,
    pub preview: String,
    pub marker_start: String,
    pub marker_end: String,
    pub occurrence: usize,
    pub context_start: usize,
    pub context_end: usize,
    pub recommended: bool,
    /// Why it is recommended (`after_anchor`, `near_focus`, `goal_words`); `None` otherwise.
    pub recommended_reason: Option<crate::matching::recommend::Reason>,
    /// A near miss whose pick is refused (the change meets text the document changed), as the
    /// summary says: offered to show where the text is, not to be picked
    /// (docs/decisions.md#offered-candidates-are-pickable).
    pub pick_refused: bool,
    pub stale: bool,
    /// How this candidate was found: `exact`, a fuzzy tier (`indentation`, `gutter+unicode`, …)
    /// or, for a near miss offered after `NoMatch`, `similar:0.92`.
    #[cfg_attr(test, ts(type = "MatchQuality"))]
    pub match_quality: String,
}

/// A pending change as reported (docs/responses.md#json-fields). `position` is a UTF-16 offset into the base text;
/// `line` is 1-based in the draft (the numbering of everything the model reads), `base_line` the
/// same place in the committed text; `delta` is in chars. `position`, `line`, `base_line`,
/// `old_text` and `new_text` are its first place's; `delta` counts every place.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "PendingChange"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PendingChangeView {
    pub change_id: String,
    pub path: String,
    pub position: usize,
    pub line: usize,
    pub base_line: usize,
    pub old_text: String,
    pub new_text: String,
    pub delta: isize,
    pub amended: bool,
    /// How many places the change has: 1 for an edit, more for a replace-all.
    pub place_count: usize,
    /// Its places in base order, at most 1,000 (`MAX_PLACES_LISTED`; `place_count` counts them
    /// all): every response carries them, so a replace-all over 200,000 lines does not cost
    /// every later call 200,000 views.
    pub places: Vec<PendingPlaceView>,
}

/// Most places a pending change lists in [`PendingChangeView::places`].
pub const MAX_PLACES_LISTED: usize = 1000;

/// One place of a pending change: `position` (UTF-16) in the base text, `line` (1-based) in the
/// draft and `base_line` in the base text.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "PendingPlace"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PendingPlaceView {
    pub position: usize,
    pub line: usize,
    pub base_line: usize,
    pub old_text: String,
    pub new_text: String,
}

/// An entry of the task stack (innermost last). Always present, empty until tasks exist.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "TaskEntry"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskView {
    pub task_id: String,
    pub goal: String,
    #[cfg_attr(test, ts(as = "crate::tasks::TaskStatus"))]
    pub status: String,
    pub depth: usize,
}

/// A finished task of the thought tree with its subtasks, in creation order.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "TaskNode"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskNodeView {
    pub task_id: String,
    pub goal: String,
    /// `Completed` or `Reverted`.
    #[cfg_attr(test, ts(as = "crate::tasks::TaskStatus"))]
    pub status: String,
    /// The commit summary or revert reason that ended it.
    pub summary: Option<String>,
    pub children: Vec<TaskNodeView>,
}

impl From<&crate::tasks::TaskNode<'_>> for TaskNodeView {
    fn from(n: &crate::tasks::TaskNode<'_>) -> TaskNodeView {
        TaskNodeView {
            task_id: n.task.id.to_string(),
            goal: n.task.goal.clone(),
            status: n.task.status.as_str().to_string(),
            summary: n.task.summary.clone(),
            children: n.children.iter().map(TaskNodeView::from).collect(),
        }
    }
}

/// What a memory tool returned (docs/workflow.md#memory-store): whole turns, or ranked search hits.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MemoryView {
    Recall { turns: Vec<crate::memory::TurnRecord> },
    Search { query: String, hits: Vec<MemoryHitView> },
}

/// One `memo_search_memory` result: the turn, its BM25F score, its summary and a snippet around
/// the first match.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "MemoryHit"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemoryHitView {
    pub turn: u32,
    pub score: f64,
    pub summary: String,
    pub snippet: String,
}

#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SessionLogEntry"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogEntry {
    /// 1-based number of the call in this workspace.
    pub seq: u64,
    pub tool: String,
    #[cfg_attr(test, ts(type = "unknown"))]
    pub args: Value,
    pub tool_call_id: Option<String>,
    /// When the call started (ms, the shell's clock).
    pub at_ms: f64,
    /// The final status; `None` while storage work of the call is under way.
    pub status: Option<Status>,
}

/// What compression did (also predicted on commit and revert responses as `history_delta`).
///
/// The prediction assumes the usual loop — each call in its own assistant message, answered by
/// its own result message — because the core never sees the host's messages. With parallel
/// calls, or calls sharing a message with text, fewer messages are removed than predicted;
/// `compressHistory` reports what it really removed.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HistoryDelta {
    pub messages_removed: usize,
    pub tokens_saved: usize,
}

/// The notes a response says in full only once per edit session (docs/responses.md#said-once),
/// as data: which of them this response says, and whether one must be said again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OnceNotes {
    /// A read's `The `12│ ` gutters are not part of the text…`.
    pub gutters: bool,
    /// A staging's `Nothing is saved until memo_commit(summary)…`.
    pub save: bool,
    /// An old_text carrying gutters was refused: the next read says the gutter note again.
    pub gutters_again: bool,
}

/// What a summary says besides its own sentences, as data: the view renders it as
/// `[Fail] {defect} [Warning] {lead…} {sentences} {trail…}` ([`crate::format::SummaryLine`]), so
/// nothing is spliced into the sentences or parsed back out of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SummaryNotes {
    /// Notes said before the sentences, after `[Warning]`, each in brackets: a reload the agent
    /// has not heard of (`[a.md changed in storage …]`), storage that changed under pending changes.
    pub lead: Vec<String>,
    /// Notes said after the sentences, each in brackets: `[Read-only: …]`.
    pub trail: Vec<String>,
    /// A defect of ours found in this very answer (its Markdown failed the validator), one
    /// sentence: said first, after `[Fail]`, so the model does not trust a half-read layout.
    pub defect: Option<String>,
}

/// One tool call's result as JSON (docs/responses.md#json-fields): every field present, `null`
/// or `[]` when it does not apply; offsets are UTF-16 code units into the LF-normalised draft.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "ResponseData"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Response {
    /// The outcome (docs/responses.md#statuses).
    pub status: Status,
    /// The state after the call (docs/workflow.md#states-and-flags).
    pub workflow_state: WorkflowState,
    pub flags: Flags,
    /// What happened, one or two sentences; starts with `[Warning]` when the model must notice
    /// something although the call succeeded.
    pub summary: String,
    /// What to call next, with arguments.
    pub guidance: Option<String>,
    pub metrics: Metrics,
    /// The lettered candidates of a multi-match, or the near misses offered after `NoMatch`.
    pub candidates: Vec<Candidate>,
    /// After `NoMatch`: the closest regions as data, best first (where, how similar, what
    /// differs, piece by piece); `preview` is their text for the model.
    pub near_misses: Vec<crate::matching::near::NearMissView>,
    /// The pending changes of every document, in creation order.
    pub pending_changes: Vec<PendingChangeView>,
    /// How the staged or listed text was found (`exact`, a fuzzy tier, `gutter…`, `similar:…`);
    /// `None` when nothing was matched.
    #[cfg_attr(test, ts(type = "MatchQuality | null"))]
    pub match_quality: Option<String>,
    /// Something the model must notice although the call succeeded (a fuzzy match, a dropped
    /// span marker): the Overview shows `[Warning]` and the summary starts with it.
    #[serde(skip)]
    pub warned: bool,
    /// What the summary says besides its sentences (notes before and after them, a defect of
    /// ours): rendered around the sentences, never spliced into them.
    #[serde(skip)]
    pub notes: SummaryNotes,
    /// The summary's own sentences, taken from `summary` by the first render: `summary` is then
    /// what the model reads, and a later render (after a defect is found) composes from these.
    #[serde(skip)]
    pub(crate) sentences: Option<String>,
    /// The model has the pending list already (the previous lists and this call's summary say
    /// it) and this call neither previews nor commits: the Markdown leaves the list out, the
    /// JSON keeps it (docs/responses.md#markdown-layout).
    #[serde(skip)]
    pub(crate) pending_said_before: bool,
    /// The task stack and tree are those the last response that showed them carried, and this
    /// call neither previews nor commits: the Markdown leaves them out, the JSON keeps them.
    #[serde(skip)]
    pub(crate) tasks_said_before: bool,
    /// The notes said in full once per edit session that this response says, or asks to be said
    /// again (workspace::views::Said remembers them; docs/responses.md#said-once).
    #[serde(skip)]
    pub(crate) once: OnceNotes,
    /// Every pending change is shown, lettered, in this response's preview (a `memo_preview`
    /// that nothing capped, of the only document with changes): the Markdown leaves the pending
    /// list out, the JSON keeps it.
    #[serde(skip)]
    pub(crate) pending_in_preview: bool,
    /// The summary states the delta of the one change this call staged (`(+4 chars)`): the
    /// Markdown leaves the Metrics table out, the JSON keeps `metrics`.
    #[serde(skip)]
    pub(crate) delta_in_summary: bool,
    /// Compact diff of the pending changes of `path` (or what `preview_only` would stage); after
    /// `NoMatch`, the closest regions with what differs.
    pub preview: Option<String>,
    /// `memo_read`: the requested lines with gutters (`12│ `, or `12#a3f1│ ` with line keys);
    /// a `NoMatch` on a small document: the whole document.
    pub content: Option<String>,
    /// Fingerprint (16 hex digits) of the draft the call read or edited.
    pub fingerprint: Option<String>,
    /// The document the call worked on.
    pub path: Option<String>,
    /// The open edit session.
    pub session_id: Option<String>,
    /// The task `memo_begin_task` created.
    pub task_id: Option<String>,
    /// The active tasks, innermost last.
    pub task_stack: Vec<TaskView>,
    /// The thought tree: the finished root tasks of this workspace (the most recent
    /// [`crate::tasks::TREE_ROOTS`]), oldest first, with their subtasks. Empty until a root
    /// task is completed or reverted.
    pub task_tree: Vec<TaskNodeView>,
    /// How many earlier finished root tasks `task_tree` leaves out.
    pub task_tree_earlier: usize,
    /// `memo_export_session`: every call of this workspace, oldest first.
    pub session_log: Option<Vec<LogEntry>>,
    /// On the call that committed or reverted a session: what compressing the history will
    /// remove (its calls and results) and save (`ws.compressHistory`, docs/workflow.md#history-compression).
    pub history_delta: Option<HistoryDelta>,
    /// `memo_recall_context` / `memo_search_memory`: what the memory store returned.
    pub memory: Option<MemoryView>,
    /// Call signatures the model may use next, e.g. `memo_commit(summary)`.
    pub next_actions: Vec<String>,
    /// The tools the current state offers.
    pub visible_tools: Vec<String>,
    /// Detail view for the model (docs/responses.md#markdown-layout).
    pub markdown: String,
    /// One line, for older history entries (docs/responses.md#the-one-line-view).
    pub markdown_basic: String,
}

impl Response {
    /// A response with the given status and summary; the workspace fills state, flags, tools and
    /// the Markdown views before returning it.
    pub fn new(status: Status, summary: impl Into<String>) -> Response {
        Response {
            status,
            workflow_state: WorkflowState::Idle,
            flags: Flags::NONE,
            summary: summary.into(),
            guidance: None,
            metrics: Metrics::default(),
            candidates: Vec::new(),
            near_misses: Vec::new(),
            pending_changes: Vec::new(),
            match_quality: None,
            warned: false,
            notes: SummaryNotes::default(),
            sentences: None,
            pending_said_before: false,
            tasks_said_before: false,
            once: OnceNotes::default(),
            pending_in_preview: false,
            delta_in_summary: false,
            preview: None,
            content: None,
            fingerprint: None,
            path: None,
            session_id: None,
            task_id: None,
            task_stack: Vec::new(),
            task_tree: Vec::new(),
            task_tree_earlier: 0,
            session_log: None,
            history_delta: None,
            memory: None,
            next_actions: Vec::new(),
            visible_tools: Vec::new(),
            markdown: String::new(),
            markdown_basic: String::new(),
        }
    }

    /// Marks the response as a warning: `[Warning]` in the Overview and, when the response is
    /// rendered, at the summary's start. Cost: O(1).
    pub fn warn(mut self) -> Response {
        self.warned = true;
        self
    }

    /// The Overview icon: the status's, raised to `[Warning]` by [`Response::warn`].
    pub fn severity(&self) -> Severity {
        match (self.status.severity(), self.warned) {
            (Severity::Ok, true) => Severity::Warning,
            (s, _) => s,
        }
    }

    pub fn with_guidance(mut self, guidance: impl Into<String>) -> Response {
        self.guidance = Some(guidance.into());
        self
    }

    /// The JSON form (stable field order: the struct's).
    pub fn to_json(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}
