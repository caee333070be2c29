// The browser entry's split engine against the unsplit module, side by side in one run, in headless
// Chromium (docs/performance.md#wasm-split): a page served from 127.0.0.1 imports the entry,
// creates a workspace on a MemoryStorage and makes its first call (memo_read of lines 1–40, as the
// coldstart-browser suite does); fresh browsers, the two entries alternated. Then, per document,
// the cost of the guard on a warm call (the same call timed while the rest is not loaded, with its
// snapshot, and after a miss loaded it) and the time of that first miss (the rest fetched, compiled,
// instantiated, the call run again) against the same miss on the unsplit module. Last, the undo's
// save and restore alone, the loader's against the first version's, in the same page.
//
//   node bench/speed/split-browser.mjs [--runs N] [--docs code-10KB,code-1MB] [--network 10mbit|50mbit] [--split-before FILE]
//
// --split-before FILE adds a third entry, FILE (another build's dist/agentpad.browser.js, over this
// tree's wasm), alternated with the two: a change to the split loader against the loader before it.
//
// The unsplit entry is built here for the run (www/dist/bench-unsplit*.js, removed after): tsc's
// browser.js with the unsplit loader of main before the split, bundled as the shipped entry is.
// Needs the package built (./build.sh pack) and www/pkg/agentpad_{core,rest}.wasm.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";

import { chromium } from "playwright-core";

import { generate, parseDocList } from "./lib/docs.mjs";
import { median } from "./lib/measure.mjs";
import { serveWww } from "../../www/test/lib/static-server.mjs";
import {
  CHROMIUM,
  CHROMIUM_ARGS as ARGS,
} from "../../www/test/lib/chromium.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WWW = path.resolve(HERE, "../../www");

const opts = { runs: 9, docs: "code-10KB,code-1MB" };
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === "--runs") opts.runs = Number(process.argv[++i]);
  else if (process.argv[i] === "--docs") opts.docs = process.argv[++i];
  else if (process.argv[i] === "--split-before")
    opts.splitBefore = process.argv[++i];
  else if (process.argv[i] === "--network") opts.network = process.argv[++i];
  else throw new Error(`split-browser: unknown argument ${process.argv[i]}`);
}

// --network: the server gzips (level 9) and Chromium throttles the page (DevTools' network
// emulation), so the bytes before the first answer cost what they would over that link. Without
// it: loopback, uncompressed, where bytes cost almost nothing.
const NETWORKS = {
  "10mbit": {
    latency: 20,
    downloadThroughput: 10e6 / 8,
    uploadThroughput: 5e6 / 8,
  },
  "50mbit": {
    latency: 10,
    downloadThroughput: 50e6 / 8,
    uploadThroughput: 20e6 / 8,
  },
};
if (opts.network !== undefined && !(opts.network in NETWORKS)) {
  throw new Error(
    `split-browser: --network ${opts.network}: one of ${Object.keys(NETWORKS).join(", ")}`,
  );
}

/** Throttles `page` to --network's link, when one is given. */
async function throttle(page) {
  if (opts.network === undefined) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    ...NETWORKS[opts.network],
  });
}

const UNSPLIT_SRC = `import { initSync } from "../pkg/agentpad.js";
import { setWasmLoader } from "./loader.js";
function compileWasm() {
  const compiling = (async () => {
    const response = await fetch(new URL("../pkg/agentpad_bg.wasm", import.meta.url));
    if (!response.ok) throw new Error(response.status + " fetching " + response.url);
    return WebAssembly.compileStreaming(response);
  })();
  compiling.catch(() => {});
  return compiling;
}
let compiling = compileWasm();
setWasmLoader(async () => {
  const pending = compiling ?? compileWasm();
  compiling = undefined;
  return initSync({ module: await pending });
});
export * from "./index.js";
export { BrowserStorage } from "./browser-storage.js";
export { NodeFsStorage } from "./node-fs-storage-browser.js";
`;

function buildUnsplit() {
  fs.writeFileSync(path.join(WWW, "dist/bench-unsplit-entry.js"), UNSPLIT_SRC);
  // As rolldown.config.mjs bundles the shipped entry (without comments).
  fs.writeFileSync(
    path.join(WWW, "dist/bench-unsplit.config.mjs"),
    `export default { input: "dist/bench-unsplit-entry.js", platform: "browser", output: { file: "dist/bench-unsplit.js", format: "esm", comments: false } };\n`,
  );
  execFileSync(
    path.join(WWW, "node_modules/.bin/rolldown"),
    ["-c", "dist/bench-unsplit.config.mjs"],
    { cwd: WWW, stdio: "ignore" },
  );
}

const ENTRIES = {
  split: "/dist/agentpad.browser.js",
  unsplit: "/dist/bench-unsplit.js",
};
if (opts.splitBefore) {
  fs.copyFileSync(
    opts.splitBefore,
    path.join(WWW, "dist/bench-split-before.js"),
  );
  ENTRIES["split-before"] = "/dist/bench-split-before.js";
}
const NAMES = Object.keys(ENTRIES);

