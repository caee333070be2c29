// agentpad playground v0: wires the real library (alias `agentpad` → www/src/browser.ts) to the
// page. The page renders what the core returns; it never matches, diffs or formats on its own.
import "./style.css";
import { Workspace, memoryBytes, parseTranscript, recordTranscript } from "@agentpad/core";
import type { ToolState } from "@agentpad/core";
import type {
  AgentResponse,
  Candidate,
  CandidateStyle,
  EditorState,
  JsonSchema,
  LineCol,
  LiveContext,
  LiveContextOptions,
  Locale,
  PendingChange,
  PersistMode,
  ToolDefinition,
} from "./types";
import { SAMPLES, type Sample } from "./samples";
import { argsSkeleton, checkArgs, optionalProps, parseArgs, type CheckedArgs } from "./schema";
import { ArgsEditor } from "./argseditor";
import { PinStore, callKey } from "./history";
import { renderArgsForm } from "./form";
import { PlaygroundStorage, type StorageEvent } from "./storage";
import {
  STATUS_TONE,
  candidateTier,
  h,
  renderBadges,
  renderCandidateList,
  renderJson,
  renderMarkdown,
  renderNearMisses,
  renderNextActions,
  renderPendingChanges,
  renderSessionLog,
  renderTaskStack,
  renderToolChips,
} from "./render";
import {
  formatPos,
  renderLiveContextView,
  renderSectionNav,
  renderTaskTree,
  renderMemory,
  renderTokenMeter,
  type LiveView,
} from "./panes";
import { buildTranscript, estimateMessages, estimateTokens, type HistoryFormat } from "./transcript";
import { DocView } from "./docview";
import { DiffView } from "./diffview";
import { isHostStep, isToolStep } from "@agentpad/core";
import type { HostStep, Transcript, TranscriptOptions } from "@agentpad/core";
import { SessionRecorder } from "./share";
import { initReplayPane, initShareBar, transcriptFromHash, type AdoptedReplay } from "./replay-pane";

const PREFIX = "memo";

function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
}
const sampleSelect = $("sample-select") as HTMLSelectElement;
const pathSelect = $("path-select") as HTMLSelectElement;
const toolSelect = $("tool-select") as HTMLSelectElement;
const runButton = $("run") as HTMLButtonElement;
const argsError = $("args-error");
const modeSelect = $("persist-mode") as HTMLSelectElement;
const localeSelect = $("locale") as HTMLSelectElement;
const styleSelect = $("candidate-style") as HTMLSelectElement;
const externalLine = $("external-line") as HTMLInputElement;
const externalText = $("external-text") as HTMLTextAreaElement;
const memoryToggle = $("memory-tools") as HTMLInputElement;

const PERSIST_MODES: readonly PersistMode[] = ["manual", "immediate", "disabled"];
const MODE_HINT: Record<PersistMode, string> = {
  manual: "commit saves",
  immediate: "each edit saves",
  disabled: "in memory only",
};
const LOCALES: readonly Locale[] = ["en", "zh"];
const CANDIDATE_STYLES: readonly CandidateStyle[] = ["table", "list"];
/** The `lang` of the Markdown views (the core's zh words are Simplified Chinese). */
const LANG: Record<Locale, string> = { en: "en", zh: "zh-Hans" };

/** The options the page passes to Workspace.create; changing any of them recreates the workspace. */
interface WorkspaceSettings {
  persistMode: PersistMode;
  locale: Locale;
  candidateStyle: CandidateStyle;
  /** `memory: true`: the workspace offers memo_recall_context and memo_search_memory. */
  memory: boolean;
}

/** The tools only a workspace created with `memory: true` offers. */
const MEMORY_TOOLS = new Set([`${PREFIX}_recall_context`, `${PREFIX}_search_memory`]);

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
  /** A NoMatch's preview: the closest regions and what differs. */
  differs: string | null;
}

interface PendingView {
  preview: string | null;
  changes: PendingChange[];
  source: string;
}

const app = {
  ws: null as Workspace | null,
  storage: null as PlaygroundStorage | null,
  persistMode: "manual" as PersistMode,
  locale: "en" as Locale,
  candidateStyle: "table" as CandidateStyle,
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
};

// The document and diff views (CodeMirror 6: src/docview.ts, src/diffview.ts), made once and
// updated in place by renderDocPanel / renderPendingPanel.
const docView = new DocView($("doc"), {
  label: "Document (draft), read-only: move the cursor or select to set the editor state",
  onSelect: (anchor, head) => editorStateFromDocument(anchor, head),
});
const pendingDiff = new DiffView({ label: "Pending diff", testid: "pending-preview", emptyText: "(no pending changes)" });
$("pending-diff").replaceChildren(pendingDiff.dom);
// The console's raw JSON arguments (src/argseditor.ts): lint from JSON.parse and the tool's schema.
const argsEditor = new ArgsEditor($("args"), {
  label: "Arguments (JSON)",
  testid: "args-input",
  check: (text) => checkArgs(text, currentTool()?.input_schema as JsonSchema | undefined).problems,
  onChange: () => {
    validateArgs();
    renderForm();
  },
  onRun: () => runConsole(),
});

// ------------------------------------------------------------------ errors

