// The SDK adapters: ws.tools({ format, strict }) and ws.runToolCall(call,
// { format }) driven through the real SDK packages (dev dependencies): each SDK's client runs
// against a mocked fetch, so it serialises our tools and result messages and parses the model's
// tool calls itself; the AI SDK loop runs on its MockLanguageModelV3; MCP goes through a real
// client/server pair on the SDK's in-memory transport. Run: node --test test/adapters.test.mjs
import assert from "node:assert/strict";
import test from "node:test";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { generateText, jsonSchema, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import Ajv from "ajv";
import OpenAI from "openai";
import { MemoryStorage, Workspace, isErrorStatus, strictSchema } from "@agentpad/core";
import { anthropicMessage } from "./lib/scripted-model.mjs";

const NOTES = "# Notes\n- status: draft\n- owner: ana\n";
const EDITED = "# Notes\n- status: final\n- owner: ana\n";
const REPLACE = { old_text: "status: draft", new_text: "status: final" };
const COMMIT = { summary: "Mark the notes final" };
const FORMATS = ["openai", "openai-responses", "anthropic", "mcp", "gemini", "json-schema"];

async function workspace(options = {}) {
  const storage = new MemoryStorage({ "notes.md": NOTES });
  const ws = await Workspace.create({ storage, ...options });
  return { storage, ws };
}

/** A fetch that answers each request with the next JSON body and keeps the request bodies. */
function mockFetch(replies) {
  const requests = [];
  const fetch = async (input, init) => {
    requests.push({ url: String(input instanceof Request ? input.url : input), body: JSON.parse(init?.body ?? "null") });
    const reply = replies.shift();
    assert.ok(reply, `no reply left for request ${requests.length}`);
    return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetch, requests };
}

function nameOf(format, tool) {
  return format === "openai" ? tool.function.name : tool.name;
}

function schemaOf(format, tool) {
  switch (format) {
    case "openai":
      return tool.function.parameters;
    case "openai-responses":
      return tool.parameters;
    case "mcp":
      return tool.inputSchema;
    case "gemini":
      return tool.parametersJsonSchema;
    default:
      return tool.input_schema;
  }
}

test("every format lists the same visible tools with the core's schemas", async () => {
  const { ws } = await workspace();
  const defs = ws.tools({ format: "json-schema" });
  assert.ok(defs.some((d) => d.name === "memo_replace"));
  for (const format of FORMATS) {
    const tools = ws.tools({ format });
    assert.deepEqual(tools.map((t) => nameOf(format, t)), defs.map((d) => d.name), format);
    tools.forEach((t, i) => assert.deepEqual(schemaOf(format, t), defs[i].input_schema, format));
  }
  const [chat] = ws.tools({ format: "openai" });
  assert.equal(chat.type, "function");
  assert.equal(chat.function.strict, undefined);
  const [responses] = ws.tools({ format: "openai-responses" });
  assert.equal(responses.type, "function");
  assert.equal(responses.strict, false, "Responses defaults strict to true: say false");
  for (const tool of ws.tools({ format: "mcp" })) ToolSchema.parse(tool); // the MCP SDK's own schema
  assert.throws(() => ws.tools({ format: "langchain" }), /unknown tool format "langchain"/);
  assert.throws(() => ws.tools({ format: "ai-sdk" }), /needs the AI SDK's jsonSchema function/);
  ws.free();
});

/** OpenAI strict mode's rules for a function's parameters, checked at every level. */
function strictViolations(schema, where = "$", root = true) {
  const out = [];
  if (root && schema.type !== "object") out.push(`${where}: the root must be an object`);
  for (const key of ["oneOf", "allOf", "not", "pattern", "format", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "default", "$ref"]) {
    if (key in schema) out.push(`${where}: ${key} is not allowed`);
  }
  if (schema.anyOf) {
    if (root) out.push(`${where}: anyOf at the root`);
    schema.anyOf.forEach((s, i) => out.push(...strictViolations(s, `${where}.anyOf[${i}]`, false)));
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (schema.enum && types.includes("null") && !schema.enum.includes(null)) out.push(`${where}: nullable enum without null`);
  if (types.includes("object") || schema.properties) {
    if (schema.additionalProperties !== false) out.push(`${where}: additionalProperties must be false`);
    const props = Object.keys(schema.properties ?? {});
    const required = schema.required ?? [];
    if (props.length !== required.length || props.some((p) => !required.includes(p))) {
      out.push(`${where}: every property must be required (${props} vs ${required})`);
    }
    for (const p of props) out.push(...strictViolations(schema.properties[p], `${where}.${p}`, false));
  }
  if (schema.items) out.push(...strictViolations(schema.items, `${where}[]`, false));
  return out;
}

test("strict: true gives schemas that pass OpenAI strict mode's rules, in every state", async () => {
  const { ws } = await workspace({ memory: true });
  const check = () => {
    for (const tool of ws.tools({ format: "openai", strict: true })) {
      assert.equal(tool.function.strict, true);
      assert.deepEqual(strictViolations(tool.function.parameters), [], tool.function.name);
    }
    for (const tool of ws.tools({ format: "openai-responses", strict: true })) {
      assert.equal(tool.strict, true);
      assert.deepEqual(strictViolations(tool.parameters), [], tool.name);
    }
    for (const format of FORMATS) {
      for (const tool of ws.tools({ format, strict: true })) assert.deepEqual(strictViolations(schemaOf(format, tool)), []);
    }
  };
  check();
  const names = new Set(ws.tools({ format: "json-schema" }).map((t) => t.name));
  await ws.call("memo_replace", { old_text: "- ", new_text: "* " }); // MultiMatch: replace_selection appears
  assert.equal(ws.state, "SelectionPending");
  check();
  for (const t of ws.tools({ format: "json-schema" })) names.add(t.name);
  assert.ok(names.has("memo_replace_selection") && names.has("memo_recall_context"), [...names].join());

  // The words keep what the dropped keywords said; an optional enum accepts null.
  const read = ws.tools({ format: "json-schema", strict: true }).find((t) => t.name === "memo_read").input_schema;
  assert.deepEqual(read.properties.start_line.type, ["integer", "null"]);
  assert.match(read.properties.start_line.description, /\(≥ 1\)$/);
  assert.deepEqual(read.properties.view.enum, ["draft", "committed", null]);
  const recall = ws.tools({ format: "json-schema", strict: true }).find((t) => t.name === "memo_recall_context").input_schema;
  assert.match(recall.properties.turn_numbers.description, /at least 1 item, at most 10 items/);
  // A required argument stays non-nullable; the non-strict schemas are untouched.
  const selection = ws.tools({ format: "json-schema", strict: true }).find((t) => t.name === "memo_replace_selection");
  assert.deepEqual(selection.input_schema.properties.selection_id.type, ["string", "integer"]);
  assert.equal(ws.tools({ format: "json-schema" }).find((t) => t.name === "memo_read").input_schema.properties.start_line.minimum, 1);
  ws.free();
});

test("strictSchema: oneOf becomes anyOf, untyped optional properties get a null branch, nested objects are closed", () => {
  const s = strictSchema({
    type: "object",
    properties: {
      a: { oneOf: [{ type: "string" }, { type: "integer" }] },
      b: { enum: ["x", "y"] },
      c: { type: "object", properties: { d: { type: "string", pattern: "^d" } }, required: [], additionalProperties: false },
      e: { type: "array", items: { type: "object", properties: { f: { type: "number", maximum: 3 } }, required: ["f"] } },
    },
    required: ["a"],
    additionalProperties: false,
  });
  assert.deepEqual(s.properties.a, { anyOf: [{ type: "string" }, { type: "integer" }] });
  assert.deepEqual(s.properties.b, { anyOf: [{ enum: ["x", "y"] }, { type: "null" }] });
  assert.deepEqual(s.properties.c.properties.d, { type: ["string", "null"], description: "(matching /^d/)" });
  assert.deepEqual(s.properties.e.items.properties.f, { type: "number", description: "(≤ 3)" });
  assert.deepEqual(strictViolations(s), []);
});

test("a typical call with nulls for the absent arguments validates against the strict schema and runs", async () => {
  const { storage, ws } = await workspace();
  const ajv = new Ajv({ strict: false });
  const schemas = Object.fromEntries(ws.tools({ format: "json-schema", strict: true }).map((t) => [t.name, t.input_schema]));
  const replace = {
    old_text: "status: draft",
    new_text: "status: final",
    match_id: null,
    search_after: null,
    show_all_matches: null,
    preview_only: null,
    replace_all: null,
    expected_occurrences: null,
    within: null,
    expected_fingerprint: null,
    path: null,
  };
  assert.ok(ajv.validate(schemas.memo_replace, replace), ajv.errorsText());
  assert.ok(!ajv.validate(schemas.memo_replace, { ...replace, path: undefined }), "every property is required");
  assert.ok(!ajv.validate(schemas.memo_replace, { ...replace, match_id: "AA" }));
  assert.ok(!ajv.validate(schemas.memo_replace, { ...replace, extra: 1 }));
  assert.ok(
    ajv.validate(schemas.memo_read, { start_line: 1, end_line: null, line_numbers: null, line_keys: null, view: null, version: null, unit: null, path: null }),
  );
  assert.ok(ajv.validate(ws.tools({ format: "json-schema" })[0].input_schema, {}), "non-strict: optional stays optional");

  // null reads as absent (the core's argument parsing)
  const r = await ws.call("memo_replace", replace);
  assert.equal(r.status, "Success", r.summary);
  const commit = await ws.call("memo_commit", { summary: "final", auto_pop_task: null });
  assert.equal(commit.status, "Success", commit.summary);
  assert.equal(storage.read("notes.md"), EDITED);
  // …but a required argument cannot be null
  assert.equal((await ws.call("memo_replace", { old_text: null, new_text: "x" })).status, "InvalidArguments");
  ws.free();
});

test("isErrorStatus: the statuses whose Markdown overview is [Fail]", () => {
  for (const s of ["Success", "NoOp", "MultiMatch"]) assert.equal(isErrorStatus(s), false, s);
  for (const s of ["NoMatch", "InvalidArguments", "Blocked", "StaleReference", "ExternalConflict", "PersistFailure", "Exception"]) {
    assert.equal(isErrorStatus(s), true, s);
  }
});

function chatCompletion(message, finish = "tool_calls") {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-test",
    choices: [{ index: 0, finish_reason: finish, logprobs: null, message: { role: "assistant", refusal: null, ...message } }],
  };
}

function toolCall(id, name, args) {
  return { id, type: "function", function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) } };
}

