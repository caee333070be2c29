//! Tool-call sequences against a workspace, driven the way a shell drives it (tests/engine/common's
//! `Host`): persist and load steps performed against an in-memory storage that sometimes fails
//! saves and reads, and that other programs sometimes change or delete documents in.
//!
//! Invariants, whatever the input:
//! - no panic, and no `Exception` that says "Internal error";
//! - every response's Markdown passes `agentpad::validate::validate`;
//! - storage is only written through persist steps, and those only come from `commit`,
//!   `commit_auto`, `persist_as` (and edits in `immediate` mode); never in `disabled` mode except
//!   `persist_as`;
//! - whenever the workspace holds the version storage holds, storage holds its committed text
//!   (persistence enabled; both read back as a reload reads them);
//! - after a successful `revert` / `discard`, every document's draft equals its committed text.

use agentpad::matching::line_key::LineKey;
use agentpad::text::Text;
use agentpad::tools::ParamKind;
use agentpad::Tool;
use agentpad::{
    CallContext, Config, LoadResult, MemoryStorage, Numbering, PersistMode, PersistRequest, PersistResult, Response, Status, Step, Storage,
    StorageError, Stored, Workspace,
};
use arbitrary::{Result, Unstructured};
use serde_json::{json, Map, Value};

use super::gen;

const PATHS: [&str; 2] = ["doc.md", "notes.txt"];
const PREFIX: &str = "memo";

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = run_inner(&mut u);
}

struct Host {
    ws: Workspace,
    mode: PersistMode,
    /// Versions are never reused (one counter for every path): a document deleted and written
    /// again gets a version the workspace has not seen.
    storage: MemoryStorage,
    now: f64,
    fingerprints: Vec<String>,
}

fn run_inner(u: &mut Unstructured) -> Result<()> {
    let mode =
        *u.choose(&[PersistMode::Manual, PersistMode::Manual, PersistMode::Manual, PersistMode::Immediate, PersistMode::Disabled])?;
    let config = Config {
        persist_mode: mode,
        locale: if u.ratio(1, 4)? { agentpad::Locale::Zh } else { agentpad::Locale::En },
        candidate_style: if u.arbitrary()? { agentpad::CandidateStyle::List } else { agentpad::CandidateStyle::Table },
        near_match_threshold: *u.choose(&[0.8, 0.5, 0.95, 0.0, 1.0])?,
        max_preview_length: *u.choose(&[500, 40, 5, 1])?,
        max_task_depth: u.int_in_range(1..=3)?,
        memory: u.arbitrary()?,
        ..Config::default()
    };
    if std::env::var_os("AGENTPAD_FUZZ_TRACE").is_some() {
        eprintln!("config: {config:?}");
    }
    let mut host = Host {
        ws: Workspace::new(config),
        mode,
        storage: MemoryStorage::with_numbering(&[], Numbering::Shared),
        now: 1_000.0,
        fingerprints: Vec::new(),
    };
    let docs = u.int_in_range(1..=2usize)?;
    for path in &PATHS[..docs] {
        let raw = gen::document(u)?;
        let version = host.storage.write(path, &raw);
        host.ws.open(path, &raw, &version).expect("open a small document");
        if std::env::var_os("AGENTPAD_FUZZ_TRACE").is_some() {
            let shown: String = raw.chars().map(|c| if c.is_ascii() { c.to_string() } else { c.escape_unicode().to_string() }).collect();
            eprintln!("open {path}: {} chars {shown:?}", raw.chars().count());
        }
    }
    let steps = u.int_in_range(1..=24u8)?;
    for _ in 0..steps {
        match u.int_in_range(0..=24u8)? {
            0 => host.external_write(u)?,
            1 => host.external_delete(u)?,
            2 => host.storage.fail_next_save = true,
            3 => {
                let failing = &mut host.storage.failing_paths;
                if failing.is_empty() {
                    failing.push(u.choose(&PATHS)?.to_string());
                } else {
                    failing.clear();
                }
            }
            4 => host.storage.fail_next_load = true,
            5 => {
                // A completion nothing waits for: refused with a response, nothing changes.
                let step = if u.arbitrary()? {
                    host.ws.complete_persist(vec![PersistResult::Saved { path: "doc.md".into(), version: "v999".into() }])
                } else {
                    host.ws.complete_load(vec![LoadResult::Missing { path: "doc.md".into() }])
                };
                host.drive(step, None);
            }
            _ => host.tool_call(u)?,
        }
        host.check_storage();
    }
    Ok(())
}

