// The Document pane: the draft in CodeMirror, the candidates to stage or use.
import { candidateTier, h, renderCandidateList, renderNearMisses } from "../render";
import { DocView } from "../docview";
import { PREFIX, $, app } from "./state";
import { run } from "./workspace";
import { fillConsole } from "./console-pane";
import { renderContextPanes } from "./all-panes";
import { setEditorState, editorStateFromDocument } from "./live-context-pane";

const pathSelect = $("path-select") as HTMLSelectElement;

// The document and diff views (CodeMirror 6: src/docview.ts, src/diffview.ts), made once and
// updated in place by renderDocPanel / renderPendingPanel.
export const docView = new DocView($("doc"), {
  label: "Document (draft), read-only: move the cursor or select to set the editor state",
  onSelect: (anchor, head) => editorStateFromDocument(anchor, head),
});

export function renderDocPanel(): void {
  const ws = app.ws;
  const cands = $("candidates");
  pathSelect.replaceChildren();
  if (!ws) {
    docView.setText("");
    cands.replaceChildren();
    $("doc-meta").textContent = "";
    return;
  }
  const paths = ws.paths();
  for (const p of paths) pathSelect.append(h("option", { value: p }, p));
  pathSelect.value = app.path;
  pathSelect.disabled = paths.length < 2;
  const draft = ws.draft(app.path);
  // Highlights only while the selection is live and refers to exactly this draft.
  const sel = app.selection;
  const live = sel !== null && ws.state === "SelectionPending" && sel.path === app.path && sel.draft === draft;
  // The CodeMirror view (src/docview.ts) is updated in place: the text, then its decorations.
  docView.setText(draft);
  docView.setCandidates(live ? sel.candidates : []);
  docView.setPending(app.pending.changes, app.path);
  cands.replaceChildren();
  if (live) {
    const list = renderCandidateList(sel.candidates);
    const selectTool = `${PREFIX}_replace_selection`;
    const canStage = app.visible.includes(selectTool);
    list.querySelectorAll<HTMLTableRowElement>("tbody tr[data-candidate]").forEach((row) => {
      const c = sel.candidates.find((x) => x.id === row.dataset.candidate);
      const cell = row.querySelector(".actions");
      if (!c || !cell || c.stale) return;
      // Stage it now: memo_replace_selection with the new_text given with the search.
      if (canStage) {
        const stage = h(
          "button",
          {
            type: "button",
            class: `chip stage tier-${candidateTier(c)}`,
            "data-testid": `stage-candidate-${c.id}`,
            title: `run ${selectTool}({ selection_id: "${c.id}" }) now`,
          },
          `stage ${c.id}`,
        );
        stage.addEventListener("click", () => void run(selectTool, { selection_id: c.id }));
        cell.append(stage);
      }
      // Or fill the console with the last replace plus its match_id.
      if (app.lastReplaceArgs) {
        const use = h(
          "button",
          { type: "button", class: "chip", "data-testid": `use-candidate-${c.id}`, title: "fill the console with match_id" },
          `use ${c.id}`,
        );
        use.addEventListener("click", () => fillConsole(`${PREFIX}_replace`, { ...app.lastReplaceArgs, match_id: c.id }));
        cell.append(use);
      }
    });
    const tiers = new Set(sel.candidates.map((c) => candidateTier(c)));
    const note = tiers.has("near")
      ? "near misses: no match at any tier; stage one only if it is the place you meant"
      : tiers.has("fuzzy")
        ? "fuzzy matches: found only after normalising whitespace, indentation or look-alikes"
        : "";
    cands.append(
      h("h3", {}, "Candidates", note ? h("span", { class: "cand-note", "data-testid": "candidates-note" }, ` · ${note}`) : null),
      list,
    );
    // (A link shared before near misses were data carries their text: nothing is shown for it.)
    if (Array.isArray(sel.differs)) cands.append(h("h3", {}, "What differs"), renderNearMisses(sel.differs));
  }
  const lines = draft === "" ? 0 : docView.lines - (draft.endsWith("\n") ? 1 : 0);
  const changed = draft !== ws.text(app.path);
  $("doc-meta").textContent = `${app.path} · ${lines} lines · ${draft.length} chars${changed ? " · modified" : ""}`;
}

pathSelect.addEventListener("change", () => {
  app.path = pathSelect.value;
  renderDocPanel();
  // The editor shows the other document now: no cursor or selection in it yet.
  setEditorState({}, { fill: true });
  renderContextPanes();
});
