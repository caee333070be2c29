// Where the bytes of the wasm are: function bodies summed per crate and per agentpad module, read
// from the name section of cargo's module (before wasm-bindgen strips the names), and the shipped
// modules' raw, gzip -9 and brotli 11 sizes. docs/performance.md#wasm-size holds its table;
// `./build.sh bench` runs it and report.mjs puts the summary into report.md/json.
//
//   node bench/speed/wasm-size.mjs --names target/wasm32-unknown-unknown/release/agentpad.wasm \
//     [--ship www/pkg/agentpad_bg.wasm] [--ship www/pkg-lean/agentpad_bg.wasm] [--out FILE.json] [--top N]
//
// Crates: the first crate named in a function's demangled path, so generic code instantiated for
// agentpad's types counts where its code lives (`alloc`, `core`), not as agentpad's.
import fs from "node:fs";
import zlib from "node:zlib";
import path from "node:path";

// The LEB128 reader is the build's (www/scripts/split-wasm.mjs).
import { leb } from "../../www/scripts/split-wasm.mjs";
export { leb };

/** Sections, imported function count, body sizes (with their size prefix), function names. */
export function parseWasm(bytes) {
  const sections = [];
  let i = 8;
  while (i < bytes.length) {
    const id = bytes[i++];
    let size;
    [size, i] = leb(bytes, i);
    let name = null;
    if (id === 0) {
      const [l, j] = leb(bytes, i);
      name = new TextDecoder().decode(bytes.subarray(j, j + l));
    }
    sections.push({ id, name, start: i, size });
    i += size;
  }
  let imports = 0;
  const bodies = [];
  const names = new Map();
  for (const sec of sections) {
    let j = sec.start;
    if (sec.id === 2) {
      let n;
      [n, j] = leb(bytes, j);
      for (let k = 0; k < n; k++) {
        let l;
        [l, j] = leb(bytes, j); j += l;
        [l, j] = leb(bytes, j); j += l;
        const kind = bytes[j++];
        if (kind === 0) { [, j] = leb(bytes, j); imports++; }
        else if (kind === 1) { j++; const fl = bytes[j++]; [, j] = leb(bytes, j); if (fl & 1) [, j] = leb(bytes, j); }
        else if (kind === 2) { const fl = bytes[j++]; [, j] = leb(bytes, j); if (fl & 1) [, j] = leb(bytes, j); }
        else if (kind === 3) j += 2;
        else if (kind === 4) { j++; [, j] = leb(bytes, j); }
      }
    } else if (sec.id === 10) {
      let n;
      [n, j] = leb(bytes, j);
      for (let k = 0; k < n; k++) {
        const [s, j2] = leb(bytes, j);
        bodies.push(s + (j2 - j));
        j = j2 + s;
      }
    } else if (sec.id === 0 && sec.name === "name") {
      const end = sec.start + sec.size;
      let l;
      [l, j] = leb(bytes, j); j += l;
      while (j < end) {
        const sub = bytes[j++];
        let ss;
        [ss, j] = leb(bytes, j);
        const subEnd = j + ss;
        if (sub === 1) {
          let n;
          [n, j] = leb(bytes, j);
          for (let k = 0; k < n; k++) {
            let idx;
            [idx, j] = leb(bytes, j);
            [l, j] = leb(bytes, j);
            names.set(idx, new TextDecoder().decode(bytes.subarray(j, j + l)));
            j += l;
          }
        }
        j = subEnd;
      }
    }
  }
  return { sections, imports, bodies, names };
}

const SECTION_NAMES = ["custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"];

/** `_ZN5alloc3vec…E` → `alloc::vec::…` (legacy mangling; `$LT$` etc. decoded). */
export function demangle(n) {
  if (n.startsWith("_R")) return v0Path(n);
  if (!n.startsWith("_ZN")) return n;
  const parts = [];
  let j = 3;
  while (j < n.length && n[j] >= "0" && n[j] <= "9") {
    let k = j;
    while (n[k] >= "0" && n[k] <= "9") k++;
    const l = Number(n.slice(j, k));
    parts.push(n.slice(k, k + l));
    j = k + l;
  }
  if (parts.length && /^h[0-9a-f]{16}$/.test(parts[parts.length - 1])) parts.pop();
  return parts
    .join("::")
    .replace(/\$LT\$/g, "<").replace(/\$GT\$/g, ">").replace(/\$u20\$/g, " ").replace(/\$C\$/g, ",")
    .replace(/\$RF\$/g, "&").replace(/\$BP\$/g, "*").replace(/\$u7b\$/g, "{").replace(/\$u7d\$/g, "}")
    .replace(/\.\./g, "::");
}

/** A v0-mangled name (`_RNvNtCs…_4core3fmt5write`, how the precompiled standard library is
 * mangled) as the `::`-joined identifiers it names; generic arguments and hashes dropped. */
