// The Pending changes pane: the diff and the lettered changes.
import { renderPendingChanges } from "../render";
import { DiffView } from "../diffview";
import { $ } from "./dom";
import { watch, type PageStore } from "./store";

export function mountPending(store: PageStore): void {
  const pendingDiff = new DiffView({ label: "pending.diff_label", testid: "pending-preview", emptyText: "pending.no_changes" });
  $("pending-diff").replaceChildren(pendingDiff.dom);
  watch(
    store,
    (s) => [s.revs.workspace],
    (s) => {
      pendingDiff.set(s.pending.preview);
      $("pending-list").replaceChildren(renderPendingChanges(s.pending.changes));
      $("pending-source").textContent = s.pending.source;
    },
    false,
  );
}
