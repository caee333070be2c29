// AI: Aider's editblock format (aider/coders/editblock_coder.py) at its defaults. Facts: the file
// is read with universal newlines and written with LF; everything is line-based with line ends
// kept; passes: the first window of exactly equal lines; then, after outdenting SEARCH and REPLACE
// by their smallest common indentation, the first window equal after lstrip whose added prefix
// is the same string on every non-blank line (that prefix is added to the REPLACE lines); a
// SEARCH of more than 2 lines starting with a blank line is retried without it; then `...` lines
// split both texts into pieces that must each occur exactly once (as substrings) and are replaced
// in order. The fuzzy pass after these is unreachable. On failure the model is shown the SEARCH
// block and, when a window of the file is at least 0.6 similar (difflib ratio over lines), that
// window (exactly, when its first and last lines equal the SEARCH's; otherwise with 5 lines on
// each side). An empty SEARCH appends REPLACE (as a whole line) to the file; a SEARCH equal to
// REPLACE "applies" and leaves the file as it was.
import { universalNewlines } from "../text.mjs";
import { applied, error } from "./common.mjs";
import { ratio } from "./difflib.mjs";

const prep = (s) => {
  if (s && !s.endsWith("\n")) s += "\n";
  return s.split(/(?<=\n)/).filter((l) => l !== "");
};
const ws = (l) => l.length - l.replace(/^\s+/, "").length;

function perfect(whole, part, replace) {
  outer: for (let i = 0; i + part.length <= whole.length; i++) {
    for (let j = 0; j < part.length; j++) if (whole[i + j] !== part[j]) continue outer;
    return [...whole.slice(0, i), ...replace, ...whole.slice(i + part.length)].join("");
  }
  return null;
}

function missingLeadingWhitespace(whole, part, replace) {
  const leading = [...part, ...replace].filter((l) => l.trim()).map(ws);
  if (leading.length && Math.min(...leading) > 0) {
    const n = Math.min(...leading);
    part = part.map((l) => (l.trim() ? l.slice(n) : l));
    replace = replace.map((l) => (l.trim() ? l.slice(n) : l));
  }
  for (let i = 0; i + part.length <= whole.length; i++) {
    const win = whole.slice(i, i + part.length);
    if (!win.every((w, k) => w.replace(/^\s+/, "") === part[k].replace(/^\s+/, ""))) continue;
    const adds = new Set();
    win.forEach((w, k) => {
      if (w.trim()) adds.add(w.slice(0, w.length - part[k].length));
    });
    if (adds.size !== 1) continue;
    const add = [...adds][0];
    const rep = replace.map((l) => (l.trim() ? add + l : l));
    return [...whole.slice(0, i), ...rep, ...whole.slice(i + part.length)].join("");
  }
  return null;
}

function dotdotdots(whole, part, replace) {
  const dots = /(^[ \t]*\.\.\.[ \t]*\n)/m;
  const pp = part.split(new RegExp(dots.source, "gm"));
  const rp = replace.split(new RegExp(dots.source, "gm"));
  if (pp.length !== rp.length) return null;
  if (pp.length === 1) return null;
  for (let i = 1; i < pp.length; i += 2) if (pp[i] !== rp[i]) return null;
  const parts = pp.filter((_, i) => i % 2 === 0);
  const reps = rp.filter((_, i) => i % 2 === 0);
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    const r = reps[k];
    if (!p && !r) continue;
    if (!p && r) {
      if (!whole.endsWith("\n")) whole += "\n";
      whole += r;
      continue;
    }
    const n = whole.split(p).length - 1;
    if (n !== 1) return null;
    whole = whole.replace(p, () => r);
  }
  return whole;
}

export function replaceMostSimilarChunk(whole, part, replace) {
  const [w, p, r] = [prep(whole), prep(part), prep(replace)];
  let res = perfect(w, p, r) ?? missingLeadingWhitespace(w, p, r);
  if (res !== null) return res;
  if (p.length > 2 && !p[0].trim()) {
    res = perfect(w, p.slice(1), r) ?? missingLeadingWhitespace(w, p.slice(1), r);
    if (res !== null) return res;
  }
  const wj = w.join("");
  const pj = p.join("");
  const rj = r.join("");
  return dotdotdots(wj, pj, rj);
}

export function findSimilarLines(search, content, threshold = 0.6) {
  // Python's splitlines: no empty element after a final newline.
  const lines = (t) => {
    const l = t.split("\n");
    if (l[l.length - 1] === "") l.pop();
    return l;
  };
  const s = lines(search);
  const c = lines(content);
  let best = 0;
  let bestAt = 0;
  for (let i = 0; i + s.length <= c.length; i++) {
    const r = ratio(s, c.slice(i, i + s.length));
    if (r > best) {
      best = r;
      bestAt = i;
    }
  }
  if (best < threshold) return "";
  const chunk = c.slice(bestAt, bestAt + s.length);
  if (chunk[0] === s[0] && chunk[chunk.length - 1] === s[s.length - 1]) return chunk.join("\n");
  return c.slice(Math.max(0, bestAt - 5), Math.min(c.length, bestAt + s.length + 5)).join("\n");
}

export function apply(doc, attempt, { path }) {
  const content = universalNewlines(doc);
  // The block's texts are whole lines, each ending with "\n": the reply is split with Python's
  // splitlines (so "\r\n", "\r" and the other line breaks it knows end a line) and joined with "\n".
  const line = (s) => (s === "" ? s : s.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/).join("\n").replace(/\n$/, "") + "\n");
  const part = line(attempt.old_text);
  const replace = line(attempt.new_text);
  if (part.trim() === "") return applied(content + line(replace), `Applied edit to ${path}`);
  const res = replaceMostSimilarChunk(content, part, replace);
  // Any non-empty result is written, the unchanged document included (SEARCH equal to REPLACE).
  if (res) return applied(res, `Applied edit to ${path}`);
  let msg = `# 1 SEARCH/REPLACE block failed to match!\n\n## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in ${path}\n<<<<<<< SEARCH\n${line(part)}=======\n${line(replace)}>>>>>>> REPLACE\n\n`;
  const similar = findSimilarLines(part, content);
  if (similar) msg += `Did you mean to match some of these actual lines from ${path}?\n\n\`\`\`\n${similar}\n\`\`\`\n\n`;
  if (replace.trim() && content.includes(replace)) msg += `Are you sure you need this SEARCH/REPLACE block?\nThe REPLACE lines are already in ${path}!\n\n`;
  msg += "The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc\n";
  return error(msg);
}
