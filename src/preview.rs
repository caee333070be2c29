//! Preview: the pending changes rendered for the model (docs/responses.md#previews).
//! Every mode is rendered from the known change ranges ([`ChangeSpan`]) — never from a
//! whole-document diff — so its cost follows the size of the changes, not of the document.
//!
//! | mode | prints |
//! | --- | --- |
//! | `compact` (default) | the changed lines with `context_lines` lines of context ([`compact`]) |
//! | `full` | the changed lines only: the whole changed region of each change, no context |
//! | `stats` | `line 4, col 19: +5/-2 chars` per change, then `total: …` |
//! | `diff` | a unified diff, as `diff -u` prints it, with `context_lines` lines of context |
//!
//! ```text
//! 565│   "features": {
//! 566│     "stable": ["A", "B", "C"],
//! 567│-    "experimental": []
//! 567│+    "experimental": ["X"]
//! 568│   }
//! ```
//! Every number is a draft line number: a `-` line carries the draft line where it stood (that of
//! the `+` line at the same offset; for lines only removed, the line now after them). Each
//! hunk's gutter is as wide as the largest number it shows. Hunks further apart than twice the
//! context are separated by a `─` rule.
//!
//! [`render`] caps each hunk at [`PreviewOptions::max_length`] chars (`max_preview_length`):
//! the hunk is cut at a line boundary and a marker line `… N more lines` says what was left out.
//! A capped preview also shows at most [`MAX_HUNKS`] hunks and counts the rest.
//!
//! The `diff` mode prints what `similar`'s unified diff of the two whole texts (and `diff -u`)
//! prints — byte for byte whenever the changes fall in one hunk, or no changed line could be
//! paired with a line elsewhere (property-tested against `similar`). Otherwise two equally short
//! diffs can tie and the tie fall differently (a blank line paired with a blank line in another
//! hunk): still a correct patch, shown change by change. Two deliberate differences: where
//! `similar` 2.7 miscounts a hunk header (see `compact_ops`) the header here counts the lines
//! shown, and lines are the rope's lines, as in every view of agentpad — for text whose only
//! break is LF, which is what [`crate::text`] stores bar rare U+2028-style separators, the two
//! agree.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;

use ropey::{Rope, RopeSlice};
use similar::{DiffOp, DiffTag};

use crate::locale::Locale;
use crate::matching::near::MYERS_STEPS;

/// Where one pending change sits in the base and in the draft (char ranges).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangeSpan {
    pub base: Range<usize>,
    pub draft: Range<usize>,
}

/// Lines of context around each change in the compact preview.
pub const DEFAULT_CONTEXT_LINES: usize = 3;

/// Lines of context around the change a staging call shows (at most; a smaller
/// `preview_context_lines` wins): the model wrote old_text, so the line above and below show
/// where it landed; `memo_preview` shows [`DEFAULT_CONTEXT_LINES`].
pub const STAGED_CONTEXT_LINES: usize = 1;

/// Most chars of one rendered hunk (`max_preview_length`).
pub const DEFAULT_MAX_PREVIEW_LENGTH: usize = 500;

/// How `memo_preview` shows the pending changes (`format` argument).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PreviewMode {
    /// Changed lines ± `context_lines`, with line-number gutters.
    #[default]
    Compact,
    /// Changed lines only, with line-number gutters.
    Full,
    /// `+N/-M chars` and the position of each change.
    Stats,
    /// Unified diff (`--- a/path`, `+++ b/path`, `@@ … @@` hunks).
    Diff,
}

impl PreviewMode {
    /// Every mode, in the order the tool schema lists them.
    pub const ALL: [PreviewMode; 4] = [PreviewMode::Compact, PreviewMode::Full, PreviewMode::Stats, PreviewMode::Diff];

    /// `"compact"`, `"full"`, `"stats"` or `"diff"`, exactly (the tool schema's enum); anything
    /// else is `None`. Cost: O(1).
    pub fn parse(s: &str) -> Option<PreviewMode> {
        PreviewMode::ALL.into_iter().find(|m| m.as_str() == s)
    }

    /// The name [`PreviewMode::parse`] accepts. Cost: O(1).
    pub fn as_str(self) -> &'static str {
        match self {
            PreviewMode::Compact => "compact",
            PreviewMode::Full => "full",
            PreviewMode::Stats => "stats",
            PreviewMode::Diff => "diff",
        }
    }
}

/// What [`render`] prints (`preview_mode`, `context_lines`, `max_preview_length`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewOptions {
    pub mode: PreviewMode,
    /// Lines of context around the changes in `compact` and `diff` (default 3).
    pub context_lines: usize,
    /// Most chars of one rendered hunk in `compact`, `full` and `diff` (default 500); a longer
    /// hunk is cut at a line boundary and ends with `… N more lines`. `0` means no limit.
    pub max_length: usize,
    /// The words of the markers (`… 3 more lines`) and the `stats` lines.
    pub locale: Locale,
}

impl Default for PreviewOptions {
    fn default() -> Self {
        PreviewOptions {
            mode: PreviewMode::Compact,
            context_lines: DEFAULT_CONTEXT_LINES,
            max_length: DEFAULT_MAX_PREVIEW_LENGTH,
            locale: Locale::En,
        }
    }
}

