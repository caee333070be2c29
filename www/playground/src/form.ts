// A form for a tool's arguments, built from its JSON Schema (the core's definition): an enum is a
// select, a boolean a three-way select (unset / true / false), an integer a number field, a string
// a text field (a textarea for texts that may span lines). The JSON textarea stays the source of
// truth: the form reads the parsed arguments and reports each edit through onChange.
import { h } from "./render";
import type { JsonSchema } from "./types";
import { t, tn } from "./phrases";

/** `undefined` removes the argument. */
export type ArgChange = (name: string, value: unknown) => void;

const UNSET = "";

function types(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

/** Strings that are document text (may hold line breaks) get a textarea. */
function isLongText(name: string): boolean {
  return name === "text" || name.endsWith("_text") || name.startsWith("old_span") || name === "search_after";
}

function control(name: string, prop: JsonSchema, required: boolean, value: unknown, onChange: ArgChange): HTMLElement {
  const testid = `arg-${name}`;
  const ts = types(prop);
  const title = prop.description ?? "";
  // enum → select (first option "unset" for an optional argument)
  if (Array.isArray(prop.enum) || ts.includes("boolean")) {
    const options: unknown[] = Array.isArray(prop.enum) ? prop.enum : [true, false];
    const select = h("select", { "data-testid": testid, "data-arg": name, title, ...FROM_SCHEMA });
    if (!required || value === undefined) {
      select.append(h("option", { value: UNSET }, t(required ? "form.choose" : "form.unset")));
    }
    options.forEach((o, i) => select.append(h("option", { value: String(i), translate: "no" }, String(o))));
    const at = options.findIndex((o) => o === value);
    select.value = at >= 0 ? String(at) : UNSET;
    if (value !== undefined && at < 0) {
      // A value the schema does not allow: show it, the core will answer InvalidArguments.
      select.append(h("option", { value: "bad", disabled: true }, t("form.invalid", { value: JSON.stringify(value) })));
      select.value = "bad";
    }
    select.addEventListener("change", () => {
      onChange(name, select.value === UNSET ? undefined : options[Number(select.value)]);
    });
    return select;
  }
  const numeric = ts.includes("integer") || ts.includes("number");
  const stringy = ts.includes("string") || ts.length === 0;
  if (numeric && !stringy) {
    const input = h("input", {
      type: "number",
      "data-testid": testid,
      "data-arg": name,
      title,
      ...FROM_SCHEMA,
      min: typeof prop.minimum === "number" ? prop.minimum : undefined,
      step: ts.includes("integer") ? 1 : "any",
      placeholder: required ? "" : t("form.unset"),
    });
    input.value = typeof value === "number" ? String(value) : "";
    input.addEventListener("input", () => {
      const t = input.value.trim();
      onChange(name, t === "" && !required ? undefined : t === "" ? 0 : Number(t));
    });
    return input;
  }
  // A string, or "a letter or its number" (["string", "integer"]): digits become a number.
  const toValue = (t: string): unknown => {
    if (t === "" && !required) return undefined;
    if (numeric && /^\d+$/.test(t)) return Number(t);
    return t;
  };
  const text = value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (isLongText(name)) {
    const area = h("textarea", {
      "data-testid": testid,
      "data-arg": name,
      title,
      ...FROM_SCHEMA,
      rows: Math.min(6, Math.max(1, text.split("\n").length)),
      spellcheck: "false",
      placeholder: required ? "" : t("form.unset"),
    });
    area.value = text;
    area.addEventListener("input", () => onChange(name, toValue(area.value)));
    return area;
  }
  const input = h("input", {
    type: "text",
    "data-testid": testid,
    "data-arg": name,
    title,
    ...FROM_SCHEMA,
    spellcheck: "false",
    placeholder: required ? "" : t("form.unset"),
  });
  input.value = text;
  input.addEventListener("input", () => onChange(name, toValue(input.value)));
  return input;
}

/**
 * The form for `schema` showing `args`. Required arguments first (marked `*`), then the optional
 * ones in the schema's order. `args === null` (the JSON does not parse) disables it.
 */
export function renderArgsForm(schema: JsonSchema | undefined, args: Record<string, unknown> | null, onChange: ArgChange): HTMLElement {
  const form = h("fieldset", { class: "args-form", "data-testid": "args-form" });
  const props = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const names = [...Object.keys(props).filter((n) => required.has(n)), ...Object.keys(props).filter((n) => !required.has(n))];
  if (names.length === 0) {
    form.append(h("span", { class: "muted small" }, t("form.no_args")));
    return form;
  }
  if (args === null) {
    form.disabled = true;
    form.append(h("span", { class: "muted small form-note" }, t("form.fix_json")));
  }
  // Many arguments: the optional ones not set yet fold away under "more".
  const fold = names.length > FOLD_OVER;
  const more = h("details", { class: "more-args", "data-testid": "more-args" });
  const moreGrid = h("div", { class: "more-grid" });
  let folded = 0;
  for (const name of names) {
    const prop = props[name] ?? {};
    const req = required.has(name);
    const value = args?.[name];
    const row = h(
      "label",
      { class: `arg-row${req ? " required" : ""}${value === undefined ? " unset" : ""}`, title: prop.description ?? "", ...FROM_SCHEMA },
      h(
        "span",
        { class: "arg-name" },
        h("span", { translate: "no" }, name),
        req ? h("span", { class: "req", "aria-label": t("form.required") }, "*") : null,
      ),
      control(name, prop, req, value, onChange),
    );
    if (fold && !req && value === undefined) {
      moreGrid.append(row);
      folded++;
    } else {
      form.append(row);
    }
  }
  if (folded > 0) {
    more.open = moreOpen;
    more.addEventListener("toggle", () => {
      moreOpen = more.open;
    });
    more.append(h("summary", {}, tn("form.more", folded)), moreGrid);
    form.append(more);
  }
  return form;
}

/** A title that is the tool schema's description: the core's text, in the core's words (not the page's). */
const FROM_SCHEMA = { "data-title-source": "schema" } as const;

/** Tools with more arguments than this fold their unset optional ones away. */
const FOLD_OVER = 4;
/** Whether "more" is open, kept across re-renders. */
let moreOpen = false;
