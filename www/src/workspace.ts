// The Workspace: a typed, async shell around the wasm core's WasmWorkspace.
// It performs the core's persist effects with a StorageProvider and feeds the results back;
// matching, diffing and formatting all live in the core.

import { WasmWorkspace } from "../pkg/agentpad.js";
import { coreGuard, ensureWasm, messageOf, RestPending, wasmExports } from "./loader.js";
import { aiSdkTools, runToolCall, toolsFor } from "./adapters.js";
import { HISTORY_FORMATS } from "./types.js";
import { CORE_OPTIONS, type WorkspaceConfig } from "./generated/options.js";
import {
  utf8Length,
  tooLong,
  CREATE_OPTIONS,
  LIVE_CONTEXT_OPTIONS,
  checkKeys,
  withCamelNames,
  checkLoaded,
  applyEdits,
  checkSaved,
  withTimeout,
  checkPath,
  FREED,
  FREED_WHILE_WAITING,
  checkTimeout,
} from "./workspace-checks.js";
import { MAX_DOCUMENT_BYTES } from "./workspace-checks.js";
export { MAX_DOCUMENT_BYTES };
// What the core asks for next and what the shell reports back: generated from the Rust the
// binding serialises (src/workspace/host.rs), internal to the package.
import type {
  LiveContextRequest,
  LoadReport,
  MemorySearchHit,
  PersistReport,
  RecordRequest,
  RecordResult,
  Step,
  StoredAt,
} from "./generated/boundary.js";
import type {
  CallOptions,
  CallRest,
  CompressedHistory,
  HistoryFormat,
  DiagnosticRecord,
  EditorState,
  Flags,
  LiveContext,
  LiveContextOptions,
  MemoryStoreApi,
  MemoryTurn,
  PendingChange,
  PersistRequest,
  ToolName,
  ToolResponse,
  StorageChange,
  StorageProvider,
  TextEdit,
  TaskReport,
  ToolDefinition,
  ToolState,
  ToolFormat,
  ToolFormatMap,
  ToolsOptions,
  AiSdkTools,
  AiSdkToolsOptions,
  ToolCallFormat,
  ToolCallMap,
  WorkflowState,
  WorkspaceOptions,
} from "./types.js";

// Node 20 has Symbol.dispose (= Symbol.for("nodejs.dispose")); older browsers may not. Define it the
// way Node does, only when absent, so `using ws = ...` (native or compiled by TypeScript) finds it.
// The declarations let the shipped .d.ts, and a user's `using ws = await Workspace.create(…)`,
// compile without lib "esnext.disposable" or @types/node (TypeScript 7 loads no @types by
// default); they match the lib's and @types/node's, so they merge with either
// (docs/decisions.md#one-set-of-names-in-every-entry).
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
  interface Disposable {
    [Symbol.dispose](): void;
  }
}
if (typeof Symbol.dispose !== "symbol") {
  Object.defineProperty(Symbol, "dispose", { value: Symbol.for("nodejs.dispose") });
}

/** A wasm call outside a workspace's methods that may wait for the rest of the engine (see Workspace.#waitable). */
function waitable<T>(f: () => T): T | Promise<T> {
  const guard = coreGuard();
  return guard === undefined ? f() : guard.run(f);
}

/**
 * Frees a wasm workspace. In the browser entry, a free that needs the rest of the engine (no
 * workspace that never loaded it holds anything whose drop is there, docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use)
 * is undone and made once the rest is loaded; the glue has let go of the object already.
 */
function release(inner: WasmWorkspace): void {
  const guard = coreGuard();
  if (guard === undefined) return inner.free();
  const ptr = (inner as unknown as { __wbg_ptr: number }).__wbg_ptr;
  try {
    guard.sync(() => inner.free(), "free()");
  } catch (err) {
    if (!(err instanceof RestPending)) throw err;
    const free = (wasmExports() as unknown as { __wbg_wasmworkspace_free?: (ptr: number, own: number) => void } | undefined)
      ?.__wbg_wasmworkspace_free;
    err.loading.then(
      () => free?.(ptr, 0),
      () => {}, // not loaded: the memory stays the page's until it is closed
    );
  }
}

export class Workspace {
  #inner: WasmWorkspace | undefined;
  readonly #storage: StorageProvider;
  /** Calls run one at a time: a call that persists finishes before the next one starts. */
  #queue: Promise<unknown> = Promise.resolve();
  /** Paths the storage reported changed since the last call (checked before the next one). */
  readonly #changed = new Set<string>();
  /**
   * Texts the last call saved that are exactly the committed texts (see #run). Valid until
   * the next call starts: nothing changes the core's committed text between calls.
   */
  readonly #saved = new Map<string, string>();
  /**
   * Per path, the committed text as a JS string, kept where the core says it is exactly the
   * committed text (at open, and after a write the core names in `kept`): a commit's write then
   * comes as edits of it, and the new text is made here with slices and one join instead of
   * crossing the wasm boundary whole (docs/performance.md#commit-and-text). Shares the string
   * the storage handed over; changed only as the core says (src/host_texts.rs).
   */
  readonly #committed = new Map<string, string>();
  #unwatch: (() => void) | undefined;