/// [`render`] of changes that may have several places (a replace-all): `change_of[i]` names the
/// change `spans[i]` belongs to. `stats` then gives one line per change (its first place's
/// position, its places' chars, `in N places`) and counts changes, not places; the other modes
/// show every place as [`render`] does. Cost: [`render`]'s, plus O(spans · changes) for `stats`.
pub fn render_changes(base: &Rope, draft: &Rope, spans: &[ChangeSpan], change_of: &[usize], path: &str, opts: &PreviewOptions) -> String {
    match opts.mode {
        PreviewMode::Stats if !spans.is_empty() => stats(base, draft, spans, change_of, opts.locale.words()),
        PreviewMode::Compact | PreviewMode::Full => {
            let narrowed: Vec<ChangeSpan> = spans.iter().map(|s| without_shared_lines(base, draft, s)).collect();
            render(base, draft, &narrowed, path, opts)
        }
        _ => render(base, draft, spans, path, opts),
    }
}

/// A preview of every pending change for `memo_preview` (docs/responses.md#previews), and
/// whether it shows every change whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelled {
    pub text: String,
    /// No cap cut a hunk or left hunks out: every change is in `text` (never for `stats`).
    pub whole: bool,
}

/// [`render_changes`] with each hunk of `compact`, `full` and `diff` labelled by the letters
/// of the changes it shows, in the order they appear (`change_of[i]` is the letter index of
/// `spans[i]`), in `words`' form: a label line `── change C, B` starts a gutter hunk (in place
/// of the `─` rule), and a unified hunk's header ends with it (`@@ -4,7 +4,8 @@ change C, B`, where `diff -u` puts the
/// function). The model then has the letters the per-change tools take without a list that
/// repeats the diff. Cost: [`render_changes`]'s, plus O(spans · hunks) for the `diff` labels.
pub fn render_labelled(
    base: &Rope,
    draft: &Rope,
    spans: &[ChangeSpan],
    change_of: &[usize],
    path: &str,
    opts: &PreviewOptions,
    words: &crate::locale::Words,
) -> Labelled {
    let letters = |idx: &mut dyn Iterator<Item = usize>| -> String {
        let mut seen: Vec<usize> = Vec::new();
        for i in idx {
            if let Some(&c) = change_of.get(i) {
                if !seen.contains(&c) {
                    seen.push(c);
                }
            }
        }
        let named: Vec<String> =
            seen.iter().map(|&c| crate::session::Letter::from_index(c).map_or_else(|| format!("#{}", c + 1), |l| l.to_string())).collect();
        crate::locale::fill(words.change, &named.join(words.letters_and))
    };
    if spans.is_empty() {
        return Labelled { text: String::new(), whole: true };
    }
    match opts.mode {
        PreviewMode::Stats => Labelled { text: render_changes(base, draft, spans, change_of, path, opts), whole: false },
        PreviewMode::Compact | PreviewMode::Full => {
            let narrowed: Vec<ChangeSpan> = spans.iter().map(|s| without_shared_lines(base, draft, s)).collect();
            let context = if opts.mode == PreviewMode::Compact { opts.context_lines } else { 0 };
            let hunks = gutter_hunks(base, draft, &narrowed, context, opts.max_length);
            let labels: Vec<String> = hunks.spans.iter().map(|held| format!("── {}", letters(&mut held.iter().copied()))).collect();
            let (text, whole) = join_gutter_hunks(&hunks, opts.max_length, Some(&labels), opts.locale.words());
            Labelled { text, whole }
        }
        PreviewMode::Diff => {
            // The draft lines each change touches, what it shows narrowed to what differs.
            let lines: Vec<Range<usize>> = spans
                .iter()
                .map(|s| {
                    let n = without_shared_lines(base, draft, s);
                    let first = draft.char_to_line(n.draft.start);
                    let last = if n.draft.is_empty() { first } else { draft.char_to_line(n.draft.end - 1) };
                    first..last + 1
                })
                .collect();
            let label = |hunk: Range<usize>| {
                // An empty range (lines only removed, no context) sits before its line.
                let hunk = hunk.start..hunk.end.max(hunk.start + 1);
                letters(&mut lines.iter().enumerate().filter(|(_, l)| l.start < hunk.end && hunk.start < l.end).map(|(i, _)| i))
            };
            let (old, new) = (Side::of_rope(base), Side::of_rope(draft));
            let blocks = line_blocks(base, draft, &old, &new, spans);
            let middles = changed_regions(&old, &new, blocks, opts.context_lines);
            let files = (format!("a/{path}"), format!("b/{path}"));
            let (text, whole) = write_unified(&old, &new, &middles, (&files.0, &files.1), &label, opts);
            Labelled { text, whole }
        }
    }
}

