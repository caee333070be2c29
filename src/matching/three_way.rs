//! Three-way apply (docs/architecture.md#matching): when `old_text` matched a region only
//! approximately (a near-miss candidate), the model's intended change is the difference between
//! `old_text` and `new_text`; [`merge`] puts only that change onto the region's actual text, with
//! `old_text` as the common base, like a three-way merge. Where the region differs from `old_text`
//! (an earlier edit the model does not remember, a misremembered token, escapes, an elided
//! middle, copied gutters) the region's text is kept; where the intended change touches such a
//! difference, new_text's text is written only when the region already made that part of the
//! change ([`complete`]), else the merge is refused ([`Outcome::Conflict`]).
//!
//! Plain data in and out, no wording: the caller words the response.
//!
//! # How
//!
//! The three texts are cut into tokens (runs of letters and digits, runs of spaces and tabs, a
//! line break, any other single character; combining marks stay with the character before
//! them, so no token boundary ever falls inside a character). Two token diffs against the base
//! (Myers, from `similar`) give the *intended* hunks (base → new_text) and the *drift* hunks
//! (base → region). Every hunk is a base token range and its replacement. Hunks that overlap
//! or touch (share an end point: an insertion right next to a change is ambiguous) form a
//! cluster; a cluster of one hunk applies it. A cluster holding hunks of both sides takes
//! new_text's text when the region's text there lies on a shortest char edit path to it, read
//! so by every alignment ([`complete`]; with other drift kept, only where the region's
//! difference is a reflow); else it is a conflict — even when both make the same change in a
//! way that can be read twice (two sides deleting one space each of `  ` leave the same text,
//! yet together delete both). Hunks that only meet at a token boundary are decided as one
//! cluster when no equal char separates their changes, or when a pure insertion or deletion
//! could slide over equal text into the other change: the two readings would give different
//! texts. Drift-only clusters keep the region's text. Because text outside the intended hunks
//! is the region's own, the result is the region with only the intended change applied.
//!
//! # Bounds
//!
//! No clock (see near/mod.rs: `similar`'s deadlines panic on wasm): after the common prefix and
//! suffix are trimmed, each diff runs on at most [`MAX_DIFF_TOKENS`] tokens (old + new), which
//! bounds Myers' O((a+b)·D) work at about 1.6·10⁷ steps; a larger difference is refused as
//! [`ConflictReason::TooLarge`].

use std::collections::HashMap;
use std::ops::Range;

mod blank;
mod complete;
mod decoded;

pub use super::elide::{elided_pieces, is_elision_line};
use super::marks::is_mark;
use crate::text_rules::myers_ops;
use complete::{completes, framed, Anchors};

/// Most tokens (both sides together, after trimming the common prefix and suffix) one diff of
/// [`merge`] runs on.
pub const MAX_DIFF_TOKENS: usize = 4_000;

/// What [`merge`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The intended change applied to the region's text.
    Merged(Merged),
    /// The intended change could not be applied safely; nothing should be written.
    Conflict(Conflict),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The region's text with the intended change applied.
    pub text: String,
    /// Places where the region differs from the base and was kept as it is (drift hunks).
    pub kept: usize,
    /// Intended changes applied.
    pub applied: usize,
    /// Drift hunks where the base held an elision marker line (`...`) and the region the lines
    /// it stood for.
    pub elided_kept: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub reason: ConflictReason,
    /// Char range in the base (`old_text`) of the first intended change that could not be
    /// applied (empty for [`ConflictReason::TooLarge`]).
    pub base_range: Range<usize>,
    /// What writing the intended change anyway would give: the region's text with every
    /// intended change, the new text winning wherever both differ from the base. `None` when
    /// the diff was too large to compute it.
    pub proposal: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConflictReason {
    /// The intended change touches text that differs between the base and the region.
    Overlap,
    /// The new text adds an elision marker line (`...`, `// ... existing code ...`): it stands
    /// for text the model left out and must never be written as text.
    Placeholder { line: String },
    /// The region holds line breaks, tabs or quotes where the base has escapes (`\n`, `\t`,
    /// `\"`), and the intended change adds backslashes: whether they are escapes is ambiguous.
    Escapes,
    /// The base has elision markers and the region differs from it outside them: the lines
    /// around the markers are what place the region, so it may be the wrong one.
    ElidedAnchorsDiffer,
    /// A diff would take more than `limit` tokens.
    TooLarge { tokens: usize, limit: usize },
}