const page = `<!doctype html><meta charset="utf-8"><script type="module">
  window.go = async (entry, text, miss) => {
    const ARGS = { start_line: 1, end_line: 40 };
    const t0 = performance.now();
    const { MemoryStorage, Workspace, memoryBytes } = await import(entry);
    const t1 = performance.now();
    const ws = await Workspace.create({ storage: new MemoryStorage({ "doc.md": text }) });
    const t2 = performance.now();
    const first = await ws.call("memo_read", ARGS);
    const t3 = performance.now();
    const before = performance.getEntriesByType("resource").map((e) => ({ name: new URL(e.name).pathname, bytes: e.encodedBodySize }));
    const warm = async () => {
      for (let i = 0; i < 20; i++) await ws.call("memo_read", ARGS);
      const s = performance.now();
      for (let i = 0; i < 100; i++) await ws.call("memo_read", ARGS);
      return (performance.now() - s) / 100;
    };
    const memoryAtFirst = memoryBytes();
    const warmBefore = await warm();
    const m0 = performance.now();
    const missed = await ws.call("memo_replace", { old_text: miss, new_text: "x" });
    const missMs = performance.now() - m0;
    const warmAfter = await warm();
    const m1 = performance.now();
    await ws.call("memo_replace", { old_text: miss, new_text: "y" });
    const secondMissMs = performance.now() - m1;
    const memory = memoryBytes();
    ws.free();
    return { ok: first.status === "Success", missed: missed.status, import_ms: t1 - t0, create_ms: t2 - t1, first_call_ms: t3 - t2,
      total_ms: t3 - t0, before, memoryAtFirst, warmBefore, warmAfter, missMs, secondMissMs, memory };
  };
  // The undo's save and restore timed alone, on a memory of the size the core had at the end and an
  // externref table of the core's 1,028 slots (docs/performance.md#wasm-split): the loader's
  // (from the stack pointer up, the table by table.copy) against the first version's (the whole
  // memory, the table slot by slot from JS), alternated, in the same page.
  window.parts = async (bytes, stackTop) => {
    const { makeUndo } = await import("/dist/split-loader.js");
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) });
    const table = new WebAssembly.Table({ element: "externref", initial: 1028 });
    for (let i = 0; i < table.length; i++) table.set(i, i % 3 ? { i } : null);
    new Uint8Array(memory.buffer).fill(7);
    const sp = new WebAssembly.Global({ value: "i32", mutable: true }, stackTop);
    const undo = makeUndo(memory, table, [sp]);
    let keptMemory = new Uint8Array(0);
    const keptRefs = [];
    const whole = {
      save() {
        const now = new Uint8Array(memory.buffer);
        if (keptMemory.length < now.length) keptMemory = new Uint8Array(now.length);
        keptMemory.set(now);
        keptRefs.length = table.length;
        for (let i = 0; i < keptRefs.length; i++) keptRefs[i] = table.get(i);
      },
      restore() {
        new Uint8Array(memory.buffer).set(keptMemory.subarray(0, memory.buffer.byteLength));
        for (let i = 0; i < keptRefs.length; i++) table.set(i, keptRefs[i]);
      },
    };
    const fromSp = { save: () => undo.save(0), restore: () => undo.restore(0) };
    // performance.now() is coarse in a page that is not cross-origin isolated: batches of 25.
    const BATCH = 25;
    const t = { whole: { save: [], restore: [] }, fromSp: { save: [], restore: [] } };
    for (let i = 0; i < 110; i++) {
      for (const [name, u] of i % 2 ? [["whole", whole], ["fromSp", fromSp]] : [["fromSp", fromSp], ["whole", whole]]) {
        const a = performance.now();
        for (let k = 0; k < BATCH; k++) u.save();
        const b = performance.now();
        for (let k = 0; k < BATCH; k++) u.restore();
        const c = performance.now();
        if (i >= 10) {
          t[name].save.push((b - a) / BATCH);
          t[name].restore.push((c - b) / BATCH);
        }
      }
    }
    const med = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
    return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, { save: med(v.save), restore: med(v.restore) }]));
  };
  window.ready = true;
</script>`;

async function once(origin, entry, text, miss) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ARGS,
  });
  try {
    const p = await browser.newPage();
    await throttle(p);
    await p.goto(`${origin}/`);
    await p.waitForFunction(() => window.ready === true);
    return await p.evaluate(
      ([e, t, m]) => window.go(e, t, m),
      [entry, text, miss],
    );
  } finally {
    await browser.close();
  }
}

// The core's shadow stack pointer's initial value (the stack first, 1 MiB: www/scripts/split-wasm.mjs checks it).
const { checkUndoLayout } = await import("../../www/scripts/split-wasm.mjs");
const STACK_TOP = checkUndoLayout(
  fs.readFileSync(path.join(WWW, "pkg/agentpad_core.wasm")),
  fs.readFileSync(path.join(WWW, "pkg/agentpad_rest.wasm")),
).stackTop;

