//! Every guidance the core emits is something the model can do now (docs/responses.md
//! §Statuses): each tool it names (`memo_commit(summary)`, `memo_diff(against="storage")`,
//! a bare `memo_read`) is visible in the state the response leaves, and the arguments it names
//! are arguments of that tool with values its schema accepts (checked by `tools::parse_call`).
//!
//! The walk drives the workspace into every state it can reach — idle, a pending choice from
//! several matches and from a near miss, pending changes, all 26 letters used, a failed save, an
//! external change under pending changes, a deleted document, immediate and disabled persist
//! modes, the memory store on and off, a full task stack, another tool prefix — and in each
//! calls every tool with valid arguments and with the usual mistakes (a missing argument, an
//! unknown one, a wrong type, a path that is not open), then a seeded sequence of random calls.
//! The guidance of every response, and of every hidden tool in `tool_states()`, is checked.

use crate::common;

use agentpad::tools::ParamKind;
use agentpad::{parse_call, Tool};
use agentpad::{Config, PersistMode, Response};
use common::Host;
use serde_json::{json, Map, Value};

const DOC: &str = "# service\nname: orders\n# database\ndatabase.timeout: 30\n# api\napi.timeout: 30\n";
const NOTES: &str = "# Notes\n\n- alpha: todo\n- beta: todo\n";

/// A tool mention in a guidance: `memo_diff(against="storage")` → ("memo_diff", Some(args)).
#[derive(Debug)]
struct Mention {
    name: String,
    args: Option<String>,
}

/// Every `{prefix}_word` in `text`, with the parenthesised argument list right after it, if any.
fn mentions(text: &str, prefix: &str) -> Vec<Mention> {
    let lead = format!("{prefix}_");
    let mut out = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(at) = rest.find(&lead) {
        let start = offset + at;
        let before = text[..start].chars().next_back();
        let tail = &text[start..];
        let len = tail.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(tail.len());
        let name = &tail[..len];
        let after = &tail[len..];
        let boundary = before.map_or(true, |c| !(c.is_ascii_alphanumeric() || c == '_'));
        if boundary && len > lead.len() {
            let args = after.strip_prefix('(').and_then(|a| a.find(')').map(|end| a[..end].to_string()));
            out.push(Mention { name: name.to_string(), args });
        }
        offset = start + len.max(1);
        rest = &text[offset..];
    }
    out
}

/// A value the schema of `kind` accepts, for an argument named without a value.
fn placeholder(kind: ParamKind) -> Value {
    match kind {
        ParamKind::String => json!("x"),
        ParamKind::Boolean => json!(true),
        ParamKind::Integer { min } => json!(min.max(1)),
        ParamKind::Letter | ParamKind::LetterOrNumber => json!("A"),
        ParamKind::LineKey => json!("1#0000"),
        ParamKind::OneOf(values) => json!(values.first().copied().unwrap_or("")),
        ParamKind::IntegerList { min, .. } => json!([min.max(1)]),
    }
}

