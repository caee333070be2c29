//! Staging a near-miss candidate (docs/architecture.md#matching): the candidate's text differs
//! from old_text, so new_text is never written over it as given. Only the model's intended
//! change — old_text → new_text — is applied to the candidate's own text by a three-way apply
//! (src/matching/three_way.rs); when that change touches text that differs between old_text and
//! the candidate, nothing is staged and the answer shows all three (what was sent, what is
//! there, what the change would make of it). [`decide_pick`] decides on plain data.

use std::ops::Range;

use ropey::Rope;

use super::{Edit, StageInfo};
use crate::matching::elide::drift;
use crate::matching::marks::is_mark;
use crate::matching::near;
use crate::matching::three_way::{self, ConflictReason, Outcome};
use crate::matching::work::Budget;
use crate::matching::CandidateQuality;
use crate::session::Letter;
use crate::text;
use crate::workspace::outcome::{AlreadyThere, EditOutcome, Note, PickConflict, Refusal, ThereNow};
use crate::workspace::{words, Step, Workspace};

/// What picking a near-miss candidate comes to.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Pick {
    /// Stage `edit`: the change applied onto the candidate's text.
    Stage {
        edit: Edit,
        quality: CandidateQuality,
        notes: Vec<Note>,
    },
    /// The candidate already reads as the change would make it (the same change was made
    /// there before): nothing to stage, and nothing for the model to retry.
    AlreadyThere {
        letter: Letter,
        line: usize,
    },
    Refuse(Refusal),
}

