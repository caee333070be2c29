//! History compression on recorded transcripts (`tests/fixtures/transcripts/*.json`): an OpenAI
//! chat-completions and an Anthropic messages transcript as real agent loops keep them, with the
//! edit sessions the workspace booked for them. Each one is compressed by the core and checked:
//!
//! - validity, by the APIs' own rules, stricter than `history::check`: OpenAI wants the `tool`
//!   messages answering an assistant's `tool_calls` right after it; Anthropic wants every
//!   `tool_use` answered in the next message, by `tool_result` blocks that come first in it, and
//!   user and assistant turns alternating; no message or text block is empty;
//! - content: every piece (OpenAI message, Anthropic content block) that is not a call or result
//!   of an ended session is kept byte for byte and in order, every message that lost nothing and
//!   was not merged with a neighbour is byte-identical, the calls of sessions still open stay,
//!   and each ended session has exactly one summary, placed where its first call was;
//! - `messages_removed`, `tokens_saved` and the sessions replaced, as the fixture expects;
//! - compressing again changes nothing, and compressing after each session's end (as an agent
//!   loop does) ends where compressing once does;
//! - the whole output against the golden file `<name>.compressed.json`
//!   (`UPDATE_SNAPSHOTS=1 cargo test --test engine history_fixtures::` rewrites the golden files).
//!
//! The scripted 24-call session (`tests/fixtures/sessions/scripted-24.json`) is replayed here on
//! the native core too, in both formats, compressed after every commit or revert.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use agentpad::history::{compress, Compressed, EndedSession, Format, HistoryDelta, Outcome};
use agentpad::{CallContext, Config, Locale};
use serde_json::{json, Value};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One transcript fixture: the messages, the ended sessions as `compress` takes them, the calls
/// of sessions still open, and what compression must report.
struct Fixture {
    name: String,
    format: Format,
    locale: Locale,
    sessions: Vec<EndedSession>,
    /// Summary or reason text of each ended session, by id.
    texts: BTreeMap<u64, String>,
    open_calls: Vec<String>,
    messages: Value,
    expected: Value,
}

fn str_of<'a>(v: &'a Value, key: &str, ctx: &str) -> &'a str {
    v[key].as_str().unwrap_or_else(|| panic!("{ctx}: `{key}` must be a string"))
}

fn load(name: &str) -> Fixture {
    let raw = read_json(&fixtures_dir().join("transcripts").join(format!("{name}.json")));
    let format = Format::parse(str_of(&raw, "format", name)).expect("format: openai | anthropic");
    let locale = Locale::parse(str_of(&raw, "locale", name)).expect("locale: en | zh");
    let mut sessions = Vec::new();
    let mut texts = BTreeMap::new();
    for s in raw["sessions"].as_array().expect("sessions: an array") {
        let id = s["id"].as_u64().expect("session id");
        let (outcome, text) = match str_of(s, "outcome", name) {
            "committed" => {
                let summary = str_of(s, "summary", name).to_string();
                let changes = s["changes"].as_u64().expect("changes") as usize;
                let delta = s["delta"].as_i64().expect("delta") as isize;
                (Outcome::Committed { summary: summary.clone(), changes, delta }, summary)
            }
            "reverted" => {
                let reason = str_of(s, "reason", name).to_string();
                (Outcome::Reverted { reason: reason.clone() }, reason)
            }
            other => panic!("{name}: unknown outcome {other}"),
        };
        let tool_call_ids = s["tool_call_ids"].as_array().expect("tool_call_ids").iter().map(|i| i.as_str().unwrap().to_string()).collect();
        // `tokens` is the workspace's own estimate for its prediction; compress does not read it.
        sessions.push(EndedSession { id, outcome, tool_call_ids, tokens: 0 });
        texts.insert(id, text);
    }
    let open_calls = raw["open_sessions"]
        .as_array()
        .expect("open_sessions: an array")
        .iter()
        .flat_map(|s| s["tool_call_ids"].as_array().expect("tool_call_ids").iter().map(|i| i.as_str().unwrap().to_string()))
        .collect();
    Fixture {
        name: name.to_string(),
        format,
        locale,
        sessions,
        texts,
        open_calls,
        messages: raw["messages"].clone(),
        expected: raw["expected"].clone(),
    }
}

/// Every transcript fixture in the directory (golden files aside).
fn fixture_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures_dir().join("transcripts"))
        .expect("tests/fixtures/transcripts")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && !n.ends_with(".compressed.json"))
        .map(|n| n.trim_end_matches(".json").to_string())
        .collect();
    names.sort();
    names
}

