use super::*;

#[test]
fn options_and_editor_state_from_json() {
    use serde_json::json;
    let o = LiveContextOptions::from_json(&json!({"recent_diffs": 5, "anchor": {"commits_back": 2}, "path": null})).unwrap();
    assert_eq!((o.recent_diffs, o.anchor, o.path), (5, Anchor::CommitsBack(2), None));
    assert_eq!(LiveContextOptions::from_json(&json!({"anchor": "none"})).unwrap().anchor, Anchor::None);
    assert_eq!(LiveContextOptions::from_json(&json!({"anchor": {"age_ms": 60000}})).unwrap().anchor, Anchor::AgeMs(60000.0));
    for (bad, says) in [
        (json!({"recent_diffs": -1}), "`recent_diffs` must be a whole number from 0 to 32, got -1"),
        (json!({"anchor": "yesterday"}), "`anchor` must be \"origin\""),
        (json!({"recentDiffs": 1}), "unknown live context option `recentDiffs`"),
        (json!([]), "must be an object"),
    ] {
        let e = LiveContextOptions::from_json(&bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    let e = EditorState::from_json(
        &json!({"cursor": {"line": 2, "column": 3}, "selection": {"anchor": {"line": 1, "column": 1}, "head": {"line": 2, "column": 1}}}),
    )
    .unwrap();
    assert_eq!(e.cursor, Some(LineCol { line: 2, column: 3 }));
    assert_eq!(e.selection, Some((LineCol { line: 1, column: 1 }, LineCol { line: 2, column: 1 })));
    assert!(EditorState::from_json(&json!({"cursor": {"line": 0, "column": 1}})).unwrap_err().to_string().contains("whole numbers ≥ 1"));
    assert!(EditorState::from_json(&json!({"cursor": 3})).is_err());
    assert!(EditorState::from_json(&json!({"cursor": {"line": 1, "column": 1, "x": 1}})).is_err());
}

#[test]
fn candidate_lines_agree_with_a_line_by_line_scan_across_chunks() {
    // Many short lines with every kind of start, so chunk boundaries fall everywhere.
    let starts = ["# h", "  ## h", "\t[sec]", "```", "        # eight blanks", "       ~~~", "text", "", " ", "é[", "[", "`x"];
    let text: String = (0..5000).map(|i| format!("{}{}\n", starts[i % starts.len()], "x".repeat(i % 13))).collect();
    let rope = Rope::from_str(&text);
    assert!(rope.chunks().count() > 10);
    let text_lines: Vec<&str> = text.split('\n').collect();
    let naive: Vec<usize> = text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| matches!(l.chars().take(8).find(|c| *c != ' ' && *c != '\t'), Some('#' | '[' | '`' | '~')))
        .map(|(i, _)| i)
        .collect();
    let mut found = Vec::new();
    for_each_candidate(&rope, |i, text| {
        assert_eq!(text, text_lines[i].chars().take(MAX_LINE_CHARS * 4).collect::<String>().as_str());
        found.push(i);
    });
    assert_eq!(found, naive);
}

#[test]
fn iso_times() {
    assert_eq!(iso_utc(0.0), "1970-01-01T00:00:00Z");
    assert_eq!(iso_utc(1_760_013_296_000.0), "2025-10-09T12:34:56Z");
    assert_eq!(iso_utc(951_782_400_000.0), "2000-02-29T00:00:00Z");
    assert_eq!(iso_utc(-1.0), "1969-12-31T23:59:59Z");
    assert_eq!(iso_utc(f64::NAN), "1970-01-01T00:00:00Z");
}

#[test]
fn patches_are_cut_at_lines() {
    assert_eq!(cap_patch("a\nbb\nccc\n".into(), 0), ("a\nbb\nccc\n".into(), 0));
    assert_eq!(cap_patch("a\nbb\nccc\n".into(), 6), ("a\nbb\n".into(), 1));
    assert_eq!(cap_patch("a\nbb\nccc\n".into(), 1), ("".into(), 3));
}

#[test]
fn headings_skip_fences_and_respect_the_budget() {
    let doc = Rope::from_str("# Title\ntext\n```\n# not a heading\n```\n## Sub ##\n#hashtag\n[server]\n[a b]\n");
    let (h, omitted) = heading_index(&doc, 1000);
    assert_eq!(
        h,
        vec![
            Heading { line: 1, level: 1, text: "Title".into() },
            Heading { line: 6, level: 2, text: "Sub".into() },
            Heading { line: 8, level: 1, text: "[server]".into() },
        ]
    );
    assert_eq!(omitted, 0);
    let (h, omitted) = heading_index(&doc, 30);
    assert_eq!((h.len(), omitted), (1, 2));
}

#[test]
fn anchors_by_count_and_age() {
    let mut t = Timeline::default();
    let r = |s: &str| Rope::from_str(s);
    let v = |path: &str, at_ms: f64, kind: VersionKind, before: &str, after: &str| Version {
        path: path.into(),
        seq: 0,
        at_ms,
        kind,
        summary: String::new(),
        error: None,
        before: r(before),
        after: r(after),
        spans: None,
        bytes: 0,
    };
    t.opened("a", &r("0"));
    t.opened("a", &r("ignored: opened twice"));
    t.record(v("a", 1000.0, VersionKind::Commit, "0", "1"));
    t.record(v("a", 2000.0, VersionKind::Failed, "1", "x"));
    t.record(v("a", 3000.0, VersionKind::Commit, "1", "2"));
    assert_eq!(t.current_seq("a"), 2);
    let ids: Vec<String> = t.newest_first(Some("a")).map(Version::version_id).collect();
    assert_eq!(ids, ["v2", "v2-failed", "v1"]);
    let text = |a: Option<AnchorPoint>| a.map(|p| (p.rope.to_string(), p.seq));
    assert_eq!(text(t.anchor("a", Anchor::Origin, 0.0)), Some(("0".into(), 0)));
    assert_eq!(text(t.anchor("a", Anchor::CommitsBack(1), 0.0)), Some(("1".into(), 1)));
    assert_eq!(text(t.anchor("a", Anchor::CommitsBack(2), 0.0)), Some(("0".into(), 0)));
    assert_eq!(text(t.anchor("a", Anchor::CommitsBack(9), 0.0)), Some(("0".into(), 0)));
    assert_eq!(text(t.anchor("a", Anchor::CommitsBack(0), 0.0)), None);
    assert_eq!(text(t.anchor("a", Anchor::AgeMs(1500.0), 4000.0)), Some(("1".into(), 1)));
    assert_eq!(text(t.anchor("a", Anchor::AgeMs(500.0), 4000.0)), Some(("2".into(), 2)));
    assert_eq!(text(t.anchor("a", Anchor::AgeMs(9000.0), 4000.0)), Some(("0".into(), 0)));
    assert_eq!(text(t.anchor("a", Anchor::None, 0.0)), None);
    assert_eq!(text(t.anchor("b", Anchor::Origin, 0.0)), None);
    for i in 0..RING + 5 {
        t.record(v("b", i as f64, VersionKind::Commit, "", ""));
    }
    assert_eq!(t.newest_first(None).count(), RING);
    assert_eq!(t.newest_first(Some("a")).count(), 0, "the ring dropped a's versions");
    assert_eq!(text(t.anchor("a", Anchor::Origin, 0.0)), Some(("0".into(), 0)), "origins are kept");
}

/// A version costs the text its change replaced (a failed commit: the text it tried to save),
/// measured by the chunks its two ropes share: an edit of a rope shares all but the chunks it
/// touched, a rope built anew shares nothing.
#[test]
fn a_version_costs_what_its_change_replaced() {
    let version = |kind: VersionKind, before: &Rope, after: &Rope| Version {
        path: "a".into(),
        seq: 0,
        at_ms: 0.0,
        kind,
        summary: String::new(),
        error: None,
        before: before.clone(),
        after: after.clone(),
        spans: None,
        bytes: 0,
    };
    let text: String = (0..5000).map(|i| format!("line {i}\n")).collect();
    let base = Rope::from_str(&text);
    let mut edited = base.clone();
    edited.insert(20_000, "one more line\n");
    let mut t = Timeline::default();
    t.record(version(VersionKind::Commit, &base, &edited));
    let small = t.bytes();
    assert!(small > 0 && small < 4096, "an edit copies the chunk it touches, not the text: {small}");
    t.record(version(VersionKind::External, &edited, &Rope::from_str(&text)));
    assert_eq!(t.bytes() - small, edited.len_bytes(), "a rope built anew replaced all of it");
    let tried = Rope::from_str(&text);
    t.record(version(VersionKind::Failed, &base, &tried));
    assert_eq!(t.newest_first(None).next().map(|v| v.bytes), Some(tried.len_bytes()), "a failed commit costs what it tried to save");
    assert_eq!(t.bytes(), t.newest_first(None).map(|v| v.bytes).sum::<usize>());
    t.forget("a");
    assert_eq!((t.bytes(), t.newest_first(None).count(), t.current_seq("a")), (0, 0, 0));
}

/// The outline's heading paths and the live context's heading index read the same headings:
/// a ``` line inside a ```` fence does not close it, an indented heading counts, four spaces
/// make code.
#[test]
fn outline_and_live_context_agree_on_headings() {
    let doc = "# A\n````md\n```\n# not a heading\n```\n````\n  ## B ##\n    # code\n~~~\n# no\n~~~ x\n# still no\n~~~~\n### C#\n";
    let rope = ropey::Rope::from_str(doc);
    let (index, omitted) = heading_index(&rope, 10_000);
    let got: Vec<(usize, usize, &str)> = index.iter().map(|h| (h.line, h.level, h.text.as_str())).collect();
    assert_eq!((got, omitted), (vec![(1, 1, "A"), (7, 2, "B"), (14, 3, "C#")], 0));
    let last = rope.len_lines() - 2;
    assert_eq!(crate::outline::heading_path(&rope, last), vec!["# A", "## B", "### C#"]);
    assert_eq!(crate::outline::heading_path(&rope, 3), vec!["# A"]);
}
