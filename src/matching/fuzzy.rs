//! The fuzzy tiers (docs/architecture.md#matching): line-based matching under the normalisations of
//! [`normalize`](super::normalize), tried only when the exact search found nothing.
//!
//! A needle of k lines matches document lines `i..i+k` when, normalised: its first line is a
//! suffix of line `i`, its middle lines equal lines `i+1..i+k-1`, and its last line is a prefix
//! of line `i+k-1` (one line: a substring of line `i`) — so fragments work as they do exactly.
//!
//! Which windows are examined: every match contains the needle's longest *stable* token (chars
//! no tier changes) verbatim, so that token is searched with memmem and only the windows around
//! its hits are normalised. A needle without such a token (or one whose token occurs more than
//! [`MAX_TOKEN_HITS`] times) falls back to examining every line. Either way the rope's own line
//! index is used; the document is never re-split into strings.

use std::ops::Range;

use ropey::Rope;

use super::elide::{Elided, Unmapped};
use super::exact::find_bytes;
use super::normalize::{decomposes, indentation, is_line_space, is_stable, normalize_line, NormLine, Tier};
use super::own_chars::{self, Swap};
use super::stream;
use super::work::Budget;
use super::{Match, MatchQuality};

/// Tokens shorter than this are too common to narrow the search.
const MIN_TOKEN_CHARS: usize = 3;
/// Past this many token hits, scanning every line is as cheap and simpler.
pub const MAX_TOKEN_HITS: usize = 50_000;
/// Tab width assumed when a match does not show one (no nested line to compare).
const DEFAULT_TAB_WIDTH: usize = 4;
/// The indentation [`Reindent::lines`] records for a blank `old_text` line (no real one has it).
const BLANK: &str = "\n";

/// How `new_text` is re-indented for a match found with indentation ignored, so it lands at the
/// document's depth and in its style (tabs stay tabs). Each line of `new_text` takes the shift of
/// the `old_text` line it corresponds to: the line at the same position when its indentation is
/// the same, else the nearest `old_text` line with that indentation, else the nearest by width.
/// So a model that flattened one nested line gets it back at its depth, and lines it inserted
/// follow their siblings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reindent {
    /// Per `old_text` line: its indentation and the columns to add (or remove) to reach the
    /// document line it matched.
    pub lines: Vec<(String, isize)>,
    /// Columns per tab, inferred from nested lines of the match (4 when nothing shows it).
    pub tab_width: usize,
    /// `Some(true)`: the document indents with tabs; `Some(false)`: spaces; `None`: unknown,
    /// keep each line's own style.
    pub doc_tabs: Option<bool>,
    /// The first line of `new_text` continues a line mid-way: leave it as it is.
    pub skip_first_line: bool,
    /// The needle as searched, and where the document writes parts of it otherwise (trailing
    /// whitespace, look-alikes, whitespace runs): the parts `new_text` keeps are written in
    /// the document's characters ([`own_chars`](super::own_chars)).
    pub old_text: String,
    pub swaps: Vec<Swap>,
    /// The match ends the document, which has no final line break, where the needle has one:
    /// a final break of `new_text` is that absent one, not written.
    pub drop_final_break: bool,
    /// An elided match ([`elide`](super::elide)): `new_text`'s marker lines are the lines the
    /// markers of `old_text` stand for there. Nothing else applies then.
    pub elided: Option<Box<Elided>>,
    /// Per needle line: the line and the document's indentation where it matched. A `new_text`
    /// line the change keeps as it is takes that indentation verbatim: only changed lines are
    /// re-indented (a Makefile recipe's `\t      ` continuation stays as it is).
    pub kept_indents: Vec<(String, String)>,
    /// The document writes accents decomposed (NFD) where the needle had them composed: the
    /// replacement is decomposed as well.
    pub decompose: bool,
}

impl Reindent {
    /// The way `new_text` is written at an elided match: its marker lines mapped back to the
    /// lines they stand for there.
    pub fn elided(e: Elided) -> Reindent {
        Reindent {
            lines: Vec::new(),
            tab_width: DEFAULT_TAB_WIDTH,
            doc_tabs: None,
            skip_first_line: false,
            old_text: String::new(),
            swaps: Vec::new(),
            drop_final_break: false,
            elided: Some(Box::new(e)),
            kept_indents: Vec::new(),
            decompose: false,
        }
    }

    /// Whether `new_text` can be written here: `Ok` except at an elided match whose markers it
    /// cannot map ([`Elided::check`]). Cost: O(old_text + new_text + the elided lines) at an
    /// elided match, O(1) elsewhere.
    pub fn check(&self, new_text: &str) -> Result<(), Unmapped> {
        match &self.elided {
            Some(e) => e.check(new_text),
            None => Ok(()),
        }
    }

