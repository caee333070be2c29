// Load: agent workspaces and simulated people on a few documents of one Hocuspocus server
// (a spawned child on 127.0.0.1), for a fixed time. Reports convergence, lost edits, the
// agents' call latency (memo_replace + memo_commit) and how long an agent's commit takes to
// reach the people who have the document open. Measures, asserts nothing (./build.sh bench).
//
//   node bench/coedit/load.mjs [--agents 20] [--people 5] [--docs 3] [--seconds 30] [--out dir]
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
// yjs, ws, Hocuspocus and the packages as www/yjs resolves them (one copy each: www/yjs/test/deps.mjs).
import { Y, WebSocket, HocuspocusProvider, Workspace, connectHocuspocusNode } from "../../www/yjs/test/deps.mjs";

const { values } = parseArgs({
  options: {
    agents: { type: "string", default: "20" },
    people: { type: "string", default: "5" },
    docs: { type: "string", default: "3" },
    seconds: { type: "string", default: "30" },
    out: { type: "string" },
  },
});
const AGENTS = Number(values.agents);
const PEOPLE = Number(values.people);
const DOCS = Number(values.docs);
const SECONDS = Number(values.seconds);
const cli = fileURLToPath(new URL("../../www/yjs/dist/server-cli.js", import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(1) : "-");

// A seeded PRNG: the same run plan every time.
let seed = 20261125;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

const dir = await mkdtemp(join(tmpdir(), "agentpad-yjs-load-"));
const child = spawn(process.execPath, [cli, "--port", "0", "--dir", join(dir, "docs")], { stdio: ["ignore", "pipe", "pipe"] });
// The server logs every connection and store; only failures matter here.
child.stderr.on("data", (d) => {
  for (const line of String(d).split("\n")) if (/FAILED|Error/.test(line)) process.stderr.write(`server: ${line}\n`);
});
let killed = false;
const killChild = () => {
  if (killed || child.exitCode !== null) return;
  killed = true;
  process.kill(child.pid, "SIGKILL");
};
process.on("exit", killChild);
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("server not ready within 10 s")), 10_000);
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
    const m = /ready (ws:\/\/\S+)/.exec(out);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
});

const docName = (d) => `doc${d}.md`;
// Each agent owns one line of its document; each person one line of theirs.
const seeder = await connectHocuspocusNode({ url, room: "load" });
for (let d = 0; d < DOCS; d++) {
  const lines = ["# Load document " + d, ""];
  for (let a = d; a < AGENTS; a += DOCS) lines.push(`agent${a} = 0`);
  for (let p = d; p < PEOPLE; p += DOCS) lines.push(`person${p}:`);
  await seeder.storage.save(docName(d), lines.join("\n") + "\n", "");
}

/** commitAt[agent][n]: when agent's commit of value n returned. */
const commitAt = Array.from({ length: AGENTS }, () => new Map());
const personLatency = [];
const callLatency = [];
const stats = { commits: 0, persistFailures: 0, conflicts: 0, rebasedNotes: 0, other: {} };

// People: a Y.Doc each on its own socket, typing into their own line, watching the agents' lines.
const people = [];
for (let p = 0; p < PEOPLE; p++) {
  const d = p % DOCS;
  const doc = new Y.Doc();
  const provider = new HocuspocusProvider({ url, name: `load/${docName(d)}`, document: doc, WebSocketPolyfill: WebSocket });
  const text = doc.getText("text");
  const seen = new Map();
  text.observe(() => {
    const now = performance.now();
    for (const m of text.toString().matchAll(/^agent(\d+) = (\d+)$/gm)) {
      const a = Number(m[1]);
      const n = Number(m[2]);
      if ((seen.get(a) ?? 0) >= n) continue;
      seen.set(a, n);
      const at = commitAt[a].get(n);
      if (at !== undefined) personLatency.push(now - at);
    }
  });
  people.push({ p, d, doc, provider, text, typed: "" });
}
for (const person of people) {
  const deadline = Date.now() + 10_000;
  while (!person.provider.synced) {
    if (Date.now() > deadline) throw new Error("a person did not sync");
    await sleep(5);
  }
}

// Agents: a workspace each (automatic rebase on) over its own connection.
const agents = [];
for (let a = 0; a < AGENTS; a++) {
  const room = await connectHocuspocusNode({ url, room: "load" });
  const ws = await Workspace.create({ storage: room.storage, paths: [docName(a % DOCS)], autoRebase: true });
  agents.push({ a, room, ws, value: 0, committed: 0 });
}

