//! Where a line sits in its document's structure: key paths, Markdown heading paths and the
//! nearest comment above — so that a candidate preview can say *which* `timeout: 30` it is
//! (`[B] 第 45 行：api.timeout: 30`, `上下文：# API 调用配置`).
//!
//! All functions are pure, take 0-based line indexes into a [`Rope`], never panic (an index past
//! the end gives the empty answer) and do bounded work:
//!
//! - at most [`MAX_LINE_CHARS`] chars of any one line are looked at (minified files have huge
//!   lines);
//! - [`key_path_preview`] scans back at most [`KEY_SCAN_LINES`] lines, [`heading_path`] at most
//!   [`HEADING_SCAN_LINES`], [`context_line`] at most [`CONTEXT_SCAN_LINES`];
//! - every returned string is at most [`PREVIEW_CHARS`] chars, cut char-safely with `…`.
//!
//! The heuristics are conservative on purpose: a wrong key path or a comment that belongs to
//! another block misleads the model more than the plain line does, so whenever the structure is
//! not clearly recognised the answer falls back to the plain line / no context.

use ropey::Rope;

use crate::text_rules::{atx_heading, clip_within, fence_open, Fence};

/// How many chars of one line are examined; the rest is ignored.
pub const MAX_LINE_CHARS: usize = 1_000;
/// How far back [`key_path_preview`] looks for ancestors / a TOML section header.
pub const KEY_SCAN_LINES: usize = 300;
/// How far back [`heading_path`] looks for enclosing headings (and code fences).
pub const HEADING_SCAN_LINES: usize = 1_000;
/// How far back [`context_line`] looks for a comment or heading.
pub const CONTEXT_SCAN_LINES: usize = 8;
/// Maximum length in chars of any string returned by this module.
pub const PREVIEW_CHARS: usize = 80;

// ---------------------------------------------------------------------------------------------
// Small helpers

/// Line `idx` without its line break, at most [`MAX_LINE_CHARS`] chars; `None` past the end.
/// Cost: O(log n + MAX_LINE_CHARS).
fn line_at(rope: &Rope, idx: usize) -> Option<String> {
    if idx >= rope.len_lines() {
        return None;
    }
    let mut s: String = rope.line(idx).chars().take(MAX_LINE_CHARS).collect();
    while s.ends_with(['\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}']) {
        s.pop();
    }
    Some(s)
}

/// Leading whitespace of a line: its width in chars and which kinds it mixes.
#[derive(Clone, Copy, Debug)]
struct Indent {
    width: usize,
    tabs: bool,
    spaces: bool,
}

fn indent_of(line: &str) -> Indent {
    let mut ind = Indent { width: 0, tabs: false, spaces: false };
    for c in line.chars() {
        match c {
            ' ' => ind.spaces = true,
            '\t' => ind.tabs = true,
            _ => break,
        }
        ind.width += 1;
    }
    ind
}

/// Whether two indentations can be compared by width (no tab-vs-space mix).
fn comparable(a: Indent, b: Indent) -> bool {
    !((a.tabs && b.spaces) || (a.spaces && b.tabs))
}

/// A comment line (trimmed): `#` comments (also Markdown headings), `//`, `/*`, `-- ` and
/// `<!--`. `#include`, `#[attr]`, `#!shebang` and `---` are not comments.
fn is_comment(t: &str) -> bool {
    if t.starts_with("//") || t.starts_with("/*") || t.starts_with("<!--") {
        return true;
    }
    if t == "--" || t.starts_with("-- ") || t.starts_with("--\t") {
        return true;
    }
    if t.starts_with('#') {
        let rest = t.trim_start_matches('#');
        return rest.is_empty() || rest.starts_with([' ', '\t']);
    }
    false
}

// ---------------------------------------------------------------------------------------------
// Key paths

/// Chars allowed in an unquoted key (YAML-ish / TOML bare key, a little wider: `/` for OpenAPI
/// paths, `$` and `@` for `$ref`/`@type`).
fn is_key_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '$' | '@')
}

