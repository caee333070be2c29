//! Native unified-diff benchmarks (criterion): `similar` and agentpad's `ChangeSet::diff` +
//! `preview::render` on the documents and edit sets of the JS diff suite
//! (`bench/speed/suites/diff.mjs`). The benches live in `common/diff.rs` (see there);
//! `./build.sh bench` runs this target with the others, `cargo bench --manifest-path bench/native/Cargo.toml --bench diff` alone.

#[cfg(not(target_arch = "wasm32"))]
mod common;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    common::diff::run();
}

#[cfg(target_arch = "wasm32")]
fn main() {}
