//! `memo_read` of the draft and of a version in words, and a commit's versions for its guidance.

use super::{invalid, Voice};
use crate::response::{Response, Status};
use crate::session::Letter;
use crate::tools::Tool;
use crate::workspace::outcome::*;
use crate::workspace::views::plural;

/// The response for a `memo_read` outcome; the caller adds the content, fingerprint and length.
pub fn read(o: &ReadOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    let r = match o {
        ReadOutcome::StartPastEnd { path, start, lines } => {
            return invalid(
                &format!("argument `start_line` is {start} but {path} has {lines} line{}", plural(*lines)),
                format!("Pass a start_line from 1 to {lines}."),
            )
        }
        ReadOutcome::EndBeforeStart { start, end } => {
            return invalid(
                &format!("argument `end_line` ({end}) is before `start_line` ({start})"),
                "Pass end_line ≥ start_line, or leave it out to read to the end.".into(),
            )
        }
        ReadOutcome::Read(r) => r,
    };
    // What the lines are of: the committed text, or the draft when it holds pending changes
    // (how many the model knows from its stagings; the JSON has them).
    let which = match r.of {
        ReadOf::Committed => Some(v.t("read.of.committed", &[])),
        ReadOf::Draft { pending: 0 } => None,
        ReadOf::Draft { .. } => Some(v.t("read.of.draft", &[])),
    };
    // The draft's fingerprint in the text too (the description promises it): an edit passes
    // it as expected_fingerprint.
    let fp = r.fingerprint.as_ref().map(|f| format!("fingerprint `{f}`"));
    let (path, end) = (&r.path, r.last_shown);
    let letters_and = v.locale.words().letters_and;
    // `of 481` with one document open (the model knows which), else `of a.md (481 lines; …)`.
    let (of, count) =
        if v.one_document { (v.t("read.of_lines", &[("n", &r.lines)]), None) } else { (path.clone(), Some(v.count("n_lines", r.lines))) };
    let about: Vec<String> = count.into_iter().chain(which).chain(fp).collect();
    let about = if about.is_empty() { String::new() } else { v.t("read.about", &[("about", &about.join(v.t("list_sep", &[]).as_str()))]) };
    let mut summary = v.t("read", &[("first", &r.first), ("end", &end), ("of", &of), ("about", &about)]);
    if let Some((named, more)) = &r.other_documents {
        let more_note = if *more > 0 { v.t("read.others.more", &[("n", more)]) } else { String::new() };
        summary.push_str(&v.t("read.others", &[("named", &named.join(letters_and)), ("more", &more_note)]));
    }
    if let (Some(first), Some(last)) = (r.marked.first(), r.marked.last()) {
        summary.push_str(&if r.marked.len() == 1 {
            v.t("read.marked.one", &[("first", first)])
        } else {
            let all = r.marked.iter().map(Letter::to_string).collect::<Vec<_>>().join(letters_and);
            v.t("read.marked", &[("all", &all), ("first", first), ("last", last)])
        });
    }
    if !r.unmarked.is_empty() {
        let at: Vec<String> = r.unmarked.iter().map(|(l, line)| v.t("read.unmarked.at", &[("letter", l), ("line", line)])).collect();
        summary.push_str(&v.t("read.unmarked", &[("path", path), ("at", &at.join(letters_and))]));
    }
    let gutter_note = v.t("read.gutter_note", &[]);
    let mut guidance = match r.gutter {
        ReadGutter::Keys => Some(v.t("read.keys", &[("p", &p)])),
        // Said once per edit session (docs/responses.md#said-once); then the next call.
        ReadGutter::Numbers if !v.heard.gutters => Some(gutter_note.clone()),
        ReadGutter::Numbers if v.offers(Tool::Replace) => Some(v.t("read.next.replace", &[("p", &p)])),
        ReadGutter::Numbers if v.offers(Tool::ReplaceSelection) => Some(v.t("read.next.choose", &[("p", &p)])),
        ReadGutter::Numbers | ReadGutter::Bare => None,
    };
    let said_gutters = guidance.as_deref() == Some(gutter_note.as_str());
    if let Some((option, limit)) = r.stopped_by {
        let what = if option == "max_read_lines" { v.t("read.stopped.lines", &[]) } else { v.t("read.stopped.chars", &[]) };
        summary.push_str(&v.t("read.stopped", &[("end", &end), ("limit", &limit), ("what", &what), ("option", &option)]));
        let on = v.t("read.on", &[("p", &p), ("line", &(end + 1))]);
        guidance = Some(match guidance {
            Some(g) => format!("{on}{}{g}", v.sep()),
            None => on,
        });
    }
    if !r.clipped.is_empty() {
        let n = r.clipped.len();
        let lines: Vec<String> = r.clipped.iter().take(5).map(usize::to_string).collect();
        let more = n.saturating_sub(lines.len());
        let more = if more > 0 { v.t("read.others.more", &[("n", &more)]) } else { String::new() };
        summary.push_str(&v.t(
            if n == 1 { "read.clipped.one" } else { "read.clipped.other" },
            &[("lines", &lines.join(letters_and)), ("more", &more), ("chars", &r.line_chars), ("mark", &crate::workspace::read::CLIP_MARK)],
        ));
        let hint = v.t("read.clipped.hint", &[("p", &p)]);
        guidance = Some(match guidance {
            Some(g) => format!("{g}{}{hint}", v.sep()),
            None => hint,
        });
    }
    let mut r = Response::new(Status::Success, summary);
    r.guidance = guidance;
    r.once.gutters = said_gutters;
    r
}

