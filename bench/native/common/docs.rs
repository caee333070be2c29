//! Deterministic benchmark documents — a line-by-line port of `bench/speed/lib/docs.mjs`.
//!
//! The JS harness generates the same documents; the report step checks that both generators
//! produced byte-identical text (length and FNV-1a hash, written by [`write_fingerprints`]), so
//! native and wasm numbers are measured on the same input. Any change here must be mirrored there.
//!
//! Kinds: `code` (Rust-like functions), `markdown` (sections, lists, notes), `cjk` (the Markdown
//! layout with Chinese prose). Every document has repeated boilerplate lines (the 30-char `all`
//! needle occurs many times), one unique line (the `unique` needle, at ~62 %) and one indented
//! three-line block (at ~81 %) that the `fuzzy` needle matches only when indentation is ignored.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub const KB: usize = 1000;
pub const MB: usize = 1000 * KB;
pub const SIZES: [(&str, usize); 4] = [("10KB", 10 * KB), ("100KB", 100 * KB), ("1MB", MB), ("10MB", 10 * MB)];
pub const KINDS: [&str; 3] = ["code", "markdown", "cjk"];
pub const DEFAULT_DOCS: &str = "code-1MB,code-10MB,cjk-1MB";

/// mulberry32 — the same 32-bit generator as the JS side (`Math.imul` = `wrapping_mul`).
pub struct Rng {
    a: u32,
}

impl Rng {
    pub fn new(seed: u32) -> Rng {
        Rng { a: seed }
    }
    pub fn next(&mut self) -> u32 {
        self.a = self.a.wrapping_add(0x6d2b_79f5);
        let mut t = self.a;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }
    pub fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
    pub fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len() as u32) as usize]
    }
}

fn seed(kind: &str) -> u32 {
    match kind {
        "code" => 0x9e37_79b9,
        "markdown" => 0x85eb_ca6b,
        "cjk" => 0xc2b2_ae35,
        _ => unreachable!(),
    }
}

const WORDS: [&str; 40] = [
    "alpha", "buffer", "cache", "delta", "entry", "frame", "graph", "handle", "index", "join", "kernel", "layout", "mirror", "node",
    "offset", "parser", "query", "range", "state", "token", "update", "value", "window", "yield", "zone", "batch", "cursor", "digest",
    "event", "filter", "group", "header", "input", "label", "matrix", "output", "packet", "record", "schema", "table",
];
const TYPES: [&str; 10] = ["Config", "Request", "Document", "Buffer", "Span", "Entry", "Record", "Vec<u8>", "String", "Table"];
const METHODS: [&str; 10] = ["parse", "lookup", "resolve", "split_at", "get", "merge", "encode", "decode", "flush", "apply"];
const PREDICATES: [&str; 5] = ["is_empty", "is_stale", "is_locked", "is_dirty", "is_closed"];

const CODE_BOILER: [&str; 4] = [
    "    let config = Config::load_from_env().map_err(Error::from)?;",
    "    tracing::debug!(target: \"agentpad\", \"entering {}\", module_path!());",
    "    let _guard = span.enter();",
    "    debug_assert!(self.invariants_hold(), \"invariant broken\");",
];
const MD_BOILER: [&str; 3] = [
    "- [ ] Update the changelog and bump the version number before tagging.",
    "> **Note:** this section is generated; edit the template, not this file.",
    "- [ ] Run the full test suite on the release branch.",
];
const CJK_BOILER: [&str; 3] = [
    "- [ ] 更新变更日志并提升版本号，然后通知所有相关的维护人员与测试人员。",
    "> **注意：** 本节内容由模板自动生成，请修改模板而不是直接编辑此文件。",
    "- [ ] 在发布分支上运行完整的测试套件。",
];
const CJK_PHRASES: [&str; 20] = [
    "文档",
    "编辑器",
    "缓冲区",
    "索引",
    "范围",
    "状态",
    "提交",
    "回滚",
    "预览",
    "匹配",
    "候选项",
    "修改",
    "版本",
    "存储",
    "同步",
    "差异",
    "光标",
    "字符",
    "段落",
    "标题",
];
const CJK_LINKS: [&str; 8] = ["的", "和", "在", "把", "对", "与", "中", "后"];

/// The needles of one kind (see the module doc). `fuzzy_doc` is the block as it is in the
/// document; `fuzzy` is the same block indented differently.
#[derive(Clone, Debug)]
pub struct Needles {
    pub all: &'static str,
    pub unique: &'static str,
    pub fuzzy_doc: String,
    pub fuzzy: String,
}