// ---- validity -------------------------------------------------------------------------------

fn is_empty_content(c: Option<&Value>) -> bool {
    match c {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.trim().is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    }
}

/// The OpenAI rules: the `tool` messages answering an assistant's `tool_calls` come right after
/// it, one per call; a `tool` message anywhere else is an orphan; no message is empty.
fn openai_valid(messages: &Value) -> Result<(), String> {
    let list = messages.as_array().ok_or("not an array")?;
    let mut seen = BTreeSet::new();
    let mut i = 0;
    while i < list.len() {
        let m = &list[i];
        let role = m["role"].as_str().ok_or(format!("message {i}: no role"))?;
        match role {
            "system" | "developer" | "user" => {
                if is_empty_content(m.get("content")) {
                    return Err(format!("message {i}: empty {role} message"));
                }
            }
            "tool" => return Err(format!("message {i}: a tool result not right after its call ({})", m["tool_call_id"])),
            "assistant" => {
                let calls: Vec<&str> = match m.get("tool_calls") {
                    None => Vec::new(),
                    Some(Value::Array(a)) if !a.is_empty() => a.iter().map(|c| c["id"].as_str().unwrap_or("")).collect(),
                    Some(other) => return Err(format!("message {i}: tool_calls must be a non-empty array, got {other}")),
                };
                if calls.is_empty() && is_empty_content(m.get("content")) {
                    return Err(format!("message {i}: an assistant message with neither content nor tool calls"));
                }
                let mut open: BTreeSet<&str> = BTreeSet::new();
                for c in &calls {
                    if c.is_empty() || !seen.insert(c.to_string()) || !open.insert(c) {
                        return Err(format!("message {i}: tool call id `{c}` missing or used twice"));
                    }
                }
                while !open.is_empty() {
                    i += 1;
                    let r = list.get(i).ok_or(format!("the calls {open:?} have no result"))?;
                    if r["role"] != "tool" {
                        return Err(format!("message {i}: the calls {open:?} are not answered right after their message"));
                    }
                    let id = r["tool_call_id"].as_str().unwrap_or("");
                    if !open.remove(id) {
                        return Err(format!("message {i}: the result for `{id}` does not answer the assistant message before it"));
                    }
                }
            }
            other => return Err(format!("message {i}: unknown role {other}")),
        }
        i += 1;
    }
    Ok(())
}

fn blocks_of(m: &Value) -> Vec<Value> {
    match m.get("content") {
        Some(Value::Array(a)) => a.clone(),
        Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
        _ => Vec::new(),
    }
}

/// The Anthropic rules: user first, roles alternate, every `tool_use` answered in the next
/// message by `tool_result` blocks that come before any other block there, every `tool_result`
/// answering the message right before it; no empty message or text block.
fn anthropic_valid(messages: &Value) -> Result<(), String> {
    let list = messages.as_array().ok_or("not an array")?;
    let mut seen = BTreeSet::new();
    let mut pending: BTreeSet<String> = BTreeSet::new(); // tool_use ids of the message before
    for (i, m) in list.iter().enumerate() {
        let role = m["role"].as_str().ok_or(format!("message {i}: no role"))?;
        let want = if i % 2 == 0 { "user" } else { "assistant" };
        if role != want {
            return Err(format!("message {i}: role {role}, expected {want} (user first, then alternating)"));
        }
        if is_empty_content(m.get("content")) {
            return Err(format!("message {i}: empty content"));
        }
        let blocks = blocks_of(m);
        let mut answered = BTreeSet::new();
        let mut calls = BTreeSet::new();
        let mut past_results = false;
        for (j, b) in blocks.iter().enumerate() {
            match b["type"].as_str() {
                Some("text") => {
                    if !b["text"].as_str().is_some_and(|t| !t.trim().is_empty()) {
                        return Err(format!("message {i} block {j}: an empty text block"));
                    }
                    past_results = true;
                }
                Some("tool_use") => {
                    if role != "assistant" {
                        return Err(format!("message {i} block {j}: tool_use in a {role} message"));
                    }
                    let id = b["id"].as_str().unwrap_or("").to_string();
                    if id.is_empty() || !seen.insert(id.clone()) {
                        return Err(format!("message {i} block {j}: tool_use id `{id}` missing or used twice"));
                    }
                    calls.insert(id);
                }
                Some("tool_result") => {
                    if role != "user" || past_results {
                        return Err(format!("message {i} block {j}: a tool_result must open a user message"));
                    }
                    let id = b["tool_use_id"].as_str().unwrap_or("").to_string();
                    if !pending.contains(&id) || !answered.insert(id.clone()) {
                        return Err(format!("message {i} block {j}: the result for `{id}` does not answer the message before it"));
                    }
                }
                _ => past_results = true,
            }
        }
        if answered != pending {
            let missing: Vec<&String> = pending.difference(&answered).collect();
            return Err(format!("message {i}: the calls {missing:?} of the message before are not answered here"));
        }
        pending = calls;
    }
    if !pending.is_empty() {
        return Err(format!("the calls {pending:?} have no result"));
    }
    Ok(())
}