test("OpenAI Chat Completions: a loop through the openai client edits and commits", async () => {
  const { storage, ws } = await workspace();
  const { fetch, requests } = mockFetch([
    chatCompletion({ content: null, tool_calls: [toolCall("call_1", "memo_replace", REPLACE)] }),
    chatCompletion({ content: null, tool_calls: [toolCall("call_2", "memo_replace", '{"old_text": '), toolCall("call_3", "memo_commit", COMMIT)] }),
    chatCompletion({ content: "Done." }, "stop"),
  ]);
  const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
  const messages = [{ role: "user", content: "Mark the notes final." }];
  const results = [];
  for (let turn = 0; turn < 5; turn++) {
    const completion = await client.chat.completions.create({ model: "gpt-test", messages, tools: ws.tools({ format: "openai", strict: true }) });
    const message = completion.choices[0].message;
    messages.push(message);
    if (!message.tool_calls?.length) break;
    for (const call of message.tool_calls) {
      const result = await ws.runToolCall(call, { format: "openai" });
      results.push(result);
      messages.push(result);
    }
  }
  assert.equal(storage.read("notes.md"), EDITED);
  assert.equal(requests.length, 3);
  assert.match(requests[0].url, /\/chat\/completions$/);
  assert.equal(requests[0].body.tools[0].function.strict, true);
  assert.deepEqual(Object.keys(results[0]).sort(), ["content", "role", "tool_call_id"]);
  assert.equal(results[0].role, "tool");
  assert.equal(results[0].tool_call_id, "call_1");
  assert.match(results[0].content, /^status: `Success`/);
  // Malformed argument JSON from the model: an InvalidArguments result, not a throw.
  assert.equal(results[1].tool_call_id, "call_2");
  assert.match(results[1].content, /status: `InvalidArguments`[\s\S]*got string "\{\\"old_text\\": "/);
  // The SDK sent our result messages as they were.
  assert.deepEqual(requests[1].body.messages.at(-1), results[0]);
  assert.deepEqual(requests[2].body.messages.slice(-2), results.slice(1));
  // The call ids were recorded: compressHistory folds the session into one summary.
  const compressed = ws.compressHistory(messages, { format: "openai" });
  assert.ok(compressed.messages_removed >= 5, JSON.stringify(compressed.messages));
  ws.free();
});

