// The examples of www/examples/: an agent loop each for OpenAI Chat
// Completions, Anthropic Messages and the AI SDK. They are type-checked as a user's project
// would see them (`tsc --strict`, "agentpad" resolved to this package's dist/*.d.ts) and compiled
// to a temp folder inside the package (so "agentpad" and the SDKs resolve as they do for the
// sources); then each example's `run` drives a scripted model through the real SDK client (a
// mocked fetch; MockLanguageModelV3 for the AI SDK): a MultiMatch, a pick, a commit, an answer;
// then two edit sessions with the model's text beside every call, compressed after each commit
// (and the same on the Responses API, which has no example file).
// Run: node --test test/examples.test.mjs (needs the built package: tsc -p .)
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { modelMessageSchema } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import OpenAI from "openai";
import { MemoryStorage, Workspace } from "@agentpad/core";
import { anthropicMessage } from "./lib/scripted-model.mjs";

const www = fileURLToPath(new URL("..", import.meta.url));
const CONF = "# Service\n\ntimeout = 30\nretry_timeout = 30\n";
const EDITED = "# Service\n\ntimeout = 30\nretry_timeout = 60\n";
const SUMMARY = "Raise the retry timeout";
/** The model's script: a needle that occurs twice (MultiMatch), the pick, the commit. */
const CALLS = [
  ["memo_replace", { old_text: "timeout = 30", new_text: "timeout = 60" }],
  ["memo_replace_selection", { selection_id: "B" }],
  ["memo_commit", { summary: SUMMARY }],
];
const ANSWER = "retry_timeout is 60 now.";

let out;
let compile;

before(() => {
  // One tsc run: it type-checks (status 0 only without errors) and emits the JS the tests import.
  out = mkdtempSync(join(www, ".examples-"));
  const tsc = join(www, "node_modules/typescript/bin/tsc");
  compile = spawnSync(process.execPath, [tsc, "-p", "examples", "--noEmit", "false", "--outDir", out, "--rootDir", "examples", "--pretty", "false"], {
    cwd: www,
    encoding: "utf8",
  });
});

after(() => rmSync(out, { recursive: true, force: true }));

async function example(name) {
  assert.equal(compile.status, 0, `tsc -p examples failed:\n${compile.stdout}${compile.stderr}`);
  return import(pathToFileURL(join(out, `${name}.js`)).href);
}

async function workspace() {
  const storage = new MemoryStorage({ "service.conf": CONF });
  return { storage, ws: await Workspace.create({ storage }) };
}

/** A fetch that answers each request with the next JSON body and keeps the request bodies. */
function mockFetch(replies) {
  const requests = [];
  const fetch = async (input, init) => {
    requests.push(JSON.parse(init?.body ?? "null"));
    const reply = replies.shift();
    assert.ok(reply, `no reply left for request ${requests.length}`);
    return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetch, requests };
}

/** The texts of a message's content, whatever its shape (string, text parts or blocks). */
function texts(message) {
  const c = message.content;
  return typeof c === "string" ? [c] : Array.isArray(c) ? c.filter((p) => p.type === "text").map((p) => p.text) : [];
}

/**
 * What every example must have sent: the live context in the last user message of every request
 * (and nowhere else: it is not kept in the history), fresh each time; after the commit, the
 * session's calls and results folded into one summary.
 */
