// History compression through the built package: a scripted agent session of 24 calls, kept as
// an OpenAI and an Anthropic transcript the way an agent loop builds them, compressed after each
// commit or revert. Every compressed transcript must still be valid for its API (every call
// answered, every result after its call, Anthropic roles alternating), keep every message that
// is not a session's call byte-identical, and hold one summary per ended session.
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace } from "agentpad";

const CONFIG = "# service\nname: orders\ntimeout: 30\nretries: 3\n\n# api\napi.timeout: 30\napi.retries: 5\n";

/** [tool, args] — what the scripted model calls; `say` entries are plain assistant text. */
const SCRIPT = [
  ["say", "I'll look at the config first."],
  ["memo_read", {}],
  ["memo_begin_task", { goal: "raise the timeouts" }],
  ["memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" }], // MultiMatch: session 1 opens
  ["memo_replace_selection", { selection_id: "A" }],
  ["memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "B" }],
  ["memo_preview", {}],
  ["memo_commit", { summary: "timeouts to 60 s" }], // session 1 ends
  ["say", "Now the retries."],
  ["memo_replace", { old_text: "retries: 3", new_text: "retries: 4" }], // session 2
  ["memo_read", { start_line: 1, end_line: 4 }],
  ["memo_replace", { old_text: "api.retries: 5", new_text: "api.retries: 6" }],
  ["memo_revert", { reason: "the retries stay as they are" }], // session 2 ends
  ["memo_read", {}],
  ["memo_replace", { old_text: "name: orders", new_text: "name: orders-v2" }], // session 3
  ["memo_append", { text: "owner: platform\n" }],
  ["memo_diff", {}],
  ["memo_replace", { old_text: "no such line", new_text: "x" }], // NoMatch inside the session
  ["memo_preview", { format: "stats" }],
  ["memo_commit", { summary: "rename and owner" }], // session 3 ends
  ["say", "All done."],
  ["memo_read", {}],
  ["memo_export_session", {}],
  ["memo_replace", { old_text: "owner: platform", new_text: "owner: core" }], // session 4
  ["memo_commit_auto", {}], // session 4 ends
  ["memo_read", {}],
];

/** Every tool call answered by a later result, every result after its call. */
function assertValid(messages, format) {
  const open = new Set();
  messages.forEach((m, i) => {
    const calls = [];
    const results = [];
    if (format === "openai") {
      for (const c of m.tool_calls ?? []) calls.push(c.id);
      if (m.role === "tool") results.push(m.tool_call_id);
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

test("a 24-call scripted session, compressed after every commit or revert, stays valid in both formats", async () => {
  const storage = new MemoryStorage({ "config.yaml": CONFIG });
  const ws = await Workspace.create({ storage });
  let openai = [{ role: "system", content: "You edit config files." }, { role: "user", content: "Raise the timeouts." }];
  let anthropic = [{ role: "user", content: "Raise the timeouts." }];
  const keep = []; // messages that are not session calls: must survive byte-identical
  keep.push(JSON.stringify(openai[1]));
  let calls = 0;
  let ended = 0;
  let n = 0;
  for (const [tool, args] of SCRIPT) {
    if (tool === "say") {
      const o = { role: "assistant", content: args };
      openai.push(o);
      keep.push(JSON.stringify(o));
      anthropic.push({ role: "assistant", content: [{ type: "text", text: args }] });
      anthropic.push({ role: "user", content: [{ type: "text", text: "ok" }] });
      continue;
    }
    const id = `call_${++n}`;
    const r = await ws.call(tool, args, { toolCallId: id });
    calls++;
    openai.push({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: tool, arguments: JSON.stringify(args) } }] });
    openai.push({ role: "tool", tool_call_id: id, content: r.markdown });
    anthropic.push({ role: "assistant", content: [{ type: "tool_use", id, name: tool, input: args }] });
    anthropic.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: r.markdown }] });
    if (r.history_delta !== null) {
      ended++;
      const before = openai.length;
      const o = ws.compressHistory(openai, { format: "openai" });
      const a = ws.compressHistory(anthropic, { format: "anthropic" });
      assert.equal(o.messages_removed, r.history_delta.messages_removed, `${tool}: the prediction matches`);
      assert.ok(o.tokens_saved > 0 && a.tokens_saved > 0);
      assert.equal(o.messages.length, before - o.messages_removed + 1, "one summary replaces the session");
      openai = o.messages;
      anthropic = a.messages;
      assertValid(openai, "openai");
      assertValid(anthropic, "anthropic");
    }
  }
  assert.ok(calls >= 20, `${calls} calls`);
  assert.equal(ended, 4, "four sessions ended (3 commits, 1 revert)");
  const summaries = openai.filter((m) => typeof m.content === "string" && m.content.startsWith("[Edit session #"));
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
  // compressing a compressed transcript changes nothing
  const again = ws.compressHistory(openai, { format: "openai" });
  assert.deepEqual(again.messages, openai);
  assert.equal(again.messages_removed, 0);
  assert.throws(() => ws.compressHistory(openai, { format: "gemini" }), /openai" \| "anthropic/);
  assert.throws(() => ws.compressHistory([1], { format: "openai" }), /message 0: expected an object/);
  ws.free();
});
