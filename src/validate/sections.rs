//! Splitting the body into sections at their headings; the heading, locale and blank-line checks.

use crate::format::{Locale, Words};

use super::messages::{known_list, quote};
use super::scan::{fence_open, heading_level, is_blank, is_fence_close};
use super::words::{locales, SEVERITIES};
use super::{Kind, Rule, Section, Validator};

impl<'a> Validator<'a> {
    /// Splits the lines after the header into sections at the headings (not inside the fences of
    /// Content and Preview), checking the blank line before each heading and reporting text
    /// before the first one.
    pub(super) fn sections(&mut self, start: usize) -> Vec<Section<'a>> {
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
                _ => self.report(
                    n,
                    Rule::BlankLine,
                    format!(
                        "expected a blank line before {}, found {}",
                        quote(line),
                        quote(i.checked_sub(1).and_then(|p| lines.get(p)).copied().unwrap_or_default())
                    ),
                ),
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
            self.report(
                n,
                Rule::UnknownSection,
                format!("expected a section heading `### [Tag] Words` of {}, found {}", known_list(self.words()), quote(line)),
            );
            return None;
        };
        let kind = if SEVERITIES.contains(&tag) {
            Kind::Overview
        } else if let Some(k) = Kind::ALL.into_iter().find(|k| *k != Kind::Overview && k.tag() == tag) {
            k
        } else {
            let rule = if locales().any(|l| l.words().overview == word) { Rule::Overview } else { Rule::UnknownSection };
            let expected = if rule == Rule::Overview { "`### [OK|Warning|Fail] …`".to_string() } else { known_list(self.words()) };
            self.report(n, rule, format!("expected a heading of {expected}, found the tag {} in {}", quote(tag), quote(line)));
            return None;
        };
        if kind == Kind::Overview {
            self.parsed.severity = tag.to_string();
            self.overview_line = n;
        }
        let matched: Vec<Locale> = locales().filter(|l| kind.word(l.words()) == word).collect();
        let rule = if kind == Kind::Overview { Rule::Overview } else { Rule::UnknownSection };
        if matched.is_empty() {
            let forms: Vec<String> = locales().map(|l| format!("`### [{tag}] {}` ({})", kind.word(l.words()), l.as_str())).collect();
            self.report(n, rule, format!("expected {}, found {}", forms.join(" or "), quote(line)));
        } else {
            self.check_locale(n, &matched, line, |w| format!("`### [{tag}] {}`", kind.word(w)));
        }
        Some(kind)
    }

    /// `found` is in one of the locales `matched`; sets the locale on the first such line, and
    /// reports a later one in another locale.
    pub(super) fn check_locale(&mut self, n: usize, matched: &[Locale], found: &str, expected: impl Fn(&Words) -> String) {
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

    pub(super) fn body(&mut self, kind: Kind, s: &Section<'a>) {
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
    pub(super) fn rest(&mut self, s: &Section<'a>, from: usize, rule: Rule, expected: &str) {
        for &(n, line) in s.body.iter().skip(from) {
            if is_blank(line) {
                self.report(n, Rule::BlankLine, format!("expected no blank line inside {}", quote(s.heading)));
            } else {
                self.report(n, rule, format!("expected {expected}, found {}", quote(line)));
            }
        }
    }

    /// The next line of `s` at `*at` that is not blank; blank lines before it are reported.
    pub(super) fn next_line(&mut self, s: &Section<'a>, at: &mut usize) -> Option<(usize, &'a str)> {
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

    pub(super) fn end_line(&self, s: &Section<'a>) -> usize {
        s.body.last().map_or(s.line, |(n, _)| *n) + 1
    }
}

/// Adds a body line to the current section, or to the lines before the first heading.
fn push_body<'a>(sections: &mut [Section<'a>], before: &mut Vec<(usize, &'a str)>, n: usize, line: &'a str) {
    match sections.last_mut() {
        Some(s) => s.body.push((n, line)),
        None => before.push((n, line)),
    }
}
