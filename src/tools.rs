//! Tool arguments (docs/tools.md): the kinds a parameter takes, one struct per tool declared
//! with [`tool_args!`] — the single source of the tool's JSON Schema, of its generated
//! TypeScript `ToolArgs` type and of the typed value its handler receives — and the checking of
//! a call's arguments against those parameters.
//!
//! The tools themselves (name, description, the states they are offered in, the handler) are
//! rows of the registry in src/workspace/registry.rs. Bad arguments never reach the workspace:
//! they become an [`ArgError`] that names the argument, the value and what is allowed.

use std::fmt;

use crate::locale::{Locale, Words};
use serde::Serialize;
use serde_json::{json, Map, Value};

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

/// A parameter's kind and description, before its field names it (shared by several tools,
/// like [`PATH`]).
pub type ParamDoc = (ParamKind, &'static str);

impl Param {
    /// The parameter of field `name`, required when its type says so ([`ArgValue::REQUIRED`]).
    pub const fn of(name: &'static str, required: bool, doc: ParamDoc) -> Param {
        Param { name, kind: doc.0, required, description: doc.1 }
    }
}

/// What Rust type a [`ParamKind`] is read into: a field's type and its kind must agree (a const
/// assertion of [`tool_args!`] checks each field at compile time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    Str,
    Bool,
    Int,
    IntList,
    Choice,
}

impl ParamKind {
    pub const fn value_type(self) -> ValueType {
        match self {
            ParamKind::String | ParamKind::Letter | ParamKind::LineKey | ParamKind::OneOf(_) => ValueType::Str,
            ParamKind::Boolean => ValueType::Bool,
            ParamKind::Integer { .. } => ValueType::Int,
            ParamKind::IntegerList { .. } => ValueType::IntList,
            ParamKind::LetterOrNumber => ValueType::Choice,
        }
    }
}

/// A field type of a tool's arguments: whether the parameter is required, and how a checked
/// value is read (absent, for an optional one, is `None`).
pub trait ArgValue: Sized {
    const REQUIRED: bool;
    const TYPE: ValueType;
    /// The value of a checked argument (`None`: not given). O(size of the value).
    fn read(v: Option<&Value>) -> Self;
}

impl ArgValue for String {
    const REQUIRED: bool = true;
    const TYPE: ValueType = ValueType::Str;
    fn read(v: Option<&Value>) -> Self {
        v.and_then(Value::as_str).unwrap_or_default().to_string()
    }
}

impl ArgValue for Option<String> {
    const REQUIRED: bool = false;
    const TYPE: ValueType = ValueType::Str;
    fn read(v: Option<&Value>) -> Self {
        v.and_then(Value::as_str).map(str::to_string)
    }
}

impl ArgValue for Option<bool> {
    const REQUIRED: bool = false;
    const TYPE: ValueType = ValueType::Bool;
    fn read(v: Option<&Value>) -> Self {
        v.and_then(Value::as_bool)
    }
}

impl ArgValue for Option<i64> {
    const REQUIRED: bool = false;
    const TYPE: ValueType = ValueType::Int;
    fn read(v: Option<&Value>) -> Self {
        v.and_then(Value::as_i64)
    }
}

/// A [`ParamKind::IntegerList`] (checked: every item a whole number ≥ its `min`).
impl ArgValue for Vec<i64> {
    const REQUIRED: bool = true;
    const TYPE: ValueType = ValueType::IntList;
    fn read(v: Option<&Value>) -> Self {
        v.and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_i64).collect()).unwrap_or_default()
    }
}

/// A [`ParamKind::LetterOrNumber`] argument as a candidate index (0 for `"A"` or `1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Choice(pub usize);

impl ArgValue for Choice {
    const REQUIRED: bool = true;
    const TYPE: ValueType = ValueType::Choice;
    fn read(v: Option<&Value>) -> Self {
        Choice(v.and_then(letter_or_number).unwrap_or(usize::MAX))
    }
}

/// A tool's arguments as a struct: its parameters (schema, TypeScript type, checking) and the
/// reading of checked arguments into it.
pub trait ToolArgs: Sized {
    /// The parameters in schema order, one per field.
    const PARAMS: &'static [Param];
    /// The struct of arguments that passed [`check_args`] against [`ToolArgs::PARAMS`].
    fn from_checked(args: &Map<String, Value>) -> Self;
}

/// Declares a tool's argument struct: each field `name: Type = (kind, description)` (or a
/// shared [`ParamDoc`] like [`PATH`]) is one parameter, in schema order; `Option<_>` fields are
/// optional. A hand-rolled reader instead of a serde derive: a derived `Deserialize` per struct
/// costs wasm bytes (docs/decisions.md#tool-registry-rows).
macro_rules! tool_args {
    ($(#[$meta:meta])* $vis:vis struct $name:ident { $($field:ident : $ty:ty = $doc:expr,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        $vis struct $name {
            $(pub $field: $ty,)*
        }

        impl $crate::tools::ToolArgs for $name {
            const PARAMS: &'static [$crate::tools::Param] = &[
                $($crate::tools::Param::of(stringify!($field), <$ty as $crate::tools::ArgValue>::REQUIRED, $doc),)*
            ];
            #[allow(unused_variables)]
            fn from_checked(args: &serde_json::Map<String, serde_json::Value>) -> Self {
                $name { $($field: $crate::tools::ArgValue::read(args.get(stringify!($field))),)* }
            }
        }

        // Each field's type reads its kind's values.
        $(const _: () = assert!(
            ($doc).0.value_type() as u8 == <$ty as $crate::tools::ArgValue>::TYPE as u8,
            concat!("the type of `", stringify!($field), "` does not read its parameter kind")
        );)*
    };
}
pub(crate) use tool_args;

