//! agentpad: the editing engine LLM agents use to change text safely.
//!
//! An agent's tool call is matched unambiguously, staged as a lettered pending change with a
//! diff preview, and only saved on `commit`. The core is pure Rust with no I/O and no clock:
//! [`Workspace::call`] takes a tool name and JSON arguments and returns a [`Response`] (JSON and
//! Markdown for the model) or asks its host to persist texts ([`Step::Persist`]).
//!
//! Modules (docs/architecture.md#module-map): [`text`] (document model, positions), [`matching`],
//! [`session`] (pending changes, selection), [`workflow`] (states, flags, modes), [`tasks`]
//! (the task stack), [`history`] (compressing transcripts), [`live_context`] (the per-turn
//! context block), [`memory`] (the memory store), [`preview`],
//! [`response`] and [`format`] (data and its Markdown view), [`tools`] (registry, schemas,
//! argument checking), [`workspace`] (dispatch). `wasm` is the JavaScript binding and only
//! converts.
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

pub mod changeset;
pub mod diagnostics;
pub mod format;
pub mod history;
pub mod live_context;
pub mod locale;
pub mod matching;
pub mod memory;
pub mod outline;
pub mod preview;
pub mod response;
pub mod session;
pub mod small_map;
mod sort;
mod storage;
pub mod tasks;
pub mod text;
pub mod text_rules;
pub mod tools;
#[cfg(test)]
mod typescript;
pub mod workflow;
pub mod validate;
pub mod workspace;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use format::Locale;
#[cfg(feature = "fs")]
pub use storage::FsStorage;
pub use storage::{MemoryStorage, Numbering, OpenError, PathRule, Storage, StorageError, Stored};
pub use response::{Response, Status};
pub use workflow::{Flags, PersistMode, WorkflowState};
pub use workspace::{CallContext, Config, LoadResult, PersistEdit, PersistRequest, PersistResult, Step, ToolState, Workspace, WorkspaceError, MAX_DOCUMENT_BYTES};
