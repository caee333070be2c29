//! Diagnostics (docs/workflow.md#diagnostics): structured records of what the workspace decided,
//! by category, for the people debugging an agent — never for the model. Off by default; the host
//! enables categories (`diagnostics` option in JS, the `AGENTPAD_DEBUG` environment variable in
//! Node) and drains the records after each call. While any category is on, responses carry the
//! `DiagnosticHint` flag and say where to look.
//!
//! Plain data: the core fills `operation_id`, category, status, state, flags, the error and a
//! small JSON `detail`; the time the call took is the host's to add (the core reads no clock).

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::input::InputError;
use crate::small_map::SmallSet;

/// The four categories (docs/workflow.md#diagnostics).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "DiagnosticCategory"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Category {
    /// Every search: needle, tier, match positions, the draft's fingerprint, the selection.
    #[serde(rename = "TextEdit.MatchTrace")]
    MatchTrace,
    /// Commits, compensating writes, `persist_as`: paths, versions, results, errors.
    #[serde(rename = "TextEdit.Persistence")]
    Persistence,
    /// Storage changes reported by the host and what the workspace did with them.
    #[serde(rename = "TextEdit.External")]
    External,
    /// A response whose Markdown failed the validator (a defect of ours).
    #[serde(rename = "TextEdit.Schema")]
    Schema,
}

impl Category {
    pub const ALL: [Category; 4] = [Category::MatchTrace, Category::Persistence, Category::External, Category::Schema];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::MatchTrace => "TextEdit.MatchTrace",
            Category::Persistence => "TextEdit.Persistence",
            Category::External => "TextEdit.External",
            Category::Schema => "TextEdit.Schema",
        }
    }

    /// `TextEdit.MatchTrace` or its short form `MatchTrace` (any case).
    pub fn parse(s: &str) -> Option<Category> {
        let s = s.trim();
        let short = s.strip_prefix("TextEdit.").unwrap_or(s);
        Category::ALL.into_iter().find(|c| c.as_str().strip_prefix("TextEdit.").is_some_and(|name| name.eq_ignore_ascii_case(short)))
    }

    /// A list like `AGENTPAD_DEBUG`'s: names separated by commas or spaces; `*` or `all`
    /// for every category; each category once. Errors name the
    /// unknown entry and the known ones. O(length of `s`).
    pub fn parse_list(s: &str) -> Result<Vec<Category>, InputError> {
        let mut out = SmallSet::new();
        for part in s.split([',', ' ', ';']).map(str::trim).filter(|p| !p.is_empty()) {
            if part == "*" || part.eq_ignore_ascii_case("all") {
                out.extend(Category::ALL);
                continue;
            }
            match Category::parse(part) {
                Some(c) => {
                    out.insert(c);
                }
                None => {
                    let known: Vec<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
                    return Err(InputError::Unknown {
                        what: "diagnostics category",
                        key: part.to_string(),
                        known: format!("the categories are {} (or `all`)", known.join(", ")),
                    });
                }
            }
        }
        Ok(out.into_iter().collect())
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One diagnostics record.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "DiagnosticRecord"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    /// The call it belongs to: `op-<n>`, n counting the workspace's calls from 1.
    pub operation_id: String,
    pub category: Category,
    /// The tool (or `storage_changed`) that produced it.
    pub operation: String,
    /// Final status of the call, state and flag names after it (filled when the call ends).
    #[cfg_attr(test, ts(as = "Option<crate::response::Status>"))]
    pub status: Option<String>,
    #[cfg_attr(test, ts(as = "Option<crate::workflow::WorkflowState>"))]
    pub state: Option<String>,
    pub flags: Vec<String>,
    /// What went wrong, if anything.
    pub error: Option<String>,
    /// Category-specific facts (see [`Category`]).
    #[cfg_attr(test, ts(type = "unknown"))]
    pub detail: Value,
    /// Set by the host, which has the clock.
    pub duration_ms: Option<f64>,
}

/// The enabled categories and the records of calls not yet drained by the host.
#[derive(Clone, Debug, Default)]
pub(crate) struct Diagnostics {
    enabled: SmallSet<Category>,
    records: Vec<Record>,
    /// Records of the call under way start here (they get its status when it ends).
    open_from: usize,
}

/// Undrained records kept at most; the oldest go first (a host that never drains does not
/// grow the workspace without bound).
pub const MAX_RECORDS: usize = 1000;

