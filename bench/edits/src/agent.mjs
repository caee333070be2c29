// The simulated agent: one mechanical policy for every tool, at most 3 calls per case.
//   0. a case with a prelude first makes the agent's own earlier edits through the tool (not
//      counted: every tool makes them the same way);
//   1. send the attempt, in the tool's own format (Aider: a whole-line block of its real size,
//      src/formats.mjs) (duplicate cases carry the tool's own disambiguation, when it has one; a
//      tool whose every call carries a line hint, Zed, gets the target's line on every call);
//   2. candidates (agentpad): pick one — the tool's recommended one, or the oracle's (the
//      candidate on the target, an upper bound that reads the answer key) — for 1 call;
//   3. ambiguous-copy cases (the text cannot tell which copy is meant): a tool that asks (names
//      several places and writes nothing) has landed; a guess is scored like any write;
//   4. a retry the model can make without re-reading, 1 call: the error quotes the exact text;
//      or the model already holds the text (its slip was mechanical: whitespace, gutters,
//      escapes, look-alikes, elisions, a needle too short to be unique); or the error names a
//      line and the tool takes a line hint (the attempt again, with the hint);
//   5. any other error: re-read the document and retry with exact text, 2 calls;
//   stop at 3 calls, on a landed edit, or on the first BAD (a BAD is never recovered). A
//   must-refuse case gets no retry: an error is its right answer. Retries are widened until
//   unique under the tool's own matcher (a dry run of the peer), not just exactly.
// Every response the model is shown is counted with one tokenizer (gpt-tokenizer, o200k_base).
import { countTokens } from "gpt-tokenizer";
import { aiderBlock } from "./formats.mjs";
import { classify, landed } from "./score.mjs";
import { count } from "./text.mjs";

export const MAX_CALLS = 3;

/**
 * The exact retry after a re-read: the target's current text (whole lines for a line-granular
 * tool), widened line by line until unique, and the same span of the expected document. The
 * model sees no "\r" and no BOM, so neither is in it. null when there is no single target.
 */
export function exactRetry(c, current, expected, granularity, unique = () => true) {
  if (c.must_refuse || c.target.length !== 1) return null;
  let a = c.target[0].start;
  let b = c.target[0].end;
  const lineStart = (x) => current.lastIndexOf("\n", x - 1) + 1;
  const lineEnd = (x) => {
    const nl = current.indexOf("\n", x);
    return nl === -1 ? current.length : nl;
  };
  if (granularity === "line") {
    a = lineStart(a);
    b = lineEnd(Math.max(a, b - 1));
  }
  const delta = expected.length - current.length;
  const clean = (s) => s.replace(/\r/g, "").replace(/^\uFEFF/, "");
  const at = () => ({ old_text: clean(current.slice(a, b)), new_text: clean(expected.slice(a, b + delta)) });
  while ((count(current, current.slice(a, b)) > 1 || !unique(at())) && (a > 0 || b < current.length)) {
    if (a > 0) a = lineStart(a - 1);
    if (b < current.length) b = lineEnd(b + 1);
  }
  return at();
}

/**
 * Perturbations the model can undo from what its context already holds: it read the file, and its
 * slip was mechanical. Stale, misremembered and foreign text (L, Q, R, S, U, Y's near miss) needs
 * a re-read.
 */
