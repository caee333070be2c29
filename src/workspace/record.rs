//! A storage that keeps its own history (the package's NodeFsStorage in git mode) records each
//! call whose saves all succeeded, and the response says what came of it in the core's words
//! (docs/workflow.md#git-mode, docs/architecture.md#sans-io-steps): after the saves the core
//! asks with [`Step::Record`], the host answers [`Workspace::complete_record`] with plain data
//! ([`RecordResult`]), and only then is the response rendered — once, in the locale's words.
//! Off unless the host says its storage keeps a history ([`Workspace::keep_records`]).

use serde::Serialize;
use serde_json::Value;

use super::{Awaiting, Step, Workspace};
use crate::response::Status;

/// What one call saved, for the storage to record ([`Step::Record`]).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordRequest {
    /// The commit's summary: `memo_commit`'s argument, else the response's summary.
    pub summary: String,
    /// The paths written, in the order written.
    pub paths: Vec<String>,
}

/// What recording came to, as data: the core words it. The storage records in git (the only
/// history storage of the package), so the words name git.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RecordResult {
    /// One commit made: its id (empty when git named none) and branch (empty when detached).
    Recorded { id: String, branch: String },
    /// Nothing to commit: the history's last commit already has the files as they are.
    Unchanged,
    /// The commit was not made: why (git's own words), and whether the files were left staged
    /// (unstaging them failed).
    Failed { why: String, staged: bool },
    /// Whether it was recorded is not known (the storage threw or took too long).
    Unknown { why: String },
    /// The storage keeps no record of this call: nothing is said.
    None,
}

impl RecordResult {
    /// Reads the host's report: `{ kind, ... }` as the variants say (`id`, `branch` may be left
    /// out). Errors name what is wrong with it. Read by hand, not derived: a derived reader of a
    /// tagged enum costs the wasm module kilobytes. Cost: O(size of `v`).
    pub fn from_json(v: &Value) -> Result<RecordResult, String> {
        let text = |key: &str, required: bool| match v.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            None | Some(Value::Null) if !required => Ok(String::new()),
            Some(other) => Err(format!("\"{key}\" must be a string, got {other}")),
            None => Err(format!("\"{key}\" is missing")),
        };
        match v.get("kind").and_then(Value::as_str) {
            Some("recorded") => Ok(RecordResult::Recorded { id: text("id", false)?, branch: text("branch", false)? }),
            Some("unchanged") => Ok(RecordResult::Unchanged),
            Some("failed") => match v.get("staged").and_then(Value::as_bool) {
                Some(staged) => Ok(RecordResult::Failed { why: text("why", true)?, staged }),
                None => Err("\"staged\" must be true or false".into()),
            },
            Some("unknown") => Ok(RecordResult::Unknown { why: text("why", true)? }),
            Some("none") => Ok(RecordResult::None),
            _ => Err(format!(
                "\"kind\" must be \"recorded\", \"unchanged\", \"failed\", \"unknown\" or \"none\", got {}",
                v.get("kind").unwrap_or(&Value::Null)
            )),
        }
    }
}

/// The recording of the call under way.
#[derive(Clone, Debug, Default)]
pub(super) struct Recording {
    /// The host's storage keeps a history ([`Workspace::keep_records`]).
    pub enabled: bool,
    /// Paths this call saved, in the order saved.
    pub saved: Vec<String>,
    /// The summary the call's commit was given.
    pub summary: Option<String>,
}

impl Recording {
    /// A new call: nothing saved yet.
    pub fn begin(&mut self) {
        self.saved.clear();
        self.summary = None;
    }
}

impl Workspace {
    /// Says whether the host's storage keeps a history of its own that records every call
    /// whose saves succeeded (the package sets it when its storage has `afterCommit`). Cost: O(1).
    pub fn keep_records(&mut self, enabled: bool) {
        self.records.recording.enabled = enabled;
    }

    /// Paths a persist step of this call saved, for [`Step::Record`].
    pub(super) fn note_saved(&mut self, results: &[super::PersistResult]) {
        for r in results {
            if let super::PersistResult::Saved { path, .. } = r {
                if !self.records.recording.saved.contains(path) {
                    self.records.recording.saved.push(path.clone());
                }
            }
        }
    }

    /// When `step` is a finished successful response of a call that saved, and the storage
    /// keeps a history: the response is held (finished, not rendered) and `step` becomes the
    /// [`Step::Record`] asking for the record. Returns whether it did. Cost: O(paths).
    pub(super) fn hold_for_record(&mut self, step: &mut Step) -> bool {
        let saved = std::mem::take(&mut self.records.recording.saved);
        let summary = self.records.recording.summary.take();
        let Step::Done(r) = &*step else { return false };
        if !self.records.recording.enabled || saved.is_empty() || r.status != Status::Success {
            return false;
        }
        // The model's own words for a commit; for other tools (an undo, an immediate-mode edit)
        // what the response says happened.
        let own = summary.filter(|s| self.turn.call_tool == Some(crate::workspace::Tool::Commit) && !s.trim().is_empty());
        let summary = own.unwrap_or_else(|| r.summary.clone());
        let request = Step::Record(RecordRequest { summary, paths: saved.clone() });
        if let Step::Done(r) = std::mem::replace(step, request) {
            self.turn.awaiting = Some(Awaiting::Record(Box::new((r, saved))));
        }
        true
    }

