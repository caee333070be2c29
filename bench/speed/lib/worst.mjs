// The worst-case shapes of the matcher (docs/reliability.md §Matching time and read size): inputs
// that used to make one memo_replace call grow with (document lines × needle lines) or with
// (line length × needle length). Frozen: the same definitions as bench/native/common/worst.rs, byte
// for byte (the report compares their FNV-1a); never tuned to suit agentpad.
//
// Each shape is a document of about `bytes` and an old_text that matches nowhere (a near miss),
// so a call runs every step: exact, the fuzzy tiers, gutters, then the near-miss search.

/** FNV-1a (32-bit) over UTF-8 bytes, as bench/native/common/docs.rs computes it. */
export function fnv1a32(s) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, "utf8")) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** `unit` repeated to about `bytes` (whole units). */
const fill = (unit, bytes) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

/** `s` with the char at `at` replaced by `c` (the one difference of a near miss). */
const spoil = (s, at, c) => s.slice(0, at) + c + s.slice(at + 1);

const CSV_ROW = "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n";
const CODE_LINE = "    let value = compute(alpha, beta, gamma); // same line\n";
const WORDS = "abcdefghij ";
const PROSE_LINE = "the quick brown fox jumps over the lazy dog 0123456789\n";

/** Distinct code lines (no two alike), every one ending in `}`. */
function distinctCode(bytes) {
  const parts = [];
  let len = 0;
  for (let i = 1; len < bytes; i++) {
    const line = `    fn item_${i}(x: u32) -> u32 { x * ${i % 97} + ${i % 13} }\n`;
    parts.push(line);
    len += line.length;
    if (i % 5 === 0) {
      parts.push("}\n\n");
      len += 3;
    }
  }
  return parts.join("");
}

/** The shapes, in report order: name, what it is, and `(bytes) → { text, needle }`. */
export const SHAPES = [
  ["csv-rows", "CSV of zeros, a 100-row needle with one cell changed", (bytes) => ({ text: fill(CSV_ROW, bytes), needle: spoil(CSV_ROW.repeat(100), 1600, "1") })],
  ["identical-lines", "one code line repeated, a 200-line needle with one char changed", (bytes) => {
    const needle = CODE_LINE.repeat(200);
    return { text: fill(CODE_LINE, bytes), needle: spoil(needle, needle.length >> 1, "Q") };
  }],
  ["brace-blank", "alternating `}` and blank lines, a 400-line needle of them ending in `x`", (bytes) => ({ text: fill("}\n\n", bytes), needle: "}\n\n".repeat(200) + "x" })],
  ["tokenless", "distinct code lines, a 3-line needle of braces (no token to search for)", (bytes) => ({ text: distinctCode(bytes), needle: "}\n  }\n}" })],
  ["long-line", "one line of repeated words, a needle of 1/1000 of it with one char changed", (bytes) => {
    const needle = fill(WORDS, Math.max(2000, bytes / 1000));
    return { text: fill(WORDS, bytes), needle: spoil(needle, needle.length >> 1, "#") };
  }],
  ["big-needle", "repeated prose lines, a needle of 1/100 of the document with one char changed", (bytes) => {
    const needle = fill(PROSE_LINE, bytes / 100);
    return { text: fill(PROSE_LINE, bytes), needle: spoil(needle, needle.length >> 1, "#") };
  }],
];

/**
 * Shapes whose text is found in very many places (docs/reliability.md §Matching time and read
 * size): the search must stop counting instead of collecting every match, and a replace_all
 * must stage its places in linear time or be refused past its place limit. Frozen like SHAPES
 * (added later, with no native twin in bench/native/common/worst.rs: their native numbers are in
 * docs/reliability.md). Each gives the call (`tool`, `args`) and `expect(response)` → the
 * answer is right: a `MultiMatch` that says "more than N places" (nothing staged, nothing
 * listed), or a `Success` staging every place.
 */
