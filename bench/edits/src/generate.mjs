// Seeded case generator: `node src/generate.mjs --version v1 --seed 20261125 [--check]`.
// Writes cases/<version>/<category>.json and MANIFEST.json. It refuses to overwrite a frozen
// version unless --force is given (a new version goes into a new folder); --check regenerates in
// memory and compares with the committed files, so anyone can see the cases come from this code.
// It never imports agentpad (test/generator.test.mjs checks the import graph).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CASES_DIR, docsDir, listDocs, manifestOf, readDoc, validateCase } from "./cases.mjs";
import { CATEGORIES, generators } from "./gen/categories.mjs";
import { CATEGORIES_V2, generatorsV2 } from "./gen/categories-v2.mjs";
import { HANDWRITTEN } from "./gen/handwritten.mjs";
import { allIndexes, rng } from "./text.mjs";

export const GENERATOR_VERSION = "editbench-gen/1";

function handCase(h, i) {
  const base = {
    id: `${h.category}-h${String(i + 1).padStart(2, "0")}`,
    category: h.category,
    title: h.title,
    patterns: CATEGORIES[h.category].patterns,
    source: h.issue,
    doc: null,
    doc_name: h.doc_name,
    doc_text: h.doc_text,
    attempt: { old_text: h.old, new_text: h.new },
    must_refuse: h.must_refuse === true,
    perturbation: { model: "hand-written" },
  };
  if (h.exact_ok) base.exact_ok = true;
  if (h.disambiguation) base.disambiguation = h.disambiguation;
  if (h.replace_all) Object.assign(base.attempt, { replace_all: true, expected_occurrences: h.expected_occurrences });
  if (h.must_refuse) return { ...base, target: [], expected: [] };
  if (h.expect_all) {
    const [find, repl] = h.expect_all;
    const at = allIndexes(h.doc_text, find);
    return { ...base, target: at.map((s) => ({ start: s, end: s + find.length })), expected: at.map((s) => ({ start: s, end: s + find.length, text: repl })) };
  }
  const [find, repl, nth = 0] = h.expect;
  const at = allIndexes(h.doc_text, find)[nth];
  if (at === undefined) throw new Error(`${base.id}: ${JSON.stringify(find)} not found (occurrence ${nth})`);
  return { ...base, target: [{ start: at, end: at + find.length }], expected: [{ start: at, end: at + find.length, text: repl }] };
}

/**
 * What each version is made of. v1 (dev) is the development set: its documents in docs/ and the
 * hand-written cases. v2 (test) was written after the engine freeze: its own documents
 * (docs-v2/), no hand-written case (those reconstruct v1's reports), more categories.
 */
export const VERSIONS = {
  v1: { categories: CATEGORIES, gens: (docs) => generators(docs), hand: true, seed: 20261125 },
  v2: { categories: CATEGORIES_V2, gens: (docs) => generatorsV2(docs, { cjkPool: ["zh-authored-faq.md", "ja-authored-changelog.md", "md-ip-address-readme.md"] }), hand: false, docDir: "docs-v2", seed: 20261202 },
  // Not drawn: failed calls taken from a public transcript by tools/real-failures.py, which also
  // checks them (docs/editbench.md#real-failures).
  real: { categories: { RF: { n: 9, patterns: [], title: "real failed edits from a public agent transcript (the agent's own retry is the intent)" } }, docDir: "docs-real", built: "tools/real-failures.py" },
};

/** Every case of the version, by category, validated. */
export function generate(seed, version = "v1") {
  const spec0 = VERSIONS[version];
  const dir = docsDir(version);
  const names = listDocs(dir);
  const docs = Object.fromEntries(names.map((n) => [n, readDoc(n, dir)]));
  const gens = spec0.gens(docs);
  const hand = spec0.hand ? HANDWRITTEN.map(handCase) : [];
  const out = {};
  for (const [cat, spec] of Object.entries(spec0.categories)) {
    const mine = hand.filter((c) => c.category === cat);
    const list = [...mine];
    const r = rng(seed ^ (cat.charCodeAt(0) * 0x9e3779b1));
    const seen = new Set();
    let draws = 0;
    while (list.length < spec.n) {
      if (++draws > 5000) throw new Error(`category ${cat}: could not draw ${spec.n} cases`);
      const drawSeed = Math.floor(r.next() * 2 ** 31);
      const body = gens[cat](rng(drawSeed));
      if (!body) continue;
      const key = `${body.doc}|${body.attempt.old_text}`;
      if (seen.has(key)) continue;
      const c = {
        id: `${cat}-${String(list.length - mine.length + 1).padStart(3, "0")}`,
        category: cat,
        title: spec.title,
        patterns: spec.patterns,
        source: "generated",
        ...(spec0.docDir ? { doc_dir: spec0.docDir } : {}),
        ...body,
        perturbation: { ...body.perturbation, seed: drawSeed },
      };
      if (validateCase(c).length) continue;
      seen.add(key);
      list.push(c);
    }
    for (const c of mine) {
      const problems = validateCase(c);
      if (problems.length) throw new Error(`${c.id}: ${problems.join("; ")}`);
    }
    out[cat] = list;
  }
  return out;
}

function main() {
  const args = process.argv.slice(2);
  const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
  const version = opt("--version", "v1");
  if (!VERSIONS[version].gens) {
    console.error(`cases/${version} is not generated: ${VERSIONS[version].built} builds and checks it`);
    process.exit(1);
  }
  const seed = Number(opt("--seed", String(VERSIONS[version].seed)));
  const dir = CASES_DIR(version);
  const byCat = generate(seed, version);
  const files = Object.fromEntries(Object.entries(byCat).map(([cat, list]) => [`${cat}.json`, JSON.stringify(list, null, 1) + "\n"]));
  if (args.includes("--check")) {
    const differing = Object.entries(files).filter(([f, text]) => !existsSync(join(dir, f)) || readFileSync(join(dir, f), "utf8") !== text);
    if (differing.length) {
      console.error(`generator output differs from cases/${version}: ${differing.map(([f]) => f).join(", ")}`);
      process.exit(1);
    }
    console.log(`cases/${version}: the generator reproduces all ${Object.keys(files).length} files`);
    return;
  }
  if (existsSync(join(dir, "MANIFEST.json")) && !args.includes("--force")) {
    console.error(`cases/${version} is frozen (MANIFEST.json exists): write a new version instead`);
    process.exit(1);
  }
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  const total = Object.values(byCat).reduce((n, l) => n + l.length, 0);
  const manifest = { version, generator: GENERATOR_VERSION, seed, cases: total, frozen_at: new Date().toISOString(), ...manifestOf(version) };
  writeFileSync(join(dir, "MANIFEST.json"), JSON.stringify(manifest, null, 1) + "\n");
  for (const [cat, list] of Object.entries(byCat)) console.log(`${cat} ${list.length} (${list.filter((c) => c.source !== "generated").length} hand-written)`);
  console.log(`${total} cases in cases/${version}`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main();
