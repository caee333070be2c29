//! The Overview section: severity icon, summary and guidance (item 2 of the layout).

use super::messages::quote;
use super::words::locales;
use super::{Rule, Section, Validator};

impl<'a> Validator<'a> {
    pub(super) fn overview(&mut self, s: &Section<'a>) {
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
                let want =
                    if key == "summary" { "a one-line summary".to_string() } else { format!("guidance or the empty marker `{}`", w.empty) };
                self.report(n, Rule::Overview, format!("expected {want} after `- {key}:`, found nothing"));
                continue;
            }
            if key == "summary" {
                self.parsed.summary = value.to_string();
            } else if value == w.empty {
                self.parsed.guidance = None;
            } else if let Some(other) = locales().find(|o| o.words().empty == value && !std::ptr::eq(o.words(), w)) {
                self.report(
                    n,
                    Rule::Locale,
                    format!(
                        "expected the empty marker `{}` (locale {}), found `{}` (locale {})",
                        w.empty,
                        self.parsed_locale().as_str(),
                        value,
                        other.as_str()
                    ),
                );
            } else {
                self.parsed.guidance = Some(value.to_string());
            }
        }
        self.rest(s, at, Rule::StrayText, "only the summary and guidance lines in the Overview");
    }
}
