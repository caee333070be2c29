// One cold start (spawned by suites/coldstart.mjs in a fresh `node`, so the wasm is read, compiled
// and instantiated for real): import the package, Workspace.create on a MemoryStorage holding one
// generated document, then the first call, then a second one (warm, for comparison). Prints one
// JSON line with the times in ms (performance.now(), whose origin is this process's start) and
// the process's CPU time over the same span (every thread: V8 compiles the wasm on its own
// threads), which a loaded machine inflates less than the wall time.
//
//   node bench/speed/children/coldstart.mjs KIND-SIZE [--lazy-validation]
//
// --lazy-validation: V8's `--wasm-lazy-validation` set with v8.setFlagsFromString before the
// import (what a process that owns its V8 flags could do; the package does not:
// docs/decisions.md#no-v8-flags-from-the-package). The import is dynamic so the flag is set
// before the package's import starts the compile.

import { setFlagsFromString } from "node:v8";

import { generate, parseDocList } from "../lib/docs.mjs";

const bootMs = performance.now(); // Node's own start-up, before this module ran
const lazyValidation = process.argv.includes("--lazy-validation");
if (lazyValidation) setFlagsFromString("--wasm-lazy-validation");
const [[kind, size]] = parseDocList(process.argv[2] ?? "code-10KB");
const doc = generate(kind, size);
const PATH = "doc.md";
const ARGS = { start_line: 1, end_line: 40 };

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const { MemoryStorage, Workspace } = await import("@agentpad/core");
const t1 = performance.now();
const ws = await Workspace.create({ storage: new MemoryStorage({ [PATH]: doc.text }) });
const t2 = performance.now();
const first = await ws.call("memo_read", ARGS);
const t3 = performance.now();
const cpu3 = process.cpuUsage(cpu0);
const second = await ws.call("memo_read", ARGS);
const t4 = performance.now();
// Warm: the same call once V8 has compiled (and tiered up) what it runs — the median of calls
// 101–300 (the second call above still compiles on first use what the first did not reach).
const warm = [];
for (let i = 0; i < 300; i++) {
  const t = performance.now();
  await ws.call("memo_read", ARGS);
  if (i >= 100) warm.push(performance.now() - t);
}
warm.sort((a, b) => a - b);
const expected = doc.text.split("\n").slice(0, 40);
const ok = first.status === "Success" && second.status === "Success" && typeof first.content === "string" &&
  expected.every((line) => first.content.includes(line));
ws.free();
console.log(JSON.stringify({
  doc: doc.name,
  boot_ms: bootMs,
  import_ms: t1 - t0,
  create_ms: t2 - t1,
  import_create_ms: t2 - t0,
  first_call_ms: t3 - t2,
  total_ms: t3 - t0,
  total_cpu_ms: (cpu3.user + cpu3.system) / 1000,
  second_call_ms: t4 - t3,
  warm_call_ms: warm[warm.length >> 1],
  ok,
  detail: `memo_read ${first.status}, ${first.content?.length ?? 0} chars of content`,
}));
