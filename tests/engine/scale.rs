//! Scale and integrity on the Rust side: the document size limit (refused at `open`, on an
//! external change, on a reload and by an edit that would grow a document past it — each
//! changing nothing) and text integrity (CRLF, CR, BOM, tabs, NUL, emoji, CJK and combining
//! marks come back byte-exact after an edit elsewhere and a commit). The 50 MB document and the
//! leak test run through the npm package (www/test/scale.test.mjs).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use agentpad::{Config, Status, Workspace, WorkspaceError, MAX_DOCUMENT_BYTES};
use common::Host;
use proptest::prelude::*;
use serde_json::json;

const MIB: usize = 1024 * 1024;

#[test]
fn the_limit_is_128_mib() {
    assert_eq!(MAX_DOCUMENT_BYTES, 128 * MIB);
}

#[test]
fn open_refuses_a_document_over_the_limit_naming_path_size_and_limit() {
    let mut ws = Workspace::new(Config::default());
    ws.open("small.txt", "kept\n", "v1").unwrap();
    let big = "a".repeat(MAX_DOCUMENT_BYTES + 1);
    let err = ws.open("big.log", &big, "v1").unwrap_err();
    assert_eq!(err, WorkspaceError::TooLarge { path: "big.log".into(), bytes: MAX_DOCUMENT_BYTES + 1, limit: MAX_DOCUMENT_BYTES });
    let msg = err.to_string();
    for part in ["`big.log`", "134217729 bytes", "limit of 134217728 bytes", "128 MiB", "split it"] {
        assert!(msg.contains(part), "{part:?} missing from {msg:?}");
    }
    // Nothing changed: the other document is still the only one.
    assert_eq!(ws.paths(), ["small.txt".to_string()]);
    assert_eq!(ws.text(None).unwrap(), "kept\n");
    // Re-opening an open document with a text over the limit keeps the old text.
    assert!(matches!(ws.open("small.txt", &big, "v2"), Err(WorkspaceError::TooLarge { .. })));
    assert_eq!(ws.text(Some("small.txt")).unwrap(), "kept\n");
    assert_eq!(ws.version("small.txt"), Some("v1"));
}

#[test]
fn the_limit_counts_the_storage_form_crlf_and_bom_included() {
    // Under the limit once normalised (CRLF → LF), over it as storage holds it.
    let line = format!("{}\r\n", "x".repeat(1022)); // 1024 bytes, 1023 normalised
    let mut raw = line.repeat(MAX_DOCUMENT_BYTES / 1024);
    assert_eq!(raw.len(), MAX_DOCUMENT_BYTES);
    raw.insert(0, '\u{FEFF}');
    let mut ws = Workspace::new(Config::default());
    assert_eq!(
        ws.open("crlf.txt", &raw, "v1"),
        Err(WorkspaceError::TooLarge { path: "crlf.txt".into(), bytes: MAX_DOCUMENT_BYTES + 3, limit: MAX_DOCUMENT_BYTES })
    );
    // Multi-byte text counts its UTF-8 bytes, not its chars.
    let cjk = "中".repeat(MAX_DOCUMENT_BYTES / 3 + 1); // 44.7 M chars, 128 MiB + 2 bytes
    assert!(matches!(ws.open("cjk.txt", &cjk, "v1"), Err(WorkspaceError::TooLarge { bytes, .. }) if bytes == cjk.len()));
    assert!(ws.paths().is_empty());
}

#[test]
fn an_external_change_over_the_limit_is_not_loaded_and_is_reported() {
    let mut host = Host::new(&[("notes.md", "alpha\nbeta\n")]);
    let r = host.call("memo_replace", json!({ "old_text": "beta", "new_text": "BETA" }));
    assert_eq!(r.status, Status::Success);
    let draft = host.ws.draft(None).unwrap();
    let big = "b".repeat(MAX_DOCUMENT_BYTES + 10);
    assert!(host.external_write("notes.md", &big), "the workspace takes notice");
    assert_eq!(host.ws.text(None).unwrap(), "alpha\nbeta\n");
    assert_eq!(host.ws.draft(None).unwrap(), draft);
    assert_eq!(host.ws.version("notes.md"), Some("v1"));
    // The next response says so, with the size and the limit.
    let r = host.call("memo_preview", json!({}));
    assert!(r.summary.contains("notes.md changed in storage (version v2) to 134217738 bytes"), "{}", r.summary);
    assert!(r.summary.contains("over the limit of 134217728 bytes"), "{}", r.summary);
    assert!(r.summary.contains("not loaded"), "{}", r.summary);
    // Saving over the bigger text is refused by storage (its version moved on): no text lost.
    let r = host.call("memo_commit", json!({ "summary": "s" }));
    assert_eq!(r.status, Status::PersistFailure, "{}", r.markdown);
    assert_eq!(host.stored("notes.md").len(), big.len());
    assert_eq!(host.ws.draft(None).unwrap(), draft);
    // Not open: nothing to notice.
    assert!(!host.ws.storage_changed("other.md", Some(&big), Some("v9")));
}