/// A key at the start of `t` (already trimmed at the start): `(display, rest_after_key)`.
/// Quoted keys (`"k"`, `'k'`) are shown without quotes when their content is a simple key, with
/// them otherwise. Keys with escapes are not recognised.
fn parse_key(t: &str) -> Option<(String, &str)> {
    let first = t.chars().next()?;
    if first == '"' || first == '\'' {
        let (inner, rest) = t.strip_prefix(first)?.split_once(first)?;
        if inner.is_empty() || inner.contains('\\') {
            return None;
        }
        let display = if inner.chars().all(|c| is_key_char(c) && c != '.') { inner.to_string() } else { format!("{first}{inner}{first}") };
        return Some((display, rest));
    }
    if first == '-' || t.starts_with("//") {
        return None;
    }
    let rest = t.trim_start_matches(is_key_char);
    let key = t.strip_suffix(rest).unwrap_or_default();
    if key.is_empty() {
        return None;
    }
    Some((key.to_string(), rest))
}

/// The separator that follows a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    /// `key: value` (YAML) or `"key": value` (JSON).
    Colon,
    /// `key = value` (TOML / INI).
    Equals,
}

/// A key line: key (display form), separator, the rest after the separator (trimmed).
struct KeyLine<'a> {
    key: String,
    sep: Sep,
    rest: &'a str,
}

/// Recognises `key: value`, `key:`, `"key": value` and `key = value` (not `==`).
/// A colon must be followed by whitespace or the end of the line (`http://x` is no key line);
/// an unquoted key may not be followed by spaces before the colon.
fn parse_key_line(line: &str) -> Option<KeyLine<'_>> {
    let t = line.trim();
    let quoted = t.starts_with(['"', '\'']);
    let (key, after) = parse_key(t)?;
    let spaced = after.trim_start();
    if let Some(rest) = (if quoted { spaced } else { after }).strip_prefix(':') {
        if rest.is_empty() || rest.starts_with([' ', '\t']) {
            return Some(KeyLine { key, sep: Sep::Colon, rest: rest.trim() });
        }
        return None;
    }
    if let Some(rest) = spaced.strip_prefix('=') {
        let rest = rest.trim();
        if rest.is_empty() || rest.starts_with('=') {
            return None;
        }
        return Some(KeyLine { key, sep: Sep::Equals, rest });
    }
    None
}

/// Whether a `key:` line opens a nested mapping: nothing after the colon but maybe a `#`
/// comment (YAML), or exactly `{` (JSON). `key: |`, `key: &anchor`, `key: [` … do not.
fn opens_mapping(k: &KeyLine<'_>) -> bool {
    k.sep == Sep::Colon && (k.rest.is_empty() || k.rest == "{" || k.rest.starts_with("# "))
}

