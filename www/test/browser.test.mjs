// The browser entry (the file the package's `exports` name under the "default" condition,
// dist/agentpad.browser.js) in headless Chromium: one ES module over HTTP, no bundler; the wasm is
// fetched from new URL("../pkg/…", import.meta.url) when the entry is evaluated, compiled then and
// instantiated by the first create (docs/decisions.md#the-browser-entry-is-one-bundled-module-that-starts-the-wasms-fetch).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { serveWww } from "./lib/static-server.mjs";
import { BROWSER_ENTRY as ENTRY, CHROMIUM, CHROMIUM_ARGS as ARGS } from "./lib/chromium.mjs";

const WASM = "/pkg/agentpad_core.wasm"; // the first module of the split pair (src/split-loader.ts)

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>agentpad browser entry</title>
<script type="module">
  const fetched = () => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname);
  try {
    const { MemoryStorage, Workspace, memoryBytes } = await import(${JSON.stringify(ENTRY)});
    const scripts = fetched().filter((p) => p.endsWith(".js"));
    // The wasm's fetch was started by the import: wait for it to end before any create.
    const until = performance.now() + 20000;
    while (!fetched().includes(${JSON.stringify(WASM)}) && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
    const wasmBeforeCreate = fetched().includes(${JSON.stringify(WASM)});
    const before = memoryBytes();
    const storage = new MemoryStorage({ "notes.md": "a: TODO\\r\\nb: TODO\\r\\nc: TODO\\r\\n" });
    const ws = await Workspace.create({ storage });
    const multi = await ws.call("memo_replace", { old_text: "TODO", new_text: "DONE" });
    const draft = ws.draft();
    const slices = multi.candidates.map((c) => draft.slice(c.context_start, c.context_end));
    const staged = await ws.call("memo_replace", { old_text: "TODO", new_text: "DONE", match_id: "C" });
    const commit = await ws.call("memo_commit", { summary: "c done" });
    const tools = ws.tools({ format: "anthropic" }).map((t) => t.name);
    ws[Symbol.dispose]();
    let afterFree = "";
    try { ws.text(); } catch (err) { afterFree = err.message; }
    window.__result = {
      scripts, wasmBeforeCreate, before, after: memoryBytes(), multi: multi.status, ids: multi.candidates.map((c) => c.id), slices,
      staged: staged.status, commit: commit.status, stored: storage.read("notes.md"), tools, afterFree,
    };
  } catch (err) {
    window.__result = { error: String(err && err.stack || err) };
  }
</script>`;

let server;
let origin;
const requests = [];

before(async () => {
  server = await serveWww(PAGE, (pathname) => requests.push(pathname));
  origin = server.origin;
});

after(() => server?.close());

test(`${ENTRY} runs a replace → MultiMatch → match_id → commit flow in Chromium`, { timeout: 120_000 }, async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (./build.sh test installs Debian chromium)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const r = await page.evaluate(() => window.__result);
    assert.equal(r.error, undefined, r.error);
    assert.deepEqual(errors, []);
    assert.deepEqual(r.scripts, [ENTRY], "one module fetched, no waterfall");
    assert.ok(r.wasmBeforeCreate, "the wasm is fetched when the entry is evaluated, before any create");
    assert.equal(r.before, 0, "no wasm memory before the first create (compiled, not instantiated)");
    assert.ok(r.after > 0);
    assert.equal(r.multi, "MultiMatch");
    assert.deepEqual(r.ids, ["A", "B", "C"]);
    assert.deepEqual(r.slices, ["TODO", "TODO", "TODO"]);
    assert.equal(r.staged, "Success");
    assert.equal(r.commit, "Success");
    assert.equal(r.stored, "a: TODO\r\nb: TODO\r\nc: DONE\r\n");
    assert.ok(r.tools.includes("memo_replace"));
    assert.match(r.afterFree, /freed/);
    assert.ok(requests.includes(WASM), `the wasm was fetched next to dist/: ${requests.join(" ")}`);
  } finally {
    await browser.close();
  }
});

test(
  "a wasm that fails to fetch: the import succeeds, create() names the failure, a later create() fetches again",
  { timeout: 120_000 },
  async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (./build.sh test installs Debian chromium)`);
    let refuse = true;
    const seen = [];
    const failing = await serveWww(`<!doctype html><meta charset="utf-8"><title>agentpad, no wasm</title>`, (pathname) => {
      seen.push(pathname);
      return pathname === WASM && refuse ? { status: 404 } : undefined;
    });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (err) => errors.push(String(err)));
      await page.goto(`${failing.origin}/`);
      await page.evaluate(async (entry) => {
        window.agentpad = await import(entry);
      }, ENTRY);
      for (let i = 0; i < 400 && !seen.includes(WASM); i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(seen.includes(WASM), "the import fetched the wasm");
      const failed = await page.evaluate(() =>
        window.agentpad.Workspace.create({ storage: new window.agentpad.MemoryStorage({ "a.md": "one\n" }) }).then(
          () => "created",
          (err) => err.message,
        ),
      );
      assert.match(failed, /^agentpad: failed to load the wasm module: 404 Not Found fetching .*\/pkg\/agentpad_core\.wasm/);
      refuse = false;
      const status = await page.evaluate(async () => {
        const ws = await window.agentpad.Workspace.create({ storage: new window.agentpad.MemoryStorage({ "a.md": "one\n" }) });
        const r = await ws.call("memo_read", {});
        ws.free();
        return r.status;
      });
      assert.equal(status, "Success");
      assert.equal(seen.filter((p) => p === WASM).length, 2, "fetched again after the failure");
      assert.deepEqual(errors, [], "no unhandled rejection from the import's fetch");
    } finally {
      await browser.close();
      await failing.close();
    }
  },
);