function v0Path(n) {
  const ids = [];
  let i = 2;
  while (i < n.length) {
    // A disambiguator `s<base62>_` precedes a crate root's length; skip it.
    if (n[i] === "s" && n[i - 1] === "C") {
      const end = n.indexOf("_", i);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (n[i] >= "0" && n[i] <= "9" && n[i] !== "0") {
      let k = i;
      while (n[k] >= "0" && n[k] <= "9") k++;
      const len = Number(n.slice(i, k));
      if (n[k] === "_") k++;
      ids.push(n.slice(k, k + len));
      i = k + len;
      continue;
    }
    i++;
  }
  return ids.join("::") || n;
}

const CRATES = /\b(agentpad|ropey|similar|serde_json|serde_wasm_bindgen|serde_core|serde|zmij|wasm_bindgen|js_sys|memchr|alloc|core|std|hashbrown|dlmalloc|xxhash_rust|unicode_normalization|str_indices|indexmap|console_error_panic_hook|tinyvec|itoa|ryu|smallvec|compiler_builtins)\b/;
// Modules reported one level deeper, where one module is most of the crate.
const DEEP = new Set(["workspace", "matching", "validate", "preview", "live_context", "storage", "text_index"]);

/** Per-crate and per-agentpad-module byte sums over the function bodies. */
export function attribute(bytes) {
  const { sections, imports, bodies, names } = parseWasm(bytes);
  const crates = new Map();
  const modules = new Map();
  const fns = [];
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  bodies.forEach((size, k) => {
    const name = demangle(names.get(k + imports) ?? "?");
    fns.push({ size, name });
    const m = CRATES.exec(name);
    // Descriptors wasm-bindgen's CLI runs to learn the exports' types and then removes: not shipped.
    const crate = name.startsWith("__wbindgen_describe") ? "(wasm-bindgen descriptors, removed)" : m ? m[1] : /^__wbg|^__wbindgen|^__externref/.test(name) ? "wasm_bindgen" : /^(mem|__)/.test(name) ? "compiler_builtins" : "other";
    add(crates, crate, size);
    if (crate === "agentpad") {
      const mm = /agentpad::(\w+)(?:::(\w+))?/.exec(name);
      const mod = mm ? (mm[2] && DEEP.has(mm[1]) && !/^[A-Z]/.test(mm[2]) ? `${mm[1]}::${mm[2]}` : mm[1]) : "(other)";
      add(modules, mod, size);
    }
  });
  const code = bodies.reduce((a, b) => a + b, 0);
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => ({ name, bytes, share: bytes / code }));
  return {
    file_bytes: bytes.length,
    sections: sections.map((s) => ({ section: s.id === 0 ? `custom:${s.name}` : SECTION_NAMES[s.id] ?? String(s.id), bytes: s.size })),
    code_bytes: code,
    functions: bodies.length,
    crates: sorted(crates),
    modules: sorted(modules),
    top: fns.sort((a, b) => b.size - a.size),
  };
}

/** Raw, gzip -9 and brotli 11 bytes of a shipped module. */
export function shipped(file) {
  const bytes = fs.readFileSync(file);
  return {
    file,
    bytes: bytes.length,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length,
  };
}

/** Markdown tables of a result (shipped modules, crates, agentpad modules). */
export function markdown(r, { rows = 20 } = {}) {
  const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
  const pct = (x) => `${(100 * x).toFixed(1)} %`;
  const out = [];
  if (r.shipped?.length) {
    out.push("| shipped module | raw | gzip -9 | brotli 11 |", "| --- | ---: | ---: | ---: |");
    for (const s of r.shipped) out.push(`| \`${s.file}\` | ${s.bytes.toLocaleString("en")} | ${s.gzip.toLocaleString("en")} | ${s.brotli.toLocaleString("en")} |`);
    out.push("");
  }
  if (r.names) {
    const a = r.names;
    out.push(`Code ${kb(a.code_bytes)} in ${a.functions.toLocaleString("en")} functions (${a.file} with names, before wasm-bindgen and wasm-opt); data ${kb(a.sections.filter((s) => s.section === "data").reduce((x, s) => x + s.bytes, 0))}.`, "");
    out.push("| crate | code | share |", "| --- | ---: | ---: |");
    for (const c of a.crates.slice(0, rows)) out.push(`| ${c.name} | ${kb(c.bytes)} | ${pct(c.share)} |`);
    out.push("", "| agentpad module | code | share of all code |", "| --- | ---: | ---: |");
    for (const c of a.modules.slice(0, rows)) out.push(`| ${c.name} | ${kb(c.bytes)} | ${pct(c.share)} |`);
  }
  return out.join("\n");
}

function main(argv) {
  const opts = { ship: [], top: 0, rows: 20 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--names") opts.names = argv[++i];
    else if (a === "--ship") opts.ship.push(argv[++i]);
    else if (a === "--out") opts.out = argv[++i];
    else if (a === "--top") opts.top = Number(argv[++i]);
    else if (a === "--rows") opts.rows = Number(argv[++i]);
    else throw new Error(`wasm-size: unknown argument ${a}`);
  }
  const result = { shipped: opts.ship.filter((f) => fs.existsSync(f)).map(shipped) };
  if (opts.names && fs.existsSync(opts.names)) {
    const a = attribute(fs.readFileSync(opts.names));
    result.names = { file: path.relative(process.cwd(), opts.names), ...a, top: a.top.slice(0, Math.max(opts.top, 25)) };
  }
  console.log(markdown(result, { rows: opts.rows }));
  if (opts.top && result.names) {
    console.log("\n| function | bytes |\n| --- | ---: |");
    for (const f of result.names.top.slice(0, opts.top)) console.log(`| \`${f.name.slice(0, 120)}\` | ${f.size.toLocaleString("en")} |`);
  }
  if (opts.out) fs.writeFileSync(opts.out, JSON.stringify(result, null, 2) + "\n");
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
