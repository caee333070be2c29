// The co-editing view (coedit.html) in headless Chromium against a real Hocuspocus server on
// 127.0.0.1: two pages on one document; the agent's pending change, published in awareness as
// Y.RelativePositions, moves in the other page's editor when a person types above it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCollabServer } from "@agentpad/yjs/server";
// The server as its own process, stopped by pid: the package's test helper.
import { freePort, spawnServer } from "../../yjs/test/server-process.mjs";
import { playgroundHarness, axeViolations, tid } from "./lib/browser.mjs";

const h = playgroundHarness();
let server;
let dir;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentpad-coedit-e2e-"));
  server = await startCollabServer({ directory: dir, debounce: 100 });
});

after(async () => {
  await server?.destroy();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function open(hash) {
  const page = await h.newPage();
  await page.goto(`${h.baseUrl}coedit.html#${hash}`);
  await page.waitForFunction(() => document.body.dataset.ready !== "false");
  assert.equal(await page.evaluate(() => document.body.dataset.ready), "true", await page.locator(tid("coedit-status")).textContent());
  return page;
}

/** The pending change `id` as the page lists it: { line, text }. */
const pending = (page, id) => page.$eval(tid(`pending-${id}`), (li) => ({ line: Number(li.dataset.line), text: li.textContent }));

/** The text y-codemirror.next highlights as a peer's selection in the page's editor. */
const highlighted = (page) => page.$$eval(`${tid("person-editor")} .cm-ySelection`, (els) => els.map((e) => e.textContent).join(""));

test("two pages on one document: a typed line moves the agent's pending highlight in the other page", async () => {
  const url = encodeURIComponent(server.url);
  const a = await open(`server=${url}&room=e2e&path=notes.md&name=Ada`);
  await a.fill(tid("old-text"), "beta = 1");
  await a.fill(tid("new-text"), "beta = 2");
  await a.click(tid("stage"));
  await a.waitForFunction((sel) => document.querySelector(sel)?.textContent === "Success", tid("agent-status"));

  const b = await open(`server=${url}&room=e2e&path=notes.md&agent=0&name=Bo`);
  assert.equal(await b.locator("#agent-pane").isHidden(), true, "a second person has no agent pane");
  await b.waitForSelector(tid("pending-A"));
  assert.equal((await pending(b, "A")).line, 4);
  await b.waitForFunction(
    (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent).join("") === "beta = 1",
    `${tid("person-editor")} .cm-ySelection`,
  );

  // Ada types a line at the top of her editor.
  await a.$eval(tid("person-editor"), (host) => {
    host.editorView.focus();
    host.editorView.dispatch({ selection: { anchor: 0 } });
  });
  await a.keyboard.type("Intro from Ada");
  await a.keyboard.press("Enter");

  // In Bo's page the agent's change moved down a line and still covers "beta = 1".
  await b.waitForFunction((sel) => document.querySelector(sel)?.dataset.line === "5", tid("pending-A"));
  assert.match((await pending(b, "A")).text, /"beta = 1" → "beta = 2"/);
  assert.equal(await highlighted(b), "beta = 1");
  assert.deepEqual(await axeViolations(a), [], "axe on the agent's page");
  assert.deepEqual(await axeViolations(b), [], "axe on the second person's page");

  // The commit reaches Bo, Ada's line kept, and the highlight is gone.
  await a.click(tid("commit"));
  await b.waitForFunction((sel) => {
    const doc = document.querySelector(sel).editorView.state.doc.toString();
    return doc.startsWith("Intro from Ada\n") && doc.includes("\nbeta = 2\n");
  }, tid("person-editor"));
  await b.waitForFunction((sel) => document.querySelector(sel) === null, tid("pending-A"));
  assert.deepEqual(h.problems, []);
});

test("a page opened while the server is down shows it offline, keeps trying, joins when it is up; people get distinct colours; the agent's own connection is shown; a commit made offline reads not stored, then stored once the server has it", async () => {
  const port = await freePort();
  const url = encodeURIComponent(`ws://127.0.0.1:${port}`);
  const docs = await mkdtemp(join(tmpdir(), "agentpad-coedit-down-"));
  let late;
  let again;
  try {
    const a = await h.newPage();
    await a.goto(`${h.baseUrl}coedit.html#server=${url}&room=down&path=notes.md&name=Ada`);
    await a.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === "offline", tid("connection"));
    assert.match(await a.locator(tid("coedit-status")).textContent(), /offline: .* does not answer .* trying again/);
    // Past the connector's old 10 s give-up: the page still tries, and joins once the server is up.
    await new Promise((r) => setTimeout(r, 10_500));
    assert.equal(await a.evaluate(() => document.body.dataset.ready), "false", "still trying, not failed");
    late = await spawnServer(["--port", String(port), "--dir", docs]);
    await a
      .waitForFunction(() => document.body.dataset.ready === "true", undefined, { timeout: 15_000 })
      .catch(async (err) => {
        throw new Error(
          `${err.message}; the page says: ${await a.locator(tid("coedit-status")).textContent()} ${JSON.stringify(h.problems.slice(-3))}`,
        );
      });
    assert.equal(await a.locator(tid("connection")).getAttribute("data-state"), "online");
    assert.equal(await a.locator(tid("connection")).getAttribute("data-agent"), "online");
    assert.equal(await a.locator(tid("connection")).textContent(), "● online · agent ● online");

    const b = await open(`server=${url}&room=down&path=notes.md&agent=0&name=Bo`);
    const colour = (page) => page.locator(tid("person-name")).getAttribute("data-color");
    // Each settles on a colour the other does not have.
    const deadline = Date.now() + 5_000;
    while ((await colour(a)) === (await colour(b)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.notEqual(await colour(a), await colour(b));

    // The server goes away: the page says offline; the agent's own connection shows as reconnecting.
    await late.kill();
    await b.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === "offline", tid("connection"));
    assert.equal(await b.locator(tid("connection")).getAttribute("data-agent"), "none", "no agent on a second person's page");
    // The agent's changes reach a person through the server: offline, the list says it cannot know.
    await b.waitForFunction(
      (sel) => document.querySelector(sel)?.textContent === "not known while offline: the list comes through the server",
      tid("agent-pending"),
    );
    await a.waitForFunction(
      (sel) => document.querySelector(sel)?.dataset.state === "offline" && document.querySelector(sel)?.dataset.agent === "reconnecting",
      tid("connection"),
    );
    assert.equal(await a.locator(tid("connection")).textContent(), "○ offline · agent ◌ reconnecting");

    // A commit while the server is away is not stored, and the page says so.
    await a.fill(tid("old-text"), "gamma = 1");
    await a.fill(tid("new-text"), "gamma = 3");
    await a.click(tid("stage"));
    await a.waitForFunction((sel) => document.querySelector(sel)?.textContent === "Success", tid("agent-status"));
    await a.click(tid("commit"));
    await a.waitForFunction((sel) => document.querySelector(sel)?.textContent === "Success · not stored yet", tid("agent-status"));
    // Still not stored a second later: nothing has acknowledged it.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(await a.locator(tid("agent-status")).textContent(), "Success · not stored yet");

    // It comes back on the same port: both connections come back, each shown when it is.
    again = await spawnServer(["--port", String(port), "--dir", docs]);
    await a.waitForFunction(
      (sel) => document.querySelector(sel)?.dataset.state === "online" && document.querySelector(sel)?.dataset.agent === "online",
      tid("connection"),
      { timeout: 15_000 },
    );
    assert.equal(await a.locator(tid("connection")).textContent(), "● online · agent ● online");
    // The server acknowledged the commit: the status turns to stored without another call.
    await a.waitForFunction((sel) => document.querySelector(sel)?.textContent === "Success · stored now", tid("agent-status"), {
      timeout: 15_000,
    });
    await b.waitForFunction(
      (sel) => document.querySelector(sel).editorView.state.doc.toString().includes("\ngamma = 3\n"),
      tid("person-editor"),
      { timeout: 15_000 },
    );
  } finally {
    await again?.kill();
    await late?.kill();
    await rm(docs, { recursive: true, force: true });
  }
});
