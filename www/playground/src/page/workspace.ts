// The workspace lifecycle (create, recreate on a settings change) and tool calls.
import { Workspace, type ToolState, type TranscriptOptions } from "@agentpad/core";
import type { AgentResponse } from "../types";
import type { Sample } from "../samples";
import { PlaygroundStorage } from "../storage";
import { h } from "../render";
import {
  PREFIX,
  $,
  modeSelect,
  localeSelect,
  styleSelect,
  PERSIST_MODES,
  LOCALES,
  CANDIDATE_STYLES,
  MEMORY_TOOLS,
  app,
  showFatal,
  errorText,
  showNotice,
  recorder,
  type WorkspaceSettings,
} from "./state";
import { toolSelect, fillConsole, renderToolInfo, updateRunEnabled, renderQuick } from "./console-pane";
import { renderAll } from "./all-panes";

// ------------------------------------------------------------------ workspace lifecycle

interface LoadOptions {
  /** The documents to start from (path → text, the default document first); default: the sample's. */
  texts?: Record<string, string>;
  /** The document to show afterwards, if it is open. */
  path?: string;
  /** Said in the notice bar once the workspace is ready. */
  notice?: string;
  /** The memory store to carry over (ws.memory.export() of the workspace being replaced). */
  memory?: string;
}

export async function loadSample(sample: Sample, options: LoadOptions = {}): Promise<void> {
  const generation = ++app.generation;
  document.body.dataset.ready = "false";
  app.busy = true;
  updateRunEnabled();
  showFatal(null);
  if (app.ws) {
    app.ws.free();
    app.ws = null;
  }
  app.sample = sample;
  app.history = [];
  app.shown = -1;
  app.selection = null;
  app.pending = { preview: null, changes: [], source: "" };
  app.lastReplaceArgs = null;
  app.storage = null;
  app.seen.clear();
  app.calls = 0;
  showNotice(null);
  try {
    const texts = options.texts ?? { [sample.path]: sample.text };
    const storage = new PlaygroundStorage(texts);
    const ws = await Workspace.create({
      storage,
      persistMode: app.persistMode,
      locale: app.locale,
      candidateStyle: app.candidateStyle,
      memory: app.memory,
    });
    if (options.memory !== undefined) ws.memory.import(options.memory);
    if (generation !== app.generation) {
      ws.free(); // another sample was picked meanwhile
      return;
    }
    app.ws = ws;
    app.storage = storage;
    recorder.begin(texts, currentOptions()); // the share link starts from here
    const paths = ws.paths();
    app.path = options.path && paths.includes(options.path) ? options.path : (paths[0] ?? sample.path);
    await noteSeenVersions();
    // Without `memory: true` the memory tools do not exist (not even hidden).
    refreshTools();
    renderQuick();
    fillConsole(sample.suggested.tool, sample.suggested.args);
  } catch (e) {
    showFatal(`Could not create the workspace: ${errorText(e)}`);
  } finally {
    if (generation === app.generation) app.busy = false;
  }
  if (generation !== app.generation) return;
  if (options.notice && app.ws) showNotice(options.notice);
  renderAll();
  document.body.dataset.ready = app.ws ? "true" : "error";
  document.body.dataset.sample = sample.id;
  document.body.dataset.mode = app.persistMode;
  document.body.dataset.locale = app.locale;
  document.body.dataset.candidateStyle = app.candidateStyle;
  document.body.dataset.memory = String(app.memory);
}

/**
 * Recreates the workspace with `change` (persist mode, locale or candidate style) on the current
 * documents: each document's saved text (in disabled mode the text committed in memory, which
 * storage never saw). Pending changes, the selection, the task stack and the calls are dropped;
 * the page says so. (The core renders the Markdown when a call returns, so a new locale or style
 * shows from the next call on.)
 */
