// Hand-written types of what the wasm core returns (notes/wasm-boundary.md, DESIGN §5).
// Field names are the core's: snake_case, always present unless marked optional.

/**
 * How a call ended. `InvalidArguments` also answers an edit that would make a document larger
 * than `MAX_DOCUMENT_BYTES` (128 MiB), saying both sizes and the limit; nothing is changed then.
 */
export type Status =
  | "Success"
  | "NoMatch"
  | "MultiMatch"
  | "NoOp"
  | "PersistFailure"
  | "ExternalConflict"
  | "Exception"
  | "InvalidArguments"
  | "Blocked"
  | "StaleReference";

export type WorkflowState = "Idle" | "SelectionPending" | "PersistPending" | "OutOfSync" | "Refreshing";

export type PersistMode = "manual" | "immediate" | "disabled";

export type Locale = "en" | "zh";

export interface Flags {
  mask: number;
  names: string[];
}

export interface Metrics {
  /** Change in length (chars) of the draft made by this call. */
  delta: number;
  /** Length (chars) of the document's draft after this call; null when the call concerned no document. */
  new_length: number | null;
  selection_count: number | null;
}

export interface Candidate {
  /** "A".."Z" */
  id: string;
  /** 1-based line of the match. */
  line: number;
  /** The line, trimmed, with the match. */
  preview: string;
  /** "[[SEL#A]]" */
  marker_start: string;
  /** "[[/SEL#A]]" */
  marker_end: string;
  /** 0-based index among all matches. */
  occurrence: number;
  /** UTF-16 offset of the match in the draft: `draft.slice(context_start, context_end)` is the matched text. */
  context_start: number;
  /** UTF-16 offset, exclusive. */
  context_end: number;
  /**
   * The clear winner (after `search_after`, or nearest to the last staged change); at most one
   * candidate is recommended, and none on a tie.
   */
  recommended: boolean;
  /** Why it is recommended: "after_anchor" | "near_focus" | "goal_words"; null when it is not. */
  recommended_reason: "after_anchor" | "near_focus" | "goal_words" | null;
  /** An edit staged since the listing changed this candidate's text; it can no longer be chosen. */
  stale: boolean;
  /**
   * How this candidate was found:
   * - `"exact"`: the text as given;
   * - a fuzzy tier (only when nothing matched exactly): `"trailing_whitespace"`,
   *   `"indentation"` (new_text is re-indented by the same offset; tabs stay tabs), `"unicode"`
   *   (curly quotes, dashes, NBSP, full-width space folded), `"whitespace"` (runs collapsed);
   * - `"gutter"` or `"gutter+<tier>"` (e.g. `"gutter+indentation"`) when line-number gutters
   *   copied from a read were stripped from old_text first;
   * - `"similar:0.92"`: a near miss offered after `NoMatch` (similarity at or above
   *   `nearMatchThreshold`); stage it with `memo_replace_selection`.
   */
  match_quality: MatchQuality;
}

/** The fuzzy tiers, in the order they are tried when the exact search finds nothing (DESIGN §4.3). */
export type FuzzyTier = "trailing_whitespace" | "indentation" | "unicode" | "whitespace";

/**
 * `Candidate.match_quality` / `Response.match_quality`: `"exact"`, a {@link FuzzyTier},
 * `"gutter"`, `"gutter+<tier>"`, or `"similar:<0..1 with two decimals>"` for a near miss.
 */
export type MatchQuality =
  | "exact"
  | FuzzyTier
  | "gutter"
  | `gutter+${FuzzyTier}`
  | `similar:${string}`;

export interface PendingChange {
  change_id: string;
  path: string;
  /** UTF-16 offset into the base (committed) text. */
  position: number;
  line: number;
  old_text: string;
  new_text: string;
  /** Change in length, in chars. */
  delta: number;
  amended: boolean;
}

export interface TaskEntry {
  task_id: string;
  goal: string;
  status: "Active" | "Completed" | "Reverted";
  /** 1 for a root task. */
  depth: number;
}

