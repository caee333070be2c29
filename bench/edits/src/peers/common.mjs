// Shared pieces of the peer emulations: the `cat -n` snippet the Anthropic and OpenHands editors
// show after an edit, and a line-numbered view. Each emulation is
// `apply(doc, attempt, ctx) → { kind: "applied", doc, message } | { kind: "error", message }`,
// where `doc` is the document as stored (bytes decoded as UTF-8) and `message` is what the tool
// returns to the model.

/** `cat -n` lines: a 6-wide right-aligned number, a tab, the line. */
export function catN(lines, firstLineNo) {
  return lines.map((l, i) => `${String(i + firstLineNo).padStart(6)}\t${l}`).join("\n");
}

/** The snippet shown after a str_replace: 4 lines around the edit (both editors use 4). */
export function editSnippet(path, text, replacedAt, newStr) {
  const before = text.slice(0, replacedAt);
  const line = before.split("\n").length - 1;
  const lines = text.split("\n");
  const start = Math.max(0, line - 4);
  const end = line + 4 + (newStr.match(/\n/g) ?? []).length;
  const snippet = lines.slice(start, end + 1);
  return `Here's the result of running \`cat -n\` on a snippet of ${path}:\n${catN(snippet, start + 1)}\n`;
}

export const applied = (doc, message) => ({ kind: "applied", doc, message });
export const error = (message) => ({ kind: "error", message });
