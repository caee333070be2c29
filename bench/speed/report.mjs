// The report step of `./build.sh bench`: merges the JS harness's results (js-results.json) with
// criterion's native results and the wasm size into report.json and report.md, and prints the
// Markdown to stdout.
//
//   node bench/speed/report.mjs --out DIR --criterion DIR [--since EPOCH_MS] [--wasm FILE]
//
// --since: ignore criterion results older than this (stale benches from earlier runs).
// Fails (exit 1) when the Rust and JS generators did not produce the same documents (or, for the
// diff suite, the same edited texts), or when an input is missing. Wrong results do not fail it:
// they are marked, and never become a ratio.
//
// Besides criterion's own files it reads the side files of the native diff benches
// (bench/native/common/diff.rs): native-diff-checks.json (whether each native patch applies back, and
// its shape), native-diff-slow.json (pairs too slow for criterion, timed a few times) and
// native-diff-edits.json (the FNV-1a of every edited text).

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { markdownSection as retrievalMarkdown } from "./suites/retrieval.mjs";
import { markdown as sizeMarkdown } from "./wasm-size.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");

function parseArgs(argv) {
  const opts = {
    out: path.join(ROOT, "target/bench"),
    criterion: path.join(ROOT, "target/criterion"),
    since: 0,
    wasm: path.join(ROOT, "www/pkg/agentpad_bg.wasm"),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--out") opts.out = path.resolve(argv[++i]);
    else if (a === "--criterion") opts.criterion = path.resolve(argv[++i]);
    else if (a === "--since") opts.since = Number(argv[++i]);
    else if (a === "--wasm") opts.wasm = path.resolve(argv[++i]);
    else if (a === "--size") opts.size = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

function die(msg) {
  console.error(`report: error: ${msg}`);
  process.exit(1);
}

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

// ---------------------------------------------------------------- inputs ---

/** Every criterion benchmark (work/impl/doc) whose `new/` results are not older than `since`. */
function criterionResults(dir, since) {
  const out = [];
  if (!existsSync(dir)) return out;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const p = path.join(d, e.name);
      if (e.name === "new" && existsSync(path.join(p, "benchmark.json"))) {
        if (statSync(path.join(p, "estimates.json")).mtimeMs < since) continue;
        const id = readJson(path.join(p, "benchmark.json"));
        const est = readJson(path.join(p, "estimates.json"));
        const sample = readJson(path.join(p, "sample.json"));
        const perIter = sample.times.map((t, i) => t / sample.iters[i] / 1e6); // ns → ms
        out.push({
          suite: "criterion",
          work: id.group_id,
          impl: id.function_id,
          doc: id.value_str,
          side: "native",
          runs: perIter.length,
          median_ms: est.median.point_estimate / 1e6,
          min_ms: Math.min(...perIter),
          max_ms: Math.max(...perIter),
          samples_ms: perIter.map((x) => Number(x.toFixed(6))),
          correct: true, // bench/native/*.rs check every result against a reference before timing (and panic if wrong)
          detail: `criterion, ${sample.iters.reduce((a, b) => a + b, 0)} iterations in ${perIter.length} samples`,
        });
      } else if (e.name !== "base" && e.name !== "change" && e.name !== "report") {
        walk(p);
      }
    }
  };
  walk(dir);
  return out;
}

/** The native generators' fingerprints (native-docs-<suite>.json), merged by document name. */
function nativeDocs(dir) {
  const docs = new Map();
  if (!existsSync(dir)) return docs;
  for (const f of readdirSync(dir)) {
    if (!/^native-docs-.*\.json$/.test(f)) continue;
    for (const d of readJson(path.join(dir, f))) docs.set(d.name, d);
  }
  return docs;
}

/** The native diff benches' side files (bench/native/common/diff.rs); empty when they did not run. */
function nativeDiff(dir, since) {
  const read = (f) => {
    const file = path.join(dir, f);
    return existsSync(file) && statSync(file).mtimeMs >= since ? readJson(file) : [];
  };
  const checks = read("native-diff-checks.json");
  const slow = read("native-diff-slow.json").map((x) => ({
    suite: "criterion", work: x.work, impl: x.impl, doc: x.doc, side: "native", runs: x.samples_ms.length,
    median_ms: median(x.samples_ms), min_ms: Math.min(...x.samples_ms), max_ms: Math.max(...x.samples_ms), samples_ms: x.samples_ms,
    correct: true, detail: `too slow for criterion (first run ${x.first_ms.toFixed(0)} ms): ${x.samples_ms.length} timed runs`,
  }));
  return { checks, slow, edits: read("native-diff-edits.json") };
}

