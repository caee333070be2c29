//! Which tools the state offers (docs/workflow.md#visible-tools: the `enabled` and `offered`
//! of each registry row), what a hidden one answers, and the next actions every response lists.

use super::registry::{Enabled, Offered, Tool};
use super::{ToolState, Workspace};
use crate::response::{Response, Status};
use crate::tools::ToolDefinition;
use crate::workflow::{PersistMode, WorkflowState};

impl Workspace {
    /// Whether `tool` may be called now: its row's [`Enabled`] and [`Offered`] (the matrix of
    /// docs/workflow.md#visible-tools, extended to every tool). Nothing is offered while storage
    /// is being read. Hidden tools return `Blocked` saying what to call instead.
    pub fn is_visible(&self, tool: Tool) -> bool {
        let state = self.state();
        if state == WorkflowState::Refreshing || !self.is_enabled(tool) {
            return false;
        }
        match tool.row().offered {
            Offered::Always => true,
            Offered::In(states) => states.contains(&state),
            Offered::Rule(offered) => offered(self, state),
        }
    }

    /// The live selection is units `memo_find` listed. O(1).
    pub(super) fn units_listed(&self) -> bool {
        self.turn.session.as_ref().and_then(|s| s.selection.as_ref()).is_some_and(|s| s.kind == crate::session::SelectionKind::Units)
    }

    pub fn visible_tools(&self) -> Vec<Tool> {
        Tool::ALL.into_iter().filter(|t| self.is_visible(*t)).collect()
    }

    /// Whether the configuration lets `tool` be offered at all, in some state: the memory tools
    /// only with the memory store, `commit_auto` only where commits are manual. Unlike
    /// [`Workspace::is_visible`] it does not depend on the workflow state. O(1).
    pub fn is_enabled(&self, tool: Tool) -> bool {
        match tool.row().enabled {
            Enabled::Always => true,
            Enabled::WithMemory => self.settings.config.memory,
            Enabled::WithManualCommits => self.settings.config.persist_mode != PersistMode::Immediate,
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
            .map(|t| t.definition_in(&self.settings.config.tool_prefix, self.settings.config.persist_mode))
            .collect()
    }

    /// Definitions of the visible tools, for LLM SDKs.
    pub fn tool_definitions(&self) -> Vec<ToolDefinition> {
        self.visible_tools()
            .into_iter()
            .map(|t| t.definition_in(&self.settings.config.tool_prefix, self.settings.config.persist_mode))
            .collect()
    }

    /// Every tool of the registry, in [`Tool::ALL`] order, with whether the current state offers
    /// it and, when it does not, why: the summary and guidance a call to it would get. For hosts
    /// that show the hidden tools too (the playground greys them out). O(tools).
    pub fn tool_states(&self) -> Vec<ToolState> {
        Tool::ALL
            .into_iter()
            .map(|tool| {
                let definition = tool.definition_in(&self.settings.config.tool_prefix, self.settings.config.persist_mode);
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
        tool.name(&self.settings.config.tool_prefix)
    }

    pub(super) fn blocked(&self, tool: Tool) -> Response {
        let (summary, guidance) = self.unavailable(tool);
        self.finish(Response::new(Status::Blocked, summary).with_guidance(guidance), None)
    }

    /// Why `tool` is not offered in the current state: the summary and guidance of the Blocked
    /// response a call to it gets — the row's own words for the state when it has them, else the
    /// state's.
    pub(super) fn unavailable(&self, tool: Tool) -> (String, String) {
        let state = self.state();
        let p = &self.settings.config.tool_prefix;
        let w = self.settings.config.locale.words();
        let name = self.tool_name(tool);
        let row = tool.row();
        if row.enabled == Enabled::WithMemory && !self.settings.config.memory {
            return (w.t("blocked.no_memory", &[("tool", &name)]), w.t("blocked.no_memory.guidance", &[("p", p)]));
        }
        let instead = match row.blocked.and_then(|own| own(self, state)) {
            Some(own) => own,
            None => match state {
                WorkflowState::SelectionPending => w.t("blocked.choose_first", &[("p", p)]),
                WorkflowState::Idle | WorkflowState::PersistPending if self.settings.config.persist_mode == PersistMode::Immediate => {
                    w.t("blocked.immediate", &[])
                }
                WorkflowState::OutOfSync if !self.sync.conflicts.is_empty() => w.t("blocked.conflicts", &[("p", p)]),
                WorkflowState::OutOfSync => w.t("blocked.save_failed", &[("p", p)]),
                WorkflowState::Refreshing => w.t("blocked.refreshing", &[]),
                _ => w.t("blocked.read", &[("p", p)]),
            },
        };
        (w.t("blocked", &[("tool", &name), ("state", &state)]), instead)
    }

    /// A blocked tool's words (`key`) and then how to save or drop what is pending (`lead`).
    pub(super) fn blocked_then(&self, key: &str, lead: &str) -> String {
        let w = self.settings.config.locale.words();
        format!("{}{}{}", w.t(key, &[]), w.phrase("sentence_sep"), self.save_or_drop(lead))
    }

    pub(super) fn next_actions(&self) -> Vec<String> {
        let p = &self.settings.config.tool_prefix;
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
                if self.settings.config.persist_mode == PersistMode::Immediate {
                    v.remove(0);
                }
                v
            }
            WorkflowState::OutOfSync if !self.sync.conflicts.is_empty() => vec![
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
