//! `memo_find` (docs/tools.md#memo_find): the draft's units ranked against a query
//! ([`crate::find`]), listed as lettered candidates the other tools can name — a pick replaces a
//! whole unit, `memo_replace(within)` searches inside one, `memo_read(unit)` reads one. Listing
//! stages nothing and awaits no choice: the workflow state stays what it was.

use std::ops::Range;

use ropey::Rope;
use serde_json::Value;

use super::registry::{FindArgs, ReadArgs};
use super::words::{self, Voice};
use super::{Step, Workspace};
use crate::find::{self, units::is_code_path, Indexed};
use crate::matching::recommend::Reason;
use crate::matching::{CandidateQuality, MatchQuality};
use crate::response::{Candidate, Response};
use crate::session::{Letter, Selection, SelectionCandidate, SelectionKind};
use crate::text;
use crate::text_rules::clip_within;

/// Candidates listed without a `limit`.
pub const DEFAULT_FIND_LIMIT: usize = 5;
/// Chars of a candidate's preview after its heading path.
const PREVIEW_CHARS: usize = 60;

/// Most embeddings kept (by content hash); the cache is emptied when it is full, so its memory
/// stays bounded whatever the documents.
pub const MAX_CACHED_EMBEDDINGS: usize = 4_096;

/// Embeddings the host gave, by [`find::text_hash`] of the text embedded.
#[derive(Clone, Debug, Default)]
pub struct EmbedCache(crate::small_map::SmallMap<u64, Vec<f32>>);

impl EmbedCache {
    fn get(&self, key: &u64) -> Option<&Vec<f32>> {
        self.0.get(key)
    }

    /// O(entries) (a sorted vector's insert).
    fn insert(&mut self, key: u64, vector: Vec<f32>) {
        if self.0.keys().len() >= MAX_CACHED_EMBEDDINGS {
            self.0.clear();
        }
        self.0.insert(key, vector);
    }
}

/// A `memo_find` waiting for the host's embeddings: what to rank once they come, and the
/// content hashes of the unit texts asked for (the query's vector comes after them).
#[derive(Clone, Debug)]
pub struct FindInFlight {
    path: String,
    query: String,
    limit: usize,
    asked: Vec<u64>,
}

/// An `embed` step's report as JS sends it: an array of number arrays, or `{ "error": "…" }`.
/// O(size of the report).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn read_vectors(v: &Value) -> Result<Vec<Vec<f32>>, String> {
    if let Some(error) = v.get("error") {
        return Err(error.as_str().map_or_else(|| error.to_string(), str::to_string));
    }
    let rows = v.as_array().ok_or("expected an array of vectors")?;
    rows.iter()
        .map(|row| {
            let nums = row.as_array().ok_or("expected each vector to be an array of numbers")?;
            nums.iter().map(|x| x.as_f64().map(|f| f as f32).ok_or_else(|| "expected numbers in a vector".to_string())).collect()
        })
        .collect()
}

/// `vectors` if they are `count` finite vectors of one non-zero length. O(count · dims).
fn check_vectors(vectors: Vec<Vec<f32>>, count: usize) -> Result<Vec<Vec<f32>>, String> {
    if vectors.len() != count {
        return Err(format!("{count} vectors expected, {} given", vectors.len()));
    }
    let dims = vectors.first().map_or(0, Vec::len);
    if dims == 0 || vectors.iter().any(|v| v.len() != dims || v.iter().any(|x| !x.is_finite())) {
        return Err(format!("every vector must have the same non-zero length ({dims}) and finite numbers"));
    }
    Ok(vectors)
}

/// A unit a tool names by its `memo_find` letter: where it is now, or why it cannot be used.
pub(super) enum UnitRef {
    Live {
        range: Range<usize>,
    },
    /// No `memo_find` listed units, or not this letter, or not in this document.
    Unknown,
    /// A staged edit changed its text since it was listed.
    Stale,
}

