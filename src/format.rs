//! Format: the Markdown views of a [`Response`] (docs/responses.md#markdown-layout). Views only: everything
//! shown is a field of the response, rendered through `Display`.
//!
//! Layout, in this exact order: the `status:`/`state:`/`flags:` header lines; `### [OK|Warning|Fail]
//! Overview` with `- summary:` and `- guidance:`; the `### [Metrics] Metrics` table when it says
//! something (a delta the summary does not state, or a selection); then, when present, `### [Target] Candidates`, `### [Text] Content` (the text `memo_read` returns;
//! docs/decisions.md#responses), `### [Diff] Preview`,
//! `### [Changes] Pending changes` (when the model lacks it, see `workspace::views::Said`),
//! `### [Tasks] Task stack` (when it changed), `### [Log] Session log`.
//!
//! Every section is separated from the one before by one empty line; every line ends with `\n`.
//! The heading words (`Overview`, `Metrics`, …), the metric header, the empty-guidance word and
//! the words inside the lines below come from one table per locale, [`Words`] (src/locale/en.rs, zh.rs,
//! [`Locale::words`]); the tags in brackets (`[OK]`, `[Metrics]`, `[Target]`, …), the header keys
//! (`status:`, `state:`, `flags:`), the list keys (`- summary:`, `- guidance:`), the metric names,
//! the candidate and session-log column names, and the status/state/flag values are the same in
//! every locale (docs/responses.md#locales-and-styles). The summary and guidance
//! sentences are written by the workspace in English and are not translated; the words live in
//! [`crate::locale`] (re-exported here).
//!
//! The summary (`- summary:`, and the JSON `summary` once rendered) is [`SummaryLine`]: `[Fail]
//! {defect}` when a check found the answer defective, `[Warning]` when the response warns, the
//! lead notes, the sentences, the trailing notes — each from its own field of the response.
//! [`Response::render`] fills `summary`, `markdown` and `markdown_basic`, once per call.
//!
//! Lines inside sections (`{w.field}` is a word of the locale; `line(n)` is `w.line` with `{}`
//! replaced by `n`; `paren(x)` is `w.paren` with `{}` replaced by `x`; `code(x)` is a code span):
//!
//! - Candidates, `candidate_style = table`: the header [`CANDIDATE_TABLE_HEADER`]
//!   (`| Id | MarkerStart | MarkerEnd | Preview | Occurrence | ContextStart | ContextEnd | Line | Recommended | Quality |`),
//!   the rule `| --- |` × 10, then one row per candidate: `Id`, `code(marker_start)`,
//!   `code(marker_end)`, `code(preview)` (with `|` escaped `\|`), occurrence, context start and
//!   end, line, `w.stale` / `w.yes` / `-` (stale wins over recommended), match quality.
//! - Candidates, `candidate_style = list` (default; docs/responses.md#candidates): one line per candidate,
//!   `- [{id}] {line(n)}{w.colon}{code(preview)}{mark}{quality}` where `mark` is `paren(w.stale)`
//!   for a stale candidate, else `w.arrow` + `w.recommended` for the recommended one, else
//!   nothing; `quality` is ` · {match_quality}` unless it is `exact`.
//!   en: ``- [B] line 45: `api.timeout: 30` ← recommended``, ``- [C] line 78: `cache.timeout: 30` (stale)``;
//!   zh: ``- [B] 第 45 行：`api.timeout: 30` ← 推荐``, ``- [C] 第 78 行：`cache.timeout: 30`（已失效）``.
//! - Content, Preview: a fenced block (three backticks, more when the text holds a run of them).
//! - Pending changes: `- [{change_id}] {path} {line(n)}{places}{w.colon}{code(old)} → {code(new)}{paren(delta)}`,
//!   then `w.amended` when the change was amended; `{path} ` only when the changes span several
//!   documents; old and new are [`change_snippets`] (where they differ, marked `⟦…⟧`);
//!   `places` is `fill(w.places, n)` for a change of n > 1 places (a replace-all: line, old and
//!   new are its first place's, delta counts them all), else nothing.
//! - Task stack (docs/workflow.md#task-stack), shown when a task is active or one has finished: first the active
//!   tasks, outermost first, `{two spaces × (depth − 1)}- [#{task_id}] {goal}{paren(word)}` where
//!   `word` is `w.task_current` for the innermost active task and `task_status(status)` otherwise;
//!   then, when a root task has finished, the thought tree: the line `w.tasks_done`, a line
//!   `- {fill(w.tasks_earlier, n)}` when `n` earlier roots are left out, one line
//!   `- {mark} {goal}` per finished root (oldest first, the last [`crate::tasks::TREE_ROOTS`]) and
//!   below it its subtasks `{prefix}├─ {mark} {goal}` (`└─` for the last child), `prefix` being
//!   two spaces under a root and growing by `│  ` (or three spaces below a last child) per level;
//!   `mark` is [`TASK_DONE`], [`TASK_REVERTED`] or [`TASK_OPEN`] (see [`task_mark`]).
//!   en: `- [#2] add module Y (current)`, `🌳 Tasks finished in this session:`, `- ✅ add module Y`,
//!   `  └─ ↩️ pin serde`; zh: `- [#2] 添加新功能模块 Y（当前）`, `🌳 本次会话已完成任务：`,
//!   `- ✅ 添加新功能模块 Y`, `  └─ ✅ 检查依赖版本`.
//! - Session log: the header [`SESSION_LOG_HEADER`] (`| # | tool | status | at_ms | tool_call_id |`), the rule, then
//!   `| {seq} | {tool} | {status or w.running} | {at_ms} | {tool_call_id or -} |`.
//!
//! The one-line view (`markdown_basic`, for older history entries; docs/responses.md#the-one-line-view):
//! `[{icon}] {status} · {state} · {first sentence}` (of the summary's sentences, or of the defect
//! when there is one: `[Warning]` is the icon, notes are for the detail view), then, when the response has
//! candidates that are not stale, `w.basic_candidates` with their letters (`A–C` for three or
//! more consecutive ones, else `A, C`), and `w.basic_recommended` with the recommended letter.
//! The first sentence ends at the first `.`/`!`/`?` outside a code span that a space or the end
//! follows (or at `。`/`！`/`？`); bracketed text leading the sentences is left out; at most 160
//! chars, `…` marking a cut.

