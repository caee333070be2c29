//! The three header lines: status, state, flags (item 1 of the layout in the module documentation).

use super::messages::{header_form, quote};
use super::scan::{backticked, heading_level, is_blank};
use super::words::{flag_names, STATES, STATUSES};
use super::{Rule, Validator};

impl<'a> Validator<'a> {
    /// Checks the header lines; returns the index of the first line after them.
    // Bounds: `end` ≤ `lines.len()` (a position or the length); `k` is a position in `KEYS`,
    // and `found` has one slot per key; `line` starts with `KEYS[k]` and `:` (the match above), so
    // the value starts at a char boundary inside it.
    #[allow(clippy::indexing_slicing, clippy::string_slice)]
    pub(super) fn header(&mut self) -> usize {
        const KEYS: [&str; 3] = ["status", "state", "flags"];
        let end = self.lines.iter().position(|l| is_blank(l) || heading_level(l).is_some()).unwrap_or(self.lines.len());
        let mut found = [false; 3];
        for (i, expected) in KEYS.into_iter().enumerate() {
            let n = i + 1;
            let Some(line) = self.lines[..end].get(i).copied() else {
                let what = self.lines.get(i).map_or("the end of the response".to_string(), |l| {
                    if is_blank(l) {
                        "a blank line".into()
                    } else {
                        quote(l)
                    }
                });
                self.report(n, Rule::HeaderLine, format!("expected header line {n} `{}`, found {what}", header_form(expected)));
                continue;
            };
            let key = KEYS.iter().position(|k| line.strip_prefix(k).is_some_and(|r| r.starts_with(':')));
            match key {
                Some(k) if k == i => {}
                Some(k) => self.report(
                    n,
                    Rule::HeaderLine,
                    format!(
                        "expected header line {n} to be `{}` (order: status, state, flags), found the {} line {}",
                        header_form(expected),
                        KEYS[k],
                        quote(line)
                    ),
                ),
                None => {
                    self.report(
                        n,
                        Rule::HeaderLine,
                        format!("expected header line {n} `{}`, found {}", header_form(expected), quote(line)),
                    );
                    continue;
                }
            }
            let Some(k) = key else { continue };
            if std::mem::replace(&mut found[k], true) {
                self.report(n, Rule::HeaderLine, format!("expected the `{}:` line once, found it again: {}", KEYS[k], quote(line)));
                continue;
            }
            let value = &line[KEYS[k].len() + 1..];
            match k {
                0 => self.status_value(n, line, value),
                1 => self.state_value(n, line, value),
                _ => self.flags_value(n, line, value),
            }
        }
        for (i, line) in self.lines[..end].iter().enumerate().skip(3) {
            self.report(i + 1, Rule::HeaderLine, format!("expected a blank line after the three header lines, found {}", quote(line)));
        }
        end
    }

    fn status_value(&mut self, n: usize, line: &str, value: &str) {
        self.status_line = n;
        let Some(name) = value.strip_prefix(' ').and_then(backticked) else {
            self.report(n, Rule::HeaderLine, format!("expected `status: `<Status>`` (the name in backticks), found {}", quote(line)));
            return;
        };
        self.parsed.status = name.to_string();
        self.status = STATUSES.into_iter().find(|s| s.as_str() == name);
        if self.status.is_none() {
            let known: Vec<&str> = STATUSES.iter().map(|s| s.as_str()).collect();
            self.report(n, Rule::UnknownStatus, format!("expected a status among {}, found {}", known.join(", "), quote(name)));
        }
    }

    fn state_value(&mut self, n: usize, line: &str, value: &str) {
        self.state_line = n;
        let Some(name) = value.strip_prefix(' ').and_then(backticked) else {
            self.report(n, Rule::HeaderLine, format!("expected `state: `<WorkflowState>`` (the name in backticks), found {}", quote(line)));
            return;
        };
        self.parsed.state = name.to_string();
        self.state = STATES.into_iter().find(|s| s.as_str() == name);
        if self.state.is_none() {
            let known: Vec<&str> = STATES.iter().map(|s| s.as_str()).collect();
            self.report(n, Rule::UnknownState, format!("expected a state among {}, found {}", known.join(", "), quote(name)));
        }
    }

    // Bounds: every `bit` is a position in `known` (flag_names: 8 names, fewer than `seen`'s 32
    // slots); `w` from `windows(2)` has two items.
    #[allow(clippy::indexing_slicing)]
    fn flags_value(&mut self, n: usize, line: &str, value: &str) {
        self.flags_line = n;
        if value == " -" {
            self.flags_ok = true;
            return;
        }
        let names: Option<Vec<&str>> = value.strip_prefix(' ').and_then(|v| v.split(", ").map(backticked).collect());
        let Some(names) = names else {
            self.report(
                n,
                Rule::FlagList,
                format!("expected `flags: -` or flag names in backticks separated by `, ` (`flags: `A`, `B``), found {}", quote(line)),
            );
            return;
        };
        let known = flag_names();
        let mut ok = true;
        let mut bits: Vec<usize> = Vec::new();
        let mut seen = [false; 32];
        for name in &names {
            match known.iter().position(|k| k == name) {
                None => {
                    ok = false;
                    self.report(n, Rule::FlagList, format!("expected flag names among {}, found {}", known.join(", "), quote(name)));
                }
                Some(bit) if std::mem::replace(&mut seen[bit], true) => {
                    ok = false;
                    self.report(n, Rule::FlagList, format!("expected each flag once, found {} again", quote(name)));
                }
                Some(bit) => bits.push(bit),
            }
        }
        if bits.windows(2).any(|w| w[0] > w[1]) {
            ok = false;
            let mut sorted = bits.clone();
            sorted.sort_unstable();
            let want: Vec<&str> = sorted.iter().map(|&b| known[b]).collect();
            let got: Vec<&str> = bits.iter().map(|&b| known[b]).collect();
            self.report(n, Rule::FlagList, format!("expected the flags in bit order ({}), found {}", want.join(", "), got.join(", ")));
        }
        self.parsed.flags = names.iter().map(|s| s.to_string()).collect();
        self.flags_ok = ok;
    }
}