/// The pick of near-miss candidate `letter` (draft `range` of `path`, found for `needle`, of
/// `quality` when known): the three-way apply of `needle` → `new_text` onto its text, or why
/// not. Pure. Cost: O(region + needle + new_text) plus two token diffs of at most
/// [`three_way::MAX_DIFF_TOKENS`] tokens; a larger difference is refused.
pub(super) fn decide_pick(
    draft: &Rope,
    path: &str,
    letter: Letter,
    range: Range<usize>,
    needle: &str,
    new_text: &str,
    quality: Option<CandidateQuality>,
) -> Pick {
    let mut range = whole_characters(draft, snap_to_needle_lines(draft, range, needle));
    // What the candidate holds, shown when the pick is refused before any merge.
    let there = ThereNow { letter, line: text::line_of(draft, range.start), text: draft.slice(range.clone()).to_string() };
    let elsewhere = |r: &Range<usize>, there: ThereNow| {
        let lines = (text::line_of(draft, r.start), text::line_of(draft, r.end.saturating_sub(1).max(r.start)));
        Pick::Refuse(Refusal::ElidedElsewhere { lines, there })
    };
    // old_text and new_text with their markers written as the lines they stand for, when a
    // piece was placed only through a tier or at its near miss (src/matching/elide/drift.rs).
    let mut expanded: Option<(String, String)> = None;
    // Placeholder-like lines the candidate holds are its content, copied (src/matching/elide.rs).
    if !crate::matching::elide::held_by(needle, &there.text) {
        // The lines around `...` place the region, and it must be the candidate's.
        match elided_placement(draft, needle) {
            Placed::NotElided => {}
            Placed::Exact(r) if overlaps(&r, &range) => range = r,
            Placed::Drifted(r, e) if overlaps(&r, &range) => {
                // Only the change is merged onto the region: old_text and new_text with their
                // markers written as the lines they stand for there.
                let old_full = e.apply(needle).unwrap_or_default();
                match e.apply(new_text) {
                    Ok(new_full) => expanded = Some((old_full, new_full)),
                    Err(why) => return Pick::Refuse(Refusal::ElidedNewText { path: path.to_string(), why }),
                }
                range = r;
            }
            Placed::Exact(r) | Placed::Drifted(r, _) => return elsewhere(&r, there),
            Placed::NotOnce(piece, count) => {
                return Pick::Refuse(Refusal::ElidedAnchorNotOnce { path: path.to_string(), piece, count, there })
            }
        }
    }
    let (needle, new_text) = match &expanded {
        Some((old, new)) => (old.as_str(), new.as_str()),
        None => (needle, new_text),
    };
    // A region never cuts a word of the document (`port: 3` of its `port: 30`).
    let mut region = draft.slice(range.clone()).to_string();
    let whole = glued(draft, &range, &region);
    if whole != range {
        range = whole;
        region = draft.slice(range.clone()).to_string();
    }
    let similarity = match quality {
        Some(CandidateQuality::Similar(s) | CandidateQuality::Merged(s)) => s,
        _ => near::similarity(needle, &region),
    };
    let (mut outcome, mut reading) = three_way::merge_pick(needle, new_text, &region);
    if let Outcome::Merged(m) = &outcome {
        // A region cut next to a word of the document (`  timeout: ` before its `300`) must
        // not glue the change onto it (`23300`): the word is taken into the region and the
        // change merged again, where it meets what is really there.
        let wider = glued(draft, &range, &m.text);
        if wider != range {
            range = wider;
            region = draft.slice(range.clone()).to_string();
            (outcome, reading) = three_way::merge_pick(needle, new_text, &region);
        }
    }
    match outcome {
        Outcome::Merged(m) => {
            let mut notes = Vec::new();
            if reading.unescaped {
                notes.push(Note::PickEscapesRead);
            }
            if reading.decoded {
                notes.push(Note::PickDocumentEscapesRead);
            }
            if reading.gutters {
                notes.push(Note::PickGuttersIgnored);
            }
            if m.kept > 0 {
                notes.push(Note::KeptAsIs { places: m.kept, elided: m.elided_kept > 0 });
            }
            Pick::Stage { edit: Edit { range, new_text: m.text }, quality: CandidateQuality::Merged(similarity), notes }
        }
        // Writing the change anyway would leave the text as it is: it is already there.
        Outcome::Conflict(c) if c.reason == ConflictReason::Overlap && c.proposal.as_deref() == Some(region.as_str()) => {
            Pick::AlreadyThere { letter, line: text::line_of(draft, range.start) }
        }
        Outcome::Conflict(c) => {
            let proposal = c
                .proposal
                .as_deref()
                .filter(|_| !matches!(c.reason, ConflictReason::Placeholder { .. }))
                .map(|p| near::difference(&region, p));
            let clash = (c.reason == ConflictReason::Overlap && !c.base_range.is_empty())
                .then(|| {
                    Some((
                        line_at(new_text, map_pos(needle, new_text, c.base_range.start)?),
                        line_at(&region, map_pos(needle, &region, c.base_range.start)?),
                    ))
                })
                .flatten()
                .filter(|(yours, there)| yours != there && yours.chars().count().max(there.chars().count()) <= MAX_CLASH_LINE);
            Pick::Refuse(Refusal::PickConflict(Box::new(PickConflict {
                clash,
                touched: needle.chars().skip(c.base_range.start).take(c.base_range.len()).collect(),
                reason: c.reason,
                quality: CandidateQuality::Similar(similarity),
                there: ThereNow { letter, line: text::line_of(draft, range.start), text: region },
                change: near::difference(needle, new_text),
                proposal,
            })))
        }
    }
}

/// Longest line a pick conflict quotes as `yours: … · there: …`.
const MAX_CLASH_LINE: usize = 120;

/// Most chars (both texts) [`map_pos`] diffs.
const MAX_MAP_CHARS: usize = 8_000;

/// Char `pos` of `a` carried to `b` through a char diff (a position inside a changed run goes to
/// that run's start in `b`); `None` past [`MAX_MAP_CHARS`]. Cost: O((a + b)·D).
fn map_pos(a: &str, b: &str, pos: usize) -> Option<usize> {
    let (x, y): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if x.len() + y.len() > MAX_MAP_CHARS {
        return None;
    }
    for op in crate::text_rules::myers_ops(&x, &y) {
        let (tag, old, new) = op.as_tag_tuple();
        if old.contains(&pos) || (old.is_empty() && old.start == pos && tag != similar::DiffTag::Equal) {
            return Some(if tag == similar::DiffTag::Equal { new.start + (pos - old.start) } else { new.start });
        }
    }
    Some(y.len())
}