  readonly #sink: ((record: DiagnosticRecord) => void) | undefined;
  /** The host's embedder for memo_find (option `embed`), driven like storage steps. */
  #embedder: ((texts: string[]) => Promise<number[][]>) | undefined;
  readonly #storageTimeoutMs: number;
  /** Rejecters of the calls not yet settled: free() settles them (see free). */
  readonly #pending = new Set<(err: Error) => void>();
  /** Wasm calls under way that may run the host's getters (see #guarded); free() waits for them. */
  #busy = 0;
  #freeWhenIdle = false;
  /** Per path, the last read failure told to the core, so that it is told once (see #syncExternalChanges). */
  readonly #unreadable = new Map<string, string>();
  /**
   * Every tool the configuration enables, as the core defines them: fixed for the workspace's
   * life (it depends on the options only, never on the state), so it crosses the wasm boundary
   * once instead of on every `tools()` — 13 KB of definitions a host asks for before each
   * model request. Handed out as copies: a caller may change what it gets.
   */
  #enabledTools: ToolDefinition[] | undefined;

  /**
   * The pending changes the last responses listed (kept while changes are pending): what a
   * commit records as its changes (StorageProvider.afterCommit).
   */
  #pendingListed: PendingChange[] = [];
  /** The innermost task the last response listed, for the same record. */
  #taskListed: { id: string; goal: string } | undefined;

