// Hocuspocus out of the box: the index and every document of a room on one websocket
// (docs/co-editing.md §Hocuspocus). Document names are `<room>` for the index and
// `<room>/<path>` for each document.
import * as Y from "yjs";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { YjsStorage, type YjsDocuments } from "./storage.js";

export interface ConnectOptions {
  /** The server's websocket URL, e.g. ws://127.0.0.1:1234. */
  url: string;
  /** The room: the prefix of every document name. */
  room: string;
  /** Sent to the server's onAuthenticate hook. */
  token?: string;
  /** Node 20 has no global WebSocket: pass `ws`'s WebSocket. Browsers need nothing. */
  WebSocketPolyfill?: unknown;
  /**
   * Milliseconds to wait for each document's first sync; default 10,000. `Infinity`: wait for as
   * long as it takes (the socket keeps reconnecting; follow it with `onStatus`).
   */
  syncTimeoutMs?: number;
  /** Called with the socket's status ("connecting", "connected", "disconnected") from the start, before the first sync too. */
  onStatus?: (status: string) => void;
  /** Reconnect delays (ms) of the socket; defaults 100 / 100 / 2,000. */
  delay?: number;
  minDelay?: number;
  maxDelay?: number;
}

/** A room: the storage, the providers (one per document, awareness included), and teardown. */
export interface Room {
  storage: YjsStorage;
  documents: YjsDocuments;
  socket: HocuspocusProviderWebsocket;
  /** The provider of `path` (after the storage opened it), for its awareness. */
  provider(path: string): HocuspocusProvider | undefined;
  /** The provider of the index doc. */
  indexProvider: HocuspocusProvider;
  /**
   * Waits (at most `timeoutMs`, default 5,000) until the server has acknowledged every local
   * change, then destroys the providers and the socket. Resolves with the documents whose
   * changes it had not acknowledged by then — dropped with this process unless another client
   * holds them (docs/co-editing.md §Stored); empty when nothing is lost. Destroys at once when
   * nothing is waiting.
   */
  destroy(options?: { timeoutMs?: number }): Promise<{ unstored: string[] }>;
  /** Whether the server gave this connection read-only access (the scope of its token). */
  readonly readOnly: boolean;
}

/** Resolves once `provider` has synced, rejects after `ms` or on a failed authentication. */
function synced(provider: HocuspocusProvider, name: string, ms: number): Promise<void> {
  if (provider.synced) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer =
      ms === Infinity
        ? undefined
        : setTimeout(() => reject(new Error(`Hocuspocus: "${name}" did not sync within ${ms} ms (is the server up?)`)), ms);
    provider.on("synced", () => {
      clearTimeout(timer);
      resolve();
    });
    provider.on("authenticationFailed", ({ reason }: { reason: string }) => {
      clearTimeout(timer);
      reject(new Error(`Hocuspocus: authentication failed for "${name}": ${reason}`));
    });
  });
}

/**
 * Connects to a room: one socket, one provider per document, each synced before the storage
 * uses it (the content is there at first sync). Rejects when the index does not sync within
 * `syncTimeoutMs` or authentication fails.
 */
export async function connectHocuspocus(options: ConnectOptions): Promise<Room> {
  const { url, room } = options;
  if (typeof url !== "string" || !/^wss?:\/\//.test(url))
    throw new TypeError(`connectHocuspocus: url must be a ws:// or wss:// URL, got ${JSON.stringify(url)}`);
  if (typeof room !== "string" || room === "" || room.includes("/"))
    throw new TypeError(`connectHocuspocus: room must be a non-empty name without "/", got ${JSON.stringify(room)}`);
  const ms = options.syncTimeoutMs ?? 10_000;
  const socket = new HocuspocusProviderWebsocket({
    url,
    WebSocketPolyfill: options.WebSocketPolyfill as never,
    delay: options.delay ?? 100,
    minDelay: options.minDelay ?? 100,
    maxDelay: options.maxDelay ?? 2_000,
  });
  const onStatus = options.onStatus;
  if (onStatus !== undefined) socket.on("status", ({ status }: { status: string }) => onStatus(status));
  const providers = new Map<string, HocuspocusProvider>();
  const open = (name: string): HocuspocusProvider => {
    const provider = new HocuspocusProvider({ name, document: new Y.Doc(), websocketProvider: socket, token: options.token ?? null });
    provider.attach();
    return provider;
  };
  const indexProvider = open(room);
  const teardown = () => {
    for (const p of providers.values()) p.destroy();
    indexProvider.destroy();
    socket.destroy();
  };
  // What the server has not acknowledged: the index and each document (docs/co-editing.md §Stored).
  const waiting = (path?: string): string[] => {
    const out = indexProvider.hasUnsyncedChanges ? [room] : [];
    for (const [p, provider] of providers) {
      if ((path === undefined || p === path) && provider.hasUnsyncedChanges) out.push(`${room}/${p}`);
    }
    return out;
  };
  const connected = () => (socket.status as string) === "connected";
  /** Resolves once `done()` holds (checked on every unsyncedChanges event), or false after `ms`. */
  const until = (done: () => boolean, ms: number, waitOffline: boolean): Promise<boolean> => {
    if (done()) return Promise.resolve(true);
    if (!waitOffline && !connected()) return Promise.resolve(false);
    const all = [indexProvider, ...providers.values()];
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        finish(true);
      };
      const timer = setTimeout(() => finish(false), ms);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        for (const p of all) p.off("unsyncedChanges", check);
        resolve(ok);
      };
      for (const p of all) p.on("unsyncedChanges", check);
    });
  };
  const readOnlyReason = (path: string): string | undefined => {
    const p = providers.get(path);
    for (const [name, provider] of [
      [room, indexProvider],
      [`${room}/${path}`, p],
    ] as const) {
      if (provider?.authorizedScope === "readonly") {
        return `the server gave this connection read-only access to "${name}" (the scope of its token), so it would never take the write`;
      }
    }
    return undefined;
  };
  const destroy = teardown;
  try {
    await synced(indexProvider, room, ms);
  } catch (err) {
    destroy();
    throw err;
  }
  const documents: YjsDocuments = {
    index: indexProvider.document,
    async open(path) {
      const provider = open(`${room}/${path}`);
      providers.set(path, provider);
      await synced(provider, `${room}/${path}`, ms);
      return provider.document;
    },
    whenStored: (path, ackMs) => until(() => waiting(path).length === 0, ackMs, false),
    isStored: (path) => waiting(path).length === 0,
    readOnly: readOnlyReason,
  };
  const storage = new YjsStorage(documents);
  let destroyed: Promise<{ unstored: string[] }> | undefined;
  return {
    storage,
    documents,
    socket,
    indexProvider,
    provider: (path) => providers.get(path),
    get readOnly() {
      return indexProvider.authorizedScope === "readonly";
    },
    destroy(options) {
      const end = () => {
        const unstored = waiting();
        storage.destroy();
        teardown();
        return { unstored };
      };
      // Nothing waiting: torn down before this returns, as callers that do not await expect.
      if (destroyed === undefined && waiting().length === 0) destroyed = Promise.resolve(end());
      // While offline it waits too: the socket reconnects on its own (delay / maxDelay).
      destroyed ??= until(() => waiting().length === 0, options?.timeoutMs ?? 5_000, true).then(end);
      return destroyed;
    },
  };
}
