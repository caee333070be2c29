// Unified diffs of a whole document, side by side in one run (docs/performance.md#unified-diffs): agentpad's anchor
// diff and `memo_diff` (wasm, through the package) vs `diff.createTwoFilesPatch` (the `diff` npm
// package) and `diff-match-patch` in line mode, on the same old → new texts. The native limit
// (`similar`, and agentpad's own `ChangeSet::diff` + `preview::render`) is bench/native/common/diff.rs
// (criterion, run by the session bench and by `cargo bench --bench diff`), on the same documents
// of 1 MB and more and the same edit sets (bench/native/common/edits.rs is the Rust twin of `EDITS`;
// the report checks both sides diffed the same new texts).
//
// Documents: AGENTPAD_BENCH_DIFF_DOCS (default "code-100KB,code-1MB,code-10MB,markdown-100KB,
// markdown-1MB,markdown-10MB,cjk-1MB"; the same generator as the other suites, lib/docs.mjs). Each
// gets three deterministic edit sets (`EDITS`): one word changed in one line, ten lines spread
// through the document, 1 % of the lines (edited, deleted or followed by an inserted line).
//
// work           impl                 timed
// anchor-diff-*  agentpad-wasm        the old text opened in a MemoryStorage, the new one written
//                (and -200ms)         to the storage and taken by the workspace (memo_read,
//                                     untimed); timed: ws.liveContext({ anchor: "origin",
//                                     maxDiffChars: 0, recentDiffs: 0, maxDocumentChars: 1000,
//                                     diffDeadlineMs }) → json.anchor_diff.patch. agentpad-wasm:
//                                     diffDeadlineMs 60000 (exact); -200ms: the default deadline
//                                     (may come back coarse)
//                agentpad-memo_diff   the edit staged as pending changes (one memo_replace per
//                                     edited line, its old_text widened by whole lines around it
//                                     until unique; untimed), then ws.call("memo_diff") →
//                                     response.preview (workspace option maxPreviewLength 1e6, the
//                                     largest, so no hunk is cut). Edit sets one and ten only: 1 %
//                                     of the lines is 30–3,200 changed lines, more than the 26
//                                     pending changes (A–Z) a session holds, and replace_all
//                                     stages one text everywhere, not different edits
//                createTwoFilesPatch  createTwoFilesPatch("a/doc.md", "b/doc.md", old, new, "", "",
//                                     { context: 3 })
//                diff-match-patch     line mode with its defaults (lib/peers.mjs dmpLinePatch:
//                                     diff_linesToChars_, diff_main, diff_charsToLines_), the line
//                                     diffs turned into a unified diff with context 3
// window         agentpad-wasm        ws.liveContext({ anchor: "none", … }): the rest of the live
//                                     context (document window, heading index, JSON), the fixed
//                                     part of every agentpad-wasm anchor-diff call (once per
//                                     document, on the 1 % workspace)
//
// createTwoFilesPatch: when its warm-up run takes more than 2 s (10 MB with 1 % changed: 3–15 s
// a run), only AGENTPAD_BENCH_DIFF_SLOW_RUNS (default 3) timed runs follow instead of ≥ 7;
// diff-match-patch the same past 0.3 s (at 10 MB every run takes 0.3–2.5 s: its 1 s Diff_Timeout,
// and a degenerate patch of 10–20 MB, see below). The record's `runs` says so.
//
// Correctness, for every patch (untimed): `applyPatch(old, patch)` from `diff` must give the new
// text exactly, and a strict applier written here (hunks at exactly the lines their headers state,
// every context and removed line equal, header counts right, labels a/doc.md and b/doc.md) must
// too. A patch failing either is WRONG and never becomes a ratio. Sanity, not correctness: hunk
// count and removed/added line counts of both, against the minimal counts of the edit set (a
// coarse diff is correct but removes and adds more lines). diff-match-patch 1.0.5's line mode
// stops giving lines their own char after 40,000 distinct lines of the old text (65,535 of both)
// and makes the rest of the text one "line": its patch of a 10 MB document stays correct but
// removes and re-adds everything past that point — `minimal: false` and the shape say so.