/// `s` without the whole lines its old and new text share at its start and at its end: an edit
/// whose old_text and new_text repeat the lines around an inserted one shows the inserted line,
/// not those lines removed and put back. Unchanged when nothing is shared or when nothing would
/// be left. Cost: O(length of the span).
fn without_shared_lines(base: &Rope, draft: &Rope, s: &ChangeSpan) -> ChangeSpan {
    let (Some(b), Some(d)) = (base.get_slice(s.base.clone()), draft.get_slice(s.draft.clone())) else { return s.clone() };
    let (b, d): (Vec<char>, Vec<char>) = (b.chars().collect(), d.chars().collect());
    let shared = b.iter().zip(&d).take_while(|(x, y)| x == y).count();
    // Cut after the last line break in the shared start: the lines before it are whole and equal.
    let head = b.iter().take(shared).rposition(|c| *c == '\n').map_or(0, |i| i + 1);
    let room = b.len().min(d.len()) - head;
    let tail_shared = b.iter().rev().zip(d.iter().rev()).take(room).take_while(|(x, y)| x == y).count();
    // The shared end counts from a line start: right after a line break inside the span, or at
    // the span's start when that is a line start of the text.
    let line_start_at =
        |k: usize| if k == 0 { s.base.start == 0 || base.get_char(s.base.start - 1) == Some('\n') } else { b.get(k - 1) == Some(&'\n') };
    let tail = (0..=tail_shared).rev().find(|&t| b.len() - t >= head && line_start_at(b.len() - t)).unwrap_or(0);
    let narrowed = ChangeSpan { base: s.base.start + head..s.base.end - tail, draft: s.draft.start + head..s.draft.end - tail };
    if narrowed.base.is_empty() && narrowed.draft.is_empty() {
        return s.clone();
    }
    narrowed
}

/// The pending changes `spans` (sorted by position, non-overlapping) of the document at `path`,
/// rendered in `opts.mode`; empty when there are none. `path` only names the files of the
/// `diff` header (`--- a/{path}`, `+++ b/{path}`).
///
/// Cost: O(log n) per change plus O(size of what is printed, before the cap) for `compact` and
/// `full`; O(1) per change for `stats`; for `diff`, O((changed lines + context)·log n), plus
/// the lines a change can slide along (a run of equal lines next to it, which `diff -u` looks
/// through too), plus a Myers diff of each changed region's lines, at most
/// [`MYERS_STEPS`] steps (a larger region is shown as all lines removed, then all added).
pub fn render(base: &Rope, draft: &Rope, spans: &[ChangeSpan], path: &str, opts: &PreviewOptions) -> String {
    if spans.is_empty() {
        return String::new();
    }
    match opts.mode {
        PreviewMode::Compact => {
            let hunks = gutter_hunks(base, draft, spans, opts.context_lines, opts.max_length);
            join_gutter_hunks(&hunks, opts.max_length, None, opts.locale.words()).0
        }
        PreviewMode::Full => {
            let hunks = gutter_hunks(base, draft, spans, 0, opts.max_length);
            join_gutter_hunks(&hunks, opts.max_length, None, opts.locale.words()).0
        }
        PreviewMode::Stats => stats(base, draft, spans, &(0..spans.len()).collect::<Vec<_>>(), opts.locale.words()),
        PreviewMode::Diff => {
            let (old, new) = (Side::of_rope(base), Side::of_rope(draft));
            let blocks = line_blocks(base, draft, &old, &new, spans);
            let middles = changed_regions(&old, &new, blocks, opts.context_lines);
            let labels = (format!("a/{path}"), format!("b/{path}"));
            write_unified(&old, &new, &middles, (&labels.0, &labels.1), &|_| String::new(), opts).0
        }
    }
}

/// A unified diff of two whole texts (`memo_diff(against="storage")`, where the change ranges
/// are unknown): `--- {old_label}`, `+++ {new_label}`, then the hunks with `context_lines` of
/// context — what `similar`'s `TextDiff::from_lines(old, new).unified_diff()` prints (lines
/// split at `\n`, `\r\n` and `\r`, as `similar` does). Empty when the texts are equal.
///
/// Cost: O(n + m) to split and strip the common head and tail, plus a Myers diff of the rest, at
/// most [`MYERS_STEPS`] steps: a larger difference is shown as one hunk removing all of the
/// differing lines and adding the new ones (a correct patch, just not a minimal one).
pub fn unified_whole(old: &str, new: &str, old_label: &str, new_label: &str, context_lines: usize) -> String {
    if old == new {
        return String::new();
    }
    let (a, b) = (Side::Strs(split_lines(old)), Side::Strs(split_lines(new)));
    let whole = Group { base: 0..a.len(), draft: 0..b.len() };
    let m = changed_region(&a, &b, &whole, None);
    let opts = PreviewOptions { mode: PreviewMode::Diff, context_lines, max_length: 0, locale: Locale::En };
    write_unified(&a, &b, &[(m.old, m.new)], (old_label, new_label), &|_| String::new(), &opts).0
}

// ---------------------------------------------------------------------------------------------
// diff: a unified diff built from the known change ranges
//
// `similar` (like `diff -u`) strips the common head and tail of the two texts, runs Myers on the
// rest, slides insertions along runs of equal lines (its `Compact` hook), joins each run of
// deletions and insertions into one replace, and groups the result into hunks. The same steps run
// here on each changed region only: the text between regions is known to be equal, so the head
// and tail are found by walking out from a region (as far as a change can slide, usually not at
// all), Myers runs on the region's lines, and the sliding and grouping are ported from `similar`
// 2.7 and read lines lazily. Regions whose hunks would touch are diffed together, so when all the
// changes fall in one hunk the result is exactly `similar`'s; changes in separate hunks are diffed
// separately, which is also `similar`'s result unless a changed line could as well be paired with
// an equal line in another hunk (blank lines, a line moved far away): ties between equally short
// diffs may then fall differently (the output is still a correct patch, minimal per hunk).

