//! Recommendation (docs/architecture.md#matching): a clear winner among candidates, or nothing.
//!
//! A candidate is recommended only when it is *clearly* best. The criteria are tried in order and
//! the first one that singles out one candidate decides; a criterion that ties (or has nothing to
//! go on) passes to the next one; when none decides there is no recommendation.
//!
//! 1. **After the anchor** ([`Hints::anchor_end`], `search_after` was given): the candidate that
//!    starts nearest after the anchor, measured in lines from the anchor's end to the
//!    candidate's start, wins when it is *strictly* nearer than every other candidate. Two
//!    candidates on the same (nearest) line tie. Candidates that start before the anchor's end
//!    (the caller should not pass any) are ignored by this criterion.
//! 2. **Near the focus** ([`Hints::focus`]: the last staged change in this document, or the
//!    editor cursor): distance in lines from the focus line to the candidate's line span (0 when
//!    the focus line is inside it). The nearest wins when it is strictly nearer than the
//!    runner-up *and* at most half as far (`2·d₁ ≤ d₂`): 0 vs 1 and 3 vs 6 decide, 2 vs 3 does
//!    not.
//! 3. **Goal words** ([`Hints::goal`]): the candidate whose surroundings share the most distinct
//!    words with the goal wins when it shares at least one and strictly more than every other
//!    candidate. Surroundings: the candidate's own lines (at most 8), up to 2 lines directly
//!    above it in the same block (stopping at a blank line, and after the block's head: a
//!    comment/heading or a line indented less than the candidate), and from [`crate::outline`]
//!    its key path, its context comment and its heading path (each line read up to 400 chars). Words: ASCII/Latin words (letters and digits, case-insensitive, at least 2 chars,
//!    minus a small stop-word list including task verbs like "change"/"update") and, for CJK
//!    text, character bigrams (minus a few verb bigrams like 修改/更新). Only evaluated for at
//!    most [`MAX_GOAL_CANDIDATES`] candidates.
//!
//! Fewer than two candidates: no recommendation (nothing to choose). Ranges are clamped to the
//! rope; nothing here panics.
//!
//! Near misses after `NoMatch` are judged by what differs from `old_text` instead
//! ([`crate::matching::near::clear_best`]: [`Reason::WhitespaceOnly`], [`Reason::OneToken`],
//! [`Reason::AddedLines`]), one candidate included.

use std::collections::HashSet;
use std::ops::Range;

use ropey::Rope;

use crate::outline;
use crate::text_rules::{lower, word_runs, CharClass};

/// What the workspace knows that can single out one candidate.
#[derive(Clone, Debug, Default)]
pub struct Hints<'a> {
    /// Char offset where `search_after`'s anchor ends.
    pub anchor_end: Option<usize>,
    /// Char offset of the last staged change in this document, or of the editor cursor.
    pub focus: Option<usize>,
    /// The active task's goal.
    pub goal: Option<&'a str>,
}

/// Why a candidate was recommended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    AfterAnchor,
    NearFocus,
    GoalWords,
    /// A near miss (after `NoMatch`) whose words and symbols are `old_text`'s: only whitespace
    /// and line breaks differ (matching::near::clear_best).
    WhitespaceOnly,
    /// A near miss that differs from `old_text` in one word or symbol run only.
    OneToken,
    /// A near miss that differs from `old_text` only by whole lines `old_text` lacks.
    AddedLines,
    /// A `memo_find` unit whose score is clearly ahead of the next one's
    /// (docs/decisions.md#memo_find-ranking).
    BestByMargin,
}

impl Reason {
    pub const ALL: [Reason; 7] = [
        Reason::AfterAnchor,
        Reason::NearFocus,
        Reason::GoalWords,
        Reason::WhitespaceOnly,
        Reason::OneToken,
        Reason::AddedLines,
        Reason::BestByMargin,
    ];

