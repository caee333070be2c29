// The attempt in a peer's own format, where that format differs from a str_replace needle
// (docs/editbench.md#peers).
//
// Aider's SEARCH/REPLACE blocks are whole lines, and the blocks its models send are longer than a
// str_replace needle: a median of 11 lines in the 577 blocks of Aider's own chat-history fixture
// (p90 36), against 5 for the v2 attempts. So Aider gets its attempt widened to whole lines, and,
// where the case's slip leaves the surrounding lines as the model read them, padded with those
// lines (as many above as below) to 11 lines. Categories whose slip runs through the whole text
// the model wrote (whitespace, indentation, look-alikes, escapes, gutters, line endings, Unicode
// forms, entities), stale ones (the lines around may be what changed) and the copies and anchors
// of S are widened to whole lines only.
export const AIDER_BLOCK_LINES = 11;
const PAD = new Set(["A", "K", "N", "P", "Q", "Y", "Z"]);

const lineStart = (s, x) => s.lastIndexOf("\n", x - 1) + 1;
const lineEnd = (s, x) => {
  const nl = s.indexOf("\n", x);
  return nl === -1 ? s.length : nl;
};
const noCR = (s) => s.replace(/\r/g, "").replace(/^\uFEFF/, "");

/** The attempt as an Aider block on `current` (the document the model read). */
export function aiderBlock(c, current) {
  const a = c.attempt;
  if (c.target.length !== 1 || a.old_text === "" || a.replace_all) return a;
  const { start, end } = c.target[0];
  const prefix = noCR(current.slice(lineStart(current, start), start));
  const atLineEnd = end === 0 || current[end - 1] === "\n" || end === current.length;
  const suffix = atLineEnd ? "" : noCR(current.slice(end, lineEnd(current, end)));
  let oldText = prefix + a.old_text + (a.old_text.endsWith("\n") ? "" : suffix);
  let newText = prefix + a.new_text + (a.old_text.endsWith("\n") ? "" : suffix);
  if (!PAD.has(c.category)) return { ...a, old_text: oldText, new_text: newText };
  const endsNL = oldText.endsWith("\n");
  const core = (s) => (s.endsWith("\n") ? s.slice(0, -1) : s);
  const have = core(oldText).split("\n").length;
  if (have >= AIDER_BLOCK_LINES) return { ...a, old_text: oldText, new_text: newText };
  const docLines = noCR(current).split("\n");
  const first = noCR(current.slice(0, lineStart(current, start))).split("\n").length - 1;
  const last = first + have - 1;
  const need = AIDER_BLOCK_LINES - have;
  let up = Math.min(first, Math.floor(need / 2));
  // The document's final newline leaves an empty last element, which is no line.
  const lastLine = docLines[docLines.length - 1] === "" ? docLines.length - 2 : docLines.length - 1;
  const down = Math.min(lastLine - last, need - up);
  up = Math.min(first, need - down);
  const above = docLines.slice(first - up, first);
  const below = docLines.slice(last + 1, last + 1 + down);
  // `mid` null: the block's own lines are deleted (an empty text), "" is one empty line.
  const join = (mid) => {
    const parts = [...above, ...(mid === null ? [] : [mid]), ...below];
    return parts.join("\n") + (below.length || endsNL ? "\n" : "");
  };
  return { ...a, old_text: join(core(oldText)), new_text: join(newText === "" ? null : core(newText)) };
}
