//! Validate: reads a Markdown response (docs/responses.md#markdown-layout) back into a structure and reports
//! every place where it leaves the layout — for agent developers who want to check what their
//! model reads, and for our tests, which run every response they produce through it.
//!
//! The layout, in order (each check is one [`Rule`]):
//!
//! 1. Three header lines: `status: \`X\``, `state: \`Y\``, `flags: \`A\`, \`B\`` or `flags: -`; known
//!    names only, flags in bit order and not repeated.
//! 2. A blank line, then `### [OK|Warning|Fail] Overview` (`概览` in `zh`: the locale is taken from
//!    this heading and every later heading and table header must use the same one), then
//!    `- summary: …` and `- guidance: …` (`(empty)` / `（留空）` when there is none). The icon
//!    agrees with the status: Success and NoOp are `[OK]`, or `[Warning]` with a summary starting
//!    `[Warning]`; MultiMatch is `[Warning]`; everything else is `[Fail]`.
//! 3. `### [Metrics] Metrics` with the table `| metric | value |`, `| --- | --- |` and exactly the rows
//!    `delta` (`+3`, `-2`, `0`), `new_length` and `selection_count` (whole numbers), `-` for a
//!    missing value.
//! 4. Optional sections, each at most once and in this order: `[Target] Candidates`,
//!    `[Text] Content`, `[Diff] Preview`, `[Changes] Pending changes`, `[Tasks] Task stack`,
//!    `[Log] Session log`.
//! 5. Candidates as the ten-column table (`Id` … `ContextEnd`, then `Line`, `Recommended`,
//!    `Quality`; Recommended is the locale's `yes` / `-` / `stale` word) or as `list` lines
//!    (``- [B] line 45: `api.timeout: 30` ← recommended``, zh ``- [B] 第 45 行：`…` ← 推荐``, a
//!    stale one ending ` (stale)` / `（已失效）`, then ` · quality` unless exact); letters ascending,
//!    markers matching the letter, at most one recommended, and `selection_count` given (and not
//!    below the live candidates listed).
//! 6. Flags agree with the state (docs/workflow.md#states-and-flags: the state's required flag, only its optional ones,
//!    `PersistReadOnly` anywhere), and the status with the state (MultiMatch: SelectionPending
//!    or OutOfSync; ExternalConflict and PersistFailure: OutOfSync).
//! 7. Nothing else: no other headings; no text outside the sections' shapes — Content and
//!    Preview hold fenced code blocks only (fences of 3 or more backticks), Pending changes
//!    ``- [A] path line 4: `old` → `new` (+3)`` lines, Task stack `- [#1] goal (Active)` lines
//!    indented two spaces per level (`(current)` only on the last), then optionally the thought
//!    tree — `🌳 Tasks finished in this session:`, an optional `- … 3 earlier`, `- ✅ goal` roots
//!    and `  └─ ↩️ goal` subtasks one level deeper at most —, Session log its five-column table; one blank line before
//!    each heading and none elsewhere outside fences; no missing required section.
//!
//! The words of each locale are read from format.rs's table ([`Words`]), so the validator and
//! the formatter cannot disagree about them.
//!
//! Line endings are CommonMark's (`\n`, `\r\n` and a lone `\r`), since that is how a Markdown
//! reader splits the text; blank lines at the very end are allowed. The validator never panics
//! and reports every violation it finds, not only the first.

use std::fmt;

use serde::Serialize;

use crate::format::{fill, CandidateStyle, Locale, Words, TASK_DONE, TASK_OPEN, TASK_REVERTED};
use crate::matching::recommend::Reason;
use crate::response::Status;
use crate::workflow::{Flags, WorkflowState};

// ---- the words --------------------------------------------------------------------------------

// The words of each locale are format.rs's own table ([`Words`], [`Locale::words`]): the
// validator reads what the formatter writes from the same place, so the two cannot drift. Only
// what format.rs writes the same in every locale without a table entry is spelled here.

const LOCALES: [Locale; 2] = [Locale::En, Locale::Zh];

/// The session log's table header (format.rs's constant).
const LOG_HEADER: &str = crate::format::SESSION_LOG_HEADER;

/// How a Success or NoOp raised to `[Warning]` starts its summary (`Response::warn`; summaries
/// are not translated).
const WARNING: &str = "[Warning]";

/// A `Words` template (`line {}`) split at its `{}`.
fn template(t: &'static str) -> (&'static str, &'static str) {
    t.split_once("{}").unwrap_or((t, ""))
}

/// The candidate table's header (seven columns, then `Line`, `Recommended`, `Quality`), the same in every
/// locale. Spelled here, not taken from format.rs: it is what the layout requires, and a test
/// pins format.rs's `CANDIDATE_TABLE_HEADER` to it.
const CANDIDATE_COLUMNS: [&str; 10] =
    ["Id", "MarkerStart", "MarkerEnd", "Preview", "Occurrence", "ContextStart", "ContextEnd", "Line", "Recommended", "Quality"];

const METRIC_ROWS: [&str; 3] = ["delta", "new_length", "selection_count"];

const SEVERITIES: [&str; 3] = ["OK", "Warning", "Fail"];

const STATUSES: [Status; 10] = [
    Status::Success,
    Status::NoMatch,
    Status::MultiMatch,
    Status::NoOp,
    Status::PersistFailure,
    Status::ExternalConflict,
    Status::Exception,
    Status::InvalidArguments,
    Status::Blocked,
    Status::StaleReference,
];

const STATES: [WorkflowState; 5] = [
    WorkflowState::Idle,
    WorkflowState::SelectionPending,
    WorkflowState::PersistPending,
    WorkflowState::OutOfSync,
    WorkflowState::Refreshing,
];

/// Every flag name, in bit order (`Flags::names` of all bits, so the order is workflow.rs's).
fn flag_names() -> Vec<&'static str> {
    (Flags::SELECTION_PENDING
        | Flags::PERSIST_PENDING
        | Flags::OUT_OF_SYNC
        | Flags::SCHEMA_VIOLATION
        | Flags::PERSIST_READ_ONLY
        | Flags::EXTERNAL_CONFLICT
        | Flags::DIAGNOSTIC_HINT)
        .names()
}

/// docs/workflow.md#states-and-flags: the flag a state requires and the optional ones it allows. `PersistReadOnly` is
/// set in every state while persistence is disabled (`Flags::derive`), so it is allowed
/// everywhere on top of this table.
fn state_flags(state: WorkflowState) -> (Option<&'static str>, &'static [&'static str]) {
    match state {
        WorkflowState::Idle => (None, &["PersistReadOnly", "DiagnosticHint"]),
        WorkflowState::SelectionPending => (Some("SelectionPending"), &["PersistReadOnly", "DiagnosticHint"]),
        WorkflowState::PersistPending => (Some("PersistPending"), &["PersistReadOnly", "DiagnosticHint"]),
        WorkflowState::OutOfSync => (Some("OutOfSync"), &["ExternalConflict", "DiagnosticHint", "SchemaViolation", "PersistReadOnly"]),
        WorkflowState::Refreshing => (Some("DiagnosticHint"), &["SchemaViolation", "PersistReadOnly"]),
    }
}

/// States a status may come with, where the workflow restricts them (docs/workflow.md#states-and-flags).
fn states_for(status: Status) -> Option<&'static [WorkflowState]> {
    match status {
        // (Idle / PersistPending: a `preview_only` listing lists candidates without selecting.)
        Status::MultiMatch => Some(&[WorkflowState::SelectionPending, WorkflowState::OutOfSync, WorkflowState::Idle, WorkflowState::PersistPending]),
        Status::ExternalConflict | Status::PersistFailure => Some(&[WorkflowState::OutOfSync]),
        _ => None,
    }
}

// ---- the API ----------------------------------------------------------------------------------

/// A Markdown response read back. Fields a broken response lacks are empty.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub status: String,
    pub state: String,
    /// Flag names as listed (empty for `flags: -`).
    pub flags: Vec<String>,
    /// The Overview icon: `OK`, `Warning` or `Fail`.
    pub severity: String,
    pub summary: String,
    /// `None` for the empty marker (`(empty)` / `（留空）`).
    pub guidance: Option<String>,
    /// The Metrics rows as written: `("delta", "+3")`, `("selection_count", "-")`.
    pub metrics: Vec<(String, String)>,
    pub candidates: Vec<ParsedCandidate>,
    /// How the candidates were written; `None` without a Candidates section.
    pub candidate_style: Option<CandidateStyle>,
    /// The heading lines of the optional sections, in order (`### [Diff] Preview`).
    pub sections: Vec<String>,
    /// Taken from the Overview heading (`en` when there is none).
    pub locale: Locale,
}

/// One candidate. The `list` style only gives the letter, the line, the preview and the marks;
/// the table's other columns are then `None`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParsedCandidate {
    pub id: String,
    pub line: usize,
    /// The Preview cell's code span content (table), or the text after the line reference with
    /// the marks removed (list).
    pub preview: String,
    pub marker_start: Option<String>,
    pub marker_end: Option<String>,
    pub occurrence: Option<usize>,
    pub context_start: Option<usize>,
    pub context_end: Option<usize>,
    pub recommended: bool,
    pub stale: bool,
    pub quality: Option<String>,
}

/// One check (see the module documentation for the layout they enforce).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "ViolationRule"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Rule {
    /// A header line missing, malformed, repeated or out of the order status → state → flags.
    HeaderLine,
    UnknownStatus,
    UnknownState,
    /// An unknown or repeated flag name, flags out of bit order, or a malformed list.
    FlagList,
    /// A blank line missing before a heading, or one where none belongs.
    BlankLine,
    /// The Overview heading or its `- summary:` / `- guidance:` lines malformed.
    Overview,
    /// A heading, table header or marker in the other locale than the Overview heading's.
    Locale,
    /// The Overview icon disagrees with the status (or the `[Warning]` summary start).
    Severity,
    /// The Metrics table's header, separator, rows or row order.
    MetricsTable,
    /// A metric value that is not a signed integer (delta), a whole number or `-`.
    MetricValue,
    /// A heading that is not one of the known sections.
    UnknownSection,
    /// A known section out of order or repeated.
    SectionOrder,
    /// A required section (Overview, Metrics) missing.
    MissingSection,
    /// The candidate table's header or separator.
    CandidateHeader,
    /// A candidate row with the wrong number of cells, or a list line without `[X] line N: `.
    CandidateRow,
    /// A candidate value: Id, numbers, ContextStart ≤ ContextEnd, Recommended, letter order.
    CandidateValue,
    /// MarkerStart / MarkerEnd not the code spans `[[SEL#X]]` / `[[/SEL#X]]` of the row's Id.
    CandidateMarker,
    /// More than one candidate recommended.
    Recommendation,
    /// `selection_count` missing (`-`) although there are candidates, or below the live ones.
    SelectionCount,
    /// The state's required flag missing, or a flag the state does not allow.
    StateFlags,
    /// A status with a state the contract does not allow (MultiMatch, ExternalConflict,
    /// PersistFailure).
    StatusState,
    /// A Content / Preview section without a fenced code block, or a fence never closed.
    Fence,
    /// A line in Pending changes, Task stack or Session log not of that section's shape.
    SectionBody,
    /// Text where the layout has none (outside a section, after a table, outside a fence).
    StrayText,
}