/// Applies the change `base` → `ours` to `theirs` (the region's actual text), keeping every
/// difference between `base` and `theirs` that the change does not touch.
///
/// Cost: O(b + o + t) to tokenize and trim, then two Myers diffs of at most
/// [`MAX_DIFF_TOKENS`] tokens each, O(tokens·D). Errors: none; every failure is a
/// [`Outcome::Conflict`] saying why.
pub fn merge<'a>(base: &'a str, ours: &'a str, theirs: &'a str) -> Outcome {
    let b = tokens(base);
    let o = tokens(ours);
    let t = tokens(theirs);
    let mut ids: HashMap<&'a str, u32> = HashMap::new();
    let mut intern = |toks: &[&'a str]| -> Vec<u32> {
        toks.iter()
            .map(|&s| {
                let next = ids.len() as u32;
                *ids.entry(s).or_insert(next)
            })
            .collect()
    };
    let (bi, oi, ti) = (intern(&b), intern(&o), intern(&t));
    let intended = match hunks(&bi, &oi) {
        Ok(h) => h,
        Err(tokens) => return too_large(tokens),
    };
    let drift = match hunks(&bi, &ti) {
        Ok(h) => h,
        Err(tokens) => return too_large(tokens),
    };
    let char_at = |i: usize| b.iter().take(i).map(|s| s.chars().count()).sum::<usize>();
    let base_text: Vec<char> = base.chars().collect();
    let base_chars = |r: &Range<usize>| char_at(r.start)..char_at(r.end);

    let clusters = clusters(&intended, &drift);
    // Placeholder-like lines of the base that the region holds are content (elide::held_by).
    let placeholders = !super::elide::held_by(base, theirs);
    // Placeholders first: an elision marker added by the new text is never written.
    for h in &intended {
        let added: String = cat(&o, h.new.clone());
        let before: String = cat(&b, h.base.clone());
        // A rewrite of such a content line is content too; one added elsewhere is not.
        let rewrites_content = !placeholders && before.lines().any(is_elision_line);
        if let Some(line) = added.lines().find(|l| is_elision_line(l) && !before.lines().any(|x| x.trim() == l.trim()) && !rewrites_content)
        {
            let proposal = Some(proposal(&b, &o, &t, &intended, &drift, &clusters));
            return Outcome::Conflict(Conflict {
                reason: ConflictReason::Placeholder { line: line.trim().to_string() },
                base_range: base_chars(&h.base),
                proposal,
            });
        }
    }
    // Backslashes added next to an unescaping drift: the model may mean escapes or characters.
    let unescapes = drift.iter().any(|d| {
        // The char after the hunk completes an escape the diff cut (`\"` → `"` is a deleted `\`).
        let next = b.get(d.base.end).and_then(|s| s.chars().next()).map_or(String::new(), String::from);
        is_unescape(&(cat(&b, d.base.clone()) + &next), &(cat(&t, d.new.clone()) + &next))
    });
    if unescapes {
        if let Some(h) = intended.iter().find(|h| toks(&o, h.new.clone()).iter().any(|s| s.contains('\\'))) {
            return Outcome::Conflict(Conflict {
                reason: ConflictReason::Escapes,
                base_range: base_chars(&h.base),
                proposal: Some(proposal(&b, &o, &t, &intended, &drift, &clusters)),
            });
        }
    }
    // A pure insertion or deletion that could slide over equal text into the other side's
    // change (`a` inserted next to `a`) has more than one reading: the two are decided
    // together, as one cluster (written only when the region already made that part of the
    // change, see [`completes`]).
    let mut joins: Vec<(usize, usize)> = Vec::new();
    for (hi, di) in (0..intended.len()).flat_map(|h| (0..drift.len()).map(move |d| (h, d))) {
        let (Some(h), Some(d)) = (intended.get(hi), drift.get(di)) else { continue };
        if conflicts(h, d) {
            continue; // decided by its cluster
        }
        let ambiguous = reaches(&slide_span(&bi, &oi, h), h, d)
            || reaches(&slide_span(&bi, &ti, d), d, h)
            || slides_into(&b, &o, h, d)
            || slides_into(&b, &t, d, h)
            || meets_unseparated(&b, &o, h, &t, d)
            || meets_unseparated(&b, &t, d, &o, h)
            || chars_ambiguous(&base_text, &char_hunk(&b, &o, h), &char_hunk(&b, &t, d));
        if ambiguous {
            joins.push((hi, di));
        }
    }
    let clusters = join(clusters, &joins);
    // An elided old_text is anchored by the lines around its markers: a difference anywhere
    // else means the region may not be where those lines are.
    if placeholders && base.lines().any(is_elision_line) {
        if let Some(c) = clusters.iter().find(|c| !c.theirs.is_empty() && !cat(&b, c.base.clone()).lines().any(is_elision_line)) {
            return Outcome::Conflict(Conflict {
                reason: ConflictReason::ElidedAnchorsDiffer,
                base_range: base_chars(&c.base),
                proposal: Some(proposal(&b, &o, &t, &intended, &drift, &clusters)),
            });
        }
    }
    let mut text = String::new();
    let (mut applied, mut kept, mut elided_kept, mut already) = (0, 0, 0, 0);
    let mut anchors: Option<Option<(Anchors, Anchors)>> = None;
    // Drift-only clusters, and whether a completed cluster differed in more than whitespace.
    let (mut kept_only, mut completed_words) = (0, false);
    let mut at = 0;
    for (k, c) in clusters.iter().enumerate() {
        text.push_str(&cat(&b, at..c.base.start));
        if c.ours.is_empty() {
            kept_only += 1;
            kept += 1;
            elided_kept += usize::from(cat(&b, c.base.clone()).lines().any(is_elision_line));
            text.push_str(&c.version(&b, &t, &drift, false));
        } else if c.theirs.is_empty() {
            applied += 1;
            text.push_str(&c.version(&b, &o, &intended, true));
        } else if let Some(ours) = framed(&mut anchors, base, theirs, ours, &base_chars(&c.base))
            .then(|| completes(&cat(&b, c.base.clone()), &c.version(&b, &t, &drift, false), &c.version(&b, &o, &intended, true)))
            .flatten()
        {
            // The region already made part of the change here (a misremembered token new_text
            // spells as the document does, an escape new_text dropped as the document did):
            // new_text's text for the cluster is the region's plus the rest of the change.
            if ours.already {
                kept += 1;
                already += 1;
            } else {
                applied += 1;
            }
            completed_words |= !ours.blank;
            text.push_str(&ours.text);
        } else if let Some(both) = {
            // The equal text up to the neighbouring clusters goes along: a blank the region
            // deleted may slide along it across the change.
            let next = clusters.get(k + 1).map_or(b.len(), |n| n.base.start);
            let around = (cat(&b, at..c.base.start), cat(&b, c.base.end..next));
            blank::apart_within(&around, &cat(&b, c.base.clone()), &c.version(&b, &t, &drift, false), &c.version(&b, &o, &intended, true))
        } {
            // The region differs here only in blanks (a reflow): the change, in its breaks.
            applied += 1;
            kept += 1;
            text.push_str(&both);
        } else {
            return Outcome::Conflict(Conflict {
                reason: ConflictReason::Overlap,
                base_range: base_chars(&c.base),
                proposal: Some(proposal(&b, &o, &t, &intended, &drift, &clusters)),
            });
        }
        at = c.base.end;
    }
    text.push_str(&cat(&b, at..b.len()));
    if completed_words && kept_only > 0 {
        // new_text holds part of the region's difference in its words but not the rest: the
        // shared part may be a coincidence (an insertion both made next to each other), and
        // read apart the two would give another text. Completing is for a region whose whole
        // difference new_text holds (a misremembered token), or whose difference there is
        // only whitespace (a reflow: new_text's breaks around its change are taken).
        return Outcome::Conflict(Conflict {
            reason: ConflictReason::Overlap,
            base_range: 0..0,
            proposal: Some(proposal(&b, &o, &t, &intended, &drift, &clusters)),
        });
    }
    if applied == 0 && already > 0 {
        // Nothing of the change is left to make: the region already reads as new_text would
        // make it. That is not a merge; the caller tells the model the change is there.
        return Outcome::Conflict(Conflict {
            reason: ConflictReason::Overlap,
            base_range: 0..0,
            proposal: Some(proposal(&b, &o, &t, &intended, &drift, &clusters)),
        });
    }
    Outcome::Merged(Merged { text, kept, applied, elided_kept })
}

