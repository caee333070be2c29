// Entry point for Node (the "node" export condition): reads the wasm bytes from the package.
import { readFile } from "node:fs/promises";
import init from "../pkg/agentpad.js";
import { setWasmLoader } from "./loader.js";

setWasmLoader(async () => {
  const bytes = await readFile(new URL("../pkg/agentpad_bg.wasm", import.meta.url));
  return init({ module_or_path: bytes });
});

export * from "./index.js";
export { NodeFsStorage, type NodeFsStorageOptions } from "./node-fs-storage.js";
