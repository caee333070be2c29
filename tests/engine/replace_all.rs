//! `replace_all` stages one pending change however many places it touches: the session's 26
//! letters count changes, not places (docs/tools.md §memo_replace).

use crate::common;

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
    // Other changes are pending first, on the same lines but not touching the places: they keep
    // their letters, and the replace-all needs only one more.
    for i in [100, 200] {
        let r = h.call("memo_replace", json!({"old_text": format!("item{i} ="), "new_text": format!("ITEM{i} =")}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
    }
    let r = h.call("memo_replace", json!({"old_text": "old_name()", "new_text": "new_name()", "replace_all": true}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("change C (300 places)"), "{}", r.summary);
    let ids: Vec<&str> = r.pending_changes.iter().map(|c| c.change_id.as_str()).collect();
    assert_eq!(ids, vec!["A", "B", "C"], "{}", r.markdown);
    // One line per letter in the list, saying how many places; the JSON has each place.
    let c = &r.pending_changes[2];
    assert_eq!((c.place_count, c.places.len(), c.old_text.as_str(), c.delta), (300, 300, "old_name()", 0));
    assert_eq!(c.places[299].line, 300);
    // The list (on a preview: the staging response's summary says the change) has one line for it.
    let list = h.call("memo_preview", json!({"format": "stats"})).markdown;
    assert_eq!(list.matches("\n- change C · ").count(), 1, "{list}");
    assert!(list.contains("- change C · line 1, 300 places: `⟦old⟧_name()` → `⟦new⟧_name()` (0)"), "{list}");
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
fn a_replace_all_touching_pending_changes_merges_them_in_whole() {
    let doc = lines(30);
    let mut h = Host::new(&[("a.py", &doc)]);
    for (old, new) in [("item10 = old_name", "item10 = OLD_name"), ("item3 =", "ITEM3 =")] {
        let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
    }
    // A (item10) overlaps one place; B (item3) touches none.
    let r = h.call("memo_replace", json!({"old_text": "_name()", "new_text": "_id()", "replace_all": true}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("change A (30 places; amended"), "{}", r.summary);
    let ids: Vec<(&str, usize)> = r.pending_changes.iter().map(|c| (c.change_id.as_str(), c.places.len())).collect();
    assert_eq!(ids, vec![("A", 30), ("B", 1)], "{}", r.markdown);
    let want = doc.replace("_name()", "_id()").replace("item10 = old", "item10 = OLD").replace("item3 =", "ITEM3 =");
    assert_eq!(h.ws.draft(None).unwrap(), want);
}

/// Ten places, each between two plain lines: `call(old) 1` … `call(old) 10`.
fn spread() -> String {
    (1..=10).map(|i| format!("plain line {i}a\ncall(old) {i}\nplain line {i}b\n")).collect()
}

#[test]
fn a_later_edit_overlapping_one_place_amends_the_letter_and_leaves_the_others() {
    let doc = spread();
    let mut h = Host::new(&[("a.txt", &doc)]);
    h.call("memo_replace", json!({"old_text": "call(old)", "new_text": "call(new)", "replace_all": true}));
    // Overlaps the 5th place (its `)` and what follows): merged into A.
    let r = h.call("memo_replace", json!({"old_text": "new) 5\nplain", "new_text": "new, 5) 5\nPLAIN"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("change A (amended"), "{}", r.summary);
    assert_eq!(r.pending_changes.len(), 1, "{}", r.markdown);
    let a = &r.pending_changes[0];
    assert_eq!(a.places.len(), 10);
    assert_eq!(a.places[4].old_text, "call(old) 5\nplain");
    assert_eq!(a.places[4].new_text, "call(new, 5) 5\nPLAIN");
    // An edit between two places touches neither: a letter of its own.
    let r = h.call("memo_replace", json!({"old_text": "plain line 7b", "new_text": "line 7b"}));
    assert!(r.summary.contains("change B"), "{}", r.summary);
    // Restoring one place drops that place only: the letter keeps the other nine.
    let r = h.call("memo_replace", json!({"old_text": "call(new) 2", "new_text": "call(old) 2"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let a = r.pending_changes.iter().find(|c| c.change_id == "A").unwrap();
    assert_eq!(a.places.len(), 9, "{}", r.markdown);
    let list = h.call("memo_preview", json!({"format": "stats"})).markdown;
    assert!(list.contains("- change A · line 2, 9 places: "), "{list}");
    let want = doc
        .replace("call(old)", "call(new)")
        .replace("call(new) 2", "call(old) 2")
        .replace("new) 5\nplain", "new, 5) 5\nPLAIN")
        .replace("plain line 7b", "line 7b");
    assert_eq!(h.ws.draft(None).unwrap(), want);
    // Reverting drops the letter with every place.
    let r = h.call("memo_revert", json!({"reason": "no"}));
    assert!(r.summary.contains("dropped 2 pending changes"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), doc);
}

#[test]
fn an_external_edit_between_two_places_is_kept_by_rebase() {
    // With the places held as one range from the first to the last, this external edit lay
    // inside it: a conflict, the replace-all dropped. Now it touches no place.
    let doc = spread();
    let mut h = Host::new(&[("a.txt", &doc)]);
    h.call("memo_replace", json!({"old_text": "call(old)", "new_text": "call(new)", "replace_all": true}));
    let theirs = doc.replace("plain line 5b", "their line 5b");
    assert!(h.external_write("a.txt", &theirs));
    let r = h.call("memo_rebase", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("kept 1 pending change (A)"), "{}", r.summary);
    assert_eq!(r.pending_changes[0].places.len(), 10);
    let r = h.call("memo_commit", json!({"summary": "rename"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.txt"), theirs.replace("call(old)", "call(new)"));
}

#[test]
fn an_external_edit_at_one_place_conflicts_with_the_whole_letter() {
    let doc = spread();
    let mut h = Host::new(&[("a.txt", &doc)]);
    h.call("memo_replace", json!({"old_text": "call(old)", "new_text": "call(new)", "replace_all": true}));
    h.call("memo_replace", json!({"old_text": "plain line 1a", "new_text": "first line"}));
    assert!(h.external_write("a.txt", &doc.replace("call(old) 8", "call(theirs) 8")));
    let r = h.call("memo_rebase", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("kept 1 pending change (B)") && r.summary.contains("change A: call(old) → call(new)"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), doc.replace("call(old) 8", "call(theirs) 8").replace("plain line 1a", "first line"));
}

#[test]
fn auto_rebase_moves_every_place_through_a_co_editor_s_edit() {
    let doc = spread();
    let config = agentpad::Config { auto_rebase: true, ..agentpad::Config::default() };
    let mut h = Host::with_config(&[("a.txt", &doc)], config);
    h.call("memo_replace", json!({"old_text": "call(old)", "new_text": "call(new)", "replace_all": true}));
    let theirs = format!("a new first line\n{}", doc.replace("plain line 3b\n", ""));
    assert!(h.external_write("a.txt", &theirs));
    let r = h.call("memo_read", json!({"start_line": 1, "end_line": 2}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("moved onto it"), "{}", r.summary);
    assert_eq!(h.ws.draft(None).unwrap(), theirs.replace("call(old)", "call(new)"));
    let r = h.call("memo_preview", json!({"format": "stats"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
}

#[test]
fn a_replace_all_over_more_places_than_are_listed_counts_them_all() {
    let doc = lines(1200);
    let mut h = Host::new(&[("a.py", &doc)]);
    let r = h.call("memo_replace", json!({"old_text": "old_name()", "new_text": "new_name()", "replace_all": true}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let c = &r.pending_changes[0];
    assert_eq!((c.place_count, c.places.len()), (1200, agentpad::response::MAX_PLACES_LISTED));
    assert_eq!(c.places.last().map(|p| p.line), Some(1000));
    let list = h.call("memo_preview", json!({"format": "stats"})).markdown;
    assert!(list.contains("- change A · line 1, 1200 places: "), "{list}");
    let r = h.call("memo_commit", json!({"summary": "rename"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.stored("a.py"), doc.replace("old_name()", "new_name()"));
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
    // Stats: one change with its places, counting only what the places change.
    let r = h.call("memo_preview", json!({"format": "stats"}));
    let preview = r.preview.clone().unwrap_or_default();
    // (`call(old) 20` → `call(new) 20`: 3 chars differ per place.)
    assert!(preview.contains("line 20, col 1: +9/-9 chars in 3 places\ntotal: 1 change, +9/-9 chars"), "{preview}");
}
