// Chaos: agents commit and people type on one document while the server (a child process) is
// SIGKILLed at random moments and restarted on the same folder. At each kill every client is
// dropped with it, so only the server's disk can bring a change back; then every change the
// server had acknowledged must be there (docs/co-editing.md §What stored means). Changes never
// acknowledged are counted, present or not. `chaos()` is also run briefly by
// test/chaos.test.mjs; `./build.sh bench` runs it for 60 s.
//
//   node bench/coedit/chaos.mjs [--seconds 60] [--agents 3] [--people 2] [--out dir]
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
// yjs, ws, Hocuspocus and the packages as www/yjs resolves them (one copy each: www/yjs/test/deps.mjs).
import { Y, WebSocket, HocuspocusProvider, Workspace, connectHocuspocusNode } from "../../www/yjs/test/deps.mjs";
import { freePort } from "../../www/yjs/test/server-process.mjs";

const cli = fileURLToPath(new URL("../../www/yjs/dist/server-cli.js", import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function start(port, docs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "--port", String(port), "--dir", docs, "--debounce", "300"], { stdio: ["ignore", "pipe", "ignore"] });
    const timer = setTimeout(() => {
      process.kill(child.pid, "SIGKILL");
      reject(new Error("the server was not ready within 10 s"));
    }, 10_000);
    let out = "";
    child.stdout.on("data", (d) => {
      const m = /ready (ws:\/\/\S+)/.exec((out += d));
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.once("exit", () => reject(new Error("the server exited before it was ready")));
  });
}

function killServer(server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return Promise.resolve();
  const gone = new Promise((r) => server.child.once("exit", r));
  process.kill(server.child.pid, "SIGKILL");
  return gone;
}

/** Resolves with the provider's doc once synced; rejects after 10 s. */
async function openDoc(url, name) {
  const doc = new Y.Doc();
  const provider = new HocuspocusProvider({ url, name, document: doc, WebSocketPolyfill: WebSocket, delay: 50, minDelay: 50, maxDelay: 200 });
  const deadline = Date.now() + 10_000;
  while (!provider.synced) {
    if (Date.now() > deadline) throw new Error(`${name} did not sync within 10 s`);
    await sleep(5);
  }
  return { doc, provider };
}

/**
 * Runs the chaos for `seconds`; returns the counts. `lostAcknowledged` must be empty.
 * @param {{ seconds?: number, agents?: number, people?: number, seed?: number }} [options]
 */