function median(xs) {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

function tryRun(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- ratios ---

const MATCHING_WORKS = ["locate-unique", "locate-all", "fuzzy"];
const SESSION_WORKS = ["stage-one", "stage-26", "commit-26"];
/** The changes of the multi-change session works (bench/speed/suites/session.mjs, bench/native/session.rs). */
const SESSION_CHANGES = 26;
/** The diff suite (bench/speed/suites/diff.mjs): one work per edit set, and the live context without a diff. */
const DIFF_WORKS = ["anchor-diff-1", "anchor-diff-10", "anchor-diff-1pct", "window"];
/** The cold-start suite (bench/speed/suites/coldstart.mjs). */
const COLD_WORKS = ["cold-import-create", "cold-first-call", "cold-total", "warm-read"];
/** The MCP server's first answer, from the spawn (the same suite). */
const MCP_WORKS = ["mcp-first-answer"];
/** The same first answer in headless Chromium (bench/speed/suites/coldstart-browser.mjs). */
const BROWSER_WORKS = ["browser-cold-total", "browser-cached-total"];
/** The first call on a text just taken (bench/speed/suites/firstcall.mjs). */
const FIRST_WORKS = ["first-after-open", "first-after-commit"];
const WORK_ORDER = [...MATCHING_WORKS, ...SESSION_WORKS, ...FIRST_WORKS, ...DIFF_WORKS, ...COLD_WORKS, ...MCP_WORKS, ...BROWSER_WORKS];
const IMPL_ORDER = [
  "agentpad-wasm", "agentpad-wasm-200ms", "agentpad-memo_diff", "agentpad-call", "agentpad-diff", "agentpad-locate", "agentpad-locate-rope", "agentpad-find_exact", "agentpad-find_bytes",
  "memmem", "similar", "warm-call", "warm-evicted", "indexOf", "indexOf-evicted", "indexOf+diff", "trim-lines", "slice-join", "replace×26", "createTwoFilesPatch", "diff-match-patch",
];
const WORK_TEXT = {
  "locate-unique": "locate unique needle (+ stage + compact preview in wasm)",
  "locate-all": "find all hits of a 30-char needle (→ MultiMatch in wasm)",
  fuzzy: "fuzzy search when exact fails (needle indented differently)",
  "stage-one": "stage one change (unique needle) → Success with its compact preview (the wasm call of locate-unique, in the session suite with its native counterpart)",
  "stage-26": `stage ${SESSION_CHANGES} changes spread through the document, one call each, each with its preview`,
  "commit-26": `commit ${SESSION_CHANGES} staged changes, write through the storage, get the string back`,
  "first-after-open": "the first `memo_replace` (unique needle, → Success with its preview) after `Workspace.create` opened the document: a fresh workspace per run, created untimed",
  "first-after-commit": "the first `memo_replace` (unique needle) after a `memo_commit` of one change: a fresh workspace per run, the change staged and committed untimed",
  "anchor-diff-1": "unified diff (context 3) of the whole document, old → new: one small change (one word renamed in one line near the middle)",
  "cold-import-create": "cold start in a fresh `node` process: `await import(\"agentpad\")` + `Workspace.create` (the wasm read, compiled and instantiated; the document read and opened)",
  "cold-first-call": "cold start: the first call after that, `ws.call(\"memo_read\", { start_line: 1, end_line: 40 })`",
  "cold-total": "cold start: import + create + first call, from the import to the first answer (Node's own start-up before the script not counted)",
  "warm-read": "the same `memo_read` once warm (in each fresh process the median of calls 101–300)",
  "mcp-first-answer": "`agentpad-mcp --dir` on a folder holding the document: from the spawn to the answer of the same `memo_read` as the first `tools/call` after `initialize` (Node's start-up and the MCP SDK's import counted)",
  "browser-cold-total": "cold start in headless Chromium, a fresh browser per run: `import()` of the package's browser entry (its `exports` \"default\") + `Workspace.create` + the same first call",
  "browser-cached-total": "the same in a second page of that browser context (its HTTP cache revalidated; V8's wasm code cache only where Chromium made one)",
  "anchor-diff-10": "unified diff (context 3) of the whole document, old → new: 10 scattered lines edited (evenly spread)",
  "anchor-diff-1pct": "unified diff (context 3) of the whole document, old → new: 1 % of the lines changed (seeded; 8 in 10 edited, 1 in 10 deleted, 1 in 10 followed by a new line)",
  window: "`ws.liveContext({ anchor: \"none\", maxDocumentChars: 1000, recentDiffs: 0 })`: the live context without a diff (document window, heading index, JSON and Markdown) — the fixed part of every agentpad-wasm anchor-diff call",
};
const IMPL_TEXT = {
  "agentpad-memo_replace": "native: `Workspace::call(\"memo_replace\", …)` in Rust, the worst-case shapes (bench/native/matching.rs).",
  "agentpad-wasm": "`ws.call(…)` through the npm package in Node: arguments in, response object with Markdown out. " +
    "Matching and stage works: `memo_replace` (revert between runs, untimed); commit-26: `memo_commit` writing through `MemoryStorage`, then `ws.text()` " +
    `(a fresh workspace with the ${SESSION_CHANGES} changes staged before every run, untimed). ` +
    "anchor-diff-*: `ws.liveContext({ anchor: \"origin\", maxDiffChars: 0, recentDiffs: 0, maxDocumentChars: 1000, diffDeadlineMs: 60000 })` " +
    "→ `json.anchor_diff.patch`, after the new text was written to the `MemoryStorage` and taken by the workspace (`memo_read`, untimed); " +
    "the whole call is timed, its fixed part is the window work",
  "agentpad-wasm-200ms": "the agentpad-wasm anchor diff with the default diff deadline (200 ms): past it the diff is finished coarsely (correct, not minimal; `coarse: true`)",
  "agentpad-memo_diff": "`ws.call(\"memo_diff\", {})` through the npm package: the draft against the committed text, rendered from the pending changes' known ranges " +
    "(the edit staged beforehand, untimed: one `memo_replace` per edited line, its old_text widened by whole lines until unique; workspace option `maxPreviewLength: 1000000`, so no hunk is cut) → `response.preview`. " +
    "Edit sets of 1 and 10 lines only: 1 % of the lines needs more than the 26 pending changes (A–Z) of a session",
  "agentpad-diff": "native `agentpad::changeset::ChangeSet::diff(&old, &new)` on ropes built beforehand + `preview::render` in `diff` mode (no length cap): the anchor diff's work without the live context around it and without a deadline (bench/native/common/diff.rs)",
  similar: "native `similar::TextDiff::from_lines(old, new).unified_diff().context_radius(3).header(\"a/doc.md\", \"b/doc.md\").to_string()` (Myers, no deadline): the native limit of the unified diff",
  "diff-match-patch": "JS: `diff-match-patch` 1.0.5 in line mode with its defaults (`diff_linesToChars_`, `diff_main` with its 1 s `Diff_Timeout`, `diff_charsToLines_`), the line diffs turned into a unified diff with context 3 (bench/speed/lib/peers.mjs `dmpLinePatch`); " +
    "when its warm-up run takes > 0.3 s, 3 timed runs. Past 40,000 distinct lines of the old text its line mode lumps the rest of the text into one \"line\": the patch still applies, but removes and re-adds everything past that point (shape columns)",
  "agentpad-call": "native `agentpad::Workspace::call` with `serde_json` arguments — the same calls as agentpad-wasm without the JS boundary; " +
    "commit-26: `memo_commit` → `Step::Persist`, the write into a `HashMap`, `complete_persist(Saved)`, `text()`",
  "agentpad-locate": "native `agentpad::matching::locate_layered` on a document's `Text` with nothing pending — what the replace tools call: memmem over the text's kept flat copy",
  "agentpad-locate-rope": "native `agentpad::matching::locate(&rope, needle, 0)` on a bare `Rope` (no kept flat copy: the rope is copied out block by block on every search)",
  "agentpad-find_exact": "native `agentpad::matching::exact::find_exact` (char ranges)",
  "agentpad-find_bytes": "native `agentpad::matching::exact::find_bytes` (byte offsets over the rope's chunks)",
  memmem: "native `memchr::memmem::find_iter` on the flattened `String`, collecting every hit (the limit)",
  "warm-call": "agentpad itself, warm: the same `memo_replace` on a workspace in the same state that has answered one such call before (revert between runs, untimed) — what the first call should cost",
  "warm-evicted": "the warm call, with 64 MB touched (untimed) before each run: the document's flat text out of the CPU caches, as the first call after an open or a commit (which move 20–40 MB) finds it",
  indexOf: "JS `indexOf`: unique — uniqueness check + slice + concatenation (V8 keeps the result as a lazy cons-string); all — a loop collecting every hit; " +
    `stage-26 — the unique case ${SESSION_CHANGES} times on the growing draft (no preview)`,
  "indexOf-evicted": "JS `indexOf` uniqueness check + slice, with the same 64 MB touched (untimed) before each run as warm-evicted: the JS baseline on a text out of the CPU caches",
  "indexOf+diff": "JS `indexOf` uniqueness check + slice + `diff.createTwoFilesPatch` (context 3): the preview a user would build; " +
    `stage-26 — ${SESSION_CHANGES} times on the growing draft (documents up to 2 M UTF-16 units: one run diffs the whole text ${SESSION_CHANGES} times)`,
  "trim-lines": "JS exact `indexOf`, then split into lines and compare every window of trimmed lines",
  "slice-join": `JS: the ${SESSION_CHANGES} edits (offsets known from staging) sorted by offset, the text sliced around them and joined (one flat copy), stored in a \`Map\` (by reference: no copy, no encoding)`,
  "replace×26": `JS: ${SESSION_CHANGES} successive \`String.prototype.replace\` calls (each searches the current text), stored in a \`Map\``,
  "agentpad-wasm+lazy-validation": "agentpad-wasm with V8's `--wasm-lazy-validation` set before the import (the flag `agentpad-mcp` sets for its own process; the library does not set it for its host)",
  "agentpad-mcp": "`agentpad-mcp --dir <a folder holding the document>` over stdio: spawn → `initialize` → the first `tools/call` answered",
  createTwoFilesPatch: "JS: `diff.createTwoFilesPatch(\"a/doc.md\", \"b/doc.md\", old, new, \"\", \"\", { context: 3 })` (the `diff` npm package); " +
    "when its warm-up run takes > 2 s, 3 timed runs instead of ≥ 7 (AGENTPAD_BENCH_DIFF_SLOW_RUNS)",
};
/** The memory suite's implementations (bench/speed/suites/memory.mjs). */
const MEMORY_IMPL_TEXT = {
  "agentpad-wasm": "wasm linear memory (`memoryBytes()`, the package's export) after `Workspace.create` opened the document and 26 `memo_replace` calls staged 26 changes spread through it — the high-water mark, as wasm memory never shrinks (the document's JS string, held by the caller and by `MemoryStorage`, is not counted)",
  "js-drafts": "JS heap delta (`process.memoryUsage().heapUsed`, gc() before each reading, `node --expose-gc`): the text plus every pending draft kept — 26 slice-replacements, each on the previous draft after an `indexOf` uniqueness check (which makes V8 flatten the draft it searches)",
  "js-edits": "JS heap delta, the lean way: the text, the 26 edits by offset, and one current draft (sort + slice + join)",
};
const isAgentpad = (impl) => impl.startsWith("agentpad-");
const orderOf = (list, x) => (list.indexOf(x) < 0 ? list.length : list.indexOf(x));

/** Every agentpad implementation against every peer of the same work and document. */
function pairRatios(results) {
  const ratios = [];
  for (const a of results.filter((r) => isAgentpad(r.impl))) {
    for (const b of results) {
      if (isAgentpad(b.impl) || b.work !== a.work || b.doc !== a.doc) continue;
      // A native agentpad function against a JS peer says little; against memmem it is the point.
      if (a.side === "native" && b.side !== "native") continue;
      const valid = a.correct !== false && b.correct !== false && a.median_ms != null && b.median_ms != null;
      // A correct patch that is far from minimal (diff-match-patch past 40,000 lines) is not wrong,
      // but its ratio is no like-for-like comparison: say so next to it.
      const coarse = [a, b].filter((r) => r.minimal === false).map((r) => `${r.impl}'s patch not minimal`);
      ratios.push({
        work: a.work,
        doc: a.doc,
        a: a.impl,
        b: b.impl,
        ratio: valid ? a.median_ms / b.median_ms : null,
        note: valid ? coarse.join(", ") : a.correct === false ? `${a.impl} wrong` : b.correct === false ? `${b.impl} wrong` : "no time",
      });
    }
  }
  return ratios;
}

function find(results, work, doc, impl) {
  return results.find((r) => r.work === work && r.doc === doc && r.impl === impl);
}

/** The session targets (docs/performance.md#targets): ≤ 1 ms per staged change with preview (≥ 100× the JS baseline),
 * ≤ 15 ms for the commit of 26 changes including getting the string back. */
function sessionTargets(results, ratios, doc) {
  const out = [];
  const msTarget = (target, r, limit, per = 1, from = "target: sessions") => {
    if (!r) return;
    const value = r.median_ms === null ? null : r.median_ms / per;
    out.push({ target, from, value, unit: "ms", limit, ok: r.correct !== false && value !== null && value <= limit, note: r.correct === false ? "wrong result" : "" });
  };
  for (const [impl, label] of [["agentpad-wasm", "wasm"], ["agentpad-call", "native"]]) {
    msTarget(`stage one change + compact preview ≤ 1 ms (${label}), ${doc}`, find(results, "stage-one", doc, impl), 1);
    if (impl === "agentpad-wasm") {
      const x = ratios.find((y) => y.work === "stage-one" && y.doc === doc && y.a === impl && y.b === "indexOf+diff");
      if (x) {
        const faster = x.ratio === null ? null : 1 / x.ratio;
        out.push({ target: `stage one change + preview ≥ 100× faster than indexOf+diff (${label}), ${doc}`, from: "target: sessions", value: faster, unit: "× faster", limit: 100, ok: faster !== null && faster >= 100, note: x.note });
      }
    }
    msTarget(`per staged change in a ${SESSION_CHANGES}-change session ≤ 1 ms (${label}), ${doc}`, find(results, "stage-26", doc, impl), 1, SESSION_CHANGES);
    msTarget(`commit of ${SESSION_CHANGES} changes + text() ≤ 15 ms (${label}), ${doc}`, find(results, "commit-26", doc, impl), 15, 1,
      "target: sessions");
  }
  return out;
}

/** The diff target (docs/performance.md#targets): the anchor diff of 10 MB with 1 % of lines changed ≥ 8× faster than
 * createTwoFilesPatch, and always correct. */
function diffTargets(results, ratios) {
  const out = [];
  const ours = results.filter((r) => r.suite === "diff" && r.work.startsWith("anchor-diff-") && r.impl === "agentpad-wasm");
  for (const r of ours.filter((x) => x.work === "anchor-diff-1pct" && x.doc.endsWith("-10MB"))) {
    const x = ratios.find((y) => y.work === r.work && y.doc === r.doc && y.a === "agentpad-wasm" && y.b === "createTwoFilesPatch");
    if (!x) continue;
    const faster = x.ratio === null ? null : 1 / x.ratio;
    out.push({ target: `anchor diff, 1 % of lines changed, ≥ 8× faster than createTwoFilesPatch (wasm), ${r.doc}`, from: "target: diffs", value: faster, unit: "× faster", limit: 8, ok: faster !== null && faster >= 8, note: x.note });
  }
  // Never wrong: every agentpad patch of every document and edit set — the anchor diff with both
  // deadlines and memo_diff (wasm; applyPatch and the strict applier), and the native
  // ChangeSet::diff + render (the strict applier).
  const all = results.filter((r) => r.work.startsWith("anchor-diff-") && isAgentpad(r.impl));
  if (all.length) {
    const right = all.filter((r) => r.correct === true).length;
    const impls = [...new Set(all.map((r) => r.impl))].sort((a, b) => orderOf(IMPL_ORDER, a) - orderOf(IMPL_ORDER, b));
    const wrong = all.filter((r) => r.correct !== true).map((r) => `${r.work} ${r.doc} ${r.impl}`);
    out.push({ target: `unified diff never wrong (${impls.join(", ")}; every document and edit set: the patch applied back gives the new text)`, from: "target: diffs", value: right, unit: `of ${all.length} correct`, limit: all.length, ok: right === all.length, note: wrong.join("; ") });
  }
  return out;
}

/** The memory suite's records per document, with agentpad's ratio to each JS peer (bytes ÷ bytes). */
function memoryReport(records) {
  const docs = [...new Set(records.map((r) => r.doc))];
  return docs.map((doc) => {
    const rows = records.filter((r) => r.doc === doc);
    const ours = rows.find((r) => r.impl === "agentpad-wasm");
    const ratios = {};
    for (const p of rows.filter((r) => r.side === "js")) {
      ratios[p.impl] = ours && ours.correct !== false && p.correct !== false && ours.bytes && p.bytes ? ours.bytes / p.bytes : null;
    }
    return { doc, rows, ratios };
  });
}

/** The first call after open and after commit ≤ 1 ms at 10 MB (wasm): nothing is built lazily. The note
 * gives the JS baseline's scan of the same text out of the CPU caches, the floor a first call meets. */
function firstTargets(results) {
  const cold = (r) => results.find((x) => x.work === r.work && x.doc === r.doc && x.impl === "indexOf-evicted" && x.correct !== false && x.median_ms != null);
  return results
    .filter((r) => FIRST_WORKS.includes(r.work) && r.impl === "agentpad-wasm" && r.doc.endsWith("-10MB"))
    .map((r) => ({ target: `${r.work.replace(/-/g, " ")} ≤ 1 ms (wasm), ${r.doc}`, from: "target: first call", value: r.median_ms, unit: "ms", limit: 1,
      ok: r.correct !== false && r.median_ms !== null && r.median_ms <= 1,
      note: r.correct === false ? "wrong result" : cold(r) ? `JS indexOf on the text out of the caches: ${cold(r).median_ms.toFixed(2)} ms` : "" }));
}

/** Cold start (target: first answer ≤ 20 ms; a warm call ≤ 0.2 ms), strictly (from the import to the first answer) and
 * for the call alone. */
function coldTargets(results) {
  const out = [];
  for (const [work, what, limit] of [["cold-total", "import + create + first call", 20], ["cold-first-call", "the first call alone, after create", 20], ["warm-read", "a warm call", 0.2]]) {
    // The package as it ships; the lazy-validation row beside it is a measurement, not what users get.
    for (const r of results.filter((x) => x.work === work && x.impl === "agentpad-wasm")) {
      out.push({ target: `${work === "warm-read" ? "warm call" : "cold start: first call"} ≤ ${limit} ms (${what}, fresh node process), ${r.doc}`, from: work === "cold-first-call" ? "own check" : "target: cold start", value: r.median_ms, unit: "ms", limit,
        ok: r.correct !== false && r.median_ms !== null && r.median_ms <= limit, note: r.correct === false ? "wrong result" : "" });
    }
  }
  return out;
}

function targets(results, ratios, wasm) {
  const out = [];
  const docs = [...new Set(results.map((r) => r.doc))];
  const ratio = (work, doc, a, b) => ratios.find((x) => x.work === work && x.doc === doc && x.a === a && x.b === b);
  for (const doc of docs) {
    for (const [a, label] of [["agentpad-wasm", "wasm"], ["agentpad-locate", "native locate"]]) {
      const r = ratio("locate-all", doc, a, "memmem");
      if (r) out.push({ target: `find-all within 2× of native memmem (${label}), ${doc}`, from: a === "agentpad-wasm" ? "target: search" : "own check", value: r.ratio, unit: "×", limit: 2, ok: r.ratio !== null && r.ratio <= 2, note: r.note });
    }
    const c = ratio("commit-26", doc, "agentpad-wasm", "slice-join");
    // The target names 10 MB and CJK text (docs/performance.md#targets); smaller ones are in the tables.
    if (c && (doc.endsWith("-10MB") || doc.startsWith("cjk-"))) out.push({ target: `commit of ${SESSION_CHANGES} + text() at most sort + slice + join (wasm), ${doc}`, from: "target: sessions", value: c.ratio, unit: "×", limit: 1, ok: c.ratio !== null && c.ratio <= 1, note: c.note });
    for (const work of ["locate-all", "locate-unique"]) {
      const r = ratio(work, doc, "agentpad-wasm", "indexOf");
      if (r) out.push({ target: `${work} ahead of indexOf (wasm), ${doc}`, from: "own check", value: r.ratio, unit: "×", limit: 1, ok: r.ratio !== null && r.ratio < 1, note: r.note });
    }
    if (doc.endsWith("-10MB")) {
      const f = find(results, "fuzzy", doc, "agentpad-wasm");
      if (f) out.push({ target: `fuzzy search when exact fails ≤ 10 ms (wasm), ${doc}`, from: "own check", value: f.median_ms, unit: "ms", limit: 10, ok: f.correct !== false && f.median_ms <= 10, note: f.correct === false ? "wrong result" : "" });
      const u = find(results, "locate-unique", doc, "agentpad-wasm");
      if (u) out.push({ target: `staged replace + preview ≤ 1 ms (wasm), ${doc}`, from: "target: search", value: u.median_ms, unit: "ms", limit: 1, ok: u.correct !== false && u.median_ms <= 1, note: u.correct === false ? "wrong result" : "" });
      out.push(...sessionTargets(results, ratios, doc));
    }
  }
  for (const tier of [...new Set(results.filter((r) => r.work.startsWith("worst-") && r.side === "wasm").map((r) => r.doc))]) {
    const rows = results.filter((r) => r.doc === tier && r.work.startsWith("worst-") && r.side === "wasm");
    const wrong = rows.filter((r) => r.correct === false);
    const slowest = rows.reduce((a, r) => (r.median_ms > (a?.median_ms ?? -1) ? r : a), null);
    out.push({ target: `slowest worst-case shape ≤ 250 ms (wasm), ${tier}`, from: "target: reliability", value: slowest?.median_ms ?? null, unit: "ms", limit: 250,
      ok: wrong.length === 0 && slowest !== null && slowest.median_ms <= 250, note: wrong.length ? `${wrong.length} wrong` : slowest ? slowest.work.slice("worst-".length) : "" });
  }
  out.push(...diffTargets(results, ratios));
  out.push(...firstTargets(results));
  out.push(...coldTargets(results));
  if (wasm) out.push({ target: "wasm ≤ 200 KB gzipped", from: "target: size", value: wasm.gzip_bytes / 1024, unit: "KiB", limit: 200, ok: wasm.gzip_bytes <= 200 * 1024, note: "" });
  // The browser entry's first module: what a page fetches and compiles before its first answer.
  const core = wasm?.split?.core;
  if (core) out.push({ target: "core module (what a page loads to edit) ≤ 250 KB gzipped", from: "target: size", value: core.gzip_bytes / 1000, unit: "KB", limit: 250, ok: core.gzip_bytes <= 250_000, note: `the rest: ${(wasm.split.rest.gzip_bytes / 1000).toFixed(1)} KB, on first use` });
  return out;
}

// -------------------------------------------------------------- markdown ---

function ms(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return "—";
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  if (x >= 1) return x.toFixed(2);
  return x.toPrecision(3);
}

function times(x) {
  if (x === null) return "—";
  return x >= 10 ? `${x.toFixed(0)}×` : x >= 0.1 ? `${x.toFixed(2)}×` : `${x.toPrecision(2)}×`;
}

function markdown(report) {
  const { results, ratios, meta, wasm, docs } = report;
  const L = [];
  L.push("# agentpad benchmark report", "");
  L.push(`Generated ${report.generated} by \`./build.sh bench\`. ${meta.cpu} (${meta.cores} cores), ${meta.platform}; Node ${meta.node}; ${meta.rustc ?? "rustc ?"}.` +
    (meta.loadavg_at_start ? ` Load average (1/5/15 min) when the JS harness started: ${meta.loadavg_at_start.join(" / ")}, ended: ${meta.loadavg_at_end.join(" / ")} — other work on the machine makes every number noisier.` : ""));
  L.push("");
  L.push("Documents (seeded generator, identical in Rust and JS: " + (report.docs_match ? "checked" : "NOT CHECKED") + "): " +
    docs.map((d) => `${d.name} = ${d.bytes.toLocaleString("en")} bytes, ${d.lines.toLocaleString("en")} lines, fnv1a32 ${d.fnv1a32}`).join("; ") + ".");
  const diffOnly = (report.diff_docs ?? []).filter((d) => !docs.some((x) => x.name === d.name));
  if (diffOnly.length) {
    L.push("");
    L.push("Documents of the diff suite only (the same generator): " +
      diffOnly.map((d) => `${d.name} = ${d.bytes.toLocaleString("en")} bytes, ${d.lines.toLocaleString("en")} lines, fnv1a32 ${d.fnv1a32}`).join("; ") + ".");
  }
  const dn = report.diff_native;
  if (dn) {
    L.push("");
    L.push(dn.docs.length
      ? `Native diff benches (bench/native/common/diff.rs) on ${dn.docs.join(", ")}: the same documents (fingerprints checked) and the same ${dn.edits_checked} edited texts as the JS diff suite (FNV-1a checked); the diff suite's other documents have no native column.`
      : "The native diff benches (bench/native/common/diff.rs) did not run: the diff rows have no native column.");
  }
  L.push("");
  L.push("Times in ms per operation: median, min, max of the timed runs after warm-up (wasm and JS: one Node process, ≥ 7 runs unless the runs column says fewer; native: criterion, 10 samples, except native diffs taking > 0.3 s a run, timed 3 times outside criterion). " +
    "A result that does not match the reference is marked WRONG and never becomes a ratio.");
  L.push("");
  // The worst-case shapes have a section of their own (worstCase).
  const works = [...new Set(results.map((r) => r.work))].filter((w) => !w.startsWith("worst-")).sort((a, b) => orderOf(WORK_ORDER, a) - orderOf(WORK_ORDER, b));
  L.push(...summary(report, works));
  L.push("Implementations:", "");
  const impls = [...new Set(results.map((r) => r.impl))].sort((a, b) => orderOf(IMPL_ORDER, a) - orderOf(IMPL_ORDER, b));
  for (const impl of impls) L.push(`- **${impl}**: ${IMPL_TEXT[impl] ?? "(no description)"}`);
  L.push("");
  for (const work of works) {
    L.push(`## ${work}: ${WORK_TEXT[work] ?? ""}`, "");
    L.push("| document | implementation | side | runs | median ms | min ms | max ms | correct |");
    L.push("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |");
    const rows = results.filter((r) => r.work === work).sort((a, b) =>
      workDocOrder(report, work, a.doc) - workDocOrder(report, work, b.doc) || orderOf(IMPL_ORDER, a.impl) - orderOf(IMPL_ORDER, b.impl));
    for (const r of rows) {
      const correct = r.correct === false ? `**WRONG**: ${r.detail}` : r.correct ? "yes" : "—";
      L.push(`| ${r.doc} | ${r.impl} | ${r.side} | ${r.runs}${r.batch > 1 ? ` (×${r.batch} calls)` : ""} | ${ms(r.median_ms)} | ${ms(r.min_ms)} | ${ms(r.max_ms)} | ${correct} |`);
    }
    L.push("");
    const rs = ratios.filter((x) => x.work === work);
    if (rs.length) {
      const peers = [...new Set(rs.map((x) => x.b))].sort((a, b) => orderOf(IMPL_ORDER, a) - orderOf(IMPL_ORDER, b));
      L.push(`Ratios (agentpad median ÷ peer median; < 1 means agentpad is faster):`, "");
      L.push(`| document | agentpad | ${peers.map((p) => `: ${p}`).join(" | ")} |`);
      L.push(`| --- | --- | ${peers.map(() => "---:").join(" | ")} |`);
      const keys = [...new Set(rs.map((x) => `${x.doc}\t${x.a}`))].sort((p, q) => {
        const [dp, ap] = p.split("\t");
        const [dq, aq] = q.split("\t");
        return workDocOrder(report, work, dp) - workDocOrder(report, work, dq) || orderOf(IMPL_ORDER, ap) - orderOf(IMPL_ORDER, aq);
      });
      for (const k of keys) {
        const [doc, a] = k.split("\t");
        const cells = peers.map((p) => {
          const x = rs.find((y) => y.doc === doc && y.a === a && y.b === p);
          return !x ? "" : x.ratio === null ? `(${x.note})` : `${times(x.ratio)}${x.note ? ` (${x.note})` : ""}`;
        });
        L.push(`| ${doc} | ${a} | ${cells.join(" | ")} |`);
      }
      L.push("");
    }
  }
  L.push(...worstCase(results));
  if (wasm) {
    L.push("## size", "");
    L.push(`\`${wasm.path}\`: ${wasm.bytes.toLocaleString("en")} bytes raw, ${wasm.gzip_bytes.toLocaleString("en")} bytes gzipped (level 9).`);
    L.push("");
    if (wasm.split) {
      // docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use
      L.push("The browser entry ships it split in two (www/scripts/split-wasm.mjs): the functions an exact-editing page runs, and the rest, loaded on first use. Node loads the single module.", "");
      L.push("| browser module | raw | gzip -9 |", "| --- | ---: | ---: |");
      for (const [name, m] of Object.entries(wasm.split)) L.push(`| \`${m.path}\` (${name}) | ${m.bytes.toLocaleString("en")} | ${m.gzip_bytes.toLocaleString("en")} |`);
      L.push("");
    }
  }
  // Both entries' modules and where the bytes are (bench/speed/wasm-size.mjs, docs/performance.md#wasm-size).
  if (report.wasm_size) L.push(sizeMarkdown(report.wasm_size, { rows: 15 }), "");
  L.push("## targets", "");
  L.push("Where each comes from: a project target (docs/performance.md#targets), or a check of the report's own (a goal, not a promise).", "");
  L.push("| target | from | measured | met |");
  L.push("| --- | --- | ---: | --- |");
  for (const t of report.targets) {
    const v = t.value === null ? "—" : t.unit === "×" ? times(t.value) : t.unit === "ms" ? `${ms(t.value)} ms` :
      t.unit === "× faster" ? `${t.value.toFixed(0)}× faster` : `${Number.isInteger(t.value) ? t.value : t.value.toFixed(1)} ${t.unit}`;
    L.push(`| ${t.target} | ${t.from} | ${v} | ${t.ok ? "yes" : `**no**${t.note ? ` (${t.note})` : ""}`} |`);
  }
  L.push("");
  return L.join("\n");
}

/** The worst-case suite (bench/speed/suites/worstcase.mjs, bench/native/matching.rs): per tier, each
 * shape's median in wasm and natively, and the slowest shape — the worst case of the tier. */
function worstCase(results) {
  const rows = results.filter((r) => r.work.startsWith("worst-"));
  if (rows.length === 0) return [];
  const L = ["## worst case", ""];
  L.push("One memo_replace on the adversarial shapes of bench/speed/lib/worst.mjs (old_text that matches nowhere, or in more places than the cap) (the same inputs natively, FNV-1a checked): for a no-match every step runs — exact, the fuzzy tiers, gutters, the near-miss search. Target: ≤ 250 ms in wasm up to 10 MB (docs/reliability.md §Matching time and read size).", "");
  L.push("| tier | shape | wasm median ms | wasm max ms | native median ms | wasm ÷ native | correct |");
  L.push("| --- | --- | ---: | ---: | ---: | ---: | --- |");
  const tiers = [...new Set(rows.map((r) => r.doc))];
  for (const tier of tiers) {
    const works = [...new Set(rows.filter((r) => r.doc === tier).map((r) => r.work))];
    let worstWasm = null;
    let worstNative = null;
    for (const work of works) {
      const w = rows.find((r) => r.doc === tier && r.work === work && r.side === "wasm");
      const n = rows.find((r) => r.doc === tier && r.work === work && r.side === "native");
      const ratio = w && n && w.correct !== false ? times(w.median_ms / n.median_ms) : "—";
      L.push(`| ${tier} | ${work.slice("worst-".length)} | ${ms(w?.median_ms)} | ${ms(w?.max_ms)} | ${ms(n?.median_ms)} | ${ratio} | ${w ? (w.correct === false ? `**WRONG** (${w.detail})` : "yes") : "—"} |`);
      if (w && w.correct !== false && (!worstWasm || w.median_ms > worstWasm.median_ms)) worstWasm = w;
      if (n && (!worstNative || n.median_ms > worstNative.median_ms)) worstNative = n;
    }
    const name = (r) => (r ? ` (${r.work.slice("worst-".length)})` : "");
    L.push(`| **${tier}** | **worst case** | **${ms(worstWasm?.median_ms)}**${name(worstWasm)} | ${ms(worstWasm?.max_ms)} | **${ms(worstNative?.median_ms)}**${name(worstNative)} | | |`);
  }
  L.push("");
  return L;
}

/** One row per work, document and JS peer: medians and the headline ratios. Matching works and
 * session works get a table each (their native side and limits differ). */
function summary(report, works) {
  const { results, ratios } = report;
  const L = ["## summary", ""];
  const cell = (r) => (!r ? "—" : r.correct === false ? `${ms(r.median_ms)} (wrong)` : ms(r.median_ms));
  const rat = (work, doc, a, b) => {
    const x = ratios.find((y) => y.work === work && y.doc === doc && y.a === a && y.b === b);
    return !x ? "—" : x.ratio === null ? `(${x.note})` : times(x.ratio);
  };
  const docsOf = (work) => [...new Set(results.filter((r) => r.work === work).map((r) => r.doc))].sort((a, b) => docOrder(report, a) - docOrder(report, b));
  const peersOf = (work, doc) => results.filter((r) => r.work === work && r.doc === doc && r.side === "js")
    .sort((a, b) => orderOf(IMPL_ORDER, a.impl) - orderOf(IMPL_ORDER, b.impl));

  const matching = works.filter((w) => MATCHING_WORKS.includes(w));
  if (matching.length) {
    L.push("Medians in ms; ratios are agentpad ÷ peer (< 1: agentpad is faster). native = `agentpad::matching::locate_layered` on a document's text (what the replace tools call).", "");
    L.push("| work | document | agentpad-wasm | native | memmem | JS peer | JS ms | wasm : JS | wasm : memmem | native : memmem |");
    L.push("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |");
    for (const work of matching) {
      for (const doc of docsOf(work)) {
        const wasm = find(results, work, doc, "agentpad-wasm");
        const nat = find(results, work, doc, "agentpad-locate");
        const mm = find(results, work, doc, "memmem");
        const peers = peersOf(work, doc);
        for (const p of peers.length ? peers : [null]) {
          L.push(`| ${work} | ${doc} | ${cell(wasm)} | ${cell(nat)} | ${cell(mm)} | ${p?.impl ?? "—"} | ${cell(p)} | ` +
            `${p ? rat(work, doc, "agentpad-wasm", p.impl) : "—"} | ${rat(work, doc, "agentpad-wasm", "memmem")} | ${rat(work, doc, "agentpad-locate", "memmem")} |`);
        }
      }
    }
    L.push("");
  }

  const session = works.filter((w) => SESSION_WORKS.includes(w));
  if (session.length) {
    L.push(`Edit sessions: medians in ms; ratios are agentpad ÷ peer (< 1: agentpad is faster). native = \`agentpad::Workspace::call\` (the same calls without the JS boundary). ` +
      `stage-26 is ${SESSION_CHANGES} calls: "per change" divides by ${SESSION_CHANGES}. commit-26 includes getting the string back (\`ws.text()\`). ` +
      `The ${SESSION_CHANGES} changes are ${SESSION_CHANGES} unique lines picked by the same rule on both sides (\`spreadNeedles\` / \`spread_needles\`; same lines: ${report.session_needles_match ? "checked" : "NOT CHECKED"}).`, "");
    L.push("| work | document | agentpad-wasm | per change | native | wasm : native | JS peer | JS ms | wasm : JS |");
    L.push("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |");
    for (const work of session) {
      for (const doc of docsOf(work)) {
        const wasm = find(results, work, doc, "agentpad-wasm");
        const nat = find(results, work, doc, "agentpad-call");
        const per = work === "stage-26" && wasm && wasm.correct !== false && wasm.median_ms !== null ? ms(wasm.median_ms / SESSION_CHANGES) : "—";
        const wn = !wasm || !nat ? "—" : wasm.correct === false || nat.correct === false || wasm.median_ms === null ? "(wrong)" : times(wasm.median_ms / nat.median_ms);
        const peers = peersOf(work, doc);
        for (const p of peers.length ? peers : [null]) {
          L.push(`| ${work} | ${doc} | ${cell(wasm)} | ${per} | ${cell(nat)} | ${wn} | ${p?.impl ?? "—"} | ${cell(p)} | ${p ? rat(work, doc, "agentpad-wasm", p.impl) : "—"} |`);
        }
      }
    }
    L.push("");
  }
  L.push(...firstSummary(report));
  L.push(...diffSummary(report, works));
  L.push(...coldSummary(report));
  L.push(...memorySummary(report));
  L.push(...versionsMemorySummary(report));
  return L;
}

/** bench/native/versions_memory.rs's readings (native-versions-memory.json); empty when it did not run. */
function nativeVersionsMemory(dir, since) {
  const file = path.join(dir, "native-versions-memory.json");
  return existsSync(file) && statSync(file).mtimeMs >= since ? readJson(file) : [];
}

/** What kept versions cost: bytes held after 40 one-line external changes and after 40 commits. */
function versionsMemorySummary(report) {
  const rows = report.versions_memory ?? [];
  if (!rows.length) return [];
  const mb = (x) => `${(x / 1e6).toFixed(1)} MB`;
  const L = ["Versions memory (bench/native/versions_memory.rs, native, a counting global allocator; MB = 10⁶ bytes): the bytes held after opening a " +
    `${mb(rows[0].doc_bytes)} document and after ${rows[0].changes} one-line changes, and the peak between.`, ""];
  L.push("| work | opened | after the changes | grown | peak | the versions' cost as counted (`versions_bytes`) | ms per change |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  const kb = (x) => (x == null ? "—" : `${(x / 1e3).toFixed(1)} KB`);
  for (const r of rows) L.push(`| ${r.work} | ${mb(r.opened_bytes)} | ${mb(r.after_bytes)} | **${mb(r.grown_bytes)}** | ${mb(r.peak_bytes)} | ${kb(r.versions_bytes)} | ${r.ms_per_change.toFixed(2)} |`);
  L.push("");
  return L;
}

/** The first call on a text just taken, against a warm call and the JS string baseline. */
function firstSummary(report) {
  const { results, ratios } = report;
  const rows = results.filter((r) => FIRST_WORKS.includes(r.work));
  if (!rows.length) return [];
  const cell = (r) => (!r ? "—" : r.correct === false ? `${ms(r.median_ms)} (wrong)` : `${ms(r.median_ms)} (min ${ms(r.min_ms)})`);
  const rat = (work, doc, b) => {
    const x = ratios.find((y) => y.work === work && y.doc === doc && y.a === "agentpad-wasm" && y.b === b);
    return !x ? "—" : x.ratio === null ? `(${x.note})` : times(x.ratio);
  };
  const L = ["First call on a text the workspace just took (the flat text search runs on is made with the text: at open from the string handed over, at commit from the old one and the changes): " +
    "ms, median (min). warm = agentpad's same call on a workspace that has answered one before; warm, evicted = the same with 64 MB touched before each run (the text out of the CPU caches); indexOf = the JS string baseline (uniqueness check + slice) on the same text; indexOf, evicted = the same after the same 64 MB. " +
    "Ratios are first ÷ peer (< 1: the first call is faster).", ""];
  L.push("| work | document | first call (wasm) | warm call (wasm) | warm, evicted (wasm) | indexOf (JS) | indexOf, evicted (JS) | first ÷ warm | first ÷ warm, evicted | first ÷ indexOf | first ÷ indexOf, evicted |");
  L.push("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const work of FIRST_WORKS) {
    for (const doc of [...new Set(rows.filter((r) => r.work === work).map((r) => r.doc))].sort((a, b) => docOrder(report, a) - docOrder(report, b))) {
      const get = (impl) => rows.find((r) => r.work === work && r.doc === doc && r.impl === impl);
      L.push(`| ${work} | ${doc} | ${cell(get("agentpad-wasm"))} | ${cell(get("warm-call"))} | ${cell(get("warm-evicted"))} | ${cell(get("indexOf"))} | ${cell(get("indexOf-evicted"))} | ` +
        `${rat(work, doc, "warm-call")} | ${rat(work, doc, "warm-evicted")} | ${rat(work, doc, "indexOf")} | ${rat(work, doc, "indexOf-evicted")} |`);
    }
  }
  L.push("");
  return L;
}

/** Cold start: one row per document (the suite's one), the three times and their parts. */
function coldSummary(report) {
  const { results } = report;
  const rows = results.filter((r) => COLD_WORKS.includes(r.work));
  if (!rows.length) return [];
  const L = [];
  const cell = (r) => (!r ? "—" : `${ms(r.median_ms)} (${ms(r.min_ms)}–${ms(r.max_ms)})${r.correct === false ? " **WRONG**" : ""}`);
  L.push(`Cold start: each run a fresh \`node\` process (the wasm read, compiled and instantiated for real); ms, median (min–max) of ${rows[0].runs} runs. ` +
    "Node's own start-up before the script is not counted (its median is in parts).", "");
  L.push("| document | implementation | import + create | first call | total | warm call | parts (medians) |");
  L.push("| --- | --- | ---: | ---: | ---: | ---: | --- |");
  for (const doc of [...new Set(rows.map((r) => r.doc))]) {
    for (const impl of [...new Set(rows.filter((r) => r.doc === doc).map((r) => r.impl))]) {
      const get = (w) => rows.find((r) => r.doc === doc && r.impl === impl && r.work === w);
      const p = get("cold-total")?.parts_ms ?? {};
      const parts = `node start-up ${ms(p.boot_ms)}, import ${ms(p.import_ms)}, create ${ms(p.create_ms)}, first call ${ms(p.first_call_ms)}, second call (compiles what the first did not reach) ${ms(p.second_call_ms)}, warm ${ms(p.warm_call_ms)}` +
        (p.total_cpu_ms === undefined ? "" : `, CPU time to the first answer (every thread) ${ms(p.total_cpu_ms)}${p.fastest_cpu_ms === undefined ? "" : ` (fastest ${ms(p.fastest_cpu_ms)})`}`);
      L.push(`| ${doc} | ${impl} | ${cell(get("cold-import-create"))} | ${cell(get("cold-first-call"))} | ${cell(get("cold-total"))} | ${cell(get("warm-read"))} | ${parts} |`);
    }
  }
  L.push("");
  for (const r of results.filter((x) => MCP_WORKS.includes(x.work))) {
    const p = r.parts_ms ?? {};
    L.push(`The MCP server (\`agentpad-mcp --dir\`, stdio), ${r.doc}: the first \`tools/call\` answered ${cell(r)} ms after the spawn (${r.runs} servers; medians: ` +
      `\`initialize\` answered ${ms(p.initialize_ms)}, the server's CPU time to the first answer ${ms(p.cpu_ms)}; Node's start-up and the MCP SDK's import counted).`, "");
  }
  const browser = results.filter((r) => BROWSER_WORKS.includes(r.work));
  if (browser.length) {
    L.push("Beside it, headless Chromium (the page served from 127.0.0.1; ms, median (min–max)):", "");
    L.push("| run | document | import + create + first call | parts (medians) |");
    L.push("| --- | --- | ---: | --- |");
    for (const r of browser) {
      const p = r.parts_ms ?? {};
      L.push(`| ${r.work} | ${r.doc} | ${cell(r)} | import ${ms(p.import_ms)}, create ${ms(p.create_ms)}, first call ${ms(p.first_call_ms)}, second call ${ms(p.second_call_ms)}, warm ${ms(p.warm_call_ms)} |`);
    }
    L.push("");
  }
  return L;
}

/** Memory: per document, agentpad's wasm linear memory against each JS peer's heap delta. */
function memorySummary(report) {
  const mem = report.memory ?? [];
  if (!mem.length) return [];
  const L = [];
  const mb = (x) => (x == null ? "—" : `${(x / 1e6).toFixed(1)} MB`);
  L.push("Memory: one fresh `node --expose-gc` process per document; MB = 10⁶ bytes. agentpad: the wasm linear memory (`memoryBytes()`) after loading, " +
    "after opening the document, after staging 26 changes (the high-water mark: wasm memory never shrinks; the document's JS string, which the caller and " +
    "`MemoryStorage` hold, not counted). JS: the heap delta of the same work (the text counted: it is the JS peers' only copy). Ratio = agentpad ÷ peer (< 1: agentpad uses less).", "");
  L.push("| document | agentpad: loaded / opened / 26 staged | agentpad JS heap besides the text | js-drafts (text + 26 drafts) | js-edits (text + edits + 1 draft) | agentpad ÷ js-drafts | agentpad ÷ js-edits |");
  L.push("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const m of mem) {
    const get = (impl) => m.rows.find((r) => r.impl === impl);
    const w = get("agentpad-wasm");
    const wrong = (r) => (r?.correct === false ? " **WRONG**" : "");
    const r = (impl) => (m.ratios[impl] == null ? "—" : times(m.ratios[impl]));
    L.push(`| ${m.doc} | ${w ? `${mb(w.loaded_bytes)} / ${mb(w.opened_bytes)} / **${mb(w.staged_bytes)}**${wrong(w)}` : "—"} | ${mb(w?.js_heap_bytes)} | ` +
      `${mb(get("js-drafts")?.bytes)}${wrong(get("js-drafts"))} | ${mb(get("js-edits")?.bytes)}${wrong(get("js-edits"))} | ${r("js-drafts")} | ${r("js-edits")} |`);
  }
  L.push("");
  for (const [impl, text] of Object.entries(MEMORY_IMPL_TEXT)) L.push(`- **${impl}** (memory): ${text}`);
  L.push("");
  return L;
}

/** The diff suite: per edit set and document, agentpad's anchor diff and memo_diff against
 * createTwoFilesPatch, diff-match-patch and the native limit; then the patches' shapes. */
function diffSummary(report, works) {
  const { results, ratios } = report;
  const diffWorks = works.filter((w) => DIFF_WORKS.includes(w) && w !== "window");
  if (!diffWorks.length) return [];
  const L = [];
  const cell = (r) => (!r ? "—" : r.median_ms === null ? "(threw)" :
    `${ms(r.median_ms)}${r.runs < 7 ? ` (${r.runs} runs)` : ""}${r.correct === false ? " **WRONG**" : r.minimal === false && r.impl !== "agentpad-wasm-200ms" ? " (not minimal)" : ""}`);
  const shape = (r) => (!r ? "—" : r.correct === false ? "**WRONG**" : r.hunks == null ? "—" : `${r.hunks} / −${r.removed} +${r.added}`);
  const faster = (work, doc, a, b) => {
    const x = ratios.find((y) => y.work === work && y.doc === doc && y.a === a && y.b === b);
    return !x ? "—" : x.ratio === null ? `(${x.note})` : `${(1 / x.ratio).toFixed(1 / x.ratio >= 10 ? 0 : 1)}×${x.note ? "*" : ""}`;
  };
  const over = (work, doc, a, b) => {
    const x = ratios.find((y) => y.work === work && y.doc === doc && y.a === a && y.b === b);
    return !x ? "—" : x.ratio === null ? `(${x.note})` : times(x.ratio);
  };
  L.push("Unified diffs: medians in ms. anchor = agentpad-wasm, `ws.liveContext({ anchor: \"origin\", diffDeadlineMs: 60000, … })`, the whole call " +
    "(its fixed part without a diff is the window column below); memo_diff = `ws.call(\"memo_diff\")` with the edit staged as pending changes (1 and 10 lines only: 1 % needs more than 26 changes); " +
    "diff = `diff.createTwoFilesPatch` (context 3); dmp = `diff-match-patch` line mode turned into a unified diff; native = agentpad's `ChangeSet::diff` + `preview::render` and `similar`'s unified diff (criterion). " +
    "\"× faster\" = peer ÷ agentpad (> 1: agentpad is faster; * = one of the two patches is not minimal); \"anchor ÷ similar\" = the wasm anchor diff against the native limit. " +
    "Every patch is checked (untimed): `applyPatch` from `diff` and a strict applier must both give the new text (native: the strict applier, in Rust); a WRONG one never becomes a ratio.", "");
  L.push("| work | document | anchor | memo_diff | diff | dmp | native agentpad | similar | diff ÷ anchor | diff ÷ memo_diff | dmp ÷ anchor | anchor ÷ similar | native agentpad ÷ similar |");
  L.push("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  const docs = [...new Set(results.filter((r) => diffWorks.includes(r.work)).map((r) => r.doc))].sort((a, b) => workDocOrder(report, "window", a) - workDocOrder(report, "window", b));
  const rowsOf = [];
  for (const work of diffWorks) {
    for (const doc of docs) {
      const get = (impl) => find(results, work, doc, impl);
      if (!get("agentpad-wasm") && !get("createTwoFilesPatch") && !get("similar")) continue;
      rowsOf.push([work, doc, get]);
      L.push(`| ${work} | ${doc} | ${cell(get("agentpad-wasm"))} | ${cell(get("agentpad-memo_diff"))} | ${cell(get("createTwoFilesPatch"))} | ${cell(get("diff-match-patch"))} | ` +
        `${cell(get("agentpad-diff"))} | ${cell(get("similar"))} | ${faster(work, doc, "agentpad-wasm", "createTwoFilesPatch")} | ${faster(work, doc, "agentpad-memo_diff", "createTwoFilesPatch")} | ` +
        `${faster(work, doc, "agentpad-wasm", "diff-match-patch")} | ${over(work, doc, "agentpad-wasm", "similar")} | ${over(work, doc, "agentpad-diff", "similar")} |`);
    }
  }
  L.push("");
  L.push("Shapes of the patches (hunks / removed and added lines; the edit sets' minimal counts are in report.json), the live context's fixed part, and the anchor diff with the default 200 ms deadline: " +
    "its median, in how many calls (warm-up included) the deadline cut the diff short (coarse: the patch is correct but not minimal), and the shape of the first coarse patch.", "");
  L.push("| work | document | anchor | memo_diff | diff | dmp | native agentpad | similar | window ms | 200 ms | coarse calls | coarse shape |");
  L.push("| --- | --- | --- | --- | --- | --- | --- | --- | ---: | ---: | ---: | --- |");
  for (const [work, doc, get] of rowsOf) {
    const dflt = get("agentpad-wasm-200ms");
    const win = find(results, "window", doc, "agentpad-wasm");
    const coarse = !dflt || dflt.calls == null ? "—" : `${dflt.coarse_calls} of ${dflt.calls}`;
    L.push(`| ${work} | ${doc} | ${shape(get("agentpad-wasm"))} | ${shape(get("agentpad-memo_diff"))} | ${shape(get("createTwoFilesPatch"))} | ${shape(get("diff-match-patch"))} | ` +
      `${shape(get("agentpad-diff"))} | ${shape(get("similar"))} | ${cell(win)} | ${cell(dflt)} | ${coarse} | ${shape(dflt?.coarse_shape)} |`);
  }
  L.push("");
  return L;
}

function docOrder(report, name) {
  const i = report.docs.findIndex((d) => d.name === name);
  if (i >= 0) return i;
  const j = (report.diff_docs ?? []).findIndex((d) => d.name === name);
  return j < 0 ? 1e9 : report.docs.length + j;
}

/** The diff suite's works list their documents in the suite's order (by kind, small to large). */
function workDocOrder(report, work, name) {
  if (!DIFF_WORKS.includes(work)) return docOrder(report, name);
  const j = (report.diff_docs ?? []).findIndex((d) => d.name === name);
  return j < 0 ? 1e9 : j;
}

// ------------------------------------------------------------------ main ---

const opts = parseArgs(process.argv.slice(2));
const jsFile = path.join(opts.out, "js-results.json");
if (!existsSync(jsFile)) die(`${jsFile} is missing: run node bench/speed/run.mjs first`);
const js = readJson(jsFile);

// The same documents on both sides, or the numbers do not compare.
const native = nativeDocs(opts.out);
const criterion = criterionResults(opts.criterion, opts.since);
// The native diff benches: correctness and shape of every native patch, the pairs timed outside
// criterion, and the edited texts' hashes.
const ndiff = nativeDiff(opts.out, opts.since);
criterion.push(...ndiff.slow);
for (const r of criterion) {
  const c = ndiff.checks.find((x) => x.work === r.work && x.doc === r.doc && x.impl === r.impl);
  if (!c) continue;
  Object.assign(r, { correct: c.correct, hunks: c.hunks, removed: c.removed, added: c.added, minimal: c.minimal, detail: `${r.detail}; ${c.detail}` });
}
// Retrieval rows are scores, not times: their own section (bench/speed/suites/retrieval.mjs).
const retrieval = js.results.filter((r) => r.suite === "retrieval");
const jsTiming = js.results.filter((r) => r.suite !== "memory" && r.suite !== "retrieval");
const memory = js.results.filter((r) => r.suite === "memory");
const diffDocs = [...new Map(jsTiming.filter((r) => r.doc_fingerprint).map((r) => [r.doc, r.doc_fingerprint])).values()];
let docsMatch = true;
if (criterion.length > 0) {
  for (const d of js.docs) {
    const n = native.get(d.name);
    if (!n) die(`the native benches did not write a fingerprint for ${d.name} (${opts.out}/native-docs-*.json); were they run with the same AGENTPAD_BENCH_DOCS?`);
    if (n.bytes !== d.bytes || n.lines !== d.lines || n.fnv1a32 !== d.fnv1a32) {
      die(`the Rust and JS generators produced different ${d.name}: native ${JSON.stringify(n)}, js ${JSON.stringify(d)} — bench/native/common/docs.rs and bench/speed/lib/docs.mjs must stay in step`);
    }
  }
  // The diff suite's documents and edited texts, where the native diff benches ran them.
  for (const d of diffDocs) {
    const n = native.get(d.name);
    if (n && (n.bytes !== d.bytes || n.lines !== d.lines || n.fnv1a32 !== d.fnv1a32)) {
      die(`the Rust and JS generators produced different ${d.name}: native ${JSON.stringify(n)}, js ${JSON.stringify(d)} — bench/native/common/docs.rs and bench/speed/lib/docs.mjs must stay in step`);
    }
  }
  for (const e of ndiff.edits) {
    const j = jsTiming.find((r) => r.doc === e.doc && r.work === e.work && r.new_fnv1a32);
    if (j && j.new_fnv1a32 !== e.new_fnv1a32) {
      die(`the Rust and JS diff benches edited ${e.doc} differently for ${e.work}: native ${e.new_fnv1a32}, js ${j.new_fnv1a32} — bench/native/common/edits.rs and EDITS in bench/speed/suites/diff.mjs must stay in step`);
    }
  }
  const jsDocs = new Set([...js.docs, ...diffDocs].map((d) => d.name));
  const extra = [...new Set(criterion.map((r) => r.doc))].filter((d) => !jsDocs.has(d));
  if (extra.length) console.error(`report: note: criterion results for ${extra.join(", ")} have no JS counterpart in this run`);
} else {
  docsMatch = false;
  console.error(`report: warning: no criterion results in ${opts.criterion}${opts.since ? " from this run" : ""}; the native columns are empty`);
}

// The worst-case shapes must be the same inputs on both sides (bench/native/common/worst.rs and
// bench/speed/lib/worst.mjs).
const nativeWorstFile = path.join(opts.out, "native-worst.json");
if (existsSync(nativeWorstFile) && criterion.some((r) => r.work.startsWith("worst-"))) {
  for (const n of readJson(nativeWorstFile)) {
    const j = js.results.find((r) => r.work === n.work && r.doc === n.doc && r.shape_fnv1a32);
    if (j && j.shape_fnv1a32 !== n.fnv1a32) {
      die(`the Rust and JS sides built different ${n.work} at ${n.doc}: native ${n.fnv1a32}, js ${j.shape_fnv1a32} — bench/native/common/worst.rs and bench/speed/lib/worst.mjs must stay in step`);
    }
  }
}

// The session benches must stage the same 26 lines on both sides (docs.spreadNeedles / spread_needles).
const nativeNeedlesFile = path.join(opts.out, "native-session-needles.json");
let needlesMatch = false;
if (criterion.some((r) => SESSION_WORKS.includes(r.work))) {
  if (!existsSync(nativeNeedlesFile)) die(`${nativeNeedlesFile} is missing: bench/native/session.rs writes it`);
  const nativeNeedles = new Map(readJson(nativeNeedlesFile).map((d) => [d.name, d]));
  needlesMatch = true;
  for (const r of js.results) {
    if (!r.needles_fnv1a32) continue;
    const n = nativeNeedles.get(r.doc);
    if (!n) needlesMatch = false;
    else if (n.fnv1a32 !== r.needles_fnv1a32) {
      die(`the Rust and JS sides picked different session needles for ${r.doc}: native ${n.fnv1a32}, js ${r.needles_fnv1a32} — spread_needles (bench/native/common/docs.rs) and spreadNeedles (bench/speed/lib/docs.mjs) must stay in step`);
    }
  }
}

let wasm = null;
if (existsSync(opts.wasm)) {
  const bytes = readFileSync(opts.wasm);
  wasm = { path: path.relative(ROOT, opts.wasm), bytes: bytes.length, gzip_bytes: gzipSync(bytes, { level: 9 }).length };
  // The browser entry's pair beside it (./build.sh pack writes both).
  const pair = { core: "agentpad_core.wasm", rest: "agentpad_rest.wasm" };
  const files = Object.fromEntries(Object.entries(pair).map(([k, f]) => [k, path.join(path.dirname(opts.wasm), f)]));
  if (Object.values(files).every((f) => existsSync(f))) {
    wasm.split = {};
    for (const [k, f] of Object.entries(files)) {
      const b = readFileSync(f);
      wasm.split[k] = { path: path.relative(ROOT, f), bytes: b.length, gzip_bytes: gzipSync(b, { level: 9 }).length };
    }
  }
} else {
  console.error(`report: warning: ${opts.wasm} not found; no size`);
}

let wasmSize = null;
if (opts.size && existsSync(opts.size)) {
  const r = JSON.parse(readFileSync(opts.size, "utf8"));
  const top = (xs) => xs.slice(0, 25).map((x) => ({ ...x, share: Number(x.share.toFixed(4)) }));
  wasmSize = { shipped: r.shipped, names: r.names && { file: r.names.file, code_bytes: r.names.code_bytes, functions: r.names.functions, sections: r.names.sections, crates: top(r.names.crates), modules: top(r.names.modules) } };
}

const results = [...jsTiming, ...criterion];
const ratios = pairRatios(results);
const report = {
  generated: new Date().toISOString(),
  meta: { ...js.meta, rustc: tryRun("rustc", ["--version"]) },
  docs: js.docs,
  diff_docs: diffDocs,
  docs_match: docsMatch,
  diff_native: { docs: diffDocs.filter((d) => native.has(d.name)).map((d) => d.name), edits_checked: ndiff.edits.length },
  memory: memoryReport(memory),
  versions_memory: nativeVersionsMemory(opts.out, opts.since),
  session_needles_match: needlesMatch,
  retrieval,
  wasm,
  wasm_size: wasmSize,
  results,
  ratios,
};
report.targets = targets(results, ratios, wasm);

writeFileSync(path.join(opts.out, "report.json"), JSON.stringify(report, null, 2) + "\n");
const md = markdown(report) + (retrieval.length ? `\n\n${retrievalMarkdown(retrieval)}` : "");
writeFileSync(path.join(opts.out, "report.md"), md + "\n");
console.log(md);
