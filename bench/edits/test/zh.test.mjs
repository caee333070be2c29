// editbench's agent with responses in Chinese (`locale: "zh"`): every response the model is shown
// reads Chinese (document text, identifiers and quotes aside), and the same calls end the same way
// as in English — only the words, and so the tokens counted, differ.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { runCase } from "../src/agent.mjs";
import { loadCases, materialize } from "../src/cases.mjs";
import { localeLine } from "../src/report.mjs";
import { smokeSubset } from "../src/run.mjs";
import { agentpadTool } from "../src/tools.mjs";

/**
 * English words only English prose uses, and the rule for a sentence: three English words in a
 * row outside code spans and quotes. The same rule as the response snapshots' zh check
 * (tests/engine/snapshots.rs, `english_runs`), applied here to the responses of an agent run.
 */
const ENGLISH_WORDS = new Set("the is are was were be and or of to in on at with for from not no nothing this that it its your you line lines similarity only after before".split(" "));

export function englishRuns(line) {
  let plain = "";
  let quote = null;
  for (const ch of line) {
    if (quote === null && (ch === "`" || ch === '"')) quote = ch;
    else if (quote === null && ch === "“") quote = "”";
    else if (quote !== null) {
      if (ch === quote) quote = null;
    } else plain += ch.charCodeAt(0) > 127 ? " | " : ch;
  }
  plain = plain.trimStart().replace(/^- summary:/, "").replace(/^- guidance:/, "");
  const word = (t) => {
    const w = t.replace(/^[[\-{+(]+/, "").replace(/[,.;:!?)\-\]+}]+$/, "");
    return /^[A-Za-z]+$/.test(w) ? w : null;
  };
  const found = [];
  let run = [];
  for (const token of plain.split(/\s+/).filter(Boolean)) {
    const w = word(token);
    if (w !== null) {
      if (ENGLISH_WORDS.has(w)) found.push(w);
      run.push(token);
    } else {
      if (run.length >= 3) found.push(run.join(" "));
      run = [];
    }
  }
  if (run.length >= 3) found.push(run.join(" "));
  return found;
}

/** A fence line that is document text: a gutter line (`12│ …`) or a line of a unified diff. */
const isDocumentLine = (line) => /^\s*\d+│/.test(line) || /^[+\- @\\]/.test(line);

/** The lines of a response that are the engine's own words. */
function ownLines(markdown) {
  const out = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) {
      fenced = !fenced;
      continue;
    }
    if ((fenced && isDocumentLine(line)) || /^(status|state|flags):/.test(line) || line.startsWith("| Id |") || line.startsWith("<!--")) continue;
    // A near miss's difference line: its label (`第 6 行：`), then the document's text with
    // visible whitespace and the change marked ([-…-]{+…+}); only the label is the engine's.
    const colon = line.indexOf("：");
    if (fenced && colon > 0 && /[·⏎]|\[-|\{\+/.test(line.slice(colon))) {
      out.push(line.slice(0, colon));
      continue;
    }
    out.push(line);
  }
  return out;
}

/** agentpad in `locale`, keeping every response the agent is shown. */
function recordingTool(locale, shown) {
  const tool = agentpadTool({ locale });
  return {
    ...tool,
    async open(doc, path) {
      const s = await tool.open(doc, path);
      const keep = (r) => (shown.push(typeof r === "string" ? r : r.message), r);
      return { ...s, steps: s.steps, edit: async (a, d) => keep(await s.edit.call(s, a, d)), pick: async (id) => keep(await s.pick.call(s, id)), read: async () => keep(await s.read.call(s)) };
    },
  };
}

describe("editbench's agent in zh", () => {
  const cases = smokeSubset(loadCases("v1"));
  const runs = { en: [], zh: [] };
  const shown = { en: [], zh: [] };
  before(async () => {
    for (const locale of ["en", "zh"]) {
      for (const c of cases) runs[locale].push(await runCase(recordingTool(locale, shown[locale]), c, materialize(c), "recommended"));
    }
  });

  it("shows the model Chinese in every response", () => {
    assert.ok(shown.zh.length >= cases.length, `${shown.zh.length} responses`);
    let checked = 0;
    const leaks = [];
    for (const markdown of shown.zh) {
      for (const line of ownLines(markdown)) {
        checked += 1;
        const found = englishRuns(line);
        if (found.length) leaks.push(`${line}\n    English: ${JSON.stringify(found)}`);
      }
    }
    assert.ok(checked > 200, `only ${checked} lines checked`);
    assert.deepEqual(leaks, []);
  });

  it("the check finds the English of the same run", () => {
    const flagged = shown.en.flatMap(ownLines).filter((l) => englishRuns(l).length > 0);
    assert.ok(flagged.length > shown.en.length / 2, `${flagged.length} English lines flagged in ${shown.en.length} responses`);
  });

  it("ends every case as in English, in as many calls", () => {
    const differ = cases.filter((c, i) => runs.zh[i].outcome !== runs.en[i].outcome || runs.zh[i].calls !== runs.en[i].calls).map((c) => c.id);
    assert.deepEqual(differ, []);
  });

  it("reports the zh tokens beside the English ones", () => {
    const summary = (rs) => ({ l1_rate: 0.5, l2_rate: 0.5, l3_rate: 0.5, bad: 0, tokens_per_landed: rs.reduce((a, r) => a + r.tokens, 0) / rs.length });
    const t = { key: "agentpad-zh", locale: "zh", label: "agentpad (zh)", summary: summary(runs.zh), results: runs.zh.map((r, i) => ({ id: cases[i].id, outcome: r.outcome, calls: r.calls })) };
    const en = { key: "agentpad", summary: summary(runs.en), results: runs.en.map((r, i) => ({ id: cases[i].id, outcome: r.outcome, calls: r.calls })) };
    const line = localeLine(t, en);
    assert.match(line, new RegExp(`on ${cases.length} of ${cases.length} cases`));
    assert.match(line, /Responses in zh \(`locale: "zh"`\)/);
    assert.ok(runs.zh.every((r) => r.tokens > 0));
  });
});
