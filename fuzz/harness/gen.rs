//! Input generation shared by the harnesses: documents, needles drawn from them, mutations.
//! Everything is driven by an `arbitrary::Unstructured` over the fuzzer's bytes; when the bytes
//! run out every draw falls back to its first choice, so every loop here is bounded.

use arbitrary::{Result, Unstructured};

/// Characters that exercise the matcher's tiers and the renderer: whitespace kinds, gutter bars,
/// Markdown syntax, look-alikes, multi-byte and astral chars, a BOM, U+2028.
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'x', 'A', 'Z', '0', '1', '2', '9', ' ', ' ', ' ', '\t', '\n', '\n', '\r', '#', '|', '│', '`', '*', '-', '_', ':', '"',
    '\'', '(', ')', '[', ']', '{', '}', '<', '>', '\\', '/', '.', ',', 'é', '中', '文', '\u{a0}', '\u{3000}', '“', '”', '‘', '’', '–', '—',
    '－', 'ａ', '\u{301}', '😀', '\u{feff}', '\u{2028}', '\u{200b}', '…', '→', '￥',
];

/// Small documents with structure the tools care about (headings, repeated lines, indentation,
/// CRLF, CJK, code).
pub const SAMPLES: &[&str] = &[
    "",
    "hello world\n",
    "# Title\n\nSome text.\n\n## Section A\n\ntimeout: 30\nretries: 3\n\n## Section B\n\ntimeout: 30\nretries: 5\n",
    "fn main() {\n    let x = 1;\n    if x > 0 {\n        println!(\"x = {x}\");\n    }\n}\n",
    "a\r\nb\r\nc\r\n",
    "# 标题\n\n中文内容，第一段。\n\n## 小节\n\n内容：“引号”与‘单引号’。\n",
    "item: 1\nitem: 1\nitem: 1\nitem: 1\nitem: 1\nitem: 1\nitem: 1\n",
    "  12│ gutter-looking line\n| a | b |\n|---|---|\n| `x` | y |\n",
    "no trailing newline",
    "\u{feff}bom first\n\ttabbed\n  spaced  \n",
    "x\n\n\n\ny\n",
    "😀 emoji 😀\ncombining e\u{301}\n",
];

pub fn alphabet_char(u: &mut Unstructured) -> Result<char> {
    u.choose(ALPHABET).copied()
}

/// A short string: ASCII letters only.
pub fn letters(u: &mut Unstructured, max: usize) -> Result<String> {
    let n = u.int_in_range(0..=max)?;
    let mut s = String::with_capacity(n);
    for _ in 0..n {
        let b = u.int_in_range(0..=51u8)?;
        s.push(if b < 26 { (b'A' + b) as char } else { (b'a' + b - 26) as char });
    }
    Ok(s)
}

/// A string of up to `max` chars: from the alphabet above, or arbitrary UTF-8.
pub fn text(u: &mut Unstructured, max: usize) -> Result<String> {
    if u.ratio(1, 4)? {
        let s: String = u.arbitrary()?;
        return Ok(s.chars().take(max).collect());
    }
    let n = u.int_in_range(0..=max)?;
    let mut s = String::new();
    for _ in 0..n {
        s.push(alphabet_char(u)?);
    }
    Ok(s)
}

/// A document: a sample, possibly mutated, generated text, a repetitive document or one long
/// line (the matcher's worst shapes, docs/reliability.md §Matching time and read size).
pub fn document(u: &mut Unstructured) -> Result<String> {
    match u.int_in_range(0..=5u8)? {
        0 | 1 => Ok(u.choose(SAMPLES)?.to_string()),
        2 => {
            let base = u.choose(SAMPLES)?.to_string();
            mutate(u, &base)
        }
        3 => repetitive_document(u),
        4 => long_line_document(u),
        _ => text(u, 200),
    }
}

/// Units repeated by the worst-case generators: the shapes that made the fuzzy and near-miss
/// search grow with (document lines × needle lines) before they were made linear.
const UNITS: &[&str] = &[
    "}\n\n",
    "}\n",
    "0,0,0,0,0,0,0,0\n",
    "    let value = compute(alpha, beta); // same\n",
    "\n",
    "  \n",
    "a\n",
    "the quick brown fox\n",
    "item: 1\n",
];

/// Most bytes a generated worst-case document takes (libFuzzer runs it thousands of times a
/// second; the benches take the 10 MB ones).
const WORST_BYTES: usize = 64 * 1024;

/// A unit (from [`UNITS`] or generated) repeated up to [`WORST_BYTES`], sometimes with a few
/// lines changed: identical lines, brace/blank runs, CSV rows.
pub fn repetitive_document(u: &mut Unstructured) -> Result<String> {
    let unit = if u.ratio(3, 4)? { u.choose(UNITS)?.to_string() } else { format!("{}\n", text(u, 12)?.replace('\n', " ")) };
    let unit = if unit.is_empty() { "\n".to_string() } else { unit };
    let times = u.int_in_range(1..=(WORST_BYTES / unit.len()).max(1))?;
    let doc = unit.repeat(times);
    if u.ratio(1, 3)? {
        mutate(u, &doc)
    } else {
        Ok(doc)
    }
}

/// One long line: a short unit (no line break) repeated up to [`WORST_BYTES`], maybe with a
/// short line before or after.
pub fn long_line_document(u: &mut Unstructured) -> Result<String> {
    let unit = match u.int_in_range(0..=3u8)? {
        0 => "abcdefghij ".to_string(),
        1 => "a".to_string(),
        2 => "x = 1; ".to_string(),
        _ => text(u, 8)?.replace('\n', " "),
    };
    let unit = if unit.is_empty() { "a".to_string() } else { unit };
    let times = u.int_in_range(1..=(WORST_BYTES / unit.len()).max(1))?;
    let line = unit.repeat(times);
    Ok(match u.int_in_range(0..=2u8)? {
        0 => line,
        1 => format!("head\n{line}\ntail\n"),
        _ => format!("{line}\n"),
    })
}

