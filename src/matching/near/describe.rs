//! Describing a difference: how the document differs from `old_text`, as data ([`difference`]:
//! lines of pieces, each equal, only in one side, or left out) and as the short character-level
//! text a language model reads ([`describe_difference`], a view over that data). The words of
//! the line labels (`line 3: `) are the caller's ([`Label`]; the locale's phrase tables, through
//! src/workspace/words/near.rs): this module writes only the markup.

use serde::Serialize;
use similar::DiffOp;

use super::similarity::bounded_myers;
use crate::matching::work::Budget;

/// Longest [`describe_difference`] answer, in chars, `…` included.
pub const MAX_DESCRIPTION_CHARS: usize = 600;

/// Most chars of equal text shown next to a difference in [`describe_difference`].
const CONTEXT_CHARS: usize = 20;

/// Most chars of one changed part shown in [`describe_difference`].
const CHANGED_CHARS: usize = 60;

/// Most lines of each side [`describe_difference`] looks at (its answer is capped anyway).
const DESCRIBED_LINES: usize = 500;

/// How the document differs from `old_text`, as data: the differing lines, each a list of
/// pieces. Holds what the text (`describe_difference`) shows, and at most one line or piece past
/// its cap of 600 chars, so its size is bounded like the text's.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "NearMissDifference"))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Difference {
    /// The differing lines, in order; equal lines are not listed.
    pub lines: Vec<DifferenceLine>,
    /// Set when the texts differ only past the lines looked at (500 of each side).
    pub only_after_line: Option<usize>,
}

/// One differing line of a near miss's difference.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "NearMissLine"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DifferenceLine {
    /// `whole`: both texts are one line (no line number); `line`: line `line` of `old_text`
    /// (1-based), changed or only in `old_text`; `after`: a line only in the document, after
    /// line `line` of `old_text` (0: before line 1).
    pub at: LineAt,
    pub line: usize,
    pub pieces: Vec<DiffPiece>,
}

/// Where a differing line sits relative to `old_text`'s lines.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "NearMissLineAt"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineAt {
    Whole,
    Line,
    After,
}

/// One piece of a differing line, in order: `same` (in both), `omitted` (`chars` of equal text
/// left out, shown `…`), `old_text` (only in `old_text`), `document` (only in the document);
/// `more`: further chars of a changed part left out (shown `…`). Texts are the texts' own
/// chars, whitespace as it is (the text for the model shows it as `·`, `→`, `⏎`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "NearMissPiece"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DiffPiece {
    /// In both texts.
    Same { text: String },
    /// Equal text left out (`chars` of it), shown `…`.
    Omitted { chars: usize },
    /// Only in `old_text`; `more` further chars of it are left out (shown `…`).
    OldText { text: String, more: usize },
    /// Only in the document; `more` further chars of it are left out (shown `…`).
    Document { text: String, more: usize },
}

/// A short character-level account of how `found` (the document) differs from `expected`
/// (`old_text`), for a language model. Empty when they are equal. The text of
/// [`difference`]'s data ([`Difference::render`]).
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
/// Cost: that of [`difference`], plus its rendering (at most ~600 chars).
pub fn describe_difference(expected: &str, found: &str, label: &dyn Fn(Label) -> String) -> String {
    difference(expected, found).render(label)
}

/// What a line label of a rendered [`Difference`] says, for the caller to word: line `n` of
/// `old_text` (`line 3: `), a line only in the document after line `n` (`after line 3: `) or
/// before line 1, and the note that the texts differ only past line `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    Line(usize),
    After(usize),
    BeforeFirst,
    DifferencesAfter(usize),
}

