//! The edit tools' outcomes in words: staged, listed, no match, refused.

use super::{invalid, letter_or_a, Voice};
use crate::format::{chars_delta, code};
use crate::matching::near;
use crate::matching::recommend::Reason;
use crate::matching::three_way::ConflictReason;
use crate::matching::elide::Unmapped;
use crate::matching::CandidateQuality;
use crate::response::{Response, Status};
use crate::session::Letter;
use crate::tools::Tool;
use crate::workflow::PersistMode;
use crate::workspace::outcome::*;
use crate::text_rules::one_line;
use crate::workspace::views::{clip, plural, plural_es};


/// The response for `outcome`: status, summary, guidance, the worded preview and the warning.
/// The caller adds the data (candidates, metrics, fingerprint, content) and finishes it.
/// Cost: O(size of the words).
pub fn edit(outcome: &EditOutcome, v: &Voice) -> Response {
    match outcome {
        EditOutcome::Staged(s) => staged(s, v),
        EditOutcome::Listed(l) => listed(l, v),
        EditOutcome::NoMatch(n) => no_match(n, v),
        EditOutcome::Refused(r) => refused(r, v),
        EditOutcome::AlreadyStaged(a) => already_staged(a, v),
    }
}

/// The same edit sent again: `Success` (it is staged), nothing new; the guidance says how to
/// save from here.
fn already_staged(a: &AlreadyStaged, v: &Voice) -> Response {
    let Some(id) = a.id else {
        // Saved already (a commit, or immediate mode): there is nothing to do.
        return Response::new(Status::NoOp, format!("This edit is already made{} at line {}; nothing was staged.", v.in_path(&a.path), a.line))
            .with_guidance("Nothing to do for this change; go on with the next one.");
    };
    let summary = format!("This edit is already staged as change {id}{} at line {}; nothing new was staged.", v.in_path(&a.path), a.line);
    let guidance = v.save_short().unwrap_or_else(|| v.save_or_drop.clone());
    Response::new(Status::Success, summary).with_guidance(guidance)
}

fn needle(n: &Needle) -> String {
    match n {
        Needle::OldText(t) => format!("old_text {}", code(&clip(t))),
        Needle::SpanStart(t) => format!("old_span_start {}", code(&clip(t))),
        Needle::Span { start, end } => format!("the span {} … {}", code(&clip(start)), code(&clip(end))),
    }
}

/// One note as a sentence.
pub fn note(n: &Note) -> String {
    match n {
        Note::GuttersStripped(kind) => {
            format!("old_text had line-number gutters like {} on every line; they were stripped before searching.", kind.example())
        }
        Note::NewTextGuttersStripped => "The same gutters were stripped from new_text.".into(),
        Note::SpanMarkerLost { end, marker } => format!(
            "{} {} is replaced too and new_text does not restate it, so it will be gone (pass {}=true to keep it).",
            end.arg(),
            code(&clip(marker)),
            end.keep_flag()
        ),
        Note::LineKeysStripped => "new_text had line keys on every line; they were stripped.".into(),
        Note::EscapesRead => {
            "The escapes in old_text (\\n, \\t, \\\") were read as the characters the document has; only your change was applied to the text there.".into()
        }
        Note::PickEscapesRead => {
            "The escapes in your old_text (\\n, \\t, \\\") were read as the characters the document has there, and those in new_text the same way.".into()
        }
        Note::PickDocumentEscapesRead => {
            "The document writes escapes (\\n, \\\", \\\\) where your old_text has the characters: your change was made on the text they stand for and written with the document's escapes.".into()
        }
        Note::PickGuttersIgnored => "The line-number gutters of your old_text were not taken as text.".into(),
        Note::KeptAsIs { places, elided } => format!(
            "Where the text there differs from your old_text ({places} place{}{}) it was kept as it is.",
            plural(*places),
            if *elided { ", the lines your `...` stood for among them" } else { "" }
        ),
        Note::PlaceholdersFilled { count } => format!(
            "The {count} placeholder line{} of your new_text {} written as the lines of your old_text {} for{}: check the preview.",
            plural(*count),
            if *count == 1 { "was" } else { "were" },
            if *count == 1 { "it stands" } else { "they stand" },
            if *count == 1 { "" } else { ", in order" }
        ),
    }
}

