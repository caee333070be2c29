// agentpad playground v0: wires the real library (alias `agentpad` → www/src/browser.ts) to the
// page. The page renders what the core returns; it never matches, diffs or formats on its own.
import "./style.css";
import { SAMPLES } from "./samples";
import { h } from "./render";
import {
  $,
  sampleSelect,
  modeSelect,
  localeSelect,
  styleSelect,
  PERSIST_MODES,
  LOCALES,
  CANDIDATE_STYLES,
  app,
  showFatal,
  errorText,
} from "./page/state";
import { loadSample, recreateWorkspace } from "./page/workspace";
import { openShareLink } from "./page/share-session";
// Each pane wires its own controls when its module is imported.
import "./page/console-pane";
import "./page/all-panes";
import "./page/workflow-pane";
import "./page/document-pane";
import "./page/pending-pane";
import "./page/response-pane";
import "./page/call-history-pane";
import "./page/live-context-pane";
import "./page/task-tree-pane";
import "./page/token-meter-pane";
import "./page/memory-pane";
import "./page/agent-pane";

// ------------------------------------------------------------------ events

for (const s of SAMPLES) sampleSelect.append(h("option", { value: s.id }, s.label));
sampleSelect.addEventListener("change", () => {
  const s = SAMPLES.find((x) => x.id === sampleSelect.value);
  if (s) void loadSample(s);
});
$("reset").addEventListener(
  "click",
  () =>
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
