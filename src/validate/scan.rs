//! Reading the layout's lines: line breaks, blank lines, headings and fences (text_rules.rs's
//! CommonMark rules), code spans, GFM table rows and the number forms.

/// Lines split at CommonMark line endings (`\n`, `\r\n`, lone `\r`); blank lines at the end
/// are dropped.
pub(super) fn split_lines(s: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let bytes = s.as_bytes();
    let mut start = 0;
    for at in memchr::memchr2_iter(b'\r', b'\n', bytes) {
        if at < start {
            continue; // the `\n` of a `\r\n` already ended its line
        }
        // Breaks are ASCII bytes: `start` and `at` are char boundaries.
        lines.push(s.get(start..at).unwrap_or_default());
        start = if bytes.get(at..at + 2) == Some(b"\r\n") { at + 2 } else { at + 1 };
    }
    if let Some(rest) = s.get(start..).filter(|r| !r.is_empty()) {
        lines.push(rest);
    }
    while lines.last().is_some_and(|l| is_blank(l)) {
        lines.pop();
    }
    lines
}

pub(super) fn is_blank(line: &str) -> bool {
    line.trim_matches([' ', '\t']).is_empty()
}

/// The level of an ATX heading line (`### x` → 3; text_rules.rs's CommonMark rule).
pub(super) fn heading_level(line: &str) -> Option<usize> {
    crate::text_rules::atx_heading(line).map(|(level, _)| level)
}

/// An opening fence of the layout: 3 or more backticks at the start of the line, then an info
/// string without backticks (text_rules.rs's rule, minus the indentation and the tildes the
/// layout does not use). Its length.
pub(super) fn fence_open(line: &str) -> Option<usize> {
    crate::text_rules::fence_open(line).filter(|f| f.ch == '`' && f.indent == 0).map(|f| f.len)
}

/// A closing fence for an opening one of `len` backticks, at the start of the line.
pub(super) fn is_fence_close(line: &str, len: usize) -> bool {
    !line.starts_with(' ') && crate::text_rules::Fence { ch: '`', len, indent: 0 }.is_closed_by(line)
}

/// `` `Name` `` → `Name` (no backticks inside, not empty).
pub(super) fn backticked(s: &str) -> Option<&str> {
    let inner = s.strip_prefix('`')?.strip_suffix('`')?;
    (!inner.is_empty() && !inner.contains('`')).then_some(inner)
}

/// The content of a cell that is one CommonMark code span (`` `a` ``, ``` `` a`b `` ```), with
/// the one padding space each side removed; `None` if the cell is not exactly one code span.
pub(super) fn code_span(cell: &str) -> Option<String> {
    let n = cell.bytes().take_while(|&b| b == b'`').count();
    if n == 0 || cell.len() < 2 * n + 1 {
        return None;
    }
    let inner = cell.strip_suffix("`".repeat(n).as_str())?.get(n..)?;
    if inner.is_empty() || inner.ends_with('`') {
        return None;
    }
    // A run of exactly n backticks inside would close the span early.
    let mut run = 0;
    for b in inner.bytes().chain(std::iter::once(b' ')) {
        if b == b'`' {
            run += 1;
        } else {
            if run == n {
                return None;
            }
            run = 0;
        }
    }
    let padded = inner.strip_prefix(' ').and_then(|t| t.strip_suffix(' '));
    let stripped = match padded {
        Some(t) if !inner.bytes().all(|b| b == b' ') => t,
        _ => inner,
    };
    Some(stripped.to_string())
}

