// Tool definitions and tool-call results shaped for each LLM SDK (docs/architecture.md#module-map).
// One registry — the core's ToolDefinition list — and a thin, pure view per format; the SDKs
// themselves are never imported (their types are checked against these shapes in the tests).

import type {
  AiSdkTool,
  AiSdkTools,
  AnthropicToolCall,
  AnthropicToolResult,
  GeminiFunctionCall,
  GeminiFunctionResponsePart,
  JsonSchema,
  McpCallToolResult,
  McpToolCall,
  ObjectSchema,
  OpenAIResponsesToolCall,
  OpenAIResponsesToolResult,
  OpenAIToolResult,
  ToolResponse,
  Status,
  ToolCallFormat,
  ToolDefinition,
  ToolFormat,
  ToolFormatMap,
} from "./types.js";

/**
 * Whether a status is reported to the model as a failed tool call (Anthropic `is_error`, MCP
 * `isError`, Gemini `error`): every status whose Markdown overview is `[Fail]`. `Success`,
 * `NoOp` (nothing to change) and `MultiMatch` (a choice to make: the call worked and lists the
 * candidates) are not errors; `NoMatch`, `InvalidArguments`, `Blocked`, `StaleReference`,
 * `ExternalConflict`, `PersistFailure` and `Exception` are.
 */
export function isErrorStatus(status: Status): boolean {
  return status !== "Success" && status !== "NoOp" && status !== "MultiMatch";
}

/** Keywords OpenAI strict mode (and other strict tool-use modes) refuse or may refuse. */
const CONSTRAINTS: Array<[keyof JsonSchema, (v: unknown) => string]> = [
  ["minimum", (v) => `≥ ${v}`],
  ["exclusiveMinimum", (v) => `> ${v}`],
  ["maximum", (v) => `≤ ${v}`],
  ["exclusiveMaximum", (v) => `< ${v}`],
  ["multipleOf", (v) => `a multiple of ${v}`],
  ["minLength", (v) => `at least ${v} characters`],
  ["maxLength", (v) => `at most ${v} characters`],
  ["pattern", (v) => `matching /${v}/`],
  ["format", (v) => `format ${v}`],
  ["minItems", (v) => `at least ${v} item${v === 1 ? "" : "s"}`],
  ["maxItems", (v) => `at most ${v} item${v === 1 ? "" : "s"}`],
];

/** Keywords kept as they are by {@link strictSchema} (the rest are dropped or folded into descriptions). */
const KEPT = new Set(["type", "description", "enum", "const", "items", "properties", "required", "additionalProperties", "anyOf", "title"]);

/**
 * A copy of `schema` that OpenAI strict mode accepts (`strict: true` on a function tool):
 * every property is listed in `required`, an optional one becomes nullable (`"null"` added to its
 * `type`, and `null` to its `enum`), every object has `additionalProperties: false`, `oneOf` becomes
 * `anyOf`, and the value constraints strict mode refuses (`minimum`, `maxItems`, `pattern`, …)
 * are moved into the description as words ("(≥ 1)") — the workspace still checks them and
 * answers `InvalidArguments` when one is broken. The workspace reads a `null` argument as absent,
 * so the model's `null`s for optional arguments mean "use the default". Pure; O(size of schema).
 */
export function strictSchema(schema: ObjectSchema): ObjectSchema {
  return strictNode(schema, false) as ObjectSchema;
}

function strictNode(node: JsonSchema, nullable: boolean): JsonSchema {
  const out: JsonSchema = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(node) as Array<[keyof JsonSchema, unknown]>) {
    const constraint = CONSTRAINTS.find(([k]) => k === key);
    if (constraint !== undefined) {
      notes.push(constraint[1](value));
    } else if (key === "oneOf") {
      out.anyOf = (value as JsonSchema[]).map((s) => strictNode(s, false));
    } else if (key === "anyOf") {
      out.anyOf = (value as JsonSchema[]).map((s) => strictNode(s, false));
    } else if (key === "items") {
      out.items = strictNode(value as JsonSchema, false);
    } else if (KEPT.has(key) && key !== "properties" && key !== "required" && key !== "additionalProperties") {
      (out as Record<string, unknown>)[key] = value;
    }
    // Anything else (default, examples, $comment, …) is dropped: strict mode refuses unknown keywords.
  }
  if (node.properties !== undefined || node.type === "object") {
    const properties = node.properties ?? {};
    const required = new Set(node.required ?? []);
    out.properties = {};
    for (const [name, prop] of Object.entries(properties)) {
      out.properties[name] = strictNode(prop, !required.has(name));
    }
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (notes.length > 0) {
    const words = `(${notes.join(", ")})`;
    out.description = out.description ? `${out.description} ${words}` : words;
  }
  if (nullable) makeNullable(out);
  return out;
}

