// Shared by the @agentpad/yjs tests: a person's editor (a Y.Doc on its own socket) and waiting
// (a server in its own process: server-process.mjs).
import * as Y from "yjs";
import WebSocket from "ws";
import { HocuspocusProvider } from "@hocuspocus/provider";

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
