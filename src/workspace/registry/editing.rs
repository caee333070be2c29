//! The rows of the tools that stage an edit (docs/tools.md): `memo_replace`,
//! `memo_replace_span`, `memo_replace_selection`, `memo_replace_lines`, `memo_append`,
//! `memo_create`.

use super::{Enabled, Offered, ToolRow};
use crate::tools::{tool_args, Choice, ParamKind, EXPECTED_FINGERPRINT, MATCH_ID, PATH, PREVIEW_ONLY, SEARCH_AFTER, WITHIN};
use crate::workflow::WorkflowState::*;
use crate::workspace::{CallContext, Step, Workspace};

tool_args! {
    /// `memo_replace`'s arguments.
    pub struct ReplaceArgs {
        old_text: String = (ParamKind::String, "The text to replace, copied from the document without line-number gutters. Empty: append."),
        new_text: String = (ParamKind::String, "The text to put in its place."),
        match_id: Option<String> = MATCH_ID,
        search_after: Option<String> = SEARCH_AFTER,
        show_all_matches: Option<bool> = (ParamKind::Boolean, "List every candidate (up to Z) instead of the first five."),
        preview_only: Option<bool> = PREVIEW_ONLY,
        replace_all: Option<bool> = (ParamKind::Boolean, "Stage every exact match as one lettered pending change, however many places it touches."),
        expected_occurrences: Option<i64> = (ParamKind::Integer { min: 1 }, "How many matches you expect; if the count differs nothing is staged and you get the real count and lines."),
        within: Option<String> = WITHIN,
        expected_fingerprint: Option<String> = EXPECTED_FINGERPRINT,
        path: Option<String> = PATH,
    }
}

pub(super) static REPLACE: ToolRow = ToolRow {
    verb: "replace",
    description: "Replace a piece of text. Exact matches first; only if there is none, whitespace, indentation and look-alike differences are tolerated and the response says so ([Warning], match_quality). One match: the edit is staged as a lettered pending change with a diff preview (nothing is saved until memo_commit). Several: you get lettered candidates A–E; stage one with memo_replace_selection(selection_id). None: the closest regions and what differs, as candidates picked the same way. Empty old_text appends new_text at the end.",
    immediate_description: Some("Replace a piece of text. Exact matches first; only if there is none, whitespace, indentation and look-alike differences are tolerated and the response says so ([Warning], match_quality). One match: the edit is saved at once (this workspace saves every edit as it is made) and the response shows its diff. Several: you get lettered candidates A–E; save one with memo_replace_selection(selection_id). None: the closest regions and what differs, as candidates picked the same way. Empty old_text appends new_text at the end."),
    handler: handler!(ReplaceArgs => replace),
    edits: true,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_replace_span`'s arguments.
    pub struct ReplaceSpanArgs {
        old_span_start: String = (ParamKind::String, "Text where the region starts (e.g. a heading)."),
        old_span_end: String = (ParamKind::String, "Text where the region ends: its first occurrence after the start marker."),
        new_text: String = (ParamKind::String, "The text that replaces the region (restate a marker you do not keep)."),
        search_after: Option<String> = SEARCH_AFTER,
        keep_start: Option<bool> = (ParamKind::Boolean, "Keep old_span_start in the document; replace only what follows it."),
        keep_end: Option<bool> = (ParamKind::Boolean, "Keep old_span_end in the document; replace only what precedes it."),
        match_id: Option<String> = MATCH_ID,
        preview_only: Option<bool> = PREVIEW_ONLY,
        expected_fingerprint: Option<String> = EXPECTED_FINGERPRINT,
        path: Option<String> = PATH,
    }
}

pub(super) static REPLACE_SPAN: ToolRow = ToolRow {
    verb: "replace_span",
    description: "Replace a region named by its first and last words instead of restating it: from the start of old_span_start to the end of the first old_span_end after it, markers included unless keep_start/keep_end. Several start markers: lettered candidates as for memo_replace.",
    immediate_description: None,
    handler: handler!(ReplaceSpanArgs => replace_span),
    edits: true,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_replace_selection`'s arguments.
    pub struct ReplaceSelectionArgs {
        selection_id: Choice = (ParamKind::LetterOrNumber, "Candidate letter \"A\"–\"Z\", or its 1-based number."),
        new_text: Option<String> = (ParamKind::String, "Replacement; defaults to the new_text given with the search."),
        preview_only: Option<bool> = PREVIEW_ONLY,
        path: Option<String> = PATH,
    }
}