/// The fixtures are OpenAI and Anthropic transcripts; the other formats are checked through the
/// package (www/test/history.test.mjs, against the AI SDK's own message schema).
fn no_oracle(format: Format) -> ! {
    panic!("no fixture oracle for {format:?}: the fixtures are openai or anthropic transcripts")
}

fn valid(messages: &Value, format: Format) -> Result<(), String> {
    match format {
        Format::OpenAi => openai_valid(messages),
        Format::Anthropic => anthropic_valid(messages),
        other => no_oracle(other),
    }
}

// ---- content --------------------------------------------------------------------------------

/// One piece of a transcript, with the index of the input message it comes from (`None`: a
/// summary): an OpenAI message, or an Anthropic content block with its message's role.
#[derive(Debug)]
struct Piece {
    source: Option<usize>,
    role: String,
    value: Value,
}

/// The call id a piece is or answers, when it is a call or a result.
fn piece_ids(v: &Value, format: Format) -> Vec<String> {
    let mut ids = Vec::new();
    match format {
        Format::OpenAi => {
            for c in v["tool_calls"].as_array().into_iter().flatten() {
                ids.extend(c["id"].as_str().map(str::to_string));
            }
            if v["role"] == "tool" {
                ids.extend(v["tool_call_id"].as_str().map(str::to_string));
            }
        }
        Format::Anthropic => match v["type"].as_str() {
            Some("tool_use") => ids.extend(v["id"].as_str().map(str::to_string)),
            Some("tool_result") => ids.extend(v["tool_use_id"].as_str().map(str::to_string)),
            _ => {}
        },
        other => no_oracle(other),
    }
    ids
}

/// The input message without the calls and results in `gone` (worked out here, apart from the
/// library): `None` when nothing is left of it; and whether anything was taken from it.
fn expected_strip(m: &Value, format: Format, gone: &BTreeSet<String>) -> (Option<Value>, bool) {
    let mut m = m.clone();
    match format {
        Format::OpenAi => {
            if m["role"] == "tool" {
                let removed = m["tool_call_id"].as_str().is_some_and(|id| gone.contains(id));
                return (if removed { None } else { Some(m) }, removed);
            }
            let Some(calls) = m.get("tool_calls").and_then(Value::as_array).cloned() else { return (Some(m), false) };
            let kept: Vec<Value> = calls.iter().filter(|c| !c["id"].as_str().is_some_and(|id| gone.contains(id))).cloned().collect();
            if kept.len() == calls.len() {
                return (Some(m), false);
            }
            let obj = m.as_object_mut().unwrap();
            if kept.is_empty() {
                obj.remove("tool_calls");
                if is_empty_content(obj.get("content")) {
                    return (None, true);
                }
            } else {
                obj.insert("tool_calls".into(), Value::Array(kept));
            }
            (Some(m), true)
        }
        Format::Anthropic => {
            let Some(blocks) = m.get("content").and_then(Value::as_array).cloned() else { return (Some(m), false) };
            let kept: Vec<Value> = blocks.iter().filter(|b| !piece_ids(b, format).iter().any(|id| gone.contains(id))).cloned().collect();
            if kept.len() == blocks.len() {
                return (Some(m), false);
            }
            if kept.is_empty() {
                return (None, true);
            }
            m["content"] = Value::Array(kept);
            (Some(m), true)
        }
        other => no_oracle(other),
    }
}

fn pieces_of(m: &Value, source: Option<usize>, format: Format) -> Vec<Piece> {
    let role = m["role"].as_str().unwrap_or("").to_string();
    match format {
        Format::OpenAi => vec![Piece { source, role, value: m.clone() }],
        Format::Anthropic => blocks_of(m).into_iter().map(|value| Piece { source, role: role.clone(), value }).collect(),
        other => no_oracle(other),
    }
}

fn summary_text(p: &Piece, format: Format) -> Option<&str> {
    let text = match format {
        Format::OpenAi => p.value["content"].as_str(),
        Format::Anthropic => p.value["text"].as_str(),
        other => no_oracle(other),
    }?;
    (text.starts_with("[Edit session #") || text.starts_with("[编辑会话 #")).then_some(text)
}

