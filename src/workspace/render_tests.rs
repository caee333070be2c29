//! The views are rendered once per call, from data: how many renders a call makes (a counter
//! in test builds), the summary's notes as fields, and a defect found by the validator.

use super::*;

/// The renders of one call (the counter is per thread: each test runs on its own).
fn renders(ws: &mut Workspace, name: &str, args: Value) -> (usize, Response) {
    crate::format::RENDERS.with(|n| n.set(0));
    let mut step = ws.call(name, &args, &CallContext::default());
    if let Step::Persist(requests) = &step {
        let results = requests.iter().map(|r| PersistResult::Saved { path: r.path.clone(), version: "v2".into() }).collect();
        step = ws.complete_persist(results);
    }
    let Step::Done(r) = step else { panic!("{name}: {step:?}") };
    (crate::format::RENDERS.with(|n| n.get()), r)
}

#[test]
fn a_call_renders_its_views_once() {
    for mode in [PersistMode::Manual, PersistMode::Immediate, PersistMode::Disabled] {
        let mut ws = Workspace::new(Config { persist_mode: mode, ..Config::default() });
        ws.open("a.md", "x = 1\ny = 2\nx = 1\n", "v1").unwrap();
        ws.turn.notes.push("[a.md changed in storage (version v1) and was reloaded.]".into());
        for (name, args) in [
            ("memo_read", serde_json::json!({})),
            ("memo_replace", serde_json::json!({"old_text": "y = 2", "new_text": "y = 3"})),
            ("memo_replace", serde_json::json!({"old_text": "y = 3", "new_text": "y = 4", "preview_only": true})),
            ("memo_replace", serde_json::json!({"old_text": "x = 1", "new_text": "x = 2"})),
            ("memo_replace", serde_json::json!({"old_text": "y  =  3", "new_text": "y = 5"})),
            ("memo_create", serde_json::json!({"path": "b.md", "text": "hi\n"})),
            ("memo_commit", serde_json::json!({"summary": "s"})),
            ("memo_nope", serde_json::json!({})),
        ] {
            let (n, r) = renders(&mut ws, name, args.clone());
            assert_eq!(n, 1, "{mode:?} {name} {args}: {}", r.markdown);
            assert!(r.markdown.contains(&format!("- summary: {}", r.summary.replace('\n', " ⏎ "))), "{}", r.markdown);
        }
    }
}

#[test]
fn notes_and_the_warning_are_rendered_from_fields() {
    let mut ws = Workspace::new(Config { persist_mode: PersistMode::Disabled, ..Config::default() });
    ws.open("a.md", "x = 1\n", "v1").unwrap();
    let note = "[a.md changed in storage (version v1) and was reloaded.]";
    ws.turn.notes.push(note.into());
    let (_, r) = renders(&mut ws, "memo_read", serde_json::json!({}));
    assert!(!r.warned && r.notes.lead == [note] && r.notes.trail.len() == 1, "{r:?}");
    let sentences = r.sentences.clone().unwrap_or_default();
    assert!(!sentences.contains('['), "notes stay out of the sentences: {sentences}");
    assert_eq!(r.summary, format!("{note} {sentences} [Read-only: persistence is disabled, results stay in memory.]"));
    let (_, r) = renders(&mut ws, "memo_replace", serde_json::json!({"old_text": "x  =  1", "new_text": "x = 2"}));
    assert!(r.warned && r.notes.lead.is_empty(), "said once: {r:?}");
    assert_eq!(r.summary, format!("[Warning] {}", r.sentences.clone().unwrap_or_default()));
    assert!(r.markdown_basic.starts_with("[Warning] Success · PersistPending · Staged"), "{}", r.markdown_basic);
}

#[test]
fn a_response_that_fails_the_validator_is_flagged_and_recorded() {
    let mut ws = Workspace::new(Config::default());
    ws.set_diagnostics([Category::Schema]);
    let mut r = Response::new(Status::Success, "fine");
    r.render(ws.settings.config.render_options());
    ws.schema_check(&mut r);
    assert!(!r.flags.contains(Flags::SCHEMA_VIOLATION), "a valid response is left alone");
    assert!(ws.take_diagnostics().is_empty());

    // A defect made from data: a candidate on line 0 (lines are 1-based) renders a row the
    // validator refuses.
    r.candidates.push(crate::response::Candidate {
        id: "A".into(),
        line: 0,
        end_line: None,
        preview: "x".into(),
        marker_start: "[[SEL#A]]".into(),
        marker_end: "[[/SEL#A]]".into(),
        occurrence: 0,
        context_start: 0,
        context_end: 1,
        recommended: false,
        recommended_reason: None,
        pick_refused: false,
        stale: false,
        match_quality: "exact".into(),
    });
    r.metrics.selection_count = Some(1);
    r.render(ws.settings.config.render_options());
    ws.schema_check(&mut r);
    assert!(r.flags.contains(Flags::SCHEMA_VIOLATION));
    assert!(r.summary.starts_with("[Fail] Response format does not match the spec"), "{}", r.summary);
    assert!(
        r.summary.ends_with("). fine") && r.markdown.contains(&r.summary),
        "the defect is said once, before the sentences: {}",
        r.markdown
    );
    let d = ws.take_diagnostics();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].category, Category::Schema);
    assert!(d[0].detail["violations"].as_array().is_some_and(|v| !v.is_empty()));
}
