// The rankers of the retrieval benchmark (docs/retrieval.md) that need no engine, and the
// adapter that turns memo_find's answer into line ranges. Node built-ins only: the engine is
// reached through a workspace the caller creates (www/bench/suites/retrieval.mjs).

import { K } from "./score.mjs";
import { cjkBigrams, lines, queryTerms, words } from "./set.mjs";

/**
 * The plain baseline, what grep gives an agent: every line holding at least one query term
 * (set.mjs queryTerms: words minus stopwords, and each CJK character), as a substring of the
 * case-folded line; ranked by how many distinct terms it holds, then by document order. Each
 * candidate is that one line.
 */
export function grepRank(docText, query, limit = K) {
  const terms = queryTerms(query);
  const scored = [];
  lines(docText).forEach((line, i) => {
    const l = line.toLowerCase();
    const hits = terms.filter((t) => l.includes(t)).length;
    if (hits > 0) scored.push({ line: i + 1, hits });
  });
  scored.sort((a, b) => b.hits - a.hits || a.line - b.line);
  return scored.slice(0, limit).map((s) => ({ start: s.line, end: s.line }));
}

/** FNV-1a, 32 bits, over the UTF-16 code units of `s`. */
function fnv1a(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The test embedder, a stand-in for a host's real embedding model: a hashing-trick bag of
 * words. Each lower-cased word and each CJK character bigram is hashed (FNV-1a) to one of `dims`
 * dimensions with a sign from another bit of the hash; the counts are L2-normalised. Similar
 * texts share features; it knows no synonyms and no meaning. `calls` and `texts` count its use.
 */
export function hashEmbedder(dims = 512) {
  const embedder = async (texts) => {
    embedder.calls++;
    embedder.texts += texts.length;
    return texts.map((t) => {
      const v = new Array(dims).fill(0);
      for (const f of [...words(t), ...cjkBigrams(t)]) {
        const h = fnv1a(f);
        v[h % dims] += h & 0x80000000 ? -1 : 1;
      }
      const norm = Math.hypot(...v);
      return norm > 0 ? v.map((x) => x / norm) : v;
    });
  };
  embedder.calls = 0;
  embedder.texts = 0;
  return embedder;
}

/** 1-based line of UTF-16 offset `at` in `text`. */
export function lineOfOffset(text, at) {
  let line = 1;
  for (
    let i = text.indexOf("\n");
    i !== -1 && i < at;
    i = text.indexOf("\n", i + 1)
  )
    line++;
  return line;
}

/**
 * memo_find's candidates as line ranges: from `context_start`/`context_end` (UTF-16 offsets of
 * the unit in the document) where the candidate has them, else the one line `line`.
 */
export function candidateLines(docText, candidates) {
  return (candidates ?? []).map((c) => {
    if (
      Number.isInteger(c.context_start) &&
      Number.isInteger(c.context_end) &&
      c.context_end > c.context_start
    ) {
      return {
        start: lineOfOffset(docText, c.context_start),
        end: lineOfOffset(docText, c.context_end - 1),
      };
    }
    return { start: c.line, end: c.line };
  });
}

/** Whether workspace `ws` offers the tool `name` (memo_find). */
export function hasTool(ws, name) {
  return ws.tools({ format: "mcp" }).some((t) => t.name === name);
}

/** Statuses that are an answer to a search (candidates, or none found); any other is a failure. */
const ANSWERS = new Set(["Success", "MultiMatch", "NoMatch"]);

/**
 * One memo_find query through workspace `ws`: its candidates as line ranges. Throws when the
 * call failed (InvalidArguments, Blocked, Exception …): a broken call is not "nothing found".
 */
export async function memoFindRank(ws, docText, query, path, limit = K) {
  const r = await ws.callUntyped("memo_find", { query, path, limit });
  if (!ANSWERS.has(r.status) || !Array.isArray(r.candidates)) {
    throw new Error(
      `memo_find answered ${r.status}: ${String(r.summary ?? r.markdown ?? "").split("\n")[0]}`,
    );
  }
  return candidateLines(docText, r.candidates);
}