/** One call in the session log (memo_export_session). */
export interface SessionLogEntry {
  /** 1-based number of the call in this workspace. */
  seq: number;
  tool: string;
  /** The arguments as given; strings over 200 chars are clipped with their length. */
  args: unknown;
  tool_call_id: string | null;
  /** When the call started (Date.now() of the shell). */
  at_ms: number;
  /** null while the call is still running (the export call itself). */
  status: Status | null;
}

/** One tool call's result: JSON for programs, `markdown` for the model. */
export interface Response {
  status: Status;
  workflow_state: WorkflowState;
  flags: Flags;
  summary: string;
  guidance: string | null;
  metrics: Metrics;
  /** [] when none. */
  candidates: Candidate[];
  /** [] when none. */
  pending_changes: PendingChange[];
  /**
   * How the staged or listed text was found (see {@link Candidate.match_quality}); null when
   * nothing was matched (a read, a commit, a NoMatch). Anything but `"exact"` comes with a
   * `[Warning]` summary.
   */
  match_quality: MatchQuality | null;
  /**
   * Compact diff preview (gutters `  12│ `, `-`/`+` lines). On NoMatch: the closest regions with a
   * character-level account of what differs (`[-only in yours-]` `{+only in the document+}`).
   */
  preview: string | null;
  /**
   * memo_read: the text with gutters (`  12│ `, or `12#a3f1│ ` with `line_keys`). Also a NoMatch
   * on a small document (the whole document), and a StaleReference from memo_replace_lines (the
   * current lines with their keys).
   */
  content: string | null;
  /** 16 hex chars of the draft that was read/edited. */
  fingerprint: string | null;
  /** The document the call worked on. */
  path: string | null;
  session_id: string | null;
  /** memo_begin_task: the id of the task it began ("1", "2", …). */
  task_id: string | null;
  /** The active tasks, outermost first (innermost last). [] when none. */
  task_stack: TaskEntry[];
  /**
   * The thought tree: the finished root tasks (Completed or Reverted) of this workspace, oldest
   * first — the last 10 — each with its subtasks in creation order; `summary` is the commit
   * summary or revert reason that ended it. [] until a root task finishes.
   */
  task_tree: Array<{
    task_id: string;
    goal: string;
    status: "Active" | "Completed" | "Reverted";
    summary: string | null;
    children: Response["task_tree"];
  }>;
  /** How many earlier finished root tasks task_tree leaves out. */
  task_tree_earlier: number;
  /** memo_export_session: every call of this workspace, oldest first (at most 1000). */
  session_log: SessionLogEntry[] | null;
  /** On a commit or revert: what ws.compressHistory() will remove and save for that session. */
  history_delta: HistoryDelta | null;
  /** memo_recall_context / memo_search_memory: what the memory store returned. */
  memory:
    | { kind: "recall"; turns: MemoryTurn[] }
    | { kind: "search"; query: string; hits: Array<{ turn: number; score: number; summary: string; snippet: string }> }
    | null;
  /** Call signatures, e.g. "memo_commit(summary)". */
  next_actions: string[];
  visible_tools: string[];
  /** What the model reads (detail). */
  markdown: string;
  /** One line, for older history entries. */
  markdown_basic: string;
}

/**
 * The tools of this release, by verb. A tool's name is `${prefix}_${verb}` (prefix `"memo"` unless
 * `toolPrefix` says otherwise). Which are visible depends on the workflow state (README
 * "Workflow"): e.g. `replace_selection` only while a choice is pending, `rebase` only after an
 * external change conflicts with pending changes.
 */
export type ToolVerb =
  | "read"
  | "replace"
  | "replace_span"
  | "replace_selection"
  | "replace_lines"
  | "append"
  | "preview"
  | "diff"
  | "commit"
  | "commit_auto"
  | "revert"
  | "discard"
  | "refresh"
  | "rebase"
  | "persist_as"
  | "begin_task"
  | "export_session"
  | "recall_context"
  | "search_memory";

