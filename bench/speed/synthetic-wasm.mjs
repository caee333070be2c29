// Synthetic wasm modules that vary one thing at a time, to tell what `new WebAssembly.Module`
// costs in Node 20's V8 (docs/performance.md#2026-12-04-what-the-compiles-fixed-cost-is):
// the number of functions, their code bytes, the data section, the initial memory, the table,
// the exports and the imports, and the distinct signatures of both. Each defined function
// takes and returns an i32 and repeats `local.get 0; i32.const 1000; i32.add; local.set 0`
// up to its share of `code` bytes. A measurement, not a build step.
//
//   node bench/speed/synthetic-wasm.mjs OUT.wasm [funcs=3000] [code=1200000] [data=0] [mem=19]
//     [table=354] [exports=50] [expsigs=1] [expkind=0] [imports=40] [impsigs=1]
//
// expsigs / impsigs: how many distinct signatures the exports / imports spread over (signature k
// takes k+1 i32s). expkind=1: the exports return two i32s (multi-value, as wasm-bindgen's strings
// and Results when the module is built with the multivalue feature); expkind=2: they take an
// externref first (as wasm-bindgen's JsValue arguments).
//
// Count what the compile executes with callgrind (load-independent), e.g.
//   valgrind --tool=callgrind --collect-atstart=no \
//     --toggle-collect='v8::internal::wasm::WasmEngine::SyncCompile*' \
//     --toggle-collect='v8::platform::DefaultJobWorker::Run*' \
//     node -e 'new WebAssembly.Module(require("fs").readFileSync("OUT.wasm"))'

import { writeFileSync } from "node:fs";

const o = {
  funcs: 3000,
  code: 1200000,
  data: 0,
  mem: 19,
  table: 354,
  exports: 50,
  expsigs: 1,
  expkind: 0,
  imports: 40,
  impsigs: 1,
};
for (const arg of process.argv.slice(3)) {
  const [key, value] = arg.split("=");
  if (!(key in o) || !Number.isInteger(Number(value)))
    throw new Error(`unknown or non-integer option: ${arg}`);
  o[key] = Number(value);
}
if (!process.argv[2])
  throw new Error(
    "usage: node bench/speed/synthetic-wasm.mjs OUT.wasm [key=value ...]",
  );

const cat = (...parts) => {
  const out = [];
  for (const part of parts) for (const byte of part) out.push(byte);
  return out;
};
const uleb = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};
const sleb = (n) => {
  const out = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(byte & 0x40)) || (n === -1 && byte & 0x40))
      return [...out, byte];
    out.push(byte | 0x80);
  }
};
const name = (s) => cat(uleb(s.length), Buffer.from(s));
const vec = (items) => cat(uleb(items.length), items.flat());
const section = (id, body) => cat([id], uleb(body.length), body);
const I32 = 0x7f;
const EXTERNREF = 0x6f;

// Types: signature k (k < nsig) takes k+1 i32s and returns an i32; the exports' own kinds after.
const nsig = Math.max(o.expsigs, o.impsigs, 1);
const types = [];
for (let k = 0; k < nsig; k++)
  types.push(cat([0x60], uleb(k + 1), Array(k + 1).fill(I32), [1, I32]));
const exportBase = types.length;
if (o.expkind) {
  for (let k = 0; k < o.expsigs; k++) {
    types.push(
      o.expkind === 1
        ? cat([0x60], uleb(k + 1), Array(k + 1).fill(I32), [2, I32, I32])
        : cat([0x60], uleb(k + 2), [EXTERNREF], Array(k + 1).fill(I32), [
            1,
            I32,
          ]),
    );
  }
}
const imports = [];
for (let i = 0; i < o.imports; i++)
  imports.push(cat(name("env"), name(`f${i}`), [0], uleb(i % o.impsigs)));
const typeOf = (i) =>
  i < o.exports ? (o.expkind ? exportBase : 0) + (i % o.expsigs) : 0;
const functions = [];
for (let i = 0; i < o.funcs; i++) functions.push(uleb(typeOf(i)));

const perFunction = Math.max(0, Math.floor(o.code / o.funcs) - 4);
const unit = cat([0x20, 0, 0x41], sleb(1000), [0x6a, 0x21, 0]);
const bodies = [];
for (let i = 0; i < o.funcs; i++) {
  if (o.expkind && i < o.exports) {
    bodies.push(
      o.expkind === 1 ? [6, 0, 0x20, 0, 0x20, 0, 0x0b] : [4, 0, 0x20, 1, 0x0b],
    );
    continue;
  }
  const body = [0]; // no locals
  for (let n = 0; n + unit.length <= perFunction; n += unit.length)
    for (const byte of unit) body.push(byte);
  body.push(0x20, 0, 0x0b);
  bodies.push(cat(uleb(body.length), body));
}

const exports = [];
for (let i = 0; i < o.exports; i++)
  exports.push(cat(name(`e${i}`), [0], uleb(o.imports + i)));
exports.push(cat(name("memory"), [2, 0]));
const elements = [];
for (let i = 0; i < o.table; i++)
  elements.push(uleb(o.imports + (i % o.funcs)));

const sections = [[0, 0x61, 0x73, 0x6d, 1, 0, 0, 0], section(1, vec(types))];
if (o.imports) sections.push(section(2, vec(imports)));
sections.push(section(3, vec(functions)));
sections.push(section(4, vec([cat([0x70, 0], uleb(o.table))])));
sections.push(section(5, vec([cat([0], uleb(o.mem))])));
sections.push(section(7, vec(exports)));
sections.push(section(9, vec([cat([0, 0x41, 0, 0x0b], vec(elements))])));
sections.push(section(10, vec(bodies)));
if (o.data) {
  const data = Buffer.alloc(o.data);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
  sections.push(
    section(
      11,
      vec([cat([0, 0x41], sleb(1024), [0x0b], uleb(data.length), data)]),
    ),
  );
}
writeFileSync(
  process.argv[2],
  Buffer.concat(sections.map((s) => Buffer.from(s))),
);
