// bin/v8-flags.js: the bin validates agentpad's wasm lazily (docs/decisions.md#no-v8-flags-from-the-package).
// A wasm module with an invalid function body is refused at compile unless the flag is in force,
// so a child process compiling one says whether importing the file set it; and the bin must
// import it before @agentpad/core, whose evaluation starts the compile.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const FLAGS = new URL("../bin/v8-flags.js", import.meta.url).href;
const BIN = fileURLToPath(new URL("../bin/agentpad-mcp.js", import.meta.url));

/** Compiles a module whose one function adds with an empty stack; prints when it is refused. */
function compileInvalid(preamble) {
  const script = `${preamble}
const bytes = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 0x0a, 5, 1, 3, 0, 0x6a, 0x0b]);
try { new WebAssembly.Module(bytes); console.log("compiled"); } catch (e) { console.log("refused: " + e.message); }`;
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(out.status, 0, out.stderr);
  return out.stdout.trim();
}

test("without bin/v8-flags.js an invalid function body is refused at compile", () => {
  assert.match(compileInvalid(""), /^refused: .*i32\.add/);
});

test("after importing bin/v8-flags.js validation waits for the function's first call", () => {
  assert.equal(compileInvalid(`await import(${JSON.stringify(FLAGS)});`), "compiled");
});

test("the bin imports v8-flags.js before @agentpad/core", () => {
  const source = readFileSync(BIN, "utf8");
  const flags = source.indexOf('import "./v8-flags.js";');
  const core = source.indexOf('from "@agentpad/core"');
  assert.ok(flags >= 0 && core >= 0, "both imports are in the bin");
  assert.ok(flags < core, "v8-flags.js comes first, so the flag is set before the core's import compiles the wasm");
});