function makeNullable(node: JsonSchema): void {
  if (node.anyOf !== undefined) {
    if (!node.anyOf.some((s) => s.type === "null")) node.anyOf.push({ type: "null" });
    return;
  }
  const type = node.type;
  if (type === undefined) {
    // No type (e.g. only an enum or const): allow null alongside.
    const copy: JsonSchema = { ...node };
    delete copy.description;
    for (const key of Object.keys(node)) if (key !== "description") delete (node as Record<string, unknown>)[key];
    node.anyOf = [copy, { type: "null" }];
    return;
  }
  const types = Array.isArray(type) ? type : [type];
  if (!types.includes("null")) node.type = [...types, "null"];
  if (node.enum !== undefined && !node.enum.includes(null)) node.enum = [...node.enum, null];
}

function schemaOf(def: ToolDefinition, strict: boolean): ObjectSchema {
  return strict ? strictSchema(def.input_schema) : def.input_schema;
}

/** The tool list for `format` (every format but "ai-sdk"). Pure. */
export function toolsFor<F extends ToolFormat>(format: F, defs: ToolDefinition[], strict: boolean): ToolFormatMap[F][];
export function toolsFor(format: ToolFormat, defs: ToolDefinition[], strict: boolean): ToolFormatMap[ToolFormat][] {
  switch (format) {
    case "openai":
      return defs.map((d) => ({
        type: "function" as const,
        function: {
          name: d.name,
          description: d.description,
          parameters: schemaOf(d, strict),
          ...(strict ? { strict: true } : {}),
        },
      }));
    case "openai-responses":
      // Responses treats an absent `strict` as true: say false unless the schema is made strict.
      return defs.map((d) => ({
        type: "function" as const,
        name: d.name,
        description: d.description,
        parameters: schemaOf(d, strict),
        strict,
      }));
    case "anthropic":
      return defs.map((d) => ({
        name: d.name,
        description: d.description,
        input_schema: schemaOf(d, strict),
        ...(strict ? { strict: true } : {}),
      }));
    case "mcp":
      return defs.map((d) => ({ name: d.name, description: d.description, inputSchema: schemaOf(d, strict) }));
    case "gemini":
      return defs.map((d) => ({ name: d.name, description: d.description, parametersJsonSchema: schemaOf(d, strict) }));
    case "json-schema":
      return defs.map((d) => ({ name: d.name, description: d.description, input_schema: schemaOf(d, strict) }));
    default:
      throw new Error(
        `agentpad: unknown tool format ${JSON.stringify(format)}; use "openai", "openai-responses", "anthropic", "ai-sdk", "mcp", "gemini" or "json-schema"`,
      );
  }
}

/** What runs a call: `Workspace.call`. */
export type CallFn = (name: string, args: unknown, options?: { toolCallId?: string }) => Promise<ToolResponse>;

/** The AI SDK's `tools` object: `execute` runs the call and returns the Markdown the model reads. */
export function aiSdkTools<S>(
  defs: ToolDefinition[],
  jsonSchema: (schema: ObjectSchema) => S,
  strict: boolean,
  call: CallFn,
): AiSdkTools<S> {
  if (typeof jsonSchema !== "function") {
    throw new TypeError(
      'agentpad: tools({ format: "ai-sdk" }) needs the AI SDK\'s jsonSchema function: import { jsonSchema } from "ai"; ws.tools({ format: "ai-sdk", jsonSchema })',
    );
  }
  const tools: AiSdkTools<S> = {};
  for (const d of defs) {
    const tool: AiSdkTool<S> = {
      description: d.description,
      inputSchema: jsonSchema(schemaOf(d, strict)),
      execute: async (input, options) => (await call(d.name, input, { toolCallId: options?.toolCallId })).markdown,
    };
    if (strict) tool.strict = true;
    tools[d.name] = tool;
  }
  return tools;
}

