//! A lazy sketch against a whole old_text (docs/architecture.md#matching): old_text copied in
//! full, new_text with placeholder lines (`// ... existing code ...`) for the stretches it
//! leaves as they are. A placeholder line never reaches a document: [`expand`] writes each
//! one as the lines of old_text it stands for, or says why it cannot tell which those are.
//!
//! # How
//!
//! A line of new_text is a placeholder when it looks like one ([`is_elision_line`]) and
//! old_text holds no such line (a line old_text holds is content, wherever it is). The lines
//! of old_text and new_text are diffed (Myers; a placeholder equals nothing, nor does a line
//! with no letter or digit — a blank line or `}` says nothing about where it is — except in
//! the lines the two texts start and end with). Each run of changed lines holding one
//! placeholder stands between two anchors (or an end). New lines beside the placeholder line
//! up with the old lines from the anchor on: the same line, or a rewrite of it (the same head
//! — `return`, `this.map.set` — at least half its words and most of its char pairs kept:
//! `return v;` → `return v ?? null;`); the rest are added lines, and the placeholder is the
//! old lines between. A block the added lines open is closed by its own `}` (a new method
//! after a placeholder), and blank lines beside the placeholder that the old lines start or
//! end with are those lines. Not guessed, refused: an added line that copies one of the old
//! lines the placeholder would stand for, or rewrites one near its edge, or is not clearly
//! added (another head, few of the edge line's words, not written alike); two placeholders
//! with no anchor between them; an anchor that recurs among the lines a placeholder would
//! stand for, or whose lines stand at another place between the anchors around it that occur
//! once (a placeholder between those could then stand for more lines or fewer). A property test (sketches of random edits with random stretches left out)
//! checks that a filled sketch is the intended text or nothing.
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
pub fn expand<'a>(old_text: &'a str, new_text: &'a str) -> Result<Option<String>, Unmapped> {
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
    // The texts' common first and last lines are anchors as they are; between them, lines as
    // ids: each placeholder, and each line of new_text with no letter or digit (a blank
    // line, `}`: it says nothing about where it is), its own id, equal to nothing.
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count().min(first);
    let suffix = old
        .get(prefix..)
        .unwrap_or_default()
        .iter()
        .rev()
        .zip(new.get(prefix..).unwrap_or_default().iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut intern = |l: &'a str| {
        let next = ids.len() as u32;
        *ids.entry(l).or_insert(next)
    };
    let oi: Vec<u32> = old.iter().map(|&l| intern(l)).collect();
    let ni: Vec<u32> =
        new.iter().enumerate().map(|(i, &l)| if markers.contains(&i) || trivial(l) { u32::MAX - i as u32 } else { intern(l) }).collect();
    let (oe, ne) = (oi.len() - suffix, ni.len() - suffix);
    if (oe - prefix) + (ne - prefix) > MAX_SKETCH_LINES {
        return Err(refuse(first, None));
    }
    // Runs of the diff: (equal, old range, new range), in order, absolute.
    let mut runs: Vec<Run> = vec![(true, 0..prefix, 0..prefix)];
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
    // The last text common to both ends may start with lines like `}` that close a block new
    // lines after a placeholder open (a new method's `}` taken for the old one): those lines
    // are the block's when that balances it, and the old ones join what the placeholder
    // stands for.
    for k in 0..runs.len().saturating_sub(1) {
        let (Some(run), Some(next)) = (runs.get(k), runs.get(k + 1)) else { continue };
        let Some(&m) = markers.iter().rev().find(|&&m| run.2.contains(&m)) else { continue };
        if run.0 || !next.0 {
            continue;
        }
        let after = new.get(m + 1..run.2.end).unwrap_or_default();
        if after.is_empty() || balanced(after) {
            continue;
        }
        let closing = new.get(next.2.clone()).unwrap_or_default().iter().take_while(|l| trivial(l)).count();
        let Some(take) = (1..=closing).find(|&i| balanced(new.get(m + 1..run.2.end + i).unwrap_or_default())) else { continue };
        if let Some(r) = runs.get_mut(k) {
            r.1.end += take;
            r.2.end += take;
        }
        if let Some(r) = runs.get_mut(k + 1) {
            r.1.start += take;
            r.2.start += take;
        }
    }
    if let Some((m, anchor)) = movable_anchor(&runs, &old, &markers) {
        return Err(refuse(m, Some(anchor)));
    }
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
        // New lines before the placeholder rewrite (or are) the old lines they line up with,
        // from the anchor on; those after it, back from the next anchor; the rest are added.
        let mut paired = 0;
        while let (Some(x), true) = (before.get(paired), lo < hi) {
            if !pairs(line(&old, lo), x) {
                break;
            }
            lo += 1;
            paired += 1;
        }
        // A block the added lines open is closed by its own `}`, not the old one it looks like.
        while paired > 0 && !balanced(before.get(paired..).unwrap_or_default()) && before.get(paired - 1).is_some_and(|l| trivial(l)) {
            paired -= 1;
            lo -= 1;
        }
        let added_before = before.get(paired..).unwrap_or_default();
        let mut paired = 0;
        while let (Some(y), true) = (after.len().checked_sub(paired + 1).and_then(|i| after.get(i)), hi > lo) {
            if !pairs(line(&old, hi - 1), y) {
                break;
            }
            hi -= 1;
            paired += 1;
        }
        while paired > 0
            && !balanced(after.get(..after.len() - paired).unwrap_or_default())
            && after.get(after.len() - paired).is_some_and(|l| trivial(l))
        {
            paired -= 1;
            hi += 1;
        }
        let added_after = after.get(..after.len() - paired).unwrap_or_default();
        let paired_before = before.get(..before.len() - added_before.len()).unwrap_or_default();
        let paired_after = after.get(added_after.len()..).unwrap_or_default();
        let stands_for = old.get(lo..hi).unwrap_or_default();
        // Blank lines beside the placeholder that the lines it stands for start or end with
        // are those lines, not more.
        let blanks = |l: &mut dyn Iterator<Item = &&str>| l.take_while(|l| l.trim().is_empty()).count();
        let added_before = added_before
            .get(..added_before.len() - blanks(&mut added_before.iter().rev()).min(blanks(&mut stands_for.iter())))
            .unwrap_or_default();
        let added_after = added_after.get(blanks(&mut added_after.iter()).min(blanks(&mut stands_for.iter().rev()))..).unwrap_or_default();
        if let Some(l) = unclear(added_before, stands_for, true).or_else(|| unclear(added_after, stands_for, false)) {
            return Err(refuse(*m, Some(l)));
        }
        // The anchors beside the run: a copy of one among the lines the placeholder stands
        // for would be another reading of the sketch.
        let prev =
            runs.get(k.wrapping_sub(1)).and_then(|r| old.get(r.1.clone())).and_then(|l| l.iter().rev().find(|l| !l.trim().is_empty()));
        let next = runs.get(k + 1).and_then(|r| old.get(r.1.clone())).and_then(|l| l.iter().find(|l| !l.trim().is_empty()));
        if let Some(anchor) = [prev, next].into_iter().flatten().find(|a| stands_for.contains(a)) {
            return Err(refuse(*m, Some(anchor)));
        }
        out.extend(paired_before);
        out.extend(added_before);
        out.extend(stands_for);
        out.extend(added_after);
        out.extend(paired_after);
    }
    Ok(Some(out.join("\n")))
}

