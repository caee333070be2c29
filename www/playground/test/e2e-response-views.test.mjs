// The response panel end to end in the built playground (target/playground), headless Debian
// Chromium: the Basic and Detail views in locale zh and en, with the candidates as a list or a
// table, and their layout in a wide and a narrow panel.
// Run from the repo root: node --test www/playground/test/*.test.mjs
// Needs: `npm run build` in www/playground first (build.sh does it), /usr/bin/chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { tid, shotDir } from "./lib/browser.mjs";
import { openSharedPage, page, problems, historyCount, runTool, text, switchOption, freshWorkspace } from "./lib/shared-page.mjs";

openSharedPage();

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
