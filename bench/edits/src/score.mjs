// Scoring on whole documents. A tool's output document is compared with the expected one:
//   EXACT  — byte for byte;
//   EQUIV  — the differences lie inside the target and vanish once whitespace style (indent
//            characters, trailing spaces, runs of spaces) and look-alike characters are folded;
//   BAD    — anything else that wrote: a change outside the target ("wrong-place"), a change inside
//            it beyond EQUIV ("corrupted": lost or injected tokens, a reverted earlier edit, a
//            literal "\n"), or any write in a must-refuse case ("refuse-violated");
//   NOOP   — the document is unchanged.
// COLLATERAL is a separate flag: bytes outside the target changed only by line endings, tab
// expansion, the BOM or the final newline; it does not make a result BAD.
import { expandTabs, foldLookalikes } from "./text.mjs";

/** What a whole-file normaliser may do to bytes outside the edit without it being a wrong edit. */
export function collateralNormal(s) {
  return expandTabs(s.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n")).replace(/\n+$/, "");
}

/** Whitespace style (indentation, trailing spaces, runs, line wrapping) and look-alikes folded. */
export function styleNormal(s) {
  return foldLookalikes(s).replace(/\s+/g, " ").trim();
}

function commonPrefix(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a, b, floor) {
  let i = 0;
  const n = Math.min(a.length, b.length) - floor;
  while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/**
 * Where the result differs from the expected document, in the expected document's coordinates:
 * `{ from, to, got }` (`got` is the result's text there), or null when they are equal.
 */
function difference(expected, result) {
  if (expected === result) return null;
  const p = commonPrefix(expected, result);
  const s = commonSuffix(expected, result, p);
  return { from: p, to: expected.length - s, got: result.slice(p, result.length - s) };
}

/** Target spans moved into the expected document (each grows or shrinks by its splices). */
function expectedSpans(c) {
  const out = [];
  let shift = 0;
  for (const t of c.target) {
    const inside = c.expected.filter((e) => e.start >= t.start && e.end <= t.end);
    const d = inside.reduce((n, e) => n + e.text.length - (e.end - e.start), 0);
    out.push({ start: t.start + shift, end: t.end + shift + d });
    shift += d;
  }
  return out;
}

/** Is the region [from, to) inside one target span? */
const within = (spans, from, to) => spans.some((t) => from >= t.start && to <= t.end);

/**
 * `{ outcome, bad_kind?, collateral }` of `result` for case `c` whose current and expected
 * documents are given. Pure: the same inputs always give the same answer.
 */
export function classify(c, current, expected, result) {
  if (result === current) return { outcome: "NOOP", collateral: false };
  if (c.must_refuse) return { outcome: "BAD", bad_kind: "refuse-violated", collateral: false };
  if (result === expected) return { outcome: "EXACT", collateral: false };
  const spans = expectedSpans(c);
  const raw = difference(expected, result);
  if (within(spans, raw.from, raw.to)) return { outcome: inside(expected, raw) ? "EQUIV" : "BAD", bad_kind: inside(expected, raw) ? undefined : "corrupted", collateral: false };
  // Outside the target: forgivable only when it is whole-file normalisation.
  const en = collateralNormal(expected);
  const rn = collateralNormal(result);
  if (en === rn) return { outcome: "EXACT", collateral: true };
  const nspans = spans.map((t) => ({ start: collateralNormal(expected.slice(0, t.start)).length, end: collateralNormal(expected.slice(0, t.end)).length }));
  const d = difference(en, rn);
  if (within(nspans, d.from, d.to)) {
    return { outcome: inside(en, d) ? "EQUIV" : "BAD", bad_kind: inside(en, d) ? undefined : "corrupted", collateral: true };
  }
  return { outcome: "BAD", bad_kind: "wrong-place", collateral: false };
}

/** Do the expected and resulting texts of a difference agree once style is folded? */
function inside(expected, d) {
  // Widen to whole lines so an indentation difference is judged on the lines it affects.
  const from = expected.lastIndexOf("\n", d.from - 1) + 1;
  const nl = expected.indexOf("\n", d.to);
  const to = nl === -1 ? expected.length : nl;
  const exp = expected.slice(from, to);
  const got = expected.slice(from, d.from) + d.got + expected.slice(d.to, to);
  return styleNormal(exp) === styleNormal(got);
}

/** "landed": EXACT or EQUIV. */
export const landed = (outcome) => outcome === "EXACT" || outcome === "EQUIV";