const end = Date.now() + SECONDS * 1000;
async function agentLoop(agent) {
  while (Date.now() < end) {
    const next = agent.value + 1;
    let t0 = performance.now();
    let r = await agent.ws.call("memo_replace", { old_text: `agent${agent.a} = ${agent.value}`, new_text: `agent${agent.a} = ${next}` });
    if (r.status === "Success") {
      if (r.markdown.includes("moved onto it")) stats.rebasedNotes++;
      const staged = performance.now() - t0;
      await sleep(20 + rand() * 30); // the model's turn between staging and committing
      t0 = performance.now() - staged; // call latency excludes the model's turn
      r = await agent.ws.call("memo_commit", { summary: `agent${agent.a} → ${next}` });
    }
    const t1 = performance.now();
    if (r.status === "Success") {
      if (r.markdown.includes("moved onto it")) stats.rebasedNotes++;
      commitAt[agent.a].set(next, t1);
      callLatency.push(t1 - t0);
      agent.value = next;
      agent.committed = next;
      stats.commits++;
    } else {
      stats.other[r.status] = (stats.other[r.status] ?? 0) + 1;
      if (r.status === "PersistFailure") stats.persistFailures++;
      if (r.status === "ExternalConflict") stats.conflicts++;
      // Storage moved between the read and the write (someone typed): start over from storage.
      await agent.ws.call("memo_discard", { reason: "retry" });
    }
    await sleep(100 + rand() * 200);
  }
}
async function personLoop(person) {
  while (Date.now() < end) {
    const word = `w${Math.floor(rand() * 1000)} `;
    const line = person.text.toString().indexOf(`person${person.p}:`);
    const eol = person.text.toString().indexOf("\n", line);
    person.doc.transact(() => person.text.insert(eol, word), "person");
    person.typed += word;
    await sleep(30 + rand() * 70);
  }
}
const started = performance.now();
await Promise.all([...agents.map(agentLoop), ...people.map(personLoop)]);
const ran = (performance.now() - started) / 1000;

// Convergence: every replica of a document holds the same text.
const t0 = performance.now();
let converged = false;
while (performance.now() - t0 < 15_000) {
  let same = true;
  for (let d = 0; d < DOCS; d++) {
    const texts = new Set([
      ...agents.filter((g) => g.a % DOCS === d).map((g) => g.room.documents && g.room.provider(docName(d))?.document.getText("text").toString()),
      ...people.filter((p) => p.d === d).map((p) => p.text.toString()),
    ]);
    if (texts.size !== 1) same = false;
  }
  if (same) {
    converged = true;
    break;
  }
  await sleep(20);
}
const convergeMs = performance.now() - t0;

// Lost edits: each agent's line holds its last committed value; each person's line what they typed.
let lostAgent = 0;
let lostPerson = 0;
for (const g of agents) {
  const text = people.find((p) => p.d === g.a % DOCS)?.text.toString() ?? g.room.provider(docName(g.a % DOCS)).document.getText("text").toString();
  if (!text.includes(`agent${g.a} = ${g.committed}\n`)) lostAgent++;
}
for (const p of people) {
  if (!p.text.toString().includes(`person${p.p}:${p.typed}\n`)) lostPerson++;
}

const result = {
  agents: AGENTS,
  people: PEOPLE,
  docs: DOCS,
  seconds: Number(ran.toFixed(1)),
  commits: stats.commits,
  commits_per_s: Number((stats.commits / ran).toFixed(1)),
  keystrokes: people.reduce((n, p) => n + p.typed.split(" ").length - 1, 0),
  call_ms: { p50: pct(callLatency, 50), p99: pct(callLatency, 99) },
  commit_to_person_ms: { p50: pct(personLatency, 50), p99: pct(personLatency, 99), samples: personLatency.length },
  rebased_notes: stats.rebasedNotes,
  retried: stats.other,
  converged,
  converge_ms: Number(convergeMs.toFixed(0)),
  lost_agent_edits: lostAgent,
  lost_person_edits: lostPerson,
};
const md = [
  `## Co-editing load (Hocuspocus 4.7.0, one server process, 127.0.0.1)`,
  ``,
  `${AGENTS} agent workspaces (automatic rebase) and ${PEOPLE} people typing on ${DOCS} documents for ${result.seconds} s.`,
  ``,
  `| measure | value |`,
  `|---|---|`,
  `| agent commits | ${result.commits} (${result.commits_per_s}/s) |`,
  `| person keystrokes (words) | ${result.keystrokes} |`,
  `| agent calls (memo_replace + memo_commit, without the model's turn) p50 / p99 | ${fmt(result.call_ms.p50)} / ${fmt(result.call_ms.p99)} ms |`,
  `| agent commit → person sees it p50 / p99 | ${fmt(result.commit_to_person_ms.p50)} / ${fmt(result.commit_to_person_ms.p99)} ms (${result.commit_to_person_ms.samples} samples) |`,
  `| calls that rebased over someone's edit | ${result.rebased_notes} |`,
  `| calls retried (status: count) | ${Object.entries(result.retried).map(([k, v]) => `${k}: ${v}`).join(", ") || "none"} |`,
  `| converged after the run | ${converged ? `yes, in ${result.converge_ms} ms` : "NO"} |`,
  `| lost edits (agents / people) | ${lostAgent} / ${lostPerson} |`,
].join("\n");
console.log(md);
if (values.out) {
  await mkdir(values.out, { recursive: true });
  await writeFile(join(values.out, "yjs-load.json"), JSON.stringify(result, null, 2));
  await writeFile(join(values.out, "yjs-load.md"), md + "\n");
}

for (const g of agents) {
  g.ws.free();
  g.room.destroy();
}
for (const p of people) p.provider.destroy();
seeder.destroy();
killChild();
await rm(dir, { recursive: true, force: true });
process.exit(0);