    /// A stable machine-readable code: `after_anchor`, `near_focus`, `goal_words`,
    /// `whitespace_only`, `one_token`, `added_lines`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::AfterAnchor => "after_anchor",
            Reason::NearFocus => "near_focus",
            Reason::GoalWords => "goal_words",
            Reason::WhitespaceOnly => "whitespace_only",
            Reason::OneToken => "one_token",
            Reason::AddedLines => "added_lines",
            Reason::BestByMargin => "best_by_margin",
        }
    }

    /// The key of its phrase in the locale tables (src/locale/): `reason.goal_words`, ….
    /// Presentation lives there: matching decides, the words are the response's.
    pub const fn key(self) -> &'static str {
        match self {
            Reason::AfterAnchor => "reason.after_anchor",
            Reason::NearFocus => "reason.near_focus",
            Reason::GoalWords => "reason.goal_words",
            Reason::WhitespaceOnly => "reason.whitespace_only",
            Reason::OneToken => "reason.one_token",
            Reason::AddedLines => "reason.added_lines",
            Reason::BestByMargin => "reason.best_by_margin",
        }
    }
}

impl serde::Serialize for Reason {
    /// As its code (`goal_words`, …).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recommendation {
    /// Index into the `candidates` slice.
    pub index: usize,
    pub reason: Reason,
}

/// Above this many candidates the goal-words criterion is not evaluated (too costly, and a word
/// overlap among hundreds of look-alikes is no clear signal; the agent should narrow instead).
pub const MAX_GOAL_CANDIDATES: usize = 100;
/// Lines directly above a candidate included in its goal-word surroundings.
const LINES_ABOVE: usize = 2;
/// At most this many of a candidate's own lines are tokenised.
const OWN_LINES: usize = 8;
/// At most this many chars of any one line are tokenised.
const LINE_CHARS: usize = 400;

/// The clear winner among `candidates` (char ranges into `rope`, in document order), if any —
/// see the module documentation for the rules.
///
/// Cost: criteria 1 and 2 are O(k log n) for k candidates; criterion 3 adds, per candidate,
/// the bounded scans of [`outline::key_path_preview`], [`outline::context_line`] and
/// [`outline::heading_path`] (at most `outline::HEADING_SCAN_LINES` lines) plus
/// O(OWN_LINES + LINES_ABOVE) lines of at most 400 chars, for at most
/// [`MAX_GOAL_CANDIDATES`] candidates.
pub fn recommend(rope: &Rope, candidates: &[Range<usize>], hints: &Hints) -> Option<Recommendation> {
    if candidates.len() < 2 {
        return None;
    }
    let len = rope.len_chars();
    let spans: Vec<Span> = candidates.iter().map(|r| Span::of(rope, r, len)).collect();

    if let Some(anchor) = hints.anchor_end {
        if let Some(index) = by_anchor(rope, &spans, anchor.min(len)) {
            return Some(Recommendation { index, reason: Reason::AfterAnchor });
        }
    }
    if let Some(focus) = hints.focus {
        if let Some(index) = by_focus(rope.char_to_line(focus.min(len)), &spans) {
            return Some(Recommendation { index, reason: Reason::NearFocus });
        }
    }
    if let Some(goal) = hints.goal {
        if candidates.len() <= MAX_GOAL_CANDIDATES {
            if let Some(index) = by_goal(rope, &spans, goal) {
                return Some(Recommendation { index, reason: Reason::GoalWords });
            }
        }
    }
    None
}

/// A candidate's clamped start char and its first and last (0-based) lines.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    first: usize,
    last: usize,
}

impl Span {
    fn of(rope: &Rope, r: &Range<usize>, len: usize) -> Span {
        let start = r.start.min(len);
        let end = r.end.min(len).max(start);
        let first = rope.char_to_line(start);
        // `end` is exclusive: a range ending right after a line break ends on that line.
        let last = if end > start { rope.char_to_line(end - 1) } else { first };
        Span { start, first, last }
    }

    /// Lines between `line` and this span (0 when `line` is inside it).
    fn distance(&self, line: usize) -> usize {
        if line < self.first {
            self.first - line
        } else {
            line.saturating_sub(self.last)
        }
    }
}

/// Among `(index, distance)` pairs, the index with the smallest distance when
/// `clear(best, runner_up)` holds. `None` for an empty list; a lone pair wins.
fn unique_best(scores: &[(usize, usize)], clear: impl Fn(usize, usize) -> bool) -> Option<usize> {
    let mut sorted: Vec<(usize, usize)> = scores.to_vec();
    crate::sort::sort_by_key(&mut sorted, |&(_, d)| d);
    match sorted.as_slice() {
        [] => None,
        [(i, _)] => Some(*i),
        [(i, d1), (_, d2), ..] => clear(*d1, *d2).then_some(*i),
    }
}

