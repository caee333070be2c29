//! Items 2 and 6 of the layout: the severity, the flags and the state agree with the status.

use crate::response::Status;

use super::messages::{flag_list, quote};
use super::scan::whole;
use super::words::{state_flags, states_for, SEVERITIES, WARNING};
use super::{Rule, Validator};

impl<'a> Validator<'a> {
    pub(super) fn consistency(&mut self) {
        // Severity against status.
        if let (Some(status), true) = (self.status, SEVERITIES.contains(&self.parsed.severity.as_str())) {
            let n = self.overview_line;
            let sev = self.parsed.severity.clone();
            let starts = self.parsed.summary.starts_with(WARNING);
            match status {
                Status::Success | Status::NoOp => {
                    if sev == "Fail" {
                        self.report(
                            n,
                            Rule::Severity,
                            format!("expected `[OK]` (or `[Warning]`) for status {}, found `[Fail]`", status.as_str()),
                        );
                    } else if sev == "Warning" && !starts && !self.parsed.summary.is_empty() {
                        self.report(
                            n + 1,
                            Rule::Severity,
                            format!(
                                "expected the summary of a {} raised to `[Warning]` to start with `{WARNING}`, found {}",
                                status.as_str(),
                                quote(&self.parsed.summary)
                            ),
                        );
                    } else if sev == "OK" && starts {
                        self.report(
                            n,
                            Rule::Severity,
                            format!("expected `[Warning]` for a summary starting with `{WARNING}`, found `[OK]`"),
                        );
                    }
                }
                Status::MultiMatch if sev != "Warning" => {
                    self.report(n, Rule::Severity, format!("expected `[Warning]` for status MultiMatch, found `[{sev}]`"));
                }
                Status::MultiMatch => {}
                _ if sev != "Fail" => {
                    self.report(n, Rule::Severity, format!("expected `[Fail]` for status {}, found `[{sev}]`", status.as_str()));
                }
                _ => {}
            }
        }
        // Flags against state.
        if let (Some(state), true) = (self.state, self.flags_ok) {
            let (required, optional) = state_flags(state);
            let flags = self.parsed.flags.clone();
            if let Some(req) = required {
                if !flags.iter().any(|f| f == req) {
                    self.report(
                        self.flags_line,
                        Rule::StateFlags,
                        format!("expected the flag {req} in state {}, found {}", state.as_str(), flag_list(&flags)),
                    );
                }
            }
            for f in &flags {
                if Some(f.as_str()) != required && !optional.contains(&f.as_str()) && f != "PersistReadOnly" && f != "NotStored" {
                    let mut allowed: Vec<&str> = required.into_iter().chain(optional.iter().copied()).collect();
                    if !allowed.contains(&"PersistReadOnly") {
                        allowed.push("PersistReadOnly");
                    }
                    self.report(
                        self.flags_line,
                        Rule::StateFlags,
                        format!("expected only the flags {} in state {}, found {f}", allowed.join(", "), state.as_str()),
                    );
                }
            }
        }
        // Status against state.
        if let (Some(status), Some(state)) = (self.status, self.state) {
            if let Some(allowed) = states_for(status).filter(|a| !a.contains(&state)) {
                let names: Vec<&str> = allowed.iter().map(|s| s.as_str()).collect();
                self.report(
                    self.state_line,
                    Rule::StatusState,
                    format!("expected state {} with status {}, found {}", names.join(" or "), status.as_str(), state.as_str()),
                );
            }
        }
        // selection_count, when a Metrics table gives it beside candidates.
        if !self.parsed.candidates.is_empty() {
            let count = self.parsed.metrics.iter().find(|(k, _)| k == "selection_count").map(|(_, v)| v.clone());
            let live = self.parsed.candidates.iter().filter(|c| !c.stale).count();
            let at = if self.selection_count_line > 0 { self.selection_count_line } else { self.candidates_line };
            match count.as_deref().map(|c| (c, whole(c))) {
                Some((_, Some(k))) if k < live => self.report(
                    at,
                    Rule::SelectionCount,
                    format!("expected selection_count to be at least the {live} live candidates listed, found {k}"),
                ),
                Some((_, Some(_))) => {}
                Some((c, None)) => self.report(
                    at,
                    Rule::SelectionCount,
                    format!("expected selection_count as a number when there are candidates, found {}", quote(c)),
                ),
                // Metrics is optional beside candidates too: their list counts them
                // (docs/responses.md#markdown-layout); when it is there it must agree.
                None => {}
            }
        }
    }
}
