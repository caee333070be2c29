//! `memo_read`: the document with gutters, optionally line keys, and its fingerprint.

use std::fmt::Write as _;
use std::ops::Range;

use ropey::Rope;

use super::outcome::{ReadGutter, ReadOf, ReadOutcome, ReadReport};
use super::registry::ReadArgs;
use super::words::{self, Voice};
use super::Workspace;
use crate::matching::line_key::LineKey;
use crate::preview;
use crate::response::Response;
use crate::session::Letter;
use crate::text;

/// What one `memo_read` returns at most: a read of a 20 MB line or a million empty lines would
/// otherwise be megabytes in the model's context (docs/reliability.md §Matching time and read
/// size). Options `max_read_lines`, `max_read_chars`, `max_read_line_chars`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// Lines shown by one read (default 2,000).
    pub lines: usize,
    /// Chars of document text shown by one read, gutters not counted (default 100,000: about
    /// 25,000 tokens).
    pub chars: usize,
    /// Chars shown of one line; the rest is replaced by a marker saying how much was left out
    /// (default 10,000).
    pub line_chars: usize,
}

impl Default for ReadLimits {
    fn default() -> ReadLimits {
        ReadLimits { lines: 2_000, chars: 100_000, line_chars: 10_000 }
    }
}

impl ReadLimits {
    /// Smallest and largest value each option takes.
    pub const MIN: u64 = 1;
    pub const MAX: u64 = 100_000_000;
}

/// Lines a read showed, and why it stopped before the lines asked for.
pub(super) struct Shown {
    pub content: String,
    /// 1-based number of the last line shown.
    pub last_line: usize,
    /// Which limit ended the read early: the option's name and its value.
    pub stopped_by: Option<(&'static str, usize)>,
    /// Lines clipped at `line_chars`: (1-based line, chars left out).
    pub clipped: Vec<(usize, usize)>,
}

impl Workspace {
    /// `memo_read` of the draft (or, with `view="committed"`, the committed text) of `path`:
    /// the lines asked for within the read limits, with gutters or line keys; candidates of a
    /// pending choice marked. `InvalidArguments` naming the line when `start_line` is past the
    /// end or `end_line` before it. Cost: O(chars shown + lines · log n).
    pub(super) fn read(&mut self, path: &str, args: &ReadArgs) -> Response {
        let committed = args.view.as_deref() == Some("committed");
        let rope = if committed { self.open_doc(path).text.rope().clone() } else { self.draft_rope(path) };
        let (outcome, content) = self.decide_read(path, &rope, committed, args);
        let mut r = words::read(&outcome, &Voice::of(self));
        let ReadOutcome::Read(report) = outcome else { return self.finish(r, None) };
        if report.gutter == ReadGutter::Keys {
            self.keys_shown_from(path, &rope);
        }
        r.content = content;
        r.fingerprint = Some(if committed { self.open_doc(path).text.fingerprint() } else { self.draft_fingerprint(path) }.to_string());
        r.metrics.new_length = Some(rope.len_chars());
        self.finish(r, Some(path))
    }

