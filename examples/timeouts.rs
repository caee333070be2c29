//! Prints the Markdown an agent reads for the three-timeouts flow
//! (tests/fixtures/sessions/example-2-multimatch-letters.json).
//! `cargo run --example timeouts`
use agentpad::{CallContext, Config, Step, Workspace};
use serde_json::json;

fn main() {
    let mut lines: Vec<String> = (1..=90).map(|i| format!("key{i}: value")).collect();
    for (line, section) in [(12, "database"), (45, "api"), (78, "cache")] {
        lines[line - 1] = format!("{section}.timeout: 30");
    }
    let mut ws = Workspace::new(Config::default());
    ws.open("timeouts.yaml", &(lines.join("\n") + "\n"), "v1").expect("a valid path");
    for args in [
        json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}),
        json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": "B"}),
    ] {
        if let Step::Done(r) = ws.call("memo_replace", &args, &CallContext::default()) {
            println!("{}\n", r.markdown);
        }
    }
}