    /// Per `new_text` line: the document's indentation when the line is a needle line the
    /// change keeps as it is (equal lines of a line diff, read as the needle was searched).
    /// Cost: a line diff of the needle and `new_text`, O((a + b)·D) in lines.
    fn kept_lines(&self, new_text: &str) -> Vec<Option<&str>> {
        let new_lines: Vec<&str> = new_text.split('\n').collect();
        let mut kept = vec![None; new_lines.len()];
        if self.kept_indents.is_empty() {
            return kept;
        }
        // The needle in the document's own characters, as new_text now is.
        let searched: String = self.kept_indents.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>().join("\n");
        let own = if self.swaps.is_empty() { searched } else { own_chars::apply(&self.old_text, &searched, &self.swaps) };
        let old_lines: Vec<&str> = own.split('\n').collect();
        if old_lines.len() != self.kept_indents.len() {
            return kept;
        }
        for op in crate::text_rules::myers_ops(&old_lines, &new_lines) {
            if let similar::DiffOp::Equal { old_index, new_index, len } = op {
                for k in 0..len {
                    if let (Some(slot), Some((_, indent))) = (kept.get_mut(new_index + k), self.kept_indents.get(old_index + k)) {
                        *slot = Some(indent.as_str());
                    }
                }
            }
        }
        kept
    }

    fn width(&self, ws: &str) -> usize {
        ws.chars().map(|c| if c == '\t' { self.tab_width } else { 1 }).sum()
    }

    /// The shift for line `n` of `new_text`, indented with `indent`.
    fn shift_for(&self, n: usize, indent: &str) -> isize {
        if let Some((i, s)) = self.lines.get(n) {
            if i == indent {
                return *s;
            }
        }
        // The nearest old_text line (by position) with this indentation.
        if let Some((_, (_, s))) = self.lines.iter().enumerate().filter(|(_, (i, _))| i == indent).min_by_key(|(j, _)| j.abs_diff(n)) {
            return *s;
        }
        let w = self.width(indent) as isize;
        let own = || self.lines.iter().filter(|(i, _)| i != BLANK);
        if let Some((_, s)) = own().min_by_key(|(i, _)| (self.width(i) as isize - w).abs()) {
            return *s;
        }
        self.lines.first().map_or(0, |(_, s)| *s)
    }

    /// `new_text` in the document's characters where it keeps `old_text`, then re-indented
    /// line by line (never below column 0). Blank lines are kept as they are. Cost: a char diff
    /// of `old_text` and `new_text` ([`own_chars::apply`](super::own_chars::apply)) plus
    /// O(len · lines of old_text).
    ///
    /// At an elided match, `new_text` with its marker lines mapped ([`Elided::apply`]); a
    /// `new_text` whose markers cannot be mapped must be refused before this ([`Reindent::check`])
    /// — here it writes the region as it is, never a marker as text.
    pub fn apply(&self, new_text: &str) -> String {
        if let Some(e) = &self.elided {
            return e.apply(new_text).or_else(|_| e.apply(&e.old_text)).unwrap_or_default();
        }
        let mut own = own_chars::apply(&self.old_text, new_text, &self.swaps);
        if self.drop_final_break && own.ends_with('\n') {
            own.pop();
        }
        if self.decompose {
            let mut nfd = String::with_capacity(own.len() + 8);
            for c in own.chars() {
                crate::decomposition::decompose_canonical(c, |d| nfd.push(d));
            }
            own = nfd;
        }
        if self.lines.is_empty() {
            return own;
        }
        let new_text = own.as_str();
        let kept = self.kept_lines(new_text);
        let mut out = String::with_capacity(new_text.len() + 16);
        for (n, line) in new_text.split('\n').enumerate() {
            if n > 0 {
                out.push('\n');
            }
            if (n == 0 && self.skip_first_line) || line.chars().all(is_line_space) {
                out.push_str(line);
                continue;
            }
            if let Some(indent) = kept.get(n).copied().flatten() {
                // A line the change keeps: as the document indents it.
                out.push_str(indent);
                out.push_str(line.strip_prefix(indentation(line)).unwrap_or(line));
                continue;
            }
            let indent = indentation(line);
            let cols = (self.width(indent) as isize + self.shift_for(n, indent)).max(0) as usize;
            if self.doc_tabs.unwrap_or(indent.contains('\t')) {
                out.extend(std::iter::repeat('\t').take(cols / self.tab_width));
                out.extend(std::iter::repeat(' ').take(cols % self.tab_width));
            } else {
                out.extend(std::iter::repeat(' ').take(cols));
            }
            out.push_str(line.strip_prefix(indent).unwrap_or(line));
        }
        out
    }
}

