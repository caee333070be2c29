// Text helpers shared by the storage and the awareness code: line endings and BOM as metadata,
// edits in UTF-16 units on code-point boundaries, and Yjs deltas as edits.
import type { TextEdit } from "@agentpad/core";
import { digest as sha256 } from "lib0/hash/sha256";

/** How a document's line breaks and BOM are written back (the Y.Text itself holds LF). */
export interface TextFormat {
  eol: "\n" | "\r\n" | "\r";
  bom: boolean;
}

export const DEFAULT_FORMAT: TextFormat = { eol: "\n", bom: false };

/**
 * Splits a stored text into its LF body and its format. A text without a line break keeps
 * `previous`'s line ending (nothing tells what it is). Cost: O(n).
 */
export function splitStored(raw: string, previous: TextFormat = DEFAULT_FORMAT): { lf: string; format: TextFormat } {
  const bom = raw.charCodeAt(0) === 0xfeff;
  const body = bom ? raw.slice(1) : raw;
  const eol: TextFormat["eol"] = body.includes("\r\n") ? "\r\n" : body.includes("\r") ? "\r" : body.includes("\n") ? "\n" : previous.eol;
  return { lf: body.includes("\r") ? body.replace(/\r\n?/g, "\n") : body, format: { eol, bom } };
}

/** The stored form of an LF body. Cost: O(n). */
export function joinStored(lf: string, format: TextFormat): string {
  const body = format.eol === "\n" ? lf : lf.replace(/\n/g, format.eol);
  return format.bom ? `\ufeff${body}` : body;
}

/** True when UTF-16 offset `i` of `s` falls between the two halves of a surrogate pair. */
export function splitsPair(s: string, i: number): boolean {
  if (i <= 0 || i >= s.length) return false;
  const lo = s.charCodeAt(i);
  const hi = s.charCodeAt(i - 1);
  return lo >= 0xdc00 && lo < 0xe000 && hi >= 0xd800 && hi < 0xdc00;
}

/**
 * Why `edits` cannot be applied to `text`, or undefined: they must be sorted, apart, inside the
 * text and on code-point boundaries (half a surrogate pair in a Y.Text is permanent damage).
 * Cost: O(edits).
 */
export function checkEdits(text: string, edits: readonly TextEdit[]): string | undefined {
  let end = 0;
  for (const [i, e] of edits.entries()) {
    if (!Number.isInteger(e.from) || !Number.isInteger(e.to) || typeof e.insert !== "string") {
      return `edit ${i} is not { from: integer, to: integer, insert: string }: ${JSON.stringify(e)}`;
    }
    if (e.from < end || e.to < e.from || e.to > text.length) {
      return `edit ${i} (${e.from}..${e.to}) is out of order or outside the ${text.length}-unit text (the previous edit ends at ${end})`;
    }
    if (splitsPair(text, e.from) || splitsPair(text, e.to)) {
      return `edit ${i} (${e.from}..${e.to}) splits a surrogate pair`;
    }
    end = e.to;
  }
  return undefined;
}

/** `text` with checked `edits` applied. Cost: O(n + edits). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(text.slice(at, e.from), e.insert);
    at = e.to;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * The one edit between the common prefix and suffix of `a` and `b`, moved off any surrogate
 * pair; none when they are equal. Only for a write whose base is known to be `a`: it is not a
 * merge. Cost: O(n).
 */
export function editBetween(a: string, b: string): TextEdit[] {
  if (a === b) return [];
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  if (splitsPair(a, p) || splitsPair(b, p)) p--;
  let s = 0;
  while (s < max - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  if (splitsPair(a, a.length - s) || splitsPair(b, b.length - s)) s--;
  return [{ from: p, to: a.length - s, insert: b.slice(p, b.length - s) }];
}

/** One op of a Y.Text event's delta. */
export interface DeltaOp {
  retain?: number;
  delete?: number;
  insert?: unknown;
}

/**
 * A Y.Text event's delta as edits of the text before the event (UTF-16 units, sorted; a delete
 * next to an insert is one replacement). Embeds (non-string inserts) count one unit, as in Yjs.
 * Cost: O(ops).
 */
export function deltaToEdits(delta: readonly DeltaOp[]): TextEdit[] {
  const edits: TextEdit[] = [];
  let pos = 0;
  const add = (from: number, to: number, insert: string) => {
    const last = edits[edits.length - 1];
    if (last !== undefined && last.to === from) {
      last.to = to;
      last.insert += insert;
    } else {
      edits.push({ from, to, insert });
    }
  };
  for (const op of delta) {
    if (op.retain !== undefined) pos += op.retain;
    else if (op.delete !== undefined) {
      add(pos, pos + op.delete, "");
      pos += op.delete;
    } else if (op.insert !== undefined) {
      add(pos, pos, typeof op.insert === "string" ? op.insert : "\ufffc");
    }
  }
  return edits;
}

/**
 * Hex SHA-256 of a string's UTF-8, synchronously (lib0's, the hash Yjs ships; Node's crypto in
 * Node): a storage call that hashes holds no await between reading the Y.Text and writing it,
 * so no remote update can land in between. Cost: O(n), ~26 ms per 10 MB in Node.
 */
export function sha256Hex(s: string): string {
  const digest = sha256(new TextEncoder().encode(s));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