pub fn needles(kind: &str) -> Needles {
    match kind {
        "code" => Needles {
            all: "let config = Config::load_from",
            unique: "    let ledger = reconcile_quarterly_ledger(&snapshot, Mode::Strict)?;",
            fuzzy_doc: [
                "    // audit: compare the staged totals before the flush",
                "    let drift = totals.expected - totals.observed;",
                "    assert!(drift.abs() < TOLERANCE, \"ledger drift {drift}\");",
            ]
            .join("\n"),
            fuzzy: [
                "  // audit: compare the staged totals before the flush",
                "  let drift = totals.expected - totals.observed;",
                "  assert!(drift.abs() < TOLERANCE, \"ledger drift {drift}\");",
            ]
            .join("\n"),
        },
        "markdown" => Needles {
            all: "- [ ] Update the changelog and",
            unique: "The quarterly reconciliation ledger must be signed by two auditors.",
            fuzzy_doc: [
                "- Audit checklist",
                "    - compare the staged totals before the flush",
                "    - record the drift between expected and observed",
            ]
            .join("\n"),
            fuzzy: [
                "- Audit checklist",
                "  - compare the staged totals before the flush",
                "  - record the drift between expected and observed",
            ]
            .join("\n"),
        },
        "cjk" => Needles {
            all: "- [ ] 更新变更日志并提升版本号，然后通知所有相关的维护",
            unique: "季度对账总账必须由两名审计员签字确认后方可归档。",
            fuzzy_doc: ["- 审计清单", "    - 在刷新之前比较暂存的合计", "    - 记录预期值与观测值之间的偏差"].join("\n"),
            fuzzy: ["- 审计清单", "  - 在刷新之前比较暂存的合计", "  - 记录预期值与观测值之间的偏差"].join("\n"),
        },
        _ => panic!("unknown document kind {kind:?}"),
    }
}

fn word(r: &mut Rng) -> &'static str {
    r.pick(&WORDS)
}

fn code_block(r: &mut Rng, out: &mut Vec<String>) {
    let a = word(r);
    let b = word(r);
    let n0 = r.below(1000);
    let arg = word(r);
    let t1 = r.pick(&TYPES);
    let t2 = r.pick(&TYPES);
    out.push(format!("fn {a}_{b}_{n0}({arg}: &{t1}) -> Result<{t2}, Error> {{"));
    let n = 2 + r.below(6);
    for _ in 0..n {
        let k = r.below(10);
        if k < 3 {
            let w = word(r);
            let m = r.pick(&METHODS);
            let x = r.below(100);
            out.push(format!("    let {w} = {a}.{m}({x})?;"));
        } else if k < 5 {
            let p = r.pick(&PREDICATES);
            out.push(format!("    if {b}.{p}() {{"));
            let w1 = word(r);
            let w2 = word(r);
            out.push(format!("        return Err(Error::invalid(\"{w1} {w2}\"));"));
            out.push("    }".to_string());
        } else if k < 7 {
            let w1 = word(r);
            let w2 = word(r);
            let w3 = word(r);
            out.push(format!("    // {w1} the {w2} before the {w3}"));
        } else if k < 9 {
            out.push(r.pick(&CODE_BOILER).to_string());
        } else {
            let x = r.below(10000);
            out.push(format!("    {a}.push_str(&format!(\"{{}}-{{}}\", {b}, {x}));"));
        }
    }
    out.push(format!("    Ok({a}.into())"));
    out.push("}".to_string());
    out.push(String::new());
}

fn sentence(r: &mut Rng) -> String {
    let n = 5 + r.below(9);
    let words: Vec<&str> = (0..n).map(|_| word(r)).collect();
    let s = words.join(" ");
    let mut out = String::with_capacity(s.len() + 1);
    out.push(s.as_bytes()[0].to_ascii_uppercase() as char);
    out.push_str(&s[1..]);
    out.push('.');
    out
}

