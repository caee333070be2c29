// What the model reads, in editbench's tokenizer (o200k, gpt-tokenizer), through the built
// package at its defaults: the 16-call session of tests/engine/model_reads.rs (`session_16`) and a
// single staged edit beside the reference str_replace's answer (peers/anthropic.mjs) for it.
// tests/engine/model_reads.rs drives the same session in Rust and bounds its size in chars; tokens are
// what a model pays, and only this layer has the tokenizer.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { countTokens } from "gpt-tokenizer";
import { MemoryStorage, Workspace } from "@agentpad/core";
import * as anthropic from "../src/peers/anthropic.mjs";

/** A TypeScript module of n small functions, 4 lines each (tests/engine/model_reads.rs `module`). */
const moduleOf = (n) =>
  Array.from({ length: n }, (_, i) => `export function step${i}(steps: Step[]) {\n  const stepNumber = steps.length + ${i};\n  return stepNumber;\n}\n`).join("");

/** Reads, stagings, a multi-match and its choice, a miss, previews and the commit. */
const SESSION_16 = [
  ["memo_read", { start_line: 1, end_line: 40 }],
  ["memo_replace", { old_text: "steps.length + 90;", new_text: "steps.length + 900;" }],
  ["memo_replace", { old_text: "  return stepNumber;\n}\nexport function step3(", new_text: "  return stepNumber;\n}\n// step three\nexport function step3(" }],
  ["memo_read", { start_line: 355, end_line: 370 }],
  ["memo_replace", { old_text: "steps.length + 900;", new_text: "steps.length + 9000;" }],
  ["memo_replace", { old_text: "return stepNumber;", new_text: "return stepNumber * 2;" }],
  ["memo_replace_selection", { selection_id: "B" }],
  ["memo_read", { start_line: 1, end_line: 12 }],
  ["memo_replace", { old_text: "const stepCount = steps.size;", new_text: "const stepCount = steps.length;" }],
  ["memo_replace", { old_text: "export function step100(", new_text: "export function stepHundred(" }],
  ["memo_read", { start_line: 395, end_line: 410 }],
  ["memo_preview", { format: "stats" }],
  ["memo_replace", { old_text: "steps.length + 50;", new_text: "steps.length + 500;" }],
  ["memo_read", { start_line: 195, end_line: 210 }],
  ["memo_preview", {}],
  ["memo_commit", { summary: "renumber steps" }],
];

/**
 * The session's responses as the model read them when what it reads was first measured
 * (commit 702deff): 19,162 chars, 6,222 o200k tokens. The target is at most half.
 */
const TOKENS_WHEN_MEASURED = 6222;

async function workspace(text) {
  return Workspace.create({ storage: new MemoryStorage({ "steps.ts": text }) });
}

describe("what the model reads, in tokens", () => {
  it("the 16-call session costs at most half the tokens it did when first measured", async () => {
    const ws = await workspace(moduleOf(120));
    const statuses = [];
    let tokens = 0;
    for (const [tool, args] of SESSION_16) {
      const r = await ws.call(tool, args);
      statuses.push(r.status);
      tokens += countTokens(r.markdown);
    }
    ws.free();
    assert.deepEqual(statuses, ["Success", "Success", "Success", "Success", "Success", "MultiMatch", "Success", "Success", "NoMatch", "Success", "Success", "Success", "Success", "Success", "Success", "Success"]);
    console.log(`session_16: ${tokens} o200k tokens (${((100 * tokens) / TOKENS_WHEN_MEASURED).toFixed(1)} % of ${TOKENS_WHEN_MEASURED})`);
    assert.ok(tokens * 2 <= TOKENS_WHEN_MEASURED, `session_16 reads ${tokens} tokens, more than half of ${TOKENS_WHEN_MEASURED}`);
  });

  it("a single staged edit reads no more tokens than the reference str_replace's answer", async () => {
    const doc = moduleOf(120);
    // In the body of the file, where the reference shows its whole 9-line window.
    const edits = [
      ["steps.length + 90;", "steps.length + 900;"],
      ["  return stepNumber;\n}\nexport function step3(", "  return stepNumber;\n}\n// step three\nexport function step3("],
      ["export function step100(", "export function stepHundred("],
      ["steps.length + 7;", "steps.length + 70;"],
    ];
    for (const [old_text, new_text] of edits) {
      const ws = await workspace(doc);
      const r = await ws.call("memo_replace", { old_text, new_text });
      ws.free();
      assert.equal(r.status, "Success", r.markdown);
      const reference = anthropic.apply(doc, { old_text, new_text }, { path: "steps.ts" });
      assert.equal(reference.kind, "applied");
      const [ours, theirs] = [countTokens(r.markdown), countTokens(reference.message)];
      console.log(`staged ${JSON.stringify(old_text)}: agentpad ${ours} tokens, reference ${theirs}`);
      assert.ok(ours <= theirs, `${ours} > ${theirs} tokens:\n${r.markdown}\n---\n${reference.message}`);
    }
  });
});
