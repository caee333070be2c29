// The public types of @agentpad/core. What crosses the wasm boundary is generated from the Rust
// core into ./generated/ (docs/decisions.md#typescript-types-from-rust; regenerate with
// `AGENTPAD_WRITE_TS=1 cargo test --lib typescript`, the cargo test that fails when they are
// stale) and only re-exported here. This file adds what the JS shell itself defines: options,
// the SDK shapes, the typed `call`, and the narrowing of a response by its status.

import type {
  Candidate,
  DiagnosticCategory,
  DiagnosticRecord,
  DiagnosticShortName,
  EditorState,
  MatchQuality,
  MemorySearchHit,
  MemoryTurn,
  Metrics,
  PendingChange,
  RecordResult,
  ResponseData,
  StoredAt,
  Status,
  TextEdit,
  ToolDefinition,
} from "./generated/boundary.js";
import type { ToolArgs, ToolName, ToolVerb } from "./generated/tool-args.js";
import type { CoreOptions } from "./generated/options.js";
import type { ObjectSchema } from "./json-schema.js";

export type { JsonSchema, JsonSchemaType, ObjectSchema } from "./json-schema.js";
export type {
  AnchorDiff,
  Candidate,
  CompressedHistory,
  ContentPart,
  CurrentDocument,
  DiagnosticCategory,
  DiagnosticRecord,
  DiagnosticShortName,
  DiffSummary,
  EditorSelection,
  EditorState,
  EditorStateView,
  Flags,
  FuzzyTier,
  Heading,
  HistoryDelta,
  Letter,
  LineCol,
  LiveContext,
  LiveContextJson,
  MatchQuality,
  MemoryHit,
  MemorySearchHit,
  MemoryTurn,
  MemoryView,
  Metrics,
  ParsedCandidate,
  PendingChange,
  PersistRequest,
  PlanHint,
  RecommendReason,
  RecordRequest,
  RecordResult,
  ResponseData,
  StoredAt,
  SelectionView,
  SessionLogEntry,
  Status,
  TaskEntry,
  TaskNode,
  TaskReport,
  TaskStatus,
  TextEdit,
  ToolDefinition,
  ToolState,
  ValidationResult,
  VersionKind,
  Violation,
  ViolationRule,
  WorkflowState,
} from "./generated/boundary.js";
export type { ToolArgs, ToolName, ToolVerb } from "./generated/tool-args.js";
export type { CoreOptions, CoreOptionSpec } from "./generated/options.js";

/**
 * One tool call's result (JSON for programs, `markdown` for the model), narrowed by `status` as
 * far as the core guarantees: a `MultiMatch` lists at least one candidate (the core answers
 * `MultiMatch` only for two or more matches) and says how many matched (`selection_count`) and
 * how (`match_quality`). Every other field is as {@link ResponseData} says
 * for every status — `pending_changes` after a staged `Success`, `content` after a read, the
 * near misses of a `NoMatch` in `candidates` — because which of them a call fills depends on the
 * tool and the state, not on the status alone.
 */
export type ToolResponse = { [S in Status]: ResponseWithStatus<S> }[Status];

/** What a response with status `S` carries. */
export type ResponseWithStatus<S extends Status> = S extends "MultiMatch"
  ? Omit<ResponseData, "status" | "candidates" | "metrics" | "match_quality"> & {
      status: S;
      candidates: Candidate[] & { 0: Candidate };
      metrics: Metrics & { selection_count: number };
      match_quality: MatchQuality;
    }
  : Omit<ResponseData, "status"> & { status: S };

/** The verb of a default-prefix tool name: `"replace_span"` for `"memo_replace_span"`. */
export type VerbOf<N extends ToolName> = N extends `memo_${infer V extends ToolVerb}` ? V : never;

/** The arguments of the tool named `N` (default prefix `memo`). */
export type ArgsOf<N extends ToolName> = ToolArgs[VerbOf<N>];

/**
 * The parameters of `ws.call(name, …)` after the name: the arguments may be left out when the
 * tool has no required one.
 */
export type CallRest<N extends ToolName> =
  {} extends ArgsOf<N> ? [args?: ArgsOf<N>, options?: CallOptions] : [args: ArgsOf<N>, options?: CallOptions];

/** When changes reach storage (docs/options.md). */
export type PersistMode = NonNullable<CoreOptions["persistMode"]>;

/**
 * The response languages, as the engine lists them (`LOCALES` in src/locale.rs; a test checks
 * the two agree). Adding a locale is a file in src/locale/ plus its name there and here.
 */
export const LOCALES = ["en", "zh"] as const;

export type Locale = (typeof LOCALES)[number];

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
  onResponse?: (response: ToolResponse) => void;
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

/**
 * MCP `CallToolResult`: the Markdown as text content and `isError`. `runToolCall` leaves
 * `structuredContent` out: clients disagree on which channel reaches the model (some forward only
 * `JSON.stringify(structuredContent)`, some only `content`, some both), and the Response as JSON
 * is several times the Markdown's tokens, paid again on every later turn
 * (docs/decisions.md#mcp-results-carry-the-markdown-only). A host serving programs that want the
 * Response sets it from `runToolCall`'s `onResponse` (as `@agentpad/mcp --structured-content` does).
 */
