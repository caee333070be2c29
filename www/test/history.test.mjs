// History compression through the built package: a scripted agent session of 24 calls, kept as
// an OpenAI and an Anthropic transcript the way an agent loop builds them, compressed after each
// commit or revert. Every compressed transcript must still be valid for its API (every call
// answered, every result after its call, Anthropic roles alternating), keep every message that
// is not a session's call byte-identical, and hold one summary per ended session.
import assert from "node:assert/strict";
import test from "node:test";
import { readFileSync } from "node:fs";
import { MemoryStorage, Workspace } from "@agentpad/core";
import { modelMessageSchema } from "ai";

// The session is a fixture shared with other layers (tests/fixtures/sessions/, format
// "agentpad-transcript/1"): the documents, the options, and the steps — `say` (plain assistant
// text) or a tool call with its tool_call_id and what the recording returned (`expect`).
const FIXTURE = JSON.parse(
  readFileSync(new URL("../../tests/fixtures/sessions/scripted-24.json", import.meta.url), "utf8"),
);
assert.equal(FIXTURE.format, "agentpad-transcript/1");

/** Every tool call answered by a later result, every result after its call. */
function assertValid(messages, format) {
  const open = new Set();
  messages.forEach((m, i) => {
    const calls = [];
    const results = [];
    if (format === "openai") {
      for (const c of m.tool_calls ?? []) calls.push(c.id);
      if (m.role === "tool") results.push(m.tool_call_id);
    } else if (format === "openai-responses") {
      if (m.type === "function_call") calls.push(m.call_id);
      if (m.type === "function_call_output") results.push(m.call_id);
    } else if (format === "ai-sdk") {
      // The AI SDK's own schema of a ModelMessage: what generateText accepts as `messages`.
      assert.ok(modelMessageSchema.safeParse(m).success, `ai-sdk message ${i} is a ModelMessage: ${JSON.stringify(m)}`);
      for (const p of Array.isArray(m.content) ? m.content : []) {
        if (p.type === "tool-call") calls.push(p.toolCallId);
        if (p.type === "tool-result") results.push(p.toolCallId);
      }
    } else {
      assert.ok(i === 0 || messages[i - 1].role !== m.role, `roles alternate at ${i}`);
      for (const b of Array.isArray(m.content) ? m.content : []) {
        if (b.type === "tool_use") calls.push(b.id);
        if (b.type === "tool_result") results.push(b.tool_use_id);
      }
    }
    for (const r of results) {
      assert.ok(open.delete(r), `${format} message ${i}: result ${r} without its call`);
    }
    for (const c of calls) open.add(c);
  });
  assert.deepEqual([...open], [], `${format}: calls without results`);
}