/// Every match of `needle` starting at or after char `from`, at the lowest tier that finds any.
/// Non-overlapping, in document order. A needle that is only whitespace never matches fuzzily.
///
/// Cost: O(n) for the token search plus O(w·m) for w examined windows while w × (needle lines)
/// stays under [`WINDOW_LINE_BUDGET`]; past it (repetitive documents, needles without a
/// distinctive token), O(n + m) per tier: each distinct line is normalised once and the needle's
/// lines are found as a sequence of line ids by [`kmp`](super::kmp).
pub fn find(rope: &Rope, needle: &str, from: usize, budget: &mut Budget) -> Vec<Match> {
    let lines: Vec<&str> = needle.split('\n').collect();
    if needle.chars().all(char::is_whitespace) {
        return Vec::new();
    }
    let k = lines.len();
    // A needle ending in a line break also matches at the very end of a document that has no
    // final line break (a final break is trailing whitespace too): its empty last line may lie
    // one past the document's lines.
    let open_end = lines.last() == Some(&"") && rope.len_chars() > 0 && rope.char(rope.len_chars() - 1) != '\n';
    let line_count = rope.len_lines() + usize::from(open_end);
    if k > line_count {
        return Vec::new();
    }
    let first_line = rope.char_to_line(from.min(rope.len_chars()));
    let per_tier: Vec<Vec<NormLine>> = Tier::FUZZY.iter().map(|&t| lines.iter().map(|l| normalize_line(l, t, budget)).collect()).collect();
    let windows =
        token_windows(rope, &lines).map(|w| w.into_iter().filter(|&i| i >= first_line && i + k <= line_count).collect::<Vec<usize>>());
    let found = match windows {
        Some(w) if w.len().saturating_mul(k) <= WINDOW_LINE_BUDGET && window_chars(rope, &w, k) <= WINDOW_CHAR_BUDGET => {
            by_windows(rope, w, &lines, &per_tier, from, budget)
        }
        _ => by_line_ids(rope, first_line, line_count, &lines, &per_tier, from, budget),
    };
    // A search cut short by its budget (matching::work) may have found some of the matches of
    // a tier, or missed a lower tier's: none of it is an answer.
    if budget.exhausted() {
        return Vec::new();
    }
    let mut found = leftmost(found);
    let last_has_text = per_tier.first().and_then(|t| t.last()).is_some_and(|l| !l.is_empty());
    for m in &mut found {
        in_own_style(rope, m, needle, last_has_text, budget);
    }
    found
}

/// A match made to write `new_text` in the document's style: the trailing whitespace of its
/// last line is part of it (when the needle's last line reaches that line's text), and the
/// parts of the needle the document writes otherwise are recorded as swaps. Cost: O(match).
fn in_own_style(rope: &Rope, m: &mut Match, needle: &str, last_has_text: bool, budget: &mut Budget) {
    let Some(tier) = m.quality.tier else { return };
    if last_has_text && m.range.end <= rope.len_chars() {
        let rest = rope.chars_at(m.range.end).take_while(|&c| c != '\n');
        let mut ws = 0usize;
        let mut only_space = true;
        for c in rest {
            if !is_line_space(c) {
                only_space = false;
                break;
            }
            ws += 1;
        }
        if only_space {
            m.range.end += ws;
        }
    }
    let doc = slice(rope, &m.range);
    // A needle's final line break where the document has none (it ends the match) is the
    // document's absent break: new_text keeping it adds no final line break.
    let open_end = m.range.end == rope.len_chars() && needle.ends_with('\n') && needle.split('\n').count() == doc.split('\n').count() + 1;
    let (needle, swaps) = match needle.strip_suffix('\n').filter(|_| open_end) {
        Some(lines) => (lines, own_chars::swaps(lines, &doc, tier, budget)),
        None => (needle, own_chars::swaps(needle, &doc, tier, budget)),
    };
    let Some(swaps) = swaps else { return };
    if swaps.is_empty() && !open_end {
        return;
    }
    let r = m.reindent.get_or_insert_with(|| Reindent {
        lines: Vec::new(),
        tab_width: DEFAULT_TAB_WIDTH,
        doc_tabs: None,
        skip_first_line: false,
        old_text: String::new(),
        swaps: Vec::new(),
        drop_final_break: false,
        elided: None,
        kept_indents: Vec::new(),
        decompose: false,
    });
    r.old_text = needle.to_string();
    r.swaps = swaps;
    r.drop_final_break = open_end;
    // A document in decomposed form (accents as combining marks, none precomposed) where the
    // needle was not: what new_text adds is written decomposed too.
    r.decompose = tier.ignores_normalization()
        && doc.chars().any(super::marks::is_mark)
        && !doc.chars().any(decomposes)
        && needle.chars().any(decomposes);
}

/// Windows overlap for multi-line needles: the leftmost of overlapping matches, as the exact
/// search keeps them, in document order.
fn leftmost(mut found: Vec<Match>) -> Vec<Match> {
    crate::sort::sort_by_key(&mut found, |m| (m.range.start, m.range.end));
    let mut out: Vec<Match> = Vec::with_capacity(found.len());
    for m in found {
        if out.last().map_or(true, |p| m.range.start >= p.range.end && p.range.start != m.range.start) {
            out.push(m);
        }
    }
    out
}

/// Most line examinations (windows × needle lines) the per-window check may cost before the
/// linear scan over line ids takes over: a few milliseconds of normalising.
pub const WINDOW_LINE_BUDGET: usize = 20_000;

/// Most chars the windows may span in all (each window counted whole, overlaps counted again)
/// before the linear scan takes over: long lines make a few windows as costly as many.
pub const WINDOW_CHAR_BUDGET: usize = 2_000_000;

/// Chars the windows starting at `starts`, `k` lines each, span in all (a line in several
/// windows counted in each). Cost: O(windows · log n); stops counting past the budget.
fn window_chars(rope: &Rope, starts: &[usize], k: usize) -> usize {
    let at = |line: usize| rope.line_to_char(line.min(rope.len_lines()));
    let mut total = 0usize;
    for &i in starts {
        total = total.saturating_add(at(i + k) - at(i));
        if total > WINDOW_CHAR_BUDGET {
            break;
        }
    }
    total
}

