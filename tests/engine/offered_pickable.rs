//! What is offered can be picked (docs/decisions.md#offered-candidates-are-pickable): random
//! real-looking documents (YAML, code, prose hard-wrapped or one line a paragraph, CJK,
//! one-line JSON), a random intended edit, and a near miss of the kind models send made of
//! its old_text (token drift, whitespace, reflow both ways, normalisation form, look-alikes,
//! JSON escapes decoded or doubled). Every candidate a response offers is picked in turn, on
//! a fresh workspace: the pick stages something — a refusal only where the offer said the
//! pick conflicts — and what it stages is the intended result in the document's own form for
//! a candidate at the intended place (or the one recommended), and for one elsewhere the
//! intended change made there and nothing else. What the first call stages is the intended
//! result too.
//!
//! `OFFERED_PICKABLE_CASES` sets the number of cases (default 1,200, about 20 s in a debug
//! build), `OFFERED_PICKABLE_SEED` replays one.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::{Response, Status};
use common::random_text::{drop_letter, replace_token, tokens, Rng, CJK, WORDS};
use common::Host;
use serde_json::json;

const PROSE: &[&str] = &[
    "the",
    "river",
    "café",
    "naïve",
    "résumé",
    "quietly",
    "north",
    "garden",
    "letters",
    "morning",
    "station",
    "window",
    "“quoted”",
    "it’s",
    "harbour",
    "across",
    "under",
    "slowly",
];

/// The kinds of document.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Yaml,
    Code,
    /// Paragraphs hard-wrapped at about 60 to 72 columns.
    Wrapped,
    /// A paragraph a line.
    OneLine,
    Cjk,
    /// One line of JSON whose strings hold escapes (`\"`, `\n`, `\\`).
    Json,
}

fn sentence(r: &mut Rng, words: usize) -> String {
    (0..words).map(|_| r.pick(PROSE)).collect::<Vec<_>>().join(" ")
}

fn document(r: &mut Rng) -> (Kind, String) {
    match r.below(6) {
        0 => {
            let mut d = String::new();
            for _ in 0..2 + r.below(3) {
                let key = r.pick(WORDS);
                d.push_str(&format!(
                    "{key}:\n  host: {}.local\n  port: {}\n  timeout: {}\n  name: \"{} {}\"\n",
                    r.pick(WORDS),
                    r.num(),
                    r.num(),
                    r.pick(PROSE),
                    r.pick(PROSE)
                ));
            }
            (Kind::Yaml, d)
        }
        1 => {
            let mut d = String::new();
            for _ in 0..2 + r.below(2) {
                let (f, a, b) = (r.pick(WORDS), r.pick(WORDS), r.pick(WORDS));
                d.push_str(&format!(
                    "function {f}_{}({a}, ...rest) {{\n    const {b} = {};\n    if ({a} > {}) {{\n        log(\"{} {}\\n\");\n        return {b} * {};\n    }}\n    return {a};\n}}\n\n",
                    r.below(100),
                    r.num(),
                    r.num(),
                    r.pick(WORDS),
                    r.pick(WORDS),
                    r.num()
                ));
            }
            (Kind::Code, d)
        }
        2 | 3 => {
            let wrapped = r.below(2) == 0;
            let width = 60 + r.below(13);
            let mut d = String::from("# Notes\n\n");
            for _ in 0..2 + r.below(2) {
                let words = 10 + r.below(25);
                let text = sentence(r, words) + ".";
                d.push_str(&if wrapped { wrap(&text, width) } else { text });
                d.push_str("\n\n");
            }
            (if wrapped { Kind::Wrapped } else { Kind::OneLine }, d)
        }
        4 => {
            let mut d = String::new();
            for _ in 0..3 + r.below(4) {
                d.push_str(&format!("{}{}为{}。\n", r.pick(CJK), r.pick(CJK), r.num()));
            }
            (Kind::Cjk, d)
        }
        _ => {
            let mut fields = Vec::new();
            for i in 0..2 + r.below(3) {
                fields.push(match r.below(3) {
                    0 => format!(
                        "\"{}\":\"{} said \\\"{}\\\"\\n{} {}\"",
                        r.pick(WORDS),
                        r.pick(PROSE),
                        r.pick(WORDS),
                        r.pick(PROSE),
                        r.pick(PROSE)
                    ),
                    1 => format!("\"path{i}\":\"C:\\\\{}\\\\{}\"", r.pick(WORDS), r.pick(WORDS)),
                    _ => format!("\"{}\":{}", r.pick(WORDS), r.num()),
                });
            }
            (Kind::Json, format!("{{{}}}\n", fields.join(",")))
        }
    }
}

