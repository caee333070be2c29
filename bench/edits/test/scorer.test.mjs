// The scorer on known-good and known-bad outputs of real cases.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadCases, materialize } from "../src/cases.mjs";
import { classify } from "../src/score.mjs";
import { applySplices } from "../src/text.mjs";

const cases = loadCases("v1");
const find = (pred) => {
  const c = cases.find(pred);
  return { c, ...materialize(c) };
};

describe("scorer", () => {
  it("EXACT for the expected document, NOOP for the unchanged one", () => {
    const { c, current, expected } = find((x) => x.category === "A");
    assert.equal(classify(c, current, expected, expected).outcome, "EXACT");
    assert.equal(classify(c, current, expected, current).outcome, "NOOP");
  });

  it("EXACT with COLLATERAL when only line endings outside the edit changed", () => {
    const { c, current, expected } = find((x) => x.perturbation.model === "lf-needle-crlf-file");
    const r = classify(c, current, expected, expected.replace(/\r\n/g, "\n"));
    assert.deepEqual([r.outcome, r.collateral], ["EXACT", true]);
  });

  it("BAD when the new text is right but indented with spaces in a tab file (indentation is kept exactly)", () => {
    const { c, current, expected } = find((x) => x.category === "C" && x.source === "generated");
    const t = c.target[0];
    const spaced = applySplices(current, [{ start: t.start, end: t.end, text: c.expected[0].text.replace(/\t/g, "    ") }]);
    assert.equal(classify(c, current, expected, spaced).outcome, "BAD");
  });

  it("BAD (corrupted) when a stale attempt's new_text is written over the region", () => {
    const { c, current, expected } = find((x) => x.perturbation.model === "stale-inside");
    const t = c.target[0];
    const overwritten = applySplices(current, [{ start: t.start, end: t.end, text: c.attempt.new_text }]);
    const r = classify(c, current, expected, overwritten);
    assert.deepEqual([r.outcome, r.bad_kind], ["BAD", "corrupted"]);
  });

  it("BAD (wrong-place) when a duplicate's first occurrence is edited instead of the target", () => {
    const { c, current, expected } = find((x) => x.category === "K" && x.perturbation.params?.target_rank > 1 && x.source === "generated");
    const wrong = current.replace(c.attempt.old_text, c.attempt.new_text);
    const r = classify(c, current, expected, wrong);
    assert.deepEqual([r.outcome, r.bad_kind], ["BAD", "wrong-place"]);
  });

  it("BAD (refuse-violated) for any write in a must-refuse case", () => {
    const { c, current, expected } = find((x) => x.must_refuse);
    const r = classify(c, current, expected, current + "\n");
    assert.deepEqual([r.outcome, r.bad_kind], ["BAD", "refuse-violated"]);
  });

  it("BAD (corrupted) when a literal \\n lands in the file", () => {
    const { c, current, expected } = find((x) => x.perturbation.model === "escaped-newlines");
    const t = c.target[0];
    const literal = applySplices(current, [{ start: t.start, end: t.end, text: c.expected[0].text.replace(/\n/g, "\\n") }]);
    assert.equal(classify(c, current, expected, literal).outcome, "BAD");
  });
});

/** A one-change case on an inline document: `find` (unique) becomes `repl`; the target is `region`. */
function inline(name, doc, region, find, repl) {
  const start = doc.indexOf(region);
  const at = doc.indexOf(find, start);
  const c = { doc_name: name, target: [{ start, end: start + region.length }], expected: [{ start: at, end: at + find.length, text: repl }], must_refuse: false };
  return { c, current: doc, expected: doc.slice(0, at) + repl + doc.slice(at + find.length) };
}
const put = (k, text) => k.current.slice(0, k.c.target[0].start) + text + k.current.slice(k.c.target[0].end);

