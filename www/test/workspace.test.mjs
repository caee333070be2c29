// Tests of the BUILT package (www/dist + www/pkg), imported by name through its "exports" map.
// Run: node --test www/test/   (./build.sh test builds first)
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace, memoryBytes } from "@agentpad/core";

const NOTES = "# Notes\n\n- alpha: todo\n- beta: todo\n- gamma: todo\n";

async function workspace(docs = { "notes.md": NOTES }, options = {}) {
  const storage = new MemoryStorage(docs);
  const ws = await Workspace.create({ storage, ...options });
  return { storage, ws };
}

test("create opens every document of the storage, the first is the default", async () => {
  const { ws } = await workspace({ "a.md": "first\n", "b.md": "second\n" });
  assert.deepEqual(ws.paths(), ["a.md", "b.md"]);
  assert.equal(ws.text(), "first\n");
  assert.equal(ws.text("b.md"), "second\n");
  assert.equal(ws.state, "Idle");
  ws.free();
});

test("create with paths opens only those, in that order; defaultPath picks the default", async () => {
  const storage = new MemoryStorage({ "a.md": "A\n", "b.md": "B\n", "c.md": "C\n" });
  const ws = await Workspace.create({ storage, paths: ["c.md", "a.md"] });
  assert.deepEqual(ws.paths(), ["c.md", "a.md"]);
  assert.equal(ws.text(), "C\n");
  assert.throws(() => ws.text("b.md"));
  ws.free();
  const ws2 = await Workspace.create({ storage, defaultPath: "b.md" });
  assert.equal(ws2.paths()[0], "b.md");
  assert.equal(ws2.text(), "B\n");
  ws2.free();
});

test("create rejects clearly for a path the storage does not hold", async () => {
  const storage = new MemoryStorage({ "a.md": "A\n" });
  await assert.rejects(Workspace.create({ storage, paths: ["missing.md"] }), /missing\.md/);
});

test("create rejects a bad option with the core's InvalidArguments error", async () => {
  const storage = new MemoryStorage({ "a.md": "A\n" });
  await assert.rejects(Workspace.create({ storage, persistMode: "sometimes" }), /InvalidArguments/);
});