const HELD = new Set(["B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "M", "N", "O", "P", "X"]);
export const holdsText = (c) => HELD.has(c.category) || c.perturbation?.model === "long-exact";

/**
 * Does the text say which copy is meant? Not when the attempt, indentation ignored, matches two or
 * more places and no hint is given: then asking is the right answer.
 */
export function ambiguousCopy(c, current) {
  if (c.must_refuse || c.disambiguation || c.target.length !== 1) return false;
  const want = c.attempt.old_text.replace(/\r/g, "").split("\n").map((l) => l.trim());
  if (want.length < 2 || want.every((l) => l === "")) return false;
  const lines = current.replace(/\r/g, "").split("\n").map((l) => l.trim());
  let n = 0;
  for (let i = 0; i + want.length <= lines.length; i++) if (want.every((l, k) => lines[i + k] === l)) n++;
  return n >= 2;
}

/** A response that names several places and writes nothing: the tool asks which one. */
const ASKS = /multiple (occurrences|matches|locations)|appears \d+ times|found \d+ times/i;
const asks = (r) => (r.kind === "candidates" ? r.candidates.length >= 2 && !r.candidates.some((k) => k.recommended) : r.kind === "error" && ASKS.test(r.message));

const GUTTER = /^[ \t]*\d+(?:#[0-9a-f]+)?(?:\t|[ \t]*[│|→:][ \t]?)/;

/** Does `message` show the retry's old_text verbatim (beyond echoing the model's own attempt)? */
export function quotes(message, retry, attempt) {
  if (!retry || retry.old_text.trim() === "") return false;
  let m = message;
  if (attempt.old_text) m = m.split(attempt.old_text).join("");
  const stripped = m.split("\n").map((l) => l.replace(GUTTER, "")).join("\n");
  return m.includes(retry.old_text) || stripped.includes(retry.old_text);
}

/** The target's first line (1-based) when the tool takes a line hint and its error names lines. */
function lineHint(r, c, current, tool) {
  if (tool.hint !== "line" || r.kind !== "error" || !/line/i.test(r.message) || !/\d/.test(r.message) || c.target.length !== 1) return null;
  return current.slice(0, c.target[0].start).split("\n").length;
}

/**
 * What the call carries besides the texts: the case's disambiguation (duplicates), and for a tool
 * whose every call has a line hint (Zed) the line where the model read the target — its first
 * line in the current document.
 */
export function callHint(tool, c, current) {
  if (!tool.hintEvery || c.target.length === 0) return c.disambiguation;
  return { ...(c.disambiguation ?? {}), hint_line: current.slice(0, c.target[0].start).split("\n").length };
}

/** The candidate whose span overlaps the target most (offsets in the LF, BOM-less draft). */
export function oraclePick(candidates, c, current) {
  if (c.target.length === 0) return null;
  const norm = (x) => {
    const before = current.slice(0, x);
    return x - (before.match(/\r\n/g) ?? []).length - (before.startsWith("\uFEFF") ? 1 : 0);
  };
  const ts = norm(c.target[0].start);
  const te = norm(c.target[0].end);
  let best = null;
  let bestOverlap = 0;
  for (const k of candidates) {
    const overlap = Math.min(te, k.end) - Math.max(ts, k.start);
    if (overlap > bestOverlap || (overlap === 0 && ts === te && k.start === ts)) {
      best = k;
      bestOverlap = overlap;
    }
  }
  return best;
}

/**
 * Runs one case with one tool. `variant`: "oracle" or "recommended" (how a candidate is picked).
 * Returns the outcome of the final document, the calls made, the call on which it landed, the
 * tokens of every response shown, the steps and the final document.
 */
export async function runCase(tool, c, mat, variant = "oracle") {
  const session = await tool.open(mat.opened ?? mat.current, mat.name);
  for (const e of c.prelude ?? []) await session.edit(e, undefined);
  const ambiguous = ambiguousCopy(c, mat.current);
  const steps = [];
  let calls = 0;
  let tokens = 0;
  let landedAt = null;
  let verdict = { outcome: "NOOP", collateral: false };
  const shown = (action, text, cost, kind, extra = {}) => {
    calls += cost;
    const t = countTokens(text);
    tokens += t;
    steps.push({ action, kind, tokens: t, calls, ...extra });
  };
  try {
    const hint = callHint(tool, c, mat.current);
    // The attempt in the tool's own format (Aider: a whole-line block of its real size).
    const attempt = tool.format === "aider-block" ? aiderBlock(c, mat.current) : c.attempt;
    let r = await session.edit(attempt, hint);
    shown("edit", r.message, 1, r.kind, r.status ? { status: r.status, quality: r.quality } : {});
    for (;;) {
      if (ambiguous && asks(r)) {
        const final = session.current();
        return { outcome: final === mat.current ? "ASKED" : "BAD", bad_kind: final === mat.current ? undefined : "wrong-place", collateral: false, calls, landed_at: final === mat.current ? calls : null, tokens, steps, doc: final, transcript: session.steps };
      }
      if (r.kind === "applied") {
        verdict = classify(c, mat.current, mat.expected, session.current());
        if (landed(verdict.outcome)) {
          landedAt = calls;
          break;
        }
        if (verdict.outcome === "BAD") break;
      }
      if (r.kind === "candidates") {
        const pick = variant === "oracle" ? oraclePick(r.candidates, c, mat.current) : r.candidates.find((k) => k.recommended);
        if (pick && calls + 1 <= MAX_CALLS) {
          r = await session.pick(pick.id);
          shown(`pick ${pick.id}`, r.message, 1, r.kind, { quality: pick.quality, recommended: pick.recommended });
          continue;
        }
      }
      if (c.must_refuse) break;
      // Only a tool that called the needle ambiguous makes the model check its own matcher.
      const unique = tool.dryRun && ASKS.test(r.message) ? (x) => tool.dryRun(session.current(), x) : undefined;
      const retry = exactRetry(c, mat.current, mat.expected, tool.granularity, unique);
      if (!retry) break;
      if ((quotes(r.message, retry, attempt) || holdsText(c)) && calls + 1 <= MAX_CALLS) {
        r = await session.edit(retry, tool.hintEvery ? hint : undefined);
        shown(holdsText(c) ? "self-fixed retry" : "informed retry", r.message, 1, r.kind);
        continue;
      }
      const line = tool.hintEvery ? null : lineHint(r, c, mat.current, tool);
      if (line && calls + 1 <= MAX_CALLS && !steps.some((x) => x.action === "line-hinted retry")) {
        r = await session.edit(c.attempt, { hint_line: line });
        shown("line-hinted retry", r.message, 1, r.kind);
        continue;
      }
      if (calls + 2 <= MAX_CALLS) {
        const view = await session.read();
        shown("re-read", view, 1, "read");
        r = await session.edit(retry, tool.hintEvery ? hint : undefined);
        shown("exact retry", r.message, 1, r.kind);
        continue;
      }
      break;
    }
    const final = session.current();
    verdict = classify(c, mat.current, mat.expected, final);
    return { ...verdict, calls, landed_at: landed(verdict.outcome) ? landedAt ?? calls : null, tokens, steps, doc: final, transcript: session.steps };
  } finally {
    session.close();
  }
}