impl Rule {
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::HeaderLine => "HeaderLine",
            Rule::UnknownStatus => "UnknownStatus",
            Rule::UnknownState => "UnknownState",
            Rule::FlagList => "FlagList",
            Rule::BlankLine => "BlankLine",
            Rule::Overview => "Overview",
            Rule::Locale => "Locale",
            Rule::Severity => "Severity",
            Rule::MetricsTable => "MetricsTable",
            Rule::MetricValue => "MetricValue",
            Rule::UnknownSection => "UnknownSection",
            Rule::SectionOrder => "SectionOrder",
            Rule::MissingSection => "MissingSection",
            Rule::CandidateHeader => "CandidateHeader",
            Rule::CandidateRow => "CandidateRow",
            Rule::CandidateValue => "CandidateValue",
            Rule::CandidateMarker => "CandidateMarker",
            Rule::Recommendation => "Recommendation",
            Rule::SelectionCount => "SelectionCount",
            Rule::StateFlags => "StateFlags",
            Rule::StatusState => "StatusState",
            Rule::Fence => "Fence",
            Rule::SectionBody => "SectionBody",
            Rule::StrayText => "StrayText",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One place where the response leaves the layout.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// 1-based line of the Markdown (one past the last line for "missing at the end").
    pub line: usize,
    pub rule: Rule,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: [{}] {}", self.line, self.rule, self.message)
    }
}

/// Reads a Markdown response back. `Ok` when it follows the layout; otherwise every violation
/// found, in line order.
///
/// Cost: O(n) in the length of `markdown` (one pass over its lines, each split once), plus
/// O(v log v) to sort v violations. Never panics, whatever the input.
pub fn validate(markdown: &str) -> Result<Parsed, Vec<Violation>> {
    let (parsed, violations) = parse(markdown);
    if violations.is_empty() {
        Ok(parsed)
    } else {
        Err(violations)
    }
}

/// Like [`validate`], but returns what could be read even when there are violations (best
/// effort: fields of a broken part stay empty). Same cost.
pub fn parse(markdown: &str) -> (Parsed, Vec<Violation>) {
    let lines = split_lines(markdown);
    let mut v = Validator::new(&lines);
    v.run();
    crate::sort::sort_by_key(&mut v.violations, |x| x.line);
    (v.parsed, v.violations)
}

// ---- the validator ----------------------------------------------------------------------------

/// The sections, in their required order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Overview,
    Metrics,
    Candidates,
    Content,
    Preview,
    Pending,
    Tasks,
    Log,
}

impl Kind {
    const ALL: [Kind; 8] =
        [Kind::Overview, Kind::Metrics, Kind::Candidates, Kind::Content, Kind::Preview, Kind::Pending, Kind::Tasks, Kind::Log];

    /// The bracketed tag; the Overview's is the severity.
    fn tag(self) -> &'static str {
        match self {
            Kind::Overview => "OK",
            Kind::Metrics => "Metrics",
            Kind::Candidates => "Target",
            Kind::Content => "Text",
            Kind::Preview => "Diff",
            Kind::Pending => "Changes",
            Kind::Tasks => "Tasks",
            Kind::Log => "Log",
        }
    }

    fn word(self, w: &Words) -> &'static str {
        match self {
            Kind::Overview => w.overview,
            Kind::Metrics => w.metrics,
            Kind::Candidates => w.candidates,
            Kind::Content => w.content,
            Kind::Preview => w.preview,
            Kind::Pending => w.pending,
            Kind::Tasks => w.tasks,
            Kind::Log => w.log,
        }
    }

    fn heading(self, w: &Words) -> String {
        format!("### [{}] {}", self.tag(), self.word(w))
    }

    fn fenced(self) -> bool {
        matches!(self, Kind::Content | Kind::Preview)
    }
}

/// A section: its heading and its body lines (1-based line number, text), without the blank
/// line that separates it from the next heading.
struct Section<'a> {
    kind: Option<Kind>,
    line: usize,
    heading: &'a str,
    body: Vec<(usize, &'a str)>,
}

struct Validator<'a> {
    lines: &'a [&'a str],
    parsed: Parsed,
    violations: Vec<Violation>,
    /// The locale and the line that set it.
    locale: Option<(Locale, usize)>,
    status: Option<Status>,
    state: Option<WorkflowState>,
    /// Lines of the header values, for the consistency checks' reports.
    status_line: usize,
    state_line: usize,
    flags_line: usize,
    flags_ok: bool,
    overview_line: usize,
    /// The first recommended candidate's letter.
    recommended: Option<String>,
    selection_count_line: usize,
    candidates_line: usize,
}

