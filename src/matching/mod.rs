//! Matching: where in a document an agent's `old_text` is (docs/architecture.md#matching).
//!
//! [`locate`] is the one entry point every replace tool uses, so counting and locating can never
//! follow different rules. It climbs the [`ladder`] (one row per tier, each given the search's
//! [`work::Budget`] as a value), stopping at the first step that finds anything:
//!
//! 1. [`exact`] — `memchr::memmem` over the rope's chunks;
//! 2. the fuzzy tiers of [`fuzzy`] (trailing whitespace, indentation, Unicode look-alikes,
//!    whitespace runs) on the needle as given;
//! 3. an elided needle ([`elide`]): its marker lines (`...`, `// ... existing code ...`) stand
//!    for lines it left out, and the pieces around them, each found once, in order and not far
//!    apart (exactly, else through the fuzzy tiers as a whole needle), place the region;
//! 4. copied gutters stripped ([`gutter`]) and the stripped needle searched exactly;
//! 5. the fuzzy tiers on the stripped needle.
//!
//! Step 3 after 1 and 2: a document may hold a marker-like line (`...` is a Python statement),
//! and then the needle as given is that text. Steps 1 and 2 before 4 and 5: a reading that
//! keeps every visible character of `old_text` beats one that drops a prefix as a gutter. Gutters are stripped only when every line carries
//! the same gutter shape *and* the document does not hold the lines as given: a YAML block
//! `  1: low` / `  2: mid` copied without its indentation is found at the indentation tier, not
//! as `low` / `mid` elsewhere. A one-line `60: 30 #  ` looks like a colon gutter, but in a
//! document holding `60: 30 # again` it is that text with trailing whitespace, not `30 #`
//! (the call-sequence model test found the engine editing `30 #` there).
//!
//! A match that is not exact says so in its [`MatchQuality`]; several fuzzy matches are
//! candidates like several exact ones — never a guess. When nothing matches, [`near`] finds the
//! closest regions and says what differs; [`recommend`] picks a clear winner among candidates,
//! or nothing. All offsets are char offsets into the searched rope.

pub mod elide;
pub mod exact;
pub mod fuzzy;
pub mod gutter;
pub mod kmp;
pub mod ladder;
pub mod line_key;
pub mod marks;
pub mod near;
pub mod normalize;
pub mod own_chars;
pub mod recommend;
pub mod stream;

use std::fmt;
use std::ops::Range;

use ropey::Rope;

pub use fuzzy::Reindent;
pub use normalize::Tier;
pub use work::Budget;

/// Applying a near-miss pick: only the change old_text → new_text, onto the region's own text.
pub mod three_way;

// Native only: property tests and the test host (src/internal_tests.rs) are not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod model_tests;
/// The work budget of one search: units counted, a search stopped past it.
pub mod work;

/// How a match was found: the tier, and whether copied gutters had to be stripped first.
/// Reported to the model as `match_quality` (`exact`, `gutter`, `indentation`,
/// `gutter+unicode`, …) so that a fuzzy match can never pass as an exact one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchQuality {
    /// `None`: exact.
    pub tier: Option<Tier>,
    pub gutter: bool,
    /// Found by the pieces around old_text's placeholder lines ([`elide`]), some of them only
    /// through `tier` (a fuzzy tier): `elided+indentation`.
    pub elided: bool,
}

impl MatchQuality {
    pub const EXACT: MatchQuality = MatchQuality { tier: None, gutter: false, elided: false };

    pub fn is_exact(self) -> bool {
        self == MatchQuality::EXACT
    }
}

impl fmt::Display for MatchQuality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (true, Some(t)) = (self.elided, self.tier) {
            return write!(f, "elided+{}", t.as_str());
        }
        match (self.gutter, self.tier) {
            (false, None) => f.write_str("exact"),
            (true, None) => f.write_str("gutter"),
            (false, Some(t)) => f.write_str(t.as_str()),
            (true, Some(t)) => write!(f, "gutter+{}", t.as_str()),
        }
    }
}

