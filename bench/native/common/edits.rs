//! The edit sets of the unified-diff benches — a port of `EDITS` in `bench/speed/suites/diff.mjs`
//! (one word renamed in one line, 10 scattered lines, 1 % of the lines). Any change here must be
//! mirrored there: the report checks that both sides produced the same new texts (FNV-1a of each,
//! written by `bench/native/diff.rs` to `native-diff-edits.json`).

#![allow(dead_code)]

use super::docs::Rng;

/// The edit sets, in the order of the JS `EDITS`: (key, criterion work id).
pub const EDIT_SETS: [(&str, &str); 3] = [("one", "anchor-diff-1"), ("ten", "anchor-diff-10"), ("pct", "anchor-diff-1pct")];

/// The new text of an edit set and the minimal line counts of its diff.
pub struct Edit {
    pub new_text: String,
    /// Lines a minimal line diff removes (edited + deleted) and adds (edited + inserted).
    pub removed: usize,
    pub added: usize,
}

/// Byte range of the first run of at least 4 ASCII lowercase letters (`/[a-z]{4,}/`).
fn first_word(line: &str) -> Option<(usize, usize)> {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() {
            let start = i;
            while i < b.len() && b[i].is_ascii_lowercase() {
                i += 1;
            }
            if i - start >= 4 {
                return Some((start, i));
            }
        } else {
            i += 1;
        }
    }
    None
}

/// One line changed a little: the first word of ≥ 4 letters renamed, else a suffix appended.
fn edit_line(kind: &str, line: &str) -> String {
    match first_word(line) {
        Some((s, e)) => format!("{}renamed_{}{}", &line[..s], &line[s..e], &line[e..]),
        None if kind == "code" => format!("{line} // edited"),
        None => format!("{line} (edited)"),
    }
}

fn inserted_line(kind: &str, k: usize) -> String {
    if kind == "code" {
        format!("    tracing::trace!(\"checkpoint {k}\");")
    } else {
        format!("- Checkpoint {k}: reviewed.")
    }
}

/// The edit set `key` ("one", "ten" or "pct") applied to `text` (which ends with "\n").
pub fn make(kind: &str, text: &str, key: &str) -> Edit {
    let mut lines: Vec<&str> = text.split('\n').collect();
    assert_eq!(lines.pop(), Some(""), "the document ends with a newline");
    let n = lines.len();
    let mut out: Vec<String>;
    let (mut edited, mut deleted, mut inserted) = (0, 0, 0);
    match key {
        "one" => {
            let mut j = n >> 1;
            while j < n - 1 && first_word(lines[j]).is_none() {
                j += 1;
            }
            out = lines.iter().map(|l| l.to_string()).collect();
            out[j] = edit_line(kind, lines[j]);
            edited = 1;
        }
        "ten" => {
            out = lines.iter().map(|l| l.to_string()).collect();
            for i in 0..10 {
                let j = (n * (2 * i + 1)) / 20;
                out[j] = edit_line(kind, lines[j]);
            }
            edited = 10;
        }
        "pct" => {
            let mut r = Rng::new(0x6a09_e667);
            // Math.round(n / 100) for n ≥ 0: half up, as f64::round for positive numbers.
            let k = ((n as f64 / 100.0).round() as usize).max(1);
            let mut picked = std::collections::HashSet::new();
            while picked.len() < k {
                picked.insert(r.below(n as u32) as usize);
            }
            let mut sorted: Vec<usize> = picked.into_iter().collect();
            sorted.sort_unstable();
            let action: std::collections::HashMap<usize, u32> = sorted.iter().map(|&j| (j, r.below(10))).collect();
            out = Vec::with_capacity(n + k);
            for (j, line) in lines.iter().enumerate() {
                match action.get(&j) {
                    None => out.push(line.to_string()),
                    Some(0) => deleted += 1,
                    Some(1) => {
                        inserted += 1;
                        out.push(line.to_string());
                        out.push(inserted_line(kind, inserted));
                    }
                    Some(_) => {
                        out.push(edit_line(kind, line));
                        edited += 1;
                    }
                }
            }
        }
        _ => panic!("unknown edit set {key:?}"),
    }
    let mut new_text = out.join("\n");
    new_text.push('\n');
    assert!(new_text != text, "the edit {key} changed nothing");
    Edit { new_text, removed: edited + deleted, added: edited + inserted }
}

