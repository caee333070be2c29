// Public API of the agentpad package. The runtime entry points are node.ts (Node) and
// browser.ts (browsers and bundlers); both export this, plus their storage provider
// (NodeFsStorage in Node, BrowserStorage in browsers).
export { Workspace, MAX_DOCUMENT_BYTES } from "./workspace.js";
export { memoryBytes } from "./loader.js";
export { MemoryStorage } from "./storage.js";
export { validateResponse } from "./validate.js";
export { isErrorStatus, strictSchema } from "./adapters.js";
export {
  TRANSCRIPT_FORMAT,
  TranscriptPlayer,
  compareResponse,
  firstDifferentLine,
  isHostStep,
  isToolStep,
  parseTranscript,
  recordTranscript,
  replayTranscript,
  stepTime,
} from "./transcript.js";
export type {
  Difference,
  HostStep,
  ReplayOptions,
  ReplayReport,
  ReplayedStep,
  SayStep,
  ToolStep,
  Transcript,
  TranscriptExpectation,
  TranscriptOptions,
  TranscriptStep,
} from "./transcript.js";
export type * from "./types.js";
export { HISTORY_FORMATS, LOCALES } from "./types.js";
// The core's options with their kinds, defaults and docs, for hosts that build flags or forms.
export { CORE_OPTIONS } from "./generated/options.js";
