//! The elided-middle tier (docs/architecture.md#matching): an `old_text` with lines left out
//! under a marker line (`...`, `…`, `// ... existing code ...`, `# rest unchanged`,
//! `<!-- ... -->`: [`is_elision_line`]) is found by the pieces of text around its markers.
//!
//! The pieces are anchors, and a marker never stretches over text the model did not mean:
//! - each piece is found exactly, else through the fuzzy tiers as a whole needle is
//!   ([`find_tolerant`], [`drift`]: then old_text must read as the whole region through one
//!   tier, and new_text is written in the document's form); a piece after a marker starts a
//!   line, one before a marker ends a line; a piece that could overlap itself (compared as
//!   lines where it is whole lines) is no anchor;
//! - from each place of the first piece, each next piece is its nearest place after the one
//!   before, at most [`MAX_ELIDED_LINES`] lines further down; the region, from the first piece
//!   to the end of the last, must hold each piece exactly once (it may be most of the file:
//!   a file-sized sketch);
//! - a marker that would stand for one placeholder-like line of the document, or for its own
//!   words as the document writes them, is that line: no reading ([`held_by`] says the same
//!   for a near miss's region);
//! - several such regions are several matches (candidates), never a guess; a reading that
//!   fails only for holding a piece twice may be the one the model meant (it left out a copy of
//!   its own anchor), so when there is one, a single region is no answer either;
//! - a piece that occurs again soon after its nearest place, where a reading through that
//!   place goes on to the pieces after it (its region would hold the piece twice), is
//!   unsettled: the match stands only for a `new_text` that leaves that piece and all after it
//!   as they are — then every reading
//!   writes the same document ([`Unmapped::Unsettled`] otherwise). So is a first piece that
//!   occurs soon before its place: `new_text` must leave it as it is. (A reading whose first
//!   two pieces both lie before the match, its third on the match's, is not looked for.)
//!
//! The match is the whole region. `new_text` is written with each of its marker lines replaced
//! by the document lines the marker at the same position stands for ([`Elided::apply`]), so
//! they stay as they are. A `new_text` whose markers cannot be mapped ([`Unmapped`]) must never
//! be written: [`check_new_text`] says so before anything is staged.

use std::ops::Range;

use ropey::Rope;

use super::normalize::Tier;
use super::work::Budget;
use super::{Match, MatchQuality};

pub mod drift;
mod markers;
pub mod sketch;
pub use markers::{elided_pieces, is_elision_line};

/// Lines one marker may stand for: a model leaves out what it read and did not change — a
/// function body, the methods of a class, most of a file in a file-sized sketch. It also
/// bounds "soon after" for an anchor that occurs again ([`Elided::unsettled`]).
pub const MAX_ELIDED_LINES: usize = 5_000;
/// Bytes of one exact pass over the document per work unit (memmem runs at several
/// bytes per nanosecond; see [`work`](super::work)).
const BYTES_PER_UNIT: u64 = 4;

/// The quality of an elided match: `match_quality` `elided`.
pub const QUALITY: MatchQuality = MatchQuality { tier: Some(Tier::Elided), gutter: false, elided: false };

/// A text split at its marker lines.
#[derive(Debug)]
struct Split<'a> {
    /// The lines between the markers (one group more than there are markers), without the
    /// blank lines next to a marker.
    groups: Vec<&'a [&'a str]>,
    /// Per marker: the blank lines just before it and just after it.
    blanks: Vec<(usize, usize)>,
    /// The first marker line, as written.
    first_marker: &'a str,
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// `lines` split at their marker lines; `None` without one. Cost: O(lines).
fn split<'a>(lines: &'a [&'a str]) -> Option<Split<'a>> {
    let markers: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| is_elision_line(l)).map(|(i, _)| i).collect();
    let first_marker = lines.get(*markers.first()?).copied().unwrap_or_default();
    let mut groups = Vec::with_capacity(markers.len() + 1);
    let mut blanks = vec![(0, 0); markers.len()];
    let mut start = 0;
    for j in 0..=markers.len() {
        let end = markers.get(j).copied().unwrap_or(lines.len());
        let mut group = lines.get(start..end).unwrap_or_default();
        if j > 0 {
            let lead = group.iter().take_while(|l| is_blank(l)).count();
            group = group.get(lead..).unwrap_or_default();
            if let Some(b) = blanks.get_mut(j - 1) {
                b.1 = lead;
            }
        }
        if j < markers.len() {
            let trail = group.iter().rev().take_while(|l| is_blank(l)).count();
            group = group.get(..group.len() - trail).unwrap_or_default();
            if let Some(b) = blanks.get_mut(j) {
                b.0 = trail;
            }
        }
        groups.push(group);
        start = end + 1;
    }
    Some(Split { groups, blanks, first_marker })
}

/// One piece of an elided `old_text`: text the model did copy.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    text: String,
    /// A marker comes before it: it starts a line.
    starts_line: bool,
    /// A marker comes after it: it ends a line.
    ends_line: bool,
}