/// `text` wrapped at `width` columns, breaking between words.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for w in text.split(' ') {
        let n = w.chars().count();
        if line > 0 && line + 1 + n > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(w);
        line += n;
    }
    out
}

/// The intended edit: one token of `old` (whole lines of the document, a whole paragraph of
/// prose, a field of JSON) replaced.
struct Edit {
    old: String,
    new: String,
    token: String,
    nth: usize,
    with: String,
}

fn edit(r: &mut Rng, kind: Kind, doc: &str) -> Option<Edit> {
    let old = match kind {
        Kind::Wrapped | Kind::OneLine => {
            let paragraphs: Vec<&str> = doc.split("\n\n").filter(|p| !p.starts_with('#') && !p.trim().is_empty()).collect();
            paragraphs[r.below(paragraphs.len())].trim_end().to_string()
        }
        Kind::Json => {
            let body = doc.trim_end().trim_start_matches('{').trim_end_matches('}');
            // Fields split at `,"` (no string here holds one).
            let fields: Vec<&str> = body.split(",\"").collect();
            let i = r.below(fields.len());
            if i == 0 {
                fields[0].to_string()
            } else {
                format!("\"{}", fields[i])
            }
        }
        _ => {
            let lines: Vec<&str> = doc.lines().collect();
            let first = r.below(lines.len());
            let count = 1 + r.below(3.min(lines.len() - first));
            lines[first..first + count].join("\n")
        }
    };
    if old.trim().is_empty() {
        return None;
    }
    // Words of the vocabularies and numbers only: not `nthen` of an escaped `\nthen`.
    let known = |t: &str| {
        t.chars().all(|c| c.is_ascii_digit())
            || WORDS.contains(&t)
            || PROSE.iter().any(|p| p.trim_matches(['“', '”']) == t)
            || CJK.iter().any(|w| t.contains(w))
    };
    let toks: Vec<(usize, &str)> = tokens(&old).into_iter().filter(|(_, t)| known(t)).collect();
    let (at, token) = toks.get(r.below(toks.len())).map(|&(at, t)| (at, t.to_string()))?;
    let nth = tokens(&old).iter().filter(|(a, t)| *a < at && *t == token).count();
    let with =
        if token.chars().all(|c| c.is_ascii_digit()) { format!("{}", token.parse::<u64>().ok()? + 7) } else { format!("{token}Next") };
    let new = format!("{}{with}{}", &old[..at], &old[at + token.len()..]);
    Some(Edit { old, new, token, nth, with })
}

