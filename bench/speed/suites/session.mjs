// Edit sessions, side by side in one run: agentpad (wasm, through the package) vs the JavaScript a
// user would write instead. The native side (criterion, bench/native/session.rs) times the same calls
// through the Rust API on the same documents; the report puts them together.
//
// work       agentpad-wasm                                  JS peers
// stage-one  memo_replace of the unique needle → Success    indexOf+diff: uniqueness check + slice +
//            with its compact preview (revert untimed)      diff.createTwoFilesPatch (the preview)
// stage-26   26 memo_replace calls, one per spread needle   indexOf: the same check + slice, 26 times on
//            (docs.spreadNeedles), each with its preview    the growing draft (no preview);
//            (revert untimed)                               indexOf+diff: with a patch per change
//                                                           (documents up to 2 MB only)
// commit-26  memo_commit (writes through MemoryStorage)     slice-join: the 26 edits sorted by offset,
//            + ws.text(); a fresh workspace with the 26     slices joined, stored in a Map;
//            changes staged before every run (untimed)     replace×26: successive String#replace,
//                                                           stored in a Map
//
// Every result is checked against a reference computed independently (and untimed): line
// replacement on the generated text. A wrong result is reported as wrong, and the report never
// turns it into a ratio.

import { fnv1a32, spreadNeedles } from "../lib/docs.mjs";
import { measure } from "../lib/measure.mjs";
import {
  indexOfDiffReplaceUnique,
  indexOfReplaceUnique,
  lineOf,
  record as recordIn,
  referenceHits,
  sliceJoin,
  stepper,
} from "../lib/peers.mjs";

const SUITE = "session";
const PATH = "bench.txt";
/** The multi-change session: one change per letter A–Z. */
export const CHANGES = 26;
const SUMMARY = "bench: 26 changes";
/** stage-26 indexOf+diff diffs the whole draft 26 times per run: only on documents up to this
 * many UTF-16 units (at 10 MB one run takes ≈ 15 s). */
const DIFF_ALL_MAX = 2_000_000;

/** The new text of the i-th spread needle (the same in bench/native/session.rs). */
const edited = (needle, i) => `${needle} // edit ${String(i + 1).padStart(2, "0")}`;

const record = (...args) => recordIn(SUITE, ...args);

/** Reference: `text` with whole lines replaced (line index → new line). */
function replaceLines(text, replacements) {
  const lines = text.split("\n");
  for (const [i, s] of replacements) lines[i] = s;
  return lines.join("\n");
}

// ---------------------------------------------------------------- JS peers ---

/** Stages every change on a growing draft: indexOf uniqueness check + slice, optionally a patch. */
function indexOfStageAll(text, changes, withDiff) {
  let draft = text;
  let patches = 0;
  for (const c of changes) {
    const r = withDiff ? indexOfDiffReplaceUnique(draft, c.old_text, c.new_text, PATH) : indexOfReplaceUnique(draft, c.old_text, c.new_text);
    if (r.status !== "Success") return { status: r.status, draft, patches };
    if (withDiff && r.patch.includes(`\n+${c.new_text}\n`)) patches++;
    draft = r.text;
  }
  return { status: "Success", draft, patches };
}


/** Successive String#replace (first occurrence each; the needles are unique). */
function replaceAll26(text, changes) {
  let s = text;
  for (const c of changes) s = s.replace(c.old_text, c.new_text);
  return s;
}

/** What a user would keep as storage: a Map of path → { text, version }. */
function mapStore(map, text) {
  const prev = map.get(PATH);
  map.set(PATH, { text, version: `v${(prev?.n ?? 1) + 1}`, n: (prev?.n ?? 1) + 1 });
  return map;
}

// -------------------------------------------------------------------- suite ---

/**
 * ctx: { docs: [{name, text, needles}], Workspace, MemoryStorage, log }
 * Returns the result records.
 */
