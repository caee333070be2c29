// The bad-input catalogue through the BUILT package: the cases of
// tests/fixtures/bad-input.json (the table tests/engine/bad_input.rs runs against the Rust core), then
// what only JavaScript can send: values that are not JSON, unpaired surrogates in every string
// argument of every tool, non-string tool names, throwing getters and Proxies.
//
// Each case builds two twin workspaces the same way (documents, options, setup calls); the bad
// input goes to one of them only. It must get the expected status (or Error) with a message that
// names what to fix, and afterwards the twins must agree on everything the agent and the host can
// see — committed texts, drafts, storage, state, flags, pending changes, tasks, memory, visible
// tools, editor state — and on the answers to probe calls (a pending choice still stages the
// same candidate). A call that threw inside the wasm would leave the workspace unusable; the
// probes catch that too.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { MemoryStorage, Workspace, validateResponse } from "@agentpad/core";

const FIXTURE = JSON.parse(readFileSync(new URL("../../tests/fixtures/bad-input.json", import.meta.url), "utf8"));

/** `{"$repeat": s, "times": n, "prefix"?, "suffix"?}` → the string; everything else as is. */
function expand(v) {
  if (Array.isArray(v)) return v.map(expand);
  if (v !== null && typeof v === "object") {
    if ("$repeat" in v) return (v.prefix ?? "") + v.$repeat.repeat(v.times) + (v.suffix ?? "");
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x)]));
  }
  return v;
}

const camelName = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

/** snake_case option keys (as the fixture and the core write them) → the package's camelCase. */
function camel(v) {
  if (Array.isArray(v)) return v.map(camel);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [camelName(k), camel(x)]));
  return v;
}

function documents(c) {
  return { ...FIXTURE.docs, ...(c.docs ?? {}) };
}

function setupSteps(c) {
  if (c.setup === undefined) return [];
  if (typeof c.setup === "string") return FIXTURE.setups[c.setup];
  return c.setup;
}

async function checkMarkdown(r, what) {
  const v = await validateResponse(r.markdown);
  assert.ok(v.valid, `${what}: the response breaks the Markdown contract: ${JSON.stringify(v.violations)}\n${r.markdown}`);
}

async function twin(c) {
  const storage = new MemoryStorage(documents(c));
  const ws = await Workspace.create({ storage, ...camel(c.options ?? {}) });
  const t = { ws, storage, last: undefined };
  for (const step of setupSteps(c)) {
    if (step.tool !== undefined) {
      const r = await ws.call(step.tool, expand(step.args));
      if (step.status !== undefined) assert.equal(r.status, step.status, `${c.name}: setup ${step.tool}: ${r.markdown}`);
      t.last = r;
    } else if (step.host === "fail_next_save") {
      storage.failNext("save");
    } else if (step.host === "external_write") {
      storage.write(step.path, step.text);
    } else if (step.host === "memory_add") {
      const turn = step.turn;
      ws.memory.add({ turn: turn.turn, atMs: turn.at_ms, summary: turn.summary, insights: turn.insights, context: turn.context, tags: turn.tags });
    } else {
      throw new Error(`${c.name}: unknown host step ${JSON.stringify(step)}`);
    }
  }
  return t;
}

/** Everything of a workspace the agent and the host can see, as one comparable value. */
async function snapshot(t, pending) {
  const { ws, storage } = t;
  const docs = ws.paths().map((p) => ({ path: p, text: ws.text(p), draft: ws.draft(p), version: ws.version(p) }));
  const stored = (await storage.list()).sort().map((p) => [p, storage.read(p), storage.version(p)]);
  return {
    docs,
    stored,
    state: ws.state,
    flags: ws.flags.names,
    pending,
    tasks: ws.tasks(),
    memory: ws.memory.export(),
    tools: ws.tools({ format: "json-schema" }).map((d) => d.name),
    editor: ws.liveContext({ recentDiffs: 0, planHints: 0 }).json.editor_state,
  };
}

const pendingOf = (r) => (r === undefined ? [] : r.pending_changes);

/** The fields of a probe's answer that must not depend on whether the bad call happened. */
function probeView(r) {
  const keep = ["status", "workflow_state", "flags", "summary", "guidance", "candidates", "pending_changes", "preview", "content", "fingerprint", "match_quality", "metrics"];
  return Object.fromEntries(keep.map((k) => [k, r[k]]));
}

function defaultProbe(t) {
  if (t.ws.state === "SelectionPending") {
    const n = t.last?.candidates.length ?? 0;
    return { tool: "memo_replace_selection", args: { selection_id: n >= 2 ? "B" : "A" } };
  }
  return { tool: "memo_preview", args: {} };
}

