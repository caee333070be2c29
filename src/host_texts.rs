//! The committed texts the JavaScript shell keeps a copy of, so that a commit's write does not
//! carry the whole new text across the wasm boundary (docs/performance.md#commit-and-text).
//!
//! A commit's write request holds the new text in storage form and its edits against the
//! committed text (`PersistRequest::edits`: UTF-16 offsets of the text as the workspace holds
//! it). When the shell holds that committed text as a JS string, it can make the new text from
//! the edits with slices and one join — what a user writing the commit in JS would do — instead
//! of decoding the whole text out of wasm memory (for CJK text that decode alone cost several
//! times the JS commit). This module decides, on the Rust side, when the shell's copy is exactly
//! the committed text:
//!
//! - at open, when the string handed in is the committed text as it is (no CR, no BOM);
//! - after a write reported saved, when the call ends in `Success` (every write of the step is
//!   then committed as written) and the written text is the committed text as it is (LF, no
//!   BOM). The shell keeps or drops its copy as the step says (`kept`, `dropped`), and only then.
//!
//! Each copy is recorded by the fingerprint of its content. A write request is sent without its
//! text only when the committed text it edits has the fingerprint of the shell's copy, so
//! whatever changed the committed text in between (a reload, an undo, a failed commit written
//! back, a document created again) is seen: the request then carries its text as before.

use crate::response::Status;
use crate::text::{Fingerprint, LineEnding, Text};
use crate::workspace::{PersistResult, Step, Workspace};

/// Per path, the fingerprint of the committed text the shell holds a copy of.
#[derive(Default)]
pub(crate) struct HostTexts {
    held: Vec<(String, Fingerprint)>,
}

/// What the shell does with its copies after a write step (see the module doc).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Kept {
    /// Keep the text written for these paths as their committed text.
    pub kept: Vec<String>,
    /// Let go of the copy of these paths.
    pub dropped: Vec<String>,
}

/// `raw` as storage handed it is the text the workspace holds (nothing normalised away).
/// Cost: O(n) (one `memchr`).
pub(crate) fn verbatim(raw: &str) -> bool {
    !raw.starts_with('\u{FEFF}') && memchr::memchr(b'\r', raw.as_bytes()).is_none()
}

/// The storage form of `text` is its flat text as it is. Cost: O(log n).
fn plain(text: &Text) -> bool {
    text.line_ending() == LineEnding::Lf && !text.has_bom() && text.rope().chars().next() != Some('\u{FEFF}')
}

impl HostTexts {
    /// The copies held, by path and fingerprint, lent to the workspace for one call
    /// (`Workspace::set_held_by_host`): a commit then does not make the storage-form text of a
    /// write [`HostTexts::strip`] empties. Give them back with [`HostTexts::restore`]. O(1).
    pub fn lend(&mut self) -> Vec<(String, Fingerprint)> {
        std::mem::take(&mut self.held)
    }

    /// The copies [`HostTexts::lend`] lent, back. O(1).
    pub fn restore(&mut self, held: Vec<(String, Fingerprint)>) {
        self.held = held;
    }

    fn committed(ws: &Workspace, path: &str) -> Option<Fingerprint> {
        ws.document(path).map(|d| d.text.fingerprint())
    }

    fn set(&mut self, path: &str, fingerprint: Option<Fingerprint>) {
        self.held.retain(|(p, _)| p != path);
        if let Some(f) = fingerprint {
            self.held.push((path.to_string(), f));
        }
    }

    /// `path` was just opened from `raw`: returns whether the shell may keep `raw` as its
    /// committed text (it must then, until a step says otherwise). O(1) after `verbatim`.
    pub fn opened(&mut self, ws: &Workspace, path: &str, raw_verbatim: bool) -> bool {
        let keep = raw_verbatim && ws.document(path).is_some_and(|d| plain(&d.text));
        self.set(path, if keep { Self::committed(ws, path) } else { None });
        keep
    }

