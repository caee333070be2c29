// Cold start (docs/performance.md#cold-start): what a user waits for in a fresh Node process before the first answer —
// import the package, `Workspace.create` (the wasm read, compiled and instantiated), the first
// call. Each run is a fresh `node` child (children/coldstart.mjs), so nothing is cached in the
// process; one untimed child runs first (the OS file cache, not V8, is then warm).
//
// work               timed, in the child
// cold-import-create `await import("@agentpad/core")` + `Workspace.create({ storage: MemoryStorage
//                    holding the document })` (reads it and opens it in the core)
// cold-first-call    the first `ws.call("memo_read", { start_line: 1, end_line: 40 })` after that
// cold-total         the sum: from the import to the first answer
// warm-read          the same call once warm: in each child the median of calls 101–300 after
//                    the first two (the suite's value: the median of those medians)
// mcp-first-answer   `agentpad-mcp --dir <a folder holding the document>` spawned, `initialize`
//                    sent, then the same `memo_read` as a `tools/call`: from the spawn to its
//                    answer (Node's start-up and the MCP SDK's import counted: a client waits for
//                    them)
//
// Two implementations of the cold-* works, their children alternated: agentpad-wasm (the package
// as it ships) and agentpad-wasm+lazy-validation (V8's --wasm-lazy-validation set before the
// import, as a process owning its V8 flags could: docs/decisions.md#no-v8-flags-from-the-package).
//
// Runs: AGENTPAD_BENCH_COLD_RUNS (default 9, at least 7). Document: AGENTPAD_BENCH_COLD_DOC
// (default code-10KB: the start-up cost, not the document's). Every record also carries the
// child's Node start-up (before the script ran), the import alone, the create alone, a second
// (warm) call and the CPU time of the child (every thread) from the import to the first answer,
// as medians in `parts_ms`; the MCP record the time to the initialize answer and the server's
// CPU time (every thread, from /proc: 10 ms ticks) up to the first answer.

import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { generate, parseDocList } from "../lib/docs.mjs";
import { median, summarize } from "../lib/measure.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, "../children/coldstart.mjs");
const MCP_BIN = path.join(HERE, "../../../www/mcp/bin/agentpad-mcp.js");
const SUITE = "coldstart";
const RUNS = Math.max(7, Number(process.env.AGENTPAD_BENCH_COLD_RUNS ?? 9));
const DOC = process.env.AGENTPAD_BENCH_COLD_DOC || "code-10KB";
const ARGS = { start_line: 1, end_line: 40 };

const WORKS = [
  ["cold-import-create", "import_create_ms"],
  ["cold-first-call", "first_call_ms"],
  ["cold-total", "total_ms"],
  ["warm-read", "warm_call_ms"],
];
const IMPLS = [
  ["agentpad-wasm", []],
  ["agentpad-wasm+lazy-validation", ["--lazy-validation"]],
];

function child(flags) {
  const out = execFileSync(process.execPath, [CHILD, DOC, ...flags], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return JSON.parse(out.trim().split("\n").pop());
}

/** CPU time (user + system, every thread) of a live process, from /proc; null elsewhere. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return null;
  }
}

/** One MCP server from spawn to the first tools/call answered (then its stdin is closed). */
function mcpFirstAnswer(dir, file) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const server = spawn(process.execPath, [MCP_BIN, "--dir", dir], { stdio: ["pipe", "pipe", "pipe"] });
    const send = (m) => server.stdin.write(`${JSON.stringify(m)}\n`);
    const result = {};
    let buffered = "";
    let stderr = "";
    server.stderr.on("data", (d) => (stderr += d));
    server.on("error", reject);
    server.on("exit", (code) => (result.first_answer_ms === undefined ? reject(new Error(`agentpad-mcp exited (${code}) before answering: ${stderr}`)) : resolve(result)));
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "coldstart", version: "0" } } });
    server.stdout.on("data", (d) => {
      buffered += d;
      for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
        const message = JSON.parse(buffered.slice(0, i));
        buffered = buffered.slice(i + 1);
        if (message.id === 1) {
          result.initialize_ms = performance.now() - t0;
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memo_read", arguments: { path: file, ...ARGS } } });
        } else if (message.id === 2) {
          result.first_answer_ms = performance.now() - t0;
          result.cpu_ms = cpuMsOf(server.pid);
          const text = message.result?.content?.[0]?.text ?? "";
          result.ok = message.result?.isError !== true && text.includes("`Success`");
          server.stdin.end();
        }
      }
    });
  });
}