impl Workspace {
    /// `memo_find(query, limit?, path?)`: the best units as candidates, `NoMatch` when no unit
    /// shares a term with the query, `InvalidArguments` for a query without words. Cost: one
    /// pass over the draft to split it, then [`find::rank`].
    pub(super) fn find(&mut self, path: &str, args: &FindArgs) -> Step {
        let query = args.query.trim().to_string();
        if find::bm25::query_terms(&query).is_empty() {
            return Step::Done(self.finish(words::find_no_words(&Voice::of(self)), None));
        }
        let limit = args.limit.map_or(DEFAULT_FIND_LIMIT, |n| usize::try_from(n).unwrap_or(1).clamp(1, find::MAX_LIMIT));
        let indexed = self.units_of(path);
        if !self.settings.embedder || indexed.is_empty() {
            return Step::Done(self.find_answer(path, &query, limit, &indexed, None, None));
        }
        // Ask the host for what the cache lacks, the query last (docs/architecture.md#sans-io-steps).
        let keys: Vec<u64> = indexed.iter().map(|x| find::text_hash(&x.embed_text())).collect();
        let mut asked: Vec<u64> = Vec::new();
        let mut texts: Vec<String> = Vec::new();
        for (x, key) in indexed.iter().zip(&keys) {
            if self.records.embed_cache.get(key).is_none() && !asked.contains(key) {
                asked.push(*key);
                texts.push(x.embed_text());
            }
        }
        texts.push(query.clone());
        self.turn.awaiting = Some(super::Awaiting::Embed(FindInFlight { path: path.to_string(), query, limit, asked }));
        Step::Embed(texts)
    }

    /// Whether the host embeds texts for `memo_find`: then a find returns [`Step::Embed`] (the
    /// unit texts not cached yet and the query) before it answers. Off by default. O(1).
    pub fn set_embedder(&mut self, on: bool) {
        self.settings.embedder = on;
    }

    /// The units of `path`'s draft, with their ranked text. Cost: O(n) to split the draft,
    /// then [`find::index`].
    fn units_of(&self, path: &str) -> Vec<Indexed> {
        let flat = self.draft_rope(path).to_string();
        let lines: Vec<&str> = flat.split('\n').collect();
        find::index(&lines, is_code_path(path))
    }

    /// The host's answer to a [`Step::Embed`]: one vector per text asked, in order, or why it
    /// could not embed. Vectors of the wrong count, of mixed lengths or not finite are refused as
    /// a failure; either way the find answers, by words alone after a failure, and says so.
    /// Cost: O(vectors · dims) plus [`find::rank`].
    pub fn complete_embed(&mut self, vectors: Result<Vec<Vec<f32>>, String>) -> Step {
        let mut step = match self.turn.awaiting.take() {
            Some(super::Awaiting::Embed(f)) => Step::Done(self.embedded(f, vectors)),
            other => {
                self.turn.awaiting = other;
                self.wrong_completion("embedding", "completeEmbed", "embed")
            }
        };
        self.after_step(&mut step);
        step
    }

    fn embedded(&mut self, f: FindInFlight, vectors: Result<Vec<Vec<f32>>, String>) -> Response {
        let indexed = self.units_of(&f.path);
        let checked = vectors.and_then(|v| check_vectors(v, f.asked.len() + 1));
        match checked {
            Ok(mut v) => {
                let query = v.pop().unwrap_or_default();
                for (key, vector) in f.asked.iter().zip(v) {
                    self.records.embed_cache.insert(*key, vector);
                }
                let mut all: Vec<Vec<f32>> = Vec::with_capacity(indexed.len() + 1);
                for x in &indexed {
                    all.push(self.records.embed_cache.get(&find::text_hash(&x.embed_text())).cloned().unwrap_or_default());
                }
                all.push(query);
                self.find_answer(&f.path, &f.query, f.limit, &indexed, Some(&all), None)
            }
            Err(error) => self.find_answer(&f.path, &f.query, f.limit, &indexed, None, Some(error)),
        }
    }

