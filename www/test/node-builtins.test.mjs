// How the Node entry takes Node's built-in modules (src/node-builtins.ts): through
// process.getBuiltinModule, not through the ES-module wrappers a static `import ... from "node:fs"`
// builds at import (about 5 ms of a cold start: docs/performance.md#cold-start), and through a
// require on Node releases without getBuiltinModule (before 20.16).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const www = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NODE_ENTRY = path.join(www, JSON.parse(fs.readFileSync(path.join(www, "package.json"), "utf8")).exports["."].node.default);

test("the bundled Node entry imports no built-in module but node:module statically", () => {
  const source = fs.readFileSync(NODE_ENTRY, "utf8");
  const specifiers = [...source.matchAll(/^import\s[^;]*?from\s*"([^"]+)";?$/gm)].map((m) => m[1]);
  assert.deepEqual(specifiers, ["node:module"]);
  assert.doesNotMatch(source, /^import\s*"/m, "no bare side-effect import either");
});

/**
 * Runs `body` (an ES module's text, `agentpad` in scope) in a fresh node after `prelude`, with
 * a scratch folder holding a.md as `dir`; returns what it printed as JSON.
 */
function runChild(prelude, body) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agentpad-builtins-"));
  fs.writeFileSync(path.join(dir, "a.md"), "one\ntwo\n");
  const code = `${prelude}
const agentpad = await import(${JSON.stringify(pathToFileURL(NODE_ENTRY).href)});
const dir = ${JSON.stringify(dir)};
${body}`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  fs.rmSync(dir, { recursive: true, force: true });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

// A workspace on a NodeFsStorage: the wasm read, the storage's listing, reads, hashes, lock and
// rename, and the path checks, all of which need the built-ins.
const USE_EVERYTHING = `
const storage = new agentpad.NodeFsStorage(dir);
const ws = await agentpad.Workspace.create({ storage });
const read = await ws.call("memo_read", {});
const saved = await storage.save("b.md", "three\\n", "");
const loaded = await storage.load("b.md");
ws.free();
const out = { read: read.status, saved: saved.version === loaded.version && loaded.text === "three\\n" };`;

test("the Node entry takes the built-ins it uses from process.getBuiltinModule", () => {
  const out = runChild(
    `const asked = new Set();
const get = process.getBuiltinModule;
process.getBuiltinModule = (name) => (asked.add(name), get(name));`,
    `${USE_EVERYTHING}
console.log(JSON.stringify({ ...out, asked: [...asked].sort() }));`,
  );
  assert.equal(out.read, "Success");
  assert.equal(out.saved, true);
  assert.deepEqual(out.asked, ["node:crypto", "node:fs", "node:fs/promises", "node:path"]);
});

test("without process.getBuiltinModule (Node 20 before 20.16) the Node entry works the same", () => {
  const out = runChild(
    `delete process.getBuiltinModule;
if (process.getBuiltinModule !== undefined) process.getBuiltinModule = undefined;`,
    `${USE_EVERYTHING}
console.log(JSON.stringify({ ...out, missing: typeof process.getBuiltinModule !== "function" }));`,
  );
  assert.equal(out.missing, true, "the child ran without getBuiltinModule");
  assert.equal(out.read, "Success");
  assert.equal(out.saved, true);
});
