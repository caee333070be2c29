//! The JavaScript binding: converts and delegates, nothing else. The only file that knows
//! wasm-bindgen. Contract: the generated `www/pkg/agentpad.d.ts` (methods) and
//! `www/src/generated/boundary.ts` (the data crossing, rendered from the Rust types by
//! src/typescript.rs).
//!
//! Strings from JS are checked for unpaired surrogates before they become Rust strings
//! (wasm-bindgen's own conversion would replace them with U+FFFD silently); the check uses JS's
//! native `isWellFormed`, and only ill-formed strings take the slow path that finds the offset.

use js_sys::{Array, JsString};
use serde::Serialize;
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::host_texts::{self, HostTexts, Kept};
use crate::text::decode_utf16;
use crate::tools::ArgError;
use crate::workspace::{
    take_long_json_strings, take_long_strings, CallContext, CompressedHistory, Config, JsonStep, LoadReport, LoadResult, LongSlot,
    PersistReport, PersistResult, RecordResult, Step, StepView, StoredAt, ValidationResult, Workspace,
};

/// Nesting deeper than this in tool arguments is refused (and stops cycles).
const MAX_ARG_DEPTH: usize = 64;

/// Longer arrays are refused (a sparse `[]` with `length = 4e9` would otherwise be walked).
const MAX_ARRAY_ITEMS: u32 = 1_000_000;

#[wasm_bindgen]
extern "C" {
    // Catching versions of what reading a JS value calls: a getter or a Proxy trap that throws
    // must come back as an error value. An exception unwinding through these frames would leave
    // the workspace borrowed, and every later call would throw "recursive use of an object".
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn object_entries(obj: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_is_array(v: &JsValue) -> Result<bool, JsValue>;
    // JSON.parse on the JS string itself: js_sys's takes a &str, which would copy the text to
    // UTF-8 and back (twice the size of a memory export, for nothing).
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &JsString) -> Result<JsValue, JsValue>;
    // JSON.parse of JSON text serde_json wrote in wasm memory: the glue decodes it once.
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = parse)]
    fn json_parse_utf8(text: &str) -> Result<JsValue, JsValue>;
}

/// What a caught JS exception says.
fn exception_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).or_else(|| e.as_string()).unwrap_or_else(|| "an exception".into())
}

#[wasm_bindgen(start)]
fn start() {
    // Panics are defects (the core returns errors for bad input); if one happens anyway, the
    // console shows where instead of a bare "unreachable".
    console_error_panic_hook::set_once();
    crate::decomposition::set_host(host_decomposition);
}

/// The JS engine's canonical decomposition of one char (src/decomposition.rs).
fn host_decomposition(c: char, out: &mut String) {
    out.push_str(&String::from(JsString::from(c).normalize("NFD")));
}

/// The canonical decomposition the `normalization` tier reads `c` in, for tests/wasm.rs to check
/// against the tables. Not an API.
#[doc(hidden)]
pub fn canonical_decomposition(c: char) -> String {
    crate::decomposition::set_host(host_decomposition);
    let mut out = String::new();
    crate::decomposition::decompose_canonical(c, |d| out.push(d));
    out
}

/// A string from JS, refused if it holds an unpaired surrogate. `what` names it in the error.
fn js_string(s: &JsString, what: &str) -> Result<String, ArgError> {
    if s.is_well_formed() {
        return Ok(String::from(s));
    }
    let units: Vec<u16> = s.iter().collect();
    decode_utf16(&units).map_err(|e| ArgError::UnpairedSurrogate { arg: what.to_string(), offset: e.offset })
}

