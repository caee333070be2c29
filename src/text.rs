//! Text: the document model and the one place where positions change units.
//!
//! A [`Text`] is a ropey [`Rope`] of *normalised* text (LF line breaks, no BOM) plus what is needed
//! to write it back exactly as it came (docs/architecture.md#text-and-positions: a CRLF file stays CRLF, a BOM stays).
//! Every offset inside the core is a **char** offset into the normalised text; JSON offsets handed
//! to JavaScript are **UTF-16 code units** ([`Text::char_to_utf16`] is the only converter).

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, OnceLock};

use ropey::Rope;
use xxhash_rust::xxh3::Xxh3;

use crate::changeset::ChangeSet;
use crate::text_index::{BlockGrams, ByteEdit};

/// The line-break style a document had in storage, restored when it is written back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub enum LineEnding {
    #[default]
    Lf,
    CrLf,
    Cr,
}

impl LineEnding {
    /// The most frequent line break of `raw` (ties go to the one seen first; no break at all → LF).
    /// A file with mixed endings is written back in its dominant style: that is what editors do,
    /// and it never invents a style the file did not have. Cost: O(n) bytes.
    pub fn detect(raw: &str) -> LineEnding {
        let bytes = raw.as_bytes();
        let (mut lf, mut crlf, mut cr) = (0usize, 0usize, 0usize);
        let mut first = None;
        // The `\n` of a `\r\n` pair, already counted with its `\r`.
        let mut pair_lf = None;
        for at in memchr::memchr2_iter(b'\r', b'\n', bytes) {
            if pair_lf == Some(at) {
                continue;
            }
            let kind = if bytes.get(at) == Some(&b'\n') {
                lf += 1;
                LineEnding::Lf
            } else if bytes.get(at + 1) == Some(&b'\n') {
                crlf += 1;
                pair_lf = Some(at + 1);
                LineEnding::CrLf
            } else {
                cr += 1;
                LineEnding::Cr
            };
            first.get_or_insert(kind);
        }
        let best = lf.max(crlf).max(cr);
        if best == 0 {
            return LineEnding::Lf;
        }
        let count = |k: LineEnding| match k {
            LineEnding::Lf => lf,
            LineEnding::CrLf => crlf,
            LineEnding::Cr => cr,
        };
        match first {
            Some(k) if count(k) == best => k,
            _ if lf == best => LineEnding::Lf,
            _ if crlf == best => LineEnding::CrLf,
            _ => LineEnding::Cr,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
            LineEnding::Cr => "\r",
        }
    }
}

/// CRLF and lone CR become LF. Tool arguments go through this too, so a needle typed with CRLF
/// matches a CRLF document. Borrowed when there is nothing to change. Cost: O(n).
pub fn normalize_line_breaks(s: &str) -> Cow<'_, str> {
    if memchr::memchr(b'\r', s.as_bytes()).is_none() {
        return Cow::Borrowed(s);
    }
    Cow::Owned(with_lf_breaks(s))
}