test("a 24-call scripted session, compressed after every commit or revert, stays valid in every format", async () => {
  const storage = new MemoryStorage(FIXTURE.documents);
  const ws = await Workspace.create({ storage, ...FIXTURE.options });
  let openai = [{ role: "system", content: FIXTURE.system }, { role: "user", content: FIXTURE.prompt }];
  let anthropic = [{ role: "user", content: FIXTURE.prompt }];
  let responses = [{ role: "user", content: FIXTURE.prompt }];
  let aiSdk = [{ role: "system", content: FIXTURE.system }, { role: "user", content: FIXTURE.prompt }];
  const keep = []; // messages that are not session calls: must survive byte-identical
  keep.push(JSON.stringify(openai[1]));
  let calls = 0;
  let ended = 0;
  for (const step of FIXTURE.steps) {
    if (step.say !== undefined) {
      const o = { role: "assistant", content: step.say };
      openai.push(o);
      keep.push(JSON.stringify(o));
      anthropic.push({ role: "assistant", content: [{ type: "text", text: step.say }] });
      anthropic.push({ role: "user", content: [{ type: "text", text: "ok" }] });
      responses.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: step.say }] });
      aiSdk.push({ role: "assistant", content: [{ type: "text", text: step.say }] });
      continue;
    }
    const { tool, args, tool_call_id: id, expect } = step;
    const r = await ws.call(tool, args, { toolCallId: id });
    calls++;
    assert.equal(r.status, expect.status, `${id} ${tool}: status as recorded`);
    assert.equal(r.workflow_state, expect.workflow_state, `${id} ${tool}: workflow state as recorded`);
    assert.equal(r.history_delta !== null, expect.ends_session === true, `${id} ${tool}: ends a session as recorded`);
    openai.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: tool, arguments: JSON.stringify(args) } }] });
    openai.push({ role: "tool", tool_call_id: id, content: r.markdown });
    anthropic.push({ role: "assistant", content: [{ type: "tool_use", id, name: tool, input: args }] });
    anthropic.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: r.markdown }] });
    responses.push({ type: "reasoning", id: `rs_${id}`, summary: [] });
    responses.push({ type: "function_call", call_id: id, name: tool, arguments: JSON.stringify(args) });
    responses.push({ type: "function_call_output", call_id: id, output: r.markdown });
    aiSdk.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: tool, input: args }] });
    aiSdk.push({ role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: tool, output: { type: "text", value: r.markdown } }] });
    if (r.history_delta !== null) {
      ended++;
      const before = openai.length;
      const o = ws.compressHistory(openai, { format: "openai" });
      const a = ws.compressHistory(anthropic, { format: "anthropic" });
      assert.equal(o.messages_removed, r.history_delta.messages_removed, `${tool}: the prediction matches`);
      const off = Math.abs(o.tokens_saved - r.history_delta.tokens_saved) / o.tokens_saved;
      assert.ok(off < 0.1, `${tool}: predicted ${r.history_delta.tokens_saved} tokens saved, compression saved ${o.tokens_saved}`);
      assert.ok(o.tokens_saved > 0 && a.tokens_saved > 0);
      assert.equal(o.messages.length, before - o.messages_removed + 1, "one summary replaces the session");
      const rs = ws.compressHistory(responses, { format: "openai-responses" });
      const ai = ws.compressHistory(aiSdk, { format: "ai-sdk" });
      // The AI SDK's messages pair up as OpenAI's do: the same messages go.
      assert.equal(ai.messages_removed, o.messages_removed, "ai-sdk: as many messages removed as in openai");
      assert.equal(ai.messages.length, aiSdk.length - ai.messages_removed + 1);
      // Responses: each call is three items (its reasoning, the call, the output), all removed.
      assert.equal(rs.messages_removed, (o.messages_removed / 2) * 3, "openai-responses: reasoning, call and output of each call");
      openai = o.messages;
      anthropic = a.messages;
      responses = rs.messages;
      aiSdk = ai.messages;
      assertValid(openai, "openai");
      assertValid(anthropic, "anthropic");
      assertValid(responses, "openai-responses");
      assertValid(aiSdk, "ai-sdk");
    }
  }
  assert.ok(calls >= 20, `${calls} calls`);
  assert.equal(calls, 24, "the fixture is the 24-call session");
  assert.equal(ended, 4, "four sessions ended (3 commits, 1 revert)");
  const summaries = openai.filter((m) => typeof m.content === "string" && m.content.startsWith("[Edit session #"));
  const summaryTexts = (list) => list.filter((m) => typeof m.content === "string" && m.content.startsWith("[Edit session #")).map((m) => m.content);
  assert.deepEqual(summaryTexts(aiSdk), summaryTexts(openai), "ai-sdk: the same summaries");
  assert.deepEqual(summaryTexts(responses), summaryTexts(openai), "openai-responses: the same summaries");
  // Responses: what is left is the calls outside sessions, each still after its reasoning item.
  const leftCalls = responses.filter((m) => m.type === "function_call").map((m) => m.call_id);
  assert.deepEqual(leftCalls, openai.flatMap((m) => m.tool_calls ?? []).map((c) => c.id));
  for (const id of leftCalls) {
    const at = responses.findIndex((m) => m.call_id === id);
    assert.equal(responses[at - 1].id, `rs_${id}`, `${id} keeps its reasoning item`);
  }
  assert.equal(responses.filter((m) => m.type === "reasoning").length, leftCalls.length, "no reasoning item is left without its call");
  assert.deepEqual(
    summaries.map((m) => m.content.split("\n")[0]),
    ["[Edit session #1 committed]", "[Edit session #2 reverted]", "[Edit session #3 committed]", "[Edit session #4 committed]"],
  );
  assert.match(summaries[0].content, /Summary: timeouts to 60 s\nChanges: 2 replacements, 0 chars/);
  assert.match(summaries[1].content, /Reason: the retries stay as they are/);
  for (const k of keep) assert.ok(openai.some((m) => JSON.stringify(m) === k), `kept byte-identical: ${k}`);
  // calls outside sessions stay (the first read, begin_task, reads between sessions, export)
  const left = openai.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name);
  assert.deepEqual(left, ["memo_read", "memo_begin_task", "memo_read", "memo_read", "memo_export_session", "memo_read"]);
  // … and they are exactly the calls the recording puts in no session
  const outside = FIXTURE.steps.filter((s) => s.tool && s.expect.session === null).map((s) => s.tool_call_id);
  assert.deepEqual(openai.flatMap((m) => m.tool_calls ?? []).map((c) => c.id), outside);
  // compressing a compressed transcript changes nothing
  const again = ws.compressHistory(openai, { format: "openai" });
  assert.deepEqual(again.messages, openai);
  assert.equal(again.messages_removed, 0);
  assert.throws(() => ws.compressHistory(openai, { format: "gemini" }), /needs \{ format: "openai" \| "openai-responses" \| "anthropic" \| "ai-sdk" \}, got "gemini"/);
  assert.throws(() => ws.compressHistory([1], { format: "openai" }), /message 0: expected an object/);
  ws.free();
});

