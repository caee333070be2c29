// The real bin over stdio: the SDK's Client with StdioClientTransport spawning
// `node bin/agentpad-mcp.js --dir <folder>`, and raw JSON-RPC on a pipe to check that stdout
// carries nothing but the protocol and that the server exits cleanly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { NOTES, candidateLetters, listChangedWatcher, namesOf, statusOf, tempFolder } from "./helpers.mjs";

const BIN = fileURLToPath(new URL("../bin/agentpad-mcp.js", import.meta.url));

test("over stdio: replace → candidates → select → commit changes the file on disk", async () => {
  const folder = tempFolder();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "--dir", folder.dir], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const transportErrors = [];
  const client = new Client({ name: "agentpad-mcp-stdio-test", version: "0.0.0" });
  client.onerror = (err) => transportErrors.push(err);
  const listChanged = listChangedWatcher(client);
  try {
    await client.connect(transport);
    const before = await client.listTools();
    assert.ok(namesOf(before).includes("memo_replace_selection"), "every tool is listed from the start");

    const multi = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "foo", new_text: "bar" } });
    assert.equal(multi.isError, false);
    assert.equal(statusOf(multi), "MultiMatch");
    assert.deepEqual(candidateLetters(multi), ["A", "B", "C"]);
    assert.equal(multi.structuredContent, undefined, "the Markdown only by default");
    assert.match(multi.content[0].text, /MultiMatch/);
    assert.deepEqual(await client.listTools(), before, "the list is the same in every state");
    assert.equal(listChanged.count, 0, "no tools/list_changed: nothing changed");

    const staged = await client.callTool({ name: "memo_replace_selection", arguments: { selection_id: "C" } });
    assert.equal(statusOf(staged), "Success", staged.content[0].text);
    const committed = await client.callTool({ name: "memo_commit", arguments: { summary: "foo → bar on the gamma line" } });
    assert.equal(statusOf(committed), "Success", committed.content[0].text);
    assert.equal(readFileSync(join(folder.dir, "notes.md"), "utf8"), "# Notes\nalpha foo\nbeta foo\ngamma bar\n");

    const none = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "absent text", new_text: "x" } });
    assert.equal(none.isError, true);
    assert.equal(statusOf(none), "NoMatch");
    const outside = await client.callTool({ name: "memo_read", arguments: { path: "../x" } });
    assert.equal(outside.isError, true);

    assert.deepEqual(transportErrors, [], "every stdout line was a protocol message");
    assert.match(stderr, /skipped logo\.bin: not UTF-8 text/);
    assert.match(stderr, /serving 2 documents from .* \(1 skipped\) on stdio/);
  } finally {
    await client.close();
    folder.cleanup();
  }
});

/** Spawns the bin on `folder`, returns { child, stdout(), stderr(), exited } . */
function spawnBin(dir, extra = []) {
  const child = spawn(process.execPath, [BIN, "--dir", dir, ...extra], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (err += c));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited };
}

const send = (child, message) => child.stdin.write(`${JSON.stringify(message)}\n`);

/** The MCP handshake as a raw client sends it: initialize (id 1), then initialized. */
async function initialize(run) {
  send(run.child, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  });
  await waitFor(() => run.stdout().includes('"id":1'), "the initialize response");
  send(run.child, { jsonrpc: "2.0", method: "notifications/initialized" });
}