function showFatal(message: string | null): void {
  const el = $("fatal");
  el.hidden = message === null;
  el.textContent = message ?? "";
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

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

async function loadSample(sample: Sample, options: LoadOptions = {}): Promise<void> {
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
async function recreateWorkspace(change: Partial<WorkspaceSettings>): Promise<void> {
  const ws = app.ws;
  const storage = app.storage;
  const previousMode = app.persistMode;
  const changed = (Object.keys(change) as (keyof WorkspaceSettings)[]).filter(
    (k) => change[k] !== undefined && change[k] !== app[k],
  );
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

function refreshTools(): void {
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

async function run(tool: string, args: Record<string, unknown>): Promise<void> {
  const ws = app.ws;
  if (!ws || app.busy) return;
  app.busy = true;
  updateRunEnabled();
  document.body.dataset.busy = "true";
  showNotice(null); // a notice announces what the next call will meet; this is that call
  try {
    const toolCallId = nextCallId("call");
    const r: AgentResponse = await ws.callUntyped(tool, args, { toolCallId });
    app.history.push({ tool, args, response: r, locale: app.locale, toolCallId });
    recorder.call(tool, args);
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
        differs: r.status === "NoMatch" ? r.preview : null,
      };
    } else if (ws.state !== "SelectionPending") {
      app.selection = null;
    }
    refreshTools(); // visibility follows the new state
    await refreshPending(r, tool);
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

// ------------------------------------------------------------------ console

function currentTool(): ToolDefinition | undefined {
  return app.tools.get(toolSelect.value);
}

function fillConsole(tool: string, args: Record<string, unknown> | null): void {
  if (app.tools.has(tool)) toolSelect.value = tool;
  renderToolInfo();
  const def = currentTool();
  argsEditor.setText(JSON.stringify(args ?? argsSkeleton(def?.input_schema), null, 2));
  validateArgs();
  renderForm();
}

function renderToolInfo(): void {
  const def = currentTool();
  $("tool-desc").textContent = def ? def.description : "";
  const opt = optionalProps(def?.input_schema);
  $("tool-optional").textContent = opt.length > 0 ? `optional: ${opt.join(", ")}` : "";
  const warn = $("tool-hidden");
  const name = toolSelect.value;
  const hidden = app.ws !== null && name !== "" && !app.visible.includes(name);
  const st = app.toolStates.get(name);
  warn.hidden = !hidden;
  warn.textContent = hidden
    ? `${name} is hidden in state ${app.ws?.state}: ${st?.reason ?? "not offered now."}` +
      (st?.guidance ? ` ${st.guidance}` : "") +
      " Running it returns Blocked (with what to call instead)."
    : "";
  toolSelect.classList.toggle("unavailable", hidden);
  toolSelect.dataset.available = String(!hidden);
  if (hidden) toolSelect.setAttribute("aria-describedby", "tool-hidden");
  else toolSelect.removeAttribute("aria-describedby");
}

/** The argument form, from the tool's schema, showing what the JSON textarea holds. */
function renderForm(): void {
  const parsed = parseArgs(argsEditor.text);
  const schema = currentTool()?.input_schema as JsonSchema | undefined;
  $("args-form-wrap").replaceChildren(
    renderArgsForm(schema, parsed.ok ? parsed.value : null, (name, value) => {
      const now = parseArgs(argsEditor.text);
      if (!now.ok) return;
      const next = { ...now.value };
      if (value === undefined) delete next[name];
      else next[name] = value;
      argsEditor.setText(JSON.stringify(next, null, 2));
      validateArgs();
    }),
  );
}

/** The console's arguments checked against the selected tool's schema (ajv; src/schema.ts). */
function checkConsole(): CheckedArgs {
  return checkArgs(argsEditor.text, currentTool()?.input_schema as JsonSchema | undefined);
}

function validateArgs(): boolean {
  const checked = checkConsole();
  argsError.textContent = checked.ok ? "" : checked.problems.map((p) => p.message).join("; ");
  argsEditor.setInvalid(!checked.ok);
  argsEditor.relint(); // the schema may have changed with the tool
  updateRunEnabled();
  return checked.ok;
}

function updateRunEnabled(): void {
  const checked = checkConsole();
  runButton.disabled = !checked.ok || app.busy || !app.ws || toolSelect.value === "";
  // Recreating the workspace while a call or a create is under way would free it under that call.
  for (const select of [modeSelect, localeSelect, styleSelect, sampleSelect, memoryToggle]) select.disabled = app.busy;
}

function runConsole(): void {
  const checked = checkConsole();
  if (!checked.ok || runButton.disabled) return;
  void run(toolSelect.value, checked.value);
}

function renderQuick(): void {
  const quick = $("quick");
  quick.replaceChildren();
  const fill = (label: string, tool: string, args: Record<string, unknown> | null, testid: string) => {
    const b = h(
      "button",
      { type: "button", "data-testid": testid, title: `fill the console with ${tool}`, disabled: !app.tools.has(tool) },
      label,
    );
    b.addEventListener("click", () => fillConsole(`${tool}`, args));
    quick.append(b);
  };
  const act = (label: string, tool: string, args: Record<string, unknown>, testid: string, cls: string) => {
    const b = h("button", { type: "button", class: cls, "data-testid": testid, title: `run ${tool} now` }, label);
    b.addEventListener("click", () => void run(tool, args));
    quick.append(b);
  };
  const s = app.sample.suggested;
  const a = s.args as { old_text?: string; new_text?: string };
  const short = (t: string) => {
    const first = t.split("\n")[0] ?? "";
    return first.length > 40 ? `${first.slice(0, 39)}…` : first + (t.includes("\n") ? " ⏎…" : "");
  };
  fill(`${short(a.old_text ?? s.tool)} → ${short(a.new_text ?? "")}`, s.tool, s.args, "quick-suggested");
  (app.sample.extra ?? []).forEach((x, i) => fill(x.label, x.tool, x.args, `quick-extra-${i}`));
  fill("read", `${PREFIX}_read`, {}, "quick-read");
  fill("read lines 40–50", `${PREFIX}_read`, { start_line: 40, end_line: 50 }, "quick-read-range");
  fill("preview", `${PREFIX}_preview`, {}, "quick-preview");
  act("Commit", `${PREFIX}_commit`, { summary: "playground commit" }, "quick-commit", "ok");
  act("Revert", `${PREFIX}_revert`, { reason: "playground revert" }, "quick-revert", "bad");
}

// ------------------------------------------------------------------ rendering

function renderAll(): void {
  const ws = app.ws;
  $("workflow-state").textContent = ws ? ws.state : "–";
  $("workflow-state").dataset.state = ws ? ws.state : "";
  try {
    const bytes = memoryBytes();
    $("memory-meter").textContent = `${(bytes / 1024).toFixed(0)} KiB`;
  } catch {
    $("memory-meter").textContent = "–";
  }
  renderWorkflowPanel();
  renderDocPanel();
  renderPendingPanel();
  renderResponsePanel();
  renderContextPanes();
  renderToolInfo();
  updateRunEnabled();
}

function showNotice(message: string | null): void {
  const el = $("notice");
  el.hidden = message === null;
  el.textContent = message ?? "";
}

function describeEvent(e: StorageEvent): HTMLElement {
  switch (e.kind) {
    case "external":
      return h("li", { class: "ev external" }, h("span", { class: "tag warn" }, "external write"), ` ${e.path} → ${e.version}`);
    case "saved":
      return h("li", { class: "ev saved" }, h("span", { class: "tag ok" }, "saved"), ` ${e.path} → ${e.version}`);
    case "failed":
      return h("li", { class: "ev failed", title: e.error ?? "" }, h("span", { class: "tag bad" }, "save failed"), ` ${e.path}: ${e.error ?? ""}`);
  }
}

/** State, mode, flags, last call, pending changes, storage, task stack and tools in one place. */
function renderWorkflowPanel(): void {
  const ws = app.ws;
  const storage = app.storage;
  const state = ws ? ws.state : "–";
  const last = app.history[app.history.length - 1];
  const r = last?.response;

  const st = $("wf-state");
  st.textContent = state;
  st.dataset.state = ws ? ws.state : "";
  const mode = $("wf-mode");
  mode.textContent = app.persistMode;
  mode.dataset.mode = app.persistMode;
  $("mode-hint").textContent = MODE_HINT[app.persistMode];

  const flags = r?.flags.names ?? [];
  $("wf-flags").replaceChildren(
    ...(r === undefined
      ? [h("span", { class: "muted small" }, "(no call yet)")]
      : flags.length === 0
        ? [h("span", { class: "badge muted", "data-testid": "wf-flag" }, "-")]
        : flags.map((f) => h("span", { class: `badge flag flag-${f}`, "data-testid": "wf-flag" }, f))),
    ...(r ? [h("span", { class: "muted small", title: "flags.mask" }, ` mask ${r.flags.mask}`)] : []),
  );

  $("wf-last").replaceChildren(
    ...(last && r
      ? [
          h("span", { class: "mono small" }, `#${app.history.length} ${last.tool}`),
          " → ",
          h("span", { class: `badge ${STATUS_TONE[r.status] ?? "muted"}`, "data-testid": "wf-status" }, r.status),
          h("span", { class: "wf-summary", "data-testid": "wf-summary", title: r.summary }, r.summary),
        ]
      : [h("span", { class: "muted small" }, "(none)")]),
  );

  const changes = app.pending.changes;
  const pend = $("wf-pending");
  pend.dataset.count = String(changes.length);
  pend.replaceChildren(
    h("span", { class: "label" }, "pending"),
    changes.length === 0
      ? h("span", { class: "muted small" }, " none")
      : h(
          "span",
          { class: "wf-pending-list" },
          ` ${changes.length}: `,
          ...changes.map((c) =>
            h(
              "span",
              { class: "wf-change", title: `${c.old_text} → ${c.new_text}` },
              h("span", { class: "cand-badge" }, c.change_id),
              `${c.path}:${c.line} (${c.delta >= 0 ? "+" : ""}${c.delta})`,
            ),
          ),
        ),
  );

  // Storage: each document's stored version and how it relates to the workspace.
  const rows = h("div", { class: "wf-storage-rows" });
  if (ws && storage) {
    const open = ws.paths();
    const stored = [...app.seen.keys(), ...open.filter((p) => !app.seen.has(p))];
    for (const p of stored) {
      const version = storage.version(p);
      const tags: HTMLElement[] = [];
      if (version !== app.seen.get(p)) {
        tags.push(
          h(
            "span",
            { class: "tag warn", "data-testid": "storage-unseen", title: "the workspace reads it at the start of the next call" },
            "changed outside · the next call sees it",
          ),
        );
      } else if (open.includes(p) && storage.normalized(p) !== ws.text(p)) {
        tags.push(
          h(
            "span",
            { class: "tag muted", "data-testid": "storage-differs" },
            app.persistMode === "disabled" ? "differs: commits stay in memory" : "differs from the committed text",
          ),
        );
      }
      rows.append(
        h(
          "div",
          { class: `wf-doc${p === app.path ? " on-screen" : ""}`, "data-path": p },
          h("span", { class: "mono" }, p),
          h("span", { class: "badge small", "data-testid": "storage-version", title: "storage version" }, version ?? "(removed)"),
          h("span", { class: "muted small" }, `${(storage.read(p) ?? "").length} chars`),
          ...tags,
        ),
      );
    }
    if (storage.armedSaveFailures > 0) {
      rows.append(
        h(
          "div",
          { class: "wf-doc" },
          h(
            "span",
            { class: "tag bad", "data-testid": "armed-failures" },
            `next save fails${storage.armedSaveFailures > 1 ? ` (×${storage.armedSaveFailures})` : ""}`,
          ),
        ),
      );
    }
  }
  $("wf-storage").replaceChildren(rows);
  // The hand editor starts from what storage holds when it is opened (its toggle handler fills it;
  // kept while it is open and being edited). Closed, it holds nothing: a 10 MB text in a hidden
  // textarea made every later layout of the page slow.
  if (!($("external-edit") as HTMLDetailsElement).open) externalText.value = "";
  const events = storage ? storage.events.slice(-5) : [];
  $("wf-storage-log").replaceChildren(...events.map(describeEvent));
  const busy = app.busy || !ws;
  ($("external-write") as HTMLButtonElement).disabled = busy;
  ($("external-write-text") as HTMLButtonElement).disabled = busy;
  ($("fail-next-save") as HTMLButtonElement).disabled = busy;

  $("tasks").replaceChildren(renderTaskStack(r ? r.task_stack : []));

  $("wf-tools-count").textContent = ws ? `${app.visible.length} of ${app.allTools.length} visible in ${state}` : "";
  $("wf-tools").replaceChildren(
    renderToolChips(app.allTools, app.visible, state, (tool) => {
      fillConsole(tool, null);
      toolSelect.focus();
    }, new Map([...app.toolStates].map(([n, t]) => [n, t.reason]))),
  );
}

// ------------------------------------------------------------------ storage actions

/** storage.write(path, text): another program changed the document on screen. */
function writeExternally(text: string, what: string): void {
  const storage = app.storage;
  if (!storage || !app.ws || app.busy) return;
  const path = app.path;
  const version = storage.write(path, text);
  recorder.host({ host: "write", path, text });
  const pending = app.ws.draft(path) !== app.ws.text(path);
  showNotice(
    `storage.write("${path}", …) → ${version} (${what}). The next tool call sees it: ` +
      (pending
        ? "changes are pending, so expect ExternalConflict (state OutOfSync; commit blocked until memo_rebase, memo_refresh or memo_discard)."
        : "nothing is pending, so the workspace reloads it silently and says so in that call's summary."),
  );
  renderWorkflowPanel();
}

function simulateExternalWrite(): void {
  const storage = app.storage;
  if (!storage) return;
  const current = storage.read(app.path) ?? "";
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const sep = current === "" || current.endsWith("\n") ? "" : eol;
  const line = externalLine.value;
  writeExternally(current + sep + line + eol, `appended ${JSON.stringify(line)}`);
}

function failNextSave(): void {
  const storage = app.storage;
  if (!storage || app.busy) return;
  storage.failNext("save");
  recorder.host({ host: "failNextSave" });
  showNotice(
    `storage.failNext("save"): the next save rejects (${storage.armedSaveFailures} armed). ` +
      (app.persistMode === "disabled"
        ? "Persist mode is disabled, so nothing saves until you switch modes."
        : app.persistMode === "immediate"
          ? "In immediate mode the next successful edit saves: expect PersistFailure, state OutOfSync."
          : "Commit something: expect PersistFailure, state OutOfSync, the draft kept whole."),
  );
  renderWorkflowPanel();
}

function renderDocPanel(): void {
  const ws = app.ws;
  const cands = $("candidates");
  pathSelect.replaceChildren();
  if (!ws) {
    docView.setText("");
    cands.replaceChildren();
    $("doc-meta").textContent = "";
    return;
  }
  const paths = ws.paths();
  for (const p of paths) pathSelect.append(h("option", { value: p }, p));
  pathSelect.value = app.path;
  pathSelect.disabled = paths.length < 2;
  const draft = ws.draft(app.path);
  // Highlights only while the selection is live and refers to exactly this draft.
  const sel = app.selection;
  const live = sel !== null && ws.state === "SelectionPending" && sel.path === app.path && sel.draft === draft;
  // The CodeMirror view (src/docview.ts) is updated in place: the text, then its decorations.
  docView.setText(draft);
  docView.setCandidates(live ? sel.candidates : []);
  docView.setPending(app.pending.changes, app.path);
  cands.replaceChildren();
  if (live) {
    const list = renderCandidateList(sel.candidates);
    const selectTool = `${PREFIX}_replace_selection`;
    const canStage = app.visible.includes(selectTool);
    list.querySelectorAll<HTMLTableRowElement>("tbody tr[data-candidate]").forEach((row) => {
      const c = sel.candidates.find((x) => x.id === row.dataset.candidate);
      const cell = row.querySelector(".actions");
      if (!c || !cell || c.stale) return;
      // Stage it now: memo_replace_selection with the new_text given with the search.
      if (canStage) {
        const stage = h(
          "button",
          {
            type: "button",
            class: `chip stage tier-${candidateTier(c)}`,
            "data-testid": `stage-candidate-${c.id}`,
            title: `run ${selectTool}({ selection_id: "${c.id}" }) now`,
          },
          `stage ${c.id}`,
        );
        stage.addEventListener("click", () => void run(selectTool, { selection_id: c.id }));
        cell.append(stage);
      }
      // Or fill the console with the last replace plus its match_id.
      if (app.lastReplaceArgs) {
        const use = h(
          "button",
          { type: "button", class: "chip", "data-testid": `use-candidate-${c.id}`, title: "fill the console with match_id" },
          `use ${c.id}`,
        );
        use.addEventListener("click", () => fillConsole(`${PREFIX}_replace`, { ...app.lastReplaceArgs, match_id: c.id }));
        cell.append(use);
      }
    });
    const tiers = new Set(sel.candidates.map((c) => candidateTier(c)));
    const note = tiers.has("near")
      ? "near misses: no match at any tier; stage one only if it is the place you meant"
      : tiers.has("fuzzy")
        ? "fuzzy matches: found only after normalising whitespace, indentation or look-alikes"
        : "";
    cands.append(
      h("h3", {}, "Candidates", note ? h("span", { class: "cand-note", "data-testid": "candidates-note" }, ` · ${note}`) : null),
      list,
    );
    if (sel.differs) cands.append(h("h3", {}, "What differs"), renderNearMisses(sel.differs));
  }
  const lines = draft === "" ? 0 : docView.lines - (draft.endsWith("\n") ? 1 : 0);
  const changed = draft !== ws.text(app.path);
  $("doc-meta").textContent = `${app.path} · ${lines} lines · ${draft.length} chars${changed ? " · modified" : ""}`;
}

function renderPendingPanel(): void {
  pendingDiff.set(app.pending.preview);
  $("pending-list").replaceChildren(renderPendingChanges(app.pending.changes));
  $("pending-source").textContent = app.pending.source;
}

/** How many earlier calls the Basic column lists (most recent last). */
const BASIC_HISTORY = 4;

function renderResponsePanel(): void {
  const rec = app.history[app.shown];
  const badges = $("response-badges");
  const md = $("response-markdown");
  const basic = $("response-basic");
  const json = $("response-json");
  const next = $("next-actions");
  const earlier = $("basic-history");
  earlier.replaceChildren();
  if (!rec) {
    badges.replaceChildren(h("span", { class: "muted" }, "No call yet: pick a tool and press Run."));
    md.replaceChildren();
    json.replaceChildren();
    next.replaceChildren();
    basic.textContent = "";
    $("response-tool").textContent = "";
  } else {
    const r = rec.response;
    const lang = LANG[rec.locale];
    badges.replaceChildren(renderBadges(r));
    // Shown as the text the model keeps (not rendered): it is one line of Markdown source.
    basic.textContent = r.markdown_basic;
    basic.setAttribute("lang", lang);
    const latest = app.shown === app.history.length - 1;
    $("response-tool").textContent =
      `#${app.shown + 1} ${rec.tool}` + (latest ? "" : ` · not the latest (#${app.history.length})`);
    const view = renderMarkdown(r.markdown);
    view.setAttribute("lang", lang);
    md.replaceChildren(view);
    json.replaceChildren(renderJson(r));
    next.replaceChildren(renderNextActions(r.next_actions, (tool) => fillConsole(tool, null)));
    // The calls before it, as an agent's history would keep them: one Basic line each.
    const from = Math.max(0, app.shown - BASIC_HISTORY);
    if (from > 0) earlier.append(h("li", { class: "muted more" }, `… ${from} earlier`));
    for (let i = from; i < app.shown; i++) {
      const c = app.history[i];
      const item = h(
        "li",
        { lang: LANG[c.locale], title: c.response.markdown_basic, "data-call": i + 1 },
        h("span", { class: "call-no" }, `#${i + 1}`),
        c.response.markdown_basic,
      );
      item.addEventListener("click", () => {
        app.shown = i;
        renderResponsePanel();
      });
      earlier.append(item);
    }
  }
  $("basic-history-wrap").hidden = earlier.childElementCount === 0;
  renderCallHistory();
  const log = rec?.response.session_log ?? null;
  const logWrap = $("session-log-wrap");
  logWrap.hidden = log === null;
  $("session-log").replaceChildren(log === null ? "" : renderSessionLog(log));
}

// ------------------------------------------------------------------ call history

const pins = new PinStore();

function shortArgs(args: Record<string, unknown>): string {
  const t = JSON.stringify(args);
  return t.length > 60 ? `${t.slice(0, 59)}…` : t;
}

/** ★ / ✎ / ↻ for a call (pinned or from this workspace). */
function callActions(tool: string, args: Record<string, unknown>, status: string, what: string): HTMLElement[] {
  const pinned = pins.has(tool, args);
  const pin = h(
    "button",
    {
      type: "button",
      class: `icon pin${pinned ? " on" : ""}`,
      "data-testid": "pin-call",
      "aria-pressed": String(pinned),
      "aria-label": `Pin ${what}`,
      title: pinned ? "Unpin" : "Pin: keep it at the top, across samples and workspaces",
    },
    pinned ? "★" : "☆",
  );
  pin.addEventListener("click", () => {
    pins.toggle(tool, args, status);
    renderCallHistory();
    (document.querySelector<HTMLElement>(`[data-key="${CSS.escape(callKey(tool, args))}"] [data-testid="pin-call"]`) ?? $("history-title")).focus();
  });
  const edit = h("button", { type: "button", class: "icon", "data-testid": "edit-call", "aria-label": `Put ${what} in the console`, title: "Put it in the console" }, "✎");
  edit.addEventListener("click", () => {
    fillConsole(tool, args);
    toolSelect.focus();
  });
  const again = h("button", { type: "button", class: "icon", "data-testid": "replay-call", "aria-label": `Run ${what} again`, title: "Run it again on this workspace" }, "↻");
  again.addEventListener("click", () => {
    fillConsole(tool, args);
    void run(tool, args);
  });
  again.toggleAttribute("disabled", app.busy || !app.ws);
  return [pin, edit, again];
}

/** The pinned calls (top) and this workspace's calls: tool → status, the arguments, ★ ✎ ↻. */
function renderCallHistory(): void {
  $("pinned-calls").replaceChildren(
    ...pins.list.map((p, i) =>
      h(
        "li",
        { class: "call pinned", "data-key": callKey(p.tool, p.args), "data-testid": "pinned-call" },
        h("span", { class: "chip call-chip", "data-testid": "pinned-chip", title: `status when pinned: ${p.status}` }, `${p.tool} → ${p.status}`),
        h("code", { class: "call-args", title: JSON.stringify(p.args, null, 2) }, shortArgs(p.args)),
        ...callActions(p.tool, p.args, p.status, `pinned call ${i + 1} (${p.tool})`),
      ),
    ),
  );
  const hist = $("history");
  hist.replaceChildren(
    ...app.history.map((c, i) => {
      const b = h(
        "button",
        { type: "button", class: `chip call-chip${i === app.shown ? " active" : ""}`, "data-testid": "history-chip", title: "Show its response", "aria-pressed": String(i === app.shown) },
        `${c.tool} → ${c.response.status}`,
      );
      b.addEventListener("click", () => {
        app.shown = i;
        renderResponsePanel();
      });
      return h(
        "li",
        { class: "call", "data-call": i + 1, "data-key": callKey(c.tool, c.args) },
        b,
        h("code", { class: "call-args", title: JSON.stringify(c.args, null, 2) }, shortArgs(c.args)),
        ...callActions(c.tool, c.args, c.response.status, `call #${i + 1} (${c.tool})`),
      );
    }),
  );
  ($("history-export") as HTMLButtonElement).disabled = app.busy || !app.ws;
}

function historyMessage(text: string, bad = false): void {
  const el = $("history-message");
  el.textContent = text;
  el.classList.toggle("args-error", bad);
}

let exportUrl: string | null = null;

/**
 * Export: the page's session (src/share.ts's recorder: the documents the workspace started from,
 * its options, the calls and storage actions in order) with each call's answer recorded by
 * recordTranscript() — an agentpad-transcript/1 file the Replay pane, `npx agentpad replay` and
 * Import load. Downloaded through a Blob URL and shown under the list.
 */
async function exportHistory(): Promise<void> {
  let t: Transcript;
  try {
    t = await recordTranscript(recorder.transcript());
  } catch (e) {
    historyMessage(`Export failed: ${errorText(e)}`, true);
    return;
  }
  t.title = `agentpad playground history (${app.history.length} call${app.history.length === 1 ? "" : "s"})`;
  const text = `${JSON.stringify(t, null, 2)}\n`;
  if (exportUrl) URL.revokeObjectURL(exportUrl);
  exportUrl = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = $("history-download") as HTMLAnchorElement;
  link.href = exportUrl;
  $("history-export-json").textContent = text;
  const view = $("history-export-view") as HTMLDetailsElement;
  view.hidden = false;
  view.open = true;
  const a = h("a", { href: exportUrl, download: "agentpad-history.json", hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  historyMessage(`Exported ${app.history.length} call${app.history.length === 1 ? "" : "s"} as agentpad-history.json (${text.length.toLocaleString("en")} characters, ${t.format}).`);
}

/** Import: an exported history (any agentpad-transcript/1): its documents and options, its calls run in order. */
async function importHistory(file: File): Promise<void> {
  let t: Transcript;
  try {
    t = parseTranscript(JSON.parse(await file.text()));
  } catch (e) {
    historyMessage(`Import refused: ${file.name}: ${errorText(e)}`, true);
    return;
  }
  await openShared(t, `Imported ${file.name}`);
  historyMessage(`Imported ${file.name}: ${app.history.length} call${app.history.length === 1 ? "" : "s"} run in order.`);
}

$("history-export").addEventListener("click", () => void exportHistory());
const importInput = $("history-import") as HTMLInputElement;
importInput.addEventListener("change", () => {
  const file = importInput.files?.[0];
  importInput.value = "";
  if (file) void importHistory(file);
});

// ------------------------------------------------------------------ agent context panes

const cursorLine = $("cursor-line") as HTMLInputElement;
const cursorColumn = $("cursor-column") as HTMLInputElement;
const anchorLine = $("sel-anchor-line") as HTMLInputElement;
const anchorColumn = $("sel-anchor-column") as HTMLInputElement;
const headLine = $("sel-head-line") as HTMLInputElement;
const headColumn = $("sel-head-column") as HTMLInputElement;
const editorForm = $("editor-form") as HTMLFormElement;
const editorError = $("editor-error");
const lcRecent = $("lc-recent") as HTMLInputElement;
const lcAnchor = $("lc-anchor") as HTMLSelectElement;
const lcMaxDoc = $("lc-max-doc") as HTMLInputElement;

function renderContextPanes(): void {
  renderLiveContextPane();
  renderTaskTreePane();
  renderTokenMeterPane();
  renderMemoryPane();
}

/** The user's request that opens the transcript (in the workspace's locale). */
function userRequest(): string {
  return app.locale === "zh"
    ? `请用 ${PREFIX}_* 工具编辑 ${app.sample.path}。`
    : `Please edit ${app.sample.path} with the ${PREFIX}_* tools.`;
}

// ---- editor state

function setPos(line: HTMLInputElement, column: HTMLInputElement, p: LineCol | null | undefined): void {
  line.value = p ? String(p.line) : "";
  column.value = p ? String(p.column) : "";
}

/** A position from two inputs: null when both are empty (the core checks the numbers). */
function readPos(line: HTMLInputElement, column: HTMLInputElement, what: string): LineCol | null {
  const l = line.value.trim();
  const c = column.value.trim();
  if (l === "" && c === "") return null;
  if (l === "") throw new Error(`${what}: give a line too`);
  return { line: Number(l), column: c === "" ? 1 : Number(c) };
}

/**
 * ws.setEditorState({ path: the document on screen, …state }); with `fill`, the inputs show the
 * state first. A position the core refuses is said under the form (the state is unchanged then).
 */
function setEditorState(state: Omit<EditorState, "path">, { fill = false } = {}): boolean {
  const ws = app.ws;
  if (!ws) return false;
  if (fill) {
    setPos(cursorLine, cursorColumn, state.cursor);
    setPos(anchorLine, anchorColumn, state.selection?.anchor);
    setPos(headLine, headColumn, state.selection?.head);
  }
  try {
    ws.setEditorState({ path: app.path, ...state });
    editorError.textContent = "";
    return true;
  } catch (e) {
    editorError.textContent = `ws.setEditorState refused: ${errorText(e)}`;
    return false;
  }
}

function applyEditorForm(): void {
  let state: Omit<EditorState, "path">;
  try {
    const cursor = readPos(cursorLine, cursorColumn, "cursor");
    const anchor = readPos(anchorLine, anchorColumn, "selection from");
    const head = readPos(headLine, headColumn, "selection to");
    if ((anchor === null) !== (head === null)) throw new Error("a selection needs both ends (from and to)");
    state = {
      ...(cursor ? { cursor } : {}),
      ...(anchor && head ? { selection: { anchor, head } } : {}),
    };
  } catch (e) {
    editorError.textContent = e instanceof Error ? e.message : String(e);
    return;
  }
  if (setEditorState(state)) renderLiveContextPane();
}

/** The cursor / selection the user set in the document view (anchor === head: a plain cursor). */
function editorStateFromDocument(anchor: LineCol, head: LineCol): void {
  const same = anchor.line === head.line && anchor.column === head.column;
  if (setEditorState(same ? { cursor: head } : { cursor: head, selection: { anchor, head } }, { fill: true })) {
    renderLiveContextPane();
  }
}

/** The editor state the core reports, on the document view: the cursor's line and the selected lines. */
function markDocumentCursor(e: LiveContext["json"]["editor_state"] | null): void {
  docView.showEditorState(e && e.active_path === app.path ? e : null);
}

// ---- live context

function liveOptions(): LiveContextOptions {
  const o: LiveContextOptions = { path: app.path };
  const recent = lcRecent.value.trim();
  if (recent !== "") o.recentDiffs = Number(recent);
  const anchor = lcAnchor.value;
  o.anchor = anchor === "origin" || anchor === "none" ? anchor : { commitsBack: Number(anchor) };
  const max = lcMaxDoc.value.trim();
  if (max !== "") o.maxDocumentChars = Number(max);
  return o;
}

function renderLiveContextPane(): void {
  const ws = app.ws;
  const view = $("lc-view");
  const meta = $("lc-meta");
  if (!ws) {
    view.replaceChildren();
    meta.replaceChildren();
    $("lc-sections-wrap").replaceChildren();
    return;
  }
  let lc: LiveContext;
  try {
    lc = ws.liveContext(liveOptions());
  } catch (e) {
    view.replaceChildren(h("p", { class: "args-error", "data-testid": "live-context-error" }, `ws.liveContext refused: ${errorText(e)}`));
    meta.replaceChildren();
    $("lc-sections-wrap").replaceChildren();
    markDocumentCursor(null);
    return;
  }
  const shown = renderLiveContextView(lc, app.liveView, LANG[app.locale]);
  view.replaceChildren(shown);
  view.dataset.view = app.liveView;
  // Section links: scroll the view to a part (its span in the raw text, its heading rendered).
  $("lc-sections-wrap").replaceChildren(
    app.liveView === "json"
      ? ""
      : renderSectionNav(lc, LANG[app.locale], (i) => {
          const target =
            app.liveView === "markdown"
              ? shown.querySelector<HTMLElement>(`[data-part="${i}"]`)
              : shown.querySelectorAll<HTMLElement>("h1, h2")[i];
          if (target) shown.scrollTop = target.offsetTop - 6;
        }),
  );
  const e = lc.json.editor_state;
  const editor = [
    e.cursor ? `cursor ${formatPos(e.cursor)}` : "no cursor",
    e.selection ? `selection ${formatPos(e.selection.anchor)} → ${formatPos(e.selection.head)}` : "",
  ].filter(Boolean);
  meta.replaceChildren(
    h("span", {}, `${lc.markdown.length.toLocaleString("en")} chars · ~${estimateTokens(lc.markdown).toLocaleString("en")} tokens · ${lc.content_parts.length} content parts`),
    " · editor: ",
    h("span", { class: "mono", "data-testid": "lc-editor-state" }, `${e.active_path} ${editor.join(", ")}`),
  );
  // The inputs show what the core holds (it drops a position the draft no longer has), unless
  // the user is typing in them.
  if (!editorForm.contains(document.activeElement)) {
    setPos(cursorLine, cursorColumn, e.cursor);
    setPos(anchorLine, anchorColumn, e.selection?.anchor);
    setPos(headLine, headColumn, e.selection?.head);
  }
  markDocumentCursor(e);
}

// ---- task tree

function renderTaskTreePane(): void {
  const ws = app.ws;
  $("task-tree").replaceChildren(ws ? renderTaskTree(ws.tasks(), LANG[app.locale]) : "");
}

// ---- token meter

function renderTokenMeterPane(): void {
  const ws = app.ws;
  const out = $("token-meter");
  if (!ws) {
    out.replaceChildren();
    return;
  }
  const format = app.historyFormat;
  const calls = app.history.map((c) => ({ toolCallId: c.toolCallId, tool: c.tool, args: c.args, markdown: c.response.markdown }));
  const transcript = buildTranscript(userRequest(), calls, format);
  let compressed = transcript;
  let removed = 0;
  let saved = 0;
  let sessions: number[] = [];
  let error: string | null = null;
  try {
    const c = ws.compressHistory(transcript, { format });
    compressed = c.messages;
    removed = c.messages_removed;
    saved = c.tokens_saved;
    sessions = c.sessions;
  } catch (e) {
    error = errorText(e);
  }
  const before = estimateMessages(transcript);
  out.replaceChildren(
    renderTokenMeter({
      format,
      before: { messages: transcript.length, tokens: before },
      after: { messages: compressed.length, tokens: Math.max(0, before - saved) },
      messagesRemoved: removed,
      tokensSaved: saved,
      sessions,
      transcript,
      compressed,
      error,
    }),
  );
}

// ---- memory

const memSummary = $("mem-summary") as HTMLInputElement;
const memContext = $("mem-context") as HTMLTextAreaElement;
const memInsights = $("mem-insights") as HTMLInputElement;
const memTags = $("mem-tags") as HTMLInputElement;
const memError = $("mem-error");

function renderMemoryPane(): void {
  const ws = app.ws;
  memoryToggle.checked = app.memory;
  $("memory-view").replaceChildren(ws ? renderMemory(ws.memory.turns(), ws.memory.digest()) : "");
}

function splitList(text: string, sep: RegExp): string[] {
  return text.split(sep).map((x) => x.trim()).filter((x) => x !== "");
}

/** ws.memory.add() with the form's turn; the live context's Memory section shows its digest line. */
function addMemoryTurn(): void {
  const ws = app.ws;
  if (!ws) return;
  const summary = memSummary.value.trim();
  if (summary === "") {
    memError.textContent = "A turn needs a summary.";
    memSummary.focus();
    return;
  }
  try {
    const turn = ws.memory.add({
      summary,
      context: memContext.value,
      insights: splitList(memInsights.value, /;|\n/),
      tags: splitList(memTags.value, /,/),
    });
    memError.textContent = "";
    for (const input of [memSummary, memContext, memInsights, memTags]) input.value = "";
    showNotice(`ws.memory.add(…) stored turn ${turn}.` + (app.memory ? " memo_recall_context / memo_search_memory can find it." : ""));
  } catch (e) {
    memError.textContent = `ws.memory.add refused: ${errorText(e)}`;
    return;
  }
  renderLiveContextPane();
  renderMemoryPane();
}

$("memory-form").addEventListener("submit", (e) => {
  e.preventDefault();
  addMemoryTurn();
});
$("mem-use-live").addEventListener("click", () => {
  try {
    memContext.value = app.ws ? app.ws.liveContext(liveOptions()).markdown : "";
  } catch (e) {
    memError.textContent = `ws.liveContext refused: ${errorText(e)}`;
  }
});
memoryToggle.addEventListener("change", () => {
  if (memoryToggle.checked !== app.memory) void recreateWorkspace({ memory: memoryToggle.checked });
});

editorForm.addEventListener("submit", (e) => {
  e.preventDefault();
  applyEditorForm();
});
$("editor-clear").addEventListener("click", () => {
  if (setEditorState({}, { fill: true })) renderLiveContextPane();
});
for (const input of [lcRecent, lcMaxDoc]) input.addEventListener("change", renderLiveContextPane);
lcAnchor.addEventListener("change", renderLiveContextPane);
document.querySelectorAll<HTMLInputElement>('input[name="lc-view"]').forEach((radio) =>
  radio.addEventListener("change", () => {
    if (!radio.checked) return;
    app.liveView = radio.value as LiveView;
    renderLiveContextPane();
  }),
);
document.querySelectorAll<HTMLInputElement>('input[name="tm-format"]').forEach((radio) =>
  radio.addEventListener("change", () => {
    if (!radio.checked) return;
    app.historyFormat = radio.value as HistoryFormat;
    renderTokenMeterPane();
  }),
);

// ------------------------------------------------------------------ replay and share

/** What the page did since its workspace was created: a share link encodes it. */
const recorder = new SessionRecorder();

/** The page's Workspace.create options, as a transcript holds them. */
function currentOptions(): TranscriptOptions {
  return {
    persistMode: app.persistMode,
    locale: app.locale,
    candidateStyle: app.candidateStyle,
    ...(app.memory ? { memory: true } : {}),
  };
}

/** Take a transcript's options as the page's settings (the header's selects follow). */
function applyOptions(o: TranscriptOptions): void {
  app.persistMode = PERSIST_MODES.find((m) => m === o.persistMode) ?? "manual";
  app.locale = LOCALES.find((l) => l === o.locale) ?? "en";
  app.candidateStyle = CANDIDATE_STYLES.find((c) => c === o.candidateStyle) ?? "table";
  app.memory = o.memory === true;
  modeSelect.value = app.persistMode;
  localeSelect.value = app.locale;
  styleSelect.value = app.candidateStyle;
}

/** The Replay pane's state becomes the page's: its workspace, storage and calls (src/replay-pane.ts). */
function adoptReplay(v: AdoptedReplay): void {
  app.generation++; // a create still under way loses the race and frees its workspace
  if (app.ws && app.ws !== v.workspace) app.ws.free();
  applyOptions(v.options);
  app.ws = v.workspace;
  app.storage = v.storage;
  app.history = v.calls.map((c) => ({ ...c, locale: app.locale }));
  app.shown = app.history.length - 1;
  app.calls = app.history.length;
  app.seen = new Map(v.seen);
  app.lastReplaceArgs = null;
  const ws = v.workspace;
  const last = app.history[app.history.length - 1];
  const r = last?.response;
  const paths = ws.paths();
  app.path = r?.path && paths.includes(r.path) ? r.path : paths.includes(app.path) ? app.path : (paths[0] ?? app.path);
  app.selection =
    r && r.candidates.length > 0 && ws.state === "SelectionPending"
      ? { path: app.path, draft: ws.draft(app.path), candidates: r.candidates, differs: r.status === "NoMatch" ? r.preview : null }
      : null;
  // The response's own preview only: a memo_preview here would be a call the transcript does not have.
  app.pending = r
    ? { preview: r.status !== "NoMatch" ? r.preview : null, changes: r.pending_changes, source: `from ${last.tool} (replay)` }
    : { preview: null, changes: [], source: "" };
  recorder.begin(v.documents, v.options, v.title);
  for (const s of v.steps) {
    if (isToolStep(s)) recorder.call(s.tool, s.args ?? {});
    else if (isHostStep(s)) recorder.host(s);
  }
  refreshTools();
  showFatal(null);
  showNotice(v.notice);
  renderAll();
  document.body.dataset.ready = "true";
  document.body.dataset.sample = "replay";
  document.body.dataset.mode = app.persistMode;
  document.body.dataset.locale = app.locale;
  document.body.dataset.candidateStyle = app.candidateStyle;
  document.body.dataset.memory = String(app.memory);
}

/** A storage action of a shared session, on the page's storage. */
function hostAction(step: HostStep): void {
  const storage = app.storage;
  if (!storage) return;
  if (step.host === "write") storage.write(step.path, step.text);
  else if (step.host === "delete") storage.delete(step.path);
  else storage.failNext("save");
  recorder.host(step);
}

/** Load a shared session: its documents with its options, then its calls run in order as the console runs them. */
async function openShared(t: Transcript, source = "Opened a share link"): Promise<void> {
  document.body.dataset.share = "loading";
  applyOptions(t.options ?? {});
  const sample = SAMPLES.find((s) => s.path in t.documents) ?? app.sample;
  await loadSample(sample, { texts: t.documents });
  let calls = 0;
  for (const step of t.steps) {
    if (!app.ws) break;
    if (isToolStep(step)) {
      await run(step.tool, (step.args ?? {}) as Record<string, unknown>);
      calls++;
    } else if (isHostStep(step)) hostAction(step);
  }
  if (app.ws) {
    showNotice(`${source}: ${Object.keys(t.documents).join(", ")} with ${JSON.stringify(currentOptions())}, ${calls} call${calls === 1 ? "" : "s"} run in order.`);
  }
  document.body.dataset.share = app.ws ? "loaded" : "error";
}

/** A `#t=` hash: open it (true), or false when the hash is no share link. A link that does not decode is refused with a message. */
async function openShareLink(hash: string): Promise<boolean> {
  let t: Transcript | null;
  try {
    t = await transcriptFromHash(hash);
  } catch (e) {
    await loadSample(app.sample);
    showFatal(`This share link does not decode (${e instanceof Error ? e.message : String(e)}); the page shows the sample instead.`);
    document.body.dataset.share = "refused";
    return true;
  }
  if (t === null) return false;
  await openShared(t);
  return true;
}

initShareBar($("share-bar"), { transcript: () => recorder.transcript() });
initReplayPane($("replay"), {
  workspace: () => app.ws,
  callCount: () => app.history.length,
  busy: () => app.busy,
  adopt: adoptReplay,
  leave: () => loadSample(app.sample, { notice: `Left replay mode: ${app.sample.path} from the sample.` }),
});
window.addEventListener("hashchange", () => void openShareLink(location.hash));

// ------------------------------------------------------------------ events

for (const s of SAMPLES) sampleSelect.append(h("option", { value: s.id }, s.label));
sampleSelect.addEventListener("change", () => {
  const s = SAMPLES.find((x) => x.id === sampleSelect.value);
  if (s) void loadSample(s);
});
$("reset").addEventListener("click", () =>
  void loadSample(app.sample, {
    notice:
      `Reset: ${app.sample.path} from the sample, persistMode "${app.persistMode}", ` +
      `locale "${app.locale}", candidateStyle "${app.candidateStyle}".`,
  }),
);
modeSelect.addEventListener("change", () => {
  const mode = PERSIST_MODES.find((m) => m === modeSelect.value);
  if (mode && mode !== app.persistMode) void recreateWorkspace({ persistMode: mode });
});
localeSelect.addEventListener("change", () => {
  const locale = LOCALES.find((l) => l === localeSelect.value);
  if (locale && locale !== app.locale) void recreateWorkspace({ locale });
});
styleSelect.addEventListener("change", () => {
  const candidateStyle = CANDIDATE_STYLES.find((c) => c === styleSelect.value);
  if (candidateStyle && candidateStyle !== app.candidateStyle) void recreateWorkspace({ candidateStyle });
});
$("external-write").addEventListener("click", simulateExternalWrite);
$("fail-next-save").addEventListener("click", failNextSave);
$("external-write-text").addEventListener("click", () => writeExternally(externalText.value, "edited by hand"));
$("external-load-text").addEventListener("click", () => {
  externalText.value = app.storage?.read(app.path) ?? "";
});
$("external-edit").addEventListener("toggle", () => {
  if (($("external-edit") as HTMLDetailsElement).open) externalText.value = app.storage?.read(app.path) ?? "";
});
pathSelect.addEventListener("change", () => {
  app.path = pathSelect.value;
  renderDocPanel();
  // The editor shows the other document now: no cursor or selection in it yet.
  setEditorState({}, { fill: true });
  renderContextPanes();
});
toolSelect.addEventListener("change", () => fillConsole(toolSelect.value, null));
$("skeleton").addEventListener("click", () => fillConsole(toolSelect.value, null));
runButton.addEventListener("click", runConsole);

sampleSelect.value = SAMPLES[0].id;
modeSelect.value = app.persistMode;
localeSelect.value = app.locale;
styleSelect.value = app.candidateStyle;
void (async () => {
  try {
    if (!(await openShareLink(location.hash))) await loadSample(SAMPLES[0]);
  } catch (e) {
    showFatal(errorText(e));
  }
})();
