//! History compression (docs/workflow.md#history-compression): once an edit session is
//! committed or reverted, the tool calls it took and their results can leave the chat history;
//! one summary message takes their place. Works on the host's own message arrays, as plain JSON,
//! in the format of the API or SDK that holds them: OpenAI chat completions, the OpenAI Responses
//! API's input items, Anthropic messages, or the AI SDK's `ModelMessage`s.
//!
//! Rules: only calls whose `tool_call_id` the workspace recorded for an ended session are
//! removed; every other message is kept as it was; no tool call is left without its result
//! and no result without its call (both APIs refuse those); the summary goes where the session's
//! first removed piece was (after what is left of that message), never inside another call's
//! call/result pair.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{json, Value};

use crate::locale::Locale;
use crate::small_map::SmallMap;

/// The message formats `compress` reads and writes. More may come (other SDKs' shapes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// `[{role, content, tool_calls: [{id, function}]}, {role: "tool", tool_call_id, content}]`
    OpenAi,
    /// `[{type: "function_call", call_id} | {type: "function_call_output", call_id} | {role, content}]`
    OpenAiResponses,
    /// `[{role, content: [{type: "tool_use", id} | {type: "tool_result", tool_use_id} | …]}]`
    Anthropic,
    /// The AI SDK's `ModelMessage`s: `[{role: "assistant", content: [{type: "tool-call", toolCallId}
    /// | …]}, {role: "tool", content: [{type: "tool-result", toolCallId}]}]`
    AiSdk,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "openai" => Some(Format::OpenAi),
            "openai-responses" => Some(Format::OpenAiResponses),
            "anthropic" => Some(Format::Anthropic),
            "ai-sdk" => Some(Format::AiSdk),
            _ => None,
        }
    }

    /// The names [`Format::parse`] reads, for messages.
    pub const NAMES: &'static str = "\"openai\", \"openai-responses\", \"anthropic\" or \"ai-sdk\"";

    /// Whether a transcript's last message being an assistant turn would be read as a prefill
    /// (Anthropic, and the AI SDK, which may be talking to Anthropic): then a summary of a session
    /// at the tail is told as the user's turn.
    fn assistant_last_is_prefill(self) -> bool {
        matches!(self, Format::Anthropic | Format::AiSdk)
    }

    /// In a content-block format, what a block is: a call or a result, and its id.
    fn block_id(self, block: &Value) -> Option<(ToolPart, &str)> {
        let (kind, id_field) = match (self, block.get("type").and_then(Value::as_str)?) {
            (Format::Anthropic, "tool_use") => (ToolPart::Call, "id"),
            (Format::Anthropic, "tool_result") => (ToolPart::Result, "tool_use_id"),
            (Format::AiSdk, "tool-call") => (ToolPart::Call, "toolCallId"),
            (Format::AiSdk, "tool-result") => (ToolPart::Result, "toolCallId"),
            (Format::OpenAiResponses, "function_call") => (ToolPart::Call, "call_id"),
            (Format::OpenAiResponses, "function_call_output") => (ToolPart::Result, "call_id"),
            _ => return None,
        };
        Some((kind, block.get(id_field)?.as_str()?))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ToolPart {
    Call,
    Result,
}

/// How a session ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Committed { summary: String, changes: usize, delta: isize },
    Reverted { reason: String },
}

/// A finished edit session and the calls it took.
#[derive(Clone, Debug, PartialEq)]
pub struct EndedSession {
    pub id: u64,
    pub outcome: Outcome,
    /// The `tool_call_id`s of its calls, in order (calls the host gave no id are not listed).
    pub tool_call_ids: Vec<String>,
    /// Estimated tokens of those calls: arguments and results.
    pub tokens: usize,
}

impl EndedSession {
    /// The message that replaces the session (`[Edit session #3 committed]` …).
    pub fn summary(&self, locale: Locale) -> String {
        let zh = locale == Locale::Zh;
        match &self.outcome {
            Outcome::Committed { summary, changes, delta } => {
                let delta = crate::locale::signed(*delta);
                if zh {
                    format!("[编辑会话 #{} 已提交]\n摘要: {summary}\n变更: {changes} 处替换, {delta} 字符", self.id)
                } else {
                    let s = if *changes == 1 { "" } else { "s" };
                    format!("[Edit session #{} committed]\nSummary: {summary}\nChanges: {changes} replacement{s}, {delta} chars", self.id)
                }
            }
            Outcome::Reverted { reason } => {
                if zh {
                    format!("[编辑会话 #{} 已撤销]\n原因: {reason}", self.id)
                } else {
                    format!("[Edit session #{} reverted]\nReason: {reason}", self.id)
                }
            }
        }
    }
}

