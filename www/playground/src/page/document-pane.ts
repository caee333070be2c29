// The Document pane: the draft in CodeMirror, the candidates to stage or use; the cursor and
// selection set in it become the workspace's editor state.
import { candidateTier, h, renderCandidateList, renderNearMisses } from "../render";
import { DocView } from "../docview";
import { $ } from "./dom";
import { liveContextKey, liveContextOf } from "./derive";
import { toolName, watch, type PageCommands, type PageState, type PageStore } from "./store";
import { t, type PhraseKey } from "../phrases";

export function mountDocument(store: PageStore, page: PageCommands): void {
  const pathSelect = $("path-select") as HTMLSelectElement;

  // The document view (CodeMirror 6: src/docview.ts), made once and updated in place.
  const docView = new DocView($("doc"), {
    label: "doc.view_label",
    onSelect: (anchor, head) => {
      // The cursor / selection the user set (anchor === head: a plain cursor).
      const same = anchor.line === head.line && anchor.column === head.column;
      page.setEditorState(same ? { cursor: head } : { cursor: head, selection: { anchor, head } }, true);
    },
  });

  function renderDocPanel(s: PageState): void {
    const ws = s.ws;
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
    pathSelect.value = s.path;
    pathSelect.disabled = paths.length < 2;
    const draft = ws.draft(s.path);
    // Highlights only while the selection is live and refers to exactly this draft.
    const sel = s.selection;
    // A find's units stay shown while the draft is the one they index (no choice is pending).
    const live = sel !== null && (ws.state === "SelectionPending" || sel.found === true) && sel.path === s.path && sel.draft === draft;
    // The CodeMirror view (src/docview.ts) is updated in place: the text, then its decorations.
    docView.setText(draft);
    docView.setCandidates(live ? sel.candidates : []);
    docView.setPending(s.pending.changes, s.path);
    cands.replaceChildren();
    if (live) {
      const list = renderCandidateList(sel.candidates);
      const selectTool = toolName(s.options, "replace_selection");
      const canStage = s.tools.visible.includes(selectTool) && sel.found !== true;
      const lastReplace = s.lastReplaceArgs;
      list.querySelectorAll<HTMLTableRowElement>("tbody tr[data-candidate]").forEach((row) => {
        const c = sel.candidates.find((x) => x.id === row.dataset.candidate);
        const cell = row.querySelector(".actions");
        if (!c || !cell || c.stale) return;
        // Stage it now: the selection tool with the new_text given with the search.
        if (canStage) {
          const stage = h(
            "button",
            {
              type: "button",
              class: `chip stage tier-${candidateTier(c)}`,
              "data-testid": `stage-candidate-${c.id}`,
              title: t("doc.stage_title", { call: `${selectTool}({ selection_id: "${c.id}" })` }),
            },
            t("doc.stage", { id: c.id }),
          );
          stage.addEventListener("click", () => void page.run(selectTool, { selection_id: c.id }));
          cell.append(stage);
        }
        // A unit a find ranked: read it, replace it whole, or search inside it.
        if (sel.found === true) {
          const chip = (verb: string, label: PhraseKey, title: string, act: () => void): void => {
            const b = h("button", { type: "button", class: "chip", "data-testid": `${verb}-unit-${c.id}`, title }, t(label, { id: c.id }));
            b.addEventListener("click", act);
            cell.append(b);
          };
          const read = toolName(s.options, "read");
          chip(
            "read",
            "doc.unit_read",
            t("doc.stage_title", { call: `${read}({ unit: "${c.id}" })` }),
            () => void page.run(read, { unit: c.id, path: sel.path }),
          );
          chip("replace", "doc.unit_replace", t("console.fill_title", { tool: `${selectTool}({ selection_id: "${c.id}" })` }), () =>
            store.dispatch({ type: "fillConsole", tool: selectTool, args: { selection_id: c.id, new_text: "" }, focus: true }),
          );
          const replace = toolName(s.options, "replace");
          chip("within", "doc.unit_within", t("console.fill_title", { tool: `${replace}({ within: "${c.id}" })` }), () =>
            store.dispatch({ type: "fillConsole", tool: replace, args: { old_text: "", new_text: "", within: c.id }, focus: true }),
          );
          return;
        }
        // Or fill the console with the last replace plus its match_id.
        if (lastReplace) {
          const use = h(
            "button",
            { type: "button", class: "chip", "data-testid": `use-candidate-${c.id}`, title: t("doc.use_title") },
            t("doc.use", { id: c.id }),
          );
          use.addEventListener("click", () =>
            store.dispatch({ type: "fillConsole", tool: toolName(s.options, "replace"), args: { ...lastReplace, match_id: c.id } }),
          );
          cell.append(use);
        }
      });
      const tiers = new Set(sel.candidates.map((c) => candidateTier(c)));
      const note = tiers.has("near") ? t("doc.note_near") : tiers.has("fuzzy") ? t("doc.note_fuzzy") : "";
      cands.append(
        h(
          "h3",
          {},
          t(sel.found === true ? "doc.units_found" : "doc.candidates"),
          note ? h("span", { class: "cand-note", "data-testid": "candidates-note" }, ` · ${note}`) : null,
        ),
        list,
      );
      // (A link shared before near misses were data carries their text: nothing is shown for it.)
      if (Array.isArray(sel.differs)) cands.append(h("h3", {}, t("render.what_differs")), renderNearMisses(sel.differs));
    }
    const lines = draft === "" ? 0 : docView.lines - (draft.endsWith("\n") ? 1 : 0);
    const changed = draft !== ws.text(s.path);
    $("doc-meta").textContent = t(changed ? "doc.meta_modified" : "doc.meta", { path: s.path, lines, chars: draft.length });
  }

  /** The editor state the core reports, on the document view: the cursor's line and the selected lines. */
  function markEditorState(s: PageState): void {
    const live = liveContextOf(s);
    const e = live?.ok ? live.lc.json.editor_state : null;
    docView.showEditorState(e && e.active_path === s.path ? e : null);
  }

  pathSelect.addEventListener("change", () => {
    store.dispatch({ type: "path", path: pathSelect.value });
    // The editor shows the other document now: no cursor or selection in it yet.
    page.setEditorState({}, true);
  });

  watch(store, (s) => [s.revs.workspace, s.path], renderDocPanel, false);
  watch(store, liveContextKey, markEditorState, false);
}
