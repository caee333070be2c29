// End to end in the built playground (target/playground), headless Debian Chromium: the page
// loads the wasm core, the console refuses invalid arguments, an exact MultiMatch lists candidates
// A, B, C on the right lines and match_id stages one, a commit updates the document, and fuzzy
// candidates and a near miss are badged by their tier and staged.
// Run from the repo root: node --test www/playground/test/*.test.mjs
// Needs: `npm run build` in www/playground first (build.sh does it), /usr/bin/chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { tid, shotDir } from "./lib/browser.mjs";
import { openSharedPage, page, baseUrl, problems, waitReady, documentLines, argsText, afterCall, runTool, clickAndWait } from "./lib/shared-page.mjs";

openSharedPage({ load: false });

// ---------------------------------------------------------------- tests

test("the page loads the wasm core and lists the tools", async () => {
  await page.goto(baseUrl);
  await waitReady("timeouts");
  const tools = await page.$$eval(`${tid("tool-select")} option`, (os) => os.map((o) => o.value));
  for (const t of ["memo_read", "memo_replace", "memo_commit"]) assert.ok(tools.includes(t), `tool ${t} in ${tools}`);
  assert.match(await page.locator(tid("memory-meter")).textContent(), /KiB/);
  assert.equal((await page.locator(tid("workflow-state")).textContent()).trim(), "Idle");
  assert.deepEqual(problems, []);
});

test("invalid JSON arguments show a message and disable Run", async () => {
  await page.selectOption(tid("tool-select"), "memo_replace");
  // The skeleton has the required properties with empty values.
  const skeleton = JSON.parse(await argsText());
  assert.ok("old_text" in skeleton && "new_text" in skeleton, JSON.stringify(skeleton));
  await page.fill(tid("args-input"), '{"old_text": ');
  assert.notEqual((await page.locator(tid("args-error")).textContent()).trim(), "");
  assert.equal(await page.locator(tid("run-button")).isDisabled(), true);
  // Valid JSON the schema refuses (old_text and new_text are required): marked, Run still disabled.
  await page.fill(tid("args-input"), "{}");
  assert.match((await page.locator(tid("args-error")).textContent()).trim(), /missing required property "old_text"/);
  assert.equal(await page.locator(tid("run-button")).isDisabled(), true);
  await page.fill(tid("args-input"), '{"old_text": "a", "new_text": "b"}');
  assert.equal((await page.locator(tid("args-error")).textContent()).trim(), "");
  assert.equal(await page.locator(tid("run-button")).isDisabled(), false);
});

let timeoutLines = [];

test("timeouts.yaml: replace timeout: 30 gives MultiMatch with candidates A, B, C on the right lines", async () => {
  // Switch away and back: switching recreates the workspace.
  await page.selectOption(tid("sample-select"), "config");
  await waitReady("config");
  await page.selectOption(tid("sample-select"), "timeouts");
  await waitReady("timeouts");

  const lines = await documentLines();
  timeoutLines = lines.filter((l) => l.text.includes("timeout: 30")).map((l) => l.line);
  assert.equal(timeoutLines.length, 3, `the sample has three "timeout: 30" lines: ${timeoutLines}`);
  assert.equal(await page.locator("mark.cand").count(), 0, "no highlights before a selection");

  const r = await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  assert.equal(r.status, "MultiMatch");
  assert.equal(r.state, "SelectionPending");
  assert.equal((await page.locator(tid("workflow-state")).textContent()).trim(), "SelectionPending");

  const marks = await page.$$eval("mark.cand[data-testid^='candidate-']", (ms) =>
    ms.map((m) => {
      const c = m.cloneNode(true);
      const badge = c.querySelector(".cand-badge")?.textContent ?? "";
      c.querySelectorAll(".cand-badge").forEach((b) => b.remove());
      return { id: m.dataset.candidate, line: Number(m.dataset.line), badge, text: c.textContent };
    }),
  );
  assert.deepEqual(
    marks.map((m) => m.id),
    ["A", "B", "C"],
  );
  marks.forEach((m, i) => {
    assert.equal(m.line, timeoutLines[i], `candidate ${m.id} on line ${timeoutLines[i]}`);
    assert.equal(m.badge, m.id, "the badge shows the letter");
    assert.equal(m.text, "timeout: 30", `candidate ${m.id} covers exactly the match`);
  });
  // The rendered Markdown and the JSON both carry the candidates.
  const md = await page.locator(tid("response-markdown")).textContent();
  assert.match(md, /MultiMatch/);
  const json = JSON.parse(await page.locator(tid("response-json")).textContent());
  assert.equal(json.status, "MultiMatch");
  assert.deepEqual(
    json.candidates.map((c) => c.line),
    timeoutLines,
  );
  await page.screenshot({ path: path.join(shotDir, "playground-multimatch.png"), fullPage: true });
  assert.deepEqual(problems, []);
});

