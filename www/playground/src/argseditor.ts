// The console's raw JSON arguments: a CodeMirror 6 editor with JSON highlighting
// (@codemirror/lang-json) and a linter (@codemirror/lint) that marks JSON syntax errors and the
// tool schema's errors (ajv, src/schema.ts checkArgs) where they are. The text is the source of
// truth; the form (src/form.ts) edits it through setText.
import { EditorState, Annotation } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { syntaxHighlighting, defaultHighlightStyle, bracketMatching } from "@codemirror/language";
import { linter, lintGutter, forceLinting, type Diagnostic } from "@codemirror/lint";
import type { ArgProblem } from "./schema";
import { followLocale, localizedEditor, type PhraseKey } from "./phrases";

/** Marks a change made by setText (not typed): onChange is not called for it. */
const external = Annotation.define<boolean>();

export interface ArgsEditorOptions {
  /** The accessible name (a phrase: it follows the page's locale). */
  label: PhraseKey;
  testid: string;
  /** The problems of a text (syntax and schema), for the lint marks. */
  check: (text: string) => ArgProblem[];
  /** Typed or pasted edits. */
  onChange: (text: string) => void;
  /** Ctrl/Cmd+Enter. */
  onRun: () => void;
}

export class ArgsEditor {
  readonly view: EditorView;

  constructor(parent: HTMLElement, o: ArgsEditorOptions) {
    const lint = linter(
      (view): Diagnostic[] =>
        o.check(view.state.doc.toString()).map((p) => ({
          from: Math.min(p.from, view.state.doc.length),
          to: Math.min(Math.max(p.to, p.from), view.state.doc.length),
          severity: "error",
          message: p.message,
          source: p.source === "json" ? "JSON" : "schema (ajv)",
        })),
      { delay: 150 },
    );
    this.view = new EditorView({
      parent,
      state: EditorState.create({
        doc: "{}",
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          json(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          lint,
          lintGutter(),
          keymap.of([
            {
              key: "Mod-Enter",
              run: () => {
                o.onRun();
                return true;
              },
            },
            indentWithTab,
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          localizedEditor(o.label),
          EditorView.contentAttributes.of({
            "aria-multiline": "true",
            "data-testid": o.testid,
            spellcheck: "false",
          }),
          EditorView.editorAttributes.of({ class: "args-editor", "data-testid": `${o.testid}-editor` }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !u.transactions.some((t) => t.annotation(external))) o.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    followLocale(this.view, o.label);
  }

  get text(): string {
    return this.view.state.doc.toString();
  }

  /** Replace the text (the form, a tool switch, a replayed call); re-lints at once. */
  setText(text: string): void {
    if (text === this.text) {
      this.relint();
      return;
    }
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text }, annotations: external.of(true) });
    this.relint();
  }

  /** Lint again now (the schema changed with the tool, or the text was set). */
  relint(): void {
    forceLinting(this.view);
  }

  setInvalid(invalid: boolean): void {
    this.view.dom.classList.toggle("invalid", invalid);
  }
}