    /// Empties the text of each write request of `step` the shell can make from its copy and
    /// the request's edits; returns their indexes. Only for a step a call returned (its edits
    /// are against the committed text; a written-back failure's are not). O(requests).
    pub fn strip(&self, ws: &Workspace, step: &mut Step) -> Vec<usize> {
        let Step::Persist(requests) = step else { return Vec::new() };
        let mut stripped = Vec::new();
        for (i, r) in requests.iter_mut().enumerate() {
            let held = self.held.iter().find(|(p, _)| *p == r.path).map(|(_, f)| *f);
            // The text written must be what the edits make of the copy: not a BOM put back.
            if held.is_some() && held == Self::committed(ws, &r.path) && !r.text.starts_with('\u{FEFF}') {
                r.text = String::new();
                stripped.push(i);
            }
        }
        stripped
    }

    /// The shell reported `results` and the workspace answered `step`: which copies the shell
    /// keeps (the written texts) and which it drops. Nothing changes unless the step ends the
    /// call in `Success`. O(results).
    pub fn written(&mut self, ws: &Workspace, results: &[PersistResult], step: &Step) -> Kept {
        let mut out = Kept::default();
        if !matches!(step, Step::Done(r) if r.status == Status::Success) {
            return out;
        }
        for r in results {
            let PersistResult::Saved { path, .. } = r else { continue };
            match ws.document(path).filter(|d| plain(&d.text)) {
                Some(d) => {
                    self.set(path, Some(d.text.fingerprint()));
                    out.kept.push(path.clone());
                }
                None => {
                    self.set(path, None);
                    out.dropped.push(path.clone());
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{CallContext, Config, LoadResult, PersistEdit, PersistRequest};
    use serde_json::{json, Value};

    fn call(ws: &mut Workspace, name: &str, args: Value) -> Step {
        ws.call(name, &args, &CallContext::default())
    }

    /// What the shell does: the edits applied to its copy, in UTF-16 units.
    fn rebuild(copy: &str, edits: &[PersistEdit]) -> String {
        let units: Vec<u16> = copy.encode_utf16().collect();
        let (mut out, mut at) = (Vec::new(), 0);
        for e in edits {
            out.extend_from_slice(&units[at..e.from]);
            out.extend(e.insert.encode_utf16());
            at = e.to;
        }
        out.extend_from_slice(&units[at..]);
        String::from_utf16(&out).unwrap()
    }

    /// Answers the reads a step asks for with `stored` (path, text, version), as a shell would.
    fn settle(ws: &mut Workspace, mut step: Step, stored: &[(&str, &str, &str)]) -> Step {
        while let Step::Load(paths) = &step {
            let results = paths
                .iter()
                .map(|p| {
                    let (_, text, version) = stored.iter().find(|(q, _, _)| q == p).unwrap();
                    LoadResult::Loaded { path: p.clone(), text: text.to_string(), version: version.to_string() }
                })
                .collect();
            step = ws.complete_load(results);
        }
        step
    }

    fn requests(step: Step) -> Vec<PersistRequest> {
        match step {
            Step::Persist(r) => r,
            other => panic!("expected a write, got {other:?}"),
        }
    }

    /// One commit of `old` → `new` in `path`: the step, stripped where the shell holds a copy.
    fn commit(ws: &mut Workspace, host: &HostTexts, path: &str, old: &str, new: &str) -> (Step, Vec<usize>, String) {
        let r = call(ws, "memo_replace", json!({"path": path, "old_text": old, "new_text": new}));
        assert!(matches!(&r, Step::Done(r) if r.status == Status::Success), "{r:?}");
        let mut step = call(ws, "memo_commit", json!({"summary": "s"}));
        let full = match &step {
            Step::Persist(r) => r[0].text.clone(),
            other => panic!("{other:?}"),
        };
        let stripped = host.strip(ws, &mut step);
        (step, stripped, full)
    }

    #[test]
    fn a_commit_on_a_held_text_is_sent_as_edits_the_copy_turns_into_the_written_text() {
        let mut ws = Workspace::new(Config::default());
        let mut host = HostTexts::default();
        let raw = "alpha 😀 一\nbeta\ngamma\n";
        ws.open_string("a", raw.into(), "v1").unwrap();
        assert!(host.opened(&ws, "a", verbatim(raw)));
        let (step, stripped, full) = commit(&mut ws, &host, "a", "beta", "BETA 二");
        assert_eq!(stripped, vec![0]);
        let reqs = requests(step);
        assert_eq!(reqs[0].text, "", "the text does not cross");
        let written = rebuild(raw, &reqs[0].edits);
        assert_eq!(written, full);
        let results = vec![PersistResult::Saved { path: "a".into(), version: "v2".into() }];
        let step = ws.complete_persist(results.clone());
        assert_eq!(host.written(&ws, &results, &step), Kept { kept: vec!["a".into()], dropped: vec![] });
        // The next commit edits the written text, which the shell now holds.
        let (step, stripped, full) = commit(&mut ws, &host, "a", "gamma", "GAMMA");
        assert_eq!(stripped, vec![0]);
        assert_eq!(rebuild(&written, &requests(step)[0].edits), full);
    }

    #[test]
    fn a_workspace_lent_the_copies_makes_no_storage_text_and_the_edits_still_make_it() {
        // Two workspaces on the same text: one told what the shell holds (as the binding does
        // for each call), one not. The told one's request has no text; its edits make the text
        // the other one sends whole, and it is stripped the same way.
        let raw = "alpha 😀 一\nbeta\ngamma\n";
        let (mut told, mut plain_ws) = (Workspace::new(Config::default()), Workspace::new(Config::default()));
        let (mut host, mut plain_host) = (HostTexts::default(), HostTexts::default());
        for (ws, host) in [(&mut told, &mut host), (&mut plain_ws, &mut plain_host)] {
            ws.open_string("a", raw.into(), "v1").unwrap();
            assert!(host.opened(ws, "a", verbatim(raw)));
            call(ws, "memo_replace", json!({"old_text": "beta", "new_text": "BETA 二"}));
        }
        told.set_held_by_host(host.lend());
        let mut step = call(&mut told, "memo_commit", json!({"summary": "s"}));
        host.restore(told.set_held_by_host(Vec::new()));
        let made = requests(step.clone());
        assert_eq!(made[0].text, "", "the storage-form text is not made");
        assert_eq!(host.strip(&told, &mut step), vec![0], "and the request is still sent as edits");
        let (_, stripped, full) = {
            let mut whole = call(&mut plain_ws, "memo_commit", json!({"summary": "s"}));
            let full = requests(whole.clone())[0].text.clone();
            let stripped = plain_host.strip(&plain_ws, &mut whole);
            (whole, stripped, full)
        };
        assert_eq!(stripped, vec![0]);
        assert_eq!(full, "alpha 😀 一\nBETA 二\ngamma\n");
        assert_eq!(rebuild(raw, &made[0].edits), full);
        // A text the shell does not hold (a BOM in storage) is made whole even when lent.
        let mut bom = Workspace::new(Config::default());
        let mut bom_host = HostTexts::default();
        bom.open_string("b", "\u{FEFF}x\ny\n".into(), "v1").unwrap();
        assert!(!bom_host.opened(&bom, "b", verbatim("\u{FEFF}x\ny\n")));
        call(&mut bom, "memo_replace", json!({"old_text": "y", "new_text": "z"}));
        bom.set_held_by_host(bom_host.lend());
        let step = call(&mut bom, "memo_commit", json!({"summary": "s"}));
        assert_eq!(requests(step)[0].text, "\u{FEFF}x\nz\n");
    }

    #[test]
    fn a_text_storage_holds_in_another_form_is_sent_whole() {
        let mut ws = Workspace::new(Config::default());
        let mut host = HostTexts::default();
        for (path, raw) in [("crlf", "a\r\nb\r\n"), ("bom", "\u{FEFF}a\nb\n"), ("cr", "a\rb\n")] {
            ws.open_string(path, raw.into(), "v1").unwrap();
            assert!(!host.opened(&ws, path, verbatim(raw)), "{path}");
            let (step, stripped, _) = commit(&mut ws, &host, path, "b", "c");
            assert!(stripped.is_empty(), "{path}");
            assert!(!requests(step)[0].text.is_empty());
            ws.complete_persist(vec![PersistResult::Saved { path: path.into(), version: "v2".into() }]);
        }
    }

    #[test]
    fn a_committed_text_changed_since_the_copy_is_sent_whole() {
        let mut ws = Workspace::new(Config::default());
        let mut host = HostTexts::default();
        let raw = "one\ntwo\n";
        ws.open_string("a", raw.into(), "v1").unwrap();
        assert!(host.opened(&ws, "a", true));
        // Storage changed the document: the shell's copy is the old text.
        assert!(ws.storage_changed("a", Some("one\nthree\n"), Some("v2")));
        let (step, stripped, _) = commit(&mut ws, &host, "a", "three", "3");
        assert!(stripped.is_empty(), "the committed text is not the copy any more");
        assert!(!requests(step)[0].text.is_empty());
    }

    #[test]
    fn a_failed_write_changes_no_copy_and_the_next_commit_still_edits_the_held_text() {
        let mut ws = Workspace::new(Config::default());
        let mut host = HostTexts::default();
        let raw = "one\ntwo\n";
        ws.open_string("a", raw.into(), "v1").unwrap();
        assert!(host.opened(&ws, "a", true));
        let (_, stripped, _) = commit(&mut ws, &host, "a", "two", "2");
        assert_eq!(stripped, vec![0]);
        let results = vec![PersistResult::Failed { path: "a".into(), error: "disk full".into() }];
        let step = ws.complete_persist(results.clone());
        assert_eq!(host.written(&ws, &results, &step), Kept::default());
        settle(&mut ws, step, &[("a", raw, "v1")]);
        let mut step = call(&mut ws, "memo_commit", json!({"summary": "again"}));
        let full = requests(step.clone())[0].text.clone();
        assert_eq!(host.strip(&ws, &mut step), vec![0]);
        assert_eq!(rebuild(raw, &requests(step)[0].edits), full);
    }

    #[test]
    fn a_multi_document_commit_written_back_keeps_no_copy_of_what_was_undone() {
        let mut ws = Workspace::new(Config::default());
        let mut host = HostTexts::default();
        ws.open_string("a", "a1\n".into(), "v1").unwrap();
        ws.open_string("b", "b1\n".into(), "v1").unwrap();
        assert!(host.opened(&ws, "a", true) && host.opened(&ws, "b", true));
        call(&mut ws, "memo_replace", json!({"path": "a", "old_text": "a1", "new_text": "a2"}));
        call(&mut ws, "memo_replace", json!({"path": "b", "old_text": "b1", "new_text": "b2"}));
        let mut step = call(&mut ws, "memo_commit", json!({"summary": "s"}));
        assert_eq!(host.strip(&ws, &mut step), vec![0, 1]);
        // a saved, b failed: a is written back (its request carries the old text whole).
        let results = vec![
            PersistResult::Saved { path: "a".into(), version: "v2".into() },
            PersistResult::Failed { path: "b".into(), error: "no".into() },
        ];
        let back = ws.complete_persist(results.clone());
        assert_eq!(host.written(&ws, &results, &back), Kept::default());
        let reqs = requests(back);
        assert_eq!(reqs[0].text, "a1\n");
        let results = vec![PersistResult::Saved { path: "a".into(), version: "v3".into() }];
        let done = ws.complete_persist(results.clone());
        assert_eq!(host.written(&ws, &results, &done), Kept::default(), "the commit failed: copies stay as they were");
        settle(&mut ws, done, &[("a", "a1\n", "v3"), ("b", "b1\n", "v1")]);
        // The copies are still the committed texts: what the shell holds ("a1\n", "b1\n") is what
        // the workspace holds, by fingerprint, so a later commit's edits apply to them.
        for (path, copy) in [("a", "a1\n"), ("b", "b1\n")] {
            let doc = ws.document(path).unwrap();
            assert_eq!(doc.text.rope().to_string(), copy);
            let held = host.held.iter().find(|(p, _)| p == path).map(|(_, f)| *f);
            assert_eq!(held, Some(crate::text::fingerprint_of_str(copy)), "{path}");
            assert_eq!(held, Some(doc.text.fingerprint()), "{path}");
        }
    }
}