import { applyPatch, createTwoFilesPatch } from "diff";
import DiffMatchPatch from "diff-match-patch";

import { fingerprint, fnv1a32, generate, parseDocList, Rng } from "../lib/docs.mjs";
import { measure } from "../lib/measure.mjs";
import { dmpLinePatch, guarded, record as recordIn } from "../lib/peers.mjs";

const SUITE = "diff";
const PATH = "doc.md";
const OLD_LABEL = `a/${PATH}`;
const NEW_LABEL = `b/${PATH}`;
const CONTEXT = 3;
export const DIFF_DOCS = "code-100KB,code-1MB,code-10MB,markdown-100KB,markdown-1MB,markdown-10MB,cjk-1MB";
/** The generous deadline of the exact agentpad runs (ms). */
const EXACT_DEADLINE_MS = 60_000;
/** A peer whose warm-up run takes longer than this gets only SLOW_RUNS timed runs. */
const SLOW_MS = 2_000;
const SLOW_RUNS = Number(process.env.AGENTPAD_BENCH_DIFF_SLOW_RUNS ?? 3);
/** diff-match-patch: fewer timed runs past this (ms): at 10 MB every run takes 0.3–2.5 s. */
const DMP_SLOW_MS = 300;
/** memo_diff's workspace: the largest max_preview_length, so no hunk of the patch is cut. */
const MEMO_DIFF_MAX_PREVIEW = 1_000_000;
/** The edit sets memo_diff is measured on (see the header: 1 % needs more than 26 changes). */
const MEMO_DIFF_EDITS = new Set(["one", "ten"]);

const LIVE = { recentDiffs: 0, maxDiffChars: 0, maxDocumentChars: 1000 };
const OURS = { ...LIVE, anchor: "origin", diffDeadlineMs: EXACT_DEADLINE_MS };
const OURS_DEFAULT = { ...LIVE, anchor: "origin" };
const WINDOW = { ...LIVE, anchor: "none" };

const record = (...args) => recordIn(SUITE, ...args);

// ------------------------------------------------------------------- edits ---

/** One line changed a little: the first word of ≥ 4 letters renamed, else a suffix appended. */
function editLine(kind, line) {
  const m = /[a-z]{4,}/.exec(line);
  if (m) return `${line.slice(0, m.index)}renamed_${m[0]}${line.slice(m.index + m[0].length)}`;
  return kind === "code" ? `${line} // edited` : `${line} (edited)`;
}

function insertedLine(kind, k) {
  return kind === "code" ? `    tracing::trace!("checkpoint ${k}");` : `- Checkpoint ${k}: reviewed.`;
}

/**
 * The edit sets. Each returns { newText, edited, deleted, inserted } for the document's lines
 * (`lines`: text.split("\n") without the final empty piece; the text ends with "\n").
 * - one: the first line at or after the middle with a word of ≥ 4 letters, that word renamed;
 * - ten: the lines at floor(n·(2i+1)/20), i = 0…9, each edited the same way;
 * - 1pct: round(n/100) distinct lines drawn with a seeded Rng; in document order each is deleted
 *   (1 in 10), kept and followed by a new line (1 in 10), or edited (8 in 10).
 * Edited and inserted lines never occur in the old text, so the minimal line diff removes
 * exactly edited + deleted lines and adds edited + inserted ones.
 */
