//! Near misses in words: the `NoMatch` preview of the closest regions and the text of a
//! difference, written from the data src/matching/near/ returns ([`NearMissView`],
//! [`Difference`]) in the voice's locale (phrase keys `near.*`, `diff.*`;
//! docs/responses.md#previews).

use crate::locale::Words;
use crate::matching::near::{two_decimals, Difference, Label, NearMissView};

/// A line label of a difference as `w` words it: `line 3: ` / `第 3 行：`.
fn label(w: &Words, l: Label) -> String {
    match l {
        Label::Line(n) => w.t("diff.line", &[("line", &n)]),
        Label::After(n) => w.t("diff.after_line", &[("line", &n)]),
        Label::BeforeFirst => w.t("diff.before_first", &[]),
        Label::DifferencesAfter(n) => w.t("diff.differences_after", &[("line", &n)]),
    }
}

/// The text of `d` (`line 2: ··timeout:·3[-O-]{+0+}`), its labels in `w`'s words. Cost: O(the
/// pieces' text).
pub fn difference_text(d: &Difference, w: &Words) -> String {
    d.render(&|l| label(w, l))
}

/// The `NoMatch` preview of `misses`: the legend `[-only in yours-] {+only in the document+}`
/// once, then per region a header (`[A] line 5, similarity 0.92:`, the letter only for an
/// offered one) and its difference. Regions not offered whose similarity and difference read
/// the same are one entry naming all their lines (`lines 2, 6, 10, …`), at the place of the
/// first. Cost: O(output) plus O(m²) comparisons for m misses (m is small), each difference at
/// most ~600 chars.
pub fn near_misses_text<'a>(misses: impl IntoIterator<Item = &'a NearMissView>, w: &Words) -> String {
    // (letter, lines, similarity, rendered difference) per entry, in order.
    let mut entries: Vec<(Option<&str>, Vec<usize>, String, String)> = Vec::new();
    for n in misses {
        let (similarity, text) = (two_decimals(n.similarity), difference_text(&n.difference, w));
        let same = entries.iter_mut().find(|(id, _, sim, t)| id.is_none() && n.id.is_none() && *sim == similarity && *t == text);
        match same {
            Some((_, lines, _, _)) => lines.push(n.line),
            None => entries.push((n.id.as_deref(), vec![n.line], similarity, text)),
        }
    }
    let mut preview = String::new();
    if !entries.is_empty() {
        preview.push_str(w.phrase("near.legend"));
        preview.push('\n');
    }
    for (id, lines, similarity, text) in entries {
        preview.push('\n');
        let letter = id.map_or(String::new(), |l| format!("[{l}] "));
        let at = match lines.as_slice() {
            [one] => w.line_no(*one),
            many => {
                let many: Vec<String> = many.iter().map(usize::to_string).collect();
                w.t("near.lines", &[("lines", &many.join(w.phrase("comma_sep")))])
            }
        };
        preview.push_str(&w.t("near.region", &[("letter", &letter), ("at", &at), ("similarity", &similarity)]));
        preview.push('\n');
        preview.push_str(&text);
        preview.push('\n');
    }
    preview
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locale::Locale;
    use crate::matching::near::{difference, near_misses};
    use ropey::Rope;

    fn views(draft: &Rope, needle: &str, limit: usize, offered: usize) -> Vec<NearMissView> {
        near_misses(draft, needle, 0, limit)
            .iter()
            .enumerate()
            .map(|(i, n)| NearMissView::of(draft, n, needle, (i < offered).then(|| ((b'A' + i as u8) as char).to_string())))
            .collect()
    }

    #[test]
    fn the_preview_is_a_view_over_the_data() {
        let draft = Rope::from_str("[server]\n  api.timeout: 30  # s\n  retries: 3\n");
        let views = views(&draft, "timeout: 3O", 3, 1);
        let preview = near_misses_text(&views, Locale::En.words());
        assert!(
            preview.starts_with("[-only in yours-] {+only in the document+}\n\n[A] line 2, similarity 0.90:\ntimeout:·3[-O-]{+0+}\n"),
            "{preview}"
        );
        assert_eq!(preview.matches("only in yours").count(), 1, "the legend once: {preview}");
        assert_eq!(preview.matches("line").count(), views.len(), "{preview}");
        // In Chinese: the same data, the legend and headers in Chinese, the difference's markup as it is.
        let zh = near_misses_text(&views, Locale::Zh.words());
        assert!(zh.starts_with("[-只在你的文本里-] {+只在文档里+}\n\n[A] 第 2 行，相似度 0.90：\ntimeout:·3[-O-]{+0+}\n"), "{zh}");
    }

    #[test]
    fn regions_that_read_the_same_are_one_entry_naming_their_lines() {
        let draft = Rope::from_str("a = steps.len;\nx\na = steps.len;\ny\na = steps.len;\nb = steps.len;\n");
        let views = views(&draft, "a = steps.size;", 4, 0);
        assert!(views.len() >= 3, "{views:?}");
        let preview = near_misses_text(&views, Locale::En.words());
        assert!(preview.contains("lines 1, 3, 5, similarity "), "{preview}");
        assert_eq!(preview.matches("a·=·steps.").count(), 1, "one entry for the three equal regions: {preview}");
        assert_eq!(preview.matches("only in yours").count(), 1, "{preview}");
        assert!(near_misses_text(&views, Locale::Zh.words()).contains("第 1、3、5 行，相似度 "));
        // An offered region keeps its own entry: its letter is what the model picks.
        let mut offered = views.clone();
        offered[0].id = Some("A".into());
        let preview = near_misses_text(&offered, Locale::En.words());
        assert!(preview.contains("[A] line 1, similarity "), "{preview}");
        assert!(preview.contains("lines 3, 5, similarity "), "{preview}");
    }

    #[test]
    fn line_labels_are_the_locales() {
        let d = difference("[server]\n  timeout: 3O\n  retries: 3\nend", "[server]\n  timeout: 30\n  backoff: 2\n  retries: 3\n");
        assert_eq!(
            difference_text(&d, Locale::En.words()),
            concat!("line 2: ··timeout:·3[-O-]{+0+}\n", "after line 2: {+··backoff:·2⏎+}\n", "line 4: [-end-]")
        );
        assert_eq!(
            difference_text(&d, Locale::Zh.words()),
            concat!("第 2 行：··timeout:·3[-O-]{+0+}\n", "第 2 行之后：{+··backoff:·2⏎+}\n", "第 4 行：[-end-]")
        );
        assert_eq!(difference_text(&difference("b\n", "a\nb\n"), Locale::Zh.words()), "第 1 行之前：{+a⏎+}");
        let d = Difference { lines: vec![], only_after_line: Some(500) };
        assert_eq!(difference_text(&d, Locale::En.words()), "(differences after line 500)");
        assert_eq!(difference_text(&d, Locale::Zh.words()), "（第 500 行之后还有差异）");
    }
}