/// The matches in the given windows, at the lowest tier any of them matches at.
fn by_windows(
    rope: &Rope,
    windows: Vec<usize>,
    lines: &[&str],
    per_tier: &[Vec<NormLine>],
    from: usize,
    budget: &mut Budget,
) -> Vec<Match> {
    let mut best: Option<Tier> = None;
    let mut found: Vec<Match> = Vec::new();
    for i in windows {
        if budget.exhausted() {
            return Vec::new();
        }
        budget.candidate();
        for (t, needle_norm) in Tier::FUZZY.iter().zip(per_tier) {
            if best.is_some_and(|b| *t > b) {
                break;
            }
            let hits = match_window(rope, i, *t, lines, needle_norm, budget);
            if hits.is_empty() {
                continue;
            }
            if best != Some(*t) {
                found.clear();
                best = Some(*t);
            }
            found.extend(hits.into_iter().filter(|m| m.range.start >= from));
            break;
        }
    }
    found
}

/// Document lines `first_line..line_count` (the last one past the rope's lines when the needle
/// has an open end) as ids: the distinct lines, and each line's id. Lines are split with memchr
/// over the rope's chunks and keyed by their xxh3 hash (checked against the stored line, so a
/// collision only costs a second entry). Cost: O(n); borrows every line that lies in one chunk.
// Bounds: ids are indexes into `distinct`, handed out as its length before a push.
#[allow(clippy::indexing_slicing)]
fn intern_lines<'r>(
    rope: &'r Rope,
    first_line: usize,
    line_count: usize,
    budget: &mut Budget,
) -> (Vec<std::borrow::Cow<'r, str>>, Vec<u32>) {
    use std::borrow::Cow;
    use std::collections::hash_map::Entry;
    use std::collections::HashMap;
    use std::hash::{BuildHasherDefault, Hasher};
    /// The keys are already hashes.
    #[derive(Default)]
    struct Identity(u64);
    impl Hasher for Identity {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.0 = self.0.rotate_left(8) ^ u64::from(*b);
            }
        }
        fn write_u64(&mut self, n: u64) {
            self.0 = n;
        }
    }
    let wanted = line_count.saturating_sub(first_line);
    // Hash → the first id with that hash; further ids with the same hash (a collision) in
    // `more`. (One allocation per distinct line cost more than interning itself.)
    let mut ids: HashMap<u64, u32, BuildHasherDefault<Identity>> = HashMap::default();
    let mut more: HashMap<u64, Vec<u32>, BuildHasherDefault<Identity>> = HashMap::default();
    let mut distinct: Vec<Cow<'r, str>> = Vec::new();
    let mut raw: Vec<u32> = Vec::with_capacity(wanted);
    let mut intern = |text: Cow<'r, str>, distinct: &mut Vec<Cow<'r, str>>, raw: &mut Vec<u32>| {
        let hash = xxhash_rust::xxh3::xxh3_64(text.as_bytes());
        let next = distinct.len() as u32;
        let id = match ids.entry(hash) {
            Entry::Vacant(e) => {
                e.insert(next);
                distinct.push(text);
                next
            }
            Entry::Occupied(e) if distinct[*e.get() as usize] == text => *e.get(),
            Entry::Occupied(_) => {
                let bucket = more.entry(hash).or_default();
                match bucket.iter().find(|&&id| distinct[id as usize] == text) {
                    Some(&id) => id,
                    None => {
                        distinct.push(text);
                        bucket.push(next);
                        next
                    }
                }
            }
        };
        raw.push(id);
    };
    // The last line that lay in one chunk per slot (its length and end bytes, mod 16), as the
    // rope's own text: repetitive documents repeat a few lines, and a comparison with the last
    // one of its slot is cheaper than hashing it or making a Cow (a third of a NoMatch on 10 MB
    // of `}` and blank lines went to interning, docs/reliability.md). The end bytes keep lines of
    // one length apart (`fn a() {`, `    x();`). A line that spans chunks is hashed (one a chunk at
    // most).
    let mut recent_in_chunk: [Option<(u32, &'r str)>; 16] = [None; 16];
    let slot_of = |line: &str| {
        let b = line.as_bytes();
        (line.len() ^ usize::from(b.first().copied().unwrap_or(0)) ^ (usize::from(b.last().copied().unwrap_or(0)) << 2)) & 15
    };
    let from_byte = rope.line_to_byte(first_line.min(rope.len_lines()));
    let (chunks, mut chunk_start, _, _) = rope.chunks_at_byte(from_byte);
    let mut partial = String::new(); // a line that began in an earlier chunk
    'chunks: for chunk in chunks {
        // The budget (matching::work): a unit a byte and a few a line, charged per chunk; a
        // stopped search interns no further (its caller sees the meter out, returns nothing).
        if budget.exhausted() {
            break;
        }
        let lines_before = raw.len();
        let skip = from_byte.saturating_sub(chunk_start).min(chunk.len());
        chunk_start += chunk.len();
        let mut rest = chunk.get(skip..).unwrap_or_default();
        while let Some(at) = next_line_break(rest.as_bytes()) {
            let (line, after) = (rest.get(..at).unwrap_or_default(), rest.get(at + 1..).unwrap_or_default());
            rest = after;
            if partial.is_empty() {
                let slot = slot_of(line);
                match recent_in_chunk[slot] {
                    Some((id, seen)) if seen == line => raw.push(id),
                    _ => {
                        intern(Cow::Borrowed(line), &mut distinct, &mut raw);
                        recent_in_chunk[slot] = raw.last().map(|&id| (id, line));
                    }
                }
            } else {
                partial.push_str(line);
                intern(Cow::Owned(std::mem::take(&mut partial)), &mut distinct, &mut raw);
            }
            if raw.len() == wanted {
                break 'chunks;
            }
        }
        partial.push_str(rest);
        budget.charge((chunk.len() + 5 * (raw.len() - lines_before)) as u64);
    }
    // The last line (no break after it), and the open end past a document without a final
    // line break.
    while raw.len() < wanted {
        intern(Cow::Owned(std::mem::take(&mut partial)), &mut distinct, &mut raw);
    }
    // A new distinct line costs a hash-table entry besides its bytes.
    budget.charge(50 * distinct.len() as u64);
    (distinct, raw)
}

