// Cold start in headless Chromium (docs/performance.md#cold-start), beside the Node suite's: a
// page served from 127.0.0.1 imports the package's browser entry (the file its `exports` name under
// the "default" condition, as a page without a bundler loads it), creates a workspace on a
// MemoryStorage holding the document and makes the same first call, `memo_read` of lines 1–40.
// Two kinds of run:
//
// work                  timed, in the page (performance.now(), from just before the import)
// browser-cold-total    a fresh browser per run (nothing cached): import + create + first call
// browser-cached-total  a second page in the same browser context, as a user's next visit: the
//                       files revalidated from the HTTP cache (the server sends validators, as
//                       a static server does: a 304 instead of the 1.4 MB), and the wasm's
//                       compiled code from V8's cache where Chromium made one (no create got
//                       measurably faster after one page of this length). A page of its own
//                       context (playwright's browser.newPage()) shares no cache.
//
// Each record's `parts_ms` has the medians of the import, the create, the first call, the second
// call and a warm call (calls 101–300 timed together, divided by 200:
// a page's clock ticks in 0.1 ms). Runs: AGENTPAD_BENCH_COLD_RUNS (default 9,
// at least 7); document: AGENTPAD_BENCH_COLD_DOC (default code-10KB), as the Node suite. Skipped
// (no records) when Chromium is missing (CHROMIUM_BIN, default /usr/bin/chromium).

import { existsSync } from "node:fs";

import { chromium } from "playwright-core";

import { generate, parseDocList } from "../lib/docs.mjs";
import { median, summarize } from "../lib/measure.mjs";
import { serveWww } from "../../../www/test/lib/static-server.mjs";
import { BROWSER_ENTRY as ENTRY, CHROMIUM, CHROMIUM_ARGS as ARGS } from "../../../www/test/lib/chromium.mjs";

const SUITE = "coldstart-browser";
const RUNS = Math.max(7, Number(process.env.AGENTPAD_BENCH_COLD_RUNS ?? 9));
const DOC = process.env.AGENTPAD_BENCH_COLD_DOC || "code-10KB";

const page = (text) => `<!doctype html><meta charset="utf-8"><script type="module">
  const TEXT = ${JSON.stringify(text)};
  const ARGS = { start_line: 1, end_line: 40 };
  try {
    const t0 = performance.now();
    const { MemoryStorage, Workspace } = await import(${JSON.stringify(ENTRY)});
    const t1 = performance.now();
    const ws = await Workspace.create({ storage: new MemoryStorage({ "doc.md": TEXT }) });
    const t2 = performance.now();
    const first = await ws.call("memo_read", ARGS);
    const t3 = performance.now();
    await ws.call("memo_read", ARGS);
    const t4 = performance.now();
    for (let i = 0; i < 100; i++) await ws.call("memo_read", ARGS);
    const t5 = performance.now();
    for (let i = 0; i < 200; i++) await ws.call("memo_read", ARGS);
    const warm = (performance.now() - t5) / 200;
    const expected = TEXT.split("\\n").slice(0, 40);
    const ok = first.status === "Success" && expected.every((l) => first.content.includes(l));
    ws.free();
    window.__result = { ok, import_ms: t1 - t0, create_ms: t2 - t1, first_call_ms: t3 - t2, total_ms: t3 - t0,
      second_call_ms: t4 - t3, warm_call_ms: warm };
  } catch (err) {
    window.__result = { error: String((err && err.stack) || err) };
  }
</script>`;

async function load(context, origin) {
  const p = await context.newPage();
  try {
    await p.goto(`${origin}/`);
    await p.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const r = await p.evaluate(() => window.__result);
    if (r.error) throw new Error(`coldstart-browser: the page failed: ${r.error}`);
    return r;
  } finally {
    await p.close();
  }
}

export async function run({ log }) {
  if (!existsSync(CHROMIUM)) {
    log(`coldstart-browser: ${CHROMIUM} is missing, skipped`);
    return [];
  }
  const [[kind, size]] = parseDocList(DOC);
  const doc = generate(kind, size);
  const server = await serveWww(page(doc.text));
  const cold = [];
  const cached = [];
  try {
    log(`coldstart-browser: ${doc.name}, ${ENTRY}: ${RUNS} fresh browsers (1 untimed first), each with a second page`);
    for (let i = 0; i <= RUNS; i++) {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
      try {
        const context = await browser.newContext();
        const first = await load(context, server.origin);
        const second = await load(context, server.origin);
        if (i > 0) {
          cold.push(first);
          cached.push(second);
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    await server.close();
  }
  return [["browser-cold-total", cold], ["browser-cached-total", cached]].map(([work, runs]) => {
    const parts = {};
    for (const k of ["import_ms", "create_ms", "first_call_ms", "second_call_ms", "warm_call_ms"]) parts[k] = Number(median(runs.map((r) => r[k])).toPrecision(4));
    const samples = runs.map((r) => r.total_ms);
    const detail = `headless Chromium, ${ENTRY}; medians: import ${parts.import_ms.toFixed(1)} ms, create ${parts.create_ms.toFixed(1)} ms, ` +
      `first call ${parts.first_call_ms.toFixed(1)} ms, second call ${parts.second_call_ms.toFixed(2)} ms, warm call ${parts.warm_call_ms.toFixed(3)} ms`;
    return {
      suite: SUITE, work, doc: doc.name, impl: "agentpad-wasm", side: "wasm", ...summarize(samples), batch: 1,
      samples_ms: samples.map((x) => Number(x.toPrecision(6))), correct: runs.every((r) => r.ok), detail, parts_ms: parts,
    };
  });
}
