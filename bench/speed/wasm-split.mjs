// What a profile-guided split of the wasm would ship (docs/performance.md#wasm-split): binaryen's
// `wasm-split` instruments the module, an editing workload runs on it through the package
// (lib/split-workload.mjs), and the module is split into a primary (every function the workload
// ran) and a secondary (the rest, reached through placeholder imports). Prints the sizes of both,
// gzip -9 and brotli 11 as the size test measures them, by section, and where their code comes
// from (per crate and agentpad module, from the names wasm-bindgen keeps when not told to strip
// them). A measurement, not a build step: nothing here ships.
//
//   ./build.sh split-probe            (installs Debian's binaryen for wasm-split, then runs this)
//   node bench/speed/wasm-split.mjs [--cargo FILE] [--workload edit|exact|read] [--keep DIR] [--out FILE.json]
//
// Needs `./build.sh pack` first (www/pkg and www/dist, from the same cargo module), and
// `wasm-split` on PATH.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";

import { attribute, parseWasm } from "./wasm-size.mjs";
import { pointTableExportsBack, tableExports } from "../../www/scripts/split-wasm.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const WASM_OPT = path.join(ROOT, "www/node_modules/.bin/wasm-opt");

function run(cmd, args) {
  execFileSync(cmd, args, { stdio: ["ignore", "ignore", "inherit"] });
}

// The table-export fix is the build's (www/scripts/split-wasm.mjs); re-exported for the probe's tests.
export { pointTableExportsBack, tableExports };

function fixTableExports(reference, file) {
  fs.writeFileSync(file, pointTableExportsBack(fs.readFileSync(reference), fs.readFileSync(file)));
}

/** The module without its name section: what would ship (wasm-bindgen --remove-name-section). */
export function withoutNames(b) {
  const keep = [b.subarray(0, 8)];
  for (const sec of parseWasm(b).sections) {
    if (sec.id === 0 && sec.name === "name") continue;
    let head = sec.start - 1;
    while (head > 0 && b[head - 1] & 0x80) head--; // back over the size's LEB bytes
    keep.push(b.subarray(head - 1, sec.start + sec.size));
  }
  return Buffer.concat(keep);
}

const gzip = (b) => zlib.gzipSync(b, { level: 9 }).length;
const brotli = (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }).length;

/** Raw, gzip, brotli, and gzip of the code and data sections alone, of a module as it would ship. */
function sizes(file) {
  const b = withoutNames(fs.readFileSync(file));
  const section = (id) => parseWasm(b).sections.filter((s) => s.id === id).map((s) => b.subarray(s.start, s.start + s.size));
  const m = new WebAssembly.Module(b); // V8 validates it: a split V8 refuses is no measurement
  const placeholders = WebAssembly.Module.imports(m).filter((i) => i.module === "placeholder").length;
  return {
    bytes: b.length,
    gzip: gzip(b),
    brotli: brotli(b),
    code_gzip: section(10).reduce((a, s) => a + gzip(s), 0),
    data_gzip: section(11).reduce((a, s) => a + gzip(s), 0),
    placeholders,
  };
}

