//! The in-memory storage host the scenario tests share: it performs persist requests the way the
//! TypeScript shell does.
#![allow(dead_code)]

use std::collections::BTreeMap;

use agentpad::{CallContext, Config, LoadResult, PersistResult, Response, Step, Workspace};
use serde_json::Value;

/// A storage host: holds raw texts and versions, performs persist and load requests the way
/// the TypeScript shell does (writes in order, stopping at the first failure), and can fail
/// saves or change a document behind the workspace's back.
pub struct Host {
    pub ws: Workspace,
    pub files: BTreeMap<String, (String, u32)>,
    /// The next save (of any path) fails.
    pub fail_next_save: bool,
    /// Saves of these paths fail until removed.
    pub failing_paths: Vec<String>,
    /// Every write the host performed, in order: (path, text).
    pub writes: Vec<(String, String)>,
}

impl Host {
    pub fn new(files: &[(&str, &str)]) -> Host {
        Host::with_config(files, Config::default())
    }

    pub fn with_config(files: &[(&str, &str)], config: Config) -> Host {
        let mut ws = Workspace::new(config);
        let mut stored = BTreeMap::new();
        for (path, text) in files {
            ws.open(path, text, "v1").unwrap();
            stored.insert(path.to_string(), (text.to_string(), 1));
        }
        Host { ws, files: stored, fail_next_save: false, failing_paths: Vec::new(), writes: Vec::new() }
    }

    pub fn call(&mut self, name: &str, args: Value) -> Response {
        let step = self.ws.call(name, &args, &CallContext::default());
        self.drive(step)
    }

    /// A call at `now_ms` on the shell's clock.
    pub fn call_at(&mut self, now_ms: f64, name: &str, args: Value) -> Response {
        let step = self.ws.call(name, &args, &CallContext { tool_call_id: None, now_ms });
        self.drive(step)
    }

    /// Performs storage steps until the workspace is done. Every response is run through the
    /// validator (every scenario's response is checked), so any scenario that renders a broken
    /// layout fails where it happens.
    pub fn drive(&mut self, mut step: Step) -> Response {
        loop {
            step = match step {
                Step::Done(r) => {
                    if let Err(v) = agentpad::validate::validate(&r.markdown) {
                        panic!("the response breaks the Markdown contract: {v:#?}\n{}", r.markdown);
                    }
                    return r;
                }
                Step::Persist(requests) => {
                    let mut results = Vec::new();
                    for req in requests {
                        let result = self.save(req.path, req.text, &req.expected_version);
                        let failed = matches!(result, PersistResult::Failed { .. });
                        results.push(result);
                        if failed {
                            break; // like the shell: no writes after a failure
                        }
                    }
                    self.ws.complete_persist(results)
                }
                Step::Load(paths) => {
                    let results = paths
                        .into_iter()
                        .map(|path| match self.files.get(&path) {
                            Some((text, v)) => LoadResult::Loaded { path, text: text.clone(), version: format!("v{v}") },
                            None => LoadResult::Missing { path },
                        })
                        .collect();
                    self.ws.complete_load(results)
                }
            }
        }
    }

    fn save(&mut self, path: String, text: String, expected_version: &str) -> PersistResult {
        let current = self.files.get(&path).map_or(String::new(), |(_, v)| format!("v{v}"));
        if std::mem::take(&mut self.fail_next_save) || self.failing_paths.contains(&path) {
            PersistResult::Failed { path, error: "disk full".into() }
        } else if current != expected_version {
            PersistResult::Failed { path, error: format!("version mismatch: expected {expected_version:?}, storage has {current:?}") }
        } else {
            let next = self.files.get(&path).map_or(1, |(_, v)| v + 1);
            self.files.insert(path.clone(), (text.clone(), next));
            self.writes.push((path.clone(), text));
            PersistResult::Saved { path, version: format!("v{next}") }
        }
    }

    /// Another program writes `text` to `path`; the host tells the workspace, as the shell does
    /// before the next call.
    pub fn external_write(&mut self, path: &str, text: &str) -> bool {
        let next = self.files.get(path).map_or(1, |(_, v)| v + 1);
        self.files.insert(path.to_string(), (text.to_string(), next));
        self.ws.storage_changed(path, Some(text), Some(&format!("v{next}")))
    }

    pub fn version(&self, path: &str) -> String {
        format!("v{}", self.files[path].1)
    }

    pub fn stored(&self, path: &str) -> &str {
        &self.files[path].0
    }
}

/// A config with `timeout: 30` on lines 12, 45 and 78, each under a comment (the three-timeouts
/// flow).
pub fn timeouts() -> String {
    let mut lines: Vec<String> = (1..=90).map(|i| format!("key{i}: value")).collect();
    for (line, section, comment) in [(12, "database", "# database connection"), (45, "api", "# API calls"), (78, "cache", "# cache expiry")] {
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
