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

/**
 * @internal How the browser entry runs a call into the first module of its split pair
 * (src/split-loader.ts, docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use).
 * Undefined in Node, and once the rest of the engine is loaded: a call then runs as it is.
 */
export interface CoreGuard {
  /**
   * Runs `f`; when it reaches a function of the module not loaded yet, the wasm state is put back
   * as it was before `f` and an Error saying so is thrown (the module starts loading).
   */
  sync<T>(f: () => T, what: string): T;
  /**
   * Runs `f`; when it reaches a function of the module not loaded yet, the wasm state is put back,
   * the module is loaded and `f` runs again. A value when `f` ran once, a promise otherwise.
   */
  run<T>(f: () => T): T | Promise<T>;
  /** The rest's load when one is under way (an async call waits for it before it starts). */
  loading(): Promise<void> | undefined;
  /** Loads the rest now (Workspace.loadAll). */
  load(): Promise<void>;
}

/**
 * @internal A synchronous call that needed the part of the engine not loaded yet: nothing it did
 * is kept, and `loading` settles when the rest is there (or rejects when it cannot be fetched).
 */
export class RestPending extends Error {
  readonly loading: Promise<void>;
  constructor(message: string, loading: Promise<void>) {
    super(message);
    this.name = "Error";
    this.loading = loading;
  }
}

let guard: CoreGuard | undefined;

/** @internal Set by the browser entry while the rest of its engine is not loaded. */
export function setCoreGuard(g: CoreGuard | undefined): void {
  guard = g;
}

/** @internal The guard of calls into the wasm, or undefined when calls run as they are. */
export function coreGuard(): CoreGuard | undefined {
  return guard;
}

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

/** @internal The loaded module's exports (undefined before the first create). */
export function wasmExports(): WasmExports | undefined {
  return loaded;
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
