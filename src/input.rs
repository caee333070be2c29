//! [`InputError`]: why a reader of the host's JSON (live context options, an editor state, a
//! memory turn, diagnostics categories, storage reports) refused it. It names the key, the bad
//! value and what is allowed, so a message can guide the fix.

use std::fmt;

/// Most chars of a bad value quoted in a message.
const MAX_SHOWN_CHARS: usize = 80;

/// A JSON input the host gave that a reader refused; nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// `key` holds `got`, where `expected` is allowed. An empty `key` is the input itself,
    /// named by `what` (`"editor state"`).
    Invalid { what: &'static str, key: String, expected: String, got: String },
    /// A key (or list entry) the reader does not know; `known` names the ones it reads.
    Unknown { what: &'static str, key: String, known: String },
    /// A required key is absent; `expected` is what it must hold.
    Missing { what: String, key: &'static str, expected: &'static str },
}

impl InputError {
    /// [`InputError::Invalid`] for `key` of `what`, quoting `got` as JSON (cut to 80 chars).
    pub fn invalid(what: &'static str, key: impl Into<String>, expected: impl Into<String>, got: &serde_json::Value) -> InputError {
        InputError::Invalid { what, key: key.into(), expected: expected.into(), got: shown(got) }
    }
}

/// `v` as compact JSON, cut to [`MAX_SHOWN_CHARS`] chars with `…`.
fn shown(v: &serde_json::Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(MAX_SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", s.get(..cut).unwrap_or_default()),
        None => s,
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Invalid { what, key, expected, got } if key.is_empty() => write!(f, "{what} must be {expected}, got {got}"),
            InputError::Invalid { key, expected, got, .. } => write!(f, "`{key}` must be {expected}, got {got}"),
            InputError::Unknown { what, key, known } => write!(f, "unknown {what} `{key}`; {known}"),
            InputError::Missing { what, key, expected } => write!(f, "{what} has no `{key}` ({expected})"),
        }
    }
}

impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_name_the_key_the_value_and_the_limit() {
        let e = InputError::invalid("live context options", "recent_diffs", "a whole number from 0 to 32", &json!(-1));
        assert_eq!(e.to_string(), "`recent_diffs` must be a whole number from 0 to 32, got -1");
        let e = InputError::invalid("editor state", "", "an object", &json!(null));
        assert_eq!(e.to_string(), "editor state must be an object, got null");
        let long = InputError::invalid("turn", "summary", "a string", &json!(["x".repeat(200)]));
        assert!(long.to_string().ends_with("…"), "{long}");
        assert!(long.to_string().chars().count() < 140, "{long}");
        let e = InputError::Missing { what: "persist result 2".into(), key: "path", expected: "a string" };
        assert_eq!(e.to_string(), "persist result 2 has no `path` (a string)");
    }
}
