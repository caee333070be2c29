//! Which tools the state offers (docs/workflow.md#visible-tools), what a hidden one answers,
//! and the next actions every response lists.

use super::{ToolState, Workspace};
use crate::response::{Response, Status};
use crate::tools::{Tool, ToolDefinition};
use crate::workflow::{PersistMode, WorkflowState};

impl Workspace {
    /// Whether `tool` may be called now: the matrix of docs/workflow.md#visible-tools, extended to
    /// every tool. Hidden tools return `Blocked` saying what to call instead.
    pub fn is_visible(&self, tool: Tool) -> bool {
        use WorkflowState::*;
        let state = self.state();
        let conflict = !self.conflicts.is_empty();
        let manual_commit = self.config.persist_mode != PersistMode::Immediate;
        let pending = self.session.as_ref().is_some_and(|s| !s.changes.is_empty());
        match (tool, state) {
            // Nothing while storage is being read.
            (_, Refreshing) => false,
            // Read-only, and only where the host enabled the memory store.
            (Tool::RecallContext | Tool::SearchMemory, _) => self.config.memory,
            (
                Tool::Read
                | Tool::Find
                | Tool::Preview
                | Tool::Revert
                | Tool::Discard
                | Tool::Refresh
                | Tool::BeginTask
                | Tool::ExportSession,
                _,
            ) => true,
            (Tool::Replace | Tool::ReplaceSpan | Tool::ReplaceLines, _) => true,
            // Choosing a candidate is only possible while a choice is pending, or while units
            // memo_find listed are live (docs/tools.md#memo_find).
            (Tool::ReplaceSelection, s) => s == SelectionPending || (s != OutOfSync && self.units_listed()),
            // No appending while a choice is pending or storage is out of sync.
            (Tool::Append, s) => matches!(s, Idle | PersistPending),
            // A new document is staged like an append.
            (Tool::Create, s) => matches!(s, Idle | PersistPending),
            // Nothing to compare while nothing is pending and storage agrees.
            (Tool::Diff, s) => s != Idle,
            // In immediate mode a commit has nothing to save (edits are saved as they are made):
            // it answers so, and completes the current task like a commit with nothing pending.
            (Tool::Commit, Idle | PersistPending) => true,
            // After a failed save, committing again is the retry; after an external change it
            // would overwrite what storage got, so it is blocked until refresh/rebase/discard.
            // (In immediate mode too: there it is the only way to retry the save.)
            (Tool::Commit, OutOfSync) => !conflict,
            // Unpicked candidates never stand between a model and its commit: it saves the
            // pending changes and drops the candidates (docs/workflow.md#visible-tools). With
            // nothing pending there is nothing to save; a choice or a revert ends the wait.
            (Tool::Commit, SelectionPending) => pending,
            (Tool::CommitAuto, Idle | PersistPending) => manual_commit,
            // Offered only when it can succeed: it stages the recommended candidate, or with
            // none recommended saves what is pending and drops the candidates.
            (Tool::CommitAuto, SelectionPending) => manual_commit && (pending || self.recommended.is_some()),
            (Tool::CommitAuto, OutOfSync) => false,
            (Tool::Rebase, _) => conflict,
            // An undo is a commit of its own: only with nothing pending and storage in step.
            (Tool::Undo, s) => s == Idle,
            (Tool::PersistAs, s) => s == OutOfSync,
        }
    }

    /// The live selection is units `memo_find` listed. O(1).
    pub(super) fn units_listed(&self) -> bool {
        self.session.as_ref().and_then(|s| s.selection.as_ref()).is_some_and(|s| s.kind == crate::session::SelectionKind::Units)
    }

    pub fn visible_tools(&self) -> Vec<Tool> {
        Tool::ALL.into_iter().filter(|t| self.is_visible(*t)).collect()
    }

    /// Whether the configuration lets `tool` be offered at all, in some state: the memory tools
    /// only with the memory store, `commit_auto` only where commits are manual. Unlike
    /// [`Workspace::is_visible`] it does not depend on the workflow state. O(1).
    pub fn is_enabled(&self, tool: Tool) -> bool {
        match tool {
            Tool::RecallContext | Tool::SearchMemory => self.config.memory,
            Tool::CommitAuto => self.config.persist_mode != PersistMode::Immediate,
            _ => true,
        }
    }

    /// Definitions of every tool the configuration enables, in [`Tool::ALL`] order: the same list
    /// in every workflow state, so a host's tool list (and an LLM provider's prompt cache keyed on
    /// it) stays put for a whole loop. A call the state does not allow is answered `Blocked` with
    /// what to call instead. O(tools).
    pub fn enabled_tool_definitions(&self) -> Vec<ToolDefinition> {
        Tool::ALL
            .into_iter()
            .filter(|t| self.is_enabled(*t))
            .map(|t| t.definition_in(&self.config.tool_prefix, self.config.persist_mode))
            .collect()
    }

