// GENERATED from the Rust core by src/typescript.rs: the data that crosses the wasm boundary (src/wasm.rs). Do not edit by hand;
// regenerate with `AGENTPAD_WRITE_TS=1 cargo test --lib typescript` (the same test fails when this file is stale).
import type { ObjectSchema } from "../json-schema.js";

/** A candidate letter, as `match_id` and `selection_id` take it. */
export type Letter = "A" | "B" | "C" | "D" | "E" | "F" | "G" | "H" | "I" | "J" | "K" | "L" | "M" | "N" | "O" | "P" | "Q" | "R" | "S" | "T" | "U" | "V" | "W" | "X" | "Y" | "Z";

/** The fuzzy tiers, in the order they are tried when the exact search finds nothing. */
export type FuzzyTier = "trailing_whitespace" | "indentation" | "unicode" | "whitespace";

/**
 * How a text was found: `"exact"`, a {@link FuzzyTier}, `"gutter"` or `"gutter+<tier>"` when
 * line-number gutters were stripped first, or `"similar:0.92"` for a near miss offered after `NoMatch`.
 */
export type MatchQuality = "exact" | FuzzyTier | "gutter" | `gutter+${FuzzyTier}` | `similar:${string}`;

export type AnchorDiff = {
  path: string;
  /** `v0` (the text when opened), `v2`… */
  from_version: string;
  from_time_ms: number | null;
  /** The current committed version. */
  to_version: string;
  patch: string;
  affected_lines: [number, number] | null;
  omitted_lines: number;
  coarse: boolean;
};

/**
 * One candidate of a multi-match. Offsets are UTF-16 code units into the draft, so
 * `draft.slice(context_start, context_end)` in JS is the matched text.
 */
export type Candidate = {
  id: Letter;
  line: number;
  preview: string;
  marker_start: string;
  marker_end: string;
  occurrence: number;
  context_start: number;
  context_end: number;
  recommended: boolean;
  /** Why it is recommended (`after_anchor`, `near_focus`, `goal_words`); `None` otherwise. */
  recommended_reason: RecommendReason | null;
  stale: boolean;
  /**
   * How this candidate was found: `exact`, a fuzzy tier (`indentation`, `gutter+unicode`, …)
   * or, for a near miss offered after `NoMatch`, `similar:0.92`.
   */
  match_quality: MatchQuality;
};

export type CurrentDocument = {
  path: string;
  /** `draft` when pending changes exist (what the tools read and edit), else `committed`. */
  view: "draft" | "committed";
  pending_changes: number;
  /** The committed version (`v0` when opened, `v1` after the first commit…). */
  version_id: string;
  total_lines: number;
  total_chars: number;
  /** The lines shown (1-based, inclusive); the whole document when `complete`. */
  start_line: number;
  end_line: number;
  complete: boolean;
  /** The line the window is centred on (the last edit, else the cursor), if any. */
  focus_line: number | null;
  /** The shown lines with `  12│ ` gutters, as `memo_read` prints them. */
  text: string;
  /** Markdown headings (and `[section]` lines) of a windowed document. */
  headings: Array<Heading>;
  headings_omitted: number;
};

/**
 * The four categories (docs/workflow.md#diagnostics).
 */
export type DiagnosticCategory = "TextEdit.MatchTrace" | "TextEdit.Persistence" | "TextEdit.External" | "TextEdit.Schema";

/**
 * One diagnostics record.
 */
export type DiagnosticRecord = {
  /** The call it belongs to: `op-<n>`, n counting the workspace's calls from 1. */
  operation_id: string;
  category: DiagnosticCategory;
  /** The tool (or `storage_changed`) that produced it. */
  operation: string;
  /** Final status of the call, state and flag names after it (filled when the call ends). */
  status: Status | null;
  state: WorkflowState | null;
  flags: Array<string>;
  /** What went wrong, if anything. */
  error: string | null;
  /** Category-specific facts (see [`Category`]). */
  detail: unknown;
  /** Set by the host, which has the clock. */
  duration_ms: number | null;
};

/**
 * One version in the recent diffs: a unified patch with its version id, time and summary.
 */
