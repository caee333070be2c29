// The agent pane in the built playground (target/playground), headless Chromium, driven by
// scripted OpenAI-compatible and Anthropic-compatible servers on 127.0.0.1, each a process of its
// own stopped by pid (test/lib/model-servers.mjs, scripts in test/lib/model-scripts.mjs):
// a run through MultiMatch → pick → commit (streamed and not), a 429 with retry-after, a
// malformed tool call, the errors a person reads, an A/B comparison, and the key never leaving
// sessionStorage. Run from the repo root: node --test www/playground/test/agent.test.mjs
import { test, after } from "node:test";
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { playgroundHarness, tid, screenshot, axeViolations } from "./lib/browser.mjs";
import { spawnScriptedServer } from "./lib/model-servers.mjs";

const h = playgroundHarness();
const KEY = "sk-test-SECRET-7f3a9c2e41";
const servers = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function serve(options) {
  const s = await spawnScriptedServer(options);
  servers.push(s);
  return s;
}

/** The page's problems, minus the model servers' refusals the tests provoke (401, 429, CORS). */
const pageProblems = () =>
  h.problems.filter((p) => !servers.some((s) => p.includes(s.origin)) && !/CORS policy|Failed to load resource|ERR_CONNECTION_REFUSED/.test(p));

/** A ready page with every console message collected (to look for the key in them). */
async function agentPage() {
  const page = await h.readyPage();
  const logs = [];
  page.on("console", (m) => logs.push(m.text()));
  await page.locator(tid("agent-panel")).scrollIntoViewIfNeeded();
  return { page, logs };
}

async function configure(page, { kind, base, stream, key = KEY, model = "scripted-model" }) {
  await page.selectOption(tid("agent-provider"), kind);
  await page.fill(tid("agent-base-url"), base);
  await page.fill(tid("agent-model"), model);
  await page.fill(tid("agent-key"), key);
  await page.setChecked(tid("agent-stream"), stream);
}

const runView = (page, label = "Run") => page.locator(`${tid("agent-run-view")}[data-label="${label}"]`);

async function waitStatus(page, label, status) {
  await page.waitForSelector(`${tid("agent-run-view")}[data-label="${label}"][data-status="${status}"]`, { timeout: 30_000 });
}

/** A measures table: name → the value in column `col` (0: the first run). */
async function measures(table, col = 0) {
  return table.locator("tbody tr").evaluateAll(
    (rows, c) => Object.fromEntries(rows.map((r) => [r.dataset.measure, r.querySelectorAll("td")[c].dataset.value])),
    col,
  );
}

const historyChips = (page) => page.$$eval(`${tid("history")} .call-chip`, (els) => els.map((e) => e.textContent.trim()));
const documentText = (page) => page.$eval(tid("document-view"), (host) => host.editorView.state.doc.toString());

/** The request bodies' user message that carries the live context (the last user message). */
function liveContextOf(body) {
  const users = body.messages.filter((m) => m.role === "user");
  const last = users[users.length - 1];
  return Array.isArray(last.content) ? last.content.map((p) => p.text ?? "").join("") : last.content;
}

/** Decodes a share link's `#t=` (base64url of deflate-raw JSON). */
function decodeShare(url) {
  const b64 = url.split("#t=")[1].replace(/-/g, "+").replace(/_/g, "/");
  return zlib.inflateRawSync(Buffer.from(b64, "base64")).toString("utf8");
}