/// What [`strict_apply`] found: the patched text, hunks, removed and added lines.
pub struct Applied {
    pub text: String,
    pub hunks: usize,
    pub removed: usize,
    pub added: usize,
}

/// Applies a unified diff to `old` strictly (as `strictApply` in `bench/speed/suites/diff.mjs`):
/// every hunk exactly where its header says, its context and removed lines equal to the old text
/// there, its line counts equal to the header's, labels `old_label` / `new_label`.
pub fn strict_apply(old: &str, patch: &str, old_label: &str, new_label: &str) -> Result<Applied, String> {
    let mut pl: Vec<&str> = patch.split('\n').collect();
    if pl.last() == Some(&"") {
        pl.pop();
    }
    let mut i = 0;
    let (mut ol, mut nl) = (None, None);
    while i < pl.len() && !pl[i].starts_with("@@") {
        if let Some(l) = pl[i].strip_prefix("--- ") {
            ol = Some(l.split('\t').next().unwrap_or(""));
        } else if let Some(l) = pl[i].strip_prefix("+++ ") {
            nl = Some(l.split('\t').next().unwrap_or(""));
        }
        i += 1;
    }
    if ol != Some(old_label) || nl != Some(new_label) {
        return Err(format!("labels {ol:?} / {nl:?}"));
    }
    let mut old_lines: Vec<&str> = old.split('\n').collect();
    if old_lines.pop() != Some("") {
        return Err("old text without a final newline".into());
    }
    let mut out: Vec<&str> = Vec::with_capacity(old_lines.len());
    let (mut pos, mut hunks, mut removed, mut added) = (0usize, 0usize, 0usize, 0usize);
    let num = |s: &str| s.parse::<usize>().map_err(|_| format!("bad number {s:?}"));
    while i < pl.len() {
        let h = pl[i];
        let inner = h
            .strip_prefix("@@ -")
            .and_then(|r| r.split_once(" @@"))
            .map(|(x, _)| x)
            .ok_or_else(|| format!("line {}: not a hunk header: {:?}", i + 1, &h[..h.len().min(60)]))?;
        let (o, n) = inner.split_once(" +").ok_or("bad hunk header")?;
        let range = |s: &str| -> Result<(usize, usize), String> {
            match s.split_once(',') {
                Some((a, b)) => Ok((num(a)?, num(b)?)),
                None => Ok((num(s)?, 1)),
            }
        };
        let ((o_start, o_len), (n_start, n_len)) = (range(o)?, range(n)?);
        let at = if o_len == 0 { o_start } else { o_start.saturating_sub(1) };
        if at < pos || at > old_lines.len() {
            return Err(format!("hunk {} at old line {o_start}: out of order or past the end", hunks + 1));
        }
        out.extend_from_slice(&old_lines[pos..at]);
        let lands = if n_len == 0 { n_start } else { n_start.saturating_sub(1) };
        if out.len() != lands {
            return Err(format!("hunk {}: new start {n_start}, but it lands at new line {}", hunks + 1, out.len() + 1));
        }
        let (mut p, mut oc, mut nc) = (at, 0usize, 0usize);
        i += 1;
        while i < pl.len() && !pl[i].starts_with("@@") {
            let line = pl[i];
            let body = line.get(1..).unwrap_or("");
            match line.as_bytes().first() {
                Some(b' ') | Some(b'-') => {
                    if old_lines.get(p) != Some(&body) {
                        return Err(format!("hunk {}: line {} differs", hunks + 1, p + 1));
                    }
                    if line.starts_with(' ') {
                        out.push(body);
                        nc += 1;
                    } else {
                        removed += 1;
                    }
                    p += 1;
                    oc += 1;
                }
                Some(b'+') => {
                    out.push(body);
                    nc += 1;
                    added += 1;
                }
                _ => return Err(format!("hunk {}: unexpected line {:?}", hunks + 1, &line[..line.len().min(60)])),
            }
            i += 1;
        }
        if oc != o_len || nc != n_len {
            return Err(format!("hunk {}: header says -{o_len} +{n_len}, body has -{oc} +{nc}", hunks + 1));
        }
        pos = p;
        hunks += 1;
    }
    out.extend_from_slice(&old_lines[pos..]);
    let mut text = out.join("\n");
    text.push('\n');
    Ok(Applied { text, hunks, removed, added })
}