/// The line of `text` holding char `pos`, trimmed. Cost: O(n).
fn line_at(text: &str, pos: usize) -> String {
    let before: String = text.chars().take(pos).collect();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = text.get(start..).unwrap_or_default();
    line.split('\n').next().unwrap_or_default().trim().to_string()
}

impl Workspace {
    /// Stages near-miss candidate `letter` (draft `range` of `path`, found for `needle`) as the
    /// three-way apply of `needle` → `new_text` onto its text, or refuses (`StaleReference`)
    /// with a three-way preview. Cost: [`decide_pick`], then the staging.
    pub(super) fn stage_near_miss(
        &mut self,
        path: &str,
        letter: Letter,
        range: Range<usize>,
        needle: &str,
        new_text: &str,
        mut info: StageInfo,
    ) -> Step {
        let draft = self.draft_rope(path);
        match decide_pick(&draft, path, letter, range, needle, new_text, info.quality) {
            Pick::Stage { edit, quality, notes } => {
                info.quality = Some(quality);
                info.warn = true;
                info.notes.extend(notes);
                self.stage(path, vec![edit], info)
            }
            Pick::AlreadyThere { letter, line } => {
                let r = words::already_there(&AlreadyThere { letter, path: path.to_string(), line }, &words::Voice::of(self));
                Step::Done(self.finish(r, Some(path)))
            }
            Pick::Refuse(refusal) => {
                let quality = match &refusal {
                    Refusal::PickConflict(c) => Some(c.quality.to_string()),
                    _ => None,
                };
                let mut r = self.worded(&EditOutcome::Refused(refusal));
                r.match_quality = quality;
                r.fingerprint = Some(self.draft_fingerprint(path).to_string());
                Step::Done(self.finish(r, Some(path)))
            }
        }
    }
}

/// Where the pieces of an elided old_text place the region a pick of it is merged onto.
pub(super) enum Placed {
    /// old_text has no placeholder line.
    NotElided,
    /// Each piece found exactly, once in the draft, in order ([`elided_region`]).
    Exact(Range<usize>),
    /// A piece written nowhere as it is, placed through a tier or at its clear-best near miss
    /// ([`drift::near_region`]), with the lines the markers stand for there.
    Drifted(Range<usize>, crate::matching::elide::Elided),
    /// No region: the first piece that is not once in the draft, and how often it occurs.
    NotOnce(String, usize),
}

/// [`Placed`] for `needle` in `draft`. Cost: [`elided_region`], and when a piece occurs
/// nowhere, [`drift::near_region`].
pub(super) fn elided_placement(draft: &Rope, needle: &str) -> Placed {
    let pieces = three_way::elided_pieces(needle);
    if pieces.is_empty() {
        return Placed::NotElided;
    }
    match elided_region(draft, &pieces) {
        Ok(r) => Placed::Exact(r),
        // A piece written nowhere as it is may have drifted (its indentation, a misremembered
        // token): placed as the elided tier places pieces, through the tolerant readings.
        // Unbudgeted: the placement of one answer's candidates, not a search of every call.
        Err((piece, 0)) => match drift::near_region(draft, needle, &mut Budget::unlimited()) {
            Some((r, e)) => Placed::Drifted(r, e),
            None => Placed::NotOnce(piece, 0),
        },
        Err((piece, count)) => Placed::NotOnce(piece, count),
    }
}

/// Whether a pick of the near miss at `range` can be placed for `needle` ([`decide_pick`]):
/// always when old_text has no placeholder line or the region holds them as content, else
/// when its pieces place a region over it ([`elided_placement`], computed once as `placed`).
/// A candidate that cannot is not offered: a pick of it would be refused. Cost: O(region).
pub(super) fn placeable(draft: &Rope, needle: &str, placed: &Placed, range: &Range<usize>) -> bool {
    let range = whole_characters(draft, snap_to_needle_lines(draft, range.clone(), needle));
    match placed {
        Placed::NotElided => true,
        Placed::Exact(r) | Placed::Drifted(r, _) => {
            overlaps(r, &range) || crate::matching::elide::held_by(needle, &draft.slice(range).to_string())
        }
        Placed::NotOnce(..) => crate::matching::elide::held_by(needle, &draft.slice(range).to_string()),
    }
}

