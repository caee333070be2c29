//! `memo_find`: a document's natural units ranked against a query (docs/tools.md#memo_find).
//! Units come from [`units`]; the ranking is BM25 ([`bm25`]), or BM25 combined with the cosine
//! similarity of embeddings the host computed (docs/decisions.md#memo_find-ranking).
//!
//! Pure functions over plain data; no clock. Work is bounded by [`units::MAX_UNITS`] units of at
//! most [`bm25::MAX_UNIT_CHARS`] indexed chars each, and [`MAX_INDEX_CHARS`] in all.

pub mod bm25;
pub mod units;

// Native only: the tests use proptest, a native dev-dependency (the wasm test build has none).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use std::ops::Range;

pub use units::{Unit, UnitKind};

/// Most chars indexed over all units of one document; later units are not ranked.
pub const MAX_INDEX_CHARS: usize = 4_000_000;
/// The best candidate is recommended only when its score is at least this many times the
/// second's (docs/decisions.md#memo_find-ranking).
pub const RECOMMEND_MARGIN: f64 = 1.5;
/// Weight of the cosine similarity in the combined score; BM25 (divided by the best BM25
/// score) has the rest.
pub const COSINE_WEIGHT: f64 = 0.5;
/// Most candidates one call lists.
pub const MAX_LIMIT: usize = 26;

/// A unit and the text that is ranked for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexed {
    pub unit: Unit,
    /// Its heading lines, joined.
    pub head: String,
    /// Its own lines after the heading, without the lines of units of its kind nested in it (a
    /// section's subsections, a block's inner blocks): those are ranked on their own, so one
    /// section over the whole document does not win every query.
    pub body: String,
}

impl Indexed {
    /// What an embedder is given for this unit: its heading path, head and body, clipped.
    /// O(len).
    pub fn embed_text(&self) -> String {
        let mut s = self.unit.heading_path.join(" › ");
        for part in [&self.head, &self.body] {
            if !part.is_empty() {
                s.push('\n');
                s.push_str(part);
            }
        }
        s.chars().take(bm25::MAX_UNIT_CHARS).collect()
    }
}

/// The units of `lines` with their ranked text. Cost: O(units · log units + chars indexed),
/// at most [`MAX_INDEX_CHARS`].
pub fn index(lines: &[&str], code: bool) -> Vec<Indexed> {
    let units = units::units(lines, code);
    let mut out = Vec::with_capacity(units.len());
    let mut budget = MAX_INDEX_CHARS;
    for (i, u) in units.iter().enumerate() {
        let own = own_lines(&units, i);
        let head_end = u.lines.start + u.head_lines;
        let mut head = String::new();
        let mut body = String::new();
        for r in own {
            for l in r {
                let Some(line) = lines.get(l) else { continue };
                let dest = if l < head_end { &mut head } else { &mut body };
                if dest.len() < bm25::MAX_UNIT_CHARS {
                    dest.push_str(line);
                    dest.push('\n');
                }
            }
        }
        let size = head.len() + body.len();
        if size > budget {
            break;
        }
        budget -= size;
        out.push(Indexed { unit: u.clone(), head, body });
    }
    out
}

/// The lines of unit `i` not inside a unit of the same kind nested in it, as ranges.
/// `units` is sorted by start (enclosing first). Cost: O(children · log units).
fn own_lines(units: &[Unit], i: usize) -> Vec<Range<usize>> {
    let Some(u) = units.get(i) else { return Vec::new() };
    let mut out = Vec::new();
    let mut at = u.lines.start;
    let mut j = i + 1;
    while let Some(c) = units.get(j) {
        if c.lines.start >= u.lines.end {
            break;
        }
        if c.kind == u.kind && c.lines.end <= u.lines.end && c.lines.start >= at {
            if c.lines.start > at {
                out.push(at..c.lines.start);
            }
            at = c.lines.end;
            // Skip what this child holds.
            j = units.partition_point(|x| x.lines.start < c.lines.end).max(j + 1);
            continue;
        }
        j += 1;
    }
    if at < u.lines.end {
        out.push(at..u.lines.end);
    }
    out
}

/// One ranked unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Index into the [`index`] list.
    pub index: usize,
    pub score: f64,
}

/// Candidates best first, at most `limit`, none overlapping a better one, and whether the first
/// is clearly ahead.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking {
    pub found: Vec<Found>,
    pub recommended: bool,
}

/// Ranks `indexed` for `query`: BM25 alone, or with `vectors` (one per unit, then the query's
/// last) BM25 divided by its best score, weighted `1 − COSINE_WEIGHT`, plus the cosine
/// similarity (below 0 counts 0) weighted [`COSINE_WEIGHT`]. Units scoring 0 are not listed;
/// a unit overlapping a better listed one is skipped (a paragraph of a listed section). Ties
/// keep document order. Cost: O(units · (query terms · log terms + dims) + units log units).
pub fn rank(indexed: &[Indexed], query: &str, limit: usize, vectors: Option<&[Vec<f32>]>) -> Ranking {
    let docs: Vec<bm25::DocTerms> = indexed.iter().map(|x| bm25::DocTerms::of(&x.head, &x.body)).collect();
    let terms = bm25::query_terms(query);
    let mut scores = bm25::scores(&docs, &terms);
    if let Some((q, units)) = vectors.and_then(|v| v.split_last()).filter(|(_, u)| u.len() == indexed.len()) {
        let best = scores.iter().copied().fold(0.0, f64::max);
        for (s, v) in scores.iter_mut().zip(units) {
            let lexical = if best > 0.0 { *s / best } else { 0.0 };
            *s = (1.0 - COSINE_WEIGHT) * lexical + COSINE_WEIGHT * cosine(v, q).max(0.0);
        }
    }
    let mut order: Vec<usize> = (0..scores.len()).filter(|&i| scores.get(i).is_some_and(|s| *s > 0.0)).collect();
    crate::sort::sort_by(&mut order, |&a, &b| {
        let (sa, sb) = (scores.get(a).copied().unwrap_or(0.0), scores.get(b).copied().unwrap_or(0.0));
        sb.total_cmp(&sa).then(a.cmp(&b))
    });
    let mut found: Vec<Found> = Vec::new();
    let mut second = 0.0;
    for i in order {
        let Some(x) = indexed.get(i) else { continue };
        let score = scores.get(i).copied().unwrap_or(0.0);
        let overlaps = found
            .iter()
            .any(|f| indexed.get(f.index).is_some_and(|y| y.unit.lines.start < x.unit.lines.end && x.unit.lines.start < y.unit.lines.end));
        if overlaps {
            continue;
        }
        if found.len() == 1 {
            second = score;
        }
        if found.len() < limit {
            found.push(Found { index: i, score });
        } else {
            break;
        }
    }
    let recommended = found.first().is_some_and(|f| f.score > 0.0 && f.score >= RECOMMEND_MARGIN * second);
    Ranking { found, recommended }
}

/// Cosine similarity of two vectors (0 when either is zero or their lengths differ). O(dims).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut dot, mut na, mut nb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na <= 0.0 || nb <= 0.0 || !dot.is_finite() {
        return 0.0;
    }
    dot / (na.sqrt() * nb.sqrt())
}

/// A content hash of an embed text: the embedding cache's key. O(len).
pub fn text_hash(s: &str) -> u64 {
    // FNV-1a: stable across builds and platforms, which a cache key must be.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