/// [`normalize_line_breaks`] of a text holding a CR: out of line, so that opening an LF text
/// does not compile it (docs/performance.md#cold-start).
#[cold]
#[inline(never)]
fn with_lf_breaks(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

const BOM: char = '\u{FEFF}';

/// Most bytes (old and new together) between the first and last changed line of an external
/// change that [`Text::reloaded`] diffs by lines: a 4 MB document rewritten whole, in about
/// 40 ms natively. Past it the line diff would cost about four times building a rope of the
/// text (2 s at 128 MiB), so the text between is taken as one replacement — the text before
/// and after it is still shared — and a version kept of it costs that text, which the byte
/// bound on versions counts (docs/decisions.md#versions-are-bounded-by-bytes-too).
pub const RELOAD_DIFF_BYTES: usize = 8 << 20;

/// 64-bit hash of a text's normalised content, shown as 16 hex digits. Agents pass it back as
/// `expected_fingerprint` to prove they edit what they read (an optimistic lock).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub u64);

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// A document's text: normalised rope + the storage form's line ending and BOM.
#[derive(Clone, Debug)]
pub struct Text {
    rope: Rope,
    line_ending: LineEnding,
    bom: bool,
    /// The text as one contiguous string, shared by clones: searching it runs at `memmem`'s
    /// flat-string speed instead of copying the rope's ~1 KB chunks on every search. Made with
    /// the text — the string storage handed over at open and reload, the old flat text with the
    /// changes applied at commit — so no call pays for building it; built on first use only
    /// after [`Text::forget_flat`]. Costs one more copy of the text while the `Text` lives.
    /// Beside it, made with it: the trigram block index the exact search asks first, so that it
    /// reads a few KB of the text instead of all of it (src/text_index.rs; absent when the flat
    /// text was built on first use).
    flat: FlatCache,
    /// Computed once when the text is made: every response carries a fingerprint, and hashing
    /// 10 MB per call would dominate an edit.
    fingerprint: Fingerprint,
}

impl Text {
    /// Reads text as storage holds it: strips a leading BOM, turns CRLF/CR into LF, and remembers
    /// both for [`Text::to_storage`]. Copies `raw` once for the flat text; a caller that owns the
    /// string hands it over with [`Text::from_storage_string`] instead. Cost: O(n).
    pub fn from_storage(raw: &str) -> Text {
        Text::from_storage_string(raw.to_owned())
    }

    /// [`Text::from_storage`] taking the string: without a CR it becomes the flat text as it is
    /// (a leading BOM is moved out in place), so opening 10 MB costs the rope and the
    /// fingerprint, not a second copy. Cost: O(n).
    pub fn from_storage_string(raw: String) -> Text {
        let (flat, line_ending, bom) = normalised(raw);
        Text::from_flat(flat, line_ending, bom)
    }

    /// Storage's new text `raw` of the document that held this text (an external change, a
    /// reload): the text [`Text::from_storage_string`] gives, made as an edit of this one
    /// (docs/workflow.md#live-context). The change set from this text to the new one is the diff
    /// of the two flat texts ([`ChangeSet::diff_str_within`]: the line diff when the text
    /// between the first and last changed line is at most [`RELOAD_DIFF_BYTES`] on both sides,
    /// else that text as one replacement); the rope is this rope with it applied, so it shares
    /// every chunk the change does not touch and a version kept of each text costs only what
    /// changed; the block index is this one's with the touched blocks hashed again. `raw`
    /// becomes the flat text without a copy. Returns the change set too when it is the line
    /// diff (an automatic rebase maps pending changes through it). Cost: O(n) to normalise,
    /// fingerprint, find the common prefix and suffix and apply a replacement of the middle;
    /// the line diff of a middle of at most [`RELOAD_DIFF_BYTES`] (about 40 ms natively);
    /// O(n / 4 KB + bytes changed) for the index (O(n) when this text had none).
    pub fn reloaded(&self, raw: String) -> (Text, Option<ChangeSet>) {
        let (flat, line_ending, bom) = normalised(raw);
        let (changes, coarse) = ChangeSet::diff_str_within(self.flat(), &flat, RELOAD_DIFF_BYTES);
        let applied = changes.apply(&self.rope).ok().filter(|r| r.len_bytes() == flat.len());
        let fingerprint = fingerprint_of_str(&flat);
        let (rope, grams) = match (applied, &self.flat.grams) {
            (Some(rope), Some(old)) => (rope, old.updated(flat.as_bytes(), &self.byte_edits(&changes))),
            (Some(rope), None) => (rope, BlockGrams::build(flat.as_bytes())),
            // Not reached (the diff is exact): the new text alone, as at open.
            (None, _) => (Rope::from_str(&flat), BlockGrams::build(flat.as_bytes())),
        };
        let text = Text { rope, line_ending, bom, fingerprint, flat: FlatCache::built(flat, grams) };
        (text, (!coarse).then_some(changes))
    }

    /// `changes` of this text as byte edits of its flat text (for the block index). A range
    /// past the end (a change set of another text) is clamped to it: the index then sees edits
    /// that do not add up to the new text's length and is built afresh, never wrong. Cost:
    /// O(k·log n).
    fn byte_edits(&self, changes: &ChangeSet) -> Vec<ByteEdit> {
        let byte = |c: usize| self.rope.try_char_to_byte(c).unwrap_or(self.rope.len_bytes());
        changes.replacements().iter().map(|r| ByteEdit { old: byte(r.range.start)..byte(r.range.end), new_len: r.text.len() }).collect()
    }

    /// A text whose normalised content is `flat`: the rope is built from it, the fingerprint
    /// hashed over it, and it is kept as the flat text with its block index. Cost: O(n).
    fn from_flat(flat: String, line_ending: LineEnding, bom: bool) -> Text {
        let rope = Rope::from_str(&flat);
        let fingerprint = fingerprint_of_str(&flat);
        let grams = BlockGrams::build(flat.as_bytes());
        Text { rope, line_ending, bom, fingerprint, flat: FlatCache::built(flat, grams) }
    }

    /// A text with the same storage form as `self` but other content (a draft being committed).
    /// Content that now starts with U+FEFF in a text without a BOM would be written as bytes every
    /// reader (this one included) takes for a BOM: it becomes that BOM here, so the text is what a
    /// reload of the written bytes gives. The flat text is built on first use; a commit, which
    /// knows the changes, uses [`Text::committed`]. Cost: O(n) for the fingerprint.
    pub fn with_rope(&self, mut rope: Rope) -> Text {
        let mut bom = self.bom;
        if !bom && rope.get_char(0) == Some(BOM) {
            rope.remove(0..1);
            bom = true;
        }
        Text { fingerprint: fingerprint_of(&rope), rope, line_ending: self.line_ending, bom, flat: FlatCache::default() }
    }

    /// [`Text::with_rope`] for `draft`, which is `changes` applied to this text: the new flat
    /// text is this one's with the changes applied (one copy, ranges found through the rope), so
    /// the first search after a commit finds it built, and its block index is this one's with
    /// the blocks the changes touch hashed again. A `changes` or `draft` that does not fit
    /// this text (checked by lengths) falls back to copying `draft` out of its rope and indexing
    /// it whole. Cost: O(n) bytes copied + O(k·log n) for k changes, O(n) for the fingerprint,
    /// and O(n / 4 KB + bytes changed) for the index (O(n) when this text had none).
    pub fn committed(&self, draft: Rope, changes: &ChangeSet) -> Text {
        self.committed_at(draft, changes, changes.byte_ranges(&self.rope, self.flat()).ok().as_deref())
    }

    /// [`Text::committed`] with the changes' byte ranges in this text's flat text
    /// ([`ChangeSet::byte_ranges`]), found once by a commit that cuts its write at them too.
    /// `None` (they could not be found) makes the new text from `draft` alone. Cost: as
    /// [`Text::committed`], without finding the ranges.
    pub fn committed_at(&self, draft: Rope, changes: &ChangeSet, ranges: Option<&[std::ops::Range<usize>]>) -> Text {
        let applied = ranges.and_then(|at| Some((changes.apply_flat_at(self.flat(), at).ok()?, at)));
        let (mut flat, mut fits) = match applied {
            Some((s, at)) if changes.draft_len() == draft.len_chars() && s.len() == draft.len_bytes() => (s, Some(at)),
            _ => (rope_string(&draft), None),
        };
        let mut bom = self.bom;
        if !bom && flat.starts_with(BOM) {
            // As `with_rope`: the leading U+FEFF is the BOM a reload would read.
            flat.replace_range(..BOM.len_utf8(), "");
            bom = true;
            fits = None;
        }
        let grams = match (&self.flat.grams, fits) {
            (Some(old), Some(at)) => old.updated(flat.as_bytes(), &byte_edits_at(changes, at)),
            _ => BlockGrams::build(flat.as_bytes()),
        };
        let mut rope = draft;
        if bom && !self.bom {
            rope.remove(0..1);
        }
        let fingerprint = fingerprint_of_str(&flat);
        Text { rope, line_ending: self.line_ending, bom, fingerprint, flat: FlatCache::built(flat, grams) }
    }

    /// The bytes to write back: the remembered line ending and BOM restored, copied from the
    /// flat text at their final size. Cost: O(n).
    pub fn to_storage(&self) -> String {
        let flat = self.flat();
        let mut out = String::with_capacity(self.storage_len_of(&self.rope));
        if self.bom {
            out.push(BOM);
        }
        if self.line_ending == LineEnding::Lf {
            out.push_str(flat);
        } else {
            let eol = self.line_ending.as_str();
            for (i, piece) in flat.split('\n').enumerate() {
                if i > 0 {
                    out.push_str(eol);
                }
                out.push_str(piece);
            }
        }
        out
    }

    pub fn rope(&self) -> &Rope {
        &self.rope
    }

    /// The byte length [`Text::to_storage`] gives `rope` written in this text's storage form
    /// (line ending and BOM). Cost: O(1) (ropey counts line breaks).
    pub fn storage_len_of(&self, rope: &Rope) -> usize {
        let crs = if self.line_ending == LineEnding::CrLf { rope.len_lines() - 1 } else { 0 };
        rope.len_bytes() + crs + if self.bom { BOM.len_utf8() } else { 0 }
    }

    /// The normalised text as one string. Cost: O(1), except after [`Text::forget_flat`]: O(n)
    /// the first time (for this text and its clones).
    pub fn flat(&self) -> &str {
        self.flat.text.get_or_init(|| rope_string(&self.rope).into_boxed_str())
    }

    /// [`Text::flat`] and its block index, when it was made with it (not after
    /// [`Text::forget_flat`]: the exact search then scans the whole text). Cost: as `flat`.
    pub(crate) fn flat_and_grams(&self) -> (&str, Option<&BlockGrams>) {
        (self.flat(), self.flat.grams.as_deref())
    }

    /// Whether the text holds a combining mark, by `holds_marks` (the matching layer's
    /// `marks::holds_marks`, passed in: this layer sits below it) the first time and kept
    /// (docs/performance.md#cjk-text: a search with many hits then checks none of them).
    /// Cost: O(n) the first time (for this text and its clones), then O(1).
    pub fn holds_marks(&self, holds_marks: fn(&str) -> bool) -> bool {
        *self.flat.marks.get_or_init(|| holds_marks(self.flat()))
    }

    /// The char offsets of the flat text's blocks (entry `i`: the chars before byte
    /// `i * block`), by `build` (the matching layer's, passed in as for `holds_marks`) the first
    /// time and kept: a search with many hits then counts the chars of a block at most per hit
    /// instead of every byte between hits (docs/performance.md#cjk-text). Cost: O(n) the first
    /// time (for this text and its clones), then O(1).
    pub(crate) fn char_blocks(&self, build: fn(&[u8]) -> Box<[usize]>) -> &[usize] {
        self.flat.char_blocks.get_or_init(|| build(self.flat().as_bytes()))
    }

    /// [`Text::char_blocks`] when it was built already. Cost: O(1).
    pub(crate) fn char_blocks_built(&self) -> Option<&[usize]> {
        self.flat.char_blocks.get().map(|b| &**b)
    }

    /// Whether the flat text is built (for tests and diagnostics). Cost: O(1).
    pub fn has_flat(&self) -> bool {
        self.flat.text.get().is_some()
    }

    /// Whether the flat text's block index is there, and the bytes it holds (for tests and
    /// diagnostics). Cost: O(1).
    pub fn flat_index_bytes(&self) -> Option<usize> {
        self.flat.grams.as_deref().map(BlockGrams::heap_bytes)
    }

    /// Lets go of this handle on the flat text: its memory is freed once no clone holds it, and
    /// [`Text::flat`] builds it again from the rope if it is asked for. A commit calls this on
    /// the text it replaces once the new flat text is built, so that the old one's 10 MB are
    /// free again before the write's string is made. Cost: O(1).
    pub fn forget_flat(&mut self) {
        self.flat = FlatCache::default();
    }

    pub fn line_ending(&self) -> LineEnding {
        self.line_ending
    }

    pub fn has_bom(&self) -> bool {
        self.bom
    }

    /// Hash of the normalised content (line ending and BOM do not count). Cost: O(1), computed
    /// when the text was made.
    pub fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }
}

