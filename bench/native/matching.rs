//! Native matching benchmarks (criterion): agentpad's exact tier and `locate` against raw
//! `memchr::memmem` on the flattened `String` — the native limit.
//!
//! Run through `./build.sh bench`, which also runs the wasm/JS side and writes the report
//! (`target/bench/report.md`). Alone: `cargo bench --manifest-path bench/native/Cargo.toml --bench matching`. Documents come from
//! `bench/native/common/docs.rs` (the same seeded generator as `bench/speed/lib/docs.mjs`);
//! `AGENTPAD_BENCH_DOCS=code-1MB,markdown-10MB,…` picks them (default `code-1MB,code-10MB,cjk-1MB`).
//!
//! Criterion ids are `<work>/<implementation>/<document>`; the report step reads them back from
//! `target/criterion/<work>/<implementation>/<document>/new/`.
//!
//! | work | implementations |
//! | --- | --- |
//! | `locate-all` (30-char needle, many hits) | `agentpad-find_bytes`, `agentpad-find_exact`, `agentpad-locate-rope`, `agentpad-locate` (layered, as the tools call it), `memmem` |
//! | `locate-unique` (one hit; the whole text is searched to know it is unique) | same |
//! | `fuzzy` (no exact hit; the needle is indented differently) | `agentpad-locate` |
//! | `worst-<shape>` (bench/native/common/worst.rs, per tier `worst-1MB`, `worst-10MB`: a near miss that runs every step) | `agentpad-memo_replace` |

#[cfg(not(target_arch = "wasm32"))]
mod common;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::hint::black_box;
    use std::time::Duration;

    use agentpad::changeset::ChangeSet;
    use agentpad::matching::exact::Layered;
    use agentpad::matching::{exact, locate, locate_layered};
    use agentpad::text::Text;
    use criterion::{BenchmarkId, Criterion};
    use memchr::memmem;
    use ropey::Rope;

    use crate::common::docs::{self, Doc};

    /// The native limit: every non-overlapping hit in the flattened text.
    fn memmem_all(hay: &str, needle: &str) -> Vec<usize> {
        memmem::find_iter(hay.as_bytes(), needle.as_bytes()).collect()
    }

    /// Checks, once per document, that agentpad and memmem agree before timing them, and prints
    /// what `locate` finds for the fuzzy needle (it may not find anything while the fuzzy tiers
    /// are being built: the bench still runs and reports the time).
    fn check(doc: &Doc, rope: &Rope) {
        for needle in [doc.needles.all, doc.needles.unique] {
            let native = memmem_all(&doc.text, needle);
            assert_eq!(exact::find_bytes(rope, needle), native, "{}: find_bytes vs memmem for {needle:?}", doc.name);
            let located = locate(rope, needle, 0);
            let starts: Vec<usize> = located.matches.iter().map(|m| rope.char_to_byte(m.range.start)).collect();
            assert_eq!(starts, native, "{}: locate vs memmem for {needle:?}", doc.name);
        }
        assert_eq!(memmem_all(&doc.text, doc.needles.unique).len(), 1, "{}: the unique needle is unique", doc.name);
        assert!(memmem_all(&doc.text, &doc.needles.fuzzy).is_empty(), "{}: the fuzzy needle has no exact hit", doc.name);
        let fuzzy = locate(rope, &doc.needles.fuzzy, 0);
        let expected_line = doc.text[..doc.text.find(&doc.needles.fuzzy_doc).unwrap()].matches('\n').count() + 1;
        let lines: Vec<usize> = fuzzy.matches.iter().map(|m| rope.char_to_line(m.range.start) + 1).collect();
        let quality = fuzzy.quality().map(|q| q.to_string()).unwrap_or_else(|| "-".into());
        let verdict = if lines == [expected_line] { "ok" } else { "WRONG" };
        eprintln!(
            "{}: fuzzy locate found {} match(es) at lines {lines:?}, quality {quality} (expected line {expected_line}): {verdict}",
            doc.name,
            fuzzy.matches.len()
        );
    }

    pub fn run() {
        let docs = docs::selected_docs();
        docs::write_fingerprints("matching", &docs);
        let ropes: Vec<Rope> = docs.iter().map(|d| Rope::from_str(&d.text)).collect();
        for (doc, rope) in docs.iter().zip(&ropes) {
            check(doc, rope);
        }

        // Short runs: the whole suite must take minutes on a 2-core machine. Ten samples (criterion's
        // minimum) are enough for median/min/max of operations this stable.
        let mut c = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1))
            .without_plots()
            .configure_from_args();

        for (work, pick) in [("locate-all", 0), ("locate-unique", 1)] {
            let mut g = c.benchmark_group(work);
            for (doc, rope) in docs.iter().zip(&ropes) {
                let needle = if pick == 0 { doc.needles.all } else { doc.needles.unique };
                let text = doc.text.as_str();
                g.bench_with_input(BenchmarkId::new("memmem", &doc.name), &needle, |b, n| {
                    b.iter(|| memmem_all(black_box(text), black_box(n)))
                });
                g.bench_with_input(BenchmarkId::new("agentpad-find_bytes", &doc.name), &needle, |b, n| {
                    b.iter(|| exact::find_bytes(black_box(rope), black_box(n)))
                });
                g.bench_with_input(BenchmarkId::new("agentpad-find_exact", &doc.name), &needle, |b, n| {
                    b.iter(|| exact::find_exact(black_box(rope), black_box(n), 0))
                });
                g.bench_with_input(BenchmarkId::new("agentpad-locate-rope", &doc.name), &needle, |b, n| {
                    b.iter(|| locate(black_box(rope), black_box(n), 0))
                });
                // What the replace tools call: the document's text with its flat copy kept
                // (built by the warm-up's first search), no pending replacements.
                let text = Text::from_storage(&doc.text);
                let changes = ChangeSet::new(text.rope().len_chars());
                let layers = Layered { base: &text, changes: &changes, draft: text.rope() };
                g.bench_with_input(BenchmarkId::new("agentpad-locate", &doc.name), &needle, |b, n| {
                    b.iter(|| locate_layered(black_box(&layers), black_box(n), 0))
                });
            }
            g.finish();
        }

        let mut g = c.benchmark_group("fuzzy");
        for doc in &docs {
            let text = Text::from_storage(&doc.text);
            let changes = ChangeSet::new(text.rope().len_chars());
            let layers = Layered { base: &text, changes: &changes, draft: text.rope() };
            g.bench_with_input(BenchmarkId::new("agentpad-locate", &doc.name), &doc.needles.fuzzy, |b, n| {
                b.iter(|| locate_layered(black_box(&layers), black_box(n), 0))
            });
        }
        g.finish();

        crate::worst_case(&mut c);
        c.final_summary();
    }
}

