// What crosses the wasm boundary once instead of on every call (www/src/workspace.ts): the tool
// definitions, fixed for a workspace's life, are kept on the JS side — every `tools()` still hands
// out its own copy, the same list as the core's, and a freed workspace still refuses.
// A memory export is parsed where it is (JS) and read once into the core, its text never
// round-tripped through UTF-8.
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
  assert.notDeepEqual(
    other.tools({ format: "json-schema" }).map((t) => t.name),
    before,
    "another configuration, another list",
  );
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

test("the echo of the workspace's own save is not scanned again: its version is known", async () => {
  // A document with a non-Latin-1 char: V8 scans such a string whole on every isWellFormed().
  const text = "中文 line\n".repeat(2000) + "target\n";
  const storage = new MemoryStorage({ "a.md": text });
  const ws = await Workspace.create({ storage });
  await ws.call("memo_replace", { old_text: "target", new_text: "done" });
  assert.equal((await ws.call("memo_commit", { summary: "s" })).status, "Success");
  const scanned = [];
  const original = String.prototype.isWellFormed;
  String.prototype.isWellFormed = function () {
    if (this.length >= text.length - 10) scanned.push(this.length);
    return original.call(this);
  };
  try {
    // The save notified the watch: this call reads storage, sees its own version, and goes on.
    const r = await ws.call("memo_read", { start_line: 1, end_line: 1 });
    assert.equal(r.status, "Success");
    assert.doesNotMatch(r.summary, /changed in storage|could not be read/);
    assert.deepEqual(scanned, [], "no whole-document scan for a version the workspace holds");
    // A change by someone else is still checked, and taken.
    storage.write("a.md", text.replace("中文", "英文"));
    const after = await ws.call("memo_read", { start_line: 1, end_line: 1 });
    assert.equal(scanned.length > 0, true, "a new version's text is checked");
    assert.match(after.summary, /changed in storage/);
  } finally {
    String.prototype.isWellFormed = original;
    ws.free();
  }
});

test("memory.import parses the export on the JS side: bad JSON is refused saying so, a lone surrogate is refused, not replaced", async () => {
  const ws = await create();
  ws.memory.add({ summary: "named the timeout", context: "timeout: 30 → 45", atMs: 1000 });
  const exported = ws.memory.export();
  const other = await create();
  other.memory.import(exported);
  assert.deepEqual(other.memory.turns(), ws.memory.turns());
  assert.equal(other.memory.digest(), ws.memory.digest());
  assert.throws(() => other.memory.import(exported.slice(0, -3)), /InvalidArguments: malformed memory export: .*JSON/);
  // A lone surrogate inside a string of the export: the text stays as JS holds it until the
  // core reads it, which refuses it with where it is (a UTF-8 round trip would have made it U+FFFD).
  const lone = exported.replace("named the timeout", "named the \uD83D timeout");
  assert.throws(() => other.memory.import(lone), /`json\.turns\[0\]\.summary` has an unpaired UTF-16 surrogate at UTF-16 offset 10/);
  assert.equal(other.memory.digest(), ws.memory.digest(), "a refused import changes nothing");
  ws.free();
  other.free();
});

// A commit's write comes as edits of the committed text the shell holds (src/host_texts.rs,
// docs/performance.md#commit-and-text): the text storage gets must be exactly the core's.
const commitOnce = async (ws, edits) => {
  for (const [old_text, new_text] of edits) assert.equal((await ws.call("memo_replace", { old_text, new_text })).status, "Success");
  const r = await ws.call("memo_commit", { summary: "c" });
  assert.equal(r.status, "Success", r.summary);
};
const replaced = (text, edits) => edits.reduce((t, [a, b]) => t.replace(a, b), text);

test("commits made from the edits of the held text write the core's text, commit after commit", async () => {
  // Surrogate pairs and CJK before the edits: UTF-16 offsets, not code points.
  let expected = "😀 表 one\n二 two 🎉\nthree 三\n" + "filler line\n".repeat(50) + "end 😀\n";
  const storage = new MemoryStorage({ "a.md": expected });
  const ws = await Workspace.create({ storage });
  for (const edits of [
    [
      ["one", "ONE 👍"],
      ["three", "3"],
    ],
    [
      ["二 two", "two"],
      ["end", "終 end"],
    ],
    [["ONE 👍", "1"]],
  ]) {
    await commitOnce(ws, edits);
    expected = replaced(expected, edits);
    assert.equal(storage.read("a.md"), expected);
    assert.equal(ws.draft(), expected, "the core's committed text");
    assert.equal(ws.text(), expected);
  }
  // Storage changed the document in between: the next commit edits storage's text, not the copy.
  expected = storage.read("a.md").replace("filler line\n", "changed elsewhere\n");
  storage.write("a.md", expected);
  await commitOnce(ws, [["3", "three again"]]);
  expected = expected.replace("3", "three again");
  assert.equal(storage.read("a.md"), expected);
  assert.equal(ws.draft(), expected);
  ws.free();
});