use std::fmt::{self, Display, Formatter, Write as _};

use crate::response::{Candidate, Response, Status, SummaryNotes};

// The JSON text a response crosses to JS in (src/wasm.rs).
#[path = "format/json_text.rs"]
mod json_text;
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub(crate) use json_text::ascii_json;

// The words and fixed labels live in `locale` (views and the validator share them); their old
// paths here stay valid.
pub use crate::locale::{
    fill, signed, task_mark, Locale, Words, CANDIDATE_TABLE_HEADER, SESSION_LOG_HEADER, TASK_DONE, TASK_OPEN, TASK_REVERTED,
};

/// How candidates are shown: one line each (default) or a table (docs/responses.md#candidates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CandidateStyle {
    Table,
    /// The default: one line each, what the model needs to pick (the table's markers and
    /// offsets are in the JSON).
    #[default]
    List,
}

impl CandidateStyle {
    pub fn parse(s: &str) -> Option<CandidateStyle> {
        match s {
            "table" => Some(CandidateStyle::Table),
            "list" => Some(CandidateStyle::List),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CandidateStyle::Table => "table",
            CandidateStyle::List => "list",
        }
    }
}

/// What [`Response::render`] needs besides the response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RenderOptions {
    pub locale: Locale,
    pub candidate_style: CandidateStyle,
}

#[cfg(test)]
thread_local! {
    /// Renders on this thread (test builds only): a call renders its views once.
    pub static RENDERS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Response {
    /// Renders the views: `summary` becomes what the model reads (its sentences with `[Warning]`
    /// and the notes, [`SummaryLine`]), then `markdown` and `markdown_basic` are filled from the
    /// data. The workspace calls it once, at the end of a call (docs/architecture.md#the-path-of-a-tool-call);
    /// rendering again (after a defect was noted) composes from the same sentences. Cost: O(size
    /// of the views).
    pub(crate) fn render(&mut self, options: RenderOptions) {
        #[cfg(test)]
        RENDERS.with(|n| n.set(n.get() + 1));
        let sentences = self.sentences.get_or_insert_with(|| std::mem::take(&mut self.summary));
        self.summary = SummaryLine { sentences, warned: self.warned, notes: &self.notes }.to_string();
        // Sized once for the long parts (a read's content, a preview), not grown from empty.
        let long = self.content.as_ref().map_or(0, String::len) + self.preview.as_ref().map_or(0, String::len);
        let mut markdown = String::with_capacity(long + MARKDOWN_BESIDE_LONG_PARTS);
        let _ = write!(markdown, "{}", Markdown { response: self, options });
        self.markdown = markdown;
        self.markdown_basic = BasicLine { response: self, locale: options.locale }.to_string();
    }
}

/// Bytes reserved for a detail view besides its content and preview: the header, the overview
/// and the sections of a typical response fit.
const MARKDOWN_BESIDE_LONG_PARTS: usize = 1024;

/// The summary as the model reads it: `[Fail] {defect}`, `[Warning]`, the lead notes, the
/// sentences, the trailing notes, each present only when its field is, one space between.
pub struct SummaryLine<'a> {
    pub sentences: &'a str,
    pub warned: bool,
    pub notes: &'a SummaryNotes,
}

impl Display for SummaryLine<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(defect) = &self.notes.defect {
            write!(f, "[Fail] {defect} ")?;
        }
        if self.warned {
            f.write_str("[Warning] ")?;
        }
        for note in &self.notes.lead {
            write!(f, "{note} ")?;
        }
        f.write_str(self.sentences)?;
        for note in &self.notes.trail {
            write!(f, " {note}")?;
        }
        Ok(())
    }
}

