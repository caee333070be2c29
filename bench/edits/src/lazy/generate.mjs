// Lazy snippets: the sketch a model sends a "fast apply" model (Cursor, Morph, Relace) — a whole
// function or file with placeholder lines (`// ... existing code ...`) between 2–5 changed
// regions. `node src/lazy/generate.mjs [--split lazy-dev|lazy-test] [--check]`.
// Two splits, each from its own document pool and seed: lazy-dev (docs/, the v1 pool) may guide
// the engine; lazy-test (docs-v2/) never does. Cases are written to cases/<split>/cases.json with
// a MANIFEST.json; a frozen split is never overwritten (--check regenerates in memory and
// compares). This module never imports agentpad (test/lazy.test.mjs walks its import graph).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CASES_DIR, ROOT, listDocs, readDoc } from "../cases.mjs";
import { applyOp, langOf, makeOp } from "../gen/ops.mjs";
import { count, leadingWs, lineTable, rng, sha256 } from "../text.mjs";

export const LAZY_GENERATOR_VERSION = "editbench-lazy-gen/1";

/** The two splits: different documents (v1's pool and v2's), different seeds. */
export const LAZY_SPLITS = {
  "lazy-dev": { docDir: "docs", seed: 20261205, n: 60 },
  "lazy-test": { docDir: "docs-v2", seed: 20261206, n: 80 },
};

/**
 * Placeholder lines as models write them for an apply model, by comment family. Sources:
 * Cursor's and Morph's `// ... existing code ...`; Relace's prompt guide (`// ... rest of code
 * ...`, `// ... keep existing code ...`, `// ... code remains the same`); Continue's blog on lazy
 * models (`// ... keep rest of code unchanged`); a Void editor issue (`// ... rest of file`);
 * the bare `...`, a C block comment holding only an ellipsis, `# ... rest of the file unchanged`
 * and `// rest of function` seen in chat answers. docs/editbench.md#lazy-snippets lists the URLs.
 */
export const MARKERS = {
  slash: ["// ... existing code ...", "// ... rest of code ...", "// ... keep existing code ...", "// ... code remains the same", "// ... keep rest of code unchanged", "// ... rest of file", "// rest of function", "// ...", "/* ... */", "..."],
  hash: ["# ... existing code ...", "# ... rest of the file unchanged", "# ... rest of code ...", "# ... keep existing code ...", "# rest of function", "# ...", "..."],
  markup: ["<!-- ... -->", "<!-- ... existing content ... -->", "<!-- rest of the file unchanged -->", "...", "[...]"],
};

const FAMILY = { js: "slash", rs: "slash", py: "hash", yml: "hash", make: "hash", md: "markup", html: "markup" };

/** Context lines a model keeps on each side of a change: 0 (15 %), 1 (40 %), 2 (30 %), 3 (15 %). */
function contextLines(r) {
  const x = r.next();
  return x < 0.15 ? 0 : x < 0.55 ? 1 : x < 0.85 ? 2 : 3;
}

/** The documents a split draws from: LF files in a language with a placeholder family. */
export function poolOf(split) {
  const dir = join(ROOT, LAZY_SPLITS[split].docDir);
  return listDocs(dir).filter((n) => FAMILY[langOf(n)] && !readDoc(n, dir).includes("\r"));
}

/**
 * One case body or null. The region is a block of 20–120 lines, whole top-level items (70 %), or
 * the whole file when it has at most 600 lines (30 %; its first and last lines are then not
 * shown unless a change is near, so the sketch may start and end with a placeholder). k changes
 * (2–5) are ops at least 8 lines apart; each is shown with 0–3 context lines on each side (at
 * least one for a deleted line, as the apply models' guides ask), a block's first and last lines
 * are shown, and every other run of lines becomes one placeholder line. The expected document
 * is the region with all k ops applied.
 */
