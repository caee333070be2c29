//! Unit tests of the preview renderers (moved out of preview.rs to keep it under 1,000 lines).

use super::*;

/// Builds base/draft and spans from plain edits (base ranges, sorted) — the model.
fn build(base: &str, edits: &[(Range<usize>, &str)]) -> (Rope, Rope, Vec<ChangeSpan>) {
    let chars: Vec<char> = base.chars().collect();
    let mut draft = String::new();
    let mut spans = Vec::new();
    let mut at = 0;
    let mut shift: isize = 0;
    for (r, new) in edits {
        draft.extend(&chars[at..r.start]);
        let ds = (r.start as isize + shift) as usize;
        draft.push_str(new);
        let dl = new.chars().count();
        spans.push(ChangeSpan { base: r.clone(), draft: ds..ds + dl });
        shift += dl as isize - r.len() as isize;
        at = r.end;
    }
    draft.extend(&chars[at..]);
    (Rope::from_str(base), Rope::from_str(&draft), spans)
}

fn preview(base: &str, edits: &[(Range<usize>, &str)], ctx: usize) -> String {
    let (base, draft, spans) = build(base, edits);
    compact(&base, &draft, &spans, ctx)
}

/// `render` in `mode` with `context_lines` 3 (unless given) and no cap (unless given).
fn shown(base: &str, edits: &[(Range<usize>, &str)], mode: PreviewMode, ctx: usize, max: usize) -> String {
    let (base, draft, spans) = build(base, edits);
    render(&base, &draft, &spans, "memo.md", &PreviewOptions { mode, context_lines: ctx, max_length: max, ..PreviewOptions::default() })
}

/// Char range of the first `needle` in `s`.
fn find(s: &str, needle: &str) -> Range<usize> {
    let start = s[..s.find(needle).unwrap()].chars().count();
    start..start + needle.chars().count()
}

#[test]
fn seed_example_shape() {
    let base = "{\n  \"features\": {\n    \"stable\": [\"A\", \"B\", \"C\"],\n    \"experimental\": []\n  }\n}\n";
    let at = base.find("\"experimental\": []").unwrap();
    let got = preview(base, &[(at..at + 18, "\"experimental\": [\"X\"]")], 3);
    let expected = "1│ {
2│   \"features\": {
3│     \"stable\": [\"A\", \"B\", \"C\"],
4│-    \"experimental\": []
4│+    \"experimental\": [\"X\"]
5│   }
6│ }
";
    assert_eq!(got, expected);
}

#[test]
fn whole_line_deletion_and_insertion() {
    assert_eq!(preview("a\nb\nc\n", &[(2..4, "")], 1), "1│ a\n2│-b\n2│ c\n");
    assert_eq!(preview("a\nc\n", &[(2..2, "b\n")], 0), "2│+b\n");
    // replacing a line's break joins two lines: both show as changed
    assert_eq!(preview("a\nb\nc\n", &[(3..4, "")], 0), "2│-b\n3│-c\n2│+bc\n");
}

#[test]
fn two_changes_on_one_line_are_one_block() {
    assert_eq!(preview("x = 1, y = 2\n", &[(4..5, "10"), (11..12, "20")], 0), "1│-x = 1, y = 2\n1│+x = 10, y = 20\n");
}

#[test]
fn distant_hunks_are_separated_and_close_ones_joined() {
    let base: String = (1..=20).map(|i| format!("l{i}\n")).collect();
    let at = |s: &str| base.find(s).unwrap();
    let far = preview(&base, &[(at("l2\n")..at("l2\n") + 2, "L2"), (at("l18")..at("l18") + 3, "L18")], 1);
    assert!(far.matches('─').count() > 0);
    assert!(far.starts_with("1│ l1\n2│-l2\n2│+L2\n3│ l3\n────"));
    let near = preview(&base, &[(at("l2\n")..at("l2\n") + 2, "L2"), (at("l4\n")..at("l4\n") + 2, "L4")], 1);
    assert_eq!(near, "1│ l1\n2│-l2\n2│+L2\n3│ l3\n4│-l4\n4│+L4\n5│ l5\n");
}

