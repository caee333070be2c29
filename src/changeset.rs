//! ChangeSet: an edit of a text as plain data (docs/architecture.md#pending-changes).
//!
//! Modelled on helix-core's `transaction.rs`: an edit is a value computed from positions alone —
//! it is applied to a text ([`ChangeSet::apply`]), maps positions through itself with an
//! association side ([`ChangeSet::map_pos`], [`Assoc`]) and is inverted against the text it was
//! made for ([`ChangeSet::invert`]). Nothing here reads the clock or does I/O; every position is a
//! **char** offset (the core's unit, see [`crate::text`]).
//!
//! ## Replacements rather than retain/delete/insert operations
//! Helix stores a change set as a run of `Retain(n)`, `Delete(n)`, `Insert(text)` operations
//! covering the whole document; that form makes *composing* two change sets a single merge walk.
//! agentpad's pending changes are already *replacements keyed by a base range* (a letter names
//! each one, docs/architecture.md#pending-changes), and the session never composes whole change sets: staging merges the one
//! edit into the few changes it touches. So a [`ChangeSet`] is the sorted list of
//! [`Replacement`]s, plus each one's draft start: a replacement is exactly helix's
//! `Retain(gap) Insert(text) Delete(range)` (helix's canonical order: insert before delete), the
//! letters stay attached to their replacement, and mapping a position is a binary search —
//! O(log k) for k replacements instead of helix's O(ops) walk.
//!
//! ## Position mapping (helix's rules)
//! A position is a gap between chars. [`ChangeSet::map_pos`] (base → draft):
//! * outside every replacement: shifted by the length change of the replacements before it;
//! * at a replacement's start, or strictly inside it: [`Assoc::Before`] → the start of its text in
//!   the draft, [`Assoc::After`] → the end of its text (an insertion point is "at the start");
//! * at the end of a non-empty replaced range: the end of its text, whatever the side — the char
//!   after it was not replaced, and it stays right after the new text.
//!
//! [`ChangeSet::map_back`] (draft → base) reports whether a draft position lies strictly inside
//! a replacement's new text; [`ChangeSet::map_back_pos`] resolves such positions to a side.
//!
//! ## External changes
//! [`ChangeSet::diff`] computes the change set between two texts with the `similar` crate: a line
//! diff (interned lines, Myers) whose changed hunks are refined to chars when small. Any diff is a
//! correct change set (`apply(old, diff(old, new)) == new`); refining only decides how finely
//! untouched text is recognised, and so how few pending changes a rebase reports as conflicts.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use ropey::Rope;
use similar::{DiffOp, DiffTag};

use crate::text_rules::myers_ops;

/// Which side of an edit a position sticks to when the edit sits exactly there (helix's `Assoc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Assoc {
    /// Before the new text: a cursor that was before the insertion point stays before it.
    Before,
    /// After the new text.
    After,
}

/// Replace base chars `range` with `text`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Replacement {
    /// Char range in the base text.
    pub range: Range<usize>,
    pub text: String,
}

/// Why a change set could not be built or applied. Each variant carries the bad value and the
/// limit it broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChangeSetError {
    /// `range.start > range.end`.
    Reversed { range: Range<usize> },
    /// `range.end` is past the base's end.
    OutOfRange { range: Range<usize>, base_len: usize },
    /// `range` belongs before `previous` (replacements must come in base order).
    Unsorted { previous: Range<usize>, range: Range<usize> },
    /// `range` shares chars with `previous`.
    Overlap { previous: Range<usize>, range: Range<usize> },
    /// The text handed to `apply`/`invert` is not the base the change set was made for.
    LengthMismatch { expected: usize, actual: usize },
    /// The flat text handed to `apply_flat` is not its rope's text (`flat_bytes` against the
    /// rope's `rope_bytes`, or a range end that is no char boundary of it).
    FlatMismatch { rope_bytes: usize, flat_bytes: usize },
}

impl fmt::Display for ChangeSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangeSetError::Reversed { range } => {
                write!(f, "range {}..{} ends before it starts", range.start, range.end)
            }
            ChangeSetError::OutOfRange { range, base_len } => {
                write!(f, "range {}..{} is past the end of a {base_len}-char text", range.start, range.end)
            }
            ChangeSetError::Unsorted { previous, range } => {
                write!(f, "range {}..{} comes after {}..{} but belongs before it", range.start, range.end, previous.start, previous.end)
            }
            ChangeSetError::Overlap { previous, range } => {
                write!(f, "range {}..{} overlaps {}..{}", range.start, range.end, previous.start, previous.end)
            }
            ChangeSetError::LengthMismatch { expected, actual } => {
                write!(f, "the text has {actual} chars; the change set was made for {expected}")
            }
            ChangeSetError::FlatMismatch { rope_bytes, flat_bytes } => {
                write!(f, "the flat text ({flat_bytes} bytes) is not the rope's text ({rope_bytes} bytes)")
            }
        }
    }
}

