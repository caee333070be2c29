//! The engine's tests through its public API — scenarios, response snapshots, property and
//! model-based tests — in one test binary: one link and one build of what they share, instead of
//! a binary per file (docs/decisions.md#a-test-build-that-fits-the-ci-budget). A file here is a
//! module; `cargo test --test engine snapshots::` runs one.
#![cfg(not(target_arch = "wasm32"))]

mod common;

mod architecture;
mod bad_input;
mod call_sequence_model;
mod create;
mod edit_style;
mod elision;
mod find;
mod flat_text;
mod flows;
mod guidance_walk;
mod history;
mod history_fixtures;
mod live_context;
mod matching_tools;
mod memory_model;
mod model_reads;
mod never_wrong;
mod offered_pickable;
mod replace_all;
mod retries;
mod retry_model;
mod scale;
mod snapshots;
mod token_merges;
mod typescript_boundary;
mod undo;
mod validate;
mod versions;
mod workflow;
mod workflow_model;
