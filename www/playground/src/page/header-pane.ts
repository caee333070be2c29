// The header and the page's frame: the sample, Reset, the persist mode, locale and candidate style
// (each recreates the workspace), the state and memory meters, the notice and fatal bars, and the
// body's data-* attributes the tests wait on.
import { memoryBytes } from "@agentpad/core";
import { h } from "../render";
import { SAMPLES } from "../samples";
import { $ } from "./dom";
import { CANDIDATE_STYLES, LOCALES, PERSIST_MODES, watch, type PageCommands, type PageState, type PageStore } from "./store";
import { phrase, t } from "../phrases";

export function mountHeader(store: PageStore, page: PageCommands): void {
  const sampleSelect = $("sample-select") as HTMLSelectElement;
  const modeSelect = $("persist-mode") as HTMLSelectElement;
  const localeSelect = $("locale") as HTMLSelectElement;
  const styleSelect = $("candidate-style") as HTMLSelectElement;
  const options = () => store.state.options;

  for (const s of SAMPLES) sampleSelect.append(phrase(h("option", { value: s.id }), s.label));
  sampleSelect.value = store.state.sample.id;
  sampleSelect.addEventListener("change", () => {
    const s = SAMPLES.find((x) => x.id === sampleSelect.value);
    if (s) void page.loadSample(s);
  });
  $("reset").addEventListener("click", () => {
    const { sample, options: o } = store.state;
    void page.loadSample(sample, {
      notice: t("header.reset_notice", { path: sample.path, mode: o.persistMode, locale: o.locale, style: o.candidateStyle }),
    });
  });
  modeSelect.addEventListener("change", () => {
    const mode = PERSIST_MODES.find((m) => m === modeSelect.value);
    if (mode && mode !== options().persistMode) void page.recreate({ persistMode: mode });
  });
  localeSelect.addEventListener("change", () => {
    const locale = LOCALES.find((l) => l === localeSelect.value);
    if (locale && locale !== options().locale) void page.recreate({ locale });
  });
  styleSelect.addEventListener("change", () => {
    const candidateStyle = CANDIDATE_STYLES.find((c) => c === styleSelect.value);
    if (candidateStyle && candidateStyle !== options().candidateStyle) void page.recreate({ candidateStyle });
  });

  // The selects show the page's options (a share link or a replay sets them too).
  watch(
    store,
    (s) => [s.options],
    (s) => {
      modeSelect.value = s.options.persistMode;
      localeSelect.value = s.options.locale;
      styleSelect.value = s.options.candidateStyle;
    },
  );
  // Recreating the workspace while a call or a create is under way would free it under that call.
  watch(
    store,
    (s) => [s.busy],
    (s) => {
      for (const select of [modeSelect, localeSelect, styleSelect, sampleSelect]) select.disabled = s.busy;
    },
  );
  watch(store, (s) => [s.revs.workspace], renderMeters, false);
  watch(
    store,
    (s) => [s.fatal],
    (s) => show($("fatal"), s.fatal),
  );
  watch(
    store,
    (s) => [s.notice],
    (s) => show($("notice"), s.notice),
  );
  watch(store, (s) => [s.ready, s.revs.workspace], renderBody);
  watch(
    store,
    (s) => [s.calling],
    (s) => {
      if (s.calling || document.body.dataset.busy !== undefined) document.body.dataset.busy = String(s.calling);
    },
    false,
  );
  watch(
    store,
    (s) => [s.share],
    (s) => {
      if (s.share !== "") document.body.dataset.share = s.share;
    },
    false,
  );
}

function show(el: HTMLElement, message: string | null): void {
  el.hidden = message === null;
  el.textContent = message ?? "";
}

function renderMeters(s: PageState): void {
  const ws = s.ws;
  $("workflow-state").textContent = ws ? ws.state : "–";
  $("workflow-state").dataset.state = ws ? ws.state : "";
  try {
    const bytes = memoryBytes();
    $("memory-meter").textContent = `${(bytes / 1024).toFixed(0)} KiB`;
  } catch {
    $("memory-meter").textContent = "–";
  }
}

/** `data-ready` ("false" while a workspace is made), then what the page shows and with which options. */
function renderBody(s: PageState): void {
  const body = document.body.dataset;
  body.ready = s.ready;
  if (s.ready === "false") return;
  body.sample = s.shownSample;
  body.mode = s.options.persistMode;
  body.locale = s.options.locale;
  body.candidateStyle = s.options.candidateStyle;
  body.memory = String(s.options.memory);
}
