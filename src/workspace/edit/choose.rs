//! The choice every search-based edit tool goes through (docs/architecture.md#matching): one
//! match is staged, several become lettered candidates (the live selection), a letter picks
//! one, none gives the closest regions. [`decide`] and [`near_report`] decide on plain data;
//! the methods here apply the selection change and word the outcome.

use std::ops::Range;

use ropey::Rope;

use super::near_pick::{decide_pick, Pick};
use super::{Edit, Search, StageInfo};
use crate::matching::recommend::{self, Hints, Reason};
use crate::matching::{near, Budget, CandidateQuality, Match, MatchQuality};
use crate::response::Candidate;
use crate::session::{Letter, Selection, SelectionCandidate, SelectionKind, Sent, Session};
use crate::text;
use crate::workspace::outcome::{EditOutcome, ListReason, Listing, NearMisses, Offered, Refusal, RefusedPick};
use crate::workspace::views::candidate_view;
use crate::workspace::{Step, Workspace, DEFAULT_CANDIDATES_SHOWN};

/// Near misses shown after `NoMatch` (lettered only at or above the threshold).
const NEAR_MISSES_SHOWN: usize = 3;

/// Most exact matches a search collects to choose among (docs/reliability.md §Matching time and
/// read size): a listing shows 26 letters at most, so past this many places the answer is
/// "more than this many", asking for a longer old_text, and the search stops there instead
/// of collecting ten million matches of a one-char needle (1.2 s at 10 MB).
pub(super) const MATCH_CAP: usize = 10_000;

/// Most places one `replace_all` stages: staging and previewing a place costs about 5 µs of
/// wasm time (the preview of each place most of it), so this many stay well within a call's
/// 250 ms (docs/reliability.md §Matching time and read size). More are refused, naming this
/// limit; the search stops counting past it.
pub(super) const MAX_REPLACE_ALL_PLACES: usize = 20_000;

/// How many exact matches `search` collects before it stops: [`MAX_REPLACE_ALL_PLACES`] for a
/// replace_all, else [`MATCH_CAP`]. Pure. Cost: O(1).
pub(super) fn match_cap(replace_all: bool) -> usize {
    if replace_all {
        MAX_REPLACE_ALL_PLACES
    } else {
        MATCH_CAP
    }
}

/// The answer to a search whose exact step stopped at its cap ([`match_cap`]): more places
/// than can be chosen among or staged at once. `None` when it did not stop. Pure. Cost: O(1).
pub(super) fn capped_refusal(search: &Search, capped: bool) -> Option<Refusal> {
    capped.then(|| Refusal::TooManyPlaces {
        needle: search.needle.clone(),
        path: search.path.clone(),
        limit: match_cap(search.replace_all),
        replace_all: search.replace_all,
    })
}

/// What a search's matches come to.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Choice {
    /// Stage one edit: the one match, or the one a letter picks. `select`: the search becomes
    /// the selection first (a direct pick without a listing).
    One {
        edit: Edit,
        quality: CandidateQuality,
        chosen: Option<Letter>,
        select: bool,
        warn: bool,
    },
    /// `replace_all`: every match, staged as one change.
    All {
        edits: Vec<Edit>,
        quality: MatchQuality,
    },
    /// List the matches as candidates, nothing staged.
    List(ListReason),
    Refuse(Refusal),
}

