//! Live context (docs/workflow.md#live-context): the block an agent appends to the last user message on every
//! turn so that the model sees the workspace as it is now — instead of keeping old snapshots in
//! the chat history.
//!
//! Two parts live here, both pure:
//! - [`Timeline`] (timeline.rs): the versions of each document the workspace went through
//!   (commits, failed commits, external changes) in a ring bounded by count and bytes, with each
//!   document's text when it was opened. Texts are ropes, each an edit of the one before: a
//!   version shares all unchanged chunks with its neighbours, so holding [`RING`] versions of a
//!   10 MB document costs only what changed between them.
//! - [`LiveContext`]: the data of one block (built by the workspace, `src/workspace/live.rs`)
//!   and its views — [`LiveContext::sections`] (the Markdown, one string per section: the
//!   "content parts") and [`LiveContext::markdown`].
//!
//! The sections: `# Live Context`, `## Current Document`,
//! `## Recent Diffs (new→old)`, `## Anchor Diff`, `## Editor State`, then our additions
//! `## Plan Hints` (`plan_hints`: the last calls and how they ended), `## Memory`
//! (the memory store's accumulated summaries) and `## Tasks` (the task stack). A section with nothing to say
//! is left out, except Current Document and Editor State.

use std::fmt::Write as _;

use ropey::Rope;
use serde::Serialize;

use crate::format::TaskLines;
use crate::input::InputError;
use crate::locale::{LiveWords, Locale};
use crate::response::{TaskNodeView, TaskView};
use crate::text_rules::{atx_heading, fence_open, one_line, Fence};

mod timeline;
pub use timeline::{AnchorPoint, Timeline, Version, VersionKind, RING, VERSION_BYTES};

/// Which older text the anchor diff compares with now (e.g. the text as it was an hour ago).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Anchor {
    /// No anchor diff.
    None,
    /// The text when the document was opened (`v0`): everything this workspace changed.
    Origin,
    /// The text `k` committed versions ago.
    CommitsBack(usize),
    /// The text as it was `ms` milliseconds ago.
    AgeMs(f64),
}

/// What [`crate::workspace::Workspace::live_context`] builds, with the size limits.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveContextOptions {
    /// The document shown (default: the editor state's, else the default document).
    pub path: Option<String>,
    /// Above this many chars the current document is shown as a window of lines around the
    /// last edit (or the cursor) plus a heading index (the block stays small). Default 16,000.
    pub max_document_chars: usize,
    /// How many versions `recent_diffs` lists, newest first. Default 3.
    pub recent_diffs: usize,
    /// Most chars of one patch; a longer one is cut at a line and says how many lines it left
    /// out. `0`: no limit. Default 4,000.
    pub max_diff_chars: usize,
    pub anchor: Anchor,
    /// How many of the last calls `plan_hints` lists. Default 5.
    pub plan_hints: usize,
    /// Wall-clock budget for diffing (external changes, the anchor), in ms of the clock the
    /// caller passes; past it a diff is finished coarsely (still correct). Default 200.
    pub diff_deadline_ms: f64,
    pub now_ms: f64,
}

impl Default for LiveContextOptions {
    fn default() -> Self {
        LiveContextOptions {
            path: None,
            max_document_chars: 16_000,
            recent_diffs: 3,
            max_diff_chars: 4_000,
            anchor: Anchor::Origin,
            plan_hints: 5,
            diff_deadline_ms: 200.0,
            now_ms: 0.0,
        }
    }
}

impl LiveContextOptions {
    /// Most chars the Markdown can have with these options (the size budget the tests hold it
    /// to): the document window and heading index, each patch, and a bound for the rest.
    pub fn budget_chars(&self, plan_hints_chars: usize, memory_chars: usize, task_chars: usize) -> usize {
        let patch = if self.max_diff_chars == 0 { usize::MAX / 4 } else { self.max_diff_chars + 200 };
        self.max_document_chars
            + MAX_HEADING_INDEX_CHARS
            + 400
            + (self.recent_diffs + 1).saturating_mul(patch)
            + plan_hints_chars
            + memory_chars
            + task_chars
            + 1_000
    }
}