// The recorded transcripts of tests/fixtures/transcripts/ (also checked by the core's
// tests/engine/history_fixtures.rs): replaying their memo_* calls, with the tool_call_ids they carry, on a
// fresh workspace books the sessions the fixture names, and compressHistory through the package
// gives the golden output byte for byte.
for (const name of ["openai-chat", "anthropic-messages"]) {
  test(`the recorded ${name} transcript compresses to its golden file through the package`, async () => {
    const dir = new URL("../../tests/fixtures/transcripts/", import.meta.url);
    const fx = JSON.parse(readFileSync(new URL(`${name}.json`, dir), "utf8"));
    const golden = readFileSync(new URL(`${name}.compressed.json`, dir), "utf8");
    const ws = await Workspace.create({ storage: new MemoryStorage(fx.documents), locale: fx.locale });
    const calls = fx.messages.flatMap((m) =>
      fx.format === "openai"
        ? (m.tool_calls ?? []).map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)])
        : (Array.isArray(m.content) ? m.content : []).filter((b) => b.type === "tool_use").map((b) => [b.id, b.name, b.input]),
    );
    const ended = [];
    for (const [id, tool, args] of calls) {
      if (!tool.startsWith("memo_")) continue; // the loop's other tools never reach agentpad
      const r = await ws.call(tool, args, { toolCallId: id });
      if (r.history_delta !== null) ended.push(id);
    }
    assert.deepEqual(ended, fx.sessions.map((s) => s.tool_call_ids.at(-1)), "the sessions end where the fixture says");
    const { messages, messages_removed, tokens_saved, sessions } = ws.compressHistory(fx.messages, { format: fx.format });
    // the golden file's layout: serde_json's pretty printing, which JSON.stringify(…, 2) matches
    const actual = JSON.stringify({ messages_removed, tokens_saved, sessions, messages }, null, 2) + "\n";
    assert.ok(actual === golden, `${name}: differs from ${name}.compressed.json`);
    assert.deepEqual([messages_removed, tokens_saved], [fx.expected.messages_removed, fx.expected.tokens_saved]);
    ws.free();
  });
}