#[test]
fn append_at_end_without_trailing_newline() {
    assert_eq!(preview("a\nb", &[(3..3, "\nc")], 1), "1│ a\n2│-b\n2│+b\n3│+c\n");
}

const SEED: &str = "{\n  \"features\": {\n    \"stable\": [\"A\", \"B\", \"C\"],\n    \"experimental\": []\n  }\n}\n";

#[test]
fn modes_parse_and_print_their_names() {
    for mode in PreviewMode::ALL {
        assert_eq!(PreviewMode::parse(mode.as_str()), Some(mode));
    }
    assert_eq!(PreviewMode::parse("diff"), Some(PreviewMode::Diff));
    assert_eq!(PreviewMode::parse("Diff"), None);
    assert_eq!(PreviewMode::parse("unified"), None);
    assert_eq!(PreviewMode::default(), PreviewMode::Compact);
    let opts = PreviewOptions::default();
    assert_eq!((opts.mode, opts.context_lines, opts.max_length), (PreviewMode::Compact, 3, 500));
}

#[test]
fn every_mode_of_the_seed_example() {
    let edit = [(find(SEED, "\"experimental\": []"), "\"experimental\": [\"X\"]")];
    let compact_text = shown(SEED, &edit, PreviewMode::Compact, 3, 500);
    assert_eq!(compact_text, preview(SEED, &edit, 3));
    assert_eq!(shown(SEED, &edit, PreviewMode::Full, 3, 500), "4│-    \"experimental\": []\n4│+    \"experimental\": [\"X\"]\n");
    // What differs: `"X"` put in; the 18 chars old and new share are not counted.
    assert_eq!(shown(SEED, &edit, PreviewMode::Stats, 3, 500), "line 4, col 5: +3/-0 chars\ntotal: 1 change, +3/-0 chars\n");
    let diff = "--- a/memo.md
+++ b/memo.md
@@ -1,6 +1,6 @@
 {
   \"features\": {
     \"stable\": [\"A\", \"B\", \"C\"],
-    \"experimental\": []
+    \"experimental\": [\"X\"]
   }
 }
";
    assert_eq!(shown(SEED, &edit, PreviewMode::Diff, 3, 500), diff);
    assert_eq!(shown(SEED, &edit, PreviewMode::Diff, 1, 500), "--- a/memo.md\n+++ b/memo.md\n@@ -3,3 +3,3 @@\n     \"stable\": [\"A\", \"B\", \"C\"],\n-    \"experimental\": []\n+    \"experimental\": [\"X\"]\n   }\n");
}

#[test]
fn cjk_and_emoji() {
    let base = "第一行\n第二行 😀\n第三行\n第四行\n";
    let edit = [(find(base, "第二行 😀"), "第二行 🎉 新")];
    assert_eq!(shown(base, &edit, PreviewMode::Compact, 1, 500), "1│ 第一行\n2│-第二行 😀\n2│+第二行 🎉 新\n3│ 第三行\n");
    assert_eq!(shown(base, &edit, PreviewMode::Full, 1, 500), "2│-第二行 😀\n2│+第二行 🎉 新\n");
    // columns and counts are in chars: the emoji is one
    let emoji = [(find(base, "😀"), "🎉")];
    assert_eq!(shown(base, &emoji, PreviewMode::Stats, 1, 500), "line 2, col 5: +1/-1 chars\ntotal: 1 change, +1/-1 chars\n");
    assert_eq!(
        shown(base, &edit, PreviewMode::Diff, 1, 500),
        "--- a/memo.md\n+++ b/memo.md\n@@ -1,3 +1,3 @@\n 第一行\n-第二行 😀\n+第二行 🎉 新\n 第三行\n"
    );
}

