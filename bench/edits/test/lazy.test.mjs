// Lazy snippets (docs/editbench.md#lazy-snippets): the generator's cases are sound and frozen,
// the two splits do not share documents, and the scorer's tallies mean what the report says.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, it } from "node:test";
import { CASES_DIR, ROOT, materialize } from "../src/cases.mjs";
import { LAZY_SPLITS, generateLazy, loadLazy, poolOf } from "../src/lazy/generate.mjs";
import { FORMS, PUBLISHED, report, runCase, writtenTokens } from "../src/lazy/run.mjs";
import { percentile, scoreCall, tally } from "../src/lazy/score.mjs";

function importGraph(file, seen = new Map()) {
  if (seen.has(file)) return seen;
  const src = readFileSync(file, "utf8");
  const specs = [...src.matchAll(/(?:import|export)[^'"`;]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] ?? m[2]);
  seen.set(file, specs);
  for (const s of specs) if (s.startsWith(".")) importGraph(resolve(dirname(file), s), seen);
  return seen;
}

/** The sketch's text with each placeholder line written as the region lines it stands for. */
function expand(sketch, marker, regionLines, elided) {
  const out = [];
  let m = 0;
  for (const l of sketch.split("\n")) {
    if (l.trim() === marker && elided[m]) {
      out.push(...regionLines.slice(elided[m].from, elided[m].to));
      m++;
    } else out.push(l);
  }
  return { text: out.join("\n"), used: m };
}

const splits = Object.keys(LAZY_SPLITS);
const cases = Object.fromEntries(splits.map((s) => [s, loadLazy(s)]));

describe("lazy snippets: generator", () => {
  it("never imports agentpad, directly or through another module", () => {
    const graph = importGraph(join(ROOT, "src", "lazy", "generate.mjs"));
    assert.ok(graph.size >= 4, `walked ${graph.size} modules`);
    for (const [file, specs] of graph) {
      for (const s of specs) {
        assert.doesNotMatch(s, /agentpad|www|tools\.mjs|agent\.mjs/, `${file} imports ${s}`);
        if (!s.startsWith(".")) assert.match(s, /^node:/, `${file} imports the package ${s}`);
      }
    }
  });

  it("reproduces the committed cases of both splits from their seeds", () => {
    for (const s of splits) {
      const manifest = JSON.parse(readFileSync(join(CASES_DIR(s), "MANIFEST.json"), "utf8"));
      assert.equal(manifest.seed, LAZY_SPLITS[s].seed);
      assert.equal(JSON.stringify(generateLazy(s, manifest.seed), null, 1) + "\n", readFileSync(join(CASES_DIR(s), "cases.json"), "utf8"), s);
    }
  });

  it("draws other cases from another seed (the output depends on it)", () => {
    const other = generateLazy("lazy-dev", LAZY_SPLITS["lazy-dev"].seed + 1);
    assert.notDeepEqual(other.map((c) => c.attempts.sketch.new_text), cases["lazy-dev"].map((c) => c.attempts.sketch.new_text));
  });

  it("keeps the splits apart: other documents, other seeds", () => {
    assert.notEqual(LAZY_SPLITS["lazy-dev"].seed, LAZY_SPLITS["lazy-test"].seed);
    const dev = new Set(poolOf("lazy-dev"));
    for (const d of poolOf("lazy-test")) assert.ok(!dev.has(d), `${d} is in both pools`);
    const devText = new Set(cases["lazy-dev"].map((c) => materialize(c).current));
    for (const c of cases["lazy-test"]) assert.ok(!devText.has(materialize(c).current), `${c.id}'s document is a dev document`);
  });

  it("every case: 2–5 changed regions, several languages, the sketch stands for the region and the update for the expected text", () => {
    for (const s of splits) {
      assert.ok(new Set(cases[s].map((c) => c.lang)).size >= 5, `${s}: languages`);
      assert.ok(new Set(cases[s].map((c) => c.marker)).size >= 10, `${s}: placeholder styles`);
      for (const c of cases[s]) {
        const { current, expected } = materialize(c);
        const t = c.target[0];
        const regionLines = current.slice(t.start, t.end).split("\n");
        assert.ok(c.regions >= 2 && c.regions <= 5, `${c.id}: ${c.regions} regions`);
        assert.notEqual(expected, current, c.id);
        assert.equal(c.attempts.lazy.old_text, current.slice(t.start, t.end), `${c.id}: the lazy form copies the region`);
        assert.equal(c.attempts.sketch.new_text, c.update, c.id);
        assert.equal(c.attempts.lazy.new_text, c.update, c.id);
        // The old sketch, its placeholders written out, is the region; the update, the same way
        // (the placeholders stand for unchanged lines), is the expected region.
        const old = expand(c.attempts.sketch.old_text, c.marker, regionLines, c.elided);
        assert.equal(old.used, c.elided.length, `${c.id}: placeholders in old_text`);
        assert.equal(old.text, regionLines.join("\n"), `${c.id}: old sketch`);
        const neu = expand(c.update, c.marker, regionLines, c.elided);
        assert.equal(neu.text, expected.slice(t.start, expected.length - (current.length - t.end)), `${c.id}: update`);
      }
    }
  });
});

describe("lazy snippets: scorer", () => {
  const c = cases["lazy-dev"][0];
  const { current, expected } = materialize(c);
  const t = c.target[0];

  it("the expected document lands; one the placeholder was written into is BAD; an unchanged one is a refusal", () => {
    assert.equal(scoreCall(c, current, expected, { status: "Success" }).outcome, "EXACT");
    const literal = current.slice(0, t.start) + c.update + current.slice(t.end);
    assert.equal(scoreCall(c, current, literal, { status: "Success" }).outcome, "BAD");
    const r = scoreCall(c, current, current, { status: "InvalidArguments" });
    assert.equal(r.outcome, "NOOP");
    assert.equal(r.refused, true);
  });

  it("a write outside the region is BAD even when the region is right", () => {
    const at = t.start > 0 ? 0 : expected.length - 1;
    const wrong = expected.slice(0, at) + "X" + expected.slice(at + 1);
    assert.equal(scoreCall(c, current, wrong, { status: "Success" }).outcome, "BAD");
  });

  it("tallies landing, BAD and refusals, and the time percentiles, from the results", () => {
    const rows = [
      { outcome: "EXACT", refused: false, ms: 1 },
      { outcome: "EQUIV", refused: false, ms: 2 },
      { outcome: "BAD", refused: false, ms: 3 },
      { outcome: "NOOP", refused: true, ms: 4 },
    ];
    const t4 = tally(rows);
    assert.equal(t4.n, 4);
    assert.equal(t4.landed, 2);
    assert.equal(t4.bad, 1);
    assert.equal(t4.refused, 1);
    assert.equal(percentile([5, 1, 3, 2, 4], 0.5), 3);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100], 0.95), 19);
  });
});

