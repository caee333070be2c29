// Memory (docs/performance.md#memory): agentpad's wasm linear memory for a 10 MB document with 26 pending changes,
// against the JS heap of the same work done in JavaScript. One fresh `node --expose-gc` child per
// document (children/memory.mjs): the wasm memory only grows, so a fresh process is the only
// clean reading, and gc() runs before every heap reading.
//
// impl            what is measured                                          bytes
// agentpad-wasm   `memoryBytes()` (the package's export: the byte length of   after loading, after
//                 the wasm linear memory) after `Workspace.create` opened     opening, after staging
//                 the document and 26 `memo_replace` calls staged the 26      (= the high-water mark:
//                 spread changes (suites/session.mjs's needles)               wasm memory never shrinks)
// js-drafts       `process.memoryUsage().heapUsed` delta: the text plus every pending draft kept —
//                 26 slice-replacements, each on the previous draft after an `indexOf` uniqueness
//                 check (which makes V8 flatten the draft it searches)
// js-edits        the same delta for the lean way: the text, the 26 edits by offset, and one current
//                 draft (sort + slice + join)
//
// The document's own string (held by the caller, and by MemoryStorage in the agentpad case) is
// counted on the JS side (it is the JS peers' only copy) and not on the wasm side, whose JS heap
// delta besides the string is reported as `js_heap_bytes`. Documents: AGENTPAD_BENCH_MEMORY_DOCS
// (default code-10MB,cjk-10MB).

import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { parseDocList } from "../lib/docs.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, "../children/memory.mjs");
const SUITE = "memory";
const DOCS = process.env.AGENTPAD_BENCH_MEMORY_DOCS || "code-10MB,cjk-10MB";

export async function run({ log }) {
  const results = [];
  for (const [kind, size] of parseDocList(DOCS)) {
    const name = `${kind}-${size}`;
    log(`memory: ${name}: fresh node --expose-gc process`);
    let m;
    try {
      const out = execFileSync(process.execPath, ["--expose-gc", CHILD, name], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
      m = JSON.parse(out.trim().split("\n").pop());
    } catch (err) {
      results.push({ suite: SUITE, work: "memory", doc: name, impl: "agentpad-wasm", side: "wasm", bytes: null, correct: false, detail: `threw: ${String(err).split("\n")[0]}` });
      continue;
    }
    const mb = (x) => `${(x / 1e6).toFixed(1)} MB`;
    const base = { suite: SUITE, work: "memory", doc: name, utf8_bytes: m.utf8_bytes, utf16_units: m.utf16_units };
    results.push({
      ...base, impl: "agentpad-wasm", side: "wasm", bytes: m.wasm.staged_bytes, correct: m.wasm.ok,
      loaded_bytes: m.wasm.loaded_bytes, opened_bytes: m.wasm.opened_bytes, staged_bytes: m.wasm.staged_bytes, js_heap_bytes: m.wasm.js_heap_bytes,
      detail: `wasm linear memory: ${mb(m.wasm.loaded_bytes)} after loading, ${mb(m.wasm.opened_bytes)} after opening the document, ${mb(m.wasm.staged_bytes)} after staging 26 changes ` +
        `(${m.wasm.failed} failed; draft ${m.wasm.ok ? "matches" : "DIFFERS"}); JS heap besides the document's string: ${mb(m.wasm.js_heap_bytes)}`,
    });
    results.push({
      ...base, impl: "js-drafts", side: "js", bytes: m.js.drafts_bytes, correct: m.js.ok, pending_bytes: m.js.drafts_pending_bytes, text_bytes: m.js.text_bytes,
      detail: `heap delta: the text ${mb(m.js.text_bytes)} + the 26 drafts ${mb(m.js.drafts_pending_bytes)}`,
    });
    results.push({
      ...base, impl: "js-edits", side: "js", bytes: m.js.edits_bytes, correct: m.js.ok, pending_bytes: m.js.edits_pending_bytes, text_bytes: m.js.text_bytes,
      detail: `heap delta: the text ${mb(m.js.text_bytes)} + the edits and one draft ${mb(m.js.edits_pending_bytes)}`,
    });
  }
  return results;
}
