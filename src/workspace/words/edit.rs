//! The edit tools' outcomes in words: staged, listed, no match, refused.

use super::near::{difference_text, near_misses_text};
use super::{invalid_v, letter_or_a, Voice};
use crate::format::code;
use crate::matching::elide::Unmapped;
use crate::matching::near;
use crate::matching::recommend::Reason;
use crate::matching::three_way::ConflictReason;
use crate::matching::CandidateQuality;
use crate::matching::MatchQuality;
use crate::response::{Response, Status};
use crate::session::Letter;
use crate::text_rules::one_line;
use crate::workflow::PersistMode;
use crate::workspace::outcome::*;
use crate::workspace::views::clip;
use crate::workspace::Tool;

/// The response for `outcome`: status, summary, guidance, the worded preview and the warning.
/// The caller adds the data (candidates, metrics, fingerprint, content) and finishes it.
/// Cost: O(size of the words).
/// Only `staged` is inlined here: the other arms are kept out of line so that the first edit
/// does not compile their words too (V8 compiles a wasm function whole on its first call:
/// docs/performance.md#cold-start).
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
#[inline(never)]
fn already_staged(a: &AlreadyStaged, v: &Voice) -> Response {
    let Some(id) = a.id else {
        // Saved already (a commit, or immediate mode): there is nothing to do.
        return Response::new(Status::NoOp, v.t("edit.already_made", &[("in_path", &v.in_path(&a.path)), ("line", &a.line)]))
            .with_guidance(v.t("edit.nothing_to_do", &[]));
    };
    let summary = v.t("edit.already_staged", &[("id", &id), ("in_path", &v.in_path(&a.path)), ("line", &a.line)]);
    let guidance = v.save_short().unwrap_or_else(|| v.save_or_drop.clone());
    Response::new(Status::Success, summary).with_guidance(guidance)
}

fn needle(n: &Needle, v: &Voice) -> String {
    match n {
        Needle::OldText(t) => v.t("needle.old_text", &[("text", &code(&clip(t)))]),
        Needle::SpanStart(t) => v.t("needle.span_start", &[("text", &code(&clip(t)))]),
        Needle::Span { start, end } => v.t("needle.span", &[("start", &code(&clip(start))), ("end", &code(&clip(end)))]),
    }
}

/// What a match ignored to be found, for summaries; `None` when exact.
fn describe(q: MatchQuality, v: &Voice) -> Option<String> {
    let tier = |t: crate::matching::normalize::Tier| v.t(&format!("tier.{}", t.as_str()), &[]);
    if let (true, Some(t)) = (q.elided, q.tier) {
        return Some(v.t("quality.elided", &[("elided", &tier(crate::matching::normalize::Tier::Elided)), ("what", &tier(t))]));
    }
    match (q.gutter, q.tier) {
        (false, None) => None,
        (true, None) => Some(v.t("quality.gutter", &[])),
        (false, Some(t)) => Some(tier(t)),
        (true, Some(t)) => Some(v.t("quality.gutter_and", &[("what", &tier(t))])),
    }
}

/// One note as a sentence.
pub fn note(n: &Note, v: &Voice) -> String {
    match n {
        Note::GuttersStripped(kind) => v.t("note.gutters_stripped", &[("example", &kind.example())]),
        Note::NewTextGuttersStripped => v.t("note.new_text_gutters_stripped", &[]),
        Note::SpanMarkerLost { end, marker } => {
            v.t("note.span_marker_lost", &[("arg", &end.arg()), ("marker", &code(&clip(marker))), ("flag", &end.keep_flag())])
        }
        Note::LineKeysStripped => v.t("note.line_keys_stripped", &[]),
        Note::EscapesRead => v.t("note.escapes_read", &[]),
        Note::PickEscapesRead => v.t("note.pick_escapes_read", &[]),
        Note::PickDocumentEscapesRead => v.t("note.pick_document_escapes_read", &[]),
        Note::PickGuttersIgnored => v.t("note.pick_gutters_ignored", &[]),
        Note::KeptAsIs { places, elided } => v.t(
            "note.kept_as_is",
            &[
                ("places", &v.count("n_places", *places)),
                ("elided", &if *elided { v.t("note.kept_as_is.elided", &[]) } else { String::new() }),
            ],
        ),
        Note::PlaceholdersFilled { count } => v.count("note.placeholders_filled", *count),
    }
}

