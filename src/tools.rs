//! Tools: the registry of what an agent can call (docs/tools.md) — names, descriptions, the JSON
//! Schema of each tool's arguments, and the checking of a call's arguments against it.
//!
//! One table ([`Tool::spec`]) feeds both the schemas handed to LLM SDKs and the validation of
//! incoming calls, so the two cannot disagree. Bad arguments never reach the workspace: they
//! become an [`ArgError`] that names the argument, the value and what is allowed.

use std::fmt;

use crate::locale::{Locale, Words};
use crate::workflow::PersistMode;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// Every tool, in registry order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Read,
    Replace,
    ReplaceSpan,
    ReplaceSelection,
    ReplaceLines,
    Append,
    Create,
    Preview,
    Diff,
    Commit,
    CommitAuto,
    Revert,
    Undo,
    Discard,
    Refresh,
    Rebase,
    PersistAs,
    BeginTask,
    ExportSession,
    RecallContext,
    SearchMemory,
    Find,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    String,
    Boolean,
    /// A whole number ≥ `min`.
    Integer {
        min: i64,
    },
    /// One upper-case letter `A`–`Z`.
    Letter,
    /// A letter `A`–`Z`, or its 1-based number (1–26) as an integer or a numeric string.
    LetterOrNumber,
    /// A line key from `memo_read(line_keys=true)`: `12#a3f1`.
    LineKey,
    /// One of the listed strings.
    OneOf(&'static [&'static str]),
    /// A non-empty array of at most `max` whole numbers, each ≥ `min`.
    IntegerList {
        min: i64,
        max: usize,
    },
}

#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    pub kind: ParamKind,
    pub required: bool,
    pub description: &'static str,
}

pub struct ToolSpec {
    pub tool: Tool,
    pub verb: &'static str,
    pub description: &'static str,
    pub params: &'static [Param],
}

const PATH: Param = Param {
    name: "path",
    kind: ParamKind::String,
    required: false,
    description: "Document to work on; defaults to the workspace's default document.",
};

const EXPECTED_FINGERPRINT: Param = Param {
    name: "expected_fingerprint",
    kind: ParamKind::String,
    required: false,
    description: "Fingerprint from your last read; if the draft changed since, nothing is edited and you get StaleReference.",
};

const SEARCH_AFTER: Param = Param {
    name: "search_after",
    kind: ParamKind::String,
    required: false,
    description: "Only count matches that start after the first occurrence of this text (e.g. a heading).",
};

const MATCH_ID: Param = Param {
    name: "match_id",
    kind: ParamKind::Letter,
    required: false,
    description: "Letter of the candidate to stage when the text matches several places.",
};

const WITHIN: Param = Param {
    name: "within",
    kind: ParamKind::Letter,
    required: false,
    description: "Search only inside this unit of the last memo_find, like \"A\".",
};

const PREVIEW_ONLY: Param =
    Param { name: "preview_only", kind: ParamKind::Boolean, required: false, description: "Show what would be staged without staging it." };