    /// What `memo_read` of `rope` (the draft of `path`, or its committed text) comes to, with
    /// the lines shown when it is read. Changes nothing. Cost: O(chars shown + lines · log n).
    pub(super) fn decide_read(&self, path: &str, rope: &Rope, committed: bool, args: &ReadArgs) -> (ReadOutcome, Option<String>) {
        let last = text::visible_line_count(rope);
        let start = args.start_line.unwrap_or(1) as usize;
        let end = (args.end_line.map(|n| n as usize).unwrap_or(last)).min(last);
        if start > last {
            return (ReadOutcome::StartPastEnd { path: path.to_string(), start, lines: last }, None);
        }
        if end < start {
            return (ReadOutcome::EndBeforeStart { start, end }, None);
        }
        let keys = args.line_keys.unwrap_or(false);
        let numbered = !keys && args.line_numbers.unwrap_or(true);
        // While a choice is pending, the candidates are marked in the text.
        let mut marks = if committed { Vec::new() } else { self.selection_marks(path) };
        // A document that holds marker-like text of its own (`[[SEL#B]]` in a note about this
        // tool) would make its text read as a candidate: then nothing is marked, and the
        // summary gives the candidates' lines instead.
        let own_markers = !marks.is_empty() && has_marker_text(rope);
        let unmarked: Vec<(Letter, usize)> = if own_markers { unmarked_lines(rope, &mut marks) } else { Vec::new() };
        // Nothing to mark (a first read): the text as it is, and the marking is not compiled.
        let shown = if marks.is_empty() { rope.clone() } else { overlay(rope, &marks) };
        let limits = self.settings.config.read_limits;
        let gutter = if keys {
            Gutter::Keys(rope)
        } else if numbered {
            Gutter::Numbers
        } else {
            Gutter::None
        };
        let read = limited_lines(&shown, gutter, start, end, &limits);
        let report = ReadReport {
            path: path.to_string(),
            first: start,
            last_shown: read.last_line,
            lines: last,
            of: if committed { ReadOf::Committed } else { ReadOf::Draft { pending: self.pending_in(path) } },
            fingerprint: (!committed).then(|| self.draft_fingerprint(path).to_string()),
            other_documents: if args.path.is_none() { self.other_documents(path) } else { None },
            marked: marks.iter().map(|(l, _)| *l).collect(),
            unmarked,
            gutter: if keys {
                ReadGutter::Keys
            } else if numbered {
                ReadGutter::Numbers
            } else {
                ReadGutter::Bare
            },
            stopped_by: read.stopped_by,
            clipped: read.clipped.iter().map(|(line, _)| *line).collect(),
            line_chars: limits.line_chars,
        };
        (ReadOutcome::Read(report), Some(read.content))
    }
}

/// How a read prefixes its lines.
#[derive(Clone, Copy)]
pub(super) enum Gutter<'a> {
    None,
    /// `12│ `
    Numbers,
    /// `12#a3f1│ `, keyed by the lines of this text (the shown text may hold markers).
    Keys(&'a Rope),
}

/// Starts the marker that replaces the end of a clipped line.
pub(super) const CLIP_MARK: &str = "⟪clipped: ";

/// Lines `start..=end` (1-based) of `shown`, within `limits`: at most `limits.lines` lines and
/// `limits.chars` chars of text (always at least one line), each line cut at
/// `limits.line_chars` with `⟪clipped: N more chars⟫`; gutters as wide as the last number shown.
/// The lines are read in one walk over the rope's chunks ([`LineWalk`]), not each found from the
/// root (that was a third of a warm 40-line read: docs/performance.md#a-warm-call-on-a-small-document).
/// Cost: O(chars shown + log n), plus O(log n) per clipped line: a clipped line is never copied whole.
pub(super) fn limited_lines(shown: &Rope, gutter: Gutter<'_>, start: usize, end: usize, limits: &ReadLimits) -> Shown {
    // The rows' text one after another, and where each ends.
    let mut text = String::new();
    let mut ends: Vec<usize> = Vec::new();
    let (mut chars, mut stopped_by, mut clipped) = (0usize, None, Vec::new());
    let mut walk = LineWalk::new(shown, start - 1, end);
    for l in (start - 1)..end {
        if l + 1 - start >= limits.lines {
            stopped_by = Some(("max_read_lines", limits.lines));
            break;
        }
        let row_start = text.len();
        let (keep, len) = walk.take_line(l, limits.line_chars, &mut text);
        if chars > 0 && chars + keep > limits.chars {
            text.truncate(row_start);
            stopped_by = Some(("max_read_chars", limits.chars));
            break;
        }
        chars += keep;
        if keep < len {
            clipped.push((l + 1, len - keep));
            text.push_str(&format!("{CLIP_MARK}{} more chars⟫", len - keep));
        }
        ends.push(text.len());
    }
    let last_line = start - 1 + ends.len();
    // The width is known once the last line shown is: the rows are numbered after the loop.
    let width = preview::gutter_width(last_line);
    let mut content = String::with_capacity(text.len() + ends.len() * (width + 5));
    let mut row_start = 0;
    for (k, &row_end) in ends.iter().enumerate() {
        let row = text.get(row_start..row_end).unwrap_or_default();
        row_start = row_end;
        let l = start - 1 + k;
        match gutter {
            Gutter::None => {
                content.push_str(row);
                content.push('\n');
            }
            Gutter::Numbers => preview::gutter_line(&mut content, width, l + 1, ' ', row),
            Gutter::Keys(keyed) => push_keyed(&mut content, width, LineKey::of(l + 1, &text::line_text(keyed, l)), row),
        }
    }
    Shown { content, last_line, stopped_by, clipped }
}

/// Reads the lines of a rope one after another from its chunks, up to the end of a last line.
struct LineWalk<'a> {
    rope: &'a Rope,
    chunks: ropey::iter::Chunks<'a>,
    /// What is left of the chunk being read.
    rest: &'a str,
    /// The char after the last line's break (or the end of the text).
    end_char: usize,
}