/// A code span at the start of `s`: its content (padding removed) and what follows it.
// Bounds: `i < bytes.len()` by the loop's condition; `i + n` ends a run of `n` backticks that
// starts at `i`, so it is ≤ the length and, after an ASCII byte, a char boundary.
#[allow(clippy::indexing_slicing, clippy::string_slice)]
pub(super) fn leading_code_span(s: &str) -> Option<(String, &str)> {
    let n = s.bytes().take_while(|&b| b == b'`').count();
    if n == 0 {
        return None;
    }
    // The closing run: the next run of exactly n backticks.
    let bytes = s.as_bytes();
    let mut i = n;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            if run == n {
                let content = code_span(&s[..i + n])?;
                return Some((content, &s[i + n..]));
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

/// The cells of a GFM table row `| a | b |`, trimmed, with `\|` unescaped. As in GFM, `\|` is an
/// escaped pipe everywhere, code spans included. `None` if the line does not start and end
/// with an unescaped `|`.
pub(super) fn row_cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?;
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                cur.push('|');
            }
            '|' => cells.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    (cur.trim().is_empty() && !cells.is_empty()).then_some(cells)
}

pub(super) fn is_separator(line: &str, columns: usize) -> bool {
    row_cells(line).is_some_and(|c| c.len() == columns && c.iter().all(|x| x == "---"))
}

/// A whole number in plain digits (`0`, `12`; no sign, no leading zeros).
pub(super) fn whole(s: &str) -> Option<usize> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if digits {
        s.parse().ok()
    } else {
        None
    }
}

/// The delta form: `0`, `+N` or `-N` (N a whole number above 0).
pub(super) fn signed_int(s: &str) -> Option<isize> {
    if s == "0" {
        return Some(0);
    }
    let (neg, digits) = if let Some(d) = s.strip_prefix('+') { (false, d) } else { (true, s.strip_prefix('-')?) };
    let n = whole(digits).filter(|&n| n > 0)?;
    let n = isize::try_from(n).ok()?;
    Some(if neg { -n } else { n })
}

/// A decimal number as Rust prints an `f64` of a clock: `12`, `1.5`, `-3`.
pub(super) fn is_decimal(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = s.split_once('.').unwrap_or((s, "0"));
    !int.is_empty() && !frac.is_empty() && int.bytes().all(|b| b.is_ascii_digit()) && frac.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans() {
        assert_eq!(code_span("`a`").as_deref(), Some("a"));
        assert_eq!(code_span("`` a`b ``").as_deref(), Some("a`b"));
        assert_eq!(code_span("`` `x` ``").as_deref(), Some("`x`"));
        assert_eq!(code_span("` `").as_deref(), Some(" "));
        assert_eq!(code_span("``"), None);
        assert_eq!(code_span("`a``"), None);
        assert_eq!(code_span("`a` b `c`"), None);
        assert_eq!(code_span("``a`b``").as_deref(), Some("a`b"));
        assert_eq!(code_span("x"), None);
        assert_eq!(code_span("`é`").as_deref(), Some("é"));
    }

    #[test]
    fn rows_split_on_unescaped_pipes() {
        assert_eq!(row_cells("| a | b |"), Some(vec!["a".into(), "b".into()]));
        assert_eq!(row_cells(r"| `a \| b` | c |"), Some(vec!["`a | b`".into(), "c".into()]));
        assert_eq!(row_cells(r"| a\\| b |"), Some(vec![r"a\| b".into()]));
        assert_eq!(row_cells(r"| a \|"), None);
        assert_eq!(row_cells("| a | b"), None);
        assert_eq!(row_cells("|"), None);
        assert_eq!(row_cells("a | b |"), None);
    }

    #[test]
    fn numbers() {
        assert_eq!(signed_int("+3"), Some(3));
        assert_eq!(signed_int("-2"), Some(-2));
        assert_eq!(signed_int("0"), Some(0));
        for bad in ["3", "+0", "-0", "+", "", "+03", "1.5", "++1"] {
            assert_eq!(signed_int(bad), None, "{bad}");
        }
        assert_eq!(whole("0"), Some(0));
        assert_eq!(whole("120"), Some(120));
        for bad in ["", "-1", "+1", "01", "1e3", "99999999999999999999999"] {
            assert_eq!(whole(bad), None, "{bad}");
        }
        assert!(is_decimal("12") && is_decimal("1.5") && is_decimal("-3"));
        assert!(!is_decimal("") && !is_decimal("1.") && !is_decimal("NaN"));
    }
}
