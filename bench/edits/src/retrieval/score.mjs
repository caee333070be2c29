// Scoring of the retrieval set (docs/retrieval.md): recall@1, recall@5 and MRR over the first
// five candidates, per language and overall. A candidate is a line range { start, end }, 1-based
// and inclusive. Node built-ins only.

/** Candidates a ranker is judged on (every ranker is asked for this many). */
export const K = 5;

/** How many times the answer's line count a correct candidate may span. */
export const MAX_SPAN_RATIO = 3;

/**
 * Whether candidate `c` answers: it overlaps the answer's lines, spans at most
 * MAX_SPAN_RATIO × the answer's lines, and is not the whole document (`docLines` lines).
 */
export function isCorrect(c, [first, last], docLines) {
  if (!(c.start <= last && c.end >= first)) return false;
  if (c.start <= 1 && c.end >= docLines) return false;
  return c.end - c.start + 1 <= MAX_SPAN_RATIO * (last - first + 1);
}

/** 1-based rank of the first correct candidate among the first K, or null. */
export function firstCorrectRank(candidates, answer, docLines) {
  const i = candidates
    .slice(0, K)
    .findIndex((c) => isCorrect(c, answer, docLines));
  return i < 0 ? null : i + 1;
}

/** { n, r1, r5, mrr } of ranks (null = no correct candidate in the first K). */
export function summarize(ranks) {
  const n = ranks.length;
  if (n === 0) return { n, r1: null, r5: null, mrr: null };
  const hit = (k) => ranks.filter((r) => r !== null && r <= k).length / n;
  return {
    n,
    r1: hit(1),
    r5: hit(K),
    mrr: ranks.reduce((s, r) => s + (r === null ? 0 : 1 / r), 0) / n,
  };
}

/** Per language and overall: { en, zh, all } from rows of { lang, rank }. */
export function byLanguage(rows) {
  return {
    en: summarize(rows.filter((r) => r.lang === "en").map((r) => r.rank)),
    zh: summarize(rows.filter((r) => r.lang === "zh").map((r) => r.rank)),
    all: summarize(rows.map((r) => r.rank)),
  };
}

const pct = (x) => (x === null ? "–" : `${(100 * x).toFixed(1)} %`);
const num = (x) => (x === null ? "–" : x.toFixed(3));

/**
 * The Markdown table: one row per ranker, R@1, R@5 and MRR for en, zh and all. A ranker that
 * did not run is given as { name, skipped: "why" } and gets a row saying so, never a number.
 */
export function table(rankers) {
  const head =
    "| ranker | en R@1 | en R@5 | en MRR | zh R@1 | zh R@5 | zh MRR | all R@1 | all R@5 | all MRR |";
  const rule =
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |";
  const rows = rankers.map((r) => {
    if (r.skipped) return `| ${r.name} | ${r.skipped} |||||||||`;
    const cells = ["en", "zh", "all"].flatMap((l) => [
      pct(r.scores[l].r1),
      pct(r.scores[l].r5),
      num(r.scores[l].mrr),
    ]);
    return `| ${r.name} | ${cells.join(" | ")} |`;
  });
  return [head, rule, ...rows].join("\n");
}
