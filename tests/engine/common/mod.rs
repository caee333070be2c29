//! The host the scenario tests share: a workspace and the crate's `MemoryStorage`, driven by
//! `Workspace::run` as the TypeScript shell drives its storage.
#![allow(dead_code)]

pub mod random_text;

use std::ops::{Deref, DerefMut};

use agentpad::{CallContext, Config, MemoryStorage, Response, Step, Workspace};
use serde_json::Value;

/// A workspace and its storage. The storage's fields (`files`, `writes`, `fail_next_save`,
/// `failing_paths`) are reached through the host (`h.files`): a test fails saves or changes a
/// document behind the workspace's back by changing them.
pub struct Host {
    pub ws: Workspace,
    pub storage: MemoryStorage,
}

impl Deref for Host {
    type Target = MemoryStorage;
    fn deref(&self) -> &MemoryStorage {
        &self.storage
    }
}

impl DerefMut for Host {
    fn deref_mut(&mut self) -> &mut MemoryStorage {
        &mut self.storage
    }
}

impl Host {
    pub fn new(files: &[(&str, &str)]) -> Host {
        Host::with_config(files, Config::default())
    }

    /// Every file at version `v1`, opened in the order given (the first is the default).
    pub fn with_config(files: &[(&str, &str)], config: Config) -> Host {
        let mut storage = MemoryStorage::new(files);
        let mut ws = Workspace::new(config);
        for (path, _) in files {
            ws.open_from(&mut storage, path).unwrap();
        }
        Host { ws, storage }
    }

    pub fn call(&mut self, name: &str, args: Value) -> Response {
        checked(self.ws.run(name, &args, &CallContext::default(), &mut self.storage))
    }

    /// A call at `now_ms` on the shell's clock.
    pub fn call_at(&mut self, now_ms: f64, name: &str, args: Value) -> Response {
        checked(self.ws.run(name, &args, &CallContext { tool_call_id: None, now_ms }, &mut self.storage))
    }

    /// Performs storage steps until the workspace is done (`Workspace::drive`).
    pub fn drive(&mut self, step: Step) -> Response {
        checked(self.ws.drive(step, &mut self.storage))
    }

    /// Another program writes `text` to `path`; the host tells the workspace, as the shell does
    /// before the next call.
    pub fn external_write(&mut self, path: &str, text: &str) -> bool {
        let version = self.storage.write(path, text);
        self.ws.storage_changed(path, Some(text), Some(&version))
    }

    pub fn version(&self, path: &str) -> String {
        format!("v{}", self.files[path].1)
    }

    pub fn stored(&self, path: &str) -> &str {
        &self.files[path].0
    }
}

/// Every response is run through the validator (every scenario's response is checked), so any
/// scenario that renders a broken layout fails where it happens.
fn checked(r: Response) -> Response {
    if let Err(v) = agentpad::validate::validate(&r.markdown) {
        panic!("the response breaks the Markdown contract: {v:#?}\n{}", r.markdown);
    }
    r
}

/// A config with `timeout: 30` on lines 12, 45 and 78, each under a comment (the three-timeouts
/// flow).
pub fn timeouts() -> String {
    let mut lines: Vec<String> = (1..=90).map(|i| format!("key{i}: value")).collect();
    for (line, section, comment) in [(12, "database", "# database connection"), (45, "api", "# API calls"), (78, "cache", "# cache expiry")]
    {
        lines[line - 2] = comment.to_string();
        lines[line - 1] = format!("{section}.timeout: 30");
    }
    lines.join("\n") + "\n"
}

/// A UTF-16 offset (what responses give, as JavaScript counts) → the byte offset in `s`.
pub fn utf16_to_byte(s: &str, u: usize) -> usize {
    let mut units = 0;
    for (b, ch) in s.char_indices() {
        if units >= u {
            return b;
        }
        units += ch.len_utf16();
    }
    s.len()
}

/// Whether `needle` at byte `at` of `text` starts or ends inside a word or number (letters, digits, `_`; CJK has no word
/// boundaries): one exact match that does is listed to confirm, not staged
/// (docs/architecture.md#matching).
pub fn cuts_a_word(text: &str, at: usize, needle: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| (c as u32) < 0x2E80 && (c.is_alphanumeric() || c == '_'));
    let before = text[..at].chars().next_back();
    let after = text[at + needle.len()..].chars().next();
    (word(before) && word(needle.chars().next())) || (word(after) && word(needle.chars().next_back()))
}
