// Opt-in scale check (./build.sh test-scale, not in CI; --instances N, default 2): Hocuspocus instances joined by
// @hocuspocus/extension-redis over a local redis-server, sharing one document folder (the
// shared database). An agent workspace on instance A and a person on instance B converge; the
// script reports the one-way latency each way. Exits 1 if they do not converge.
//
//   node bench/coedit/scale.mjs [--redis-server /usr/bin/redis-server] [--edits 50]
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
// yjs, ws, Hocuspocus and the packages as www/yjs resolves them (one copy each: www/yjs/test/deps.mjs).
import { Y, WebSocket, Redis, HocuspocusProvider, Workspace, connectHocuspocusNode, startCollabServer } from "../../www/yjs/test/deps.mjs";

const { values } = parseArgs({
  options: { "redis-server": { type: "string", default: "redis-server" }, edits: { type: "string", default: "50" }, instances: { type: "string", default: "2" } },
});
const EDITS = Number(values.edits);
// Instance A serves the agent; every other instance serves one person.
const INSTANCES = Number(values.instances);
if (!Number.isInteger(INSTANCES) || INSTANCES < 2 || INSTANCES > 8) throw new Error(`--instances must be 2 to 8, got ${values.instances}`);
const NAMES = "ABCDEFGH".slice(0, INSTANCES).split("");
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
  for (const name of NAMES) {
    // One folder per instance: a server's log and snapshots are its own (it locks the folder).
    servers.push(await startCollabServer({ directory: join(dir, `docs-${name}`), debounce: 200, extensions: [new Redis({ host: "127.0.0.1", port: redisPort, identifier: `instance-${name}` })] }));
  }
  const [a, ...others] = servers;
  const room = await connectHocuspocusNode({ url: a.url, room: "scale" });
  await room.storage.save("shared.md", "counter = 0\n", "");
  const ws = await Workspace.create({ storage: room.storage, autoRebase: true });
  const people = others.map((server, k) => {
    const doc = new Y.Doc();
    const provider = new HocuspocusProvider({ url: server.url, name: "scale/shared.md", document: doc, WebSocketPolyfill: WebSocket });
    return { name: NAMES[k + 1], doc, provider, text: doc.getText("text") };
  });
  for (const p of people) {
    await waitFor(() => p.provider.synced && p.text.toString().startsWith("counter = 0"), `the person on instance ${p.name} to see the document`);
  }
  // One sample per round: the time until the LAST person (agent → people) or the agent (a
  // person's keystroke, each person in turn) has the change.
  const agentToPeople = [];
  const personToAgent = [];
  for (let i = 0; i < EDITS; i++) {
    await ws.call("memo_replace", { old_text: `counter = ${i}`, new_text: `counter = ${i + 1}` });
    const t0 = performance.now();
    const r = await ws.call("memo_commit", { summary: `${i + 1}` });
    if (r.status !== "Success") throw new Error(`commit ${i + 1}: ${r.status}: ${r.summary}`);
    for (const p of people) await waitFor(() => p.text.toString().includes(`counter = ${i + 1}\n`), `the agent's commit on instance ${p.name}`);
    agentToPeople.push(performance.now() - t0);
    const p = people[i % people.length];
    const t1 = performance.now();
    p.doc.transact(() => p.text.insert(p.text.length, `p${i} `), "person");
    const agentText = await room.storage.text("shared.md");
    await waitFor(() => agentText.toString().includes(`p${i} `), "the person's keystroke on instance A");
    personToAgent.push(performance.now() - t1);
  }
  const final = await room.storage.text("shared.md");
  for (const p of people) await waitFor(() => final.toString() === p.text.toString(), `instances A and ${p.name} to converge`);
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(`## ${INSTANCES} Hocuspocus instances + Redis (redis-server on 127.0.0.1:${redisPort})`);
  console.log(`agent on A, a person on each of ${people.map((p) => p.name).join(", ")}, ${EDITS} round trips: converged: yes`);
  console.log(`agent commit → every person (A → redis → ${people.map((p) => p.name).join("/")}): median ${median(agentToPeople).toFixed(1)} ms, max ${Math.max(...agentToPeople).toFixed(1)} ms`);
  console.log(`person keystroke → agent (→ redis → A): median ${median(personToAgent).toFixed(1)} ms, max ${Math.max(...personToAgent).toFixed(1)} ms`);
  console.log(`process RSS with ${INSTANCES} instances, the agent and ${people.length} people: ${rss.toFixed(0)} MiB`);
  console.log("scale: 1 passed, 0 failed");
  code = 0;
  ws.free();
  room.destroy();
  for (const p of people) p.provider.destroy();
} catch (err) {
  console.error(`scale: ${err instanceof Error ? err.message : err}`);
  console.log("scale: 0 passed, 1 failed");
} finally {
  for (const s of servers) await s.destroy().catch(() => {});
  stopRedis();
  await rm(dir, { recursive: true, force: true });
}
process.exit(code);
