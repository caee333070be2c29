//! BM25 over a document's units (docs/decisions.md#memo_find-ranking): the terms, their
//! weights and the score. No model, no clock: pure functions over plain data.
//!
//! Terms are case-folded. An identifier is kept whole and also split on `_` and camelCase
//! (`parseConfigFile` → `parseconfigfile`, `parse`, `config`, `file`), so a query can name it
//! either way. A run of CJK letters gives each character and each pair of neighbours
//! (`配置文件` → `配`, `置`, `文`, `件`, `配置`, `置文`, `文件`), so Chinese needs no dictionary.

use crate::text_rules::{is_cjk, lower_chars, push_lower};

/// BM25's term-frequency saturation.
pub const K1: f64 = 1.2;
/// BM25's length normalisation.
pub const B: f64 = 0.75;
/// Weight of a term in a unit's heading lines (a Markdown heading, a code block's head line).
pub const HEAD_WEIGHT: f64 = 3.0;
/// Weight of a whole compound identifier (`parse_config`, `parseConfig`): naming it exactly
/// counts more than sharing its parts.
pub const IDENT_WEIGHT: f64 = 1.5;
/// Chars of one unit that are tokenised; the rest of a long unit is not indexed.
pub const MAX_UNIT_CHARS: usize = 8_000;
/// Most query terms used.
pub const MAX_QUERY_TERMS: usize = 64;

/// Calls `emit(term, weight)` for every term of `text`. Cost: O(len of text).
pub fn terms(text: &str, mut emit: impl FnMut(String, f64)) {
    let chars: Vec<char> = text.chars().take(MAX_UNIT_CHARS).collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if is_cjk(c) {
            let start = i;
            while chars.get(i).is_some_and(|c| is_cjk(*c)) {
                i += 1;
            }
            let run = chars.get(start..i).unwrap_or_default();
            for (j, ch) in run.iter().enumerate() {
                emit(ch.to_string(), 1.0);
                if let Some(next) = run.get(j + 1) {
                    emit([*ch, *next].iter().collect(), 1.0);
                }
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while chars.get(i).is_some_and(|c| (c.is_alphanumeric() || *c == '_') && !is_cjk(*c)) {
                i += 1;
            }
            identifier(chars.get(start..i).unwrap_or_default(), &mut emit);
        } else {
            i += 1;
        }
    }
}

/// One identifier: its parts, and the whole when it has more than one. O(len).
fn identifier(run: &[char], emit: &mut impl FnMut(String, f64)) {
    let mut parts: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (k, &c) in run.iter().enumerate() {
        if c == '_' {
            if !cur.is_empty() {
                parts.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = k.checked_sub(1).and_then(|p| run.get(p)).copied();
        let next = run.get(k + 1).copied();
        // `parseConfig` → parse|Config; `HTTPServer` → HTTP|Server.
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next.is_some_and(char::is_lowercase)));
        if boundary && !cur.is_empty() {
            parts.push(std::mem::take(&mut cur));
        }
        push_lower(&mut cur, c);
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    if parts.len() > 1 {
        emit(lower_chars(run.iter().copied().filter(|c| *c != '_')), IDENT_WEIGHT);
    }
    for p in parts {
        emit(p, 1.0);
    }
}

/// A unit's weighted term frequencies (sorted by term, each once) and weighted length.
#[derive(Clone, Debug, Default)]
pub struct DocTerms {
    tf: Vec<(String, f64)>,
    pub len: f64,
}

impl DocTerms {
    /// The terms of a unit whose heading is `head` and body `body`.
    /// Cost: O(t log t) for the t terms of both (at most [`MAX_UNIT_CHARS`] chars each).
    pub fn of(head: &str, body: &str) -> DocTerms {
        let mut all: Vec<(String, f64)> = Vec::new();
        for (text, w) in [(head, HEAD_WEIGHT), (body, 1.0)] {
            terms(text, |t, tw| all.push((t, w * tw)));
        }
        let len = all.iter().map(|(_, w)| w).sum();
        // The crate's one sort instantiation (src/sort.rs): a copy per call site costs wasm.
        crate::sort::sort_by(&mut all, |a, b| a.0.cmp(&b.0));
        let mut tf: Vec<(String, f64)> = Vec::with_capacity(all.len());
        for (t, w) in all {
            match tf.last_mut() {
                Some((last, sum)) if *last == t => *sum += w,
                _ => tf.push((t, w)),
            }
        }
        DocTerms { tf, len }
    }

    /// The weighted frequency of `term`. O(log terms).
    pub fn get(&self, term: &str) -> Option<f64> {
        let at = self.tf.binary_search_by(|(t, _)| t.as_str().cmp(term)).ok()?;
        self.tf.get(at).map(|(_, w)| *w)
    }
}

/// The distinct terms of a query, at most [`MAX_QUERY_TERMS`]. O(len of query).
pub fn query_terms(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    terms(query, |t, _| {
        if out.len() < MAX_QUERY_TERMS && !out.contains(&t) {
            out.push(t);
        }
    });
    out
}

/// The BM25 score of every doc for `query` (same order as `docs`); 0 for a doc sharing no term.
/// Cost: O(docs · query terms · log terms per doc).
pub fn scores(docs: &[DocTerms], query: &[String]) -> Vec<f64> {
    let n = docs.len() as f64;
    if docs.is_empty() {
        return Vec::new();
    }
    let avg = (docs.iter().map(|d| d.len).sum::<f64>() / n).max(1.0);
    let idf: Vec<f64> = query
        .iter()
        .map(|t| {
            let df = docs.iter().filter(|d| d.get(t).is_some()).count() as f64;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect();
    docs.iter()
        .map(|d| {
            let norm = K1 * (1.0 - B + B * d.len / avg);
            query
                .iter()
                .zip(&idf)
                .map(|(t, idf)| match d.get(t) {
                    Some(tf) => idf * tf * (K1 + 1.0) / (tf + norm),
                    None => 0.0,
                })
                .sum()
        })
        .collect()
}
