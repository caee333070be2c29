// Serves www/ over HTTP on 127.0.0.1 (a secure context: crypto.subtle and IndexedDB work) for the
// headless-Chromium tests of the browser entry. `/` is the test's page; node_modules is refused.
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const WWW = fileURLToPath(new URL("../..", import.meta.url));
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
};

/**
 * Starts the server. `onRequest(pathname)` sees every request (for tests that check what was
 * fetched); if it returns `{ status }`, that is the answer instead of the file (for tests of a
 * failed fetch). `gzip: true` sends files gzipped (level 9, as the size budgets measure) to a
 * client that accepts it, as a production server would. Resolves to `{ origin, close }`.
 */
export async function serveWww(page, onRequest = () => {}, { gzip = false } = {}) {
  const gzipped = new Map(); // etag → body
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://localhost");
    const refused = onRequest(url.pathname)?.status;
    if (refused !== undefined) {
      res.writeHead(refused, { "cache-control": "no-store" }).end();
      return;
    }
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": TYPES[".html"] }).end(page);
      return;
    }
    const file = normalize(WWW + decodeURIComponent(url.pathname));
    if (!file.startsWith(WWW) || file.includes(`${sep}node_modules${sep}`)) {
      res.writeHead(403).end();
      return;
    }
    try {
      // Validators, as a static file server sends them: a second page revalidates (304) and
      // Chromium reuses what it cached with the response, the wasm's compiled code among it.
      const { mtimeMs, size } = await stat(file);
      const etag = `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
      const headers = { etag, "last-modified": new Date(mtimeMs).toUTCString(), "cache-control": "no-cache" };
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, headers).end();
        return;
      }
      const body = await readFile(file);
      const type = { "content-type": TYPES[extname(file)] ?? "application/octet-stream" };
      if (gzip && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
        if (!gzipped.has(etag)) gzipped.set(etag, gzipSync(body, { level: 9 }));
        res.writeHead(200, { ...headers, ...type, "content-encoding": "gzip", vary: "accept-encoding" }).end(gzipped.get(etag));
        return;
      }
      res.writeHead(200, { ...headers, ...type }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
