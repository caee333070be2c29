//! The workspace options, declared once: [`OPTIONS`] holds each option's name, the values it
//! takes, its default and what it does, and [`Config::from_json`] reads options through it. The
//! TypeScript option type and the package's list of option names (www/src/generated/options.ts),
//! the MCP server's flags and the table in docs/options.md are rendered from the same rows
//! (src/typescript.rs), so an option added here is known everywhere and cannot drift.

use serde_json::Value;

use super::{read, WorkspaceError};
use crate::format::{CandidateStyle, Locale, RenderOptions};
use crate::preview::PreviewMode;
use crate::workflow::PersistMode;

/// Workspace options (the JS `Workspace.create` options, snake_case). What each does: [`OPTIONS`].
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The document tools work on when no `path` is given; default: the first one opened.
    pub default_path: Option<String>,
    pub locale: Locale,
    /// How the Markdown lists candidates: one line each (default) or a table (docs/responses.md#candidates).
    pub candidate_style: CandidateStyle,
    /// Tool names are `{tool_prefix}_{verb}`; `memory_notebook` gives `memory_notebook_replace` and so on.
    pub tool_prefix: String,
    pub persist_mode: PersistMode,
    /// Near misses at or above this similarity become lettered candidates (docs/architecture.md#matching).
    pub near_match_threshold: f64,
    /// Preview size unit (default 500): a failed match shows documents shorter than
    /// four times this whole.
    pub max_preview_length: usize,
    /// Deepest task nesting `memo_begin_task` allows (default 3).
    pub max_task_depth: usize,
    /// How staged edits are previewed, and `memo_preview`'s default (compact).
    pub preview_mode: PreviewMode,
    /// Lines of context around each change in previews (default 3).
    pub preview_context_lines: usize,
    /// Offer `memo_recall_context` and `memo_search_memory` (docs/workflow.md#memory-store: the
    /// memory module is optional; default off).
    pub memory: bool,
    /// Move pending changes onto an external change that does not overlap them instead of
    /// reporting `ExternalConflict` (docs/co-editing.md §Automatic rebase; default off).
    pub auto_rebase: bool,
    /// What one `memo_read` returns at most (docs/reliability.md §Matching time and read size):
    /// lines, chars of text, and chars of one line (longer lines are clipped with a marker).
    pub read_limits: read::ReadLimits,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            default_path: None,
            locale: Locale::En,
            candidate_style: CandidateStyle::List,
            tool_prefix: "memo".into(),
            persist_mode: PersistMode::Manual,
            near_match_threshold: 0.8,
            max_preview_length: 500,
            max_task_depth: crate::tasks::DEFAULT_MAX_DEPTH,
            preview_mode: PreviewMode::Compact,
            preview_context_lines: crate::preview::DEFAULT_CONTEXT_LINES,
            memory: false,
            auto_rebase: false,
            read_limits: read::ReadLimits::default(),
        }
    }
}

/// The values an option takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionKind {
    /// One of these words.
    Word(&'static [&'static str]),
    /// A whole number from `min` to `max`.
    Whole { min: u64, max: u64 },
    /// A number above 0 and at most 1.
    Share,
    /// `true` or `false`.
    Flag,
    /// A non-empty string of ASCII letters, digits and `_`.
    Name,
    /// A non-empty string.
    Text,
}

