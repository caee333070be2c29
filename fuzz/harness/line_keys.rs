//! Line keys: `LineKey::parse` on arbitrary strings, `LineKey::of` / `matches` / `Display`, and
//! `memo_replace_lines` with real, stale, out-of-range and malformed keys.
//!
//! Invariants: no panic; a parsed key has a line ≥ 1 and prints back to a string that parses to
//! the same key; a key made for a text matches that text; every response validates; a key
//! whose hash does not match its line is never applied; a successful replacement leaves the
//! lines before the start key and after the end key untouched and puts new_text between them.

use agentpad::matching::line_key::LineKey;
use agentpad::text::normalize_line_breaks;
use agentpad::{Config, Status, Workspace};
use arbitrary::{Result, Unstructured};
use serde_json::{json, Map, Value};

use super::gen;
use super::span_markers::call;

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = run_inner(&mut u);
}

fn check_parse(s: &str) {
    if let Ok(k) = LineKey::parse(s) {
        assert!(k.line >= 1, "{s:?} parsed to line 0");
        let shown = k.to_string();
        assert_eq!(LineKey::parse(&shown), Ok(k), "{s:?} -> {k:?} -> {shown:?} does not parse back");
    }
}

fn run_inner(u: &mut Unstructured) -> Result<()> {
    // Parsing arbitrary strings, and keys with junk around them.
    let raw = gen::text(u, 24)?;
    check_parse(&raw);
    let line = u.int_in_range(0..=2000usize)?;
    let k = LineKey::of(line.max(1), &raw);
    assert!(k.matches(&raw), "a key does not match the text it was made for");
    let decorated = format!("{}{k}{}", u.choose(&["", " ", "\t", "  "])?, u.choose(&["", "│", " │", "│ ", "\n", "x"])?);
    check_parse(&decorated);
    check_parse(&format!("{line}#{}", gen::letters(u, 5)?));

    // memo_replace_lines on a document.
    let doc = gen::document(u)?;
    let mut ws = Workspace::new(Config::default());
    ws.open("doc.md", &doc, "v1").expect("open a small document");
    for _ in 0..u.int_in_range(1..=3u8)? {
        let draft = ws.draft(None).expect("the default document");
        let lines: Vec<&str> = draft.split('\n').collect();
        let visible = if lines.len() > 1 && lines.last() == Some(&"") { lines.len() - 1 } else { lines.len() };
        let start = key(u, &lines)?;
        let end = if u.arbitrary()? { Some(key(u, &lines)?) } else { None };
        let new_text = match u.int_in_range(0..=3u8)? {
            0 => String::new(),
            1 => gen::letters(u, 10)?,
            2 => format!("{}\n{}", gen::letters(u, 4)?, gen::letters(u, 4)?),
            _ => gen::text(u, 20)?,
        };
        let mut args = Map::new();
        args.insert("start_key".into(), json!(start));
        if let Some(e) = &end {
            args.insert("end_key".into(), json!(e));
        }
        args.insert("new_text".into(), json!(new_text));
        if u.ratio(1, 6)? {
            args.insert("preview_only".into(), json!(true));
        }
        let preview = args.contains_key("preview_only");
        let r = call(&mut ws, "memo_replace_lines", &Value::Object(args));
        let after = ws.draft(None).expect("the default document");
        if preview {
            assert_eq!(after, draft, "preview_only changed the draft");
        }
        let sk = LineKey::parse(&start);
        let ek = end.as_deref().map(LineKey::parse).unwrap_or(sk.clone());
        let fresh = |k: &LineKey| k.line >= 1 && k.line <= visible && k.matches(lines[k.line - 1]);
        if let (Ok(s), Ok(e)) = (&sk, &ek) {
            if !(fresh(s) && fresh(e)) {
                assert_ne!(r.status, Status::Success, "a stale key ({s} / {e}) was applied");
                assert_eq!(after, draft, "a stale key changed the draft");
            } else if r.status == Status::Success && !preview && !new_text.is_empty() && !new_text.contains('#') && e.line >= s.line {
                // Text arrives LF-normalised, like the document.
                let new_text = normalize_line_breaks(&new_text);
                let prefix: String = lines[..s.line - 1].iter().map(|l| format!("{l}\n")).collect();
                let suffix = lines[e.line..].iter().map(|l| format!("\n{l}")).collect::<String>();
                assert_eq!(after, format!("{prefix}{new_text}{suffix}"), "replace_lines {s}..{e} put the text in the wrong place");
            }
        } else {
            assert_ne!(r.status, Status::Success, "a malformed key was accepted: {start:?} / {end:?}");
        }
        if u.ratio(1, 4)? {
            call(&mut ws, "memo_revert", &json!({ "reason": "again" }));
        }
    }
    Ok(())
}

/// A key for one of `lines`: right, with the wrong hash, past the end, or malformed.
fn key(u: &mut Unstructured, lines: &[&str]) -> Result<String> {
    let i = u.int_in_range(0..=lines.len() - 1)?;
    Ok(match u.int_in_range(0..=7u8)? {
        0..=3 => LineKey::of(i + 1, lines[i]).to_string(),
        4 => format!("  {}│", LineKey::of(i + 1, lines[i])),
        5 => LineKey { line: u.int_in_range(0..=lines.len() + 3)?, hash: u.arbitrary()? }.to_string(),
        6 => format!("{}#{}", u.int_in_range(0..=99usize)?, gen::letters(u, 4)?),
        _ => gen::text(u, 10)?,
    })
}