/**
 * A model's JSON-string arguments, parsed. An empty string is no arguments (`{}`); a string that
 * is not JSON is passed on as it is, so the workspace answers `InvalidArguments` quoting it.
 */
function parseArguments(text: unknown): unknown {
  if (typeof text !== "string") return text;
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== "object") {
    throw new TypeError(`agentpad: runToolCall needs ${what}, got ${value === null ? "null" : typeof value}`);
  }
  return value as Record<string, unknown>;
}

function id(value: unknown, field: string): string {
  if (typeof value !== "string") {
    throw new TypeError(`agentpad: runToolCall needs the tool call's \`${field}\` (a string), got ${typeof value}`);
  }
  return value;
}

/**
 * Runs one tool call as `format` delivers it and returns that SDK's tool-result message. Throws
 * only for a malformed call object (the host's mistake: no id); anything the model got wrong —
 * unknown tool, malformed argument JSON, wrong arguments — is an `InvalidArguments` result.
 */
export async function runToolCall(call: CallFn, toolCall: unknown, format: ToolCallFormat): Promise<unknown> {
  switch (format) {
    case "openai": {
      const c = object(toolCall, "an OpenAI tool call ({ id, function: { name, arguments } })") as { id?: unknown; function?: unknown };
      const callId = id(c.id, "id");
      const fn = c.function as { name?: unknown; arguments?: unknown } | undefined;
      const r = await call(typeof fn?.name === "string" ? fn.name : "", parseArguments(fn?.arguments), { toolCallId: callId });
      const result: OpenAIToolResult = { role: "tool", tool_call_id: callId, content: r.markdown };
      return result;
    }
    case "openai-responses": {
      const c = object(toolCall, "a Responses function_call item ({ call_id, name, arguments })") as Partial<OpenAIResponsesToolCall>;
      const callId = id(c.call_id, "call_id");
      const r = await call(typeof c.name === "string" ? c.name : "", parseArguments(c.arguments), { toolCallId: callId });
      const result: OpenAIResponsesToolResult = { type: "function_call_output", call_id: callId, output: r.markdown };
      return result;
    }
    case "anthropic": {
      const c = object(toolCall, "an Anthropic tool_use block ({ id, name, input })") as Partial<AnthropicToolCall>;
      const callId = id(c.id, "id");
      const r = await call(typeof c.name === "string" ? c.name : "", parseArguments(c.input), { toolCallId: callId });
      const result: AnthropicToolResult = {
        type: "tool_result",
        tool_use_id: callId,
        content: r.markdown,
        is_error: isErrorStatus(r.status),
      };
      return result;
    }
    case "mcp": {
      const c = object(toolCall, "MCP tools/call params ({ name, arguments })") as Partial<McpToolCall>;
      const r = await call(typeof c.name === "string" ? c.name : "", c.arguments ?? {});
      // No structuredContent: a client that forwards it would hand the model the Response as
      // JSON instead of (or beside) the Markdown
      // (docs/decisions.md#mcp-results-carry-the-markdown-only). onResponse gives a host the Response.
      const result: McpCallToolResult = { content: [{ type: "text", text: r.markdown }], isError: isErrorStatus(r.status) };
      return result;
    }
    case "gemini": {
      const c = object(toolCall, "a Gemini functionCall ({ id?, name, args })") as Partial<GeminiFunctionCall>;
      const name = typeof c.name === "string" ? c.name : "";
      const callId = typeof c.id === "string" ? c.id : undefined;
      const r = await call(name, c.args ?? {}, callId === undefined ? {} : { toolCallId: callId });
      const result: GeminiFunctionResponsePart = {
        functionResponse: {
          ...(callId === undefined ? {} : { id: callId }),
          name,
          response: isErrorStatus(r.status) ? { error: r.markdown } : { output: r.markdown },
        },
      };
      return result;
    }
    default:
      throw new Error(
        `agentpad: runToolCall: unknown format ${JSON.stringify(format)}; use "openai", "openai-responses", "anthropic", "mcp" or "gemini" (the "ai-sdk" tools run themselves)`,
      );
  }
}