pub use crate::response::HistoryDelta;

#[derive(Clone, Debug, PartialEq)]
pub struct Compressed {
    pub messages: Value,
    pub delta: HistoryDelta,
    /// Sessions that were found in the messages and replaced.
    pub sessions: Vec<u64>,
}

/// Why `compress` refused. Nothing is changed in that case.
#[derive(Clone, Debug, PartialEq)]
pub enum HistoryError {
    NotAnArray {
        got: String,
    },
    /// A message (by index) that is not shaped as the format says.
    BadMessage {
        index: usize,
        why: String,
    },
    /// [`check`]: message `index` holds the result of the call `id`, which no earlier message makes.
    ResultWithoutCall {
        index: usize,
        id: String,
    },
    /// [`check`]: the call `id` has no result after it.
    CallWithoutResult {
        id: String,
    },
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::NotAnArray { got } => write!(f, "messages must be an array of message objects, got {got}"),
            HistoryError::BadMessage { index, why } => write!(f, "message {index}: {why}"),
            HistoryError::ResultWithoutCall { index, id } => write!(f, "message {index}: a result for `{id}` without its call before it"),
            HistoryError::CallWithoutResult { id } => write!(f, "the call `{id}` has no result"),
        }
    }
}

impl std::error::Error for HistoryError {}

/// Estimated tokens of a text: one per CJK character (they tokenize about one each), and about
/// one per four other characters. Cost: O(n).
pub fn estimate_tokens(s: &str) -> usize {
    let (mut cjk, mut other) = (0usize, 0usize);
    for c in s.chars() {
        if crate::text_rules::is_wide(c) {
            cjk += 1;
        } else {
            other += 1;
        }
    }
    cjk + other.div_ceil(4)
}

/// One message's tool calls (OpenAI `tool_calls[].id`, Anthropic `tool_use` ids, …) and tool
/// results (their ids).
fn ids_in(msg: &Value, format: Format) -> (Vec<String>, Vec<String>) {
    let mut calls = Vec::new();
    let mut results = Vec::new();
    match format {
        Format::OpenAi => {
            if let Some(tc) = msg.get("tool_calls").and_then(Value::as_array) {
                calls.extend(tc.iter().filter_map(|c| c.get("id").and_then(Value::as_str).map(str::to_string)));
            }
            if msg.get("role").and_then(Value::as_str) == Some("tool") {
                results.extend(msg.get("tool_call_id").and_then(Value::as_str).map(str::to_string));
            }
        }
        // A Responses input item is itself at most one call or one result; the other formats
        // hold them as blocks of a message's content.
        Format::OpenAiResponses | Format::Anthropic | Format::AiSdk => {
            let blocks: &[Value] = match format {
                Format::OpenAiResponses => std::slice::from_ref(msg),
                _ => msg.get("content").and_then(Value::as_array).map_or(&[], Vec::as_slice),
            };
            for (kind, id) in blocks.iter().filter_map(|b| format.block_id(b)) {
                match kind {
                    ToolPart::Call => calls.push(id.to_string()),
                    ToolPart::Result => results.push(id.to_string()),
                }
            }
        }
    }
    (calls, results)
}

/// Checks that every tool call has its result after it and every result has its call before
/// it — what both APIs require. Returns the first problem.
pub fn check(messages: &Value, format: Format) -> Result<(), HistoryError> {
    let Some(list) = messages.as_array() else { return Err(HistoryError::NotAnArray { got: type_name(messages).into() }) };
    let mut open: BTreeSet<String> = BTreeSet::new();
    let mut answered: BTreeSet<String> = BTreeSet::new();
    for (i, m) in list.iter().enumerate() {
        let (calls, results) = ids_in(m, format);
        for r in results {
            if !open.remove(&r) {
                return Err(HistoryError::ResultWithoutCall { index: i, id: r });
            }
            answered.insert(r);
        }
        for c in calls {
            open.insert(c);
        }
    }
    match open.into_iter().next() {
        Some(id) => Err(HistoryError::CallWithoutResult { id }),
        None => Ok(()),
    }
}