export type DiffSummary = {
  version_id: string;
  path: string;
  time_ms: number;
  /** ISO 8601, UTC. */
  time: string;
  kind: VersionKind;
  summary: string;
  /** A unified diff (`--- a/path`, `+++ b/path`, `@@` hunks). */
  patch: string;
  /** First and last changed line of the new text (1-based), when anything changed. */
  affected_lines: [number, number] | null;
  /** The change could not be applied (a failed save). */
  is_error: boolean;
  error: string | null;
  /** Lines of the patch left out by `max_diff_chars`. */
  omitted_lines: number;
  /** The diff ran past its deadline and is coarser than minimal (still correct). */
  coarse: boolean;
};

export type EditorStateView = {
  active_path: string;
  cursor: LineCol | null;
  selection: SelectionView | null;
  open_paths: Array<string>;
  workflow_state: WorkflowState;
  pending_changes: number;
};

/** The flags of a state: the bit mask and the names of the set bits, in bit order. */
export type Flags = {
  mask: number;
  names: Array<"SelectionPending" | "PersistPending" | "OutOfSync" | "SchemaViolation" | "PersistReadOnly" | "ExternalConflict" | "DiagnosticHint">;
};

export type Heading = {
  line: number;
  /** 1–6 for `#`…`######`; 1 for a `[section]` line. */
  level: number;
  text: string;
};

/**
 * What compression did (also predicted on commit and revert responses as `history_delta`).
 *
 * The prediction assumes the usual loop — each call in its own assistant message, answered by
 * its own result message — because the core never sees the host's messages. With parallel
 * calls, or calls sharing a message with text, fewer messages are removed than predicted;
 * `compressHistory` reports what it really removed.
 */
export type HistoryDelta = {
  messages_removed: number;
  tokens_saved: number;
};

/**
 * A 1-based line and column (columns count UTF-16 units, as JS and editors do).
 */
export type LineCol = {
  line: number;
  column: number;
};

/**
 * One block of live context: the data; the views are [`LiveContext::sections`] and
 * [`LiveContext::markdown`].
 */
export type LiveContextJson = {
  generated_at_ms: number;
  current_document: CurrentDocument;
  /** Newest first. */
  recent_diffs: Array<DiffSummary>;
  anchor_diff: AnchorDiff | null;
  editor_state: EditorStateView;
  /** The last calls, newest first. */
  plan_hints: Array<PlanHint>;
  /** The memory store's accumulated summaries (`[Turn N] …`), empty without a memory store. */
  memory_digest: string;
  task_stack: Array<TaskEntry>;
  task_tree: Array<TaskNode>;
  task_tree_earlier: number;
};

/**
 * One `memo_search_memory` result: the turn, its BM25F score, its summary and a snippet around
 * the first match.
 */
export type MemoryHit = {
  turn: number;
  score: number;
  summary: string;
  snippet: string;
};

/**
 * What one turn stored: the full workspace context and the LLM's summary of it.
 */
export type MemoryTurn = {
  /** The turn number; unique and increasing within a store. */
  turn: number;
  /**
   * When the turn was stored (ms, passed in by the shell). `add` requires it finite with
   * `|at_ms| <` [`MAX_AT_MS`] and stores it rounded to whole microseconds (0.001 ms): the
   * precision that survives a JSON export and import exactly.
   */
  at_ms: number;
  /** The LLM-generated summary of the turn (`MemorySummary.summary`). */
  summary: string;
  /** The insights drawn from it (`MemorySummary.insights`). */
  insights: Array<string>;
  /** The full stored context of that turn (`ContextSnapshot.fullContext`). */
  context: string;
  /** Free labels (e.g. related turns, file names); searched with weight 2. */
  tags: Array<string>;
};

/**
 * What a memory tool returned (docs/workflow.md#memory-store): whole turns, or ranked search hits.
 */
export type MemoryView = { "kind": "recall", turns: Array<MemoryTurn>, } | { "kind": "search", query: string, hits: Array<MemoryHit>, };

export type Metrics = {
  /** Change in length made by this call, in chars. */
  delta: number;
  /**
   * Length of the document's draft after this call, in chars; `None` (`-`) when the call
   * concerned no document (a task, the session log, a refused call).
   */
  new_length: number | null;
  /** Number of candidates, when the call produced a selection. */
  selection_count: number | null;
};