/// The pieces of `needle` around its markers, in order; `None` when it has no marker, no
/// piece, or two markers with nothing but blank lines between them. Cost: O(needle).
fn pieces(needle: &str) -> Option<Vec<Piece>> {
    let lines: Vec<&str> = needle.split('\n').collect();
    let s = split(&lines)?;
    let last = s.groups.len() - 1;
    let mut out = Vec::new();
    for (j, g) in s.groups.iter().enumerate() {
        if g.is_empty() {
            if j != 0 && j != last {
                return None;
            }
            continue;
        }
        out.push(Piece { text: g.join("\n"), starts_line: j > 0, ends_line: j < last });
    }
    (!out.is_empty()).then_some(out)
}

/// What [`Elided::apply`] needs at one match: the document lines each marker of `old_text`
/// stands for there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Elided {
    /// The needle as searched.
    pub old_text: String,
    /// Per marker of `old_text`, in order: the lines it stands for, joined by `\n`; `None` for
    /// no line (a marker before the first piece or after the last stands for none).
    pub lines: Vec<Option<String>>,
    /// The first group of `old_text`'s lines (0: before its first marker) whose place here is
    /// not the only one within [`MAX_ELIDED_LINES`]: `new_text` must leave it and every group
    /// after it as they are.
    pub unsettled: Option<usize>,
    /// The group of the first piece, when that piece also occurs soon before its place here:
    /// `new_text` must leave it (and any group before it) as it is.
    pub unsettled_first: Option<usize>,
    /// How the mapped `new_text` is written in the document's form, when a piece was found
    /// only through a fuzzy tier ([`find_tolerant`]): the re-indentation and own characters of
    /// old_text's match over the region. `None`: as it is.
    pub own: Option<Box<super::fuzzy::Reindent>>,
}

/// Why a `new_text` cannot be written at an elided match: where its marker lines would go is
/// not known, and a marker is never written as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unmapped {
    /// `new_text` has `new` marker lines where `old_text` has `old` (`line`: the first marker
    /// line of old_text).
    Markers { old: usize, new: usize, line: String },
    /// `new_text` has fewer blank lines beside its marker `marker` (1-based) than `old_text`:
    /// those blank lines belong to what the marker stands for.
    BlankLines { marker: usize },
    /// `new_text` has text before its marker `marker` where `old_text` starts with it, or
    /// after it where `old_text` ends with it: what that text follows or precedes is unknown.
    Outside { marker: usize },
    /// The lines after marker `marker` (the first is `line`) occur again within
    /// [`MAX_ELIDED_LINES`] lines, and `new_text` changes them or what follows them (`before`:
    /// the lines before it occur soon before, and `new_text` changes them): which place the
    /// change is for is unclear.
    Unsettled { marker: usize, line: String, before: bool },
    /// old_text has no placeholder, and which of its lines placeholder `marker` (1-based,
    /// `line`) of new_text stands for cannot be told: `near`, a new line beside it that may
    /// rewrite an old line or be an added one, or an anchor that also occurs among the lines it
    /// would stand for; `None` for two placeholders with no line of old_text between them
    /// ([`sketch::expand`]).
    Sketch { marker: usize, line: String, near: Option<String> },
}

impl Elided {
    /// `new_text` with each marker line replaced by the lines the marker at the same position
    /// of `old_text` stands for (blank lines beside a marker, which `old_text` has too, are
    /// part of them); `apply(old_text)` is the region as it is. Cost: O(old_text + new_text +
    /// the lines).
    pub fn apply(&self, new_text: &str) -> Result<String, Unmapped> {
        let mapped = map(&self.old_text, new_text, &self.lines, (self.unsettled_first, self.unsettled))?;
        Ok(match &self.own {
            Some(own) => own.apply(&mapped),
            None => mapped,
        })
    }

    /// Whether [`Elided::apply`] can write `new_text`. Cost: that of `apply`.
    pub fn check(&self, new_text: &str) -> Result<(), Unmapped> {
        self.apply(new_text).map(|_| ())
    }
}

/// Whether `new_text` can be written at an elided match of `old_text`: `Ok` when `old_text`
/// has no marker line. Cost: O(old_text + new_text).
pub fn check_new_text(old_text: &str, new_text: &str) -> Result<(), Unmapped> {
    let markers = old_text.split('\n').filter(|l| is_elision_line(l)).count();
    if markers == 0 {
        return Ok(());
    }
    map(old_text, new_text, &vec![None; markers], (None, None)).map(|_| ())
}

/// Why `new_text` cannot be written at the elided `matches` of one search, if it cannot:
/// checked at the match that would be staged (`pick`, an index into `matches`, or the only
/// one), else — candidates to be listed — only that its markers map. `None` when the matches
/// are not elided. Cost: that of one [`Elided::check`].
pub fn unmapped(matches: &[Match], pick: Option<usize>, new_text: &str) -> Option<Unmapped> {
    fn elided(m: &Match) -> Option<&Elided> {
        m.reindent.as_ref().and_then(|r| r.elided.as_deref())
    }
    let staged = match pick {
        Some(i) => matches.get(i),
        None if matches.len() == 1 => matches.first(),
        None => None,
    };
    let result = match (staged.and_then(elided), matches.first().and_then(elided)) {
        (Some(e), _) => e.check(new_text),
        (None, Some(e)) => check_new_text(&e.old_text, new_text),
        (None, None) => Ok(()),
    };
    result.err()
}

