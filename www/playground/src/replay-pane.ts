// The Replay pane and the share bar. The pane loads a transcript (built
// in, from a file, or pasted), replays it step by step (src/replay.ts) and hands each state to the
// page (host.adopt: the run's workspace and storage become the page's, its calls the page's
// history), so the document view, the response pane, the pending changes and the storage panel
// show the replay. Back replays from the start up to the previous step (replays are
// deterministic). Every tool step with a recording gets ✓ or ✗; a differing step shows the
// recorded and the actual Markdown side by side with the first differing line marked.
import "./replay.css";
import { isToolStep, parseTranscript } from "@agentpad/core";
import type { Difference, Transcript, TranscriptOptions, TranscriptStep, Workspace } from "@agentpad/core";
import type { AgentResponse } from "./types";
import { h, STATUS_TONE } from "./render";
import { BUILTIN_TRANSCRIPTS } from "./builtin-transcripts";
import { ReplayRun, describeStep, type StepResult } from "./replay";
import type { PlaygroundStorage } from "./storage";
import { decodeTranscript, encodeTranscript, shareParam, shareUrl } from "./share";
import { inLocale, phrase, phraseAttr, t as say, tn, type PhraseKey } from "./phrases";

/** The replay's state as the page takes it over. */
export interface AdoptedReplay {
  workspace: Workspace;
  storage: PlaygroundStorage;
  /** Storage versions the workspace saw at its last call. */
  seen: Map<string, string | undefined>;
  /** The options the workspace was created with. */
  options: TranscriptOptions;
  /** The transcript's documents (what storage held at the start). */
  documents: Record<string, string>;
  /** The steps run so far (for the share link). */
  steps: TranscriptStep[];
  /** The tool calls run so far, with their responses (the page's history). */
  calls: { tool: string; args: Record<string, unknown>; response: AgentResponse; toolCallId: string }[];
  title: string;
  notice: string;
}

export interface ReplayHost {
  /** The page's workspace now: when it is not the run's, the page has moved on (a call, a switch). */
  workspace(): Workspace | null;
  /** How many calls the page's history holds. */
  callCount(): number;
  /** Whether the page is running a call or creating a workspace. */
  busy(): boolean;
  adopt(state: AdoptedReplay): void;
  /** Leave replay mode: the page loads its sample again. */
  leave(): Promise<void>;
}

type LocaleChoice = "" | "en" | "zh";

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The lines of a text as a numbered block, line `mark` highlighted (the first that differs). */
function numberedText(text: string, mark: number, label: string, testid: string): HTMLElement {
  const pre = h("pre", { class: "rp-text", tabindex: 0, "aria-label": label, "data-testid": testid });
  text.split("\n").forEach((line, i) => {
    const n = i + 1;
    const row = h(
      "span",
      { class: `rp-line${n === mark ? " rp-first-diff" : ""}`, "data-line": n },
      h("span", { class: "rp-ln", "aria-hidden": "true" }, String(n)),
      line === "" ? " " : line,
    );
    if (n === mark) row.setAttribute("title", say("rp.first_diff_line", { n }));
    pre.append(row, "\n");
  });
  return pre;
}

/** Scroll each block so its marked line is in view (after layout). */
function scrollToMarks(root: HTMLElement): void {
  requestAnimationFrame(() => {
    root.querySelectorAll<HTMLElement>("pre.rp-text").forEach((pre) => {
      const mark = pre.querySelector<HTMLElement>(".rp-first-diff");
      if (mark) pre.scrollTop = Math.max(0, mark.offsetTop - pre.offsetTop - 40);
    });
  });
}

