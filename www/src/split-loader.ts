// The browser entry's engine as two wasm modules (docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use):
// the core (pkg/agentpad_core.wasm: every function a page runs when its edits match exactly,
// and the synchronous reads) and the rest (pkg/agentpad_rest.wasm), loaded the first time a call
// reaches one of its functions. binaryen's wasm-split wrote the pair; the core reaches the rest
// through table slots that hold its `placeholder` imports until the rest's element segment
// overwrites them.
//
// A placeholder cannot wait (it runs in the middle of a synchronous wasm call), so it throws,
// which unwinds the call's wasm frames; the call's effects are then undone — the linear memory
// from the shadow stack pointer up, the exported mutable globals and the externref table put back
// as they were before it (docs/decisions.md#a-calls-undo-skips-the-memory-below-the-stack-pointer)
// — and the call runs again once the rest is there. The core is sans-IO, so a call's result depends only on
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

/**
 * The externref table's undo helper, 108 bytes (built from this text form with binaryen.js's
 * `parseText`, reference types and bulk memory on; www/test/split.test.mjs runs it):
 *
 *   (module
 *    (import "t" "live" (table $live 0 externref))
 *    (import "t" "spare" (table $spare 0 externref))
 *    (func (export "save") (param $n i32)
 *     (table.copy $spare $live (i32.const 0) (i32.const 0) (local.get $n)))
 *    (func (export "restore") (param $n i32)
 *     (table.copy $live $spare (i32.const 0) (i32.const 0) (local.get $n))
 *     (table.fill $live (local.get $n) (ref.null noextern)
 *      (i32.sub (table.size $live) (local.get $n)))))
 *
 * One `table.copy` each way instead of a `Table.get`/`set` per slot from JS (1,028 slots: 0.15 ms
 * in Chromium, docs/performance.md#wasm-split).
 */
const TABLE_UNDO = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 1, 127, 0, 2, 24, 2, 1, 116, 4, 108, 105, 118, 101, 1, 111, 0, 0, 1, 116, 5, 115, 112, 97, 114,
  101, 1, 111, 0, 0, 3, 3, 2, 0, 0, 7, 18, 2, 4, 115, 97, 118, 101, 0, 0, 7, 114, 101, 115, 116, 111, 114, 101, 0, 1, 10, 40, 2, 12, 0, 65,
  0, 65, 0, 32, 0, 252, 14, 1, 0, 11, 25, 0, 65, 0, 65, 0, 32, 0, 252, 14, 0, 1, 32, 0, 208, 111, 252, 16, 0, 32, 0, 107, 252, 17, 0, 11,
]);

/** The mutable ones of `globals`: an immutable global refuses a write of its own value. */
export function mutableGlobals(globals: readonly WebAssembly.Global[]): WebAssembly.Global[] {
  return globals.filter((g) => {
    try {
      g.value = g.value as unknown;
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The shadow stack pointer among the exports' globals: the only mutable one holding an i32
 * (docs/decisions.md#a-calls-undo-skips-the-memory-below-the-stack-pointer). Undefined when
 * there is not exactly one: the undo then copies the whole memory.
 */
export function stackPointerOf(globals: readonly WebAssembly.Global[]): WebAssembly.Global | undefined {
  const mutable = mutableGlobals(globals);
  const [only] = mutable;
  return mutable.length === 1 && only !== undefined && Number.isInteger(only.value) ? only : undefined;
}

/** What a call's undo puts back: one per nesting depth, its buffers kept for the next call. */
interface Level {
  /** The memory from `from` to `end`, at 0. */
  memory: Uint8Array;
  from: number;
  end: number;
  globals: unknown[];
  /** The externref table's length, its slots in `spare`. */
  refs: number;
  readonly spare: WebAssembly.Table;
  readonly save: (n: number) => void;
  readonly restore: (n: number) => void;
}

/**
 * Saves and puts back the state a call into the core can change: `memory` from the stack
 * pointer's value up (all of it when `stackPointer` is undefined), the mutable `globals`, and the
 * `table` of externrefs. `save(depth)` before a call at that nesting depth, `restore(depth)` to
 * undo it; pages the call grew stay, zeroed, as the allocator never saw them.
 */
export function makeUndo(memory: WebAssembly.Memory, table: WebAssembly.Table, globals: readonly WebAssembly.Global[]) {
  const mutable = mutableGlobals(globals);
  const stackPointer = stackPointerOf(globals);
  const helper = new WebAssembly.Module(TABLE_UNDO);
  const levels: Level[] = [];

  function level(depth: number): Level {
    const have = levels[depth];
    if (have !== undefined) return have;
    const spare = new WebAssembly.Table({ element: "externref", initial: 0 });
    const e = new WebAssembly.Instance(helper, { t: { live: table, spare } }).exports;
    const made: Level = {
      memory: new Uint8Array(0),
      from: 0,
      end: 0,
      globals: [],
      refs: 0,
      spare,
      save: e["save"] as (n: number) => void,
      restore: e["restore"] as (n: number) => void,
    };
    levels[depth] = made;
    return made;
  }

  return {
    /** Which part of the memory a save copies: "above the stack pointer", or "all". */
    scope: stackPointer === undefined ? ("all" as const) : ("above the stack pointer" as const),
    save(depth: number): void {
      const l = level(depth);
      const now = new Uint8Array(memory.buffer);
      const sp = stackPointer?.value as unknown;
      // Below the stack pointer is free stack nothing reads before writing; a value that is not
      // an address in the memory would be a bug, so then all of it.
      l.from = typeof sp === "number" && Number.isInteger(sp) && sp >= 0 && sp <= now.length ? sp : 0;
      l.end = now.length;
      const n = l.end - l.from;
      if (l.memory.length < n) l.memory = new Uint8Array(n);
      l.memory.set(now.subarray(l.from));
      l.globals = mutable.map((g) => g.value as unknown);
      l.refs = table.length;
      if (l.spare.length < l.refs) l.spare.grow(l.refs - l.spare.length);
      l.save(l.refs);
    },
    restore(depth: number): void {
      const l = level(depth);
      const now = new Uint8Array(memory.buffer);
      now.set(l.memory.subarray(0, l.end - l.from), l.from);
      if (now.length > l.end) now.fill(0, l.end);
      mutable.forEach((g, i) => {
        if (g.value !== l.globals[i]) g.value = l.globals[i];
      });
      l.restore(l.refs);
    },
    /** Drops the buffers (the rest is loaded: no call is undone any more). */
    drop(): void {
      levels.length = 0;
    },
  };
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
  const undo = makeUndo(
    memory,
    externrefs,
    Object.values(exports).filter((v): v is WebAssembly.Global => v instanceof WebAssembly.Global),
  );
  let depth = 0; // of calls into the core made from inside another one (a getter of its arguments)

  function loadRest(): Promise<void> {
    if (rest === undefined) {
      const pending = (async () => {
        const module = await compileFrom(restUrl);
        // Its element segment writes its functions over the placeholders' table slots.
        await WebAssembly.instantiate(module, { primary: exports });
        loaded = true;
        setCoreGuard(undefined); // from now on a call runs as it is
        undo.drop();
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

  /** Runs `f` once; undefined when it reached a placeholder (its effects undone). */
  function attempt<T>(f: () => T): { value: T } | undefined {
    const at = depth;
    undo.save(at);
    depth++;
    hit = false;
    try {
      return { value: f() };
    } catch (err) {
      // The marker, or whatever the glue's cleanup threw while the marker unwound: either way the
      // call reached a placeholder, and nothing it did is kept.
      if (!hit) throw err;
      undo.restore(at);
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
