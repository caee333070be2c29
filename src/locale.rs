//! Locale: the words of the responses, one table per language — a file each under
//! src/locale/ ([`Words`]: its headings and fixed words, and [`Words::phrases`], the keyed
//! sentences of summaries, guidance and notes with named placeholders) — and the forms every
//! view shares (`+3` deltas, `{}` templates). Plain data at the bottom of the module graph: the
//! views ([`crate::format`], the live context, history summaries), the outcome words
//! (src/workspace/words/) and the validator read it; it reads nothing of theirs
//! (docs/responses.md#locales-and-styles).
//!
//! Adding a locale is one file here (a copy of en.rs, translated) and its name in [`LOCALES`]:
//! the tests fail until every key of en.rs is in it with the same placeholders.

use std::fmt;

mod en;
mod zh;

/// Every locale, by its table; a [`Locale`] is a position in this list, the first the default.
/// Its name (`"en"`) is what options and flags take.
pub const LOCALES: &[&Words] = &[&en::WORDS, &zh::WORDS];

/// The locales' names in [`LOCALES`] order (`["en", "zh"]`), read from the tables at compile
/// time: the words the `locale` option takes (src/workspace/options.rs).
// Indexing in a const item is checked by the compiler: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
pub const LOCALE_NAMES: [&str; LOCALES.len()] = {
    let mut names = [""; LOCALES.len()];
    let mut i = 0;
    while i < LOCALES.len() {
        names[i] = LOCALES[i].name;
        i += 1;
    }
    names
};

/// Words as a refusal lists what it takes: `"a"`, `"a" or "b"`, `"a", "b" or "c"` (the option
/// table's and the live context's refusals). Cost: O(words).
pub fn quoted_or(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Language of the responses: a position in [`LOCALES`]. `en` is the default.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Locale(u8);

#[allow(non_upper_case_globals)]
impl Locale {
    /// English, the default.
    pub const En: Locale = Locale(0);
    /// Chinese.
    pub const Zh: Locale = Locale(1);

    /// Every locale, in [`LOCALES`] order.
    pub fn all() -> impl Iterator<Item = Locale> {
        (0..LOCALES.len()).filter_map(|i| u8::try_from(i).ok()).map(Locale)
    }

    /// The locale named `s` (`"en"`, `"zh"`), if there is one.
    pub fn parse(s: &str) -> Option<Locale> {
        Locale::all().find(|l| l.as_str() == s)
    }

    /// What an option accepts, for error messages: `"en" or "zh"`.
    pub fn expected() -> String {
        quoted_or(&LOCALE_NAMES)
    }

    pub fn as_str(self) -> &'static str {
        self.words().name
    }

    /// The table of this locale.
    pub fn words(self) -> &'static Words {
        LOCALES.get(usize::from(self.0)).copied().unwrap_or(&en::WORDS)
    }
}

