// OC: opencode's edit tool (packages/opencode/src/tool/edit.ts, the replacer chain). Facts:
// oldString and newString are first converted to the file's dominant line ending; an empty
// oldString overwrites the file; each replacer yields candidate substrings of the file; a
// candidate not in the file is skipped, with replaceAll every occurrence is replaced, otherwise a
// candidate that occurs more than once is skipped and the first unique one is replaced literally.
// Replacers in order: the text itself; windows equal line by line after trim; block anchor (3+
// lines: first line equal after trim, last = the first later line j ≥ i+2 equal after trim, any
// length; one such block is always accepted, several need a middle-line similarity ≥ 0.3);
// whitespace-normalised (per line, and a token regex inside a line; multi-line needs the same line
// count); indentation-flexible (equal after removing the common indent); escape-normalised (the
// find text unescaped, new text not); trimmed boundary; context-aware (3+ lines, same line count,
// at least half the middle lines equal); every exact occurrence (for replaceAll).
import { similarity } from "../text.mjs";
import { applied, error } from "./common.mjs";

const offsetOfLine = (lines, i) => lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0);
const blockText = (content, lines, i, j) => {
  const start = offsetOfLine(lines, i);
  const end = start + lines.slice(i, j + 1).join("\n").length;
  return content.slice(start, end);
};
const dropTrailingEmpty = (a) => (a.length > 1 && a[a.length - 1] === "" ? a.slice(0, -1) : a);

function* simple(_content, find) {
  yield find;
}

function* lineTrimmed(content, find) {
  const o = content.split("\n");
  const s = dropTrailingEmpty(find.split("\n"));
  for (let i = 0; i + s.length <= o.length; i++) {
    let ok = true;
    for (let j = 0; j < s.length && ok; j++) ok = o[i + j].trim() === s[j].trim();
    if (ok) yield blockText(content, o, i, i + s.length - 1);
  }
}

function* blockAnchor(content, find) {
  const o = content.split("\n");
  const s = dropTrailingEmpty(find.split("\n"));
  if (s.length < 3) return;
  const first = s[0].trim();
  const last = s[s.length - 1].trim();
  const cands = [];
  for (let i = 0; i < o.length; i++) {
    if (o[i].trim() !== first) continue;
    for (let j = i + 2; j < o.length; j++) {
      if (o[j].trim() === last) {
        cands.push([i, j]);
        break;
      }
    }
  }
  if (cands.length === 0) return;
  const mid = ([i, j]) => {
    const actual = j - i - 1;
    const want = s.length - 2;
    const n = Math.min(actual, want);
    if (n <= 0) return 1;
    let sum = 0;
    for (let k = 1; k <= n; k++) sum += similarity(o[i + k].trim(), s[k].trim());
    return sum / n;
  };
  if (cands.length === 1) {
    if (mid(cands[0]) >= 0.0) yield blockText(content, o, ...cands[0]);
    return;
  }
  let best = null;
  let bestSim = -1;
  for (const c of cands) {
    const sim = mid(c);
    if (sim > bestSim) {
      bestSim = sim;
      best = c;
    }
  }
  if (best && bestSim >= 0.3) yield blockText(content, o, ...best);
}

function* whitespaceNormalized(content, find) {
  const norm = (t) => t.replace(/\s+/g, " ").trim();
  const nf = norm(find);
  const lines = content.split("\n");
  for (const line of lines) {
    if (norm(line) === nf) yield line;
    else if (nf && norm(line).includes(nf)) {
      const words = find.trim().split(/\s+/);
      if (words.length) {
        const re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"));
        const m = line.match(re);
        if (m) yield m[0];
      }
    }
  }
  const fl = find.split("\n");
  if (fl.length > 1) {
    for (let i = 0; i + fl.length <= lines.length; i++) {
      const blk = lines.slice(i, i + fl.length).join("\n");
      if (norm(blk) === nf) yield blk;
    }
  }
}

