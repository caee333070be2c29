//! Tools: the registry of what an agent can call (DESIGN §3) — names, descriptions, the JSON
//! Schema of each tool's arguments, and the checking of a call's arguments against it.
//!
//! One table ([`Tool::spec`]) feeds both the schemas handed to LLM SDKs and the validation of
//! incoming calls, so the two cannot disagree. Bad arguments never reach the workspace: they
//! become an [`ArgError`] that names the argument, the value and what is allowed.

use std::fmt;

use serde::Serialize;
use serde_json::{json, Map, Value};

/// The tools of this slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Read,
    Replace,
    Preview,
    Commit,
    Revert,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    String,
    Boolean,
    /// A whole number ≥ `min`.
    Integer { min: i64 },
    /// One upper-case letter `A`–`Z`.
    Letter,
    /// One of the listed strings.
    OneOf(&'static [&'static str]),
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

const SPECS: [ToolSpec; 5] = [
    ToolSpec {
        tool: Tool::Read,
        verb: "read",
        description: "Read the document (the draft, with pending changes applied) with line-number gutters like `  12│ `. Returns its fingerprint.",
        params: &[
            Param { name: "start_line", kind: ParamKind::Integer { min: 1 }, required: false, description: "First line to show (1-based)." },
            Param { name: "end_line", kind: ParamKind::Integer { min: 1 }, required: false, description: "Last line to show (inclusive)." },
            Param { name: "line_numbers", kind: ParamKind::Boolean, required: false, description: "Show the `  12│ ` gutters (default true). Gutters copied into old_text are not part of the text." },
            Param { name: "view", kind: ParamKind::OneOf(&["draft", "committed"]), required: false, description: "`draft` (default: committed text plus pending changes) or `committed`." },
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::Replace,
        verb: "replace",
        description: "Replace an exact piece of text. One match: the edit is staged as a lettered pending change with a diff preview (nothing is saved until memo_commit). Several matches: you get lettered candidates A–E; call again with match_id to stage one. Empty old_text appends new_text at the end.",
        params: &[
            Param { name: "old_text", kind: ParamKind::String, required: true, description: "The exact text to replace, copied from the document without line-number gutters. Empty: append." },
            Param { name: "new_text", kind: ParamKind::String, required: true, description: "The text to put in its place." },
            Param { name: "match_id", kind: ParamKind::Letter, required: false, description: "Letter of the candidate to stage when old_text matches several places." },
            Param { name: "search_after", kind: ParamKind::String, required: false, description: "Only count matches after the first occurrence of this text (e.g. a heading)." },
            Param { name: "show_all_matches", kind: ParamKind::Boolean, required: false, description: "List every candidate (up to Z) instead of the first five." },
            Param { name: "preview_only", kind: ParamKind::Boolean, required: false, description: "Show what would be staged without staging it." },
            EXPECTED_FINGERPRINT,
            PATH,
        ],
    },
    ToolSpec {
        tool: Tool::Preview,
        verb: "preview",
        description: "Show the pending changes as a compact diff (changed lines with 3 lines of context).",
        params: &[PATH],
    },
    ToolSpec {
        tool: Tool::Commit,
        verb: "commit",
        description: "Apply all pending changes of all documents and save them. Ends the edit session; the summary is what the history keeps.",
        params: &[Param { name: "summary", kind: ParamKind::String, required: true, description: "One line saying what the changes do." }],
    },
    ToolSpec {
        tool: Tool::Revert,
        verb: "revert",
        description: "Drop all pending changes and end the edit session without saving.",
        params: &[Param { name: "reason", kind: ParamKind::String, required: true, description: "Why the changes are dropped." }],
    },
];

impl Tool {
    pub const ALL: [Tool; 5] = [Tool::Read, Tool::Replace, Tool::Preview, Tool::Commit, Tool::Revert];

    pub fn spec(self) -> &'static ToolSpec {
        // SPECS is in `Tool::ALL` order; the test below pins that.
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
                ParamKind::OneOf(values) => json!({ "type": "string", "enum": values }),
            };
            s["description"] = Value::from(p.description);
            props.insert(p.name.to_string(), s);
        }
        let required: Vec<&str> = spec.params.iter().filter(|p| p.required).map(|p| p.name).collect();
        json!({ "type": "object", "properties": props, "required": required, "additionalProperties": false })
    }

    pub fn definition(self, prefix: &str) -> ToolDefinition {
        ToolDefinition {
            name: self.name(prefix),
            description: self.spec().description.replace("memo_", &format!("{prefix}_")),
            input_schema: self.input_schema(),
        }
    }
}

fn letters() -> Vec<String> {
    (b'A'..=b'Z').map(|b| (b as char).to_string()).collect()
}

/// A tool as handed to an LLM SDK (the TypeScript package reshapes it per SDK).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

