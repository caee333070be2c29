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
//! 3. Optional: `### [Metrics] Metrics` with the table `| metric | value |`, `| --- | --- |` and exactly the rows
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

use crate::format::{CandidateStyle, Locale, Words};
use crate::response::Status;
use crate::workflow::WorkflowState;

mod candidates;
mod consistency;
mod fences;
mod header;
mod lists;
mod messages;
mod metrics;
mod overview;
mod scan;
mod sections;
mod words;

use messages::{order_list, quote};
use scan::split_lines;

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
    /// `selection_count` given as `-` beside candidates, or below the live ones.
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
        // Metrics is optional: a response shows it only when it says something (format.rs).
        for required in [Kind::Overview] {
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
}

#[cfg(test)]
mod tests {
    use super::words::locales;
    use super::*;
    use crate::format::fill;
    use crate::matching::recommend::Reason;
    use crate::workflow::Flags;

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
                end_line: None,
                preview: ["a | `b`", "", "x ← recommended"][i].into(),
                marker_start: format!("[[SEL#{id}]]"),
                marker_end: format!("[[/SEL#{id}]]"),
                occurrence: i,
                context_start: i * 10,
                context_end: i * 10 + 1,
                recommended,
                recommended_reason: recommended.then_some(crate::matching::recommend::Reason::GoalWords),
                pick_refused: false,
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
            base_line: 1,
            old_text: "a".into(),
            new_text: "b → c".into(),
            delta: -2,
            amended: true,
            place_count: 1,
            places: Vec::new(),
        });
        r.task_stack.push(TaskView { task_id: "1".into(), goal: "outer (x)".into(), status: "Active".into(), depth: 1 });
        r.task_stack.push(TaskView { task_id: "2".into(), goal: "inner".into(), status: "Completed".into(), depth: 2 });
        let node = |id: &str, status: &str, children| TaskNodeView {
            task_id: id.into(),
            goal: format!("goal {id} (x)"),
            status: status.into(),
            summary: None,
            children,
        };
        r.task_tree = vec![
            node("3", "Completed", vec![node("4", "Reverted", vec![node("5", "Completed", vec![])]), node("6", "Completed", vec![])]),
            node("7", "Reverted", vec![]),
        ];
        r.task_tree_earlier = 2;
        r.session_log = Some(vec![crate::response::LogEntry {
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
        for locale in locales() {
            for style in [CandidateStyle::Table, CandidateStyle::List] {
                let mut r = everything();
                r.render(RenderOptions { locale, candidate_style: style });
                let p = validate(&r.markdown).unwrap_or_else(|e| panic!("{locale:?} {style:?}: {e:#?}\n{}", r.markdown));
                assert_eq!(p.locale, locale);
                assert_eq!(p.candidate_style, Some(style));
                let w = locale.words();
                let kinds = [Kind::Candidates, Kind::Content, Kind::Preview, Kind::Pending, Kind::Tasks, Kind::Log];
                assert_eq!(p.sections, kinds.map(|k| k.heading(w)).to_vec());
                let got: Vec<_> =
                    p.candidates.iter().map(|c| (c.id.as_str(), c.line, c.preview.as_str(), c.recommended, c.stale)).collect();
                assert_eq!(
                    got,
                    vec![("A", 1, "a | `b`", false, false), ("B", 2, " ", true, false), ("C", 3, "x ← recommended", false, true)],
                    "{style:?}"
                );
                assert_eq!(p.candidates[1].quality.as_deref(), Some("indentation"));
                assert_eq!(p.flags, vec!["SelectionPending", "PersistReadOnly"]);
            }
        }
    }

    #[test]
    fn task_stack_and_tree_lines() {
        use crate::format::RenderOptions;
        for locale in locales() {
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
    fn list_style_candidates() {
        let head = MULTI.split("### [Target]").next().unwrap().to_string();
        let reason = Locale::En.words().phrase(Reason::NearFocus.key());
        let list = head
            + "### [Target] Candidates\n- [A] line 1: `a | b`\n- [B] line 2: `c` ← recommended ("
            + reason
            + ")\n- [C] line 9: `d` (stale) · indentation\n";
        let p = validate(&list).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(p.candidate_style, Some(CandidateStyle::List));
        let got: Vec<_> = p.candidates.iter().map(|c| (c.id.as_str(), c.line, c.recommended, c.stale, c.quality.as_deref())).collect();
        assert_eq!(
            got,
            vec![("A", 1, false, false, Some("exact")), ("B", 2, true, false, Some("exact")), ("C", 9, false, true, Some("indentation"))]
        );
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
        assert_eq!(r, vec![Rule::HeaderLine, Rule::HeaderLine, Rule::HeaderLine, Rule::MissingSection]);
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
    fn every_row_of_a_large_input_is_reported() {
        // 20 000 recommended rows and a 20 000-name flag line: each reported (the validator's
        // cost is the benchmark's business, never a timer's).
        let row = "| A | `[[SEL#A]]` | `[[/SEL#A]]` | `x` | 0 | 0 | 1 | 1 | yes | exact |\n";
        let mut md = MULTI.replace("flags: `SelectionPending`", &format!("flags: {}", vec!["`SelectionPending`"; 20_000].join(", ")));
        md.push_str(&row.repeat(20_000));
        let v = validate(&md).unwrap_err();
        assert!(v.iter().filter(|v| v.rule == Rule::Recommendation).count() >= 19_999);
        assert!(v.iter().filter(|v| v.rule == Rule::FlagList).count() >= 19_999);
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