    /// The ranked units as candidates (`NoMatch` when none scores), made the listed units.
    /// `vectors`: one per unit and the query's last; `embed_error`: why the host's embedder
    /// gave none (said in the summary).
    fn find_answer(
        &mut self,
        path: &str,
        query: &str,
        limit: usize,
        indexed: &[Indexed],
        vectors: Option<&[Vec<f32>]>,
        embed_error: Option<String>,
    ) -> Response {
        let draft = self.draft_rope(path);
        let ranking = find::rank(indexed, query, limit, vectors);
        let mut r = if ranking.found.is_empty() {
            words::find_none(path, query, indexed.len(), &Voice::of(self))
        } else {
            self.list_units(path, &draft, query, indexed, &ranking)
        };
        if let Some(error) = embed_error {
            r.notes.trail.push(words::find_embed_failed(&error, &Voice::of(self)));
        }
        self.finish(r, Some(path))
    }

    fn list_units(&mut self, path: &str, draft: &Rope, query: &str, indexed: &[Indexed], ranking: &find::Ranking) -> Response {
        let terms = find::bm25::query_terms(query);
        let mut candidates = Vec::new();
        let mut views = Vec::new();
        for (i, f) in ranking.found.iter().enumerate() {
            let (Some(id), Some(x)) = (Letter::from_index(i), indexed.get(f.index)) else { continue };
            let range = unit_range(draft, &x.unit.lines);
            let mut view = unit_view(draft, id, &range, x, &terms);
            if i == 0 && ranking.recommended {
                view.recommended = true;
                view.recommended_reason = Some(Reason::BestByMargin);
            }
            views.push(view);
            candidates.push(SelectionCandidate {
                id,
                range,
                quality: CandidateQuality::Match(MatchQuality::EXACT),
                reindent: None,
                occurrence: i,
                stale: false,
            });
        }
        let selection = Selection {
            path: path.to_string(),
            query: format!("find\u{0}{query}"),
            new_text: String::new(),
            needle: String::new(),
            kind: SelectionKind::Units,
            candidates,
            awaiting_choice: false,
            picked: Vec::new(),
        };
        // A choice another search is waiting for is not taken away: the units are kept for
        // `within` and `unit`, and become the selection once that choice is made.
        let mut session = self.take_session();
        if !session.selection.as_ref().is_some_and(|s| s.awaiting_choice) {
            session.selection = Some(selection.clone());
        }
        session.found = Some(selection);
        self.turn.session = Some(session);
        // A pick takes these units only when they are the selection and the state offers it.
        let pick = self.units_listed() && self.is_visible(crate::workspace::Tool::ReplaceSelection);
        let mut r = words::find_found(views.len(), query, pick, &Voice::of(self));
        r.candidates = views;
        r.metrics.selection_count = Some(r.candidates.len());
        r.fingerprint = Some(self.draft_fingerprint(path).to_string());
        r
    }

    /// The unit `letter` of the last `memo_find` in `path`, as it is in the draft now.
    /// O(candidates).
    pub(super) fn unit(&self, path: &str, letter: Letter) -> UnitRef {
        let found = self.turn.session.as_ref().and_then(|s| s.found.as_ref()).filter(|f| f.path == path);
        match found.and_then(|f| f.candidates.iter().find(|c| c.id == letter)) {
            None => UnitRef::Unknown,
            Some(c) if c.stale => UnitRef::Stale,
            Some(c) => UnitRef::Live { range: c.range.clone() },
        }
    }

    /// The refusal of a tool naming unit `letter` through `arg` (`within`, `unit`) that
    /// [`Workspace::unit`] did not find live: `InvalidArguments`, nothing changed.
    pub(super) fn unit_refused(&self, path: &str, arg: &str, letter: Letter, why: &UnitRef) -> Response {
        let r = words::unit_refused(path, arg, letter, matches!(why, UnitRef::Stale), &Voice::of(self));
        self.finish(r, None)
    }

