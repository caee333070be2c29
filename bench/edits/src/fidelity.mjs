// Fidelity suites: each peer's own published test cases, re-authored as facts (input, expected
// outcome) — no test code copied — plus a few behaviours its source shows (marked "source").
// A fact expects `doc` (the whole resulting document), `error` (a regex the error must match),
// `message` (a regex the success text must match, beside the document), or `value` (for a helper like Codex's seek_sequence). The benchmark runs only emulations whose
// suite passes; the report lists every fact with its result.
import * as aider from "./peers/aider.mjs";
import * as anthropic from "./peers/anthropic.mjs";
import * as cline from "./peers/cline.mjs";
import * as clineSdk from "./peers/cline-sdk.mjs";
import * as codex from "./peers/codex.mjs";
import * as cont from "./peers/continue.mjs";
import * as opencode from "./peers/opencode.mjs";
import * as openhands from "./peers/openhands.mjs";
import * as rooDiff from "./peers/roo-apply-diff.mjs";
import * as rooEdit from "./peers/roo-edit-file.mjs";
import * as zed from "./peers/zed.mjs";

const e = (old_text, new_text, extra = {}) => ({ old_text, new_text, ...extra });
const FIVE_TARGETS = ["one", "two", "three", "four", "five"].map((n) => `function ${n}() {\n    return "target";\n}\n`).join("\n");

const OH_DOC = "This is a test file.\nThis file is for testing purposes.";

const HUNDRED = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

