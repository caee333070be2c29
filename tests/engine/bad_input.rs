//! The bad-input catalogue (docs/reliability.md): every case of `tests/fixtures/bad-input.json` run
//! against the Rust core through the storage host. The same table runs through the npm package
//! in `www/test/bad-input.test.mjs`.
//!
//! Each case builds two twin workspaces the same way (documents, options, setup calls); the bad
//! input goes to one of them only. It must get the expected status with a summary and guidance
//! that name what to fix, and afterwards the twins must agree on everything the agent can see:
//! committed texts, drafts, workflow state, flags, pending changes, the task stack, the memory
//! store, the visible tools and the editor state — and on the answers to probe calls (the
//! pending choice still stages the same candidate, the preview is the same).

use crate::common;

use agentpad::live_context::{EditorState, LiveContextOptions};
use agentpad::{Config, LiveContextRequest, Response};
use common::Host;
use serde_json::{json, Map, Value};

const FIXTURE: &str = include_str!("../fixtures/bad-input.json");

fn fixture() -> Value {
    serde_json::from_str(FIXTURE).expect("bad-input.json is valid JSON")
}

/// `{"$repeat": s, "times": n, "prefix"?, "suffix"?}` → the string; everything else as is.
fn expand(v: &Value) -> Value {
    match v {
        Value::Object(m) if m.contains_key("$repeat") => {
            let s = m["$repeat"].as_str().expect("$repeat is a string");
            let n = m["times"].as_u64().expect("$repeat needs times") as usize;
            let pre = m.get("prefix").and_then(Value::as_str).unwrap_or("");
            let post = m.get("suffix").and_then(Value::as_str).unwrap_or("");
            Value::String(format!("{pre}{}{post}", s.repeat(n)))
        }
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), expand(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(expand).collect()),
        other => other.clone(),
    }
}

/// The fixture's documents with the case's on top, in fixture order (the first is the default).
fn documents(root: &Value, case: &Value) -> Vec<(String, String)> {
    let mut docs: Vec<(String, String)> = Vec::new();
    for source in [&root["docs"], &case["docs"]] {
        for (path, text) in source.as_object().into_iter().flatten() {
            let text = text.as_str().expect("document text").to_string();
            match docs.iter_mut().find(|(p, _)| p == path) {
                Some(d) => d.1 = text,
                None => docs.push((path.clone(), text)),
            }
        }
    }
    docs
}

fn setup_steps(root: &Value, case: &Value) -> Vec<Value> {
    match &case["setup"] {
        Value::Null => Vec::new(),
        Value::String(name) => root["setups"][name.as_str()].as_array().unwrap_or_else(|| panic!("no setup {name}")).clone(),
        Value::Array(steps) => steps.clone(),
        other => panic!("bad setup {other}"),
    }
}

struct Twin {
    host: Host,
    last: Option<Response>,
}

fn twin(root: &Value, case: &Value) -> Twin {
    let name = case["name"].as_str().unwrap_or("?");
    let docs = documents(root, case);
    let files: Vec<(&str, &str)> = docs.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let config = Config::from_json(&case["options"]).unwrap_or_else(|e| panic!("{name}: options: {e}"));
    let mut t = Twin { host: Host::with_config(&files, config), last: None };
    for step in setup_steps(root, case) {
        if let Some(tool) = step["tool"].as_str() {
            let r = t.host.call(tool, expand(&step["args"]));
            if let Some(want) = step["status"].as_str() {
                assert_eq!(r.status.as_str(), want, "{name}: setup {tool}: {}", r.markdown);
            }
            t.last = Some(r);
        } else {
            match step["host"].as_str() {
                Some("fail_next_save") => t.host.fail_next_save = true,
                Some("external_write") => {
                    t.host.external_write(step["path"].as_str().unwrap(), step["text"].as_str().unwrap());
                }
                Some("memory_add") => {
                    let record = agentpad::memory::TurnRecord::from_json(&step["turn"]).expect("memory turn");
                    t.host.ws.memory_add(record).expect("memory_add");
                }
                other => panic!("{name}: unknown host step {other:?}"),
            }
        }
    }
    t
}

