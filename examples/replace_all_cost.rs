//! What a pending replace-all costs the calls after it: a 20 MB and a 50 MB document with 10
//! places of one needle spread across it; times the replace-all, a later append and a later
//! read, and a later replace whose search scans the whole draft (each the whole tool call,
//! response included). Prints numbers only: timings belong to
//! benchmarks, never to assertions (docs/performance.md).
//! `cargo run --release --example replace_all_cost`
use std::time::Instant;

use agentpad::{CallContext, Config, Status, Step, Workspace};
use serde_json::{json, Value};

fn call(ws: &mut Workspace, name: &str, args: Value) -> (f64, Status) {
    let t = Instant::now();
    let step = ws.call(name, &args, &CallContext::default());
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    match step {
        Step::Done(r) => (ms, r.status),
        _ => (ms, Status::Exception),
    }
}

fn doc(mb: usize, places: usize) -> String {
    let line = "let value = compute(alpha, beta) + offset; // filler line of ordinary code\n";
    let lines = mb * 1024 * 1024 / line.len();
    let every = lines / places;
    let mut s = String::with_capacity(mb * 1024 * 1024 + 1024);
    for i in 0..lines {
        if i % every == every / 2 && s.matches("old_name").count() < places {
            s.push_str("call(old_name(i));\n");
        } else {
            s.push_str(line);
        }
    }
    s
}

fn main() {
    for mb in [20usize, 50] {
        let text = doc(mb, 10);
        let mut ws = Workspace::new(Config::default());
        ws.open("big.rs", &text, "v1").expect("a valid path");
        let (all, s1) = call(&mut ws, "memo_replace", json!({"old_text": "old_name", "new_text": "new_name", "replace_all": true}));
        let (append, s2) = call(&mut ws, "memo_append", json!({"text": "// tail\n"}));
        let (read, s3) = call(&mut ws, "memo_read", json!({"start_line": 1, "end_line": 20}));
        let (append2, s4) = call(&mut ws, "memo_replace", json!({"old_text": "// tail\n", "new_text": "// tail 2\n"}));
        println!(
            "{mb} MB, 10 places: replace_all {all:.2} ms ({s1:?}), later append {append:.3} ms ({s2:?}), later read {read:.3} ms ({s3:?}), later replace {append2:.2} ms ({s4:?})"
        );
    }
}
