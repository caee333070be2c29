// Memory for one document (spawned by suites/memory.mjs as `node --expose-gc`, so the wasm memory
// starts fresh — it only grows — and gc() can be called before each reading): the JS peers' heap
// for the same work first, then agentpad's wasm linear memory. Prints one JSON line (bytes).
//
//   node --expose-gc bench/speed/children/memory.mjs KIND-SIZE

import { generate, parseDocList, spreadNeedles } from "../lib/docs.mjs";
import { indexOfReplaceUnique, sliceJoin } from "../lib/peers.mjs";

if (typeof gc !== "function") throw new Error("run with node --expose-gc");
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const CHANGES = 26;
const PATH = "doc.md";
const edited = (needle, i) => `${needle} // edit ${String(i + 1).padStart(2, "0")}`;

const [[kind, size]] = parseDocList(process.argv[2] ?? "code-10MB");
const h0 = heap();
let text = generate(kind, size).text;
const hText = heap();
const changes = spreadNeedles(text, CHANGES).map((s, i) => ({ old_text: s.text, new_text: edited(s.text, i) }));
const hChanges = heap();

// JS peer 1: every pending draft kept (one per change: the 26 slice-replacements, each on the
// previous draft after an indexOf uniqueness check — which makes V8 flatten the draft it searches).
let drafts = [];
{
  let d = text;
  for (const c of changes) {
    const r = indexOfReplaceUnique(d, c.old_text, c.new_text);
    if (r.status !== "Success") throw new Error(`drafts: ${r.status}`);
    d = r.text;
    drafts.push(d);
  }
}
const hDrafts = heap();
const finalDraft = drafts[drafts.length - 1];
const expectedLength = finalDraft.length;
drafts = null;
heap();

// JS peer 2: the text, the 26 edits by offset, and the one current draft (sort + slice + join).
const hEditsBefore = heap();
let edits = changes.map((c) => ({ at: text.indexOf(c.old_text), old_text: c.old_text, new_text: c.new_text }));
let draft = sliceJoin(text, edits);
const hEdits = heap();
const jsOk = draft.length === expectedLength && draft === finalDraft;
edits = null;
draft = null;

// agentpad: the wasm linear memory after loading, after opening the document, after staging.
const { MemoryStorage, Workspace, memoryBytes } = await import("@agentpad/core");
const hWasmBefore = heap();
const empty = await Workspace.create({ storage: new MemoryStorage({}) });
const mLoaded = memoryBytes();
const ws = await Workspace.create({ storage: new MemoryStorage({ [PATH]: text }) });
const mOpened = memoryBytes();
let failed = 0;
let last;
for (const c of changes) {
  last = await ws.call("memo_replace", c);
  if (last.status !== "Success") failed++;
}
const mStaged = memoryBytes();
const hWasm = heap();
const wasmOk = failed === 0 && last.pending_changes.length === CHANGES && ws.draft() === finalDraft;
ws.free();
empty.free();

console.log(JSON.stringify({
  doc: `${kind}-${size}`,
  utf8_bytes: Buffer.byteLength(text, "utf8"),
  utf16_units: text.length,
  js: {
    text_bytes: hText - h0,
    changes_bytes: hChanges - hText,
    drafts_bytes: hDrafts - h0,
    drafts_pending_bytes: hDrafts - hChanges,
    edits_bytes: hEdits - hEditsBefore + (hChanges - h0),
    edits_pending_bytes: hEdits - hEditsBefore,
    ok: jsOk,
  },
  wasm: {
    loaded_bytes: mLoaded,
    opened_bytes: mOpened,
    staged_bytes: mStaged,
    js_heap_bytes: hWasm - hWasmBefore,
    ok: wasmOk,
    failed,
  },
}));
