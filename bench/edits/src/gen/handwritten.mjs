// Cases written by hand from specific public reports, each on a small reconstructed document.
// `expect: [find, replace, nth]` names the one region that should change (the nth occurrence of
// `find`, 0-based) and its expected text; must-refuse cases expect the document unchanged.

const GO_TABS = `package server

import (
\t"fmt"
\t"net/http"
)

type Server struct {
\taddr    string
\ttimeout int
}

func (s *Server) Start() error {
\tif s.addr == "" {
\t\treturn fmt.Errorf("no address")
\t}
\tmux := http.NewServeMux()
\tmux.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
\t\tw.WriteHeader(http.StatusOK)
\t})
\treturn http.ListenAndServe(s.addr, mux)
}
`;

const ROO_BRACES = `function alpha(x) {
  if (x > 0) {
    return x;
  }
  return -x;
}

function beta(list) {
  for (const item of list) {
    console.log(item);
  }
}

function gamma(obj) {
  const keys = Object.keys(obj);
  keys.sort();
  return keys;
}

function delta(a, b) {
  const total = a + b;
  return total;
}
`;

const SETTINGS_PY = `class Base:
    name = "app"
    port = 8000


class Development(Base):
    debug = True
    database = "sqlite:///dev.db"


class Production(Base):
    debug = True
    database = "postgres://db/prod"
`;

const GO_TWO_BLOCKS = `func first() int {
\tx := 1
\ty := 2
\treturn x + y
}

func second() int {
\tx := 10
\ty := 20
\treturn x * y
}
`;

const LATEX = `\\section{Goals}
\\begin{itemize}
  \\item Fast startup
  \\item Small memory use
\\end{itemize}

\\section{Risks}
Text about risks that must survive any edit of the goals.
It spans several lines and matters to the reader.

\\begin{itemize}
  \\item Late delivery
  \\item Unclear scope
\\end{itemize}
`;

const MD_LONG = `# Release notes

This release improves startup time by caching the parsed configuration, reduces memory use when many documents are open, and fixes a crash that happened when a file was deleted while the editor had unsaved changes in it.

## Upgrading

Nothing changes for most users.
`;

const CRLF_TS = "export function area(w: number, h: number): number {\r\n  return w * h;\r\n}\r\n\r\nexport function perimeter(w: number, h: number): number {\r\n  return 2 * (w + h);\r\n}\r\n";

const ARROW_FILE = `Shortcuts
1→ open the command palette
2→ jump to a symbol
3→ rename the symbol under the cursor
Arrows (→) are part of the text here, not a gutter.
`;

const CURLY_MD = `## Configuration

Set the value in your project’s config file. The default is “auto” — which picks the fastest backend available.

Don’t change it unless you know what you’re doing.
`;

const PY_ESCAPED = `def render(name):
    greeting = "Hello, " + name
    lines = [greeting, "Welcome back"]
    return "\\n".join(lines)
`;

const PY_REGEX = `import re

WORD = re.compile(r"\\s+(\\w+)\\s*=")


def keys(text):
    return WORD.findall(text)
`;

const JS_ESCAPED = `const banner = [
  "usage: tool [options]",
  "  -h  show help",
].join("\\n");

module.exports = { banner };
`;

const DART = `import 'dart:io';
import 'package:path/path.dart' as p;

void main() {
  print(p.join('a', 'b'));
}
`;

const DART_TWO = `// part one
import 'dart:io';

void readConfig() {
  print(File('config.json').existsSync());
}

// part two
import 'dart:io';

void writeLog() {
  stdout.writeln('log');
}
`;

const OH_DUP = `def setup():
    value = compute()
    check(value)
    return value


def teardown():
    value = compute()
    check(value)
    return value
`;

const STALE_PY = `def load(path):
    with open(path, encoding="utf-8") as handle:
        data = handle.read()
    return parse_config(data)


def save(path, data):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(dump(data))
`;

const STALE_DOCS = `# Guide

## Install

Run the installer and follow the prompts.

## Usage

Open a file and start typing.
`;

const STALE_JS = `export function connect(url, options) {
  const retries = options.retries ?? 3;
  const timeoutMs = options.timeoutMs ?? 5000;
  return open(url, { retries, timeoutMs });
}
`;

const ELIDED_JS = `class Cache {
  constructor(limit) {
    this.limit = limit;
    this.map = new Map();
  }

  get(key) {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key, value) {
    this.map.set(key, value);
    if (this.map.size > this.limit) {
      this.map.delete(this.map.keys().next().value);
    }
  }
}
`;

const ELIDED_PY = `class Stack:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        return self.items.pop()

    def peek(self):
        return self.items[-1]
`;

