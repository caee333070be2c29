//! The wasm binding, run by wasm-bindgen-test: in Node by `wasm-pack test --node`, and in
//! headless Chromium by `wasm-pack test --headless --chrome` through tests/wasm_browser.rs.
#![cfg(target_arch = "wasm32")]

use agentpad::wasm::WasmWorkspace;
use js_sys::{Array, JsString, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

fn obj(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &JsValue::from_str(k), v).unwrap();
    }
    o.into()
}

fn get(v: &JsValue, path: &[&str]) -> JsValue {
    path.iter().fold(v.clone(), |acc, key| Reflect::get(&acc, &JsValue::from_str(key)).unwrap())
}

fn ws_with(text: &str) -> WasmWorkspace {
    let mut ws = WasmWorkspace::new(JsValue::NULL).unwrap();
    ws.open("a.txt".into(), text.into(), "v1".into()).unwrap();
    ws
}

#[wasm_bindgen_test]
fn replace_stages_and_commit_asks_the_host_to_persist() {
    let mut ws = ws_with("x = 1\r\ny = 1\r\n");
    let args = obj(&[("old_text", "x = 1".into()), ("new_text", "x = 2".into())]);
    let step = ws.call("memo_replace".into(), args, None, 0.0);
    assert_eq!(get(&step, &["kind"]).as_string().unwrap(), "done");
    assert_eq!(get(&step, &["response", "status"]).as_string().unwrap(), "Success");
    assert_eq!(get(&step, &["response", "workflow_state"]).as_string().unwrap(), "PersistPending");
    assert_eq!(ws.state(), "PersistPending");

    let step = ws.call("memo_commit".into(), obj(&[("summary", "bump".into())]), Some("call_1".into()), 0.0);
    assert_eq!(get(&step, &["kind"]).as_string().unwrap(), "persist");
    let request = Array::from(&get(&step, &["requests"])).get(0);
    // the host receives the storage form: CRLF restored
    assert_eq!(get(&request, &["text"]).as_string().unwrap(), "x = 2\r\ny = 1\r\n");
    assert_eq!(get(&request, &["expected_version"]).as_string().unwrap(), "v1");

    let results = Array::of1(&obj(&[("path", "a.txt".into()), ("ok", true.into()), ("version", "v2".into())]));
    let step = ws.complete_persist(results.into());
    assert_eq!(get(&step, &["kind"]).as_string().unwrap(), "done");
    assert_eq!(get(&step, &["response", "status"]).as_string().unwrap(), "Success");
    assert_eq!(ws.text(None).unwrap(), "x = 2\ny = 1\n");
    assert_eq!(ws.state(), "Idle");
}

#[wasm_bindgen_test]
fn unpaired_surrogate_in_an_argument_is_refused_with_its_offset() {
    let mut ws = ws_with("abc");
    let broken = JsString::from_char_code(&[0x61, 0x62, 0xD800, 0x63]);
    let args = obj(&[("old_text", broken.into()), ("new_text", "x".into())]);
    let step = ws.call("memo_replace".into(), args, None, 0.0);
    let response = get(&step, &["response"]);
    assert_eq!(get(&response, &["status"]).as_string().unwrap(), "InvalidArguments");
    let summary = get(&response, &["summary"]).as_string().unwrap();
    assert!(summary.contains("`old_text`") && summary.contains("UTF-16 offset 2"), "{summary}");
    assert_eq!(ws.draft(None).unwrap(), "abc");
}

#[wasm_bindgen_test]
fn unpaired_surrogate_in_a_document_is_refused() {
    let mut ws = WasmWorkspace::new(JsValue::NULL).unwrap();
    let broken = JsString::from_char_code(&[0x61, 0xDC00]);
    let err = ws.open("a".into(), broken, "v1".into()).err().expect("refused");
    let message = JsValue::from(err);
    let text = get(&message, &["message"]).as_string().unwrap();
    assert!(text.starts_with("InvalidArguments:") && text.contains("UTF-16 offset 1"), "{text}");
    assert_eq!(ws.paths().len(), 0);
}

