// RO-e: Roo Code edit_file (EditFileTool.ts) at its defaults. Facts: everything works in LF space
// and the file's line ending is restored at the end; three strategies are tried in order and each
// must find exactly `expected_replacements` (default 1) occurrences or the next is tried: the
// literal text; a regex where each whitespace run of old_string becomes `[\t ]+` (or `\s+` when
// the run holds a newline); a token regex (tokens joined by `\s+`). new_string is inserted
// literally. A count mismatch is an error quoting the three counts.
import { applied, error } from "./common.mjs";

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function wsRegex(old) {
  return new RegExp(old.split(/(\s+)/).map((p, i) => (i % 2 ? (p.includes("\n") ? "\\s+" : "[\\t ]+") : esc(p))).join(""), "g");
}
function tokenRegex(old) {
  const toks = old.split(/\s+/).filter(Boolean);
  return toks.length ? new RegExp(toks.map(esc).join("\\s+"), "g") : null;
}

export function apply(doc, attempt, { path }) {
  const crlf = doc.includes("\r\n");
  const text = doc.replace(/\r\n/g, "\n");
  const old = attempt.old_text.replace(/\r\n/g, "\n");
  const neu = attempt.new_text.replace(/\r\n/g, "\n");
  const want = attempt.expected_occurrences ?? 1;
  if (old === neu) return error("No changes to apply: old_string and new_string are identical.");
  if (old === "") return error("old_string must not be empty.");
  const literal = text.split(old).length - 1;
  let out = null;
  if (literal === want) out = text.split(old).join(neu);
  const wsRe = wsRegex(old);
  const wsCount = (text.match(wsRe) ?? []).length;
  if (out === null && wsCount === want) out = text.replace(wsRe, () => neu);
  const tokRe = tokenRegex(old);
  const tokCount = tokRe ? (text.match(tokRe) ?? []).length : 0;
  if (out === null && tokRe && tokCount === want) out = text.replace(tokRe, () => neu);
  if (out === null) {
    return error(
      `No match found for old_string in ${path}: expected ${want} occurrence(s), found ${literal} exact, ${wsCount} whitespace-tolerant, ${tokCount} token-based. Read the file again and make old_string match it, or set expected_replacements to the real count.`,
    );
  }
  return applied(crlf ? out.replace(/\n/g, "\r\n") : out, `Edited ${path}: ${want} replacement(s) applied.`);
}
