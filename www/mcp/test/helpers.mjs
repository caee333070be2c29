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

/**
 * The text a tools/call result carries (its one text content block). Without --structured-content
 * it is all the result says, so the tests read the facts from it, as the model does.
 */
export function textOf(result) {
  const blocks = result.content.filter((c) => c.type === "text");
  if (blocks.length !== 1) throw new Error(`expected one text block, got ${JSON.stringify(result.content)}`);
  return blocks[0].text;
}

/** A header line of the Markdown (`status: \`X\``, `state: \`Y\``): its value; throws when absent. */
function headerValue(result, key) {
  const m = new RegExp(`^${key}: \`(\\w+)\`$`, "m").exec(textOf(result));
  if (m === null) throw new Error(`no ${key} line in:\n${textOf(result)}`);
  return m[1];
}

/** The status the Markdown header states (`status: \`MultiMatch\``). */
export const statusOf = (result) => headerValue(result, "status");

/** The workflow state the Markdown header states (`state: \`PersistPending\``). */
export const stateOf = (result) => headerValue(result, "state");

/** The overview's `- summary:` line. */
export function summaryOf(result) {
  const m = /^- summary: (.*)$/m.exec(textOf(result));
  if (m === null) throw new Error(`no summary line in:\n${textOf(result)}`);
  return m[1];
}

/** The candidate letters of the `### [Target] …` section (`- [A] line 2: …`), in order; [] when there is none. */
export function candidateLetters(result) {
  const lines = textOf(result).split("\n");
  const start = lines.findIndex((l) => l.startsWith("### [Target] "));
  if (start < 0) return [];
  const letters = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("### ")) break;
    const m = /^- \[([A-Z]+)\] /.exec(line);
    if (m !== null) letters.push(m[1]);
  }
  return letters;
}
