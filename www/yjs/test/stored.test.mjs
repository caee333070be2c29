// Success means stored (docs/co-editing.md §Stored): a commit the server has not acknowledged is
// flagged NotStored until it is; teardown waits for unacknowledged changes and names them. The
// server is its own process, SIGKILLed and restarted on the same port.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { Workspace } from "@agentpad/core";
import { connectHocuspocus } from "@agentpad/yjs/hocuspocus";
import { person, waitFor } from "./helpers.mjs";
import { freePort, spawnServer } from "./server-process.mjs";

/** A server process on a free port, an agent room "team" with plan.md, and its workspace. */
async function setup(t) {
  const dir = await mkdtemp(join(tmpdir(), "agentpad-stored-"));
  const docs = join(dir, "docs");
  const port = await freePort();
  const s = { server: await spawnServer(["--port", String(port), "--dir", docs, "--debounce", "50"]), port, docs };
  t.after(async () => {
    await s.server.kill();
    await rm(dir, { recursive: true, force: true });
  });
  const room = await connectHocuspocus({ url: s.server.url, room: "team", WebSocketPolyfill: WebSocket, maxDelay: 300 });
  t.after(() => room.destroy({ timeoutMs: 0 }));
  await room.storage.save("plan.md", "one\ntwo\n", "");
  const ws = await Workspace.create({ storage: room.storage });
  t.after(() => ws.free());
  return Object.assign(s, { room, ws }); // one object: a restarted server is the one killed after
}

test("a commit the server has not acknowledged says so; after the restart the next call says it is stored, and it is", async (t) => {
  const s = await setup(t);
  const { room, ws } = s;
  await ws.call("memo_replace", { old_text: "one", new_text: "ONE" });
  const online = await ws.call("memo_commit", { summary: "online" });
  assert.equal(online.status, "Success", online.markdown);
  assert.deepEqual(online.flags.names, [], "acknowledged: a plain success");

  await s.server.kill();
  await waitFor(() => room.socket.status !== "connected", "the client to see the server gone");
  await ws.call("memo_replace", { old_text: "two", new_text: "TWO" });
  const c = await ws.call("memo_commit", { summary: "offline" });
  assert.equal(c.status, "Success", c.markdown);
  assert.deepEqual(c.flags.names, ["NotStored"]);
  assert.match(c.markdown, /^flags: `NotStored`$/m);
  assert.match(c.markdown, /^### \[Warning\]/m, "not a plain [OK]");
  assert.match(c.markdown, /Not stored yet: plan\.md applied here, but storage has not acknowledged it/);
  assert.deepEqual(ws.unstored(), ["plan.md"]);
  const meanwhile = await ws.call("memo_read", {});
  assert.deepEqual(meanwhile.flags.names, ["NotStored"], "every response says it while it lasts");

  s.server = await spawnServer(["--port", String(s.port), "--dir", s.docs, "--debounce", "50"]);
  await waitFor(() => room.storage.isStored("plan.md"), "the restarted server to acknowledge the commit", 10_000);
  const r = await ws.call("memo_read", {});
  assert.deepEqual(r.flags.names, []);
  assert.match(r.markdown, /\[Stored: storage acknowledged your commit of plan\.md\.\]/);
  assert.doesNotMatch((await ws.call("memo_read", {})).markdown, /Stored/, "said once");
  const p = await person(s.server.url, "team", "plan.md");
  t.after(() => p.destroy());
  assert.equal(p.text.toString(), "ONE\nTWO\n", "a fresh client reads it from the server");
});

test("room.destroy waits for unacknowledged changes and names the ones it drops", async (t) => {
  const s = await setup(t);
  const { room, ws } = s;
  await s.server.kill();
  await waitFor(() => room.socket.status !== "connected", "the client to see the server gone");
  await ws.call("memo_replace", { old_text: "two", new_text: "2" });
  assert.deepEqual((await ws.call("memo_commit", { summary: "offline" })).flags.names, ["NotStored"]);
  const started = Date.now();
  const { unstored } = await room.destroy({ timeoutMs: 300 });
  assert.ok(Date.now() - started >= 250, "it waited");
  assert.deepEqual(unstored, ["team/plan.md"]);
});

test("room.destroy after acknowledged commits drops nothing", async (t) => {
  const { room, ws } = await setup(t);
  await ws.call("memo_replace", { old_text: "two", new_text: "2" });
  assert.deepEqual((await ws.call("memo_commit", { summary: "online" })).flags.names, []);
  assert.deepEqual(await room.destroy({ timeoutMs: 2000 }), { unstored: [] });
});