/// A strict TOML/INI section header: `[a.b]`, `[[a]]` (shown as `a[]`), `["quoted key"]`,
/// optionally followed by a `#` comment. Anything else starting with `[` (an array element,
/// `[1, 2]`, a Markdown link) is not a header.
fn toml_header(t: &str) -> Option<String> {
    let (array, (inner, after)) =
        if let Some(r) = t.strip_prefix("[[") { (true, r.split_once("]]")?) } else { (false, t.strip_prefix('[')?.split_once(']')?) };
    let after = after.trim();
    if !(after.is_empty() || after.starts_with('#')) {
        return None;
    }
    let mut parts = Vec::new();
    for part in inner.split('.') {
        let p = part.trim();
        let quoted = p.strip_prefix('"').and_then(|q| q.strip_suffix('"'));
        let ok = if let Some(q) = quoted {
            !q.contains(['"', '\\'])
        } else {
            !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        if !ok {
            return None;
        }
        parts.push(p);
    }
    let mut name = parts.join(".");
    if array {
        name.push_str("[]");
    }
    Some(name)
}

/// `ancestors` (outermost first) joined with `.` in front of `leaf`, at most [`PREVIEW_CHARS`]
/// chars: outermost ancestors are dropped first (shown as `…`), then the end is cut.
fn join_path(ancestors: &[String], leaf: &str) -> String {
    let mut start = 0;
    loop {
        let mut s = String::new();
        if start > 0 {
            s.push('…');
        }
        for a in ancestors.iter().skip(start) {
            if start > 0 || !s.is_empty() {
                s.push('.');
            }
            s.push_str(a);
        }
        s.push('.');
        s.push_str(leaf);
        if s.chars().count() <= PREVIEW_CHARS || start + 1 >= ancestors.len() {
            return clip_within(&s, PREVIEW_CHARS);
        }
        start += 1;
    }
}

/// A one-line preview of line `line_idx` that names where it sits in nested data:
/// `database.timeout: 30` for `  timeout: 30` under `database:`.
///
/// Recognised (otherwise the trimmed line is returned, at most [`PREVIEW_CHARS`] chars):
///
/// - **YAML-ish / JSON-ish** `key: value`, `key:`, `"key": value`: the ancestors are, level by
///   level, the nearest previous line with strictly smaller indentation (blank and comment lines
///   skipped). Each must open a mapping — `key:` (maybe with a `# comment`) or `"key": {` — and
///   the chain must reach indentation 0 (a top-level key, or a JSON root `{` in column 0).
///   Anything else on the way (a list item `- name: a`, `key: |`, `"key": [`, a `{` that is not
///   in column 0, code, tabs mixed with spaces, the scan bound) means the structure is not
///   understood and the plain line is returned. The line is shown as `key: value` with simple
///   quoted keys unquoted (`api.timeout: 30,` for JSON `"timeout": 30,`).
/// - **TOML / INI** `key = value`: the nearest strict section header above (`[server]`,
///   `[a.b]`, `[[bin]]` → `bin[]`) is the prefix: `server.port = 8080`. No header within the
///   scan (top-level keys, or code such as `x = 1`) → the plain line.
///
/// Long paths drop their outermost ancestors first (`….api.timeout: 30`).
///
/// Cost: O(KEY_SCAN_LINES × MAX_LINE_CHARS) worst case, O(lines back to the root) typically.
pub fn key_path_preview(rope: &Rope, line_idx: usize) -> String {
    let Some(line) = line_at(rope, line_idx) else {
        return String::new();
    };
    let plain = clip_within(line.trim(), PREVIEW_CHARS);
    let Some(kl) = parse_key_line(&line) else {
        return plain;
    };
    let lo = line_idx.saturating_sub(KEY_SCAN_LINES);
    match kl.sep {
        Sep::Equals => {
            let mut i = line_idx;
            while i > lo {
                i -= 1;
                let Some(l) = line_at(rope, i) else { break };
                let t = l.trim();
                if !t.starts_with('[') {
                    continue;
                }
                if let Some(section) = toml_header(t) {
                    return join_path(&[section], line.trim());
                }
            }
            plain
        }
        Sep::Colon => {
            let own = indent_of(&line);
            if own.width == 0 {
                return plain;
            }
            let mut ancestors: Vec<String> = Vec::new();
            let mut cur = own.width;
            let mut rooted = false;
            let mut i = line_idx;
            while i > lo {
                i -= 1;
                let Some(l) = line_at(rope, i) else { break };
                let t = l.trim();
                if t.is_empty() || is_comment(t) {
                    continue;
                }
                let ind = indent_of(&l);
                if !comparable(ind, own) {
                    return plain;
                }
                if ind.width >= cur {
                    continue;
                }
                if t == "{" {
                    if ind.width == 0 {
                        rooted = true;
                        break;
                    }
                    return plain;
                }
                match parse_key_line(&l) {
                    Some(a) if opens_mapping(&a) => {
                        ancestors.push(a.key);
                        cur = ind.width;
                        if cur == 0 {
                            rooted = true;
                            break;
                        }
                    }
                    _ => return plain,
                }
            }
            if !rooted || ancestors.is_empty() {
                return plain;
            }
            ancestors.reverse();
            let leaf = if kl.rest.is_empty() { format!("{}:", kl.key) } else { format!("{}: {}", kl.key, kl.rest) };
            join_path(&ancestors, &leaf)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Markdown headings

/// An ATX heading (text_rules.rs's [`atx_heading`]): `(level, "## text")` with the closing `#`
/// sequence removed, at most [`PREVIEW_CHARS`] chars.
fn heading_line(line: &str) -> Option<(usize, String)> {
    let (level, text) = atx_heading(line)?;
    let marks = "#".repeat(level);
    let s = if text.is_empty() { marks } else { format!("{marks} {text}") };
    Some((level, clip_within(&s, PREVIEW_CHARS)))
}

/// The Markdown ATX headings enclosing line `line_idx`, outermost first, each as its trimmed
/// heading line without a closing `#` sequence (`["# Guide", "## Install"]`). A heading line
/// is inside its own section, so it ends its own path.
///
/// The scan runs forward over the [`HEADING_SCAN_LINES`] lines up to `line_idx`, keeping a
/// stack (a heading pops every heading of the same or a deeper level) and skipping fenced code
/// blocks (``` and ~~~), so `# comment` lines in a code block are not headings. Headings further
/// back than the bound are not seen, and a fence opened before the bound is not known. Setext
/// headings (`Title` + `===`) are not recognised.
///
/// Meant for Markdown; in other files `# comment` lines read as level-1 headings, so the caller
/// decides whether the document is Markdown.
///
/// Cost: O(HEADING_SCAN_LINES × MAX_LINE_CHARS) worst case.
pub fn heading_path(rope: &Rope, line_idx: usize) -> Vec<String> {
    if line_idx >= rope.len_lines() {
        return Vec::new();
    }
    let lo = line_idx.saturating_sub(HEADING_SCAN_LINES);
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut fence: Option<Fence> = None;
    for i in lo..=line_idx {
        let Some(line) = line_at(rope, i) else { break };
        if let Some(open) = fence {
            if open.is_closed_by(&line) {
                fence = None;
            }
            continue;
        }
        fence = fence_open(&line);
        if fence.is_some() {
            continue;
        }
        if let Some((level, text)) = heading_line(&line) {
            while stack.last().is_some_and(|(l, _)| *l >= level) {
                stack.pop();
            }
            stack.push((level, text));
        }
    }
    stack.into_iter().map(|(_, t)| t).collect()
}

// ---------------------------------------------------------------------------------------------
// Context line

/// The nearest comment (`#`, `//`, `/*`, `-- `, `<!--`) or Markdown heading above line
/// `line_idx` that belongs to the line's own block, trimmed (at most [`PREVIEW_CHARS`] chars):
/// `# API 调用配置` for the `timeout: 30` under `api:` in
///
/// ```text
/// # API 调用配置
/// api:
///   timeout: 30
/// ```
///
/// Walking up at most [`CONTEXT_SCAN_LINES`] lines, with `min` = the smallest indentation seen so
/// far (starting with the line's own):
///
/// - a content line indented less than `min` is an enclosing line (`api:`, `void f() {`); it is
///   passed and lowers `min`;
/// - a content line indented as much as or more than `min` belongs to an earlier sibling (or its
///   body); it is passed, but comments after it belong to that sibling and are skipped until the
///   next enclosing line; a sibling in column 0 ends the search (nothing can enclose it);
/// - a comment is the answer when no sibling was passed since the last enclosing line and it is
///   not indented deeper than `min`; comments without any letter or digit (`# ----`) are skipped;
/// - a blank line ends the block: only a comment/heading directly above the blank line(s) can
///   still be the answer (`# API\n\napi:` — the Markdown heading + blank line pattern).
///
/// So `# 数据库连接配置` above `database:` is never reported for the `api:` block after it.
///
/// Cost: O(CONTEXT_SCAN_LINES × MAX_LINE_CHARS).
pub fn context_line(rope: &Rope, line_idx: usize) -> Option<String> {
    let line = line_at(rope, line_idx)?;
    let mut min = if line.trim().is_empty() { usize::MAX } else { indent_of(&line).width };
    let mut passed_sibling = false;
    let mut after_blank = false;
    let lo = line_idx.saturating_sub(CONTEXT_SCAN_LINES);
    let mut i = line_idx;
    while i > lo {
        i -= 1;
        let l = line_at(rope, i)?;
        let t = l.trim();
        if t.is_empty() {
            after_blank = true;
            continue;
        }
        let ind = indent_of(&l).width;
        if is_comment(t) {
            if !passed_sibling && ind <= min && t.chars().any(char::is_alphanumeric) {
                return Some(clip_within(t, PREVIEW_CHARS));
            }
            if after_blank {
                return None;
            }
            continue;
        }
        if after_blank {
            return None;
        }
        if ind < min {
            min = ind;
            passed_sibling = false;
        } else {
            if ind == min && min == 0 {
                // Nothing can enclose a column-0 sibling: no comment can qualify any more.
                return None;
            }
            passed_sibling = true;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED_YAML: &str = "\
# 数据库连接配置
database:
  host: db.local
  timeout: 30
# API 调用配置
api:
  timeout: 30
# 缓存过期时间
cache:
  timeout: 30
";

    fn rope(s: &str) -> Rope {
        Rope::from_str(s)
    }

    fn line_of(text: &str, needle: &str, nth: usize) -> usize {
        text.lines().enumerate().filter(|(_, l)| l.contains(needle)).nth(nth).unwrap().0
    }

    // ---- key_path_preview

    #[test]
    fn seed_yaml_key_paths() {
        let r = rope(SEED_YAML);
        let got: Vec<String> = (0..3).map(|n| key_path_preview(&r, line_of(SEED_YAML, "timeout: 30", n))).collect();
        assert_eq!(got, ["database.timeout: 30", "api.timeout: 30", "cache.timeout: 30"]);
        // A top-level key and a comment are shown as they are.
        assert_eq!(key_path_preview(&r, 1), "database:");
        assert_eq!(key_path_preview(&r, 0), "# 数据库连接配置");
    }

    #[test]
    fn yaml_deep_nesting_blank_lines_and_comments() {
        let text = "server:\n  http:\n\n    # seconds\n    timeout: 5\n  grpc:\n    timeout: 7\n";
        let r = rope(text);
        assert_eq!(key_path_preview(&r, 4), "server.http.timeout: 5");
        assert_eq!(key_path_preview(&r, 6), "server.grpc.timeout: 7");
        assert_eq!(key_path_preview(&r, 5), "server.grpc:");
    }

    #[test]
    fn yaml_cjk_keys() {
        let text = "数据库:\n  超时: 30\n";
        assert_eq!(key_path_preview(&rope(text), 1), "数据库.超时: 30");
    }

    #[test]
    fn yaml_list_items_and_block_scalars_fall_back_to_the_plain_line() {
        let text = "servers:\n  - name: a\n    timeout: 30\nnotes: |\n  timeout: 30\n";
        let r = rope(text);
        assert_eq!(key_path_preview(&r, 2), "timeout: 30");
        assert_eq!(key_path_preview(&r, 4), "timeout: 30");
    }

    #[test]
    fn unrooted_or_code_lines_fall_back() {
        // Whole snippet indented: the chain never reaches column 0.
        let r = rope("  api:\n    timeout: 30\n");
        assert_eq!(key_path_preview(&r, 1), "timeout: 30");
        // Python: `class Foo:` is not a key line.
        let r = rope("class Foo:\n    x: int = 5\n");
        assert_eq!(key_path_preview(&r, 1), "x: int = 5");
        // Not a key line at all.
        let r = rope("void Process() { int result = 0; }\n");
        assert_eq!(key_path_preview(&r, 0), "void Process() { int result = 0; }");
        // URLs are not keys.
        let r = rope("a:\n  http://x\n");
        assert_eq!(key_path_preview(&r, 1), "http://x");
    }

    #[test]
    fn tabs_mixed_with_spaces_fall_back() {
        let r = rope("a:\n\tb:\n  \tc: 1\n");
        assert_eq!(key_path_preview(&r, 2), "c: 1");
        // Tabs alone are fine.
        let r = rope("a:\n\tb:\n\t\tc: 1\n");
        assert_eq!(key_path_preview(&r, 2), "a.b.c: 1");
    }

    #[test]
    fn json_key_paths() {
        let text = "{\n  \"database\": {\n    \"timeout\": 30\n  },\n  \"api\": {\n    \"timeout\": 30,\n    \"the key\": 1\n  }\n}\n";
        let r = rope(text);
        assert_eq!(key_path_preview(&r, 2), "database.timeout: 30");
        assert_eq!(key_path_preview(&r, 5), "api.timeout: 30,");
        assert_eq!(key_path_preview(&r, 6), "api.\"the key\": 1");
        // A top-level JSON key has no ancestors: the plain line.
        assert_eq!(key_path_preview(&r, 1), "\"database\": {");
    }

    #[test]
    fn json_arrays_fall_back() {
        let text = "{\n  \"servers\": [\n    {\n      \"timeout\": 30\n    }\n  ]\n}\n";
        assert_eq!(key_path_preview(&rope(text), 3), "\"timeout\": 30");
    }

    #[test]
    fn toml_sections() {
        let text = "title = \"x\"\n\n[server]\nport = 8080\n\n[server.api]\n# comment\ntimeout = 30\n\n[[bin]]\nname = \"a\"\n";
        let r = rope(text);
        assert_eq!(key_path_preview(&r, 0), "title = \"x\"");
        assert_eq!(key_path_preview(&r, 3), "server.port = 8080");
        assert_eq!(key_path_preview(&r, 7), "server.api.timeout = 30");
        assert_eq!(key_path_preview(&r, 10), "bin[].name = \"a\"");
    }

    #[test]
    fn toml_needs_a_strict_header() {
        let r = rope("[1, 2]\nx = 1\n");
        assert_eq!(key_path_preview(&r, 1), "x = 1");
        let r = rope("if a == b:\n    x == 1\n");
        assert_eq!(key_path_preview(&r, 1), "x == 1");
    }

    #[test]
    fn long_paths_drop_outer_ancestors_then_cut() {
        let mut text = String::new();
        let names = ["aaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbb", "cccccccccccccccccccc", "dddddddddddddddddddd"];
        for (d, n) in names.iter().enumerate() {
            text.push_str(&format!("{}{n}:\n", "  ".repeat(d)));
        }
        text.push_str(&format!("{}timeout: 30\n", "  ".repeat(names.len())));
        let got = key_path_preview(&rope(&text), names.len());
        assert!(got.chars().count() <= PREVIEW_CHARS, "{got}");
        assert!(got.starts_with("….") && got.ends_with("dddddddddddddddddddd.timeout: 30"), "{got}");
        assert!(!got.contains("aaaa"), "{got}");

        let long = format!("a:\n  k: {}\n", "值".repeat(200));
        let got = key_path_preview(&rope(&long), 1);
        assert_eq!(got.chars().count(), PREVIEW_CHARS);
        assert!(got.starts_with("a.k: 值") && got.ends_with('…'));
    }

    #[test]
    fn out_of_range_is_empty() {
        let r = rope("a: 1\n");
        assert_eq!(key_path_preview(&r, 99), "");
        assert!(heading_path(&r, 99).is_empty());
        assert_eq!(context_line(&r, 99), None);
        assert_eq!(key_path_preview(&rope(""), 0), "");
    }

    // ---- heading_path

    const MD: &str = "\
# Guide

Intro.

## Install

Run `make`.

```sh
# not a heading
make install
```

### Linux ###

apt-get install x

## 配置

超时设置
";

    #[test]
    fn markdown_heading_paths() {
        let r = rope(MD);
        assert_eq!(heading_path(&r, line_of(MD, "Intro.", 0)), ["# Guide"]);
        assert_eq!(heading_path(&r, line_of(MD, "make install", 0)), ["# Guide", "## Install"]);
        assert_eq!(heading_path(&r, line_of(MD, "apt-get", 0)), ["# Guide", "## Install", "### Linux"]);
        // A sibling heading pops the deeper ones; CJK headings.
        assert_eq!(heading_path(&r, line_of(MD, "超时设置", 0)), ["# Guide", "## 配置"]);
        // A heading line is inside its own section.
        assert_eq!(heading_path(&r, line_of(MD, "## Install", 0)), ["# Guide", "## Install"]);
        // Before any heading.
        assert!(heading_path(&rope("text\n# H\n"), 0).is_empty());
    }

    #[test]
    fn heading_syntax_is_strict() {
        let text = "#hashtag\n    # indented code\n#include <x>\n####### seven\n# Real #\nbody\n";
        assert_eq!(heading_path(&rope(text), 5), ["# Real"]);
        // A `#` that ends a word is text, not a closing sequence.
        assert_eq!(heading_path(&rope("## Learn C#\n"), 0), ["## Learn C#"]);
        assert_eq!(heading_path(&rope("## ##\n"), 0), ["##"]);
    }

    #[test]
    fn heading_scan_is_bounded() {
        let mut text = String::from("# Far\n");
        text.push_str(&"x\n".repeat(HEADING_SCAN_LINES + 5));
        let r = rope(&text);
        assert!(heading_path(&r, HEADING_SCAN_LINES + 3).is_empty());
        assert_eq!(heading_path(&r, HEADING_SCAN_LINES - 1), ["# Far"]);
    }

    // ---- context_line

    #[test]
    fn seed_yaml_context_lines() {
        let r = rope(SEED_YAML);
        let got: Vec<Option<String>> = (0..3).map(|n| context_line(&r, line_of(SEED_YAML, "timeout: 30", n))).collect();
        assert_eq!(got, [Some("# 数据库连接配置".into()), Some("# API 调用配置".into()), Some("# 缓存过期时间".into())]);
    }

    #[test]
    fn context_does_not_leak_from_the_previous_block() {
        // No comment above `api:`: the database comment must not be reported.
        let text = "# 数据库连接配置\ndatabase:\n  timeout: 30\napi:\n  timeout: 30\n";
        assert_eq!(context_line(&rope(text), 4), None);
        // A blank line ends the block.
        let text = "# 数据库\ndatabase:\n  timeout: 30\n\napi:\n  timeout: 30\n";
        assert_eq!(context_line(&rope(text), 5), None);
        // A comment about an earlier sibling is not this line's context.
        let text = "api:\n  # retries\n  retries: 3\n  timeout: 30\n";
        assert_eq!(context_line(&rope(text), 3), None);
        // Top-level siblings: nothing encloses them.
        let text = "// init\nvoid Init() { int result = 0; }\nvoid Process() { int result = 0; }\n";
        assert_eq!(context_line(&rope(text), 2), None);
        assert_eq!(context_line(&rope(text), 1).as_deref(), Some("// init"));
    }

    #[test]
    fn a_blank_line_then_code_ends_the_search() {
        // The blank line ends the block even though `fn f() {` encloses the line.
        let text = "# top comment\nfn f() {\n\n    x = 1;\n";
        assert_eq!(context_line(&rope(text), 3), None);
        // Without the blank line the comment is found.
        let text = "# top comment\nfn f() {\n    x = 1;\n";
        assert_eq!(context_line(&rope(text), 2).as_deref(), Some("# top comment"));
    }

    #[test]
    fn context_through_enclosing_code_and_markdown_blank_line() {
        let text = "// process the thing\nvoid Process() {\n    if (a) {\n        foo();\n    }\n    int result = 0;\n}\n";
        assert_eq!(context_line(&rope(text), 5).as_deref(), Some("// process the thing"));
        let text = "## API 调用配置\n\napi:\n  timeout: 30\n";
        assert_eq!(context_line(&rope(text), 3).as_deref(), Some("## API 调用配置"));
        let text = "-- users table\nCREATE TABLE users (\n  id INT\n);\n";
        assert_eq!(context_line(&rope(text), 2).as_deref(), Some("-- users table"));
        let text = "<!-- 说明 -->\n<div>\n  <p>x</p>\n";
        assert_eq!(context_line(&rope(text), 2).as_deref(), Some("<!-- 说明 -->"));
    }

    #[test]
    fn context_skips_non_comments_and_decorations() {
        let text = "#include <x>\nint a;\n";
        assert_eq!(context_line(&rope(text), 1), None);
        let text = "# Real\n# -----\nkey: 1\n";
        assert_eq!(context_line(&rope(text), 2).as_deref(), Some("# Real"));
        let text = "---\nkey: 1\n";
        assert_eq!(context_line(&rope(text), 1), None);
    }

    #[test]
    fn context_scan_is_bounded() {
        let mut text = String::from("# far\nblock:\n");
        text.push_str(&"  x: 1\n".repeat(CONTEXT_SCAN_LINES + 2));
        let r = rope(&text);
        assert_eq!(context_line(&r, CONTEXT_SCAN_LINES + 3), None);
        assert_eq!(context_line(&r, 3).as_deref(), Some("# far"));
    }
}
