//! The module graph of `src/` (docs/architecture.md#module-map): built from the source text, it
//! has no cycle, and no module below `workspace` imports `workspace` or anything above it.
//!
//! A module is a top-level module of `src/` (`src/x.rs` or `src/x/`). An edge `a → b` is a path
//! `crate::b…` (also inside `use crate::{…}` groups, and `super::b` in a top-level file) anywhere
//! in `a`'s files, its test modules included; comments and string literals are left out. A path
//! through a root re-export (`crate::Response`) counts as its module, read from `src/lib.rs`'s
//! `pub use` lines; a root path that is neither fails the test, so nothing is silently missed.
//!
//! The top is `lib.rs` (declares and re-exports everything), `wasm.rs` (the binding),
//! `storage` (runs a workspace's steps against a storage) and `typescript.rs` (test-only tooling
//! that renders the types of every module); `workspace` dispatches calls over every module below it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Modules above `workspace`: they may import anything, nothing below imports them.
const TOP: &[&str] = &["lib", "wasm", "host_texts", "storage", "typescript"];
const WORKSPACE: &str = "workspace";

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every `.rs` file under `dir`, with its path relative to `dir`.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                out.push((path.strip_prefix(dir).expect("under src").to_path_buf(), text));
            }
        }
    }
    out.sort();
    out
}

/// The top-level module a file belongs to: `workspace/edit/stage.rs` → `workspace`, `lib.rs` → `lib`.
fn module_of(rel: &Path) -> String {
    let first = rel.components().next().expect("a file path").as_os_str().to_string_lossy().to_string();
    first.strip_suffix(".rs").unwrap_or(&first).to_string()
}

/// `src` with comments and the contents of string and char literals blanked out (paths inside
/// format strings or docs are not imports). Lifetimes (`'a`) are kept as code.
fn code_only(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !chars.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    _ => j += 1,
                }
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{1f}') or a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    out.push_str("' '");
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first segment of every path after `prefix` (`crate::`, `super::`) in `code`: `crate::a::b`
/// → `a`, `crate::{a::b, c}` → `a`, `c`. `$crate::` (macros) and `x::crate` are not matched.
fn first_segments(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find(prefix) {
        let start = from + at;
        from = start + prefix.len();
        if code[..start].chars().next_back().is_some_and(|p| is_ident(p) || p == '$' || p == ':') {
            continue;
        }
        let rest = code[from..].trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            // Items of the group at depth 0, each up to its first `::`.
            let (mut depth, mut item) = (0usize, String::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.extend(segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            out.extend(segment(&item));
        } else {
            out.extend(segment(rest));
        }
    }
    out
}

fn segment(s: &str) -> Option<String> {
    let name: String = s.trim_start().chars().take_while(|c| is_ident(*c)).collect();
    (!name.is_empty() && name != "self" && name != "super").then_some(name)
}

/// Root re-exports of `lib.rs` (`pub use response::{Response, Status};`): item name → module.
fn root_exports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in code_only(lib).split(';') {
        let Some(path) = stmt.trim().strip_prefix("pub use ") else { continue };
        let Some((module, items)) = path.split_once("::") else { continue };
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let name = item.rsplit("::").next().unwrap_or(item).split(" as ").last().unwrap_or(item).trim();
            if !name.is_empty() {
                out.insert(name.to_string(), module.trim().to_string());
            }
        }
    }
    out
}

/// The module graph of the files (paths relative to `src/`). Errors name paths that resolve to
/// no module.
fn graph(files: &[(PathBuf, String)]) -> Result<Graph, Vec<String>> {
    let modules: BTreeSet<String> = files.iter().map(|(p, _)| module_of(p)).collect();
    let lib = files.iter().find(|(p, _)| p == Path::new("lib.rs")).map(|(_, t)| t.as_str()).unwrap_or("");
    let exports = root_exports(lib);
    let mut g = Graph::new();
    let mut unresolved = Vec::new();
    for (path, text) in files {
        let from = module_of(path);
        let code = code_only(text);
        let mut names = first_segments(&code, "crate::");
        // In a top-level file, `super::` is the crate root.
        if path.components().count() == 1 {
            names.extend(first_segments(&code, "super::").into_iter().filter(|n| modules.contains(n)));
        }
        let deps = g.entry(from.clone()).or_default();
        for name in names {
            let to = if modules.contains(&name) {
                name
            } else if let Some(m) = exports.get(&name) {
                m.clone()
            } else {
                unresolved.push(format!("{}: crate::{name} is neither a module nor a root re-export", path.display()));
                continue;
            };
            if to != from {
                deps.insert(to);
            }
        }
    }
    if unresolved.is_empty() {
        Ok(g)
    } else {
        Err(unresolved)
    }
}