/// The choice for `matches` (not empty, in document order) of `search` in `draft`. `same`: the
/// live selection, when it lists exactly these matches for this query (its letters then stay
/// valid); `reloaded`: storage replaced the text since the last answer. Pure. Cost: O(matches).
pub(super) fn decide(search: &Search, matches: &[Match], draft: &Rope, same: Option<&Selection>, reloaded: bool) -> Choice {
    let quality = matches.first().map_or(MatchQuality::EXACT, |m| m.quality);
    if let Some(letter) = search.match_id {
        return decide_letter(search, letter, matches, same, reloaded);
    }
    if let Some(expected) = search.expected.filter(|&n| n != matches.len()) {
        let lines = matches.iter().take(26).map(|m| text::line_of(draft, m.range.start)).collect();
        return Choice::List(ListReason::ExpectedOccurrences { expected, found: matches.len(), lines });
    }
    if search.replace_all && matches.len() > 1 {
        return decide_all(search, matches, quality);
    }
    if let [m] = matches {
        // replace_all means every place as written, as it does with several.
        if m.quality.is_exact() && !search.replace_all {
            if let Some(cut) = token_cut(draft, &m.range, &search.new_text) {
                return Choice::List(cut);
            }
        }
        let edit = Edit { range: m.range.clone(), new_text: m.replacement(&search.new_text) };
        return Choice::One { edit, quality: m.quality.into(), chosen: None, select: false, warn: search.warn || !m.quality.is_exact() };
    }
    Choice::List(ListReason::Several { quality })
}

// The picks and replace-alls of `decide`, out of line: a first edit is neither, and V8 compiles
// a wasm function whole on its first call (docs/performance.md#cold-start).

/// [`decide`] with a letter given (`match_id`).
#[inline(never)]
fn decide_letter(search: &Search, letter: Letter, matches: &[Match], same: Option<&Selection>, reloaded: bool) -> Choice {
    let chosen = match same {
        Some(sel) => match sel.candidates.iter().find(|c| c.id == letter) {
            Some(c) if c.stale => return Choice::Refuse(Refusal::StaleCandidate { letter }),
            Some(c) => Some((c.range.clone(), c.reindent.clone(), c.quality)),
            None => None,
        },
        // Storage replaced the text since the agent last heard from us, and the reload
        // dropped any listing: the letter was read from a listing of the old text. Letters
        // name a listing's candidates, never positions in today's text: list the current
        // ones instead of guessing.
        None if reloaded => return Choice::List(ListReason::ListingReloaded { letter }),
        // A direct pick without a listing: the letters are those a listing would give.
        None => matches.get(letter.index()).map(|m| (m.range.clone(), m.reindent.clone(), m.quality.into())),
    };
    let Some((range, reindent, q)) = chosen else {
        let count = same.map_or(matches.len(), |s| s.candidates.len());
        return Choice::Refuse(Refusal::MatchIdOutOfRange { letter, needle: search.needle.clone(), count });
    };
    let new_text = match &reindent {
        Some(r) => r.apply(&search.new_text),
        None => search.new_text.clone(),
    };
    let select = same.is_none() && !search.preview_only;
    Choice::One { edit: Edit { range, new_text }, quality: q, chosen: Some(letter), select, warn: search.warn || !q.is_exact() }
}

/// [`decide`] of a replace_all with several matches.
#[inline(never)]
fn decide_all(search: &Search, matches: &[Match], quality: MatchQuality) -> Choice {
    if !quality.is_exact() {
        return Choice::List(ListReason::ReplaceAllNotExact { quality, found: matches.len() });
    }
    let edits = matches.iter().map(|m| Edit { range: m.range.clone(), new_text: search.new_text.clone() }).collect();
    Choice::All { edits, quality }
}

/// Most chars of the document's word a [`token_cut`] extends a match over, on each side.
const MAX_CUT_WORD: usize = 64;

