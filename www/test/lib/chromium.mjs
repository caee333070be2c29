// Headless Debian Chromium as the browser tests and benches launch it: no sandbox (root in CI),
// and no background networking, component updates or sync, whose connections this machine's
// closed network refuses. CHROMIUM_BIN overrides the binary.
import { readFileSync } from "node:fs";

export const CHROMIUM = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** What `import "@agentpad/core"` resolves to in a browser (package.json's "default" export), as a path under www/. */
export const BROWSER_ENTRY = `/${JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).exports["."].default.default.replace(/^\.\//, "")}`;
