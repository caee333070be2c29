//! Format: the Markdown views of a [`Response`] (`003` §6, DESIGN §5). Views only: everything
//! shown is a field of the response, rendered through `Display`.
//!
//! Layout, in this exact order: the `status:`/`state:`/`flags:` header lines; `### [OK|Warning|Fail]
//! Overview` with `- summary:` and `- guidance:`; the `### [Metrics] Metrics` table; then, when
//! present, `### [Target] Candidates`, `### [Text] Content` (the text `memo_read` returns — an
//! addition of ours: the seeds do not say where a read's text goes), `### [Diff] Preview`,
//! `### [Changes] Pending changes`, `### [Tasks] Task stack`, `### [Log] Session log`.

use std::fmt::{self, Display, Formatter, Write as _};

use crate::response::Response;

/// Language of the fixed Markdown words. `en` is the default; `zh` reproduces the seed's
/// headings word for word.
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

    fn words(self) -> &'static Words {
        match self {
            Locale::En => &EN,
            Locale::Zh => &ZH,
        }
    }
}

struct Words {
    overview: &'static str,
    metrics: &'static str,
    metric_header: &'static str,
    candidates: &'static str,
    content: &'static str,
    preview: &'static str,
    pending: &'static str,
    tasks: &'static str,
    log: &'static str,
    empty: &'static str,
    line: &'static str,
}

const EN: Words = Words {
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
    line: "line",
};

const ZH: Words = Words {
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
    line: "行",
};

/// The detail view (`markdown`).
pub struct Markdown<'a> {
    pub response: &'a Response,
    pub locale: Locale,
}

impl Display for Markdown<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let r = self.response;
        let w = self.locale.words();
        writeln!(f, "status: `{}`", r.status.as_str())?;
        writeln!(f, "state: `{}`", r.workflow_state.as_str())?;
        let names = r.flags.names();
        if names.is_empty() {
            writeln!(f, "flags: -")?;
        } else {
            let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            writeln!(f, "flags: {}", list.join(", "))?;
        }

        writeln!(f, "\n### [{}] {}", r.severity().as_str(), w.overview)?;
        writeln!(f, "- summary: {}", one_line(&r.summary))?;
        match &r.guidance {
            Some(g) if !g.trim().is_empty() => writeln!(f, "- guidance: {}", one_line(g))?,
            _ => writeln!(f, "- guidance: {}", w.empty)?,
        }

        writeln!(f, "\n### [Metrics] {}", w.metrics)?;
        writeln!(f, "{}\n| --- | --- |", w.metric_header)?;
        writeln!(f, "| delta | {} |", signed(r.metrics.delta))?;
        match r.metrics.new_length {
            Some(n) => writeln!(f, "| new_length | {n} |")?,
            None => writeln!(f, "| new_length | - |")?,
        }
        match r.metrics.selection_count {
            Some(n) => writeln!(f, "| selection_count | {n} |")?,
            None => writeln!(f, "| selection_count | - |")?,
        }

        if !r.candidates.is_empty() {
            writeln!(f, "\n### [Target] {}", w.candidates)?;
            writeln!(
                f,
                "| Id | MarkerStart | MarkerEnd | Preview | Occurrence | ContextStart | ContextEnd | Line | Recommended | Quality |"
            )?;
            writeln!(f, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")?;
            for c in &r.candidates {
                let mark = match (c.recommended, c.stale) {
                    (_, true) => "stale",
                    (true, false) => "yes",
                    (false, false) => "-",
                };
                writeln!(
                    f,
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    c.id,
                    code(&c.marker_start),
                    code(&c.marker_end),
                    table_cell(&code(&c.preview)),
                    c.occurrence,
                    c.context_start,
                    c.context_end,
                    c.line,
                    mark,
                    c.match_quality
                )?;
            }
        }

        if let Some(content) = &r.content {
            writeln!(f, "\n### [Text] {}", w.content)?;
            fenced(f, content)?;
        }
        if let Some(preview) = &r.preview {
            writeln!(f, "\n### [Diff] {}", w.preview)?;
            fenced(f, preview)?;
        }
        if !r.pending_changes.is_empty() {
            writeln!(f, "\n### [Changes] {}", w.pending)?;
            for c in &r.pending_changes {
                writeln!(
                    f,
                    "- [{}] {} {} {}: {} → {} ({}){}",
                    c.change_id,
                    c.path,
                    w.line,
                    c.line,
                    code(&clip(&c.old_text)),
                    code(&clip(&c.new_text)),
                    signed(c.delta),
                    if c.amended { " amended" } else { "" }
                )?;
            }
        }
        if !r.task_stack.is_empty() {
            writeln!(f, "\n### [Tasks] {}", w.tasks)?;
            for t in &r.task_stack {
                writeln!(f, "{}- [#{}] {} ({})", "  ".repeat(t.depth.saturating_sub(1)), t.task_id, t.goal, t.status)?;
            }
        }
        if let Some(log) = &r.session_log {
            writeln!(f, "\n### [Log] {}", w.log)?;
            writeln!(f, "| # | tool | status | at_ms | tool_call_id |\n| --- | --- | --- | --- | --- |")?;
            for e in log {
                writeln!(
                    f,
                    "| {} | {} | {} | {} | {} |",
                    e.seq,
                    table_cell(&e.tool),
                    e.status.map_or("(running)", |s| s.as_str()),
                    e.at_ms,
                    e.tool_call_id.as_deref().map_or("-".to_string(), table_cell)
                )?;
            }
        }
        Ok(())
    }
}

