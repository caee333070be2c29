// Matching, side by side in one run: agentpad (wasm, through the package) vs the JavaScript a
// user would write instead. The native side (criterion, bench/native/matching.rs) measures the same
// work on the same documents; the report puts them together.
//
// work           agentpad-wasm                               JS peers
// locate-unique  memo_replace → Success (stage + preview)    indexOf: uniqueness check + slice + new string
//                                                            indexOf+diff: the same + diff.createTwoFilesPatch
// locate-all     memo_replace → MultiMatch (count + A–E)     indexOf: loop collecting every hit
// fuzzy          memo_replace, needle indented differently   trim-lines: exact indexOf, then trim-and-compare
//                (no exact hit; a fuzzy tier must find it)    line windows
//
// Besides the documents of the run, `words-SIZE` for each size among them (lib/docs.mjs
// generateWords: lines of twelve common words and a number), locate-unique only: a unique needle
// whose trigrams are everywhere, so the exact search's block index skips nothing — the other end
// of the range from the code documents' rare needle. AGENTPAD_BENCH_WORDS=0 leaves them out.
//
// Every result is checked against a reference computed independently (and untimed); a wrong
// result is reported as wrong, and the report never turns it into a ratio.

import { generateWords } from "../lib/docs.mjs";
import { measure } from "../lib/measure.mjs";
import {
  indexOfDiffReplaceUnique,
  indexOfReplaceUnique,
  lineOf,
  record as recordIn,
  referenceHits,
  sameArray,
  stepper,
} from "../lib/peers.mjs";

const PATH = "bench.txt";
const SUITE = "matching";

// ------------------------------------------------------------------ JS peers ---
// indexOf / indexOf+diff for locate-unique live in ../lib/peers.mjs (the session suite uses them too).

function indexOfAll(text, needle) {
  const hits = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) hits.push(i);
  return hits;
}

/** Exact first; when that fails, every window of lines equal to the needle's lines after trim(). */
function trimLinesFind(text, needle) {
  const exact = text.indexOf(needle);
  if (exact >= 0) return { exact: true, lines: [lineOf(text, exact)] };
  const want = needle.split("\n").map((l) => l.trim());
  const lines = text.split("\n");
  const found = [];
  outer: for (let i = 0; i + want.length <= lines.length; i++) {
    for (let j = 0; j < want.length; j++) {
      if (lines[i + j].trim() !== want[j]) continue outer;
    }
    found.push(i + 1);
  }
  return { exact: false, lines: found };
}

// --------------------------------------------------------------------- suite ---

const record = (...args) => recordIn(SUITE, ...args);

/**
 * ctx: { docs: [{name, text, needles}], Workspace, MemoryStorage, log }
 * Returns the result records.
 */
