// The cases: generated without agentpad, reproducible from the seed, valid, frozen.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { describe, it } from "node:test";
import { CASES_DIR, DOCS_DIR, ROOT, listDocs, loadCases, validateCase, verifyManifest } from "../src/cases.mjs";
import { generate } from "../src/generate.mjs";
import { sha256 } from "../src/text.mjs";

/** Every module reachable from `file` by static or dynamic import: [{ from, spec }]. */
function importGraph(file, seen = new Map()) {
  if (seen.has(file)) return seen;
  const src = readFileSync(file, "utf8");
  const specs = [...src.matchAll(/(?:import|export)[^'"`;]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g)].map((m) => m[1] ?? m[2] ?? m[3])
    // Text inside the hand-written documents (e.g. a Dart `import 'dart:io';`) is not a module.
    .filter((s) => !/^[a-z]+:/.test(s) || s.startsWith("node:"));
  seen.set(file, specs);
  for (const s of specs) if (s.startsWith(".")) importGraph(resolve(dirname(file), s), seen);
  return seen;
}

describe("generator", () => {
  it("never imports agentpad, directly or through another module", () => {
    const graph = importGraph(join(ROOT, "src", "generate.mjs"));
    assert.ok(graph.size >= 5, `walked ${graph.size} modules`);
    for (const [file, specs] of graph) {
      for (const s of specs) {
        assert.doesNotMatch(s, /agentpad|www|tools\.mjs|agent\.mjs/, `${file} imports ${s}`);
        if (!s.startsWith(".")) assert.match(s, /^node:/, `${file} imports the package ${s}`);
      }
    }
  });

  it("reproduces the committed cases from the seed", () => {
    const manifest = JSON.parse(readFileSync(join(CASES_DIR("v1"), "MANIFEST.json"), "utf8"));
    const byCat = generate(manifest.seed);
    for (const [cat, list] of Object.entries(byCat)) {
      assert.equal(JSON.stringify(list, null, 1) + "\n", readFileSync(join(CASES_DIR("v1"), `${cat}.json`), "utf8"), `category ${cat}`);
    }
  });
});

describe("cases/v1", () => {
  const cases = loadCases("v1");

  it("has at least 280 cases in the 20 categories, about 30 hand-written from cited reports", () => {
    assert.ok(cases.length >= 280, `${cases.length} cases`);
    assert.deepEqual([...new Set(cases.map((c) => c.category))].sort().join(""), "ABCDEFGHIJKLMNOPQRST");
    const hand = cases.filter((c) => c.source !== "generated");
    assert.ok(hand.length >= 28, `${hand.length} hand-written`);
    for (const c of hand) assert.match(c.source, /^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues|pull|blob)\//, c.id);
    assert.equal(new Set(cases.map((c) => c.id)).size, cases.length, "ids are unique");
  });

  it("every case passes the validator", () => {
    const problems = cases.flatMap((c) => validateCase(c).map((p) => `${c.id}: ${p}`));
    assert.deepEqual(problems, []);
  });

  it("the validator rejects a broken case", () => {
    const c = structuredClone(cases.find((x) => x.category === "Q"));
    c.expected[0].start = c.target[0].end + 1;
    c.expected[0].end = c.target[0].end + 1;
    assert.ok(validateCase(c).some((p) => /outside every target/.test(p)));
    const d = structuredClone(cases.find((x) => x.category === "C"));
    d.attempt.old_text = "";
    assert.ok(validateCase(d).length > 0);
  });

  it("matches its MANIFEST.json, and a changed byte is detected", () => {
    const frozen = verifyManifest("v1");
    assert.equal(frozen.cases, cases.length);
    const dir = mkdtempSync(join(tmpdir(), "editbench-"));
    cpSync(CASES_DIR("v1"), dir, { recursive: true });
    const f = join(dir, "A.json");
    writeFileSync(f, readFileSync(f, "utf8").replace("editbench", "editbenci"));
    assert.throws(() => verifyManifest("v1", dir), /A\.json/);
  });
});

describe("documents", () => {
  it("every document is listed in SOURCES.tsv with its sha256 and a permissive licence", () => {
    const rows = readFileSync(join(DOCS_DIR, "SOURCES.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
    const byName = new Map(rows.map((r) => [r[0], r]));
    const docs = listDocs();
    assert.ok(docs.length >= 55, `${docs.length} documents`);
    for (const d of docs) {
      const row = byName.get(d);
      assert.ok(row, `${d} is not in SOURCES.tsv`);
      assert.equal(row[4], sha256(readFileSync(join(DOCS_DIR, d))), `${d}: sha256`);
      assert.doesNotMatch(row[3], /GPL|unknown/i, `${d}: licence ${row[3]}`);
      assert.match(row[3], /MIT|BSD|Apache|ISC|CC0|Unlicense|PSF/, `${d}: licence ${row[3]}`);
      const size = readFileSync(join(DOCS_DIR, d)).length;
      assert.ok(size >= 1500 && size <= 70_000, `${d}: ${size} bytes`);
    }
    assert.equal(byName.size, docs.length, "no row without a file");
  });
});