/// One text's lines as `similar` tokenizes them: each line with its line break.
enum Side<'a> {
    /// A rope and its line count (a final line break does not open an empty line).
    Rope(&'a Rope, usize),
    Strs(Vec<&'a str>),
}

#[derive(Clone, Copy)]
enum Line<'a> {
    Rope(RopeSlice<'a>),
    Str(&'a str),
}

impl<'a> Side<'a> {
    fn of_rope(rope: &'a Rope) -> Side<'a> {
        let n = rope.len_lines();
        let lines = if rope.line(n - 1).len_chars() == 0 { n - 1 } else { n };
        Side::Rope(rope, lines)
    }

    fn len(&self) -> usize {
        match self {
            Side::Rope(_, n) => *n,
            Side::Strs(v) => v.len(),
        }
    }

    fn line(&self, i: usize) -> Line<'a> {
        match self {
            Side::Rope(r, _) => Line::Rope(r.line(i)),
            Side::Strs(v) => Line::Str(v.get(i).copied().unwrap_or_default()),
        }
    }

    fn same(&self, i: usize, other: &Side<'_>, j: usize) -> bool {
        self.line(i) == other.line(j)
    }
}

impl PartialEq for Line<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Line::Rope(a), Line::Rope(b)) => a == b,
            (Line::Str(a), Line::Str(b)) => a == b,
            (Line::Rope(a), Line::Str(b)) | (Line::Str(b), Line::Rope(a)) => a == b,
        }
    }
}

impl<'a> Line<'a> {
    fn text(self) -> Cow<'a, str> {
        match self {
            Line::Rope(s) => Cow::from(s),
            Line::Str(s) => Cow::Borrowed(s),
        }
    }

    /// Appends `{tag}{line}` as one row of the diff: a line without a line break (the last of
    /// its text) gets `\ No newline at end of file`, as `diff -u` prints it. A rope line ending
    /// in a break other than LF (U+2028…) gets an LF so that rows stay rows.
    fn push_row(self, out: &mut String, tag: char) {
        out.push(tag);
        let last = match self {
            Line::Rope(s) => {
                s.chunks().for_each(|c| out.push_str(c));
                s.len_chars().checked_sub(1).map(|i| s.char(i))
            }
            Line::Str(s) => {
                out.push_str(s);
                s.chars().next_back()
            }
        };
        match (last, self) {
            (Some('\n' | '\r'), _) => {}
            (Some('\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'), Line::Rope(_)) => out.push('\n'),
            _ => out.push_str("\n\\ No newline at end of file\n"),
        }
    }
}

/// Splits like `similar`'s `tokenize_lines`: after each `\n`, `\r\n` or lone `\r`. Cost: O(n).
fn split_lines(s: &str) -> Vec<&str> {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for at in memchr::memchr2_iter(b'\r', b'\n', bytes) {
        if at < start {
            continue; // the `\n` of a `\r\n` already taken
        }
        let end = if bytes.get(at..at + 2) == Some(b"\r\n") { at + 2 } else { at + 1 };
        // Breaks are ASCII bytes, so `start` and `end` are char boundaries.
        out.push(s.get(start..end).unwrap_or_default());
        start = end;
    }
    if let Some(rest) = s.get(start..).filter(|r| !r.is_empty()) {
        out.push(rest);
    }
    out
}

/// Lines of the base and of the draft that hold changes (token indices; the lines between two
/// groups are equal on both sides).
#[derive(Clone, Debug)]
struct Group {
    base: Range<usize>,
    draft: Range<usize>,
}

/// The lines each change touches — from the line of its start to the line after its end, on
/// both sides — merged when they overlap or touch. Cost: O(log n) per change.
fn line_blocks(base: &Rope, draft: &Rope, old: &Side, new: &Side, spans: &[ChangeSpan]) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for s in spans {
        let g = Group {
            base: base.char_to_line(s.base.start)..(base.char_to_line(s.base.end) + 1).min(old.len()),
            draft: draft.char_to_line(s.draft.start)..(draft.char_to_line(s.draft.end) + 1).min(new.len()),
        };
        match out.last_mut() {
            Some(prev) if g.base.start <= prev.base.end || g.draft.start <= prev.draft.end => {
                prev.base.end = prev.base.end.max(g.base.end);
                prev.draft.end = prev.draft.end.max(g.draft.end);
            }
            _ => out.push(g),
        }
    }
    out
}

/// What Myers is run on for one group: its lines once the equal head and tail are stripped.
struct Region {
    old: Range<usize>,
    new: Range<usize>,
    /// The head walked up to the next group: the two must be diffed together.
    reaches_next: bool,
}

/// The region of `g` as `similar` finds it when `g` is the only change: the common head is
/// walked forward from the group's start (it can run past its end, when the change is a run of
/// lines that could as well sit a few lines later), the common tail backward from its end
/// (every line after the group is equal), never into the head. Cost: O(log n) per line walked.
fn changed_region(old: &Side, new: &Side, g: &Group, next: Option<&Group>) -> Region {
    let (limit_old, limit_new) = next.map_or((old.len(), new.len()), |n| (n.base.start, n.draft.start));
    let (mut head_old, mut head_new) = (g.base.start, g.draft.start);
    while head_old < limit_old && head_new < limit_new && old.same(head_old, new, head_new) {
        head_old += 1;
        head_new += 1;
    }
    let reaches_next = next.is_some() && (head_old == limit_old || head_new == limit_new);
    // After the group the draft's lines are the base's shifted by `shift`.
    let shift = g.draft.end as isize - g.base.end as isize;
    let (end_old, end_new) = if g.base.end > head_old && g.draft.end > head_new {
        let (mut i, mut j) = (g.base.end, g.draft.end);
        while i > head_old && j > head_new && old.same(i - 1, new, j - 1) {
            i -= 1;
            j -= 1;
        }
        (i, j)
    } else {
        // The head ran past the group: the tail stops where it would overlap the head.
        let i = (head_old as isize).max(head_new as isize - shift) as usize;
        (i, (i as isize + shift) as usize)
    };
    Region { old: head_old..end_old, new: head_new..end_new, reaches_next }
}

