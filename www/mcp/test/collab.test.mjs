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

test("--collab: people see the agent's name and pending change in awareness, still there (marked behind) while it is out of sync", async (t) => {
  const { resolveAgentRanges } = await import("@agentpad/yjs");
  const dir = await mkdtemp(join(tmpdir(), "agentpad-mcp-collab-"));
  const server = await startCollabServer({ directory: dir, debounce: 50 });
  t.after(async () => {
    await server.destroy();
    await rm(dir, { recursive: true, force: true });
  });
  const personRoom = await connectHocuspocusNode({ url: server.url, room: "team" });
  t.after(() => personRoom.destroy({ timeoutMs: 0 }));
  await personRoom.storage.save("todo.md", "- write docs\n- ship it\n", "");
  const text = await personRoom.storage.text("todo.md");
  const seen = () => resolveAgentRanges(personRoom.provider("todo.md").awareness, text.doc);

  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "--collab", server.url, "--room", "team", "--name", "helper"], stderr: "pipe" });
  const client = new Client({ name: "collab-test", version: "0.0.0" });
  t.after(() => client.close());
  await client.connect(transport);
  const staged = await client.callTool({ name: "memo_replace", arguments: { old_text: "- ship it", new_text: "- ship it on Friday" } });
  assert.equal(statusOf(staged), "Success", staged.content[0].text);
  await waitFor(() => seen().length === 1, "the agent's pending change in the person's awareness");
  const [range] = seen();
  assert.equal(range.agent, "helper");
  assert.equal(text.toString().slice(range.from, range.to), "- ship it");
  assert.equal(range.replacement, "- ship it on Friday");
  assert.ok(!range.behind);
  assert.ok([...personRoom.provider("todo.md").awareness.getStates().values()].some((s) => s.user?.name === "helper"), "the name y-codemirror shows");

  // The person edits inside the change: the agent's next call is out of sync, and the change
  // stays visible where it is now, marked behind.
  text.doc.transact(() => text.insert(text.toString().indexOf("ship"), "really "), "person");
  await new Promise((r) => setTimeout(r, 100));
  const read = await client.callTool({ name: "memo_read", arguments: {} });
  assert.match(read.content[0].text, /OutOfSync/, read.content[0].text);
  await waitFor(() => seen().some((r) => r.behind), "the pending change marked behind");
  const behind = seen().find((r) => r.behind);
  assert.equal(text.toString().slice(behind.from, behind.to), "- really ship it");
});

test("--collab: a commit the server never acknowledged is flagged, and the bin exits 1 naming it when it would drop it", async (t) => {
  const { spawn } = await import("node:child_process");
  const dir = await mkdtemp(join(tmpdir(), "agentpad-mcp-collab-"));
  let server = await startCollabServer({ directory: dir, debounce: 50 });
  t.after(async () => {
    await server?.destroy();
    await rm(dir, { recursive: true, force: true });
  });
  const seed = await connectHocuspocusNode({ url: server.url, room: "team" });
  await seed.storage.save("todo.md", "- ship it\n", "");
  assert.deepEqual(await seed.destroy({ timeoutMs: 2000 }), { unstored: [] });

  const child = spawn(process.execPath, [BIN, "--collab", server.url, "--room", "team"], { stdio: ["pipe", "pipe", "pipe"] });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL");
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (err += c));
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
  const result = async (id) => {
    await waitFor(() => out.includes(`"id":${id},`) || out.includes(`"id":${id}}`), `the response ${id}`, 10_000);
    return out.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)).find((m) => m.id === id).result;
  };
  send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
  await result(1);
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memo_replace", arguments: { old_text: "- ship it", new_text: "- ship it today" } } });
  await result(2);
  await server.destroy(); // the server goes away
  server = undefined;
  send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "memo_commit", arguments: { summary: "today" } } });
  const committed = (await result(3)).content[0].text;
  assert.match(committed, /^flags: `NotStored`$/m, committed);
  assert.match(committed, /Not stored yet: todo\.md applied here/);
  child.stdin.end();
  assert.equal(await exited, 1, err);
  assert.match(err, /the server never acknowledged changes to team\/todo\.md: they are lost/);
});
