// The page's own words in the session's locale (docs/decisions.md#the-playground-speaks-the-sessions-locale):
// one table per locale (src/locale/en.ts, src/locale/zh.ts, the same keys, `{name}` placeholders),
// as the core keeps one per locale (src/locale/*.rs) and CodeMirror takes `EditorState.phrases`.
// Static text carries `data-t="key"` (`data-t-title`, `data-t-placeholder`, `data-t-aria-label`,
// `data-t-label`, with `data-t-vars` as JSON); `setPageLocale` fills every such element again, so a
// part built once follows a switch as the panes drawn anew do.
import { Compartment, EditorState, type Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { en, type PhraseKey } from "./locale/en";
import { zh, CODEMIRROR_ZH } from "./locale/zh";
import type { Locale } from "./types";

export type { PhraseKey };
export type Vars = Record<string, string | number>;
/** A key with `.one` / `.other` forms: `tn("calls", 3)`. */
export type PluralKey = { [K in PhraseKey]: K extends `${infer B}.one` ? B : never }[PhraseKey];

const TABLES: Record<Locale, Record<PhraseKey, string>> = { en, zh };
/** The `lang` the page's own text carries in each locale. */
export const PAGE_LANG: Record<Locale, string> = { en: "en", zh: "zh-Hans" };

let current: Locale = "en";

export const pageLocale = (): Locale => current;

/** The phrase `key` in the page's locale, its `{name}` placeholders filled from `vars`. */
export function t(key: PhraseKey, vars: Vars = {}): string {
  const text = TABLES[current][key] ?? en[key];
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? String(vars[name]) : all));
}

/** `f` run with the phrases of `locale` (the current one when undefined): words for a state the page is about to take on. */
export function inLocale<T>(locale: Locale | undefined, f: () => T): T {
  const was = current;
  current = locale ?? current;
  try {
    return f();
  } finally {
    current = was;
  }
}

/** A counted phrase: `key.one` for 1, `key.other` otherwise; `{n}` is the count. */
export function tn(key: PluralKey, n: number, vars: Vars = {}): string {
  return t(`${key}.${n === 1 ? "one" : "other"}` as PhraseKey, { ...vars, n });
}

// `data-empty` is what a list shows while it is empty (CSS `content: attr(data-empty)`).
const ATTRS = ["title", "placeholder", "aria-label", "label", "data-empty"] as const;

/** Fills the text and attributes of every element under `root` that names a phrase. */
export function applyPhrases(root: ParentNode): void {
  const marked = root.querySelectorAll<HTMLElement>(
    "[data-t],[data-t-title],[data-t-placeholder],[data-t-aria-label],[data-t-label],[data-t-data-empty]",
  );
  for (const el of marked) {
    const vars = el.dataset.tVars ? (JSON.parse(el.dataset.tVars) as Vars) : {};
    const key = el.dataset.t as PhraseKey | undefined;
    if (key !== undefined) el.textContent = t(key, vars);
    for (const a of ATTRS) {
      const k = el.getAttribute(`data-t-${a}`) as PhraseKey | null;
      if (k !== null) el.setAttribute(a, t(k, vars));
    }
  }
}

/** Marks `el` as showing the phrase `key` (kept in step with the locale) and fills it now. */
export function phrase<E extends HTMLElement>(el: E, key: PhraseKey, vars?: Vars): E {
  el.dataset.t = key;
  if (vars !== undefined) el.dataset.tVars = JSON.stringify(vars);
  el.textContent = t(key, vars);
  return el;
}

/** As `phrase`, for an attribute (`title`, `placeholder`, `aria-label`, `label`). */
export function phraseAttr<E extends HTMLElement>(el: E, attr: (typeof ATTRS)[number], key: PhraseKey, vars?: Vars): E {
  el.setAttribute(`data-t-${attr}`, key);
  if (vars !== undefined) el.dataset.tVars = JSON.stringify(vars);
  el.setAttribute(attr, t(key, vars));
  return el;
}

// ---------------------------------------------------------------- CodeMirror

const editorLocale = new Compartment();
const editors = new Map<EditorView, PhraseKey>();

function editorWords(label: PhraseKey): Extension {
  return [EditorView.contentAttributes.of({ "aria-label": t(label) }), current === "zh" ? EditorState.phrases.of(CODEMIRROR_ZH) : []];
}

/** An editor's accessible name and CodeMirror's own phrases, in the page's locale. */
export function localizedEditor(label: PhraseKey): Extension {
  return editorLocale.of(editorWords(label));
}

/** After the view exists: it follows later switches (its label is the phrase `label`). */
export function followLocale(view: EditorView, label: PhraseKey): void {
  editors.set(view, label);
}

// ---------------------------------------------------------------- the switch

/**
 * The page's language becomes `locale`: `<html lang>`, the marked text and attributes, the
 * editors. Panes drawn from the state call `t` when they draw, after this (main.ts subscribes it
 * first).
 */
export function setPageLocale(locale: Locale, title: PhraseKey = "page.title"): void {
  current = locale;
  document.documentElement.lang = PAGE_LANG[locale];
  document.title = t(title);
  applyPhrases(document);
  for (const [view, label] of editors) {
    if (!view.dom.isConnected) editors.delete(view);
    else view.dispatch({ effects: editorLocale.reconfigure(editorWords(label)) });
  }
}