const EOF_JS = `export const VERSION = "1.2.0";
export const NAME = "tool";`;

const CJK_NOTES = `# 发布说明

本版本修复了在中文路径下保存文件失败的问题。
同时改进了错误提示，现在会显示中文文件名。

## 已知问题

在某些终端中，全角字符的宽度计算仍然不准确。
`;

const NEAR_PY = `def main(args):
    model = load_model(args.model)
    output = model.generate(args.prompt)
    print(output)
`;

const NEAR_RS = `fn render(content: &str, width: usize) -> String {
    let lines = wrap(content, width);
    lines.join("\\n")
}
`;

const SIB_A = `def export_csv(rows, path):
    with open(path, "w") as f:
        for row in rows:
            f.write(",".join(row) + "\\n")
    return len(rows)
`;

const RENAME_JS = `const total = sum(items);
log("total", total);
if (total > limit) warn(total);
`;

const INDENT_PY = `def outer():
    def inner(values):
        result = []
        for v in values:
            if v:
                result.append(v)
        return result
    return inner
`;

const TRAIL_PY = "def area(w, h):  \n    result = w * h   \n    return result\n";

const CLINE_PREFIX = `const routes = {
  home: "/",
  settings: "/settings?tab=general&view=compact",
  about: "/about",
};
`;

const MAKEFILE = `build:
\tcargo build --release
\tcp target/release/app dist/

test:
\tcargo test
`;

const EMDASH_MD = `# Tips

Use the palette — it is the fastest way to run a command.
Keep sessions short – long ones drift.
`;

const BLANK_JS = `function a() {
  return 1;
}
function b() {
  return 2;
}
`;

