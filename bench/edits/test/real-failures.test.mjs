// The real-failure set (RF): every case is a call an agent really sent and that really failed,
// with its source, the file as it was, and the agent's own retry as the intent, so anyone can
// check the data (docs/editbench.md#real-failures).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT, docsDir, listDocs, loadCases, materialize, validateCase, verifyManifest } from "../src/cases.mjs";
import { VERSIONS } from "../src/generate.mjs";
import { count, sha256 } from "../src/text.mjs";

const cases = loadCases("real");
const manifest = JSON.parse(readFileSync(join(ROOT, "cases", "real", "MANIFEST.json"), "utf8"));
const sources = new Map(
  readFileSync(join(docsDir("real"), "SOURCES.tsv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t"))
    .map(([file, origin, pkg, licence, sha]) => [file, { origin, pkg, licence, sha }]),
);
const HASH = /^[0-9a-f]{40}$/;

describe("real-failure set", () => {
  it("is frozen: the cases and files match MANIFEST.json, and the counts add up", () => {
    verifyManifest("real");
    assert.equal(manifest.cases, cases.length);
    assert.equal(VERSIONS.real.categories.RF.n, cases.length);
    const dropped = Object.values(manifest.source.dropped).reduce((a, b) => a + b, 0);
    assert.equal(
      manifest.source.kept + dropped,
      manifest.source.failed_blocks,
      "every failed block is kept or dropped for a stated reason",
    );
    assert.equal(manifest.source.kept, cases.length);
  });

  it("every case passes the validator and is in category RF", () => {
    for (const c of cases) {
      assert.equal(c.category, "RF", c.id);
      assert.equal(c.perturbation.model, "real-failure", c.id);
      assert.deepEqual(validateCase(c), [], c.id);
    }
  });

  it("every case cites its transcript: repository, path, commit and the lines of the call and the retry", () => {
    for (const c of cases) {
      const t = c.real.transcript;
      assert.ok(t.repo && t.path, c.id);
      assert.match(t.commit, HASH, c.id);
      for (const k of ["failed_call_line", "error_line", "retry_line"]) assert.ok(Number.isInteger(t[k]) && t[k] > 0, `${c.id} ${k}`);
      assert.ok(t.failed_call_line < t.error_line && t.error_line < t.retry_line, `${c.id}: the call, its error, then the retry`);
      assert.equal(c.source, `https://github.com/${t.repo}/blob/${t.commit}/${t.path}#L${t.error_line}`, c.id);
      assert.ok(c.real.class, c.id);
    }
  });

  it("every case has the file as it was: a whole file at a cited commit, listed with its licence and hash", () => {
    for (const c of cases) {
      const f = c.real.file;
      assert.match(f.commit, HASH, c.id);
      assert.ok(f.repo && f.path && f.how, c.id);
      assert.ok(listDocs(docsDir("real")).includes(c.doc), c.id);
      const bytes = readFileSync(join(docsDir("real"), c.doc));
      const src = sources.get(c.doc);
      assert.ok(src, `${c.doc} is in SOURCES.tsv`);
      assert.equal(src.sha, sha256(bytes), c.doc);
      assert.equal(src.origin, `https://github.com/${f.repo}/blob/${f.commit}/${f.path}`, c.doc);
      assert.match(src.licence, /^(MIT|Apache-2\.0|BSD|ISC)/, c.doc);
    }
  });

  it("the failed call really fails exact matching on that file: absent, or there more than once", () => {
    for (const c of cases) {
      const { current } = materialize(c);
      const n = count(current, c.attempt.old_text);
      assert.notEqual(n, 1, `${c.id}: old_text occurs exactly once`);
      assert.equal(/several times/.test(c.real.error), n > 1, `${c.id}: the stated error fits the count`);
      assert.notEqual(c.attempt.old_text, c.attempt.new_text, c.id);
    }
  });

  it("the intent is the agent's own retry: its old_text is there once, and the expected document is that replacement", () => {
    for (const c of cases) {
      const { current, expected } = materialize(c);
      const r = c.real.retry;
      assert.equal(count(current, r.old_text), 1, `${c.id}: the retry matches once`);
      const at = current.indexOf(r.old_text);
      assert.deepEqual(c.target, [{ start: at, end: at + r.old_text.length }], c.id);
      assert.equal(expected, current.slice(0, at) + r.new_text + current.slice(at + r.old_text.length), c.id);
      assert.notEqual(expected, current, c.id);
    }
  });
});