/// Splits `a, b="x, y", c=3` at the commas outside quotes.
fn split_args(list: &str) -> Vec<String> {
    let (mut parts, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in list.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            ',' if !quoted => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    parts.push(cur);
    parts.into_iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()
}

/// What is wrong with `m` in a response whose state offers `visible`; `None` when nothing.
fn check(m: &Mention, prefix: &str, visible: &[String]) -> Option<String> {
    let Some(tool) = Tool::from_name(prefix, &m.name) else {
        return Some(format!("`{}` is no tool", m.name));
    };
    if !visible.iter().any(|v| v == &m.name) {
        return Some(format!("`{}` is not visible in the state the response leaves", m.name));
    }
    let Some(list) = &m.args else { return None };
    let spec = tool.row();
    let mut args = Map::new();
    // A range of values (`selection_id="A"–"C"`): its last end is checked in a second call.
    let mut range_end: Option<(String, Value)> = None;
    for part in split_args(list) {
        let (key, value) = match part.split_once('=') {
            Some((k, v)) => {
                let (k, v) = (k.trim(), v.trim());
                let json = |v: &str| serde_json::from_str::<Value>(v).ok();
                match (json(v), v.split_once('–')) {
                    (Some(v), _) => (k.to_string(), Some(v)),
                    (None, Some((a, b))) if json(a).is_some() && json(b).is_some() => {
                        range_end = json(b).map(|b| (k.to_string(), b));
                        (k.to_string(), json(a))
                    }
                    _ => return Some(format!("`{}({list})`: the value of `{k}` is not a JSON value: {v}", m.name)),
                }
            }
            None => (part.clone(), None),
        };
        let Some(param) = spec.handler.params.iter().find(|p| p.name == key) else {
            return Some(format!("`{}({list})`: `{key}` is no argument of {}", m.name, m.name));
        };
        args.insert(key, value.unwrap_or_else(|| placeholder(param.kind)));
    }
    if let Some((key, end)) = range_end {
        let mut other = args.clone();
        other.insert(key, end);
        if let Err(e) = parse_call(prefix, &m.name, &Value::Object(other)) {
            return Some(format!("`{}({list})`: {e}", m.name));
        }
    }
    // A call written out with parentheses names every argument the tool requires.
    for p in spec.handler.params.iter().filter(|p| p.required) {
        if !args.contains_key(p.name) {
            return Some(format!("`{}({list})` leaves out the required argument `{}`", m.name, p.name));
        }
    }
    parse_call(prefix, &m.name, &Value::Object(args)).err().map(|e| format!("`{}({list})`: {e}", m.name))
}

/// The walk's findings: each broken guidance once, with where it was met.
#[derive(Default)]
struct Findings {
    broken: Vec<String>,
    guidances: usize,
    mentions: usize,
}

impl Findings {
    fn check_text(&mut self, guidance: &str, prefix: &str, visible: &[String], context: &str) {
        self.guidances += 1;
        for m in mentions(guidance, prefix) {
            self.mentions += 1;
            if let Some(problem) = check(&m, prefix, visible) {
                // Once per guidance text (the same sentence breaks the same way everywhere).
                let key = format!("    guidance: {}\n", guidance.replace(&format!("{prefix}_"), "memo_"));
                if !self.broken.iter().any(|b| b.contains(&key)) {
                    self.broken.push(format!("{problem}\n{key}    at: {context}"));
                }
            }
        }
    }

    /// The response's guidance, and the guidance of every tool the state hides.
    fn response(&mut self, h: &Host, r: &Response, context: &str) {
        let prefix = h.ws.config().tool_prefix.clone();
        if let Some(g) = &r.guidance {
            self.check_text(g, &prefix, &r.visible_tools, &format!("{context} → {:?} in {:?}", r.status, r.workflow_state));
        }
        // The next actions are read the same way (summaries name the tool that was called, and
        // say what happened: they are not checked).
        for a in &r.next_actions {
            self.check_text(a, &prefix, &r.visible_tools, &format!("{context}; next action"));
        }
        let visible: Vec<String> = h.ws.visible_tools().into_iter().map(|t| t.name(&prefix)).collect();
        for s in h.ws.tool_states() {
            if let Some(g) = &s.guidance {
                self.check_text(g, &prefix, &visible, &format!("{context}; tool_states {} (hidden)", s.definition.name));
            }
        }
    }
}

/// How to reach a state: a config, the documents, and the calls (and host actions) that lead there.
struct Setup {
    name: &'static str,
    config: Config,
    run: fn(&mut Host, &mut Findings),
}

fn call(h: &mut Host, f: &mut Findings, name: &str, args: Value) -> Response {
    let prefix = h.ws.config().tool_prefix.clone();
    let name = name.replacen("memo_", &format!("{prefix}_"), 1);
    let r = h.call(&name, args.clone());
    f.response(h, &r, &format!("{name}({args})"));
    r
}

fn setups() -> Vec<Setup> {
    let memory = Config { memory: true, ..Config::default() };
    let immediate = Config { persist_mode: PersistMode::Immediate, ..Config::default() };
    let disabled = Config { persist_mode: PersistMode::Disabled, ..Config::default() };
    let prefixed = Config { tool_prefix: "nb".into(), memory: true, ..Config::default() };
    let deep = Config { max_task_depth: 1, ..Config::default() };
    vec![
        Setup { name: "idle", config: Config::default(), run: |_, _| {} },
        Setup { name: "idle, memory on", config: memory.clone(), run: |_, _| {} },
        Setup { name: "idle, immediate", config: immediate.clone(), run: |_, _| {} },
        Setup { name: "idle, disabled", config: disabled.clone(), run: |_, _| {} },
        Setup { name: "idle, prefix nb", config: prefixed.clone(), run: |_, _| {} },
        Setup {
            name: "choice pending (several matches)",
            config: Config::default(),
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
            },
        },
        Setup {
            name: "choice pending, prefix nb",
            config: prefixed,
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
            },
        },
        Setup {
            name: "choice pending (near miss)",
            config: Config::default(),
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "name: order", "new_text": "name: billing", "path": "a.yaml"}));
                call(h, f, "memo_replace", json!({"old_text": "api.timeout: 31", "new_text": "api.timeout: 60"}));
            },
        },
        Setup {
            name: "a candidate chosen",
            config: Config::default(),
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
                call(h, f, "memo_replace_selection", json!({"selection_id": "B"}));
            },
        },
        Setup {
            name: "pending",
            config: Config::default(),
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "name: orders", "new_text": "name: billing"}));
            },
        },
        Setup {
            name: "pending, disabled",
            config: disabled,
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "name: orders", "new_text": "name: billing"}));
            },
        },
        Setup {
            name: "committed, immediate",
            config: immediate,
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "name: orders", "new_text": "name: billing"}));
            },
        },
        Setup {
            name: "26 letters used",
            config: Config::default(),
            run: |h, f| {
                for i in 1..=26 {
                    call(h, f, "memo_replace", json!({"old_text": format!("l{i:02}"), "new_text": format!("L{i:02}"), "path": "many.md"}));
                }
            },
        },
        Setup {
            name: "26 letters used, then a choice",
            config: Config::default(),
            run: |h, f| {
                for i in 1..=26 {
                    call(h, f, "memo_replace", json!({"old_text": format!("l{i:02}"), "new_text": format!("L{i:02}"), "path": "many.md"}));
                }
                call(h, f, "memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 60"}));
            },
        },
        Setup {
            name: "save failed",
            config: Config::default(),
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "name: orders", "new_text": "name: billing"}));
                h.fail_next_save = true;
                call(h, f, "memo_commit", json!({"summary": "rename"}));
            },
        },
        Setup {
            name: "two documents, the second save failed",
            config: Config::default(),
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "name: orders", "new_text": "name: billing"}));
                call(h, f, "memo_replace", json!({"old_text": "alpha: todo", "new_text": "alpha: done", "path": "notes.md"}));
                h.failing_paths.push("notes.md".into());
                call(h, f, "memo_commit", json!({"summary": "both"}));
            },
        },
        Setup {
            name: "external change under pending changes (not reported yet)",
            config: Config::default(),
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "name: orders", "new_text": "name: billing"}));
                h.external_write("service.yaml", &DOC.replace("# api", "# API"));
            },
        },
        Setup {
            name: "external change under pending changes (reported)",
            config: Config::default(),
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "name: orders", "new_text": "name: billing"}));
                h.external_write("service.yaml", &DOC.replace("name: orders", "name: shop"));
                call(h, f, "memo_append", json!({"text": "x\n"}));
            },
        },
        Setup {
            name: "deleted under pending changes",
            config: Config::default(),
            run: |h, f| {
                call(h, f, "memo_replace", json!({"old_text": "name: orders", "new_text": "name: billing"}));
                h.files.remove("service.yaml");
                h.ws.storage_changed("service.yaml", None, None);
                call(h, f, "memo_read", json!({}));
            },
        },
        Setup {
            name: "external change, nothing pending",
            config: Config::default(),
            run: |h, _| {
                h.external_write("service.yaml", &DOC.replace("# api", "# API"));
            },
        },
        Setup {
            name: "task stack full",
            config: deep,
            run: |h, f| {
                call(h, f, "memo_begin_task", json!({"goal": "outer"}));
            },
        },
        Setup {
            name: "memory with turns",
            config: memory,
            run: |h, _| {
                let turn = json!({"format": "agentpad-memory", "version": 1, "turns": [{"turn": 1, "at_ms": 1.0, "summary": "found the slow parser", "insights": [], "context": "profile", "tags": []}]});
                h.ws.memory_import_value(&turn).unwrap();
            },
        },
    ]
}

