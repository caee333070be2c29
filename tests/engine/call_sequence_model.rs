//! Model-based test of whole tool-call sequences : 2–3 documents open at once
//! (LF or CRLF, with or without a BOM), exact and fuzzy replaces, lettered selections, direct
//! `match_id` picks, appends, multi-document commits (with a save and with compensating writes
//! failing), `memo_persist_as`, revert, discard, refresh, rebase and external writes, all run
//! through `Workspace::call` and a storage host, against a plain model that holds, per document,
//! what storage holds, the committed text and the draft (committed + pending edits).
//!
//! Laws checked after every step (the staging laws of src/session/model_tests.rs, extended to several documents):
//! - the draft, the committed text and storage's bytes of every document are the model's
//!   (storage in the document's own line endings and BOM);
//! - the reported pending changes applied to the committed text give the draft
//!   (`draft = apply(base, changes)`), for every document;
//! - the workflow state is the one the model derives (OutOfSync / SelectionPending /
//!   PersistPending / Idle) and every response reports the workspace's state;
//! - a commit asks to write exactly the drafts of the documents with pending changes, in path
//!   order, and storage receives nothing else; when a save fails, the documents already written
//!   get their old text back (compensating writes), drafts are kept, and only a failed
//!   compensating write leaves a new text in storage — which the workspace then treats as
//!   committed; no write ever fails a version check (storage is never written over a text the
//!   workspace has not taken in: an external change under pending changes blocks commit until
//!   refresh / rebase / revert / discard);
//! - revert restores every committed text byte for byte; discard reloads what storage holds;
//! - an external change to a document without pending changes is reloaded silently and the next
//!   response says so; with pending changes it is a conflict (`ExternalConflict` on the next
//!   editing call and only then, `OutOfSync`, commit blocked); a rebase keeps only changes that
//!   were pending, with their letters and texts, and leaves other documents' changes alone;
//! - a fuzzy match is never silent (`match_quality` is not `exact`, the summary starts
//!   `[Warning]`); the edited region, normalised by the reported tier, equals the normalised
//!   needle; an independent line-window matcher finds nothing at any lower tier, something at
//!   the reported one, and — when its windows cannot overlap — exactly as many matches as the
//!   engine reports (so one fuzzy match is never a guess among several); NoMatch only when no
//!   tier matches;
//! - exact multi-matches list every occurrence (A, B, … in document order for a new query);
//!   choosing a letter (or its 1-based number) edits exactly that candidate; a letter out of
//!   range or a stale one is refused; `match_id` stages that occurrence or is refused;
//! - a refused call (NoOp, InvalidArguments, Blocked, StaleReference, ExternalConflict) changes
//!   no draft, committed text, storage text, pending change or state; no call returns
//!   `Exception`; nothing panics; every response passes `agentpad::validate::validate`.
//!
//! Not modelled: Immediate and Disabled persist modes, `memo_replace_span`,
//! `memo_replace_lines`, `search_after`, `replace_all`, tasks — other tests cover them.
//!
//! Each case is generated from a u64 seed by a small deterministic generator (splitmix64), so a
//! failure is replayable. On failure the test prints `seed=…`, the failing step and a shrunk op
//! list (ops are data, so dropping some keeps a valid sequence).
//!
//! Replay / knobs (environment variables):
//! - `AGENTPAD_MODEL_SEED=<n>`: run only the case with seed n; add `AGENTPAD_MODEL_TRACE=1` and
//!   `-- --nocapture` to print every step;
//! - `AGENTPAD_MODEL_CASES=<n>`: number of cases (default 600 in debug, 6000 in release);
//! - `AGENTPAD_MODEL_BASE=<n>`: first seed (default 0x5EED_0000); cases use base, base+1, …
//! - `AGENTPAD_MODEL_MAX_OPS=<n>`: longest op sequence (default 40; a case's ops depend on it, so
//!   replay a seed with the same value).
//!
//! Long run: `AGENTPAD_MODEL_CASES=20000 AGENTPAD_MODEL_MAX_OPS=100 cargo test --release --test
//! call_sequence_model`. Coverage counters (statuses, tiers, commit failures, rebases) are
//! printed with `-- --nocapture`.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{self, AssertUnwindSafe};

use agentpad::response::PendingChangeView;
use agentpad::{
    CallContext, MemoryStorage, PersistRequest, PersistResult, Response, Status, Step, Storage, StorageError, Stored, WorkflowState,
};
use common::{cuts_a_word, utf16_to_byte, Host};
use serde_json::{json, Value};

/// A law: on failure the step returns its message (the runner adds the seed and the step).
macro_rules! law {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err(format!($($arg)+));
        }
    };
}

// ---- deterministic generator ------------------------------------------------------------------

#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

const PATHS: [&str; 3] = ["a.md", "b.md", "c.md"];

const LINES: &[&str] = &[
    "timeout: 30",
    "  timeout: 30",
    "\tretry = 'yes'",
    "name = \"agent\"",
    "a - b - c",
    "key  value",
    "中文 配置 = 1",
    "emoji 😀 end",
    "",
    "    return x;",
    "}",
    "fn main() {",
    "  let s = \"it's\";",
    "// note – dash",
    "x’y said “hi”",
    "end",
    "timeout: 30 # again",
];

const NEW_TEXTS: &[&str] = &["timeout: 60", "", "x", "two\nlines", "中", "😀!", "  indented", "end", "a - b"];

fn gen_doc(rng: &mut Rng) -> String {
    let n = 2 + rng.below(9) as usize;
    let mut lines: Vec<&str> = (0..n).map(|_| *rng.pick(LINES)).collect();
    if rng.below(3) == 0 {
        lines.push("");
    }
    lines.join("\n")
}

#[derive(Clone, Copy, Debug)]
enum Perturb {
    TrailingWs,
    Indent,
    Dedent,
    Unicode,
    WiderRuns,
}

#[derive(Clone, Debug)]
enum Op {
    /// memo_replace with a needle cut from the draft (a char range, or whole lines), or the last
    /// listed needle again (`relist`).
    /// `match_id`: pick a candidate directly (a fresh query with several matches).
    Exact {
        doc: u64,
        a: u64,
        b: u64,
        lines: bool,
        relist: bool,
        new: u64,
        show_all: bool,
        match_id: Option<u64>,
        then_choose: Option<(u64, u64)>,
    },
    /// memo_replace with whole lines of the draft, perturbed, optionally with copied gutters;
    /// `new_text` is a unique marker.
    /// `fragment`: the needle starts and ends inside lines (`cols` picks where).
    Fuzzy {
        doc: u64,
        line: u64,
        count: u64,
        perturb: Perturb,
        gutter: bool,
        final_break: bool,
        fragment: Option<(u64, u64)>,
        then_choose: Option<(u64, u64)>,
    },
    /// memo_replace_selection: a live candidate, a letter out of range, a stale one, or a number.
    Choose {
        kind: u64,
        pick: u64,
    },
    Append {
        doc: u64,
        text: u64,
    },
    /// memo_commit; `fail`: which write of the commit fails (modulo the documents written + 1;
    /// the last value means none); `restore_fail`: which compensating write fails.
    Commit {
        fail: Option<u64>,
        restore_fail: Option<u64>,
    },
    Revert,
    Discard,
    /// Another program writes the document.
    External {
        doc: u64,
        kind: u64,
        at: u64,
    },
    Refresh {
        doc: u64,
    },
    Rebase {
        doc: u64,
    },
    /// memo_persist_as: save a draft under a new path (the recovery after a failed save).
    PersistAs {
        doc: u64,
    },
    /// A call that must be refused.
    Bad {
        kind: u64,
    },
    /// A call that changes nothing: read, preview, diff.
    Look {
        doc: u64,
        kind: u64,
    },
}

fn gen_op(rng: &mut Rng) -> Op {
    let w = rng.below(100);
    let doc = rng.below(3);
    match w {
        0..=21 => Op::Exact {
            doc,
            a: rng.next(),
            b: rng.below(12),
            lines: rng.below(2) == 0,
            relist: rng.below(4) == 0,
            new: rng.next(),
            show_all: rng.below(3) == 0,
            match_id: (rng.below(4) == 0).then(|| rng.next()),
            then_choose: (rng.below(2) == 0).then(|| (rng.below(8), rng.next())),
        },
        22..=39 => Op::Fuzzy {
            doc,
            line: rng.next(),
            count: 1 + rng.below(3),
            perturb: *rng.pick(&[Perturb::TrailingWs, Perturb::Indent, Perturb::Dedent, Perturb::Unicode, Perturb::WiderRuns]),
            gutter: rng.below(4) == 0,
            final_break: rng.below(4) == 0,
            fragment: (rng.below(3) == 0).then(|| (rng.next(), rng.next())),
            then_choose: (rng.below(2) == 0).then(|| (rng.below(8), rng.next())),
        },
        40..=49 => Op::Choose { kind: rng.below(8), pick: rng.next() },
        50..=57 => Op::Append { doc, text: rng.next() },
        58..=69 => Op::Commit { fail: (rng.below(2) == 0).then(|| rng.below(3)), restore_fail: (rng.below(3) == 0).then(|| rng.below(2)) },
        70..=72 => Op::Revert,
        73..=75 => Op::Discard,
        76..=85 => Op::External { doc, kind: rng.below(4), at: rng.next() },
        86..=88 => Op::Refresh { doc },
        89..=91 => Op::Rebase { doc },
        92..=93 => Op::Bad { kind: rng.below(7) },
        94..=95 => Op::PersistAs { doc },
        _ => Op::Look { doc, kind: rng.below(4) },
    }
}