function checkRequests(sent, { isToolMessage }) {
  assert.equal(sent.length, 4, "three tool rounds and the answer");
  sent.forEach((messages, i) => {
    const users = messages.filter((m) => m.role === "user");
    const live = texts(users.at(-1)).filter((t) => t.startsWith("# Live Context"));
    assert.equal(live.length, 1, `request ${i}: the last user message starts the live context block`);
    assert.equal(JSON.stringify(messages).split("# Live Context").length - 1, 1, `request ${i}: one live context, not kept in history`);
  });
  const all = (i) => sent[i].flatMap(texts).join("\n");
  assert.match(all(0), /retry_timeout = 30/);
  assert.match(all(1), /Workflow: SelectionPending/, "rebuilt after the MultiMatch");
  assert.match(all(2), /Workflow: PersistPending, 1 pending change/);
  assert.match(all(3), /## Recent Diffs[\s\S]*\+retry_timeout = 60/, "the commit's diff");
  // Before the commit the history grows with every round; after it, the session is one summary.
  assert.ok(sent[1].length > sent[0].length && sent[2].length > sent[1].length);
  assert.ok(sent[3].length < sent[2].length, `compressed: ${sent.map((m) => m.length)}`);
  assert.ok(sent[2].some(isToolMessage));
  assert.ok(!sent[3].some(isToolMessage), "no tool call or result left after the commit");
  assert.match(all(3), new RegExp(`\\[Edit session #1 committed\\]\\nSummary: ${SUMMARY}\\nChanges: 1 replacement`));
}

test("the examples type-check under tsc --strict as a user's project", () => {
  assert.equal(compile.status, 0, `tsc -p examples failed:\n${compile.stdout}${compile.stderr}`);
});

test("openai-chat.ts: the loop runs through the openai client against a scripted model", async () => {
  const { run } = await example("openai-chat");
  const { storage, ws } = await workspace();
  const completion = (message, finish) => ({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-test",
    choices: [{ index: 0, finish_reason: finish, logprobs: null, message: { role: "assistant", refusal: null, ...message } }],
  });
  const { fetch, requests } = mockFetch([
    ...CALLS.map(([name, args], i) =>
      completion({ content: null, tool_calls: [{ id: `call_${i}`, type: "function", function: { name, arguments: JSON.stringify(args) } }] }, "tool_calls"),
    ),
    completion({ content: ANSWER }, "stop"),
  ]);
  const answer = await run({ client: new OpenAI({ apiKey: "test", fetch, maxRetries: 0 }), workspace: ws, prompt: "Set retry_timeout to 60." });
  assert.equal(answer, ANSWER);
  assert.equal(storage.read("service.conf"), EDITED);
  const sent = requests.map((r) => r.messages);
  checkRequests(sent, { isToolMessage: (m) => m.role === "tool" || m.tool_calls !== undefined });
  // The tool results the model read: the MultiMatch listed both places.
  assert.match(sent[1].at(-1).content, /status: `MultiMatch`[\s\S]*- \[B\] /);
  // One tool list for the whole loop, the pick included: a provider's prompt cache stays warm.
  assert.ok(requests[0].tools.some((t) => t.function.name === "memo_replace_selection"));
  for (const r of requests) assert.deepEqual(r.tools, requests[0].tools, "the same tools in every request");
  ws.free();
});

test("anthropic.ts: the loop runs through the Anthropic client against a scripted model", async () => {
  const { run } = await example("anthropic");
  const { storage, ws } = await workspace();
  const { fetch, requests } = mockFetch([
    ...CALLS.map(([name, input], i) => anthropicMessage([{ type: "text", text: "Editing." }, { type: "tool_use", id: `toolu_${i}`, name, input }], "tool_use")),
    anthropicMessage([{ type: "text", text: ANSWER }], "end_turn"),
  ]);
  const answer = await run({ client: new Anthropic({ apiKey: "test", fetch, maxRetries: 0 }), workspace: ws, prompt: "Set retry_timeout to 60." });
  assert.equal(answer, ANSWER);
  assert.equal(storage.read("service.conf"), EDITED);
  const sent = requests.map((r) => r.messages);
  const blocks = (m) => (Array.isArray(m.content) ? m.content : []);
  checkRequests(sent, { isToolMessage: (m) => blocks(m).some((b) => b.type === "tool_use" || b.type === "tool_result") });
  // The live context follows the tool_result blocks (which must come first) in the last user turn.
  const last = sent[1].at(-1);
  assert.equal(last.role, "user");
  assert.deepEqual(last.content.map((b) => b.type).slice(0, 2), ["tool_result", "text"]);
  assert.match(last.content[0].content, /status: `MultiMatch`/);
  assert.equal(last.content[0].is_error, false);
  // Turns still alternate after compression.
  for (const messages of sent) messages.forEach((m, i) => assert.equal(m.role, i % 2 === 0 ? "user" : "assistant"));
  ws.free();
});

test("ai-sdk.ts: generateText runs each step on MockLanguageModelV3", async () => {
  const { run } = await example("ai-sdk");
  const { storage, ws } = await workspace();
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const step = (content, unified) => ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] });
  const steps = [
    ...CALLS.map(([toolName, args], i) => step([{ type: "tool-call", toolCallId: `t${i}`, toolName, input: JSON.stringify(args) }], "tool-calls")),
    step([{ type: "text", text: ANSWER }], "stop"),
  ];
  const calls = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      return steps.shift();
    },
  });
  const answer = await run({ model, workspace: ws, prompt: "Set retry_timeout to 60." });
  assert.equal(answer, ANSWER);
  assert.equal(storage.read("service.conf"), EDITED);
  const sent = calls.map((c) => c.prompt);
  const parts = (m) => (Array.isArray(m.content) ? m.content : []);
  checkRequests(sent, { isToolMessage: (m) => parts(m).some((p) => p.type === "tool-call" || p.type === "tool-result") });
  // The tools of each step follow the workflow state.
  assert.ok(calls[0].tools.some((t) => t.name === "memo_replace_selection"));
  for (const c of calls) assert.deepEqual(c.tools, calls[0].tools, "the same tools in every step");
  // The AI SDK's tool ids reached the workspace (compressHistory found them).
  const log = (await ws.call("memo_export_session", {})).session_log;
  assert.deepEqual(log.slice(0, 3).map((e) => e.tool_call_id), ["t0", "t1", "t2"]);
  ws.free();
});