fn many() -> String {
    (1..=26).map(|i| format!("l{i:02}\n")).collect::<String>() + "last\n"
}

fn host(config: &Config) -> Host {
    let many = many();
    Host::with_config(&[("service.yaml", DOC), ("notes.md", NOTES), ("many.md", &many)], config.clone())
}

/// Calls of every tool: valid ones, and the usual mistakes.
fn calls() -> Vec<(&'static str, Value)> {
    let mut v = vec![
        ("memo_read", json!({})),
        ("memo_read", json!({"start_line": 2, "end_line": 3, "line_keys": true})),
        ("memo_read", json!({"view": "committed", "path": "notes.md"})),
        ("memo_read", json!({"start_line": 90})),
        ("memo_read", json!({"version": "v0"})),
        ("memo_read", json!({"version": "v1", "path": "notes.md"})),
        ("memo_read", json!({"version": "v9"})),
        ("memo_read", json!({"version": "v1", "view": "committed"})),
        ("memo_commit", json!({"summary": "save"})),
        ("memo_replace", json!({"old_text": "name: orders", "new_text": "name: billing"})),
        ("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 45"})),
        ("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 45", "show_all_matches": true, "preview_only": true})),
        ("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 45", "match_id": "A"})),
        ("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 45", "match_id": "E"})),
        ("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 45", "replace_all": true})),
        ("memo_replace", json!({"old_text": "timeout: 30", "new_text": "timeout: 45", "expected_occurrences": 3})),
        ("memo_replace", json!({"old_text": "nowhere at all", "new_text": "x"})),
        ("memo_replace", json!({"old_text": "name: orders", "new_text": "name: orders"})),
        ("memo_replace", json!({"old_text": "name: orders", "new_text": "y", "expected_fingerprint": "0000000000000000"})),
        ("memo_replace", json!({"old_text": "", "new_text": "x", "replace_all": true})),
        ("memo_replace", json!({"old_text": "timeout: 30", "new_text": "t", "search_after": "no such heading"})),
        ("memo_replace", json!({"old_text": "  name:   orders", "new_text": "name: x", "replace_all": true})),
        ("memo_replace_span", json!({"old_span_start": "# database", "old_span_end": "# api", "new_text": "# db\n# api"})),
        ("memo_replace_span", json!({"old_span_start": "# nothing", "old_span_end": "# api", "new_text": "x"})),
        ("memo_replace_selection", json!({"selection_id": "A"})),
        ("memo_replace_selection", json!({"selection_id": 9})),
        ("memo_replace_lines", json!({"start_key": "2#0000", "new_text": "x"})),
        ("memo_replace_lines", json!({"start_key": "99#0000", "new_text": "x"})),
        ("memo_append", json!({"text": "\nextra: 1\n"})),
        ("memo_append", json!({"text": "x", "path": "nope.md"})),
        ("memo_create", json!({"path": "new.md", "text": "new\n"})),
        ("memo_create", json!({"path": "notes.md", "text": "x"})),
        ("memo_create", json!({"path": "../up.md", "text": "x"})),
        ("memo_append", json!({"text": "x", "path": "new.md"})),
        ("memo_preview", json!({})),
        ("memo_preview", json!({"format": "stats"})),
        ("memo_diff", json!({})),
        ("memo_diff", json!({"against": "storage"})),
        ("memo_commit", json!({"summary": "save"})),
        ("memo_commit_auto", json!({})),
        ("memo_revert", json!({"reason": "no"})),
        ("memo_discard", json!({})),
        ("memo_refresh", json!({})),
        ("memo_rebase", json!({})),
        ("memo_persist_as", json!({"new_path": "service.recovered.yaml"})),
        ("memo_persist_as", json!({"new_path": "../outside.yaml"})),
        ("memo_persist_as", json!({"new_path": "notes.md"})),
        ("memo_begin_task", json!({"goal": "a step"})),
        ("memo_begin_task", json!({"goal": "a step", "parent_task_id": "99"})),
        ("memo_export_session", json!({})),
        ("memo_recall_context", json!({"turn_numbers": [1]})),
        ("memo_recall_context", json!({"turn_numbers": [7]})),
        ("memo_search_memory", json!({"query": "parser"})),
        ("memo_find", json!({"query": "timeout"})),
        ("memo_find", json!({"query": "kubernetes"})),
        ("memo_read", json!({"unit": "A"})),
        ("memo_replace", json!({"old_text": "30", "new_text": "31", "within": "A"})),
        ("memo_replace_selection", json!({"selection_id": "A", "new_text": "x: 1"})),
        // The usual mistakes.
        ("memo_nope", json!({})),
        ("memo_replace", json!({"old_text": "a"})),
        ("memo_replace", json!({"old_text": 5, "new_text": "x"})),
        ("memo_replace", json!({"old_text": "a", "new_text": "b", "oldText": "a"})),
        ("memo_replace", json!({"old_text": "a", "new_text": "b", "match_id": "b"})),
        ("memo_read", json!({"start_line": 0})),
        ("memo_read", json!({"start_line": 1e12})),
        ("memo_read", json!([1])),
        ("memo_read", json!({"path": "nope.md"})),
        ("memo_recall_context", json!({"turn_numbers": [1.5]})),
    ];
    for tool in Tool::ALL {
        // Every tool with no arguments at all: a missing argument or a plain call.
        v.push((Box::leak(tool.name("memo").into_boxed_str()), json!({})));
    }
    v
}

