//! The fuzz harnesses, shared by the `cargo fuzz` targets (fuzz/fuzz_targets/) and by the
//! regression test that replays every kept input (src/internal_tests/fuzz_replay.rs). Each harness takes
//! the fuzzer's raw bytes, builds its input with `arbitrary::Unstructured` and panics when an
//! invariant breaks.
#![allow(dead_code)]

pub mod gen;
pub mod line_keys;
pub mod markdown_validator;
pub mod matcher;
pub mod span_markers;
pub mod tool_calls;

/// A harness: the fuzzer's bytes in, a panic when an invariant breaks.
pub type Harness = fn(&[u8]);

/// Every target: (name, harness). The names are the fuzz targets' and the directories' under
/// fuzz/regressions/.
pub const TARGETS: &[(&str, Harness)] = &[
    ("tool_calls", tool_calls::run),
    ("matcher", matcher::run),
    ("span_markers", span_markers::run),
    ("line_keys", line_keys::run),
    ("markdown_validator", markdown_validator::run),
];