test("OpenAI Responses: function_call items in, function_call_output items out", async () => {
  const { storage, ws } = await workspace();
  const response = (output) => ({ id: "resp_1", object: "response", created_at: 1, model: "gpt-test", status: "completed", output });
  const fc = (call_id, name, args) => ({ type: "function_call", id: `fc_${call_id}`, call_id, name, arguments: JSON.stringify(args), status: "completed" });
  const { fetch, requests } = mockFetch([
    response([fc("c1", "memo_replace", REPLACE)]),
    response([fc("c2", "memo_commit", COMMIT)]),
    response([{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Done.", annotations: [] }] }]),
  ]);
  const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
  const input = [{ role: "user", content: "Mark the notes final." }];
  const outputs = [];
  for (let turn = 0; turn < 5; turn++) {
    const r = await client.responses.create({ model: "gpt-test", input, tools: ws.tools({ format: "openai-responses" }) });
    input.push(...r.output);
    const calls = r.output.filter((item) => item.type === "function_call");
    if (calls.length === 0) {
      assert.equal(r.output_text, "Done.");
      break;
    }
    for (const call of calls) {
      const out = await ws.runToolCall(call, { format: "openai-responses" });
      outputs.push(out);
      input.push(out);
    }
  }
  assert.equal(storage.read("notes.md"), EDITED);
  assert.match(requests[0].url, /\/responses$/);
  assert.equal(requests[0].body.tools[0].type, "function");
  assert.equal(requests[0].body.tools[0].strict, false);
  assert.deepEqual(outputs.map((o) => [o.type, o.call_id]), [["function_call_output", "c1"], ["function_call_output", "c2"]]);
  assert.deepEqual(requests[1].body.input.at(-1), outputs[0]);
  const bad = await ws.runToolCall({ type: "function_call", call_id: "c9", name: "memo_replace", arguments: '{"old_text": ' }, { format: "openai-responses" });
  assert.match(bad.output, /status: `InvalidArguments`/);
  ws.free();
});

test("Anthropic: tool_use blocks in, tool_result blocks with is_error out", async () => {
  const { storage, ws } = await workspace();
  const message = anthropicMessage;
  const use = (id, name, input) => ({ type: "tool_use", id, name, input });
  const { fetch, requests } = mockFetch([
    message([{ type: "text", text: "Editing." }, use("toolu_1", "memo_replace", { old_text: "status: gone", new_text: "x" })]),
    message([use("toolu_2", "memo_replace", REPLACE), use("toolu_3", "memo_commit", COMMIT)]),
    message([{ type: "text", text: "Done." }], "end_turn"),
  ]);
  const client = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
  const messages = [{ role: "user", content: "Mark the notes final." }];
  const results = [];
  for (let turn = 0; turn < 5; turn++) {
    const reply = await client.messages.create({ model: "claude-test", max_tokens: 1024, messages, tools: ws.tools({ format: "anthropic" }) });
    messages.push({ role: "assistant", content: reply.content });
    const uses = reply.content.filter((block) => block.type === "tool_use");
    if (uses.length === 0) break;
    const content = [];
    for (const block of uses) content.push(await ws.runToolCall(block, { format: "anthropic" }));
    results.push(...content);
    messages.push({ role: "user", content });
  }
  assert.equal(storage.read("notes.md"), EDITED);
  assert.match(requests[0].url, /\/v1\/messages$/);
  assert.ok(requests[0].body.tools.every((t) => t.input_schema.type === "object" && t.strict === undefined));
  assert.deepEqual(results.map((r) => [r.type, r.tool_use_id, r.is_error]), [
    ["tool_result", "toolu_1", true], // NoMatch
    ["tool_result", "toolu_2", false],
    ["tool_result", "toolu_3", false],
  ]);
  assert.match(results[0].content, /status: `NoMatch`/);
  assert.deepEqual(requests[2].body.messages.at(-1), { role: "user", content: results.slice(1) });
  assert.ok(ws.compressHistory(messages, { format: "anthropic" }).messages_removed > 0);
  // strict: the Anthropic tools say it too
  assert.ok(ws.tools({ format: "anthropic", strict: true }).every((t) => t.strict === true));
  ws.free();
});

test("AI SDK: generateText runs memo_replace then memo_commit on the SDK's mock model", async () => {
  const { storage, ws } = await workspace();
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  const step = (content, unified) => ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] });
  const call = (toolCallId, toolName, args) => ({ type: "tool-call", toolCallId, toolName, input: JSON.stringify(args) });
  const steps = [
    step([call("t1", "memo_replace", REPLACE)], "tool-calls"),
    step([call("t2", "memo_commit", COMMIT)], "tool-calls"),
    step([{ type: "text", text: "Done." }], "stop"),
  ];
  const prompts = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options);
      return steps.shift();
    },
  });
  const tools = ws.tools({ format: "ai-sdk", jsonSchema });
  const result = await generateText({ model, tools, prompt: "Mark the notes final.", stopWhen: stepCountIs(5) });
  assert.equal(result.text, "Done.");
  assert.equal(storage.read("notes.md"), EDITED);
  assert.equal(result.steps.length, 3);
  const outputs = result.steps.flatMap((s) => s.toolResults);
  assert.deepEqual(outputs.map((r) => r.toolName), ["memo_replace", "memo_commit"]);
  assert.match(outputs[0].output, /^status: `Success`/);
  // The SDK handed the model our tools with the core's schemas.
  const sent = prompts[0].tools.find((t) => t.name === "memo_replace");
  assert.deepEqual(sent.inputSchema, ws.tools({ format: "json-schema" }).find((t) => t.name === "memo_replace").input_schema);
  assert.equal(ws.tools({ format: "ai-sdk", jsonSchema, strict: true }).memo_commit.strict, true);
  // The tool call ids reached the session log.
  const log = (await ws.call("memo_export_session", {})).session_log;
  assert.deepEqual(log.slice(0, 2).map((e) => e.tool_call_id), ["t1", "t2"]);
  ws.free();
});