/// `summary` with each note appended as a sentence.
fn with_notes(mut summary: String, notes: &[Note], v: &Voice) -> String {
    for n in notes {
        summary.push_str(v.sep());
        summary.push_str(&note(n, v));
    }
    summary
}

// ---- staged -------------------------------------------------------------------------------

fn staged(s: &Staged, v: &Voice) -> Response {
    let p = v.prefix();
    let path = &s.path;
    let line = s.line;
    let what = match &s.change {
        ChangeMade::Restored => v.t("staged.restored", &[]),
        ChangeMade::One { id, amended: false, places } if *places > 1 => v.t("staged.one_places", &[("id", id), ("places", places)]),
        ChangeMade::One { id, amended: true, places } if *places > 1 => v.t("staged.one_places_amended", &[("id", id), ("places", places)]),
        ChangeMade::One { id, amended: false, .. } => v.t("staged.one", &[("id", id)]),
        // (an existing letter: the edit touched that change and is merged into it)
        ChangeMade::One { id, amended: true, .. } => v.t("staged.one_amended", &[("id", id)]),
        ChangeMade::Several { ids, edits } => {
            let ids = ids.iter().map(Letter::to_string).collect::<Vec<_>>().join(v.locale.words().letters_and);
            v.t("staged.several", &[("ids", &ids), ("edits", edits)])
        }
    };
    let how = match s.quality {
        Some(q @ CandidateQuality::Similar(_)) => v.t("staged.how.similar", &[("q", &q)]),
        Some(q @ CandidateQuality::Unescaped(_)) => v.t("staged.how.unescaped", &[("q", &q)]),
        Some(q @ CandidateQuality::Merged(_)) => v.t("staged.how.merged", &[("q", &q)]),
        Some(q @ CandidateQuality::Match(m)) => {
            describe(m, v).map_or(String::new(), |d| v.t("staged.how.match", &[("what", &d), ("q", &q)]))
        }
        None => String::new(),
    };
    let chosen = s.chosen.map_or(String::new(), |l| v.t("staged.chosen", &[("letter", &l)]));
    let (summary, guidance) = if s.preview_only {
        let at = if v.one_document { v.locale.words().line_no(line) } else { v.t("staged.path_line", &[("path", path), ("line", &line)]) };
        (
            v.t("staged.preview_only", &[("chosen", &chosen), ("at", &at), ("what", &what), ("how", &how)]),
            v.t("staged.preview_only.guidance", &[("tool", &s.tool.name(p))]),
        )
    } else {
        let staged = v.t(
            "staged",
            &[("what", &what), ("chosen", &chosen), ("in_path", &v.in_path(path)), ("line", &line), ("delta", &v.chars_delta(s.delta))],
        );
        match v.persist_mode {
            // The guidance says nothing is saved until a commit, once per edit session
            // (docs/responses.md#said-once); then only how to save.
            PersistMode::Manual => (format!("{staged}{how}"), v.save_short().unwrap_or_else(|| v.save_or_drop.clone())),
            PersistMode::Disabled => (format!("{staged}{}{how}", v.t("staged.disabled", &[])), v.save_or_drop.clone()),
            // The commit that follows answers with its own guidance.
            PersistMode::Immediate => (format!("{staged}{how}"), String::new()),
        }
    };
    let mut r = Response::new(Status::Success, with_notes(summary, &s.notes, v)).with_guidance(guidance);
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
pub fn immediate_commit_summary(path: &str, line: usize, locale: crate::locale::Locale) -> String {
    locale.words().t("immediate_commit_summary", &[("path", &path), ("line", &line)])
}

// ---- listed -------------------------------------------------------------------------------

#[inline(never)]
fn listed(l: &Listing, v: &Voice) -> Response {
    let p = v.prefix();
    let w = v.locale.words();
    let n = needle(&l.needle, v);
    let (status, mut summary) = match &l.why {
        ListReason::Several { quality } => {
            let fuzzy = describe(*quality, v).map_or(String::new(), |d| v.t("listed.several.fuzzy", &[("what", &d)]));
            (
                Status::MultiMatch,
                v.t("listed.several", &[("needle", &n), ("total", &l.total), ("in_path", &v.in_path(&l.path)), ("fuzzy", &fuzzy)]),
            )
        }
        ListReason::ExpectedOccurrences { expected, found, lines } => (
            Status::StaleReference,
            v.t(
                if *found == 1 { "listed.expected.one" } else { "listed.expected.other" },
                &[
                    ("expected", expected),
                    ("needle", &n),
                    ("found", found),
                    ("path", &l.path),
                    ("lines", &lines.iter().map(usize::to_string).collect::<Vec<_>>().join(w.letters_and)),
                ],
            ),
        ),
        ListReason::ReplaceAllNotExact { quality, found } => (
            Status::MultiMatch,
            v.t("listed.replace_all_not_exact", &[("needle", &n), ("what", &describe(*quality, v).unwrap_or_default()), ("found", found)]),
        ),
        ListReason::ListingEnded { letter } => (Status::StaleReference, v.t("listed.listing_ended", &[("letter", letter), ("needle", &n)])),
        ListReason::ListingReloaded { letter } => {
            (Status::StaleReference, v.t("listed.listing_reloaded", &[("letter", letter), ("path", &l.path), ("needle", &n)]))
        }
        ListReason::CutsToken { line, token, at_start, there, written } => (
            Status::StaleReference,
            v.t(
                if *at_start { "listed.cuts_token.start" } else { "listed.cuts_token.end" },
                &[
                    ("needle", &n),
                    ("token", &code(token)),
                    ("line", line),
                    ("in_path", &v.in_path(&l.path)),
                    ("written", &code(&clip(&one_line(written)))),
                    ("there", &code(&clip(&one_line(there)))),
                ],
            ),
        ),
    };
    if let Some((id, reason)) = l.recommended {
        summary.push_str(&v.t("listed.recommended", &[("id", &id), ("reason", &w.phrase(reason.key()))]));
    }
    if l.hidden > 0 {
        // Past 26 places show_all_matches cannot list them all either; the guidance says to
        // make the text longer.
        let hint = if l.total > 26 { String::new() } else { v.t("listed.hidden.hint", &[]) };
        summary.push_str(&v.t("listed.hidden", &[("n", &l.hidden), ("hint", &hint)]));
    }
    let (first, last) = (letter_or_a(l.first), letter_or_a(l.last));
    let guidance = match &l.why {
        ListReason::ExpectedOccurrences { found, .. } => v.t("listed.expected.guidance", &[("found", found)]),
        ListReason::ReplaceAllNotExact { .. } => v.t("listed.replace_all_not_exact.guidance", &[("read", &format!("{p}_read"))]),
        ListReason::ListingReloaded { .. } | ListReason::ListingEnded { .. } => {
            let or = if v.offers(Tool::ReplaceSelection) {
                v.t("listed.or_tool", &[("tool", &format!("{p}_replace_selection"))])
            } else {
                String::new()
            };
            v.t("listed.listing_gone.guidance", &[("or", &or)])
        }
        ListReason::CutsToken { there, .. } => v.t(
            "listed.cuts_token.guidance",
            &[
                ("replace", &format!("{p}_replace")),
                ("there", &code(&clip(&one_line(there)))),
                (
                    "pick",
                    &if v.offers(Tool::ReplaceSelection) {
                        format!("{p}_replace_selection(selection_id=\"A\")")
                    } else {
                        "match_id=\"A\"".to_string()
                    },
                ),
            ],
        ),
        ListReason::Several { .. } if v.offers(Tool::ReplaceSelection) => {
            v.t("listed.several.guidance", &[("call", &format!("{p}_replace_selection(selection_id=\"{first}\"–\"{last}\")"))])
        }
        // No choice is pending (a preview, or storage out of sync): only match_id stages one.
        ListReason::Several { .. } => v.t("listed.several.guidance_match_id", &[("first", &first), ("last", &last)]),
    };
    let r = Response::new(status, with_notes(summary, &l.notes, v)).with_guidance(guidance);
    if l.warn {
        r.warn()
    } else {
        r
    }
}

// ---- no match -----------------------------------------------------------------------------

#[inline(never)]
fn no_match(n: &NearMisses, v: &Voice) -> Response {
    let p = v.prefix();
    if let Some(s) = n.stopped {
        return search_stopped(n, s.candidates, v);
    }
    let mut summary = v.t("no_match", &[("needle", &needle(&n.needle, v)), ("in_path", &v.in_path(&n.path))]);
    if n.after_anchor {
        summary.push_str(&v.t("no_match.after_anchor", &[]));
    }
    summary = with_notes(summary, &n.notes, v);
    // With a recommended candidate, the regions not offered would only distract from it; a
    // reflowed one's character diff says no more than its reason (whitespace only).
    let preview = match n.offered.as_ref().and_then(|o| o.recommended) {
        Some(Reason::WhitespaceOnly) => String::new(),
        Some(_) => near_misses_text(n.regions.iter().filter(|r| r.id.is_some()), v.locale.words()),
        None => near_misses_text(&n.regions, v.locale.words()),
    };
    // Refused with copied gutters in it: the guidance and the next read say what gutters are.
    let gutters = n.notes.iter().any(|k| matches!(k, Note::GuttersStripped(_))) || carries_gutters(&n.needle);
    let guidance = if let Some(o) = &n.offered {
        let all = if o.count > 1 { v.t("no_match.offered.all", &[("n", &o.count)]) } else { String::new() };
        summary.push_str(&v.t("no_match.offered", &[("line", &o.line), ("similarity", &near::two_decimals(o.similarity)), ("all", &all)]));
        // Said now, not by the pick after it (docs/decisions.md#offered-candidates-are-pickable).
        for r in &o.refused {
            summary.push_str(&refused_pick_offered(r, v));
        }
        let first = (0..o.count).filter_map(Letter::from_index).find(|l| o.refused.iter().all(|r| r.letter != *l));
        match first {
            Some(l) => v.t("no_match.offered.guidance", &[("letter", &l), ("p", &p)]),
            None => v.t("no_match.offered.guidance_none", &[("p", &p)]),
        }
    } else if n.regions.is_empty() {
        v.t("no_match.guidance.read", &[("p", &p)])
    } else if gutters {
        v.t("no_match.guidance.gutters", &[("p", &p)])
    } else {
        v.t("no_match.guidance.regions", &[("p", &p)])
    };
    let guidance = match n.before_anchor {
        Some(line) => v.t("no_match.before_anchor", &[("needle", &needle(&n.needle, v)), ("line", &line), ("guidance", &guidance)]),
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
fn refused_pick_offered(r: &RefusedPick, v: &Voice) -> String {
    match &r.clash {
        Some((yours, there)) => v.t(
            "no_match.refused_pick.clash",
            &[("letter", &r.letter), ("line", &r.line), ("yours", &code(yours)), ("there", &code(there))],
        ),
        None => v.t("no_match.refused_pick", &[("letter", &r.letter), ("line", &r.line)]),
    }
}

/// Some line of the text starts with a read's gutter (`12│ `, `  12│ `), as a copied one does.
fn carries_gutters(n: &Needle) -> bool {
    let gutter =
        |line: &str| line.trim_start().split_once('│').is_some_and(|(num, _)| !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()));
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
        0 => v.t("search_stopped.after.none", &[]),
        n => v.count("search_stopped.after", n),
    };
    let summary = v.t("search_stopped", &[("needle", &needle(&n.needle, v)), ("path", &n.path), ("after", &after)]);
    let guidance = v.t("search_stopped.guidance", &[("p", &p)]);
    Response::new(Status::NoMatch, with_notes(summary, &n.notes, v)).with_guidance(guidance)
}

// ---- refused ------------------------------------------------------------------------------

fn there_now(t: &ThereNow, v: &Voice) -> String {
    v.t("there_now", &[("letter", &t.letter), ("line", &t.line), ("text", &t.text)])
}

/// Guidance to send an elided edit again in full; `shown`: the answer shows "There now".
fn full_block(p: &str, shown: bool, v: &Voice) -> String {
    let from = if shown { v.t("there_now.name", &[]) } else { format!("{p}_read") };
    v.t("full_block", &[("p", &p), ("from", &from)])
}

fn refused(r: &Refusal, v: &Voice) -> Response {
    let p = v.prefix();
    match r {
        Refusal::DraftMoved { path, expected, now } => {
            Response::new(Status::StaleReference, v.t("refused.draft_moved", &[("path", path), ("expected", expected), ("now", now)]))
                .with_guidance(v.t("refused.draft_moved.guidance", &[("p", &p)]))
        }
        Refusal::AnchorMissing { path, anchor } => {
            Response::new(Status::NoMatch, v.t("refused.anchor_missing", &[("anchor", &code(&clip(anchor))), ("path", path)]))
                .with_guidance(v.t("refused.anchor_missing.guidance", &[("p", &p)]))
        }
        Refusal::SpanEndMissing { path, start, end, start_line } => Response::new(
            Status::NoMatch,
            v.t(
                "refused.span_end_missing",
                &[("end", &code(&clip(end))), ("start", &code(&clip(start))), ("line", start_line), ("path", path)],
            ),
        )
        .with_guidance(v.t("refused.span_end_missing.guidance", &[("p", &p)])),
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
                .join(v.locale.words().letters_and);
            invalid_v(
                &v.t("refused.append_with_choice", &[("names", &names)]),
                v.t("refused.append_with_choice.guidance", &[("names", &names), ("or_call", &v.or_call(Tool::Append))]),
                v,
            )
        }
        Refusal::EmptySpanMarker { end } => {
            invalid_v(&v.t("refused.empty_argument", &[("arg", &end.arg())]), v.t("refused.empty_span_marker.guidance", &[("p", &p)]), v)
        }
        Refusal::NoSelection => Response::new(Status::Blocked, v.t("refused.no_selection", &[]))
            .with_guidance(v.t("refused.no_selection.guidance", &[("p", &p)])),
        Refusal::SelectionElsewhere { given, selection_path } => invalid_v(
            &v.t("refused.selection_elsewhere", &[("given", given), ("selection_path", selection_path)]),
            v.t("refused.selection_elsewhere.guidance", &[]),
            v,
        ),
        Refusal::SelectionIdOutOfRange { index, count, last } => {
            let last = letter_or_a(*last);
            let named = Letter::from_index(*index).map_or_else(|| (index + 1).to_string(), |l| l.to_string());
            invalid_v(
                &v.t("refused.selection_id_out_of_range", &[("named", &named), ("count", count), ("last", &last)]),
                v.t("refused.selection_id_out_of_range.guidance", &[("last", &last)]),
                v,
            )
        }
        Refusal::MatchIdOutOfRange { letter, needle: n, count } => {
            let last = letter_or_a(Letter::from_index((*count).saturating_sub(1).min(25)));
            let what = v.t(
                if *count == 1 { "refused.match_id_out_of_range.one" } else { "refused.match_id_out_of_range.other" },
                &[("letter", letter), ("needle", &needle(n, v)), ("count", count), ("last", &last)],
            );
            Response::new(Status::InvalidArguments, v.t("invalid", &[("what", &what)]))
                .with_guidance(v.t("refused.match_id_out_of_range.guidance", &[("last", &last)]))
        }
        Refusal::StaleCandidate { letter } => Response::new(Status::StaleReference, v.t("refused.stale_candidate", &[("letter", letter)]))
            .with_guidance(v.t("refused.stale_candidate.guidance", &[("p", &p)])),
        Refusal::NotALineKey => invalid_v(&v.t("refused.not_a_line_key", &[]), v.t("refused.not_a_line_key.guidance", &[]), v),
        Refusal::EndKeyBeforeStart { start, end } => invalid_v(
            &v.t("refused.end_key_before_start", &[("end", end), ("start", start)]),
            v.t("refused.end_key_before_start.guidance", &[]),
            v,
        ),
        Refusal::LinesChanged { path, changes, shown } => {
            let what: Vec<String> = changes.iter().map(|c| line_change(c, path, v)).collect();
            Response::new(Status::StaleReference, v.t("refused.lines_changed", &[("what", &what.join(v.t("list_sep", &[]).as_str()))]))
                .with_guidance(v.t("refused.lines_changed.guidance", &[("from", shown.start()), ("to", shown.end()), ("p", &p)]))
        }
        Refusal::SameText => {
            Response::new(Status::NoOp, v.t("refused.same_text", &[])).with_guidance(v.t("refused.same_text.guidance", &[]))
        }
        Refusal::TooManyChanges { limit, edits } => {
            let edits = if *edits > 1 { v.t("refused.too_many_changes.edits", &[("edits", edits)]) } else { String::new() };
            Response::new(Status::Blocked, v.t("refused.too_many_changes", &[("limit", limit), ("edits", &edits)])).with_guidance(
                if v.offers(Tool::Commit) {
                    v.t("refused.too_many_changes.commit", &[("p", &p)])
                } else {
                    v.t("refused.too_many_changes.revert", &[("p", &p)])
                },
            )
        }
        Refusal::NotPrepared { path } => Response::new(Status::Exception, v.t("refused.not_prepared", &[("path", path)])),
        Refusal::OutOfRange { path, range, draft_len } => Response::new(
            Status::Exception,
            v.t("refused.out_of_range", &[("range", &format!("{range:?}")), ("draft_len", draft_len), ("path", path)]),
        )
        .with_guidance(v.t("refused.out_of_range.guidance", &[("p", &p)])),
        Refusal::TooManyPlaces { needle: n, path, limit, replace_all } => Response::new(
            Status::MultiMatch,
            v.t(
                if *replace_all { "refused.too_many_places.replace_all" } else { "refused.too_many_places" },
                &[("needle", &needle(n, v)), ("limit", limit), ("path", path)],
            ),
        )
        .with_guidance(if *replace_all {
            v.t("refused.too_many_places.replace_all.guidance", &[("limit", limit)])
        } else {
            let arg = if matches!(n, Needle::OldText(_)) { "old_text" } else { "old_span_start" };
            let lines = if v.offers(Tool::ReplaceLines) { v.t("refused.too_many_places.lines", &[("p", &p)]) } else { String::new() };
            v.t("refused.too_many_places.guidance", &[("arg", &arg), ("p", &p), ("lines", &lines)])
        }),
        Refusal::TooLarge { path, bytes, now, limit } => Response::new(
            Status::InvalidArguments,
            v.t(
                "refused.too_large",
                &[("path", path), ("bytes", bytes), ("now", now), ("limit", limit), ("mib", &(limit / (1024 * 1024)))],
            ),
        )
        .with_guidance(v.t("refused.too_large.guidance", &[])),
        Refusal::ElidedElsewhere { lines: (from, to), there } => refused_pick(
            v.t("refused.elided_elsewhere", &[("from", from), ("to", to), ("letter", &there.letter), ("line", &there.line)]),
            there_now(there, v),
            full_block(p, true, v),
        ),
        Refusal::ElidedAnchorNotOnce { path, piece, count, there } => refused_pick(
            v.t(
                "refused.elided_anchor_not_once",
                &[
                    ("path", path),
                    ("piece", &code(&clip(piece))),
                    (
                        "occurs",
                        &match count {
                            0 => v.t("refused.elided_anchor_not_once.nowhere", &[]),
                            1 => v.t("refused.elided_anchor_not_once.before", &[]),
                            n => v.t("refused.elided_anchor_not_once.times", &[("n", n)]),
                        },
                    ),
                ],
            ),
            there_now(there, v),
            full_block(p, true, v),
        ),
        Refusal::ElidedNewText { path, why } => {
            let first = match why {
                Unmapped::Unsettled { before: false, .. } => v.t("refused.elided_new_text.extend", &[]),
                Unmapped::Unsettled { before: true, .. } => v.t("refused.elided_new_text.start_earlier", &[]),
                Unmapped::Sketch { .. } => v.t("refused.elided_new_text.keep_lines", &[]),
                _ => v.t("refused.elided_new_text.one_each", &[]),
            };
            Response::new(Status::InvalidArguments, elided_new_text(path, why, v))
                .with_guidance(v.t("refused.elided_new_text.guidance", &[("first", &first), ("p", &p)]))
        }
        Refusal::PickConflict(c) => pick_conflict(c, p, v),
    }
}

