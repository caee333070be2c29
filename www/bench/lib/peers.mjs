// Shared by the suites: the JavaScript a user would write instead of agentpad (the peers), the
// independent references the results are checked against, and the result records.

import { createTwoFilesPatch } from "diff";

// ------------------------------------------------------------- references ---

/** 1-based line of UTF-16 offset `at`. */
export function lineOf(text, at) {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Non-overlapping hits, computed differently from the timed peers (split, not an indexOf loop). */
export function referenceHits(text, needle) {
  const parts = text.split(needle);
  const hits = [];
  let at = 0;
  for (let i = 0; i < parts.length - 1; i++) {
    at += parts[i].length;
    hits.push(at);
    at += needle.length;
  }
  return hits;
}

export function sameArray(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ---------------------------------------------------------------- JS peers ---

/** Uniqueness check with indexOf, then slice + concatenation (V8 keeps a lazy cons-string). */
export function indexOfReplaceUnique(text, needle, replacement) {
  const i = text.indexOf(needle);
  if (i < 0) return { status: "NoMatch" };
  if (text.indexOf(needle, i + needle.length) >= 0) return { status: "MultiMatch" };
  return { status: "Success", at: i, text: text.slice(0, i) + replacement + text.slice(i + needle.length) };
}

/** The same, plus the preview a user would build: `diff.createTwoFilesPatch` with context 3. */
export function indexOfDiffReplaceUnique(text, needle, replacement, path = "bench.txt") {
  const r = indexOfReplaceUnique(text, needle, replacement);
  if (r.status !== "Success") return r;
  return { ...r, patch: createTwoFilesPatch(path, path, text, r.text, "", "", { context: 3 }) };
}

// ----------------------------------------------------------------- records ---

/** A result record from a `measure()` result (its `last` is dropped). */
export function record(suite, work, doc, impl, side, m, correct, detail) {
  const { last: _last, ...timing } = m;
  return { suite, work, doc: doc.name, impl, side, ...timing, correct, detail };
}

/** Runs one measurement; if it throws, the run still goes on and the result says why. */
export async function guarded(suite, results, work, doc, impl, side, body) {
  try {
    results.push(await body());
  } catch (err) {
    results.push({
      suite, work, doc: doc.name, impl, side, runs: 0, median_ms: null, min_ms: null, max_ms: null,
      samples_ms: [], correct: false, detail: `threw: ${err?.stack?.split("\n")[0] ?? err}`,
    });
  }
}

/**
 * The per-document helpers every suite's run uses: `revert()` drops what a wasm run staged
 * (untimed, between runs), and `step(work, impl, side, body)` logs, runs `body` under
 * `guarded`, and reverts after a wasm step so a failed one cannot leave a change staged.
 */
export function stepper(suite, ws, doc, results, log) {
  const revert = async () => {
    const r = await ws.call("memo_revert", { reason: "bench: next run starts clean" });
    if (r.status !== "Success" && r.status !== "NoOp") throw new Error(`memo_revert: ${r.status}: ${r.summary}`);
  };
  const step = async (work, impl, side, body) => {
    log(`${suite}: ${doc.name} ${work}: ${impl}`);
    await guarded(suite, results, work, doc, impl, side, body);
    if (side === "wasm") await revert().catch(() => {});
  };
  return { revert, step };
}