/** The tool names under the default prefix, e.g. `"memo_replace_span"`. */
export type ToolName = `memo_${ToolVerb}`;

/** Arguments every writing tool takes. */
export interface WriteArgs {
  /** Document to work on; default: the workspace's default document. */
  path?: string;
  /** Fingerprint from your last read; a different draft gives StaleReference and changes nothing. */
  expected_fingerprint?: string;
  /** Show what would be staged without staging it. */
  preview_only?: boolean;
}

/** A candidate letter `"A"`..`"Z"`. */
export type Letter =
  | "A" | "B" | "C" | "D" | "E" | "F" | "G" | "H" | "I" | "J" | "K" | "L" | "M"
  | "N" | "O" | "P" | "Q" | "R" | "S" | "T" | "U" | "V" | "W" | "X" | "Y" | "Z";

/** Arguments of each tool (DESIGN §3; the core's JSON Schemas are the authority). */
export interface ToolArgs {
  read: {
    start_line?: number;
    end_line?: number;
    /** `  12│ ` gutters (default true). */
    line_numbers?: boolean;
    /** Prefix each line with its key `12#a3f1│ ` for memo_replace_lines. */
    line_keys?: boolean;
    view?: "draft" | "committed";
    path?: string;
  };
  replace: WriteArgs & {
    /** Empty: append new_text at the end. */
    old_text: string;
    new_text: string;
    match_id?: Letter;
    search_after?: string;
    show_all_matches?: boolean;
    /** Stage every exact match, each as its own lettered change. */
    replace_all?: boolean;
    /** Refuse (with the real count and lines) when the number of matches differs. */
    expected_occurrences?: number;
  };
  replace_span: WriteArgs & {
    old_span_start: string;
    old_span_end: string;
    new_text: string;
    search_after?: string;
    keep_start?: boolean;
    keep_end?: boolean;
    match_id?: Letter;
  };
  replace_selection: {
    /** A letter, or its 1-based number (1–26). */
    selection_id: Letter | number;
    /** Default: the new_text given with the search. */
    new_text?: string;
    preview_only?: boolean;
    path?: string;
  };
  replace_lines: WriteArgs & {
    /** A key like `"12#a3f1"` from `memo_read({ line_keys: true })`. */
    start_key: string;
    /** Inclusive; default: start_key's line. */
    end_key?: string;
    /** Empty: delete the lines. */
    new_text: string;
  };
  append: WriteArgs & { text: string };
  preview: { path?: string; format?: "compact" | "full" | "stats" | "diff" };
  /** `base` (default): draft against the committed text; `storage`: storage's text against the draft. */
  diff: { against?: "base" | "storage"; path?: string };
  commit: { summary: string; /** Complete and pop the current task (default true). */ auto_pop_task?: boolean };
  commit_auto: Record<string, never>;
  revert: { reason: string };
  discard: { reason?: string };
  refresh: { path?: string };
  rebase: { path?: string };
  /** Save the draft of `path` under `new_path`, which must not exist in storage. */
  persist_as: { new_path: string; path?: string };
  begin_task: { goal: string; /** The current task's id (default: the current task). */ parent_task_id?: string };
  export_session: Record<string, never>;
  /** Only with the `memory` option. Turn numbers of the memory digest's `[Turn N]` lines (1–10 of them). */
  recall_context: { turn_numbers: number[] };
  /** Only with the `memory` option. Keyword search (CJK too); `limit` 1–20, default 5. */
  search_memory: { query: string; limit?: number };
}

/** A JSON Schema type name. */
export type JsonSchemaType = "string" | "integer" | "number" | "boolean" | "array" | "object" | "null";

/**
 * The JSON Schema subset the tool definitions use (a type alias, not an interface, so that it is
 * assignable to the SDKs' `{ [key: string]: unknown }` parameter types).
 */
export type JsonSchema = {
  type?: JsonSchemaType | JsonSchemaType[];
  description?: string;
  title?: string;
  enum?: Array<string | number | boolean | null>;
  const?: string | number | boolean | null;
  properties?: { [name: string]: JsonSchema };
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
};

