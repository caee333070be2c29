// Loads the wasm module once per process. The entry point (node.ts / browser.ts) provides how.

/** What the generated init() resolves to, as far as this package needs it. */
export interface WasmExports {
  readonly memory: { readonly buffer: ArrayBufferLike };
}

/** @internal */
export type WasmLoader = () => Promise<WasmExports>;

let loader: WasmLoader | undefined;
let loading: Promise<WasmExports> | undefined;
let loaded: WasmExports | undefined;

/** @internal Called once by the entry point. */
export function setWasmLoader(load: WasmLoader): void {
  loader = load;
}

/** @internal Loads the wasm once per process (lazily, on the first Workspace.create). */
export function ensureWasm(): Promise<WasmExports> {
  if (loading === undefined) {
    if (loader === undefined) {
      return Promise.reject(
        new Error(
          'agentpad: no wasm loader; import "@agentpad/core" through its package exports (the "node" or "default" condition), not dist/index.js',
        ),
      );
    }
    loading = loader().then(
      (output) => {
        loaded = output;
        return output;
      },
      (err: unknown) => {
        loading = undefined; // a later create() may retry
        throw new Error(`agentpad: failed to load the wasm module: ${messageOf(err)}`, { cause: err });
      },
    );
  }
  return loading;
}

/** Byte length of the wasm linear memory (0 before the wasm is loaded). */
export function memoryBytes(): number {
  return loaded?.memory.buffer.byteLength ?? 0;
}

/** @internal */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
