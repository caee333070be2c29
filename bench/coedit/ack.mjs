// Commit → acknowledged latency: one agent workspace commits a one-line change again and again
// on a spawned server (127.0.0.1, a folder under the system temp dir); each sample is the time
// from the start of memo_commit until the server has acknowledged the update (the document's
// provider has no unsynced change left). What durable acknowledgement costs shows here
// (docs/co-editing.md §What stored means). Measures, asserts nothing.
//
//   node bench/coedit/ack.mjs [--commits 300] [--dir <folder>] [--no-fsync]
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
// yjs, ws, Hocuspocus and the packages as www/yjs resolves them (one copy each: www/yjs/test/deps.mjs).
import { Workspace, connectHocuspocusNode } from "../../www/yjs/test/deps.mjs";

const { values } = parseArgs({ options: { commits: { type: "string", default: "300" }, dir: { type: "string" }, "no-fsync": { type: "boolean" } } });
const COMMITS = Number(values.commits);
const cli = fileURLToPath(new URL("../../www/yjs/dist/server-cli.js", import.meta.url));
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const dir = values.dir ?? (await mkdtemp(join(tmpdir(), "agentpad-yjs-ack-")));
const child = spawn(process.execPath, [cli, "--port", "0", "--dir", join(dir, "docs"), ...(values["no-fsync"] ? ["--no-fsync"] : [])], { stdio: ["ignore", "pipe", "ignore"] });
let killed = false;
const kill = () => {
  if (killed) return;
  killed = true;
  process.kill(child.pid, "SIGKILL");
};
process.on("exit", kill);
try {
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server not ready within 10 s")), 10_000);
    let out = "";
    child.stdout.on("data", (d) => {
      const m = /ready (ws:\/\/\S+)/.exec((out += d));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  const room = await connectHocuspocusNode({ url, room: "bench" });
  await room.storage.save("a.md", "value = 0\n", "");
  const ws = await Workspace.create({ storage: room.storage });
  const provider = room.provider("a.md");
  const acked = () =>
    new Promise((resolve) => {
      if (provider.unsyncedChanges === 0) return resolve();
      const on = ({ number }) => {
        if (number !== 0) return;
        provider.off("unsyncedChanges", on);
        resolve();
      };
      provider.on("unsyncedChanges", on);
    });
  const samples = [];
  for (let i = 1; i <= COMMITS; i++) {
    await ws.call("memo_replace", { old_text: `value = ${i - 1}`, new_text: `value = ${i}` });
    const t0 = performance.now();
    const c = await ws.call("memo_commit", { summary: `${i}` });
    if (c.status !== "Success") throw new Error(c.markdown);
    await acked();
    samples.push(performance.now() - t0);
  }
  const f = (x) => x.toFixed(2);
  console.log(`commit → acknowledged over ${COMMITS} commits: p50 ${f(pct(samples, 50))} ms, p90 ${f(pct(samples, 90))} ms, p99 ${f(pct(samples, 99))} ms, max ${f(Math.max(...samples))} ms`);
  ws.free();
  room.destroy();
} finally {
  kill();
  if (values.dir === undefined) await rm(dir, { recursive: true, force: true });
}