impl<'a> Validator<'a> {
    fn new(lines: &'a [&'a str]) -> Validator<'a> {
        Validator {
            lines,
            parsed: Parsed {
                status: String::new(),
                state: String::new(),
                flags: Vec::new(),
                severity: String::new(),
                summary: String::new(),
                guidance: None,
                metrics: Vec::new(),
                candidates: Vec::new(),
                candidate_style: None,
                sections: Vec::new(),
                locale: Locale::En,
            },
            violations: Vec::new(),
            locale: None,
            status: None,
            state: None,
            status_line: 1,
            state_line: 2,
            flags_line: 3,
            flags_ok: false,
            overview_line: 0,
            recommended: None,
            selection_count_line: 0,
            candidates_line: 0,
        }
    }

    fn report(&mut self, line: usize, rule: Rule, message: impl Into<String>) {
        self.violations.push(Violation { line, rule, message: message.into() });
    }

    fn parsed_locale(&self) -> Locale {
        self.locale.map_or(Locale::En, |(l, _)| l)
    }

    fn words(&self) -> &'static Words {
        self.parsed_locale().words()
    }

    fn run(&mut self) {
        let header_end = self.header();
        let sections = self.sections(header_end);
        let mut last: Option<(Kind, usize)> = None;
        let mut seen: Vec<Kind> = Vec::new();
        for s in &sections {
            let Some(kind) = s.kind else { continue };
            if let Some((prev, prev_line)) = last.filter(|(prev, _)| kind <= *prev) {
                let what = if kind == prev { "repeated" } else { "out of order" };
                self.report(
                    s.line,
                    Rule::SectionOrder,
                    format!(
                        "expected the sections in the order {}, each at most once; found {} {what} after {} (line {prev_line})",
                        order_list(self.words()),
                        quote(s.heading),
                        quote(&prev.heading(self.words()))
                    ),
                );
            } else {
                last = Some((kind, s.line));
            }
            if kind > Kind::Metrics {
                self.parsed.sections.push(s.heading.to_string());
            }
            seen.push(kind);
            self.body(kind, s);
        }
        for required in [Kind::Overview, Kind::Metrics] {
            if !seen.contains(&required) {
                let at = sections.iter().find(|s| s.kind.is_some_and(|k| k > required)).map_or(self.lines.len() + 1, |s| s.line);
                let found = self.lines.get(at - 1).map_or("the end of the response".to_string(), |l| quote(l));
                let heading = required.heading(self.words());
                let heading = if required == Kind::Overview { heading.replace("[OK]", "[OK|Warning|Fail]") } else { heading };
                self.report(at, Rule::MissingSection, format!("expected the required section `{heading}` here, found {found}"));
            }
        }
        self.consistency();
        self.parsed.locale = self.parsed_locale();
    }

    // ---- 1. the header -------------------------------------------------------------------------

    /// Checks the header lines; returns the index of the first line after them.
    // Bounds: `end` ≤ `lines.len()` (a position or the length); `k` is a position in `KEYS`,
    // and `found` has one slot per key; `line` starts with `KEYS[k]` and `:` (the match above), so
    // the value starts at a char boundary inside it.
    #[allow(clippy::indexing_slicing, clippy::string_slice)]
    fn header(&mut self) -> usize {
        const KEYS: [&str; 3] = ["status", "state", "flags"];
        let end = self.lines.iter().position(|l| is_blank(l) || heading_level(l).is_some()).unwrap_or(self.lines.len());
        let mut found = [false; 3];
        for (i, expected) in KEYS.into_iter().enumerate() {
            let n = i + 1;
            let Some(line) = self.lines[..end].get(i).copied() else {
                let what = self.lines.get(i).map_or("the end of the response".to_string(), |l| if is_blank(l) { "a blank line".into() } else { quote(l) });
                self.report(n, Rule::HeaderLine, format!("expected header line {n} `{}`, found {what}", header_form(expected)));
                continue;
            };
            let key = KEYS.iter().position(|k| line.strip_prefix(k).is_some_and(|r| r.starts_with(':')));
            match key {
                Some(k) if k == i => {}
                Some(k) => self.report(
                    n,
                    Rule::HeaderLine,
                    format!(
                        "expected header line {n} to be `{}` (order: status, state, flags), found the {} line {}",
                        header_form(expected),
                        KEYS[k],
                        quote(line)
                    ),
                ),
                None => {
                    self.report(n, Rule::HeaderLine, format!("expected header line {n} `{}`, found {}", header_form(expected), quote(line)));
                    continue;
                }
            }
            let Some(k) = key else { continue };
            if std::mem::replace(&mut found[k], true) {
                self.report(n, Rule::HeaderLine, format!("expected the `{}:` line once, found it again: {}", KEYS[k], quote(line)));
                continue;
            }
            let value = &line[KEYS[k].len() + 1..];
            match k {
                0 => self.status_value(n, line, value),
                1 => self.state_value(n, line, value),
                _ => self.flags_value(n, line, value),
            }
        }
        for (i, line) in self.lines[..end].iter().enumerate().skip(3) {
            self.report(i + 1, Rule::HeaderLine, format!("expected a blank line after the three header lines, found {}", quote(line)));
        }
        end
    }

    fn status_value(&mut self, n: usize, line: &str, value: &str) {
        self.status_line = n;
        let Some(name) = value.strip_prefix(' ').and_then(backticked) else {
            self.report(n, Rule::HeaderLine, format!("expected `status: `<Status>`` (the name in backticks), found {}", quote(line)));
            return;
        };
        self.parsed.status = name.to_string();
        self.status = STATUSES.into_iter().find(|s| s.as_str() == name);
        if self.status.is_none() {
            let known: Vec<&str> = STATUSES.iter().map(|s| s.as_str()).collect();
            self.report(n, Rule::UnknownStatus, format!("expected a status among {}, found {}", known.join(", "), quote(name)));
        }
    }

    fn state_value(&mut self, n: usize, line: &str, value: &str) {
        self.state_line = n;
        let Some(name) = value.strip_prefix(' ').and_then(backticked) else {
            self.report(n, Rule::HeaderLine, format!("expected `state: `<WorkflowState>`` (the name in backticks), found {}", quote(line)));
            return;
        };
        self.parsed.state = name.to_string();
        self.state = STATES.into_iter().find(|s| s.as_str() == name);
        if self.state.is_none() {
            let known: Vec<&str> = STATES.iter().map(|s| s.as_str()).collect();
            self.report(n, Rule::UnknownState, format!("expected a state among {}, found {}", known.join(", "), quote(name)));
        }
    }

    // Bounds: every `bit` is a position in `known` (flag_names: 7 names, fewer than `seen`'s 32
    // slots); `w` from `windows(2)` has two items.
    #[allow(clippy::indexing_slicing)]
    fn flags_value(&mut self, n: usize, line: &str, value: &str) {
        self.flags_line = n;
        if value == " -" {
            self.flags_ok = true;
            return;
        }
        let names: Option<Vec<&str>> = value.strip_prefix(' ').and_then(|v| v.split(", ").map(backticked).collect());
        let Some(names) = names else {
            self.report(
                n,
                Rule::FlagList,
                format!("expected `flags: -` or flag names in backticks separated by `, ` (`flags: `A`, `B``), found {}", quote(line)),
            );
            return;
        };
        let known = flag_names();
        let mut ok = true;
        let mut bits: Vec<usize> = Vec::new();
        let mut seen = [false; 32];
        for name in &names {
            match known.iter().position(|k| k == name) {
                None => {
                    ok = false;
                    self.report(n, Rule::FlagList, format!("expected flag names among {}, found {}", known.join(", "), quote(name)));
                }
                Some(bit) if std::mem::replace(&mut seen[bit], true) => {
                    ok = false;
                    self.report(n, Rule::FlagList, format!("expected each flag once, found {} again", quote(name)));
                }
                Some(bit) => bits.push(bit),
            }
        }
        if bits.windows(2).any(|w| w[0] > w[1]) {
            ok = false;
            let mut sorted = bits.clone();
            sorted.sort_unstable();
            let want: Vec<&str> = sorted.iter().map(|&b| known[b]).collect();
            let got: Vec<&str> = bits.iter().map(|&b| known[b]).collect();
            self.report(n, Rule::FlagList, format!("expected the flags in bit order ({}), found {}", want.join(", "), got.join(", ")));
        }
        self.parsed.flags = names.iter().map(|s| s.to_string()).collect();
        self.flags_ok = ok;
    }

    // ---- sections ------------------------------------------------------------------------------

    /// Splits the lines after the header into sections at the headings (not inside the fences of
    /// Content and Preview), checking the blank line before each heading and reporting text
    /// before the first one.
    fn sections(&mut self, start: usize) -> Vec<Section<'a>> {
        let lines = self.lines;
        let mut sections: Vec<Section<'a>> = Vec::new();
        let mut before: Vec<(usize, &'a str)> = Vec::new();
        let mut fence: Option<usize> = None;
        // Whether the blank line before the first heading was taken as the header's separator.
        let mut separated = false;
        for (i, &line) in lines.iter().enumerate().skip(start) {
            let n = i + 1;
            if sections.last().is_some_and(|s| s.kind.is_some_and(Kind::fenced)) {
                let was = fence;
                fence = match fence {
                    Some(len) if is_fence_close(line, len) => None,
                    Some(len) => Some(len),
                    None => fence_open(line),
                };
                if was.is_some() || fence.is_some() {
                    // Inside a fence, or its opening or closing line: never a heading.
                    push_body(&mut sections, &mut before, n, line);
                    continue;
                }
            }
            if heading_level(line).is_none() {
                push_body(&mut sections, &mut before, n, line);
                continue;
            }
            // A heading: the line before must be blank (a second blank stays in the body and
            // is reported there).
            let first = sections.is_empty();
            let body = sections.last_mut().map_or(&mut before, |s| &mut s.body);
            match body.last() {
                Some((_, prev)) if is_blank(prev) => {
                    body.pop();
                    separated |= first;
                }
                _ if i == 0 => {}
                _ if first && i == start => {
                    self.report(n, Rule::BlankLine, format!("expected a blank line between the header and {}, found none", quote(line)));
                }
                _ => self.report(n, Rule::BlankLine, format!("expected a blank line before {}, found {}", quote(line), quote(i.checked_sub(1).and_then(|p| lines.get(p)).copied().unwrap_or_default()))),
            }
            let kind = self.heading(n, line);
            sections.push(Section { kind, line: n, heading: line, body: Vec::new() });
        }
        // The blank line after the header, then nothing before the first heading.
        // Without a heading right after it, the first blank line still separates the header.
        let mut rest = before.as_slice();
        if let Some(((_, first), tail)) = rest.split_first() {
            if is_blank(first) && start > 0 && !separated {
                rest = tail;
            }
        }
        for &(n, line) in rest {
            if is_blank(line) {
                self.report(n, Rule::BlankLine, "expected one blank line after the header, found another one");
            } else {
                self.report(
                    n,
                    Rule::StrayText,
                    format!("expected nothing between the header and the Overview heading, found {}", quote(line)),
                );
            }
        }
        sections
    }

    /// Classifies a heading line, reporting an unknown heading or one in the wrong locale.
    fn heading(&mut self, n: usize, line: &str) -> Option<Kind> {
        let parts = line.strip_prefix("### [").and_then(|r| r.split_once("] "));
        let Some((tag, word)) = parts else {
            self.report(n, Rule::UnknownSection, format!("expected a section heading `### [Tag] Words` of {}, found {}", known_list(self.words()), quote(line)));
            return None;
        };
        let kind = if SEVERITIES.contains(&tag) {
            Kind::Overview
        } else if let Some(k) = Kind::ALL.into_iter().find(|k| *k != Kind::Overview && k.tag() == tag) {
            k
        } else {
            let rule = if LOCALES.iter().any(|l| l.words().overview == word) { Rule::Overview } else { Rule::UnknownSection };
            let expected = if rule == Rule::Overview { "`### [OK|Warning|Fail] …`".to_string() } else { known_list(self.words()) };
            self.report(n, rule, format!("expected a heading of {expected}, found the tag {} in {}", quote(tag), quote(line)));
            return None;
        };
        if kind == Kind::Overview {
            self.parsed.severity = tag.to_string();
            self.overview_line = n;
        }
        let matched: Vec<Locale> = LOCALES.into_iter().filter(|l| kind.word(l.words()) == word).collect();
        let rule = if kind == Kind::Overview { Rule::Overview } else { Rule::UnknownSection };
        if matched.is_empty() {
            let forms: Vec<String> = LOCALES.iter().map(|l| format!("`### [{tag}] {}` ({})", kind.word(l.words()), l.as_str())).collect();
            self.report(n, rule, format!("expected {}, found {}", forms.join(" or "), quote(line)));
        } else {
            self.check_locale(n, &matched, line, |w| format!("`### [{tag}] {}`", kind.word(w)));
        }
        Some(kind)
    }

    /// `found` is in one of the locales `matched`; sets the locale on the first such line, and
    /// reports a later one in another locale.
    fn check_locale(&mut self, n: usize, matched: &[Locale], found: &str, expected: impl Fn(&Words) -> String) {
        match self.locale {
            None if matched.len() == 1 => self.locale = matched.first().map(|&l| (l, n)),
            Some((l, at)) if !matched.contains(&l) => {
                let msg = format!(
                    "expected {} (locale {}, set by line {at}), found {} (locale {})",
                    expected(l.words()),
                    l.as_str(),
                    quote(found),
                    matched.first().map_or("?", |l| l.as_str())
                );
                self.report(n, Rule::Locale, msg);
            }
            _ => {}
        }
    }

    fn body(&mut self, kind: Kind, s: &Section<'a>) {
        match kind {
            Kind::Overview => self.overview(s),
            Kind::Metrics => self.metrics(s),
            Kind::Candidates => self.candidates(s),
            Kind::Content | Kind::Preview => self.fences(kind, s),
            Kind::Pending => self.pending(s),
            Kind::Tasks => self.tasks(s),
            Kind::Log => self.log(s),
        }
    }

    /// Reports the lines from `from` on as not belonging to the section (after its table or
    /// list): blank lines as [`Rule::BlankLine`], others as `rule`.
    fn rest(&mut self, s: &Section<'a>, from: usize, rule: Rule, expected: &str) {
        for &(n, line) in s.body.iter().skip(from) {
            if is_blank(line) {
                self.report(n, Rule::BlankLine, format!("expected no blank line inside {}", quote(s.heading)));
            } else {
                self.report(n, rule, format!("expected {expected}, found {}", quote(line)));
            }
        }
    }

    /// The next line of `s` at `*at` that is not blank; blank lines before it are reported.
    fn next_line(&mut self, s: &Section<'a>, at: &mut usize) -> Option<(usize, &'a str)> {
        while let Some(&(n, line)) = s.body.get(*at) {
            *at += 1;
            if is_blank(line) {
                self.report(n, Rule::BlankLine, format!("expected no blank line inside {}", quote(s.heading)));
            } else {
                return Some((n, line));
            }
        }
        None
    }

    fn end_line(&self, s: &Section<'a>) -> usize {
        s.body.last().map_or(s.line, |(n, _)| *n) + 1
    }

    // ---- 2. the Overview -----------------------------------------------------------------------

    fn overview(&mut self, s: &Section<'a>) {
        let w = self.words();
        let mut at = 0;
        for key in ["summary", "guidance"] {
            let prefix = format!("- {key}:");
            let Some((n, line)) = self.next_line(s, &mut at) else {
                let end = self.end_line(s);
                self.report(end, Rule::Overview, format!("expected the line `- {key}: …` in the Overview, found the end of the section"));
                return;
            };
            let Some(value) = line.strip_prefix(prefix.as_str()) else {
                self.report(n, Rule::Overview, format!("expected the line `- {key}: …`, found {}", quote(line)));
                if key == "summary" && line.starts_with("- guidance:") {
                    at -= 1; // the summary is missing; read this line as the guidance
                }
                continue;
            };
            let value = value.strip_prefix(' ').unwrap_or(value);
            if value.trim().is_empty() {
                let want = if key == "summary" { "a one-line summary".to_string() } else { format!("guidance or the empty marker `{}`", w.empty) };
                self.report(n, Rule::Overview, format!("expected {want} after `- {key}:`, found nothing"));
                continue;
            }
            if key == "summary" {
                self.parsed.summary = value.to_string();
            } else if value == w.empty {
                self.parsed.guidance = None;
            } else if let Some(other) = LOCALES.into_iter().find(|o| o.words().empty == value && !std::ptr::eq(o.words(), w)) {
                self.report(
                    n,
                    Rule::Locale,
                    format!("expected the empty marker `{}` (locale {}), found `{}` (locale {})", w.empty, self.parsed_locale().as_str(), value, other.as_str()),
                );
            } else {
                self.parsed.guidance = Some(value.to_string());
            }
        }
        self.rest(s, at, Rule::StrayText, "only the summary and guidance lines in the Overview");
    }

    // ---- 3. the Metrics ------------------------------------------------------------------------

    // Bounds: a row's cells are read only after the match above kept rows of exactly 2 cells.
    #[allow(clippy::indexing_slicing)]
    fn metrics(&mut self, s: &Section<'a>) {
        let w = self.words();
        let mut at = 0;
        let Some((n, header)) = self.next_line(s, &mut at) else {
            let end = self.end_line(s);
            self.report(end, Rule::MetricsTable, format!("expected the table header `{}`, found the end of the section", w.metric_header));
            return;
        };
        if header.trim_end() != w.metric_header {
            let other: Vec<Locale> = LOCALES.into_iter().filter(|o| o.words().metric_header == header.trim_end()).collect();
            if other.is_empty() {
                self.report(n, Rule::MetricsTable, format!("expected the table header `{}`, found {}", w.metric_header, quote(header)));
            } else {
                self.check_locale(n, &other, header, |o| format!("`{}`", o.metric_header));
            }
        }
        match self.next_line(s, &mut at) {
            Some((n, sep)) if !is_separator(sep, 2) => {
                self.report(n, Rule::MetricsTable, format!("expected the separator `| --- | --- |`, found {}", quote(sep)))
            }
            Some(_) => {}
            None => {
                let end = self.end_line(s);
                self.report(end, Rule::MetricsTable, "expected the separator `| --- | --- |`, found the end of the section");
                return;
            }
        }
        for name in METRIC_ROWS {
            let Some((n, line)) = self.next_line(s, &mut at) else {
                let end = self.end_line(s);
                self.report(end, Rule::MetricsTable, format!("expected the row `| {name} | … |`, found the end of the section"));
                return;
            };
            let cells = match row_cells(line) {
                Some(c) if c.len() == 2 => c,
                Some(c) => {
                    self.report(n, Rule::MetricsTable, format!("expected the row `| {name} | … |` with 2 cells, found {} cells in {}", c.len(), quote(line)));
                    continue;
                }
                None => {
                    self.report(n, Rule::MetricsTable, format!("expected the row `| {name} | … |`, found {}", quote(line)));
                    continue;
                }
            };
            if cells[0] != name {
                self.report(
                    n,
                    Rule::MetricsTable,
                    format!("expected the row `{name}` here (rows: delta, new_length, selection_count, in that order), found {}", quote(&cells[0])),
                );
                continue;
            }
            let value = cells[1].as_str();
            let ok = value == "-" || if name == "delta" { signed_int(value).is_some() } else { whole(value).is_some() };
            if !ok {
                let form = if name == "delta" { "a signed integer (`+3`, `-2`, `0`)" } else { "a whole number" };
                self.report(n, Rule::MetricValue, format!("expected {name} to be {form} or `-`, found {}", quote(value)));
            }
            if name == "selection_count" {
                self.selection_count_line = n;
            }
            self.parsed.metrics.push((name.to_string(), value.to_string()));
        }
        let from = at;
        let extra_rows = s.body.iter().skip(from).filter(|(_, l)| l.trim_start().starts_with('|')).count();
        if extra_rows > 0 {
            for &(n, line) in s.body.iter().skip(from) {
                if line.trim_start().starts_with('|') {
                    self.report(n, Rule::MetricsTable, format!("expected the table to end after selection_count, found the row {}", quote(line)));
                } else if is_blank(line) {
                    self.report(n, Rule::BlankLine, format!("expected no blank line inside {}", quote(s.heading)));
                } else {
                    self.report(n, Rule::StrayText, format!("expected nothing after the Metrics table, found {}", quote(line)));
                }
            }
        } else {
            self.rest(s, from, Rule::StrayText, "nothing after the Metrics table");
        }
    }

    // ---- 5. the candidates ---------------------------------------------------------------------

    fn candidates(&mut self, s: &Section<'a>) {
        self.candidates_line = s.line;
        let first = s.body.iter().find(|(_, l)| !is_blank(l)).map(|(_, l)| *l);
        match first {
            None => {
                let end = self.end_line(s);
                self.report(end, Rule::CandidateHeader, "expected the candidate table or list lines, found an empty section");
            }
            Some(l) if l.trim_start().starts_with('|') => self.candidate_table(s),
            Some(_) => self.candidate_list(s),
        }
    }

    fn candidate_table(&mut self, s: &Section<'a>) {
        self.parsed.candidate_style = Some(CandidateStyle::Table);
        let header = format!("| {} |", CANDIDATE_COLUMNS.join(" | "));
        let mut at = 0;
        let Some((n, line)) = self.next_line(s, &mut at) else { return };
        match row_cells(line) {
            Some(cells) if cells == CANDIDATE_COLUMNS => {}
            Some(cells) => {
                let diff = (0..cells.len().max(CANDIDATE_COLUMNS.len())).find(|&i| cells.get(i).map(String::as_str) != CANDIDATE_COLUMNS.get(i).copied());
                let detail = match diff {
                    Some(i) => format!(
                        "column {}: expected {}, found {}",
                        i + 1,
                        CANDIDATE_COLUMNS.get(i).map_or("no column".to_string(), |c| format!("`{c}`")),
                        cells.get(i).map_or("no column".to_string(), |c| quote(c))
                    ),
                    None => String::new(),
                };
                self.report(n, Rule::CandidateHeader, format!("expected the header `{header}`; {detail}"));
            }
            None => self.report(n, Rule::CandidateHeader, format!("expected the header `{header}`, found {}", quote(line))),
        }
        let sep = format!("|{}", " --- |".repeat(CANDIDATE_COLUMNS.len()));
        match self.next_line(s, &mut at) {
            Some((n, line)) if !is_separator(line, CANDIDATE_COLUMNS.len()) => {
                self.report(n, Rule::CandidateHeader, format!("expected the separator `{sep}`, found {}", quote(line)))
            }
            Some(_) => {}
            None => {
                let end = self.end_line(s);
                self.report(end, Rule::CandidateHeader, format!("expected the separator `{sep}`, found the end of the section"));
                return;
            }
        }
        let mut rows = 0;
        while let Some((n, line)) = self.next_line(s, &mut at) {
            let Some(cells) = row_cells(line) else {
                self.report(n, Rule::StrayText, format!("expected a candidate row or the end of the section, found {}", quote(line)));
                continue;
            };
            rows += 1;
            if cells.len() != CANDIDATE_COLUMNS.len() {
                self.report(
                    n,
                    Rule::CandidateRow,
                    format!("expected {} cells ({}), found {} in {}", CANDIDATE_COLUMNS.len(), CANDIDATE_COLUMNS.join(", "), cells.len(), quote(line)),
                );
                continue;
            }
            let c = self.candidate_row(n, &cells);
            self.push_candidate(n, c);
        }
        if rows == 0 {
            let end = self.end_line(s);
            self.report(end, Rule::CandidateRow, "expected at least one candidate row, found none");
        }
    }

    // Bounds: the caller passes rows of exactly `CANDIDATE_COLUMNS.len()` (10) cells, and every
    // index here is a column number below 10 (`column` ranges over numeric columns, `1 + i` over the
    // two marker columns, `markers` has their two slots).
    #[allow(clippy::indexing_slicing)]
    fn candidate_row(&mut self, n: usize, cells: &[String]) -> ParsedCandidate {
        let id = cells[0].as_str();
        let letter_ok = id.len() == 1 && id.bytes().all(|b| b.is_ascii_uppercase());
        if !letter_ok {
            self.report(n, Rule::CandidateValue, format!("expected the Id to be one letter A–Z, found {}", quote(id)));
        }
        let mut markers = [None, None];
        for (i, (column, want)) in [("MarkerStart", format!("[[SEL#{id}]]")), ("MarkerEnd", format!("[[/SEL#{id}]]"))].into_iter().enumerate() {
            let cell = &cells[1 + i];
            match code_span(cell) {
                Some(m) if m == want => markers[i] = Some(m),
                _ => self.report(n, Rule::CandidateMarker, format!("expected {column} `` `{want}` `` (the Id {id}), found {}", quote(cell))),
            }
        }
        let preview = code_span(&cells[3]);
        if preview.is_none() {
            self.report(n, Rule::CandidateValue, format!("expected the Preview as a code span (`…`), found {}", quote(&cells[3])));
        }
        let number = |v: &mut Self, column: usize| {
            let got = whole(&cells[column]);
            if got.is_none() {
                v.report(n, Rule::CandidateValue, format!("expected {} to be a whole number, found {}", CANDIDATE_COLUMNS[column], quote(&cells[column])));
            }
            got
        };
        let occurrence = number(self, 4);
        let context_start = number(self, 5);
        let context_end = number(self, 6);
        let line = number(self, 7);
        if let (Some(a), Some(b)) = (context_start, context_end) {
            if a > b {
                self.report(n, Rule::CandidateValue, format!("expected ContextStart ≤ ContextEnd, found {a} > {b}"));
            }
        }
        if line == Some(0) {
            self.report(n, Rule::CandidateValue, "expected Line to be 1 or more (lines are 1-based), found 0");
        }
        let w = self.words();
        let mark = cells[8].as_str();
        let (recommended, stale) = if mark == w.yes {
            (true, false)
        } else if mark == "-" {
            (false, false)
        } else if mark == w.stale {
            (false, true)
        } else {
            let other = LOCALES.into_iter().find(|l| l.words().yes == mark || l.words().stale == mark);
            let expected = format!("Recommended `{}`, `-` or `{}`", w.yes, w.stale);
            match other {
                Some(l) => self.report(
                    n,
                    Rule::Locale,
                    format!("expected {expected} (locale {}), found {} (locale {})", self.parsed_locale().as_str(), quote(mark), l.as_str()),
                ),
                None => self.report(n, Rule::CandidateValue, format!("expected {expected}, found {}", quote(mark))),
            }
            (l_yes(other, mark), other.is_some_and(|l| l.words().stale == mark))
        };
        if cells[9].is_empty() {
            self.report(n, Rule::CandidateValue, "expected a Quality (`exact`, a fuzzy tier, `similar:0.92`), found an empty cell");
        }
        ParsedCandidate {
            id: id.to_string(),
            line: line.unwrap_or(0),
            preview: preview.unwrap_or_default(),
            marker_start: markers[0].take(),
            marker_end: markers[1].take(),
            occurrence,
            context_start,
            context_end,
            recommended,
            stale,
            quality: Some(cells[9].clone()),
        }
    }

    /// Adds a candidate, checking letter order and the single recommendation.
    fn push_candidate(&mut self, n: usize, c: ParsedCandidate) {
        if let Some(prev) = self.parsed.candidates.last() {
            if c.id <= prev.id {
                self.report(n, Rule::CandidateValue, format!("expected letters in ascending order, found {} after {}", quote(&c.id), quote(&prev.id)));
            }
        }
        if c.recommended {
            match &self.recommended {
                Some(first) => {
                    let msg = format!("expected at most one recommended candidate, found {} recommended as well as {}", quote(&c.id), quote(first));
                    self.report(n, Rule::Recommendation, msg);
                }
                None => self.recommended = Some(c.id.clone()),
            }
        }
        self.parsed.candidates.push(c);
    }

    /// `list` style (format.rs `candidate_list`):
    /// ``- [B] line 45: `api.timeout: 30` ← recommended · indentation`` — the letter, the line
    /// reference, the preview as a code span, then either the stale mark (` (stale)`) or the
    /// recommendation (` ← recommended`) or nothing, then ` · {quality}` unless it is `exact`.
    /// The leading `- ` may be left out.
    fn candidate_list(&mut self, s: &Section<'a>) {
        self.parsed.candidate_style = Some(CandidateStyle::List);
        let mut at = 0;
        while let Some((n, line)) = self.next_line(s, &mut at) {
            let w = self.words();
            let (before, after) = template(w.line);
            let example = format!("- [A] {before}12{after}{}`…`", w.colon);
            let item = line.strip_prefix("- ").unwrap_or(line);
            let letter = item.strip_prefix('[').and_then(|r| r.split_once("] ")).filter(|(id, _)| id.len() == 1 && id.bytes().all(|b| b.is_ascii_uppercase()));
            let Some((id, rest)) = letter else {
                self.report(n, Rule::CandidateRow, format!("expected a candidate line `{example}` (or the candidate table), found {}", quote(line)));
                continue;
            };
            // The line reference, in whichever locale it is written.
            let mut found = None;
            for l in LOCALES {
                let lw = l.words();
                let (before, after) = template(lw.line);
                let Some(r) = rest.strip_prefix(before) else { continue };
                let digits = r.bytes().take_while(u8::is_ascii_digit).count();
                let Some((number, r)) = r.split_at_checked(digits) else { continue };
                let text = r.strip_prefix(after).and_then(|t| t.strip_prefix(lw.colon));
                let (Some(line_no), Some(text)) = (whole(number), text) else { continue };
                found.get_or_insert((line_no, text, l));
            }
            let Some((line_no, text, l)) = found else {
                self.report(n, Rule::CandidateRow, format!("expected a candidate line `{example}`, found {}", quote(line)));
                continue;
            };
            self.check_locale(n, &[l], line, |w| {
                let (before, after) = template(w.line);
                format!("`- [{id}] {before}{line_no}{after}{}…`", w.colon)
            });
            let lw = l.words();
            if line_no == 0 {
                self.report(n, Rule::CandidateValue, "expected the line to be 1 or more (lines are 1-based), found 0");
            }
            let Some((preview, tail)) = leading_code_span(text) else {
                self.report(n, Rule::CandidateValue, format!("expected the preview as a code span (`…`) after the line reference, found {}", quote(text)));
                continue;
            };
            let stale_mark = fill(lw.paren, lw.stale);
            let recommended_mark = format!("{}{}", lw.arrow, lw.recommended);
            let (stale, recommended, tail) = if let Some(t) = tail.strip_prefix(stale_mark.as_str()) {
                (true, false, t)
            } else if let Some(t) = tail.strip_prefix(recommended_mark.as_str()) {
                // The reason, as in `← 推荐（基于上下文相关性）`, may follow.
                let reason = Reason::ALL.iter().map(|r| fill(lw.paren, (lw.reason)(*r))).find_map(|r| t.strip_prefix(r.as_str()));
                (false, true, reason.unwrap_or(t))
            } else {
                (false, false, tail)
            };
            let quality = if tail.is_empty() {
                Some("exact".to_string())
            } else if let Some(q) = tail.strip_prefix(" · ").filter(|q| !q.trim().is_empty()) {
                Some(q.to_string())
            } else {
                self.report(
                    n,
                    Rule::CandidateValue,
                    format!(
                        "expected after the preview only {} or {} (with a reason {} or none), then ` · <quality>` unless exact; found {}",
                        quote(&stale_mark),
                        quote(&recommended_mark),
                        quote(&fill(lw.paren, "…")),
                        quote(tail)
                    ),
                );
                None
            };
            let c = ParsedCandidate {
                id: id.to_string(),
                line: line_no,
                preview,
                marker_start: None,
                marker_end: None,
                occurrence: None,
                context_start: None,
                context_end: None,
                recommended,
                stale,
                quality,
            };
            self.push_candidate(n, c);
        }
    }

    // ---- Content / Preview: fenced blocks ------------------------------------------------------

    // Bounds: `i < s.body.len()` by the loop's condition, so `i + 1 ..` is a (possibly empty) tail.
    #[allow(clippy::indexing_slicing)]
    fn fences(&mut self, kind: Kind, s: &Section<'a>) {
        let mut blocks = 0;
        let mut i = 0;
        while i < s.body.len() {
            let (n, line) = s.body[i];
            if let Some(len) = fence_open(line) {
                match s.body[i + 1..].iter().position(|(_, l)| is_fence_close(l, len)) {
                    Some(j) => {
                        blocks += 1;
                        i += j + 2;
                    }
                    None => {
                        self.report(n, Rule::Fence, format!("expected the fence opened here to close with a line of {len} or more backticks, found the end of the section"));
                        return;
                    }
                }
                continue;
            }
            if is_blank(line) {
                self.report(n, Rule::BlankLine, format!("expected no blank line outside the fenced block of {}", quote(s.heading)));
            } else {
                self.report(n, Rule::StrayText, format!("expected only a fenced code block in {}, found {}", quote(s.heading), quote(line)));
            }
            i += 1;
        }
        if blocks == 0 {
            let what = if kind == Kind::Content { "the text" } else { "the preview" };
            let at = s.body.first().map_or(s.line + 1, |(n, _)| *n);
            self.report(at, Rule::Fence, format!("expected {what} in a fenced code block (a line of 3 or more backticks before and after), found none"));
        }
    }

    // ---- Pending changes, Task stack, Session log ----------------------------------------------

    /// ``- [A] path line 4: `old` → `new` (+3)``, then ` amended` (format.rs; the words are
    /// the locale's). The path is free text, so only the letter, the arrow and the end are
    /// checked.
    fn pending(&mut self, s: &Section<'a>) {
        let w = self.words();
        let mut at = 0;
        let mut any = false;
        while let Some((n, line)) = self.next_line(s, &mut at) {
            any = true;
            let rest = line
                .strip_prefix("- [")
                .and_then(|r| r.split_once("] "))
                .filter(|(id, rest)| !id.is_empty() && id.bytes().all(|b| b.is_ascii_uppercase()) && rest.contains(" → "))
                .map(|(_, rest)| rest.strip_suffix(w.amended).unwrap_or(rest));
            let (open, close) = template(w.paren);
            let delta = rest.and_then(|r| r.strip_suffix(close)).and_then(|r| r.rsplit_once(open)).and_then(|(_, d)| signed_int(d));
            if delta.is_none() {
                let (before, after) = template(w.line);
                let paren = fill(w.paren, "+N");
                self.report(
                    n,
                    Rule::SectionBody,
                    format!("expected a pending change `- [A] path {before}N{after}{}`old` → `new`{paren}` (then `{}` if amended), found {}", w.colon, w.amended.trim(), quote(line)),
                );
            }
        }
        if !any {
            let end = self.end_line(s);
            self.report(end, Rule::SectionBody, "expected at least one pending change, found an empty section");
        }
    }

    /// The active tasks, `- [#1] goal (Active)` indented two spaces per level below the first,
    /// the last one possibly `(current)`; then, optionally, the thought tree: the line
    /// `w.tasks_done`, an optional `- … 3 earlier` line first, then `- ✅ goal` roots and
    /// `  ├─ ✅ goal` / `  └─ ↩️ goal` subtasks, each level one deeper at most (format.rs; the
    /// words are the locale's, the marks the same in every locale).
    fn tasks(&mut self, s: &Section<'a>) {
        let w = self.words();
        let statuses = [w.task_active, w.task_completed, w.task_reverted, w.task_current];
        let current = fill(w.paren, w.task_current);
        let mut at = 0;
        let mut any = false;
        let mut depth = 0;
        // The line of a `(current)` task, which must be the last of the stack.
        let mut current_at: Option<usize> = None;
        // `Some(level)` once the tree has begun: 0 right after its first line, then the level of
        // the last task line (1 for a root).
        let mut tree: Option<usize> = None;
        let mut tree_lines = 0;
        while let Some((n, line)) = self.next_line(s, &mut at) {
            any = true;
            if let Some(level) = tree {
                let earlier = tree_lines == 0 && line.strip_prefix("- ").is_some_and(|r| {
                    let (before, after) = template(w.tasks_earlier);
                    r.strip_prefix(before).and_then(|r| r.strip_suffix(after)).and_then(whole).is_some_and(|k| k > 0)
                });
                tree_lines += 1;
                if earlier {
                    continue;
                }
                match tree_line(line) {
                    Some(l) if l <= level + 1 => tree = Some(l),
                    Some(l) => {
                        self.report(
                            n,
                            Rule::SectionBody,
                            format!("expected a finished task at most one level below the one before (level {} or less), found level {l}", level + 1),
                        );
                        tree = Some(l);
                    }
                    None => {
                        let marks = [TASK_DONE, TASK_REVERTED, TASK_OPEN].join(" ");
                        self.report(
                            n,
                            Rule::SectionBody,
                            format!("expected a finished task `- {TASK_DONE} goal` or `  └─ {TASK_DONE} goal` (marks {marks}), found {}", quote(line)),
                        );
                        // Unknown level: the lines after it are not reported for their depth.
                        tree = Some(ANY_LEVEL);
                    }
                }
                continue;
            }
            if line == w.tasks_done {
                tree = Some(0);
                continue;
            }
            let item = line.trim_start_matches(' ');
            let indent = line.len() - item.len();
            let shape = item.strip_prefix("- [#").and_then(|r| r.split_once("] ")).filter(|(id, _)| whole(id).is_some()).map(|(_, rest)| rest);
            let status_ok = shape.is_some_and(|rest| statuses.iter().any(|st| rest.ends_with(&fill(w.paren, st)) && rest.len() > fill(w.paren, st).len()));
            if let Some(c) = current_at {
                self.report(c, Rule::SectionBody, format!("expected `{}` only on the innermost (last) active task, found it on line {c} with another task after it", current.trim()));
                current_at = None;
            }
            if !status_ok {
                let example = fill(w.paren, w.task_active);
                self.report(
                    n,
                    Rule::SectionBody,
                    format!("expected a task `- [#1] goal{example}` (status {}) or the line `{}`, found {}", statuses.join(", "), w.tasks_done, quote(line)),
                );
            } else if indent % 2 != 0 || indent / 2 > depth {
                self.report(n, Rule::SectionBody, format!("expected a task indented {} spaces or fewer (two per level, one level deeper at most), found {indent}", depth * 2));
            } else {
                depth = indent / 2 + 1;
                if shape.is_some_and(|rest| rest.ends_with(&current)) {
                    current_at = Some(n);
                }
            }
        }
        if !any {
            let end = self.end_line(s);
            self.report(end, Rule::SectionBody, "expected at least one task, found an empty section");
        } else if tree.is_some() && tree_lines == 0 {
            let end = self.end_line(s);
            self.report(end, Rule::SectionBody, format!("expected a finished task after `{}`, found none", w.tasks_done));
        }
    }

    // Bounds: a row's cells are read only after the match above kept rows of exactly 5 cells.
    #[allow(clippy::indexing_slicing)]
    fn log(&mut self, s: &Section<'a>) {
        let w = self.words();
        let mut at = 0;
        let Some((n, header)) = self.next_line(s, &mut at) else {
            let end = self.end_line(s);
            self.report(end, Rule::SectionBody, format!("expected the table header `{LOG_HEADER}`, found an empty section"));
            return;
        };
        if header.trim_end() != LOG_HEADER {
            self.report(n, Rule::SectionBody, format!("expected the table header `{LOG_HEADER}`, found {}", quote(header)));
        }
        match self.next_line(s, &mut at) {
            Some((n, sep)) if !is_separator(sep, 5) => {
                self.report(n, Rule::SectionBody, format!("expected the separator `| --- | --- | --- | --- | --- |`, found {}", quote(sep)))
            }
            Some(_) => {}
            None => {
                let end = self.end_line(s);
                self.report(end, Rule::SectionBody, "expected the separator `| --- | --- | --- | --- | --- |`, found the end of the section");
                return;
            }
        }
        while let Some((n, line)) = self.next_line(s, &mut at) {
            let cells = match row_cells(line) {
                Some(c) if c.len() == 5 => c,
                Some(c) => {
                    self.report(n, Rule::SectionBody, format!("expected 5 cells (#, tool, status, at_ms, tool_call_id), found {} in {}", c.len(), quote(line)));
                    continue;
                }
                None => {
                    self.report(n, Rule::SectionBody, format!("expected a session-log row `| # | tool | status | at_ms | tool_call_id |`, found {}", quote(line)));
                    continue;
                }
            };
            if whole(&cells[0]).is_none() {
                self.report(n, Rule::SectionBody, format!("expected # to be a whole number, found {}", quote(&cells[0])));
            }
            if cells[1].is_empty() {
                self.report(n, Rule::SectionBody, "expected a tool name, found an empty cell");
            }
            if cells[2] != w.running && !STATUSES.iter().any(|st| st.as_str() == cells[2]) {
                match LOCALES.into_iter().find(|l| l.words().running == cells[2]) {
                    Some(l) => self.report(
                        n,
                        Rule::Locale,
                        format!("expected `{}` (locale {}), found {} (locale {})", w.running, self.parsed_locale().as_str(), quote(&cells[2]), l.as_str()),
                    ),
                    None => self.report(n, Rule::SectionBody, format!("expected a status or `{}`, found {}", w.running, quote(&cells[2]))),
                }
            }
            if !is_decimal(&cells[3]) {
                self.report(n, Rule::SectionBody, format!("expected at_ms to be a number, found {}", quote(&cells[3])));
            }
            if cells[4].is_empty() {
                self.report(n, Rule::SectionBody, "expected a tool_call_id or `-`, found an empty cell");
            }
        }
    }

    // ---- 2 and 6: consistency ------------------------------------------------------------------

    fn consistency(&mut self) {
        // Severity against status.
        if let (Some(status), true) = (self.status, SEVERITIES.contains(&self.parsed.severity.as_str())) {
            let n = self.overview_line;
            let sev = self.parsed.severity.clone();
            let starts = self.parsed.summary.starts_with(WARNING);
            match status {
                Status::Success | Status::NoOp => {
                    if sev == "Fail" {
                        self.report(n, Rule::Severity, format!("expected `[OK]` (or `[Warning]`) for status {}, found `[Fail]`", status.as_str()));
                    } else if sev == "Warning" && !starts && !self.parsed.summary.is_empty() {
                        self.report(
                            n + 1,
                            Rule::Severity,
                            format!("expected the summary of a {} raised to `[Warning]` to start with `{WARNING}`, found {}", status.as_str(), quote(&self.parsed.summary)),
                        );
                    } else if sev == "OK" && starts {
                        self.report(n, Rule::Severity, format!("expected `[Warning]` for a summary starting with `{WARNING}`, found `[OK]`"));
                    }
                }
                Status::MultiMatch if sev != "Warning" => {
                    self.report(n, Rule::Severity, format!("expected `[Warning]` for status MultiMatch, found `[{sev}]`"));
                }
                Status::MultiMatch => {}
                _ if sev != "Fail" => {
                    self.report(n, Rule::Severity, format!("expected `[Fail]` for status {}, found `[{sev}]`", status.as_str()));
                }
                _ => {}
            }
        }
        // Flags against state.
        if let (Some(state), true) = (self.state, self.flags_ok) {
            let (required, optional) = state_flags(state);
            let flags = self.parsed.flags.clone();
            if let Some(req) = required {
                if !flags.iter().any(|f| f == req) {
                    self.report(self.flags_line, Rule::StateFlags, format!("expected the flag {req} in state {}, found {}", state.as_str(), flag_list(&flags)));
                }
            }
            for f in &flags {
                if Some(f.as_str()) != required && !optional.contains(&f.as_str()) && f != "PersistReadOnly" {
                    let mut allowed: Vec<&str> = required.into_iter().chain(optional.iter().copied()).collect();
                    if !allowed.contains(&"PersistReadOnly") {
                        allowed.push("PersistReadOnly");
                    }
                    self.report(
                        self.flags_line,
                        Rule::StateFlags,
                        format!("expected only the flags {} in state {}, found {f}", allowed.join(", "), state.as_str()),
                    );
                }
            }
        }
        // Status against state.
        if let (Some(status), Some(state)) = (self.status, self.state) {
            if let Some(allowed) = states_for(status).filter(|a| !a.contains(&state)) {
                let names: Vec<&str> = allowed.iter().map(|s| s.as_str()).collect();
                self.report(self.state_line, Rule::StatusState, format!("expected state {} with status {}, found {}", names.join(" or "), status.as_str(), state.as_str()));
            }
        }
        // selection_count with candidates.
        if !self.parsed.candidates.is_empty() {
            let count = self.parsed.metrics.iter().find(|(k, _)| k == "selection_count").map(|(_, v)| v.clone());
            let live = self.parsed.candidates.iter().filter(|c| !c.stale).count();
            let at = if self.selection_count_line > 0 { self.selection_count_line } else { self.candidates_line };
            match count.as_deref().map(|c| (c, whole(c))) {
                Some((_, Some(k))) if k < live => self.report(
                    at,
                    Rule::SelectionCount,
                    format!("expected selection_count to be at least the {live} live candidates listed, found {k}"),
                ),
                Some((_, Some(_))) => {}
                Some((c, None)) => self.report(at, Rule::SelectionCount, format!("expected selection_count as a number when there are candidates, found {}", quote(c))),
                None => {}
            }
        }
    }
}

