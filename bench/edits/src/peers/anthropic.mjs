// AQ: Anthropic's text-editor reference tool (anthropic-quickstarts computer-use-demo, edit.py),
// str_replace at its defaults. Facts: the file is read with universal newlines; tabs are expanded
// (8 columns) in the file, old_str and new_str; old_str must occur exactly once as a substring;
// a duplicate error lists the lines that contain old_str (none for a multi-line old_str); the
// whole file is written back tab-expanded with LF endings.
import { expandTabs, universalNewlines } from "../text.mjs";
import { applied, editSnippet, error } from "./common.mjs";

export function apply(doc, attempt, { path }) {
  const text = expandTabs(universalNewlines(doc));
  const oldStr = expandTabs(attempt.old_text);
  const newStr = expandTabs(attempt.new_text);
  const n = oldStr === "" ? text.length + 1 : text.split(oldStr).length - 1;
  if (n === 0) return error(`No replacement was performed, old_str \`${attempt.old_text}\` did not appear verbatim in ${path}.`);
  if (n > 1) {
    const lines = text.split("\n").map((l, i) => (l.includes(oldStr) ? i + 1 : 0)).filter(Boolean);
    return error(`No replacement was performed. Multiple occurrences of old_str \`${attempt.old_text}\` in lines ${JSON.stringify(lines).replace(/,/g, ", ")}. Please ensure it is unique`);
  }
  const at = text.indexOf(oldStr);
  const out = text.slice(0, at) + newStr + text.slice(at + oldStr.length);
  return applied(out, `The file ${path} has been edited. ${editSnippet(path, out, at, newStr)}Review the changes and make sure they are as expected. Edit the file again if necessary.`);
}
