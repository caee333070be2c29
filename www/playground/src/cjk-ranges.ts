// Rendered from src/text_rules.rs by its tests (AGENTPAD_WRITE_TS=1 cargo test --lib text_rules rewrites it).

/** CJK letters (text_rules.rs `CJK_LETTERS`), inclusive code point ranges. */
export const CJK_LETTERS: readonly (readonly [number, number])[] = [
  [0x1100, 0x11FF],
  [0x3005, 0x3005],
  [0x3007, 0x3007],
  [0x3040, 0x30FF],
  [0x3100, 0x312F],
  [0x3130, 0x318F],
  [0x31A0, 0x31BF],
  [0x31F0, 0x31FF],
  [0x3400, 0x4DBF],
  [0x4E00, 0x9FFF],
  [0xA960, 0xA97F],
  [0xAC00, 0xD7AF],
  [0xD7B0, 0xD7FF],
  [0xF900, 0xFAFF],
  [0xFF66, 0xFF9F],
  [0x20000, 0x323AF],
];

/** CJK punctuation, symbols and full-width forms (text_rules.rs `CJK_MARKS`). */
export const CJK_MARKS: readonly (readonly [number, number])[] = [
  [0x2E80, 0x2FFF],
  [0x3000, 0x303F],
  [0x3190, 0x33FF],
  [0x4DC0, 0x4DFF],
  [0xFF00, 0xFFEF],
  [0x20000, 0x3FFFF],
];

/** A CJK letter or mark: about one model token (text_rules.rs `is_wide`). */
export function isWide(c: number): boolean {
  return [CJK_LETTERS, CJK_MARKS].some((t) => t.some(([lo, hi]) => c >= lo && c <= hi));
}
