//! Memory store (docs/workflow.md#memory-store): the per-turn stored contexts an agent can recall exactly or
//! search by keyword, with a versioned JSON export/import. Pure data — the shell passes the time
//! in; the tools `memo_recall_context` and `memo_search_memory` are wired elsewhere.
//!
//! Mapping from the usual `ContextMemoryStore` shape (one `ContextSnapshot` plus its `MemorySummary` per
//! turn) to a [`TurnRecord`]:
//!
//! | `ContextMemoryStore`                   | here                    |
//! |----------------------------------------|-------------------------|
//! | `ContextSnapshot.turnNumber`           | [`TurnRecord::turn`]    |
//! | snapshot timestamp                     | [`TurnRecord::at_ms`]   |
//! | `MemorySummary.summary` (LLM summary)  | [`TurnRecord::summary`] |
//! | `MemorySummary.insights`               | [`TurnRecord::insights`]|
//! | `ContextSnapshot.fullContext`          | [`TurnRecord::context`] |
//! | relations between contexts             | [`TurnRecord::tags`]    |
//!
//! Ids such as `ctx_N` / `sum_ctx_N` are not stored: the turn number is the key. The
//! accumulated summary injected into the prompt (`[Turn 1] …`) is [`MemoryStore::digest`].
//!
//! # Search
//!
//! Terms (see [`terms`]): maximal runs of letters/digits (with combining marks) outside CJK are
//! lower-cased words; a run of CJK characters (Han, kana, Hangul) gives its character bigrams, or
//! the single character when the run is one character long. Documents additionally index every
//! CJK character on its own, so a one-character query (`秒`) finds it inside longer runs.
//!
//! Scoring is BM25F with `k1 = 1.2`, `b = 0.75`: a term's frequency in a turn is the weighted sum
//! of its counts per field — summary ×3, insights ×3, tags ×2, context ×1 — and the turn's length
//! is the same weighted sum of field lengths (in terms), normalised by the average over the store.
//! `idf = ln(1 + (N − df + 0.5) / (df + 0.5))` (always positive). Each distinct query term counts
//! once. Turns with no matching term are not hits. Results are ordered by score, descending, then
//! by newer turn first; weighted frequencies are integers and terms are summed in sorted order, so
//! the same store and query always give bit-identical scores.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::decimal;
use crate::input::InputError;
use crate::small_map::SmallSet;
use crate::text_rules::{clip_within, lower, word_runs, CharClass};

/// The `format` field of an export.
pub const FORMAT: &str = "agentpad-memory";
/// The only `version` this build writes and reads.
pub const VERSION: u64 = 1;
/// Bound on `|TurnRecord::at_ms|` (2^53 µs, in ms: about the year 2255).
pub const MAX_AT_MS: f64 = 9_007_199_254_740.0;
/// Maximum length of a [`Hit::snippet`], in chars (ellipses included).
pub const SNIPPET_CHARS: usize = 80;

const K1: f64 = 1.2;
const B: f64 = 0.75;
const W_SUMMARY: u32 = 3;
const W_INSIGHT: u32 = 3;
const W_TAG: u32 = 2;
const W_CONTEXT: u32 = 1;
/// Chars of the snippet kept before the first hit (when the field is longer than the window).
const SNIPPET_LEAD: usize = 24;

/// What one turn stored: the full workspace context and the LLM's summary of it.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "MemoryTurn"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnRecord {
    /// The turn number; unique and increasing within a store.
    pub turn: u32,
    /// When the turn was stored (ms, passed in by the shell). `add` requires it finite with
    /// `|at_ms| <` [`MAX_AT_MS`] and stores it rounded to whole microseconds (0.001 ms): the
    /// precision that survives a JSON export and import exactly.
    pub at_ms: f64,
    /// The LLM-generated summary of the turn (`MemorySummary.summary`).
    pub summary: String,
    /// The insights drawn from it (`MemorySummary.insights`).
    pub insights: Vec<String>,
    /// The full stored context of that turn (`ContextSnapshot.fullContext`).
    pub context: String,
    /// Free labels (e.g. related turns, file names); searched with weight 2.
    pub tags: Vec<String>,
}

/// One search result.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "MemorySearchHit"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    pub turn: u32,
    /// BM25F score (> 0); see the module docs.
    pub score: f64,
    /// At most [`SNIPPET_CHARS`] chars around the first matching term of the best-weighted field
    /// that matches (summary, then insights, tags, context); line breaks shown as spaces, `…`
    /// marks a cut.
    pub snippet: String,
}