/// [`Text::flat`]'s storage: shared between clones of a text; empty only after
/// [`Text::forget_flat`] until used again.
#[derive(Clone, Default)]
struct FlatCache {
    text: Arc<OnceLock<Box<str>>>,
    /// The block index of `text`, made with it; `None` after `forget_flat`, also once `text`
    /// is built again on first use (a failed commit's old text: searched by scanning).
    grams: Option<Arc<BlockGrams>>,
    /// Whether `text` holds a combining mark, found by the first search that asks.
    marks: Arc<OnceLock<bool>>,
    /// The char offsets of `text`'s blocks, made by the first search that has many hits to
    /// convert ([`Text::char_blocks`]).
    char_blocks: Arc<OnceLock<Box<[usize]>>>,
}

impl FlatCache {
    /// Holding `flat` already, and its index. `into_boxed_str` reallocates only when the string
    /// has spare capacity (the strings made here are allocated at their final size).
    fn built(flat: String, grams: BlockGrams) -> FlatCache {
        FlatCache {
            text: Arc::new(OnceLock::from(flat.into_boxed_str())),
            grams: Some(Arc::new(grams)),
            marks: Arc::default(),
            char_blocks: Arc::default(),
        }
    }
}

impl fmt::Debug for FlatCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match (self.text.get().is_some(), self.grams.is_some()) {
            (true, true) => "built, indexed",
            (true, false) => "built",
            _ => "empty",
        };
        write!(f, "FlatCache({state})")
    }
}