test("AI SDK: malformed argument JSON from the model is the SDK's tool error, and the loop goes on", async () => {
  const { ws } = await workspace();
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const steps = [
    { content: [{ type: "tool-call", toolCallId: "t1", toolName: "memo_replace", input: '{"old_text": ' }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] },
    { content: [{ type: "text", text: "Sorry." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
  ];
  const model = new MockLanguageModelV3({ doGenerate: async () => steps.shift() });
  const result = await generateText({ model, tools: ws.tools({ format: "ai-sdk", jsonSchema }), prompt: "Edit.", stopWhen: stepCountIs(5) });
  assert.equal(result.text, "Sorry.");
  assert.ok(result.steps[0].content.some((part) => part.type === "tool-error"), JSON.stringify(result.steps[0].content));
  ws.free();
});

test("Gemini: functionCall parts in, functionResponse parts out, through @google/genai", async () => {
  const { storage, ws } = await workspace();
  const reply = (parts) => ({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }] });
  const { fetch, requests } = mockFetch([
    reply([{ functionCall: { id: "g1", name: "memo_replace", args: REPLACE } }]),
    reply([{ functionCall: { name: "memo_commit", args: COMMIT } }, { functionCall: { name: "memo_revert", args: {} } }]),
    reply([{ text: "Done." }]),
  ]);
  const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { fetch } });
  const contents = [{ role: "user", parts: [{ text: "Mark the notes final." }] }];
  const parts = [];
  for (let turn = 0; turn < 5; turn++) {
    const response = await ai.models.generateContent({
      model: "gemini-test",
      contents,
      config: { tools: [{ functionDeclarations: ws.tools({ format: "gemini" }) }] },
    });
    const calls = response.functionCalls ?? [];
    contents.push(response.candidates[0].content);
    if (calls.length === 0) {
      assert.equal(response.text, "Done.");
      break;
    }
    const out = [];
    for (const call of calls) out.push(await ws.runToolCall(call, { format: "gemini" }));
    parts.push(...out);
    contents.push({ role: "user", parts: out });
  }
  assert.equal(storage.read("notes.md"), EDITED);
  assert.match(requests[0].url, /gemini-test:generateContent/);
  const declared = requests[0].body.tools[0].functionDeclarations;
  assert.ok(declared.some((d) => d.name === "memo_replace" && d.parametersJsonSchema.type === "object"));
  assert.equal(parts[0].functionResponse.id, "g1");
  assert.equal(parts[0].functionResponse.name, "memo_replace");
  assert.match(parts[0].functionResponse.response.output, /^status: `Success`/);
  assert.ok(!("id" in parts[1].functionResponse), "no id when the call had none");
  // memo_revert after the commit: nothing to revert, reported as an error
  assert.ok("error" in parts[2].functionResponse.response || "output" in parts[2].functionResponse.response);
  assert.equal("error" in parts[2].functionResponse.response, isErrorStatus(/status: `(\w+)`/.exec(Object.values(parts[2].functionResponse.response)[0])[1]));
  assert.deepEqual(requests[1].body.contents.at(-1), { role: "user", parts: [parts[0]] });
  ws.free();
});

