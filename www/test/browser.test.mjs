// The browser entry (dist/browser.js, the "default" export condition) in headless Chromium:
// plain ES modules over HTTP, no bundler; the wasm is fetched from new URL("../pkg/…", import.meta.url).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { serveWww } from "./lib/static-server.mjs";

const CHROMIUM = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>agentpad browser entry</title>
<script type="module">
  import { MemoryStorage, Workspace, memoryBytes } from "/dist/browser.js";
  try {
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
      before, after: memoryBytes(), multi: multi.status, ids: multi.candidates.map((c) => c.id), slices,
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

test("dist/browser.js runs a replace → MultiMatch → match_id → commit flow in Chromium", { timeout: 120_000 }, async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (./build.sh test installs Debian chromium)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const r = await page.evaluate(() => window.__result);
    assert.equal(r.error, undefined, r.error);
    assert.deepEqual(errors, []);
    assert.equal(r.before, 0, "no wasm memory before the first create");
    assert.ok(r.after > 0);
    assert.equal(r.multi, "MultiMatch");
    assert.deepEqual(r.ids, ["A", "B", "C"]);
    assert.deepEqual(r.slices, ["TODO", "TODO", "TODO"]);
    assert.equal(r.staged, "Success");
    assert.equal(r.commit, "Success");
    assert.equal(r.stored, "a: TODO\r\nb: TODO\r\nc: DONE\r\n");
    assert.ok(r.tools.includes("memo_replace"));
    assert.match(r.afterFree, /freed/);
    assert.ok(requests.includes("/pkg/agentpad_bg.wasm"), `the wasm was fetched next to dist/: ${requests.join(" ")}`);
  } finally {
    await browser.close();
  }
});
