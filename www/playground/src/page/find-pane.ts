// The find box in the Document pane's head: a query runs the find tool on the document on screen,
// and the Document pane highlights and lists the units it ranked (docs/tools.md, memo_find).
import { $ } from "./dom";
import { toolName, watch, type PageCommands, type PageState, type PageStore } from "./store";

export function mountFind(store: PageStore, page: PageCommands): void {
  const form = $("find-form") as HTMLFormElement;
  const query = $("find-query") as HTMLInputElement;
  const run = $("find-run") as HTMLButtonElement;

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const s = store.state;
    const q = query.value.trim();
    if (!s.ws || s.busy || q === "") return;
    void page.run(toolName(s.options, "find"), { query: q, path: s.path });
  });

  const render = (s: PageState): void => {
    const offered = s.tools.all.includes(toolName(s.options, "find"));
    form.hidden = !offered;
    run.disabled = !s.ws || s.busy;
  };
  watch(store, (s) => [s.revs.workspace, s.busy, s.ws], render);
}