/// [`ListReason::CutsToken`] when exact match `range` of `draft` starts or ends inside a word or
/// number (letters, digits and `_`; CJK has no such boundaries): `max: 1` inside the
/// document's `max: 16` is not the text the model meant, and writing `max: 6` over it would
/// leave `max: 66`. `None` when both edges fall on word boundaries. Pure. Cost: O(edges ·
/// [`MAX_CUT_WORD`] · log n).
pub(super) fn token_cut(draft: &Rope, range: &Range<usize>, new_text: &str) -> Option<ListReason> {
    let word = |c: Option<char>| c.is_some_and(crate::text_rules::is_word_char);
    let at = |i: usize| draft.get_char(i);
    if range.is_empty() {
        return None;
    }
    let before = range.start.checked_sub(1).and_then(at);
    let cuts_start = word(before) && word(at(range.start));
    let cuts_end = word(at(range.end)) && word(range.end.checked_sub(1).and_then(at));
    if !cuts_start && !cuts_end {
        return None;
    }
    // The word around a cut edge, whole (within MAX_CUT_WORD chars of the edge each way).
    let word_around = |edge: usize| {
        let lo = (edge.saturating_sub(MAX_CUT_WORD)..edge).rev().take_while(|&i| word(at(i))).last().unwrap_or(edge);
        let hi =
            (edge..edge.saturating_add(MAX_CUT_WORD).min(draft.len_chars())).take_while(|&i| word(at(i))).last().map_or(edge, |i| i + 1);
        lo..hi
    };
    let (s, e) = (
        if cuts_start { word_around(range.start).start } else { range.start },
        if cuts_end { word_around(range.end).end } else { range.end },
    );
    let token = draft.slice(if cuts_start { word_around(range.start) } else { word_around(range.end) }).to_string();
    let written = format!("{}{new_text}{}", draft.slice(s..range.start), draft.slice(range.end..e));
    let line = text::line_of(draft, if cuts_start { range.start } else { range.end });
    Some(ListReason::CutsToken { line, token, at_start: cuts_start, there: draft.slice(s..e).to_string(), written })
}

/// The answer to a search of `needle` that found nothing in `draft`: the closest regions
/// (lettered at or above `threshold`), offered as candidate A when `can_choose`. Returns the
/// lettered regions too, for the selection. Pure. Cost: one [`near::search`], within the work
/// budget of one search (a stopped search gives no regions and says so).
pub(super) fn near_report(
    search: &Search,
    draft: &Rope,
    needle: &str,
    threshold: f64,
    can_choose: bool,
    after: &Budget,
) -> (NearMisses, Vec<near::NearMiss>) {
    let near::NearSearch { found: near, stopped } = near::search(draft, needle, search.anchor_end.unwrap_or(0), NEAR_MISSES_SHOWN, after);
    let mut lettered: Vec<near::NearMiss> = near.iter().filter(|n| n.similarity >= threshold).cloned().collect();
    // A candidate of an elided old_text is lettered only where its pieces place the region: a
    // pick elsewhere would be refused (an offered candidate is stageable, or not offered).
    if !lettered.is_empty() {
        let placed = super::near_pick::elided_placement(draft, needle);
        lettered.retain(|n| super::near_pick::placeable(draft, needle, &placed, &n.range));
    }
    // Where the text occurs before the anchor, the anchor is what to fix.
    let before_anchor = search.anchor_end.filter(|_| !needle.is_empty()).and_then(|end| {
        let head = draft.slice(..end.min(draft.len_chars())).to_string();
        head.find(needle).map(|byte| text::line_of(draft, draft.byte_to_char(byte)))
    });
    let regions = near
        .iter()
        .map(|n| {
            let letter = (n.similarity >= threshold)
                .then(|| Letter::from_index(lettered.iter().position(|l| l.range == n.range).unwrap_or(0)))
                .flatten();
            near::NearMissView::of(draft, n, needle, letter.map(|l| l.to_string()))
        })
        .collect();
    let offered = lettered.first().filter(|_| can_choose).map(|best| Offered {
        line: text::line_of(draft, best.range.start),
        similarity: best.similarity,
        count: lettered.len(),
        // Set by the caller once the picks are decided.
        recommended: None,
        refused: Vec::new(),
    });
    let report = NearMisses {
        needle: search.needle.clone(),
        path: search.path.clone(),
        after_anchor: search.anchor_end.is_some(),
        before_anchor,
        // The span tool's notes warn about markers a staged edit drops: nothing is staged here.
        notes: if search.tool == crate::workspace::Tool::ReplaceSpan { Vec::new() } else { search.notes.clone() },
        regions,
        offered,
        stopped,
    };
    (report, lettered)
}