export const EDITS = {
  one: {
    work: "anchor-diff-1",
    text: "one small change: one word renamed in one line near the middle",
    make(kind, lines) {
      let j = lines.length >> 1;
      while (j < lines.length - 1 && !/[a-z]{4,}/.test(lines[j])) j++;
      const out = lines.slice();
      out[j] = editLine(kind, lines[j]);
      return { out, edited: 1, deleted: 0, inserted: 0 };
    },
  },
  ten: {
    work: "anchor-diff-10",
    text: "10 scattered lines edited (evenly spread)",
    make(kind, lines) {
      const out = lines.slice();
      const n = lines.length;
      for (let i = 0; i < 10; i++) {
        const j = Math.floor((n * (2 * i + 1)) / 20);
        out[j] = editLine(kind, lines[j]);
      }
      return { out, edited: 10, deleted: 0, inserted: 0 };
    },
  },
  pct: {
    work: "anchor-diff-1pct",
    text: "1 % of the lines changed (seeded: 8 in 10 edited, 1 in 10 deleted, 1 in 10 followed by a new line)",
    make(kind, lines) {
      const n = lines.length;
      const r = new Rng(0x6a09e667);
      const k = Math.max(1, Math.round(n / 100));
      const picked = new Set();
      while (picked.size < k) picked.add(r.below(n));
      const action = new Map([...picked].sort((a, b) => a - b).map((j) => [j, r.below(10)]));
      const out = [];
      let edited = 0;
      let deleted = 0;
      let inserted = 0;
      for (let j = 0; j < n; j++) {
        const a = action.get(j);
        if (a === undefined) out.push(lines[j]);
        else if (a === 0) deleted++;
        else if (a === 1) {
          out.push(lines[j], insertedLine(kind, ++inserted));
        } else {
          out.push(editLine(kind, lines[j]));
          edited++;
        }
      }
      return { out, edited, deleted, inserted };
    },
  },
};

function makeEdit(doc, key) {
  const lines = doc.text.split("\n");
  if (lines.pop() !== "") throw new Error(`${doc.name} does not end with a newline`);
  const { out, edited, deleted, inserted } = EDITS[key].make(doc.kind, lines);
  const newText = out.join("\n") + "\n";
  if (newText === doc.text) throw new Error(`${doc.name} ${key}: the edit changed nothing`);
  return { newText, removed: edited + deleted, added: edited + inserted, edited, deleted, inserted, lines, out };
}

/**
 * Stages an edit that only changes lines in place (edit sets one and ten) as pending changes of
 * `ws`: one memo_replace per changed line, its old_text (with the final "\n") widened by one line
 * on each side until it occurs once in the draft. Returns { calls, ms } (ms: the memo_replace
 * calls alone); throws when one does not succeed or the staged draft is not the new text.
 */
async function stageLines(ws, edit) {
  const { lines, out } = edit;
  if (lines.length !== out.length) throw new Error("stageLines: the edit inserts or deletes lines");
  let draft = lines.join("\n") + "\n";
  let calls = 0;
  let ms = 0;
  for (let j = 0; j < lines.length; j++) {
    if (out[j] === lines[j]) continue;
    let oldText;
    let newText;
    for (let k = 0; ; k++) {
      const a = Math.max(0, j - k);
      const b = Math.min(lines.length - 1, j + k);
      oldText = lines.slice(a, b + 1).join("\n") + "\n";
      newText = out.slice(a, b + 1).join("\n") + "\n";
      const first = draft.indexOf(oldText);
      if (first >= 0 && draft.indexOf(oldText, first + 1) < 0) break;
      if (a === 0 && b === lines.length - 1) throw new Error(`stageLines: line ${j + 1} cannot be made unique`);
    }
    const t0 = performance.now();
    const r = await ws.call("memo_replace", { old_text: oldText, new_text: newText });
    ms += performance.now() - t0;
    calls++;
    if (r.status !== "Success") throw new Error(`stageLines: memo_replace of line ${j + 1}: ${r.status}: ${r.summary}`);
    draft = draft.replace(oldText, () => newText);
  }
  if (ws.draft() !== edit.newText) throw new Error("stageLines: the staged draft differs from the new text");
  return { calls, ms };
}

// ----------------------------------------------------------- strict check ---

/**
 * Applies a unified diff to `oldText` strictly: every hunk exactly where its header says (old
 * and new start lines), its context and removed lines equal to the old text there, its line counts
 * equal to the header's. Returns { text, hunks, removed, added, notes } or { error }.
 * `notes` lists format quirks that do not make the patch wrong (context other than CONTEXT lines,
 * hunks that a `diff -U3` would have merged).
 */
