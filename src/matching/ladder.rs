//! The ladder of matching tiers (docs/architecture.md#matching): one ordered list, [`LADDER`],
//! of rows with one interface. [`super::locate`] climbs it, stopping at the first tier that
//! answers. Every tier receives the query and the search's [`Budget`] as a value: a new tier is
//! one row here, and its function cannot be written without taking the budget.
//!
//! A tier answers `None` to pass the search on to the next, or `Some` with its matches; a
//! reading that changes the needle (copied gutters stripped) answers even with none, so the
//! near-miss search that follows is of the needle as read.
//!
//! No tier keeps a match that cuts a character from its combining marks ([`marks`]): `cafe` is
//! not in `café` written as `e` + U+0301, or replacing it would leave the accent on whatever
//! comes next. After the ladder, in the workspace: the escape reading
//! (src/workspace/edit/escapes.rs) and the near-miss search ([`super::near`]), which continues
//! with what is left of the same budget (docs/decisions.md, "One ladder of tiers").

use ropey::Rope;

use super::gutter::{self, Gutter};
use super::work::Budget;
use super::{elide, fuzzy, marks, Match};

/// What a tier searches: the needle in the text from char `from` on, with the exact search
/// supplied by the caller (over the rope, or over a draft's layers).
pub struct Query<'a> {
    pub rope: &'a Rope,
    pub needle: &'a str,
    pub from: usize,
    pub exact: &'a dyn Fn(&str) -> Vec<Match>,
    /// Whether `rope` is known to hold no combining mark (asked only when many matches would
    /// otherwise be checked in a pass over the text; `&|| false` when not known).
    pub marks_free: &'a dyn Fn() -> bool,
}

impl Query<'_> {
    /// `found` without the matches that cut a character from its combining marks. Cost: O(matches).
    fn whole(&self, mut found: Vec<Match>) -> Vec<Match> {
        marks::retain_whole_unless_free(self.rope, &mut found, self.marks_free);
        found
    }

    /// The exact search of `needle`, whole characters only. Cost: the caller's exact search.
    fn exact(&self, needle: &str) -> Vec<Match> {
        self.whole((self.exact)(needle))
    }

    /// The fuzzy tiers' search of `needle`, whole characters only, charged to `budget`.
    /// Cost: [`fuzzy::find`].
    fn fuzzy(&self, needle: &str, budget: &mut Budget) -> Vec<Match> {
        self.whole(fuzzy::find(self.rope, needle, self.from, budget))
    }
}

/// A tier's answer: its matches (non-overlapping, in document order, all of one quality) and
/// the gutters it stripped from the needle, when it read the needle without them.
pub struct Found {
    pub matches: Vec<Match>,
    pub gutter: Option<Gutter>,
}

impl Found {
    /// The tier's matches as its answer, or `None` (the next tier's turn) when there are none.
    fn any(matches: Vec<Match>) -> Option<Found> {
        (!matches.is_empty()).then_some(Found { matches, gutter: None })
    }
}