/// Criterion 1: strictly nearest (in lines) after the anchor.
fn by_anchor(rope: &Rope, spans: &[Span], anchor: usize) -> Option<usize> {
    let anchor_line = rope.char_to_line(anchor);
    let scores: Vec<(usize, usize)> =
        spans.iter().enumerate().filter(|(_, s)| s.start >= anchor).map(|(i, s)| (i, s.first - anchor_line)).collect();
    unique_best(&scores, |d1, d2| d1 < d2)
}

/// Criterion 2: nearest to the focus line, strictly and at most half the runner-up's distance.
fn by_focus(focus_line: usize, spans: &[Span]) -> Option<usize> {
    let scores: Vec<(usize, usize)> = spans.iter().enumerate().map(|(i, s)| (i, s.distance(focus_line))).collect();
    unique_best(&scores, |d1, d2| d1 < d2 && 2 * d1 <= d2)
}

/// Criterion 3: strictly most distinct words shared with the goal, at least one.
fn by_goal(rope: &Rope, spans: &[Span], goal: &str) -> Option<usize> {
    let goal_words = words(goal);
    if goal_words.is_empty() {
        return None;
    }
    let mut best: Option<(usize, usize)> = None; // (index, shared)
    let mut tie = false;
    for (i, span) in spans.iter().enumerate() {
        let shared = surroundings_words(rope, span).intersection(&goal_words).count();
        match best {
            Some((_, b)) if shared < b => {}
            Some((_, b)) if shared == b => tie = true,
            _ => {
                best = Some((i, shared));
                tie = false;
            }
        }
    }
    match best {
        Some((i, shared)) if shared > 0 && !tie => Some(i),
        _ => None,
    }
}

/// Line `idx` without its break, at most [`LINE_CHARS`] chars.
fn line_prefix(rope: &Rope, idx: usize) -> String {
    let mut s: String = rope.line(idx).chars().take(LINE_CHARS).collect();
    while s.ends_with(['\n', '\r']) {
        s.pop();
    }
    s
}

fn is_comment_or_heading(t: &str) -> bool {
    t.starts_with('#') || t.starts_with("//") || t.starts_with("--") || t.starts_with("<!--")
}

/// The words of a candidate's surroundings (see the module documentation).
fn surroundings_words(rope: &Rope, span: &Span) -> HashSet<String> {
    let mut text = String::new();
    let last = span.last.min(span.first + OWN_LINES - 1).min(rope.len_lines().saturating_sub(1));
    for idx in span.first..=last {
        text.push_str(&line_prefix(rope, idx));
        text.push('\n');
    }
    // Lines directly above, in the same block: stop at a blank line, and after a comment/heading
    // or a line indented less than the candidate's first line (the block's head).
    let own = line_prefix(rope, span.first);
    let own_indent = own.len() - own.trim_start().len();
    let mut idx = span.first;
    for _ in 0..LINES_ABOVE {
        if idx == 0 {
            break;
        }
        idx -= 1;
        let l = line_prefix(rope, idx);
        let t = l.trim();
        if t.is_empty() {
            break;
        }
        text.push_str(&l);
        text.push('\n');
        if is_comment_or_heading(t) || l.len() - l.trim_start().len() < own_indent {
            break;
        }
    }
    text.push_str(&outline::key_path_preview(rope, span.first));
    text.push('\n');
    if let Some(c) = outline::context_line(rope, span.first) {
        text.push_str(&c);
        text.push('\n');
    }
    for h in outline::heading_path(rope, span.first) {
        text.push_str(&h);
        text.push('\n');
    }
    words(&text)
}

/// English stop words and task verbs that say nothing about *where* a change goes.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "in", "into", "is", "it", "its", "of", "on", "or", "the", "this",
    "that", "to", "with", "we", "you", "our", "my", "all", "not", "no", "so", "if", "then", "than", "there", "here", "new", "old", "value",
    "change", "changes", "update", "modify", "set", "make", "fix", "edit", "replace", "use", "add", "remove",
];

/// CJK bigrams of task verbs and fillers.
const STOP_BIGRAMS: &[&str] =
    &["修改", "更改", "改为", "改成", "更新", "设置", "设为", "替换", "一个", "这个", "那个", "我们", "需要", "进行"];

