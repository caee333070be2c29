// The Task tree pane.
import { renderTaskTree } from "../panes";
import { $, LANG, app } from "./state";

export function renderTaskTreePane(): void {
  const ws = app.ws;
  $("task-tree").replaceChildren(ws ? renderTaskTree(ws.tasks(), LANG[app.locale]) : "");
}
