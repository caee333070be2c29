// The core's reliability fixes through the BUILT package, the way a user meets them
// (docs/reliability.md §Matching time and read size): edits that used to land in the wrong
// place or be taken silently, reads without a size cap, a document's own text read as a marker.
// Each case failed before its fix. Speed is the benchmark's business (bench/speed/suites/
// worstcase.mjs), never a timed assertion here.
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace } from "@agentpad/core";

async function open(docs, options = {}) {
  const storage = new MemoryStorage(docs);
  const ws = await Workspace.create({ storage, ...options });
  return { ws, storage };
}

/** The key memo_read(line_keys=true) shows for 1-based `line`. */
async function keyOf(ws, line) {
  const r = await ws.call("memo_read", { line_keys: true });
  return r.content.split("\n")[line - 1].split("│")[0].trim();
}

test("stale line keys whose ends still match do not replace the wrong block", async () => {
  const { ws } = await open({ "a.txt": "a\n}\nfoo()\n}\nbar()\n}\n" });
  const [k4, k6] = [await keyOf(ws, 4), await keyOf(ws, 6)]; // `}` … `}` around bar()
  assert.equal((await ws.call("memo_replace", { old_text: "a\n", new_text: "x\ny\na\n" })).status, "Success");
  const before = ws.draft("a.txt");
  const r = await ws.call("memo_replace_lines", { start_key: k4, end_key: k6, new_text: "baz()" });
  assert.equal(r.status, "StaleReference", r.markdown);
  assert.match(r.summary, /line 5 is now `foo\(\)`/);
  assert.equal(ws.draft("a.txt"), before, "nothing changed");
  assert.match(r.content, /│ foo\(\)/, "the current keys are shown");
});

test("a YAML block copied without its indentation is those lines, not gutters", async () => {
  const { ws } = await open({ "a.yaml": "order: low\nmid\nhigh\nlevels:\n  1: low\n  2: mid\n" });
  const r = await ws.call("memo_replace", { old_text: "1: low\n2: mid", new_text: "1: low\n2: high" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft("a.yaml"), "order: low\nmid\nhigh\nlevels:\n  1: low\n  2: high\n");
});

test("match_id right after a silent reload is refused, not picked by position", async () => {
  const { ws, storage } = await open({ "a.txt": "x: 1\ntimeout: 30\ny: 2\ntimeout: 30\n" });
  assert.equal((await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" })).status, "MultiMatch");
  storage.write("a.txt", "timeout: 30\nx: 1\ntimeout: 30\ny: 2\ntimeout: 30\n");
  await new Promise((resolve) => setTimeout(resolve, 0)); // the storage's change notice
  const r = await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "B" });
  assert.equal(r.status, "StaleReference", r.markdown);
  assert.match(r.summary, /match_id B .*reloaded from storage/);
  assert.equal(ws.draft("a.txt"), "timeout: 30\nx: 1\ntimeout: 30\ny: 2\ntimeout: 30\n", "the reloaded text, nothing staged");
  // The refusal lists the current candidates; a letter of that listing is honoured.
  const ok = await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "C" });
  assert.equal(ok.status, "Success", ok.markdown);
  assert.equal(ws.draft("a.txt"), "timeout: 30\nx: 1\ntimeout: 30\ny: 2\ntimeout: 60\n");
});

test("an empty old_text refuses arguments that choose among matches", async () => {
  for (const [args, named] of [
    [{ match_id: "B" }, "`match_id` (B)"],
    [{ replace_all: true }, "`replace_all` (true)"],
    [{ expected_occurrences: 2 }, "`expected_occurrences` (2)"],
  ]) {
    const { ws } = await open({ "a.txt": "one\n" });
    const r = await ws.call("memo_replace", { old_text: "", new_text: "two\n", ...args });
    assert.equal(r.status, "InvalidArguments", r.markdown);
    assert.ok(r.summary.includes(named), r.summary);
    assert.equal(ws.draft("a.txt"), "one\n", "nothing appended");
  }
});

test("an exact match never cuts a character from its combining mark", async () => {
  const { ws } = await open({ "a.txt": "un cafe\u0301 noir\nun cafe glacé\n" });
  const r = await ws.call("memo_replace", { old_text: "cafe", new_text: "thé" });
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft("a.txt"), "un cafe\u0301 noir\nun thé glacé\n");
});

test("a read of a huge line or a million lines is capped and says how to read on", async () => {
  const { ws } = await open({ "big.txt": "x".repeat(20_000_000) + "\nshort\n", "lines.txt": "\n".repeat(1_000_000) });
  const big = await ws.call("memo_read", { path: "big.txt" });
  assert.ok(big.content.length < 20_000, `${big.content.length} chars returned for a 20 MB line`);
  assert.match(big.content, /⟪clipped: 19990000 more chars⟫/);
  const lines = await ws.call("memo_read", { path: "lines.txt" });
  assert.equal(lines.content.split("\n").length - 1, 2000);
  assert.match(lines.summary, /at most 2000 lines \(option max_read_lines\)/);
  assert.match(lines.guidance, /^Read on with memo_read\(start_line=2001\)\./);
  const on = await ws.call("memo_read", { path: "lines.txt", start_line: 2001 });
  assert.match(on.summary, /Read lines 2001–4000/);
});

test("a document's own [[SEL#B]] text is never taken for a candidate marker", async () => {
  const { ws } = await open({ "notes.md": "Reads mark candidates as [[SEL#B]]…[[/SEL#B]].\nx = 1\ny = 2\nx = 1\n" });
  assert.equal((await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 3" })).status, "MultiMatch");
  const r = await ws.call("memo_read", {});
  assert.equal(r.content.split("[[SEL#").length - 1, 1, r.content);
  assert.match(r.summary, /candidate A at line 2, B at line 4/);
});

test("the read limits are workspace options", async () => {
  const { ws } = await open({ "a.txt": "0123456789abcdef\nshort\nline three\nfour\n" }, { maxReadLines: 2, maxReadLineChars: 8 });
  const r = await ws.call("memo_read", { line_numbers: false });
  assert.equal(r.content, "01234567⟪clipped: 8 more chars⟫\nshort\n");
  assert.match(r.summary, /at most 2 lines \(option max_read_lines\)/);
  await assert.rejects(open({ "a.txt": "" }, { maxReadChars: 0 }), /max_?[rR]ead_?[cC]hars.*from 1 to 100000000/);
});
