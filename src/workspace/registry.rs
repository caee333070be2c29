//! The tool registry (docs/architecture.md#seams): one row per tool — its name and
//! descriptions, its typed arguments (a [`tool_args!`](crate::tools) struct: the JSON Schema,
//! the generated TypeScript `ToolArgs` and what the handler receives), the workflow states it
//! is offered in and what a call answers where it is not, and its handler. The rows sit by
//! purpose in registry/reading.rs, editing.rs and saving.rs; [`registry!`] below lists them in
//! the order tool lists show them.
//!
//! The idea is helix's `TypableCommand` rows (name, doc, handler, signature in one place).

use serde_json::{Map, Value};

use super::{CallContext, Step, Workspace};
use crate::tools::{self, ArgError, Param, ToolDefinition};
use crate::workflow::{PersistMode, WorkflowState};

/// `handler!(ItsArgs => handler)`: the [`ToolHandler`] of a row. The argument struct is named once: the
/// parameters are its `PARAMS` and the handler must take it, or the row does not compile.
macro_rules! handler {
    ($args:ty => $handler:path) => {
        super::ToolHandler {
            params: <$args as crate::tools::ToolArgs>::PARAMS,
            run: |ws, args, ctx| $handler(ws, <$args as crate::tools::ToolArgs>::from_checked(args), ctx),
        }
    };
}

mod editing;
mod reading;
mod saving;

pub use editing::{AppendArgs, ReplaceArgs, ReplaceLinesArgs, ReplaceSelectionArgs, ReplaceSpanArgs};
pub use reading::{FindArgs, PreviewArgs, ReadArgs};
pub use saving::UndoArgs;

/// Where the configuration lets a tool be offered at all, whatever the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Enabled {
    Always,
    /// Only where the host enabled the memory store (`memory`).
    WithMemory,
    /// Only where commits are manual (not `persist_mode: "immediate"`).
    WithManualCommits,
}

/// The workflow states an enabled tool is offered in. None is offered while storage is being
/// read (`Refreshing`).
#[derive(Clone, Copy)]
pub(crate) enum Offered {
    Always,
    In(&'static [WorkflowState]),
    /// A rule over the state and the workspace (a pending choice, a conflict…).
    Rule(fn(&Workspace, WorkflowState) -> bool),
}

/// One tool: everything the workspace knows of it (docs/architecture.md#seams).
pub struct ToolRow {
    /// The name after the prefix: `read` is `memo_read`.
    pub verb: &'static str,
    /// What the model is told (`memo_` follows the configured prefix).
    pub description: &'static str,
    /// The description in immediate mode, for tools whose manual-mode one speaks of staging
    /// until a commit (docs/workflow.md#persist-modes).
    pub immediate_description: Option<&'static str>,
    /// Its arguments and its handler, bound by [`handler!`] so the two cannot name different
    /// argument structs.
    pub handler: ToolHandler,
    /// It changes the draft or storage: an unreported external conflict stops it.
    pub edits: bool,
    pub(crate) enabled: Enabled,
    pub(crate) offered: Offered,
    /// What a call answers where it is not offered, when the tool has its own words for that
    /// state (`None`: the state's answer, visibility.rs).
    pub(crate) blocked: Option<fn(&Workspace, WorkflowState) -> Option<String>>,
}

/// A tool's arguments and handler.
pub struct ToolHandler {
    /// Its arguments' parameters: `<ItsArgs as ToolArgs>::PARAMS`.
    pub params: &'static [Param],
    /// The handler: the checked arguments read into the tool's struct, then run.
    pub(crate) run: fn(&mut Workspace, &Map<String, Value>, &CallContext) -> Step,
}

/// Declares [`Tool`] with one variant per row, [`Tool::ALL`] in this order and [`Tool::row`].
macro_rules! registry {
    ($($variant:ident => $row:path,)*) => {
        /// Every tool, in registry order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Tool {
            $($variant,)*
        }

        const TOOL_COUNT: usize = [$(stringify!($variant),)*].len();

        impl Tool {
            pub const ALL: [Tool; TOOL_COUNT] = [$(Tool::$variant,)*];

            /// The tool's row. O(1).
            pub fn row(self) -> &'static ToolRow {
                match self {
                    $(Tool::$variant => &$row,)*
                }
            }
        }
    };
}