/** A tool's argument schema: an object with its properties, the required ones, and no others. */
export type ObjectSchema = JsonSchema & {
  type: "object";
  properties: { [name: string]: JsonSchema };
  required: string[];
  additionalProperties: false;
};

/** A tool definition as the core describes it (visible tools only). */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: ObjectSchema;
}

/** OpenAI Chat Completions `tools[]` entry (`ChatCompletionFunctionTool`). */
export interface OpenAITool {
  type: "function";
  /** `strict: true` only with the `strict` option. */
  function: { name: string; description: string; parameters: ObjectSchema; strict?: boolean };
}

/** OpenAI Responses API `tools[]` entry (`FunctionTool`): flat, `strict` always said (the API's default is true). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: ObjectSchema;
  strict: boolean;
}

/** Anthropic Messages API `tools[]` entry (`Tool`); `strict: true` only with the `strict` option. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectSchema;
  strict?: boolean;
}

/** MCP `Tool` (a `tools/list` result entry). */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: ObjectSchema;
}

/** Gemini `FunctionDeclaration` (pass as `tools: [{ functionDeclarations }]`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: ObjectSchema;
}

/** A tool and whether the current workflow state offers it (Workspace.toolStates). */
export interface ToolState {
  definition: ToolDefinition;
  available: boolean;
  /** Why not, when not offered: the summary a call to it would get (status Blocked). */
  reason: string | null;
  /** What to do instead. */
  guidance: string | null;
}

/** The array formats of `ws.tools({ format })`; `"ai-sdk"` (an object of tools) is separate. */
export type ToolFormat = "openai" | "openai-responses" | "anthropic" | "mcp" | "gemini" | "json-schema";

/** One `ws.tools()` entry, by format. */
export interface ToolFormatMap {
  openai: OpenAITool;
  "openai-responses": OpenAIResponsesTool;
  anthropic: AnthropicTool;
  mcp: McpTool;
  gemini: GeminiFunctionDeclaration;
  "json-schema": ToolDefinition;
}

/** Options of `ws.tools()`. */
export interface ToolsOptions<F extends ToolFormat = ToolFormat> {
  format: F;
  /**
   * Schemas that pass OpenAI strict mode: every property required, optional ones nullable
   * (`null` reads as absent), `additionalProperties: false`, no `oneOf`, value constraints
   * (`minimum`, `maxItems`, …) said in the description instead. Also sets `strict: true` on the
   * OpenAI, Responses, Anthropic and AI SDK tools. Default false.
   */
  strict?: boolean;
  /**
   * Only the tools the current workflow state offers (ask again after every call). Default
   * false: every tool the configuration enables, in a fixed order, the same in every state — so
   * a provider's prompt cache stays warm and a host may fix the list for a whole loop; a call
   * the state does not allow is answered `Blocked` with what to call instead.
   */
  visibleOnly?: boolean;
}

/**
 * Options of `ws.tools({ format: "ai-sdk", jsonSchema })`. agentpad does not depend on the `ai`
 * package: pass its `jsonSchema` function (`import { jsonSchema } from "ai"`).
 */
export interface AiSdkToolsOptions<S> {
  format: "ai-sdk";
  jsonSchema: (schema: ObjectSchema) => S;
  /** As {@link ToolsOptions.strict}. */
  strict?: boolean;
  /** As {@link ToolsOptions.visibleOnly}. */
  visibleOnly?: boolean;
  /** Called with each call's whole Response (e.g. to compress the history when `history_delta` says a session ended). */
  onResponse?: (response: Response) => void;
}

/** One AI SDK tool (assignable to the `ai` package's `Tool`): `execute` runs the call and returns the Markdown the model reads. */
export interface AiSdkTool<S> {
  description: string;
  inputSchema: S;
  strict?: boolean;
  execute: (input: unknown, options: { toolCallId: string }) => Promise<string>;
}

/** The `tools` object for `generateText` / `streamText`, keyed by tool name. */
export type AiSdkTools<S> = { [name: string]: AiSdkTool<S> };