impl std::error::Error for ChangeSetError {}

/// Where a draft position comes from ([`ChangeSet::map_back`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MappedBack {
    /// The position is not strictly inside any replacement's new text: this base position holds
    /// the same gap (at a replacement's draft start → its base start; at its draft end → its
    /// base end).
    Base(usize),
    /// Strictly inside the new text of replacement `index`, `offset` chars into it.
    Inside { index: usize, offset: usize },
}

/// A sorted list of non-overlapping [`Replacement`]s against a base text of `base_len` chars.
///
/// Replacements may touch (one ends where the next starts; several insertions at one position
/// apply in list order); they never share a char. Fields are private so the cached draft
/// positions always agree with the replacements.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangeSet {
    base_len: usize,
    draft_len: usize,
    replacements: Vec<Replacement>,
    /// Length in chars of each replacement's text.
    text_lens: Vec<usize>,
    /// Where each replacement's text starts in the draft.
    draft_starts: Vec<usize>,
}

impl ChangeSet {
    /// The identity change set of a `base_len`-char text. Cost: O(1).
    pub fn new(base_len: usize) -> ChangeSet {
        ChangeSet { base_len, draft_len: base_len, ..ChangeSet::default() }
    }

    /// Appends a replacement after the existing ones. Refuses (leaving `self` unchanged) a
    /// reversed range, one past the base's end, one before the last replacement (`Unsorted`) or
    /// sharing chars with it (`Overlap`). Cost: O(chars of `text`).
    pub fn try_push(&mut self, range: Range<usize>, text: impl Into<String>) -> Result<(), ChangeSetError> {
        if range.start > range.end {
            return Err(ChangeSetError::Reversed { range });
        }
        if range.end > self.base_len {
            return Err(ChangeSetError::OutOfRange { range, base_len: self.base_len });
        }
        let draft_start = match self.replacements.last() {
            None => range.start,
            Some(prev) => {
                let previous = prev.range.clone();
                // An insertion at the start of a non-empty replacement belongs before it.
                let before_it = range.start == previous.start && range.is_empty() && !previous.is_empty();
                if range.start < previous.start || before_it {
                    return Err(ChangeSetError::Unsorted { previous, range });
                }
                if range.start < previous.end {
                    return Err(ChangeSetError::Overlap { previous, range });
                }
                self.draft_end_of(self.replacements.len() - 1) + (range.start - previous.end)
            }
        };
        let text = text.into();
        let len = text.chars().count();
        self.draft_len = draft_start + len + (self.base_len - range.end);
        self.text_lens.push(len);
        self.draft_starts.push(draft_start);
        self.replacements.push(Replacement { range, text });
        Ok(())
    }

    /// A change set from replacements in base order; the first bad one is refused as
    /// [`ChangeSet::try_push`] does. Cost: O(k + chars of the texts).
    pub fn try_from_replacements(
        base_len: usize,
        replacements: impl IntoIterator<Item = Replacement>,
    ) -> Result<ChangeSet, ChangeSetError> {
        let mut set = ChangeSet::new(base_len);
        for r in replacements {
            set.try_push(r.range, r.text)?;
        }
        Ok(set)
    }

    /// Length of the base text, in chars. O(1).
    pub fn base_len(&self) -> usize {
        self.base_len
    }

    /// Length of the draft (the base with every replacement applied), in chars. O(1).
    pub fn draft_len(&self) -> usize {
        self.draft_len
    }

    /// Number of replacements. O(1).
    pub fn len(&self) -> usize {
        self.replacements.len()
    }

    /// True without replacements (the draft is the base). O(1).
    pub fn is_empty(&self) -> bool {
        self.replacements.is_empty()
    }

    /// The replacements in base order. O(1).
    pub fn replacements(&self) -> &[Replacement] {
        &self.replacements
    }

    /// Where replacement `index`'s text sits in the draft; `None` past the last. O(1).
    pub fn draft_range(&self, index: usize) -> Option<Range<usize>> {
        let start = *self.draft_starts.get(index)?;
        Some(start..start + self.text_lens.get(index)?)
    }

