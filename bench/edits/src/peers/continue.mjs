// CO: Continue's find-and-replace (core/edit/searchAndReplace: findSearchMatch.ts,
// performReplace.ts). Facts: strategies in order on the text still to search — exact indexOf,
// indexOf of the trimmed search, a lower-case indexOf, then indexOf with all whitespace removed
// from both (mapped back to offsets); matches are collected by searching again after each match,
// so different strategies add to one count; more than one match without replace_all is an error
// ("appears N times"); for a non-exact match the replacement's indentation is adjusted: when the
// matched line's indentation differs from the search's first non-empty line's, the first line
// loses the search indentation and later lines starting with it get the matched one instead.
// Text is not normalised (no EOL handling).
import { applied, error } from "./common.mjs";

function stripWs(s) {
  let out = "";
  const map = [];
  for (let i = 0; i < s.length; i++) {
    if (!/\s/.test(s[i])) {
      out += s[i];
      map.push(i);
    }
  }
  return { out, map };
}

export function findSearchMatch(content, search) {
  if (search === "") return { start: 0, end: 0, strategy: "empty" };
  let i = content.indexOf(search);
  if (i !== -1) return { start: i, end: i + search.length, strategy: "exact" };
  const t = search.trim();
  if (t && (i = content.indexOf(t)) !== -1) return { start: i, end: i + t.length, strategy: "trimmed" };
  if ((i = content.toLowerCase().indexOf(search.toLowerCase())) !== -1) return { start: i, end: i + search.length, strategy: "caseInsensitive" };
  const c = stripWs(content);
  const s = stripWs(search).out;
  if (s && (i = c.out.indexOf(s)) !== -1) return { start: c.map[i], end: c.map[i + s.length - 1] + 1, strategy: "whitespaceIgnored" };
  return null;
}

export function findSearchMatches(content, search) {
  const out = [];
  let offset = 0;
  while (offset <= content.length) {
    const m = findSearchMatch(content.slice(offset), search);
    if (!m || m.strategy === "empty") {
      if (m && out.length === 0) out.push(m);
      break;
    }
    out.push({ start: m.start + offset, end: m.end + offset, strategy: m.strategy });
    offset += Math.max(m.end, m.start + 1);
  }
  return out;
}

function adjust(content, m, search, replace) {
  if (m.strategy === "exact") return replace;
  const lineStart = content.lastIndexOf("\n", m.start - 1) + 1;
  const matchedIndent = content.slice(lineStart).match(/^[\t ]*/)[0];
  const firstNonEmpty = search.split("\n").find((l) => l.trim() !== "") ?? "";
  const searchIndent = firstNonEmpty.match(/^[\t ]*/)[0];
  if (matchedIndent === searchIndent) return replace;
  return replace
    .split("\n")
    .map((l, i) => (i === 0 ? (l.startsWith(searchIndent) ? l.slice(searchIndent.length) : l) : l.startsWith(searchIndent) ? matchedIndent + l.slice(searchIndent.length) : l))
    .join("\n");
}

export function apply(doc, attempt, { path }) {
  const matches = findSearchMatches(doc, attempt.old_text);
  if (matches.length === 0) return error(`The search string was not found in ${path}. Make sure it matches the file's current content, then try again.`);
  if (matches.length > 1 && !attempt.replace_all) {
    return error(`The search string appears ${matches.length} times in ${path}. Include more surrounding context to make it unique, or set replace_all to replace every occurrence.`);
  }
  let out = doc;
  for (const m of [...matches].sort((a, b) => b.start - a.start)) out = out.slice(0, m.start) + adjust(doc, m, attempt.old_text, attempt.new_text) + out.slice(m.end);
  return applied(out, `Edited ${path}: ${matches.length} replacement${matches.length === 1 ? "" : "s"} applied.`);
}
