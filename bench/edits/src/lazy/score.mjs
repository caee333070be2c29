// Scoring a lazy-snippet merge (docs/editbench.md#lazy-snippets): the whole document after the
// call is classified by editbench's own scorer (src/score.mjs: EXACT, EQUIV, BAD, NOOP); a call
// that did not succeed and left the document as it was is a refusal. Never imports agentpad.
import { materialize } from "../cases.mjs";
import { classify, landed } from "../score.mjs";

/** `{ outcome, bad_kind?, refused }` of one call's result document. */
export function scoreCall(c, current, result, { status }) {
  const r = classify(c, current, materialize(c).expected, result);
  return { outcome: r.outcome, bad_kind: r.bad_kind, refused: status !== "Success" && result === current };
}

/** The `q` quantile of `xs` (nearest rank: the smallest value with at least q of them at or below it). */
export function percentile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(q * s.length) - 1)];
}

/** Counts over result rows `{ outcome, refused, ms }`. */
export function tally(rows) {
  return {
    n: rows.length,
    landed: rows.filter((x) => landed(x.outcome)).length,
    exact: rows.filter((x) => x.outcome === "EXACT").length,
    bad: rows.filter((x) => x.outcome === "BAD").length,
    refused: rows.filter((x) => x.refused).length,
    ms_median: rows.length ? percentile(rows.map((x) => x.ms), 0.5) : null,
    ms_p95: rows.length ? percentile(rows.map((x) => x.ms), 0.95) : null,
  };
}
