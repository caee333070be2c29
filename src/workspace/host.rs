//! What a shell asks besides tool calls, as data in and out (the wasm binding only converts):
//! the live context block of a request — its editor state set for the block and put back when
//! the block cannot be built — and a memory turn numbered after the last when it has no number.

use serde::Serialize;
use serde_json::Value;

use super::{LoadResult, PersistRequest, PersistResult, Step, Workspace, WorkspaceError};
use crate::format::Locale;
use crate::input::InputError;
use crate::live_context::{EditorState, LiveContext, LiveContextOptions};
use crate::memory::TurnRecord;
use crate::validate::{Parsed, ParsedCandidate, Violation};
use crate::Response;

/// What [`Workspace::live_context_block`] builds a block from.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveContextRequest {
    pub options: LiveContextOptions,
    /// Set before the block is built, and kept for later blocks when it is.
    pub editor_state: Option<EditorState>,
    /// The language of the Markdown; `None`: the workspace's.
    pub locale: Option<Locale>,
}

impl LiveContextRequest {
    /// Reads the snake_case keys of [`LiveContextOptions::from_json`], plus `editor_state`
    /// (see [`EditorState::from_json`]) and `locale` (`"en"` or `"zh"`); `now_ms` is
    /// `now_ms` unless the options give one. Every key is read before anything is set, so a
    /// refused request changes nothing. Errors name the key, the value and what is allowed.
    /// Cost: O(size of the options).
    pub fn from_json(v: &Value, now_ms: f64) -> Result<LiveContextRequest, InputError> {
        let mut v = v.clone();
        let mut editor_state = None;
        let mut locale = None;
        if let Some(map) = v.as_object_mut() {
            if let Some(state) = map.remove("editor_state").filter(|s| !s.is_null()) {
                editor_state = Some(EditorState::from_json(&state)?);
            }
            if let Some(l) = map.remove("locale").filter(|l| !l.is_null()) {
                locale = Some(
                    l.as_str()
                        .and_then(Locale::parse)
                        .ok_or_else(|| InputError::invalid("live context options", "locale", Locale::expected(), &l))?,
                );
            }
            map.entry("now_ms").or_insert(Value::from(now_ms));
        }
        let options = LiveContextOptions::from_json(&v)?;
        Ok(LiveContextRequest { options, editor_state, locale })
    }
}

/// One text part of a block, as chat APIs take content parts.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContentPart {
    /// Always `"text"`.
    #[cfg_attr(test, ts(type = "\"text\""))]
    pub r#type: &'static str,
    pub text: String,
}

/// A live context block: its data, its Markdown, and the same Markdown as one content part
/// per section (docs/workflow.md#live-context).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "LiveContext"))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveContextBlock {
    pub json: LiveContext,
    /// The sections, one line break between them.
    pub markdown: String,
    /// One text part per section: append them to the last user message's content.
    pub content_parts: Vec<ContentPart>,
}