/// Storage's text as [`Text`] keeps it: the BOM dropped (and reported), line breaks
/// normalised to LF in place when there is no CR (the string is kept), the dominant line
/// ending detected. Cost: O(n).
/// (Also for texts read but never opened: a stored version read by `memo_read({ version })`.)
pub(crate) fn normalised(mut raw: String) -> (String, LineEnding, bool) {
    let bom = raw.starts_with(BOM);
    if bom {
        raw.replace_range(..BOM.len_utf8(), "");
    }
    let line_ending = LineEnding::detect(&raw);
    let flat = match normalize_line_breaks(&raw) {
        Cow::Borrowed(_) => raw,
        Cow::Owned(normalised) => normalised,
    };
    (flat, line_ending, bom)
}

/// See [`Fingerprint`]. Cost: O(n), streaming over the rope's chunks (no copy).
pub fn fingerprint_of(rope: &Rope) -> Fingerprint {
    let mut hasher = Xxh3::new();
    for chunk in rope.chunks() {
        hasher.update(chunk.as_bytes());
    }
    Fingerprint(hasher.digest())
}

/// [`fingerprint_of`] over a flat string: the same value (XXH3's streaming and one-shot forms
/// agree), hashed in one pass. Cost: O(n).
pub fn fingerprint_of_str(flat: &str) -> Fingerprint {
    Fingerprint(xxhash_rust::xxh3::xxh3_64(flat.as_bytes()))
}