/// A value read for an option, checked against its [`OptionKind`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionValue<'a> {
    Word(&'a str),
    Whole(usize),
    Number(f64),
    Flag(bool),
    Text(&'a str),
}

/// One option: everything every place that names it needs.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The key the core reads (snake_case); the JS API and the docs name it in camelCase, the
    /// MCP server as `--kebab-case`.
    pub name: &'static str,
    pub kind: OptionKind,
    /// The default as the docs write it (a JSON value, or words when it depends on something).
    pub default: &'static str,
    /// What it does, for the docs table, the TypeScript doc comment and `agentpad-mcp --help`.
    pub doc: &'static str,
    /// Whether `agentpad-mcp` offers it as a flag.
    pub mcp: bool,
    /// Stores a value that fits the kind (words of a [`OptionKind::Word`] are its listed ones).
    set: fn(&mut Config, OptionValue<'_>),
}

/// Every option, in the order the docs list them.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "default_path",
        kind: OptionKind::Text,
        default: "the first path opened",
        doc: "The document tools work on when a call names no `path`.",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Text(s) = v {
                c.default_path = Some(s.to_string());
            }
        },
    },
    OptionSpec {
        name: "locale",
        kind: OptionKind::Word(&crate::locale::LOCALE_NAMES),
        default: "\"en\"",
        doc: "The language of the responses.",
        mcp: true,
        set: |c, v| {
            if let Some(locale) = word(v).and_then(Locale::parse) {
                c.locale = locale;
            }
        },
    },
    OptionSpec {
        name: "candidate_style",
        kind: OptionKind::Word(&["table", "list"]),
        default: "\"list\"",
        doc: "How the Markdown lists candidates: one line each (\"- [B] line 45: `api.timeout: 30` ← recommended\") or a table (Id, MarkerStart, MarkerEnd, Preview, Occurrence, ContextStart, ContextEnd, Line, Recommended, Quality).",
        mcp: true,
        set: |c, v| {
            if let Some(style) = word(v).and_then(CandidateStyle::parse) {
                c.candidate_style = style;
            }
        },
    },
    OptionSpec {
        name: "tool_prefix",
        kind: OptionKind::Name,
        default: "\"memo\"",
        doc: "Tool names are `<prefix>_<verb>`.",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Text(s) = v {
                c.tool_prefix = s.to_string();
            }
        },
    },
    OptionSpec {
        name: "persist_mode",
        kind: OptionKind::Word(&["manual", "immediate", "disabled"]),
        default: "\"manual\"",
        doc: "When changes reach storage: manual (a commit writes), immediate (every edit writes), disabled (nothing is written).",
        mcp: true,
        set: |c, v| {
            if let Some(mode) = word(v).and_then(PersistMode::parse) {
                c.persist_mode = mode;
            }
        },
    },
    OptionSpec {
        name: "near_match_threshold",
        kind: OptionKind::Share,
        default: "0.8",
        doc: "Similarity from which a near miss after `NoMatch` is offered as a lettered candidate (`match_quality: \"similar:0.92\"`) that `memo_replace_selection` can stage.",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Number(t) = v {
                c.near_match_threshold = t;
            }
        },
    },
    OptionSpec {
        name: "max_preview_length",
        kind: OptionKind::Whole { min: 1, max: 1_000_000 },
        default: "500",
        doc: "Preview size cap in characters; a `NoMatch` shows the whole document when it is shorter than four times this.",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Whole(n) = v {
                c.max_preview_length = n;
            }
        },
    },
    OptionSpec {
        name: "max_task_depth",
        kind: OptionKind::Whole { min: 1, max: 16 },
        default: "3",
        doc: "Deepest task nesting `memo_begin_task` allows.",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Whole(n) = v {
                c.max_task_depth = n;
            }
        },
    },
    OptionSpec {
        name: "preview_mode",
        kind: OptionKind::Word(&["compact", "full", "stats", "diff"]),
        default: "\"compact\"",
        doc: "How staged edits are previewed, and `memo_preview`'s default.",
        mcp: true,
        set: |c, v| {
            if let Some(mode) = word(v).and_then(PreviewMode::parse) {
                c.preview_mode = mode;
            }
        },
    },
    OptionSpec {
        name: "preview_context_lines",
        kind: OptionKind::Whole { min: 0, max: 100 },
        default: "3",
        doc: "Lines of context around each change in previews.",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Whole(n) = v {
                c.preview_context_lines = n;
            }
        },
    },
    OptionSpec {
        name: "memory",
        kind: OptionKind::Flag,
        default: "false",
        doc: "Offer `memo_recall_context` and `memo_search_memory` over the host's memory store (docs/workflow.md#memory-store); the live context shows the memory digest either way.",
        // The MCP server has no memory store to fill.
        mcp: false,
        set: |c, v| {
            if let OptionValue::Flag(on) = v {
                c.memory = on;
            }
        },
    },
    OptionSpec {
        name: "auto_rebase",
        kind: OptionKind::Flag,
        default: "false (true for a storage that reports exact changes, such as a Yjs one)",
        doc: "When storage changes under pending changes and the change overlaps none of them, move them onto it (the next summary says so) instead of reporting `ExternalConflict`; only an overlap is a conflict (docs/co-editing.md §Automatic rebase).",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Flag(on) = v {
                c.auto_rebase = on;
            }
        },
    },
    OptionSpec {
        name: "max_read_lines",
        kind: OptionKind::Whole { min: read::ReadLimits::MIN, max: read::ReadLimits::MAX },
        default: "2000",
        doc: "Most lines one `memo_read` returns; the response names the call that reads on (docs/reliability.md §Matching time and read size).",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Whole(n) = v {
                c.read_limits.lines = n;
            }
        },
    },
    OptionSpec {
        name: "max_read_chars",
        kind: OptionKind::Whole { min: read::ReadLimits::MIN, max: read::ReadLimits::MAX },
        default: "100000",
        doc: "Most characters of document text one `memo_read` returns, gutters not counted (about 25,000 tokens by default).",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Whole(n) = v {
                c.read_limits.chars = n;
            }
        },
    },
    OptionSpec {
        name: "max_read_line_chars",
        kind: OptionKind::Whole { min: read::ReadLimits::MIN, max: read::ReadLimits::MAX },
        default: "10000",
        doc: "Most characters shown of one line; the rest is replaced by a marker saying how much was left out.",
        mcp: true,
        set: |c, v| {
            if let OptionValue::Whole(n) = v {
                c.read_limits.line_chars = n;
            }
        },
    },
];

