//! The validator (`agentpad::validate`) against real responses: every response the scenarios
//! below produce — every status, every optional section, both locales, both candidate styles —
//! must validate; each of a set of mutations of them must be reported with the right rule; and
//! no input makes the validator panic.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::collections::BTreeSet;

use agentpad::diagnostics::Category;
use agentpad::validate::{self, Rule};
use agentpad::CandidateStyle;
use agentpad::{CallContext, Config, Locale, PersistMode, Response, Status, Step, WorkflowState};
use common::{timeouts, Host};
use proptest::prelude::*;
use serde_json::{json, Value};

const SMALL: &str = "# Title\n\n```\ncode with ``` fences\n```\n\nx = 1\ny = 2\n";

/// Every response of a scenario, labelled.
struct Run {
    config: Config,
    out: Vec<(String, Response)>,
}

impl Run {
    fn host(&self, files: &[(&str, &str)]) -> Host {
        Host::with_config(files, self.config.clone())
    }

    fn call(&mut self, h: &mut Host, label: &str, name: &str, args: Value) -> Response {
        let r = h.call(name, args);
        self.out.push((label.to_string(), r.clone()));
        r
    }

    fn keep(&mut self, label: &str, r: Response) -> Response {
        self.out.push((label.to_string(), r.clone()));
        r
    }
}

