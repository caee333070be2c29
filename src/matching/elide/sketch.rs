//! A lazy sketch against a whole old_text (docs/architecture.md#matching): old_text copied in
//! full, new_text with placeholder lines (`// ... existing code ...`) for the stretches it
//! leaves as they are. A placeholder line never reaches a document: [`expand`] writes each
//! one as the lines of old_text it stands for, or says why it cannot tell which those are.
//!
//! # How
//!
//! A line of new_text is a placeholder when it looks like one ([`is_elision_line`]) and
//! old_text holds no such line (a line old_text holds is content, wherever it is). The lines
//! of old_text and new_text are diffed (Myers; a placeholder equals nothing). The lines both
//! hold are anchors. Each run of changed lines holding one placeholder stands between two
//! anchors (or an end): the placeholder is the old lines there, less those that the new lines
//! beside it rewrite — a new line right after a placeholder rewrites the old line it lines up
//! with when it starts with the same word and keeps at least half of its words
//! (`return v;` → `return v ?? null;`), and is an added line when it starts with another word
//! and keeps less than half; anything between is not guessed. Refused as well: two
//! placeholders with no anchor between them, and a placeholder whose lines hold a copy of the
//! anchor next to it (another reading of the sketch would take that copy).
//!
//! # Bounds
//!
//! O(old + new) to split and intern the lines; the diff runs on at most [`MAX_SKETCH_LINES`]
//! lines (both sides, common prefix and suffix trimmed), O(lines · D); a larger sketch is
//! refused.

use std::collections::HashMap;

use super::markers::is_elision_line;
use super::Unmapped;
use crate::text_rules::myers_ops;

/// Most lines (old + new, common prefix and suffix trimmed) one sketch is diffed on.
pub const MAX_SKETCH_LINES: usize = 6_000;

/// `new_text` with each of its placeholder lines (those `old_text` does not hold) replaced by
/// the lines of `old_text` it stands for; `Ok(None)` when `new_text` has no such line.
/// Cost: O(old + new) plus one line diff of at most [`MAX_SKETCH_LINES`] lines.
pub fn expand(old_text: &str, new_text: &str) -> Result<Option<String>, Unmapped> {
    let old: Vec<&str> = old_text.split('\n').collect();
    let new: Vec<&str> = new_text.split('\n').collect();
    let held: std::collections::HashSet<&str> = old.iter().map(|l| l.trim()).collect();
    let is_marker = |l: &str| is_elision_line(l) && !held.contains(l.trim());
    let markers: Vec<usize> = (0..new.len()).filter(|&i| new.get(i).is_some_and(|l| is_marker(l))).collect();
    let Some(&first) = markers.first() else { return Ok(None) };
    let refuse = |at: usize, near: Option<&str>| {
        let marker = markers.iter().position(|&m| m >= at).map_or(markers.len(), |p| p + 1);
        let line = new.get(at).filter(|l| is_marker(l)).or_else(|| markers.get(marker.saturating_sub(1)).and_then(|&m| new.get(m)));
        Unmapped::Sketch { marker, line: line.map_or(String::new(), |l| l.trim().to_string()), near: near.map(|n| n.trim().to_string()) }
    };
    // Lines as ids; each placeholder its own id, equal to nothing.
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let oi: Vec<u32> = old.iter().map(|&l| { let next = ids.len() as u32; *ids.entry(l).or_insert(next) }).collect();
    let ni: Vec<u32> = new
        .iter()
        .enumerate()
        .map(|(i, &l)| if markers.contains(&i) { u32::MAX - i as u32 } else { let next = ids.len() as u32; *ids.entry(l).or_insert(next) })
        .collect();
    let prefix = oi.iter().zip(&ni).take_while(|(a, b)| a == b).count().min(first);
    let suffix = oi.get(prefix..).unwrap_or_default().iter().rev().zip(ni.get(prefix..).unwrap_or_default().iter().rev()).take_while(|(a, b)| a == b).count();
    let (oe, ne) = (oi.len() - suffix, ni.len() - suffix);
    if (oe - prefix) + (ne - prefix) > MAX_SKETCH_LINES {
        return Err(refuse(first, None));
    }
    // Runs of the diff: (equal, old range, new range), in order, absolute.
    let mut runs: Vec<(bool, std::ops::Range<usize>, std::ops::Range<usize>)> = vec![(true, 0..prefix, 0..prefix)];
    for op in myers_ops(oi.get(prefix..oe).unwrap_or_default(), ni.get(prefix..ne).unwrap_or_default()) {
        let (tag, o, n) = op.as_tag_tuple();
        let equal = tag == similar::DiffTag::Equal;
        let (o, n) = (o.start + prefix..o.end + prefix, n.start + prefix..n.end + prefix);
        match runs.last_mut() {
            Some(last) if last.0 == equal => {
                last.1.end = o.end;
                last.2.end = n.end;
            }
            _ => runs.push((equal, o, n)),
        }
    }
    runs.push((true, oe..oi.len(), ne..ni.len()));
    let mut out: Vec<&str> = Vec::with_capacity(old.len() + new.len());
    for (k, (equal, o, n)) in runs.iter().enumerate() {
        if *equal {
            out.extend(new.get(n.clone()).unwrap_or_default());
            continue;
        }
        let inside: Vec<usize> = markers.iter().copied().filter(|m| n.contains(m)).collect();
        let [m] = inside.as_slice() else {
            if let Some(&second) = inside.get(1) {
                return Err(refuse(second, None));
            }
            out.extend(new.get(n.clone()).unwrap_or_default());
            continue;
        };
        let (before, after) = (new.get(n.start..*m).unwrap_or_default(), new.get(m + 1..n.end).unwrap_or_default());
        let (mut lo, mut hi) = (o.start, o.end);
        // New lines before the placeholder rewrite the old lines they line up with, then add.
        let mut rest = before;
        while let Some((x, tail)) = rest.split_first() {
            if lo < hi && rewrites(line(&old, lo), x) {
                lo += 1;
                rest = tail;
            } else {
                break;
            }
        }
        if let Some(x) = rest.iter().find(|x| lo < hi && !adds(line(&old, lo), x)) {
            return Err(refuse(*m, Some(x)));
        }
        let mut rest = after;
        while let Some((y, head)) = rest.split_last() {
            if hi > lo && rewrites(line(&old, hi - 1), y) {
                hi -= 1;
                rest = head;
            } else {
                break;
            }
        }
        if let Some(y) = rest.iter().find(|y| hi > lo && !adds(line(&old, hi - 1), y)) {
            return Err(refuse(*m, Some(y)));
        }
        let stands_for = old.get(lo..hi).unwrap_or_default();
        // The anchors beside the run: a copy of one among the lines the placeholder stands
        // for would be another reading of the sketch.
        let prev = runs.get(k.wrapping_sub(1)).and_then(|r| old.get(r.1.clone())).and_then(|l| l.iter().rev().find(|l| !l.trim().is_empty()));
        let next = runs.get(k + 1).and_then(|r| old.get(r.1.clone())).and_then(|l| l.iter().find(|l| !l.trim().is_empty()));
        if let Some(anchor) = [prev, next].into_iter().flatten().find(|a| stands_for.contains(a)) {
            return Err(refuse(*m, Some(anchor)));
        }
        out.extend(before);
        out.extend(stands_for);
        out.extend(after);
    }
    Ok(Some(out.join("\n")))
}