function* indentationFlexible(content, find) {
  const strip = (t) => {
    const ls = t.split("\n");
    const ne = ls.filter((l) => l.trim());
    if (!ne.length) return t;
    const min = Math.min(...ne.map((l) => l.match(/^\s*/)[0].length));
    return ls.map((l) => (l.trim() ? l.slice(min) : l)).join("\n");
  };
  const nf = strip(find);
  const lines = content.split("\n");
  const fl = find.split("\n");
  for (let i = 0; i + fl.length <= lines.length; i++) {
    const blk = lines.slice(i, i + fl.length).join("\n");
    if (strip(blk) === nf) yield blk;
  }
}

const unescape = (s) =>
  s.replace(/\\(n|t|r|'|"|`|\\|\n|\$)/g, (_, c) => ({ n: "\n", t: "\t", r: "\r", "'": "'", '"': '"', "`": "`", "\\": "\\", "\n": "\n", $: "$" })[c]);

function* escapeNormalized(content, find) {
  const uf = unescape(find);
  if (content.includes(uf)) yield uf;
  const lines = content.split("\n");
  const n = uf.split("\n").length;
  for (let i = 0; i + n <= lines.length; i++) {
    const blk = lines.slice(i, i + n).join("\n");
    if (unescape(blk) === uf) yield blk;
  }
}

function* trimmedBoundary(content, find) {
  const t = find.trim();
  if (t === find) return;
  if (content.includes(t)) yield t;
  const lines = content.split("\n");
  const n = find.split("\n").length;
  for (let i = 0; i + n <= lines.length; i++) {
    const blk = lines.slice(i, i + n).join("\n");
    if (blk.trim() === t) yield blk;
  }
}

function* contextAware(content, find) {
  const s = dropTrailingEmpty(find.split("\n"));
  if (s.length < 3) return;
  const o = content.split("\n");
  const first = s[0].trim();
  const last = s[s.length - 1].trim();
  for (let i = 0; i < o.length; i++) {
    if (o[i].trim() !== first) continue;
    for (let j = i + 2; j < o.length; j++) {
      if (o[j].trim() !== last) continue;
      const blk = o.slice(i, j + 1);
      if (blk.length === s.length) {
        let same = 0;
        let total = 0;
        for (let k = 1; k < blk.length - 1; k++) {
          if (blk[k].trim() || s[k].trim()) {
            total++;
            if (blk[k].trim() === s[k].trim()) same++;
          }
        }
        if (total === 0 || same / total >= 0.5) {
          yield blockText(content, o, i, j);
          return;
        }
      }
      break;
    }
  }
}

function* multiOccurrence(content, find) {
  let i = content.indexOf(find);
  while (i !== -1) {
    yield find;
    i = content.indexOf(find, i + find.length);
  }
}

const REPLACERS = [simple, lineTrimmed, blockAnchor, whitespaceNormalized, indentationFlexible, escapeNormalized, trimmedBoundary, contextAware, multiOccurrence];

export function replace(content, oldString, newString, replaceAll = false) {
  if (oldString === newString) throw new Error("No changes to apply: oldString and newString are identical.");
  let notFound = true;
  for (const r of REPLACERS) {
    for (const search of r(content, oldString)) {
      const idx = content.indexOf(search);
      if (idx === -1) continue;
      notFound = false;
      if (replaceAll) return content.split(search).join(newString);
      if (idx !== content.lastIndexOf(search)) continue;
      return content.slice(0, idx) + newString + content.slice(idx + search.length);
    }
  }
  throw new Error(
    notFound
      ? "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings."
      : "Found multiple matches for oldString. Provide more surrounding context to make the match unique.",
  );
}

export function apply(doc, attempt, { path }) {
  const eol = (doc.match(/\r\n/g) ?? []).length > (doc.match(/(?<!\r)\n/g) ?? []).length ? "\r\n" : "\n";
  const conv = (s) => (eol === "\r\n" ? s.replace(/\r?\n/g, "\r\n") : s.replace(/\r\n/g, "\n"));
  const oldString = conv(attempt.old_text);
  const newString = conv(attempt.new_text);
  if (oldString === "") return applied(newString, `Wrote ${path}.`);
  try {
    return applied(replace(doc, oldString, newString, attempt.replace_all === true), "Edit applied successfully.");
  } catch (e) {
    return error(e.message);
  }
}