impl fmt::Debug for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The fixed words of one locale: every word the formatter writes that is not a field of the
/// response, a tag in brackets, a key or a column name. Fields holding `{}` are templates: the
/// value replaces the `{}`.
#[derive(Debug)]
pub struct Words {
    /// The locale's name, as options take it: `en`, `zh`.
    pub name: &'static str,
    /// `### [OK] {overview}`.
    pub overview: &'static str,
    /// `### [Metrics] {metrics}`.
    pub metrics: &'static str,
    /// The metrics table's header line.
    pub metric_header: &'static str,
    /// `### [Target] {candidates}`.
    pub candidates: &'static str,
    /// `### [Text] {content}`.
    pub content: &'static str,
    /// `### [Diff] {preview}`.
    pub preview: &'static str,
    /// `### [Changes] {pending}`.
    pub pending: &'static str,
    /// `### [Tasks] {tasks}`.
    pub tasks: &'static str,
    /// `### [Log] {log}`.
    pub log: &'static str,
    /// What `- guidance:` says when there is none.
    pub empty: &'static str,
    /// A 1-based line number: `line 12` / `第 12 行`.
    pub line: &'static str,
    /// Between a line number and what is on it: `: ` / `：`.
    pub colon: &'static str,
    /// A parenthesised remark after a value: ` (+3)` / `（+3）`.
    pub paren: &'static str,
    /// Before [`Words::recommended`] in a candidate line: ` ← `.
    pub arrow: &'static str,
    /// The recommended candidate: `recommended` / `推荐`.
    pub recommended: &'static str,
    /// A candidate whose text an edit staged since changed: `stale` / `已失效`.
    pub stale: &'static str,
    /// The table's `Recommended` cell of the recommended candidate: `yes` / `是`.
    pub yes: &'static str,
    /// A pending change by its letter, in the pending list and the preview's hunk labels:
    /// `change {}` / `变更 {}` — never `[A]`, which is a candidate's (docs/responses.md#letters).
    pub change: &'static str,
    /// Between the letters of one preview label (`change C, B`).
    pub letters_and: &'static str,
    /// After a pending change that was merged with a later edit: ` amended` / `（已合并）`.
    pub amended: &'static str,
    /// After the line of a pending change with several places (a replace-all): `, 3 places` /
    /// `，共 3 处`.
    pub places: &'static str,
    /// A session-log entry without a status yet (the export call itself).
    pub running: &'static str,
    /// Task statuses: `Active`, `Completed`, `Reverted` (en keeps the JSON values).
    pub task_active: &'static str,
    pub task_completed: &'static str,
    pub task_reverted: &'static str,
    /// The innermost active task's word in the stack: `current` / `当前`.
    pub task_current: &'static str,
    /// The line that starts the thought tree: `🌳 Tasks finished in this session:` /
    /// `🌳 本次会话已完成任务：` (the Chinese task-tree wording).
    pub tasks_done: &'static str,
    /// The tree's line for the root tasks left out: `… 3 earlier` / `… 更早的 3 项`.
    pub tasks_earlier: &'static str,
    /// `markdown_basic`: ` · candidates A–C` / ` · 候选 A–C`.
    pub basic_candidates: &'static str,
    /// `markdown_basic`: `, recommended B` / `，推荐 B`.
    pub basic_recommended: &'static str,
    /// The sentences of summaries, guidance, notes and refusals by key, with named
    /// placeholders (`{line}`); [`Words::phrase`], [`Words::t`]. Every locale has every key of
    /// en.rs, in its order (checked at compile time, [`packed`]), with the same placeholders
    /// (tested).
    pub(crate) phrases: Phrases,
    /// The live context's words (src/live_context.rs).
    pub(crate) live: &'static LiveWords,
}