/// The worst case per tier: one memo_replace (Workspace::call, as the tools run it) per shape,
/// checked to answer NoMatch before timing.
#[cfg(not(target_arch = "wasm32"))]
fn worst_case(c: &mut criterion::Criterion) {
    use agentpad::{CallContext, Config, Step, Workspace};
    use criterion::BenchmarkId;
    use serde_json::json;

    let tiers = common::worst::tiers();
    let shapes: Vec<(String, Vec<common::worst::Shape>)> =
        tiers.iter().map(|(t, bytes)| (t.clone(), common::worst::shapes(*bytes))).collect();
    let rows: Vec<(String, &common::worst::Shape)> = shapes.iter().flat_map(|(t, ss)| ss.iter().map(move |s| (t.clone(), s))).collect();
    common::worst::write_fingerprints(&rows);
    for (tier, shape) in rows {
        let mut ws = Workspace::new(Config::default());
        ws.open("worst.txt", &shape.text, "v1").expect("open the shape");
        let args = json!({"old_text": shape.needle, "new_text": "x", "path": "worst.txt"});
        let call = |ws: &mut Workspace| match ws.call("memo_replace", &args, &CallContext::default()) {
            Step::Done(r) => r,
            _ => panic!("memo_replace without storage asked for storage"),
        };
        let r = call(&mut ws);
        assert_eq!(r.status.as_str(), "NoMatch", "worst-{} at {tier}: {}", shape.name, r.summary);
        let mut g = c.benchmark_group(format!("worst-{}", shape.name));
        g.bench_function(BenchmarkId::new("agentpad-memo_replace", format!("worst-{tier}")), |b| b.iter(|| call(&mut ws)));
        g.finish();
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::run();
}

#[cfg(target_arch = "wasm32")]
fn main() {}