/// Most chars of the heading index of a windowed document.
pub const MAX_HEADING_INDEX_CHARS: usize = 2_000;
impl LiveContextOptions {
    /// Reads options from a JSON object with snake_case keys (`path`, `max_document_chars`,
    /// `recent_diffs`, `max_diff_chars`, `anchor` — `"origin"`, `"none"`, `{"commits_back": k}`
    /// or `{"age_ms": t}` —, `plan_hints`, `diff_deadline_ms`, `now_ms`); absent or `null` keys
    /// keep their defaults. Errors name the key, the value and what is allowed; unknown keys are
    /// refused so that a typo is not silently ignored.
    pub fn from_json(v: &serde_json::Value) -> Result<LiveContextOptions, InputError> {
        const WHAT: &str = "live context options";
        let mut o = LiveContextOptions::default();
        let Some(map) = v.as_object() else {
            return if v.is_null() { Ok(o) } else { Err(InputError::invalid(WHAT, "", "an object", v)) };
        };
        let count = |key: &str, v: &serde_json::Value, max: u64| {
            v.as_u64()
                .filter(|n| *n <= max)
                .map(|n| n as usize)
                .ok_or_else(|| InputError::invalid(WHAT, key, format!("a whole number from 0 to {max}"), v))
        };
        for (key, value) in map {
            if value.is_null() {
                continue;
            }
            match key.as_str() {
                "path" => o.path = Some(value.as_str().filter(|s| !s.is_empty()).ok_or_else(|| InputError::invalid(WHAT, "path", "a non-empty string", value))?.to_string()),
                "max_document_chars" => o.max_document_chars = count(key, value, 10_000_000)?.max(1),
                "recent_diffs" => o.recent_diffs = count(key, value, RING as u64)?,
                "max_diff_chars" => o.max_diff_chars = count(key, value, u32::MAX as u64)?,
                "plan_hints" => o.plan_hints = count(key, value, 100)?,
                "diff_deadline_ms" | "now_ms" => {
                    let n = value.as_f64().filter(|n| n.is_finite() && *n >= 0.0).ok_or_else(|| InputError::invalid(WHAT, key.as_str(), "a finite number ≥ 0", value))?;
                    if key == "now_ms" {
                        o.now_ms = n;
                    } else {
                        o.diff_deadline_ms = n;
                    }
                }
                "anchor" => o.anchor = Anchor::from_json(value)?,
                _ => {
                    return Err(InputError::Unknown {
                        what: "live context option",
                        key: key.clone(),
                        known: "the options are: path, max_document_chars, recent_diffs, max_diff_chars, anchor, plan_hints, diff_deadline_ms, now_ms".into(),
                    })
                }
            }
        }
        Ok(o)
    }
}

impl Anchor {
    fn from_json(v: &serde_json::Value) -> Result<Anchor, InputError> {
        const ALLOWED: &str = "\"origin\", \"none\", {\"commits_back\": k} or {\"age_ms\": t}";
        const WHAT: &str = "live context options";
        match v {
            serde_json::Value::String(s) if s == "origin" => Ok(Anchor::Origin),
            serde_json::Value::String(s) if s == "none" => Ok(Anchor::None),
            serde_json::Value::Object(m) if m.len() == 1 => {
                if let Some(k) = m.get("commits_back") {
                    k.as_u64()
                        .filter(|k| *k <= RING as u64)
                        .map(|k| Anchor::CommitsBack(k as usize))
                        .ok_or_else(|| InputError::invalid(WHAT, "anchor.commits_back", format!("a whole number from 0 to {RING}"), k))
                } else if let Some(t) = m.get("age_ms") {
                    t.as_f64()
                        .filter(|t| t.is_finite() && *t >= 0.0)
                        .map(Anchor::AgeMs)
                        .ok_or_else(|| InputError::invalid(WHAT, "anchor.age_ms", "a finite number ≥ 0", t))
                } else {
                    Err(InputError::invalid(WHAT, "anchor", ALLOWED, v))
                }
            }
            _ => Err(InputError::invalid(WHAT, "anchor", ALLOWED, v)),
        }
    }
}