/// [`Elided::apply`]; `unsettled`: [`Elided::unsettled_first`] and [`Elided::unsettled`].
fn map(old_text: &str, new_text: &str, elided: &[Option<String>], unsettled: (Option<usize>, Option<usize>)) -> Result<String, Unmapped> {
    let old_lines: Vec<&str> = old_text.split('\n').collect();
    let new_lines: Vec<&str> = new_text.split('\n').collect();
    let Some(old) = split(&old_lines) else { return Ok(new_text.to_string()) };
    let markers = old.blanks.len();
    let Some(new) = split(&new_lines).filter(|n| n.blanks.len() == markers) else {
        let new = new_lines.iter().filter(|l| is_elision_line(l)).count();
        return Err(Unmapped::Markers { old: markers, new, line: old.first_marker.trim().to_string() });
    };
    let open_start = old.groups.first().is_some_and(|g| g.is_empty());
    let open_end = old.groups.last().is_some_and(|g| g.is_empty());
    if open_start && new.groups.first().is_some_and(|g| !g.is_empty()) {
        return Err(Unmapped::Outside { marker: 1 });
    }
    if open_end && new.groups.last().is_some_and(|g| !g.is_empty()) {
        return Err(Unmapped::Outside { marker: markers });
    }
    let first_line = |g: usize| old.groups.get(g).and_then(|l| l.first()).map_or(String::new(), |l| l.trim().to_string());
    if let Some(g) = unsettled.1.filter(|&g| g > 0) {
        // From the unsettled group on, new_text must read as old_text (blank lines beside the
        // markers included), so that every reading writes the same document.
        let same_groups = new.groups.get(g..) == old.groups.get(g..);
        let same_blanks =
            new.blanks.get(g..) == old.blanks.get(g..) && new.blanks.get(g - 1).map(|b| b.1) == old.blanks.get(g - 1).map(|b| b.1);
        if !(same_groups && same_blanks) {
            return Err(Unmapped::Unsettled { marker: g, line: first_line(g), before: false });
        }
    }
    if let Some(g) = unsettled.0 {
        // Up to the unsettled first piece, the same (and the blank lines before the marker
        // after it).
        let same_groups = new.groups.get(..=g) == old.groups.get(..=g);
        let same_blanks = new.blanks.get(..g) == old.blanks.get(..g) && new.blanks.get(g).map(|b| b.0) == old.blanks.get(g).map(|b| b.0);
        if !(same_groups && same_blanks) {
            return Err(Unmapped::Unsettled { marker: g + 1, line: first_line(g), before: true });
        }
    }
    let mut out: Vec<&str> = Vec::with_capacity(new_lines.len());
    for (j, group) in new.groups.iter().enumerate() {
        out.extend_from_slice(group);
        let (Some(&(old_before, old_after)), Some(&(before, after))) = (old.blanks.get(j), new.blanks.get(j)) else { break };
        if before < old_before || after < old_after {
            return Err(Unmapped::BlankLines { marker: j + 1 });
        }
        // Blank lines new_text adds beside a marker are its own; those old_text has too
        // belong to the lines the marker stands for.
        let keep_before = if j == 0 && open_start { 0 } else { before - old_before };
        let keep_after = if j + 1 == markers && open_end { 0 } else { after - old_after };
        out.extend(std::iter::repeat("").take(keep_before));
        if let Some(Some(lines)) = elided.get(j) {
            out.push(lines);
        }
        out.extend(std::iter::repeat("").take(keep_after));
    }
    Ok(out.join("\n"))
}

/// Work units charged per place of a piece (a descent of the rope's index for its line and
/// two char lookups for its line boundaries), per piece of each reading tried (binary
/// searches), and per match built on top of the text it copies.
const PLACE_UNITS: u64 = 400;
const STEP_UNITS: u64 = 60;
const MATCH_UNITS: u64 = 300;

/// One place of a piece: its char range and the lines it starts and ends on.
#[derive(Clone, Debug)]
struct Place {
    range: Range<usize>,
    first_line: usize,
    last_line: usize,
}

/// Every region of `rope` that the elided `needle` describes (see the module doc), as matches of
/// quality [`QUALITY`] carrying their [`Elided`] lines; empty when `needle` has no marker line
/// or no region qualifies. `exact` is the exact tier's search (it alone says where a search
/// may start: every region starts at a place it gives).
///
/// Cost: one exact search of the document per piece, O(log n) per place found and O(k · log p)
/// per place of the first piece (k pieces, p places), all charged to the work budget
/// ([`work`](super::work)); past it the search stops, empty, and the caller reports the stop.
pub fn find(rope: &Rope, needle: &str, exact: &dyn Fn(&str) -> Vec<Match>, budget: &mut Budget) -> Vec<Match> {
    find_tolerant(rope, needle, exact, &|_, _| Vec::new(), budget)
}

