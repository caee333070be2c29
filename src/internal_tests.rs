//! What the library's unit tests share: the test host of the scenario tests (tests/engine/common,
//! compiled here once so the property tests beside the modules they test can drive a workspace
//! as users do), proptest's seeded configuration, and the replay of the fuzz harnesses
//! (`cargo test --lib fuzz_replay`). The property tests live beside their modules
//! (src/matching/model_tests.rs, src/session/model_tests.rs, …); they name the crate
//! `agentpad`, as users do: src/lib.rs declares that name for tests.

#[path = "../tests/engine/common/mod.rs"]
pub(crate) mod common;
mod fuzz_replay;

/// Proptest's configuration for a property test module: `cases` cases, failures kept in and
/// replayed from `seeds`, the committed file proptest-regressions/<module path>.txt, named
/// explicitly so the seeds run whatever directory the test binary starts in.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn seeded(seeds: &'static str, cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(seeds))),
        ..proptest::test_runner::Config::default()
    }
}
