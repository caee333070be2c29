// Loading and checking cases. A case names its document (docs/<name>, or inline `doc_text` for a
// hand-written case), optional `setup` splices that make the current document, the target
// span(s) and the expected splices (offsets are UTF-16 code units into the current document as
// decoded from UTF-8, BOM and "\r" included). This module never imports agentpad.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { applySplices, count, sha256, similarity } from "./text.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DOCS_DIR = join(ROOT, "docs");
export const CASES_DIR = (version = "v1") => join(ROOT, "cases", version);
/** v1 (dev) reads docs/; a later set has its own pool, docs-<version>/, sharing no file with v1. */
export const docsDir = (version = "v1") => (version === "v1" ? DOCS_DIR : join(ROOT, `docs-${version}`));

const docCache = new Map();
export function readDoc(name, dir = DOCS_DIR) {
  const key = join(dir, name);
  if (!docCache.has(key)) docCache.set(key, readFileSync(key, "utf8"));
  return docCache.get(key);
}

export function listDocs(dir = DOCS_DIR) {
  return readdirSync(dir).filter((n) => n !== "SOURCES.tsv").sort();
}

/** Replaces the one occurrence of `old_text` (a prelude edit is exact and unique by construction). */
const applyExact = (doc, e) => {
  const at = doc.indexOf(e.old_text);
  return doc.slice(0, at) + e.new_text + doc.slice(at + e.old_text.length);
};

/**
 * `{ stored, opened, current, expected, name }` of a case, whole documents. `opened` is what the
 * tool is given; a case with a `prelude` (the agent's own earlier edits, made through the tool
 * before the measured attempt) is scored against `current`, the document after the prelude.
 */
export function materialize(c) {
  const stored = c.doc_text ?? readDoc(c.doc, c.doc_dir ? join(ROOT, c.doc_dir) : DOCS_DIR);
  const opened = applySplices(stored, c.setup ?? []);
  const current = (c.prelude ?? []).reduce(applyExact, opened);
  const expected = applySplices(current, c.expected);
  return { stored, opened, current, expected, name: c.doc ?? c.doc_name };
}

/** A category file: one letter (v1, v2), or RF, the real-failure set (docs/editbench.md#real-failures). */
const CATEGORY_FILE = /^(?:[A-Z]|RF)\.json$/;

/** Every case of a version, in category order. */
export function loadCases(version = "v1") {
  const dir = CASES_DIR(version);
  return readdirSync(dir)
    .filter((f) => CATEGORY_FILE.test(f))
    .sort()
    .flatMap((f) => JSON.parse(readFileSync(join(dir, f), "utf8")));
}

/** Perturbation models whose attempt is meant to match the document exactly. */
const EXACT_MODELS = new Set(["none", "long-exact", "same-text", "stale-adjacent", "last-lines", "cjk", "astral", "bom-file", "mid-line-fragment", "duplicate", "right-count", "wrong-count"]);

/** Problems with one case ([] when it is sound). */
export function validateCase(c) {
  const bad = [];
  const { current, expected } = materialize(c);
  const spans = c.target;
  for (const [i, t] of spans.entries()) {
    if (!(t.start >= 0 && t.end <= current.length && t.start <= t.end)) bad.push(`target ${i} out of the document`);
    if (i > 0 && t.start < spans[i - 1].end) bad.push(`target ${i} overlaps the previous one`);
  }
  for (const e of c.expected) {
    if (!spans.some((t) => e.start >= t.start && e.end <= t.end)) bad.push(`expected splice ${e.start}-${e.end} is outside every target`);
  }
  if (c.must_refuse !== (c.expected.length === 0)) bad.push("must_refuse must go with an empty expected list");
  if (!c.must_refuse && expected === current) bad.push("the expected document equals the current one");
  const { old_text: oldText, new_text: newText } = c.attempt;
  if (typeof oldText !== "string" || typeof newText !== "string") bad.push("attempt texts must be strings");
  const model = c.perturbation?.model ?? "none";
  // Two v2 categories exist to send exactly these attempts; everywhere else they are a mistake.
  if (oldText === newText && model !== "same-text") bad.push("old_text equals new_text");
  if (oldText === "" && model !== "empty-old") bad.push("old_text is empty");
  for (const [i, e] of (c.prelude ?? []).entries()) {
    const opened = applySplices(c.doc_text ?? readDoc(c.doc, c.doc_dir ? join(ROOT, c.doc_dir) : DOCS_DIR), c.setup ?? []);
    if (i === 0 && count(opened, e.old_text) !== 1) bad.push("the prelude edit is not exact and unique");
  }
  const exact = count(current, oldText);
  const wantExact = EXACT_MODELS.has(model) || c.exact_ok === true || (c.source !== "generated" && ["A", "K", "T", "O", "P"].includes(c.category));
  if (c.perturbation?.model === "real-failure") {
    // A call an agent really sent, that failed: not found verbatim, or found more than once.
    if (exact === 1) bad.push("a real failed call must not match the file exactly once");
  } else if (c.category === "K") {
    if (exact < 2) bad.push(`a duplicate case needs old_text at least twice, found ${exact}`);
    if (!c.disambiguation) bad.push("a duplicate case needs a disambiguation");
  } else if (c.category === "T") {
    if (!c.attempt.replace_all) bad.push("a T case sets replace_all");
    if (!c.must_refuse && c.attempt.expected_occurrences !== exact) bad.push(`stated ${c.attempt.expected_occurrences}, found ${exact}`);
    if (c.must_refuse && c.attempt.expected_occurrences === exact) bad.push("a wrong-count case states the right count");
  } else if (wantExact) {
    if (exact !== 1) bad.push(`old_text should occur exactly once, found ${exact}`);
  } else if (exact !== 0) {
    bad.push(`old_text occurs ${exact} times but the case is about a non-exact attempt`);
  }
  if (c.category === "Q") {
    const t = current.slice(spans[0].start, spans[0].end);
    const sim = similarity(oldText, t);
    if (!(sim >= 0.8 && sim < 1)) bad.push(`near-miss similarity ${sim.toFixed(3)} is outside [0.8, 1)`);
  }
  if (c.disambiguation && c.disambiguation.anchor_line_text && count(current, c.disambiguation.anchor_line_text) !== 1) {
    bad.push("the anchor line is not unique");
  }
  return bad;
}

/** The manifest of a version: sha256 of every case file and every document. */
export function manifestOf(version = "v1", dir = CASES_DIR(version)) {
  const files = {};
  for (const f of readdirSync(dir).filter((f) => CATEGORY_FILE.test(f)).sort()) files[f] = sha256(readFileSync(join(dir, f)));
  const docs = {};
  for (const d of listDocs(docsDir(version))) docs[d] = sha256(readFileSync(join(docsDir(version), d)));
  return { files, docs };
}

/** Throws when the frozen cases (in `dir`) or the documents differ from MANIFEST.json. */
export function verifyManifest(version = "v1", dir = CASES_DIR(version)) {
  const frozen = JSON.parse(readFileSync(join(dir, "MANIFEST.json"), "utf8"));
  const now = manifestOf(version, dir);
  const diffs = [];
  for (const kind of ["files", "docs"]) {
    const names = new Set([...Object.keys(frozen[kind]), ...Object.keys(now[kind])]);
    for (const n of names) if (frozen[kind][n] !== now[kind][n]) diffs.push(`${kind}/${n}`);
  }
  if (diffs.length) throw new Error(`cases/${version} differ from their MANIFEST.json: ${diffs.join(", ")}`);
  return frozen;
}
