//! The rows of the tools that save, drop or reload changes and keep the task stack
//! (docs/tools.md): `memo_commit`, `memo_commit_auto`, `memo_revert`, `memo_undo`,
//! `memo_discard`, `memo_refresh`, `memo_rebase`, `memo_persist_as`, `memo_begin_task`.

use super::{Enabled, Offered, ToolRow};
use crate::tools::{tool_args, ParamKind, PATH};
use crate::workflow::WorkflowState::{self, *};
use crate::workspace::{CallContext, Step, Workspace};

tool_args! {
    /// `memo_commit`'s arguments.
    pub struct CommitArgs {
        summary: String = (ParamKind::String, "One line saying what the changes do."),
        auto_pop_task: Option<bool> = (ParamKind::Boolean, "Complete and pop the current task (default true)."),
    }
}

pub(super) static COMMIT: ToolRow = ToolRow {
    verb: "commit",
    description: "Apply all pending changes of all documents and save them, all or nothing. Ends the edit session (candidates still waiting for a choice are dropped) and completes the current task; the summary is what the history keeps.",
    immediate_description: Some("Every edit here is saved as it is made, so there is nothing to apply: completes the current task (the summary is what the history keeps), and after a failed save retries it."),
    handler: handler!(CommitArgs => commit),
    edits: true,
    enabled: Enabled::Always,
    offered: Offered::Rule(commit_offered),
    blocked: Some(|ws, s| (s == SelectionPending).then(|| ws.save_or_drop("lead.call"))),
};

tool_args! {
    /// `memo_commit_auto`'s arguments.
    pub struct CommitAutoArgs {

    }
}

pub(super) static COMMIT_AUTO: ToolRow = ToolRow {
    verb: "commit_auto",
    description: "Commit with a generated summary. While candidates are pending it first stages the recommended one; with none recommended it saves the pending changes and drops the candidates.",
    immediate_description: None,
    handler: handler!(CommitAutoArgs => commit_auto),
    edits: true,
    enabled: Enabled::WithManualCommits,
    offered: Offered::Rule(commit_auto_offered),
    blocked: None,
};

tool_args! {
    /// `memo_revert`'s arguments.
    pub struct RevertArgs {
        reason: String = (ParamKind::String, "Why the changes are dropped."),
    }
}

pub(super) static REVERT: ToolRow = ToolRow {
    verb: "revert",
    description: "Drop all pending changes and end the edit session without saving; the current task is marked Reverted.",
    immediate_description: None,
    handler: handler!(RevertArgs => revert),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_undo`'s arguments.
    pub struct UndoArgs {
        version: Option<String> = (ParamKind::String, "Restore this version instead, like \"v2\" (\"v0\": as opened); default: the version before the last commit."),
        summary: Option<String> = (ParamKind::String, "One line for the history; default: which commit was undone."),
        path: Option<String> = PATH,
    }
}

pub(super) static UNDO: ToolRow = ToolRow {
    verb: "undo",
    description: "Undo the document's last commit, or bring back an earlier version whole, as a new commit saved at once (checked against storage like any commit). Only with no pending changes: memo_revert drops those.",
    immediate_description: None,
    handler: handler!(UndoArgs => undo),
    edits: true,
    enabled: Enabled::Always,
    offered: Offered::In(&[Idle]),
    blocked: Some(|ws, s| (s == PersistPending).then(|| ws.says("blocked.undo_pending"))),
};

tool_args! {
    /// `memo_discard`'s arguments.
    pub struct DiscardArgs {
        reason: Option<String> = (ParamKind::String, "Why the changes are dropped."),
    }
}

pub(super) static DISCARD: ToolRow = ToolRow {
    verb: "discard",
    description:
        "Drop all pending changes (like memo_revert). When storage is out of sync it also reloads the affected documents from storage.",
    immediate_description: None,
    handler: handler!(DiscardArgs => discard),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_refresh`'s arguments.
    pub struct RefreshArgs {
        path: Option<String> = PATH,
    }
}