/// Every cycle's modules, one cycle per strongly connected component, as `a → b → a`.
fn cycles(g: &Graph) -> Vec<String> {
    // Tarjan's algorithm, recursive: the graph has a few dozen nodes.
    struct State<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        components: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w);
                if w == v {
                    break;
                }
            }
            s.components.push(component);
        }
    }
    let mut s =
        State { g, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on_stack: BTreeSet::new(), components: Vec::new() };
    for v in g.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    let mut out = Vec::new();
    for component in s.components.iter().filter(|c| c.len() > 1) {
        let members: BTreeSet<&str> = component.iter().copied().collect();
        out.push(cycle_through(g, &members));
    }
    out
}

/// One cycle inside a strongly connected component, from its first module back to it: a
/// breadth-first search for the shortest way home.
fn cycle_through(g: &Graph, members: &BTreeSet<&str>) -> String {
    let start = *members.iter().next().expect("a component");
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in g.get(v).into_iter().flatten().map(String::as_str).filter(|w| members.contains(w)) {
            if w == start {
                // start → … → v, then back to start.
                let mut path = vec![v];
                let mut at = v;
                while let Some(&p) = came_from.get(at) {
                    path.push(p);
                    at = p;
                }
                path.reverse();
                path.push(start);
                return path.join(" → ");
            }
            if w != start && !came_from.contains_key(w) {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    members.iter().copied().collect::<Vec<_>>().join(", ")
}

/// Edges from a module below `workspace` to `workspace` or a module above it.
fn layering_violations(g: &Graph) -> Vec<String> {
    let above: BTreeSet<&str> = TOP.iter().copied().chain([WORKSPACE]).collect();
    let mut out = Vec::new();
    for (from, deps) in g {
        if above.contains(from.as_str()) {
            continue;
        }
        for to in deps.iter().filter(|d| above.contains(d.as_str())) {
            out.push(format!("{from} → {to}"));
        }
    }
    out
}

fn render(g: &Graph) -> String {
    g.iter().map(|(m, deps)| format!("  {m} → {}\n", deps.iter().cloned().collect::<Vec<_>>().join(", "))).collect()
}

fn check(files: &[(PathBuf, String)]) -> Result<Graph, String> {
    let g = graph(files).map_err(|e| e.join("\n"))?;
    let mut problems = Vec::new();
    for c in cycles(&g) {
        problems.push(format!("import cycle: {c}"));
    }
    for v in layering_violations(&g) {
        problems.push(format!("a module below workspace imports workspace or a module above it: {v}"));
    }
    if problems.is_empty() {
        Ok(g)
    } else {
        Err(format!("{}\n\nthe module graph:\n{}", problems.join("\n"), render(&g)))
    }
}

#[test]
fn src_has_no_import_cycle_and_nothing_below_workspace_imports_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = sources(&src);
    assert!(files.len() > 20, "read {} files under {}", files.len(), src.display());
    match check(&files) {
        Ok(g) => {
            // Where the layers are: these edges are the reason for the test.
            assert!(g["workspace"].contains("response") && g["format"].contains("response"), "{}", render(&g));
            eprintln!("the module graph of src/:\n{}", render(&g));
        }
        Err(e) => panic!("{e}"),
    }
}

fn files(list: &[(&str, &str)]) -> Vec<(PathBuf, String)> {
    list.iter().map(|(p, t)| (PathBuf::from(p), t.to_string())).collect()
}

#[test]
fn a_planted_cycle_is_named() {
    let tree = files(&[
        ("lib.rs", "pub mod a; pub mod b; pub mod c; pub use a::Thing;"),
        ("a.rs", "use crate::{b::X, c};\n// crate::c in a comment is no import\npub struct Thing;"),
        ("b/mod.rs", "mod inner;"),
        ("b/inner.rs", "fn f() -> crate::Thing { let _ = \"crate::c\"; crate::Thing }"),
        ("c.rs", "use super::b;"),
    ]);
    let e = check(&tree).expect_err("a → b → a is a cycle");
    assert!(e.contains("import cycle: a → b → a"), "{e}");
    assert!(!e.contains("a → c → a") && !e.contains("b → c"), "comments and strings are not imports: {e}");
}

#[test]
fn a_module_below_workspace_importing_it_is_named() {
    let tree = files(&[
        ("lib.rs", "pub mod response; pub mod workspace; pub mod wasm;"),
        ("workspace/mod.rs", "use crate::response::Response;"),
        ("response.rs", "pub struct R { log: Vec<crate::workspace::LogEntry> }"),
        ("wasm.rs", "use crate::workspace::Workspace;"),
    ]);
    let e = check(&tree).expect_err("response imports workspace");
    assert!(e.contains("below workspace imports workspace or a module above it: response → workspace"), "{e}");
    assert!(!e.contains("above it: wasm"), "the binding is above: {e}");
}

#[test]
fn an_unknown_root_path_fails_instead_of_being_skipped() {
    let tree = files(&[("lib.rs", "pub mod a;"), ("a.rs", "fn f() { crate::nowhere::g() }")]);
    let e = check(&tree).expect_err("unresolved");
    assert!(e.contains("a.rs: crate::nowhere is neither a module nor a root re-export"), "{e}");
}

#[test]
fn literals_and_lifetimes_are_read_right() {
    let code = code_only("fn f<'a>(x: &'a str) -> char { let _ = r#\"crate::a\"#; let _ = '\\''; let _ = '\"'; crate::b::g() }");
    assert_eq!(first_segments(&code, "crate::"), vec!["b".to_string()], "{code}");
    assert!(code.contains("<'a>"), "{code}");
}

// ---- file length ---------------------------------------------------------------------------

/// A source file says one thing: at most this many lines before its tests (docs/architecture.md).
const MAX_SOURCE_LINES: usize = 1_000;

/// Lines of `text` before its first `#[cfg(test)]` item at the start of a line (all of it when
/// there is none); a file that is itself a test module counts whole.
fn lines_before_tests(text: &str) -> usize {
    text.lines().take_while(|l| !l.starts_with("#[cfg(test)]")).count()
}

/// Files under `dir` (relative to the crate root) whose name ends in one of `exts`, skipping
/// installed packages, build outputs and generated code.
fn files_under(dir: &str, exts: &[&str]) -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut stack = vec![root.join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for entry in entries {
            let path = entry.expect("directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            if path.is_dir() {
                if !["node_modules", "dist", "pkg", "generated", "target"].contains(&name.as_str()) {
                    stack.push(path);
                }
            } else if exts.iter().any(|e| name.ends_with(e)) && !name.ends_with(".d.ts") {
                let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                out.push((path.strip_prefix(root).expect("under the crate").to_path_buf(), text));
            }
        }
    }
    out
}