test("MCP: a real client lists the tools and calls them through a server on the in-memory transport; a result is the Markdown only", async () => {
  const { storage, ws } = await workspace();
  const server = new Server({ name: "agentpad-test", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: ws.tools({ format: "mcp" }) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ws.runToolCall(request.params, { format: "mcp" }));
  const statusOf = (result) => /^status: `(\w+)`\n/.exec(result.content[0].text)?.[1];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test-client", version: "0.0.0" });
  await client.connect(clientSide);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ws.tools({ format: "json-schema" }).map((t) => t.name));
    const missing = await client.callTool({ name: "memo_replace", arguments: { old_text: "nowhere", new_text: "x" } });
    assert.equal(missing.isError, true);
    assert.equal(statusOf(missing), "NoMatch");
    assert.equal(missing.structuredContent, undefined);
    const replaced = await client.callTool({ name: "memo_replace", arguments: REPLACE });
    assert.equal(replaced.isError, false);
    assert.equal(replaced.content[0].type, "text");
    assert.match(replaced.content[0].text, /^status: `Success`/);
    assert.equal(replaced.structuredContent, undefined, "the Markdown only: no second copy as JSON");
    const committed = await client.callTool({ name: "memo_commit", arguments: COMMIT });
    assert.equal(committed.isError, false);
    assert.equal(storage.read("notes.md"), EDITED);
    const unknown = await client.callTool({ name: "memo_nope", arguments: {} });
    assert.equal(unknown.isError, true);
    assert.equal(statusOf(unknown), "InvalidArguments");
  } finally {
    await client.close();
    ws.free();
  }
});