/// A run of the diff: whether its lines are equal, its old range, its new range.
type Run = (bool, std::ops::Range<usize>, std::ops::Range<usize>);

/// An anchor the diff placed where its lines also stand elsewhere within reach, with a
/// placeholder within reach too: `(placeholder, the anchor's first line)`. Anchors whose
/// lines occur once in old_text (and the texts' common first and last lines) stay where they
/// are; another anchor may sit at any place of its lines between the fixed ones around it,
/// and with a placeholder between those, each place is another reading (the placeholder
/// stands for more lines or fewer, a changed line rewrites another old line) that writes
/// other text: a changelog's `### Fixed` under the first release of the region or under the
/// one the model meant. Cost: O(runs · old · run lines).
fn movable_anchor<'a>(runs: &[Run], old: &[&'a str], markers: &[usize]) -> Option<(usize, &'a str)> {
    let lines_of = |r: &Run| old.get(r.1.clone()).unwrap_or_default();
    // Where `lines` stand in old[from..to].
    let places = |lines: &[&str], from: usize, to: usize| -> Vec<usize> {
        let n = lines.len();
        (from..to).filter(|&s| s.checked_add(n).is_some_and(|e| e <= to) && old.get(s..s + n) == Some(lines)).collect()
    };
    let last = runs.len().saturating_sub(1);
    let fixed: Vec<bool> = runs
        .iter()
        .enumerate()
        .map(|(k, r)| k == 0 || k == last || (r.0 && !r.1.is_empty() && places(lines_of(r), 0, old.len()).len() == 1))
        .collect();
    for (k, run) in runs.iter().enumerate() {
        if !run.0 || run.1.is_empty() || fixed.get(k).copied().unwrap_or(true) {
            continue;
        }
        let lo = (0..k).rev().find(|&j| fixed.get(j).copied().unwrap_or(false)).and_then(|j| runs.get(j));
        let hi = (k + 1..runs.len()).find(|&j| fixed.get(j).copied().unwrap_or(false)).and_then(|j| runs.get(j));
        let (Some(lo), Some(hi)) = (lo, hi) else { continue };
        let Some(&m) = markers.iter().find(|&&m| m >= lo.2.end && m < hi.2.start) else { continue };
        let lines = lines_of(run);
        if places(lines, lo.1.end, hi.1.start).iter().any(|&s| s != run.1.start) {
            return Some((m, lines.iter().find(|l| !l.trim().is_empty()).copied().unwrap_or_default()));
        }
    }
    None
}

