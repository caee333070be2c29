#![no_main]
//! `cargo fuzz run markdown_validator`: see fuzz/harness/markdown_validator.rs for what it feeds and checks.

use libfuzzer_sys::fuzz_target;

#[path = "../harness/mod.rs"]
mod harness;

fuzz_target!(|data: &[u8]| harness::markdown_validator::run(data));
