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
            return invalid(&format!("argument `start_line` is {start} but {path} has {lines} line{}", plural(*lines)), format!("Pass a start_line from 1 to {lines}."))
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
        ReadOf::Committed => Some("committed text"),
        ReadOf::Draft { pending: 0 } => None,
        ReadOf::Draft { .. } => Some("draft"),
    };
    // The draft's fingerprint in the text too (the description promises it): an edit passes
    // it as expected_fingerprint.
    let fp = r.fingerprint.as_ref().map(|f| format!("fingerprint `{f}`"));
    let (path, end) = (&r.path, r.last_shown);
    // `of 481` with one document open (the model knows which), else `of a.md (481 lines; …)`.
    let (of, count) = if v.one_document { (r.lines.to_string(), None) } else { (path.clone(), Some(format!("{} line{}", r.lines, plural(r.lines)))) };
    let about: Vec<String> = count.into_iter().chain(which.map(str::to_string)).chain(fp).collect();
    let about = if about.is_empty() { String::new() } else { format!(" ({})", about.join("; ")) };
    let mut summary = format!("Read lines {}–{end} of {of}{about}.", r.first);
    if let Some((named, more)) = &r.other_documents {
        let more_note = if *more > 0 { format!(" and {more} more") } else { String::new() };
        summary.push_str(&format!(" Other open documents: {}{more_note} (pass `path` to read one).", named.join(", ")));
    }
    if let (Some(first), Some(last)) = (r.marked.first(), r.marked.last()) {
        summary.push_str(&if r.marked.len() == 1 {
            format!(" Candidate {first} is marked [[SEL#{first}]]…[[/SEL#{first}]]; the markers are not part of the text.")
        } else {
            format!(
                " Candidates {} are marked [[SEL#{first}]]…[[/SEL#{first}]] to [[SEL#{last}]]…[[/SEL#{last}]]; the markers are not part of the text.",
                r.marked.iter().map(Letter::to_string).collect::<Vec<_>>().join(", ")
            )
        });
    }
    if !r.unmarked.is_empty() {
        let at: Vec<String> = r.unmarked.iter().map(|(l, line)| format!("{l} at line {line}")).collect();
        summary.push_str(&format!(
            " Candidates are not marked in this read because {path} itself contains text like `[[SEL#…]]`, which is part of the document: candidate {}.",
            at.join(", ")
        ));
    }
    let mut guidance = match r.gutter {
        ReadGutter::Keys => Some(format!(
            "Each line starts with its key (`12#a3f1│ `): pass keys to {p}_replace_lines(start_key, end_key, new_text). Keys and gutters are not part of the text."
        )),
        // Said once per edit session (docs/responses.md#said-once); then the next call.
        ReadGutter::Numbers if !v.heard.gutters => Some(GUTTER_NOTE.to_string()),
        ReadGutter::Numbers if v.offers(Tool::Replace) => Some(format!("Edit with {p}_replace(old_text, new_text).")),
        ReadGutter::Numbers if v.offers(Tool::ReplaceSelection) => Some(format!("Choose a candidate with {p}_replace_selection(selection_id).")),
        ReadGutter::Numbers | ReadGutter::Bare => None,
    };
    let said_gutters = guidance.as_deref() == Some(GUTTER_NOTE);
    if let Some((option, limit)) = r.stopped_by {
        summary.push_str(&format!(
            " The read stopped at line {end}: one read shows at most {limit} {} (option {option}).",
            if option == "max_read_lines" { "lines" } else { "chars of text" }
        ));
        let on = format!("Read on with {p}_read(start_line={}).", end + 1);
        guidance = Some(match guidance {
            Some(g) => format!("{on} {g}"),
            None => on,
        });
    }
    if !r.clipped.is_empty() {
        let n = r.clipped.len();
        let lines: Vec<String> = r.clipped.iter().take(5).map(usize::to_string).collect();
        let more = n.saturating_sub(lines.len());
        summary.push_str(&format!(
            " Line{} {}{} longer than {} chars {} clipped; the marker `{}…` that ends {} is not part of the text.",
            plural(n),
            lines.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() },
            r.line_chars,
            if n == 1 { "is" } else { "are" },
            crate::workspace::read::CLIP_MARK,
            if n == 1 { "it" } else { "them" },
        ));
        let hint = format!("To change text past a clip, pass a unique piece of it as old_text to {p}_replace (a near miss shows what is there).");
        guidance = Some(match guidance {
            Some(g) => format!("{g} {hint}"),
            None => hint,
        });
    }
    let mut r = Response::new(Status::Success, summary);
    r.guidance = guidance;
    r.once.gutters = said_gutters;
    r
}

/// What a read's gutters are, said on the first read of an edit session (docs/responses.md#said-once).
const GUTTER_NOTE: &str = "The `12│ ` gutters are not part of the text: leave them out of old_text.";

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
                format!("Read lines {}–{} of {path} version {version} ({what}; {} lines). Read-only: edits apply to the draft.", r.first, r.last_shown, r.lines),
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
