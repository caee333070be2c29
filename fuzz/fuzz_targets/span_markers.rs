#![no_main]
//! `cargo fuzz run span_markers`: see fuzz/harness/span_markers.rs for what it feeds and checks.

use libfuzzer_sys::fuzz_target;

#[path = "../harness/mod.rs"]
mod harness;

fuzz_target!(|data: &[u8]| harness::span_markers::run(data));