/// Line `i` of `v` (empty past the end: ranges come from a diff over `v`).
fn line<'a>(v: &[&'a str], i: usize) -> &'a str {
    v.get(i).copied().unwrap_or_default()
}

/// The words of a line: runs of letters, digits and `_` of two chars or more (one-letter names
/// say little about which line it is). Cost: O(line).
fn words(line: &str) -> Vec<&str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| w.chars().count() > 1).collect()
}

/// The head of a line: its leading name path (`return`, `const`, `this.map.set`,
/// `self.items`), or its first char when it starts with no name (`}`). Cost: O(line).
fn head(line: &str) -> &str {
    let t = line.trim_start();
    let name = |c: char| c.is_alphanumeric() || c == '_';
    let mut end = 0;
    let mut rest = t;
    loop {
        let n = rest.find(|c: char| !name(c)).unwrap_or(rest.len());
        if n == 0 {
            break;
        }
        end += n;
        rest = rest.get(n..).unwrap_or_default();
        let sep = ["::", ".", "->"].into_iter().find(|s| rest.strip_prefix(s).is_some_and(|r| r.starts_with(name)));
        let Some(sep) = sep else { break };
        end += sep.len();
        rest = rest.get(sep.len()..).unwrap_or_default();
    }
    let end = if end == 0 { t.chars().next().map_or(0, char::len_utf8) } else { end };
    t.get(..end).unwrap_or_default()
}

/// Dice's coefficient of the char pairs of two trimmed lines, 0..=1. Cost: O(a · b) on
/// pairs of lines (short).
pub(super) fn pairs_alike(a: &str, b: &str) -> f64 {
    let pairs = |s: &str| {
        let c: Vec<char> = s.trim().chars().collect();
        c.windows(2).map(|w| (w.first().copied(), w.get(1).copied())).collect::<Vec<_>>()
    };
    let (pa, mut pb) = (pairs(a), pairs(b));
    let total = pa.len() + pb.len();
    if total == 0 {
        return 1.0;
    }
    let mut shared = 0;
    for p in &pa {
        if let Some(i) = pb.iter().position(|q| q == p) {
            pb.swap_remove(i);
            shared += 1;
        }
    }
    2.0 * shared as f64 / total as f64
}

