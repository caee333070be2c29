// Entry point for Node (the "node" export condition): reads the wasm bytes from the package.
import { initSync } from "../pkg/agentpad.js";
import { setWasmLoader } from "./loader.js";
import { nodeBuiltin } from "./node-builtins.js";

/** Reads and compiles the wasm (V8 compiles on its own threads). A failure surfaces in create().
 * The read is synchronous (~1.2 MB from the page cache, about 2 ms in a fresh process), so the
 * compile starts at import instead of after fs/promises' chunked reads, which only progress when
 * the host yields: 2 ms less to the first answer, measured (docs/performance.md#cold-start). */
function compileWasm(): Promise<WebAssembly.Module> {
  const compiling = (async () =>
    WebAssembly.compile(nodeBuiltin("node:fs").readFileSync(new URL("../pkg/agentpad_bg.wasm", import.meta.url))))();
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
// The browser entry's names too, so an import type-checks whichever entry a resolver picks
// (docs/decisions.md#one-set-of-names-in-every-entry); in Node it needs an IndexedDB passed in.
export { BrowserStorage, type BrowserStorageOptions, type IndexedDBFactory } from "./browser-storage.js";