test("staging B with match_id shows timeout: 60 in the pending diff", async () => {
  const r = await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "B" });
  assert.ok(!["InvalidArguments", "Exception", "Blocked", "NoMatch"].includes(r.status), `status ${r.status}`);

  const added = await page.$$eval(`${tid("pending-preview")} .dl.add`, (ls) => ls.map((l) => l.textContent));
  assert.ok(added.some((l) => l.includes("timeout: 60")), `a + line with timeout: 60 in ${JSON.stringify(added)}`);
  const removed = await page.$$eval(`${tid("pending-preview")} .dl.del`, (ls) => ls.map((l) => l.textContent));
  assert.ok(removed.some((l) => l.includes("timeout: 30")), `a - line with timeout: 30 in ${JSON.stringify(removed)}`);

  const rows = await page.$$eval(`${tid("pending-changes")} tbody tr`, (trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
  );
  assert.ok(
    rows.some((cells) => cells[1] === `timeouts.yaml:${timeoutLines[1]}` && /timeout: 60/.test(cells[2])),
    `a pending change on line ${timeoutLines[1]} to timeout: 60 in ${JSON.stringify(rows)}`,
  );

  // The document view shows the draft: line B now reads timeout: 60, A and C are unchanged.
  const lines = await documentLines();
  const at = (n) => lines.find((l) => l.line === n).text;
  assert.match(at(timeoutLines[1]), /timeout: 60/);
  assert.match(at(timeoutLines[0]), /timeout: 30/);
  assert.match(at(timeoutLines[2]), /timeout: 30/);

  await page.screenshot({ path: path.join(shotDir, "playground.png"), fullPage: true });
  assert.deepEqual(problems, []);
});

test("config.json: stage the feature flag, commit, and the document is updated", async () => {
  await page.selectOption(tid("sample-select"), "config");
  await waitReady("config");
  assert.equal(await page.locator(tid("history") + " li").count(), 0, "a new workspace has no calls");
  const r = await runTool("memo_replace", { old_text: '"experimental": []', new_text: '"experimental": ["X"]' });
  assert.equal(r.status, "Success");
  assert.equal(r.state, "PersistPending");
  const added = await page.$$eval(`${tid("pending-preview")} .dl.add`, (ls) => ls.map((l) => l.textContent));
  assert.ok(added.some((l) => l.includes('"experimental": ["X"]')), JSON.stringify(added));

  await clickAndWait(tid("quick-commit"));
  assert.equal((await page.locator(tid("status-badge")).textContent()).trim(), "Success");
  assert.equal((await page.locator(tid("workflow-state")).textContent()).trim(), "Idle");
  const lines = await documentLines();
  assert.ok(lines.some((l) => l.text.includes('"experimental": ["X"]')));
  assert.match(await page.locator(tid("pending-changes")).textContent(), /No pending changes/);
  assert.deepEqual(problems, []);
});

// ---------------------------------------------------------------- fuzzy tiers and near misses