/// Hunks of both sides that must be decided together: connected by [`conflicts`].
struct Cluster {
    /// Base token range the cluster covers.
    base: Range<usize>,
    /// Indices into the intended hunks and the drift hunks.
    ours: Vec<usize>,
    theirs: Vec<usize>,
}

impl Cluster {
    /// The cluster's base range as one side has it: the base with that side's hunks of the
    /// cluster applied (outside its hunks, a side equals the base).
    fn version(&self, base: &[&str], side: &[&str], hunks: &[Hunk], ours: bool) -> String {
        let members = if ours { &self.ours } else { &self.theirs };
        let mut out = String::new();
        let mut at = self.base.start;
        for &i in members {
            let Some(h) = hunks.get(i) else { continue };
            out.push_str(&cat(base, at..h.base.start));
            out.push_str(&cat(side, h.new.clone()));
            at = h.base.end;
        }
        out.push_str(&cat(base, at..self.base.end));
        out
    }
}

/// Whether an intended hunk and a drift hunk cannot both be applied independently: their
/// base ranges overlap, both insert at one point, or one inserts strictly inside the other.
/// Hunks that only meet at an end (an insertion just after a changed token) are independent.
fn conflicts(a: &Hunk, b: &Hunk) -> bool {
    match (a.base.is_empty(), b.base.is_empty()) {
        (true, true) => a.base.start == b.base.start,
        (true, false) => b.base.start < a.base.start && a.base.start < b.base.end,
        (false, true) => a.base.start < b.base.start && b.base.start < a.base.end,
        (false, false) => a.base.start < b.base.end && b.base.start < a.base.end,
    }
}

