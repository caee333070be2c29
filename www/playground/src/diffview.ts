// The diff view: the core's own diff text — a preview (`12│-old`, `12│+new`, `11│ ctx`,
// right-aligned to each hunk's widest number) or memo_diff's unified diff (`---`/`+++`,
// `@@ … @@`, `-`/`+`/` ` lines) — in a read-only CodeMirror 6 editor, each line decorated by its
// first mark. The page runs no diff algorithm of its own: it only classifies the lines the core
// wrote, so it cannot disagree with it.

import { EditorState, RangeSetBuilder, type Extension } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, keymap, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import { defaultKeymap } from "@codemirror/commands";
import { followLocale, localizedEditor, phrase, type PhraseKey } from "./phrases";

export type DiffLineKind = "add" | "del" | "ctx" | "hunk" | "file" | "meta";

/** What a line of the core's diff text is, by the mark after its gutter bar or in its first column. */
export function diffLineKind(line: string): { kind: DiffLineKind; gutter: number } {
  const bar = line.indexOf("│");
  if (bar >= 0) {
    const mark = line.charAt(bar + 1);
    return { kind: mark === "-" ? "del" : mark === "+" ? "add" : "ctx", gutter: bar + 1 };
  }
  if (line.startsWith("@@")) return { kind: "hunk", gutter: 0 };
  if (line.startsWith("---") || line.startsWith("+++")) return { kind: "file", gutter: 0 };
  if (line.startsWith("-")) return { kind: "del", gutter: 0 };
  if (line.startsWith("+")) return { kind: "add", gutter: 0 };
  if (line.startsWith(" ")) return { kind: "ctx", gutter: 0 };
  return { kind: "meta", gutter: 0 };
}

const lineDeco: Record<DiffLineKind, Decoration> = Object.fromEntries(
  (["add", "del", "ctx", "hunk", "file", "meta"] as const).map((k) => [
    k,
    Decoration.line({ attributes: { class: `dl ${k}`, "data-kind": k } }),
  ]),
) as Record<DiffLineKind, Decoration>;
const gutterMark = Decoration.mark({ class: "dl-gutter" });

/** Line decorations (and the core's `12│` gutter dimmed) for the visible lines only. */
const diffLines = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = this.build(view);
    }
    update(u: ViewUpdate): void {
      if (u.docChanged || u.viewportChanged) this.decorations = this.build(u.view);
    }
    build(view: EditorView): DecorationSet {
      const b = new RangeSetBuilder<Decoration>();
      const doc = view.state.doc;
      let last = 0;
      for (const { from, to } of view.visibleRanges) {
        for (let pos = from; pos <= to;) {
          const line = doc.lineAt(pos);
          if (line.number > last) {
            const { kind, gutter } = diffLineKind(line.text);
            b.add(line.from, line.from, lineDeco[kind]);
            if (gutter > 0) b.add(line.from, line.from + gutter, gutterMark);
            last = line.number;
          }
          pos = line.to + 1;
        }
      }
      return b.finish();
    }
  },
  { decorations: (v) => v.decorations },
);

/**
 * A read-only view of a diff text, made once and updated in place. While there is no text it shows
 * `emptyText` instead (the wrapper then has the class `empty`).
 */
export class DiffView {
  readonly dom: HTMLElement;
  readonly view: EditorView;
  private readonly empty: HTMLElement;
  private readonly host: HTMLElement;
  private text: string | null = null;

  constructor(options: { label: PhraseKey; testid: string; emptyText: PhraseKey }) {
    this.dom = document.createElement("div");
    this.dom.className = "diff-view";
    this.dom.dataset.testid = options.testid;
    this.empty = document.createElement("p");
    this.empty.className = "diff-empty";
    phrase(this.empty, options.emptyText);
    const extensions: Extension[] = [
      EditorState.readOnly.of(true),
      EditorView.contentAttributes.of({ "aria-readonly": "true", tabindex: "0" }),
      localizedEditor(options.label),
      keymap.of(defaultKeymap),
      diffLines,
    ];
    this.host = document.createElement("div");
    this.view = new EditorView({ state: EditorState.create({ doc: "", extensions }), parent: this.host });
    followLocale(this.view, options.label);
    this.dom.append(this.empty, this.host);
    (this.dom as HTMLElement & { editorView?: EditorView }).editorView = this.view;
    this.set(null);
  }

  /** Shows the core's diff text (its final newline dropped), or the empty note for null / "". */
  set(text: string | null): void {
    const shown = text === null || text === "" ? null : text.replace(/\n$/, "");
    const none = shown === null;
    this.dom.classList.toggle("empty", none);
    this.empty.hidden = !none;
    this.host.hidden = none;
    if (shown === this.text) return;
    this.text = shown;
    const doc = this.view.state.doc;
    this.view.dispatch({ changes: { from: 0, to: doc.length, insert: shown ?? "" }, selection: { anchor: 0 } });
    if (!none) this.view.requestMeasure();
  }
}