/** The formats `ws.runToolCall()` understands. */
export type ToolCallFormat = "openai" | "openai-responses" | "anthropic" | "mcp" | "gemini";

/**
 * An OpenAI Chat Completions tool call (`message.tool_calls[i]`). `arguments` is the model's JSON
 * string: malformed JSON is answered with `InvalidArguments`, not thrown.
 */
export type OpenAIToolCall =
  | { id: string; type?: "function"; function: { name: string; arguments: string } }
  /** A custom (non-function) tool call: agentpad defines none, so it is answered with `InvalidArguments`. */
  | { id: string; type: "custom"; custom: { name: string; input: string } };

/** OpenAI `ChatCompletionToolMessageParam`. */
export interface OpenAIToolResult {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** An OpenAI Responses `function_call` output item. */
export interface OpenAIResponsesToolCall {
  type?: "function_call";
  call_id: string;
  name: string;
  /** The model's JSON string. */
  arguments: string;
}

/** OpenAI Responses `ResponseInputItem.FunctionCallOutput`. */
export interface OpenAIResponsesToolResult {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** An Anthropic `tool_use` content block (`input` already parsed). */
export interface AnthropicToolCall {
  type?: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** Anthropic `ToolResultBlockParam`; `is_error` as {@link isErrorStatus} says. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** MCP `tools/call` request params. */
export interface McpToolCall {
  name: string;
  arguments?: { [key: string]: unknown };
}

/** MCP `CallToolResult`: the Markdown as text content, the Response as structuredContent. */
export type McpCallToolResult = {
  content: Array<{ type: "text"; text: string }>;
  structuredContent: Response & { [key: string]: unknown };
  isError: boolean;
};

/** A Gemini `FunctionCall` (`part.functionCall`, or `response.functionCalls[i]`). */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: { [key: string]: unknown };
}

/**
 * A Gemini `Part` with the `functionResponse`: `{ output: markdown }`, or `{ error: markdown }`
 * when {@link isErrorStatus}.
 */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    id?: string;
    name: string;
    response: { output: string } | { error: string };
  };
}

/** What `ws.runToolCall(call, { format })` takes and returns, by format. */
export interface ToolCallMap {
  openai: { call: OpenAIToolCall; result: OpenAIToolResult };
  "openai-responses": { call: OpenAIResponsesToolCall; result: OpenAIResponsesToolResult };
  anthropic: { call: AnthropicToolCall; result: AnthropicToolResult };
  mcp: { call: McpToolCall; result: McpCallToolResult };
  gemini: { call: GeminiFunctionCall; result: GeminiFunctionResponsePart };
}

/** Where documents live. The workspace reads through it and persists commits with `save`. */
export interface StorageProvider {
  /** Paths of every document the storage holds. */
  list(): Promise<string[]>;
  /** The raw text (line endings and BOM as stored) and its version, or undefined if absent. */
  load(path: string): Promise<{ text: string; version: string } | undefined>;
  /**
   * Write `text` if the stored version is still `expectedVersion`; resolves to the new version.
   * Rejects (with an Error whose message says why) on a version mismatch or a write failure.
   * `edits` is the same write as replacements of the stored text ({@link TextEdit}): a storage
   * that merges concurrent edits (a Y.Text) applies exactly these; a file storage ignores them.
   */
  save(path: string, text: string, expectedVersion: string, edits?: readonly TextEdit[]): Promise<{ version: string }>;
  /** Subscribe to external changes. Returns the unsubscribe function. */
  watch(listener: (change: StorageChange) => void): () => void;
}

/**
 * One replacement of a write: UTF-16 units `from..to` of the stored text become `insert`.
 * Offsets index the text as the workspace holds it (LF line breaks, no BOM: what
 * `Workspace.text()` returns) before the write; a write's edits are sorted, never overlap, and
 * never split a surrogate pair. Apply them from last to first.
 */
export interface TextEdit {
  from: number;
  to: number;
  insert: string;
}