// ---- helpers ----------------------------------------------------------------------------------

/// Adds a body line to the current section, or to the lines before the first heading.
fn push_body<'a>(sections: &mut [Section<'a>], before: &mut Vec<(usize, &'a str)>, n: usize, line: &'a str) {
    match sections.last_mut() {
        Some(s) => s.body.push((n, line)),
        None => before.push((n, line)),
    }
}

/// Lines split at CommonMark line endings (`\n`, `\r\n`, lone `\r`); blank lines at the end
/// are dropped.
fn split_lines(s: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let bytes = s.as_bytes();
    let mut start = 0;
    for at in memchr::memchr2_iter(b'\r', b'\n', bytes) {
        if at < start {
            continue; // the `\n` of a `\r\n` already ended its line
        }
        // Breaks are ASCII bytes: `start` and `at` are char boundaries.
        lines.push(s.get(start..at).unwrap_or_default());
        start = if bytes.get(at..at + 2) == Some(b"\r\n") { at + 2 } else { at + 1 };
    }
    if let Some(rest) = s.get(start..).filter(|r| !r.is_empty()) {
        lines.push(rest);
    }
    while lines.last().is_some_and(|l| is_blank(l)) {
        lines.pop();
    }
    lines
}

fn is_blank(line: &str) -> bool {
    line.trim_matches([' ', '\t']).is_empty()
}