// Each of these outputs was EQUIV under the old rule (every whitespace run folded): the results
// that broke the file or changed its meaning are BAD now, the ones that mean the same stay EQUIV.
describe("EQUIV knows the language", () => {
  const py = "def area(w, h):\n    if w < 0:\n        raise ValueError(w)\n    return scale(\n        w * h,\n        1,\n    )\n";
  const region = "    if w < 0:\n        raise ValueError(w)\n    return scale(\n        w * h,\n        1,\n    )";

  it("Python that no longer parses is BAD", () => {
    const k = inline("area.py", py, region, "ValueError", "TypeError");
    const flattened = put(k, "if w < 0:\nraise TypeError(w)\nreturn scale(\nw * h,\n1,\n)");
    assert.deepEqual([classify(k.c, k.current, k.expected, flattened).outcome], ["BAD"]);
  });

  it("Python that parses to another program is BAD (a line moved out of its block)", () => {
    const k = inline("area.py", py, region, "ValueError", "TypeError");
    const moved = put(k, "    if w < 0:\n        raise TypeError(w)\n    return scale(\n        w * h,\n        1,\n    )".replace("        raise", "    pass\n    raise"));
    assert.equal(classify(k.c, k.current, k.expected, moved).outcome, "BAD");
  });

  it("Python whose layout changed inside brackets only is EQUIV (ast.dump equal)", () => {
    const k = inline("area.py", py, region, "ValueError", "TypeError");
    const relaid = put(k, "    if w < 0:\n        raise TypeError(w)\n    return scale(\n      w * h,\n      1,\n    )");
    assert.equal(classify(k.c, k.current, k.expected, relaid).outcome, "EQUIV");
  });

  it("YAML re-nested to the top level is BAD; YAML re-indented to the same data is EQUIV", () => {
    const yml = "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo test\n";
    const k = inline("ci.yml", yml, "    runs-on: ubuntu-latest\n    steps:\n      - run: cargo test", "cargo test", "cargo test --all");
    assert.equal(classify(k.c, k.current, k.expected, put(k, "runs-on: ubuntu-latest\nsteps:\n  - run: cargo test --all")).outcome, "BAD");
    assert.equal(classify(k.c, k.current, k.expected, put(k, "    runs-on: ubuntu-latest\n    steps:\n    - run: cargo test --all")).outcome, "EQUIV");
  });

  it("JSON is compared as data", () => {
    const json = '{\n  "name": "x",\n  "files": [\n    "a.js",\n    "b.js"\n  ]\n}\n';
    const k = inline("package.json", json, '  "files": [\n    "a.js",\n    "b.js"\n  ]', "b.js", "c.js");
    assert.equal(classify(k.c, k.current, k.expected, put(k, '  "files": [ "a.js",\n  "c.js" ]')).outcome, "EQUIV");
    assert.equal(classify(k.c, k.current, k.expected, put(k, '  "files": [\n    "a.js"\n    "c.js"\n  ]')).outcome, "BAD");
  });

  it("a Makefile recipe that lost its tab is BAD", () => {
    const mk = "all: lib\n\nlib: a.o b.o\n\t$(AR) rcs libx.a a.o b.o\n\t$(RANLIB) libx.a\n";
    const k = inline("mk-build.mk", mk, "lib: a.o b.o\n\t$(AR) rcs libx.a a.o b.o\n\t$(RANLIB) libx.a", "rcs libx.a a.o b.o", "rcs libx.a a.o c.o");
    const spaced = put(k, "lib: a.o b.o\n        $(AR) rcs libx.a a.o c.o\n        $(RANLIB) libx.a");
    assert.equal(classify(k.c, k.current, k.expected, spaced).outcome, "BAD");
    const runs = put(k, "lib: a.o  b.o\n\t$(AR) rcs libx.a a.o c.o \n\t$(RANLIB) libx.a");
    assert.equal(classify(k.c, k.current, k.expected, runs).outcome, "EQUIV", "whitespace after the indentation may differ");
  });

  it("re-wrapped Markdown prose is EQUIV; a Markdown list re-nested is BAD", () => {
    const md = "# Notes\n\nThe quick brown fox jumps over\nthe lazy dog near the river bank.\n\n- one\n  - two\n";
    const k = inline("notes.md", md, "The quick brown fox jumps over\nthe lazy dog near the river bank.", "lazy", "sleepy");
    assert.equal(classify(k.c, k.current, k.expected, put(k, "The quick brown fox\njumps over the sleepy dog\nnear the river bank.")).outcome, "EQUIV");
    const l = inline("notes.md", md, "- one\n  - two", "two", "three");
    assert.equal(classify(l.c, l.current, l.expected, put(l, "- one\n- three")).outcome, "BAD");
  });
});
