//! The natural units of a document that `memo_find` ranks (docs/tools.md#memo_find): in prose,
//! Markdown sections, paragraphs, fenced code blocks and list items; in code, blocks found by
//! indentation and closing brackets (functions, classes, impls, `if` bodies).
//!
//! Pure functions over the document's lines. Bounded: at most [`MAX_UNITS`] units, and only the
//! first [`outline::MAX_LINE_CHARS`] chars of a line are looked at for its shape (a heading, a
//! fence, an indentation). Headings and fences follow text_rules.rs's CommonMark rules, heading
//! paths are built like outline.rs's [`outline::heading_path`].

use std::ops::Range;

use crate::outline;
use crate::text_rules::{atx_heading, clip_within, fence_open, Fence};

/// Most units one document yields; a longer document's later units are not ranked.
pub const MAX_UNITS: usize = 5_000;
/// Longest heading-path entry, in chars (a code block's is its first line).
const TITLE_CHARS: usize = 48;

/// What kind of unit it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A Markdown heading with its body, up to the next heading of the same or a higher level.
    Section,
    Paragraph,
    /// A fenced code block, fences included.
    CodeBlock,
    ListItem,
    /// In code: a line and the lines indented under it (and the bracket that closes it).
    Block,
}

/// One unit: its lines and where it sits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub kind: UnitKind,
    /// 0-based line indexes, end exclusive; never empty.
    pub lines: Range<usize>,
    /// The headings (prose) or block heads (code) enclosing it, outermost first, its own
    /// heading last for a section (`["Install", "From source"]`).
    pub heading_path: Vec<String>,
    /// How many of its first lines are its heading (1 for a section or a code block's head):
    /// their words weigh more in the ranking.
    pub head_lines: usize,
}

/// Whether a document at `path` is code (blocks by indentation) rather than prose (Markdown
/// units). Unknown extensions and none are prose. O(len of path).
pub fn is_code_path(path: &str) -> bool {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    const CODE: &[&str] = &[
        "rs", "py", "js", "mjs", "cjs", "ts", "tsx", "jsx", "go", "java", "kt", "kts", "scala", "c", "h", "cc", "cpp", "hpp", "cs",
        "swift", "rb", "php", "lua", "sh", "bash", "zsh", "ps1", "pl", "r", "dart", "ex", "exs", "hs", "ml", "sql", "css", "scss", "vue",
        "svelte", "yaml", "yml", "toml", "json", "jsonc", "ini", "cfg", "xml", "html", "tf", "zig", "nim", "m", "mm",
    ];
    CODE.contains(&ext.as_str())
}

/// `line` cut to the chars whose shape is looked at. O(MAX_LINE_CHARS).
fn shape(line: &str) -> &str {
    match line.char_indices().nth(outline::MAX_LINE_CHARS) {
        Some((at, _)) => line.get(..at).unwrap_or(line),
        None => line,
    }
}