impl<'a> LineWalk<'a> {
    /// At the start of 0-based line `first`, ending with 0-based line `end - 1` (`end` at most
    /// the rope's line count). Cost: O(log n).
    fn new(rope: &'a Rope, first: usize, end: usize) -> LineWalk<'a> {
        let end_char = rope.line_to_char(end);
        let mut walk = LineWalk { rope, chunks: rope.slice(end_char..end_char).chunks(), rest: "", end_char };
        walk.restart(first);
        walk
    }

    /// Continues at the start of 0-based line `line`. Cost: O(log n).
    fn restart(&mut self, line: usize) {
        let from = self.rope.line_to_char(line).min(self.end_char);
        self.chunks = self.rope.slice(from..self.end_char).chunks();
        self.rest = "";
    }

    /// Appends the text of 0-based line `line` (the one the walk is at) without its break to
    /// `out`, at most `max_chars` chars of it, and moves to the next line. Returns the chars
    /// appended and the chars the line has. Cost: O(chars appended), plus O(log n) for a line
    /// longer than `max_chars`, whose rest is skipped, not read.
    fn take_line(&mut self, line: usize, max_chars: usize, out: &mut String) -> (usize, usize) {
        let mut kept = 0;
        loop {
            if self.rest.is_empty() {
                match self.chunks.next() {
                    Some(chunk) => self.rest = chunk,
                    None => return (kept, kept),
                }
            }
            let (piece, after) = match memchr::memchr(b'\n', self.rest.as_bytes()).and_then(|i| self.rest.split_at_checked(i)) {
                Some((piece, tail)) => (piece, Some(tail.strip_prefix('\n').unwrap_or(tail))),
                None => (self.rest, None),
            };
            let n = piece.chars().count();
            if kept + n > max_chars {
                let cut = piece.char_indices().nth(max_chars - kept).map_or(piece.len(), |(i, _)| i);
                out.push_str(piece.get(..cut).unwrap_or_default());
                let whole = self.rope.line(line);
                let n = whole.len_chars();
                let len = n - usize::from(n > 0 && whole.char(n - 1) == '\n');
                self.restart(line + 1);
                return (max_chars, len);
            }
            out.push_str(piece);
            kept += n;
            match after {
                Some(tail) => {
                    self.rest = tail;
                    return (kept, kept);
                }
                None => self.rest = "",
            }
        }
    }
}

/// Lines `start..=end` (1-based) with `12│ ` gutters as wide as `end`, or bare. Cost: O(size
/// of the lines).
pub(super) fn numbered_lines(rope: &Rope, start: usize, end: usize, numbered: bool) -> String {
    let width = preview::gutter_width(end);
    let mut content = String::new();
    for l in (start - 1)..end {
        let line = text::line_text(rope, l);
        if numbered {
            preview::gutter_line(&mut content, width, l + 1, ' ', &line);
        } else {
            content.push_str(&line);
            content.push('\n');
        }
    }
    content
}

/// Lines `start..=end` (1-based) of `shown` prefixed with the keys of the same lines of `text`
/// (`shown` is `text`, possibly with selection markers inside lines): `12#a3f1│ text`, the
/// keys right-aligned to the width of `end`. Cost: O(size of the lines).
pub(super) fn keyed_lines(shown: &Rope, text: &Rope, start: usize, end: usize) -> String {
    let width = preview::gutter_width(end);
    let mut content = String::new();
    for l in (start - 1)..end {
        push_keyed(&mut content, width, LineKey::of(l + 1, &text::line_text(text, l)), &text::line_text(shown, l));
    }
    content
}

/// Writes `12#a3f1│ text`, the line number right-aligned to `width`. Cost: O(text).
fn push_keyed(out: &mut String, width: usize, key: LineKey, text: &str) {
    let _ = writeln!(out, "{:>width$}#{:04x}│ {text}", key.line, key.hash);
}

/// The candidates `marks` take out of the text, with their lines (1-based).
#[cold]
#[inline(never)]
fn unmarked_lines(rope: &Rope, marks: &mut Vec<(Letter, Range<usize>)>) -> Vec<(Letter, usize)> {
    marks.drain(..).map(|(l, r)| (l, rope.char_to_line(r.start.min(rope.len_chars())) + 1)).collect()
}

/// `rope` with `[[SEL#X]]` before and `[[/SEL#X]]` after each marked range (char ranges, not
/// overlapping). Markers hold no line break, so line numbers stay. Cost: O(k log n) for k marks.
/// Out of line: a read with nothing to mark does not call it (docs/performance.md#cold-start).
#[inline(never)]
pub(super) fn overlay(rope: &Rope, marks: &[(Letter, Range<usize>)]) -> Rope {
    let mut shown = rope.clone();
    let mut sorted: Vec<&(Letter, Range<usize>)> = marks.iter().collect();
    crate::sort::sort_by_key(&mut sorted, |(_, r)| std::cmp::Reverse(r.start));
    for (letter, range) in sorted {
        if range.end > shown.len_chars() {
            continue;
        }
        shown.insert(range.end, &format!("[[/SEL#{letter}]]"));
        shown.insert(range.start, &format!("[[SEL#{letter}]]"));
    }
    shown
}

/// Whether `rope` holds text that looks like a candidate marker (`[[SEL#` or `[[/SEL#`).
/// Cost: O(n) (memmem).
fn has_marker_text(rope: &Rope) -> bool {
    ["[[SEL#", "[[/SEL#"].iter().any(|m| crate::matching::exact::find_first_byte(rope, m).is_some())
}

/// How many other open documents a read without `path` names (the rest are counted).
const OTHER_DOCUMENTS_NAMED: usize = 10;

impl Workspace {
    /// Records that line keys of `path` were shown from `text`, for [`Workspace::keys_read_from`].
    /// Without a session nothing is pending, so the draft is the committed text the session will
    /// start from. Cost: O(1) (ropes share).
    pub(super) fn keys_shown_from(&mut self, path: &str, text: &Rope) {
        if let Some(session) = self.turn.session.as_mut() {
            session.keys_shown.insert(path.to_string(), text.clone());
        }
    }