/// Everything of a workspace the agent can see, as one comparable value.
fn snapshot(t: &Twin, pending: &Value) -> Value {
    let ws = &t.host.ws;
    let docs: Vec<Value> = ws
        .paths()
        .iter()
        .map(|p| json!({ "path": p, "text": ws.text(Some(p)).unwrap(), "draft": ws.draft(Some(p)).unwrap(), "version": ws.version(p) }))
        .collect();
    let editor = ws
        .live_context(&LiveContextOptions::default(), &mut || 0.0)
        .map(|c| serde_json::to_value(&c.editor_state).unwrap())
        .unwrap_or(Value::Null);
    json!({
        "docs": docs,
        "stored": t.host.files.iter().map(|(p, (text, v))| json!([p, text, v])).collect::<Vec<_>>(),
        "state": ws.state().as_str(),
        "flags": ws.flags().names(),
        "pending": pending,
        "tasks": serde_json::to_value(ws.task_report()).unwrap(),
        "memory": ws.memory().export(),
        "tools": ws.tool_definitions().iter().map(|d| d.name.clone()).collect::<Vec<_>>(),
        "editor": editor,
    })
}

fn pending_of(r: Option<&Response>) -> Value {
    r.map_or(json!([]), |r| serde_json::to_value(&r.pending_changes).unwrap())
}

/// The fields of a probe's answer that must not depend on whether the bad call happened.
fn probe_view(r: &Response) -> Value {
    let v = serde_json::to_value(r).unwrap();
    let keep = [
        "status",
        "workflow_state",
        "flags",
        "summary",
        "guidance",
        "candidates",
        "pending_changes",
        "preview",
        "content",
        "fingerprint",
        "match_quality",
        "metrics",
    ];
    Value::Object(keep.iter().filter_map(|k| v.get(*k).map(|x| (k.to_string(), x.clone()))).collect::<Map<_, _>>())
}

fn default_probe(t: &Twin) -> Value {
    if t.host.ws.state() == agentpad::WorkflowState::SelectionPending {
        let n = t.last.as_ref().map_or(0, |r| r.candidates.len());
        json!({ "tool": "memo_replace_selection", "args": { "selection_id": if n >= 2 { "B" } else { "A" } } })
    } else {
        json!({ "tool": "memo_preview", "args": {} })
    }
}