/// Checks everything but the numbers: see the module comment.
fn check_content(f: &Fixture, out: &Value) {
    let name = &f.name;
    let input = f.messages.as_array().unwrap();
    let output = out.as_array().unwrap();
    let gone: BTreeSet<String> = f.sessions.iter().flat_map(|s| s.tool_call_ids.iter().cloned()).collect();
    let owner: BTreeMap<&str, u64> = f.sessions.iter().flat_map(|s| s.tool_call_ids.iter().map(move |id| (id.as_str(), s.id))).collect();

    // What is left of the input, piece by piece, in order.
    let mut expected: Vec<Piece> = Vec::new();
    let mut touched = BTreeSet::new();
    for (i, m) in input.iter().enumerate() {
        let (kept, took) = expected_strip(m, f.format, &gone);
        if took {
            touched.insert(i);
        }
        if let Some(k) = kept {
            expected.extend(pieces_of(&k, Some(i), f.format));
        }
    }
    // The output's pieces: the summaries are recognised by their text, every other piece must be
    // the next expected one, byte for byte; it takes that piece's source.
    let mut actual: Vec<Piece> = Vec::new();
    let mut next = expected.iter();
    let mut sources_of_message: Vec<BTreeSet<Option<usize>>> = Vec::new();
    for (o, m) in output.iter().enumerate() {
        let mut sources = BTreeSet::new();
        for mut p in pieces_of(m, None, f.format) {
            if summary_text(&p, f.format).is_none() {
                let e = next.next().unwrap_or_else(|| panic!("{name}: output message {o} holds a piece the input does not: {}", p.value));
                assert_eq!(p.role, e.role, "{name}: output message {o}: a piece changed role");
                assert_eq!(
                    serde_json::to_string(&p.value).unwrap(),
                    serde_json::to_string(&e.value).unwrap(),
                    "{name}: output message {o}: a kept piece is not byte-identical (or out of order)"
                );
                p.source = e.source;
            }
            sources.insert(p.source);
            actual.push(p);
        }
        sources_of_message.push(sources);
    }
    let missing: Vec<String> = next.map(|p| p.value.to_string()).collect();
    assert!(missing.is_empty(), "{name}: kept pieces lost from the output: {missing:?}");

    // Whole messages: one that lost nothing and shares its output message with no other is kept
    // byte for byte; in OpenAI every output message comes from exactly one input message.
    let mut identical = 0;
    for (o, sources) in sources_of_message.iter().enumerate() {
        if f.format == Format::OpenAi {
            assert_eq!(sources.len(), 1, "{name}: OpenAI output message {o} mixes messages");
        }
        if let [Some(i)] = sources.iter().copied().collect::<Vec<_>>()[..] {
            if !touched.contains(&i) {
                assert_eq!(
                    serde_json::to_string(&output[o]).unwrap(),
                    serde_json::to_string(&input[i]).unwrap(),
                    "{name}: input message {i} lost nothing yet is not byte-identical as output message {o}"
                );
                identical += 1;
            }
        }
    }
    let untouched_inputs = (0..input.len()).filter(|i| !touched.contains(i)).count();
    assert!(identical > 0 && identical <= untouched_inputs, "{name}: {identical} of {untouched_inputs} untouched messages kept whole");
    if f.format == Format::OpenAi {
        assert_eq!(identical, untouched_inputs, "{name}: every OpenAI message that lost nothing stays byte-identical");
    }

    // One summary per ended session found in the input, in the session's words, where its first
    // call was: after everything up to that call's message (and what is left of it), before
    // anything later except results that answer calls made before it.
    let present: BTreeSet<u64> =
        input.iter().flat_map(|m| ids_in_message(m, f.format)).filter_map(|id| owner.get(id.as_str()).copied()).collect();
    let mut found = BTreeMap::new();
    for (k, p) in actual.iter().enumerate() {
        let Some(text) = summary_text(p, f.format) else { continue };
        let s =
            f.sessions.iter().find(|s| text == s.summary(f.locale)).unwrap_or_else(|| panic!("{name}: a summary of no session: {text}"));
        assert!(text.contains(&f.texts[&s.id]), "{name}: summary #{} lacks its summary/reason text", s.id);
        assert_eq!(p.role, "assistant", "{name}: summaries are assistant turns");
        let shape = match f.format {
            Format::OpenAi => json!({"role": "assistant", "content": text}),
            Format::Anthropic => json!({"type": "text", "text": text}),
            other => no_oracle(other),
        };
        assert_eq!(p.value, shape, "{name}: a summary is plain assistant text");
        assert!(found.insert(s.id, k).is_none(), "{name}: two summaries for session #{}", s.id);
        let first = input.iter().position(|m| ids_in_message(m, f.format).iter().any(|id| owner.get(id.as_str()) == Some(&s.id))).unwrap();
        assert!(
            actual[k + 1..].iter().all(|q| q.source.map_or(true, |i| i > first)),
            "{name}: summary #{} comes before something from the message of the session's first call or earlier",
            s.id
        );
        assert!(
            actual[..k].iter().filter_map(|q| q.source).all(|i| i <= first || holds_results(&input[i], f.format)),
            "{name}: summary #{} comes after more than the results of calls made before it",
            s.id
        );
    }
    assert_eq!(found.keys().copied().collect::<BTreeSet<_>>(), present, "{name}: one summary per ended session in the transcript");

    // Calls of sessions still open stay, with their results.
    let left: Vec<String> = output.iter().flat_map(|m| ids_in_message(m, f.format)).collect();
    for id in &f.open_calls {
        assert_eq!(left.iter().filter(|x| *x == id).count(), 2, "{name}: the open session's call {id} and its result stay");
    }
    for id in &gone {
        assert!(!left.contains(id), "{name}: ended session call {id} is still there");
    }
}

