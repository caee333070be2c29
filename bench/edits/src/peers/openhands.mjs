// OH: OpenHands ACI str_replace (openhands_aci/editor/editor.py) at its defaults. Facts: the file
// is read in text mode (universal newlines, written back LF); old_str is found with an escaped
// regex; with no hit, old_str and new_str are both stripped and tried again; more than one hit is
// an error listing the line numbers of the match starts; an empty old_str counts as many hits;
// old_str equal to new_str is refused; no tab expansion.
import { universalNewlines } from "../text.mjs";
import { applied, catN, error } from "./common.mjs";

/**
 * The `cat -n` snippet after an edit: from 3 lines above the match's first line to 4 below the
 * new text's last, read as lines that keep their newline, so a line that ends with one is followed
 * by an empty numbered line (as openhands-aci 0.3.3 shows it; the reference editor starts one line
 * earlier and shows no such line).
 */
function snippet(path, text, at, newStr) {
  const lines = text.split("\n");
  const line = text.slice(0, at).split("\n").length - 1;
  const start = Math.max(0, line - 3);
  const end = line + 4 + (newStr.match(/\n/g) ?? []).length;
  const shown = lines.slice(start, end + 1);
  if (end + 1 < lines.length) shown.push("");
  return `Here's the result of running \`cat -n\` on a snippet of ${path}:\n${catN(shown, start + 1)}\n`;
}

function hits(text, needle) {
  if (needle === "") return Array.from({ length: text.length + 1 }, (_, i) => i);
  const out = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

export function apply(doc, attempt, { path }) {
  const text = universalNewlines(doc);
  let oldStr = attempt.old_text;
  let newStr = attempt.new_text;
  if (oldStr === newStr) return error("No replacement was performed. `new_str` and `old_str` must be different.");
  let found = hits(text, oldStr);
  if (found.length === 0) {
    oldStr = oldStr.trim();
    newStr = newStr.trim();
    found = hits(text, oldStr);
  }
  // Both errors quote old_str as last searched: stripped, when the stripped retry ran.
  if (found.length === 0) return error(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`);
  if (found.length > 1) {
    const lines = [...new Set(found.map((i) => text.slice(0, i).split("\n").length))].sort((a, b) => a - b);
    return error(`No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines ${JSON.stringify(lines).replace(/,/g, ", ")}. Please ensure it is unique.`);
  }
  const at = found[0];
  const out = text.slice(0, at) + newStr + text.slice(at + oldStr.length);
  return applied(out, `The file ${path} has been edited. ${snippet(path, out, at, newStr)}Review the changes and make sure they are as expected. Edit the file again if necessary.`);
}