impl Host {
    fn draft(&self, path: &str) -> String {
        self.ws.draft(Some(path)).unwrap_or_default()
    }

    fn any_path(&self, u: &mut Unstructured) -> Result<String> {
        let open = self.ws.paths().to_vec();
        if open.is_empty() {
            return Ok(PATHS[0].to_string());
        }
        Ok(u.choose(&open)?.clone())
    }

    fn external_write(&mut self, u: &mut Unstructured) -> Result<()> {
        let path = u.choose(&PATHS)?.to_string();
        let old = self.storage.text(&path).unwrap_or_default().to_string();
        let raw = if u.ratio(3, 4)? { gen::mutate(u, &old)? } else { gen::document(u)? };
        let version = self.storage.write(&path, &raw);
        if std::env::var_os("AGENTPAD_FUZZ_TRACE").is_some() {
            eprintln!("external write {path}: {} chars {raw:?}", raw.chars().count());
        }
        self.ws.storage_changed(&path, Some(&raw), Some(&version));
        Ok(())
    }

    fn external_delete(&mut self, u: &mut Unstructured) -> Result<()> {
        let path = u.choose(&PATHS)?.to_string();
        self.storage.remove(&path);
        self.ws.storage_changed(&path, None, None);
        Ok(())
    }

    /// Performs storage steps until the workspace is done (`Workspace::drive` with the
    /// in-memory storage), checking each response and which calls may persist.
    fn drive(&mut self, step: Step, tool: Option<Tool>) -> Response {
        let mut storage = Checked { storage: &mut self.storage, tool, mode: self.mode, steps: 0 };
        let r = self.ws.drive(step, &mut storage);
        check_response(&r);
        if let Some(f) = &r.fingerprint {
            self.fingerprints.push(f.clone());
        }
        r
    }

    /// Whenever the workspace holds storage's version of a document, it holds storage's text.
    fn check_storage(&self) {
        if self.mode == PersistMode::Disabled {
            return; // commits stay in memory: the committed text differs from storage on purpose
        }
        for path in self.ws.paths() {
            let (Some(version), Some((raw, v))) = (self.ws.version(path), self.storage.files.get(path)) else { continue };
            if version != format!("v{v}") {
                continue;
            }
            // Read back as a reload reads it, storage's text is the committed text exactly (a
            // leading U+FEFF committed without a BOM becomes the BOM: fuzzing found that case).
            let storage = Text::from_storage(raw);
            let doc = self.ws.document(path).expect("an open path");
            let (storage, committed) = (agentpad::text::rope_string(storage.rope()), agentpad::text::rope_string(doc.text.rope()));
            assert_eq!(committed, storage, "{path} at {version}: storage does not hold the committed text");
        }
    }

    fn tool_call(&mut self, u: &mut Unstructured) -> Result<()> {
        let (name, tool) = match u.int_in_range(0..=19u8)? {
            0 => (junk_name(u)?, None),
            _ => {
                let tool = *u.choose(&Tool::ALL)?;
                (tool.name(PREFIX), Some(tool))
            }
        };
        let args = match tool {
            Some(t) if u.ratio(19, 20)? => self.args_for(u, t)?,
            _ => junk_value(u, 2)?,
        };
        let ctx = CallContext {
            tool_call_id: if u.arbitrary()? { Some(format!("call_{}", u.int_in_range(0..=9u8)?)) } else { None },
            now_ms: {
                self.now += f64::from(u.int_in_range(0..=5000u16)?);
                self.now
            },
        };
        let started = std::time::Instant::now();
        let step = self.ws.call(&name, &args, &ctx);
        let r = self.drive(step, tool);
        // AGENTPAD_FUZZ_TRACE=1: each call, its arguments and how long it took (for slow inputs).
        if std::env::var_os("AGENTPAD_FUZZ_TRACE").is_some() {
            let shown: String = args
                .to_string()
                .chars()
                .take(300)
                .map(|c| if c.is_ascii() { c.to_string() } else { c.escape_unicode().to_string() })
                .collect();
            eprintln!("{:>9.1} ms  {name} {shown} → {:?}", started.elapsed().as_secs_f64() * 1e3, r.status);
        }
        if matches!(tool, Some(Tool::Revert | Tool::Discard)) && r.status == Status::Success {
            for path in self.ws.paths().to_vec() {
                assert_eq!(
                    self.ws.draft(Some(&path)).unwrap(),
                    self.ws.text(Some(&path)).unwrap(),
                    "after a successful {name}, the draft of {path} is not its committed text"
                );
            }
        }
        Ok(())
    }

