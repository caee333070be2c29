// The agent pane: a real model drives the page's workspace through the package's own loop
// (src/agent/loop.ts), so every call shows in the other panes as a console call does; or two
// variants (system prompt, locale, candidate style, tool prefix) run side by side on workspaces
// of their own, their measures compared. It renders from the store's `agent` part; a run reaches
// the other panes through the page's commands (each call is a page call), a saved run reaches the
// Replay pane as a `play` action (docs/playground-agent.md).
import "./agent.css";
import { Workspace, recordTranscript, type ToolResponse, type Transcript } from "@agentpad/core";
import { h, STATUS_TONE } from "../render";
import { PlaygroundStorage } from "../storage";
import { $, errorText } from "./dom";
import { transcriptOptions, watch, type PageCommands, type PageStore } from "./store";
import { AgentRun, withPrefix, type LoopHost, type Measures, type RunSetup, type VariantOptions } from "../agent/loop";
import type { ProviderConfig, ProviderKind } from "../agent/provider";
import { DEFAULT_SYSTEM, KEY_STORAGE, PRESETS, SAMPLE_TASKS, SETTINGS_STORAGE } from "../agent/defaults";
import { applyPhrases, phrase, t as say, type PhraseKey } from "../phrases";

export function mountAgent(store: PageStore, page: PageCommands): void {
  const root = $("agent");

  // ------------------------------------------------------------------ controls

  const field = (label: PhraseKey, control: HTMLElement, extra: Record<string, string> = {}) =>
    h("label", { class: "field ag-field", ...extra }, phrase(h("span"), label), control);

  const presetSelect = h(
    "select",
    { "data-testid": "agent-preset" },
    phrase(h("option", { value: "" }), "agent.preset_pick"),
    ...PRESETS.map((p, i) => h("option", { value: String(i), translate: "no" }, p.label)),
  );
  const kindSelect = h(
    "select",
    { "data-testid": "agent-provider" },
    phrase(h("option", { value: "openai" }), "agent.kind_openai"),
    phrase(h("option", { value: "anthropic", translate: "no" }), "agent.kind_anthropic"),
  );
  const baseInput = h("input", { type: "url", "data-testid": "agent-base-url", spellcheck: "false", size: 28 });
  const modelInput = h("input", { type: "text", "data-testid": "agent-model", spellcheck: "false", size: 16 });
  const keyInput = h("input", {
    type: "password",
    "data-testid": "agent-key",
    autocomplete: "off",
    spellcheck: "false",
    size: 18,
    "data-t-placeholder": "agent.key_placeholder",
  });
  const forgetKey = h("button", {
    type: "button",
    "data-testid": "agent-forget-key",
    "data-t-title": "agent.forget_key_title",
    "data-t": "agent.forget_key",
  });
  const streamBox = h("input", { type: "checkbox", "data-testid": "agent-stream", checked: true });
  const maxSteps = h("input", { type: "number", min: "1", max: "50", value: "12", "data-testid": "agent-max-steps", size: 3 });
  const systemArea = h("textarea", { rows: 5, spellcheck: "false", "data-testid": "agent-system", "data-t-aria-label": "agent.system_a" });
  const systemReset = h("button", { type: "button", "data-testid": "agent-system-default", "data-t": "agent.default_prompt" });
  const taskArea = h("textarea", { rows: 2, spellcheck: "false", "data-testid": "agent-task", "data-t-aria-label": "agent.task" });
  const expectArea = h("textarea", {
    rows: 2,
    spellcheck: "false",
    "data-testid": "agent-expect",
    "data-t-aria-label": "agent.expect",
  });
  const runButton = h("button", {
    type: "button",
    class: "primary",
    "data-testid": "agent-run",
    "data-t-title": "agent.run_title",
    "data-t": "console.run",
  });
  const stepButton = h("button", {
    type: "button",
    "data-testid": "agent-step",
    "data-t-title": "agent.step_title",
    "data-t": "agent.step",
  });
  const stopButton = h("button", { type: "button", class: "bad", "data-testid": "agent-stop", "data-t": "agent.stop" });
  const systemB = h("textarea", { rows: 5, spellcheck: "false", "data-testid": "agent-system-b", "data-t-aria-label": "agent.system_b" });
  const abButton = h("button", {
    type: "button",
    class: "primary",
    "data-testid": "agent-run-ab",
    "data-t-title": "agent.ab_title",
    "data-t": "agent.run_ab",
  });
  const view = h("div", { class: "ag-view", "data-testid": "agent-view" });

  function variantControls(which: "a" | "b"): { el: HTMLElement; read: () => VariantOptions } {
    const locale = h(
      "select",
      { "data-testid": `agent-${which}-locale` },
      h("option", { value: "en" }, "en"),
      h("option", { value: "zh" }, "zh"),
    );
    const style = h(
      "select",
      { "data-testid": `agent-${which}-style` },
      h("option", { value: "list" }, "list"),
      h("option", { value: "table" }, "table"),
    );
    const prefix = h("input", {
      type: "text",
      value: store.state.options.toolPrefix,
      size: 6,
      spellcheck: "false",
      "data-testid": `agent-${which}-prefix`,
      pattern: "[a-z][a-z0-9]*",
    });
    const el = h(
      "div",
      { class: "ag-variant-opts" },
      field("agent.opt_locale", locale),
      field("agent.opt_style", style),
      field("agent.opt_prefix", prefix),
    );
    return {
      el,
      read: () => ({
        locale: locale.value === "zh" ? "zh" : "en",
        candidateStyle: style.value === "table" ? "table" : "list",
        toolPrefix: prefix.value.trim() || store.state.options.toolPrefix,
      }),
    };
  }
  const optsA = variantControls("a");
  const optsB = variantControls("b");

  root.append(
    h(
      "div",
      { class: "ag-provider" },
      field("agent.preset", presetSelect),
      field("agent.api", kindSelect),
      field("agent.base_url", baseInput, {
        "data-t-title": "agent.base_url_title",
      }),
      field("agent.model", modelInput),
      field("agent.key", keyInput, {
        "data-t-title": "agent.key_title",
      }),
      forgetKey,
      h("label", { class: "check" }, streamBox, " ", h("span", { "data-t": "agent.stream" })),
      field("agent.max_requests", maxSteps),
    ),
    h(
      "div",
      { class: "ag-prompts" },
      h(
        "div",
        { class: "ag-col" },
        h(
          "div",
          { class: "ag-head" },
          h("span", { class: "label", "data-t": "agent.system" }),
          h("span", { class: "muted small", "data-t": "agent.prefix_note" }),
          systemReset,
        ),
        systemArea,
      ),
      h(
        "div",
        { class: "ag-col" },
        h("span", { class: "label", "data-t": "agent.task" }),
        taskArea,
        h("span", { class: "label", "data-t": "agent.expect" }),
        expectArea,
        h("div", { class: "wf-row" }, runButton, stepButton, stopButton),
      ),
    ),
    h(
      "details",
      { class: "ag-ab", "data-testid": "agent-ab-box" },
      h("summary", { "data-t": "agent.ab_summary" }),
      h(
        "div",
        { class: "ag-prompts" },
        h("div", { class: "ag-col" }, h("span", { class: "label", "data-t": "agent.ab_a" }), optsA.el),
        h("div", { class: "ag-col" }, h("span", { class: "label", "data-t": "agent.ab_b" }), systemB, optsB.el),
      ),
      h("div", { class: "wf-row" }, abButton, h("span", { class: "muted small", "data-t": "agent.ab_note" })),
    ),
    view,
  );
  // The controls name their phrases (data-t…): fill them now; a locale switch fills them again.
  applyPhrases(root);

  // ------------------------------------------------------------------ settings and the key

  interface Settings {
    kind: ProviderKind;
    baseUrl: string;
    model: string;
    stream: boolean;
  }

  function loadSettings(): Settings {
    try {
      const v = JSON.parse(localStorage.getItem(SETTINGS_STORAGE) ?? "null") as Partial<Settings> | null;
      if (v && (v.kind === "openai" || v.kind === "anthropic")) {
        return { kind: v.kind, baseUrl: String(v.baseUrl ?? ""), model: String(v.model ?? ""), stream: v.stream !== false };
      }
    } catch {
      /* the defaults */
    }
    return { kind: "openai", baseUrl: PRESETS[0].baseUrl, model: PRESETS[0].model, stream: true };
  }

  function saveSettings(): void {
    const s: Settings = { kind: kind(), baseUrl: baseInput.value, model: modelInput.value, stream: streamBox.checked };
    localStorage.setItem(SETTINGS_STORAGE, JSON.stringify(s));
  }

  const kind = (): ProviderKind => (kindSelect.value === "anthropic" ? "anthropic" : "openai");
  const storedKey = () => sessionStorage.getItem(KEY_STORAGE(kind())) ?? "";

  const settings = loadSettings();
  kindSelect.value = settings.kind;
  baseInput.value = settings.baseUrl;
  modelInput.value = settings.model;
  streamBox.checked = settings.stream;
  keyInput.value = storedKey();
  systemArea.value = DEFAULT_SYSTEM;
  systemB.value = DEFAULT_SYSTEM.replace("Every tool result says what to call next: follow it. ", "");

  presetSelect.addEventListener("change", () => {
    const p = PRESETS[Number(presetSelect.value)];
    presetSelect.value = "";
    if (!p) return;
    kindSelect.value = p.kind;
    baseInput.value = p.baseUrl;
    modelInput.value = p.model;
    keyInput.value = storedKey();
    saveSettings();
  });
  kindSelect.addEventListener("change", () => {
    keyInput.value = storedKey();
    saveSettings();
  });
  for (const el of [baseInput, modelInput, streamBox]) el.addEventListener("change", saveSettings);
  keyInput.addEventListener("input", () => {
    if (keyInput.value === "") sessionStorage.removeItem(KEY_STORAGE(kind()));
    else sessionStorage.setItem(KEY_STORAGE(kind()), keyInput.value);
  });
  forgetKey.addEventListener("click", () => {
    sessionStorage.removeItem(KEY_STORAGE(kind()));
    keyInput.value = "";
  });
  systemReset.addEventListener("click", () => (systemArea.value = DEFAULT_SYSTEM));

  // The task follows the sample until the person edits it.
  let taskEdited = false;
  taskArea.addEventListener("input", () => (taskEdited = true));
  function fillTask(sample: string): void {
    if (taskEdited) return;
    const t = SAMPLE_TASKS[sample] ?? SAMPLE_TASKS.timeouts;
    taskArea.value = t.task;
    expectArea.value = t.expect;
  }
  watch(
    store,
    (s) => [s.sample.id],
    (s) => fillTask(s.sample.id),
  );

  function provider(): ProviderConfig {
    return {
      kind: kind(),
      baseUrl: baseInput.value,
      model: modelInput.value.trim(),
      key: storedKey(),
      stream: streamBox.checked,
      maxTokens: 4096,
    };
  }

  const steps = () => Math.max(1, Math.min(50, Number(maxSteps.value) || 12));

  // ------------------------------------------------------------------ runs

  /** The tool name, id and arguments of a call in either shape, as the model sent them. */
  function describe(call: unknown): { tool: string; id: string; sent: unknown } {
    const c = call as { id?: string; name?: string; input?: unknown; function?: { name?: string; arguments?: unknown } };
    if (c.function) return { tool: c.function.name ?? "", id: c.id ?? "", sent: c.function.arguments };
    return { tool: c.name ?? "", id: c.id ?? "", sent: c.input };
  }

  /** A run on the page's workspace, recreated from the documents the page started from. */
  async function pageRun(): Promise<AgentRun | null> {
    const documents = page.transcript().documents;
    await page.loadSample(store.state.sample, {
      texts: documents,
      notice: say("agent.run_notice", { paths: Object.keys(documents).join(", ") }),
    });
    const ws = store.state.ws;
    if (!ws) return null;
    const setup: RunSetup = {
      provider: provider(),
      system: withPrefix(systemArea.value, store.state.options.toolPrefix),
      task: taskArea.value,
      expect: expectArea.value,
      maxSteps: steps(),
      documents,
      options: transcriptOptions(store.state),
      label: "Agent run",
    };
    const host: LoopHost = {
      workspace: () => (store.state.ws === ws ? ws : null),
      exec: async (call, format) => {
        const out = await page.runModelToolCall(call, format, describe(call));
        if (!out) throw new Error("the page is running another call or has no workspace");
        return out;
      },
    };
    return new AgentRun(setup, host, render);
  }

  async function start(stepOnly: boolean): Promise<void> {
    let run = store.state.agent.run;
    if (!run || run.finished || run.host.workspace() === null) {
      run = await pageRun();
      const { run: last, earlier } = store.state.agent;
      store.dispatch({ type: "agent", agent: { run, earlier: last?.calls.length || last?.requests ? [...earlier, last] : earlier } });
    }
    if (!run) return;
    if (stepOnly) await run.step();
    else await run.run();
  }

  /** A workspace of its own for an A/B variant; its calls go straight to `ws.runToolCall`. */
  async function variant(
    label: string,
    system: string,
    o: VariantOptions,
    documents: Record<string, string>,
  ): Promise<{ run: AgentRun; free: () => void }> {
    const options = {
      persistMode: store.state.options.persistMode,
      locale: o.locale,
      candidateStyle: o.candidateStyle,
      toolPrefix: o.toolPrefix,
    };
    await Workspace.loadAll(); // the loop calls liveContext() and compressHistory(), sync
    let ws: Workspace | null = await Workspace.create({ storage: new PlaygroundStorage(documents), ...options });
    const host: LoopHost = {
      workspace: () => ws,
      exec: async (call, format) => {
        if (!ws) throw new Error("the variant's workspace is gone");
        let response: ToolResponse | null = null;
        const result = await ws.runToolCall(call as never, { format, onResponse: (r) => (response = r) });
        if (!response) throw new Error("runToolCall returned without a response");
        return { result, response };
      },
    };
    const setup: RunSetup = {
      provider: provider(),
      system: withPrefix(system, o.toolPrefix),
      task: taskArea.value,
      expect: expectArea.value,
      maxSteps: steps(),
      documents,
      options,
      label,
    };
    return {
      run: new AgentRun(setup, host, render),
      free: () => {
        ws?.free();
        ws = null;
      },
    };
  }

  let abStopped = false;

  async function runAB(): Promise<void> {
    const documents = page.transcript().documents;
    abStopped = false;
    let a, b;
    try {
      a = await variant("A", systemArea.value, optsA.read(), documents);
      b = await variant("B", systemB.value, optsB.read(), documents);
    } catch (e) {
      a?.free();
      store.dispatch({ type: "agent", agent: { abError: errorText(e) } });
      return;
    }
    store.dispatch({ type: "agent", agent: { ab: { a: a.run, b: b.run } } });
    try {
      await a.run.run();
      if (abStopped) b.run.stop();
      else await b.run.run();
    } finally {
      a.free();
      b.free();
      render();
    }
  }

  runButton.addEventListener("click", () => void start(false));
  stepButton.addEventListener("click", () => void start(true));
  abButton.addEventListener("click", () => void runAB());
  stopButton.addEventListener("click", () => {
    const { run, ab } = store.state.agent;
    run?.stop();
    abStopped = true;
    ab?.a.stop();
    ab?.b.stop();
  });

  // ------------------------------------------------------------------ saved runs

  let downloadUrl: string | null = null;

  /** The run as a transcript, each call's answer recorded by the package's recordTranscript(). */
  async function saved(run: AgentRun): Promise<Transcript> {
    return recordTranscript(run.transcript());
  }

  async function exportRun(run: AgentRun, name: string, out: HTMLElement): Promise<void> {
    const text = `${JSON.stringify(await saved(run), null, 2)}\n`;
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    downloadUrl = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = h("a", { href: downloadUrl, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    out.replaceChildren(
      h(
        "details",
        { open: true },
        h("summary", {}, say("agent.export_summary", { name, chars: text.length.toLocaleString("en") })),
        h(
          "pre",
          {
            class: "mono small ag-json",
            tabindex: 0,
            "aria-label": say("agent.saved_run", { name }),
            "data-testid": "agent-transcript-json",
          },
          text,
        ),
      ),
    );
  }

  async function play(run: AgentRun, source: string): Promise<void> {
    store.dispatch({ type: "play", transcript: await saved(run), source });
  }

  // ------------------------------------------------------------------ rendering (from the store's agent part)

  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

  // Each measure's name (its row's data-measure), the phrase it shows as, its value, lower is better.
  const MEASURES: [string, PhraseKey, (m: Measures) => number | string | null, boolean][] = [
    ["requests", "agent.m_requests", (m) => m.requests, true],
    ["tool calls", "agent.m_calls", (m) => m.calls, true],
    ["malformed calls", "agent.m_malformed", (m) => m.malformed, true],
    ["tokens in", "agent.m_tokens_in", (m) => m.tokensIn, true],
    ["tokens out", "agent.m_tokens_out", (m) => m.tokensOut, true],
    ["wall time", "agent.m_wall", (m) => m.wallMs, true],
    ["429 retries", "agent.m_retries", (m) => m.retries, true],
    ["commits", "agent.m_commits", (m) => m.commits, false],
    ["task landed", "agent.m_landed", (m) => (m.landed === null ? null : m.landed ? "yes" : "no"), false],
    ["writes marked wrong", "agent.m_wrong", (m) => m.wrong, true],
  ];

  function cell(name: string, v: number | string | null, m: Measures): string {
    if (v === null) return say("agent.not_checked");
    if (name === "wall time") return seconds(v as number);
    if (v === "yes" || v === "no") return say(v === "yes" ? "agent.yes" : "agent.no");
    if ((name === "tokens in" || name === "tokens out") && m.unreported > 0) return say("agent.unreported", { v, n: m.unreported });
    return String(v);
  }

  function measuresTable(runs: [string, AgentRun][]): HTMLElement {
    const ms = runs.map(([, r]) => r.measures);
    const compare = runs.length === 2;
    return h(
      "table",
      { class: "ag-measures", "data-testid": compare ? "agent-ab-measures" : "agent-measures" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, say("tm.measure")),
          ...runs.map(([label]) => h("th", {}, label)),
          ...(compare ? [h("th", {}, "B − A")] : []),
        ),
      ),
      h(
        "tbody",
        {},
        ...MEASURES.map(([name, label, get, lowerIsBetter]) => {
          const vals = ms.map((m) => get(m));
          let delta = "";
          let tone = "";
          if (compare && typeof vals[0] === "number" && typeof vals[1] === "number") {
            // Wall time compares as the cells show it (tenths of a second): no "−0.0 s" marked better.
            const d = name === "wall time" ? (Math.round(vals[1] / 100) - Math.round(vals[0] / 100)) * 100 : vals[1] - vals[0];
            const sign = d > 0 ? "+" : d < 0 ? "−" : "±";
            delta = name === "wall time" ? `${sign}${seconds(Math.abs(d))}` : d === 0 ? "0" : `${sign}${Math.abs(d)}`;
            tone = d === 0 ? "" : d < 0 === lowerIsBetter ? "better" : "worse";
          } else if (compare && vals[0] !== vals[1]) delta = `${vals[0] ?? "–"} → ${vals[1] ?? "–"}`;
          return h(
            "tr",
            { "data-measure": name },
            h("th", { scope: "row" }, say(label)),
            ...vals.map((v, i) => h("td", { "data-value": v === null ? "" : String(v) }, cell(name, v, ms[i]))),
            ...(compare ? [h("td", { class: `ag-delta ${tone}` }, delta)] : []),
          );
        }),
      ),
    );
  }

  function callList(run: AgentRun): HTMLElement {
    return h(
      "ol",
      { class: "ag-calls", "data-testid": "agent-calls" },
      ...run.calls.map((c, i) => {
        const sent = typeof c.sent === "string" ? c.sent : JSON.stringify(c.sent);
        const wrong = h("input", {
          type: "checkbox",
          "data-testid": "agent-mark-wrong",
          checked: c.wrong,
          "aria-label": say("agent.mark_wrong", { n: i + 1, tool: c.tool }),
        });
        wrong.addEventListener("change", () => {
          c.wrong = wrong.checked;
          render();
        });
        return h(
          "li",
          { class: `ag-call${c.malformed ? " malformed" : ""}`, "data-testid": "agent-call", "data-status": c.status, "data-tool": c.tool },
          h("span", { class: `badge ${STATUS_TONE[c.status] ?? "muted"}` }, `${c.tool || say("agent.no_name")} → ${c.status}`),
          c.malformed ? h("span", { class: "badge bad", "data-testid": "agent-malformed" }, say("agent.malformed")) : null,
          h("code", { class: "ag-sent", title: sent }, sent.length > 140 ? `${sent.slice(0, 139)}…` : sent),
          c.write
            ? h(
                "label",
                {
                  class: "check small ag-wrong",
                  title: say("agent.wrong_title"),
                },
                wrong,
                say("agent.wrong_write"),
              )
            : null,
          h("span", { class: "muted small ag-summary" }, c.summary),
        );
      }),
    );
  }

  function runView(run: AgentRun, label: string, file: string, ownMeasures = true): HTMLElement {
    const out = h("div", { class: "ag-export" });
    const exportButton = h("button", { type: "button", "data-testid": "agent-export", disabled: !run.finished }, say("agent.export"));
    exportButton.addEventListener("click", () => void exportRun(run, file, out));
    const playButton = h(
      "button",
      { type: "button", "data-testid": "agent-play", disabled: !run.finished, title: say("agent.play_title") },
      say("agent.play"),
    );
    playButton.addEventListener("click", () => void play(run, `${label} (${run.setup.provider.model})`));
    const status =
      run.status === "waiting"
        ? h("span", { class: "badge warn", "data-testid": "agent-wait" }, say("agent.waiting", { n: run.waitLeft }))
        : h("span", { class: "badge", "data-testid": "agent-status", "data-value": run.status }, say(`agent.status_${run.status}`));
    return h(
      "div",
      { class: "ag-run", "data-testid": "agent-run-view", "data-status": run.status, "data-label": label },
      h(
        "div",
        { class: "ag-head" },
        h("strong", {}, label),
        status,
        h(
          "span",
          { class: "muted small" },
          `${run.setup.provider.kind} · ${run.setup.provider.model} · ${JSON.stringify(run.setup.options)}`,
        ),
      ),
      h(
        "details",
        { class: "ag-sys small" },
        h("summary", {}, say("agent.system_lower")),
        h("pre", { class: "ag-stream", tabindex: 0, "aria-label": say("agent.system_of", { label }) }, run.setup.system),
      ),
      run.error
        ? h("p", { class: "args-error ag-error", "data-testid": "agent-error", "data-kind": run.error.kind }, run.error.message)
        : null,
      run.streaming
        ? h(
            "pre",
            { class: "ag-stream", "data-testid": "agent-streaming", tabindex: 0, "aria-label": say("agent.streaming") },
            run.streaming,
          )
        : null,
      h(
        "ol",
        { class: "ag-events small", "data-testid": "agent-events", tabindex: 0, "aria-label": `${label}: what the loop did` },
        ...run.events.map((e) => h("li", { class: `ev-${e.kind}`, "data-kind": e.kind }, e.text)),
      ),
      callList(run),
      ownMeasures ? measuresTable([[label, run]]) : null,
      h("div", { class: "wf-row" }, exportButton, playButton),
      out,
    );
  }

  const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

  /** The page's earlier runs, one row each: what changed (prompt, task, model) beside the measures. */
  function earlierRuns(runs: readonly AgentRun[]): HTMLElement {
    return h(
      "details",
      { class: "ag-earlier", "data-testid": "agent-earlier", open: true },
      h("summary", {}, say("agent.earlier", { n: runs.length })),
      h(
        "table",
        { class: "ag-measures" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ...(
              [
                "#",
                "agent.system_lower",
                "agent.col_task",
                "agent.col_model",
                "render.status",
                "agent.col_calls",
                "agent.col_tokens",
                "agent.col_wall",
                "agent.col_landed",
                "agent.col_wrong",
                "agent.col_replay",
              ] as const
            ).map((c) => h("th", {}, c === "#" ? c : say(c))),
          ),
        ),
        h(
          "tbody",
          {},
          ...runs.map((r, i) => {
            const m = r.measures;
            const playButton = h(
              "button",
              { type: "button", class: "small", "aria-label": say("agent.play_earlier", { n: i + 1 }) },
              say("agent.play_short"),
            );
            playButton.addEventListener(
              "click",
              () => void play(r, say("agent.earlier_source", { n: i + 1, model: r.setup.provider.model })),
            );
            return h(
              "tr",
              { "data-testid": "agent-earlier-run" },
              h("td", {}, String(i + 1)),
              h("td", { class: "ag-clip", title: r.setup.system }, clip(r.setup.system, 48)),
              h("td", { class: "ag-clip", title: r.setup.task }, clip(r.setup.task, 32)),
              h("td", {}, r.setup.provider.model),
              h("td", {}, say(`agent.status_${r.status}`)),
              h("td", {}, String(m.calls)),
              h("td", {}, `${m.tokensIn} / ${m.tokensOut}`),
              h("td", {}, seconds(m.wallMs)),
              h("td", {}, m.landed === null ? "–" : say(m.landed ? "agent.yes" : "agent.no")),
              h("td", {}, String(m.wrong)),
              h("td", {}, playButton),
            );
          }),
        ),
      ),
    );
  }

  function renderAgentPane(): void {
    const { run, ab, earlier, abError } = store.state.agent;
    const busy = (run?.busy ?? false) || (ab ? !ab.a.finished || !ab.b.finished : false);
    runButton.disabled = busy;
    stepButton.disabled = busy;
    abButton.disabled = busy;
    stopButton.disabled = !busy && !(run && !run.finished && run.requests > 0);
    root.dataset.busy = String(busy);
    const parts: HTMLElement[] = [];
    if (run) parts.push(runView(run, say("console.run"), "agentpad-agent-run.json"));
    if (earlier.length > 0) parts.push(earlierRuns(earlier));
    if (ab) {
      parts.push(
        h(
          "div",
          { class: "ag-compare", "data-testid": "agent-ab" },
          h("h3", {}, "A/B"),
          measuresTable([
            ["A", ab.a],
            ["B", ab.b],
          ]),
          h(
            "div",
            { class: "ag-side" },
            runView(ab.a, "A", "agentpad-agent-a.json", false),
            runView(ab.b, "B", "agentpad-agent-b.json", false),
          ),
        ),
      );
    }
    if (abError) parts.push(h("p", { class: "args-error" }, say("agent.ab_failed", { error: abError })));
    view.replaceChildren(...parts);
    // The newest event in view (the log is a scrolling box).
    for (const log of view.querySelectorAll<HTMLElement>(".ag-events")) log.scrollTop = log.scrollHeight;
  }

  /** A run reports progress (runs are updated in place by the loop): the pane renders anew. */
  function render(): void {
    store.dispatch({ type: "agent", agent: {} });
  }

  watch(store, (s) => [s.agent.rev, s.options.locale], renderAgentPane);
}