/// The hunks of both sides in base order, grouped into clusters. Hunks of one side never
/// conflict with each other (a diff's runs are separated by equal text), so a cluster grows
/// only through hunks of the other side. Cost: O(h · cluster size).
fn clusters(intended: &[Hunk], drift: &[Hunk]) -> Vec<Cluster> {
    let mut all: Vec<(bool, usize)> = (0..intended.len()).map(|i| (true, i)).chain((0..drift.len()).map(|i| (false, i))).collect();
    let empty = Hunk { base: 0..0, new: 0..0 };
    let hunk = |(ours, i): (bool, usize)| (if ours { intended.get(i) } else { drift.get(i) }).unwrap_or(&empty);
    crate::sort::sort_by_key(&mut all, |&k| (hunk(k).base.start, hunk(k).base.end, !k.0));
    let mut out: Vec<Cluster> = Vec::new();
    for k in all {
        let h = hunk(k);
        let joins = out.last().is_some_and(|c| {
            let others = if k.0 { &c.theirs } else { &c.ours };
            let side = if k.0 { drift } else { intended };
            others.iter().filter_map(|&j| side.get(j)).any(|o| conflicts(h, o))
        });
        if !joins {
            out.push(Cluster { base: h.base.clone(), ours: Vec::new(), theirs: Vec::new() });
        }
        if let Some(c) = out.last_mut() {
            c.base = c.base.start.min(h.base.start)..c.base.end.max(h.base.end);
            if k.0 {
                c.ours.push(k.1)
            } else {
                c.theirs.push(k.1)
            }
        }
    }
    out
}

/// `clusters` with the clusters holding intended hunk `i` and drift hunk `d` of each pair of
/// `pairs`, and every cluster between them, made one. Cost: O(clusters · pairs).
fn join(clusters: Vec<Cluster>, pairs: &[(usize, usize)]) -> Vec<Cluster> {
    if pairs.is_empty() {
        return clusters;
    }
    let find = |ours: bool, i: usize| clusters.iter().position(|c| if ours { c.ours.contains(&i) } else { c.theirs.contains(&i) });
    // with_next[k]: cluster k is joined with cluster k + 1.
    let mut with_next = vec![false; clusters.len()];
    for &(i, d) in pairs {
        if let (Some(a), Some(b)) = (find(true, i), find(false, d)) {
            for k in a.min(b)..a.max(b) {
                if let Some(w) = with_next.get_mut(k) {
                    *w = true;
                }
            }
        }
    }
    let mut out: Vec<Cluster> = Vec::new();
    let mut open = false;
    for (k, c) in clusters.into_iter().enumerate() {
        match out.last_mut() {
            Some(last) if open => {
                last.base = last.base.start.min(c.base.start)..last.base.end.max(c.base.end);
                last.ours.extend(c.ours);
                last.theirs.extend(c.theirs);
            }
            _ => out.push(c),
        }
        open = with_next.get(k).copied().unwrap_or(false);
    }
    out
}

/// What writing the intended change anyway would give: each cluster as the new text has it.
fn proposal(b: &[&str], o: &[&str], t: &[&str], intended: &[Hunk], drift: &[Hunk], clusters: &[Cluster]) -> String {
    let mut text = String::new();
    let mut at = 0;
    for c in clusters {
        text.push_str(&cat(b, at..c.base.start));
        if c.ours.is_empty() {
            text.push_str(&c.version(b, t, drift, false));
        } else {
            text.push_str(&c.version(b, o, intended, true));
        }
        at = c.base.end;
    }
    text.push_str(&cat(b, at..b.len()));
    text
}

/// How [`merge_pick`] read `old_text` before merging.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Copied line-number gutters were stripped from old_text (and from new_text, when it had
    /// them).
    pub gutters: bool,
    /// old_text's escapes (`\n`, `\t`, `\"`…) were read as the characters: the region has
    /// no backslash at all (new_text's read the same way), or it has backslashes and old_text
    /// unescaped is closer to it (new_text's read the same way when that makes the smaller
    /// change).
    pub unescaped: bool,
    /// The region's escapes were read as the characters old_text has, and the change written
    /// with them ([`decoded::merge_decoded`]).
    pub decoded: bool,
}

