// The page each e2e test file drives, and the helpers they share to drive it. A file calls
// `openSharedPage()` once: its `before` opens one page (a new browser context: nothing carries over
// from another file) and the file's tests run on it in order, building on each other's workspace.
// `page`, `baseUrl` and `problems` are live bindings: set there, read by the tests and helpers.
// Not a test file itself (build.sh runs test/*.test.mjs).
import { before } from "node:test";
import assert from "node:assert/strict";
import { playgroundHarness, tid } from "./browser.mjs";

/** The file's one page (set by `openSharedPage`'s `before`). */
export let page;
/** The served playground's address. */
export let baseUrl;
/** The page's errors, failed requests and HTTP errors; tests assert it stays empty. */
export let problems;

/**
 * Registers the hooks that serve the playground, launch Chromium and open the file's page; with
 * `load`, the page is at the playground with the default sample ready before the first test.
 */
export function openSharedPage({ load = true } = {}) {
  const h = playgroundHarness();
  problems = h.problems;
  before(async () => {
    page = await h.newPage(); // starts the server and the browser when the harness has not yet
    baseUrl = h.baseUrl;
    if (load) {
      await page.goto(baseUrl);
      await waitReady("timeouts");
    }
  });
}

/** Waits until the workspace on sample `sampleId` is ready; one that failed fails the test with the page's message. */
export async function waitReady(sampleId) {
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
export async function documentLines() {
  return page.$eval(tid("document-view"), (host) => {
    const doc = host.editorView.state.doc;
    const out = [];
    for (let n = 1; n <= doc.lines; n++) out.push({ line: n, text: doc.line(n).text });
    if (out.length > 0 && out.at(-1).text === "" && (out.length > 1 || doc.length === 0)) out.pop();
    return out;
  });
}

/** The document view's line-number gutter element of a line (a click puts the cursor there). */
export const lineNumber = (n) => `${tid("document")} .cm-lineNumbers .cm-gutterElement:text-is("${n}")`;
/** The document view's rendered line (`data-line` is set on the lines in view). */
export const docLine = (n) => `${tid("document")} .cm-line[data-line="${n}"]`;

/** The console's JSON arguments (a CodeMirror editor: its lines). */
export const argsText = () =>
  page.$eval(tid("args-input"), (el) => [...el.querySelectorAll(".cm-line")].map((l) => l.textContent).join("\n"));

export async function historyCount() {
  return page.locator(`${tid("history")} li`).count();
}

/**
 * Runs `start` (what starts a call: a click, or a tool picked and Run pressed), waits for the call
 * to land in the history and the page to be idle, and reads the response's status and state.
 */
export async function afterCall(start) {
  const before = await historyCount();
  await start();
  await page.waitForFunction(
    ([sel, n]) => document.querySelectorAll(sel).length > n && document.body.dataset.busy !== "true",
    [`${tid("history")} li`, before],
  );
  return {
    status: (await page.locator(tid("status-badge")).textContent())?.trim(),
    state: (await page.locator(tid("response-state-badge")).textContent())?.trim(),
  };
}

/** Pick a tool in the console, type its JSON args, press Run, wait for the response. */
export async function runTool(tool, args) {
  return afterCall(async () => {
    await page.selectOption(tid("tool-select"), tool);
    await page.fill(tid("args-input"), JSON.stringify(args, null, 2));
    assert.equal(await page.locator(tid("args-error")).textContent(), "");
    await page.click(tid("run-button"));
  });
}

/** Click `selector` (a button that makes a call) and wait for the response. */
export const clickAndWait = (selector) => afterCall(() => page.click(selector));

export const text = async (id) => ((await page.locator(tid(id)).textContent()) ?? "").trim();

/** What the workflow panel shows: state, mode, flags, pending count, last status, tools. */
export async function workflowPanel() {
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
export async function switchOption(testid, dataKey, value) {
  if ((await page.locator(tid(testid)).inputValue()) === value) return;
  await page.selectOption(tid(testid), value);
  await page.waitForFunction(
    ([k, v]) => document.body.dataset[k] === v && document.body.dataset.ready === "true",
    [dataKey, value],
  );
}

/** Switch sample (or reload it), persist mode, locale and candidate style, and wait for the new workspace. */
export async function freshWorkspace(sampleId, mode = "manual", { locale = "en", candidateStyle = "table" } = {}) {
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

/** The live context's raw Markdown (the view must be "markdown"). */
export const liveMarkdown = async () => page.locator(tid("live-context-markdown")).textContent();

/** Selects text in the document view from (line, column) to (line, column), as a mouse would, and releases. */
export async function selectInDocument(from, to) {
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