/// How a candidate relates to the needle: a match (exact or through a tier), or a near miss
/// offered after `NoMatch`. Reported as the candidate's `match_quality`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CandidateQuality {
    Match(MatchQuality),
    /// Similarity in 0..=1, shown as `similar:0.92` (truncated, see [`near::two_decimals`]).
    Similar(f64),
    /// A near miss of that similarity, staged by a three-way apply ([`three_way`]): only the
    /// change old_text → new_text, onto the region's own text. Shown as `similar:0.92+merged`.
    Merged(f64),
    /// Found once with old_text's escapes (`\n`, `\t`, `\"`) read as the characters
    /// ([`three_way::unescape`]), exactly or through a tier: `unescaped`, `unescaped+indentation`.
    Unescaped(MatchQuality),
}

impl CandidateQuality {
    pub fn is_exact(self) -> bool {
        self == CandidateQuality::Match(MatchQuality::EXACT)
    }
}

impl From<MatchQuality> for CandidateQuality {
    fn from(q: MatchQuality) -> CandidateQuality {
        CandidateQuality::Match(q)
    }
}

impl fmt::Display for CandidateQuality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CandidateQuality::Match(q) => q.fmt(f),
            CandidateQuality::Similar(s) => write!(f, "similar:{}", near::two_decimals(*s)),
            CandidateQuality::Merged(s) => write!(f, "similar:{}+merged", near::two_decimals(*s)),
            CandidateQuality::Unescaped(q) if q.is_exact() => f.write_str("unescaped"),
            CandidateQuality::Unescaped(q) => write!(f, "unescaped+{q}"),
        }
    }
}

/// One occurrence of the needle, as a char range into the searched text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub range: Range<usize>,
    pub quality: MatchQuality,
    /// For tiers that ignore leading whitespace: how `new_text` must be re-indented so it lands
    /// at this match's indentation (`range` then starts at the start of its first line).
    pub reindent: Option<Reindent>,
}

impl Match {
    pub fn exact(range: Range<usize>) -> Match {
        Match { range, quality: MatchQuality::EXACT, reindent: None }
    }

    /// `new_text` as it must be written at this match (re-indented for indentation-blind tiers).
    pub fn replacement(&self, new_text: &str) -> String {
        match &self.reindent {
            Some(r) => r.apply(new_text),
            None => new_text.to_string(),
        }
    }
}

/// Why a search could not even be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// `search_after` was given but does not occur in the text.
    AnchorNotFound { anchor: String },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::AnchorNotFound { anchor } => write!(f, "search_after text {anchor:?} does not occur in the document"),
        }
    }
}

impl std::error::Error for SearchError {}

/// Char offset just past the first occurrence of `anchor` (`search_after`: only matches starting
/// there or later count); 0 without an anchor. Cost: O(bytes up to the anchor + m).
pub fn anchor_end(rope: &Rope, anchor: Option<&str>) -> Result<usize, SearchError> {
    match anchor {
        None | Some("") => Ok(0),
        Some(anchor) => match exact::find_first_byte(rope, anchor) {
            Some(at) => Ok(rope.byte_to_char(at + anchor.len())),
            None => Err(SearchError::AnchorNotFound { anchor: anchor.to_string() }),
        },
    }
}

/// What [`locate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// Non-overlapping, in document order, all of one quality.
    pub matches: Vec<Match>,
    /// The needle that was searched: `old_text`, or `old_text` without its copied gutters.
    pub needle: String,
    /// The gutters stripped from the needle, when there were any.
    pub gutter: Option<gutter::Gutter>,
    /// Set when the fuzzy steps stopped at their work budget ([`work::SEARCH_BUDGET`]) before
    /// finding anything: `matches` is then empty without meaning that nothing matches. The
    /// near-miss search of the same needle ([`near::search`]) answers with this stop.
    pub stopped: Option<work::Stopped>,
    /// The search's budget after the tiers: the near-miss search of the same needle from the
    /// same place spends only what is left of it ([`near::search`]).
    pub budget: Budget,
}

impl Located {
    pub fn quality(&self) -> Option<MatchQuality> {
        self.matches.first().map(|m| m.quality)
    }
}

/// Every place `needle` occurs at or after char `from`, by the first tier of the [`ladder`]
/// that finds anything, within one search's budget ([`work::SEARCH_BUDGET`]). `needle` must
/// not be empty (the caller treats empty as "append").
///
/// Cost: O(n + m) for the exact step (memmem); the fuzzy steps add O(n) in the worst case and
/// are usually far cheaper (a verbatim token of the needle is searched first, see [`fuzzy`]).
pub fn locate(rope: &Rope, needle: &str, from: usize) -> Located {
    locate_within(rope, needle, from, Budget::search())
}

