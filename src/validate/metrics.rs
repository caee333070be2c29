//! The Metrics table (item 3 of the layout).

use crate::format::Locale;

use super::messages::quote;
use super::scan::{is_blank, is_separator, row_cells, signed_int, whole};
use super::words::{locales, METRIC_ROWS};
use super::{Rule, Section, Validator};

impl<'a> Validator<'a> {
    // Bounds: a row's cells are read only after the match above kept rows of exactly 2 cells.
    #[allow(clippy::indexing_slicing)]
    pub(super) fn metrics(&mut self, s: &Section<'a>) {
        let w = self.words();
        let mut at = 0;
        let Some((n, header)) = self.next_line(s, &mut at) else {
            let end = self.end_line(s);
            self.report(end, Rule::MetricsTable, format!("expected the table header `{}`, found the end of the section", w.metric_header));
            return;
        };
        if header.trim_end() != w.metric_header {
            let other: Vec<Locale> = locales().filter(|o| o.words().metric_header == header.trim_end()).collect();
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
                    self.report(
                        n,
                        Rule::MetricsTable,
                        format!("expected the row `| {name} | … |` with 2 cells, found {} cells in {}", c.len(), quote(line)),
                    );
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
                    format!(
                        "expected the row `{name}` here (rows: delta, new_length, selection_count, in that order), found {}",
                        quote(&cells[0])
                    ),
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
                    self.report(
                        n,
                        Rule::MetricsTable,
                        format!("expected the table to end after selection_count, found the row {}", quote(line)),
                    );
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
}
