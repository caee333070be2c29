//! Completing a cluster (see the parent module): where the change and the region's
//! difference overlap, new_text's text is written when the region already made part of the
//! change, read the same way by every alignment; plain data, no wording.

use std::ops::Range;

/// Whether base chars `r` lie between [`Anchors::fixed`] chars of both sides (the tables built
/// on first use, kept in `cache`). Cost: O(b·(t + o)) once, then O(t + o).
pub(super) fn framed(cache: &mut Option<Option<(Anchors, Anchors)>>, base: &str, theirs: &str, ours: &str, r: &Range<usize>) -> bool {
    let tables = cache.get_or_insert_with(|| Some((Anchors::new(base, theirs)?, Anchors::new(base, ours)?)));
    tables.as_ref().is_some_and(|(t, o)| t.frames(r) && o.frames(r))
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

/// `ours` when the region's `theirs` lies on a shortest edit path from `base` to `ours`
/// (d(base, theirs) + d(theirs, ours) = d(base, ours), d counting chars deleted plus inserted): every unit the region added is in `ours` and every unit it removed is gone from
/// `ours`, so writing `ours` keeps all of the region's difference and adds only the rest of
/// the change. The alignment must be the only one (one longest common subsequence of base
/// and ours, and of base and theirs), or both must remove one base char in every alignment:
/// otherwise (`foo` → `o`: which `o` stays?) the region's difference may be read as lying
/// elsewhere and the change as not touching it, which gives another text. In chars: a token replaced by a longer one (`(` → `( `) is no
/// path through its deletion. `None` otherwise, when the
/// region equals the base, or past [`MAX_COMPLETE_CELLS`].
/// Cost: O(b·t + b·o + t·o) plus O(b·o·o + b·t·t) for the uniqueness counts.
pub(super) fn completes(base: &str, theirs: &str, ours: &str) -> Option<Completed> {
    if theirs == base {
        return None;
    }
    let chars = |s: &str| s.chars().collect::<Vec<char>>();
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
    forced(&chars(base), &chars(theirs), &chars(ours)).then(|| Completed { text: ours.to_string(), already: theirs == ours, blank })
}

/// Whether `t` lies on a shortest edit path from `b` to `o`, both alignments from `b` being
/// unique. Cost: see [`completes`].
fn forced<T: PartialEq + Clone>(b: &[T], t: &[T], o: &[T]) -> bool {
    let (Some(bt), Some(to), Some(bo)) = (Lcs::new(b, t, MAX_COMPLETE_CELLS), Lcs::new(t, o, MAX_COMPLETE_CELLS), Lcs::new(b, o, MAX_COMPLETE_CELLS)) else { return false };
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
    Some(
        (0..n)
            .map(|i| !(0..m).any(|j| a.get(i) == b.get(j) && prefix.at(n - i, m - j) + 1 + suffix.at(i + 1, j + 1) == best))
            .collect(),
    )
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