/// The offset of the first `\n` in `bytes`: the first 16 bytes by hand, then memchr. Lines in
/// a repetitive document are often a byte or two (`}`, blank), where a memchr call costs more
/// than the line (in wasm, without SIMD, several times more). Cost: O(offset).
fn next_line_break(bytes: &[u8]) -> Option<usize> {
    let head = bytes.get(..16).unwrap_or(bytes);
    match head.iter().position(|&b| b == b'\n') {
        Some(at) => Some(at),
        None => memchr::memchr(b'\n', bytes.get(head.len()..).unwrap_or_default()).map(|at| at + head.len()),
    }
}

/// The matches in document lines `first_line..line_count`, found without examining window by
/// window: the lines are interned (identical lines share an id and are normalised once per
/// tier), the needle's middle lines are searched as a sequence of ids, and only the starts
/// where that sequence, the first line's suffix and the last line's prefix all agree are
/// checked by [`match_window`] — leftmost first, skipping starts that overlap a kept match,
/// so that a document of identical lines costs O(n), not O(n·k).
// Bounds: `raw` has a slot per line of the range and ids index `distinct`; `i + k - 1 < raw.len()`
// for every start taken from `0..=raw.len() - k`.
#[allow(clippy::indexing_slicing)]
fn by_line_ids(
    rope: &Rope,
    first_line: usize,
    line_count: usize,
    lines: &[&str],
    per_tier: &[Vec<NormLine>],
    from: usize,
    budget: &mut Budget,
) -> Vec<Match> {
    use std::collections::HashMap;
    let k = lines.len();
    let (distinct, raw) = intern_lines(rope, first_line, line_count, budget);
    if raw.len() < k || budget.exhausted() {
        return Vec::new();
    }
    // What a distinct line may be, at any tier: no tier changes a stable char or makes one, so
    // a line equals / ends with / starts with / contains a needle line only if its skeleton
    // (its stable chars, in order) does the same with the needle line's. Computed once, so the
    // tiers normalise only the lines that pass (in a 10 MB file, a handful).
    let skeleton = |text: &str, into: &mut Vec<char>| {
        into.clear();
        into.extend(stable_chars(text.chars()));
    };
    let needle_skeletons: Vec<Vec<char>> = lines
        .iter()
        .map(|l| {
            let mut s = Vec::new();
            skeleton(l, &mut s);
            s
        })
        .collect();
    let middle_skeletons: std::collections::HashSet<&[char]> =
        needle_skeletons.get(1..k.saturating_sub(1)).unwrap_or_default().iter().map(Vec::as_slice).collect();
    // The lengths of the middle skeletons: most distinct lines have none of them, and a length
    // is cheaper to look up than a skeleton is to hash.
    let mut middle_lens = vec![false; middle_skeletons.iter().map(|s| s.len() + 1).max().unwrap_or(0)];
    for s in &middle_skeletons {
        if let Some(slot) = middle_lens.get_mut(s.len()) {
            *slot = true;
        }
    }
    let (mut may_mid, mut may_first, mut may_last) =
        (vec![false; distinct.len()], vec![false; distinct.len()], vec![false; distinct.len()]);
    // The middle skeletons some distinct line has: each must be somewhere for a match.
    let mut middles_seen: std::collections::HashSet<&[char]> = std::collections::HashSet::new();
    let mut skel = Vec::new();
    let only_ascii = match needle_skeletons.as_slice() {
        [only] => ascii_bytes(only),
        _ => None,
    };
    budget.charge(distinct.iter().map(|d| d.len() as u64).sum());
    for (d, text) in distinct.iter().enumerate() {
        if let [only] = needle_skeletons.as_slice() {
            // One needle line: a streamed search, so a 10 MB line's skeleton is never built.
            may_mid[d] = skeleton_contains(text, only, only_ascii.as_deref());
            continue;
        }
        skeleton(text, &mut skel);
        match needle_skeletons.as_slice() {
            [_] => {} // handled above
            [first, .., last] => {
                // The length first: `get` hashes the whole skeleton, and most lines have none
                // of the middle skeletons' lengths.
                let may_be_middle = middle_lens.get(skel.len()).copied().unwrap_or(false);
                if let Some(&m) = may_be_middle.then(|| middle_skeletons.get(skel.as_slice())).flatten() {
                    may_mid[d] = true;
                    middles_seen.insert(m);
                }
                may_first[d] = skel.ends_with(first);
                may_last[d] = skel.starts_with(last);
            }
            [] => {}
        }
    }
    // A needle line that no document line can be at any tier (its skeleton is nowhere): no
    // match, whatever the order of the lines — decided per distinct line, before any work per
    // line.
    let possible = match needle_skeletons.as_slice() {
        [_] => may_mid.contains(&true),
        [_, .., _] => may_first.contains(&true) && may_last.contains(&true) && middles_seen.len() == middle_skeletons.len(),
        [] => false,
    };
    if !possible {
        return Vec::new();
    }
    // In a repetitive document the cost is per line, not per distinct line: a tier that
    // normalises the needle and every distinct line exactly as the tier before (`}`, blank
    // lines) finds exactly what that one found — nothing, or it would have returned — so it is
    // skipped. Compared by a hash and length of each normalised line.
    let mut previous: Option<Vec<(u64, usize)>> = None;
    let repetitive = raw.len() > 4 * distinct.len();
    for (t, needle_norm) in Tier::FUZZY.iter().zip(per_tier) {
        if repetitive {
            let mut signature: Vec<(u64, usize)> = Vec::with_capacity(needle_norm.len() + distinct.len());
            for n in needle_norm {
                signature.push((stream::hash(n.text.iter().copied(), *t, budget), n.len()));
            }
            for d in &distinct {
                signature.push((stream::hash(d.chars(), *t, budget), normalize_line(d, *t, budget).len()));
            }
            if previous.as_ref() == Some(&signature) {
                continue;
            }
            previous = Some(signature);
        }
        // Each tier walks the line ids once or twice (the sequence, its KMP): a
        // tier skipped as the same as the one before costs only its signature.
        budget.charge(4 * raw.len() as u64);
        if budget.exhausted() {
            return Vec::new();
        }
        let starts: Vec<usize> = if let [only] = needle_norm.as_slice() {
            if only.is_empty() {
                return Vec::new();
            }
            let hit: Vec<bool> = distinct
                .iter()
                .zip(&may_mid)
                .map(|(d, &may)| may && !stream::occurrences(d.chars(), *t, &only.text, 1, budget).is_empty())
                .collect();
            (0..raw.len()).filter(|&i| hit[raw[i] as usize]).collect()
        } else {
            let (Some(first), Some(last)) = (needle_norm.first(), needle_norm.last()) else { return Vec::new() };
            let middle: Vec<&[char]> = needle_norm[1..k - 1].iter().map(|n| n.text.as_slice()).collect();
            // Middle lines by normalised hash, each checked for equality on a hit.
            let mut by_hash: HashMap<u64, Vec<u32>> = HashMap::new();
            for (j, m) in middle.iter().enumerate() {
                if middle[..j].contains(m) {
                    continue; // the first equal middle line stands for all of them
                }
                by_hash.entry(stream::hash(m.iter().copied(), *t, budget)).or_default().push(j as u32);
            }
            // Per distinct line: which needle middle line it equals (u32::MAX: none).
            let mut mid_id = vec![u32::MAX; distinct.len()];
            for (d, text) in distinct.iter().enumerate() {
                if may_mid[d] && !by_hash.is_empty() {
                    if let Some(js) = by_hash.get(&stream::hash(text.chars(), *t, budget)) {
                        if let Some(&j) = js.iter().find(|&&j| stream::equals(text.chars(), *t, middle[j as usize], budget)) {
                            mid_id[d] = j;
                        }
                    }
                }
            }
            let pattern: Vec<u32> =
                (0..middle.len()).map(|j| middle.iter().position(|m| *m == middle[j]).map_or(u32::MAX - 1, |p| p as u32)).collect();
            let seq: Vec<u32> = raw.iter().map(|&r| mid_id[r as usize]).collect();
            // Whether a distinct line ends with the needle's first line / starts with its last:
            // worked out only for lines that close a run of middle lines, once each.
            let mut first_ok: Vec<Option<bool>> = vec![None; distinct.len()];
            let mut last_ok: Vec<Option<bool>> = vec![None; distinct.len()];
            let mut starts = Vec::new();
            for i in super::kmp::find_all(&seq, &pattern).into_iter().filter_map(|p| p.checked_sub(1)) {
                if i + k > raw.len() {
                    continue;
                }
                let (a, b) = (raw[i] as usize, raw[i + k - 1] as usize);
                if !may_first[a] || !may_last[b] {
                    continue;
                }
                let last = *last_ok[b].get_or_insert_with(|| stream::prefix_end(distinct[b].chars(), *t, &last.text, budget).is_some());
                if last && *first_ok[a].get_or_insert_with(|| stream::suffix(distinct[a].chars(), *t, &first.text, budget).is_some()) {
                    starts.push(i);
                }
            }
            starts
        };
        if starts.is_empty() {
            continue;
        }
        let mut found: Vec<Match> = Vec::new();
        let mut next_free = 0usize; // first window start that cannot overlap the last kept match
        for i in starts {
            if i < next_free {
                continue;
            }
            budget.candidate();
            let hits: Vec<Match> = match_window(rope, first_line + i, *t, lines, needle_norm, budget)
                .into_iter()
                .filter(|m| m.range.start >= from && found.last().map_or(true, |p| m.range.start >= p.range.end))
                .collect();
            if !hits.is_empty() {
                next_free = i + k.saturating_sub(1).max(1);
                found.extend(hits);
            }
        }
        return found;
    }
    Vec::new()
}