/// Char offset → UTF-16 offset in `rope`. The one conversion point towards JavaScript.
/// `char_idx` past the end is clamped to the end. Cost: O(log n).
pub fn char_to_utf16(rope: &Rope, char_idx: usize) -> usize {
    rope.char_to_utf16_cu(char_idx.min(rope.len_chars()))
}

/// UTF-16 offset → char offset in `rope`, for offsets coming from JavaScript. An offset in the
/// middle of a surrogate pair maps to the char that pair encodes; past the end is clamped.
/// Cost: O(log n).
pub fn utf16_to_char(rope: &Rope, utf16_idx: usize) -> usize {
    rope.utf16_cu_to_char(utf16_idx.min(rope.len_utf16_cu()))
}

/// `changes` as byte edits of a flat text they cut at `ranges` (their byte ranges there, as
/// [`ChangeSet::byte_ranges`] gives them), for the block index. Cost: O(k).
fn byte_edits_at(changes: &ChangeSet, ranges: &[std::ops::Range<usize>]) -> Vec<ByteEdit> {
    changes.replacements().iter().zip(ranges).map(|(r, old)| ByteEdit { old: old.clone(), new_len: r.text.len() }).collect()
}

/// UTF-16 length of a `&str` (what JS's `.length` reports). Cost: O(n).
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// A JS string held a lone surrogate, which has no UTF-8 form. `offset` is in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnpairedSurrogate {
    pub offset: usize,
    pub unit: u16,
}

impl fmt::Display for UnpairedSurrogate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unpaired UTF-16 surrogate 0x{:04X} at UTF-16 offset {}; send well-formed text (String.prototype.toWellFormed() replaces it)",
            self.unit, self.offset
        )
    }
}

/// Decodes UTF-16 code units strictly: the first unpaired surrogate is an error naming its
/// offset, never silently replaced by U+FFFD. Cost: O(n).
pub fn decode_utf16(units: &[u16]) -> Result<String, UnpairedSurrogate> {
    let mut out = String::with_capacity(units.len());
    let mut offset = 0;
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            Ok(c) => {
                out.push(c);
                offset += c.len_utf16();
            }
            Err(e) => return Err(UnpairedSurrogate { offset, unit: e.unpaired_surrogate() }),
        }
    }
    Ok(out)
}

/// 1-based line number of a char offset. Cost: O(log n).
pub fn line_of(rope: &Rope, char_idx: usize) -> usize {
    rope.char_to_line(char_idx.min(rope.len_chars())) + 1
}

/// Number of lines as an editor shows them: a trailing LF does not open a new line, an empty
/// text has one (empty) line.
pub fn visible_line_count(rope: &Rope) -> usize {
    let n = rope.len_lines();
    if n > 1 && rope.line(n - 1).len_chars() == 0 {
        n - 1
    } else {
        n
    }
}

/// The text of 0-based line `idx` without its line break.
pub fn line_text(rope: &Rope, idx: usize) -> String {
    let mut s = rope.line(idx).to_string();
    if s.ends_with('\n') {
        s.pop();
    }
    s
}