struct Case {
    docs: Vec<String>,
    /// Per document, how storage holds it: CRLF line endings, a leading BOM.
    styles: Vec<Style>,
    ops: Vec<Op>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Style {
    crlf: bool,
    bom: bool,
}

/// The text as storage holds it (docs/architecture.md#text-and-positions: line endings and BOM are remembered and
/// restored on persist; the workspace works on LF text).
fn raw(style: Style, lf: &str) -> String {
    let body = if style.crlf { lf.replace('\n', "\r\n") } else { lf.to_string() };
    if style.bom {
        format!("\u{FEFF}{body}")
    } else {
        body
    }
}

fn gen_case(seed: u64) -> Case {
    let mut rng = Rng(seed);
    let ndocs = 2 + rng.below(2) as usize;
    let docs = (0..ndocs).map(|_| gen_doc(&mut rng)).collect();
    let styles = (0..ndocs).map(|_| Style { crlf: rng.below(3) == 0, bom: rng.below(4) == 0 }).collect();
    let max_ops = env_u64("AGENTPAD_MODEL_MAX_OPS").unwrap_or(40).max(6);
    let nops = 5 + rng.below(max_ops - 4) as usize;
    let ops = (0..nops).map(|_| gen_op(&mut rng)).collect();
    Case { docs, styles, ops }
}

// ---- coverage counters (printed at the end, so a run shows what it exercised) ---------------

thread_local! {
    static STATS: std::cell::RefCell<BTreeMap<String, usize>> = const { std::cell::RefCell::new(BTreeMap::new()) };
}

fn stat(name: impl Into<String>) {
    STATS.with(|s| *s.borrow_mut().entry(name.into()).or_default() += 1);
}

// ---- text helpers -------------------------------------------------------------------------------

fn char_to_byte(s: &str, c: usize) -> usize {
    s.char_indices().nth(c).map_or(s.len(), |(b, _)| b)
}

/// Byte offsets of the non-overlapping occurrences, left to right (the engine's rule).
fn occurrences(hay: &str, needle: &str) -> Vec<usize> {
    hay.match_indices(needle).map(|(i, _)| i).collect()
}

fn fold(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2035}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{2036}' => "\"",
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{2043}' => "-",
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => " ",
        '\u{200B}' | '\u{2060}' | '\u{FEFF}' => "",
        '\u{2026}' => "...",
        _ => return None,
    })
}

/// A text's lines under a tier's normalisation (docs/architecture.md#matching, cumulative tiers), written
/// independently of `src/matching/normalize.rs`.
fn normalized(text: &str, tier: &str) -> Vec<String> {
    let rank = match tier {
        "trailing_whitespace" => 1,
        "indentation" => 2,
        "unicode" => 3,
        "whitespace" => 4,
        _ => 0,
    };
    text.split('\n')
        .map(|line| {
            let mut s: String =
                if rank >= 3 { line.chars().map(|c| fold(c).map_or(c.to_string(), str::to_string)).collect() } else { line.to_string() };
            if rank >= 1 {
                s = s.trim_end().to_string();
            }
            if rank >= 2 {
                s = s.trim_start().to_string();
            }
            if rank >= 4 {
                let mut out = String::new();
                for c in s.chars() {
                    if c.is_whitespace() {
                        if !out.ends_with(' ') {
                            out.push(' ');
                        }
                    } else {
                        out.push(c);
                    }
                }
                s = out;
            }
            s
        })
        .collect()
}

/// Whether `region` (ending at byte `end` of `draft`) normalises to the needle's lines; a needle
/// ending in a line break also matches at the very end of a draft without one (docs/architecture.md#matching: a
/// final break is trailing whitespace too).
fn region_matches(draft: &str, start: usize, end: usize, needle: &str, quality: &str) -> bool {
    let tier = tier_of(quality);
    let got = normalized(&draft[start..end], tier);
    let mut want = normalized(needle, tier);
    if got == want {
        return true;
    }
    if end == draft.len() && tier != "exact" && needle.ends_with('\n') {
        want.pop();
        return got == want;
    }
    false
}

const TIERS: [&str; 4] = ["trailing_whitespace", "indentation", "unicode", "whitespace"];

/// An independent line-window matcher for one tier (`fuzzy.rs` header): a needle of
/// k lines matches lines i..i+k when, normalised, its first line is a suffix of line i, its
/// middle lines equal, its last line a prefix of line i+k-1; one line: a substring. Returns the
/// start line of each match (a line once per occurrence for one-line needles).
fn windows(draft: &str, needle: &str, tier: &str) -> Vec<usize> {
    let mut doc = normalized(draft, tier);
    let want = normalized(needle, tier);
    // A needle ending in a line break (its raw last line empty, not merely blank) also matches
    // at the end of a draft without a final break: `fuzzy::find`'s `open_end`.
    if needle.ends_with('\n') && !draft.is_empty() && !draft.ends_with('\n') {
        doc.push(String::new());
    }
    let k = want.len();
    let mut out = Vec::new();
    if k == 1 {
        if want[0].is_empty() {
            return out;
        }
        for (i, l) in doc.iter().enumerate() {
            out.extend(l.match_indices(want[0].as_str()).map(|_| i));
        }
        return out;
    }
    if k > doc.len() {
        return out;
    }
    for i in 0..=doc.len() - k {
        let ok = doc[i].ends_with(want[0].as_str())
            && (1..k - 1).all(|j| doc[i + j] == want[j])
            && doc[i + k - 1].starts_with(want[k - 1].as_str());
        if ok {
            out.push(i);
        }
    }
    out
}

/// The tiers' laws for a fuzzy outcome at `quality` with `total` matches: no lower tier finds
/// anything, this tier finds something, and when its windows cannot overlap, as many as the
/// engine reported (so a single fuzzy match is never a guess among several).
fn tier_laws(draft: &str, needle: &str, quality: &str, total: usize) -> Result<(), String> {
    let tier = tier_of(quality);
    let Some(rank) = TIERS.iter().position(|t| *t == tier) else { return Ok(()) };
    for lower in &TIERS[..rank] {
        let w = windows(draft, needle, lower);
        law!(w.is_empty(), "matched at {quality} but the lower tier {lower} already matches lines {w:?} of {draft:?} for {needle:?}");
    }
    let w = windows(draft, needle, tier);
    law!(!w.is_empty(), "matched at {quality} but the model finds no window for {needle:?} in {draft:?}");
    let k = needle.split('\n').count();
    let disjoint = k == 1 || w.windows(2).all(|p| p[1] >= p[0] + k);
    if disjoint {
        law!(
            w.len().min(26) == total.min(26),
            "{quality}: the model finds {} matches (lines {w:?}) of {needle:?} in {draft:?}, the engine {total}",
            w.len()
        );
    }
    Ok(())
}

/// The tier of a `match_quality` (`gutter+unicode` → `unicode`, `gutter` → exact).
fn tier_of(quality: &str) -> &str {
    quality.strip_prefix("gutter+").unwrap_or(if quality == "gutter" { "exact" } else { quality })
}

/// The regions of `old` (byte ranges) that a replacement holding `marker` (plus indentation the
/// engine may add in front of it) can have replaced to give `new`.
fn edited_regions(old: &str, new: &str, marker: &str) -> Vec<(usize, usize)> {
    let Some(m) = new.find(marker) else { return Vec::new() };
    let suffix = &new[m + marker.len()..];
    if !old.ends_with(suffix) {
        return Vec::new();
    }
    let p0 = &new[..m];
    let mut out = Vec::new();
    let mut cut = p0.len();
    loop {
        let p = &p0[..cut];
        if old.starts_with(p) && p.len() + suffix.len() <= old.len() {
            out.push((p.len(), old.len() - suffix.len()));
        }
        match p.chars().last() {
            Some(c @ (' ' | '\t')) => cut -= c.len_utf8(),
            _ => break,
        }
    }
    out
}

