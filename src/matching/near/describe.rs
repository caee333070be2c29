//! Describing a difference: a short character-level account of how the document differs
//! from `old_text`, for a language model ([`describe_difference`]).

use similar::DiffOp;

use super::similarity::bounded_myers;

/// Longest [`describe_difference`] answer, in chars, `…` included.
pub const MAX_DESCRIPTION_CHARS: usize = 600;

/// Most chars of equal text shown next to a difference in [`describe_difference`].
const CONTEXT_CHARS: usize = 20;

/// Most chars of one changed part shown in [`describe_difference`].
const CHANGED_CHARS: usize = 60;

/// Most lines of each side [`describe_difference`] looks at (its answer is capped anyway).
const DESCRIBED_LINES: usize = 500;

/// A short character-level account of how `found` (the document) differs from `expected`
/// (`old_text`), for a language model. Empty when they are equal.
///
/// Format, one line per differing line, wdiff style:
///
/// ```text
/// timeout:·3[-O-]{+0+}
/// ```
///
/// - `[-…-]`: only in `expected` (the agent's `old_text`); `{+…+}`: only in `found` (the
///   document); everything else is in both.
/// - Whitespace is made visible everywhere in the answer, not only in changed parts, so that the
///   model can count it: space `·`, tab `→`, newline `⏎`, carriage return `␍`; any other
///   whitespace, control or invisible format char as `<U+00A0>`. (A literal `·`, `→`, `⏎` in
///   the text is shown as is.)
/// - When either text has more than one line, lines are paired by a line diff and each
///   differing one is prefixed `line N: `, N its 1-based number in `expected`; a line only in
///   `expected` reads `line N: [-…-]`, a line only in `found` reads `after line N: {+…+}`
///   (`before line 1: ` at the top). Equal lines are not shown. A newline missing at the end
///   shows as `[-⏎-]` or `{+⏎+}`.
/// - Equal text longer than 20 chars next to a change is shortened with `…`; a changed part
///   longer than 60 chars is cut with `…`; the whole answer is at most
///   [`MAX_DESCRIPTION_CHARS`] chars, ending with `…` when cut.
///
/// Cost: a line diff of at most 500 lines per side and one char diff per differing line pair,
/// each bounded by [`MYERS_STEPS`] (a pair that differs too much to diff within it is shown as
/// replaced whole, after its common prefix and suffix); rendering stops once the answer is full.
// Bounds: the ops come from a diff over exactly `old_lines` and `new_lines`, so each op's
// ranges (and `p < min(old_len, new_len)` inside a replace) lie in them.
#[allow(clippy::indexing_slicing)]
pub fn describe_difference(expected: &str, found: &str) -> String {
    if expected == found {
        return String::new();
    }
    let old_lines: Vec<&str> = expected
        .split_inclusive('\n')
        .take(DESCRIBED_LINES)
        .collect();
    let new_lines: Vec<&str> = found.split_inclusive('\n').take(DESCRIBED_LINES).collect();
    let mut out = Description::default();
    if old_lines.len() <= 1 && new_lines.len() <= 1 {
        out.push_line("", &wdiff_line(expected, found));
        return out.finish();
    }
    let line_ops = bounded_myers(&old_lines, &new_lines).unwrap_or_else(|| {
        vec![DiffOp::Replace {
            old_index: 0,
            old_len: old_lines.len(),
            new_index: 0,
            new_len: new_lines.len(),
        }]
    });
    for op in line_ops {
        if out.full() {
            break;
        }
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete {
                old_index, old_len, ..
            } => {
                for (n, line) in old_lines.iter().enumerate().skip(old_index).take(old_len) {
                    out.push_line(&format!("line {}: ", n + 1), &wdiff_line(line, ""));
                }
            }
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => {
                for line in &new_lines[new_index..new_index + new_len] {
                    out.push_line(&inserted_label(old_index), &wdiff_line("", line));
                }
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let paired = old_len.min(new_len);
                for p in 0..paired {
                    let (old, new) = (old_lines[old_index + p], new_lines[new_index + p]);
                    // A newline both lines end with is structure, not a difference.
                    let (old, new) = match (old.strip_suffix('\n'), new.strip_suffix('\n')) {
                        (Some(o), Some(n)) => (o, n),
                        _ => (old, new),
                    };
                    out.push_line(
                        &format!("line {}: ", old_index + p + 1),
                        &wdiff_line(old, new),
                    );
                }
                let unpaired = old_lines.iter().enumerate().skip(old_index + paired);
                for (n, line) in unpaired.take(old_len - paired) {
                    out.push_line(&format!("line {}: ", n + 1), &wdiff_line(line, ""));
                }
                for line in &new_lines[new_index + paired..new_index + new_len] {
                    out.push_line(&inserted_label(old_index + old_len), &wdiff_line("", line));
                }
            }
        }
    }
    if out.text.is_empty() {
        // The texts differ only past the lines looked at.
        out.push_line("", &format!("(differences after line {DESCRIBED_LINES})"));
    }
    out.finish()
}