/// A needle for a repetitive document: many of its lines (or a long piece of its line) with one
/// char changed — a near miss that matches nowhere, the worst case for every step.
pub fn near_miss(u: &mut Unstructured, doc: &str) -> Result<String> {
    let lines: Vec<&str> = doc.split_inclusive('\n').collect();
    let mut needle: Vec<char> = if lines.len() > 1 {
        let start = u.int_in_range(0..=lines.len() - 1)?;
        let count = u.int_in_range(1..=(lines.len() - start).min(400))?;
        lines[start..start + count].concat().chars().collect()
    } else {
        let chars: Vec<char> = doc.chars().collect();
        let len = u.int_in_range(0..=chars.len().min(4096))?;
        chars[..len].to_vec()
    };
    if !needle.is_empty() {
        let at = u.int_in_range(0..=needle.len() - 1)?;
        needle[at] = alphabet_char(u)?;
    }
    Ok(needle.into_iter().collect())
}

/// A piece of `s` (by chars), possibly empty.
pub fn substring(u: &mut Unstructured, s: &str) -> Result<String> {
    let chars: Vec<char> = s.chars().collect();
    if chars.is_empty() {
        return Ok(String::new());
    }
    let start = u.int_in_range(0..=chars.len() - 1)?;
    let len = u.int_in_range(0..=(chars.len() - start).min(80))?;
    Ok(chars[start..start + len].iter().collect())
}

/// One whole line of `s` (without its break).
pub fn line_of(u: &mut Unstructured, s: &str) -> Result<String> {
    let lines: Vec<&str> = s.split('\n').collect();
    Ok(u.choose(&lines)?.to_string())
}

/// A needle for `doc`: mostly a piece of it (so matches happen), sometimes changed the way an
/// agent's copy differs (whitespace, indentation, look-alikes, copied gutters), sometimes junk.
pub fn needle(u: &mut Unstructured, doc: &str) -> Result<String> {
    match u.int_in_range(0..=11u8)? {
        11 => elided(u, doc),
        10 => near_miss(u, doc),
        0..=3 => substring(u, doc),
        4 => line_of(u, doc),
        5 | 6 => {
            let s = substring(u, doc)?;
            mutate(u, &s)
        }
        7 => {
            // Copied with line-number gutters.
            let s = substring(u, doc)?;
            let first = u.int_in_range(1..=30usize)?;
            Ok(s.split('\n').enumerate().map(|(i, l)| format!("{:>4}│ {l}", first + i)).collect::<Vec<_>>().join("\n"))
        }
        8 => letters(u, 6),
        _ => text(u, 30),
    }
}

/// Lines of `doc` with a run in the middle left out under a placeholder line (`...`,
/// `// ... existing code ...`), as a model elides what it does not change; sometimes with a
/// second placeholder or one at an edge.
pub fn elided(u: &mut Unstructured, doc: &str) -> Result<String> {
    const MARKERS: [&str; 6] = ["...", "    // ... existing code ...", "# ...", "\u{2026}", "<!-- ... -->", "// rest unchanged"];
    let lines: Vec<&str> = doc.split('\n').collect();
    let start = u.int_in_range(0..=lines.len() - 1)?;
    let count = u.int_in_range(1..=(lines.len() - start).min(60))?;
    let mut out: Vec<&str> = lines[start..start + count].to_vec();
    for _ in 0..u.int_in_range(1..=2u8)? {
        let from = u.int_in_range(0..=out.len())?;
        let to = u.int_in_range(from..=out.len())?;
        out.splice(from..to, [*u.choose(&MARKERS)?]);
    }
    Ok(out.join("\n"))
}

/// Above this many chars a text is not grown further: re-indenting and doubling spaces on every
/// external write grows a document exponentially (a 30-minute run reached 170 M chars in one input,
/// 37 s spent building strings in the harness). Large documents are the scale tests' job.
const GROW_LIMIT: usize = 1 << 20;

/// A few small edits: insert, delete or replace chars, change whitespace and quotes, re-indent.
/// Edits that grow the whole text apply only below [`GROW_LIMIT`].
pub fn mutate(u: &mut Unstructured, s: &str) -> Result<String> {
    let mut chars: Vec<char> = s.chars().collect();
    let edits = u.int_in_range(0..=4u8)?;
    for _ in 0..edits {
        let at = u.int_in_range(0..=chars.len())?;
        let kind = u.int_in_range(0..=6u8)?;
        if chars.len() > GROW_LIMIT && matches!(kind, 3 | 4 | 6) {
            continue;
        }
        match kind {
            0 => chars.insert(at, alphabet_char(u)?),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 if at < chars.len() => chars[at] = alphabet_char(u)?,
            3 => {
                // indent every line
                let indent: &str = u.choose(&["  ", "\t", "    "])?;
                let joined: String = chars.iter().collect();
                chars = joined.split('\n').map(|l| format!("{indent}{l}")).collect::<Vec<_>>().join("\n").chars().collect();
            }
            4 => {
                let joined: String = chars.iter().collect();
                chars = joined.replace(' ', "  ").chars().collect();
            }
            5 => {
                let joined: String = chars.iter().collect();
                chars = joined.replace('"', "“").replace('\'', "’").replace('-', "–").chars().collect();
            }
            _ => {
                let joined: String = chars.iter().collect();
                chars = joined.replace('\n', " \n").chars().collect();
            }
        }
    }
    Ok(chars.into_iter().collect())
}
