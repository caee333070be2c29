// What the co-editing benches (bench/coedit/) import, resolved from this package's own
// node_modules: one copy of Yjs, the Hocuspocus server and provider in the process. A second
// copy (installed beside the benches) breaks Yjs's constructor checks wherever objects cross:
// the Redis extension applying updates to the server's documents never converged
// (docs/decisions.md#one-home-for-the-benchmarks).
export * as Y from "yjs";
export { default as WebSocket } from "ws";
export { HocuspocusProvider } from "@hocuspocus/provider";
export { Redis } from "@hocuspocus/extension-redis";
export { Workspace } from "@agentpad/core";
export { connectHocuspocusNode, startCollabServer } from "../dist/server.js";