/// The detail view (`markdown`).
pub struct Markdown<'a> {
    pub response: &'a Response,
    pub options: RenderOptions,
}

impl Display for Markdown<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let r = self.response;
        let w = self.options.locale.words();
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

        // A table of a zero delta and the length the summary or content already gives says
        // nothing, nor one whose delta a staging's summary states, nor one beside candidates
        // (their list counts them; nothing changed): a commit shows it
        // (docs/responses.md#markdown-layout). The JSON keeps every metric.
        if r.metrics.delta != 0 && !r.delta_in_summary && !matches!(r.status, Status::MultiMatch | Status::NoMatch) {
            metrics_section(f, r, w)?;
        }

        if !r.candidates.is_empty() {
            writeln!(f, "\n### [Target] {}", w.candidates)?;
            match self.options.candidate_style {
                CandidateStyle::Table => candidate_table(f, &r.candidates, w)?,
                CandidateStyle::List => candidate_list(f, &r.candidates, w)?,
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
        if !r.pending_changes.is_empty() && !r.pending_said_before {
            pending_section(f, r, w)?;
        }
        if (!r.task_stack.is_empty() || !r.task_tree.is_empty()) && !r.tasks_said_before {
            writeln!(f, "\n### [Tasks] {}", w.tasks)?;
            write!(f, "{}", TaskLines { stack: &r.task_stack, tree: &r.task_tree, earlier: r.task_tree_earlier, words: w })?;
        }
        if let Some(log) = &r.session_log {
            writeln!(f, "\n### [Log] {}", w.log)?;
            writeln!(f, "{SESSION_LOG_HEADER}\n| --- | --- | --- | --- | --- |")?;
            for e in log {
                writeln!(
                    f,
                    "| {} | {} | {} | {} | {} |",
                    e.seq,
                    log_cell(&e.tool),
                    e.status.map_or(w.running, |s| s.as_str()),
                    crate::decimal::shortest(e.at_ms),
                    e.tool_call_id.as_deref().map_or("-".to_string(), log_cell)
                )?;
            }
        }
        Ok(())
    }
}

// Sections a first call's response does not show, out of line: V8 compiles a wasm function
// whole on its first call (docs/performance.md#cold-start).

#[inline(never)]
fn metrics_section(f: &mut Formatter<'_>, r: &Response, w: &Words) -> fmt::Result {
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
    Ok(())
}

#[inline(never)]
fn pending_section(f: &mut Formatter<'_>, r: &Response, w: &Words) -> fmt::Result {
    writeln!(f, "\n### [Changes] {}", w.pending)?;
    // The path when the changes span several documents; the summary names the one.
    let first = r.pending_changes.first().map(|c| c.path.as_str());
    let several = r.pending_changes.iter().any(|c| Some(c.path.as_str()) != first);
    for c in &r.pending_changes {
        let (old, new) = change_snippets(&c.old_text, &c.new_text);
        writeln!(
            f,
            "- {} · {}{}{}{}{} → {}{}{}",
            fill(w.change, &c.change_id),
            if several { format!("{} ", one_line(&c.path)) } else { String::new() },
            w.line_no(c.line),
            if c.place_count > 1 { fill(w.places, &c.place_count.to_string()) } else { String::new() },
            w.colon,
            code(&old),
            code(&new),
            fill(w.paren, &signed(c.delta)),
            if c.amended { w.amended } else { "" }
        )?;
    }
    Ok(())
}

/// The task stack (outermost first, the innermost active one marked current) and the thought
/// tree of finished tasks as lines: the body of the Task stack section, also used by
/// the live context. Empty when both are.
pub struct TaskLines<'a> {
    pub stack: &'a [crate::response::TaskView],
    pub tree: &'a [crate::response::TaskNodeView],
    /// Finished root tasks the tree leaves out.
    pub earlier: usize,
    pub words: &'a Words,
}

impl fmt::Display for TaskLines<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let w = self.words;
        for (i, t) in self.stack.iter().enumerate() {
            let innermost = i + 1 == self.stack.len() && t.status == "Active";
            writeln!(
                f,
                "{}- [#{}] {}{}",
                "  ".repeat(t.depth.saturating_sub(1)),
                t.task_id,
                one_line(&t.goal),
                fill(w.paren, if innermost { w.task_current } else { w.task_status(&t.status) })
            )?;
        }
        if !self.tree.is_empty() {
            writeln!(f, "{}", w.tasks_done)?;
            if self.earlier > 0 {
                writeln!(f, "- {}", fill(w.tasks_earlier, &self.earlier.to_string()))?;
            }
            for root in self.tree {
                writeln!(f, "- {} {}", task_mark(&root.status), one_line(&root.goal))?;
                subtasks(f, &root.children, "  ")?;
            }
        }
        Ok(())
    }
}