export type McpCallToolResult = {
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: ToolResponse & { [key: string]: unknown };
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
  save(path: string, text: string, expectedVersion: string, edits?: readonly TextEdit[]): Promise<{ version: string; stored?: boolean }>;
  /**
   * A storage that syncs in the background (a Yjs provider) may take a write into its local
   * copy before the place it keeps documents (a server) has acknowledged it: `save` then
   * resolves `stored: false`, the commit's response carries the `NotStored` flag, and before
   * each later call the workspace asks `isStored(path)` until it is true; the response after
   * that says it is stored (docs/co-editing.md §Stored). Without it every save counts as stored.
   */
  isStored?(path: string): boolean;
  /** Subscribe to external changes. Returns the unsubscribe function. */
  watch(listener: (change: StorageChange) => void): () => void;
  /**
   * True when every change `watch` reports carries its exact `edits` (a Yjs storage): the
   * workspace then rebases pending changes over non-overlapping outside edits by default
   * (`autoRebase`), since mapping them through a known delta cannot misplace them.
   */
  readonly reportsExactChanges?: boolean;
  /**
   * Called once after a call's saves all succeeded (a commit, a revert saved as a commit, an
   * edit in immediate mode, …), with what it wrote: a storage that keeps history records it
   * (NodeFsStorage's `git` option makes it one git commit). What it resolves to is data the
   * core says in the response, in the workspace's locale: `failed` says the saves are kept and
   * the record is not (docs/workflow.md#git-mode). Resolving undefined adds nothing.
   */
  afterCommit?(commit: CommitRecord): Promise<RecordResult | undefined>;
  /**
   * The text of `path` at `version`, a version of the storage's own history that is no
   * workspace version id (NodeFsStorage with `git`: a commit id, 4–40 hex digits), for
   * `memo_read({ version })`, as data the core words: `{ kind: "found", text, id, subject }`
   * (the commit's full id and subject), `{ kind: "failed", why }` saying why it cannot read it.
   * Resolves undefined when the storage keeps no such history (the core then answers as for any
   * unknown version).
   */
  loadAt?(path: string, version: string): Promise<StoredAt | undefined>;
}

/** What one call saved, for {@link StorageProvider.afterCommit}. */
export interface CommitRecord {
  /** The commit's summary: `memo_commit`'s argument, or the response's summary for other tools. */
  summary: string;
  /** The tool that saved (`memo_commit`, `memo_revert`, …). */
  tool: string;
  /** The paths written, in the order written. */
  paths: string[];
  /**
   * The changes committed as the last responses listed them (letter, path, lines): empty when
   * no response listed them (an edit saved at once, a revert of a version).
   */
  changes: PendingChange[];
  /** The innermost task under way when the call was made (`memo_begin_task`), if any. */
  task?: { id: string; goal: string };
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

/**
 * The options of {@link Workspace.create}: the core's (docs/options.md, generated from its option
 * table) and the package's own (the storage, the paths, diagnostics, the storage time limit).
 */
export interface WorkspaceOptions extends CoreOptions {
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
  /**
   * How long (ms) a storage call (list, load, save) may take before the workspace gives up on
   * it (default 30,000): a save that does not answer ends the commit in `PersistFailure`
   * ("the storage did not answer"), a load that does not answer fails the call that needed it,
   * and the calls queued behind go on. A whole number from 1 to 2147483647.
   */
  storageTimeoutMs?: number;
  /**
   * The host's embedding model, for `memo_find` (docs/tools.md#memo_find): one vector per text,
   * in order. With it a find ranks by meaning as well as by words; agentpad downloads no model
   * and caches the vectors of unchanged units. Without it, or when it throws or answers
   * badly, a find ranks by words (BM25) alone.
   */
  embed?: (texts: string[]) => Promise<number[][]>;
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
  search(query: string, limit?: number): MemorySearchHit[];
  /** Versioned JSON (`{"format":"agentpad-memory","version":1,"turns":[…]}`); import(export()) round-trips. */
  export(): string;
  /** Replaces the store by an export. Throws (changing nothing) on a malformed or foreign export. */
  import(json: string): void;
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

export interface DiagnosticsOptions {
  /** Categories to record (long or short names), or "all" (the default). */
  categories?: (DiagnosticCategory | DiagnosticShortName)[] | "all";
  /** Receives every record once its call has ended, oldest first. */
  sink: (record: DiagnosticRecord) => void;
}

/**
 * The message shapes `ws.compressHistory()` reads and writes: OpenAI chat completions, OpenAI
 * Responses API input items, Anthropic messages, the AI SDK's `ModelMessage`s.
 */
export type HistoryFormat = "openai" | "openai-responses" | "anthropic" | "ai-sdk";

/** Every {@link HistoryFormat}, for checks at run time. */
export const HISTORY_FORMATS: readonly HistoryFormat[] = ["openai", "openai-responses", "anthropic", "ai-sdk"];