/// [`merge`] for a near-miss pick of `old_text`, after two readings that are not part of the
/// change: copied line-number gutters on every line of `old_text` ([`super::gutter`]) are
/// stripped (from `new_text` too when it has them), and when `old_text` holds escapes where
/// the region has no backslash at all, both texts are unescaped ([`unescape`]) — unless
/// `new_text` holds more escapes than `old_text`, which is refused as
/// [`ConflictReason::Escapes`]: the change may add real escapes. When the region has
/// backslashes of its own, `old_text` is unescaped only if that brings it closer to the region
/// (one level of escaping too many: `\\n` for the document's `\n`), and `new_text` only if
/// that makes the smaller change; new escapes of a kind `old_text` never used are refused.
/// The other way round, a region writing escapes where `old_text` has the characters (closer
/// to it decoded) is merged decoded and written back with its escapes
/// ([`decoded::merge_decoded`]). Cost: as [`merge`] (twice for an escaped region), plus O(n)
/// for the readings and up to six char diffs of at most [`MAX_DISTANCE_CHARS`] chars, O(n·D).
pub fn merge_pick(old_text: &str, new_text: &str, region: &str) -> (Outcome, Reading) {
    let mut reading = Reading::default();
    let (mut old, mut new) = (old_text.to_string(), new_text.to_string());
    if let Some(g) = super::gutter::strip(&old).filter(|g| !g.text.is_empty()) {
        new = super::gutter::strip_kind(&new, g.kind).unwrap_or(new);
        old = g.text;
        reading.gutters = true;
    }
    let escapes = count_escapes(&old);
    if escapes > 0 && !region.contains('\\') {
        if count_escapes(&new) > escapes {
            let outcome = Outcome::Conflict(Conflict { reason: ConflictReason::Escapes, base_range: 0..0, proposal: None });
            return (outcome, reading);
        }
        old = unescape(&old);
        new = unescape(&new);
        reading.unescaped = true;
    } else if escapes > 0 {
        // The region has backslashes of its own (code): old_text escaped once more than the
        // document (`\\n` for its `\n`) when unescaping brings it closer to the region.
        let unescaped_old = unescape(&old);
        if let (Some(now), Some(then)) = (char_distance(&unescaped_old, region), char_distance(&old, region)) {
            if now < then {
                // new_text either escaped the same way or was written as the document reads:
                // the reading that makes the smaller change.
                let unescaped_new = unescape(&new);
                let escaped_new = match (char_distance(&unescaped_old, &unescaped_new), char_distance(&unescaped_old, &new)) {
                    (Some(a), Some(b)) => a < b,
                    _ => false,
                };
                if escaped_new && !escape_kinds(&new).iter().all(|k| escape_kinds(&old).contains(k)) {
                    // A kind of escape old_text never used: whether it is one is ambiguous.
                    let outcome = Outcome::Conflict(Conflict { reason: ConflictReason::Escapes, base_range: 0..0, proposal: None });
                    return (outcome, reading);
                }
                if escaped_new {
                    new = unescaped_new;
                }
                old = unescaped_old;
                reading.unescaped = true;
            }
        }
    }
    // The region writes escapes where old_text has the characters (a JSON string): the change
    // is made on what they stand for and written with the region's escapes, never as raw
    // characters inside its string.
    let closer =
        |decoded: &str| matches!((char_distance(&old, decoded), char_distance(&old, region)), (Some(now), Some(then)) if now < then);
    if let Some(m) = decoded::merge_decoded(&old, &new, region, closer) {
        reading.decoded = true;
        return (Outcome::Merged(m), reading);
    }
    (merge(&old, &new, region), reading)
}

/// Most chars (both texts together, common prefix and suffix trimmed) [`char_distance`] diffs.
const MAX_DISTANCE_CHARS: usize = 8_000;

/// Chars deleted plus inserted by a shortest edit script from `a` to `b`; `None` past
/// [`MAX_DISTANCE_CHARS`]. Cost: O((a + b)·D) after trimming the common prefix and suffix.
fn char_distance(a: &str, b: &str) -> Option<usize> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (a, b) = (a.get(prefix..).unwrap_or_default(), b.get(prefix..).unwrap_or_default());
    let suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (a.get(..a.len() - suffix).unwrap_or_default(), b.get(..b.len() - suffix).unwrap_or_default());
    if a.len() + b.len() > MAX_DISTANCE_CHARS {
        return None;
    }
    let mut d = 0;
    for op in myers_ops(a, b) {
        let (tag, x, y) = op.as_tag_tuple();
        if tag != similar::DiffTag::Equal {
            d += x.len() + y.len();
        }
    }
    Some(d)
}