#[test]
fn a_reload_over_the_limit_is_refused_and_changes_nothing() {
    let mut host = Host::new(&[("notes.md", "alpha\nbeta\n")]);
    // Storage changes behind the workspace's back, unnoticed; memo_refresh reads it.
    host.files.insert("notes.md".into(), ("c".repeat(MAX_DOCUMENT_BYTES + 1), 2));
    let r = host.call("memo_refresh", json!({}));
    assert_eq!(r.status, Status::Exception, "{}", r.markdown);
    assert!(r.summary.contains("`notes.md` is 134217729 bytes, over the limit of 134217728 bytes"), "{}", r.summary);
    assert_eq!(host.ws.text(None).unwrap(), "alpha\nbeta\n");
    assert_eq!(host.ws.version("notes.md"), Some("v1"));
}

#[test]
fn an_edit_that_would_grow_a_document_past_the_limit_is_refused() {
    // A BOM counts 3 bytes (LF lines: CRLF would make this debug-build test normalise 128 MiB
    // char by char; `storage_len_counts_crlf_and_bom` checks the CRLF count).
    let line = format!("{}\n", "y".repeat(1023));
    let mut raw = String::from('\u{FEFF}');
    raw.push_str(&line.repeat(MAX_DOCUMENT_BYTES / 1024 - 1));
    raw.push_str("tail: 1\n");
    let room = MAX_DOCUMENT_BYTES - raw.len();
    let mut host = Host::new(&[("big.txt", &raw)]);
    // Exactly up to the limit is fine.
    let r = host.call("memo_append", json!({ "text": "x\n".repeat(room / 2) + &"z".repeat(room % 2) }));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let draft = host.ws.draft(None).unwrap();
    let fingerprint = r.fingerprint.clone();
    // One more byte is refused, with the sizes and the limit, and nothing changes.
    for (tool, args) in [
        ("memo_append", json!({ "text": "!" })),
        ("memo_replace", json!({ "old_text": "tail: 1", "new_text": "tail: 10" })),
        ("memo_replace", json!({ "old_text": "tail: 1", "new_text": "tail:\n12", "preview_only": true })),
    ] {
        let r = host.call(tool, args.clone());
        assert_eq!(r.status, Status::InvalidArguments, "{tool} {args}: {}", r.markdown);
        assert!(
            r.summary.contains(&format!("would make big.txt {} bytes (it is {MAX_DOCUMENT_BYTES} now)", MAX_DOCUMENT_BYTES + 1)),
            "{}",
            r.summary
        );
        assert!(r.summary.contains("over the limit of 134217728 bytes (128 MiB)"), "{}", r.summary);
        assert!(r.guidance.as_deref().unwrap_or("").contains("smaller new_text"), "{:?}", r.guidance);
        assert_eq!(r.pending_changes.len(), 1);
        assert_eq!(host.ws.draft(None).unwrap(), draft, "{tool}: the draft is unchanged");
    }
    // An edit of the same size still goes through.
    let r = host.call("memo_replace", json!({ "old_text": "tail: 1", "new_text": "tail: 2", "expected_fingerprint": fingerprint }));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.pending_changes.len(), 2);
}

#[test]
fn storage_len_counts_crlf_and_bom() {
    use agentpad::text::Text;
    for raw in ["", "a", "a\r\nb\r\n", "\u{FEFF}a\r\n中\r\n", "\u{FEFF}x\ry\r", "x\ny", "\r\n\r\n\r\n"] {
        let text = Text::from_storage(raw);
        assert_eq!(text.storage_len_of(text.rope()), raw.len(), "{raw:?}");
        let grown = ropey::Rope::from_str(&(agentpad::text::rope_string(text.rope()) + "\n😀\n"));
        assert_eq!(text.storage_len_of(&grown), text.with_rope(grown.clone()).to_storage().len(), "{raw:?}");
    }
}

// ---- text integrity ---------------------------------------------------------------------------

/// Pieces a line is made of: everything a byte-exact round trip could trip over.
const PIECES: &[&str] = &[
    "plain words",
    " ",
    "\t",
    "\t\tindented",
    "\0",
    "nul\0inside",
    "😀",
    "👩\u{200D}💻", // a ZWJ sequence
    "🇯🇵",           // a flag: two regional indicators
    "中文字符",
    "日本語テキスト",
    "한국어",
    "e\u{301}",        // e + combining acute
    "a\u{308}\u{332}", // two combining marks
    "\u{FEFF}",        // a BOM in the middle of a line
    "\u{200B}",        // zero-width space
    "\u{A0}",          // no-break space
    "\u{2028}",        // line separator: not a line break here
    "trailing   ",
    "é", // precomposed
];

// Bracketed: a word next to it in a piece is not cut by the edit (one exact match cutting a word
// is a candidate to confirm, docs/architecture.md#matching).
const MARKER: &str = "⟦EDIT_HERE_7f3a⟧";

fn eol_of(style: usize) -> &'static str {
    ["\n", "\r\n", "\r"][style]
}

