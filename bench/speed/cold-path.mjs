// Which wasm functions a cold start runs, phase by phase, and how many bytes of body each has
// (docs/performance.md#cold-start): V8 in Node 20 compiles each function whole on its first
// call, so the bytes of the functions a phase runs first are what it compiles. binaryen's
// `wasm-split --instrument` marks each function's first call with a counter; the workload
// (create on the 10 KB code document, then a first call) reads the marks after each phase:
// the start (instantiation), `new WasmWorkspace`, the open, the first call, a second call.
// A measurement, not a build step.
//
//   node bench/speed/cold-path.mjs [--cargo FILE] [--first read|replace] [--top N] [--keep DIR] [--out FILE.json]
//
// --keep DIR keeps the named and instrumented modules, and reuses them when DIR holds them already
// (another workload on the same build; remove DIR after a rebuild).
// Needs `./build.sh pack` first (www/pkg and www/dist from the same cargo module) and
// `wasm-split` on PATH (`./build.sh split-probe` installs it).

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { generate } from "./lib/docs.mjs";
import { demangle, parseWasm } from "./wasm-size.mjs";
import { pointTableExportsBack } from "./wasm-split.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const WASM_OPT = path.join(ROOT, "www/node_modules/.bin/wasm-opt");
const PHASES = ["start", "new WasmWorkspace", "open", "first call", "second call"];

function run(cmd, args) {
  execFileSync(cmd, args, { stdio: ["ignore", "ignore", "inherit"] });
}

/** The workload on the instrumented module: the first-call mark of each defined function (0: never
 * ran) read after each phase. */
async function marksByPhase(instrumented, first) {
  const glue = await import("../../www/pkg/agentpad.js");
  const { setWasmLoader } = await import("../../www/dist/loader.js");
  const api = await import("../../www/dist/index.js");
  let exports;
  const marks = [];
  const take = () => {
    // __write_profile(ptr, size): a module hash (8 bytes), then one u32 per defined function.
    const size = 8 + 4 * 20000;
    const ptr = exports.__wbindgen_malloc(size, 1);
    const written = exports.__write_profile(ptr, size);
    marks.push(new Uint32Array(new Uint8Array(exports.memory.buffer, ptr, written).slice(8).buffer));
    exports.__wbindgen_free(ptr, size, 1);
  };
  setWasmLoader(async () => {
    exports = glue.initSync({ module: new WebAssembly.Module(fs.readFileSync(instrumented)) });
    take();
    return exports;
  });
  const proto = glue.WasmWorkspace.prototype;
  const open = proto.open;
  proto.open = function (...args) {
    take();
    return open.apply(this, args);
  };
  const text = generate("code", "10KB").text;
  const ws = await api.Workspace.create({ storage: new api.MemoryStorage({ "doc.md": text }) });
  take();
  const line = text.split("\n").find((l) => l.trim().length >= 12 && text.indexOf(l) === text.lastIndexOf(l));
  const call = () =>
    first === "replace"
      ? ws.call("memo_replace", { old_text: line, new_text: `${line} // changed` })
      : ws.call("memo_read", { start_line: 1, end_line: 40 });
  await call();
  take();
  await call();
  take();
  ws.free();
  return marks;
}

async function main(argv) {
  const opts = { cargo: path.join(ROOT, "target/wasm32-unknown-unknown/release/agentpad.wasm"), first: "read", top: 40 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--cargo") opts.cargo = argv[++i];
    else if (a === "--first") opts.first = argv[++i];
    else if (a === "--top") opts.top = Number(argv[++i]);
    else if (a === "--keep") opts.keep = argv[++i];
    else if (a === "--out") opts.out = argv[++i];
    else throw new Error(`cold-path: unknown argument ${a}`);
  }
  const dir = opts.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), "agentpad-cold-path-"));
  fs.mkdirSync(dir, { recursive: true });
  const f = (name) => path.join(dir, name);
  // The shipped pipeline (build.sh build_wasm, optimize_wasm) with the names kept (-g).
  if (!fs.existsSync(f("named.wasm")) || opts.keep === undefined) {
    run(process.execPath, [path.join(ROOT, "www/scripts/no-multivalue.mjs"), opts.cargo, f("bindgen-input.wasm")]);
    run("wasm-bindgen", ["--target", "web", "--out-dir", dir, "--out-name", "agentpad", f("bindgen-input.wasm")]);
    run(WASM_OPT, ["-g", "-Oz", "--one-caller-inline-max-function-size", "0", f("agentpad_bg.wasm"), "-o", f("named.wasm")]);
    run(process.execPath, [path.join(ROOT, "www/scripts/glue-exports.mjs"), dir]); // as build.sh does after wasm-bindgen
    if (!fs.readFileSync(f("agentpad.js")).equals(fs.readFileSync(path.join(ROOT, "www/pkg/agentpad.js")))) {
      throw new Error("cold-path: wasm-bindgen's glue for this module differs from www/pkg/agentpad.js (./build.sh pack)");
    }
    run("wasm-split", ["-g", "--instrument", f("named.wasm"), "-o", f("instrumented.wasm")]);
    fs.writeFileSync(
      f("instrumented.wasm"),
      pointTableExportsBack(fs.readFileSync(f("named.wasm")), fs.readFileSync(f("instrumented.wasm"))),
    );
  }
  const { imports, bodies, names } = parseWasm(fs.readFileSync(f("named.wasm")));
  const marks = await marksByPhase(f("instrumented.wasm"), opts.first);
  const phaseOf = (k) => marks.findIndex((m) => m[k] !== 0);
  const phases = PHASES.map((name) => ({ name, functions: 0, bytes: 0, list: [] }));
  bodies.forEach((size, k) => {
    const p = phaseOf(k);
    if (p < 0) return;
    const fn = { size, name: demangle(names.get(k + imports) ?? `#${k + imports}`) };
    phases[p].functions++;
    phases[p].bytes += size;
    phases[p].list.push(fn);
  });
  const all = bodies.reduce((a, b) => a + b, 0);
  console.log(
    `first call: ${opts.first}; module: ${bodies.length} functions, ${(all / 1000).toFixed(1)} KB of bodies (named, after wasm-opt)`,
  );
  for (const p of phases) {
    p.list.sort((a, b) => b.size - a.size);
    console.log(`\n## ${p.name}: ${p.functions} functions first run, ${(p.bytes / 1000).toFixed(1)} KB of bodies`);
    for (const fn of p.list.slice(0, opts.top)) console.log(`${String(fn.size).padStart(8)}  ${fn.name}`);
  }
  if (opts.out) fs.writeFileSync(opts.out, JSON.stringify({ first: opts.first, phases }, null, 1));
  if (opts.keep === undefined) fs.rmSync(dir, { recursive: true, force: true });
}

await main(process.argv.slice(2));