/// The live context block's words, by locale. `{}` in a template is filled in order (src/live_context.rs).
#[derive(Debug)]
pub(crate) struct LiveWords {
    pub live: &'static str,
    pub document: &'static str,
    pub recent: &'static str,
    pub anchor: &'static str,
    pub editor: &'static str,
    pub hints: &'static str,
    pub memory: &'static str,
    pub tasks: &'static str,
    /// `- Version: {id} · {path} · {kind}`
    pub version: &'static str,
    pub kinds: [&'static str; 3],
    pub time: &'static str,
    pub summary: &'static str,
    pub error: &'static str,
    pub lines: &'static str,
    /// `{path} {from}{since} → {to} (now)`
    pub anchor_line: &'static str,
    /// `{path}` — {view} {version}{pending}, {lines} lines, {chars} chars
    pub document_line: &'static str,
    pub views: [&'static str; 2],
    /// One pending change, several.
    pub pending: [&'static str; 2],
    /// Showing lines {start}–{end}{focus} (…{read tool}…)
    pub window: &'static str,
    pub around: &'static str,
    pub headings: &'static str,
    pub heading: &'static str,
    pub more: &'static str,
    pub active: &'static str,
    pub cursor: &'static str,
    pub selection: &'static str,
    pub open: &'static str,
    /// One pending change, several.
    pub workflow: [&'static str; 2],
    pub omitted: &'static str,
    pub coarse: &'static str,
}

impl Words {
    /// `line 12` / `第 12 行`.
    pub fn line_no(&self, n: usize) -> String {
        fill(self.line, &n.to_string())
    }

    /// The phrase under `key`, else nothing (a missing key is a test failure, never a panic; no
    /// fallback to English: every locale has every key of en.rs, tested below). Cost: O(log
    /// keys): the tables are sorted by key (tested below); every response looks several up.
    pub fn phrase(&self, key: &str) -> &'static str {
        lookup(&self.phrases, key).unwrap_or("")
    }

    /// The phrase under `key` with its named placeholders filled from `args`.
    pub fn t(&self, key: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
        fill_named(self.phrase(key), args)
    }

    /// `key.one` or `key.other` by `n`, with `{n}` filled: `1 place`, `3 places`, `3 处`.
    pub fn count(&self, key: &str, n: usize) -> String {
        let form = if n == 1 { "one" } else { "other" };
        self.t(&format!("{key}.{form}"), &[("n", &n)])
    }

    /// The word for a task status as shown in the task stack.
    pub fn task_status<'a>(&'a self, status: &'a str) -> &'a str {
        match status {
            "Active" => self.task_active,
            "Completed" => self.task_completed,
            "Reverted" => self.task_reverted,
            other => other,
        }
    }
}

/// The thought tree's marks (the same in every locale): a completed task, a
/// reverted one, and one still open (which a finished root cannot hold; shown for safety).
pub const TASK_DONE: &str = "✅";
pub const TASK_REVERTED: &str = "↩️";
pub const TASK_OPEN: &str = "📝";

/// The mark of a task status in the thought tree.
pub fn task_mark(status: &str) -> &'static str {
    match status {
        "Completed" => TASK_DONE,
        "Reverted" => TASK_REVERTED,
        _ => TASK_OPEN,
    }
}

/// The candidate table's header line (the same in every locale).
pub const CANDIDATE_TABLE_HEADER: &str =
    "| Id | MarkerStart | MarkerEnd | Preview | Occurrence | ContextStart | ContextEnd | Line | Recommended | Quality |";
/// The session log table's header line.
pub const SESSION_LOG_HEADER: &str = "| # | tool | status | at_ms | tool_call_id |";

/// Binary search over [`KEYS`]: sorting at the source costs the wasm no index and no sort code
/// (docs/decisions.md, "Phrase tables sorted at the source").
fn lookup(phrases: &Phrases, key: &str) -> Option<&'static str> {
    let i = KEYS.binary_search(&key).ok()?;
    phrases.get(i)
}

// ---- the phrase tables, packed ------------------------------------------------------------------

/// The keys of every locale's phrases, en.rs's in its order (each locale has the same keys in
/// the same order, checked at compile time by [`packed`]). One table for all locales.
static KEYS: [&str; en::PHRASES.len()] = keys(en::PHRASES);

/// One locale's phrases, in [`KEYS`] order: their texts end to end in one string and where each
/// ends. A table of `(&str, &str)` pairs cost 16 bytes of pointers per phrase per locale
/// in the wasm's data; this costs 2 (docs/decisions.md#phrase-tables-packed-at-compile-time).
#[derive(Debug)]
pub(crate) struct Phrases {
    text: &'static str,
    ends: &'static [u16],
}

impl Phrases {
    /// The text of the phrase at position `i` of [`KEYS`]. Cost: O(1).
    fn get(&self, i: usize) -> Option<&'static str> {
        let end = usize::from(*self.ends.get(i)?);
        let start = match i.checked_sub(1) {
            Some(before) => usize::from(*self.ends.get(before)?),
            None => 0,
        };
        self.text.get(start..end)
    }

    /// Every `(key, text)` pair, in key order.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        KEYS.iter().enumerate().filter_map(|(i, k)| Some((*k, self.get(i)?)))
    }
}

