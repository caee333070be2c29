//! Completing a cluster (see the parent module): where the change and the region's
//! difference overlap, new_text's text is written when the region already made part of the
//! change, read the same way by every alignment; plain data, no wording.

use std::ops::Range;

/// Whether base chars `r` lie between [`Anchors::fixed`] chars of both sides (the tables built
/// on first use, kept in `cache`). Cost: O(b·(t + o)) once, then O(t + o).
pub(super) fn framed(cache: &mut Option<Option<(Anchors, Anchors)>>, base: &str, theirs: &str, ours: &str, r: &Range<usize>) -> bool {
    let tables = cache.get_or_insert_with(|| Some((Anchors::new(base, theirs)?, Anchors::new(base, ours)?)));
    // And no char inside that new_text surely keeps where the region surely does not: the
    // token diff may have cut the cluster elsewhere than the chars do (`, a,x` → `,b,`: the
    // first `,` is new_text's, though its token `, ` was not), and completing would write back
    // what the region removed. Blanks aside: a reflow changes them.
    tables.as_ref().is_some_and(|(t, o)| {
        t.frames(r) && o.frames(r) && !r.clone().any(|i| o.b.get(i).is_some_and(|c| !c.is_whitespace()) && o.fixed(i) && !t.fixed(i))
    })
}

/// A cluster's text as new_text has it, when the region's text lies on a shortest edit path
/// from the base to it.
pub(super) struct Completed {
    pub(super) text: String,
    /// The region already reads as new_text does here.
    pub(super) already: bool,
    /// The region differs from the base here only in what its whitespace runs hold (a reflow).
    pub(super) blank: bool,
}

/// Most cells of one comparison table of [`completes`] (base length × other length, in chars); a larger cluster stays a conflict.
const MAX_COMPLETE_CELLS: usize = 40_000;

/// Most steps of one uniqueness count of [`completes`] (n·m·m).
const MAX_UNIQUE_STEPS: usize = 8_000_000;

/// `ours` when the region already made part of the change here: it wrote what `ours` writes,
/// or it lies on a shortest edit path from `base` to `ours` (d(base, theirs) + d(theirs, ours)
/// = d(base, ours)): every unit it added is in `ours`, every unit it removed is gone from
/// `ours`, so writing `ours` keeps all of its difference and adds only the rest of the change.
/// Counted in chars, read one way only: one longest common subsequence of base and ours, and of base and theirs, or a base unit both remove in every alignment — otherwise
/// (`foo` → `o`: which `o` stays?) the region's difference may be read as lying elsewhere.
/// And, unless the region changed only whitespace (a reflow), counted in tokens ([`units`]), or — for words only — with `ours`
/// holding the region's text whole: `1` → `16` there and `1` → `6` in `ours` is refused.
/// `None` otherwise, when the region equals the base, or past [`MAX_COMPLETE_CELLS`].
/// Cost: O(b·t + b·o + t·o) plus O(b·o·o + b·t·t) for the uniqueness counts.
pub(super) fn completes(base: &str, theirs: &str, ours: &str) -> Option<Completed> {
    if theirs == base {
        return None;
    }
    // Each run of whitespace as one space: a reflow changes runs, never makes or removes one.
    let runs = |s: &str| {
        let mut out = String::new();
        for c in s.chars() {
            if !c.is_whitespace() {
                out.push(c);
            } else if !out.ends_with('\u{0}') {
                out.push('\u{0}');
            }
        }
        out
    };
    let blank = runs(base) == runs(theirs);
    let done = Completed { text: ours.to_string(), already: theirs == ours, blank };
    if theirs == ours {
        // Both sides wrote the same text here (a typo only in old_text, new_text spelt as the
        // document is): however the two are aligned, the result is that text.
        return Some(done);
    }
    // On a char path, read one way.
    let chars = |s: &str| s.chars().collect::<Vec<char>>();
    let (bc, tc, oc) = (chars(base), chars(theirs), chars(ours));
    if !forced(&bc, &tc, &oc) {
        return None;
    }
    if blank {
        // A reflow: whitespace is all it changed.
        return Some(done);
    }
    // And token by token: `1` → `16` there and `1` → `6` in new_text change one number two
    // ways, though `16` lies on a char path from `1` to `6`.
    let (b, t, o) = (units(base), units(theirs), units(ours));
    if on_path(&b, &t, &o) {
        return Some(done);
    }
    // Or, for words only, new_text holds the region's text whole and adds to it (`cmps` there
    // `comps`, new_text `compsNext`): the rename keeps what the document wrote. A number both
    // change is never completed: a value is not a word to extend.
    let numeric = changed_units(&b, &t).chain(changed_units(&b, &o)).any(|u| u.starts_with(|c: char| c.is_ascii_digit()));
    let holds = Lcs::new(&tc, &oc, MAX_COMPLETE_CELLS).is_some_and(|l| l.at(0, 0) as usize == tc.len());
    (!numeric && holds).then_some(done)
}

