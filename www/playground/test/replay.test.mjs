// Transcript replay and share links in the built playground (target/playground), headless Chromium.
// Run from the repo root: node --test www/playground/test/replay.test.mjs
// Needs: `npm run build` in www/playground first (build.sh does it), /usr/bin/chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { playgroundHarness, waitReady, axeViolations, tid, repo, shotDir } from "./lib/browser.mjs";

const sessions = path.join(repo, "tests", "fixtures", "sessions");
const h = playgroundHarness();

// ---------------------------------------------------------------- helpers

/** The page with the Replay pane open. */
async function replayPage() {
  const page = await h.readyPage();
  await page.click(`${tid("replay-details")} > summary`);
  return page;
}

/** Wait until the Replay pane is idle. */
async function paneIdle(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid="replay-pane"]')?.dataset.busy !== "true");
  const error = (await page.locator(tid("replay-error")).textContent()).trim();
  assert.equal(error, "", `replay error: ${error}`);
}

async function choose(page, id) {
  await page.selectOption(tid("replay-source"), id);
  await page.waitForFunction(() => {
    const pane = document.querySelector('[data-testid="replay-pane"]');
    return pane?.dataset.replay === "on" && pane.dataset.busy !== "true";
  });
  await paneIdle(page);
}

async function position(page) {
  return Number(await page.locator(tid("replay-position")).getAttribute("data-position"));
}

async function click(page, button) {
  await page.click(tid(button));
  await paneIdle(page);
}

async function summary(page) {
  const s = page.locator(tid("replay-summary"));
  return {
    text: (await s.textContent()).trim(),
    differ: Number(await s.getAttribute("data-differ")),
    compared: Number(await s.getAttribute("data-compared")),
    done: (await s.getAttribute("data-done")) === "true",
  };
}

/** The document view's text (the CodeMirror state; only the lines in view are in the DOM). */
async function documentText(page) {
  return page.$eval(tid("document-view"), (host) => host.editorView.state.doc.toString());
}

const text = async (page, id) => ((await page.locator(tid(id)).textContent()) ?? "").trim();

/** What the page shows: document, state, calls, the response on screen, storage. */
async function pageState(page) {
  return {
    document: await documentText(page),
    state: await text(page, "workflow-state"),
    calls: await page.$$eval(`${tid("history")} li`, (lis) => lis.map((li) => li.querySelector(".call-chip").textContent.trim())),
    markdown: ((await page.locator("#response-markdown").textContent()) ?? "").trim(),
    basic: await text(page, "response-basic"),
    json: await page.locator("#response-json").textContent(),
    storage: await page.$$eval(`${tid("wf-storage")} .wf-doc`, (rows) => rows.map((r) => r.textContent.trim())),
    pending: await text(page, "wf-pending"),
  };
}

const readTranscript = (name) => JSON.parse(fs.readFileSync(path.join(sessions, name), "utf8"));
const builtins = fs
  .readdirSync(sessions)
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.replace(/\.json$/, ""))
  .sort()
  .map((id) => `${id}.json`);

// ---------------------------------------------------------------- tests

