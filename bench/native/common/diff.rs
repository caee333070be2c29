//! Native unified-diff benchmarks (criterion): the native limit for the diff suite of the JS
//! harness (`bench/speed/suites/diff.mjs`) — the same documents, the same edit sets
//! (`common/edits.rs`, a port of the suite's `EDITS`), the same labels and context.
//!
//! Shared by `bench/native/diff.rs` (alone: `cargo bench --manifest-path
//! bench/native/Cargo.toml --bench diff`) and `bench/native/session.rs`, which runs them after its
//! own, so that `./build.sh bench` (`--bench matching --bench session`) includes them. Documents: `AGENTPAD_BENCH_DIFF_DOCS` (the JS suite's
//! variable), by default the JS suite's documents of 1 MB and more but markdown-1MB
//! (`NATIVE_DIFF_DOCS`: at 100 KB every native diff takes well under a millisecond, and the
//! bench must stay short).
//!
//! Criterion ids are `<work>/<implementation>/<document>`, work = `anchor-diff-1` (one word
//! renamed in one line), `anchor-diff-10` (10 scattered lines), `anchor-diff-1pct` (1 % of the
//! lines):
//!
//! | implementation | timed |
//! | --- | --- |
//! | `similar` | `similar::TextDiff::from_lines(old, new).unified_diff().context_radius(3).header("a/doc.md", "b/doc.md").to_string()` (default algorithm: Myers, no deadline) |
//! | `agentpad-diff` | `agentpad::changeset::ChangeSet::diff(&old, &new)` on ropes built beforehand (as a workspace holds them), its replacements as `ChangeSpan`s, `preview::render` in `diff` mode with no length cap: what the anchor diff of `ws.liveContext()` runs, without the live context around it and without a deadline |
//!
//! Every patch is applied back strictly (`common::edits::strict_apply`) before anything is
//! timed. A wrong patch does not stop the bench: it is recorded as wrong in
//! `native-diff-checks.json` (the report marks it and never turns it into a ratio) — `similar`
//! is a peer here, not something this crate controls. `native-diff-edits.json` holds the FNV-1a
//! hash of every new text (the report checks the JS suite diffed the same texts), and
//! `native-docs-diff.json` the documents' fingerprints.
//!
//! A pair whose single run takes longer than `AGENTPAD_BENCH_DIFF_NATIVE_SLOW_MS` (default
//! 300 ms) is not given to criterion (10 samples at least): it is timed
//! `AGENTPAD_BENCH_DIFF_SLOW_RUNS` times (default 3) here and written to
//! `native-diff-slow.json`, which the report reads like a criterion result.

#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use agentpad::changeset::ChangeSet;
use agentpad::preview::{self, ChangeSpan, PreviewMode, PreviewOptions};
use criterion::{BenchmarkId, Criterion, SamplingMode};
use ropey::Rope;
use similar::TextDiff;

use super::docs::{self, Doc};
use super::edits::{self, EDIT_SETS};

const PATH: &str = "doc.md";
const OLD_LABEL: &str = "a/doc.md";
const NEW_LABEL: &str = "b/doc.md";
const CONTEXT: usize = 3;
/// The JS suite's default documents (`DIFF_DOCS` in bench/speed/suites/diff.mjs) of 1 MB and more,
/// except markdown-1MB (the bench must stay short).
const NATIVE_DIFF_DOCS: &str = "code-1MB,code-10MB,markdown-10MB,cjk-1MB";

fn similar_patch(old: &str, new: &str) -> String {
    TextDiff::from_lines(old, new).unified_diff().context_radius(CONTEXT).header(OLD_LABEL, NEW_LABEL).to_string()
}

fn agentpad_patch(old: &Rope, new: &Rope) -> String {
    let cs = ChangeSet::diff(old, new);
    let spans: Vec<ChangeSpan> =
        cs.replacements().iter().zip(cs.draft_ranges()).map(|(r, draft)| ChangeSpan { base: r.range.clone(), draft }).collect();
    let opts = PreviewOptions { mode: PreviewMode::Diff, context_lines: CONTEXT, max_length: 0, ..PreviewOptions::default() };
    preview::render(old, new, &spans, PATH, &opts)
}

struct Case {
    doc: String,
    work: &'static str,
    old: String,
    new: String,
    old_rope: Rope,
    new_rope: Rope,
}