/// Whether `t` lies on a shortest edit path from `b` to `o` (any alignment).
/// Cost: O(b·t + t·o + b·o).
fn on_path<T: PartialEq>(b: &[T], t: &[T], o: &[T]) -> bool {
    let (Some(bt), Some(to), Some(bo)) =
        (Lcs::new(b, t, MAX_COMPLETE_CELLS), Lcs::new(t, o, MAX_COMPLETE_CELLS), Lcs::new(b, o, MAX_COMPLETE_CELLS))
    else {
        return false;
    };
    bt.indel() + to.indel() == bo.indel()
}

/// The units of `a` that `b` does not hold (as multisets), and of `b` that `a` does not.
/// Cost: O(u log u).
fn changed_units<'s>(a: &[&'s str], b: &[&'s str]) -> impl Iterator<Item = &'s str> {
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    // Equal units are equal text, so the stable sort's order is the unstable one's.
    crate::sort::sort_by(&mut x, Ord::cmp);
    crate::sort::sort_by(&mut y, Ord::cmp);
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while let (Some(p), Some(q)) = (x.get(i), y.get(j)) {
        match p.cmp(q) {
            std::cmp::Ordering::Equal => (i, j) = (i + 1, j + 1),
            std::cmp::Ordering::Less => {
                out.push(*p);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(*q);
                j += 1;
            }
        }
    }
    out.extend(x.get(i..).unwrap_or_default());
    out.extend(y.get(j..).unwrap_or_default());
    out.into_iter()
}

/// `text` cut into the units a token conflict is judged on: runs of letters, digits and `_`
/// (a CJK character alone), runs of spaces and tabs, and any other character alone; combining
/// marks stay with the character before them. Cost: O(n).
pub(super) fn units(text: &str) -> Vec<&str> {
    #[derive(PartialEq, Clone, Copy)]
    enum Kind {
        Word,
        Blank,
        Other,
    }
    let kind = |c: char| {
        if crate::text_rules::is_word_char(c) {
            Kind::Word
        } else if c == ' ' || c == '\t' {
            Kind::Blank
        } else {
            Kind::Other
        }
    };
    let mut out = Vec::new();
    let (mut start, mut prev): (usize, Option<Kind>) = (0, None);
    for (i, c) in text.char_indices() {
        if i > 0 && super::is_mark(c) {
            continue;
        }
        let k = kind(c);
        if prev.is_some() && !(prev == Some(k) && k != Kind::Other) {
            out.push(text.get(start..i).unwrap_or_default());
            start = i;
        }
        prev = Some(k);
    }
    if start < text.len() {
        out.push(text.get(start..).unwrap_or_default());
    }
    out
}

/// Whether `t` lies on a shortest edit path from `b` to `o`, both alignments from `b` being
/// unique. Cost: see [`completes`].
fn forced<T: PartialEq + Clone>(b: &[T], t: &[T], o: &[T]) -> bool {
    let (Some(bt), Some(to), Some(bo)) =
        (Lcs::new(b, t, MAX_COMPLETE_CELLS), Lcs::new(t, o, MAX_COMPLETE_CELLS), Lcs::new(b, o, MAX_COMPLETE_CELLS))
    else {
        return false;
    };
    if bt.indel() + to.indel() != bo.indel() {
        return false;
    }
    if bo.unique(b, o) && bt.unique(b, t) {
        return true;
    }
    // Or a base char both remove in every alignment: the change and the region's difference
    // then overlap however they are read, so no reading applies them side by side.
    let (Some(gone_t), Some(gone_o)) = (unmatchable(b, t, &bt), unmatchable(b, o, &bo)) else { return false };
    gone_t.iter().zip(&gone_o).any(|(x, y)| *x && *y)
}

/// Most cells of one whole-text comparison table of [`Anchors`].
const MAX_ANCHOR_CELLS: usize = 1_000_000;

/// Which base chars every shortest alignment of the whole base with one side matches, to one
/// and the same char: a cluster between two such chars is read the same way by every
/// alignment, so what [`completes`] sees in it is not an artefact of where the diff put the
/// side's text (`= =` → `=,`: which `=` is kept?).
pub(super) struct Anchors {
    b: Vec<char>,
    x: Vec<char>,
    prefix: Lcs,
    suffix: Lcs,
}

impl Anchors {
    /// `None` past [`MAX_ANCHOR_CELLS`]. Cost: O(n·m).
    fn new(base: &str, side: &str) -> Option<Anchors> {
        let (b, x): (Vec<char>, Vec<char>) = (base.chars().collect(), side.chars().collect());
        let (rb, rx): (Vec<char>, Vec<char>) = (b.iter().rev().copied().collect(), x.iter().rev().copied().collect());
        let suffix = Lcs::new(&b, &x, MAX_ANCHOR_CELLS)?;
        let prefix = Lcs::new(&rb, &rx, MAX_ANCHOR_CELLS)?;
        Some(Anchors { b, x, prefix, suffix })
    }

    /// Whether base char `i` is matched, to one char, by every shortest alignment. Cost: O(m).
    fn fixed(&self, i: usize) -> bool {
        let (n, m, best) = (self.b.len(), self.x.len(), self.suffix.at(0, 0));
        let Some(c) = self.b.get(i) else { return false };
        // LCS of b[..i] and x[..j], and of b[i + 1..] and x[j..].
        let pre = |j: usize| self.prefix.at(n - i, m - j);
        let left_out = (0..=m).any(|j| pre(j) + self.suffix.at(i + 1, j) == best);
        let partners = (0..m).filter(|&j| self.x.get(j) == Some(c) && pre(j) + 1 + self.suffix.at(i + 1, j + 1) == best).count();
        !left_out && partners == 1
    }

    /// Whether the chars just before and just after base chars `r` are [`Anchors::fixed`] (the
    /// text's ends count as fixed).
    fn frames(&self, r: &Range<usize>) -> bool {
        (r.start == 0 || self.fixed(r.start - 1)) && (r.end >= self.b.len() || self.fixed(r.end))
    }
}

/// For each element of `a`: whether no longest common subsequence of `a` and `b` matches it
/// (`suffix` is their [`Lcs`]). `None` past [`MAX_COMPLETE_CELLS`]. Cost: O(n·m).
fn unmatchable<T: PartialEq + Clone>(a: &[T], b: &[T], suffix: &Lcs) -> Option<Vec<bool>> {
    let (ra, rb): (Vec<T>, Vec<T>) = (a.iter().rev().cloned().collect(), b.iter().rev().cloned().collect());
    // prefix.at(n - i, m - j): LCS of a[..i] and b[..j].
    let prefix = Lcs::new(&ra, &rb, MAX_COMPLETE_CELLS)?;
    let (n, m, best) = (a.len(), b.len(), suffix.at(0, 0));
    Some((0..n).map(|i| !(0..m).any(|j| a.get(i) == b.get(j) && prefix.at(n - i, m - j) + 1 + suffix.at(i + 1, j + 1) == best)).collect())
}

/// The longest-common-subsequence table of two sequences: `len[i][j]` for the suffixes
/// `a[i..]`, `b[j..]`, flattened.
struct Lcs {
    len: Vec<u32>,
    n: usize,
    m: usize,
}

impl Lcs {
    /// `None` past `cells`. Cost: O(n·m).
    fn new<T: PartialEq>(a: &[T], b: &[T], cells: usize) -> Option<Lcs> {
        let (n, m) = (a.len(), b.len());
        if (n + 1).saturating_mul(m + 1) > cells {
            return None;
        }
        let mut len = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                let v = if a.get(i) == b.get(j) {
                    len.get((i + 1) * (m + 1) + j + 1).map_or(0, |x| x + 1)
                } else {
                    let down = len.get((i + 1) * (m + 1) + j).copied().unwrap_or(0);
                    let right = len.get(i * (m + 1) + j + 1).copied().unwrap_or(0);
                    down.max(right)
                };
                if let Some(cell) = len.get_mut(i * (m + 1) + j) {
                    *cell = v;
                }
            }
        }
        Some(Lcs { len, n, m })
    }

    fn at(&self, i: usize, j: usize) -> u32 {
        self.len.get(i * (self.m + 1) + j).copied().unwrap_or(0)
    }

    /// Units deleted plus inserted by a shortest edit script.
    fn indel(&self) -> usize {
        self.n + self.m - 2 * self.at(0, 0) as usize
    }

    /// Whether exactly one set of matched pairs is a longest common subsequence. Counts the
    /// sets (capped at 2) by whether `a[i]` is matched and to which `b[j']`, disjoint cases.
    /// Cost: O(n·m·m), at most [`MAX_UNIQUE_STEPS`] (past it: `false`).
    fn unique<T: PartialEq>(&self, a: &[T], b: &[T]) -> bool {
        let (n, m) = (self.n, self.m);
        if n.saturating_mul(m).saturating_mul(m) > MAX_UNIQUE_STEPS {
            return false;
        }
        let mut count = vec![1u8; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                let l = self.at(i, j);
                if l == 0 {
                    continue; // one matching: the empty one
                }
                let mut c = 0u8;
                if self.at(i + 1, j) == l {
                    c = c.saturating_add(count.get((i + 1) * (m + 1) + j).copied().unwrap_or(0));
                }
                for k in j..m {
                    if c >= 2 {
                        break;
                    }
                    if a.get(i) == b.get(k) && self.at(i + 1, k + 1) + 1 == l {
                        c = c.saturating_add(count.get((i + 1) * (m + 1) + k + 1).copied().unwrap_or(0));
                    }
                }
                if let Some(cell) = count.get_mut(i * (m + 1) + j) {
                    *cell = c.min(2);
                }
            }
        }
        count.first().copied() == Some(1)
    }
}