const tooMany = (r) => r?.status === "MultiMatch" && /matches more than \d+ places/.test(r.summary ?? "") && (r.candidates ?? []).length === 0;
export const MANY_SHAPES = [
  ["blank-one-char", "lines of blanks, old_text ` ` (one match per byte)", (bytes) => ({
    text: fill(" ".repeat(63) + "\n", bytes),
    tool: "memo_replace", args: { old_text: " ", new_text: "x" }, expect: tooMany,
  })],
  ["blank-span", "lines of blanks, a span from ` ` to ` `", (bytes) => ({
    text: fill(" ".repeat(63) + "\n", bytes),
    tool: "memo_replace_span", args: { old_span_start: " ", old_span_end: " ", new_text: "x" }, expect: tooMany,
  })],
  ["blank-search-after", "lines of blanks, old_text ` ` after a `MARK` line near the end (63 places after it)", (bytes) => ({
    text: fill(" ".repeat(63) + "\n", bytes) + "MARK\n" + " ".repeat(63),
    tool: "memo_replace", args: { old_text: " ", new_text: "x", search_after: "MARK" },
    expect: (r) => r?.status === "MultiMatch" && /matches 63 places/.test(r.summary ?? ""),
  })],
  ["span-spread", "a start line, lines of blanks, another start: a span from `S` to ` `", (bytes) => ({
    text: "S1\n" + fill(" ".repeat(63) + "\n", bytes) + "S2 \n",
    tool: "memo_replace_span", args: { old_span_start: "S", old_span_end: " ", new_text: "T " },
    expect: (r) => r?.status === "MultiMatch" && (r.candidates ?? []).length === 2,
  })],
  ["replace-all-every-line", "`let x=1;` lines, replace_all of `x=1` (a place every 9 bytes: 1.1 M at 10 MB)", (bytes) => ({
    text: fill("let x=1;\n", bytes),
    tool: "memo_replace", args: { old_text: "x=1", new_text: "x=2", replace_all: true }, expect: tooMany,
  })],
  ["replace-all-at-limit", "20,000 `let x=1;` lines among `let y=2;` ones, replace_all of `x=1` (the most one call stages)", (bytes) => {
    const places = "let x=1;\n".repeat(20_000);
    return {
      text: places + fill("let y=2;\n", Math.max(9, bytes - places.length)),
      tool: "memo_replace", args: { old_text: "x=1", new_text: "x=2", replace_all: true },
      expect: (r) => r?.status === "Success" && /\(20000 places\)/.test(r.summary ?? ""),
    };
  }],
  // The elided-middle tier (an old_text with `...` lines): every anchor occurs everywhere, so
  // each reading is ambiguous; the answer lists or refuses, never a write (added with the tier).
  ["elided-two-anchors", "one 3-line function repeated, old_text its first and last line around `...`", (bytes) => ({
    text: fill("fn a() {\n    x();\n}\n", bytes),
    tool: "memo_replace", args: { old_text: "fn a() {\n    ...\n}", new_text: "fn b() {\n    ...\n}" },
    expect: (r) => r?.status !== "Success" && r?.status !== "Exception",
  })],
  ["elided-many-pieces", "the same, old_text 50 of its lines with `...` between each", (bytes) => ({
    text: fill("fn a() {\n    x();\n}\n", bytes),
    tool: "memo_replace",
    args: { old_text: Array(50).fill("    x();").join("\n...\n"), new_text: Array(50).fill("    y();").join("\n...\n") },
    expect: (r) => r?.status !== "Success" && r?.status !== "Exception",
  })],
];

/** "1MB" → 1,000,000 (decimal, as the docs generator counts). */
export function tierBytes(tier) {
  const m = /^(\d+)(KB|MB)$/.exec(tier);
  if (!m) throw new Error(`bad worst-case tier ${tier}: use e.g. 1MB or 100KB`);
  return Number(m[1]) * (m[2] === "MB" ? 1_000_000 : 1_000);
}

export const DEFAULT_TIERS = "1MB,10MB";
