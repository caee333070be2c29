// The matching engine (docs/architecture.md#matching) through the BUILT package, as a
// TypeScript/JS user calls it: fuzzy tiers, near misses, the span / selection / lines / append tools, `path`, options, and
// bad input from JS. Run: node --test www/test/   (./build.sh test builds first)
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace } from "@agentpad/core";

async function workspace(docs, options = {}) {
  const storage = new MemoryStorage(docs);
  const ws = await Workspace.create({ storage, ...options });
  return { storage, ws };
}

/** What must not move when a call is refused. */
function snapshot(ws, path) {
  return { draft: ws.draft(path), text: ws.text(path), state: ws.state };
}

/** `  12#a3f1│ text` lines of a `line_keys` read (or a StaleReference's content) → [{ key, line, text }]. */
function parseKeys(content) {
  return [...content.matchAll(/^ *(\d+)#([0-9a-f]{4})│ (.*)$/gm)].map((m) => ({
    key: `${m[1]}#${m[2]}`,
    line: Number(m[1]),
    text: m[3],
  }));
}

function openaiNames(ws) {
  return ws.tools({ format: "openai", visibleOnly: true }).map((t) => t.function.name);
}

const FUZZY_QUALITIES = ["trailing_whitespace", "indentation", "unicode", "whitespace"];

// ---------------------------------------------------------------- the tiers, table-driven

const TIERS = [
  // name, doc, old_text, new_text → status, match_quality, draft (undefined: unchanged)
  { name: "exact", doc: "a = 1\nb = 2\n", old: "a = 1", new: "a = 9", status: "Success", quality: "exact", draft: "a = 9\nb = 2\n" },
  {
    // A matched line's trailing whitespace belongs to the match and goes with the text around it
    // that the model kept: both lines keep theirs (the model changed only the numbers).
    name: "trailing whitespace ignored",
    doc: "alpha = 1   \nbeta = 2\t\n",
    old: "alpha = 1\nbeta = 2",
    new: "alpha = 10\nbeta = 20",
    status: "Success",
    quality: "trailing_whitespace",
    draft: "alpha = 10   \nbeta = 20\t\n",
  },
  {
    name: "indentation: new_text re-indented by the same offset (spaces)",
    doc: "def f():\n    x = 1\n    if x:\n        y = 2\n",
    old: "x = 1\nif x:\n    y = 2",
    new: "x = 3\nif x:\n    y = 4\n    z = 5",
    status: "Success",
    quality: "indentation",
    draft: "def f():\n    x = 3\n    if x:\n        y = 4\n        z = 5\n",
  },
  {
    name: "indentation: tabs stay tabs",
    doc: "def f():\n\tif x:\n\t\treturn 1\n\treturn 2\n",
    old: "if x:\n    return 1",
    new: "if y:\n    return 3",
    status: "Success",
    quality: "indentation",
    draft: "def f():\n\tif y:\n\t\treturn 3\n\treturn 2\n",
  },
  {
    name: "unicode: curly quotes",
    doc: 'say("hi")\nsay(“hello”)\n',
    old: 'say("hello")',
    new: 'say("bye")',
    status: "Success",
    quality: "unicode",
    // The quotes the model kept are the document's own.
    draft: 'say("hi")\nsay(“bye”)\n',
  },
  { name: "unicode: em dash", doc: "a — b\n", old: "a - b", new: "a + b", status: "Success", quality: "unicode", draft: "a + b\n" },
  { name: "unicode: NBSP", doc: "x\u00a0= 1\n", old: "x = 1", new: "x = 2", status: "Success", quality: "unicode", draft: "x\u00a0= 2\n" },
  {
    name: "unicode: full-width space",
    doc: "名前\u3000太郎\n",
    old: "名前 太郎",
    new: "名前 花子",
    status: "Success",
    quality: "unicode",
    draft: "名前\u3000花子\n",
  },
  {
    name: "whitespace runs collapsed",
    doc: "let   x  =\t1;\n",
    old: "let x = 1;",
    new: "let x = 2;",
    status: "Success",
    quality: "whitespace",
    draft: "let   x  =\t2;\n",
  },
  {
    name: "copied `  12│ ` gutters, stripped from new_text too",
    doc: "one\ntwo\nthree\n",
    old: "  2│ two\n  3│ three",
    new: "  2│ TWO\n  3│ THREE",
    status: "Success",
    quality: "gutter",
    draft: "one\nTWO\nTHREE\n",
  },
  {
    name: "copied line-key gutters",
    doc: "one\ntwo\n",
    old: "1#0000│ one",
    new: "uno",
    status: "Success",
    quality: "gutter",
    draft: "uno\ntwo\n",
  },
  {
    name: "copied `12: ` gutters",
    doc: "one\ntwo\nthree\n",
    old: "2: two\n3: three",
    new: "X\nY",
    status: "Success",
    quality: "gutter",
    draft: "one\nX\nY\n",
  },
  {
    name: "gutters and indentation",
    doc: "one\n    two\n    three\n",
    old: "  2│ two\n  3│ three",
    new: "  2│ TWO\n  3│ THREE",
    status: "Success",
    quality: "gutter+indentation",
    draft: "one\n    TWO\n    THREE\n",
  },
  {
    name: "two fuzzy matches are candidates, never a pick",
    doc: "x  = 1\nkeep\nx   = 1\n",
    old: "x = 1",
    new: "x = 2",
    status: "MultiMatch",
    quality: "whitespace",
    draft: undefined,
  },
  { name: "needle at the start", doc: "abc def", old: "abc", new: "X", status: "Success", quality: "exact", draft: "X def" },
  { name: "needle at the end", doc: "abc def", old: "def", new: "X", status: "Success", quality: "exact", draft: "abc X" },
  { name: "needle is the whole document", doc: "abc\n", old: "abc\n", new: "xyz\n", status: "Success", quality: "exact", draft: "xyz\n" },
  { name: "overlapping occurrences: a-a-a in a-a-a-a", doc: "a-a-a-a", old: "a-a-a", new: "b", status: "Success", quality: "exact", draft: "b-a" },
  // One exact match ending inside a word of the document: a candidate to confirm, nothing staged.
  { name: "a match that cuts a word: aaa in aaaa", doc: "aaaa", old: "aaa", new: "b", status: "StaleReference", quality: "exact", draft: "aaaa" },
  { name: "one-line document", doc: "only", old: "only", new: "one", status: "Success", quality: "exact", draft: "one" },
  { name: "empty document", doc: "", old: "x", new: "y", status: "NoMatch", quality: null, draft: undefined },
  { name: "needle longer than the document", doc: "ab", old: "abc\nabc", new: "y", status: "NoMatch", quality: null, draft: undefined },
  { name: "different words are no match at any tier", doc: "let x = 1;\n", old: "const q = 99;", new: "y", status: "NoMatch", quality: null, draft: undefined },
];

