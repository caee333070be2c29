//! agentpad: the editing engine LLM agents use to change text safely.
//!
//! An agent's tool call is matched unambiguously, staged as a lettered pending change with a
//! diff preview, and only saved on `commit`. The core is pure Rust with no I/O and no clock
//! (docs/architecture.md#sans-io-steps): [`Workspace::call`] takes a tool name and JSON
//! arguments and returns a [`Step`] — [`Step::Done`] with the [`Response`] (JSON fields and
//! Markdown for the model), or storage work for the host ([`Step::Persist`], [`Step::Load`]).
//! [`Workspace::run`] does that work with a [`Storage`] ([`MemoryStorage`], or `FsStorage`
//! on a folder with the `fs` feature) and returns the final response.
//!
//! ```
//! use agentpad::{CallContext, Config, PersistResult, Step, Workspace};
//! use serde_json::json;
//!
//! let mut ws = Workspace::new(Config::default());
//! ws.open("config.json", "{ \"timeout\": 30 }\n", "v1")?;
//! let ctx = CallContext::default();
//! let Step::Done(r) = ws.call("memo_replace", &json!({"old_text": "30", "new_text": "60"}), &ctx) else { unreachable!() };
//! assert!(r.markdown.contains("Staged change A"));
//! // A commit asks the host to write; the host reports what storage did.
//! let Step::Persist(writes) = ws.call("memo_commit", &json!({"summary": "longer timeout"}), &ctx) else { unreachable!() };
//! assert_eq!(writes[0].text, "{ \"timeout\": 60 }\n");
//! let saved = vec![PersistResult::Saved { path: writes[0].path.clone(), version: "v2".into() }];
//! let Step::Done(r) = ws.complete_persist(saved) else { unreachable!() };
//! assert_eq!(r.status, agentpad::Status::Success);
//! # Ok::<(), agentpad::WorkspaceError>(())
//! ```
//!
//! The public API (docs/decisions.md#a-small-public-api): the root items, and the modules
//! [`response`] (the data of a response), [`tools`] (registry, schemas, argument checking),
//! [`changeset`] (edits as data), [`text`] (document model, positions), [`validate`] (the
//! Markdown contract), [`history`] (compressing transcripts), [`live_context`] (the per-turn
//! context block), [`memory`] (the memory store), [`diagnostics`]. Everything else is internal.
//! `wasm` (wasm32 only) is the JavaScript binding and only converts.
//!
//! No panic may reach JavaScript (on wasm a panic aborts and poisons the instance), so outside
//! tests the lints below refuse `unwrap`, `expect`, `panic!`-like macros, and indexing or
//! slicing that can go out of bounds. Bad input becomes an error value instead; where an index
//! is in bounds by construction (an algorithm's own tables), the function carries
//! `#[allow(clippy::indexing_slicing)]` with a `// Bounds:` comment that says why. Ropey's
//! position methods (`slice`, `line_to_char`, …) panic out of range too and are not linted:
//! they are only called with positions computed from the same rope, or checked first. `./build.sh
//! test` runs clippy with these lints on both targets.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented,
        clippy::indexing_slicing,
        clippy::string_slice
    )
)]
// Every type a public item hands out can be named by its user (a re-export above or a public
// module); a type only the crate uses is handed out by crate-private items only.
#![deny(unnameable_types)]

// Callers in the crate's own tests (src/internal_tests.rs) name the crate as users do.
#[cfg(test)]
extern crate self as agentpad;

// The public API (docs/decisions.md#a-small-public-api): the root re-exports below, and these
// modules, whose items are the data a Rust user reads or builds.
pub mod changeset;
pub mod diagnostics;
pub mod history;
pub mod live_context;
pub mod memory;
pub mod response;
pub mod text;
pub mod tools;
pub mod validate;

// Internals. `matching` and `preview` are public only with the `internals` feature, which no
// user build turns on: for the fuzz targets (fuzz/) and the benches of the algorithms
// (bench/native/), which are separate crates. Nothing there is covered by semver.
mod decimal;
mod decomposition;
mod find;
mod format;
#[cfg(any(target_arch = "wasm32", test))]
mod host_texts;
mod input;
mod locale;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod matching;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)] // what only the fuzz targets and benches call
mod matching;
mod outline;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod preview;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)] // what only the fuzz targets and benches call
mod preview;
mod session;
mod small_map;
mod sort;
mod storage;
mod tasks;
mod text_index;
mod text_rules;
mod workflow;
mod workspace;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod internal_tests;
#[cfg(test)]
mod typescript;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use format::{CandidateStyle, Locale, Words};
pub use input::InputError;
pub use matching::near::{DiffPiece, Difference, DifferenceLine, LineAt, NearMissView};
pub use matching::recommend::Reason;
pub use matching::{CandidateQuality, MatchQuality, Tier};
pub use preview::{ChangeSpan, PreviewMode};
pub use response::{Response, Status};
#[cfg(all(feature = "fs", not(target_arch = "wasm32")))]
pub use storage::FsStorage;
pub use storage::{MemoryStorage, Numbering, OpenError, PathRule, Storage, StorageError, Stored};
pub use workflow::{Flags, PersistMode, WorkflowState};
pub use workspace::{
    parse_call, CallContext, Config, ContentPart, Document, LiveContextBlock, LiveContextRequest, LoadResult, OptionKind, OptionSpec,
    OptionValue, PersistEdit, PersistRequest, PersistResult, ReadLimits, RecordRequest, RecordResult, Step, StoredAt, TaskReport, Tool,
    ToolHandler, ToolRow, ToolState, Workspace, WorkspaceError, MAX_DOCUMENT_BYTES, OPTIONS,
};
