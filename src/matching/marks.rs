//! Characters that attach to the one before them: a match must never end just before one (it
//! would take the base character and leave its accent behind: `cafe` matched inside `café`
//! written as `e` + U+0301) nor start on one.
//!
//! The table is data, generated from the Unicode Character Database (version 14.0, through
//! Python's `unicodedata`): every code point of general category Mn, Mc or Me (combining,
//! spacing and enclosing marks, variation selectors included), plus U+200D ZERO WIDTH JOINER
//! and the emoji skin-tone modifiers U+1F3FB–U+1F3FF, as inclusive ranges.

use std::ops::Range;

use ropey::Rope;

use super::Match;

/// Whether `c` extends the character before it. Cost: O(log 301), a binary search.
pub fn is_mark(c: char) -> bool {
    let c = c as u32;
    if c < 0x0300 {
        return false; // ASCII and Latin-1: the common case, no search
    }
    MARKS
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whether `b` may be the first byte of a mark's UTF-8 form: the lead bytes of [`MARKS`]'s
/// code points (a test checks every range). CJK ideographs (lead bytes E4–E9) and Hangul
/// syllables (EB–ED) are never marks.
fn may_lead_a_mark(b: u8) -> bool {
    matches!(b, 0xCC | 0xCD | 0xD2 | 0xD6..=0xD9 | 0xDB..=0xDF | 0xE0..=0xE3 | 0xEA | 0xEF | 0xF0 | 0xF3)
}

/// Whether `s` holds a mark ([`is_mark`]): a pass over its chars by their lead bytes, decoding
/// only those that may be a mark. A text's answer is kept with its flat copy
/// (`Text::holds_marks`), so a search with many hits asks once per text, not per call.
/// Cost: O(n) bytes, a char step at a time.
pub fn holds_marks(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b < 0x80 {
            i += 1;
            continue;
        }
        if may_lead_a_mark(b) && s.get(i..).and_then(|rest| rest.chars().next()).is_some_and(is_mark) {
            return true;
        }
        i += match b {
            0xF0.. => 4,
            0xE0.. => 3,
            _ => 2,
        };
    }
    false
}

/// Whether the char range `range` of `rope` cuts a character from its marks: the char after it
/// is a mark, or it starts on a mark that has a character before it on its line.
/// Cost: O(log n) (two char lookups).
pub fn splits_a_character(rope: &Rope, range: &Range<usize>) -> bool {
    let mark_after = indexed_char(rope, range.end).is_some_and(is_mark);
    let starts_on_mark =
        range.start > 0 && indexed_char(rope, range.start).is_some_and(is_mark) && indexed_char(rope, range.start - 1) != Some('\n');
    mark_after || starts_on_mark
}

/// The char at `i` through the rope's index (a tree descent, O(log n)); `None` past the end.
/// Tests count these lookups: a search must not make one per match.
fn indexed_char(rope: &Rope, i: usize) -> Option<char> {
    #[cfg(test)]
    tests::LOOKUPS.with(|n| n.set(n.get() + 1));
    rope.get_char(i)
}

/// `found` without the matches that cut a character from its marks ([`splits_a_character`]),
/// order kept. An all-ASCII rope holds no mark: nothing to look at (O(1), ropey keeps both
/// counts). Otherwise a few matches are checked with the rope's index (O(log n) each), and many
/// in one forward pass over the chunks ([`CharCursor`]) — a tree descent per match made a
/// million matches cost most of a second. Cost: O(1), O(k log n) or O(n + k).
pub fn retain_whole(rope: &Rope, found: &mut Vec<Match>) {
    retain_whole_unless_free(rope, found, &|| false);
}