    /// Where each replacement's text sits in the draft, in base order. O(1) per item.
    pub fn draft_ranges(&self) -> impl ExactSizeIterator<Item = Range<usize>> + '_ {
        self.draft_starts.iter().zip(&self.text_lens).map(|(&s, &n)| s..s + n)
    }

    // Bounds: `replacements`, `draft_starts` and `text_lens` always have the same length (every
    // constructor pushes to all three), and `index` is, at every call, a `partition_point` over one of
    // them that is either checked `< len` (`get`) or reduced by `checked_sub(1)`.
    #[allow(clippy::indexing_slicing)]
    fn draft_end_of(&self, index: usize) -> usize {
        self.draft_starts[index] + self.text_lens[index]
    }

    /// Indices of the replacements whose base range overlaps or touches `range` (shares a char
    /// or an end point with it): a contiguous run, empty when none. Cost: O(log k).
    pub fn touching(&self, range: Range<usize>) -> Range<usize> {
        let from = self.replacements.partition_point(|r| r.range.end < range.start);
        let to = self.replacements.partition_point(|r| r.range.start <= range.end);
        from..to.max(from)
    }

    /// Whether this external change overlaps a pending change's base `range`: a replacement
    /// inside or touching it, except a pure insertion exactly at either edge of a non-empty
    /// range, which stays outside — the rule of the Y.RelativePositions a person's editor
    /// highlights the change with (docs/co-editing.md §Automatic rebase): its start maps after
    /// such an insertion, its end before. An insertion at an empty range (an insertion point)
    /// is ambiguous: an overlap. Cost: O(log k + touching).
    pub fn overlaps_pending(&self, range: &Range<usize>) -> bool {
        let at_edge =
            |r: &Replacement| r.range.is_empty() && !range.is_empty() && (r.range.start == range.start || r.range.start == range.end);
        self.replacements.get(self.touching(range.clone())).unwrap_or(&[]).iter().any(|r| !at_edge(r))
    }

    /// Indices of the replacements whose draft range (their new text) overlaps or touches the
    /// draft range `range`. Cost: O(log k).
    pub fn draft_touching(&self, range: Range<usize>) -> Range<usize> {
        let from = self.draft_end_partition(|end| end < range.start);
        let to = self.draft_starts.partition_point(|&s| s <= range.end);
        from..to.max(from)
    }

    /// Maps base position `pos` to the draft (see the module notes for edges). Total and
    /// monotonic in `pos`; a position past the base's end keeps its distance to the end.
    /// Cost: O(log k).
    // Bounds: `replacements`, `draft_starts` and `text_lens` always have the same length (every
    // constructor pushes to all three), and each index here is a `partition_point` over one of
    // them that is either checked `< len` (`get`) or reduced by `checked_sub(1)`.
    #[allow(clippy::indexing_slicing)]
    pub fn map_pos(&self, pos: usize, assoc: Assoc) -> usize {
        let reps = &self.replacements;
        match assoc {
            Assoc::Before => {
                let i = reps.partition_point(|r| r.range.end < pos);
                if let Some(r) = reps.get(i) {
                    if r.range.start < pos {
                        return if pos == r.range.end { self.draft_end_of(i) } else { self.draft_starts[i] };
                    }
                }
                match i.checked_sub(1) {
                    None => pos,
                    Some(p) => pos - reps[p].range.end + self.draft_end_of(p),
                }
            }
            Assoc::After => {
                let j = reps.partition_point(|r| r.range.start <= pos);
                match j.checked_sub(1) {
                    None => pos,
                    Some(p) => self.draft_end_of(p) + pos.saturating_sub(reps[p].range.end),
                }
            }
        }
    }

    /// Maps draft position `pos` back to the base, telling whether it lies strictly inside a
    /// replacement's new text. A position past the draft's end keeps its distance to the end.
    /// Cost: O(log k).
    // Bounds: `replacements`, `draft_starts` and `text_lens` always have the same length (every
    // constructor pushes to all three), and each index here is a `partition_point` over one of
    // them that is either checked `< len` (`get`) or reduced by `checked_sub(1)`.
    #[allow(clippy::indexing_slicing)]
    pub fn map_back(&self, pos: usize) -> MappedBack {
        let i = self.draft_starts.partition_point(|&s| s < pos);
        // Candidates strictly containing pos start before it: the last of those is i - 1.
        if let Some(p) = i.checked_sub(1) {
            let end = self.draft_end_of(p);
            if pos < end {
                return MappedBack::Inside { index: p, offset: pos - self.draft_starts[p] };
            }
        }
        // Not strictly inside: the last replacement whose text ends at or before pos decides.
        let j = self.draft_end_partition(|end| end <= pos);
        match j.checked_sub(1) {
            None => MappedBack::Base(pos),
            Some(p) => MappedBack::Base(pos - self.draft_end_of(p) + self.replacements[p].range.end),
        }
    }

    /// Maps draft position `pos` back to the base, resolving positions inside or at an edge of a
    /// replacement's new text to a side: [`Assoc::Before`] → the base start of the first such
    /// replacement, [`Assoc::After`] → the base end of the last. Monotonic in `pos`.
    /// Cost: O(log k).
    // Bounds: `replacements`, `draft_starts` and `text_lens` always have the same length (every
    // constructor pushes to all three), and each index here is a `partition_point` over one of
    // them that is either checked `< len` (`get`) or reduced by `checked_sub(1)`.
    #[allow(clippy::indexing_slicing)]
    pub fn map_back_pos(&self, pos: usize, assoc: Assoc) -> usize {
        let reps = &self.replacements;
        match assoc {
            Assoc::Before => {
                let i = self.draft_end_partition(|end| end < pos);
                if i < reps.len() && self.draft_starts[i] <= pos {
                    return reps[i].range.start;
                }
                match i.checked_sub(1) {
                    None => pos,
                    Some(p) => pos - self.draft_end_of(p) + reps[p].range.end,
                }
            }
            Assoc::After => {
                let j = self.draft_starts.partition_point(|&s| s <= pos);
                match j.checked_sub(1) {
                    None => pos,
                    Some(p) => reps[p].range.end + pos.saturating_sub(self.draft_end_of(p)),
                }
            }
        }
    }

    /// Number of leading replacements whose draft end satisfies `below` (draft ends are
    /// non-decreasing, so this is a binary search).
    fn draft_end_partition(&self, below: impl Fn(usize) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if below(self.draft_end_of(mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Maps a base range whose text no replacement changes; `None` when one does, or when the
    /// range is reversed. For this test an empty range — the range's or a replacement's —
    /// stands for the char after it: an insertion at a range's start makes it `None`, one at its
    /// end does not (the selection's "stale" rule, docs/architecture.md#pending-changes). Cost: O(log k).
    pub fn map_range(&self, range: Range<usize>) -> Option<Range<usize>> {
        if range.start > range.end {
            return None;
        }
        let widened_end = |r: &Range<usize>| r.end.max(r.start + 1);
        // Widened ends are non-decreasing in a sorted, non-overlapping list.
        let i = self.replacements.partition_point(|r| widened_end(&r.range) <= range.start);
        if self.replacements.get(i).is_some_and(|r| r.range.start < widened_end(&range)) {
            return None;
        }
        Some(self.map_pos(range.start, Assoc::After)..self.map_pos(range.end, Assoc::Before))
    }

    /// Applies the change set to `base`. Refuses a base of another length (`LengthMismatch`).
    /// Cost: O(k·log n + chars inserted and removed); `base` is shared, not copied.
    pub fn apply(&self, base: &Rope) -> Result<Rope, ChangeSetError> {
        self.check_len(base.len_chars())?;
        let mut out = base.clone();
        for r in self.replacements.iter().rev() {
            if !r.range.is_empty() {
                out.remove(r.range.clone());
            }
            if !r.text.is_empty() {
                out.insert(r.range.start, &r.text);
            }
        }
        Ok(out)
    }

    /// [`ChangeSet::apply`] on a `&str`. Cost: O(n) chars of `base` + the texts.
    // Bounds: `check_len` proved every range lies in `base`; `byte_len_of_chars` returns the byte
    // length of at most that many chars of its argument, so each `byte` is a char boundary ≤ len.
    #[allow(clippy::indexing_slicing, clippy::string_slice)]
    pub fn apply_str(&self, base: &str) -> Result<String, ChangeSetError> {
        self.check_len(base.chars().count())?;
        let mut out = String::with_capacity(base.len());
        let (mut byte, mut char_at) = (0usize, 0usize);
        for r in &self.replacements {
            let start = byte + byte_len_of_chars(&base[byte..], r.range.start - char_at);
            out.push_str(&base[byte..start]);
            out.push_str(&r.text);
            byte = start + byte_len_of_chars(&base[start..], r.range.len());
            char_at = r.range.end;
        }
        out.push_str(&base[byte..]);
        Ok(out)
    }

    /// [`ChangeSet::apply`] on `flat`, the text of `base` as one string (a document's flat text,
    /// `crate::text::Text::flat`): the ranges' byte offsets come from [`ChangeSet::byte_ranges`],
    /// and the result is copied once at its final size. Refuses a base of another length in
    /// chars, or a `flat` that is not `base`'s text (`FlatMismatch`). Cost: O(k·log n) + O(n)
    /// bytes copied.
    pub fn apply_flat(&self, base: &Rope, flat: &str) -> Result<String, ChangeSetError> {
        self.apply_flat_at(flat, &self.byte_ranges(base, flat)?)
    }

    /// The byte range in `flat`, the text of `base` as one string, of each replacement's char
    /// range (found in the rope): what a commit's flat copy, block index and write all cut at,
    /// found once. Refuses what [`ChangeSet::apply_flat`] refuses. Cost: O(k·log n).
    pub fn byte_ranges(&self, base: &Rope, flat: &str) -> Result<Vec<Range<usize>>, ChangeSetError> {
        self.check_len(base.len_chars())?;
        if flat.len() != base.len_bytes() {
            return Err(ChangeSetError::FlatMismatch { rope_bytes: base.len_bytes(), flat_bytes: flat.len() });
        }
        let mut ranges = Vec::with_capacity(self.replacements.len());
        for r in &self.replacements {
            ranges.push(base.char_to_byte(r.range.start)..base.char_to_byte(r.range.end));
        }
        Ok(ranges)
    }

    /// [`ChangeSet::apply_flat`] at `ranges`, the replacements' byte ranges in `flat` as
    /// [`ChangeSet::byte_ranges`] gives them. Cost: O(n) bytes copied.
    pub fn apply_flat_at(&self, flat: &str, ranges: &[Range<usize>]) -> Result<String, ChangeSetError> {
        let mismatch = || ChangeSetError::FlatMismatch { rope_bytes: flat.len(), flat_bytes: flat.len() };
        if ranges.len() != self.replacements.len() {
            return Err(mismatch());
        }
        let len = self.replacements.iter().zip(ranges).fold(flat.len(), |len, (r, bytes)| len.saturating_sub(bytes.len()) + r.text.len());
        let mut out = String::with_capacity(len);
        let mut at = 0;
        for (r, bytes) in self.replacements.iter().zip(ranges) {
            // Not a char boundary of `flat` means `flat` is not `base`'s text.
            out.push_str(flat.get(at..bytes.start).ok_or_else(mismatch)?);
            out.push_str(&r.text);
            at = bytes.end;
        }
        out.push_str(flat.get(at..).ok_or_else(mismatch)?);
        Ok(out)
    }

    /// The change set that turns the draft back into `base`: each replacement's draft range gets
    /// back the base text it replaced. Refuses a base of another length. Cost: O(k·log n + chars
    /// replaced).
    pub fn invert(&self, base: &Rope) -> Result<ChangeSet, ChangeSetError> {
        self.check_len(base.len_chars())?;
        let mut inv = ChangeSet::new(self.draft_len);
        for (r, d) in self.replacements.iter().zip(self.draft_ranges()) {
            inv.try_push(d, base.slice(r.range.clone()).to_string())?;
        }
        Ok(inv)
    }

    fn check_len(&self, actual: usize) -> Result<(), ChangeSetError> {
        if actual == self.base_len {
            Ok(())
        } else {
            Err(ChangeSetError::LengthMismatch { expected: self.base_len, actual })
        }
    }

    /// The change set turning `old` into `new` (an external change of a document), replacements
    /// never touching. Exact at line level, refined to chars inside small hunks:
    /// 1. the common char prefix and suffix are cut off — O(n);
    /// 2. the lines of the rest are interned and diffed with Myers — O((L+L')·D) for L, L'
    ///    lines and D differing lines — when there are at most [`MYERS_LINES`] of them; more
    ///    lines are first split at lines occurring once on each side, in order (patience
    ///    anchors, O(L log L)); a piece between anchors still larger becomes one replacement;
    /// 3. each changed hunk of at most [`REFINE_CHARS`] chars (both sides) is diffed by chars,
    ///    O(c²) at most; a larger hunk stays one replacement.
    ///
    /// Coarser pieces are still correct (`apply(old, diff) == new`); they only cover more text.
    /// Memory O(n). The clock is never read (no deadline).
    pub fn diff(old: &Rope, new: &Rope) -> ChangeSet {
        diff_with(&old.to_string(), &new.to_string(), DEFAULT_LIMITS, &mut || false).0
    }

    /// [`ChangeSet::diff`] of two texts held as strings (a document's flat text and storage's
    /// new text), without copying them out of ropes first — when what lies between their
    /// common prefix and suffix (whole lines) comes to at most `max_bytes` on both sides
    /// together. Past that the line diff is not run (it costs about four times building a rope
    /// of the text: 2 s natively at 128 MiB) and the middle is one replacement: still correct,
    /// coarser, and the flag returned is `true`. Cost: O(n) for the prefix, suffix and char
    /// count, and as `diff` for a middle of at most `max_bytes`.
    pub fn diff_str_within(old: &str, new: &str, max_bytes: usize) -> (ChangeSet, bool) {
        diff_with(old, new, DiffLimits { line_diff_bytes: max_bytes, ..DEFAULT_LIMITS }, &mut || false)
    }

    /// [`ChangeSet::diff`] under a deadline: `expired` is asked before each Myers run (line
    /// pieces and char refinements, each bounded as in `diff`); once it says yes, every piece
    /// left becomes one replacement and the returned flag is `true` — a coarser diff, still
    /// correct (`apply(old, diff) == new`). The caller owns the clock: the core never reads one.
    /// Cost: as `diff`, stopping early; the overshoot past the deadline is at most one piece.
    pub fn diff_until(old: &Rope, new: &Rope, expired: &mut dyn FnMut() -> bool) -> (ChangeSet, bool) {
        diff_with(&old.to_string(), &new.to_string(), DEFAULT_LIMITS, expired)
    }
}

/// Most lines (both sides) [`ChangeSet::diff`] gives Myers in one piece: ≤ 6.4·10⁷ steps.
pub const MYERS_LINES: usize = 8_000;

/// Largest changed hunk (chars of both sides) [`ChangeSet::diff`] refines to chars: ≤ 4·10⁶ steps.
pub const REFINE_CHARS: usize = 2_000;

const DEFAULT_LIMITS: DiffLimits = DiffLimits { myers_lines: MYERS_LINES, refine_chars: REFINE_CHARS, line_diff_bytes: usize::MAX };

#[derive(Clone, Copy, Debug)]
struct DiffLimits {
    myers_lines: usize,
    refine_chars: usize,
    /// Most bytes of the two middles (after the common prefix and suffix) the line diff runs
    /// on; a larger middle is one replacement.
    line_diff_bytes: usize,
}

/// Length of the longest common prefix of `a` and `b` in bytes: blocks compared whole
/// (`memcmp`), then bytes inside the first block that differs. Cost: O(prefix).
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    // Equal blocks are equally long, so a short last block counts only when both texts end
    // there; the count is clamped to the shorter text for that case.
    let same =
        (a.chunks(AFFIX_BLOCK).zip(b.chunks(AFFIX_BLOCK)).take_while(|(x, y)| x == y).count() * AFFIX_BLOCK).min(a.len()).min(b.len());
    let (a, b) = (a.get(same..).unwrap_or_default(), b.get(same..).unwrap_or_default());
    same + a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Length of the longest common suffix of `a` and `b` in bytes, as [`common_prefix`] from the
/// end. Cost: O(suffix).
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let same =
        (a.rchunks(AFFIX_BLOCK).zip(b.rchunks(AFFIX_BLOCK)).take_while(|(x, y)| x == y).count() * AFFIX_BLOCK).min(a.len()).min(b.len());
    let (a, b) = (a.get(..a.len() - same).unwrap_or_default(), b.get(..b.len() - same).unwrap_or_default());
    same + a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count()
}

/// The block [`common_prefix`] and [`common_suffix`] compare at once.
const AFFIX_BLOCK: usize = 256;

/// Bytes taken by the first `n` chars of `s` (all of `s` if shorter).
fn byte_len_of_chars(s: &str, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    s.char_indices().nth(n).map_or(s.len(), |(b, _)| b)
}

/// Lines of `s` (each with its `\n`), and prefix sums of their lengths in chars and bytes.
struct Lines<'a> {
    text: &'a str,
    chars: Vec<usize>,
    bytes: Vec<usize>,
}