/// How `found` (the document) differs from `expected` (`old_text`), as data (see
/// [`describe_difference`] for what is listed, and [`Difference::render`] for its text).
/// Empty when they are equal.
///
/// Cost: a line diff of at most 500 lines per side and one char diff per differing line pair,
/// each bounded by [`MYERS_STEPS`](super::MYERS_STEPS) (a pair that differs too much to diff
/// within it is listed as replaced whole, after its common prefix and suffix); listing stops
/// once the text would pass [`MAX_DESCRIPTION_CHARS`].
// Bounds: the ops come from a diff over exactly `old_lines` and `new_lines`, so each op's
// ranges (and `p < min(old_len, new_len)` inside a replace) lie in them.
#[allow(clippy::indexing_slicing)]
pub fn difference(expected: &str, found: &str) -> Difference {
    let mut out = Collect::default();
    if expected == found {
        return out.diff;
    }
    let old_lines: Vec<&str> = expected.split_inclusive('\n').take(DESCRIBED_LINES).collect();
    let new_lines: Vec<&str> = found.split_inclusive('\n').take(DESCRIBED_LINES).collect();
    if old_lines.len() <= 1 && new_lines.len() <= 1 {
        out.push_line(LineAt::Whole, 0, expected, found);
        return out.diff;
    }
    let line_ops = bounded_myers(&old_lines, &new_lines, &mut Budget::unlimited())
        .unwrap_or_else(|| vec![DiffOp::Replace { old_index: 0, old_len: old_lines.len(), new_index: 0, new_len: new_lines.len() }]);
    for op in line_ops {
        if out.full() {
            break;
        }
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete { old_index, old_len, .. } => {
                for (n, line) in old_lines.iter().enumerate().skip(old_index).take(old_len) {
                    out.push_line(LineAt::Line, n + 1, line, "");
                }
            }
            DiffOp::Insert { old_index, new_index, new_len } => {
                for line in &new_lines[new_index..new_index + new_len] {
                    out.push_line(LineAt::After, old_index, "", line);
                }
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                let paired = old_len.min(new_len);
                for p in 0..paired {
                    let (old, new) = (old_lines[old_index + p], new_lines[new_index + p]);
                    // A newline both lines end with is structure, not a difference.
                    let (old, new) = match (old.strip_suffix('\n'), new.strip_suffix('\n')) {
                        (Some(o), Some(n)) => (o, n),
                        _ => (old, new),
                    };
                    out.push_line(LineAt::Line, old_index + p + 1, old, new);
                }
                let unpaired = old_lines.iter().enumerate().skip(old_index + paired);
                for (n, line) in unpaired.take(old_len - paired) {
                    out.push_line(LineAt::Line, n + 1, line, "");
                }
                for line in &new_lines[new_index + paired..new_index + new_len] {
                    out.push_line(LineAt::After, old_index + old_len, "", line);
                }
            }
        }
    }
    if out.diff.lines.is_empty() {
        // The texts differ only past the lines looked at.
        out.diff.only_after_line = Some(DESCRIBED_LINES);
    }
    out.diff
}

impl Difference {
    /// True when the texts are equal.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.only_after_line.is_none()
    }

    /// The text of [`describe_difference`]: one line per differing line, its label then its
    /// pieces with whitespace made visible, at most [`MAX_DESCRIPTION_CHARS`] chars. Cost:
    /// O(the pieces' text).
    pub(crate) fn render(&self, label: &dyn Fn(Label) -> String) -> String {
        let mut text = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(&line.label(label));
            render_pieces(&mut text, &line.pieces);
        }
        if let Some(n) = self.only_after_line {
            text.push_str(&label(Label::DifferencesAfter(n)));
        }
        crate::text_rules::clip_within(&text, MAX_DESCRIPTION_CHARS)
    }
}

impl DifferenceLine {
    /// `line 3: `, `after line 3: `, `before line 1: ` as `label` words them, or nothing for
    /// one-line texts.
    fn label(&self, label: &dyn Fn(Label) -> String) -> String {
        match (self.at, self.line) {
            (LineAt::Whole, _) => String::new(),
            (LineAt::Line, n) => label(Label::Line(n)),
            (LineAt::After, 0) => label(Label::BeforeFirst),
            (LineAt::After, n) => label(Label::After(n)),
        }
    }
}

/// A [`Difference`] under construction: lines are listed until their text passes
/// [`MAX_DESCRIPTION_CHARS`] (the line that passes it kept, cut at its first piece past it),
/// so the rendered text's cut falls inside what is listed.
#[derive(Default)]
struct Collect {
    diff: Difference,
    /// Chars of the text rendered so far.
    chars: usize,
}