/// [`find`], with each piece that has no exact place searched as a whole needle is: through
/// the fuzzy tiers (`fuzzy`, [`fuzzy::find`](super::fuzzy::find): its lowest tier that finds
/// it). A region one of whose pieces was found that way is a match only when old_text, its
/// markers written as the lines they stand for there, reads as the whole region through one
/// fuzzy tier ([`drift::own_form`]): that tier is the match's quality (`elided+indentation`),
/// and `new_text` is written in the document's form as at a whole needle's fuzzy match
/// (docs/decisions.md, drifted pieces). Cost: [`find`], plus a fuzzy search per such piece and
/// one of old_text over each region.
pub fn find_tolerant(
    rope: &Rope,
    needle: &str,
    exact: &dyn Fn(&str) -> Vec<Match>,
    fuzzy: &dyn Fn(&str, &mut Budget) -> Vec<Match>,
    budget: &mut Budget,
) -> Vec<Match> {
    let Some(pieces) = pieces(needle) else {
        return Vec::new();
    };
    // The exact search gives non-overlapping places: a piece that can overlap itself (`}\n}`)
    // may have places it does not list, so neither "nearest" nor "once" could be told.
    if pieces.iter().any(|p| if p.starts_line && p.ends_line { lines_overlap_themselves(&p.text) } else { overlaps_itself(&p.text) }) {
        return Vec::new();
    }
    let mut drifted = false;
    let mut places: Vec<Vec<Place>> = Vec::with_capacity(pieces.len());
    for piece in &pieces {
        budget.charge(rope.len_bytes() as u64 / BYTES_PER_UNIT + piece.text.len() as u64);
        if budget.exhausted() {
            return Vec::new();
        }
        let mut found = piece_places(rope, piece, exact(&piece.text).into_iter().map(|m| m.range), budget);
        if found.is_empty() {
            let fuzzy_found = fuzzy(&piece.text, budget);
            found = piece_places(rope, piece, fuzzy_found.into_iter().map(|m| m.range), budget);
            drifted = true;
        }
        if budget.exhausted() || found.is_empty() {
            return Vec::new();
        }
        places.push(found);
    }
    let Some(regions) = regions(rope, needle, &places, budget) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(regions.len());
    for (span, mut e) in regions {
        let mut quality = QUALITY;
        if drifted {
            // The pieces as the model wrote them, the lines between as the document has them:
            // the whole region must read so through one tier, or it is no match.
            let region = rope.slice(span.clone()).to_string();
            let Some(own) = e.apply(needle).ok().and_then(|full| drift::own_form(&region, &full, budget)) else {
                return Vec::new();
            };
            quality = MatchQuality { tier: own.quality.tier, gutter: false, elided: true };
            e.own = own.reindent.map(Box::new);
        }
        out.push(Match { range: span, quality, reindent: Some(super::fuzzy::Reindent::elided(e)) });
    }
    out
}

/// The places among `found` (char ranges of `piece`'s text) where its line boundaries allow:
/// after a marker it starts a line, before one it ends a line. Cost: O(log n) per place,
/// charged.
fn piece_places(rope: &Rope, piece: &Piece, found: impl Iterator<Item = Range<usize>>, budget: &mut Budget) -> Vec<Place> {
    let len = rope.len_chars();
    let starts_line = |at: usize| at == 0 || rope.get_char(at - 1) == Some('\n');
    let ends_line = |at: usize| at >= len || rope.get_char(at) == Some('\n');
    // Every tier is line-based: a place has the piece's lines.
    let breaks = piece.text.matches('\n').count();
    let mut out = Vec::new();
    for r in found {
        budget.charge(PLACE_UNITS);
        if budget.exhausted() {
            return Vec::new();
        }
        if (!piece.starts_line || starts_line(r.start)) && (!piece.ends_line || ends_line(r.end)) {
            let first_line = rope.char_to_line(r.start);
            out.push(Place { range: r, first_line, last_line: first_line + breaks });
        }
    }
    out
}

/// The regions the pieces' `places` give (see the module doc), each with the [`Elided`] lines
/// its markers stand for; `None` for no answer (no region, one that is doubtful, regions that
/// overlap, a marker that is the document's own line). Cost: O(k · log p) per place of the
/// first piece, charged, plus the lines copied.
fn regions(rope: &Rope, needle: &str, places: &[Vec<Place>], budget: &mut Budget) -> Option<Vec<(Range<usize>, Elided)>> {
    let lines: Vec<&str> = needle.split('\n').collect();
    let shape = split(&lines)?;
    let open_start = shape.groups.first().is_some_and(|g| g.is_empty());
    let marker_lines: Vec<&str> = lines.iter().copied().filter(|l| is_elision_line(l)).collect();
    let mut readings = Vec::new();
    let mut doubtful = false;
    for start in places.first().map_or(&[][..], Vec::as_slice) {
        budget.charge(STEP_UNITS * 2 * places.len() as u64);
        budget.candidate();
        if budget.exhausted() {
            return None;
        }
        match read(start, places) {
            Read::Region(r) => readings.push(r),
            Read::Twice => doubtful = true,
            Read::Not => {}
        }
    }
    // Regions that overlap (one starts inside another's last piece) cannot be told apart as
    // candidates either.
    let overlapping = readings.windows(2).any(|w| matches!(w, [a, b] if b.span.start < a.span.end));
    if (doubtful && readings.len() == 1) || overlapping {
        return None;
    }
    let mut out = Vec::with_capacity(readings.len());
    for reading in readings {
        // What each marker stands for here: the lines between the pieces around it.
        let mut elided = Vec::with_capacity(shape.blanks.len());
        if open_start {
            elided.push(None);
        }
        for pair in reading.chain.windows(2) {
            if let [a, b] = pair {
                // `a` ends at a line break, `b` starts after one.
                let between = a.range.end + 1..b.range.start;
                elided.push((!between.is_empty()).then(|| rope.slice(between.start..between.end - 1).to_string()));
            }
        }
        elided.resize(shape.blanks.len(), None);
        // A marker standing for a line the document holds there as written, or for one
        // placeholder-like line of the document's own, is that line (content: `... and then
        // it poured.`, a Python `...` body) copied with a slip, not a placeholder: no reading.
        if marker_lines.iter().zip(&elided).any(|(m, e)| is_literal(m, e.as_deref())) {
            return None;
        }
        let copied = needle.len() + elided.iter().flatten().map(String::len).sum::<usize>();
        budget.charge(MATCH_UNITS + copied as u64);
        // Pieces are the non-empty groups: piece n is group n, or n + 1 after a leading marker.
        let e = Elided {
            old_text: needle.to_string(),
            lines: elided,
            unsettled: reading.unsettled.map(|n| n + usize::from(open_start)),
            unsettled_first: reading.unsettled_first.then_some(usize::from(open_start)),
            own: None,
        };
        out.push((reading.span, e));
    }
    Some(out)
}

