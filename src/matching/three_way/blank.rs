//! A cluster whose region differs from the base only in blanks (a reflow: the document wraps a
//! paragraph the model sent as one line, or the other way round) applies the change and keeps
//! the document's line breaks: docs/decisions.md#offered-candidates-are-pickable. Plain data,
//! no wording.

use std::ops::Range;

use crate::text_rules::myers_ops;

/// Most chars (all three texts) [`apart`] diffs: a cluster is a few tokens; a larger one stays
/// a conflict.
const MAX_APART_CHARS: usize = 4_000;

/// A char hunk: base chars `base` replaced by `text`.
struct CharHunk {
    base: Range<usize>,
    text: String,
}

/// Most chars of the equal text on each side of a cluster [`apart_within`] reads with it.
const CONTEXT_CHARS: usize = 256;

/// [`apart`] for a cluster read with the equal text around it (`around`: the text before and
/// after it, the same in all three versions), so a blank the region deleted or the change
/// inserted can be seen sliding out of the cluster and back across the other side's hunk
/// (`⏎⏎` with one `⏎` deleted and `a` inserted between them reads `a⏎` or `⏎a`). At most
/// [`CONTEXT_CHARS`] of each side are read; `None` also when the result no longer ends in the
/// same context. Cost: as [`apart`] on the cluster plus up to 2·[`CONTEXT_CHARS`] chars.
pub(super) fn apart_within(around: &(String, String), base: &str, theirs: &str, ours: &str) -> Option<String> {
    let before: String = {
        let n = around.0.chars().count();
        around.0.chars().skip(n.saturating_sub(CONTEXT_CHARS)).collect()
    };
    let after: String = around.1.chars().take(CONTEXT_CHARS).collect();
    let with = |s: &str| format!("{before}{s}{after}");
    let both = apart(&with(base), &with(theirs), &with(ours))?;
    both.strip_prefix(&before)?.strip_suffix(&after).map(String::from)
}

/// `ours`' change and `theirs`' blank difference (spaces, tabs, line breaks: the only
/// difference between `base` and `theirs`) applied together, when no char of one hunk lies
/// inside the other's: `morning·` → `morningNext·` with the region's `morning⏎` gives
/// `morningNext⏎`. A hunk of the change that meets one of the region's holds no blank, so it
/// cannot slide over the region's: one reading. `None` when the region differs in more than
/// blanks, a hunk of the change overlaps one of the region's or meets it holding blanks, both
/// insert at one point, or past [`MAX_APART_CHARS`]. Cost: two char diffs, O((b + t + o)·D).
pub(super) fn apart(base: &str, theirs: &str, ours: &str) -> Option<String> {
    let blank = |c: &char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let words = |s: &str| s.chars().filter(|c| !blank(c)).collect::<String>();
    if theirs == base || words(theirs) != words(base) {
        return None;
    }
    let b: Vec<char> = base.chars().collect();
    if b.len() + theirs.chars().count() + ours.chars().count() > MAX_APART_CHARS {
        return None;
    }
    let drift = char_hunks(&b, theirs);
    let intended = char_hunks(&b, ours);
    for i in &intended {
        for d in &drift {
            let overlap = match (i.base.is_empty(), d.base.is_empty()) {
                (true, true) => i.base.start == d.base.start,
                (true, false) => d.base.start < i.base.start && i.base.start < d.base.end,
                (false, true) => i.base.start < d.base.start && d.base.start < i.base.end,
                (false, false) => i.base.start < d.base.end && d.base.start < i.base.end,
            };
            // A change that meets the region's blanks holds none itself: it cannot slide
            // over them, so it has one place (`⏎` → `a` beside an added `⏎` has two).
            let meets = i.base.start == d.base.end || d.base.start == i.base.end;
            let blanks = i.text.chars().any(|c| blank(&c)) || b.get(i.base.clone()).unwrap_or_default().iter().any(blank);
            // Either side's pure insertion or deletion may slide along equal chars across the
            // other's hunk: then it has two places and two texts.
            if overlap || (meets && blanks) || slides_past(&b, d, i) || slides_past(&b, i, d) {
                return None;
            }
        }
    }
    // Base order; at one start an insertion first (it lies before the run the other replaces).
    let mut all: Vec<&CharHunk> = intended.iter().chain(&drift).collect();
    crate::sort::sort_by_key(&mut all, |h| (h.base.start, h.base.end));
    let mut out = String::new();
    let mut at = 0;
    for h in all {
        out.extend(b.get(at..h.base.start)?);
        out.push_str(&h.text);
        at = h.base.end;
    }
    out.extend(b.get(at..)?);
    Some(out)
}