/**
 * One candidate. The `list` style only gives the letter, the line, the preview and the marks;
 * the table's other columns are then `None`.
 */
export type ParsedCandidate = {
  id: string;
  line: number;
  /**
   * The Preview cell's code span content (table), or the text after the line reference with
   * the marks removed (list).
   */
  preview: string;
  marker_start: string | null;
  marker_end: string | null;
  occurrence: number | null;
  context_start: number | null;
  context_end: number | null;
  recommended: boolean;
  stale: boolean;
  quality: string | null;
};

/**
 * A pending change as reported (docs/responses.md#json-fields). `position` is a UTF-16 offset into the base text;
 * `line` is 1-based in the base text; `delta` is in chars.
 */
export type PendingChange = {
  change_id: string;
  path: string;
  position: number;
  line: number;
  old_text: string;
  new_text: string;
  delta: number;
  amended: boolean;
};

/**
 * What the shell must write: `text` in storage form (line endings and BOM restored), refused by
 * the storage if its version is no longer `expected_version`.
 */
export type PersistRequest = {
  path: string;
  text: string;
  expected_version: string;
  /**
   * The same write as replacements of the stored text (docs/co-editing.md §Commits as
   * edits): a storage that merges live edits (Yjs) applies these, a file storage ignores them.
   */
  edits: Array<TextEdit>;
};

/**
 * A plan hint: a call the model made and how it ended.
 */
export type PlanHint = {
  seq: number;
  tool: string;
  /** The call's status, or `running` for the call still under way. */
  status: Status | "running";
  at_ms: number;
};

/** Why a candidate is recommended. */
export type RecommendReason = "after_anchor" | "near_focus" | "goal_words";

/**
 * One tool call's result as JSON (docs/responses.md#json-fields): every field present, `null`
 * or `[]` when it does not apply; offsets are UTF-16 code units into the LF-normalised draft.
 */
export type ResponseData = {
  /** The outcome (docs/responses.md#statuses). */
  status: Status;
  /** The state after the call (docs/workflow.md#states-and-flags). */
  workflow_state: WorkflowState;
  flags: Flags;
  /**
   * What happened, one or two sentences; starts with `[Warning]` when the model must notice
   * something although the call succeeded.
   */
  summary: string;
  /** What to call next, with arguments. */
  guidance: string | null;
  metrics: Metrics;
  /** The lettered candidates of a multi-match, or the near misses offered after `NoMatch`. */
  candidates: Array<Candidate>;
  /** The pending changes of every document, in creation order. */
  pending_changes: Array<PendingChange>;
  /**
   * How the staged or listed text was found (`exact`, a fuzzy tier, `gutter…`, `similar:…`);
   * `None` when nothing was matched.
   */
  match_quality: MatchQuality | null;
  /**
   * Compact diff of the pending changes of `path` (or what `preview_only` would stage); after
   * `NoMatch`, the closest regions with what differs.
   */
  preview: string | null;
  /**
   * `memo_read`: the requested lines with gutters (`  12│ `, or `12#a3f1│ ` with line keys);
   * a `NoMatch` on a small document: the whole document.
   */
  content: string | null;
  /** Fingerprint (16 hex digits) of the draft the call read or edited. */
  fingerprint: string | null;
  /** The document the call worked on. */
  path: string | null;
  /** The open edit session. */
  session_id: string | null;
  /** The task `memo_begin_task` created. */
  task_id: string | null;
  /** The active tasks, innermost last. */
  task_stack: Array<TaskEntry>;
  /**
   * The thought tree: the finished root tasks of this workspace (the most recent
   * [`crate::tasks::TREE_ROOTS`]), oldest first, with their subtasks. Empty until a root
   * task is completed or reverted.
   */
  task_tree: Array<TaskNode>;
  /** How many earlier finished root tasks `task_tree` leaves out. */
  task_tree_earlier: number;
  /** `memo_export_session`: every call of this workspace, oldest first. */
  session_log: Array<SessionLogEntry> | null;
  /**
   * On the call that committed or reverted a session: what compressing the history will
   * remove (its calls and results) and save (`ws.compressHistory`, docs/workflow.md#history-compression).
   */
  history_delta: HistoryDelta | null;
  /** `memo_recall_context` / `memo_search_memory`: what the memory store returned. */
  memory: MemoryView | null;
  /** Call signatures the model may use next, e.g. `memo_commit(summary)`. */
  next_actions: Array<string>;
  /** The tools the current state offers. */
  visible_tools: Array<string>;
  /** Detail view for the model (docs/responses.md#markdown-layout). */
  markdown: string;
  /** One line, for older history entries (docs/responses.md#the-one-line-view). */
  markdown_basic: string;
};

