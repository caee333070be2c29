// The document view: the draft in a read-only CodeMirror 6 editor. It shows what
// the core returned — candidates' ranges with their letter (and tier) as a badge, the draft ranges
// of the pending changes — and reports the cursor and selection the user sets, as the 1-based line
// and UTF-16 column the core's editor_state takes. It never matches or diffs text itself.
//
// One EditorView lives for the whole page; every update is a transaction (the text as the smallest
// change that turns the old draft into the new one, the decorations as StateEffects), so a 10 MB
// draft is not re-laid out on every call and the DOM only ever holds the visible lines.

import {
  Annotation,
  EditorSelection,
  EditorState,
  RangeSet,
  RangeSetBuilder,
  StateEffect,
  StateField,
  type Extension,
  type Range,
  type Text,
} from "@codemirror/state";
import {
  Decoration,
  EditorView,
  GutterMarker,
  ViewPlugin,
  WidgetType,
  gutterLineClass,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  type DecorationSet,
  type ViewUpdate,
} from "@codemirror/view";
import { defaultKeymap } from "@codemirror/commands";
import type { Candidate, LineCol, PendingChange } from "./types";
import { candidateLabel, candidateTier, tierTitle } from "./render";
import { followLocale, localizedEditor, type PhraseKey } from "./phrases";

/** Transactions the page makes itself (new text, decorations, the core's editor state): not the user's. */
const programmatic = Annotation.define<boolean>();

// ---------------------------------------------------------------- candidates

class BadgeWidget extends WidgetType {
  /** `wrap`: an empty range, so the widget brings its own <mark> (a mark decoration cannot be empty). */
  constructor(
    readonly c: Candidate,
    readonly wrap: boolean,
  ) {
    super();
  }
  eq(other: BadgeWidget): boolean {
    return other.wrap === this.wrap && sameCandidate(other.c, this.c);
  }
  toDOM(): HTMLElement {
    const tier = candidateTier(this.c);
    const badge = document.createElement("span");
    badge.className = `cand-badge tier-${tier}`;
    badge.setAttribute("aria-hidden", "true");
    badge.dataset.testid = `candidate-badge-${this.c.id}`;
    badge.textContent = candidateLabel(this.c);
    if (!this.wrap) return badge;
    const mark = document.createElement("mark");
    for (const [k, v] of Object.entries(markAttributes(this.c, this.c.line, true))) mark.setAttribute(k, v);
    mark.append(badge);
    return mark;
  }
  ignoreEvent(): boolean {
    return false;
  }
}

function sameCandidate(a: Candidate, b: Candidate): boolean {
  return (
    a.id === b.id &&
    a.context_start === b.context_start &&
    a.context_end === b.context_end &&
    a.match_quality === b.match_quality &&
    a.recommended === b.recommended &&
    a.stale === b.stale
  );
}

/** The <mark>'s attributes: the same classes and data attributes the tests and styles read. */
function markAttributes(c: Candidate, line: number, first: boolean): Record<string, string> {
  const tier = candidateTier(c);
  const attrs: Record<string, string> = {
    class: ["cand", `tier-${tier}`, c.recommended ? "recommended" : "", c.stale ? "stale" : ""].filter(Boolean).join(" "),
    "data-candidate": c.id,
    "data-line": String(line),
    "data-quality": c.match_quality,
    "data-tier": tier,
    title:
      `candidate ${c.id} · line ${c.line} · occurrence ${c.occurrence} · ${tierTitle(c)}` +
      (c.recommended ? " · recommended" : "") +
      (c.stale ? " · stale (its text was changed)" : ""),
  };
  if (first) attrs["data-testid"] = `candidate-${c.id}`;
  if (c.recommended) attrs["data-recommended"] = "";
  if (c.stale) attrs["data-stale"] = "";
  return attrs;
}

