//! The memory tools' outcomes in words (the phrase tables' `memory.*` keys).

use super::Voice;
use crate::response::{Response, Status};
use crate::workspace::outcome::*;

/// The response for a memory tool's outcome; the caller adds the content and the memory view.
pub fn memory(o: &MemoryOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    let search = format!("{p}_search_memory");
    match o {
        MemoryOutcome::Recalled { turns } => {
            let list = turns.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
            let key = if turns.len() == 1 { "memory.recalled.one" } else { "memory.recalled.other" };
            Response::new(Status::Success, v.t(key, &[("turns", &list)]))
                .with_guidance(v.t("memory.recalled.guidance", &[("tool", &search)]))
        }
        MemoryOutcome::NotRecalled { error, known } => {
            let guidance = match known {
                Some((lo, hi)) => v.t("memory.ask_stored", &[("lo", lo), ("hi", hi), ("tool", &search)]),
                None => v.t("memory.store_empty.guidance", &[]),
            };
            // The turns the model asked for, in the voice's words; any other error of the store
            // is the host's and reads as the store says it.
            let error = match error {
                crate::memory::MemoryError::UnknownTurns { turns, known } => {
                    let list = turns.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
                    let form = if turns.len() == 1 { "one" } else { "other" };
                    match known {
                        Some((lo, hi)) if lo == hi => v.t(&format!("memory.unknown_turns.{form}.only"), &[("turns", &list), ("lo", lo)]),
                        Some((lo, hi)) => v.t(&format!("memory.unknown_turns.{form}.range"), &[("turns", &list), ("lo", lo), ("hi", hi)]),
                        None => v.t(&format!("memory.unknown_turns.{form}.none"), &[("turns", &list)]),
                    }
                }
                other => other.to_string(),
            };
            Response::new(Status::NoMatch, v.t("memory.not_recalled", &[("error", &error)])).with_guidance(guidance)
        }
        MemoryOutcome::Found { count, query } => {
            let key = if *count == 1 { "memory.found.one" } else { "memory.found.other" };
            Response::new(Status::Success, v.t(key, &[("n", count), ("query", &crate::text::clip(query, 60))]))
                .with_guidance(v.t("memory.found.guidance", &[("tool", &format!("{p}_recall_context"))]))
        }
        MemoryOutcome::NotFound { query, why } => {
            let why = match why {
                NothingFound::StoreEmpty => v.t("memory.why.store_empty", &[]),
                NothingFound::NoWords => v.t("memory.why.no_words", &[]),
                NothingFound::NoTurnMatches { stored } => v.t("memory.why.no_turn_matches", &[("stored", stored)]),
            };
            Response::new(Status::NoMatch, v.t("memory.not_found", &[("query", &crate::text::clip(query, 60)), ("why", &why)]))
                .with_guidance(v.t("memory.not_found.guidance", &[]))
        }
    }
}