/// Why the store refused. Messages name the bad value.
#[derive(Clone, Debug, PartialEq)]
pub enum MemoryError {
    /// `add` got a turn number not greater than the last stored one.
    TurnNotIncreasing { turn: u32, last: u32 },
    /// `add` got an `at_ms` that is not finite or not below [`MAX_AT_MS`] in magnitude.
    InvalidTime { turn: u32, at_ms: f64 },
    /// `recall` named turns the store does not hold; `known` is the stored range (None if empty).
    UnknownTurns { turns: Vec<u32>, known: Option<(u32, u32)> },
    /// `import` got JSON whose `format` is not [`FORMAT`].
    UnknownFormat { found: String },
    /// `import` got a `version` other than [`VERSION`].
    UnsupportedVersion { found: String },
    /// `import` got input that is not a valid export (bad JSON, missing or mistyped fields).
    Malformed { reason: String },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::TurnNotIncreasing { turn, last } => {
                write!(f, "turn {turn} is not after the last stored turn {last}; turn numbers must increase")
            }
            MemoryError::InvalidTime { turn, at_ms } => {
                let (at_ms, max) = (decimal::shortest(*at_ms), decimal::shortest(MAX_AT_MS));
                write!(f, "turn {turn} has time {at_ms} ms, which is not a finite number below {max} in magnitude")
            }
            MemoryError::UnknownTurns { turns, known } => {
                let list: Vec<String> = turns.iter().map(u32::to_string).collect();
                let noun = if turns.len() == 1 { "turn" } else { "turns" };
                match known {
                    Some((lo, hi)) if lo == hi => write!(f, "unknown {noun} {}; the only stored turn is {lo}", list.join(", ")),
                    Some((lo, hi)) => write!(f, "unknown {noun} {}; the stored turns are {lo} to {hi}", list.join(", ")),
                    None => write!(f, "unknown {noun} {}; no turns are stored", list.join(", ")),
                }
            }
            MemoryError::UnknownFormat { found } => {
                write!(f, "not an agentpad memory export: format is {found}, expected \"{FORMAT}\"")
            }
            MemoryError::UnsupportedVersion { found } => {
                write!(f, "unsupported memory export version {found}; this build reads version {VERSION}")
            }
            MemoryError::Malformed { reason } => write!(f, "malformed memory export: {reason}"),
        }
    }
}

impl std::error::Error for MemoryError {}

/// A turn's search index: weighted term frequencies and weighted length.
#[derive(Clone, Debug, Default)]
struct DocIndex {
    tf: BTreeMap<String, u32>,
    len: u64,
}

/// The per-turn stored contexts, in increasing turn order.
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    records: Vec<TurnRecord>,
    index: Vec<DocIndex>,
    /// Number of turns containing each term.
    df: BTreeMap<String, u32>,
    /// Sum of `index[i].len`.
    total_len: u64,
}

impl PartialEq for MemoryStore {
    /// Stores are equal when they hold equal records (the index is derived).
    fn eq(&self, other: &Self) -> bool {
        self.records == other.records
    }
}

#[derive(Serialize)]
struct ExportRef<'a> {
    format: &'a str,
    version: u64,
    turns: &'a [TurnRecord],
}

/// The fields of a [`TurnRecord`] in JSON, in order.
const TURN_FIELDS: &str = "turn, at_ms, summary, insights, context, tags";