/// `summary` with each note appended as a sentence.
fn with_notes(mut summary: String, notes: &[Note]) -> String {
    for n in notes {
        summary.push(' ');
        summary.push_str(&note(n));
    }
    summary
}

// ---- staged -------------------------------------------------------------------------------

fn staged(s: &Staged, v: &Voice) -> Response {
    let p = v.prefix();
    let path = &s.path;
    let line = s.line;
    let what = match &s.change {
        ChangeMade::Restored => "no change (this edit restores the committed text there)".to_string(),
        ChangeMade::One { id, amended: false, places } if *places > 1 => format!("change {id} ({places} places)"),
        ChangeMade::One { id, amended: true, places } if *places > 1 => {
            format!("change {id} ({places} places; amended)")
        }
        ChangeMade::One { id, amended: false, .. } => format!("change {id}"),
        // (an existing letter: the edit touched that change and is merged into it)
        ChangeMade::One { id, amended: true, .. } => format!("change {id} (amended)"),
        ChangeMade::Several { ids, edits } => {
            format!("changes {} ({edits} edits)", ids.iter().map(Letter::to_string).collect::<Vec<_>>().join(", "))
        }
    };
    let how = match s.quality {
        Some(q @ CandidateQuality::Similar(_)) => format!(" It was not an exact match but a similar region ({q}): check the preview."),
        Some(q @ CandidateQuality::Unescaped(_)) => {
            format!(" Found with old_text's escapes read as characters (match_quality `{q}`), not exactly: check the preview.")
        }
        Some(q @ CandidateQuality::Merged(_)) => format!(
            " Your old_text differed from the text there ({q}): only your change (old_text → new_text) was applied to that text. Check the preview."
        ),
        Some(q @ CandidateQuality::Match(m)) => {
            m.describe().map_or(String::new(), |d| format!(" Found with {d} (match_quality `{q}`), not exactly: check the preview."))
        }
        None => String::new(),
    };
    let chosen = s.chosen.map_or(String::new(), |l| format!(" from candidate {l}"));
    let (summary, guidance) = if s.preview_only {
        (
            format!(
                "Preview only: this edit{chosen} at {}line {line} would become {what}; nothing was staged.{how}",
                if v.one_document { String::new() } else { format!("{path} ") }
            ),
            format!("Call {} again without preview_only to stage it.", s.tool.name(p)),
        )
    } else {
        let staged = format!("Staged {what}{chosen}{} at line {line} ({}).", v.in_path(path), chars_delta(s.delta));
        match v.persist_mode {
            // The guidance says nothing is saved until a commit, once per edit session
            // (docs/responses.md#said-once); then only how to save.
            PersistMode::Manual => (format!("{staged}{how}"), v.save_short().unwrap_or_else(|| v.save_or_drop.clone())),
            PersistMode::Disabled => {
                (format!("{staged} Persistence is disabled: nothing is ever written to storage.{how}"), v.save_or_drop.clone())
            }
            // The commit that follows answers with its own guidance.
            PersistMode::Immediate => (format!("{staged}{how}"), String::new()),
        }
    };
    let mut r = Response::new(Status::Success, with_notes(summary, &s.notes)).with_guidance(guidance);
    r.once.save = !s.preview_only && v.persist_mode == PersistMode::Manual && !v.heard.save && v.offers(Tool::Commit);
    // The staged summary says `(+4 chars)`: a Metrics table would repeat it at every edit.
    r.delta_in_summary = !s.preview_only;
    if s.warn {
        r.warn()
    } else {
        r
    }
}

/// The commit summary of an edit immediate mode saves at once.
pub fn immediate_commit_summary(path: &str, line: usize) -> String {
    format!("Edit at {path} line {line}")
}

// ---- listed -------------------------------------------------------------------------------