/// The level of an ATX heading line (`### x` → 3), up to three spaces of indent allowed as in
/// CommonMark.
fn heading_level(line: &str) -> Option<usize> {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 {
        return None;
    }
    let after = t.trim_start_matches('#');
    let level = t.len() - after.len();
    ((1..=6).contains(&level) && (after.is_empty() || after.starts_with([' ', '\t']))).then_some(level)
}

/// An opening fence: 3 or more backticks, then an info string without backticks. Its length.
fn fence_open(line: &str) -> Option<usize> {
    let info = line.trim_start_matches('`');
    let len = line.len() - info.len();
    (len >= 3 && !info.contains('`')).then_some(len)
}

/// A closing fence for an opening one of `len` backticks.
fn is_fence_close(line: &str, len: usize) -> bool {
    let t = line.trim_end_matches([' ', '\t']);
    t.len() >= len && t.bytes().all(|b| b == b'`')
}

/// `` `Name` `` → `Name` (no backticks inside, not empty).
fn backticked(s: &str) -> Option<&str> {
    let inner = s.strip_prefix('`')?.strip_suffix('`')?;
    (!inner.is_empty() && !inner.contains('`')).then_some(inner)
}

/// The content of a cell that is one CommonMark code span (`` `a` ``, ``` `` a`b `` ```), with
/// the one padding space each side removed; `None` if the cell is not exactly one code span.
fn code_span(cell: &str) -> Option<String> {
    let n = cell.bytes().take_while(|&b| b == b'`').count();
    if n == 0 || cell.len() < 2 * n + 1 {
        return None;
    }
    let inner = cell.strip_suffix("`".repeat(n).as_str())?.get(n..)?;
    if inner.is_empty() || inner.ends_with('`') {
        return None;
    }
    // A run of exactly n backticks inside would close the span early.
    let mut run = 0;
    for b in inner.bytes().chain(std::iter::once(b' ')) {
        if b == b'`' {
            run += 1;
        } else {
            if run == n {
                return None;
            }
            run = 0;
        }
    }
    let padded = inner.strip_prefix(' ').and_then(|t| t.strip_suffix(' '));
    let stripped = match padded {
        Some(t) if !inner.bytes().all(|b| b == b' ') => t,
        _ => inner,
    };
    Some(stripped.to_string())
}

