//! `memo_replace_span`: start and end markers (drawn from the document, so they match),
//! keep_start / keep_end, search_after, match_id and preview_only on one document, then
//! sometimes a choice of candidate and a commit.
//!
//! Invariants: no panic; every response validates; a preview changes nothing; when the start
//! marker occurs exactly (and only once) after the anchor and the end marker exactly after it,
//! a staged edit replaces exactly the region the markers name (docs/tools.md#memo_replace_span: from the start of
//! old_span_start to the end of the first old_span_end after it, markers kept on request).

use agentpad::text::normalize_line_breaks;
use agentpad::{CallContext, Config, PersistRequest, PersistResult, Response, Status, Storage, StorageError, Stored, Workspace};
use arbitrary::{Result, Unstructured};
use serde_json::{json, Map, Value};

use super::gen;
use super::tool_calls::check_response;

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = run_inner(&mut u);
}

/// A storage that holds nothing and takes every write (reported saved as `s<i>`, i the write's
/// index in its step): these harnesses check edits, not storage.
struct Sink;

impl Storage for Sink {
    fn load(&mut self, _path: &str) -> std::result::Result<Option<Stored>, StorageError> {
        Ok(None)
    }

    fn save(&mut self, _request: PersistRequest) -> std::result::Result<String, StorageError> {
        Ok("s0".into())
    }

    fn persist(&mut self, requests: Vec<PersistRequest>) -> Vec<PersistResult> {
        requests.into_iter().enumerate().map(|(i, q)| PersistResult::Saved { path: q.path, version: format!("s{i}") }).collect()
    }
}

/// Runs one call to its response (`Workspace::run`) with a storage that takes every write and
/// holds nothing to load.
pub fn call(ws: &mut Workspace, name: &str, args: &Value) -> Response {
    let r = ws.run(name, args, &CallContext::default(), &mut Sink);
    check_response(&r);
    r
}

fn run_inner(u: &mut Unstructured) -> Result<()> {
    let doc = gen::document(u)?;
    let mut ws = Workspace::new(Config::default());
    ws.open("doc.md", &doc, "v1").expect("open a small document");
    let text = ws.text(None).expect("the default document");

    let start = gen::needle(u, &text)?;
    let after_start: String = {
        // An end marker from after the start marker's first occurrence, mostly.
        match text.find(&start) {
            Some(b) if !start.is_empty() && u.ratio(3, 4)? => text[b + start.len()..].to_string(),
            _ => text.clone(),
        }
    };
    let end = gen::needle(u, &after_start)?;
    let new_text = match u.int_in_range(0..=3u8)? {
        0 => format!("{start}NEW{end}"),
        1 => gen::letters(u, 8)?,
        2 => String::new(),
        _ => gen::text(u, 20)?,
    };
    let keep_start: bool = u.arbitrary()?;
    let keep_end: bool = u.arbitrary()?;
    let preview_only = u.ratio(1, 5)?;
    let mut args = Map::new();
    args.insert("old_span_start".into(), json!(start));
    args.insert("old_span_end".into(), json!(end));
    args.insert("new_text".into(), json!(new_text));
    if u.arbitrary()? {
        args.insert("keep_start".into(), json!(keep_start));
    }
    if u.arbitrary()? {
        args.insert("keep_end".into(), json!(keep_end));
    }
    let anchor = if u.ratio(1, 4)? { Some(gen::needle(u, &text)?) } else { None };
    if let Some(a) = &anchor {
        args.insert("search_after".into(), json!(a));
    }
    if u.ratio(1, 4)? {
        args.insert("match_id".into(), json!(((b'A' + u.int_in_range(0..=5u8)?) as char).to_string()));
    }
    if preview_only {
        args.insert("preview_only".into(), json!(true));
    }
    let keep_start = keep_start && args.contains_key("keep_start");
    let keep_end = keep_end && args.contains_key("keep_end");
    let has_match_id = args.contains_key("match_id");

    let r = call(&mut ws, "memo_replace_span", &Value::Object(args));
    let draft = ws.draft(None).expect("the default document");
    if preview_only {
        assert_eq!(draft, text, "preview_only changed the draft ({:?})", r.status);
    }
    if r.status == Status::Success && !preview_only && !has_match_id && !start.is_empty() && !end.is_empty() {
        if let Some(expected) = expected_span_edit(&text, &start, &end, anchor.as_deref(), keep_start, keep_end, &new_text) {
            assert_eq!(
                draft, expected,
                "replace_span staged the wrong region (start {start:?}, end {end:?}, keep {keep_start}/{keep_end}, after {anchor:?})"
            );
        }
    }

    // Then: choose a candidate, preview, commit or revert.
    for _ in 0..u.int_in_range(0..=3u8)? {
        let (name, args) = match u.int_in_range(0..=4u8)? {
            0 => ("memo_replace_selection", json!({ "selection_id": ((b'A' + u.int_in_range(0..=5u8)?) as char).to_string() })),
            1 => ("memo_preview", json!({ "format": *u.choose(&["compact", "full", "stats", "diff"])? })),
            2 => ("memo_commit", json!({ "summary": "span edit" })),
            3 => ("memo_revert", json!({ "reason": "undo" })),
            _ => (
                "memo_replace_span",
                json!({ "old_span_start": gen::needle(u, &draft)?, "old_span_end": gen::needle(u, &draft)?, "new_text": gen::letters(u, 5)?, "keep_start": u.arbitrary::<bool>()?, "keep_end": u.arbitrary::<bool>()? }),
            ),
        };
        let r = call(&mut ws, name, &args);
        if name == "memo_revert" && r.status == Status::Success {
            assert_eq!(ws.draft(None).unwrap(), ws.text(None).unwrap(), "revert left pending changes");
        }
    }
    Ok(())
}

/// The draft a span edit must produce when the markers are unambiguous exact matches: the start
/// marker's only exact occurrence at or after the anchor, and the end marker's first exact
/// occurrence at or after the start marker's end (occurrences as `str::match_indices` counts
/// them). `None` when that is not the case (fuzzy, several candidates, no end).
fn expected_span_edit(
    text: &str,
    start: &str,
    end: &str,
    anchor: Option<&str>,
    keep_start: bool,
    keep_end: bool,
    new_text: &str,
) -> Option<String> {
    // Every text argument arrives LF-normalised, like the document.
    let (start, end, new_text) = (&*normalize_line_breaks(start), &*normalize_line_breaks(end), &*normalize_line_breaks(new_text));
    let anchor = anchor.map(normalize_line_breaks);
    let anchor = anchor.as_deref();
    let from = match anchor {
        None | Some("") => 0,
        Some(a) => text.find(a)? + a.len(),
    };
    let starts: Vec<usize> = text.match_indices(start).map(|(b, _)| b).filter(|&b| b >= from).collect();
    if starts.len() != 1 {
        return None;
    }
    let s = starts[0];
    let s_end = s + start.len();
    let e = text.match_indices(end).map(|(b, _)| b).find(|&b| b >= s_end)?;
    let e_end = e + end.len();
    let a = if keep_start { s_end } else { s };
    let b = if keep_end { e } else { e_end };
    let b = b.max(a);
    Some(format!("{}{}{}", &text[..a], new_text, &text[b..]))
}