/// The regions to diff, in order: groups are diffed together when their regions are at most
/// `2·context` lines apart (their hunks join, and one Myers run over both is what `similar`
/// does then). Cost: two [`changed_region`] walks per group.
fn changed_regions(old: &Side, new: &Side, groups: Vec<Group>, context: usize) -> Vec<(Range<usize>, Range<usize>)> {
    let mut out = Vec::new();
    let mut k = 0;
    let Some(mut current) = groups.first().cloned() else { return out };
    loop {
        let region = changed_region(old, new, &current, groups.get(k + 1));
        let Some(next) = groups.get(k + 1) else {
            out.push((region.old, region.new));
            return out;
        };
        let next_region = changed_region(old, new, next, groups.get(k + 2));
        if region.reaches_next || next_region.old.start.saturating_sub(region.old.end) <= context.saturating_mul(2) {
            current.base.end = next.base.end;
            current.draft.end = next.draft.end;
        } else {
            out.push((region.old, region.new));
            current = next.clone();
        }
        k += 1;
    }
}

/// `similar`'s diff ops for the whole texts, equal lines between and around the regions.
/// Cost: O(regions) plus [`myers_ops`] per region.
fn diff_ops(old: &Side, new: &Side, regions: &[(Range<usize>, Range<usize>)]) -> Vec<DiffOp> {
    let mut ops = Vec::new();
    let (mut at_old, mut at_new) = (0, 0);
    let push_equal = |ops: &mut Vec<DiffOp>, old_index: usize, new_index: usize, len: usize| {
        if len == 0 {
            return;
        }
        if let Some(DiffOp::Equal { old_index: o, len: l, .. }) = ops.last_mut() {
            if *o + *l == old_index {
                *l += len;
                return;
            }
        }
        ops.push(DiffOp::Equal { old_index, new_index, len });
    };
    for (o, n) in regions {
        push_equal(&mut ops, at_old, at_new, o.start - at_old);
        myers_ops(old, new, o.clone(), n.clone(), &mut ops);
        (at_old, at_new) = (o.end, n.end);
    }
    push_equal(&mut ops, at_old, at_new, old.len() - at_old);
    ops
}

/// Myers' ops (as `similar::algorithms::myers` emits them) for lines `o` of `old` against
/// lines `n` of `new`; when the shortest edit script would take more than [`MYERS_STEPS`]
/// steps, all of `o` deleted and all of `n` inserted instead.
/// Cost: O(a + b) to number the lines, then O((a + b)·D), at most about 2·[`MYERS_STEPS`].
fn myers_ops<'a>(old: &Side<'a>, new: &Side<'a>, o: Range<usize>, n: Range<usize>, ops: &mut Vec<DiffOp>) {
    if o.is_empty() && n.is_empty() {
        return;
    }
    let replace_all = |ops: &mut Vec<DiffOp>| {
        if !o.is_empty() {
            ops.push(DiffOp::Delete { old_index: o.start, old_len: o.len(), new_index: n.start });
        }
        if !n.is_empty() {
            ops.push(DiffOp::Insert { old_index: o.start, new_index: n.start, new_len: n.len() });
        }
    };
    if o.is_empty() || n.is_empty() {
        replace_all(ops);
        return;
    }
    let mut ids: HashMap<Cow<'a, str>, u32> = HashMap::new();
    let mut id = |line: Line<'a>| {
        let next = ids.len() as u32;
        *ids.entry(line.text()).or_insert(next)
    };
    let a: Vec<u32> = o.clone().map(|i| id(old.line(i))).collect();
    let b: Vec<u32> = n.clone().map(|j| id(new.line(j))).collect();
    if edit_distance_at_most(&a, &b, MYERS_STEPS / (a.len() + b.len())).is_none() {
        replace_all(ops);
        return;
    }
    ops.extend(crate::text_rules::myers_ops(&a, &b).into_iter().map(|op| match op {
        DiffOp::Equal { old_index, new_index, len } => {
            DiffOp::Equal { old_index: old_index + o.start, new_index: new_index + n.start, len }
        }
        DiffOp::Delete { old_index, old_len, new_index } => {
            DiffOp::Delete { old_index: old_index + o.start, old_len, new_index: new_index + n.start }
        }
        DiffOp::Insert { old_index, new_index, new_len } => {
            DiffOp::Insert { old_index: old_index + o.start, new_index: new_index + n.start, new_len }
        }
        DiffOp::Replace { old_index, old_len, new_index, new_len } => {
            DiffOp::Replace { old_index: old_index + o.start, old_len, new_index: new_index + n.start, new_len }
        }
    }));
}

