// The test set (v2): reproducible from its seed, valid, frozen, on documents v1 never used, and
// never copied into the engine or its tests.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CASES_DIR, DOCS_DIR, ROOT, docsDir, listDocs, loadCases, validateCase, verifyManifest } from "../src/cases.mjs";
import { generate } from "../src/generate.mjs";
import { sha256 } from "../src/text.mjs";

const REPO = join(ROOT, "..", "..");

/** Every line of ≥ 40 characters (trimmed) of the v2 documents. */
function v2Lines() {
  const lines = new Set();
  for (const d of listDocs(docsDir("v2"))) {
    for (const l of readFileSync(join(docsDir("v2"), d), "utf8").split(/\r?\n/)) if (l.trim().length >= 40) lines.add(l.trim());
  }
  return lines;
}

/**
 * Files under `dirs` holding one of `lines` anywhere (inside a comment or a string literal too,
 * escaped or not): ["path: line"]. Every 40-character window of a file is looked up among the
 * lines' first 40 characters, then the whole line is checked.
 */
function leaks(dirs, lines) {
  const byPrefix = new Map([...lines].map((l) => [l.slice(0, 40), l]));
  const out = [];
  const scan = (p, text) => {
    for (let i = 0; i + 40 <= text.length; i++) {
      const l = byPrefix.get(text.slice(i, i + 40));
      if (l !== undefined && text.startsWith(l, i)) {
        out.push(`${p}: ${l.slice(0, 80)}`);
        i += l.length;
      }
    }
  };
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const bytes = readFileSync(p);
        if (bytes.includes(0)) continue; // binary
        const text = bytes.toString("utf8");
        scan(p, text);
        // The same text written inside a string literal with escapes.
        if (text.includes("\\")) scan(`${p} (unescaped)`, text.replace(/\\(["'\\])/g, "$1").replace(/\\t/g, "\t"));
      }
    }
  };
  for (const d of dirs) walk(d);
  return out;
}

describe("cases/v2 (test set)", () => {
  const cases = loadCases("v2");

  it("the generator reproduces the committed cases from the seed", () => {
    const manifest = JSON.parse(readFileSync(join(CASES_DIR("v2"), "MANIFEST.json"), "utf8"));
    assert.notEqual(manifest.seed, JSON.parse(readFileSync(join(CASES_DIR("v1"), "MANIFEST.json"), "utf8")).seed, "a new seed");
    for (const [cat, list] of Object.entries(generate(manifest.seed, "v2"))) {
      assert.equal(JSON.stringify(list, null, 1) + "\n", readFileSync(join(CASES_DIR("v2"), `${cat}.json`), "utf8"), `category ${cat}`);
    }
  });

  it("has every v1 category plus the six new ones, exact edits the largest, every case valid", () => {
    assert.equal([...new Set(cases.map((c) => c.category))].sort().join(""), "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    const byCat = (k) => cases.filter((c) => c.category === k).length;
    for (const k of "BCDEFGHIJKLMNOPQRSTUVWXYZ") assert.ok(byCat("A") > 3 * byCat(k), k);
    assert.deepEqual(cases.flatMap((c) => validateCase(c).map((p) => `${c.id}: ${p}`)), []);
    assert.ok(cases.filter((c) => c.category === "V").every((c) => c.attempt.old_text === "" && c.must_refuse));
    assert.ok(cases.filter((c) => c.category === "W").every((c) => c.attempt.old_text === c.attempt.new_text && c.must_refuse));
    assert.ok(cases.filter((c) => c.category === "U").every((c) => c.prelude.length === 1));
    assert.equal(verifyManifest("v2").cases, cases.length);
  });

  it("shares no document with v1, and every document has a permissive licence", () => {
    const v1 = new Set(listDocs(DOCS_DIR).map((d) => sha256(readFileSync(join(DOCS_DIR, d)))));
    const rows = readFileSync(join(docsDir("v2"), "SOURCES.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
    const byName = new Map(rows.map((r) => [r[0], r]));
    for (const d of listDocs(docsDir("v2"))) {
      const bytes = readFileSync(join(docsDir("v2"), d));
      assert.ok(!v1.has(sha256(bytes)), `${d} is a v1 document`);
      assert.ok(!listDocs(DOCS_DIR).includes(d), `${d} has a v1 name`);
      assert.equal(byName.get(d)?.[4], sha256(bytes), `${d}: sha256 in SOURCES.tsv`);
      assert.match(byName.get(d)[3], /MIT|BSD|Apache|ISC|CC0|Unlicense|PSF/, `${d}: licence`);
      assert.doesNotMatch(byName.get(d)[3], /GPL|unknown/i, `${d}: licence`);
    }
    assert.equal(byName.size, listDocs(docsDir("v2")).length);
  });

  it("no line of a v2 document (40 characters or more) appears in the engine (src/) or its tests (tests/)", () => {
    const lines = v2Lines();
    assert.ok(lines.size > 1000, `${lines.size} lines`);
    assert.deepEqual(leaks([join(REPO, "src"), join(REPO, "tests")], lines), []);
    // The check itself: a copied line is found.
    const dir = mkdtempSync(join(tmpdir(), "editbench-leak-"));
    const line = [...lines].find((l) => l.includes('"'));
    writeFileSync(join(dir, "copied.rs"), `let doc = "prefix ${line.replace(/["\\]/g, "\\$&")} suffix";\n`);
    assert.equal(leaks([dir], lines).length, 1, "a line copied into an escaped string literal is found");
  });
});
