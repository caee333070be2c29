// The JS side of `./build.sh bench`: agentpad in wasm (through the built package, imported by
// name the way a user imports it) and the JavaScript peers, in one Node process, on the same
// generated documents as the native criterion benches.
//
//   node www/bench/run.mjs [--out DIR] [--suite NAME ...]
//
// Writes DIR/js-results.json (default: <repo>/target/bench). Documents: AGENTPAD_BENCH_DOCS
// (e.g. "code-1MB,markdown-10MB,cjk-10MB"; default "code-1MB,code-10MB,cjk-1MB"). Needs the package
// built (www/dist + www/pkg): ./build.sh bench does that first. The diff suite picks its own
// documents (AGENTPAD_BENCH_DIFF_DOCS, see suites/diff.mjs) and reuses these when the names match;
// the coldstart and memory suites spawn fresh `node` processes (children/) on their own documents
// (AGENTPAD_BENCH_COLD_DOC, AGENTPAD_BENCH_MEMORY_DOCS). Suites: matching, session, diff,
// coldstart, coldstart-browser (headless Chromium), memory, worstcase, firstcall, retrieval (all by default, in that order; worstcase generates its own
// documents per tier, AGENTPAD_BENCH_WORST_TIERS, see suites/worstcase.mjs; retrieval runs on the frozen set of
// bench/edits/retrieval and writes DIR/retrieval.md, see docs/retrieval.md). When only suites with documents of
// their own run, the generated documents are not made.

import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { MemoryStorage, Workspace } from "@agentpad/core";

import { DEFAULT_DOCS, fingerprint, generate, parseDocList } from "./lib/docs.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SUITES = {
  matching: () => import("./suites/matching.mjs"),
  session: () => import("./suites/session.mjs"),
  diff: () => import("./suites/diff.mjs"),
  coldstart: () => import("./suites/coldstart.mjs"),
  "coldstart-browser": () => import("./suites/coldstart-browser.mjs"),
  memory: () => import("./suites/memory.mjs"),
  worstcase: () => import("./suites/worstcase.mjs"),
  firstcall: () => import("./suites/firstcall.mjs"),
  retrieval: () => import("./suites/retrieval.mjs"),
};
/** Suites that never read the generated documents. */
const OWN_DOCS = new Set(["retrieval"]);

function parseArgs(argv) {
  const opts = { out: path.resolve(HERE, "../../target/bench"), suites: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--out") opts.out = path.resolve(argv[++i]);
    else if (a === "--suite") opts.suites.push(argv[++i]);
    else throw new Error(`unknown argument ${a}; usage: node www/bench/run.mjs [--out DIR] [--suite ${Object.keys(SUITES).join("|")}]`);
  }
  if (opts.suites.length === 0) opts.suites = Object.keys(SUITES);
  for (const s of opts.suites) if (!SUITES[s]) throw new Error(`unknown suite ${s}; known: ${Object.keys(SUITES).join(", ")}`);
  return opts;
}

const started = performance.now();
const log = (msg) => console.log(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s] ${msg}`);

const opts = parseArgs(process.argv.slice(2));
mkdirSync(opts.out, { recursive: true });
const loadAtStart = os.loadavg().map((x) => Number(x.toFixed(2)));
const docSpec = process.env.AGENTPAD_BENCH_DOCS || DEFAULT_DOCS;
const needDocs = opts.suites.some((s) => !OWN_DOCS.has(s));
if (needDocs) log(`generating ${docSpec}`);
const docs = needDocs ? parseDocList(docSpec).map(([kind, size]) => generate(kind, size)) : [];

const results = [];
for (const name of opts.suites) {
  const suite = await SUITES[name]();
  results.push(...(await suite.run({ docs, Workspace, MemoryStorage, log, out: opts.out })));
}

const file = path.join(opts.out, "js-results.json");
writeFileSync(
  file,
  JSON.stringify(
    {
      generated: new Date().toISOString(),
      meta: {
        node: process.version,
        v8: process.versions.v8,
        cpu: os.cpus()[0]?.model ?? "unknown",
        cores: os.cpus().length,
        platform: `${os.platform()} ${os.arch()}`,
        loadavg_at_start: loadAtStart,
        loadavg_at_end: os.loadavg().map((x) => Number(x.toFixed(2))),
      },
      docs: docs.map(fingerprint),
      results,
    },
    null,
    2,
  ) + "\n",
);
const wrong = results.filter((r) => r.correct === false);
for (const r of wrong) log(`WRONG RESULT: ${r.work} ${r.doc} ${r.impl}: ${r.detail}`);
log(`wrote ${file} (${results.length} results, ${wrong.length} wrong)`);
