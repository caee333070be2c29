// Entry point for browsers and bundlers (the "default" export condition). The literal
// `new URL("…", import.meta.url)` lets Vite and other bundlers emit the wasm as an asset.
import init from "../pkg/agentpad.js";
import { setWasmLoader } from "./loader.js";

setWasmLoader(() => init({ module_or_path: new URL("../pkg/agentpad_bg.wasm", import.meta.url) }));

export * from "./index.js";
export { BrowserStorage, type BrowserStorageOptions, type IndexedDBFactory } from "./browser-storage.js";
// The Node entry's names too, so an import type-checks whichever entry a resolver picks.
export { NodeFsStorage, type NodeFsStorageOptions } from "./node-fs-storage-browser.js";