export const HANDWRITTEN = [
  { category: "C", issue: "https://github.com/anthropics/claude-code/issues/26996", title: "Go file indented with tabs, attempt with 4 spaces", doc_name: "server.go", doc_text: GO_TABS,
    old: '    if s.addr == "" {\n        return fmt.Errorf("no address")\n    }', new: '    if s.addr == "" {\n        return fmt.Errorf("server: no address configured")\n    }',
    expect: ['\tif s.addr == "" {\n\t\treturn fmt.Errorf("no address")\n\t}', '\tif s.addr == "" {\n\t\treturn fmt.Errorf("server: no address configured")\n\t}'] },
  { category: "C", issue: "https://github.com/aws/amazon-q-developer-cli/issues/3401", title: "Makefile recipe lines need tabs; attempt uses spaces", doc_name: "Makefile", doc_text: MAKEFILE,
    old: "build:\n    cargo build --release\n    cp target/release/app dist/", new: "build:\n    cargo build --release --locked\n    cp target/release/app dist/",
    expect: ["build:\n\tcargo build --release\n\tcp target/release/app dist/", "build:\n\tcargo build --release --locked\n\tcp target/release/app dist/"] },
  { category: "K", issue: "https://github.com/RooCodeInc/Roo-Code/issues/2214", title: "bare closing brace, four times; the target is the third", doc_name: "braces.js", doc_text: ROO_BRACES,
    old: "}", new: "}\n\nexport { gamma };", disambiguation: { hint_line: 19, anchor_line_text: "return keys;" },
    expect: ["}\n\nfunction delta", "}\n\nexport { gamma };\n\nfunction delta"] },
  { category: "K", issue: "https://github.com/RooCodeInc/Roo-Code/issues/2214", title: "indented closing brace twice; the target is the second", doc_name: "braces2.js", doc_text: ROO_BRACES,
    old: "  }", new: "  }\n  return list.length;", disambiguation: { hint_line: 11, anchor_line_text: "console.log(item);" },
    expect: ["  }\n}\n\nfunction gamma", "  }\n  return list.length;\n}\n\nfunction gamma"] },
  { category: "K", issue: "https://github.com/docker/docker-agent/issues/3929", title: "debug = True in both dev and prod settings; change prod", doc_name: "settings.py", doc_text: SETTINGS_PY,
    old: "    debug = True", new: "    debug = False", disambiguation: { hint_line: 12, anchor_line_text: "class Production(Base):" },
    expect: ["    debug = True", "    debug = False", 1] },
  { category: "K", issue: "https://github.com/anomalyco/opencode/issues/15515", title: "the same import twice in one file", doc_name: "tool.dart", doc_text: DART_TWO,
    old: "import 'dart:io';", new: "import 'dart:io' show stdout;", disambiguation: { hint_line: 9, anchor_line_text: "// part two" },
    expect: ["import 'dart:io';", "import 'dart:io' show stdout;", 1] },
  { category: "K", issue: "https://github.com/All-Hands-AI/OpenHands/issues/5365", title: "identical multi-line block in two functions", doc_name: "lifecycle.py", doc_text: OH_DUP,
    old: "    value = compute()\n    check(value)", new: "    value = compute()\n    check(value, strict=True)", disambiguation: { hint_line: 8, anchor_line_text: "def teardown():" },
    expect: ["    value = compute()\n    check(value)", "    value = compute()\n    check(value, strict=True)", 1] },
  { category: "P", issue: "https://github.com/zed-industries/zed/issues/59369", title: "a phrase in the middle of a long Markdown line", doc_name: "notes.md", doc_text: MD_LONG,
    old: "reduces memory use when many documents are open", new: "reduces memory use by a third when many documents are open",
    expect: ["reduces memory use when many documents are open", "reduces memory use by a third when many documents are open"] },
  { category: "P", issue: "https://github.com/cline/cline/issues/11439", title: "the attempt's last line is a prefix of the real line", doc_name: "routes.js", doc_text: CLINE_PREFIX,
    old: '  home: "/",\n  settings: "/settings', new: '  home: "/home",\n  settings: "/settings',
    expect: ['  home: "/",\n  settings: "/settings', '  home: "/home",\n  settings: "/settings'] },
  { category: "S", issue: "https://github.com/Gitlawb/zero/issues/963", title: "anchors match, the middle was misremembered (y := 99)", doc_name: "calc.go", doc_text: GO_TWO_BLOCKS,
    old: "func first() int {\n\tx := 1\n\ty := 99\n\tz := 3\n\treturn x + y\n}", new: "func first() int {\n\tx := 1\n\ty := 100\n\tz := 3\n\treturn x + y\n}", must_refuse: true },
  { category: "S", issue: "https://github.com/anomalyco/opencode/issues/24959", title: "begin/end anchors would swallow the text between two lists", doc_name: "plan.tex", doc_text: LATEX,
    old: "\\begin{itemize}\n  \\item Fast startup\n  \\item Low latency\n  \\item Late delivery\n\\end{itemize}", new: "\\begin{itemize}\n  \\item Fast startup\n\\end{itemize}", must_refuse: true },
  { category: "M", issue: "https://github.com/anthropics/claude-code/issues/164", title: "CRLF file, attempt with LF line breaks", doc_name: "geometry.ts", doc_text: CRLF_TS,
    old: "export function area(w: number, h: number): number {\n  return w * h;\n}", new: "export function area(w: number, h: number): number {\n  return Math.abs(w * h);\n}",
    expect: ["export function area(w: number, h: number): number {\r\n  return w * h;\r\n}", "export function area(w: number, h: number): number {\r\n  return Math.abs(w * h);\r\n}"] },
  { category: "M", issue: "https://github.com/openai/codex/issues/4003", title: "adding lines to a CRLF file must not leave LF lines", doc_name: "geometry2.ts", doc_text: CRLF_TS,
    old: "  return 2 * (w + h);\n}", new: "  return 2 * (w + h);\n}\n\nexport const UNIT = \"cm\";",
    expect: ["  return 2 * (w + h);\r\n}", "  return 2 * (w + h);\r\n}\r\n\r\nexport const UNIT = \"cm\";"] },
  { category: "H", issue: "https://github.com/anomalyco/opencode/issues/27282", title: "Read-tool arrow gutter copied into the attempt", doc_name: "delta.js", doc_text: ROO_BRACES,
    old: "    21\u2192function delta(a, b) {\n    22\u2192  const total = a + b;", new: "    21\u2192function delta(a, b) {\n    22\u2192  const total = a + b + 0;",
    expect: ["function delta(a, b) {\n  const total = a + b;", "function delta(a, b) {\n  const total = a + b + 0;"] },
  { category: "H", issue: "https://github.com/anthropics/claude-code/issues/4630", title: "the file's own text looks like a gutter (exact attempt)", doc_name: "shortcuts.txt", doc_text: ARROW_FILE,
    old: "2\u2192 jump to a symbol", new: "2\u2192 jump to any symbol", exact_ok: true, expect: ["2\u2192 jump to a symbol", "2\u2192 jump to any symbol"] },
  { category: "F", issue: "https://github.com/anthropics/claude-code/issues/1986", title: "curly apostrophes and quotes in the file, ASCII in the attempt", doc_name: "config.md", doc_text: CURLY_MD,
    old: "Don't change it unless you know what you're doing.", new: "Don't change it unless you have measured the difference.",
    expect: ["Don\u2019t change it unless you know what you\u2019re doing.", "Don\u2019t change it unless you have measured the difference."] },
  { category: "F", issue: "https://github.com/warpdotdev/warp/issues/9022", title: "em dash and en dash typed as hyphens", doc_name: "tips.md", doc_text: EMDASH_MD,
    old: "Use the palette - it is the fastest way to run a command.\nKeep sessions short - long ones drift.", new: "Use the palette - it is the quickest way to run a command.\nKeep sessions short - long ones drift.",
    expect: ["Use the palette \u2014 it is the fastest way to run a command.\nKeep sessions short \u2013 long ones drift.", "Use the palette \u2014 it is the quickest way to run a command.\nKeep sessions short \u2013 long ones drift."] },
  { category: "G", issue: "https://github.com/openclaw/openclaw/pull/110823", title: "a Python block sent double-escaped", doc_name: "render.py", doc_text: PY_ESCAPED,
    old: 'def render(name):\\n    greeting = \\"Hello, \\" + name', new: 'def render(name):\\n    greeting = \\"Hi, \\" + name',
    expect: ['def render(name):\n    greeting = "Hello, " + name', 'def render(name):\n    greeting = "Hi, " + name'] },
  { category: "G", issue: "https://github.com/mrdushidush/claudette/pull/57", title: "raw regex with its backslashes doubled", doc_name: "keys.py", doc_text: PY_REGEX,
    old: 'WORD = re.compile(r"\\\\s+(\\\\w+)\\\\s*=")', new: 'WORD = re.compile(r"\\\\s*(\\\\w+)\\\\s*=")',
    expect: ['WORD = re.compile(r"\\s+(\\w+)\\s*=")', 'WORD = re.compile(r"\\s*(\\w+)\\s*=")'] },
  { category: "G", issue: "https://github.com/google-gemini/gemini-cli/pull/539", title: "\\n inside a JS string over-escaped", doc_name: "banner.js", doc_text: JS_ESCAPED,
    old: '].join("\\\\n");', new: '].join("\\\\r\\\\n");', expect: ['].join("\\n");', '].join("\\r\\n");'] },
  { category: "L", issue: "https://github.com/moonbitlang/openseek/issues/420", title: "an earlier edit renamed parse to parse_config; the attempt still says parse", doc_name: "config.py", doc_text: STALE_PY,
    old: "        data = handle.read()\n    return parse(data)", new: "        data = handle.read().strip()\n    return parse(data)",
    expect: ["        data = handle.read()\n    return parse_config(data)", "        data = handle.read().strip()\n    return parse_config(data)"] },
  { category: "L", issue: "https://github.com/NousResearch/hermes-agent/issues/18426", title: "stale view of a section that an earlier edit already reworded", doc_name: "guide.md", doc_text: STALE_DOCS,
    old: "## Install\n\nRun the installer.\n\n## Usage", new: "## Install\n\nRun the installer.\n\n## Usage\n\nSee the examples folder.",
    expect: ["## Usage\n\nOpen a file and start typing.", "## Usage\n\nSee the examples folder.\n\nOpen a file and start typing."] },
  { category: "L", issue: "https://github.com/google-gemini/gemini-cli/issues/7463", title: "after several edits the attempt quotes a superseded default", doc_name: "connect.js", doc_text: STALE_JS,
    old: "  const retries = options.retries || 3;\n  const timeoutMs = options.timeoutMs ?? 5000;", new: "  const retries = options.retries || 3;\n  const timeoutMs = options.timeoutMs ?? 10000;",
    expect: ["  const retries = options.retries ?? 3;\n  const timeoutMs = options.timeoutMs ?? 5000;", "  const retries = options.retries ?? 3;\n  const timeoutMs = options.timeoutMs ?? 10000;"] },
  { category: "J", issue: "https://github.com/QwenLM/qwen-code/issues/2575", title: "// ... existing code ... placeholder in both texts", doc_name: "cache.js", doc_text: ELIDED_JS,
    old: "  get(key) {\n    const value = this.map.get(key);\n    // ... existing code ...\n    return value;\n  }", new: "  get(key) {\n    const value = this.map.get(key);\n    // ... existing code ...\n    this.hits = (this.hits ?? 0) + 1;\n    return value;\n  }",
    expect: ["    this.map.set(key, value);\n    return value;\n  }", "    this.map.set(key, value);\n    this.hits = (this.hits ?? 0) + 1;\n    return value;\n  }"] },
  { category: "J", issue: "https://github.com/zed-industries/zed/pull/17286", title: "a bare ... line elides two methods", doc_name: "stack.py", doc_text: ELIDED_PY,
    old: "class Stack:\n    def __init__(self):\n        self.items = []\n    ...\n    def peek(self):\n        return self.items[-1]", new: "class Stack:\n    def __init__(self):\n        self.items = []\n    ...\n    def peek(self):\n        return self.items[-1] if self.items else None",
    expect: ["        return self.items[-1]", "        return self.items[-1] if self.items else None"] },
  { category: "N", issue: "https://github.com/cline/cline/issues/11274", title: "file without a final newline; the attempt ends with one", doc_name: "version.js", doc_text: EOF_JS,
    old: 'export const NAME = "tool";\n', new: 'export const NAME = "toolkit";\n', expect: ['export const NAME = "tool";', 'export const NAME = "toolkit";'] },
  { category: "N", issue: "https://github.com/cline/cline/issues/11274", title: "extra blank line at the end of the attempt", doc_name: "ab.js", doc_text: BLANK_JS,
    old: "function b() {\n  return 2;\n}\n\n", new: "function b() {\n  return 3;\n}\n\n", expect: ["function b() {\n  return 2;", "function b() {\n  return 3;"] },
  { category: "O", issue: "https://github.com/anthropics/claude-code/issues/46712", title: "CJK line replaced; no character may be cut", doc_name: "release-zh.md", doc_text: CJK_NOTES,
    old: "同时改进了错误提示，现在会显示中文文件名。", new: "同时改进了错误提示，现在会显示完整的中文文件名。", expect: ["同时改进了错误提示，现在会显示中文文件名。", "同时改进了错误提示，现在会显示完整的中文文件名。"] },
  { category: "Q", issue: "https://github.com/Aider-AI/aider/blob/main/tests/fixtures/chat-history.md", title: "args.models remembered for args.model in a context line", doc_name: "main.py", doc_text: NEAR_PY,
    old: "    model = load_model(args.models)\n    output = model.generate(args.prompt)", new: "    model = load_model(args.models)\n    output = model.generate(args.prompt, max_tokens=256)",
    expect: ["    model = load_model(args.model)\n    output = model.generate(args.prompt)", "    model = load_model(args.model)\n    output = model.generate(args.prompt, max_tokens=256)"] },
  { category: "Q", issue: "https://github.com/moonbitlang/openseek/pull/243", title: "text remembered for content in the changed line", doc_name: "render.rs", doc_text: NEAR_RS,
    old: "fn render(content: &str, width: usize) -> String {\n    let lines = wrap(text, width);", new: "fn render(content: &str, width: usize) -> String {\n    let lines = wrap(content.trim_end(), width);",
    expect: ["fn render(content: &str, width: usize) -> String {\n    let lines = wrap(content, width);", "fn render(content: &str, width: usize) -> String {\n    let lines = wrap(content.trim_end(), width);"] },
  { category: "R", issue: "https://github.com/patriceckhart/zot/pull/74", title: "the attempt was copied from a sibling file", doc_name: "export_json.py", doc_text: SIB_A.replace(/csv/g, "json").replace('",".join(row) + "\\n"', "json.dumps(row)"),
    old: 'def export_csv(rows, path):\n    with open(path, "w") as f:\n        for row in rows:\n            f.write(",".join(row) + "\\n")', new: 'def export_csv(rows, path):\n    with open(path, "w", newline="") as f:\n        for row in rows:\n            f.write(",".join(row) + "\\n")', must_refuse: true },
  { category: "T", issue: "https://github.com/openclaw/openclaw/issues/44803", title: "rename every use of a variable, count stated", doc_name: "total.js", doc_text: RENAME_JS,
    old: "total", new: "sum_total", replace_all: true, expected_occurrences: 5, expect_all: ["total", "sum_total"] },
  { category: "D", issue: "https://github.com/anomalyco/opencode/issues/29573", title: "nested block sent without its outer indentation", doc_name: "outer.py", doc_text: INDENT_PY,
    old: "for v in values:\n    if v:\n        result.append(v)", new: "for v in values:\n    if v is not None:\n        result.append(v)",
    expect: ["        for v in values:\n            if v:\n                result.append(v)", "        for v in values:\n            if v is not None:\n                result.append(v)"] },
  { category: "B", issue: "https://github.com/anthropics/claude-code/issues/10117", title: "the file has trailing spaces the attempt lacks", doc_name: "area.py", doc_text: TRAIL_PY,
    old: "def area(w, h):\n    result = w * h\n    return result", new: "def area(w, h):\n    result = abs(w * h)\n    return result",
    expect: ["def area(w, h):  \n    result = w * h   \n    return result", "def area(w, h):  \n    result = abs(w * h)   \n    return result"] },
];
