//! Shared by the benches (each bench is its own crate: `mod common;`).
//!
//! Each bench crate compiles every module here and calls some of them.
#![allow(dead_code)]

pub mod diff;
pub mod docs;
pub mod edits;
pub mod worst;