/// How many entries of a listing are shown: a prefix holding `shown` live candidates. Stale
/// ones (staged since the listing, kept so their letters stay put) are listed where they fall
/// but take no place, so a listing again after staging A still offers five choices. Cost: O(n).
fn shown_prefix(stale: impl Iterator<Item = bool>, shown: usize) -> usize {
    let mut live_seen = 0;
    let mut len = 0;
    for s in stale {
        live_seen += usize::from(!s);
        if live_seen > shown {
            return len;
        }
        len += 1;
    }
    len
}

/// `matches` as candidates lettered in document order (at most 26). Cost: O(matches).
fn lettered(matches: &[Match]) -> Vec<SelectionCandidate> {
    matches
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            Letter::from_index(i).map(|id| SelectionCandidate {
                id,
                range: m.range.clone(),
                quality: m.quality.into(),
                reindent: m.reindent.clone(),
                occurrence: i,
                stale: false,
            })
        })
        .collect()
}

/// The candidates a listing shows — a prefix holding `shown` live ones — marked with the
/// recommended one (by `hints`, among the live ones), and that one's index in `listing` with
/// the reason (it may lie past the shown prefix). Pure. Cost: O(listing) plus
/// [`recommend::recommend`].
pub(super) fn show_listing(
    draft: &Rope,
    listing: &[SelectionCandidate],
    shown: usize,
    hints: &Hints,
) -> (Vec<Candidate>, Option<(usize, Reason)>) {
    let prefix = shown_prefix(listing.iter().map(|c| c.stale), shown);
    let mut candidates: Vec<Candidate> =
        listing.iter().take(prefix).map(|c| candidate_view(draft, c.id, &c.range, c.quality, c.stale, c.occurrence)).collect();
    // Without a hint nothing is recommended, so the lines of the matches are not looked up (545
    // rope lookups for a needle with 545 hits: docs/performance.md#cjk-text).
    let hinted = hints.anchor_end.is_some() || hints.focus.is_some() || hints.goal.is_some();
    let recommended = hinted.then(|| recommended_live(draft, listing, hints)).flatten();
    if let Some(c) = recommended.and_then(|(i, _)| candidates.get_mut(i)) {
        c.recommended = true;
        c.recommended_reason = recommended.map(|(_, reason)| reason);
    }
    (candidates, recommended)
}

/// The candidate [`recommend::recommend`] picks among the live ones of `listing` (not stale),
/// by its index in `listing`.
fn recommended_live(draft: &Rope, listing: &[SelectionCandidate], hints: &Hints) -> Option<(usize, Reason)> {
    let live: Vec<usize> = listing.iter().enumerate().filter(|(_, c)| !c.stale).map(|(i, _)| i).collect();
    let ranges: Vec<Range<usize>> = live.iter().filter_map(|&i| listing.get(i)).map(|c| c.range.clone()).collect();
    recommend::recommend(draft, &ranges, hints).and_then(|r| Some((*live.get(r.index)?, r.reason)))
}

impl Workspace {
    /// [`Workspace::choose`] for matches found with the cap of [`match_cap`]: `capped` (the
    /// search stopped there) is refused by [`capped_refusal`], nothing staged or selected.
    pub(super) fn choose_upto(&mut self, search: Search, matches: Vec<Match>, capped: bool) -> Step {
        match capped_refusal(&search, capped) {
            Some(refusal) => self.refuse(refusal, Some(&search.path)),
            None => self.choose(search, matches),
        }
    }

