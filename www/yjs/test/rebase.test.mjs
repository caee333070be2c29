// Automatic rebase (option autoRebase): a person's keystroke between two agent calls moves the
// agent's pending changes when it does not overlap them; only an overlap is ExternalConflict.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { NodeFsStorage, Workspace } from "@agentpad/core";
import { connectHocuspocus } from "@agentpad/yjs/hocuspocus";
import { startCollabServer } from "@agentpad/yjs/server";
import { person, waitFor } from "./helpers.mjs";

let dir;
let server;
let rooms = 0;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentpad-rebase-"));
  server = await startCollabServer({ directory: join(dir, "docs"), debounce: 50 });
});

after(async () => {
  await server?.destroy();
  await rm(dir, { recursive: true, force: true });
});

async function session(t, text) {
  const name = `rebase${++rooms}`;
  const room = await connectHocuspocus({ url: server.url, room: name, WebSocketPolyfill: WebSocket });
  t.after(() => room.destroy());
  await room.storage.save("cfg.md", text, "");
  const ws = await Workspace.create({ storage: room.storage, autoRebase: true });
  t.after(() => ws.free());
  const p = await person(server.url, name, "cfg.md");
  t.after(() => p.destroy());
  return { room, ws, p };
}

test("a keystroke away from the pending changes is rebased over, and the summary says so", async (t) => {
  const { room, ws, p } = await session(t, "alpha = 1\nbeta = 1\ngamma = 1\n");
  assert.equal((await ws.call("memo_replace", { old_text: "alpha = 1", new_text: "alpha = 2" })).status, "Success");
  p.type(p.text.toString().indexOf("gamma"), "# note\n");
  await waitFor(async () => (await room.storage.load("cfg.md")).text.includes("# note"), "the keystroke to reach the agent");
  const r = await ws.call("memo_replace", { old_text: "beta = 1", new_text: "beta = 2" });
  assert.equal(r.status, "Success", r.markdown);
  assert.match(r.markdown, /did not overlap them, so your 1 pending change \(A\) moved onto it/);
  const c = await ws.call("memo_commit", { summary: "bump" });
  assert.equal(c.status, "Success", c.markdown);
  const want = "alpha = 2\nbeta = 2\n# note\ngamma = 1\n";
  await waitFor(() => p.text.toString() === want, "the commit on the person's side");
});

test("a keystroke right at either edge of a pending change is outside it, as the highlight shows", async (t) => {
  const { room, ws, p } = await session(t, "alpha = 1\nbeta = 1\ngamma = 1\n");
  assert.equal((await ws.call("memo_replace", { old_text: "beta = 1", new_text: "beta = 2" })).status, "Success");
  // Right after the change, then right before it: both outside the highlighted range.
  p.type(p.text.toString().indexOf("beta = 1") + "beta = 1".length, " # checked");
  p.type(p.text.toString().indexOf("beta = 1"), "> ");
  await waitFor(async () => (await room.storage.load("cfg.md")).text.includes("> beta = 1 # checked"), "the keystrokes to reach the agent");
  const r = await ws.call("memo_replace", { old_text: "gamma = 1", new_text: "gamma = 2" });
  assert.equal(r.status, "Success", r.markdown);
  assert.match(r.markdown, /did not overlap them, so your 1 pending change \(A\) moved onto it/);
  const c = await ws.call("memo_commit", { summary: "bump" });
  assert.equal(c.status, "Success", c.markdown);
  await waitFor(() => p.text.toString() === "alpha = 1\n> beta = 2 # checked\ngamma = 2\n", "both changes and the person's typing");
});

