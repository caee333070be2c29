// The Response contract (notes/wasm-boundary.md, DESIGN §5), as the playground reads it.
// Kept local so the render functions are plain functions of a JSON object; the library's own
// Response type is structurally compatible with this.

export type Status =
  | "Success" | "NoMatch" | "MultiMatch" | "NoOp" | "PersistFailure" | "ExternalConflict"
  | "Exception" | "InvalidArguments" | "Blocked" | "StaleReference";

export type WorkflowState = "Idle" | "SelectionPending" | "PersistPending" | "OutOfSync" | "Refreshing";

export interface Candidate {
  id: string;
  line: number;
  preview: string;
  marker_start: string;
  marker_end: string;
  occurrence: number;
  context_start: number;
  context_end: number;
  recommended: boolean;
  stale: boolean;
}

export interface PendingChange {
  change_id: string;
  path: string;
  position: number;
  line: number;
  old_text: string;
  new_text: string;
  delta: number;
  amended: boolean;
}

export interface TaskEntry {
  task_id: string;
  goal: string;
  status: string;
  depth: number;
}

export interface AgentResponse {
  status: Status | string;
  workflow_state: WorkflowState | string;
  flags: { mask: number; names: string[] };
  summary: string;
  guidance: string | null;
  metrics: { delta: number; new_length: number; selection_count: number | null };
  candidates: Candidate[];
  pending_changes: PendingChange[];
  match_quality: string | null;
  preview: string | null;
  content?: string | null;
  fingerprint?: string | null;
  path?: string | null;
  session_id?: string | null;
  task_stack: TaskEntry[];
  next_actions: string[];
  visible_tools: string[];
  markdown: string;
  markdown_basic: string;
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  items?: JsonSchema;
  [key: string]: unknown;
}