/** The candidates as the page shows them: document badges and the candidate table. */
async function shownCandidates() {
  const marks = await page.$$eval("mark.cand[data-testid^='candidate-']", (ms) =>
    ms.map((m) => ({
      id: m.dataset.candidate,
      tier: m.dataset.tier,
      quality: m.dataset.quality,
      line: Number(m.dataset.line),
      badge: m.querySelector(".cand-badge")?.textContent ?? "",
      classes: m.className,
    })),
  );
  const rows = await page.$$eval(`${tid("candidate-list")} tbody tr`, (trs) =>
    trs.map((tr) => ({
      id: tr.dataset.candidate,
      badge: tr.querySelector(".cand-badge")?.textContent ?? "",
      quality: tr.querySelector("td.quality")?.textContent ?? "",
      line: Number(tr.querySelector("td.num")?.textContent),
    })),
  );
  return { marks, rows };
}

/** Fill the console with the sample's suggested call and run it. */
const runSuggested = () =>
  afterCall(async () => {
    await page.click(tid("quick-suggested"));
    await page.click(tid("run-button"));
  });

test("fuzzy sample: spaces vs tabs give candidates badged `A · indentation`; staging B keeps the tabs", async () => {
  await page.selectOption(tid("sample-select"), "fuzzy");
  await waitReady("fuzzy");
  const r = await runSuggested();
  assert.equal(r.status, "MultiMatch");
  assert.equal(r.state, "SelectionPending");
  const { marks, rows } = await shownCandidates();
  assert.deepEqual(marks.map((m) => [m.id, m.badge, m.tier]), [
    ["A", "A · indentation", "fuzzy"],
    ["B", "B · indentation", "fuzzy"],
  ]);
  assert.deepEqual(rows.map((x) => [x.id, x.badge, x.quality]), [
    ["A", "A · indentation", "indentation"],
    ["B", "B · indentation", "indentation"],
  ]);
  assert.ok(marks.every((m) => m.classes.includes("tier-fuzzy")));
  assert.ok(await page.locator(`${tid("candidate-badge-A")}`).isVisible());
  assert.match(await page.locator(tid("candidates-note")).textContent(), /fuzzy/);
  // The Markdown's candidate lines (the page's default style, as the core's) carry the match quality.
  const md = await page.locator(tid("response-markdown")).textContent();
  assert.match(md, /\[A\] line \d+: .* · indentation/);
  assert.equal((await page.locator(tid("match-quality")).textContent()).trim(), "indentation");
  // The fuzzy tier is styled apart from an exact candidate.
  const [fuzzyBg, exactBg] = await page.evaluate(() => {
    const m = document.querySelector("mark.cand.tier-fuzzy .cand-badge");
    const probe = document.createElement("span");
    probe.className = "cand-badge tier-exact";
    document.body.append(probe);
    const out = [getComputedStyle(m).backgroundColor, getComputedStyle(probe).backgroundColor];
    probe.remove();
    return out;
  });
  assert.notEqual(fuzzyBg, exactBg);
  await page.screenshot({ path: path.join(shotDir, "playground-fuzzy-candidates.png"), fullPage: true });

  const s = await clickAndWait(tid("stage-candidate-B"));
  assert.equal(s.status, "Success");
  assert.equal(s.state, "PersistPending");
  assert.equal((await page.locator(tid("match-quality")).textContent()).trim(), "indentation");
  const added = await page.$$eval(`${tid("pending-preview")} .dl.add`, (ls) => ls.map((l) => l.textContent));
  assert.ok(
    added.some((l) => l.includes("│+\t\texcept (TimeoutError, ConnectionError):")),
    `re-indented with tabs: ${JSON.stringify(added)}`,
  );
  const lines = await documentLines();
  assert.equal(lines.filter((l) => l.text === "\t\texcept (TimeoutError, ConnectionError):").length, 1);
  assert.equal(lines.filter((l) => l.text === "\t\texcept TimeoutError:").length, 1, "candidate A untouched");
  assert.equal(await page.locator("mark.cand").count(), 0, "no highlights once the choice is made");
  await page.screenshot({ path: path.join(shotDir, "playground-fuzzy.png"), fullPage: true });
  assert.deepEqual(problems, []);
});