fn line_change(c: &LineChange, path: &str, v: &Voice) -> String {
    match c {
        LineChange::Gone { line, last } => {
            v.t("line_change.gone", &[("line", line), ("path", &path), ("lines", &v.count("n_lines", *last))])
        }
        LineChange::Differs { line, now, now_key, read } => {
            v.t("line_change.differs", &[("line", line), ("now", &code(&clip(now))), ("now_key", now_key), ("read", read)])
        }
        LineChange::Moved { line, now, now_key, was } => {
            v.t("line_change.moved", &[("line", line), ("now", &code(&clip(now))), ("now_key", now_key), ("was", &code(&clip(was)))])
        }
    }
}

/// Why new_text's placeholders cannot be mapped at an elided match in `path`.
fn elided_new_text(path: &str, why: &Unmapped, v: &Voice) -> String {
    match why {
        Unmapped::Markers { old, new: 0, line } => {
            v.t("elided.markers_none", &[("path", &path), ("old", &v.count("n_placeholder_lines", *old)), ("line", &code(line))])
        }
        Unmapped::Markers { old, new, line } => {
            v.t("elided.markers", &[("path", &path), ("old", &v.count("n_placeholder_lines", *old)), ("line", &code(line)), ("new", new)])
        }
        Unmapped::BlankLines { marker } => v.t("elided.blank_lines", &[("marker", marker), ("path", &path)]),
        Unmapped::Outside { marker } => v.t("elided.outside", &[("marker", marker), ("path", &path)]),
        Unmapped::Unsettled { marker, line, before } => v.t(
            if *before { "elided.unsettled.before" } else { "elided.unsettled.after" },
            &[("marker", marker), ("line", &code(&clip(line))), ("path", &path)],
        ),
        Unmapped::Sketch { marker, line, near: Some(near) } => {
            v.t("elided.sketch_near", &[("line", &code(&clip(line))), ("marker", marker), ("near", &code(&clip(near))), ("path", &path)])
        }
        Unmapped::Sketch { marker, line, near: None } => {
            v.t("elided.sketch", &[("line", &code(&clip(line))), ("marker", marker), ("path", &path)])
        }
    }
}