impl Workspace {
    /// The live context block of `request`: its editor state is set first (and kept), then
    /// the block is built with [`Workspace::live_context`]; when the state or the block is
    /// refused, the editor state is what it was before. `clock` measures the diff deadline.
    /// Errors: [`WorkspaceError::BadPosition`] (a cursor outside the document, with its
    /// limits), [`WorkspaceError::NotOpen`]. Cost: that of [`Workspace::live_context`].
    pub fn live_context_block(
        &mut self,
        request: LiveContextRequest,
        clock: &mut dyn FnMut() -> f64,
    ) -> Result<LiveContextBlock, WorkspaceError> {
        let locale = request.locale.unwrap_or(self.settings.config.locale);
        let previous = self.records.editor.clone();
        if let Some(state) = request.editor_state {
            self.set_editor_state(state)?;
        }
        let json = match self.live_context(&request.options, clock) {
            Ok(json) => json,
            Err(e) => {
                self.records.editor = previous;
                return Err(e);
            }
        };
        let sections = json.sections(locale);
        Ok(LiveContextBlock {
            markdown: sections.join("\n"),
            content_parts: sections.into_iter().map(|text| ContentPart { r#type: "text", text }).collect(),
            json,
        })
    }

    /// A memory turn `{turn?, at_ms, summary, insights?, context, tags?}` (see
    /// [`TurnRecord::from_json`]); without `turn` (or with `null`) it is numbered after the
    /// last stored turn. Errors name the field and what it must be. Takes `v` by value: a turn's
    /// context can be large, and numbering it must not copy it. Cost: O(size of `v`).
    pub fn turn_from_json(&self, mut v: Value) -> Result<TurnRecord, InputError> {
        if let Some(map) = v.as_object_mut() {
            if map.get("turn").map_or(true, Value::is_null) {
                map.insert("turn".into(), Value::from(self.records.memory.next_turn()));
            }
        }
        TurnRecord::from_json(&v)
    }
}

// What the wasm binding (src/wasm.rs) hands to JS or reads from it that is not a core type: the
// JS side of a step, of the host's reports and of a few results. They live here, in native code,
// so that src/typescript.rs renders their TypeScript (www/src/generated/boundary.ts) from the very
// definitions the binding serialises: a field renamed here is renamed there, or the staleness test
// fails. The binding is wasm32-only, hence the allows.

/// What the core asks the shell for next: the JS side of a `Step`, tagged by `kind`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "Step"))]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum StepView<'a> {
    /// The call's response: nothing more to do.
    Done { response: &'a Response },
    /// Write these in order, stop at the first failure, then report every write attempted
    /// (`PersistReport`).
    Persist { requests: &'a [PersistRequest] },
    /// Read these paths, then report each (`LoadReport`).
    Load { paths: &'a [String] },
    /// Embed these texts, then report one vector each, in order (`completeEmbed`).
    Embed { texts: &'a [String] },
    /// Record what the call saved in the storage's history, then report what came of it
    /// (`RecordResult`).
    Record { request: &'a super::RecordRequest },
    /// Read `path` at `version` of the storage's own history, then report it (`StoredAt`).
    #[serde(rename = "load_at")]
    LoadAt { path: &'a str, version: &'a str },
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl<'a> StepView<'a> {
    /// A view of `step`, borrowing it. O(1).
    pub fn of(step: &'a Step) -> StepView<'a> {
        match step {
            Step::Done(response) => StepView::Done { response },
            Step::Persist(requests) => StepView::Persist { requests },
            Step::Load(paths) => StepView::Load { paths },
            Step::Embed(texts) => StepView::Embed { texts },
            Step::Record(request) => StepView::Record { request },
            Step::LoadAt { path, version } => StepView::LoadAt { path, version },
        }
    }
}

/// Strings of a step of at least this many bytes cross to JS by themselves, beside the JSON text
/// of the rest (src/wasm.rs): a decode each, where inside the JSON they would be escaped, decoded
/// and parsed (3× the time of a commit's 10 MB write,
/// docs/performance.md#2026-12-03-responses-as-json-text).
pub(crate) const LONG_STRING: usize = 256;

/// Where a string [`take_long_strings`] took out of a step goes back in its JS object.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LongSlot {
    /// `response[name]`.
    Response(&'static str),
    /// `requests[i].text`.
    RequestText(u32),
    /// `texts[i]`.
    Text(u32),
}

/// `s` emptied if it is long, and what it held.
fn take_long(s: &mut String) -> Option<String> {
    (s.len() >= LONG_STRING).then(|| std::mem::take(s))
}

/// The long strings of `step` (a response's preview, content and Markdown, a write's text, a
/// text to embed), each left empty in it: its JSON then holds `""` in their place, so the keys
/// keep their order when they are set back. O(1) per string.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn take_long_strings(step: &mut Step) -> Vec<(LongSlot, String)> {
    let mut taken = Vec::new();
    match step {
        Step::Done(r) => {
            let fields = [("preview", r.preview.as_mut()), ("content", r.content.as_mut()), ("markdown", Some(&mut r.markdown))];
            for (name, field) in fields {
                if let Some(s) = field.and_then(take_long) {
                    taken.push((LongSlot::Response(name), s));
                }
            }
        }
        Step::Persist(requests) => {
            for (i, r) in requests.iter_mut().enumerate() {
                if let Some(s) = take_long(&mut r.text) {
                    taken.push((LongSlot::RequestText(i as u32), s));
                }
            }
        }
        Step::Embed(texts) => {
            for (i, t) in texts.iter_mut().enumerate() {
                if let Some(s) = take_long(t) {
                    taken.push((LongSlot::Text(i as u32), s));
                }
            }
        }
        Step::Load(_) | Step::Record(_) | Step::LoadAt { .. } => {}
    }
    taken
}

/// One step of the way from a JSON value to a string inside it.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum JsonStep {
    Key(String),
    Index(u32),
}

/// The strings of `v` of at least [`LONG_STRING`] bytes, each left empty in it, with the way to
/// it from `v`: the long strings of a value that is not a step (`compressHistory`'s messages).
/// O(size of `v`); `v` is at most 64 deep (the binding refuses deeper input).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn take_long_json_strings(v: &mut Value) -> Vec<(Vec<JsonStep>, String)> {
    fn walk(v: &mut Value, way: &mut Vec<JsonStep>, out: &mut Vec<(Vec<JsonStep>, String)>) {
        match v {
            Value::String(s) => {
                if let Some(s) = take_long(s) {
                    out.push((way.clone(), s));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    way.push(JsonStep::Index(i as u32));
                    walk(item, way, out);
                    way.pop();
                }
            }
            Value::Object(map) => {
                for (key, item) in map.iter_mut() {
                    way.push(JsonStep::Key(key.clone()));
                    walk(item, way, out);
                    way.pop();
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

// Read by hand (`PersistReport::read`), as `LoadReport` is: a derived `Deserialize` links serde's
// readers and, through their error messages, core's float formatting (docs/performance.md#wasm-size).
/// The host's report of one write of a `persist` step (the JS side of `PersistResult`).
#[cfg_attr(test, derive(ts_rs::TS, Serialize))]
#[cfg_attr(test, serde(untagged))]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum PersistReport {
    Saved {
        path: String,
        #[cfg_attr(test, ts(type = "true"))]
        ok: bool,
        /// The version storage holds now.
        version: String,
        /// `false`: applied in storage's local copy but not yet acknowledged where it is kept
        /// (docs/co-editing.md §Stored); absent: stored.
        #[cfg_attr(test, serde(default, skip_serializing_if = "Option::is_none"))]
        #[cfg_attr(test, ts(optional))]
        stored: Option<bool>,
    },
    Failed {
        path: String,
        #[cfg_attr(test, ts(type = "false"))]
        ok: bool,
        /// Why the write failed, as the storage said.
        error: String,
    },
}

/// What a report that is neither shape is refused with: the shapes, said once.
const PERSIST_REPORT_SHAPE: &str = "{ path, ok: true, version } or { path, ok: false, error }";
const LOAD_REPORT_SHAPE: &str = "{ path, ok: true, text, version }, { path, ok: true, text: null } or { path, ok: false, error }";

/// A report's fields as serde's derived reader of an untagged enum took them (what hosts were
/// written against): an object's, by name, other keys ignored.
struct Fields<'a>(&'a serde_json::Map<String, Value>);

impl<'a> Fields<'a> {
    /// `None` when `v` is not an object.
    fn of(v: &'a Value) -> Option<Fields<'a>> {
        v.as_object().map(Fields)
    }

    /// The field called `name`; `None` when absent.
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.0.get(name)
    }

    /// A field of type `Option<_>`: absent or `null` is `Some(None)`; `None` when it is of
    /// another type than `read` takes.
    fn optional<T>(&self, name: &str, read: impl Fn(&'a Value) -> Option<T>) -> Option<Option<T>> {
        match self.get(name) {
            None | Some(Value::Null) => Some(None),
            Some(v) => read(v).map(Some),
        }
    }
}

fn string(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

/// `ok` present and exactly `want`: tells a success report from a failure.
fn ok_is(fields: &Fields, want: bool) -> bool {
    fields.get("ok").and_then(Value::as_bool) == Some(want)
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl PersistReport {
    /// One report, or `None` when it is neither shape. Cost: O(size of `v`).
    fn read(v: &Value) -> Option<PersistReport> {
        let saved = Fields::of(v).filter(|f| ok_is(f, true)).and_then(|f| {
            Some(PersistReport::Saved {
                path: string(f.get("path")?)?,
                ok: true,
                version: string(f.get("version")?)?,
                stored: f.optional("stored", Value::as_bool)?,
            })
        });
        saved.or_else(|| {
            let f = Fields::of(v).filter(|f| ok_is(f, false))?;
            Some(PersistReport::Failed { path: string(f.get("path")?)?, ok: false, error: string(f.get("error")?)? })
        })
    }

    /// Reads the host's reports (a JSON array). Errors name the report, its value and the shapes
    /// allowed. Cost: O(size of `v`).
    pub fn read_all(v: &Value) -> Result<Vec<PersistResult>, InputError> {
        read_reports(v, "persist results", PERSIST_REPORT_SHAPE, PersistReport::read, |r| {
            Ok(match r {
                PersistReport::Saved { path, version, .. } => PersistResult::Saved { path, version },
                PersistReport::Failed { path, error, .. } => PersistResult::Failed { path, error },
            })
        })
    }

    /// The paths of the saved reports that say `stored: false`, in order; reports that are not
    /// well-formed are left to [`PersistReport::read_all`]. Cost: O(size of `v`).
    pub fn unstored(v: &Value) -> Vec<String> {
        let reports = v.as_array().map(Vec::as_slice).unwrap_or(&[]);
        reports
            .iter()
            .filter_map(|r| match PersistReport::read(r) {
                Some(PersistReport::Saved { path, stored: Some(false), .. }) => Some(path),
                _ => None,
            })
            .collect()
    }
}

/// The host's report of one read of a `load` step (the JS side of `LoadResult`): `text: null`
/// when storage holds no such document.
#[cfg_attr(test, derive(ts_rs::TS, Serialize))]
#[cfg_attr(test, serde(untagged))]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum LoadReport {
    Read {
        path: String,
        #[cfg_attr(test, ts(type = "true"))]
        ok: bool,
        /// The stored text (line endings and BOM as stored), or `null`: no such document.
        text: Option<String>,
        /// Its version; `null` only when `text` is.
        version: Option<String>,
    },
    Failed {
        path: String,
        #[cfg_attr(test, ts(type = "false"))]
        ok: bool,
        /// Why the read failed, as the storage said.
        error: String,
    },
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl LoadReport {
    /// One report, or `None` when it is neither shape. Cost: O(size of `v`).
    fn read(v: &Value) -> Option<LoadReport> {
        let read = Fields::of(v).filter(|f| ok_is(f, true)).and_then(|f| {
            Some(LoadReport::Read {
                path: string(f.get("path")?)?,
                ok: true,
                text: f.optional("text", string)?,
                version: f.optional("version", string)?,
            })
        });
        read.or_else(|| {
            let f = Fields::of(v).filter(|f| ok_is(f, false))?;
            Some(LoadReport::Failed { path: string(f.get("path")?)?, ok: false, error: string(f.get("error")?)? })
        })
    }

    /// Reads the host's reports (a JSON array), as [`PersistReport::read_all`] does; a text
    /// without a version is refused too. Cost: O(size of `v`).
    pub fn read_all(v: &Value) -> Result<Vec<LoadResult>, InputError> {
        read_reports(v, "load results", LOAD_REPORT_SHAPE, LoadReport::read, |r| match r {
            LoadReport::Read { path, text: Some(text), version: Some(version), .. } => Ok(LoadResult::Loaded { path, text, version }),
            LoadReport::Read { text: None, path, .. } => Ok(LoadResult::Missing { path }),
            LoadReport::Read { text: Some(_), version: None, .. } => Err("a version with the text"),
            LoadReport::Failed { path, error, .. } => Ok(LoadResult::Failed { path, error }),
        })
    }
}

/// Each item of the array `v` read by `read` and turned into `T`; the first that does not fit is
/// refused with its index, its value and `shape` (or what `into` said).
fn read_reports<R, T>(
    v: &Value,
    what: &'static str,
    shape: &str,
    read: impl Fn(&Value) -> Option<R>,
    into: impl Fn(R) -> Result<T, &'static str>,
) -> Result<Vec<T>, InputError> {
    let items = v.as_array().ok_or_else(|| InputError::invalid(what, "", "an array", v))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let bad = |expected: &str| InputError::invalid(what, format!("[{i}]"), expected, item);
            read(item).ok_or_else(|| bad(shape)).and_then(|r| into(r).map_err(bad))
        })
        .collect()
}

/// What `compressHistory` returns: the messages (of the caller's type `M`) with each ended
/// session replaced, and what that saved (`history::Compressed`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Serialize)]
pub(crate) struct CompressedHistory<'a, M> {
    pub messages: &'a [M],
    /// Whole messages removed (a call message and its result message are two).
    pub messages_removed: usize,
    /// Estimated: one token per CJK character, one per four other characters.
    pub tokens_saved: usize,
    /// Ids of the sessions that were found and replaced.
    pub sessions: &'a [u64],
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl<'a> CompressedHistory<'a, Value> {
    /// A view of `c`, borrowing it. O(1).
    pub fn of(c: &'a crate::history::Compressed) -> Self {
        CompressedHistory {
            // `compress` always returns an array (it refuses anything else as input).
            messages: c.messages.as_array().map_or(&[], Vec::as_slice),
            messages_removed: c.delta.messages_removed,
            tokens_saved: c.delta.tokens_saved,
            sessions: &c.sessions,
        }
    }
}

/// What `validateResponse` returns: the verdict, every violation, and what could be read
/// (`validate::parse`).
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Serialize)]
pub(crate) struct ValidationResult<'a> {
    /// No violation.
    pub valid: bool,
    pub violations: &'a [Violation],
    /// The status as written in the header line.
    pub status: &'a str,
    pub state: &'a str,
    /// Flag names as listed (empty for `flags: -`).
    pub flags: &'a [String],
    /// The Overview icon: `"OK"`, `"Warning"` or `"Fail"`.
    pub severity: &'a str,
    pub summary: &'a str,
    /// `null` for the empty marker.
    pub guidance: Option<&'a str>,
    pub candidates: &'a [ParsedCandidate],
    /// Heading lines of the optional sections, in order.
    pub sections: &'a [String],
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl<'a> ValidationResult<'a> {
    /// A view of what [`crate::validate::parse`] returned, borrowing it. O(1).
    pub fn of(parsed: &'a Parsed, violations: &'a [Violation]) -> Self {
        ValidationResult {
            valid: violations.is_empty(),
            violations,
            status: &parsed.status,
            state: &parsed.state,
            flags: &parsed.flags,
            severity: &parsed.severity,
            summary: &parsed.summary,
            guidance: parsed.guidance.as_deref(),
            candidates: &parsed.candidates,
            sections: &parsed.sections,
        }
    }
}

// The TypeScript of what `EditorState::from_json` reads; the test below reads one back through it.
/// What the user's editor shows, as the host sets it (`setEditorState`, the `editorState` of
/// `liveContext`). An absent field is left unset.
#[cfg(test)]
#[derive(Serialize, ts_rs::TS)]
#[ts(rename = "EditorState", optional_fields)]
pub(crate) struct EditorStateInput {
    /// The active document (default: the default document).
    pub path: Option<String>,
    pub cursor: Option<crate::live_context::LineCol>,
    pub selection: Option<EditorSelection>,
}

/// A selection as the host sets it: where it started and where the cursor is.
#[cfg(test)]
#[derive(Serialize, ts_rs::TS)]
pub(crate) struct EditorSelection {
    pub anchor: crate::live_context::LineCol,
    pub head: crate::live_context::LineCol,
}

// The options of a live context block as the shell hands them to the core, as the JSON its reader
// takes (snake_case keys; the JS API names them in camelCase and www/src/workspace.ts converts).
// Test-only: the tests below read one with every field set back through
// `LiveContextRequest::from_json`, which refuses a key it does not know, so a key renamed on
// either side fails. Values are as loose as JSON here; the JS API's own option types narrow
// them. The workspace options are rendered from their table (src/workspace/options.rs).

/// The options of one live context block as the shell hands them to the core. An absent field
/// keeps its default.
#[cfg(test)]
#[derive(Serialize, ts_rs::TS)]
#[ts(rename = "LiveContextRequest", optional_fields)]
pub(crate) struct LiveContextRequestInput {
    pub path: Option<String>,
    pub editor_state: Option<EditorStateInput>,
    pub max_document_chars: Option<usize>,
    pub recent_diffs: Option<usize>,
    pub max_diff_chars: Option<usize>,
    pub anchor: Option<AnchorInput>,
    pub plan_hints: Option<usize>,
    pub diff_deadline_ms: Option<f64>,
    pub locale: Option<String>,
}

/// Where the anchor diff starts.
#[cfg(test)]
#[derive(Serialize, ts_rs::TS)]
#[ts(rename = "LiveContextAnchor")]
#[serde(rename_all = "snake_case")]
pub(crate) enum AnchorInput {
    Origin,
    None,
    CommitsBack(usize),
    AgeMs(f64),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reports_read_as_the_generated_types_write_them() {
        // Serialised from the same types boundary.ts is rendered from: a renamed field cannot
        // leave the reader behind.
        let saved = PersistReport::Saved { path: "a.md".into(), ok: true, version: "v2".into(), stored: None };
        let failed = PersistReport::Failed { path: "b.md".into(), ok: false, error: "disk full".into() };
        let v = serde_json::to_value([&saved, &failed]).unwrap();
        assert_eq!(v[0], json!({"path": "a.md", "ok": true, "version": "v2"}));
        assert_eq!(
            PersistReport::read_all(&v).unwrap(),
            [
                PersistResult::Saved { path: "a.md".into(), version: "v2".into() },
                PersistResult::Failed { path: "b.md".into(), error: "disk full".into() }
            ]
        );
        let reads = [
            LoadReport::Read { path: "a.md".into(), ok: true, text: Some("x\n".into()), version: Some("v1".into()) },
            LoadReport::Read { path: "gone.md".into(), ok: true, text: None, version: None },
            LoadReport::Failed { path: "c.md".into(), ok: false, error: "EACCES".into() },
        ];
        let v = serde_json::to_value(&reads).unwrap();
        assert_eq!(v[1], json!({"path": "gone.md", "ok": true, "text": null, "version": null}));
        assert_eq!(
            LoadReport::read_all(&v).unwrap(),
            [
                LoadResult::Loaded { path: "a.md".into(), text: "x\n".into(), version: "v1".into() },
                LoadResult::Missing { path: "gone.md".into() },
                LoadResult::Failed { path: "c.md".into(), error: "EACCES".into() },
            ]
        );
    }

    #[test]
    fn a_report_of_neither_shape_is_refused_naming_it_and_the_shapes() {
        let cases = [
            // `ok` says success but the fields are a failure's, and the other way round.
            json!([{"path": "a.md", "ok": true, "error": "x"}]),
            json!([{"path": "a.md", "ok": false, "version": "v2"}]),
            json!([{"path": "a.md", "version": "v2"}]),
            json!([{"path": "a.md", "ok": "yes", "version": "v2"}]),
            json!([{"ok": true, "version": "v2"}]),
        ];
        for v in cases {
            let e = PersistReport::read_all(&v).unwrap_err().to_string();
            assert!(e.starts_with("`[0]` must be { path, ok: true, version } or { path, ok: false, error }, got {"), "{v}: {e}");
        }
        let e = PersistReport::read_all(&json!([{"path": "a.md", "ok": true, "version": "v2"}, 7])).unwrap_err().to_string();
        assert!(e.starts_with("`[1]` must be") && e.ends_with("got 7"), "{e}");
        let e = PersistReport::read_all(&json!({"path": "a.md"})).unwrap_err().to_string();
        assert!(e.starts_with("persist results must be an array, got {"), "{e}");
        let e = LoadReport::read_all(&json!([{"path": "a.md", "ok": true, "text": "x", "version": null}])).unwrap_err().to_string();
        assert!(e.starts_with("`[0]` must be a version with the text, got {"), "{e}");
        let e = LoadReport::read_all(&json!([{"path": "a.md", "ok": false}])).unwrap_err().to_string();
        assert!(e.contains("{ path, ok: true, text: null }"), "{e}");
    }

    #[test]
    fn the_editor_state_type_is_what_the_reader_reads() {
        use crate::live_context::LineCol;
        let at = |line, column| LineCol { line, column };
        // Every field set: a field the reader does not know is refused, so a renamed one fails.
        let input = EditorStateInput {
            path: Some("a.md".into()),
            cursor: Some(at(2, 3)),
            selection: Some(EditorSelection { anchor: at(1, 1), head: at(2, 3) }),
        };
        let read = EditorState::from_json(&serde_json::to_value(&input).unwrap()).unwrap();
        assert_eq!(read, EditorState { path: Some("a.md".into()), cursor: Some(at(2, 3)), selection: Some((at(1, 1), at(2, 3))) });
        let empty = EditorStateInput { path: None, cursor: None, selection: None };
        assert_eq!(EditorState::from_json(&serde_json::to_value(&empty).unwrap()).unwrap(), EditorState::default());
    }

    #[test]
    fn the_live_context_request_type_is_what_the_request_reads() {
        use crate::live_context::{Anchor, LineCol};
        let input = LiveContextRequestInput {
            path: Some("a.md".into()),
            editor_state: Some(EditorStateInput { path: None, cursor: Some(LineCol { line: 1, column: 2 }), selection: None }),
            max_document_chars: Some(100),
            recent_diffs: Some(1),
            max_diff_chars: Some(50),
            anchor: Some(AnchorInput::CommitsBack(2)),
            plan_hints: Some(2),
            diff_deadline_ms: Some(30.0),
            locale: Some("zh".into()),
        };
        let read = LiveContextRequest::from_json(&serde_json::to_value(&input).unwrap(), 5.0).unwrap();
        let options = LiveContextOptions {
            path: Some("a.md".into()),
            max_document_chars: 100,
            recent_diffs: 1,
            max_diff_chars: 50,
            anchor: Anchor::CommitsBack(2),
            plan_hints: 2,
            diff_deadline_ms: 30.0,
            now_ms: 5.0,
        };
        let state = EditorState { cursor: Some(LineCol { line: 1, column: 2 }), ..EditorState::default() };
        assert_eq!(read, LiveContextRequest { options, editor_state: Some(state), locale: Some(Locale::Zh) });
        for (anchor, expected) in
            [(AnchorInput::Origin, Anchor::Origin), (AnchorInput::None, Anchor::None), (AnchorInput::AgeMs(9.0), Anchor::AgeMs(9.0))]
        {
            let v = serde_json::json!({ "anchor": serde_json::to_value(&anchor).unwrap() });
            assert_eq!(LiveContextRequest::from_json(&v, 0.0).unwrap().options.anchor, expected);
        }
    }
}

/// The hand readers of the host's reports and edits accept what serde's derived readers (what
/// hosts were written against, kept here as test-only copies) accepted, and read it the same.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod serde_agreement {
    use super::*;
    use crate::workspace::PersistEdit;
    use proptest::prelude::*;
    use serde::{Deserialize, Deserializer};
    use serde_json::json;

    fn only<'de, D: Deserializer<'de>>(d: D, want: bool) -> Result<bool, D::Error> {
        let ok = bool::deserialize(d)?;
        if ok == want {
            Ok(ok)
        } else {
            Err(serde::de::Error::custom("`ok` is the other one"))
        }
    }
    fn only_true<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        only(d, true)
    }
    fn only_false<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        only(d, false)
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum SerdePersistReport {
        Saved {
            path: String,
            #[serde(deserialize_with = "only_true")]
            ok: bool,
            version: String,
            #[serde(default)]
            stored: Option<bool>,
        },
        Failed {
            path: String,
            #[serde(deserialize_with = "only_false")]
            ok: bool,
            error: String,
        },
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum SerdeLoadReport {
        Read {
            path: String,
            #[serde(deserialize_with = "only_true")]
            ok: bool,
            text: Option<String>,
            version: Option<String>,
        },
        Failed {
            path: String,
            #[serde(deserialize_with = "only_false")]
            ok: bool,
            error: String,
        },
    }

    #[derive(Deserialize)]
    struct SerdeEdit {
        from: usize,
        to: usize,
        insert: String,
    }

    fn serde_persist(v: &Value) -> Option<PersistReport> {
        Some(match SerdePersistReport::deserialize(v).ok()? {
            SerdePersistReport::Saved { path, ok, version, stored } => PersistReport::Saved { path, ok, version, stored },
            SerdePersistReport::Failed { path, ok, error } => PersistReport::Failed { path, ok, error },
        })
    }

    fn serde_load(v: &Value) -> Option<LoadReport> {
        Some(match SerdeLoadReport::deserialize(v).ok()? {
            SerdeLoadReport::Read { path, ok, text, version } => LoadReport::Read { path, ok, text, version },
            SerdeLoadReport::Failed { path, ok, error } => LoadReport::Failed { path, ok, error },
        })
    }

    fn serde_steps(v: &Value) -> Option<Vec<Vec<PersistEdit>>> {
        let steps: Vec<Vec<SerdeEdit>> = serde_json::from_value(v.clone()).ok()?;
        Some(steps.into_iter().map(|s| s.into_iter().map(|e| PersistEdit { from: e.from, to: e.to, insert: e.insert }).collect()).collect())
    }

    /// Well-formed values of each shape, fields in declaration order.
    fn templates() -> Vec<Vec<(&'static str, Value)>> {
        vec![
            vec![("path", json!("a.md")), ("ok", json!(true)), ("version", json!("v2")), ("stored", json!(false))],
            vec![("path", json!("a.md")), ("ok", json!(false)), ("error", json!("disk full"))],
            vec![("path", json!("a.md")), ("ok", json!(true)), ("text", json!("x\n")), ("version", json!("v1"))],
            vec![("path", json!("a.md")), ("ok", json!(true)), ("text", Value::Null), ("version", Value::Null)],
            vec![("from", json!(1)), ("to", json!(2)), ("insert", json!("x"))],
        ]
    }

    fn leaf() -> impl Strategy<Value = Value> {
        prop::sample::select(vec![
            Value::Null,
            json!(true),
            json!(false),
            json!("b.md"),
            json!(""),
            json!(0),
            json!(7),
            json!(-1),
            json!(1.5),
            json!(3.0),
            json!(u64::MAX),
            json!([]),
            json!({}),
            json!(["b.md"]),
        ])
    }

    #[derive(Clone, Debug)]
    enum Change {
        Drop(usize),
        Set(usize, Value),
        Add(&'static str, Value),
    }

    /// A template changed a little (fields dropped, retyped, added), as an object or an array.
    fn near_shape() -> impl Strategy<Value = Value> {
        let keys = vec!["path", "ok", "version", "stored", "text", "error", "from", "to", "insert", "other"];
        let change = prop_oneof![
            (0usize..4).prop_map(Change::Drop),
            (0usize..4, leaf()).prop_map(|(i, v)| Change::Set(i, v)),
            (prop::sample::select(keys), leaf()).prop_map(|(k, v)| Change::Add(k, v)),
        ];
        (0..templates().len(), prop::collection::vec(change, 0..3), any::<bool>()).prop_map(|(t, changes, as_array)| {
            let mut fields = templates().swap_remove(t);
            for c in changes {
                match c {
                    Change::Drop(i) if i < fields.len() => {
                        fields.remove(i);
                    }
                    Change::Set(i, v) => {
                        if let Some(f) = fields.get_mut(i) {
                            f.1 = v;
                        }
                    }
                    Change::Add(k, v) => fields.push((k, v)),
                    Change::Drop(_) => {}
                }
            }
            if as_array {
                Value::Array(fields.into_iter().map(|(_, v)| v).collect())
            } else {
                Value::Object(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]

        #[test]
        fn reports_read_as_serde_read_them(v in prop_oneof![near_shape(), leaf()]) {
            prop_assert_eq!(PersistReport::read(&v), serde_persist(&v), "{}", v);
            prop_assert_eq!(LoadReport::read(&v), serde_load(&v), "{}", v);
        }

        #[test]
        fn edits_read_as_serde_read_them(a in prop_oneof![near_shape(), leaf()], b in near_shape()) {
            for steps in [json!([[a.clone()]]), json!([[a.clone(), b.clone()], []]), json!([a.clone()]), a.clone()] {
                prop_assert_eq!(PersistEdit::steps_from_json(&steps), serde_steps(&steps), "{}", steps);
            }
        }
    }

    #[test]
    fn the_shapes_are_read() {
        // The generator starts from every shape: each template as an object reads as one; as
        // an array only an edit does (serde reads an untagged enum from objects only).
        for (i, t) in templates().into_iter().enumerate() {
            let object = Value::Object(t.iter().map(|(k, v)| (k.to_string(), v.clone())).collect());
            let array = Value::Array(t.iter().map(|(_, v)| v.clone()).collect());
            for (v, is_read) in [(object, true), (array, i == 4)] {
                let read = (PersistReport::read(&v), LoadReport::read(&v), PersistEdit::steps_from_json(&json!([[v.clone()]])));
                assert_eq!(read.0.is_some() || read.1.is_some() || read.2.is_some(), is_read, "{v}");
                assert_eq!(read, (serde_persist(&v), serde_load(&v), serde_steps(&json!([[v]]))));
            }
        }
    }
}

#[cfg(test)]
mod long_string_tests {
    use super::*;
    use crate::response::Status;

    fn request(path: &str, text: String) -> PersistRequest {
        PersistRequest { path: path.into(), text, expected_version: "v1".into(), edits: Vec::new() }
    }

    #[test]
    fn a_responses_long_strings_are_taken_and_leave_an_empty_string_in_place() {
        let mut r = Response::new(Status::Success, "s");
        r.preview = Some("p".repeat(LONG_STRING - 1));
        r.content = Some("c".repeat(LONG_STRING));
        r.markdown = "m".repeat(LONG_STRING + 5);
        let mut step = Step::Done(r);
        let taken = take_long_strings(&mut step);
        assert_eq!(
            taken,
            vec![(LongSlot::Response("content"), "c".repeat(LONG_STRING)), (LongSlot::Response("markdown"), "m".repeat(LONG_STRING + 5))]
        );
        let json = serde_json::to_value(StepView::of(&step)).unwrap();
        assert_eq!(json["response"]["content"], "");
        assert_eq!(json["response"]["markdown"], "");
        assert_eq!(json["response"]["preview"], "p".repeat(LONG_STRING - 1));
    }

    #[test]
    fn long_write_texts_and_texts_to_embed_are_taken_by_index() {
        let mut step =
            Step::Persist(vec![request("a", "short".into()), request("b", "é".repeat(LONG_STRING / 2)), request("c", String::new())]);
        assert_eq!(take_long_strings(&mut step), vec![(LongSlot::RequestText(1), "é".repeat(LONG_STRING / 2))]);
        let json = serde_json::to_value(StepView::of(&step)).unwrap();
        assert_eq!(json["requests"][0]["text"], "short");
        assert_eq!(json["requests"][1]["text"], "");
        let mut step = Step::Embed(vec!["t".repeat(LONG_STRING), "u".into()]);
        assert_eq!(take_long_strings(&mut step), vec![(LongSlot::Text(0), "t".repeat(LONG_STRING))]);
        assert_eq!(step, Step::Embed(vec![String::new(), "u".into()]));
        let mut step = Step::Load(vec!["x".repeat(LONG_STRING)]);
        assert!(take_long_strings(&mut step).is_empty(), "a load step's paths stay in the JSON");
    }

    #[test]
    fn long_strings_of_a_json_value_are_taken_with_their_way() {
        let long = "l".repeat(LONG_STRING);
        let mut v = serde_json::json!([
            { "role": "user", "content": long.clone() },
            { "role": "tool", "content": [{ "type": "text", "text": long.clone() }, { "text": "short" }] },
            long.clone(),
        ]);
        let taken = take_long_json_strings(&mut v);
        let key = |k: &str| JsonStep::Key(k.into());
        assert_eq!(
            taken,
            vec![
                (vec![JsonStep::Index(0), key("content")], long.clone()),
                (vec![JsonStep::Index(1), key("content"), JsonStep::Index(0), key("text")], long.clone()),
                (vec![JsonStep::Index(2)], long),
            ]
        );
        assert_eq!(
            v,
            serde_json::json!([
                { "role": "user", "content": "" },
                { "role": "tool", "content": [{ "type": "text", "text": "" }, { "text": "short" }] },
                "",
            ])
        );
    }
}
