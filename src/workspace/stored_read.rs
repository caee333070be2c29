//! `memo_read({ version })` of a version of the storage's own history (the package's git mode:
//! a commit id), read by the host and answered by the core like a read of its own versions
//! (docs/workflow.md#git-mode, docs/architecture.md#sans-io-steps): the core asks with
//! [`Step::LoadAt`], the host answers [`Workspace::complete_load_at`] with the text and the
//! commit as data ([`StoredAt`]), and the core words the read. Asked only when the host said its
//! storage keeps a history ([`Workspace::keep_records`]) and the id is none of the workspace's.

use ropey::Rope;
use serde::Serialize;
use serde_json::Value;

use super::outcome::{VersionOf, VersionOutcome};
use super::registry::ReadArgs;
use super::versions::parse_version;
use super::words::{self, Voice};
use super::{Awaiting, Step, Workspace};
use crate::text;

/// A read of the storage's history the workspace waits for.
#[derive(Clone, Debug)]
pub(super) struct PendingStoredRead {
    path: String,
    version: String,
    args: ReadArgs,
}

/// What the host's storage found at a version of its history.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StoredAt {
    /// The file's text at commit `id` (full id), whose subject is `subject`.
    Found { text: String, id: String, subject: String },
    /// It cannot be read there (no such commit, no such file in it, not text): why, in the
    /// storage's words.
    Failed { why: String },
    /// The storage keeps no such version: the read is answered as for any unknown version.
    None,
}

impl StoredAt {
    /// Reads the host's report (`{ kind, ... }`). Read by hand, not derived: a derived reader of
    /// a tagged enum costs the wasm module kilobytes. Errors name what is wrong. Cost: O(size of `v`).
    pub fn from_json(v: &Value) -> Result<StoredAt, String> {
        let text = |key: &str| match v.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(format!("\"{key}\" must be a string, got {other}")),
            None => Err(format!("\"{key}\" is missing")),
        };
        match v.get("kind").and_then(Value::as_str) {
            Some("found") => Ok(StoredAt::Found { text: text("text")?, id: text("id")?, subject: text("subject")? }),
            Some("failed") => Ok(StoredAt::Failed { why: text("why")? }),
            Some("none") => Ok(StoredAt::None),
            _ => Err(format!("\"kind\" must be \"found\", \"failed\" or \"none\", got {}", v.get("kind").unwrap_or(&Value::Null))),
        }
    }
}

impl Workspace {
    /// `memo_read({ version })` of `path` when `version` is to be read from the storage's own
    /// history: it keeps one, the id is none of the workspace's, and no argument asks for the
    /// current text. `None` otherwise (the core answers from its ring). Cost: O(1).
    pub(super) fn ask_stored_read(&mut self, path: &str, version: &str, args: &ReadArgs) -> Option<Step> {
        let current_text_arg = args.current_text_arg().is_some();
        if !self.records.recording.enabled || parse_version(version).is_some() || current_text_arg {
            return None;
        }
        let read = PendingStoredRead { path: path.to_string(), version: version.trim().to_string(), args: args.clone() };
        self.turn.awaiting = Some(Awaiting::LoadAt(Box::new(read)));
        Some(Step::LoadAt { path: path.to_string(), version: version.trim().to_string() })
    }

    /// Reports what the storage found for a [`Step::LoadAt`]; returns the read's response. A
    /// completion the workspace does not wait for is refused. Cost: O(text) to take the text
    /// in, and the lines shown.
    pub fn complete_load_at(&mut self, found: StoredAt) -> Step {
        let read = match self.turn.awaiting.take() {
            Some(Awaiting::LoadAt(read)) => *read,
            other => {
                self.turn.awaiting = other;
                return self.wrong_completion("stored version", "completeLoadAt", "load_at");
            }
        };
        let PendingStoredRead { path, version, args } = read;
        let (outcome, shown) = match found {
            StoredAt::Found { text: raw, id, subject } => {
                // As storage text is read everywhere: no BOM, LF line breaks.
                let rope = Rope::from_str(&text::normalised(raw).0);
                self.version_lines(&path, &version, &args, &rope, VersionOf::Stored { commit: Box::new((id, subject)) })
            }
            StoredAt::Failed { why } => (VersionOutcome::StoredUnreadable { path: path.clone(), version: version.clone(), why }, None),
            StoredAt::None => self.decide_version_read(&path, &version, &args),
        };
        let mut r = words::version(&outcome, &Voice::of(self));
        let r = match shown {
            Some((content, len)) => {
                r.content = Some(content);
                r.metrics.new_length = Some(len);
                self.finish(r, Some(&path))
            }
            None => self.finish(r, None),
        };
        let mut step = Step::Done(r);
        self.after_step(&mut step);
        step
    }
}

#[cfg(test)]
mod tests {
    use super::StoredAt;
    use crate::workspace::{CallContext, Config, Step, Workspace};
    use crate::{Locale, Status, WorkflowState};
    use serde_json::json;