/// The chars of `text` no tier changes ([`is_stable`]), less a base char a combining mark
/// follows (at the `normalization` tier `e` + U+0301 reads as `é`, which is not stable).
/// Cost: O(n).
fn stable_chars(text: impl Iterator<Item = char>) -> impl Iterator<Item = char> {
    let mut chars = text.peekable();
    std::iter::from_fn(move || loop {
        let c = chars.next()?;
        if is_stable(c) && !chars.peek().is_some_and(|&n| super::marks::is_mark(n)) {
            return Some(c);
        }
    })
}

/// Whether `skeleton` (stable chars, as [`stable_chars`] keeps them) occurs in the stable chars
/// of `text`; `ascii` is `skeleton` as bytes ([`ascii_bytes`], made once per needle). Cost: O(n).
/// An ASCII text holds no mark and no char that folds, so its stable chars are its bytes that
/// [`is_stable`] keeps, streamed without decoding chars (a third of a 10 MB one-line NoMatch went
/// to the char-by-char stream, docs/reliability.md); a skeleton with a char outside ASCII
/// (`ascii` None) then cannot occur.
fn skeleton_contains(text: &str, skeleton: &[char], ascii: Option<&[u8]>) -> bool {
    if !text.is_ascii() {
        return super::kmp::contains_in(stable_chars(text.chars()), skeleton);
    }
    ascii.is_some_and(|bytes| super::kmp::contains_in(text.bytes().filter(|&b| is_stable(char::from(b))), bytes))
}