/// Whether `marker`, a placeholder-like line of old_text standing for the document's `lines`
/// (`None`: no line), is the document's own line rather than a placeholder: the lines are
/// one line that looks like a placeholder too, or one of them is the marker as written and
/// the marker says more than an ellipsis. Cost: O(lines).
fn is_literal(marker: &str, lines: Option<&str>) -> bool {
    let Some(lines) = lines else { return false };
    let mut kept = lines.split('\n').filter(|l| !is_blank(l));
    let (first, second) = (kept.next(), kept.next());
    if let (Some(only), None) = (first, second) {
        if is_elision_line(only) {
            return true;
        }
    }
    marker.chars().any(char::is_alphabetic) && lines.split('\n').any(|l| l.trim() == marker.trim())
}

/// Whether `old_text` has placeholder-like lines and `region` (the document's text it was
/// matched to) holds each of them: as written, or as a placeholder-like line of its own
/// written mostly alike (`... and then it pored.` for `... and then it poured.`). Then they
/// are content, not placeholders (docs/architecture.md#three-way-apply). Cost: O(old_text ·
/// region) on its placeholder-like lines only.
pub fn held_by(old_text: &str, region: &str) -> bool {
    let mut markers = old_text.split('\n').filter(|l| is_elision_line(l)).peekable();
    if markers.peek().is_none() {
        return false;
    }
    let own: Vec<&str> = region.split('\n').filter(|l| is_elision_line(l)).collect();
    markers.all(|m| region.split('\n').any(|l| l.trim() == m.trim()) || own.iter().any(|l| sketch::pairs_alike(l, m) >= 0.6))
}

/// Whether a reading whose piece is at `from` goes on through `rest`: each next piece has a
/// place after the one before, within [`MAX_ELIDED_LINES`]. Cost: O(k · log p).
fn goes_on(from: &Place, rest: &[Vec<Place>]) -> bool {
    let mut prev = from;
    for places in rest {
        let i = places.partition_point(|p| p.range.start <= prev.range.end);
        match places.get(i) {
            Some(next) if next.first_line.saturating_sub(prev.last_line + 1) <= MAX_ELIDED_LINES => prev = next,
            _ => return false,
        }
    }
    true
}

/// Whether two places of a piece of whole lines can overlap: its first lines are also its
/// last lines (`}` / `}`), compared as lines — `} else {` … `}` starts with `}` but not with
/// the line `}` (a border of its lines, by the KMP failure function). Cost: O(text).
fn lines_overlap_themselves(text: &str) -> bool {
    border(&text.split('\n').collect::<Vec<_>>())
}

/// Whether a proper prefix of `items` is also a suffix (the KMP failure function). Cost: O(n)
/// comparisons.
fn border<T: PartialEq>(items: &[T]) -> bool {
    let mut fail = vec![0usize; items.len()];
    let mut k = 0;
    for i in 1..items.len() {
        while k > 0 && items.get(i) != items.get(k) {
            k = fail.get(k - 1).copied().unwrap_or(0);
        }
        if items.get(i) == items.get(k) {
            k += 1;
        }
        if let Some(f) = fail.get_mut(i) {
            *f = k;
        }
    }
    fail.last().is_some_and(|&k| k > 0)
}

/// Whether two places of `text` can overlap: a proper prefix of it is also a suffix (its
/// border, by the KMP failure function). Cost: O(text).
fn overlaps_itself(text: &str) -> bool {
    border(text.as_bytes())
}

/// A reading of the needle: its pieces' places, from a first piece's place on.
struct Reading<'a> {
    chain: Vec<&'a Place>,
    span: Range<usize>,
    /// The first piece (index) with another place soon after its nearest one.
    unsettled: Option<usize>,
    /// The first piece also occurs soon before its place.
    unsettled_first: bool,
}

/// What the reading from one place of the first piece comes to.
enum Read<'a> {
    Region(Reading<'a>),
    /// A region but for holding a piece twice.
    Twice,
    /// No region: a piece missing, a marker standing for too many lines.
    Not,
}

/// The reading whose first piece is at `start`, each next piece at its nearest place after the
/// one before: a region, or why not. Cost: O(k · log p) for k pieces of at most p places.
fn read<'a>(start: &'a Place, all: &'a [Vec<Place>]) -> Read<'a> {
    match reading(start, all) {
        Ok(Some(r)) => Read::Region(r),
        Ok(None) => Read::Not,
        Err(()) => Read::Twice,
    }
}