/// One tier of the ladder (a rung: `Tier` names the fuzzy tiers' normalisations, [`super::Tier`]).
pub struct Rung {
    /// What the tier is (`match_quality` names come from the matches it makes).
    pub name: &'static str,
    /// The tier's search: `None` passes the search on, `Some` answers it. Every unit of work is
    /// charged to the budget; past it the tier may stop with a partial answer, which
    /// [`super::locate`] discards.
    pub find: fn(&Query<'_>, &mut Budget) -> Option<Found>,
}

/// The tiers, in the order they are tried.
///
/// The fuzzy tiers and the elided reading come before any reading that drops a prefix of each
/// line as a gutter: a YAML block `1: low` / `2: mid` copied without its indentation is those
/// lines, not `low` / `mid` wherever else they occur. The elided reading comes after the fuzzy
/// tiers: a document may hold a marker-like line (`...` is a Python statement), and then the
/// needle as given is that text.
pub const LADDER: &[Rung] = &[
    Rung { name: "exact", find: exact },
    Rung { name: "fuzzy", find: fuzzy_tiers },
    Rung { name: "elided", find: elided },
    Rung { name: "gutter", find: gutter_exact },
    Rung { name: "gutter+fuzzy", find: gutter_fuzzy },
];

/// Climbs [`LADDER`]: the first tier's answer, or `None` when no tier answered. Cost: the
/// tiers tried.
pub fn climb(query: &Query<'_>, budget: &mut Budget) -> Option<Found> {
    LADDER.iter().find_map(|tier| (tier.find)(query, budget))
}

/// `memchr::memmem` over the text ([`super::exact`]); uncounted, it is the native limit.
fn exact(q: &Query<'_>, _budget: &mut Budget) -> Option<Found> {
    Found::any(q.exact(q.needle))
}

/// The fuzzy tiers of [`fuzzy`] (trailing whitespace, indentation, normalisation, Unicode
/// look-alikes, whitespace runs) on the needle as given: the lowest that finds any.
fn fuzzy_tiers(q: &Query<'_>, budget: &mut Budget) -> Option<Found> {
    Found::any(q.fuzzy(q.needle, budget))
}

/// An elided needle ([`elide`]): its placeholder lines stand for lines it left out, and the
/// pieces around them, each found once, in order (exactly, else through the fuzzy tiers as a
/// whole needle), place the region.
fn elided(q: &Query<'_>, budget: &mut Budget) -> Option<Found> {
    let fuzzy = |n: &str, b: &mut Budget| q.fuzzy(n, b);
    Found::any(q.whole(elide::find_tolerant(q.rope, q.needle, &|n| q.exact(n), &fuzzy, budget)))
}

/// Copied gutters stripped ([`gutter`]) and the rest searched exactly.
fn gutter_exact(q: &Query<'_>, _budget: &mut Budget) -> Option<Found> {
    let g = gutter::strip(q.needle).filter(|g| !g.text.is_empty())?;
    let matches = q.exact(&g.text);
    (!matches.is_empty()).then(|| with_gutter(matches, g))
}

/// Copied gutters stripped and the rest searched through the fuzzy tiers. Answers whenever
/// gutters were stripped, with no matches too: the needle as read is the stripped one.
fn gutter_fuzzy(q: &Query<'_>, budget: &mut Budget) -> Option<Found> {
    let g = gutter::strip(q.needle)?;
    let matches = if g.text.is_empty() { Vec::new() } else { q.fuzzy(&g.text, budget) };
    Some(with_gutter(matches, g))
}

/// `matches` of the needle read without gutter `g`, said so in their quality.
fn with_gutter(mut matches: Vec<Match>, g: Gutter) -> Found {
    for m in &mut matches {
        m.quality.gutter = true;
    }
    Found { matches, gutter: Some(g) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tier_is_named_once_and_exact_comes_first() {
        let names: Vec<&str> = LADDER.iter().map(|t| t.name).collect();
        assert_eq!(names.first(), Some(&"exact"));
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }

    #[test]
    fn the_first_tier_that_answers_is_the_answer() {
        let rope = Rope::from_str("a  =  1\na = 1\n");
        let exact = |n: &str| super::super::exact::find_exact(&rope, n, 0);
        let q = Query { rope: &rope, needle: "a = 1", from: 0, exact: &exact, marks_free: &|| false };
        let found = climb(&q, &mut Budget::unlimited()).map(|f| f.matches.len());
        assert_eq!(found, Some(1), "the exact hit, not the whitespace tier's two");
        let q = Query { rope: &rope, needle: "b = 2", from: 0, exact: &exact, marks_free: &|| false };
        assert!(climb(&q, &mut Budget::unlimited()).is_none());
    }

    #[test]
    fn a_tier_past_its_budget_is_charged_for_what_it_did() {
        let rope = Rope::from_str(&"}\n\n".repeat(1_000));
        let needle = format!("{}x", "}\n\n".repeat(20));
        let exact = |n: &str| super::super::exact::find_exact(&rope, n, 0);
        let q = Query { rope: &rope, needle: &needle, from: 0, exact: &exact, marks_free: &|| false };
        let mut budget = Budget::new(10);
        assert!(fuzzy_tiers(&q, &mut budget).is_none());
        assert!(budget.stopped().is_some(), "{budget:?}");
    }
}
