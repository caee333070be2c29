// The page's state (one `app` object), its settings controls and the shared notices.
import type { Workspace, ToolState } from "@agentpad/core";
import type { AgentResponse, Candidate, CandidateStyle, Locale, PendingChange, PersistMode, ToolDefinition } from "../types";
import type { NearMiss } from "../render";
import { SAMPLES, type Sample } from "../samples";
import type { PlaygroundStorage } from "../storage";
import type { LiveView } from "../panes";
import type { HistoryFormat } from "../transcript";
import { SessionRecorder } from "../share";
import type { AgentRun } from "../agent/loop";

export const PREFIX = "memo";

export function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
}

export const sampleSelect = $("sample-select") as HTMLSelectElement;

export const modeSelect = $("persist-mode") as HTMLSelectElement;
export const localeSelect = $("locale") as HTMLSelectElement;
export const styleSelect = $("candidate-style") as HTMLSelectElement;

export const memoryToggle = $("memory-tools") as HTMLInputElement;

export const PERSIST_MODES: readonly PersistMode[] = ["manual", "immediate", "disabled"];
export const MODE_HINT: Record<PersistMode, string> = {
  manual: "commit saves",
  immediate: "each edit saves",
  disabled: "in memory only",
};
export const LOCALES: readonly Locale[] = ["en", "zh"];
export const CANDIDATE_STYLES: readonly CandidateStyle[] = ["list", "table"];
/** The `lang` of the Markdown views (the core's zh words are Simplified Chinese). */
export const LANG: Record<Locale, string> = { en: "en", zh: "zh-Hans" };

/** The options the page passes to Workspace.create; changing any of them recreates the workspace. */
export interface WorkspaceSettings {
  persistMode: PersistMode;
  locale: Locale;
  candidateStyle: CandidateStyle;
  /** `memory: true`: the workspace offers memo_recall_context and memo_search_memory. */
  memory: boolean;
}

/** The tools only a workspace created with `memory: true` offers. */
export const MEMORY_TOOLS = new Set([`${PREFIX}_recall_context`, `${PREFIX}_search_memory`]);

interface CallRecord {
  tool: string;
  args: Record<string, unknown>;
  response: AgentResponse;
  /** The locale its Markdown was rendered in (the core renders at call time). */
  locale: Locale;
  /** The id passed to ws.call({ toolCallId }): the transcript's tool_call id for it. */
  toolCallId: string;
}

interface SelectionView {
  path: string;
  draft: string; // the draft the candidates' offsets index
  candidates: Candidate[];
  /** A NoMatch's closest regions and what differs, as the core's data. */
  differs: readonly NearMiss[] | null;
}

interface PendingView {
  preview: string | null;
  changes: PendingChange[];
  source: string;
}

export const app = {
  ws: null as Workspace | null,
  storage: null as PlaygroundStorage | null,
  persistMode: "manual" as PersistMode,
  locale: "en" as Locale,
  // The core's default (docs/responses.md#candidates).
  candidateStyle: "list" as CandidateStyle,
  memory: false,
  sample: SAMPLES[0] as Sample,
  path: "",
  tools: new Map<string, ToolDefinition>(), // every tool known, visible or not
  allTools: [] as string[], // every tool of the workspace, in the core's order (ws.toolStates())
  /** ws.toolStates() by name: whether the state offers it, and why not. */
  toolStates: new Map<string, ToolState>(),
  visible: [] as string[],
  /** Storage version of each path when the workspace last ran a call (or was created). */
  seen: new Map<string, string | undefined>(),
  calls: 0, // numbers the tool_call_ids the page passes (call_1, …; auto_preview_1, …)
  history: [] as CallRecord[],
  shown: -1, // index into history of the response on screen
  selection: null as SelectionView | null,
  pending: { preview: null, changes: [], source: "" } as PendingView,
  lastReplaceArgs: null as Record<string, unknown> | null,
  busy: false,
  /** The live-context pane's view: the Markdown as the model receives it, rendered, or the JSON. */
  liveView: "markdown" as LiveView,
  /** The token meter's transcript format. */
  historyFormat: "openai" as HistoryFormat,
  generation: 0, // bumps on every loadSample, so a slow create that lost the race is freed
  /** The agent pane: its latest run on the page's workspace, and an A/B pair on their own workspaces. */
  agent: {
    run: null as AgentRun | null,
    /** The page's earlier runs, oldest first (their measures stay comparable: each started from the same documents). */
    earlier: [] as AgentRun[],
    ab: null as { a: AgentRun; b: AgentRun } | null,
  },
};

export function showFatal(message: string | null): void {
  const el = $("fatal");
  el.hidden = message === null;
  el.textContent = message ?? "";
}

export function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

export function showNotice(message: string | null): void {
  const el = $("notice");
  el.hidden = message === null;
  el.textContent = message ?? "";
}

/** What the page did since its workspace was created: a share link encodes it. */
export const recorder = new SessionRecorder();