impl Collect {
    fn full(&self) -> bool {
        self.chars > MAX_DESCRIPTION_CHARS
    }

    fn push_line(&mut self, at: LineAt, line: usize, expected: &str, found: &str) {
        if self.full() {
            return;
        }
        if !self.diff.lines.is_empty() {
            self.chars += 1;
        }
        let mut entry = DifferenceLine { at, line, pieces: Vec::new() };
        self.chars += label_chars(at, line);
        for piece in line_pieces(expected, found) {
            if self.full() {
                break;
            }
            self.chars += piece_chars(&piece);
            entry.pieces.push(piece);
        }
        self.diff.lines.push(entry);
    }
}

/// Chars a line label takes at least in the rendered text, in any locale: the shortest wording
/// (`第 12 行：`, `第 12 行之后：`, `第 1 行之前：` against `line 12: `), so that what is listed
/// fills the capped text whatever the labels' words. Cost: O(1).
fn label_chars(at: LineAt, line: usize) -> usize {
    let digits = line.max(1).ilog10() as usize + 1;
    match (at, line) {
        (LineAt::Whole, _) => 0,
        (LineAt::Line, _) => digits + 4,
        (LineAt::After, 0) => 8,
        (LineAt::After, _) => digits + 6,
    }
}

/// Chars a piece takes in the rendered text.
fn piece_chars(piece: &DiffPiece) -> usize {
    let shown = |text: &str| text.chars().map(visible_chars).sum::<usize>();
    match piece {
        DiffPiece::Same { text } => shown(text),
        DiffPiece::Omitted { .. } => 1,
        DiffPiece::OldText { text, more } | DiffPiece::Document { text, more } => 4 + shown(text) + usize::from(*more > 0),
    }
}

/// One piece of a line diff before shortening.
enum Piece {
    Same(Vec<char>),
    Changed { old: Vec<char>, new: Vec<char> },
}

/// `expected` → `found` as one line's pieces, equal runs shortened and changed parts cut (see
/// [`describe_difference`]).
// Bounds: `prefix` ≤ both lengths and `suffix` counts only after it; the ops come from a diff
// over exactly the two middles.
#[allow(clippy::indexing_slicing)]
fn line_pieces(expected: &str, found: &str) -> Vec<DiffPiece> {
    let old: Vec<char> = expected.chars().collect();
    let new: Vec<char> = found.chars().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..].iter().rev().zip(new[prefix..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (old_middle, new_middle) = (&old[prefix..old.len() - suffix], &new[prefix..new.len() - suffix]);
    let mut pieces: Vec<Piece> = Vec::new();
    if prefix > 0 {
        pieces.push(Piece::Same(old[..prefix].to_vec()));
    }
    match bounded_myers(old_middle, new_middle, &mut Budget::unlimited()) {
        Some(ops) => {
            for op in ops {
                let piece = match op {
                    DiffOp::Equal { old_index, len, .. } => Piece::Same(old_middle[old_index..old_index + len].to_vec()),
                    DiffOp::Delete { old_index, old_len, .. } => {
                        Piece::Changed { old: old_middle[old_index..old_index + old_len].to_vec(), new: Vec::new() }
                    }
                    DiffOp::Insert { new_index, new_len, .. } => {
                        Piece::Changed { old: Vec::new(), new: new_middle[new_index..new_index + new_len].to_vec() }
                    }
                    DiffOp::Replace { old_index, old_len, new_index, new_len } => Piece::Changed {
                        old: old_middle[old_index..old_index + old_len].to_vec(),
                        new: new_middle[new_index..new_index + new_len].to_vec(),
                    },
                };
                push_merged(&mut pieces, piece);
            }
        }
        None => push_merged(&mut pieces, Piece::Changed { old: old_middle.to_vec(), new: new_middle.to_vec() }),
    }
    if suffix > 0 {
        pieces.push(Piece::Same(old[old.len() - suffix..].to_vec()));
    }
    shorten(&pieces)
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
            if let Some(Piece::Changed { old: prev_old, new: prev_new }) = pieces.last_mut() {
                prev_old.extend(old);
                prev_new.extend(new);
            } else {
                pieces.push(Piece::Changed { old, new });
            }
        }
    }
}