fn inserted_label(before_old_index: usize) -> String {
    if before_old_index == 0 {
        "before line 1: ".to_string()
    } else {
        format!("after line {before_old_index}: ")
    }
}

/// The answer of [`describe_difference`] under construction, capped in chars.
#[derive(Default)]
struct Description {
    text: String,
    chars: usize,
}

impl Description {
    fn full(&self) -> bool {
        self.chars > MAX_DESCRIPTION_CHARS
    }

    fn push_line(&mut self, label: &str, body: &str) {
        if self.full() {
            return;
        }
        if !self.text.is_empty() {
            self.text.push('\n');
            self.chars += 1;
        }
        for part in [label, body] {
            for c in part.chars() {
                self.text.push(c);
                self.chars += 1;
                if self.full() {
                    return;
                }
            }
        }
    }

    fn finish(self) -> String {
        if self.chars <= MAX_DESCRIPTION_CHARS {
            return self.text;
        }
        let mut cut: String = self.text.chars().take(MAX_DESCRIPTION_CHARS - 1).collect();
        cut.push('…');
        cut
    }
}

/// One piece of a rendered line diff.
enum Piece {
    Same(Vec<char>),
    Changed { old: Vec<char>, new: Vec<char> },
}

/// `expected` → `found` as one wdiff line (see [`describe_difference`]).
// Bounds: `prefix` ≤ both lengths and `suffix` counts only after it; the ops come from a diff
// over exactly the two middles.
#[allow(clippy::indexing_slicing)]
fn wdiff_line(expected: &str, found: &str) -> String {
    let old: Vec<char> = expected.chars().collect();
    let new: Vec<char> = found.chars().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_middle, new_middle) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut pieces: Vec<Piece> = Vec::new();
    if prefix > 0 {
        pieces.push(Piece::Same(old[..prefix].to_vec()));
    }
    match bounded_myers(old_middle, new_middle) {
        Some(ops) => {
            for op in ops {
                let piece = match op {
                    DiffOp::Equal { old_index, len, .. } => {
                        Piece::Same(old_middle[old_index..old_index + len].to_vec())
                    }
                    DiffOp::Delete {
                        old_index, old_len, ..
                    } => Piece::Changed {
                        old: old_middle[old_index..old_index + old_len].to_vec(),
                        new: Vec::new(),
                    },
                    DiffOp::Insert {
                        new_index, new_len, ..
                    } => Piece::Changed {
                        old: Vec::new(),
                        new: new_middle[new_index..new_index + new_len].to_vec(),
                    },
                    DiffOp::Replace {
                        old_index,
                        old_len,
                        new_index,
                        new_len,
                    } => Piece::Changed {
                        old: old_middle[old_index..old_index + old_len].to_vec(),
                        new: new_middle[new_index..new_index + new_len].to_vec(),
                    },
                };
                push_merged(&mut pieces, piece);
            }
        }
        None => push_merged(
            &mut pieces,
            Piece::Changed {
                old: old_middle.to_vec(),
                new: new_middle.to_vec(),
            },
        ),
    }
    if suffix > 0 {
        pieces.push(Piece::Same(old[old.len() - suffix..].to_vec()));
    }
    render_pieces(&pieces)
}

/// Appends `piece`, merging adjacent changes, and folding an equal run of at most two chars
/// between two changes into them (`a[-b-]{+x+}c[-d-]{+y+}` reads better as `a[-bcd-]{+xcy+}`).
fn push_merged(pieces: &mut Vec<Piece>, piece: Piece) {
    match piece {
        Piece::Same(same) => pieces.push(Piece::Same(same)),
        Piece::Changed { mut old, mut new } => {
            let short_same_between = matches!(
                pieces.as_slice(),
                [.., Piece::Changed { .. }, Piece::Same(s)] if s.len() <= 2
            );
            if short_same_between {
                if let Some(Piece::Same(s)) = pieces.pop() {
                    old.splice(0..0, s.iter().copied());
                    new.splice(0..0, s);
                }
            }
            if let Some(Piece::Changed {
                old: prev_old,
                new: prev_new,
            }) = pieces.last_mut()
            {
                prev_old.extend(old);
                prev_new.extend(new);
            } else {
                pieces.push(Piece::Changed { old, new });
            }
        }
    }
}

