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
  /** Milliseconds to wait for each document's first sync; default 10,000. */
  syncTimeoutMs?: number;
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
  /** Destroys the providers and the socket. */
  destroy(): void;
}

/** Resolves once `provider` has synced, rejects after `ms` or on a failed authentication. */
function synced(provider: HocuspocusProvider, name: string, ms: number): Promise<void> {
  if (provider.synced) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Hocuspocus: "${name}" did not sync within ${ms} ms (is the server up?)`)), ms);
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
  if (typeof url !== "string" || !/^wss?:\/\//.test(url)) throw new TypeError(`connectHocuspocus: url must be a ws:// or wss:// URL, got ${JSON.stringify(url)}`);
  if (typeof room !== "string" || room === "" || room.includes("/")) throw new TypeError(`connectHocuspocus: room must be a non-empty name without "/", got ${JSON.stringify(room)}`);
  const ms = options.syncTimeoutMs ?? 10_000;
  const socket = new HocuspocusProviderWebsocket({
    url,
    WebSocketPolyfill: options.WebSocketPolyfill as never,
    delay: options.delay ?? 100,
    minDelay: options.minDelay ?? 100,
    maxDelay: options.maxDelay ?? 2_000,
  });
  const providers = new Map<string, HocuspocusProvider>();
  const open = (name: string): HocuspocusProvider => {
    const provider = new HocuspocusProvider({ name, document: new Y.Doc(), websocketProvider: socket, token: options.token ?? null });
    provider.attach();
    return provider;
  };
  const indexProvider = open(room);
  const destroy = () => {
    for (const p of providers.values()) p.destroy();
    indexProvider.destroy();
    socket.destroy();
  };
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
  };
  const storage = new YjsStorage(documents);
  return {
    storage,
    documents,
    socket,
    indexProvider,
    provider: (path) => providers.get(path),
    destroy() {
      storage.destroy();
      destroy();
    },
  };
}