/// [`retain_whole`], asking `marks_free` (whether `rope` is known to hold no mark: a text's
/// cached [`holds_marks`]) before a pass over the chunks: with hundreds of hits spread over a
/// CJK text that pass walks the whole text on every call (docs/performance.md#cjk-text).
/// Cost: as [`retain_whole`], O(k) when `marks_free` answers true.
pub fn retain_whole_unless_free(rope: &Rope, found: &mut Vec<Match>, marks_free: &dyn Fn() -> bool) {
    /// Below this many matches per 1,000 chunks of about 1 KB, per-match lookups are cheaper.
    const SWEEP_PER_1000_CHUNKS: usize = 100;
    if rope.len_bytes() == rope.len_chars() || found.is_empty() {
        return;
    }
    if found.len() * 1000 < SWEEP_PER_1000_CHUNKS * (rope.len_bytes() / 1000 + 1) {
        found.retain(|m| !splits_a_character(rope, &m.range));
        return;
    }
    if marks_free() {
        return;
    }
    let len = rope.len_chars();
    let mut cursor = CharCursor::new(rope);
    found.retain(|m| {
        let (start, end) = (m.range.start, m.range.end);
        // The char before a start is looked up only when the start is a mark (rare): the cursor
        // moves forward only.
        let starts_on_mark =
            start > 0 && start < len && cursor.char_at(start).is_some_and(is_mark) && indexed_char(rope, start - 1) != Some('\n');
        let mark_after = end < len && cursor.char_at(end).is_some_and(is_mark);
        !(mark_after || starts_on_mark)
    });
}

/// Chars of a rope read at ascending char offsets, walking its chunks once: O(n) for all reads
/// together. A read behind the cursor (matches out of order) falls back to the rope's index.
struct CharCursor<'a> {
    rope: &'a Rope,
    chunks: ropey::iter::Chunks<'a>,
    chunk: &'a str,
    /// Char offset of `chunk`'s start, and the cursor's place in it (byte, char offset).
    chunk_char: usize,
    at_byte: usize,
    at_char: usize,
    /// Chars in `chunk` (counted when it is entered).
    chunk_chars: usize,
}

