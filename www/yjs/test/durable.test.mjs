// What the server acknowledged survives `kill -9` (docs/co-editing.md §What stored means): the
// server runs as a child process with a snapshot debounce far longer than the test, so only the
// log can hold the changes; after the kill the clients are gone before the restart, so nothing
// can be pushed back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Workspace } from "@agentpad/core";
import { connectHocuspocusNode } from "@agentpad/yjs/server";
import { person, waitFor } from "./helpers.mjs";
import { freePort, kill, spawnServer } from "./server-process.mjs";

/** Resolves once the provider has no update the server has not acknowledged. */
const acknowledged = (provider, what) => waitFor(() => provider.unsyncedChanges === 0, `the server to acknowledge ${what}`);

test("every acknowledged change survives kill -9 of the server, with no snapshot written", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "agentpad-yjs-durable-"));
  const docs = join(dir, "docs");
  let server;
  const closers = [];
  t.after(async () => {
    for (const c of closers.reverse()) c();
    await kill(server);
    await rm(dir, { recursive: true, force: true });
  });
  const port = await freePort();
  const args = ["--port", String(port), "--dir", docs, "--debounce", "600000"];
  server = await spawnServer(args);
  const room = await connectHocuspocusNode({ url: server.url, room: "team" });
  closers.push(() => room.destroy());
  const lines = Array.from({ length: 6 }, (_, i) => `item ${i} = 0`);
  await room.storage.save("plan.md", `${lines.join("\n")}\n`, "");
  const ws = await Workspace.create({ storage: room.storage });
  closers.push(() => ws.free());
  const p = await person(server.url, "team", "plan.md");
  closers.push(() => p.destroy());
  const provider = room.provider("plan.md");
  for (const i of [0, 1, 2]) {
    assert.equal((await ws.call("memo_replace", { old_text: `item ${i} = 0`, new_text: `item ${i} = agent` })).status, "Success");
    assert.equal((await ws.call("memo_commit", { summary: `item ${i}` })).status, "Success");
    await acknowledged(provider, `commit ${i}`);
  }
  p.type(0, "# typed by a person\n");
  await acknowledged(p.provider, "the person's line");
  await acknowledged(room.indexProvider, "the index");

  await kill(server);
  // The clients go away with the server: only the server's disk can bring the changes back.
  for (const c of closers.splice(0).reverse()) c();

  server = await spawnServer(args);
  const fresh = await person(server.url, "team", "plan.md");
  closers.push(() => fresh.destroy());
  const text = fresh.text.toString();
  for (const s of ["item 0 = agent", "item 1 = agent", "item 2 = agent", "# typed by a person", "item 5 = 0"]) {
    assert.ok(text.includes(s), `"${s}" is there after the restart:\n${text}`);
  }
  const again = await connectHocuspocusNode({ url: server.url, room: "team" });
  closers.push(() => again.destroy());
  assert.deepEqual(await again.storage.list(), ["plan.md"], "the index survived too");
  assert.match(server.stderr(), /loaded team\/plan\.md \(0 bytes, \d+ logged updates?\)/, "the log line says the log brought it back");
});