/// `base` with `changes` (UTF-16 positions into `base`) applied; Err when a change's old text is
/// not there.
fn apply_changes(base: &str, changes: &[&PendingChangeView]) -> Result<String, String> {
    let mut cs: Vec<&&PendingChangeView> = changes.iter().collect();
    cs.sort_by_key(|c| std::cmp::Reverse(c.position));
    let mut out = base.to_string();
    for c in cs {
        let s = utf16_to_byte(base, c.position);
        let e = s + c.old_text.len();
        if base.get(s..e) != Some(c.old_text.as_str()) {
            return Err(format!(
                "change {} says old text {:?} at {} but the base holds {:?}",
                c.change_id,
                c.old_text,
                c.position,
                base.get(s..e.min(base.len()))
            ));
        }
        out.replace_range(s..e, &c.new_text);
    }
    Ok(out)
}

fn perturb_lines(needle: &str, p: Perturb) -> String {
    needle
        .split('\n')
        .map(|l| match p {
            Perturb::TrailingWs => format!("{l} \t"),
            Perturb::Indent => {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("  {l}")
                }
            }
            Perturb::Dedent => l.trim_start().to_string(),
            Perturb::Unicode => l.replace('\'', "\u{2019}").replace('"', "\u{201C}").replace('-', "\u{2013}").replacen(' ', "\u{A0}", 1),
            Perturb::WiderRuns => {
                let lead = l.len() - l.trim_start().len();
                format!("{}{}", &l[..lead], l[lead..].replace(' ', "  "))
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

// ---- the model --------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
struct DocM {
    style: Style,
    /// Storage's text, LF (storage holds `raw(style, stored)`).
    stored: String,
    committed: String,
    draft: String,
}

#[derive(Clone, Debug)]
struct SelM {
    path: String,
    /// The needle the listing was for (the selection's query).
    needle: String,
    new_text: String,
    awaiting: bool,
    fuzzy: bool,
    /// Shown candidates: (letter, draft byte range, stale).
    shown: Vec<(String, usize, usize, bool)>,
    /// How many candidates the selection holds, when all were shown.
    len: Option<usize>,
}

#[derive(Clone, Debug)]
struct Model {
    docs: BTreeMap<String, DocM>,
    conflicts: BTreeSet<String>,
    failures: BTreeSet<String>,
    unreported: bool,
    sel: Option<SelM>,
    /// The pending changes as the last response reported them.
    pending: Vec<PendingChangeView>,
    marker: u32,
}

impl Model {
    fn state(&self) -> WorkflowState {
        if !self.conflicts.is_empty() || !self.failures.is_empty() {
            WorkflowState::OutOfSync
        } else if self.sel.as_ref().is_some_and(|s| s.awaiting) {
            WorkflowState::SelectionPending
        } else if !self.pending.is_empty() {
            WorkflowState::PersistPending
        } else {
            WorkflowState::Idle
        }
    }
    fn has_pending(&self, path: &str) -> bool {
        self.pending.iter().any(|c| c.path == path)
    }
    /// `path`'s committed text becomes storage's. Its line-ending style is detected from that
    /// text again: a text without any line break is LF (`LineEnding::detect`).
    fn take_storage(&mut self, path: &str) {
        let dm = self.docs.get_mut(path).unwrap();
        dm.committed = dm.stored.clone();
        if !dm.stored.contains('\n') {
            dm.style.crlf = false;
        }
    }

    /// After an edit was staged in `path`: when it left nothing pending there (it restored the
    /// committed text), a failed save of `path` has nothing left to retry.
    fn staged(&mut self, path: &str) {
        if !self.has_pending(path) {
            self.failures.remove(path);
        }
    }

    fn drop_sel_on(&mut self, path: &str) {
        if self.sel.as_ref().is_some_and(|s| s.path == path) {
            self.sel = None;
        }
    }
}

fn key(c: &PendingChangeView) -> (String, String, usize, String, String) {
    (c.change_id.clone(), c.path.clone(), c.position, c.old_text.clone(), c.new_text.clone())
}

// ---- the host driver --------------------------------------------------------------------------

/// Which write attempts fail: index in the commit's writes, index in the compensating writes.
#[derive(Default, Clone, Copy)]
struct FailPlan {
    commit: Option<usize>,
    restore: Option<usize>,
}

struct Driven {
    r: Response,
    /// The paths of each persist step's requests, in order, with their texts.
    steps: Vec<Vec<(String, String)>>,
    /// Writes that failed for a reason the plan did not ask for.
    unplanned_failures: Vec<String>,
}

/// The model's storage: the host's `MemoryStorage`, with each persist step's writes recorded and
/// the plan's failures injected (by index in the commit's writes, then in the compensating ones).
struct Planned<'a> {
    storage: &'a mut MemoryStorage,
    plan: FailPlan,
    steps: Vec<Vec<(String, String)>>,
    unplanned_failures: Vec<String>,
}

impl Storage for Planned<'_> {
    fn load(&mut self, path: &str) -> Result<Option<Stored>, StorageError> {
        self.storage.load(path)
    }

    fn save(&mut self, request: PersistRequest) -> Result<String, StorageError> {
        self.storage.save(request)
    }

    fn persist(&mut self, requests: Vec<PersistRequest>) -> Vec<PersistResult> {
        let fail_at = if self.steps.is_empty() { self.plan.commit } else { self.plan.restore };
        self.steps.push(requests.iter().map(|r| (r.path.clone(), r.text.clone())).collect());
        let mut results = Vec::new();
        for (i, req) in requests.into_iter().enumerate() {
            if fail_at == Some(i) {
                results.push(PersistResult::Failed { path: req.path, error: "disk full".into() });
                break;
            }
            let path = req.path.clone();
            match self.storage.save(req) {
                Ok(version) => results.push(PersistResult::Saved { path, version }),
                Err(e) => {
                    self.unplanned_failures.push(e.to_string());
                    results.push(PersistResult::Failed { path, error: e.to_string() });
                    break;
                }
            }
        }
        results
    }
}

fn drive(h: &mut Host, step: Step, plan: FailPlan) -> Result<Driven, String> {
    let mut storage = Planned { storage: &mut h.storage, plan, steps: Vec::new(), unplanned_failures: Vec::new() };
    let r = h.ws.drive(step, &mut storage);
    if let Err(v) = agentpad::validate::validate(&r.markdown) {
        return Err(format!("the response breaks the Markdown contract: {v:?}\n{}", r.markdown));
    }
    Ok(Driven { r, steps: storage.steps, unplanned_failures: storage.unplanned_failures })
}

fn call(h: &mut Host, name: &str, args: Value, plan: FailPlan) -> Result<Driven, String> {
    let step = h.ws.call(name, &args, &CallContext::default());
    drive(h, step, plan)
}

// ---- one case ---------------------------------------------------------------------------------

const REFUSED: [Status; 5] = [Status::NoOp, Status::InvalidArguments, Status::Blocked, Status::StaleReference, Status::ExternalConflict];

struct Snapshot {
    drafts: Vec<String>,
    texts: Vec<String>,
    stored: Vec<String>,
    state: WorkflowState,
    pending: Vec<(String, String, usize, String, String)>,
}

fn snapshot(h: &Host, m: &Model) -> Snapshot {
    let paths: Vec<String> = m.docs.keys().cloned().collect();
    Snapshot {
        drafts: paths.iter().map(|p| h.ws.draft(Some(p)).unwrap_or_default()).collect(),
        texts: paths.iter().map(|p| h.ws.text(Some(p)).unwrap_or_default()).collect(),
        stored: paths.iter().map(|p| h.files[p].0.clone()).collect(),
        state: h.ws.state(),
        pending: m.pending.iter().map(key).collect(),
    }
}

/// A refused response changed nothing.
fn unchanged(before: &Snapshot, h: &Host, m: &Model, r: &Response) -> Result<(), String> {
    let after = snapshot(h, m);
    law!(after.drafts == before.drafts, "refused call ({:?}) changed a draft: {:?} → {:?}", r.status, before.drafts, after.drafts);
    law!(after.texts == before.texts, "refused call ({:?}) changed a committed text", r.status);
    law!(after.stored == before.stored, "refused call ({:?}) changed storage", r.status);
    law!(after.state == before.state, "refused call ({:?}) changed the state {:?} → {:?}", r.status, before.state, after.state);
    let now: Vec<_> = r.pending_changes.iter().map(key).collect();
    law!(now == before.pending, "refused call ({:?}) changed the pending changes: {:?} → {:?}", r.status, before.pending, now);
    Ok(())
}

fn trace_on() -> bool {
    std::env::var("AGENTPAD_MODEL_TRACE").is_ok()
}

fn run_case(case: &Case) -> Result<(), String> {
    let raws: Vec<String> = case.docs.iter().zip(&case.styles).map(|(d, s)| raw(*s, d)).collect();
    let files: Vec<(&str, &str)> = raws.iter().enumerate().map(|(i, d)| (PATHS[i], d.as_str())).collect();
    let mut h = Host::new(&files);
    let mut m = Model {
        docs: case
            .docs
            .iter()
            .zip(&case.styles)
            .enumerate()
            .map(|(i, (t, s))| (PATHS[i].to_string(), DocM { style: *s, stored: t.clone(), committed: t.clone(), draft: t.clone() }))
            .collect(),
        conflicts: BTreeSet::new(),
        failures: BTreeSet::new(),
        unreported: false,
        sel: None,
        pending: Vec::new(),
        marker: 0,
    };
    for (i, op) in case.ops.iter().enumerate() {
        if trace_on() {
            eprintln!(
                "step {i}: {op:?}  (state {:?}, model failures {:?}, conflicts {:?}, pending {:?})",
                h.ws.state(),
                m.failures,
                m.conflicts,
                m.pending.iter().map(|c| (&c.change_id, &c.path)).collect::<Vec<_>>()
            );
        }
        step(&mut h, &mut m, op).map_err(|e| format!("step {i} {op:?}: {e}"))?;
        check_laws(&h, &m).map_err(|e| format!("after step {i} {op:?}: {e}"))?;
        if let Op::Exact { then_choose: Some((kind, pick)), .. } | Op::Fuzzy { then_choose: Some((kind, pick)), .. } = op {
            if m.sel.as_ref().is_some_and(|s| s.awaiting) {
                let choose = Op::Choose { kind: *kind, pick: *pick };
                step(&mut h, &mut m, &choose).map_err(|e| format!("step {i} {op:?}, then {choose:?}: {e}"))?;
                check_laws(&h, &m).map_err(|e| format!("after step {i} {op:?}, then {choose:?}: {e}"))?;
            }
        }
    }
    Ok(())
}

fn check_laws(h: &Host, m: &Model) -> Result<(), String> {
    for (p, d) in &m.docs {
        let draft = h.ws.draft(Some(p)).map_err(|e| e.to_string())?;
        law!(draft == d.draft, "draft of {p}: workspace {draft:?}, model {:?}", d.draft);
        let text = h.ws.text(Some(p)).map_err(|e| e.to_string())?;
        law!(text == d.committed, "committed text of {p}: workspace {text:?}, model {:?}", d.committed);
        law!(h.files[p].0 == raw(d.style, &d.stored), "storage of {p}: holds {:?}, model {:?}", h.files[p].0, raw(d.style, &d.stored));
        let mine: Vec<&PendingChangeView> = m.pending.iter().filter(|c| &c.path == p).collect();
        let applied = apply_changes(&d.committed, &mine)?;
        law!(applied == d.draft, "{p}: committed + reported pending changes = {applied:?}, but the draft is {:?}", d.draft);
    }
    law!(
        h.ws.state() == m.state(),
        "state: workspace {:?}, model {:?} (conflicts {:?}, failures {:?}, sel {:?})",
        h.ws.state(),
        m.state(),
        m.conflicts,
        m.failures,
        m.sel.as_ref().map(|s| s.awaiting)
    );
    if h.ws.state() == WorkflowState::Idle {
        for (p, d) in &m.docs {
            law!(d.draft == d.committed, "Idle but {p} has a draft that is not the committed text");
        }
    }
    Ok(())
}

/// One of the open documents (the recovered ones too).
fn path_of(doc: u64, m: &Model) -> String {
    let paths: Vec<&String> = m.docs.keys().collect();
    paths[(doc % paths.len() as u64) as usize].clone()
}

/// After every call: the response's state is the workspace's, never `Exception`; take the
/// reported pending changes.
fn observe(h: &Host, m: &mut Model, r: &Response) -> Result<(), String> {
    stat(format!("status {:?}", r.status));
    law!(r.status != Status::Exception, "Exception: {}", r.markdown);
    law!(r.workflow_state == h.ws.state(), "the response says {:?} but the workspace is {:?}", r.workflow_state, h.ws.state());
    m.pending = r.pending_changes.clone();
    if r.status == Status::ExternalConflict {
        m.unreported = false;
    }
    Ok(())
}

fn step(h: &mut Host, m: &mut Model, op: &Op) -> Result<(), String> {
    let before = snapshot(h, m);
    let state = m.state();
    // The first editing call after an unreported external change is answered with
    // `ExternalConflict` and not run.
    let unrep = m.unreported && !m.conflicts.is_empty();
    match op {
        Op::Exact { doc, a, b, lines, relist, new, show_all, match_id, .. } => {
            let path = path_of(*doc, m);
            let (path, needle) = match (&m.sel, relist) {
                (Some(s), true) if !s.fuzzy => (s.path.clone(), s.needle.clone()),
                _ => {
                    let draft = &m.docs[&path].draft;
                    let chars = draft.chars().count();
                    if chars == 0 {
                        return Ok(());
                    }
                    let needle = if *lines {
                        let ls: Vec<&str> = draft.split('\n').collect();
                        let start = (*a % ls.len() as u64) as usize;
                        let end = (start + 1 + (*b as usize % 2)).min(ls.len());
                        ls[start..end].join("\n")
                    } else {
                        let s = (*a % chars as u64) as usize;
                        let e = (s + 1 + *b as usize).min(chars);
                        draft[char_to_byte(draft, s)..char_to_byte(draft, e)].to_string()
                    };
                    (path, needle)
                }
            };
            if needle.is_empty() || occurrences(&m.docs[&path].draft, &needle).is_empty() {
                return Ok(());
            }
            let new_text = NEW_TEXTS[(*new % NEW_TEXTS.len() as u64) as usize].to_string();
            let occ = occurrences(&m.docs[&path].draft, &needle);
            let fresh = !m.sel.as_ref().is_some_and(|s| s.path == path && s.needle == needle && !s.fuzzy);
            if let (Some(k), true, true) = (match_id, fresh, occ.len() > 1) {
                let idx = (*k % (occ.len().min(26) as u64 + 1)) as usize;
                let letter = ((b'A' + idx as u8) as char).to_string();
                let d = call(
                    h,
                    "memo_replace",
                    json!({"path": path, "old_text": needle, "new_text": new_text, "match_id": letter}),
                    FailPlan::default(),
                )?;
                let r = d.r;
                observe(h, m, &r)?;
                if conflict_first(unrep, &r)? {
                    return unchanged(&before, h, m, &r);
                }
                if r.status == Status::StaleReference && r.summary.contains("is no longer open") {
                    // A letter for a search listed before, whose listing an edit, commit or revert
                    // ended: never a position in today's matches; they are listed anew, A first
                    // (docs/workflow.md#visible-tools).
                    stat("match_id of an ended listing");
                    let draft = m.docs[&path].draft.clone();
                    let shown: Vec<(String, usize, usize, bool)> = r
                        .candidates
                        .iter()
                        .map(|c| (c.id.clone(), utf16_to_byte(&draft, c.context_start), utf16_to_byte(&draft, c.context_end), c.stale))
                        .collect();
                    law!(
                        shown
                            .iter()
                            .enumerate()
                            .all(|(i, c)| c.0 == ((b'A' + i as u8) as char).to_string() && draft.get(c.1..c.2) == Some(needle.as_str())),
                        "the new listing: {}",
                        r.markdown
                    );
                    let len = (r.candidates.len() < 5).then_some(r.candidates.len());
                    m.sel = Some(SelM { path: path.clone(), needle, new_text, awaiting: true, fuzzy: false, shown, len });
                    return Ok(());
                }
                if idx >= occ.len().min(26) {
                    stat("match_id out of range");
                    law!(r.status == Status::InvalidArguments, "match_id {letter} of {} matches gave {:?}", occ.len(), r.status);
                    return unchanged(&before, h, m, &r);
                }
                if new_text == needle {
                    law!(r.status == Status::NoOp, "match_id onto the same text gave {:?}", r.status);
                } else if !(r.status == Status::Blocked && r.summary.contains("(A–Z)")) {
                    stat("match_id pick");
                    law!(r.status == Status::Success, "match_id {letter} gave {:?}: {}", r.status, r.markdown);
                    let dm = m.docs.get_mut(&path).unwrap();
                    dm.draft.replace_range(occ[idx]..occ[idx] + needle.len(), &new_text);
                    m.staged(&path);
                } else {
                    return unchanged(&before, h, m, &r);
                }
                // A direct pick without a listing makes this search the selection (not awaiting).
                m.sel = Some(SelM { path: path.clone(), needle, new_text, awaiting: false, fuzzy: false, shown: Vec::new(), len: None });
                return Ok(());
            }
            let d = call(
                h,
                "memo_replace",
                json!({"path": path, "old_text": needle, "new_text": new_text, "show_all_matches": show_all}),
                FailPlan::default(),
            )?;
            exact_outcome(h, m, &before, state, unrep, &path, &needle, &new_text, *show_all, d.r)?;
        }
        Op::Fuzzy { doc, line, count, perturb, gutter, final_break, fragment, .. } => {
            let path = path_of(*doc, m);
            let draft = m.docs[&path].draft.clone();
            let ls: Vec<&str> = draft.split('\n').collect();
            let start = (*line % ls.len() as u64) as usize;
            let end = (start + *count as usize).min(ls.len());
            let mut plain = ls[start..end].join("\n");
            if let Some((a, b)) = fragment {
                // Cut inside the first and the last line.
                let first = ls[start].chars().count() as u64;
                let last = ls[end - 1].chars().count() as u64;
                let total = plain.chars().count();
                let from = (*a % (first + 1)) as usize;
                let cut = (*b % (last + 1)) as usize;
                let to = total - last as usize + cut;
                if from >= to {
                    return Ok(());
                }
                plain = plain[char_to_byte(&plain, from)..char_to_byte(&plain, to)].to_string();
            } else if *final_break && end < ls.len() {
                plain.push('\n');
            }
            if !plain.chars().any(|c| !c.is_whitespace()) {
                return Ok(());
            }
            let perturbed = perturb_lines(&plain, *perturb);
            let needle = if *gutter {
                let body: Vec<&str> = perturbed.split('\n').collect();
                let last = body.len() - 1;
                body.iter()
                    .enumerate()
                    .map(|(k, l)| if k == last && l.is_empty() && k > 0 { String::new() } else { format!("{:>4}│ {l}", start + 1 + k) })
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                perturbed.clone()
            };
            m.marker += 1;
            let marker = format!("⟦{}⟧", m.marker);
            if !occurrences(&draft, &needle).is_empty() {
                // The perturbation left it exact somewhere: exact rules apply.
                let d = call(h, "memo_replace", json!({"path": path, "old_text": needle, "new_text": marker}), FailPlan::default())?;
                return exact_outcome(h, m, &before, state, unrep, &path, &needle, &marker, false, d.r);
            }
            let d = call(
                h,
                "memo_replace",
                json!({"path": path, "old_text": needle, "new_text": marker, "show_all_matches": true}),
                FailPlan::default(),
            )?;
            let r = d.r;
            observe(h, m, &r)?;
            if conflict_first(unrep, &r)? {
                return unchanged(&before, h, m, &r);
            }
            let q = r.match_quality.clone().unwrap_or_default();
            stat(format!("fuzzy {:?} {q}", r.status));
            match r.status {
                Status::Success => {
                    law!(q != "exact" && !q.is_empty(), "a fuzzy needle {needle:?} was staged with match_quality {q:?}");
                    law!(r.warned && r.summary.starts_with("[Warning]"), "a fuzzy match was applied silently: {}", r.summary);
                    tier_laws(&draft, &perturbed, &q, 1)?;
                    let new_draft = h.ws.draft(Some(&path)).map_err(|e| e.to_string())?;
                    let regions = edited_regions(&draft, &new_draft, &marker);
                    let want = normalized(&perturbed, tier_of(&q));
                    let ok = regions.iter().any(|&(s, e)| region_matches(&draft, s, e, &perturbed, &q));
                    law!(ok, "fuzzy {q}: needle {needle:?} edited regions {:?} of {draft:?} (new draft {new_draft:?}); none normalises to {want:?}", regions.iter().map(|&(s, e)| &draft[s..e]).collect::<Vec<_>>());
                    m.docs.get_mut(&path).unwrap().draft = new_draft;
                    m.drop_sel_on(&path);
                    m.staged(&path);
                }
                Status::MultiMatch => {
                    law!(q != "exact", "fuzzy multi-match reported exact");
                    law!(r.warned, "fuzzy multi-match without [Warning]");
                    tier_laws(&draft, &perturbed, &q, r.metrics.selection_count.unwrap_or(0))?;
                    let want = normalized(&perturbed, tier_of(&q));
                    let mut shown = Vec::new();
                    for c in &r.candidates {
                        let (s, e) = (utf16_to_byte(&draft, c.context_start), utf16_to_byte(&draft, c.context_end));
                        if !c.stale {
                            law!(c.match_quality != "exact", "fuzzy candidate {} says exact", c.id);
                            law!(
                                region_matches(&draft, s, e, &perturbed, &c.match_quality),
                                "fuzzy candidate {} = {:?} does not normalise to {want:?}",
                                c.id,
                                &draft[s..e]
                            );
                        }
                        shown.push((c.id.clone(), s, e, c.stale));
                    }
                    let len = Some(r.candidates.len());
                    m.sel = Some(SelM {
                        path: path.clone(),
                        needle: needle.clone(),
                        new_text: marker,
                        awaiting: true,
                        fuzzy: true,
                        shown,
                        len,
                    });
                }
                Status::Blocked if r.summary.contains("(A–Z)") => return unchanged(&before, h, m, &r),
                Status::NoMatch => {
                    // Only when no tier can match (a fragment cut mid-line may not).
                    for t in TIERS {
                        let w = windows(&draft, &perturbed, t);
                        law!(
                            w.is_empty(),
                            "NoMatch for {needle:?} (from {plain:?}, {perturb:?}) but tier {t} matches lines {w:?} of {draft:?}"
                        );
                    }
                    let after = snapshot(h, m);
                    law!(
                        after.drafts == before.drafts && after.texts == before.texts && after.stored == before.stored,
                        "NoMatch changed a text"
                    );
                    if !r.candidates.is_empty() {
                        // Near misses: a selection, never applied on similarity alone.
                        stat("fuzzy NoMatch with near candidates");
                        let shown = r
                            .candidates
                            .iter()
                            .map(|c| (c.id.clone(), utf16_to_byte(&draft, c.context_start), utf16_to_byte(&draft, c.context_end), c.stale))
                            .collect();
                        m.sel = Some(SelM {
                            path: path.clone(),
                            needle: needle.clone(),
                            new_text: marker,
                            awaiting: true,
                            fuzzy: true,
                            shown,
                            len: Some(r.candidates.len()),
                        });
                    } else {
                        stat("fuzzy NoMatch");
                        law!(after.state == before.state, "NoMatch without candidates changed the state");
                    }
                }
                other => law!(false, "fuzzy needle {needle:?} (from {plain:?}, {perturb:?}) gave {other:?}: {}", r.markdown),
            }
        }
        Op::Choose { kind, pick } => {
            let (id, expect) = match &m.sel {
                Some(s) if state == WorkflowState::SelectionPending && !unrep => {
                    let live: Vec<&(String, usize, usize, bool)> = s.shown.iter().filter(|c| !c.3).collect();
                    let stale: Vec<&(String, usize, usize, bool)> = s.shown.iter().filter(|c| c.3).collect();
                    match kind {
                        k if k % 2 == 0 && !stale.is_empty() => (json!(stale[(*pick % stale.len() as u64) as usize].0), None),
                        0 => (json!("99"), None),
                        1 if s.len.is_some_and(|l| l < 26) => (json!(((b'A' + s.len.unwrap() as u8) as char).to_string()), None),
                        3 if live.iter().any(|c| c.0 == "B") => (json!(2), live.iter().find(|c| c.0 == "B").map(|c| (*c).clone())),
                        _ if !live.is_empty() => {
                            let c = live[(*pick % live.len() as u64) as usize];
                            (json!(c.0), Some(c.clone()))
                        }
                        _ => return Ok(()),
                    }
                }
                _ => (json!("A"), None),
            };
            let sel = m.sel.clone();
            let d = call(h, "memo_replace_selection", json!({"selection_id": id}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if conflict_first(unrep, &r)? {
                return unchanged(&before, h, m, &r);
            }
            match expect {
                Some((letter, _, _, _)) if sel.as_ref().is_some_and(|s| !s.fuzzy && s.new_text == s.needle) => {
                    law!(r.status == Status::NoOp, "choosing {letter} whose text is already the new text gave {:?}", r.status);
                    unchanged(&before, h, m, &r)?;
                }
                Some((letter, s, e, _)) => {
                    let sel = sel.unwrap();
                    law!(r.status == Status::Success, "choosing live candidate {letter} ({id}) gave {:?}: {}", r.status, r.markdown);
                    let draft = m.docs[&sel.path].draft.clone();
                    let new_draft = h.ws.draft(Some(&sel.path)).map_err(|e| e.to_string())?;
                    if sel.fuzzy {
                        law!(
                            !r.match_quality.as_deref().unwrap_or("exact").eq("exact") && r.warned,
                            "a fuzzy candidate was staged silently"
                        );
                        let regions = edited_regions(&draft, &new_draft, &sel.new_text);
                        law!(regions.contains(&(s, e)), "choosing {letter} edited {regions:?}, not the candidate {s}..{e} of {draft:?}");
                    } else {
                        law!(draft[s..e] == sel.needle, "candidate {letter} slices {:?}, not the needle {:?}", &draft[s..e], sel.needle);
                        let mut want = draft.clone();
                        want.replace_range(s..e, &sel.new_text);
                        law!(new_draft == want, "choosing {letter} gave {new_draft:?}, expected {want:?}");
                    }
                    stat(if sel.fuzzy { "choose fuzzy candidate" } else { "choose exact candidate" });
                    m.docs.get_mut(&sel.path).unwrap().draft = new_draft;
                    m.staged(&sel.path);
                    if let Some(s) = &mut m.sel {
                        s.awaiting = false;
                        s.shown.clear();
                        s.len = None;
                    }
                }
                None => {
                    stat(format!("choose refused {:?}", r.status));
                    law!(
                        REFUSED.contains(&r.status),
                        "choosing {id} (out of range, stale, or not SelectionPending) gave {:?}: {}",
                        r.status,
                        r.markdown
                    );
                    unchanged(&before, h, m, &r)?;
                }
            }
        }
        Op::Append { doc, text } => {
            let path = path_of(*doc, m);
            let t = ["\nappended", "x", "\n中😀\n"][(*text % 3) as usize];
            let d = call(h, "memo_append", json!({"path": path, "text": t}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if conflict_first(unrep, &r)? {
                return unchanged(&before, h, m, &r);
            }
            if matches!(state, WorkflowState::Idle | WorkflowState::PersistPending) {
                if r.status == Status::Blocked && r.summary.contains("(A–Z)") {
                    return unchanged(&before, h, m, &r);
                }
                law!(r.status == Status::Success, "append in {state:?} gave {:?}: {}", r.status, r.markdown);
                m.docs.get_mut(&path).unwrap().draft.push_str(t);
                m.drop_sel_on(&path);
                m.staged(&path);
            } else {
                law!(r.status == Status::Blocked, "append in {state:?} gave {:?}", r.status);
                unchanged(&before, h, m, &r)?;
            }
        }
        Op::Commit { fail, restore_fail } => {
            let mut to_write: Vec<String> = m.pending.iter().map(|c| c.path.clone()).collect();
            to_write.sort();
            to_write.dedup();
            let k = to_write.len();
            let plan = FailPlan { commit: fail.map(|f| f as usize), restore: restore_fail.map(|f| f as usize) };
            let writes_before = h.writes.len();
            let d = call(h, "memo_commit", json!({"summary": "model commit"}), plan)?;
            let r = d.r.clone();
            observe(h, m, &r)?;
            law!(d.unplanned_failures.is_empty(), "writes failed on a version check: {:?}", d.unplanned_failures);
            if conflict_first(unrep, &r)? {
                return unchanged(&before, h, m, &r);
            }
            // With candidates open, a commit saves what is pending and drops them
            // (docs/workflow.md#visible-tools); with nothing pending it is blocked there.
            let runs = matches!(state, WorkflowState::Idle | WorkflowState::PersistPending)
                || (state == WorkflowState::OutOfSync && m.conflicts.is_empty())
                || (state == WorkflowState::SelectionPending && k > 0);
            if state == WorkflowState::SelectionPending && k > 0 {
                m.sel = None;
                stat("commit with candidates open");
            }
            if !runs {
                law!(r.status == Status::Blocked, "commit in {state:?} (conflicts {:?}) gave {:?}", m.conflicts, r.status);
                return unchanged(&before, h, m, &r);
            }
            if k == 0 {
                law!(r.status == Status::NoOp, "commit with nothing pending gave {:?}", r.status);
                return unchanged(&before, h, m, &r);
            }
            let expected: Vec<(String, String)> = to_write.iter().map(|p| (p.clone(), raw(m.docs[p].style, &m.docs[p].draft))).collect();
            law!(d.steps.first() == Some(&expected), "commit asked to write {:?}, expected the drafts {:?}", d.steps.first(), expected);
            let fail_at = plan.commit.filter(|&f| f < k);
            let written: Vec<(String, String)> = h.writes[writes_before..].to_vec();
            match fail_at {
                None => {
                    law!(r.status == Status::Success, "commit gave {:?}: {}", r.status, r.markdown);
                    law!(written == expected, "commit wrote {written:?}, expected {expected:?}");
                    stat(format!("commit of {k} documents"));
                    for p in &to_write {
                        let dm = m.docs.get_mut(p).unwrap();
                        dm.committed = dm.draft.clone();
                        dm.stored = dm.draft.clone();
                    }
                    m.failures.clear();
                    m.sel = None;
                }
                Some(f) => {
                    law!(r.status == Status::PersistFailure, "a failing save gave {:?}", r.status);
                    law!(r.workflow_state == WorkflowState::OutOfSync, "a failing save left {:?}", r.workflow_state);
                    // Written before the failure, then restored in order until a restore fails.
                    let restore_fail = plan.restore.filter(|&x| x < f);
                    let restored = restore_fail.unwrap_or(f);
                    let mut want = expected[..f].to_vec();
                    if f > 0 {
                        law!(
                            d.steps.get(1).map(|s| s.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>()) == Some(to_write[..f].to_vec()),
                            "compensating writes asked for {:?}",
                            d.steps.get(1)
                        );
                        want.extend(to_write[..restored].iter().map(|p| (p.clone(), raw(m.docs[p].style, &m.docs[p].committed))));
                    } else {
                        law!(d.steps.len() == 1, "no compensating writes expected when nothing was written");
                    }
                    law!(written == want, "failed commit wrote {written:?}, expected {want:?}");
                    let kept_new = &to_write[restored..f];
                    law!(
                        kept_new.is_empty() != r.summary.contains("committed after all"),
                        "kept_new {kept_new:?} vs summary {}",
                        r.summary
                    );
                    stat(format!("commit failed at write {f} of {k}, {} kept new", kept_new.len()));
                    for p in kept_new {
                        m.failures.remove(p);
                        let dm = m.docs.get_mut(p).unwrap();
                        dm.committed = dm.draft.clone();
                        dm.stored = dm.draft.clone();
                    }
                    for p in &to_write[f..] {
                        m.failures.insert(p.clone());
                    }
                }
            }
        }
        Op::Revert => {
            let d = call(h, "memo_revert", json!({"reason": "model"}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            law!(matches!(r.status, Status::Success | Status::NoOp), "revert gave {:?}", r.status);
            if r.status == Status::NoOp {
                return unchanged(&before, h, m, &r);
            }
            for p in std::mem::take(&mut m.conflicts) {
                m.take_storage(&p);
            }
            for dm in m.docs.values_mut() {
                dm.draft = dm.committed.clone();
            }
            m.failures.clear();
            m.sel = None;
            m.unreported = false;
            law!(r.pending_changes.is_empty(), "pending changes after revert");
        }
        Op::Discard => {
            let d = call(h, "memo_discard", json!({"reason": "model"}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            law!(matches!(r.status, Status::Success | Status::NoOp), "discard gave {:?}", r.status);
            if r.status == Status::NoOp {
                return unchanged(&before, h, m, &r);
            }
            let reload: BTreeSet<String> = m.conflicts.union(&m.failures).cloned().collect();
            for p in reload {
                m.take_storage(&p);
            }
            for dm in m.docs.values_mut() {
                dm.draft = dm.committed.clone();
            }
            m.conflicts.clear();
            m.failures.clear();
            m.sel = None;
            m.unreported = false;
        }
        Op::External { doc, kind, at } => {
            let path = path_of(*doc, m);
            let dm = m.docs[&path].clone();
            let text = match kind {
                0 => {
                    let mut ls: Vec<&str> = dm.stored.split('\n').collect();
                    let i = (*at % (ls.len() as u64 + 1)) as usize;
                    ls.insert(i, "external line");
                    ls.join("\n")
                }
                1 => dm.draft.replacen("timeout", "TIMEOUT", 1),
                2 => dm.stored.clone(),
                _ => format!("rewritten {at}\n"),
            };
            let pending = m.has_pending(&path);
            h.external_write(&path, &raw(dm.style, &text));
            m.docs.get_mut(&path).unwrap().stored = text.clone();
            stat(if pending { "external: conflict" } else { "external: reload" });
            if pending {
                m.conflicts.insert(path.clone());
                m.unreported = true;
            } else {
                m.take_storage(&path);
                m.docs.get_mut(&path).unwrap().draft = text;
                m.conflicts.remove(&path);
                m.failures.remove(&path);
                m.drop_sel_on(&path);
            }
            // The next response says what happened (and a read changes nothing).
            let d = call(h, "memo_read", json!({"path": path}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            law!(r.status == Status::Success, "read after an external write gave {:?}", r.status);
            if pending {
                law!(r.summary.contains("Storage changed under your pending changes"), "a conflict is not said: {}", r.summary);
            } else {
                law!(
                    r.summary.contains("changed in storage") && r.summary.contains("reloaded"),
                    "a silent reload is not mentioned in the next summary: {}",
                    r.summary
                );
            }
        }
        Op::Refresh { doc } => {
            let path = path_of(*doc, m);
            // Nothing to reload (NoOp) exactly when storage is the committed text and nothing of
            // the document is pending.
            let noop = !m.has_pending(&path) && !m.conflicts.contains(&path);
            let d = call(h, "memo_refresh", json!({"path": path}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            law!(
                r.status == if noop { Status::NoOp } else { Status::Success },
                "refresh (expected NoOp: {noop}) gave {:?}: {}",
                r.status,
                r.markdown
            );
            if noop {
                // Nothing to reload: nothing changes (a pending choice on it stays).
                return unchanged(&before, h, m, &r);
            }
            m.take_storage(&path);
            let dm = m.docs.get_mut(&path).unwrap();
            dm.draft = dm.stored.clone();
            m.conflicts.remove(&path);
            m.failures.remove(&path);
            m.drop_sel_on(&path);
            if m.conflicts.is_empty() {
                m.unreported = false;
            }
            law!(!r.pending_changes.iter().any(|c| c.path == path), "pending changes of {path} after refresh");
        }
        Op::Rebase { doc } => {
            let path = path_of(*doc, m);
            let old: Vec<PendingChangeView> = m.pending.clone();
            let d = call(h, "memo_rebase", json!({"path": path}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if !m.conflicts.contains(&path) {
                law!(REFUSED.contains(&r.status), "rebase without a conflict on {path} gave {:?}", r.status);
                return unchanged(&before, h, m, &r);
            }
            law!(r.status == Status::Success, "rebase gave {:?}: {}", r.status, r.markdown);
            stat(format!(
                "rebase kept {} of {}",
                r.pending_changes.iter().filter(|c| c.path == path).count(),
                old.iter().filter(|c| c.path == path).count()
            ));
            m.take_storage(&path);
            m.docs.get_mut(&path).unwrap().draft = h.ws.draft(Some(&path)).map_err(|e| e.to_string())?;
            for c in &r.pending_changes {
                let was = old.iter().find(|o| o.change_id == c.change_id);
                law!(
                    was.is_some_and(|o| o.path == c.path && o.old_text == c.old_text && o.new_text == c.new_text),
                    "rebase produced change {} that was not pending before",
                    c.change_id
                );
                if c.path != path {
                    law!(was.is_some_and(|o| o.position == c.position), "rebase of {path} moved change {} of {}", c.change_id, c.path);
                }
            }
            for o in old.iter().filter(|o| o.path != path) {
                law!(
                    r.pending_changes.iter().any(|c| c.change_id == o.change_id),
                    "rebase of {path} dropped change {} of {}",
                    o.change_id,
                    o.path
                );
            }
            m.conflicts.remove(&path);
            m.failures.remove(&path);
            m.drop_sel_on(&path);
            if m.conflicts.is_empty() {
                m.unreported = false;
            }
        }
        Op::PersistAs { doc } => {
            let path = path_of(*doc, m);
            m.marker += 1;
            let new_path = format!("recovered{}.md", m.marker);
            let d = call(h, "memo_persist_as", json!({"path": path, "new_path": new_path}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if state != WorkflowState::OutOfSync {
                law!(r.status == Status::Blocked, "persist_as in {state:?} gave {:?}", r.status);
                return unchanged(&before, h, m, &r);
            }
            law!(r.status == Status::Success, "persist_as in OutOfSync gave {:?}: {}", r.status, r.markdown);
            stat("persist_as");
            let src = m.docs[&path].clone();
            let expected = vec![(new_path.clone(), raw(src.style, &src.draft))];
            law!(d.steps == vec![expected.clone()], "persist_as wrote {:?}, expected {expected:?}", d.steps);
            // The new document is open with the draft as its committed text; the source keeps
            // its pending changes.
            m.docs.insert(new_path, DocM { style: src.style, stored: src.draft.clone(), committed: src.draft.clone(), draft: src.draft });
        }
        Op::Bad { kind } => {
            let (name, args) = match kind {
                0 => ("memo_replace", json!({"path": "nope.md", "old_text": "a", "new_text": "b"})),
                1 => ("memo_frobnicate", json!({})),
                2 => ("memo_replace", json!({"new_text": "b"})),
                3 => ("memo_replace_selection", json!({"selection_id": "0"})),
                4 => ("memo_persist_as", json!({"new_path": "../escape.md"})),
                5 => ("memo_replace", json!({"path": PATHS[0], "old_text": "no such text ⟦⟧ anywhere", "new_text": "b", "match_id": "Z"})),
                _ => ("memo_append", json!({"path": "nope.md", "text": "x"})),
            };
            let d = call(h, name, args, FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if r.status == Status::NoMatch {
                // A NoMatch may offer near candidates (a selection); no text changes.
                let after = snapshot(h, m);
                law!(
                    after.drafts == before.drafts && after.texts == before.texts && after.stored == before.stored,
                    "NoMatch changed a text"
                );
                if h.ws.state() == WorkflowState::SelectionPending && state != WorkflowState::SelectionPending {
                    m.sel = Some(SelM {
                        path: PATHS[0].into(),
                        needle: String::new(),
                        new_text: "b".into(),
                        awaiting: true,
                        fuzzy: true,
                        shown: Vec::new(),
                        len: None,
                    });
                }
                return Ok(());
            }
            law!(REFUSED.contains(&r.status), "{name} {kind} was not refused: {:?}", r.status);
            unchanged(&before, h, m, &r)?;
        }
        Op::Look { doc, kind } => {
            let path = path_of(*doc, m);
            let (name, args) = match kind {
                0 => ("memo_read", json!({"path": path})),
                1 => ("memo_preview", json!({"path": path, "format": "diff"})),
                2 => ("memo_diff", json!({"path": path, "against": "storage"})),
                _ => ("memo_diff", json!({"path": path})),
            };
            let d = call(h, name, args, FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            let after = snapshot(h, m);
            law!(
                after.drafts == before.drafts
                    && after.texts == before.texts
                    && after.stored == before.stored
                    && after.state == before.state,
                "{name} changed something"
            );
        }
    }
    Ok(())
}

/// Whether an editing call was answered with the conflict report: exactly when an external
/// change under pending changes was not reported yet.
fn conflict_first(unreported: bool, r: &Response) -> Result<bool, String> {
    law!(
        unreported == (r.status == Status::ExternalConflict),
        "unreported conflict: {unreported}, but the editing call gave {:?}: {}",
        r.status,
        r.summary
    );
    Ok(unreported)
}

#[allow(clippy::too_many_arguments)]
fn exact_outcome(
    h: &mut Host,
    m: &mut Model,
    before: &Snapshot,
    state: WorkflowState,
    unreported: bool,
    path: &str,
    needle: &str,
    new_text: &str,
    show_all: bool,
    r: Response,
) -> Result<(), String> {
    observe(h, m, &r)?;
    if conflict_first(unreported, &r)? {
        return unchanged(before, h, m, &r);
    }
    let draft = m.docs[path].draft.clone();
    let occ = occurrences(&draft, needle);
    match occ.len() {
        1 if new_text == needle => {
            law!(r.status == Status::NoOp, "replacing {needle:?} by itself gave {:?}", r.status);
            unchanged(before, h, m, &r)?;
        }
        1 if !cuts_a_word(&draft, occ[0], needle) => {
            if r.status == Status::Blocked && r.summary.contains("(A–Z)") {
                return unchanged(before, h, m, &r);
            }
            law!(r.status == Status::Success, "unique exact needle {needle:?} gave {:?}: {}", r.status, r.markdown);
            law!(r.match_quality.as_deref() == Some("exact"), "exact match reported as {:?}", r.match_quality);
            let mut want = draft.clone();
            want.replace_range(occ[0]..occ[0] + needle.len(), new_text);
            m.docs.get_mut(path).unwrap().draft = want;
            m.drop_sel_on(path);
            m.staged(path);
        }
        count => {
            stat(if m.sel.as_ref().is_some_and(|s| s.path == path && s.needle == needle && !s.fuzzy) {
                "exact multi-match (relisted)"
            } else {
                "exact multi-match (new)"
            });
            // One match that cuts a word of the document is listed to confirm, like several.
            let listed = if count == 1 { Status::StaleReference } else { Status::MultiMatch };
            law!(r.status == listed, "needle {needle:?} occurs {count}× but gave {:?}: {}", r.status, r.markdown);
            law!(r.metrics.selection_count == Some(count), "selection_count {:?}, expected {count}", r.metrics.selection_count);
            let fresh = !m.sel.as_ref().is_some_and(|s| s.path == path && s.needle == needle && !s.fuzzy);
            let mut shown = Vec::new();
            let mut live_starts = Vec::new();
            for (i, c) in r.candidates.iter().enumerate() {
                let (s, e) = (utf16_to_byte(&draft, c.context_start), utf16_to_byte(&draft, c.context_end));
                if fresh {
                    law!(
                        c.id == ((b'A' + i as u8) as char).to_string() && !c.stale,
                        "a new listing's candidate {i} is {} (stale {})",
                        c.id,
                        c.stale
                    );
                }
                if !c.stale {
                    law!(draft.get(s..e) == Some(needle), "candidate {} slices {:?}, not the needle {needle:?}", c.id, draft.get(s..e));
                    law!(occ.contains(&s), "candidate {} at byte {s} is not an occurrence {occ:?}", c.id);
                    live_starts.push(s);
                }
                shown.push((c.id.clone(), s, e, c.stale));
            }
            // Five are shown by default, stale ones (kept letters of a relisting) included.
            let all_shown = show_all || r.candidates.len() < 5 || (count <= 5 && !r.candidates.iter().any(|c| c.stale));
            if all_shown {
                let want: Vec<usize> = occ.iter().take(26).copied().collect();
                law!(live_starts == want, "listed candidates at {live_starts:?}, occurrences at {want:?}");
            }
            law!(
                state == WorkflowState::OutOfSync || h.ws.state() == WorkflowState::SelectionPending,
                "a multi-match left {:?}",
                h.ws.state()
            );
            if r.candidates.iter().any(|c| c.stale) {
                stat("listing with stale candidates");
            }
            let len = (show_all || r.candidates.len() < 5).then_some(r.candidates.len());
            m.sel = Some(SelM {
                path: path.to_string(),
                needle: needle.to_string(),
                new_text: new_text.to_string(),
                awaiting: true,
                fuzzy: false,
                shown,
                len,
            });
        }
    }
    Ok(())
}

// ---- the runner -------------------------------------------------------------------------------

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| {
        let v = v.trim();
        v.strip_prefix("0x").map_or_else(|| v.parse().ok(), |h| u64::from_str_radix(h, 16).ok())
    })
}

fn run_caught(case: &Case) -> Result<(), String> {
    match panic::catch_unwind(AssertUnwindSafe(|| run_case(case))) {
        Ok(r) => r,
        Err(p) => Err(format!(
            "panic: {}",
            p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
        )),
    }
}

/// Drops ops while the case still fails (any failure), to show a small reproduction.
fn shrink(mut case: Case) -> (Case, String) {
    let mut err = run_caught(&case).err().unwrap_or_default();
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let mut i = 0;
    while i < case.ops.len() {
        let mut smaller = Case { docs: case.docs.clone(), styles: case.styles.clone(), ops: case.ops.clone() };
        smaller.ops.remove(i);
        match run_caught(&smaller) {
            Err(e) => {
                case = smaller;
                err = e;
            }
            Ok(()) => i += 1,
        }
    }
    panic::set_hook(hook);
    (case, err)
}

#[test]
fn call_sequences_follow_the_model() {
    let default_cases = if cfg!(debug_assertions) { 600 } else { 6000 };
    let (base, cases) = match env_u64("AGENTPAD_MODEL_SEED") {
        Some(seed) => (seed, 1),
        None => (env_u64("AGENTPAD_MODEL_BASE").unwrap_or(0x5EED_0000), env_u64("AGENTPAD_MODEL_CASES").unwrap_or(default_cases)),
    };
    let mut steps = 0usize;
    for seed in base..base + cases {
        let case = gen_case(seed);
        steps += case.ops.len();
        if let Err(e) = run_caught(&case) {
            let (small, small_err) = shrink(gen_case(seed));
            panic!(
                "seed={seed} (replay: AGENTPAD_MODEL_SEED={seed} cargo test --test engine call_sequence_model:: -- --nocapture)\n{e}\n\nshrunk to {} of {} ops: {small_err}\ndocs: {:?}\nstyles: {:?}\nops: {:#?}",
                small.ops.len(),
                case.ops.len(),
                small.docs,
                small.styles,
                small.ops
            );
        }
    }
    STATS.with(|s| {
        for (k, v) in s.borrow().iter() {
            eprintln!("  {v:>6}  {k}");
        }
    });
    eprintln!("call_sequence_model: {cases} cases, {steps} steps, seeds {base}..{}", base + cases);
}

// ---- regressions found by the model -----------------------------------------------------------

/// A one-line `old_text` that begins like a colon gutter (`60: `) and matches fuzzily as given was
/// read as a gutter first: the engine edited `30 #`, leaving `60: ` behind, where the document
/// holds the needle itself with other trailing whitespace (seed 1124027640, 100 ops).
#[test]
fn a_gutter_like_prefix_is_kept_when_the_needle_matches_fuzzily_as_given() {
    let mut h = Host::new(&[("a.md", "\tretry = 'yes'\n\nttimeout: 60: 30 # again")]);
    let r = h.call("memo_replace", json!({"old_text": "60: 30 #  \t", "new_text": "X"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.match_quality.as_deref(), Some("trailing_whitespace"));
    assert_eq!(h.ws.draft(Some("a.md")).unwrap(), "\tretry = 'yes'\n\nttimeout: X again");
}

/// `memo_refresh` of a document storage still holds unchanged answered NoOp ("nothing to
/// reload") but dropped the document's pending choice: SelectionPending became Idle and the
/// agent's next `memo_replace_selection` was Blocked.
#[test]
fn a_refresh_with_nothing_to_reload_keeps_a_pending_choice() {
    let mut h = Host::new(&[("a.md", "x = 1\nx = 1\n"), ("b.md", "y\n")]);
    let r = h.call("memo_replace", json!({"path": "a.md", "old_text": "x = 1", "new_text": "x = 2"}));
    assert_eq!(r.status, Status::MultiMatch);
    let r = h.call("memo_refresh", json!({"path": "a.md"}));
    assert_eq!(r.status, Status::NoOp, "{}", r.markdown);
    assert_eq!(h.ws.state(), WorkflowState::SelectionPending, "a NoOp refresh must not drop the pending choice");
    let r = h.call("memo_replace_selection", json!({"selection_id": "B"}));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(h.ws.draft(Some("a.md")).unwrap(), "x = 1\nx = 2\n");
}

/// After a failed save, an edit that restores the committed text leaves nothing pending and
/// storage agreeing with the workspace; it used to stay OutOfSync, with `memo_commit` answering
/// NoOp ("no pending changes") and never leaving that state.
#[test]
fn undoing_the_changes_of_a_failed_save_ends_out_of_sync() {
    let mut h = Host::new(&[("a.md", "x = 1\n"), ("b.md", "y\n")]);
    assert_eq!(h.call("memo_replace", json!({"path": "a.md", "old_text": "x = 1", "new_text": "x = 2"})).status, Status::Success);
    assert_eq!(h.call("memo_replace", json!({"path": "b.md", "old_text": "y", "new_text": "z"})).status, Status::Success);
    h.failing_paths.push("a.md".into());
    let r = h.call("memo_commit", json!({"summary": "s"}));
    assert_eq!(r.status, Status::PersistFailure);
    assert_eq!(r.workflow_state, WorkflowState::OutOfSync);
    h.failing_paths.clear();
    let r = h.call("memo_replace", json!({"path": "a.md", "old_text": "x = 2", "new_text": "x = 1"}));
    assert_eq!(r.status, Status::Success);
    assert!(!r.pending_changes.iter().any(|c| c.path == "a.md"));
    // b.md's save failed too (not attempted after a.md), and b.md still has its change.
    assert_eq!(r.workflow_state, WorkflowState::OutOfSync, "b.md's failed save is still pending");
    let r = h.call("memo_replace", json!({"path": "b.md", "old_text": "z", "new_text": "y"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(r.workflow_state, WorkflowState::Idle, "nothing is pending and storage holds the committed texts: {}", r.markdown);
    assert_eq!(h.stored("a.md"), "x = 1\n");
    assert_eq!(h.stored("b.md"), "y\n");
}

/// A document whose save failed in one commit and which a later commit then wrote for good
/// (its compensating write failed, so it is committed after all) kept its old persist failure:
/// the workspace stayed OutOfSync with nothing of it pending, until that document was
/// refreshed, reverted or discarded.
#[test]
fn a_document_committed_after_all_drops_its_earlier_save_failure() {
    let mut h = Host::new(&[("a.md", "a\n"), ("b.md", "b\n"), ("c.md", "c\n")]);
    for p in ["a.md", "b.md", "c.md"] {
        assert_eq!(h.call("memo_append", json!({"path": p, "text": "x"})).status, Status::Success);
    }
    // a.md written, b.md fails (c.md not attempted); a.md's restore fails → a.md committed.
    let step = h.ws.call("memo_commit", &json!({"summary": "s"}), &CallContext::default());
    let d = drive(&mut h, step, FailPlan { commit: Some(1), restore: Some(0) }).unwrap();
    assert_eq!(d.r.status, Status::PersistFailure);
    // b.md written, c.md fails; b.md's restore fails → b.md committed.
    let step = h.ws.call("memo_commit", &json!({"summary": "s"}), &CallContext::default());
    let d = drive(&mut h, step, FailPlan { commit: Some(1), restore: Some(0) }).unwrap();
    assert_eq!(d.r.status, Status::PersistFailure);
    assert!(d.r.summary.contains("committed after all"), "{}", d.r.summary);
    assert_eq!(h.stored("b.md"), "b\nx");
    assert_eq!(h.ws.text(Some("b.md")).unwrap(), "b\nx");
    // Only c.md is still unsaved: dropping its change ends OutOfSync.
    let r = h.call("memo_refresh", json!({"path": "c.md"}));
    assert_eq!(r.status, Status::Success);
    assert_eq!(r.workflow_state, WorkflowState::Idle, "b.md is committed and saved: {}", r.markdown);
}