#[test]
fn change_at_the_end_without_a_final_line_break() {
    let edit = [(3..3, "\nc")];
    assert_eq!(shown("a\nb", &edit, PreviewMode::Full, 3, 500), "2│-b\n2│+b\n3│+c\n");
    assert_eq!(shown("a\nb", &edit, PreviewMode::Stats, 3, 500), "line 2, col 2: +2/-0 chars\ntotal: 1 change, +2/-0 chars\n");
    let diff = "--- a/memo.md
+++ b/memo.md
@@ -1,2 +1,3 @@
 a
-b
\\ No newline at end of file
+b
+c
\\ No newline at end of file
";
    assert_eq!(shown("a\nb", &edit, PreviewMode::Diff, 3, 500), diff);
    // adding the final line break only
    assert_eq!(
        shown("a\nb", &[(3..3, "\n")], PreviewMode::Diff, 0, 500),
        "--- a/memo.md\n+++ b/memo.md\n@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+b\n"
    );
}

#[test]
fn whole_lines_deleted_and_inserted() {
    let delete = [(2..6, "")];
    assert_eq!(shown("a\nb\nc\nd\ne\n", &delete, PreviewMode::Compact, 1, 500), "1│ a\n2│-b\n3│-c\n2│ d\n");
    assert_eq!(shown("a\nb\nc\nd\ne\n", &delete, PreviewMode::Full, 1, 500), "2│-b\n3│-c\n");
    assert_eq!(shown("a\nb\nc\nd\ne\n", &delete, PreviewMode::Stats, 1, 500), "line 2, col 1: +0/-4 chars\ntotal: 1 change, +0/-4 chars\n");
    assert_eq!(
        shown("a\nb\nc\nd\ne\n", &delete, PreviewMode::Diff, 1, 500),
        "--- a/memo.md\n+++ b/memo.md\n@@ -1,4 +1,2 @@\n a\n-b\n-c\n d\n"
    );
    // no context: the header names the line after which nothing is left
    assert_eq!(shown("a\nb\nc\nd\ne\n", &delete, PreviewMode::Diff, 0, 500), "--- a/memo.md\n+++ b/memo.md\n@@ -2,2 +1,0 @@\n-b\n-c\n");
    let insert = [(2..2, "x\ny\n")];
    assert_eq!(shown("a\nb\nc\n", &insert, PreviewMode::Compact, 1, 500), "1│ a\n2│+x\n3│+y\n4│ b\n");
    assert_eq!(shown("a\nb\nc\n", &insert, PreviewMode::Full, 1, 500), "2│+x\n3│+y\n");
    assert_eq!(shown("a\nb\nc\n", &insert, PreviewMode::Stats, 1, 500), "line 2, col 1: +4/-0 chars\ntotal: 1 change, +4/-0 chars\n");
    assert_eq!(shown("a\nb\nc\n", &insert, PreviewMode::Diff, 1, 500), "--- a/memo.md\n+++ b/memo.md\n@@ -1,2 +1,4 @@\n a\n+x\n+y\n b\n");
    assert_eq!(shown("a\nb\nc\n", &insert, PreviewMode::Diff, 0, 500), "--- a/memo.md\n+++ b/memo.md\n@@ -1,0 +2,2 @@\n+x\n+y\n");
    // into an empty document, and everything deleted
    assert_eq!(shown("", &[(0..0, "x\n")], PreviewMode::Diff, 3, 500), "--- a/memo.md\n+++ b/memo.md\n@@ -0,0 +1 @@\n+x\n");
    assert_eq!(
        shown("x\ny", &[(0..3, "")], PreviewMode::Diff, 3, 500),
        "--- a/memo.md\n+++ b/memo.md\n@@ -1,2 +0,0 @@\n-x\n-y\n\\ No newline at end of file\n"
    );
}

