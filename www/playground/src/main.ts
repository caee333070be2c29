// agentpad playground: wires the real library (alias `@agentpad/core` → www/src/browser.ts) to the
// page. The page renders what the core returns; it never matches, diffs or formats on its own.
//
// The one entry (docs/architecture.md#the-playground): it makes the store with the page's options,
// the session (the effects), and mounts each pane with the two. No pane imports another.
import "./style.css";
import { SAMPLES } from "./samples";
import { createStore, initialState, reduce, watch, type PageOptions } from "./page/store";
import { startLocale } from "./locale/choose";
import { setPageLocale } from "./phrases";
import { createSession } from "./page/session";
import { errorText } from "./page/dom";
import { mountHeader } from "./page/header-pane";
import { mountConsole } from "./page/console-pane";
import { mountWorkflow } from "./page/workflow-pane";
import { mountDocument } from "./page/document-pane";
import { mountPending } from "./page/pending-pane";
import { mountResponse } from "./page/response-pane";
import { mountCallHistory } from "./page/call-history-pane";
import { mountLiveContext } from "./page/live-context-pane";
import { mountTaskTree } from "./page/task-tree-pane";
import { mountTokenMeter } from "./page/token-meter-pane";
import { mountMemory } from "./page/memory-pane";
import { mountReplayShare } from "./page/replay-share-pane";
import { mountAgent } from "./page/agent-pane";
import { mountFind } from "./page/find-pane";

/**
 * The options the page creates its workspaces with, until a header select, a share link or a
 * replay changes them. The tool prefix every pane writes tool names with comes from here.
 */
const OPTIONS: PageOptions = {
  persistMode: "manual",
  locale: startLocale(location.search, navigator.language),
  candidateStyle: "list", // the core's default (docs/responses.md#candidates)
  memory: false,
  toolPrefix: "memo",
};

const store = createStore(initialState(OPTIONS, SAMPLES[0]), reduce);
const page = createSession(store);

// The page's own words follow the session's locale (src/phrases.ts). Subscribed before any pane,
// so a pane drawn after a switch already draws in the new language.
watch(
  store,
  (s) => [s.options.locale],
  (s) => setPageLocale(s.options.locale),
);

mountHeader(store, page);
mountConsole(store, page);
mountWorkflow(store, page);
mountDocument(store, page);
mountFind(store, page);
mountPending(store);
mountResponse(store);
mountCallHistory(store, page);
mountLiveContext(store, page);
mountTaskTree(store);
mountTokenMeter(store);
mountMemory(store, page);
mountReplayShare(store, page);
mountAgent(store, page);

window.addEventListener("hashchange", () => void page.openShareLink(location.hash));
void (async () => {
  try {
    if (!(await page.openShareLink(location.hash))) await page.loadSample(SAMPLES[0]);
  } catch (e) {
    store.dispatch({ type: "fatal", message: errorText(e) });
  }
})();
