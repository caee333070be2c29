// Opt-in scale check (./build.sh test-scale, not in CI): two Hocuspocus instances joined by
// @hocuspocus/extension-redis over a local redis-server, sharing one document folder (the
// shared database). An agent workspace on instance A and a person on instance B converge; the
// script reports the one-way latency each way. Exits 1 if they do not converge.
//
//   node www/yjs/bench/scale.mjs [--redis-server /usr/bin/redis-server] [--edits 50]
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as Y from "yjs";
import WebSocket from "ws";
import { Redis } from "@hocuspocus/extension-redis";
import { HocuspocusProvider } from "@hocuspocus/provider";
import { Workspace } from "@agentpad/core";
import { connectHocuspocusNode, startCollabServer } from "@agentpad/yjs/server";

const { values } = parseArgs({ options: { "redis-server": { type: "string", default: "redis-server" }, edits: { type: "string", default: "50" } } });
const EDITS = Number(values.edits);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
async function waitFor(check, what, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(2);
  }
}

const dir = await mkdtemp(join(tmpdir(), "agentpad-yjs-scale-"));
const redisPort = await freePort();
const redis = spawn(values["redis-server"], ["--bind", "127.0.0.1", "--port", String(redisPort), "--save", "", "--appendonly", "no"], { stdio: "ignore" });
let redisStopped = false;
const stopRedis = () => {
  if (redisStopped || redis.exitCode !== null || redis.pid === undefined) return;
  redisStopped = true;
  process.kill(redis.pid, "SIGKILL");
};
process.on("exit", stopRedis);
let code = 1;
const servers = [];
try {
  await waitFor(
    () =>
      new Promise((resolve) => {
        const s = createServer();
        s.once("error", () => resolve(true)); // taken: redis listens
        s.listen(redisPort, "127.0.0.1", () => s.close(() => resolve(false)));
      }),
    "redis-server to listen",
    5000,
  );
  const docs = join(dir, "docs");
  for (const name of ["A", "B"]) {
    servers.push(await startCollabServer({ directory: docs, debounce: 200, extensions: [new Redis({ host: "127.0.0.1", port: redisPort, identifier: `instance-${name}` })] }));
  }
  const [a, b] = servers;
  const room = await connectHocuspocusNode({ url: a.url, room: "scale" });
  await room.storage.save("shared.md", "counter = 0\n", "");
  const ws = await Workspace.create({ storage: room.storage, autoRebase: true });
  const doc = new Y.Doc();
  const person = new HocuspocusProvider({ url: b.url, name: "scale/shared.md", document: doc, WebSocketPolyfill: WebSocket });
  const text = doc.getText("text");
  await waitFor(() => person.synced && text.toString().startsWith("counter = 0"), "the person on instance B to see the document");
  const agentToPerson = [];
  const personToAgent = [];
  for (let i = 0; i < EDITS; i++) {
    await ws.call("memo_replace", { old_text: `counter = ${i}`, new_text: `counter = ${i + 1}` });
    const t0 = performance.now();
    const r = await ws.call("memo_commit", { summary: `${i + 1}` });
    if (r.status !== "Success") throw new Error(`commit ${i + 1}: ${r.status}: ${r.summary}`);
    await waitFor(() => text.toString().includes(`counter = ${i + 1}\n`), "the agent's commit on instance B");
    agentToPerson.push(performance.now() - t0);
    const t1 = performance.now();
    doc.transact(() => text.insert(text.length, `p${i} `), "person");
    const agentText = await room.storage.text("shared.md");
    await waitFor(() => agentText.toString().includes(`p${i} `), "the person's keystroke on instance A");
    personToAgent.push(performance.now() - t1);
  }
  const final = await room.storage.text("shared.md");
  await waitFor(() => final.toString() === text.toString(), "both instances to converge");
  console.log(`## Two Hocuspocus instances + Redis (redis-server on 127.0.0.1:${redisPort})`);
  console.log(`agent on A, person on B, ${EDITS} round trips: converged: yes`);
  console.log(`agent commit → person (A → redis → B): median ${median(agentToPerson).toFixed(1)} ms, max ${Math.max(...agentToPerson).toFixed(1)} ms`);
  console.log(`person keystroke → agent (B → redis → A): median ${median(personToAgent).toFixed(1)} ms, max ${Math.max(...personToAgent).toFixed(1)} ms`);
  console.log("scale: 1 passed, 0 failed");
  code = 0;
  ws.free();
  room.destroy();
  person.destroy();
} catch (err) {
  console.error(`scale: ${err instanceof Error ? err.message : err}`);
  console.log("scale: 0 passed, 1 failed");
} finally {
  for (const s of servers) await s.destroy().catch(() => {});
  stopRedis();
  await rm(dir, { recursive: true, force: true });
}
process.exit(code);
