//! One case: the documents opened on a host, each op run as a step, and the laws every step
//! must leave true (drafts, committed texts, storage, pending changes, the workflow state).

use super::generator::{raw, Case, Op, PATHS};
use super::model::{key, DocM, Model};
use super::stat;
use super::steps::step;
use super::text::apply_changes;
use crate::common::Host;
use agentpad::response::PendingChangeView;
use agentpad::{Response, Status, WorkflowState};
use std::collections::BTreeSet;

pub(super) const REFUSED: [Status; 5] =
    [Status::NoOp, Status::InvalidArguments, Status::Blocked, Status::StaleReference, Status::ExternalConflict];

pub(super) struct Snapshot {
    pub(super) drafts: Vec<String>,
    pub(super) texts: Vec<String>,
    pub(super) stored: Vec<String>,
    pub(super) state: WorkflowState,
    pub(super) pending: Vec<(String, String, usize, String, String)>,
}

pub(super) fn snapshot(h: &Host, m: &Model) -> Snapshot {
    let paths: Vec<String> = m.docs.keys().cloned().collect();
    Snapshot {
        drafts: paths.iter().map(|p| h.ws.draft(Some(p)).unwrap_or_default()).collect(),
        texts: paths.iter().map(|p| h.ws.text(Some(p)).unwrap_or_default()).collect(),
        stored: paths.iter().map(|p| h.files[p].0.clone()).collect(),
        state: h.ws.state(),
        pending: m.pending.iter().map(key).collect(),
    }
}

/// A refused response changed nothing.
pub(super) fn unchanged(before: &Snapshot, h: &Host, m: &Model, r: &Response) -> Result<(), String> {
    let after = snapshot(h, m);
    law!(after.drafts == before.drafts, "refused call ({:?}) changed a draft: {:?} → {:?}", r.status, before.drafts, after.drafts);
    law!(after.texts == before.texts, "refused call ({:?}) changed a committed text", r.status);
    law!(after.stored == before.stored, "refused call ({:?}) changed storage", r.status);
    law!(after.state == before.state, "refused call ({:?}) changed the state {:?} → {:?}", r.status, before.state, after.state);
    let now: Vec<_> = r.pending_changes.iter().map(key).collect();
    law!(now == before.pending, "refused call ({:?}) changed the pending changes: {:?} → {:?}", r.status, before.pending, now);
    Ok(())
}

fn trace_on() -> bool {
    std::env::var("AGENTPAD_MODEL_TRACE").is_ok()
}

pub(super) fn run_case(case: &Case) -> Result<(), String> {
    let raws: Vec<String> = case.docs.iter().zip(&case.styles).map(|(d, s)| raw(*s, d)).collect();
    let files: Vec<(&str, &str)> = raws.iter().enumerate().map(|(i, d)| (PATHS[i], d.as_str())).collect();
    let mut h = Host::new(&files);
    let mut m = Model {
        docs: case
            .docs
            .iter()
            .zip(&case.styles)
            .enumerate()
            .map(|(i, (t, s))| (PATHS[i].to_string(), DocM { style: *s, stored: t.clone(), committed: t.clone(), draft: t.clone() }))
            .collect(),
        conflicts: BTreeSet::new(),
        failures: BTreeSet::new(),
        unreported: false,
        sel: None,
        pending: Vec::new(),
        marker: 0,
    };
    for (i, op) in case.ops.iter().enumerate() {
        if trace_on() {
            eprintln!(
                "step {i}: {op:?}  (state {:?}, model failures {:?}, conflicts {:?}, pending {:?})",
                h.ws.state(),
                m.failures,
                m.conflicts,
                m.pending.iter().map(|c| (&c.change_id, &c.path)).collect::<Vec<_>>()
            );
        }
        step(&mut h, &mut m, op).map_err(|e| format!("step {i} {op:?}: {e}"))?;
        check_laws(&h, &m).map_err(|e| format!("after step {i} {op:?}: {e}"))?;
        if let Op::Exact { then_choose: Some((kind, pick)), .. } | Op::Fuzzy { then_choose: Some((kind, pick)), .. } = op {
            if m.sel.as_ref().is_some_and(|s| s.awaiting) {
                let choose = Op::Choose { kind: *kind, pick: *pick };
                step(&mut h, &mut m, &choose).map_err(|e| format!("step {i} {op:?}, then {choose:?}: {e}"))?;
                check_laws(&h, &m).map_err(|e| format!("after step {i} {op:?}, then {choose:?}: {e}"))?;
            }
        }
    }
    Ok(())
}

fn check_laws(h: &Host, m: &Model) -> Result<(), String> {
    for (p, d) in &m.docs {
        let draft = h.ws.draft(Some(p)).map_err(|e| e.to_string())?;
        law!(draft == d.draft, "draft of {p}: workspace {draft:?}, model {:?}", d.draft);
        let text = h.ws.text(Some(p)).map_err(|e| e.to_string())?;
        law!(text == d.committed, "committed text of {p}: workspace {text:?}, model {:?}", d.committed);
        law!(h.files[p].0 == raw(d.style, &d.stored), "storage of {p}: holds {:?}, model {:?}", h.files[p].0, raw(d.style, &d.stored));
        let mine: Vec<&PendingChangeView> = m.pending.iter().filter(|c| &c.path == p).collect();
        let applied = apply_changes(&d.committed, &mine)?;
        law!(applied == d.draft, "{p}: committed + reported pending changes = {applied:?}, but the draft is {:?}", d.draft);
    }
    law!(
        h.ws.state() == m.state(),
        "state: workspace {:?}, model {:?} (conflicts {:?}, failures {:?}, sel {:?})",
        h.ws.state(),
        m.state(),
        m.conflicts,
        m.failures,
        m.sel.as_ref().map(|s| s.awaiting)
    );
    if h.ws.state() == WorkflowState::Idle {
        for (p, d) in &m.docs {
            law!(d.draft == d.committed, "Idle but {p} has a draft that is not the committed text");
        }
    }
    Ok(())
}

/// One of the open documents (the recovered ones too).
pub(super) fn path_of(doc: u64, m: &Model) -> String {
    let paths: Vec<&String> = m.docs.keys().collect();
    paths[(doc % paths.len() as u64) as usize].clone()
}

/// After every call: the response's state is the workspace's, never `Exception`; take the
/// reported pending changes.
pub(super) fn observe(h: &Host, m: &mut Model, r: &Response) -> Result<(), String> {
    stat(format!("status {:?}", r.status));
    law!(r.status != Status::Exception, "Exception: {}", r.markdown);
    law!(r.workflow_state == h.ws.state(), "the response says {:?} but the workspace is {:?}", r.workflow_state, h.ws.state());
    m.pending = r.pending_changes.clone();
    if r.status == Status::ExternalConflict {
        m.unreported = false;
    }
    Ok(())
}