    pub(super) fn choose(&mut self, search: Search, matches: Vec<Match>) -> Step {
        // Callers answer "no match" themselves, with the needle as searched; an empty list here
        // gets the same status rather than a panic.
        if matches.is_empty() {
            let fresh = self.search_budget();
            return self.no_match(search, "", &fresh);
        }
        let draft = self.draft_rope(&search.path);
        let same = self.same_selection(&search, &matches);
        let reloaded = !same && search.match_id.is_some() && self.reloaded_since_last_response(&search.path);
        let live = self.turn.session.as_ref().and_then(|s| s.selection.as_ref()).filter(|_| same);
        // A letter read from a listing that is no longer open (an edit, commit or revert ended
        // it): the current matches are lettered anew, so it is never taken as a position in them.
        let ended = self.turn.listed.iter().any(|(p, q)| *p == search.path && *q == search.query);
        if let (Some(letter), true, false, None) = (search.match_id, ended, reloaded, live) {
            return self.list(search, matches, ListReason::ListingEnded { letter });
        }
        match decide(&search, &matches, &draft, live, reloaded) {
            Choice::One { edit, quality, chosen, select, warn } => {
                if select {
                    self.select(&search, &matches, SelectionKind::Matches, false);
                }
                let sent = Sent {
                    path: search.path.clone(),
                    query: search.query.clone(),
                    new_text: search.new_text.clone(),
                    written: edit.new_text.clone(),
                };
                let info = StageInfo {
                    tool: search.tool,
                    quality: Some(quality),
                    preview_only: search.preview_only,
                    chosen,
                    notes: search.notes,
                    warn,
                };
                let step = self.stage(&search.path, vec![edit], info);
                if !search.preview_only {
                    self.remember_sent(sent, &step);
                }
                step
            }
            Choice::All { edits, quality } => {
                let info = StageInfo {
                    tool: search.tool,
                    quality: Some(quality.into()),
                    preview_only: search.preview_only,
                    chosen: None,
                    warn: search.warn,
                    notes: search.notes,
                };
                // One pending change however many places (docs/tools.md §memo_replace).
                self.stage_as(&search.path, edits, info, true)
            }
            Choice::List(why) => self.list(search, matches, why),
            // A letter picked before, sent again with the same edit: that change holds it.
            Choice::Refuse(Refusal::StaleCandidate { letter }) => match self.picked_before(&search, Some(letter)) {
                Some(id) => self.already_staged(&search, id),
                None => self.refuse(Refusal::StaleCandidate { letter }, Some(&search.path)),
            },
            Choice::Refuse(refusal) => self.refuse(refusal, Some(&search.path)),
        }
    }

    /// Lists `matches` as lettered candidates (the live selection) with a recommendation when one
    /// is clearly best. Nothing is staged.
    fn list(&mut self, search: Search, matches: Vec<Match>, why: ListReason) -> Step {
        let draft = self.draft_rope(&search.path);
        let same = self.same_selection(&search, &matches);
        if !search.preview_only {
            if same {
                if let Some(session) = self.turn.session.as_mut() {
                    // The letters stay; the replacement is the one given with this search.
                    session.relist(&search.new_text);
                }
            } else {
                self.select(&search, &matches, SelectionKind::Matches, true);
            }
        }
        // From the selection when it is live, else the matches lettered in order.
        let listing: Vec<SelectionCandidate> = match self.turn.session.as_ref().and_then(|s| s.selection.as_ref()) {
            Some(sel) if same || !search.preview_only => sel.candidates.clone(),
            _ => lettered(&matches),
        };
        let goal = self.records.tasks.innermost().map(|t| t.goal.clone());
        let hints = Hints { anchor_end: search.anchor_end, focus: self.focus(&search.path), goal: goal.as_deref() };
        let shown = if search.show_all { 26 } else { DEFAULT_CANDIDATES_SHOWN };
        let (mut candidates, mut recommended) = show_listing(&draft, &listing, shown, &hints);
        if matches!(why, ListReason::CutsToken { .. }) {
            // A match cutting a word is the model's to confirm, never recommended.
            recommended = None;
            for c in &mut candidates {
                (c.recommended, c.recommended_reason) = (false, None);
            }
        }
        if !search.preview_only {
            self.turn.recommended = recommended.and_then(|(i, _)| listing.get(i)).map(|l| l.id);
        }
        // Recommended among the candidates shown.
        let recommended_letter =
            recommended.filter(|(i, _)| candidates.get(*i).is_some()).and_then(|(i, reason)| Some((listing.get(i)?.id, reason)));
        let total = matches.len();
        let quality = matches.first().map(|m| m.quality);
        let outcome = Listing {
            why,
            needle: search.needle,
            path: search.path.clone(),
            total,
            recommended: recommended_letter,
            hidden: total.saturating_sub(candidates.iter().filter(|c| !c.stale).count()),
            // The letters that can still be staged: stale ones (staged since the listing) are not.
            first: candidates.iter().find(|c| !c.stale).and_then(|c| Letter::parse(&c.id)),
            last: candidates.iter().rev().find(|c| !c.stale).and_then(|c| Letter::parse(&c.id)),
            notes: search.notes,
            warn: search.warn || !quality.is_some_and(|q| q.is_exact()),
        };
        let mut r = self.worded(&EditOutcome::Listed(outcome));
        r.candidates = candidates;
        r.metrics.selection_count = Some(total);
        r.metrics.new_length = Some(draft.len_chars());
        r.match_quality = quality.map(|q| q.to_string());
        r.fingerprint = Some(self.draft_fingerprint(&search.path).to_string());
        Step::Done(self.finish(r, Some(&search.path)))
    }

