// End-to-end test of the built playground (target/playground) in headless Debian Chromium.
// Run from the repo root: node --test www/playground/test/*.test.mjs
// Needs: `npm run build` in www/playground first (build.sh does it), /usr/bin/chromium.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { playgroundHarness, axeViolations, tid, shotDir } from "./lib/browser.mjs";

const h = playgroundHarness();
const problems = h.problems;
let baseUrl;
/** One page for the whole file: the tests below build on each other's workspace, in order. */
let page;

before(async () => {
  page = await h.newPage(); // starts the server and the browser when the harness has not yet
  baseUrl = h.baseUrl;
});

// ---------------------------------------------------------------- helpers

async function waitReady(sampleId) {
  await page.waitForFunction(
    (id) => document.body.dataset.ready !== "false" && document.body.dataset.sample === id,
    sampleId,
  );
  const ready = await page.evaluate(() => document.body.dataset.ready);
  const fatal = await page.locator(tid("fatal")).textContent();
  assert.equal(ready, "true", `workspace not ready: ${fatal}`);
}

/**
 * The document view's lines (line number → text). The view is a CodeMirror editor that renders
 * only the lines in view, so this reads its state (the host element carries the EditorView); a
 * final newline does not open a line.
 */
async function documentLines() {
  return page.$eval(tid("document-view"), (host) => {
    const doc = host.editorView.state.doc;
    const out = [];
    for (let n = 1; n <= doc.lines; n++) out.push({ line: n, text: doc.line(n).text });
    if (out.length > 0 && out.at(-1).text === "" && (out.length > 1 || doc.length === 0)) out.pop();
    return out;
  });
}

/** The document view's line-number gutter element of a line (a click puts the cursor there). */
const lineNumber = (n) => `${tid("document")} .cm-lineNumbers .cm-gutterElement:text-is("${n}")`;
/** The document view's rendered line (`data-line` is set on the lines in view). */
const docLine = (n) => `${tid("document")} .cm-line[data-line="${n}"]`;

/** The console's JSON arguments (a CodeMirror editor: its lines). */
const argsText = () =>
  page.$eval(tid("args-input"), (el) => [...el.querySelectorAll(".cm-line")].map((l) => l.textContent).join("\n"));

async function historyCount() {
  return page.locator(`${tid("history")} li`).count();
}

/** Pick a tool in the console, type its JSON args, press Run, wait for the response. */
async function runTool(tool, args) {
  const before = await historyCount();
  await page.selectOption(tid("tool-select"), tool);
  await page.fill(tid("args-input"), JSON.stringify(args, null, 2));
  assert.equal(await page.locator(tid("args-error")).textContent(), "");
  await page.click(tid("run-button"));
  await page.waitForFunction(
    ([sel, n]) => document.querySelectorAll(sel).length > n && document.body.dataset.busy !== "true",
    [`${tid("history")} li`, before],
  );
  return {
    status: (await page.locator(tid("status-badge")).textContent())?.trim(),
    state: (await page.locator(tid("response-state-badge")).textContent())?.trim(),
  };
}

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

  const before = await historyCount();
  await page.click(tid("quick-commit"));
  await page.waitForFunction(
    ([sel, n]) => document.querySelectorAll(sel).length > n && document.body.dataset.busy !== "true",
    [`${tid("history")} li`, before],
  );
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

async function runSuggested() {
  const before = await historyCount();
  await page.click(tid("quick-suggested"));
  await page.click(tid("run-button"));
  await page.waitForFunction(
    ([sel, n]) => document.querySelectorAll(sel).length > n && document.body.dataset.busy !== "true",
    [`${tid("history")} li`, before],
  );
  return {
    status: (await page.locator(tid("status-badge")).textContent())?.trim(),
    state: (await page.locator(tid("response-state-badge")).textContent())?.trim(),
  };
}

async function clickAndWait(selector) {
  const before = await historyCount();
  await page.click(selector);
  await page.waitForFunction(
    ([sel, n]) => document.querySelectorAll(sel).length > n && document.body.dataset.busy !== "true",
    [`${tid("history")} li`, before],
  );
  return {
    status: (await page.locator(tid("status-badge")).textContent())?.trim(),
    state: (await page.locator(tid("response-state-badge")).textContent())?.trim(),
  };
}

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

// ---------------------------------------------------------------- workflow

const text = async (id) => ((await page.locator(tid(id)).textContent()) ?? "").trim();

/** What the workflow panel shows: state, mode, flags, pending count, last status, tools. */
async function workflowPanel() {
  return page.evaluate(() => {
    const q = (id) => document.querySelector(`[data-testid="${id}"]`);
    const chips = [...document.querySelectorAll('[data-testid="visible-tools"] [data-tool]')];
    return {
      state: q("wf-state").textContent.trim(),
      mode: q("wf-mode").textContent.trim(),
      flags: [...document.querySelectorAll('[data-testid="wf-flag"]')].map((f) => f.textContent.trim()),
      pending: Number(q("wf-pending").dataset.count),
      status: q("wf-status")?.textContent.trim() ?? null,
      summary: q("wf-summary")?.textContent.trim() ?? null,
      visible: chips.filter((c) => c.dataset.visible === "true").map((c) => c.dataset.tool),
      hidden: chips.filter((c) => c.dataset.visible === "false").map((c) => c.dataset.tool),
    };
  });
}

/** Pick `value` in the header select `testid` (it recreates the workspace) and wait for the new one. */
async function switchOption(testid, dataKey, value) {
  if ((await page.locator(tid(testid)).inputValue()) === value) return;
  await page.selectOption(tid(testid), value);
  await page.waitForFunction(
    ([k, v]) => document.body.dataset[k] === v && document.body.dataset.ready === "true",
    [dataKey, value],
  );
}

/** Switch sample (or reload it), persist mode, locale and candidate style, and wait for the new workspace. */
async function freshWorkspace(sampleId, mode = "manual", { locale = "en", candidateStyle = "table" } = {}) {
  await switchOption("persist-mode", "mode", mode);
  await switchOption("locale", "locale", locale);
  await switchOption("candidate-style", "candidateStyle", candidateStyle);
  if ((await page.evaluate(() => document.body.dataset.sample)) === sampleId) {
    await page.click(tid("reset"));
  } else {
    await page.selectOption(tid("sample-select"), sampleId);
  }
  await waitReady(sampleId);
  assert.equal(await historyCount(), 0, "a new workspace has no calls");
}

