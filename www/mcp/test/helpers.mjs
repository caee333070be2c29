// Shared by the tests: a temporary folder with documents, and a tools/list_changed waiter.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The document of the flow: "foo" three times, so memo_replace("foo") is ambiguous. */
export const NOTES = "# Notes\nalpha foo\nbeta foo\ngamma foo\n";

/**
 * A temporary folder `<tmp>/agentpad-mcp-XXXX/served` holding notes.md, docs/b.txt and a binary
 * file; its parent is the "outside" a path must not reach. Returns { root, dir, cleanup }.
 */
export function tempFolder() {
  const root = mkdtempSync(join(tmpdir(), "agentpad-mcp-"));
  const dir = join(root, "served");
  mkdirSync(join(dir, "docs"), { recursive: true });
  writeFileSync(join(dir, "notes.md"), NOTES);
  writeFileSync(join(dir, "docs", "b.txt"), "second document\n");
  writeFileSync(join(dir, "logo.bin"), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80]));
  return { root, dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Counts `notifications/tools/list_changed` on `client`; `next()` resolves on the next one
 * (rejects after 5 s).
 */
export function listChangedWatcher(client) {
  const watcher = { count: 0, waiters: [] };
  client.setNotificationHandler("notifications/tools/list_changed", () => {
    watcher.count++;
    for (const resolve of watcher.waiters.splice(0)) resolve();
  });
  watcher.next = () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no notifications/tools/list_changed within 5 s")), 5000);
      watcher.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return watcher;
}

/** Tool names of a tools/list result, sorted. */
export const namesOf = (list) => list.tools.map((t) => t.name).sort();