impl EditorState {
    /// Reads `{path?, cursor?: {line, column}, selection?: {anchor: {line, column}, head: {line,
    /// column}}}` (1-based; columns in UTF-16 units). Shape errors only; positions are checked
    /// against the document by the workspace.
    pub fn from_json(v: &serde_json::Value) -> Result<EditorState, InputError> {
        const WHAT: &str = "editor state";
        let Some(map) = v.as_object() else { return Err(InputError::invalid(WHAT, "", "an object", v)) };
        let pos = |what: &str, v: &serde_json::Value| -> Result<LineCol, InputError> {
            let field =
                |k: &str| v.get(k).and_then(serde_json::Value::as_u64).filter(|n| *n >= 1 && *n <= u32::MAX as u64).map(|n| n as usize);
            match (field("line"), field("column"), v.as_object().map(|m| m.len())) {
                (Some(line), Some(column), Some(2)) => Ok(LineCol { line, column }),
                _ => Err(InputError::invalid(WHAT, what, "{\"line\": n, \"column\": n} with whole numbers ≥ 1", v)),
            }
        };
        let mut state = EditorState::default();
        for (key, value) in map {
            if value.is_null() {
                continue;
            }
            match key.as_str() {
                "path" => {
                    state.path = Some(value.as_str().ok_or_else(|| InputError::invalid(WHAT, "path", "a string", value))?.to_string())
                }
                "cursor" => state.cursor = Some(pos("cursor", value)?),
                "selection" => {
                    let (Some(a), Some(h)) = (value.get("anchor"), value.get("head")) else {
                        return Err(InputError::invalid(
                            WHAT,
                            "selection",
                            "{\"anchor\": {line, column}, \"head\": {line, column}}",
                            value,
                        ));
                    };
                    state.selection = Some((pos("selection.anchor", a)?, pos("selection.head", h)?));
                }
                _ => {
                    return Err(InputError::Unknown {
                        what: "editor state field",
                        key: key.clone(),
                        known: "the fields are: path, cursor, selection".into(),
                    })
                }
            }
        }
        Ok(state)
    }
}

/// Most chars of one line shown in the current document (minified files have huge lines).
pub const MAX_LINE_CHARS: usize = 400;

/// A 1-based line and column (columns count UTF-16 units, as JS and editors do).
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// What the user's editor shows , set by the host.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditorState {
    pub path: Option<String>,
    pub cursor: Option<LineCol>,
    /// Anchor and head of the selection.
    pub selection: Option<(LineCol, LineCol)>,
}

/// One block of live context: the data; the views are [`LiveContext::sections`] and
/// [`LiveContext::markdown`].
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "LiveContextJson"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveContext {
    pub generated_at_ms: f64,
    pub current_document: CurrentDocument,
    /// Newest first.
    pub recent_diffs: Vec<DiffSummary>,
    pub anchor_diff: Option<AnchorDiff>,
    pub editor_state: EditorStateView,
    /// The last calls, newest first.
    pub plan_hints: Vec<PlanHint>,
    /// The memory store's accumulated summaries (`[Turn N] …`), empty without a memory store.
    pub memory_digest: String,
    pub task_stack: Vec<TaskView>,
    pub task_tree: Vec<TaskNodeView>,
    pub task_tree_earlier: usize,
    /// The read tool's name under the workspace's prefix (`memo_read`), named by the window note.
    #[serde(skip)]
    pub read_tool: String,
}

#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurrentDocument {
    pub path: String,
    /// `draft` when pending changes exist (what the tools read and edit), else `committed`.
    #[cfg_attr(test, ts(type = "\"draft\" | \"committed\""))]
    pub view: &'static str,
    pub pending_changes: usize,
    /// The committed version (`v0` when opened, `v1` after the first commit…).
    pub version_id: String,
    pub total_lines: usize,
    pub total_chars: usize,
    /// The lines shown (1-based, inclusive); the whole document when `complete`.
    pub start_line: usize,
    pub end_line: usize,
    pub complete: bool,
    /// The line the window is centred on (the last edit, else the cursor), if any.
    pub focus_line: Option<usize>,
    /// The shown lines with `12│ ` gutters, as `memo_read` prints them.
    pub text: String,
    /// Markdown headings (and `[section]` lines) of a windowed document.
    pub headings: Vec<Heading>,
    pub headings_omitted: usize,
}

#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Heading {
    pub line: usize,
    /// 1–6 for `#`…`######`; 1 for a `[section]` line.
    pub level: usize,
    pub text: String,
}

/// One version in the recent diffs: a unified patch with its version id, time and summary.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiffSummary {
    pub version_id: String,
    pub path: String,
    pub time_ms: f64,
    /// ISO 8601, UTC.
    pub time: String,
    pub kind: VersionKind,
    pub summary: String,
    /// A unified diff (`--- a/path`, `+++ b/path`, `@@` hunks).
    pub patch: String,
    /// First and last changed line of the new text (1-based), when anything changed.
    pub affected_lines: Option<(usize, usize)>,
    /// The change could not be applied (a failed save).
    pub is_error: bool,
    pub error: Option<String>,
    /// Lines of the patch left out by `max_diff_chars`.
    pub omitted_lines: usize,
    /// The diff ran past its deadline and is coarser than minimal (still correct).
    pub coarse: bool,
}