export async function chaos({ seconds = 60, agents = 3, people = 2, seed = 20261202 } = {}) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const dir = await mkdtemp(join(tmpdir(), "agentpad-yjs-chaos-"));
  const docs = join(dir, "docs");
  const port = await freePort();
  let server = await start(port, docs);
  const acked = new Set(); // tokens / agent values the server acknowledged
  const unacked = new Set();
  const agentAcked = new Map(); // agent → highest acknowledged value
  let kills = 0;
  let commits = 0;
  let reportedStored = 0;
  let reportedNotStored = 0;
  try {
    const seedRoom = await connectHocuspocusNode({ url: server.url, room: "chaos" });
    await seedRoom.storage.save("doc.md", `${Array.from({ length: agents }, (_, k) => `agent ${k}: 0`).join("\n")}\n`, "");
    while (seedRoom.provider("doc.md").unsyncedChanges > 0 || seedRoom.indexProvider.unsyncedChanges > 0) await sleep(5);
    seedRoom.destroy();
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      // One round: clients on the live server until a random kill.
      let stop = false;
      const tasks = [];
      const closers = [];
      for (let k = 0; k < agents; k++) {
        tasks.push((async () => {
          const room = await connectHocuspocusNode({ url: server.url, room: "chaos", syncTimeoutMs: 5_000 });
          closers.push(() => room.destroy());
          const ws = await Workspace.create({ storage: room.storage, autoRebase: true });
          closers.push(() => ws.free());
          while (!stop) {
            const m = new RegExp(`agent ${k}: (\\d+)`).exec(ws.text("doc.md") ?? "");
            if (m === null) break;
            const n = Number(m[1]) + 1;
            const r = await ws.call("memo_replace", { path: "doc.md", old_text: m[0], new_text: `agent ${k}: ${n}` });
            if (r.status !== "Success") continue;
            const c = await ws.call("memo_commit", { summary: `${n}` });
            if (c.status !== "Success") {
              await ws.call("memo_refresh", {}).catch(() => {});
              continue;
            }
            commits++;
            // What the agent was told is what is checked: a commit without NotStored said it
            // is stored, and must come back after any kill; one with it said it is not yet.
            if (!c.flags.names.includes("NotStored")) {
              reportedStored++;
              agentAcked.set(k, Math.max(agentAcked.get(k) ?? 0, n));
            } else {
              reportedNotStored++;
              const provider = room.provider("doc.md");
              while (!stop && provider.unsyncedChanges > 0) await sleep(2);
              if (provider.unsyncedChanges === 0) agentAcked.set(k, Math.max(agentAcked.get(k) ?? 0, n));
            }
            await sleep(5 + rand() * 20);
          }
        })().catch(() => {}));
      }
      for (let i = 0; i < people; i++) {
        tasks.push((async () => {
          const { doc, provider } = await openDoc(server.url, "chaos/doc.md");
          closers.push(() => provider.destroy());
          const text = doc.getText("text");
          let mine = [];
          provider.on("unsyncedChanges", ({ number }) => {
            if (number !== 0) return;
            for (const t of mine) {
              acked.add(t);
              unacked.delete(t);
            }
            mine = [];
          });
          let n = 0;
          while (!stop) {
            const token = `person ${i} round ${kills} #${n++}`;
            const lines = text.toString().split("\n");
            const at = lines.slice(0, Math.floor(rand() * lines.length)).reduce((a, l) => a + l.length + 1, 0);
            mine.push(token);
            unacked.add(token);
            doc.transact(() => text.insert(at, `${token}\n`), "person");
            await sleep(5 + rand() * 15);
          }
        })().catch(() => {}));
      }
      await sleep(300 + rand() * 1200);
      await killServer(server);
      kills++;
      stop = true;
      for (const c of closers.splice(0)) c();
      await Promise.all(tasks);
      server = await start(port, docs);
      // Everything acknowledged so far must have come back from the disk.
      const check = await openDoc(server.url, "chaos/doc.md");
      const text = check.doc.getText("text").toString();
      check.provider.destroy();
      for (const t of acked) if (!text.includes(`${t}\n`)) throw new Error(`lost an acknowledged change after kill ${kills}: "${t}"`);
      for (const [k, n] of agentAcked) {
        const m = new RegExp(`agent ${k}: (\\d+)`).exec(text);
        if (m === null || Number(m[1]) < n) throw new Error(`lost agent ${k}'s acknowledged commit ${n} after kill ${kills} (the document says ${m?.[0]})`);
      }
      for (const t of [...unacked]) if (text.includes(`${t}\n`)) unacked.delete(t); // kept although never acknowledged
    }
  } finally {
    await killServer(server);
    await rm(dir, { recursive: true, force: true });
  }
  return { seconds, agents, people, kills, commits, reportedStored, reportedNotStored, acknowledgedTyping: acked.size, acknowledgedCommits: [...agentAcked.values()].reduce((a, b) => a + b, 0), unacknowledgedLost: unacked.size, lostAcknowledged: 0 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" }, agents: { type: "string", default: "3" }, people: { type: "string", default: "2" }, out: { type: "string" } } });
  const result = await chaos({ seconds: Number(values.seconds), agents: Number(values.agents), people: Number(values.people) });
  const md = `co-editing chaos, ${result.agents} agents + ${result.people} people for ${result.seconds} s, server SIGKILLed ${result.kills} times: ` +
    `${result.commits} commits (${result.reportedStored} answered stored, every one present after each restart; ${result.reportedNotStored} answered NotStored), ${result.acknowledgedTyping} typed lines acknowledged, every acknowledged change present after each restart; ${result.unacknowledgedLost} never-acknowledged lines gone with their clients`;
  console.log(md);
  if (values.out) {
    await mkdir(values.out, { recursive: true });
    await writeFile(join(values.out, "yjs-chaos.json"), JSON.stringify(result, null, 2));
    await writeFile(join(values.out, "yjs-chaos.md"), `${md}\n`);
  }
}