/// Replaces the calls of `sessions` found in `messages` by one summary message each. Cost:
/// O(size of the messages).
pub fn compress(messages: &Value, format: Format, sessions: &[EndedSession], locale: Locale) -> Result<Compressed, HistoryError> {
    let Some(list) = messages.as_array() else {
        return Err(HistoryError::NotAnArray { got: type_name(messages).into() });
    };
    for (index, m) in list.iter().enumerate() {
        if !m.is_object() {
            return Err(HistoryError::BadMessage { index, why: format!("expected an object, got {}", type_name(m)) });
        }
    }
    let owner: SmallMap<&str, u64> = sessions.iter().flat_map(|s| s.tool_call_ids.iter().map(move |id| (id.as_str(), s.id))).collect();
    let mut out: Vec<Value> = Vec::with_capacity(list.len());
    // Per output message: its input index (None for a summary) and whether compression changed
    // it — only changed places may be merged (Anthropic), so untouched turns keep their bytes.
    let mut origin: Vec<(Option<usize>, bool)> = Vec::with_capacity(list.len());
    // Where each session's summary goes: the output index of its first removed piece.
    let mut summary_at: SmallMap<u64, usize> = SmallMap::new();
    let mut removed_messages = 0usize;
    let mut removed_tokens = 0usize;
    // Anthropic: the session whose call or result is the transcript's last message. Its summary
    // goes at the very end as the user's turn — an assistant turn last would be read by the
    // Messages API as a prefill to continue, not as history.
    let mut tail_session = None;
    let reasoning_owner = if format == Format::OpenAiResponses { reasoning_of_removed_calls(list, &owner) } else { SmallMap::new() };
    for (index, m) in list.iter().enumerate() {
        let (kept, removed) = match reasoning_owner.get(&index) {
            Some(&session) => (None, vec![(session, estimate_tokens(&m.to_string()))]),
            None => strip(m, format, &owner),
        };
        match kept {
            Some(k) => {
                out.push(k);
                origin.push((Some(index), !removed.is_empty()));
            }
            None => removed_messages += 1,
        }
        if format.assistant_last_is_prefill() && index + 1 == list.len() {
            tail_session = removed.first().map(|(session, _)| *session);
        }
        // Right after what is left of the message (its text, other tools' calls).
        for (session, tokens) in removed {
            summary_at.get_or_insert_with(session, || out.len());
            removed_tokens += tokens;
        }
    }
    // Insert the summaries, last first so earlier indices stay right; never between a call and
    // its results: move past any results that answer calls made before the insertion point.
    let mut inserted_tokens = 0usize;
    let mut places: Vec<(usize, u64)> = summary_at.iter().map(|(s, at)| (*at, *s)).collect();
    crate::sort::sort_by(&mut places, |a, b| b.cmp(a));
    for (at, session) in places {
        let Some(s) = sessions.iter().find(|s| s.id == session) else { continue };
        let text = s.summary(locale);
        inserted_tokens += estimate_tokens(&text);
        if tail_session == Some(session) {
            out.push(summary_message(&text, format));
            if let Some(Value::Object(last)) = out.last_mut() {
                last.insert("role".into(), Value::from("user"));
            }
            origin.push((None, true));
            continue;
        }
        let at = past_pending_results(&out, at, format);
        out.insert(at, summary_message(&text, format));
        origin.insert(at, (None, true));
    }
    if format == Format::Anthropic {
        out = merge_same_roles(out, &origin);
    }
    // In key order: ascending session ids.
    let sessions_done: Vec<u64> = summary_at.keys().copied().collect();
    Ok(Compressed {
        messages: Value::Array(out),
        delta: HistoryDelta { messages_removed: removed_messages, tokens_saved: removed_tokens.saturating_sub(inserted_tokens) },
        sessions: sessions_done,
    })
}

/// Responses API: a `reasoning` item belongs to the `function_call` items right after it, and the
/// API refuses one left without what follows it. The reasoning items (by input index, with the
/// session) whose following calls are all removed go with them; one that still precedes a kept
/// call stays.
fn reasoning_of_removed_calls(list: &[Value], owner: &SmallMap<&str, u64>) -> SmallMap<usize, u64> {
    let mut out = SmallMap::new();
    for (i, item) in list.iter().enumerate() {
        if item.get("type").and_then(Value::as_str) != Some("reasoning") {
            continue;
        }
        let calls: Vec<Option<u64>> = list
            .iter()
            .skip(i + 1)
            .map_while(|next| match Format::OpenAiResponses.block_id(next) {
                Some((ToolPart::Call, id)) => Some(owner.get(id).copied()),
                _ => None,
            })
            .collect();
        if let Some(Some(first)) = calls.first() {
            if calls.iter().all(Option::is_some) {
                out.insert(i, *first);
            }
        }
    }
    out
}

