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
//
// Runs: AGENTPAD_BENCH_COLD_RUNS (default 9, at least 7). Document: AGENTPAD_BENCH_COLD_DOC
// (default code-10KB: the start-up cost, not the document's). Every record also carries the
// child's Node start-up (before the script ran), the import alone, the create alone, a second
// (warm) call and the CPU time of the child (every thread) from the import to the first answer,
// as medians in `parts_ms`.

import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { median, summarize } from "../lib/measure.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, "../children/coldstart.mjs");
const SUITE = "coldstart";
const RUNS = Math.max(7, Number(process.env.AGENTPAD_BENCH_COLD_RUNS ?? 9));
const DOC = process.env.AGENTPAD_BENCH_COLD_DOC || "code-10KB";

const WORKS = [
  ["cold-import-create", "import_create_ms"],
  ["cold-first-call", "first_call_ms"],
  ["cold-total", "total_ms"],
  ["warm-read", "warm_call_ms"],
];

function child() {
  const out = execFileSync(process.execPath, [CHILD, DOC], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return JSON.parse(out.trim().split("\n").pop());
}

export async function run({ log }) {
  log(`coldstart: ${DOC}: 1 untimed + ${RUNS} timed fresh node processes`);
  child();
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(child());
  const ok = runs.every((r) => r.ok);
  const parts = {};
  for (const k of ["boot_ms", "import_ms", "create_ms", "first_call_ms", "second_call_ms", "warm_call_ms", "total_cpu_ms"]) parts[k] = Number(median(runs.map((r) => r[k])).toPrecision(4));
  const detail = `${RUNS} fresh node processes; medians: node start-up ${parts.boot_ms.toFixed(0)} ms (not counted), import ${parts.import_ms.toFixed(1)} ms, ` +
    `create ${parts.create_ms.toFixed(1)} ms, first call ${parts.first_call_ms.toFixed(1)} ms, second call ${parts.second_call_ms.toFixed(2)} ms, warm call ${parts.warm_call_ms.toFixed(3)} ms, CPU time to the first answer ${parts.total_cpu_ms.toFixed(1)} ms ` +
    `(fastest ${Math.min(...runs.map((r) => r.total_cpu_ms)).toFixed(1)}); ${runs[0].detail}`;
  return WORKS.map(([work, key]) => {
    const samples = runs.map((r) => r[key]);
    return {
      suite: SUITE, work, doc: runs[0].doc, impl: "agentpad-wasm", side: "wasm", ...summarize(samples), batch: 1,
      samples_ms: samples.map((x) => Number(x.toPrecision(6))), correct: ok, detail, parts_ms: parts,
    };
  });
}