/** After the bad input: the twins answer the probes alike, and still agree afterwards. */
async function probeBoth(a, b, probe, name) {
  for (const p of [probe ?? defaultProbe(a), { tool: "memo_read", args: {} }]) {
    const ra = await a.ws.call(p.tool, expand(p.args));
    const rb = await b.ws.call(p.tool, expand(p.args));
    await checkMarkdown(rb, `${name}: probe ${p.tool}`);
    assert.deepEqual(probeView(rb), probeView(ra), `${name}: probe ${p.tool} answers differently`);
    assert.deepEqual(await snapshot(b, pendingOf(rb)), await snapshot(a, pendingOf(ra)), `${name}: after probe ${p.tool} the twins differ`);
  }
}

function withoutChoice(s) {
  const { state, flags, tools, editor, ...rest } = s;
  const { workflow_state, ...editorRest } = editor;
  return { ...rest, editor: editorRest };
}

async function runCallCase(c) {
  const a = await twin(c);
  const b = await twin(c);
  try {
    const before = await snapshot(a, pendingOf(a.last));
    assert.deepEqual(await snapshot(b, pendingOf(b.last)), before, `${c.name}: the twins differ before the bad call`);
    // JS-only cases are sent as built (expand would read their getters and cycles here).
    const r = await b.ws.call(c.call.tool, c.raw ? c.call.args : expand(c.call.args));
    await checkMarkdown(r, c.name);
    assert.equal(r.status, c.expect.status, `${c.name}: ${r.markdown}`);
    assert.ok((r.guidance ?? "").trim() !== "", `${c.name}: no guidance`);
    assert.ok((c.expect.guidance_contains ?? []).length > 0, `${c.name}: the case names nothing the guidance must say`);
    for (const g of c.expect.guidance_contains) assert.ok(r.guidance.includes(g), `${c.name}: guidance lacks ${JSON.stringify(g)}: ${r.guidance}`);
    for (const s of c.expect.summary_contains ?? []) assert.ok(r.summary.includes(s), `${c.name}: summary lacks ${JSON.stringify(s)}: ${r.summary}`);
    for (const s of c.expect.summary_lacks ?? []) assert.ok(!r.summary.includes(s), `${c.name}: summary says ${JSON.stringify(s)}: ${r.summary}`);
    const after = await snapshot(b, pendingOf(r));
    if (c.offers_choice) {
      assert.equal(b.ws.state, "SelectionPending", `${c.name}: no choice offered`);
      assert.ok(r.candidates.length > 0, `${c.name}: no candidates`);
      assert.deepEqual(withoutChoice(after), withoutChoice(before), `${c.name}: something changed`);
      return;
    }
    assert.deepEqual(after, before, `${c.name}: something changed`);
    await probeBoth(a, b, c.probe, c.name);
  } finally {
    a.ws.free();
    b.ws.free();
  }
}

function checkError(c, err, spelling) {
  assert.ok(err instanceof Error, `${c.name}: threw ${String(err)}, not an Error`);
  const option = spelling(c.option);
  assert.ok(err.message.includes(option), `${c.name}: the error does not name ${option}: ${err.message}`);
  for (const s of c.error_contains ?? []) assert.ok(err.message.includes(s), `${c.name}: the error lacks ${JSON.stringify(s)}: ${err.message}`);
}

async function runConfigCase(c) {
  const storage = new MemoryStorage(documents(c));
  let thrown;
  try {
    const ws = await Workspace.create({ storage, ...camel(c.options) });
    ws.free();
  } catch (err) {
    thrown = err;
  }
  assert.ok(thrown !== undefined, `${c.name}: the options were accepted`);
  checkError(c, thrown, camelName);
  assert.deepEqual((await storage.list()).sort(), Object.keys(documents(c)).sort(), `${c.name}: storage changed`);
  for (const [p, text] of Object.entries(documents(c))) assert.equal(storage.read(p), text, `${c.name}: storage changed`);
}

async function runLiveCase(c) {
  const a = await twin(c);
  const b = await twin(c);
  try {
    const before = await snapshot(a, pendingOf(a.last));
    let thrown;
    try {
      if (c.kind === "editor_state") b.ws.setEditorState(c.state);
      else b.ws.liveContext(camel(c.live_options));
    } catch (err) {
      thrown = err;
    }
    assert.ok(thrown !== undefined, `${c.name}: accepted`);
    checkError(c, thrown, camelName);
    assert.deepEqual(await snapshot(b, pendingOf(b.last)), before, `${c.name}: something changed`);
    await probeBoth(a, b, c.probe, c.name);
  } finally {
    a.ws.free();
    b.ws.free();
  }
}

