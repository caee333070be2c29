//! Locale: the fixed words and labels of the Markdown views, one table per language ([`Words`]:
//! [`EN`], [`ZH`]), and the forms every view shares (`+3` deltas, `{}` templates). Plain data at
//! the bottom of the module graph: the views ([`crate::format`], the live context, history
//! summaries) and the validator read it; it reads nothing of theirs
//! (docs/responses.md#locales-and-styles).

use crate::matching::recommend::Reason;

/// Language of the fixed Markdown words. `en` is the default; `zh` writes every fixed
/// word in Chinese.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Locale {
    #[default]
    En,
    Zh,
}

impl Locale {
    pub fn parse(s: &str) -> Option<Locale> {
        match s {
            "en" => Some(Locale::En),
            "zh" => Some(Locale::Zh),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Zh => "zh",
        }
    }

    /// The fixed words of this locale.
    pub fn words(self) -> &'static Words {
        match self {
            Locale::En => &EN,
            Locale::Zh => &ZH,
        }
    }
}

/// The fixed words of one locale: every word the formatter writes that is not a field of the
/// response, a tag in brackets, a key or a column name. Fields holding `{}` are templates: the
/// value replaces the `{}`.
#[derive(Debug)]
pub struct Words {
    /// `### [OK] {overview}`.
    pub overview: &'static str,
    /// `### [Metrics] {metrics}`.
    pub metrics: &'static str,
    /// The metrics table's header line.
    pub metric_header: &'static str,
    /// `### [Target] {candidates}`.
    pub candidates: &'static str,
    /// `### [Text] {content}`.
    pub content: &'static str,
    /// `### [Diff] {preview}`.
    pub preview: &'static str,
    /// `### [Changes] {pending}`.
    pub pending: &'static str,
    /// `### [Tasks] {tasks}`.
    pub tasks: &'static str,
    /// `### [Log] {log}`.
    pub log: &'static str,
    /// What `- guidance:` says when there is none.
    pub empty: &'static str,
    /// A 1-based line number: `line 12` / `第 12 行`.
    pub line: &'static str,
    /// Between a line number and what is on it: `: ` / `：`.
    pub colon: &'static str,
    /// A parenthesised remark after a value: ` (+3)` / `（+3）`.
    pub paren: &'static str,
    /// Before [`Words::recommended`] in a candidate line: ` ← `.
    pub arrow: &'static str,
    /// The recommended candidate: `recommended` / `推荐`.
    pub recommended: &'static str,
    /// Why a candidate is recommended, in this language: [`Reason::en`] or [`Reason::zh`].
    pub reason: fn(Reason) -> &'static str,
    /// A candidate whose text an edit staged since changed: `stale` / `已失效`.
    pub stale: &'static str,
    /// The table's `Recommended` cell of the recommended candidate: `yes` / `是`.
    pub yes: &'static str,
    /// A pending change by its letter, in the pending list and the preview's hunk labels:
    /// `change {}` / `变更 {}` — never `[A]`, which is a candidate's (docs/responses.md#letters).
    pub change: &'static str,
    /// Between the letters of one preview label (`change C, B`).
    pub letters_and: &'static str,
    /// After a pending change that was merged with a later edit: ` amended` / `（已合并）`.
    pub amended: &'static str,
    /// After the line of a pending change with several places (a replace-all): `, 3 places` /
    /// `，共 3 处`.
    pub places: &'static str,
    /// A session-log entry without a status yet (the export call itself).
    pub running: &'static str,
    /// Task statuses: `Active`, `Completed`, `Reverted` (en keeps the JSON values).
    pub task_active: &'static str,
    pub task_completed: &'static str,
    pub task_reverted: &'static str,
    /// The innermost active task's word in the stack: `current` / `当前`.
    pub task_current: &'static str,
    /// The line that starts the thought tree: `🌳 Tasks finished in this session:` /
    /// `🌳 本次会话已完成任务：` (the Chinese task-tree wording).
    pub tasks_done: &'static str,
    /// The tree's line for the root tasks left out: `… 3 earlier` / `… 更早的 3 项`.
    pub tasks_earlier: &'static str,
    /// `markdown_basic`: ` · candidates A–C` / ` · 候选 A–C`.
    pub basic_candidates: &'static str,
    /// `markdown_basic`: `, recommended B` / `，推荐 B`.
    pub basic_recommended: &'static str,
}