test("memo_replace: each tier gives its status, match_quality, [Warning] and draft", async (t) => {
  for (const c of TIERS) {
    await t.test(c.name, async () => {
      const { ws, storage } = await workspace({ "doc.txt": c.doc });
      const r = await ws.call("memo_replace", { old_text: c.old, new_text: c.new });
      const why = `${c.name}\n${r.markdown}`;
      assert.equal(r.status, c.status, why);
      assert.equal(r.match_quality, c.quality, why);
      const fuzzy = c.quality !== null && c.quality !== "exact";
      assert.equal(r.summary.startsWith("[Warning] "), fuzzy, `summary: ${r.summary}`);
      if (fuzzy) {
        assert.match(r.markdown, /^### \[Warning\] Overview$/m);
        assert.ok(r.summary.includes(c.quality) || r.status === "MultiMatch", `the summary names the tier: ${r.summary}`);
      }
      if (c.status === "Success") {
        assert.equal(r.workflow_state, "PersistPending");
        assert.equal(r.pending_changes.length, 1);
        if (!fuzzy) assert.match(r.markdown, /^### \[OK\] Overview$/m);
      }
      if (c.status === "MultiMatch") {
        assert.equal(r.workflow_state, "SelectionPending");
        assert.ok(r.candidates.length >= 2);
        for (const cand of r.candidates) assert.equal(cand.match_quality, c.quality, `candidate ${cand.id}`);
        assert.deepEqual(r.pending_changes, []);
      }
      if (c.status === "NoMatch") {
        assert.deepEqual(r.pending_changes, []);
        assert.equal(r.match_quality, null);
      }
      assert.equal(ws.draft(), c.draft ?? c.doc);
      assert.equal(ws.text(), c.doc, "nothing is committed");
      assert.equal(storage.read("doc.txt"), c.doc, "nothing is saved");
      ws.free();
    });
  }
});

test("indentation: 4 spaces for a 4-wide tab still writes tabs (same width, different style)", async () => {
  const { ws } = await workspace({ "a.py": "if a:\n\tv()\nif b:\n\tv()\n" });
  const r = await ws.call("memo_replace", { old_text: "if b:\n    v()", new_text: "if b:\n    w()" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.match_quality, "indentation");
  assert.equal(ws.draft(), "if a:\n\tv()\nif b:\n\tw()\n");
});

test("indentation: an inserted line indented like the first line gets the first line's tabs", async () => {
  const { ws } = await workspace({ "a.py": "\t\tdeep()\nz\n" });
  const r = await ws.call("memo_replace", { old_text: "  deep()\nz", new_text: "  a()\n  b()\nz" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.match_quality, "indentation");
  assert.equal(ws.draft(), "\t\ta()\n\t\tb()\nz\n");
});

test("every tier except exact is used only when the exact search finds nothing", async () => {
  // "x = 1" occurs exactly once; the line with extra spaces must not make it ambiguous.
  const { ws } = await workspace({ "d.txt": "x  =  1\nx = 1\n" });
  const r = await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 2" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.match_quality, "exact");
  assert.equal(ws.draft(), "x  =  1\nx = 2\n");
  ws.free();
});

test("overlapping occurrences are found left to right without overlap: aa in aaaa is A 0–2, B 2–4", async () => {
  const { ws } = await workspace({ "d.txt": "aaaa" });
  const r = await ws.call("memo_replace", { old_text: "aa", new_text: "b" });
  assert.equal(r.status, "MultiMatch", r.markdown);
  assert.deepEqual(
    r.candidates.map((c) => [c.id, c.context_start, c.context_end, c.match_quality]),
    [
      ["A", 0, 2, "exact"],
      ["B", 2, 4, "exact"],
    ],
  );
  ws.free();
});

test("a fuzzy MultiMatch lists the tier in the Markdown candidates table (Quality column)", async () => {
  // The table is the candidateStyle "table" option (the default lists one line each).
  const { ws } = await workspace({ "s.yaml": "db:\n  timeout: 30\napi:\n  timeout: 30\n" }, { candidateStyle: "table" });
  const r = await ws.call("memo_replace", { old_text: "timeout:  30", new_text: "timeout: 60" });
  assert.equal(r.status, "MultiMatch");
  const header = r.markdown.split("\n").find((l) => l.startsWith("| Id |"));
  assert.ok(header, r.markdown);
  const cols = header.split("|").map((s) => s.trim()).filter(Boolean);
  assert.equal(cols.length, 10, header);
  assert.equal(cols[9], "Quality");
  const rows = r.markdown.split("\n").filter((l) => /^\| [A-Z] \|/.test(l));
  assert.equal(rows.length, 2);
  for (const row of rows) assert.match(row, /\| whitespace \|$/);
  // Staging one re-indents new_text like the line it replaces.
  const s = await ws.call("memo_replace_selection", { selection_id: "B" });
  assert.equal(s.status, "Success", s.markdown);
  assert.equal(s.match_quality, "whitespace");
  assert.ok(s.summary.startsWith("[Warning] "), s.summary);
  assert.equal(ws.draft(), "db:\n  timeout: 30\napi:\n  timeout: 60\n");
  ws.free();
});

// ---------------------------------------------------------------- line endings, wide text

test("a CRLF document edited through a fuzzy tier is written back with CRLF only", async () => {
  const doc = "def f():\r\n\tif x:\r\n\t\treturn 1\r\n\treturn 2\r\n";
  const { ws, storage } = await workspace({ "f.py": doc });
  assert.equal(ws.text(), doc.replaceAll("\r\n", "\n"));
  // The model sends CRLF too, and spaces where the file has tabs.
  const r = await ws.call("memo_replace", {
    old_text: "if x:\r\n    return 1",
    new_text: "if y:\r\n    return 3\r\n    # done",
  });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.match_quality, "indentation");
  assert.equal(ws.draft(), "def f():\n\tif y:\n\t\treturn 3\n\t\t# done\n\treturn 2\n");
  assert.ok(!r.pending_changes[0].new_text.includes("\r"), "offsets and texts are LF-normalised");
  const c = await ws.call("memo_append", { text: "\nprint(f())\n" });
  assert.equal(c.status, "Success", c.markdown);
  const done = await ws.call("memo_commit", { summary: "y" });
  assert.equal(done.status, "Success", done.markdown);
  const saved = storage.read("f.py");
  assert.equal(saved, "def f():\r\n\tif y:\r\n\t\treturn 3\r\n\t\t# done\r\n\treturn 2\r\n\r\nprint(f())\r\n");
  assert.doesNotMatch(saved, /[^\r]\n/, "no bare LF");
  ws.free();
});

// Every line has surrogate pairs (😀, 𝒳) and CJK before the needle, so UTF-16 ≠ chars ≠ bytes.
const WIDE = [
  "😀😀 中文 x = 1",
  "中文中文 😀 x = 1 尾",
  "𝒳 中 😀\tx = 1",
  "最后 😀😀😀 x = 1",
  "x = 1 😀 开头",
  "😀中😀文😀 x = 1",
  "结束 x = 1",
].join("\n") + "\n";

test("emoji + CJK: every candidate's UTF-16 range slices the draft to the needle (exact and fuzzy)", async () => {
  const { ws } = await workspace({ "wide.md": WIDE });
  const draft = ws.draft();
  // Default listing: A–E of 7, the count says 7.
  let r = await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 2" });
  assert.equal(r.status, "MultiMatch", r.markdown);
  assert.deepEqual(r.candidates.map((c) => c.id), ["A", "B", "C", "D", "E"]);
  assert.equal(r.metrics.selection_count, 7);
  // show_all_matches lists all seven, in document order.
  r = await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 2", show_all_matches: true });
  assert.deepEqual(r.candidates.map((c) => c.id), ["A", "B", "C", "D", "E", "F", "G"]);
  assert.deepEqual(r.candidates.map((c) => c.line), [1, 2, 3, 4, 5, 6, 7]);
  for (const c of r.candidates) {
    assert.equal(draft.slice(c.context_start, c.context_end), "x = 1", `candidate ${c.id}`);
    assert.equal(c.match_quality, "exact");
    assert.ok(c.preview.includes("x = 1"), c.preview);
  }
  // The same through the whitespace tier: the slice normalises to the needle.
  r = await ws.call("memo_replace", { old_text: "x  =  1", new_text: "x = 2", show_all_matches: true });
  assert.equal(r.status, "MultiMatch", r.markdown);
  assert.equal(r.candidates.length, 7);
  for (const c of r.candidates) {
    const slice = draft.slice(c.context_start, c.context_end);
    assert.equal(slice.replace(/\s+/g, " ").trim(), "x = 1", `candidate ${c.id}: ${JSON.stringify(slice)}`);
    assert.equal(c.match_quality, "whitespace");
  }
  // Staging F changes exactly line 6.
  const s = await ws.call("memo_replace_selection", { selection_id: "F" });
  assert.equal(s.status, "Success", s.markdown);
  assert.equal(ws.draft(), WIDE.replace("😀中😀文😀 x = 1", "😀中😀文😀 x = 2"));
  assert.equal(s.pending_changes[0].line, 6);
  ws.free();
});

test("emoji + CJK: a near-miss candidate's range slices the draft to the similar region", async () => {
  const { ws } = await workspace({ "wide.md": "😀 标题\n中文 😀 return open_socket(host, port) 😀\n尾\n" });
  const r = await ws.call("memo_replace", { old_text: "return open_sockt(host, port)", new_text: "return open_sockt(host, port, 5)" });
  assert.equal(r.status, "NoMatch", r.markdown);
  const [a] = r.candidates;
  assert.ok(a, r.markdown);
  assert.match(ws.draft().slice(a.context_start, a.context_end), /open_socket\(host, port\)/);
  const s = await ws.call("memo_replace_selection", { selection_id: "A" });
  assert.equal(s.status, "Success", s.markdown);
  // Only the change (", 5") is applied to the region's own text: its `open_socket` stays.
  assert.match(ws.draft(), /^中文 😀 return open_socket\(host, port, 5\) 😀$/m);
  ws.free();
});

// ---------------------------------------------------------------- search_after, recommendation

const TIMEOUTS = "db:\n  timeout: 30\napi:\n  timeout: 30\ncache:\n  timeout: 30\n";

test("search_after: a missing anchor is NoMatch naming it; a present one narrows and recommends", async () => {
  const { ws } = await workspace({ "t.yaml": TIMEOUTS });
  let r = await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", search_after: "queue:" });
  assert.equal(r.status, "NoMatch");
  assert.match(r.summary, /search_after/);
  assert.match(r.summary, /queue:/, "names the anchor");
  assert.equal(ws.draft(), TIMEOUTS);
  assert.equal(ws.state, "Idle");

  // Without an anchor: three candidates and no clear winner.
  r = await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  assert.equal(r.status, "MultiMatch");
  assert.equal(r.candidates.filter((c) => c.recommended).length, 0, "a tie recommends nothing");

  // After "api:": lines 4 and 6, the first after the anchor is recommended.
  r = await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", search_after: "api:" });
  assert.equal(r.status, "MultiMatch", r.markdown);
  assert.deepEqual(r.candidates.map((c) => [c.id, c.line, c.recommended]), [
    ["A", 4, true],
    ["B", 6, false],
  ]);
  assert.match(r.markdown, /^- \[A\] line 4: `api\.timeout: 30` ← recommended/m, "the Markdown marks the recommended line");

  // The anchor alone can make it unique.
  r = await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", search_after: "cache:" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft(), TIMEOUTS.replace("cache:\n  timeout: 30", "cache:\n  timeout: 60"));
  ws.free();
});

test("replace_all stages every exact match as one change; expected_occurrences refuses a wrong count with the lines", async () => {
  const doc = "t: 30\nx\nt: 30\nt: 30\n";
  const { ws } = await workspace({ "d.txt": doc });
  let r = await ws.call("memo_replace", { old_text: "t: 30", new_text: "t: 60", expected_occurrences: 2 });
  assert.notEqual(r.status, "Success");
  assert.match(r.summary, /expected_occurrences is 2/);
  assert.match(r.summary, /1, 3, 4/);
  assert.equal(ws.draft(), doc);
  r = await ws.call("memo_replace", { old_text: "t: 30", new_text: "t: 60", replace_all: true, expected_occurrences: 3 });
  assert.equal(r.status, "Success", r.markdown);
  assert.deepEqual(r.pending_changes.map((c) => c.change_id), ["A"]);
  assert.match(r.summary, /change A \(3 places\)/);
  assert.equal(ws.draft(), "t: 60\nx\nt: 60\nt: 60\n");
  ws.free();
});

test("replace_all over more places than letters is one change, and commits", async () => {
  const doc = Array.from({ length: 60 }, (_, i) => `v${i} = old()\n`).join("");
  const { ws, storage } = await workspace({ "d.py": doc });
  let r = await ws.call("memo_replace", { old_text: "old()", new_text: "new()", replace_all: true });
  assert.equal(r.status, "Success", r.markdown);
  assert.deepEqual(r.pending_changes.map((c) => c.change_id), ["A"]);
  assert.match(r.summary, /change A \(60 places\)/);
  assert.match(r.preview, /\+v1 = new\(\)/);
  r = await ws.call("memo_commit", { summary: "rename old" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal((await storage.load("d.py")).text, doc.replaceAll("old()", "new()"));
  ws.free();
});

// ---------------------------------------------------------------- memo_replace_span

const GUIDE = "# Guide\nintro\n## Setup\nstep one\nstep two\n## Usage\nrun it\n## Setup\nagain\n";

test("replace_span: markers included by default; both restated → no warning", async () => {
  const { ws } = await workspace({ "g.md": GUIDE });
  const r = await ws.call("memo_replace_span", {
    old_span_start: "## Usage",
    old_span_end: "run it",
    new_text: "## Usage\nrun it twice",
  });
  assert.equal(r.status, "Success", r.markdown);
  assert.ok(!r.summary.startsWith("[Warning]"), r.summary);
  assert.equal(r.match_quality, "exact");
  assert.equal(ws.draft(), GUIDE.replace("run it\n", "run it twice\n"));
  assert.equal(r.pending_changes[0].old_text, "## Usage\nrun it");
  ws.free();
});

test("replace_span: keep_end keeps the end marker; a dropped start marker is a [Warning] naming keep_start", async () => {
  const { ws } = await workspace({ "g.md": GUIDE });
  const r = await ws.call("memo_replace_span", {
    old_span_start: "step one",
    old_span_end: "## Usage",
    new_text: "only step\n",
    keep_end: true,
  });
  assert.equal(r.status, "Success", r.markdown);
  assert.ok(r.summary.startsWith("[Warning] "), r.summary);
  assert.match(r.summary, /old_span_start/);
  assert.match(r.summary, /keep_start/);
  assert.doesNotMatch(r.summary, /old_span_end/, "the end marker is kept: no warning about it");
  assert.match(r.markdown, /^### \[Warning\] Overview$/m);
  assert.equal(ws.draft(), "# Guide\nintro\n## Setup\nonly step\n## Usage\nrun it\n## Setup\nagain\n");
  ws.free();
});

test("replace_span: keep_start and keep_end replace only what lies between", async () => {
  const { ws } = await workspace({ "g.md": GUIDE });
  const r = await ws.call("memo_replace_span", {
    old_span_start: "## Usage\n",
    old_span_end: "\n## Setup",
    new_text: "run it with --fast",
    keep_start: true,
    keep_end: true,
  });
  assert.equal(r.status, "Success", r.markdown);
  assert.ok(!r.summary.startsWith("[Warning]"), r.summary);
  assert.equal(ws.draft(), GUIDE.replace("run it", "run it with --fast"));
  ws.free();
});

test("replace_span: several start markers → candidates; match_id stages one; a missing end → NoMatch", async () => {
  const { ws } = await workspace({ "g.md": GUIDE });
  let r = await ws.call("memo_replace_span", { old_span_start: "## Setup", old_span_end: "\n", new_text: "## Install\n" });
  assert.equal(r.status, "MultiMatch", r.markdown);
  assert.equal(r.workflow_state, "SelectionPending");
  assert.deepEqual(r.candidates.map((c) => [c.id, c.line, c.match_quality]), [
    ["A", 3, "exact"],
    ["B", 8, "exact"],
  ]);
  const draft = ws.draft();
  for (const c of r.candidates) assert.equal(draft.slice(c.context_start, c.context_end), "## Setup\n");
  r = await ws.call("memo_replace_span", {
    old_span_start: "## Setup",
    old_span_end: "\n",
    new_text: "## Install\n",
    match_id: "B",
  });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft(), "# Guide\nintro\n## Setup\nstep one\nstep two\n## Usage\nrun it\n## Install\nagain\n");

  r = await ws.call("memo_replace_span", { old_span_start: "## Usage", old_span_end: "## Nowhere", new_text: "x" });
  assert.equal(r.status, "NoMatch");
  assert.match(r.summary, /## Nowhere/);
  ws.free();
});

// ---------------------------------------------------------------- memo_replace_selection

test("replace_selection: by letter, by number 2, and by the string \"2\"", async () => {
  const doc = "- a: todo\n- b: todo\n- c: todo\n";
  for (const [id, line] of [["C", 3], [2, 2], ["2", 2], [1, 1]]) {
    const { ws } = await workspace({ "t.md": doc });
    const m = await ws.call("memo_replace", { old_text: "todo", new_text: "done" });
    assert.equal(m.status, "MultiMatch");
    const r = await ws.call("memo_replace_selection", { selection_id: id });
    assert.equal(r.status, "Success", `${JSON.stringify(id)}: ${r.markdown}`);
    assert.equal(r.pending_changes.length, 1);
    assert.equal(r.pending_changes[0].line, line, `selection_id ${JSON.stringify(id)}`);
    assert.equal(r.workflow_state, "PersistPending");
    const lines = ws.draft().split("\n");
    assert.equal(lines[line - 1].endsWith("done"), true);
    assert.equal(lines.filter((l) => l.endsWith("done")).length, 1);
    ws.free();
  }
});

test("replace_selection: new_text overrides the one given with the search; preview_only stages nothing", async () => {
  const { ws } = await workspace({ "t.md": "- a: todo\n- b: todo\n" });
  await ws.call("memo_replace", { old_text: "todo", new_text: "done" });
  const p = await ws.call("memo_replace_selection", { selection_id: "B", new_text: "skipped", preview_only: true });
  assert.equal(p.status, "Success", p.markdown);
  assert.match(p.preview, /\+- b: skipped/);
  assert.equal(ws.draft(), "- a: todo\n- b: todo\n", "preview_only changes nothing");
  assert.equal(ws.state, "SelectionPending");
  const r = await ws.call("memo_replace_selection", { selection_id: "B", new_text: "skipped" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft(), "- a: todo\n- b: skipped\n");
  ws.free();
});

test("tools({format: \"openai\"}) lists memo_replace_selection only while a choice is pending", async () => {
  const { ws } = await workspace({ "t.md": "- a: todo\n- b: todo\nreturn open_socket(host, port)\n" });
  assert.ok(!openaiNames(ws).includes("memo_replace_selection"), "Idle: hidden");
  const hidden = await ws.call("memo_replace_selection", { selection_id: "A" });
  assert.equal(hidden.status, "Blocked", "calling it without a choice is Blocked");
  assert.equal(ws.draft(), "- a: todo\n- b: todo\nreturn open_socket(host, port)\n");

  await ws.call("memo_replace", { old_text: "todo", new_text: "done" });
  assert.equal(ws.state, "SelectionPending");
  assert.ok(openaiNames(ws).includes("memo_replace_selection"), "after a MultiMatch: listed");
  const schema = ws.tools({ format: "openai" }).find((t) => t.function.name === "memo_replace_selection").function.parameters;
  assert.deepEqual(schema.required, ["selection_id"]);

  await ws.call("memo_replace_selection", { selection_id: "A" });
  assert.equal(ws.state, "PersistPending");
  assert.ok(!openaiNames(ws).includes("memo_replace_selection"), "after staging: hidden again");

  const near = await ws.call("memo_replace", { old_text: "return open_sockt(host, port)", new_text: "x" });
  assert.equal(near.status, "NoMatch");
  assert.equal(ws.state, "SelectionPending");
  assert.ok(openaiNames(ws).includes("memo_replace_selection"), "after a near miss: listed");
  assert.ok(near.visible_tools.includes("memo_replace_selection"));

  await ws.call("memo_revert", { reason: "done testing" });
  assert.equal(ws.state, "Idle");
  assert.ok(!openaiNames(ws).includes("memo_replace_selection"), "after revert: hidden");
  ws.free();
});

// ---------------------------------------------------------------- near misses

const CFG = "def connect(host, port):\n    timeout = 30\n    retries = 3\n    return open_socket(host, port, timeout)\n";

test("near miss: NoMatch offers candidate A similar:…, a character-level diff and the whole small document", async () => {
  const { ws, storage } = await workspace({ "cfg.py": CFG });
  const r = await ws.call("memo_replace", {
    old_text: "return open_sockt(host, port, timeout)",
    new_text: "return open_sockt(host, port, timeout=timeout)",
  });
  assert.equal(r.status, "NoMatch", r.markdown);
  assert.equal(r.workflow_state, "SelectionPending");
  assert.equal(r.match_quality, null, "nothing was matched");
  assert.ok(r.candidates.length >= 1, r.markdown);
  const [a] = r.candidates;
  assert.equal(a.id, "A");
  assert.equal(a.line, 4);
  assert.match(a.match_quality, /^similar:(0\.\d\d|1\.00)$/);
  const similarity = Number(a.match_quality.slice("similar:".length));
  assert.ok(similarity >= 0.8 && similarity < 1, a.match_quality);
  assert.equal(ws.draft().slice(a.context_start, a.context_end), "return open_socket(host, port, timeout)");
  assert.equal(r.metrics.selection_count, r.candidates.length);
  for (const c of r.candidates) assert.ok(Number(c.match_quality.slice("similar:".length)) >= 0.8, c.match_quality);
  // What differs, with the region's letter.
  assert.match(r.preview, /^\[A\] line 4, similarity/m);
  assert.match(r.preview, /\{\+e\+\}/, "the missing e is shown as only in the document");
  // The whole document, with gutters (it is small).
  assert.equal(r.content.split("\n").filter(Boolean).length, 4);
  assert.match(r.content, /^ *4│     return open_socket\(host, port, timeout\)$/m);
  assert.match(r.markdown, new RegExp(`^- \\[A\\] line 4: .* · ${a.match_quality.replace(".", "\\.")}$`, "m"));
  assert.match(r.guidance, /memo_replace_selection/);
  assert.equal(ws.draft(), CFG, "nothing is applied on similarity alone");

  const s = await ws.call("memo_replace_selection", { selection_id: "A" });
  assert.equal(s.status, "Success", s.markdown);
  // Staged by a three-way apply: only the change, onto the region's own text (its `open_socket`).
  assert.equal(s.match_quality, `${a.match_quality}+merged`);
  assert.ok(s.summary.startsWith("[Warning] "), s.summary);
  assert.equal(ws.draft(), CFG.replace("return open_socket(host, port, timeout)", "return open_socket(host, port, timeout=timeout)"));
  const c = await ws.call("memo_commit", { summary: "pass timeout by name" });
  assert.equal(c.status, "Success", c.markdown);
  assert.equal(storage.read("cfg.py"), ws.draft());
  ws.free();
});

test("near miss: match_id A on the same call also stages it", async () => {
  const { ws } = await workspace({ "cfg.py": CFG });
  // The change (30 → 60) is away from the misremembered 33: applied to the region's own text.
  const args = { old_text: "timeout = 30\n    retries = 33", new_text: "timeout = 60\n    retries = 33" };
  const r = await ws.call("memo_replace", args);
  assert.equal(r.status, "NoMatch", r.markdown);
  assert.equal(r.candidates[0]?.id, "A", r.markdown);
  const s = await ws.call("memo_replace", { ...args, match_id: "A" });
  assert.equal(s.status, "Success", s.markdown);
  assert.equal(ws.draft(), CFG.replace("timeout = 30", "timeout = 60"));
  ws.free();
});

test("nearMatchThreshold and maxPreviewLength are passed to the core", async () => {
  const old_text = "return open_sockt(host, port, timeout)";
  // A threshold above the region's similarity: shown in the preview, but no candidate.
  let { ws } = await workspace({ "cfg.py": CFG }, { nearMatchThreshold: 0.999 });
  let r = await ws.call("memo_replace", { old_text, new_text: "x" });
  assert.equal(r.status, "NoMatch");
  assert.deepEqual(r.candidates, []);
  assert.equal(r.workflow_state, "Idle");
  assert.match(r.preview, /similarity/);
  assert.ok(!openaiNames(ws).includes("memo_replace_selection"));
  ws.free();
  // Several close regions: line 2 (a one-letter typo, ≈0.97) and lines a few letters off
  // (min_connections, ≈0.84). The default threshold letters every region ≥ 0.8, the best as A;
  // 0.9 letters only those ≥ 0.9 and still shows the others, unlettered.
  const LIMITS = "limits:\n  max_connections: 100\n  max_connection_age: 300\n  min_connections: 10\n";
  const typo = { old_text: "max_conections: 100", new_text: "max_conections: 250" };
  const similarity = (c) => Number(c.match_quality.slice("similar:".length));
  ({ ws } = await workspace({ "l.yaml": LIMITS }));
  r = await ws.call("memo_replace", typo);
  assert.equal(r.status, "NoMatch", r.markdown);
  assert.ok(r.candidates.length >= 2, r.markdown);
  assert.equal(r.candidates[0].line, 2, "the best region is A");
  assert.ok(r.candidates.every((c) => similarity(c) >= 0.8), r.markdown);
  assert.ok(r.candidates.some((c) => c.line === 4 && similarity(c) < 0.9), r.markdown);
  ws.free();
  ({ ws } = await workspace({ "l.yaml": LIMITS }, { nearMatchThreshold: 0.9 }));
  r = await ws.call("memo_replace", typo);
  assert.equal(r.candidates[0]?.line, 2, r.markdown);
  assert.ok(r.candidates.every((c) => similarity(c) >= 0.9), r.markdown);
  assert.ok(!r.candidates.some((c) => c.line === 4), r.markdown);
  assert.match(r.preview, /^line 4, similarity/m, "line 4 is still shown, unlettered");
  const s = await ws.call("memo_replace_selection", { selection_id: 1 });
  assert.equal(s.status, "Success", s.markdown);
  assert.equal(ws.draft(), LIMITS.replace("max_connections: 100", "max_connections: 250"));
  ws.free();
  // A tiny maxPreviewLength: the document is no longer "small", so it is not shown whole.
  ({ ws } = await workspace({ "cfg.py": CFG }, { maxPreviewLength: 5 }));
  r = await ws.call("memo_replace", { old_text, new_text: "x" });
  assert.equal(r.status, "NoMatch");
  assert.equal(r.content, null);
  ws.free();
  ({ ws } = await workspace({ "cfg.py": CFG }));
  r = await ws.call("memo_replace", { old_text, new_text: "x" });
  assert.notEqual(r.content, null, "by default a small document is shown whole");
  ws.free();
});

test("bad nearMatchThreshold / maxPreviewLength reject Workspace.create with an error naming the option", async () => {
  const storage = new MemoryStorage({ "a.txt": "a\n" });
  for (const [opts, name] of [
    [{ nearMatchThreshold: 0 }, /nearMatchThreshold/],
    [{ nearMatchThreshold: 1.5 }, /nearMatchThreshold/],
    [{ nearMatchThreshold: "0.9" }, /nearMatchThreshold/],
    [{ maxPreviewLength: 0 }, /maxPreviewLength/],
    [{ maxPreviewLength: 2.5 }, /maxPreviewLength/],
  ]) {
    await assert.rejects(Workspace.create({ storage, ...opts }), name, JSON.stringify(opts));
  }
  const ws = await Workspace.create({ storage, nearMatchThreshold: 1, maxPreviewLength: 1 });
  ws.free();
});

// ---------------------------------------------------------------- memo_replace_lines

test("replace_lines: keys parsed from a line_keys read; a stale key → StaleReference with the current keys", async () => {
  const { ws } = await workspace({ "cfg.py": CFG });
  const read = await ws.call("memo_read", { line_keys: true });
  assert.equal(read.status, "Success");
  const keys = parseKeys(read.content);
  assert.deepEqual(keys.map((k) => k.text), CFG.replace(/\n$/, "").split("\n"), read.content);
  assert.deepEqual(keys.map((k) => k.line), [1, 2, 3, 4]);

  let r = await ws.call("memo_replace_lines", { start_key: keys[1].key, end_key: keys[2].key, new_text: "    timeout = 60\n    retries = 5" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.match_quality, null);
  assert.equal(ws.draft(), CFG.replace("timeout = 30", "timeout = 60").replace("retries = 3", "retries = 5"));

  // Line 2 changed: its old key is stale.
  const before = snapshot(ws);
  r = await ws.call("memo_replace_lines", { start_key: keys[1].key, new_text: "    timeout = 90" });
  assert.equal(r.status, "StaleReference", r.markdown);
  assert.deepEqual(snapshot(ws), before, "nothing changed");
  assert.equal(r.pending_changes.length, 1, "the staged change is kept");
  assert.match(r.summary, new RegExp(keys[1].key));
  const current = parseKeys(r.content);
  const line2 = current.find((k) => k.line === 2);
  assert.ok(line2, r.content);
  assert.equal(line2.text, "    timeout = 60");
  assert.notEqual(line2.key, keys[1].key);
  assert.equal(current.find((k) => k.line === 4)?.key, keys[3].key, "an unchanged line keeps its key");

  // The current key works.
  r = await ws.call("memo_replace_lines", { start_key: line2.key, new_text: "    timeout = 90" });
  assert.equal(r.status, "Success", r.markdown);
  assert.match(ws.draft(), /^ {4}timeout = 90$/m);

  // A line past the end is stale too; a key in the wrong shape is InvalidArguments.
  r = await ws.call("memo_replace_lines", { start_key: "99#abcd", new_text: "x" });
  assert.equal(r.status, "StaleReference", r.markdown);
  r = await ws.call("memo_replace_lines", { start_key: "line 2", new_text: "x" });
  assert.equal(r.status, "InvalidArguments", r.markdown);
  ws.free();
});

test("replace_lines: empty new_text deletes the lines with their line break", async () => {
  const { ws } = await workspace({ "cfg.py": CFG });
  const keys = parseKeys((await ws.call("memo_read", { line_keys: true })).content);
  const r = await ws.call("memo_replace_lines", { start_key: keys[2].key, new_text: "" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft(), CFG.replace("    retries = 3\n", ""));
  ws.free();
});

// ---------------------------------------------------------------- memo_append

test("memo_append adds text at the end, staged; a second append amends the same change", async () => {
  const { ws, storage } = await workspace({ "log.md": "# Log\n" });
  let r = await ws.call("memo_append", { text: "- first\n" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.pending_changes.length, 1);
  assert.equal(ws.draft(), "# Log\n- first\n");
  assert.equal(storage.read("log.md"), "# Log\n");
  r = await ws.call("memo_append", { text: "- second\n" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft(), "# Log\n- first\n- second\n");
  assert.deepEqual(r.pending_changes.map((c) => c.change_id), ["A"]);
  assert.equal(r.pending_changes[0].amended, true);
  r = await ws.call("memo_commit", { summary: "log" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(storage.read("log.md"), "# Log\n- first\n- second\n");
  // An empty document.
  const { ws: empty } = await workspace({ "e.txt": "" });
  r = await empty.call("memo_append", { text: "hello" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(empty.draft(), "hello");
  empty.free();
  ws.free();
});

// ---------------------------------------------------------------- path: a second document

test("every tool works on a second document via path, and leaves the default document alone", async () => {
  const MAIN = "main: todo\n";
  const SECOND = "# Second\n- a: todo\n- b: todo\n## End\nfin\n";
  const { ws, storage } = await workspace({ "main.md": MAIN, "second.md": SECOND });
  const path = "second.md";
  assert.equal(ws.paths()[0], "main.md");

  const read = await ws.call("memo_read", { path, line_keys: true });
  assert.equal(read.path, path);
  const keys = parseKeys(read.content);
  assert.equal(keys[0].text, "# Second");

  let r = await ws.call("memo_replace", { path, old_text: "todo", new_text: "done" });
  assert.equal(r.status, "MultiMatch");
  assert.equal(r.path, path);
  const d = ws.draft(path);
  for (const c of r.candidates) assert.equal(d.slice(c.context_start, c.context_end), "todo");

  r = await ws.call("memo_replace_selection", { path, selection_id: "B" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.pending_changes.at(-1).path, path);

  r = await ws.call("memo_replace_span", { path, old_span_start: "## End", old_span_end: "fin", new_text: "## End\nthe end" });
  assert.equal(r.status, "Success", r.markdown);

  r = await ws.call("memo_replace_lines", { path, start_key: keys[0].key, new_text: "# Second document" });
  assert.equal(r.status, "Success", r.markdown);

  r = await ws.call("memo_append", { path, text: "appendix\n" });
  assert.equal(r.status, "Success", r.markdown);

  r = await ws.call("memo_replace", { path, old_text: "- a:  todo", new_text: "- a: later" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(r.match_quality, "whitespace");

  r = await ws.call("memo_preview", { path });
  assert.equal(r.status, "Success", r.markdown);
  assert.match(r.preview, /the end/);

  const expected = "# Second document\n- a: later\n- b: done\n## End\nthe end\nappendix\n";
  assert.equal(ws.draft(path), expected);
  assert.equal(ws.draft(), MAIN, "the default document is untouched");
  assert.ok(r.pending_changes.every((c) => c.path === path));

  // A mismatching path for the pending selection is refused.
  await ws.call("memo_replace", { old_text: "todo", new_text: "x", path });
  r = await ws.call("memo_replace", { old_text: "o", new_text: "0", path: "main.md" });
  assert.equal(r.status, "MultiMatch");
  r = await ws.call("memo_replace_selection", { selection_id: "A", path });
  assert.equal(r.status, "InvalidArguments", r.markdown);
  assert.equal(ws.draft(), MAIN);

  // An unknown path changes nothing.
  r = await ws.call("memo_append", { path: "nope.md", text: "x" });
  assert.notEqual(r.status, "Success");

  await ws.call("memo_revert", { reason: "reset the selection" });
  await ws.call("memo_replace", { path, old_text: "b: todo", new_text: "b: done" });
  await ws.call("memo_commit", { summary: "second" });
  assert.equal(storage.read(path), SECOND.replace("b: todo", "b: done"));
  assert.equal(storage.read("main.md"), MAIN);
  ws.free();
});

// ---------------------------------------------------------------- bad input from JS

test("bad selection_id / match_id from JS are InvalidArguments and change nothing", async () => {
  const doc = "- a: todo\n- b: todo\n";
  const { ws } = await workspace({ "t.md": doc });
  await ws.call("memo_replace", { old_text: "todo", new_text: "done" });
  const before = snapshot(ws);
  assert.equal(before.state, "SelectionPending");
  for (const selection_id of [0, 27, "a", -1, 1.5, "AB", true, null, "C"]) {
    const r = await ws.call("memo_replace_selection", { selection_id });
    assert.equal(r.status, "InvalidArguments", `selection_id ${JSON.stringify(selection_id)}: ${r.summary}`);
    assert.match(`${r.summary} ${r.guidance}`, /selection_id/);
    assert.deepEqual(snapshot(ws), before, `selection_id ${JSON.stringify(selection_id)} changed nothing`);
    assert.deepEqual(r.pending_changes, []);
  }
  for (const match_id of ["a", "AA", 1, "", "Z"]) {
    const r = await ws.call("memo_replace", { old_text: "todo", new_text: "done", match_id });
    assert.equal(r.status, "InvalidArguments", `match_id ${JSON.stringify(match_id)}: ${r.summary}`);
    assert.match(r.summary, /match_id/);
    assert.deepEqual(snapshot(ws), before, `match_id ${JSON.stringify(match_id)} changed nothing`);
  }
  // The selection survived every refusal.
  const r = await ws.call("memo_replace_selection", { selection_id: "B" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft(), "- a: todo\n- b: done\n");
  ws.free();
});

test("the other new tools refuse bad arguments without changing anything", async () => {
  const { ws } = await workspace({ "g.md": GUIDE });
  const before = snapshot(ws);
  for (const [tool, args] of [
    ["memo_replace_span", { old_span_start: "## Usage", new_text: "x" }],
    ["memo_replace_span", { old_span_start: "", old_span_end: "run it", new_text: "x" }],
    ["memo_replace_span", { old_span_start: "## Usage", old_span_end: "run it", new_text: "x", keep_end: "yes" }],
    ["memo_replace_lines", { start_key: 12, new_text: "x" }],
    ["memo_replace_lines", { start_key: "2#zzzz", new_text: "x" }],
    ["memo_replace_lines", { start_key: "0#abcd", new_text: "x" }],
    ["memo_append", {}],
    ["memo_append", { text: 5 }],
    ["memo_replace", { old_text: "intro", new_text: "x", replace_all: "yes" }],
    ["memo_replace", { old_text: "intro", new_text: "x", expected_occurrences: 0 }],
    ["memo_replace", { old_text: "intro", new_text: "x", selection_id: "A" }],
  ]) {
    const r = await ws.call(tool, args);
    assert.equal(r.status, "InvalidArguments", `${tool} ${JSON.stringify(args)}: ${r.summary}`);
    assert.deepEqual(snapshot(ws), before, `${tool} ${JSON.stringify(args)}`);
  }
  ws.free();
});