/// A JS value as JSON, strings checked strictly. `at` is the argument path for messages.
fn js_to_json(v: &JsValue, at: &str, depth: usize) -> Result<Value, ArgError> {
    let not_json = |got: &str| {
        if at.is_empty() {
            // The arguments themselves (there is no argument to name).
            ArgError::NotAnObject { got: got.to_string() }
        } else {
            ArgError::NotJson { arg: at.to_string(), got: got.to_string() }
        }
    };
    let threw = |e: JsValue| not_json(&format!("a value whose reading threw ({})", exception_message(&e)));
    if depth > MAX_ARG_DEPTH {
        // Name the top-level argument only: the path of a cycle is 64 segments long.
        let top = at.split(['.', '[']).next().unwrap_or(at);
        return Err(ArgError::NotJson { arg: top.to_string(), got: "a value nested deeper than 64 levels (or a cycle)".into() });
    }
    if v.is_null() || v.is_undefined() {
        return Ok(Value::Null);
    }
    // Objects first (arrays are objects too): the arguments are one, and each check here is a
    // call into JS.
    if v.is_object() {
        if array_is_array(v).map_err(threw)? {
            let length = js_sys::Reflect::get(v, &JsValue::from_str("length")).map_err(threw)?.as_f64().unwrap_or(0.0);
            if length > f64::from(MAX_ARRAY_ITEMS) {
                return Err(not_json(&format!("an array of more than {MAX_ARRAY_ITEMS} items")));
            }
            let length = length as u32;
            let mut out = Vec::with_capacity(length.min(1024) as usize);
            for i in 0..length {
                let item = js_sys::Reflect::get(v, &JsValue::from(i)).map_err(threw)?;
                out.push(js_to_json(&item, &format!("{at}[{i}]"), depth + 1)?);
            }
            return Ok(Value::Array(out));
        }
        let mut map = Map::new();
        for entry in object_entries(v).map_err(threw)?.iter() {
            let pair: Array = entry.unchecked_into();
            let key_js = pair.get(0);
            let key = match key_js.dyn_ref::<JsString>() {
                Some(k) => js_string(k, &if at.is_empty() { "name of an argument".to_string() } else { format!("{at} (a key)") })?,
                None => return Err(not_json("a non-string key")),
            };
            // A key set to `undefined` is absent, as JSON.stringify has it: SDKs build messages
            // with `providerOptions: undefined`, and a `null` in its place is what their schemas
            // refuse (docs/workflow.md#history-compression).
            let value = pair.get(1);
            if value.is_undefined() {
                continue;
            }
            let child = if at.is_empty() { key.clone() } else { format!("{at}.{key}") };
            let value = js_to_json(&value, &child, depth + 1)?;
            map.insert(key, value);
        }
        return Ok(Value::Object(map));
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(n) = v.as_f64() {
        if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
            return Ok(Value::Number(Number::from(n as i64)));
        }
        if n.is_finite() && n.fract() == 0.0 {
            // Past 2^53 a JS number is still whole, only not exact (2**53+1 is 2**53): a whole
            // number, so that the argument's own limit refuses it, naming the limit.
            return Ok(Value::Number(if n.abs() < 9.2e18 {
                Number::from(n as i64)
            } else {
                Number::from_f64(n).ok_or_else(|| not_json("a non-finite number"))?
            }));
        }
        return Number::from_f64(n).map(Value::Number).ok_or_else(|| not_json("a non-finite number"));
    }
    if let Some(s) = v.dyn_ref::<JsString>() {
        return js_string(s, at).map(Value::String);
    }
    if v.is_function() {
        return Err(not_json("a function"));
    }
    Err(not_json(if v.is_symbol() {
        "a symbol"
    } else if v.is_bigint() {
        "a BigInt"
    } else {
        "a value of another type"
    }))
}

/// `value` as JS data: JSON text written by serde_json (ASCII only: `crate::format::ascii_json`),
/// crossing once, parsed by `JSON.parse` (maps become plain objects, `None` null). One string crossing instead of a JS call per
/// property and per string, and serde_json's serializer, linked anyway, instead of a second one
/// (docs/performance.md#2026-12-03-responses-as-json-text).
fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    match crate::format::ascii_json(value) {
        // JSON.parse does not refuse what serde_json writes; an error is shown as it comes.
        Ok(text) => json_parse_utf8(&text).unwrap_or_else(|e| JsValue::from_str(&exception_message(&e))),
        Err(e) => JsValue::from_str(&e.to_string()),
    }
}