test("a document storage holds with CRLF or a BOM is written whole, in its own form", async () => {
  const storage = new MemoryStorage({ "crlf.md": "a\r\nb\r\n", "bom.md": "\uFEFFa\nb\n" });
  const ws = await Workspace.create({ storage });
  for (const [path, written] of [
    ["crlf.md", "a\r\nB\r\n"],
    ["bom.md", "\uFEFFa\nB\n"],
  ]) {
    assert.equal((await ws.call("memo_replace", { path, old_text: "b", new_text: "B" })).status, "Success");
    assert.equal((await ws.call("memo_commit", { summary: "c" })).status, "Success");
    assert.equal(storage.read(path), written);
  }
  ws.free();
});

// Responses and steps cross as JSON text parsed by JSON.parse; strings of 256 bytes or more
// (a read's content, the Markdown, a write's whole text, a text to embed) cross beside it, set
// into the place the JSON held for them (src/wasm.rs).
const TRICKY = 'say "hi" \\ back\tslash – 中文 😀 </script> \u2028';

test("long strings cross beside the JSON text and keep their place among the keys", async () => {
  const lines = Array.from({ length: 60 }, (_, i) => `${i} ${TRICKY}`);
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": lines.join("\n") + "\n" }) });
  const short = await ws.call("memo_read", { start_line: 1, end_line: 1 });
  const long = await ws.call("memo_read", { start_line: 1, end_line: 60 });
  assert.ok(new TextEncoder().encode(short.content).length < 256 && new TextEncoder().encode(long.content).length >= 256);
  assert.deepEqual(Object.keys(long), Object.keys(short), "content and markdown where the JSON had them");
  for (const line of lines) assert.ok(long.content.includes(line) && long.markdown.includes(line), line);
  assert.ok(short.content.includes(lines[0]));
  ws.free();
});

test("a write of a text the shell holds no copy of carries it whole, long or short", async () => {
  for (const count of [1, 200]) {
    // CRLF: the core holds LF text, so the shell's string is not the committed text and the
    // write carries its text (src/host_texts.rs).
    const text = Array.from({ length: count }, (_, i) => `${i} ${TRICKY}`).join("\r\n") + "\r\nend\r\n";
    const saved = [];
    const storage = new MemoryStorage({ "a.md": text });
    const save = storage.save.bind(storage);
    storage.save = (path, t, ...rest) => (saved.push(t), save(path, t, ...rest));
    const ws = await Workspace.create({ storage });
    assert.equal((await ws.call("memo_replace", { old_text: "end", new_text: "END" })).status, "Success");
    assert.equal((await ws.call("memo_commit", { summary: "s" })).status, "Success");
    const expected = text.replace("\r\nend\r\n", "\r\nEND\r\n");
    assert.deepEqual(saved, [expected], `${count} lines`);
    assert.equal(storage.read("a.md"), expected);
    ws.free();
  }
});

test("texts to embed cross whole, long or short", async () => {
  const long = `Retries ${TRICKY} `.repeat(12).trim();
  const asked = [];
  const embed = async (texts) => {
    asked.push(...texts);
    return texts.map((t) => Array.from({ length: 8 }, (_, i) => (t.charCodeAt(i % t.length) % 7) - 3));
  };
  const doc = `# Install\n\nRun the installer.\n\n# Retries\n\n${long}\n`;
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": doc }), embed });
  assert.equal((await ws.call("memo_find", { query: "retries" })).status, "Success");
  assert.ok(new TextEncoder().encode(long).length >= 256);
  assert.ok(
    asked.some((t) => t.includes(long)),
    JSON.stringify(asked.map((t) => t.length)),
  );
  assert.ok(asked.includes("retries"));
  ws.free();
});

test("a response's Markdown holds the long content and preview it crossed with, once and in place", async () => {
  // Long strings cross beside the JSON, and the Markdown is joined from them (src/wasm.rs
  // joined_markdown): a wrong join would drop, repeat or misplace a part.
  const lines = Array.from({ length: 60 }, (_, i) => `line ${i} │ 中文 \`code\` ${"x".repeat(i % 7)}`);
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": `${lines.join("\n")}\n` }) });
  const fenced = (heading, body) => `\n\n### ${heading}\n\`\`\`\n${body}`;
  const read = await ws.call("memo_read", { start_line: 1, end_line: 40 });
  assert.ok(read.content.length > 256, "long enough to cross by itself");
  assert.ok(read.markdown.startsWith("status: `Success`\n"), read.markdown.slice(0, 80));
  assert.ok(read.markdown.includes(fenced("[Text] Content", `${read.content}\`\`\`\n`)), read.markdown);
  assert.equal(read.markdown.split(read.content).length, 2, "the content once");
  const old = lines.slice(3, 30).join("\n");
  const staged = await ws.call("memo_replace", { old_text: old, new_text: old.replaceAll("line", "row") });
  assert.equal(staged.status, "Success", staged.markdown);
  assert.ok(staged.preview.length > 256, "long enough to cross by itself");
  assert.ok(staged.markdown.includes(fenced("[Diff] Preview", staged.preview)), staged.markdown);
  assert.equal(staged.markdown.split(staged.preview).length, 2, "the preview once");
  ws.free();
});
