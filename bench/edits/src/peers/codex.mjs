// CX: Codex apply_patch (codex-rs/apply-patch: seek_sequence.rs, lib.rs). The attempt becomes one
// update chunk: old_text's lines are what it removes or keeps, new_text's what it adds or keeps (one
// trailing newline of each is the line terminator, not an extra line); in duplicate cases the chunk has an
// `@@ <anchor line>` header. Facts: the file is split on "\n" (a "\r" stays on its line), a
// trailing empty element dropped; the header line is located first (as a one-line pattern) and the
// search continues after it; seek_sequence tries four full scans from the cursor — exact lines,
// trim_end, trim, then trim with a Unicode punctuation/space map — and the first window that
// passes wins (no ambiguity check); a pattern ending in an empty line is retried without it; new
// lines are spliced verbatim while the matched context lines keep the file's text (as the
// @openai/codex 0.171.0 binary does: a tab-indented context line stays tab-indented); the file is
// joined with "\n" and always ends with a newline; added lines take the line ending of the file's
// first line (CRLF or LF) and other lines keep theirs; a hunk of added lines only is appended at
// the end of the file (both as the 0.171.0 binary does). The attempt is the hunk a model writes: lines
// common to old_text and new_text (a line diff) are context, the rest removed and added lines.
import { diffArrays } from "diff";
import { applied, error } from "./common.mjs";

const PUNCT = (s) =>
  s
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u2018-\u201b]/g, "'")
    .replace(/[\u201c-\u201f]/g, '"')
    .replace(/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, " ");

const PASSES = [(a, b) => a === b, (a, b) => a.trimEnd() === b.trimEnd(), (a, b) => a.trim() === b.trim(), (a, b) => PUNCT(a.trim()) === PUNCT(b.trim())];

/** Index of the first window of `lines` (from `start`) equal to `pattern` under the passes. */
export function seekSequence(lines, pattern, start, eof = false) {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return null;
  const from = eof ? lines.length - pattern.length : start;
  for (const eq of PASSES) {
    for (let i = from; i + pattern.length <= lines.length; i++) {
      let ok = true;
      for (let j = 0; j < pattern.length && ok; j++) ok = eq(lines[i + j], pattern[j]);
      if (ok) return i;
    }
  }
  return null;
}

// The patch is read line by line with its "\r\n" taken as the line break, so a CRLF attempt's
// lines carry no "\r" (the 0.171.0 binary reads it so).
const toLines = (s) => {
  const l = s.split(/\r?\n/);
  if (l.length > 1 && l[l.length - 1] === "") l.pop();
  return l;
};

export function apply(doc, attempt, { path, disambiguation }) {
  const lines = doc.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let oldLines = attempt.old_text === "" ? [] : toLines(attempt.old_text);
  let newLines = attempt.new_text === "" ? [] : toLines(attempt.new_text);
  let cursor = 0;
  if (disambiguation?.anchor_line_text) {
    const at = seekSequence(lines, [disambiguation.anchor_line_text], 0);
    if (at === null) return error(`Failed to find context '${disambiguation.anchor_line_text}' in ${path}`);
    cursor = at + 1;
  }
  // The file's line ending is its first line's: added lines get it, kept lines keep their own.
  const cr = lines.length > 0 && lines[0].endsWith("\r") ? "\r" : "";
  // A hunk of added lines only goes to the end of the file.
  let at = oldLines.length === 0 ? lines.length : seekSequence(lines, oldLines, cursor);
  if (at === null && oldLines.length && oldLines[oldLines.length - 1] === "") {
    oldLines = oldLines.slice(0, -1);
    if (newLines.length && newLines[newLines.length - 1] === "") newLines = newLines.slice(0, -1);
    at = seekSequence(lines, oldLines, cursor);
  }
  if (at === null) return error(`Failed to find expected lines in ${path}:\n${oldLines.join("\n")}`);
  // The attempt is a hunk: lines common to old_text and new_text are context, and the file's own
  // context lines stay as they are (only removed and added lines change).
  const out = [];
  let k = at;
  for (const part of diffArrays(oldLines, newLines)) {
    if (part.added) out.push(...part.value.map((l) => l + cr));
    else if (part.removed) k += part.value.length;
    else {
      out.push(...lines.slice(k, k + part.value.length));
      k += part.value.length;
    }
  }
  lines.splice(at, oldLines.length, ...out);
  return applied(lines.join("\n") + "\n", `Success. Updated the following files:\nM ${path}`);
}