fn js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&format!("InvalidArguments: {e}"))
}

/// Sets `key` of `on`. Setting a property of a plain object just parsed cannot throw; ignored
/// if it did.
fn set_property(on: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(on, &JsValue::from_str(key), value);
}

fn get_property(on: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(on, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The JS value of a JSON step.
fn step_key(step: &JsonStep) -> JsValue {
    match step {
        JsonStep::Key(k) => JsValue::from_str(k),
        JsonStep::Index(i) => JsValue::from(*i),
    }
}

/// Sets what `way` leads to from `root`. Ignored where a step is missing (it cannot be: the
/// JSON just parsed holds the value's every key).
fn set_at(root: &JsValue, way: &[JsonStep], value: &JsValue) {
    let Some((last, parents)) = way.split_last() else { return };
    let mut at = root.clone();
    for step in parents {
        at = js_sys::Reflect::get(&at, &step_key(step)).unwrap_or(JsValue::UNDEFINED);
    }
    let _ = js_sys::Reflect::set(&at, &step_key(last), value);
}

/// `step` as JS sees it (`StepView`). Takes its long strings (the step is spent after this).
fn step_to_js(step: &mut Step) -> JsValue {
    let taken = take_long_strings(step);
    let js = to_js(&StepView::of(step));
    // A response's long strings that crossed already (its preview, its content), which its
    // Markdown holds again: taken before the Markdown.
    let mut crossed: Vec<(String, JsString)> = Vec::new();
    let response =
        if matches!(taken.first(), Some((LongSlot::Response(_), _))) { get_property(&js, "response") } else { JsValue::UNDEFINED };
    for (slot, s) in taken {
        match slot {
            LongSlot::Response(name) => {
                if name == "markdown" {
                    set_property(&response, name, &joined_markdown(&s, &crossed));
                } else {
                    let value = JsString::from(s.as_str());
                    set_property(&response, name, &value);
                    crossed.push((s, value));
                }
            }
            LongSlot::RequestText(i) => {
                let value = JsValue::from_str(&s);
                let request = js_sys::Reflect::get_u32(&get_property(&js, "requests"), i).unwrap_or(JsValue::UNDEFINED);
                set_property(&request, "text", &value);
            }
            LongSlot::Text(i) => {
                let _ = js_sys::Reflect::set_u32(&get_property(&js, "texts"), i, &JsValue::from_str(&s));
            }
        }
    }
    js
}

/// `markdown` as a JS string, the long strings inside it that crossed already (`crossed`: a
/// read's content, a preview) joined in from their JS strings instead of decoded a second time:
/// JS joins strings without copying them, while `TextDecoder` reads UTF-8 with any non-ASCII in
/// it (a gutter's `│`) at several ns a byte (docs/performance.md#a-warm-call-on-a-small-document).
/// The same string either way.
fn joined_markdown(markdown: &str, crossed: &[(String, JsString)]) -> JsValue {
    let mut found: Vec<(usize, usize, &JsString)> =
        crossed.iter().filter_map(|(text, js)| find_whole(markdown, text).map(|at| (at, at + text.len(), js))).collect();
    if found.is_empty() {
        return JsValue::from_str(markdown);
    }
    // In the order they stand in (a read's content comes before a preview).
    crate::sort::sort_by_key(&mut found, |&(start, _, _)| start);
    let mut joined = JsString::from("");
    let mut at = 0;
    for (start, end, js) in found {
        // Two crossed strings overlapping in the Markdown cannot be: the later one is decoded.
        let Some(before) = markdown.get(at..start) else { continue };
        joined = joined.concat(&JsString::from(before)).concat(js);
        at = end;
    }
    joined.concat(&JsString::from(markdown.get(at..).unwrap_or_default())).into()
}

/// Where `needle` first stands in `hay`: found by its first bytes, then compared whole. A
/// searcher for the whole needle prepares itself in O(needle), which for a read's content cost
/// more than the decoding it saves; and `str`'s searcher, unlike memchr's, is compiled by the
/// first call anyway (docs/performance.md#cold-start).
fn find_whole(hay: &str, needle: &str) -> Option<usize> {
    let mut cut = NEEDLE_HEAD.min(needle.len());
    while !needle.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = needle.get(..cut)?;
    hay.match_indices(head).map(|(at, _)| at).find(|&at| hay.as_bytes().get(at..at + needle.len()) == Some(needle.as_bytes()))
}

/// Bytes of a long string [`find_whole`] searches for.
const NEEDLE_HEAD: usize = 32;

#[wasm_bindgen]
pub struct WasmWorkspace {
    inner: Workspace,
    /// The committed texts the shell keeps a copy of (src/host_texts.rs).
    host: HostTexts,
}

/// `step` as JS sees it, the write requests at `stripped` marked `from_edits: true` (their text
/// is empty: the shell makes it from its copy and the edits, src/host_texts.rs) and the
/// shell's copies to keep or drop named (`kept`, `dropped`).
fn step_to_js_with(step: &mut Step, stripped: &[usize], kept: &Kept) -> JsValue {
    let js = step_to_js(step);
    if !stripped.is_empty() {
        let requests = get_property(&js, "requests");
        for &i in stripped {
            if let Ok(r) = js_sys::Reflect::get_u32(&requests, i as u32) {
                set_property(&r, "from_edits", &JsValue::TRUE);
            }
        }
    }
    let list = |paths: &[String]| paths.iter().map(|p| JsValue::from_str(p)).collect::<Array>();
    if !kept.kept.is_empty() {
        set_property(&js, "kept", &list(&kept.kept));
    }
    if !kept.dropped.is_empty() {
        set_property(&js, "dropped", &list(&kept.dropped));
    }
    js
}

#[wasm_bindgen]
impl WasmWorkspace {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<WasmWorkspace, JsError> {
        let options = js_to_json(&options, "options", 0).map_err(js_error)?;
        let config = Config::from_json(&options).map_err(js_error)?;
        Ok(WasmWorkspace { inner: Workspace::new(config), host: HostTexts::default() })
    }

    /// Opens `path`; returns whether the shell keeps `text` as the committed text, so that a
    /// commit's write can be sent as edits of it (src/host_texts.rs).
    pub fn open(&mut self, path: JsString, text: JsString, version: JsString) -> Result<bool, JsError> {
        let path = js_string(&path, "path").map_err(js_error)?;
        let text = js_string(&text, "text").map_err(js_error)?;
        let version = js_string(&version, "version").map_err(js_error)?;
        let verbatim = host_texts::verbatim(&text);
        self.inner.open_string(&path, text, &version).map_err(js_error)?;
        Ok(self.host.opened(&self.inner, &path, verbatim))
    }

    pub fn call(&mut self, name: JsString, args: JsValue, tool_call_id: Option<JsString>, now_ms: f64) -> JsValue {
        // Not a string: an unknown tool, named by its type (converting it as a string would throw
        // inside this call and leave the workspace borrowed). An ill-formed string is an unknown
        // tool either way.
        let name = name.as_string().unwrap_or_else(|| match name.as_f64() {
            Some(n) => format!("(number {})", crate::decimal::shortest(n)),
            None if name.is_null() => "(null)".into(),
            None => format!("({})", name.js_typeof().as_string().unwrap_or_default()),
        });
        let ctx = CallContext { tool_call_id: tool_call_id.and_then(|id| id.as_string()), now_ms };
        // Lent for the call only: a write the call requests is stripped below, so its text need
        // not be made (src/host_texts.rs); a step answered later is never stripped.
        self.inner.set_held_by_host(self.host.lend());
        let mut step = match js_to_json(&args, "", 0) {
            Ok(args) => self.inner.call(&name, &args, &ctx),
            Err(e) => Step::Done(self.inner.invalid_arguments(&e)),
        };
        self.host.restore(self.inner.set_held_by_host(Vec::new()));
        let stripped = self.host.strip(&self.inner, &mut step);
        step_to_js_with(&mut step, &stripped, &Kept::default())
    }

    /// Reports the writes of a `persist` step; returns the next step.
    #[wasm_bindgen(js_name = completePersist)]
    pub fn complete_persist(&mut self, results: JsValue) -> JsValue {
        let parsed = js_to_json(&results, "results", 0).map_err(|e| e.to_string()).and_then(|v| {
            let results = PersistReport::read_all(&v).map_err(|e| e.to_string())?;
            Ok((results, PersistReport::unstored(&v)))
        });
        let (mut step, kept) = match parsed {
            Ok((results, unstored)) => {
                // Before the commit is worded: its response says it is not stored yet.
                for path in &unstored {
                    self.inner.storage_unstored(path);
                }
                let step = self.inner.complete_persist(results.clone());
                let kept = self.host.written(&self.inner, &results, &step);
                (step, kept)
            }
            // A malformed report counts as nothing written: the changes stay pending.
            Err(e) => (self.inner.complete_persist(vec![PersistResult::Failed { path: String::new(), error: e }]), Kept::default()),
        };
        step_to_js_with(&mut step, &[], &kept)
    }

    /// Reports the reads of a `load` step; returns the next step.
    #[wasm_bindgen(js_name = completeLoad)]
    pub fn complete_load(&mut self, results: JsValue) -> JsValue {
        let parsed =
            js_to_json(&results, "results", 0).map_err(|e| e.to_string()).and_then(|v| LoadReport::read_all(&v).map_err(|e| e.to_string()));
        let mut step = match parsed {
            Ok(results) => self.inner.complete_load(results),
            Err(e) => self.inner.complete_load(vec![LoadResult::Failed { path: String::new(), error: e }]),
        };
        step_to_js(&mut step)
    }

    /// Whether the shell embeds texts for `memo_find` (the `embed` option): then a find asks
    /// with an `embed` step first.
    #[wasm_bindgen(js_name = setEmbedder)]
    pub fn set_embedder(&mut self, on: bool) {
        self.inner.set_embedder(on);
    }

    /// Reports the vectors of an `embed` step (an array of number arrays, one per text), or
    /// `{ error }` when the embedder failed; returns the next step.
    #[wasm_bindgen(js_name = completeEmbed)]
    pub fn complete_embed(&mut self, vectors: JsValue) -> JsValue {
        let parsed = js_to_json(&vectors, "vectors", 0).map_err(|e| e.to_string()).and_then(|v| crate::workspace::read_vectors(&v));
        let mut step = self.inner.complete_embed(parsed);
        step_to_js(&mut step)
    }

    /// Says whether the storage keeps a history that records each call whose saves succeeded
    /// (the shell's storage has `afterCommit`): such a call then asks with a `record` step.
    #[wasm_bindgen(js_name = keepRecords)]
    pub fn keep_records(&mut self, enabled: bool) {
        self.inner.keep_records(enabled);
    }

    /// Reports what a `record` step came to (`RecordResult`); returns the next step. A
    /// malformed report is taken as "not known whether it was recorded", naming the error.
    #[wasm_bindgen(js_name = completeRecord)]
    pub fn complete_record(&mut self, result: JsValue) -> JsValue {
        let parsed = js_to_json(&result, "result", 0)
            .map_err(|e| e.to_string())
            .and_then(|v| RecordResult::from_json(&v).map_err(|e| format!("a malformed record result: {e}")));
        let mut step = self.inner.complete_record(parsed.unwrap_or_else(|why| RecordResult::Unknown { why }));
        step_to_js(&mut step)
    }

    /// Reports what a `load_at` step found (`StoredAt`); returns the next step. A malformed
    /// report is taken as a failed read, naming the error.
    #[wasm_bindgen(js_name = completeLoadAt)]
    pub fn complete_load_at(&mut self, found: JsValue) -> JsValue {
        let parsed = js_to_json(&found, "found", 0)
            .map_err(|e| e.to_string())
            .and_then(|v| StoredAt::from_json(&v).map_err(|e| format!("a malformed report of the storage: {e}")));
        let mut step = self.inner.complete_load_at(parsed.unwrap_or_else(|why| StoredAt::Failed { why }));
        step_to_js(&mut step)
    }

    /// Storage holds `text` at `version` for `path` now (`text` null: deleted). Returns whether
    /// the workspace took notice (false for its own saves). `steps` (optional): the change as
    /// the storage saw it, `[[{from, to, insert}, ...], ...]` in UTF-16 units of the LF text
    /// before each step (docs/co-editing.md §Automatic rebase); a malformed value is ignored
    /// like steps that do not fit (the texts are diffed).
    #[wasm_bindgen(js_name = storageChanged)]
    pub fn storage_changed(
        &mut self,
        path: JsString,
        text: Option<JsString>,
        version: Option<JsString>,
        steps: JsValue,
    ) -> Result<bool, JsError> {
        let path = js_string(&path, "path").map_err(js_error)?;
        let text = text.map(|t| js_string(&t, "text")).transpose().map_err(js_error)?;
        let version = version.map(|v| js_string(&v, "version")).transpose().map_err(js_error)?;
        let steps: Option<Vec<Vec<crate::workspace::PersistEdit>>> = if steps.is_undefined() || steps.is_null() {
            None
        } else {
            js_to_json(&steps, "steps", 0).ok().and_then(|v| crate::workspace::PersistEdit::steps_from_json(&v))
        };
        Ok(self.inner.storage_changed_with_edits(&path, text, version.as_deref(), steps.as_deref()))
    }

    /// Storage holds a text of `bytes` (UTF-8) at `version` for `path`, too large to hand over
    /// (over [`crate::MAX_DOCUMENT_BYTES`]): not loaded; the next response says so. Returns
    /// whether the workspace took notice.
    #[wasm_bindgen(js_name = storageTooLarge)]
    pub fn storage_too_large(&mut self, path: String, version: String, bytes: f64) -> bool {
        self.inner.storage_too_large(&path, &version, bytes as usize)
    }

    /// Storage reported a change of `path` the shell could not read (`why` names the error, or
    /// the path and offset of an unpaired surrogate): the next response says so, nothing else
    /// changes. Returns whether the workspace took notice.
    #[wasm_bindgen(js_name = storageUnreadable)]
    pub fn storage_unreadable(&mut self, path: String, why: String) -> bool {
        self.inner.storage_unreadable(&path, &why)
    }

    /// Storage now holds every save of `path` where it is kept (it reported `stored: false`
    /// before): the next response says so once. Returns whether `path` was waiting.
    #[wasm_bindgen(js_name = storageStored)]
    pub fn storage_stored(&mut self, path: String) -> bool {
        self.inner.storage_stored(&path)
    }

    /// The paths whose last save storage has not acknowledged yet (docs/co-editing.md §Stored).
    pub fn unstored(&self) -> Vec<String> {
        self.inner.unstored()
    }

    /// The storage version held for `path`, or undefined when it is not open.
    pub fn version(&self, path: String) -> Option<String> {
        self.inner.version(&path).map(str::to_string)
    }

    pub fn text(&self, path: Option<String>) -> Result<String, JsError> {
        self.inner.text(path.as_deref()).map_err(js_error)
    }

    pub fn draft(&self, path: Option<String>) -> Result<String, JsError> {
        self.inner.draft(path.as_deref()).map_err(js_error)
    }

    pub fn state(&self) -> String {
        self.inner.state().as_str().to_string()
    }

    /// Enables diagnostics for these categories (`["TextEdit.MatchTrace", …]`, short names, or
    /// `"all"`); an empty list turns them off. A bad name is an Error naming the known ones.
    #[wasm_bindgen(js_name = setDiagnostics)]
    pub fn set_diagnostics(&mut self, categories: JsValue) -> Result<(), JsError> {
        let v = js_to_json(&categories, "categories", 0).map_err(js_error)?;
        let list = match &v {
            Value::String(s) => s.clone(),
            Value::Array(items) => items
                .iter()
                .map(|i| i.as_str().map(str::to_string).ok_or_else(|| js_error(format!("categories must be strings, got {i}"))))
                .collect::<Result<Vec<_>, _>>()?
                .join(","),
            Value::Null => String::new(),
            other => return Err(js_error(format!("categories must be a list of names or \"all\", got {other}"))),
        };
        let set = crate::diagnostics::Category::parse_list(&list).map_err(js_error)?;
        self.inner.set_diagnostics(set);
        Ok(())
    }

    /// The diagnostics records since the last call of this, oldest first.
    #[wasm_bindgen(js_name = takeDiagnostics)]
    pub fn take_diagnostics(&mut self) -> JsValue {
        to_js(&self.inner.take_diagnostics())
    }

    /// `messages` (in one of [`crate::history::Format`]'s formats) with each ended session's calls replaced by one
    /// summary message: `{ messages, messages_removed, tokens_saved, sessions }`. Bad input is an
    /// Error naming the message and what is wrong; nothing is changed then.
    #[wasm_bindgen(js_name = compressHistory)]
    pub fn compress_history(&self, messages: JsValue, format: JsString) -> Result<JsValue, JsError> {
        let format = String::from(&format);
        let format = crate::history::Format::parse(&format)
            .ok_or_else(|| js_error(format!("format must be {}, got {format:?}", crate::history::Format::NAMES)))?;
        let messages = js_to_json(&messages, "messages", 0).map_err(js_error)?;
        let mut out = self.inner.compress_history(&messages, format).map_err(js_error)?;
        // The messages' long strings (tool results, documents) cross by themselves, as a step's.
        let taken = take_long_json_strings(&mut out.messages);
        let js = to_js(&CompressedHistory::of(&out));
        let messages = get_property(&js, "messages");
        for (way, s) in taken {
            set_at(&messages, &way, &JsValue::from_str(&s));
        }
        Ok(js)
    }

    /// The live context block (docs/workflow.md#live-context): `{ json, markdown,
    /// content_parts }` (`Workspace::live_context_block`). `options` has the snake_case keys
    /// of `LiveContextRequest::from_json`. The deadline of its diffs runs on `Date.now()`.
    #[wasm_bindgen(js_name = liveContext)]
    pub fn live_context(&mut self, options: JsValue, now_ms: f64) -> Result<JsValue, JsError> {
        let v = js_to_json(&options, "options", 0).map_err(js_error)?;
        let request = crate::workspace::LiveContextRequest::from_json(&v, now_ms).map_err(js_error)?;
        let block = self.inner.live_context_block(request, &mut || js_sys::Date::now()).map_err(js_error)?;
        Ok(to_js(&block))
    }

    /// Sets `{path?, cursor?, selection?}` for the live context; an Error names a bad position
    /// and its limit (nothing changes then).
    #[wasm_bindgen(js_name = setEditorState)]
    pub fn set_editor_state(&mut self, state: JsValue) -> Result<(), JsError> {
        let v = js_to_json(&state, "editor_state", 0).map_err(js_error)?;
        let state = crate::live_context::EditorState::from_json(&v).map_err(js_error)?;
        self.inner.set_editor_state(state).map_err(js_error)
    }

    /// The task stack and thought tree: `{ task_stack, task_tree, task_tree_earlier,
    /// markdown }`.
    pub fn tasks(&self) -> JsValue {
        to_js(&self.inner.task_report())
    }

    /// Stores a turn `{turn?, at_ms, summary, insights?, context, tags?}` in the memory store
    /// (`turn` defaults to one after the last); returns its turn number.
    #[wasm_bindgen(js_name = memoryAdd)]
    pub fn memory_add(&mut self, record: JsValue) -> Result<u32, JsError> {
        let v = js_to_json(&record, "turn", 0).map_err(js_error)?;
        let record = self.inner.turn_from_json(v).map_err(js_error)?;
        let turn = record.turn;
        self.inner.memory_add(record).map_err(js_error)?;
        Ok(turn)
    }

    #[wasm_bindgen(js_name = memoryExport)]
    pub fn memory_export(&self) -> String {
        self.inner.memory().export()
    }

    /// Replaces the memory store by an export; on error the store is unchanged. The text is
    /// parsed where it is (JS) and read once into the core. Cost: O(size of the export).
    #[wasm_bindgen(js_name = memoryImport)]
    pub fn memory_import(&mut self, json: JsString) -> Result<(), JsError> {
        // JSON.parse instead of serde_json's text parser: nothing else in the wasm build parses
        // JSON text, and leaving the parser out keeps the module smaller.
        let parsed = json_parse(&json).map_err(|e| js_error(format!("malformed memory export: {}", exception_message(&e))))?;
        let value = js_to_json(&parsed, "json", 0).map_err(js_error)?;
        self.inner.memory_import_value(&value).map_err(js_error)
    }

    /// The `[Turn N] …` lines of every stored turn (what the live context shows). Cost:
    /// O(size of the summaries); only the digest crosses, not the turns.
    #[wasm_bindgen(js_name = memoryDigest)]
    pub fn memory_digest(&self) -> String {
        self.inner.memory().digest()
    }

    /// Every stored turn, oldest first (`MemoryTurn[]`). Cost: a copy of every turn, contexts
    /// included, into JS.
    #[wasm_bindgen(js_name = memoryTurns)]
    pub fn memory_turns(&self) -> JsValue {
        to_js(self.inner.memory().records())
    }

    /// Ranked hits (`MemorySearchHit[]`) for `query`, at most `limit`.
    #[wasm_bindgen(js_name = memorySearch)]
    pub fn memory_search(&self, query: JsString, limit: u32) -> Result<JsValue, JsError> {
        let query = js_string(&query, "query").map_err(js_error)?;
        Ok(to_js(&self.inner.memory().search(&query, limit as usize)))
    }

    /// `{ mask, names }` of the current state and mode.
    pub fn flags(&self) -> JsValue {
        to_js(&self.inner.flags())
    }

    pub fn paths(&self) -> Vec<String> {
        self.inner.paths().to_vec()
    }

    /// Every tool the configuration enables (the same in every state), or with `visible_only`
    /// the ones the current state offers.
    #[wasm_bindgen(js_name = toolDefinitions)]
    pub fn tool_definitions(&self, visible_only: bool) -> JsValue {
        if visible_only {
            to_js(&self.inner.tool_definitions())
        } else {
            to_js(&self.inner.enabled_tool_definitions())
        }
    }

    /// Every tool with whether the current state offers it and why not (`Workspace::tool_states`).
    #[wasm_bindgen(js_name = toolStates)]
    pub fn tool_states(&self) -> JsValue {
        to_js(&self.inner.tool_states())
    }
}

/// The message `open` gives for a document of `bytes` over [`crate::MAX_DOCUMENT_BYTES`], for
/// the shell that refuses one before it crosses into wasm.
#[wasm_bindgen(js_name = documentTooLargeMessage)]
pub fn document_too_large_message(path: String, bytes: f64) -> String {
    crate::WorkspaceError::TooLarge { path, bytes: bytes as usize, limit: crate::MAX_DOCUMENT_BYTES }.to_string()
}

/// Checks a Markdown response against docs/responses.md#markdown-layout (the validator of
/// `agentpad::validate`), for agent developers who store or rewrite responses.
#[wasm_bindgen(js_name = validateMarkdown)]
pub fn validate_markdown(markdown: JsString) -> Result<JsValue, JsError> {
    let markdown = js_string(&markdown, "markdown").map_err(js_error)?;
    let (parsed, violations) = crate::validate::parse(&markdown);
    Ok(to_js(&ValidationResult::of(&parsed, &violations)))
}