pub const PATH: ParamDoc = (ParamKind::String, "Document to work on; defaults to the workspace's default document.");

pub const EXPECTED_FINGERPRINT: ParamDoc =
    (ParamKind::String, "Fingerprint from your last read; if the draft changed since, nothing is edited and you get StaleReference.");

pub const SEARCH_AFTER: ParamDoc =
    (ParamKind::String, "Only count matches that start after the first occurrence of this text (e.g. a heading).");

pub const MATCH_ID: ParamDoc = (ParamKind::Letter, "Letter of the candidate to stage when the text matches several places.");

pub const WITHIN: ParamDoc = (ParamKind::Letter, "Search only inside this unit of the last memo_find, like \"A\".");

pub const PREVIEW_ONLY: ParamDoc = (ParamKind::Boolean, "Show what would be staged without staging it.");

/// Most turns one `memo_recall_context` call may name: each comes back whole.
pub const MAX_RECALL_TURNS: usize = 10;

/// JSON Schema (draft 2020-12 subset every LLM SDK accepts) of arguments with these `params`.
pub fn input_schema(params: &[Param]) -> Value {
    let mut props = Map::new();
    for p in params {
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
    let required: Vec<&str> = params.iter().filter(|p| p.required).map(|p| p.name).collect();
    json!({ "type": "object", "properties": props, "required": required, "additionalProperties": false })
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

/// Checks `args` against the parameters of the tool called `tool_name`: every key a known
/// parameter of the right kind, every required one given; `null` values are dropped (read as
/// absent). `args` may be `null` (no arguments). Cost: O(size of args).
pub fn check_args(tool_name: String, params: &'static [Param], args: &Value) -> Result<Map<String, Value>, ArgError> {
    let empty = Map::new();
    let given = match args {
        Value::Null => &empty,
        Value::Object(map) => map,
        other => return Err(ArgError::NotAnObject { got: show(other) }),
    };
    let mut out = Map::new();
    for (key, value) in given {
        let Some(param) = params.iter().find(|p| p.name == key) else {
            return Err(ArgError::UnknownArgument { tool: tool_name, arg: key.clone(), allowed: params.iter().map(|p| p.name).collect() });
        };
        if value.is_null() {
            continue; // null reads as absent (OpenAI strict mode sends nulls for optional args)
        }
        check_kind(param, value)?;
        out.insert(key.clone(), value.clone());
    }
    if let Some(missing) = params.iter().find(|p| p.required && !out.contains_key(p.name)) {
        return Err(ArgError::Missing { tool: tool_name, arg: missing.name });
    }
    Ok(out)
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
    fn selection_ids_are_letters_or_their_numbers() {
        for (v, want) in [(json!("A"), Some(0)), (json!("Z"), Some(25)), (json!(1), Some(0)), (json!("26"), Some(25))] {
            assert_eq!(letter_or_number(&v), want, "{v}");
        }
        for v in [json!("a"), json!(0), json!(27), json!("AB"), json!(1.5), json!(-1), json!(true)] {
            assert_eq!(letter_or_number(&v), None, "{v}");
        }
    }

    tool_args! {
        struct SampleArgs {
            text: String = (ParamKind::String, "t"),
            count: Option<i64> = (ParamKind::Integer { min: 1 }, "c"),
            pick: Choice = (ParamKind::LetterOrNumber, "p"),
            turns: Vec<i64> = (ParamKind::IntegerList { min: 1, max: 3 }, "n"),
        }
    }

    #[test]
    fn a_declared_struct_is_its_parameters_and_reads_checked_arguments() {
        let names: Vec<(&str, bool)> = SampleArgs::PARAMS.iter().map(|p| (p.name, p.required)).collect();
        assert_eq!(names, [("text", true), ("count", false), ("pick", true), ("turns", true)]);
        assert_eq!(input_schema(SampleArgs::PARAMS)["required"], json!(["text", "pick", "turns"]));
        let given = json!({"text": "a", "pick": "C", "turns": [2, 3], "count": null});
        let checked = check_args("t".into(), SampleArgs::PARAMS, &given).unwrap();
        let args = SampleArgs::from_checked(&checked);
        assert_eq!(args, SampleArgs { text: "a".into(), count: None, pick: Choice(2), turns: vec![2, 3] });
        let e = check_args("t".into(), SampleArgs::PARAMS, &json!({"text": "a", "pick": 1, "turns": [0]})).unwrap_err();
        assert_eq!(e, ArgError::BelowMinimum { arg: "turns", value: 0, min: 1 });
    }
}
