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
/** Applies edits known by offset in the original text ({at, old_text, new_text}): sort, slice, join. */
export function sliceJoin(text, edits) {
  const sorted = [...edits].sort((a, b) => a.at - b.at);
  const parts = [];
  let from = 0;
  for (const e of sorted) {
    parts.push(text.slice(from, e.at), e.new_text);
    from = e.at + e.old_text.length;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

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

// -------------------------------------------------------- diff-match-patch ---

/**
 * `diff-match-patch` in line mode, as its documentation shows it (`diff_linesToChars_`, then
 * `diff_main` on the line characters, `diff_charsToLines_`), with its default settings (a 1 s
 * `Diff_Timeout`: past it the rest is one coarse replacement), turned into a unified diff with
 * `context` lines of context (`patch_make` would give diff-match-patch's own character-offset
 * patch format, which `diff -u` users cannot read or apply). Line mode maps each distinct line to
 * one UTF-16 char: diff-match-patch 1.0.5 stops at 40,000 distinct lines of the old text (65,535
 * of both) and lumps the rest of the text into one "line" — still a correct patch, but it removes
 * and re-adds everything after that point. Returns the patch text.
 */
export function dmpLinePatch(dmp, oldText, newText, oldLabel, newLabel, context = 3) {
  const a = dmp.diff_linesToChars_(oldText, newText);
  const diffs = dmp.diff_main(a.chars1, a.chars2, false);
  dmp.diff_charsToLines_(diffs, a.lineArray);
  return unifiedFromDiffs(diffs, oldLabel, newLabel, context);
}

/**
 * A unified diff (`--- old`, `+++ new`, `@@ -s,l +s,l @@` hunks with `context` lines of context,
 * hunks closer than 2·context lines merged, as `diff -u` does) from a list of
 * [op, text] pieces (op -1 removed, 0 equal, 1 added) whose texts are whole lines.
 */
export function unifiedFromDiffs(diffs, oldLabel, newLabel, context = 3) {
  const runs = [];
  for (const [op, text] of diffs) {
    if (text === "") continue;
    const lines = text.split("\n");
    const noEol = lines[lines.length - 1] !== "";
    if (!noEol) lines.pop();
    runs.push({ op, lines, noEol });
  }
  const out = [`--- ${oldLabel}`, `+++ ${newLabel}`];
  let oldLine = 1; // next old line (1-based)
  let newLine = 1;
  let hunk = null;
  const flush = () => {
    const os = hunk.oldLen === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const ns = hunk.newLen === 0 ? hunk.newStart - 1 : hunk.newStart;
    out.push(`@@ -${os},${hunk.oldLen} +${ns},${hunk.newLen} @@`);
    for (const line of hunk.body) out.push(line);
    hunk = null;
  };
  const push = (marker, line, noEol) => {
    hunk.body.push(marker + line);
    if (noEol) hunk.body.push("\\ No newline at end of file");
  };
  for (let i = 0; i < runs.length; i++) {
    const { op, lines, noEol } = runs[i];
    const n = lines.length;
    if (op === 0) {
      if (hunk) {
        const last = i === runs.length - 1;
        const keep = !last && n <= 2 * context ? n : Math.min(context, n);
        for (let k = 0; k < keep; k++) push(" ", lines[k], noEol && k === n - 1);
        hunk.oldLen += keep;
        hunk.newLen += keep;
        if (keep < n || last) flush();
      }
      oldLine += n;
      newLine += n;
      continue;
    }
    if (!hunk) {
      const prev = i > 0 && runs[i - 1].op === 0 ? runs[i - 1].lines : [];
      const lead = Math.min(context, prev.length);
      hunk = { oldStart: oldLine - lead, newStart: newLine - lead, oldLen: lead, newLen: lead, body: [] };
      for (let k = prev.length - lead; k < prev.length; k++) push(" ", prev[k], false);
    }
    for (let k = 0; k < n; k++) push(op < 0 ? "-" : "+", lines[k], noEol && k === n - 1);
    if (op < 0) {
      hunk.oldLen += n;
      oldLine += n;
    } else {
      hunk.newLen += n;
      newLine += n;
    }
  }
  if (hunk) flush();
  return out.length > 2 ? out.join("\n") + "\n" : "";
}
