//! The Candidates section, as the ten-column table or as list lines (item 5 of the layout).

use crate::format::{fill, CandidateStyle};
use crate::matching::recommend::Reason;

use super::messages::quote;
use super::scan::{code_span, is_blank, is_separator, leading_code_span, row_cells, whole};
use super::words::{l_yes, locales, template, CANDIDATE_COLUMNS};
use super::{ParsedCandidate, Rule, Section, Validator};

impl<'a> Validator<'a> {
    pub(super) fn candidates(&mut self, s: &Section<'a>) {
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
                let diff = (0..cells.len().max(CANDIDATE_COLUMNS.len()))
                    .find(|&i| cells.get(i).map(String::as_str) != CANDIDATE_COLUMNS.get(i).copied());
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
                    format!(
                        "expected {} cells ({}), found {} in {}",
                        CANDIDATE_COLUMNS.len(),
                        CANDIDATE_COLUMNS.join(", "),
                        cells.len(),
                        quote(line)
                    ),
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
        for (i, (column, want)) in
            [("MarkerStart", format!("[[SEL#{id}]]")), ("MarkerEnd", format!("[[/SEL#{id}]]"))].into_iter().enumerate()
        {
            let cell = &cells[1 + i];
            match code_span(cell) {
                Some(m) if m == want => markers[i] = Some(m),
                _ => {
                    self.report(n, Rule::CandidateMarker, format!("expected {column} `` `{want}` `` (the Id {id}), found {}", quote(cell)))
                }
            }
        }
        let preview = code_span(&cells[3]);
        if preview.is_none() {
            self.report(n, Rule::CandidateValue, format!("expected the Preview as a code span (`…`), found {}", quote(&cells[3])));
        }
        let number = |v: &mut Self, column: usize| {
            let got = whole(&cells[column]);
            if got.is_none() {
                v.report(
                    n,
                    Rule::CandidateValue,
                    format!("expected {} to be a whole number, found {}", CANDIDATE_COLUMNS[column], quote(&cells[column])),
                );
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
            let other = locales().find(|l| l.words().yes == mark || l.words().stale == mark);
            let expected = format!("Recommended `{}`, `-` or `{}`", w.yes, w.stale);
            match other {
                Some(l) => self.report(
                    n,
                    Rule::Locale,
                    format!(
                        "expected {expected} (locale {}), found {} (locale {})",
                        self.parsed_locale().as_str(),
                        quote(mark),
                        l.as_str()
                    ),
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
                self.report(
                    n,
                    Rule::CandidateValue,
                    format!("expected letters in ascending order, found {} after {}", quote(&c.id), quote(&prev.id)),
                );
            }
        }
        if c.recommended {
            match &self.recommended {
                Some(first) => {
                    let msg = format!(
                        "expected at most one recommended candidate, found {} recommended as well as {}",
                        quote(&c.id),
                        quote(first)
                    );
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
            let letter = item
                .strip_prefix('[')
                .and_then(|r| r.split_once("] "))
                .filter(|(id, _)| id.len() == 1 && id.bytes().all(|b| b.is_ascii_uppercase()));
            let Some((id, rest)) = letter else {
                self.report(
                    n,
                    Rule::CandidateRow,
                    format!("expected a candidate line `{example}` (or the candidate table), found {}", quote(line)),
                );
                continue;
            };
            // The line reference, in whichever locale it is written.
            let mut found = None;
            for l in locales() {
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
                self.report(
                    n,
                    Rule::CandidateValue,
                    format!("expected the preview as a code span (`…`) after the line reference, found {}", quote(text)),
                );
                continue;
            };
            let stale_mark = fill(lw.paren, lw.stale);
            let recommended_mark = format!("{}{}", lw.arrow, lw.recommended);
            let (stale, recommended, tail) = if let Some(t) = tail.strip_prefix(stale_mark.as_str()) {
                (true, false, t)
            } else if let Some(t) = tail.strip_prefix(recommended_mark.as_str()) {
                // The reason, as in `← 推荐（基于上下文相关性）`, may follow.
                let reason = Reason::ALL.iter().map(|r| fill(lw.paren, lw.phrase(r.key()))).find_map(|r| t.strip_prefix(r.as_str()));
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
}
