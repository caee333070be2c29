//! The rows of the tools that read or search and change nothing (docs/tools.md): `memo_read`,
//! `memo_preview`, `memo_diff`, `memo_export_session`, `memo_recall_context`,
//! `memo_search_memory`, `memo_find`.

use super::{Enabled, Offered, ToolRow};
use crate::tools::{tool_args, ParamKind, MAX_RECALL_TURNS, PATH};
use crate::workflow::WorkflowState::*;
use crate::workspace::{CallContext, Step, Workspace};

tool_args! {
    /// `memo_read`'s arguments.
    pub struct ReadArgs {
        start_line: Option<i64> = (ParamKind::Integer { min: 1 }, "First line to show (1-based)."),
        end_line: Option<i64> = (ParamKind::Integer { min: 1 }, "Last line to show (inclusive)."),
        line_numbers: Option<bool> = (ParamKind::Boolean, "Show the `12│ ` gutters (default true). Gutters copied into old_text are not part of the text."),
        line_keys: Option<bool> = (ParamKind::Boolean, "Prefix each line with its key `12#a3f1│ ` (line number and a hash of the line) for memo_replace_lines."),
        view: Option<String> = (ParamKind::OneOf(&["draft", "committed"]), "`draft` (default: committed text plus pending changes) or `committed`."),
        version: Option<String> = (ParamKind::String, "Read an earlier committed version instead, read-only: an id the live context or a commit named, like \"v2\" (\"v0\": as opened)."),
        unit: Option<String> = (ParamKind::Letter, "Read the lines of a unit the last memo_find listed, like \"B\" (instead of start_line/end_line)."),
        path: Option<String> = PATH,
    }
}

impl ReadArgs {
    /// The argument that asks for the current text (`line_keys`, `view`): a read of a stored
    /// version refuses it. O(1).
    pub(crate) fn current_text_arg(&self) -> Option<&'static str> {
        if self.line_keys == Some(true) {
            Some("line_keys")
        } else if self.view.is_some() {
            Some("view")
        } else {
            None
        }
    }
}

pub(super) static READ: ToolRow = ToolRow {
    verb: "read",
    description: "Read the document (the draft, with pending changes applied) with line-number gutters like `12│ `. Returns its fingerprint. With line_keys=true each line is prefixed with a key like `12#a3f1│ ` for memo_replace_lines.",
    immediate_description: None,
    handler: handler!(ReadArgs => read),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_preview`'s arguments.
    pub struct PreviewArgs {
        format: Option<String> = (ParamKind::OneOf(&["compact", "full", "stats", "diff"]), "`compact` (default), `full`, `stats` or `diff`."),
        context_lines: Option<i64> = (ParamKind::Integer { min: 0 }, "Lines of context around each change (default 3)."),
        path: Option<String> = PATH,
    }
}

pub(super) static PREVIEW: ToolRow = ToolRow {
    verb: "preview",
    description: "Show the pending changes: `compact` (changed lines with context, the default), `full` (the changed lines only), `stats` (+N/-M chars and positions) or `diff` (unified).",
    immediate_description: None,
    handler: handler!(PreviewArgs => preview),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_diff`'s arguments.
    pub struct DiffArgs {
        against: Option<String> = (ParamKind::OneOf(&["base", "storage"]), "`base` (default) or `storage`."),
        path: Option<String> = PATH,
    }
}

pub(super) static DIFF: ToolRow = ToolRow {
    verb: "diff",
    description: "A unified diff: against=\"base\" (default) shows the draft against the committed text; against=\"storage\" shows what storage holds now against your draft (after a failed save or an external change).",
    immediate_description: None,
    handler: handler!(DiffArgs => diff),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::In(&[SelectionPending, PersistPending, OutOfSync]),
    blocked: Some(|ws, s| (s != SelectionPending).then(|| ws.says("blocked.no_diff"))),
};

tool_args! {
    /// `memo_export_session`'s arguments.
    pub struct ExportSessionArgs {

    }
}

pub(super) static EXPORT_SESSION: ToolRow = ToolRow {
    verb: "export_session",
    description: "The log of this workspace's calls: tool, arguments, status and time of each.",
    immediate_description: None,
    handler: handler!(ExportSessionArgs => export_session),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_recall_context`'s arguments.
    pub struct RecallContextArgs {
        turn_numbers: Vec<i64> = (ParamKind::IntegerList { min: 1, max: MAX_RECALL_TURNS }, "Turn numbers to recall, e.g. [2] or [2, 5]."),
    }
}

pub(super) static RECALL_CONTEXT: ToolRow = ToolRow {
    verb: "recall_context",
    description:
        "Recall the full stored context of earlier turns from the memory store, by turn number (the `[Turn N]` lines of the memory digest).",
    immediate_description: None,
    handler: handler!(RecallContextArgs => recall_context),
    edits: false,
    enabled: Enabled::WithMemory,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_search_memory`'s arguments.
    pub struct SearchMemoryArgs {
        query: String = (ParamKind::String, "Words to look for (any order)."),
        limit: Option<i64> = (ParamKind::Integer { min: 1 }, "Most results to return (default 5, at most 20)."),
    }
}

pub(super) static SEARCH_MEMORY: ToolRow = ToolRow {
    verb: "search_memory",
    description: "Keyword search over the memory store's turn summaries, insights, tags and stored contexts (Chinese and other CJK text included); best matches first.",
    immediate_description: None,
    handler: handler!(SearchMemoryArgs => search_memory),
    edits: false,
    enabled: Enabled::WithMemory,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_find`'s arguments.
    pub struct FindArgs {
        query: String = (ParamKind::String, "What the place is about, in words or identifiers (any language)."),
        limit: Option<i64> = (ParamKind::Integer { min: 1 }, "Most candidates to list (default 5, at most 26)."),
        path: Option<String> = PATH,
    }
}

pub(super) static FIND: ToolRow = ToolRow {
    verb: "find",
    description: "Find places by meaning: ranks the document's sections, paragraphs, code blocks, list items and functions against the query and lists the best as lettered candidates with their lines. memo_replace_selection(selection_id, new_text) replaces a whole unit; memo_replace(within=\"B\") searches inside one; memo_read(unit=\"B\") reads one.",
    immediate_description: None,
    handler: handler!(FindArgs => find),
    edits: false,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

fn read(ws: &mut Workspace, a: ReadArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| {
        if a.unit.is_some() {
            return Step::Done(ws.read_unit(path, &a));
        }
        match a.version.as_deref() {
            Some(version) => match ws.ask_stored_read(path, version, &a) {
                Some(step) => step,
                None => Step::Done(ws.read_version(path, version, &a)),
            },
            None => Step::Done(ws.read(path, &a)),
        }
    })
}

fn preview(ws: &mut Workspace, a: PreviewArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| Step::Done(ws.preview(path, &a)))
}

fn diff(ws: &mut Workspace, a: DiffArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| ws.diff(path, a.against.as_deref() == Some("storage")))
}

fn export_session(ws: &mut Workspace, _: ExportSessionArgs, _: &CallContext) -> Step {
    Step::Done(ws.export_session())
}

fn recall_context(ws: &mut Workspace, a: RecallContextArgs, _: &CallContext) -> Step {
    Step::Done(ws.recall_context(&a.turn_numbers))
}

fn search_memory(ws: &mut Workspace, a: SearchMemoryArgs, _: &CallContext) -> Step {
    Step::Done(ws.search_memory(&a.query, a.limit))
}

fn find(ws: &mut Workspace, a: FindArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| ws.find(path, &a))
}
