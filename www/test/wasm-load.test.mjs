// How the Node entry point loads the wasm: compiled when the package is imported, instantiated on
// the first Workspace.create; a missing or broken file is an error from create() (never an
// unhandled rejection at import), and a later create() reads the file again.
// Each test imports its own copy of the built package (dist/ + pkg/), so module state is fresh.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const www = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The Node entry the package exports (what `import "@agentpad/core"` loads in Node). */
const NODE_ENTRY = JSON.parse(fs.readFileSync(path.join(www, "package.json"), "utf8")).exports["."].node.default;

/** A copy of the built package in a scratch folder; returns its folder. */
function copyPackage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agentpad-load-"));
  for (const sub of ["dist", "pkg"]) fs.cpSync(path.join(www, sub), path.join(dir, sub), { recursive: true });
  fs.copyFileSync(path.join(www, "package.json"), path.join(dir, "package.json"));
  return dir;
}

/** Rejections nobody handled while `fn` ran (and one turn of the event loop after). */
async function unhandledDuring(fn) {
  const seen = [];
  const onUnhandled = (reason) => seen.push(reason);
  process.on("unhandledRejection", onUnhandled);
  try {
    await fn();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
  return seen;
}

test("a missing wasm file: import succeeds, create() names the failure, a later create() retries and works", async () => {
  const dir = copyPackage();
  const wasm = path.join(dir, "pkg", "agentpad_bg.wasm");
  const kept = `${wasm}.kept`;
  fs.renameSync(wasm, kept);
  let agentpad;
  const unhandled = await unhandledDuring(async () => {
    agentpad = await import(pathToFileURL(path.join(dir, NODE_ENTRY)).href);
  });
  assert.deepEqual(unhandled, [], "importing the package leaves no unhandled rejection");
  const storage = new agentpad.MemoryStorage({ "a.md": "one\n" });
  await assert.rejects(agentpad.Workspace.create({ storage }), (err) => {
    assert.match(err.message, /^agentpad: failed to load the wasm module: .*ENOENT/);
    assert.match(err.message, /agentpad_bg\.wasm/);
    return true;
  });
  assert.equal(agentpad.memoryBytes(), 0);
  // The file is back: the next create() reads it again instead of repeating the old failure.
  fs.renameSync(kept, wasm);
  const ws = await agentpad.Workspace.create({ storage });
  assert.equal((await ws.call("memo_read", {})).status, "Success");
  assert.ok(agentpad.memoryBytes() > 0);
  ws.free();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a wasm file that does not compile: create() says so and changes nothing", async () => {
  const dir = copyPackage();
  fs.writeFileSync(path.join(dir, "pkg", "agentpad_bg.wasm"), "not wasm");
  let agentpad;
  const unhandled = await unhandledDuring(async () => {
    agentpad = await import(pathToFileURL(path.join(dir, NODE_ENTRY)).href);
  });
  assert.deepEqual(unhandled, []);
  const storage = new agentpad.MemoryStorage({ "a.md": "one\n" });
  await assert.rejects(agentpad.Workspace.create({ storage }), /^Error: agentpad: failed to load the wasm module: .*(magic|WebAssembly)/i);
  assert.deepEqual(await storage.list(), ["a.md"]);
  assert.equal((await storage.load("a.md")).text, "one\n");
  fs.rmSync(dir, { recursive: true, force: true });
});
