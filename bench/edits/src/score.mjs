// Scoring on whole documents. A tool's output document is compared with the expected one:
//   EXACT  — byte for byte;
//   EQUIV  — the differences lie inside the target, and the result is still valid and means the
//            same, judged by the document's language: Python by its parser (ast.dump), YAML and
//            JSON by the data they load to, everything else (Makefiles included) line by line with
//            the indentation kept exactly and only whitespace after it, and look-alike characters,
//            folded (Markdown and plain text may also re-wrap an unindented paragraph);
//   BAD    — anything else that wrote: a change outside the target ("wrong-place"), a change inside
//            it beyond EQUIV ("corrupted": lost or injected tokens, a reverted earlier edit, a
//            literal "\n"), or any write in a must-refuse case ("refuse-violated");
//   NOOP   — the document is unchanged.
// COLLATERAL is a separate flag: bytes outside the target changed only by line endings, tab
// expansion, the BOM or the final newline; it does not make a result BAD.
import { spawnSync } from "node:child_process";
import { isDeepStrictEqual } from "node:util";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { langOf } from "./gen/ops.mjs";
import { expandTabs, foldLookalikes, sha256 } from "./text.mjs";

const SAME_MEANING = join(dirname(fileURLToPath(import.meta.url)), "same-meaning.py");
const meaningCache = new Map();

/** "same" | "differ" | "invalid" | "unknown" (see same-meaning.py); JSON is judged here. */
export function sameMeaning(lang, expected, result) {
  if (lang === "json") {
    let want;
    try {
      want = JSON.parse(expected);
    } catch {
      return "unknown";
    }
    try {
      return isDeepStrictEqual(JSON.parse(result), want) ? "same" : "differ";
    } catch {
      return "invalid";
    }
  }
  const key = sha256(`${lang}\0${expected}\0${result}`);
  if (!meaningCache.has(key)) {
    const r = spawnSync("python3", [SAME_MEANING], { input: JSON.stringify({ lang, expected, result }), encoding: "utf8" });
    if (r.status !== 0) throw new Error(`same-meaning.py failed: ${r.stderr}`);
    meaningCache.set(key, r.stdout.trim());
  }
  return meaningCache.get(key);
}

/** What a whole-file normaliser may do to bytes outside the edit without it being a wrong edit. */
export function collateralNormal(s) {
  return expandTabs(s.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n")).replace(/\n+$/, "");
}

/** Whitespace after the indentation (runs, trailing) and look-alikes folded; the indentation kept. */
export function lineNormal(line) {
  if (line.trim() === "") return "";
  const ind = line.match(/^[ \t]*/)[0];
  return ind + foldLookalikes(line.slice(ind.length)).replace(/\s+/g, " ").trim();
}

/** A paragraph's words, for prose where a line break inside a paragraph means a space. */
const proseNormal = (s) => foldLookalikes(s).replace(/\s+/g, " ").trim();

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
  const lang = langOf(c.doc ?? c.doc_name ?? "");
  const inside = (exp, d) => equivalent(lang, expected, result, exp, d);
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

/**
 * Is a difference inside the target harmless? Python and YAML ask their parsers about the whole
 * documents, JSON is parsed here; where the expected document does not parse (a fragment) or the
 * language has no parser, the lines around the difference are compared with `lineNormal`.
 */
function equivalent(lang, wholeExpected, wholeResult, expected, d) {
  // Widen to whole lines so an indentation difference is judged on the lines it affects.
  const from = expected.lastIndexOf("\n", d.from - 1) + 1;
  const nl = expected.indexOf("\n", d.to);
  const to = nl === -1 ? expected.length : nl;
  const expText = expected.slice(from, to);
  const gotText = expected.slice(from, d.from) + d.got + expected.slice(d.to, to);
  // Tokens lost or injected are never the same meaning; this also spares the parser most calls.
  if (proseNormal(expText) !== proseNormal(gotText)) return false;
  if (["py", "yml", "json"].includes(lang)) {
    const verdict = sameMeaning(lang, wholeExpected, wholeResult);
    if (verdict !== "unknown") return verdict === "same";
  }
  const exp = expText.replace(/\r/g, "").split("\n");
  const got = gotText.replace(/\r/g, "").split("\n");
  // A final newline added or dropped at the end of the file changes nothing.
  if (to === expected.length) for (const ls of [exp, got]) while (ls.length > 1 && ls[ls.length - 1].trim() === "") ls.pop();
  if (exp.length === got.length && exp.every((l, i) => lineNormal(l) === lineNormal(got[i]))) return true;
  // Re-wrapped prose: only unindented Markdown or text lines, where a break inside a paragraph reads as a space.
  const flat = (ls) => ls.every((l) => !/^[ \t]/.test(l) && l.trim() !== "");
  return ["md", "txt"].includes(lang) && flat(exp) && flat(got);
}

/** "landed": EXACT or EQUIV, or ASKED (an ambiguous-copy case where the tool asked which copy). */
export const landed = (outcome) => outcome === "EXACT" || outcome === "EQUIV" || outcome === "ASKED";