  private constructor(inner: WasmWorkspace, storage: StorageProvider, storageTimeoutMs: number, sink?: (record: DiagnosticRecord) => void) {
    this.#inner = inner;
    this.#storage = storage;
    this.#storageTimeoutMs = storageTimeoutMs;
    this.#sink = sink;
    // An external change reaches the core before the next call that could touch the document
    // (docs/architecture.md#sans-io-steps). Notifications only mark the path: the storage is read
    // when the next call starts, so a burst of events costs one read, and echoes of our own saves
    // are recognised by their version.
    this.#unwatch = storage.watch((change) => {
      if (change && typeof change.path === "string") this.#changed.add(change.path);
      this.#track(change);
    });
  }

  /**
   * The exact changes a storage reports (`edits`, e.g. a Yjs delta) since the core last learned
   * a path's text: the core's automatic rebase maps pending changes through them instead of
   * diffing (docs/co-editing.md §Automatic rebase). `null`: one change came without edits, so
   * the core diffs. The core checks that they lead to the text it is given.
   */
  readonly #remoteSteps = new Map<string, TextEdit[][] | null>();

  #track(change: StorageChange): void {
    if (!change || typeof change.path !== "string") return;
    const edits = (change as { edits?: unknown }).edits;
    const steps = this.#remoteSteps.get(change.path);
    if (steps === null) return;
    if (!Array.isArray(edits)) this.#remoteSteps.set(change.path, null);
    else if (steps === undefined) this.#remoteSteps.set(change.path, [edits as TextEdit[]]);
    else steps.push(edits as TextEdit[]);
  }

  /**
   * Loads the wasm (once per process), then opens `paths` (default: every document the storage
   * holds), reading each from the storage. The first path is the default document unless
   * `defaultPath` names another. Rejects with an Error naming the path, its size and the limit
   * when a document is larger than {@link MAX_DOCUMENT_BYTES} (128 MiB of UTF-8).
   */
  static async create(options: WorkspaceOptions): Promise<Workspace> {
    if (options === null || typeof options !== "object" || options.storage == null) {
      throw new TypeError("agentpad: Workspace.create({ storage }) needs a storage provider (e.g. new MemoryStorage({...}))");
    }
    const { storage } = options;
    checkKeys(options, CREATE_OPTIONS, "Workspace.create");
    if (options.embed !== undefined && typeof options.embed !== "function") {
      throw new TypeError("agentpad: embed needs a function: { embed: (texts: string[]) => Promise<number[][]> }");
    }
    const timeoutMs = checkTimeout(options.storageTimeoutMs);
    await ensureWasm();
    const paths: string[] =
      options.paths ??
      (await withTimeout(
        Promise.resolve().then(() => storage.list()),
        timeoutMs,
        "agentpad: storage.list()",
      ));
    // The core's option names are snake_case; it checks every value (a bad one is an Error
    // naming the option and what is allowed).
    const wasmOptions: WorkspaceConfig = {};
    for (const option of CORE_OPTIONS) {
      const value = options[option.name];
      if (value !== undefined) (wasmOptions as Record<string, unknown>)[option.key] = value;
    }
    const autoRebase = options.autoRebase ?? (storage.reportsExactChanges === true ? true : undefined);
    if (autoRebase !== undefined) wasmOptions.auto_rebase = autoRebase;
    let inner: WasmWorkspace;
    try {
      inner = await waitable(() => new WasmWorkspace(wasmOptions));
    } catch (err) {
      throw withCamelNames(err);
    }
    // A storage that keeps its own history is asked to record each call whose saves succeeded,
    // and reads versions of it for memo_read({ version }).
    await waitable(() => inner.keepRecords(typeof storage.afterCommit === "function" || typeof storage.loadAt === "function"));
    let sink: ((record: DiagnosticRecord) => void) | undefined;
    const committed = new Map<string, string>();
    try {
      const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
      if (options.diagnostics !== undefined) {
        if (typeof options.diagnostics?.sink !== "function") {
          throw new TypeError("agentpad: diagnostics needs a sink function: { diagnostics: { sink: (record) => …, categories? } }");
        }
        await waitable(() => inner.setDiagnostics(options.diagnostics?.categories ?? "all"));
        sink = options.diagnostics.sink;
      } else if (env?.AGENTPAD_DEBUG) {
        const categories = env.AGENTPAD_DEBUG;
        await waitable(() => inner.setDiagnostics(categories));
        sink = (record) => console.error(`[agentpad] ${JSON.stringify(record)}`);
      }
      for (const path of paths) {
        const loading = Promise.resolve().then(() => storage.load(path));
        const doc = checkLoaded(path, await withTimeout(loading, timeoutMs, `agentpad: storage.load(${JSON.stringify(path)})`));
        if (doc === undefined) {
          throw new Error(`agentpad: the storage holds no document "${path}"`);
        }
        const tooLarge = tooLong(path, doc.text);
        if (tooLarge !== undefined) throw new Error(`InvalidArguments: ${tooLarge}`);
        if (await waitable(() => inner.open(path, doc.text, doc.version))) committed.set(path, doc.text);
      }
    } catch (err) {
      release(inner); // as free() does: in the browser entry a free may need the rest of the engine
      throw err;
    }
    const ws = new Workspace(inner, storage, timeoutMs, sink);
    for (const [path, text] of committed) ws.#committed.set(path, text);
    if (options.embed !== undefined) {
      ws.#embedder = options.embed;
      await waitable(() => inner.setEmbedder(true));
    }
    return ws;
  }

  /**
   * Resolves once every part of the engine is loaded. In a browser (the package's "default"
   * entry) the engine comes in two parts: what a page needs to edit with exact matches, fetched
   * when the package is imported, and the rest — the tolerant matching tiers, most refusals,
   * memo_find, the validator, history compression, the live context, the memory store — fetched
   * the first time a call needs it. An async call waits for it by itself; a synchronous method
   * cannot, and throws an Error saying so: a page that calls `liveContext()`, `compressHistory()`,
   * `memory` or `setEditorState()` before its first awaited call awaits this first. In Node the
   * engine is one module: resolves once it is loaded. Rejects when the fetch fails (a later call
   * fetches again). (docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use)
   */
  static async loadAll(): Promise<void> {
    await ensureWasm();
    await coreGuard()?.load();
  }

  /**
   * Runs one tool call, checked by TypeScript: `name` is a tool under the default prefix
   * (`memo_…`) and `args` its arguments ({@link ToolArgs}, generated from the core's registry),
   * so a misspelt tool or argument does not compile. Never rejects for bad tool input (unknown
   * tool, wrong or missing arguments): that is a response with status "InvalidArguments" — so
   * is an edit that would make a document larger than {@link MAX_DOCUMENT_BYTES} (nothing is
   * changed then). When the call persists (a commit), the storage's saves happen before the
   * promise resolves. Rejects only for a bad `options` (a toolCallId that is not a string, a
   * nowMs that is not a finite number) or a freed workspace. Cost: the core's cost of the tool,
   * plus one storage read per document storage reported changed since the last call.
   *
   * A name held in a variable (a model's tool call) or a name under another `toolPrefix` goes
   * through {@link Workspace.callUntyped} (or {@link Workspace.runToolCall} for an SDK's call).
   */
  call<N extends ToolName>(name: N, ...rest: CallRest<N>): Promise<ToolResponse> {
    const [args, options] = rest;
    return this.callUntyped(name, args, options);
  }

  /**
   * {@link Workspace.call} without the compile-time checks: any name (any `toolPrefix`) and any
   * arguments, checked by the core at run time (a bad one is an "InvalidArguments" response).
   * For names and arguments that come from a model or from JSON. Same cost and errors as `call`.
   */
  callUntyped(name: string, args?: unknown, options?: CallOptions): Promise<ToolResponse> {
    const toolCallId: unknown = options?.toolCallId;
    if (toolCallId !== undefined && toolCallId !== null && typeof toolCallId !== "string") {
      // The host's mistake, not the model's: refused before anything runs.
      return Promise.reject(
        new TypeError(`agentpad: call(name, args, { toolCallId }) needs a string toolCallId, got ${typeof toolCallId}`),
      );
    }
    const nowMs: unknown = options?.nowMs;
    if (nowMs !== undefined && !(typeof nowMs === "number" && Number.isFinite(nowMs))) {
      return Promise.reject(
        new TypeError(
          `agentpad: call(name, args, { nowMs }) needs a finite number of ms since the epoch, got ${typeof nowMs === "number" ? nowMs : typeof nowMs}`,
        ),
      );
    }
    const run = this.#queue.then(() => this.#run(name, args, options?.toolCallId, nowMs));
    this.#queue = run.catch(() => undefined);
    return new Promise<ToolResponse>((resolve, reject) => {
      this.#pending.add(reject);
      run.then(resolve, reject).finally(() => this.#pending.delete(reject));
    });
  }

  async #run(name: string, args: unknown, toolCallId: string | undefined, nowMs: number | undefined): Promise<ToolResponse> {
    // Without a sink nothing is timed or delivered (docs/performance.md#a-warm-call-on-a-small-document).
    if (this.#sink === undefined) return this.#steps(name, args, toolCallId, nowMs ?? Date.now());
    const started = performance.now();
    try {
      return await this.#steps(name, args, toolCallId, nowMs ?? Date.now());
    } finally {
      const delivered = this.#deliverDiagnostics(performance.now() - started);
      if (delivered instanceof Promise) await delivered;
    }
  }

  /** Hands the core's diagnostics records to the sink, with the call's wall time. */
  #deliverDiagnostics(durationMs: number): void | Promise<void> {
    if (this.#sink === undefined || this.#inner === undefined) return;
    const taken = this.#waitable((w) => w.takeDiagnostics() as DiagnosticRecord[]);
    if (taken instanceof Promise) return taken.then((records) => this.#deliver(records, durationMs));
    this.#deliver(taken, durationMs);
  }

  #deliver(records: DiagnosticRecord[], durationMs: number): void {
    const sink = this.#sink;
    if (sink === undefined) return;
    for (const record of records) {
      if (record.status !== null) record.duration_ms = durationMs;
      try {
        sink(record);
      } catch (err) {
        // A failing sink must not break the call it reports on.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  async #steps(name: string, args: unknown, toolCallId: string | undefined, nowMs: number): Promise<ToolResponse> {
    this.#saved.clear();
    // The browser entry, while the rest of its engine loads: this call waits for it.
    // A failed load is the error of a call that needs the rest, not of this one.
    const loadingRest = coreGuard()?.loading();
    if (loadingRest !== undefined) await loadingRest.catch(() => undefined);
    try {
      this.#checkStored();
    } catch (err) {
      if (!(err instanceof RestPending)) throw err;
      await err.loading;
      this.#checkStored(); // each report before the one that waited stays made, and is not made again
    }
    // No await when nothing changed: a warm call need not wait a turn of the microtask queue.
    if (this.#changed.size > 0) await this.#syncExternalChanges();
    const first = this.#waitable((w) => w.call(name, args ?? {}, toolCallId, nowMs) as Step);
    let step = first instanceof Promise ? await first : first;
    // The core asks for storage work until it is done (a failed multi-document commit asks
    // for compensating writes; refresh, discard and diff-against-storage ask for reads).
    const written = new Map<string, string>();
    const listed = this.#pendingListed;
    const task = this.#taskListed;
    while (step.kind !== "done") {
      step =
        step.kind === "persist"
          ? await this.#persist(step.requests, written)
          : step.kind === "load"
            ? await this.#load(step.paths)
            : step.kind === "load_at"
              ? await this.#loadAt(step.path, step.version)
              : step.kind === "embed"
                ? await this.#embed(step.texts)
                : await this.#record(name, step.request, listed, task);
    }
    const response = step.response as ToolResponse;
    if (response.pending_changes.length > 0 || response.workflow_state === "Idle") this.#pendingListed = response.pending_changes;
    const top = response.task_stack.at(-1);
    this.#taskListed = top === undefined ? undefined : { id: top.task_id, goal: top.goal };
    if (step.response.status === "Success") {
      for (const [path, text] of written) {
        // The text just saved IS the committed text when it has no CR and no BOM (the core
        // keeps LF-normalised text): text() can return it without crossing the wasm boundary
        // again — 10 MB each way is most of a large commit's cost. A text the core named in
        // `kept` is one (#committed): no scan for a CR.
        if (this.#committed.get(path) === text || (!text.includes("\r") && text.charCodeAt(0) !== 0xfeff)) this.#saved.set(path, text);
      }
    }
    // The core keeps what ToolResponse narrows by status (a MultiMatch lists a candidate, its
    // count and quality): src/typescript.rs tests it on every way to one.
    return response;
  }

  /**
   * A `record` step: tells a storage that keeps history what the call saved
   * (StorageProvider.afterCommit) and hands the core what came of it, as data; the core says it
   * in the response. The saves are done and kept whatever it answers: a throw or a timeout is
   * reported as not known (docs/workflow.md#git-mode).
   */
  async #record(
    name: string,
    request: RecordRequest,
    listed: PendingChange[],
    task: { id: string; goal: string } | undefined,
  ): Promise<Step> {
    let result: RecordResult;
    try {
      const commit = {
        summary: request.summary,
        tool: name,
        paths: request.paths,
        changes: listed,
        ...(task === undefined ? {} : { task }),
      };
      const recording = Promise.resolve().then(() => this.#storage.afterCommit?.(commit));
      result = (await withTimeout(recording, this.#storageTimeoutMs, "storage.afterCommit")) ?? { kind: "none" };
    } catch (err) {
      result = { kind: "unknown", why: messageOf(err) };
    }
    return this.#waitable((w) => w.completeRecord(result) as Step);
  }

  /**
   * A `load_at` step: `memo_read({ version })` of a version of the storage's own history (a git
   * commit id in NodeFsStorage's git mode), read by the storage (StorageProvider.loadAt) and
   * handed to the core as data; the core answers the read. A throw or a timeout is a failed read.
   */
  async #loadAt(path: string, version: string): Promise<Step> {
    let found: StoredAt;
    try {
      const loading = Promise.resolve().then(() => this.#storage.loadAt?.(path, version));
      found = (await withTimeout(loading, this.#storageTimeoutMs, `storage.loadAt(${JSON.stringify(path)})`)) ?? { kind: "none" };
    } catch (err) {
      found = { kind: "failed", why: messageOf(err) };
    }
    return this.#waitable((w) => w.completeLoadAt(found) as Step);
  }

  /** Writes in order and stops at the first failure: later documents are left untouched. */
  async #persist(requests: PersistRequest[], written: Map<string, string>): Promise<Step> {
    const results: PersistReport[] = [];
    for (const request of requests) {
      try {
        // Sent as edits of the committed text this side keeps (#committed).
        const fromEdits = (request as { from_edits?: true }).from_edits === true;
        const text = fromEdits ? applyEdits(this.#committed.get(request.path), request.edits) : request.text;
        const saving = Promise.resolve().then(() => this.#storage.save(request.path, text, request.expected_version, request.edits));
        const { version, stored } = checkSaved(
          request.path,
          await withTimeout(saving, this.#storageTimeoutMs, `storage.save(${JSON.stringify(request.path)})`),
        );
        results.push({ path: request.path, ok: true, version, ...(stored ? {} : { stored: false as const }) });
        written.set(request.path, text);
        this.#remoteSteps.delete(request.path); // the core's text is storage's now
      } catch (err) {
        results.push({ path: request.path, ok: false, error: messageOf(err) });
        break;
      }
    }
    const completed = this.#waitable((w) => w.completePersist(results) as Step & { kept?: string[]; dropped?: string[] });
    const step = completed instanceof Promise ? await completed : completed;
    for (const path of step.kept ?? []) {
      const text = written.get(path);
      if (text !== undefined) this.#committed.set(path, text);
    }
    for (const path of step.dropped ?? []) this.#committed.delete(path);
    return step;
  }

  async #load(paths: string[]): Promise<Step> {
    const results: LoadReport[] = [];
    for (const path of paths) {
      try {
        const doc = checkLoaded(path, await this.#loadWithin(path));
        this.#remoteSteps.delete(path);
        const tooLarge = doc && tooLong(path, doc.text);
        if (tooLarge) {
          results.push({ path, ok: false, error: tooLarge });
          continue;
        }
        results.push({ path, ok: true, text: doc?.text ?? null, version: doc?.version ?? null });
      } catch (err) {
        results.push({ path, ok: false, error: messageOf(err) });
      }
    }
    return this.#waitable((w) => w.completeLoad(results) as Step);
  }

  /**
   * Performs an `embed` step with the host's embedder (docs/architecture.md#sans-io-steps). A
   * failure is reported, not thrown: the find then ranks by words alone and says so.
   */
  async #embed(texts: string[]): Promise<Step> {
    let report: unknown;
    try {
      if (this.#embedder === undefined) throw new Error("no embed option was given");
      report = await withTimeout(
        Promise.resolve().then(() => this.#embedder!(texts)),
        this.#storageTimeoutMs,
        "agentpad: embed()",
      );
    } catch (err) {
      report = { error: messageOf(err) };
    }
    return this.#waitable((w) => w.completeEmbed(report) as Step);
  }

  /** `storage.load(path)` within the storage timeout. */
  #loadWithin(path: string): Promise<unknown> {
    const loading = Promise.resolve().then(() => this.#storage.load(path));
    return withTimeout(loading, this.#storageTimeoutMs, `storage.load(${JSON.stringify(path)})`);
  }

  /**
   * Asks the storage, for each document whose last save it had only applied locally, whether
   * it is stored now, and tells the core (its next response says so once). A storage without
   * `isStored` never reports `stored: false`. Cost: O(unstored documents).
   */
  #checkStored(): void {
    const isStored = this.#storage.isStored;
    if (typeof isStored !== "function") return;
    for (const path of this.#guarded((w) => w.unstored(), "unstored()")) {
      let stored = false;
      try {
        stored = isStored.call(this.#storage, path) === true;
      } catch {
        // Asked again before the next call.
      }
      if (stored) this.#guarded((w) => w.storageStored(path), "a call");
    }
  }

  /**
   * The documents whose last save storage has applied locally but not yet acknowledged where
   * it keeps them (docs/co-editing.md §Stored), after asking it again. Empty when everything
   * committed is stored.
   */
  unstored(): string[] {
    this.#checkStored();
    return this.#guarded((w) => w.unstored(), "unstored()");
  }

  /**
   * Reads every path storage reported changed and tells the core what it holds now. A read that
   * fails is tried again before the next call; the core hears of the failure once (a note in
   * the next response), and the document stays as it was.
   */
  /** Only when #changed holds a path: the one caller skips the await otherwise. */
  async #syncExternalChanges(): Promise<void> {
    const paths = [...this.#changed];
    this.#changed.clear();
    const open = new Set(this.paths());
    for (const path of paths) {
      if (!open.has(path)) continue;
      let doc: { text: string; version: string } | undefined;
      try {
        doc = checkLoaded(path, await this.#loadWithin(path), (version) => version === this.#guarded((w) => w.version(path), "a call"));
      } catch (err) {
        this.#changed.add(path); // try again before the next call
        const why = messageOf(err);
        if (this.#unreadable.get(path) !== why) {
          this.#unreadable.set(path, why);
          await this.#waitable((w) => w.storageUnreadable(path, why));
        }
        continue;
      }
      this.#unreadable.delete(path);
      if (doc?.version === this.#guarded((w) => w.version(path), "a call")) {
        this.#remoteSteps.delete(path);
        continue; // our own save
      }
      if (doc && doc.text.length > MAX_DOCUMENT_BYTES) {
        const { version, text } = doc;
        await this.#waitable((w) => w.storageTooLarge(path, version, utf8Length(text)));
        continue;
      }
      const steps = this.#remoteSteps.get(path);
      this.#remoteSteps.delete(path);
      const changed = doc;
      await this.#waitable((w) => w.storageChanged(path, changed?.text, changed?.version, steps ?? undefined));
    }
  }

  /** Committed text, LF-normalised (what the offsets index). Throws if `path` is not open. */
  text(path?: string): string {
    checkPath(path, "text");
    const saved = this.#saved.get(path ?? this.paths()[0] ?? "");
    if (saved !== undefined) return saved;
    return this.#guarded((w) => w.text(path), "text()");
  }

  /** Committed text plus the pending changes, LF-normalised. */
  draft(path?: string): string {
    checkPath(path, "draft");
    return this.#guarded((w) => w.draft(path), "draft()");
  }

  /** The workflow state: "Idle" | "SelectionPending" | "PersistPending" | "OutOfSync" | "Refreshing". */
  get state(): WorkflowState {
    return this.#guarded((w) => w.state(), "state") as WorkflowState;
  }

  /**
   * Your chat history with the calls and results of every committed or reverted edit session
   * replaced by one summary message each ("[Edit session #3 committed] Summary: …").
   * Pass the `toolCallId` of each call to `call()` so the workspace knows which messages are
   * whose. Everything else is kept as it was, no tool call is left without its result, and
   * Anthropic turns still alternate. Returns a new array; yours is not changed. Throws on a
   * malformed array (naming the message).
   *
   * `format` is the shape of your array: `"openai"` (chat completions: `tool_calls` and
   * `role: "tool"`), `"openai-responses"` (Responses API input items: `function_call` /
   * `function_call_output`; a `reasoning` item goes with the calls it preceded when they all
   * go), `"anthropic"` (`tool_use` / `tool_result` blocks) or `"ai-sdk"` (the AI SDK's
   * `ModelMessage`s: `tool-call` / `tool-result` parts). With `"anthropic"` and `"ai-sdk"` a
   * session at the very end is summarised as the user's turn (an assistant turn last is a prefill).
   */
  compressHistory<M>(messages: M[], options: { format: HistoryFormat }): CompressedHistory<M> {
    const format = options?.format;
    if (!HISTORY_FORMATS.includes(format)) {
      throw new Error(
        `agentpad: compressHistory needs { format: ${HISTORY_FORMATS.map((f) => JSON.stringify(f)).join(" | ")} }, got ${JSON.stringify(format)}`,
      );
    }
    return this.#guarded((w) => w.compressHistory(messages, format), "compressHistory()") as CompressedHistory<M>;
  }

  /**
   * The live context block (002) to append to the last user message of each request: the
   * current document (a window around the last edit plus a heading index when it is long), the
   * last versions as unified patches (failed saves flagged is_error), an anchor diff from an
   * older version, the editor state, the last calls, the memory digest and the task tree.
   * Nothing of it belongs in the chat history: build it fresh for every request. Throws on a bad
   * option or position (naming it and what is allowed).
   */
  liveContext(options: LiveContextOptions = {}): LiveContext {
    const o = options ?? {};
    if (typeof o !== "object" || Array.isArray(o)) {
      throw new TypeError(`agentpad: liveContext(options) needs an options object, got ${Array.isArray(o) ? "an array" : typeof o}`);
    }
    checkKeys(o, LIVE_CONTEXT_OPTIONS, "liveContext");
    const anchor = o.anchor;
    const wasmOptions: LiveContextRequest = {
      path: o.path,
      editor_state: o.editorState,
      max_document_chars: o.maxDocumentChars,
      recent_diffs: o.recentDiffs,
      max_diff_chars: o.maxDiffChars,
      anchor:
        anchor === undefined || typeof anchor === "string"
          ? anchor
          : "commitsBack" in anchor
            ? { commits_back: anchor.commitsBack }
            : "ageMs" in anchor
              ? { age_ms: anchor.ageMs }
              : anchor,
      plan_hints: o.planHints,
      diff_deadline_ms: o.diffDeadlineMs,
      locale: o.locale,
    };
    try {
      return this.#guarded((w) => w.liveContext(wasmOptions, Date.now()), "liveContext()") as LiveContext;
    } catch (err) {
      throw withCamelNames(err);
    }
  }

  /** Sets the editor state the live context reports. Throws on a position outside the draft. */
  setEditorState(state: EditorState): void {
    this.#guarded((w) => w.setEditorState(state), "setEditorState()");
  }

  /** The task stack and the thought tree of finished tasks, as data and Markdown lines. */
  tasks(): TaskReport {
    return this.#guarded((w) => w.tasks(), "tasks()") as TaskReport;
  }

  /**
   * The memory store (004): store each turn's context and summary with `add`; the model recalls
   * and searches them with memo_recall_context / memo_search_memory (option `memory: true`).
   */
  get memory(): MemoryStoreApi {
    const on = <T>(f: (w: WasmWorkspace) => T, what: string): T => this.#guarded(f, what);
    return {
      // The host's arrays (insights, tags) are read inside wasm: guarded like call().
      add: (t) =>
        on(
          (w) =>
            w.memoryAdd({
              turn: t.turn,
              at_ms: t.atMs ?? Date.now(),
              summary: t.summary,
              insights: t.insights ?? [],
              context: t.context,
              tags: t.tags ?? [],
              // The core reads a turn in the shape it stores one (an absent `turn` is numbered).
            } satisfies Omit<MemoryTurn, "turn"> & { turn: number | undefined }),
          "memory.add()",
        ),
      // Each crosses the boundary alone: the digest is a few lines, the turns carry every
      // stored context.
      turns: () => on((w) => w.memoryTurns(), "memory.turns()") as MemoryTurn[],
      digest: () => on((w) => w.memoryDigest(), "memory.digest()"),
      search: (query, limit = 5) => {
        if (typeof query !== "string") throw new TypeError(`agentpad: memory.search(query) needs a string, got ${typeof query}`);
        return on((w) => w.memorySearch(query, limit), "memory.search()") as MemorySearchHit[];
      },
      export: () => on((w) => w.memoryExport(), "memory.export()"),
      import: (json) => {
        if (typeof json !== "string")
          throw new TypeError(`agentpad: memory.import(json) needs the string memory.export() returned, got ${typeof json}`);
        on((w) => w.memoryImport(json), "memory.import()");
      },
    };
  }

  /** The flags of the current state and persist mode (`PersistReadOnly` in disabled mode, …). */
  get flags(): Flags {
    return this.#guarded((w) => w.flags(), "flags") as Flags;
  }

  /** The storage version the workspace holds for `path` (default document), or undefined. */
  version(path?: string): string | undefined {
    checkPath(path, "version");
    const p = path ?? this.paths()[0];
    return p === undefined ? undefined : this.#guarded((w) => w.version(p), "version()");
  }

  /**
   * Opens `path` on this live workspace: reads it from the storage and adds it to the open
   * documents — for a document the storage got after `create` (its `watch` reports it). Runs
   * after the calls under way. Resolves true when opened; false when it is open already or the
   * storage holds no such document. Rejects with an Error naming the path when the storage
   * cannot read it or it is larger than {@link MAX_DOCUMENT_BYTES}. Cost: one storage read.
   */
  open(path: string): Promise<boolean> {
    if (typeof path !== "string" || path === "") {
      return Promise.reject(
        new TypeError(`agentpad: open(path) needs a non-empty string path, got ${typeof path === "string" ? '""' : typeof path}`),
      );
    }
    const run = this.#queue.then(async () => {
      if (this.paths().includes(path)) return false;
      const doc = checkLoaded(path, await this.#loadWithin(path));
      if (doc === undefined) return false;
      const tooLarge = tooLong(path, doc.text);
      if (tooLarge !== undefined) throw new Error(`InvalidArguments: ${tooLarge}`);
      const opened = this.#waitable((w) => w.open(path, doc.text, doc.version));
      if (opened instanceof Promise ? await opened : opened) this.#committed.set(path, doc.text);
      else this.#committed.delete(path);
      return true;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Open documents, default first. */
  paths(): string[] {
    return this.#guarded((w) => w.paths(), "paths()") as string[];
  }

  /**
   * Every tool of the registry, hidden ones too, with whether the current state offers it and,
   * when not, why (`reason`: the summary a call to it would get; `guidance`: what to do instead).
   * For hosts that show the whole tool set, as the playground's console does.
   */
  toolStates(): ToolState[] {
    return this.#guarded((w) => w.toolStates(), "toolStates()") as ToolState[];
  }

  /**
   * The visible tools, shaped for an LLM API: `"openai"` (Chat Completions), `"openai-responses"`,
   * `"anthropic"`, `"mcp"`, `"gemini"` (function declarations) or `"json-schema"` (the core's
   * definitions); `"ai-sdk"` with the AI SDK's `jsonSchema` gives a `tools` object whose `execute`
   * runs the call. `strict: true` gives schemas that pass OpenAI strict mode. The list is every
   * tool the configuration enables, byte-identical in every workflow state (a call the state does
   * not allow is answered `Blocked` with what to call instead); `visibleOnly: true` gives only the
   * tools the current state offers, for hosts that ask again before each request.
   */
  tools<S>(options: AiSdkToolsOptions<S>): AiSdkTools<S>;
  tools<F extends ToolFormat>(options: ToolsOptions<F>): ToolFormatMap[F][];
  tools(options: ToolsOptions | AiSdkToolsOptions<unknown>): ToolFormatMap[ToolFormat][] | AiSdkTools<unknown> {
    const format = options?.format;
    const strict = options?.strict === true;
    const defs =
      options?.visibleOnly === true ? (this.#guarded((w) => w.toolDefinitions(true), "tools()") as ToolDefinition[]) : this.#definitions();
    if (format === "ai-sdk") {
      const { jsonSchema, onResponse } = options as AiSdkToolsOptions<unknown>;
      return aiSdkTools(defs, jsonSchema, strict, this.#reporting(onResponse));
    }
    return toolsFor(format, defs, strict);
  }

  /** A copy of every enabled tool's definition (see #enabledTools). Cost: a structured clone of ~13 KB. */
  #definitions(): ToolDefinition[] {
    this.#live(); // a freed workspace throws, cached or not
    this.#enabledTools ??= this.#guarded((w) => w.toolDefinitions(false), "tools()") as ToolDefinition[];
    return structuredClone(this.#enabledTools);
  }

  /**
   * Runs one tool call as an SDK delivers it and returns that SDK's tool-result message, ready to
   * append to the conversation: OpenAI Chat Completions `{ role: "tool", tool_call_id, content }`,
   * Responses `{ type: "function_call_output", call_id, output }`, Anthropic
   * `{ type: "tool_result", tool_use_id, content, is_error }`, MCP `CallToolResult`, Gemini
   * `{ functionResponse }`. The content is the response's Markdown; the call id is recorded
   * (`compressHistory` needs it). Never rejects for the model's mistakes — an unknown tool,
   * malformed argument JSON, wrong arguments are an `InvalidArguments` result — only for a call
   * object without its id.
   */
  runToolCall<F extends ToolCallFormat>(
    call: ToolCallMap[F]["call"],
    options: { format: F; onResponse?: (response: ToolResponse) => void },
  ): Promise<ToolCallMap[F]["result"]> {
    let run;
    try {
      run = this.#reporting(options?.onResponse);
    } catch (e) {
      return Promise.reject(e);
    }
    return runToolCall(run, call, options?.format) as Promise<ToolCallMap[F]["result"]>;
  }

  /**
   * `callUntyped`, handing each response to `onResponse` too: the SDK-shaped results carry only the
   * Markdown, and a host that compresses its history wants `history_delta` (a session ended).
   */
  #reporting(
    onResponse: ((response: ToolResponse) => void) | undefined,
  ): (name: string, args: unknown, o?: CallOptions) => Promise<ToolResponse> {
    if (onResponse !== undefined && typeof onResponse !== "function") {
      throw new TypeError(`agentpad: onResponse must be a function, got ${typeof onResponse}`);
    }
    return async (name, args, o) => {
      const r = await this.callUntyped(name, args, o);
      onResponse?.(r);
      return r;
    };
  }

  /**
   * Releases the wasm memory of this workspace. Idempotent; any later use throws. Calls not yet
   * settled reject with an Error saying the workspace was freed (a storage call under way is not
   * awaited). Called from inside a call (a getter of its arguments), the memory is released as
   * soon as that call's wasm work returns.
   */
  free(): void {
    const inner = this.#inner;
    this.#inner = undefined;
    this.#unwatch?.();
    this.#unwatch = undefined;
    for (const reject of [...this.#pending]) reject(new Error(FREED_WHILE_WAITING));
    this.#pending.clear();
    this.#committed.clear();
    if (inner === undefined) return;
    if (this.#busy > 0) this.#freeWhenIdle = true;
    else release(inner);
  }

  /**
   * Runs `f` on the wasm workspace, which may call the host's code (getters and Proxies of the
   * arguments). A free() from there waits until `f` returns: freeing the object while wasm
   * holds it throws and would leak it.
   */
  #guarded<T>(f: (w: WasmWorkspace) => T, what: string): T {
    const guard = coreGuard();
    return guard === undefined ? this.#busyWith(f) : guard.sync(() => this.#busyWith(f), what);
  }

  /**
   * `#guarded` for a caller that can wait: in the browser entry, a call that needs the rest of the
   * engine waits for it and runs again (src/split-loader.ts); a promise only then.
   */
  #waitable<T>(f: (w: WasmWorkspace) => T): T | Promise<T> {
    const guard = coreGuard();
    return guard === undefined ? this.#busyWith(f) : guard.run(() => this.#busyWith(f));
  }

  #busyWith<T>(f: (w: WasmWorkspace) => T): T {
    const inner = this.#live();
    this.#busy++;
    try {
      return f(inner);
    } finally {
      this.#busy--;
      if (this.#busy === 0 && this.#freeWhenIdle) {
        this.#freeWhenIdle = false;
        release(inner);
      }
    }
  }

  [Symbol.dispose](): void {
    this.free();
  }

  /** True once free() (or Symbol.dispose) has run. */
  get freed(): boolean {
    return this.#inner === undefined;
  }

  #live(): WasmWorkspace {
    if (this.#inner === undefined) throw new Error(FREED);
    return this.#inner;
  }
}
