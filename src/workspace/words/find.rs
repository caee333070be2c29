//! `memo_find`'s outcomes in words (the phrase tables' `find.*` keys).

use super::Voice;
use crate::response::{Response, Status};
use crate::session::Letter;
use crate::text::clip;

/// `count` units listed for `query` (the candidate list says which one is recommended).
/// `pick`: `memo_replace_selection` takes these units now (else the guidance leaves it out).
pub fn find_found(count: usize, query: &str, pick: bool, v: &Voice) -> Response {
    let p = v.prefix();
    let key = if count == 1 { "find.found.one" } else { "find.found.other" };
    let summary = v.t(key, &[("n", &count), ("query", &clip(query, 60))]);
    let guidance = if pick { "find.found.guidance" } else { "find.found.guidance.no_pick" };
    Response::new(Status::Success, summary).with_guidance(v.t(guidance, &[("p", &p)]))
}

/// No unit of `path` (of `units`) shares a term with `query`: `NoMatch`, nothing changed.
pub fn find_none(path: &str, query: &str, units: usize, v: &Voice) -> Response {
    let p = v.prefix();
    Response::new(Status::NoMatch, v.t("find.none", &[("query", &clip(query, 60)), ("path", &path), ("units", &units)]))
        .with_guidance(v.t("find.none.guidance", &[("p", &p)]))
}

/// A query without a word to look for: `InvalidArguments`, nothing changed.
pub fn find_no_words(v: &Voice) -> Response {
    let p = v.prefix();
    super::invalid_v(&v.t("find.no_words", &[]), v.t("find.no_words.guidance", &[("p", &p)]), v)
}

/// `arg="letter"` (`within`, `unit`) names no live unit of the last `memo_find` in `path`
/// (`stale`: a staged edit changed it): `InvalidArguments`, nothing changed.
pub fn unit_refused(path: &str, arg: &str, letter: Letter, stale: bool, v: &Voice) -> Response {
    let p = v.prefix();
    let (what, guidance) = if stale {
        (v.t("find.unit_stale", &[("arg", &arg), ("letter", &letter), ("p", &p)]), v.t("find.unit_stale.guidance", &[("p", &p)]))
    } else {
        (
            v.t("find.no_unit", &[("arg", &arg), ("letter", &letter), ("path", &path), ("p", &p)]),
            v.t("find.no_unit.guidance", &[("p", &p), ("arg", &arg)]),
        )
    };
    super::invalid_v(&what, guidance, v)
}

/// A pick of a unit without new_text (a unit has no search that gave one): `InvalidArguments`.
pub fn unit_needs_new_text(letter: Letter, v: &Voice) -> Response {
    let p = v.prefix();
    super::invalid_v(
        &v.t("find.new_text", &[("letter", &letter), ("p", &p)]),
        v.t("find.new_text.guidance", &[("letter", &letter), ("p", &p)]),
        v,
    )
}

/// The host's embedder failed or answered badly: the ranking is by words alone.
pub fn find_embed_failed(error: &str, v: &Voice) -> String {
    v.t("find.embed_failed", &[("error", &crate::text::clip(error, 80))])
}
