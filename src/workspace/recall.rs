//! The memory tools (docs/workflow.md#memory-store): `memo_recall_context` returns whole stored turns,
//! `memo_search_memory` ranks them by keywords. The store itself is [`crate::memory`]; the host
//! fills it (`ws.records.memory.add`, `import`) and enables the tools with the `memory` option — the memory
//! module is optional, and tools that could only ever answer "nothing stored" would cost
//! every request their schema.

use super::outcome::{MemoryOutcome, NothingFound};
use super::words::{self, Voice};
use super::Workspace;
use crate::memory::{MemoryError, MemoryStore, TurnRecord};
use crate::response::{MemoryHitView, MemoryView, Response};
use crate::text_rules::one_line;

/// Results `memo_search_memory` returns without a `limit`.
pub const DEFAULT_SEARCH_LIMIT: usize = 5;
/// Most results one search returns: each carries a snippet and a summary.
pub const MAX_SEARCH_LIMIT: usize = 20;

impl Workspace {
    /// The memory store: turns the host stored, searched and recalled by the tools.
    pub fn memory(&self) -> &MemoryStore {
        &self.records.memory
    }

    /// Stores one turn (`ws.records.memory.add`). Errors: [`MemoryError::TurnNotIncreasing`],
    /// [`MemoryError::InvalidTime`]; the store is unchanged then. Cost: O(size of the turn).
    pub fn memory_add(&mut self, record: TurnRecord) -> Result<(), MemoryError> {
        self.records.memory.add(record)
    }

    /// Replaces the store by an [`MemoryStore::export`] (`ws.records.memory.import`); on error the old
    /// store is kept. Cost: O(size of the export).
    pub fn memory_import(&mut self, json: &str) -> Result<(), MemoryError> {
        self.records.memory = MemoryStore::import(json)?;
        Ok(())
    }

    /// [`Workspace::memory_import`] of an export already parsed.
    pub fn memory_import_value(&mut self, json: &serde_json::Value) -> Result<(), MemoryError> {
        self.records.memory = MemoryStore::import_value(json)?;
        Ok(())
    }

    /// `memo_recall_context(turn_numbers)`: the stored turns, in the order asked; `NoMatch`
    /// naming the turns not stored and the stored range. Cost: O(size of the turns).
    pub(super) fn recall_context(&self, turns: &[i64]) -> Response {
        // The schema admits any whole number ≥ 1; a turn beyond u32 cannot be stored.
        let asked: Vec<u32> = turns.iter().map(|&t| u32::try_from(t).unwrap_or(u32::MAX)).collect();
        match self.records.memory.recall(&asked) {
            Ok(records) => {
                let outcome = MemoryOutcome::Recalled { turns: records.iter().map(|r| r.turn).collect() };
                let mut r = words::memory(&outcome, &Voice::of(self));
                r.content = Some(records.iter().map(|t| recall_text(t)).collect::<Vec<_>>().join("\n\n"));
                r.memory = Some(MemoryView::Recall { turns: records.into_iter().cloned().collect() });
                self.finish(r, None)
            }
            Err(error) => {
                let outcome = MemoryOutcome::NotRecalled { error, known: self.records.memory.known_range() };
                self.finish(words::memory(&outcome, &Voice::of(self)), None)
            }
        }
    }

    /// `memo_search_memory(query, limit?)`: ranked hits with a snippet each; `NoMatch` saying
    /// why nothing was found. Cost: one BM25F search of the store.
    pub(super) fn search_memory(&self, query: &str, limit: Option<i64>) -> Response {
        let limit = limit.map_or(DEFAULT_SEARCH_LIMIT, |n| (n.max(1) as usize).min(MAX_SEARCH_LIMIT));
        let hits = self.records.memory.search(query, limit);
        if hits.is_empty() {
            let why = if self.records.memory.is_empty() {
                NothingFound::StoreEmpty
            } else if crate::memory::terms(query).is_empty() {
                NothingFound::NoWords
            } else {
                NothingFound::NoTurnMatches { stored: self.records.memory.len() }
            };
            let outcome = MemoryOutcome::NotFound { query: query.to_string(), why };
            return self.finish(words::memory(&outcome, &Voice::of(self)), None);
        }
        let views: Vec<MemoryHitView> = hits
            .iter()
            .map(|h| MemoryHitView {
                turn: h.turn,
                score: h.score,
                summary: self.records.memory.get(h.turn).map(|r| r.summary.clone()).unwrap_or_default(),
                snippet: h.snippet.clone(),
            })
            .collect();
        let outcome = MemoryOutcome::Found { count: views.len(), query: query.to_string() };
        let mut r = words::memory(&outcome, &Voice::of(self));
        r.content = Some(
            views
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let score = crate::decimal::fixed(h.score, 2);
                    format!("{}. [Turn {}] {} (score {score})\n   {}", i + 1, h.turn, one_line(&h.summary), h.snippet)
                })
                .collect::<Vec<_>>()
                .join("\n"),
        );
        r.memory = Some(MemoryView::Search { query: query.to_string(), hits: views });
        self.finish(r, None)
    }
}

/// One recalled turn as the model reads it: `[Turn N] summary`, its insights and tags, then the
/// stored context.
fn recall_text(t: &TurnRecord) -> String {
    let mut out = format!("[Turn {}] {}", t.turn, one_line(&t.summary));
    for i in &t.insights {
        out.push_str(&format!("\n- {}", one_line(i)));
    }
    if !t.tags.is_empty() {
        out.push_str(&format!("\nTags: {}", t.tags.join(", ")));
    }
    out.push_str("\nContext:\n");
    out.push_str(&t.context);
    out
}