#[wasm_bindgen_test]
fn candidate_offsets_slice_the_js_string() {
    let text = "😀 中 k=1\n🎉 k=1\n";
    let mut ws = ws_with(text);
    let step = ws.call("memo_replace".into(), obj(&[("old_text", "k=1".into()), ("new_text", "k=2".into())]), None, 0.0);
    let candidates = Array::from(&get(&step, &["response", "candidates"]));
    assert_eq!(candidates.length(), 2);
    let js_text = JsString::from(ws.draft(None).unwrap());
    for c in candidates.iter() {
        let start = get(&c, &["context_start"]).as_f64().unwrap() as u32;
        let end = get(&c, &["context_end"]).as_f64().unwrap() as u32;
        assert_eq!(String::from(js_text.slice(start, end)), "k=1");
    }
}

#[wasm_bindgen_test]
fn non_json_arguments_and_bad_options_do_not_throw() {
    let mut ws = ws_with("abc");
    let f = js_sys::Function::new_no_args("return 1");
    let step = ws.call("memo_replace".into(), obj(&[("old_text", f.into()), ("new_text", "x".into())]), None, 0.0);
    assert_eq!(get(&step, &["response", "status"]).as_string().unwrap(), "InvalidArguments");
    let step = ws.call("no_such_tool".into(), JsValue::UNDEFINED, None, 0.0);
    assert_eq!(get(&step, &["response", "status"]).as_string().unwrap(), "InvalidArguments");
    assert!(WasmWorkspace::new(obj(&[("persist_mode", "sometimes".into())])).is_err());
    let visible = Array::from(&ws.tool_definitions(true));
    let enabled = Array::from(&ws.tool_definitions(false));
    assert!(visible.length() >= 5);
    assert!(enabled.length() > visible.length(), "the stable list holds the tools this state hides too");
}

#[wasm_bindgen_test]
fn refresh_asks_the_host_to_load_and_an_external_change_conflicts() {
    let mut ws = ws_with("x = 1\n");
    let args = obj(&[("old_text", "x = 1".into()), ("new_text", "x = 2".into())]);
    ws.call("memo_replace".into(), args, None, 0.0);
    // storage changed underneath the pending change
    assert!(ws.storage_changed("a.txt".into(), Some("x = 1\nz = 0\n".into()), Some("v2".into()), JsValue::UNDEFINED).unwrap());
    let step = ws.call("memo_commit".into(), obj(&[("summary", "s".into())]), None, 0.0);
    assert_eq!(get(&step, &["response", "status"]).as_string().unwrap(), "ExternalConflict");
    assert_eq!(ws.state(), "OutOfSync");

    let step = ws.call("memo_refresh".into(), obj(&[]), None, 0.0);
    assert_eq!(get(&step, &["kind"]).as_string().unwrap(), "load");
    assert_eq!(Array::from(&get(&step, &["paths"])).get(0).as_string().unwrap(), "a.txt");
    assert_eq!(ws.state(), "Refreshing");
    let loaded = obj(&[("path", "a.txt".into()), ("ok", true.into()), ("text", "x = 1\nz = 0\n".into()), ("version", "v2".into())]);
    let step = ws.complete_load(Array::of1(&loaded).into());
    assert_eq!(get(&step, &["response", "status"]).as_string().unwrap(), "Success");
    assert_eq!(ws.state(), "Idle");
    assert_eq!(ws.text(None).unwrap(), "x = 1\nz = 0\n");
    assert_eq!(ws.version("a.txt".into()).as_deref(), Some("v2"));
}

