#![no_main]
//! `cargo fuzz run tool_calls`: see fuzz/harness/tool_calls.rs for what it feeds and checks.

use libfuzzer_sys::fuzz_target;

#[path = "../harness/mod.rs"]
mod harness;

fuzz_target!(|data: &[u8]| harness::tool_calls::run(data));
