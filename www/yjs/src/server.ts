// The embedded Hocuspocus server (Node): 127.0.0.1, documents in a folder (store.ts): an
// update is acknowledged only once it is in the document's log on disk, snapshots compact the
// log, a plain-text copy sits beside each (docs/co-editing.md §What stored means).
import { mkdir, open, readFile, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import * as decoding from "lib0/decoding";
import * as Y from "yjs";
import { Server } from "@hocuspocus/server";
import type { Extension } from "@hocuspocus/server";
import { FileStore, documentBase, type StoreStatus } from "./store.js";

export { documentBase, legacyDocumentFile, listDocuments, readDocument } from "./store.js";

/**
 * The awareness field the server sets on a document while storing it fails, and clears when it
 * works again (docs/co-editing.md §When storing fails). Clients read it from the awareness
 * state of any client that carries it.
 */
export const STORE_STATUS_FIELD = "agentpadStore";

/** The value of {@link STORE_STATUS_FIELD}. */
export interface StoreStatusState {
  document: string;
  /** "log": updates are not acknowledged (held) until the server can write; "snapshot": they are, only compaction fails. */
  failing: "log" | "snapshot";
  error: string;
  /** Epoch milliseconds of the first failure. */
  since: number;
}

export interface CollabServerOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind; default 127.0.0.1. */
  host?: string;
  /** Folder for the documents; created if missing. One server per folder (a lock file says so). */
  directory: string;
  /**
   * Checks a client's token for a document: throw to refuse it, return "read-only" to let it
   * read without writing (docs/co-editing.md §Auth).
   */
  authenticate?: (token: string, documentName: string) => void | "read-only" | Promise<void | "read-only">;
  /** Milliseconds between a change and its snapshot (Hocuspocus debounces); default 2,000. Acknowledged updates are in the log meanwhile. */
  debounce?: number;
  /** fdatasync each log write before acknowledging it (default true). false: acknowledged once the OS has it (survives the server process, not the machine). */
  fsync?: boolean;
  /** One line per connection, disconnection, load, store and failure (default: none). */
  log?: (line: string) => void;
  /**
   * More Hocuspocus extensions (e.g. @hocuspocus/extension-redis to run several instances).
   * Typed as objects: Hocuspocus 3's declarations do not compile in a strict NodeNext project,
   * so this package's types never import them (docs/decisions.md#hocuspocus-server-3-on-node-20).
   */
  extensions?: object[];
}

/** The running Hocuspocus `Server` (typed loosely, see `extensions`). */
export interface HocuspocusServer {
  /** The Hocuspocus instance: its `documents` are the loaded documents. */
  hocuspocus: { documents: Map<string, Y.Doc>; getDocumentsCount(): number };
  destroy(): Promise<void>;
}

export interface CollabServer {
  port: number;
  /** ws://host:port */
  url: string;
  /** Writes every open document's snapshot, closes every connection, releases the folder. */
  destroy(): Promise<void>;
  server: HocuspocusServer;
  /** The folder's files. */
  store: FileStore;
}

/** The snapshot file of a document name (`<readable prefix>-<hash>.ydoc`). */
export function documentFile(directory: string, name: string): string {
  return join(directory, `${documentBase(name)}.ydoc`);
}

/** Whether a message to a client is Hocuspocus's acknowledgement of an update (SyncStatus). */
function isAck(message: Uint8Array): boolean {
  const d = decoding.createDecoder(message);
  decoding.readVarString(d);
  return decoding.readVarUint(d) === 8;
}

/** The update a Hocuspocus sync message carries (sync step 2 or update), if it is one. */
function syncUpdate(message: Uint8Array): { step: number; update: Uint8Array } | undefined {
  const d = decoding.createDecoder(message);
  decoding.readVarString(d); // document name
  const type = decoding.readVarUint(d);
  if (type !== 0 && type !== 4) return undefined; // Sync, SyncReply
  const step = decoding.readVarUint(d);
  if (step !== 1 && step !== 2) return undefined; // step 2, update
  const update = decoding.readVarUint8Array(d);
  return update.length === 2 && update[0] === 0 && update[1] === 0 ? undefined : { step, update }; // empty: nothing to keep
}

const locked = new Set<string>();