/// Whether the pure insertion or deletion `d` (the region's or the change's) could lie on either
/// side of the other's hunk `i`: equal chars around it let the diff place it anywhere along a
/// run (one space of `··` deleted, `a` inserted between them, reads as `·a` or as `a·`; `a··(`
/// inserted after `··(` whose blanks the region deleted reads as `··(a` before them too).
/// Cost: O(run length).
fn slides_past(b: &[char], d: &CharHunk, i: &CharHunk) -> bool {
    let (lo, hi) = if d.text.is_empty() {
        // A deletion of b[s..e] moves right while b[s] == b[e], left while b[s-1] == b[e-1].
        let (mut s, mut e) = (d.base.start, d.base.end);
        while s > 0 && b.get(s - 1).is_some() && b.get(s - 1) == b.get(e - 1) {
            s -= 1;
            e -= 1;
        }
        let lo = s;
        let (mut s, mut e) = (d.base.start, d.base.end);
        while b.get(e).is_some() && b.get(s) == b.get(e) {
            s += 1;
            e += 1;
        }
        (lo, e)
    } else if d.base.is_empty() {
        // An insertion of t at p moves right while b[p] == t[0] (t rotates), left likewise.
        let t: Vec<char> = d.text.chars().collect();
        let mut r = t.clone();
        let mut p = d.base.start;
        while !r.is_empty() && b.get(p).is_some() && b.get(p) == r.first() {
            r.rotate_left(1);
            p += 1;
        }
        let hi = p;
        let mut r = t;
        let mut p = d.base.start;
        while !r.is_empty() && p > 0 && b.get(p - 1).is_some() && b.get(p - 1) == r.last() {
            r.rotate_right(1);
            p -= 1;
        }
        (p, hi)
    } else {
        return false;
    };
    let len = d.base.len();
    lo + len <= i.base.start && i.base.end + len <= hi
}

/// The non-equal runs of a char diff of `base` → `side`. Cost: O((b + s)·D).
fn char_hunks(base: &[char], side: &str) -> Vec<CharHunk> {
    let s: Vec<char> = side.chars().collect();
    let mut out: Vec<CharHunk> = Vec::new();
    let mut open = false;
    for op in myers_ops(base, &s) {
        let (tag, o, n) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            open &= o.is_empty();
            continue;
        }
        let text: String = s.get(n).unwrap_or_default().iter().collect();
        match out.last_mut() {
            Some(last) if open => {
                last.base.end = o.end;
                last.text.push_str(&text);
            }
            _ => out.push(CharHunk { base: o, text }),
        }
        open = true;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{apart, apart_within};

    #[test]
    fn a_change_next_to_a_reflowed_break_keeps_the_break() {
        assert_eq!(apart("morning across", "morning\nacross", "morningNext across").as_deref(), Some("morningNext\nacross"));
        assert_eq!(apart("morning\nacross", "morning across", "morningNext\nacross").as_deref(), Some("morningNext across"));
        assert_eq!(apart("one two three", "one two\nthree", "one 2 three").as_deref(), Some("one 2\nthree"));
        // More than blanks differ, or the change lies inside the region's blank run: no reading.
        assert_eq!(apart("a b", "a c", "a d"), None);
        assert_eq!(apart("a  b", "a\nb", "a x b"), None);
        // A change of blanks beside the region's: two readings (`a⏎` or `⏎a`).
        assert_eq!(apart("\n", "\n\n", "a"), None);
        // One of two blanks deleted, a word inserted between them: `·a` or `a·`.
        assert_eq!(apart("  ", " ", " a "), None);
        assert_eq!(apart("x  y", "x y", "x a y"), None);
        assert_eq!(apart("x  y", "x   y", "x a y"), None);
        // The change's insertion slides across the region's deletion: `··(a` inserted before the
        // blanks the region deleted, or `a··(` after them — `··(a(` or `(a··(`.
        assert_eq!(apart("  (", "(", "  (a  ("), None);
    }

    #[test]
    fn a_blank_deleted_beside_the_cluster_is_read_with_the_text_around_it() {
        // Alone, the cluster `⏎` → `` (region) and `⏎` → `a⏎` (change) has one reading; with
        // the `⏎` before it the region's deletion may be either break, so `a` lies on either
        // side of the one left.
        let around = ("\n".to_string(), String::new());
        assert_eq!(apart("\n", "", "a\n").as_deref(), Some("a"));
        assert_eq!(apart_within(&around, "\n", "", "a\n"), None);
        // A reflow with context that does not slide still merges.
        let around = ("x ".to_string(), " y".to_string());
        assert_eq!(
            apart_within(&around, "morning across", "morning\nacross", "morningNext across").as_deref(),
            Some("morningNext\nacross")
        );
    }
}
