// CL: Cline's legacy SEARCH/REPLACE matcher (constructNewFileContentV1, diff.ts, before its
// removal). The block format accumulates each SEARCH and REPLACE line with a "\n", so both texts
// end with a line break. Facts: passes from the cursor (0 for one block): substring indexOf; a
// window of lines equal after trim (file split on "\n", so "\r" is trimmed away); for SEARCH of 3
// lines or more, a window whose first and last lines equal SEARCH's after trim at the distance of
// SEARCH's line count, the middle never compared; then indexOf from 0. First match wins, no
// uniqueness check; REPLACE is written literally. An empty SEARCH replaces the whole file. On a
// miss the tool answers with the whole original file; on success with the whole new file.
import { applied, error } from "./common.mjs";

const block = (s) => (s === "" ? "" : s.endsWith("\n") ? s : s + "\n");

function lineTrimmed(original, search, from) {
  const o = original.split("\n");
  const s = search.split("\n");
  if (s[s.length - 1] === "") s.pop();
  let startLine = 0;
  let idx = 0;
  while (idx < from && startLine < o.length) {
    idx += o[startLine].length + 1;
    startLine++;
  }
  for (let i = startLine; i + s.length <= o.length; i++) {
    let ok = true;
    for (let j = 0; j < s.length && ok; j++) ok = o[i + j].trim() === s[j].trim();
    if (!ok) continue;
    let start = 0;
    for (let k = 0; k < i; k++) start += o[k].length + 1;
    let end = start;
    for (let k = 0; k < s.length; k++) end += o[i + k].length + 1;
    return [start, Math.min(end, original.length)];
  }
  return null;
}

function blockAnchor(original, search, from) {
  const o = original.split("\n");
  const s = search.split("\n");
  if (s[s.length - 1] === "") s.pop();
  if (s.length < 3) return null;
  const first = s[0].trim();
  const last = s[s.length - 1].trim();
  let startLine = 0;
  let idx = 0;
  while (idx < from && startLine < o.length) {
    idx += o[startLine].length + 1;
    startLine++;
  }
  for (let i = startLine; i + s.length <= o.length; i++) {
    if (o[i].trim() !== first || o[i + s.length - 1].trim() !== last) continue;
    let start = 0;
    for (let k = 0; k < i; k++) start += o[k].length + 1;
    let end = start;
    for (let k = 0; k < s.length; k++) end += o[i + k].length + 1;
    return [start, Math.min(end, original.length)];
  }
  return null;
}

export function apply(doc, attempt, { path }) {
  const search = block(attempt.old_text);
  const replace = block(attempt.new_text);
  let out;
  if (search === "") out = replace;
  else {
    let m = null;
    const at = doc.indexOf(search, 0);
    if (at !== -1) m = [at, at + search.length];
    m ??= lineTrimmed(doc, search, 0) ?? blockAnchor(doc, search, 0);
    if (!m) {
      return error(
        `The SEARCH block:\n${search.trimEnd()}\n...does not match anything in the file.\n\nThe file was reverted to its original state:\n\n<file_content path="${path}">\n${doc}\n</file_content>\n\nNow that you have the latest state of the file, try the operation again with fewer, more precise SEARCH blocks.`,
      );
    }
    out = doc.slice(0, m[0]) + replace + doc.slice(m[1]);
  }
  return applied(
    out,
    `The content was successfully saved to ${path}.\n\nHere is the full, updated content of the file that was saved:\n\n<final_file_content path="${path}">\n${out}\n</final_file_content>`,
  );
}
