// Replay and share: adopting the Replay pane's workspace, opening share links and imports.
import { SAMPLES } from "../samples";
import { isHostStep, isToolStep, type HostStep, type Transcript } from "@agentpad/core";
import { initReplayPane, initShareBar, transcriptFromHash, type AdoptedReplay } from "../replay-pane";
import { $, app, showFatal, showNotice, recorder } from "./state";
import { loadSample, refreshTools, run, currentOptions, applyOptions } from "./workspace";
import { renderAll } from "./all-panes";

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
      ? { path: app.path, draft: ws.draft(app.path), candidates: r.candidates, differs: r.status === "NoMatch" ? r.near_misses : null }
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
export async function openShared(t: Transcript, source = "Opened a share link"): Promise<void> {
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
    showNotice(
      `${source}: ${Object.keys(t.documents).join(", ")} with ${JSON.stringify(currentOptions())}, ${calls} call${calls === 1 ? "" : "s"} run in order.`,
    );
  }
  document.body.dataset.share = app.ws ? "loaded" : "error";
}

/** A `#t=` hash: open it (true), or false when the hash is no share link. A link that does not decode is refused with a message. */
export async function openShareLink(hash: string): Promise<boolean> {
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
const replayPane = initReplayPane($("replay"), {
  workspace: () => app.ws,
  callCount: () => app.history.length,
  busy: () => app.busy,
  adopt: adoptReplay,
  leave: () => loadSample(app.sample, { notice: `Left replay mode: ${app.sample.path} from the sample.` }),
});
window.addEventListener("hashchange", () => void openShareLink(location.hash));
// A saved agent run (src/page/agent-pane.ts) asks to be played: the Replay pane opens on it.
window.addEventListener("agentpad:play-transcript", (e) => {
  const { transcript, source } = (e as CustomEvent<{ transcript: unknown; source: string }>).detail;
  ($("replay-details") as HTMLDetailsElement).open = true;
  void replayPane.load(transcript, source);
  $("replay-panel").scrollIntoView({ block: "start" });
});
