// Argument skeletons for the tool console, from a tool's JSON Schema: every required property,
// with an empty value of its type (an enum's first value, a default when the schema gives one).
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import type { JsonSchema } from "./types";
import { t } from "./phrases";

function emptyValue(schema: JsonSchema | undefined): unknown {
  if (!schema) return "";
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== "null") : [schema.type];
  switch (types[0]) {
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    case "string":
      return "";
    default:
      // oneOf/anyOf (e.g. a letter or a number): a string is the friendliest blank.
      return "";
  }
}

export function argsSkeleton(schema: JsonSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!schema || !schema.properties) return out;
  for (const name of schema.required ?? []) out[name] = emptyValue(schema.properties[name]);
  return out;
}

/** The optional properties, for the console's hint line. */
export function optionalProps(schema: JsonSchema | undefined): string[] {
  if (!schema || !schema.properties) return [];
  const req = new Set(schema.required ?? []);
  return Object.keys(schema.properties).filter((k) => !req.has(k));
}

/** `syntax`: JSON.parse failed (`error` then carries its message, with the position it stopped at). */
export type ParsedArgs = { ok: true; value: Record<string, unknown> } | { ok: false; error: string; syntax: boolean };

/** The console's textarea: must be a JSON object (empty text means {}). */
export function parseArgs(text: string): ParsedArgs {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: t("schema.invalid_json", { error: (e as Error).message }), syntax: true };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: t("schema.not_object"), syntax: false };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

// ------------------------------------------------------------------ validation (ajv)

/** One problem with the arguments, at a range of the JSON text (for the editor's lint marks). */
export interface ArgProblem {
  from: number;
  to: number;
  message: string;
  /** What found it: JSON.parse (or the object check) or the tool's schema (ajv). */
  source: "json" | "schema";
}

export type CheckedArgs =
  { ok: true; value: Record<string, unknown>; problems: [] } | { ok: false; value: Record<string, unknown> | null; problems: ArgProblem[] };

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ValidateFunction | null>();

function validator(schema: JsonSchema): ValidateFunction | null {
  let v = compiled.get(schema);
  if (v === undefined) {
    // The core's schemas may name their draft; ajv's default draft-07 validates them the same way.
    const { $schema: _drop, ...rest } = schema as JsonSchema & { $schema?: unknown };
    try {
      v = ajv.compile(rest);
    } catch (e) {
      console.warn(`ajv could not compile a tool schema: ${(e as Error).message}`);
      v = null;
    }
    compiled.set(schema, v);
  }
  return v;
}

/** Where JSON.parse's error points (V8: "… at position N" and/or "(line L column C)"). */
function syntaxErrorAt(message: string, text: string): number {
  const pos = /at position (\d+)/.exec(message);
  if (pos) return Math.min(Number(pos[1]), text.length);
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) {
    const lines = text.split("\n");
    let at = 0;
    for (let i = 0; i < Number(lc[1]) - 1 && i < lines.length; i++) at += lines[i].length + 1;
    return Math.min(at + Number(lc[2]) - 1, text.length);
  }
  return text.length; // "Unexpected end of JSON input"
}

interface Span {
  key?: [number, number];
  value: [number, number];
}

/** Each JSON pointer of a valid JSON text → where its key and value are. */
export function pointerSpans(text: string): Map<string, Span> {
  const out = new Map<string, Span>();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const str = (): string => {
    const start = i;
    i++; // "
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (ptr: string, key?: [number, number]): void => {
    ws();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      while (i < text.length && text[i] !== "}") {
        ws();
        const ks = i;
        const name = str();
        const k: [number, number] = [ks, i];
        ws();
        i++; // :
        value(`${ptr}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, k);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === "[") {
      i++;
      ws();
      let n = 0;
      while (i < text.length && text[i] !== "]") {
        value(`${ptr}/${n++}`);
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && !/[\s,\]}]/.test(text[i])) i++;
    }
    out.set(ptr, { key, value: [start, i] });
  };
  value("");
  return out;
}

function describe(e: ErrorObject): string {
  const at = e.instancePath === "" ? t("schema.arguments") : e.instancePath.slice(1).replace(/\//g, ".");
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return t("schema.missing", { name: String(p.missingProperty) });
    case "additionalProperties":
      return t("schema.unknown", { name: String(p.additionalProperty) });
    case "enum":
      return t("schema.one_of", { at, values: (p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ") });
    case "type":
      return t("schema.type", { at, type: String(p.type) });
    case "minimum":
    case "maximum":
      return t(e.keyword === "minimum" ? "schema.minimum" : "schema.maximum", { at, limit: String(p.limit) });
    default:
      // ajv's own words for the rarer keywords (its messages are English).
      return `${at} ${e.message ?? t("schema.invalid")}`;
  }
}

/**
 * The console's arguments: a JSON object (empty text means {}) that `schema` accepts (ajv 8,
 * allErrors). Each problem carries the range to mark: a syntax error where JSON.parse stopped; a
 * property's error on its key (its value for array items); a missing property on the opening brace.
 */
export function checkArgs(text: string, schema: JsonSchema | undefined): CheckedArgs {
  const parsed = parseArgs(text);
  if (!parsed.ok) {
    const syntax = parsed.syntax;
    let from = 0;
    let to = text.length;
    if (syntax) {
      from = syntaxErrorAt(parsed.error, text);
      to = Math.min(text.length, from + 1);
      if (to === from && from > 0) from--; // at the end: mark the last character
    }
    return { ok: false, value: null, problems: [{ from, to, message: parsed.error, source: "json" }] };
  }
  const v = schema ? validator(schema) : null;
  if (!v || v(parsed.value)) return { ok: true, value: parsed.value, problems: [] };
  const spans = text.trim() === "" ? new Map<string, Span>() : pointerSpans(text);
  const errors = (v.errors ?? []).filter(
    // oneOf/anyOf repeat their branches' errors: keep the summary line only.
    (e, _i, all) => !all.some((o) => (o.keyword === "oneOf" || o.keyword === "anyOf") && e.schemaPath.startsWith(`${o.schemaPath}/`)),
  );
  const problems = errors.map((e): ArgProblem => {
    const p = e.params as Record<string, unknown>;
    const span = spans.get(e.instancePath);
    let range: [number, number] | undefined = span?.key ?? span?.value;
    if (e.keyword === "additionalProperties") {
      const extra = spans.get(`${e.instancePath}/${String(p.additionalProperty)}`);
      range = extra?.key ?? range;
    } else if (e.keyword === "required" && span) {
      range = [span.value[0], span.value[0] + 1];
    }
    const [from, to] = range ?? [0, Math.min(1, text.length)];
    return { from, to, message: describe(e), source: "schema" };
  });
  return { ok: false, value: parsed.value, problems };
}
