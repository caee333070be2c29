//! Pending changes, Task stack and Session log: one item per line (item 7 of the layout).

use crate::format::{fill, TASK_DONE, TASK_OPEN, TASK_REVERTED};

use super::messages::quote;
use super::scan::{is_decimal, is_separator, row_cells, signed_int, whole};
use super::words::{locales, template, LOG_HEADER, STATUSES};
use super::{Rule, Section, Validator};

impl<'a> Validator<'a> {
    /// ``- change A · path line 4: `old` → `new` (+3)``, then ` amended` (format.rs; the words are
    /// the locale's). The path is free text, so only the letter, the arrow and the end are
    /// checked.
    pub(super) fn pending(&mut self, s: &Section<'a>) {
        let w = self.words();
        let mut at = 0;
        let mut any = false;
        while let Some((n, line)) = self.next_line(s, &mut at) {
            any = true;
            let (change_before, change_after) = template(w.change);
            let rest = line
                .strip_prefix("- ")
                .and_then(|r| r.strip_prefix(change_before))
                .and_then(|r| r.split_once(" · "))
                .and_then(|(id, rest)| Some((id.strip_suffix(change_after)?, rest)))
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
                    format!(
                        "expected a pending change `- {} · path {before}N{after}{}`old` → `new`{paren}` (then `{}` if amended), found {}",
                        fill(w.change, "A"),
                        w.colon,
                        w.amended.trim(),
                        quote(line)
                    ),
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
    pub(super) fn tasks(&mut self, s: &Section<'a>) {
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
                let earlier = tree_lines == 0
                    && line.strip_prefix("- ").is_some_and(|r| {
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
                            format!(
                                "expected a finished task at most one level below the one before (level {} or less), found level {l}",
                                level + 1
                            ),
                        );
                        tree = Some(l);
                    }
                    None => {
                        let marks = [TASK_DONE, TASK_REVERTED, TASK_OPEN].join(" ");
                        self.report(
                            n,
                            Rule::SectionBody,
                            format!(
                                "expected a finished task `- {TASK_DONE} goal` or `  └─ {TASK_DONE} goal` (marks {marks}), found {}",
                                quote(line)
                            ),
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
            let shape =
                item.strip_prefix("- [#").and_then(|r| r.split_once("] ")).filter(|(id, _)| whole(id).is_some()).map(|(_, rest)| rest);
            let status_ok = shape
                .is_some_and(|rest| statuses.iter().any(|st| rest.ends_with(&fill(w.paren, st)) && rest.len() > fill(w.paren, st).len()));
            if let Some(c) = current_at {
                self.report(
                    c,
                    Rule::SectionBody,
                    format!(
                        "expected `{}` only on the innermost (last) active task, found it on line {c} with another task after it",
                        current.trim()
                    ),
                );
                current_at = None;
            }
            if !status_ok {
                let example = fill(w.paren, w.task_active);
                self.report(
                    n,
                    Rule::SectionBody,
                    format!(
                        "expected a task `- [#1] goal{example}` (status {}) or the line `{}`, found {}",
                        statuses.join(", "),
                        w.tasks_done,
                        quote(line)
                    ),
                );
            } else if indent % 2 != 0 || indent / 2 > depth {
                self.report(
                    n,
                    Rule::SectionBody,
                    format!(
                        "expected a task indented {} spaces or fewer (two per level, one level deeper at most), found {indent}",
                        depth * 2
                    ),
                );
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
    pub(super) fn log(&mut self, s: &Section<'a>) {
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
                self.report(
                    end,
                    Rule::SectionBody,
                    "expected the separator `| --- | --- | --- | --- | --- |`, found the end of the section",
                );
                return;
            }
        }
        while let Some((n, line)) = self.next_line(s, &mut at) {
            let cells = match row_cells(line) {
                Some(c) if c.len() == 5 => c,
                Some(c) => {
                    self.report(
                        n,
                        Rule::SectionBody,
                        format!("expected 5 cells (#, tool, status, at_ms, tool_call_id), found {} in {}", c.len(), quote(line)),
                    );
                    continue;
                }
                None => {
                    self.report(
                        n,
                        Rule::SectionBody,
                        format!("expected a session-log row `| # | tool | status | at_ms | tool_call_id |`, found {}", quote(line)),
                    );
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
                match locales().find(|l| l.words().running == cells[2]) {
                    Some(l) => self.report(
                        n,
                        Rule::Locale,
                        format!(
                            "expected `{}` (locale {}), found {} (locale {})",
                            w.running,
                            self.parsed_locale().as_str(),
                            quote(&cells[2]),
                            l.as_str()
                        ),
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
}

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
