// The official MCP Inspector's CLI (@modelcontextprotocol/inspector 1.0.3, the release that runs
// on Node 20) against the bin, as a user checks a server before wiring it into a client: each
// `--cli` run starts `agentpad-mcp` over stdio, makes one request and prints the JSON result.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { NOTES, candidateLetters, statusOf, tempFolder } from "./helpers.mjs";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../bin/agentpad-mcp.js", import.meta.url));
const INSPECTOR = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/inspector/cli/build/cli.js", import.meta.url));

/** One inspector run: `--cli node <bin> <server args> --method <method> …`; its stdout as JSON. */
async function inspect(serverArgs, method, ...rest) {
  // cwd: the inspector looks for "../package.json" relative to the working directory and then
  // imports it relative to itself; from www/mcp (npm test) it would find www/package.json and fail.
  const { stdout } = await run(process.execPath, [INSPECTOR, "--cli", process.execPath, BIN, ...serverArgs, "--method", method, ...rest], {
    timeout: 30_000,
    cwd: tmpdir(),
  });
  return JSON.parse(stdout.slice(stdout.indexOf("{")));
}

test("MCP Inspector CLI: tools/list lists every tool with its schema", async () => {
  const folder = tempFolder();
  try {
    const list = await inspect(["--dir", folder.dir], "tools/list");
    const names = list.tools.map((t) => t.name);
    for (const name of ["memo_read", "memo_replace", "memo_replace_selection", "memo_commit"]) assert.ok(names.includes(name), names.join(" "));
    assert.equal(list.tools.find((t) => t.name === "memo_replace").inputSchema.type, "object");
  } finally {
    folder.cleanup();
  }
});

test("MCP Inspector CLI: tools/call answers a MultiMatch, and an immediate-mode replace writes the file", async () => {
  const folder = tempFolder();
  try {
    const multi = await inspect(["--dir", folder.dir], "tools/call", "--tool-name", "memo_replace", "--tool-arg", "path=notes.md", "old_text=foo", "new_text=bar");
    assert.equal(statusOf(multi), "MultiMatch");
    assert.deepEqual(candidateLetters(multi), ["A", "B", "C"]);
    assert.equal(multi.structuredContent, undefined, "the Markdown only by default");
    assert.equal(readFileSync(join(folder.dir, "notes.md"), "utf8"), NOTES, "nothing written by a MultiMatch");
    const staged = await inspect(["--dir", folder.dir, "--persist-mode", "immediate"], "tools/call", "--tool-name", "memo_replace", "--tool-arg", "path=notes.md", "old_text=beta foo", "new_text=beta bar");
    assert.equal(statusOf(staged), "Success", JSON.stringify(staged));
    assert.equal(readFileSync(join(folder.dir, "notes.md"), "utf8"), NOTES.replace("beta foo", "beta bar"));
  } finally {
    folder.cleanup();
  }
});

// The README's first-contact note (README.md#first-contact): every `--cli` run is a new server
// process, so an edit staged by one run is gone for the next, and the commit has nothing to save.
// With --persist-mode immediate each run's edit is on disk when the run ends.
test("MCP Inspector CLI: a commit in its own --cli run finds nothing staged (each run is a fresh server), as the README says", async () => {
  const folder = tempFolder();
  try {
    const staged = await inspect(["--dir", folder.dir], "tools/call", "--tool-name", "memo_replace", "--tool-arg", "path=notes.md", "old_text=beta foo", "new_text=beta bar");
    assert.equal(statusOf(staged), "Success", JSON.stringify(staged));
    const commit = await inspect(["--dir", folder.dir], "tools/call", "--tool-name", "memo_commit", "--tool-arg", "summary=beta");
    assert.equal(statusOf(commit), "NoOp", JSON.stringify(commit));
    assert.match(commit.content[0].text, /no pending changes/i);
    assert.equal(readFileSync(join(folder.dir, "notes.md"), "utf8"), NOTES, "the staged edit died with its server");
    const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    assert.match(readme, /## First contact/);
    assert.match(readme, /each `--cli` call starts a fresh server/);
    assert.match(readme, /--persist-mode immediate --method tools\/call/);
  } finally {
    folder.cleanup();
  }
});