/// The subtasks of a thought-tree node, `prefix` before their branch (see the module doc).
fn subtasks(f: &mut Formatter<'_>, nodes: &[crate::response::TaskNodeView], prefix: &str) -> fmt::Result {
    for (i, n) in nodes.iter().enumerate() {
        let last = i + 1 == nodes.len();
        writeln!(f, "{prefix}{} {} {}", if last { "└─" } else { "├─" }, task_mark(&n.status), one_line(&n.goal))?;
        subtasks(f, &n.children, &format!("{prefix}{}", if last { "   " } else { "│  " }))?;
    }
    Ok(())
}

fn candidate_table(f: &mut Formatter<'_>, candidates: &[Candidate], w: &Words) -> fmt::Result {
    writeln!(f, "{CANDIDATE_TABLE_HEADER}")?;
    writeln!(f, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")?;
    for c in candidates {
        let mark = match (c.recommended, c.stale) {
            (_, true) => w.stale,
            (true, false) => w.yes,
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
    Ok(())
}

fn candidate_list(f: &mut Formatter<'_>, candidates: &[Candidate], w: &Words) -> fmt::Result {
    for c in candidates {
        let mark = if c.stale {
            fill(w.paren, w.stale)
        } else if c.recommended {
            // `← 推荐（基于上下文相关性）`: the reason, in the locale's words.
            let reason = c.recommended_reason.map(|r| fill(w.paren, w.phrase(r.key())));
            format!("{}{}{}", w.arrow, w.recommended, reason.unwrap_or_default())
        } else {
            String::new()
        };
        let quality = if c.match_quality == "exact" { String::new() } else { format!(" · {}", c.match_quality) };
        writeln!(f, "- [{}] {}{}{}{mark}{quality}", c.id, w.line_no(c.line), w.colon, code(&c.preview))?;
    }
    Ok(())
}

/// The one-line view (`markdown_basic`) for older history entries.
pub struct BasicLine<'a> {
    pub response: &'a Response,
    pub locale: Locale,
}

impl Display for BasicLine<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let r = self.response;
        let w = self.locale.words();
        write!(
            f,
            "[{}] {} · {} · {}",
            r.severity().as_str(),
            r.status.as_str(),
            r.workflow_state.as_str(),
            first_sentence(said(r), BASIC_SUMMARY_CHARS)
        )?;
        let ids: Vec<&str> = r.candidates.iter().filter(|c| !c.stale).map(|c| c.id.as_str()).collect();
        if !ids.is_empty() {
            write!(f, "{}", fill(w.basic_candidates, &letters(&ids, w.letters_and)))?;
            if let Some(c) = r.candidates.iter().find(|c| c.recommended && !c.stale) {
                write!(f, "{}", fill(w.basic_recommended, &c.id))?;
            }
        }
        Ok(())
    }
}

/// What the one-line view takes its sentence from: a defect when there is one, else the
/// summary's sentences (the icon shows `[Warning]`; notes are for the detail view). The summary
/// itself before a render.
fn said(r: &Response) -> &str {
    match (&r.notes.defect, &r.sentences) {
        (Some(defect), _) => defect,
        (None, Some(sentences)) => sentences,
        (None, None) => &r.summary,
    }
}

/// Longest summary sentence `markdown_basic` keeps, in chars.
pub const BASIC_SUMMARY_CHARS: usize = 160;

/// `A–C` for consecutive single letters, else the letters joined by `and` (`A, C, D`; `A、C、D`).
fn letters(ids: &[&str], and: &str) -> String {
    let codes: Vec<Option<u32>> = ids
        .iter()
        .map(|id| {
            let mut cs = id.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => Some(c as u32),
                _ => None,
            }
        })
        .collect();
    let consecutive =
        ids.len() >= 3 && codes.iter().all(Option::is_some) && codes.windows(2).all(|p| matches!(p, [Some(a), Some(b)] if *b == a + 1));
    match (consecutive, ids.first(), ids.last()) {
        (true, Some(first), Some(last)) => format!("{first}–{last}"),
        _ => ids.join(and),
    }
}

/// The summary's first sentence on one line: leading bracketed notes (`[Warning]` too) left out, cut after the first `.`/`!`/`?` outside a code span that a space or the end
/// follows (or after `。！？`), then clipped to `max` chars.
pub fn first_sentence(summary: &str, max: usize) -> String {
    let mut s = one_line(summary);
    // Notes the workspace puts before the summary proper (`[x.md changed in storage …]`).
    loop {
        let t = s.trim_start();
        if t.starts_with('[') {
            if let Some((_, rest)) = t.split_once("] ") {
                let rest = rest.trim_start();
                if !rest.is_empty() {
                    s = rest.to_string();
                    continue;
                }
            }
        }
        break;
    }
    let mut in_code = false;
    // The byte after the sentence's last char.
    let mut end = s.len();
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '`' => in_code = !in_code,
            '。' | '！' | '？' if !in_code => {
                end = i + c.len_utf8();
                break;
            }
            '.' | '!' | '?' if !in_code && chars.peek().map_or(true, |&(_, n)| n.is_whitespace()) => {
                end = i + 1;
                break;
            }
            _ => {}
        }
    }
    crate::text::clip(s.get(..end).unwrap_or(&s).trim(), max)
}