// Hosts build messages as objects, and SDKs leave optional keys set to `undefined` (the AI SDK's
// `providerOptions: undefined` on every part it returns). Such a key is absent, as JSON has it:
// compression must not turn it into a `null`, which the AI SDK's ModelMessage schema refuses on
// the next generateText ("Invalid prompt: The messages do not match the ModelMessage[] schema").
test("a key set to undefined stays absent in every format (no null the SDK would refuse)", async () => {
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "x = 1\n" }) });
  const replace = await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 2" }, { toolCallId: "c1" });
  const commit = await ws.call("memo_commit", { summary: "x to 2" }, { toolCallId: "c2" });
  assert.notEqual(commit.history_delta, null);
  const u = undefined;
  // Per format: the model wrote text beside each call; every optional key is present and undefined.
  const transcripts = {
    openai: [
      { role: "user", content: "go", name: u },
      { role: "assistant", content: "Editing.", refusal: u, tool_calls: [{ id: "c1", type: "function", function: { name: "memo_replace", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: replace.markdown },
      { role: "assistant", content: "Saving.", audio: u, tool_calls: [{ id: "c2", type: "function", function: { name: "memo_commit", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c2", content: commit.markdown },
    ],
    "openai-responses": [
      { role: "user", content: "go", type: u },
      { type: "message", role: "assistant", id: u, content: [{ type: "output_text", text: "Editing.", annotations: [], logprobs: u }] },
      { type: "function_call", call_id: "c1", name: "memo_replace", arguments: "{}", id: u, status: u },
      { type: "function_call_output", call_id: "c1", output: replace.markdown, id: u },
      { type: "function_call", call_id: "c2", name: "memo_commit", arguments: "{}", id: u },
      { type: "function_call_output", call_id: "c2", output: commit.markdown, status: u },
    ],
    anthropic: [
      { role: "user", content: [{ type: "text", text: "go", cache_control: u }] },
      { role: "assistant", content: [{ type: "text", text: "Editing.", citations: u }, { type: "tool_use", id: "c1", name: "memo_replace", input: {}, cache_control: u }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: replace.markdown, is_error: u }] },
      { role: "assistant", content: [{ type: "text", text: "Saving.", citations: u }, { type: "tool_use", id: "c2", name: "memo_commit", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c2", content: commit.markdown }, { type: "text", text: "next", cache_control: u }] },
    ],
    "ai-sdk": [
      { role: "user", content: "go", providerOptions: u },
      { role: "assistant", content: [{ type: "text", text: "Editing.", providerOptions: u }, { type: "tool-call", toolCallId: "c1", toolName: "memo_replace", input: {}, providerExecuted: u, providerOptions: u }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "memo_replace", output: { type: "text", value: replace.markdown }, providerOptions: u }] },
      { role: "assistant", content: [{ type: "text", text: "Saving.", providerOptions: u }, { type: "tool-call", toolCallId: "c2", toolName: "memo_commit", input: {}, providerOptions: u }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c2", toolName: "memo_commit", output: { type: "text", value: commit.markdown } }] },
    ],
  };
  for (const [format, messages] of Object.entries(transcripts)) {
    const out = ws.compressHistory(messages, { format });
    assert.deepEqual(out.sessions, [1], `${format}: the session was found`);
    const nulls = [];
    const walk = (v, at) => {
      if (v === null) nulls.push(at);
      else if (typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
    };
    walk(out.messages, "messages");
    assert.deepEqual(nulls, [], `${format}: a key that was undefined came back as null`);
    // What is kept is what the host had, with its undefined keys absent (JSON's reading of it).
    assert.equal(JSON.stringify(out.messages[0]), JSON.stringify(messages[0]), `${format}: the user message as it was`);
    assert.ok(JSON.stringify(out.messages).includes("Editing."), `${format}: the assistant's text is kept`);
    if (format === "ai-sdk") assertValid(out.messages, format); // the AI SDK's own modelMessageSchema
  }
  ws.free();
});
