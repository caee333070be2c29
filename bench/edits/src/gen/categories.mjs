// One generator per category (A–T, see docs/editbench.md §Categories). Each returns a case body
// or null (the caller draws again with the next random numbers). A body holds the document name,
// optional `setup` splices that turn the stored document into the current one, the target
// span(s) and the expected splices in the current document, and the attempt the simulated model
// sends.
import { allIndexes, applySplices, count, foldLookalikes, leadingWs, lineOf, lineTable, similarity } from "../text.mjs";
import { applyOp, commentFor, langOf, makeOp, pickRegion, tokens } from "./ops.mjs";

const isCrlf = (t) => t.includes("\r\n");
const join = (lines) => lines.join("\n");

/** The common tail: region + op on the current text, old/new from the model's lines. */
function body(doc, current, region, op, oldLines, newLines, extra = {}) {
  return {
    doc,
    target: [{ start: region.start, end: region.end }],
    expected: [{ start: region.start, end: region.end, text: join(applyOp(op, region.lines, extra.shift ?? 0)) }],
    attempt: { old_text: join(oldLines), new_text: join(newLines) },
    must_refuse: false,
    ...extra.fields,
  };
}

function indentUnit(text) {
  if (/^\t/m.test(text)) return "\t";
  const widths = lineTable(text).map((l) => leadingWs(l.text).length).filter((w) => w > 0);
  return widths.filter((w) => w % 4 === 2).length > widths.length * 0.3 ? "  " : "    ";
}

const mapLines = (lines, f) => lines.map(f);
const reindent = (line, from, to) => {
  const ws = leadingWs(line);
  if (from === "\t") return to.repeat(ws.match(/^\t*/)[0].length) + line.slice(ws.match(/^\t*/)[0].length);
  const lvl = Math.floor(ws.length / from.length);
  return to.repeat(lvl) + " ".repeat(ws.length - lvl * from.length) + line.slice(ws.length);
};

// ---------------------------------------------------------------------------------------------

export const CATEGORIES = {
  A: { n: 20, patterns: [], title: "control: exact, unique, whole lines" },
  B: { n: 15, patterns: [1], title: "trailing whitespace drift" },
  C: { n: 20, patterns: [2], title: "tabs in the file, spaces in the attempt" },
  D: { n: 20, patterns: [22], title: "uniform indentation offset" },
  E: { n: 10, patterns: [2, 22], title: "non-uniform indent width (2 vs 4 per level)" },
  F: { n: 20, patterns: [6, 7], title: "look-alike characters (quotes, dashes, NBSP, ellipsis)" },
  G: { n: 12, patterns: [8], title: "over-escaped attempt" },
  H: { n: 20, patterns: [5], title: "copied line-number gutters" },
  I: { n: 12, patterns: [], title: "whitespace collapse and prose reflow" },
  J: { n: 12, patterns: [23], title: "elided middle" },
  K: { n: 25, patterns: [10, 11, 12, 13], title: "duplicates, with a disambiguation hint" },
  L: { n: 15, patterns: [18, 19], title: "stale after an earlier edit" },
  M: { n: 12, patterns: [3, 4], title: "line endings" },
  N: { n: 10, patterns: [32], title: "end of file and blank lines" },
  O: { n: 10, patterns: [31], title: "CJK, emoji, astral, NFC/NFD, BOM" },
  P: { n: 12, patterns: [21], title: "partial-line fragment" },
  Q: { n: 15, patterns: [25], title: "near miss (one token misremembered)" },
  R: { n: 10, patterns: [24], title: "must refuse (text from elsewhere)" },
  S: { n: 10, patterns: [14, 15, 16, 17], title: "fuzzy traps" },
  T: { n: 10, patterns: [10], title: "replace_all with expected_occurrences" },
};