function renderDifferences(diffs: Difference[]): HTMLElement {
  const box = h("div", { class: "rp-diffs", "data-testid": "replay-differences" });
  for (const d of diffs) {
    if (d.field !== "markdown") {
      box.append(
        h(
          "p",
          { class: "rp-field", "data-field": d.field },
          h("span", { class: "mono" }, d.field),
          say("rp.field_recorded"),
          h("code", {}, d.expected),
          say("rp.field_replay"),
          h("code", { class: "rp-actual" }, d.actual),
        ),
      );
      continue;
    }
    const line = d.line ?? 1;
    box.append(
      h("p", { class: "rp-field", "data-field": "markdown" }, h("span", { class: "mono" }, "markdown"), say("rp.first_diff_at", { line })),
      h(
        "div",
        { class: "rp-side" },
        h(
          "div",
          { class: "rp-col" },
          h("h3", {}, say("rp.recorded")),
          numberedText(d.expected, line, say("rp.recorded_label", { line }), "replay-recorded"),
        ),
        h(
          "div",
          { class: "rp-col" },
          h("h3", {}, say("rp.replay")),
          numberedText(d.actual, line, say("rp.replayed_label", { line }), "replay-actual"),
        ),
      ),
    );
  }
  return box;
}

/** Builds the Replay pane in `root`; `load` plays a transcript handed over by the page (a saved agent run). */
export function initReplayPane(root: HTMLElement, host: ReplayHost): { load(value: unknown, source: string): Promise<void> } {
  const state = {
    transcript: null as Transcript | null,
    source: "",
    locale: "" as LocaleChoice,
    run: null as ReplayRun | null,
    busy: false,
    /** The package's replayTranscript() verdict for a finished run: the steps it found differing. */
    check: null as { indices: number[]; agrees: boolean } | null,
    /** The differing step whose texts are open (default: the latest one). */
    open: -1,
  };

  const select = h("select", { id: "replay-source", "data-testid": "replay-source" });
  select.append(phrase(h("option", { value: "" }), "rp.choose_builtin"));
  const groups = new Map<string, HTMLOptGroupElement>();
  for (const b of BUILTIN_TRANSCRIPTS) {
    const group: PhraseKey = b.id.startsWith("example-")
      ? "rp.group_examples"
      : b.id.startsWith("scenario-")
        ? "rp.group_scenarios"
        : "rp.group_other";
    let g = groups.get(group);
    if (!g) {
      g = phraseAttr(h("optgroup"), "label", group);
      groups.set(group, g);
      select.append(g);
    }
    g.append(h("option", { value: b.id, translate: "no" }, b.title));
  }
  const custom = phrase(h("option", { value: "custom", hidden: true, disabled: true }), "rp.loaded");
  select.append(custom);

  const fileInput = h("input", { type: "file", id: "replay-file", accept: ".json,application/json", "data-testid": "replay-file" });
  const pasteArea = h("textarea", {
    id: "replay-paste",
    rows: 5,
    spellcheck: "false",
    "data-testid": "replay-paste",
    "data-t-aria-label": "rp.paste_label",
    "aria-label": say("rp.paste_label"),
    placeholder: '{ "format": "agentpad-transcript/1", "documents": { … }, "steps": [ … ] }',
  });
  const pasteButton = phrase(h("button", { type: "button", "data-testid": "replay-load-paste" }), "rp.load_paste");
  const localeSelect = h(
    "select",
    {
      id: "replay-locale",
      "data-testid": "replay-locale",
      "data-t-title": "rp.locale_title",
      title: say("rp.locale_title"),
    },
    phrase(h("option", { value: "" }), "rp.as_recorded"),
    h("option", { value: "en" }, "en"),
    h("option", { value: "zh" }, "zh"),
  );
  const error = h("p", { class: "args-error", role: "status", "data-testid": "replay-error" });
  const desc = h("div", { class: "rp-desc", "data-testid": "replay-description" });
  const back = h(
    "button",
    { type: "button", "data-testid": "replay-back", "data-t-title": "rp.back_title", title: say("rp.back_title"), "data-t": "rp.back" },
    say("rp.back"),
  );
  const step = phraseAttr(
    phrase(h("button", { type: "button", class: "primary", "data-testid": "replay-step" }), "rp.step"),
    "title",
    "rp.step_title",
  );
  const toEnd = phraseAttr(phrase(h("button", { type: "button", "data-testid": "replay-run" }), "rp.run"), "title", "rp.run_title");
  const reset = phraseAttr(
    phrase(h("button", { type: "button", "data-testid": "replay-reset" }), "header.reset"),
    "title",
    "rp.reset_title",
  );
  const leave = h(
    "button",
    { type: "button", "data-testid": "replay-leave", "data-t-title": "rp.leave_title", title: say("rp.leave_title"), "data-t": "rp.leave" },
    say("rp.leave"),
  );
  const position = h("span", { class: "muted small", "data-testid": "replay-position", "aria-live": "polite" });
  const summary = h("p", { class: "rp-summary", "data-testid": "replay-summary", role: "status" });
  const list = h("ol", {
    class: "rp-steps",
    "data-testid": "replay-steps",
    tabindex: 0,
    "data-t-aria-label": "rp.steps_label",
    "aria-label": say("rp.steps_label"),
  });

  root.append(
    h(
      "div",
      { class: "rp-source" },
      h("label", { class: "field", for: "replay-source" }, phrase(h("span"), "rp.transcript")),
      select,
      h("label", { class: "field rp-file" }, phrase(h("span"), "rp.or_file"), fileInput),
      h("label", { class: "field", for: "replay-locale" }, phrase(h("span"), "header.locale")),
      localeSelect,
    ),
    h(
      "details",
      { class: "rp-paste", "data-testid": "replay-paste-box" },
      phrase(h("summary"), "rp.paste"),
      pasteArea,
      h("div", { class: "wf-row" }, pasteButton),
    ),
    error,
    desc,
    h("div", { class: "rp-controls" }, back, step, toEnd, reset, leave, position),
    summary,
    list,
  );

  const stepsOf = (run: ReplayRun) => run.transcript.steps.slice(0, run.position).filter((s) => !("say" in s));

  /** `notice` is said in the run's locale: the page takes it on with the run (docs/decisions.md#the-playground-speaks-the-sessions-locale). */
  function adopt(run: ReplayRun, notice: () => string): void {
    const calls = run.results
      .filter((r): r is StepResult & { response: AgentResponse } => r.response !== undefined)
      .map((r) => {
        const s = r.step as { tool: string; args?: unknown };
        return {
          tool: s.tool,
          args: (s.args ?? {}) as Record<string, unknown>,
          response: r.response,
          toolCallId: r.toolCallId ?? `replay_${r.index}`,
        };
      });
    host.adopt({
      workspace: run.workspace,
      storage: run.storage,
      seen: new Map(run.seen),
      options: run.options,
      documents: run.transcript.documents,
      steps: stepsOf(run),
      calls,
      title: `replay of ${state.source}`,
      notice: inLocale(run.options.locale, notice),
    });
  }

  /** Whether the page still shows this run (no console call or switch since it was adopted). */
  function attached(run: ReplayRun): boolean {
    return host.workspace() === run.workspace && host.callCount() === run.results.filter((r) => r.response).length;
  }

  async function guarded(work: () => Promise<void>): Promise<void> {
    if (state.busy || host.busy()) return;
    state.busy = true;
    root.dataset.busy = "true";
    render();
    try {
      await work();
      error.textContent = "";
    } catch (e) {
      error.textContent = say("rp.failed", { error: errorText(e) });
    } finally {
      state.busy = false;
      root.dataset.busy = "false";
      render();
    }
  }

  /** A new run up to `until`, adopted by the page; the previous run's workspace is freed. */
  async function replayTo(until: number, notice: () => string): Promise<void> {
    const t = state.transcript;
    if (!t) return;
    const override: TranscriptOptions = state.locale === "" ? {} : { locale: state.locale };
    const run = await ReplayRun.start(t, override);
    try {
      await run.runTo(until);
    } catch (e) {
      run.free();
      throw e;
    }
    const old = state.run;
    state.run = run;
    state.check = null;
    adopt(run, notice);
    if (old && old !== run) old.free(); // idempotent: the page may have freed it already
    if (run.done) await verify(run);
  }

  async function verify(run: ReplayRun): Promise<void> {
    const indices = await run.check();
    const mine = run.results.filter((r) => r.differences.length > 0).map((r) => r.index);
    state.check = { indices, agrees: indices.join(",") === mine.join(",") };
  }

  const where = (run: ReplayRun) => say("rp.where", { at: run.position, of: run.transcript.steps.length });

  async function load(t: Transcript, source: string): Promise<void> {
    state.transcript = t;
    state.source = source;
    state.open = -1;
    await replayTo(0, () => say("rp.loaded_notice", { source }));
  }

  async function loadUnknown(value: unknown, source: string): Promise<void> {
    let t: Transcript;
    try {
      t = parseTranscript(value);
    } catch (e) {
      error.textContent = errorText(e);
      return;
    }
    select.value = "custom";
    custom.textContent = source;
    await guarded(() => load(t, source));
  }

  select.addEventListener("change", () => {
    const b = BUILTIN_TRANSCRIPTS.find((x) => x.id === select.value);
    if (b) void guarded(() => load(b.transcript, b.id));
  });
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    let value: unknown;
    try {
      value = JSON.parse(await file.text());
    } catch (e) {
      error.textContent = say("rp.file_not_json", { file: file.name, error: errorText(e) });
      return;
    } finally {
      fileInput.value = "";
    }
    await loadUnknown(value, file.name);
  });
  pasteButton.addEventListener("click", async () => {
    let value: unknown;
    try {
      value = JSON.parse(pasteArea.value);
    } catch (e) {
      error.textContent = say("rp.paste_not_json", { error: errorText(e) });
      return;
    }
    await loadUnknown(value, say("rp.pasted_source"));
  });
  localeSelect.addEventListener("change", () => {
    state.locale = localeSelect.value as LocaleChoice;
    const at = state.run?.position ?? 0;
    if (state.transcript) {
      void guarded(() =>
        replayTo(at, () =>
          tn("rp.replayed_locale", at, {
            source: state.source,
            locale: state.locale === "" ? say("rp.own_locale") : say("rp.named_locale", { locale: state.locale }),
          }),
        ),
      );
    }
  });
  step.addEventListener(
    "click",
    () =>
      void guarded(async () => {
        const run = state.run;
        if (!run || run.done) return;
        if (!attached(run)) {
          // The page ran a call or recreated the workspace since: replay again, one step further.
          await replayTo(run.position + 1, () => say("rp.again_to", { source: state.source, n: run.position + 1 }));
          return;
        }
        const done = await run.next();
        state.open = done && done.differences.length > 0 ? done.index : state.open;
        adopt(run, () => say("rp.at", { source: state.source, where: where(run) }));
        if (run.done) await verify(run);
      }),
  );
  back.addEventListener(
    "click",
    () =>
      void guarded(async () => {
        const run = state.run;
        if (!run || run.position === 0) return;
        // Step back over `say` steps too: they change nothing.
        const target = run.position - 1;
        await replayTo(target, () => say("rp.back_to", { source: state.source, n: target, of: run.transcript.steps.length }));
      }),
  );
  toEnd.addEventListener(
    "click",
    () =>
      void guarded(async () => {
        const run = state.run;
        if (!run) return;
        if (!attached(run)) {
          await replayTo(Infinity, () => say("rp.again_end", { source: state.source }));
          return;
        }
        await run.runTo(Infinity);
        const last = [...run.results].reverse().find((r) => r.differences.length > 0);
        if (last) state.open = last.index;
        adopt(run, () => say("rp.to_end", { source: state.source, n: run.transcript.steps.length }));
        await verify(run);
      }),
  );
  reset.addEventListener("click", () => void guarded(() => replayTo(0, () => say("rp.reset_notice", { source: state.source }))));
  leave.addEventListener(
    "click",
    () =>
      void guarded(async () => {
        const run = state.run;
        state.run = null;
        state.transcript = null;
        state.check = null;
        select.value = "";
        await host.leave();
        run?.free();
      }),
  );

  function renderStep(s: TranscriptStep, index: number, run: ReplayRun): HTMLElement {
    const result = run.results[index];
    const d = describeStep(s);
    const isCurrent = index === run.position - 1;
    const li = h("li", {
      class: `rp-step kind-${d.kind}${result ? " done" : ""}${isCurrent ? " current" : ""}${index === run.position ? " next" : ""}`,
      "data-index": index,
      "data-kind": d.kind,
      "aria-current": isCurrent ? "step" : undefined,
    });
    li.append(
      h("span", { class: "rp-n", "aria-hidden": "true" }, isCurrent ? "▶" : String(index + 1)),
      h("span", { class: `tag rp-kind kind-${d.kind}` }, say(`rp.kind_${d.kind}`)),
    );
    if (d.kind === "say") {
      li.append(h("span", { class: "rp-say", translate: "no" }, d.detail));
    } else {
      li.append(
        h("span", { class: "mono rp-label", translate: "no" }, d.label),
        h("span", { class: "mono rp-detail", title: d.detail, translate: "no" }, d.detail),
      );
    }
    if (isToolStep(s) && s.note) li.append(h("span", { class: "muted small rp-note", translate: "no" }, s.note));
    if (result?.response) {
      const r = result.response;
      const badges = h(
        "span",
        { class: "rp-badges" },
        h("span", { class: `badge ${STATUS_TONE[r.status] ?? "muted"}`, "data-testid": "replay-status" }, r.status),
        h("span", { class: "badge state" }, r.workflow_state),
      );
      if (!result.recorded)
        badges.append(h("span", { class: "badge muted", "data-testid": "replay-verdict", "data-verdict": "none" }, say("rp.no_recording")));
      else if (result.differences.length === 0)
        badges.append(
          h(
            "span",
            { class: "badge ok", "data-testid": "replay-verdict", "data-verdict": "same", title: say("rp.as_recorded") },
            say("rp.same"),
          ),
        );
      else
        badges.append(
          h(
            "span",
            {
              class: "badge bad",
              "data-testid": "replay-verdict",
              "data-verdict": "differs",
              title: result.differences.map((x) => x.field).join(", "),
            },
            say("rp.differs", { fields: result.differences.map((x) => x.field).join(", ") }),
          ),
        );
      li.append(badges);
      if (result.differences.length > 0) {
        const det = h(
          "details",
          { class: "rp-diff", "data-testid": "replay-diff", open: index === state.open },
          h("summary", {}, say("rp.vs", { n: index + 1 })),
        );
        det.addEventListener("toggle", () => {
          if (!det.open) return;
          state.open = index;
          if (det.childElementCount === 1) det.append(renderDifferences(result.differences));
          scrollToMarks(det);
        });
        if (index === state.open) {
          det.append(renderDifferences(result.differences));
          scrollToMarks(det);
        }
        li.append(det);
      }
    }
    return li;
  }

  function render(): void {
    const run = state.run;
    const t = state.transcript;
    const idle = !run || state.busy;
    back.disabled = idle || run.position === 0;
    step.disabled = idle || run.done;
    toEnd.disabled = idle || run.done;
    reset.disabled = idle;
    leave.disabled = idle;
    for (const c of [select, fileInput, pasteButton, localeSelect]) c.disabled = state.busy;
    root.dataset.replay = run ? "on" : "off";
    if (!run || !t) {
      desc.replaceChildren(h("p", { class: "muted small" }, say("rp.intro")));
      position.textContent = "";
      summary.textContent = "";
      delete summary.dataset.differ;
      list.replaceChildren();
      return;
    }
    const opts = Object.entries(run.options).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
    const tools = t.steps.filter(isToolStep).length;
    desc.replaceChildren(
      h(
        "p",
        { class: "rp-title", translate: "no" },
        h("strong", {}, t.title ?? state.source),
        " ",
        h("span", { class: "muted small mono" }, state.source),
      ),
      t.description ? h("p", { class: "small", translate: "no" }, t.description) : "",
      h(
        "p",
        { class: "muted small" },
        say("rp.meta", {
          paths: Object.keys(t.documents).join(", "),
          steps: t.steps.length,
          tools,
          options: opts.join(", ") || say("rp.defaults"),
        }),
      ),
    );
    position.textContent = where(run) + (!attached(run) ? say("rp.left_replay") : "");
    position.dataset.position = String(run.position);
    const compared = run.results.filter((r) => r.recorded).length;
    const differ = run.results.filter((r) => r.differences.length > 0).length;
    const total = t.steps.filter((s) => isToolStep(s) && s.expect !== undefined).length;
    summary.dataset.differ = String(differ);
    summary.dataset.compared = String(compared);
    summary.dataset.done = String(run.done);
    summary.className = `rp-summary ${differ > 0 ? "bad" : compared > 0 ? "ok" : ""}`;
    summary.replaceChildren(
      h("strong", {}, tn("rp.differ", compared, { differ })),
      say("rp.compared", { compared, total }),
      state.check
        ? h(
            "span",
            { class: state.check.agrees ? "muted" : "bad", "data-testid": "replay-check" },
            state.check.agrees
              ? say("rp.check_agrees")
              : say("rp.check_differs", { steps: state.check.indices.map((i) => i + 1).join(", ") || say("label.none") }),
          )
        : "",
    );
    const scroll = list.scrollTop;
    list.replaceChildren(...t.steps.map((s, i) => renderStep(s, i, run)));
    list.scrollTop = scroll;
    const current = list.querySelector<HTMLElement>("li.current") ?? list.querySelector<HTMLElement>("li.next");
    if (current) {
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 40) list.scrollTop = Math.max(0, top - 40);
    }
  }

  render();
  return { load: loadUnknown };
}