/// JSON's escapes read as the characters.
fn decoded(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

/// What the model sends: old_text perturbed one way, and new_text made from it by the same
/// token change (`sent`: the token as the model remembers it). `None` when the perturbation
/// does not apply to this edit.
fn perturb(r: &mut Rng, kind: Kind, e: &Edit) -> Option<(String, String, &'static str, String)> {
    let (mut token, mut nth) = (e.token.clone(), e.nth);
    let family = match (kind, r.below(10)) {
        (_, 0) => "exact",
        (Kind::Json, _) => ["escapes decoded", "escapes doubled"][r.below(2)],
        (Kind::OneLine, n) if n < 5 => "hard-wrapped",
        (Kind::Wrapped, n) if n < 5 => "one line",
        (_, 1) => "drift elsewhere",
        (_, 2) => "token drift",
        (_, 3) => "whitespace",
        (_, 4) => "one line",
        (_, 5 | 6) => "normalization",
        (_, 7) => "look-alikes",
        _ => "indentation",
    };
    let old = match family {
        "exact" => e.old.clone(),
        "escapes decoded" => decoded(&e.old),
        "escapes doubled" => e.old.replace('\\', "\\\\"),
        "hard-wrapped" => wrap(&e.old, 30 + r.below(40)),
        "one line" => e.old.replace('\n', " "),
        "drift elsewhere" => drop_letter(r, &e.old, &e.token)?,
        "token drift" => {
            token = format!("{}{}", e.token, if e.token.chars().all(|c| c.is_ascii_digit()) { "0" } else { "s" });
            let drifted = replace_token(&e.old, &e.token, e.nth, &token)?;
            let &(at, _) = tokens(&e.old).iter().filter(|(_, t)| *t == e.token).nth(e.nth)?;
            nth = tokens(&drifted).iter().filter(|(a, t)| *a < at && *t == token).count();
            drifted
        }
        "whitespace" => {
            let spaces: Vec<usize> = e.old.match_indices(' ').map(|(i, _)| i).collect();
            let &at = spaces.get(r.below(spaces.len()))?;
            format!("{}  {}", &e.old[..at], &e.old[at..])
        }
        "normalization" => e
            .old
            .chars()
            .flat_map(|c| match c {
                'é' => vec!['e', '\u{301}'],
                'ï' => vec!['i', '\u{308}'],
                c => vec![c],
            })
            .collect(),
        "look-alikes" => e.old.replace(['“', '”'], "\"").replace('’', "'"),
        _ => e.old.lines().map(str::trim_start).collect::<Vec<_>>().join("\n"),
    };
    if old == e.old && family != "exact" {
        return None;
    }
    // Escapes change what this generator's tokens are (`\nacross` is one token, a line break
    // and `across` two): the changed token must be the only one of its text in both forms,
    // or new_text would change another `across` than the intended one.
    let once = |t: &str| tokens(t).iter().filter(|(_, x)| *x == token).count() == 1;
    if family.starts_with("escapes") && !(once(&e.old) && once(&old)) {
        return None;
    }
    // new_text: the same token change on what the model sent, in its form (a hard-wrapped
    // old_text gives a new_text wrapped where it was).
    let new = replace_token(&old, &token, nth, &e.with)?;
    Some((old, new, family, token))
}

fn call(doc: &str, old: &str, new: &str) -> (Host, Response) {
    let mut h = Host::new(&[("doc.txt", doc)]);
    let r = h.call("memo_replace", json!({"old_text": old, "new_text": new}));
    (h, r)
}

/// Whether the offer said the candidate's pick is refused (and, in its summary, why).
fn announced(c: &agentpad::response::Candidate, offer: &Response) -> bool {
    c.pick_refused && offer.summary.contains(&format!("andidate {} (line {})", c.id, c.line))
}

/// What the run saw: candidates picked, of them offered as refused, and per family the cases
/// and how many landed the intended result within two calls (the call, or a pick).
#[derive(Default)]
struct Seen {
    offers: usize,
    refused: usize,
    families: std::collections::BTreeMap<&'static str, (usize, usize)>,
}

fn check(seed: u64, seen: &mut Seen) -> Result<(), String> {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let (kind, doc) = document(&mut r);
    let Some(e) = edit(&mut r, kind, &doc) else {
        seen.count("no edit", false);
        return Ok(());
    };
    let Some(at) = doc.find(e.old.as_str()) else {
        seen.count("no edit", false);
        return Ok(());
    };
    if doc.matches(e.old.as_str()).count() > 1 {
        seen.count("repeated text", false);
        return Ok(());
    }
    let intended = format!("{}{}{}", &doc[..at], e.new, &doc[at + e.old.len()..]);
    let Some((old, new, family, sent)) = perturb(&mut r, kind, &e) else {
        seen.count("not applicable", false);
        return Ok(());
    };
    let fail = |what: &str, got: &str| {
        format!("seed {seed} ({family}, {kind:?}): {what}\nold_text {old:?}\nnew_text {new:?}\ngot      {got:?}\nintended {intended:?}\ndoc      {doc:?}")
    };
    let (h, first) = call(&doc, &old, &new);
    let draft = h.ws.draft(None).unwrap_or_default();
    if draft != doc && draft != intended {
        return Err(fail(&format!("the call ({:?}) staged a wrong text", first.status), &draft));
    }
    // The intended change made at another place, and nothing else.
    let elsewhere = |d: &str| {
        [e.token.as_str(), sent.as_str()]
            .iter()
            .any(|t| (0..tokens(&doc).len()).any(|n| replace_token(&doc, t, n, &e.with).as_deref() == Some(d)))
    };
    let mut landed = draft == intended;
    for c in first.candidates.iter().filter(|c| !c.stale) {
        seen.offers += 1;
        let (mut h, _) = call(&doc, &old, &new);
        let picked = h.call("memo_replace_selection", json!({"selection_id": c.id}));
        let d = h.ws.draft(None).unwrap_or_default();
        let what = format!("a pick of {}{} ({:?})", c.id, if c.recommended { " (recommended)" } else { "" }, picked.status);
        if c.pick_refused {
            seen.refused += 1;
        }
        landed |= picked.status == Status::Success && d == intended;
        match picked.status {
            _ if c.pick_refused && picked.status != Status::StaleReference => {
                return Err(fail(&format!("{what}: the offer said it is refused\n{}", picked.markdown), &d))
            }
            Status::Success if d == intended => {}
            Status::Success if !c.recommended && elsewhere(&d) => {}
            Status::Success => return Err(fail(&format!("{what} staged a wrong text\n{}", picked.markdown), &d)),
            Status::NoOp if d == doc => {}
            Status::StaleReference if announced(c, &first) && !c.recommended && d == doc => {}
            _ => {
                return Err(fail(
                    &format!("{what} of an offered candidate staged nothing\n{}\n-- the offer:\n{}", picked.markdown, first.markdown),
                    &d,
                ))
            }
        }
    }
    seen.count(family, landed);
    Ok(())
}

impl Seen {
    fn count(&mut self, family: &'static str, landed: bool) {
        let f = self.families.entry(family).or_default();
        f.0 += 1;
        f.1 += usize::from(landed);
    }
}

/// What one call and, when it offers candidates, a pick of A make of `doc`: the draft after
/// the call that staged, or the call's answer when nothing was staged by either.
fn lands(doc: &str, old: &str, new: &str) -> Result<String, String> {
    let (mut h, r) = call(doc, old, new);
    if r.status == Status::Success {
        return Ok(h.ws.draft(None).unwrap_or_default());
    }
    if r.candidates.is_empty() {
        return Err(r.markdown);
    }
    let picked = h.call("memo_replace_selection", json!({"selection_id": "A"}));
    match picked.status {
        Status::Success => Ok(h.ws.draft(None).unwrap_or_default()),
        _ => Err(format!("{}\n-- the offer:\n{}", picked.markdown, r.markdown)),
    }
}

#[test]
fn a_paragraph_sent_as_one_line_lands_in_the_document_s_line_breaks() {
    // Hard-wrapped at 72 columns; the word changed ends a line of the document.
    let doc = "# Notes\n\nThe harbour wakes before the station does, and the letters of the morning\nwait under the window until somebody carries them across the square.\n\nEnd.\n";
    let old = "The harbour wakes before the station does, and the letters of the morning wait under the window until somebody carries them across the square.";
    for (from, to) in [("morning", "evening"), ("wait", "lie"), ("harbour", "port")] {
        let got = lands(doc, old, &old.replace(from, to)).unwrap_or_else(|r| panic!("{from} -> {to}: nothing landed\n{r}"));
        assert_eq!(got, doc.replace(from, to), "{from} -> {to}: not in the document's line breaks");
    }
}

#[test]
fn a_one_line_paragraph_sent_hard_wrapped_lands_without_the_model_s_breaks() {
    let doc = "# Notes\n\nThe harbour wakes before the station does, and the letters of the morning wait under the window until somebody carries them across the square.\n\nEnd.\n";
    let old = "The harbour wakes before the station does, and the letters of the morning\nwait under the window until somebody carries them across the square.";
    for (from, to) in [("morning", "evening"), ("wait", "lie"), ("square", "street")] {
        let got = lands(doc, old, &old.replace(from, to)).unwrap_or_else(|r| panic!("{from} -> {to}: nothing landed\n{r}"));
        assert_eq!(got, doc.replace(from, to), "{from} -> {to}: the model's line breaks were written");
    }
}

#[test]
fn a_json_string_sent_decoded_or_doubled_lands_with_the_document_s_escapes() {
    let doc = "{\"msg\":\"He said \\\"hi\\\"\\nbye\",\"path\":\"C:\\\\tmp\"}\n";
    // (old_text, new_text, the document afterwards): decoded (real quote, line break,
    // backslash), then doubled (`\\\"`).
    let cases = [
        ("\"msg\":\"He said \"hi\"\nbye\"", "\"msg\":\"He said \"hello\"\nbye\"", doc.replace("hi", "hello")),
        ("He said \"hi\"\nbye", "He said \"hi\"\nbye\nnow", doc.replace("bye", "bye\\nnow")),
        ("\"path\":\"C:\\tmp\"", "\"path\":\"D:\\tmp\\x\"", doc.replace("C:\\\\tmp", "D:\\\\tmp\\\\x")),
        ("He said \\\\\\\"hi\\\\\\\"\\\\nbye", "He said \\\\\\\"hello\\\\\\\"\\\\nbye", doc.replace("hi", "hello")),
    ];
    for (old, new, want) in cases {
        let got = lands(doc, old, new).unwrap_or_else(|r| panic!("{old:?}: nothing landed\n{r}"));
        assert_eq!(got, want, "{old:?} -> {new:?}");
        assert!(serde_json::from_str::<serde_json::Value>(&got).is_ok(), "not JSON: {got}");
    }
}

#[test]
fn every_offered_candidate_is_pickable_and_lands_in_the_document_s_form() {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let (from, cases) = match env("OFFERED_PICKABLE_SEED") {
        Some(seed) => (seed, 1),
        None => (0, env("OFFERED_PICKABLE_CASES").unwrap_or(1_200)),
    };
    let mut seen = Seen::default();
    let mut failures = Vec::new();
    for seed in from..from + cases {
        if let Err(e) = check(seed, &mut seen) {
            failures.push(e);
        }
    }
    let families = &seen.families;
    for f in &failures {
        println!("FAIL {}", f.lines().next().unwrap_or(""));
    }
    println!(
        "offered_pickable: {cases} cases, {} candidates picked ({} offered as refused); by family (cases, landed within two calls): {families:?}",
        seen.offers, seen.refused
    );
    if cases >= 1_000 {
        for f in [
            "exact",
            "escapes decoded",
            "escapes doubled",
            "hard-wrapped",
            "one line",
            "drift elsewhere",
            "token drift",
            "whitespace",
            "normalization",
            "look-alikes",
            "indentation",
        ] {
            assert!(families.get(f).map_or(0, |c| c.0) > 0, "family {f} never ran: {families:?}");
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures in {cases} cases; the first:\n{}",
        failures.len(),
        failures.first().map_or("", String::as_str)
    );
}