export interface StorageChange {
  path: string;
  /** New version, or undefined when the document was removed. */
  version: string | undefined;
  /**
   * The change itself, when the storage knows it exactly (a Yjs event's delta): edits of the LF
   * text before it. The workspace's automatic rebase maps pending changes through these
   * instead of diffing (option `autoRebase`).
   */
  edits?: TextEdit[];
}

export interface WorkspaceOptions {
  storage: StorageProvider;
  /**
   * Diagnostics for whoever debugs the agent (docs/workflow.md#diagnostics), off by default. In Node,
   * AGENTPAD_DEBUG="MatchTrace,Persistence" (or "all") turns them on with records
   * written to stderr when this option is absent.
   */
  diagnostics?: DiagnosticsOptions;
  /**
   * Documents to open; default: every document the storage holds. The first is the default
   * document. Each may be at most `MAX_DOCUMENT_BYTES` (128 MiB of UTF-8, as storage holds it);
   * a larger one makes `Workspace.create` reject with an Error naming its path, size and the limit.
   */
  paths?: string[];
  persistMode?: PersistMode;
  locale?: Locale;
  /**
   * How the Markdown lists candidates: "table" (default, 003 §6: Id, MarkerStart, MarkerEnd,
   * Preview, Occurrence, ContextStart, ContextEnd, Line, Recommended, Quality) or "list"
   * (000 §3.1: one line each, "- [B] line 45: `api.timeout: 30` ← recommended").
   */
  candidateStyle?: "table" | "list";
  /** Tool name prefix (default "memo"). */
  toolPrefix?: string;
  /** The default document (default: the first path opened). */
  defaultPath?: string;
  /**
   * Similarity (0 < x ≤ 1, default 0.8) from which a near miss after `NoMatch` is offered as a
   * lettered candidate (`match_quality: "similar:0.92"`) that `memo_replace_selection` can stage.
   */
  nearMatchThreshold?: number;
  /**
   * Preview size cap in characters (default 500). A NoMatch shows the whole document when it is
   * shorter than four times this.
   */
  maxPreviewLength?: number;
  /** Deepest task nesting memo_begin_task allows (1–16, default 3). */
  maxTaskDepth?: number;
  /** How staged edits are previewed, and memo_preview's default (default "compact"). */
  previewMode?: "compact" | "full" | "stats" | "diff";
  /** Lines of context around each change in previews (0–100, default 3). */
  previewContextLines?: number;
  /**
   * Offer memo_recall_context and memo_search_memory over `ws.memory` (004's optional memory
   * module; default false). The live context shows the memory digest either way.
   */
  memory?: boolean;
  /**
   * When storage changes under pending changes and the change overlaps none of them, move them
   * onto it (the next summary says so) instead of reporting `ExternalConflict`; only an overlap
   * is a conflict. For live co-editing, where any keystroke between two calls is an external
   * change (docs/co-editing.md §Automatic rebase). Default false.
   */
  autoRebase?: boolean;
}

/** One stored turn of the memory store (004: a ContextSnapshot with its MemorySummary). */
export interface MemoryTurn {
  /** Unique, increasing. */
  turn: number;
  /** When it was stored (ms since the epoch). */
  at_ms: number;
  /** The LLM's summary of the turn. */
  summary: string;
  insights: string[];
  /** The full workspace context of that turn. */
  context: string;
  tags: string[];
}

/** What `ws.memory.add()` takes: `turn` defaults to one after the last, `atMs` to now. */
export interface MemoryTurnInput {
  turn?: number;
  atMs?: number;
  summary: string;
  insights?: string[];
  context: string;
  tags?: string[];
}

/** The memory store of a workspace (`ws.memory`). */
export interface MemoryStoreApi {
  /** Stores a turn; returns its number. Throws (and stores nothing) on a turn number not after the last. */
  add(turn: MemoryTurnInput): number;
  /** Every stored turn, oldest first. */
  turns(): MemoryTurn[];
  /** The `[Turn N] summary` lines injected into prompts (also in the live context). */
  digest(): string;
  /** Keyword search (BM25F; CJK by character bigrams), best first. */
  search(query: string, limit?: number): Array<{ turn: number; score: number; snippet: string }>;
  /** Versioned JSON (`{"format":"agentpad-memory","version":1,"turns":[…]}`); import(export()) round-trips. */
  export(): string;
  /** Replaces the store by an export. Throws (changing nothing) on a malformed or foreign export. */
  import(json: string): void;
}