/// A small deterministic generator (xorshift64*): the random calls are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

#[test]
fn every_guidance_names_a_visible_tool_with_valid_arguments() {
    let mut f = Findings::default();
    let calls = calls();
    for setup in setups() {
        for (name, args) in &calls {
            let mut h = host(&setup.config);
            (setup.run)(&mut h, &mut f);
            call(&mut h, &mut f, name, args.clone());
        }
        // A seeded random walk from the state: sequences reach what single calls do not.
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ setup.name.len() as u64);
        let mut h = host(&setup.config);
        (setup.run)(&mut h, &mut f);
        for step in 0..120 {
            let (name, args) = &calls[rng.below(calls.len())];
            if step % 17 == 16 {
                h.fail_next_save = true;
            }
            if step % 29 == 28 {
                let text = h.files.get("notes.md").map(|(t, _)| t.clone()).unwrap_or_default();
                h.external_write("notes.md", &(text + "- more\n"));
            }
            call(&mut h, &mut f, name, args.clone());
        }
    }
    assert!(f.guidances > 2_000 && f.mentions > 2_000, "the walk checked {} guidances naming {} tools", f.guidances, f.mentions);
    assert!(f.broken.is_empty(), "{} broken guidance(s):\n{}", f.broken.len(), f.broken.join("\n"));
}

#[test]
fn the_checker_finds_what_it_should() {
    let visible: Vec<String> = ["memo_read", "memo_commit", "memo_diff"].map(String::from).to_vec();
    let ok = |t: &str| mentions(t, "memo").iter().all(|m| check(m, "memo", &visible).is_none());
    assert!(ok("Call memo_commit(summary) or memo_diff(against=\"storage\"); memo_read shows it."));
    assert!(!ok("Call memo_revert(reason)."), "hidden tool");
    assert!(!ok("Call memo_diff(against=\"disk\")."), "value outside the enum");
    assert!(!ok("Call memo_commit(message)."), "no such argument");
    assert!(!ok("Call memo_commit()."), "a required argument left out");
    assert!(!ok("Call memo_frobnicate."), "no such tool");
    assert!(ok("Call memo_diff(against=\"base\"–\"storage\")."), "a range of allowed values");
    assert!(!ok("Call memo_diff(against=\"base\"–\"disk\")."), "a range ending outside the enum");
    assert_eq!(mentions("xmemo_read and memo_read(start_line=3)", "memo").len(), 1);
    assert_eq!(split_args("a, b=\"x, y\", c=3"), vec!["a", "b=\"x, y\"", "c=3"]);
}