/// [`locate`] within `budget`. Cost: as [`locate`], at most about `budget`'s units besides the
/// exact step.
pub fn locate_within(rope: &Rope, needle: &str, from: usize, budget: Budget) -> Located {
    locate_with(rope, needle, from, &|n| exact::find_exact(rope, n, from), &|| false, budget)
}

/// [`locate`] on a draft given as layers (base text + pending replacements): the same result,
/// with the exact steps searching the base's kept flat copy and the text around each
/// replacement ([`exact::find_chars_layered`]) instead of the whole draft rope.
pub fn locate_layered(layers: &exact::Layered<'_>, needle: &str, from: usize) -> Located {
    locate_layered_within(layers, needle, from, Budget::search())
}

/// [`locate_layered`] within `budget`.
pub fn locate_layered_within(layers: &exact::Layered<'_>, needle: &str, from: usize, budget: Budget) -> Located {
    locate_with(layers.draft, needle, from, &|n| exact::find_exact_layered(layers, n, from), &|| layers.marks_free(), budget)
}

/// [`locate_layered_within`] whose exact step keeps at most `cap` matches of `needle`, and
/// whether it stopped there (`true`: more than `cap` places hold `needle` exactly; `matches` are
/// the first `cap`). Only the needle as given is capped: the pieces an elided needle is placed
/// by are searched whole. Cost: as [`locate_layered`], but the exact step stops at the cap
/// ([`exact::find_chars_layered_upto`]).
pub fn locate_layered_upto(layers: &exact::Layered<'_>, needle: &str, from: usize, cap: usize, budget: Budget) -> (Located, bool) {
    let capped = std::cell::Cell::new(false);
    let exact = |n: &str| {
        if n != needle {
            return exact::find_exact_layered(layers, n, from);
        }
        let (found, more) = exact::find_exact_layered_upto(layers, n, from, cap);
        capped.set(more);
        found
    };
    let located = locate_with(layers.draft, needle, from, &exact, &|| layers.marks_free(), budget);
    // A capped exact step found matches, so it is the answer (the steps stop at the first
    // that finds any).
    let capped = capped.get() && !located.matches.is_empty();
    (located, capped)
}