export async function recreateWorkspace(change: Partial<WorkspaceSettings>): Promise<void> {
  const ws = app.ws;
  const storage = app.storage;
  const previousMode = app.persistMode;
  const changed = (Object.keys(change) as (keyof WorkspaceSettings)[]).filter((k) => change[k] !== undefined && change[k] !== app[k]);
  Object.assign(app, change);
  if (!ws || !storage) {
    await loadSample(app.sample);
    return;
  }
  const open = ws.paths();
  const texts: Record<string, string> = {};
  for (const p of [...open, ...(await storage.list()).filter((x) => !open.includes(x))]) {
    const stored = storage.read(p);
    const text = previousMode === "disabled" && open.includes(p) ? ws.text(p) : (stored ?? ws.text(p));
    texts[p] = text;
  }
  const last = app.history[app.history.length - 1]?.response;
  const pending = last ? last.pending_changes.length : 0;
  const dropped = [
    pending > 0 ? `${pending} pending change${pending === 1 ? "" : "s"}` : "",
    app.history.length > 0 ? `${app.history.length} call${app.history.length === 1 ? "" : "s"}` : "",
    last && last.task_stack.length > 0 ? "the task stack" : "",
  ].filter(Boolean);
  const source = previousMode === "disabled" ? "the text committed in memory" : "the saved text";
  const what = changed.map((k) => `${k} "${app[k]}"`).join(", ") || `persistMode "${app.persistMode}"`;
  const fromNext = changed.some((k) => k === "locale" || k === "candidateStyle") ? " The next call's Markdown shows it." : "";
  // The memory store is the host's: it goes over to the new workspace.
  const turns = ws.memory.turns().length;
  const kept = turns > 0 ? ` Kept ${turns} memory turn${turns === 1 ? "" : "s"}.` : "";
  await loadSample(app.sample, {
    texts,
    path: app.path,
    memory: turns > 0 ? ws.memory.export() : undefined,
    notice:
      `Recreated the workspace with ${what} on ${source} of ${Object.keys(texts).join(", ")}` +
      (dropped.length > 0 ? `; dropped ${dropped.join(", ")}.` : ".") +
      fromNext +
      kept,
  });
}

/** Remember the storage versions the workspace has seen (it syncs at the start of every call). */
async function noteSeenVersions(): Promise<void> {
  const storage = app.storage;
  if (!storage) return;
  app.seen.clear();
  for (const p of await storage.list()) app.seen.set(p, storage.version(p));
}

function nextCallId(kind: string): string {
  app.calls += 1;
  return `${kind}_${app.calls}`;
}

export function refreshTools(): void {
  if (!app.ws) return;
  // ws.toolStates(): every tool of the workspace, hidden ones too, with the reason and guidance a
  // call to a hidden one would get (Blocked).
  // Without `memory: true` the memory tools are not offered in any state: left out.
  const states: ToolState[] = app.ws.toolStates().filter((t: ToolState) => app.memory || !MEMORY_TOOLS.has(t.definition.name));
  app.toolStates = new Map(states.map((t) => [t.definition.name, t]));
  for (const t of states) app.tools.set(t.definition.name, t.definition);
  app.allTools = states.map((t) => t.definition.name);
  app.visible = states.filter((t) => t.available).map((t) => t.definition.name);
  const current = toolSelect.value;
  toolSelect.replaceChildren();
  for (const t of states.filter((x) => x.available)) {
    toolSelect.append(h("option", { value: t.definition.name, title: t.definition.description.split("\n")[0] }, t.definition.name));
  }
  const hidden = states.filter((t) => !t.available);
  if (hidden.length > 0) {
    const group = h("optgroup", { label: `hidden in ${app.ws.state} (→ Blocked)` });
    for (const t of hidden) {
      group.append(
        h(
          "option",
          { value: t.definition.name, class: "unavailable", "data-available": "false", title: t.reason ?? "hidden in this state" },
          `${t.definition.name} — hidden`,
        ),
      );
    }
    toolSelect.append(group);
  }
  if (current && app.toolStates.has(current)) toolSelect.value = current;
  renderToolInfo();
}

// ------------------------------------------------------------------ calls

export async function run(tool: string, args: Record<string, unknown>): Promise<void> {
  const ws = app.ws;
  if (!ws || app.busy) return;
  const toolCallId = nextCallId("call");
  await perform(ws, tool, args, args, toolCallId, true, async () => ({
    response: await ws.callUntyped(tool, args, { toolCallId }),
    result: null,
  }));
}

/**
 * A model's tool call run through the package's `ws.runToolCall(call, { format })` (the agent
 * pane's loop), shown in every pane as a console call is. `sent` is the arguments as the model
 * sent them (a string that is not JSON stays a string, so a share link replays the same answer).
 * Null when the page is busy or has no workspace.
 */
export async function runModelToolCall(
  call: unknown,
  format: "openai" | "anthropic",
  described: { tool: string; id: string; sent: unknown },
): Promise<{ result: unknown; response: AgentResponse } | null> {
  const ws = app.ws;
  if (!ws || app.busy) return null;
  let parsed: unknown = described.sent;
  if (typeof parsed === "string") {
    try {
      parsed = parsed.trim() === "" ? {} : JSON.parse(parsed);
    } catch {
      /* kept as sent */
    }
  }
  const args = (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : { "(as sent)": parsed }) as Record<
    string,
    unknown
  >;
  let out: { result: unknown; response: AgentResponse } | null = null;
  // No memo_preview of the page's own between the model's calls: the model's live context would
  // list a call it did not make (the pending diff is the response's own preview, as in a replay).
  await perform(ws, described.tool, args, parsed, described.id, false, async () => {
    let response: AgentResponse | null = null;
    const result = await ws.runToolCall(call as never, { format, onResponse: (r) => (response = r as AgentResponse) });
    if (!response) throw new Error("runToolCall returned without a response");
    out = { result, response };
    return out;
  });
  return out;
}

