// Splits the shipped wasm in two for the browser entry (docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use):
// binaryen's `wasm-split` instruments pkg/agentpad_bg.wasm, the `exact` editing workload runs on
// it through the package (bench/speed/lib/split-workload.mjs: open, read, match exactly, stage,
// pick, preview, commit, discard, revert, in both locales), and the module is split into
//   pkg/agentpad_core.wasm  every function the workload ran, the whole data section, and one
//                           placeholder import per function left out;
//   pkg/agentpad_rest.wasm  the functions left out, which import the core's memory, table,
//                           globals and functions and, when instantiated, write themselves over
//                           the placeholders' table slots.
// Node keeps the single module (pkg/agentpad_bg.wasm). A build step of `./build.sh pack`, after
// the package is built (the workload drives www/dist over www/pkg's glue). Needs `wasm-split` on
// PATH (build.sh installs Debian's binaryen).
//
//   node www/scripts/split-wasm.mjs [--workload exact] [--keep DIR]

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const PKG = path.join(ROOT, "www/pkg");
const WORKLOAD = path.join(ROOT, "bench/speed/lib/split-workload.mjs");

/** Unsigned LEB128 at `i`: [value, index after it]. */
function leb(b, i) {
  let r = 0,
    s = 0,
    x;
  do {
    x = b[i++];
    r += (x & 0x7f) * 2 ** s;
    s += 7;
  } while (x & 0x80);
  return [r, i];
}

/** Table exports of a module: name → [table index, byte offset of the index]. */
export function tableExports(b) {
  const out = new Map();
  let i = 8;
  while (i < b.length) {
    const id = b[i++];
    let size;
    [size, i] = leb(b, i);
    if (id === 7) {
      let [n, j] = leb(b, i);
      for (let k = 0; k < n; k++) {
        let l;
        [l, j] = leb(b, j);
        const name = new TextDecoder().decode(b.subarray(j, j + l));
        j += l;
        const kind = b[j++];
        const at = j;
        let index;
        [index, j] = leb(b, j);
        if (kind === 1) out.set(name, [index, at]);
      }
    }
    i += size;
  }
  return out;
}

/** Binaryen 108 (Debian's wasm-split) writes every table export as table 0: wasm-bindgen's
 * `__wbindgen_externrefs` (table 1) then names the function table and the glue's first
 * `Table.set` of an externref fails. A copy of `bytes` with each table export that `reference`
 * also has pointed back at the table it names there. */
export function pointTableExportsBack(reference, bytes) {
  const want = tableExports(reference);
  const b = Buffer.from(bytes);
  for (const [name, [index, at]] of tableExports(b)) {
    const [wanted] = want.get(name) ?? [index];
    if (wanted === index) continue;
    if (index > 127 || wanted > 127) throw new Error(`wasm-split: table export ${name} is not a one-byte index`);
    b[at] = wanted;
  }
  return b;
}

function run(cmd, args) {
  execFileSync(cmd, args, { stdio: ["ignore", "ignore", "inherit"] });
}

/** Splits `input` by what `workload` runs; writes `core` and `rest`. */
export function split({ input, core, rest, workload = "exact", dir }) {
  const f = (name) => path.join(dir, name);
  run("wasm-split", ["--instrument", input, "-o", f("instrumented.wasm")]);
  fs.writeFileSync(f("instrumented.wasm"), pointTableExportsBack(fs.readFileSync(input), fs.readFileSync(f("instrumented.wasm"))));
  run(process.execPath, [WORKLOAD, f("instrumented.wasm"), f("profile"), workload]);
  run("wasm-split", [input, "--profile", f("profile"), "-o1", f("core.wasm"), "-o2", f("rest.wasm")]);
  fs.writeFileSync(core, pointTableExportsBack(fs.readFileSync(input), fs.readFileSync(f("core.wasm"))));
  fs.copyFileSync(f("rest.wasm"), rest);
  // V8 must accept both: a split it refuses fails the build, not a page.
  new WebAssembly.Module(fs.readFileSync(core));
  new WebAssembly.Module(fs.readFileSync(rest));
}

function main(argv) {
  const opts = { workload: "exact" };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--workload") opts.workload = argv[++i];
    else if (argv[i] === "--keep") opts.keep = argv[++i];
    else throw new Error(`split-wasm: unknown argument ${argv[i]}`);
  }
  const dir = opts.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), "agentpad-split-"));
  fs.mkdirSync(dir, { recursive: true });
  try {
    split({
      input: path.join(PKG, "agentpad_bg.wasm"),
      core: path.join(PKG, "agentpad_core.wasm"),
      rest: path.join(PKG, "agentpad_rest.wasm"),
      workload: opts.workload,
      dir,
    });
  } finally {
    if (!opts.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