impl<'a> CharCursor<'a> {
    fn new(rope: &'a Rope) -> CharCursor<'a> {
        let mut chunks = rope.chunks();
        let chunk = chunks.next().unwrap_or_default();
        CharCursor { rope, chunks, chunk, chunk_char: 0, at_byte: 0, at_char: 0, chunk_chars: chunk.chars().count() }
    }

    /// The char at char offset `i`; `None` past the end.
    fn char_at(&mut self, i: usize) -> Option<char> {
        if i < self.chunk_char + self.at_char {
            return indexed_char(self.rope, i);
        }
        while i >= self.chunk_char + self.chunk_chars {
            self.chunk_char += self.chunk_chars;
            self.chunk = self.chunks.next()?;
            self.chunk_chars = self.chunk.chars().count();
            (self.at_byte, self.at_char) = (0, 0);
        }
        let want = i - self.chunk_char;
        let rest = self.chunk.get(self.at_byte..)?;
        // Counted a word at a time (ropey's str_utils), not char by char: with hundreds of
        // hits spread over a CJK text the cursor walks most of it (docs/performance.md#cjk-text).
        let offset = ropey::str_utils::char_to_byte_idx(rest, want - self.at_char);
        let c = rest.get(offset..)?.chars().next()?;
        self.at_byte += offset;
        self.at_char = want;
        Some(c)
    }
}

const MARKS: [(u32, u32); 301] = [
    (0x0300, 0x036F),
    (0x0483, 0x0489),
    (0x0591, 0x05BD),
    (0x05BF, 0x05BF),
    (0x05C1, 0x05C2),
    (0x05C4, 0x05C5),
    (0x05C7, 0x05C7),
    (0x0610, 0x061A),
    (0x064B, 0x065F),
    (0x0670, 0x0670),
    (0x06D6, 0x06DC),
    (0x06DF, 0x06E4),
    (0x06E7, 0x06E8),
    (0x06EA, 0x06ED),
    (0x0711, 0x0711),
    (0x0730, 0x074A),
    (0x07A6, 0x07B0),
    (0x07EB, 0x07F3),
    (0x07FD, 0x07FD),
    (0x0816, 0x0819),
    (0x081B, 0x0823),
    (0x0825, 0x0827),
    (0x0829, 0x082D),
    (0x0859, 0x085B),
    (0x0898, 0x089F),
    (0x08CA, 0x08E1),
    (0x08E3, 0x0903),
    (0x093A, 0x093C),
    (0x093E, 0x094F),
    (0x0951, 0x0957),
    (0x0962, 0x0963),
    (0x0981, 0x0983),
    (0x09BC, 0x09BC),
    (0x09BE, 0x09C4),
    (0x09C7, 0x09C8),
    (0x09CB, 0x09CD),
    (0x09D7, 0x09D7),
    (0x09E2, 0x09E3),
    (0x09FE, 0x09FE),
    (0x0A01, 0x0A03),
    (0x0A3C, 0x0A3C),
    (0x0A3E, 0x0A42),
    (0x0A47, 0x0A48),
    (0x0A4B, 0x0A4D),
    (0x0A51, 0x0A51),
    (0x0A70, 0x0A71),
    (0x0A75, 0x0A75),
    (0x0A81, 0x0A83),
    (0x0ABC, 0x0ABC),
    (0x0ABE, 0x0AC5),
    (0x0AC7, 0x0AC9),
    (0x0ACB, 0x0ACD),
    (0x0AE2, 0x0AE3),
    (0x0AFA, 0x0AFF),
    (0x0B01, 0x0B03),
    (0x0B3C, 0x0B3C),
    (0x0B3E, 0x0B44),
    (0x0B47, 0x0B48),
    (0x0B4B, 0x0B4D),
    (0x0B55, 0x0B57),
    (0x0B62, 0x0B63),
    (0x0B82, 0x0B82),
    (0x0BBE, 0x0BC2),
    (0x0BC6, 0x0BC8),
    (0x0BCA, 0x0BCD),
    (0x0BD7, 0x0BD7),
    (0x0C00, 0x0C04),
    (0x0C3C, 0x0C3C),
    (0x0C3E, 0x0C44),
    (0x0C46, 0x0C48),
    (0x0C4A, 0x0C4D),
    (0x0C55, 0x0C56),
    (0x0C62, 0x0C63),
    (0x0C81, 0x0C83),
    (0x0CBC, 0x0CBC),
    (0x0CBE, 0x0CC4),
    (0x0CC6, 0x0CC8),
    (0x0CCA, 0x0CCD),
    (0x0CD5, 0x0CD6),
    (0x0CE2, 0x0CE3),
    (0x0D00, 0x0D03),
    (0x0D3B, 0x0D3C),
    (0x0D3E, 0x0D44),
    (0x0D46, 0x0D48),
    (0x0D4A, 0x0D4D),
    (0x0D57, 0x0D57),
    (0x0D62, 0x0D63),
    (0x0D81, 0x0D83),
    (0x0DCA, 0x0DCA),
    (0x0DCF, 0x0DD4),
    (0x0DD6, 0x0DD6),
    (0x0DD8, 0x0DDF),
    (0x0DF2, 0x0DF3),
    (0x0E31, 0x0E31),
    (0x0E34, 0x0E3A),
    (0x0E47, 0x0E4E),
    (0x0EB1, 0x0EB1),
    (0x0EB4, 0x0EBC),
    (0x0EC8, 0x0ECD),
    (0x0F18, 0x0F19),
    (0x0F35, 0x0F35),
    (0x0F37, 0x0F37),
    (0x0F39, 0x0F39),
    (0x0F3E, 0x0F3F),
    (0x0F71, 0x0F84),
    (0x0F86, 0x0F87),
    (0x0F8D, 0x0F97),
    (0x0F99, 0x0FBC),
    (0x0FC6, 0x0FC6),
    (0x102B, 0x103E),
    (0x1056, 0x1059),
    (0x105E, 0x1060),
    (0x1062, 0x1064),
    (0x1067, 0x106D),
    (0x1071, 0x1074),
    (0x1082, 0x108D),
    (0x108F, 0x108F),
    (0x109A, 0x109D),
    (0x135D, 0x135F),
    (0x1712, 0x1715),
    (0x1732, 0x1734),
    (0x1752, 0x1753),
    (0x1772, 0x1773),
    (0x17B4, 0x17D3),
    (0x17DD, 0x17DD),
    (0x180B, 0x180D),
    (0x180F, 0x180F),
    (0x1885, 0x1886),
    (0x18A9, 0x18A9),
    (0x1920, 0x192B),
    (0x1930, 0x193B),
    (0x1A17, 0x1A1B),
    (0x1A55, 0x1A5E),
    (0x1A60, 0x1A7C),
    (0x1A7F, 0x1A7F),
    (0x1AB0, 0x1ACE),
    (0x1B00, 0x1B04),
    (0x1B34, 0x1B44),
    (0x1B6B, 0x1B73),
    (0x1B80, 0x1B82),
    (0x1BA1, 0x1BAD),
    (0x1BE6, 0x1BF3),
    (0x1C24, 0x1C37),
    (0x1CD0, 0x1CD2),
    (0x1CD4, 0x1CE8),
    (0x1CED, 0x1CED),
    (0x1CF4, 0x1CF4),
    (0x1CF7, 0x1CF9),
    (0x1DC0, 0x1DFF),
    (0x200D, 0x200D),
    (0x20D0, 0x20F0),
    (0x2CEF, 0x2CF1),
    (0x2D7F, 0x2D7F),
    (0x2DE0, 0x2DFF),
    (0x302A, 0x302F),
    (0x3099, 0x309A),
    (0xA66F, 0xA672),
    (0xA674, 0xA67D),
    (0xA69E, 0xA69F),
    (0xA6F0, 0xA6F1),
    (0xA802, 0xA802),
    (0xA806, 0xA806),
    (0xA80B, 0xA80B),
    (0xA823, 0xA827),
    (0xA82C, 0xA82C),
    (0xA880, 0xA881),
    (0xA8B4, 0xA8C5),
    (0xA8E0, 0xA8F1),
    (0xA8FF, 0xA8FF),
    (0xA926, 0xA92D),
    (0xA947, 0xA953),
    (0xA980, 0xA983),
    (0xA9B3, 0xA9C0),
    (0xA9E5, 0xA9E5),
    (0xAA29, 0xAA36),
    (0xAA43, 0xAA43),
    (0xAA4C, 0xAA4D),
    (0xAA7B, 0xAA7D),
    (0xAAB0, 0xAAB0),
    (0xAAB2, 0xAAB4),
    (0xAAB7, 0xAAB8),
    (0xAABE, 0xAABF),
    (0xAAC1, 0xAAC1),
    (0xAAEB, 0xAAEF),
    (0xAAF5, 0xAAF6),
    (0xABE3, 0xABEA),
    (0xABEC, 0xABED),
    (0xFB1E, 0xFB1E),
    (0xFE00, 0xFE0F),
    (0xFE20, 0xFE2F),
    (0x101FD, 0x101FD),
    (0x102E0, 0x102E0),
    (0x10376, 0x1037A),
    (0x10A01, 0x10A03),
    (0x10A05, 0x10A06),
    (0x10A0C, 0x10A0F),
    (0x10A38, 0x10A3A),
    (0x10A3F, 0x10A3F),
    (0x10AE5, 0x10AE6),
    (0x10D24, 0x10D27),
    (0x10EAB, 0x10EAC),
    (0x10F46, 0x10F50),
    (0x10F82, 0x10F85),
    (0x11000, 0x11002),
    (0x11038, 0x11046),
    (0x11070, 0x11070),
    (0x11073, 0x11074),
    (0x1107F, 0x11082),
    (0x110B0, 0x110BA),
    (0x110C2, 0x110C2),
    (0x11100, 0x11102),
    (0x11127, 0x11134),
    (0x11145, 0x11146),
    (0x11173, 0x11173),
    (0x11180, 0x11182),
    (0x111B3, 0x111C0),
    (0x111C9, 0x111CC),
    (0x111CE, 0x111CF),
    (0x1122C, 0x11237),
    (0x1123E, 0x1123E),
    (0x112DF, 0x112EA),
    (0x11300, 0x11303),
    (0x1133B, 0x1133C),
    (0x1133E, 0x11344),
    (0x11347, 0x11348),
    (0x1134B, 0x1134D),
    (0x11357, 0x11357),
    (0x11362, 0x11363),
    (0x11366, 0x1136C),
    (0x11370, 0x11374),
    (0x11435, 0x11446),
    (0x1145E, 0x1145E),
    (0x114B0, 0x114C3),
    (0x115AF, 0x115B5),
    (0x115B8, 0x115C0),
    (0x115DC, 0x115DD),
    (0x11630, 0x11640),
    (0x116AB, 0x116B7),
    (0x1171D, 0x1172B),
    (0x1182C, 0x1183A),
    (0x11930, 0x11935),
    (0x11937, 0x11938),
    (0x1193B, 0x1193E),
    (0x11940, 0x11940),
    (0x11942, 0x11943),
    (0x119D1, 0x119D7),
    (0x119DA, 0x119E0),
    (0x119E4, 0x119E4),
    (0x11A01, 0x11A0A),
    (0x11A33, 0x11A39),
    (0x11A3B, 0x11A3E),
    (0x11A47, 0x11A47),
    (0x11A51, 0x11A5B),
    (0x11A8A, 0x11A99),
    (0x11C2F, 0x11C36),
    (0x11C38, 0x11C3F),
    (0x11C92, 0x11CA7),
    (0x11CA9, 0x11CB6),
    (0x11D31, 0x11D36),
    (0x11D3A, 0x11D3A),
    (0x11D3C, 0x11D3D),
    (0x11D3F, 0x11D45),
    (0x11D47, 0x11D47),
    (0x11D8A, 0x11D8E),
    (0x11D90, 0x11D91),
    (0x11D93, 0x11D97),
    (0x11EF3, 0x11EF6),
    (0x16AF0, 0x16AF4),
    (0x16B30, 0x16B36),
    (0x16F4F, 0x16F4F),
    (0x16F51, 0x16F87),
    (0x16F8F, 0x16F92),
    (0x16FE4, 0x16FE4),
    (0x16FF0, 0x16FF1),
    (0x1BC9D, 0x1BC9E),
    (0x1CF00, 0x1CF2D),
    (0x1CF30, 0x1CF46),
    (0x1D165, 0x1D169),
    (0x1D16D, 0x1D172),
    (0x1D17B, 0x1D182),
    (0x1D185, 0x1D18B),
    (0x1D1AA, 0x1D1AD),
    (0x1D242, 0x1D244),
    (0x1DA00, 0x1DA36),
    (0x1DA3B, 0x1DA6C),
    (0x1DA75, 0x1DA75),
    (0x1DA84, 0x1DA84),
    (0x1DA9B, 0x1DA9F),
    (0x1DAA1, 0x1DAAF),
    (0x1E000, 0x1E006),
    (0x1E008, 0x1E018),
    (0x1E01B, 0x1E021),
    (0x1E023, 0x1E024),
    (0x1E026, 0x1E02A),
    (0x1E130, 0x1E136),
    (0x1E2AE, 0x1E2AE),
    (0x1E2EC, 0x1E2EF),
    (0x1E8D0, 0x1E8D6),
    (0x1E944, 0x1E94A),
    (0x1F3FB, 0x1F3FF),
    (0xE0100, 0xE01EF),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_non_marks() {
        for c in ['\u{0301}', '\u{0308}', '\u{200D}', '\u{FE0F}', '\u{1F3FD}', '\u{093F}', '\u{20DD}'] {
            assert!(is_mark(c), "{c:?}");
        }
        for c in ['e', '\u{00E9}', ' ', '中', '😀', '\u{2014}'] {
            assert!(!is_mark(c), "{c:?}");
        }
        assert!(MARKS.windows(2).all(|w| w[0].1 < w[1].0), "sorted, disjoint");
    }

    thread_local! {
        /// Chars read through the rope's index on this thread ([`indexed_char`]).
        pub static LOOKUPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    fn lookups() -> usize {
        LOOKUPS.with(std::cell::Cell::get)
    }

    /// Every `width`-char window starting at each multiple of `step`, as exact matches.
    fn windows(rope: &Rope, width: usize, step: usize) -> Vec<Match> {
        (0..rope.len_chars().saturating_sub(width)).step_by(step).map(|s| Match::exact(s..s + width)).collect()
    }

    #[test]
    fn every_mark_has_a_lead_byte_that_may_lead_a_mark() {
        // The precheck skips chars by their first byte: one mark it skips would let a search
        // keep a match that cuts it off.
        let mut leads = std::collections::BTreeSet::new();
        for &(lo, hi) in MARKS.iter() {
            for c in (lo..=hi).filter_map(char::from_u32) {
                let mut buf = [0; 4];
                let lead = c.encode_utf8(&mut buf).as_bytes()[0];
                assert!(may_lead_a_mark(lead), "{:04X} leads with {lead:02X}", c as u32);
                leads.insert(lead);
            }
        }
        // And not wider than the table: CJK ideographs and Hangul syllables are skipped.
        assert!((0u8..=255).filter(|&b| may_lead_a_mark(b)).all(|b| leads.contains(&b)));
        assert!(!may_lead_a_mark("中".as_bytes()[0]) && !may_lead_a_mark("한".as_bytes()[0]));
    }

    #[test]
    fn holds_marks_finds_any_mark_the_char_check_finds() {
        for (text, want) in [
            ("plain ascii", false),
            ("中文、標點。「引號」，全角！한국어", false),
            ("cafe\u{0301}", true),
            ("中文\u{3099}", true),
            ("ok \u{1F44D}\u{1F3FD}", true),
            ("a\u{200D}b", true),
            ("\u{FE0F}", true),
            ("é ü ñ 😀", false),
        ] {
            assert_eq!(holds_marks(text), want, "{text:?}");
            assert_eq!(holds_marks(text), text.chars().any(is_mark), "{text:?}");
        }
    }

    #[test]
    fn retain_whole_skips_the_pass_only_when_told_the_text_is_free_of_marks() {
        let rope = Rope::from_str(&"中文 ab\u{0301} cd\n".repeat(3000));
        let found = windows(&rope, 2, 1);
        let mut checked = found.clone();
        retain_whole_unless_free(&rope, &mut checked, &|| false);
        assert!(checked.len() < found.len(), "matches cutting a mark off go");
        let mut trusted = found.clone();
        retain_whole_unless_free(&rope, &mut trusted, &|| true);
        assert_eq!(trusted, found, "told free of marks: none checked");
    }

    #[test]
    fn retain_whole_agrees_with_the_per_match_check() {
        // Marks after letters, opening a line, at chunk seams (the unit is not a chunk's divisor).
        let rope = Rope::from_str(&"cafe\u{0301} x\n\u{0301}y 中\u{0308}z \u{1F44D}\u{1F3FD} ok\n".repeat(3000));
        for (width, step) in [(1, 1), (2, 3), (4, 1), (7, 11), (3, 4000)] {
            let found = windows(&rope, width, step);
            let want: Vec<Match> = found.iter().filter(|m| !splits_a_character(&rope, &m.range)).cloned().collect();
            let mut got = found.clone();
            retain_whole(&rope, &mut got);
            assert_eq!(got, want, "width {width}, step {step}");
            assert!(got.len() < found.len(), "some windows cut a character");
        }
        // Out of order (not what a search gives, but still right): reads behind the cursor.
        let mut backwards = windows(&rope, 2, 1);
        backwards.reverse();
        let want: Vec<Match> = backwards.iter().filter(|m| !splits_a_character(&rope, &m.range)).cloned().collect();
        retain_whole(&rope, &mut backwards);
        assert_eq!(backwards, want);
    }

    #[test]
    fn many_matches_are_checked_in_one_pass_without_a_lookup_each() {
        // A one-space needle in a page of non-ASCII lines: 180,000 matches. The old per-match
        // check read 1–3 chars through the tree for each (a million lookups took most of a
        // second); the pass reads through the index only before a start that is a mark.
        let rope = Rope::from_str(&"  é  中文  \n".repeat(30_000));
        let mut found: Vec<Match> = rope.chars().enumerate().filter(|&(_, c)| c == ' ').map(|(i, _)| Match::exact(i..i + 1)).collect();
        let total = found.len();
        assert_eq!(total, 180_000);
        let before = lookups();
        retain_whole(&rope, &mut found);
        assert_eq!(found.len(), total, "no space cuts a character here");
        assert_eq!(lookups() - before, 0, "no tree lookup per match");
        // Starts on marks: one lookup each for the char before, none for the rest.
        let marked = Rope::from_str(&"e\u{0301}\u{0301} ".repeat(50_000));
        let mut found = windows(&marked, 1, 1);
        let starts_on_marks = found.iter().filter(|m| is_mark(marked.char(m.range.start))).count();
        let before = lookups();
        retain_whole(&marked, &mut found);
        assert_eq!(lookups() - before, starts_on_marks);
        // An ASCII document holds no marks: nothing is read at all.
        let ascii = Rope::from_str(&"    \n".repeat(100_000));
        let mut found = windows(&ascii, 1, 1);
        let before = lookups();
        retain_whole(&ascii, &mut found);
        assert_eq!((found.len(), lookups() - before), (ascii.len_chars() - 1, 0));
    }

    #[test]
    fn ranges_that_cut_a_character() {
        let rope = Rope::from_str("cafe\u{0301} x\n\u{0301}y");
        assert!(splits_a_character(&rope, &(0..4)), "`cafe` before its accent");
        assert!(!splits_a_character(&rope, &(0..5)), "`café` whole");
        assert!(splits_a_character(&rope, &(4..7)), "starts on the accent of `e`");
        assert!(!splits_a_character(&rope, &(8..10)), "a mark opening a line has no base to lose");
    }
}
