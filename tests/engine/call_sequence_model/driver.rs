//! The host driver: runs a workspace step against the host's storage, recording each persist
//! step's writes and injecting the failures a commit op asks for.

use crate::common::Host;
use agentpad::{CallContext, MemoryStorage, PersistRequest, PersistResult, Response, Step, Storage, StorageError, Stored};
use serde_json::Value;

/// Which write attempts fail: index in the commit's writes, index in the compensating writes.
#[derive(Default, Clone, Copy)]
pub(super) struct FailPlan {
    pub(super) commit: Option<usize>,
    pub(super) restore: Option<usize>,
}

pub(super) struct Driven {
    pub(super) r: Response,
    /// The paths of each persist step's requests, in order, with their texts.
    pub(super) steps: Vec<Vec<(String, String)>>,
    /// Writes that failed for a reason the plan did not ask for.
    pub(super) unplanned_failures: Vec<String>,
}

/// The model's storage: the host's `MemoryStorage`, with each persist step's writes recorded and
/// the plan's failures injected (by index in the commit's writes, then in the compensating ones).
struct Planned<'a> {
    storage: &'a mut MemoryStorage,
    plan: FailPlan,
    steps: Vec<Vec<(String, String)>>,
    unplanned_failures: Vec<String>,
}

impl Storage for Planned<'_> {
    fn load(&mut self, path: &str) -> Result<Option<Stored>, StorageError> {
        self.storage.load(path)
    }

    fn save(&mut self, request: PersistRequest) -> Result<String, StorageError> {
        self.storage.save(request)
    }

    fn persist(&mut self, requests: Vec<PersistRequest>) -> Vec<PersistResult> {
        let fail_at = if self.steps.is_empty() { self.plan.commit } else { self.plan.restore };
        self.steps.push(requests.iter().map(|r| (r.path.clone(), r.text.clone())).collect());
        let mut results = Vec::new();
        for (i, req) in requests.into_iter().enumerate() {
            if fail_at == Some(i) {
                results.push(PersistResult::Failed { path: req.path, error: "disk full".into() });
                break;
            }
            let path = req.path.clone();
            match self.storage.save(req) {
                Ok(version) => results.push(PersistResult::Saved { path, version }),
                Err(e) => {
                    self.unplanned_failures.push(e.to_string());
                    results.push(PersistResult::Failed { path, error: e.to_string() });
                    break;
                }
            }
        }
        results
    }
}

pub(super) fn drive(h: &mut Host, step: Step, plan: FailPlan) -> Result<Driven, String> {
    let mut storage = Planned { storage: &mut h.storage, plan, steps: Vec::new(), unplanned_failures: Vec::new() };
    let r = h.ws.drive(step, &mut storage);
    if let Err(v) = agentpad::validate::validate(&r.markdown) {
        return Err(format!("the response breaks the Markdown contract: {v:?}\n{}", r.markdown));
    }
    Ok(Driven { r, steps: storage.steps, unplanned_failures: storage.unplanned_failures })
}

pub(super) fn call(h: &mut Host, name: &str, args: Value, plan: FailPlan) -> Result<Driven, String> {
    let step = h.ws.call(name, &args, &CallContext::default());
    drive(h, step, plan)
}