/// `m` without the calls and results owned by a session: `None` when nothing is left of it, and
/// (session, estimated tokens) of each removed piece.
fn strip(m: &Value, format: Format, owner: &SmallMap<&str, u64>) -> (Option<Value>, Vec<(u64, usize)>) {
    let mut removed = Vec::new();
    let mut msg = m.clone();
    match format {
        Format::OpenAi => {
            if msg.get("role").and_then(Value::as_str) == Some("tool") {
                if let Some(s) = msg.get("tool_call_id").and_then(Value::as_str).and_then(|id| owner.get(id)) {
                    removed.push((*s, estimate_tokens(&m.to_string())));
                    return (None, removed);
                }
                return (Some(msg), removed);
            }
            // compress checked every message is an object; anything else is kept as it is.
            let Some(obj) = msg.as_object_mut() else { return (Some(msg), removed) };
            if let Some(Value::Array(calls)) = obj.get_mut("tool_calls") {
                calls.retain(|c| match c.get("id").and_then(Value::as_str).and_then(|id| owner.get(id)) {
                    Some(s) => {
                        removed.push((*s, estimate_tokens(&c.to_string())));
                        false
                    }
                    None => true,
                });
                // Only a message that lost calls changes: one that came with `tool_calls: []`
                // and nothing removed is kept as it was.
                if calls.is_empty() && !removed.is_empty() {
                    obj.remove("tool_calls");
                    let empty = match obj.get("content") {
                        None | Some(Value::Null) => true,
                        Some(Value::String(s)) => s.trim().is_empty(),
                        Some(Value::Array(a)) => a.is_empty(),
                        _ => false,
                    };
                    if empty {
                        return (None, removed);
                    }
                }
            }
            (Some(msg), removed)
        }
        Format::OpenAiResponses => {
            if let Some(s) = format.block_id(m).and_then(|(_, id)| owner.get(id)) {
                removed.push((*s, estimate_tokens(&m.to_string())));
                return (None, removed);
            }
            (Some(msg), removed)
        }
        Format::Anthropic | Format::AiSdk => {
            let Some(obj) = msg.as_object_mut() else { return (Some(msg), removed) };
            if let Some(Value::Array(blocks)) = obj.get_mut("content") {
                blocks.retain(|b| match format.block_id(b).and_then(|(_, id)| owner.get(id)) {
                    Some(s) => {
                        removed.push((*s, estimate_tokens(&b.to_string())));
                        false
                    }
                    None => true,
                });
                if blocks.is_empty() && !removed.is_empty() {
                    return (None, removed);
                }
            }
            (Some(msg), removed)
        }
    }
}

/// The first index at or after `at` that is not inside a call/result group: results answering
/// calls made before `at` stay right after their calls.
fn past_pending_results(out: &[Value], at: usize, format: Format) -> usize {
    let mut open: BTreeSet<String> = BTreeSet::new();
    for m in out.iter().take(at) {
        let (calls, results) = ids_in(m, format);
        for r in results {
            open.remove(&r);
        }
        open.extend(calls);
    }
    let mut i = at;
    while let (Some(m), false) = (out.get(i), open.is_empty()) {
        let (calls, results) = ids_in(m, format);
        if results.is_empty() {
            break;
        }
        for r in results {
            open.remove(&r);
        }
        open.extend(calls);
        i += 1;
    }
    i
}

fn summary_message(text: &str, format: Format) -> Value {
    match format {
        Format::OpenAi | Format::OpenAiResponses | Format::AiSdk => json!({ "role": "assistant", "content": text }),
        Format::Anthropic => json!({ "role": "assistant", "content": [{ "type": "text", "text": text }] }),
    }
}