/** One server per folder: a second would interleave logs. A lock left by a dead process is taken over. */
async function lockFolder(directory: string): Promise<() => Promise<void>> {
  const dir = resolve(directory);
  const file = join(dir, "agentpad-server.pid");
  if (locked.has(dir)) throw new Error(`${directory} is already served by this process`);
  for (;;) {
    try {
      const h = await open(file, "wx");
      await h.writeFile(`${process.pid}\n`);
      await h.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number((await readFile(file, "utf8").catch(() => "")).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new Error(`${directory} is served by another agentpad-collab-server (pid ${pid}); stop it or use another folder`);
      }
      await unlink(file).catch(() => {});
    }
  }
  locked.add(dir);
  return async () => {
    locked.delete(dir);
    await unlink(file).catch(() => {});
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Starts a server; resolves once it listens. Cost: ~50-250 ms. */
export async function startCollabServer(options: CollabServerOptions): Promise<CollabServer> {
  const { directory } = options;
  if (typeof directory !== "string" || directory === "")
    throw new TypeError("startCollabServer needs { directory }: the folder its documents are stored in");
  await mkdir(directory, { recursive: true });
  const unlock = await lockFolder(directory);
  const authenticate = options.authenticate;
  const log = options.log ?? (() => {});
  let server: Server | undefined;
  const statusOf = (status: StoreStatus | undefined, name: string): StoreStatusState | undefined =>
    status === undefined ? undefined : { document: name, failing: status.what, error: status.error, since: status.since };
  const store = new FileStore(directory, {
    ...(options.fsync === undefined ? {} : { fsync: options.fsync }),
    log,
    onStatus(name, status) {
      // The document's own awareness: every client of it sees the state, and so does one that connects later.
      const doc = server?.hocuspocus.documents.get(name);
      doc?.awareness.setLocalState(status === undefined ? null : { [STORE_STATUS_FIELD]: statusOf(status, name) });
    },
  });
  /**
   * Per connection, the log writes its acknowledgements wait for. An update is applied and
   * broadcast at once; only its acknowledgement (SyncStatus, what the provider counts as
   * stored) waits until the update is in the log (docs/co-editing.md §What stored means).
   */
  const durable = new WeakMap<object, Promise<void>>();
  const gateAcks = (connection: { send(message: Uint8Array): void }) => {
    if (durable.has(connection)) return;
    const send = connection.send.bind(connection);
    connection.send = (message: Uint8Array) => {
      const wait = durable.get(connection);
      if (wait !== undefined && isAck(message)) void wait.then(() => send(message));
      else send(message);
    };
  };
  const files: Extension = {
    async onLoadDocument({ documentName, document }) {
      const started = performance.now();
      const r = await store.load(documentName, document);
      log(
        `loaded ${documentName} (${r.snapshotBytes} bytes${r.legacy ? " from a legacy file" : ""}, ${r.logged} logged update${r.logged === 1 ? "" : "s"}) in ${(performance.now() - started).toFixed(1)} ms`,
      );
      // Replayed updates or a legacy file: write a snapshot now, so logs never pile up across restarts.
      if (r.logged > 0 || r.legacy) await store.compact(documentName, document).catch(() => {});
    },
    async afterLoadDocument({ documentName, document }) {
      // A failure during load was reported before the document was listed: publish it now.
      const status = store.status(documentName);
      if (status !== undefined) document.awareness.setLocalState({ [STORE_STATUS_FIELD]: statusOf(status, documentName) });
    },
    async beforeHandleMessage({ connection, update, documentName, document }) {
      // A read-only connection's writes are never applied: never logged either.
      const payload = connection.readOnly ? undefined : syncUpdate(update);
      if (payload === undefined) return;
      // A reconnecting client's sync step 2 often holds nothing new: not logged again (checked
      // once per connection; per keystroke the check would cost more than the write).
      if (payload.step === 1 && Y.snapshotContainsUpdate(Y.snapshot(document), payload.update)) return;
      gateAcks(connection);
      // Retried until it succeeds; rejected only for a document no longer loaded here: then it
      // is never acknowledged (the client keeps it and sends it again on its next connection).
      const written = store.append(documentName, payload.update).catch((err: Error) => {
        log(`not acknowledged: an update of ${documentName}: ${err.message}`);
        return new Promise<void>(() => {});
      });
      durable.set(
        connection,
        Promise.all([durable.get(connection), written]).then(() => {}),
      );
    },
    async onStoreDocument({ documentName, document }) {
      // Never throws: Hocuspocus would leave the rejection unhandled; the store reports and retries itself.
      await store.compact(documentName, document).catch(() => {});
    },
    async afterUnloadDocument({ documentName }) {
      await store.release(documentName);
    },
    async connected({ documentName, socketId, connection }) {
      log(
        `connected ${documentName} (socket ${socketId}${(connection as { readOnly?: boolean } | undefined)?.readOnly ? ", read-only" : ""})`,
      );
    },
    async onDisconnect({ documentName, socketId, clientsCount }) {
      log(`disconnected ${documentName} (socket ${socketId}, ${clientsCount} left)`);
    },
  };
  server = new Server({
    address: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    quiet: true,
    stopOnSignals: false,
    debounce: options.debounce ?? 2_000,
    extensions: [files, ...((options.extensions ?? []) as Extension[])],
    ...(authenticate === undefined
      ? {}
      : {
          async onAuthenticate({
            token,
            documentName,
            connectionConfig,
          }: {
            token: string;
            documentName: string;
            connectionConfig: { readOnly: boolean };
          }) {
            if ((await authenticate(token, documentName)) === "read-only") connectionConfig.readOnly = true;
          },
        }),
  });
  try {
    await server.listen();
  } catch (err) {
    await unlock();
    throw err;
  }
  const s = server;
  const port = s.address.port;
  let destroying: Promise<void> | undefined;
  return {
    port,
    url: `ws://${options.host ?? "127.0.0.1"}:${port}`,
    server: s,
    store,
    destroy: () =>
      (destroying ??= (async () => {
        // Snapshot everything first: Hocuspocus stores on the last disconnect only what is debounced.
        await Promise.all([...s.hocuspocus.documents].map(([name, doc]) => store.compact(name, doc).catch(() => {})));
        await s.destroy();
        await unlock();
      })()),
  };
}

/**
 * `connectHocuspocus` in Node, with `ws` as the WebSocket (Node 20 has none). Same options,
 * same errors.
 */
export async function connectHocuspocusNode(
  options: Omit<import("./hocuspocus.js").ConnectOptions, "WebSocketPolyfill">,
): Promise<import("./hocuspocus.js").Room> {
  const [{ connectHocuspocus }, { default: WebSocket }] = await Promise.all([import("./hocuspocus.js"), import("ws")]);
  return connectHocuspocus({ ...options, WebSocketPolyfill: WebSocket });
}
