// Deterministic benchmark documents. The SAME generator is implemented in Rust in
// bench/native/common/docs.rs; the report step checks that both produced byte-identical documents
// (length and FNV-1a hash), so native and wasm numbers are measured on the same input.
// Any change here must be mirrored there, line by line.
//
// Kinds: "code" (Rust-like functions), "markdown" (sections, lists, notes), "cjk" (the Markdown
// layout with Chinese prose). Every document has, besides its random text:
//   - repeated boilerplate lines (the locate-all needle `all`, 30 chars, occurs many times);
//   - one unique line (the `unique` needle, at ~62 % of the document);
//   - one indented three-line block (at ~81 %) that the `fuzzy` needle matches only when
//     indentation is ignored (the needle is indented differently, so the exact search fails).

export const KB = 1000;
export const MB = 1000 * KB;
export const SIZES = { "10KB": 10 * KB, "100KB": 100 * KB, "1MB": MB, "10MB": 10 * MB };
export const KINDS = ["code", "markdown", "cjk"];

/** mulberry32: 32-bit state, exact in JS (Math.imul) and Rust (wrapping ops). */
export class Rng {
  constructor(seed) {
    this.a = seed >>> 0;
  }
  next() {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  below(n) {
    return this.next() % n;
  }
  pick(list) {
    return list[this.below(list.length)];
  }
}

const SEEDS = { code: 0x9e3779b9, markdown: 0x85ebca6b, cjk: 0xc2b2ae35 };

const WORDS = [
  "alpha", "buffer", "cache", "delta", "entry", "frame", "graph", "handle", "index", "join",
  "kernel", "layout", "mirror", "node", "offset", "parser", "query", "range", "state", "token",
  "update", "value", "window", "yield", "zone", "batch", "cursor", "digest", "event", "filter",
  "group", "header", "input", "label", "matrix", "output", "packet", "record", "schema", "table",
];
const TYPES = ["Config", "Request", "Document", "Buffer", "Span", "Entry", "Record", "Vec<u8>", "String", "Table"];
const METHODS = ["parse", "lookup", "resolve", "split_at", "get", "merge", "encode", "decode", "flush", "apply"];
const PREDICATES = ["is_empty", "is_stale", "is_locked", "is_dirty", "is_closed"];

const CODE_BOILER = [
  "    let config = Config::load_from_env().map_err(Error::from)?;",
  '    tracing::debug!(target: "agentpad", "entering {}", module_path!());',
  "    let _guard = span.enter();",
  "    debug_assert!(self.invariants_hold(), \"invariant broken\");",
];
const MD_BOILER = [
  "- [ ] Update the changelog and bump the version number before tagging.",
  "> **Note:** this section is generated; edit the template, not this file.",
  "- [ ] Run the full test suite on the release branch.",
];
const CJK_BOILER = [
  "- [ ] 更新变更日志并提升版本号，然后通知所有相关的维护人员与测试人员。",
  "> **注意：** 本节内容由模板自动生成，请修改模板而不是直接编辑此文件。",
  "- [ ] 在发布分支上运行完整的测试套件。",
];
const CJK_PHRASES = [
  "文档", "编辑器", "缓冲区", "索引", "范围", "状态", "提交", "回滚", "预览", "匹配",
  "候选项", "修改", "版本", "存储", "同步", "差异", "光标", "字符", "段落", "标题",
];
const CJK_LINKS = ["的", "和", "在", "把", "对", "与", "中", "后"];

/** The needles of each kind: `all` (30 chars, many hits), `unique` (one exact hit), `fuzzy`
 * (no exact hit; one hit when indentation is ignored), and `fuzzyDoc` (the block as it is in
 * the document, which the fuzzy needle must find). */
export const NEEDLES = {
  code: {
    all: "let config = Config::load_from",
    unique: "    let ledger = reconcile_quarterly_ledger(&snapshot, Mode::Strict)?;",
    fuzzyDoc: [
      "    // audit: compare the staged totals before the flush",
      "    let drift = totals.expected - totals.observed;",
      '    assert!(drift.abs() < TOLERANCE, "ledger drift {drift}");',
    ].join("\n"),
    fuzzy: [
      "  // audit: compare the staged totals before the flush",
      "  let drift = totals.expected - totals.observed;",
      '  assert!(drift.abs() < TOLERANCE, "ledger drift {drift}");',
    ].join("\n"),
  },
  markdown: {
    all: "- [ ] Update the changelog and",
    unique: "The quarterly reconciliation ledger must be signed by two auditors.",
    fuzzyDoc: [
      "- Audit checklist",
      "    - compare the staged totals before the flush",
      "    - record the drift between expected and observed",
    ].join("\n"),
    fuzzy: [
      "- Audit checklist",
      "  - compare the staged totals before the flush",
      "  - record the drift between expected and observed",
    ].join("\n"),
  },
  cjk: {
    all: "- [ ] 更新变更日志并提升版本号，然后通知所有相关的维护",
    unique: "季度对账总账必须由两名审计员签字确认后方可归档。",
    fuzzyDoc: ["- 审计清单", "    - 在刷新之前比较暂存的合计", "    - 记录预期值与观测值之间的偏差"].join("\n"),
    fuzzy: ["- 审计清单", "  - 在刷新之前比较暂存的合计", "  - 记录预期值与观测值之间的偏差"].join("\n"),
  },
};

function word(r) {
  return r.pick(WORDS);
}

function codeBlock(r, out) {
  const a = word(r);
  const b = word(r);
  out.push(`fn ${a}_${b}_${r.below(1000)}(${word(r)}: &${r.pick(TYPES)}) -> Result<${r.pick(TYPES)}, Error> {`);
  const n = 2 + r.below(6);
  for (let i = 0; i < n; i++) {
    const k = r.below(10);
    if (k < 3) {
      out.push(`    let ${word(r)} = ${a}.${r.pick(METHODS)}(${r.below(100)})?;`);
    } else if (k < 5) {
      out.push(`    if ${b}.${r.pick(PREDICATES)}() {`);
      out.push(`        return Err(Error::invalid("${word(r)} ${word(r)}"));`);
      out.push("    }");
    } else if (k < 7) {
      out.push(`    // ${word(r)} the ${word(r)} before the ${word(r)}`);
    } else if (k < 9) {
      out.push(r.pick(CODE_BOILER));
    } else {
      out.push(`    ${a}.push_str(&format!("{}-{}", ${b}, ${r.below(10000)}));`);
    }
  }
  out.push(`    Ok(${a}.into())`);
  out.push("}");
  out.push("");
}

function sentence(r) {
  const n = 5 + r.below(9);
  const words = [];
  for (let i = 0; i < n; i++) words.push(word(r));
  const s = words.join(" ");
  return s[0].toUpperCase() + s.slice(1) + ".";
}

function markdownBlock(r, out) {
  out.push(`## ${word(r)} ${word(r)} ${r.below(1000)}`);
  out.push("");
  const n = 2 + r.below(6);
  for (let i = 0; i < n; i++) {
    const k = r.below(10);
    if (k < 3) {
      out.push(`${sentence(r)} ${sentence(r)}`);
    } else if (k < 5) {
      out.push(`- ${sentence(r)}`);
      out.push(`    - ${sentence(r)}`);
    } else if (k < 7) {
      out.push(`\`${word(r)}_${word(r)}\` ${sentence(r)}`);
    } else if (k < 9) {
      out.push(r.pick(MD_BOILER));
    } else {
      out.push(`| ${word(r)} | ${r.below(10000)} | ${word(r)} |`);
    }
  }
  out.push("");
}

function cjkSentence(r) {
  const n = 4 + r.below(8);
  let s = "";
  for (let i = 0; i < n; i++) {
    if (i > 0) s += r.pick(CJK_LINKS);
    s += r.pick(CJK_PHRASES);
  }
  return s + "。";
}

function cjkBlock(r, out) {
  out.push(`## ${r.pick(CJK_PHRASES)}${r.pick(CJK_PHRASES)} ${r.below(1000)}`);
  out.push("");
  const n = 2 + r.below(6);
  for (let i = 0; i < n; i++) {
    const k = r.below(10);
    if (k < 3) {
      out.push(`${cjkSentence(r)}${cjkSentence(r)}`);
    } else if (k < 5) {
      out.push(`- ${cjkSentence(r)}`);
      out.push(`    - ${cjkSentence(r)}`);
    } else if (k < 7) {
      out.push(`\`${word(r)}_${word(r)}\` ${cjkSentence(r)}`);
    } else if (k < 9) {
      out.push(r.pick(CJK_BOILER));
    } else {
      out.push(`| ${r.pick(CJK_PHRASES)} | ${r.below(10000)} | ${word(r)} |`);
    }
  }
  out.push("");
}

const BLOCKS = { code: codeBlock, markdown: markdownBlock, cjk: cjkBlock };

function utf8Length(s) {
  return Buffer.byteLength(s, "utf8");
}

/**
 * The document of `kind` with at least `size` UTF-8 bytes (whole lines; ends with "\n").
 * Returns { name, kind, size, text, needles }.
 */
export function generate(kind, sizeName) {
  const size = SIZES[sizeName];
  if (!BLOCKS[kind] || size === undefined) throw new Error(`unknown document ${kind}-${sizeName}`);
  const r = new Rng(SEEDS[kind]);
  const needles = NEEDLES[kind];
  const lines = [];
  let bytes = 0; // UTF-8 bytes of lines.join("\n") + "\n"
  let uniqueDone = false;
  let fuzzyDone = false;
  const block = [];
  while (bytes < size) {
    block.length = 0;
    if (!uniqueDone && bytes * 100 >= size * 62) {
      uniqueDone = true;
      block.push(needles.unique, "");
    } else if (!fuzzyDone && bytes * 100 >= size * 81) {
      fuzzyDone = true;
      block.push(needles.fuzzyDoc, "");
    } else {
      BLOCKS[kind](r, block);
    }
    for (const line of block) {
      lines.push(line);
      bytes += utf8Length(line) + 1;
    }
  }
  if (!uniqueDone) lines.push(needles.unique);
  if (!fuzzyDone) lines.push(needles.fuzzyDoc);
  const text = lines.join("\n") + "\n";
  return { name: `${kind}-${sizeName}`, kind, size: sizeName, text, needles };
}

/** Lines shorter than this (in code points) are never picked by `spreadNeedles`. */
export const SPREAD_MIN_CHARS = 24;

/**
 * `count` lines of `text` spread through it, in document order, each occurring exactly once in
 * the whole text (as a substring, overlaps counted): the needles of the multi-change session
 * benches. The i-th is the first line at or after line floor(n·(2i+1)/(2·count)) (0-based, n =
 * number of "\n"-separated pieces) that comes after the previous pick, has at least
 * SPREAD_MIN_CHARS code points and is unique. Deterministic, and the same in
 * bench/native/common/docs.rs (`spread_needles`): picked from the generated text, so the documents —
 * and their fingerprints — do not change. Returns [{ line, text }] (line 0-based).
 */
export function spreadNeedles(text, count) {
  const lines = text.split("\n");
  const n = lines.length;
  const picked = [];
  let after = -1;
  for (let i = 0; i < count; i++) {
    let j = Math.max(Math.floor((n * (2 * i + 1)) / (2 * count)), after + 1);
    for (; j < n; j++) {
      const line = lines[j];
      if ([...line].length < SPREAD_MIN_CHARS) continue;
      const first = text.indexOf(line);
      if (first >= 0 && text.indexOf(line, first + 1) < 0) break;
    }
    if (j >= n) throw new Error(`spreadNeedles: found only ${picked.length} of ${count} unique lines`);
    picked.push({ line: j, text: lines[j] });
    after = j;
  }
  return picked;
}

/** FNV-1a (32-bit) of the UTF-8 bytes, as 8 hex digits. */
export function fnv1a32(text) {
  const bytes = Buffer.from(text, "utf8");
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** What the report compares between the Rust and JS generators. */
export function fingerprint(doc) {
  const bytes = Buffer.byteLength(doc.text, "utf8");
  let lines = 0;
  for (let i = doc.text.indexOf("\n"); i >= 0; i = doc.text.indexOf("\n", i + 1)) lines++;
  return { name: doc.name, bytes, lines, fnv1a32: fnv1a32(doc.text) };
}

/** "code-1MB,code-10MB" → [["code","1MB"],["code","10MB"]] */
export function parseDocList(spec) {
  return spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^([a-z]+)-(\d+(?:KB|MB))$/.exec(s);
      if (!m || !KINDS.includes(m[1]) || !(m[2] in SIZES)) {
        throw new Error(`bad document name ${JSON.stringify(s)}: use KIND-SIZE with KIND in ${KINDS} and SIZE in ${Object.keys(SIZES)}`);
      }
      return [m[1], m[2]];
    });
}