fn listed(l: &Listing, v: &Voice) -> Response {
    let p = v.prefix();
    let (status, mut summary) = match &l.why {
        ListReason::Several { quality } => {
            let fuzzy = quality.describe().map_or(String::new(), |d| format!(" (not exactly: {d})"));
            (Status::MultiMatch, format!("{} matches {} places{}{fuzzy}; nothing was staged.", needle(&l.needle), l.total, v.in_path(&l.path)))
        }
        ListReason::ExpectedOccurrences { expected, found, lines } => (
            Status::StaleReference,
            format!(
                "expected_occurrences is {expected} but {} matches {found} place{} in {} (line{} {}); nothing was staged.",
                needle(&l.needle),
                plural(*found),
                l.path,
                plural(*found),
                lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
            ),
        ),
        ListReason::ReplaceAllNotExact { quality, found } => (
            Status::MultiMatch,
            format!(
                "replace_all needs exact matches, but {} was only found with {} ({found} places); nothing was staged.",
                needle(&l.needle),
                quality.describe().unwrap_or_default()
            ),
        ),
        ListReason::ListingEnded { letter } => (
            Status::StaleReference,
            format!(
                "match_id {letter} names a candidate of an earlier listing that is no longer open (an edit, commit or revert since ended it); nothing was staged. The current matches of {} are listed below.",
                needle(&l.needle)
            ),
        ),
        ListReason::ListingReloaded { letter } => (
            Status::StaleReference,
            format!(
                "match_id {letter} names a candidate of a listing that no longer exists: {} was reloaded from storage since; nothing was staged. The current matches of {} are listed below.",
                l.path,
                needle(&l.needle)
            ),
        ),
        ListReason::CutsToken { line, token, at_start, there, written } => (
            Status::StaleReference,
            format!(
                "{} {} inside {} on line {line}{}; nothing was staged. Picking it writes {} where {} is.",
                needle(&l.needle),
                if *at_start { "starts" } else { "ends" },
                code(token),
                v.in_path(&l.path),
                code(&clip(&one_line(written))),
                code(&clip(&one_line(there)))
            ),
        ),
    };
    if let Some((id, reason)) = l.recommended {
        summary.push_str(&format!(" Recommended: {id} ({reason})."));
    }
    if l.hidden > 0 {
        // Past 26 places show_all_matches cannot list them all either; the guidance says to
        // make the text longer.
        summary.push_str(&format!(
            " {} more not shown{}.",
            l.hidden,
            if l.total > 26 { "" } else { "; pass show_all_matches=true to list them" }
        ));
    }
    let (first, last) = (letter_or_a(l.first), letter_or_a(l.last));
    let guidance = match &l.why {
        ListReason::ExpectedOccurrences { found, .. } => format!(
            "Check the candidates: stage one with match_id, make the text longer so it matches exactly what you mean, or pass expected_occurrences={found} with replace_all=true if all of them are meant."
        ),
        ListReason::ReplaceAllNotExact { .. } => {
            format!("Copy old_text exactly from {p}_read to replace all, or stage the candidates one by one with match_id.")
        }
        ListReason::ListingReloaded { .. } | ListReason::ListingEnded { .. } => format!(
            "Check the candidates below and call again with the match_id of the one you mean{}.",
            if v.offers(Tool::ReplaceSelection) { format!(" (or {p}_replace_selection)") } else { String::new() }
        ),
        ListReason::CutsToken { there, .. } => format!(
            "Call {p}_replace again with old_text holding the whole word as the document has it ({}), or {} if that is what you mean.",
            code(&clip(&one_line(there))),
            if v.offers(Tool::ReplaceSelection) { format!("{p}_replace_selection(selection_id=\"A\")") } else { "match_id=\"A\"".to_string() }
        ),
        ListReason::Several { .. } if v.offers(Tool::ReplaceSelection) => format!(
            "Call {p}_replace_selection(selection_id=\"{first}\"–\"{last}\") to stage one, or make the text longer so it matches once."
        ),
        // No choice is pending (a preview, or storage out of sync): only match_id stages one.
        ListReason::Several { .. } => {
            format!("Repeat the call with match_id (\"{first}\"–\"{last}\") to stage one, or make the text longer so it matches once.")
        }
    };
    let r = Response::new(status, with_notes(summary, &l.notes)).with_guidance(guidance);
    if l.warn {
        r.warn()
    } else {
        r
    }
}