    /// Char offset of the last staged change in `path`, for recommendations.
    fn focus(&self, path: &str) -> Option<usize> {
        let s = self.turn.session.as_ref()?;
        let id = s.last_staged?;
        s.changes_in_draft(path).into_iter().find(|(c, _)| c.id == id).map(|(_, r)| r.start)
    }

    /// The live selection of this query, if it still describes these matches (its letters then
    /// stay valid: docs/architecture.md#pending-changes).
    fn same_selection(&self, search: &Search, matches: &[Match]) -> bool {
        self.turn.session.as_ref().and_then(|s| s.selection.as_ref()).is_some_and(|sel| {
            sel.path == search.path
                && sel.query == search.query
                && sel.kind == SelectionKind::Matches
                && sel.candidates.iter().filter(|c| !c.stale).map(|c| c.range.clone()).eq(matches.iter().map(|m| m.range.clone()))
        })
    }

    /// Whether `path` was reloaded from storage after the last response (`take_from_storage` in
    /// sync.rs records it; the end of each call forgets it). Cost: O(log reloaded paths).
    fn reloaded_since_last_response(&self, path: &str) -> bool {
        self.sync.reloaded_since_response.contains(path)
    }

    /// Caches `found` as the live selection (letters in document order).
    fn select(&mut self, search: &Search, found: &[Match], kind: SelectionKind, awaiting: bool) {
        let candidates = lettered(found);
        self.set_selection(Selection {
            path: search.path.clone(),
            query: search.query.clone(),
            new_text: search.new_text.clone(),
            needle: String::new(),
            kind,
            candidates,
            awaiting_choice: awaiting,
            picked: Vec::new(),
        });
    }

    fn set_selection(&mut self, selection: Selection) {
        let listed = (selection.path.clone(), selection.query.clone());
        self.turn.listed.retain(|l| *l != listed);
        if self.turn.listed.len() >= 32 {
            self.turn.listed.remove(0);
        }
        self.turn.listed.push(listed);
        let mut session = self.take_session();
        session.select(selection);
        self.turn.session = Some(session);
    }

    /// Takes the session out (opening a new one if there is none); the caller puts it back.
    pub(in crate::workspace) fn take_session(&mut self) -> Session {
        self.turn.session.take().unwrap_or_else(|| {
            self.turn.next_session_id += 1;
            Session::new(self.turn.next_session_id - 1)
        })
    }

    // ---- no match: the closest regions -----------------------------------------------------

