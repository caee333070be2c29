//! The workspace's side of history compression: which calls belong to which edit session, and
//! the sessions that ended (docs/workflow.md#history-compression). A call belongs to the session that was
//! open when it started, or that it opened; the call that commits or reverts belongs to the
//! session it ends.

use serde_json::Value;

use crate::history::{estimate_tokens, EndedSession, HistoryDelta, Outcome};
use crate::locale::Locale;
use crate::response::Response;
use crate::small_map::SmallMap;

#[derive(Clone, Debug, Default)]
pub struct HistoryBook {
    /// Open (or just ended) sessions: their calls' tool_call_ids and estimated tokens.
    calls: SmallMap<u64, (Vec<String>, usize)>,
    pub ended: Vec<EndedSession>,
    /// The session the call under way ends, and how (set by commit / revert / discard).
    ending: Option<(u64, Outcome)>,
    /// The call under way: the session open when it started, its id, the tool and arguments.
    session_before: Option<u64>,
    tool_call_id: Option<String>,
    call: (String, String),
}

/// Ended sessions kept for compression (the oldest are forgotten past this).
pub const MAX_ENDED: usize = 200;

/// What one call and its result cost in a transcript: estimated on the OpenAI shapes a loop
/// stores (the call inside the assistant message, its result as a tool message), as JSON — the
/// form `compress` measures what it removes by. Anthropic's blocks are about the same size.
fn call_tokens(id: &str, name: &str, args: &str, markdown: &str) -> usize {
    let call = serde_json::json!({ "id": id, "type": "function", "function": { "name": name, "arguments": args } });
    let result = serde_json::json!({ "role": "tool", "tool_call_id": id, "content": markdown });
    estimate_tokens(&call.to_string()) + estimate_tokens(&result.to_string())
}

impl HistoryBook {
    pub fn begin(&mut self, open: Option<u64>, tool_call_id: Option<String>, name: &str, args: &Value) {
        self.session_before = open;
        self.call = if tool_call_id.is_some() { (name.to_string(), args.to_string()) } else { Default::default() };
        self.tool_call_id = tool_call_id;
        self.ending = None;
    }

    /// The call under way ends session `id` this way (recorded when the call finishes).
    pub fn end(&mut self, id: u64, outcome: Outcome) {
        self.ending = Some((id, outcome));
    }

    /// Books the finished call under its session; when it ended that session, moves the session
    /// to `ended` and returns what compressing it will save.
    pub fn finish(&mut self, open_now: Option<u64>, r: &Response, locale: Locale) -> Option<HistoryDelta> {
        let session = self.session_before.or(open_now)?;
        let entry = self.calls.get_or_insert_with(session, Default::default);
        if let Some(id) = self.tool_call_id.take() {
            let (name, args) = std::mem::take(&mut self.call);
            entry.1 += call_tokens(&id, &name, &args, &r.markdown);
            entry.0.push(id);
        }
        let (ended_id, outcome) = self.ending.take().filter(|(id, _)| *id == session)?;
        Some(self.book_ended(ended_id, outcome, locale))
    }

    /// [`HistoryBook::finish`] of the call that ended a session: out of line, as no first call
    /// ends one (docs/performance.md#cold-start).
    #[cold]
    #[inline(never)]
    fn book_ended(&mut self, ended_id: u64, outcome: Outcome, locale: Locale) -> HistoryDelta {
        let (tool_call_ids, tokens) = self.calls.remove(&ended_id).unwrap_or_default();
        let ended = EndedSession { id: ended_id, outcome, tool_call_ids, tokens };
        let delta = HistoryDelta {
            // each call is a call message and a result message
            messages_removed: 2 * ended.tool_call_ids.len(),
            tokens_saved: ended.tokens.saturating_sub(estimate_tokens(&ended.summary(locale))),
        };
        if self.ended.len() == MAX_ENDED {
            self.ended.remove(0);
        }
        self.ended.push(ended);
        delta
    }
}
