//! The memory tools (docs/workflow.md#memory-store): `memo_recall_context` returns whole stored turns,
//! `memo_search_memory` ranks them by keywords. The store itself is [`crate::memory`]; the host
//! fills it (`ws.memory.add`, `import`) and enables the tools with the `memory` option — the memory
//! module is optional, and tools that could only ever answer "nothing stored" would cost
//! every request their schema.

use super::views::plural;
use super::Workspace;
use crate::memory::{MemoryError, MemoryStore, TurnRecord};
use crate::response::{MemoryHitView, MemoryView, Response, Status};

/// Results `memo_search_memory` returns without a `limit`.
pub const DEFAULT_SEARCH_LIMIT: usize = 5;
/// Most results one search returns: each carries a snippet and a summary.
pub const MAX_SEARCH_LIMIT: usize = 20;

impl Workspace {
    /// The memory store: turns the host stored, searched and recalled by the tools.
    pub fn memory(&self) -> &MemoryStore {
        &self.memory
    }

    /// Stores one turn (`ws.memory.add`). Errors: [`MemoryError::TurnNotIncreasing`],
    /// [`MemoryError::InvalidTime`]; the store is unchanged then. Cost: O(size of the turn).
    pub fn memory_add(&mut self, record: TurnRecord) -> Result<(), MemoryError> {
        self.memory.add(record)
    }

    /// Replaces the store by an [`MemoryStore::export`] (`ws.memory.import`); on error the old
    /// store is kept. Cost: O(size of the export).
    pub fn memory_import(&mut self, json: &str) -> Result<(), MemoryError> {
        self.memory = MemoryStore::import(json)?;
        Ok(())
    }

    /// [`Workspace::memory_import`] of an export already parsed.
    pub fn memory_import_value(&mut self, json: &serde_json::Value) -> Result<(), MemoryError> {
        self.memory = MemoryStore::import_value(json)?;
        Ok(())
    }

    /// `memo_recall_context(turn_numbers)`: the stored turns, in the order asked.
    pub(super) fn recall_context(&self, turns: &[i64]) -> Response {
        let p = &self.config.tool_prefix;
        // The schema admits any whole number ≥ 1; a turn beyond u32 cannot be stored.
        let asked: Vec<u32> = turns.iter().map(|&t| u32::try_from(t).unwrap_or(u32::MAX)).collect();
        match self.memory.recall(&asked) {
            Ok(records) => {
                let list: Vec<String> = records.iter().map(|r| r.turn.to_string()).collect();
                let mut r = Response::new(
                    Status::Success,
                    format!("Recalled turn{} {} from the memory store.", plural(records.len()), list.join(", ")),
                )
                .with_guidance(format!("The stored context is below; {p}_search_memory(query) finds other turns by keyword."));
                r.content = Some(records.iter().map(|t| recall_text(t)).collect::<Vec<_>>().join("\n\n"));
                r.memory = Some(MemoryView::Recall { turns: records.into_iter().cloned().collect() });
                self.finish(r, None)
            }
            Err(e) => {
                let guidance = match self.memory.known_range() {
                    Some((lo, hi)) => format!(
                        "Ask for stored turns ({lo}..={hi}); {p}_search_memory(query) finds a turn by keyword."
                    ),
                    None => "The memory store is empty: the host stores a turn after each one; there is nothing to recall yet.".to_string(),
                };
                let r = Response::new(Status::NoMatch, format!("Nothing recalled: {e}. Nothing was changed.")).with_guidance(guidance);
                self.finish(r, None)
            }
        }
    }

    /// `memo_search_memory(query, limit?)`: ranked hits with a snippet each.
    pub(super) fn search_memory(&self, query: &str, limit: Option<i64>) -> Response {
        let p = &self.config.tool_prefix;
        let limit = limit.map_or(DEFAULT_SEARCH_LIMIT, |n| (n.max(1) as usize).min(MAX_SEARCH_LIMIT));
        let hits = self.memory.search(query, limit);
        if hits.is_empty() {
            let why = if self.memory.is_empty() {
                "the memory store is empty".to_string()
            } else if crate::memory::terms(query).is_empty() {
                "the query has no words to look for".to_string()
            } else {
                format!("no stored turn ({} stored) contains any of its words", self.memory.len())
            };
            let r = Response::new(Status::NoMatch, format!("No memory matches \"{}\": {why}.", crate::text::clip(query, 60)))
                .with_guidance("Try other or fewer words (Chinese works too); the memory digest lists every stored turn's summary.");
            return self.finish(r, None);
        }
        let views: Vec<MemoryHitView> = hits
            .iter()
            .map(|h| MemoryHitView {
                turn: h.turn,
                score: h.score,
                summary: self.memory.get(h.turn).map(|r| r.summary.clone()).unwrap_or_default(),
                snippet: h.snippet.clone(),
            })
            .collect();
        let n = views.len();
        let mut r = Response::new(Status::Success, format!("{n} turn{} match \"{}\", best first.", plural(n), crate::text::clip(query, 60)))
            .with_guidance(format!("{p}_recall_context(turn_numbers) returns a turn's whole stored context."));
        r.content = Some(
            views
                .iter()
                .enumerate()
                .map(|(i, h)| format!("{}. [Turn {}] {} (score {:.2})\n   {}", i + 1, h.turn, one_line(&h.summary), h.score, h.snippet))
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

fn one_line(s: &str) -> String {
    s.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect()
}
