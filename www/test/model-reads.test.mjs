// What the model reads, through the BUILT package: memo_create, memo_read(version), the
// fingerprint in a read, commit responses without host-facing notes, a replace-all over more
// places than letters, and guidance that names only tools the state offers.
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace } from "@agentpad/core";

async function open(docs, options = {}) {
  const storage = new MemoryStorage(docs);
  const ws = await Workspace.create({ storage, ...options });
  return { storage, ws };
}

test("memo_create stages a new document; the commit writes it to the storage", async () => {
  const { storage, ws } = await open({ "a.md": "# A\n" });
  let r = await ws.call("memo_create", { path: "notes/todo.md", text: "- one\n" });
  assert.equal(r.status, "Success", r.markdown);
  assert.deepEqual(r.pending_changes.map((c) => [c.change_id, c.path]), [["A", "notes/todo.md"]]);
  assert.equal(await storage.load("notes/todo.md"), undefined, "nothing written before the commit");
  assert.deepEqual(ws.paths(), ["a.md", "notes/todo.md"]);
  r = await ws.call("memo_commit", { summary: "todo list" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal((await storage.load("notes/todo.md")).text, "- one\n");
  assert.equal(ws.version("notes/todo.md"), (await storage.load("notes/todo.md")).version);
  r = await ws.call("memo_create", { path: "a.md", text: "x" });
  assert.equal(r.status, "InvalidArguments", r.markdown);
  // A reverted creation is forgotten.
  await ws.call("memo_create", { path: "b.md", text: "b\n" });
  await ws.call("memo_revert", { reason: "no" });
  assert.deepEqual(ws.paths(), ["a.md", "notes/todo.md"]);
  ws.free();
});

test("Workspace.open adds a document the storage got after create; twice is a no-op", async () => {
  const { storage, ws } = await open({ "a.md": "# A\n" });
  storage.write("later.md", "later\n");
  assert.equal(await ws.open("later.md"), true);
  assert.equal(await ws.open("later.md"), false);
  assert.equal(await ws.open("missing.md"), false);
  await assert.rejects(ws.open(""), /non-empty string path/);
  const r = await ws.call("memo_read", { path: "later.md" });
  assert.equal(r.content, "1│ later\n");
  ws.free();
});

test("memo_read(version) reads what a commit named; the read's fingerprint guards an edit", async () => {
  const { ws } = await open({ "a.md": "x = 1\n" });
  await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 2" });
  let r = await ws.call("memo_commit", { summary: "x to 2" }, { toolCallId: "c1" });
  assert.equal(r.guidance, 'It is now v1; memo_read(version="v0") shows it as it was before.');
  assert.ok(!r.markdown.includes("[History:") && !r.markdown.includes("(empty)"), r.markdown);
  assert.ok(r.history_delta, "the host still gets history_delta");
  r = await ws.call("memo_read", { version: "v0" });
  assert.equal(r.content, "1│ x = 1\n");
  r = await ws.call("memo_read", {});
  const fp = /fingerprint `([0-9a-f]{16})`/.exec(r.markdown)?.[1];
  assert.equal(fp, r.fingerprint, r.markdown);
  r = await ws.call("memo_replace", { old_text: "x = 2", new_text: "x = 3", expected_fingerprint: fp });
  assert.equal(r.status, "Success", r.markdown);
  r = await ws.call("memo_replace", { old_text: "x = 3", new_text: "x = 4", expected_fingerprint: fp });
  assert.equal(r.status, "StaleReference", "the draft moved on since that read");
  ws.free();
});

test("a replace-all over 40 places is one change beside 25 others; a 27th is refused offering memo_commit", async () => {
  const doc = Array.from({ length: 25 }, (_, i) => `single${i}: x\n`).join("") + "call(old)\n".repeat(40);
  const { ws } = await open({ "b.txt": doc });
  for (let i = 0; i < 25; i++) {
    const r = await ws.call("memo_replace", { old_text: `single${i}: x`, new_text: `single${i}: y` });
    assert.equal(r.status, "Success", r.markdown);
  }
  let r = await ws.call("memo_replace", { old_text: "call(old)", new_text: "call(new)", replace_all: true });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.pending_changes.length, 26);
  r = await ws.call("memo_append", { text: "tail\n" });
  assert.equal(r.status, "Blocked", r.markdown);
  assert.match(r.guidance, /memo_commit\(summary\)/);
  assert.ok(r.visible_tools.includes("memo_commit"));
  ws.free();
});
