//! What the model reads across a session (docs/responses.md#markdown-layout): one line numbering
//! (the draft's) everywhere, the pending list only where it says something new, no empty
//! guidance, and the total size of a 16-call session (printed with `--nocapture`).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use agentpad::{Response, Status};
use common::Host;
use serde_json::json;

/// A TypeScript module of `n` functions, four lines each: `step3` starts on line 4·3+1 = 13.
fn module(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!("export function step{i}(steps: Step[]) {{\n  const stepNumber = steps.length + {i};\n  return stepNumber;\n}}\n"));
    }
    s
}

/// The `### [Changes]` section of a response, or `None` when it has none.
fn pending_section(r: &Response) -> Option<&str> {
    let start = r.markdown.find("### [Changes]")?;
    let rest = &r.markdown[start..];
    Some(rest.find("\n\n###").map_or(rest, |end| &rest[..end]))
}

#[test]
fn summary_pending_list_and_stats_name_the_same_draft_line() {
    let mut h = Host::new(&[("steps.ts", &module(30))]);
    // A: line 82 (`const stepNumber = steps.length + 20;`).
    let a = h.call("memo_replace", json!({"old_text": "steps.length + 20;", "new_text": "steps.length + 200;"}));
    assert_eq!(a.status, Status::Success, "{}", a.markdown);
    // B, above A, adds a line: A is on draft line 83 from now on, still line 82 when committed.
    let b = h.call("memo_replace", json!({"old_text": "  return stepNumber;\n}\nexport function step3(", "new_text": "  return stepNumber;\n}\n// step three\nexport function step3("}));
    assert_eq!(b.status, Status::Success, "{}", b.markdown);
    // Amending A: the summary names its draft line.
    let r = h.call("memo_replace", json!({"old_text": "steps.length + 200;", "new_text": "steps.length + 2000;"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("line 83"), "{}", r.summary);
    let a_view = r.pending_changes.iter().find(|c| c.change_id == "A").unwrap();
    assert_eq!((a_view.line, a_view.base_line), (83, 82));
    assert_eq!((a_view.places[0].line, a_view.places[0].base_line), (83, 82));
    let list = pending_section(&r).expect("a staging response lists the pending changes");
    assert!(list.contains("- [A] steps.ts line 83:"), "{list}");
    assert!(!list.contains("line 82"), "{list}");
    let stats = h.call("memo_preview", json!({"format": "stats"}));
    let preview = stats.preview.as_deref().unwrap();
    assert!(preview.contains("line 83, col"), "{preview}");
    let list = pending_section(&stats).expect("a preview lists the pending changes");
    assert!(list.contains("- [A] steps.ts line 83:"), "{list}");
}