export function strictApply(oldText, patch) {
  const pl = patch.split("\n");
  if (pl[pl.length - 1] === "") pl.pop();
  let i = 0;
  let oldLabel = null;
  let newLabel = null;
  for (; i < pl.length && !pl[i].startsWith("@@"); i++) {
    if (pl[i].startsWith("--- ")) oldLabel = pl[i].slice(4).split("\t")[0];
    else if (pl[i].startsWith("+++ ")) newLabel = pl[i].slice(4).split("\t")[0];
  }
  if (oldLabel !== OLD_LABEL || newLabel !== NEW_LABEL) return { error: `labels ${oldLabel} / ${newLabel}` };
  const old = oldText.split("\n");
  if (old.pop() !== "") return { error: "old text without a final newline" };
  const out = [];
  const notes = new Set();
  let pos = 0; // next old line (0-based) not yet copied
  let hunks = 0;
  let removed = 0;
  let added = 0;
  let prevTrail = 0;
  while (i < pl.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(pl[i]);
    if (!m) return { error: `line ${i + 1}: not a hunk header: ${JSON.stringify(pl[i].slice(0, 60))}` };
    const [oStart, oLen, nStart, nLen] = [Number(m[1]), m[2] === undefined ? 1 : Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
    const at = oLen === 0 ? oStart : oStart - 1;
    if (at < pos || at > old.length) return { error: `hunk ${hunks + 1} at old line ${oStart}: out of order or past the end` };
    const gap = at - pos;
    for (let j = pos; j < at; j++) out.push(old[j]);
    if (out.length !== (nLen === 0 ? nStart : nStart - 1)) return { error: `hunk ${hunks + 1}: new start ${nStart}, but it lands at new line ${out.length + 1}` };
    let p = at;
    let o = 0;
    let n = 0;
    let lead = 0;
    let trail = 0;
    let changed = false;
    for (i++; i < pl.length && !pl[i].startsWith("@@"); i++) {
      const line = pl[i];
      const body = line.slice(1);
      if (line[0] === " ") {
        if (old[p] !== body) return { error: `hunk ${hunks + 1}: context line ${p + 1} differs` };
        out.push(body);
        p++;
        o++;
        n++;
        if (changed) trail++;
        else lead++;
      } else if (line[0] === "-") {
        if (old[p] !== body) return { error: `hunk ${hunks + 1}: removed line ${p + 1} differs` };
        p++;
        o++;
        removed++;
        changed = true;
        trail = 0;
      } else if (line[0] === "+") {
        out.push(body);
        n++;
        added++;
        changed = true;
        trail = 0;
      } else {
        return { error: `hunk ${hunks + 1}: unexpected line ${JSON.stringify(line.slice(0, 60))}` };
      }
    }
    if (o !== oLen || n !== nLen) return { error: `hunk ${hunks + 1}: header says -${oLen} +${nLen}, body has -${o} +${n}` };
    if (!changed) notes.add("a hunk without changes");
    if (lead > CONTEXT || (lead < CONTEXT && at > 0)) notes.add(`leading context of ${lead} lines`);
    if (trail > CONTEXT || (trail < CONTEXT && p < old.length)) notes.add(`trailing context of ${trail} lines`);
    if (hunks > 0 && prevTrail + gap + lead <= 2 * CONTEXT) notes.add("hunks diff -U3 would merge");
    prevTrail = trail;
    pos = p;
    hunks++;
  }
  for (let j = pos; j < old.length; j++) out.push(old[j]);
  return { text: out.join("\n") + "\n", hunks, removed, added, notes: [...notes] };
}

/** Both checks on one patch: { ok, hunks, removed, added, detail }. */
function check(oldText, newText, patch, edit) {
  if (typeof patch !== "string") return { ok: false, detail: `no patch (${typeof patch})` };
  const viaDiff = applyPatch(oldText, patch);
  const okDiff = viaDiff === newText;
  const s = strictApply(oldText, patch);
  const okStrict = !s.error && s.text === newText;
  const minimal = !s.error && s.removed === edit.removed && s.added === edit.added;
  const parts = [
    `applyPatch ${okDiff ? "gives the new text" : viaDiff === false ? "FAILS" : "gives a DIFFERENT text"}`,
    `strict apply ${s.error ? `FAILS (${s.error})` : okStrict ? "gives the new text" : "gives a DIFFERENT text"}`,
  ];
  if (!s.error) {
    parts.push(`${s.hunks} hunks, -${s.removed} +${s.added} lines (minimal: -${edit.removed} +${edit.added}${minimal ? ", met" : ""})`);
    if (s.notes.length) parts.push(`format: ${s.notes.join(", ")}`);
  }
  parts.push(`${patch.length.toLocaleString("en")} chars`);
  return { ok: okDiff && okStrict, hunks: s.hunks ?? null, removed: s.removed ?? null, added: s.added ?? null, minimal, detail: parts.join("; ") };
}

// -------------------------------------------------------------------- suite ---

/**
 * ctx: { docs (reused when a name matches), Workspace, MemoryStorage, log }
 * Returns the result records; the documents' fingerprints are in the records (`doc_fingerprint`).
 */
export async function run({ docs: shared, Workspace, MemoryStorage, log }) {
  const results = [];
  const spec = process.env.AGENTPAD_BENCH_DIFF_DOCS || DIFF_DOCS;
  const docs = parseDocList(spec).map(([kind, size]) => shared.find((d) => d.name === `${kind}-${size}`) ?? generate(kind, size));
  for (const doc of docs) {
    const fp = fingerprint(doc);
    log(`diff: ${doc.name} (${(fp.bytes / 1e6).toFixed(1)} MB, ${fp.lines.toLocaleString("en")} lines)`);
    for (const [key, set] of Object.entries(EDITS)) {
      const work = set.work;
      const edit = makeEdit(doc, key);
      const base = {
        doc_fingerprint: fp, new_fnv1a32: fnv1a32(edit.newText),
        edit: { removed: edit.removed, added: edit.added, edited: edit.edited, deleted: edit.deleted, inserted: edit.inserted },
      };
      const storage = new MemoryStorage({ [PATH]: doc.text });
      const ws = await Workspace.create({ storage });
      try {
        storage.write(PATH, edit.newText);
        const read = await ws.call("memo_read", { start_line: 1, end_line: 1 });
        if (ws.text() !== edit.newText) throw new Error(`${doc.name} ${work}: the workspace did not take the external change (memo_read: ${read.status})`);

        const ours = async (impl, opts) => {
          log(`diff: ${doc.name} ${work}: ${impl}`);
          await guarded(SUITE, results, work, doc, impl, "wasm", async () => {
            // Whether a call came back coarse depends on the machine's speed at that moment: count
            // them over every call (warm-up included) and keep the first coarse result to check it too.
            let calls = 0;
            let coarseCalls = 0;
            let coarseResult = null;
            const m = await measure(() => {
              const lc = ws.liveContext(opts);
              calls++;
              if (lc.json.anchor_diff?.coarse) {
                coarseCalls++;
                coarseResult ??= lc;
              }
              return lc;
            });
            const a = m.last.json.anchor_diff;
            const c = check(doc.text, edit.newText, a?.patch, edit);
            const ac = coarseResult && coarseResult !== m.last ? coarseResult.json.anchor_diff : null;
            const cc = ac ? check(doc.text, edit.newText, ac.patch, edit) : null;
            const coarseShape = coarseResult ? (cc ?? c) : null;
            const ok = c.ok && a.omitted_lines === 0 && (!cc || (cc.ok && ac.omitted_lines === 0));
            const detail = `coarse in ${coarseCalls} of ${calls} calls (warm-up included); last call: coarse ${a?.coarse ?? null}; ${c.detail}` +
              (cc ? `; first coarse call: ${cc.detail}` : "") + `; first call ${m.first_ms.toFixed(1)} ms`;
            return {
              ...record(work, doc, impl, "wasm", m, ok, detail), ...base,
              coarse: a?.coarse ?? null, calls, coarse_calls: coarseCalls,
              hunks: c.hunks, removed: c.removed, added: c.added, minimal: c.minimal,
              coarse_shape: coarseShape && { hunks: coarseShape.hunks, removed: coarseShape.removed, added: coarseShape.added, minimal: coarseShape.minimal },
            };
          });
        };
        await ours("agentpad-wasm", OURS);
        await ours("agentpad-wasm-200ms", OURS_DEFAULT);

        if (key === "pct") {
          log(`diff: ${doc.name} window: agentpad-wasm`);
          await guarded(SUITE, results, "window", doc, "agentpad-wasm", "wasm", async () => {
            const m = await measure(() => ws.liveContext(WINDOW));
            const j = m.last.json;
            const ok = j.anchor_diff === null && j.current_document.path === PATH && j.current_document.total_lines === edit.newText.split("\n").length - 1;
            return { ...record("window", doc, "agentpad-wasm", "wasm", m, ok,
              `anchor_diff ${j.anchor_diff === null ? "null" : "present"}, lines ${j.current_document.start_line}–${j.current_document.end_line} of ${j.current_document.total_lines}, ${j.current_document.headings.length} headings`), doc_fingerprint: fp };
          });
        }

        log(`diff: ${doc.name} ${work}: createTwoFilesPatch`);
        await guarded(SUITE, results, work, doc, "createTwoFilesPatch", "js", async () => {
          const m = await measure(() => createTwoFilesPatch(OLD_LABEL, NEW_LABEL, doc.text, edit.newText, "", "", { context: CONTEXT }), { slow: { ms: SLOW_MS, runs: SLOW_RUNS } });
          const c = check(doc.text, edit.newText, m.last, edit);
          const fewer = m.runs < 7 ? `; ${m.runs} timed runs (one run > ${SLOW_MS / 1000} s)` : "";
          return { ...record(work, doc, "createTwoFilesPatch", "js", m, c.ok, `${c.detail}; first call ${m.first_ms.toFixed(1)} ms${fewer}`), ...base, hunks: c.hunks, removed: c.removed, added: c.added, minimal: c.minimal };
        });

        log(`diff: ${doc.name} ${work}: diff-match-patch`);
        await guarded(SUITE, results, work, doc, "diff-match-patch", "js", async () => {
          const dmp = new DiffMatchPatch();
          const m = await measure(() => dmpLinePatch(dmp, doc.text, edit.newText, OLD_LABEL, NEW_LABEL, CONTEXT), { slow: { ms: DMP_SLOW_MS, runs: SLOW_RUNS } });
          const c = check(doc.text, edit.newText, m.last, edit);
          const fewer = m.runs < 7 ? `; ${m.runs} timed runs (one run > ${DMP_SLOW_MS} ms)` : "";
          return { ...record(work, doc, "diff-match-patch", "js", m, c.ok, `${c.detail}; first call ${m.first_ms.toFixed(1)} ms${fewer}`), ...base, hunks: c.hunks, removed: c.removed, added: c.added, minimal: c.minimal };
        });

        if (MEMO_DIFF_EDITS.has(key)) {
          log(`diff: ${doc.name} ${work}: agentpad-memo_diff`);
          const mstorage = new MemoryStorage({ [PATH]: doc.text });
          const mws = await Workspace.create({ storage: mstorage, maxPreviewLength: MEMO_DIFF_MAX_PREVIEW });
          try {
            await guarded(SUITE, results, work, doc, "agentpad-memo_diff", "wasm", async () => {
              const { calls, ms: staged } = await stageLines(mws, edit);
              const m = await measure(() => mws.call("memo_diff", {}));
              const r = m.last;
              const c = check(doc.text, edit.newText, r.preview, edit);
              return {
                ...record(work, doc, "agentpad-memo_diff", "wasm", m, r.status === "Success" && c.ok,
                  `status ${r.status}; ${c.detail}; staged by ${calls} memo_replace calls taking ${staged.toFixed(1)} ms together (untimed); first call ${m.first_ms.toFixed(2)} ms`),
                ...base, hunks: c.hunks, removed: c.removed, added: c.added, minimal: c.minimal,
              };
            });
          } finally {
            mws.free();
          }
        }
      } finally {
        ws.free();
      }
    }
  }
  return results;
}
