// The built-in flows through the BUILT package, as an agent framework runs them: the three
// example flows and the five workflow scenarios (docs/workflow.md#transcripts), with
// MemoryStorage as the storage (external writes and injected save failures included).
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace } from "@agentpad/core";

const CONFIG = '{\n  "features": {\n    "stable": ["A", "B", "C"],\n    "experimental": []\n  }\n}\n';
const TIMEOUTS = "# database\ndatabase.timeout: 30\n# api\napi.timeout: 30\n# cache\ncache.timeout: 30\n";

async function open(docs, options = {}) {
  const storage = new MemoryStorage(docs);
  const ws = await Workspace.create({ storage, ...options });
  return { storage, ws };
}

test("000 A.1: begin a task, read, replace, commit: the task completes and storage has the edit", async () => {
  const { storage, ws } = await open({ "config.json": CONFIG });
  const task = await ws.call("memo_begin_task", { goal: "enable experimental feature X" });
  assert.equal(task.task_id, "1");
  assert.deepEqual(task.task_stack.map((t) => [t.task_id, t.depth]), [["1", 1]]);
  await ws.call("memo_read", {});
  const staged = await ws.call("memo_replace", { old_text: '"experimental": []', new_text: '"experimental": ["X"]' });
  assert.equal(staged.workflow_state, "PersistPending");
  assert.match(staged.preview, /-\s+"experimental": \[\]\n.*\+\s+"experimental": \["X"\]/s);
  const done = await ws.call("memo_commit", { summary: "enable experimental feature X" });
  assert.equal(done.status, "Success", done.markdown);
  assert.match(done.summary, /Task #1 completed/);
  assert.deepEqual(done.task_stack, []);
  assert.equal(storage.read("config.json"), CONFIG.replace("[]", '["X"]'));
  ws.free();
});

test("000 A.2: three timeouts changed by letter, one commit", async () => {
  const { storage, ws } = await open({ "t.yaml": TIMEOUTS });
  const multi = await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  assert.equal(multi.status, "MultiMatch");
  assert.equal(multi.workflow_state, "SelectionPending");
  assert.deepEqual(multi.candidates.map((c) => c.id), ["A", "B", "C"]);
  for (const id of ["A", "B", "C"]) {
    const r = await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60", match_id: id });
    assert.equal(r.status, "Success", r.markdown);
  }
  const done = await ws.call("memo_commit", { summary: "all timeouts to 60 s" });
  assert.equal(done.status, "Success");
  assert.match(done.summary, /Committed 3 changes \(±0 chars\)/);
  assert.equal(storage.read("t.yaml"), TIMEOUTS.replaceAll("timeout: 30", "timeout: 60"));
  ws.free();
});

test("000 A.3: nested tasks — the subtask completes on its commit, then the parent", async () => {
  const { ws } = await open({ "deps.toml": 'y = "1.0"\n' });
  await ws.call("memo_begin_task", { goal: "add module Y" });
  const sub = await ws.call("memo_begin_task", { goal: "check dependency versions", parent_task_id: "1" });
  assert.deepEqual(sub.task_stack.map((t) => t.goal), ["add module Y", "check dependency versions"]);
  const subDone = await ws.call("memo_commit", { summary: "versions are fine", auto_pop_task: true });
  assert.match(subDone.summary, /Task #2 completed/);
  await ws.call("memo_replace", { old_text: "1.0", new_text: "1.1" });
  const done = await ws.call("memo_commit", { summary: "module Y added" });
  assert.match(done.summary, /Task #1 completed/);
  assert.deepEqual(done.task_stack, []);
  ws.free();
});

test("003 5.1: a single match stages in manual mode and saves at once in immediate mode", async () => {
  const manual = await open({ "a.txt": "foo\n" });
  const r = await manual.ws.call("memo_replace", { old_text: "foo", new_text: "bar" });
  assert.deepEqual([r.status, r.workflow_state], ["Success", "PersistPending"]);
  assert.equal(manual.storage.read("a.txt"), "foo\n");
  const immediate = await open({ "a.txt": "foo\n" }, { persistMode: "immediate" });
  const i = await immediate.ws.call("memo_replace", { old_text: "foo", new_text: "bar" });
  assert.deepEqual([i.status, i.workflow_state], ["Success", "Idle"]);
  assert.equal(immediate.storage.read("a.txt"), "bar\n");
  // memo_commit is offered: it has nothing to save (every edit is saved) and says so, not an error.
  assert.ok(immediate.ws.tools({ format: "anthropic", visibleOnly: true }).some((t) => t.name === "memo_commit"));
  assert.equal((await immediate.ws.call("memo_commit", { summary: "done" })).status, "NoOp");
  assert.ok(!immediate.ws.tools({ format: "anthropic" }).some((t) => t.name === "memo_commit_auto"), "immediate mode never offers commit_auto");
  manual.ws.free();
  immediate.ws.free();
});

test("003 5.2: multi-match, [[SEL#n]] candidates, replace_selection by number", async () => {
  const { ws } = await open({ "a.txt": "Foo() {\n}\nFoo() {\n}\nFoo() {\n}\n" });
  const m = await ws.call("memo_replace", { old_text: "Foo() {", new_text: "Bar() {" });
  assert.equal(m.metrics.selection_count, 3);
  assert.deepEqual(m.candidates.map((c) => c.marker_start), ["[[SEL#A]]", "[[SEL#B]]", "[[SEL#C]]"]);
  assert.ok(ws.tools({ format: "anthropic", visibleOnly: true }).some((t) => t.name === "memo_replace_selection"));
  const r = await ws.call("memo_replace_selection", { selection_id: 2 });
  assert.equal(r.status, "Success");
  assert.equal(ws.draft(), "Foo() {\n}\nBar() {\n}\nFoo() {\n}\n");
  ws.free();
});

test("003 5.3: a failed save is PersistFailure + OutOfSync; diff, persist_as and a retry recover", async () => {
  const { storage, ws } = await open({ "a.txt": "x = 1\n" });
  await ws.call("memo_replace", { old_text: "1", new_text: "2" });
  storage.failNext("save");
  const f = await ws.call("memo_commit", { summary: "bump" });
  assert.deepEqual([f.status, f.workflow_state], ["PersistFailure", "OutOfSync"]);
  assert.deepEqual(f.flags.names, ["OutOfSync"]);
  assert.match(f.guidance, /memo_diff\(against="storage"\)/);
  assert.equal(storage.read("a.txt"), "x = 1\n");
  const d = await ws.call("memo_diff", { against: "storage" });
  assert.match(d.preview, /-x = 1\n\+x = 2/);
  const saved = await ws.call("memo_persist_as", { new_path: "a.txt.recovered" });
  assert.equal(saved.status, "Success", saved.markdown);
  assert.equal(storage.read("a.txt.recovered"), "x = 2\n");
  const retry = await ws.call("memo_commit", { summary: "bump" });
  assert.deepEqual([retry.status, retry.workflow_state], ["Success", "Idle"]);
  assert.equal(storage.read("a.txt"), "x = 2\n");
  ws.free();
});

test("003 5.4: an external write under pending changes is ExternalConflict; rebase keeps what it can", async () => {
  const { storage, ws } = await open({ "a.txt": "alpha = 1\nbeta = 1\ngamma = 1\n" });
  await ws.call("memo_replace", { old_text: "alpha = 1", new_text: "alpha = 2" });
  storage.write("a.txt", "alpha = 1\nbeta = 1\ngamma = 1\ndelta = 1\n"); // another program
  const c = await ws.call("memo_commit", { summary: "alpha" });
  assert.deepEqual([c.status, c.workflow_state], ["ExternalConflict", "OutOfSync"]);
  assert.deepEqual(c.flags.names, ["OutOfSync", "ExternalConflict"]);
  assert.equal(storage.read("a.txt"), "alpha = 1\nbeta = 1\ngamma = 1\ndelta = 1\n");
  const blocked = await ws.call("memo_commit", { summary: "alpha" });
  assert.equal(blocked.status, "Blocked");
  const d = await ws.call("memo_diff", { against: "storage" });
  assert.match(d.preview, /-delta = 1/);
  const r = await ws.call("memo_rebase", {});
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft(), "alpha = 2\nbeta = 1\ngamma = 1\ndelta = 1\n");
  const ok = await ws.call("memo_commit", { summary: "alpha" });
  assert.equal(ok.status, "Success", ok.markdown);
  assert.equal(storage.read("a.txt"), "alpha = 2\nbeta = 1\ngamma = 1\ndelta = 1\n");
  ws.free();
});

test("003 5.4: without pending changes an external write reloads silently and the next summary says so", async () => {
  const { storage, ws } = await open({ "a.txt": "x = 1\n" });
  storage.write("a.txt", "x = 9\n");
  const r = await ws.call("memo_read", {});
  assert.equal(r.status, "Success");
  assert.match(r.summary, /^\[a\.txt changed in storage \(version v2\) and was reloaded/);
  assert.equal(ws.text(), "x = 9\n");
  ws.free();
});

test("003 5.5: disabled persistence keeps PersistReadOnly on every response and never writes", async () => {
  const { storage, ws } = await open({ "a.txt": "x = 1\n" }, { persistMode: "disabled" });
  for (const [name, args] of [["memo_read", {}], ["memo_replace", { old_text: "1", new_text: "2" }], ["memo_commit", { summary: "s" }]]) {
    const r = await ws.call(name, args);
    assert.ok(r.flags.names.includes("PersistReadOnly"), `${name}: ${r.flags.names}`);
  }
  assert.equal(ws.text(), "x = 2\n");
  assert.equal(storage.read("a.txt"), "x = 1\n");
  ws.free();
});

test("a multi-document commit is all or nothing: a failed save restores what was written", async () => {
  const { storage, ws } = await open({ "a.txt": "a = 1\n", "b.txt": "b = 1\n" });
  await ws.call("memo_replace", { path: "a.txt", old_text: "1", new_text: "2" });
  await ws.call("memo_replace", { path: "b.txt", old_text: "1", new_text: "2" });
  // a.txt saves first; make b.txt's save fail by changing its version under the workspace
  // without telling it (the save's version check rejects it).
  const realSave = storage.save.bind(storage);
  storage.save = async (path, text, expected) => {
    if (path === "b.txt") throw new Error("disk full");
    return realSave(path, text, expected);
  };
  const f = await ws.call("memo_commit", { summary: "both" });
  assert.equal(f.status, "PersistFailure", f.markdown);
  assert.match(f.summary, /Nothing was committed: a\.txt \(now version v3\)/);
  assert.equal(storage.read("a.txt"), "a = 1\n");
  assert.equal(storage.read("b.txt"), "b = 1\n");
  assert.equal(ws.draft("a.txt"), "a = 2\n");
  storage.save = realSave;
  const ok = await ws.call("memo_commit", { summary: "both" });
  assert.equal(ok.status, "Success", ok.markdown);
  assert.deepEqual([storage.read("a.txt"), storage.read("b.txt")], ["a = 2\n", "b = 2\n"]);
  ws.free();
});

test("memo_export_session returns the call log with statuses", async () => {
  const { ws } = await open({ "a.txt": "x = 1\n" });
  await ws.call("memo_read", {}, { toolCallId: "call_1" });
  await ws.call("memo_replace", { old_text: "1", new_text: "2" }, { toolCallId: "call_2" });
  const r = await ws.call("memo_export_session", {});
  assert.deepEqual(
    r.session_log.map((e) => [e.tool, e.status, e.tool_call_id]),
    [["memo_read", "Success", "call_1"], ["memo_replace", "Success", "call_2"], ["memo_export_session", null, null]],
  );
  assert.equal(typeof r.session_log[0].at_ms, "number");
  ws.free();
});

test("preview options: previewMode and previewContextLines shape staged previews; memo_preview picks a format", async () => {
  const text = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const { ws } = await open({ "a.txt": text }, { previewMode: "diff", previewContextLines: 1 });
  const staged = await ws.call("memo_replace", { old_text: "line 6", new_text: "LINE 6" });
  assert.equal(staged.preview, "--- a/a.txt\n+++ b/a.txt\n@@ -5,3 +5,3 @@\n line 5\n-line 6\n+LINE 6\n line 7\n");
  const stats = await ws.call("memo_preview", { format: "stats" });
  // What differs: `line` → `LINE` (the ` 6` is shared).
  assert.match(stats.preview, /\+4\/-4 chars/);
  await assert.rejects(open({ "a.txt": "x" }, { previewMode: "fancy" }), /previewMode/);
  ws.free();
});

test("text() right after a commit returns the committed text (served from the save when it is LF-only)", async () => {
  const { storage, ws } = await open({ "lf.txt": "a = 1\n", "crlf.txt": "b = 1\r\n" });
  await ws.call("memo_replace", { path: "lf.txt", old_text: "1", new_text: "2" });
  await ws.call("memo_replace", { path: "crlf.txt", old_text: "1", new_text: "2" });
  await ws.call("memo_commit", { summary: "both" });
  assert.equal(ws.text("lf.txt"), "a = 2\n");
  assert.equal(ws.text("crlf.txt"), "b = 2\n", "CRLF stays normalised in text()");
  assert.equal(storage.read("crlf.txt"), "b = 2\r\n");
  // the next call may change the committed text: text() follows the core again
  storage.write("lf.txt", "a = 7\n");
  await ws.call("memo_read", { path: "lf.txt" });
  assert.equal(ws.text("lf.txt"), "a = 7\n");
  ws.free();
  assert.throws(() => ws.text("lf.txt"), /freed/);
});

test("diagnostics: off by default; a sink receives MatchTrace/Persistence/External records with the call's duration", async () => {
  const plain = await open({ "a.txt": "x = 1\n" });
  assert.ok(!(await plain.ws.call("memo_read", {})).flags.names.includes("DiagnosticHint"));
  plain.ws.free();

  const records = [];
  const { storage, ws } = await open({ "a.txt": "t: 1\nt: 1\n" }, { diagnostics: { sink: (r) => records.push(r) } });
  const m = await ws.call("memo_replace", { old_text: "t: 1", new_text: "t: 2" });
  assert.ok(m.flags.names.includes("DiagnosticHint"));
  assert.match(m.guidance, /Diagnostics are on .*op-1/);
  assert.equal(records.length, 1);
  const [trace] = records;
  assert.deepEqual([trace.category, trace.operation_id, trace.status, trace.detail.matches], ["TextEdit.MatchTrace", "op-1", "MultiMatch", 2]);
  assert.equal(typeof trace.duration_ms, "number");
  await ws.call("memo_replace_selection", { selection_id: "B" });
  storage.failNext("save");
  await ws.call("memo_commit", { summary: "s" });
  const failed = records.filter((r) => r.category === "TextEdit.Persistence");
  assert.equal(failed.at(-1).error, "a.txt: MemoryStorage: injected save failure \"a.txt\" (failNext(\"save\"))");
  await ws.call("memo_discard", {});
  storage.write("a.txt", "t: 9\n");
  await ws.call("memo_read", {});
  const external = records.find((r) => r.category === "TextEdit.External");
  assert.equal(external.detail.action, "reloaded: no pending changes");
  assert.equal(external.status, null);
  ws.free();
  await assert.rejects(open({ "a.txt": "x" }, { diagnostics: { categories: ["Bogus"], sink() {} } }), /unknown diagnostics category `Bogus`/);
  await assert.rejects(open({ "a.txt": "x" }, { diagnostics: {} }), /needs a sink function/);
});

test("diagnostics: AGENTPAD_DEBUG in Node writes records to stderr", async () => {
  const { spawnSync } = await import("node:child_process");
  const code = `import { MemoryStorage, Workspace } from "@agentpad/core";
const ws = await Workspace.create({ storage: new MemoryStorage({ "a.txt": "x = 1\\n" }) });
const r = await ws.call("memo_replace", { old_text: "1", new_text: "2" });
console.log(r.flags.names.join(","));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: new URL("..", import.meta.url),
    env: { ...process.env, AGENTPAD_DEBUG: "MatchTrace" },
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /PersistPending,DiagnosticHint/);
  const line = run.stderr.split("\n").find((l) => l.startsWith("[agentpad] "));
  assert.ok(line, run.stderr);
  assert.equal(JSON.parse(line.slice("[agentpad] ".length)).category, "TextEdit.MatchTrace");
});

test("validateResponse: every response of a session is valid in both locales and styles; a broken one is reported", async () => {
  const { validateResponse } = await import("@agentpad/core");
  for (const options of [{}, { locale: "zh" }, { locale: "zh", candidateStyle: "list" }, { candidateStyle: "list" }]) {
    const { storage, ws } = await open({ "t.yaml": TIMEOUTS }, options);
    const responses = [
      await ws.call("memo_read", {}),
      await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" }),
      await ws.call("memo_replace_selection", { selection_id: "B" }),
      await ws.call("memo_replace", { old_text: "no such text at all", new_text: "x" }),
      await ws.call("memo_begin_task", { goal: "g" }),
    ];
    storage.failNext("save");
    responses.push(await ws.call("memo_commit", { summary: "s" }));
    responses.push(await ws.call("memo_export_session", {}));
    for (const r of responses) {
      const v = await validateResponse(r.markdown);
      assert.ok(v.valid, `${JSON.stringify(options)} ${r.status}: ${JSON.stringify(v.violations)}\n${r.markdown}`);
      assert.equal(v.status, r.status);
      assert.equal(v.state, r.workflow_state);
    }
    const multi = responses[1];
    const broken = await validateResponse(multi.markdown.replace("state: `SelectionPending`", "state: `Idle`"));
    assert.equal(broken.valid, false);
    assert.ok(broken.violations.some((v) => v.rule === "StateFlags"), JSON.stringify(broken.violations));
    ws.free();
  }
  await assert.rejects(validateResponse(42), /needs a string/);
});

test("toolStates: every tool, the hidden ones greyed with the reason a call would get", async () => {
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "t: 1\nt: 1\n" }) });
  const idle = ws.toolStates();
  const visible = ws.tools({ format: "json-schema", visibleOnly: true }).map((t) => t.name);
  assert.deepEqual(idle.filter((s) => s.available).map((s) => s.definition.name), visible);
  const choose = idle.find((s) => s.definition.name === "memo_replace_selection");
  assert.equal(choose.available, false);
  assert.match(choose.reason, /memo_replace_selection is not available in state Idle/);
  assert.match(choose.guidance, /There is no choice pending/);
  assert.ok(idle.length > visible.length);
  await ws.call("memo_replace", { old_text: "t: 1", new_text: "t: 2" }); // MultiMatch → SelectionPending
  const pending = ws.toolStates();
  assert.equal(pending.find((s) => s.definition.name === "memo_replace_selection").available, true);
  const commit = pending.find((s) => s.definition.name === "memo_commit");
  assert.equal(commit.available, false);
  assert.match(commit.guidance, /Choose a candidate/);
  const blocked = await ws.call("memo_commit", { summary: "x" });
  assert.equal(blocked.status, "Blocked");
  assert.equal(commit.reason, blocked.summary.replace(/^\[[^\]]*\] /, ""));
  ws.free();
});

test("tools(): the same bytes in all five workflow states, for every format; visibleOnly follows the state", async () => {
  /** A MemoryStorage whose load can run a hook while the workspace waits for it (Refreshing). */
  class HookedStorage extends MemoryStorage {
    onLoad = undefined;
    async load(path) {
      this.onLoad?.();
      return super.load(path);
    }
  }
  const storage = new HookedStorage({ "a.txt": "t: 1\nt: 1\n" });
  const ws = await Workspace.create({ storage });
  const formats = ["openai", "openai-responses", "anthropic", "mcp", "gemini", "json-schema"];
  const snapshot = () => ({
    state: ws.state,
    lists: formats.map((format) => JSON.stringify(ws.tools({ format }))),
    visible: ws.tools({ format: "json-schema", visibleOnly: true }).map((t) => t.name),
  });
  const seen = [snapshot()];
  assert.equal((await ws.call("memo_replace", { old_text: "t: 1", new_text: "t: 2" })).status, "MultiMatch");
  seen.push(snapshot());
  await ws.call("memo_replace_selection", { selection_id: "A" });
  seen.push(snapshot());
  storage.write("a.txt", "t: 1\nt: 1\nu: 0\n");
  await ws.call("memo_read", {}); // the shell learns of the change before the call: OutOfSync
  seen.push(snapshot());
  storage.onLoad = () => seen.push(snapshot());
  await ws.call("memo_refresh", {});
  assert.deepEqual(seen.map((s) => s.state), ["Idle", "SelectionPending", "PersistPending", "OutOfSync", "Refreshing"]);
  for (const s of seen.slice(1)) assert.deepEqual(s.lists, seen[0].lists, `tools changed in ${s.state}`);
  assert.deepEqual(seen[4].visible, [], "nothing is offered while storage is read");
  assert.ok(seen[1].visible.includes("memo_replace_selection") && !seen[0].visible.includes("memo_replace_selection"));
  ws.free();
});

test("AI SDK: one generateText over many steps with a fixed tool set completes MultiMatch → pick → commit", async () => {
  const { generateText, jsonSchema, stepCountIs } = await import("ai");
  const { MockLanguageModelV3 } = await import("ai/test");
  const { storage, ws } = await open({ "service.conf": "timeout = 30\nretry_timeout = 30\n" });
  const script = [
    ["memo_replace", { old_text: "timeout = 30", new_text: "timeout = 60" }],
    ["memo_replace_selection", { selection_id: "B" }],
    ["memo_commit", { summary: "Raise the retry timeout" }],
  ];
  let i = 0;
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const call = script[i++];
      return call === undefined
        ? { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }
        : {
            content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: call[0], input: JSON.stringify(call[1]) }],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          };
    },
  });
  const statuses = [];
  const result = await generateText({
    model,
    prompt: "Set retry_timeout to 60 and commit.",
    tools: ws.tools({ format: "ai-sdk", jsonSchema, onResponse: (r) => statuses.push(r.status) }),
    stopWhen: stepCountIs(10),
  });
  assert.equal(result.text, "done");
  assert.deepEqual(statuses, ["MultiMatch", "Success", "Success"]);
  assert.equal(storage.read("service.conf"), "timeout = 30\nretry_timeout = 60\n");
  ws.free();
});

test("autoRebase defaults on for a storage that reports exact changes, off for one that does not", async () => {
  class ExactStorage extends MemoryStorage {
    reportsExactChanges = true;
  }
  const run = async (storage, options = {}) => {
    const ws = await Workspace.create({ storage, ...options });
    await ws.call("memo_replace", { old_text: "a = 1", new_text: "a = 2" });
    storage.write("c.txt", "a = 1\nb = 1\nc = 9\n"); // another line than the pending change
    const commit = await ws.call("memo_commit", { summary: "a" });
    ws.free();
    return { status: commit.status, stored: storage.read("c.txt") };
  };
  const doc = { "c.txt": "a = 1\nb = 1\nc = 1\n" };
  assert.deepEqual(await run(new ExactStorage(doc)), { status: "Success", stored: "a = 2\nb = 1\nc = 9\n" });
  assert.equal((await run(new MemoryStorage(doc))).status, "ExternalConflict");
  assert.equal((await run(new ExactStorage(doc), { autoRebase: false })).status, "ExternalConflict", "an explicit false wins");
  assert.equal((await run(new MemoryStorage(doc), { autoRebase: true })).status, "Success");
});