fn ids_in_message(m: &Value, format: Format) -> Vec<String> {
    match format {
        Format::OpenAi => piece_ids(m, format),
        Format::Anthropic => blocks_of(m).iter().flat_map(|b| piece_ids(b, format)).collect(),
        other => no_oracle(other),
    }
}

/// A message that holds results (an OpenAI tool message; an Anthropic user message with
/// tool_result blocks): a summary may follow it to stay out of a call/result pair.
fn holds_results(m: &Value, format: Format) -> bool {
    match format {
        Format::OpenAi => m["role"] == "tool",
        Format::Anthropic => blocks_of(m).iter().any(|b| b["type"] == "tool_result"),
        other => no_oracle(other),
    }
}

// ---- golden files ---------------------------------------------------------------------------

fn update_snapshots() -> bool {
    std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| !v.is_empty() && v != "0")
}

fn golden_text(out: &Compressed) -> String {
    let v = json!({
        "messages_removed": out.delta.messages_removed,
        "tokens_saved": out.delta.tokens_saved,
        "sessions": out.sessions,
        "messages": out.messages,
    });
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

/// Compares with (or, under UPDATE_SNAPSHOTS=1, writes) `tests/fixtures/transcripts/<name>.compressed.json`.
fn check_golden(name: &str, out: &Compressed) -> Result<(), String> {
    let path = fixtures_dir().join("transcripts").join(format!("{name}.compressed.json"));
    let actual = golden_text(out);
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == actual => Ok(()),
        _ if update_snapshots() => {
            std::fs::write(&path, &actual).unwrap();
            Ok(())
        }
        Ok(expected) => {
            let at = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(expected.lines().count().min(actual.lines().count()));
            Err(format!(
                "tests/fixtures/transcripts/{name}.compressed.json differs from line {}:\n- {}\n+ {}\nif the change is intended, run UPDATE_SNAPSHOTS=1 cargo test --test engine history_fixtures::",
                at + 1,
                expected.lines().nth(at).unwrap_or("<end>"),
                actual.lines().nth(at).unwrap_or("<end>")
            ))
        }
        Err(_) => Err(format!(
            "tests/fixtures/transcripts/{name}.compressed.json is missing; run UPDATE_SNAPSHOTS=1 cargo test --test engine history_fixtures::"
        )),
    }
}

// ---- the tests ------------------------------------------------------------------------------