/// The chars after the backslash of each escape [`unescape`] would turn into a character.
/// Cost: O(n).
fn escape_kinds(text: &str) -> Vec<char> {
    let mut kinds = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(k) = chars.next().filter(|k| "nrt\"'\\".contains(*k)) {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
        }
    }
    kinds
}

/// How many escapes [`unescape`] would turn into characters. Cost: O(n).
pub fn count_escapes(text: &str) -> usize {
    text.len() - unescape(text).len()
}

/// Tokens `r` of `t` (none when `r` is out of range: hunk ranges come from diffs over the same
/// tokens, so that does not happen).
fn toks<'t, 'a>(t: &'t [&'a str], r: Range<usize>) -> &'t [&'a str] {
    t.get(r).unwrap_or_default()
}

/// Tokens `r` of `t` as one string.
fn cat(t: &[&str], r: Range<usize>) -> String {
    toks(t, r).concat()
}

fn too_large(tokens: usize) -> Outcome {
    Outcome::Conflict(Conflict { reason: ConflictReason::TooLarge { tokens, limit: MAX_DIFF_TOKENS }, base_range: 0..0, proposal: None })
}

/// One difference against the base: base tokens `base` became the other side's tokens `new`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Hunk {
    base: Range<usize>,
    new: Range<usize>,
}

/// The base range a pure insertion or deletion could equally sit anywhere in (it slides over
/// equal tokens: inserting `a b` after `a` is inserting `b a` before it); the hunk's own base
/// range for a replacement. Cost: O(slide).
// Bounds: `lo - 1` and `b - 1` are read only while `lo > 0` / `a > 0` (and b > a); `hi`, `b` only
// while below `base.len()`, `a < b`; `k % n` and `(2n - 1 - k % n) % n` are below `n`, the
// non-empty insertion's length; the hunk's ranges come from a diff over `base` and `side`.
#[allow(clippy::indexing_slicing)]
fn slide_span(base: &[u32], side: &[u32], h: &Hunk) -> Range<usize> {
    let (mut lo, mut hi) = (h.base.start, h.base.end);
    if h.base.is_empty() && !h.new.is_empty() {
        let ins = &side[h.new.clone()];
        let n = ins.len();
        // Left: the inserted run rotates right as it passes equal base tokens.
        let mut k = 0;
        while lo > 0 && base[lo - 1] == ins[(n - 1 + n - (k % n)) % n] {
            lo -= 1;
            k += 1;
        }
        let mut k = 0;
        while hi < base.len() && base[hi] == ins[k % n] {
            hi += 1;
            k += 1;
        }
    } else if h.new.is_empty() && !h.base.is_empty() {
        let (p, q) = (h.base.start, h.base.end);
        let (mut a, mut b) = (p, q);
        while a > 0 && base[a - 1] == base[b - 1] {
            a -= 1;
            b -= 1;
        }
        lo = a;
        let (mut a, mut b) = (p, q);
        while b < base.len() && base[a] == base[b] {
            a += 1;
            b += 1;
        }
        hi = b;
    }
    lo..hi
}

/// Whether `left` ends where `right` starts with no equal char between their changes: tokens
/// are words with their trailing blanks, so `\\` → `\\ ` is a space inserted at the end, and
/// an insertion just after it is a second insertion at one point, in no defined order. A
/// change that keeps its last char (`promt` → `prompt`) separates them.
fn meets_unseparated(base: &[&str], left_side: &[&str], left: &Hunk, right_side: &[&str], right: &Hunk) -> bool {
    if left.base.end != right.base.start {
        return false;
    }
    let kept_last = edge_kept(&cat(base, left.base.clone()), &cat(left_side, left.new.clone()), false);
    let kept_first = edge_kept(&cat(base, right.base.clone()), &cat(right_side, right.new.clone()), true);
    !kept_last && !kept_first
}