/// The pieces as listed: an equal run longer than [`CONTEXT_CHARS`] next to a change keeps only
/// that many chars on the change's side (both sides between two changes), a changed part only
/// its first [`CHANGED_CHARS`].
// Bounds: the cuts at CONTEXT_CHARS are taken only when `n` > CONTEXT_CHARS (the first
// branch took the shorter ones); `text.len().min(…)` bounds the changed text.
#[allow(clippy::indexing_slicing)]
fn shorten(pieces: &[Piece]) -> Vec<DiffPiece> {
    let text = |chars: &[char]| chars.iter().collect::<String>();
    let mut out = Vec::with_capacity(pieces.len() + 2);
    let last = pieces.len().saturating_sub(1);
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Same(same) => {
                let n = same.len();
                let (first, is_last) = (i == 0, i == last);
                if first && is_last || n <= CONTEXT_CHARS || (!first && !is_last && n <= 2 * CONTEXT_CHARS) {
                    out.push(DiffPiece::Same { text: text(same) });
                } else if first {
                    out.push(DiffPiece::Omitted { chars: n - CONTEXT_CHARS });
                    out.push(DiffPiece::Same { text: text(&same[n - CONTEXT_CHARS..]) });
                } else if is_last {
                    out.push(DiffPiece::Same { text: text(&same[..CONTEXT_CHARS]) });
                    out.push(DiffPiece::Omitted { chars: n - CONTEXT_CHARS });
                } else {
                    out.push(DiffPiece::Same { text: text(&same[..CONTEXT_CHARS]) });
                    out.push(DiffPiece::Omitted { chars: n - 2 * CONTEXT_CHARS });
                    out.push(DiffPiece::Same { text: text(&same[n - CONTEXT_CHARS..]) });
                }
            }
            Piece::Changed { old, new } => {
                let cut = |chars: &[char]| {
                    let shown = chars.len().min(CHANGED_CHARS);
                    (text(&chars[..shown]), chars.len() - shown)
                };
                if !old.is_empty() {
                    let (text, more) = cut(old);
                    out.push(DiffPiece::OldText { text, more });
                }
                if !new.is_empty() {
                    let (text, more) = cut(new);
                    out.push(DiffPiece::Document { text, more });
                }
            }
        }
    }
    out
}

/// Appends `pieces` as text: equal text as is, `…` for what is left out, `[-old_text-]` and
/// `{+document+}`, whitespace made visible.
fn render_pieces(out: &mut String, pieces: &[DiffPiece]) {
    for piece in pieces {
        match piece {
            DiffPiece::Same { text } => push_visible(out, text),
            DiffPiece::Omitted { .. } => out.push('…'),
            DiffPiece::OldText { text, more } | DiffPiece::Document { text, more } => {
                let (open, close) = match piece {
                    DiffPiece::OldText { .. } => ("[-", "-]"),
                    _ => ("{+", "+}"),
                };
                out.push_str(open);
                push_visible(out, text);
                if *more > 0 {
                    out.push('…');
                }
                out.push_str(close);
            }
        }
    }
}

/// `text` with whitespace and invisible chars made visible (see [`describe_difference`]).
fn push_visible(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            ' ' => out.push('·'),
            '\t' => out.push('→'),
            '\n' => out.push('⏎'),
            '\r' => out.push('␍'),
            c if is_shown_as_code_point(c) => {
                out.push_str(&format!("<U+{:04X}>", c as u32));
            }
            c => out.push(c),
        }
    }
}

/// Chars `c` takes once made visible.
fn visible_chars(c: char) -> usize {
    match c {
        ' ' | '\t' | '\n' | '\r' => 1,
        // `<U+` + at least four hex digits + `>`.
        c if is_shown_as_code_point(c) => 4 + format!("{:04X}", c as u32).len(),
        _ => 1,
    }
}