test("memo_read returns the text with line-number gutters and a fingerprint", async () => {
  const { ws } = await workspace();
  const r = await ws.call("memo_read", {});
  assert.equal(r.status, "Success");
  assert.match(r.content, /^ *1│ # Notes$/m);
  assert.match(r.content, /^ *3│ - alpha: todo$/m);
  assert.match(r.fingerprint, /^[0-9a-f]{16}$/);
  assert.equal(r.path, "notes.md");
  assert.equal(typeof r.markdown, "string");
  assert.ok(r.markdown.length > 0);
  ws.free();
});

test("responses are plain JSON objects with every documented field", async () => {
  const { ws } = await workspace();
  const r = await ws.call("memo_read", {});
  assert.equal(Object.getPrototypeOf(r), Object.prototype, "a plain object, not a Map");
  assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
  for (const key of [
    "status", "workflow_state", "flags", "summary", "guidance", "metrics", "candidates",
    "pending_changes", "match_quality", "preview", "content", "fingerprint", "path", "session_id",
    "task_stack", "next_actions", "visible_tools", "markdown", "markdown_basic",
  ]) {
    assert.ok(key in r, `response has ${key}`);
  }
  assert.equal(typeof r.flags.mask, "number");
  assert.ok(Array.isArray(r.flags.names));
  assert.ok(Array.isArray(r.candidates));
  assert.ok(Array.isArray(r.pending_changes));
  assert.ok(Array.isArray(r.visible_tools) && r.visible_tools.includes("memo_replace"));
  ws.free();
});

test("a unique memo_replace stages change A; the committed text is untouched", async () => {
  const { ws, storage } = await workspace();
  const r = await ws.call("memo_replace", { old_text: "beta: todo", new_text: "beta: done" });
  assert.equal(r.status, "Success");
  assert.equal(r.workflow_state, "PersistPending");
  assert.equal(ws.state, "PersistPending");
  assert.equal(r.pending_changes.length, 1);
  const [change] = r.pending_changes;
  assert.equal(change.change_id, "A");
  assert.equal(change.path, "notes.md");
  assert.equal(change.old_text, "beta: todo");
  assert.equal(change.new_text, "beta: done");
  assert.equal(change.line, 4);
  assert.equal(NOTES.slice(change.position, change.position + change.old_text.length), "beta: todo");
  assert.equal(ws.text(), NOTES);
  assert.equal(ws.draft(), NOTES.replace("beta: todo", "beta: done"));
  assert.equal(storage.read("notes.md"), NOTES);
  ws.free();
});

test("memo_commit persists through the storage and restores CRLF line endings", async () => {
  const crlf = NOTES.replaceAll("\n", "\r\n");
  const { ws, storage } = await workspace({ "notes.md": crlf });
  assert.equal(ws.text(), NOTES, "the core works on LF-normalised text");
  let r = await ws.call("memo_replace", { old_text: "gamma: todo", new_text: "gamma: done\n- delta: new" });
  assert.equal(r.status, "Success");
  r = await ws.call("memo_commit", { summary: "gamma done, delta added" });
  assert.equal(r.status, "Success");
  assert.equal(r.workflow_state, "Idle");
  assert.equal(r.pending_changes.length, 0);
  assert.equal(ws.state, "Idle");
  const expected = NOTES.replace("gamma: todo", "gamma: done\n- delta: new");
  assert.equal(ws.text(), expected);
  assert.equal(storage.read("notes.md"), expected.replaceAll("\n", "\r\n"));
  assert.equal(storage.version("notes.md"), "v2");
  // A second commit must send the version the first one produced.
  await ws.call("memo_replace", { old_text: "alpha: todo", new_text: "alpha: done" });
  r = await ws.call("memo_commit", { summary: "alpha done" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(storage.version("notes.md"), "v3");
  assert.ok(storage.read("notes.md").includes("alpha: done\r\n"));
  ws.free();
});

test("a BOM is kept out of the core's text and restored on persist", async () => {
  const { ws, storage } = await workspace({ "bom.txt": "\uFEFFhello world\n" });
  assert.equal(ws.text(), "hello world\n");
  await ws.call("memo_replace", { old_text: "world", new_text: "there" });
  const r = await ws.call("memo_commit", { summary: "greet" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(storage.read("bom.txt"), "\uFEFFhello there\n");
  ws.free();
});

// Three matches after astral (surrogate-pair) and CJK text: the UTF-16 offsets must index the draft.
const WIDE = "😀 emoji 👍🏽 and 中文字符 first: TODO\n第二行 🎉 second: TODO\n𝒳𝒴 third: TODO\n";

test("three matches give MultiMatch with candidates A, B, C whose UTF-16 offsets slice the draft", async () => {
  const { ws } = await workspace({ "wide.md": WIDE });
  const r = await ws.call("memo_replace", { old_text: "TODO", new_text: "DONE" });
  assert.equal(r.status, "MultiMatch");
  assert.equal(r.workflow_state, "SelectionPending");
  assert.deepEqual(r.candidates.map((c) => c.id), ["A", "B", "C"]);
  assert.deepEqual(r.candidates.map((c) => c.line), [1, 2, 3]);
  assert.deepEqual(r.candidates.map((c) => c.occurrence), [0, 1, 2]);
  const draft = ws.draft();
  for (const c of r.candidates) {
    assert.equal(draft.slice(c.context_start, c.context_end), "TODO", `candidate ${c.id}`);
    assert.equal(c.marker_start, `[[SEL#${c.id}]]`);
    assert.equal(c.marker_end, `[[/SEL#${c.id}]]`);
    assert.equal(c.stale, false);
  }
  assert.equal(r.pending_changes.length, 0);
  assert.equal(ws.text(), WIDE, "nothing staged yet");
  ws.free();
});

test("match_id stages exactly the chosen candidate", async () => {
  const { ws, storage } = await workspace({ "wide.md": WIDE });
  await ws.call("memo_replace", { old_text: "TODO", new_text: "DONE" });
  const r = await ws.call("memo_replace", { old_text: "TODO", new_text: "DONE", match_id: "B" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.workflow_state, "PersistPending");
  assert.equal(r.pending_changes.length, 1);
  assert.equal(r.pending_changes[0].line, 2);
  const expected = WIDE.replace("second: TODO", "second: DONE");
  assert.equal(ws.draft(), expected);
  const c = await ws.call("memo_commit", { summary: "second done" });
  assert.equal(c.status, "Success", c.markdown);
  assert.equal(storage.read("wide.md"), expected);
  ws.free();
});

test("a failing save makes memo_commit return PersistFailure and leaves the storage unchanged", async () => {
  const { ws, storage } = await workspace();
  await ws.call("memo_replace", { old_text: "alpha: todo", new_text: "alpha: done" });
  storage.failNext("save");
  const r = await ws.call("memo_commit", { summary: "alpha done" });
  assert.equal(r.status, "PersistFailure", r.markdown);
  assert.equal(storage.read("notes.md"), NOTES);
  assert.equal(storage.version("notes.md"), "v1");
  assert.match(r.markdown, /injected save failure/, "the storage's error reaches the model");
  assert.equal(ws.text(), NOTES, "nothing counts as committed");
  // The changes are kept: committing again (the storage works now) saves them.
  const retry = await ws.call("memo_commit", { summary: "alpha done" });
  assert.equal(retry.status, "Success", retry.markdown);
  assert.equal(storage.read("notes.md"), NOTES.replace("alpha: todo", "alpha: done"));
  assert.equal(storage.version("notes.md"), "v2");
  ws.free();
});

test('persistMode "immediate" saves each staged change at once', async () => {
  const { ws, storage } = await workspace(undefined, { persistMode: "immediate" });
  const r = await ws.call("memo_replace", { old_text: "beta: todo", new_text: "beta: done" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.workflow_state, "Idle");
  assert.equal(storage.read("notes.md"), NOTES.replace("beta: todo", "beta: done"));
  assert.equal(storage.version("notes.md"), "v2");
  assert.equal(ws.text(), storage.read("notes.md"));
  ws.free();
});

test('persistMode "disabled" commits in memory and never writes the storage', async () => {
  const { ws, storage } = await workspace(undefined, { persistMode: "disabled" });
  await ws.call("memo_replace", { old_text: "beta: todo", new_text: "beta: done" });
  const r = await ws.call("memo_commit", { summary: "beta" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.text(), NOTES.replace("beta: todo", "beta: done"));
  assert.equal(storage.read("notes.md"), NOTES);
  assert.equal(storage.version("notes.md"), "v1");
  ws.free();
});

test("args that are not JSON (cycle, BigInt, function) are InvalidArguments, and the instance keeps working", async () => {
  const { ws } = await workspace();
  const cyclic = { old_text: "alpha", new_text: "x" };
  cyclic.self = cyclic;
  for (const args of [cyclic, { old_text: "alpha", new_text: 1n }, { old_text: "alpha", new_text: () => "x" }]) {
    const r = await ws.call("memo_replace", args);
    assert.equal(r.status, "InvalidArguments");
  }
  const r = await ws.call("memo_replace", { old_text: "alpha: todo", new_text: "alpha: done" });
  assert.equal(r.status, "Success", "the wasm instance is not poisoned");
  ws.free();
});

test("a save rejected for a version conflict is a PersistFailure too, never a throw", async () => {
  const { ws, storage } = await workspace();
  await ws.call("memo_replace", { old_text: "alpha: todo", new_text: "alpha: done" });
  const realSave = storage.save.bind(storage);
  storage.save = (path, text) => realSave(path, text, "v999");
  const r = await ws.call("memo_commit", { summary: "alpha done" });
  assert.equal(r.status, "PersistFailure", r.markdown);
  assert.equal(storage.read("notes.md"), NOTES);
  ws.free();
});

test("an unpaired surrogate in old_text is InvalidArguments naming its UTF-16 offset", async () => {
  const { ws } = await workspace();
  const r = await ws.call("memo_replace", { old_text: "ab\uD800cd", new_text: "x" });
  assert.equal(r.status, "InvalidArguments");
  const said = `${r.summary}\n${r.markdown}`;
  assert.match(said, /surrogate/i);
  assert.match(said, /\b2\b/, "names offset 2");
  assert.match(said, /old_text/);
  assert.equal(ws.draft(), NOTES, "nothing changed");
  assert.equal(ws.state, "Idle");
  ws.free();
});

test("an unknown tool, wrong types and missing arguments resolve to InvalidArguments, never throw", async () => {
  const { ws } = await workspace();
  const unknown = await ws.call("memo_frobnicate", { x: 1 });
  assert.equal(unknown.status, "InvalidArguments");
  assert.match(`${unknown.summary} ${unknown.markdown}`, /memo_frobnicate/);
  const wrongType = await ws.call("memo_replace", { old_text: 42, new_text: "x" });
  assert.equal(wrongType.status, "InvalidArguments");
  const missing = await ws.call("memo_replace", { new_text: "x" });
  assert.equal(missing.status, "InvalidArguments");
  const notObject = await ws.call("memo_read", "start_line=1");
  assert.equal(notObject.status, "InvalidArguments");
  const nullArgs = await ws.call("memo_read", null);
  assert.equal(nullArgs.status, "Success", "null args mean {}");
  const noArgs = await ws.call("memo_read");
  assert.equal(noArgs.status, "Success", "omitted args mean {}");
  assert.equal(ws.draft(), NOTES);
  ws.free();
});

test("tools() shapes the definitions for openai, anthropic and json-schema", async () => {
  const { ws } = await workspace();
  const plain = ws.tools({ format: "json-schema" });
  assert.ok(plain.length > 0);
  const names = plain.map((t) => t.name);
  for (const name of ["memo_read", "memo_replace", "memo_commit"]) assert.ok(names.includes(name), name);
  for (const t of plain) {
    assert.deepEqual(Object.keys(t).sort(), ["description", "input_schema", "name"]);
    assert.equal(typeof t.description, "string");
    assert.equal(t.input_schema.type, "object");
  }
  const replace = plain.find((t) => t.name === "memo_replace");
  assert.ok(replace.input_schema.properties.old_text, "memo_replace has old_text");

  const openai = ws.tools({ format: "openai" });
  assert.equal(openai.length, plain.length);
  openai.forEach((t, i) => {
    assert.deepEqual(Object.keys(t).sort(), ["function", "type"]);
    assert.equal(t.type, "function");
    assert.deepEqual(t.function, {
      name: plain[i].name,
      description: plain[i].description,
      parameters: plain[i].input_schema,
    });
  });

  const anthropic = ws.tools({ format: "anthropic" });
  assert.deepEqual(anthropic, plain.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema })));
  assert.throws(() => ws.tools({ format: "gemini-ultra" }), /unknown tool format/);
  // Every tool the core lists as visible is defined; the default list holds the hidden ones too.
  const r = await ws.call("memo_read", {});
  const visible = ws.tools({ format: "json-schema", visibleOnly: true }).map((t) => t.name);
  assert.deepEqual([...r.visible_tools].sort(), [...visible].sort());
  assert.ok(r.visible_tools.every((t) => names.includes(t)) && names.length > visible.length);
  ws.free();
});

test("toolPrefix renames the tools", async () => {
  const { ws } = await workspace({ "n.md": "x\n" }, { toolPrefix: "memory_notebook" });
  const names = ws.tools({ format: "json-schema" }).map((t) => t.name);
  assert.ok(names.includes("memory_notebook_replace"), names.join(", "));
  assert.ok(!names.includes("memo_replace"));
  const r = await ws.call("memory_notebook_read", {});
  assert.equal(r.status, "Success");
  ws.free();
});

test("free() releases the workspace: later use is a clear Error, free() again is harmless", async () => {
  const { ws } = await workspace();
  assert.equal(ws.freed, false);
  ws.free();
  assert.equal(ws.freed, true);
  await assert.rejects(ws.call("memo_read", {}), /freed/);
  assert.throws(() => ws.text(), /freed/);
  assert.throws(() => ws.draft(), /freed/);
  assert.throws(() => ws.state, /freed/);
  assert.throws(() => ws.paths(), /freed/);
  assert.throws(() => ws.tools({ format: "openai" }), /freed/);
  ws.free();
});

test("Symbol.dispose frees the workspace", async () => {
  const { ws } = await workspace();
  assert.equal(typeof ws[Symbol.dispose], "function");
  ws[Symbol.dispose]();
  assert.equal(ws.freed, true);
  await assert.rejects(ws.call("memo_read", {}), /freed/);
});

test("`using` disposes the workspace at the end of the block", async (t) => {
  let usingWorks = true;
  try {
    // Compiling a tiny function tells whether this Node parses `using` declarations.
    new Function("{ using x = null; }");
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    usingWorks = false;
  }
  if (!usingWorks) {
    t.skip(`Node ${process.version} has no \`using\` declarations (explicit resource management)`);
    return;
  }
  const { run } = await import("./fixtures/using.mjs");
  const ws = await run();
  assert.equal(ws.freed, true);
});

test("calls are serialised: a call issued during a commit runs after it", async () => {
  const { ws, storage } = await workspace();
  await ws.call("memo_replace", { old_text: "alpha: todo", new_text: "alpha: done" });
  const commit = ws.call("memo_commit", { summary: "alpha" });
  const read = ws.call("memo_read", {});
  const [c, r] = await Promise.all([commit, read]);
  assert.equal(c.status, "Success", c.markdown);
  assert.equal(r.status, "Success");
  assert.match(r.content, /alpha: done/);
  assert.equal(r.workflow_state, "Idle");
  assert.equal(storage.version("notes.md"), "v2");
  ws.free();
});

test("memoryBytes() reports the wasm linear memory once loaded", async () => {
  const { ws } = await workspace();
  assert.ok(memoryBytes() > 0);
  assert.equal(memoryBytes() % 65536, 0, "whole wasm pages");
  ws.free();
});

test("many workspaces created and freed do not grow the wasm memory without bound", async () => {
  const big = "line of text that is long enough to matter\n".repeat(2000);
  for (let i = 0; i < 5; i++) {
    const { ws } = await workspace({ "big.md": big });
    ws.free();
  }
  const before = memoryBytes();
  for (let i = 0; i < 40; i++) {
    const { ws } = await workspace({ "big.md": big });
    await ws.call("memo_read", { start_line: 1, end_line: 3 });
    ws.free();
  }
  // 40 documents of ~88 KB would add > 3.5 MB if nothing were released.
  assert.ok(memoryBytes() - before < 2 * 1024 * 1024, `grew from ${before} to ${memoryBytes()}`);
});