/// Old lines next to a placeholder's edge that an added line is compared with (a rewrite of
/// one of them is no added line).
const NEAR_LINES: usize = 20;

/// The first of the `added` lines beside a placeholder (`first`: before it) that may be one
/// of the lines it stands for, `stands_for`, rather than an added line: a copy of one of them
/// (a `}` or blank line only outside a block the added lines open and close), a rewrite of
/// one near the edge, or a line not clearly added beside the edge line. Cost: O(added ·
/// (stands_for + [`NEAR_LINES`])).
fn unclear<'a>(added: &[&'a str], stands_for: &[&str], first: bool) -> Option<&'a str> {
    let edge = if first { stands_for.first() } else { stands_for.last() }.copied()?;
    let block = added.iter().any(|l| !trivial(l)) && balanced(added);
    let near: Vec<&str> = if first {
        stands_for.iter().take(NEAR_LINES).copied().collect()
    } else {
        stands_for.iter().rev().take(NEAR_LINES).copied().collect()
    };
    added.iter().copied().find(|l| {
        if trivial(l) {
            return !block && stands_for.contains(l);
        }
        stands_for.contains(l) || near.iter().any(|o| rewrites(o, l)) || !adds(edge, l)
    })
}

/// Whether new line `now` lines up with old line `was`: the same line, or a rewrite of it.
fn pairs(was: &str, now: &str) -> bool {
    was == now || rewrites(was, now)
}

/// Whether a line has no letter or digit (blank, `}`, `);`). Cost: O(line).
fn trivial(line: &str) -> bool {
    !line.chars().any(char::is_alphanumeric)
}

