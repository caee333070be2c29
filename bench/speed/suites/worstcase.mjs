// The worst case per tier: each shape of ../lib/worst.mjs at each tier's size, one memo_replace
// through the package (wasm) per run. Every call of SHAPES must answer NoMatch (the needle
// matches nowhere); every call of MANY_SHAPES (text found in very many places) its own answer —
// "more than N places", or every place staged. The report shows each shape's median, the
// slowest shape per tier, and the target (docs/reliability.md §Matching time and read size: no
// call over 250 ms in wasm up to 10 MB).
// There is no JS peer: no JavaScript library does this search; the native column is
// bench/native/matching.rs's worst-case group on the same inputs.
//
// Tiers: AGENTPAD_BENCH_WORST_TIERS (default "1MB,10MB").

import { measure } from "../lib/measure.mjs";
import { guarded, record } from "../lib/peers.mjs";
import { DEFAULT_TIERS, MANY_SHAPES, SHAPES, fnv1a32, tierBytes } from "../lib/worst.mjs";

const SUITE = "worstcase";
const PATH = "worst.txt";

export async function run({ Workspace, MemoryStorage, log }) {
  const results = [];
  const tiers = (process.env.AGENTPAD_BENCH_WORST_TIERS || DEFAULT_TIERS).split(",").map((t) => t.trim()).filter(Boolean);
  for (const tier of tiers) {
    const bytes = tierBytes(tier);
    const doc = { name: `worst-${tier}` };
    for (const [shape, , make] of SHAPES) {
      const { text, needle } = make(bytes);
      const work = `worst-${shape}`;
      log(`worstcase: ${shape} at ${tier} (${(text.length / 1e6).toFixed(1)} MB, needle ${needle.length} B)`);
      const ws = await Workspace.create({ storage: new MemoryStorage({ [PATH]: text }) });
      await guarded(SUITE, results, work, doc, "agentpad-wasm", "wasm", async () => {
        // A NoMatch stages nothing, so every run starts from the same state. A shape slower than
        // a second per call gets 3 timed runs, not 7.
        const m = await measure(() => ws.call("memo_replace", { old_text: needle, new_text: "x", path: PATH }), { slow: { ms: 1000, runs: 3 } });
        const last = m.last;
        // A search stopped at its work budget (src/matching/work.rs) is also NoMatch, but it did
        // not finish: the shapes must finish within the budget, so that counts as wrong.
        const stopped = /stopped after \d+ candidate/.test(last?.summary ?? "");
        const correct = last?.status === "NoMatch" && !stopped;
        const detail = stopped ? "NoMatch, but the search stopped at its work budget" : correct ? `NoMatch, ${last.markdown.length} B response` : `status ${last?.status}`;
        return {
          ...record(SUITE, work, doc, "agentpad-wasm", "wasm", m, correct, detail),
          shape_fnv1a32: fnv1a32(text + "\u0000" + needle).toString(16).padStart(8, "0"),
          shape_bytes: text.length,
          needle_bytes: needle.length,
        };
      });
    }
    // Text found in very many places: the answer must be the shape's own (a search stopped
    // past its cap, or every place staged); a Success is reverted, untimed, so each run starts
    // alike.
    for (const [shape, , make] of MANY_SHAPES) {
      const { text, tool, args, expect } = make(bytes);
      const work = `worst-${shape}`;
      log(`worstcase: ${shape} at ${tier} (${(text.length / 1e6).toFixed(1)} MB, ${tool})`);
      const ws = await Workspace.create({ storage: new MemoryStorage({ [PATH]: text }) });
      await guarded(SUITE, results, work, doc, "agentpad-wasm", "wasm", async () => {
        const m = await measure(() => ws.call(tool, { ...args, path: PATH }), {
          after: async (r) => {
            if (r?.status === "Success") await ws.call("memo_revert", { reason: "benchmark run" });
          },
          slow: { ms: 1000, runs: 3 },
        });
        const last = m.last;
        const correct = expect(last);
        const detail = correct ? `${last.status}: ${last.summary}` : `status ${last?.status}: ${last?.summary}`;
        return {
          ...record(SUITE, work, doc, "agentpad-wasm", "wasm", m, correct, detail),
          shape_bytes: text.length,
        };
      });
    }
  }
  return results;
}
