// A StorageProvider on IndexedDB, with cross-tab change notifications. Both entries export it
// (Node has no IndexedDB of its own: pass one, e.g. fake-indexeddb).
import type { StorageChange, StorageProvider } from "./types.js";

/**
 * The DOM lib's `IDBFactory` in a project that has that lib, `unknown` in one that has not (a
 * Node project): the declaration compiles in both.
 */
export type IndexedDBFactory = typeof globalThis extends { indexedDB: infer F } ? F : unknown;

export interface BrowserStorageOptions {
  /** The IndexedDB factory to use (default: `globalThis.indexedDB`), e.g. fake-indexeddb in tests. */
  indexedDB?: IndexedDBFactory;
}

/** One object store, records keyed by `path`. */
const STORE = "documents";
const DB_VERSION = 1;
const MESSAGE_KIND = "agentpad-storage-change";

interface StoredDocument {
  path: string;
  text: string;
  version: string;
}

interface ChangeMessage {
  kind: typeof MESSAGE_KIND;
  path: string;
  version: string | null;
}

function messageOf(err: unknown): string {
  if (err instanceof Error || (typeof DOMException !== "undefined" && err instanceof DOMException)) {
    return `${err.name}: ${err.message}`;
  }
  return String(err);
}

/**
 * The version of a text: `"sha256:"` + the first 16 hex digits of the SHA-256 of its UTF-8 bytes
 * (the same as NodeFsStorage gives the same text).
 */