/** `cjkPool`: the documents the CJK and astral cases draw from (each set names its own). */
export function generators(docs, { cjkPool = ["zh-authored-guide.md", "ja-authored-notes.md", "md-node-url.md"] } = {}) {
  const names = Object.keys(docs);
  const lf = names.filter((n) => !isCrlf(docs[n]));
  const code = lf.filter((n) => ["js", "py", "rs", "yml"].includes(langOf(n)));
  const tabbed = lf.filter((n) => /^\t/m.test(docs[n]) && langOf(n) === "js");
  const spaced = code.filter((n) => !tabbed.includes(n));
  const crlf = names.filter((n) => isCrlf(docs[n]));
  const prose = lf.filter((n) => langOf(n) === "md");
  const lookalike = names.filter((n) => /[\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u00a0]/.test(docs[n]) && !isCrlf(docs[n]));

  const plain = (r, pool, opts = {}) => {
    const doc = r.pick(pool);
    const text = docs[doc];
    const region = pickRegion(text, r, opts);
    if (!region) return null;
    return { doc, text, region };
  };

  return {
    A(r) {
      const p = plain(r, lf);
      if (!p) return null;
      const op = makeOp(p.region.lines, langOf(p.doc), r);
      if (!op) return null;
      return { ...body(p.doc, p.text, p.region, op, p.region.lines, applyOp(op, p.region.lines)), perturbation: { model: "none" } };
    },

    B(r) {
      const reverse = r.chance(0.33);
      const doc = r.pick(code);
      const stored = docs[doc];
      const region = pickRegion(stored, r, { len: r.int(2, 8) });
      if (!region) return null;
      const op = makeOp(region.lines, langOf(doc), r);
      if (!op) return null;
      const pad = () => r.pick(["  ", " ", "\t", "    "]);
      const nonBlank = region.lines.map((l, i) => i).filter((i) => region.lines[i].trim() !== "" && !/\s$/.test(region.lines[i]));
      if (nonBlank.length === 0) return null;
      const chosen = new Set([r.pick(nonBlank), r.pick(nonBlank)]);
      const padded = region.lines.map((l, i) => (chosen.has(i) ? l + pad() : l));
      if (!reverse) {
        // The file has trailing whitespace the model's copy lacks.
        const setup = [{ start: region.start, end: region.end, text: join(padded) }];
        const current = applySplices(stored, setup);
        const cur = { ...region, end: region.start + join(padded).length, lines: padded };
        if (count(current, join(region.lines)) !== 0) return null;
        return {
          ...body(doc, current, cur, op, region.lines, applyOp(op, region.lines)),
          setup,
          setup_note: "trailing whitespace added to lines of the region",
          perturbation: { model: "trailing-ws-in-file", params: { lines: [...chosen] } },
        };
      }
      return {
        ...body(doc, stored, region, op, padded, applyOp(op, padded)),
        perturbation: { model: "trailing-ws-in-attempt", params: { lines: [...chosen] } },
      };
    },

    C(r) {
      const doc = r.pick(tabbed);
      const text = docs[doc];
      const region = pickRegion(text, r, {
        accept: (g) => new Set(g.lines.filter((l) => l.trim()).map((l) => leadingWs(l).length)).size >= 2 && g.lines.some((l) => /^\t\t/.test(l)),
      });
      if (!region) return null;
      const op = makeOp(region.lines, "js", r);
      if (!op) return null;
      const unit = r.pick(["  ", "    ", "    ", "        "]);
      const f = (l) => reindent(l, "\t", unit);
      return {
        ...body(doc, text, region, op, mapLines(region.lines, f), mapLines(applyOp(op, region.lines), f)),
        perturbation: { model: "tabs-to-spaces", params: { spaces: unit.length } },
      };
    },

    D(r) {
      const doc = r.pick([...spaced, ...tabbed]);
      const text = docs[doc];
      const unit = indentUnit(text);
      const outdent = r.chance(0.7);
      const k = r.chance(0.75) ? 1 : 2;
      const shiftBy = unit.repeat(k);
      const region = pickRegion(text, r, {
        accept: (g) => !outdent || g.lines.every((l) => l.trim() === "" || l.startsWith(shiftBy)),
      });
      if (!region) return null;
      const op = makeOp(region.lines, langOf(doc), r);
      if (!op) return null;
      const f = outdent ? (l) => (l.trim() === "" ? l : l.slice(shiftBy.length)) : (l) => (l.trim() === "" ? l : shiftBy + l);
      const oldLines = mapLines(region.lines, f);
      if (count(text, join(oldLines)) !== 0) return null;
      return {
        ...body(doc, text, region, op, oldLines, mapLines(applyOp(op, region.lines), f)),
        perturbation: { model: outdent ? "outdent" : "over-indent", params: { levels: k, unit: unit === "\t" ? "tab" : unit.length } },
      };
    },

    E(r) {
      const doc = r.pick(spaced.filter((n) => indentUnit(docs[n]) !== "\t"));
      const text = docs[doc];
      const unit = indentUnit(text);
      const to = unit === "    " ? "  " : "    ";
      const region = pickRegion(text, r, {
        accept: (g) => new Set(g.lines.filter((l) => l.trim()).map((l) => leadingWs(l).length)).size >= 2 && g.lines.every((l) => leadingWs(l).length % unit.length === 0),
      });
      if (!region) return null;
      const op = makeOp(region.lines, langOf(doc), r);
      if (!op) return null;
      const f = (l) => reindent(l, unit, to);
      const oldLines = mapLines(region.lines, f);
      if (count(text, join(oldLines)) !== 0) return null;
      return {
        ...body(doc, text, region, op, oldLines, mapLines(applyOp(op, region.lines), f)),
        perturbation: { model: "indent-width", params: { from: unit.length, to: to.length } },
      };
    },

    F(r) {
      const reverse = r.chance(0.2);
      if (!reverse) {
        const doc = r.pick(lookalike);
        const text = docs[doc];
        const region = pickRegion(text, r, { accept: (g) => foldLookalikes(g.text) !== g.text, maxLineLen: 600 });
        if (!region) return null;
        const op = makeOp(region.lines, langOf(doc), r, { kinds: ["replace", "replace", "insert"] });
        if (!op) return null;
        const f = (l) => foldLookalikes(l);
        return {
          ...body(doc, text, region, op, mapLines(region.lines, f), mapLines(applyOp(op, region.lines), f)),
          perturbation: { model: "ascii-for-lookalikes" },
        };
      }
      const doc = r.pick(prose);
      const text = docs[doc];
      const region = pickRegion(text, r, { accept: (g) => /\w'\w|"\w[^"\n]*\w"| -- /.test(g.text), maxLineLen: 600 });
      if (!region) return null;
      const op = makeOp(region.lines, "md", r, { kinds: ["replace", "insert"] });
      if (!op) return null;
      const f = (l) => l.replace(/(\w)'(\w)/g, "$1\u2019$2").replace(/"(\w[^"\n]*\w)"/g, "\u201c$1\u201d").replace(/ -- /g, " \u2014 ");
      return {
        ...body(doc, text, region, op, mapLines(region.lines, f), mapLines(applyOp(op, region.lines), f)),
        perturbation: { model: "typographic-for-ascii" },
      };
    },

    G(r) {
      const mode = r.pick(["newlines", "newlines", "quotes", "backslashes"]);
      const doc = r.pick(code);
      const text = docs[doc];
      const accept = {
        newlines: (g) => g.lines.length >= 2 && g.lines.length <= 6 && !g.text.includes("\\"),
        quotes: (g) => g.text.includes('"') && !g.text.includes("\\"),
        backslashes: (g) => /\\[a-z"'\\]/.test(g.text),
      }[mode];
      const region = pickRegion(text, r, { len: mode === "newlines" ? r.int(2, 5) : r.int(1, 3), accept });
      if (!region) return null;
      const op = makeOp(region.lines, langOf(doc), r, { kinds: ["replace", "number"] });
      if (!op) return null;
      const esc = (s) =>
        mode === "newlines"
          ? s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\t/g, "\\t").replace(/\n/g, "\\n")
          : mode === "quotes"
            ? s.replace(/"/g, '\\"')
            : s.replace(/\\/g, "\\\\");
      const alsoNew = r.chance(0.5);
      const newText = join(applyOp(op, region.lines));
      return {
        doc,
        target: [{ start: region.start, end: region.end }],
        expected: [{ start: region.start, end: region.end, text: newText }],
        attempt: { old_text: esc(region.text), new_text: alsoNew ? esc(newText) : newText },
        must_refuse: false,
        perturbation: { model: `escaped-${mode}`, params: { new_text_escaped: alsoNew } },
      };
    },

    H(r) {
      const doc = r.pick(lf);
      const text = docs[doc];
      const region = pickRegion(text, r, { len: r.int(1, 8) });
      if (!region) return null;
      const op = makeOp(region.lines, langOf(doc), r);
      if (!op) return null;
      const style = r.pick(["cat-n", "arrow", "box", "colon", "pipe"]);
      const g = (n) =>
        ({ "cat-n": `${String(n).padStart(6)}\t`, arrow: `${String(n).padStart(6)}\u2192`, box: `${String(n).padStart(4)}\u2502 `, colon: `${n}: `, pipe: `${n} | ` })[style];
      const first = region.first + 1;
      const gut = (lines) => lines.map((l, i) => g(first + i) + l);
      const inNew = r.chance(0.5);
      const newLines = applyOp(op, region.lines);
      return {
        ...body(doc, text, region, op, gut(region.lines), inNew ? gut(newLines) : newLines),
        perturbation: { model: "gutter", params: { style, in_new_text: inNew } },
      };
    },

    I(r) {
      if (r.chance(0.5)) {
        const doc = r.pick(lf);
        const text = docs[doc];
        const region = pickRegion(text, r, { len: r.int(1, 6), accept: (g) => /\S {2,}\S/.test(g.text) });
        if (!region) return null;
        const op = makeOp(region.lines, langOf(doc), r, { kinds: ["replace", "number"] });
        if (!op) return null;
        const f = (l) => leadingWs(l) + l.slice(leadingWs(l).length).replace(/(\S) {2,}(?=\S)/g, "$1 ");
        return {
          ...body(doc, text, region, op, mapLines(region.lines, f), mapLines(applyOp(op, region.lines), f)),
          perturbation: { model: "collapse-spaces" },
        };
      }
      // Reflow a Markdown paragraph at another width; the change is one word.
      const doc = r.pick(prose.filter((n) => !n.startsWith("zh-") && !n.startsWith("ja-")));
      const text = docs[doc];
      const region = pickRegion(text, r, {
        len: r.int(3, 6),
        accept: (g) => g.lines.every((l) => /^[A-Za-z(`*]/.test(l) && !l.startsWith("```") && !/^\s*[-*] /.test(l)),
      });
      if (!region) return null;
      const words = region.lines.join(" ").split(/\s+/);
      const cand = words.filter((w) => /^[a-z]{4,}$/.test(w) && count(region.text, w) === 1);
      if (cand.length === 0) return null;
      const from = r.pick(cand);
      const to = from + "ly";
      const width = r.pick([50, 60, 100, 120]);
      const wrap = (s) => {
        const out = [];
        let line = "";
        for (const w of s.split(/\s+/)) {
          if (line && line.length + 1 + w.length > width) {
            out.push(line);
            line = w;
          } else line = line ? `${line} ${w}` : w;
        }
        if (line) out.push(line);
        return out.join("\n");
      };
      const flat = region.lines.join(" ");
      const oldText = wrap(flat);
      if (oldText === region.text) return null;
      const re = new RegExp(`\\b${from}\\b`);
      return {
        doc,
        target: [{ start: region.start, end: region.end }],
        expected: [{ start: region.start, end: region.end, text: region.text.replace(re, to) }],
        attempt: { old_text: oldText, new_text: wrap(flat.replace(re, to)) },
        must_refuse: false,
        perturbation: { model: "reflow", params: { width } },
      };
    },

    J(r) {
      const doc = r.pick(code);
      const text = docs[doc];
      const lang = langOf(doc);
      const region = pickRegion(text, r, { len: r.int(8, 20) });
      if (!region) return null;
      const head = r.int(2, 3);
      const tail = r.int(2, 3);
      const n = region.lines.length;
      const kept = [...Array(head).keys(), ...Array.from({ length: tail }, (_, i) => n - tail + i)];
      const avoid = [...Array(n).keys()].filter((i) => !kept.includes(i));
      const op = makeOp(region.lines, lang, r, { avoid, kinds: ["replace", "number", "insert"] });
      if (!op) return null;
      const ind = leadingWs(region.lines[head]);
      const marker = r.pick([
        `${ind}...`,
        lang === "py" || lang === "yml" ? `${ind}# ... existing code ...` : `${ind}// ... existing code ...`,
        lang === "py" || lang === "yml" ? `${ind}# rest unchanged` : `${ind}// rest unchanged`,
      ]);
      const elide = (lines, h, t) => [...lines.slice(0, h), marker, ...lines.slice(lines.length - t)];
      const newFull = applyOp(op, region.lines);
      const newHead = op.line < head ? head + (newFull.length - n) : head;
      const newTail = op.line < head ? tail : tail + (newFull.length - n);
      return {
        ...body(doc, text, region, op, elide(region.lines, head, tail), elide(newFull, newHead, newTail)),
        perturbation: { model: "elided-middle", params: { marker: marker.trim() } },
      };
    },

    K(r) {
      const doc = r.pick(lf.filter((n) => langOf(n) !== "json"));
      const text = docs[doc];
      const table = lineTable(text);
      const repeated = [...new Set(table.map((l) => l.text))].filter((l) => l.trim().length >= 1 && l.length < 120 && (() => {
        const c = count(text, l);
        const asLines = table.filter((x) => x.text === l).length;
        return c >= 2 && c <= 5 && c === asLines;
      })());
      if (repeated.length === 0) return null;
      const line = r.pick(repeated);
      const occ = table.map((l, i) => (l.text === line ? i : -1)).filter((i) => i >= 0);
      const mid = table.length / 2;
      const central = occ.reduce((a, b) => (Math.abs(b - mid) < Math.abs(a - mid) ? b : a));
      const pool = r.chance(0.6) ? occ.filter((i) => i !== occ[0] && i !== central) : occ;
      if (pool.length === 0) return null;
      const ti = r.pick(pool);
      const prev = occ.filter((i) => i < ti).pop() ?? -1;
      let anchor = null;
      for (let i = ti - 1; i > prev && i >= ti - 15; i--) {
        if (table[i].text.trim().length >= 6 && count(text, table[i].text) === 1) {
          anchor = table[i].text;
          break;
        }
      }
      if (anchor === null) return null;
      const region = { first: ti, last: ti, start: table[ti].start, end: table[ti].end, lines: [line], text: line };
      const op = makeOp([line], langOf(doc), r, { kinds: ["replace", "number", "insert"] });
      if (!op) return null;
      return {
        ...body(doc, text, region, op, [line], applyOp(op, [line])),
        disambiguation: { hint_line: ti + 1, anchor_line_text: anchor.trim() },
        perturbation: { model: "duplicate", params: { occurrences: occ.length, target_rank: occ.indexOf(ti) + 1 } },
      };
    },

    L(r) {
      const doc = r.pick(code);
      const stored = docs[doc];
      const lang = langOf(doc);
      const adjacent = r.chance(0.2);
      const region = pickRegion(stored, r, { len: r.int(3, 12) });
      if (!region) return null;
      const op2 = makeOp(region.lines, lang, r, { kinds: ["replace", "number", "insert"] });
      if (!op2) return null;
      const table = lineTable(stored);
      let setup;
      let shift = 0;
      let cur;
      if (adjacent) {
        // The earlier edit renamed something on the line just above the region.
        const above = table[region.first - 1];
        if (!above) return null;
        const op1 = makeOp([above.text], lang, r, { kinds: ["replace", "insert"] });
        if (!op1) return null;
        const t = join(applyOp(op1, [above.text]));
        setup = [{ start: above.start, end: above.end, text: t }];
        const d = t.length - above.text.length;
        cur = { ...region, start: region.start + d, end: region.end + d };
      } else {
        const op1 = makeOp(region.lines, lang, r, { avoid: [op2.line], kinds: ["replace", "replace", "number", "insert"] });
        if (!op1) return null;
        if (op1.kind === "insert" && op1.line < op2.line) shift = 1;
        if (op1.kind === "replace" && op2.kind === "replace" && Math.abs(op1.line - op2.line) === 0) return null;
        const lines = applyOp(op1, region.lines);
        setup = [{ start: region.start, end: region.end, text: join(lines) }];
        cur = { ...region, end: region.start + join(lines).length, lines };
      }
      const current = applySplices(stored, setup);
      if (!adjacent && count(current, region.text) !== 0) return null;
      return {
        ...body(doc, current, cur, op2, region.lines, applyOp(op2, region.lines), { shift }),
        setup,
        setup_note: adjacent ? "an earlier edit changed the line above the region" : "an earlier edit changed a line inside the region",
        perturbation: { model: adjacent ? "stale-adjacent" : "stale-inside" },
      };
    },

    M(r) {
      const mode = r.pick(["crlf-file", "crlf-file", "crlf-file", "crlf-file", "crlf-needle", "mixed-file"]);
      if (mode === "crlf-file") {
        const doc = r.pick(crlf);
        const text = docs[doc];
        const region = pickRegion(text, r, { len: r.int(2, 10) });
        if (!region) return null;
        const op = makeOp(region.lines, langOf(doc), r);
        if (!op) return null;
        const strip = (ls) => ls.map((l) => l.replace(/\r$/, ""));
        return { ...body(doc, text, region, op, strip(region.lines), strip(applyOp(op, region.lines))), perturbation: { model: "lf-needle-crlf-file" } };
      }
      if (mode === "crlf-needle") {
        const doc = r.pick(code);
        const text = docs[doc];
        const region = pickRegion(text, r, { len: r.int(2, 8) });
        if (!region) return null;
        const op = makeOp(region.lines, langOf(doc), r);
        if (!op) return null;
        const b = body(doc, text, region, op, region.lines, applyOp(op, region.lines));
        b.attempt = { old_text: b.attempt.old_text.replace(/\n/g, "\r\n"), new_text: b.attempt.new_text.replace(/\n/g, "\r\n") };
        return { ...b, perturbation: { model: "crlf-needle-lf-file" } };
      }
      // A mixed file: the first half of the lines were converted to CRLF.
      const doc = r.pick(code);
      const stored = docs[doc];
      const table = lineTable(stored);
      const half = Math.floor(table.length / 2);
      const setup = table.slice(0, half).map((l) => ({ start: l.end, end: l.end, text: "\r" }));
      const current = applySplices(stored, setup);
      const region = pickRegion(current, r, { len: r.int(2, 8) });
      if (!region) return null;
      const op = makeOp(region.lines, langOf(doc), r);
      if (!op) return null;
      const strip = (ls) => ls.map((l) => l.replace(/\r$/, ""));
      return {
        ...body(doc, current, region, op, strip(region.lines), strip(applyOp(op, region.lines))),
        setup,
        setup_note: "the first half of the lines converted to CRLF (a mixed file)",
        perturbation: { model: "mixed-file" },
      };
    },

    N(r) {
      const mode = r.pick(["no-final-newline", "last-lines", "extra-blank"]);
      const doc = r.pick(code.filter((n) => docs[n].endsWith("\n")));
      const stored = docs[doc];
      if (mode === "extra-blank") {
        const region = pickRegion(stored, r, { len: r.int(2, 6) });
        if (!region) return null;
        const op = makeOp(region.lines, langOf(doc), r);
        if (!op) return null;
        const lead = r.chance(0.5);
        const pad = (ls) => (lead ? ["", ...ls] : [...ls, ""]);
        const oldLines = pad(region.lines);
        const oldText = join(oldLines) + (lead ? "" : "\n");
        if (stored.includes(oldText)) return null;
        const b = body(doc, stored, region, op, oldLines, pad(applyOp(op, region.lines)));
        b.attempt = { old_text: oldText, new_text: join(pad(applyOp(op, region.lines))) + (lead ? "" : "\n") };
        return { ...b, perturbation: { model: lead ? "extra-leading-blank" : "extra-trailing-blank" } };
      }
      const table = lineTable(stored);
      const n = r.int(1, 3);
      const first = table.length - n;
      if (table.slice(first).some((l) => l.text.trim() === "")) return null;
      const lines = table.slice(first).map((l) => l.text);
      let setup;
      let current = stored;
      if (mode === "no-final-newline") {
        setup = [{ start: stored.length - 1, end: stored.length, text: "" }];
        current = applySplices(stored, setup);
      }
      const region = { first, last: table.length - 1, start: table[first].start, end: table[first].start + join(lines).length, lines };
      region.text = join(lines);
      if (count(current, region.text) !== 1) return null;
      const op = makeOp(lines, langOf(doc), r, { kinds: ["replace", "number", "insert"] });
      if (!op) return null;
      const b = body(doc, current, region, op, lines, applyOp(op, lines));
      if (mode === "no-final-newline") b.attempt = { old_text: b.attempt.old_text + "\n", new_text: b.attempt.new_text + "\n" };
      return { ...b, ...(setup ? { setup, setup_note: "the final newline removed" } : {}), perturbation: { model: mode } };
    },

    O(r) {
      const mode = r.pick(["cjk", "cjk", "astral", "nfd-needle", "bom"]);
      if (mode === "cjk" || mode === "astral") {
        const doc = r.pick(cjkPool);
        const text = docs[doc];
        const re = mode === "cjk" ? /[\u4e00-\u9fff\u3040-\u30ff]/ : /[\u{10000}-\u{10ffff}]/u;
        const region = pickRegion(text, r, { len: r.int(1, 3), accept: (g) => re.test(g.text), maxLineLen: 500 });
        if (!region) return null;
        // A CJK change: replace one run of 2–4 CJK characters.
        const li = region.lines.findIndex((l) => re.test(l));
        const m = region.lines[li].match(/[\u4e00-\u9fff]{2,4}/);
        let op;
        if (m && count(region.lines[li], m[0]) === 1) op = { kind: "replace", line: li, from: m[0], to: `${m[0]}（已更新）` };
        else op = { kind: "insert", line: li, text: "✅ 已检查 🚀" };
        return { ...body(doc, text, region, op, region.lines, applyOp(op, region.lines)), perturbation: { model: mode } };
      }
      if (mode === "nfd-needle") {
        const doc = r.pick([...prose, ...code]);
        const text = docs[doc];
        const region = pickRegion(text, r, { len: r.int(1, 3), accept: (g) => g.text.normalize("NFD") !== g.text, maxLineLen: 500 });
        if (!region) return null;
        const op = makeOp(region.lines, langOf(doc), r, { kinds: ["replace", "insert"] });
        if (!op) return null;
        const f = (l) => l.normalize("NFD");
        return { ...body(doc, text, region, op, mapLines(region.lines, f), mapLines(applyOp(op, region.lines), f)), perturbation: { model: "nfd-needle-nfc-file" } };
      }
      const doc = r.pick(lf);
      const stored = docs[doc];
      const setup = [{ start: 0, end: 0, text: "\ufeff" }];
      const current = applySplices(stored, setup);
      const region = pickRegion(current, r, { accept: (g) => g.start > 0 });
      if (!region) return null;
      const op = makeOp(region.lines, langOf(doc), r);
      if (!op) return null;
      return { ...body(doc, current, region, op, region.lines, applyOp(op, region.lines)), setup, setup_note: "a UTF-8 BOM added", perturbation: { model: "bom-file" } };
    },

    P(r) {
      const doc = r.pick(lf.filter((n) => ["md", "js", "py"].includes(langOf(n))));
      const text = docs[doc];
      const table = lineTable(text).filter((l) => l.text.length >= 80 && l.text.split(/\s+/).length >= 10);
      if (table.length === 0) return null;
      const line = r.pick(table);
      const words = [...line.text.matchAll(/\S+/g)];
      const nw = r.int(3, 7);
      const wi = r.int(1, words.length - nw - 1);
      if (wi < 1 || wi + nw >= words.length) return null;
      const s = line.start + words[wi].index;
      const e = line.start + words[wi + nw - 1].index + words[wi + nw - 1][0].length;
      const frag = text.slice(s, e);
      if (count(text, frag) !== 1) return null;
      const ws = frag.split(/(\s+)/);
      const cands = ws.map((w, i) => i).filter((i) => /^[A-Za-z]{3,}$/.test(ws[i]) && count(frag, ws[i]) === 1);
      if (cands.length === 0) return null;
      const ci = r.pick(cands);
      const nf = ws.map((w, i) => (i === ci ? `${w}Edited` : w)).join("");
      return {
        doc,
        target: [{ start: s, end: e }],
        expected: [{ start: s, end: e, text: nf }],
        attempt: { old_text: frag, new_text: nf },
        must_refuse: false,
        perturbation: { model: "mid-line-fragment", params: { words: nw } },
      };
    },

    Q(r) {
      const q2 = r.chance(0.4);
      const doc = r.pick(code);
      const text = docs[doc];
      const region = pickRegion(text, r, { len: r.int(3, 8) });
      if (!region) return null;
      const lines = region.lines;
      const mutate = (tok) => r.pick([tok + "s", tok.slice(0, -1), tok.replace(/[aeiou](?=[^aeiou]*$)/, ""), tok[0] === tok[0].toUpperCase() ? tok.toLowerCase() : tok + "_"]);
      if (q2) {
        const li = r.int(0, lines.length - 1);
        const toks = tokens(lines[li]).filter((t) => count(lines[li], t.text) === 1 && t.text.length >= 4);
        if (toks.length === 0) return null;
        const t = r.pick(toks);
        const wrong = mutate(t.text);
        if (wrong === t.text || count(lines[li], wrong) > 0) return null;
        const model = lines.map((l, i) => (i === li ? l.replace(t.text, wrong) : l));
        const to = t.text + "Next";
        const newModel = model.map((l, i) => (i === li ? l.replace(wrong, to) : l));
        const sim = similarity(join(model), region.text);
        if (sim < 0.8 || count(text, join(model)) !== 0) return null;
        return {
          doc,
          target: [{ start: region.start, end: region.end }],
          expected: [{ start: region.start, end: region.end, text: join(lines.map((l, i) => (i === li ? l.replace(t.text, to) : l))) }],
          attempt: { old_text: join(model), new_text: join(newModel) },
          must_refuse: false,
          perturbation: { model: "near-miss-changed-line", params: { real: t.text, remembered: wrong, similarity: +sim.toFixed(3) } },
        };
      }
      const op = makeOp(lines, langOf(doc), r, { kinds: ["replace", "number", "insert"] });
      if (!op) return null;
      const ctx = lines.map((l, i) => i).filter((i) => i !== op.line && tokens(lines[i]).some((t) => t.text.length >= 4 && count(lines[i], t.text) === 1));
      if (ctx.length === 0) return null;
      const li = r.pick(ctx);
      const t = r.pick(tokens(lines[li]).filter((t) => t.text.length >= 4 && count(lines[li], t.text) === 1));
      const wrong = mutate(t.text);
      if (wrong === t.text || count(lines[li], wrong) > 0) return null;
      const model = lines.map((l, i) => (i === li ? l.replace(t.text, wrong) : l));
      const sim = similarity(join(model), region.text);
      if (sim < 0.8 || count(text, join(model)) !== 0) return null;
      return {
        ...body(doc, text, region, op, model, applyOp(op, model)),
        perturbation: { model: "near-miss-context-line", params: { real: t.text, remembered: wrong, similarity: +sim.toFixed(3) } },
      };
    },

    R(r) {
      const doc = r.pick(code);
      const text = docs[doc];
      const lang = langOf(doc);
      const others = code.filter((n) => n !== doc && langOf(n) === lang);
      const other = r.pick(others);
      const otext = docs[other];
      if (r.chance(0.5)) {
        // Same first and last lines as a block of this file; the middle comes from a sibling file.
        const region = pickRegion(text, r, { len: r.int(4, 8), accept: (g) => g.lines[0].trim().length >= 3 && g.lines[g.lines.length - 1].trim().length >= 1 });
        if (!region) return null;
        const mid = pickRegion(otext, r, { len: region.lines.length - 2, unique: false });
        if (!mid) return null;
        const needle = [region.lines[0], ...mid.lines, region.lines[region.lines.length - 1]];
        const present = mid.lines.filter((l) => l.trim() && text.includes(l)).length;
        if (present > 0 || count(text, join(needle)) !== 0) return null;
        const op = makeOp(needle, lang, r, { avoid: [0, needle.length - 1], kinds: ["replace", "insert"] });
        if (!op) return null;
        return {
          doc,
          target: [],
          expected: [],
          attempt: { old_text: join(needle), new_text: join(applyOp(op, needle)) },
          must_refuse: true,
          perturbation: { model: "sibling-middle", params: { sibling: other } },
        };
      }
      const region = pickRegion(otext, r, { len: r.int(2, 8) });
      if (!region) return null;
      if (region.lines.filter((l) => l.trim().length > 3 && !text.includes(l.trim())).length < 2) return null;
      const op = makeOp(region.lines, lang, r);
      if (!op) return null;
      return {
        doc,
        target: [],
        expected: [],
        attempt: { old_text: region.text, new_text: join(applyOp(op, region.lines)) },
        must_refuse: true,
        perturbation: { model: "from-other-file", params: { sibling: other } },
      };
    },

    S(r) {
      const doc = r.pick(spaced.filter((n) => indentUnit(docs[n]) !== "\t"));
      const stored = docs[doc];
      const unit = indentUnit(stored);
      if (r.chance(0.6)) {
        // The same block twice at two indentations (the copy is inserted, flagged in setup_note);
        // the attempt is outdented to a third; the target is the later copy.
        const region = pickRegion(stored, r, { len: r.int(2, 5), accept: (g) => g.lines.every((l) => l.trim() === "" || l.startsWith(unit)) });
        if (!region) return null;
        const table = lineTable(stored);
        const after = table[region.last].next;
        const copy = region.lines.map((l) => (l.trim() ? unit + l : l));
        const setup = [{ start: after, end: after, text: join(copy) + "\n" }];
        const current = applySplices(stored, setup);
        const op = makeOp(copy, langOf(doc), r, { kinds: ["replace", "number"] });
        if (!op) return null;
        const cur = { start: after, end: after + join(copy).length, lines: copy };
        const needle = region.lines.map((l) => (l.trim() ? l.slice(unit.length) : l));
        if (count(current, join(needle)) !== 0) return null;
        return {
          ...body(doc, current, cur, op, needle, applyOp(op, needle)),
          setup,
          setup_note: "a copy of the block inserted after it, one level deeper",
          perturbation: { model: "same-block-two-indents" },
        };
      }
      // First and last lines anchor a real block; the middle is another block's: nothing to edit.
      const region = pickRegion(stored, r, { len: r.int(4, 7), accept: (g) => g.lines[0].trim().length >= 4 && g.lines[g.lines.length - 1].trim().length >= 1 });
      if (!region) return null;
      const mid = pickRegion(stored, r, { len: region.lines.length - 2, unique: false, accept: (g) => g.start > region.end || g.end < region.start });
      if (!mid) return null;
      const drift = (l) => (l.trim() && l.startsWith(unit) ? l.slice(unit.length) : l);
      const needle = [region.lines[0], ...mid.lines, region.lines[region.lines.length - 1]].map(drift);
      if (similarity(join(needle), join(region.lines.map(drift))) >= 0.8) return null;
      const op = makeOp(needle, langOf(doc), r, { avoid: [0, needle.length - 1], kinds: ["replace", "insert"] });
      if (!op) return null;
      return {
        doc,
        target: [],
        expected: [],
        attempt: { old_text: join(needle), new_text: join(applyOp(op, needle)) },
        must_refuse: true,
        perturbation: { model: "anchors-of-another-block" },
      };
    },

    T(r) {
      const doc = r.pick(lf.filter((n) => langOf(n) !== "md"));
      const text = docs[doc];
      const toks = [...new Set([...text.matchAll(/[A-Za-z_][A-Za-z0-9_]{4,}/g)].map((m) => m[0]))].filter((t) => {
        const c = count(text, t);
        return c >= 2 && c <= 6 && (text.match(new RegExp(`\\b${t}\\b`, "g")) ?? []).length === c;
      });
      if (toks.length === 0) return null;
      const tok = r.pick(toks);
      const at = allIndexes(text, tok);
      const wrong = r.chance(0.5);
      const to = `${tok}Renamed`;
      const stated = wrong ? at.length + r.pick([-1, 1]) : at.length;
      if (stated < 1) return null;
      return {
        doc,
        target: wrong ? [] : at.map((s) => ({ start: s, end: s + tok.length })),
        expected: wrong ? [] : at.map((s) => ({ start: s, end: s + tok.length, text: to })),
        attempt: { old_text: tok, new_text: to, replace_all: true, expected_occurrences: stated },
        must_refuse: wrong,
        perturbation: { model: wrong ? "wrong-count" : "right-count", params: { occurrences: at.length, stated } },
      };
    },
  };
}

export { lineOf };