fn markdown_block(r: &mut Rng, out: &mut Vec<String>) {
    let w1 = word(r);
    let w2 = word(r);
    let x = r.below(1000);
    out.push(format!("## {w1} {w2} {x}"));
    out.push(String::new());
    let n = 2 + r.below(6);
    for _ in 0..n {
        let k = r.below(10);
        if k < 3 {
            let s1 = sentence(r);
            let s2 = sentence(r);
            out.push(format!("{s1} {s2}"));
        } else if k < 5 {
            let s1 = sentence(r);
            out.push(format!("- {s1}"));
            let s2 = sentence(r);
            out.push(format!("    - {s2}"));
        } else if k < 7 {
            let w1 = word(r);
            let w2 = word(r);
            let s = sentence(r);
            out.push(format!("`{w1}_{w2}` {s}"));
        } else if k < 9 {
            out.push(r.pick(&MD_BOILER).to_string());
        } else {
            let w1 = word(r);
            let x = r.below(10000);
            let w2 = word(r);
            out.push(format!("| {w1} | {x} | {w2} |"));
        }
    }
    out.push(String::new());
}

fn cjk_sentence(r: &mut Rng) -> String {
    let n = 4 + r.below(8);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push_str(r.pick(&CJK_LINKS));
        }
        s.push_str(r.pick(&CJK_PHRASES));
    }
    s.push('。');
    s
}

fn cjk_block(r: &mut Rng, out: &mut Vec<String>) {
    let p1 = r.pick(&CJK_PHRASES);
    let p2 = r.pick(&CJK_PHRASES);
    let x = r.below(1000);
    out.push(format!("## {p1}{p2} {x}"));
    out.push(String::new());
    let n = 2 + r.below(6);
    for _ in 0..n {
        let k = r.below(10);
        if k < 3 {
            let s1 = cjk_sentence(r);
            let s2 = cjk_sentence(r);
            out.push(format!("{s1}{s2}"));
        } else if k < 5 {
            let s1 = cjk_sentence(r);
            out.push(format!("- {s1}"));
            let s2 = cjk_sentence(r);
            out.push(format!("    - {s2}"));
        } else if k < 7 {
            let w1 = word(r);
            let w2 = word(r);
            let s = cjk_sentence(r);
            out.push(format!("`{w1}_{w2}` {s}"));
        } else if k < 9 {
            out.push(r.pick(&CJK_BOILER).to_string());
        } else {
            let p = r.pick(&CJK_PHRASES);
            let x = r.below(10000);
            let w = word(r);
            out.push(format!("| {p} | {x} | {w} |"));
        }
    }
    out.push(String::new());
}

/// One generated document.
pub struct Doc {
    /// `KIND-SIZE`, e.g. `code-1MB`.
    pub name: String,
    pub kind: &'static str,
    pub size: &'static str,
    pub text: String,
    pub needles: Needles,
}

fn size_bytes(size: &str) -> usize {
    SIZES.iter().find(|(n, _)| *n == size).unwrap_or_else(|| panic!("unknown size {size:?}")).1
}

/// The document of `kind` with at least `size` UTF-8 bytes (whole lines; ends with "\n").
pub fn generate(kind: &str, size: &str) -> Doc {
    let kind: &'static str = KINDS.iter().copied().find(|k| *k == kind).unwrap_or_else(|| panic!("unknown kind {kind:?}"));
    let size_name: &'static str = SIZES.iter().find(|(n, _)| *n == size).map(|(n, _)| *n).unwrap();
    let target = size_bytes(size) as u64;
    let mut r = Rng::new(seed(kind));
    let needles = needles(kind);
    let mut lines: Vec<String> = Vec::new();
    let mut bytes: u64 = 0;
    let (mut unique_done, mut fuzzy_done) = (false, false);
    let mut block: Vec<String> = Vec::new();
    while bytes < target {
        block.clear();
        if !unique_done && bytes * 100 >= target * 62 {
            unique_done = true;
            block.push(needles.unique.to_string());
            block.push(String::new());
        } else if !fuzzy_done && bytes * 100 >= target * 81 {
            fuzzy_done = true;
            block.push(needles.fuzzy_doc.clone());
            block.push(String::new());
        } else {
            match kind {
                "code" => code_block(&mut r, &mut block),
                "markdown" => markdown_block(&mut r, &mut block),
                _ => cjk_block(&mut r, &mut block),
            }
        }
        for line in block.drain(..) {
            bytes += line.len() as u64 + 1;
            lines.push(line);
        }
    }
    if !unique_done {
        lines.push(needles.unique.to_string());
    }
    if !fuzzy_done {
        lines.push(needles.fuzzy_doc.clone());
    }
    let mut text = lines.join("\n");
    text.push('\n');
    Doc { name: format!("{kind}-{size_name}"), kind, size: size_name, text, needles }
}