/// `chars` as bytes when all are ASCII, else None. Cost: O(chars).
fn ascii_bytes(chars: &[char]) -> Option<Vec<u8>> {
    chars.iter().map(|&c| u8::try_from(c).ok().filter(u8::is_ascii)).collect()
}

/// The runs of `line` made of [`stable_chars`] only (possibly empty). Cost: O(n).
fn stable_runs(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let stable = is_stable(c) && !chars.peek().is_some_and(|&(_, n)| super::marks::is_mark(n));
        if !stable {
            out.push(line.get(start..i).unwrap_or_default());
            start = i + c.len_utf8();
        }
    }
    out.push(line.get(start..).unwrap_or_default());
    out
}

/// Window starts (document line indexes) around hits of the needle's longest stable token, or
/// `None` when every line must be examined.
fn token_windows(rope: &Rope, lines: &[&str]) -> Option<Vec<usize>> {
    let (line_no, token) = lines
        .iter()
        .enumerate()
        .flat_map(|(j, l)| stable_runs(l).into_iter().map(move |t| (j, t)))
        .max_by_key(|(_, t)| t.chars().count())?;
    if token.chars().count() < MIN_TOKEN_CHARS {
        return None;
    }
    let hits = find_bytes(rope, token);
    if hits.len() > MAX_TOKEN_HITS {
        return None;
    }
    let mut starts: Vec<usize> = hits.into_iter().filter_map(|b| rope.byte_to_line(b).checked_sub(line_no)).collect();
    starts.dedup();
    Some(starts)
}

