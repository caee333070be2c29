// Entry point for Node (the "node" export condition): reads the wasm bytes from the package.
import { readFile } from "node:fs/promises";
import { initSync } from "../pkg/agentpad.js";
import { setWasmLoader } from "./loader.js";

/** Reads and compiles the wasm (V8 compiles on its own threads). A failure surfaces in create(). */
function compileWasm(): Promise<WebAssembly.Module> {
  const compiling = readFile(new URL("../pkg/agentpad_bg.wasm", import.meta.url)).then((bytes) => WebAssembly.compile(bytes));
  compiling.catch(() => {}); // not an unhandled rejection at import: create() reports it
  return compiling;
}

// Started when the package is imported, so it overlaps whatever the host does before its first
// Workspace.create.
let compiling: Promise<WebAssembly.Module> | undefined = compileWasm();

setWasmLoader(async () => {
  const pending = compiling ?? compileWasm(); // after a failure: read the file again
  compiling = undefined;
  // Instantiated with initSync, not through the generated async init(): that one asks
  // `typeof Request`, and in Node the first touch of the fetch globals loads undici, about 20 ms
  // of what was a 52 ms cold start (import + create + first call, the bench's coldstart suite).
  return initSync({ module: await pending });
});

export * from "./index.js";
export { NodeFsStorage, type NodeFsStorageOptions } from "./node-fs-storage.js";