const SPECS: [ToolSpec; 22] = [
    ToolSpec {
        tool: Tool::Read,
        verb: "read",
        description: "Read the document (the draft, with pending changes applied) with line-number gutters like `12│ `. Returns its fingerprint. With line_keys=true each line is prefixed with a key like `12#a3f1│ ` for memo_replace_lines.",
        params: &[
            Param { name: "start_line", kind: ParamKind::Integer { min: 1 }, required: false, description: "First line to show (1-based)." },
            Param { name: "end_line", kind: ParamKind::Integer { min: 1 }, required: false, description: "Last line to show (inclusive)." },
            Param { name: "line_numbers", kind: ParamKind::Boolean, required: false, description: "Show the `12│ ` gutters (default true). Gutters copied into old_text are not part of the text." },
            Param { name: "line_keys", kind: ParamKind::Boolean, required: false, description: "Prefix each line with its key `12#a3f1│ ` (line number and a hash of the line) for memo_replace_lines." },
            Param { name: "view", kind: ParamKind::OneOf(&["draft", "committed"]), required: false, description: "`draft` (default: committed text plus pending changes) or `committed`." },
            Param { name: "version", kind: ParamKind::String, required: false, description: "Read an earlier committed version instead, read-only: an id the live context or a commit named, like \"v2\" (\"v0\": as opened)." },
            Param { name: "unit", kind: ParamKind::Letter, required: false, description: "Read the lines of a unit the last memo_find listed, like \"B\" (instead of start_line/end_line)." },
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::Replace,
        verb: "replace",
        description: "Replace a piece of text. Exact matches first; only if there is none, whitespace, indentation and look-alike differences are tolerated and the response says so ([Warning], match_quality). One match: the edit is staged as a lettered pending change with a diff preview (nothing is saved until memo_commit). Several: you get lettered candidates A–E; stage one with memo_replace_selection(selection_id). None: the closest regions and what differs, as candidates picked the same way. Empty old_text appends new_text at the end.",
        params: &[
            Param { name: "old_text", kind: ParamKind::String, required: true, description: "The text to replace, copied from the document without line-number gutters. Empty: append." },
            Param { name: "new_text", kind: ParamKind::String, required: true, description: "The text to put in its place." },
            MATCH_ID,
            SEARCH_AFTER,
            Param { name: "show_all_matches", kind: ParamKind::Boolean, required: false, description: "List every candidate (up to Z) instead of the first five." },
            PREVIEW_ONLY,
            Param { name: "replace_all", kind: ParamKind::Boolean, required: false, description: "Stage every exact match as one lettered pending change, however many places it touches." },
            Param { name: "expected_occurrences", kind: ParamKind::Integer { min: 1 }, required: false, description: "How many matches you expect; if the count differs nothing is staged and you get the real count and lines." },
            WITHIN,
            EXPECTED_FINGERPRINT,
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::ReplaceSpan,
        verb: "replace_span",
        description: "Replace a region named by its first and last words instead of restating it: from the start of old_span_start to the end of the first old_span_end after it, markers included unless keep_start/keep_end. Several start markers: lettered candidates as for memo_replace.",
        params: &[
            Param { name: "old_span_start", kind: ParamKind::String, required: true, description: "Text where the region starts (e.g. a heading)." },
            Param { name: "old_span_end", kind: ParamKind::String, required: true, description: "Text where the region ends: its first occurrence after the start marker." },
            Param { name: "new_text", kind: ParamKind::String, required: true, description: "The text that replaces the region (restate a marker you do not keep)." },
            SEARCH_AFTER,
            Param { name: "keep_start", kind: ParamKind::Boolean, required: false, description: "Keep old_span_start in the document; replace only what follows it." },
            Param { name: "keep_end", kind: ParamKind::Boolean, required: false, description: "Keep old_span_end in the document; replace only what precedes it." },
            MATCH_ID,
            PREVIEW_ONLY,
            EXPECTED_FINGERPRINT,
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::ReplaceSelection,
        verb: "replace_selection",
        description: "Stage one candidate of the current selection (the lettered list from the last memo_replace or memo_replace_span, including close matches offered after NoMatch).",
        params: &[
            Param { name: "selection_id", kind: ParamKind::LetterOrNumber, required: true, description: "Candidate letter \"A\"–\"Z\", or its 1-based number." },
            Param { name: "new_text", kind: ParamKind::String, required: false, description: "Replacement; defaults to the new_text given with the search." },
            PREVIEW_ONLY,
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::ReplaceLines,
        verb: "replace_lines",
        description: "Replace whole lines named by keys from memo_read(line_keys=true), e.g. start_key \"12#a3f1\". A key whose line changed since your read is refused (StaleReference) with the current lines. Empty new_text deletes the lines.",
        params: &[
            Param { name: "start_key", kind: ParamKind::LineKey, required: true, description: "Key of the first line to replace, like \"12#a3f1\"." },
            Param { name: "end_key", kind: ParamKind::LineKey, required: false, description: "Key of the last line to replace (inclusive); default: start_key's line." },
            Param { name: "new_text", kind: ParamKind::String, required: true, description: "The lines that replace them, without gutters or keys." },
            PREVIEW_ONLY,
            EXPECTED_FINGERPRINT,
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::Append,
        verb: "append",
        description: "Append text at the end of the document (staged like any edit). The text is added as given: start it with a line break to begin a new line.",
        params: &[
            Param { name: "text", kind: ParamKind::String, required: true, description: "The text to add at the end." },
            PREVIEW_ONLY,
            EXPECTED_FINGERPRINT,
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::Create,
        verb: "create",
        description: "Create a new document at path with text as its content. Staged like any edit (a lettered pending change; memo_read shows it); memo_commit writes it, memo_revert drops it. Refused when the path is already open or leaves the storage.",
        params: &[
            Param { name: "path", kind: ParamKind::String, required: true, description: "Path of the new document, relative like the open ones (e.g. \"docs/notes.md\"); must not exist yet." },
            Param { name: "text", kind: ParamKind::String, required: true, description: "The whole content of the new document." },
        ],
    },
    ToolSpec {
        tool: Tool::Preview,
        verb: "preview",
        description: "Show the pending changes: `compact` (changed lines with context, the default), `full` (the changed lines only), `stats` (+N/-M chars and positions) or `diff` (unified).",
        params: &[
            Param { name: "format", kind: ParamKind::OneOf(&["compact", "full", "stats", "diff"]), required: false, description: "`compact` (default), `full`, `stats` or `diff`." },
            Param { name: "context_lines", kind: ParamKind::Integer { min: 0 }, required: false, description: "Lines of context around each change (default 3)." },
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::Diff,
        verb: "diff",
        description: "A unified diff: against=\"base\" (default) shows the draft against the committed text; against=\"storage\" shows what storage holds now against your draft (after a failed save or an external change).",
        params: &[
            Param { name: "against", kind: ParamKind::OneOf(&["base", "storage"]), required: false, description: "`base` (default) or `storage`." },
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::Commit,
        verb: "commit",
        description: "Apply all pending changes of all documents and save them, all or nothing. Ends the edit session (candidates still waiting for a choice are dropped) and completes the current task; the summary is what the history keeps.",
        params: &[
            Param { name: "summary", kind: ParamKind::String, required: true, description: "One line saying what the changes do." },
            Param { name: "auto_pop_task", kind: ParamKind::Boolean, required: false, description: "Complete and pop the current task (default true)." },
        ],
    },
    ToolSpec {
        tool: Tool::CommitAuto,
        verb: "commit_auto",
        description: "Commit with a generated summary. While candidates are pending it first stages the recommended one; with none recommended it saves the pending changes and drops the candidates.",
        params: &[],
    },
    ToolSpec {
        tool: Tool::Revert,
        verb: "revert",
        description: "Drop all pending changes and end the edit session without saving; the current task is marked Reverted.",
        params: &[Param { name: "reason", kind: ParamKind::String, required: true, description: "Why the changes are dropped." }],
    },
    ToolSpec {
        tool: Tool::Undo,
        verb: "undo",
        description: "Undo the document's last commit, or bring back an earlier version whole, as a new commit saved at once (checked against storage like any commit). Only with no pending changes: memo_revert drops those.",
        params: &[
            Param { name: "version", kind: ParamKind::String, required: false, description: "Restore this version instead, like \"v2\" (\"v0\": as opened); default: the version before the last commit." },
            Param { name: "summary", kind: ParamKind::String, required: false, description: "One line for the history; default: which commit was undone." },
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::Discard,
        verb: "discard",
        description: "Drop all pending changes (like memo_revert). When storage is out of sync it also reloads the affected documents from storage.",
        params: &[Param { name: "reason", kind: ParamKind::String, required: false, description: "Why the changes are dropped." }],
    },
    ToolSpec {
        tool: Tool::Refresh,
        verb: "refresh",
        description: "Reload a document from storage, dropping its pending changes (use memo_rebase instead to keep the ones storage did not touch).",
        params: &[PATH],
    },
    ToolSpec {
        tool: Tool::Rebase,
        verb: "rebase",
        description: "After storage changed underneath: re-apply your pending changes that do not overlap the external change onto the new text; the overlapping ones are listed as conflicts and dropped.",
        params: &[PATH],
    },
    ToolSpec {
        tool: Tool::PersistAs,
        verb: "persist_as",
        description: "Save the draft of a document under a new path (recovery when saving to its own path fails). The new path must not exist yet.",
        params: &[
            Param { name: "new_path", kind: ParamKind::String, required: true, description: "Where to save the draft; must not exist in storage." },
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::BeginTask,
        verb: "begin_task",
        description: "Begin a (sub)task: its goal is shown in every response's task stack until a commit completes it or a revert abandons it.",
        params: &[
            Param { name: "goal", kind: ParamKind::String, required: true, description: "What the task is for, in one line." },
            Param { name: "parent_task_id", kind: ParamKind::String, required: false, description: "The current task's id, to nest under it (default: the current task)." },
        ],
    },
    ToolSpec {
        tool: Tool::ExportSession,
        verb: "export_session",
        description: "The log of this workspace's calls: tool, arguments, status and time of each.",
        params: &[],
    },
    ToolSpec {
        tool: Tool::RecallContext,
        verb: "recall_context",
        description: "Recall the full stored context of earlier turns from the memory store, by turn number (the `[Turn N]` lines of the memory digest).",
        params: &[Param {
            name: "turn_numbers",
            kind: ParamKind::IntegerList { min: 1, max: MAX_RECALL_TURNS },
            required: true,
            description: "Turn numbers to recall, e.g. [2] or [2, 5].",
        }],
    },
    ToolSpec {
        tool: Tool::SearchMemory,
        verb: "search_memory",
        description: "Keyword search over the memory store's turn summaries, insights, tags and stored contexts (Chinese and other CJK text included); best matches first.",
        params: &[
            Param { name: "query", kind: ParamKind::String, required: true, description: "Words to look for (any order)." },
            Param { name: "limit", kind: ParamKind::Integer { min: 1 }, required: false, description: "Most results to return (default 5, at most 20)." },
        ],
    },
    ToolSpec {
        tool: Tool::Find,
        verb: "find",
        description: "Find places by meaning: ranks the document's sections, paragraphs, code blocks, list items and functions against the query and lists the best as lettered candidates with their lines. memo_replace_selection(selection_id, new_text) replaces a whole unit; memo_replace(within=\"B\") searches inside one; memo_read(unit=\"B\") reads one.",
        params: &[
            Param { name: "query", kind: ParamKind::String, required: true, description: "What the place is about, in words or identifiers (any language)." },
            Param { name: "limit", kind: ParamKind::Integer { min: 1 }, required: false, description: "Most candidates to list (default 5, at most 26)." },
            PATH,
        ],
    },
];

/// Most turns one `memo_recall_context` call may name: each comes back whole.
pub const MAX_RECALL_TURNS: usize = 10;

impl Tool {
    pub const ALL: [Tool; 22] = [
        Tool::Read,
        Tool::Replace,
        Tool::ReplaceSpan,
        Tool::ReplaceSelection,
        Tool::ReplaceLines,
        Tool::Append,
        Tool::Create,
        Tool::Preview,
        Tool::Diff,
        Tool::Commit,
        Tool::CommitAuto,
        Tool::Revert,
        Tool::Undo,
        Tool::Discard,
        Tool::Refresh,
        Tool::Rebase,
        Tool::PersistAs,
        Tool::BeginTask,
        Tool::ExportSession,
        Tool::RecallContext,
        Tool::SearchMemory,
        Tool::Find,
    ];

    /// Tools that change the draft or storage: the ones an unreported external conflict stops.
    pub fn edits(self) -> bool {
        matches!(
            self,
            Tool::Replace
                | Tool::ReplaceSpan
                | Tool::ReplaceSelection
                | Tool::ReplaceLines
                | Tool::Append
                | Tool::Create
                | Tool::Commit
                | Tool::CommitAuto
                | Tool::Undo
        )
    }

    // SPECS is in `Tool::ALL` order, one per variant (the test below pins that), so every
    // discriminant is an index of it.
    #[allow(clippy::indexing_slicing)]
    pub fn spec(self) -> &'static ToolSpec {
        &SPECS[self as usize]
    }

    pub fn verb(self) -> &'static str {
        self.spec().verb
    }

    /// The tool's full name under `prefix`, e.g. `memo_replace`.
    pub fn name(self, prefix: &str) -> String {
        format!("{prefix}_{}", self.verb())
    }

    /// Finds the tool called `name` under `prefix`.
    pub fn from_name(prefix: &str, name: &str) -> Option<Tool> {
        let verb = name.strip_prefix(prefix)?.strip_prefix('_')?;
        Tool::ALL.into_iter().find(|t| t.verb() == verb)
    }

    /// JSON Schema (draft 2020-12 subset every LLM SDK accepts) of the arguments.
    pub fn input_schema(self) -> Value {
        let spec = self.spec();
        let mut props = Map::new();
        for p in spec.params {
            let mut s = match p.kind {
                ParamKind::String => json!({ "type": "string" }),
                ParamKind::Boolean => json!({ "type": "boolean" }),
                ParamKind::Integer { min } => json!({ "type": "integer", "minimum": min }),
                ParamKind::Letter => json!({ "type": "string", "enum": letters() }),
                ParamKind::LetterOrNumber => json!({ "type": ["string", "integer"] }),
                ParamKind::LineKey => json!({ "type": "string" }),
                ParamKind::OneOf(values) => json!({ "type": "string", "enum": values }),
                ParamKind::IntegerList { min, max } => {
                    json!({ "type": "array", "items": { "type": "integer", "minimum": min }, "minItems": 1, "maxItems": max })
                }
            };
            if let Some(o) = s.as_object_mut() {
                o.insert("description".into(), Value::from(p.description));
            }
            props.insert(p.name.to_string(), s);
        }
        let required: Vec<&str> = spec.params.iter().filter(|p| p.required).map(|p| p.name).collect();
        json!({ "type": "object", "properties": props, "required": required, "additionalProperties": false })
    }

    pub fn definition(self, prefix: &str) -> ToolDefinition {
        self.definition_in(prefix, PersistMode::Manual)
    }

    /// [`Tool::definition`] as a workspace in `mode` describes it: in immediate mode the tools
    /// that stage or commit say that every edit is saved as it is made
    /// (docs/workflow.md#persist-modes). O(size of the description and schema).
    pub fn definition_in(self, prefix: &str, mode: PersistMode) -> ToolDefinition {
        let description = match (mode, self.immediate_description()) {
            (PersistMode::Immediate, Some(d)) => d,
            _ => self.spec().description,
        };
        ToolDefinition {
            name: self.name(prefix),
            description: description.replace("memo_", &format!("{prefix}_")),
            input_schema: self.input_schema(),
        }
    }

    /// The description in immediate mode, for the tools whose manual-mode one speaks of
    /// staging until a commit. O(1).
    fn immediate_description(self) -> Option<&'static str> {
        Some(match self {
            Tool::Replace => "Replace a piece of text. Exact matches first; only if there is none, whitespace, indentation and look-alike differences are tolerated and the response says so ([Warning], match_quality). One match: the edit is saved at once (this workspace saves every edit as it is made) and the response shows its diff. Several: you get lettered candidates A–E; save one with memo_replace_selection(selection_id). None: the closest regions and what differs, as candidates picked the same way. Empty old_text appends new_text at the end.",
            Tool::Append => "Append text at the end of the document (saved at once, like every edit here). The text is added as given: start it with a line break to begin a new line.",
            Tool::Create => "Create a new document at path with text as its content; it is saved at once, like every edit here. Refused when the path is already open or leaves the storage.",
            Tool::ReplaceSelection => "Save one candidate of the current selection (the lettered list from the last memo_replace or memo_replace_span, including close matches offered after NoMatch); every edit here is saved at once.",
            Tool::Commit => "Every edit here is saved as it is made, so there is nothing to apply: completes the current task (the summary is what the history keeps), and after a failed save retries it.",
            _ => return None,
        })
    }
}

pub(crate) fn letters() -> Vec<String> {
    (b'A'..=b'Z').map(|b| (b as char).to_string()).collect()
}

/// A tool as handed to an LLM SDK (the TypeScript package reshapes it per SDK).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    #[cfg_attr(test, ts(type = "ObjectSchema"))]
    pub input_schema: Value,
}

/// Why a call's name or arguments were refused. Every message names the argument, shows the
/// value, and says what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgError {
    UnknownTool {
        name: String,
        known: Vec<String>,
    },
    NotAnObject {
        got: String,
    },
    UnknownArgument {
        tool: String,
        arg: String,
        allowed: Vec<&'static str>,
    },
    Missing {
        tool: String,
        arg: &'static str,
    },
    WrongType {
        arg: &'static str,
        expected: &'static str,
        got: String,
    },
    BelowMinimum {
        arg: &'static str,
        value: i64,
        min: i64,
    },
    /// Above [`MAX_INTEGER_ARG`]: no line, count or turn number gets that large.
    AboveMaximum {
        arg: &'static str,
        value: String,
        max: i64,
    },
    NotAllowed {
        arg: &'static str,
        value: String,
        allowed: Vec<String>,
    },
    /// An item of a list argument is not of the `expected` kind.
    WrongItem {
        arg: &'static str,
        expected: &'static str,
        got: String,
    },
    /// A list argument that is empty or holds more than `max` items.
    ListSize {
        arg: &'static str,
        value: String,
        max: usize,
    },
    /// A string (argument or key) held an unpaired UTF-16 surrogate (reported by the JS boundary).
    UnpairedSurrogate {
        arg: String,
        offset: usize,
    },
    /// A value JSON cannot hold (a function, a symbol, NaN, a cycle…), reported by the JS boundary.
    NotJson {
        arg: String,
        got: String,
    },
}

impl ArgError {
    /// The message in the words of `w`: the argument named, the value shown, what is allowed
    /// (phrase keys `arg.*`; an expected or allowed kind written `kind.*` is a phrase key too,
    /// docs/responses.md#locales-and-styles). Cost: O(size of the message).
    pub fn words(&self, w: &Words) -> String {
        let kind = |k: &str| if k.starts_with("kind.") { w.phrase(k).to_string() } else { k.to_string() };
        let list = |items: &[String]| items.iter().map(|a| kind(a)).collect::<Vec<_>>().join(w.phrase("comma_sep"));
        match self {
            ArgError::UnknownTool { name, known } => {
                w.t("arg.unknown_tool", &[("name", name), ("known", &known.join(w.phrase("comma_sep")))])
            }
            ArgError::NotAnObject { got } => w.t("arg.not_an_object", &[("got", got)]),
            ArgError::UnknownArgument { tool, arg, allowed } if allowed.is_empty() => {
                w.t("arg.unknown_argument.none", &[("arg", arg), ("tool", tool)])
            }
            ArgError::UnknownArgument { tool, arg, allowed } => {
                w.t("arg.unknown_argument", &[("arg", arg), ("tool", tool), ("allowed", &allowed.join(w.phrase("comma_sep")))])
            }
            ArgError::Missing { tool, arg } => w.t("arg.missing", &[("arg", arg), ("tool", tool)]),
            ArgError::WrongType { arg, expected, got } => {
                w.t("arg.wrong_type", &[("arg", arg), ("expected", &kind(expected)), ("got", got)])
            }
            ArgError::WrongItem { arg, expected, got } => {
                w.t("arg.wrong_item", &[("arg", arg), ("expected", &kind(expected)), ("got", got)])
            }
            ArgError::BelowMinimum { arg, value, min } => w.t("arg.below_minimum", &[("arg", arg), ("min", min), ("value", value)]),
            ArgError::AboveMaximum { arg, value, max } => w.t("arg.above_maximum", &[("arg", arg), ("max", max), ("value", value)]),
            ArgError::NotAllowed { arg, value, allowed } => {
                let key = if allowed.len() == 1 { "arg.not_allowed.one" } else { "arg.not_allowed" };
                w.t(key, &[("arg", arg), ("allowed", &list(allowed)), ("value", value)])
            }
            ArgError::ListSize { arg, value, max } => w.t("arg.list_size", &[("arg", arg), ("max", max), ("value", value)]),
            ArgError::UnpairedSurrogate { arg, offset } => w.t("arg.unpaired_surrogate", &[("arg", arg), ("offset", offset)]),
            ArgError::NotJson { arg, got } => w.t("arg.not_json", &[("arg", arg), ("got", got)]),
        }
    }

    /// What to do about it, as a sentence for the model (`prefix`: the tool prefix).
    pub fn guidance(&self, w: &Words, prefix: &str) -> String {
        let kind = |k: &str| if k.starts_with("kind.") { w.phrase(k).to_string() } else { k.to_string() };
        match self {
            ArgError::UnknownTool { .. } => w.t("arg.unknown_tool.guidance", &[]),
            ArgError::NotAnObject { .. } => w.t("arg.not_an_object.guidance", &[]),
            ArgError::UnknownArgument { .. } => w.t("arg.unknown_argument.guidance", &[]),
            ArgError::Missing { arg, .. } => w.t("arg.missing.guidance", &[("arg", arg)]),
            ArgError::WrongType { arg, expected, .. } | ArgError::WrongItem { arg, expected, .. } => {
                w.t("arg.wrong_type.guidance", &[("arg", arg), ("expected", &kind(expected))])
            }
            ArgError::BelowMinimum { arg, min, .. } => w.t("arg.below_minimum.guidance", &[("arg", arg), ("min", min)]),
            ArgError::AboveMaximum { arg, max, .. } => w.t("arg.above_maximum.guidance", &[("arg", arg), ("max", max)]),
            ArgError::NotAllowed { arg, .. } | ArgError::ListSize { arg, .. } => w.t("arg.not_allowed.guidance", &[("arg", arg)]),
            ArgError::NotJson { arg, .. } => w.t("arg.not_json.guidance", &[("arg", arg)]),
            ArgError::UnpairedSurrogate { arg, .. } => w.t("arg.unpaired_surrogate.guidance", &[("arg", arg), ("p", &prefix)]),
        }
    }
}

/// The English message (hosts and logs read it; a response is worded by [`ArgError::words`]).
impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words(Locale::En.words()))
    }
}

impl std::error::Error for ArgError {}

/// A short, bounded rendering of a JSON value for error messages.
fn show(v: &Value) -> String {
    let kind = match v {
        Value::Null => return "null".into(),
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let text = crate::text::clip(&v.to_string(), 40);
    format!("{kind} {text}")
}

/// Arguments that passed validation: every key is a known parameter of the right type; `null`
/// values were dropped (read as absent).
#[derive(Clone, Debug, Default)]
pub struct Args(Map<String, Value>);

impl Args {
    /// Arguments built in the core (e.g. `memo_commit_auto` choosing a candidate), as strings.
    /// These arguments with `name` set to `value` (a call the core rewrites, like
    /// `memo_read(unit)` into its lines). O(args).
    pub fn with(mut self, name: &str, value: Value) -> Args {
        self.0.insert(name.to_string(), value);
        self
    }

    pub fn from_pairs(pairs: &[(&str, String)]) -> Args {
        Args(pairs.iter().map(|(k, v)| (k.to_string(), Value::String(v.clone()))).collect())
    }

    pub fn str(&self, name: &str) -> Option<&str> {
        self.0.get(name).and_then(Value::as_str)
    }

    pub fn bool(&self, name: &str) -> Option<bool> {
        self.0.get(name).and_then(Value::as_bool)
    }

    pub fn int(&self, name: &str) -> Option<i64> {
        self.0.get(name).and_then(Value::as_i64)
    }

    /// A [`ParamKind::IntegerList`] argument (checked: every item a whole number ≥ its `min`).
    pub fn int_list(&self, name: &str) -> Vec<i64> {
        self.0.get(name).and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_i64).collect()).unwrap_or_default()
    }

    /// A [`ParamKind::LetterOrNumber`] argument as a letter index (0 for `A` or `1`).
    pub fn letter_index(&self, name: &str) -> Option<usize> {
        self.0.get(name).and_then(letter_or_number)
    }
}

/// Resolves `name` under `prefix` and checks `args` against the tool's schema.
/// `args` may be `null` (no arguments). Cost: O(size of args).
pub fn parse_call(prefix: &str, name: &str, args: &Value) -> Result<(Tool, Args), ArgError> {
    let tool = Tool::from_name(prefix, name)
        .ok_or_else(|| ArgError::UnknownTool { name: name.to_string(), known: Tool::ALL.iter().map(|t| t.name(prefix)).collect() })?;
    let spec = tool.spec();
    let tool_name = tool.name(prefix);
    let empty = Map::new();
    let given = match args {
        Value::Null => &empty,
        Value::Object(map) => map,
        other => return Err(ArgError::NotAnObject { got: show(other) }),
    };
    let mut out = Map::new();
    for (key, value) in given {
        let Some(param) = spec.params.iter().find(|p| p.name == key) else {
            return Err(ArgError::UnknownArgument {
                tool: tool_name,
                arg: key.clone(),
                allowed: spec.params.iter().map(|p| p.name).collect(),
            });
        };
        if value.is_null() {
            continue; // null reads as absent (OpenAI strict mode sends nulls for optional args)
        }
        check_kind(param, value)?;
        out.insert(key.clone(), value.clone());
    }
    if let Some(missing) = spec.params.iter().find(|p| p.required && !out.contains_key(p.name)) {
        return Err(ArgError::Missing { tool: tool_name, arg: missing.name });
    }
    Ok((tool, Args(out)))
}

/// The largest whole number an integer argument takes (u32::MAX): lines, counts and turn numbers
/// stay far below it, and past it a value would wrap on 32-bit targets (wasm32's usize).
pub const MAX_INTEGER_ARG: i64 = u32::MAX as i64;

fn check_kind(p: &Param, v: &Value) -> Result<(), ArgError> {
    let wrong = |expected: &'static str| ArgError::WrongType { arg: p.name, expected, got: show(v) };
    match p.kind {
        ParamKind::String => v.as_str().map(|_| ()).ok_or_else(|| wrong("kind.string")),
        ParamKind::Boolean => v.as_bool().map(|_| ()).ok_or_else(|| wrong("kind.boolean")),
        ParamKind::Integer { min } => {
            if v.as_f64().is_some_and(|f| f.fract() == 0.0 && f > MAX_INTEGER_ARG as f64) {
                return Err(ArgError::AboveMaximum { arg: p.name, value: show(v), max: MAX_INTEGER_ARG });
            }
            let n = v.as_i64().ok_or_else(|| wrong("kind.whole_number"))?;
            if n < min {
                Err(ArgError::BelowMinimum { arg: p.name, value: n, min })
            } else {
                Ok(())
            }
        }
        ParamKind::Letter => {
            let s = v.as_str().ok_or_else(|| wrong("kind.letter"))?;
            if matches!(s.as_bytes(), [b'A'..=b'Z']) {
                Ok(())
            } else {
                Err(ArgError::NotAllowed { arg: p.name, value: show(v), allowed: vec!["kind.upper_letter".into()] })
            }
        }
        ParamKind::LetterOrNumber => match letter_or_number(v) {
            Some(_) => Ok(()),
            None => {
                Err(ArgError::NotAllowed { arg: p.name, value: show(v), allowed: vec!["kind.letter".into(), "kind.number_1_26".into()] })
            }
        },
        ParamKind::LineKey => {
            let s = v.as_str().ok_or_else(|| wrong("kind.line_key_string"))?;
            crate::matching::line_key::LineKey::parse(s).map(|_| ()).map_err(|_| ArgError::NotAllowed {
                arg: p.name,
                value: show(v),
                allowed: vec!["kind.line_key".into()],
            })
        }
        ParamKind::IntegerList { min, max } => {
            let items = v.as_array().ok_or_else(|| wrong("kind.integer_list"))?;
            if items.is_empty() || items.len() > max {
                return Err(ArgError::ListSize { arg: p.name, value: show(v), max });
            }
            for item in items {
                if item.as_f64().is_some_and(|f| f.fract() == 0.0 && f > MAX_INTEGER_ARG as f64) {
                    return Err(ArgError::AboveMaximum { arg: p.name, value: show(item), max: MAX_INTEGER_ARG });
                }
                let n = item.as_i64().ok_or_else(|| ArgError::WrongItem { arg: p.name, expected: "kind.integer_list", got: show(item) })?;
                if n < min {
                    return Err(ArgError::BelowMinimum { arg: p.name, value: n, min });
                }
            }
            Ok(())
        }
        ParamKind::OneOf(values) => {
            let s = v.as_str().ok_or_else(|| wrong("kind.string"))?;
            if values.contains(&s) {
                Ok(())
            } else {
                Err(ArgError::NotAllowed { arg: p.name, value: show(v), allowed: values.iter().map(|x| format!("\"{x}\"")).collect() })
            }
        }
    }
}

/// `"B"` → 1, `2` → 1, `"2"` → 1; anything else (`"b"`, `0`, `27`) → `None`.
fn letter_or_number(v: &Value) -> Option<usize> {
    let n = match v {
        Value::String(s) => match s.as_bytes() {
            [b @ b'A'..=b'Z'] => return Some(usize::from(b - b'A')),
            _ => s.trim().parse::<u64>().ok()?,
        },
        Value::Number(n) => n.as_u64()?,
        _ => return None,
    };
    (1..=26).contains(&n).then(|| n as usize - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_in_tool_order() {
        for t in Tool::ALL {
            assert_eq!(t.spec().tool, t);
        }
    }

    #[test]
    fn names_follow_the_prefix() {
        assert_eq!(Tool::from_name("memo", "memo_replace"), Some(Tool::Replace));
        assert_eq!(Tool::from_name("memory_notebook", "memory_notebook_commit"), Some(Tool::Commit));
        assert_eq!(Tool::from_name("memo", "memoreplace"), None);
        assert_eq!(Tool::from_name("memo", "memo_"), None);
    }

    #[test]
    fn schema_lists_required_and_forbids_extras() {
        let s = Tool::Replace.input_schema();
        assert_eq!(s["required"], json!(["old_text", "new_text"]));
        assert_eq!(s["additionalProperties"], json!(false));
        assert_eq!(s["properties"]["match_id"]["enum"][25], json!("Z"));
    }

    #[test]
    fn argument_errors_name_the_argument_and_value() {
        let e = parse_call("memo", "memo_replace", &json!({"old_text": 5, "new_text": "x"})).unwrap_err();
        assert_eq!(e.to_string(), "argument `old_text` must be a string, got number 5");
        let e = parse_call("memo", "memo_replace", &json!({"old_text": "a"})).unwrap_err();
        assert_eq!(e.to_string(), "missing required argument `new_text` for memo_replace");
        let e = parse_call("memo", "memo_replace", &json!({"old_text": "a", "new_text": "b", "oldText": 1})).unwrap_err();
        assert!(e.to_string().starts_with("unknown argument `oldText` for memo_replace; its arguments are: old_text, new_text"));
        let e = parse_call("memo", "memo_replace", &json!({"old_text": "a", "new_text": "b", "match_id": "b"})).unwrap_err();
        assert!(e.to_string().contains("`match_id` must be one of \"A\"–\"Z\" (upper case), got string \"b\""));
        let e = parse_call("memo", "memo_read", &json!({"start_line": 0})).unwrap_err();
        assert_eq!(e.to_string(), "argument `start_line` must be at least 1, got 0");
        let e = parse_call("memo", "memo_nope", &json!({})).unwrap_err();
        assert!(e.to_string().starts_with("unknown tool `memo_nope`; the tools are: memo_read, memo_replace"));
        let e = parse_call("memo", "memo_read", &json!([1])).unwrap_err();
        assert_eq!(e.to_string(), "arguments must be a JSON object of named arguments, got array [1]");
    }

    #[test]
    fn selection_ids_are_letters_or_their_numbers() {
        for (v, want) in [(json!("A"), Some(0)), (json!("Z"), Some(25)), (json!(1), Some(0)), (json!("26"), Some(25))] {
            assert_eq!(letter_or_number(&v), want, "{v}");
        }
        for v in [json!("a"), json!(0), json!(27), json!("AB"), json!(1.5), json!(-1), json!(true)] {
            assert_eq!(letter_or_number(&v), None, "{v}");
        }
        let e = parse_call("memo", "memo_replace_selection", &json!({"selection_id": 27})).unwrap_err();
        assert!(e.to_string().contains("`selection_id` must be one of a letter \"A\"–\"Z\", a number 1–26, got number 27"), "{e}");
        let e = parse_call("memo", "memo_replace_lines", &json!({"start_key": "12", "new_text": ""})).unwrap_err();
        assert!(e.to_string().contains("`start_key`"), "{e}");
    }

    #[test]
    fn null_reads_as_absent() {
        let (_, a) = parse_call("memo", "memo_replace", &json!({"old_text": "a", "new_text": "b", "match_id": null})).unwrap();
        assert_eq!(a.str("match_id"), None);
        assert!(parse_call("memo", "memo_replace", &json!({"old_text": null, "new_text": "b"})).is_err());
        assert!(parse_call("memo", "memo_preview", &Value::Null).is_ok());
    }
}
