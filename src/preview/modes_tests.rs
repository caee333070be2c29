//! Preview modes against oracles: the `diff` mode (built from the known change ranges) against
//! `similar`'s unified diff of the two whole texts, `unified_whole` against the same, and every
//! `diff` output applied as a patch to the base gives the draft back.
#![cfg(not(target_arch = "wasm32"))]

use agentpad::preview::{render, unified_whole, ChangeSpan, PreviewMode, PreviewOptions};
use proptest::prelude::*;
use ropey::Rope;
use similar::TextDiff;

/// The draft and the spans of `edits` (char ranges of `base` with their new text), taken in
/// order of position; an edit overlapping an earlier one is moved to start where that one ends.
fn apply(base: &str, edits: &[(usize, usize, String)]) -> (String, Vec<ChangeSpan>) {
    let chars: Vec<char> = base.chars().collect();
    let mut edits: Vec<(usize, usize, String)> = edits.iter().map(|(s, l, t)| (s % (chars.len() + 1), *l, t.clone())).collect();
    edits.sort_by_key(|e| e.0);
    let mut draft = String::new();
    let mut spans = Vec::new();
    let mut at = 0;
    for (start, len, new) in edits {
        let start = start.max(at);
        if start > chars.len() {
            break;
        }
        let end = (start + len).min(chars.len());
        draft.extend(&chars[at..start]);
        let d = draft.chars().count();
        draft.push_str(&new);
        spans.push(ChangeSpan { base: start..end, draft: d..d + new.chars().count() });
        at = end;
    }
    draft.extend(&chars[at..]);
    (draft, spans)
}

fn diff_mode(base: &str, draft: &str, spans: &[ChangeSpan], context: usize) -> String {
    let opts = PreviewOptions { mode: PreviewMode::Diff, context_lines: context, max_length: 0, ..PreviewOptions::default() };
    render(&Rope::from_str(base), &Rope::from_str(draft), spans, "notes/memo.md", &opts)
}

fn oracle(base: &str, draft: &str, context: usize) -> String {
    TextDiff::from_lines(base, draft).unified_diff().context_radius(context).header("a/notes/memo.md", "b/notes/memo.md").to_string()
}

