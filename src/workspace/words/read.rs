//! `memo_read` of the draft and of a version in words, and a commit's versions for its guidance.

use super::{invalid_v, Voice};
use crate::response::{Response, Status};
use crate::session::Letter;
use crate::workspace::outcome::*;
use crate::workspace::Tool;

/// The response for a `memo_read` outcome; the caller adds the content, fingerprint and length.
pub fn read(o: &ReadOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    let r = match o {
        ReadOutcome::StartPastEnd { path, start, lines } => return start_past_end(path, *start, *lines, v),
        ReadOutcome::EndBeforeStart { start, end } => return end_before_start(*start, *end, v),
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
        summary.push_str(&others_said(named, *more, v));
    }
    if !r.marked.is_empty() {
        summary.push_str(&marked_said(&r.marked, v));
    }
    if !r.unmarked.is_empty() {
        summary.push_str(&unmarked_said(path, &r.unmarked, v));
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

// What only some reads say, out of line: V8 compiles a wasm function whole on its first call,
// and a first read says none of it (docs/performance.md#cold-start).

#[cold]
#[inline(never)]
fn start_past_end(path: &str, start: usize, lines: usize, v: &Voice) -> Response {
    invalid_v(
        &v.t("read.start_past_end", &[("start", &start), ("path", &path), ("lines", &v.count("n_lines", lines))]),
        v.t("read.start_past_end.guidance", &[("lines", &lines)]),
        v,
    )
}

#[cold]
#[inline(never)]
fn end_before_start(start: usize, end: usize, v: &Voice) -> Response {
    invalid_v(&v.t("read.end_before_start", &[("end", &end), ("start", &start)]), v.t("read.end_before_start.guidance", &[]), v)
}

#[cold]
#[inline(never)]
fn others_said(named: &[String], more: usize, v: &Voice) -> String {
    let more_note = if more > 0 { v.t("read.others.more", &[("n", &more)]) } else { String::new() };
    v.t("read.others", &[("named", &named.join(v.locale.words().letters_and)), ("more", &more_note)])
}

#[cold]
#[inline(never)]
fn marked_said(marked: &[Letter], v: &Voice) -> String {
    let (Some(first), Some(last)) = (marked.first(), marked.last()) else { return String::new() };
    if marked.len() == 1 {
        v.t("read.marked.one", &[("first", first)])
    } else {
        let all = marked.iter().map(Letter::to_string).collect::<Vec<_>>().join(v.locale.words().letters_and);
        v.t("read.marked", &[("all", &all), ("first", first), ("last", last)])
    }
}

#[cold]
#[inline(never)]
fn unmarked_said(path: &str, unmarked: &[(Letter, usize)], v: &Voice) -> String {
    let at: Vec<String> = unmarked.iter().map(|(l, line)| v.t("read.unmarked.at", &[("letter", l), ("line", line)])).collect();
    v.t("read.unmarked", &[("path", &path), ("at", &at.join(v.locale.words().letters_and))])
}

/// The response for a `memo_read(version)` outcome; the caller adds the content and length.
pub fn version(o: &VersionOutcome, v: &Voice) -> Response {
    let p = v.prefix();
    let path_arg = |path: &str, named: bool| if named { format!(", path=\"{path}\"") } else { String::new() };
    match o {
        VersionOutcome::WithCurrentTextArg { arg, version } => invalid_v(
            &v.t("version.with_current_text_arg", &[("arg", arg)]),
            v.t("version.with_current_text_arg.guidance", &[("arg", arg), ("version", version)]),
            v,
        ),
        VersionOutcome::NotAVersion { given, current } => invalid_v(
            &v.t("version.not_a_version", &[("given", &format!("{given:?}"))]),
            v.t("version.not_a_version.guidance", &[("current", current)]),
            v,
        ),
        VersionOutcome::NoSuchVersion { path, version, current, path_arg: named } => invalid_v(
            &v.t("version.no_such", &[("path", path), ("version", version), ("current", current)]),
            v.t("version.no_such.guidance", &[("p", &p), ("path_arg", &path_arg(path, *named))]),
            v,
        ),
        VersionOutcome::AgedOut { path, version, ring, bytes, oldest, path_arg: named } => {
            let a = path_arg(path, *named);
            let mib = bytes >> 20;
            invalid_v(
                &v.t("version.aged_out", &[("version", version), ("path", path), ("ring", ring), ("mib", &mib), ("oldest", oldest)]),
                v.t("version.aged_out.guidance", &[("oldest", oldest), ("p", &p), ("a", &a)]),
                v,
            )
        }
        VersionOutcome::LinesNotInVersion { path, version, start, end, lines } => invalid_v(
            &v.t(
                "version.lines_not_in",
                &[("start", start), ("end", end), ("version", version), ("path", path), ("lines", &v.count("n_lines", *lines))],
            ),
            v.t("version.lines_not_in.guidance", &[("lines", lines)]),
            v,
        ),
        VersionOutcome::StoredUnreadable { path, version, why } => invalid_v(
            &v.t(
                "version.stored_unreadable",
                &[("version", &format!("{version:?}")), ("path", path), ("why", &why.trim().trim_end_matches('.'))],
            ),
            v.t("version.stored_unreadable.guidance", &[]),
            v,
        ),
        VersionOutcome::Read(r) => {
            let (path, version) = (&r.path, &r.version);
            let what = match &r.of {
                VersionOf::Failed { summary } => v.t("version.of.failed", &[("summary", summary)]),
                VersionOf::Opened => v.t("version.of.opened", &[]),
                VersionOf::Created => v.t("version.of.created", &[("p", &p)]),
                VersionOf::Now => v.t("version.of.now", &[]),
                VersionOf::After { summary } => v.t("version.of.after", &[("summary", summary)]),
                VersionOf::Stored { .. } => String::new(),
            };
            let summary = match &r.of {
                // A commit of the storage's history is named by its short id and subject.
                VersionOf::Stored { commit } => v.t(
                    "version.read.stored",
                    &[
                        ("first", &r.first),
                        ("end", &r.last_shown),
                        ("path", path),
                        ("id", &commit.0.chars().take(7).collect::<String>()),
                        ("subject", &commit.1),
                        ("lines", &r.lines),
                    ],
                ),
                _ => v.t(
                    "version.read",
                    &[
                        ("first", &r.first),
                        ("end", &r.last_shown),
                        ("path", path),
                        ("version", version),
                        ("what", &what),
                        ("lines", &r.lines),
                    ],
                ),
            };
            Response::new(Status::Success, summary).with_guidance(if r.stopped {
                v.t(
                    "version.read.on",
                    &[("p", &p), ("version", version), ("line", &(r.last_shown + 1)), ("path_arg", &path_arg(path, r.path_arg))],
                )
            } else {
                v.t("version.read.bring_back", &[("p", &p)])
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
