//! What a shell asks besides tool calls, as data in and out (the wasm binding only converts):
//! the live context block of a request — its editor state set for the block and put back when
//! the block cannot be built — and a memory turn numbered after the last when it has no number.

use serde::Serialize;
use serde_json::Value;

use super::{Workspace, WorkspaceError};
use crate::format::Locale;
use crate::input::InputError;
use crate::live_context::{EditorState, LiveContext, LiveContextOptions};
use crate::memory::TurnRecord;

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
                locale = Some(l.as_str().and_then(Locale::parse).ok_or_else(|| InputError::invalid("live context options", "locale", "\"en\" or \"zh\"", &l))?);
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LiveContextBlock {
    pub json: LiveContext,
    pub markdown: String,
    pub content_parts: Vec<ContentPart>,
}

impl Workspace {
    /// The live context block of `request`: its editor state is set first (and kept), then
    /// the block is built with [`Workspace::live_context`]; when the state or the block is
    /// refused, the editor state is what it was before. `clock` measures the diff deadline.
    /// Errors: [`WorkspaceError::BadPosition`] (a cursor outside the document, with its
    /// limits), [`WorkspaceError::NotOpen`]. Cost: that of [`Workspace::live_context`].
    pub fn live_context_block(&mut self, request: LiveContextRequest, clock: &mut dyn FnMut() -> f64) -> Result<LiveContextBlock, WorkspaceError> {
        let locale = request.locale.unwrap_or(self.config.locale);
        let previous = self.editor.clone();
        if let Some(state) = request.editor_state {
            self.set_editor_state(state)?;
        }
        let json = match self.live_context(&request.options, clock) {
            Ok(json) => json,
            Err(e) => {
                self.editor = previous;
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
    /// last stored turn. Errors name the field and what it must be. Cost: O(size of `v`).
    pub fn turn_from_json(&self, v: &Value) -> Result<TurnRecord, InputError> {
        let mut v = v.clone();
        if let Some(map) = v.as_object_mut() {
            if map.get("turn").map_or(true, Value::is_null) {
                map.insert("turn".into(), Value::from(self.memory.next_turn()));
            }
        }
        TurnRecord::from_json(&v)
    }
}