class LineClassMarker extends GutterMarker {
  constructor(readonly cls: string) {
    super();
    this.elementClass = cls;
  }
  eq(other: LineClassMarker): boolean {
    return other.cls === this.cls;
  }
}
const hasCandMarker = new LineClassMarker("has-cand");
const cursorMarker = new LineClassMarker("cursor-line");
const pendingMarker = new LineClassMarker("has-pending");

/**
 * Each candidate's range `[context_start, context_end)` (UTF-16 offsets, as CodeMirror's) as a
 * <mark> per line it covers, the badge (a widget inside the first) on its first line.
 */
function candidateDecorations(doc: Text, candidates: readonly Candidate[]): { marks: DecorationSet; gutter: RangeSet<GutterMarker> } {
  const ranges: Range<Decoration>[] = [];
  const lines = new Set<number>();
  const valid = [...candidates]
    .filter((c) => c.context_start >= 0 && c.context_end >= c.context_start && c.context_end <= doc.length)
    .sort((a, b) => a.context_start - b.context_start);
  for (const c of valid) {
    let first = true;
    let pos = c.context_start;
    if (c.context_start === c.context_end) {
      ranges.push(Decoration.widget({ widget: new BadgeWidget(c, true), side: 1 }).range(pos));
      lines.add(doc.lineAt(pos).from);
      continue;
    }
    while (pos < c.context_end) {
      const line = doc.lineAt(pos);
      const to = Math.min(c.context_end, line.to);
      lines.add(line.from);
      if (to > pos) {
        // inclusiveStart: the badge widget at the start renders inside the mark.
        ranges.push(
          Decoration.mark({ tagName: "mark", inclusiveStart: true, attributes: markAttributes(c, line.number, first) }).range(pos, to),
        );
        if (first) ranges.push(Decoration.widget({ widget: new BadgeWidget(c, false), side: 1 }).range(pos));
        first = false;
      }
      pos = line.to + 1; // past the line break
    }
  }
  const gutter = new RangeSetBuilder<GutterMarker>();
  for (const from of [...lines].sort((a, b) => a - b)) gutter.add(from, from, hasCandMarker);
  return { marks: Decoration.set(ranges, true), gutter: gutter.finish() };
}

// ---------------------------------------------------------------- pending changes

export interface PendingRange {
  id: string;
  from: number;
  to: number;
  old_text: string;
}

/**
 * The draft ranges of the pending changes of `path`, one per place (a replace-all has several): a
 * place's `position` is a UTF-16 offset into the base text, so in the draft it moves by the length
 * differences of the places before it. A range is kept only when the draft holds exactly the
 * place's new_text there.
 */
export function pendingRanges(doc: Text, changes: readonly PendingChange[], path: string): PendingRange[] {
  const out: PendingRange[] = [];
  let shift = 0;
  const places = changes.filter((x) => x.path === path).flatMap((x) => x.places.map((p) => ({ ...p, id: x.change_id })));
  for (const c of places.sort((a, b) => a.position - b.position)) {
    const from = c.position + shift;
    const to = from + c.new_text.length;
    shift += c.new_text.length - c.old_text.length;
    if (from < 0 || to > doc.length || doc.sliceString(from, to) !== c.new_text) continue;
    out.push({ id: c.id, from, to, old_text: c.old_text });
  }
  return out;
}

class DeletionWidget extends WidgetType {
  constructor(
    readonly id: string,
    readonly removed: string,
  ) {
    super();
  }
  eq(other: DeletionWidget): boolean {
    return other.id === this.id && other.removed === this.removed;
  }
  toDOM(): HTMLElement {
    const s = document.createElement("span");
    s.className = "pending-del";
    s.dataset.change = this.id;
    s.title = `pending change ${this.id}: deleted ${JSON.stringify(this.removed.length > 80 ? `${this.removed.slice(0, 79)}…` : this.removed)}`;
    s.setAttribute("aria-hidden", "true");
    s.textContent = "⌫";
    return s;
  }
}

