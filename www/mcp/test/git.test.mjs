// agentpad-mcp --git end to end: the real bin over stdio (the SDK's Client spawning it) on a real
// git repository in a temporary folder, with the real `git` program (docs/workflow.md#git-mode).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { NOTES, statusOf, textOf } from "./helpers.mjs";

const BIN = fileURLToPath(new URL("../bin/agentpad-mcp.js", import.meta.url));

/** A temporary git repository holding notes.md (committed) and a staged change of the user's. */
function repo() {
  const dir = mkdtempSync(join(tmpdir(), "agentpad-mcp-git-"));
  const git = (...args) => execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  git("init", "-q", "-b", "main");
  git("config", "user.email", "test@agentpad.invalid");
  git("config", "user.name", "Test");
  git("config", "commit.gpgsign", "false");
  writeFileSync(join(dir, "notes.md"), NOTES);
  writeFileSync(join(dir, "todo.md"), "- one\n");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  writeFileSync(join(dir, "todo.md"), "- one\n- two (the user's, staged)\n");
  git("add", "todo.md");
  return { dir, git, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test("--git over stdio: a commit is a git commit of the file it wrote, the user's staged change stays staged, memo_read reads a commit", async () => {
  const { dir, git, cleanup } = repo();
  const first = git("rev-parse", "HEAD").trim();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "--dir", dir, "--git"], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const client = new Client({ name: "agentpad-mcp-git-test", version: "0.0.0" });
  try {
    await client.connect(transport);
    const staged = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "gamma foo", new_text: "gamma bar" } });
    assert.equal(statusOf(staged), "Success", textOf(staged));
    const committed = await client.callTool({ name: "memo_commit", arguments: { summary: "gamma says bar" } });
    assert.equal(statusOf(committed), "Success", textOf(committed));
    const id = git("rev-parse", "HEAD").trim();
    assert.notEqual(id, first);
    assert.match(textOf(committed), new RegExp(`- summary: Committed 1 change .*: gamma says bar\\. Git commit ${id.slice(0, 7)} on main\\.\\n`));
    assert.equal(git("log", "-1", "--format=%s").trim(), "gamma says bar");
    assert.equal(git("show", "--name-only", "--format=", "HEAD").trim(), "notes.md");
    assert.match(git("log", "-1", "--format=%b"), /^A notes\.md line 4 \(±0 chars\)\n\nWritten by agentpad \(memo_commit\): notes\.md/);
    assert.equal(git("status", "--porcelain"), "M  todo.md\n", "the user's staged change: still staged, not committed");

    const old = await client.callTool({ name: "memo_read", arguments: { path: "notes.md", version: first.slice(0, 7) } });
    assert.equal(statusOf(old), "Success", textOf(old));
    assert.match(textOf(old), new RegExp(`at git commit ${first.slice(0, 7)} "init"`));
    assert.match(textOf(old), /4│ gamma foo\n/);
    assert.equal(readFileSync(join(dir, "notes.md"), "utf8"), NOTES.replace("gamma foo", "gamma bar"));
    assert.match(stderr, /git mode: every save is also a git commit/);
  } finally {
    await client.close();
    cleanup();
  }
});

test("--git on a folder that is no git work tree: the server does not start, and says why", () => {
  const dir = mkdtempSync(join(tmpdir(), "agentpad-mcp-nogit-"));
  try {
    writeFileSync(join(dir, "a.md"), "a\n");
    const run = spawnSync(process.execPath, [BIN, "--dir", dir, "--git"], {
      input: "",
      encoding: "utf8",
      timeout: 20_000,
      env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() },
    });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, "", "nothing on the protocol channel");
    assert.match(run.stderr, /agentpad-mcp: cannot start: NodeFsStorage: option git: .* is not in a git work tree .*run `git init` there first, or leave the option out/);
    const collab = spawnSync(process.execPath, [BIN, "--collab", "ws://127.0.0.1:1", "--room", "r", "--git"], { input: "", encoding: "utf8", timeout: 20_000 });
    assert.equal(collab.status, 2);
    assert.match(collab.stderr, /--git needs --dir/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