test("runToolCall refuses a call object without its id, and an unknown format", async () => {
  const { ws } = await workspace();
  await assert.rejects(ws.runToolCall({ function: { name: "memo_read", arguments: "{}" } }, { format: "openai" }), /needs the tool call's `id`/);
  await assert.rejects(ws.runToolCall(null, { format: "anthropic" }), /runToolCall needs an Anthropic tool_use block/);
  await assert.rejects(ws.runToolCall({ id: "x" }, { format: "ai-sdk" }), /unknown format "ai-sdk"/);
  // a custom (non-function) OpenAI tool call, or empty arguments
  const custom = await ws.runToolCall({ id: "c", type: "custom", custom: { name: "memo_read", input: "" } }, { format: "openai" });
  assert.match(custom.content, /status: `InvalidArguments`/);
  const empty = await ws.runToolCall(toolCall("c2", "memo_read", ""), { format: "openai" });
  assert.match(empty.content, /status: `Success`/);
  ws.free();
});

test("onResponse hands the host each call's whole Response (runToolCall and the AI SDK's execute), so it can compress when a session ends", async () => {
  const { ws } = await workspace();
  const seen = [];
  const onResponse = (r) => seen.push([r.status, r.history_delta !== null]);
  await ws.runToolCall({ id: "c1", type: "function", function: { name: "memo_replace", arguments: JSON.stringify(REPLACE) } }, { format: "openai", onResponse });
  const tools = ws.tools({ format: "ai-sdk", jsonSchema, onResponse });
  const markdown = await tools.memo_commit.execute(COMMIT, { toolCallId: "c2" });
  assert.match(markdown, /^status: `Success`/);
  assert.deepEqual(seen, [["Success", false], ["Success", true]], "the commit's Response says the session ended");
  await assert.rejects(ws.runToolCall({ id: "c3", type: "function", function: { name: "memo_read", arguments: "{}" } }, { format: "openai", onResponse: "log" }), /onResponse must be a function, got string/);
  // The "mcp" result is the Markdown only; onResponse is how a host gets the Response (e.g. to set
  // structuredContent for a client that is a program, as @agentpad/mcp --structured-content does).
  let response;
  const mcp = await ws.runToolCall({ name: "memo_replace", arguments: { old_text: "no such text", new_text: "x" } }, { format: "mcp", onResponse: (r) => (response = r) });
  assert.deepEqual(Object.keys(mcp).sort(), ["content", "isError"]);
  assert.equal(response.status, "NoMatch");
  assert.equal(mcp.isError, true);
  assert.equal(mcp.content[0].text, response.markdown);
  assert.throws(() => ws.tools({ format: "ai-sdk", jsonSchema, onResponse: 1 }), /onResponse must be a function, got number/);
  ws.free();
});
