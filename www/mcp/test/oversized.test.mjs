// A message past the old 10 MiB stdio buffer, and one past agentpad-mcp's own limit, through the
// real bin on a pipe: the first is served, the second answered with a JSON-RPC error, and the
// server keeps serving with its staged work (docs/decisions.md §Oversized MCP messages).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MAX_MESSAGE_BYTES } from "../stdio.js";
import { tempFolder } from "./helpers.mjs";

const BIN = fileURLToPath(new URL("../bin/agentpad-mcp.js", import.meta.url));

test("an 11 MB memo_create is served; a message over the limit gets a JSON-RPC error and the server keeps serving", { timeout: 120_000 }, async () => {
  const folder = tempFolder();
  const child = spawn(process.execPath, [BIN, "--dir", folder.dir], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (err += c));
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const write = (s) => new Promise((resolve, reject) => (child.stdin.write(s, (e) => (e ? reject(e) : resolve()))));
  const send = (m) => write(`${JSON.stringify(m)}\n`);
  const response = async (id) => {
    for (let i = 0; i < 2400; i++) {
      const line = out.split("\n").find((l) => l.includes(`"id":${id},`) || l.includes(`"id":${id}}`));
      if (line !== undefined) return JSON.parse(line);
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no response ${id} within 60 s; stderr: ${err}`);
  };
  try {
    await send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
    await response(1);
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });

    const big = `${"a line of a large document\n".repeat(420_000)}`; // 11.3 MB
    await send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memo_create", arguments: { path: "big.md", text: big } } });
    const created = await response(2);
    assert.equal(created.result?.isError, false, JSON.stringify(created).slice(0, 500));

    // Past the limit: streamed in 8 MiB pieces, dropped as it streams.
    await write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memo_create","arguments":{"path":"huge.md","text":"`);
    const piece = "x".repeat(8 * 1024 * 1024);
    for (let sent = 0; sent <= MAX_MESSAGE_BYTES; sent += piece.length) await write(piece);
    await write(`"}}}\n`);
    const refused = await response(3);
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error.message, new RegExp(`over agentpad-mcp's limit of ${MAX_MESSAGE_BYTES} bytes per message`));
    assert.match(refused.error.message, /Documents up to 134217728 bytes/);
    assert.match(err, /refused a message of \d+ bytes/);

    // Still serving, with the staged document: commit writes it.
    await send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "memo_commit", arguments: { summary: "big" } } });
    const committed = await response(4);
    assert.match(committed.result.content[0].text, /^status: `Success`/, committed.result.content[0].text.slice(0, 300));
    assert.ok(existsSync(join(folder.dir, "big.md")));
    child.stdin.end();
    assert.equal(await exited, 0, err);
  } finally {
    if (child.exitCode === null) process.kill(child.pid, "SIGKILL");
    folder.cleanup();
  }
});
