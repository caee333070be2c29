//! `replace_all` stages one pending change however many places it touches: the session's 26
//! letters count changes, not places (docs/tools.md §memo_replace).

mod common;

use agentpad::Status;
use common::Host;
use serde_json::json;

fn lines(n: usize) -> String {
    (1..=n).map(|i| format!("item{i} = old_name()\n")).collect()
}

#[test]
fn a_replace_all_over_300_places_is_one_change_and_commits() {
    let doc = lines(300);
    let mut h = Host::new(&[("a.py", &doc)]);
    // Other changes are pending first: the replace-all still needs only one more letter.
    for i in [100, 200] {
        let r = h.call("memo_replace", json!({"old_text": format!("item{i} ="), "new_text": format!("ITEM{i} =")}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
    }
    let r = h.call("memo_replace", json!({"old_text": "old_name()", "new_text": "new_name()", "replace_all": true}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("change A (300 places; amended"), "{}", r.summary);
    // The earlier changes lie inside the replaced range: they are merged into it (A keeps its
    // letter), so one change remains.
    let ids: Vec<&str> = r.pending_changes.iter().map(|c| c.change_id.as_str()).collect();
    assert_eq!(ids, vec!["A"], "{}", r.markdown);
    // The preview shows the places, not the whole range as one block.
    let preview = r.preview.clone().unwrap_or_default();
    assert!(preview.contains("+item1 = new_name()"), "{preview}");
    let want = doc.replace("old_name()", "new_name()").replace("item100 =", "ITEM100 =").replace("item200 =", "ITEM200 =");
    assert_eq!(h.ws.draft(None).unwrap(), want);
    let r = h.call("memo_commit", json!({"summary": "rename old_name"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.py"), want);
}

#[test]
fn replace_all_needs_one_free_letter_not_one_per_place() {
    // 25 letters used by single edits elsewhere, then a replace-all over 40 places: letter Z.
    let mut doc = String::new();
    for i in 1..=25 {
        doc.push_str(&format!("single{i}: x\n"));
    }
    doc.push_str(&"call(old)\n".repeat(40));
    let mut h = Host::new(&[("b.txt", &doc)]);
    for i in 1..=25 {
        let r = h.call("memo_replace", json!({"old_text": format!("single{i}: x"), "new_text": format!("single{i}: y")}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
    }
    let r = h.call("memo_replace", json!({"old_text": "call(old)", "new_text": "call(new)", "replace_all": true}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.pending_changes.len(), 26);
    assert!(r.summary.contains("change Z (40 places)"), "{}", r.summary);
    // A 27th change is refused with something the model can do now: commit is offered.
    let r = h.call("memo_append", json!({"text": "tail\n"}));
    assert_eq!(r.status, Status::Blocked, "{}", r.markdown);
    let guidance = r.guidance.clone().unwrap_or_default();
    assert!(guidance.contains("memo_commit(summary)"), "{guidance}");
    assert!(r.visible_tools.iter().any(|t| t == "memo_commit"), "{:?}", r.visible_tools);
    assert!(!guidance.contains("continue in a new session"), "{guidance}");
    let r = h.call("memo_commit", json!({"summary": "all"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = h.call("memo_append", json!({"text": "tail\n"}));
    assert_eq!(r.status, Status::Success, "the next session has its letters: {}", r.markdown);
}

#[test]
fn a_preview_only_replace_all_stages_nothing() {
    let doc = lines(40);
    let mut h = Host::new(&[("a.py", &doc)]);
    let r = h.call("memo_replace", json!({"old_text": "old_name()", "new_text": "x()", "replace_all": true, "preview_only": true}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("(40 places)"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), doc);
    // Revert after a real one brings every place back.
    h.call("memo_replace", json!({"old_text": "old_name()", "new_text": "x()", "replace_all": true}));
    let r = h.call("memo_revert", json!({"reason": "no"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(None).unwrap(), doc);
}

#[test]
fn memo_preview_shows_the_places_of_a_replace_all() {
    // Places far apart: the preview shows each with its context, not the lines between.
    let doc: String = (1..=60).map(|i| if i % 20 == 0 { format!("call(old) {i}\n") } else { format!("plain line {i}\n") }).collect();
    let mut h = Host::new(&[("a.txt", &doc)]);
    let r = h.call("memo_replace", json!({"old_text": "call(old)", "new_text": "call(new)", "replace_all": true}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    for format in ["compact", "diff"] {
        let r = h.call("memo_preview", json!({"format": format}));
        let preview = r.preview.clone().unwrap_or_default();
        assert!(preview.contains("call(new) 20") && preview.contains("call(new) 60"), "{format}: {preview}");
        assert!(!preview.contains("plain line 30"), "{format}: lines far from every place are not shown: {preview}");
    }
}