test("near-miss sample: a typo gives NoMatch with `A · similar:…`; stage A runs replace_selection", async () => {
  await page.selectOption(tid("sample-select"), "near-miss");
  await waitReady("near-miss");
  const r = await runSuggested();
  assert.equal(r.status, "NoMatch");
  assert.equal(r.state, "SelectionPending");
  assert.equal((await page.locator(tid("workflow-state")).textContent()).trim(), "SelectionPending");

  const badge = page.locator(tid("candidate-badge-A"));
  assert.ok(await badge.isVisible(), "the near-miss badge is visible in the document");
  const badgeText = (await badge.textContent()).trim();
  assert.match(badgeText, /^A · similar:0\.\d\d$/);
  const { marks, rows } = await shownCandidates();
  assert.ok(marks.length >= 1);
  assert.equal(marks[0].id, "A");
  assert.ok(marks.every((m) => m.tier === "near"), JSON.stringify(marks));
  assert.ok(marks[0].classes.includes("tier-near"), marks[0].classes);
  const lines = await documentLines();
  const target = lines.find((l) => l.text === "max_connections = 100");
  assert.equal(marks[0].line, target.line, "the badge sits on the similar line");
  assert.equal(rows.length, marks.length);
  assert.equal(rows[0].badge, badgeText);
  assert.equal(`A · ${rows[0].quality}`, badgeText, "the table shows the match_quality");
  assert.match(await page.locator(tid("candidates-note")).textContent(), /near miss/);
  // Near misses look different from fuzzy and exact candidates.
  const style = await page.evaluate(() => {
    const m = document.querySelector("mark.cand.tier-near");
    const cs = getComputedStyle(m);
    return { outline: cs.outlineStyle, badge: getComputedStyle(m.querySelector(".cand-badge")).backgroundColor };
  });
  assert.equal(style.outline, "dashed");
  // The JSON carries the same candidate; the Markdown says what differs.
  const json = JSON.parse(await page.locator(tid("response-json")).textContent());
  assert.equal(json.candidates[0].match_quality, badgeText.slice("A · ".length));
  assert.ok(json.visible_tools.includes("memo_replace_selection"));
  assert.match(await page.locator(tid("response-markdown")).textContent(), /similarity/);
  // What differs is shown under the candidates (the missing "n" is only in the document), and the
  // pending-changes panel does not mistake it for a pending diff.
  const ins = await page.$$eval(`${tid("near-miss-preview")} ins`, (els) => els.map((e) => e.textContent));
  assert.ok(ins.includes("n"), JSON.stringify(ins));
  assert.match(await page.locator(tid("near-miss-preview")).textContent(), /^\[A\] line 5, similarity/m);
  assert.equal(await page.locator(`${tid("pending-preview")}.empty`).count(), 1, "nothing is pending yet");
  await page.screenshot({ path: path.join(shotDir, "playground-near-miss.png"), fullPage: true });

  // Stage it: memo_replace_selection({ selection_id: "A" }) with the new_text of the search.
  const s = await clickAndWait(tid("stage-candidate-A"));
  assert.equal(s.status, "Success");
  assert.equal(s.state, "PersistPending");
  const hist = await page.$$eval(`${tid("history")} li .call-chip`, (ls) => ls.map((l) => l.textContent));
  assert.equal(hist.at(-1), "memo_replace_selection → Success");
  assert.match((await page.locator(tid("match-quality")).textContent()).trim(), /^similar:0\.\d\d\+merged$/);
  const added = await page.$$eval(`${tid("pending-preview")} .dl.add`, (ls) => ls.map((l) => l.textContent));
  assert.ok(added.some((l) => l.includes("max_connections = 250")), JSON.stringify(added));
  const after = await documentLines();
  assert.equal(after.find((l) => l.line === target.line).text, "max_connections = 250");
  await page.screenshot({ path: path.join(shotDir, "playground-near-miss-staged.png"), fullPage: true });
  assert.deepEqual(problems, []);
});