// ---- no match -----------------------------------------------------------------------------

fn no_match(n: &NearMisses, v: &Voice) -> Response {
    let p = v.prefix();
    if let Some(s) = n.stopped {
        return search_stopped(n, s.candidates, v);
    }
    let mut summary = format!(
        "{} was not found{}, not even with whitespace, indentation or look-alike characters ignored. Nothing was changed.",
        needle(&n.needle),
        v.in_path(&n.path)
    );
    if n.after_anchor {
        summary.push_str(" (Only the text after search_after was searched.)");
    }
    summary = with_notes(summary, &n.notes);
    // With a recommended candidate, the regions not offered would only distract from it; a
    // reflowed one's character diff says no more than its reason (whitespace only).
    let preview = match n.offered.as_ref().and_then(|o| o.recommended) {
        Some(Reason::WhitespaceOnly) => String::new(),
        Some(_) => near::render_near_misses(n.regions.iter().filter(|r| r.id.is_some())),
        None => near::render_near_misses(&n.regions),
    };
    // Refused with copied gutters in it: the guidance and the next read say what gutters are.
    let gutters = n.notes.iter().any(|k| matches!(k, Note::GuttersStripped(_))) || carries_gutters(&n.needle);
    let guidance = if let Some(o) = &n.offered {
        summary.push_str(&format!(
            " The closest region (line {}, similarity {}) is offered as candidate A{}.",
            o.line,
            near::two_decimals(o.similarity),
            if o.count > 1 { format!("; {} candidates in all", o.count) } else { String::new() }
        ));
        // Said now, not by the pick after it (docs/decisions.md#offered-candidates-are-pickable).
        for r in &o.refused {
            summary.push_str(&refused_pick_offered(r));
        }
        let first = (0..o.count).filter_map(Letter::from_index).find(|l| o.refused.iter().all(|r| r.letter != *l));
        match first {
            Some(l) => format!(
                "If candidate {l} is the place you meant, call {p}_replace_selection(selection_id=\"{l}\") to apply your change there (only what differs between your old_text and new_text, onto its text); otherwise copy the text exactly from {p}_read (without the line-number gutters)."
            ),
            None => format!(
                "Call {p}_replace again with old_text copied exactly from the text there ({p}_read, without the line-number gutters) and new_text made from that text."
            ),
        }
    } else if n.regions.is_empty() {
        format!("Call {p}_read to see the current text and copy it exactly (without the line-number gutters).")
    } else if gutters {
        format!("The closest regions are shown with what differs; copy the text exactly from {p}_read (without the line-number gutters).")
    } else {
        format!("The regions below show what differs; copy the text exactly from {p}_read.")
    };
    let guidance = match n.before_anchor {
        Some(line) => format!(
            "{} occurs before the search_after text (line {line}), not after it: drop search_after or pass one that comes earlier. {guidance}",
            needle(&n.needle)
        ),
        None => guidance,
    };
    let mut r = Response::new(Status::NoMatch, summary).with_guidance(guidance);
    r.once.gutters_again = gutters;
    if !preview.is_empty() {
        r.preview = Some(preview);
    }
    r
}

/// The sentence saying that picking near-miss candidate `r` is refused, quoting the line where
/// the change meets text the document changed when there is one.
fn refused_pick_offered(r: &RefusedPick) -> String {
    match &r.clash {
        Some((yours, there)) => format!(
            " Candidate {} (line {}) differs from your old_text right where your change is, so picking it is refused: yours: {} · there: {}.",
            r.letter,
            r.line,
            code(yours),
            code(there)
        ),
        None => format!(" Picking candidate {} (line {}) is refused: your change cannot be applied to its text as it is.", r.letter, r.line),
    }
}

/// Some line of the text starts with a read's gutter (`12│ `, `  12│ `), as a copied one does.
fn carries_gutters(n: &Needle) -> bool {
    let gutter = |line: &str| line.trim_start().split_once('│').is_some_and(|(num, _)| !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()));
    match n {
        Needle::OldText(t) | Needle::SpanStart(t) => t.lines().any(gutter),
        Needle::Span { start, end } => start.lines().chain(end.lines()).any(gutter),
    }
}