fn run_fixture(f: &Fixture) -> Result<(), String> {
    let name = &f.name;
    valid(&f.messages, f.format).map_err(|e| format!("{name}: the fixture itself is invalid: {e}"))?;
    // Every booked call is in the transcript, with its result; the booking is the workspace's
    // (each session's calls in order, no call in two sessions).
    let in_input: Vec<String> = f.messages.as_array().unwrap().iter().flat_map(|m| ids_in_message(m, f.format)).collect();
    let mut booked = BTreeSet::new();
    for id in f.sessions.iter().flat_map(|s| s.tool_call_ids.iter()).chain(&f.open_calls) {
        assert!(booked.insert(id.clone()), "{name}: {id} is booked twice");
        assert_eq!(in_input.iter().filter(|x| *x == id).count(), 2, "{name}: {id} is not in the transcript as a call and a result");
    }

    let out = compress(&f.messages, f.format, &f.sessions, f.locale).map_err(|e| format!("{name}: {e}"))?;
    valid(&out.messages, f.format).map_err(|e| format!("{name}: the compressed transcript is invalid: {e}"))?;
    check_content(f, &out.messages);

    let e = &f.expected;
    assert_eq!(out.delta.messages_removed as u64, e["messages_removed"].as_u64().unwrap(), "{name}: messages_removed");
    assert_eq!(out.delta.tokens_saved as u64, e["tokens_saved"].as_u64().unwrap(), "{name}: tokens_saved");
    assert_eq!(json!(out.sessions), e["sessions"], "{name}: sessions replaced");
    assert_eq!(out.sessions.len() as u64, e["summaries"].as_u64().unwrap(), "{name}: summaries");
    assert_eq!(out.messages.as_array().unwrap().len() as u64, e["messages"].as_u64().unwrap(), "{name}: messages after compression");
    assert!(out.delta.tokens_saved > 0, "{name}: compression saves tokens");

    // Compressing the compressed transcript changes nothing.
    let again = compress(&out.messages, f.format, &f.sessions, f.locale).unwrap();
    assert_eq!(again.messages, out.messages, "{name}: compressing twice is a no-op");
    assert_eq!(serde_json::to_string(&again.messages).unwrap(), serde_json::to_string(&out.messages).unwrap());
    assert_eq!((again.delta, again.sessions.len()), (HistoryDelta::default(), 0), "{name}: nothing left to remove");

    // An agent loop compresses right after each commit or revert, then appends what follows:
    // every intermediate transcript is valid, and the end is the same as compressing once.
    let input = f.messages.as_array().unwrap();
    let mut host: Vec<Value> = Vec::new();
    let mut fed = 0;
    for k in 0..f.sessions.len() {
        let last_id = f.sessions[k].tool_call_ids.last().unwrap();
        let mut end = input.iter().rposition(|m| ids_in_message(m, f.format).contains(last_id)).unwrap() + 1;
        // the loop compresses once every result of that turn is in (parallel calls)
        while f.format == Format::OpenAi && input.get(end).is_some_and(|m| m["role"] == "tool") {
            end += 1;
        }
        host.extend(input[fed..end].iter().cloned());
        fed = end;
        let step = compress(&Value::Array(host), f.format, &f.sessions[..=k], f.locale).unwrap();
        // Right after the ending result, before the model answers: what the loop sends next.
        valid(&step.messages, f.format).map_err(|e| format!("{name}: after compressing session #{}: {e}", f.sessions[k].id))?;
        if f.format == Format::Anthropic {
            // The loop sends this next: a last assistant turn would be taken as a prefill.
            let last_role = step.messages.as_array().unwrap().last().map(|m| m["role"].clone());
            assert_eq!(
                last_role,
                Some(json!("user")),
                "{name}: after compressing session #{} the transcript ends with the user's turn",
                f.sessions[k].id
            );
        }
        host = step.messages.as_array().unwrap().clone();
    }
    host.extend(input[fed..].iter().cloned());
    let last = compress(&Value::Array(host), f.format, &f.sessions, f.locale).unwrap();
    valid(&last.messages, f.format).map_err(|e| format!("{name}: compressed step by step: {e}"))?;
    if f.format == Format::OpenAi {
        assert_eq!(
            serde_json::to_string(&last.messages).unwrap(),
            serde_json::to_string(&out.messages).unwrap(),
            "{name}: compressing after each session ends where compressing once does"
        );
    } else {
        // A summary told at the tail (as the user's turn, after what was left of the last
        // message) stays there when the loop goes on, so summaries may sit a little later and
        // turns be grouped differently; the kept pieces are the same, in the same order, and
        // there is the same summary per session.
        let split = |v: &Value| -> (Vec<String>, BTreeSet<String>) {
            let (mut kept, mut summaries) = (Vec::new(), BTreeSet::new());
            for p in v.as_array().unwrap().iter().flat_map(|m| pieces_of(m, None, f.format)) {
                match summary_text(&p, f.format) {
                    Some(t) => {
                        summaries.insert(t.to_string());
                    }
                    None => kept.push(p.value.to_string()),
                }
            }
            (kept, summaries)
        };
        assert_eq!(
            split(&last.messages),
            split(&out.messages),
            "{name}: compressing after each session keeps the same pieces and summaries"
        );
    }

    check_golden(name, &out)
}