    /// Reports what the storage's record of the call's saves came to; returns the call's
    /// response, saying it. The saves are kept whatever `result` says: a failure is said as
    /// `[Warning]`, never as more. A completion the workspace does not wait for is refused.
    /// Cost: O(size of the response) to render it.
    pub fn complete_record(&mut self, result: RecordResult) -> Step {
        let (mut r, paths) = match self.turn.awaiting.take() {
            Some(Awaiting::Record(held)) => *held,
            other => {
                self.turn.awaiting = other;
                return self.wrong_completion("record", "completeRecord", "record");
            }
        };
        let w = self.settings.config.locale.words();
        let note = match &result {
            RecordResult::Recorded { id, .. } if id.is_empty() => Some(w.t("record.made_no_id", &[])),
            RecordResult::Recorded { id, branch } if branch.is_empty() => Some(w.t("record.made_detached", &[("id", id)])),
            RecordResult::Recorded { id, branch } => Some(w.t("record.made", &[("id", id), ("branch", branch)])),
            RecordResult::Unchanged => Some(w.t("record.unchanged", &[])),
            RecordResult::Failed { why, staged } => {
                let listed = shell_words(&paths);
                let state = match (staged, paths.len() == 1) {
                    (false, true) => w.t("record.not_staged.one", &[]),
                    (false, false) => w.t("record.not_staged.other", &[]),
                    (true, true) => w.t("record.staged.one", &[]),
                    (true, false) => w.t("record.staged.other", &[]),
                };
                r.warned = true;
                r.guidance = Some(w.t("record.failed.guidance", &[("paths", &listed), ("state", &state)]));
                Some(w.t("record.failed", &[("why", &why.trim().trim_end_matches('.'))]))
            }
            RecordResult::Unknown { why } => {
                r.warned = true;
                r.guidance = Some(w.t("record.unknown.guidance", &[]));
                Some(w.t("record.unknown", &[("why", &why.trim().trim_end_matches('.'))]))
            }
            RecordResult::None => None,
        };
        if let Some(note) = note {
            if !r.summary.is_empty() {
                r.summary.push(' ');
            }
            r.summary.push_str(&note);
        }
        let mut step = Step::Done(r);
        self.after_step(&mut step);
        step
    }
}

