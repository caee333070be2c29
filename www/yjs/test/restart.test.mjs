// A spawned Hocuspocus server killed with SIGKILL mid-session: both sides edit while it is
// down, it restarts on the same port, and nothing is lost on either side.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { Workspace } from "@agentpad/core";
import { connectHocuspocus } from "@agentpad/yjs/hocuspocus";
import { person, waitFor } from "./helpers.mjs";
import { freePort } from "./server-process.mjs";

const cli = fileURLToPath(new URL("../dist/server-cli.js", import.meta.url));
let child;
let dir;

after(async () => {
  if (child && child.exitCode === null) process.kill(child.pid, "SIGKILL");
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Spawns the server and resolves with its URL once it prints `ready`; rejects after 10 s. */
function startServer(port, docs) {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, [cli, "--port", String(port), "--dir", docs, "--debounce", "50"], { stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => reject(new Error("the server did not print `ready` within 10 s")), 10_000);
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /ready (ws:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it was ready`));
    });
  });
}

function killServer() {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(child.pid, "SIGKILL");
  return exited;
}

test("SIGKILL mid-session, edits on both sides while down, restart on the same port: nothing lost", async (t) => {
  dir = await mkdtemp(join(tmpdir(), "agentpad-yjs-kill-"));
  const docs = join(dir, "docs");
  const port = await freePort();
  const url = await startServer(port, docs);
  const lines = Array.from({ length: 8 }, (_, i) => `line ${i} = 0`);
  const room = await connectHocuspocus({ url, room: "team", WebSocketPolyfill: WebSocket });
  t.after(() => room.destroy());
  await room.storage.save("plan.md", `${lines.join("\n")}\n`, "");
  const ws = await Workspace.create({ storage: room.storage });
  t.after(() => ws.free());
  const p = await person(url, "team", "plan.md");
  t.after(() => p.destroy());

  // Online: the agent commits two lines, the person adds two lines at the end.
  for (const i of [0, 1]) {
    assert.equal((await ws.call("memo_replace", { old_text: `line ${i} = 0`, new_text: `line ${i} = agent` })).status, "Success");
    const c = await ws.call("memo_commit", { summary: `line ${i}` });
    assert.equal(c.status, "Success", c.markdown);
    p.type(p.text.length, `person online ${i}\n`);
    await waitFor(async () => (await room.storage.load("plan.md")).text.includes(`person online ${i}`), "the person's line to reach the agent");
  }

  await killServer();

  // Down: each side edits its own copy.
  p.type(p.text.length, "person offline\n");
  assert.equal((await ws.call("memo_replace", { old_text: "line 5 = 0", new_text: "line 5 = agent offline" })).status, "Success");
  const c = await ws.call("memo_commit", { summary: "offline" });
  assert.equal(c.status, "Success", c.markdown);

  const restarted = performance.now();
  assert.equal(await startServer(port, docs), url);
  const expected = ["line 0 = agent", "line 1 = agent", "line 5 = agent offline", "person online 0", "person online 1", "person offline"];
  const agentText = async () => (await room.storage.load("plan.md")).text;
  await waitFor(async () => (await agentText()) === p.text.toString() && expected.every((s) => p.text.toString().includes(s)), "both sides to reconverge with every edit", 10_000);
  t.diagnostic(`restart to reconverged: ${(performance.now() - restarted).toFixed(0)} ms`);
  for (const s of expected) assert.ok((await agentText()).includes(s), `the agent's side has "${s}"`);
  assert.equal(p.text.toString().split("\n").filter((l) => l.startsWith("line ")).length, 8, "no line lost or doubled");
  // The agent's workspace takes the merged text at its next call.
  const read = await ws.call("memo_read", {});
  assert.match(read.markdown, /person offline/);
});
