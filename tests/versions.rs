//! `memo_read(version)`: the committed versions the live context and commit responses name are
//! readable while the ring keeps them; an aged-out one says what to read instead.

mod common;

use agentpad::live_context::RING;
use agentpad::Status;
use common::Host;
use serde_json::json;

#[test]
fn the_version_a_commit_names_can_be_read() {
    let mut h = Host::new(&[("a.md", "x = 1\n"), ("b.md", "b\n")]);
    h.call("memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    let r = h.call("memo_commit", json!({"summary": "x to 2"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let guidance = r.guidance.clone().unwrap_or_default();
    assert_eq!(guidance, "a.md is now v1; memo_read(version=\"v0\") shows a.md as it was before.");
    assert!(!r.markdown.contains("(empty)") && !r.markdown.contains("[History:"), "{}", r.markdown);
    h.call("memo_replace", json!({"old_text": "x = 2", "new_text": "x = 3"}));
    let r = h.call("memo_commit", json!({"summary": "x to 3"}));
    assert!(r.guidance.as_deref().unwrap_or_default().starts_with("a.md is now v2;"), "{}", r.markdown);
    // Pending changes do not show in an old version.
    h.call("memo_replace", json!({"old_text": "x = 3", "new_text": "x = 4"}));
    for (version, text, what) in [("v0", "x = 1", "as it was when opened"), ("v1", "x = 2", "after \"x to 2\""), ("v2", "x = 3", "the committed text now")] {
        let r = h.call("memo_read", json!({"version": version}));
        assert_eq!(r.status, Status::Success, "{version}: {}", r.markdown);
        assert_eq!(r.content.as_deref(), Some(format!("1│ {text}\n").as_str()), "{version}");
        assert!(r.summary.contains(what) && r.summary.contains("Read-only"), "{version}: {}", r.summary);
    }
    assert_eq!(h.ws.draft(None).unwrap(), "x = 4\n", "reading a version changes nothing");
    // A version that never was.
    let r = h.call("memo_read", json!({"version": "v7"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    assert!(r.summary.contains("has no version v7 (it is at v2)"), "{}", r.summary);
    let r = h.call("memo_read", json!({"version": "seven"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    let r = h.call("memo_read", json!({"version": "v1", "line_keys": true}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    // Another document's versions are its own: b.md was never committed.
    let r = h.call("memo_read", json!({"version": "v0", "path": "b.md"}));
    assert_eq!(r.content.as_deref(), Some("1│ b\n"), "{}", r.markdown);
}

#[test]
fn an_aged_out_version_says_what_is_kept() {
    let mut h = Host::new(&[("a.md", "n = 0\n")]);
    let commits = RING + 5;
    for i in 1..=commits {
        h.call("memo_replace", json!({"old_text": format!("n = {}", i - 1), "new_text": format!("n = {i}")}));
        let r = h.call("memo_commit", json!({"summary": format!("n to {i}")}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
    }
    let r = h.call("memo_read", json!({"version": "v2"}));
    assert_eq!(r.status, Status::InvalidArguments, "{}", r.markdown);
    let oldest = commits - RING + 1;
    assert!(r.summary.contains("no longer kept") && r.summary.contains(&format!("oldest kept is v{oldest}")), "{}", r.summary);
    let guidance = r.guidance.clone().unwrap_or_default();
    assert!(guidance.contains(&format!("memo_read(version=\"v{oldest}\")")) && guidance.contains("memo_read(version=\"v0\")"), "{guidance}");
    // What the guidance offers works.
    let r = h.call("memo_read", json!({"version": format!("v{oldest}")}));
    assert_eq!(r.content.as_deref(), Some(format!("1│ n = {oldest}\n").as_str()), "{}", r.markdown);
    let r = h.call("memo_read", json!({"version": "v0"}));
    assert_eq!(r.content.as_deref(), Some("1│ n = 0\n"), "{}", r.markdown);
}

#[test]
fn the_live_context_names_versions_memo_read_opens() {
    let mut h = Host::new(&[("a.md", "one\n")]);
    h.call("memo_replace", json!({"old_text": "one", "new_text": "two"}));
    h.call("memo_commit", json!({"summary": "two"}));
    let live = h.ws.live_context(&agentpad::live_context::LiveContextOptions::default(), &mut || 0.0).unwrap();
    let named: Vec<String> = live.recent_diffs.iter().map(|d| d.version_id.clone()).collect();
    assert_eq!(named, ["v1"]);
    for id in named {
        let r = h.call("memo_read", json!({"version": id}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
        assert_eq!(r.content.as_deref(), Some("1│ two\n"));
    }
}