fn blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// Leading whitespace width (a tab counts 4). O(indent).
fn indent(line: &str) -> usize {
    line.chars().take_while(|c| *c == ' ' || *c == '\t').map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

/// A list item marker (`- `, `* `, `+ `, `1. `, `1) `) after at most 3 spaces beyond `base`:
/// the item's indentation. O(line).
fn list_item(line: &str) -> Option<usize> {
    let ind = indent(line);
    let t = line.trim_start();
    let rest = if let Some(r) = t.strip_prefix(['-', '*', '+']) {
        r
    } else {
        let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 || digits > 9 {
            return None;
        }
        t.get(digits..)?.strip_prefix(['.', ')'])?
    };
    (rest.is_empty() || rest.starts_with([' ', '\t'])).then_some(ind)
}

/// A thematic break (`---`, `***`) is not a list item. O(line).
fn thematic_break(line: &str) -> bool {
    let t: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    t.len() >= 3 && (t.chars().all(|c| c == '-') || t.chars().all(|c| c == '*') || t.chars().all(|c| c == '_'))
}

/// The units of `lines` (a document's lines without line breaks) as prose or code, in order
/// of their first line (an enclosing unit before the ones inside it). At most [`MAX_UNITS`].
/// Cost: O(total chars looked at + units · depth): prose is one pass; code one pass plus, per
/// block head, a walk to its end.
pub fn units(lines: &[&str], code: bool) -> Vec<Unit> {
    let mut out = if code { code_units(lines) } else { prose_units(lines) };
    out.truncate(MAX_UNITS);
    out
}

// ---- prose -----------------------------------------------------------------------------------

fn prose_units(lines: &[&str]) -> Vec<Unit> {
    let mut out = Vec::new();
    // Open sections: (level, index in `out`); the heading stack gives the paths.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut path: Vec<(usize, String)> = Vec::new();
    let mut fence: Option<(Fence, usize)> = None;
    // The paragraph or list item being read: (kind, first line, item indentation).
    let mut block: Option<(UnitKind, usize, usize)> = None;
    let headings = |path: &[(usize, String)]| path.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>();
    let close = |out: &mut Vec<Unit>, block: &mut Option<(UnitKind, usize, usize)>, end: usize, path: &[(usize, String)]| {
        if let Some((kind, start, _)) = block.take() {
            // A list item's trailing blank lines are not its own.
            let mut end = end;
            while end > start + 1 && lines.get(end - 1).is_some_and(|l| blank(l)) {
                end -= 1;
            }
            out.push(Unit { kind, lines: start..end, heading_path: headings(path), head_lines: 0 });
        }
    };
    for (i, raw) in lines.iter().enumerate() {
        if out.len() >= MAX_UNITS {
            break;
        }
        let line = shape(raw);
        if let Some((f, start)) = fence {
            if f.is_closed_by(line) {
                out.push(Unit { kind: UnitKind::CodeBlock, lines: start..i + 1, heading_path: headings(&path), head_lines: 0 });
                fence = None;
            }
            continue;
        }
        if let Some(f) = fence_open(line) {
            close(&mut out, &mut block, i, &path);
            fence = Some((f, i));
            continue;
        }
        if let Some((level, text)) = atx_heading(line) {
            close(&mut out, &mut block, i, &path);
            while let Some(&(l, at)) = open.last() {
                if l < level {
                    break;
                }
                if let Some(u) = out.get_mut(at) {
                    u.lines.end = i.max(u.lines.start + 1);
                }
                open.pop();
            }
            while path.last().is_some_and(|(l, _)| *l >= level) {
                path.pop();
            }
            path.push((level, clip_within(text, TITLE_CHARS)));
            open.push((level, out.len()));
            out.push(Unit { kind: UnitKind::Section, lines: i..lines.len(), heading_path: headings(&path), head_lines: 1 });
            continue;
        }
        let item = list_item(line).filter(|_| !thematic_break(line));
        match (block, item) {
            (_, Some(ind)) => {
                // A new item ends the open item or paragraph, unless it is nested deeper in an
                // item (then it is a unit of its own, and the outer item goes on).
                if let Some((UnitKind::ListItem, start, outer)) = block {
                    if ind > outer {
                        out.push(Unit { kind: UnitKind::ListItem, lines: i..i + 1, heading_path: headings(&path), head_lines: 0 });
                        // Nested items are recorded one line long, extended below.
                        extend_nested(&mut out, lines, i, ind);
                        block = Some((UnitKind::ListItem, start, outer));
                        continue;
                    }
                }
                close(&mut out, &mut block, i, &path);
                block = Some((UnitKind::ListItem, i, ind));
            }
            (None, None) if !blank(line) => block = Some((UnitKind::Paragraph, i, 0)),
            (Some((UnitKind::Paragraph, ..)), None) if blank(line) => close(&mut out, &mut block, i, &path),
            (Some((UnitKind::ListItem, _, ind)), None) => {
                // An item goes on over indented lines and blank lines before them; a line back
                // at the item's indentation or less after a blank line ends it.
                let after_blank = i > 0 && lines.get(i - 1).is_some_and(|l| blank(l));
                if !blank(line) && after_blank && indent(line) <= ind {
                    close(&mut out, &mut block, i, &path);
                    block = Some((UnitKind::Paragraph, i, 0));
                }
            }
            _ => {}
        }
    }
    if let Some((_, start)) = fence {
        out.push(Unit { kind: UnitKind::CodeBlock, lines: start..lines.len(), heading_path: headings(&path), head_lines: 0 });
    }
    close(&mut out, &mut block, lines.len(), &path);
    // A section's trailing blank lines are not its own: a replacement of it keeps the blank
    // line before the next heading.
    for u in &mut out {
        while u.lines.end > u.lines.start + 1 && lines.get(u.lines.end - 1).is_some_and(|l| blank(l)) {
            u.lines.end -= 1;
        }
    }
    crate::sort::sort_by_key(&mut out, |u| (u.lines.start, std::cmp::Reverse(u.lines.end)));
    out
}

/// A nested list item at line `i`, indented `ind`: extends the unit just pushed over the lines
/// indented deeper than `ind` that follow (and blank lines between them). O(its lines).
fn extend_nested(out: &mut [Unit], lines: &[&str], i: usize, ind: usize) {
    let mut end = i + 1;
    let mut j = i + 1;
    while let Some(l) = lines.get(j) {
        if blank(l) {
            j += 1;
            continue;
        }
        if indent(l) <= ind || atx_heading(l).is_some() {
            break;
        }
        j += 1;
        end = j;
    }
    if let Some(u) = out.last_mut() {
        u.lines.end = end;
    }
}

// ---- code ------------------------------------------------------------------------------------

/// A closing line: only closing brackets (and `;`, `,`, `)`), like `}`, `});`, `]`.
fn closing(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.starts_with(['}', ']', ')']) && t.chars().all(|c| "}])>;,".contains(c) || c.is_whitespace())
}

/// A comment or attribute line that belongs to the block below it (`///`, `#`, `@decorator`).
fn leads_block(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("//") || t.starts_with("/*") || t.starts_with('*') || t.starts_with('#') || t.starts_with('@')
}

fn code_units(lines: &[&str]) -> Vec<Unit> {
    let mut out = Vec::new();
    // Enclosing block heads: (indentation, end line, title).
    let mut stack: Vec<(usize, usize, String)> = Vec::new();
    let mut i = 0;
    while i < lines.len() && out.len() < MAX_UNITS {
        let line = shape(lines.get(i).copied().unwrap_or_default());
        stack.retain(|(_, end, _)| *end > i);
        if blank(line) || closing(line) || leads_block(line) {
            i += 1;
            continue;
        }
        let ind = indent(line);
        let next = (i + 1..lines.len()).find(|&j| lines.get(j).is_some_and(|l| !blank(l)));
        let deeper = next.and_then(|j| lines.get(j)).is_some_and(|l| indent(shape(l)) > ind && !closing(shape(l)));
        if !deeper {
            i += 1;
            continue;
        }
        // The block runs to the last line indented deeper, plus a closing bracket line at its
        // own indentation.
        let mut end = i + 1;
        let mut j = i + 1;
        while let Some(l) = lines.get(j) {
            let l = shape(l);
            if !blank(l) {
                if indent(l) <= ind {
                    if closing(l) && indent(l) == ind {
                        end = j + 1;
                    }
                    break;
                }
                end = j + 1;
            }
            j += 1;
        }
        // Doc comments, attributes and decorators directly above at the same indentation.
        let mut start = i;
        while start > 0 && lines.get(start - 1).is_some_and(|l| leads_block(shape(l)) && indent(shape(l)) == ind) {
            start -= 1;
        }
        let title = clip_within(line.trim(), TITLE_CHARS);
        let mut path: Vec<String> = stack.iter().map(|(_, _, t)| t.clone()).collect();
        path.push(title.clone());
        out.push(Unit { kind: UnitKind::Block, lines: start..end, heading_path: path, head_lines: i - start + 1 });
        stack.push((ind, end, title));
        i += 1;
    }
    loose_groups(lines, &mut out);
    crate::sort::sort_by_key(&mut out, |u| (u.lines.start, std::cmp::Reverse(u.lines.end)));
    out
}

/// The lines of code no block holds (imports, flat settings like `timeout: 30`), as units too:
/// runs of non-blank lines, a comment after other lines starting a new one (its heading), so
/// `# database` and the settings under it are one unit. Cost: O(lines + blocks).
fn loose_groups(lines: &[&str], out: &mut Vec<Unit>) {
    let mut covered = vec![false; lines.len()];
    for u in out.iter() {
        for c in covered.iter_mut().take(u.lines.end).skip(u.lines.start) {
            *c = true;
        }
    }
    let mut group: Option<(usize, usize)> = None; // (start, heading lines)
    let flush = |group: &mut Option<(usize, usize)>, end: usize, out: &mut Vec<Unit>| {
        if let Some((start, head)) = group.take() {
            if out.len() < MAX_UNITS && end > start {
                out.push(Unit {
                    kind: UnitKind::Paragraph,
                    lines: start..end,
                    heading_path: Vec::new(),
                    head_lines: head.min(end - start),
                });
            }
        }
    };
    for (i, raw) in lines.iter().enumerate() {
        let line = shape(raw);
        if blank(line) || covered.get(i).copied().unwrap_or(true) {
            flush(&mut group, i, out);
            continue;
        }
        let comment = leads_block(line);
        match &mut group {
            Some((start, head)) if comment && i > *start + *head => {
                // A comment after code starts the next group.
                flush(&mut group, i, out);
                group = Some((i, 1));
            }
            Some((start, head)) if comment && i == *start + *head => *head += 1,
            Some(_) => {}
            None => group = Some((i, usize::from(comment))),
        }
    }
    flush(&mut group, lines.len(), out);
}
