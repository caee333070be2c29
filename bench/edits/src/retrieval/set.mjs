// The retrieval set (docs/retrieval.md): its documents, queries and answers, and the plain
// tokenisation the baseline, the integrity test and the shared-terms record use. Node built-ins only.

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const SET_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "retrieval",
);
export const DOCS_DIR = join(SET_DIR, "docs");

/**
 * The file of document `name`: the set's own documents (the Chinese pages it added) are in
 * `retrieval/docs/`; the ones it shares with editbench are read where editbench keeps them
 * (`docs/`, `docs-v2/`), not copied — SOURCES.tsv pins each by its sha256 either way.
 */
export function docFile(name) {
  const dirs = [DOCS_DIR, join(SET_DIR, "..", "docs"), join(SET_DIR, "..", "docs-v2")];
  return dirs.map((d) => join(d, name)).find((f) => existsSync(f)) ?? join(DOCS_DIR, name);
}

/** English function words a person leaves out of a search box; the baseline ignores them. */
export const STOPWORDS = new Set(
  (
    "a an and are as at be by can do does for from how i if in into is it its of on or so that the their them then there " +
    "these this to up was what when where which while who why will with without you your not no any each s t"
  ).split(" "),
);

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
export const isCjk = (ch) => CJK.test(ch);

/** Lower-cased runs of letters, digits and `_` outside CJK script (a CJK run is not a word here). */
export function words(text) {
  const out = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    for (const part of m[0].split(
      /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/u,
    ))
      if (part) out.push(part);
  }
  return out;
}

/** The CJK characters of `text`, in order. */
export const cjkChars = (text) => [...text].filter(isCjk);

/** CJK character bigrams of each CJK run (a run of one character gives that character). */
export function cjkBigrams(text) {
  const out = [];
  for (const m of text.matchAll(
    /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/gu,
  )) {
    const run = [...m[0]];
    if (run.length === 1) out.push(run[0]);
    for (let i = 0; i + 1 < run.length; i++) out.push(run[i] + run[i + 1]);
  }
  return out;
}

/**
 * The distinct terms of a query as the baseline searches for them: its words minus STOPWORDS,
 * and for Chinese text each CJK character.
 */
export function queryTerms(query) {
  const terms = new Set(words(query).filter((w) => !STOPWORDS.has(w)));
  for (const ch of cjkChars(query)) terms.add(ch);
  return [...terms];
}

/**
 * What a query shares with its answer's text, word for word: its non-stopword words that occur
 * as words there, and its CJK bigrams that occur there (single shared characters are not
 * counted: nearly every Chinese query shares some). Recorded in queries.json as `shared`.
 */
export function sharedTerms(query, answerText) {
  const have = new Set(words(answerText));
  const out = [
    ...new Set(words(query).filter((w) => !STOPWORDS.has(w) && have.has(w))),
  ];
  for (const bg of new Set(cjkBigrams(query)))
    if ([...bg].length === 2 && answerText.includes(bg)) out.push(bg);
  return out;
}

/** The lines of a text as a reader numbers them (a final newline does not start a line). */
export function lines(text) {
  const ls = text.split("\n");
  if (ls.length > 1 && ls[ls.length - 1] === "") ls.pop();
  return ls;
}

export const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");

/** The set: `{ queries, docs: Map(name → text) }`, every document read once. */
export function loadSet() {
  const set = JSON.parse(readFileSync(join(SET_DIR, "queries.json"), "utf8"));
  const docs = new Map();
  for (const q of set.queries)
    if (!docs.has(q.doc))
      docs.set(q.doc, readFileSync(docFile(q.doc), "utf8"));
  return { ...set, docs };
}

/** The answer's text: its lines joined with "\n". */
export function answerText(docText, [first, last]) {
  return lines(docText)
    .slice(first - 1, last)
    .join("\n");
}

/** SOURCES.tsv as rows of { file, origin, package, licence, sha256, transformation }. */
export function sources() {
  const [head, ...rows] = readFileSync(join(SET_DIR, "SOURCES.tsv"), "utf8")
    .trimEnd()
    .split("\n");
  const keys = head.split("\t");
  return rows.map((r) =>
    Object.fromEntries(r.split("\t").map((v, i) => [keys[i], v])),
  );
}