export function drawCase(r, split, docs) {
  const names = Object.keys(docs);
  const doc = r.pick(names);
  const text = docs[doc];
  const lang = langOf(doc);
  const table = lineTable(text);
  const nonBlank = table.map((l, i) => i).filter((i) => table[i].text.trim() !== "");
  if (nonBlank.length < 24) return null;
  const whole = table.length <= 600 && r.chance(0.3);
  let first;
  let last;
  if (whole) {
    first = nonBlank[0];
    last = nonBlank[nonBlank.length - 1];
  } else {
    // A whole top-level item or a run of them, as a model sends a function or a section: it
    // starts on an unindented line (a heading in Markdown) and ends before another one.
    const top = nonBlank.filter((i) => (lang === "md" ? /^#/.test(table[i].text) : !/^[\s})\]]/.test(table[i].text)));
    const starts = top.filter((s) => top.some((b) => b - s >= 20 && b - s <= 120));
    if (starts.length === 0) return null;
    first = r.pick(starts);
    last = r.pick(top.filter((b) => b - first >= 20 && b - first <= 120)) - 1;
    while (last > first && table[last].text.trim() === "") last--;
  }
  const lines = table.slice(first, last + 1).map((l) => l.text);
  const n = lines.length;
  if (n < 20 || lines.some((l) => l.length > 160)) return null;
  const region = { start: table[first].start, end: table[last].end };
  const regionText = text.slice(region.start, region.end);
  if (count(text, regionText) !== 1) return null;

  // k ops, spread out: each at least 8 lines from the others, never on a block's edge lines.
  const k = r.int(2, 5);
  const ops = [];
  const edge = whole ? 0 : 1;
  for (let tries = 0; ops.length < k && tries < 60; tries++) {
    const avoid = [...Array(n).keys()].filter((i) => i < edge || i > n - 1 - edge || ops.some((o) => Math.abs(o.line - i) < 8));
    const op = makeOp(lines, lang, r, { avoid });
    if (op && !avoid.includes(op.line)) ops.push(op);
  }
  if (ops.length < 2) return null;
  ops.sort((a, b) => a.line - b.line);

  // What each old line becomes; ops applied from the bottom so indexes stay valid.
  const becomes = lines.map((l) => [l]);
  for (const op of ops) {
    const out = applyOp(op, lines);
    if (op.kind === "replace") becomes[op.line] = [out[op.line]];
    else if (op.kind === "insert") becomes[op.line] = [lines[op.line], out[op.line + 1]];
    else becomes[op.line] = [];
  }
  const expectedLines = becomes.flat();

  // Which old lines the sketch shows.
  const shown = new Array(n).fill(false);
  if (!whole) {
    const head = r.int(1, 2);
    const tail = r.int(1, 2);
    for (let i = 0; i < head; i++) shown[i] = true;
    for (let i = n - tail; i < n; i++) shown[i] = true;
  }
  for (const op of ops) {
    const min = op.kind === "delete" ? 1 : 0;
    const before = Math.max(min, contextLines(r));
    const after = Math.max(min, contextLines(r));
    for (let i = Math.max(0, op.line - before); i <= Math.min(n - 1, op.line + after); i++) shown[i] = true;
  }
  // A run of blank lines alone is shown (nobody writes a placeholder for a blank line).
  const runs = [];
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && shown[j] === shown[i]) j++;
    runs.push({ from: i, to: j, shown: shown[i] });
    i = j;
  }
  for (const run of runs) if (!run.shown && lines.slice(run.from, run.to).every((l) => l.trim() === "")) run.shown = true;

  const family = FAMILY[lang];
  const style = r.pick(MARKERS[family]);
  // A region holding the placeholder's own text as a line (Python's `...`) would make the case
  // ambiguous to its own checker: drawn again.
  if (lines.some((l) => l.trim() === style)) return null;
  const flush = r.chance(0.35);
  const markerFor = (run) => {
    const near = lines.slice(run.from, run.to).find((l) => l.trim() !== "") ?? "";
    return (flush ? "" : leadingWs(near)) + style;
  };
  const oldSketch = [];
  const newSketch = [];
  const elided = [];
  let changedWindows = 0;
  let windowHasChange = false;
  for (const run of runs) {
    if (run.shown) {
      for (let i = run.from; i < run.to; i++) {
        oldSketch.push(lines[i]);
        newSketch.push(...becomes[i]);
        if (ops.some((o) => o.line === i)) windowHasChange = true;
      }
    } else {
      if (windowHasChange) changedWindows++;
      windowHasChange = false;
      const m = markerFor(run);
      oldSketch.push(m);
      newSketch.push(m);
      elided.push({ from: run.from, to: run.to });
    }
  }
  if (windowHasChange) changedWindows++;
  // The changes must sit in 2–5 windows separated by placeholders; a sketch without a
  // placeholder is a whole-block edit, not a lazy one.
  if (changedWindows < 2 || elided.length === 0) return null;
  const oldText = oldSketch.join("\n");
  const newText = newSketch.join("\n");
  if (count(text, oldText) !== 0 || oldText === newText) return null;
  return {
    doc,
    doc_dir: LAZY_SPLITS[split].docDir,
    lang,
    scope: whole ? "file" : "block",
    region_lines: n,
    file_lines: table.length,
    regions: changedWindows,
    ops: ops.map((o) => o.kind),
    marker: style,
    marker_indent: flush ? "flush" : "indented",
    elided,
    target: [region],
    expected: [{ ...region, text: expectedLines.join("\n") }],
    update: newText,
    attempts: {
      sketch: { old_text: oldText, new_text: newText },
      lazy: { old_text: regionText, new_text: newText },
    },
    must_refuse: false,
  };
}