/// `true` if `mark` is the `yes` word of `locale`.
fn l_yes(locale: Option<Locale>, mark: &str) -> bool {
    locale.is_some_and(|l| l.words().yes == mark)
}

/// A code span at the start of `s`: its content (padding removed) and what follows it.
// Bounds: `i < bytes.len()` by the loop's condition; `i + n` ends a run of `n` backticks that
// starts at `i`, so it is ≤ the length and, after an ASCII byte, a char boundary.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
fn leading_code_span(s: &str) -> Option<(String, &str)> {
    let n = s.bytes().take_while(|&b| b == b'`').count();
    if n == 0 {
        return None;
    }
    // The closing run: the next run of exactly n backticks.
    let bytes = s.as_bytes();
    let mut i = n;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            if run == n {
                let content = code_span(&s[..i + n])?;
                return Some((content, &s[i + n..]));
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

/// The cells of a GFM table row `| a | b |`, trimmed, with `\|` unescaped. As in GFM, `\|` is an
/// escaped pipe everywhere, code spans included. `None` if the line does not start and end
/// with an unescaped `|`.
fn row_cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?;
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                cur.push('|');
            }
            '|' => cells.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    (cur.trim().is_empty() && !cells.is_empty()).then_some(cells)
}

fn is_separator(line: &str, columns: usize) -> bool {
    row_cells(line).is_some_and(|c| c.len() == columns && c.iter().all(|x| x == "---"))
}

