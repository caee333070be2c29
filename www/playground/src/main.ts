// agentpad playground v0: wires the real library (alias `agentpad` → www/src/browser.ts) to the
// page. The page renders what the core returns; it never matches, diffs or formats on its own.
import "./style.css";
import { Workspace, MemoryStorage, memoryBytes } from "agentpad";
import type { AgentResponse, Candidate, PendingChange, ToolDefinition } from "./types";
import { SAMPLES, type Sample } from "./samples";
import { argsSkeleton, optionalProps, parseArgs } from "./schema";
import {
  candidateTier,
  h,
  renderBadges,
  renderCandidateList,
  renderDocument,
  renderJson,
  renderMarkdown,
  renderNearMisses,
  renderNextActions,
  renderPendingChanges,
  renderPreview,
  renderTaskStack,
} from "./render";

const PREFIX = "memo";

function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
}
const sampleSelect = $("sample-select") as HTMLSelectElement;
const pathSelect = $("path-select") as HTMLSelectElement;
const toolSelect = $("tool-select") as HTMLSelectElement;
const argsInput = $("args") as HTMLTextAreaElement;
const runButton = $("run") as HTMLButtonElement;
const argsError = $("args-error");

interface CallRecord {
  tool: string;
  args: Record<string, unknown>;
  response: AgentResponse;
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
  sample: SAMPLES[0] as Sample,
  path: "",
  tools: new Map<string, ToolDefinition>(), // every tool seen, visible or not
  visible: [] as string[],
  history: [] as CallRecord[],
  shown: -1, // index into history of the response on screen
  selection: null as SelectionView | null,
  pending: { preview: null, changes: [], source: "" } as PendingView,
  lastReplaceArgs: null as Record<string, unknown> | null,
  busy: false,
  generation: 0, // bumps on every loadSample, so a slow create that lost the race is freed
};

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

async function loadSample(sample: Sample): Promise<void> {
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
  app.tools.clear();
  try {
    const storage = new MemoryStorage({ [sample.path]: sample.text });
    const ws = await Workspace.create({ storage, locale: "en" });
    if (generation !== app.generation) {
      ws.free(); // another sample was picked meanwhile
      return;
    }
    app.ws = ws;
    app.path = app.ws.paths()[0] ?? sample.path;
    refreshTools();
    renderQuick();
    fillConsole(sample.suggested.tool, sample.suggested.args);
  } catch (e) {
    showFatal(`Could not create the workspace: ${errorText(e)}`);
  } finally {
    if (generation === app.generation) app.busy = false;
  }
  if (generation !== app.generation) return;
  renderAll();
  document.body.dataset.ready = app.ws ? "true" : "error";
  document.body.dataset.sample = sample.id;
}

function refreshTools(): void {
  if (!app.ws) return;
  const defs: ToolDefinition[] = app.ws.tools({ format: "json-schema" });
  app.visible = defs.map((d) => d.name);
  for (const d of defs) app.tools.set(d.name, d);
  const current = toolSelect.value;
  toolSelect.replaceChildren();
  for (const d of defs) toolSelect.append(h("option", { value: d.name }, d.name));
  const hidden = [...app.tools.keys()].filter((n) => !app.visible.includes(n));
  if (hidden.length > 0) {
    const group = h("optgroup", { label: "hidden in this state (→ Blocked)" });
    for (const n of hidden) group.append(h("option", { value: n }, n));
    toolSelect.append(group);
  }
  if (current && app.tools.has(current)) toolSelect.value = current;
  renderToolInfo();
}

// ------------------------------------------------------------------ calls