/// The length of a shortest edit script (insertions + deletions) from `a` to `b`, when it is at
/// most `max_d`: Myers' greedy forward search. Cost: O((a + b)·D) time, O(max_d) memory.
// Bounds: `v` has 2·max_d + 3 slots and `at` = max_d + 1 + k with |k| ≤ d ≤ max_d, so `at - 1`
// and `at + 1` are slots; `a` and `b` are read only under `x < n && y < m`, and y = x - k ≥ 0
// because every furthest-reaching x on diagonal k is at least k (Myers' invariant).
#[allow(clippy::indexing_slicing)]
fn edit_distance_at_most(a: &[u32], b: &[u32], max_d: usize) -> Option<usize> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max_d = max_d.min(a.len() + b.len()) as isize;
    let offset = max_d + 1;
    let mut v = vec![0isize; 2 * max_d as usize + 3];
    for d in 0..=max_d {
        for k in (-d..=d).step_by(2) {
            let at = (offset + k) as usize;
            let mut x = if k == -d || (k != d && v[at - 1] < v[at + 1]) { v[at + 1] } else { v[at - 1] + 1 };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at] = x;
            if x >= n && y >= m {
                return Some(d as usize);
            }
        }
    }
    None
}

// `similar` 2.7's `Compact` hook (`algorithms/compact.rs`, from diffy), ported to read lines
// lazily: each deletion, then each insertion, is slid up and then down along equal lines,
// merging with the runs it meets. (Like the original, a deletion compares the equal lines with
// its own empty new range, so only insertions actually slide.)

fn adjust(op: &mut DiffOp, offset: isize, len: isize) {
    let add = |v: &mut usize, d: isize| *v = v.wrapping_add_signed(d);
    match op {
        DiffOp::Equal { old_index, new_index, len: l } => {
            add(old_index, offset);
            add(new_index, offset);
            add(l, len);
        }
        DiffOp::Delete { old_index, old_len, new_index } => {
            add(old_index, offset);
            add(old_len, len);
            add(new_index, offset);
        }
        DiffOp::Insert { old_index, new_index, new_len } => {
            add(old_index, offset);
            add(new_index, offset);
            add(new_len, len);
        }
        DiffOp::Replace { old_index, old_len, new_index, new_len } => {
            add(old_index, offset);
            add(old_len, len);
            add(new_index, offset);
            add(new_len, len);
        }
    }
}

fn op_is_empty(op: &DiffOp) -> bool {
    op.old_range().is_empty() && op.new_range().is_empty()
}

/// Lines at the start of both ranges that are equal (`similar`'s `common_prefix_len`).
fn common_prefix(old: &Side, o: Range<usize>, new: &Side, n: Range<usize>) -> usize {
    n.zip(o).take_while(|&(j, i)| old.same(i, new, j)).count()
}

/// Lines at the end of both ranges that are equal (`similar`'s `common_suffix_len`).
fn common_suffix(old: &Side, o: Range<usize>, new: &Side, n: Range<usize>) -> usize {
    n.rev().zip(o.rev()).take_while(|&(j, i)| old.same(i, new, j)).count()
}

/// `cleanup_diff_ops`, then the positions its swaps leave stale set right. Cost: O(ops²) in
/// the worst case (few ops), plus the lines slid along.
fn compact_ops(old: &Side, new: &Side, ops: &mut Vec<DiffOp>) {
    for tag in [DiffTag::Delete, DiffTag::Insert] {
        let mut pointer = 0;
        while let Some(op) = ops.get(pointer) {
            if op.tag() == tag {
                pointer = shift_up(old, new, ops, pointer);
                pointer = shift_down(old, new, ops, pointer);
            }
            pointer += 1;
        }
    }
    // Swapping a deletion and an insertion keeps their old indices in `similar`: an insertion's
    // `old_index` (and a deletion's `new_index`) can then point elsewhere. No decision reads
    // them, but the hunk header does: `similar` 2.7 prints e.g. `@@ -4,2 +4,6 @@` over five
    // old lines. Here they are recomputed, so the header always counts the lines shown.
    let (mut at_old, mut at_new) = (0, 0);
    for op in ops.iter_mut() {
        match op {
            DiffOp::Delete { new_index, .. } => *new_index = at_new,
            DiffOp::Insert { old_index, .. } => *old_index = at_old,
            _ => {}
        }
        (at_old, at_new) = (op.old_range().end, op.new_range().end);
    }
}

// Bounds (as in `similar`'s cleanup): `pointer < ops.len()` on entry (the caller found
// `ops[pointer]`) and at the top of every turn — inserts go after it, and each removal at or
// before it moves it down by one; the loop's condition makes `pointer - 1` an op.
#[allow(clippy::indexing_slicing)]
fn shift_up(old: &Side, new: &Side, ops: &mut Vec<DiffOp>, mut pointer: usize) -> usize {
    while let Some(&prev_op) = pointer.checked_sub(1).and_then(|i| ops.get(i)) {
        let this_op = ops[pointer];
        match (this_op.tag(), prev_op.tag()) {
            (DiffTag::Insert | DiffTag::Delete, DiffTag::Equal) => {
                let suffix = common_suffix(old, prev_op.old_range(), new, this_op.new_range());
                if suffix > 0 {
                    // (only insertions get here: a deletion's new range is empty)
                    if ops.get(pointer + 1).map(|x| x.tag()) == Some(DiffTag::Equal) {
                        adjust(&mut ops[pointer + 1], -(suffix as isize), suffix as isize);
                    } else {
                        let equal = DiffOp::Equal {
                            old_index: prev_op.old_range().end - suffix,
                            new_index: this_op.new_range().end - suffix,
                            len: suffix,
                        };
                        ops.insert(pointer + 1, equal);
                    }
                    adjust(&mut ops[pointer], -(suffix as isize), 0);
                    adjust(&mut ops[pointer - 1], 0, -(suffix as isize));
                    if op_is_empty(&ops[pointer - 1]) {
                        ops.remove(pointer - 1);
                        pointer -= 1;
                    }
                } else if op_is_empty(&ops[pointer - 1]) {
                    ops.remove(pointer - 1);
                    pointer -= 1;
                } else {
                    break;
                }
            }
            (DiffTag::Insert, DiffTag::Delete) | (DiffTag::Delete, DiffTag::Insert) => {
                ops.swap(pointer - 1, pointer);
                pointer -= 1;
            }
            (DiffTag::Insert, DiffTag::Insert) => {
                adjust(&mut ops[pointer - 1], 0, this_op.new_range().len() as isize);
                ops.remove(pointer);
                pointer -= 1;
            }
            (DiffTag::Delete, DiffTag::Delete) => {
                adjust(&mut ops[pointer - 1], 0, this_op.old_range().len() as isize);
                ops.remove(pointer);
                pointer -= 1;
            }
            _ => break,
        }
    }
    pointer
}

