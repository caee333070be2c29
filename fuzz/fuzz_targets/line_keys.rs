#![no_main]
//! `cargo fuzz run line_keys`: see fuzz/harness/line_keys.rs for what it feeds and checks.

use libfuzzer_sys::fuzz_target;

#[path = "../harness/mod.rs"]
mod harness;

fuzz_target!(|data: &[u8]| harness::line_keys::run(data));