    /// The text the model's line keys of `path` were most likely read from: the last text keys
    /// were shown from in this session, else the session's base (keys read before anything was
    /// staged), else `None` (nothing pending: the draft itself). Cost: O(1).
    pub(super) fn keys_read_from(&self, path: &str) -> Option<Rope> {
        let session = self.turn.session.as_ref()?;
        match session.keys_shown.get(path) {
            Some(rope) => Some(rope.clone()),
            None => session.docs.get(path).map(|d| d.base.rope().clone()),
        }
    }

    /// The other open documents a read without `path` names — the first
    /// [`OTHER_DOCUMENTS_NAMED`] and how many more — so the model learns what it can read next;
    /// `None` when `read` is the only one. Cost: O(documents named).
    fn other_documents(&self, read: &str) -> Option<(Vec<String>, usize)> {
        let others: Vec<&String> = self.paths().iter().filter(|p| p.as_str() != read).collect();
        if others.is_empty() {
            return None;
        }
        let named: Vec<String> = others.iter().take(OTHER_DOCUMENTS_NAMED).map(|p| p.to_string()).collect();
        let more = others.len() - named.len();
        Some((named, more))
    }

    /// The live candidates of a pending choice in `path` (stale ones are not marked).
    fn selection_marks(&self, path: &str) -> Vec<(Letter, Range<usize>)> {
        match self.turn.session.as_ref().and_then(|s| s.selection.as_ref()) {
            Some(sel) if sel.awaiting_choice && sel.path == path => {
                sel.candidates.iter().filter(|c| !c.stale).map(|c| (c.id, c.range.clone())).collect()
            }
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod line_walk_tests {
    use super::*;

    /// The read as it was first written: each line found from the root.
    fn lines_one_by_one(shown: &Rope, start: usize, end: usize, limits: &ReadLimits) -> (String, usize, Vec<(usize, usize)>) {
        let (mut rows, mut chars, mut clipped) = (Vec::new(), 0, Vec::new());
        for l in (start - 1)..end {
            if l + 1 - start >= limits.lines {
                break;
            }
            let line = shown.line(l);
            let len = line.len_chars() - usize::from(line.len_chars() > 0 && line.char(line.len_chars() - 1) == '\n');
            let keep = len.min(limits.line_chars);
            if chars > 0 && chars + keep > limits.chars {
                break;
            }
            chars += keep;
            let mut text = line.slice(..keep).to_string();
            if keep < len {
                clipped.push((l + 1, len - keep));
                text.push_str(&format!("{CLIP_MARK}{} more chars⟫", len - keep));
            }
            rows.push(text);
        }
        let last = start - 1 + rows.len();
        let width = preview::gutter_width(last);
        let mut content = String::new();
        for (k, text) in rows.iter().enumerate() {
            preview::gutter_line(&mut content, width, start + k, ' ', text);
        }
        (content, last, clipped)
    }

    #[test]
    fn the_walk_over_chunks_reads_what_line_by_line_reads() {
        // Lines across chunk boundaries (ropey's chunks are about 1 KB), multi-byte chars at
        // the cuts, empty lines, a last line with and without its break.
        let mut doc = String::new();
        for i in 0..300 {
            let unit = ["a", "é", "中", "😀", ""][i % 5];
            doc.push_str(&unit.repeat(i * 7 % 1500));
            doc.push_str(&format!(" line {i}\n"));
        }
        for tail in ["", "last line without a break", "\n"] {
            let rope = Rope::from_str(&format!("{doc}{tail}"));
            let lines = text::visible_line_count(&rope);
            for limits in [
                ReadLimits::default(),
                ReadLimits { lines: 7, chars: 100_000, line_chars: 10_000 },
                ReadLimits { lines: 2_000, chars: 3_000, line_chars: 10_000 },
                ReadLimits { lines: 2_000, chars: 100_000, line_chars: 5 },
                ReadLimits { lines: 2_000, chars: 50_000, line_chars: 900 },
            ] {
                for (start, end) in [(1, lines), (1, 1), (13, 40), (lines, lines), (200, lines)] {
                    let walked = limited_lines(&rope, Gutter::Numbers, start, end, &limits);
                    let (content, last, clipped) = lines_one_by_one(&rope, start, end, &limits);
                    assert_eq!(walked.content, content, "{start}..={end} {limits:?} tail {tail:?}");
                    assert_eq!((walked.last_line, walked.clipped), (last, clipped), "{start}..={end} {limits:?}");
                }
            }
        }
    }
}