    fn workspace(keep: bool, locale: Locale) -> Workspace {
        let mut ws = Workspace::new(Config { locale, ..Config::default() });
        ws.keep_records(keep);
        ws.open("a.md", "one\nTWO\n", "v1").unwrap();
        ws
    }

    fn done(step: Step) -> crate::Response {
        match step {
            Step::Done(r) => r,
            other => panic!("expected a response, got {other:?}"),
        }
    }

    fn found(text: &str) -> StoredAt {
        StoredAt::Found { text: text.into(), id: "1a2b3c4d5e6f".into(), subject: "init".into() }
    }

    #[test]
    fn a_version_of_the_storage_s_history_is_asked_for_and_read_like_the_core_s_own() {
        let mut ws = workspace(true, Locale::En);
        let ctx = CallContext::default();
        let step = ws.call("memo_read", &json!({"version": "1a2b3c4", "start_line": 2}), &ctx);
        assert_eq!(step, Step::LoadAt { path: "a.md".into(), version: "1a2b3c4".into() });
        assert_eq!(ws.state(), WorkflowState::Refreshing);
        assert_eq!(done(ws.call("memo_read", &json!({}), &ctx)).status, Status::Blocked, "calls wait for the read");
        let r = done(ws.complete_load_at(found("one\r\ntwo\r\nthree\r\n")));
        assert_eq!(r.status, Status::Success, "{}", r.summary);
        assert_eq!(r.content.as_deref(), Some("2│ two\n3│ three\n"), "line breaks as the core keeps them");
        assert_eq!(r.summary, "Read lines 2–3 of a.md at git commit 1a2b3c4 \"init\" (3 lines). Read-only: edits apply to the draft.");
        assert_eq!(ws.state(), WorkflowState::Idle);
        // The core's own versions are still its own.
        assert!(matches!(ws.call("memo_read", &json!({"version": "v0"}), &ctx), Step::Done(_)));
    }

    #[test]
    fn an_unreadable_version_is_refused_with_the_storage_s_reason_and_none_as_an_unknown_version() {
        let mut ws = workspace(true, Locale::En);
        let ctx = CallContext::default();
        ws.call("memo_read", &json!({"version": "deadbeef"}), &ctx);
        let r = done(ws.complete_load_at(StoredAt::Failed { why: "the repository has no commit deadbeef.".into() }));
        assert_eq!(r.status, Status::InvalidArguments);
        assert_eq!(
            r.summary,
            "Invalid call: cannot read version \"deadbeef\" of a.md: the repository has no commit deadbeef. Nothing was changed."
        );
        assert!(r.guidance.unwrap_or_default().starts_with("Pass a commit id git log names"));
        ws.call("memo_read", &json!({"version": "deadbeef"}), &ctx);
        let r = done(ws.complete_load_at(StoredAt::None));
        assert_eq!(r.status, Status::InvalidArguments);
        assert!(r.summary.contains("a version looks like \"v3\""), "{}", r.summary);
    }

    #[test]
    fn without_a_history_or_with_a_current_text_argument_the_core_answers_itself() {
        let mut ws = workspace(false, Locale::En);
        let ctx = CallContext::default();
        assert!(
            matches!(ws.call("memo_read", &json!({"version": "1a2b3c4"}), &ctx), Step::Done(r) if r.status == Status::InvalidArguments)
        );
        let mut ws = workspace(true, Locale::En);
        assert!(
            matches!(ws.call("memo_read", &json!({"version": "1a2b3c4", "view": "draft"}), &ctx), Step::Done(r) if r.status == Status::InvalidArguments)
        );
        let r = done(ws.complete_load_at(found("x")));
        assert_eq!(r.status, Status::InvalidArguments, "a report nobody asked for: {}", r.summary);
    }

    #[test]
    fn a_stored_version_reads_chinese_under_zh() {
        let mut ws = workspace(true, Locale::Zh);
        ws.call("memo_read", &json!({"version": "1a2b3c4"}), &CallContext::default());
        let r = done(ws.complete_load_at(found("one\n")));
        assert!(r.summary.starts_with("已读取 a.md 在 git 提交 1a2b3c4（“init”）中的第 1–1 行"), "{}", r.summary);
    }

    #[test]
    fn reports_read_from_json() {
        let read = |v: serde_json::Value| StoredAt::from_json(&v);
        assert_eq!(read(json!({"kind": "failed", "why": "x"})), Ok(StoredAt::Failed { why: "x".into() }));
        assert_eq!(read(json!({"kind": "none"})), Ok(StoredAt::None));
        assert!(read(json!({"kind": "found", "text": "x", "id": "abc1"})).is_err(), "subject is required");
        assert!(read(json!({"kind": "found", "text": 3, "id": "a", "subject": "s"})).is_err());
    }
}
