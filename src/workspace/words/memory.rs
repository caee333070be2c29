//! The memory tools' outcomes in words.

use super::Voice;
use crate::response::{Response, Status};
use crate::workspace::outcome::*;
use crate::workspace::views::plural;

/// The response for a memory tool's outcome; the caller adds the content and the memory view.
pub fn memory(o: &MemoryOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    match o {
        MemoryOutcome::Recalled { turns } => Response::new(
            Status::Success,
            format!(
                "Recalled turn{} {} from the memory store.",
                plural(turns.len()),
                turns.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
            ),
        )
        .with_guidance(format!("The stored context is below; {p}_search_memory(query) finds other turns by keyword.")),
        MemoryOutcome::NotRecalled { error, known } => {
            let guidance = match known {
                Some((lo, hi)) => format!("Ask for stored turns ({lo}..={hi}); {p}_search_memory(query) finds a turn by keyword."),
                None => "The memory store is empty: the host stores a turn after each one; there is nothing to recall yet.".to_string(),
            };
            Response::new(Status::NoMatch, format!("Nothing recalled: {error}. Nothing was changed.")).with_guidance(guidance)
        }
        MemoryOutcome::Found { count, query } => Response::new(
            Status::Success,
            format!("{count} turn{} match \"{}\", best first.", plural(*count), crate::text::clip(query, 60)),
        )
        .with_guidance(format!("{p}_recall_context(turn_numbers) returns a turn's whole stored context.")),
        MemoryOutcome::NotFound { query, why } => {
            let why = match why {
                NothingFound::StoreEmpty => "the memory store is empty".to_string(),
                NothingFound::NoWords => "the query has no words to look for".to_string(),
                NothingFound::NoTurnMatches { stored } => format!("no stored turn ({stored} stored) contains any of its words"),
            };
            Response::new(Status::NoMatch, format!("No memory matches \"{}\": {why}.", crate::text::clip(query, 60)))
                .with_guidance("Try other or fewer words (Chinese works too); the memory digest lists every stored turn's summary.")
        }
    }
}