#[test]
fn recorded_transcripts_compress_valid_and_as_expected() {
    let names = fixture_names();
    for required in ["openai-chat", "anthropic-messages"] {
        assert!(names.iter().any(|n| n == required), "tests/fixtures/transcripts/{required}.json is missing");
    }
    let failures: Vec<String> = names.iter().filter_map(|n| run_fixture(&load(n)).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // No golden file without its fixture.
    for entry in std::fs::read_dir(fixtures_dir().join("transcripts")).unwrap().flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if let Some(base) = file.strip_suffix(".compressed.json") {
            assert!(names.iter().any(|n| n == base), "tests/fixtures/transcripts/{file} belongs to no fixture");
        }
    }
}

#[test]
fn the_fixtures_cover_what_real_loops_produce() {
    let o = load("openai-chat");
    let msgs = o.messages.as_array().unwrap();
    let parallel = |m: &&Value| m["tool_calls"].as_array().is_some_and(|c| c.len() > 1);
    assert!(msgs.iter().filter(parallel).count() >= 3, "parallel tool calls");
    assert!(msgs.iter().any(|m| m["tool_calls"].is_array() && m["content"].is_string()), "content and tool_calls together");
    assert!(msgs.iter().any(|m| m["role"] == "tool" && m["name"].is_string()), "name on tool messages");
    assert!(msgs.iter().any(|m| m.get("refusal") == Some(&Value::Null)), "refusal: null");
    assert!(matches!(
        o.sessions[..],
        [EndedSession { outcome: Outcome::Committed { .. }, .. }, EndedSession { outcome: Outcome::Reverted { .. }, .. }]
    ));
    assert!(!o.open_calls.is_empty(), "a session still open at the end");

    let a = load("anthropic-messages");
    let msgs = a.messages.as_array().unwrap();
    let count = |m: &Value, t: &str| blocks_of(m).iter().filter(|b| b["type"] == t).count();
    assert!(msgs.iter().any(|m| count(m, "text") == 1 && count(m, "tool_use") >= 2), "text plus several tool_use blocks");
    assert!(msgs.iter().any(|m| count(m, "tool_result") >= 2 && count(m, "text") >= 1), "several results plus a text block");
    let results: Vec<Value> = msgs.iter().flat_map(blocks_of).filter(|b| b["type"] == "tool_result").collect();
    assert!(
        results.iter().any(|b| b["content"].is_string()) && results.iter().any(|b| b["content"].is_array()),
        "string and block results"
    );
    assert!(results.iter().any(|b| b["is_error"] == true), "is_error results");
    assert!(a.messages.to_string().contains("cache_control"), "cache_control");
    assert!(!a.open_calls.is_empty(), "a session still open at the end");
    for f in [&o, &a] {
        assert!(f.messages.to_string().chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{}: CJK text", f.name);
    }
}

/// The validators themselves reject what the APIs reject (so a passing run means something).
#[test]
fn the_validators_catch_broken_transcripts() {
    let call = |id: &str| json!({"role": "assistant", "content": null, "tool_calls": [{"id": id, "type": "function", "function": {"name": "f", "arguments": "{}"}}]});
    let result = |id: &str| json!({"role": "tool", "tool_call_id": id, "content": "ok"});
    let user = json!({"role": "user", "content": "go"});
    assert!(openai_valid(&json!([user, call("a"), result("a")])).is_ok());
    assert!(openai_valid(&json!([user, call("a")])).is_err(), "unanswered");
    assert!(openai_valid(&json!([user, result("a")])).is_err(), "orphan result");
    assert!(openai_valid(&json!([user, call("a"), {"role": "assistant", "content": "x"}, result("a")])).is_err(), "not right after");
    assert!(openai_valid(&json!([user, {"role": "assistant", "content": null}])).is_err(), "empty");

    let use_ = |id: &str| json!({"type": "tool_use", "id": id, "name": "f", "input": {}});
    let res = |id: &str| json!({"type": "tool_result", "tool_use_id": id, "content": "ok"});
    let ok = json!([{"role": "user", "content": "go"}, {"role": "assistant", "content": [use_("a")]}, {"role": "user", "content": [res("a"), {"type": "text", "text": "more"}]}]);
    assert!(anthropic_valid(&ok).is_ok());
    let bad = [
        json!([{"role": "user", "content": "go"}, {"role": "assistant", "content": [use_("a")]}]),
        json!([{"role": "user", "content": "go"}, {"role": "assistant", "content": [use_("a")]}, {"role": "user", "content": [{"type": "text", "text": "x"}, res("a")]}]),
        json!([{"role": "user", "content": "go"}, {"role": "assistant", "content": [{"type": "text", "text": "x"}]}, {"role": "assistant", "content": [{"type": "text", "text": "y"}]}]),
        json!([{"role": "user", "content": [res("a")]}]),
        json!([{"role": "user", "content": []}]),
        json!([{"role": "user", "content": "go"}, {"role": "assistant", "content": [{"type": "text", "text": ""}]}]),
    ];
    for b in bad {
        assert!(anthropic_valid(&b).is_err(), "{b}");
    }
}

/// The scripted session of `tests/fixtures/sessions/scripted-24.json` on the native core: both
/// transcripts, compressed after every call that ends a session, stay valid; the recorded
/// statuses and session bookings hold; only the calls outside sessions are left.
#[test]
fn the_scripted_session_replays_and_compresses_in_both_formats() {
    let fx = read_json(&fixtures_dir().join("sessions/scripted-24.json"));
    assert_eq!(fx["format"], "agentpad-transcript/1");
    let docs: Vec<(&str, &str)> = fx["documents"].as_object().unwrap().iter().map(|(k, v)| (k.as_str(), v.as_str().unwrap())).collect();
    let config = Config::from_json(&fx["options"]).expect("options are a Config");
    let mut host = common::Host::with_config(&docs, config);
    let prompt = fx["prompt"].as_str().unwrap();
    let mut openai = vec![json!({"role": "system", "content": fx["system"]}), json!({"role": "user", "content": prompt})];
    let mut anthropic = vec![json!({"role": "user", "content": prompt})];
    let (mut calls, mut ended) = (0, 0);
    for step in fx["steps"].as_array().unwrap() {
        if let Some(say) = step["say"].as_str() {
            openai.push(json!({"role": "assistant", "content": say}));
            anthropic.push(json!({"role": "assistant", "content": [{"type": "text", "text": say}]}));
            anthropic.push(json!({"role": "user", "content": [{"type": "text", "text": "ok"}]}));
            continue;
        }
        let (tool, args, id) = (step["tool"].as_str().unwrap(), &step["args"], step["tool_call_id"].as_str().unwrap());
        let ctx = CallContext { tool_call_id: Some(id.to_string()), now_ms: 0.0 };
        let s = host.ws.call(tool, args, &ctx);
        let r = host.drive(s);
        calls += 1;
        let expect = &step["expect"];
        assert_eq!(json!(r.status), expect["status"], "{id} {tool}");
        assert_eq!(json!(r.workflow_state), expect["workflow_state"], "{id} {tool}");
        assert_eq!(r.history_delta.is_some(), expect["ends_session"] == true, "{id} {tool}");
        openai.push(json!({"role": "assistant", "content": null, "tool_calls": [{"id": id, "type": "function", "function": {"name": tool, "arguments": args.to_string()}}]}));
        openai.push(json!({"role": "tool", "tool_call_id": id, "content": r.markdown}));
        anthropic.push(json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": tool, "input": args}]}));
        anthropic.push(json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": r.markdown}]}));
        if let Some(delta) = r.history_delta {
            ended += 1;
            let o = host.ws.compress_history(&Value::Array(openai), Format::OpenAi).unwrap();
            let a = host.ws.compress_history(&Value::Array(anthropic), Format::Anthropic).unwrap();
            assert_eq!(o.delta.messages_removed, delta.messages_removed, "{id}: the prediction holds for one call per message");
            openai_valid(&o.messages).unwrap_or_else(|e| panic!("{id}: openai: {e}"));
            anthropic_valid(&a.messages).unwrap_or_else(|e| panic!("{id}: anthropic: {e}"));
            openai = o.messages.as_array().unwrap().clone();
            anthropic = a.messages.as_array().unwrap().clone();
        }
    }
    assert_eq!((calls, ended), (24, 4));
    // The last read came after the last compression, right after the summary: two assistant
    // turns in a row (the API joins them); compressing again, with nothing to remove, joins them.
    let a = host.ws.compress_history(&Value::Array(anthropic), Format::Anthropic).unwrap();
    assert_eq!(a.delta, HistoryDelta::default());
    anthropic_valid(&a.messages).unwrap();
    let anthropic = a.messages.as_array().unwrap().clone();
    let outside: Vec<&str> = fx["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["expect"]["session"].is_null() && s["tool"].is_string())
        .map(|s| s["tool_call_id"].as_str().unwrap())
        .collect();
    let left: Vec<String> = openai.iter().flat_map(|m| ids_in_message(m, Format::OpenAi)).collect();
    let left_calls: Vec<&str> = left.iter().step_by(2).map(String::as_str).collect();
    assert_eq!(left_calls, outside, "only the calls outside sessions are left");
    let summaries =
        anthropic.iter().flat_map(blocks_of).filter(|b| b["text"].as_str().is_some_and(|t| t.starts_with("[Edit session #"))).count();
    assert_eq!(summaries, 4);
}