/// Distinct words of `s`: lower-cased runs of (non-CJK) letters and digits of at least 2 chars
/// that are not stop words, and bigrams of consecutive CJK chars (a lone CJK char is dropped).
/// `_`, `.`, `-` and every other non-alphanumeric char separate words (`api_timeout` → `api`,
/// `timeout`). Cost: O(len).
pub(crate) fn words(s: &str) -> HashSet<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = HashSet::new();
    for (class, _, run) in word_runs(&chars) {
        if class == CharClass::Cjk {
            out.extend(run.windows(2).map(|pair| pair.iter().collect::<String>()).filter(|b| !STOP_BIGRAMS.contains(&b.as_str())));
        } else {
            let word = lower(run);
            if word.chars().count() >= 2 && !STOP_WORDS.contains(&word.as_str()) {
                out.insert(word);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The char ranges of every occurrence of `needle` in `text`.
    fn find_all(text: &str, needle: &str) -> Vec<Range<usize>> {
        text.match_indices(needle)
            .map(|(b, m)| {
                let s = text[..b].chars().count();
                s..s + m.chars().count()
            })
            .collect()
    }

    fn char_of(text: &str, needle: &str) -> usize {
        text[..text.find(needle).unwrap()].chars().count()
    }

    /// Char offset of the start of 0-based line `line`.
    fn line_start(text: &str, line: usize) -> usize {
        Rope::from_str(text).line_to_char(line)
    }

    fn rec(text: &str, cands: &[Range<usize>], hints: Hints) -> Option<Recommendation> {
        recommend(&Rope::from_str(text), cands, &hints)
    }

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

    // ---- basics

    #[test]
    fn fewer_than_two_candidates_or_no_hints_give_nothing() {
        let text = "x = 1\nx = 1\n";
        let all = find_all(text, "x = 1");
        let hints = Hints { anchor_end: Some(0), focus: Some(0), goal: Some("x") };
        assert_eq!(rec(text, &all[..1], hints.clone()), None);
        assert_eq!(rec(text, &[], hints.clone()), None);
        assert_eq!(rec(text, &all, Hints::default()), None);
        // …while the same hints with two candidates do decide.
        assert!(rec(text, &all, hints).is_some());
    }

    #[test]
    fn out_of_bounds_ranges_do_not_panic() {
        // "a\nb\n": lines 0 "a", 1 "b", 2 "". 50..90 clamps to the end (line 2), 3..1 to 3..3.
        let text = "a\nb\n";
        let cands = [0..1, 50..90, Range { start: 3, end: 1 }];
        // The anchor clamps to the end: only the clamped candidate starts at or after it.
        let hints = Hints { anchor_end: Some(1000), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), Some(Recommendation { index: 1, reason: Reason::AfterAnchor }));
        // The focus clamps to line 2: distances 2, 0, 1.
        let hints = Hints { focus: Some(1000), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), Some(Recommendation { index: 1, reason: Reason::NearFocus }));
        let hints = Hints { goal: Some("alpha beta"), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), None);
    }

    #[test]
    fn reason_codes_and_keys() {
        // Every code and every phrase key distinct (the phrases are the locale tables', tested
        // there).
        let codes: std::collections::HashSet<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(codes.len(), Reason::ALL.len());
        for r in Reason::ALL {
            assert_eq!(r.key().strip_prefix("reason."), Some(r.as_str()), "{r:?}");
        }
        assert_eq!(Reason::OneToken.as_str(), "one_token");
    }

    // ---- criterion 1: anchor

    #[test]
    fn anchor_picks_the_strictly_nearest_after_it() {
        let text = "fn a() {}\nfn process() {\n    let x = 1;\n    result = 0;\n}\nfn c() {\n    result = 0;\n}\n";
        let cands = find_all(text, "result = 0");
        let anchor = char_of(text, "fn process()") + "fn process()".chars().count();
        let r = rec(text, &cands, Hints { anchor_end: Some(anchor), ..Hints::default() });
        assert_eq!(r, Some(Recommendation { index: 0, reason: Reason::AfterAnchor }));
    }

    #[test]
    fn anchor_tie_on_the_same_line_passes_to_the_next_criterion() {
        let text = "start\nx=0; x=0;\n\n\n\n\nx=0;\n";
        let cands = find_all(text, "x=0");
        assert_eq!(cands.len(), 3);
        let hints = Hints { anchor_end: Some(5), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), None);
        // The focus on the last line then decides.
        let hints = Hints { anchor_end: Some(5), focus: Some(line_start(text, 6)), goal: None };
        assert_eq!(rec(text, &cands, hints), Some(Recommendation { index: 2, reason: Reason::NearFocus }));
    }

    #[test]
    fn anchor_ignores_candidates_before_it() {
        let text = "x=0\nanchor\nx=0\n\nx=0\n";
        let cands = find_all(text, "x=0");
        let anchor = char_of(text, "anchor") + 6;
        let r = rec(text, &cands, Hints { anchor_end: Some(anchor), ..Hints::default() });
        assert_eq!(r, Some(Recommendation { index: 1, reason: Reason::AfterAnchor }));
    }

    // ---- criterion 2: focus

    #[test]
    fn focus_needs_a_clear_margin() {
        // Candidates on lines 0, 10 and 20.
        let mut text = String::new();
        for i in 0..21 {
            text.push_str(if i % 10 == 0 { "x=0\n" } else { "y\n" });
        }
        let cands = find_all(&text, "x=0");
        let at = |line: usize| Hints { focus: Some(line_start(&text, line)), ..Hints::default() };
        let pick = |i| Some(Recommendation { index: i, reason: Reason::NearFocus });
        // Inside a candidate's line: 0 vs 10.
        assert_eq!(rec(&text, &cands, at(10)), pick(1));
        // 3 vs 7: 6 ≤ 7, clear.
        assert_eq!(rec(&text, &cands, at(3)), pick(0));
        // 4 vs 6: 8 > 6, not clear enough.
        assert_eq!(rec(&text, &cands, at(4)), None);
        // 5 vs 5: tie.
        assert_eq!(rec(&text, &cands, at(5)), None);
        // Line 14: 4 vs 6, not clear; line 17: 3 vs 7 → candidate 2.
        assert_eq!(rec(&text, &cands, at(14)), None);
        assert_eq!(rec(&text, &cands, at(17)), pick(2));
    }

    #[test]
    fn focus_inside_a_multi_line_candidate_is_distance_zero() {
        let text = "a\nb\nc\nx\na\nb\nc\n";
        let cands = find_all(text, "a\nb\nc");
        assert_eq!(cands.len(), 2);
        // Focus on line 2 ("c" of the first candidate): 0 vs 2.
        let hints = Hints { focus: Some(line_start(text, 2)), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), Some(Recommendation { index: 0, reason: Reason::NearFocus }));
        // Focus on line 3 ("x"): 1 vs 1 → tie.
        let hints = Hints { focus: Some(line_start(text, 3)), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), None);
    }

    #[test]
    fn anchor_wins_over_focus() {
        let text = "x=0\nanchor\nx=0\n\n\n\nx=0\n";
        let cands = find_all(text, "x=0");
        let anchor = char_of(text, "anchor") + 6;
        let hints = Hints { anchor_end: Some(anchor), focus: Some(line_start(text, 6)), goal: None };
        assert_eq!(rec(text, &cands, hints), Some(Recommendation { index: 1, reason: Reason::AfterAnchor }));
    }

    // ---- criterion 3: goal words

    #[test]
    fn seed_goal_in_chinese_picks_the_api_block() {
        let cands = find_all(SEED_YAML, "timeout: 30");
        assert_eq!(cands.len(), 3);
        let hints = Hints { goal: Some("修改 API 超时"), ..Hints::default() };
        assert_eq!(rec(SEED_YAML, &cands, hints), Some(Recommendation { index: 1, reason: Reason::GoalWords }));
        let hints = Hints { goal: Some("把缓存的超时改成 60"), ..Hints::default() };
        assert_eq!(rec(SEED_YAML, &cands, hints), Some(Recommendation { index: 2, reason: Reason::GoalWords }));
    }

    #[test]
    fn goal_uses_the_key_path_when_the_parent_is_far_above() {
        let mut text = String::from("database:\n");
        for i in 0..20 {
            text.push_str(&format!("  opt{i}: 1\n"));
        }
        text.push_str("  timeout: 30\napi:\n");
        for i in 0..20 {
            text.push_str(&format!("  opt{i}: 1\n"));
        }
        text.push_str("  timeout: 30\n");
        let cands = find_all(&text, "timeout: 30");
        let hints = Hints { goal: Some("Raise the database timeout"), ..Hints::default() };
        assert_eq!(rec(&text, &cands, hints), Some(Recommendation { index: 0, reason: Reason::GoalWords }));
    }

    #[test]
    fn goal_uses_markdown_headings() {
        let text = "# Setup\n\n## Linux\n\nSome text.\n\nRun `make`.\n\n## Windows\n\nMore text.\n\nRun `make`.\n";
        let cands = find_all(text, "Run `make`.");
        let hints = Hints { goal: Some("fix the windows instructions"), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), Some(Recommendation { index: 1, reason: Reason::GoalWords }));
    }

    #[test]
    fn lines_above_stop_at_the_head_of_the_block() {
        // Indentation: `cache:` heads the middle block; `retries: 3` above it is another block's.
        let text = "api:\n  retries: 3\ncache:\n  timeout: 30\nqueue:\n  retries: 5\n  timeout: 30\n";
        let cands = find_all(text, "timeout: 30");
        let hints = Hints { goal: Some("retries"), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), Some(Recommendation { index: 1, reason: Reason::GoalWords }));
        // A comment heads its block: `retries = 1` above `# db` is not the first candidate's.
        let text = "retries = 1\n# db\ntimeout = 30\n\n# other\ntimeout = 30\n";
        let cands = find_all(text, "timeout = 30");
        let hints = Hints { goal: Some("retries"), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), None);
    }

    #[test]
    fn goal_ties_and_misses_give_nothing() {
        let cands = find_all(SEED_YAML, "timeout: 30");
        // Shared by all three ("timeout", "30"): a tie.
        let hints = Hints { goal: Some("change timeout 30"), ..Hints::default() };
        assert_eq!(rec(SEED_YAML, &cands, hints), None);
        // Nothing shared.
        let hints = Hints { goal: Some("rename the project"), ..Hints::default() };
        assert_eq!(rec(SEED_YAML, &cands, hints), None);
        // Only stop words / verbs.
        let hints = Hints { goal: Some("修改 the"), ..Hints::default() };
        assert_eq!(rec(SEED_YAML, &cands, hints), None);
        // Two blocks named in the goal, one each: tie.
        let hints = Hints { goal: Some("api and cache"), ..Hints::default() };
        assert_eq!(rec(SEED_YAML, &cands, hints), None);
    }

    #[test]
    fn earlier_criteria_decide_before_the_goal() {
        let cands = find_all(SEED_YAML, "timeout: 30");
        // Focus on the cache block's line (0 vs 3) beats a goal naming the api block.
        let focus = line_start(SEED_YAML, 9);
        let hints = Hints { focus: Some(focus), goal: Some("API 超时"), ..Hints::default() };
        assert_eq!(rec(SEED_YAML, &cands, hints), Some(Recommendation { index: 2, reason: Reason::NearFocus }));
        // A focus that ties (2 vs 2) leaves the decision to the goal.
        let text = "# api block\napi:\n  t: 1\n\n# db block\ndb:\n  t: 1\n";
        let cands = find_all(text, "t: 1");
        let hints = Hints { focus: Some(line_start(text, 4)), goal: Some("the db block"), ..Hints::default() };
        assert_eq!(rec(text, &cands, hints), Some(Recommendation { index: 1, reason: Reason::GoalWords }));
    }

    #[test]
    fn too_many_candidates_skip_the_goal() {
        let mut text = String::from("// special block\nx=0\n");
        text.push_str(&"\nx=0\n".repeat(MAX_GOAL_CANDIDATES));
        let cands = find_all(&text, "x=0");
        assert!(cands.len() > MAX_GOAL_CANDIDATES);
        let hints = Hints { goal: Some("special"), ..Hints::default() };
        assert_eq!(rec(&text, &cands, hints.clone()), None);
        assert_eq!(rec(&text, &cands[..MAX_GOAL_CANDIDATES], hints), Some(Recommendation { index: 0, reason: Reason::GoalWords }));
    }

    // ---- tokeniser

    #[test]
    fn words_tokenise_ascii_and_cjk() {
        let w = words("Set API_Timeout to 30s in 数据库连接, a x");
        let mut v: Vec<&str> = w.iter().map(String::as_str).collect();
        v.sort();
        assert_eq!(v, ["30s", "api", "timeout", "库连", "据库", "数据", "连接"]);
        // Verb bigrams and lone CJK chars are dropped.
        let w = words("修改 超时 改");
        assert_eq!(w, HashSet::from(["超时".to_string()]));
        // Lower-casing beyond ASCII.
        assert!(words("ÉCOLE").contains("école"));
    }
}
