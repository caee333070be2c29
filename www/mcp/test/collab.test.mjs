// agentpad-mcp --collab <ws-url> --room <name>: an MCP client's agent edits a document a person
// has open in a Hocuspocus room (a real in-process server on 127.0.0.1, the real bin on stdio).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { connectHocuspocusNode, startCollabServer } from "@agentpad/yjs/server";
import { statusOf } from "./helpers.mjs";

const BIN = fileURLToPath(new URL("../bin/agentpad-mcp.js", import.meta.url));

async function waitFor(check, what, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test("--collab: the agent's commit reaches the person's document and keeps their typing", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "agentpad-mcp-collab-"));
  const server = await startCollabServer({ directory: dir, debounce: 50 });
  t.after(async () => {
    await server.destroy();
    await rm(dir, { recursive: true, force: true });
  });
  // The person's side: their editor's document in room "team".
  const personRoom = await connectHocuspocusNode({ url: server.url, room: "team" });
  t.after(() => personRoom.destroy());
  await personRoom.storage.save("todo.md", "- write docs\n- ship it\n", "");
  const text = await personRoom.storage.text("todo.md");

  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "--collab", server.url, "--room", "team"], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "collab-test", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(transport);
  const staged = await client.callTool({ name: "memo_replace", arguments: { old_text: "- ship it", new_text: "- ship it on Friday" } });
  assert.equal(statusOf(staged), "Success", staged.content[0].text);
  // The person types at the top between the agent's two calls: rebased over, not a conflict.
  text.doc.transact(() => text.insert(0, "# Plan\n"), "person");
  await new Promise((r) => setTimeout(r, 100));
  const committed = await client.callTool({ name: "memo_commit", arguments: { summary: "date" } });
  assert.equal(statusOf(committed), "Success", committed.content[0].text);
  assert.match(committed.content[0].text, /moved onto it/);
  await waitFor(() => text.toString() === "# Plan\n- write docs\n- ship it on Friday\n", "the commit in the person's document");
  assert.match(stderr, /room team at ws:\/\/127\.0\.0\.1:\d+/);
});

test("--collab needs --room and excludes --dir", async () => {
  const { spawnSync } = await import("node:child_process");
  const noRoom = spawnSync(process.execPath, [BIN, "--collab", "ws://127.0.0.1:1"], { encoding: "utf8", timeout: 10_000 });
  assert.equal(noRoom.status, 2);
  assert.match(noRoom.stderr, /--collab needs --room <name>/);
  const both = spawnSync(process.execPath, [BIN, "--collab", "ws://127.0.0.1:1", "--room", "r", "--dir", "."], { encoding: "utf8", timeout: 10_000 });
  assert.equal(both.status, 2);
  assert.match(both.stderr, /exclude each other/);
});
