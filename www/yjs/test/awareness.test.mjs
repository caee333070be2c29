// The agent in awareness: pending changes and candidates as Y.RelativePosition ranges that a
// person resolves where they are now, through a real in-process Hocuspocus server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { Workspace } from "@agentpad/core";
import { publishAgentState, resolveAgentRanges } from "@agentpad/yjs";
import { connectHocuspocus } from "@agentpad/yjs/hocuspocus";
import { startCollabServer } from "@agentpad/yjs/server";
import { person, waitFor } from "./helpers.mjs";

let dir;
let server;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentpad-awareness-"));
  server = await startCollabServer({ directory: dir, debounce: 50 });
});
after(async () => {
  await server?.destroy();
  await rm(dir, { recursive: true, force: true });
});

test("a person sees the agent's pending change and candidates where they are now", async (t) => {
  const room = await connectHocuspocus({ url: server.url, room: "aw", WebSocketPolyfill: WebSocket });
  t.after(() => room.destroy());
  await room.storage.save("a.md", "timeout = 30\nretries = 3\ntimeout = 30\n", "");
  const ws = await Workspace.create({ storage: room.storage, autoRebase: true });
  t.after(() => ws.free());
  const ytext = await room.storage.text("a.md");
  const awareness = room.provider("a.md").awareness;
  const publish = (r) => publishAgentState(awareness, ytext, r, { path: "a.md", committed: ws.text("a.md"), draft: ws.draft("a.md"), name: "helper" });
  const p = await person(server.url, "aw", "a.md");
  t.after(() => p.destroy());
  const seen = (kind) => resolveAgentRanges(p.provider.awareness, p.doc).filter((r) => r.kind === kind);

  // Ambiguous: two candidates, published and resolved on the person's side.
  const multi = await ws.call("memo_replace", { old_text: "timeout = 30", new_text: "timeout = 60" });
  assert.equal(multi.status, "MultiMatch");
  assert.equal(publish(multi).length, 2);
  await waitFor(() => seen("candidate").length === 2, "the candidates in the person's awareness");
  assert.deepEqual(seen("candidate").map((r) => p.text.toString().slice(r.from, r.to)), ["timeout = 30", "timeout = 30"]);
  assert.equal(seen("candidate")[0].agent, "helper");

  // Choose B (the last line); the person types two lines at the top.
  const staged = await ws.call("memo_replace_selection", { selection_id: "B" });
  assert.equal(staged.status, "Success");
  assert.equal(publish(staged).filter((r) => r.kind === "pending").length, 1);
  await waitFor(() => seen("pending").length === 1 && seen("candidate").length === 0, "the pending change in the person's awareness");
  const before = seen("pending")[0];
  assert.equal(before.from, 25);
  p.type(0, "# config\n\n");
  const after = seen("pending")[0];
  assert.equal(after.from, 35, "moved by the 10 typed units");
  assert.equal(p.text.toString().slice(after.from, after.to), "timeout = 30");
  assert.equal(after.replacement, "timeout = 60");
  // y-codemirror.next's field: the agent's selection is its pending change.
  await waitFor(() => [...p.provider.awareness.getStates().values()].some((s) => s.cursor && s.user?.name === "helper"), "the agent's cursor field");

  // While the agent's copy is behind (the person typed since its last call), no position is
  // computed from the older text: the ranges published before stay, marked behind, and still
  // resolve where the change is now (they are relative positions).
  await waitFor(() => ytext.toString().startsWith("# config"), "the typing at the agent");
  const kept = publish(staged);
  assert.deepEqual(kept.map((r) => [r.kind, r.id, r.behind]), [["pending", "A", true]]);
  await waitFor(() => seen("pending")[0]?.behind === true, "the range marked behind at the person's");
  const behind = seen("pending")[0];
  assert.equal(p.text.toString().slice(behind.from, behind.to), "timeout = 30");
  // A change no longer pending is not kept.
  assert.deepEqual(publish({ pending_changes: [], candidates: [] }), []);
});

test("every place of a replace-all is published under its one letter", async (t) => {
  const room = await connectHocuspocus({ url: server.url, room: "aw-all", WebSocketPolyfill: WebSocket });
  t.after(() => room.destroy());
  await room.storage.save("b.md", "x = old()\nkeep\ny = old()\nkeep\nz = old()\n", "");
  const ws = await Workspace.create({ storage: room.storage, autoRebase: true });
  t.after(() => ws.free());
  const ytext = await room.storage.text("b.md");
  const awareness = room.provider("b.md").awareness;
  const p = await person(server.url, "aw-all", "b.md");
  t.after(() => p.destroy());
  const seen = () => resolveAgentRanges(p.provider.awareness, p.doc).filter((r) => r.kind === "pending");

  const r = await ws.call("memo_replace", { old_text: "old()", new_text: "new()", replace_all: true });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.pending_changes.length, 1);
  const published = publishAgentState(awareness, ytext, r, { path: "b.md", committed: ws.text("b.md"), draft: ws.draft("b.md") });
  assert.deepEqual(published.map((x) => x.id), ["A", "A", "A"]);
  await waitFor(() => seen().length === 3, "the three places in the person's awareness");
  assert.deepEqual(seen().map((x) => p.text.toString().slice(x.from, x.to)), ["old()", "old()", "old()"]);
  assert.deepEqual(seen().map((x) => x.replacement), ["new()", "new()", "new()"]);
});
