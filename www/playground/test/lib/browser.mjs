// What every browser test of the playground shares: the built page served on 127.0.0.1, one
// headless Debian Chromium, and pages opened each in a new browser context (nothing shared
// between them; axe needs a context-made page) with the page's errors collected.
// Not a test file itself (build.sh runs test/*.test.mjs).
import { before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, "../../../..");
export const dist = path.join(repo, "target", "playground");
export const shotDir = path.join(repo, "target", "screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".map": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/** A tiny static server for `root` on 127.0.0.1 (free port); paths outside `root` get 403. */
function serveStatic(root) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let rel = decodeURIComponent(url.pathname);
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.resolve(root, "." + rel);
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end("forbidden");
      return;
    }
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const type = MIME[path.extname(file).toLowerCase()] ?? "application/octet-stream";
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/** `[data-testid="id"]`: the page marks what tests use with data-testid. */
export const tid = (id) => `[data-testid="${id}"]`;

/**
 * Registers `before`/`after` hooks that serve target/playground and launch Chromium, and returns
 * the handle the tests use: `baseUrl` (set once `before` ran), `problems` (page errors, console
 * errors, failed requests and HTTP errors of every page opened through it; tests assert it stays
 * empty) and `newPage()`.
 */
export function playgroundHarness() {
  let server;
  let browser;
  const harness = {
    baseUrl: "",
    problems: [],
    /** A page in a new browser context (its own storage, downloads accepted), errors collected. */
    async newPage() {
      await start();
      const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, acceptDownloads: true });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const problems = harness.problems;
      page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
      page.on("console", (msg) => {
        if (msg.type() === "error") problems.push(`console.error: ${msg.text()}`);
      });
      page.on("requestfailed", (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
      page.on("response", (res) => {
        if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
      });
      return page;
    },
    /** A new page at the playground with the workspace ready. */
    async readyPage(hash = "") {
      const page = await harness.newPage();
      await page.goto(harness.baseUrl + hash);
      await waitReady(page);
      return page;
    },
  };
  // Started once, by whichever comes first: this `before` or a test file's own `before` opening a
  // page (the order of root-level hooks across modules is not something to rely on).
  let starting;
  const start = () =>
    (starting ??= (async () => {
      assert.ok(fs.existsSync(path.join(dist, "index.html")), `no build at ${dist}: run \`npm run build\` in www/playground first`);
      fs.mkdirSync(shotDir, { recursive: true });
      server = await serveStatic(dist);
      harness.baseUrl = `http://127.0.0.1:${server.address().port}/`;
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-dev-shm-usage",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
        ],
      });
    })());
  before(start);
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  });
  return harness;
}

/** Waits until the page's workspace is ready (or failed: then the page's fatal message fails the test). */
export async function waitReady(page) {
  await page.waitForFunction(() => document.body.dataset.ready !== undefined && document.body.dataset.ready !== "false");
  assert.equal(await page.evaluate(() => document.body.dataset.ready), "true", await page.locator(tid("fatal")).textContent());
}

/**
 * axe (through @axe-core/playwright) over the page, or only over the `include` selectors:
 * the violations as `id (impact): targets` lines, so a failing assert says what to fix.
 */
export async function axeViolations(page, include = []) {
  let builder = new AxeBuilder({ page });
  for (const selector of include) builder = builder.include(selector);
  const r = await builder.analyze();
  return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(", ")}`);
}

/** A screenshot to target/screenshots/<name>.png. */
export const screenshot = (pageOrLocator, name, options = {}) =>
  pageOrLocator.screenshot({ path: path.join(shotDir, `${name}.png`), ...options });