test("workflow: an external write under a staged edit gives ExternalConflict / OutOfSync; memo_rebase keeps the edit", async () => {
  await freshWorkspace("config");
  let wf = await workflowPanel();
  assert.equal(wf.state, "Idle");
  assert.equal(wf.mode, "manual");
  // Every tool is listed; the ones for other states are marked hidden.
  assert.ok(wf.visible.includes("memo_commit"), JSON.stringify(wf));
  for (const t of ["memo_rebase", "memo_replace_selection", "memo_persist_as", "memo_diff"]) {
    assert.ok(wf.hidden.includes(t), `${t} hidden in Idle: ${JSON.stringify(wf.hidden)}`);
  }
  assert.equal(wf.visible.length + wf.hidden.length, 20); // every tool but the two memory ones

  const r = await runTool("memo_replace", { old_text: '"experimental": []', new_text: '"experimental": ["X"]' });
  assert.equal(r.status, "Success");
  assert.equal(r.state, "PersistPending");
  wf = await workflowPanel();
  assert.equal(wf.state, "PersistPending");
  assert.deepEqual(wf.flags, ["PersistPending"]);
  assert.equal(wf.pending, 1);

  // Another program appends a line to config.json; the page says the next call will see it.
  await page.click(tid("simulate-external-write"));
  assert.match(await text("storage-unseen"), /next call/);
  assert.match(await text("notice"), /ExternalConflict/);
  assert.equal(await text("storage-version"), "v2");

  const c = await clickAndWait(tid("quick-commit"));
  assert.equal(c.status, "ExternalConflict");
  assert.equal(c.state, "OutOfSync");
  assert.equal((await page.locator(tid("workflow-state")).textContent()).trim(), "OutOfSync");
  wf = await workflowPanel();
  assert.equal(wf.state, "OutOfSync");
  assert.equal(wf.status, "ExternalConflict");
  assert.deepEqual(wf.flags.sort(), ["ExternalConflict", "OutOfSync"]);
  assert.equal(wf.pending, 1, "the staged edit is kept");
  assert.ok(wf.visible.includes("memo_rebase"), "memo_rebase is offered");
  assert.ok(wf.hidden.includes("memo_commit"), "commit is blocked");
  assert.match(await text("storage-differs"), /differs/);
  const next = await page.$$eval(`${tid("next-actions")} button`, (bs) => bs.map((b) => b.textContent));
  assert.ok(next.some((n) => n.startsWith("memo_rebase")), JSON.stringify(next));
  for (const p of [path.join(shotDir, "playground-workflow.png"), path.join(os.tmpdir(), "playground-workflow.png")]) {
    await page.screenshot({ path: p, fullPage: true });
  }
  // The document still shows the draft: the edit, without the external line.
  let lines = await documentLines();
  assert.ok(lines.some((l) => l.text.includes('"experimental": ["X"]')));
  assert.ok(!lines.some((l) => l.text.includes("# edited outside agentpad")));
  // A hidden tool is marked in the console.
  await page.selectOption(tid("tool-select"), "memo_commit");
  assert.match(await text("tool-hidden-warning"), /hidden in state OutOfSync/);

  // memo_diff against storage: the form renders the enum as a select.
  await page.selectOption(tid("tool-select"), "memo_diff");
  const options = await page.$$eval(`${tid("arg-against")} option`, (os) => os.map((o) => o.textContent));
  assert.deepEqual(options, ["(unset)", "base", "storage"]);
  await page.selectOption(tid("arg-against"), { label: "storage" });
  assert.deepEqual(JSON.parse(await argsText()), { against: "storage" });
  const d = await clickAndWait(tid("run-button"));
  assert.equal(d.status, "Success");
  const diff = await page.locator(tid("pending-preview")).textContent();
  assert.match(diff, /# edited outside agentpad/);

  await page.screenshot({ path: path.join(shotDir, "playground-workflow-diff.png"), fullPage: true });

  // memo_rebase re-applies the edit onto storage's text: PersistPending again, then commit → Idle.
  // A tool chip picks the tool in the console; it does not run it.
  const calls = await historyCount();
  await page.click(`${tid("visible-tools")} [data-tool="memo_rebase"]`);
  assert.equal(await page.locator(tid("tool-select")).inputValue(), "memo_rebase");
  assert.equal(await historyCount(), calls);
  const b = await clickAndWait(tid("run-button"));
  assert.equal(b.status, "Success");
  assert.equal(b.state, "PersistPending");
  lines = await documentLines();
  assert.ok(lines.some((l) => l.text.includes('"experimental": ["X"]')), "the edit is kept");
  assert.ok(lines.some((l) => l.text === "# edited outside agentpad"), "on top of storage's text");
  const done = await clickAndWait(tid("quick-commit"));
  assert.equal(done.status, "Success");
  assert.equal(done.state, "Idle");
  wf = await workflowPanel();
  assert.equal(wf.state, "Idle");
  assert.equal(wf.pending, 0);
  assert.equal(await text("storage-version"), "v3");
  const log = await page.$$eval(`${tid("storage-log")} li`, (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(log, ["external write config.json → v2", "saved config.json → v3"]);
  await page.screenshot({ path: path.join(shotDir, "playground-workflow-rebased.png"), fullPage: true });
  assert.deepEqual(problems, []);
});

test("workflow: an external write with nothing pending is reloaded silently and the next summary says so", async () => {
  await freshWorkspace("timeouts");
  await page.click(tid("simulate-external-write"));
  const r = await runTool("memo_read", {});
  assert.equal(r.status, "Success");
  assert.equal(r.state, "Idle");
  assert.match(await text("wf-summary"), /changed in storage .*reloaded/);
  const lines = await documentLines();
  assert.equal(lines.at(-1).text, "# edited outside agentpad");
  assert.equal(await page.locator(tid("storage-unseen")).count(), 0);
  assert.deepEqual(problems, []);
});

test("workflow: Fail next save, then commit → PersistFailure / OutOfSync; commit again → Success", async () => {
  await freshWorkspace("config");
  const r = await runTool("memo_replace", { old_text: '"level": "info"', new_text: '"level": "debug"' });
  assert.equal(r.status, "Success");
  await page.click(tid("fail-next-save"));
  assert.match(await text("armed-failures"), /next save fails/);

  const f = await clickAndWait(tid("quick-commit"));
  assert.equal(f.status, "PersistFailure");
  assert.equal(f.state, "OutOfSync");
  let wf = await workflowPanel();
  assert.equal(wf.state, "OutOfSync");
  assert.ok(wf.flags.includes("OutOfSync"), JSON.stringify(wf.flags));
  assert.equal(wf.pending, 1, "the draft is kept whole");
  assert.ok(wf.visible.includes("memo_commit"), "commit stays visible to retry");
  assert.ok(wf.visible.includes("memo_persist_as"));
  assert.match(wf.summary, /Could not save config\.json/);
  assert.equal(await page.locator(tid("armed-failures")).count(), 0, "the failure was used up");
  const log = await page.$$eval(`${tid("storage-log")} li`, (ls) => ls.map((l) => l.textContent));
  assert.match(log.at(-1), /^save failed config\.json: .*injected save failure/);
  assert.match(await text("response-markdown"), /PersistFailure/);

  const ok = await clickAndWait(tid("quick-commit"));
  assert.equal(ok.status, "Success");
  assert.equal(ok.state, "Idle");
  wf = await workflowPanel();
  assert.equal(wf.state, "Idle");
  assert.equal(wf.pending, 0);
  assert.equal(await text("storage-version"), "v2");
  const lines = await documentLines();
  assert.ok(lines.some((l) => l.text.includes('"level": "debug"')));
  assert.deepEqual(problems, []);
});

test("workflow: persist mode immediate recreates the workspace; a replace is saved at once (state Idle)", async () => {
  await freshWorkspace("timeouts");
  // Commit something first: switching keeps the saved text.
  await runTool("memo_replace", { old_text: "version: 3", new_text: "version: 4" });
  await clickAndWait(tid("quick-commit"));
  await page.selectOption(tid("persist-mode"), "immediate");
  await page.waitForFunction(() => document.body.dataset.mode === "immediate" && document.body.dataset.ready === "true");
  assert.match(await text("notice"), /persistMode "immediate" on the saved text of timeouts\.yaml; dropped 2 calls/);
  assert.equal(await historyCount(), 0);
  let wf = await workflowPanel();
  assert.equal(wf.mode, "immediate");
  assert.equal(wf.state, "Idle");
  // memo_commit stays offered: it answers that every edit is already saved (and is the retry
  // after a failed save); commit_auto has nothing to pick.
  assert.ok(!wf.hidden.includes("memo_commit"), "memo_commit is offered in immediate mode");
  assert.ok(wf.hidden.includes("memo_commit_auto"), "nothing for commit_auto in immediate mode");
  let lines = await documentLines();
  assert.ok(lines.some((l) => l.text === "version: 4"), "the document text is kept");

  const r = await runTool("memo_replace", { old_text: "environment: staging", new_text: "environment: production" });
  assert.equal(r.status, "Success");
  assert.equal(r.state, "Idle");
  assert.equal((await page.locator(tid("workflow-state")).textContent()).trim(), "Idle");
  lines = await documentLines();
  assert.ok(lines.some((l) => l.text === "environment: production"), "the document shows the new text");
  assert.doesNotMatch(await page.locator(tid("doc-meta")).textContent(), /modified/, "saved, not a draft");
  wf = await workflowPanel();
  assert.equal(wf.pending, 0);
  assert.match(wf.summary, /Staged change A at line \d+ \(\+\d+ chars\)\. Saved\./);
  assert.equal(await text("storage-version"), "v2");
  assert.match(await page.locator(tid("pending-changes")).textContent(), /No pending changes/);

  // Back to manual: the saved text is kept again.
  await page.selectOption(tid("persist-mode"), "manual");
  await page.waitForFunction(() => document.body.dataset.mode === "manual" && document.body.dataset.ready === "true");
  lines = await documentLines();
  assert.ok(lines.some((l) => l.text === "environment: production"));
  assert.deepEqual(problems, []);
});

test("workflow: memo_begin_task shows the task stack by depth; commit pops the inner task; the session log shows", async () => {
  await freshWorkspace("timeouts");
  await page.selectOption(tid("tool-select"), "memo_begin_task");
  // The form has the required goal and the optional parent_task_id.
  await page.fill(tid("arg-goal"), "Raise the timeouts");
  assert.deepEqual(JSON.parse(await argsText()), { goal: "Raise the timeouts" });
  let r = await clickAndWait(tid("run-button"));
  assert.equal(r.status, "Success");
  r = await runTool("memo_begin_task", { goal: "API timeout only" });
  assert.equal(r.status, "Success");

  const tasks = async () =>
    page.$$eval(`${tid("task-stack")} [data-testid="task-entry"]`, (es) =>
      es.map((e) => ({
        id: e.dataset.task,
        depth: Number(e.dataset.depth),
        goal: e.querySelector(".task-goal").textContent,
        indent: parseFloat(getComputedStyle(e).paddingLeft),
        current: e.classList.contains("current"),
      })),
    );
  let stack = await tasks();
  assert.deepEqual(
    stack.map((t) => [t.id, t.depth, t.goal, t.current]),
    [
      ["1", 1, "Raise the timeouts", false],
      ["2", 2, "API timeout only", true],
    ],
  );
  assert.ok(stack[1].indent > stack[0].indent, "the inner task is indented");
  assert.match(await text("response-markdown"), /Task stack/);

  r = await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "B" });
  assert.equal(r.status, "Success");
  r = await clickAndWait(tid("quick-commit"));
  assert.equal(r.status, "Success");
  stack = await tasks();
  assert.deepEqual(stack.map((t) => [t.id, t.goal]), [["1", "Raise the timeouts"]], "commit popped task 2");

  // memo_export_session: the session_log as a table (the page's own previews are marked auto_preview_…).
  await page.selectOption(tid("tool-select"), "memo_export_session");
  assert.match(await text("args-form"), /no arguments/);
  r = await clickAndWait(tid("run-button"));
  assert.equal(r.status, "Success");
  const rows = await page.$$eval(`${tid("session-log")} tbody tr`, (trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
  );
  const tools = rows.map((x) => x[1]);
  assert.deepEqual(
    tools.filter((t) => t !== "memo_preview"),
    ["memo_begin_task", "memo_begin_task", "memo_replace", "memo_commit", "memo_export_session"],
  );
  assert.equal(rows.at(-1)[2], "(running)");
  await page.screenshot({ path: path.join(shotDir, "playground-tasks.png"), fullPage: true });
  assert.ok(rows.every((x) => /^(call|auto_preview)_\d+$/.test(x[5])), JSON.stringify(rows.map((x) => x[5])));
  assert.deepEqual(problems, []);
});

// ---------------------------------------------------------------- locale, candidate style, Level of Detail

/** The Detail view (rendered `markdown`): its headings, list items and table headers. */
async function detailView() {
  return page.$eval(tid("response-markdown"), (el) => ({
    lang: el.getAttribute("lang"),
    headings: [...el.querySelectorAll("h3")].map((e) => e.textContent),
    items: [...el.querySelectorAll("li")].map((e) => e.textContent),
    columns: [...el.querySelectorAll("th")].map((e) => e.textContent),
  }));
}

test("locale zh + candidates list: the Detail view has 候选选区 and `[A] 第 … 行` lines, the Basic line `候选 A–C`", async () => {
  await freshWorkspace("timeouts");
  await runTool("memo_read", { start_line: 1, end_line: 3 });

  // Each switch recreates the workspace on the saved text and says what it dropped.
  await switchOption("locale", "locale", "zh");
  // The page speaks the session's locale: the notice is the page's own, in zh.
  assert.match(await text("notice"), /已用 locale "zh" 在 timeouts\.yaml 已保存的文本上重新创建工作区；丢弃了 1 次调用。下一次调用的 Markdown 会体现出来/);
  assert.equal(await historyCount(), 0);
  await switchOption("candidate-style", "candidateStyle", "list");
  assert.match(await text("notice"), /candidateStyle "list" 在 timeouts\.yaml 已保存的文本上/);
  assert.match(await page.locator(tid("mode-hint")).getAttribute("title"), /重新创建工作区/);

  const r = await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  assert.equal(r.status, "MultiMatch");
  assert.equal(r.state, "SelectionPending");

  assert.equal(await text("lod-basic-label"), "简略 （较早的历史）");
  assert.equal(await text("lod-detail-label"), "详细 （最新一次调用）");

  // Detail: the zh headings and one list line per candidate (no table).
  const detail = await detailView();
  assert.equal(detail.lang, "zh-Hans");
  assert.ok(detail.headings.includes("[Target] 候选选区"), JSON.stringify(detail.headings));
  assert.ok(detail.headings.includes("[Warning] 概览"), JSON.stringify(detail.headings));
  const cands = detail.items.filter((t) => /^\[[A-Z]\] /.test(t));
  assert.equal(cands.length, 3, JSON.stringify(detail.items));
  assert.ok(cands.every((t) => /^\[[A-C]\] 第 \d+ 行：/.test(t)), JSON.stringify(cands));
  assert.match(cands[0], /^\[A\] 第 12 行：database\.timeout: 30/);
  assert.ok(!detail.columns.includes("MarkerStart"), "list style has no candidates table");

  // Basic: the one line, with the zh candidates word.
  const basic = await text("response-basic");
  assert.match(basic, /^\[Warning\] MultiMatch · SelectionPending · /);
  assert.match(basic, /候选 A–C/);
  assert.ok(!basic.includes("\n"), "one line");
  assert.equal(await page.locator(tid("basic-history")).isVisible(), false, "no earlier call yet");

  // The page's own candidate highlighting works from the JSON, whatever the Markdown style.
  assert.equal(await page.locator(tid("candidate-A")).count(), 1);

  for (const p of [path.join(shotDir, "playground-lod.png"), "/tmp/playground-lod.png"]) {
    await page.screenshot({ path: p, fullPage: true });
  }
  assert.deepEqual(problems, []);
});

test("back to en + candidates table: the Detail view's candidates table has the MarkerStart column", async () => {
  await switchOption("locale", "locale", "en");
  assert.match(await text("notice"), /locale "en" .*; dropped 1 call\./);
  await switchOption("candidate-style", "candidateStyle", "table");
  await runTool("memo_read", { start_line: 10, end_line: 12 });
  const r = await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  assert.equal(r.status, "MultiMatch");

  const detail = await detailView();
  assert.equal(detail.lang, "en");
  assert.ok(detail.headings.includes("[Target] Candidates"), JSON.stringify(detail.headings));
  assert.ok(detail.columns.includes("MarkerStart"), JSON.stringify(detail.columns));
  assert.deepEqual(detail.columns.slice(-10), [
    "Id", "MarkerStart", "MarkerEnd", "Preview", "Occurrence", "ContextStart", "ContextEnd", "Line", "Recommended", "Quality",
  ]);
  assert.match(await text("response-basic"), /· candidates A–C$/);
  // The read before it, as the history keeps it: its Basic line.
  const earlier = await page.$$eval(`${tid("basic-history")} li`, (ls) => ls.map((l) => l.textContent));
  assert.equal(earlier.length, 1);
  assert.match(earlier[0], /^#1\[OK\] Success · Idle · Read lines 10–12 of 90 \(fingerprint `/);
  assert.deepEqual(problems, []);
});

test("Basic and Detail sit side by side in a wide response panel and stack in a narrow one", async () => {
  const boxes = async () => ({
    basic: await page.locator(tid("lod-basic")).boundingBox(),
    detail: await page.locator(tid("lod-detail")).boundingBox(),
  });
  let b = await boxes();
  assert.ok(b.basic.x + b.basic.width <= b.detail.x, `side by side: ${JSON.stringify(b)}`);
  assert.ok(Math.abs(b.basic.y - b.detail.y) < 2, `tops aligned: ${JSON.stringify(b)}`);
  await page.setViewportSize({ width: 640, height: 1000 });
  try {
    await page.waitForFunction(
      ([a, d]) => document.querySelector(d).getBoundingClientRect().top >= document.querySelector(a).getBoundingClientRect().bottom,
      [tid("lod-basic"), tid("lod-detail")],
    );
    b = await boxes();
    assert.ok(b.detail.y >= b.basic.y + b.basic.height, `stacked: ${JSON.stringify(b)}`);
  } finally {
    await page.setViewportSize({ width: 1600, height: 1000 });
  }
  assert.deepEqual(problems, []);
});

// ---------------------------------------------------------------- agent context panes

/** The task tree pane: the active stack and the finished tree, as nested [id, status, goal, summary, children]. */
async function taskTree() {
  return page.evaluate(() => {
    const walk = (ul) =>
      ul
        ? [...ul.children].map((li) => ({
            id: li.dataset.task,
            status: li.dataset.status,
            goal: li.querySelector(":scope > .tnode .tgoal").textContent,
            summary: li.querySelector(":scope > .tnode .tsummary")?.textContent ?? null,
            current: li.classList.contains("current"),
            children: walk(li.querySelector(":scope > ul")),
          }))
        : [];
    const list = (id) => {
      const el = document.querySelector(`[data-testid="${id}"]`);
      return el && el.tagName === "UL" ? walk(el) : [];
    };
    return {
      active: list("task-tree-active"),
      finished: list("task-tree-finished"),
      markdown: document.querySelector('[data-testid="task-tree-markdown"]').textContent,
      lang: document.querySelector('[data-testid="task-tree-markdown"]').getAttribute("lang"),
    };
  });
}

/** The live context's raw Markdown (the view must be "markdown"). */
const liveMarkdown = async () => page.locator(tid("live-context-markdown")).textContent();

/** The token meter's numbers. */
async function tokenMeter() {
  return page.$eval(tid("token-meter"), (el) => ({
    format: el.dataset.format,
    messagesBefore: Number(el.dataset.messagesBefore),
    messagesAfter: Number(el.dataset.messagesAfter),
    tokensBefore: Number(el.dataset.tokensBefore),
    tokensAfter: Number(el.dataset.tokensAfter),
    tokensSaved: Number(el.dataset.tokensSaved),
    sessions: el.querySelector('[data-testid="tm-sessions"]').textContent,
    before: JSON.parse(el.querySelector('[data-testid="tm-transcript-before"]').textContent),
    after: JSON.parse(el.querySelector('[data-testid="tm-transcript-after"]').textContent),
    bars: [...el.querySelectorAll(".tm-bar-fill")].map((b) => b.getBoundingClientRect().width),
  }));
}

const PANES = { "live-context": "live-context-panel", "task-tree": "task-tree-panel", "token-meter": "token-meter-panel" };

/** The whole page as `${prefix}.png`, and each named pane on its own as `${prefix}-${name}.png`. */
async function paneShots(prefix, names = Object.keys(PANES)) {
  await page.screenshot({ path: path.join(shotDir, `${prefix}.png`), fullPage: true });
  for (const name of names) {
    await page.locator(tid(PANES[name])).screenshot({ path: path.join(shotDir, `${prefix}-${name}.png`) });
  }
}

test("task tree pane: begun tasks nest under Active; commits and a revert finish them into the thought tree", async () => {
  await freshWorkspace("timeouts");
  let tree = await taskTree();
  assert.deepEqual(tree.active, []);
  assert.deepEqual(tree.finished, []);

  await runTool("memo_begin_task", { goal: "Raise the timeouts" });
  await runTool("memo_begin_task", { goal: "API timeout only" });
  tree = await taskTree();
  assert.equal(tree.active.length, 1, "one root");
  assert.equal(tree.active[0].goal, "Raise the timeouts");
  assert.equal(tree.active[0].current, false);
  assert.deepEqual(
    tree.active[0].children.map((t) => [t.id, t.status, t.goal, t.current]),
    [["2", "Active", "API timeout only", true]],
    "the subtask nests under its parent and is current",
  );
  assert.match(tree.markdown, /\[#2\] API timeout only \(current\)/);

  // The commit completes the subtask; the root stays active until it finishes too.
  await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "B" });
  let r = await runTool("memo_commit", { summary: "API timeout to 60" });
  assert.equal(r.status, "Success");
  tree = await taskTree();
  assert.deepEqual(tree.active.map((t) => [t.id, t.current]), [["1", true]]);
  assert.deepEqual(tree.finished, [], "no root has finished yet");

  // A second subtask, reverted; then a commit with nothing pending finishes the root.
  await runTool("memo_begin_task", { goal: "Cache timeout too" });
  await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 90", match_id: "B" });
  r = await runTool("memo_revert", { reason: "the cache keeps 30" });
  assert.equal(r.status, "Success");
  r = await runTool("memo_commit", { summary: "timeouts done" });
  assert.equal(r.status, "Success");
  tree = await taskTree();
  assert.deepEqual(tree.active, []);
  assert.deepEqual(
    tree.finished.map((t) => [t.id, t.status, t.goal, t.summary]),
    [["1", "Completed", "Raise the timeouts", "summary: timeouts done"]],
  );
  assert.deepEqual(
    tree.finished[0].children.map((t) => [t.id, t.status, t.goal, t.summary]),
    [
      ["2", "Completed", "API timeout only", "summary: API timeout to 60"],
      ["3", "Reverted", "Cache timeout too", "reason: the cache keeps 30"],
    ],
  );
  // The Markdown the model reads is the core's (ws.tasks().markdown), also in the live context.
  assert.match(tree.markdown, /Raise the timeouts/);
  assert.match(tree.markdown, /API timeout only/);
  assert.match(tree.markdown, /Cache timeout too/);
  assert.equal(tree.lang, "en");
  assert.ok((await liveMarkdown()).includes(tree.markdown.trim()), "the live context's task section");
  await paneShots("playground-context-tasks", ["task-tree"]);
  assert.deepEqual(problems, []);
});

/** Selects text in the document view from (line, column) to (line, column), as a mouse would, and releases. */
async function selectInDocument(from, to) {
  await page.evaluate(
    ([a, b]) => {
      // The text node and offset of a 1-based line and UTF-16 column (badges are not text).
      const point = (line, column) => {
        const code = document.querySelector(`[data-testid="document"] .cm-line[data-line="${line}"]`);
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT, {
          acceptNode: (n) => (n.parentElement.closest(".cand-badge") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
        });
        let left = column - 1;
        let last = null;
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (left <= n.length) return [n, left];
          left -= n.length;
          last = n;
        }
        return [last, last.length];
      };
      const [an, ao] = point(a.line, a.column);
      const [fn, fo] = point(b.line, b.column);
      // The editor reads the DOM selection (selectionchange) while its content has the focus.
      document.querySelector('[data-testid="document"] .cm-content').focus();
      window.getSelection().setBaseAndExtent(an, ao, fn, fo);
    },
    [from, to],
  );
}

test("live context pane: an edit and a commit show in Recent Diffs; the cursor and selection set from the document view and the inputs show in Editor State", async () => {
  await freshWorkspace("config");
  let md = await liveMarkdown();
  assert.match(md, /^# Live Context\n/);
  assert.match(md, /## Current Document\n`config\.json`/);
  assert.doesNotMatch(md, /## Recent Diffs/, "nothing committed yet");

  await runTool("memo_replace", { old_text: '"experimental": []', new_text: '"experimental": ["X"]' });
  md = await liveMarkdown();
  assert.match(md, /draft v0, 1 pending change/);
  assert.match(md, /- Workflow: PersistPending, 1 pending change/);
  await clickAndWait(tid("quick-commit"));

  md = await liveMarkdown();
  assert.match(md, /## Recent Diffs \(new→old\)\n- Version: v1 · config\.json · commit/);
  assert.match(md, /Summary: playground commit/);
  assert.match(md, /\n {2}-\s+"experimental": \[\]\n {2}\+\s+"experimental": \["X"\]\n/, md);
  assert.match(md, /## Editor State\n- Active file: `config\.json`\n- Workflow: Idle, 0 pending changes/);
  // The view is the exact text the model receives: the content parts joined by newlines.
  const parts = await page.$$eval(`${tid("live-context-markdown")} [data-part]`, (ss) => ss.map((s) => s.textContent));
  assert.equal(parts.join("\n"), md);
  assert.ok(parts.some((p) => p.startsWith("## Recent Diffs")));

  // The cursor from the inputs, applied with the keyboard (Enter submits the form).
  await page.fill(tid("cursor-line"), "3");
  await page.fill(tid("cursor-column"), "5");
  await page.focus(tid("cursor-column"));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /cursor 3:5/.test(document.querySelector('[data-testid="lc-editor-state"]')?.textContent ?? ""));
  md = await liveMarkdown();
  assert.match(md, /## Editor State\n- Active file: `config\.json`\n- Cursor: line 3, column 5\n/);
  assert.equal(await page.locator(`${tid("document")} .cm-line.cursor-line`).getAttribute("data-line"), "3");

  // A click on a line number: the cursor at the start of that line.
  await page.click(lineNumber(17));
  await page.waitForFunction(() => /cursor 17:1/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  assert.equal(await page.locator(tid("cursor-line")).inputValue(), "17");
  assert.match(await liveMarkdown(), /- Cursor: line 17, column 1\n/);

  // A real mouse drag from line 16 to line 17 sets a selection between them.
  const box16 = await page.locator(docLine(16)).boundingBox();
  const box17 = await page.locator(docLine(17)).boundingBox();
  await page.mouse.move(box16.x + 30, box16.y + box16.height / 2);
  await page.mouse.down();
  await page.mouse.move(box17.x + 80, box17.y + box17.height / 2, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => /selection 16:\d+ → 17:\d+/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  assert.match(await liveMarkdown(), /- Selection: line 16, column \d+ → line 17, column \d+: `/);

  // A selection in the document (line 16 column 6 → line 17 column 21): the cursor at its head.
  await selectInDocument({ line: 16, column: 6 }, { line: 17, column: 21 });
  await page.waitForFunction(() => /selection 16:6 → 17:21/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  md = await liveMarkdown();
  assert.match(md, /- Cursor: line 17, column 21\n- Selection: line 16, column 6 → line 17, column 21: `stable": \["A", "B", "C"\], {5}"experimental": `\n/, md);
  assert.deepEqual(
    await Promise.all(["sel-anchor-line", "sel-anchor-column", "sel-head-line", "sel-head-column"].map((id) => page.locator(tid(id)).inputValue())),
    ["16", "6", "17", "21"],
  );
  const selected = await page.$$eval(`${tid("document")} .cm-line.sel-line`, (rs) => rs.map((r) => r.dataset.line));
  assert.deepEqual(selected, ["16", "17"]);

  // The JSON view: the same block as data.
  await page.check(tid("lc-view-json"));
  const json = JSON.parse(await page.locator(tid("live-context-json")).textContent());
  assert.deepEqual(json.editor_state.cursor, { line: 17, column: 21 });
  assert.deepEqual(json.editor_state.selection.anchor, { line: 16, column: 6 });
  assert.equal(json.recent_diffs[0].kind, "commit");
  assert.equal(json.recent_diffs[0].summary, "playground commit");
  assert.equal(await page.locator(tid("lc-sections")).count(), 0, "no section links on the JSON");

  // Rendered: the page's Markdown renderer, with the section links.
  await page.check(tid("lc-view-rendered"));
  const headings = await page.$$eval(`${tid("live-context-rendered")} h2`, (hs) => hs.map((x) => x.textContent));
  assert.ok(headings.includes("Recent Diffs (new→old)"), JSON.stringify(headings));
  assert.ok(headings.includes("Editor State"), JSON.stringify(headings));
  const links = await page.$$eval(`${tid("lc-sections")} button`, (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(links.slice(0, 3), ["Live Context", "Current Document", "Recent Diffs (new→old)"]);

  // A position outside the draft: the core's message, the state unchanged.
  await page.fill(tid("cursor-line"), "999");
  await page.click(tid("editor-apply"));
  assert.match(await text("editor-error"), /cursor line must be from 1 to 19, got 999/);
  await page.check(tid("lc-view-markdown"));
  assert.match(await liveMarkdown(), /- Cursor: line 17, column 21\n/);
  // Back to a plain cursor for the screenshot; Clear drops both.
  await page.fill(tid("cursor-line"), "17");
  await page.fill(tid("cursor-column"), "5");
  for (const id of ["sel-anchor-line", "sel-anchor-column", "sel-head-line", "sel-head-column"]) await page.fill(tid(id), "");
  await page.click(tid("editor-apply"));
  assert.equal(await text("editor-error"), "");
  md = await liveMarkdown();
  assert.match(md, /- Cursor: line 17, column 5\n/);
  assert.doesNotMatch(md, /- Selection:/);
  // The section link scrolls the raw view to Editor State.
  await page.click(`${tid("lc-sections")} button:has-text("Editor State")`);
  await paneShots("playground-context-live", ["live-context"]);
  await page.click(tid("editor-clear"));
  assert.doesNotMatch(await liveMarkdown(), /- Cursor:/);
  assert.deepEqual(problems, []);
});

test("live context pane: a selection across a candidate's badge counts only the document's text", async () => {
  await freshWorkspace("timeouts");
  const r = await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  assert.equal(r.status, "MultiMatch");
  // Line 12 is `  timeout: 30`, marked as candidate A with a badge "A" before its text.
  await selectInDocument({ line: 12, column: 3 }, { line: 12, column: 10 });
  await page.waitForFunction(() => /selection 12:3 → 12:10/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  assert.match(await liveMarkdown(), /- Selection: line 12, column 3 → line 12, column 10: `timeout`\n/);
  assert.match(await liveMarkdown(), /- Workflow: SelectionPending, 0 pending changes/);
  assert.deepEqual(problems, []);
});

test("token meter: a few calls and a commit → fewer messages and tokens after compression, in every format", async () => {
  await freshWorkspace("timeouts");
  await page.check(tid("tm-format-openai"));
  let m = await tokenMeter();
  assert.equal(m.messagesBefore, 1, "the user's request");
  assert.equal(m.messagesAfter, 1);

  await runTool("memo_read", { start_line: 1, end_line: 5 });
  await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  await runTool("memo_replace_selection", { selection_id: "B" });
  await runTool("memo_replace", { old_text: "retries: 3", new_text: "retries: 5" });
  m = await tokenMeter();
  assert.equal(m.messagesBefore, 9, "the request, then an assistant call and its result per call");
  assert.equal(m.messagesAfter, 9, "no session has ended: nothing to compress");
  assert.equal(m.tokensAfter, m.tokensBefore);
  assert.match(m.sessions, /No edit session has ended yet/);
  // The transcript is what an OpenAI loop holds: the page's tool_call ids, the Markdown as results.
  const calls = m.before.filter((x) => x.role === "assistant").map((x) => x.tool_calls[0]);
  assert.deepEqual(
    calls.map((c) => [c.type, c.function.name]),
    [["function", "memo_read"], ["function", "memo_replace"], ["function", "memo_replace_selection"], ["function", "memo_replace"]],
  );
  assert.ok(calls.every((c) => /^call_\d+$/.test(c.id)), JSON.stringify(calls.map((c) => c.id)));
  assert.deepEqual(JSON.parse(calls[3].function.arguments), { old_text: "retries: 3", new_text: "retries: 5" });
  const results = m.before.filter((x) => x.role === "tool");
  assert.deepEqual(results.map((x) => x.tool_call_id), calls.map((c) => c.id));
  assert.match(results[1].content, /^status: `MultiMatch`/);

  const c = await clickAndWait(tid("quick-commit"));
  assert.equal(c.status, "Success");
  m = await tokenMeter();
  assert.equal(m.messagesBefore, 11);
  assert.ok(m.messagesAfter < m.messagesBefore, `fewer messages: ${m.messagesBefore} → ${m.messagesAfter}`);
  assert.ok(m.tokensAfter < m.tokensBefore, `fewer tokens: ${m.tokensBefore} → ${m.tokensAfter}`);
  assert.equal(m.tokensAfter, m.tokensBefore - m.tokensSaved);
  assert.equal(m.after.length, m.messagesAfter);
  assert.match(m.sessions, /edit session #1\./);
  // The read before the session stays; the session's calls are one summary message.
  assert.equal(m.after[1].tool_calls[0].function.name, "memo_read");
  const openaiCallsLeft = m.after.flatMap((x) => x.tool_calls ?? []).map((c) => c.id);
  const summary = m.after.find((x) => x.role === "assistant" && typeof x.content === "string");
  assert.match(summary.content, /^\[Edit session #1 committed\]\nSummary: playground commit\n/);
  assert.ok(m.bars[1] < m.bars[0], `the after bar is shorter: ${m.bars}`);
  const rows = await page.$$eval(`${tid("token-meter")} tbody tr`, (trs) => trs.map((tr) => tr.textContent));
  assert.match(rows[0], /^messages11\d+−\d+ removed$/);
  assert.match(rows[1], /^tokens \(est\.\)[\d,]+[\d,]+−[\d,]+ saved \(\d+%\)$/);
  await paneShots("playground-context-meter", ["token-meter"]);

  // Anthropic: tool_use / tool_result blocks; still fewer after.
  await page.check(tid("tm-format-anthropic"));
  m = await tokenMeter();
  assert.equal(m.format, "anthropic");
  assert.equal(m.messagesBefore, 11);
  assert.equal(m.before[1].content[0].type, "tool_use");
  assert.equal(m.before[2].content[0].type, "tool_result");
  assert.ok(m.messagesAfter < m.messagesBefore, `fewer messages: ${m.messagesBefore} → ${m.messagesAfter}`);
  assert.ok(m.tokensAfter < m.tokensBefore);
  assert.ok(JSON.stringify(m.after).includes("[Edit session #1 committed]"));
  const roles = m.after.map((x) => x.role);
  assert.ok(roles.every((role, i) => i === 0 || role !== roles[i - 1]), `turns alternate: ${roles}`);
  // OpenAI Responses items and AI SDK ModelMessages: the same calls leave, one summary comes.
  const callIds = {
    "openai-responses": (list) => list.filter((x) => x.type === "function_call").map((x) => x.call_id),
    "ai-sdk": (list) => list.flatMap((x) => (Array.isArray(x.content) ? x.content : [])).filter((p) => p.type === "tool-call").map((p) => p.toolCallId),
  };
  for (const [format, ids] of Object.entries(callIds)) {
    await page.check(tid(`tm-format-${format}`));
    m = await tokenMeter();
    assert.equal(m.format, format);
    assert.equal(m.messagesBefore, 11);
    assert.equal(ids(m.before).length, 5, `${format}: five calls before`);
    assert.deepEqual(ids(m.after), openaiCallsLeft, `${format}: the calls left are OpenAI's`);
    assert.ok(m.messagesAfter < m.messagesBefore && m.tokensAfter < m.tokensBefore, `${format}: fewer after`);
    assert.equal(m.after.filter((x) => typeof x.content === "string" && x.content.startsWith("[Edit session #1 committed]")).length, 1);
  }
  await page.check(tid("tm-format-openai"));
  assert.deepEqual(problems, []);
});

test("agent context panes in locale zh: the core's zh headings, lang zh-Hans, CJK tokens counted", async () => {
  await freshWorkspace("timeouts", "manual", { locale: "zh" });
  await runTool("memo_begin_task", { goal: "调整超时" });
  await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "A" });
  await clickAndWait(tid("quick-commit"));
  await page.click(lineNumber(12));
  await page.waitForFunction(() => /光标 12:1/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  const md = await liveMarkdown();
  assert.match(md, /^# 实时上下文\n/);
  assert.match(md, /## 最近变更（新→旧）/);
  assert.match(md, /## 编辑器状态\n- [^\n]*`timeouts\.yaml`\n- [^\n]*12[^\n]*1[^\n]*\n/);
  await page.check(tid("lc-view-json"));
  const json = JSON.parse(await page.locator(tid("live-context-json")).textContent());
  assert.deepEqual(json.editor_state.cursor, { line: 12, column: 1 });
  await page.check(tid("lc-view-markdown"));
  assert.equal(await page.locator(tid("live-context-markdown")).getAttribute("lang"), "zh-Hans");
  const tree = await taskTree();
  assert.equal(tree.lang, "zh-Hans");
  assert.match(tree.markdown, /调整超时/);
  assert.deepEqual(tree.finished.map((t) => [t.status, t.goal]), [["Completed", "调整超时"]]);
  const m = await tokenMeter();
  assert.equal(m.before[0].content, "请用 memo_* 工具编辑 timeouts.yaml。");
  assert.ok(m.messagesAfter < m.messagesBefore);
  assert.ok(m.tokensAfter < m.tokensBefore);
  assert.ok(JSON.stringify(m.after).includes("[编辑会话 #1 已提交]"));
  await paneShots("playground-context-zh");
  await switchOption("locale", "locale", "en");
  assert.deepEqual(problems, []);
});

test("memory pane: a turn added with ws.memory.add shows in the digest and the live context; memory: true offers the memory tools, which find it", async () => {
  await freshWorkspace("timeouts");
  assert.equal(await page.locator(tid("memory-tools")).isChecked(), false);
  assert.match(await text("memory-digest"), /no turn stored yet/);
  assert.doesNotMatch(await liveMarkdown(), /## Memory/);

  // A summary is required; the page says so and stores nothing.
  await page.click(tid("mem-add"));
  assert.match(await text("mem-error"), /needs a summary/);

  await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "B" });
  await clickAndWait(tid("quick-commit"));
  await page.fill(tid("mem-summary"), "Raised the API timeout to 60");
  await page.click(tid("mem-use-live"));
  assert.match(await page.locator(tid("mem-context")).inputValue(), /^# Live Context\n/);
  await page.fill(tid("mem-insights"), "several timeout: 30 lines; pick with match_id");
  await page.fill(tid("mem-tags"), "timeouts, api");
  // Enter in a field submits the form.
  await page.focus(tid("mem-tags"));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('[data-testid="memory-view"]')?.dataset.turns === "1");
  assert.equal(await text("memory-digest"), "[Turn 1] Raised the API timeout to 60");
  assert.equal(await text("mem-error"), "");
  const turn = await page.$eval(`${tid("memory-turns")} li[data-turn="1"]`, (li) => ({
    tags: [...li.querySelectorAll(":scope > .tag")].map((t) => t.textContent),
    insights: [...li.querySelectorAll(".mem-insights li")].map((t) => t.textContent),
  }));
  assert.deepEqual(turn, { tags: ["timeouts", "api"], insights: ["several timeout: 30 lines", "pick with match_id"] });
  assert.match(await liveMarkdown(), /## Memory\n\[Turn 1\] Raised the API timeout to 60\n/);
  let tools = await page.$$eval(`${tid("tool-select")} option`, (os) => os.map((o) => o.value));
  assert.ok(!tools.includes("memo_search_memory"), "no memory tools without memory: true");

  // memory: true recreates the workspace; the stored turn goes over to it.
  await page.check(tid("memory-tools"));
  await page.waitForFunction(() => document.body.dataset.memory === "true" && document.body.dataset.ready === "true");
  assert.match(await text("notice"), /memory "true" on the saved text of timeouts\.yaml; dropped 2 calls\. Kept 1 memory turn\./);
  assert.equal(await text("memory-digest"), "[Turn 1] Raised the API timeout to 60");
  tools = await page.$$eval(`${tid("tool-select")} option`, (os) => os.map((o) => o.value));
  assert.ok(tools.includes("memo_recall_context") && tools.includes("memo_search_memory"), JSON.stringify(tools));
  const r = await runTool("memo_search_memory", { query: "API timeout" });
  assert.equal(r.status, "Success");
  assert.match(await text("response-markdown"), /\[Turn 1\] Raised the API timeout to 60/);
  const recall = await runTool("memo_recall_context", { turn_numbers: [1] });
  assert.equal(recall.status, "Success");
  assert.match(await text("response-markdown"), /# Live Context/, "the stored context comes back");
  await paneShots("playground-context-memory", ["live-context"]);
  await page.locator(tid("memory-panel")).screenshot({ path: path.join(shotDir, "playground-context-memory-pane.png") });

  await page.uncheck(tid("memory-tools"));
  await page.waitForFunction(() => document.body.dataset.memory === "false" && document.body.dataset.ready === "true");
  const wf = await workflowPanel();
  assert.equal(wf.visible.length + wf.hidden.length, 20, "the memory tools are gone again");
  assert.deepEqual(problems, []);
});

// ---------------------------------------------------------------- CodeMirror document and diff views

/** Writes `text` to storage as the document on screen ("Edit the stored text by hand"); the next call loads it. */
async function writeStored(text) {
  await page.evaluate((t) => {
    document.querySelector('[data-testid="external-text"]').value = t;
    document.querySelector('[data-testid="external-write-text"]').click();
  }, text);
}

/** The candidate marks of the CodeMirror view: letter, line, badge, the text they cover, the text before them on their line. */
async function cmCandidateMarks() {
  return page.$$eval(`${tid("document")} .cm-content mark.cand`, (ms) =>
    ms.map((m) => {
      const c = m.cloneNode(true);
      c.querySelectorAll(".cand-badge").forEach((b) => b.remove());
      const line = m.closest(".cm-line");
      const range = document.createRange();
      range.setStart(line, 0);
      range.setEndBefore(m);
      const before = range.cloneContents();
      before.querySelectorAll(".cand-badge").forEach((b) => b.remove());
      return {
        id: m.dataset.candidate,
        first: m.dataset.testid === `candidate-${m.dataset.candidate}`,
        line: Number(m.dataset.line),
        viewLine: Number(line.dataset.line),
        badge: m.querySelector(".cand-badge")?.textContent ?? null,
        text: c.textContent,
        before: before.textContent,
        classes: m.className,
      };
    }),
  );
}

// CJK, an astral CJK character (𠮷, two UTF-16 units), a ZWJ emoji sequence and emoji before the
// matches: the candidates' UTF-16 ranges must land exactly on "超时: 30".
const CJK_TEXT = [
  "# 配置 🎉",
  "服务:",
  '  名称: "接口 🚀"',
  "  超时: 30",
  "缓存:",
  '  表情: "👩‍💻 𠮷野家"',
  "  超时: 30",
  "队列:",
  "  😀 超时: 30 # 注释",
  "",
].join("\n");

test("CodeMirror document view: a MultiMatch in CJK / emoji text marks A, B, C with their badges on exactly the matched text; the cursor and a selection feed Editor State", async () => {
  await freshWorkspace("timeouts");
  assert.equal(await page.locator(`${tid("document")}.cm-editor`).count(), 1, "the document view is a CodeMirror editor");
  const content = page.locator(`${tid("document")} .cm-content`);
  assert.match(await content.getAttribute("aria-label"), /Document/);
  assert.equal(await content.getAttribute("aria-readonly"), "true");
  await writeStored(CJK_TEXT);
  const r = await runTool("memo_replace", { old_text: "超时: 30", new_text: "超时: 600 ⏱" });
  assert.equal(r.status, "MultiMatch");
  assert.deepEqual((await documentLines()).map((l) => l.text), CJK_TEXT.replace(/\n$/, "").split("\n"));
  const marks = await cmCandidateMarks();
  assert.deepEqual(
    marks.map((m) => [m.id, m.line, m.viewLine, m.badge, m.text, m.first]),
    [
      ["A", 4, 4, "A", "超时: 30", true],
      ["B", 7, 7, "B", "超时: 30", true],
      ["C", 9, 9, "C", "超时: 30", true],
    ],
  );
  assert.deepEqual(marks.map((m) => m.before), ["  ", "  ", "  😀 "], "exact UTF-16 starts after the emoji");
  // The candidates' lines are marked in the line-number gutter.
  const gutter = await page.$$eval(`${tid("document")} .cm-lineNumbers .cm-gutterElement.has-cand`, (es) => es.map((e) => e.textContent));
  assert.deepEqual(gutter, ["4", "7", "9"]);
  // The badge is in the mark, before the text, and is not part of the document.
  assert.ok(await page.locator(tid("candidate-badge-C")).isVisible());
  assert.equal(await page.locator(`${tid("candidate-C")} .cand-badge`).getAttribute("aria-hidden"), "true");
  // stage/use buttons under the document, as before.
  for (const id of ["A", "B", "C"]) {
    assert.equal(await page.locator(tid(`stage-candidate-${id}`)).count(), 1);
    assert.equal(await page.locator(tid(`use-candidate-${id}`)).count(), 1);
  }

  // A selection of "超时" on line 9, after "  😀 " (5 UTF-16 units): columns 6 → 8.
  await selectInDocument({ line: 9, column: 6 }, { line: 9, column: 8 });
  await page.waitForFunction(() => /selection 9:6 → 9:8/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  assert.match(await liveMarkdown(), /- Selection: line 9, column 6 → line 9, column 8: `超时`\n/);
  // The keyboard: Shift+ArrowRight extends it by one character; ArrowUp collapses it to its start
  // (a cursor at 9:6), then moves up a line.
  await page.keyboard.press("Shift+ArrowRight");
  await page.waitForFunction(() => /selection 9:6 → 9:9/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  await page.keyboard.press("ArrowUp");
  await page.waitForFunction(() => /cursor 9:6$/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent.trim()));
  await page.keyboard.press("ArrowUp");
  await page.waitForFunction(() => /cursor 8:\d+$/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent.trim()));
  assert.equal(await page.locator(`${tid("document")} .cm-line.cursor-line`).getAttribute("data-line"), "8");
  assert.equal(await page.locator(`${tid("document")} .cm-gutterElement.cursor-line`).textContent(), "8");
  // A click on a line number: line 4, column 1.
  await page.click(lineNumber(4));
  await page.waitForFunction(() => /cursor 4:1$/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent.trim()));
  // The inputs move the editor's own cursor too (line 6, column 8: inside the ZWJ sequence's text).
  await page.fill(tid("cursor-line"), "6");
  await page.fill(tid("cursor-column"), "9");
  await page.click(tid("editor-apply"));
  await page.waitForFunction(() => /cursor 6:9/.test(document.querySelector('[data-testid="lc-editor-state"]').textContent));
  const head = await page.$eval(tid("document-view"), (host) => {
    const s = host.editorView.state;
    const p = s.selection.main.head;
    const l = s.doc.lineAt(p);
    return [l.number, p - l.from + 1];
  });
  assert.deepEqual(head, [6, 9]);
  await page.locator("section.doc-panel").screenshot({ path: path.join(shotDir, "playground-codemirror-badges.png") });
  assert.deepEqual(problems, []);
});

test("CodeMirror document view: staged changes are highlighted at their draft ranges; the diff view shows the core's preview and memo_diff, line by line", async () => {
  // Continues from the MultiMatch above: stage B (line 7) with the search's new_text (longer).
  const s = await clickAndWait(tid("stage-candidate-B"));
  assert.equal(s.status, "Success");
  assert.equal(await page.locator(`${tid("document")} mark.cand`).count(), 0, "no candidates once the choice is made");
  // Then a shorter replacement before it (line 4): B's draft range moves by the length difference.
  const r = await runTool("memo_replace", { old_text: "超时: 30", new_text: "超时: 1", match_id: "A" });
  assert.equal(r.status, "Success");
  const pending = await page.$$eval(`${tid("document")} .cm-content .pending`, (ms) =>
    ms.map((m) => [Number(m.closest(".cm-line").dataset.line), m.textContent, m.dataset.change]),
  );
  const changes = await page.$$eval(`${tid("pending-changes")} tbody tr`, (trs) => trs.map((tr) => [tr.dataset.change, tr.querySelectorAll("td")[1].textContent]));
  assert.equal(changes.length, 2, JSON.stringify(changes));
  const idAt = (line) => changes.find((c) => c[1] === `timeouts.yaml:${line}`)?.[0];
  assert.deepEqual(pending, [
    [4, "超时: 1", idAt(4)],
    [7, "超时: 600 ⏱", idAt(7)],
  ]);
  assert.equal(await page.$eval(tid("document"), (e) => e.dataset.pending), "2");
  const gutter = await page.$$eval(`${tid("document")} .cm-gutterElement.has-pending`, (es) => es.map((e) => e.textContent));
  assert.deepEqual(gutter, ["4", "7"]);

  // The diff view: a CodeMirror editor holding exactly the core's preview, each line classed by its mark.
  const diffState = async () =>
    page.$eval(tid("pending-preview"), (host) => ({
      text: host.editorView.state.doc.toString(),
      lines: [...host.querySelectorAll(".cm-line")].map((l) => [l.dataset.kind, l.className.includes(`dl ${l.dataset.kind}`), l.textContent]),
    }));
  const json = () => page.locator(tid("response-json")).textContent().then(JSON.parse);
  let d = await diffState();
  let preview = (await json()).preview;
  assert.equal(d.text, preview.replace(/\n$/, ""), "the diff view shows the core's text, nothing else");
  assert.ok(d.lines.every(([, classed]) => classed));
  const kindOf = (t) => {
    const bar = t.indexOf("│");
    if (bar < 0) return "meta";
    return { "-": "del", "+": "add" }[t[bar + 1]] ?? "ctx";
  };
  assert.deepEqual(d.lines.map(([k]) => k), d.lines.map(([, , t]) => kindOf(t)));
  assert.ok(d.lines.some(([k, , t]) => k === "add" && t.includes("超时: 1")));
  assert.ok(d.lines.some(([k, , t]) => k === "del" && t.includes("超时: 30")));
  await page.locator("section.doc-panel").screenshot({ path: path.join(shotDir, "playground-codemirror-pending.png") });

  // memo_diff: the unified diff the core writes (---/+++, @@ hunks), classed by its first column.
  const m = await runTool("memo_diff", {});
  assert.equal(m.status, "Success");
  d = await diffState();
  preview = (await json()).preview;
  assert.equal(d.text, preview.replace(/\n$/, ""));
  const unified = (t) => (t.startsWith("@@") ? "hunk" : /^(---|\+\+\+)/.test(t) ? "file" : { "-": "del", "+": "add", " ": "ctx" }[t[0]] ?? "meta");
  assert.deepEqual(d.lines.map(([k]) => k), d.lines.map(([, , t]) => unified(t)));
  const kinds = new Set(d.lines.map(([k]) => k));
  for (const k of ["file", "hunk", "add", "del"]) assert.ok(kinds.has(k), `a ${k} line in ${JSON.stringify(d.lines)}`);
  for (const t of ["+  超时: 1", "+  超时: 600 ⏱", "-  超时: 30"]) assert.ok(d.lines.some(([, , x]) => x === t), `${t} in ${JSON.stringify(d.lines)}`);
  assert.equal(await page.locator(`${tid("pending-preview")} .cm-content`).getAttribute("aria-label"), "Pending diff");
  await page.locator("section.pending-panel").screenshot({ path: path.join(shotDir, "playground-codemirror-diff.png") });
  // Committed: no pending highlight, the empty note in the diff view.
  await clickAndWait(tid("quick-commit"));
  assert.equal(await page.locator(`${tid("document")} .cm-content .pending`).count(), 0);
  assert.equal(await page.locator(`${tid("pending-preview")}.empty`).count(), 1);
  assert.deepEqual(problems, []);
});

test("accessibility: axe finds no violations in the page, the agent context panes included", async () => {
  await freshWorkspace("timeouts");
  await runTool("memo_begin_task", { goal: "Raise the timeouts" });
  await runTool("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  await page.click(lineNumber(12));
  const scan = (include) => axeViolations(page, include ?? []);
  for (const view of ["markdown", "rendered", "json"]) {
    await page.check(tid(`lc-view-${view}`));
    const v = await scan([tid("live-context-panel"), tid("task-tree-panel"), tid("token-meter-panel")]);
    assert.deepEqual(v, [], `the panes (live context as ${view}): ${JSON.stringify(v, null, 1)}`);
  }
  await page.check(tid("lc-view-markdown"));
  let all = await scan(null);
  assert.deepEqual(all, [], `the whole page: ${JSON.stringify(all, null, 1)}`);
  // After a commit (the meter's savings, the finished tree), every <details> open.
  await runTool("memo_replace_selection", { selection_id: "B" });
  await clickAndWait(tid("quick-commit"));
  await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
  all = await scan(null);
  assert.deepEqual(all, [], `the whole page after a commit: ${JSON.stringify(all, null, 1)}`);
  // Keyboard: the view radios move with the arrow keys, the section links take focus.
  await page.focus(tid("lc-view-markdown"));
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.locator(tid("lc-view-rendered")).isChecked(), true);
  assert.equal(await page.locator(tid("live-context-rendered")).count(), 1);
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.locator(tid("live-context-markdown")).count(), 1);
  assert.deepEqual(problems, []);
});

test("CodeMirror document view: a 10 MB document loads, shows its first lines, scrolls to the end and takes a selection", async () => {
  await freshWorkspace("timeouts");
  const t0 = Date.now();
  // Generated in the page (~10 MB of UTF-16 text, CJK and emoji included), written to storage.
  const made = await page.evaluate(() => {
    const parts = [];
    let chars = 0;
    let i = 0;
    while (chars < 10_000_000) {
      const line = `${i + 1}: 设置 key_${i % 997} = "value ${"x".repeat(i % 50)}" 🎉 # line ${i + 1}\n`;
      parts.push(line);
      chars += line.length;
      i++;
    }
    const text = parts.join("");
    const t = performance.now();
    // Through the (closed) hand editor, emptied again: a 10 MB textarea on screen is not the view under test.
    document.querySelector('[data-testid="external-edit"]').open = false;
    const area = document.querySelector('[data-testid="external-text"]');
    area.value = text;
    document.querySelector('[data-testid="external-write-text"]').click();
    area.value = "";
    return { lines: i, chars: text.length, writeMs: performance.now() - t, last: parts[i - 1].slice(0, -1) };
  });
  const tMade = Date.now();
  // The next call loads it (nothing pending: a silent reload), and the page renders the draft.
  const r = await runTool("memo_read", { start_line: 1, end_line: 3 });
  assert.equal(r.status, "Success");
  await page.waitForSelector(`${docLine(1)}`);
  const tLoaded = Date.now();
  assert.match(await page.locator(tid("doc-meta")).textContent(), new RegExp(`${made.lines} lines · ${made.chars} chars`));
  assert.equal(await page.locator(docLine(1)).textContent(), `1: 设置 key_0 = "value " 🎉 # line 1`);
  const rendered = await page.locator(`${tid("document")} .cm-line`).count();
  assert.ok(rendered < 500, `only the lines in view are in the DOM (${rendered})`);

  // The keyboard: Ctrl+End goes to the end of the document (after the final newline: for the core,
  // the end of the last line); the view scrolls there.
  await page.click(docLine(2));
  const t1 = Date.now();
  await page.keyboard.press("Control+End");
  await page.waitForSelector(docLine(made.lines), { timeout: 30_000 });
  await page.waitForFunction(
    ([n, c]) => new RegExp(`cursor ${n}:${c}$`).test(document.querySelector('[data-testid="lc-editor-state"]').textContent.trim()),
    [made.lines, made.last.length + 1],
    { timeout: 30_000 },
  );
  const tEnd = Date.now();
  assert.equal(await page.locator(docLine(made.lines)).textContent(), made.last);
  // A selection of the last line with the keyboard.
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+End");
  await page.waitForFunction(
    (n) => new RegExp(`selection ${n}:1 → ${n}:\\d+`).test(document.querySelector('[data-testid="lc-editor-state"]').textContent),
    made.lines,
    { timeout: 30_000 },
  );
  const tSel = Date.now();
  // Scrolling to the middle by the scrollbar: the lines there are drawn.
  const mid = await page.$eval(`${tid("document")} .cm-scroller`, async (s) => {
    s.scrollTop = s.scrollHeight / 2;
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    await new Promise((res) => setTimeout(res, 50));
    const lines = [...s.querySelectorAll(".cm-line[data-line]")].map((l) => Number(l.dataset.line));
    return Math.min(...lines);
  });
  const tMid = Date.now();
  assert.ok(mid > made.lines / 4 && mid < (made.lines * 3) / 4, `the middle is drawn (first line in view ${mid} of ${made.lines})`);
  await page.locator("section.doc-panel").screenshot({ path: path.join(shotDir, "playground-codemirror-10mb.png") });
  console.log(
    `10 MB document: ${made.chars.toLocaleString("en")} chars, ${made.lines.toLocaleString("en")} lines; ` +
      `generate+write ${tMade - t0} ms (storage.write ${made.writeMs.toFixed(0)} ms), ` +
      `memo_read + render ${tLoaded - tMade} ms, Ctrl+End to the last line ${tEnd - t1} ms, ` +
      `Shift+End selection → Editor State ${tSel - tEnd} ms, scroll to the middle ${tMid - tSel} ms`,
  );
  // Back to a small document for whatever runs next.
  await freshWorkspace("timeouts");
  assert.deepEqual(problems, []);
});
