// The find box in the built playground (target/playground), headless Chromium: a query runs
// memo_find on the document on screen, the units it ranked are listed and highlighted, and a
// unit can be read or handed to the console to replace or to edit inside.
// Run from the repo root: node --test www/playground/test/find.test.mjs
// Needs: `npm run build` in www/playground first (build.sh does it), /usr/bin/chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { playgroundHarness, tid, screenshot } from "./lib/browser.mjs";

const h = playgroundHarness();

const historyCount = (page) => page.locator(`${tid("history")} li`).count();

async function waitCalls(page, n) {
  await page.waitForFunction(
    (k) => document.querySelectorAll('[data-testid="history"] li').length === k && document.body.dataset.busy !== "true",
    n,
  );
}

test("a find lists and highlights the ranked units; read, replace and edit-inside act on one", async () => {
  const page = await h.readyPage();
  assert.equal(await page.locator(tid("find-form")).isVisible(), true, "the find box is offered");
  const draft = await page.evaluate(() => document.querySelector('[data-testid="document-view"] .cm-content')?.textContent ?? "");
  // A word of the sample's own text, so the ranking has something to find whatever the sample.
  const word = (draft.match(/[A-Za-z]{5,}/g) ?? []).find((w) => !/^(the|and|with)$/i.test(w));
  assert.ok(word, "the sample has a word to find");
  const before = await historyCount(page);
  await page.fill(tid("find-query"), word);
  await page.click(tid("find-run"));
  await waitCalls(page, before + 1);

  const last = await page.locator(`${tid("history")} li .call-chip`).last().textContent();
  assert.match(last ?? "", /memo_find/);
  const heading = await page.locator(`${tid("candidates")} h3`).first().textContent();
  assert.match(heading ?? "", /^Units found/);
  assert.ok((await page.locator(`${tid("candidates")} tbody tr[data-candidate]`).count()) >= 1, "at least one unit listed");
  assert.ok((await page.locator(`${tid("document-view")} mark.cand`).count()) >= 1, "the units are highlighted in the document");
  assert.equal(await page.locator(tid("stage-candidate-A")).count(), 0, "a unit is not staged by a click: its new text is the model's");
  await screenshot(page, "playground-find");

  // Read a unit: the core answers with that unit's lines.
  await page.click(tid("read-unit-A"));
  await waitCalls(page, before + 2);
  assert.match((await page.locator(tid("response-basic")).textContent()) ?? "", /Success · \w+ · Read lines/);
  // Replace and edit-inside fill the console with the unit named.
  await page.click(tid("find-run")); // the find again: reading ended the listing on screen
  await waitCalls(page, before + 3);
  await page.click(tid("within-unit-A"));
  const args = await page.$eval(tid("args-input"), (el) => [...el.querySelectorAll(".cm-line")].map((l) => l.textContent).join("\n"));
  assert.match(args, /"within": "A"/);
  assert.equal(await page.locator(tid("tool-select")).inputValue(), "memo_replace");
});