// Bounds: the loop's condition makes `pointer + 1` an op (so `pointer` is one); an insert
// before `pointer` moves it up by one together with the op it named; `pointer - 1` is only
// read after `checked_sub(1)` found an op there.
#[allow(clippy::indexing_slicing)]
fn shift_down(old: &Side, new: &Side, ops: &mut Vec<DiffOp>, mut pointer: usize) -> usize {
    while let Some(&next_op) = ops.get(pointer + 1) {
        let this_op = ops[pointer];
        match (this_op.tag(), next_op.tag()) {
            (DiffTag::Insert | DiffTag::Delete, DiffTag::Equal) => {
                let prefix = common_prefix(old, next_op.old_range(), new, this_op.new_range());
                if prefix > 0 {
                    if pointer.checked_sub(1).and_then(|i| ops.get(i)).map(|x| x.tag()) == Some(DiffTag::Equal) {
                        adjust(&mut ops[pointer - 1], 0, prefix as isize);
                    } else {
                        let equal =
                            DiffOp::Equal { old_index: next_op.old_range().start, new_index: this_op.new_range().start, len: prefix };
                        ops.insert(pointer, equal);
                        pointer += 1;
                    }
                    adjust(&mut ops[pointer], prefix as isize, 0);
                    adjust(&mut ops[pointer + 1], prefix as isize, -(prefix as isize));
                    if op_is_empty(&ops[pointer + 1]) {
                        ops.remove(pointer + 1);
                    }
                } else if op_is_empty(&ops[pointer + 1]) {
                    ops.remove(pointer + 1);
                } else {
                    break;
                }
            }
            (DiffTag::Insert, DiffTag::Delete) | (DiffTag::Delete, DiffTag::Insert) => {
                ops.swap(pointer, pointer + 1);
                pointer += 1;
            }
            (DiffTag::Insert, DiffTag::Insert) => {
                adjust(&mut ops[pointer], 0, next_op.new_range().len() as isize);
                ops.remove(pointer + 1);
            }
            (DiffTag::Delete, DiffTag::Delete) => {
                adjust(&mut ops[pointer], 0, next_op.old_range().len() as isize);
                ops.remove(pointer + 1);
            }
            _ => break,
        }
    }
    pointer
}

/// `similar`'s `Replace` hook: consecutive equal ops become one, and each run of deletions and
/// insertions between two equal runs becomes one delete, insert or replace. Cost: O(ops).
fn merge_runs(ops: Vec<DiffOp>) -> Vec<DiffOp> {
    let mut out = Vec::new();
    let mut eq: Option<(usize, usize, usize)> = None;
    let mut del: Option<(usize, usize, usize)> = None;
    let mut ins: Option<(usize, usize, usize)> = None;
    let flush_changes = |out: &mut Vec<DiffOp>, del: &mut Option<(usize, usize, usize)>, ins: &mut Option<(usize, usize, usize)>| match (
        del.take(),
        ins.take(),
    ) {
        (Some((old_index, old_len, _)), Some((_, new_index, new_len))) => {
            out.push(DiffOp::Replace { old_index, old_len, new_index, new_len })
        }
        (Some((old_index, old_len, new_index)), None) => out.push(DiffOp::Delete { old_index, old_len, new_index }),
        (None, Some((old_index, new_index, new_len))) => out.push(DiffOp::Insert { old_index, new_index, new_len }),
        (None, None) => {}
    };
    for op in ops {
        match op {
            DiffOp::Equal { old_index, new_index, len } => {
                flush_changes(&mut out, &mut del, &mut ins);
                eq = Some(match eq {
                    Some((o, n, l)) => (o, n, l + len),
                    None => (old_index, new_index, len),
                });
            }
            DiffOp::Delete { old_index, old_len, new_index } => {
                if let Some((o, n, l)) = eq.take() {
                    out.push(DiffOp::Equal { old_index: o, new_index: n, len: l });
                }
                del = Some(match del {
                    Some((o, l, n)) => (o, l + old_len, n),
                    None => (old_index, old_len, new_index),
                });
            }
            DiffOp::Insert { old_index, new_index, new_len } => {
                if let Some((o, n, l)) = eq.take() {
                    out.push(DiffOp::Equal { old_index: o, new_index: n, len: l });
                }
                ins = Some(match ins {
                    Some((o, n, l)) => (o, n, l + new_len),
                    None => (old_index, new_index, new_len),
                });
            }
            DiffOp::Replace { .. } => {
                if let Some((o, n, l)) = eq.take() {
                    out.push(DiffOp::Equal { old_index: o, new_index: n, len: l });
                }
                out.push(op);
            }
        }
    }
    if let Some((o, n, l)) = eq.take() {
        out.push(DiffOp::Equal { old_index: o, new_index: n, len: l });
    }
    flush_changes(&mut out, &mut del, &mut ins);
    out
}