/** Everywhere the key must not be: the share link, the exported call history, the call history, the page's text, localStorage, the console. */
async function assertNoKeyLeak(page, logs) {
  assert.equal(await page.evaluate(() => sessionStorage.getItem("agentpad-playground:agent-key:openai") ?? sessionStorage.getItem("agentpad-playground:agent-key:anthropic")), KEY, "the key is in sessionStorage");
  await page.click(tid("share-copy"));
  await page.waitForFunction(() => document.querySelector('[data-testid="share-link"]').value.includes("#t="));
  const link = await page.locator(tid("share-link")).inputValue();
  const shared = decodeShare(link);
  assert.match(shared, /memo_commit/, "the share link holds the run's calls");
  assert.ok(!shared.includes(KEY) && !link.includes(KEY), "the key is not in the share link");
  await page.click(tid("history-export"));
  await page.waitForFunction(() => document.querySelector('[data-testid="history-export-json"]').textContent.length > 0);
  const exported = await page.locator(tid("history-export-json")).textContent();
  assert.match(exported, /agentpad-transcript\/1/);
  assert.ok(!exported.includes(KEY), "the key is not in the exported history");
  assert.ok(!(await page.locator(tid("call-history")).innerText()).includes(KEY), "the key is not in the call history");
  assert.ok(!(await page.evaluate(() => document.body.innerText)).includes(KEY), "the key is nowhere in the page's text");
  assert.ok(!(await page.evaluate(() => document.documentElement.outerHTML)).includes(KEY), "the key is in no attribute of the page");
  assert.ok(!(await page.evaluate(() => JSON.stringify({ ...localStorage }))).includes(KEY), "the key is not in localStorage");
  assert.ok(!logs.some((l) => l.includes(KEY)), "the key is in no console message");
}

