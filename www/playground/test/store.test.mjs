// The page's state store (src/page/store.ts), without a browser: a dispatch makes a new state
// through the pure update function and leaves the old one as it was; each subscriber hears of each
// change once, in order, and of nothing that changed nothing; `watch` renders a pane only when
// the parts of the state it picks change; the tool prefix comes from the page's options.
import { test } from "node:test";
import assert from "node:assert/strict";
import { importTs } from "./lib/load-ts.mjs";

const store = await importTs("src/page/store.ts");
const { createStore, watch, initialState, reduce, toolName, memoryTools, transcriptOptions, optionsFrom, toolsView } = store;

const OPTIONS = Object.freeze({ persistMode: "manual", locale: "en", candidateStyle: "list", memory: false, toolPrefix: "memo" });
const SAMPLE = Object.freeze({ id: "s", label: "s", path: "a.txt", text: "a\n", suggested: { verb: "replace", args: {} } });

/** Freezes a state deeply (plain objects and arrays), so an update that mutates it throws. */
function deepFreeze(v) {
  if (v && typeof v === "object" && !(v instanceof Map) && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

const fresh = () => deepFreeze(initialState(OPTIONS, SAMPLE));

const response = (over = {}) => ({ status: "Success", candidates: [], pending_changes: [], task_stack: [], markdown: "ok", ...over });
const toolState = (name, available = true) => ({ definition: { name, description: name, input_schema: {} }, available });

test("createStore: a dispatch makes a new state; the old one is left as it was", () => {
  const s0 = { n: 0, log: [] };
  const st = createStore(s0, (s, a) => (a.type === "add" ? { ...s, n: s.n + a.by, log: [...s.log, a.by] } : s));
  st.dispatch({ type: "add", by: 2 });
  assert.notEqual(st.state, s0);
  assert.deepEqual(st.state, { n: 2, log: [2] });
  assert.deepEqual(s0, { n: 0, log: [] });
});

test("createStore: each subscriber hears of each change once, and of no change not at all", () => {
  const st = createStore({ n: 0 }, (s, a) => (a.type === "add" ? { n: s.n + a.by } : s));
  const heard = [];
  const off = st.subscribe((s, prev) => heard.push([prev.n, s.n]));
  st.dispatch({ type: "add", by: 1 });
  st.dispatch({ type: "noop" });
  st.dispatch({ type: "add", by: 2 });
  assert.deepEqual(heard, [
    [0, 1],
    [1, 3],
  ]);
  off();
  st.dispatch({ type: "add", by: 5 });
  assert.equal(heard.length, 2, "an unsubscribed listener hears nothing");
});

test("createStore: a dispatch from a listener waits until every listener has heard of the change before it", () => {
  const st = createStore({ n: 0 }, (s, a) => ({ n: s.n + a.by }));
  const heard = [];
  st.subscribe((s) => {
    heard.push(`a${s.n}`);
    if (s.n === 1) st.dispatch({ by: 10 });
  });
  st.subscribe((s) => heard.push(`b${s.n}`));
  st.dispatch({ by: 1 });
  assert.deepEqual(heard, ["a1", "b1", "a11", "b11"]);
  assert.equal(st.state.n, 11);
});

test("watch: renders now and then only when what it picks changes", () => {
  const st = createStore({ a: 0, b: 0 }, (s, act) => ({ ...s, [act.key]: s[act.key] + 1 }));
  const renders = [];
  watch(
    st,
    (s) => [s.a],
    (s) => renders.push(s.a),
  );
  st.dispatch({ key: "b" });
  st.dispatch({ key: "a" });
  st.dispatch({ key: "b" });
  assert.deepEqual(renders, [0, 1]);
});

test("reduce: a call appends its record, shows it, ends busy and bumps the workspace revision once", () => {
  const s0 = fresh();
  const busy = deepFreeze(reduce(s0, { type: "busy", busy: true, calling: true }));
  assert.equal(busy.busy, true);
  assert.equal(s0.busy, false);
  const record = { tool: "memo_read", args: {}, response: response(), locale: "en", toolCallId: "call_1" };
  const s1 = reduce(busy, { type: "called", record, tools: [toolState("memo_read"), toolState("memo_commit", false)] });
  assert.equal(s1.history.length, 1);
  assert.equal(s1.shown, 0);
  assert.equal(s1.busy, false);
  assert.equal(s1.calling, false);
  assert.equal(s1.revs.workspace, s0.revs.workspace + 1);
  assert.deepEqual(s1.tools.visible, ["memo_read"]);
  assert.deepEqual(s1.tools.all, ["memo_read", "memo_commit"]);
  assert.equal(busy.history.length, 0, "the state before the call is untouched");
});

test("reduce: a load drops the old workspace's calls; a load that lost the race ends nothing", () => {
  const record = { tool: "memo_read", args: {}, response: response(), locale: "en", toolCallId: "call_1" };
  const called = deepFreeze(reduce(fresh(), { type: "called", record }));
  const loading = deepFreeze(reduce(called, { type: "load", sample: SAMPLE }));
  assert.equal(loading.history.length, 0);
  assert.equal(loading.shown, -1);
  assert.equal(loading.ready, "false");
  assert.equal(loading.busy, true);
  assert.equal(loading.generation, called.generation + 1);
  const newer = deepFreeze(reduce(loading, { type: "load", sample: SAMPLE }));
  assert.equal(reduce(newer, { type: "loaded", generation: loading.generation }), newer, "an older load's end changes nothing");
  const done = reduce(newer, { type: "loaded", generation: newer.generation, notice: "hi" });
  assert.equal(done.busy, false);
  assert.equal(done.ready, "error", "no workspace was made");
  assert.equal(done.notice, null, "a notice is said only once a workspace is ready");
});

test("reduce: an action that changes nothing returns the same state (no subscriber hears of it)", () => {
  const s0 = fresh();
  assert.equal(reduce(s0, { type: "show", index: s0.shown }), s0);
  assert.equal(reduce(s0, { type: "notice", message: null }), s0);
  assert.equal(reduce(s0, { type: "busy", busy: false }), s0);
  const st = createStore(s0, reduce);
  let heard = 0;
  st.subscribe(() => heard++);
  st.dispatch({ type: "liveView", view: s0.liveView });
  st.dispatch({ type: "notice", message: "x" });
  st.dispatch({ type: "notice", message: "x" });
  assert.equal(heard, 1);
});

test("reduce: fill and play requests are told apart even when equal", () => {
  const a = reduce(fresh(), { type: "fillConsole", tool: "memo_read", args: null });
  const b = reduce(a, { type: "fillConsole", tool: "memo_read", args: null });
  assert.notEqual(a.consoleFill, b.consoleFill);
  assert.equal(b.consoleFill.seq, a.consoleFill.seq + 1);
});

test("the tool prefix comes from the page's options", () => {
  const edit = { ...OPTIONS, toolPrefix: "edit" };
  assert.equal(toolName(edit, "commit"), "edit_commit");
  assert.deepEqual([...memoryTools(edit)], ["edit_recall_context", "edit_search_memory"]);
  // Without `memory: true` the memory tools are left out, under whatever prefix.
  const view = toolsView([toolState("edit_read"), toolState("edit_search_memory")], edit, new Map());
  assert.deepEqual(view.all, ["edit_read"]);
  // A transcript names the prefix only when it is not the page's own.
  const s = deepFreeze(initialState(OPTIONS, SAMPLE));
  assert.equal("toolPrefix" in transcriptOptions(s), false);
  const other = reduce(s, { type: "options", options: { toolPrefix: "edit" } });
  assert.equal(transcriptOptions(other).toolPrefix, "edit");
  assert.deepEqual(optionsFrom(transcriptOptions(other), OPTIONS), edit);
  assert.deepEqual(optionsFrom({}, OPTIONS), OPTIONS);
});