function pendingDecorations(doc: Text, ranges: readonly PendingRange[]): { marks: DecorationSet; gutter: RangeSet<GutterMarker> } {
  const out: Range<Decoration>[] = [];
  const lines = new Set<number>();
  for (const r of ranges) {
    if (r.from === r.to) {
      out.push(Decoration.widget({ widget: new DeletionWidget(r.id, r.old_text), side: 1 }).range(r.from));
      lines.add(doc.lineAt(r.from).from);
      continue;
    }
    out.push(
      Decoration.mark({
        class: "pending",
        attributes: {
          "data-change": r.id,
          title: `pending change ${r.id} (was ${JSON.stringify(r.old_text.length > 80 ? `${r.old_text.slice(0, 79)}…` : r.old_text)})`,
        },
      }).range(r.from, r.to),
    );
    for (let l = doc.lineAt(r.from).number, end = doc.lineAt(r.to).number; l <= end; l++) lines.add(doc.line(l).from);
  }
  const gutter = new RangeSetBuilder<GutterMarker>();
  for (const from of [...lines].sort((a, b) => a - b)) gutter.add(from, from, pendingMarker);
  return { marks: Decoration.set(out, true), gutter: gutter.finish() };
}

// ---------------------------------------------------------------- state

interface Marks {
  marks: DecorationSet;
  gutter: RangeSet<GutterMarker>;
}
const emptyMarks: Marks = { marks: Decoration.none, gutter: RangeSet.empty };

const setCandidates = StateEffect.define<Marks>();
const setPending = StateEffect.define<Marks>();

function marksField(effect: typeof setCandidates): StateField<Marks> {
  return StateField.define<Marks>({
    create: () => emptyMarks,
    update(value, tr) {
      for (const e of tr.effects) if (e.is(effect)) return e.value;
      if (!tr.docChanged) return value;
      return { marks: value.marks.map(tr.changes), gutter: value.gutter.map(tr.changes) };
    },
    provide: (f) => [EditorView.decorations.from(f, (v) => v.marks), gutterLineClass.from(f, (v) => v.gutter)],
  });
}
const candidatesField = marksField(setCandidates);
const pendingField = marksField(setPending);

/** The editor state the core reports: the cursor's line and the selected lines (1-based). */
interface CoreEditor {
  cursorLine: number | null;
  selFrom: number | null;
  selTo: number | null;
}
const setCoreEditor = StateEffect.define<CoreEditor>();
const coreEditorField = StateField.define<CoreEditor>({
  create: () => ({ cursorLine: null, selFrom: null, selTo: null }),
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setCoreEditor)) return e.value;
    return value;
  },
  provide: (f) =>
    gutterLineClass.compute([f, "doc"], (state) => {
      const { cursorLine } = state.field(f);
      if (cursorLine === null || cursorLine < 1 || cursorLine > state.doc.lines) return RangeSet.empty;
      const from = state.doc.line(cursorLine).from;
      return RangeSet.of([cursorMarker.range(from)]);
    }),
});

/**
 * `data-line` on each visible line (tests and styles find a line by its number) and the core's
 * cursor / selected lines as classes: built for the visible ranges only, never the whole draft.
 */
const lineAttributes = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = this.build(view);
    }
    update(u: ViewUpdate): void {
      const moved = u.transactions.some((tr) => tr.effects.some((e) => e.is(setCoreEditor)));
      if (u.docChanged || u.viewportChanged || moved) this.decorations = this.build(u.view);
    }
    build(view: EditorView): DecorationSet {
      const b = new RangeSetBuilder<Decoration>();
      const core = view.state.field(coreEditorField);
      const doc = view.state.doc;
      let last = 0;
      for (const { from, to } of view.visibleRanges) {
        for (let pos = from; pos <= to;) {
          const line = doc.lineAt(pos);
          if (line.number > last) {
            const n = line.number;
            const cls = [
              n === core.cursorLine ? "cursor-line" : "",
              core.selFrom !== null && core.selTo !== null && n >= core.selFrom && n <= core.selTo ? "sel-line" : "",
            ]
              .filter(Boolean)
              .join(" ");
            b.add(
              line.from,
              line.from,
              Decoration.line({ attributes: cls ? { "data-line": String(n), class: cls } : { "data-line": String(n) } }),
            );
            last = n;
          }
          pos = line.to + 1;
        }
      }
      return b.finish();
    }
  },
  { decorations: (v) => v.decorations },
);