/// The rope as one `String`, allocated once at its final size (`Rope::to_string` grows its
/// buffer as it goes). Cost: O(n).
pub fn rope_string(rope: &Rope) -> String {
    let mut s = String::with_capacity(rope.len_bytes());
    for chunk in rope.chunks() {
        s.push_str(chunk);
    }
    s
}

pub use crate::text_rules::clip;

mod chunk_sharing;
pub use chunk_sharing::unshared_bytes;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_round_trips_and_is_lf_inside() {
        let raw = "\u{FEFF}a\r\nb\r\nc";
        let t = Text::from_storage(raw);
        assert_eq!(t.rope().to_string(), "a\nb\nc");
        assert!(t.has_bom());
        assert_eq!(t.line_ending(), LineEnding::CrLf);
        assert_eq!(t.to_storage(), raw);
    }

    #[test]
    fn a_leading_feff_committed_without_a_bom_becomes_the_bom_a_reload_would_read() {
        let t = Text::from_storage("a\r\nb\r\n");
        let committed = t.with_rope(Rope::from_str("\u{feff}x\nb\n"));
        let written = committed.to_storage();
        assert_eq!(written, "\u{feff}x\r\nb\r\n", "the same bytes as before the fix");
        let reloaded = Text::from_storage(&written);
        assert_eq!(committed.rope().to_string(), reloaded.rope().to_string());
        assert_eq!((committed.has_bom(), committed.fingerprint()), (reloaded.has_bom(), reloaded.fingerprint()));
        // A text that has a BOM keeps a second U+FEFF as content, as a reader does.
        let with_bom = Text::from_storage("\u{feff}a\n").with_rope(Rope::from_str("\u{feff}a\n"));
        assert_eq!(Text::from_storage(&with_bom.to_storage()).rope().to_string(), "\u{feff}a\n");
    }

    #[test]
    fn lone_cr_and_mixed_endings_normalise_and_write_the_dominant_style() {
        let t = Text::from_storage("a\rb\r\nc\r\nd\n");
        assert_eq!(t.rope().to_string(), "a\nb\nc\nd\n");
        assert_eq!(t.line_ending(), LineEnding::CrLf);
        assert_eq!(t.to_storage(), "a\r\nb\r\nc\r\nd\r\n");
        assert_eq!(LineEnding::detect("x\ry\r"), LineEnding::Cr);
        assert_eq!(LineEnding::detect("no breaks"), LineEnding::Lf);
        // a tie goes to the first style seen
        assert_eq!(LineEnding::detect("a\r\nb\nc"), LineEnding::CrLf);
    }

    #[test]
    fn fingerprint_ignores_storage_form_but_not_content() {
        let a = Text::from_storage("x\r\ny");
        let b = Text::from_storage("x\ny");
        let c = Text::from_storage("x\nz");
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_ne!(a.fingerprint(), c.fingerprint());
        assert_eq!(a.fingerprint().to_string().len(), 16);
    }

    #[test]
    fn utf16_offsets_count_surrogate_pairs() {
        let rope = Rope::from_str("a😀中b");
        assert_eq!(char_to_utf16(&rope, 2), 3); // 'a' + two units for the emoji
        assert_eq!(char_to_utf16(&rope, 4), 5);
        assert_eq!(utf16_to_char(&rope, 4), 3);
        assert_eq!(char_to_utf16(&rope, 99), 5);
        assert_eq!(utf16_len("😀中"), 3);
    }

    #[test]
    fn decode_utf16_names_the_unpaired_offset() {
        let mut units: Vec<u16> = "ab😀".encode_utf16().collect();
        assert_eq!(decode_utf16(&units).as_deref(), Ok("ab😀"));
        units.push(0xD800);
        units.push(b'c' as u16);
        let err = decode_utf16(&units).unwrap_err();
        assert_eq!(err, UnpairedSurrogate { offset: 4, unit: 0xD800 });
        assert!(err.to_string().contains("UTF-16 offset 4"));
        let lone_low = [b'x' as u16, 0xDC00];
        assert_eq!(decode_utf16(&lone_low).unwrap_err().offset, 1);
    }

    #[test]
    fn visible_lines() {
        assert_eq!(visible_line_count(&Rope::from_str("")), 1);
        assert_eq!(visible_line_count(&Rope::from_str("a\nb\n")), 2);
        assert_eq!(visible_line_count(&Rope::from_str("a\nb")), 2);
        assert_eq!(line_text(&Rope::from_str("a\nb\n"), 0), "a");
    }
}
