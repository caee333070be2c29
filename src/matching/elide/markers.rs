//! Placeholder lines (docs/architecture.md#matching): the lines a model writes for text it
//! left out — `...`, `…`, `[...]`, or a comment saying so in any comment syntax
//! (`// ... existing code ...`, `# rest unchanged`, `<!-- ... -->`, `-- snip --`,
//! `// Rest of the code remains the same`, `{/* ... */}`).
//!
//! A line that looks like one is only a candidate: whether it stands for lines left out is
//! decided where it is used, by whether the document (or old_text) holds that line at that
//! place (src/matching/elide.rs, src/matching/elide/sketch.rs).

/// Comment openers, longest first (`<!--` before `<`, `//` before `/`), with the closer each
/// may carry. A single-character opener may be repeated (`;;;`, `###`, `%%`).
const COMMENTS: &[(&str, &str)] = &[
    ("{/*", "*/}"),
    ("<!--", "-->"),
    ("/*", "*/"),
    ("(*", "*)"),
    ("{-", "-}"),
    ("{#", "#}"),
    ("//", ""),
    ("--", ""),
    ("::", ""),
    ("REM ", ""),
    ("#", ""),
    (";", ""),
    ("%", ""),
    ("*", ""),
];

/// Words a placeholder comment may be made of (besides an ellipsis); at least one of
/// [`KEY_WORDS`] must be among them. A comment with any other word is a comment
/// (`// returns unchanged input`), not a placeholder.
const PLACEHOLDER_WORDS: &[&str] = &[
    "a",
    "above",
    "all",
    "and",
    "are",
    "as",
    "before",
    "below",
    "block",
    "blocks",
    "body",
    "brevity",
    "case",
    "cases",
    "change",
    "changes",
    "changed",
    "class",
    "code",
    "component",
    "config",
    "content",
    "contents",
    "continue",
    "continues",
    "definitions",
    "else",
    "etc",
    "everything",
    "existing",
    "fields",
    "file",
    "for",
    "from",
    "function",
    "functions",
    "goes",
    "handlers",
    "here",
    "imports",
    "in",
    "is",
    "it",
    "its",
    "keep",
    "kept",
    "left",
    "lines",
    "logic",
    "members",
    "method",
    "methods",
    "modified",
    "no",
    "not",
    "of",
    "omitted",
    "on",
    "other",
    "out",
    "part",
    "previous",
    "properties",
    "props",
    "remain",
    "remainder",
    "remaining",
    "remains",
    "rest",
    "same",
    "section",
    "so",
    "snip",
    "snipped",
    "stay",
    "stays",
    "stuff",
    "tests",
    "that",
    "the",
    "this",
    "to",
    "truncated",
    "unchanged",
    "unmodified",
    "untouched",
    "was",
    "were",
    "elided",
    "implementation",
    "skipped",
    "still",
    "there",
    "what",
    "you",
    "query",
    "queries",
    "rules",
    "styles",
    "routes",
    "types",
    "helpers",
    "steps",
    "entries",
    "settings",
    "options",
    "targets",
    "page",
    "document",
    "docs",
    "table",
    "script",
    "module",
    "struct",
    "impl",
    "unit",
    "statements",
    "arms",
    "branches",
    "variants",
    "keys",
    "values",
    "items",
    "list",
];

/// Words that make a comment of [`PLACEHOLDER_WORDS`] a placeholder.
const KEY_WORDS: &[&str] = &[
    "unchanged",
    "existing",
    "omitted",
    "snip",
    "snipped",
    "rest",
    "remaining",
    "remainder",
    "elided",
    "truncated",
    "same",
    "unmodified",
    "untouched",
    "skipped",
    "etc",
];