fn too_long(files: &[(PathBuf, String)]) -> Vec<String> {
    let mut long: Vec<String> = files
        .iter()
        .map(|(p, t)| (p, lines_before_tests(t)))
        .filter(|(_, n)| *n > MAX_SOURCE_LINES)
        .map(|(p, n)| format!("{} has {n} lines before its tests (at most {MAX_SOURCE_LINES})", p.display()))
        .collect();
    long.sort();
    long
}

#[test]
fn no_source_file_is_over_a_thousand_lines_before_its_tests() {
    // Tests and benchmarks are code a newcomer reads too: the rule holds for them as well.
    let mut files = files_under("src", &[".rs"]);
    for dir in ["tests", "bench/native"] {
        files.extend(files_under(dir, &[".rs"]));
    }
    let scripts = [
        "www/src",
        "www/test",
        "www/scripts",
        "www/examples",
        "www/consumer",
        "www/playground/src",
        "www/playground/test",
        "www/mcp",
        "www/yjs/src",
        "www/yjs/bin",
        "www/yjs/test",
        "www/yjs/consumer",
        "bench/edits/src",
        "bench/edits/test",
        "bench/edits/tools",
        "bench/speed",
        "bench/coedit",
        "scripts",
    ];
    for dir in scripts {
        files.extend(files_under(dir, &[".ts", ".js", ".mjs"]));
    }
    assert!(files.len() > 50, "found only {} source files: is the layout still src/ and www/?", files.len());
    let long = too_long(&files);
    assert!(long.is_empty(), "split these along their seams:\n{}", long.join("\n"));
}

#[test]
fn a_long_file_is_named_and_its_tests_do_not_count() {
    let body = "fn f() {}\n".repeat(MAX_SOURCE_LINES);
    let tests = format!("#[cfg(test)]\nmod tests {{\n{}}}\n", "// t\n".repeat(500));
    let ok = files(&[("a.rs", &format!("{body}{tests}"))]);
    assert!(too_long(&ok).is_empty());
    let long = files(&[("b.rs", &format!("{body}fn g() {{}}\n"))]);
    assert_eq!(too_long(&long), vec![format!("b.rs has {} lines before its tests (at most {MAX_SOURCE_LINES})", MAX_SOURCE_LINES + 1)]);
}