impl TurnRecord {
    /// Reads `{turn, at_ms, summary, insights?, context, tags?}` (`insights` and `tags` default to
    /// empty); unknown fields are refused. Hand-written rather than derived: serde's
    /// deserialisation machinery would be the only user of it in the wasm build (~40 KB).
    /// Errors name the field and what it must be. O(size of the record).
    pub fn from_json(v: &Value) -> Result<TurnRecord, InputError> {
        const WHAT: &str = "turn";
        let Some(map) = v.as_object() else { return Err(InputError::invalid("a turn", "", "an object", v)) };
        if let Some(unknown) = map.keys().find(|k| !TURN_FIELDS.split(", ").any(|f| f == k.as_str())) {
            return Err(InputError::Unknown { what: "turn field", key: unknown.clone(), known: format!("the fields are: {TURN_FIELDS}") });
        }
        let field = |name: &'static str, expected: &'static str| {
            map.get(name).ok_or(InputError::Missing { what: "a turn".into(), key: name, expected })
        };
        let string = |name: &'static str| -> Result<String, InputError> {
            let v = field(name, "a string")?;
            v.as_str().map(str::to_string).ok_or_else(|| InputError::invalid(WHAT, name, "a string", v))
        };
        let strings = |name: &'static str| -> Result<Vec<String>, InputError> {
            match map.get(name) {
                None => Ok(Vec::new()),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_string).ok_or_else(|| InputError::invalid(WHAT, name, "an array of strings", i)))
                    .collect(),
                Some(other) => Err(InputError::invalid(WHAT, name, "an array of strings", other)),
            }
        };
        let turn = field("turn", "a whole number")?;
        let turn = turn
            .as_u64()
            .and_then(|t| u32::try_from(t).ok())
            .ok_or_else(|| InputError::invalid(WHAT, "turn", format!("a whole number from 0 to {}", u32::MAX), turn))?;
        let at_ms = field("at_ms", "a number")?;
        let at_ms = at_ms.as_f64().ok_or_else(|| InputError::invalid(WHAT, "at_ms", "a number", at_ms))?;
        Ok(TurnRecord {
            turn,
            at_ms,
            summary: string("summary")?,
            insights: strings("insights")?,
            context: string("context")?,
            tags: strings("tags")?,
        })
    }
}

impl MemoryStore {
    /// An empty store. O(1).
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of stored turns. O(1).
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no turn is stored. O(1).
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// All records, oldest first. O(1).
    pub fn records(&self) -> &[TurnRecord] {
        &self.records
    }

    /// The record of `turn`, if stored. O(log n).
    pub fn get(&self, turn: u32) -> Option<&TurnRecord> {
        self.records.binary_search_by_key(&turn, |r| r.turn).ok().and_then(|i| self.records.get(i))
    }

    /// First and last stored turn numbers, or None when empty. O(1).
    pub fn known_range(&self) -> Option<(u32, u32)> {
        Some((self.records.first()?.turn, self.records.last()?.turn))
    }

    /// Stores a turn. O(size of the record × log vocabulary) to index it.
    ///
    /// Errors: [`MemoryError::TurnNotIncreasing`] when `record.turn` is not greater than the last
    /// stored turn; [`MemoryError::InvalidTime`] when `at_ms` is NaN, infinite or not below
    /// [`MAX_AT_MS`] in magnitude. On error the store is unchanged. `at_ms` is rounded to whole
    /// microseconds (serde_json's default float parsing is not exact for every `f64`; these
    /// values parse back bit-identically, which keeps export → import → export byte-identical).
    pub fn add(&mut self, mut record: TurnRecord) -> Result<(), MemoryError> {
        if let Some(last) = self.records.last() {
            if record.turn <= last.turn {
                return Err(MemoryError::TurnNotIncreasing { turn: record.turn, last: last.turn });
            }
        }
        if !record.at_ms.is_finite() || record.at_ms.abs() >= MAX_AT_MS {
            return Err(MemoryError::InvalidTime { turn: record.turn, at_ms: record.at_ms });
        }
        record.at_ms = round_to_micros(record.at_ms);
        let doc = index_record(&record);
        for term in doc.tf.keys() {
            *self.df.entry(term.clone()).or_insert(0) += 1;
        }
        self.total_len += doc.len;
        self.index.push(doc);
        self.records.push(record);
        Ok(())
    }

    /// The number the next turn gets when the host gives none: one after the last stored turn
    /// (1 for an empty store). O(1).
    pub fn next_turn(&self) -> u32 {
        self.records.last().map_or(1, |r| r.turn.saturating_add(1))
    }

    /// The records of `turns`, in the order asked (repeats allowed). O(k log n).
    ///
    /// Errors: [`MemoryError::UnknownTurns`] naming every unknown turn (sorted, once each) and the
    /// stored range; nothing is returned then.
    pub fn recall(&self, turns: &[u32]) -> Result<Vec<&TurnRecord>, MemoryError> {
        let mut found = Vec::with_capacity(turns.len());
        let mut unknown = SmallSet::new();
        for &t in turns {
            match self.get(t) {
                Some(r) => found.push(r),
                None => {
                    unknown.insert(t);
                }
            }
        }
        if unknown.is_empty() {
            Ok(found)
        } else {
            Err(MemoryError::UnknownTurns { turns: unknown.into_iter().collect(), known: self.known_range() })
        }
    }

