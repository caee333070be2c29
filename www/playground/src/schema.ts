// Argument skeletons for the tool console, from a tool's JSON Schema: every required property,
// with an empty value of its type (an enum's first value, a default when the schema gives one).
import type { JsonSchema } from "./types";

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

export type ParsedArgs = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** The console's textarea: must be a JSON object (empty text means {}). */
export function parseArgs(text: string): ParsedArgs {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Invalid JSON: ${(e as Error).message}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "Arguments must be a JSON object ({ … })." };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
