import type { StorageChange, StorageProvider } from "./types.js";

type Operation = "list" | "load" | "save";

interface Entry {
  text: string;
  /** Versions are "v1", "v2", ... per path. */
  n: number;
}

/**
 * In-memory storage, for tests, demos and the playground.
 *
 * Versions are `"v1"`, `"v2"`, ... per path. `write()` simulates an external change (another
 * program editing the file); `failNext()` makes the next operation of a kind reject.
 */
export class MemoryStorage implements StorageProvider {
  readonly #docs = new Map<string, Entry>();
  readonly #listeners = new Set<(change: StorageChange) => void>();
  readonly #failures: Operation[] = [];

  /** `new MemoryStorage({ "notes.md": text, ... })`: every document starts at version "v1". */
  constructor(documents: Record<string, string> = {}) {
    for (const [path, text] of Object.entries(documents)) {
      if (typeof text !== "string") {
        throw new TypeError(`MemoryStorage: the text of "${path}" must be a string, got ${typeof text}`);
      }
      this.#docs.set(path, { text, n: 1 });
    }
  }

  async list(): Promise<string[]> {
    this.#maybeFail("list", "");
    return [...this.#docs.keys()];
  }

  async load(path: string): Promise<{ text: string; version: string } | undefined> {
    this.#maybeFail("load", path);
    const entry = this.#docs.get(path);
    return entry === undefined ? undefined : { text: entry.text, version: `v${entry.n}` };
  }

  /**
   * Stores `text` if the document is still at `expectedVersion` (`""` for a document that must
   * not exist yet); rejects on a mismatch and leaves the document unchanged.
   */
  async save(path: string, text: string, expectedVersion: string): Promise<{ version: string }> {
    this.#maybeFail("save", path);
    const entry = this.#docs.get(path);
    const current = entry === undefined ? "" : `v${entry.n}`;
    if (current !== expectedVersion) {
      throw new Error(
        entry === undefined
          ? `MemoryStorage: version mismatch for "${path}": expected ${expectedVersion}, but the document does not exist`
          : `MemoryStorage: version mismatch for "${path}": expected ${expectedVersion || "a new document"}, storage has ${current}`,
      );
    }
    const n = entry === undefined ? 1 : entry.n + 1;
    this.#docs.set(path, { text, n });
    const version = `v${n}`;
    this.#notify({ path, version });
    return { version };
  }

  /** Subscribe to changes (external writes and saves). Returns the unsubscribe function. */
  watch(listener: (change: StorageChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** The stored text (line endings as stored), or undefined. Synchronous, for tests. */
  read(path: string): string | undefined {
    return this.#docs.get(path)?.text;
  }

  /** The stored version ("v1", ...), or undefined. */
  version(path: string): string | undefined {
    const entry = this.#docs.get(path);
    return entry === undefined ? undefined : `v${entry.n}`;
  }

  /** An external change: stores `text`, bumps the version and notifies watchers. Returns the new version. */
  write(path: string, text: string): string {
    const entry = this.#docs.get(path);
    const n = entry === undefined ? 1 : entry.n + 1;
    this.#docs.set(path, { text, n });
    const version = `v${n}`;
    this.#notify({ path, version });
    return version;
  }

  /** An external deletion; notifies watchers. */
  delete(path: string): boolean {
    const existed = this.#docs.delete(path);
    if (existed) this.#notify({ path, version: undefined });
    return existed;
  }

  /** Fault injection: the next `operation` call rejects (and changes nothing). Calls queue up. */
  failNext(operation: Operation = "save"): void {
    if (operation !== "list" && operation !== "load" && operation !== "save") {
      throw new TypeError(`MemoryStorage.failNext: unknown operation ${JSON.stringify(operation)} (use "save", "load" or "list")`);
    }
    this.#failures.push(operation);
  }

  #maybeFail(operation: Operation, path: string): void {
    const i = this.#failures.indexOf(operation);
    if (i === -1) return;
    this.#failures.splice(i, 1);
    const target = path === "" ? "" : ` "${path}"`;
    throw new Error(`MemoryStorage: injected ${operation} failure${target} (failNext("${operation}"))`);
  }

  #notify(change: StorageChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (err) {
        // A failing listener must not break the storage or the other listeners.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