#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnchorDiff {
    pub path: String,
    /// `v0` (the text when opened), `v2`…
    pub from_version: String,
    pub from_time_ms: Option<f64>,
    /// The current committed version.
    pub to_version: String,
    pub patch: String,
    pub affected_lines: Option<(usize, usize)>,
    pub omitted_lines: usize,
    pub coarse: bool,
}

#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EditorStateView {
    pub active_path: String,
    pub cursor: Option<LineCol>,
    pub selection: Option<SelectionView>,
    pub open_paths: Vec<String>,
    #[cfg_attr(test, ts(as = "crate::workflow::WorkflowState"))]
    pub workflow_state: String,
    pub pending_changes: usize,
}

#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SelectionView {
    pub anchor: LineCol,
    pub head: LineCol,
    /// The selected text, at most [`MAX_LINE_CHARS`] chars (`…` marks a cut).
    pub text: String,
}

/// A plan hint: a call the model made and how it ended.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanHint {
    pub seq: u64,
    pub tool: String,
    /// The call's status, or `running` for the call still under way.
    #[cfg_attr(test, ts(type = "Status | \"running\""))]
    pub status: String,
    pub at_ms: f64,
}

/// The singular form for 1, else the plural: `[one, many]`.
fn one_or_many([one, many]: [&'static str; 2], n: usize) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// `template` with each `{}` replaced by the next value.
fn fill_all(template: &str, values: &[&dyn std::fmt::Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    let mut values = values.iter();
    while let Some((before, after)) = rest.split_once("{}") {
        out.push_str(before);
        if let Some(v) = values.next() {
            let _ = write!(out, "{v}");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

impl LiveContext {
    /// The Markdown, one string per section (content parts: each becomes a
    /// `{type:"text", text}` block of the last user message). O(size of the block).
    pub fn sections(&self, locale: Locale) -> Vec<String> {
        let w = locale.words().live;
        let mut out = vec![format!("{}\n", w.live)];
        out.push(self.document_section(w));
        if !self.recent_diffs.is_empty() {
            let mut s = format!("{}\n", w.recent);
            for d in &self.recent_diffs {
                let [commit, failed, external] = w.kinds;
                let kind = match d.kind {
                    VersionKind::Commit => commit,
                    VersionKind::Failed => failed,
                    VersionKind::External => external,
                };
                let _ = writeln!(s, "{}", fill_all(w.version, &[&d.version_id, &d.path, &kind]));
                let _ = writeln!(s, "{}", fill_all(w.time, &[&d.time]));
                let _ = writeln!(s, "{}", fill_all(w.summary, &[&one_line(&d.summary)]));
                if let Some(e) = &d.error {
                    let _ = writeln!(s, "{}", fill_all(w.error, &[&one_line(e)]));
                }
                if let Some((a, b)) = d.affected_lines {
                    let _ = writeln!(s, "{}", fill_all(w.lines, &[&a, &b]));
                }
                s.push_str(&indented_fence("diff", &d.patch, d.omitted_lines, d.coarse, w));
            }
            out.push(s);
        }
        if let Some(a) = &self.anchor_diff {
            let mut s = format!("{}\n", w.anchor);
            let since = a.from_time_ms.map(|ms| format!(" ({})", iso_utc(ms))).unwrap_or_default();
            let _ = writeln!(s, "{}", fill_all(w.anchor_line, &[&a.path, &a.from_version, &since, &a.to_version]));
            s.push_str(&fence("diff", &a.patch, a.omitted_lines, a.coarse, w));
            out.push(s);
        }
        out.push(self.editor_section(w));
        if !self.plan_hints.is_empty() {
            let mut s = format!("{}\n", w.hints);
            for h in &self.plan_hints {
                let _ = writeln!(s, "- #{} {} → {}", h.seq, h.tool, h.status);
            }
            out.push(s);
        }
        if !self.memory_digest.is_empty() {
            out.push(format!("{}\n{}\n", w.memory, self.memory_digest));
        }
        if !self.task_stack.is_empty() || !self.task_tree.is_empty() {
            let lines =
                TaskLines { stack: &self.task_stack, tree: &self.task_tree, earlier: self.task_tree_earlier, words: locale.words() };
            out.push(format!("{}\n{lines}", w.tasks));
        }
        out
    }

    /// The sections joined by blank lines. O(size of the block).
    pub fn markdown(&self, locale: Locale) -> String {
        self.sections(locale).join("\n")
    }

    fn document_section(&self, w: &LiveWords) -> String {
        let d = &self.current_document;
        let mut s = format!("{}\n", w.document);
        let pending =
            if d.pending_changes > 0 { fill_all(one_or_many(w.pending, d.pending_changes), &[&d.pending_changes]) } else { String::new() };
        let [draft, committed] = w.views;
        let view = if d.view == "draft" { draft } else { committed };
        let _ = writeln!(s, "{}", fill_all(w.document_line, &[&d.path, &view, &d.version_id, &pending, &d.total_lines, &d.total_chars]));
        if !d.complete {
            let focus = d.focus_line.map(|l| fill_all(w.around, &[&l])).unwrap_or_default();
            let _ = writeln!(s, "{}", fill_all(w.window, &[&d.start_line, &d.end_line, &focus, &self.read_tool]));
        }
        s.push_str(&fence("", &d.text, 0, false, w));
        if !d.headings.is_empty() {
            let _ = writeln!(s, "{}", w.headings);
            for h in &d.headings {
                let _ = writeln!(s, "{}", fill_all(w.heading, &[&"  ".repeat(h.level.saturating_sub(1)), &h.text, &h.line]));
            }
            if d.headings_omitted > 0 {
                let _ = writeln!(s, "{}", fill_all(w.more, &[&d.headings_omitted]));
            }
        }
        s
    }

    fn editor_section(&self, w: &LiveWords) -> String {
        let e = &self.editor_state;
        let mut s = format!("{}\n", w.editor);
        let _ = writeln!(s, "{}", fill_all(w.active, &[&e.active_path]));
        if let Some(c) = e.cursor {
            let _ = writeln!(s, "{}", fill_all(w.cursor, &[&c.line, &c.column]));
        }
        if let Some(sel) = &e.selection {
            let text = one_line(&sel.text).replace('`', "'");
            let _ =
                writeln!(s, "{}", fill_all(w.selection, &[&sel.anchor.line, &sel.anchor.column, &sel.head.line, &sel.head.column, &text]));
        }
        if e.open_paths.len() > 1 {
            let files = e.open_paths.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ");
            let _ = writeln!(s, "{}", fill_all(w.open, &[&files]));
        }
        let _ = writeln!(s, "{}", fill_all(one_or_many(w.workflow, e.pending_changes), &[&e.workflow_state, &e.pending_changes]));
        s
    }
}

/// A fenced block long enough for any backtick run inside, with notes for cut or coarse diffs.
fn fence(lang: &str, body: &str, omitted_lines: usize, coarse: bool, w: &LiveWords) -> String {
    let ticks = "`".repeat(longest_backtick_run(body).max(2) + 1);
    let mut s = format!("{ticks}{lang}\n{body}");
    if !body.is_empty() && !body.ends_with('\n') {
        s.push('\n');
    }
    let _ = writeln!(s, "{ticks}");
    if omitted_lines > 0 {
        let _ = writeln!(s, "{}", fill_all(w.omitted, &[&omitted_lines]));
    }
    if coarse {
        let _ = writeln!(s, "{}", w.coarse);
    }
    s
}

/// [`fence`] indented by two spaces, inside a list item.
fn indented_fence(lang: &str, body: &str, omitted_lines: usize, coarse: bool, w: &LiveWords) -> String {
    fence(lang, body, omitted_lines, coarse, w).lines().map(|l| format!("  {l}\n")).collect()
}

fn longest_backtick_run(s: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// `patch` cut to at most `max` chars at a line end (`0`: no limit), and the lines left out.
/// O(size of the patch).
pub fn cap_patch(patch: String, max: usize) -> (String, usize) {
    if max == 0 || patch.len() <= max {
        return (patch, 0);
    }
    let mut cut = 0;
    for (i, _) in patch.match_indices('\n') {
        if i + 1 > max {
            break;
        }
        cut = i + 1;
    }
    let omitted = patch.get(cut..).map_or(0, |t| t.lines().count());
    let mut kept = patch;
    kept.truncate(cut);
    (kept, omitted)
}

/// The Markdown ATX headings (outside code fences) and `[section]` lines of `rope`, at most
/// `max_chars` of them in total (by their text); returns them and how many were left out.
/// Cost: O(n) over the text.
pub fn heading_index(rope: &Rope, max_chars: usize) -> (Vec<Heading>, usize) {
    let mut out = Vec::new();
    let (mut used, mut omitted) = (0usize, 0usize);
    // CommonMark's headings and fences (src/text_rules.rs).
    let mut fence: Option<Fence> = None;
    for_each_candidate(rope, |i, trimmed| {
        if let Some(open) = fence {
            if open.is_closed_by(trimmed) {
                fence = None;
            }
            return;
        }
        fence = fence_open(trimmed);
        if fence.is_some() {
            return;
        }
        let found = if let Some(heading) = atx_heading(trimmed) {
            Some(heading)
        } else if trimmed.starts_with('[') && trimmed.ends_with(']') && trimmed.len() > 2 && !trimmed.contains(' ') {
            Some((1, trimmed))
        } else {
            None
        };
        let Some((level, text)) = found.filter(|(_, t)| !t.is_empty()) else { return };
        let text = crate::text::clip(text, MAX_LINE_CHARS);
        let cost = text.chars().count() + 16;
        if used + cost > max_chars {
            omitted += 1;
            return;
        }
        used += cost;
        out.push(Heading { line: i + 1, level, text });
    });
    (out, omitted)
}

/// Calls `f(line, text)` for each line (0-based) whose first non-blank char among its first 8 is
/// `#`, `[`, `` ` `` or `~` — the only ones [`heading_index`] looks at — with the start of that
/// line (at most [`MAX_LINE_CHARS`] × 4 bytes, cut at a char boundary, without its line break).
/// One byte scan over the rope's chunks that jumps from line break to line break with
/// `memchr`: no per-line lookups, one reused buffer. Cost: O(n).
fn for_each_candidate(rope: &Rope, mut f: impl FnMut(usize, &str)) {
    const CAP: usize = MAX_LINE_CHARS * 4;
    enum State {
        /// At the start of a line, after this many blanks (kept in `buf`).
        Start(usize),
        /// Collecting a candidate line into `buf`.
        Collect,
        /// Skipping to the next line break.
        Skip,
    }
    let mut buf = String::new();
    let mut line = 0usize;
    let mut state = State::Start(0);
    for chunk in rope.chunks() {
        let mut rest = chunk;
        while !rest.is_empty() {
            match state {
                State::Skip => match memchr::memchr(b'\n', rest.as_bytes()) {
                    Some(nl) => {
                        rest = rest.get(nl + 1..).unwrap_or_default();
                        line += 1;
                        buf.clear();
                        state = State::Start(0);
                    }
                    None => rest = "",
                },
                State::Collect => {
                    let end = memchr::memchr(b'\n', rest.as_bytes());
                    let piece = rest.get(..end.unwrap_or(rest.len())).unwrap_or_default();
                    if buf.len() < CAP {
                        buf.push_str(piece);
                    }
                    match end {
                        Some(nl) => {
                            let mut cut = buf.len().min(CAP);
                            while !buf.is_char_boundary(cut) {
                                cut -= 1;
                            }
                            f(line, buf.get(..cut).unwrap_or_default().trim_end_matches('\r'));
                            rest = rest.get(nl + 1..).unwrap_or_default();
                            line += 1;
                            buf.clear();
                            state = State::Start(0);
                        }
                        None => rest = "",
                    }
                }
                State::Start(n) => {
                    let Some(&b) = rest.as_bytes().first() else { break };
                    match b {
                        b' ' | b'\t' if n + 1 < 8 => {
                            buf.push(b as char);
                            rest = rest.get(1..).unwrap_or_default();
                            state = State::Start(n + 1);
                        }
                        b'\n' => {
                            rest = rest.get(1..).unwrap_or_default();
                            line += 1;
                            buf.clear();
                            state = State::Start(0);
                        }
                        b'#' | b'[' | b'`' | b'~' => state = State::Collect,
                        _ => state = State::Skip,
                    }
                }
            }
        }
    }
    if let State::Collect = state {
        let mut cut = buf.len().min(CAP);
        while !buf.is_char_boundary(cut) {
            cut -= 1;
        }
        f(line, buf.get(..cut).unwrap_or_default().trim_end_matches('\r'));
    }
}

/// `ms` since the Unix epoch as `2025-10-09T12:34:56Z` (UTC, whole seconds). Pure arithmetic
/// (the civil-from-days algorithm): no clock, no time-zone data. Out-of-range or non-finite
/// input gives `1970-01-01T00:00:00Z`.
pub fn iso_utc(ms: f64) -> String {
    let secs = if ms.is_finite() && ms.abs() < 8.64e18 { (ms / 1000.0).floor() as i64 } else { 0 };
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests;