/// A search that reached its work budget (matching::work): nothing is known about where the
/// text is, and the model is told what to send instead.
fn search_stopped(n: &NearMisses, candidates: usize, v: &Voice) -> Response {
    let p = v.prefix();
    let after = match candidates {
        0 => "before it reached a candidate".to_string(),
        1 => "after 1 candidate".to_string(),
        n => format!("after {n} candidates"),
    };
    let summary = format!(
        "The search for {} in {} stopped {after} without an answer: this document is too large or repetitive to search for it within one call's work limit. Nothing was changed.",
        needle(&n.needle),
        n.path
    );
    let guidance = format!(
        "Send a shorter, more distinctive old_text copied exactly from {p}_read (a line or two that occur once), or replace by line numbers with {p}_replace_lines."
    );
    Response::new(Status::NoMatch, with_notes(summary, &n.notes)).with_guidance(guidance)
}

// ---- refused ------------------------------------------------------------------------------


fn there_now(t: &ThereNow) -> String {
    format!("There now (candidate {}, line {}):\n{}\n", t.letter, t.line, t.text)
}

/// Guidance to send an elided edit again in full; `shown`: the answer shows "There now".
fn full_block(p: &str, shown: bool) -> String {
    let from = if shown { "\"There now\"".to_string() } else { format!("{p}_read") };
    format!("Send the full block: call {p}_replace with old_text copied from {from} and new_text written out in full, with no placeholder lines.")
}