export async function run({ log }) {
  log(`coldstart: ${DOC}: 1 untimed + ${RUNS} timed fresh node processes per implementation (alternated), and ${RUNS} agentpad-mcp servers`);
  const runs = IMPLS.map(() => []);
  IMPLS.forEach(([, flags]) => child(flags));
  for (let i = 0; i < RUNS; i++) IMPLS.forEach(([, flags], k) => runs[k].push(child(flags)));
  const records = IMPLS.flatMap(([impl], k) => coldRecords(impl, runs[k]));

  const [[kind, size]] = parseDocList(DOC);
  const doc = generate(kind, size);
  const dir = mkdtempSync(path.join(tmpdir(), "agentpad-coldstart-"));
  try {
    writeFileSync(path.join(dir, "doc.md"), doc.text);
    await mcpFirstAnswer(dir, "doc.md");
    const servers = [];
    for (let i = 0; i < RUNS; i++) servers.push(await mcpFirstAnswer(dir, "doc.md"));
    const parts = {};
    for (const k of ["initialize_ms", "first_answer_ms", "cpu_ms"]) parts[k] = servers[0][k] === null ? null : Number(median(servers.map((s) => s[k])).toPrecision(4));
    const samples = servers.map((s) => s.first_answer_ms);
    records.push({
      suite: SUITE, work: "mcp-first-answer", doc: doc.name, impl: "agentpad-mcp", side: "wasm", ...summarize(samples), batch: 1,
      samples_ms: samples.map((x) => Number(x.toPrecision(6))), correct: servers.every((s) => s.ok), parts_ms: parts,
      detail: `${RUNS} agentpad-mcp servers (stdio); medians: initialize answered ${parts.initialize_ms?.toFixed(0)} ms, ` +
        `first tools/call answered ${parts.first_answer_ms?.toFixed(0)} ms after the spawn, the server's CPU time to it ${parts.cpu_ms ?? "—"} ms`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return records;
}

function coldRecords(impl, runs) {
  const ok = runs.every((r) => r.ok);
  const parts = {};
  for (const k of ["boot_ms", "import_ms", "create_ms", "first_call_ms", "second_call_ms", "warm_call_ms", "total_cpu_ms"]) parts[k] = Number(median(runs.map((r) => r[k])).toPrecision(4));
  parts.fastest_cpu_ms = Number(Math.min(...runs.map((r) => r.total_cpu_ms)).toPrecision(4));
  const detail = `${runs.length} fresh node processes; medians: node start-up ${parts.boot_ms.toFixed(0)} ms (not counted), import ${parts.import_ms.toFixed(1)} ms, ` +
    `create ${parts.create_ms.toFixed(1)} ms, first call ${parts.first_call_ms.toFixed(1)} ms, second call ${parts.second_call_ms.toFixed(2)} ms, warm call ${parts.warm_call_ms.toFixed(3)} ms, CPU time to the first answer ${parts.total_cpu_ms.toFixed(1)} ms ` +
    `(fastest ${parts.fastest_cpu_ms.toFixed(1)}); ${runs[0].detail}`;
  return WORKS.map(([work, key]) => {
    const samples = runs.map((r) => r[key]);
    return {
      suite: SUITE, work, doc: runs[0].doc, impl, side: "wasm", ...summarize(samples), batch: 1,
      samples_ms: samples.map((x) => Number(x.toPrecision(6))), correct: ok, detail, parts_ms: parts,
    };
  });
}
