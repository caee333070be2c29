// CL-sdk: Cline's current SDK editor (sdk/packages/core/src/extensions/tools/executors/editor.ts).
// Facts: the needle is converted to the file's line ending; it must occur exactly once (0 or
// more than one is an error); the replacement is literal.
import { applied, error } from "./common.mjs";

export function apply(doc, attempt, { path }) {
  const crlf = doc.includes("\r\n");
  const conv = (s) => (crlf ? s.replace(/\r?\n/g, "\r\n") : s);
  const oldStr = conv(attempt.old_text);
  const newStr = conv(attempt.new_text);
  if (oldStr === "") return error(`old_str must not be empty when editing ${path}.`);
  const n = doc.split(oldStr).length - 1;
  if (n === 0) return error(`old_str was not found in ${path}. Read the file and copy the text exactly.`);
  if (n > 1) return error(`old_str was found ${n} times in ${path}; add surrounding lines so it matches exactly once.`);
  const at = doc.indexOf(oldStr);
  return applied(doc.slice(0, at) + newStr + doc.slice(at + oldStr.length), `Edited ${path}.`);
}