test("a keystroke inside a pending change is still an ExternalConflict", async (t) => {
  const { room, ws, p } = await session(t, "alpha = 1\nbeta = 1\n");
  await ws.call("memo_replace", { old_text: "beta = 1", new_text: "beta = 2" });
  p.type(p.text.toString().indexOf("= 1\n", 10) + 2, "0");
  await waitFor(async () => (await room.storage.load("cfg.md")).text.includes("beta = 01"), "the keystroke to reach the agent");
  const c = await ws.call("memo_commit", { summary: "bump" });
  assert.equal(c.status, "ExternalConflict", c.markdown);
  assert.equal(p.text.toString(), "alpha = 1\nbeta = 01\n", "the person's text is untouched");
});

test("the exact Yjs delta keeps the agent's change on its own copy of a repeated line", async (t) => {
  const { room, ws, p } = await session(t, "x = 1\nx = 1\n");
  assert.equal((await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 2" })).status, "MultiMatch");
  assert.equal((await ws.call("memo_replace_selection", { selection_id: "B" })).status, "Success");
  // The person duplicates the first line: a diff of the texts would read "a line added at the
  // end" and put the agent's change on the person's new line.
  p.type(0, "x = 1\n");
  await waitFor(async () => (await room.storage.load("cfg.md")).text === "x = 1\nx = 1\nx = 1\n", "the keystroke to reach the agent");
  const c = await ws.call("memo_commit", { summary: "second line" });
  assert.equal(c.status, "Success", c.markdown);
  await waitFor(() => p.text.toString() === "x = 1\nx = 1\nx = 2\n", "the change on the line it was made on (now the third)");
});

test("after an overlap, memo_rebase keeps the other change on its own copy of a repeated line", async (t) => {
  const { room, ws, p } = await session(t, "x = 1\nx = 1\ny = 1\n");
  assert.equal((await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 2" })).status, "MultiMatch");
  assert.equal((await ws.call("memo_replace_selection", { selection_id: "B" })).status, "Success");
  assert.equal((await ws.call("memo_replace", { old_text: "y = 1", new_text: "y = 2" })).status, "Success");
  p.type(0, "x = 1\n"); // a copy of the first line, above the agent's line
  p.doc.transact(() => {
    const at = p.text.toString().indexOf("y = 1") + 4;
    p.text.delete(at, 1);
    p.text.insert(at, "5");
  }, "person"); // inside the agent's y change: an overlap
  await waitFor(async () => (await room.storage.load("cfg.md")).text === "x = 1\nx = 1\nx = 1\ny = 5\n", "the edits to reach the agent");
  assert.equal((await ws.call("memo_commit", { summary: "s" })).status, "ExternalConflict");
  const r = await ws.call("memo_rebase", {});
  assert.match(r.summary, /kept 1 pending change \(A\)/);
  assert.equal((await ws.call("memo_commit", { summary: "x" })).status, "Success");
  await waitFor(() => p.text.toString() === "x = 1\nx = 1\nx = 2\ny = 5\n", "A on the line it was made on (now the third)");
});

test("NodeFsStorage: a change made elsewhere that does not overlap is rebased over (diffed)", async (t) => {
  const root = join(dir, "fs");
  await rm(root, { recursive: true, force: true });
  await (await import("node:fs/promises")).mkdir(root, { recursive: true });
  await writeFile(join(root, "a.txt"), "one = 1\ntwo = 1\n");
  const storage = new NodeFsStorage(root);
  const ws = await Workspace.create({ storage, autoRebase: true });
  t.after(() => {
    ws.free();
    storage.close?.();
  });
  await ws.call("memo_replace", { old_text: "one = 1", new_text: "one = 2" });
  await writeFile(join(root, "a.txt"), "one = 1\ntwo = 1\nthree = 1\n");
  const c = await waitFor(async () => {
    const r = await ws.call("memo_read", {});
    return /moved onto it/.test(r.markdown) ? r : undefined;
  }, "the workspace to notice the file change", 5000);
  assert.match(c.markdown, /moved onto it/);
  const done = await ws.call("memo_commit", { summary: "one" });
  assert.equal(done.status, "Success", done.markdown);
  assert.equal(await readFile(join(root, "a.txt"), "utf8"), "one = 2\ntwo = 1\nthree = 1\n");
});