/// [`Phrases`] of a source table `[(key, text)]` sorted by key, built at compile time. The
/// build fails when the table's keys are not en.rs's, in its order, or its texts outgrow the
/// `u16` ends.
macro_rules! packed {
    ($table:expr) => {{
        const TABLE: &[(&str, &str)] = $table;
        const _: () = assert!($crate::locale::same_keys(TABLE, $crate::locale::en::PHRASES), "not en.rs's keys in its order");
        const BYTES: [u8; $crate::locale::text_len(TABLE)] = $crate::locale::texts(TABLE);
        const ENDS: [u16; TABLE.len()] = $crate::locale::ends(TABLE);
        $crate::locale::Phrases {
            text: match ::core::str::from_utf8(&BYTES) {
                Ok(text) => text,
                Err(_) => panic!("texts joined at char boundaries are UTF-8"),
            },
            ends: &ENDS,
        }
    }};
}
use packed;

// The const fns below run only at compile time, where an index out of range fails the build.

/// The keys of `table`.
#[allow(clippy::indexing_slicing)]
const fn keys<const N: usize>(table: &[(&'static str, &'static str)]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i].0;
        i += 1;
    }
    out
}

/// `a` and `b` have the same keys in the same order.
#[allow(clippy::indexing_slicing)]
const fn same_keys(a: &[(&str, &str)], b: &[(&str, &str)]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        let (x, y) = (a[i].0.as_bytes(), b[i].0.as_bytes());
        if x.len() != y.len() {
            return false;
        }
        let mut j = 0;
        while j < x.len() {
            if x[j] != y[j] {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

/// The bytes of all texts of `table`.
#[allow(clippy::indexing_slicing)]
const fn text_len(table: &[(&str, &str)]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < table.len() {
        n += table[i].1.len();
        i += 1;
    }
    n
}

/// The texts of `table` end to end.
#[allow(clippy::indexing_slicing)]
const fn texts<const N: usize>(table: &[(&str, &str)]) -> [u8; N] {
    let mut out = [0; N];
    let mut at = 0;
    let mut i = 0;
    while i < table.len() {
        let text = table[i].1.as_bytes();
        let mut j = 0;
        while j < text.len() {
            out[at] = text[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// Where each text of `table` ends in [`texts`].
#[allow(clippy::indexing_slicing, clippy::panic)]
const fn ends<const N: usize>(table: &[(&str, &str)]) -> [u16; N] {
    let mut out = [0; N];
    let mut end = 0;
    let mut i = 0;
    while i < N {
        end += table[i].1.len();
        assert!(end <= u16::MAX as usize, "a locale's phrases outgrow u16 ends");
        out[i] = end as u16;
        i += 1;
    }
    out
}

#[cfg(test)]
/// The name of each `{name}` placeholder in `template`, in order (a `{` not followed by a name
/// and `}`, as in `{+added+}`, is text).
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        let after = rest.get(i + 1..).unwrap_or("");
        match after.find('}') {
            Some(j) if j > 0 && after.get(..j).is_some_and(is_name) => {
                out.push(after.get(..j).unwrap_or(""));
                rest = after.get(j + 1..).unwrap_or("");
            }
            _ => rest = after,
        }
    }
    out
}

fn is_name(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// `template` with each `{name}` replaced by its value in `args`; a name without a value stays
/// as it is. Cost: O(template + values).
pub fn fill_named(template: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
    use fmt::Write as _;
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(rest.get(..i).unwrap_or(""));
        let after = rest.get(i + 1..).unwrap_or("");
        let value = after.find('}').and_then(|j| {
            let name = after.get(..j)?;
            let (_, v) = args.iter().find(|(n, _)| *n == name && j > 0 && is_name(name))?;
            Some((j, v))
        });
        match value {
            Some((j, v)) => {
                let _ = write!(out, "{v}");
                rest = after.get(j + 1..).unwrap_or("");
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `template` with its `{}` replaced by `value`.
pub fn fill(template: &str, value: &str) -> String {
    template.replacen("{}", value, 1)
}

/// `+12`, `-3`, `0`: a signed delta.
pub fn signed(n: isize) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// Each locale's source table, as en.rs and zh.rs write it, in [`LOCALES`] order.
    const SOURCES: &[&[(&str, &str)]] = &[en::PHRASES, zh::PHRASES];

    fn source(w: &Words) -> &'static [(&'static str, &'static str)] {
        let i = LOCALES.iter().position(|l| l.name == w.name).expect("a table of LOCALES");
        SOURCES[i]
    }

    fn table(w: &Words) -> BTreeMap<&'static str, &'static str> {
        source(w).iter().copied().collect()
    }

    #[test]
    fn every_locale_has_every_key_with_the_same_placeholders() {
        let en = table(Locale::En.words());
        for l in Locale::all() {
            let w = l.words();
            let t = table(w);
            assert_eq!(t.len(), source(w).len(), "a key appears twice in {}.rs", w.name);
            let missing: Vec<&str> = en.keys().filter(|k| !t.contains_key(*k)).copied().collect();
            let extra: Vec<&str> = t.keys().filter(|k| !en.contains_key(*k)).copied().collect();
            assert!(missing.is_empty() && extra.is_empty(), "{}.rs: missing {missing:?}, not in en.rs {extra:?}", w.name);
            for (key, text) in &en {
                let want: BTreeSet<&str> = placeholders(text).into_iter().collect();
                let got: BTreeSet<&str> = t.get(key).map(|x| placeholders(x)).unwrap_or_default().into_iter().collect();
                assert_eq!(got, want, "{}.rs `{key}`: placeholders differ from en.rs", w.name);
            }
        }
    }

    #[test]
    fn every_table_is_sorted_by_key_without_repeats() {
        // The lookup is a binary search: a key out of order would read as missing.
        for l in Locale::all() {
            let w = l.words();
            for pair in source(w).windows(2) {
                let (a, b) = (pair[0].0, pair[1].0);
                assert!(a < b, "{}.rs: `{b}` must come before `{a}` (sorted by key, no key twice)", w.name);
            }
            for (key, text) in source(w) {
                assert_eq!(w.phrase(key), *text, "{}.rs `{key}` is not found by its key", w.name);
            }
            // The packed table holds the source's pairs, no more, no fewer.
            assert!(w.phrases.iter().eq(source(w).iter().copied()), "{}.rs: the packed table differs", w.name);
        }
    }

    #[test]
    fn locales_are_found_by_name() {
        for l in Locale::all() {
            assert_eq!(Locale::parse(l.as_str()), Some(l));
        }
        assert_eq!(Locale::parse("fr"), None);
        // Every name of the list, in its order: a new locale needs no edit here.
        let expected = Locale::expected();
        assert!(LOCALE_NAMES.iter().all(|n| expected.contains(&format!("\"{n}\""))), "{expected}");
        assert_eq!(quoted_or(&["en", "zh"]), "\"en\" or \"zh\"");
        assert_eq!(format!("{:?}", Locale::Zh), "zh");
        assert_eq!(Locale::default(), Locale::En);
    }

    #[test]
    fn named_placeholders_fill_and_leave_other_braces() {
        let t = "[-removed-] {+added+} {n} of {total}, {missing} {}";
        assert_eq!(placeholders(t), vec!["n", "total", "missing"]);
        assert_eq!(fill_named(t, &[("n", &3), ("total", &"7")]), "[-removed-] {+added+} 3 of 7, {missing} {}");
        assert_eq!(fill_named("第 {line} 行", &[("line", &12)]), "第 12 行");
        // A value holding braces is not filled again.
        assert_eq!(fill_named("{a}{b}", &[("a", &"{b}"), ("b", &"x")]), "{b}x");
        assert_eq!(Locale::Zh.words().count("n_places", 3), "3 处");
        assert_eq!(Locale::En.words().count("n_places", 1), "1 place");
        // A key no table has reads as nothing, never as a panic.
        assert_eq!(Locale::Zh.words().phrase("no.such.key"), "");
    }
}
