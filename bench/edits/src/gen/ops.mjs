// The intended change (an "op") and the region picker. An op is plain data applied to a list of
// lines, so the same intended change can be applied to the text the model believes (giving its
// new_text) and to the real current text (giving the expected document): that is how a stale or
// perturbed attempt gets a whole-document ground truth of "current document plus only the change".
import { count, leadingWs, lineTable } from "../text.mjs";

const KEYWORDS = new Set(
  ("if else for while return function const let var new this self def class import from pub fn " +
    "impl struct enum match mut use mod true false None True False null undefined and not elif " +
    "with try except raise yield async await static type where crate super in of is as let")
    .split(" "),
);

export function langOf(name) {
  if (name.endsWith(".md")) return "md";
  if (name.endsWith(".py")) return "py";
  if (name.endsWith(".rs")) return "rs";
  if (name.endsWith(".js") || name.endsWith(".go")) return "js";
  if (name.endsWith(".yml") || name.endsWith(".yaml")) return "yml";
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".html")) return "html";
  if (name.endsWith(".mk") || /(^|\/)Makefile$/.test(name)) return "make";
  return "txt";
}

export const commentFor = (lang) =>
  ({ js: "// editbench: checked", rs: "// editbench: checked", py: "# editbench: checked", yml: "# editbench: checked", make: "# editbench: checked", html: "<!-- editbench: checked -->" })[lang] ??
  "Editbench note: this was checked.";

/** Identifier-like tokens of a line (not keywords), with their offsets. */
export function tokens(line) {
  const out = [];
  for (const m of line.matchAll(/[A-Za-z_][A-Za-z0-9_]{2,}/g)) {
    if (!KEYWORDS.has(m[0])) out.push({ text: m[0], at: m.index });
  }
  return out;
}

/**
 * A random op on `lines` (the model's version). Kinds: `replace` (one token of line `line`
 * becomes `to`), `number` (a number literal +1, stored as a replace), `insert` (a new line after
 * `line` at its indentation), `delete` (line `line`). `avoid`: line indexes the op must not touch.
 */
export function makeOp(lines, lang, r, { avoid = [], kinds = ["replace", "replace", "number", "insert", "delete"] } = {}) {
  for (let tries = 0; tries < 40; tries++) {
    const kind = r.pick(kinds);
    const idx = r.int(0, lines.length - 1);
    if (avoid.includes(idx) || lines[idx].trim() === "") continue;
    const line = lines[idx];
    if (kind === "replace") {
      const toks = tokens(line).filter((t) => count(line, t.text) === 1);
      if (toks.length === 0) continue;
      const t = r.pick(toks);
      return { kind: "replace", line: idx, from: t.text, to: renamed(t.text, r) };
    }
    if (kind === "number") {
      const m = [...line.matchAll(/\b\d{1,6}\b/g)].filter((x) => count(line, x[0]) === 1);
      if (m.length === 0) continue;
      const x = r.pick(m)[0];
      return { kind: "replace", line: idx, from: x, to: String(Number(x) + 1) };
    }
    if (kind === "insert") return { kind: "insert", line: idx, text: commentFor(lang) };
    if (kind === "delete") {
      if (lines.length < 3 || idx === 0 || idx === lines.length - 1) continue;
      return { kind: "delete", line: idx };
    }
  }
  return null;
}

function renamed(tok, r) {
  const suffix = r.pick(["Next", "V2", "Alt", "Checked", "Local"]);
  return /^[A-Z_0-9]+$/.test(tok) ? `${tok}_${suffix.toUpperCase()}` : tok.includes("_") ? `${tok}_${suffix.toLowerCase()}` : `${tok}${suffix}`;
}

/**
 * Apply `op` to `lines` (a copy is returned). An inserted line takes the indentation of the line
 * it follows (and its trailing "\r", so a CRLF region stays CRLF). `shift` maps the op's line
 * index when the version has extra lines (a stale document).
 */
export function applyOp(op, lines, shift = 0) {
  const out = [...lines];
  const i = op.line + shift;
  if (op.kind === "replace") {
    if (!out[i].includes(op.from)) throw new Error(`op: line ${i} lacks ${JSON.stringify(op.from)}`);
    out[i] = out[i].replace(op.from, op.to);
  } else if (op.kind === "insert") {
    const cr = out[i].endsWith("\r") ? "\r" : "";
    out.splice(i + 1, 0, leadingWs(out[i]) + op.text + cr);
  } else if (op.kind === "delete") {
    out.splice(i, 1);
  }
  return out;
}

const LENGTHS = [
  [0.4, 1, 3],
  [0.45, 4, 10],
  [0.15, 11, 30],
];

export function regionLength(r) {
  let x = r.next();
  for (const [p, lo, hi] of LENGTHS) {
    if (x < p) return r.int(lo, hi);
    x -= p;
  }
  return r.int(4, 10);
}

/**
 * A whole-line region of `text`: `{ first, last, start, end, text, lines }` (end excludes the last
 * line's "\n"). `accept(region)` filters; by default the region's text must be unique.
 */
export function pickRegion(text, r, { len, accept = () => true, unique = true, maxLineLen = 160, tries = 200 } = {}) {
  const table = lineTable(text);
  for (let t = 0; t < tries; t++) {
    const n = Math.min(len ?? regionLength(r), table.length);
    const first = r.int(0, table.length - n);
    const last = first + n - 1;
    const lines = table.slice(first, last + 1).map((l) => l.text);
    if (lines[0].trim() === "" || lines[lines.length - 1].trim() === "") continue;
    if (lines.some((l) => l.length > maxLineLen)) continue;
    const region = { first, last, start: table[first].start, end: table[last].end, lines };
    region.text = text.slice(region.start, region.end);
    if (region.text.replace(/\r/g, "").trim().length < 4) continue;
    if (unique && count(text, region.text) !== 1) continue;
    if (!accept(region)) continue;
    return region;
  }
  return null;
}
