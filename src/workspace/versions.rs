//! `memo_read(version="v3")`: a committed version the live context or a commit response named,
//! read-only, from the version ring (docs/workflow.md#live-context: the last 32 versions of all
//! documents and each document's text when opened, `v0`).

use ropey::Rope;

use super::read::{limited_lines, Gutter};
use super::views::plural;
use super::Workspace;
use crate::live_context::{VersionKind, RING};
use crate::response::{Response, Status};
use crate::text;
use crate::tools::Args;

/// A version id as responses write it: `v3`, or `v3-failed` for a commit whose save failed.
fn parse_version(s: &str) -> Option<(u64, bool)> {
    let rest = s.trim().strip_prefix('v')?;
    let (digits, failed) = match rest.strip_suffix("-failed") {
        Some(d) => (d, true),
        None => (rest, false),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().ok()?, failed))
}

impl Workspace {
    /// `memo_read` of version `version` of `path`: its text with gutters (start_line, end_line
    /// and line_numbers as for the draft; the read limits apply). `InvalidArguments` naming the
    /// value when it is no version id, when `path` never had that version, or when it aged out
    /// of the ring (saying which versions are still kept). Cost: O(RING) + the lines shown.
    pub(super) fn read_version(&mut self, path: &str, version: &str, args: &Args) -> Response {
        let p = self.config.tool_prefix.clone();
        let arg_path = if Some(path) == self.order.first().map(String::as_str) { String::new() } else { format!(", path=\"{path}\"") };
        let current = self.timeline.current_seq(path);
        if let Some(arg) = ["line_keys", "view"].into_iter().find(|a| args.bool(a) == Some(true) || args.str(a).is_some()) {
            return self.invalid(
                &format!("`version` reads an old version, but `{arg}` is for the current text"),
                format!("Leave out `{arg}` to read version {version}, or leave out `version` to read the current text."),
            );
        }
        let Some((seq, failed)) = parse_version(version) else {
            return self.invalid(
                &format!("argument `version` is {:?}; a version looks like \"v3\"", text::clip(version, 40)),
                format!("Pass a version the live context or a commit named, from \"v0\" (as opened) to \"v{current}\" (now)."),
            );
        };
        let found: Option<(Rope, String)> = if failed {
            self.timeline
                .newest_first(Some(path))
                .find(|v| v.seq == seq && v.kind == VersionKind::Failed)
                .map(|v| (v.after.clone(), format!("the text commit \"{}\" tried to save", v.summary)))
        } else if seq == 0 {
            self.timeline.origin(path).map(|r| (r.clone(), "as it was when opened".to_string()))
        } else if seq == current {
            Some((self.open_doc(path).text.rope().clone(), "the committed text now".to_string()))
        } else {
            self.timeline
                .newest_first(Some(path))
                .find(|v| v.seq == seq && v.kind != VersionKind::Failed)
                .map(|v| (v.after.clone(), format!("after \"{}\"", v.summary)))
        };
        let Some((rope, what)) = found else {
            let kept: Vec<u64> = self.timeline.newest_first(Some(path)).filter(|v| v.kind != VersionKind::Failed).map(|v| v.seq).collect();
            let oldest = kept.iter().min().copied().unwrap_or(current);
            let (why, instead) = if seq > current || failed || seq == 0 {
                (format!("{path} has no version {version} (it is at v{current})"), format!("Read the committed text with {p}_read(view=\"committed\"{arg_path})."))
            } else {
                (
                    format!(
                        "version {version} of {path} is no longer kept: the workspace keeps the last {RING} versions of all documents, and {path}'s oldest kept is v{oldest}"
                    ),
                    format!(
                        "Read v{oldest} with {p}_read(version=\"v{oldest}\"{arg_path}), or the text when opened with {p}_read(version=\"v0\"{arg_path})."
                    ),
                )
            };
            return self.invalid(&why, instead);
        };
        let last = text::visible_line_count(&rope);
        let start = args.int("start_line").unwrap_or(1) as usize;
        let end = args.int("end_line").map_or(last, |n| n as usize).min(last);
        if start > last || end < start {
            return self.invalid(
                &format!("lines {start}–{end} are not in version {version} of {path} ({last} line{})", plural(last)),
                format!("Pass start_line and end_line from 1 to {last}."),
            );
        }
        let gutter = if args.bool("line_numbers").unwrap_or(true) { Gutter::Numbers } else { Gutter::None };
        let shown = limited_lines(&rope, gutter, start, end, last, &self.config.read_limits);
        let mut r = Response::new(
            Status::Success,
            format!("Read lines {start}–{} of {path} version {version} ({what}; {last} lines). Read-only: edits apply to the draft.", shown.last_line),
        )
        .with_guidance(match shown.stopped_by {
            Some(_) => format!("Read on with {p}_read(version=\"{version}\", start_line={}{arg_path}).", shown.last_line + 1),
            None => format!("To bring text of it back, copy it into {p}_replace(old_text, new_text) on the current text."),
        });
        r.content = Some(shown.content);
        r.metrics.new_length = Some(rope.len_chars());
        self.finish(r, Some(path))
    }

    /// A commit's guidance: the version each saved document is now, and how to read the one
    /// before. Cost: O(documents).
    pub(super) fn committed_guidance(&self, paths: &[String]) -> Option<String> {
        let first = paths.first()?;
        let p = &self.config.tool_prefix;
        let now: Vec<String> = paths.iter().map(|path| format!("{path} is now v{}", self.timeline.current_seq(path))).collect();
        let before = self.timeline.current_seq(first).saturating_sub(1);
        let arg_path = if Some(first) == self.order.first() { String::new() } else { format!(", path=\"{first}\"") };
        Some(format!("{}; {p}_read(version=\"v{before}\"{arg_path}) shows {first} as it was before.", now.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_version;

    #[test]
    fn version_ids_parse() {
        assert_eq!(parse_version("v0"), Some((0, false)));
        assert_eq!(parse_version("v12"), Some((12, false)));
        assert_eq!(parse_version("v3-failed"), Some((3, true)));
        for bad in ["", "v", "3", "v-1", "v3x", "V3", "v3-fail"] {
            assert_eq!(parse_version(bad), None, "{bad}");
        }
    }
}