// Bounds: `chars` and `bytes` have one entry per line plus one, and the ranges asked for are
// line ranges of this text (hunks from `line_hunks` over exactly these lines); `bytes` entries
// are line starts, hence char boundaries.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
impl<'a> Lines<'a> {
    fn new(text: &'a str) -> (Lines<'a>, Vec<&'a str>) {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let (mut chars, mut bytes) = (vec![0], vec![0]);
        for l in &lines {
            chars.push(chars.last().copied().unwrap_or(0) + l.chars().count());
            bytes.push(bytes.last().copied().unwrap_or(0) + l.len());
        }
        (Lines { text, chars, bytes }, lines)
    }

    fn chars_of(&self, lines: &Range<usize>) -> Range<usize> {
        self.chars[lines.start]..self.chars[lines.end]
    }

    fn str_of(&self, lines: &Range<usize>) -> &'a str {
        &self.text[self.bytes[lines.start]..self.bytes[lines.end]]
    }
}

/// The diff, and whether `expired` cut it short (see [`ChangeSet::diff_until`]).
// Bounds: the prefix and suffix are counted in whole chars that are equal on both sides, the
// suffix only over what follows the prefix, so `pre_bytes + suf_bytes` ≤ both lengths and all
// cut points are char boundaries (cuts move only to just after a `\n`); `nv[n]` slices the new
// side by a run `myers_ops` made over `nv`.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
fn diff_with(old_s: &str, new_s: &str, limits: DiffLimits, expired: &mut dyn FnMut() -> bool) -> (ChangeSet, bool) {
    let mut set = ChangeSet::new(old_s.chars().count());
    // 1. Common prefix and suffix in whole chars: the equal bytes (compared a block at a time),
    // cut back to a char boundary — the chars before it are equal, the one after differs.
    let mut pre_bytes = common_prefix(old_s.as_bytes(), new_s.as_bytes());
    while !old_s.is_char_boundary(pre_bytes) {
        pre_bytes -= 1;
    }
    let mut pre_chars = old_s[..pre_bytes].chars().count();
    let (old_rest, new_rest) = (&old_s.as_bytes()[pre_bytes..], &new_s.as_bytes()[pre_bytes..]);
    let mut suf_bytes = common_suffix(old_rest, new_rest);
    while !old_s.is_char_boundary(old_s.len() - suf_bytes) {
        suf_bytes -= 1;
    }
    // Cut whole lines only, so the middle starts and ends at line boundaries on both sides and
    // the line diff sees whole lines ("three\n" + "four\n" is an insertion after "three\n", not
    // "\nfour" inside it).
    if let Some(nl) = old_s[..pre_bytes].rfind('\n') {
        pre_chars -= old_s[nl + 1..pre_bytes].chars().count();
        pre_bytes = nl + 1;
    } else {
        (pre_chars, pre_bytes) = (0, 0);
    }
    let suffix = &old_s[old_s.len() - suf_bytes..];
    suf_bytes = suffix.find('\n').map_or(0, |nl| suffix.len() - nl - 1);
    let old_mid = &old_s[pre_bytes..old_s.len() - suf_bytes];
    let new_mid = &new_s[pre_bytes..new_s.len() - suf_bytes];
    if old_mid.is_empty() && new_mid.is_empty() {
        return (set, false);
    }
    if old_mid.len() + new_mid.len() > limits.line_diff_bytes {
        let end = pre_chars + old_mid.chars().count();
        let r = set.try_push(pre_chars..end, new_mid);
        debug_assert!(r.is_ok(), "diff produced a bad replacement: {r:?}");
        return (set, true);
    }
    // 2. Interned lines, diffed.
    let (old_lines, old_strs) = Lines::new(old_mid);
    let (new_lines, new_strs) = Lines::new(new_mid);
    // One xxh3 call per line instead of SipHash, the table sized up front: interning every line
    // is the largest cost of a big diff.
    let mut ids: LineIds = HashMap::with_capacity_and_hasher(old_strs.len() + new_strs.len(), Default::default());
    let a = intern(&mut ids, &old_strs);
    let b = intern(&mut ids, &new_strs);
    let mut hunks = Vec::new();
    let mut clock = Deadline { expired, hit: false, myers_lines: limits.myers_lines };
    line_hunks(&a, &b, 0, 0, true, &mut clock, &mut hunks);
    // 3. Refine small hunks to chars. Pieces that touch are merged: a rebase treats touching as
    // overlapping anyway, and a canonical set is easier to read.
    let mut pieces: Vec<Replacement> = Vec::new();
    let mut push = |range: Range<usize>, text: String| match pieces.last_mut() {
        Some(last) if last.range.end == range.start => {
            last.range.end = range.end;
            last.text.push_str(&text);
        }
        _ => pieces.push(Replacement { range, text }),
    };
    for (ol, nl) in hunks {
        let (oc, nc) = (old_lines.chars_of(&ol), new_lines.chars_of(&nl));
        let (os, ns) = (old_lines.str_of(&ol), new_lines.str_of(&nl));
        if oc.is_empty() || nc.is_empty() || oc.len() + nc.len() > limits.refine_chars || clock.passed() {
            push(oc, ns.to_string());
            continue;
        }
        let (ov, nv): (Vec<char>, Vec<char>) = (os.chars().collect(), ns.chars().collect());
        for (o, n) in changed_runs(&myers_ops(&ov, &nv)) {
            push(oc.start + o.start..oc.start + o.end, nv[n].iter().collect());
        }
    }
    for p in pieces {
        let r = set.try_push(p.range.start + pre_chars..p.range.end + pre_chars, p.text);
        debug_assert!(r.is_ok(), "diff produced a bad replacement: {r:?}");
    }
    (set, clock.hit)
}