    /// Arguments for `tool`, biased toward its real parameters and kinds.
    fn args_for(&mut self, u: &mut Unstructured, tool: Tool) -> Result<Value> {
        let mut map = Map::new();
        let path = self.any_path(u)?;
        for p in tool.row().handler.params {
            let include = if p.required { u.ratio(15, 16)? } else { u.ratio(1, 3)? };
            if !include {
                continue;
            }
            let value = if u.ratio(1, 16)? { junk_value(u, 1)? } else { self.value_for(u, p.name, p.kind, &path)? };
            map.insert(p.name.to_string(), value);
        }
        if u.ratio(1, 16)? {
            map.insert(gen::letters(u, 8)?, junk_value(u, 1)?);
        }
        Ok(Value::Object(map))
    }

    fn value_for(&mut self, u: &mut Unstructured, name: &str, kind: ParamKind, path: &str) -> Result<Value> {
        let draft = self.draft(path);
        Ok(match kind {
            ParamKind::Boolean => Value::Bool(u.arbitrary()?),
            ParamKind::Integer { .. } => json!(u.int_in_range(-2..=30i64)?),
            ParamKind::Letter => Value::String(letter(u)?),
            ParamKind::LetterOrNumber => match u.int_in_range(0..=3u8)? {
                0 | 1 => Value::String(letter(u)?),
                2 => json!(u.int_in_range(0..=30i64)?),
                _ => Value::String(u.int_in_range(0..=30i64)?.to_string()),
            },
            ParamKind::LineKey => Value::String(line_key(u, &draft)?),
            ParamKind::OneOf(options) => {
                if u.ratio(7, 8)? {
                    Value::String(u.choose(options)?.to_string())
                } else {
                    Value::String(gen::letters(u, 8)?)
                }
            }
            ParamKind::IntegerList { .. } => {
                let n = u.int_in_range(0..=4usize)?;
                let mut list = Vec::new();
                for _ in 0..n {
                    list.push(json!(u.int_in_range(-1..=12i64)?));
                }
                Value::Array(list)
            }
            ParamKind::String => Value::String(match name {
                "path" => {
                    if u.ratio(7, 8)? {
                        path.to_string()
                    } else {
                        u.choose(&["", "missing.md", "notes.txt", "doc.md"])?.to_string()
                    }
                }
                "new_path" => u.choose(&["copy.md", "doc.md", "", "notes.txt", "other/copy.md"])?.to_string(),
                "expected_fingerprint" => match self.fingerprints.last() {
                    Some(f) if u.ratio(3, 4)? => f.clone(),
                    _ => gen::letters(u, 16)?,
                },
                "old_text" | "old_span_start" | "old_span_end" | "search_after" => gen::needle(u, &draft)?,
                "parent_task_id" => u.choose(&["T1", "T2", "1", "", "task-1"])?.to_string(),
                "new_text" | "text" => match u.int_in_range(0..=3u8)? {
                    0 => gen::needle(u, &draft)?,
                    1 => gen::letters(u, 10)?,
                    _ => gen::text(u, 40)?,
                },
                _ => {
                    if u.arbitrary()? {
                        gen::letters(u, 12)?
                    } else {
                        gen::text(u, 30)?
                    }
                }
            }),
        })
    }
}