/// The raw document, and the same with the marker replaced by `new_text` and `appended` added,
/// line breaks in the document's style.
fn build(
    lines: &[Vec<usize>],
    marker_at: usize,
    style: usize,
    bom: bool,
    final_eol: bool,
    new_text: &str,
    appended: &str,
) -> (String, String) {
    let eol = eol_of(style);
    let mut body: Vec<String> = lines.iter().map(|l| l.iter().map(|&i| PIECES[i]).collect::<String>()).collect();
    let at = marker_at % (body.len() + 1);
    body.insert(at, format!("{}{MARKER}{}", PIECES[at % PIECES.len()], PIECES[(at + 3) % PIECES.len()]));
    let mut raw = String::new();
    if bom {
        raw.push('\u{FEFF}');
    }
    raw.push_str(&body.join(eol));
    if final_eol {
        raw.push_str(eol);
    }
    // A document without a line break has no style to keep: new breaks are LF.
    let eol = if raw.contains(['\r', '\n']) { eol } else { "\n" };
    let mut expected = raw.replacen(MARKER, &new_text.replace('\n', eol), 1);
    expected.push_str(&appended.replace('\n', eol));
    (raw, expected)
}

/// Opens `raw`, replaces the marker, appends, commits; returns what storage holds and the draft.
fn round_trip(raw: &str, new_text: &str, appended: &str) -> (String, String) {
    let mut host = Host::new(&[("doc.txt", raw)]);
    let r = host.call("memo_replace", json!({ "old_text": MARKER, "new_text": new_text }));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(r.match_quality.as_deref(), Some("exact"));
    if !appended.is_empty() {
        let r = host.call("memo_append", json!({ "text": appended }));
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
    }
    let r = host.call("memo_commit", json!({ "summary": "edit elsewhere" }));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    (host.stored("doc.txt").to_string(), host.ws.text(None).unwrap())
}

/// LF-normalised, without the leading BOM: what `text()` returns.
fn normalised(raw: &str) -> String {
    raw.strip_prefix('\u{FEFF}').unwrap_or(raw).replace("\r\n", "\n").replace('\r', "\n")
}

#[test]
fn every_piece_round_trips_in_every_line_ending_style_with_and_without_bom() {
    let lines: Vec<Vec<usize>> = (0..PIECES.len()).map(|i| vec![i, (i * 7) % PIECES.len(), i]).collect();
    for style in 0..3 {
        for bom in [false, true] {
            for final_eol in [false, true] {
                let (raw, expected) = build(&lines, 5, style, bom, final_eol, "new\tline\nwith 中文 and 😀\0", "\nappended e\u{301}\n");
                let (stored, text) = round_trip(&raw, "new\tline\nwith 中文 and 😀\0", "\nappended e\u{301}\n");
                assert!(
                    stored.as_bytes() == expected.as_bytes(),
                    "style {style} bom {bom} final {final_eol}:\n{stored:?}\n!=\n{expected:?}"
                );
                assert_eq!(text, normalised(&expected));
            }
        }
    }
}

#[test]
fn an_untouched_document_is_written_back_byte_exact_beside_an_edited_one() {
    // A two-document commit writes only the edited one; the other stays as storage had it.
    let crlf = "\u{FEFF}a\tb\r\n中文\r\ne\u{301}\0\r\n";
    let mut host = Host::new(&[("a.txt", crlf), ("b.txt", "x\ry\r")]);
    let r = host.call("memo_replace", json!({ "path": "b.txt", "old_text": "x", "new_text": "X\nX" }));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    let r = host.call("memo_commit", json!({ "summary": "b" }));
    assert_eq!(r.status, Status::Success, "{}", r.markdown);
    assert_eq!(host.stored("b.txt"), "X\rX\ry\r");
    assert_eq!(host.stored("a.txt"), crlf);
    assert_eq!(host.writes.len(), 1);
}

fn new_text_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof![(0..PIECES.len()).prop_map(|i| PIECES[i].to_string()), Just("\n".to_string())], 0..6)
        .prop_map(|v| v.concat())
        .prop_filter("not the marker itself", |s| !s.contains(MARKER))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn documents_of_tricky_pieces_round_trip_byte_exact(
        lines in prop::collection::vec(prop::collection::vec(0..PIECES.len(), 0..5), 0..12),
        marker_at in 0usize..20,
        style in 0usize..3,
        bom in any::<bool>(),
        final_eol in any::<bool>(),
        new_text in new_text_strategy(),
        append in any::<bool>(),
    ) {
        // An empty replacement equal to the marker's removal is fine; a no-op is not possible
        // (new_text never contains the marker).
        let appended = if append { "\nappended 😀\t中\n" } else { "" };
        let (raw, expected) = build(&lines, marker_at, style, bom, final_eol, &new_text, appended);
        let (stored, text) = round_trip(&raw, &new_text, appended);
        prop_assert!(stored.as_bytes() == expected.as_bytes(), "raw {:?}\nstored {:?}\nexpected {:?}", raw, stored, expected);
        prop_assert_eq!(text, normalised(&expected));
    }
}