    /// `after`: the budget of the locate of `needle` just before, which the near-miss search
    /// continues (a fresh one when there was none).
    pub(super) fn no_match(&mut self, search: Search, needle: &str, after: &Budget) -> Step {
        let path = search.path.clone();
        // A letter for the live selection of the same query: a stale one is refused, a near
        // miss is staged.
        if let Some(letter) = search.match_id {
            let sel =
                self.turn.session.as_ref().and_then(|s| s.selection.as_ref()).filter(|sel| sel.path == path && sel.query == search.query);
            let candidate = sel.and_then(|sel| sel.candidates.iter().find(|c| c.id == letter)).cloned();
            if candidate.as_ref().is_some_and(|c| c.stale) {
                return match self.picked_before(&search, Some(letter)) {
                    Some(id) => self.already_staged(&search, id),
                    None => self.refuse(Refusal::StaleCandidate { letter }, Some(&path)),
                };
            }
            if let Some(c) = candidate.filter(|_| sel.is_some_and(|s| s.kind == SelectionKind::NearMisses)) {
                let info = StageInfo {
                    tool: search.tool,
                    quality: Some(c.quality),
                    preview_only: search.preview_only,
                    chosen: Some(letter),
                    notes: search.notes,
                    warn: true,
                };
                return self.stage_near_miss(&path, letter, c.range, needle, &search.new_text, info);
            }
        }
        let draft = self.draft_rope(&path);
        // A preview sets no choice, and OutOfSync hides it.
        let can_choose = !search.preview_only && self.sync.persist_failures.is_empty() && self.sync.conflicts.is_empty();
        let (mut report, lettered) = near_report(&search, &draft, needle, self.settings.config.near_match_threshold, can_choose, after);
        if !lettered.is_empty() && !search.preview_only {
            let candidates = lettered
                .iter()
                .enumerate()
                .filter_map(|(i, n)| {
                    Letter::from_index(i).map(|id| SelectionCandidate {
                        id,
                        range: n.range.clone(),
                        quality: n.quality(),
                        reindent: None,
                        occurrence: i,
                        stale: false,
                    })
                })
                .collect();
            self.set_selection(Selection {
                path: path.clone(),
                query: search.query.clone(),
                new_text: search.new_text.clone(),
                needle: needle.to_string(),
                kind: SelectionKind::NearMisses,
                candidates,
                awaiting_choice: true,
                picked: Vec::new(),
            });
        }
        // What picking each candidate comes to, decided now: an offer says which picks are
        // refused (docs/decisions.md#offered-candidates-are-pickable).
        let refused: Vec<RefusedPick> = lettered
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let letter = Letter::from_index(i)?;
                match decide_pick(&draft, &path, letter, n.range.clone(), needle, &search.new_text, Some(n.quality())) {
                    Pick::Refuse(refusal) => {
                        let clash = match refusal {
                            Refusal::PickConflict(c) => c.clash,
                            _ => None,
                        };
                        Some(RefusedPick { letter, line: text::line_of(&draft, n.range.start), clash })
                    }
                    Pick::Stage { .. } | Pick::AlreadyThere { .. } => None,
                }
            })
            .collect();
        let pickable = |i: usize| Letter::from_index(i).is_some_and(|l| refused.iter().all(|r| r.letter != l));
        // A near miss that is clearly the region meant (matching/near/clear_best.rs), with why.
        // Never a region whose pick would be refused (docs/decisions.md#recommendation).
        let recommended = near::clear_best::recommend(&draft, needle, &lettered).filter(|_| can_choose).filter(|(i, _)| pickable(*i));
        if !lettered.is_empty() && !search.preview_only {
            self.turn.recommended = recommended.and_then(|(i, _)| Letter::from_index(i));
        }
        if let Some(offered) = report.offered.as_mut() {
            offered.recommended = recommended.map(|(_, reason)| reason);
            offered.refused = refused.clone();
        }
        let outcome = EditOutcome::NoMatch(report);
        let mut r = self.worded(&outcome);
        if let EditOutcome::NoMatch(report) = outcome {
            // The regions as data beside their text in the preview.
            r.near_misses = report.regions;
        }
        r.candidates = lettered
            .iter()
            .enumerate()
            .filter_map(|(i, n)| Letter::from_index(i).map(|id| candidate_view(&draft, id, &n.range, n.quality(), false, i)))
            .collect();
        for c in &mut r.candidates {
            c.pick_refused = refused.iter().any(|p| p.letter.to_string() == c.id);
        }
        if let Some((c, reason)) = recommended.and_then(|(i, reason)| Some((r.candidates.get_mut(i)?, reason))) {
            c.recommended = true;
            c.recommended_reason = Some(reason);
        }
        if !r.candidates.is_empty() {
            r.metrics.selection_count = Some(r.candidates.len());
        }
        // Small documents are shown whole (a failed match shows what is there).
        if draft.len_chars() < self.settings.config.max_preview_length.saturating_mul(4) {
            let last = text::visible_line_count(&draft);
            r.content = Some(crate::workspace::read::numbered_lines(&draft, 1, last, true));
        }
        r.metrics.new_length = Some(draft.len_chars());
        r.fingerprint = Some(self.draft_fingerprint(&path).to_string());
        Step::Done(self.finish(r, Some(&path)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changeset::ChangeSet;
    use crate::matching::exact::Layered;
    use crate::matching::locate_layered_upto;
    use crate::text::Text;
    use crate::workspace::outcome::Needle;
    use crate::workspace::Tool;

    fn search(replace_all: bool) -> Search {
        Search {
            tool: Tool::Replace,
            path: "a.txt".into(),
            query: "replace\u{0}x\u{0}".into(),
            needle: Needle::OldText("x".into()),
            new_text: "y".into(),
            anchor_end: None,
            match_id: None,
            show_all: false,
            preview_only: false,
            replace_all,
            expected: None,
            notes: Vec::new(),
            warn: false,
        }
    }

    /// What a search of `x` in `places` copies of `x ` comes to: (matches kept, stopped).
    fn located(places: usize, replace_all: bool) -> (usize, bool) {
        let text = Text::from_storage(&"x ".repeat(places));
        let changes = ChangeSet::new(text.rope().len_chars());
        let draft = text.rope().clone();
        let layers = Layered { base: &text, changes: &changes, draft: &draft };
        let (found, stopped) = locate_layered_upto(&layers, "x", 0, match_cap(replace_all), Budget::search());
        (found.matches.len(), stopped)
    }

    #[test]
    fn a_search_past_its_cap_stops_there_and_is_refused_as_more_than_the_cap() {
        for (places, stops) in [(MATCH_CAP, false), (MATCH_CAP + 1, true), (30 * MATCH_CAP, true)] {
            let (kept, stopped) = located(places, false);
            assert_eq!((kept, stopped), (places.min(MATCH_CAP), stops), "{places} places");
            let want = stops.then(|| Refusal::TooManyPlaces {
                needle: Needle::OldText("x".into()),
                path: "a.txt".into(),
                limit: MATCH_CAP,
                replace_all: false,
            });
            assert_eq!(capped_refusal(&search(false), stopped), want, "{places} places");
        }
        // replace_all stages up to its own limit, and is refused past it.
        assert_eq!(located(MAX_REPLACE_ALL_PLACES, true), (MAX_REPLACE_ALL_PLACES, false));
        let (kept, stopped) = located(MAX_REPLACE_ALL_PLACES + 1, true);
        assert_eq!((kept, stopped), (MAX_REPLACE_ALL_PLACES, true));
        assert_eq!(
            capped_refusal(&search(true), stopped),
            Some(Refusal::TooManyPlaces {
                needle: Needle::OldText("x".into()),
                path: "a.txt".into(),
                limit: MAX_REPLACE_ALL_PLACES,
                replace_all: true
            })
        );
    }
}
