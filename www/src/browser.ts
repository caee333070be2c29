// Entry point for browsers and bundlers (the "default" export condition), shipped bundled as
// dist/agentpad.browser.js (rolldown.config.mjs). The literals `new URL("…", import.meta.url)`
// let Vite and other bundlers emit both wasm modules as assets.
//
// The engine comes as two modules (src/split-loader.ts,
// docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use): the core, fetched
// and compiled when the entry is evaluated, and the rest, fetched the first time a call needs it.
import { compileFrom, instantiateSplit } from "./split-loader.js";
import { setWasmLoader } from "./loader.js";

const CORE = new URL("../pkg/agentpad_core.wasm", import.meta.url);
const REST = new URL("../pkg/agentpad_rest.wasm", import.meta.url);

// Started when the entry is evaluated, as the Node entry does, so the fetch and compile overlap
// the page's own work before its first Workspace.create (docs/performance.md#cold-start).
// Streaming when served as application/wasm: V8 compiles while the bytes arrive, and Chromium
// keeps the compiled code for a later page. A failure surfaces in create().
let compiling: Promise<WebAssembly.Module> | undefined = compileFrom(CORE);

setWasmLoader(async () => {
  const pending = compiling ?? compileFrom(CORE); // after a failure: fetch again
  compiling = undefined;
  // The module is compiled already: instantiating it synchronously is allowed on a page's main
  // thread.
  return instantiateSplit(await pending, REST);
});

export * from "./index.js";
export { BrowserStorage, type BrowserStorageOptions, type IndexedDBFactory } from "./browser-storage.js";
// The Node entry's names too, so an import type-checks whichever entry a resolver picks.
export { NodeFsStorage, type NodeFsStorageOptions } from "./node-fs-storage-browser.js";
