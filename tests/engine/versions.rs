//! `memo_read(version)`: the committed versions the live context and commit responses name are
//! readable while the ring keeps them; an aged-out one says what to read instead.

use crate::common;

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
    for (version, text, what) in
        [("v0", "x = 1", "as it was when opened"), ("v1", "x = 2", "after \"x to 2\""), ("v2", "x = 3", "the committed text now")]
    {
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
    assert!(
        guidance.contains(&format!("memo_read(version=\"v{oldest}\")")) && guidance.contains("memo_read(version=\"v0\")"),
        "{guidance}"
    );
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

/// Bytes of `rope`'s chunks that `other` does not share: chunks at another address are another
/// copy in memory (a rope edit copies only the chunks it touches; the rest stay shared).
fn unshared_bytes(rope: &ropey::Rope, other: &ropey::Rope) -> usize {
    let shared: std::collections::HashSet<usize> = other.chunks().map(|c| c.as_ptr() as usize).collect();
    rope.chunks().filter(|c| !shared.contains(&(c.as_ptr() as usize))).map(str::len).sum()
}

/// About `bytes` of distinct lines; line `i` of version `k` is `k: {i} …`.
fn lines_of(k: usize, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 100);
    let mut i = 0;
    while s.len() < bytes {
        s.push_str(&format!("{k}: line {i} of a document that is rewritten whole {}\n", "-".repeat(40)));
        i += 1;
    }
    s
}

