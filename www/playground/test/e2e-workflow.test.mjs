// The workflow panel end to end in the built playground (target/playground), headless Debian
// Chromium: an external write (a conflict under a staged edit, a silent reload without one), a
// failed save, persist mode immediate and the task stack.
// Run from the repo root: node --test www/playground/test/*.test.mjs
// Needs: `npm run build` in www/playground first (build.sh does it), /usr/bin/chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { tid, shotDir } from "./lib/browser.mjs";
import { openSharedPage, page, problems, documentLines, argsText, historyCount, runTool, clickAndWait, text, workflowPanel, freshWorkspace } from "./lib/shared-page.mjs";

openSharedPage();

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