function main(argv) {
  const opts = { cargo: path.join(ROOT, "target/wasm32-unknown-unknown/release/agentpad.wasm"), workload: "edit" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--cargo") (opts.cargo = argv[++i]), (opts.cargoGiven = true);
    else if (a === "--workload") opts.workload = argv[++i];
    else if (a === "--keep") opts.keep = argv[++i];
    else if (a === "--out") opts.out = argv[++i];
    else throw new Error(`wasm-split: unknown argument ${a}`);
  }
  const dir = opts.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), "agentpad-split-"));
  fs.mkdirSync(dir, { recursive: true });
  const f = (name) => path.join(dir, name);
  // The shipped pipeline (build.sh build_wasm, optimize_wasm) with the names kept (-g): the code
  // is the same, byte for byte in size, and the names attribute it.
  run(process.execPath, [path.join(ROOT, "www/scripts/no-multivalue.mjs"), opts.cargo, f("bindgen-input.wasm")]);
  run("wasm-bindgen", ["--target", "web", "--out-dir", dir, "--out-name", "agentpad", f("bindgen-input.wasm")]);
  run(WASM_OPT, ["-g", "-Oz", "--one-caller-inline-max-function-size", "0", f("agentpad_bg.wasm"), "-o", f("named.wasm")]);
  // Split twice, the same workload each time: the named module for the attribution, the stripped
  // one for the sizes (with names, wasm-split names the exports it adds after the functions,
  // and those long names are not what a split would ship).
  // The shipped module itself (build_package wrote it from the same cargo module). Another cargo
  // module (--cargo, e.g. an opt-level "z" build) has no shipped twin: the named one re-encoded
  // without its names, 0.2 % larger than wasm-bindgen's --remove-name-section output.
  if (opts.cargoGiven) run(WASM_OPT, [f("named.wasm"), "-o", f("stripped.wasm")]);
  else fs.copyFileSync(path.join(ROOT, "www/pkg/agentpad_bg.wasm"), f("stripped.wasm"));
  // The workload drives www/pkg's glue: it must be the glue of this cargo module.
  // (www/pkg's has the exports www/scripts/glue-exports.mjs appends.)
  const shipped = fs.readFileSync(path.join(ROOT, "www/pkg/agentpad.js"), "utf8").split("// agentpad: glue-exports.mjs")[0];
  if (fs.readFileSync(f("agentpad.js"), "utf8").replace(/\n?$/, "\n") !== shipped) {
    throw new Error("wasm-split: wasm-bindgen's glue for this module differs from www/pkg/agentpad.js (./build.sh pack)");
  }
  for (const [input, suffix, keep] of [["named.wasm", "-named", ["-g"]], ["stripped.wasm", "", []]]) {
    run("wasm-split", [...keep, "--instrument", f(input), "-o", f(`instrumented${suffix}.wasm`)]);
    fixTableExports(f(input), f(`instrumented${suffix}.wasm`));
    run(process.execPath, [path.join(HERE, "lib/split-workload.mjs"), f(`instrumented${suffix}.wasm`), f(`profile${suffix}`), opts.workload]);
    run("wasm-split", [...keep, f(input), "--profile", f(`profile${suffix}`), "-o1", f(`primary${suffix}.wasm`), "-o2", f(`secondary${suffix}.wasm`)]);
    fixTableExports(f(input), f(`primary${suffix}.wasm`));
  }

  const result = { workload: opts.workload, modules: {}, crates: {}, modules_agentpad: {} };
  for (const name of ["stripped", "primary", "secondary"]) {
    result.modules[name] = sizes(f(`${name}.wasm`));
    const a = attribute(fs.readFileSync(f(name === "stripped" ? "named.wasm" : `${name}-named.wasm`)));
    result.modules[name].functions = a.functions;
    result.modules[name].code_bytes = a.code_bytes;
    if (name === "stripped") continue;
    for (const c of a.crates) (result.crates[c.name] ??= {})[name] = c.bytes;
    for (const c of a.modules) (result.modules_agentpad[c.name] ??= {})[name] = c.bytes;
  }
  const n = (x) => (x ?? 0).toLocaleString("en");
  const kb = (x) => (x === undefined ? "—" : (x / 1000).toFixed(1));
  console.log(`workload: ${opts.workload}${opts.keep ? `; files in ${dir}` : ""}\n`);
  console.log("| module | raw | gzip -9 | brotli 11 | code, gzip | data, gzip | functions | placeholders |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const [name, s] of Object.entries(result.modules)) {
    console.log(`| ${name === "stripped" ? "unsplit (ships)" : name} | ${n(s.bytes)} | ${n(s.gzip)} | ${n(s.brotli)} | ${n(s.code_gzip)} | ${n(s.data_gzip)} | ${n(s.functions)} | ${n(s.placeholders)} |`);
  }
  const table = (title, rows, count) => {
    console.log(`\n| ${title} | primary, KB | secondary, KB |\n| --- | ---: | ---: |`);
    const sorted = Object.entries(rows).sort((a, b) => (b[1].primary ?? 0) + (b[1].secondary ?? 0) - (a[1].primary ?? 0) - (a[1].secondary ?? 0));
    for (const [name, r] of sorted.slice(0, count)) console.log(`| ${name} | ${kb(r.primary)} | ${kb(r.secondary)} |`);
  };
  table("crate (code)", result.crates, 16);
  table("agentpad module (code)", result.modules_agentpad, 40);
  if (opts.out) fs.writeFileSync(opts.out, JSON.stringify(result, null, 2) + "\n");
  if (!opts.keep) fs.rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
