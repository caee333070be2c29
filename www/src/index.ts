// Public API of the agentpad package. The runtime entry points are node.ts (Node) and
// browser.ts (browsers and bundlers); both export exactly this.
export { Workspace } from "./workspace.js";
export { memoryBytes } from "./loader.js";
export { MemoryStorage } from "./storage.js";
export type * from "./types.js";