/// Whether two char ranges share a char.
fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// The draft range from the first piece of an elided old_text to the end of its last, each
/// piece found exactly, once in the whole draft, after the one before; or the first piece that
/// is not, with how often it occurs (1: only before the piece above it).
/// Cost: one exact search of the draft per piece, O(n + piece).
fn elided_region(draft: &ropey::Rope, pieces: &[String]) -> Result<Range<usize>, (String, usize)> {
    let mut start = None;
    let mut end = 0;
    for piece in pieces {
        let hits = crate::matching::exact::find_chars(draft, piece);
        let at = match hits.as_slice() {
            [at] if *at >= end => *at,
            _ => return Err((piece.clone(), hits.len())),
        };
        start.get_or_insert(at);
        end = at + piece.chars().count();
    }
    Ok(start.unwrap_or(0)..end)
}

/// `range` cut where `needle`'s own line boundaries fall: a short fragment of the line before
/// or after that the needle has no line for is dropped (the region ran a few chars into a
/// neighbour line); a region ending just before a line break the needle ends with takes it;
/// one starting after the indentation the needle starts with takes it. Never wider than that.
/// Cost: O(region).
fn snap_to_needle_lines(rope: &ropey::Rope, range: Range<usize>, needle: &str) -> Range<usize> {
    let len = rope.len_chars();
    let (mut start, mut end) = (range.start.min(len), range.end.min(len));
    let region: Vec<char> = rope.slice(start..end).chars().collect();
    let first_line = needle.split('\n').next().unwrap_or("").chars().count();
    let last_line = needle.rsplit('\n').next().unwrap_or("").chars().count();
    // A leading fragment `xy⏎` shorter than half the needle's first line, the needle not
    // starting with a line break: the tail of the line before.
    // Only text the needle does not hold is foreign: a needle with escaped or reflowed line
    // breaks holds the region's lines inside its own.
    let foreign = |frag: &[char]| {
        let frag: String = frag.iter().collect();
        frag.trim().is_empty() || !needle.contains(frag.trim())
    };
    if !needle.starts_with('\n') {
        if let Some(nl) = region.iter().position(|&c| c == '\n') {
            if nl * 2 < first_line && nl + 1 < region.len() && foreign(region.get(..nl).unwrap_or_default()) {
                start += nl + 1;
            }
        }
    }
    // A trailing fragment `⏎xy` shorter than half the needle's last line: the head of the
    // line after (a needle ending with a line break keeps that break).
    if let Some(nl) = region.iter().rposition(|&c| c == '\n') {
        let frag = region.len() - nl - 1;
        if frag > 0
            && (needle.ends_with('\n') || frag * 2 < last_line.max(1))
            && start < end - frag
            && foreign(region.get(nl + 1..).unwrap_or_default())
        {
            end -= if needle.ends_with('\n') { frag } else { frag + 1 };
        }
    }
    if needle.ends_with('\n') && end < len && rope.char(end) == '\n' && end > start && rope.char(end - 1) != '\n' {
        end += 1;
    }
    // A region cut short of the rest of its last line, or the start of its first, when the
    // needle holds that text there: the needle covers it, so the region does (else a change
    // at the needle's end would land before text it meant to follow).
    let line_end = (end..len).find(|&i| rope.char(i) == '\n').unwrap_or(len);
    let rest: String = rope.slice(end..line_end).to_string();
    if !rest.trim().is_empty() && needle.trim_end().ends_with(rest.trim_end()) {
        end += rest.trim_end().chars().count();
    }
    let line_start = rope.line_to_char(rope.char_to_line(start));
    let head: String = rope.slice(line_start..start).to_string();
    if !head.trim().is_empty() && needle.trim_start().starts_with(head.trim_start()) {
        start = line_start + (head.chars().count() - head.trim_start().chars().count());
    }
    // Indentation the needle starts with, left out of the region.
    let indent = needle.chars().take_while(|c| *c == ' ' || *c == '\t').count();
    if indent > 0 {
        let line_start = rope.line_to_char(rope.char_to_line(start));
        if line_start < start && rope.slice(line_start..start).chars().all(|c| c == ' ' || c == '\t') {
            start = line_start;
        }
    }
    start..end.max(start)
}