#[test]
fn several_changes_give_several_hunks_and_one_stats_line_each() {
    let base: String = (1..=20).map(|i| format!("l{i}\n")).collect();
    let edits = [(find(&base, "l2\n"), "L2\n"), (find(&base, "l4\n"), ""), (find(&base, "l18"), "L18")];
    // One changed letter is +1/-1 (`l2` → `L2` shares `2⏎`).
    let stats = "line 2, col 1: +1/-1 chars\nline 4, col 1: +0/-3 chars\nline 17, col 1: +1/-1 chars\ntotal: 3 changes, +2/-5 chars\n";
    assert_eq!(shown(&base, &edits, PreviewMode::Stats, 1, 500), stats);
    let diff = "--- a/memo.md
+++ b/memo.md
@@ -1,5 +1,4 @@
 l1
-l2
+L2
 l3
-l4
 l5
@@ -17,3 +16,3 @@
 l17
-l18
+L18
 l19
";
    assert_eq!(shown(&base, &edits, PreviewMode::Diff, 1, 500), diff);
    // Every number is a draft line: l18, line 18 of the base, stood on draft line 17 (l4 is gone).
    let rule = "─".repeat(24);
    let full = format!("2│-l2\n2│+L2\n{rule}\n4│-l4\n{rule}\n17│-l18\n17│+L18\n");
    assert_eq!(shown(&base, &edits, PreviewMode::Full, 1, 500), full);
    assert_eq!(shown(&base, &[], PreviewMode::Stats, 1, 500), "");
    assert_eq!(shown(&base, &[], PreviewMode::Diff, 1, 500), "");
}

#[test]
fn a_change_that_could_sit_lower_is_shown_where_diff_shows_it() {
    // Deleting the first of two equal lines: `diff -u` (and `similar`) deletes the second.
    assert_eq!(shown("x\na\na\nb\n", &[(2..4, "")], PreviewMode::Diff, 0, 500), "--- a/memo.md\n+++ b/memo.md\n@@ -3 +2,0 @@\n-a\n");
    // Inserting a copy of a line before it: shown after it.
    assert_eq!(shown("x\na\nb\n", &[(2..2, "a\n")], PreviewMode::Diff, 0, 500), "--- a/memo.md\n+++ b/memo.md\n@@ -2,0 +3 @@\n+a\n");
}

#[test]
fn hunks_are_capped_with_a_marker() {
    let base: String = (1..=12).map(|i| format!("line {i}\n")).collect();
    let added: String = (1..=8).map(|i| format!("new {i}\n")).collect();
    let edit = [(7..7, added.as_str())];
    // The hunk runs to line 11; the six rows shown stop at 6: a one-digit gutter, which lets
    // the sixth in (`1│ line 1` is 10 chars, `2│+new 1` 9).
    assert_eq!(
        shown(&base, &edit, PreviewMode::Compact, 2, 60),
        "1│ line 1\n2│+new 1\n3│+new 2\n4│+new 3\n5│+new 4\n6│+new 5\n… 5 more lines\n"
    );
    assert!(shown(&base, &edit, PreviewMode::Compact, 2, 0).starts_with(" 1│ line 1\n 2│+new 1\n"), "uncapped, it shows line 11");
    assert_eq!(
        shown(&base, &edit, PreviewMode::Full, 2, 60),
        "2│+new 1\n3│+new 2\n4│+new 3\n5│+new 4\n6│+new 5\n7│+new 6\n… 2 more lines\n"
    );
    let diff = "--- a/memo.md\n+++ b/memo.md\n@@ -1,3 +1,11 @@\n line 1\n+new 1\n+new 2\n+new 3\n+new 4\n+new 5\n… 5 more lines\n";
    assert_eq!(shown(&base, &edit, PreviewMode::Diff, 2, 60), diff);
    assert_eq!(
        shown(&base, &edit, PreviewMode::Full, 2, 63),
        "2│+new 1\n3│+new 2\n4│+new 3\n5│+new 4\n6│+new 5\n7│+new 6\n8│+new 7\n… 1 more line\n"
    );
    // Exactly the length of the eight rows: no marker.
    assert_eq!(shown(&base, &edit, PreviewMode::Full, 2, 72), shown(&base, &edit, PreviewMode::Full, 2, 0));
    // 0: no cap; a first line longer than the cap is cut, with `…` (its line break not counted)
    assert_eq!(shown(&base, &edit, PreviewMode::Full, 2, 0).lines().count(), 8);
    assert_eq!(shown(&base, &edit, PreviewMode::Full, 2, 8), "2│+new 1\n… 7 more lines\n");
    assert_eq!(shown(&base, &edit, PreviewMode::Full, 2, 5), "2│+ne…\n… 7 more lines\n");
    // each hunk is capped on its own; the rule between them stays
    let two = [(find(&base, "line 2\n"), "L2\nL2b\n"), (find(&base, "line 11\n"), "L11\nL11b\n")];
    let capped = shown(&base, &two, PreviewMode::Full, 0, 13);
    assert_eq!(capped, format!("2│-line 2\n… 2 more lines\n{}\n12│-line 11\n… 2 more lines\n", "─".repeat(24)));
    // the stats mode has no hunks to cap
    assert!(shown(&base, &edit, PreviewMode::Stats, 2, 1).starts_with("line 2, col 1: +48/-0 chars\n"));
}

