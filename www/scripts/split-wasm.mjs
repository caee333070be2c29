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
export function leb(b, i) {
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

/** Signed LEB128 at `i` (up to 32 bits): [value, index after it]. */
function sleb(b, i) {
  let r = 0,
    s = 0,
    x;
  do {
    x = b[i++];
    r |= (x & 0x7f) << s;
    s += 7;
  } while (x & 0x80);
  return [s < 32 && x & 0x40 ? r | (-1 << s) : r, i];
}

/** A constant expression at `i`: [its i32.const value, or undefined for any other, index after it]. */
function constExpr(b, i) {
  const op = b[i++];
  let value;
  if (op === 0x41) [value, i] = sleb(b, i);
  else if (op === 0x42) while (b[i++] & 0x80);
  else if (op === 0x43) i += 4;
  else if (op === 0x44) i += 8;
  else if (op === 0x23 || op === 0xd2) [, i] = leb(b, i);
  else if (op === 0xd0) i += 1;
  else throw new Error(`split-wasm: a constant expression with opcode 0x${op.toString(16)}`);
  if (b[i++] !== 0x0b) throw new Error("split-wasm: a constant expression of more than one instruction");
  return [value, i];
}

/** Limits at `i`: the index after them. */
function skipLimits(b, i) {
  const flags = b[i++];
  [, i] = leb(b, i);
  if (flags & 1) [, i] = leb(b, i);
  return i;
}

/** What the undo of the browser entry relies on in a module: its imported globals, the mutable
 * globals it defines ([index, initial value]), which global indices it exports, and its active
 * data segments' offsets (undefined when not an i32.const). */
export function undoLayout(b) {
  const out = { importedGlobals: 0, mutable: [], exportedGlobals: new Set(), dataOffsets: [] };
  let i = 8;
  while (i < b.length) {
    const id = b[i++];
    let size;
    [size, i] = leb(b, i);
    const end = i + size;
    let n,
      j = i;
    if (id === 2 || id === 6 || id === 7 || id === 11) [n, j] = leb(b, i);
    for (let k = 0; k < (n ?? 0); k++) {
      if (id === 2) {
        for (let s = 0; s < 2; s++) {
          let l;
          [l, j] = leb(b, j);
          j += l;
        }
        const kind = b[j++];
        if (kind === 0) [, j] = leb(b, j);
        else if (kind === 1) j = skipLimits(b, j + 1);
        else if (kind === 2) j = skipLimits(b, j);
        else if (kind === 3) {
          j += 2;
          out.importedGlobals++;
        } else throw new Error(`split-wasm: an import of kind ${kind}`);
      } else if (id === 6) {
        const mut = b[j + 1];
        let value;
        [value, j] = constExpr(b, j + 2);
        if (mut === 1) out.mutable.push([out.importedGlobals + k, value]);
      } else if (id === 7) {
        let l;
        [l, j] = leb(b, j);
        j += l;
        const kind = b[j++];
        let index;
        [index, j] = leb(b, j);
        if (kind === 3) out.exportedGlobals.add(index);
      } else {
        let flags;
        [flags, j] = leb(b, j);
        if (flags === 2) [, j] = leb(b, j);
        let offset;
        if (flags !== 1) [offset, j] = constExpr(b, j);
        let l;
        [l, j] = leb(b, j);
        j += l;
        if (flags !== 1) out.dataOffsets.push(offset);
      }
    }
    i = end;
  }
  return out;
}

/** The layout a call's undo skips the memory below the stack pointer by
 * (docs/decisions.md#a-calls-undo-skips-the-memory-below-the-stack-pointer): the core defines
 * exactly one mutable global, the shadow stack pointer, exports it and imports none; every active
 * data segment lies at or above its initial value (the stack comes first, wasm-ld's
 * `--stack-first`); the rest defines no mutable global and no active data segment of its own.
 * Throws, naming what broke, unless all hold. */
export function checkUndoLayout(core, rest) {
  const c = undoLayout(core);
  const r = undoLayout(rest);
  const fail = (why) => {
    throw new Error(`split-wasm: the core's layout is not the one the browser entry's undo relies on: ${why}`);
  };
  if (c.importedGlobals !== 0) fail(`${c.importedGlobals} imported globals`);
  if (c.mutable.length !== 1) fail(`${c.mutable.length} mutable globals, not one (the shadow stack pointer)`);
  const [[sp, top]] = c.mutable;
  if (!c.exportedGlobals.has(sp)) fail("the stack pointer is not exported");
  if (typeof top !== "number" || top <= 0) fail("the stack pointer's initial value is not an i32.const above 0");
  for (const offset of c.dataOffsets) {
    if (offset === undefined) fail("a data segment whose offset is not an i32.const");
    if (offset >>> 0 < top) fail(`a data segment at ${offset >>> 0}, below the stack pointer's initial value ${top}`);
  }
  if (r.mutable.length !== 0) fail(`the rest defines ${r.mutable.length} mutable globals`);
  if (r.dataOffsets.length !== 0) fail(`the rest has ${r.dataOffsets.length} active data segments`);
  return { stackTop: top, dataSegments: c.dataOffsets.length };
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
  const coreBytes = pointTableExportsBack(fs.readFileSync(input), fs.readFileSync(f("core.wasm")));
  const restBytes = fs.readFileSync(f("rest.wasm"));
  // V8 must accept both, and the browser entry's undo must be exact on them: a split that fails
  // either fails the build, not a page, and nothing is written.
  new WebAssembly.Module(coreBytes);
  new WebAssembly.Module(restBytes);
  checkUndoLayout(coreBytes, restBytes);
  fs.writeFileSync(core, coreBytes);
  fs.writeFileSync(rest, restBytes);
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