/** Every case of a split, in order (deterministic for the split's seed). */
export function generateLazy(split, seed = LAZY_SPLITS[split].seed) {
  const spec = LAZY_SPLITS[split];
  const dir = join(ROOT, spec.docDir);
  const docs = Object.fromEntries(poolOf(split).map((n) => [n, readDoc(n, dir)]));
  const r = rng(seed);
  const out = [];
  const seen = new Set();
  for (let draws = 0; out.length < spec.n; draws++) {
    if (draws > 20000) throw new Error(`${split}: could not draw ${spec.n} cases`);
    const drawSeed = Math.floor(r.next() * 2 ** 31);
    const body = drawCase(rng(drawSeed), split, docs);
    if (!body) continue;
    const key = `${body.doc}|${body.target[0].start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ id: `LZ${split === "lazy-test" ? "T" : "D"}-${String(out.length + 1).padStart(3, "0")}`, split, source: "generated", ...body, perturbation: { model: "lazy-sketch", seed: drawSeed } });
  }
  return out;
}

/** sha256 of the split's case file and of every document of its pool. */
export function lazyManifestOf(split, dir = CASES_DIR(split)) {
  const docDir = join(ROOT, LAZY_SPLITS[split].docDir);
  const docs = Object.fromEntries(poolOf(split).map((d) => [d, sha256(readFileSync(join(docDir, d)))]));
  return { files: { "cases.json": sha256(readFileSync(join(dir, "cases.json"))) }, docs };
}

/** The split's cases after checking them against MANIFEST.json (throws when anything differs). */
export function loadLazy(split, dir = CASES_DIR(split)) {
  const frozen = JSON.parse(readFileSync(join(dir, "MANIFEST.json"), "utf8"));
  const now = lazyManifestOf(split, dir);
  const diffs = [];
  for (const kind of ["files", "docs"]) {
    for (const name of new Set([...Object.keys(frozen[kind]), ...Object.keys(now[kind])])) if (frozen[kind][name] !== now[kind][name]) diffs.push(`${kind}/${name}`);
  }
  if (diffs.length) throw new Error(`cases/${split} differ from their MANIFEST.json: ${diffs.join(", ")}`);
  return JSON.parse(readFileSync(join(dir, "cases.json"), "utf8"));
}

function main() {
  const args = process.argv.slice(2);
  const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
  const splits = args.includes("--split") ? [opt("--split")] : Object.keys(LAZY_SPLITS);
  for (const split of splits) {
    const dir = CASES_DIR(split);
    const text = JSON.stringify(generateLazy(split), null, 1) + "\n";
    if (args.includes("--check")) {
      if (!existsSync(join(dir, "cases.json")) || readFileSync(join(dir, "cases.json"), "utf8") !== text) {
        console.error(`generator output differs from cases/${split}/cases.json`);
        process.exit(1);
      }
      console.log(`cases/${split}: the generator reproduces cases.json`);
      continue;
    }
    if (existsSync(join(dir, "MANIFEST.json")) && !args.includes("--force")) {
      console.error(`cases/${split} is frozen (MANIFEST.json exists)`);
      process.exit(1);
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "cases.json"), text);
    const cases = JSON.parse(text);
    const manifest = { split, generator: LAZY_GENERATOR_VERSION, seed: LAZY_SPLITS[split].seed, cases: cases.length, frozen_at: new Date().toISOString(), ...lazyManifestOf(split) };
    writeFileSync(join(dir, "MANIFEST.json"), JSON.stringify(manifest, null, 1) + "\n");
    console.log(`${split}: ${cases.length} cases in cases/${split}`);
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main();