/** A call on the page's workspace, then the bookkeeping every pane renders from. */
async function perform(
  ws: NonNullable<typeof app.ws>,
  tool: string,
  args: Record<string, unknown>,
  recorded: unknown,
  toolCallId: string,
  previewCalls: boolean,
  invoke: () => Promise<{ response: AgentResponse; result: unknown }>,
): Promise<void> {
  app.busy = true;
  updateRunEnabled();
  document.body.dataset.busy = "true";
  showNotice(null); // a notice announces what the next call will meet; this is that call
  try {
    const { response: r } = await invoke();
    app.history.push({ tool, args, response: r, locale: app.locale, toolCallId });
    recorder.call(tool, recorded);
    app.shown = app.history.length - 1;
    // A MultiMatch, or a NoMatch offering near misses: "use B" repeats it with match_id.
    if (tool.endsWith("_replace") && r.candidates.length > 0) {
      const { match_id: _drop, ...rest } = args;
      app.lastReplaceArgs = rest;
    }
    const paths = ws.paths();
    if (r.path && paths.includes(r.path)) app.path = r.path;
    if (!paths.includes(app.path)) app.path = paths[0] ?? app.path;
    // Candidates are offsets into the draft as it is right after this call.
    if (r.candidates.length > 0) {
      app.selection = {
        path: app.path,
        draft: ws.draft(app.path),
        candidates: r.candidates,
        differs: r.status === "NoMatch" ? r.near_misses : null,
      };
    } else if (ws.state !== "SelectionPending") {
      app.selection = null;
    }
    refreshTools(); // visibility follows the new state
    if (previewCalls) await refreshPending(r, tool);
    else app.pending = { preview: r.status !== "NoMatch" ? r.preview : null, changes: r.pending_changes, source: `from ${tool} (agent)` };
    await noteSeenVersions();
  } catch (e) {
    showFatal(`${tool} failed: ${errorText(e)}`);
  } finally {
    app.busy = false;
    document.body.dataset.busy = "false";
  }
  renderAll();
}

/**
 * The pending diff: the response's own preview; when it has none (a MultiMatch, a read, a refused
 * call) and changes may be pending, ask the core with memo_preview for the document on screen.
 */
async function refreshPending(r: AgentResponse, tool: string): Promise<void> {
  const ws = app.ws;
  if (!ws) return;
  // A NoMatch's preview is what differs (shown under the candidates), not a pending diff.
  if (r.preview !== null && r.preview !== undefined && r.status !== "NoMatch") {
    app.pending = { preview: r.preview, changes: r.pending_changes, source: `from ${tool}` };
    return;
  }
  const previewTool = `${PREFIX}_preview`;
  // A successful memo_preview without a preview already says that nothing is pending.
  const answered = tool === previewTool && (r.status === "Success" || r.status === "NoOp");
  const mayHavePending = ws.state !== "Idle" || r.pending_changes.length > 0;
  if (mayHavePending && !answered && app.visible.includes(previewTool)) {
    const p: AgentResponse = await ws.callUntyped(previewTool, { path: app.path }, { toolCallId: nextCallId("auto_preview") });
    app.pending = { preview: p.preview, changes: p.pending_changes, source: `from ${previewTool} (auto)` };
  } else {
    app.pending = { preview: null, changes: r.pending_changes, source: `from ${tool}` };
  }
}

/** The page's Workspace.create options, as a transcript holds them. */
export function currentOptions(): TranscriptOptions {
  return {
    persistMode: app.persistMode,
    locale: app.locale,
    candidateStyle: app.candidateStyle,
    ...(app.memory ? { memory: true } : {}),
  };
}

/** Take a transcript's options as the page's settings (the header's selects follow). */
export function applyOptions(o: TranscriptOptions): void {
  app.persistMode = PERSIST_MODES.find((m) => m === o.persistMode) ?? "manual";
  app.locale = LOCALES.find((l) => l === o.locale) ?? "en";
  app.candidateStyle = CANDIDATE_STYLES.find((c) => c === o.candidateStyle) ?? "list";
  app.memory = o.memory === true;
  modeSelect.value = app.persistMode;
  localeSelect.value = app.locale;
  styleSelect.value = app.candidateStyle;
}