const callCases = FIXTURE.cases.filter((c) => c.kind === undefined || c.kind === "call");

test("the catalogue is large and its names are distinct", () => {
  assert.ok(callCases.length >= 40, `only ${callCases.length} call cases`);
  assert.equal(new Set(FIXTURE.cases.map((c) => c.name)).size, FIXTURE.cases.length);
});

for (const c of FIXTURE.cases) {
  const run = c.kind === "config" ? runConfigCase : c.kind === "live_context" || c.kind === "editor_state" ? runLiveCase : runCallCase;
  test(`catalogue: ${c.name}`, () => run(c));
}

// ---- what only JavaScript can send ---------------------------------------------------------

const NON_JSON = [];
{
  const cycle = { old_text: "alpha", new_text: "omega" };
  cycle.again = cycle;
  let deep = "alpha";
  for (let i = 0; i < 100_000; i++) deep = [deep];
  let deepObject = "alpha";
  for (let i = 0; i < 1000; i++) deepObject = { x: deepObject };
  const huge = [];
  huge.length = 4_000_000_000;
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const throwingGetter = { new_text: "omega" };
  Object.defineProperty(throwingGetter, "old_text", { enumerable: true, get: () => { throw new Error("getter boom"); } });
  NON_JSON.push(
    ["a function as an argument", "memo_replace", { old_text: () => "alpha", new_text: "omega" }, "`old_text` must be a JSON value", "a function", "`old_text`"],
    ["a function as the arguments", "memo_read", () => ({}), "arguments must be a JSON object", "a function", "JSON object"],
    ["a class as the arguments", "memo_read", class Args {}, "arguments must be a JSON object", "a function", "JSON object"],
    ["a symbol", "memo_read", { view: Symbol("draft") }, "`view`", "a symbol", "`view`"],
    ["a BigInt", "memo_read", { start_line: 2n }, "`start_line`", "a BigInt", "`start_line`"],
    ["NaN", "memo_read", { start_line: NaN }, "`start_line`", "a non-finite number", "`start_line`"],
    ["Infinity", "memo_preview", { context_lines: Infinity }, "`context_lines`", "a non-finite number", "`context_lines`"],
    ["-Infinity", "memo_read", { end_line: -Infinity }, "`end_line`", "a non-finite number", "`end_line`"],
    ["a cycle", "memo_replace", cycle, "`again`", "deeper than 64 levels (or a cycle)", "`again`"],
    ["an array nested 100,000 deep", "memo_replace", { old_text: deep, new_text: "omega" }, "`old_text`", "deeper than 64 levels", "`old_text`"],
    ["an object nested 1,000 deep", "memo_replace", { old_text: "alpha", new_text: deepObject }, "`new_text`", "deeper than 64 levels", "`new_text`"],
    ["a sparse array of length 4e9", "memo_recall_context", { turn_numbers: huge }, "`turn_numbers`", "more than 1000000 items", "`turn_numbers`"],
    ["a getter that throws", "memo_replace", throwingGetter, "arguments must be a JSON object", "getter boom", "JSON object"],
    ["a nested getter that throws", "memo_replace", { old_text: "alpha", new_text: throwingGetter }, "`new_text`", "getter boom", "`new_text`"],
    ["a Proxy whose ownKeys trap throws", "memo_read", new Proxy({}, { ownKeys() { throw new Error("trap boom"); } }), "arguments must be a JSON object", "trap boom", "JSON object"],
    ["a Proxy array whose get trap throws", "memo_recall_context", { turn_numbers: new Proxy([1, 2], { get(t, k) { if (k === "0") throw new Error("item boom"); return Reflect.get(t, k); } }) }, "`turn_numbers`", "item boom", "`turn_numbers`"],
    ["a revoked Proxy", "memo_read", { view: revocable.proxy }, "`view`", "threw", "`view`"],
    ["undefined for a required argument", "memo_replace", { old_text: undefined, new_text: "omega" }, "missing required argument `old_text`", "", "`old_text`"],
    ["an array as the arguments", "memo_replace", ["alpha", "omega"], "arguments must be a JSON object", "array", "JSON object"],
    ["a string as the arguments", "memo_replace", "old_text=alpha", "arguments must be a JSON object", "string", "JSON object"],
    ["a Date as a string argument", "memo_replace", { old_text: new Date(0), new_text: "omega" }, "`old_text` must be a string", "object", "`old_text` as a string"],
    ["a Map as the arguments", "memo_replace", new Map([["old_text", "alpha"], ["new_text", "omega"]]), "missing required argument `old_text`", "", "`old_text`"],
    ["a String object", "memo_replace", { old_text: new String("alpha"), new_text: "omega" }, "`old_text` must be a string", "object", "`old_text` as a string"],
    ["a typed array as a number", "memo_read", { start_line: new Uint8Array([2]) }, "`start_line` must be a whole number", "object", "`start_line`"],
    ["a boolean object", "memo_read", { line_keys: new Boolean(true) }, "`line_keys` must be true or false", "object", "`line_keys`"],
    ["a lone surrogate in an argument name", "memo_read", { ["start\uD800"]: 1 }, "has an unpaired UTF-16 surrogate at UTF-16 offset 5", "name of an argument", "broken character"],
    ["a lone surrogate in a nested key", "memo_replace", { old_text: "alpha", new_text: { ["k\uDC00"]: 1 } }, "unpaired UTF-16 surrogate", "new_text", "broken character"],
  );
}

