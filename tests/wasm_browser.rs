//! The wasm binding's tests (tests/wasm.rs) configured to run in a browser, so that
//! `wasm-pack test --headless --chrome` runs them in Chromium; `wasm-pack test --node` runs
//! tests/wasm.rs itself and skips this file, and the browser run skips that one.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "wasm.rs"]
mod cases;
