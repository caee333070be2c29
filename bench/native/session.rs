//! Native session benchmarks (criterion): whole tool calls through the Rust API
//! (`agentpad::Workspace::call` with `serde_json` arguments) — the work the wasm side does in
//! `bench/speed/suites/session.mjs`, without the JS boundary.
//!
//! Run through `./build.sh bench`, which also runs the wasm/JS side and writes the report
//! (`target/bench/report.md`). Alone: `cargo bench --manifest-path bench/native/Cargo.toml --bench session`. Documents come from
//! `bench/native/common/docs.rs` (the same seeded generator as `bench/speed/lib/docs.mjs`);
//! `AGENTPAD_BENCH_DOCS=code-1MB,markdown-10MB,…` picks them (default `code-1MB,code-10MB,cjk-1MB`).
//!
//! Criterion ids are `<work>/agentpad-call/<document>`:
//!
//! | work | timed | untimed, per iteration |
//! | --- | --- | --- |
//! | `stage-one` | `memo_replace` of the unique needle → `Success` with its compact preview | `memo_revert` after |
//! | `stage-26` | 26 `memo_replace` calls, one per needle of `docs::spread_needles` (each with its preview) | `memo_revert` after |
//! | `commit-26` | `Workspace::run("memo_commit")` with a `MemoryStorage` (its `Step::Persist`: the write moves the text into the storage's map, then `complete_persist`), then `text()` | a fresh workspace with the 26 changes staged, and the storage, before |
//!
//! Every result is checked against a reference computed independently (line replacement on the
//! generated text) before anything is timed; a wrong result stops the bench.

