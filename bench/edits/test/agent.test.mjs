// The agent policy's fairness rules, each on a small fake tool: an ambiguous copy is scored the
// same for every tool (asking lands, a wrong guess is BAD), a mechanical slip is fixed in one
// call, and a retry is widened until the tool's own matcher calls it unique.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ambiguousCopy, exactRetry, runCase } from "../src/agent.mjs";
import { materialize } from "../src/cases.mjs";

const DOC = "class A:\n    def run(self):\n        go(1)\n        stop()\n\nclass B:\n        def run(self):\n            go(1)\n            stop()\n";
/** The attempt is outdented: it matches both copies once indentation is ignored; the target is B's. */
function ambiguousCase() {
  const region = "        def run(self):\n            go(1)\n            stop()";
  const start = DOC.indexOf(region);
  const at = DOC.indexOf("go(1)", start);
  return {
    id: "X-1", category: "S", doc_name: "two.py", doc_text: DOC, must_refuse: false,
    target: [{ start, end: start + region.length }], expected: [{ start: at, end: at + 5, text: "go(2)" }],
    attempt: { old_text: "def run(self):\n    go(1)\n    stop()", new_text: "def run(self):\n    go(2)\n    stop()" },
  };
}

/** A tool answering from a script: each call returns the next of `answers` ({kind, message, doc?}). */
function fakeTool(answers, extra = {}) {
  return {
    key: "fake", granularity: "substring", ...extra,
    async open(doc) {
      let cur = doc;
      let i = 0;
      return {
        async edit(attempt) {
          const a = answers[Math.min(i++, answers.length - 1)];
          const r = typeof a === "function" ? a(cur, attempt) : a;
          if (r.kind === "applied") cur = r.doc;
          return { candidates: [], ...r };
        },
        async read() { return cur; },
        current: () => cur,
        close() {},
      };
    },
  };
}

describe("agent policy", () => {
  it("finds the ambiguous copy, and not a case that names its place", () => {
    const c = ambiguousCase();
    assert.ok(ambiguousCopy(c, DOC));
    assert.ok(!ambiguousCopy({ ...c, disambiguation: { hint_line: 7 } }, DOC));
    assert.ok(!ambiguousCopy({ ...c, attempt: { ...c.attempt, old_text: "class B:\n        def run(self):" } }, DOC));
  });

  it("ambiguous copy: a tool that asks lands on that call; a wrong guess is BAD; a right guess lands", async () => {
    const c = ambiguousCase();
    const mat = materialize(c);
    const ask = await runCase(fakeTool([{ kind: "error", message: "Found multiple matches for oldString." }]), c, mat);
    assert.deepEqual([ask.outcome, ask.landed_at], ["ASKED", 1]);
    const wrong = mat.current.replace("go(1)", "go(2)"); // class A's copy
    const guessA = await runCase(fakeTool([{ kind: "applied", message: "ok", doc: wrong }]), c, mat);
    assert.equal(guessA.outcome, "BAD");
    const guessB = await runCase(fakeTool([{ kind: "applied", message: "ok", doc: mat.expected }]), c, mat);
    assert.deepEqual([guessB.outcome, guessB.landed_at], ["EXACT", 1]);
  });

  it("a mechanical slip (gutters) is fixed in one call without a re-read; a stale attempt needs a re-read", async () => {
    const doc = "a = 1\nb = 2\nc = 3\n";
    const base = { doc_name: "x.py", doc_text: doc, must_refuse: false, target: [{ start: 6, end: 11 }], expected: [{ start: 10, end: 11, text: "5" }], attempt: { old_text: "2\tb = 2", new_text: "2\tb = 5" } };
    const exactOnly = (cur, a) => (cur.includes(a.old_text) && a.old_text ? { kind: "applied", message: "ok", doc: cur.replace(a.old_text, a.new_text) } : { kind: "error", message: "not found" });
    const held = await runCase(fakeTool([exactOnly]), { ...base, id: "H-1", category: "H" }, materialize(base));
    assert.deepEqual([held.outcome, held.landed_at, held.steps.map((s) => s.action)], ["EXACT", 2, ["edit", "self-fixed retry"]]);
    const stale = await runCase(fakeTool([exactOnly]), { ...base, id: "L-1", category: "L" }, materialize(base));
    assert.deepEqual([stale.landed_at, stale.steps.map((s) => s.action)], [3, ["edit", "re-read", "exact retry"]]);
  });

  it("a retry is widened until the tool's own matcher finds it unique, not only until it is exactly unique", () => {
    const doc = "x\n  go()\ny\n    go()\nz\n";
    const c = { must_refuse: false, target: [{ start: doc.indexOf("    go()"), end: doc.indexOf("    go()") + 8 }] };
    const plain = exactRetry(c, doc, doc.replace("    go()", "    run()"), "line");
    assert.equal(plain.old_text, "    go()", "exactly unique already");
    // A matcher that ignores indentation sees two `go()` lines until the needle takes a neighbour.
    const fuzzyUnique = (r) => doc.split("\n").filter((l) => l.trim() === r.old_text.split("\n")[0].trim()).length === 1 || r.old_text.includes("\n");
    const widened = exactRetry(c, doc, doc.replace("    go()", "    run()"), "line", fuzzyUnique);
    assert.equal(widened.old_text, "y\n    go()\nz");
    assert.equal(widened.new_text, "y\n    run()\nz");
  });
});
