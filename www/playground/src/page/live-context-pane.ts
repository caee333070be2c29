// The Live context pane and its editor state form (cursor, selection).
import type { EditorState, LineCol, LiveContextOptions } from "../types";
import { h } from "../render";
import { formatPos, renderLiveContextView, renderSectionNav, type LiveView } from "../panes";
import { estimateTokens } from "../transcript";
import { $ } from "./dom";
import { liveContextKey, liveContextOf } from "./derive";
import { LANG, watch, type PageCommands, type PageState, type PageStore } from "./store";
import { t, type PhraseKey } from "../phrases";

function setPos(line: HTMLInputElement, column: HTMLInputElement, p: LineCol | null | undefined): void {
  line.value = p ? String(p.line) : "";
  column.value = p ? String(p.column) : "";
}

/** A position from two inputs: null when both are empty (the core checks the numbers). */
function readPos(line: HTMLInputElement, column: HTMLInputElement, what: PhraseKey): LineCol | null {
  const l = line.value.trim();
  const c = column.value.trim();
  if (l === "" && c === "") return null;
  if (l === "") throw new Error(t("lc.give_line", { what: t(what) }));
  return { line: Number(l), column: c === "" ? 1 : Number(c) };
}

export function mountLiveContext(store: PageStore, page: PageCommands): void {
  const cursorLine = $("cursor-line") as HTMLInputElement;
  const cursorColumn = $("cursor-column") as HTMLInputElement;
  const anchorLine = $("sel-anchor-line") as HTMLInputElement;
  const anchorColumn = $("sel-anchor-column") as HTMLInputElement;
  const headLine = $("sel-head-line") as HTMLInputElement;
  const headColumn = $("sel-head-column") as HTMLInputElement;
  const editorForm = $("editor-form") as HTMLFormElement;
  const editorError = $("editor-error");
  const lcRecent = $("lc-recent") as HTMLInputElement;
  const lcAnchor = $("lc-anchor") as HTMLSelectElement;
  const lcMaxDoc = $("lc-max-doc") as HTMLInputElement;

  function fillForm(state: { cursor?: LineCol | null; selection?: { anchor: LineCol; head: LineCol } | null }): void {
    setPos(cursorLine, cursorColumn, state.cursor);
    setPos(anchorLine, anchorColumn, state.selection?.anchor);
    setPos(headLine, headColumn, state.selection?.head);
  }

  function applyEditorForm(): void {
    let state: Omit<EditorState, "path">;
    try {
      const cursor = readPos(cursorLine, cursorColumn, "lc.pos_cursor");
      const anchor = readPos(anchorLine, anchorColumn, "lc.pos_from");
      const head = readPos(headLine, headColumn, "lc.pos_to");
      if ((anchor === null) !== (head === null)) throw new Error(t("lc.both_ends"));
      state = {
        ...(cursor ? { cursor } : {}),
        ...(anchor && head ? { selection: { anchor, head } } : {}),
      };
    } catch (e) {
      editorError.textContent = e instanceof Error ? e.message : String(e);
      return;
    }
    page.setEditorState(state);
  }

  /** The live-context options from the form (the document is the one on screen). */
  function readOptions(): Omit<LiveContextOptions, "path"> {
    const o: Omit<LiveContextOptions, "path"> = {};
    const recent = lcRecent.value.trim();
    if (recent !== "") o.recentDiffs = Number(recent);
    const anchor = lcAnchor.value;
    o.anchor = anchor === "origin" || anchor === "none" ? anchor : { commitsBack: Number(anchor) };
    const max = lcMaxDoc.value.trim();
    if (max !== "") o.maxDocumentChars = Number(max);
    return o;
  }

  function renderLiveContextPane(s: PageState): void {
    const view = $("lc-view");
    const meta = $("lc-meta");
    const live = liveContextOf(s);
    if (!live) {
      view.replaceChildren();
      meta.replaceChildren();
      $("lc-sections-wrap").replaceChildren();
      return;
    }
    if (!live.ok) {
      view.replaceChildren(h("p", { class: "args-error", "data-testid": "live-context-error" }, t("lc.refused", { error: live.error })));
      meta.replaceChildren();
      $("lc-sections-wrap").replaceChildren();
      return;
    }
    const lc = live.lc;
    const lang = LANG[s.options.locale];
    const shown = renderLiveContextView(lc, s.liveView, lang);
    view.replaceChildren(shown);
    view.dataset.view = s.liveView;
    // Section links: scroll the view to a part (its span in the raw text, its heading rendered).
    $("lc-sections-wrap").replaceChildren(
      s.liveView === "json"
        ? ""
        : renderSectionNav(lc, lang, (i) => {
            const target =
              s.liveView === "markdown"
                ? shown.querySelector<HTMLElement>(`[data-part="${i}"]`)
                : shown.querySelectorAll<HTMLElement>("h1, h2")[i];
            if (target) shown.scrollTop = target.offsetTop - 6;
          }),
    );
    const e = lc.json.editor_state;
    const editor = [
      e.cursor ? t("lc.state_cursor", { pos: formatPos(e.cursor) }) : t("lc.state_no_cursor"),
      e.selection ? t("lc.state_selection", { from: formatPos(e.selection.anchor), to: formatPos(e.selection.head) }) : "",
    ].filter(Boolean);
    meta.replaceChildren(
      h(
        "span",
        {},
        t("lc.meta", {
          chars: lc.markdown.length.toLocaleString("en"),
          tokens: estimateTokens(lc.markdown).toLocaleString("en"),
          parts: lc.content_parts.length,
        }),
      ),
      t("lc.meta_editor"),
      h("span", { class: "mono", "data-testid": "lc-editor-state" }, `${e.active_path} ${editor.join(", ")}`),
    );
    // The inputs show what the core holds (it drops a position the draft no longer has), unless
    // the user is typing in them.
    if (!editorForm.contains(document.activeElement)) fillForm(e);
  }

  editorForm.addEventListener("submit", (e) => {
    e.preventDefault();
    applyEditorForm();
  });
  $("editor-clear").addEventListener("click", () => page.setEditorState({}, true));
  const optionsChanged = () => store.dispatch({ type: "liveOptions", options: readOptions() });
  for (const input of [lcRecent, lcMaxDoc]) input.addEventListener("change", optionsChanged);
  lcAnchor.addEventListener("change", optionsChanged);
  document.querySelectorAll<HTMLInputElement>('input[name="lc-view"]').forEach((radio) =>
    radio.addEventListener("change", () => {
      if (radio.checked) store.dispatch({ type: "liveView", view: radio.value as LiveView });
    }),
  );
  store.dispatch({ type: "liveOptions", options: readOptions() });

  // An editor state asked for: the form shows it (when asked to) and the core's refusal, if any.
  watch(
    store,
    (s) => [s.editor],
    (s) => {
      if (s.editor.asked) fillForm(s.editor.asked);
      editorError.textContent = s.editor.error;
    },
    false,
  );
  watch(store, (s) => [...liveContextKey(s), s.liveView], renderLiveContextPane, false);
}
