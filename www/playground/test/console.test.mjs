// The tool console in the built playground (target/playground), headless Chromium:
// the tool list from ws.toolStates(), the CodeMirror JSON editor with ajv lint, the form ↔ JSON sync,
// and the call history (pin, replay, export → import).
// Run from the repo root: node --test www/playground/test/console.test.mjs
// Needs: `npm run build` in www/playground first (build.sh does it), /usr/bin/chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { playgroundHarness, waitReady, axeViolations, tid, shotDir } from "./lib/browser.mjs";

const h = playgroundHarness();

// ---------------------------------------------------------------- helpers

const readyPage = () => h.readyPage();

const text = async (page, id) => ((await page.locator(tid(id)).textContent()) ?? "").trim();

/** The CodeMirror JSON editor's text. */
const argsText = (page) =>
  page.$eval(tid("args-input"), (el) => [...el.querySelectorAll(".cm-line")].map((l) => l.textContent).join("\n"));

async function setArgs(page, value) {
  await page.fill(tid("args-input"), typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

/** The lint marks in the editor, once the linter has run (150 ms debounce). */
async function lintMarks(page, atLeast = 1) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="args-input"] .cm-lintRange-error').length >= n, atLeast);
  return page.$$eval(`${tid("args-input")} .cm-lintRange-error`, (els) => els.map((e) => e.textContent));
}

const historyCount = (page) => page.locator(`${tid("history")} li`).count();

/** Run a tool from the console and wait for its call to land in the history. */
async function runTool(page, tool, args) {
  const before = await historyCount(page);
  await page.selectOption(tid("tool-select"), tool);
  await setArgs(page, args);
  assert.equal(await text(page, "args-error"), "");
  await page.click(tid("run-button"));
  await waitCalls(page, before + 1);
}

async function waitCalls(page, n) {
  await page.waitForFunction(
    (k) => document.querySelectorAll('[data-testid="history"] li').length === k && document.body.dataset.busy !== "true",
    n,
  );
}

const historyRows = (page) =>
  page.$$eval(`${tid("history")} li`, (lis) =>
    lis.map((li) => ({ call: li.querySelector(".call-chip").textContent, args: li.querySelector(".call-args").title })),
  );

const shot = (page, name) => page.screenshot({ path: path.join(shotDir, `playground-console-${name}.png`), fullPage: true });
const consoleShot = (page, name) =>
  page.locator(".console-panel").screenshot({ path: path.join(shotDir, `playground-console-${name}.png`) });

// ---------------------------------------------------------------- tests

