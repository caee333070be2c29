// RO-d: Roo Code apply_diff (MultiSearchReplaceDiffStrategy) as Task.ts constructs it: fuzzy
// threshold 1.0, buffer 40 lines. Facts: both texts are normalised (curly quotes to ASCII, "…" to
// "...", em/en dash to "-", NBSP to space, every whitespace run to one space, trimmed) and a
// window scores 1.0 when they are then equal, else 1 − Levenshtein/longer; the window is exactly
// as many lines as SEARCH (file split on /\r?\n/); the search goes middle-out from the window's
// midpoint, left first, keeping only a strictly better score (the first perfect score nearest the
// middle wins); a `:start_line:` hint tries that slice first, then ±40 lines around it; Roo's own
// `N | ` gutter is stripped when every SEARCH line has it; replacement lines take the matched
// first line's indentation plus their indentation relative to SEARCH's first line; the file's
// line ending is kept; identical SEARCH and REPLACE is refused.
import { levenshteinWithin } from "../text.mjs";
import { applied, error } from "./common.mjs";

const normalize = (s) =>
  s
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\u2026/g, "...")
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/\u00a0/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The window's similarity, computed exactly only when it could beat `floor` (the best so far):
 * the search keeps only a strictly better score, so a bounded distance gives the same winner.
 */
function score(a, b, floor = 0) {
  const na = normalize(a);
  const nb = normalize(b);
  if (na === nb) return 1;
  const m = Math.max(na.length, nb.length);
  if (m === 0) return 1;
  const max = Math.floor((1 - floor) * m);
  const d = levenshteinWithin(na, nb, max);
  return d > max ? 0 : 1 - d / m;
}

function fuzzySearch(lines, search, start, end) {
  const n = search.split("\n").length;
  let best = { score: 0, index: -1, content: "" };
  const mid = Math.floor((start + end) / 2);
  let left = mid;
  let right = mid + 1;
  while (left >= start || right <= end - n) {
    if (left >= start) {
      const chunk = lines.slice(left, left + n).join("\n");
      const s = score(chunk, search, best.score);
      if (s > best.score) best = { score: s, index: left, content: chunk };
      left--;
    }
    if (right <= end - n) {
      const chunk = lines.slice(right, right + n).join("\n");
      const s = score(chunk, search, best.score);
      if (s > best.score) best = { score: s, index: right, content: chunk };
      right++;
    }
  }
  return best;
}

const GUTTER = /^\s*\d+\s+\|(?!\|)/;
const stripGutter = (s) => s.split("\n").map((l) => l.replace(/^\s*\d+\s+\|(?!\|)\s?/, "")).join("\n");
const numbered = (text, first) => text.split("\n").map((l, i) => `${first + i} | ${l}`).join("\n");

export function apply(doc, attempt, { path, disambiguation }) {
  const eol = doc.includes("\r\n") ? "\r\n" : "\n";
  const lines = doc.split(/\r?\n/);
  let search = attempt.old_text.replace(/\r\n/g, "\n");
  let replace = attempt.new_text.replace(/\r\n/g, "\n");
  let startLine = disambiguation?.hint_line ?? 0;
  const searchLines0 = search.split("\n");
  const replaceLines0 = replace.split("\n");
  if (searchLines0.every((l) => GUTTER.test(l)) && (replace === "" || replaceLines0.every((l) => GUTTER.test(l)))) {
    if (!startLine) startLine = Number(searchLines0[0].match(/\d+/)[0]);
    search = stripGutter(search);
    replace = stripGutter(replace);
  }
  if (search === replace) return error(`Search and replace content are identical - no changes would be made\n\nDebug Info:\n- Search and replace must be different to make changes\n- Use read_file to verify the content you want to change`);
  if (search === "") return error("Empty search content is not allowed\n\nDebug Info:\n- Search content cannot be empty\n- For insertions, provide a specific line using :start_line: and include content to search for");
  let searchLines = search.split("\n");
  let replaceLines = replace === "" ? [] : replace.split("\n");
  const n = searchLines.length;
  let best = { score: 0, index: -1, content: "" };
  let lo = 0;
  let hi = lines.length;
  if (startLine) {
    const exact = startLine - 1;
    const chunk = lines.slice(exact, exact + n).join("\n");
    if (score(chunk, search) >= 1) best = { score: 1, index: exact, content: chunk };
    else {
      lo = Math.max(0, startLine - 41);
      hi = Math.min(lines.length, startLine + n + 40);
      best = fuzzySearch(lines, search, lo, hi);
    }
  } else best = fuzzySearch(lines, search, 0, lines.length);
  if (best.score < 1) {
    // The aggressive gutter strip, then the same search again.
    const s2 = searchLines.map((l) => l.replace(/^\s*(?:\d+\s)?\|\s/, "")).join("\n");
    if (s2 !== search) {
      const b2 = fuzzySearch(lines, s2, 0, lines.length);
      if (b2.score >= 1) {
        best = b2;
        search = s2;
        searchLines = s2.split("\n");
        replaceLines = replaceLines.map((l) => l.replace(/^\s*(?:\d+\s)?\|\s/, ""));
      }
    }
  }
  if (best.score < 1) {
    // Roo's window is anchored on the hint, not on the best match: startLine (0 without a hint)
    // − 1 − 40 to endLine (startLine + n − 1) + 40, so without a hint lines 1…n+39.
    const ctxLo = Math.max(0, startLine - 1 - 40);
    const ctxHi = Math.min(lines.length, startLine + n - 1 + 40);
    const pct = Math.floor(best.score * 100);
    return error(
      `No sufficiently similar match found${startLine ? ` at line: ${startLine}` : ""} (${pct}% similar, needs 100%)\n\nDebug Info:\n- Similarity Score: ${pct}%\n- Required Threshold: 100%\n- Search Range: ${startLine ? `starting at line ${startLine}` : "start to end"}\n- Tried both standard and aggressive line number stripping\n- Tip: Use the read_file tool to get the latest content of the file before attempting to use the apply_diff tool again, as the file content may have changed\n\nSearch Content:\n${search}\n\nBest Match Found:\n${best.index >= 0 ? numbered(best.content, best.index + 1) : "(no match)"}\n\nOriginal Content:\n${numbered(lines.slice(ctxLo, ctxHi).join("\n"), ctxLo + 1)}`,
    );
  }
  const matched = lines.slice(best.index, best.index + n);
  const ind = (l) => l.match(/^[\t ]*/)[0];
  const matchedIndent = ind(matched[0] ?? "");
  const searchBase = ind(searchLines[0]).length;
  const out = replaceLines.map((l) => {
    const rel = ind(l).length - searchBase;
    const finalIndent = rel < 0 ? matchedIndent.slice(0, Math.max(0, matchedIndent.length + rel)) : matchedIndent + ind(l).slice(searchBase);
    return finalIndent + l.trim();
  });
  lines.splice(best.index, n, ...out);
  return applied(lines.join(eol), `Changes successfully applied to ${path}`);
}