/// `paths` as a shell command takes them: plain ones as they are, others single-quoted.
fn shell_words(paths: &[String]) -> String {
    let plain = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || "_./@+-".contains(c));
    paths.iter().map(|p| if plain(p) { p.clone() } else { format!("'{}'", p.replace('\'', "'\\''")) }).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::{RecordRequest, RecordResult};
    use crate::workspace::{CallContext, Config, PersistResult, Step, Workspace};
    use crate::{Locale, Status, WorkflowState};
    use serde_json::json;

    /// A workspace with `a.md` open and one change staged; records kept when `keep`.
    fn staged(keep: bool, locale: Locale) -> Workspace {
        let mut ws = Workspace::new(Config { locale, ..Config::default() });
        ws.keep_records(keep);
        ws.open("a.md", "x = 1\n", "v1").unwrap();
        ws.call("memo_replace", &json!({"old_text": "x = 1", "new_text": "x = 2"}), &CallContext::default());
        ws
    }

    /// Commits `summary` and reports the write saved: the step after the saves.
    fn commit(ws: &mut Workspace, summary: &str) -> Step {
        let Step::Persist(requests) = ws.call("memo_commit", &json!({"summary": summary}), &CallContext::default()) else {
            panic!("expected a persist step")
        };
        let results = requests.into_iter().map(|r| PersistResult::Saved { path: r.path, version: "v2".into() }).collect();
        ws.complete_persist(results)
    }

    fn done(step: Step) -> crate::Response {
        match step {
            Step::Done(r) => r,
            other => panic!("expected a response, got {other:?}"),
        }
    }

    #[test]
    fn without_a_history_a_commit_is_answered_at_once() {
        let mut ws = staged(false, Locale::En);
        let r = done(commit(&mut ws, "two"));
        assert_eq!(r.status, Status::Success);
        assert!(!r.summary.contains("Git"), "{}", r.summary);
    }

    #[test]
    fn a_commit_is_recorded_before_it_is_answered_and_the_answer_says_so() {
        let mut ws = staged(true, Locale::En);
        let step = commit(&mut ws, "two");
        let Step::Record(request) = step else { panic!("expected a record step, got {step:?}") };
        assert_eq!(request, RecordRequest { summary: "two".into(), paths: vec!["a.md".into()] });
        // While the record is made, the workspace waits: calls are Blocked, nothing changes.
        assert_eq!(ws.state(), WorkflowState::PersistPending);
        let blocked = done(ws.call("memo_read", &json!({}), &CallContext::default()));
        assert_eq!(blocked.status, Status::Blocked);
        let r = done(ws.complete_record(RecordResult::Recorded { id: "1a2b3c4".into(), branch: "main".into() }));
        assert_eq!(r.status, Status::Success);
        assert!(r.summary.ends_with("Git commit 1a2b3c4 on main."), "{}", r.summary);
        assert!(r.markdown.contains("Git commit 1a2b3c4 on main."), "{}", r.markdown);
        assert!(r.markdown.contains("### [OK]"), "{}", r.markdown);
        assert_eq!(ws.state(), WorkflowState::Idle);
        // The text is committed whatever the record said.
        assert_eq!(ws.document("a.md").map(|d| d.text.to_storage()).as_deref(), Some("x = 2\n"));
    }

    #[test]
    fn a_failed_record_keeps_the_save_and_warns_with_what_to_do() {
        let mut ws = staged(true, Locale::En);
        assert!(matches!(commit(&mut ws, "two"), Step::Record(_)));
        let r = done(ws.complete_record(RecordResult::Failed { why: "fatal: a hook refused.".into(), staged: false }));
        assert_eq!(r.status, Status::Success);
        assert!(r.summary.starts_with("[Warning]"), "{}", r.summary);
        assert!(r.summary.contains("not committed to git: fatal: a hook refused."), "{}", r.summary);
        let guidance = r.guidance.clone().unwrap_or_default();
        assert!(guidance.contains("a.md is not staged") && guidance.contains("`git add -- a.md && git commit -- a.md`"), "{guidance}");
        assert!(r.markdown.contains("### [Warning]"), "{}", r.markdown);
        let r = {
            let mut ws = staged(true, Locale::En);
            commit(&mut ws, "two");
            done(ws.complete_record(RecordResult::Unknown { why: "storage.afterCommit took longer than 100 ms".into() }))
        };
        assert!(r.summary.contains("recording the commit failed: storage.afterCommit took longer than 100 ms."), "{}", r.summary);
        assert!(r.guidance.unwrap_or_default().contains("unknown"));
    }

    #[test]
    fn the_record_is_said_in_the_locale_and_none_says_nothing() {
        let mut ws = staged(true, Locale::Zh);
        commit(&mut ws, "two");
        let r = done(ws.complete_record(RecordResult::Recorded { id: "1a2b3c4".into(), branch: "main".into() }));
        assert!(r.summary.ends_with("已提交到 git：1a2b3c4（分支 main）。"), "{}", r.summary);
        let mut ws = staged(true, Locale::En);
        let before = {
            let mut plain = staged(false, Locale::En);
            done(commit(&mut plain, "two")).summary
        };
        commit(&mut ws, "two");
        assert_eq!(done(ws.complete_record(RecordResult::None)).summary, before);
    }

    #[test]
    fn a_record_report_nobody_asked_for_changes_nothing() {
        let mut ws = staged(true, Locale::En);
        let r = done(ws.complete_record(RecordResult::Unchanged));
        assert_eq!(r.status, Status::InvalidArguments, "{}", r.summary);
        assert_eq!(ws.state(), WorkflowState::PersistPending);
    }

    #[test]
    fn a_commit_whose_write_failed_asks_for_no_record() {
        let mut ws = staged(true, Locale::En);
        let Step::Persist(_) = ws.call("memo_commit", &json!({"summary": "two"}), &CallContext::default()) else { panic!() };
        let mut step = ws.complete_persist(vec![PersistResult::Failed { path: "a.md".into(), error: "disk full".into() }]);
        if let Step::Load(_) = step {
            // The core reads what storage holds after a failed save.
            step = ws.complete_load(vec![crate::LoadResult::Loaded { path: "a.md".into(), text: "x = 1\n".into(), version: "v1".into() }]);
        }
        assert_ne!(done(step).status, Status::Success);
    }

    #[test]
    fn record_results_read_from_json() {
        let read = |v: serde_json::Value| RecordResult::from_json(&v).ok();
        assert_eq!(read(json!({"kind": "unchanged"})), Some(RecordResult::Unchanged));
        assert_eq!(
            read(json!({"kind": "recorded", "id": "abc1"})),
            Some(RecordResult::Recorded { id: "abc1".into(), branch: String::new() })
        );
        assert_eq!(read(json!({"kind": "failed", "why": "x"})), None, "staged is required");
        assert_eq!(read(json!({"kind": "made"})), None);
    }
}