/** A 1-based line and column (columns in UTF-16 units, as JS strings and editors count). */
export interface LineCol {
  line: number;
  column: number;
}

/** What the user's editor shows (002's editor_state). */
export interface EditorState {
  /** The active document (default: the default document). */
  path?: string;
  cursor?: LineCol;
  selection?: { anchor: LineCol; head: LineCol };
}

export interface LiveContextOptions {
  /** The document shown (default: the editor state's, else the default document). */
  path?: string;
  /** Sets the editor state first (kept for later calls). */
  editorState?: EditorState;
  /** Above this many chars the document is shown as a window around the last edit plus a heading index (default 16000). */
  maxDocumentChars?: number;
  /** How many versions recent_diffs lists, newest first (0–32, default 3). */
  recentDiffs?: number;
  /** Most chars of one patch (default 4000; 0: no limit). */
  maxDiffChars?: number;
  /** The older text the anchor diff starts from (default "origin": the text when opened). */
  anchor?: "origin" | "none" | { commitsBack: number } | { ageMs: number };
  /** How many of the last calls plan_hints lists (default 5). */
  planHints?: number;
  /** Time budget of the diffs in ms (default 200): past it a diff is finished coarsely, still correct. */
  diffDeadlineMs?: number;
  /** Markdown language (default: the workspace's locale). */
  locale?: Locale;
}

/** One version in recent_diffs (002's DiffSummary). */
export interface DiffSummary {
  /** "v3", or "v3-failed" for a save that failed. */
  version_id: string;
  path: string;
  time_ms: number;
  /** ISO 8601 UTC. */
  time: string;
  kind: "commit" | "failed" | "external";
  summary: string;
  /** Unified diff. */
  patch: string;
  /** First and last changed line of the new text (1-based). */
  affected_lines: [number, number] | null;
  is_error: boolean;
  error: string | null;
  /** Patch lines left out by maxDiffChars. */
  omitted_lines: number;
  /** The time budget ran out: correct but not minimal. */
  coarse: boolean;
}

/** The live context as data (002's LiveContextPayload). */
export interface LiveContextJson {
  generated_at_ms: number;
  current_document: {
    path: string;
    view: "draft" | "committed";
    pending_changes: number;
    version_id: string;
    total_lines: number;
    total_chars: number;
    start_line: number;
    end_line: number;
    /** false: a window of lines (start_line–end_line) plus a heading index. */
    complete: boolean;
    focus_line: number | null;
    /** The shown lines with `  12│ ` gutters. */
    text: string;
    headings: Array<{ line: number; level: number; text: string }>;
    headings_omitted: number;
  };
  recent_diffs: DiffSummary[];
  anchor_diff: {
    path: string;
    from_version: string;
    from_time_ms: number | null;
    to_version: string;
    patch: string;
    affected_lines: [number, number] | null;
    omitted_lines: number;
    coarse: boolean;
  } | null;
  editor_state: {
    active_path: string;
    cursor: LineCol | null;
    selection: { anchor: LineCol; head: LineCol; text: string } | null;
    open_paths: string[];
    workflow_state: WorkflowState;
    pending_changes: number;
  };
  plan_hints: Array<{ seq: number; tool: string; status: Status | "running"; at_ms: number }>;
  memory_digest: string;
  task_stack: TaskEntry[];
  task_tree: Response["task_tree"];
  task_tree_earlier: number;
}

/** `ws.liveContext()`: the block as data, as Markdown, and as content parts for the last user message. */
export interface LiveContext {
  json: LiveContextJson;
  markdown: string;
  /** One text part per section: append them to the last user message's content. */
  content_parts: Array<{ type: "text"; text: string }>;
}