/// A refused near-miss pick: `StaleReference`, nothing staged, what is there shown.
fn refused_pick(summary: String, preview: String, guidance: String) -> Response {
    let mut r = Response::new(Status::StaleReference, summary).with_guidance(guidance);
    r.preview = Some(preview);
    r
}

fn pick_conflict(c: &PickConflict, p: &str, v: &Voice) -> Response {
    let (letter, line) = (c.there.letter, c.there.line);
    let why = match &c.reason {
        ConflictReason::Overlap => {
            let at = if c.touched.trim().is_empty() {
                String::new()
            } else {
                v.t("conflict.overlap.at", &[("touched", &code(&clip(&c.touched)))])
            };
            v.t("conflict.overlap", &[("at", &at)])
        }
        ConflictReason::Placeholder { line } => v.t("conflict.placeholder", &[("line", &code(line))]),
        ConflictReason::Escapes => v.t("conflict.escapes", &[]),
        ConflictReason::ElidedAnchorsDiffer => v.t("conflict.elided_anchors_differ", &[]),
        ConflictReason::TooLarge { tokens, limit } => v.t("conflict.too_large", &[("tokens", tokens), ("limit", limit)]),
    };
    let mut summary = v.t("conflict", &[("letter", &letter), ("line", &line), ("quality", &c.quality), ("why", &why)]);
    if let Some((yours, there)) = &c.clash {
        summary.push_str(&v.t("conflict.clash", &[("yours", &code(yours)), ("there", &code(there))]));
    }
    let w = v.locale.words();
    let change = difference_text(&c.change, w);
    let mut preview = v.t("conflict.preview", &[("change", &change), ("there_now", &there_now(&c.there, v))]);
    if let Some(proposal) = &c.proposal {
        preview.push_str(&v.t("conflict.preview.proposal", &[("proposal", &difference_text(proposal, w))]));
    }
    let guidance = match c.reason {
        ConflictReason::Placeholder { .. } | ConflictReason::ElidedAnchorsDiffer => full_block(p, true, v),
        _ => v.t("conflict.guidance", &[("p", &p)]),
    };
    refused_pick(summary, preview, guidance)
}

// ---- near misses: already there, exactly elsewhere ------------------------------------------

/// A near-miss pick whose change is already made there: `NoOp`, nothing staged.
pub fn already_there(a: &AlreadyThere, v: &Voice) -> Response {
    Response::new(Status::NoOp, v.t("already_there", &[("letter", &a.letter), ("path", &a.path), ("line", &a.line)]))
        .with_guidance(v.t("edit.nothing_to_do", &[]))
}

/// The sentence that leads a no-match answer's guidance when old_text occurs exactly in other
/// documents; `None` when it occurs in none.
pub fn exactly_elsewhere(e: &ExactlyElsewhere, v: &Voice) -> Option<String> {
    let (first, _) = e.places.first()?;
    let places: Vec<String> = e.places.iter().map(|(p, line)| v.t("exactly_elsewhere.place", &[("path", p), ("line", line)])).collect();
    Some(v.t(
        "exactly_elsewhere",
        &[("places", &places.join(v.locale.words().letters_and)), ("path", &e.path), ("p", &v.prefix()), ("first", first)],
    ))
}