fn word(v: OptionValue<'_>) -> Option<&str> {
    match v {
        OptionValue::Word(w) => Some(w),
        _ => None,
    }
}

impl OptionKind {
    /// `v` as this kind takes it, or `None` when it does not fit. Cost: O(listed words).
    pub fn read<'a>(&self, v: &'a Value) -> Option<OptionValue<'a>> {
        match *self {
            OptionKind::Word(words) => v.as_str().filter(|s| words.contains(s)).map(OptionValue::Word),
            OptionKind::Whole { min, max } => v.as_u64().filter(|n| (min..=max).contains(n)).map(|n| OptionValue::Whole(n as usize)),
            OptionKind::Share => v.as_f64().filter(|t| *t > 0.0 && *t <= 1.0).map(OptionValue::Number),
            OptionKind::Flag => v.as_bool().map(OptionValue::Flag),
            OptionKind::Name => {
                v.as_str().filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).map(OptionValue::Text)
            }
            OptionKind::Text => v.as_str().filter(|s| !s.is_empty()).map(OptionValue::Text),
        }
    }

    /// What the kind allows, as a refusal says it: `"en" or "zh"`, `a whole number from 1 to 16
    /// (default 3)`. Cost: O(listed words).
    pub fn allowed(&self, default: &str) -> String {
        match *self {
            OptionKind::Word(words) => crate::locale::quoted_or(words),
            OptionKind::Whole { min, max } => format!("a whole number from {min} to {max} (default {default})"),
            OptionKind::Share => format!("a number above 0 and at most 1 (default {default})"),
            OptionKind::Flag => format!("true or false (default {default})"),
            OptionKind::Name => "a non-empty string of ASCII letters, digits and _".into(),
            OptionKind::Text => "a non-empty string".into(),
        }
    }
}

impl Config {
    /// Reads options from a JSON object with snake_case keys ([`OPTIONS`]); `null` values keep
    /// the default. Unknown keys are refused so that a typo does not silently fall back to a
    /// default. Errors: [`WorkspaceError::BadOption`] naming the key, the value and what is
    /// allowed. Cost: O(keys × options).
    pub fn from_json(v: &Value) -> Result<Config, WorkspaceError> {
        let mut c = Config::default();
        let Some(map) = v.as_object() else {
            if v.is_null() {
                return Ok(c);
            }
            return Err(bad("options", v, "an object".into()));
        };
        for (key, value) in map {
            if value.is_null() {
                continue;
            }
            let Some(spec) = OPTIONS.iter().find(|o| o.name == key) else {
                let known: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
                return Err(bad(key, value, format!("one of the known options: {}", known.join(", "))));
            };
            let Some(read) = spec.kind.read(value) else { return Err(bad(key, value, spec.kind.allowed(spec.default))) };
            (spec.set)(&mut c, read);
        }
        Ok(c)
    }

    /// What the Markdown views are rendered with.
    pub(crate) fn render_options(&self) -> RenderOptions {
        RenderOptions { locale: self.locale, candidate_style: self.candidate_style }
    }
}

