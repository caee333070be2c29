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

  it("EQUIV when the new text is right but indented with spaces in a tab file", () => {
    const { c, current, expected } = find((x) => x.category === "C" && x.source === "generated");
    const t = c.target[0];
    const spaced = applySplices(current, [{ start: t.start, end: t.end, text: c.expected[0].text.replace(/\t/g, "    ") }]);
    assert.equal(classify(c, current, expected, spaced).outcome, "EQUIV");
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
