//! Pieces with drift (docs/architecture.md#matching, docs/decisions.md): the pieces of an
//! elided old_text go through the engine's tolerant readings as whole needles do, never a
//! matcher of their own.
//!
//! - On a search ([`find_tolerant`](super::find_tolerant)), a piece with no exact place is
//!   searched through the fuzzy tiers; the region is a match only when old_text, its markers
//!   written as the lines they stand for there, reads as the whole region through one tier
//!   ([`own_form`]). `new_text` is then written as at a whole needle's fuzzy match: lines it
//!   keeps as the document has them, changed lines re-indented, the document's characters
//!   where it keeps old_text's.
//! - On the pick of a near-miss candidate ([`near_region`]), a piece found through no tier
//!   (one misremembered token) is placed at its near miss when that is the clear best
//!   ([`clear_best::recommend`]): the region is read with that place, and the pick merges
//!   old_text → new_text, their markers written as those lines, onto the region (a three-way
//!   apply, src/matching/three_way.rs): the document's token stays where the change does not
//!   touch it; a token changed both ways is refused.
//!
//! Every rule of the elided tier holds as for exact pieces: a piece once in its region,
//! unsettled readings, the limits.

use std::ops::Range;

use ropey::Rope;

use super::{lines_overlap_themselves, overlaps_itself, piece_places, pieces, regions, Elided, Piece, Place};
use crate::matching::near::{self, clear_best};
use crate::matching::work::Budget;
use crate::matching::{exact, fuzzy, Match};

/// Near misses of a piece compared before the clear best is taken ([`clear_best::recommend`]
/// needs the runners-up to tell a clear winner).
const NEAR_LIMIT: usize = 8;

/// The match of `full` (an elided old_text with its markers written as the lines they stand
/// for) over the whole of `region` through a fuzzy tier: its tier and the way `new_text` is
/// written in the region's form ([`fuzzy::Reindent`]). `None` when no tier reads `full` as the
/// whole region. Cost: one fuzzy search of `full` over `region`, O(region) normalised.
pub(super) fn own_form(region: &str, full: &str, budget: &mut Budget) -> Option<Match> {
    let rope = Rope::from_str(region);
    let found = fuzzy::find(&rope, full, 0, budget);
    let [m] = found.as_slice() else { return None };
    (m.range == (0..rope.len_chars()) && m.quality.tier.is_some()).then(|| m.clone())
}

/// The one region of `rope` the elided `needle` describes when each piece is placed exactly,
/// else through the fuzzy tiers, else at its clear-best near miss (one misremembered token);
/// with what each marker stands for there ([`Elided`], written as is: the caller merges).
/// `None` when `needle` has no marker, a piece has no such place, or the readings give no
/// single region (the rules of [`find`](super::find)).
///
/// Cost: per piece an exact search, a fuzzy search when that finds nothing, and a near-miss
/// search ([`near::near_misses`], O(n)) when that finds nothing either; then the readings as in
/// [`find`](super::find).
pub fn near_region(rope: &Rope, needle: &str, budget: &mut Budget) -> Option<(Range<usize>, Elided)> {
    let pieces = pieces(needle)?;
    if pieces.iter().any(|p| if p.starts_line && p.ends_line { lines_overlap_themselves(&p.text) } else { overlaps_itself(&p.text) }) {
        return None;
    }
    let mut places: Vec<Vec<Place>> = Vec::with_capacity(pieces.len());
    for piece in &pieces {
        let mut found = piece_places(rope, piece, exact::find_exact(rope, &piece.text, 0).into_iter().map(|m| m.range), budget);
        if found.is_empty() {
            let fuzzy_found = fuzzy::find(rope, &piece.text, 0, budget);
            found = piece_places(rope, piece, fuzzy_found.into_iter().map(|m| m.range), budget);
        }
        if found.is_empty() {
            found = near_place(rope, piece, budget).into_iter().collect();
        }
        if found.is_empty() {
            return None;
        }
        places.push(found);
    }
    match regions(rope, needle, &places, budget)?.as_slice() {
        [(span, e)] => Some((span.clone(), e.clone())),
        _ => None,
    }
}

/// The place of `piece` at its near miss, when that is clearly the region meant (one word or
/// symbol run misremembered: [`clear_best::recommend`]) and spans the piece's lines, its
/// edges widened over the indentation and trailing whitespace a marker's side needs.
/// Cost: one near-miss search of the piece, O(n).
fn near_place(rope: &Rope, piece: &Piece, budget: &mut Budget) -> Option<Place> {
    let found = near::near_misses(rope, &piece.text, 0, NEAR_LIMIT);
    let (best, _) = clear_best::recommend(rope, &piece.text, &found)?;
    let r = found.get(best)?.range.clone();
    let len = rope.len_chars();
    let space = |c: Option<char>| matches!(c, Some(' ' | '\t'));
    let (mut start, mut end) = (r.start.min(len), r.end.min(len));
    while piece.starts_line && start > 0 && space(rope.get_char(start - 1)) {
        start -= 1;
    }
    while piece.ends_line && space(rope.get_char(end)) {
        end += 1;
    }
    // The piece's lines, no more, no fewer: a near miss that joins or splits lines is no place.
    if rope.slice(start..end).chars().filter(|&c| c == '\n').count() != piece.text.matches('\n').count() {
        return None;
    }
    piece_places(rope, piece, std::iter::once(start..end), budget).pop()
}