export const DEFAULT_DOCS = "code-1MB,code-10MB,cjk-1MB";

/** The common words of `words` documents: a needle made of them has trigrams in nearly every block. */
const COMMON_WORDS = ["the", "and", "for", "with", "that", "this", "from", "have", "will", "your", "data", "value", "time", "user", "line", "file"];

/**
 * A document of lines of twelve common words and a number (`the data and … 48213`), at least
 * `sizeName` UTF-8 bytes — the text a new user tries first, where the unique needle's trigrams
 * occur in nearly every block of the exact search's index, so it cannot skip any
 * (docs/performance.md#edit-calls). JS only (the native benches do not run it); its unique
 * needle is a line of the same words with a number no other line has (numbers are 5 digits,
 * the needle's 6), placed at ~62 % as in the other kinds. Returns the shape of `generate`'s,
 * needles `unique` only.
 */
export function generateWords(sizeName) {
  const size = SIZES[sizeName];
  if (size === undefined) throw new Error(`unknown size ${sizeName}`);
  const r = new Rng(0x27d4eb2f);
  const line = () => `${Array.from({ length: 12 }, () => r.pick(COMMON_WORDS)).join(" ")} ${10000 + r.below(90000)}`;
  const unique = `${line().replace(/ \d+$/, "")} 123456`;
  const lines = [];
  let bytes = 0;
  let placed = false;
  while (bytes < size) {
    const l = !placed && bytes * 100 >= size * 62 ? ((placed = true), unique) : line();
    lines.push(l);
    bytes += l.length + 1;
  }
  if (!placed) lines.push(unique);
  return { name: `words-${sizeName}`, kind: "words", size: sizeName, text: lines.join("\n") + "\n", needles: { unique } };
}