async function versionOf(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `sha256:${Array.from(new Uint8Array(digest, 0, 8), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Documents in an IndexedDB database of the page's origin (object store `"documents"` of
 * `{ path, text, version }` records), so they survive reloads and are shared by the origin's tabs.
 *
 * - **Versions are content hashes**: `"sha256:"` + 16 hex digits of the text's UTF-8 (SubtleCrypto,
 *   so the page must be a secure context: https:// or http://localhost / 127.0.0.1). The same text
 *   has the same version here and in NodeFsStorage.
 * - `save(path, text, expectedVersion)` compares the stored version and writes in one readwrite
 *   transaction, so two tabs saving at once cannot both win; a mismatch rejects and writes nothing
 *   (`""` means the document must not exist yet).
 * - `watch` reports changes made by *other* BrowserStorage objects on the same database — other
 *   tabs, windows, workers or instances in this page — through a `BroadcastChannel` named
 *   `"agentpad-storage:" + name`. Its own `save`s do not echo to its own listeners.
 * - `write(path, text)` and `delete(path)` are external changes (tests, the playground): they
 *   store unconditionally and notify this object's listeners and every other instance.
 */
export class BrowserStorage implements StorageProvider {
  /** The IndexedDB database name. */
  readonly name: string;
  #db: IDBDatabase | undefined;
  #channel: BroadcastChannel | undefined;
  /** Why the storage cannot be used any more, once closed. */
  #closedBecause: string | undefined;
  readonly #listeners = new Set<{ listener: (change: StorageChange) => void }>();

  private constructor(name: string, db: IDBDatabase) {
    this.name = name;
    this.#db = db;
    db.onversionchange = () => {
      // Another page wants to delete or upgrade the database: let it.
      this.#shutDown(`another page is deleting or upgrading the database "${name}"`);
    };
    db.onclose = () => {
      this.#shutDown(`the browser closed the database "${name}" (site data cleared?)`);
    };
    if (typeof BroadcastChannel === "function") {
      const channel = new BroadcastChannel(`agentpad-storage:${name}`);
      channel.onmessage = (event: MessageEvent) => {
        const data = event.data as Partial<ChangeMessage> | null;
        if (data === null || typeof data !== "object" || data.kind !== MESSAGE_KIND || typeof data.path !== "string") return;
        if (data.version !== null && typeof data.version !== "string") return;
        this.#notify({ path: data.path, version: data.version ?? undefined });
      };
      this.#channel = channel;
    }
  }

  /**
   * Opens (creating if needed) the IndexedDB database `name`. Rejects with a clear Error where
   * IndexedDB or SubtleCrypto is unavailable, or when the database belongs to something else.
   */
  static async open(name = "agentpad", options: BrowserStorageOptions = {}): Promise<BrowserStorage> {
    if (typeof name !== "string" || name === "") {
      throw new TypeError(`BrowserStorage.open: the database name must be a non-empty string, got ${JSON.stringify(name)}`);
    }
    const factory = options?.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    if (factory === undefined || factory === null) {
      throw new Error("BrowserStorage.open: IndexedDB is not available here; use MemoryStorage (or NodeFsStorage in Node)");
    }
    if (globalThis.crypto?.subtle === undefined) {
      throw new Error(
        "BrowserStorage.open: crypto.subtle is missing (browsers provide it only in secure contexts); " +
          "serve the page over https:// or from http://localhost",
      );
    }
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      let request: IDBOpenDBRequest;
      try {
        request = factory.open(name, DB_VERSION);
      } catch (err) {
        reject(new Error(`BrowserStorage.open: cannot open the IndexedDB database "${name}": ${messageOf(err)}`));
        return;
      }
      request.onupgradeneeded = () => {
        const upgrading = request.result;
        if (!upgrading.objectStoreNames.contains(STORE)) upgrading.createObjectStore(STORE, { keyPath: "path" });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => {
        const why = messageOf(request.error);
        const hint =
          request.error?.name === "VersionError"
            ? " (a newer version of this database exists; it was created by something else — pick another name)"
            : "";
        reject(new Error(`BrowserStorage.open: cannot open the IndexedDB database "${name}": ${why}${hint}`));
      };
    });
    if (!db.objectStoreNames.contains(STORE)) {
      db.close();
      throw new Error(
        `BrowserStorage.open: the IndexedDB database "${name}" was not created by BrowserStorage (it has no "${STORE}" store); pick another name`,
      );
    }
    return new BrowserStorage(name, db);
  }

  async list(): Promise<string[]> {
    const keys = await this.#transaction<IDBValidKey[]>("list", "", "readonly", (store, done) => {
      const request = store.getAllKeys();
      request.onsuccess = () => done(request.result);
    });
    return keys.map(String).sort();
  }

  async load(path: string): Promise<{ text: string; version: string } | undefined> {
    this.#checkPath(path, "load");
    const doc = await this.#transaction<StoredDocument | undefined>("load", path, "readonly", (store, done) => {
      const request = store.get(path);
      request.onsuccess = () => done(request.result as StoredDocument | undefined);
    });
    return doc === undefined ? undefined : { text: doc.text, version: doc.version };
  }

  /**
   * Stores `text` if the document is still at `expectedVersion` (`""` for a document that must
   * not exist yet), checked and written in one transaction; rejects and changes nothing on a
   * mismatch. Other instances are notified; this one's listeners are not.
   */
  async save(path: string, text: string, expectedVersion: string): Promise<{ version: string }> {
    this.#checkPath(path, "save");
    if (typeof text !== "string") {
      throw new TypeError(`BrowserStorage: save("${path}"): the text must be a string, got ${typeof text}`);
    }
    if (typeof expectedVersion !== "string") {
      throw new TypeError(
        `BrowserStorage: save("${path}"): expectedVersion must be a string ("" for a new document), got ${typeof expectedVersion}`,
      );
    }
    // Hash first: a transaction must not wait for anything but its own requests.
    const version = await versionOf(text);
    await this.#transaction<void>("save", path, "readwrite", (store, done, fail) => {
      const request = store.get(path);
      request.onsuccess = () => {
        const stored = request.result as StoredDocument | undefined;
        const current = stored?.version ?? "";
        if (current !== expectedVersion) {
          fail(
            new Error(
              stored === undefined
                ? `BrowserStorage: version mismatch for "${path}": expected ${expectedVersion}, but the document does not exist; nothing was written`
                : expectedVersion === ""
                  ? `BrowserStorage: version mismatch for "${path}": expected a new document, but it exists with version ${current}; load it first. Nothing was written`
                  : `BrowserStorage: version mismatch for "${path}": expected ${expectedVersion}, storage has ${current} (changed elsewhere; load it again). Nothing was written`,
            ),
          );
          return;
        }
        store.put({ path, text, version } satisfies StoredDocument);
        done(undefined);
      };
    });
    this.#broadcast({ path, version });
    return { version };
  }

  /** Subscribe to changes made elsewhere (other tabs and instances, `write`, `delete`). Returns the unsubscribe function. */
  watch(listener: (change: StorageChange) => void): () => void {
    if (typeof listener !== "function") throw new TypeError("BrowserStorage: watch(listener) needs a function");
    this.#usable("watch");
    const subscription = { listener };
    this.#listeners.add(subscription);
    return () => {
      this.#listeners.delete(subscription);
    };
  }

  /**
   * An external change: stores `text` whatever the stored version, notifies this storage's
   * listeners and every other instance on the database. Resolves to the new version.
   */
  async write(path: string, text: string): Promise<string> {
    this.#checkPath(path, "write");
    if (typeof text !== "string") {
      throw new TypeError(`BrowserStorage: write("${path}"): the text must be a string, got ${typeof text}`);
    }
    const version = await versionOf(text);
    await this.#transaction<void>("write", path, "readwrite", (store, done) => {
      store.put({ path, text, version } satisfies StoredDocument).onsuccess = () => done(undefined);
    });
    this.#notify({ path, version });
    this.#broadcast({ path, version });
    return version;
  }

  /** An external deletion: resolves to whether the document existed; notifies like `write`. */
  async delete(path: string): Promise<boolean> {
    this.#checkPath(path, "delete");
    const existed = await this.#transaction<boolean>("delete", path, "readwrite", (store, done) => {
      const count = store.count(path);
      count.onsuccess = () => {
        if (count.result === 0) {
          done(false);
          return;
        }
        store.delete(path).onsuccess = () => done(true);
      };
    });
    if (existed) {
      this.#notify({ path, version: undefined });
      this.#broadcast({ path, version: undefined });
    }
    return existed;
  }

  /** Closes the database and the channel and drops every listener; later calls reject. */
  close(): void {
    this.#shutDown(`it was closed; open it again with BrowserStorage.open(${JSON.stringify(this.name)})`);
  }

  #shutDown(reason: string): void {
    if (this.#closedBecause !== undefined) return;
    this.#closedBecause = reason;
    this.#listeners.clear();
    this.#channel?.close();
    this.#channel = undefined;
    this.#db?.close();
    this.#db = undefined;
  }

  #usable(operation: string): IDBDatabase {
    if (this.#db === undefined) {
      throw new Error(`BrowserStorage "${this.name}": cannot ${operation}: ${this.#closedBecause ?? "closed"}`);
    }
    return this.#db;
  }

  #checkPath(path: string, operation: string): void {
    if (typeof path !== "string" || path === "") {
      throw new TypeError(`BrowserStorage: ${operation}(${JSON.stringify(path)}): the path must be a non-empty string`);
    }
  }

  /**
   * Runs `body` in a transaction on the store; resolves with the value given to `done` once the
   * transaction has committed, rejects with the Error given to `fail` (the transaction is aborted)
   * or with the transaction's own error.
   */
  #transaction<T>(
    operation: string,
    path: string,
    mode: IDBTransactionMode,
    body: (store: IDBObjectStore, done: (value: T) => void, fail: (error: Error) => void) => void,
  ): Promise<T> {
    const target = path === "" ? "" : ` "${path}"`;
    return new Promise<T>((resolve, reject) => {
      let transaction: IDBTransaction;
      try {
        transaction = this.#usable(operation).transaction(STORE, mode);
      } catch (err) {
        reject(
          err instanceof Error && err.message.startsWith("BrowserStorage")
            ? err
            : new Error(`BrowserStorage "${this.name}": ${operation}${target} failed: ${messageOf(err)}`),
        );
        return;
      }
      let value: T | undefined;
      let failure: Error | undefined;
      transaction.oncomplete = () => resolve(value as T);
      transaction.onabort = () => {
        reject(
          failure ??
            new Error(
              `BrowserStorage "${this.name}": ${operation}${target} failed: ${transaction.error ? messageOf(transaction.error) : "the transaction was aborted"}; nothing was changed`,
            ),
        );
      };
      const fail = (error: Error): void => {
        failure = error;
        try {
          transaction.abort();
        } catch {
          // Already finished: onabort/oncomplete decides.
        }
      };
      try {
        body(
          transaction.objectStore(STORE),
          (v) => {
            value = v;
          },
          fail,
        );
      } catch (err) {
        fail(new Error(`BrowserStorage "${this.name}": ${operation}${target} failed: ${messageOf(err)}`));
      }
    });
  }

  #broadcast(change: StorageChange): void {
    const message: ChangeMessage = { kind: MESSAGE_KIND, path: change.path, version: change.version ?? null };
    try {
      this.#channel?.postMessage(message);
    } catch {
      // The channel was closed meanwhile: nobody to tell.
    }
  }

  #notify(change: StorageChange): void {
    for (const { listener } of [...this.#listeners]) {
      try {
        listener({ ...change });
      } catch (err) {
        // A failing listener must not break the storage or the other listeners.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
