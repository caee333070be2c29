//! The in-memory storage host the scenario tests share: it performs persist requests the way the
//! TypeScript shell does.
#![allow(dead_code)]

use std::collections::BTreeMap;

use agentpad::{CallContext, Config, PersistResult, Response, Step, Workspace};
use serde_json::Value;

/// A storage host: holds raw texts and versions, performs persist requests, can fail the next save.
pub struct Host {
    pub ws: Workspace,
    pub files: BTreeMap<String, (String, u32)>,
    pub fail_next_save: bool,
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
        Host { ws, files: stored, fail_next_save: false }
    }

    pub fn call(&mut self, name: &str, args: Value) -> Response {
        match self.ws.call(name, &args, &CallContext::default()) {
            Step::Done(r) => r,
            Step::Persist(requests) => {
                let results = requests
                    .into_iter()
                    .map(|req| {
                        let (_, version) = &self.files[&req.path];
                        if std::mem::take(&mut self.fail_next_save) {
                            PersistResult::Failed { path: req.path, error: "disk full".into() }
                        } else if format!("v{version}") != req.expected_version {
                            PersistResult::Failed { path: req.path, error: "version mismatch".into() }
                        } else {
                            let next = version + 1;
                            self.files.insert(req.path.clone(), (req.text, next));
                            PersistResult::Saved { path: req.path, version: format!("v{next}") }
                        }
                    })
                    .collect();
                self.ws.complete_persist(results)
            }
        }
    }

    pub fn stored(&self, path: &str) -> &str {
        &self.files[path].0
    }
}
