// A 40-case smoke run end to end: every tool (the ten peers and agentpad through @agentpad/core)
// on a fixed stratified subset, the report rendered, the share links decodable. It checks that
// the runner works, not what agentpad scores.
import assert from "node:assert/strict";
import { inflateRawSync } from "node:zlib";
import { before, describe, it } from "node:test";
import { parseTranscript } from "@agentpad/core";
import { loadCases } from "../src/cases.mjs";
import { renderReport } from "../src/report.mjs";
import { runBench, smokeSubset } from "../src/run.mjs";

describe("smoke run (40 cases)", () => {
  let run;
  before(async () => {
    run = await runBench({ smoke: true });
  });

  it("takes 2 cases from each of the 20 categories", () => {
    const subset = smokeSubset(loadCases("v1"));
    assert.equal(subset.length, 40);
    assert.equal(new Set(subset.map((c) => c.category)).size, 20);
    assert.equal(run.report.cases_run, 40);
    assert.equal(run.report.manifest.cases, loadCases("v1").length, "the run checked the frozen manifest");
  });

  it("runs every tool on every case and classifies each result", () => {
    const keys = run.report.tools.map((t) => t.key);
    assert.deepEqual(keys, ["AQ", "OH", "CX", "AI", "RO-d", "RO-e", "CL", "CL-sdk", "ZD", "ZD-nohint", "CO", "OC", "agentpad", "agentpad-oracle", "agentpad-zh"]);
    const wrongCount = run.report.cases.filter((c) => c.category === "T" && c.must_refuse).length;
    for (const t of run.report.tools) {
      // A wrong-count case is run only for the tools that take a count.
      assert.equal(t.results.length, ["agentpad", "agentpad-oracle", "agentpad-zh", "RO-e"].includes(t.key) ? 40 : 40 - wrongCount, t.key);
      for (const r of t.results) {
        assert.ok(["EXACT", "EQUIV", "BAD", "NOOP", "ASKED"].includes(r.outcome), `${t.key} ${r.id}: ${r.outcome}`);
        assert.ok(r.calls >= 1 && r.calls <= 3, `${t.key} ${r.id}: ${r.calls} calls`);
        assert.ok(r.tokens > 0, `${t.key} ${r.id}: no tokens counted`);
        assert.equal(typeof r.output, "string");
      }
    }
  });

  it("a control case lands on call 1 for every tool (exact, unique, whole lines)", () => {
    for (const t of run.report.tools) {
      const a = t.results.filter((r) => r.category === "A");
      assert.ok(a.length > 0);
      for (const r of a) assert.equal(r.landed_at, 1, `${t.key} ${r.id}`);
    }
  });

  it("drives agentpad through the package: its calls are recorded tool calls", () => {
    const ap = run.report.tools.find((t) => t.key === "agentpad");
    for (const r of ap.results) {
      assert.ok(r.transcript.length >= 1);
      assert.ok(r.transcript.every((s) => /^memo_(replace|replace_selection|read)$/.test(s.tool)), JSON.stringify(r.transcript));
    }
  });

  it("renders a report that starts with the headline table, the recommended pick as agentpad's row", () => {
    const md = renderReport(run.report, run.mats, run.casesById);
    const lines = md.split("\n");
    assert.match(lines[0], /^\*\*editbench v1 \(dev\)\*\*/);
    assert.match(lines[2], /^\| tool \| call 1 \| ≤ 2 calls \| ≤ 3 calls \| BAD \| calls \/ landed edit \| tokens \/ landed edit \| field mix, ≤ 2 calls \|$/);
    const table = lines.slice(4, lines.indexOf("", 4));
    assert.ok(table.some((l) => l.includes("agentpad (recommended pick)")));
    assert.ok(!table.some((l) => l.includes("oracle")), "the answer key stays out of the headline");
    assert.ok(!table.some((l) => l.startsWith("| CL: ")), "a deleted matcher is a footnote, not a row");
    assert.match(md, /Not in the table: CL: /);
    assert.match(md, /persistMode "immediate"/);
    assert.match(md, /search_after/);
    assert.match(md, /## Fidelity suites/);
    assert.match(md, /## Cases and playground links/);
    for (const t of run.report.tools) assert.ok(md.includes(t.label), t.label);
  });

  it("gives every case a share link the playground can decode", () => {
    assert.equal(run.report.cases.length, 40);
    for (const c of run.report.cases) {
      const enc = c.share_link.split("#t=")[1];
      const t = JSON.parse(inflateRawSync(Buffer.from(enc, "base64url")).toString("utf8"));
      assert.equal(t.format, "agentpad-transcript/1");
      parseTranscript(t); // the check the playground runs on a share link
      assert.equal(Object.keys(t.documents).length, 1);
      assert.ok(t.steps.length >= 1 && t.steps[0].tool === "memo_replace", c.id);
    }
  });
});