#[wasm_bindgen_test]
fn compress_history_leaves_a_key_set_to_undefined_absent() {
    // The AI SDK's assistant message when the model wrote text beside a tool call: its parts
    // carry `providerOptions: undefined`; a null there fails the SDK's ModelMessage schema.
    let mut ws = ws_with("x = 1\n");
    ws.call("memo_replace".into(), obj(&[("old_text", "x = 1".into()), ("new_text", "x = 2".into())]), Some("t0".into()), 0.0);
    ws.call("memo_commit".into(), obj(&[("summary", "s".into())]), Some("t1".into()), 0.0);
    ws.complete_persist(Array::of1(&obj(&[("path", "a.txt".into()), ("ok", true.into()), ("version", "v2".into())])).into());
    let text = obj(&[("type", "text".into()), ("text", "Editing.".into()), ("providerOptions", JsValue::UNDEFINED)]);
    let call = |id: &str| {
        obj(&[
            ("type", "tool-call".into()),
            ("toolCallId", id.into()),
            ("toolName", "memo_replace".into()),
            ("input", obj(&[])),
            ("providerOptions", JsValue::UNDEFINED),
        ])
    };
    let result = |id: &str| {
        obj(&[
            ("type", "tool-result".into()),
            ("toolCallId", id.into()),
            ("toolName", "memo_replace".into()),
            ("output", obj(&[("type", "text".into()), ("value", "ok".into())])),
        ])
    };
    let messages = Array::new();
    messages.push(&obj(&[("role", "user".into()), ("content", "go".into())]));
    messages.push(&obj(&[("role", "assistant".into()), ("content", Array::of2(&text, &call("t0")).into())]));
    messages.push(&obj(&[("role", "tool".into()), ("content", Array::of1(&result("t0")).into())]));
    messages.push(&obj(&[("role", "assistant".into()), ("content", Array::of1(&call("t1")).into())]));
    messages.push(&obj(&[("role", "tool".into()), ("content", Array::of1(&result("t1")).into())]));
    let out = ws.compress_history(messages.into(), "ai-sdk".into()).ok().unwrap();
    assert_eq!(Array::from(&get(&out, &["sessions"])).length(), 1, "the session was found");
    let kept = Array::from(&get(&out, &["messages"])).get(1);
    let part = Array::from(&get(&kept, &["content"])).get(0);
    assert_eq!(get(&part, &["text"]).as_string().unwrap(), "Editing.");
    assert!(!Reflect::has(&part, &JsValue::from_str("providerOptions")).unwrap(), "absent, not null");
}

/// In wasm the `normalization` tier reads characters in the JS engine's canonical decomposition
/// (src/decomposition.rs): for every char the host's Unicode assigns, it must be what the native
/// build's tables say. A char the host leaves unassigned (newer than its Unicode) may differ.
#[wasm_bindgen_test]
fn the_hosts_canonical_decomposition_is_the_tables() {
    let unassigned = js_sys::RegExp::new(r"^\p{Cn}$", "u");
    let planes = (0u32..=0x3_FFFF).chain(0xE_0000..=0xE_01EF);
    let (mut checked, mut decomposing) = (0usize, 0usize);
    for c in planes.filter_map(char::from_u32) {
        let ours = agentpad::wasm::canonical_decomposition(c);
        let mut tables = String::new();
        unicode_normalization::char::decompose_canonical(c, |d| tables.push(d));
        if ours != tables {
            let s = c.to_string();
            assert!(unassigned.test(&s), "U+{:04X}: host {ours:?}, tables {tables:?}", u32::from(c));
            continue;
        }
        checked += 1;
        decomposing += usize::from(tables.chars().ne(std::iter::once(c)));
    }
    // Unicode has about 2,060 chars with a canonical decomposition (11,172 Hangul syllables more).
    assert!(checked > 250_000 && decomposing > 13_000, "checked {checked}, decomposing {decomposing}");
}

#[wasm_bindgen_test]
fn a_decomposed_needle_finds_the_composed_text_at_the_normalization_tier() {
    let mut ws = ws_with("name = \"Jos\u{e9}\"\nage = 40\n");
    let args = obj(&[("old_text", "name = \"Jose\u{301}\"\nage = 40".into()), ("new_text", "name = \"Jose\u{301}\"\nage = 41".into())]);
    let step = ws.call("memo_replace".into(), args, None, 0.0);
    assert_eq!(get(&step, &["response", "status"]).as_string().unwrap(), "Success");
    assert_eq!(get(&step, &["response", "match_quality"]).as_string().unwrap(), "normalization");
    ws.call("memo_commit".into(), obj(&[("summary", "s".into())]), None, 0.0);
    let results = Array::of1(&obj(&[("path", "a.txt".into()), ("ok", true.into()), ("version", "v2".into())]));
    ws.complete_persist(results.into());
    assert_eq!(ws.text(None).unwrap(), "name = \"Jos\u{e9}\"\nage = 41\n");
}