impl Diagnostics {
    pub fn new(enabled: SmallSet<Category>) -> Diagnostics {
        Diagnostics { enabled, ..Diagnostics::default() }
    }

    pub fn is_on(&self) -> bool {
        !self.enabled.is_empty()
    }

    pub fn enabled(&self, c: Category) -> bool {
        self.enabled.contains(&c)
    }

    pub fn categories(&self) -> impl Iterator<Item = Category> + '_ {
        self.enabled.iter().copied()
    }

    /// Marks the start of a call: records from here on belong to it.
    pub fn begin(&mut self) {
        self.open_from = self.records.len();
    }

    /// Adds a record of `category` when that category is on. `detail` is built only then.
    pub fn record(
        &mut self,
        category: Category,
        operation_id: &str,
        operation: &str,
        error: Option<String>,
        detail: impl FnOnce() -> Value,
    ) {
        if !self.enabled(category) {
            return;
        }
        if self.records.len() == MAX_RECORDS {
            self.records.remove(0);
            self.open_from = self.open_from.saturating_sub(1);
        }
        self.records.push(Record {
            operation_id: operation_id.to_string(),
            category,
            operation: operation.to_string(),
            status: None,
            state: None,
            flags: Vec::new(),
            error,
            detail: detail(),
            duration_ms: None,
        });
    }

    /// Adds a record of something that happened between calls (a storage change): it carries
    /// the state and flags after it, and no status.
    pub fn record_event(
        &mut self,
        category: Category,
        operation_id: &str,
        operation: &str,
        state: &str,
        flags: &[&str],
        detail: impl FnOnce() -> Value,
    ) {
        if !self.enabled(category) {
            return;
        }
        self.record(category, operation_id, operation, None, detail);
        if let Some(r) = self.records.last_mut() {
            r.state = Some(state.to_string());
            r.flags = flags.iter().map(|f| f.to_string()).collect();
        }
        self.open_from = self.records.len();
    }

    /// Fills the outcome of the call under way into its records.
    pub fn close(&mut self, status: &str, state: &str, flags: &[&str]) {
        for r in self.records.iter_mut().skip(self.open_from) {
            if r.status.is_none() {
                r.status = Some(status.to_string());
                r.state = Some(state.to_string());
                r.flags = flags.iter().map(|f| f.to_string()).collect();
            }
        }
    }

    /// Hands the records over to the host (oldest first) and forgets them.
    pub fn drain(&mut self) -> Vec<Record> {
        self.open_from = 0;
        std::mem::take(&mut self.records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn category_names_parse_in_long_and_short_form() {
        assert_eq!(Category::parse("TextEdit.MatchTrace"), Some(Category::MatchTrace));
        assert_eq!(Category::parse("persistence"), Some(Category::Persistence));
        assert_eq!(Category::parse("TextEdit.Nope"), None);
        assert_eq!(Category::parse_list("MatchTrace, TextEdit.External").unwrap().len(), 2);
        assert_eq!(Category::parse_list("all").unwrap().len(), 4);
        assert!(Category::parse_list("").unwrap().is_empty());
        let e = Category::parse_list("MatchTrace,Bogus").unwrap_err().to_string();
        assert!(e.contains("`Bogus`") && e.contains("TextEdit.Schema"), "{e}");
    }

    #[test]
    fn records_only_enabled_categories_and_close_with_the_outcome() {
        let mut d = Diagnostics::new([Category::MatchTrace].into_iter().collect());
        d.begin();
        d.record(Category::MatchTrace, "op-1", "memo_replace", None, || json!({"matches": 2}));
        d.record(Category::Persistence, "op-1", "memo_replace", None, || panic!("a disabled category builds no detail"));
        d.close("MultiMatch", "SelectionPending", &["SelectionPending"]);
        let records = d.drain();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].status.as_deref(), Some("MultiMatch"));
        assert_eq!(serde_json::to_value(&records[0]).unwrap()["category"], json!("TextEdit.MatchTrace"));
        assert!(d.drain().is_empty());
    }

    #[test]
    fn undrained_records_are_bounded() {
        let mut d = Diagnostics::new(Category::ALL.into_iter().collect());
        for i in 0..MAX_RECORDS + 5 {
            d.begin();
            d.record(Category::External, &format!("op-{i}"), "storage_changed", None, || Value::Null);
        }
        let r = d.drain();
        assert_eq!(r.len(), MAX_RECORDS);
        assert_eq!(r[0].operation_id, "op-5");
    }
}