/// `similar`'s `group_diff_ops`: the ops cut into hunks with `n` lines of context; an equal run
/// longer than `2·n` separates two hunks. Cost: O(ops).
fn group_ops(mut ops: Vec<DiffOp>, n: usize) -> Vec<Vec<DiffOp>> {
    if ops.is_empty() {
        return Vec::new();
    }
    if let Some(DiffOp::Equal { old_index, new_index, len }) = ops.first_mut() {
        let offset = len.saturating_sub(n);
        *old_index += offset;
        *new_index += offset;
        *len -= offset;
    }
    if let Some(DiffOp::Equal { len, .. }) = ops.last_mut() {
        *len -= len.saturating_sub(n);
    }
    let mut groups = Vec::new();
    let mut pending = Vec::new();
    for op in ops {
        if let DiffOp::Equal { old_index, new_index, len } = op {
            if len > n.saturating_mul(2) {
                pending.push(DiffOp::Equal { old_index, new_index, len: n });
                groups.push(pending);
                let offset = len.saturating_sub(n);
                pending = vec![DiffOp::Equal { old_index: old_index + offset, new_index: new_index + offset, len: len - offset }];
                continue;
            }
        }
        pending.push(op);
    }
    if !matches!(pending[..], [] | [DiffOp::Equal { .. }]) {
        groups.push(pending);
    }
    groups
}

/// `-3,2` / `+3` / `+2,0` of a hunk header (`similar`'s `UnifiedDiffHunkRange`).
fn hunk_range(range: Range<usize>) -> String {
    match range.len() {
        0 => format!("{},0", range.start),
        1 => format!("{}", range.start + 1),
        len => format!("{},{len}", range.start + 1),
    }
}

/// The unified diff of `regions` (the rest being equal): `similar`'s compaction, grouping and
/// layout, each hunk capped at `max_length` chars and at most [`MAX_HUNKS`] hunks, then
/// `… N more hunks` (0: no cap). Empty when nothing differs.
/// Cost: O(regions' Myers + what is printed + lines slid along).
fn write_unified(
    old: &Side,
    new: &Side,
    regions: &[(Range<usize>, Range<usize>)],
    labels: (&str, &str),
    hunk_label: &dyn Fn(Range<usize>) -> String,
    opts: &PreviewOptions,
) -> (String, bool) {
    let (context, max_length, w) = (opts.context_lines, opts.max_length, opts.locale.words());
    let mut ops = diff_ops(old, new, regions);
    compact_ops(old, new, &mut ops);
    let mut out = String::new();
    let mut whole = true;
    let hunks = group_ops(merge_runs(ops), context);
    let shown = if max_length == 0 { hunks.len() } else { hunks.len().min(MAX_HUNKS) };
    for hunk in hunks.iter().take(shown) {
        let mut rows = Vec::new();
        for op in hunk {
            let (tag, o, n) = op.as_tag_tuple();
            let mut push = |tag: char, line: Line| {
                let mut row = String::new();
                line.push_row(&mut row, tag);
                rows.push(row);
            };
            match tag {
                DiffTag::Equal => o.for_each(|i| push(' ', old.line(i))),
                DiffTag::Delete => o.for_each(|i| push('-', old.line(i))),
                DiffTag::Insert => n.for_each(|j| push('+', new.line(j))),
                DiffTag::Replace => {
                    o.for_each(|i| push('-', old.line(i)));
                    n.for_each(|j| push('+', new.line(j)));
                }
            }
        }
        let (Some(first), Some(last), false) = (hunk.first(), hunk.last(), rows.is_empty()) else { continue };
        if out.is_empty() {
            let _ = writeln!(out, "--- {}\n+++ {}", labels.0, labels.1);
        }
        // The section heading after `@@` (as git's function context): the hunk's changes.
        let label = hunk_label(first.new_range().start..last.new_range().end);
        let header = format!(
            "@@ -{} +{} @@{}{label}\n",
            hunk_range(first.old_range().start..last.old_range().end),
            hunk_range(first.new_range().start..last.new_range().end),
            if label.is_empty() { "" } else { " " },
        );
        rows.insert(0, header);
        // The label is not the diff's text: the cap counts without it, as for a gutter hunk.
        let cap = if max_length == 0 || label.is_empty() { max_length } else { max_length + label.chars().count() + 1 };
        whole &= push_capped(&mut out, &rows, cap, w);
    }
    if shown < hunks.len() {
        out.push_str(&w.t("preview.more_hunks", &[("n", &(hunks.len() - shown))]));
        out.push('\n');
    }
    (out, whole && shown == hunks.len())
}

mod gutter;
mod stats;
pub use gutter::{compact, gutter_line, gutter_width, MAX_HUNKS};
use gutter::{gutter_hunks, join_gutter_hunks, push_capped};
use stats::stats;

// Native only: property tests and the test host (src/internal_tests.rs) are not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod modes_tests;
#[cfg(test)]
mod tests;
