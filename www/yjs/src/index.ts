// @agentpad/yjs: agentpad's storage over Yjs (docs/co-editing.md). The Hocuspocus client is
// `@agentpad/yjs/hocuspocus`, the embedded server `@agentpad/yjs/server` (Node).
export { YjsStorage, localDocuments, TEXT_NAME, INDEX_NAME, type YjsDocuments, type YjsStorageChange } from "./storage.js";
export { applyEdits, deltaToEdits, editBetween, joinStored, splitStored, splitsPair, type TextFormat } from "./text.js";
export {
  AWARENESS_FIELD,
  publishAgentState,
  resolveAgentRanges,
  type AgentAwareness,
  type AgentRange,
  type AwarenessLike,
  type ResolvedRange,
  type ResponseLike,
} from "./awareness.js";