for (const [name, tool, args, summary, summary2, guidance] of NON_JSON) {
  test(`JS only: ${name}`, () =>
    runCallCase({
      name,
      setup: "multi",
      raw: true,
      call: { tool, args },
      expect: { status: "InvalidArguments", summary_contains: [summary, summary2].filter(Boolean), guidance_contains: [guidance] },
    }),
  );
}

/** Like runCallCase for a tool name that is not a string (the table's expand would copy it). */
for (const [label, name, shown] of [
  ["a number", 42, "`(number 42)`"],
  ["undefined", undefined, "`(undefined)`"],
  ["null", null, "`(null)`"],
  ["an object", { tool: "memo_read" }, "`(object)`"],
  ["a symbol", Symbol("memo_read"), "`(symbol)`"],
  ["a function", () => "memo_read", "`(function)`"],
  ["a string with a lone surrogate", "memo_re\uD800ad", "unknown tool `memo_re"],
]) {
  test(`JS only: the tool name is ${label}`, async () => {
    const c = { name: label, setup: "multi" };
    const a = await twin(c);
    const b = await twin(c);
    try {
      const before = await snapshot(a, pendingOf(a.last));
      const r = await b.ws.call(name, {});
      await checkMarkdown(r, label);
      assert.equal(r.status, "InvalidArguments");
      assert.ok(r.summary.includes(shown) && r.summary.includes("memo_replace_selection"), r.summary);
      assert.match(r.guidance, /Call one of the listed tools/);
      assert.deepEqual(await snapshot(b, pendingOf(r)), before);
      await probeBoth(a, b, undefined, label);
    } finally {
      a.ws.free();
      b.ws.free();
    }
  });
}

test("JS only: a toolCallId that is not a string is refused before anything runs", async () => {
  const c = { name: "toolCallId", setup: "staged" };
  const a = await twin(c);
  const b = await twin(c);
  const before = await snapshot(a, pendingOf(a.last));
  for (const id of [5, {}, ["call_1"], Symbol("id")]) {
    await assert.rejects(b.ws.call("memo_commit", { summary: "x" }, { toolCallId: id }), (e) => e instanceof TypeError && /toolCallId/.test(e.message));
    assert.deepEqual(await snapshot(b, pendingOf(b.last)), before);
  }
  await probeBoth(a, b, undefined, "toolCallId");
  a.ws.free();
  b.ws.free();
});

/** Every string-typed argument of every tool, in every state it can be sent in. */
async function allToolSchemas() {
  const seen = new Map();
  for (const setup of [undefined, "multi", "failed_save", "conflict_reported"]) {
    const t = await twin({ name: "schemas", setup, options: { memory: true } });
    for (const d of t.ws.tools({ format: "json-schema" })) seen.set(d.name, d.input_schema);
    t.ws.free();
  }
  return seen;
}

function validValue(schema) {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum) return schema.enum[0];
  if (type === "string") return "alpha";
  if (type === "integer") return schema.minimum ?? 1;
  if (type === "boolean") return false;
  if (type === "array") return [1];
  return null;
}