/// Whether the brackets of `lines` are balanced, none closed before it is opened. Cost:
/// O(lines).
fn balanced(lines: &[&str]) -> bool {
    let mut depth = [0i64; 3];
    for c in lines.iter().flat_map(|l| l.chars()) {
        let (i, d) = match c {
            '{' => (0, 1),
            '}' => (0, -1),
            '(' => (1, 1),
            ')' => (1, -1),
            '[' => (2, 1),
            ']' => (2, -1),
            _ => continue,
        };
        if let Some(x) = depth.get_mut(i) {
            *x += d;
            if *x < 0 {
                return false;
            }
        }
    }
    depth == [0, 0, 0]
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

/// The char pairs of two trimmed lines: how many they share (each pair counted once per
/// occurrence), and how many each has. Cost: O(a · b) on pairs of lines (short).
fn shared_pairs(a: &str, b: &str) -> (usize, usize, usize) {
    let pairs = |s: &str| {
        let c: Vec<char> = s.trim().chars().collect();
        c.windows(2).map(|w| (w.first().copied(), w.get(1).copied())).collect::<Vec<_>>()
    };
    let (pa, mut pb) = (pairs(a), pairs(b));
    let (na, nb) = (pa.len(), pb.len());
    let mut shared = 0;
    for p in &pa {
        if let Some(i) = pb.iter().position(|q| q == p) {
            pb.swap_remove(i);
            shared += 1;
        }
    }
    (shared, na, nb)
}

/// Dice's coefficient of the char pairs of two trimmed lines, 0..=1.
pub(super) fn pairs_alike(a: &str, b: &str) -> f64 {
    let (shared, na, nb) = shared_pairs(a, b);
    if na + nb == 0 {
        return 1.0;
    }
    2.0 * shared as f64 / (na + nb) as f64
}

/// The share of `was`'s char pairs that `now` keeps, 0..=1.
fn pairs_kept(was: &str, now: &str) -> f64 {
    let (shared, na, _) = shared_pairs(was, now);
    if na == 0 {
        return 0.0;
    }
    shared as f64 / na as f64
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
/// and most of its char pairs kept (`if !ok {` → `if (ready) {` is another line); a line
/// without letters or digits (`}`) rewrites none.
fn rewrites(was: &str, now: &str) -> bool {
    !trivial(was) && head(was) == head(now) && kept(was, now) >= 0.5 && pairs_kept(was, now) >= 0.6
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
        assert_eq!(
            expand(GET, new).unwrap().unwrap(),
            GET.replace("      this.map.delete(key);\n", "      this.map.delete(key);\n      this.touch(key);\n")
        );
        // No placeholder, or a placeholder-like line old_text holds: nothing to do.
        assert_eq!(expand(GET, GET), Ok(None));
        assert_eq!(expand("def f():\n    ...\n", "def f(x):\n    ...\n"), Ok(None));
    }

    /// Sketches of random edits (a line rewritten, added or deleted) to realistic texts, with
    /// random unchanged stretches left out under a placeholder: each is filled to exactly the
    /// intended text, or refused — never anything else.
    #[test]
    fn a_filled_sketch_is_the_intended_text_or_nothing() {
        let docs = [
            GET,
            "package store\n\nfunc (s *Store) Get(key string) ([]byte, error) {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\tv, ok := s.data[key]\n\tif !ok {\n\t\treturn nil, ErrMissing\n\t}\n\treturn v, nil\n}\n\nfunc (s *Store) Put(key string, v []byte) {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\ts.data[key] = v\n}",
            "class Settings:\n    def __init__(self, path):\n        self.path = path\n        self.values = {}\n\n    def load(self):\n        text = self.path.read_text()\n        self.values = json.loads(text)\n        return self.values\n\n    def get(self, key, default=None):\n        return self.values.get(key, default)",
            "build: main.o util.o\n\t$(CC) $(CFLAGS) -o app main.o util.o\n\t@echo built\n\nclean:\n\trm -f *.o app",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let (mut landed, mut refused) = (0, 0);
        for case in 0..6000 {
            let Some(doc) = docs.get(case % docs.len()) else { continue };
            let old: Vec<&str> = doc.split('\n').collect();
            let at = next(old.len());
            let kind = next(4);
            let mut new: Vec<String> = old.iter().map(|l| l.to_string()).collect();
            // Lines the sketch must show: the changed one, or both sides of a deletion (a
            // deletion next to a placeholder says nothing).
            let mut changed = at..at + 1;
            match kind {
                0 if !trivial(old.get(at).copied().unwrap_or_default()) => {
                    if let Some(l) = new.get_mut(at) {
                        l.push_str(" // changed");
                    }
                }
                1 => new.insert(at, "    audit(\"step\");".to_string()),
                2 => {
                    for (k, l) in ["    if (ready) {", "        flush();", "    }"].iter().enumerate() {
                        new.insert(at + k, l.to_string());
                    }
                    changed = at..at + 3;
                }
                _ => {
                    if new.len() > 3 {
                        new.remove(at);
                        changed = at.saturating_sub(1)..at + 1;
                    }
                }
            }
            let intended = new.join("\n");
            // Leave out one or two stretches of lines that are not the changed one (line
            // indices of `new` kept beside the sketch's lines; `None` for a placeholder).
            let mut sketch: Vec<(Option<usize>, String)> = new.iter().cloned().enumerate().map(|(i, l)| (Some(i), l)).collect();
            for _ in 0..1 + next(2) {
                let len = sketch.len();
                let from = next(len);
                let to = (from + 1 + next(6)).min(len);
                let Some(stretch) = sketch.get(from..to) else { continue };
                if stretch.iter().any(|(i, _)| i.map_or(true, |i| changed.contains(&i))) {
                    continue;
                }
                sketch.splice(from..to, [(None, "    // ... existing code ...".to_string())]);
            }
            let sketch: Vec<String> = sketch.into_iter().map(|(_, l)| l).collect();
            let sketch = sketch.join("\n");
            match expand(doc, &sketch) {
                Ok(Some(filled)) => {
                    assert_eq!(filled, intended, "case {case}: sketch\n{sketch}");
                    landed += 1;
                }
                Ok(None) => assert_eq!(sketch, intended),
                Err(_) => refused += 1,
            }
        }
        // Most land: the rule is not "refuse everything".
        assert!(landed > 2 * refused, "landed {landed}, refused {refused}");
        eprintln!("sketches: landed {landed}, refused {refused}");
    }

    #[test]
    fn an_anchor_that_may_stand_at_another_place_is_refused() {
        // A heading that every release has: the sketch means the second `### Changed`, the
        // diff would pair it with the first and drop what lies between.
        let old = "## 3.1\n\n### Changed\n- faster start-up\n\n### Contributors\n- ann\n\n## 3.0\n\n### Changed\n- new config format\n- dropped the old flags\n\n## 2.9";
        let new = "## 3.1\n<!-- ... -->\n### Changed\n- a note\n- new config format\n<!-- ... -->\n## 2.9";
        assert_eq!(expand(old, new), Err(Unmapped::Sketch { marker: 1, line: "<!-- ... -->".into(), near: Some("### Changed".into()) }));
        // Named once, the same anchor is placed and the sketch is filled.
        let once = old.replacen("### Changed", "### Changed in 3.1", 1);
        let filled = expand(&once, new).unwrap().unwrap();
        assert_eq!(filled, once.replace("### Changed\n- new config", "### Changed\n- a note\n- new config"));
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
        assert!(expand(GET, new)
            .unwrap()
            .unwrap()
            .starts_with("  get(key: K): V | undefined {\n    const w = this.map.get(key);\n    if (v"));
        // The anchor after the placeholder occurs among the lines it would stand for.
        let old = "fn a() {\n    x();\n}\n\nfn b() {\n    y();\n}";
        let new = "fn a() {\n    // ...\n    log();\n}";
        assert_eq!(expand(old, new), Err(Unmapped::Sketch { marker: 1, line: "// ...".into(), near: Some("}".into()) }));
    }
}