/// Runs every scenario under `config`; returns each response with a label.
fn scenarios(config: Config) -> Vec<(String, Response)> {
    let mut run = Run { config, out: Vec::new() };
    let run = &mut run;

    // Read (Content), a fuzzy Success raised to Warning, preview, diff, commit.
    let mut h = run.host(&[("small.md", SMALL), ("t.yaml", &timeouts())]);
    let r = run.call(&mut h, "read", "memo_read", json!({"path": "small.md"}));
    assert_eq!(r.status, Status::Success);
    assert!(r.content.is_some());
    run.call(&mut h, "read line keys", "memo_read", json!({"path": "small.md", "line_keys": true, "start_line": 2, "end_line": 5}));
    let r = run.call(&mut h, "success replace", "memo_replace", json!({"path": "small.md", "old_text": "x = 1", "new_text": "x = 10"}));
    assert_eq!(r.status, Status::Success);
    assert!(!r.pending_changes.is_empty() && r.preview.is_some());
    let r = run.call(&mut h, "fuzzy replace", "memo_replace", json!({"path": "small.md", "old_text": "  y   =   2", "new_text": "y = 20"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(
        r.markdown.lines().nth(4),
        Some(if run.config.locale == Locale::Zh { "### [Warning] 概览" } else { "### [Warning] Overview" })
    );
    let r = run.call(&mut h, "preview", "memo_preview", json!({"path": "small.md"}));
    assert!(r.preview.is_some());
    for format in ["full", "stats", "diff"] {
        run.call(&mut h, &format!("preview {format}"), "memo_preview", json!({"path": "small.md", "format": format}));
    }
    run.call(&mut h, "diff", "memo_diff", json!({"path": "small.md"}));
    run.call(&mut h, "noop preview", "memo_preview", json!({"path": "t.yaml"}));
    let r = run.call(&mut h, "commit", "memo_commit", json!({"summary": "bump x and y"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = run.call(&mut h, "noop", "memo_preview", json!({"path": "small.md"}));
    assert_eq!(r.status, Status::NoOp);

    // MultiMatch with a recommendation, Blocked, choosing, StaleReference.
    let mut h = run.host(&[("t.yaml", &timeouts())]);
    run.call(&mut h, "stage near api", "memo_replace", json!({"old_text": "key43: value", "new_text": "key43: v2"}));
    let r = run.call(&mut h, "multimatch", "memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert_eq!(r.status, Status::MultiMatch);
    assert_eq!(r.candidates.iter().filter(|c| c.recommended).count(), 1, "{}", r.markdown);
    run.call(&mut h, "read with selection", "memo_read", json!({"start_line": 10, "end_line": 14}));
    let r = run.call(&mut h, "blocked", "memo_append", json!({"text": "x"}));
    assert_eq!(r.status, Status::Blocked);
    run.call(&mut h, "choose", "memo_replace_selection", json!({"selection_id": "A"}));
    let r = run.call(&mut h, "multimatch with stale", "memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
    assert!(r.candidates.iter().any(|c| c.stale), "{}", r.markdown);
    let r =
        run.call(&mut h, "already staged", "memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "match_id": "A"}));
    assert!(r.summary.contains("already staged") || r.summary.contains("已暂存为"), "{}", r.markdown);
    let r =
        run.call(&mut h, "stale candidate", "memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 90", "match_id": "A"}));
    assert_eq!(r.status, Status::StaleReference, "{}", r.markdown);
    run.call(
        &mut h,
        "expected occurrences",
        "memo_replace",
        json!({"old_text": "timeout: 30", "new_text": "timeout: 60", "expected_occurrences": 5}),
    );
    run.call(&mut h, "show all", "memo_replace", json!({"old_text": "value", "new_text": "v", "show_all_matches": true}));
    run.call(&mut h, "five shown", "memo_replace", json!({"old_text": "value", "new_text": "v"}));
    run.call(&mut h, "revert", "memo_revert", json!({"reason": "done"}));

    // NoMatch with near misses (candidates), and without.
    let mut h = run.host(&[("t.yaml", &timeouts())]);
    let r = run.call(&mut h, "nomatch near", "memo_replace", json!({"old_text": "api.timeout: 31", "new_text": "api.timeout: 60"}));
    assert_eq!(r.status, Status::NoMatch);
    assert!(!r.candidates.is_empty(), "{}", r.markdown);
    run.call(&mut h, "nomatch choose", "memo_replace_selection", json!({"selection_id": 1}));
    let mut h = run.host(&[("small.md", SMALL)]);
    let r = run.call(&mut h, "nomatch", "memo_replace", json!({"old_text": "nothing like it at all", "new_text": "z"}));
    assert_eq!(r.status, Status::NoMatch);

    // InvalidArguments, unknown tool, StaleReference by fingerprint, hidden tools.
    let mut h = run.host(&[("a.md", "x = 1\n")]);
    let r = run.call(&mut h, "invalid", "memo_replace", json!({"old_text": "x"}));
    assert_eq!(r.status, Status::InvalidArguments);
    run.call(&mut h, "unknown tool", "memo_frobnicate", json!({}));
    run.call(&mut h, "not open", "memo_read", json!({"path": "nope.md"}));
    let fp = run.call(&mut h, "read fp", "memo_read", json!({})).fingerprint.unwrap();
    run.call(&mut h, "edit", "memo_replace", json!({"old_text": "x", "new_text": "y", "expected_fingerprint": fp}));
    let r = run.call(&mut h, "stale fingerprint", "memo_replace", json!({"old_text": "1", "new_text": "2", "expected_fingerprint": fp}));
    assert_eq!(r.status, Status::StaleReference);
    run.call(&mut h, "hidden rebase", "memo_rebase", json!({}));
    run.call(&mut h, "hidden selection", "memo_replace_selection", json!({"selection_id": "A"}));

    // PersistFailure, then retry, persist_as.
    let mut h = run.host(&[("a.md", "x = 1\n")]);
    run.call(&mut h, "stage", "memo_replace", json!({"old_text": "1", "new_text": "2"}));
    h.fail_next_save = true;
    let r = run.call(&mut h, "persist failure", "memo_commit", json!({"summary": "bump"}));
    assert_eq!(r.status, Status::PersistFailure);
    run.call(&mut h, "diff storage", "memo_diff", json!({"against": "storage"}));
    run.call(&mut h, "persist as", "memo_persist_as", json!({"new_path": "b.md"}));
    run.call(&mut h, "retry", "memo_commit", json!({"summary": "bump"}));

    // ExternalConflict, rebase; a silent reload note before a fuzzy warning.
    let mut h = run.host(&[("a.md", "one\ntwo\nthree\n")]);
    run.call(&mut h, "stage", "memo_replace", json!({"old_text": "one", "new_text": "1"}));
    h.external_write("a.md", "one\ntwo\nTHREE\n");
    let r = run.call(&mut h, "external conflict", "memo_replace", json!({"old_text": "two", "new_text": "2"}));
    assert_eq!(r.status, Status::ExternalConflict, "{}", r.markdown);
    run.call(&mut h, "conflict read", "memo_read", json!({}));
    run.call(&mut h, "conflict blocked commit", "memo_commit", json!({"summary": "x"}));
    run.call(&mut h, "rebase", "memo_rebase", json!({}));
    run.call(&mut h, "discard", "memo_discard", json!({"reason": "enough"}));

    // Tasks and the session log.
    let mut h = run.host(&[("a.md", "x = 1\n")]);
    let r = run.call(&mut h, "begin task", "memo_begin_task", json!({"goal": "bump x"}));
    assert!(!r.task_stack.is_empty());
    run.call(&mut h, "nested task", "memo_begin_task", json!({"goal": "check (the) deps"}));
    run.call(&mut h, "too deep", "memo_begin_task", json!({"goal": "a"}));
    run.call(&mut h, "stage in task", "memo_replace", json!({"old_text": "1", "new_text": "2"}));
    run.call(&mut h, "commit task", "memo_commit", json!({"summary": "deps ok"}));
    let ctx = CallContext { tool_call_id: Some("call_1|x".into()), now_ms: 1712345678901.5 };
    let step = h.ws.call("memo_read", &json!({}), &ctx);
    let r = h.drive(step);
    run.keep("read with call id", r);
    let r = run.call(&mut h, "export session", "memo_export_session", json!({}));
    assert!(r.session_log.is_some());

    // Refreshing: a call while the refresh waits for storage.
    let mut h = run.host(&[("a.md", "x = 1\n")]);
    let step = h.ws.call("memo_refresh", &json!({}), &CallContext::default());
    assert!(matches!(step, Step::Load(_)));
    let Step::Done(r) = h.ws.call("memo_read", &json!({}), &CallContext::default()) else { panic!("blocked while refreshing") };
    assert_eq!(r.workflow_state, WorkflowState::Refreshing);
    run.keep("refreshing blocked", r);
    let r = h.drive(step);
    run.keep("refreshed", r);

    // Diagnostics on: DiagnosticHint and a guidance pointer.
    let mut h = run.host(&[("a.md", "x = 1\nx = 1\n")]);
    h.ws.set_diagnostics(BTreeSet::from(Category::ALL));
    run.call(&mut h, "diag multimatch", "memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
    run.call(&mut h, "diag choose", "memo_replace_selection", json!({"selection_id": "B"}));
    run.call(&mut h, "diag commit", "memo_commit_auto", json!({}));

    // Immediate and disabled persistence.
    for mode in [PersistMode::Immediate, PersistMode::Disabled] {
        let config = Config { persist_mode: mode, ..run.config.clone() };
        let mut h = Host::with_config(&[("a.md", "x = 1\nx = 1\n")], config);
        let name = format!("{mode:?}");
        run.call(&mut h, &format!("{name} multimatch"), "memo_replace", json!({"old_text": "x = 1", "new_text": "x = 2"}));
        run.call(&mut h, &format!("{name} choose"), "memo_replace_selection", json!({"selection_id": "A"}));
        run.call(&mut h, &format!("{name} commit"), "memo_commit", json!({"summary": "s"}));
        run.call(&mut h, &format!("{name} append"), "memo_append", json!({"text": "\nz"}));
        h.fail_next_save = true;
        let r = run.call(&mut h, &format!("{name} failing append"), "memo_append", json!({"text": "\nw"}));
        if mode == PersistMode::Immediate {
            assert_eq!(r.status, Status::PersistFailure, "{}", r.markdown);
        }
        run.call(&mut h, &format!("{name} after failure"), "memo_read", json!({}));
    }
    std::mem::take(&mut run.out)
}

fn configs() -> Vec<Config> {
    let mut v = Vec::new();
    for locale in [Locale::En, Locale::Zh] {
        for candidate_style in [CandidateStyle::Table, CandidateStyle::List] {
            v.push(Config { locale, candidate_style, ..Config::default() });
        }
    }
    v
}

fn all_responses() -> Vec<(String, Response)> {
    configs()
        .into_iter()
        .flat_map(|c| {
            let tag = format!("{}/{}", c.locale.as_str(), c.candidate_style.as_str());
            scenarios(c).into_iter().map(move |(l, r)| (format!("{tag} {l}"), r))
        })
        .collect()
}

#[test]
fn every_response_of_every_scenario_validates() {
    let mut failures = Vec::new();
    let responses = all_responses();
    for (label, r) in &responses {
        match validate::validate(&r.markdown) {
            Ok(p) => {
                assert_eq!(p.status, r.status.as_str(), "{label}");
                assert_eq!(p.state, r.workflow_state.as_str(), "{label}");
                assert_eq!(p.flags, r.flags.names(), "{label}");
                assert_eq!(p.severity, r.severity().as_str(), "{label}");
                assert_eq!(p.candidates.len(), r.candidates.len(), "{label}");
                for (pc, c) in p.candidates.iter().zip(&r.candidates) {
                    assert_eq!((pc.id.as_str(), pc.line, pc.stale), (c.id.as_str(), c.line, c.stale), "{label}");
                    assert_eq!(pc.recommended, c.recommended && !c.stale, "{label}");
                    assert_eq!(pc.preview, if c.preview.is_empty() { " ".to_string() } else { c.preview.replace('\n', "⏎") }, "{label}");
                }
            }
            Err(v) => {
                failures.push(format!("{label}:\n{}\n{}", v.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("\n"), r.markdown))
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} responses fail:\n\n{}", failures.len(), responses.len(), failures.join("\n\n"));
}

// ---- mutations --------------------------------------------------------------------------------

/// A response's Markdown as lines, with what the mutations need to know about it.
struct Doc<'a> {
    r: &'a Response,
    lines: Vec<String>,
    locale: Locale,
}

impl Doc<'_> {
    fn text(lines: &[String]) -> String {
        lines.join("\n") + "\n"
    }

    fn heading(&self, tag: &str) -> Option<usize> {
        self.lines.iter().position(|l| l.starts_with(&format!("### [{tag}]")))
    }

    /// Line range of the section at heading `at`: the heading and its body, up to the blank line
    /// before the next heading (exclusive) or the end.
    fn section(&self, at: usize) -> std::ops::Range<usize> {
        let next =
            self.lines.iter().enumerate().skip(at + 1).find(|(_, l)| l.starts_with("### [")).map_or(self.lines.len(), |(i, _)| i - 1);
        at..next
    }

    fn optional_headings(&self) -> Vec<usize> {
        // After Metrics, or after the Overview when Metrics is left out.
        let after = self.heading("Metrics").or(self.heading("OK")).or(self.heading("Warning")).or(self.heading("Fail")).unwrap_or(0);
        (0..self.lines.len()).filter(|&i| self.lines[i].starts_with("### [") && i > after).collect()
    }

    fn replace_line(&self, i: usize, line: String) -> String {
        let mut l = self.lines.clone();
        l[i] = line;
        Doc::text(&l)
    }

    fn other_locale(&self) -> Locale {
        if self.locale == Locale::En {
            Locale::Zh
        } else {
            Locale::En
        }
    }

    /// The first candidate table row, if the candidates are a table.
    fn candidate_row(&self) -> Option<usize> {
        let h = self.heading("Target")?;
        self.lines.get(h + 1).filter(|l| l.starts_with("| Id |"))?;
        Some(h + 3)
    }

    fn table_cells(line: &str) -> Vec<String> {
        // Split at unescaped pipes, keeping the escapes (for re-joining).
        let mut cells = Vec::new();
        let mut cur = String::new();
        let mut prev = ' ';
        for c in line.trim().trim_start_matches('|').chars() {
            if c == '|' && prev != '\\' {
                cells.push(std::mem::take(&mut cur).trim().to_string());
            } else {
                cur.push(c);
            }
            prev = c;
        }
        cells
    }

    fn join_cells(cells: &[String]) -> String {
        format!("| {} |", cells.join(" | "))
    }
}

type Mutation = (&'static str, Rule, fn(&Doc) -> Option<String>);

fn flag_order() -> Vec<&'static str> {
    vec!["SelectionPending", "PersistPending", "OutOfSync", "SchemaViolation", "PersistReadOnly", "ExternalConflict", "DiagnosticHint"]
}

fn flags_line(names: &[&str]) -> String {
    let order = flag_order();
    let mut names = names.to_vec();
    names.sort_by_key(|n| order.iter().position(|o| o == n));
    names.dedup();
    if names.is_empty() {
        "flags: -".into()
    } else {
        format!("flags: {}", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "))
    }
}

fn required_flag(state: WorkflowState) -> Option<&'static str> {
    match state {
        WorkflowState::Idle => None,
        WorkflowState::SelectionPending => Some("SelectionPending"),
        WorkflowState::PersistPending => Some("PersistPending"),
        WorkflowState::OutOfSync => Some("OutOfSync"),
        WorkflowState::Refreshing => Some("DiagnosticHint"),
    }
}

fn mutations() -> Vec<Mutation> {
    vec![
        ("swap status and state lines", Rule::HeaderLine, |d| {
            let mut l = d.lines.clone();
            l.swap(0, 1);
            Some(Doc::text(&l))
        }),
        ("swap state and flags lines", Rule::HeaderLine, |d| {
            let mut l = d.lines.clone();
            l.swap(1, 2);
            Some(Doc::text(&l))
        }),
        // The one-line form (`### [OK] Success · Idle` for the three lines and the Overview
        // heading) is not the layout: the header lines are missing.
        ("one first line instead of the header and the Overview heading", Rule::HeaderLine, |d| {
            let mut l = d.lines.clone();
            let state = d.r.workflow_state.as_str();
            let extra: Vec<&str> = d.r.flags.names().into_iter().filter(|n| *n != state).collect();
            let flags = if extra.is_empty() { String::new() } else { format!(" · flags: {}", extra.join(", ")) };
            l.splice(0..5, [format!("### [{}] {} · {state}{flags}", d.r.severity().as_str(), d.r.status.as_str())]);
            Some(Doc::text(&l))
        }),
        ("header lines without a blank line before the Overview", Rule::BlankLine, |d| {
            let mut l = d.lines.clone();
            l.remove(3);
            Some(Doc::text(&l))
        }),
        ("unknown status", Rule::UnknownStatus, |d| Some(d.replace_line(0, "status: `Succeeded`".into()))),
        ("unknown state", Rule::UnknownState, |d| Some(d.replace_line(1, "state: `Editing`".into()))),
        ("flag not in bit order or unknown", Rule::FlagList, |d| {
            let mut names = d.r.flags.names();
            if names.len() >= 2 {
                names.reverse();
                Some(d.replace_line(2, format!("flags: {}", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "))))
            } else {
                Some(d.replace_line(2, "flags: `Dirty`".into()))
            }
        }),
        ("repeated flag", Rule::FlagList, |d| {
            let name = d.r.flags.names().first().copied()?;
            Some(d.replace_line(2, format!("flags: `{name}`, `{name}`")))
        }),
        ("a flag the state forbids", Rule::StateFlags, |d| {
            let state = d.r.workflow_state;
            let forbidden = match state {
                WorkflowState::OutOfSync => "SelectionPending",
                WorkflowState::Refreshing => "PersistPending",
                _ => "ExternalConflict",
            };
            let names: Vec<&str> = required_flag(state).into_iter().chain([forbidden]).collect();
            Some(d.replace_line(2, flags_line(&names)))
        }),
        ("the state's required flag dropped", Rule::StateFlags, |d| {
            let req = required_flag(d.r.workflow_state)?;
            let names: Vec<&str> = d.r.flags.names().into_iter().filter(|n| *n != req).collect();
            Some(d.replace_line(2, flags_line(&names)))
        }),
        ("status with a state it cannot have", Rule::StatusState, |d| {
            // (MultiMatch may come with Idle: a preview_only listing selects nothing.)
            matches!(d.r.status, Status::MultiMatch | Status::ExternalConflict | Status::PersistFailure).then_some(())?;
            let mut l = d.lines.clone();
            l[1] = if d.r.status == Status::MultiMatch { "state: `Refreshing`".into() } else { "state: `Idle`".into() };
            if d.r.status == Status::MultiMatch {
                l[2] = "flags: `DiagnosticHint`".into();
                return Some(Doc::text(&l));
            }
            l[2] = "flags: -".into();
            Some(Doc::text(&l))
        }),
        ("wrong severity icon", Rule::Severity, |d| {
            let i = d.heading("OK").or(d.heading("Warning")).or(d.heading("Fail"))?;
            let wrong = match d.r.status {
                Status::Success | Status::NoOp => "Fail",
                _ => "OK",
            };
            let line = d.lines[i].replacen(&format!("[{}]", d.r.severity().as_str()), &format!("[{wrong}]"), 1);
            Some(d.replace_line(i, line))
        }),
        ("no blank line before the Metrics heading", Rule::BlankLine, |d| {
            let i = d.heading("Metrics")?;
            let mut l = d.lines.clone();
            l.remove(i - 1);
            Some(Doc::text(&l))
        }),
        ("two blank lines before the Metrics heading", Rule::BlankLine, |d| {
            let i = d.heading("Metrics")?;
            let mut l = d.lines.clone();
            l.insert(i, String::new());
            Some(Doc::text(&l))
        }),
        ("empty guidance", Rule::Overview, |d| {
            let i = d.lines.iter().position(|l| l.starts_with("- guidance:"))?;
            Some(d.replace_line(i, "- guidance: ".into()))
        }),
        // The workspace always gives guidance now: any guidance line becomes the other locale's marker.
        ("the other locale's empty marker", Rule::Locale, |d| {
            let i = d.lines.iter().position(|l| l.starts_with("- guidance:"))?;
            Some(d.replace_line(i, format!("- guidance: {}", d.other_locale().words().empty)))
        }),
        ("Overview section removed", Rule::MissingSection, |d| {
            let i = d.heading("OK").or(d.heading("Warning")).or(d.heading("Fail"))?;
            let mut l = d.lines.clone();
            l.drain(d.section(i));
            Some(Doc::text(&l))
        }),
        ("Metrics heading in the other locale", Rule::Locale, |d| {
            let i = d.heading("Metrics")?;
            Some(d.replace_line(i, format!("### [Metrics] {}", d.other_locale().words().metrics)))
        }),
        ("metric value not a number", Rule::MetricValue, |d| {
            let i = d.lines.iter().position(|l| l.starts_with("| new_length |"))?;
            Some(d.replace_line(i, "| new_length | 1.5 |".into()))
        }),
        ("delta without its sign", Rule::MetricValue, |d| {
            let i = d.lines.iter().position(|l| l.starts_with("| delta |"))?;
            Some(d.replace_line(i, "| delta | 3 |".into()))
        }),
        ("metrics rows reordered", Rule::MetricsTable, |d| {
            let i = d.lines.iter().position(|l| l.starts_with("| delta |"))?;
            let mut l = d.lines.clone();
            l.swap(i, i + 1);
            Some(Doc::text(&l))
        }),
        ("metrics cell dropped", Rule::MetricsTable, |d| {
            let i = d.lines.iter().position(|l| l.starts_with("| delta |"))?;
            let value = Doc::table_cells(&d.lines[i]).pop()?;
            Some(d.replace_line(i, format!("| {value} |")))
        }),
        ("stray text after the Metrics table", Rule::StrayText, |d| {
            let i = d.lines.iter().position(|l| l.starts_with("| selection_count |"))?;
            let mut l = d.lines.clone();
            l.insert(i + 1, "Note: nothing else.".into());
            Some(Doc::text(&l))
        }),
        ("unknown section appended", Rule::UnknownSection, |d| {
            let mut l = d.lines.clone();
            l.extend(["".to_string(), "### [Notes] Notes".to_string(), "- x".to_string()]);
            Some(Doc::text(&l))
        }),
        ("two optional sections reordered", Rule::SectionOrder, |d| {
            let hs = d.optional_headings();
            let (a, b) = (d.section(*hs.first()?), d.section(*hs.get(1)?));
            let mut l: Vec<String> = d.lines[..a.start].to_vec();
            l.extend_from_slice(&d.lines[b.clone()]);
            l.push(String::new());
            l.extend_from_slice(&d.lines[a]);
            l.extend_from_slice(&d.lines[b.end..]);
            Some(Doc::text(&l))
        }),
        ("Metrics section repeated", Rule::SectionOrder, |d| {
            let range = d.section(d.heading("Metrics")?);
            let mut l = d.lines.clone();
            l.push(String::new());
            l.extend_from_slice(&d.lines[range]);
            Some(Doc::text(&l))
        }),
        ("candidate column misspelt Occurence", Rule::CandidateHeader, |d| {
            let i = d.candidate_row()? - 2;
            Some(d.replace_line(i, d.lines[i].replace("| Occurrence |", "| Occurence |")))
        }),
        ("candidate separator one column short", Rule::CandidateHeader, |d| {
            let i = d.candidate_row()? - 1;
            Some(d.replace_line(i, d.lines[i].replacen(" --- |", "", 1)))
        }),
        ("candidate cell dropped", Rule::CandidateRow, |d| {
            let i = d.candidate_row()?;
            let mut cells = Doc::table_cells(&d.lines[i]);
            cells.remove(4);
            Some(d.replace_line(i, Doc::join_cells(&cells)))
        }),
        ("MarkerStart letter changed", Rule::CandidateMarker, |d| {
            let i = d.candidate_row()?;
            let mut cells = Doc::table_cells(&d.lines[i]);
            let id = cells[0].clone();
            let other = if id == "B" { "C" } else { "B" };
            cells[1] = format!("`[[SEL#{other}]]`");
            Some(d.replace_line(i, Doc::join_cells(&cells)))
        }),
        ("ContextStart after ContextEnd", Rule::CandidateValue, |d| {
            let i = d.candidate_row()?;
            let mut cells = Doc::table_cells(&d.lines[i]);
            cells[5] = format!("{}", cells[6].parse::<usize>().ok()? + 1);
            Some(d.replace_line(i, Doc::join_cells(&cells)))
        }),
        ("two candidates recommended", Rule::Recommendation, |d| {
            let i = d.candidate_row()?;
            let yes = d.locale.words().yes;
            let mut l = d.lines.clone();
            let mut n = 0;
            for line in l.iter_mut().skip(i).take_while(|l| l.starts_with("| ")) {
                let mut cells = Doc::table_cells(line);
                if cells.len() == 10 && cells[8] != d.locale.words().stale {
                    cells[8] = yes.to_string();
                    *line = Doc::join_cells(&cells);
                    n += 1;
                }
            }
            (n >= 2).then(|| Doc::text(&l))
        }),
        ("list candidates out of letter order", Rule::CandidateValue, |d| {
            let h = d.heading("Target")?;
            d.lines[h + 1].starts_with("- [").then_some(())?;
            d.lines.get(h + 2).filter(|l| l.starts_with("- ["))?;
            let mut l = d.lines.clone();
            l.swap(h + 1, h + 2);
            Some(Doc::text(&l))
        }),
        ("list candidate without its line reference", Rule::CandidateRow, |d| {
            let h = d.heading("Target")?;
            let line = &d.lines[h + 1];
            line.starts_with("- [").then_some(())?;
            let at = line.find('`')?;
            Some(d.replace_line(h + 1, format!("- [A] {}", &line[at..])))
        }),
        // Metrics is optional beside candidates, but a selection_count it gives must count them.
        ("selection_count missing with candidates", Rule::SelectionCount, |d| {
            let target = d.heading("Target")?;
            d.heading("Metrics").is_none().then_some(())?;
            let w = d.locale.words();
            let mut l = d.lines.clone();
            let table = [
                format!("### [Metrics] {}", w.metrics),
                w.metric_header.to_string(),
                "| --- | --- |".into(),
                "| delta | 0 |".into(),
                "| new_length | - |".into(),
                "| selection_count | - |".into(),
                String::new(),
            ];
            l.splice(target..target, table);
            Some(Doc::text(&l))
        }),
        ("fence never closed", Rule::Fence, |d| {
            let h = d.heading("Text").or(d.heading("Diff"))?;
            let range = d.section(h);
            let mut l = d.lines.clone();
            l.remove(range.end - 1);
            Some(Doc::text(&l))
        }),
        ("text after the fence", Rule::StrayText, |d| {
            let h = d.heading("Text").or(d.heading("Diff"))?;
            let range = d.section(h);
            let mut l = d.lines.clone();
            l.insert(range.end, "loose text".into());
            Some(Doc::text(&l))
        }),
        ("pending change without its arrow", Rule::SectionBody, |d| {
            let i = d.heading("Changes")? + 1;
            Some(d.replace_line(i, d.lines[i].replacen(" → ", " to ", 1)))
        }),
        ("task status in the other locale", Rule::SectionBody, |d| {
            let i = d.heading("Tasks")? + 1;
            let (w, o) = (d.locale.words(), d.other_locale().words());
            let own = format_paren(w.paren, w.task_active);
            d.lines[i].ends_with(&own).then_some(())?;
            let line = d.lines[i].strip_suffix(&own)?.to_string() + &format_paren(o.paren, o.task_active);
            Some(d.replace_line(i, line))
        }),
        ("session log cell dropped", Rule::SectionBody, |d| {
            let i = d.heading("Log")? + 3;
            let mut cells = Doc::table_cells(&d.lines[i]);
            cells.pop();
            Some(d.replace_line(i, Doc::join_cells(&cells)))
        }),
    ]
}

fn format_paren(template: &str, value: &str) -> String {
    template.replacen("{}", value, 1)
}

#[test]
fn every_mutation_is_reported_with_its_rule() {
    let responses = all_responses();
    let mut applied = std::collections::BTreeMap::new();
    let mut failures = Vec::new();
    for (label, r) in &responses {
        let locale = validate::validate(&r.markdown).unwrap_or_else(|v| panic!("{label}: {v:?}")).locale;
        let doc = Doc { r, lines: r.markdown.lines().map(str::to_string).collect(), locale };
        for (name, rule, mutate) in mutations() {
            let Some(mutated) = mutate(&doc) else { continue };
            *applied.entry(name).or_insert(0usize) += 1;
            match validate::validate(&mutated) {
                Ok(_) => failures.push(format!("{label} / {name}: expected {rule}, but it validates:\n{mutated}")),
                Err(v) if !v.iter().any(|v| v.rule == rule) => failures.push(format!(
                    "{label} / {name}: expected {rule}, found:\n{}\n{mutated}",
                    v.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("\n")
                )),
                Err(v) => {
                    // Every violation says what was expected and what was found, on a real line.
                    let lines = mutated.lines().count();
                    for x in &v {
                        assert!(x.message.starts_with("expected"), "{label} / {name}: {x}");
                        assert!((1..=lines + 1).contains(&x.line), "{label} / {name}: {x}");
                    }
                }
            }
        }
    }
    let never: Vec<&str> = mutations().iter().map(|m| m.0).filter(|n| !applied.contains_key(n)).collect();
    assert!(never.is_empty(), "mutations that applied to no response: {never:?}");
    assert!(failures.is_empty(), "{} failures:\n\n{}", failures.len(), failures.join("\n\n"));
    let total: usize = applied.values().sum();
    assert!(total > 2000, "{total} mutated responses");
}

// ---- what the current formatter gets wrong ----------------------------------------------------

/// Responses the workspace produces today that break the layout. Each is a defect of the
/// formatter or the workspace, not of the validator: when one is fixed, its assertion here fails
/// — move the case into `scenarios` then.
#[test]
fn formerly_broken_responses_validate() {
    // Each of these once broke the layout; they stay here as regressions.
    let ok = |r: &Response| {
        if let Err(v) = validate::validate(&r.markdown) {
            panic!("{v:#?}\n{}", r.markdown);
        }
    };
    // A note the workspace puts before the summary (a silent reload) comes after `[Warning]`.
    let mut h = Host::new(&[("a.md", "one\n  two\nthree\n")]);
    h.external_write("a.md", "one\n  two\nthree\nfour\n");
    let r = h.call("memo_replace", json!({"old_text": "two  ", "new_text": "2"}));
    assert!(r.summary.starts_with("[Warning] [a.md changed in storage"), "{}", r.summary);
    ok(&r);
    // `preview_only` on a multi-match lists candidates without a selection: MultiMatch in Idle.
    let mut h = Host::new(&[("a.md", "x\nx\n")]);
    let r = h.call("memo_replace", json!({"old_text": "x", "new_text": "y", "preview_only": true}));
    assert_eq!((r.status, r.workflow_state), (Status::MultiMatch, WorkflowState::Idle));
    ok(&r);
    // Line breaks in tool names, tool_call_ids, arguments, goals and paths stay on their line.
    let mut h = Host::new(&[("a.md", "x\n")]);
    h.call("memo_x\ny", json!({}));
    ok(&h.call("memo_export_session", json!({})));
    let mut h = Host::new(&[("a.md", "x\n")]);
    ok(&h.call("memo_read", json!({"path": "a\rb"})));
    ok(&h.call("memo_begin_task", json!({"goal": "a\rb"})));
    let mut h = Host::new(&[("a\nb.md", "x\n")]);
    ok(&h.call("memo_replace", json!({"old_text": "x", "new_text": "y"})));
}

// ---- no input panics --------------------------------------------------------------------------

fn samples() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in configs() {
        for (label, r) in scenarios(c) {
            if ["multimatch", "read", "export session", "nested task", "persist failure", "preview diff"].iter().any(|l| label == *l) {
                out.push(r.markdown);
            }
        }
    }
    out
}

#[test]
fn every_prefix_of_a_response_is_validated_without_panicking() {
    for md in samples() {
        for (i, _) in md.char_indices() {
            let _ = validate::parse(&md[..i]);
        }
    }
}

/// Pieces of the layout, in any order and number.
const MARKDOWNISH: &str = concat!(
    "(status: |state: |flags: |`|``|```|### \\[|OK\\] |Metrics|Target|Id|\\| |\\\\\\||---|- \\[|\\]",
    "|line |第 | 行：|[A-Z]|[0-9]|-|\n|\r| |→|←|（|）|\\(|\\))*"
);

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        let _ = validate::validate(&s);
    }

    #[test]
    fn markdownish_strings_never_panic(s in MARKDOWNISH) {
        let (parsed, violations) = validate::parse(&s);
        prop_assert_eq!(validate::validate(&s).is_ok(), violations.is_empty());
        let _ = parsed;
    }

    #[test]
    fn edited_responses_never_panic(
        pick in 0usize..1000,
        edits in prop::collection::vec((0usize..10_000, 0usize..40, "(\n|\r|`|\\||###|- |[a-z]| |[^\u{0}-\u{7f}]){0,6}"), 1..6),
    ) {
        let samples = SAMPLES.with(|s| s.clone());
        let mut md = samples[pick % samples.len()].clone();
        for (at, len, insert) in edits {
            let chars: Vec<char> = md.chars().collect();
            let at = at % (chars.len() + 1);
            let end = (at + len).min(chars.len());
            md = chars[..at].iter().collect::<String>() + &insert + &chars[end..].iter().collect::<String>();
        }
        let _ = validate::validate(&md);
    }
}

thread_local! {
    static SAMPLES: Vec<String> = samples();
}