pub(super) static REFRESH: ToolRow = ToolRow {
    verb: "refresh",
    description:
        "Reload a document from storage, dropping its pending changes (use memo_rebase instead to keep the ones storage did not touch).",
    immediate_description: None,
    handler: handler!(RefreshArgs => refresh),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_rebase`'s arguments.
    pub struct RebaseArgs {
        path: Option<String> = PATH,
    }
}

pub(super) static REBASE: ToolRow = ToolRow {
    verb: "rebase",
    description: "After storage changed underneath: re-apply your pending changes that do not overlap the external change onto the new text; the overlapping ones are listed as conflicts and dropped.",
    immediate_description: None,
    handler: handler!(RebaseArgs => rebase),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::Rule(|ws, _| !ws.sync.conflicts.is_empty()),
    blocked: Some(|ws, s| (s != SelectionPending).then(|| ws.blocked_then("blocked.no_rebase", "lead.to_save"))),
};

tool_args! {
    /// `memo_persist_as`'s arguments.
    pub struct PersistAsArgs {
        new_path: String = (ParamKind::String, "Where to save the draft; must not exist in storage."),
        path: Option<String> = PATH,
    }
}

pub(super) static PERSIST_AS: ToolRow = ToolRow {
    verb: "persist_as",
    description:
        "Save the draft of a document under a new path (recovery when saving to its own path fails). The new path must not exist yet.",
    immediate_description: None,
    handler: handler!(PersistAsArgs => persist_as),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::In(&[OutOfSync]),
    blocked: Some(|ws, s| (s != SelectionPending).then(|| ws.blocked_then("blocked.no_persist_as", "lead.to_save_own_path"))),
};

tool_args! {
    /// `memo_begin_task`'s arguments.
    pub struct BeginTaskArgs {
        goal: String = (ParamKind::String, "What the task is for, in one line."),
        parent_task_id: Option<String> = (ParamKind::String, "The current task's id, to nest under it (default: the current task)."),
    }
}

pub(super) static BEGIN_TASK: ToolRow = ToolRow {
    verb: "begin_task",
    description: "Begin a (sub)task: its goal is shown in every response's task stack until a commit completes it or a revert abandons it.",
    immediate_description: None,
    handler: handler!(BeginTaskArgs => begin_task),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

/// After a failed save, committing again is the retry; after an external change it would
/// overwrite what storage got, so it is blocked until refresh/rebase/discard (in immediate
/// mode too: there it is the only way to retry the save). In immediate mode a commit has
/// nothing to save: it answers so, and completes the current task. Unpicked candidates never
/// stand between a model and its commit: it saves the pending changes and drops the candidates
/// (docs/workflow.md#visible-tools); with nothing pending there is nothing to save.
fn commit_offered(ws: &Workspace, state: WorkflowState) -> bool {
    match state {
        Idle | PersistPending => true,
        OutOfSync => ws.sync.conflicts.is_empty(),
        SelectionPending => ws.turn.session.as_ref().is_some_and(|s| !s.changes.is_empty()),
        Refreshing => false,
    }
}

/// Offered only when it can succeed: while a choice is pending it stages the recommended
/// candidate, or with none recommended saves what is pending and drops the candidates.
fn commit_auto_offered(ws: &Workspace, state: WorkflowState) -> bool {
    match state {
        Idle | PersistPending => true,
        SelectionPending => ws.turn.session.as_ref().is_some_and(|s| !s.changes.is_empty()) || ws.turn.recommended.is_some(),
        OutOfSync | Refreshing => false,
    }
}

fn commit(ws: &mut Workspace, a: CommitArgs, _: &CallContext) -> Step {
    ws.commit(&a.summary, a.auto_pop_task.unwrap_or(true), None)
}

fn commit_auto(ws: &mut Workspace, _: CommitAutoArgs, _: &CallContext) -> Step {
    ws.commit_auto()
}

fn revert(ws: &mut Workspace, a: RevertArgs, _: &CallContext) -> Step {
    Step::Done(ws.revert(&a.reason))
}

fn undo(ws: &mut Workspace, a: UndoArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| ws.undo(path, &a))
}

fn discard(ws: &mut Workspace, a: DiscardArgs, _: &CallContext) -> Step {
    ws.discard(a.reason.as_deref())
}

fn refresh(ws: &mut Workspace, a: RefreshArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| ws.refresh(path))
}

fn rebase(ws: &mut Workspace, a: RebaseArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| Step::Done(ws.rebase(path)))
}

fn persist_as(ws: &mut Workspace, a: PersistAsArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| ws.persist_as(path, &a.new_path))
}

fn begin_task(ws: &mut Workspace, a: BeginTaskArgs, ctx: &CallContext) -> Step {
    Step::Done(ws.begin_task(&a.goal, a.parent_task_id.as_deref(), ctx.now_ms))
}
