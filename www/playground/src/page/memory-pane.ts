// The Memory pane: the store's turns and the form that adds one.
import { renderMemory } from "../panes";
import { $, memoryToggle, app, errorText, showNotice } from "./state";
import { recreateWorkspace } from "./workspace";
import { liveOptions, renderLiveContextPane } from "./live-context-pane";

const memSummary = $("mem-summary") as HTMLInputElement;
const memContext = $("mem-context") as HTMLTextAreaElement;
const memInsights = $("mem-insights") as HTMLInputElement;
const memTags = $("mem-tags") as HTMLInputElement;
const memError = $("mem-error");

export function renderMemoryPane(): void {
  const ws = app.ws;
  memoryToggle.checked = app.memory;
  $("memory-view").replaceChildren(ws ? renderMemory(ws.memory.turns(), ws.memory.digest()) : "");
}

function splitList(text: string, sep: RegExp): string[] {
  return text
    .split(sep)
    .map((x) => x.trim())
    .filter((x) => x !== "");
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
