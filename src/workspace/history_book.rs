//! The workspace's side of history compression: which calls belong to which edit session, and
//! the sessions that ended (`000` §4.4, Appendix B.3). A call belongs to the session that was
//! open when it started, or that it opened; the call that commits or reverts belongs to the
//! session it ends.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::format::Locale;
use crate::history::{estimate_tokens, EndedSession, HistoryDelta, Outcome};
use crate::response::Response;

#[derive(Clone, Debug, Default)]
pub struct HistoryBook {
    /// Open (or just ended) sessions: their calls' tool_call_ids and estimated tokens.
    calls: BTreeMap<u64, (Vec<String>, usize)>,
    pub ended: Vec<EndedSession>,
    /// The session the call under way ends, and how (set by commit / revert / discard).
    ending: Option<(u64, Outcome)>,
    /// The call under way: the session open when it started, its id, its arguments' tokens.
    session_before: Option<u64>,
    tool_call_id: Option<String>,
    arg_tokens: usize,
}

/// Ended sessions kept for compression (the oldest are forgotten past this).
pub const MAX_ENDED: usize = 200;

impl HistoryBook {
    pub fn begin(&mut self, open: Option<u64>, tool_call_id: Option<String>, args: &Value) {
        self.session_before = open;
        self.tool_call_id = tool_call_id;
        self.arg_tokens = estimate_tokens(&args.to_string());
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
        let entry = self.calls.entry(session).or_default();
        if let Some(id) = self.tool_call_id.take() {
            entry.0.push(id);
            entry.1 += self.arg_tokens + estimate_tokens(&r.markdown);
        }
        let (ended_id, outcome) = self.ending.take().filter(|(id, _)| *id == session)?;
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
        Some(delta)
    }
}