    /// The accumulated summaries injected into the prompt (the live context's Memory section): one `[Turn N] summary` line per
    /// turn, oldest first, line breaks inside a summary shown as spaces. O(total summary size).
    pub fn digest(&self) -> String {
        let mut out = String::new();
        for r in &self.records {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&format!("[Turn {}] ", r.turn));
            out.extend(r.summary.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }));
        }
        out
    }

    /// Keyword search over summaries, insights, tags and contexts (module docs: terms, BM25F
    /// scoring, order). At most `limit` hits; none when the query has no terms or `limit` is 0.
    /// Never fails. O(query terms × turns × log vocabulary) to score, plus O(size of the
    /// returned turns' matched fields) for snippets.
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit> {
        if limit == 0 || self.records.is_empty() {
            return Vec::new();
        }
        // Inserted one by one: `collect` into a BTreeSet sorts first, a sort instantiation of its own.
        let mut q: BTreeSet<String> = BTreeSet::new();
        for term in terms(query) {
            q.insert(term);
        }
        if q.is_empty() {
            return Vec::new();
        }
        let n = self.records.len() as f64;
        let avg = (self.total_len as f64 / n).max(1.0);
        let idf: Vec<(&String, f64)> = q
            .iter()
            .filter_map(|t| {
                let df = *self.df.get(t)? as f64;
                Some((t, (1.0 + (n - df + 0.5) / (df + 0.5)).ln()))
            })
            .collect();
        if idf.is_empty() {
            return Vec::new();
        }
        let mut scored: Vec<(f64, usize)> = Vec::new();
        for (i, doc) in self.index.iter().enumerate() {
            let norm = K1 * (1.0 - B + B * doc.len as f64 / avg);
            let mut score = 0.0;
            let mut matched = false;
            for (t, w) in &idf {
                if let Some(&tf) = doc.tf.get(*t) {
                    let tf = tf as f64;
                    score += w * tf * (K1 + 1.0) / (tf + norm);
                    matched = true;
                }
            }
            if matched {
                scored.push((score, i));
            }
        }
        crate::sort::sort_by(&mut scored, |a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
        scored.truncate(limit);
        scored
            .into_iter()
            .filter_map(|(score, i)| {
                let r = self.records.get(i)?;
                Some(Hit { turn: r.turn, score, snippet: snippet_for(r, &q) })
            })
            .collect()
    }

    /// The store as versioned JSON: `{"format":"agentpad-memory","version":1,"turns":[…]}`,
    /// compact, turns oldest first, fields in declaration order. Deterministic:
    /// `import(export())` then `export()` gives the same bytes. O(total size).
    pub fn export(&self) -> String {
        let body = ExportRef { format: FORMAT, version: VERSION, turns: &self.records };
        // Cannot fail: only strings, integers, finite floats (checked by `add`) and sequences.
        serde_json::to_string(&body).unwrap_or_default()
    }

    /// Reads an [`export`](Self::export). O(input size + indexing).
    ///
    /// Errors: [`MemoryError::Malformed`] for invalid JSON, a non-object, missing/unknown fields,
    /// mistyped values or (via `add`'s rules, reported as Malformed with the turn) non-increasing
    /// turns; [`MemoryError::UnknownFormat`] when `format` is not `"agentpad-memory"`;
    /// [`MemoryError::UnsupportedVersion`] when `version` is not 1. Never panics (serde_json
    /// limits nesting depth).
    pub fn import(json: &str) -> Result<MemoryStore, MemoryError> {
        let value: Value = serde_json::from_str(json).map_err(|e| MemoryError::Malformed { reason: e.to_string() })?;
        MemoryStore::import_value(&value)
    }

    /// [`import`](Self::import) of an export already parsed (the JS binding parses with
    /// `JSON.parse`). Same errors, except invalid JSON. O(size of the export + indexing).
    pub fn import_value(value: &Value) -> Result<MemoryStore, MemoryError> {
        let obj = value.as_object().ok_or_else(|| MemoryError::Malformed { reason: "expected a JSON object".into() })?;
        match obj.get("format") {
            None => return Err(MemoryError::Malformed { reason: "missing field `format`".into() }),
            Some(serde_json::Value::String(s)) if s == FORMAT => {}
            Some(other) => return Err(MemoryError::UnknownFormat { found: short_json(other) }),
        }
        match obj.get("version") {
            None => return Err(MemoryError::Malformed { reason: "missing field `version`".into() }),
            Some(v) if v.as_u64() == Some(VERSION) => {}
            Some(other) => return Err(MemoryError::UnsupportedVersion { found: short_json(other) }),
        }
        if let Some(unknown) = obj.keys().find(|k| !["format", "version", "turns"].contains(&k.as_str())) {
            return Err(MemoryError::Malformed { reason: format!("unknown field `{unknown}`, expected one of format, version, turns") });
        }
        let turns = match obj.get("turns") {
            None => return Err(MemoryError::Malformed { reason: "missing field `turns`".into() }),
            Some(Value::Array(turns)) => turns,
            Some(other) => {
                return Err(MemoryError::Malformed { reason: format!("field `turns` must be an array, got {}", short_json(other)) })
            }
        };
        let mut store = MemoryStore::new();
        for (i, turn) in turns.iter().enumerate() {
            let record =
                TurnRecord::from_json(turn).map_err(|reason| MemoryError::Malformed { reason: format!("turns[{i}]: {reason}") })?;
            store.add(record).map_err(|e| MemoryError::Malformed { reason: format!("turns[{i}]: {e}") })?;
        }
        Ok(store)
    }
}