/// [`read`]: `Ok(None)` for no region, `Err` for one holding a piece twice.
fn reading<'a>(start: &'a Place, all: &'a [Vec<Place>]) -> Result<Option<Reading<'a>>, ()> {
    let mut chain = vec![start];
    let mut unsettled = None;
    for (n, places) in all.iter().enumerate().skip(1) {
        let Some(&prev) = chain.last() else { return Ok(None) };
        // A piece after a marker starts a line after the one the piece before ends.
        let i = places.partition_point(|p| p.range.start <= prev.range.end);
        let Some(next) = places.get(i) else { return Ok(None) };
        let skipped = |p: &Place| p.first_line.saturating_sub(prev.last_line + 1);
        if skipped(next) > MAX_ELIDED_LINES {
            return Ok(None);
        }
        // Another place soon after is a doubt only when the reading through it goes on: the
        // pieces after it each have a place after it (a lone `}` whose next piece lies before
        // the next `}` is settled).
        if unsettled.is_none()
            && places.get(i + 1).is_some_and(|p| skipped(p) <= MAX_ELIDED_LINES && goes_on(p, all.get(n + 1..).unwrap_or_default()))
        {
            unsettled = Some(n);
        }
        chain.push(next);
    }
    let Some(&last) = chain.last() else { return Ok(None) };
    let span = start.range.start..last.range.end;
    // Each piece once in the region: a second place of it inside would make the region
    // another reading of the needle, or the needle a description of a longer region. A place
    // inside another piece's place (`}` in `}\n    x();`) is that piece's text.
    for places in all {
        let from = places.partition_point(|p| p.range.start < span.start);
        let to = places.partition_point(|p| p.range.start < span.end);
        let inside = places.get(from..to).unwrap_or_default();
        let own = inside
            .iter()
            .filter(|p| !chain.iter().any(|c| c.range != p.range && c.range.start <= p.range.start && p.range.end <= c.range.end))
            .count();
        if own != 1 {
            return Err(());
        }
    }
    // The first piece soon before its place too: a reading from there would reach the second
    // piece's place as well.
    let Some(firsts) = all.first() else { return Ok(None) };
    let before = firsts.partition_point(|p| p.range.start < start.range.start).checked_sub(1).and_then(|i| firsts.get(i));
    let unsettled_first = match (before, chain.get(1)) {
        (Some(b), Some(second)) => second.first_line.saturating_sub(b.last_line + 1) <= MAX_ELIDED_LINES,
        _ => false,
    };
    Ok(Some(Reading { chain, span, unsettled, unsettled_first }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::exact::find_exact;

    fn found(doc: &str, needle: &str) -> Vec<String> {
        let rope = Rope::from_str(doc);
        find(&rope, needle, &|n| find_exact(&rope, n, 0), &mut Budget::unlimited())
            .iter()
            .map(|m| rope.slice(m.range.clone()).to_string())
            .collect()
    }

    fn write(doc: &str, needle: &str, new_text: &str) -> Result<String, Unmapped> {
        let rope = Rope::from_str(doc);
        let found = find(&rope, needle, &|n| find_exact(&rope, n, 0), &mut Budget::unlimited());
        let [m] = found.as_slice() else { panic!("{} matches of {needle:?}", found.len()) };
        let r = m.reindent.as_ref().and_then(|r| r.elided.as_ref()).expect("an elided match carries its lines");
        assert_eq!(r.apply(needle).as_deref(), Ok(rope.slice(m.range.clone()).to_string().as_str()), "apply(old_text) is the region");
        let new = r.apply(new_text)?;
        let mut out = doc.to_string();
        let (a, b) = (rope.char_to_byte(m.range.start), rope.char_to_byte(m.range.end));
        out.replace_range(a..b, &new);
        Ok(out)
    }

    const DOC: &str = "fn a() {\n    one();\n    two();\n    three();\n}\n\nfn b() {\n    four();\n}\n";

    #[test]
    fn the_region_runs_from_the_first_piece_to_the_end_of_the_last() {
        assert_eq!(found(DOC, "fn a() {\n    ...\n    three();\n}"), ["fn a() {\n    one();\n    two();\n    three();\n}"]);
        // A fragment start and end are fine; the sides of a marker are whole lines.
        assert_eq!(found(DOC, "a() {\n// ... existing code ...\n    thr"), ["a() {\n    one();\n    two();\n    thr"]);
        // `two();` does not start a line (it follows indentation): not a piece after a marker.
        assert!(found(DOC, "fn a() {\n...\ntwo();").is_empty());
    }

    #[test]
    fn each_marker_style_is_a_marker() {
        for marker in
            ["...", "…", "// ... existing code ...", "# ...", "/* ... */", "<!-- ... -->", "    // rest unchanged", "# rest unchanged"]
        {
            let needle = format!("fn a() {{\n{marker}\n}}\n\nfn b() {{");
            assert_eq!(found(DOC, &needle), ["fn a() {\n    one();\n    two();\n    three();\n}\n\nfn b() {"], "{marker}");
        }
    }

    #[test]
    fn the_kept_lines_stay_and_new_text_is_written_around_them() {
        let out = write(DOC, "fn a() {\n    ...\n    three();\n}", "fn a() {\n    zero();\n    ...\n    three();\n    four();\n}");
        assert_eq!(
            out.unwrap(),
            "fn a() {\n    zero();\n    one();\n    two();\n    three();\n    four();\n}\n\nfn b() {\n    four();\n}\n"
        );
        // Blank lines beside the marker in both texts belong to the elided lines; new ones stay.
        let doc = "head\n\nx\ny\n\ntail\n";
        assert_eq!(write(doc, "head\n\n...\n\ntail", "head\n\n...\n\ntail2").unwrap(), "head\n\nx\ny\n\ntail2\n");
        assert_eq!(write(doc, "head\n...\ntail", "head\n...\n\ntail").unwrap(), "head\n\nx\ny\n\n\ntail\n");
        // A marker that stands for no line at all, and one that new_text's first piece deletes.
        assert_eq!(write("a\nb\nc\n", "a\n...\nb", "A\n...\nB").unwrap(), "A\nB\nc\n");
        assert_eq!(
            write(DOC, "fn a() {\n...\n}", "...\n}").unwrap(),
            "    one();\n    two();\n    three();\n}\n\nfn b() {\n    four();\n}\n"
        );
        // A leading marker stands for nothing in the region.
        assert_eq!(write(DOC, "...\n    four();\n}", "...\n    five();\n}").unwrap(), DOC.replace("four();\n}\n", "five();\n}\n"));
    }

    #[test]
    fn unmappable_new_text_is_refused_never_written() {
        let needle = "fn a() {\n    ...\n}";
        assert_eq!(write(DOC, needle, "fn a() {\n}"), Err(Unmapped::Markers { old: 1, new: 0, line: "...".into() }));
        assert_eq!(write(DOC, needle, "fn a() {\n...\nx\n...\n}"), Err(Unmapped::Markers { old: 1, new: 2, line: "...".into() }));
        assert_eq!(write("a\n\nb\n", "a\n\n...\nb", "a\n...\nb"), Err(Unmapped::BlankLines { marker: 1 }));
        assert_eq!(write(DOC, "...\n    four();\n}", "x\n...\n    four();\n}"), Err(Unmapped::Outside { marker: 1 }));
        assert_eq!(check_new_text(needle, "fn a() {\n    // ... existing code ...\n}"), Ok(()));
        assert_eq!(check_new_text("a\nb", "a\n...\nb"), Ok(()), "old_text without a marker: not this tier's");
    }

    #[test]
    fn an_anchor_that_repeats_inside_the_region_or_a_far_one_is_no_region() {
        // `}` after the marker: the nearest one closes fn a, once in the region.
        assert_eq!(found(DOC, "fn a() {\n...\n}").len(), 1);
        // `    two();` twice between the anchors: the nearest `four` region holds it twice.
        let doc = "start\n    two();\nmid\n    two();\nend\n";
        assert!(found(doc, "start\n...\n    two();\n...\nend").is_empty());
        // Too many lines left out.
        let tail = "y\n".repeat(2 * MAX_ELIDED_LINES);
        let far = format!("start\n{}end\n{tail}", "x\n".repeat(MAX_ELIDED_LINES + 1));
        assert!(found(&far, "start\n...\nend").is_empty());
        let near = format!("start\n{}end\n{tail}", "x\n".repeat(MAX_ELIDED_LINES));
        assert_eq!(found(&near, "start\n...\nend").len(), 1);
        // More than half of a long document: a file-sized sketch.
        let half = format!("start\n{}end\n{}", "x\n".repeat(100), "y\n".repeat(90));
        assert_eq!(found(&half, "start\n...\nend").len(), 1);
    }

    #[test]
    fn an_anchor_that_occurs_again_soon_after_is_settled_only_for_a_change_before_it() {
        // `}` closes fn a and, a few lines later, fn b: a reading through fn b is possible too.
        let needle = "fn a() {\n...\n}";
        // A change before the `}`: every reading writes the same document.
        assert_eq!(write(DOC, needle, "fn a(x: u8) {\n...\n}").unwrap(), DOC.replace("fn a()", "fn a(x: u8)"));
        // A change at it or after it: which `}` is unclear.
        assert_eq!(
            write(DOC, needle, "fn a() {\n...\n}\n// end of a"),
            Err(Unmapped::Unsettled { marker: 1, line: "}".into(), before: false })
        );
        assert_eq!(write(DOC, needle, "fn a() {\n...\n\n}"), Err(Unmapped::Unsettled { marker: 1, line: "}".into(), before: false }));
        // Past the next place, far enough away, the anchor is settled.
        let far = format!("fn a() {{\n    x();\n}}\n{}}}\n", "y\n".repeat(MAX_ELIDED_LINES + 1));
        assert_eq!(write(&far, needle, "fn a() {\n...\n}\n// end of a").unwrap(), far.replacen("}\n", "}\n// end of a\n", 1));
        // The first piece also soon before its place: the reading from there holds it twice, and
        // may be the one meant (its `...` left out a copy of its own first line): no answer.
        assert!(found("start\nbody\nstart\nmore\nend\n", "start\n...\nend").is_empty());
        // Farther before, past what a marker may stand for, it is another region's.
        let doc = format!("start\n{}start\nmore\nend\n", "x\n".repeat(MAX_ELIDED_LINES + 2));
        assert_eq!(found(&doc, "start\n...\nend"), ["start\nmore\nend"]);
        // Among the candidates of a listing, only the markers must map.
        let rope = Rope::from_str(DOC);
        let found = find(&rope, needle, &|n| find_exact(&rope, n, 0), &mut Budget::unlimited());
        assert_eq!(
            unmapped(&found, None, "fn a() {\n...\n}\n// end of a"),
            Some(Unmapped::Unsettled { marker: 1, line: "}".into(), before: false })
        );
        let two = Rope::from_str("fn a() {\n}\nfn a() {\n}\n");
        let found = find(&two, needle, &|n| find_exact(&two, n, 0), &mut Budget::unlimited());
        assert_eq!(found.len(), 2);
        assert_eq!(unmapped(&found, None, "fn a() {\n...\n}\n// end"), None);
        assert_eq!(
            unmapped(&found, Some(0), "fn a() {\n...\n}\n// end"),
            Some(Unmapped::Unsettled { marker: 1, line: "}".into(), before: false })
        );
        assert_eq!(unmapped(&found, Some(1), "fn a() {\n...\n}\n// end"), None);
        assert_eq!(unmapped(&found, None, "fn a() {\n}"), Some(Unmapped::Markers { old: 1, new: 0, line: "...".into() }));
    }

    /// Pieces with drifted indentation are found through the fuzzy tiers; the match writes
    /// new_text in the document's form, and the tier's other places of a piece (`}` at any
    /// depth) are places for the elided rules.
    #[test]
    fn a_piece_found_through_a_tier_is_written_in_the_document_s_form() {
        let doc = "func f() {\n\tx := 1\n\tif a {\n\t\tb()\n\t}\n\treturn x\n}\n";
        let rope = Rope::from_str(doc);
        let tolerant = |n: &str| {
            let fuzzy = |n: &str, b: &mut Budget| crate::matching::fuzzy::find(&rope, n, 0, b);
            find_tolerant(&rope, n, &|n| find_exact(&rope, n, 0), &fuzzy, &mut Budget::unlimited())
        };
        let elided = |m: &Match| m.reindent.as_ref().and_then(|r| r.elided.clone()).expect("an elided match carries its lines");
        let needle = "func f() {\n    x := 1\n    // ...\n    return x\n}";
        let found = tolerant(needle);
        let [m] = found.as_slice() else { panic!("{} matches", found.len()) };
        assert_eq!(m.quality.to_string(), "elided+indentation");
        let e = elided(m);
        assert_eq!(e.apply(needle).as_deref(), Ok(doc.trim_end()), "apply(old_text) is the region");
        assert_eq!(
            e.apply("func f() {\n    x := 2\n    // ...\n    return x\n}").as_deref(),
            Ok(doc.trim_end().replace("x := 1", "x := 2").as_str())
        );
        assert_eq!(
            e.apply("func f() {\n    x := 1\n    // ...\n    log(x)\n    return x\n}").as_deref(),
            Ok(doc.trim_end().replace("\treturn x", "\tlog(x)\n\treturn x").as_str())
        );
        // Found exactly, the pieces need no tier: the plain elided quality.
        assert_eq!(tolerant("func f() {\n\tx := 1\n\t// ...\n\treturn x\n}").first().map(|m| m.quality), Some(QUALITY));
        // `    }` is the `if`'s `\t}` and, soon after, the function's `}` at this tier: a change
        // before it writes the same document either way; one at it is unsettled.
        let needle = "func f() {\n    x := 1\n    // ...\n    }";
        let found = tolerant(needle);
        let [m] = found.as_slice() else { panic!("{} matches", found.len()) };
        let e = elided(m);
        assert_eq!(e.apply("func f() {\n    x := 2\n    // ...\n    }").as_deref(), Ok("func f() {\n\tx := 2\n\tif a {\n\t\tb()\n\t}"));
        assert_eq!(
            e.check("func f() {\n    x := 1\n    // ...\n    c()\n    }"),
            Err(Unmapped::Unsettled { marker: 1, line: "}".into(), before: false })
        );
        // Without the tiers (find), nothing.
        assert!(find(&rope, needle, &|n| find_exact(&rope, n, 0), &mut Budget::unlimited()).is_empty());
    }

    #[test]
    fn a_piece_that_can_overlap_itself_is_not_anchored() {
        assert!(overlaps_itself("}\n}") && overlaps_itself("ab\nab") && overlaps_itself("aa"));
        assert!(!overlaps_itself("    }\n}") && !overlaps_itself("fn a() {") && !overlaps_itself("x"));
        // `x\nx` occurs at lines 1–2 and 2–3: which one the marker follows cannot be told.
        assert!(found("x\nx\nx\ny\nend\n", "x\nx\n...\nend").is_empty());
    }

    #[test]
    fn several_regions_are_several_matches() {
        let doc = "fn a() {\n    one();\n}\nfn a() {\n    two();\n}\n";
        assert_eq!(found(doc, "fn a() {\n...\n}"), ["fn a() {\n    one();\n}", "fn a() {\n    two();\n}"]);
    }

    #[test]
    fn no_marker_no_piece_or_empty_middle_is_not_this_tier() {
        assert!(found(DOC, "fn a() {").is_empty());
        assert!(found(DOC, "...\n\n// ...").is_empty());
        assert!(found(DOC, "fn a() {\n...\n\n...\n}").is_empty());
        assert!(found(DOC, "fn a() {\n    ...rest\n}").is_empty(), "a spread is not a marker");
    }
}