/// Lines shorter than this (in chars) are never picked by [`spread_needles`].
pub const SPREAD_MIN_CHARS: usize = 24;

/// One line picked by [`spread_needles`]: its 0-based line number and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spread {
    pub line: usize,
    pub text: String,
}

/// `count` lines of `text` spread through it, in document order, each occurring exactly once in
/// the whole text (as a substring, overlaps counted): the needles of the multi-change session
/// benches. The i-th is the first line at or after line ⌊n·(2i+1)/(2·count)⌋ (0-based, n =
/// number of `'\n'`-separated pieces) that comes after the previous pick, has at least
/// [`SPREAD_MIN_CHARS`] chars and is unique. The same as `spreadNeedles` in
/// `bench/speed/lib/docs.mjs`: picked from the generated text, so the documents (and their
/// fingerprints) do not change.
pub fn spread_needles(text: &str, count: usize) -> Vec<Spread> {
    use memchr::memmem;
    let lines: Vec<&str> = text.split('\n').collect();
    let n = lines.len();
    let bytes = text.as_bytes();
    let mut picked = Vec::with_capacity(count);
    let mut after: Option<usize> = None;
    for i in 0..count {
        let start = (n * (2 * i + 1)) / (2 * count);
        let mut j = after.map_or(start, |a| start.max(a + 1));
        while j < n {
            let line = lines[j];
            if line.chars().count() >= SPREAD_MIN_CHARS {
                if let Some(first) = memmem::find(bytes, line.as_bytes()) {
                    // A match of valid UTF-8 starts on a char boundary, so byte search from
                    // first + 1 finds what JS's indexOf(line, first + 1) finds.
                    if memmem::find(&bytes[first + 1..], line.as_bytes()).is_none() {
                        break;
                    }
                }
            }
            j += 1;
        }
        assert!(j < n, "spread_needles: found only {} of {count} unique lines", picked.len());
        picked.push(Spread { line: j, text: lines[j].to_string() });
        after = Some(j);
    }
    picked
}

/// FNV-1a (32-bit) of the UTF-8 bytes, as 8 hex digits.
pub fn fnv1a32(text: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for &b in text.as_bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

/// `"code-1MB,code-10MB"` → `[("code", "1MB"), ("code", "10MB")]`.
pub fn parse_doc_list(spec: &str) -> Vec<(String, String)> {
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (kind, size) = s.split_once('-').unwrap_or_else(|| panic!("bad document name {s:?}: use KIND-SIZE"));
            assert!(KINDS.contains(&kind), "bad document kind in {s:?}: use one of {KINDS:?}");
            assert!(SIZES.iter().any(|(n, _)| *n == size), "bad document size in {s:?}");
            (kind.to_string(), size.to_string())
        })
        .collect()
}

/// The documents to benchmark: `AGENTPAD_BENCH_DOCS` (same variable as the JS harness) or the default.
pub fn selected_docs() -> Vec<Doc> {
    let spec = std::env::var("AGENTPAD_BENCH_DOCS").unwrap_or_else(|_| DEFAULT_DOCS.to_string());
    parse_doc_list(&spec).iter().map(|(k, s)| generate(k, s)).collect()
}

/// Where bench side files go: `AGENTPAD_BENCH_OUT` (build.sh sets it to `<target>/bench`), else
/// `<CARGO_TARGET_DIR or ./target>/bench`.
pub fn out_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("AGENTPAD_BENCH_OUT") {
        return PathBuf::from(dir);
    }
    let target =
        std::env::var("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("bench")
}

/// Writes `<out>/native-docs-<suite>.json`: name, bytes, lines and hash of every document (the
/// report step compares them with the JS generator's).
pub fn write_fingerprints(suite: &str, docs: &[Doc]) {
    let dir = out_dir();
    std::fs::create_dir_all(&dir).expect("create the bench output directory");
    let entries: Vec<String> = docs
        .iter()
        .map(|d| {
            format!(
                "  {{\"name\": \"{}\", \"bytes\": {}, \"lines\": {}, \"fnv1a32\": \"{}\"}}",
                d.name,
                d.text.len(),
                d.text.bytes().filter(|&b| b == b'\n').count(),
                fnv1a32(&d.text)
            )
        })
        .collect();
    let path = dir.join(format!("native-docs-{suite}.json"));
    std::fs::write(&path, format!("[\n{}\n]\n", entries.join(",\n"))).expect("write the document fingerprints");
}