test("hidden tools are greyed with their reason and become available after a MultiMatch", async () => {
  const page = await readyPage();
  const options = await page.$$eval(`${tid("tool-select")} option`, (os) =>
    os.map((o) => ({ value: o.value, hidden: o.classList.contains("unavailable"), title: o.title, label: o.textContent })),
  );
  const sel = options.find((o) => o.value === "memo_replace_selection");
  assert.ok(sel, JSON.stringify(options.map((o) => o.value)));
  assert.equal(sel.hidden, true);
  assert.notEqual(sel.title, "", "the reason is the option's title");
  assert.match(sel.label, /hidden/);
  assert.equal(options.find((o) => o.value === "memo_replace").hidden, false);
  // Selecting a hidden tool is allowed, visibly marked, with the reason and guidance.
  await page.selectOption(tid("tool-select"), "memo_replace_selection");
  assert.equal(await page.locator(tid("tool-hidden-warning")).isVisible(), true);
  const warning = await text(page, "tool-hidden-warning");
  assert.match(warning, /hidden in state Idle/);
  assert.ok(warning.includes(sel.title), `${warning} holds the reason ${sel.title}`);
  assert.equal(await page.$eval(tid("tool-select"), (s) => s.classList.contains("unavailable")), true);
  await consoleShot(page, "hidden-tool");
  // Running it is allowed: agentpad answers Blocked.
  await setArgs(page, { selection_id: "A" });
  assert.equal(await page.locator(tid("run-button")).isDisabled(), false);
  await page.click(tid("run-button"));
  await waitCalls(page, 1);
  assert.equal((await historyRows(page))[0].call, "memo_replace_selection → Blocked");
  // A MultiMatch offers memo_replace_selection.
  await runTool(page, "memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  assert.equal((await historyRows(page))[1].call, "memo_replace → MultiMatch");
  const after = await page.$eval(`${tid("tool-select")} option[value="memo_replace_selection"]`, (o) => o.classList.contains("unavailable"));
  assert.equal(after, false);
  await page.selectOption(tid("tool-select"), "memo_replace_selection");
  assert.equal(await page.locator(tid("tool-hidden-warning")).isVisible(), false);
  // The workflow panel's hidden chips carry the reason too.
  const chip = await page.$eval(`${tid("visible-tools")} [data-tool="memo_commit"]`, (b) => b.title);
  assert.match(chip, /hidden in SelectionPending, calling it returns Blocked: ./);
  assert.deepEqual(h.problems, []);
  await page.context().close();
});

test("JSON lint: syntax and schema errors are marked, Run is disabled until they are fixed", async () => {
  const page = await readyPage();
  await page.selectOption(tid("tool-select"), "memo_replace");
  // A syntax error.
  await setArgs(page, '{"old_text": ');
  assert.match(await text(page, "args-error"), /^Invalid JSON/);
  assert.equal(await page.locator(tid("run-button")).isDisabled(), true);
  assert.ok((await lintMarks(page)).length >= 1);
  // A wrong type: marked on the property's key.
  await setArgs(page, '{\n  "old_text": 5,\n  "new_text": "b"\n}');
  assert.match(await text(page, "args-error"), /old_text must be string/);
  assert.equal(await page.locator(tid("run-button")).isDisabled(), true);
  assert.deepEqual(await lintMarks(page), ['"old_text"']);
  // A missing required property: marked on the object's opening brace.
  await setArgs(page, '{\n  "new_text": "b"\n}');
  assert.match(await text(page, "args-error"), /missing required property "old_text"/);
  assert.equal(await page.locator(tid("run-button")).isDisabled(), true);
  await page.waitForFunction(() => document.querySelector('[data-testid="args-input"] .cm-lintRange-error')?.textContent === "{");
  // The lint tooltip/panel text is the same message (hover the mark).
  await page.hover(`${tid("args-input")} .cm-lintRange-error`);
  await page.waitForSelector(".cm-tooltip-lint");
  assert.match(await page.locator(".cm-tooltip-lint").textContent(), /missing required property "old_text"/);
  await consoleShot(page, "lint");
  // Fixed: no message, no marks, Run enabled.
  await setArgs(page, { old_text: "timeout: 30", new_text: "timeout: 60" });
  assert.equal(await text(page, "args-error"), "");
  assert.equal(await page.locator(tid("run-button")).isDisabled(), false);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="args-input"] .cm-lintRange-error').length === 0);
  assert.deepEqual(h.problems, []);
  await page.context().close();
});

test("the form and the JSON stay in sync", async () => {
  const page = await readyPage();
  await page.selectOption(tid("tool-select"), "memo_read");
  // JSON → form.
  await setArgs(page, { start_line: 3, end_line: 9 });
  assert.equal(await page.inputValue(tid("arg-start_line")), "3");
  assert.equal(await page.inputValue(tid("arg-end_line")), "9");
  // Form → JSON.
  await page.fill(tid("arg-start_line"), "5");
  assert.deepEqual(JSON.parse(await argsText(page)), { start_line: 5, end_line: 9 });
  await page.fill(tid("arg-end_line"), "");
  assert.deepEqual(JSON.parse(await argsText(page)), { start_line: 5 });
  // A schema error in the JSON leaves the form usable (the JSON parses) but Run disabled.
  await setArgs(page, '{"start_line": "x"}');
  assert.equal(await page.locator(tid("run-button")).isDisabled(), true);
  await page.fill(tid("arg-start_line"), "2");
  assert.deepEqual(JSON.parse(await argsText(page)), { start_line: 2 });
  assert.equal(await page.locator(tid("run-button")).isDisabled(), false);
  // Invalid JSON disables the form.
  await setArgs(page, "{");
  assert.equal(await page.$eval(tid("args-form"), (f) => f.disabled), true);
  assert.deepEqual(h.problems, []);
  await page.context().close();
});