/// Newlines shown as `⏎` so a value stays on its Markdown line.
/// Line breaks (`\n`, `\r\n`, a lone `\r`: Markdown ends a line at each) shown as `⏎` so a
/// value stays on its Markdown line.
fn one_line(s: &str) -> String {
    let s = s.trim_end();
    if !s.contains(['\r', '\n']) {
        return s.to_string();
    }
    s.replace("\r\n", "\n").replace(['\r', '\n'], " ⏎ ")
}

/// Chars of the line kept before a change's first differing span, of its span, and after it.
const SNIPPET_BEFORE: usize = 24;
const SNIPPET_SPAN: usize = 40;
const SNIPPET_AFTER: usize = 16;

/// A pending change's old and new text as the list shows them: the part around where they
/// differ. The text both share before the first difference is cut to its last line, indentation
/// trimmed (an indented line's change no longer reads the same on both sides of the arrow), at
/// most [`SNIPPET_BEFORE`] chars; then the differing spans between `⟦` and `⟧` (an insertion's
/// old side is `⟦⟧`), the continuation lines' shared indentation trimmed, at most
/// [`SNIPPET_SPAN`] chars; then the shared text after, to the end of its line, at most
/// [`SNIPPET_AFTER`] chars. `…` marks a cut. Cost: O(len(old) + len(new)).
pub fn change_snippets(old: &str, new: &str) -> (String, String) {
    let (o, n): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    if o == n {
        return (crate::text::clip(old, SNIPPET_SPAN), crate::text::clip(new, SNIPPET_SPAN));
    }
    let prefix = o.iter().zip(&n).take_while(|(a, b)| a == b).count();
    let room = o.len().min(n.len()) - prefix;
    let suffix = o.iter().rev().zip(n.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let shared_before: String = o.iter().take(prefix).collect();
    let line = shared_before.rsplit('\n').next().unwrap_or_default();
    let indent: String = line.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
    let line = line.trim_start_matches([' ', '\t']);
    let cut = line.chars().count().saturating_sub(SNIPPET_BEFORE);
    let before: String = if cut > 0 { std::iter::once('…').chain(line.chars().skip(cut)).collect() } else { line.to_string() };
    let after_line: String = o.iter().skip(o.len() - suffix).take_while(|c| **c != '\n').collect();
    let after = crate::text::clip(&after_line, SNIPPET_AFTER);
    let span = |side: &[char], end: usize| -> String {
        let mid: String = side.iter().take(end).skip(prefix).collect();
        let mid = mid.replace(&format!("\n{indent}"), "\n");
        format!("⟦{}⟧", crate::text::clip(&mid, SNIPPET_SPAN))
    };
    (format!("{before}{}{after}", span(&o, o.len() - suffix)), format!("{before}{}{after}", span(&n, n.len() - suffix)))
}

/// A Markdown code span that survives backticks inside (CommonMark: a longer fence).
pub fn code(s: &str) -> String {
    if s.is_empty() {
        return "` `".into();
    }
    let longest = longest_backtick_run(s);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{}{pad}{fence}", visible(s))
}

/// Line breaks as `⏎`, and what would not show at all as a visible stand-in: control
/// characters as their Control Pictures (`␀` for NUL), a BOM or zero-width character as
/// `⟨U+FEFF⟩`. A needle that differs from the document only there must show where.
fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push('⏎'),
            '\t' => out.push(c),
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('�')),
            '\u{7f}' => out.push('␡'),
            '\u{feff}' | '\u{200b}'..='\u{200f}' | '\u{2060}' => out.push_str(&format!("⟨U+{:04X}⟩", c as u32)),
            _ => out.push(c),
        }
    }
    out
}

/// Escapes what would end a GFM table cell.
fn table_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// A session-log cell for a name the agent or shell passed (a tool name, a tool_call_id): on one
/// line, escaped, and shown as an empty code span when it is empty or blank, so the row keeps
/// its five cells.
fn log_cell(s: &str) -> String {
    let cell = table_cell(&one_line(s));
    if cell.trim().is_empty() {
        code("")
    } else {
        cell
    }
}

fn fenced(f: &mut Formatter<'_>, body: &str) -> fmt::Result {
    let fence = "`".repeat(longest_backtick_run(body).max(2) + 1);
    f.write_str(&fence)?;
    f.write_char('\n')?;
    f.write_str(body)?;
    if !body.ends_with('\n') {
        f.write_char('\n')?;
    }
    f.write_str(&fence)?;
    f.write_char('\n')
}

