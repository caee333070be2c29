// The real-code runs' own pieces that need no install: the Codex patch an attempt becomes, and
// the agreement count between a real peer and its emulation (docs/editbench.md#real-code-runs).
import assert from "node:assert/strict";
import { test } from "node:test";
import { agreement, firstCall } from "../src/real/differential.mjs";
import { codexPatch } from "../src/real/real.mjs";

test("an attempt becomes one Codex Update File hunk: unchanged lines as context, removed and added lines marked", () => {
  const p = codexPatch("a.py", { old_text: "def f():\n    x = 1\n    return x\n", new_text: "def f():\n    x = 2\n    return x\n" }, undefined);
  assert.equal(p, "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    x = 1\n+    x = 2\n     return x\n*** End Patch\n");
});

test("a duplicate case's anchor line is the hunk's @@ context", () => {
  const p = codexPatch("a.js", { old_text: "a", new_text: "b" }, "function two() {");
  assert.match(p, /^@@ function two\(\) \{\n-a\n\+b\n/m);
});

test("agreement: same result, same text and same outcome are counted apart, and every disagreement is listed", () => {
  const c1 = { id: "A-1", attempt: { old_text: "x", new_text: "y" } };
  const c2 = { id: "A-2", attempt: { old_text: "q", new_text: "r" } };
  const mats = new Map([
    ["A-1", { name: "f", current: "x\n" }],
    ["A-2", { name: "f", current: "x\n" }],
  ]);
  const emu = { apply: (doc, a) => (doc.includes(a.old_text) ? { kind: "applied", doc: doc.replace(a.old_text, a.new_text), message: "ok" } : { kind: "error", message: "not found" }) };
  const real = { apply: (doc, a) => (doc.includes(a.old_text) ? { kind: "applied", doc: doc.replace(a.old_text, a.new_text), message: "Applied" } : { kind: "applied", doc: doc + a.new_text, message: "appended" }) };
  assert.equal(firstCall(real, c2, mats.get("A-2"), false).doc, "x\nr");
  const rows = (o) => new Map([["A-1", { outcome: "EXACT", landed_at: 1 }], ["A-2", { outcome: o, landed_at: null }]]);
  const a = agreement(emu, real, [c1, c2], mats, false, rows("NOOP"), rows("BAD"));
  assert.equal(a.cases, 2);
  assert.equal(a.same_result, 1);
  assert.equal(a.same_text, 0);
  assert.equal(a.same_outcome, 1);
  assert.deepEqual(a.disagreements.map((d) => [d.id, d.emulation.first, d.real.first, d.real.outcome]), [["A-2", "error", "applied", "BAD"]]);
});