fn texts(case: &Value, key: &str) -> Vec<String> {
    case["expect"][key].as_array().into_iter().flatten().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// Runs one call case; returns a description of what went wrong, if anything.
fn run_call_case(root: &Value, case: &Value) -> Result<(), String> {
    let name = case["name"].as_str().unwrap();
    let mut a = twin(root, case);
    let mut b = twin(root, case);
    let before_a = snapshot(&a, &pending_of(a.last.as_ref()));
    let before_b = snapshot(&b, &pending_of(b.last.as_ref()));
    if before_a != before_b {
        return Err(format!("{name}: the twins differ before the bad call"));
    }
    let tool = case["call"]["tool"].as_str().unwrap();
    let args = expand(&case["call"]["args"]);
    let r = b.host.call(tool, args); // the host validates the Markdown
    let want = case["expect"]["status"].as_str().unwrap();
    let mut problems = Vec::new();
    if r.status.as_str() != want {
        problems.push(format!("status {} (expected {want})", r.status.as_str()));
    }
    let guidance = r.guidance.clone().unwrap_or_default();
    if guidance.trim().is_empty() {
        problems.push("no guidance".into());
    }
    let wanted_guidance = texts(case, "guidance_contains");
    if wanted_guidance.is_empty() {
        problems.push("the case names nothing the guidance must say".into());
    }
    for g in wanted_guidance {
        if !guidance.contains(&g) {
            problems.push(format!("guidance lacks {g:?}"));
        }
    }
    for s in texts(case, "summary_contains") {
        if !r.summary.contains(&s) {
            problems.push(format!("summary lacks {s:?}"));
        }
    }
    for s in texts(case, "summary_lacks") {
        if r.summary.contains(&s) {
            problems.push(format!("summary says {s:?}"));
        }
    }
    let after_b = snapshot(&b, &pending_of(Some(&r)));
    if case["offers_choice"] == json!(true) {
        // Lettered candidates to choose from: the state is SelectionPending, nothing else moved.
        if b.host.ws.state() != agentpad::WorkflowState::SelectionPending || r.candidates.is_empty() {
            problems.push(format!("no choice offered (state {}, {} candidates)", b.host.ws.state().as_str(), r.candidates.len()));
        }
        let (x, y) = (without_choice(&before_a), without_choice(&after_b));
        if x != y {
            problems.push(format!("something changed:\n  before {x}\n  after  {y}"));
        }
        return report(name, problems, &r);
    }
    if after_b != before_a {
        problems.push(format!("something changed:\n  before {before_a}\n  after  {after_b}"));
    }
    let probe = if case["probe"].is_null() { default_probe(&a) } else { case["probe"].clone() };
    for p in [probe, json!({ "tool": "memo_read", "args": {} })] {
        let tool = p["tool"].as_str().unwrap();
        let ra = a.host.call(tool, expand(&p["args"]));
        let rb = b.host.call(tool, expand(&p["args"]));
        if probe_view(&ra) != probe_view(&rb) {
            problems.push(format!("probe {tool} answers differently:\n  twin {}\n  bad  {}", probe_view(&ra), probe_view(&rb)));
        }
        let (sa, sb) = (snapshot(&a, &pending_of(Some(&ra))), snapshot(&b, &pending_of(Some(&rb))));
        if sa != sb {
            problems.push(format!("after probe {tool} the twins differ:\n  twin {sa}\n  bad  {sb}"));
        }
    }
    report(name, problems, &r)
}

fn report(name: &str, problems: Vec<String>, r: &Response) -> Result<(), String> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}: {}\n--- response ---\n{}", problems.join("; "), r.markdown))
    }
}

/// A snapshot without what offering a choice changes: the state, its flags and tools.
fn without_choice(snapshot: &Value) -> Value {
    let mut v = snapshot.clone();
    for key in ["state", "flags", "tools"] {
        v.as_object_mut().unwrap().remove(key);
    }
    v["editor"].as_object_mut().map(|e| e.remove("workflow_state"));
    v
}

/// The error names the option as the Rust API spells it (or the path it refuses).
fn names_option(message: &str, option: &str) -> bool {
    message.contains(option)
}

fn check_error(case: &Value, message: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let option = case["option"].as_str().unwrap();
    if !names_option(message, option) {
        problems.push(format!("the error does not name `{option}`"));
    }
    for s in case["error_contains"].as_array().into_iter().flatten() {
        let s = s.as_str().unwrap();
        if !message.contains(s) {
            problems.push(format!("the error lacks {s:?}"));
        }
    }
    problems
}

fn run_config_case(case: &Value) -> Result<(), String> {
    let name = case["name"].as_str().unwrap();
    match Config::from_json(&case["options"]) {
        Ok(_) => Err(format!("{name}: the options were accepted")),
        Err(e) => {
            let problems = check_error(case, &e.to_string());
            if problems.is_empty() {
                Ok(())
            } else {
                Err(format!("{name}: {} (error: {e})", problems.join("; ")))
            }
        }
    }
}