/// `f` rounded to whole microseconds: the double `m / 1000.0` for an integer `m`; idempotent
/// (a value already of that form is kept, even when `f * 1000` rounds to a neighbour of `m`).
/// Needs `|f| <` [`MAX_AT_MS`] so that `m` is exact.
fn round_to_micros(f: f64) -> f64 {
    let n = (f * 1000.0).round();
    [n, n - 1.0, n + 1.0].into_iter().map(|m| m / 1000.0).find(|&c| c == f).unwrap_or(n / 1000.0)
}

/// A JSON value for an error message, cut to 40 chars.
fn short_json(v: &serde_json::Value) -> String {
    clip_within(&v.to_string(), 40)
}

/// CJK scripts are searched by character bigrams (text_rules.rs's [`is_cjk`]).
pub use crate::text_rules::is_cjk;

/// A term and the char offset where it starts in the tokenised text.
struct Token {
    term: String,
    at: usize,
}

/// Tokenises `text`; with `cjk_unigrams`, every CJK char is also emitted on its own (index side).
fn tokens(text: &str, cjk_unigrams: bool, out: &mut Vec<Token>) {
    let chars: Vec<char> = text.chars().collect();
    for (class, start, run) in word_runs(&chars) {
        let next = start + run.len();
        match class {
            CharClass::Other => {}
            CharClass::Word => out.push(Token { term: lower(run), at: start }),
            CharClass::Cjk => {
                if let [only] = run {
                    out.push(Token { term: only.to_string(), at: start });
                } else {
                    for (j, pair) in run.windows(2).enumerate() {
                        if let (true, Some(c)) = (cjk_unigrams, pair.first()) {
                            out.push(Token { term: c.to_string(), at: start + j });
                        }
                        out.push(Token { term: pair.iter().collect(), at: start + j });
                    }
                    if let (true, Some(last)) = (cjk_unigrams, run.last()) {
                        out.push(Token { term: last.to_string(), at: next - 1 });
                    }
                }
            }
        }
    }
}

/// The search terms of `text`, in order: lower-cased words outside CJK; for each CJK run its
/// character bigrams, or the single char of a one-char run. O(len).
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    tokens(text, false, &mut out);
    out.into_iter().map(|t| t.term).collect()
}

fn index_record(r: &TurnRecord) -> DocIndex {
    let mut doc = DocIndex::default();
    let add_field = |text: &str, w: u32, doc: &mut DocIndex| {
        let mut toks = Vec::new();
        tokens(text, true, &mut toks);
        doc.len += toks.len() as u64 * u64::from(w);
        for t in toks {
            let e = doc.tf.entry(t.term).or_insert(0);
            *e = e.saturating_add(w);
        }
    };
    add_field(&r.summary, W_SUMMARY, &mut doc);
    for s in &r.insights {
        add_field(s, W_INSIGHT, &mut doc);
    }
    for s in &r.tags {
        add_field(s, W_TAG, &mut doc);
    }
    add_field(&r.context, W_CONTEXT, &mut doc);
    doc
}

/// Snippet from the first field (by weight) holding a query term.
fn snippet_for(r: &TurnRecord, q: &BTreeSet<String>) -> String {
    let fields = std::iter::once(&r.summary).chain(&r.insights).chain(&r.tags).chain(std::iter::once(&r.context));
    for f in fields {
        let mut toks = Vec::new();
        tokens(f, true, &mut toks);
        if let Some(at) = toks.iter().filter(|t| q.contains(&t.term)).map(|t| t.at).min() {
            return window(f, at);
        }
    }
    // Unreachable for a hit (some field holds a matched term); fall back to the summary's start.
    window(&r.summary, 0)
}