fn refused(r: &Refusal, v: &Voice) -> Response {
    let p = v.prefix();
    match r {
        Refusal::DraftMoved { path, expected, now } => Response::new(
            Status::StaleReference,
            format!("The draft of {path} changed since your read (expected fingerprint {expected}, now {now}). Nothing was changed."),
        )
        .with_guidance(format!("Call {p}_read and retry with the new fingerprint.")),
        Refusal::AnchorMissing { path, anchor } => Response::new(
            Status::NoMatch,
            format!("search_after text {} does not occur in {path}. Nothing was changed.", code(&clip(anchor))),
        )
        .with_guidance(format!("Copy search_after exactly from {p}_read output, or leave it out.")),
        Refusal::SpanEndMissing { path, start, end, start_line } => Response::new(
            Status::NoMatch,
            format!(
                "old_span_end {} does not occur after old_span_start {} (line {start_line}) in {path}. Nothing was changed.",
                code(&clip(end)),
                code(&clip(start))
            ),
        )
        .with_guidance(format!("Copy old_span_end from {p}_read: it must come after the start marker.")),
        Refusal::AppendWithChoice { args } => {
            let names = args
                .iter()
                .map(|a| match a {
                    ChoiceArg::MatchId(v) => format!("`match_id` ({v})"),
                    ChoiceArg::ReplaceAll => "`replace_all` (true)".to_string(),
                    ChoiceArg::ExpectedOccurrences(n) => format!("`expected_occurrences` ({n})"),
                    ChoiceArg::SearchAfter(s) => format!("`search_after` ({})", code(&clip(s))),
                })
                .collect::<Vec<_>>()
                .join(", ");
            invalid(
                &format!("old_text is empty (an append), but {names} choose among matches of a text"),
                format!("Pass the text to replace as old_text, or leave out {names} to append{}.", v.or_call(Tool::Append)),
            )
        }
        Refusal::EmptySpanMarker { end } => invalid(
            &format!("argument `{}` is empty", end.arg()),
            format!("Pass a few words where the region starts and ends, or use {p}_append to add at the end."),
        ),
        Refusal::NoSelection => Response::new(Status::Blocked, "There is no selection to choose from. Nothing was changed.")
            .with_guidance(format!("{p}_replace lists lettered candidates when old_text matches several places.")),
        Refusal::SelectionElsewhere { given, selection_path } => invalid(
            &format!("argument `path` is {given} but the selection is in {selection_path}"),
            "Leave `path` out, or pass the selection's document.".into(),
        ),
        Refusal::SelectionIdOutOfRange { index, count, last } => {
            let last = letter_or_a(*last);
            invalid(
                &format!(
                    "argument `selection_id` names candidate {} but the selection has {count} (A–{last})",
                    Letter::from_index(*index).map_or_else(|| (index + 1).to_string(), |l| l.to_string()),
                ),
                format!("Pass a selection_id from \"A\" to \"{last}\"."),
            )
        }
        Refusal::MatchIdOutOfRange { letter, needle: n, count } => {
            let last = letter_or_a(Letter::from_index((*count).saturating_sub(1).min(25)));
            Response::new(
                Status::InvalidArguments,
                format!(
                    "Invalid call: argument `match_id` is {letter} but {} has {count} match{} (A–{last}). Nothing was changed.",
                    needle(n),
                    plural_es(*count)
                ),
            )
            .with_guidance(format!("Pass a match_id from A to {last}."))
        }
        Refusal::StaleCandidate { letter } => Response::new(
            Status::StaleReference,
            format!("Candidate {letter} no longer holds the text it matched: an edit staged since changed it. Nothing was changed."),
        )
        .with_guidance(format!("Choose another candidate, or call {p}_preview to see what is staged.")),
        Refusal::NotALineKey => invalid("argument `start_key` is not a line key", "Pass a key like \"12#a3f1\" from memo_read(line_keys=true).".into()),
        Refusal::EndKeyBeforeStart { start, end } => invalid(
            &format!("argument `end_key` ({end}) is before `start_key` ({start})"),
            "Pass end_key at or after start_key, or leave it out to replace one line.".into(),
        ),
        Refusal::LinesChanged { path, changes, shown } => {
            let what: Vec<String> = changes.iter().map(|c| line_change(c, path)).collect();
            Response::new(Status::StaleReference, format!("The lines changed since your read: {}. Nothing was changed.", what.join("; "))).with_guidance(
                format!("Use the current keys shown below (lines {}–{}), or call {p}_read(line_keys=true) again.", shown.start(), shown.end()),
            )
        }
        Refusal::SameText => Response::new(Status::NoOp, "The new text is the same as the text there: there is nothing to change.")
            .with_guidance("Give new_text the text you want in its place."),
        Refusal::TooManyChanges { limit, edits } => Response::new(
            Status::Blocked,
            format!(
                "This would need more than the {limit} pending changes (A–Z) one session can hold{}. Nothing was changed.",
                if *edits > 1 { format!(" ({edits} edits)") } else { String::new() }
            ),
        )
        .with_guidance(if v.offers(Tool::Commit) {
            format!("Call {p}_commit(summary) to save the pending changes; the next edit starts a new session with all 26 letters free.")
        } else {
            format!("Drop the pending changes with {p}_revert(reason), or make this edit touch a pending change (that amends it and needs no letter).")
        }),
        Refusal::NotPrepared { path } => {
            Response::new(Status::Exception, format!("Internal error: document {path} was not prepared for editing. Nothing was changed."))
        }
        Refusal::OutOfRange { path, range, draft_len } => Response::new(
            Status::Exception,
            format!("Internal error: range {range:?} lies outside the {draft_len} chars of {path}'s draft. Nothing was changed."),
        )
        .with_guidance(format!("Read the document again with {p}_read and retry; please report this.")),
        Refusal::TooManyPlaces { needle: n, path, limit, replace_all } => Response::new(
            Status::MultiMatch,
            if *replace_all {
                format!("{} matches more than {limit} places in {path}, the most one replace_all stages. Nothing was staged.", needle(n))
            } else {
                format!("{} matches more than {limit} places in {path} (the search stopped counting there). Nothing was staged.", needle(n))
            },
        )
        .with_guidance(if *replace_all {
            format!("Use a longer old_text that matches only the places you mean (at most {limit}), and repeat the call for the rest.")
        } else {
            let arg = if matches!(n, Needle::OldText(_)) { "old_text" } else { "old_span_start" };
            let lines = if v.offers(Tool::ReplaceLines) { format!(", or replace the lines by their keys with {p}_replace_lines") } else { String::new() };
            format!("Make {arg} longer so it matches once (copy its whole line from {p}_read), add search_after with text just above the place{lines}.")
        }),
        Refusal::TooLarge { path, bytes, now, limit } => Response::new(
            Status::InvalidArguments,
            format!(
                "This edit would make {path} {bytes} bytes (it is {now} now), over the limit of {limit} bytes ({} MiB) per document. Nothing was changed.",
                limit / (1024 * 1024)
            ),
        )
        .with_guidance("Stage a smaller new_text, or put the rest in another document; the pending changes are as they were."),
        Refusal::ElidedElsewhere { lines: (from, to), there } => refused_pick(
            format!(
                "The lines around the `...` of your old_text span lines {from}–{to}, not candidate {} (line {}). Nothing was staged.",
                there.letter, there.line
            ),
            there_now(there),
            full_block(p, true),
        ),
        Refusal::ElidedAnchorNotOnce { path, piece, count, there } => refused_pick(
            format!(
                "The lines around the `...` of your old_text must each occur once in {path}, in order; {} occurs {}. Nothing was staged.",
                code(&clip(piece)),
                match count {
                    0 => "nowhere as written".to_string(),
                    1 => "only before the lines above it".to_string(),
                    n => format!("{n} times"),
                }
            ),
            there_now(there),
            full_block(p, true),
        ),
        Refusal::ElidedNewText { path, why } => {
            let first = match why {
                Unmapped::Unsettled { before: false, .. } => "Extend old_text after that placeholder up to a line that occurs once there",
                Unmapped::Unsettled { before: true, .. } => "Start old_text earlier, at a line that occurs once there",
                Unmapped::Sketch { .. } => "Keep the unchanged line of old_text just before and just after each placeholder line in new_text, and write out each line you change",
                _ => "Write new_text with one placeholder line for each of old_text's, in the same order (the lines they stand for stay as they are)",
            };
            Response::new(Status::InvalidArguments, elided_new_text(path, why)).with_guidance(format!(
                "{first}; or send the full block: call {p}_replace with old_text copied from {p}_read and new_text written out in full, with no placeholder lines."
            ))
        }
        Refusal::PickConflict(c) => pick_conflict(c, p),
    }
}