/// Matches of the needle in document lines `i..i+k` under `tier` (several only for a one-line
/// needle occurring more than once in line `i`). The lines are checked as streams
/// ([`stream`](super::stream)): O(chars examined) time, no copy of a long line.
fn match_window(rope: &Rope, i: usize, tier: Tier, lines: &[&str], needle: &[NormLine], budget: &mut Budget) -> Vec<Match> {
    let k = needle.len();
    let quality = MatchQuality { tier: Some(tier), gutter: false, elided: false };
    let line_start = rope.line_to_char(i.min(rope.len_lines()));
    let (Some(needle_first), Some(needle_last)) = (needle.first(), needle.last()) else { return Vec::new() };
    if let [n] = needle {
        if n.is_empty() {
            return Vec::new();
        }
        return stream::occurrences(stream::line_chars(rope, i), tier, &n.text, usize::MAX, budget)
            .into_iter()
            .map(|o| {
                let end = line_start + o.end;
                if tier.ignores_indentation() && o.at == 0 {
                    let reindent = reindent(tier, lines, &[stream::line_head(rope, i)], false);
                    Match { range: line_start..end, quality, reindent }
                } else {
                    Match { range: line_start + o.start..end, quality, reindent: None }
                }
            })
            .collect();
    }
    // First needle line: a suffix of line i; middle lines: equal; last line: a prefix.
    let Some(first) = stream::suffix(stream::line_chars(rope, i), tier, &needle_first.text, budget) else { return Vec::new() };
    for (j, wanted) in needle.iter().enumerate().take(k - 1).skip(1) {
        if !stream::equals(stream::line_chars(rope, i + j), tier, &wanted.text, budget) {
            return Vec::new();
        }
    }
    let Some(last_end) = stream::prefix_end(stream::line_chars(rope, i + k - 1), tier, &needle_last.text, budget) else {
        return Vec::new();
    };
    let whole_first = first.whole && !needle_first.is_empty();
    let start = if whole_first && tier.ignores_indentation() { line_start } else { line_start + first.start };
    let last_start = if i + k - 1 < rope.len_lines() { rope.line_to_char(i + k - 1) } else { rope.len_chars() };
    let end = last_start + last_end;
    let reindent = if tier.ignores_indentation() {
        let heads: Vec<String> = (i..i + k).map(|l| stream::line_head(rope, l)).collect();
        reindent(tier, lines, &heads, !whole_first)
    } else {
        None
    };
    vec![Match { range: start..end, quality, reindent }]
}

/// The re-indentation for a match whose needle lines `lines` sit on document lines `doc`: a
/// shift per line pair (blank lines take their neighbour's), the tab width inferred from the
/// first pair nested deeper than the first whole line. `None` when nothing shifts.
fn reindent(tier: Tier, lines: &[&str], doc: &[String], first_is_partial: bool) -> Option<Reindent> {
    debug_assert!(tier.ignores_indentation());
    let skip = usize::from(first_is_partial);
    let blank = |l: &str| l.chars().all(is_line_space);
    let (j, first) = lines.iter().enumerate().skip(skip).find(|(_, l)| !blank(l))?;
    let (from, to) = (indentation(first), indentation(doc.get(j)?));
    // Tab width: where one side nests with spaces and the other with tabs, spaces per tab.
    let mut tab_width = DEFAULT_TAB_WIDTH;
    for (n, d) in lines.iter().zip(doc).skip(j + 1) {
        let (Some(en), Some(ed)) = (indentation(n).strip_prefix(from), indentation(d).strip_prefix(to)) else { continue };
        let (tabs, spaces) = if ed.chars().all(|c| c == '\t') && en.chars().all(|c| c == ' ') {
            (ed.len(), en.len())
        } else if en.chars().all(|c| c == '\t') && ed.chars().all(|c| c == ' ') {
            (en.len(), ed.len())
        } else {
            continue;
        };
        if tabs > 0 && spaces > 0 && spaces % tabs == 0 {
            tab_width = spaces / tabs;
            break;
        }
    }
    let width = |ws: &str| -> isize { ws.chars().map(|c| if c == '\t' { tab_width } else { 1 }).sum::<usize>() as isize };
    let paired: Vec<(&str, &str)> = lines.iter().zip(doc).map(|(n, d)| (*n, d.as_str())).collect();
    // Nothing to do when every line is already indented exactly as in the document.
    if paired.iter().skip(skip).all(|(n, d)| blank(n) || indentation(n) == indentation(d)) {
        return None;
    }
    let mut shifts: Vec<Option<isize>> = paired
        .iter()
        .enumerate()
        .map(|(i, (n, d))| (i >= skip && !blank(n) && !blank(d)).then(|| width(indentation(d)) - width(indentation(n))))
        .collect();
    // Blank and skipped lines take the shift of the nearest line before (or after) them.
    let mut last = shifts.iter().flatten().next().copied().unwrap_or(0);
    for s in &mut shifts {
        match s {
            Some(v) => last = *v,
            None => *s = Some(last),
        }
    }
    // A blank old_text line's shift is borrowed: it is stored under an indentation no line has
    // (a line break), so a new_text line at its position does not take it as its own.
    let lines: Vec<(String, isize)> = paired
        .iter()
        .zip(shifts)
        .map(|((n, _), s)| (if blank(n) { BLANK.to_string() } else { indentation(n).to_string() }, s.unwrap_or(0)))
        .collect();
    let doc_indents: Vec<&str> = doc.iter().map(|d| indentation(d)).filter(|i| !i.is_empty()).collect();
    let doc_tabs = if doc_indents.is_empty() { None } else { Some(doc_indents.iter().any(|i| i.contains('\t'))) };
    let kept_indents = paired.iter().map(|(n, d)| (n.to_string(), indentation(d).to_string())).collect();
    Some(Reindent {
        lines,
        tab_width,
        doc_tabs,
        skip_first_line: first_is_partial,
        old_text: String::new(),
        swaps: Vec::new(),
        drop_final_break: false,
        elided: None,
        kept_indents,
        decompose: false,
    })
}

/// Char range helper for tests and callers: the text a match covers.
pub fn slice(rope: &Rope, range: &Range<usize>) -> String {
    rope.slice(range.clone()).to_string()
}

#[cfg(test)]
mod tests;