/// The response for a `memo_read(version)` outcome; the caller adds the content and length.
pub fn version(o: &VersionOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    let path_arg = |path: &str, named: bool| if named { format!(", path=\"{path}\"") } else { String::new() };
    match o {
        VersionOutcome::WithCurrentTextArg { arg, version } => invalid(
            &format!("`version` reads an old version, but `{arg}` is for the current text"),
            format!("Leave out `{arg}` to read version {version}, or leave out `version` to read the current text."),
        ),
        VersionOutcome::NotAVersion { given, current } => invalid(
            &format!("argument `version` is {given:?}; a version looks like \"v3\""),
            format!("Pass a version the live context or a commit named, from \"v0\" (as opened) to \"v{current}\" (now)."),
        ),
        VersionOutcome::NoSuchVersion { path, version, current, path_arg: named } => invalid(
            &format!("{path} has no version {version} (it is at v{current})"),
            format!("Read the committed text with {p}_read(view=\"committed\"{}).", path_arg(path, *named)),
        ),
        VersionOutcome::AgedOut { path, version, ring, bytes, oldest, path_arg: named } => {
            let a = path_arg(path, *named);
            let mib = bytes >> 20;
            invalid(
                &format!("version {version} of {path} is no longer kept: the workspace keeps the last {ring} versions of all documents, up to {mib} MiB of text their changes replaced, and {path}'s oldest kept is v{oldest}"),
                format!("Read v{oldest} with {p}_read(version=\"v{oldest}\"{a}), or the text when opened with {p}_read(version=\"v0\"{a})."),
            )
        }
        VersionOutcome::LinesNotInVersion { path, version, start, end, lines } => invalid(
            &format!("lines {start}–{end} are not in version {version} of {path} ({lines} line{})", plural(*lines)),
            format!("Pass start_line and end_line from 1 to {lines}."),
        ),
        VersionOutcome::Read(r) => {
            let what = match &r.of {
                VersionOf::Failed { summary } => format!("the text commit \"{summary}\" tried to save"),
                VersionOf::Opened => "as it was when opened".to_string(),
                VersionOf::Created => format!("empty: before {p}_create made it"),
                VersionOf::Now => "the committed text now".to_string(),
                VersionOf::After { summary } => format!("after \"{summary}\""),
            };
            let (path, version) = (&r.path, &r.version);
            Response::new(
                Status::Success,
                format!(
                    "Read lines {}–{} of {path} version {version} ({what}; {} lines). Read-only: edits apply to the draft.",
                    r.first, r.last_shown, r.lines
                ),
            )
            .with_guidance(if r.stopped {
                format!("Read on with {p}_read(version=\"{version}\", start_line={}{}).", r.last_shown + 1, path_arg(path, r.path_arg))
            } else {
                format!("To bring text of it back, copy it into {p}_replace(old_text, new_text) on the current text.")
            })
        }
    }
}

/// A commit's guidance: the version each saved document is now, and how to read the first one
/// as it was before (`memo_read(version)`).
pub fn saved_versions(s: &SavedVersions, v: &Voice) -> String {
    let p = v.prefix();
    let first = s.now.first().map_or("", |(path, _)| path.as_str());
    let path_arg = if s.path_arg { format!(", path=\"{first}\"") } else { String::new() };
    if let ([(_, seq)], true) = (s.now.as_slice(), v.one_document) {
        // One document: the model knows which.
        return v.t("saved_versions.one", &[("seq", seq), ("p", &p), ("before", &s.before), ("path_arg", &path_arg)]);
    }
    let now: Vec<String> = s.now.iter().map(|(path, seq)| v.t("saved_versions.now", &[("path", path), ("seq", seq)])).collect();
    v.t(
        "saved_versions",
        &[("now", &now.join(v.locale.words().letters_and)), ("p", &p), ("before", &s.before), ("path_arg", &path_arg), ("first", &first)],
    )
}