/// At most [`SNIPPET_CHARS`] chars of `text` around char offset `at`.
fn window(text: &str, at: usize) -> String {
    let chars: Vec<char> = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if chars.len() <= SNIPPET_CHARS {
        return chars.into_iter().collect();
    }
    let inner = SNIPPET_CHARS - 2; // room for both ellipses
    let mut start = at.saturating_sub(SNIPPET_LEAD).min(chars.len() - inner);
    let mut end = (start + inner).min(chars.len());
    // Use the room of an ellipsis that is not needed.
    if start == 0 {
        end = (end + 1).min(chars.len());
    } else if end == chars.len() {
        start -= 1;
    }
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(chars.get(start..end).unwrap_or_default());
    if end < chars.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_records_from_json_name_the_bad_field() {
        use serde_json::json;
        let ok = TurnRecord::from_json(&json!({"turn": 2, "at_ms": 5, "summary": "s", "context": "c"})).unwrap();
        assert_eq!((ok.turn, ok.at_ms, ok.insights.len(), ok.tags.len()), (2, 5.0, 0, 0));
        for (bad, says) in [
            (json!([]), "a turn must be an object, got []"),
            (json!({"turn": 1, "at_ms": 0, "summary": "s", "context": "c", "x": 1}), "unknown turn field `x`; the fields are: turn, at_ms"),
            (json!({"turn": 1, "at_ms": 0, "context": "c"}), "a turn has no `summary` (a string)"),
            (json!({"turn": -1, "at_ms": 0, "summary": "s", "context": "c"}), "`turn` must be a whole number from 0 to 4294967295, got -1"),
            (json!({"turn": 1, "at_ms": "now", "summary": "s", "context": "c"}), "`at_ms` must be a number"),
            (json!({"turn": 1, "at_ms": 0, "summary": "s", "context": "c", "tags": [1]}), "`tags` must be an array of strings, got 1"),
            (json!({"turn": 1, "at_ms": 0, "summary": "s", "context": "c", "insights": "x"}), "`insights` must be an array of strings"),
        ] {
            let e = TurnRecord::from_json(&bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    fn rec(turn: u32, summary: &str, insights: &[&str], context: &str) -> TurnRecord {
        TurnRecord {
            turn,
            at_ms: f64::from(turn) * 1000.0,
            summary: summary.into(),
            insights: insights.iter().map(|s| s.to_string()).collect(),
            context: context.into(),
            tags: Vec::new(),
        }
    }

    fn sample() -> MemoryStore {
        let mut m = MemoryStore::new();
        m.add(rec(1, "分析了代码库结构", &["3个模块", "main.ts是入口"], "Files: [main.ts, utils.ts]\nState: { initialized: true }"))
            .unwrap();
        m.add(rec(2, "发现性能瓶颈", &["benchmark.ts shows slow parsing"], "Files: [benchmark.ts]\nContent: timeout = 30")).unwrap();
        m.add(rec(3, "把超时时间改为 60 秒", &[], "Content of config.ts: { timeout: 60 }")).unwrap();
        m.add(rec(4, "Implemented the parser optimisation", &["Parsing is 3x faster"], "Content of utils.ts: optimised")).unwrap();
        m
    }

    #[test]
    fn terms_english_lowercased_words() {
        assert_eq!(terms("Hello, World! foo_bar x2"), ["hello", "world", "foo", "bar", "x2"]);
    }

    #[test]
    fn terms_cjk_bigrams_and_single_chars() {
        assert_eq!(terms("超时"), ["超时"]);
        assert_eq!(terms("把超时时间"), ["把超", "超时", "时时", "时间"]);
        assert_eq!(terms("秒"), ["秒"]);
        assert_eq!(terms("把timeout改为60秒"), ["把", "timeout", "改为", "60", "秒"]);
    }

    #[test]
    fn terms_combining_marks_stay_in_word() {
        assert_eq!(terms("cafe\u{301} ok"), ["cafe\u{301}", "ok"]);
        assert!(terms("😀🎉 — …").is_empty());
    }

    #[test]
    fn chinese_search_finds_summary() {
        let m = sample();
        let hits = m.search("超时", 5);
        assert_eq!(hits[0].turn, 3);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].snippet, "把超时时间改为 60 秒");
        let hits = m.search("性能瓶颈", 5);
        assert_eq!(hits.iter().map(|h| h.turn).collect::<Vec<_>>(), [2]);
        // A one-char query finds the char inside longer runs.
        assert_eq!(m.search("秒", 5).iter().map(|h| h.turn).collect::<Vec<_>>(), [3]);
    }

    #[test]
    fn english_search_is_case_insensitive() {
        let m = sample();
        let hits = m.search("PARSER", 5);
        assert_eq!(hits.iter().map(|h| h.turn).collect::<Vec<_>>(), [4]);
        assert!(hits[0].score > 0.0);
    }

    #[test]
    fn summary_matches_outrank_context_matches() {
        let mut m = MemoryStore::new();
        m.add(rec(1, "raised the timeout", &[], "nothing here")).unwrap();
        m.add(rec(2, "unrelated work", &[], "config: timeout = 5")).unwrap();
        let hits = m.search("timeout", 5);
        assert_eq!(hits.iter().map(|h| h.turn).collect::<Vec<_>>(), [1, 2]);
        assert!(hits[0].score > hits[1].score);
        // Insights outrank context too.
        let mut m = MemoryStore::new();
        m.add(rec(1, "a", &[], "the cache was cold")).unwrap();
        m.add(rec(2, "b", &["cache"], "other")).unwrap();
        assert_eq!(m.search("cache", 5)[0].turn, 2);
    }

    #[test]
    fn mixed_query_matches_both_scripts() {
        let m = sample();
        let hits = m.search("timeout 超时", 5);
        let turns: Vec<u32> = hits.iter().map(|h| h.turn).collect();
        assert_eq!(turns[0], 3, "{hits:?}");
        assert!(turns.contains(&2));
    }

    #[test]
    fn ties_prefer_newer_turns_and_limit_applies() {
        let mut m = MemoryStore::new();
        for t in [1, 5, 9] {
            m.add(rec(t, "same words", &[], "same")).unwrap();
        }
        let hits = m.search("words", 10);
        assert_eq!(hits.iter().map(|h| h.turn).collect::<Vec<_>>(), [9, 5, 1]);
        assert_eq!(hits[0].score, hits[2].score);
        assert_eq!(m.search("words", 2).iter().map(|h| h.turn).collect::<Vec<_>>(), [9, 5]);
        assert!(m.search("words", 0).is_empty());
        assert!(m.search("absent", 10).is_empty());
        assert!(m.search("  ,;! 🎉", 10).is_empty());
        assert!(MemoryStore::new().search("words", 3).is_empty());
    }

    #[test]
    fn snippet_is_short_and_char_safe() {
        let mut m = MemoryStore::new();
        let long = format!("{}找到了超时问题{}", "前面的内容".repeat(30), "后面的内容".repeat(30));
        m.add(rec(1, "x", &[], &long)).unwrap();
        let hits = m.search("超时", 1);
        let s = &hits[0].snippet;
        assert!(s.chars().count() <= SNIPPET_CHARS, "{s}");
        assert!(s.contains("超时"), "{s}");
        assert!(s.starts_with('…') && s.ends_with('…'));
        // Hit near the end: no trailing ellipsis, still within bounds.
        let mut m = MemoryStore::new();
        m.add(rec(1, "x", &[], &format!("{}\nfinal word", "y ".repeat(100)))).unwrap();
        let s = &m.search("final", 1)[0].snippet;
        assert!(s.ends_with("final word") && s.chars().count() == SNIPPET_CHARS, "{s}");
        assert!(!s.contains('\n'));
    }

    #[test]
    fn add_rejects_non_increasing_and_bad_time() {
        let mut m = sample();
        assert_eq!(m.add(rec(4, "dup", &[], "")), Err(MemoryError::TurnNotIncreasing { turn: 4, last: 4 }));
        assert_eq!(m.add(rec(2, "old", &[], "")), Err(MemoryError::TurnNotIncreasing { turn: 2, last: 4 }));
        let mut bad = rec(7, "t", &[], "");
        bad.at_ms = f64::NAN;
        assert!(matches!(m.add(bad), Err(MemoryError::InvalidTime { turn: 7, .. })));
        let mut bad = rec(7, "t", &[], "");
        bad.at_ms = 1e13;
        assert!(matches!(m.add(bad), Err(MemoryError::InvalidTime { turn: 7, .. })));
        let mut odd = rec(6, "t", &[], "");
        odd.at_ms = 2119049111.8868902;
        m.add(odd).unwrap();
        assert_eq!(m.get(6).unwrap().at_ms, 2119049111.887);
        // Rounding is idempotent (here `x * 1000` lands on …238.5).
        for x in [4487708337861.238, -0.0, 0.001, 1.0005, 9007199254739.999] {
            assert_eq!(round_to_micros(round_to_micros(x)).to_bits(), round_to_micros(x).to_bits(), "{x}");
        }
        assert_eq!(MemoryStore::import(&m.export()).unwrap().export(), m.export());
        assert_eq!(m.len(), 5);
        m.add(rec(7, "ok", &[], "")).unwrap();
        assert_eq!(m.known_range(), Some((1, 7)));
    }

    #[test]
    fn recall_returns_in_order_and_names_unknown_turns() {
        let m = sample();
        let got = m.recall(&[3, 1, 3]).unwrap();
        assert_eq!(got.iter().map(|r| r.turn).collect::<Vec<_>>(), [3, 1, 3]);
        assert!(got[1].context.contains("main.ts"));
        let err = m.recall(&[2, 9, 0, 9]).unwrap_err();
        assert_eq!(err, MemoryError::UnknownTurns { turns: vec![0, 9], known: Some((1, 4)) });
        assert_eq!(err.to_string(), "unknown turns 0, 9; the stored turns are 1 to 4");
        let err = MemoryStore::new().recall(&[1]).unwrap_err();
        assert_eq!(err.to_string(), "unknown turn 1; no turns are stored");
        assert!(m.recall(&[]).unwrap().is_empty());
    }

    #[test]
    fn digest_lists_summaries() {
        let m = sample();
        assert!(m.digest().starts_with("[Turn 1] 分析了代码库结构\n[Turn 2] 发现性能瓶颈\n"));
    }

    #[test]
    fn export_import_roundtrip_is_byte_identical() {
        let m = sample();
        let json = m.export();
        assert!(json.starts_with(r#"{"format":"agentpad-memory","version":1,"turns":[{"turn":1,"#), "{json}");
        let back = MemoryStore::import(&json).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.export(), json);
        assert_eq!(back.search("超时", 5), m.search("超时", 5));
        let empty = MemoryStore::new().export();
        assert_eq!(empty, r#"{"format":"agentpad-memory","version":1,"turns":[]}"#);
        assert!(MemoryStore::import(&empty).unwrap().is_empty());
    }

    #[test]
    fn import_refuses_bad_input() {
        let err = |s: &str| MemoryStore::import(s).unwrap_err();
        assert!(matches!(err(""), MemoryError::Malformed { .. }));
        assert!(matches!(err("[]"), MemoryError::Malformed { .. }));
        assert!(matches!(err("{\"version\":1,\"turns\":[]}"), MemoryError::Malformed { .. }));
        assert_eq!(err(r#"{"format":"other","version":1,"turns":[]}"#), MemoryError::UnknownFormat { found: "\"other\"".into() });
        let e = err(r#"{"format":"agentpad-memory","version":2,"turns":[]}"#);
        assert_eq!(e, MemoryError::UnsupportedVersion { found: "2".into() });
        assert!(e.to_string().contains("version 2"));
        assert!(matches!(err(r#"{"format":"agentpad-memory","version":"1","turns":[]}"#), MemoryError::UnsupportedVersion { .. }));
        assert!(matches!(err(r#"{"format":"agentpad-memory","version":1}"#), MemoryError::Malformed { .. }));
        assert!(matches!(err(r#"{"format":"agentpad-memory","version":1,"turns":[],"x":0}"#), MemoryError::Malformed { .. }));
        assert!(matches!(err(r#"{"format":"agentpad-memory","version":1,"turns":[{"turn":-1}]}"#), MemoryError::Malformed { .. }));
        let dup = r#"{"format":"agentpad-memory","version":1,"turns":[
            {"turn":2,"at_ms":0,"summary":"","context":""},{"turn":2,"at_ms":0,"summary":"","context":""}]}"#;
        match err(dup) {
            MemoryError::Malformed { reason } => assert!(reason.contains("turns[1]") && reason.contains("turn 2"), "{reason}"),
            e => panic!("{e:?}"),
        }
        // Deep nesting is refused, not a stack overflow.
        assert!(matches!(err(&"[".repeat(100_000)), MemoryError::Malformed { .. }));
        // Optional fields default to empty.
        let m =
            MemoryStore::import(r#"{"format":"agentpad-memory","version":1,"turns":[{"turn":1,"at_ms":5,"summary":"s","context":"c"}]}"#)
                .unwrap();
        assert!(m.records()[0].insights.is_empty() && m.records()[0].tags.is_empty());
    }
}
