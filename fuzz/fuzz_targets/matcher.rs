#![no_main]
//! `cargo fuzz run matcher`: see fuzz/harness/matcher.rs for what it feeds and checks.

use libfuzzer_sys::fuzz_target;

#[path = "../harness/mod.rs"]
mod harness;

fuzz_target!(|data: &[u8]| harness::matcher::run(data));