/// `range` widened over the word of `rope` right before or after it when the range cuts that
/// word, or `text` written there would join it (a word char on both sides of the edge).
/// Cost: O(word length · log n).
fn glued(rope: &ropey::Rope, range: &Range<usize>, text: &str) -> Range<usize> {
    let word = |c: Option<char>| c.is_some_and(crate::text_rules::is_word_char);
    let at = |i: usize| rope.get_char(i);
    let (mut start, mut end) = (range.start, range.end);
    let (first, last) = (text.chars().next(), text.chars().next_back());
    let was_first = (range.start < range.end).then(|| at(range.start)).flatten();
    let was_last = range.end.checked_sub(1).filter(|&i| i >= range.start).and_then(at);
    if (word(last) || word(was_last)) && word(at(end)) {
        while word(at(end)) {
            end += 1;
        }
    }
    if (word(first) || word(was_first)) && start > 0 && word(at(start - 1)) {
        while start > 0 && word(at(start - 1)) {
            start -= 1;
        }
    }
    start..end
}

/// `range` widened so it cuts no character from its combining marks: a start on a mark moves
/// back to its base character, an end before a mark moves past the marks.
/// Cost: O(marks at the edges · log n).
fn whole_characters(rope: &ropey::Rope, range: Range<usize>) -> Range<usize> {
    let len = rope.len_chars();
    let (mut start, mut end) = (range.start.min(len), range.end.min(len));
    while start > 0 && start < len && is_mark(rope.char(start)) && rope.char(start - 1) != '\n' {
        start -= 1;
    }
    while end < len && is_mark(rope.char(end)) {
        end += 1;
    }
    start..end.max(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapped(doc: &str, range: Range<usize>, needle: &str) -> String {
        let rope = ropey::Rope::from_str(doc);
        let r = whole_characters(&rope, snap_to_needle_lines(&rope, range, needle));
        rope.slice(r).to_string()
    }

    #[test]
    fn regions_are_cut_where_the_needle_s_lines_end() {
        let doc = "    alpha = 1\n    beta = 2\n    gamma = 3\n";
        // One char into the next line: dropped.
        assert_eq!(snapped(doc, 4..29, "alpha = 1\n    beta = 2"), "alpha = 1\n    beta = 2");
        // The tail of the line before: dropped; the needle's indentation: taken.
        assert_eq!(snapped(doc, 12..26, "    beta = 2"), "    beta = 2");
        // A needle of whole lines ending with a line break gets the break, not the next line's head.
        assert_eq!(snapped(doc, 14..32, "    beta = 2\n"), "    beta = 2\n");
        // Never inside a character: the accent stays with its letter.
        assert_eq!(snapped("cafe\u{301} x", 0..4, "cafe"), "cafe\u{301}");
        assert_eq!(snapped("cafe\u{301} x", 4..7, "\u{301} x"), "e\u{301} x");
        // Cut short of text the needle holds at its ends: widened to it.
        let doc = "x x 30 AAAA\n) 30 )\nz\n";
        assert_eq!(snapped(doc, 0..13, "x x 30\n) 30 )"), "x x 30 AAAA\n) 30 )");
        assert_eq!(snapped("let foo = 1;\n", 6..11, "let foo = 2"), "let foo = 1");
        assert_eq!(snapped("let foo = 1;\n", 4..11, "foo = 2"), "foo = 1");
        // Lines the needle holds (its line breaks escaped or reflowed) are not foreign.
        let doc = "x\n\tab = 1 +\n\t\tcd;\n";
        assert_eq!(snapped(doc, 2..20, "\\tab = 1 +\\n\\t\\tcd;\\n and more text to make it long"), "\tab = 1 +\n\t\tcd;\n");
    }
}
