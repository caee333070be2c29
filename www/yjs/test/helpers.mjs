// Shared by the @agentpad/yjs tests: a person's editor (a Y.Doc on its own socket), waiting, a
// server in its own process.
import * as Y from "yjs";
import WebSocket from "ws";
import { HocuspocusProvider } from "@hocuspocus/provider";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** Resolves when `check()` is truthy; rejects after `ms` with `what`. Polls every 5 ms. */
export async function waitFor(check, what, ms = 5000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A person editing `<room>/<path>` over its own websocket, as a browser tab would. */
export async function person(url, room, path, { token } = {}) {
  const doc = new Y.Doc();
  const provider = new HocuspocusProvider({
    url,
    name: `${room}/${path}`,
    document: doc,
    WebSocketPolyfill: WebSocket,
    token: token ?? null,
    delay: 100,
    minDelay: 100,
    maxDelay: 500,
  });
  await waitFor(() => provider.synced, `the person's doc ${room}/${path} to sync`);
  const text = doc.getText("text");
  return {
    doc,
    text,
    provider,
    /** Types `s` at UTF-16 offset `at`, as the person (origin "person"). */
    type(at, s) {
      doc.transact(() => text.insert(at, s), "person");
    },
    /** A cursor at `index` that moves with the text (what an editor keeps). */
    cursor(index) {
      return Y.createRelativePositionFromTypeIndex(text, index);
    },
    /** Where `cursor` is now. */
    where(cursor) {
      return Y.createAbsolutePositionFromRelativePosition(cursor, doc)?.index;
    },
    destroy() {
      provider.destroy();
    },
  };
}

/** A free TCP port on 127.0.0.1 (bound, then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * `agentpad-collab-server` as its own process on `port`, documents in `docs`: resolves with
 * `{ url, child, kill }` once it prints `ready`; rejects after 10 s. `kill()` SIGKILLs it by pid
 * and resolves when it has exited; call it in `finally` / `t.after`.
 */
export function spawnServer(port, docs) {
  const cli = fileURLToPath(new URL("../dist/server-cli.js", import.meta.url));
  const child = spawn(process.execPath, [cli, "--port", String(port), "--dir", docs, "--debounce", "50"], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL");
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill();
      reject(new Error("the server did not print `ready` within 10 s"));
    }, 10_000);
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /ready (ws:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], child, kill });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it was ready`));
    });
  });
}
