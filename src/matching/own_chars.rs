//! The document's own characters in a fuzzy match's `new_text` (docs/architecture.md#matching).
//!
//! A fuzzy tier finds `old_text` while looking through characters the document writes otherwise:
//! trailing whitespace, look-alikes (a curly `’` for `'`, an en dash, NBSP), the width of a
//! whitespace run, zero-width characters. Written as given, `new_text` would bring the model's
//! spelling into every line it did not mean to change. So each such difference is recorded as a
//! [`Swap`] (a range of `old_text`, the document's text there), and where `new_text` keeps that
//! part of `old_text` unchanged the document's text is written instead. A character the model
//! changed or added is never touched: only parts of `old_text` that `new_text` carries over
//! (by a char diff) are swapped.

use std::ops::Range;

use similar::algorithms::{myers, Capture, Compact, Replace};
use similar::DiffOp;

use super::normalize::{normalize_line, Tier};
use super::work::Budget;

/// Above this many chars of `old_text` + `new_text` the diff is by lines only (a char diff is
/// O((n + m) · d)): swaps inside changed lines are then left as the model wrote them.
const CHAR_DIFF_LIMIT: usize = 8_000;

/// The ops of `similar::capture_diff_slices(Algorithm::Myers, old, new)`: the same hooks
/// (compacted, replaces joined), so the same ops, but Myers' alone — the algorithm is a run-time
/// value there, which links patience and LCS (and a sort of their own) for each element type
/// (docs/performance.md#wasm-size). Cost: O((old + new)·D) for D edits.
fn myers_compacted_ops<T: PartialEq>(old: &[T], new: &[T]) -> Vec<DiffOp> {
    let mut hook = Compact::new(Replace::new(Capture::new()), old, new);
    match myers::diff(&mut hook, old, 0..old.len(), new, 0..new.len()) {
        Ok(()) => hook.into_inner().into_inner().into_ops(),
        Err(never) => match never {},
    }
}

/// One place where the document writes a part of `old_text` otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swap {
    /// Char range in `old_text` (empty: the document has extra chars there, e.g. trailing
    /// whitespace `old_text` lacks).
    pub old: Range<usize>,
    /// The document's text for it.
    pub doc: String,
}

/// The swaps between `old_text` (`needle`) and the document text it matched (`doc`, the same
/// number of lines) under `tier`, or `None` when a line pair does not normalise alike (then
/// nothing is swapped). Leading whitespace at tiers that ignore indentation is left to
/// re-indentation. Cost: O(len of both), charged to `budget`.
pub fn swaps(needle: &str, doc: &str, tier: Tier, budget: &mut Budget) -> Option<Vec<Swap>> {
    let mut out = Vec::new();
    let (mut n_lines, mut d_lines) = (needle.split('\n'), doc.split('\n'));
    let mut base = 0usize;
    loop {
        match (n_lines.next(), d_lines.next()) {
            (Some(n), Some(d)) => {
                line_swaps(n, d, tier, base, &mut out, budget)?;
                base += n.chars().count() + 1;
            }
            (None, None) => return Some(out),
            _ => return None,
        }
    }
}

fn line_swaps(needle: &str, doc: &str, tier: Tier, base: usize, out: &mut Vec<Swap>, budget: &mut Budget) -> Option<()> {
    let (a, b) = (normalize_line(needle, tier, budget), normalize_line(doc, tier, budget));
    if a.text != b.text {
        return None;
    }
    let (nc, dc): (Vec<char>, Vec<char>) = (needle.chars().collect(), doc.chars().collect());
    let mut push = |n: Range<usize>, d: Range<usize>| {
        let (Some(ns), Some(ds)) = (nc.get(n.clone()), dc.get(d)) else { return };
        if ns != ds {
            out.push(Swap { old: base + n.start..base + n.end, doc: ds.iter().collect() });
        }
    };
    if a.is_empty() {
        // A blank line: its whitespace is the document's.
        push(0..nc.len(), 0..dc.len());
        return Some(());
    }
    let (mut n_prev, mut d_prev) = (a.start_of(0), b.start_of(0));
    let mut k = 0usize;
    while let (Some(&(ns, mut ne)), Some(&(ds, mut de))) = (a.spans.get(k), b.spans.get(k)) {
        push(n_prev..ns, d_prev..ds); // dropped chars between (zero-width)
        k += 1;
        // One group: normalised chars that share an original char on either side (`…` is
        // three dots, a collapsed run one space).
        while let (Some(&(ns2, ne2)), Some(&(ds2, de2))) = (a.spans.get(k), b.spans.get(k)) {
            if ns2 >= ne && ds2 >= de {
                break;
            }
            ne = ne.max(ne2);
            de = de.max(de2);
            k += 1;
        }
        push(ns..ne, ds..de);
        (n_prev, d_prev) = (ne, de);
    }
    push(n_prev..nc.len(), d_prev..dc.len()); // trailing whitespace
    Some(())
}