export async function run({ docs, Workspace, MemoryStorage, log }) {
  const results = [];
  for (const doc of docs) {
    const { text, needles } = doc;
    log(`session: ${doc.name} (${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB): fixtures`);

    // The 26 changes, their offsets in the original text, and the expected result.
    const spread = spreadNeedles(text, CHANGES);
    const changes = spread.map((s, i) => ({ old_text: s.text, new_text: edited(s.text, i) }));
    const needlesFnv = fnv1a32(spread.map((s) => s.text).join("\n"));
    const edits = changes.map((c) => {
      const hits = referenceHits(text, c.old_text);
      if (hits.length !== 1) throw new Error(`${doc.name}: spread needle ${JSON.stringify(c.old_text)} occurs ${hits.length} times`);
      return { ...c, at: hits[0] };
    });
    const expectedAll = replaceLines(text, spread.map((s, i) => [s.line, changes[i].new_text]));
    for (const c of changes) {
      if (referenceHits(expectedAll, c.new_text).length !== 1) throw new Error(`${doc.name}: ${JSON.stringify(c.new_text)} is not unique after the edits`);
    }

    const ws = await Workspace.create({ storage: new MemoryStorage({ [PATH]: text }) });
    const { revert, step } = stepper(SUITE, ws, doc, results, log);
    const stageAll = async (w) => {
      let failed = 0;
      let last;
      for (const args of changes) {
        last = await w.call("memo_replace", args);
        if (last.status !== "Success") failed++;
      }
      return { last, failed };
    };
    try {
      // ---- stage-one: one exact hit, staged with a compact preview.
      {
        const work = "stage-one";
        const newText = `${needles.unique} // edited`;
        const refHits = referenceHits(text, needles.unique);
        if (refHits.length !== 1) throw new Error(`${doc.name}: the unique needle occurs ${refHits.length} times`);
        const at = refHits[0];
        const line = lineOf(text, at);
        const expected = replaceLines(text, [[line - 1, newText]]);

        await step(work, "agentpad-wasm", "wasm", async () => {
          const args = { old_text: needles.unique, new_text: newText };
          const w = await measure(() => ws.call("memo_replace", args), { after: revert });
          const r = w.last;
          const c = r.pending_changes[0];
          let ok = r.status === "Success" && r.pending_changes.length === 1 && c.position === at && c.line === line &&
            typeof r.preview === "string" && r.preview.includes(`-${needles.unique}\n`) && r.preview.includes(`+${newText}\n`);
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

        await step(work, "indexOf+diff", "js", async () => {
          const d = await measure(() => indexOfDiffReplaceUnique(text, needles.unique, newText, PATH));
          const r = d.last;
          const ok = r.status === "Success" && r.text === expected &&
            r.patch.includes(`\n-${needles.unique}\n`) && r.patch.includes(`\n+${newText}\n`);
          return record(work, doc, "indexOf+diff", "js", d, ok, `status ${r.status}, patch ${r.patch?.length ?? 0} chars`);
        });
      }

      // ---- stage-26: 26 changes spread through the document, each with its preview.
      {
        const work = "stage-26";
        const lines = edits.map((e) => lineOf(text, e.at));
        await step(work, "agentpad-wasm", "wasm", async () => {
          const w = await measure(() => stageAll(ws), { after: revert });
          const { last: r, failed } = w.last;
          const pending = r.pending_changes;
          let ok = failed === 0 && pending.length === CHANGES &&
            edits.every((e, i) => pending.some((c) => c.position === e.at && c.line === lines[i] && c.new_text === e.new_text)) &&
            typeof r.preview === "string" && r.preview.length > 0;
          let detail = `${CHANGES - failed}/${CHANGES} Success, ${pending.length} pending changes; needles fnv1a32 ${needlesFnv}`;
          if (ok) {
            await stageAll(ws);
            if (ws.draft() !== expectedAll) {
              ok = false;
              detail += "; the staged draft differs from the expected text";
            }
            await revert();
          }
          return { ...record(work, doc, "agentpad-wasm", "wasm", w, ok, detail), needles_fnv1a32: needlesFnv };
        });

        await step(work, "indexOf", "js", async () => {
          const j = await measure(() => indexOfStageAll(text, changes, false));
          const r = j.last;
          return record(work, doc, "indexOf", "js", j, r.status === "Success" && r.draft === expectedAll, `status ${r.status}`);
        });

        if (text.length <= DIFF_ALL_MAX) {
          await step(work, "indexOf+diff", "js", async () => {
            const j = await measure(() => indexOfStageAll(text, changes, true));
            const r = j.last;
            return record(work, doc, "indexOf+diff", "js", j, r.status === "Success" && r.draft === expectedAll && r.patches === CHANGES,
              `status ${r.status}, ${r.patches} patches show their change`);
          });
        } else {
          log(`session: ${doc.name} ${work}: indexOf+diff skipped (26 whole-text diffs per run; documents up to ${DIFF_ALL_MAX.toLocaleString("en")} UTF-16 units)`);
        }
      }

      // ---- commit-26: commit the 26 staged changes and get the string back.
      {
        const work = "commit-26";
        await step(work, "agentpad-wasm", "wasm", async () => {
          const w = await measure(
            async ({ ws: fresh, storage }) => {
              const r = await fresh.call("memo_commit", { summary: SUMMARY });
              return { r, text: fresh.text(), storage };
            },
            {
              before: async () => {
                const storage = new MemoryStorage({ [PATH]: text });
                const fresh = await Workspace.create({ storage });
                const { failed } = await stageAll(fresh);
                if (failed) throw new Error(`commit-26: ${failed} of the 26 changes did not stage`);
                return { ws: fresh, storage };
              },
              after: (_, { ws: fresh }) => fresh.free(),
            },
          );
          const { r, text: got, storage } = w.last;
          const ok = r.status === "Success" && r.summary.includes(`Committed ${CHANGES} changes`) && got === expectedAll &&
            storage.read(PATH) === expectedAll && storage.version(PATH) === "v2";
          return {
            ...record(work, doc, "agentpad-wasm", "wasm", w, ok,
              `status ${r.status}: ${r.summary}; text() ${got === expectedAll ? "matches" : "differs"}, storage ${storage.version(PATH)} ${storage.read(PATH) === expectedAll ? "matches" : "differs"}`),
            needles_fnv1a32: needlesFnv,
          };
        });

        await step(work, "slice-join", "js", async () => {
          const j = await measure(() => mapStore(new Map(), sliceJoin(text, edits)));
          const stored = j.last.get(PATH);
          return record(work, doc, "slice-join", "js", j, stored.text === expectedAll && stored.version === "v2", `stored ${stored.version}`);
        });

        await step(work, "replace×26", "js", async () => {
          const j = await measure(() => mapStore(new Map(), replaceAll26(text, changes)));
          const stored = j.last.get(PATH);
          return record(work, doc, "replace×26", "js", j, stored.text === expectedAll && stored.version === "v2", `stored ${stored.version}`);
        });
      }
    } finally {
      ws.free();
    }
  }
  return results;
}