#[cfg(not(target_arch = "wasm32"))]
mod common;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::hint::black_box;
    use std::time::{Duration, Instant};

    use agentpad::{CallContext, Config, MemoryStorage, Response, Status, Step, Workspace};
    use criterion::{BenchmarkId, Criterion, SamplingMode};
    use serde_json::{json, Value};

    use crate::common::docs::{self, Doc};

    const PATH: &str = "bench.txt";
    /// The multi-change session: one change per letter A–Z.
    pub const CHANGES: usize = 26;
    const SUMMARY: &str = "bench: 26 changes";

    /// A storage holding the generated document at version "v1" (as the workspace opened it).
    /// Saves are not logged: the log would copy the text, which the JS storage does not.
    fn storage_for(doc: &Doc) -> MemoryStorage {
        let mut storage = MemoryStorage::new(&[(PATH, &doc.text)]);
        storage.log_writes = false;
        storage
    }

    /// One document's fixture: the arguments of every call and the expected texts.
    struct Fixture<'a> {
        doc: &'a Doc,
        /// `memo_replace` of the unique needle.
        one: Value,
        one_new: String,
        one_expected: String,
        /// UTF-16 offset and 1-based line of the unique needle.
        one_at: usize,
        one_line: usize,
        /// One `memo_replace` per spread needle, in document order.
        many: Vec<Value>,
        many_expected: String,
    }

    /// The new text of the i-th spread needle (the same in `bench/speed/suites/session.mjs`).
    fn edited(needle: &str, i: usize) -> String {
        format!("{needle} // edit {:02}", i + 1)
    }

    fn fixture(doc: &Doc) -> Fixture<'_> {
        let text = doc.text.as_str();
        let unique = doc.needles.unique;
        let one_new = format!("{unique} // edited");
        let at = text.find(unique).expect("the unique needle occurs");
        assert!(text[at + unique.len()..].find(unique).is_none(), "{}: the unique needle is unique", doc.name);
        // Reference: line replacement, not the slicing or searching agentpad does.
        let lines: Vec<&str> = text.split('\n').collect();
        let one_idx = lines.iter().position(|l| *l == unique).expect("the unique needle is a whole line");
        let mut one_lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        one_lines[one_idx] = one_new.clone();

        let spread = docs::spread_needles(text, CHANGES);
        let mut many_lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let mut many = Vec::new();
        for (i, s) in spread.iter().enumerate() {
            assert_eq!(lines[s.line], s.text);
            let new = edited(&s.text, i);
            many_lines[s.line] = new.clone();
            many.push(json!({ "old_text": s.text, "new_text": new }));
        }
        Fixture {
            doc,
            one: json!({ "old_text": unique, "new_text": one_new }),
            one_expected: one_lines.join("\n"),
            one_new,
            one_at: text[..at].encode_utf16().count(),
            one_line: one_idx + 1,
            many,
            many_expected: many_lines.join("\n"),
        }
    }

    /// Writes `<out>/native-session-needles.json`: per document, the FNV-1a hash of the spread
    /// needles joined with "\n" (the report checks the JS side picked the same lines).
    fn write_needles(fixtures: &[Fixture]) {
        let entries: Vec<String> = fixtures
            .iter()
            .map(|fx| {
                let joined: Vec<&str> = fx.many.iter().map(|a| a["old_text"].as_str().unwrap()).collect();
                format!(
                    "  {{\"name\": \"{}\", \"count\": {}, \"fnv1a32\": \"{}\"}}",
                    fx.doc.name,
                    joined.len(),
                    docs::fnv1a32(&joined.join("\n"))
                )
            })
            .collect();
        let dir = docs::out_dir();
        std::fs::create_dir_all(&dir).expect("create the bench output directory");
        std::fs::write(dir.join("native-session-needles.json"), format!("[\n{}\n]\n", entries.join(",\n")))
            .expect("write the session needles");
    }

    fn open(doc: &Doc) -> Workspace {
        let mut ws = Workspace::new(Config::default());
        ws.open(PATH, &doc.text, "v1").expect("open the document");
        ws
    }

    fn call(ws: &mut Workspace, name: &str, args: &Value) -> Step {
        ws.call(name, args, &CallContext::default())
    }

    fn done(step: Step, what: &str) -> Response {
        match step {
            Step::Done(r) => r,
            Step::Persist(_) => panic!("{what}: asked to persist"),
            Step::Load(_) => panic!("{what}: asked to load"),
            Step::Record(_) => panic!("{what}: asked to record"),
            Step::LoadAt { .. } => panic!("{what}: asked to read a stored version"),
            Step::Embed(_) => panic!("{what}: asked to embed"),
        }
    }

    fn revert(ws: &mut Workspace) {
        let r = done(call(ws, "memo_revert", &json!({ "reason": "bench: next run starts clean" })), "memo_revert");
        assert!(matches!(r.status, Status::Success | Status::NoOp), "memo_revert: {:?}", r.status);
    }

    /// Stages every change; returns the last response and how many calls did not succeed.
    fn stage_all(ws: &mut Workspace, many: &[Value]) -> (Response, usize) {
        let mut failed = 0;
        let mut last = None;
        for args in many {
            let r = done(call(ws, "memo_replace", args), "memo_replace");
            if r.status != Status::Success {
                failed += 1;
            }
            last = Some(r);
        }
        (last.expect("at least one change"), failed)
    }

    /// `memo_commit` run to its response with `storage` (`Workspace::run`: the persist step's
    /// write, `complete_persist`), and the committed text — what the JS shell does for a
    /// commit, natively.
    fn commit(ws: &mut Workspace, storage: &mut MemoryStorage) -> (Response, String) {
        let before = storage.version(PATH);
        let response = ws.run("memo_commit", &json!({ "summary": SUMMARY }), &CallContext::default(), storage);
        assert!(storage.version(PATH) != before, "memo_commit did not write: {:?}: {}", response.status, response.summary);
        let text = ws.text(None).expect("the document is open");
        (response, text)
    }

    /// Every timed operation once, checked against the references. Panics on a wrong result.
    fn check(fx: &Fixture) {
        let name = &fx.doc.name;
        let mut ws = open(fx.doc);

        let r = done(call(&mut ws, "memo_replace", &fx.one), "memo_replace");
        assert_eq!(r.status, Status::Success, "{name}: stage-one status: {}", r.summary);
        assert_eq!(r.pending_changes.len(), 1, "{name}: stage-one pending changes");
        let c = &r.pending_changes[0];
        assert_eq!((c.position, c.line), (fx.one_at, fx.one_line), "{name}: stage-one position and line");
        let preview = r.preview.as_deref().unwrap_or_default();
        assert!(
            preview.contains(&format!("-{}\n", fx.doc.needles.unique)) && preview.contains(&format!("+{}\n", fx.one_new)),
            "{name}: stage-one preview shows the change:\n{preview}"
        );
        assert!(ws.draft(None).unwrap() == fx.one_expected, "{name}: stage-one draft differs from the reference");
        revert(&mut ws);

        let (last, failed) = stage_all(&mut ws, &fx.many);
        assert_eq!(failed, 0, "{name}: stage-26: {failed} calls did not succeed");
        assert_eq!(last.pending_changes.len(), CHANGES, "{name}: stage-26 pending changes");
        assert!(ws.draft(None).unwrap() == fx.many_expected, "{name}: stage-26 draft differs from the reference");

        let mut storage = storage_for(fx.doc);
        let (r, text) = commit(&mut ws, &mut storage);
        assert_eq!(r.status, Status::Success, "{name}: commit-26 status: {}", r.summary);
        assert!(r.summary.contains(&format!("Committed {CHANGES} changes")), "{name}: commit-26 summary: {}", r.summary);
        assert!(text == fx.many_expected, "{name}: commit-26 text() differs from the reference");
        assert!(
            storage.text(PATH) == Some(fx.many_expected.as_str()) && storage.version(PATH).as_deref() == Some("v2"),
            "{name}: commit-26 stored text or version differs from the reference"
        );
        eprintln!("{name}: session checks ok (stage-one at line {}, {CHANGES} spread changes, commit)", fx.one_line);
    }

    pub fn run() {
        let docs = docs::selected_docs();
        docs::write_fingerprints("session", &docs);
        let fixtures: Vec<Fixture> = docs.iter().map(fixture).collect();
        write_needles(&fixtures);
        for fx in &fixtures {
            check(fx);
        }

        // Same settings as bench/native/matching.rs; the multi-call works use flat sampling (each
        // iteration takes tens of ms at 10 MB, plus untimed setup).
        let mut c = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1))
            .without_plots()
            .configure_from_args();

        let mut g = c.benchmark_group("stage-one");
        for fx in &fixtures {
            let mut ws = open(fx.doc);
            g.bench_with_input(BenchmarkId::new("agentpad-call", &fx.doc.name), &fx.one, |b, args| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let t = Instant::now();
                        let step = call(&mut ws, "memo_replace", black_box(args));
                        total += t.elapsed();
                        black_box(step);
                        revert(&mut ws);
                    }
                    total
                })
            });
        }
        g.finish();

        let mut g = c.benchmark_group("stage-26");
        g.sampling_mode(SamplingMode::Flat);
        for fx in &fixtures {
            let mut ws = open(fx.doc);
            g.bench_with_input(BenchmarkId::new("agentpad-call", &fx.doc.name), &fx.many, |b, many| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let t = Instant::now();
                        let out = stage_all(&mut ws, black_box(many));
                        total += t.elapsed();
                        black_box(out);
                        revert(&mut ws);
                    }
                    total
                })
            });
        }
        g.finish();

        let mut g = c.benchmark_group("commit-26");
        g.sampling_mode(SamplingMode::Flat);
        for fx in &fixtures {
            g.bench_with_input(BenchmarkId::new("agentpad-call", &fx.doc.name), &fx.many, |b, many| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let mut ws = open(fx.doc);
                        let (_, failed) = stage_all(&mut ws, many);
                        assert_eq!(failed, 0);
                        let mut storage = storage_for(fx.doc);
                        let t = Instant::now();
                        let out = commit(&mut ws, &mut storage);
                        total += t.elapsed();
                        black_box(out);
                    }
                    total
                })
            });
        }
        g.finish();

        c.final_summary();
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::run();
}

#[cfg(target_arch = "wasm32")]
fn main() {}