    /// `memo_read(unit)`: the unit's lines, read like `start_line`/`end_line`.
    pub(super) fn read_unit(&mut self, path: &str, args: &ReadArgs) -> Response {
        let Some(letter) = args.unit.as_deref().and_then(Letter::parse) else { return self.read(path, args) };
        match self.unit(path, letter) {
            UnitRef::Live { range, .. } => {
                let draft = self.draft_rope(path);
                let start = draft.char_to_line(range.start.min(draft.len_chars())) + 1;
                let end = draft.char_to_line(range.end.min(draft.len_chars())) + 1;
                let args = ReadArgs { start_line: Some(start as i64), end_line: Some(end.max(start) as i64), ..args.clone() };
                self.read(path, &args)
            }
            why => self.unit_refused(path, "unit", letter, &why),
        }
    }
}

/// The char range of lines `lines` (0-based, end exclusive) in `draft`, without the last line's
/// line break: replacing it with text that has none keeps the next line where it was. O(log n).
fn unit_range(draft: &Rope, lines: &Range<usize>) -> Range<usize> {
    let n = draft.len_lines();
    let start = draft.line_to_char(lines.start.min(n));
    let end = if lines.end < n { draft.line_to_char(lines.end).saturating_sub(1) } else { draft.len_chars() };
    start..end.max(start)
}

/// A unit as a candidate: its lines, `→<end line> · <heading path> · <line>` as its preview
/// — the line sharing most query terms (the first on a tie), left out when it is the heading
/// the path already ends with — and its UTF-16 offsets in the draft.
/// Cost: O(log n + chars of the unit's own text).
fn unit_view(draft: &Rope, id: Letter, range: &Range<usize>, x: &Indexed, query: &[String]) -> Candidate {
    let line = x.unit.lines.start + 1;
    let end_line = x.unit.lines.end.max(line);
    let shares = |l: &str| {
        let mut seen: Vec<String> = Vec::new();
        find::bm25::terms(l, |t, _| {
            if query.contains(&t) && !seen.contains(&t) {
                seen.push(t);
            }
        });
        seen.len()
    };
    let head_lines = x.head.lines().count();
    let mut best: Option<(usize, usize, &str)> = None; // (terms shared, index, line)
    for (i, l) in x.head.lines().chain(x.body.lines()).enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let n = shares(l);
        if best.map_or(true, |(b, _, _)| n > b) {
            best = Some((n, i, l));
        }
    }
    let mut parts = Vec::new();
    if end_line > line {
        parts.push(format!("→{end_line}"));
    }
    let heading = x.unit.heading_path.join(" › ");
    if !heading.is_empty() {
        parts.push(heading);
    }
    // A section's and a code block's path ends with their own heading (their first line).
    let names_itself = matches!(x.unit.kind, find::UnitKind::Section | find::UnitKind::Block);
    if let Some((_, _, l)) = best.filter(|(_, i, _)| !(names_itself && *i < head_lines)) {
        parts.push(clip_within(l.trim(), PREVIEW_CHARS));
    }
    Candidate {
        id: id.to_string(),
        line,
        end_line: Some(end_line),
        preview: parts.join(" · "),
        marker_start: format!("[[SEL#{id}]]"),
        marker_end: format!("[[/SEL#{id}]]"),
        occurrence: id.index(),
        context_start: text::char_to_utf16(draft, range.start),
        context_end: text::char_to_utf16(draft, range.end),
        recommended: false,
        recommended_reason: None,
        pick_refused: false,
        stale: false,
        match_quality: "exact".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::read_vectors;
    use serde_json::json;

    #[test]
    fn embed_reports_read_as_vectors_or_the_error() {
        assert_eq!(read_vectors(&json!([[1, 0.5], [0, -2]])), Ok(vec![vec![1.0, 0.5], vec![0.0, -2.0]]));
        assert_eq!(read_vectors(&json!({"error": "rate limited"})), Err("rate limited".to_string()));
        assert!(read_vectors(&json!([[1, "x"]])).is_err());
        assert!(read_vectors(&json!("nope")).is_err());
    }
}