fn bad(option: &str, value: &Value, allowed: String) -> WorkspaceError {
    WorkspaceError::BadOption { option: option.to_string(), value: value.to_string(), allowed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A value of the option's kind other than its default, to see it land.
    fn sample(spec: &OptionSpec) -> Value {
        match spec.kind {
            OptionKind::Word(words) => json!(words.iter().find(|w| format!("\"{w}\"") != spec.default).copied().unwrap_or_default()),
            OptionKind::Whole { min, max } => json!(min.max(max.min(7))),
            OptionKind::Share => json!(0.5),
            OptionKind::Flag => json!(true),
            OptionKind::Name => json!("doc"),
            OptionKind::Text => json!("b.md"),
        }
    }

    #[test]
    fn every_option_reads_a_value_of_its_kind_and_changes_the_config() {
        for spec in OPTIONS {
            let c = Config::from_json(&json!({ spec.name: sample(spec) })).unwrap();
            assert_ne!(c, Config::default(), "{} did not change the config", spec.name);
        }
    }

    #[test]
    fn every_listed_word_is_one_the_config_takes_and_each_variant_is_listed() {
        for spec in OPTIONS {
            if let OptionKind::Word(words) = spec.kind {
                let set: std::collections::HashSet<String> =
                    words.iter().map(|w| format!("{:?}", Config::from_json(&json!({ spec.name: w })).unwrap())).collect();
                assert_eq!(set.len(), words.len(), "{}: two words set the same value", spec.name);
            }
        }
        let listed = |name: &str| match OPTIONS.iter().find(|o| o.name == name).map(|o| o.kind) {
            Some(OptionKind::Word(words)) => words.to_vec(),
            _ => Vec::new(),
        };
        for mode in PreviewMode::ALL {
            assert!(listed("preview_mode").contains(&mode.as_str()), "{mode:?}");
        }
        for style in [CandidateStyle::Table, CandidateStyle::List] {
            assert!(listed("candidate_style").contains(&style.as_str()), "{style:?}");
        }
        for locale in Locale::all() {
            assert!(listed("locale").contains(&locale.as_str()), "{locale:?}");
        }
    }

    #[test]
    fn a_value_outside_its_kind_is_refused_naming_what_is_allowed() {
        let e = Config::from_json(&json!({"locale": "fr"})).unwrap_err().to_string();
        // The locales are named from their list (src/locale.rs), so a new one changes no test.
        assert_eq!(e, format!("option `locale` must be {}, got \"fr\"", crate::locale::quoted_or(&crate::locale::LOCALE_NAMES)));
        assert!(e.starts_with("option `locale` must be \"en\""), "{e}");
        let e = Config::from_json(&json!({"persist_mode": 1})).unwrap_err().to_string();
        assert_eq!(e, "option `persist_mode` must be \"manual\", \"immediate\" or \"disabled\", got 1");
        let e = Config::from_json(&json!({"max_task_depth": 17})).unwrap_err().to_string();
        assert_eq!(e, "option `max_task_depth` must be a whole number from 1 to 16 (default 3), got 17");
        let e = Config::from_json(&json!({"near_match_threshold": 0})).unwrap_err().to_string();
        assert_eq!(e, "option `near_match_threshold` must be a number above 0 and at most 1 (default 0.8), got 0");
        let e = Config::from_json(&json!({"tool_prefix": "a-b"})).unwrap_err().to_string();
        assert!(e.ends_with("must be a non-empty string of ASCII letters, digits and _, got \"a-b\""), "{e}");
        let e = Config::from_json(&json!({"previewMode": "full"})).unwrap_err().to_string();
        assert!(e.starts_with("option `previewMode` must be one of the known options: default_path, locale, "), "{e}");
        assert_eq!(Config::from_json(&json!({"locale": null})).unwrap(), Config::default());
    }

    #[test]
    fn each_key_lands_in_its_own_field() {
        let every = json!({
            "default_path": "b.md", "locale": "zh", "candidate_style": "table", "tool_prefix": "doc",
            "persist_mode": "immediate", "near_match_threshold": 0.5, "max_preview_length": 77, "max_task_depth": 9,
            "preview_mode": "diff", "preview_context_lines": 7, "memory": true, "auto_rebase": true,
            "max_read_lines": 11, "max_read_chars": 12, "max_read_line_chars": 13,
        });
        let keys: Vec<&str> = every.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, OPTIONS.iter().map(|o| o.name).collect::<Vec<_>>(), "a new option needs a value here");
        let expected = Config {
            default_path: Some("b.md".into()),
            locale: Locale::Zh,
            candidate_style: CandidateStyle::Table,
            tool_prefix: "doc".into(),
            persist_mode: PersistMode::Immediate,
            near_match_threshold: 0.5,
            max_preview_length: 77,
            max_task_depth: 9,
            preview_mode: PreviewMode::Diff,
            preview_context_lines: 7,
            memory: true,
            auto_rebase: true,
            read_limits: read::ReadLimits { lines: 11, chars: 12, line_chars: 13 },
        };
        assert_eq!(Config::from_json(&every).unwrap(), expected);
    }
}