/// The longest run of backticks in `s`. Cost: O(len(s)), memchr to each run (not a char
/// loop: a read's content is the largest thing a call renders).
fn longest_backtick_run(s: &str) -> usize {
    let bytes = s.as_bytes();
    let (mut best, mut at) = (0, 0);
    while let Some(found) = bytes.get(at..).and_then(|rest| memchr::memchr(b'`', rest)) {
        let run = bytes.iter().skip(at + found).take_while(|&&b| b == b'`').count();
        best = best.max(run);
        at += found + run;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::response::{Candidate, Status};
    use crate::workflow::{Flags, WorkflowState};

    const EN_TABLE: RenderOptions = RenderOptions { locale: Locale::En, candidate_style: CandidateStyle::Table };
    const ZH_TABLE: RenderOptions = RenderOptions { locale: Locale::Zh, candidate_style: CandidateStyle::Table };

    fn multi_match() -> Response {
        let mut r = Response::new(Status::MultiMatch, "Found 2 matches of `x` in a.md.").with_guidance("Call memo_replace with match_id.");
        r.workflow_state = WorkflowState::SelectionPending;
        r.flags = Flags::SELECTION_PENDING;
        r.metrics.new_length = Some(20);
        r.metrics.selection_count = Some(2);
        for (i, at) in [0usize, 10].iter().enumerate() {
            let id = ["A", "B"][i];
            r.candidates.push(Candidate {
                id: id.into(),
                line: i + 1,
                end_line: None,
                preview: "a | `b`".into(),
                marker_start: format!("[[SEL#{id}]]"),
                marker_end: format!("[[/SEL#{id}]]"),
                occurrence: i,
                context_start: *at,
                context_end: at + 1,
                recommended: i == 1,
                recommended_reason: None,
                pick_refused: false,
                stale: false,
                match_quality: "exact".into(),
            });
        }
        r
    }

    #[test]
    fn multi_match_markdown_en() {
        let mut r = multi_match();
        r.render(EN_TABLE);
        let expected = "status: `MultiMatch`
state: `SelectionPending`
flags: `SelectionPending`

### [Warning] Overview
- summary: Found 2 matches of `x` in a.md.
- guidance: Call memo_replace with match_id.

### [Target] Candidates
| Id | MarkerStart | MarkerEnd | Preview | Occurrence | ContextStart | ContextEnd | Line | Recommended | Quality |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| A | `[[SEL#A]]` | `[[/SEL#A]]` | `` a \\| `b` `` | 0 | 0 | 1 | 1 | - | exact |
| B | `[[SEL#B]]` | `[[/SEL#B]]` | `` a \\| `b` `` | 1 | 10 | 11 | 2 | yes | exact |
";
        assert_eq!(r.markdown, expected);
        assert_eq!(
            r.markdown_basic,
            "[Warning] MultiMatch · SelectionPending · Found 2 matches of `x` in a.md. · candidates A, B, recommended B"
        );
    }

    #[test]
    fn zh_headings_and_empty_guidance_follow_the_design() {
        let mut r = Response::new(Status::Success, "ok");
        r.render(ZH_TABLE);
        assert!(
            r.markdown.starts_with("status: `Success`\nstate: `Idle`\nflags: -\n\n### [OK] 概览\n- summary: ok\n- guidance: （留空）\n"),
            "{}",
            r.markdown
        );
        // A zero delta and no selection: no Metrics table.
        assert!(!r.markdown.contains("### [Metrics]"), "{}", r.markdown);
        r.metrics.delta = 3;
        r.render(ZH_TABLE);
        assert!(
            r.markdown.contains(
                "### [Metrics] 指标\n| 指标 | 值 |\n| --- | --- |\n| delta | +3 |\n| new_length | - |\n| selection_count | - |\n"
            ),
            "{}",
            r.markdown
        );
        // Flag values in backticks, in bit order.
        r.flags = crate::workflow::Flags::DIAGNOSTIC_HINT;
        r.render(ZH_TABLE);
        assert!(r.markdown.starts_with("status: `Success`\nstate: `Idle`\nflags: `DiagnosticHint`\n\n"), "{}", r.markdown);
        let mut m = multi_match();
        m.render(ZH_TABLE);
        assert!(m.markdown.contains("### [Target] 候选选区\n"));
    }

    #[test]
    fn list_style_follows_000_in_both_locales() {
        let mut r = multi_match();
        r.candidates[0].preview = "database.timeout: 30".into();
        r.candidates[1].preview = "api.timeout: 30".into();
        let mut stale = r.candidates[1].clone();
        stale.id = "C".into();
        stale.line = 78;
        stale.recommended = false;
        stale.stale = true;
        stale.match_quality = "indentation".into();
        r.candidates.push(stale);
        r.render(RenderOptions { locale: Locale::En, candidate_style: CandidateStyle::List });
        assert!(
            r.markdown.ends_with(
                "### [Target] Candidates\n- [A] line 1: `database.timeout: 30`\n- [B] line 2: `api.timeout: 30` ← recommended\n- [C] line 78: `api.timeout: 30` (stale) · indentation\n"
            ),
            "{}",
            r.markdown
        );
        assert_eq!(
            r.markdown_basic,
            "[Warning] MultiMatch · SelectionPending · Found 2 matches of `x` in a.md. · candidates A, B, recommended B"
        );
        r.render(RenderOptions { locale: Locale::Zh, candidate_style: CandidateStyle::List });
        assert!(
            r.markdown.ends_with(
                "### [Target] 候选选区\n- [A] 第 1 行：`database.timeout: 30`\n- [B] 第 2 行：`api.timeout: 30` ← 推荐\n- [C] 第 78 行：`api.timeout: 30`（已失效） · indentation\n"
            ),
            "{}",
            r.markdown
        );
        assert_eq!(r.markdown_basic, "[Warning] MultiMatch · SelectionPending · Found 2 matches of `x` in a.md. · 候选 A、B，推荐 B");
    }

    #[test]
    fn zh_lines_inside_sections() {
        let mut r = Response::new(Status::Success, "ok");
        r.pending_changes.push(crate::response::PendingChangeView {
            change_id: "A".into(),
            path: "config.json".into(),
            position: 50,
            line: 4,
            base_line: 4,
            old_text: "[]".into(),
            new_text: "[\"X\"]".into(),
            delta: 3,
            amended: true,
            place_count: 1,
            places: Vec::new(),
        });
        r.task_stack.push(crate::response::TaskView {
            task_id: "1".into(),
            goal: "启用实验性功能 X".into(),
            status: "Active".into(),
            depth: 1,
        });
        r.render(ZH_TABLE);
        // One document: its path is the summary's, not repeated on each line.
        assert!(
            r.markdown.contains("\n### [Changes] 待定变更\n- 变更 A · 第 4 行：`[⟦⟧]` → `[⟦\"X\"⟧]`（+3）（已合并）\n"),
            "{}",
            r.markdown
        );
        assert!(r.markdown.contains("\n### [Tasks] 任务栈\n- [#1] 启用实验性功能 X（当前）\n"), "{}", r.markdown);
        r.render(EN_TABLE);
        assert!(
            r.markdown.contains("\n### [Changes] Pending changes\n- change A · line 4: `[⟦⟧]` → `[⟦\"X\"⟧]` (+3) amended\n"),
            "{}",
            r.markdown
        );
        // Changes in several documents name theirs.
        let mut b = r.pending_changes[0].clone();
        (b.change_id, b.path) = ("B".into(), "b.json".into());
        r.pending_changes.push(b);
        r.render(EN_TABLE);
        assert!(
            r.markdown.contains("- change A · config.json line 4: `[⟦⟧]`") && r.markdown.contains("- change B · b.json line 4: "),
            "{}",
            r.markdown
        );
        assert!(r.markdown.contains("\n### [Tasks] Task stack\n- [#1] 启用实验性功能 X (current)\n"), "{}", r.markdown);
    }

    #[test]
    fn task_stack_and_thought_tree() {
        use crate::response::{TaskNodeView, TaskView};
        let node = |id: &str, goal: &str, status: &str, children: Vec<TaskNodeView>| TaskNodeView {
            task_id: id.into(),
            goal: goal.into(),
            status: status.into(),
            summary: Some("s".into()),
            children,
        };
        let mut r = Response::new(Status::Success, "ok");
        // Only finished tasks: the section holds the tree alone (the nested-task flow).
        r.task_tree = vec![
            node("1", "启用实验性功能 X", "Completed", vec![]),
            node("2", "添加新功能模块 Y", "Completed", vec![node("3", "检查依赖版本", "Completed", vec![])]),
        ];
        r.render(ZH_TABLE);
        assert!(
            r.markdown.ends_with(
                "\n### [Tasks] 任务栈\n🌳 本次会话已完成任务：\n- ✅ 启用实验性功能 X\n- ✅ 添加新功能模块 Y\n  └─ ✅ 检查依赖版本\n"
            ),
            "{}",
            r.markdown
        );
        // Active tasks first, the innermost current; deeper subtrees keep their branches.
        r.task_stack.push(TaskView { task_id: "6".into(), goal: "outer".into(), status: "Active".into(), depth: 1 });
        r.task_stack.push(TaskView { task_id: "7".into(), goal: "inner".into(), status: "Active".into(), depth: 2 });
        r.task_tree = vec![node(
            "1",
            "a",
            "Completed",
            vec![
                node("2", "b", "Completed", vec![node("3", "c", "Reverted", vec![])]),
                node("4", "d", "Reverted", vec![node("5", "e", "Completed", vec![])]),
            ],
        )];
        r.task_tree_earlier = 3;
        r.render(EN_TABLE);
        let want = "\n### [Tasks] Task stack\n- [#6] outer (Active)\n  - [#7] inner (current)\n🌳 Tasks finished in this session:\n- … 3 earlier\n- ✅ a\n  ├─ ✅ b\n  │  └─ ↩️ c\n  └─ ↩️ d\n     └─ ✅ e\n";
        assert!(r.markdown.ends_with(want), "{}", r.markdown);
        r.render(ZH_TABLE);
        assert!(
            r.markdown.contains("- [#6] outer（进行中）\n  - [#7] inner（当前）\n🌳 本次会话已完成任务：\n- … 更早的 3 项\n- ✅ a\n"),
            "{}",
            r.markdown
        );
    }

    #[test]
    fn basic_line_keeps_the_first_sentence() {
        assert_eq!(
            first_sentence("Staged change A in config.json at line 4 (+3 chars). Check the preview.", 160),
            "Staged change A in config.json at line 4 (+3 chars)."
        );
        // A period inside a code span or a file name does not end the sentence.
        assert_eq!(first_sentence("Replaced `a. b` in x.md. More.", 160), "Replaced `a. b` in x.md.");
        assert_eq!(first_sentence("[a.md changed in storage (version v2) and was reloaded.] Read 3 lines. x", 160), "Read 3 lines.");
        assert_eq!(first_sentence("[Warning] Fuzzy match. x", 160), "Fuzzy match.");
        assert_eq!(first_sentence("[Read-only]", 160), "[Read-only]");
        assert_eq!(first_sentence("no end\nat all", 160), "no end ⏎ at all");
        assert_eq!(first_sentence(&"x".repeat(200), 160), format!("{}…", "x".repeat(160)));
        assert_eq!(letters(&["A", "B", "C"], ", "), "A–C");
        assert_eq!(letters(&["A", "C", "D"], ", "), "A, C, D");
        assert_eq!(letters(&["A", "B"], "、"), "A、B");
        assert_eq!(letters(&["A"], ", "), "A");
    }

    #[test]
    fn options_parse_and_words_are_complete() {
        assert_eq!(CandidateStyle::parse("list"), Some(CandidateStyle::List));
        assert_eq!(CandidateStyle::parse("table"), Some(CandidateStyle::Table));
        assert_eq!(CandidateStyle::parse("rows"), None);
        for w in crate::locale::LOCALES {
            assert!(w.line.contains("{}") && w.paren.contains("{}"));
            assert!(w.basic_candidates.contains("{}") && w.basic_recommended.contains("{}"));
            assert!(w.tasks_earlier.contains("{}"));
        }
        assert_eq!(Locale::Zh.words().line_no(45), "第 45 行");
    }

    #[test]
    fn code_spans_and_fences_survive_backticks() {
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x`"), "`` `x` ``");
        assert_eq!(code(""), "` `");
        let mut r = Response::new(Status::Success, "ok");
        r.content = Some("```\ncode\n```".into());
        r.render(EN_TABLE);
        assert!(r.markdown.contains("\n````\n```\ncode\n```\n````\n"));
    }

    #[test]
    fn change_snippets_show_where_old_and_new_differ() {
        let s = |o: &str, n: &str| change_snippets(o, n);
        // An indented line: the indentation is trimmed, so the change is in view on both sides.
        let indent = " ".repeat(24);
        assert_eq!(
            s(&format!("{indent}return compute_total(items, rate=0.5)"), &format!("{indent}return compute_total(items, rate=0.75)")),
            ("…ute_total(items, rate=0.⟦⟧5)".to_string(), "…ute_total(items, rate=0.⟦7⟧5)".to_string())
        );
        // One changed character.
        assert_eq!(s("x = 1;", "x = 2;"), ("x = ⟦1⟧;".to_string(), "x = ⟦2⟧;".to_string()));
        // A line put in: the old side shows where, continuation lines lose the shared indentation.
        assert_eq!(s("  a();\n  b();\n", "  a();\n  c();\n    d();\n  b();\n"), ("⟦⟧b();".to_string(), "⟦c();\n  d();\n⟧b();".to_string()));
        // A long span and a long tail are clipped, `…` marking the cuts.
        let (o, n) = s("head ", &format!("head {} tail-that-goes-on-and-on", "z".repeat(80)));
        assert_eq!(o, "head ⟦⟧");
        assert!(n.starts_with("head ⟦zzz") && n.ends_with("…⟧") && n.chars().count() < 60, "{n}");
        // Equal texts (a NoOp kept as a change) are shown clipped, unmarked.
        assert_eq!(s("same", "same"), ("same".to_string(), "same".to_string()));
    }

    #[test]
    fn signed_deltas() {
        assert_eq!(signed(12), "+12");
        assert_eq!(signed(-3), "-3");
        assert_eq!(signed(0), "0");
    }
}