/// The caller's deadline, asked before each Myers run; remembers that it passed. Carries the
/// size limit of one Myers run too.
struct Deadline<'a> {
    expired: &'a mut dyn FnMut() -> bool,
    hit: bool,
    myers_lines: usize,
}

impl Deadline<'_> {
    fn passed(&mut self) -> bool {
        if !self.hit && (self.expired)() {
            self.hit = true;
        }
        self.hit
    }
}

/// Each line's id: equal lines, equal ids.
type LineIds<'a> = HashMap<&'a str, u32, std::hash::BuildHasherDefault<LineHasher>>;

/// Hashes a line in one xxh3 call (a streaming hasher's per-call buffering cost more than the
/// hashing itself on short lines). Only for `&str` keys: `write_u8` (the terminator `str`'s
/// `Hash` adds) is ignored. No hash flooding to fear: the texts are the caller's own.
#[derive(Default)]
struct LineHasher(u64);

impl std::hash::Hasher for LineHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0 = xxhash_rust::xxh3::xxh3_64_with_seed(bytes, self.0);
    }

    fn write_u8(&mut self, _: u8) {}

    fn finish(&self) -> u64 {
        self.0
    }
}

fn intern<'a>(ids: &mut LineIds<'a>, lines: &[&'a str]) -> Vec<u32> {
    lines
        .iter()
        .map(|&l| {
            let next = ids.len() as u32;
            *ids.entry(l).or_insert(next)
        })
        .collect()
}