async function partsOnce(origin, bytes) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ARGS,
  });
  try {
    const p = await browser.newPage();
    await p.goto(`${origin}/`);
    await p.waitForFunction(() => window.ready === true);
    return await p.evaluate(
      ([b, top]) => window.parts(b, top),
      [bytes, STACK_TOP],
    );
  } finally {
    await browser.close();
  }
}

const gz = (file) =>
  zlib.gzipSync(fs.readFileSync(path.join(WWW, file)), { level: 9 }).length;

buildUnsplit();
const server = await serveWww(page, undefined, {
  gzip: opts.network !== undefined,
});
try {
  for (const [kind, size] of parseDocList(opts.docs)) {
    const doc = generate(kind, size);
    const lines = doc.text.split("\n").filter((l) => l.trim().length >= 20);
    const line = lines[Math.floor(lines.length / 3)];
    const miss = `${line.slice(0, 6)}~${line.slice(7)}`; // one character off: the tolerant tiers
    const runs = Object.fromEntries(NAMES.map((n) => [n, []]));
    for (let i = 0; i <= opts.runs; i++) {
      for (const name of i % 2 ? [...NAMES].reverse() : NAMES) {
        const r = await once(server.origin, ENTRIES[name], doc.text, miss);
        if (!r.ok)
          throw new Error(`split-browser: ${name}: the first call failed`);
        if (i > 0) runs[name].push(r); // the first pair untimed
      }
    }
    const m = (name, k) => median(runs[name].map((r) => r[k]));
    const link =
      opts.network === undefined
        ? "loopback, uncompressed"
        : `${opts.network} (latency ${NETWORKS[opts.network].latency} ms), gzip -9`;
    console.log(
      `\n${doc.name}: ${opts.runs} fresh browsers per entry, alternated, ${link}; medians (ms)`,
    );
    console.log(
      "| entry | import | create | first call | total to first answer | warm call, rest not loaded | warm call, rest loaded | first miss | second miss | memory at the first answer, at the end |",
    );
    console.log(
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const name of ["unsplit", ...NAMES.filter((n) => n !== "unsplit")]) {
      console.log(
        `| ${name} | ${m(name, "import_ms").toFixed(1)} | ${m(name, "create_ms").toFixed(1)} | ${m(name, "first_call_ms").toFixed(1)} | ` +
          `${m(name, "total_ms").toFixed(1)} | ${m(name, "warmBefore").toFixed(3)} | ${m(name, "warmAfter").toFixed(3)} | ${m(name, "missMs").toFixed(1)} | ` +
          `${m(name, "secondMissMs").toFixed(1)} | ${(m(name, "memoryAtFirst") / 2 ** 20).toFixed(1)}, ${(m(name, "memory") / 2 ** 20).toFixed(1)} MB |`,
      );
    }
    const parts = [];
    for (let i = 0; i < 3; i++)
      parts.push(await partsOnce(server.origin, m("split", "memory")));
    const pm = (k, op) => median(parts.map((p) => p[k][op]));
    console.log(
      `\nthe undo alone at ${(m("split", "memory") / 2 ** 20).toFixed(1)} MB of memory, the stack pointer at ${STACK_TOP.toLocaleString("en")}, 1,028 table slots: ` +
        `3 fresh browsers, 100 alternated rounds of 25 saves then 25 restores each, medians (ms)`,
    );
    console.log("| undo | save | restore | save + restore |");
    console.log("| --- | ---: | ---: | ---: |");
    for (const [k, label] of [
      ["whole", "whole memory, the table slot by slot"],
      ["fromSp", "from the stack pointer up, table.copy"],
    ]) {
      console.log(
        `| ${label} | ${pm(k, "save").toFixed(4)} | ${pm(k, "restore").toFixed(4)} | ${(pm(k, "save") + pm(k, "restore")).toFixed(4)} |`,
      );
    }
    for (const name of ["unsplit", "split"]) {
      const before = runs[name][0].before.filter(
        (e) => e.name !== "/favicon.ico",
      );
      console.log(
        `${name}: fetched before the first answer: ${before.map((e) => `${e.name} ${e.bytes.toLocaleString("en")} B`).join(", ")}`,
      );
    }
  }
  for (const f of [
    "dist/agentpad.browser.js",
    "dist/bench-unsplit.js",
    "pkg/agentpad_bg.wasm",
    "pkg/agentpad_core.wasm",
    "pkg/agentpad_rest.wasm",
  ]) {
    console.log(
      `${f}: ${fs.statSync(path.join(WWW, f)).size.toLocaleString("en")} B, gzip -9 ${gz(f).toLocaleString("en")} B`,
    );
  }
} finally {
  await server.close();
  for (const f of [
    "dist/bench-unsplit-entry.js",
    "dist/bench-unsplit.js",
    "dist/bench-unsplit.config.mjs",
  ])
    fs.rmSync(path.join(WWW, f), { force: true });
}
