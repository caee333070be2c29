use serde_json::{json, Value};

use super::*;
use crate::tools::ToolArgs;
use crate::workspace::Config;
use reading::RecallContextArgs;

#[test]
fn names_follow_the_prefix() {
    assert_eq!(Tool::from_name("memo", "memo_replace"), Some(Tool::Replace));
    assert_eq!(Tool::from_name("memory_notebook", "memory_notebook_commit"), Some(Tool::Commit));
    assert_eq!(Tool::from_name("memo", "memoreplace"), None);
    assert_eq!(Tool::from_name("memo", "memo_"), None);
}

#[test]
fn every_verb_names_one_row() {
    for t in Tool::ALL {
        assert_eq!(Tool::from_name("memo", &t.name("memo")), Some(t), "{t:?}");
    }
}

#[test]
fn schema_lists_required_and_forbids_extras() {
    let s = Tool::Replace.input_schema();
    assert_eq!(s["required"], json!(["old_text", "new_text"]));
    assert_eq!(s["additionalProperties"], json!(false));
    assert_eq!(s["properties"]["match_id"]["enum"][25], json!("Z"));
}

#[test]
fn argument_errors_name_the_argument_and_value() {
    let e = parse_call("memo", "memo_replace", &json!({"old_text": 5, "new_text": "x"})).unwrap_err();
    assert_eq!(e.to_string(), "argument `old_text` must be a string, got number 5");
    let e = parse_call("memo", "memo_replace", &json!({"old_text": "a"})).unwrap_err();
    assert_eq!(e.to_string(), "missing required argument `new_text` for memo_replace");
    let e = parse_call("memo", "memo_replace", &json!({"old_text": "a", "new_text": "b", "oldText": 1})).unwrap_err();
    assert!(e.to_string().starts_with("unknown argument `oldText` for memo_replace; its arguments are: old_text, new_text"));
    let e = parse_call("memo", "memo_replace", &json!({"old_text": "a", "new_text": "b", "match_id": "b"})).unwrap_err();
    assert!(e.to_string().contains("`match_id` must be one of \"A\"–\"Z\" (upper case), got string \"b\""));
    let e = parse_call("memo", "memo_read", &json!({"start_line": 0})).unwrap_err();
    assert_eq!(e.to_string(), "argument `start_line` must be at least 1, got 0");
    let e = parse_call("memo", "memo_nope", &json!({})).unwrap_err();
    assert!(e.to_string().starts_with("unknown tool `memo_nope`; the tools are: memo_read, memo_replace"));
    let e = parse_call("memo", "memo_read", &json!([1])).unwrap_err();
    assert_eq!(e.to_string(), "arguments must be a JSON object of named arguments, got array [1]");
    let e = parse_call("memo", "memo_replace_selection", &json!({"selection_id": 27})).unwrap_err();
    assert!(e.to_string().contains("`selection_id` must be one of a letter \"A\"–\"Z\", a number 1–26, got number 27"), "{e}");
    let e = parse_call("memo", "memo_replace_lines", &json!({"start_key": "12", "new_text": ""})).unwrap_err();
    assert!(e.to_string().contains("`start_key`"), "{e}");
}

#[test]
fn null_reads_as_absent() {
    let (_, a) = parse_call("memo", "memo_replace", &json!({"old_text": "a", "new_text": "b", "match_id": null})).unwrap();
    assert_eq!(ReplaceArgs::from_checked(&a).match_id, None);
    assert!(parse_call("memo", "memo_replace", &json!({"old_text": null, "new_text": "b"})).is_err());
    assert!(parse_call("memo", "memo_preview", &Value::Null).is_ok());
}

#[test]
fn a_handler_gets_the_arguments_typed() {
    let given = json!({"old_text": "a\r\nb", "new_text": "c", "expected_occurrences": 2, "show_all_matches": true, "within": "B"});
    let (tool, checked) = parse_call("memo", "memo_replace", &given).unwrap();
    assert_eq!(tool, Tool::Replace);
    let a = ReplaceArgs::from_checked(&checked);
    assert_eq!((a.old_text.as_str(), a.new_text.as_str()), ("a\r\nb", "c"));
    assert_eq!((a.expected_occurrences, a.show_all_matches, a.within.as_deref()), (Some(2), Some(true), Some("B")));
    assert_eq!((a.match_id, a.path, a.preview_only), (None, None, None));
    let (_, checked) = parse_call("memo", "memo_replace_selection", &json!({"selection_id": "3"})).unwrap();
    assert_eq!(ReplaceSelectionArgs::from_checked(&checked).selection_id, crate::tools::Choice(2));
    let (_, checked) = parse_call("memo", "memo_recall_context", &json!({"turn_numbers": [4, 2]})).unwrap();
    assert_eq!(RecallContextArgs::from_checked(&checked).turn_numbers, vec![4, 2]);
}

/// Each row's visibility is its data: a state it is offered `In` is one where a fresh
/// workspace offers it, and the memory tools follow the `memory` option.
#[test]
fn rows_say_where_they_are_offered() {
    let idle = Workspace::new(Config::default());
    assert_eq!(idle.state(), WorkflowState::Idle);
    for t in Tool::ALL {
        let row = t.row();
        let expected = match (row.enabled, row.offered) {
            (Enabled::WithMemory, _) => false,
            (_, Offered::Always) => true,
            (_, Offered::In(states)) => states.contains(&WorkflowState::Idle),
            (_, Offered::Rule(rule)) => rule(&idle, WorkflowState::Idle),
        };
        assert_eq!(idle.is_visible(t), expected, "{t:?}");
    }
    let with_memory = Workspace::new(Config { memory: true, ..Config::default() });
    assert!(with_memory.is_visible(Tool::SearchMemory) && with_memory.is_visible(Tool::RecallContext));
    let immediate = Workspace::new(Config { persist_mode: PersistMode::Immediate, ..Config::default() });
    assert!(!immediate.is_enabled(Tool::CommitAuto) && immediate.is_enabled(Tool::Commit));
}

#[test]
fn only_the_tools_that_stage_or_save_are_stopped_by_a_conflict() {
    let edits: Vec<Tool> = Tool::ALL.into_iter().filter(|t| t.edits()).collect();
    assert_eq!(
        edits,
        [
            Tool::Replace,
            Tool::ReplaceSpan,
            Tool::ReplaceSelection,
            Tool::ReplaceLines,
            Tool::Append,
            Tool::Create,
            Tool::Commit,
            Tool::CommitAuto,
            Tool::Undo
        ]
    );
}