/// Consecutive non-equal ops merged: (old range, new range) of each changed run, in order.
fn changed_runs(ops: &[DiffOp]) -> Vec<(Range<usize>, Range<usize>)> {
    let mut out: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    let mut open = false;
    for op in ops {
        let (tag, o, n) = op.as_tag_tuple();
        if tag == DiffTag::Equal {
            open &= o.is_empty();
            continue;
        }
        match out.last_mut() {
            Some(last) if open => {
                last.0.end = o.end;
                last.1.end = n.end;
            }
            _ => out.push((o, n)),
        }
        open = true;
    }
    out
}

/// Changed line hunks of `a` → `b` (offset by `ao`, `bo`), appended to `out` in order.
// Bounds: `pre` ≤ both lengths and `suf` counts only past `pre`; anchors are increasing pairs
// of indices into `a` and `b` (from `unique_anchors` over these slices), so every
// `pa..ia`/`pb..ib` is in order and in range.
#[allow(clippy::indexing_slicing)]
fn line_hunks(
    a: &[u32],
    b: &[u32],
    ao: usize,
    bo: usize,
    anchor: bool,
    clock: &mut Deadline<'_>,
    out: &mut Vec<(Range<usize>, Range<usize>)>,
) {
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..].iter().rev().zip(b[pre..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let (ao, bo) = (ao + pre, bo + pre);
    if a.is_empty() && b.is_empty() {
        return;
    }
    if a.is_empty() || b.is_empty() {
        out.push((ao..ao + a.len(), bo..bo + b.len()));
        return;
    }
    if a.len() + b.len() <= clock.myers_lines {
        if clock.passed() {
            out.push((ao..ao + a.len(), bo..bo + b.len()));
            return;
        }
        for (o, n) in changed_runs(&myers_ops(a, b)) {
            out.push((ao + o.start..ao + o.end, bo + n.start..bo + n.end));
        }
        return;
    }
    let anchors = if anchor { unique_anchors(a, b) } else { Vec::new() };
    if anchors.is_empty() {
        out.push((ao..ao + a.len(), bo..bo + b.len()));
        return;
    }
    let (mut pa, mut pb) = (0, 0);
    for (ia, ib) in anchors {
        line_hunks(&a[pa..ia], &b[pb..ib], ao + pa, bo + pb, false, clock, out);
        (pa, pb) = (ia + 1, ib + 1);
    }
    line_hunks(&a[pa..], &b[pb..], ao + pa, bo + pb, false, clock, out);
}

/// Lines occurring exactly once in `a` and once in `b`, the longest run of them in the same
/// order on both sides (patience diff's anchors). Cost: O((|a|+|b|) + u·log u) for u such lines.
// Bounds: `seen` has max id + 1 slots; `tails` holds indices of `pairs`, `back` has one slot
// per pair, and `len` is a partition point of `tails` (≤ its length, pushed when equal).
#[allow(clippy::indexing_slicing)]
fn unique_anchors(a: &[u32], b: &[u32]) -> Vec<(usize, usize)> {
    // Ids are dense (interned from 0): a table indexed by id instead of a hash map.
    // id → (count in a, index in a, count in b, index in b)
    let ids = a.iter().chain(b).map(|&x| x as usize + 1).max().unwrap_or(0);
    let mut seen: Vec<(u32, usize, u32, usize)> = vec![(0, 0, 0, 0); ids];
    for (i, &x) in a.iter().enumerate() {
        let e = &mut seen[x as usize];
        e.0 += 1;
        e.1 = i;
    }
    for (j, &y) in b.iter().enumerate() {
        let e = &mut seen[y as usize];
        e.2 += 1;
        e.3 = j;
    }
    // In the order of `a`, so already sorted by their index in `a`: no sort (one instantiation of
    // the standard sort less in the wasm, docs/performance.md#wasm-size).
    let pairs: Vec<(usize, usize)> = a
        .iter()
        .enumerate()
        .filter_map(|(i, &x)| {
            let e = &seen[x as usize];
            (e.0 == 1 && e.2 == 1).then_some((i, e.3))
        })
        .collect();
    // Longest increasing subsequence of the b indices (patience sorting with back links).
    let mut tails: Vec<usize> = Vec::new(); // index into pairs of the smallest tail of each length
    let mut back: Vec<Option<usize>> = vec![None; pairs.len()];
    for (k, &(_, bj)) in pairs.iter().enumerate() {
        let len = tails.partition_point(|&t| pairs[t].1 < bj);
        back[k] = len.checked_sub(1).map(|l| tails[l]);
        if len == tails.len() {
            tails.push(k);
        } else {
            tails[len] = k;
        }
    }
    let mut out = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(k) = at {
        out.push(pairs[k]);
        at = back[k];
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests;