/// Letters A–E mostly, any A–Z, or something that is not a letter.
fn letter(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0..=7u8)? {
        0..=4 => ((b'A' + u.int_in_range(0..=4u8)?) as char).to_string(),
        5 => ((b'A' + u.int_in_range(0..=25u8)?) as char).to_string(),
        6 => ((b'a' + u.int_in_range(0..=25u8)?) as char).to_string(),
        _ => gen::letters(u, 3)?,
    })
}

/// A key of a real line of `draft`, a stale or out-of-range one, or junk.
fn line_key(u: &mut Unstructured, draft: &str) -> Result<String> {
    let lines: Vec<&str> = draft.split('\n').collect();
    Ok(match u.int_in_range(0..=5u8)? {
        0..=2 => {
            let i = u.int_in_range(0..=lines.len() - 1)?;
            LineKey::of(i + 1, lines[i]).to_string()
        }
        3 => LineKey { line: u.int_in_range(0..=40usize)?, hash: u.arbitrary()? }.to_string(),
        4 => format!("{}#{}", u.int_in_range(0..=40usize)?, gen::letters(u, 5)?),
        _ => gen::text(u, 12)?,
    })
}

fn junk_name(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0..=4u8)? {
        0 => format!("{PREFIX}_{}", gen::letters(u, 10)?),
        1 => u.choose(&Tool::ALL)?.name("Memo"),
        2 => u.choose(&Tool::ALL)?.verb().to_string(),
        3 => String::new(),
        _ => gen::text(u, 20)?,
    })
}

fn junk_value(u: &mut Unstructured, depth: u8) -> Result<Value> {
    Ok(match u.int_in_range(0..=7u8)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => json!(u.int_in_range(-5..=40i64)?),
        3 => json!(f64::from(u.int_in_range(-100..=100i32)?) / 7.0),
        4 => Value::String(gen::text(u, 20)?),
        5 if depth > 0 => {
            let n = u.int_in_range(0..=3usize)?;
            let mut items = Vec::new();
            for _ in 0..n {
                items.push(junk_value(u, depth - 1)?);
            }
            Value::Array(items)
        }
        6 if depth > 0 => {
            let n = u.int_in_range(0..=3usize)?;
            let mut map = Map::new();
            for _ in 0..n {
                map.insert(gen::letters(u, 6)?, junk_value(u, depth - 1)?);
            }
            Value::Object(map)
        }
        _ => Value::String(gen::letters(u, 4)?),
    })
}

/// What must hold for every response.
pub fn check_response(r: &Response) {
    if let Err(v) = agentpad::validate::validate(&r.markdown) {
        panic!("the response breaks the Markdown contract: {v:#?}\n{}", r.markdown);
    }
    assert!(!(r.status == Status::Exception && r.summary.contains("Internal error")), "an internal error reached the agent: {}", r.summary);
}

/// The harness's storage for one call: the in-memory storage, asserting that a call's first
/// storage step is a persist step only where the tool and the persist mode allow one.
struct Checked<'a> {
    storage: &'a mut MemoryStorage,
    tool: Option<Tool>,
    mode: PersistMode,
    /// Storage steps of this call so far.
    steps: usize,
}

impl Storage for Checked<'_> {
    fn load(&mut self, path: &str) -> std::result::Result<Option<Stored>, StorageError> {
        self.storage.load(path)
    }

    fn save(&mut self, request: PersistRequest) -> std::result::Result<String, StorageError> {
        self.storage.save(request)
    }

    fn persist(&mut self, requests: Vec<PersistRequest>) -> Vec<PersistResult> {
        if self.steps == 0 {
            let allowed = match self.tool {
                Some(Tool::PersistAs) => true,
                Some(Tool::Commit | Tool::CommitAuto) => self.mode != PersistMode::Disabled,
                Some(t) => self.mode == PersistMode::Immediate && t.edits(),
                None => false,
            };
            assert!(allowed, "a persist step from {:?} in {:?} mode: {requests:?}", self.tool, self.mode);
        }
        self.steps += 1;
        self.storage.persist(requests)
    }

    fn load_all(&mut self, paths: &[String]) -> Vec<LoadResult> {
        self.steps += 1;
        self.storage.load_all(paths)
    }
}