/// The [`ladder`] climbed with the exact search supplied, under `budget`: past it the tiers
/// stop, and the result says so (`stopped`, no matches) rather than passing a partial search
/// off as a complete one.
fn locate_with(
    rope: &Rope,
    needle: &str,
    from: usize,
    exact: &dyn Fn(&str) -> Vec<Match>,
    marks_free: &dyn Fn() -> bool,
    mut budget: Budget,
) -> Located {
    let query = ladder::Query { rope, needle, from, exact, marks_free };
    let found = ladder::climb(&query, &mut budget);
    let (mut matches, gutter) = found.map_or((Vec::new(), None), |f| (f.matches, f.gutter));
    let stopped = budget.stopped();
    if stopped.is_some() {
        // The exact step returns before any counted work, so a stop means a fuzzy or elided
        // step was cut short: whatever the steps returned (a later step's matches included, which an
        // unfinished earlier reading might have beaten) is not the answer.
        matches.clear();
    }
    // The near-miss search that follows is of the needle as searched last (without gutters
    // when they were stripped).
    let needle = gutter.as_ref().map_or_else(|| needle.to_string(), |g| g.text.clone());
    Located { matches, needle, gutter, stopped, budget }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(doc: &str, needle: &str) -> (Vec<String>, Option<String>) {
        let rope = Rope::from_str(doc);
        let l = locate(&rope, needle, 0);
        (l.matches.iter().map(|m| rope.slice(m.range.clone()).to_string()).collect(), l.quality().map(|q| q.to_string()))
    }

    #[test]
    fn exact_wins_over_every_fuzzy_tier() {
        // "a = 1" also matches "a  =  1" at the whitespace tier, but the exact hit stops the search.
        let (hits, q) = found("a  =  1\na = 1\n", "a = 1");
        assert_eq!(hits, vec!["a = 1"]);
        assert_eq!(q.as_deref(), Some("exact"));
    }

    #[test]
    fn gutters_are_stripped_then_searched() {
        let (hits, q) = found("one\ntwo\nthree\n", "   2│ two\n   3│ three");
        assert_eq!(hits, vec!["two\nthree"]);
        assert_eq!(q.as_deref(), Some("gutter"));
        let (hits, q) = found("one\n\ttwo()\n", "   2│     two()");
        assert_eq!(hits, vec!["\ttwo()"]);
        assert_eq!(q.as_deref(), Some("gutter+indentation"));
    }

    #[test]
    fn a_needle_that_matches_fuzzily_as_given_keeps_its_gutter_like_prefix() {
        // `60: ` looks like a colon gutter; the document holds `60: 30 #`, so the needle is that
        // with trailing whitespace — not `30 #` with a gutter.
        let (hits, q) = found("a - b\nttimeout: 60: 30 # again\n", "60: 30 #  \t");
        assert_eq!(hits, vec!["60: 30 #"]);
        assert_eq!(q.as_deref(), Some("trailing_whitespace"));
        // A real copied gutter still goes: nothing matches the needle as given.
        let (hits, q) = found("one\n  two  \n", "2: two");
        assert_eq!(hits, vec!["two"]);
        assert_eq!(q.as_deref(), Some("gutter"));
        let (hits, q) = found("one\n  two()\n", "   2│ two()  ");
        assert_eq!(hits, vec!["two()"]);
        assert_eq!(q.as_deref(), Some("gutter+trailing_whitespace"));
    }

    #[test]
    fn the_fuzzy_steps_and_the_near_miss_search_share_one_budget() {
        // Counted work: what the fuzzy steps of this search spend, then budgets just under and
        // just over it.
        let rope = Rope::from_str(&"}\n\n".repeat(100_000));
        let needle = format!("{}x", "}\n\n".repeat(200));
        let whole = locate(&rope, &needle, 0);
        let fuzzy = whole.budget.spent();
        assert!(whole.matches.is_empty() && whole.stopped.is_none());
        assert!(fuzzy > 1_000_000, "{fuzzy}");
        let l = locate_within(&rope, &needle, 0, Budget::new(fuzzy - 1));
        let stopped = l.stopped.expect("the fuzzy steps stop");
        assert!(l.matches.is_empty() && stopped.units > fuzzy - 1);
        // The near-miss search of the same needle answers with that stop, unsearched.
        let n = near::search(&rope, &needle, 0, 3, &l.budget);
        assert_eq!((n.stopped, n.found.len()), (Some(stopped), 0));
        let l = locate_within(&rope, &needle, 0, Budget::new(fuzzy + 1));
        assert_eq!(l.stopped, None);
        // What is left of the budget is too little for the near-miss pass.
        let n = near::search(&rope, &needle, 0, 3, &l.budget);
        assert!(n.stopped.is_some() && n.found.is_empty());
        // With a whole budget of its own it completes.
        let n = near::search(&rope, &needle, 0, 3, &Budget::search());
        assert!(n.stopped.is_none());
        // A fuzzy match before the budget runs out stands.
        let rope = Rope::from_str("fn a() {\n    x();\n}\n");
        let l = locate_within(&rope, "fn a() {\nx();", 0, Budget::new(1_000));
        assert_eq!((l.matches.len(), l.stopped), (1, None));
    }

    #[test]
    fn quality_names() {
        assert_eq!(MatchQuality::EXACT.to_string(), "exact");
        assert_eq!(MatchQuality { tier: Some(Tier::Unicode), gutter: false, elided: false }.to_string(), "unicode");
        assert_eq!(MatchQuality { tier: None, gutter: true, elided: false }.to_string(), "gutter");
    }

    #[test]
    fn anchor_end_is_past_the_first_occurrence() {
        let rope = Rope::from_str("x [a] y [a] z");
        assert_eq!(anchor_end(&rope, Some("[a]")), Ok(5));
        assert_eq!(anchor_end(&rope, None), Ok(0));
        assert_eq!(anchor_end(&rope, Some("[q]")), Err(SearchError::AnchorNotFound { anchor: "[q]".into() }));
    }
}