test("every built-in transcript replays step by step with no differences, the page following it", async () => {
  const page = await replayPage();
  const offered = await page.$$eval(`${tid("replay-source")} option`, (os) => os.map((o) => o.value).filter((v) => v && v !== "custom"));
  assert.deepEqual([...offered].sort(), builtins.map((f) => f.replace(/\.json$/, "")), "the menu lists every tests/fixtures/sessions/*.json");
  assert.ok(offered.filter((id) => id.startsWith("example-")).length === 3, "the three example flows");
  assert.ok(offered.filter((id) => id.startsWith("scenario-")).length >= 5, "the workflow scenarios");
  for (const file of builtins) {
    const id = file.replace(/\.json$/, "");
    const t = readTranscript(file);
    await choose(page, id);
    assert.equal(await position(page), 0, id);
    // The page follows the transcript's locale, its own words too (the example flows are zh).
    const zh = t.options?.locale === "zh";
    assert.equal(await page.evaluate(() => document.documentElement.lang), zh ? "zh-Hans" : "en", id);
    assert.match(await text(page, "replay-description"), new RegExp(t.steps.length + (zh ? " 步" : " steps")));
    const recorded = t.steps.filter((s) => s.tool && s.expect).length;
    let calls = 0;
    for (let i = 0; i < t.steps.length; i++) {
      await click(page, "replay-step");
      assert.equal(await position(page), i + 1, `${id}: position after step ${i + 1}`);
      const step = t.steps[i];
      if (!step.tool) continue;
      calls++;
      // The page's response pane shows this call; its state badge is the recorded one.
      assert.equal(await text(page, "response-tool"), `#${calls} ${step.tool}`, `${id} step ${i + 1}`);
      if (step.expect?.workflow_state) {
        assert.equal(await text(page, "workflow-state"), step.expect.workflow_state, `${id} step ${i + 1}: state`);
      }
      if (step.expect?.status) assert.equal(await text(page, "status-badge"), step.expect.status, `${id} step ${i + 1}: status`);
      const verdict = page.locator(`${tid("replay-steps")} li[data-index="${i}"] ${tid("replay-verdict")}`);
      assert.equal(await verdict.getAttribute("data-verdict"), step.expect ? "same" : "none", `${id} step ${i + 1}`);
    }
    const s = await summary(page);
    assert.equal(s.done, true, id);
    assert.equal(s.differ, 0, `${id}: ${s.text}`);
    assert.equal(s.compared, recorded, `${id}: ${s.text}`);
    assert.match(s.text, zh ? new RegExp(`^${recorded} 个响应中有 0 个不同`) : new RegExp(`^0 of ${recorded} responses? differ`));
    assert.match(await text(page, "replay-check"), zh ? /结果一致/ : /agrees/, `${id}: the package's replayTranscript() agrees`);
    assert.equal(await page.locator(`${tid("replay-steps")} ${tid("replay-diff")}`).count(), 0);
    if (id === "example-2-multimatch-letters") {
      await page.screenshot({ path: path.join(shotDir, "playground-replay-flow.png"), fullPage: false });
    }
  }
  // The external-conflict flow, mid-way: the storage panel shows the replay's external write.
  await choose(page, "scenario-4-external-conflict");
  await click(page, "replay-step");
  await click(page, "replay-step");
  assert.equal(await page.locator(tid("storage-unseen")).count(), 1, "the host write is not seen by the workspace yet");
  await click(page, "replay-step");
  assert.equal(await text(page, "status-badge"), "ExternalConflict");
  await page.screenshot({ path: path.join(shotDir, "playground-replay-conflict.png"), fullPage: true });
  assert.deepEqual(h.problems, []);
  await page.context().close();
});

test("stepping back replays from the start and shows the earlier response", async () => {
  const page = await replayPage();
  await choose(page, "scenario-2-multi-match");
  await click(page, "replay-step");
  const first = await pageState(page);
  assert.equal(first.state, "SelectionPending");
  assert.equal(first.calls.length, 1);
  await click(page, "replay-step");
  const second = await pageState(page);
  assert.equal(second.calls.length, 2);
  assert.notEqual(second.markdown, first.markdown);
  await click(page, "replay-back");
  assert.equal(await position(page), 1);
  const back = await pageState(page);
  assert.deepEqual(back, first, "Back shows exactly the state after step 1");
  assert.match(await text(page, "notice"), /back to step 1/);
  assert.equal(await page.locator(`${tid("replay-steps")} li[aria-current="step"]`).getAttribute("data-index"), "0");
  await click(page, "replay-back");
  assert.equal(await position(page), 0);
  assert.equal((await pageState(page)).calls.length, 0);
  assert.equal(await page.locator(tid("replay-back")).isDisabled(), true);
  // Run to end, then Reset.
  await click(page, "replay-run");
  assert.equal((await summary(page)).done, true);
  assert.equal(await page.locator(tid("replay-step")).isDisabled(), true);
  await click(page, "replay-reset");
  assert.equal(await position(page), 0);
  // A console call leaves the replay; Step replays it again, one step further.
  await click(page, "replay-step");
  await page.selectOption(tid("tool-select"), "memo_read");
  await page.fill(tid("args-input"), "{}");
  await page.click(tid("run-button"));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="history"] li').length === 2 && document.body.dataset.busy !== "true");
  await click(page, "replay-step");
  assert.equal(await position(page), 2);
  assert.equal((await pageState(page)).calls.length, 2);
  assert.deepEqual((await pageState(page)).markdown, second.markdown);
  // Leave replay: the page's sample again.
  await click(page, "replay-leave");
  await page.waitForFunction(() => document.body.dataset.sample === "timeouts" && document.body.dataset.ready === "true");
  assert.equal((await pageState(page)).calls.length, 0);
  assert.deepEqual(h.problems, []);
  await page.context().close();
});