// ---------------------------------------------------------------- the view

export interface DocViewOptions {
  /** The accessible name of the editor's content (a phrase: it follows the page's locale). */
  label: PhraseKey;
  /** The user moved the cursor or changed the selection (anchor === head: a plain cursor). */
  onSelect: (anchor: LineCol, head: LineCol) => void;
}

export class DocView {
  readonly view: EditorView;
  private text = "";
  private pointerDown = false;
  /** The user's selection changed and the page has not been told yet. */
  private dirty = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    parent: HTMLElement,
    private readonly options: DocViewOptions,
  ) {
    const extensions: Extension[] = [
      EditorState.readOnly.of(true),
      EditorView.contentAttributes.of({ "aria-readonly": "true", tabindex: "0" }),
      localizedEditor(options.label),
      EditorView.editorAttributes.of({ "data-testid": "document" }),
      lineNumbers({
        domEventHandlers: {
          // A click on a line number: the cursor at the start of that line.
          mousedown: (view, line) => {
            view.dispatch({ selection: EditorSelection.cursor(line.from), userEvent: "select" });
            view.focus();
            return true;
          },
        },
      }),
      highlightSpecialChars(),
      keymap.of(defaultKeymap),
      candidatesField,
      pendingField,
      coreEditorField,
      lineAttributes,
      EditorView.domEventHandlers({
        mousedown: () => {
          this.pointerDown = true;
          return false;
        },
      }),
      EditorView.updateListener.of((u) => {
        if (u.transactions.some((tr) => tr.selection && !tr.annotation(programmatic))) this.scheduleSelect();
      }),
    ];
    this.view = new EditorView({ state: EditorState.create({ doc: "", extensions }), parent });
    followLocale(this.view, options.label);
    // A drag may end outside the editor: report the selection once the button is released.
    document.addEventListener("mouseup", () => {
      if (!this.pointerDown) return;
      this.pointerDown = false;
      if (this.dirty) this.scheduleSelect();
    });
    // For tests and debugging: the view from its host element.
    (parent as HTMLElement & { editorView?: EditorView }).editorView = this.view;
  }

  /** Reports the selection a moment later (key repeat), or on mouseup while the button is down. */
  private scheduleSelect(): void {
    this.dirty = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.pointerDown || !this.dirty) return;
      this.dirty = false;
      const { anchor, head } = this.view.state.selection.main;
      this.options.onSelect(this.lineCol(anchor), this.lineCol(head));
    }, 30);
  }

  /**
   * 1-based line and 1-based UTF-16 column of an offset. A final newline does not open a line for
   * the core, so the very end of a text that ends with one is the end of its last line.
   */
  lineCol(pos: number): LineCol {
    const doc = this.view.state.doc;
    let line = doc.lineAt(pos);
    if (line.number === doc.lines && line.number > 1 && line.length === 0) {
      line = doc.line(line.number - 1);
      return { line: line.number, column: line.length + 1 };
    }
    return { line: line.number, column: pos - line.from + 1 };
  }

  /** The offset of a 1-based line and column (clamped to the line), or null when the line is not there. */
  offset(p: LineCol): number | null {
    const doc = this.view.state.doc;
    if (!Number.isInteger(p.line) || p.line < 1 || p.line > doc.lines) return null;
    const line = doc.line(p.line);
    return Math.min(line.to, line.from + Math.max(0, p.column - 1));
  }

  get lines(): number {
    return this.view.state.doc.lines;
  }

  /**
   * Shows `text`: one transaction replacing only what differs between the shown text and it (the
   * common prefix and suffix stay), so the scroll position and unchanged lines are kept.
   */
  setText(text: string): void {
    const old = this.text;
    if (old === text) return;
    let start = 0;
    const max = Math.min(old.length, text.length);
    while (start < max && old.charCodeAt(start) === text.charCodeAt(start)) start++;
    // Do not split a surrogate pair.
    if (start > 0 && start < max && (old.charCodeAt(start - 1) & 0xfc00) === 0xd800) start--;
    let end = 0;
    while (end < max - start && old.charCodeAt(old.length - 1 - end) === text.charCodeAt(text.length - 1 - end)) end++;
    if (end > 0 && (old.charCodeAt(old.length - end) & 0xfc00) === 0xdc00) end--;
    this.text = text;
    this.view.dispatch({
      changes: { from: start, to: old.length - end, insert: text.slice(start, text.length - end) },
      annotations: programmatic.of(true),
    });
  }

  /** The candidates' ranges (UTF-16 offsets into the text shown); [] clears them. */
  setCandidates(candidates: readonly Candidate[]): void {
    const value = candidates.length === 0 ? emptyMarks : candidateDecorations(this.view.state.doc, candidates);
    if (value === emptyMarks && this.view.state.field(candidatesField) === emptyMarks) return;
    this.view.dispatch({ effects: setCandidates.of(value), annotations: programmatic.of(true) });
  }

  /** The pending changes of `path` highlighted at their draft ranges; returns those shown. */
  setPending(changes: readonly PendingChange[], path: string): PendingRange[] {
    const ranges = pendingRanges(this.view.state.doc, changes, path);
    const value = ranges.length === 0 ? emptyMarks : pendingDecorations(this.view.state.doc, ranges);
    if (value !== emptyMarks || this.view.state.field(pendingField) !== emptyMarks) {
      this.view.dispatch({ effects: setPending.of(value), annotations: programmatic.of(true) });
    }
    this.view.dom.dataset.pending = String(ranges.length);
    return ranges;
  }

  /**
   * The editor state the core holds: the cursor's line and the selected lines marked, and the
   * editor's own selection moved there (unless the user is making one right now).
   */
  showEditorState(e: { cursor: LineCol | null; selection: { anchor: LineCol; head: LineCol } | null } | null): void {
    const value: CoreEditor = {
      cursorLine: e?.cursor?.line ?? null,
      selFrom: e?.selection ? Math.min(e.selection.anchor.line, e.selection.head.line) : null,
      selTo: e?.selection ? Math.max(e.selection.anchor.line, e.selection.head.line) : null,
    };
    const spec: Parameters<EditorView["dispatch"]>[0] = { effects: setCoreEditor.of(value), annotations: programmatic.of(true) };
    const wantHead = e?.selection ? e.selection.head : (e?.cursor ?? null);
    const wantAnchor = e?.selection ? e.selection.anchor : wantHead;
    if (wantHead && wantAnchor && !this.pointerDown && !this.dirty) {
      // Compared as the core sees positions (the end after a final newline is the last line's end).
      const main = this.view.state.selection.main;
      const same = (a: LineCol, b: LineCol) => a.line === b.line && a.column === b.column;
      if (!same(this.lineCol(main.head), wantHead) || !same(this.lineCol(main.anchor), wantAnchor)) {
        const head = this.offset(wantHead);
        const anchor = this.offset(wantAnchor);
        if (head !== null && anchor !== null) spec.selection = EditorSelection.single(anchor, head);
      }
    }
    this.view.dispatch(spec);
  }

  /** Scrolls so that the 1-based line is in view. */
  scrollToLine(line: number): void {
    const at = this.offset({ line, column: 1 });
    if (at !== null) this.view.dispatch({ effects: EditorView.scrollIntoView(at, { y: "start" }), annotations: programmatic.of(true) });
  }
}