async function run(tool: string, args: Record<string, unknown>): Promise<void> {
  const ws = app.ws;
  if (!ws || app.busy) return;
  app.busy = true;
  updateRunEnabled();
  document.body.dataset.busy = "true";
  try {
    const r: AgentResponse = await ws.call(tool, args);
    app.history.push({ tool, args, response: r });
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
    const p: AgentResponse = await ws.call(previewTool, { path: app.path });
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
  argsInput.value = JSON.stringify(args ?? argsSkeleton(def?.input_schema), null, 2);
  validateArgs();
}

function renderToolInfo(): void {
  const def = currentTool();
  $("tool-desc").textContent = def ? def.description : "";
  const opt = optionalProps(def?.input_schema);
  $("tool-optional").textContent = opt.length > 0 ? `optional: ${opt.join(", ")}` : "";
}

function validateArgs(): boolean {
  const parsed = parseArgs(argsInput.value);
  argsError.textContent = parsed.ok ? "" : parsed.error;
  argsInput.classList.toggle("invalid", !parsed.ok);
  updateRunEnabled();
  return parsed.ok;
}

function updateRunEnabled(): void {
  const parsed = parseArgs(argsInput.value);
  runButton.disabled = !parsed.ok || app.busy || !app.ws || toolSelect.value === "";
}

function runConsole(): void {
  const parsed = parseArgs(argsInput.value);
  if (!parsed.ok || runButton.disabled) return;
  void run(toolSelect.value, parsed.value);
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
  renderDocPanel();
  renderPendingPanel();
  renderResponsePanel();
  updateRunEnabled();
}

function renderDocPanel(): void {
  const ws = app.ws;
  const doc = $("doc");
  const cands = $("candidates");
  pathSelect.replaceChildren();
  if (!ws) {
    doc.replaceChildren();
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
  doc.replaceChildren(renderDocument(draft, live ? sel.candidates : []));
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
  const lines = draft === "" ? 0 : draft.replace(/\n$/, "").split("\n").length;
  const changed = draft !== ws.text(app.path);
  $("doc-meta").textContent = `${app.path} · ${lines} lines · ${draft.length} chars${changed ? " · modified" : ""}`;
}

function renderPendingPanel(): void {
  $("pending-diff").replaceChildren(renderPreview(app.pending.preview));
  $("pending-list").replaceChildren(renderPendingChanges(app.pending.changes));
  $("pending-source").textContent = app.pending.source;
}

function renderResponsePanel(): void {
  const rec = app.history[app.shown];
  const badges = $("response-badges");
  const md = $("response-markdown");
  const json = $("response-json");
  const next = $("next-actions");
  if (!rec) {
    badges.replaceChildren(h("span", { class: "muted" }, "No call yet: pick a tool and press Run."));
    md.replaceChildren();
    json.replaceChildren();
    next.replaceChildren();
    $("response-basic").textContent = "";
    $("response-tool").textContent = "";
  } else {
    const r = rec.response;
    badges.replaceChildren(renderBadges(r));
    $("response-basic").textContent = r.markdown_basic;
    $("response-tool").textContent = `#${app.shown + 1} ${rec.tool}`;
    md.replaceChildren(renderMarkdown(r.markdown));
    json.replaceChildren(renderJson(r));
    next.replaceChildren(renderNextActions(r.next_actions, (tool) => fillConsole(tool, null)));
  }
  const hist = $("history");
  hist.replaceChildren();
  app.history.forEach((c, i) => {
    const b = h(
      "button",
      { type: "button", class: `chip${i === app.shown ? " active" : ""}`, title: JSON.stringify(c.args) },
      `${c.tool} → ${c.response.status}`,
    );
    b.addEventListener("click", () => {
      app.shown = i;
      renderResponsePanel();
    });
    hist.append(h("li", {}, b));
  });
  const last = app.history[app.history.length - 1];
  $("tasks").replaceChildren(renderTaskStack(last ? last.response.task_stack : []));
}

// ------------------------------------------------------------------ events

for (const s of SAMPLES) sampleSelect.append(h("option", { value: s.id }, s.label));
sampleSelect.addEventListener("change", () => {
  const s = SAMPLES.find((x) => x.id === sampleSelect.value);
  if (s) void loadSample(s);
});
$("reset").addEventListener("click", () => void loadSample(app.sample));
pathSelect.addEventListener("change", () => {
  app.path = pathSelect.value;
  renderDocPanel();
});
toolSelect.addEventListener("change", () => fillConsole(toolSelect.value, null));
$("skeleton").addEventListener("click", () => fillConsole(toolSelect.value, null));
argsInput.addEventListener("input", () => validateArgs());
argsInput.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    runConsole();
  }
});
runButton.addEventListener("click", runConsole);

sampleSelect.value = SAMPLES[0].id;
void loadSample(SAMPLES[0]);
