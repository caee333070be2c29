// Live context (002), the task report and the memory store (004) through the built package, the
// way an agent loop uses them: build the block before each request, store each turn's context,
// let the model recall and search it.
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace } from "@agentpad/core";

const CONFIG = "# service\nname: orders\ntimeout: 30\nretries: 3\n";

test("the live context follows commits, failed saves and external changes", async () => {
  const storage = new MemoryStorage({ "config.yaml": CONFIG });
  const ws = await Workspace.create({ storage });
  await ws.call("memo_begin_task", { goal: "raise the timeout" });
  await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  await ws.call("memo_commit", { summary: "timeout to 60 s" });
  await ws.call("memo_replace", { old_text: "retries: 3", new_text: "retries: 5" });
  storage.failNext("save");
  const failed = await ws.call("memo_commit", { summary: "more retries" });
  assert.equal(failed.status, "PersistFailure");
  await ws.call("memo_revert", { reason: "not now" });
  storage.write("config.yaml", ws.text() + "owner: ops\n");
  await ws.call("memo_read", {});

  const live = ws.liveContext({ editorState: { cursor: { line: 3, column: 1 } } });
  const { json, markdown, content_parts } = live;
  assert.deepEqual(
    json.recent_diffs.map((d) => [d.version_id, d.kind, d.is_error]),
    [["v2", "external", false], ["v2-failed", "failed", true], ["v1", "commit", false]],
  );
  assert.match(json.recent_diffs[1].error, /save/i);
  assert.match(json.recent_diffs[2].patch, /^--- a\/config.yaml\n\+\+\+ b\/config.yaml\n@@ -1,4 \+1,4 @@\n # service\n name: orders\n-timeout: 30\n\+timeout: 60\n/);
  assert.match(json.recent_diffs[2].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(json.anchor_diff.from_version, "v0");
  assert.equal(json.current_document.text, "1│ # service\n2│ name: orders\n3│ timeout: 60\n4│ retries: 3\n5│ owner: ops\n");
  assert.deepEqual(json.editor_state.cursor, { line: 3, column: 1 });
  assert.equal(json.task_tree[0].goal, "raise the timeout");
  assert.deepEqual(json.plan_hints[0], { ...json.plan_hints[0], tool: "memo_read", status: "Success" });
  // Content parts are the Markdown's sections, ready for the last user message.
  assert.equal(content_parts.map((p) => p.text).join("\n"), markdown);
  assert.ok(content_parts.every((p) => p.type === "text"));
  assert.deepEqual(
    content_parts.map((p) => p.text.split("\n")[0]),
    ["# Live Context", "## Current Document", "## Recent Diffs (new→old)", "## Anchor Diff", "## Editor State", "## Plan Hints", "## Tasks"],
  );
  // Options, locale and errors.
  const zh = ws.liveContext({ locale: "zh", recentDiffs: 1, anchor: "none" });
  assert.equal(zh.json.recent_diffs.length, 1);
  assert.equal(zh.json.anchor_diff, null);
  assert.ok(zh.markdown.startsWith("# 实时上下文\n"));
  assert.equal(ws.liveContext({ anchor: { commitsBack: 1 } }).json.anchor_diff.from_version, "v1");
  assert.throws(() => ws.liveContext({ recentDiffs: -1 }), /`recentDiffs` must be a whole number from 0 to 32, got -1/);
  assert.throws(() => ws.liveContext({ editorState: { cursor: { line: 99, column: 1 } } }), /cursor line must be from 1 to 5, got 99/);
  assert.throws(() => ws.liveContext({ path: "nope.md" }), /not open/);
  assert.deepEqual(ws.liveContext().json.editor_state.cursor, { line: 3, column: 1 }, "a refused state changed nothing");
  ws.setEditorState({ cursor: { line: 5, column: 3 } });
  assert.deepEqual(ws.liveContext().json.editor_state.cursor, { line: 5, column: 3 });

  const tasks = ws.tasks();
  assert.deepEqual(tasks.task_stack, []);
  assert.equal(tasks.markdown, "🌳 Tasks finished in this session:\n- ✅ raise the timeout\n");
  ws.free();
});

test("a 10 MB document: the block stays within its budget", async () => {
  const lines = [];
  let size = 0;
  for (let i = 0; size <= 10_000_000; i++) {
    const line = (i % 500 === 0 ? `## Part ${i}\n` : "") + `- entry ${i}: lorem ipsum dolor sit amet, consectetur adipiscing\n`;
    lines.push(line);
    size += line.length;
  }
  const text = lines.join("");
  assert.ok(text.length > 10_000_000, `${text.length} chars`);
  const ws = await Workspace.create({ storage: new MemoryStorage({ "big.md": text }) });
  const r = await ws.call("memo_replace", { old_text: "- entry 120000: lorem", new_text: "- entry 120000: LOREM" });
  assert.equal(r.status, "Success");
  const live = ws.liveContext();
  const doc = live.json.current_document;
  assert.equal(doc.complete, false);
  assert.ok(doc.start_line <= doc.focus_line && doc.focus_line <= doc.end_line);
  assert.ok(doc.text.includes("- entry 120000: LOREM"));
  assert.ok(doc.headings.length > 0);
  assert.ok(live.markdown.length < 16_000 + 2_000 + 4 * 4_200 + 2_000, `${live.markdown.length} chars`);
  ws.free();
});

test("the memory store: add, tools, export → import → identical search", async () => {
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.ts": "export {}\n" }), memory: true });
  assert.equal(ws.memory.add({ summary: "分析了代码库结构，发现3个模块", context: "Files: main.ts, utils.ts, config.ts", atMs: 1000 }), 1);
  assert.equal(ws.memory.add({ summary: "发现性能瓶颈", insights: ["parse() 占 80%"], context: "benchmark.ts", atMs: 2000 }), 2);
  assert.equal(ws.memory.add({ turn: 5, summary: "Optimised the parser", context: "utils.ts rewritten", tags: ["perf"], atMs: 3000 }), 5);
  assert.throws(() => ws.memory.add({ turn: 4, summary: "late", context: "" }), /turn 4 is not after the last stored turn 5/);
  assert.equal(ws.memory.turns().length, 3);
  assert.equal(ws.memory.digest(), "[Turn 1] 分析了代码库结构，发现3个模块\n[Turn 2] 发现性能瓶颈\n[Turn 5] Optimised the parser");

  const tools = ws.tools({ format: "openai" }).map((t) => t.function.name);
  assert.ok(tools.includes("memo_recall_context") && tools.includes("memo_search_memory"));
  const recall = await ws.call("memo_recall_context", { turn_numbers: [2] });
  assert.equal(recall.status, "Success");
  assert.equal(recall.memory.kind, "recall");
  assert.equal(recall.memory.turns[0].insights[0], "parse() 占 80%");
  assert.match(recall.markdown, /\[Turn 2\] 发现性能瓶颈\n- parse\(\) 占 80%\nContext:\nbenchmark\.ts/);
  const search = await ws.call("memo_search_memory", { query: "性能瓶颈" });
  assert.deepEqual(search.memory.hits.map((h) => h.turn), [2]);
  const bad = await ws.call("memo_recall_context", { turn_numbers: "2" });
  assert.equal(bad.status, "InvalidArguments");

  const exported = ws.memory.export();
  const other = await Workspace.create({ storage: new MemoryStorage({ "b.ts": "" }) });
  other.memory.import(exported);
  assert.equal(other.memory.export(), exported, "byte-identical round trip");
  for (const q of ["性能", "parser utils", "模块", "perf", "nothing-here"]) {
    assert.deepEqual(other.memory.search(q, 5), ws.memory.search(q, 5), q);
  }
  assert.throws(() => other.memory.import('{"format":"other","version":1,"turns":[]}'), /not an agentpad memory export/);
  assert.equal(other.memory.export(), exported, "a refused import changed nothing");
  // Without the memory option the tools are hidden, but the digest still reaches the live context.
  assert.ok(!other.tools({ format: "anthropic" }).some((t) => t.name === "memo_search_memory"));
  assert.match(other.liveContext().markdown, /## Memory\n\[Turn 1\] 分析了代码库结构/);
  ws.free();
  other.free();
});
