//! Stored or only applied here (docs/co-editing.md §Stored): a storage that syncs in the
//! background (a Yjs provider) can take a save locally before its server has acknowledged it.
//! The host reports such a save (`stored: false` in its persist report); the workspace keeps
//! the path until the host reports it stored, sets `NotStored` on every response meanwhile with
//! a short note, and says once when it is stored. Decisions here, words in words/sync.rs.

use super::outcome::StateNote;
use super::{words, Workspace};

impl Workspace {
    /// The last save of `path` is applied in storage's local copy but not yet acknowledged by
    /// where it is kept (a server): the call under way and every later response say so until
    /// [`Workspace::storage_stored`]. Returns whether `path` is open. Cost: O(log n).
    pub fn storage_unstored(&mut self, path: &str) -> bool {
        if !self.documents.docs.contains_key(path) {
            return false;
        }
        self.documents.unstored.insert(path.to_string());
        self.documents.newly_unstored = true;
        true
    }

    /// Storage now holds every save of `path` where it is kept: the next response says so once.
    /// Returns whether `path` was waiting. Cost: O(log n).
    pub fn storage_stored(&mut self, path: &str) -> bool {
        if !self.documents.unstored.remove(path) {
            return false;
        }
        self.note(StateNote::Stored { path: path.to_string() });
        true
    }

    /// The paths whose last save is not yet acknowledged, sorted (what the host polls).
    pub fn unstored(&self) -> Vec<String> {
        self.documents.unstored.iter().cloned().collect()
    }

    /// The note every response carries while a save is unacknowledged: in full on the call
    /// that saved (with `[Warning]`), short on the others.
    pub(super) fn unstored_note(&mut self) -> Option<(String, bool)> {
        if self.documents.unstored.is_empty() {
            return None;
        }
        Some(self.unstored_note_said())
    }

    /// [`Workspace::unstored_note`] while a save is unacknowledged: out of line, as no first
    /// call says it (docs/performance.md#cold-start).
    #[cold]
    #[inline(never)]
    fn unstored_note_said(&mut self) -> (String, bool) {
        let fresh = std::mem::take(&mut self.documents.newly_unstored);
        let paths = self.unstored();
        (words::state_note(&StateNote::NotStored { paths, fresh }, &self.settings.config.tool_prefix, self.settings.config.locale), fresh)
    }
}

#[cfg(test)]
mod tests {
    use crate::workspace::{CallContext, Config, PersistResult, Step, Workspace};
    use crate::Status;
    use serde_json::json;

    fn done(step: Step) -> crate::Response {
        match step {
            Step::Done(r) => r,
            other => panic!("expected a response, got {other:?}"),
        }
    }

    #[test]
    fn a_commit_storage_has_not_acknowledged_is_flagged_until_it_is() {
        let mut ws = Workspace::new(Config::default());
        ws.open("a", "x = 1\n", "v1").unwrap();
        let ctx = CallContext::default();
        ws.call("memo_replace", &json!({"old_text": "x = 1", "new_text": "x = 2"}), &ctx);
        assert!(matches!(ws.call("memo_commit", &json!({"summary": "s"}), &ctx), Step::Persist(_)));
        assert!(ws.storage_unstored("a"));
        let r = done(ws.complete_persist(vec![PersistResult::Saved { path: "a".into(), version: "v2".into() }]));
        assert_eq!(r.status, Status::Success);
        assert_eq!(r.flags.names(), vec!["NotStored"]);
        assert!(r.markdown.contains("flags: `NotStored`"), "{}", r.markdown);
        assert!(r.markdown.contains("### [Warning]"), "not a plain success: {}", r.markdown);
        assert!(r.markdown.contains("[Not stored yet: a applied here"), "{}", r.markdown);
        assert!(crate::validate::validate(&r.markdown).is_ok(), "{}", r.markdown);
        // Every response says it while it lasts, short.
        let read = done(ws.call("memo_read", &json!({}), &ctx));
        assert_eq!(read.flags.names(), vec!["NotStored"]);
        assert!(read.markdown.contains("[Not stored yet: storage has not acknowledged your last commit of a.]"), "{}", read.markdown);
        assert!(crate::validate::validate(&read.markdown).is_ok(), "{}", read.markdown);
        assert_eq!(ws.unstored(), vec!["a".to_string()]);
        // Stored: said once, then nothing.
        assert!(ws.storage_stored("a"));
        assert!(!ws.storage_stored("a"));
        let r = done(ws.call("memo_read", &json!({}), &ctx));
        assert_eq!(r.flags.names(), Vec::<&str>::new());
        assert!(r.markdown.contains("[Stored: storage acknowledged your commit of a.]"), "{}", r.markdown);
        let r = done(ws.call("memo_read", &json!({}), &ctx));
        assert!(!r.markdown.contains("Stored"), "{}", r.markdown);
    }
}
