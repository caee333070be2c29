// Serves www/ over HTTP on 127.0.0.1 (a secure context: crypto.subtle and IndexedDB work) for the
// headless-Chromium tests of the browser entry. `/` is the test's page; node_modules is refused.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

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
 * failed fetch). Resolves to `{ origin, close }`.
 */
export async function serveWww(page, onRequest = () => {}) {
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
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
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