/// The one-line view (`markdown_basic`) for older history entries.
pub struct BasicLine<'a> {
    pub response: &'a Response,
}

impl Display for BasicLine<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let r = self.response;
        write!(
            f,
            "[{}] {} · {} · {}",
            r.severity().as_str(),
            r.status.as_str(),
            r.workflow_state.as_str(),
            one_line(&r.summary)
        )
    }
}

/// `+12`, `-3`, `0`: the seed's delta form.
pub fn signed(n: isize) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// Newlines shown as `⏎` so a value stays on its Markdown line.
fn one_line(s: &str) -> String {
    s.trim_end().replace('\n', " ⏎ ")
}

/// At most 60 chars, with `…` marking a cut.
fn clip(s: &str) -> String {
    crate::text::clip(&s.replace('\n', "⏎"), 60)
}

/// A Markdown code span that survives backticks inside (CommonMark: a longer fence).
pub fn code(s: &str) -> String {
    if s.is_empty() {
        return "` `".into();
    }
    let longest = longest_run(s, '`');
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{}{pad}{fence}", s.replace('\n', "⏎"))
}

/// Escapes what would end a GFM table cell.
fn table_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

fn fenced(f: &mut Formatter<'_>, body: &str) -> fmt::Result {
    let fence = "`".repeat(longest_run(body, '`').max(2) + 1);
    let mut text = String::with_capacity(body.len() + 16);
    let _ = writeln!(text, "{fence}");
    text.push_str(body);
    if !body.ends_with('\n') {
        text.push('\n');
    }
    let _ = writeln!(text, "{fence}");
    f.write_str(&text)
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in s.chars() {
        if ch == c {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::response::{Candidate, Status};
    use crate::workflow::{Flags, WorkflowState};

    fn multi_match() -> Response {
        let mut r = Response::new(Status::MultiMatch, "Found 2 matches of `x` in a.md.")
            .with_guidance("Call memo_replace with match_id.");
        r.workflow_state = WorkflowState::SelectionPending;
        r.flags = Flags::SELECTION_PENDING;
        r.metrics.new_length = Some(20);
        r.metrics.selection_count = Some(2);
        for (i, at) in [0usize, 10].iter().enumerate() {
            let id = ["A", "B"][i];
            r.candidates.push(Candidate {
                id: id.into(),
                line: i + 1,
                preview: "a | `b`".into(),
                marker_start: format!("[[SEL#{id}]]"),
                marker_end: format!("[[/SEL#{id}]]"),
                occurrence: i,
                context_start: *at,
                context_end: at + 1,
                recommended: i == 1,
                stale: false,
                match_quality: "exact".into(),
            });
        }
        r
    }

    #[test]
    fn multi_match_markdown_en() {
        let mut r = multi_match();
        r.render(Locale::En);
        let expected = "status: `MultiMatch`
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
        assert_eq!(r.markdown, expected);
        assert_eq!(r.markdown_basic, "[Warning] MultiMatch · SelectionPending · Found 2 matches of `x` in a.md.");
    }

    #[test]
    fn zh_headings_and_empty_guidance_follow_the_seed() {
        let mut r = Response::new(Status::Success, "ok");
        r.render(Locale::Zh);
        assert!(r.markdown.contains("### [OK] 概览\n- summary: ok\n- guidance: （留空）\n"));
        assert!(r.markdown.contains("### [Metrics] 指标\n| 指标 | 值 |\n| --- | --- |\n"));
        assert!(r.markdown.contains("flags: -\n"));
        let mut m = multi_match();
        m.render(Locale::Zh);
        assert!(m.markdown.contains("### [Target] 候选选区\n"));
    }

    #[test]
    fn code_spans_and_fences_survive_backticks() {
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x`"), "`` `x` ``");
        assert_eq!(code(""), "` `");
        let mut r = Response::new(Status::Success, "ok");
        r.content = Some("```\ncode\n```".into());
        r.render(Locale::En);
        assert!(r.markdown.contains("\n````\n```\ncode\n```\n````\n"));
    }

    #[test]
    fn signed_deltas() {
        assert_eq!(signed(12), "+12");
        assert_eq!(signed(-3), "-3");
        assert_eq!(signed(0), "0");
    }
}