/// `new_text` with the swaps applied where it carries the swapped part of `old_text` over
/// unchanged. Cost: a char diff of `old_text` and `new_text` (O((n + m) · d)) when together they
/// are under [`CHAR_DIFF_LIMIT`] chars, else a line diff.
pub fn apply(old_text: &str, new_text: &str, swaps: &[Swap]) -> String {
    if swaps.is_empty() {
        return new_text.to_string();
    }
    let old: Vec<char> = old_text.chars().collect();
    let new: Vec<char> = new_text.chars().collect();
    let aligned = align(&old, &new);
    let at = |i: usize| aligned.get(i).copied().flatten();
    // (range in new_text, text) in order; swaps are disjoint and the alignment is monotonic.
    let mut edits: Vec<(Range<usize>, &str)> = Vec::new();
    for s in swaps {
        let r = &s.old;
        if r.is_empty() {
            let left = r.start.checked_sub(1).map(at);
            let right = (r.start < old.len()).then(|| at(r.start));
            let line_end = old.get(r.start).map_or(true, |&c| c == '\n');
            if let (true, Some(Some(l))) = (line_end, left) {
                // Trailing whitespace: at the end of the line the kept char is on, in new_text,
                // when that line still ends where old_text's did.
                let end = new.iter().skip(l + 1).position(|&c| c == '\n').map_or(new.len(), |d| l + 1 + d);
                if right.is_none() || right == Some(Some(end)) {
                    edits.push((end..end, &s.doc));
                }
                continue;
            }
            let pos = match (left, right) {
                (Some(Some(l)), Some(Some(rr))) if rr == l + 1 => l + 1,
                (Some(Some(l)), None) => l + 1,
                (None, Some(Some(rr))) => rr,
                _ => continue,
            };
            edits.push((pos..pos, &s.doc));
        } else {
            let Some(first) = at(r.start) else { continue };
            if (r.start..r.end).enumerate().all(|(t, i)| at(i) == Some(first + t)) {
                edits.push((first..first + r.len(), &s.doc));
            }
        }
    }
    let mut out = String::with_capacity(new_text.len() + 16);
    let mut next = 0usize;
    for (r, text) in edits {
        if r.start < next {
            continue; // cannot happen for disjoint swaps; never write twice
        }
        out.extend(new.get(next..r.start).unwrap_or_default());
        out.push_str(text);
        next = r.end;
    }
    out.extend(new.get(next..).unwrap_or_default());
    out
}

/// For each char of `old`, the index of the char of `new` it is carried over as, if any.
fn align(old: &[char], new: &[char]) -> Vec<Option<usize>> {
    let mut aligned = vec![None; old.len()];
    let mut mark = |o: usize, n: usize, len: usize| {
        for t in 0..len {
            if let Some(slot) = aligned.get_mut(o + t) {
                *slot = Some(n + t);
            }
        }
    };
    if old.len() + new.len() <= CHAR_DIFF_LIMIT {
        for op in myers_compacted_ops(old, new) {
            if let DiffOp::Equal { old_index, new_index, len } = op {
                mark(old_index, new_index, len);
            }
        }
        return aligned;
    }
    // Lines, each with its line break: an unchanged line is carried over whole.
    let lines = |cs: &[char]| -> (Vec<String>, Vec<usize>) {
        let (mut ls, mut starts, mut cur, mut start) = (Vec::new(), Vec::new(), String::new(), 0usize);
        for (i, &c) in cs.iter().enumerate() {
            cur.push(c);
            if c == '\n' {
                ls.push(std::mem::take(&mut cur));
                starts.push(start);
                start = i + 1;
            }
        }
        ls.push(cur);
        starts.push(start);
        (ls, starts)
    };
    let ((ol, os), (nl, ns)) = (lines(old), lines(new));
    for op in myers_compacted_ops(&ol, &nl) {
        if let DiffOp::Equal { old_index, new_index, len } = op {
            for t in 0..len {
                let (Some(&o), Some(&n), Some(l)) = (os.get(old_index + t), ns.get(new_index + t), ol.get(old_index + t)) else { continue };
                mark(o, n, l.chars().count());
            }
        }
    }
    aligned
}