export async function run({ docs, Workspace, MemoryStorage, log }) {
  const results = [];
  const words = process.env.AGENTPAD_BENCH_WORDS === "0" ? [] : [...new Set(docs.map((d) => d.size))].map(generateWords);
  for (const doc of [...docs, ...words]) {
    const { text, needles } = doc;
    log(`matching: ${doc.name} (${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB): opening the workspace`);
    const ws = await Workspace.create({ storage: new MemoryStorage({ [PATH]: text }) });
    const { revert, step } = stepper(SUITE, ws, doc, results, log);
    try {
      // ---- locate-unique: one exact hit, staged with a compact preview.
      {
        const work = "locate-unique";
        const newText = `${needles.unique} // edited`;
        const refHits = referenceHits(text, needles.unique);
        if (refHits.length !== 1) throw new Error(`${doc.name}: the unique needle occurs ${refHits.length} times`);
        const at = refHits[0];
        const expected = text.slice(0, at) + newText + text.slice(at + needles.unique.length);
        const line = lineOf(text, at);

        await step(work, "agentpad-wasm", "wasm", async () => {
          const args = { old_text: needles.unique, new_text: newText };
          const w = await measure(() => ws.call("memo_replace", args), { after: revert });
          // Check the last run's response, then stage once more to compare the whole draft.
          const r = w.last;
          const c = r.pending_changes[0];
          let ok = r.status === "Success" && r.pending_changes.length === 1 && c.position === at && c.line === line &&
            typeof r.preview === "string" && r.preview.length > 0;
          let detail = `status ${r.status}, line ${c?.line ?? "-"} (expected ${line}), preview ${r.preview?.length ?? 0} chars`;
          if (ok) {
            await ws.call("memo_replace", args);
            if (ws.draft() !== expected) {
              ok = false;
              detail += "; the staged draft differs from the expected text";
            }
            await revert();
          }
          return record(work, doc, "agentpad-wasm", "wasm", w, ok, detail);
        });

        await step(work, "indexOf", "js", async () => {
          const j = await measure(() => indexOfReplaceUnique(text, needles.unique, newText));
          const r = j.last;
          return record(work, doc, "indexOf", "js", j, r.status === "Success" && r.at === at && r.text === expected,
            `status ${r.status}, offset ${r.at}`);
        });

        await step(work, "indexOf+diff", "js", async () => {
          const d = await measure(() => indexOfDiffReplaceUnique(text, needles.unique, newText, PATH));
          const r = d.last;
          const ok = r.status === "Success" && r.text === expected &&
            r.patch.includes(`\n-${needles.unique}\n`) && r.patch.includes(`\n+${newText}\n`);
          return record(work, doc, "indexOf+diff", "js", d, ok, `status ${r.status}, patch ${r.patch?.length ?? 0} chars`);
        });
      }

      // ---- locate-all: a 30-char needle with many hits.
      if (doc.kind !== "words") {
        const work = "locate-all";
        const refHits = referenceHits(text, needles.all);
        log(`matching: ${doc.name} ${work}: ${refHits.length} hits`);
        await step(work, "agentpad-wasm", "wasm", async () => {
          const args = { old_text: needles.all, new_text: `${needles.all}_edited` };
          const w = await measure(() => ws.call("memo_replace", args), { after: revert });
          const r = w.last;
          const shown = r.candidates.map((c) => c.context_start);
          const ok = r.status === "MultiMatch" && r.metrics.selection_count === refHits.length &&
            shown.length > 0 && sameArray(shown, refHits.slice(0, shown.length));
          return record(work, doc, "agentpad-wasm", "wasm", w, ok,
            `status ${r.status}, selection_count ${r.metrics.selection_count} (expected ${refHits.length}), ${shown.length} candidates listed`);
        });

        await step(work, "indexOf", "js", async () => {
          const j = await measure(() => indexOfAll(text, needles.all));
          return record(work, doc, "indexOf", "js", j, sameArray(j.last, refHits), `${j.last.length} hits (expected ${refHits.length})`);
        });
      }

      // ---- fuzzy: no exact hit; the needle's indentation differs from the document's.
      if (doc.kind !== "words") {
        const work = "fuzzy";
        const blockAt = referenceHits(text, needles.fuzzyDoc);
        if (blockAt.length !== 1 || text.includes(needles.fuzzy)) throw new Error(`${doc.name}: bad fuzzy fixture`);
        const line = lineOf(text, blockAt[0]);
        await step(work, "agentpad-wasm", "wasm", async () => {
          const args = { old_text: needles.fuzzy, new_text: `${needles.fuzzy}\n  // checked` };
          const w = await measure(() => ws.call("memo_replace", args), { after: revert });
          const r = w.last;
          const ok = r.status === "Success" && r.match_quality !== "exact" && r.pending_changes[0]?.line === line;
          return record(work, doc, "agentpad-wasm", "wasm", w, ok,
            `status ${r.status}, match_quality ${r.match_quality}, line ${r.pending_changes[0]?.line ?? "-"} (expected ${line})`);
        });

        await step(work, "trim-lines", "js", async () => {
          const j = await measure(() => trimLinesFind(text, needles.fuzzy));
          const r = j.last;
          return record(work, doc, "trim-lines", "js", j, !r.exact && sameArray(r.lines, [line]),
            `found lines ${r.lines.join(",") || "none"} (expected ${line})`);
        });
      }
    } finally {
      ws.free();
    }
  }
  return results;
}