// ------------------------------------------------------------------ share bar

export interface ShareHost {
  /** The page's session as a transcript (documents, options, calls). */
  transcript(): Transcript;
}

/** The "Copy share link" button, the link's length, and the link itself (read-only, selectable). */
export function initShareBar(root: HTMLElement, host: ShareHost): void {
  const button = h(
    "button",
    {
      type: "button",
      "data-testid": "share-copy",
      "data-t-title": "share.copy_title",
      title: say("share.copy_title"),
      "data-t": "share.copy",
    },
    say("share.copy"),
  );
  const out = h("input", {
    type: "text",
    readonly: true,
    class: "mono share-link",
    "data-testid": "share-link",
    "data-t-aria-label": "share.link",
    "aria-label": say("share.link"),
    "data-t-placeholder": "share.placeholder",
    placeholder: say("share.placeholder"),
  });
  const meta = h("span", { class: "muted small", "data-testid": "share-meta", role: "status" });
  root.append(phrase(h("span", { class: "label" }), "share.label"), button, out, meta);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const t = host.transcript();
      const encoded = await encodeTranscript(t);
      const url = shareUrl(encoded);
      out.value = url;
      root.dataset.length = String(url.length);
      const calls = t.steps.filter(isToolStep).length;
      const what = say("share.what", {
        chars: url.length.toLocaleString("en"),
        calls: tn("session.calls", calls),
        docs: tn("share.documents", Object.keys(t.documents).length),
      });
      const long = url.length > 32_000 ? say("share.long") : "";
      let copied = false;
      try {
        await navigator.clipboard.writeText(url);
        copied = true;
      } catch {
        // No clipboard permission (or not a secure context): the link is selected instead.
      }
      if (!copied) {
        out.focus();
        out.select();
      }
      meta.textContent = say(copied ? "share.copied" : "share.select", { what }) + long;
    } catch (e) {
      meta.textContent = say("share.failed", { error: errorText(e) });
    } finally {
      button.disabled = false;
    }
  });
}

/** The transcript in a `#t=` hash: null when the hash is no share link; throws when it does not decode. */
export async function transcriptFromHash(hash: string): Promise<Transcript | null> {
  const param = shareParam(hash);
  if (param === null) return null;
  return decodeTranscript(param);
}
