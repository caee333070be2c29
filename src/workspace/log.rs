//! The session log behind `memo_export_session`: every call with its arguments, status and
//! time (passed in by the shell, never read). Bounded: the oldest entries are dropped past
//! [`MAX_ENTRIES`], and long string arguments are clipped, so a long-running agent's workspace
//! does not grow without limit.

use std::collections::VecDeque;

use serde_json::Value;

use super::CallContext;
use crate::response::{LogEntry, Status};

/// Calls kept; older ones are dropped (their count is still in `seq`).
pub const MAX_ENTRIES: usize = 1000;
/// String arguments longer than this many chars are logged clipped, with their length.
pub const MAX_ARG_CHARS: usize = 200;

#[derive(Clone, Debug, Default)]
pub struct SessionLog {
    entries: VecDeque<LogEntry>,
    seq: u64,
}

impl SessionLog {
    /// Records the start of a call. Cost: O(size of args).
    pub fn begin(&mut self, tool: &str, args: &Value, ctx: &CallContext) {
        self.seq += 1;
        if self.entries.len() == MAX_ENTRIES {
            self.entries.pop_front();
        }
        self.entries.push_back(LogEntry {
            seq: self.seq,
            tool: tool.to_string(),
            args: clip(args),
            tool_call_id: ctx.tool_call_id.clone(),
            at_ms: ctx.now_ms,
            status: None,
        });
    }

    /// Sets the status of the latest call (a call that waited for storage ends here).
    pub fn finish(&mut self, status: Status) {
        if let Some(e) = self.entries.back_mut() {
            if e.status.is_none() {
                e.status = Some(status);
            }
        }
    }

    /// The number of the latest call (0 before any).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The last `n` calls, newest first.
    pub fn newest(&self, n: usize) -> impl Iterator<Item = &LogEntry> {
        self.entries.iter().rev().take(n)
    }

    pub fn entries(&self) -> Vec<LogEntry> {
        self.entries.iter().cloned().collect()
    }
}

fn clip(v: &Value) -> Value {
    match v {
        Value::String(s) if s.chars().count() > MAX_ARG_CHARS => {
            Value::String(format!("{} ({} chars)", crate::text::clip(s, MAX_ARG_CHARS), s.chars().count()))
        }
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), clip(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(clip).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_are_bounded_and_long_arguments_clipped() {
        let mut log = SessionLog::default();
        let ctx = CallContext { tool_call_id: Some("t1".into()), now_ms: 5.0 };
        for _ in 0..MAX_ENTRIES + 3 {
            log.begin("memo_read", &json!({}), &ctx);
            log.finish(Status::Success);
        }
        assert_eq!(log.len(), MAX_ENTRIES);
        assert_eq!(log.entries()[0].seq, 4);
        log.begin("memo_replace", &json!({"old_text": "x".repeat(500)}), &ctx);
        let last = log.entries().pop().unwrap();
        assert_eq!(last.status, None);
        let logged = last.args["old_text"].as_str().unwrap().to_string();
        assert!(logged.ends_with("… (500 chars)") && logged.chars().count() < 230, "{logged}");
    }
}