test("a pinned call survives a workspace recreation and a sample change; history entries replay", async () => {
  const page = await readyPage();
  await runTool(page, "memo_read", { start_line: 1, end_line: 3 });
  await runTool(page, "memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  // ↻ on a history entry runs it again; ✎ puts it in the console.
  await page.click(`${tid("history")} li[data-call="1"] ${tid("replay-call")}`);
  await waitCalls(page, 3);
  let rows = await historyRows(page);
  assert.equal(rows[2].call, rows[0].call);
  assert.equal(rows[2].args, rows[0].args);
  await page.click(`${tid("history")} li[data-call="2"] ${tid("edit-call")}`);
  assert.equal(await page.inputValue(tid("tool-select")), "memo_replace");
  assert.deepEqual(JSON.parse(await argsText(page)), { old_text: "timeout: 30", new_text: "timeout: 60" });
  // Pin the replace.
  await page.click(`${tid("history")} li[data-call="2"] ${tid("pin-call")}`);
  assert.equal(await page.getAttribute(`${tid("history")} li[data-call="2"] ${tid("pin-call")}`, "aria-pressed"), "true");
  assert.equal(await page.locator(tid("pinned-call")).count(), 1);
  assert.equal(await text(page, "pinned-chip"), "memo_replace → MultiMatch");
  await consoleShot(page, "history").catch(() => {});
  await page.locator(tid("call-history")).screenshot({ path: path.join(shotDir, "playground-console-history.png") });
  // Recreate the workspace (persist mode): the calls go, the pin stays.
  await page.selectOption(tid("persist-mode"), "immediate");
  await page.waitForFunction(() => document.body.dataset.mode === "immediate" && document.body.dataset.ready === "true");
  assert.equal(await historyCount(page), 0);
  assert.equal(await page.locator(tid("pinned-call")).count(), 1);
  // Switch the sample and reload: still there.
  await page.selectOption(tid("sample-select"), "config");
  await page.waitForFunction(() => document.body.dataset.sample === "config" && document.body.dataset.ready === "true");
  await page.reload();
  await waitReady(page);
  assert.equal(await text(page, "pinned-chip"), "memo_replace → MultiMatch");
  // Replay the pin on the current workspace.
  await page.selectOption(tid("sample-select"), "timeouts");
  await page.waitForFunction(() => document.body.dataset.sample === "timeouts" && document.body.dataset.ready === "true");
  await page.click(`${tid("pinned-call")} ${tid("replay-call")}`);
  await waitCalls(page, 1);
  rows = await historyRows(page);
  assert.equal(rows[0].call, "memo_replace → MultiMatch");
  // Unpin.
  await page.click(`${tid("pinned-call")} ${tid("pin-call")}`);
  assert.equal(await page.locator(tid("pinned-call")).count(), 0);
  assert.deepEqual(h.problems, []);
  await page.context().close();
});

test("export → import round trip: the imported history equals the exported one", async () => {
  const page = await readyPage();
  await runTool(page, "memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  await runTool(page, "memo_replace_selection", { selection_id: "B" });
  await page.click(tid("simulate-external-write")); // a host step between the calls
  await runTool(page, "memo_read", { start_line: 1, end_line: 2 });
  const exported = await historyRows(page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(tid("history-export"))]);
  assert.equal(download.suggestedFilename(), "agentpad-history.json");
  const file = path.join(shotDir, "..", "playground-console-history.json");
  await download.saveAs(file);
  const t = JSON.parse(fs.readFileSync(file, "utf8"));
  assert.equal(t.format, "agentpad-transcript/1");
  const tools = t.steps.filter((s) => "tool" in s);
  assert.deepEqual(tools.map((s) => `${s.tool} → ${s.expect.status}`), exported.map((r) => r.call));
  assert.equal(t.steps.filter((s) => s.host === "write").length, 1);
  // Shown on the page too.
  assert.equal(await page.locator(tid("history-export-view")).isVisible(), true);
  assert.deepEqual(JSON.parse(await page.locator(tid("history-export-json")).textContent()), t);
  await page.locator(tid("call-history")).screenshot({ path: path.join(shotDir, "playground-console-export.png") });

  // Import in a fresh page: documents, options, calls run in order.
  const other = await readyPage();
  await other.setInputFiles(tid("history-import"), file);
  await other.waitForFunction(() => document.body.dataset.share === "loaded" && document.body.dataset.busy !== "true");
  await waitCalls(other, exported.length);
  assert.deepEqual(await historyRows(other), exported);
  assert.match(await text(other, "history-message"), /Imported playground-console-history\.json: 3 calls run in order\./);
  // Exporting again gives the same transcript.
  const [again] = await Promise.all([other.waitForEvent("download"), other.click(tid("history-export"))]);
  const t2 = JSON.parse(fs.readFileSync(await again.path(), "utf8"));
  assert.deepEqual(t2.steps, t.steps);
  assert.deepEqual(t2.documents, t.documents);
  assert.deepEqual(t2.options, t.options);
  // The Replay pane loads it: every response as recorded.
  await other.click(`${tid("replay-details")} > summary`);
  await other.setInputFiles(tid("replay-file"), file);
  await other.waitForFunction(() => document.querySelector('[data-testid="replay-pane"]')?.dataset.replay === "on");
  await other.waitForFunction(() => document.querySelector('[data-testid="replay-pane"]')?.dataset.busy !== "true");
  await other.click(tid("replay-run"));
  await other.waitForFunction(() => /^0 of 3 responses differ/.test(document.querySelector('[data-testid="replay-summary"]')?.textContent ?? ""));
  // A file that is no transcript is refused with a message.
  await other.setInputFiles(tid("history-import"), { name: "bad.json", mimeType: "application/json", buffer: Buffer.from('{"format":"x"}') });
  await other.waitForFunction(() => /Import refused/.test(document.querySelector('[data-testid="history-message"]').textContent));
  await shot(other, "import");
  assert.deepEqual(h.problems, []);
  await page.context().close();
  await other.context().close();
});

test("accessibility: axe finds no violations with a greyed tool selected and lint errors shown", async () => {
  const page = await readyPage();
  await runTool(page, "memo_read", { start_line: 1, end_line: 2 });
  await page.click(`${tid("history")} li[data-call="1"] ${tid("pin-call")}`);
  await page.click(tid("history-export"));
  await page.waitForSelector(`${tid("history-export-view")}:not([hidden])`);
  await page.selectOption(tid("tool-select"), "memo_replace_selection");
  await setArgs(page, '{\n  "selection_id": true\n}');
  await lintMarks(page);
  assert.equal(await page.locator(tid("run-button")).isDisabled(), true);
  assert.equal(await page.locator(tid("tool-hidden-warning")).isVisible(), true);
  // Keyboard: the editor is reachable and takes typing.
  await page.focus(tid("args-input"));
  await page.keyboard.press("Control+End");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.type(', "x": 1');
  assert.match(await argsText(page), /, "x": 1}$/);
  await consoleShot(page, "axe");
  assert.deepEqual(await axeViolations(page), []);
  assert.equal(await page.getAttribute(tid("args-input"), "aria-label"), "Arguments (JSON)");
  assert.deepEqual(h.problems, []);
  await page.context().close();
});
