// The playground reads the package's own types (www/src/types.ts): one contract, no copy.
export type {
  Candidate,
  CompressedHistory,
  EditorState,
  LineCol,
  LiveContext,
  LiveContextOptions,
  Locale,
  MemoryTurn,
  PendingChange,
  PersistMode,
  SessionLogEntry,
  ToolResponse as AgentResponse,
  Status,
  TaskEntry,
  TaskReport,
  ToolDefinition,
  WorkflowState,
} from "@agentpad/core";

import type { WorkspaceOptions } from "@agentpad/core";

/** How candidates are listed in the Markdown (`WorkspaceOptions.candidateStyle`). */
export type CandidateStyle = NonNullable<WorkspaceOptions["candidateStyle"]>;

// What the argument form needs to know of a tool's input_schema.
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