registry! {
    Read => reading::READ,
    Replace => editing::REPLACE,
    ReplaceSpan => editing::REPLACE_SPAN,
    ReplaceSelection => editing::REPLACE_SELECTION,
    ReplaceLines => editing::REPLACE_LINES,
    Append => editing::APPEND,
    Create => editing::CREATE,
    Preview => reading::PREVIEW,
    Diff => reading::DIFF,
    Commit => saving::COMMIT,
    CommitAuto => saving::COMMIT_AUTO,
    Revert => saving::REVERT,
    Undo => saving::UNDO,
    Discard => saving::DISCARD,
    Refresh => saving::REFRESH,
    Rebase => saving::REBASE,
    PersistAs => saving::PERSIST_AS,
    BeginTask => saving::BEGIN_TASK,
    ExportSession => reading::EXPORT_SESSION,
    RecallContext => reading::RECALL_CONTEXT,
    SearchMemory => reading::SEARCH_MEMORY,
    Find => reading::FIND,
}

impl Tool {
    /// Tools that change the draft or storage: the ones an unreported external conflict stops.
    pub fn edits(self) -> bool {
        self.row().edits
    }

    pub fn verb(self) -> &'static str {
        self.row().verb
    }

    /// The tool's full name under `prefix`, e.g. `memo_replace`.
    pub fn name(self, prefix: &str) -> String {
        // Joined by hand: every response names the visible tools, and `format!` was 2 % of a
        // warm read (docs/performance.md#a-warm-call-on-a-small-document).
        let verb = self.verb();
        let mut name = String::with_capacity(prefix.len() + 1 + verb.len());
        name.push_str(prefix);
        name.push('_');
        name.push_str(verb);
        name
    }

    /// Finds the tool called `name` under `prefix`.
    pub fn from_name(prefix: &str, name: &str) -> Option<Tool> {
        let verb = name.strip_prefix(prefix)?.strip_prefix('_')?;
        Tool::ALL.into_iter().find(|t| t.verb() == verb)
    }

    /// JSON Schema (draft 2020-12 subset every LLM SDK accepts) of the arguments.
    pub fn input_schema(self) -> Value {
        tools::input_schema(self.row().handler.params)
    }

    pub fn definition(self, prefix: &str) -> ToolDefinition {
        self.definition_in(prefix, PersistMode::Manual)
    }

    /// [`Tool::definition`] as a workspace in `mode` describes it: in immediate mode the tools
    /// that stage or commit say that every edit is saved as it is made
    /// (docs/workflow.md#persist-modes). O(size of the description and schema).
    pub fn definition_in(self, prefix: &str, mode: PersistMode) -> ToolDefinition {
        let row = self.row();
        let description = match (mode, row.immediate_description) {
            (PersistMode::Immediate, Some(d)) => d,
            _ => row.description,
        };
        ToolDefinition {
            name: self.name(prefix),
            description: description.replace("memo_", &format!("{prefix}_")),
            input_schema: self.input_schema(),
        }
    }
}

/// Resolves `name` under `prefix` and checks `args` against the tool's parameters; `args` may
/// be `null` (no arguments). The checked arguments are read into the tool's struct by its
/// handler. Cost: O(size of args).
pub fn parse_call(prefix: &str, name: &str, args: &Value) -> Result<(Tool, Map<String, Value>), ArgError> {
    let tool = Tool::from_name(prefix, name)
        .ok_or_else(|| ArgError::UnknownTool { name: name.to_string(), known: Tool::ALL.iter().map(|t| t.name(prefix)).collect() })?;
    let checked = tools::check_args(tool.name(prefix), tool.row().handler.params, args)?;
    Ok((tool, checked))
}

impl Workspace {
    /// Runs `handler` on the open document a call names (`path`, or the default document), or
    /// answers `NotOpen`. O(1) besides the handler.
    fn on_document(&mut self, path: Option<&str>, handler: impl FnOnce(&mut Workspace, &str) -> Step) -> Step {
        match self.resolve(path) {
            Ok(path) => handler(self, &path),
            Err(error) => Step::Done(self.session_worded(&super::outcome::SessionOutcome::NotOpen { error }, None)),
        }
    }

    /// The phrase `key` with the tool prefix as `{p}` (a blocked tool's own words).
    fn says(&self, key: &str) -> String {
        self.settings.config.locale.words().t(key, &[("p", &self.settings.config.tool_prefix)])
    }
}

#[cfg(test)]
mod tests;
