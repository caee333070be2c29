// Small text helpers shared by the generator, the peers and the scorer. Nothing here knows about
// agentpad (the generator's import graph is checked by test/generator.test.mjs).
import { createHash } from "node:crypto";

export function sha256(text) {
  return createHash("sha256").update(text).digest("hex");
}

/** Seeded PRNG (mulberry32): the same seed gives the same cases on every machine. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
  };
}

/** Number of non-overlapping occurrences of `needle` in `hay` (0 for an empty needle). */
export function count(hay, needle) {
  if (needle === "") return 0;
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

export function allIndexes(hay, needle) {
  const out = [];
  if (needle === "") return out;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Lines of `text` with their start offsets; a final "\n" does not open an empty last line. */
export function lineTable(text) {
  const out = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    out.push({ start, end, text: text.slice(start, end), next: nl === -1 ? text.length : nl + 1 });
    start = nl === -1 ? text.length : nl + 1;
  }
  return out;
}

/** 1-based line number of UTF-16 offset `at`. */
export function lineOf(text, at) {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

export const leadingWs = (line) => line.match(/^[\t ]*/)[0];

/** Curly quotes, dashes, ellipsis, NBSP and other spaces folded to ASCII (the look-alikes). */
export function foldLookalikes(s) {
  return s
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, " ");
}

export function levenshtein(a, b) {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Array(b.length + 1);
  let cur = new Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/**
 * Levenshtein distance when it is at most `max`, else any value above `max` (the row minimum
 * only grows, so a row whose minimum exceeds `max` ends the computation).
 */
export function levenshteinWithin(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length === 0 || b.length === 0) return Math.max(a.length, b.length);
  let prev = new Array(b.length + 1);
  let cur = new Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** 1 − Levenshtein / longer length (1 for two empty strings). */
export function similarity(a, b) {
  const m = Math.max(a.length, b.length);
  return m === 0 ? 1 : 1 - levenshtein(a, b) / m;
}

/** Python's str.expandtabs(8): the column restarts after "\n" and "\r". */
export function expandTabs(s, size = 8) {
  let out = "";
  let col = 0;
  for (const ch of s) {
    if (ch === "\t") {
      const n = size - (col % size);
      out += " ".repeat(n);
      col += n;
    } else if (ch === "\n" || ch === "\r") {
      out += ch;
      col = 0;
    } else {
      out += ch;
      col++;
    }
  }
  return out;
}

/** Python's universal newlines on read: "\r\n" and a lone "\r" become "\n". */
export const universalNewlines = (s) => s.replace(/\r\n?/g, "\n");

/** The file's dominant line ending. */
export function detectEol(s) {
  const crlf = (s.match(/\r\n/g) ?? []).length;
  const lf = (s.match(/\n/g) ?? []).length - crlf;
  return crlf > lf ? "\r\n" : "\n";
}

/** Apply non-overlapping splices `[{start, end, text}]` (offsets into `doc`). */
export function applySplices(doc, splices) {
  const sorted = [...splices].sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const s of sorted) {
    if (s.start < at) throw new Error(`overlapping splices at ${s.start}`);
    out += doc.slice(at, s.start) + s.text;
    at = s.end;
  }
  return out + doc.slice(at);
}