/// Whether the change `was` → `now` keeps at least one char of `was` before it (`at_start`) or
/// after it, wherever it could sit: `30` → `3030` is an insertion that may be at the start, so
/// it keeps nothing there for sure. Cost: O(len).
fn edge_kept(was: &str, now: &str, at_start: bool) -> bool {
    let (mut w, mut n): (Vec<char>, Vec<char>) = (was.chars().collect(), now.chars().collect());
    if !at_start {
        // The end, seen from the other side.
        w.reverse();
        n.reverse();
    }
    let prefix = w.iter().zip(&n).take_while(|(a, b)| a == b).count();
    let suffix = w.iter().rev().zip(n.iter().rev()).take(w.len().min(n.len()) - prefix).take_while(|(a, b)| a == b).count();
    let deleted = w.len() - prefix - suffix;
    let inserted = n.len() - prefix - suffix;
    let mut start = prefix;
    if deleted == 0 && inserted > 0 {
        // A pure insertion slides back while the char before it ends the inserted run.
        let run: Vec<char> = n.iter().skip(prefix).take(inserted).copied().collect();
        let mut k = 0;
        while start > 0 && w.get(start - 1) == run.get((2 * inserted - 1 - (k % inserted)) % inserted) {
            start -= 1;
            k += 1;
        }
    } else if inserted == 0 && deleted > 0 {
        while start > 0 && w.get(start - 1) == w.get(start - 1 + deleted) {
            start -= 1;
        }
    }
    start > 0
}

/// Whether `h`, a pure insertion or deletion that meets `other` at one end, could slide a
/// char into it: tokens are words, so inserting `r=` inside `bar` reads as inserting `=r`
/// after it, and next to a change of `bar` the two readings give different texts.
fn slides_into(base: &[&str], side: &[&str], h: &Hunk, other: &Hunk) -> bool {
    let before = |i: usize| toks(base, 0..i).iter().rev().find_map(|t| t.chars().last());
    let at = |i: usize| toks(base, i..base.len()).iter().find_map(|t| t.chars().next());
    let (p, q) = (h.base.start, h.base.end);
    let moved: String = if h.base.is_empty() && !h.new.is_empty() {
        cat(side, h.new.clone())
    } else if h.new.is_empty() && !h.base.is_empty() {
        cat(base, h.base.clone())
    } else {
        return false;
    };
    let left = other.base.end == p && other.base.start <= p && before(p).is_some_and(|c| moved.ends_with(c));
    let right = other.base.start == q && other.base.end >= q && at(q).is_some_and(|c| moved.starts_with(c));
    left || right
}

/// Whether `other` lies in or on the edge of `span`, the range hunk `own` could slide over.
/// A hunk that cannot slide (`span` is its own range) reaches nothing here: [`conflicts`] and
/// [`meets_unseparated`] decide it. One that can is ambiguous even at the edge (two insertions
/// at one point, in no defined order).
fn reaches(span: &Range<usize>, own: &Hunk, other: &Hunk) -> bool {
    if *span == own.base {
        return false;
    }
    other.base.start <= span.end && span.start <= other.base.end
}

/// A hunk in chars: the base char range it changes once the chars its two sides share at the
/// edges are left out, and what it puts there.
struct CharHunk {
    base: Range<usize>,
    inserted: Vec<char>,
}

fn char_hunk(base: &[&str], side: &[&str], h: &Hunk) -> CharHunk {
    let offset: usize = toks(base, 0..h.base.start).iter().map(|t| t.chars().count()).sum();
    let was: Vec<char> = cat(base, h.base.clone()).chars().collect();
    let now: Vec<char> = cat(side, h.new.clone()).chars().collect();
    let prefix = was.iter().zip(&now).take_while(|(a, b)| a == b).count();
    let suffix = was.iter().rev().zip(now.iter().rev()).take(was.len().min(now.len()) - prefix).take_while(|(a, b)| a == b).count();
    CharHunk {
        base: offset + prefix..offset + was.len() - suffix,
        inserted: now.get(prefix..now.len() - suffix).unwrap_or_default().to_vec(),
    }
}

/// The base char range a pure insertion or deletion could sit anywhere in (it slides over
/// equal chars); a replacement's own range. Cost: O(slide).
fn char_slide(base: &[char], h: &CharHunk) -> Range<usize> {
    let (mut lo, mut hi) = (h.base.start, h.base.end);
    let n = h.inserted.len();
    if h.base.is_empty() && n > 0 {
        let mut k = 0;
        while lo > 0 && base.get(lo - 1) == h.inserted.get((2 * n - 1 - (k % n)) % n) {
            lo -= 1;
            k += 1;
        }
        let mut k = 0;
        while base.get(hi).is_some() && base.get(hi) == h.inserted.get(k % n) {
            hi += 1;
            k += 1;
        }
    } else if n == 0 && !h.base.is_empty() {
        let len = h.base.len();
        while lo > 0 && base.get(lo - 1) == base.get(lo - 1 + len) {
            lo -= 1;
        }
        while base.get(hi).is_some() && base.get(hi) == base.get(hi - len) {
            hi += 1;
        }
    }
    lo..hi
}