impl Words {
    /// `line 12` / `第 12 行`.
    pub fn line_no(&self, n: usize) -> String {
        fill(self.line, &n.to_string())
    }

    /// The word for a task status as shown in the task stack.
    pub fn task_status<'a>(&'a self, status: &'a str) -> &'a str {
        match status {
            "Active" => self.task_active,
            "Completed" => self.task_completed,
            "Reverted" => self.task_reverted,
            other => other,
        }
    }
}

pub const EN: Words = Words {
    overview: "Overview",
    metrics: "Metrics",
    metric_header: "| metric | value |",
    candidates: "Candidates",
    content: "Content",
    preview: "Preview",
    pending: "Pending changes",
    tasks: "Task stack",
    log: "Session log",
    empty: "(empty)",
    line: "line {}",
    colon: ": ",
    paren: " ({})",
    arrow: " ← ",
    recommended: "recommended",
    reason: Reason::en,
    stale: "stale",
    yes: "yes",
    change: "change {}",
    letters_and: ", ",
    amended: " amended",
    places: ", {} places",
    running: "(running)",
    task_active: "Active",
    task_completed: "Completed",
    task_reverted: "Reverted",
    task_current: "current",
    tasks_done: "🌳 Tasks finished in this session:",
    tasks_earlier: "… {} earlier",
    basic_candidates: " · candidates {}",
    basic_recommended: ", recommended {}",
};

/// The Chinese headings and the Chinese phrasing of the candidate lines
/// (`第 45 行：`, `← 推荐`, `待定变更`, `任务栈`).
pub const ZH: Words = Words {
    overview: "概览",
    metrics: "指标",
    metric_header: "| 指标 | 值 |",
    candidates: "候选选区",
    content: "内容",
    preview: "预览",
    pending: "待定变更",
    tasks: "任务栈",
    log: "会话日志",
    empty: "（留空）",
    line: "第 {} 行",
    colon: "：",
    paren: "（{}）",
    arrow: " ← ",
    recommended: "推荐",
    reason: Reason::zh,
    stale: "已失效",
    yes: "是",
    change: "变更 {}",
    letters_and: "、",
    amended: "（已合并）",
    places: "，共 {} 处",
    running: "（进行中）",
    task_active: "进行中",
    task_completed: "已完成",
    task_reverted: "已撤销",
    task_current: "当前",
    tasks_done: "🌳 本次会话已完成任务：",
    tasks_earlier: "… 更早的 {} 项",
    basic_candidates: " · 候选 {}",
    basic_recommended: "，推荐 {}",
};

/// The thought tree's marks (the same in every locale): a completed task, a
/// reverted one, and one still open (which a finished root cannot hold; shown for safety).
pub const TASK_DONE: &str = "✅";
pub const TASK_REVERTED: &str = "↩️";
pub const TASK_OPEN: &str = "📝";

/// The mark of a task status in the thought tree.
pub fn task_mark(status: &str) -> &'static str {
    match status {
        "Completed" => TASK_DONE,
        "Reverted" => TASK_REVERTED,
        _ => TASK_OPEN,
    }
}

/// The candidate table's header line (the same in every locale).
pub const CANDIDATE_TABLE_HEADER: &str =
    "| Id | MarkerStart | MarkerEnd | Preview | Occurrence | ContextStart | ContextEnd | Line | Recommended | Quality |";
/// The session log table's header line.
pub const SESSION_LOG_HEADER: &str = "| # | tool | status | at_ms | tool_call_id |";

/// `template` with its `{}` replaced by `value`.
pub fn fill(template: &str, value: &str) -> String {
    template.replacen("{}", value, 1)
}

/// `+12 chars`, `-3 chars`, `±0 chars`: what an edit or a commit did to the length. A bare
/// `0 chars` reads as "nothing changed" where a change kept the length.
pub fn chars_delta(n: isize) -> String {
    if n == 0 {
        "±0 chars".to_string()
    } else {
        format!("{} chars", signed(n))
    }
}

/// `+12`, `-3`, `0`: a signed delta.
pub fn signed(n: isize) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