describe("lazy snippets: runner", () => {
  it("sends each form as one memo_replace, scores the document it leaves, and reports beside the published figures", async () => {
    const some = cases["lazy-dev"].slice(0, 3);
    const rows = [];
    for (const form of FORMS) for (const c of some) rows.push(await runCase(c, form));
    for (const r of rows) {
      assert.ok(["EXACT", "EQUIV", "BAD", "NOOP"].includes(r.first.outcome), `${r.id}: ${r.first.outcome}`);
      if (r.first.refused) assert.equal(r.first.outcome, "NOOP", r.id);
      if (r.first.status === "Success") assert.notEqual(r.first.outcome, "NOOP", `${r.id}: a success that changed nothing`);
      assert.ok(r.first.ms >= 0);
    }
    // Each form sends the update as new_text and something more as old_text.
    const t = writtenTokens(some);
    assert.ok(t.sketch > t.update && t.lazy > t.update && t.rewrite > 0, JSON.stringify(t));
    const md = report([{ split: "lazy-dev", cases: some.length, tokens: t, rows }]);
    assert.ok(md.includes(`the update alone (an apply model's input besides the file) ${t.update}`));
    for (const p of PUBLISHED) assert.ok(md.includes(p.where), p.where);
    assert.match(md, /not measured here/);
    for (const f of FORMS) assert.ok(md.includes(f.name), f.name);
  });
});