pub(super) static REPLACE_SELECTION: ToolRow = ToolRow {
    verb: "replace_selection",
    description: "Stage one candidate of the current selection (the lettered list from the last memo_replace or memo_replace_span, including close matches offered after NoMatch).",
    immediate_description: Some("Save one candidate of the current selection (the lettered list from the last memo_replace or memo_replace_span, including close matches offered after NoMatch); every edit here is saved at once."),
    handler: handler!(ReplaceSelectionArgs => replace_selection),
    edits: true,
    enabled: Enabled::Always,
    offered: Offered::Rule(|ws, s| s == SelectionPending || (s != OutOfSync && ws.units_listed())),
    blocked: Some(|ws, s| (s != SelectionPending).then(|| ws.says("blocked.no_choice"))),
};

tool_args! {
    /// `memo_replace_lines`'s arguments.
    pub struct ReplaceLinesArgs {
        start_key: String = (ParamKind::LineKey, "Key of the first line to replace, like \"12#a3f1\"."),
        end_key: Option<String> = (ParamKind::LineKey, "Key of the last line to replace (inclusive); default: start_key's line."),
        new_text: String = (ParamKind::String, "The lines that replace them, without gutters or keys."),
        preview_only: Option<bool> = PREVIEW_ONLY,
        expected_fingerprint: Option<String> = EXPECTED_FINGERPRINT,
        path: Option<String> = PATH,
    }
}

pub(super) static REPLACE_LINES: ToolRow = ToolRow {
    verb: "replace_lines",
    description: "Replace whole lines named by keys from memo_read(line_keys=true), e.g. start_key \"12#a3f1\". A key whose line changed since your read is refused (StaleReference) with the current lines. Empty new_text deletes the lines.",
    immediate_description: None,
    handler: handler!(ReplaceLinesArgs => replace_lines),
    edits: true,
    enabled: Enabled::Always,
    offered: Offered::Always,
    blocked: None,
};

tool_args! {
    /// `memo_append`'s arguments.
    pub struct AppendArgs {
        text: String = (ParamKind::String, "The text to add at the end."),
        preview_only: Option<bool> = PREVIEW_ONLY,
        expected_fingerprint: Option<String> = EXPECTED_FINGERPRINT,
        path: Option<String> = PATH,
    }
}

pub(super) static APPEND: ToolRow = ToolRow {
    verb: "append",
    description: "Append text at the end of the document (staged like any edit). The text is added as given: start it with a line break to begin a new line.",
    immediate_description: Some("Append text at the end of the document (saved at once, like every edit here). The text is added as given: start it with a line break to begin a new line."),
    handler: handler!(AppendArgs => append),
    edits: true,
    enabled: Enabled::Always,
    offered: Offered::In(&[Idle, PersistPending]),
    blocked: None,
};

tool_args! {
    /// `memo_create`'s arguments.
    pub struct CreateArgs {
        path: String = (ParamKind::String, "Path of the new document, relative like the open ones (e.g. \"docs/notes.md\"); must not exist yet."),
        text: String = (ParamKind::String, "The whole content of the new document."),
    }
}

pub(super) static CREATE: ToolRow = ToolRow {
    verb: "create",
    description: "Create a new document at path with text as its content. Staged like any edit (a lettered pending change; memo_read shows it); memo_commit writes it, memo_revert drops it. Refused when the path is already open or leaves the storage.",
    immediate_description: Some("Create a new document at path with text as its content; it is saved at once, like every edit here. Refused when the path is already open or leaves the storage."),
    handler: handler!(CreateArgs => create),
    edits: true,
    enabled: Enabled::Always,
    offered: Offered::In(&[Idle, PersistPending]),
    blocked: None,
};

fn replace(ws: &mut Workspace, a: ReplaceArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| ws.replace(path, &a))
}

fn replace_span(ws: &mut Workspace, a: ReplaceSpanArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| ws.replace_span(path, &a))
}

/// The selection knows its document; `path` only has to agree with it.
fn replace_selection(ws: &mut Workspace, a: ReplaceSelectionArgs, _: &CallContext) -> Step {
    ws.replace_selection(a.path.as_deref(), &a)
}

fn replace_lines(ws: &mut Workspace, a: ReplaceLinesArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| ws.replace_lines(path, &a))
}

fn append(ws: &mut Workspace, a: AppendArgs, _: &CallContext) -> Step {
    ws.on_document(a.path.as_deref(), |ws, path| ws.append(path, &a))
}

fn create(ws: &mut Workspace, a: CreateArgs, _: &CallContext) -> Step {
    ws.create(&a.path, &a.text)
}