/// Lines as `similar` splits them: after each `\n`, `\r\n` or lone `\r`.
fn tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = s.as_bytes();
    for i in 0..b.len() {
        let ends = b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n'));
        if ends {
            out.push(&s[start..=i]);
            start = i + 1;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Applies a unified diff to `base`, checking every context and removed line and the header
/// counts; `Err` says what is malformed.
fn patch(base: &str, diff: &str) -> Result<String, String> {
    if diff.is_empty() {
        return Ok(base.to_string());
    }
    let lines = tokens(base);
    let rows = tokens(diff);
    if rows.len() < 3 || !rows[0].starts_with("--- ") || !rows[1].starts_with("+++ ") {
        return Err("no file header".into());
    }
    let range = |s: &str| -> Result<(usize, usize), String> {
        let num = |x: &str| x.parse::<usize>().map_err(|e| e.to_string());
        match s.split_once(',') {
            Some((a, b)) => Ok((num(a)?, num(b)?)),
            None => Ok((num(s)?, 1)),
        }
    };
    let mut out = String::new();
    let mut at = 0; // next base line (0-based) not yet copied
    let mut out_lines = 0;
    let mut i = 2;
    while i < rows.len() {
        let header = rows[i].strip_prefix("@@ -").and_then(|h| h.strip_suffix(" @@\n")).ok_or(format!("bad header {:?}", rows[i]))?;
        let (old, new) = header.split_once(" +").ok_or("bad header")?;
        let ((old_start, old_len), (new_start, new_len)) = (range(old)?, range(new)?);
        let first = if old_len == 0 { old_start } else { old_start.checked_sub(1).ok_or("line 0")? };
        if first < at || first > lines.len() {
            return Err(format!("hunk at {first} out of place"));
        }
        lines[at..first].iter().for_each(|l| out.push_str(l));
        out_lines += first - at;
        at = first;
        if new_start != if new_len == 0 { out_lines } else { out_lines + 1 } {
            return Err(format!("hunk starts at new line {new_start}, after {out_lines} lines"));
        }
        i += 1;
        let (mut seen_old, mut seen_new) = (0, 0);
        while i < rows.len() && !rows[i].starts_with("@@") {
            let (tag, text) = rows[i].split_at(1);
            let mut text = text.to_string();
            if rows.get(i + 1) == Some(&"\\ No newline at end of file\n") {
                text.pop();
                i += 1;
            }
            match tag {
                " " | "-" => {
                    if lines.get(at).copied() != Some(text.as_str()) {
                        return Err(format!("line {} is {:?}, the diff says {text:?}", at + 1, lines.get(at)));
                    }
                    at += 1;
                    seen_old += 1;
                    if tag == " " {
                        out.push_str(&text);
                        seen_new += 1;
                        out_lines += 1;
                    }
                }
                "+" => {
                    out.push_str(&text);
                    seen_new += 1;
                    out_lines += 1;
                }
                _ => return Err(format!("bad row {:?}", rows[i])),
            }
            i += 1;
        }
        if (seen_old, seen_new) != (old_len, new_len) {
            return Err(format!("header says -{old_len} +{new_len}, hunk has -{seen_old} +{seen_new}"));
        }
    }
    lines[at..].iter().for_each(|l| out.push_str(l));
    Ok(out)
}

/// `ours` is what `similar` prints for the two texts — or, where `similar` 2.7 miscounts a hunk
/// header (its `Compact` hook leaves an insertion's old index stale after a swap), the same rows
/// under headers that count them right.
fn like_similar(ours: &str, base: &str, draft: &str, context: usize) -> Result<(), TestCaseError> {
    let theirs = oracle(base, draft, context);
    if ours == theirs {
        return Ok(());
    }
    let rows = |s: &str| tokens(s).into_iter().filter(|l| !l.starts_with("@@")).map(str::to_string).collect::<Vec<_>>();
    prop_assert!(patch(base, &theirs).is_err(), "similar's diff is well formed, ours differs:\n{}\n--- similar ---\n{}", ours, theirs);
    prop_assert_eq!(rows(ours), rows(&theirs));
    prop_assert_eq!(patch(base, ours), Ok(draft.to_string()));
    Ok(())
}

fn edits(max: usize, new_text: &'static str) -> impl Strategy<Value = Vec<(usize, usize, String)>> {
    prop::collection::vec((0usize..400, 0usize..12, new_text), 0..=max)
}

/// Lines no change can recreate elsewhere: every minimal line diff is unique.
fn numbered_lines() -> impl Strategy<Value = String> {
    (0usize..40, any::<bool>()).prop_map(|(n, final_break)| {
        let mut s: String = (0..n).map(|i| format!("{i}:{i}\n")).collect();
        if !final_break {
            s.pop();
        }
        s
    })
}

proptest! {
    #![proptest_config(agentpad::internal_tests::seeded("proptest-regressions/preview/modes_tests.txt", std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(600)))]

    /// Distinct lines, several changes anywhere (joining and splitting lines, CJK, emoji, a
    /// change at the end with or without a final line break): exactly `similar`'s diff.
    #[test]
    fn diff_is_similars_for_distinct_lines(base in numbered_lines(), edits in edits(6, "[xy中😀\n]{0,6}"), context in 0usize..6) {
        let (draft, spans) = apply(&base, &edits);
        like_similar(&diff_mode(&base, &draft, &spans, context), &base, &draft, context)?;
    }

    /// Repeated and blank lines (changes that could sit in several places): with one change, or
    /// with all the changes in one hunk, exactly `similar`'s diff, sliding included.
    #[test]
    fn diff_is_similars_for_one_change_or_one_hunk(
        base in "[ab\n]{0,40}",
        one in edits(1, "[ab\n]{0,6}"),
        many in edits(5, "[ab\n]{0,6}"),
        context in 0usize..5,
    ) {
        let (draft, spans) = apply(&base, &one);
        like_similar(&diff_mode(&base, &draft, &spans, context), &base, &draft, context)?;
        let (draft, spans) = apply(&base, &many);
        like_similar(&diff_mode(&base, &draft, &spans, 100), &base, &draft, 100)?;
    }

    /// Any text, any changes, any context: a well-formed patch that turns the base into the
    /// draft (where `similar`'s may differ: ties between equally short diffs fall differently).
    #[test]
    fn diff_applies_as_a_patch(base in "[ab\n中]{0,60}", edits in edits(6, "[ab\n😀]{0,6}"), context in 0usize..4) {
        let (draft, spans) = apply(&base, &edits);
        let ours = diff_mode(&base, &draft, &spans, context);
        prop_assert_eq!(patch(&base, &ours), Ok(draft.clone()));
        prop_assert_eq!(ours.is_empty(), base == draft);
    }

    /// `unified_whole` is `similar`'s unified diff, CR and CRLF line breaks included.
    #[test]
    fn unified_whole_is_similars(old in "[ab\r\n]{0,40}", new in "[ab\r\n]{0,40}", context in 0usize..5) {
        let ours = unified_whole(&old, &new, "a/notes/memo.md", "b/notes/memo.md", context);
        like_similar(&ours, &old, &new, context)?;
    }

    /// The hunk cap never cuts a line, always says how many lines it left out, and leaves a
    /// hunk that fits whole.
    #[test]
    fn capped_hunks_end_with_the_marker(base in numbered_lines(), edits in edits(4, "[xy\n]{0,12}"), max in 1usize..120) {
        let (draft, spans) = apply(&base, &edits);
        let (b, d) = (Rope::from_str(&base), Rope::from_str(&draft));
        for mode in [PreviewMode::Compact, PreviewMode::Full, PreviewMode::Diff] {
            let whole = render(&b, &d, &spans, "m", &PreviewOptions { mode, context_lines: 2, max_length: 0, ..PreviewOptions::default() });
            let capped = render(&b, &d, &spans, "m", &PreviewOptions { mode, context_lines: 2, max_length: max, ..PreviewOptions::default() });
            let whole_rows = whole.lines().filter(|l| !l.starts_with('\\')).count();
            let mut shown = 0;
            let mut left = 0;
            for line in capped.lines() {
                if let Some(n) = line.strip_prefix("… ").and_then(|r| r.split(' ').next()) {
                    left += n.parse::<usize>().unwrap();
                } else if !line.starts_with('\\') {
                    shown += 1;
                    // A gutter row may be narrower than uncapped: its hunk's gutter is as wide
                    // as the largest number it shows.
                    let same = |w: &str| if mode == PreviewMode::Diff { w == line } else { w.trim_start() == line.trim_start() };
                    prop_assert!(line.ends_with('…') || whole.lines().any(same), "{:?} is not a line of\n{}", line, whole);
                }
            }
            prop_assert_eq!(shown + left, whole_rows, "{}\n--- capped at {} ---\n{}", whole, max, capped);
            if mode != PreviewMode::Diff {
                // Each hunk's whole rows: one bar column, and no padding beyond the widest number.
                for hunk in capped.split('─').filter(|h| !h.trim().is_empty()) {
                    let numbers: Vec<&str> = hunk.lines().filter(|l| !l.ends_with('…')).filter_map(|l| l.split_once('│')).map(|(n, _)| n).filter(|n| !n.is_empty()).collect();
                    let widths: std::collections::HashSet<usize> = numbers.iter().map(|n| n.len()).collect();
                    prop_assert!(widths.len() <= 1, "bars not aligned in\n{}", hunk);
                    prop_assert!(numbers.is_empty() || numbers.iter().any(|n| !n.starts_with(' ')), "padded beyond its widest number:\n{}", hunk);
                }
            }
            if whole.lines().all(|l| l.chars().count() < max) && whole.chars().count() <= max {
                prop_assert_eq!(&capped, &whole);
            }
        }
    }
}

#[test]
fn distant_changes_in_repeated_lines_still_patch_cleanly() {
    // A line moved far away: similar pairs the two copies differently; ours shows the change as
    // staged. Both are correct patches.
    let base: String = (0..30).map(|i| if i % 2 == 0 { "a\n".to_string() } else { format!("{i}\n") }).collect();
    let (draft, spans) = apply(&base, &[(0, 2, String::new()), (80, 0, "a\n".into())]);
    let ours = diff_mode(&base, &draft, &spans, 1);
    assert_eq!(patch(&base, &ours), Ok(draft));
}

#[test]
fn a_diff_in_a_million_lines_shows_the_changed_region_with_its_real_line_numbers() {
    // What the diff costs is measured in the benchmark (bench/native/diff.rs), never by a timer
    // here; this checks the hunk a million-line document gives.
    let base: String = (0..1_000_000).map(|i| format!("line {i}\n")).collect();
    let b = Rope::from_str(&base);
    let at = b.line_to_char(500_000);
    let mut d = b.clone();
    d.insert(at, "new line\n");
    let spans = [ChangeSpan { base: at..at, draft: at..at + 9 }];
    let out = render(&b, &d, &spans, "big.md", &PreviewOptions { mode: PreviewMode::Diff, ..PreviewOptions::default() });
    let expected = "--- a/big.md\n+++ b/big.md\n@@ -499998,6 +499998,7 @@\n line 499997\n line 499998\n line 499999\n+new line\n line 500000\n line 500001\n line 500002\n";
    assert_eq!(out, expected);
}