// Two edit sessions in one loop, the model writing text beside every tool call (what real models
// do): each commit compresses the history, and the next request must still be one the SDK
// accepts. The AI SDK checks every `messages` array generateText gets against its ModelMessage
// schema (and the compressed arrays are checked here with its exported modelMessageSchema); the
// OpenAI and Anthropic SDKs ship no runtime schema of a request, so their messages are held to
// their types (the examples type-check above) and to what the APIs refuse: a null the host never
// wrote, a call without its result, Anthropic turns not alternating.
const TWO_SESSIONS = [
  ["Editing.", "memo_replace", { old_text: "retry_timeout = 30", new_text: "retry_timeout = 60" }],
  ["Saving.", "memo_commit", { summary: SUMMARY }],
  ["Now the heading.", "memo_replace", { old_text: "# Service", new_text: "# Service (tuned)" }],
  ["Saving again.", "memo_commit", { summary: "Mark the service tuned" }],
];
const TWICE_EDITED = "# Service (tuned)\n\ntimeout = 30\nretry_timeout = 60\n";

/** Wraps ws.compressHistory: every array it returns goes through `check(before, after)`. */
function checkCompressions(ws, check) {
  const compress = ws.compressHistory.bind(ws);
  const seen = [];
  ws.compressHistory = (messages, options) => {
    const out = compress(messages, options);
    check(messages, out.messages);
    seen.push(out.sessions);
    return out;
  };
  return seen;
}

/** The keys holding null after compression: only those that held null before (none made up). */
function noNewNulls(before, after) {
  const nullKeys = (v, out = new Set()) => {
    if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) x === null ? out.add(k) : nullKeys(x, out);
    return out;
  };
  const had = nullKeys(before);
  for (const k of nullKeys(after)) assert.ok(had.has(k), `"${k}": null after compression, absent or set before`);
}