/// Live context and editor state: refused with an error naming the option, nothing changed
/// (the editor state included: options are read before anything is set).
fn run_live_case(root: &Value, case: &Value) -> Result<(), String> {
    let name = case["name"].as_str().unwrap();
    let a = twin(root, case);
    let mut b = twin(root, case);
    let before = snapshot(&a, &pending_of(a.last.as_ref()));
    let result: Result<(), String> = if case["kind"] == "editor_state" {
        EditorState::from_json(&case["state"])
            .map_err(|e| e.to_string())
            .and_then(|s| b.host.ws.set_editor_state(s).map_err(|e| e.to_string()))
    } else {
        // What the JS binding does (`Workspace::live_context_block`): every part is read, then
        // the state is set, then the block built; a block that cannot be built puts the old
        // state back.
        LiveContextRequest::from_json(&case["live_options"], 0.0)
            .map_err(|e| e.to_string())
            .and_then(|request| b.host.ws.live_context_block(request, &mut || 0.0).map(|_| ()).map_err(|e| e.to_string()))
    };
    let mut problems = match result {
        Ok(()) => vec!["accepted".to_string()],
        Err(e) => check_error(case, &e).into_iter().map(|p| format!("{p} (error: {e})")).collect(),
    };
    let after = snapshot(&b, &pending_of(b.last.as_ref()));
    if after != before {
        problems.push(format!("something changed:\n  before {before}\n  after  {after}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}: {}", problems.join("; ")))
    }
}

#[test]
fn the_catalogue_is_large_and_its_names_are_distinct() {
    let root = fixture();
    let cases = root["cases"].as_array().unwrap();
    let mut names: Vec<&str> = cases.iter().map(|c| c["name"].as_str().unwrap()).collect();
    let calls = cases.iter().filter(|c| c["kind"].is_null()).count();
    assert!(calls >= 40, "only {calls} call cases");
    names.sort();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "case names repeat");
}