/// Whether `line` is an elision marker a model writes for text it left out: `...`, `…`,
/// `[...]`, `(...)`, or a comment made of one (`// ... existing code ...`, `# ...`,
/// `<!-- ... -->`), or a comment that says so in a few words (`// rest unchanged`,
/// `// Rest of the code remains the same`, `// --snip--`, `-- ... --`). A spread like
/// `...rest` or a statement like `f(...)` is not one, nor a comment with other words in it.
/// Cost: O(line).
pub fn is_elision_line(line: &str) -> bool {
    let mut s = line.trim();
    let mut commented = false;
    for (open, close) in COMMENTS {
        if let Some(rest) = s.strip_prefix(open) {
            s = rest;
            if open.len() == 1 {
                s = s.trim_start_matches(*open);
            }
            if !close.is_empty() {
                s = s.trim_end().strip_suffix(close).unwrap_or(s);
            }
            s = s.trim();
            commented = true;
            break;
        }
    }
    // `--snip--`, `== rest ==`, `[...]`, `(...)`, `<snip>`: decoration around the words.
    let s = s.trim_matches(|c: char| c == '-' || c == '=' || c == '~').trim();
    let bracketed = [('[', ']'), ('(', ')'), ('<', '>')].iter().find_map(|(a, b)| s.strip_prefix(*a).and_then(|x| x.strip_suffix(*b)));
    let s = bracketed.map_or(s, str::trim);
    if (commented || bracketed.is_some()) && is_elision_phrase(s) {
        return true;
    }
    let Some(rest) = s.strip_prefix("...").or_else(|| s.strip_prefix('…')) else { return false };
    let rest = rest.trim_end_matches(['.', '…']);
    if rest.is_empty() {
        return true;
    }
    // `... existing code ...`: words after a space, ending in an ellipsis or not.
    rest.starts_with(' ') && rest.len() <= 60 && rest.chars().all(|c| c.is_alphanumeric() || " -_,'()".contains(c))
}

/// A short comment that says code was left out: only [`PLACEHOLDER_WORDS`], one of them a
/// [`KEY_WORDS`] (`rest unchanged`, `existing code here`, `rest of the code remains the
/// same`, `snip`, `other methods unchanged`), at most ten words; ellipses and punctuation
/// around them are allowed. Cost: O(s).
fn is_elision_phrase(s: &str) -> bool {
    // Per char, without `str::to_lowercase`'s final-sigma rule (its tables would ship for it):
    // `σ` and `ς` are both letters outside the ASCII words above, so the answer is the same.
    let lower = crate::text_rules::lower_chars(s.chars());
    if !lower.chars().all(|c| c.is_alphanumeric() || " .…,:;'()-_!".contains(c)) {
        return false;
    }
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    (1..=10).contains(&words.len()) && words.iter().all(|w| PLACEHOLDER_WORDS.contains(w)) && words.iter().any(|w| KEY_WORDS.contains(w))
}

/// The pieces of `text` around its elision marker lines ([`is_elision_line`]), without the
/// blank lines at their edges; empty when `text` has no marker line. Each piece is an anchor:
/// the text the model did copy. Cost: O(n).
pub fn elided_pieces(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    if !lines.iter().any(|l| is_elision_line(l)) {
        return Vec::new();
    }
    let mut pieces = Vec::new();
    for group in lines.split(|l| is_elision_line(l)) {
        let start = group.iter().position(|l| !l.trim().is_empty());
        let end = group.iter().rposition(|l| !l.trim().is_empty());
        if let (Some(a), Some(b)) = (start, end) {
            pieces.push(group.get(a..=b).unwrap_or_default().join("\n"));
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placeholder styles models write, in every comment syntax.
    #[test]
    fn the_placeholders_models_write_are_markers_in_every_comment_syntax() {
        let yes = [
            "// Rest of the code remains the same",
            "// --snip--",
            "    // snip",
            "// ... (rest of the function unchanged)",
            "// ... other methods ...",
            "// keep existing code",
            "# ... (other methods unchanged)",
            "## rest of the file unchanged",
            "-- rest of the query unchanged",
            "-- ...",
            "; ...",
            ";; rest unchanged",
            "% ...",
            "(* ... *)",
            "{/* ... */}",
            "{# ... #}",
            "{- ... -}",
            "REM ...",
            "<!-- rest of the page unchanged -->",
            "/* existing code */",
            "[snip]",
            "[rest of the file unchanged]",
            "(...)",
            "<snip>",
            "// etc.",
            "// Other fields remain the same",
            "# remaining tests unchanged",
        ];
        for line in yes {
            assert!(is_elision_line(line), "{line}");
        }
        let no = [
            "// returns unchanged input",
            "// the rest of the items are sorted here by date",
            "# keep the cache warm",
            "-- drop the old table",
            "(x)",
            "<div>",
            "[link]",
            "// same as the parser's buffer",
            "* Changed: parser",
        ];
        for line in no {
            assert!(!is_elision_line(line), "{line}");
        }
    }
}