/// Anthropic wants user and assistant turns to alternate: consecutive messages of one role that
/// compression made neighbours (a summary, a changed message, or messages that were not
/// adjacent before) become one, their content blocks in order (a string content becomes a text
/// block). Neighbours the host already had are left as they were.
fn merge_same_roles(messages: Vec<Value>, origin: &[(Option<usize>, bool)]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(messages.len());
    let mut prev: Option<(Option<usize>, bool)> = None;
    for (m, &here) in messages.into_iter().zip(origin) {
        let role = m.get("role").and_then(Value::as_str).map(str::to_string);
        let same = role.is_some() && out.last().and_then(|p| p.get("role")).and_then(Value::as_str) == role.as_deref();
        let made_neighbours = match (prev, here) {
            (Some((Some(a), false)), (Some(b), false)) => b != a + 1,
            _ => true,
        };
        prev = Some(here);
        if !same || !made_neighbours {
            out.push(m);
            continue;
        }
        let blocks = |content: Option<&Value>| -> Vec<Value> {
            match content {
                Some(Value::Array(a)) => a.clone(),
                Some(Value::String(s)) => vec![json!({ "type": "text", "text": s })],
                _ => Vec::new(),
            }
        };
        if let Some(Value::Object(prev)) = out.last_mut() {
            let mut merged = blocks(prev.get("content"));
            merged.extend(blocks(m.get("content")));
            prev.insert("content".into(), Value::Array(merged));
        }
    }
    out
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(id: u64, ids: &[&str]) -> EndedSession {
        EndedSession {
            id,
            outcome: Outcome::Committed { summary: "enable X".into(), changes: 1, delta: 3 },
            tool_call_ids: ids.iter().map(|s| s.to_string()).collect(),
            tokens: 0,
        }
    }

    fn openai_call(id: &str) -> Value {
        json!({"role": "assistant", "content": null, "tool_calls": [{"id": id, "type": "function", "function": {"name": "memo_replace", "arguments": "{}"}}]})
    }

    fn openai_result(id: &str, text: &str) -> Value {
        json!({"role": "tool", "tool_call_id": id, "content": text})
    }

    #[test]
    fn openai_session_calls_become_one_summary_and_the_rest_is_untouched() {
        let messages = json!([
            {"role": "user", "content": "enable X"},
            openai_call("c1"), openai_result("c1", "read …"),
            openai_call("c2"), openai_result("c2", "staged A …"),
            openai_call("c3"), openai_result("c3", "committed"),
            {"role": "assistant", "content": "Done."},
        ]);
        let out = compress(&messages, Format::OpenAi, &[session(1, &["c2", "c3"])], Locale::En).unwrap();
        let list = out.messages.as_array().unwrap();
        assert_eq!(list.len(), 5);
        assert_eq!(list[1], openai_call("c1"));
        assert_eq!(list[3]["content"], json!("[Edit session #1 committed]\nSummary: enable X\nChanges: 1 replacement, +3 chars"));
        assert_eq!(list[4]["content"], json!("Done."));
        assert_eq!(out.delta.messages_removed, 4);
        assert!(out.delta.tokens_saved > 0);
        check(&out.messages, Format::OpenAi).unwrap();
        // compressing again changes nothing
        let again = compress(&out.messages, Format::OpenAi, &[session(1, &["c2", "c3"])], Locale::En).unwrap();
        assert_eq!(again.messages, out.messages);
        assert_eq!(again.delta, HistoryDelta::default());
    }

    #[test]
    fn a_summary_never_splits_a_call_from_its_result() {
        // one assistant message calls a session tool and another tool in parallel
        let messages = json!([
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "s1", "type": "function", "function": {"name": "memo_replace", "arguments": "{}"}},
                {"id": "w1", "type": "function", "function": {"name": "web_search", "arguments": "{}"}}]},
            openai_result("s1", "staged"), openai_result("w1", "results"),
        ]);
        let out = compress(&messages, Format::OpenAi, &[session(2, &["s1"])], Locale::En).unwrap();
        check(&out.messages, Format::OpenAi).unwrap();
        let list = out.messages.as_array().unwrap();
        assert_eq!(list[1]["tool_calls"].as_array().unwrap().len(), 1);
        assert_eq!(list[2]["tool_call_id"], json!("w1"));
        assert!(list[3]["content"].as_str().unwrap().starts_with("[Edit session #2 committed]"));
    }

    #[test]
    fn anthropic_blocks_are_removed_and_roles_still_alternate() {
        let messages = json!([
            {"role": "user", "content": "enable X"},
            {"role": "assistant", "content": [{"type": "text", "text": "Let me look."}, {"type": "tool_use", "id": "t1", "name": "memo_read", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "…"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "memo_commit", "input": {"summary": "x"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "ok"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
        ]);
        let mut s = session(3, &["t1", "t2"]);
        s.outcome = Outcome::Reverted { reason: "wrong file".into() };
        let out = compress(&messages, Format::Anthropic, &[s], Locale::Zh).unwrap();
        check(&out.messages, Format::Anthropic).unwrap();
        let list = out.messages.as_array().unwrap();
        let roles: Vec<&str> = list.iter().map(|m| m["role"].as_str().unwrap()).collect();
        assert_eq!(roles, vec!["user", "assistant"]);
        let blocks = list[1]["content"].as_array().unwrap();
        assert_eq!(blocks[0]["text"], json!("Let me look."));
        assert_eq!(blocks[1]["text"], json!("[编辑会话 #3 已撤销]\n原因: wrong file"));
        assert_eq!(blocks[2]["text"], json!("Done."));
        assert_eq!(out.delta.messages_removed, 3);
    }

    #[test]
    fn anthropic_a_session_at_the_tail_is_told_as_the_users_turn_and_host_neighbours_stay() {
        let msgs = json!([
            {"role": "user", "content": "enable X"},
            {"role": "user", "content": "and be quick"},
            {"role": "assistant", "content": [{"type": "text", "text": "On it."}, {"type": "tool_use", "id": "t1", "name": "memo_replace", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "staged"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Saving."}, {"type": "tool_use", "id": "t2", "name": "memo_commit", "input": {"summary": "x"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "ok"}]},
        ]);
        let out = compress(&msgs, Format::Anthropic, &[session(1, &["t1", "t2"])], Locale::En).unwrap();
        let list = out.messages.as_array().unwrap();
        // The host's own two user turns are not merged; the session's texts are; the summary
        // comes last, as the user's turn (an assistant turn last would be a prefill).
        assert_eq!(list[0], msgs[0]);
        assert_eq!(list[1], msgs[1]);
        assert_eq!(
            list[2],
            json!({"role": "assistant", "content": [{"type": "text", "text": "On it."}, {"type": "text", "text": "Saving."}]})
        );
        assert_eq!(list[3]["role"], "user");
        assert!(list[3]["content"][0]["text"].as_str().unwrap().starts_with("[Edit session #1 committed]"));
        assert_eq!(list.len(), 4);
    }

    #[test]
    fn ai_sdk_tool_parts_leave_with_their_session_and_other_parts_stay() {
        let call = |id: &str, tool: &str| json!({"type": "tool-call", "toolCallId": id, "toolName": tool, "input": {}});
        let result = |id: &str, tool: &str| json!({"type": "tool-result", "toolCallId": id, "toolName": tool, "output": {"type": "text", "value": "ok"}});
        let msgs = json!([
            {"role": "user", "content": "enable X"},
            {"role": "assistant", "content": [{"type": "text", "text": "Looking."}, call("a1", "memo_read"), call("w1", "web_search")]},
            {"role": "tool", "content": [result("a1", "memo_read"), result("w1", "web_search")]},
            {"role": "assistant", "content": [call("a2", "memo_commit")]},
            {"role": "tool", "content": [result("a2", "memo_commit")]},
            {"role": "assistant", "content": "Done."},
        ]);
        let out = compress(&msgs, Format::AiSdk, &[session(4, &["a1", "a2"])], Locale::En).unwrap();
        check(&out.messages, Format::AiSdk).unwrap();
        let list = out.messages.as_array().unwrap();
        assert_eq!(list[0], msgs[0]);
        // The web search stays, with its result; the session's parts go; the summary comes after
        // what is left of the first message it touched and its pending results.
        assert_eq!(list[1], json!({"role": "assistant", "content": [{"type": "text", "text": "Looking."}, call("w1", "web_search")]}));
        assert_eq!(list[2], json!({"role": "tool", "content": [result("w1", "web_search")]}));
        assert_eq!(list[3]["role"], "assistant");
        assert!(list[3]["content"].as_str().unwrap().starts_with("[Edit session #4 committed]"), "{}", list[3]);
        assert_eq!(list[4], msgs[5]);
        assert_eq!(list.len(), 5);
        assert_eq!(out.delta.messages_removed, 2);
        assert_eq!(out.sessions, vec![4]);
        // Compressing again changes nothing.
        let again = compress(&out.messages, Format::AiSdk, &[session(4, &["a1", "a2"])], Locale::En).unwrap();
        assert_eq!(again.messages, out.messages);
        // A session at the tail: the summary is the user's turn (the SDK may be talking to
        // Anthropic, which reads an assistant turn last as a prefill).
        let tail = json!([
            {"role": "user", "content": "enable X"},
            {"role": "assistant", "content": [call("a1", "memo_commit")]},
            {"role": "tool", "content": [result("a1", "memo_commit")]},
        ]);
        let out = compress(&tail, Format::AiSdk, &[session(1, &["a1"])], Locale::En).unwrap();
        let list = out.messages.as_array().unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[1]["role"], "user");
    }

    #[test]
    fn openai_responses_items_leave_with_their_session_and_reasoning_goes_with_its_calls() {
        let call = |id: &str| json!({"type": "function_call", "call_id": id, "name": "memo_replace", "arguments": "{}"});
        let output = |id: &str| json!({"type": "function_call_output", "call_id": id, "output": "staged"});
        let reasoning = |id: &str| json!({"type": "reasoning", "id": id, "summary": []});
        let items = json!([
            {"role": "user", "content": "enable X"},
            reasoning("rs1"), call("c1"), output("c1"),
            reasoning("rs2"), call("c2"), call("w1"), output("c2"), output("w1"),
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]},
        ]);
        let out = compress(&items, Format::OpenAiResponses, &[session(2, &["c1", "c2"])], Locale::En).unwrap();
        check(&out.messages, Format::OpenAiResponses).unwrap();
        let list = out.messages.as_array().unwrap();
        // rs1 preceded only c1: it goes. rs2 still precedes w1, which stays: it stays.
        assert_eq!(list[0], items[0]);
        assert!(list[1]["content"].as_str().unwrap().starts_with("[Edit session #2 committed]"), "{}", list[1]);
        assert_eq!(list[1]["role"], "assistant");
        assert_eq!(&list[2..], &[reasoning("rs2"), call("w1"), output("w1"), items[9].clone()]);
        assert_eq!(out.delta.messages_removed, 5);
        assert_eq!(Format::parse("openai-responses"), Some(Format::OpenAiResponses));
        assert_eq!(Format::parse("ai-sdk"), Some(Format::AiSdk));
        assert_eq!(Format::parse("gemini"), None);
    }

    #[test]
    fn a_message_that_loses_nothing_is_kept_as_it_was() {
        // `tool_calls: []` (some SDKs send it) used to be dropped from messages compression
        // did not touch, with or without sessions.
        let messages = json!([
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": "thinking", "tool_calls": []},
            {"role": "assistant", "content": null, "tool_calls": [], "refusal": null},
            openai_call("c1"), openai_result("c1", "staged"),
        ]);
        for sessions in [vec![], vec![session(1, &["c1"])]] {
            let out = compress(&messages, Format::OpenAi, &sessions, Locale::En).unwrap();
            let list = out.messages.as_array().unwrap();
            assert_eq!(list[1], messages[1]);
            assert_eq!(list[2], messages[2]);
            assert_eq!(list[2].to_string(), r#"{"role":"assistant","content":null,"tool_calls":[],"refusal":null}"#);
        }
        // a message whose every call is removed still loses the key (and goes when it is empty)
        let out =
            compress(&json!([openai_call("c1"), openai_result("c1", "x")]), Format::OpenAi, &[session(1, &["c1"])], Locale::En).unwrap();
        assert_eq!(out.messages.as_array().unwrap().len(), 1);
    }

    #[test]
    fn tokens_count_cjk_as_one_each() {
        assert_eq!(estimate_tokens("把超时改为"), 5);
        assert_eq!(estimate_tokens("abcdefgh"), 2);
        assert_eq!(estimate_tokens(""), 0);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(matches!(compress(&json!({}), Format::OpenAi, &[], Locale::En), Err(HistoryError::NotAnArray { .. })));
        let e = compress(&json!([1]), Format::Anthropic, &[], Locale::En).unwrap_err();
        assert_eq!(e.to_string(), "message 0: expected an object, got a number");
        assert!(check(&json!([openai_result("x", "")]), Format::OpenAi).is_err());
        assert!(check(&json!([openai_call("x")]), Format::OpenAi).is_err());
    }
}
