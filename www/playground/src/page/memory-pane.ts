// The Memory pane: the store's turns and the form that adds one; the checkbox recreates the
// workspace with `memory: true`.
import { renderMemory } from "../panes";
import { $, errorText } from "./dom";
import { liveOptionsOf, toolName, watch, type PageCommands, type PageState, type PageStore } from "./store";
import { t } from "../phrases";

function splitList(text: string, sep: RegExp): string[] {
  return text
    .split(sep)
    .map((x) => x.trim())
    .filter((x) => x !== "");
}

export function mountMemory(store: PageStore, page: PageCommands): void {
  const memoryToggle = $("memory-tools") as HTMLInputElement;
  const memSummary = $("mem-summary") as HTMLInputElement;
  const memContext = $("mem-context") as HTMLTextAreaElement;
  const memInsights = $("mem-insights") as HTMLInputElement;
  const memTags = $("mem-tags") as HTMLInputElement;
  const memError = $("mem-error");

  function renderMemoryPane(s: PageState): void {
    memoryToggle.checked = s.options.memory;
    $("memory-view").replaceChildren(s.ws ? renderMemory(s.ws.memory.turns(), s.ws.memory.digest()) : "");
  }

  /** ws.memory.add() with the form's turn; the live context's Memory section shows its digest line. */
  function addMemoryTurn(): void {
    const { ws, options } = store.state;
    if (!ws) return;
    const summary = memSummary.value.trim();
    if (summary === "") {
      memError.textContent = t("mem.needs_summary");
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
      const finds = options.memory
        ? t("mem.can_find", { recall: toolName(options, "recall_context"), search: toolName(options, "search_memory") })
        : "";
      store.dispatch({ type: "notice", message: t("mem.stored", { turn }) + finds });
    } catch (e) {
      memError.textContent = t("mem.refused", { error: errorText(e) });
      return;
    }
    store.dispatch({ type: "memoryAdded" });
  }

  $("memory-form").addEventListener("submit", (e) => {
    e.preventDefault();
    addMemoryTurn();
  });
  $("mem-use-live").addEventListener("click", () => {
    const s = store.state;
    try {
      memContext.value = s.ws ? s.ws.liveContext(liveOptionsOf(s)).markdown : "";
    } catch (e) {
      memError.textContent = t("lc.refused", { error: errorText(e) });
    }
  });
  memoryToggle.addEventListener("change", () => {
    if (memoryToggle.checked !== store.state.options.memory) void page.recreate({ memory: memoryToggle.checked });
  });

  // Recreating the workspace while a call or a create is under way would free it under that call.
  watch(
    store,
    (s) => [s.busy],
    (s) => (memoryToggle.disabled = s.busy),
  );
  watch(store, (s) => [s.revs.workspace, s.revs.memory, s.path], renderMemoryPane, false);
}