test("OpenAI-compatible, streamed: a 429 with retry-after, a malformed call, MultiMatch → pick → commit, live in the page's panes", async () => {
  const srv = await serve({ script: "openai-429-malformed" });
  const { page, logs } = await agentPage();
  await configure(page, { kind: "openai", base: `${srv.origin}/v1`, stream: true });
  await page.click(tid("agent-run"));
  // The wait is shown while it runs.
  const wait = page.locator(tid("agent-wait"));
  await wait.waitFor({ timeout: 10_000 });
  assert.match(await wait.textContent(), /waiting 1 s/);
  await waitStatus(page, "Run", "done");

  const view = runView(page);
  const events = await view.locator(`${tid("agent-events")} li`).allTextContents();
  assert.ok(events.some((e) => /429 .*Waiting 1 s \(retry-after: 1\)/.test(e)), `the 429 and its wait are in the log: ${events.join(" | ")}`);
  assert.ok(events.some((e) => /compressHistory: \d+ → \d+ messages/.test(e)), "the history was compressed after the commit");
  const calls = await view.locator(tid("agent-call")).evaluateAll((lis) => lis.map((li) => `${li.dataset.tool} → ${li.dataset.status}`));
  assert.deepEqual(calls, ["memo_replace → InvalidArguments", "memo_replace → MultiMatch", "memo_replace_selection → Success", "memo_commit → Success"]);
  assert.equal(await view.locator(tid("agent-malformed")).count(), 1);
  assert.match(await view.locator(`${tid("agent-call")}.malformed code`).textContent(), /^\{"old_text": "timeout: 30", "new_text": $/, "the malformed call is shown as sent");
  const m = await measures(view.locator(tid("agent-measures")));
  assert.deepEqual(m, {
    requests: "6",
    "tool calls": "4",
    "malformed calls": "1",
    "tokens in": "5000",
    "tokens out": "100",
    "wall time": m["wall time"],
    "429 retries": "1",
    commits: "1",
    "task landed": "yes",
    "writes marked wrong": "0",
  });
  assert.ok(Number(m["wall time"]) >= 1000, "the wall time holds the 1 s wait");

  // What the server got: the key in the header, the tools, the stream flag, the system prompt, the live context.
  assert.equal(srv.requests.length, 6);
  for (const r of srv.requests) {
    assert.equal(r.url, "/v1/chat/completions");
    assert.equal(r.headers.authorization, `Bearer ${KEY}`);
    assert.equal(r.body.stream, true);
    assert.equal(r.body.messages[0].role, "system");
    assert.match(r.body.messages[0].content, /memo_replace_selection/);
    assert.ok(r.body.tools.some((t) => t.function.name === "memo_replace"));
    assert.match(liveContextOf(r.body), /# Live Context/);
  }
  assert.match(liveContextOf(srv.requests[5].body), /timeout: 60/, "the last request's live context shows the committed text");
  const before = srv.requests[4].body.messages.length; // the request that made the commit
  assert.ok(srv.requests[5].body.messages.length < before + 2, "the request after the commit carries the compressed history");
  assert.match(JSON.stringify(srv.requests[5].body.messages), /Edit session #1 committed/);
  // The model's live context lists its own calls only (the page makes no memo_preview of its own for it).
  const hints = srv.requests.map((r) => liveContextOf(r.body)).join("\n");
  assert.match(hints, /#2 memo_replace → MultiMatch/);
  assert.doesNotMatch(hints, /memo_preview →/);

  // Every call is in the page's own panes.
  assert.deepEqual(await historyChips(page), ["memo_replace → InvalidArguments", "memo_replace → MultiMatch", "memo_replace_selection → Success", "memo_commit → Success"]);
  assert.match(await documentText(page), /# API call timeout\n {2}timeout: 60/);
  assert.equal((await page.locator(tid("workflow-state")).textContent()).trim(), "Idle");
  assert.match(await page.locator("#response-markdown").textContent(), /Committed 1 change/);

  await screenshot(page.locator(tid("agent-panel")), "playground-agent-run");
  await screenshot(page, "playground-agent-run-page", { fullPage: true });
  await assertNoKeyLeak(page, logs);
  assert.deepEqual(pageProblems(), []);
});

test("Anthropic, streamed, by Step: a task, a malformed call, MultiMatch → pick → commit, each live in the page's panes; a write marked wrong; the saved run plays in the Replay pane and holds no key", async () => {
  const srv = await serve({ script: "anthropic-task-malformed" });
  const { page, logs } = await agentPage();
  await configure(page, { kind: "anthropic", base: srv.origin, stream: true });
  const step = async (n) => {
    await page.click(tid("agent-step"));
    await page.waitForFunction((n) => {
      const v = document.querySelector('[data-testid="agent-run-view"][data-label="Run"]');
      return v && v.dataset.status === "idle" && v.querySelectorAll('[data-testid="agent-call"]').length === n;
    }, n);
  };
  // 1: the task the model began is in the task tree.
  await step(1);
  assert.match(await page.locator(tid("task-tree-active")).textContent(), /Raise the API timeout to 60 s/);
  // 2: the malformed call (its streamed input JSON broken off) is shown as sent, and the loop goes on.
  await step(2);
  const bad = runView(page).locator(`${tid("agent-call")}.malformed`);
  assert.equal(await bad.getAttribute("data-status"), "InvalidArguments");
  assert.match(await bad.locator("code").textContent(), /^\{"old_text": "timeout: 30", "new_text": $/, "the input as the model sent it");
  // 3: MultiMatch: the candidates are highlighted in the document, and the Markdown the model read is on screen.
  await step(3);
  for (const id of ["A", "B", "C"]) assert.equal(await page.locator(`${tid("document-view")} ${tid(`candidate-${id}`)}`).count(), 1, `candidate ${id} highlighted`);
  assert.match(await page.locator("#response-markdown").textContent(), /MultiMatch/);
  // 4: after the pick, the pending-changes pane shows the staged change.
  await step(4);
  assert.match(await page.locator(tid("pending-diff")).textContent(), /timeout: 60/);
  const landed = async () => (await measures(runView(page).locator(tid("agent-measures"))))["task landed"];
  assert.equal(await landed(), "no", "a staged change has not landed: nothing is saved yet");
  // 5: the commit completes the task.
  await step(5);
  assert.equal(await landed(), "yes", "landed once saved");
  assert.match(await page.locator(tid("task-tree-finished")).textContent(), /Raise the API timeout to 60 s/);
  assert.deepEqual(await historyChips(page), [
    "memo_begin_task → Success",
    "memo_replace → InvalidArguments",
    "memo_replace → MultiMatch",
    "memo_replace_selection → Success",
    "memo_commit → Success",
  ]);
  await page.click(tid("agent-step")); // the final answer
  await waitStatus(page, "Run", "done");
  for (const r of srv.requests) {
    assert.equal(r.url, "/v1/messages");
    assert.equal(r.headers["x-api-key"], KEY);
    assert.equal(r.headers["anthropic-version"], "2023-06-01");
    assert.equal(r.body.stream, true);
    assert.match(r.body.system, /memo_commit/);
    assert.ok(r.body.tools.some((t) => t.name === "memo_replace" && t.input_schema));
    assert.match(liveContextOf(r.body), /# Live Context/);
  }
  const view = runView(page);
  // The person marks the staged pick as a wrong write.
  await view.locator(`${tid("agent-call")}[data-tool="memo_replace_selection"] ${tid("agent-mark-wrong")}`).check();
  const m = await measures(view.locator(tid("agent-measures")));
  assert.equal(m["tokens in"], String(6 * 1200));
  assert.equal(m["tokens out"], String(6 * 30));
  assert.equal(m["malformed calls"], "1");
  assert.equal(m["writes marked wrong"], "1");
  assert.equal(m["task landed"], "yes");

  await view.locator(tid("agent-export")).click();
  const saved = await view.locator(tid("agent-transcript-json")).textContent();
  const t = JSON.parse(saved);
  assert.equal(t.format, "agentpad-transcript/1");
  assert.match(t.system, /memo_commit/);
  assert.match(t.prompt, /API call timeout/);
  assert.ok(t.steps.some((s) => s.note === "marked wrong by the person watching the run"));
  assert.ok(t.steps.filter((s) => s.tool).every((s) => s.expect?.status), "each call's answer is recorded");
  assert.ok(!saved.includes(KEY), "the key is not in the saved run");

  await view.locator(tid("agent-play")).click();
  await page.waitForFunction(() => {
    const pane = document.querySelector('[data-testid="replay-pane"]');
    return pane?.dataset.replay === "on" && pane.dataset.busy !== "true";
  });
  await page.click(tid("replay-run"));
  await page.waitForFunction(() => document.querySelector('[data-testid="replay-summary"]')?.dataset.done === "true");
  const summary = page.locator(tid("replay-summary"));
  assert.equal(await summary.getAttribute("data-differ"), "0", await summary.textContent());
  assert.equal(await summary.getAttribute("data-compared"), "5");
  assert.match(await documentText(page), /# API call timeout\n {2}timeout: 60/);
  await assertNoKeyLeak(page, logs);
  assert.deepEqual(pageProblems(), []);
});

test("a malformed call of another kind — a tool the workspace does not have, arguments that are an array — is shown as sent and answered, and the run goes on", async () => {
  const srv = await serve({ script: "openai-unknown-tool" });
  const { page } = await agentPage();
  await configure(page, { kind: "openai", base: `${srv.origin}/v1`, stream: false });
  await page.click(tid("agent-run"));
  await waitStatus(page, "Run", "done");
  const view = runView(page);
  const calls = await view.locator(tid("agent-call")).evaluateAll((lis) => lis.map((li) => [`${li.dataset.tool} → ${li.dataset.status}`, li.classList.contains("malformed"), li.querySelector("code").textContent]));
  assert.deepEqual(calls, [
    ["memo_edit_line → InvalidArguments", true, '{"line":45,"text":"  timeout: 60"}'],
    ["memo_replace → InvalidArguments", true, '["timeout: 30", "timeout: 60"]'],
    ["memo_replace → MultiMatch", false, '{"old_text":"timeout: 30","new_text":"timeout: 60"}'],
    ["memo_replace_selection → Success", false, '{"selection_id":"B"}'],
    ["memo_commit → Success", false, '{"summary":"Raise the API timeout to 60 s"}'],
  ]);
  // What the model read back for each: the workspace's InvalidArguments, as the SDK loops hand it over.
  const toolMessages = srv.requests[1].body.messages.filter((m) => m.role === "tool");
  assert.match(toolMessages[0].content, /InvalidArguments/);
  assert.match(toolMessages[0].content, /memo_edit_line/);
  const m = await measures(view.locator(tid("agent-measures")));
  assert.equal(m["malformed calls"], "2");
  assert.equal(m["task landed"], "yes");
  await view.locator(tid("agent-export")).click();
  const t = JSON.parse(await view.locator(tid("agent-transcript-json")).textContent());
  assert.deepEqual(
    t.steps.filter((s) => s.note).map((s) => [s.tool, s.note]),
    [
      ["memo_edit_line", "a tool the workspace does not have, as the model sent it"],
      ["memo_replace", "malformed arguments, as the model sent them"],
    ],
  );
  assert.deepEqual((await historyChips(page)).slice(0, 2), ["memo_edit_line → InvalidArguments", "memo_replace → InvalidArguments"]);
  assert.deepEqual(pageProblems(), []);
});

test("errors a person understands: 401 (the echoed key cut out), a server down, a server without CORS", async () => {
  const refusing = await serve({ script: "refuse-401", params: { key: KEY } });
  const noCors = await serve({ cors: false, script: "openai-plain" });
  const gone = await spawnScriptedServer({ script: "openai-plain" });
  await gone.close(); // killed by pid: its port now refuses connections
  const { page, logs } = await agentPage();

  await configure(page, { kind: "openai", base: `${refusing.origin}/v1`, stream: false });
  await page.click(tid("agent-run"));
  await waitStatus(page, "Run", "failed");
  let error = runView(page).locator(tid("agent-error"));
  assert.equal(await error.getAttribute("data-kind"), "auth");
  const text401 = await error.textContent();
  assert.match(text401, /^401 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: the server refused the key\./);
  assert.match(text401, /Incorrect API key provided: \[key\]\./);

  for (const [base, why] of [
    [`${gone.origin}/v1`, "down"],
    [`${noCors.origin}/v1`, "no CORS"],
  ]) {
    await page.fill(tid("agent-base-url"), base);
    await page.click(tid("agent-run"));
    await page.waitForFunction((b) => {
      const v = document.querySelector('[data-testid="agent-run-view"][data-label="Run"]');
      return v?.dataset.status === "failed" && v.textContent.includes(b);
    }, base);
    error = runView(page).locator(tid("agent-error"));
    assert.equal(await error.getAttribute("data-kind"), "network", why);
    const t = await error.textContent();
    assert.match(t, /^Could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: .*CORS/, why);
    assert.match(t, /OLLAMA_ORIGINS=http:\/\/127\.0\.0\.1:\d+ ollama serve/, why);
  }
  // The browser asked first (a preflight: the request carries an Authorization header) and, with no
  // CORS headers in the answer, never sent the request.
  // The two runs before the last are listed as earlier runs.
  assert.deepEqual(await page.locator(tid("agent-earlier-run")).evaluateAll((rows) => rows.map((r) => r.children[4].textContent)), ["failed", "failed"]);
  assert.equal(noCors.preflights.length, 1);
  assert.equal(noCors.requests.length, 0);
  assert.ok(!logs.some((l) => l.includes(KEY)));
  assert.ok(!(await page.evaluate(() => document.body.innerText)).includes(KEY));
  // The key was in sessionStorage only, and Forget key removes it from there and from the field.
  assert.equal(await page.evaluate(() => sessionStorage.getItem("agentpad-playground:agent-key:openai")), KEY);
  assert.ok(!(await page.evaluate(() => JSON.stringify({ ...localStorage }))).includes(KEY));
  await page.click(tid("agent-forget-key"));
  assert.equal(await page.evaluate(() => sessionStorage.getItem("agentpad-playground:agent-key:openai")), null);
  assert.equal(await page.locator(tid("agent-key")).inputValue(), "");
  assert.deepEqual(pageProblems(), []);
});

test("A/B: two prompts and option sets on the same document and task, measures side by side", async () => {
  // B (tool prefix `edit`) makes a malformed call first and reports more tokens.
  const srv = await serve({ script: "ab-by-prefix" });
  const { page } = await agentPage();
  await configure(page, { kind: "openai", base: `${srv.origin}/v1`, stream: false });
  const chipsBefore = await historyChips(page);
  await page.click(`${tid("agent-ab-box")} > summary`);
  await page.fill(tid("agent-system-b"), "Edit with the {prefix}_* tools. Commit when done.");
  await page.selectOption(tid("agent-b-style"), "table");
  await page.fill(tid("agent-b-prefix"), "edit");
  await page.click(tid("agent-run-ab"));
  await waitStatus(page, "A", "done");
  await waitStatus(page, "B", "done");

  const ab = page.locator(tid("agent-ab-measures"));
  const a = await measures(ab, 0);
  const b = await measures(ab, 1);
  assert.equal(a["tool calls"], "3");
  assert.equal(b["tool calls"], "4");
  assert.equal(a["tokens in"], String(4 * 900));
  assert.equal(b["tokens in"], String(5 * 1500));
  assert.equal(a["task landed"], "yes");
  assert.equal(b["task landed"], "yes");
  assert.equal(b["malformed calls"], "1");
  const delta = await ab.locator('tr[data-measure="tool calls"] td.ag-delta').textContent();
  assert.equal(delta, "+1");
  assert.equal(await ab.locator('tr[data-measure="tool calls"] td.ag-delta').getAttribute("class"), "ag-delta worse");
  // Wall time compares as its cells read (tenths of a second): equal cells are "±0.0 s", marked neither way.
  const wall = ab.locator('tr[data-measure="wall time"]');
  const [wa, wb] = (await wall.locator("td:not(.ag-delta)").allTextContents()).map((t) => Math.round(Number.parseFloat(t) * 10));
  const wd = wb - wa;
  assert.equal(await wall.locator("td.ag-delta").textContent(), `${wd > 0 ? "+" : wd < 0 ? "−" : "±"}${(Math.abs(wd) / 10).toFixed(1)} s`);
  assert.equal(await wall.locator("td.ag-delta").getAttribute("class"), `ag-delta ${wd === 0 ? "" : wd < 0 ? "better" : "worse"}`);
  // B's system prompt went out with its prefix filled in, and B's calls used its own tools.
  const bodiesB = srv.requests.filter((r) => r.body.tools.some((t) => t.function.name === "edit_replace"));
  assert.equal(bodiesB[0].body.messages[0].content, "Edit with the edit_* tools. Commit when done.");
  assert.ok(bodiesB.some((r) => /\| B \| `\[\[SEL#B\]\]`/.test(JSON.stringify(r.body.messages))), "B read the candidates as the table");
  assert.ok(srv.requests.filter((r) => !bodiesB.includes(r)).some((r) => /- \[B\] line 45: `api\.timeout: 30`/.test(JSON.stringify(r.body.messages))), "A read them as the list");
  // The variants ran on workspaces of their own: the page's history is as it was.
  assert.deepEqual(await historyChips(page), chipsBefore);
  await page.locator(tid("agent-ab")).scrollIntoViewIfNeeded();
  await screenshot(page.locator(tid("agent-ab")), "playground-agent-ab");
  assert.deepEqual(await axeViolations(page, [tid("agent-panel")]), []);
  assert.deepEqual(pageProblems(), []);
});

test("Stop ends a 429 wait; Anthropic without streaming then runs to the end; the pane passes axe", async () => {
  const srv = await serve({ script: "anthropic-429-long" });
  const { page } = await agentPage();
  await configure(page, { kind: "anthropic", base: srv.origin, stream: false });
  await page.click(tid("agent-run"));
  const wait = page.locator(tid("agent-wait"));
  await wait.waitFor();
  assert.match(await wait.textContent(), /waiting (30|29) s/);
  const stoppedAt = Date.now();
  await page.click(tid("agent-stop"));
  await waitStatus(page, "Run", "stopped");
  assert.ok(Date.now() - stoppedAt < 5000, "Stop ends the wait at once");
  await new Promise((r) => setTimeout(r, 300)); // a retry, had one been sent, would have arrived
  assert.equal(srv.requests.length, 1, "no retry after Stop");

  await page.click(tid("agent-run"));
  await waitStatus(page, "Run", "done");
  assert.ok(srv.requests.slice(1).every((r) => r.body.stream === undefined), "a whole answer was asked for");
  const m = await measures(runView(page).locator(tid("agent-measures")));
  assert.equal(m["tool calls"], "3");
  assert.equal(m["tokens in"], "2800");
  assert.equal(m["tokens out"], "40");
  assert.equal(m["task landed"], "yes");
  assert.deepEqual(await historyChips(page), ["memo_replace → MultiMatch", "memo_replace_selection → Success", "memo_commit → Success"]);
  assert.deepEqual(await page.locator(tid("agent-earlier-run")).evaluateAll((rows) => rows.map((r) => r.children[4].textContent)), ["stopped"]);
  assert.deepEqual(await axeViolations(page, [tid("agent-panel")]), []);
  assert.deepEqual(pageProblems(), []);
});

test("Stop aborts a request under way; the calls made before it stay", async () => {
  const srv = await serve({ script: "openai-slow-second" }); // the second request hangs 3 s
  const { page } = await agentPage();
  await configure(page, { kind: "openai", base: `${srv.origin}/v1`, stream: false });
  await page.click(tid("agent-run"));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="agent-run-view"][data-label="Run"] [data-testid="agent-call"]').length === 1);
  while (srv.requests.length < 2) await new Promise((r) => setTimeout(r, 50));
  const at = Date.now();
  await page.click(tid("agent-stop"));
  await waitStatus(page, "Run", "stopped");
  assert.ok(Date.now() - at < 2500, "stopped before the hanging answer came");
  assert.deepEqual(await historyChips(page), ["memo_replace → MultiMatch"]);
  assert.equal(await runView(page).locator(tid("agent-call")).count(), 1);
  assert.deepEqual(pageProblems(), []);
});

test("streamed text shows as it arrives; Stop aborts a stream that stalls, and the calls before it stay", async () => {
  const srv = await serve({ script: "openai-stream-stalls" });
  const { page } = await agentPage();
  await configure(page, { kind: "openai", base: `${srv.origin}/v1`, stream: true });
  await page.click(tid("agent-run"));
  // The second answer's text ("Three places match; the api one is ") is on screen while its stream stalls.
  const streaming = runView(page).locator(tid("agent-streaming"));
  await page.waitForFunction(() => /Three places match; the api one is/.test(document.querySelector('[data-testid="agent-streaming"]')?.textContent ?? ""));
  assert.equal(await runView(page).getAttribute("data-status"), "running");
  assert.equal(await runView(page).locator(tid("agent-call")).count(), 1, "the pick has not come yet");
  const at = Date.now();
  await page.click(tid("agent-stop"));
  await waitStatus(page, "Run", "stopped");
  assert.ok(Date.now() - at < 2500, "stopped before the stalled stream went on");
  assert.equal(await streaming.count(), 0, "no text is shown as streaming once the request is stopped");
  const events = await runView(page).locator(`${tid("agent-events")} li`).allTextContents();
  assert.ok(events.includes("Three places match; the api one is [stopped mid-answer]"), `the partial text is kept in the log, marked: ${events.join(" | ")}`);
  assert.deepEqual(await historyChips(page), ["memo_replace → MultiMatch"]);
  assert.equal(srv.requests.length, 2);
  assert.deepEqual(pageProblems(), []);
});