#[test]
fn every_bad_input_gets_a_clear_answer_and_changes_nothing() {
    let root = fixture();
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in root["cases"].as_array().unwrap() {
        let outcome = match case["kind"].as_str() {
            None | Some("call") => run_call_case(&root, case),
            Some("config") => run_config_case(case),
            Some("live_context") | Some("editor_state") => run_live_case(&root, case),
            Some(other) => Err(format!("unknown kind {other}")),
        };
        ran += 1;
        if let Err(e) = outcome {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{} of {ran} cases failed:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// Cases of the core's own reliability pass (docs/reliability.md §Matching time and read size),
/// run by the same twin check as the shared catalogue. Each failed before its fix: the call
/// went through (appending, or editing the wrong block) instead of being refused.
const CORE_CASES: &str = r##"[
  {"name": "empty old_text with match_id", "call": {"tool": "memo_replace", "args": {"old_text": "", "new_text": "x", "match_id": "B"}},
   "expect": {"status": "InvalidArguments", "summary_contains": ["old_text is empty", "`match_id` (B)"], "guidance_contains": ["leave out `match_id` (B) to append"]}},
  {"name": "empty old_text with replace_all", "call": {"tool": "memo_replace", "args": {"old_text": "", "new_text": "x", "replace_all": true}},
   "expect": {"status": "InvalidArguments", "summary_contains": ["`replace_all` (true)"], "guidance_contains": ["memo_append"]}},
  {"name": "empty old_text with expected_occurrences", "call": {"tool": "memo_replace", "args": {"old_text": "", "new_text": "x", "expected_occurrences": 3}},
   "expect": {"status": "InvalidArguments", "summary_contains": ["`expected_occurrences` (3)"], "guidance_contains": ["Pass the text to replace as old_text"]}},
  {"name": "empty old_text with search_after", "call": {"tool": "memo_replace", "args": {"old_text": "", "new_text": "x", "search_after": "# Notes"}},
   "expect": {"status": "InvalidArguments", "summary_contains": ["`search_after` (`# Notes`)"], "guidance_contains": ["to append"]}},
  {"name": "empty old_text with match_id and replace_all", "call": {"tool": "memo_replace", "args": {"old_text": "", "new_text": "x", "match_id": "A", "replace_all": true}},
   "expect": {"status": "InvalidArguments", "summary_contains": ["`match_id` (A), `replace_all` (true)"], "guidance_contains": ["leave out"]}},
  {"name": "empty old_text with a selection pending", "setup": "multi", "call": {"tool": "memo_replace", "args": {"old_text": "", "new_text": "x", "match_id": "A", "path": "config.yaml"}},
   "expect": {"status": "InvalidArguments", "summary_contains": ["`match_id` (A)"], "guidance_contains": ["leave out"]}},
  {"name": "match_id after a silent reload", "setup": [
     {"tool": "memo_replace", "args": {"old_text": "timeout: 30", "new_text": "timeout: 60", "path": "config.yaml"}, "status": "MultiMatch"},
     {"host": "external_write", "path": "config.yaml", "text": "timeout: 30\ndatabase:\n  timeout: 30\napi:\n  timeout: 30\ncache:\n  timeout: 30\n"}],
   "call": {"tool": "memo_replace", "args": {"old_text": "timeout: 30", "new_text": "timeout: 60", "path": "config.yaml", "match_id": "B"}},
   "offers_choice": true,
   "expect": {"status": "StaleReference", "summary_contains": ["match_id B", "no longer exists", "config.yaml was reloaded"], "guidance_contains": ["match_id"]}},
  {"name": "match_id A after a silent reload", "setup": [
     {"tool": "memo_replace", "args": {"old_text": "timeout: 30", "new_text": "timeout: 60", "path": "config.yaml"}, "status": "MultiMatch"},
     {"host": "external_write", "path": "config.yaml", "text": "api:\n  timeout: 30\ncache:\n  timeout: 30\n"}],
   "call": {"tool": "memo_replace", "args": {"old_text": "timeout: 30", "new_text": "timeout: 60", "path": "config.yaml", "match_id": "A"}},
   "offers_choice": true,
   "expect": {"status": "StaleReference", "summary_contains": ["match_id A", "reloaded from storage"], "guidance_contains": ["Check the candidates"]}},
  {"name": "line keys whose ends match but whose lines moved", "docs": {"notes.md": "a\n}\nfoo()\n}\nbar()\n}\n"}, "setup": [
     {"tool": "memo_read", "args": {"line_keys": true}, "status": "Success"},
     {"tool": "memo_replace", "args": {"old_text": "a\n", "new_text": "x\ny\na\n"}, "status": "Success"}],
   "call": {"tool": "memo_replace_lines", "args": {"start_key": "4#3978", "end_key": "6#3978", "new_text": "baz()"}},
   "expect": {"status": "StaleReference", "summary_contains": ["line 5 is now `foo()`", "not the line you read there (`bar()`)"], "guidance_contains": ["current keys"]}},
  {"name": "line keys read before anything was staged, lines moved", "docs": {"notes.md": "a\n}\nfoo()\n}\nbar()\n}\n"}, "setup": [
     {"tool": "memo_replace", "args": {"old_text": "a\n", "new_text": "x\ny\na\n"}, "status": "Success"}],
   "call": {"tool": "memo_replace_lines", "args": {"start_key": "4#3978", "end_key": "6#3978", "new_text": "baz()"}},
   "expect": {"status": "StaleReference", "summary_contains": ["line 5 is now `foo()`"], "guidance_contains": ["read(line_keys=true)"]}}
]"##;

#[test]
fn the_cores_own_cases_get_a_clear_answer_and_change_nothing() {
    let root = fixture();
    let cases: Value = serde_json::from_str(CORE_CASES).expect("CORE_CASES is valid JSON");
    let cases = cases.as_array().expect("a list");
    assert!(cases.len() >= 10, "only {} core cases", cases.len());
    let shared: Vec<&str> = root["cases"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    let failures: Vec<String> = cases
        .iter()
        .inspect(|c| assert!(!shared.contains(&c["name"].as_str().unwrap()), "{} repeats a shared case's name", c["name"]))
        .filter_map(|case| run_call_case(&root, case).err())
        .collect();
    assert!(failures.is_empty(), "{} of {} core cases failed:\n\n{}", failures.len(), cases.len(), failures.join("\n\n"));
}