#[test]
fn an_external_one_line_change_shares_the_unchanged_text() {
    let text = lines_of(0, 1 << 20);
    let mut h = Host::new(&[("a.md", &text)]);
    let mut previous = h.ws.document("a.md").unwrap().text.rope().clone();
    for i in 1..=3 {
        // Another program changes one line; the workspace takes it (no pending changes).
        let stored = h.stored("a.md").to_string();
        let changed = stored.replacen(&format!("0: line {} of", i * 1000), &format!("0: line {} (changed {i}) of", i * 1000), 1);
        assert!(h.external_write("a.md", &changed));
        let doc = &h.ws.document("a.md").unwrap().text;
        assert_eq!(doc.rope().to_string(), changed, "the reloaded text is storage's");
        assert_eq!(doc.flat(), changed, "and so is the flat text search runs on");
        let copied = unshared_bytes(doc.rope(), &previous);
        assert!(copied < 8 * 1024, "change {i}: {copied} of {} bytes are a new copy", changed.len());
        previous = doc.rope().clone();
        // What the kept versions cost is measured the same way: the line each change replaced.
        assert!(h.ws.versions_bytes() < 8 * 1024 * i, "change {i}: the versions cost {} bytes", h.ws.versions_bytes());
    }
    // A refresh of a text changed behind the workspace's back is taken the same way.
    let stored = h.stored("a.md").to_string();
    h.write("a.md", &stored.replacen("0: line 5000 of", "0: line 5000 (refreshed) of", 1));
    let r = h.call("memo_refresh", json!({}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let doc = &h.ws.document("a.md").unwrap().text;
    assert!(doc.flat().contains("line 5000 (refreshed) of"));
    assert!(unshared_bytes(doc.rope(), &previous) < 8 * 1024, "a refresh copies the whole text");
    // The versions read back as they were.
    let r = h.call("memo_read", json!({"version": "v2", "start_line": 2001, "end_line": 2001}));
    assert_eq!(
        r.content.as_deref(),
        Some("2001│ 0: line 2000 (changed 2) of a document that is rewritten whole ----------------------------------------\n"),
        "{}",
        r.markdown
    );
    let r = h.call("memo_read", json!({"version": "v0", "start_line": 1001, "end_line": 1001}));
    assert!(r.content.as_deref().unwrap_or_default().contains("1001│ 0: line 1000 of"), "{}", r.markdown);
}

#[test]
fn changes_far_apart_in_a_large_document_still_share_the_text_around_them() {
    // Two lines 10 MiB apart: past `RELOAD_DIFF_BYTES` the text between them is taken whole
    // (not diffed by lines), the text before and after is still shared.
    const MIB: usize = 1 << 20;
    let text = lines_of(0, 12 * MIB);
    let mut h = Host::new(&[("big.md", &text)]);
    let before = h.ws.document("big.md").unwrap().text.rope().clone();
    let (first, last) = ("0: line 10000 of", "0: line 115000 of");
    let apart = text.find(last).unwrap() - text.find(first).unwrap();
    assert!(2 * apart > agentpad::text::RELOAD_DIFF_BYTES, "the text between is not diffed by lines");
    let changed = text.replacen(first, "0: line 10000 (changed) of", 1).replacen(last, "0: line 115000 (changed) of", 1);
    assert!(h.external_write("big.md", &changed));
    let doc = &h.ws.document("big.md").unwrap().text;
    assert_eq!(doc.flat(), changed);
    assert_eq!(doc.rope(), &changed.as_str());
    let copied = unshared_bytes(doc.rope(), &before);
    assert!(copied.abs_diff(apart) < 16 * 1024, "{copied} bytes copied: the {apart} between the two changes, not more");
}

#[test]
fn versions_are_bounded_by_bytes_as_well_as_count() {
    // Three external rewrites of a 24 MiB document: each version holds a whole text that the
    // next does not share, and three of them are more than the versions may hold.
    const MIB: usize = 1 << 20;
    let mut h = Host::new(&[("big.md", &lines_of(0, 24 * MIB)), ("small.md", "s = 0\n")]);
    for k in 1..=3 {
        assert!(h.external_write("big.md", &lines_of(k, 24 * MIB)));
    }
    assert_eq!(h.ws.document("big.md").unwrap().text.flat(), lines_of(3, 24 * MIB), "taken whole, and right");
    assert!(h.ws.versions_bytes() <= agentpad::live_context::VERSION_BYTES, "{} bytes kept", h.ws.versions_bytes());
    let r = h.call("memo_read", json!({"version": "v1", "path": "big.md", "end_line": 1}));
    assert_eq!(r.status, Status::InvalidArguments, "v1 is still kept: {}", r.markdown);
    assert!(r.summary.contains("no longer kept") && r.summary.contains("MiB"), "{}", r.summary);
    assert!(r.summary.contains("big.md's oldest kept is v2"), "{}", r.summary);
    let guidance = r.guidance.clone().unwrap_or_default();
    assert!(guidance.contains("memo_read(version=\"v2\")"), "{guidance}");
    // What is kept reads back, and the text when opened is always kept.
    let r = h.call("memo_read", json!({"version": "v2", "path": "big.md", "end_line": 1}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.content.as_deref().unwrap_or_default().starts_with("1│ 2: line 0 of"), "{}", r.markdown);
    let r = h.call("memo_read", json!({"version": "v0", "path": "big.md", "end_line": 1}));
    assert!(r.content.as_deref().unwrap_or_default().starts_with("1│ 0: line 0 of"), "{}", r.markdown);
    // Small changes cost little: 32 more commits of another document push the big versions out
    // by count, as before.
    for i in 1..=RING {
        h.call("memo_replace", json!({"path": "small.md", "old_text": format!("s = {}", i - 1), "new_text": format!("s = {i}")}));
        let r = h.call("memo_commit", json!({"summary": format!("s to {i}")}));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
    }
    let r = h.call("memo_read", json!({"version": "v1", "path": "small.md"}));
    assert_eq!(r.content.as_deref(), Some("1│ s = 1\n"), "{}", r.markdown);
}

#[test]
fn a_created_document_has_a_first_version_like_any_other() {
    let mut h = Host::new(&[("a.md", "a\n")]);
    let r = h.call("memo_create", json!({"path": "new.md", "text": "hello\n"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    // Before its commit, v0 is what storage holds: nothing.
    let r = h.call("memo_read", json!({"version": "v0", "path": "new.md"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = h.call("memo_commit", json!({"summary": "new notes"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let guidance = r.guidance.clone().unwrap_or_default();
    assert!(guidance.contains("memo_read(version=\"v0\""), "{guidance}");
    // What the commit's guidance offers works: v0 is the empty text before the creation.
    let r = h.call("memo_read", json!({"version": "v0", "path": "new.md"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert!(r.summary.contains("memo_create"), "{}", r.summary);
    assert!(!r.content.as_deref().unwrap_or_default().contains("hello"), "{}", r.markdown);
    let r = h.call("memo_read", json!({"version": "v1", "path": "new.md"}));
    assert_eq!(r.content.as_deref(), Some("1│ hello\n"), "{}", r.markdown);
    // A creation reverted and forgotten leaves no v0 behind: the document opened later from
    // storage starts from storage's text.
    h.call("memo_create", json!({"path": "gone.md", "text": "draft\n"}));
    h.call("memo_revert", json!({"reason": "not needed"}));
    h.write("gone.md", "stored\n");
    h.ws.open("gone.md", "stored\n", "v1").unwrap();
    let r = h.call("memo_read", json!({"version": "v0", "path": "gone.md"}));
    assert_eq!(r.content.as_deref(), Some("1│ stored\n"), "{}", r.markdown);
}