/// Why a call's name or arguments were refused. Every message names the argument, shows the
/// value, and says what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgError {
    UnknownTool { name: String, known: Vec<String> },
    NotAnObject { got: String },
    UnknownArgument { tool: String, arg: String, allowed: Vec<&'static str> },
    Missing { tool: String, arg: &'static str },
    WrongType { arg: &'static str, expected: &'static str, got: String },
    BelowMinimum { arg: &'static str, value: i64, min: i64 },
    NotAllowed { arg: &'static str, value: String, allowed: Vec<String> },
    /// A string (argument or key) held an unpaired UTF-16 surrogate (reported by the JS boundary).
    UnpairedSurrogate { arg: String, offset: usize },
    /// A value JSON cannot hold (a function, a symbol, NaN, a cycle…), reported by the JS boundary.
    NotJson { arg: String, got: String },
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::UnknownTool { name, known } => {
                write!(f, "unknown tool `{name}`; the tools are: {}", known.join(", "))
            }
            ArgError::NotAnObject { got } => {
                write!(f, "arguments must be a JSON object of named arguments, got {got}")
            }
            ArgError::UnknownArgument { tool, arg, allowed } => {
                write!(f, "unknown argument `{arg}` for {tool}; its arguments are: {}", allowed.join(", "))
            }
            ArgError::Missing { tool, arg } => write!(f, "missing required argument `{arg}` for {tool}"),
            ArgError::WrongType { arg, expected, got } => {
                write!(f, "argument `{arg}` must be {expected}, got {got}")
            }
            ArgError::BelowMinimum { arg, value, min } => {
                write!(f, "argument `{arg}` must be at least {min}, got {value}")
            }
            ArgError::NotAllowed { arg, value, allowed } => {
                write!(f, "argument `{arg}` must be one of {}, got {value}", allowed.join(", "))
            }
            ArgError::UnpairedSurrogate { arg, offset } => write!(
                f,
                "argument `{arg}` has an unpaired UTF-16 surrogate at UTF-16 offset {offset}; send well-formed text"
            ),
            ArgError::NotJson { arg, got } => write!(
                f,
                "argument `{arg}` must be a JSON value (string, number, boolean, null, array or object), got {got}"
            ),
        }
    }
}

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
    let mut text = v.to_string();
    if text.chars().count() > 40 {
        text = text.chars().take(40).collect::<String>() + "…";
    }
    format!("{kind} {text}")
}

/// Arguments that passed validation: every key is a known parameter of the right type; `null`
/// values were dropped (read as absent).
#[derive(Clone, Debug, Default)]
pub struct Args(Map<String, Value>);

impl Args {
    pub fn str(&self, name: &str) -> Option<&str> {
        self.0.get(name).and_then(Value::as_str)
    }

    pub fn bool(&self, name: &str) -> Option<bool> {
        self.0.get(name).and_then(Value::as_bool)
    }

    pub fn int(&self, name: &str) -> Option<i64> {
        self.0.get(name).and_then(Value::as_i64)
    }
}

/// Resolves `name` under `prefix` and checks `args` against the tool's schema.
/// `args` may be `null` (no arguments). Cost: O(size of args).
pub fn parse_call(prefix: &str, name: &str, args: &Value) -> Result<(Tool, Args), ArgError> {
    let tool = Tool::from_name(prefix, name).ok_or_else(|| ArgError::UnknownTool {
        name: name.to_string(),
        known: Tool::ALL.iter().map(|t| t.name(prefix)).collect(),
    })?;
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

fn check_kind(p: &Param, v: &Value) -> Result<(), ArgError> {
    let wrong = |expected: &'static str| ArgError::WrongType { arg: p.name, expected, got: show(v) };
    match p.kind {
        ParamKind::String => v.as_str().map(|_| ()).ok_or_else(|| wrong("a string")),
        ParamKind::Boolean => v.as_bool().map(|_| ()).ok_or_else(|| wrong("true or false")),
        ParamKind::Integer { min } => {
            let n = v.as_i64().ok_or_else(|| wrong("a whole number"))?;
            if n < min {
                Err(ArgError::BelowMinimum { arg: p.name, value: n, min })
            } else {
                Ok(())
            }
        }
        ParamKind::Letter => {
            let s = v.as_str().ok_or_else(|| wrong("a letter \"A\"–\"Z\""))?;
            if s.len() == 1 && s.as_bytes()[0].is_ascii_uppercase() {
                Ok(())
            } else {
                Err(ArgError::NotAllowed { arg: p.name, value: show(v), allowed: vec!["\"A\"–\"Z\" (upper case)".into()] })
            }
        }
        ParamKind::OneOf(values) => {
            let s = v.as_str().ok_or_else(|| wrong("a string"))?;
            if values.contains(&s) {
                Ok(())
            } else {
                Err(ArgError::NotAllowed {
                    arg: p.name,
                    value: show(v),
                    allowed: values.iter().map(|x| format!("\"{x}\"")).collect(),
                })
            }
        }
    }
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
    fn null_reads_as_absent() {
        let (_, a) = parse_call("memo", "memo_replace", &json!({"old_text": "a", "new_text": "b", "match_id": null})).unwrap();
        assert_eq!(a.str("match_id"), None);
        assert!(parse_call("memo", "memo_replace", &json!({"old_text": null, "new_text": "b"})).is_err());
        assert!(parse_call("memo", "memo_preview", &Value::Null).is_ok());
    }
}