/** `ws.tasks()`: the task stack and thought tree (000 §4.3). */
export interface TaskReport {
  task_stack: TaskEntry[];
  task_tree: Response["task_tree"];
  task_tree_earlier: number;
  /** The Task stack section's lines, in the workspace's locale. */
  markdown: string;
}

export interface CallOptions {
  /** The LLM's tool-call id, recorded in the session log. */
  toolCallId?: string;
  /**
   * The shell's clock for this call, in ms since the epoch (default `Date.now()`): when its
   * versions are made, as the session log and the live context show them. A replay passes the
   * recorded times so that the responses come out the same.
   */
  nowMs?: number;
}

/** The categories of 003 §4.4. */
export type DiagnosticCategory = "TextEdit.MatchTrace" | "TextEdit.Persistence" | "TextEdit.External" | "TextEdit.Schema";

export interface DiagnosticsOptions {
  /** Categories to record (long or short names), or "all" (the default). */
  categories?: (DiagnosticCategory | "MatchTrace" | "Persistence" | "External" | "Schema")[] | "all";
  /** Receives every record once its call has ended, oldest first. */
  sink: (record: DiagnosticRecord) => void;
}

/** One diagnostics record. While diagnostics are on, responses carry the DiagnosticHint flag. */
export interface DiagnosticRecord {
  /** `op-<n>` for the workspace's n-th call; `ext-<n>` for a storage change noticed after call n. */
  operation_id: string;
  category: DiagnosticCategory;
  /** The tool, or `storage_changed`, or a step of a commit ("commit: writes reported"). */
  operation: string;
  /** The call's final status; null for a storage change (it is not a call). */
  status: Status | null;
  state: WorkflowState | null;
  flags: string[];
  error: string | null;
  /** Category-specific facts: the needle, tier and match lines; write results; versions. */
  detail: unknown;
  /** Wall time of the whole call, measured by the shell (the core reads no clock). */
  duration_ms: number | null;
}

/** One place where a Markdown response leaves the `003` §6 layout. */
export interface Violation {
  /** 1-based line of the Markdown. */
  line: number;
  /** The rule broken, e.g. "HeaderLine", "CandidateHeader", "StateFlags", "SectionOrder". */
  rule: string;
  /** What was expected and what was found. */
  message: string;
}

/** What validateResponse() read and found. */
export interface ValidationResult {
  valid: boolean;
  violations: Violation[];
  status: string;
  state: string;
  flags: string[];
  /** "OK" | "Warning" | "Fail" */
  severity: string;
  summary: string;
  guidance: string | null;
  candidates: { id: string; line: number; preview: string; recommended: boolean; stale: boolean }[];
  /** Heading lines of the optional sections, in order. */
  sections: string[];
}

/**
 * The message shapes `ws.compressHistory()` reads and writes: OpenAI chat completions, OpenAI
 * Responses API input items, Anthropic messages, the AI SDK's `ModelMessage`s.
 */
export type HistoryFormat = "openai" | "openai-responses" | "anthropic" | "ai-sdk";

/** Every {@link HistoryFormat}, for checks at run time. */
export const HISTORY_FORMATS: readonly HistoryFormat[] = ["openai", "openai-responses", "anthropic", "ai-sdk"];

/** What `ws.compressHistory()` returns. */
export interface CompressedHistory<M> {
  messages: M[];
  /** Whole messages removed (a call message and its result message are two). */
  messages_removed: number;
  /** Estimated: one token per CJK character, one per four other characters. */
  tokens_saved: number;
  /** Ids of the sessions that were found and replaced. */
  sessions: number[];
}

/**
 * What compressing a session removes. On a commit or revert response it is a prediction that
 * assumes one assistant message per call and one result message per call (the core never sees
 * your messages): with parallel calls or calls sharing a message with text, fewer messages go.
 * ws.compressHistory() reports what it really removed.
 */
export interface HistoryDelta {
  messages_removed: number;
  tokens_saved: number;
}