export type SelectionView = {
  anchor: LineCol;
  head: LineCol;
  /** The selected text, at most [`MAX_LINE_CHARS`] chars (`…` marks a cut). */
  text: string;
};

export type SessionLogEntry = {
  /** 1-based number of the call in this workspace. */
  seq: number;
  tool: string;
  args: unknown;
  tool_call_id: string | null;
  /** When the call started (ms, the shell's clock). */
  at_ms: number;
  /** The final status; `None` while storage work of the call is under way. */
  status: Status | null;
};

/**
 * The outcome of one call (docs/responses.md#statuses).
 */
export type Status = "Success" | "NoMatch" | "MultiMatch" | "NoOp" | "PersistFailure" | "ExternalConflict" | "Exception" | "InvalidArguments" | "Blocked" | "StaleReference";

/**
 * An entry of the task stack (innermost last). Always present, empty until tasks exist.
 */
export type TaskEntry = {
  task_id: string;
  goal: string;
  status: TaskStatus;
  depth: number;
};

/**
 * A finished task of the thought tree with its subtasks, in creation order.
 */
export type TaskNode = {
  task_id: string;
  goal: string;
  /** `Completed` or `Reverted`. */
  status: TaskStatus;
  /** The commit summary or revert reason that ended it. */
  summary: string | null;
  children: Array<TaskNode>;
};

/**
 * The task stack and thought tree ([`Workspace::task_report`]).
 */
export type TaskReport = {
  task_stack: Array<TaskEntry>;
  task_tree: Array<TaskNode>;
  task_tree_earlier: number;
  markdown: string;
};

export type TaskStatus = "Active" | "Completed" | "Reverted";

/**
 * One replacement of a write, for storages that merge concurrent edits (docs/co-editing.md
 * §Commits as edits): replace UTF-16 units `from..to` of the stored text with `insert`. Offsets
 * index the text as the workspace holds it — LF line breaks, no BOM, what `Workspace.text()`
 * returns — before the write; the edits of one write are sorted and never overlap, so applied
 * from last to first (or first to last, shifting) they turn the stored text into the written
 * one. Both ends sit on code-point boundaries: a surrogate pair is never split.
 */
export type TextEdit = {
  from: number;
  to: number;
  insert: string;
};

/**
 * A tool as handed to an LLM SDK (the TypeScript package reshapes it per SDK).
 */
export type ToolDefinition = {
  name: string;
  description: string;
  input_schema: ObjectSchema;
};

/**
 * A tool of the registry and whether the current state offers it ([`Workspace::tool_states`]).
 */
export type ToolState = {
  definition: ToolDefinition;
  available: boolean;
  /** Why not, when not offered: the summary a call to it would get. */
  reason: string | null;
  /** What to do instead (that call's guidance). */
  guidance: string | null;
};

/**
 * What made a version.
 */
export type VersionKind = "commit" | "failed" | "external";

/**
 * One place where the response leaves the layout.
 */
export type Violation = {
  /** 1-based line of the Markdown (one past the last line for "missing at the end"). */
  line: number;
  rule: ViolationRule;
  /** What was expected and what was found. */
  message: string;
};

/**
 * One check (see the module documentation for the layout they enforce).
 */
export type ViolationRule = "HeaderLine" | "UnknownStatus" | "UnknownState" | "FlagList" | "BlankLine" | "Overview" | "Locale" | "Severity" | "MetricsTable" | "MetricValue" | "UnknownSection" | "SectionOrder" | "MissingSection" | "CandidateHeader" | "CandidateRow" | "CandidateValue" | "CandidateMarker" | "Recommendation" | "SelectionCount" | "StateFlags" | "StatusState" | "Fence" | "SectionBody" | "StrayText";

export type WorkflowState = "Idle" | "SelectionPending" | "PersistPending" | "OutOfSync" | "Refreshing";