/// A whole number in plain digits (`0`, `12`; no sign, no leading zeros).
/// A thought-tree level after which any deeper line is accepted (after an unreadable line).
const ANY_LEVEL: usize = 1 << 20;

/// The level of a thought-tree task line (1 for `- ✅ goal`, 2 for `  └─ ✅ goal`, one more per
/// `│  ` or three spaces before the branch), or `None` when the line is not of that shape.
fn tree_line(line: &str) -> Option<usize> {
    let (level, rest) = match line.strip_prefix("- ") {
        Some(rest) => (1, rest),
        None => {
            let mut rest = line.strip_prefix("  ")?;
            let mut level = 2;
            while let Some(r) = rest.strip_prefix("│  ").or_else(|| rest.strip_prefix("   ")) {
                rest = r;
                level += 1;
            }
            (level, rest.strip_prefix("├─ ").or_else(|| rest.strip_prefix("└─ "))?)
        }
    };
    let goal = [TASK_DONE, TASK_REVERTED, TASK_OPEN].iter().find_map(|m| rest.strip_prefix(m)?.strip_prefix(' '))?;
    (!goal.trim().is_empty()).then_some(level)
}

fn whole(s: &str) -> Option<usize> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if digits {
        s.parse().ok()
    } else {
        None
    }
}

/// The delta form: `0`, `+N` or `-N` (N a whole number above 0).
fn signed_int(s: &str) -> Option<isize> {
    if s == "0" {
        return Some(0);
    }
    let (neg, digits) = if let Some(d) = s.strip_prefix('+') {
        (false, d)
    } else {
        (true, s.strip_prefix('-')?)
    };
    let n = whole(digits).filter(|&n| n > 0)?;
    let n = isize::try_from(n).ok()?;
    Some(if neg { -n } else { n })
}

/// A decimal number as Rust prints an `f64` of a clock: `12`, `1.5`, `-3`.
fn is_decimal(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = s.split_once('.').unwrap_or((s, "0"));
    !int.is_empty() && !frac.is_empty() && int.bytes().all(|b| b.is_ascii_digit()) && frac.bytes().all(|b| b.is_ascii_digit())
}

fn header_form(key: &str) -> &'static str {
    match key {
        "status" => "status: `<Status>`",
        "state" => "state: `<WorkflowState>`",
        _ => "flags: `A`, `B` or flags: -",
    }
}

fn order_list(w: &Words) -> String {
    Kind::ALL.iter().map(|k| k.word(w)).collect::<Vec<_>>().join(", ")
}

fn known_list(w: &Words) -> String {
    let mut forms = vec![format!("`### [OK|Warning|Fail] {}`", w.overview)];
    forms.extend(Kind::ALL.iter().skip(1).map(|k| format!("`{}`", k.heading(w))));
    forms.join(", ")
}

fn flag_list(flags: &[String]) -> String {
    if flags.is_empty() {
        "`flags: -`".into()
    } else {
        flags.join(", ")
    }
}

