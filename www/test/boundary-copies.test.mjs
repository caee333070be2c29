// What crosses the wasm boundary once instead of on every call (www/src/workspace.ts): the tool
// definitions, fixed for a workspace's life, are kept on the JS side — every `tools()` still hands
// out its own copy, the same list as the core's, and a freed workspace still refuses.
// Run: node --test test/boundary-copies.test.mjs
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace } from "@agentpad/core";

const FORMATS = ["openai", "openai-responses", "anthropic", "mcp", "gemini", "json-schema"];
const create = (options = {}) => Workspace.create({ storage: new MemoryStorage({ "a.md": "alpha\nbeta\n" }), ...options });

test("tools() hands out a fresh copy each time: changing one list changes no later one", async () => {
  const ws = await create();
  for (const format of FORMATS) {
    for (const strict of [false, true]) {
      const first = ws.tools({ format, strict });
      const pristine = structuredClone(first);
      // What a host might do to the list it got: rename, drop a property, push a tool.
      const schema = (t) => t.function?.parameters ?? t.parameters ?? t.input_schema ?? t.inputSchema ?? t.parametersJsonSchema;
      schema(first[0]).properties = {};
      first[0].description = "changed";
      first.push({ name: "extra" });
      assert.deepEqual(ws.tools({ format, strict }), pristine, `${format} strict=${strict}`);
    }
  }
  ws.free();
});

test("the kept list is the core's for this configuration, in every state", async () => {
  const ws = await create({ toolPrefix: "doc", memory: true, persistMode: "immediate" });
  const names = () => ws.tools({ format: "json-schema" }).map((t) => t.name);
  const before = names();
  assert.ok(before.includes("doc_recall_context"), "memory tools enabled by the option");
  assert.ok(!before.includes("doc_commit_auto"), "no commit_auto in immediate mode");
  await ws.call("doc_replace", { old_text: "alpha", new_text: "gamma" });
  assert.deepEqual(names(), before);
  const other = await create();
  assert.notDeepEqual(other.tools({ format: "json-schema" }).map((t) => t.name), before, "another configuration, another list");
  // visibleOnly still asks the core for the current state's tools.
  assert.ok(ws.tools({ format: "json-schema", visibleOnly: true }).length < before.length);
  ws.free();
  other.free();
});

test("a freed workspace refuses tools() even with the list kept", async () => {
  const ws = await create();
  ws.tools({ format: "mcp" });
  ws.free();
  assert.throws(() => ws.tools({ format: "mcp" }), /has been freed/);
});