test("JS only: an unpaired surrogate in every string argument of every tool", async () => {
  const schemas = await allToolSchemas();
  assert.equal(schemas.size, 22, `every tool is offered in some state: ${[...schemas.keys()]}`);
  const c = { name: "surrogates", setup: "multi", options: { memory: true } };
  const a = await twin(c);
  const b = await twin(c);
  const before = await snapshot(a, pendingOf(a.last));
  let checked = 0;
  for (const [tool, schema] of schemas) {
    for (const [arg, prop] of Object.entries(schema.properties)) {
      const types = Array.isArray(prop.type) ? prop.type : [prop.type];
      if (!types.includes("string")) continue;
      for (const [bad, offset] of [["ab\uD800cd", 2], ["\uDC00", 0], ["x\uDBFF", 1]]) {
        const args = Object.fromEntries(schema.required.map((k) => [k, validValue(schema.properties[k])]));
        args[arg] = bad;
        const r = await b.ws.call(tool, args);
        const what = `${tool}(${arg}=${JSON.stringify(bad)})`;
        await checkMarkdown(r, what);
        assert.equal(r.status, "InvalidArguments", `${what}: ${r.summary}`);
        assert.ok(r.summary.includes(`argument \`${arg}\` has an unpaired UTF-16 surrogate at UTF-16 offset ${offset}`), `${what}: ${r.summary}`);
        assert.ok(r.guidance.includes(`\`${arg}\``), `${what}: ${r.guidance}`);
        assert.deepEqual(await snapshot(b, pendingOf(r)), before, `${what}: something changed`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 90, `only ${checked} string arguments checked`);
  await probeBoth(a, b, undefined, "surrogates");
  a.ws.free();
  b.ws.free();
});

test("JS only: bad liveContext and setEditorState input throws an Error naming it and changes nothing", async () => {
  const c = { name: "live", setup: "staged" };
  const a = await twin(c);
  const b = await twin(c);
  const before = await snapshot(a, pendingOf(a.last));
  const throwing = {};
  Object.defineProperty(throwing, "cursor", { enumerable: true, get: () => { throw new Error("cursor boom"); } });
  const cases = [
    [() => b.ws.liveContext({ maxDocChars: 100 }), /unknown liveContext option `maxDocChars`; the known options are: .*maxDocumentChars/],
    [() => b.ws.liveContext({ max_document_chars: 100 }), /unknown liveContext option `max_document_chars`/],
    [() => b.ws.liveContext("compact"), /liveContext\(options\) needs an options object, got string/],
    [() => b.ws.liveContext([1]), /needs an options object, got an array/],
    [() => b.ws.liveContext({ maxDocumentChars: 1.5 }), /`maxDocumentChars` must be a whole number/],
    [() => b.ws.liveContext({ recentDiffs: "3" }), /`recentDiffs` must be a whole number from 0 to 32/],
    [() => b.ws.liveContext({ anchor: { commitsBack: -1 } }), /`anchor.commitsBack` must be a whole number/],
    [() => b.ws.liveContext({ anchor: { ageMs: NaN } }), /`anchor.ageMs`|non-finite/],
    [() => b.ws.liveContext({ anchor: { weeks: 2 } }), /`anchor` must be "origin", "none"/],
    [() => b.ws.liveContext({ diffDeadlineMs: -1 }), /`diffDeadlineMs` must be a finite number ≥ 0/],
    [() => b.ws.liveContext({ locale: "fr" }), /`locale` must be "en" or "zh"/],
    [() => b.ws.liveContext({ path: "" }), /`path` must be a non-empty string/],
    [() => b.ws.liveContext({ editorState: { cursor: { line: 2, column: 1 } }, planHints: 101 }), /`planHints` must be a whole number from 0 to 100/],
    [() => b.ws.liveContext({ editorState: { cursor: { line: 2, column: 1 } }, path: "missing.md" }), /missing\.md.*not open/],
    [() => b.ws.liveContext({ editorState: throwing }), /cursor boom/],
    [() => b.ws.liveContext({ editorState: { cursor: { line: "2", column: 1 } } }), /`cursor` must be \{"line": n, "column": n\}/],
    [() => b.ws.setEditorState(null), /editor state must be an object, got null/],
    [() => b.ws.setEditorState(throwing), /cursor boom/],
    [() => b.ws.setEditorState(new Proxy({}, { ownKeys() { throw new Error("keys boom"); } })), /keys boom/],
    [() => b.ws.setEditorState({ cursor: { line: 1, column: 1 }, path: "a\uD800" }), /unpaired UTF-16 surrogate/],
    [() => b.ws.setEditorState({ selection: { anchor: { line: 1, column: 1 }, head: { line: 1, column: 99 } } }), /selection head column \(line 1\) must be from 1 to/],
    [() => b.ws.setEditorState({ cursor: { line: 1, column: 1, offset: 3 } }), /`cursor` must be/],
    [() => b.ws.memory.search(42), /memory\.search\(query\) needs a string, got number/],
    [() => b.ws.memory.import({ turns: [] }), /memory\.import\(json\) needs the string/],
    [() => b.ws.memory.import('{"format":"agentpad-memory","version":1,"turns":[{"turn":0}]}'), /turn|at_ms|summary/],
  ];
  for (const [f, message] of cases) {
    assert.throws(f, (e) => e instanceof Error && message.test(e.message), String(f));
    assert.deepEqual(await snapshot(b, pendingOf(b.last)), before, `${f}: something changed`);
  }
  await probeBoth(a, b, undefined, "live");
  a.ws.free();
  b.ws.free();
});

test("JS only: Workspace.create refuses unknown and badly typed options, naming them as written", async () => {
  const storage = new MemoryStorage({ "a.md": "A\n" });
  for (const [options, message] of [
    [{ maxTaskDepht: 3 }, /unknown Workspace\.create option `maxTaskDepht`; the known options are: .*maxTaskDepth/],
    [{ max_task_depth: 3 }, /unknown Workspace\.create option `max_task_depth`/],
    [{ maxTaskDepth: NaN }, /`maxTaskDepth`|non-finite/],
    [{ nearMatchThreshold: "0.9" }, /`nearMatchThreshold` must be a number above 0/],
    [{ toolPrefix: "memo\uD800" }, /unpaired UTF-16 surrogate/],
    [{ locale: { en: true } }, /`locale` must be "en" or "zh"/],
    [{ previewMode: Symbol("full") }, /symbol/],
    [{ storageTimeoutMs: 0 }, /`storageTimeoutMs` must be a whole number of ms from 1 to 2147483647 \(default 30000\), got 0/],
    [{ storageTimeoutMs: "30s" }, /`storageTimeoutMs` must be a whole number of ms from 1 to 2147483647 \(default 30000\), got string/],
  ]) {
    await assert.rejects(Workspace.create({ storage, ...options }), (e) => e instanceof Error && message.test(e.message), JSON.stringify(Object.keys(options)));
  }
  assert.equal(storage.read("a.md"), "A\n");
  assert.deepEqual(await storage.list(), ["a.md"]);
});

test("JS only: a storage provider whose load returns the wrong shape is named: a TypeError at create, a note in the next response when it reports a change", async () => {
  const inner = new MemoryStorage({ "a.md": "A\n" });
  let shape = { text: 42, version: "v1" };
  let listener;
  const faulty = {
    load: async (path) => (shape === null ? inner.load(path) : shape),
    save: (path, text, expected) => inner.save(path, text, expected),
    list: () => inner.list(),
    watch: (l) => {
      listener = l;
      return () => {};
    },
  };
  await assert.rejects(Workspace.create({ storage: faulty }), (e) => e instanceof TypeError && /storage\.load\("a\.md"\) returned \{ text: number, version: string \}; a StorageProvider's load must resolve to \{ text: string, version: string \}/.test(e.message));
  shape = null;
  const ws = await Workspace.create({ storage: faulty });
  shape = "A\nB\n";
  listener?.({ path: "a.md" });
  const noted = await ws.call("memo_read", {});
  assert.equal(noted.status, "Success", noted.markdown);
  assert.match(noted.summary, /a\.md changed in storage but could not be read: agentpad: storage\.load\("a\.md"\) returned string/);
  assert.equal(ws.text("a.md"), "A\n", "the committed text is what it was");
  shape = null;
  const r = await ws.call("memo_read", {});
  assert.equal(r.status, "Success", "once the provider behaves, calls work again");
  ws.free();
});

test("JS only: host methods given a value of the wrong type throw a TypeError naming it and change nothing", async () => {
  const c = { name: "host", setup: "multi", options: { memory: true } };
  const a = await twin(c);
  const b = await twin(c);
  const before = await snapshot(a, pendingOf(a.last));
  for (const [f, message] of [
    [() => b.ws.text(42), /text\(path\) needs a string path, got number/],
    [() => b.ws.draft({ path: "notes.md" }), /draft\(path\) needs a string path, got object/],
    [() => b.ws.version(Symbol("notes.md")), /version\(path\) needs a string path, got symbol/],
    [() => b.ws.text("missing.md"), /`missing\.md` is not open/],
    [() => b.ws.tools({ format: 5 }), /unknown tool format 5/],
    [() => b.ws.compressHistory([{ get role() { throw new Error("role boom"); } }], { format: "openai" }), /messages\[0\].*role boom/],
    [() => b.ws.memory.add({ summary: 5, context: "c" }), /`summary` must be a string/],
    [() => b.ws.memory.add({ turn: -1, summary: "s", context: "c" }), /`turn` must be a whole number/],
  ]) {
    assert.throws(f, (e) => e instanceof Error && message.test(e.message), String(f));
    assert.deepEqual(await snapshot(b, pendingOf(b.last)), before, `${f}: something changed`);
  }
  await probeBoth(a, b, undefined, "host");
  a.ws.free();
  b.ws.free();
});

// ---- numbers past what an integer argument holds ------------------------------------------
// JS numbers are whole up to 2^53 and beyond; an integer argument stops at 4294967295. The
// error names that limit and echoes the number as JS holds it (it used to say "not a whole
// number" past 2^53, and to echo 2^53-1 as 4294967295).

for (const [name, tool, args, arg, shown] of [
  ["2**53+1 as a line", "memo_read", { start_line: 2 ** 53 + 1 }, "start_line", "9007199254740992"],
  ["2**53-1 as a line", "memo_read", { start_line: 2 ** 53 - 1 }, "start_line", "9007199254740991"],
  ["2**53-1 as an end line", "memo_read", { start_line: 1, end_line: 2 ** 53 - 1 }, "end_line", "9007199254740991"],
  ["2**32 as an end line", "memo_read", { end_line: 2 ** 32 }, "end_line", "4294967296"],
  ["1e300 as context lines", "memo_preview", { context_lines: 1e300 }, "context_lines", "1e+300"],
  ["2**53-1 as a turn number", "memo_recall_context", { turn_numbers: [1, 2 ** 53 - 1] }, "turn_numbers", "9007199254740991"],
  ["2**53+1 as an expected count", "memo_replace", { old_text: "alpha", new_text: "omega", expected_occurrences: 2 ** 53 + 1 }, "expected_occurrences", "9007199254740992"],
]) {
  test(`JS only: ${name}`, () =>
    runCallCase({
      name,
      setup: "multi",
      options: { memory: true },
      raw: true,
      call: { tool, args },
      expect: {
        status: "InvalidArguments",
        summary_contains: [`argument \`${arg}\` must be at most 4294967295, got number ${shown}`],
        summary_lacks: ["whole number"],
        guidance_contains: [`Pass \`${arg}\` ≤ 4294967295`],
      },
    }),
  );
}

// ---- what a storage provider can hand back -------------------------------------------------
// A provider is host code: text cut inside an emoji, results of the wrong shape, calls that
// never settle. The call still answers (never rejects), names the path and what was wrong, and
// the workspace is left as it was: committed text, draft, version, state and pending changes.

/** A MemoryStorage whose load and save a case replaces after the workspace opened it. */
async function providerTwin(options = {}) {
  const inner = new MemoryStorage({ "a.md": "alpha\nbeta\n" });
  const h = { inner, load: undefined, save: undefined };
  const storage = {
    list: () => inner.list(),
    load: (p) => (h.load ? h.load(p) : inner.load(p)),
    save: (p, text, expected) => (h.save ? h.save(p, text, expected) : inner.save(p, text, expected)),
    watch: (listener) => inner.watch(listener),
  };
  h.ws = await Workspace.create({ storage, ...options });
  const staged = await h.ws.call("memo_replace", { old_text: "beta", new_text: "gamma" });
  assert.equal(staged.status, "Success", staged.markdown);
  return h;
}

const held = (ws) => ({ text: ws.text(), draft: ws.draft(), version: ws.version(), state: ws.state, pending: ws.liveContext({ recentDiffs: 0 }).json.editor_state.pending_changes });

const CUT_HIGH = "alpha\nbeta \uD83D\n"; // offset 11
const CUT_LOW = "\uDE00alpha\n"; // offset 0

for (const [name, bad, tool, args, says] of [
  ["an external change to text with a lone high surrogate", (h) => h.inner.write("a.md", CUT_HIGH), "memo_read", {}, /a\.md changed in storage but could not be read: .*unpaired surrogate \(U\+D83D\) at UTF-16 offset 11/],
  ["an external change to text with a lone low surrogate", (h) => h.inner.write("a.md", CUT_LOW), "memo_preview", {}, /a\.md changed in storage but could not be read: .*unpaired surrogate \(U\+DE00\) at UTF-16 offset 0/],
  ["a change whose load has no version", (h) => { h.load = async () => ({ text: "x\n" }); h.inner.write("a.md", "x\n"); }, "memo_read", {}, /returned \{ text: string, version: undefined \}; a StorageProvider's load must resolve to/],
  ["a change whose load is a bare string", (h) => { h.load = async () => "x\n"; h.inner.write("a.md", "x\n"); }, "memo_read", {}, /storage\.load\("a\.md"\) returned string/],
  ["a change whose load rejects", (h) => { h.load = async () => { throw new Error("EIO: disk gone"); }; h.inner.write("a.md", "x\n"); }, "memo_read", {}, /could not be read: EIO: disk gone/],
  ["a change whose load never settles", (h) => { h.load = () => new Promise(() => {}); h.inner.write("a.md", "x\n"); }, "memo_read", {}, /could not be read: storage\.load\("a\.md"\): the storage did not answer within 200 ms/],
  ["a refresh whose load has a lone surrogate", (h) => { h.load = async () => ({ text: CUT_HIGH, version: "v7" }); }, "memo_refresh", {}, /a\.md.*unpaired surrogate \(U\+D83D\) at UTF-16 offset 11/],
  ["a diff against storage whose load has a lone surrogate", (h) => { h.load = async () => ({ text: CUT_LOW, version: "v7" }); }, "memo_diff", { against: "storage" }, /a\.md.*unpaired surrogate \(U\+DE00\) at UTF-16 offset 0/],
]) {
  test(`JS only, provider: ${name}`, async () => {
    const h = await providerTwin({ storageTimeoutMs: 200 });
    const before = held(h.ws);
    bad(h);
    const r = await h.ws.call(tool, args);
    await checkMarkdown(r, name);
    assert.match(r.summary, says, r.markdown);
    assert.doesNotMatch(r.markdown, /argument `text`|the host reported no result/, r.markdown);
    assert.deepEqual(held(h.ws), before, `${name}: the workspace changed`);
    h.ws.free();
  });
}

for (const [name, save, says] of [
  ["a save resolving null", async () => null, /storage\.save\("a\.md"\) resolved null; a StorageProvider's save must resolve to \{ version: string \}/],
  ["a save resolving {}", async () => ({}), /resolved \{ version: undefined \}; a StorageProvider's save must resolve to/],
  ["a save resolving a numeric version", async () => ({ version: 2 }), /resolved \{ version: 2 \}; a StorageProvider's save must resolve to/],
  ["a save that never settles", () => new Promise(() => {}), /storage\.save\("a\.md"\): the storage did not answer within 200 ms \(the storageTimeoutMs option\)/],
]) {
  test(`JS only, provider: ${name}`, async () => {
    const h = await providerTwin({ storageTimeoutMs: 200 });
    const { text, draft } = held(h.ws);
    h.save = save;
    const r = await h.ws.call("memo_commit", { summary: "gamma" });
    await checkMarkdown(r, name);
    assert.equal(r.status, "PersistFailure", r.markdown);
    assert.match(r.summary, says, r.markdown);
    assert.doesNotMatch(r.summary, /Cannot destructure/);
    assert.equal(h.ws.text(), text, "the committed text is what it was");
    assert.equal(h.ws.draft(), draft, "the pending change is kept");
    assert.equal(h.inner.read("a.md"), "alpha\nbeta\n");
    h.save = undefined;
    assert.equal((await h.ws.call("memo_commit", { summary: "gamma" })).status, "Success", "a later commit goes through");
    h.ws.free();
  });
}

test("JS only, provider: Workspace.create with a broken character names the document and the offset", async () => {
  const storage = new MemoryStorage({ "a.md": "alpha\n", "notes/b.md": CUT_HIGH });
  await assert.rejects(Workspace.create({ storage }), /storage\.load\("notes\/b\.md"\) returned text with an unpaired surrogate \(U\+D83D\) at UTF-16 offset 11/);
});

test("JS only: free() from inside an argument getter does not throw; the call rejects and the workspace is freed", async () => {
  const h = await providerTwin();
  let thrown;
  const args = {};
  Object.defineProperty(args, "path", { enumerable: true, get: () => { try { h.ws.free(); } catch (err) { thrown = err; } return "a.md"; } });
  await assert.rejects(h.ws.call("memo_read", args), /freed .* before this call finished/);
  assert.equal(thrown, undefined, `free() threw: ${thrown?.message}`);
  assert.equal(h.ws.freed, true);
});

test("JS only: free() from a getter read inside wasm (liveContext options, memory tags) does not throw; the workspace is freed after", async () => {
  for (const [what, run] of [
    ["liveContext's editorState", (ws, free) => ws.liveContext({ editorState: { get cursor() { free(); return { line: 1, column: 1 }; } } })],
    ["setEditorState", (ws, free) => ws.setEditorState({ get cursor() { free(); return { line: 1, column: 1 }; } })],
    ["memory.add's tags", (ws, free) => ws.memory.add({ summary: "s", context: "c", tags: new Proxy(["t"], { get(t, k) { if (k === "0") free(); return Reflect.get(t, k); } }) })],
  ]) {
    const storage = new MemoryStorage({ "a.md": "alpha\n" });
    const ws = await Workspace.create({ storage, memory: true });
    let thrown;
    const free = () => {
      try {
        ws.free();
      } catch (err) {
        thrown = err;
      }
    };
    try {
      run(ws, free);
    } catch {
      // What the call answers after the free is not the point; the free is.
    }
    assert.equal(thrown, undefined, `${what}: free() threw: ${thrown?.message}`);
    assert.equal(ws.freed, true, what);
    assert.throws(() => ws.text(), /has been freed/, what);
  }
});