/// The share of `was`'s words that `now` keeps (1 for a line without words that `now`
/// equals, trimmed; else 0).
fn kept(was: &str, now: &str) -> f64 {
    let w = words(was);
    if w.is_empty() {
        return if was.trim() == now.trim() { 1.0 } else { 0.0 };
    }
    let n = words(now);
    w.iter().filter(|x| n.contains(x)).count() as f64 / w.len() as f64
}

/// Whether new line `now` rewrites old line `was`: the same head, at least half of its words
/// kept.
fn rewrites(was: &str, now: &str) -> bool {
    !was.trim().is_empty() && head(was) == head(now) && kept(was, now) >= 0.5
}

/// Whether new line `now`, beside the old line `was`, is an added line: another head, less
/// than three quarters of `was`'s words, and not written mostly alike (`x = 1` → `let x = 1`
/// is a rewrite); a blank line adds nothing to tell apart.
fn adds(was: &str, now: &str) -> bool {
    now.trim().is_empty() || was.trim().is_empty() || (head(was) != head(now) && kept(was, now) < 0.75 && pairs_alike(was, now) < 0.6)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GET: &str = "  get(key: K): V | undefined {\n    const v = this.map.get(key);\n    if (v !== undefined) {\n      this.map.delete(key);\n      this.map.set(key, v);\n    }\n    return v;\n  }";

    #[test]
    fn a_placeholder_is_the_old_lines_between_its_anchors() {
        // A rewritten last line after the placeholder.
        let new = "  get(key: K): V | undefined {\n    // ... existing code ...\n    return v ?? this.fallback(key);\n  }";
        assert_eq!(expand(GET, new).unwrap().unwrap(), GET.replace("return v;", "return v ?? this.fallback(key);"));
        // An added line after it, and one before it.
        let new = "  get(key: K): V | undefined {\n    this.reads++;\n    // ... existing code ...\n    this.hits++;\n    return v;\n  }";
        assert_eq!(
            expand(GET, new).unwrap().unwrap(),
            GET.replace("undefined {\n", "undefined {\n    this.reads++;\n").replace("    return v;", "    this.hits++;\n    return v;")
        );
        // Two placeholders, each between anchors.
        let new = "  get(key: K): V | undefined {\n    // ...\n    if (v !== undefined) {\n      this.map.delete(key);\n      this.touch(key);\n      // ...\n    }\n    return v;\n  }";
        assert_eq!(expand(GET, new).unwrap().unwrap(), GET.replace("      this.map.delete(key);\n", "      this.map.delete(key);\n      this.touch(key);\n"));
        // No placeholder, or a placeholder-like line old_text holds: nothing to do.
        assert_eq!(expand(GET, GET), Ok(None));
        assert_eq!(expand("def f():\n    ...\n", "def f(x):\n    ...\n"), Ok(None));
    }

    #[test]
    fn what_cannot_be_told_is_refused() {
        // Two placeholders with no line of old_text between them: where `if (v) {` goes is unknown.
        let new = "  get(key: K): V | undefined {\n    // ...\n    if (v) {\n    // ...\n  }";
        assert!(matches!(expand(GET, new), Err(Unmapped::Sketch { marker: 2, near: None, .. })), "{:?}", expand(GET, new));
        // `let v` beside the first elided line `const v`: neither clearly a rewrite (another
        // head) nor clearly added (all its words kept).
        let new = "  get(key: K): V | undefined {\n    let v = this.map.get(key);\n    // ...\n  }";
        assert!(matches!(expand(GET, new), Err(Unmapped::Sketch { marker: 1, near: Some(_), .. })), "{:?}", expand(GET, new));
        // The same head and the words kept: a rewrite (`v` renamed).
        let new = "  get(key: K): V | undefined {\n    const w = this.map.get(key);\n    // ...\n  }";
        assert!(expand(GET, new).unwrap().unwrap().starts_with("  get(key: K): V | undefined {\n    const w = this.map.get(key);\n    if (v"));
        // The anchor after the placeholder occurs among the lines it would stand for.
        let old = "fn a() {\n    x();\n}\n\nfn b() {\n    y();\n}";
        let new = "fn a() {\n    // ...\n    log();\n}";
        assert_eq!(expand(old, new), Err(Unmapped::Sketch { marker: 1, line: "// ...".into(), near: Some("}".into()) }));
    }
}