#[test]
fn render_compact_is_compact_under_the_cap() {
    let base: String = (1..=20).map(|i| format!("l{i}\n")).collect();
    let edits = [(find(&base, "l2\n"), "L2\n"), (find(&base, "l18"), "L18")];
    let (b, d, spans) = build(&base, &edits);
    let rendered = render(&b, &d, &spans, "m", &PreviewOptions::default());
    assert_eq!(rendered, compact(&b, &d, &spans, DEFAULT_CONTEXT_LINES));
    assert!(rendered.contains('─'));
}

#[test]
fn only_line_feeds_end_lines() {
    // ropey is built without `unicode_lines`: U+2028 (like NEL, VT, FF) stays inside a line,
    // as in `str::lines` and `diff -u`.
    let base = "a\u{2028}b\nc\n";
    let diff = shown(base, &[(find(base, "c"), "C")], PreviewMode::Diff, 3, 500);
    assert_eq!(diff, "--- a/memo.md\n+++ b/memo.md\n@@ -1,2 +1,2 @@\n a\u{2028}b\n-c\n+C\n");
}

#[test]
fn similars_miscounted_header_is_counted_right() {
    // `similar` 2.7 prints `@@ -4,2 +4,6 @@` over these five old and six new lines.
    let base = "\n\n\n\n中a中中\na\n中\n\n";
    let edits = [(1..1, "\n\n\n\n\n"), (1..9, ""), (9..9, "😀\n"), (9..12, "")];
    let expected = "--- a/memo.md\n+++ b/memo.md\n@@ -4,5 +4,6 @@\n \n-中a中中\n-a\n-中\n \n+\n+😀\n+\n+\n";
    assert_eq!(shown(base, &edits, PreviewMode::Diff, 1, 0), expected);
    assert_eq!(unified_whole(base, "\n\n\n\n\n\n😀\n\n\n", "a/memo.md", "b/memo.md", 1), expected);
}