/// A found text for a message: quoted (control characters escaped), at most 80 chars.
fn quote(s: &str) -> String {
    let clipped = crate::text::clip(s, 80);
    format!("{clipped:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MULTI: &str = "status: `MultiMatch`
state: `SelectionPending`
flags: `SelectionPending`

### [Warning] Overview
- summary: Found 2 matches of `x` in a.md.
- guidance: Call memo_replace with match_id.

### [Metrics] Metrics
| metric | value |
| --- | --- |
| delta | 0 |
| new_length | 20 |
| selection_count | 2 |

### [Target] Candidates
| Id | MarkerStart | MarkerEnd | Preview | Occurrence | ContextStart | ContextEnd | Line | Recommended | Quality |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| A | `[[SEL#A]]` | `[[/SEL#A]]` | `` a \\| `b` `` | 0 | 0 | 1 | 1 | - | exact |
| B | `[[SEL#B]]` | `[[/SEL#B]]` | `` a \\| `b` `` | 1 | 10 | 11 | 2 | yes | exact |
";

    fn rules(md: &str) -> Vec<Rule> {
        validate(md).err().unwrap_or_default().into_iter().map(|v| v.rule).collect()
    }

    #[test]
    fn format_rs_example_validates() {
        let p = validate(MULTI).unwrap();
        assert_eq!(p.status, "MultiMatch");
        assert_eq!(p.flags, vec!["SelectionPending"]);
        assert_eq!(p.severity, "Warning");
        assert_eq!(p.guidance.as_deref(), Some("Call memo_replace with match_id."));
        assert_eq!(p.candidates.len(), 2);
        assert_eq!(p.candidates[0].preview, "a | `b`");
        assert!(p.candidates[1].recommended);
        assert_eq!(p.sections, vec!["### [Target] Candidates"]);
        assert_eq!(p.candidate_style, Some(CandidateStyle::Table));
        assert_eq!(p.metrics[2], ("selection_count".to_string(), "2".to_string()));
    }

    #[test]
    fn crlf_is_a_line_ending_and_lone_cr_too() {
        assert!(validate(&MULTI.replace('\n', "\r\n")).is_ok());
        let broken = MULTI.replace("Found 2 matches", "Found\r2 matches");
        assert_eq!(rules(&broken), vec![Rule::Overview, Rule::StrayText]);
    }

    #[test]
    fn the_seed_example_fails_on_numeric_ids_and_seven_columns() {
        // The bare seven-column table with numeric Ids.
        let seed = concat!(
            "status: `MultiMatch`\n",
            "state: `SelectionPending`\n",
            "flags: `SelectionPending`\n",
            "\n",
            "### [Warning] 概览\n",
            "- summary: 在目标文本中检测到 3 处候选\n",
            "- guidance: 请选择\n",
            "\n",
            "### [Metrics] 指标\n",
            "| 指标 | 值 |\n",
            "| --- | --- |\n",
            "| delta | 0 |\n",
            "| new_length | 1824 |\n",
            "| selection_count | 3 |\n",
            "\n",
            "### [Target] 候选选区\n",
            "| Id | MarkerStart | MarkerEnd | Preview | Occurrence | ContextStart | ContextEnd |\n",
            "| --- | --- | --- | --- | --- | --- | --- |\n",
            "| 1 | `[[SEL#1]]` | `[[/SEL#1]]` | `...Foo() {` | 0 | 118 | 150 |\n",
        );
        let r = rules(seed);
        assert!(r.contains(&Rule::CandidateHeader) && r.contains(&Rule::CandidateRow), "{r:?}");
        let (p, _) = parse(seed);
        assert_eq!(p.locale, Locale::Zh);
    }

    #[test]
    fn code_spans() {
        assert_eq!(code_span("`a`").as_deref(), Some("a"));
        assert_eq!(code_span("`` a`b ``").as_deref(), Some("a`b"));
        assert_eq!(code_span("`` `x` ``").as_deref(), Some("`x`"));
        assert_eq!(code_span("` `").as_deref(), Some(" "));
        assert_eq!(code_span("``"), None);
        assert_eq!(code_span("`a``"), None);
        assert_eq!(code_span("`a` b `c`"), None);
        assert_eq!(code_span("``a`b``").as_deref(), Some("a`b"));
        assert_eq!(code_span("x"), None);
        assert_eq!(code_span("`é`").as_deref(), Some("é"));
    }

    #[test]
    fn rows_split_on_unescaped_pipes() {
        assert_eq!(row_cells("| a | b |"), Some(vec!["a".into(), "b".into()]));
        assert_eq!(row_cells(r"| `a \| b` | c |"), Some(vec!["`a | b`".into(), "c".into()]));
        assert_eq!(row_cells(r"| a\\| b |"), Some(vec![r"a\| b".into()]));
        assert_eq!(row_cells(r"| a \|"), None);
        assert_eq!(row_cells("| a | b"), None);
        assert_eq!(row_cells("|"), None);
        assert_eq!(row_cells("a | b |"), None);
    }

    #[test]
    fn numbers() {
        assert_eq!(signed_int("+3"), Some(3));
        assert_eq!(signed_int("-2"), Some(-2));
        assert_eq!(signed_int("0"), Some(0));
        for bad in ["3", "+0", "-0", "+", "", "+03", "1.5", "++1"] {
            assert_eq!(signed_int(bad), None, "{bad}");
        }
        assert_eq!(whole("0"), Some(0));
        assert_eq!(whole("120"), Some(120));
        for bad in ["", "-1", "+1", "01", "1e3", "99999999999999999999999"] {
            assert_eq!(whole(bad), None, "{bad}");
        }
        assert!(is_decimal("12") && is_decimal("1.5") && is_decimal("-3"));
        assert!(!is_decimal("") && !is_decimal("1.") && !is_decimal("NaN"));
    }

    #[test]
    fn state_table_agrees_with_flags_derive() {
        use crate::workflow::PersistMode;
        let known = flag_names();
        assert_eq!(known.len(), 7);
        for state in STATES {
            let (required, optional) = state_flags(state);
            assert_eq!(Flags::derive(state, PersistMode::Manual).names(), required.into_iter().collect::<Vec<_>>(), "{state}");
            assert!(optional.iter().all(|f| known.contains(f)));
        }
    }

    /// Every section format.rs can write, in both locales and both candidate styles.
    fn everything() -> crate::response::Response {
        use crate::response::{Candidate, PendingChangeView, Response, Status, TaskNodeView, TaskView};
        let mut r = Response::new(Status::MultiMatch, "Found 3 matches.").with_guidance("Pick one.");
        r.workflow_state = WorkflowState::SelectionPending;
        r.flags = Flags::SELECTION_PENDING | Flags::PERSIST_READ_ONLY;
        r.metrics.new_length = Some(20);
        r.metrics.selection_count = Some(3);
        for (i, (id, quality, recommended, stale)) in
            [("A", "exact", false, false), ("B", "indentation", true, false), ("C", "similar:0.92", false, true)].into_iter().enumerate()
        {
            r.candidates.push(Candidate {
                id: id.into(),
                line: i + 1,
                preview: ["a | `b`", "", "x ← recommended"][i].into(),
                marker_start: format!("[[SEL#{id}]]"),
                marker_end: format!("[[/SEL#{id}]]"),
                occurrence: i,
                context_start: i * 10,
                context_end: i * 10 + 1,
                recommended,
                recommended_reason: recommended.then_some(crate::matching::recommend::Reason::GoalWords),
                stale,
                match_quality: quality.into(),
            });
        }
        r.content = Some("### [Log] not a heading\n```\n".into());
        r.preview = Some("  1│-a\n  1│+b".into());
        r.pending_changes.push(PendingChangeView {
            change_id: "A".into(),
            path: "dir/a b.md".into(),
            position: 0,
            line: 1,
            old_text: "a".into(),
            new_text: "b → c".into(),
            delta: -2,
            amended: true,
        });
        r.task_stack.push(TaskView { task_id: "1".into(), goal: "outer (x)".into(), status: "Active".into(), depth: 1 });
        r.task_stack.push(TaskView { task_id: "2".into(), goal: "inner".into(), status: "Completed".into(), depth: 2 });
        let node = |id: &str, status: &str, children| TaskNodeView { task_id: id.into(), goal: format!("goal {id} (x)"), status: status.into(), summary: None, children };
        r.task_tree = vec![
            node("3", "Completed", vec![node("4", "Reverted", vec![node("5", "Completed", vec![])]), node("6", "Completed", vec![])]),
            node("7", "Reverted", vec![]),
        ];
        r.task_tree_earlier = 2;
        r.session_log = Some(vec![crate::workspace::LogEntry {
            seq: 1,
            tool: "memo_x|y".into(),
            args: serde_json::Value::Null,
            tool_call_id: None,
            at_ms: 1.5,
            status: None,
        }]);
        r
    }

    #[test]
    fn every_section_format_rs_writes_validates() {
        use crate::format::RenderOptions;
        for locale in LOCALES {
            for style in [CandidateStyle::Table, CandidateStyle::List] {
                let mut r = everything();
                r.render(RenderOptions { locale, candidate_style: style });
                let p = validate(&r.markdown).unwrap_or_else(|e| panic!("{locale:?} {style:?}: {e:#?}\n{}", r.markdown));
                assert_eq!(p.locale, locale);
                assert_eq!(p.candidate_style, Some(style));
                let w = locale.words();
                let kinds = [Kind::Candidates, Kind::Content, Kind::Preview, Kind::Pending, Kind::Tasks, Kind::Log];
                assert_eq!(p.sections, kinds.map(|k| k.heading(w)).to_vec());
                let got: Vec<_> = p.candidates.iter().map(|c| (c.id.as_str(), c.line, c.preview.as_str(), c.recommended, c.stale)).collect();
                assert_eq!(got, vec![("A", 1, "a | `b`", false, false), ("B", 2, " ", true, false), ("C", 3, "x ← recommended", false, true)], "{style:?}");
                assert_eq!(p.candidates[1].quality.as_deref(), Some("indentation"));
                assert_eq!(p.flags, vec!["SelectionPending", "PersistReadOnly"]);
            }
        }
    }

    #[test]
    fn task_stack_and_tree_lines() {
        use crate::format::RenderOptions;
        for locale in LOCALES {
            let mut r = everything();
            r.task_stack[1].status = "Active".into();
            r.render(RenderOptions { locale, candidate_style: CandidateStyle::Table });
            let md = r.markdown.clone();
            let w = locale.words();
            assert!(md.contains(&format!("  - [#2] inner{}\n{}\n- {}\n- ✅ goal 3 (x)\n  ├─ ↩️ goal 4 (x)\n  │  └─ ✅ goal 5 (x)\n  └─ ✅ goal 6 (x)\n- ↩️ goal 7 (x)\n", fill(w.paren, w.task_current), w.tasks_done, fill(w.tasks_earlier, "2"))), "{md}");
            assert!(validate(&md).is_ok(), "{locale:?}: {:?}", validate(&md));
            // Only the tree, no active task.
            let mut t = r.clone();
            t.task_stack.clear();
            t.render(RenderOptions { locale, candidate_style: CandidateStyle::Table });
            assert!(validate(&t.markdown).is_ok(), "{:?}\n{}", validate(&t.markdown), t.markdown);
            let bad = |from: &str, to: &str| {
                assert!(md.contains(from), "{from}");
                rules(&md.replacen(from, to, 1))
            };
            let one = vec![Rule::SectionBody];
            assert_eq!(bad("- ✅ goal 3", "- ✔ goal 3"), one, "unknown mark");
            assert_eq!(bad("- ✅ goal 3", "- ✅goal 3"), one, "no space");
            assert_eq!(bad("  ├─ ↩️ goal 4", "  ├ ↩️ goal 4"), one, "broken branch");
            assert_eq!(bad("  │  └─ ✅ goal 5", "  │  │  └─ ✅ goal 5"), one, "two levels deeper");
            assert_eq!(bad("- ✅ goal 3 (x)\n  ├─", "  ├─ ✅ goal 3 (x)\n  ├─"), one, "a subtask first");
            assert_eq!(bad("- ↩️ goal 7 (x)", "- ↩️ "), one, "no goal");
            assert_eq!(bad("- ↩️ goal 7 (x)", &format!("- [#7] goal 7{}", fill(w.paren, w.task_active))), one, "a stack line in the tree");
            let earlier = format!("- {}\n", fill(w.tasks_earlier, "2"));
            assert_eq!(bad(&earlier, &format!("- {}\n", fill(w.tasks_earlier, "0"))), one, "nothing earlier");
            assert_eq!(bad(&earlier, ""), Vec::<Rule>::new(), "no earlier line");
            let moved = md.replacen(&earlier, "", 1).replacen("- ↩️ goal 7 (x)\n", &format!("- ↩️ goal 7 (x)\n{earlier}"), 1);
            assert_eq!(rules(&moved), one, "earlier line not first");
            // `(current)` on a task that is not the innermost.
            let current = fill(w.paren, w.task_current);
            assert_eq!(bad(&format!("outer (x){}", fill(w.paren, w.task_active)), &format!("outer (x){current}")), one, "two current");
            // The tree's first line alone.
            let cut = md.split(w.tasks_done).next().unwrap().to_string() + w.tasks_done + "\n";
            assert_eq!(rules(&cut), one, "empty tree");
        }
    }

    #[test]
    fn format_rs_writes_the_candidate_columns_of_the_layout() {
        assert_eq!(row_cells(crate::format::CANDIDATE_TABLE_HEADER).unwrap(), CANDIDATE_COLUMNS);
    }

    #[test]
    fn list_style_candidates() {
        let head = MULTI.split("### [Target]").next().unwrap().to_string();
        let reason = (Locale::En.words().reason)(Reason::NearFocus);
        let list = head
            + "### [Target] Candidates\n- [A] line 1: `a | b`\n- [B] line 2: `c` ← recommended ("
            + reason
            + ")\n- [C] line 9: `d` (stale) · indentation\n";
        let p = validate(&list).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(p.candidate_style, Some(CandidateStyle::List));
        let got: Vec<_> = p.candidates.iter().map(|c| (c.id.as_str(), c.line, c.recommended, c.stale, c.quality.as_deref())).collect();
        assert_eq!(got, vec![("A", 1, false, false, Some("exact")), ("B", 2, true, false, Some("exact")), ("C", 9, false, true, Some("indentation"))]);
        assert_eq!(p.candidates[1].preview, "c");
        // without the bullet too
        assert!(validate(&list.replace("- [", "[")).is_ok());
        let two = list.replace("`a | b`", "`a | b` ← recommended");
        assert_eq!(rules(&two), vec![Rule::Recommendation]);
        let order = list.replace("[C] line 9", "[A] line 9");
        assert_eq!(rules(&order), vec![Rule::CandidateValue]);
        let zh_in_en = list.replace(&format!("[B] line 2: `c` ← recommended ({reason})"), "[B] 第 2 行：`c` ← 推荐");
        assert_eq!(rules(&zh_in_en), vec![Rule::Locale]);
        let no_line = list.replace("[B] line 2: `c`", "[B] `c`");
        assert_eq!(rules(&no_line), vec![Rule::CandidateRow]);
        let no_code = list.replace("[B] line 2: `c`", "[B] line 2: c");
        assert_eq!(rules(&no_code), vec![Rule::CandidateValue]);
        let junk = list.replace("`c` ← recommended", "`c` recommended");
        assert_eq!(rules(&junk), vec![Rule::CandidateValue]);
    }

    #[test]
    fn empty_and_garbage_inputs_report_missing_parts() {
        let mut r = rules("");
        r.sort_by_key(|r| r.as_str());
        assert_eq!(r, vec![Rule::HeaderLine, Rule::HeaderLine, Rule::HeaderLine, Rule::MissingSection, Rule::MissingSection]);
        let r = rules("hello");
        assert!(r.contains(&Rule::HeaderLine) && r.contains(&Rule::MissingSection), "{r:?}");
        let r = rules("### [OK] Overview\n");
        assert!(r.contains(&Rule::HeaderLine), "{r:?}");
    }

    #[test]
    fn violation_messages_say_expected_and_found() {
        let md = MULTI.replace("| Occurrence |", "| Occurence |");
        let v = validate(&md).unwrap_err();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].rule, Rule::CandidateHeader);
        assert_eq!(v[0].line, 17);
        assert!(v[0].message.contains("expected `Occurrence`, found \"Occurence\""), "{}", v[0].message);
        assert!(v[0].to_string().starts_with("line 17: [CandidateHeader] expected"));
    }

    #[test]
    fn large_inputs_stay_linear() {
        // 20 000 recommended rows and a 20 000-name flag line: each reported, none rescanned.
        let row = "| A | `[[SEL#A]]` | `[[/SEL#A]]` | `x` | 0 | 0 | 1 | 1 | yes | exact |\n";
        let mut md = MULTI.replace("flags: `SelectionPending`", &format!("flags: {}", vec!["`SelectionPending`"; 20_000].join(", ")));
        md.push_str(&row.repeat(20_000));
        let started = std::time::Instant::now();
        let v = validate(&md).unwrap_err();
        assert!(v.iter().filter(|v| v.rule == Rule::Recommendation).count() >= 19_999);
        assert!(v.iter().filter(|v| v.rule == Rule::FlagList).count() >= 19_999);
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
    }

    #[test]
    fn headings_inside_fences_are_text() {
        let md = concat!(
            "status: `Success`\n",
            "state: `Idle`\n",
            "flags: -\n",
            "\n",
            "### [OK] Overview\n",
            "- summary: ok\n",
            "- guidance: (empty)\n",
            "\n",
            "### [Metrics] Metrics\n",
            "| metric | value |\n",
            "| --- | --- |\n",
            "| delta | 0 |\n",
            "| new_length | 3 |\n",
            "| selection_count | - |\n",
            "\n",
            "### [Text] Content\n",
            "````\n",
            "### [Log] x\n",
            "```\n",
            "\n",
            "not a heading\n",
            "````\n",
        );
        let p = validate(md).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(p.sections, vec!["### [Text] Content"]);
        let unclosed = md.trim_end().trim_end_matches('`');
        assert_eq!(rules(unclosed), vec![Rule::Fence]);
    }
}
