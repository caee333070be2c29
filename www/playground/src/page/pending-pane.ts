// The Pending changes pane: the diff and the lettered changes.
import { renderPendingChanges } from "../render";
import { DiffView } from "../diffview";
import { $, app } from "./state";

const pendingDiff = new DiffView({ label: "Pending diff", testid: "pending-preview", emptyText: "(no pending changes)" });
$("pending-diff").replaceChildren(pendingDiff.dom);

export function renderPendingPanel(): void {
  pendingDiff.set(app.pending.preview);
  $("pending-list").replaceChildren(renderPendingChanges(app.pending.changes));
  $("pending-source").textContent = app.pending.source;
}