    /// Definitions of the visible tools, for LLM SDKs.
    pub fn tool_definitions(&self) -> Vec<ToolDefinition> {
        self.visible_tools().into_iter().map(|t| t.definition_in(&self.config.tool_prefix, self.config.persist_mode)).collect()
    }

    /// Every tool of the registry, in [`Tool::ALL`] order, with whether the current state offers
    /// it and, when it does not, why: the summary and guidance a call to it would get. For hosts
    /// that show the hidden tools too (the playground greys them out). O(tools).
    pub fn tool_states(&self) -> Vec<ToolState> {
        Tool::ALL
            .into_iter()
            .map(|tool| {
                let definition = tool.definition_in(&self.config.tool_prefix, self.config.persist_mode);
                if self.is_visible(tool) {
                    ToolState { definition, available: true, reason: None, guidance: None }
                } else {
                    let (reason, guidance) = self.unavailable(tool);
                    ToolState { definition, available: false, reason: Some(reason), guidance: Some(guidance) }
                }
            })
            .collect()
    }

    pub(super) fn tool_name(&self, tool: Tool) -> String {
        tool.name(&self.config.tool_prefix)
    }

    pub(super) fn blocked(&self, tool: Tool) -> Response {
        let (summary, guidance) = self.unavailable(tool);
        self.finish(Response::new(Status::Blocked, summary).with_guidance(guidance), None)
    }

    /// Why `tool` is not offered in the current state: the summary and guidance of the Blocked
    /// response a call to it gets.
    pub(super) fn unavailable(&self, tool: Tool) -> (String, String) {
        let state = self.state();
        let p = &self.config.tool_prefix;
        let w = self.config.locale.words();
        let name = self.tool_name(tool);
        if matches!(tool, Tool::RecallContext | Tool::SearchMemory) && !self.config.memory {
            return (w.t("blocked.no_memory", &[("tool", &name)]), w.t("blocked.no_memory.guidance", &[("p", p)]));
        }
        let instead = match state {
            WorkflowState::SelectionPending if tool == Tool::Commit => self.save_or_drop("lead.call"),
            WorkflowState::SelectionPending => w.t("blocked.choose_first", &[("p", p)]),
            _ if tool == Tool::ReplaceSelection => w.t("blocked.no_choice", &[("p", p)]),
            _ if tool == Tool::Rebase => {
                format!("{}{}{}", w.t("blocked.no_rebase", &[]), w.phrase("sentence_sep"), self.save_or_drop("lead.to_save"))
            }
            _ if tool == Tool::PersistAs => {
                format!("{}{}{}", w.t("blocked.no_persist_as", &[]), w.phrase("sentence_sep"), self.save_or_drop("lead.to_save_own_path"))
            }
            _ if tool == Tool::Undo && state == WorkflowState::PersistPending => w.t("blocked.undo_pending", &[("p", p)]),
            _ if tool == Tool::Diff => w.t("blocked.no_diff", &[("p", p)]),
            WorkflowState::Idle | WorkflowState::PersistPending if self.config.persist_mode == PersistMode::Immediate => {
                w.t("blocked.immediate", &[])
            }
            WorkflowState::OutOfSync if !self.conflicts.is_empty() => w.t("blocked.conflicts", &[("p", p)]),
            WorkflowState::OutOfSync => w.t("blocked.save_failed", &[("p", p)]),
            WorkflowState::Refreshing => w.t("blocked.refreshing", &[]),
            _ => w.t("blocked.read", &[("p", p)]),
        };
        (w.t("blocked", &[("tool", &name), ("state", &state)]), instead)
    }

    pub(super) fn next_actions(&self) -> Vec<String> {
        let p = &self.config.tool_prefix;
        match self.state() {
            WorkflowState::Idle => vec![format!("{p}_read()"), format!("{p}_replace(old_text, new_text)")],
            WorkflowState::SelectionPending => {
                let mut v = vec![format!("{p}_replace_selection(selection_id)"), format!("{p}_replace(old_text, new_text, match_id)")];
                if self.is_visible(Tool::Commit) {
                    v.push(format!("{p}_commit(summary)"));
                }
                v.push(format!("{p}_revert(reason)"));
                v
            }
            WorkflowState::PersistPending => {
                let mut v = vec![format!("{p}_commit(summary)"), format!("{p}_revert(reason)"), format!("{p}_preview()")];
                if self.config.persist_mode == PersistMode::Immediate {
                    v.remove(0);
                }
                v
            }
            WorkflowState::OutOfSync if !self.conflicts.is_empty() => vec![
                format!("{p}_diff(against=\"storage\")"),
                format!("{p}_rebase()"),
                format!("{p}_refresh()"),
                format!("{p}_discard(reason)"),
            ],
            WorkflowState::OutOfSync => vec![
                format!("{p}_commit(summary)"),
                format!("{p}_diff(against=\"storage\")"),
                format!("{p}_persist_as(new_path)"),
                format!("{p}_discard(reason)"),
            ],
            WorkflowState::Refreshing => Vec::new(),
        }
    }
}