/// One line of native-diff-checks.json.
fn check_entry(case: &Case, impl_: &str, patch: &str, first_ms: f64, minimal: (usize, usize)) -> (bool, String) {
    let (ok, detail) = match edits::strict_apply(&case.old, patch, OLD_LABEL, NEW_LABEL) {
        Err(e) => (false, format!("strict apply FAILS ({e})")),
        Ok(a) if a.text != case.new => (false, "strict apply gives a DIFFERENT text".to_string()),
        Ok(a) => (
            true,
            format!(
                "strict apply gives the new text; {} hunks, -{} +{} lines (minimal: -{} +{}{})",
                a.hunks,
                a.removed,
                a.added,
                minimal.0,
                minimal.1,
                if (a.removed, a.added) == minimal { ", met" } else { "" }
            ),
        ),
    };
    let shape = edits::strict_apply(&case.old, patch, OLD_LABEL, NEW_LABEL)
        .map(|a| {
            format!(
                "\"hunks\": {}, \"removed\": {}, \"added\": {}, \"minimal\": {}",
                a.hunks,
                a.removed,
                a.added,
                (a.removed, a.added) == minimal
            )
        })
        .unwrap_or_else(|_| "\"hunks\": null, \"removed\": null, \"added\": null, \"minimal\": false".to_string());
    let detail = format!("{detail}; {} chars; first run {first_ms:.1} ms", patch.len());
    eprintln!("{} {} {impl_}: {}", case.work, case.doc, if ok { "ok" } else { "WRONG" });
    (
        ok,
        format!(
            "  {{\"work\": \"{}\", \"impl\": \"{impl_}\", \"doc\": \"{}\", \"correct\": {ok}, {shape}, \"first_ms\": {first_ms:.3}, \"detail\": {}}}",
            case.work,
            case.doc,
            json_str(&detail)
        ),
    )
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn env_num(name: &str, default: f64) -> f64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

pub fn run() {
    let spec = std::env::var("AGENTPAD_BENCH_DIFF_DOCS").unwrap_or_else(|_| NATIVE_DIFF_DOCS.to_string());
    let docs: Vec<Doc> = docs::parse_doc_list(&spec).iter().map(|(k, s)| docs::generate(k, s)).collect();
    docs::write_fingerprints("diff", &docs);
    let slow_ms = env_num("AGENTPAD_BENCH_DIFF_NATIVE_SLOW_MS", 300.0);
    let slow_runs = env_num("AGENTPAD_BENCH_DIFF_SLOW_RUNS", 3.0).max(1.0) as usize;

    let mut cases = Vec::new();
    let mut edit_lines = Vec::new();
    for doc in &docs {
        for (key, work) in EDIT_SETS {
            let e = edits::make(doc.kind, &doc.text, key);
            edit_lines.push(format!(
                "  {{\"doc\": \"{}\", \"work\": \"{work}\", \"new_fnv1a32\": \"{}\", \"removed\": {}, \"added\": {}}}",
                doc.name,
                docs::fnv1a32(&e.new_text),
                e.removed,
                e.added
            ));
            cases.push((
                Case {
                    doc: doc.name.clone(),
                    work,
                    old_rope: Rope::from_str(&doc.text),
                    new_rope: Rope::from_str(&e.new_text),
                    old: doc.text.clone(),
                    new: e.new_text,
                },
                (e.removed, e.added),
            ));
        }
    }
    let dir = docs::out_dir();
    std::fs::create_dir_all(&dir).expect("create the bench output directory");
    std::fs::write(dir.join("native-diff-edits.json"), format!("[\n{}\n]\n", edit_lines.join(",\n"))).expect("write the edit fingerprints");

    // Check every patch once (that run also says whether the pair is slow).
    let mut checks = Vec::new();
    let mut slow = Vec::new();
    let mut fast: Vec<(usize, &'static str)> = Vec::new();
    for (i, (case, minimal)) in cases.iter().enumerate() {
        for impl_ in ["agentpad-diff", "similar"] {
            let t = Instant::now();
            let patch =
                if impl_ == "similar" { similar_patch(&case.old, &case.new) } else { agentpad_patch(&case.old_rope, &case.new_rope) };
            let first_ms = t.elapsed().as_secs_f64() * 1e3;
            let (_, line) = check_entry(case, impl_, &patch, first_ms, *minimal);
            checks.push(line);
            if first_ms > slow_ms {
                let mut samples = Vec::new();
                for _ in 0..slow_runs {
                    let t = Instant::now();
                    let p = if impl_ == "similar" {
                        similar_patch(&case.old, &case.new)
                    } else {
                        agentpad_patch(&case.old_rope, &case.new_rope)
                    };
                    samples.push(t.elapsed().as_secs_f64() * 1e3);
                    black_box(p);
                }
                eprintln!("{} {} {impl_}: slow ({first_ms:.0} ms a run): {slow_runs} timed runs outside criterion", case.work, case.doc);
                slow.push(format!(
                    "  {{\"work\": \"{}\", \"impl\": \"{impl_}\", \"doc\": \"{}\", \"samples_ms\": [{}], \"first_ms\": {first_ms:.3}}}",
                    case.work,
                    case.doc,
                    samples.iter().map(|x| format!("{x:.3}")).collect::<Vec<_>>().join(", ")
                ));
            } else {
                fast.push((i, impl_));
            }
        }
    }
    std::fs::write(dir.join("native-diff-checks.json"), format!("[\n{}\n]\n", checks.join(",\n"))).expect("write the diff checks");
    std::fs::write(dir.join("native-diff-slow.json"), format!("[\n{}\n]\n", slow.join(",\n"))).expect("write the slow diff timings");

    // The other native benches' settings with shorter warm-up and measurement (30 pairs: the
    // bench must stay short); flat sampling (an iteration takes ms to hundreds of ms at 10 MB,
    // where the 10 samples take longer than the measurement time anyway).
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(500))
        .without_plots()
        .configure_from_args();
    for (_, work) in EDIT_SETS {
        let mut g = c.benchmark_group(work);
        g.sampling_mode(SamplingMode::Flat);
        for &(i, impl_) in &fast {
            let case = &cases[i].0;
            if case.work != work {
                continue;
            }
            g.bench_with_input(BenchmarkId::new(impl_, &case.doc), case, |b, case| {
                if impl_ == "similar" {
                    b.iter(|| similar_patch(black_box(&case.old), black_box(&case.new)))
                } else {
                    b.iter(|| agentpad_patch(black_box(&case.old_rope), black_box(&case.new_rope)))
                }
            });
        }
        g.finish();
    }
    c.final_summary();
}