/// Whitespace, control and invisible format chars, shown as `<U+XXXX>`.
fn is_shown_as_code_point(c: char) -> bool {
    c.is_whitespace() || c.is_control() || is_invisible_format(c)
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

    /// Labels as English words them (src/locale/en.rs `diff.*`), for these tests.
    pub(crate) fn en(l: Label) -> String {
        match l {
            Label::Line(n) => format!("line {n}: "),
            Label::After(n) => format!("after line {n}: "),
            Label::BeforeFirst => "before line 1: ".into(),
            Label::DifferencesAfter(n) => format!("(differences after line {n})"),
        }
    }

    fn describe_difference(expected: &str, found: &str) -> String {
        super::describe_difference(expected, found, &en)
    }

    #[test]
    fn describe_one_line() {
        assert_eq!(describe_difference("timeout: 3O", "timeout: 30"), "timeout:·3[-O-]{+0+}");
        assert_eq!(describe_difference("a\tb", "a  b"), "a[-→-]{+··+}b");
        assert_eq!(describe_difference("x = 1\n", "x = 1"), "x·=·1[-⏎-]");
        assert_eq!(describe_difference("same", "same"), "");
        assert_eq!(describe_difference("a\u{a0}b", "a b"), "a[-<U+00A0>-]{+·+}b");
    }

    #[test]
    fn describe_many_lines() {
        let expected = "[server]\n  timeout: 3O\n  retries: 3\nend";
        let found = "[server]\n  timeout: 30\n  backoff: 2\n  retries: 3\n";
        assert_eq!(
            describe_difference(expected, found),
            concat!("line 2: ··timeout:·3[-O-]{+0+}\n", "after line 2: {+··backoff:·2⏎+}\n", "line 4: [-end-]")
        );
        assert_eq!(describe_difference("a\nb\n", "b\n"), "line 1: [-a⏎-]");
        assert_eq!(describe_difference("b\n", "a\nb\n"), "before line 1: {+a⏎+}");
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
        assert!(d.starts_with("line 1: value_0·{+:+}=·0\nline 2: value_1·{+:+}=·1\n"), "{d}");
    }

    #[test]
    fn the_difference_as_data_is_what_the_text_shows() {
        let d = difference("timeout: 3O", "timeout: 30");
        assert_eq!(
            d.lines,
            vec![DifferenceLine {
                at: LineAt::Whole,
                line: 0,
                pieces: vec![
                    DiffPiece::Same { text: "timeout: 3".into() },
                    DiffPiece::OldText { text: "O".into(), more: 0 },
                    DiffPiece::Document { text: "0".into(), more: 0 },
                ],
            }]
        );
        let long = "abcdefghijklmnopqrstuvwxyz0123456789";
        let d = difference(&format!("a\n{long}X{long}"), &format!("a\n{long}{}", "Y".repeat(70)));
        assert_eq!(d.lines.len(), 1);
        assert_eq!((d.lines[0].at, d.lines[0].line), (LineAt::Line, 2));
        assert_eq!(
            d.lines[0].pieces,
            vec![
                DiffPiece::Omitted { chars: 16 },
                DiffPiece::Same { text: "qrstuvwxyz0123456789".into() },
                DiffPiece::OldText { text: format!("X{long}"), more: 0 },
                DiffPiece::Document { text: "Y".repeat(60), more: 10 },
            ]
        );
        assert_eq!(d.render(&en), format!("line 2: …qrstuvwxyz0123456789[-X{long}-]{{+{}…+}}", "Y".repeat(60)));
        assert!(difference("same", "same").is_empty());
        // Listing stops past the cap: the data stays as small as the text.
        let many_old: String = (0..400).map(|i| format!("value_{i} = {i}\n")).collect();
        let d = difference(&many_old, &many_old.replace(" = ", " := "));
        assert!(d.lines.len() < 40, "{}", d.lines.len());
        assert_eq!(d.render(&en).chars().count(), MAX_DESCRIPTION_CHARS);
    }
}
