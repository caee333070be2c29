// Entry point for browsers and bundlers (the "default" export condition), shipped bundled as
// dist/agentpad.browser.js (rolldown.config.mjs). The literal `new URL("…", import.meta.url)`
// lets Vite and other bundlers emit the wasm as an asset.
import { initSync } from "../pkg/agentpad.js";
import { setWasmLoader } from "./loader.js";

/** Fetches and compiles the wasm. Streaming when served as application/wasm: V8 compiles while the
 * bytes arrive, and Chromium keeps the compiled code for a later page (a response it may cache).
 * Otherwise the bytes whole, as wasm-bindgen's init falls back. A failure surfaces in create(). */
function compileWasm(): Promise<WebAssembly.Module> {
  const compiling = (async () => {
    const response = await fetch(new URL("../pkg/agentpad_bg.wasm", import.meta.url));
    if (!response.ok) throw new Error(`${response.status} ${response.statusText} fetching ${response.url}`);
    const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type === "application/wasm" && typeof WebAssembly.compileStreaming === "function") {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  })();
  compiling.catch(() => {}); // not an unhandled rejection at import: create() reports it
  return compiling;
}

// Started when the entry is evaluated, as the Node entry does, so the fetch and compile overlap
// the page's own work before its first Workspace.create (docs/performance.md#cold-start).
let compiling: Promise<WebAssembly.Module> | undefined = compileWasm();

setWasmLoader(async () => {
  const pending = compiling ?? compileWasm(); // after a failure: fetch again
  compiling = undefined;
  // The module is compiled already: instantiating it synchronously is allowed on a page's main
  // thread, and keeps wasm-bindgen's async init (and its default wasm URL) out of the bundle.
  return initSync({ module: await pending });
});

export * from "./index.js";
export { BrowserStorage, type BrowserStorageOptions, type IndexedDBFactory } from "./browser-storage.js";
// The Node entry's names too, so an import type-checks whichever entry a resolver picks.
export { NodeFsStorage, type NodeFsStorageOptions } from "./node-fs-storage-browser.js";
