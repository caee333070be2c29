// The browser entry's engine as two wasm modules (docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use):
// the core (pkg/agentpad_core.wasm: every function a page runs when its edits match exactly,
// and the synchronous reads) and the rest (pkg/agentpad_rest.wasm), loaded the first time a call
// reaches one of its functions. binaryen's wasm-split wrote the pair; the core reaches the rest
// through table slots that hold its `placeholder` imports until the rest's element segment
// overwrites them.
//
// A placeholder cannot wait (it runs in the middle of a synchronous wasm call), so it throws,
// which unwinds the call's wasm frames; the call's effects are then undone — the linear memory,
// the exported mutable globals and the externref table put back as they were before it — and the
// call runs again once the rest is there. The core is sans-IO, so a call's result depends only on
// that state and its arguments (the mechanism and why it is exact: docs/performance.md#wasm-split).
import { __wbg_finalize_init, __wbg_get_imports } from "../pkg/agentpad.js";
import { RestPending, messageOf, setCoreGuard, type CoreGuard, type WasmExports } from "./loader.js";

/** Thrown by a placeholder to unwind the wasm frames of a call that needs the rest. Never escapes. */
class RestNotLoaded {}
const NOT_LOADED = new RestNotLoaded();

/**
 * Above this much linear memory an async call waits for the rest before it runs instead of
 * copying the memory first (the copy's cost per MB: docs/performance.md#wasm-split).
 */
export const SNAPSHOT_LIMIT_BYTES = 16 * 1024 * 1024;

/** Fetches and compiles a module: streaming when served as application/wasm, else the bytes whole. */
export function compileFrom(url: URL): Promise<WebAssembly.Module> {
  const compiling = (async () => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${response.status} ${response.statusText} fetching ${response.url}`);
    const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type === "application/wasm" && typeof WebAssembly.compileStreaming === "function") {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  })();
  compiling.catch(() => {}); // not an unhandled rejection: the caller reports it
  return compiling;
}

interface Snapshot {
  readonly memory: Uint8Array;
  readonly globals: unknown[];
  readonly refs: unknown[];
}

/**
 * Instantiates the core (compiled) with the glue's imports and a placeholder per `placeholder`
 * import, binds the glue to it, and guards every call into it until the rest is loaded from
 * `restUrl`. Returns the glue's exports, as initSync does.
 */
export function instantiateSplit(core: WebAssembly.Module, restUrl: URL): WasmExports {
  let hit = false;
  let loaded = false;
  let rest: Promise<void> | undefined;

  const placeholder = (): never => {
    if (loaded) throw new Error("agentpad: internal error: a placeholder of the wasm split ran after the rest was loaded");
    hit = true;
    void loadRest(); // started now; its failure is the error of the call that waits for it
    throw NOT_LOADED;
  };
  const placeholders: Record<string, () => never> = {};
  for (const i of WebAssembly.Module.imports(core)) {
    if (i.module === "placeholder" && i.kind === "function") placeholders[i.name] = placeholder;
  }
  const imports = __wbg_get_imports();
  imports["placeholder"] = placeholders;
  const instance = new WebAssembly.Instance(core, imports);
  const exports = instance.exports;
  const memory = exports["memory"] as WebAssembly.Memory;
  const externrefs = exports["__wbindgen_externrefs"] as WebAssembly.Table;
  // The mutable globals the rest shares (wasm-split exports them: the shadow stack pointer;
  // www/test/split.test.mjs checks that none is left unexported). Immutable ones never change.
  const globals = Object.values(exports).filter((v): v is WebAssembly.Global => v instanceof WebAssembly.Global);

  function loadRest(): Promise<void> {
    if (rest === undefined) {
      const pending = (async () => {
        const module = await compileFrom(restUrl);
        // Its element segment writes its functions over the placeholders' table slots.
        await WebAssembly.instantiate(module, { primary: exports });
        loaded = true;
        setCoreGuard(undefined); // from now on a call runs as it is
        spareMemory = new Uint8Array(0);
        spareRefs = [];
      })();
      const settled = pending.catch((err: unknown) => {
        rest = undefined; // a later call fetches again
        throw new Error(`agentpad: failed to load the rest of the engine (agentpad_rest.wasm): ${messageOf(err)}`, { cause: err });
      });
      settled.catch(() => {}); // reported to the calls that wait for it
      rest = settled;
    }
    return rest;
  }

  // The outermost call's snapshot goes into buffers kept for the next one: a fresh 1.2 MB copy
  // (slice) took 1.3 ms in Chromium, a copy into a kept buffer 0.14 ms. A call made from inside
  // another one (a getter of its arguments) gets fresh ones. Dropped once the rest is loaded.
  let depth = 0;
  let spareMemory = new Uint8Array(0);
  let spareRefs: unknown[] = [];

  function snapshot(): Snapshot {
    const now = new Uint8Array(memory.buffer);
    let copy: Uint8Array;
    let refs: unknown[];
    if (depth === 0) {
      if (spareMemory.length < now.length) spareMemory = new Uint8Array(now.length);
      copy = spareMemory.subarray(0, now.length);
      copy.set(now);
      refs = spareRefs;
      refs.length = externrefs.length;
    } else {
      copy = now.slice();
      refs = new Array<unknown>(externrefs.length);
    }
    for (let i = 0; i < refs.length; i++) refs[i] = externrefs.get(i);
    return { memory: copy, globals: globals.map((g) => g.value as unknown), refs };
  }

  /** Puts back what `s` saw; pages the call grew stay, zeroed, as the allocator never saw them. */
  function restore(s: Snapshot): void {
    const now = new Uint8Array(memory.buffer);
    now.set(s.memory);
    if (now.length > s.memory.length) now.fill(0, s.memory.length);
    globals.forEach((g, i) => {
      if (g.value !== s.globals[i]) g.value = s.globals[i];
    });
    for (let i = 0; i < s.refs.length; i++) externrefs.set(i, s.refs[i]);
    for (let i = s.refs.length; i < externrefs.length; i++) externrefs.set(i, undefined);
  }

  /** Runs `f` once; undefined when it reached a placeholder (its effects undone). */
  function attempt<T>(f: () => T): { value: T } | undefined {
    const s = snapshot();
    depth++;
    hit = false;
    try {
      return { value: f() };
    } catch (err) {
      // The marker, or whatever the glue's cleanup threw while the marker unwound: either way the
      // call reached a placeholder, and nothing it did is kept.
      if (!hit) throw err;
      restore(s);
      return undefined;
    } finally {
      depth--;
      hit = false;
    }
  }

  const guard: CoreGuard = {
    sync<T>(f: () => T, what: string): T {
      const done = attempt(f);
      if (done !== undefined) return done.value;
      throw new RestPending(
        `agentpad: ${what} needs the part of the engine not loaded yet (agentpad_rest.wasm), which is loading now; nothing was changed. ` +
          `Await Workspace.loadAll() (or any async call of the workspace, which waits for it), then call ${what} again.`,
        loadRest(),
      );
    },
    run<T>(f: () => T): T | Promise<T> {
      if (memory.buffer.byteLength > SNAPSHOT_LIMIT_BYTES) return loadRest().then(f);
      const done = attempt(f);
      if (done !== undefined) return done.value;
      return loadRest().then(f);
    },
    loading: () => rest,
    load: loadRest,
  };
  const glue = __wbg_finalize_init(instance, core);
  setCoreGuard(guard);
  return glue;
}
