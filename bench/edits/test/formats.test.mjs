// The attempt in a peer's own format: Aider's whole-line blocks of its real size, and Zed's line
// hint on every call (docs/editbench.md#peers).
import assert from "node:assert/strict";
import { test } from "node:test";
import { callHint } from "../src/agent.mjs";
import { AIDER_BLOCK_LINES, aiderBlock } from "../src/formats.mjs";

const DOC = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
const at = (s) => DOC.indexOf(s);

test("a mid-line fragment becomes its whole line, padded with the lines around it to Aider's median block", () => {
  const s = at("ne 15");
  const b = aiderBlock({ category: "P", target: [{ start: s, end: s + 5 }], attempt: { old_text: "ne 15", new_text: "ne XV" } }, DOC);
  const lines = b.old_text.replace(/\n$/, "").split("\n");
  assert.equal(lines.length, AIDER_BLOCK_LINES);
  assert.ok(lines.includes("line 15"));
  assert.deepEqual([lines[0], lines.at(-1)], ["line 10", "line 20"]);
  assert.equal(b.new_text, b.old_text.replace("line 15\n", "line XV\n"));
});

test("a whitespace slip is widened to whole lines only: padding with exact lines would mix two indentations", () => {
  const s = at("line 15");
  const a = { old_text: "  line 15\n", new_text: "  line 15!\n" };
  assert.deepEqual(aiderBlock({ category: "C", target: [{ start: s, end: s + 8 }], attempt: a }, DOC), a);
});

test("a deleted line stays deleted inside the padded block; an empty line stays one line", () => {
  const s = at("line 15");
  const del = aiderBlock({ category: "A", target: [{ start: s, end: s + 8 }], attempt: { old_text: "line 15\n", new_text: "" } }, DOC);
  assert.equal(del.old_text.split("\n").length - del.new_text.split("\n").length, 1);
  const blank = aiderBlock({ category: "A", target: [{ start: s, end: s + 8 }], attempt: { old_text: "line 15\n", new_text: "\n" } }, DOC);
  assert.equal(blank.old_text.split("\n").length, blank.new_text.split("\n").length);
  assert.match(blank.new_text, /line 14\n\nline 16/);
});

test("at the start of the file the padding comes from below", () => {
  const b = aiderBlock({ category: "A", target: [{ start: 0, end: 7 }], attempt: { old_text: "line 1\n", new_text: "line one\n" } }, DOC);
  assert.ok(b.old_text.startsWith("line 1\nline 2\n"));
  assert.equal(b.old_text.replace(/\n$/, "").split("\n").length, AIDER_BLOCK_LINES);
});

test("Zed's calls carry the target's line on every edit; other tools get only the case's own hint", () => {
  const c = { target: [{ start: at("line 12"), end: at("line 13") }], disambiguation: undefined };
  assert.deepEqual(callHint({ hintEvery: true }, c, DOC), { hint_line: 12 });
  assert.equal(callHint({ hint: "line" }, c, DOC), undefined);
});
