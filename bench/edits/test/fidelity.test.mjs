// Each peer emulation against its fidelity facts (the peer's own tests, re-authored as facts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FIDELITY, runFidelity } from "../src/fidelity.mjs";

const results = runFidelity();

for (const peer of Object.keys(FIDELITY)) {
  describe(`fidelity: ${peer}`, () => {
    for (const r of results.filter((x) => x.peer === peer)) {
      it(r.name, () => assert.ok(r.ok, `got ${JSON.stringify(r.got)}`));
    }
  });
}

describe("fidelity runner", () => {
  it("reports a fact that does not hold", () => {
    const f = FIDELITY.AQ.facts[0];
    const saved = f.doc_out;
    f.doc_out = "something else";
    try {
      assert.equal(runFidelity().find((x) => x.name === f.name).ok, false);
    } finally {
      f.doc_out = saved;
    }
  });
});
