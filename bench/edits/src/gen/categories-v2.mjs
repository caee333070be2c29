// The test set's categories: every v1 category (same generators, drawn on the v2 documents) plus
// six kinds of attempt v1 lacked. Counts follow the field more than v1 did: exact edits are the
// largest category, every other kind has ten cases (the field-weighted average in the report
// applies the measured mix on top).
import { count, lineTable } from "../text.mjs";
import { CATEGORIES, generators } from "./categories.mjs";
import { applyOp, commentFor, langOf, makeOp, pickRegion } from "./ops.mjs";

export const CATEGORIES_V2 = {
  ...Object.fromEntries(Object.entries(CATEGORIES).map(([k, v]) => [k, { ...v, n: k === "A" ? 150 : 10 }])),
  U: { n: 10, patterns: [18], title: "sequential: stale against the agent's own earlier edit" },
  V: { n: 10, patterns: [], title: "empty old_text on a non-empty file (must refuse)" },
  W: { n: 10, patterns: [], title: "old_text equal to new_text (must change nothing)" },
  X: { n: 10, patterns: [], title: "HTML entities in the file, decoded characters in the attempt" },
  Y: { n: 10, patterns: [], title: "long blocks (40–100 lines), exact or with one misremembered token" },
  Z: { n: 10, patterns: [], title: "token conflict: the document changed the very token the attempt changes (must refuse)" },
};

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', nbsp: "\u00a0", mdash: "\u2014", ndash: "\u2013", ldquo: "\u201c", rdquo: "\u201d", hellip: "\u2026", middot: "\u00b7", sect: "\u00a7", copy: "\u00a9", euml: "\u00eb", uuml: "\u00fc", eacute: "\u00e9", iacute: "\u00ed", aacute: "\u00e1" };
const ENTITY = /&(?:#(\d+)|([a-z]+));/g;
const decode = (s) => s.replace(ENTITY, (m, n, name) => (n ? String.fromCodePoint(Number(n)) : ENTITIES[name] ?? m));

export function generatorsV2(docs, opts) {
  const base = generators(docs, opts);
  const names = Object.keys(docs);
  const lf = names.filter((n) => !docs[n].includes("\r\n"));
  // Prelude edits go through every tool; a tool that rewrites tabs or line endings on every write
  // would move the document away from the scored one, so sequential cases use plain LF files.
  const plainLf = lf.filter((n) => !docs[n].includes("\t") && langOf(n) !== "json");
  const code = lf.filter((n) => ["js", "py", "rs", "yml"].includes(langOf(n)));
  const refuseBody = (doc, old_text, new_text, model, extra = {}) => ({ doc, target: [], expected: [], attempt: { old_text, new_text }, must_refuse: true, ...extra, perturbation: { model } });

  return {
    ...base,

    U(r) {
      const b = base.L(r);
      if (!b || b.setup?.length !== 1 || !plainLf.includes(b.doc)) return null;
      const stored = docs[b.doc];
      const s = b.setup[0];
      const prelude = { old_text: stored.slice(s.start, s.end), new_text: s.text };
      if (prelude.old_text.trim() === "" || count(stored, prelude.old_text) !== 1) return null;
      const { setup, setup_note, ...rest } = b;
      const adjacent = b.perturbation.model === "stale-adjacent";
      return {
        ...rest,
        prelude: [prelude],
        prelude_note: adjacent ? "the agent's own earlier edit changed the line above the region" : "the agent's own earlier edit changed a line inside the region",
        ...(adjacent ? { exact_ok: true } : {}),
        perturbation: { model: adjacent ? "own-edit-adjacent" : "own-edit-inside" },
      };
    },

    V(r) {
      const doc = r.pick(lf);
      const line = commentFor(langOf(doc));
      return refuseBody(doc, "", r.chance(0.5) ? `${line}\n` : line, "empty-old");
    },

    W(r) {
      const doc = r.pick(lf);
      const region = pickRegion(docs[doc], r);
      if (!region) return null;
      return refuseBody(doc, region.text, region.text, "same-text");
    },

    X(r) {
      // Entities are markup only in HTML and Markdown; in source code `&lt;` is a literal.
      const pool = names.filter((n) => ["html", "md"].includes(langOf(n)) && /&(?:#\d+|[a-z]+);/.test(docs[n]) && !docs[n].includes("\r\n"));
      if (pool.length === 0) return null;
      const doc = r.pick(pool);
      const text = docs[doc];
      const region = pickRegion(text, r, { len: r.int(1, 5), accept: (g) => /&(?:#\d+|[a-z]+);/.test(g.text) });
      if (!region) return null;
      const seen = region.lines.map(decode);
      const op = makeOp(seen, langOf(doc), r, { kinds: ["replace", "replace", "number", "insert"] });
      if (!op) return null;
      const real = applyOp(op, region.lines);
      // The change must mean the same on the encoded lines (not land inside an entity name).
      if (real.map(decode).join("\n") !== applyOp(op, seen).join("\n")) return null;
      return {
        doc,
        target: [{ start: region.start, end: region.end }],
        expected: [{ start: region.start, end: region.end, text: real.join("\n") }],
        attempt: { old_text: seen.join("\n"), new_text: applyOp(op, seen).join("\n") },
        must_refuse: false,
        perturbation: { model: "entities-decoded" },
      };
    },

    Y(r) {
      const doc = r.pick(code);
      const text = docs[doc];
      if (lineTable(text).length < 120) return null;
      const region = pickRegion(text, r, { len: r.int(40, 100) });
      if (!region) return null;
      const op = makeOp(region.lines, langOf(doc), r);
      if (!op) return null;
      const expected = [{ start: region.start, end: region.end, text: applyOp(op, region.lines).join("\n") }];
      const target = [{ start: region.start, end: region.end }];
      if (r.chance(0.5)) {
        return { doc, target, expected, attempt: { old_text: region.text, new_text: applyOp(op, region.lines).join("\n") }, must_refuse: false, perturbation: { model: "long-exact" } };
      }
      // One context line far from the change carries a misremembered identifier.
      const far = region.lines.map((_, i) => i).filter((i) => Math.abs(i - op.line) > 5 && /[A-Za-z_][A-Za-z0-9_]{3,}/.test(region.lines[i]));
      if (far.length === 0) return null;
      const j = r.pick(far);
      const tok = region.lines[j].match(/[A-Za-z_][A-Za-z0-9_]{3,}/)[0];
      const seen = region.lines.map((l, i) => (i === j ? l.replace(tok, `${tok}s`) : l));
      return { doc, target, expected, attempt: { old_text: seen.join("\n"), new_text: applyOp(op, seen).join("\n") }, must_refuse: false, perturbation: { model: "long-near-miss", params: { line: j, token: tok } } };
    },

    Z(r) {
      const doc = r.pick(code);
      const stored = docs[doc];
      const region = pickRegion(stored, r, { len: r.int(1, 6) });
      if (!region) return null;
      const op = makeOp(region.lines, langOf(doc), r, { kinds: ["replace", "number"] });
      if (!op) return null;
      const theirs = /^\d+$/.test(op.from) ? String(Number(op.from) + 2) : `${op.from}Prev`;
      if (theirs === op.to) return null;
      const changed = applyOp({ ...op, to: theirs }, region.lines).join("\n");
      const setup = [{ start: region.start, end: region.end, text: changed }];
      return {
        ...refuseBody(doc, region.text, applyOp(op, region.lines).join("\n"), "token-conflict", { setup, setup_note: `the document changed ${op.from} to ${theirs} after the model read it` }),
        perturbation: { model: "token-conflict", params: { from: op.from, mine: op.to, theirs } },
      };
    },
  };
}