/** The last request of a two-session loop: both summaries, the texts beside the calls, no tool traffic. */
function checkTwoSessions(sent, { isToolMessage }) {
  assert.equal(sent.length, 5, "four tool rounds and the answer");
  const all = (i) => JSON.stringify(sent[i]);
  assert.ok(!all(1).includes("[Edit session #1"), "nothing to compress before the commit");
  assert.match(all(2), /\[Edit session #1 committed\]/, "compressed after the first commit");
  assert.match(all(4), /\[Edit session #1 committed\][\s\S]*\[Edit session #2 committed\]/);
  assert.ok(!sent[4].some(isToolMessage), "no tool call or result left after the second commit");
  for (const text of ["Editing.", "Saving.", "Now the heading.", "Saving again."]) assert.ok(all(4).includes(text), `the model's text "${text}" is kept`);
}

test("openai-chat.ts: two commits, text beside every call; each compressed history is a valid request", async () => {
  const { run } = await example("openai-chat");
  const { storage, ws } = await workspace();
  const completion = (message, finish) => ({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-test",
    choices: [{ index: 0, finish_reason: finish, logprobs: null, message: { role: "assistant", refusal: null, ...message } }],
  });
  const { fetch, requests } = mockFetch([
    ...TWO_SESSIONS.map(([text, name, args], i) =>
      completion({ content: text, tool_calls: [{ id: `call_${i}`, type: "function", function: { name, arguments: JSON.stringify(args) } }] }, "tool_calls"),
    ),
    completion({ content: ANSWER }, "stop"),
  ]);
  const compressions = checkCompressions(ws, (before, after) => {
    noNewNulls(before, after);
    assertAnswered(after, (m) => (m.tool_calls ?? []).map((c) => c.id), (m) => (m.role === "tool" ? [m.tool_call_id] : []));
  });
  const answer = await run({ client: new OpenAI({ apiKey: "test", fetch, maxRetries: 0 }), workspace: ws, prompt: "Tune the service." });
  assert.equal(answer, ANSWER);
  assert.equal(storage.read("service.conf"), TWICE_EDITED);
  assert.deepEqual(compressions, [[1], [2]]);
  checkTwoSessions(requests.map((r) => r.messages), { isToolMessage: (m) => m.role === "tool" || m.tool_calls !== undefined });
  ws.free();
});

test("anthropic.ts: two commits, text beside every call; each compressed history is a valid request", async () => {
  const { run } = await example("anthropic");
  const { storage, ws } = await workspace();
  const { fetch, requests } = mockFetch([
    ...TWO_SESSIONS.map(([text, name, input], i) => anthropicMessage([{ type: "text", text }, { type: "tool_use", id: `toolu_${i}`, name, input }], "tool_use")),
    anthropicMessage([{ type: "text", text: ANSWER }], "end_turn"),
  ]);
  const blocks = (m) => (Array.isArray(m.content) ? m.content : []);
  const compressions = checkCompressions(ws, (before, after) => {
    noNewNulls(before, after);
    assertAnswered(after, (m) => blocks(m).filter((b) => b.type === "tool_use").map((b) => b.id), (m) => blocks(m).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id));
    after.forEach((m, i) => assert.equal(m.role, i % 2 === 0 ? "user" : "assistant", `turns alternate at ${i}`));
  });
  const answer = await run({ client: new Anthropic({ apiKey: "test", fetch, maxRetries: 0 }), workspace: ws, prompt: "Tune the service." });
  assert.equal(answer, ANSWER);
  assert.equal(storage.read("service.conf"), TWICE_EDITED);
  assert.deepEqual(compressions, [[1], [2]]);
  checkTwoSessions(requests.map((r) => r.messages), { isToolMessage: (m) => blocks(m).some((b) => b.type === "tool_use" || b.type === "tool_result") });
  ws.free();
});

test("ai-sdk.ts: two commits, text beside every call; generateText accepts each compressed history", async () => {
  const { run } = await example("ai-sdk");
  const { storage, ws } = await workspace();
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const step = (content, unified) => ({ content, finishReason: { unified, raw: unified }, usage, warnings: [] });
  const steps = [
    ...TWO_SESSIONS.map(([text, toolName, args], i) => step([{ type: "text", text }, { type: "tool-call", toolCallId: `t${i}`, toolName, input: JSON.stringify(args) }], "tool-calls")),
    step([{ type: "text", text: ANSWER }], "stop"),
  ];
  const calls = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      return steps.shift();
    },
  });
  const parts = (m) => (Array.isArray(m.content) ? m.content : []);
  const compressions = checkCompressions(ws, (before, after) => {
    noNewNulls(before, after);
    // The AI SDK's own schema: what generateText accepts as `messages`.
    after.forEach((m, i) => assert.ok(modelMessageSchema.safeParse(m).success, `message ${i} is a ModelMessage: ${JSON.stringify(m)}`));
    assertAnswered(after, (m) => parts(m).filter((p) => p.type === "tool-call").map((p) => p.toolCallId), (m) => parts(m).filter((p) => p.type === "tool-result").map((p) => p.toolCallId));
  });
  // generateText itself refused the compressed history before (AI_InvalidPromptError).
  const answer = await run({ model, workspace: ws, prompt: "Tune the service." });
  assert.equal(answer, ANSWER);
  assert.equal(storage.read("service.conf"), TWICE_EDITED);
  assert.deepEqual(compressions, [[1], [2]]);
  checkTwoSessions(calls.map((c) => c.prompt), { isToolMessage: (m) => parts(m).some((p) => p.type === "tool-call" || p.type === "tool-result") });
  ws.free();
});

