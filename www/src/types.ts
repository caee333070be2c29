// Hand-written types of what the wasm core returns (notes/wasm-boundary.md, DESIGN §5).
// Field names are the core's: snake_case, always present unless marked optional.

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
  new_length: number;
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
  recommended: boolean;
  stale: boolean;
}

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
  status: string;
  depth: number;
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
  /** "exact" | ...; null when nothing was matched. */
  match_quality: string | null;
  /** Compact diff preview (gutters `  12│ `, `-`/`+` lines). */
  preview: string | null;
  /** memo_read: the text with gutters. */
  content: string | null;
  /** 16 hex chars of the draft that was read/edited. */
  fingerprint: string | null;
  /** The document the call worked on. */
  path: string | null;
  session_id: string | null;
  task_stack: TaskEntry[];
  /** Call signatures, e.g. "memo_commit(summary)". */
  next_actions: string[];
  visible_tools: string[];
  /** What the model reads (detail). */
  markdown: string;
  /** One line, for older history entries. */
  markdown_basic: string;
}

/** A tool definition as the core describes it (visible tools only). */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** OpenAI Chat Completions `tools[]` entry. */
export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** Anthropic Messages API `tools[]` entry. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export type ToolFormat = "openai" | "anthropic" | "json-schema";

export interface ToolFormatMap {
  openai: OpenAITool;
  anthropic: AnthropicTool;
  "json-schema": ToolDefinition;
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
   */
  save(path: string, text: string, expectedVersion: string): Promise<{ version: string }>;
  /** Subscribe to external changes. Returns the unsubscribe function. */
  watch(listener: (change: StorageChange) => void): () => void;
}

export interface StorageChange {
  path: string;
  /** New version, or undefined when the document was removed. */
  version: string | undefined;
}

export interface WorkspaceOptions {
  storage: StorageProvider;
  /** Documents to open; default: every document the storage holds. The first is the default document. */
  paths?: string[];
  persistMode?: PersistMode;
  locale?: Locale;
  /** Tool name prefix (default "memo"). */
  toolPrefix?: string;
  /** The default document (default: the first path opened). */
  defaultPath?: string;
}

export interface CallOptions {
  /** The LLM's tool-call id, recorded in the session log. */
  toolCallId?: string;
}
