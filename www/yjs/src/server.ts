// The embedded Hocuspocus server (Node): 127.0.0.1, documents persisted as one file per
// document in a folder (extension-database; written atomically), no sqlite to build.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Server } from "@hocuspocus/server";
import { Database } from "@hocuspocus/extension-database";
import type { Extension } from "@hocuspocus/server";

export interface CollabServerOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind; default 127.0.0.1. */
  host?: string;
  /** Folder for the documents (`<encoded name>.ydoc`); created if missing. */
  directory: string;
  /**
   * Checks a client's token for a document: throw to refuse it, return "read-only" to let it
   * read without writing (docs/co-editing.md §Auth).
   */
  authenticate?: (token: string, documentName: string) => void | "read-only" | Promise<void | "read-only">;
  /** Milliseconds between a change and its store (Hocuspocus debounces); default 2,000. */
  debounce?: number;
  /** More extensions (e.g. @hocuspocus/extension-redis to run several instances). */
  extensions?: Extension[];
}

export interface CollabServer {
  port: number;
  /** ws://host:port */
  url: string;
  /** Stores every open document and closes every connection. */
  destroy(): Promise<void>;
  server: Server;
}

/** The file of a document name: every character outside [A-Za-z0-9._-] percent-encoded. */
export function documentFile(directory: string, name: string): string {
  return join(directory, `${name.replace(/[^A-Za-z0-9._-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`)}.ydoc`);
}

/** Starts a server; resolves once it listens. Cost: ~50-250 ms. */
export async function startCollabServer(options: CollabServerOptions): Promise<CollabServer> {
  const { directory } = options;
  if (typeof directory !== "string" || directory === "") throw new TypeError("startCollabServer needs { directory }: the folder its documents are stored in");
  await mkdir(directory, { recursive: true });
  const authenticate = options.authenticate;
  const server = new Server({
    address: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    quiet: true,
    stopOnSignals: false,
    debounce: options.debounce ?? 2_000,
    extensions: [
      new Database({
        fetch: async ({ documentName }) => {
          try {
            return new Uint8Array(await readFile(documentFile(directory, documentName)));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
            throw err;
          }
        },
        store: async ({ documentName, state }) => {
          // Atomic: a crash mid-write leaves the previous state, never half a file.
          const file = documentFile(directory, documentName);
          const tmp = `${file}.${process.pid}.tmp`;
          await writeFile(tmp, state);
          await rename(tmp, file);
        },
      }),
      ...(options.extensions ?? []),
    ],
    ...(authenticate === undefined
      ? {}
      : {
          async onAuthenticate({ token, documentName, connectionConfig }: { token: string; documentName: string; connectionConfig: { readOnly: boolean } }) {
            if ((await authenticate(token, documentName)) === "read-only") connectionConfig.readOnly = true;
          },
        }),
  });
  await server.listen();
  const port = server.address.port;
  return { port, url: `ws://${options.host ?? "127.0.0.1"}:${port}`, server, destroy: () => server.destroy() };
}

/**
 * `connectHocuspocus` in Node, with `ws` as the WebSocket (Node 20 has none). Same options,
 * same errors.
 */
export async function connectHocuspocusNode(options: Omit<import("./hocuspocus.js").ConnectOptions, "WebSocketPolyfill">): Promise<import("./hocuspocus.js").Room> {
  const [{ connectHocuspocus }, { default: WebSocket }] = await Promise.all([import("./hocuspocus.js"), import("ws")]);
  return connectHocuspocus({ ...options, WebSocketPolyfill: WebSocket });
}
