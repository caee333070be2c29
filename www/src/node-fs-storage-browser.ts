// NodeFsStorage in the browser entry: the same name and type as in the Node entry, so an import
// type-checks under every moduleResolution (a bundler's resolves the "default" condition, which
// is this entry), and constructing it says which entry has the real one
// (docs/decisions.md#one-set-of-names-in-every-entry). Type-only import: no node:fs here.
import type { NodeFsStorage as NodeFsStorageClass } from "./node-fs-storage.js";

export type { NodeFsStorageOptions } from "./node-fs-storage.js";

export const NODE_ONLY_MESSAGE =
  "agentpad: NodeFsStorage needs Node's file system, and this is @agentpad/core's browser entry " +
  '(dist/browser.js, the package\'s "default" export condition). Node picks the Node entry ' +
  '(dist/agentpad.node.js, the "node" condition) by itself; a bundler building server code must ' +
  'resolve the "node" condition (Vite: an SSR build or resolve.conditions: ["node"]; esbuild: ' +
  "--platform=node). In a browser use BrowserStorage (IndexedDB) or MemoryStorage.";

export const NodeFsStorage = class NodeFsStorage {
  constructor() {
    throw new Error(NODE_ONLY_MESSAGE);
  }
} as unknown as typeof NodeFsStorageClass;
export type NodeFsStorage = NodeFsStorageClass;
