// BrowserStorage (IndexedDB + BroadcastChannel) in real headless Chromium, through the browser
// entry dist/browser.js served over HTTP like browser.test.mjs does. Two pages of one browser
// context are two tabs of the same origin.
// Run: node --test www/test/browser-storage.test.mjs   (after tsc -p www)
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { serveWww } from "./lib/static-server.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "./lib/chromium.mjs";

const PAGE = `<!doctype html><meta charset="utf-8"><title>agentpad BrowserStorage</title>`;

let server;
let origin;
let browser;

function hashOf(text) {
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16)}`;
}

before(async () => {
  server = await serveWww(PAGE); // 127.0.0.1: a secure context, crypto.subtle exists
  origin = server.origin;
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (./build.sh test installs Debian chromium)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A page of a fresh context (its own IndexedDB), with BrowserStorage loaded as `window.BrowserStorage`. */
async function openTab(context) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(`${origin}/`);
  await page.evaluate(async () => {
    const mod = await import("/dist/browser.js");
    window.agentpad = mod;
  });
  return { page, errors };
}

test("open, save, load, list: content-hash versions (the same as NodeFsStorage's)", { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  try {
    const { page, errors } = await openTab(context);
    const r = await page.evaluate(async () => {
      const storage = await window.agentpad.BrowserStorage.open("t-basic");
      const empty = await storage.list();
      const missing = await storage.load("notes.md");
      const first = await storage.save("notes.md", "a: TODO\r\nb: TODO\r\n", "");
      const loaded = await storage.load("notes.md");
      const second = await storage.save("notes.md", "a: DONE\r\nb: TODO\r\n", first.version);
      await storage.save("docs/intro.md", "\uFEFFhello\n", "");
      const same = await storage.save("copy.md", "a: DONE\r\nb: TODO\r\n", "");
      return {
        name: storage.name,
        empty,
        missing: missing === undefined,
        first,
        loaded,
        second,
        same,
        after: await storage.load("notes.md"),
        list: await storage.list(),
        intro: await storage.load("docs/intro.md"),
      };
    });
    assert.equal(r.name, "t-basic");
    assert.deepEqual(r.empty, []);
    assert.ok(r.missing);
    assert.deepEqual(r.first, { version: hashOf("a: TODO\r\nb: TODO\r\n") });
    assert.deepEqual(r.loaded, { text: "a: TODO\r\nb: TODO\r\n", version: r.first.version });
    assert.deepEqual(r.second, { version: hashOf("a: DONE\r\nb: TODO\r\n") });
    assert.equal(r.same.version, r.second.version, "same text, same version");
    assert.deepEqual(r.after, { text: "a: DONE\r\nb: TODO\r\n", version: r.second.version });
    assert.deepEqual(r.list, ["copy.md", "docs/intro.md", "notes.md"]);
    assert.equal(r.intro.text, "\uFEFFhello\n", "text stored as given (BOM kept)");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("save with a stale or wrong expectedVersion rejects and leaves the document unchanged", { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  try {
    const { page } = await openTab(context);
    const r = await page.evaluate(async () => {
      const storage = await window.agentpad.BrowserStorage.open("t-mismatch");
      const { version } = await storage.save("doc.md", "v1\n", "");
      const external = await storage.write("doc.md", "changed elsewhere\n");
      const attempt = (promise) =>
        promise.then(
          () => "resolved",
          (err) => `${err.constructor.name}: ${err.message}`,
        );
      return {
        version,
        external,
        stale: await attempt(storage.save("doc.md", "mine\n", version)),
        exists: await attempt(storage.save("doc.md", "mine\n", "")),
        absent: await attempt(storage.save("other.md", "mine\n", version)),
        badText: await attempt(storage.save("doc.md", 42, external)),
        stored: await storage.load("doc.md"),
        list: await storage.list(),
      };
    });
    assert.match(
      r.stale,
      /^Error: BrowserStorage: version mismatch for "doc\.md": expected sha256:[0-9a-f]{16}, storage has sha256:[0-9a-f]{16} \(changed elsewhere; load it again\)/,
    );
    assert.ok(r.stale.includes(r.version) && r.stale.includes(r.external), r.stale);
    assert.match(r.exists, /expected a new document, but it exists/);
    assert.match(r.absent, /but the document does not exist/);
    assert.match(r.badText, /^TypeError: .*the text must be a string/);
    assert.deepEqual(r.stored, { text: "changed elsewhere\n", version: r.external });
    assert.deepEqual(r.list, ["doc.md"]);
  } finally {
    await context.close();
  }
});

test("write() and save() by another instance (another tab) notify the first through BroadcastChannel", { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  try {
    const first = await openTab(context);
    const second = await openTab(context);
    await first.page.evaluate(async () => {
      window.storage = await window.agentpad.BrowserStorage.open("t-watch");
      window.changes = [];
      window.storage.watch((change) => window.changes.push(change));
      // A second instance in the same page is also "someone else".
      window.sibling = await window.agentpad.BrowserStorage.open("t-watch");
    });
    const own = await first.page.evaluate(async () => {
      const { version } = await window.storage.save("doc.md", "mine\n", "");
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { version, changes: window.changes.slice() };
    });
    assert.deepEqual(own.changes, [], "its own save does not echo to its own listeners");

    // Tab 2: write (external change), then a checked save, then delete.
    const versions = await second.page.evaluate(async (expected) => {
      const other = await window.agentpad.BrowserStorage.open("t-watch");
      const loaded = await other.load("doc.md");
      const written = await other.write("doc.md", "from tab 2\n");
      const { version: saved } = await other.save("doc.md", "saved by tab 2\n", written);
      const deleted = await other.delete("doc.md");
      const deletedAgain = await other.delete("doc.md");
      other.close();
      return { loaded: loaded.version === expected, written, saved, deleted, deletedAgain };
    }, own.version);
    assert.ok(versions.loaded, "tab 2 sees tab 1's save");
    assert.equal(versions.deleted, true);
    assert.equal(versions.deletedAgain, false);
    await first.page.waitForFunction(() => window.changes.length >= 3, null, { timeout: 3000 });
    const seen = await first.page.evaluate(() => window.changes);
    assert.deepEqual(seen, [
      { path: "doc.md", version: versions.written },
      { path: "doc.md", version: versions.saved },
      { path: "doc.md", version: undefined }, // removed
    ]);

    // write() in the same page by the sibling instance; the writer's own listeners hear it too.
    const local = await first.page.evaluate(async () => {
      const mine = [];
      window.sibling.watch((change) => mine.push(change));
      window.changes.length = 0;
      const version = await window.sibling.write("notes.md", "hello\n");
      const deadline = Date.now() + 3000;
      while (window.changes.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return { version, changes: window.changes.slice(), mine };
    });
    assert.deepEqual(local.changes, [{ path: "notes.md", version: local.version }]);
    assert.deepEqual(
      local.mine,
      [{ path: "notes.md", version: local.version }],
      "write() notifies its own listeners like MemoryStorage.write",
    );
    assert.deepEqual(first.errors, []);
    assert.deepEqual(second.errors, []);
  } finally {
    await context.close();
  }
});

test("documents persist across a page reload; close() makes later calls reject clearly", { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  try {
    const { page } = await openTab(context);
    const saved = await page.evaluate(async () => {
      const storage = await window.agentpad.BrowserStorage.open("t-persist");
      const { version } = await storage.save("kept.md", "survives reloads\n", "");
      storage.close();
      return version;
    });
    await page.reload();
    const r = await page.evaluate(async () => {
      const { BrowserStorage } = await import("/dist/browser.js");
      const storage = await BrowserStorage.open("t-persist");
      const loaded = await storage.load("kept.md");
      const list = await storage.list();
      const other = await BrowserStorage.open("t-persist-other");
      const otherList = await other.list();
      storage.close();
      const closed = await storage.load("kept.md").then(
        () => "resolved",
        (err) => err.message,
      );
      let watchClosed = "";
      try {
        storage.watch(() => {});
      } catch (err) {
        watchClosed = err.message;
      }
      return { loaded, list, otherList, closed, watchClosed };
    });
    assert.deepEqual(r.loaded, { text: "survives reloads\n", version: saved });
    assert.deepEqual(r.list, ["kept.md"]);
    assert.deepEqual(r.otherList, [], "each database name is its own storage");
    assert.match(
      r.closed,
      /BrowserStorage "t-persist": cannot load: it was closed; open it again with BrowserStorage\.open\("t-persist"\)/,
    );
    assert.match(r.watchClosed, /cannot watch: it was closed/);
  } finally {
    await context.close();
  }
});

test("a Workspace on BrowserStorage commits into IndexedDB", { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  try {
    const { page, errors } = await openTab(context);
    const r = await page.evaluate(async () => {
      const { BrowserStorage, Workspace } = window.agentpad;
      const storage = await BrowserStorage.open("t-workspace");
      await storage.write("tasks.md", "- a: todo\n- b: todo\n");
      const ws = await Workspace.create({ storage });
      const staged = await ws.call("memo_replace", { old_text: "todo", new_text: "done", match_id: "B" });
      const commit = await ws.call("memo_commit", { summary: "b done" });
      ws.free();
      return { staged: staged.status, commit: commit.status, stored: (await storage.load("tasks.md")).text };
    });
    assert.equal(r.staged, "Success");
    assert.equal(r.commit, "Success");
    assert.equal(r.stored, "- a: todo\n- b: done\n");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
