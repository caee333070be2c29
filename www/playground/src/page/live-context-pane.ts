// The Live context pane and its editor state form (cursor, selection).
import type { EditorState, LineCol, LiveContext, LiveContextOptions } from "../types";
import { h } from "../render";
import { formatPos, renderLiveContextView, renderSectionNav, type LiveView } from "../panes";
import { estimateTokens } from "../transcript";
import { $, LANG, app, errorText } from "./state";
import { docView } from "./document-pane";

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

// ---- editor state

function setPos(line: HTMLInputElement, column: HTMLInputElement, p: LineCol | null | undefined): void {
  line.value = p ? String(p.line) : "";
  column.value = p ? String(p.column) : "";
}

/** A position from two inputs: null when both are empty (the core checks the numbers). */
function readPos(line: HTMLInputElement, column: HTMLInputElement, what: string): LineCol | null {
  const l = line.value.trim();
  const c = column.value.trim();
  if (l === "" && c === "") return null;
  if (l === "") throw new Error(`${what}: give a line too`);
  return { line: Number(l), column: c === "" ? 1 : Number(c) };
}

/**
 * ws.setEditorState({ path: the document on screen, …state }); with `fill`, the inputs show the
 * state first. A position the core refuses is said under the form (the state is unchanged then).
 */
export function setEditorState(state: Omit<EditorState, "path">, { fill = false } = {}): boolean {
  const ws = app.ws;
  if (!ws) return false;
  if (fill) {
    setPos(cursorLine, cursorColumn, state.cursor);
    setPos(anchorLine, anchorColumn, state.selection?.anchor);
    setPos(headLine, headColumn, state.selection?.head);
  }
  try {
    ws.setEditorState({ path: app.path, ...state });
    editorError.textContent = "";
    return true;
  } catch (e) {
    editorError.textContent = `ws.setEditorState refused: ${errorText(e)}`;
    return false;
  }
}

function applyEditorForm(): void {
  let state: Omit<EditorState, "path">;
  try {
    const cursor = readPos(cursorLine, cursorColumn, "cursor");
    const anchor = readPos(anchorLine, anchorColumn, "selection from");
    const head = readPos(headLine, headColumn, "selection to");
    if ((anchor === null) !== (head === null)) throw new Error("a selection needs both ends (from and to)");
    state = {
      ...(cursor ? { cursor } : {}),
      ...(anchor && head ? { selection: { anchor, head } } : {}),
    };
  } catch (e) {
    editorError.textContent = e instanceof Error ? e.message : String(e);
    return;
  }
  if (setEditorState(state)) renderLiveContextPane();
}

/** The cursor / selection the user set in the document view (anchor === head: a plain cursor). */
export function editorStateFromDocument(anchor: LineCol, head: LineCol): void {
  const same = anchor.line === head.line && anchor.column === head.column;
  if (setEditorState(same ? { cursor: head } : { cursor: head, selection: { anchor, head } }, { fill: true })) {
    renderLiveContextPane();
  }
}

/** The editor state the core reports, on the document view: the cursor's line and the selected lines. */
function markDocumentCursor(e: LiveContext["json"]["editor_state"] | null): void {
  docView.showEditorState(e && e.active_path === app.path ? e : null);
}

// ---- live context

export function liveOptions(): LiveContextOptions {
  const o: LiveContextOptions = { path: app.path };
  const recent = lcRecent.value.trim();
  if (recent !== "") o.recentDiffs = Number(recent);
  const anchor = lcAnchor.value;
  o.anchor = anchor === "origin" || anchor === "none" ? anchor : { commitsBack: Number(anchor) };
  const max = lcMaxDoc.value.trim();
  if (max !== "") o.maxDocumentChars = Number(max);
  return o;
}

export function renderLiveContextPane(): void {
  const ws = app.ws;
  const view = $("lc-view");
  const meta = $("lc-meta");
  if (!ws) {
    view.replaceChildren();
    meta.replaceChildren();
    $("lc-sections-wrap").replaceChildren();
    return;
  }
  let lc: LiveContext;
  try {
    lc = ws.liveContext(liveOptions());
  } catch (e) {
    view.replaceChildren(h("p", { class: "args-error", "data-testid": "live-context-error" }, `ws.liveContext refused: ${errorText(e)}`));
    meta.replaceChildren();
    $("lc-sections-wrap").replaceChildren();
    markDocumentCursor(null);
    return;
  }
  const shown = renderLiveContextView(lc, app.liveView, LANG[app.locale]);
  view.replaceChildren(shown);
  view.dataset.view = app.liveView;
  // Section links: scroll the view to a part (its span in the raw text, its heading rendered).
  $("lc-sections-wrap").replaceChildren(
    app.liveView === "json"
      ? ""
      : renderSectionNav(lc, LANG[app.locale], (i) => {
          const target =
            app.liveView === "markdown"
              ? shown.querySelector<HTMLElement>(`[data-part="${i}"]`)
              : shown.querySelectorAll<HTMLElement>("h1, h2")[i];
          if (target) shown.scrollTop = target.offsetTop - 6;
        }),
  );
  const e = lc.json.editor_state;
  const editor = [
    e.cursor ? `cursor ${formatPos(e.cursor)}` : "no cursor",
    e.selection ? `selection ${formatPos(e.selection.anchor)} → ${formatPos(e.selection.head)}` : "",
  ].filter(Boolean);
  meta.replaceChildren(
    h(
      "span",
      {},
      `${lc.markdown.length.toLocaleString("en")} chars · ~${estimateTokens(lc.markdown).toLocaleString("en")} tokens · ${lc.content_parts.length} content parts`,
    ),
    " · editor: ",
    h("span", { class: "mono", "data-testid": "lc-editor-state" }, `${e.active_path} ${editor.join(", ")}`),
  );
  // The inputs show what the core holds (it drops a position the draft no longer has), unless
  // the user is typing in them.
  if (!editorForm.contains(document.activeElement)) {
    setPos(cursorLine, cursorColumn, e.cursor);
    setPos(anchorLine, anchorColumn, e.selection?.anchor);
    setPos(headLine, headColumn, e.selection?.head);
  }
  markDocumentCursor(e);
}

editorForm.addEventListener("submit", (e) => {
  e.preventDefault();
  applyEditorForm();
});
$("editor-clear").addEventListener("click", () => {
  if (setEditorState({}, { fill: true })) renderLiveContextPane();
});
for (const input of [lcRecent, lcMaxDoc]) input.addEventListener("change", renderLiveContextPane);
lcAnchor.addEventListener("change", renderLiveContextPane);
document.querySelectorAll<HTMLInputElement>('input[name="lc-view"]').forEach((radio) =>
  radio.addEventListener("change", () => {
    if (!radio.checked) return;
    app.liveView = radio.value as LiveView;
    renderLiveContextPane();
  }),
);
