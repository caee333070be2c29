//! The first line: the Overview heading with the severity, the status, the state and the flags
//! the state does not imply (item 1 of the layout in the module documentation).

use super::{Rule, Validator};
use super::messages::quote;
use super::words::{flag_names, SEVERITIES, STATES, STATUSES};

/// What the first line looks like, for the messages.
const FORM: &str = "### [OK|Warning|Fail] <Status> · <WorkflowState>` (then ` · flags: A, B` for flags the state does not imply";

impl<'a> Validator<'a> {
    /// Checks the first line, `### [OK] Success · PersistPending` (` · flags: DiagnosticHint`
    /// after it for flags the state does not imply); returns the index where the sections start:
    /// 0, since the line is also the Overview section's heading.
    pub(super) fn header(&mut self) -> usize {
        let line = self.lines.first().copied().unwrap_or_default();
        let parts = line.strip_prefix("### [").and_then(|r| r.split_once("] ")).filter(|(sev, _)| SEVERITIES.contains(sev));
        let Some((_, rest)) = parts else {
            let found = if self.lines.is_empty() { "the end of the response".to_string() } else { quote(line) };
            self.report(1, Rule::HeaderLine, format!("expected the first line `{FORM}), found {found}"));
            return 0;
        };
        let mut values = rest.split(" · ");
        self.status_value(values.next().unwrap_or_default());
        match values.next() {
            Some(state) => self.state_value(state),
            None => self.report(1, Rule::HeaderLine, format!("expected `<Status> · <WorkflowState>` after the severity, found {}", quote(rest))),
        }
        let extra = values.next();
        if let Some(more) = values.next() {
            self.report(1, Rule::HeaderLine, format!("expected at most `· flags: …` after the state, found {}", quote(more)));
        }
        self.flags_value(extra);
        0
    }

    fn status_value(&mut self, name: &str) {
        self.parsed.status = name.to_string();
        self.status = STATUSES.into_iter().find(|s| s.as_str() == name);
        if self.status.is_none() {
            let known: Vec<&str> = STATUSES.iter().map(|s| s.as_str()).collect();
            self.report(1, Rule::UnknownStatus, format!("expected a status among {}, found {}", known.join(", "), quote(name)));
        }
    }

    fn state_value(&mut self, name: &str) {
        self.parsed.state = name.to_string();
        self.state = STATES.into_iter().find(|s| s.as_str() == name);
        if self.state.is_none() {
            let known: Vec<&str> = STATES.iter().map(|s| s.as_str()).collect();
            self.report(1, Rule::UnknownState, format!("expected a state among {}, found {}", known.join(", "), quote(name)));
        }
    }

    /// The flags: the one named like the state (it implies it: `PersistPending` in state
    /// PersistPending), then those `extra` lists (`flags: A, B`, known names, in bit order, each
    /// once, not the implied one).
    // Bounds: every `bit` is a position in `known` (flag_names: 7 names, fewer than `seen`'s 32
    // slots); `w` from `windows(2)` has two items.
    #[allow(clippy::indexing_slicing)]
    fn flags_value(&mut self, extra: Option<&str>) {
        let known = flag_names();
        let implied = known.iter().position(|k| Some(*k) == self.state.map(|s| s.as_str()));
        let mut bits: Vec<usize> = implied.into_iter().collect();
        let mut ok = true;
        if let Some(extra) = extra {
            let Some(list) = extra.strip_prefix("flags: ").filter(|l| !l.is_empty()) else {
                self.report(1, Rule::FlagList, format!("expected `flags: A, B` after the state, found {}", quote(extra)));
                return;
            };
            let mut seen = [false; 32];
            if let Some(b) = implied {
                seen[b] = true;
            }
            let mut listed: Vec<usize> = Vec::new();
            for name in list.split(", ") {
                match known.iter().position(|k| *k == name) {
                    None => {
                        ok = false;
                        self.report(1, Rule::FlagList, format!("expected flag names among {}, found {}", known.join(", "), quote(name)));
                    }
                    Some(bit) if Some(bit) == implied => {
                        ok = false;
                        self.report(1, Rule::FlagList, format!("expected {name} left out (the state implies it), found it listed"));
                    }
                    Some(bit) if std::mem::replace(&mut seen[bit], true) => {
                        ok = false;
                        self.report(1, Rule::FlagList, format!("expected each flag once, found {} again", quote(name)));
                    }
                    Some(bit) => listed.push(bit),
                }
            }
            if listed.windows(2).any(|w| w[0] > w[1]) {
                ok = false;
                let mut sorted = listed.clone();
                sorted.sort_unstable();
                let want: Vec<&str> = sorted.iter().map(|&b| known[b]).collect();
                let got: Vec<&str> = listed.iter().map(|&b| known[b]).collect();
                self.report(1, Rule::FlagList, format!("expected the flags in bit order ({}), found {}", want.join(", "), got.join(", ")));
            }
            bits.extend(listed);
        }
        bits.sort_unstable();
        self.parsed.flags = bits.iter().map(|&b| known[b].to_string()).collect();
        self.flags_ok = ok;
    }
}
