//! The Markdown validator (`agentpad::validate`): arbitrary strings, and real responses (every
//! status the workspace renders, both locales, both candidate styles) with a few edits.
//!
//! Invariants: no panic; `validate` is `Ok` exactly when `parse` reports no violation, with the
//! same parsed value; an unedited real response validates.

use std::sync::OnceLock;

use agentpad::validate::{parse, validate};
use agentpad::CandidateStyle;
use agentpad::{Config, Locale, Workspace};
use arbitrary::{Result, Unstructured};
use serde_json::json;

use super::gen;
use super::span_markers::call;

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = run_inner(&mut u);
}

fn check(markdown: &str) {
    let (parsed, violations) = parse(markdown);
    match validate(markdown) {
        Ok(p) => {
            assert!(violations.is_empty(), "validate is Ok but parse reports {violations:?}");
            assert_eq!(p, parsed, "validate and parse read different values");
        }
        Err(v) => {
            assert!(!v.is_empty(), "validate failed without a violation");
            assert_eq!(v, violations, "validate and parse report different violations");
        }
    }
}

fn run_inner(u: &mut Unstructured) -> Result<()> {
    if u.ratio(1, 3)? {
        let s: String = u.arbitrary()?;
        check(&s);
        return Ok(());
    }
    let responses = responses();
    let original = u.choose(responses)?;
    let mut lines: Vec<String> = original.split('\n').map(str::to_string).collect();
    for _ in 0..u.int_in_range(0..=4u8)? {
        let i = u.int_in_range(0..=lines.len().saturating_sub(1))?;
        match u.int_in_range(0..=7u8)? {
            0 => {
                lines.remove(i);
                if lines.is_empty() {
                    lines.push(String::new());
                }
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = u.int_in_range(0..=lines.len() - 1)?;
                lines.swap(i, j);
            }
            3 => lines[i] = gen::mutate(u, &lines[i])?,
            4 => lines.insert(i, gen::text(u, 30)?),
            5 => {
                let cut = u.int_in_range(0..=lines[i].chars().count())?;
                lines[i] = lines[i].chars().take(cut).collect();
            }
            6 => lines[i] = lines[i].replace('|', "\\|"),
            _ => lines[i].push_str(&gen::text(u, 6)?),
        }
    }
    check(&lines.join("\n"));
    Ok(())
}

/// Real responses, rendered once per process.
pub fn responses() -> &'static [String] {
    static CELL: OnceLock<Vec<String>> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut out = Vec::new();
        let doc = "# Config\n\n## db\ntimeout: 30\n\n## api\ntimeout: 30\n\n## cache\ntimeout: 30\nname: \"x\"\n";
        for locale in [Locale::En, Locale::Zh] {
            for style in [CandidateStyle::Table, CandidateStyle::List] {
                let mut ws = Workspace::new(Config { locale, candidate_style: style, ..Config::default() });
                ws.open("doc.md", doc, "v1").expect("open");
                let script = [
                    ("memo_read", json!({ "line_keys": true })),
                    ("memo_replace", json!({ "old_text": "timeout: 30", "new_text": "timeout: 60" })),
                    ("memo_replace_selection", json!({ "selection_id": "B" })),
                    ("memo_preview", json!({ "format": "diff" })),
                    ("memo_replace", json!({ "old_text": "timeout: 99", "new_text": "x" })),
                    ("memo_replace", json!({ "old_text": "name: “x”", "new_text": "name: \"y\"" })),
                    ("memo_begin_task", json!({ "goal": "tune timeouts" })),
                    ("memo_commit", json!({ "summary": "timeouts" })),
                    ("memo_replace", json!({ "old_text": "", "new_text": "" })),
                    ("memo_unknown", json!({})),
                    ("memo_replace_lines", json!({ "start_key": "3#0000", "new_text": "x" })),
                    ("memo_export_session", json!({})),
                    ("memo_revert", json!({ "reason": "none" })),
                ];
                for (name, args) in script {
                    out.push(call(&mut ws, name, &args).markdown);
                }
            }
        }
        out
    })
}
