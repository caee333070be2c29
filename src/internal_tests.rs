//! Tests of internal modules (matching, session, preview) and the replay of the fuzz harnesses:
//! their files stay in tests/ beside the other scenario and property tests, but they compile
//! into the library's unit tests, where the modules they test are visible (they name the crate
//! `agentpad`, as users do: src/lib.rs declares that name for tests). Cargo.toml keeps them out
//! of the integration tests (`test = false`). Run one: `cargo test --lib matching_model`.
//!
//! Three of them declare `mod common;` (tests/common, the test host), each its own copy, as in
//! a test crate of its own: clippy's `duplicate_mod` would have them share one, which their
//! files cannot name from both places.
#![allow(clippy::duplicate_mod)]

#[path = "../tests/matching_model.rs"]
mod matching_model;
#[path = "../tests/near_model.rs"]
mod near_model;
#[path = "../tests/three_way_model.rs"]
mod three_way_model;
#[path = "../tests/reliability_core.rs"]
mod reliability_core;
#[path = "../tests/session_model.rs"]
mod session_model;
#[path = "../tests/preview_modes.rs"]
mod preview_modes;
#[path = "../tests/fuzz_regressions.rs"]
mod fuzz_regressions;

/// Proptest's configuration for a property test file included here: `cases` cases, failures kept
/// in and replayed from `seeds` (the file's committed `tests/<name>.proptest-regressions`). By
/// default proptest resolves a file included through src/ to `tests/<name>.txt`, and the
/// committed seeds would never run.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn seeded(seeds: &'static str, cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(seeds))),
        ..proptest::test_runner::Config::default()
    }
}