fn line_change(c: &LineChange, path: &str) -> String {
    match c {
        LineChange::Gone { line, last } => format!("line {line} does not exist any more ({path} has {last} line{})", plural(*last)),
        LineChange::Differs { line, now, now_key, read } => format!("line {line} is now {} (key {now_key}), not the line you read (key {read})", code(&clip(now))),
        LineChange::Moved { line, now, now_key, was } => format!(
            "line {line} is now {} (key {now_key}), not the line you read there ({}): lines moved since your read",
            code(&clip(now)),
            code(&clip(was))
        ),
    }
}

/// Why new_text's placeholders cannot be mapped at an elided match in `path`.
fn elided_new_text(path: &str, why: &Unmapped) -> String {
    match why {
        Unmapped::Markers { old, new: 0, line } => format!(
            "Your old_text was found in {path} by the lines around its {old} placeholder line{} ({}), but your new_text has none: written as it is, it would delete the lines left out. Nothing was changed.",
            plural(*old),
            code(line)
        ),
        Unmapped::Markers { old, new, line } => format!(
            "Your old_text was found in {path} by the lines around its {old} placeholder line{} ({}), but your new_text has {new}: which lines each of those stands for is unknown. Nothing was changed.",
            plural(*old),
            code(line)
        ),
        Unmapped::BlankLines { marker } => format!(
            "Your new_text has fewer blank lines beside placeholder {marker} than your old_text: they may be among the lines it stands for in {path}. Nothing was changed."
        ),
        Unmapped::Outside { marker } => format!(
            "Your new_text has text beyond its placeholder {marker}, where your old_text starts or ends with it: where in {path} that text goes is unknown. Nothing was changed."
        ),
        Unmapped::Unsettled { marker, line, before } => format!(
            "The lines {} placeholder {marker} of your old_text ({}) occur more than once soon {} it in {path}, and your new_text changes them{}: which of them you mean is unclear. Nothing was changed.",
            if *before { "before" } else { "after" },
            code(&clip(line)),
            if *before { "before" } else { "after" },
            if *before { "" } else { " or what follows" },
        ),
        Unmapped::Sketch { marker, line, near: Some(near) } => format!(
            "Your new_text has placeholder line {} (placeholder {marker}) where your old_text has none, and which lines of your old_text it stands for is unclear at {}: it may stand for that line or not. Nothing was changed in {path}: a placeholder is never written as text.",
            code(&clip(line)),
            code(&clip(near))
        ),
        Unmapped::Sketch { marker, line, near: None } => format!(
            "Your new_text has placeholder line {} (placeholder {marker}) where your old_text has none, with no line of your old_text between it and the placeholder before it: which lines each stands for is unclear. Nothing was changed in {path}: a placeholder is never written as text.",
            code(&clip(line))
        ),
    }
}

