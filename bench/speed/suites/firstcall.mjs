// The first call on a text the workspace has just taken, side by side with a warm call and the
// plain JS string baseline, in one Node process (docs/performance.md#edit-calls).
//
// work                 agentpad-wasm (timed)                      peers
// first-after-open     the first `memo_replace` (unique needle)   warm-call: the same call on a
//                      after `Workspace.create` opened the         workspace that has answered
//                      document (a fresh workspace per run,        calls before (what a later call
//                      created untimed)                            costs; revert untimed);
// first-after-commit   the first `memo_replace` after a           indexOf: uniqueness check +
//                      `memo_commit` of one change (a fresh        slice on the same JS string
//                      workspace per run: create, stage, commit   (the baseline of the other rows)
//                      untimed)                                   warm-evicted: the warm call after
//                                                                 64 MB were touched (untimed): the
//                                                                 text out of the CPU caches, as a
//                                                                 first call finds it after setup
//                                                                 indexOf-evicted: indexOf after
//                                                                 the same 64 MB: what the JS
//                                                                 baseline costs on a text out of
//                                                                 the caches (a 10 MB scan from
//                                                                 memory has a floor of its own)
//
// Every result is checked: Success, one pending change at the needle's offset in the text the
// call ran on (found by an untimed `indexOf`), and for the peers the same text.

import { spreadNeedles } from "../lib/docs.mjs";
import { measure } from "../lib/measure.mjs";
import { indexOfReplaceUnique, record as recordIn } from "../lib/peers.mjs";

const SUITE = "firstcall";
const PATH = "bench.txt";
const record = (...args) => recordIn(SUITE, ...args);

/** Touched before each warm-evicted run: more than this VM's caches hold of a 10 MB text. */
const EVICT = new Uint8Array(64 << 20);
const evict = () => {
  for (let i = 0; i < EVICT.length; i += 64) EVICT[i]++;
};

/** `text` with its first `needle` replaced (the needles here are unique). */
const replaced = (text, needle, by) => {
  const at = text.indexOf(needle);
  return text.slice(0, at) + by + text.slice(at + needle.length);
};

/** One Success with one pending change at UTF-16 offset `at`; a sentence when not. */
function check(r, at) {
  const c = r.pending_changes?.[0];
  const ok = r.status === "Success" && r.pending_changes.length === 1 && c.position === at;
  return { ok, detail: `status ${r.status}, ${r.pending_changes?.length ?? 0} pending, position ${c?.position ?? "-"} (expected ${at})` };
}

export async function run({ docs, Workspace, MemoryStorage, log }) {
  const results = [];
  for (const doc of docs) {
    const { text, needles } = doc;
    const args = { old_text: needles.unique, new_text: `${needles.unique} // edited` };
    // The change committed before the timed call: a line other than the unique needle's.
    const other = spreadNeedles(text, 3).map((s) => s.text).find((s) => !s.includes(needles.unique) && !needles.unique.includes(s));
    if (!other) throw new Error(`${doc.name}: no spread needle apart from the unique one`);
    const committed = replaced(text, other, `${other} // committed`);
    const fresh = async () => Workspace.create({ storage: new MemoryStorage({ [PATH]: text }) });
    const step = async (work, impl, side, body) => {
      log(`${SUITE}: ${doc.name} ${work}: ${impl}`);
      try {
        results.push(await body());
      } catch (err) {
        results.push({ suite: SUITE, work, doc: doc.name, impl, side, runs: 0, median_ms: null, min_ms: null, max_ms: null, samples_ms: [], correct: false, detail: `threw: ${err?.stack?.split("\n")[0] ?? err}` });
      }
    };

    for (const [work, base, prepare] of [
      ["first-after-open", text, async () => fresh()],
      ["first-after-commit", committed, async () => {
        const ws = await fresh();
        const staged = await ws.call("memo_replace", { old_text: other, new_text: `${other} // committed` });
        const done = await ws.call("memo_commit", { summary: "bench: one change" });
        if (staged.status !== "Success" || done.status !== "Success") throw new Error(`${work}: setup ${staged.status} / ${done.status}`);
        return ws;
      }],
    ]) {
      const at = base.indexOf(needles.unique);
      await step(work, "agentpad-wasm", "wasm", async () => {
        const m = await measure((ws) => ws.call("memo_replace", args), { before: prepare, after: (_, ws) => ws.free() });
        const { ok, detail } = check(m.last, at);
        return record(work, doc, "agentpad-wasm", "wasm", m, ok, detail);
      });
      await step(work, "warm-call", "wasm", async () => {
        const ws = await prepare();
        try {
          const revert = () => ws.call("memo_revert", { reason: "bench: next run starts clean" });
          await ws.call("memo_replace", args); // the first call, untimed
          await revert();
          const m = await measure(() => ws.call("memo_replace", args), { after: revert });
          const { ok, detail } = check(m.last, at);
          results.push(record(work, doc, "warm-call", "wasm", m, ok && ws.text() === base, detail));
          const e = await measure(() => ws.call("memo_replace", args), { before: evict, after: revert });
          const checked = check(e.last, at);
          return record(work, doc, "warm-evicted", "wasm", e, checked.ok, checked.detail);
        } finally {
          ws.free();
        }
      });
      await step(work, "indexOf", "js", async () => {
        const m = await measure(() => indexOfReplaceUnique(base, needles.unique, args.new_text));
        const r = m.last;
        return record(work, doc, "indexOf", "js", m, r.status === "Success" && r.at === at && r.text === replaced(base, needles.unique, args.new_text), `status ${r.status} at ${r.at}`);
      });
      await step(work, "indexOf-evicted", "js", async () => {
        const m = await measure(() => indexOfReplaceUnique(base, needles.unique, args.new_text), { before: evict });
        const r = m.last;
        return record(work, doc, "indexOf-evicted", "js", m, r.status === "Success" && r.at === at && r.text === replaced(base, needles.unique, args.new_text), `status ${r.status} at ${r.at}`);
      });
    }
  }
  return results;
}
