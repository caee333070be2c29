//! `memo_read(version="v3")`: a committed version the live context or a commit response named,
//! read-only, from the version ring (docs/workflow.md#live-context: the last 32 versions of all
//! documents, up to 64 MiB of text their changes replaced, and each document's text when opened,
//! `v0` — for a document `memo_create` made, the empty text before it).

use ropey::Rope;

use super::outcome::{SavedVersions, VersionOf, VersionOutcome, VersionRead};
use super::read::{limited_lines, Gutter};
use super::registry::ReadArgs;
use super::words::{self, Voice};
use super::Workspace;
use crate::live_context::{VersionKind, RING, VERSION_BYTES};
use crate::response::Response;
use crate::text;

/// A version id as responses write it: `v3`, or `v3-failed` for a commit whose save failed.
pub(super) fn parse_version(s: &str) -> Option<(u64, bool)> {
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
    /// of the ring, by count or by bytes (saying which versions are still kept). Cost: O(RING) +
    /// the lines shown.
    pub(super) fn read_version(&mut self, path: &str, version: &str, args: &ReadArgs) -> Response {
        let (outcome, shown) = self.decide_version_read(path, version, args);
        let mut r = words::version(&outcome, &Voice::of(self));
        match shown {
            Some((content, len)) => {
                r.content = Some(content);
                r.metrics.new_length = Some(len);
                self.finish(r, Some(path))
            }
            None => self.finish(r, None),
        }
    }

    /// What `memo_read(version)` comes to, with the lines shown and the version's length in
    /// chars when it is read. Changes nothing. Cost: O(RING) + the lines shown.
    pub(super) fn decide_version_read(&self, path: &str, version: &str, args: &ReadArgs) -> (VersionOutcome, Option<(String, usize)>) {
        if let Some(arg) = args.current_text_arg() {
            return (VersionOutcome::WithCurrentTextArg { arg, version: version.to_string() }, None);
        }
        let (rope, of) = match self.version_text(path, version) {
            Ok(found) => found,
            Err(missing) => return (missing, None),
        };
        self.version_lines(path, version, args, &rope, of)
    }

    /// The lines `args` ask for of `rope`, the text of version `version` of `path` (`of` says
    /// which text it is), or why they cannot be shown. Cost: the lines shown.
    pub(super) fn version_lines(
        &self,
        path: &str,
        version: &str,
        args: &ReadArgs,
        rope: &Rope,
        of: VersionOf,
    ) -> (VersionOutcome, Option<(String, usize)>) {
        let path_arg = Some(path) != self.documents.order.first().map(String::as_str);
        let last = text::visible_line_count(rope);
        let start = args.start_line.unwrap_or(1) as usize;
        let end = args.end_line.map_or(last, |n| n as usize).min(last);
        if start > last || end < start {
            return (
                VersionOutcome::LinesNotInVersion { path: path.to_string(), version: version.to_string(), start, end, lines: last },
                None,
            );
        }
        let gutter = if args.line_numbers.unwrap_or(true) { Gutter::Numbers } else { Gutter::None };
        let shown = limited_lines(rope, gutter, start, end, &self.settings.config.read_limits);
        let read = VersionRead {
            path: path.to_string(),
            version: version.to_string(),
            of,
            first: start,
            last_shown: shown.last_line,
            lines: last,
            stopped: shown.stopped_by.is_some(),
            path_arg,
        };
        (VersionOutcome::Read(read), Some((shown.content, rope.len_chars())))
    }

    /// The text of version `version` of `path` (an id like `v3` or `v3-failed`) and which text it
    /// is. Errors, as the outcome that says so: `NotAVersion` when it is no version id,
    /// `NoSuchVersion` when `path` never had it, `AgedOut` when the ring no longer keeps it (by
    /// count or by bytes). Cost: O(RING) (the rope is shared, not copied).
    pub(super) fn version_text(&self, path: &str, version: &str) -> Result<(Rope, VersionOf), VersionOutcome> {
        let path_arg = Some(path) != self.documents.order.first().map(String::as_str);
        let current = self.records.timeline.current_seq(path);
        let Some((seq, failed)) = parse_version(version) else {
            return Err(VersionOutcome::NotAVersion { given: text::clip(version, 40), current });
        };
        let found: Option<(Rope, VersionOf)> = if failed {
            self.records
                .timeline
                .newest_first(Some(path))
                .find(|v| v.seq == seq && v.kind == VersionKind::Failed)
                .map(|v| (v.after.clone(), VersionOf::Failed { summary: v.summary.clone() }))
        } else if seq == 0 {
            let of = if self.records.timeline.was_created(path) { VersionOf::Created } else { VersionOf::Opened };
            self.records.timeline.origin(path).map(|r| (r.clone(), of))
        } else if seq == current {
            Some((self.open_doc(path).text.rope().clone(), VersionOf::Now))
        } else {
            self.records
                .timeline
                .newest_first(Some(path))
                .find(|v| v.seq == seq && v.kind != VersionKind::Failed)
                .map(|v| (v.after.clone(), VersionOf::After { summary: v.summary.clone() }))
        };
        found.ok_or_else(|| {
            let (path, version) = (path.to_string(), version.to_string());
            if seq > current || failed || seq == 0 {
                return VersionOutcome::NoSuchVersion { path, version, current, path_arg };
            }
            let kept = self.records.timeline.newest_first(Some(&path)).filter(|v| v.kind != VersionKind::Failed).map(|v| v.seq);
            let oldest = kept.min().unwrap_or(current);
            VersionOutcome::AgedOut { path, version, ring: RING, bytes: VERSION_BYTES, oldest, path_arg }
        })
    }

    /// What the kept versions cost together in bytes: the text their changes replaced, which
    /// no newer text shares (docs/workflow.md#live-context; for tests and diagnostics). O(1).
    pub fn versions_bytes(&self) -> usize {
        self.records.timeline.bytes()
    }

    /// The versions a commit of `paths` saved, for its guidance (`None`: no path). Cost: O(documents).
    pub(super) fn saved_versions(&self, paths: &[String]) -> Option<SavedVersions> {
        let first = paths.first()?;
        Some(SavedVersions {
            now: paths.iter().map(|path| (path.clone(), self.records.timeline.current_seq(path))).collect(),
            before: self.records.timeline.current_seq(first).saturating_sub(1),
            path_arg: Some(first) != self.documents.order.first(),
        })
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
