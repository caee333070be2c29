// ZD: Zed's agent edit (streaming fuzzy matcher + reindent), emulated from a description of its
// behaviour only — the crate is GPL-3.0, so nothing here follows its code. Facts used: query and
// buffer lines are compared trimmed; an alignment cost is minimised where a query line paired
// with a buffer line costs nothing when equal, 1 when fuzzy-equal (normalised Levenshtein ≥ 0.8,
// after a length check) and 13 otherwise, skipping a buffer line costs 3 and skipping a query line
// 10 (on equal cost: skip a query line, then a buffer line, then pair); the match may start at
// any buffer line; every end with the best cost is kept and accepted
// when its paired (diagonal) steps are at least 0.8 of max(query lines, buffer lines spanned);
// the range is whole lines; several accepted ranges are an ambiguity error naming their lines;
// new_text is re-indented by the difference between the first matched buffer line's indentation
// and the query's first line (counted in tabs when the buffer line is tab-indented, the tabs put
// in front of each new line); the buffer keeps the file's line endings.
import { similarity } from "../text.mjs";
import { applied, error } from "./common.mjs";
import { createTwoFilesPatch } from "diff";

function fuzzyEqual(a, b) {
  if (a === b) return true;
  const [s, l] = a.length < b.length ? [a.length, b.length] : [b.length, a.length];
  if (l === 0 || s / l < 0.8) return false;
  return similarity(a, b) >= 0.8;
}

/** All accepted [startRow, endRowExclusive] ranges of `query` in `buffer` (lines). */
export function matchRanges(buffer, query) {
  const q = query.map((l) => l.trim());
  const b = buffer.map((l) => l.trim());
  const m = q.length;
  const n = b.length;
  const INF = 1e9;
  const cost = Array.from({ length: m + 1 }, () => new Float64Array(n + 1).fill(INF));
  const step = Array.from({ length: m + 1 }, () => new Uint8Array(n + 1));
  for (let j = 0; j <= n; j++) cost[0][j] = 0;
  for (let i = 1; i <= m; i++) {
    cost[i][0] = cost[i - 1][0] + 10;
    step[i][0] = 2;
    for (let j = 1; j <= n; j++) {
      const eq = q[i - 1] === b[j - 1] ? 0 : fuzzyEqual(q[i - 1], b[j - 1]) ? 1 : 13;
      // On equal cost Zed takes the first of (up, left, diagonal): skipping a query line wins,
      // then skipping a buffer line, and pairing the lines only when it is strictly cheaper.
      let best = cost[i - 1][j - 1] + eq;
      let s = 1;
      if (cost[i][j - 1] + 3 <= best) {
        best = cost[i][j - 1] + 3;
        s = 3;
      }
      if (cost[i - 1][j] + 10 <= best) {
        best = cost[i - 1][j] + 10;
        s = 2;
      }
      cost[i][j] = best;
      step[i][j] = s;
    }
  }
  let bestCost = INF;
  for (let j = 1; j <= n; j++) bestCost = Math.min(bestCost, cost[m][j]);
  const out = [];
  for (let j = 1; j <= n; j++) {
    if (cost[m][j] !== bestCost) continue;
    let i = m;
    let k = j;
    let diag = 0;
    while (i > 0) {
      const s = step[i][k];
      if (s === 1) {
        diag++;
        i--;
        k--;
      } else if (s === 2) i--;
      else k--;
    }
    const span = j - k;
    if (diag / Math.max(m, span) >= 0.8) out.push([k, j]);
  }
  return out;
}

function reindent(newText, bufferLine, queryLine) {
  const bws = bufferLine.match(/^[\t ]*/)[0];
  const qws = queryLine.match(/^[\t ]*/)[0];
  const lines = newText.split("\n");
  if (bws.includes("\t")) {
    const delta = (bws.match(/\t/g) ?? []).length - (qws.match(/\t/g) ?? []).length;
    if (delta > 0) return lines.map((l) => (l === "" ? l : "\t".repeat(delta) + l)).join("\n");
    if (delta < 0) return lines.map((l) => l.replace(new RegExp(`^\\t{0,${-delta}}`), "")).join("\n");
    return newText;
  }
  const delta = bws.length - qws.length;
  if (delta > 0) return lines.map((l) => (l === "" ? l : " ".repeat(delta) + l)).join("\n");
  if (delta < 0) return lines.map((l) => l.replace(new RegExp(`^[ \\t]{0,${-delta}}`), "")).join("\n");
  return newText;
}

/**
 * `apply` with the line hint Zed's edit tool sends on every edit (ZD): among several matches, the one
 * whose first line is nearest the hint, when it lies within 200 lines of it.
 */
export function applyWithHint(doc, attempt, { path, disambiguation }) {
  return apply(doc, attempt, { path, hintLine: disambiguation?.hint_line });
}

export function apply(doc, attempt, { path, hintLine }) {
  const crlf = doc.includes("\r\n");
  const text = doc.replace(/\r\n/g, "\n");
  let oldText = attempt.old_text.replace(/\r\n/g, "\n");
  let newText = attempt.new_text.replace(/\r\n/g, "\n");
  if (oldText.endsWith("\n")) {
    oldText = oldText.slice(0, -1);
    if (newText.endsWith("\n")) newText = newText.slice(0, -1);
  }
  if (oldText.trim() === "") return error(`old_text must not be empty when editing ${path}.`);
  const buffer = text.split("\n");
  const query = oldText.split("\n");
  let ranges = matchRanges(buffer, query);
  if (ranges.length > 1 && hintLine) {
    const near = ranges.map((r) => [Math.abs(r[0] + 1 - hintLine), r]).filter(([d]) => d <= 200).sort((a, b) => a[0] - b[0]);
    if (near.length) ranges = [near[0][1]];
  }
  if (ranges.length === 0) return error(`Could not find a match for the old text in ${path}. Read the file again to see its current content, then retry with text copied from it.`);
  if (ranges.length > 1) {
    return error(`The old text matched multiple locations in ${path}, at lines: ${ranges.map(([s]) => s + 1).join(", ")}. Include more surrounding lines in old_text so it matches exactly one location.`);
  }
  const [s, e] = ranges[0];
  const start = buffer.slice(0, s).reduce((n, l) => n + l.length + 1, 0);
  const end = start + buffer.slice(s, e).join("\n").length;
  const out = text.slice(0, start) + reindent(newText, buffer[s], query[0]) + text.slice(end);
  const patch = createTwoFilesPatch(path, path, text, out, "", "", { context: 2 }).split("\n").slice(2).join("\n");
  return applied(crlf ? out.replace(/\n/g, "\r\n") : out, `Edited ${path}:\n\n\`\`\`diff\n${patch}\`\`\``);
}