/// Whether two hunks of different sides, read in chars, have more than one reading: both
/// insert at one point, or one could slide over equal chars up to the other.
fn chars_ambiguous(base: &[char], a: &CharHunk, b: &CharHunk) -> bool {
    if a.base.is_empty() && b.base.is_empty() && a.base.start == b.base.start && !a.inserted.is_empty() && !b.inserted.is_empty() {
        return true;
    }
    // Where each could sit: two that could meet there (a slid one even at the edge) have
    // more than one reading.
    let (sa, sb) = (char_slide(base, a), char_slide(base, b));
    let slides = sa != a.base || sb != b.base;
    slides && sb.start <= sa.end && sa.start <= sb.end
}

/// The non-equal runs of a token diff of `a` → `b` as hunks, or the token count when the
/// diff would exceed [`MAX_DIFF_TOKENS`].
fn hunks(a: &[u32], b: &[u32]) -> Result<Vec<Hunk>, usize> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a_rest, b_rest) = (a.get(prefix..).unwrap_or_default(), b.get(prefix..).unwrap_or_default());
    let suffix = a_rest.iter().rev().zip(b_rest.iter().rev()).take_while(|(x, y)| x == y).count();
    let ar = a_rest.get(..a_rest.len() - suffix).unwrap_or_default();
    let br = b_rest.get(..b_rest.len() - suffix).unwrap_or_default();
    if ar.len() + br.len() > MAX_DIFF_TOKENS {
        return Err(ar.len() + br.len());
    }
    if ar.is_empty() && br.is_empty() {
        return Ok(Vec::new());
    }
    let mut out: Vec<Hunk> = Vec::new();
    let mut open = false;
    for op in myers_ops(ar, br) {
        let (tag, o, n) = op.as_tag_tuple();
        let (o, n) = (o.start + prefix..o.end + prefix, n.start + prefix..n.end + prefix);
        if tag == similar::DiffTag::Equal {
            open &= o.is_empty();
            continue;
        }
        match out.last_mut() {
            Some(last) if open => {
                last.base.end = o.end;
                last.new.end = n.end;
            }
            _ => out.push(Hunk { base: o, new: n }),
        }
        open = true;
    }
    Ok(out)
}

/// The tokens of `text`, concatenating back to it: a run of letters, digits and `_`, or any
/// other single character (a line break included), each with the spaces and tabs after it; a
/// combining mark (and ZWJ, skin tones) stays with the character before it; CJK ideographs,
/// kana and hangul are a token each. Blanks ride on the token before them so that a diff
/// cannot align two texts on their spaces alone (a space matches everywhere; `12 | fn` →
/// `fn` would otherwise be aligned space to space). Leading blanks of the text are a token.
/// Cost: O(n) (plus a binary search per char at or above U+0300).
pub fn tokens(text: &str) -> Vec<&str> {
    let word = crate::text_rules::is_word_char;
    let blank = |c: char| c == ' ' || c == '\t';
    let mut out = Vec::new();
    let mut start = 0;
    // The last char that was not a mark or a blank, and whether blanks followed it.
    let mut prev: Option<char> = None;
    let mut in_blanks = false;
    for (i, c) in text.char_indices() {
        if i > 0 && is_mark(c) && !in_blanks {
            continue;
        }
        if blank(c) {
            in_blanks = true;
            continue;
        }
        let split = match prev {
            None => i > 0, // leading blanks
            Some(p) => in_blanks || !(word(p) && word(c)),
        };
        if split {
            out.push(text.get(start..i).unwrap_or_default());
            start = i;
        }
        prev = Some(c);
        in_blanks = false;
    }
    if start < text.len() {
        out.push(text.get(start..).unwrap_or_default());
    }
    out
}

/// Whether the region's `found` is `expected` with its escapes turned into the characters
/// (`\n` → line break, `\t` → tab, `\"` → `"`, `\'` → `'`, `\\` → `\`), and they differ.
pub fn is_unescape(expected: &str, found: &str) -> bool {
    expected != found && expected.contains('\\') && unescape(expected) == found
}

/// `text` with `\n`, `\t`, `\r`, `\"`, `\'` and `\\` turned into the characters they stand
/// for; other backslashes stay. Cost: O(n).
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            let real = match chars.peek() {
                Some('n') => Some('\n'),
                Some('t') => Some('\t'),
                Some('r') => Some('\r'),
                Some('"') => Some('"'),
                Some('\'') => Some('\''),
                Some('\\') => Some('\\'),
                _ => None,
            };
            if let Some(r) = real {
                chars.next();
                out.push(r);
                continue;
            }
        }
        out.push(c);
    }
    out
}

// Native only: property tests and the test host (src/internal_tests.rs) are not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod model_tests;
#[cfg(test)]
mod tests;