async function waitFor(predicate, what) {
  for (let i = 0; i < 200; i++) {
    if (predicate()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test("stdout carries only JSON-RPC; the server exits 0 when stdin ends", async () => {
  const folder = tempFolder();
  try {
    const run = spawnBin(folder.dir);
    await initialize(run);
    send(run.child, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    send(run.child, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "memo_replace", arguments: { path: "notes.md", old_text: "foo", new_text: "bar" } } });
    await waitFor(() => run.stdout().includes('"id":3'), "the tools/call response");
    run.child.stdin.end();
    const { code } = await run.exited;
    assert.equal(code, 0, run.stderr());
    const lines = run.stdout().split("\n").filter((l) => l !== "");
    for (const line of lines) {
      const message = JSON.parse(line); // throws on anything but JSON
      assert.equal(message.jsonrpc, "2.0", line);
    }
    const byId = Object.fromEntries(lines.map((l) => JSON.parse(l)).filter((m) => m.id !== undefined).map((m) => [m.id, m]));
    assert.ok(byId[2].result.tools.some((t) => t.name === "memo_replace_selection"));
    // On the wire, by default: the Markdown as text and isError, nothing else.
    assert.deepEqual(Object.keys(byId[3].result).sort(), ["content", "isError"]);
    assert.match(byId[3].result.content[0].text, /^status: `MultiMatch`\n/);
    assert.ok(!lines.some((l) => l.includes('"notifications/tools/list_changed"')), "the stable list never changes");
    assert.match(run.stderr(), /the client closed the connection; shutting down/);
    assert.equal(readFileSync(join(folder.dir, "notes.md"), "utf8"), NOTES);
  } finally {
    folder.cleanup();
  }
});

test("--structured-content: each result carries the Response as structuredContent beside the Markdown", async () => {
  const folder = tempFolder();
  try {
    const run = spawnBin(folder.dir, ["--structured-content"]);
    await initialize(run);
    send(run.child, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memo_replace", arguments: { path: "notes.md", old_text: "foo", new_text: "bar" } } });
    await waitFor(() => run.stdout().includes('"id":2'), "the tools/call response");
    run.child.stdin.end();
    const { code } = await run.exited;
    assert.equal(code, 0, run.stderr());
    const result = run.stdout().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)).find((m) => m.id === 2).result;
    assert.equal(result.structuredContent.status, "MultiMatch");
    assert.equal(result.structuredContent.workflow_state, "SelectionPending");
    assert.deepEqual(result.structuredContent.candidates.map((c) => c.id), ["A", "B", "C"]);
    assert.equal(result.content[0].text, result.structuredContent.markdown);
  } finally {
    folder.cleanup();
  }
});

test("SIGINT: the server shuts down and exits 0", async () => {
  const folder = tempFolder();
  try {
    const run = spawnBin(folder.dir);
    await waitFor(() => run.stderr().includes("on stdio"), "the server to start");
    run.child.kill("SIGINT");
    const { code } = await run.exited;
    assert.equal(code, 0, run.stderr());
    assert.match(run.stderr(), /SIGINT; shutting down/);
    assert.equal(run.stdout(), "");
  } finally {
    folder.cleanup();
  }
});

// Someone trying the server by hand (the MCP Inspector's --cli starts a fresh server per call)
// needs to see which folder it serves and when files are written: one stderr line on start.
test("on start: one stderr line names the folder and the persist mode; stdout stays empty", async () => {
  const folder = tempFolder();
  try {
    for (const [extra, mode] of [
      [[], /; persist mode manual: changes are saved on memo_commit; staged edits live in this process only$/],
      [["--persist-mode", "immediate"], /; persist mode immediate: every edit is saved at once$/],
      [["--persist-mode", "disabled"], /; persist mode disabled: nothing is saved$/],
    ]) {
      const run = spawnBin(folder.dir, extra);
      await waitFor(() => run.stderr().includes("on stdio"), "the server to start");
      run.child.stdin.end();
      assert.equal((await run.exited).code, 0, run.stderr());
      const lines = run.stderr().split("\n").filter((l) => l.startsWith("agentpad-mcp "));
      assert.equal(lines.length, 1, run.stderr());
      assert.ok(lines[0].includes(`from ${folder.dir} (1 skipped) on stdio`), lines[0]);
      assert.match(lines[0], mode);
      assert.equal(run.stdout(), "", "nothing but the protocol on stdout");
    }
  } finally {
    folder.cleanup();
  }
});

test("usage: --help on stdout (exit 0); bad usage on stderr (exit 2)", () => {
  const help = spawnSync(process.execPath, [BIN, "--help"], { encoding: "utf8" });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: agentpad-mcp --dir <folder>/);
  assert.match(help.stdout, /"mcpServers"/);
  assert.match(help.stdout, /--structured-content +add the whole response/);
  for (const args of [[], ["--dir"], ["--dir", "/nonexistent-agentpad-dir"], ["--dir", ".", "--persist-mode", "sometimes"], ["--dir", ".", "--locale", "fr"], ["--dir", ".", "--tool-prefix", "a-b"], ["--bogus"], ["--dir", ".", "extra"]]) {
    const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, "", args.join(" "));
    assert.match(r.stderr, /^agentpad-mcp: /, args.join(" "));
  }
});

// The workspace options are flags rendered from the core's option table (docs/options.md): one
// the server's code never names (candidateStyle, maxReadLines) reaches the workspace, --help
// lists every one, and a value the core refuses is a usage error naming the flag.
test("every workspace option of the core's table is a flag: listed in --help, handed to the workspace, refused by name", async () => {
  const { CORE_OPTIONS } = await import("@agentpad/core");
  const help = spawnSync(process.execPath, [BIN, "--help"], { encoding: "utf8" }).stdout;
  for (const o of CORE_OPTIONS.filter((o) => o.flag !== undefined)) assert.ok(help.includes(`  ${o.flag}`), `${o.flag} is not in --help`);
  const bad = spawnSync(process.execPath, [BIN, "--dir", ".", "--max-task-depth", "99"], { encoding: "utf8" });
  assert.equal(bad.status, 2, bad.stderr);
  assert.match(bad.stderr, /^agentpad-mcp: --max-task-depth must be a whole number from 1 to 16 \(default 3\), got 99/);

  const folder = tempFolder();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "--dir", folder.dir, "--candidate-style", "table", "--max-read-lines", "2"], stderr: "pipe" });
  const client = new Client({ name: "agentpad-mcp-flags-test", version: "0.0.0" });
  try {
    await client.connect(transport);
    const multi = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "foo", new_text: "bar" } });
    assert.equal(statusOf(multi), "MultiMatch");
    assert.match(multi.content[0].text, /\| Id \|/, "candidates as a table");
    const read = await client.callTool({ name: "memo_read", arguments: { path: "notes.md" } });
    assert.match(read.content[0].text, /one read shows at most 2 lines \(option max_read_lines\)/);
  } finally {
    await client.close();
    folder.cleanup();
  }
});