export const FIDELITY = {
  AQ: {
    mod: anthropic,
    facts: [
      { name: "str_replace of a unique string (edit_test.py)", doc: "Hello, world!\nThis is a test.\n", attempt: e("world", "Claude"), doc_out: "Hello, Claude!\nThis is a test.\n" },
      { name: "absent old_str is an error (edit_test.py)", doc: "Hello, world!\n", attempt: e("moon", "sun"), error: /did not appear verbatim/ },
      { name: "duplicate old_str lists the lines (edit_test.py)", doc: "a = 1\nb = 2\na = 1\n", attempt: e("a = 1", "a = 3"), error: /Multiple occurrences.*lines \[1, 3\]/ },
      { name: "multi-line duplicate lists no lines (source)", doc: "x\ny\nx\ny\n", attempt: e("x\ny", "z"), error: /lines \[\]/ },
      { name: "tabs are expanded in the whole file (source)", doc: "\tkeep\n\tchange\n", attempt: e("\tchange", "\tchanged"), doc_out: "        keep\n        changed\n" },
      { name: "CRLF is written back as LF (source)", doc: "a\r\nb\r\n", attempt: e("b", "c"), doc_out: "a\nc\n" },
    ],
  },
  OH: {
    mod: openhands,
    facts: [
      { name: "test_str_replace_error_multiple_multiline_occurrences", doc: "def f():\n    x = 1\n    return x\n\nmiddle\n\ndef f():\n    x = 1\n    return x\n", attempt: e("def f():\n    x = 1\n    return x", "def g(): pass"), error: /lines \[1, 7\]/ },
      { name: "test_str_replace_with_empty_old_str", doc: "a\nb\nc\n", attempt: e("", "x"), error: /Multiple occurrences/ },
      { name: "test_str_replace_multi_line_with_tabs_no_linting", doc: "def f():\n\tif x:\n\t\treturn 1\n", attempt: e("\tif x:\n\t\treturn 1", "\tif y:\n\t\treturn 2"), doc_out: "def f():\n\tif y:\n\t\treturn 2\n" },
      { name: "no hit: old and new are stripped and tried again (source)", doc: "a = 1\nb = 2\n", attempt: e("  b = 2  \n", "  b = 3  \n"), doc_out: "a = 1\nb = 3\n" },
      { name: "old_str equal to new_str is refused (source)", doc: "a\n", attempt: e("a", "a"), error: /must be different/ },
      // The texts that drive a retry (test_oh_editor.py asserts these words).
      { name: "test_str_replace_nonexistent_string: the error text", doc: OH_DOC, attempt: e("Non-existent Line", "New Line"), error: /^No replacement was performed, old_str `Non-existent Line` did not appear verbatim in file\.txt\.$/ },
      { name: "test_str_replace_with_empty_old_str: the error text", doc: "Line 1\nLine 2\nLine 3", attempt: e("", "New string"), error: /^No replacement was performed\. Multiple occurrences of old_str `` in lines \[1, 2, 3\]\. Please ensure it is unique\.$/ },
      { name: "test_str_replace_error_multiple_occurrences: the error names the lines", doc: OH_DOC, attempt: e("test", "sample"), error: /Multiple occurrences of old_str `test`.*\[1, 2\]/ },
      { name: "test_str_replace_new_str_and_old_str_same: the error text", doc: OH_DOC, attempt: e("test file", "test file"), error: /^No replacement was performed\. `new_str` and `old_str` must be different\.$/ },
      { name: "test_str_replace_no_linting: the success text with its cat -n snippet", doc: OH_DOC, attempt: e("test file", "sample file"), doc_out: "This is a sample file.\nThis file is for testing purposes.", message: /^The file file\.txt has been edited\. Here's the result of running `cat -n` on a snippet of file\.txt:\n {5}1\tThis is a sample file\.\n {5}2\tThis file is for testing purposes\.\nReview the changes and make sure they are as expected\. Edit the file again if necessary\.$/ },
      { name: "after the stripped retry the error quotes the stripped old_str (source)", doc: "a\n", attempt: e("  zzz  ", "y"), error: /old_str `zzz` did not appear verbatim/ },
    ],
  },
  CX: {
    mod: codex,
    facts: [
      { name: "seek_sequence: exact match (seek_sequence.rs)", seek: [["foo", "bar", "baz"], ["bar", "baz"]], value: 1 },
      { name: "seek_sequence: rstrip match (seek_sequence.rs)", seek: [["foo   ", "bar\t\t"], ["foo", "bar"]], value: 0 },
      { name: "seek_sequence: trim match (seek_sequence.rs)", seek: [["    foo   "], ["foo"]], value: 0 },
      { name: "seek_sequence: pattern longer than input (seek_sequence.rs)", seek: [["just one line"], ["too", "many", "lines"]], value: null },
      { name: "test_update_line_with_unicode_dash (lib.rs)", doc: "import asyncio  # local import \u2013 avoids top\u2011level dep\n", attempt: e("import asyncio  # local import - avoids top-level dep", "import asyncio  # HELLO"), doc_out: "import asyncio  # HELLO\n" },
      { name: "scenario 014: a file without a final newline gains one", doc: "a\nb", attempt: e("b", "c"), doc_out: "a\nc\n" },
      { name: "first window wins, no ambiguity check (source)", doc: "x\ny\nx\n", attempt: e("x", "z"), doc_out: "z\ny\nx\n" },
      { name: "@@ context moves the search after it (source)", doc: "x\nanchor\nx\n", attempt: e("x", "z"), ctx: { disambiguation: { anchor_line_text: "anchor" } }, doc_out: "x\nanchor\nz\n" },
      { name: "apply_patch CLI test: a missing line fails with its text and leaves the file", doc: "line1\nline2\n", attempt: e("missing", "changed"), error: /^Failed to find expected lines in file\.txt:\nmissing$/ },
      { name: "the success text names the file (source: the 0.171.0 binary)", doc: "a\nb\n", attempt: e("b", "c"), doc_out: "a\nc\n", message: /^Success\. Updated the following files:\nM file\.txt$/ },
      { name: "added lines take the first line's CRLF; kept lines keep theirs (source: the 0.171.0 binary)", doc: "a\r\nb\nc\n", attempt: e("c", "C"), doc_out: "a\r\nb\nC\r\n" },
      { name: "a CRLF patch on an LF file writes LF lines (source: the 0.171.0 binary)", doc: "a\nb\nc\n", attempt: e("b\r\nc\r\n", "B\r\nc\r\n"), doc_out: "a\nB\nc\n" },
      { name: "a hunk of added lines only is appended at the end (source: the 0.171.0 binary)", doc: "x\ny\n", attempt: e("", "new"), doc_out: "x\ny\nnew\n" },
      { name: "a context line keeps the file's text (source: the 0.171.0 binary)", doc: "def f():\n\tx = 1\n\treturn x\n", attempt: e("def f():\n    x = 1\n    return x\n", "def f():\n    x = 2\n    return x\n"), doc_out: "def f():\n    x = 2\n\treturn x\n" },
    ],
  },
  AI: {
    mod: aider,
    facts: [
      { name: "test_replace_multiple_matches", doc: "line1\nline2\nline1\nline3\n", attempt: e("line1\n", "new_line\n"), doc_out: "new_line\nline2\nline1\nline3\n" },
      { name: "test_replace_multiple_matches_missing_whitespace", doc: "    line1\n    line2\n    line1\n    line3\n", attempt: e("line1\n", "new_line\n"), doc_out: "    new_line\n    line2\n    line1\n    line3\n" },
      { name: "test_replace_part_with_missing_leading_whitespace", doc: "    line1\n    line2\n    line3\n", attempt: e("line1\nline2\n", "new_line1\nnew_line2\n"), doc_out: "    new_line1\n    new_line2\n    line3\n" },
      { name: "test_replace_part_with_just_some_missing_leading_whitespace", doc: "    line1\n    line2\n    line3\n", attempt: e(" line1\n line2\n", " new_line1\n     new_line2\n"), doc_out: "    new_line1\n        new_line2\n    line3\n" },
      { name: "test_replace_part_with_missing_leading_whitespace_including_blank_line", doc: "    line1\n    line2\n    line3\n", attempt: e("\n  line1\n  line2\n", "  new_line1\n  new_line2\n"), doc_out: "    new_line1\n    new_line2\n    line3\n" },
      { name: "... splits SEARCH and REPLACE into pieces (source)", doc: "a\nb\nc\nd\ne\n", attempt: e("a\n...\ne\n", "A\n...\ne\n"), doc_out: "A\nb\nc\nd\ne\n" },
      { name: "a miss: the failure text and the block quoted back (source: apply_edits)", doc: "a\nb\n", attempt: e("zzz\n", "yyy\n"), error: /^# 1 SEARCH\/REPLACE block failed to match!\n\n## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in file\.txt\n<<<<<<< SEARCH\nzzz\n=======\nyyy\n>>>>>>> REPLACE\n\n[\s\S]*The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc\n$/ },
      { name: "a miss whose REPLACE lines are already there says so (source: apply_edits)", doc: "a\nb\n", attempt: e("zzz\n", "b\n"), error: /Are you sure you need this SEARCH\/REPLACE block\?\nThe REPLACE lines are already in file\.txt!/ },
      { name: "SEARCH equal to REPLACE is applied and leaves the file (source: do_replace)", doc: "a\nb\n", attempt: e("b\n", "b\n"), doc_out: "a\nb\n" },
      { name: "an empty SEARCH appends REPLACE as a whole line (source: do_replace)", doc: "a\nb", attempt: e("", "c"), doc_out: "a\nbc\n" },
      { name: "a miss shows the closest lines, exactly when they match the block's first and last (source, checked on aider-chat 0.86.2)", doc: "def f(x):\n    y = x\n    return y + 1\n", attempt: e("def f(x):\n    y = x\n    return y + 2\n", "def f(x):\n    y = x\n    return y + 3\n"), error: /Did you mean to match some of these actual lines from file\.txt\?\n\n```\ndef f\(x\):\n    y = x\n    return y \+ 1\n```/ },
      { name: "below 0.6 of lines alike there is no did-you-mean (source, checked on aider-chat 0.86.2)", doc: "def f(x):\n    return x + 1\n", attempt: e("def f(x):\n    return x + 2\n", "def f(x):\n    return x + 3\n"), error: /^(?![\s\S]*Did you mean)[\s\S]*failed to match/ },
    ],
  },
  "RO-d": {
    mod: rooDiff,
    facts: [
      { name: "should find matches from middle out", doc: FIVE_TARGETS, attempt: e('    return "target";', '    return "updated";'), ctx: { disambiguation: { hint_line: 9 } }, doc_out: FIVE_TARGETS.replace(/(function three\(\) \{\n {4}return )"target"/, '$1"updated"') },
      { name: "should match content with extra whitespace", doc: "function test() {\n    return true;\n}\n", attempt: e("function test() {\n  return   true;\n}", "function test() {\n    return false;\n}"), doc_out: "function test() {\n    return false;\n}\n" },
      { name: "smart quotes match ASCII quotes", doc: "const s = \u201cHello\u201d;\n", attempt: e('const s = "Hello";', 'const s = "Bye";'), doc_out: 'const s = "Bye";\n' },
      { name: "CRLF file keeps CRLF", doc: "a\r\nb\r\nc\r\n", attempt: e("b\nc", "B\nC"), doc_out: "a\r\nB\r\nC\r\n" },
      { name: "tab-based indentation", doc: "\tfunction test() {\n\t\treturn true;\n\t}\n", attempt: e("\tfunction test() {\n\t\treturn true;\n\t}", "\tfunction test() {\n\t\treturn false;\n\t}"), doc_out: "\tfunction test() {\n\t\treturn false;\n\t}\n" },
      { name: "deletion with a line-number prefix", doc: "line1\nline2\nline3\n", attempt: e("1 | line1\n2 | line2", "1 | line1"), doc_out: "line1\nline3\n" },
      { name: "no match below 100% is an error", doc: "function a() {}\n", attempt: e("function b() {}", "function c() {}"), error: /No sufficiently similar match found.*needs 100%/ },
      // The error text drives the model's retry, so its window is a fact too.
      { name: "without :start_line: the error shows lines 1…n+39 as Original Content (source)", doc: HUNDRED, attempt: e("line 90 changed", "line 90 again"), error: /Original Content:\n1 \| line 1\n[\s\S]*\n40 \| line 40$/ },
      { name: "with :start_line: the error shows 40 lines either side of the hint (source)", doc: HUNDRED, attempt: e("line 90 changed", "line 90 again"), ctx: { disambiguation: { hint_line: 90 } }, error: /Original Content:\n50 \| line 50\n[\s\S]*\n100 \| line 100(\n101 \| )?$/ },
    ],
  },
  "RO-e": {
    mod: rooEdit,
    facts: [
      { name: "literal unique match (source)", doc: "let a = 1;\n", attempt: e("a = 1", "a = 2"), doc_out: "let a = 2;\n" },
      { name: "whitespace-tolerant match (source)", doc: "if\t(  x  ) {\n}\n", attempt: e("if ( x ) {", "if (y) {"), doc_out: "if (y) {\n}\n" },
      { name: "count mismatch is an error (source)", doc: "a a\n", attempt: e("a", "b"), error: /expected 1 occurrence/ },
      { name: "expected_replacements 2 replaces both (source)", doc: "a a\n", attempt: e("a", "b", { expected_occurrences: 2 }), doc_out: "b b\n" },
      { name: "CRLF restored (source)", doc: "x\r\ny\r\n", attempt: e("x\ny", "x\nz"), doc_out: "x\r\nz\r\n" },
    ],
  },
  CL: {
    mod: cline,
    facts: [
      { name: "exact match (diff.test.ts)", doc: "line1\nline2\nline3\n", attempt: e("line2", "changed"), doc_out: "line1\nchanged\nline3\n" },
      { name: "line-trimmed match replacement (diff.test.ts)", doc: "line1\n line2 \nline3\n", attempt: e("line2", "changed"), doc_out: "line1\nchanged\nline3\n" },
      { name: "block anchor match replacement (diff.test.ts)", doc: "start\nold middle\nend\n", attempt: e("start\nmiddle\nend", "start\nnew middle\nend"), doc_out: "start\nnew middle\nend\n" },
      { name: "first match wins (source)", doc: "x\ny\nx\n", attempt: e("x", "z"), doc_out: "z\ny\nx\n" },
      { name: "a miss answers with the whole file (source)", doc: "a\n", attempt: e("b", "c"), error: /does not match anything[\s\S]*<file_content/ },
    ],
  },
  "CL-sdk": {
    mod: clineSdk,
    facts: [
      { name: "exact unique match (editor.ts)", doc: "a\nb\nc\n", attempt: e("b", "B"), doc_out: "a\nB\nc\n" },
      { name: "absent text is an error (editor.ts)", doc: "a\n", attempt: e("z", "y"), error: /not found/ },
      { name: "more than one match is an error (editor.ts)", doc: "x x\n", attempt: e("x", "y"), error: /found 2 times/ },
      { name: "the needle takes the file's CRLF (editor.ts)", doc: "a\r\nb\r\n", attempt: e("a\nb", "a\nc"), doc_out: "a\r\nc\r\n" },
    ],
  },
  ZD: {
    mod: { apply: zed.applyWithHint },
    facts: [
      { name: "test_line_hint_selection: with hint 5 the second of three is chosen", doc: "fn a() {\n    return 42;\n}\nfn b() {\n    return 42;\n}\nfn c() {\n    return 42;\n}\n", attempt: e("    return 42;", "    return 7;"), ctx: { disambiguation: { hint_line: 5 } }, doc_out: "fn a() {\n    return 42;\n}\nfn b() {\n    return 7;\n}\nfn c() {\n    return 42;\n}\n" },
      { name: "test_line_hint_selection: without a hint, no match is chosen", doc: "fn a() {\n    return 42;\n}\nfn b() {\n    return 42;\n}\n", attempt: e("    return 42;", "    return 7;"), error: /matched multiple locations/ },
    ],
  },
  "ZD-nohint": {
    mod: zed,
    facts: [
      { name: "a typo in a line still matches (matcher tests: foo1 -> u32)", doc: "fn foo1(a: usize) -> usize {\n    40\n}\n", attempt: e("fn foo1(a: usize) -> u32 {\n    40\n}", "fn foo1(a: usize) -> u64 {\n    40\n}"), doc_out: "fn foo1(a: usize) -> u64 {\n    40\n}\n" },
      { name: "a block with one line missing matches (matcher tests)", doc: "impl A {\n    fn a(&self) {}\n    fn b(&self) {}\n    fn c(&self) {}\n    fn d(&self) {}\n    fn e(&self) {}\n}\n", attempt: e("impl A {\n    fn a(&self) {}\n    fn b(&self) {}\n    fn d(&self) {}\n    fn e(&self) {}\n}", "impl B {}"), doc_out: "impl B {}\n" },
      { name: "a rewritten import list does not match (matcher tests)", doc: "use std::fs;\nuse std::io;\nuse std::path::Path;\n", attempt: e("import os\nimport sys\nfrom pathlib import Path", "x"), error: /Could not find a match/ },
      { name: "different indentation matches and new text is re-indented (matcher tests)", doc: "fn f() {\n        let g = || {\n            1\n        };\n}\n", attempt: e("let g = || {\n    1\n};", "let g = || {\n    2\n};"), doc_out: "fn f() {\n        let g = || {\n            2\n        };\n}\n" },
      { name: "three equal lines without a hint: ambiguous (test_line_hint_selection)", doc: "fn a() {\n    return 42;\n}\nfn b() {\n    return 42;\n}\nfn c() {\n    return 42;\n}\n", attempt: e("    return 42;", "    return 7;"), error: /matched multiple locations/ },
    ],
  },
  CO: {
    mod: cont,
    facts: [
      { name: "exact match first (findSearchMatch.vitest.ts)", find: ["hello world", "world"], value: { start: 6, strategy: "exact" } },
      { name: "trimmed match (findSearchMatch.vitest.ts)", find: ["hello world", "  world  "], value: { start: 6, strategy: "trimmed" } },
      { name: "case-insensitive match (findSearchMatch.vitest.ts)", find: ["Hello World", "hello world"], value: { start: 0, strategy: "caseInsensitive" } },
      { name: "whitespace-ignored match (findSearchMatch.vitest.ts)", find: ["function  foo( a,b )", "function foo(a, b)"], value: { start: 0, strategy: "whitespaceIgnored" } },
      { name: "tabs vs spaces (findSearchMatch.vitest.ts)", find: ["\tif (x) {", "    if (x) {"], value: { start: 1, strategy: "trimmed" } },
      { name: "more than one match without replace_all is an error (source)", doc: "x y x\n", attempt: e("x", "z"), error: /appears 2 times/ },
      { name: "CRLF content with an LF search (findSearchMatch.vitest.ts)", find: ["a\r\nb", "a\nb"], value: { start: 0, strategy: "whitespaceIgnored" } },
    ],
  },
  OC: {
    mod: opencode,
    facts: [
      { name: "BlockAnchor with a different middle is applied (edit.test.ts)", doc: "function calculate(a, b) {\n  const x = a + b;\n  return x;\n}\n", attempt: e("function calculate(a, b) {\n  const y = a * b;\n  return y;\n}", "function calculate(a, b) {\n  return a - b;\n}"), doc_out: "function calculate(a, b) {\n  return a - b;\n}\n" },
      { name: "a tab-indented line is found with spaces (edit.test.ts)", doc: "\tconst a = 1;\n", attempt: e("    const a = 1;", "    const a = 2;"), doc_out: "    const a = 2;\n" },
      { name: "irregular whitespace is found by a normal needle (edit.test.ts)", doc: "if\t(  condition\t) {\n}\n", attempt: e("if ( condition ) {", "if (ok) {"), doc_out: "if (ok) {\n}\n" },
      { name: "an escaped \\n finds a real newline (edit.test.ts)", doc: "a\nb\n", attempt: e("a\\nb", "c"), doc_out: "c\n" },
      { name: "test three times without replaceAll fails (edit.test.ts)", doc: "test test test\n", attempt: e("test", "x"), error: /multiple matches/ },
      { name: "CRLF file keeps CRLF (edit.test.ts)", doc: "a\r\nb\r\n", attempt: e("a\nb", "a\nc"), doc_out: "a\r\nc\r\n" },
    ],
  },
};

/** Every fact's result: `{ peer, name, ok, got }`. */
export function runFidelity() {
  const out = [];
  for (const [peer, { mod, facts }] of Object.entries(FIDELITY)) {
    for (const f of facts) {
      let ok;
      let got;
      try {
        if (f.seek) {
          got = codex.seekSequence(f.seek[0], f.seek[1], 0);
          ok = got === f.value;
        } else if (f.find) {
          const m = cont.findSearchMatch(f.find[0], f.find[1]);
          got = m && { start: m.start, strategy: m.strategy };
          ok = !!m && m.start === f.value.start && m.strategy === f.value.strategy;
        } else {
          const r = mod.apply(f.doc, f.attempt, { path: "file.txt", ...(f.ctx ?? {}) });
          got = r.kind === "applied" ? r.doc : `error: ${r.message.slice(0, 200)}`;
          ok = f.error ? r.kind === "error" && f.error.test(r.message) : r.kind === "applied" && r.doc === f.doc_out;
          // A fact may also state the success text the model reads.
          if (f.message && !f.message.test(r.message)) ok = false;
        }
      } catch (err) {
        ok = false;
        got = `threw ${err.message}`;
      }
      out.push({ peer, name: f.name, ok, got });
    }
  }
  return out;
}
