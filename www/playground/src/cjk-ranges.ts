// Rendered from src/text_rules.rs by its tests (AGENTPAD_WRITE_TS=1 cargo test --lib text_rules rewrites it).

/** CJK letters (text_rules.rs `CJK_LETTERS`), inclusive code point ranges. */
export const CJK_LETTERS: readonly (readonly [number, number])[] = [
  [0x1100, 0x11ff],
  [0x3005, 0x3005],
  [0x3007, 0x3007],
  [0x3040, 0x30ff],
  [0x3100, 0x312f],
  [0x3130, 0x318f],
  [0x31a0, 0x31bf],
  [0x31f0, 0x31ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa960, 0xa97f],
  [0xac00, 0xd7af],
  [0xd7b0, 0xd7ff],
  [0xf900, 0xfaff],
  [0xff66, 0xff9f],
  [0x20000, 0x323af],
];

/** CJK punctuation, symbols and full-width forms (text_rules.rs `CJK_MARKS`). */
export const CJK_MARKS: readonly (readonly [number, number])[] = [
  [0x2e80, 0x2fff],
  [0x3000, 0x303f],
  [0x3190, 0x33ff],
  [0x4dc0, 0x4dff],
  [0xff00, 0xffef],
  [0x20000, 0x3ffff],
];

/** A CJK letter or mark: about one model token (text_rules.rs `is_wide`). */
export function isWide(c: number): boolean {
  return [CJK_LETTERS, CJK_MARKS].some((t) => t.some(([lo, hi]) => c >= lo && c <= hi));
}