#[test]
fn unified_whole_of_two_texts() {
    assert_eq!(unified_whole("same\n", "same\n", "storage", "cache", 3), "");
    assert_eq!(
        unified_whole("a\nb\nc\n", "a\nB\nc\n", "storage/memo.md\tv3", "cache/memo.md", 3),
        "--- storage/memo.md\tv3\n+++ cache/memo.md\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    );
    assert_eq!(unified_whole("", "x", "a", "b", 3), "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n");
    assert_eq!(unified_whole("x\r\ny\r\n", "x\r\nz\r\n", "a", "b", 0), "--- a\n+++ b\n@@ -2 +2 @@\n-y\r\n+z\r\n");
}

#[test]
fn a_huge_change_is_shown_without_a_quadratic_diff() {
    // 6,000 different lines each side: over MYERS_STEPS, shown as removed then added.
    let old: String = (0..6000).map(|i| format!("old {i}\n")).collect();
    let new: String = (0..6000).map(|i| format!("new {i}\n")).collect();
    let diff = unified_whole(&old, &new, "a", "b", 3);
    assert!(diff.starts_with("--- a\n+++ b\n@@ -1,6000 +1,6000 @@\n-old 0\n"));
    assert_eq!(diff.lines().filter(|l| l.starts_with('-')).count(), 6001);
    // the same lines with a few differences: Myers is cheap and exact
    let mut near = old.clone();
    near.replace_range(near.find("old 3000\n").unwrap()..near.find("old 3001\n").unwrap(), "changed\n");
    let diff = unified_whole(&old, &near, "a", "b", 0);
    assert_eq!(diff, "--- a\n+++ b\n@@ -3001 +3001 @@\n-old 3000\n+changed\n");
}

#[test]
fn edit_distance_is_bounded() {
    assert_eq!(edit_distance_at_most(&[1, 2, 3], &[1, 3], 5), Some(1));
    assert_eq!(edit_distance_at_most(&[1, 2, 3], &[4, 5, 6], 5), None);
    assert_eq!(edit_distance_at_most(&[1, 2, 3], &[4, 5, 6], 6), Some(6));
    assert_eq!(edit_distance_at_most(&[], &[], 0), Some(0));
    assert_eq!(split_lines("a\r\nb\rc\nd"), vec!["a\r\n", "b\r", "c\n", "d"]);
}

#[test]
fn stats_count_a_change_of_several_places_once() {
    let base = Rope::from_str("a1\nx\na2\ny\n");
    let draft = Rope::from_str("b1\nx\nbb2\ny\n");
    let spans = [ChangeSpan { base: 0..1, draft: 0..1 }, ChangeSpan { base: 5..6, draft: 5..7 }];
    let stats = PreviewOptions { mode: PreviewMode::Stats, ..PreviewOptions::default() };
    assert_eq!(
        render_changes(&base, &draft, &spans, &[3, 3], "p", &stats),
        "line 1, col 1: +3/-2 chars in 2 places\ntotal: 1 change, +3/-2 chars\n"
    );
    let apart = "line 1, col 1: +1/-1 chars\nline 3, col 1: +2/-1 chars\ntotal: 2 changes, +3/-2 chars\n";
    assert_eq!(render_changes(&base, &draft, &spans, &[0, 1], "p", &stats), apart);
    assert_eq!(render(&base, &draft, &spans, "p", &stats), apart);
    // The other modes show every place, as `render` does.
    for mode in [PreviewMode::Compact, PreviewMode::Full, PreviewMode::Diff] {
        let opts = PreviewOptions { mode, ..PreviewOptions::default() };
        assert_eq!(render_changes(&base, &draft, &spans, &[3, 3], "p", &opts), render(&base, &draft, &spans, "p", &opts));
    }
}

#[test]
fn a_capped_preview_shows_its_first_hunks_and_counts_the_rest() {
    // 25 changes ten lines apart: 25 hunks in every mode but stats.
    let base: String = (0..250).map(|i| format!("line {i}\n")).collect();
    let edits: Vec<(Range<usize>, &str)> = (0..25).map(|k| (find(&base, &format!("line {}\n", k * 10)), "changed\n")).collect();
    for mode in [PreviewMode::Compact, PreviewMode::Full] {
        let capped = shown(&base, &edits, mode, 1, DEFAULT_MAX_PREVIEW_LENGTH);
        assert_eq!(capped.matches("│+changed").count(), MAX_HUNKS, "{mode:?}\n{capped}");
        assert!(capped.ends_with(&format!("… {} more changed places\n", 25 - MAX_HUNKS)), "{mode:?}\n{capped}");
        // No cap: every hunk, no marker.
        let whole = shown(&base, &edits, mode, 1, 0);
        assert_eq!(whole.matches("│+changed").count(), 25, "{mode:?}");
        assert!(!whole.contains("more changed place"));
    }
    let capped = shown(&base, &edits, PreviewMode::Diff, 1, DEFAULT_MAX_PREVIEW_LENGTH);
    assert_eq!(capped.matches("\n+changed").count(), MAX_HUNKS, "{capped}");
    assert!(capped.ends_with(&format!("… {} more hunks\n", 25 - MAX_HUNKS)), "{capped}");
    assert_eq!(shown(&base, &edits, PreviewMode::Diff, 1, 0).matches("\n+changed").count(), 25);
}

/// `render_labelled` over `edits` lettered by `letters` (letter indices, one per edit).
fn labelled(base: &str, edits: &[(Range<usize>, &str)], letters: &[usize], mode: PreviewMode, ctx: usize, max: usize) -> Labelled {
    let (base, draft, spans) = build(base, edits);
    render_labelled(
        &base,
        &draft,
        &spans,
        letters,
        "memo.md",
        &PreviewOptions { mode, context_lines: ctx, max_length: max, ..PreviewOptions::default() },
        crate::locale::Locale::En.words(),
    )
}

#[test]
fn each_hunk_is_labelled_with_its_changes_in_the_order_they_appear() {
    let base: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    // C on line 2 and A on line 4 share a hunk; B deletes line 20 (a pure deletion) far below.
    let edits = [(find(&base, "line 2\n"), "LINE 2\n"), (find(&base, "line 4\n"), "LINE 4\n"), (find(&base, "line 20\n"), "")];
    let letters = [2, 0, 1];
    let c = labelled(&base, &edits, &letters, PreviewMode::Compact, 1, 0);
    assert!(c.whole && c.text.starts_with("── change C, A\n1│ line 1\n2│-line 2\n"), "{}", c.text);
    assert!(c.text.contains("\n── change B\n19│ line 19\n20│-line 20\n"), "{}", c.text);
    assert!(!c.text.contains("─────"), "the labels stand where the rules were: {}", c.text);
    let full = labelled(&base, &edits, &letters, PreviewMode::Full, 0, 0);
    assert_eq!(full.text.matches("── change ").count(), 3, "no context: three hunks: {}", full.text);
    assert!(full.text.contains("── change B\n20│-line 20\n"), "{}", full.text);
    // Unified: the label ends the hunk header; without context the deletion's hunk is B's.
    for ctx in [0, 1, 3] {
        let d = labelled(&base, &edits, &letters, PreviewMode::Diff, ctx, 0);
        assert!(d.whole, "{}", d.text);
        assert!(d.text.contains(" @@ change B\n"), "context {ctx}: {}", d.text);
        let headers: Vec<&str> = d.text.lines().filter(|l| l.starts_with("@@")).collect();
        assert!(headers.iter().all(|h| h.contains(" @@ change ")), "context {ctx}: {headers:?}");
        // Without the labels it is the plain diff.
        let plain = shown(&base, &edits, PreviewMode::Diff, ctx, 0);
        let unlabelled: String = d
            .text
            .lines()
            .map(|l| if l.starts_with("@@") { format!("{} @@\n", l.split(" @@").next().unwrap()) } else { format!("{l}\n") })
            .collect();
        assert_eq!(unlabelled, plain, "context {ctx}");
    }
    // A cut hunk, or hunks left out, is not the whole of the changes; stats never say it.
    assert!(!labelled(&base, &edits, &letters, PreviewMode::Compact, 1, 30).whole);
    assert!(!labelled(&base, &edits, &letters, PreviewMode::Diff, 1, 30).whole);
    assert!(!labelled(&base, &edits, &letters, PreviewMode::Stats, 1, 0).whole);
    let many: Vec<(Range<usize>, &str)> = (0..12).map(|i| (find(&base, &format!("line {}\n", 2 * i + 3)), "x\n")).collect();
    let capped = labelled(&base, &many, &(0..12).collect::<Vec<_>>(), PreviewMode::Full, 0, 500);
    assert!(!capped.whole && capped.text.contains("more changed place"), "{}", capped.text);
}

/// The hunks of a gutter preview split at its `─` rules.
fn hunks_of(text: &str) -> Vec<Vec<&str>> {
    text.split(&format!("{}\n", "─".repeat(24))).map(|h| h.lines().collect()).collect()
}

#[test]
fn each_hunk_is_as_wide_as_its_largest_number() {
    let base: String = (1..=120).map(|i| format!("line {i}\n")).collect();
    // Hunks around lines 2 (1–3), 10 (9–11: crosses 9→10) and 100 (99–101: crosses 99→100).
    let edits = [(find(&base, "line 2\n"), "LINE 2\n"), (find(&base, "line 10\n"), "LINE 10\n"), (find(&base, "line 100\n"), "LINE 100\n")];
    for mode in [PreviewMode::Compact, PreviewMode::Full] {
        let text = shown(&base, &edits, mode, 1, 0);
        let hunks = hunks_of(&text);
        assert_eq!(hunks.len(), 3, "{text}");
        for (rows, width) in hunks.iter().zip([1, 2, 3]) {
            for row in rows {
                let (number, _) = row.split_once('│').unwrap_or_else(|| panic!("{row:?}"));
                // Right-aligned to the hunk's width: the bars line up, no padding beyond it.
                assert_eq!(number.chars().count(), width, "{mode:?} {row:?}\n{text}");
                assert!(!number.trim_start().is_empty() && number.trim_start().bytes().all(|b| b.is_ascii_digit()), "{row:?}");
            }
        }
    }
    let compact = shown(&base, &edits, PreviewMode::Compact, 1, 0);
    assert!(compact.contains(" 9│ line 9\n10│-line 10\n10│+LINE 10\n11│ line 11\n"), "{compact}");
    assert!(compact.contains(" 99│ line 99\n100│-line 100\n100│+LINE 100\n101│ line 101\n"), "{compact}");
    assert!(compact.starts_with("1│ line 1\n2│-line 2\n"), "{compact}");
    // A cap that shows lines 8 and 9 of a hunk running to 12: one digit, not padded to two.
    let small: String = (1..=20).map(|i| format!("l{i}\n")).collect();
    let edit = [(find(&small, "l10\n"), "L10\n")];
    assert_eq!(shown(&small, &edit, PreviewMode::Compact, 2, 19), "8│ l8\n9│ l9\n… 4 more lines\n");
    assert_eq!(shown(&small, &edit, PreviewMode::Compact, 2, 0), " 8│ l8\n 9│ l9\n10│-l10\n10│+L10\n11│ l11\n12│ l12\n");
    // The labelled preview of memo_preview too.
    let l = labelled(&base, &edits, &[0, 1, 2], PreviewMode::Compact, 1, 0);
    assert!(l.text.contains("── change B\n 9│ line 9\n") && l.text.contains("── change C\n 99│ line 99\n"), "{}", l.text);
}

#[test]
fn removed_lines_carry_the_draft_line_they_stood_on() {
    let base: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    // A adds a line after line 3; B replaces line 20; C deletes line 25.
    let edits = [(find(&base, "line 4\n"), "added\nline 4\n"), (find(&base, "line 20\n"), "LINE 20\n"), (find(&base, "line 25\n"), "")];
    let text = shown(&base, &edits, PreviewMode::Compact, 1, 0);
    let hunks = hunks_of(&text);
    assert_eq!(hunks.len(), 3, "{text}");
    // Line 20 of the base is line 21 of the draft, where its replacement stands: no number is
    // both a context line and a removed line.
    assert_eq!(hunks[1], ["20│ line 19", "21│-line 20", "21│+LINE 20", "22│ line 21"], "{text}");
    for rows in &hunks {
        let numbers = |marker: char| -> Vec<&str> {
            rows.iter()
                .filter(|r| r.split_once('│').is_some_and(|(_, t)| t.starts_with(marker)))
                .map(|r| r.split_once('│').unwrap().0.trim())
                .collect()
        };
        assert!(numbers('-').iter().all(|n| !numbers(' ').contains(n)) || numbers('+').is_empty(), "{text}");
    }
    // A pure deletion carries the number of the draft line now after it.
    assert_eq!(hunks[2], ["25│ line 24", "26│-line 25", "26│ line 26"], "{text}");
    // The same hunk as the staging preview of B made on top of A: one numbering for both.
    let (_, after_a, _) = build(&base, &edits[..1]);
    let after_a = after_a.to_string();
    let b_alone = shown(&after_a, &[(find(&after_a, "line 20\n"), "LINE 20\n")], PreviewMode::Compact, 1, 0);
    assert_eq!(b_alone.lines().collect::<Vec<_>>(), hunks[1]);
    let full = shown(&base, &edits, PreviewMode::Full, 0, 0);
    assert!(full.contains("21│-line 20\n21│+LINE 20\n") && full.contains("26│-line 25\n"), "{full}");
}