// The fourth history format has no example file: the same loop on the Responses API, as a host
// writes it with the openai client (the output items go back as input, each function_call is
// answered by runToolCall's function_call_output), a reasoning item before every call.
test("openai-responses: two commits through the openai client's Responses API; each compressed input is valid", async () => {
  const { storage, ws } = await workspace();
  const response = (output) => ({ id: "resp_1", object: "response", created_at: 1, model: "gpt-test", status: "completed", output, usage: null });
  const { fetch, requests } = mockFetch([
    ...TWO_SESSIONS.map(([text, name, args], i) =>
      response([
        { type: "reasoning", id: `rs_${i}`, summary: [] },
        { type: "message", id: `msg_${i}`, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] },
        { type: "function_call", id: `fc_${i}`, call_id: `call_${i}`, name, arguments: JSON.stringify(args), status: "completed" },
      ]),
    ),
    response([{ type: "message", id: "msg_end", role: "assistant", status: "completed", content: [{ type: "output_text", text: ANSWER, annotations: [] }] }]),
  ]);
  const compressions = checkCompressions(ws, (before, after) => {
    noNewNulls(before, after);
    assertAnswered(after, (m) => (m.type === "function_call" ? [m.call_id] : []), (m) => (m.type === "function_call_output" ? [m.call_id] : []));
    // A reasoning item is kept only before what it produced, a message or a call (the API
    // refuses one without its following item).
    after.forEach((m, i) => m.type === "reasoning" && assert.ok(["message", "function_call"].includes(after[i + 1]?.type), `reasoning item ${i} is followed by what it produced`));
  });
  const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
  let input = [{ role: "user", content: "Tune the service." }];
  let answer;
  for (let turn = 0; turn < 10 && answer === undefined; turn++) {
    const r = await client.responses.create({ model: "gpt-test", input: [...input, { role: "user", content: ws.liveContext().content_parts.map((p) => ({ type: "input_text", text: p.text })) }], tools: ws.tools({ format: "openai-responses" }) });
    input.push(...r.output);
    const calls = r.output.filter((item) => item.type === "function_call");
    if (calls.length === 0) answer = r.output_text;
    let sessionEnded = false;
    for (const call of calls) input.push(await ws.runToolCall(call, { format: "openai-responses", onResponse: (res) => (sessionEnded ||= res.history_delta !== null) }));
    if (sessionEnded) input = ws.compressHistory(input, { format: "openai-responses" }).messages;
  }
  assert.equal(answer, ANSWER);
  assert.equal(storage.read("service.conf"), TWICE_EDITED);
  assert.deepEqual(compressions, [[1], [2]]);
  // The request without its live-context message: the history as the loop keeps it.
  checkTwoSessions(requests.map((r) => r.input.slice(0, -1)), { isToolMessage: (m) => m.type === "function_call" || m.type === "function_call_output" });
  ws.free();
});

/** Every call answered by a later result, every result after its call (both APIs refuse the rest). */
function assertAnswered(messages, callsOf, resultsOf) {
  const open = new Set();
  messages.forEach((m, i) => {
    for (const r of resultsOf(m)) assert.ok(open.delete(r), `message ${i}: result ${r} without its call`);
    for (const c of callsOf(m)) open.add(c);
  });
  assert.deepEqual([...open], [], "calls without results");
}