#[cfg(test)]
#[cfg(not(target_arch = "wasm32"))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn restyle(needle: &str, doc: &str, tier: Tier, new_text: &str) -> String {
        let s = swaps(needle, doc, tier, &mut Budget::unlimited()).expect("the texts normalise alike");
        apply(needle, new_text, &s)
    }

    #[test]
    fn unchanged_lookalikes_keep_the_documents_characters() {
        let doc = "it’s a “quote” — here";
        let needle = "it's a \"quote\" - here";
        assert_eq!(restyle(needle, doc, Tier::Unicode, "it's a \"quote\" - there"), "it’s a “quote” — there");
        // The model's own new quote stays the model's.
        assert_eq!(restyle(needle, doc, Tier::Unicode, "it's a \"quote\" - here, 'new'"), "it’s a “quote” — here, 'new'");
    }

    #[test]
    fn ellipsis_nbsp_and_collapsed_runs() {
        let doc = "wait\u{2026} a\u{A0}b   c";
        let needle = "wait... a b c";
        assert_eq!(restyle(needle, doc, Tier::Whitespace, "wait... a b d"), "wait\u{2026} a\u{A0}b   d");
    }

    #[test]
    fn trailing_whitespace_stays_on_kept_lines_and_goes_with_rewritten_ones() {
        let doc = "alpha   \nbeta\t";
        assert_eq!(restyle("alpha\nbeta", doc, Tier::TrailingWhitespace, "ALPHA\nBETA"), "ALPHA\nBETA");
        assert_eq!(restyle("alpha\nbeta", doc, Tier::TrailingWhitespace, "alpha\nbeta2"), "alpha   \nbeta2\t");
        assert_eq!(restyle("alpha\nbeta", doc, Tier::TrailingWhitespace, "alpha\nbeta\ngamma"), "alpha   \nbeta\t\ngamma");
        // Whitespace the model added that the document lacks is dropped where the line is kept.
        assert_eq!(restyle("x  \ny", "x\ny", Tier::TrailingWhitespace, "x  \nz"), "x\nz");
    }

    #[test]
    fn lines_that_do_not_normalise_alike_give_no_swaps() {
        assert_eq!(swaps("a\nb", "a\nc", Tier::Unicode, &mut Budget::unlimited()), None);
        assert_eq!(swaps("a\nb", "a", Tier::Unicode, &mut Budget::unlimited()), None);
    }

    fn lookalike() -> impl Strategy<Value = (char, char)> {
        prop::sample::select(vec![('\'', '’'), ('"', '“'), ('-', '–'), (' ', '\u{A0}'), ('x', 'x'), ('y', 'y'), (' ', ' ')])
    }

    proptest! {
        /// The model's own characters are written as it wrote them; every part it kept is the
        /// document's. (Inserted and replacing chars are capitals, which no needle char is, so
        /// which chars the model changed is known without a diff.)
        #[test]
        fn the_models_changes_are_never_swapped(
            pairs in prop::collection::vec(lookalike(), 1..30),
            at in 0usize..30,
            inserted in "[A-Z]{1,6}",
            replace in any::<bool>(),
        ) {
            let needle: String = pairs.iter().map(|p| p.0).collect();
            let doc: String = pairs.iter().map(|p| p.1).collect();
            prop_assume!(!needle.trim().is_empty() && needle.trim() == needle);
            let s = swaps(&needle, &doc, Tier::Unicode, &mut Budget::unlimited());
            prop_assert!(s.is_some());
            let s = s.unwrap_or_default();
            // Unchanged new_text: the document's text back.
            prop_assert_eq!(apply(&needle, &needle, &s), doc.clone());
            let at = at.min(pairs.len() - 1);
            let skip = usize::from(replace);
            let new_text: String = pairs[..at].iter().map(|p| p.0).chain(inserted.chars()).chain(pairs[at + skip..].iter().map(|p| p.0)).collect();
            let want: String = pairs[..at].iter().map(|p| p.1).chain(inserted.chars()).chain(pairs[at + skip..].iter().map(|p| p.1)).collect();
            prop_assert_eq!(apply(&needle, &new_text, &s), want);
        }
    }
}
