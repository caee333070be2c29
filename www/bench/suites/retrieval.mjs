// Retrieval: which ranker finds the unit a reader means, on the frozen set of
// bench/edits/retrieval (docs/retrieval.md). Three rankers side by side in one run:
//
//   grep baseline       lines holding query terms, by how many they hold, then document order
//   memo_find (BM25)    ws.call("memo_find", { query, path, limit: 5 }) through the package
//   memo_find + embed   the same with the test embedder (a hashing-trick bag of words, a
//                       stand-in: real embeddings are the host's choice) as the `embed` option
//
// The two memo_find rankers are skipped, with a line saying so, when the build has no memo_find
// tool (or no `embed` option). Scores: recall@1, recall@5, MRR over the first five candidates,
// for en, zh and all (bench/edits/src/retrieval/score.mjs). Writes retrieval.json and
// retrieval.md to the output directory and returns one row per ranker (suite "retrieval") for
// js-results.json; the report prints them as their own section.
//
//   node www/bench/run.mjs --suite retrieval --out DIR

import { writeFileSync } from "node:fs";
import path from "node:path";

import { grepRank, hasTool, hashEmbedder, memoFindRank } from "../../../bench/edits/src/retrieval/rankers.mjs";
import { K, byLanguage, firstCorrectRank, table } from "../../../bench/edits/src/retrieval/score.mjs";
import { lines, loadSet } from "../../../bench/edits/src/retrieval/set.mjs";

const SUITE = "retrieval";

/** Workspace options every memo_find ranker gets besides its storage (and `embed` for the last). */
const FIND_OPTIONS = {};

/** Dimensions of the test embedder's hashed bag of words. */
const EMBED_DIMS = 512;

const NOT_AVAILABLE = "memo_find not available in this build";

/**
 * Runs `rank(q)` on every query: per query its candidates and the rank of the first correct one,
 * a failed call counted as no answer and kept with its error.
 */
async function runRanker(name, set, rank, log) {
  log(`${SUITE}: ${name}`);
  const perQuery = [];
  const started = performance.now();
  for (const q of set.queries) {
    const docLines = lines(set.docs.get(q.doc)).length;
    try {
      const candidates = (await rank(q)).slice(0, K);
      perQuery.push({ id: q.id, lang: q.lang, candidates, rank: firstCorrectRank(candidates, q.answer, docLines) });
    } catch (err) {
      perQuery.push({ id: q.id, lang: q.lang, candidates: [], rank: null, error: String(err?.message ?? err) });
    }
  }
  const ms = performance.now() - started;
  const failed = perQuery.filter((p) => p.error);
  return {
    name,
    scores: byLanguage(perQuery),
    failed: failed.length,
    first_error: failed[0]?.error,
    ms_total: Number(ms.toFixed(1)),
    perQuery,
  };
}

export async function run({ Workspace, MemoryStorage, log, out }) {
  const set = loadSet();
  const files = Object.fromEntries(set.docs);
  const rankers = [];

  rankers.push(await runRanker("grep baseline", set, async (q) => grepRank(set.docs.get(q.doc), q.query), log));

  let available = false;
  let why = NOT_AVAILABLE;
  try {
    const probe = await Workspace.create({ storage: new MemoryStorage(files), ...FIND_OPTIONS });
    available = hasTool(probe, "memo_find");
    probe.free();
  } catch (err) {
    why = `${NOT_AVAILABLE} (the workspace did not open: ${String(err?.message ?? err).split("\n")[0]})`;
  }

  if (!available) {
    log(`${SUITE}: ${why}; memo_find (BM25) and memo_find + embed skipped`);
    rankers.push({ name: "memo_find (BM25)", skipped: why }, { name: "memo_find + hash embed (stand-in)", skipped: why });
  } else {
    const ws = await Workspace.create({ storage: new MemoryStorage(files), ...FIND_OPTIONS });
    rankers.push(await runRanker("memo_find (BM25)", set, (q) => memoFindRank(ws, set.docs.get(q.doc), q.query, q.doc), log));
    ws.free();

    const embed = hashEmbedder(EMBED_DIMS);
    let wsEmbed = null;
    try {
      wsEmbed = await Workspace.create({ storage: new MemoryStorage(files), ...FIND_OPTIONS, embed });
    } catch (err) {
      const msg = `the \`embed\` option is not available in this build (${String(err?.message ?? err).split("\n")[0]})`;
      log(`${SUITE}: ${msg}; memo_find + embed skipped`);
      rankers.push({ name: "memo_find + hash embed (stand-in)", skipped: msg });
    }
    if (wsEmbed) {
      const r = await runRanker(
        "memo_find + hash embed (stand-in)",
        set,
        (q) => memoFindRank(wsEmbed, set.docs.get(q.doc), q.query, q.doc),
        log,
      );
      r.embedder = { kind: "hashing-trick bag of words (stand-in)", dims: EMBED_DIMS, calls: embed.calls, texts: embed.texts };
      rankers.push(r);
      wsEmbed.free();
    }
  }

  const md = markdownSection(rankers, set);
  for (const line of md.split("\n")) log(line);
  if (out) {
    const queries = set.queries.map(({ id, lang, doc, answer, query }) => ({ id, lang, doc, answer, query }));
    writeFileSync(
      path.join(out, "retrieval.json"),
      JSON.stringify({ generated: new Date().toISOString(), k: K, queries, rankers }, null, 2) + "\n",
    );
    writeFileSync(path.join(out, "retrieval.md"), md + "\n");
    log(`${SUITE}: wrote ${path.join(out, "retrieval.md")} and retrieval.json`);
  }

  return rankers.map((r) => ({
    suite: SUITE,
    work: "retrieval",
    impl: r.name,
    doc: "bench/edits/retrieval",
    skipped: r.skipped ?? null,
    scores: r.scores ?? null,
    failed: r.failed ?? 0,
    first_error: r.first_error ?? null,
    ms_total: r.ms_total ?? null,
    embedder: r.embedder ?? null,
  }));
}

/** The report's section: the table, then what it measured and any failed calls. */
export function markdownSection(rankers, set = loadSet()) {
  const nEn = set.queries.filter((q) => q.lang === "en").length;
  const nZh = set.queries.length - nEn;
  const L = ["## Retrieval (docs/retrieval.md)", ""];
  L.push(
    `${set.queries.length} frozen queries (${nEn} en, ${nZh} zh) over ${set.docs.size} documents (bench/edits/retrieval). ` +
      `A candidate is correct when it overlaps the answer's lines, spans at most 3× as many, and is not the whole document; ` +
      `R@1, R@5 and MRR over the first ${K} candidates.`,
    "",
  );
  L.push(table(rankers.map((r) => ({ name: r.name ?? r.impl, skipped: r.skipped, scores: r.scores }))), "");
  for (const r of rankers) {
    if (r.failed) L.push(`- ${r.name ?? r.impl}: ${r.failed} calls failed and count as misses; the first: ${r.first_error}`);
    if (r.embedder)
      L.push(
        `- ${r.name ?? r.impl}: the embedder is a ${r.embedder.dims}-dimension hashed bag of words, a stand-in (real embeddings are the host's choice); ${r.embedder.calls} calls, ${r.embedder.texts} texts.`,
      );
  }
  return L.join("\n").trimEnd();
}