/// A refused near-miss pick: `StaleReference`, nothing staged, what is there shown.
fn refused_pick(summary: String, preview: String, guidance: String) -> Response {
    let mut r = Response::new(Status::StaleReference, summary).with_guidance(guidance);
    r.preview = Some(preview);
    r
}

fn pick_conflict(c: &PickConflict, p: &str) -> Response {
    let (letter, line) = (c.there.letter, c.there.line);
    let why = match &c.reason {
        ConflictReason::Overlap => {
            let at = if c.touched.trim().is_empty() { String::new() } else { format!(" ({} in your old_text)", code(&clip(&c.touched))) };
            format!("differs from your old_text right where your change is{at}, so applying it there would overwrite text you have not seen")
        }
        ConflictReason::Placeholder { line } => {
            format!("would get the line {} from your new_text, which stands for text you left out and is never written as text", code(line))
        }
        ConflictReason::Escapes => "holds line breaks, tabs or quotes where your old_text has escapes (\\n, \\t, \\\"), and your change adds backslashes: whether they are escapes or characters is unclear".to_string(),
        ConflictReason::ElidedAnchorsDiffer => "differs from your old_text outside its `...` lines, so it may not be the place those lines describe".to_string(),
        ConflictReason::TooLarge { tokens, limit } => format!("differs from your change in {tokens} tokens, more than the {limit} a three-way apply compares"),
    };
    let mut summary = format!("Candidate {letter} (line {line}, {}) {why}. Nothing was staged.", c.quality);
    if let Some((yours, there)) = &c.clash {
        summary.push_str(&format!(" yours: {} · there: {}", code(yours), code(there)));
    }
    let mut preview = format!("Your change (old_text → new_text), [-removed-] {{+added+}}:\n{}\n\n{}", c.change, there_now(&c.there));
    if let Some(proposal) = &c.proposal {
        preview.push_str(&format!("\nYour change applied there anyway would make, [-removed-] {{+added+}}:\n{proposal}\n"));
    }
    let guidance = match c.reason {
        ConflictReason::Placeholder { .. } | ConflictReason::ElidedAnchorsDiffer => full_block(p, true),
        _ => format!(
            "Call {p}_replace again with old_text copied from \"There now\" and new_text made from that text (the last part shows what your change would make of it)."
        ),
    };
    refused_pick(summary, preview, guidance)
}

// ---- near misses: already there, exactly elsewhere ------------------------------------------

/// A near-miss pick whose change is already made there: `NoOp`, nothing staged.
pub fn already_there(a: &AlreadyThere, _v: &Voice) -> Response {
    Response::new(
        Status::NoOp,
        format!(
            "Your change is already there: candidate {} in {} (line {}) already reads as new_text would make it. Nothing was staged.",
            a.letter, a.path, a.line
        ),
    )
    .with_guidance("Nothing to do for this change; go on with the next one.")
}

/// The sentence that leads a no-match answer's guidance when old_text occurs exactly in other
/// documents; `None` when it occurs in none.
pub fn exactly_elsewhere(e: &ExactlyElsewhere, v: &Voice) -> Option<String> {
    let (first, _) = e.places.first()?;
    let places: Vec<String> = e.places.iter().map(|(p, line)| format!("{p} (line {line})")).collect();
    Some(format!(
        "old_text occurs exactly in {}, not in {}: if you meant that document, call {}_replace with path=\"{first}\" (nothing was changed there).",
        places.join(", "),
        e.path,
        v.prefix()
    ))
}
