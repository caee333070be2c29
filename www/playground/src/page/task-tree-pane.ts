// The Task tree pane.
import { renderTaskTree } from "../panes";
import { $ } from "./dom";
import { LANG, toolName, watch, type PageStore } from "./store";

export function mountTaskTree(store: PageStore): void {
  watch(
    store,
    (s) => [s.revs.workspace, s.path],
    (s) =>
      $("task-tree").replaceChildren(s.ws ? renderTaskTree(s.ws.tasks(), LANG[s.options.locale], toolName(s.options, "begin_task")) : ""),
    false,
  );
}