test("a modified transcript loaded from a file shows ✗ on the changed step, recorded vs replay", async () => {
  const page = await replayPage();
  const t = readTranscript("scenario-1-single-match.json");
  const lines = t.steps[1].expect.markdown.split("\n");
  const at = lines.findIndex((l) => l.startsWith("- summary:"));
  lines[at] = "- summary: Committed something else entirely.";
  t.steps[1].expect.markdown = lines.join("\n");
  t.steps[0].expect.status = "NoMatch"; // a second difference: a field, not the text
  await page.setInputFiles(tid("replay-file"), { name: "modified.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(t)) });
  await page.waitForFunction(() => document.querySelector('[data-testid="replay-pane"]')?.dataset.replay === "on");
  await paneIdle(page);
  assert.match(await text(page, "replay-description"), /modified\.json/);
  await click(page, "replay-step");
  const step0 = page.locator(`${tid("replay-steps")} li[data-index="0"]`);
  assert.equal(await step0.locator(tid("replay-verdict")).getAttribute("data-verdict"), "differs");
  assert.match(await step0.locator(tid("replay-verdict")).textContent(), /✗ differs \(status\)/);
  assert.match(await step0.locator(".rp-field[data-field=status]").textContent(), /recorded NoMatch, replay Success/);
  await click(page, "replay-step");
  const step1 = page.locator(`${tid("replay-steps")} li[data-index="1"]`);
  assert.equal(await step1.locator(tid("replay-verdict")).getAttribute("data-verdict"), "differs");
  const s = await summary(page);
  assert.equal(s.differ, 2);
  assert.match(s.text, /^2 of 2 responses differ/);
  assert.match(await text(page, "replay-check"), /agrees/);
  // The latest differing step is open: the two texts, the first differing line marked in both.
  const diff = step1.locator(tid("replay-diff"));
  assert.equal(await diff.evaluate((d) => d.open), true);
  assert.match(await diff.locator(".rp-field[data-field=markdown]").textContent(), new RegExp(`first difference at line ${at + 1}`));
  const marked = async (which) => diff.locator(`${tid(which)} .rp-first-diff`);
  assert.equal(await (await marked("replay-recorded")).getAttribute("data-line"), String(at + 1));
  assert.match(await (await marked("replay-recorded")).textContent(), /Committed something else entirely/);
  assert.equal(await (await marked("replay-actual")).getAttribute("data-line"), String(at + 1));
  assert.doesNotMatch(await (await marked("replay-actual")).textContent(), /something else/);
  // The page itself shows the replay's commit.
  assert.equal(await text(page, "workflow-state"), "Idle");
  assert.match(await documentText(page), /timeout: 45|timeout: 60|timeout/);
  await step1.scrollIntoViewIfNeeded();
  await page.locator(tid("replay-panel")).screenshot({ path: path.join(shotDir, "playground-replay-differs.png") });
  await page.screenshot({ path: path.join(shotDir, "playground-replay.png"), fullPage: true });

  // Pasted JSON that is no transcript is refused with a message.
  await page.click(`${tid("replay-paste-box")} > summary`);
  await page.fill(tid("replay-paste"), '{"format": "something-else"}');
  await page.click(tid("replay-load-paste"));
  assert.match(await text(page, "replay-error"), /not an agentpad-transcript\/1 transcript/);
  // The locale toggle: the English recordings of scenario 2 all differ in zh.
  await page.fill(tid("replay-paste"), "");
  await choose(page, "scenario-2-multi-match");
  await page.selectOption(tid("replay-locale"), "zh");
  await paneIdle(page);
  await click(page, "replay-run");
  const zh = await summary(page);
  assert.equal(zh.differ, 3, zh.text);
  assert.match(zh.text, /^3 个响应中有 3 个不同/); // the page follows the replay's locale
  assert.equal(await page.evaluate(() => document.body.dataset.locale), "zh");
  await page.locator(tid("replay-panel")).screenshot({ path: path.join(shotDir, "playground-replay-zh.png") });
  assert.deepEqual(h.problems, []);
  await page.context().close();
});

test("a share link reproduces the session in a new browser context", async () => {
  const page = await h.newPage();
  await page.goto(h.baseUrl);
  await waitReady(page);
  const run = async (tool, args) => {
    const n = await page.locator(`${tid("history")} li`).count();
    await page.selectOption(tid("tool-select"), tool);
    await page.fill(tid("args-input"), JSON.stringify(args));
    await page.click(tid("run-button"));
    await page.waitForFunction((k) => document.querySelectorAll('[data-testid="history"] li').length > k && document.body.dataset.busy !== "true", n);
  };
  await page.selectOption(tid("locale"), "zh");
  await page.waitForFunction(() => document.body.dataset.locale === "zh" && document.body.dataset.ready === "true");
  await run("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  await run("memo_replace_selection", { selection_id: "B" });
  await page.click(tid("fail-next-save"));
  await run("memo_commit", { summary: "api timeout 60" });
  await page.click(tid("simulate-external-write"));
  await run("memo_read", { start_line: 1, end_line: 5 });
  const original = await pageState(page);
  assert.equal(original.calls.length, 4);

  await page.click(tid("share-copy"));
  await page.waitForFunction(() => document.querySelector('[data-testid="share-link"]').value !== "");
  const link = await page.locator(tid("share-link")).inputValue();
  assert.match(link, /#t=[A-Za-z0-9_-]+$/);
  assert.match(await text(page, "share-meta"), new RegExp(`${link.length.toLocaleString("en")} 个字符 · 4 次调用，1 份文档`));

  const other = await h.newPage();
  await other.goto(link);
  await other.waitForFunction(() => document.body.dataset.share === "loaded");
  await waitReady(other);
  const copy = await pageState(other);
  assert.deepEqual(copy, original, "the link reproduces documents, calls, responses and storage");
  assert.equal(await other.evaluate(() => document.body.dataset.locale), "zh");
  assert.match(await text(other, "notice"), /已打开分享链接：timeouts\.yaml，选项 .*，按顺序运行了 4 次调用/);
  // A link from the copy is the same link.
  await other.click(tid("share-copy"));
  await other.waitForFunction(() => document.querySelector('[data-testid="share-link"]').value !== "");
  assert.equal(new URL(await other.locator(tid("share-link")).inputValue()).hash, new URL(link).hash);
  await other.screenshot({ path: path.join(shotDir, "playground-share.png"), fullPage: false });
  await other.context().close();

  // A hash that does not decode is refused with a message (the sample is shown instead).
  const bad = await h.newPage();
  await bad.goto(`${h.baseUrl}#t=notAShareLink`);
  await bad.waitForFunction(() => document.body.dataset.share === "refused");
  assert.match(await text(bad, "fatal"), /This share link does not decode/);
  assert.equal(await bad.evaluate(() => document.body.dataset.ready), "true");
  await bad.context().close();
  assert.deepEqual(h.problems, []);
  await page.context().close();
});

test("accessibility: axe finds no violations with the replay pane open", async () => {
  const page = await replayPage();
  const check = async (what) => {
    assert.deepEqual(await axeViolations(page), [], what);
  };
  await check("the pane before a transcript");
  await choose(page, "example-2-multimatch-letters");
  await page.selectOption(tid("replay-locale"), "en"); // every zh recording differs: the diffs show
  await paneIdle(page);
  await click(page, "replay-run");
  assert.ok((await summary(page)).differ > 0);
  await page.click(tid("share-copy"));
  await page.waitForFunction(() => document.querySelector('[data-testid="share-link"]').value !== "");
  await check("a replay with differing steps, one open");
  await page.evaluate(() => document.querySelectorAll(".rp-diff, .rp-paste").forEach((d) => (d.open = true)));
  await check("every difference open");
  assert.deepEqual(h.problems, []);
  await page.context().close();
});
