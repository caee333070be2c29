// The agent context panes end to end in the built playground (target/playground), headless Debian
// Chromium: the task tree, the live context (Recent Diffs, the cursor and selection in Editor
// State), the token meter in every transcript format, the panes in locale zh, the memory pane, and
// axe over the whole page with the panes included.
// Run from the repo root: node --test www/playground/test/*.test.mjs
// Needs: `npm run build` in www/playground first (build.sh does it), /usr/bin/chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { axeViolations, tid, shotDir } from "./lib/browser.mjs";
import { openSharedPage, page, problems, lineNumber, docLine, runTool, clickAndWait, text, workflowPanel, switchOption, freshWorkspace, liveMarkdown, selectInDocument } from "./lib/shared-page.mjs";

openSharedPage();

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
