//! Shared by the benches (each bench is its own crate: `mod common;`).

pub mod diff;
pub mod docs;
pub mod edits;
pub mod worst;