// Bounds: the cuts at CONTEXT_CHARS are taken only when `n` > CONTEXT_CHARS (the first
// branch took the shorter ones); `text.len().min(…)` bounds the changed text.
#[allow(clippy::indexing_slicing)]
fn render_pieces(pieces: &[Piece]) -> String {
    let mut out = String::new();
    let last = pieces.len().saturating_sub(1);
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Same(same) => {
                let n = same.len();
                let (first, is_last) = (i == 0, i == last);
                if first && is_last
                    || n <= CONTEXT_CHARS
                    || (!first && !is_last && n <= 2 * CONTEXT_CHARS)
                {
                    push_visible(&mut out, same);
                } else if first {
                    out.push('…');
                    push_visible(&mut out, &same[n - CONTEXT_CHARS..]);
                } else if is_last {
                    push_visible(&mut out, &same[..CONTEXT_CHARS]);
                    out.push('…');
                } else {
                    push_visible(&mut out, &same[..CONTEXT_CHARS]);
                    out.push('…');
                    push_visible(&mut out, &same[n - CONTEXT_CHARS..]);
                }
            }
            Piece::Changed { old, new } => {
                for (text, open, close) in [(old, "[-", "-]"), (new, "{+", "+}")] {
                    if text.is_empty() {
                        continue;
                    }
                    out.push_str(open);
                    push_visible(&mut out, &text[..text.len().min(CHANGED_CHARS)]);
                    if text.len() > CHANGED_CHARS {
                        out.push('…');
                    }
                    out.push_str(close);
                }
            }
        }
    }
    out
}

/// `chars` with whitespace and invisible chars made visible (see [`describe_difference`]).
fn push_visible(out: &mut String, chars: &[char]) {
    for &c in chars {
        match c {
            ' ' => out.push('·'),
            '\t' => out.push('→'),
            '\n' => out.push('⏎'),
            '\r' => out.push('␍'),
            c if c.is_whitespace() || c.is_control() || is_invisible_format(c) => {
                out.push_str(&format!("<U+{:04X}>", c as u32));
            }
            c => out.push(c),
        }
    }
}

/// Zero-width and direction-format chars that render as nothing.
fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{FEFF}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_one_line() {
        assert_eq!(
            describe_difference("timeout: 3O", "timeout: 30"),
            "timeout:·3[-O-]{+0+}"
        );
        assert_eq!(describe_difference("a\tb", "a  b"), "a[-→-]{+··+}b");
        assert_eq!(describe_difference("x = 1\n", "x = 1"), "x·=·1[-⏎-]");
        assert_eq!(describe_difference("same", "same"), "");
        assert_eq!(
            describe_difference("a\u{a0}b", "a b"),
            "a[-<U+00A0>-]{+·+}b"
        );
    }

    #[test]
    fn describe_many_lines() {
        let expected = "[server]\n  timeout: 3O\n  retries: 3\nend";
        let found = "[server]\n  timeout: 30\n  backoff: 2\n  retries: 3\n";
        assert_eq!(
            describe_difference(expected, found),
            concat!(
                "line 2: ··timeout:·3[-O-]{+0+}\n",
                "after line 2: {+··backoff:·2⏎+}\n",
                "line 4: [-end-]"
            )
        );
        assert_eq!(describe_difference("a\nb\n", "b\n"), "line 1: [-a⏎-]");
        assert_eq!(
            describe_difference("b\n", "a\nb\n"),
            "before line 1: {+a⏎+}"
        );
    }

    #[test]
    fn describe_shortens_long_equal_runs_and_caps_the_answer() {
        let long = "abcdefghijklmnopqrstuvwxyz0123456789";
        assert_eq!(
            describe_difference(&format!("{long}X{long}"), &format!("{long}Y{long}")),
            "…qrstuvwxyz0123456789[-X-]{+Y+}abcdefghijklmnopqrst…"
        );
        let many_old: String = (0..100).map(|i| format!("value_{i} = {i}\n")).collect();
        let many_new = many_old.replace(" = ", " := ");
        let d = describe_difference(&many_old, &many_new);
        assert_eq!(d.chars().count(), MAX_DESCRIPTION_CHARS);
        assert!(d.ends_with('…'));
        assert!(
            d.starts_with("line 1: value_0·{+:+}=·0\nline 2: value_1·{+:+}=·1\n"),
            "{d}"
        );
    }
}
