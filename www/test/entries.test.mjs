// The package's two entries export one set of names: a bundler's moduleResolution picks the
// browser entry's types (the "default" condition) for server code too, so NodeFsStorage must be
// there, and a Node project's picks the Node entry's. Where a class cannot work (NodeFsStorage in a
// browser, BrowserStorage without an IndexedDB) it says which entry or storage to use
// (docs/decisions.md#one-set-of-names-in-every-entry). The type side — every moduleResolution ×
// TypeScript version — is compiled in the consumer layer (www/consumer/types-matrix.mjs).
// Run: node --test www/test/entries.test.mjs   (after tsc -p www)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const node = await import("@agentpad/core"); // Node resolves the "node" condition
// What a bundler's or a page's "default" condition gives. In Node its wasm fetch (of a file: URL)
// fails at import, quietly: only a create() would report it.
const browser = await import(new URL(`../${manifest.exports["."].default.default}`, import.meta.url).href);

test("the Node and browser entries export the same names", () => {
  assert.deepEqual(Object.keys(browser).sort(), Object.keys(node).sort());
  for (const name of ["NodeFsStorage", "BrowserStorage", "MemoryStorage", "Workspace"]) assert.equal(typeof node[name], "function", name);
});

test("sideEffects lists both entries' files, so a bundler keeps their wasm loader's registration", () => {
  const files = [manifest.exports["."].node.default, manifest.exports["."].default.default];
  for (const file of files) assert.ok(manifest.sideEffects.includes(file), `${file} is not in sideEffects`);
});

test("NodeFsStorage from the browser entry throws, naming the Node entry and the browser storages", () => {
  assert.throws(
    () => new browser.NodeFsStorage("."),
    (e) =>
      e instanceof Error &&
      /NodeFsStorage needs Node's file system, and this is @agentpad\/core's browser entry/.test(e.message) &&
      /the "node" condition/.test(e.message) &&
      /BrowserStorage \(IndexedDB\) or MemoryStorage/.test(e.message),
  );
  // The Node entry's is the real one.
  const files = new node.NodeFsStorage(".");
  assert.equal(typeof files.list, "function");
  files.close();
});

test("BrowserStorage from the Node entry rejects clearly without an IndexedDB", async () => {
  await assert.rejects(node.BrowserStorage.open("agentpad"), /IndexedDB is not available here; use MemoryStorage \(or NodeFsStorage in Node\)/);
});
