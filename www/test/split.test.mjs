// The browser entry's split engine in headless Chromium (src/split-loader.ts,
// docs/decisions.md#the-browser-entry-loads-the-rest-of-the-engine-on-first-use): a page whose
// edits match exactly never fetches pkg/agentpad_rest.wasm; the first call that needs it fetches
// it once, is undone and runs again; every response equals the unsplit module's (the Node entry,
// in this process) for the same calls, compared as JSON.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { serveWww } from "./lib/static-server.mjs";
import * as node from "../dist/agentpad.node.js";
import { generate } from "../../bench/speed/lib/docs.mjs";
import { makeUndo, stackPointerOf } from "../dist/split-loader.js";
import binaryen from "binaryen";
import { checkUndoLayout, undoLayout } from "../scripts/split-wasm.mjs";
import { BROWSER_ENTRY as ENTRY, CHROMIUM, CHROMIUM_ARGS as ARGS } from "./lib/chromium.mjs";

const CORE = "/pkg/agentpad_core.wasm";
const REST = "/pkg/agentpad_rest.wasm";
const NOW = Date.UTC(2026, 11, 4, 12); // every call gets the same time on both sides

// The bench's 10 KB Markdown document: the kind the split's workload profiled, on other lines.
// (Which functions a call runs depends on the text too: a preview whose diff elides a line lists
// the pending changes, a section the workload never wrote, so it loads the rest. These lines'
// previews elide none.)
const DOC = generate("markdown", "10KB").text;
const count = new Map();
for (const line of DOC.split("\n")) if (line.trim().length >= 12) count.set(line, (count.get(line) ?? 0) + 1);
const unique = [...count].filter(([, n]) => n === 1).map(([l]) => l);
const repeated = [...count].filter(([, n]) => n > 1).map(([l]) => l);
const changed = (line, by) => `${line.slice(0, 8)}${by}${line.slice(9)}`;

/** The calls of each scenario, [tool, args] pairs; the same list runs on both sides. */
const EXACT = [
  ["memo_read", { start_line: 1, end_line: 30 }],
  ["memo_replace", { old_text: unique[12], new_text: changed(unique[12], "#") }],
  ["memo_replace", { old_text: repeated[1], new_text: `${repeated[1]} (checked)` }],
  ["memo_replace_selection", { selection_id: "B" }],
  ["memo_preview", { format: "diff" }],
  ["memo_commit", { summary: "two lines" }],
  ["memo_replace", { old_text: unique[14], new_text: "" }],
  ["memo_revert", { reason: "not this one" }],
  ["memo_read", { start_line: 1, end_line: 10 }],
];
const MISSES = [
  ["memo_replace", { old_text: changed(unique[24], "~"), new_text: "a near miss" }], // loads the rest
  ["memo_replace", { old_text: "nothing like this is in the document at all", new_text: "x" }],
  ["memo_replace", { old_text: unique[26], new_text: `${unique[26]} (kept)` }],
  ["memo_replace", { old_text: `   ${unique[28].trim()}`, new_text: "indented differently" }],
  ["memo_commit", { summary: "after the misses" }],
  ["memo_replace", { old_text: changed(unique[30], "%"), new_text: "x" }],
  ["memo_read", { start_line: 60, end_line: 75 }],
];

/** Responses of `calls` on the unsplit module (the Node entry), as JSON, and the final text. */
async function unsplit(calls, doc = DOC, locale = undefined) {
  const storage = new node.MemoryStorage({ "doc.md": doc });
  const ws = await node.Workspace.create({ storage, locale });
  const out = [];
  for (const [tool, args] of calls) out.push(JSON.stringify(await ws.callUntyped(tool, args, { nowMs: NOW })));
  const text = ws.text();
  ws.free();
  return { responses: out, text, stored: storage.read("doc.md") };
}

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>agentpad split entry</title>
<script type="module">
  window.fetched = () => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname);
  window.agentpad = await import(${JSON.stringify(ENTRY)});
  window.run = async (ws, calls) => {
    const out = [];
    for (const [tool, args] of calls) out.push(JSON.stringify(await ws.callUntyped(tool, args, { nowMs: ${NOW} })));
    return out;
  };
  window.ready = true;
</script>`;

let server;
const requests = [];
let refuseRest = false;

before(async () => {
  server = await serveWww(PAGE, (pathname) => {
    requests.push(pathname);
    return pathname === REST && refuseRest ? { status: 404 } : undefined;
  });
});

after(() => server?.close());

async function withPage(f) {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (./build.sh test installs Debian chromium)`);
  requests.length = 0;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 60_000 });
    await f(page);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
}

const restRequests = () => requests.filter((p) => p === REST).length;

test("exact edits on the split entry never fetch the rest, and answer as the unsplit module does", { timeout: 120_000 }, async () => {
  const expected = await unsplit([...EXACT, ...MISSES]);
  await withPage(async (page) => {
    const r = await page.evaluate(
      async ({ doc, exact }) => {
        const { MemoryStorage, Workspace } = window.agentpad;
        const storage = new MemoryStorage({ "doc.md": doc });
        window.storage = storage;
        window.ws = await Workspace.create({ storage });
        const responses = await window.run(window.ws, exact);
        return { responses, fetched: window.fetched(), text: window.ws.text() };
      },
      { doc: DOC, exact: EXACT },
    );
    assert.deepEqual(r.responses, expected.responses.slice(0, EXACT.length));
    assert.ok(r.fetched.includes(CORE), "the core was fetched");
    assert.ok(!r.fetched.includes(REST), `the rest was not fetched: ${r.fetched.join(" ")}`);
    assert.equal(restRequests(), 0);

    // A near miss needs the rest: fetched once, the call undone and run again, the same answer.
    const first = await page.evaluate((calls) => window.run(window.ws, calls), MISSES.slice(0, 1));
    assert.deepEqual(first, expected.responses.slice(EXACT.length, EXACT.length + 1));
    assert.equal(restRequests(), 1, "the rest is fetched once");

    // The mixed sequence goes on: misses, pending changes, a commit; nothing more is fetched.
    const rest = await page.evaluate((calls) => window.run(window.ws, calls), MISSES.slice(1));
    assert.deepEqual(rest, expected.responses.slice(EXACT.length + 1));
    const end = await page.evaluate(() => ({ text: window.ws.text(), stored: window.storage.read("doc.md"), fetched: window.fetched() }));
    assert.equal(end.text, expected.text);
    assert.equal(end.stored, expected.stored);
    assert.equal(restRequests(), 1, "nothing more fetched after the rest loaded");
    assert.equal(end.fetched.filter((p) => p.endsWith(".wasm")).length, 2, end.fetched.join(" "));
  });
});

// The bench's 10 KB Chinese document, answered in Chinese: the same functions with zh's table.
const CJK = generate("cjk", "10KB").text;
const cjkCount = new Map();
for (const line of CJK.split("\n")) if (line.trim().length >= 12) cjkCount.set(line, (cjkCount.get(line) ?? 0) + 1);
const cjkUnique = [...cjkCount].filter(([, n]) => n === 1).map(([l]) => l);
const cjkRepeated = [...cjkCount].filter(([, n]) => n > 1).map(([l]) => l);
const ZH_EXACT = [
  ["memo_read", { start_line: 1, end_line: 30 }],
  ["memo_replace", { old_text: cjkUnique[12], new_text: `${cjkUnique[12]}（改）` }],
  ["memo_replace", { old_text: cjkRepeated[0], new_text: `${cjkRepeated[0]}（其一）` }],
  ["memo_replace_selection", { selection_id: "A" }],
  ["memo_preview", { format: "diff" }],
  ["memo_commit", { summary: "两处" }],
  ["memo_replace", { old_text: cjkUnique[14], new_text: "" }],
  ["memo_revert", { reason: "不是这里" }],
];

test("exact edits in Chinese, answered in Chinese, never fetch the rest either", { timeout: 120_000 }, async () => {
  assert.ok(cjkRepeated.length > 0 && cjkUnique.length > 14, "the Chinese document has the lines the calls need");
  const expected = await unsplit(ZH_EXACT, CJK, "zh");
  assert.ok(
    expected.responses.some((r) => /[\u4e00-\u9fff]/.test(JSON.parse(r).content ?? "")),
    "the answers are in Chinese",
  );
  await withPage(async (page) => {
    const r = await page.evaluate(
      async ({ doc, calls }) => {
        const { MemoryStorage, Workspace } = window.agentpad;
        const ws = await Workspace.create({ storage: new MemoryStorage({ "doc.md": doc }), locale: "zh" });
        const responses = await window.run(ws, calls);
        return { responses, text: ws.text(), fetched: window.fetched() };
      },
      { doc: CJK, calls: ZH_EXACT },
    );
    assert.deepEqual(r.responses, expected.responses);
    assert.equal(r.text, expected.text);
    assert.ok(!r.fetched.includes(REST), `the rest was not fetched: ${r.fetched.join(" ")}`);
    assert.equal(restRequests(), 0);
  });
});

test("the sync methods of a fresh split workspace do not fetch the rest", { timeout: 120_000 }, async () => {
  const storage = new node.MemoryStorage({ "doc.md": DOC });
  const ws = await node.Workspace.create({ storage });
  const expected = JSON.stringify([
    ws.unstored(),
    ws.text(),
    ws.draft(),
    ws.state,
    ws.flags,
    ws.version("doc.md"),
    ws.paths(),
    ws.toolStates(),
    ws.tools({ format: "openai" }),
    ws.tools({ format: "anthropic", visibleOnly: true }),
    ws.tasks(),
  ]);
  ws.free();
  await withPage(async (page) => {
    const got = await page.evaluate(async (doc) => {
      const { MemoryStorage, Workspace } = window.agentpad;
      const ws = await Workspace.create({ storage: new MemoryStorage({ "doc.md": doc }) });
      const out = JSON.stringify([
        ws.unstored(),
        ws.text(),
        ws.draft(),
        ws.state,
        ws.flags,
        ws.version("doc.md"),
        ws.paths(),
        ws.toolStates(),
        ws.tools({ format: "openai" }),
        ws.tools({ format: "anthropic", visibleOnly: true }),
        ws.tasks(),
      ]);
      ws.free();
      return { out, fetched: window.fetched() };
    }, DOC);
    assert.equal(got.out, expected);
    assert.ok(!got.fetched.includes(REST), got.fetched.join(" "));
    assert.equal(restRequests(), 0);
  });
});

test(
  "a sync method that needs the rest says so, changes nothing, and works once an async call has loaded it",
  { timeout: 120_000 },
  async () => {
    const storage = new node.MemoryStorage({ "doc.md": DOC });
    const ws = await node.Workspace.create({ storage });
    await ws.call("memo_read", { start_line: 1, end_line: 2 });
    const expected = JSON.stringify(ws.liveContext({ maxDocumentChars: 400 }).markdown);
    ws.free();
    await withPage(async (page) => {
      const r = await page.evaluate(async (doc) => {
        const { MemoryStorage, Workspace } = window.agentpad;
        const ws = await Workspace.create({ storage: new MemoryStorage({ "doc.md": doc }) });
        let error = "";
        try {
          ws.liveContext({ maxDocumentChars: 400 });
        } catch (err) {
          error = err.message;
        }
        const state = ws.state;
        await ws.call("memo_read", { start_line: 1, end_line: 2 }); // waits for the rest under way
        const live = JSON.stringify(ws.liveContext({ maxDocumentChars: 400 }).markdown);
        ws.free();
        return { error, state, live };
      }, DOC);
      assert.match(
        r.error,
        /liveContext\(\) needs the part of the engine not loaded yet \(agentpad_rest\.wasm\).*nothing was changed\. Await Workspace\.loadAll\(\)/,
      );
      assert.equal(r.state, "Idle");
      assert.equal(r.live, expected);
      assert.equal(restRequests(), 1);
    });
  },
);

test("Workspace.loadAll() fetches the rest once; the sync methods that need it then answer", { timeout: 120_000 }, async () => {
  const storage = new node.MemoryStorage({ "doc.md": DOC });
  const ws = await node.Workspace.create({ storage });
  await node.Workspace.loadAll(); // one module: resolves at once
  const expected = JSON.stringify([ws.liveContext({ maxDocumentChars: 400 }).markdown, ws.memory.digest()]);
  ws.free();
  await withPage(async (page) => {
    const r = await page.evaluate(async (doc) => {
      const { MemoryStorage, Workspace } = window.agentpad;
      await Workspace.loadAll();
      const ws = await Workspace.create({ storage: new MemoryStorage({ "doc.md": doc }) });
      const out = JSON.stringify([ws.liveContext({ maxDocumentChars: 400 }).markdown, ws.memory.digest()]);
      ws.free();
      await Workspace.loadAll();
      return out;
    }, DOC);
    assert.equal(r, expected);
    assert.equal(restRequests(), 1);
  });
});

test(
  "a rest that fails to fetch: the call gets a clear error, the workspace is as before, a later call fetches again",
  { timeout: 120_000 },
  async () => {
    // The failed call leaves no trace: the unsplit module never sees it.
    const expected = await unsplit([EXACT[1], MISSES[0], EXACT[5]]);
    refuseRest = true;
    try {
      await withPage(async (page) => {
        const r = await page.evaluate(
          async ({ doc, calls }) => {
            const { MemoryStorage, Workspace } = window.agentpad;
            const ws = await Workspace.create({ storage: new MemoryStorage({ "doc.md": doc }) });
            window.ws = ws;
            const staged = await window.run(ws, [calls[0]]);
            const draft = ws.draft();
            let error = "";
            await ws.callUntyped(calls[1][0], calls[1][1]).catch((err) => (error = err.message));
            return { staged, error, draftSame: ws.draft() === draft, state: ws.state };
          },
          { doc: DOC, calls: [EXACT[1], MISSES[0]] },
        );
        assert.deepEqual(r.staged, expected.responses.slice(0, 1));
        assert.match(
          r.error,
          /^agentpad: failed to load the rest of the engine \(agentpad_rest\.wasm\): 404 Not Found fetching .*\/pkg\/agentpad_rest\.wasm/,
        );
        assert.ok(r.draftSame, "the failed call changed nothing");
        assert.equal(r.state, "PersistPending");
        assert.equal(restRequests(), 1);
        refuseRest = false;
        // The same call again fetches the rest and answers as if the failed one never ran.
        const again = await page.evaluate((calls) => window.run(window.ws, calls), [MISSES[0], EXACT[5]]);
        assert.equal(restRequests(), 2, "fetched again");
        assert.deepEqual(again, expected.responses.slice(1));
      });
    } finally {
      refuseRest = false;
    }
  },
);

test("every mutable global of the core is exported, so a call's undo can put it back", () => {
  const bytes = readFileSync(new URL(`..${CORE}`, import.meta.url));
  const module = new WebAssembly.Module(bytes);
  assert.equal(
    WebAssembly.Module.imports(module).filter((i) => i.kind === "global").length,
    0,
    "no imported globals (indices below start at 0)",
  );
  // The build's own reader of the layout (www/scripts/split-wasm.mjs), which the undo relies on.
  const layout = undoLayout(bytes);
  assert.equal(layout.importedGlobals, 0);
  for (const [, value] of layout.mutable) assert.equal(typeof value, "number", "a global's init is an i32.const");
  const mutable = layout.mutable.map(([index]) => index);
  const exported = layout.exportedGlobals;
  assert.ok(mutable.length > 0, "the shadow stack pointer at least");
  assert.deepEqual(
    mutable.filter((g) => !exported.has(g)),
    [],
    "mutable globals not exported",
  );
});

/** A module shaped as the core is for the undo: a memory, an externref table, an immutable
 * global, and mutable i32 globals (the first at 1024, as the shadow stack pointer's top). */
function fakeCore(mutableCount) {
  const globals = Array.from({ length: mutableCount }, (_, i) => `(global (export "m${i}") (mut i32) (i32.const ${1024 + i}))`);
  const m = binaryen.parseText(`(module
    (memory (export "memory") 1)
    (table (export "refs") 4 externref)
    (global (export "fixed") i32 (i32.const 7))
    ${globals.join("\n")})`);
  m.setFeatures(binaryen.Features.ReferenceTypes | binaryen.Features.BulkMemory | binaryen.Features.MutableGlobals);
  const e = new WebAssembly.Instance(new WebAssembly.Module(m.emitBinary())).exports;
  m.dispose();
  const globals_ = Object.values(e).filter((v) => v instanceof WebAssembly.Global);
  return { memory: e.memory, refs: e.refs, globals: globals_, sp: e.m0 };
}

test("the stack pointer is the only mutable global; with two, none is taken for it", () => {
  const one = fakeCore(1);
  assert.equal(stackPointerOf(one.globals), one.sp);
  assert.equal(stackPointerOf(fakeCore(2).globals), undefined);
  assert.equal(stackPointerOf(fakeCore(0).globals), undefined);
});

test("an undo puts back the memory from the stack pointer up, the globals and the externref table", () => {
  const { memory, refs, globals, sp } = fakeCore(1);
  const undo = makeUndo(memory, refs, globals);
  assert.equal(undo.scope, "above the stack pointer");
  const bytes = () => new Uint8Array(memory.buffer);
  bytes().fill(0x11);
  const held = [{ a: 1 }, "two", null, { d: 4 }];
  held.forEach((v, i) => refs.set(i, v));
  const before = bytes().slice();

  undo.save(0);
  bytes().fill(0x22, 0, 4096); // the stack below and above the pointer, and data
  sp.value = 512; // a call's frames
  refs.set(0, null); // a dealloc
  refs.grow(300, "new");
  refs.set(3, { other: true });
  memory.grow(1);
  bytes().fill(0x33, 65536);

  // A nested call's undo, then the outer one.
  undo.save(1);
  const nestedBefore = bytes().slice();
  bytes().fill(0x44, 600, 700);
  sp.value = 256;
  refs.set(1, "changed");
  undo.restore(1);
  assert.equal(sp.value, 512);
  assert.equal(refs.get(1), "two");
  assert.deepEqual(bytes().subarray(512), nestedBefore.subarray(512));

  undo.restore(0);
  assert.equal(sp.value, 1024);
  assert.deepEqual(bytes().subarray(1024, 65536), before.subarray(1024));
  assert.ok(
    bytes()
      .subarray(65536)
      .every((b) => b === 0),
    "the grown page is zeroed",
  );
  assert.ok(
    bytes()
      .subarray(0, 1024)
      .every((b) => b === 0x22),
    "the free stack below the pointer is not copied",
  );
  held.forEach((v, i) => assert.equal(refs.get(i), v, `slot ${i}`));
  assert.equal(refs.length, 304);
  for (let i = 4; i < refs.length; i++) assert.equal(refs.get(i), null, `slot ${i} past the old length`);
});

test("without a single mutable global to take for the stack pointer, the undo copies the whole memory", () => {
  const { memory, refs, globals, sp } = fakeCore(2);
  const undo = makeUndo(memory, refs, globals);
  assert.equal(undo.scope, "all");
  const bytes = () => new Uint8Array(memory.buffer);
  bytes().fill(0x11);
  const other = globals.find((g) => g !== sp && g.value === 1025);
  undo.save(0);
  bytes().fill(0x22, 0, 4096);
  sp.value = 1;
  other.value = 2;
  undo.restore(0);
  assert.ok(bytes().every((b) => b === 0x11));
  assert.equal(sp.value, 1024);
  assert.equal(other.value, 1025);
});

// A 100 KB document: its open and reads build a rope with internal nodes (deeper frames), and
// three workspaces at once hold more externrefs; the misses come after exact calls on each.
const BIG = generate("markdown", "100KB").text;
const bigUnique = (() => {
  const n = new Map();
  for (const line of BIG.split("\n")) if (line.trim().length >= 12) n.set(line, (n.get(line) ?? 0) + 1);
  return [...n].filter(([, k]) => k === 1).map(([l]) => l);
})();
const MANY = [
  [0, EXACT[0]],
  [1, ["memo_read", { start_line: 1, end_line: 400 }]],
  [1, ["memo_replace", { old_text: bigUnique[40], new_text: changed(bigUnique[40], "#") }]],
  [2, EXACT[1]],
  [0, EXACT[2]],
  [1, ["memo_commit", { summary: "one line" }]],
  [1, ["memo_replace", { old_text: changed(bigUnique[300], "~"), new_text: "a near miss" }]], // loads the rest
  [0, MISSES[1]],
  [2, MISSES[0]],
  [0, EXACT[3]],
  [1, ["memo_read", { start_line: 900, end_line: 960 }]],
  [2, EXACT[5]],
];

test("a call undone after deep frames and with three workspaces' externrefs live is still exact", { timeout: 180_000 }, async () => {
  assert.ok(bigUnique.length > 300);
  const docs = [DOC, BIG, DOC];
  const spaces = await Promise.all(docs.map((doc) => node.Workspace.create({ storage: new node.MemoryStorage({ "doc.md": doc }) })));
  const expected = [];
  for (const [w, [tool, args]] of MANY) expected.push(JSON.stringify(await spaces[w].callUntyped(tool, args, { nowMs: NOW })));
  const texts = spaces.map((ws) => ws.text());
  spaces.forEach((ws) => ws.free());
  await withPage(async (page) => {
    const r = await page.evaluate(
      async ({ docs, calls, now }) => {
        const { MemoryStorage, Workspace } = window.agentpad;
        const spaces = [];
        for (const doc of docs) spaces.push(await Workspace.create({ storage: new MemoryStorage({ "doc.md": doc }) }));
        const out = [];
        for (const [w, [tool, args]] of calls) out.push(JSON.stringify(await spaces[w].callUntyped(tool, args, { nowMs: now })));
        return { out, texts: spaces.map((ws) => ws.text()) };
      },
      { docs, calls: MANY, now: NOW },
    );
    assert.deepEqual(r.out, expected);
    assert.deepEqual(r.texts, texts);
    assert.equal(restRequests(), 1);
  });
});

/** A module's bytes from its text form. */
function wasm(text) {
  const m = binaryen.parseText(text);
  m.setFeatures(binaryen.Features.ReferenceTypes | binaryen.Features.BulkMemory | binaryen.Features.MutableGlobals);
  const b = m.emitBinary();
  m.dispose();
  return b;
}

test("the build refuses a split whose layout the undo cannot skip the stack of", () => {
  const core = readFileSync(new URL(`..${CORE}`, import.meta.url));
  const rest = readFileSync(new URL(`..${REST}`, import.meta.url));
  const shipped = checkUndoLayout(core, rest);
  assert.ok(shipped.stackTop >= 65536 && shipped.dataSegments > 0, JSON.stringify(shipped));
  const stackFirst = `(memory (export "memory") 2) (global $sp (export "sp") (mut i32) (i32.const 4096))`;
  const noRest = wasm("(module)");
  assert.equal(checkUndoLayout(wasm(`(module ${stackFirst} (data (i32.const 4096) "x"))`), noRest).stackTop, 4096);
  assert.throws(
    () => checkUndoLayout(wasm(`(module ${stackFirst} (data (i32.const 4096) "x") (data (i32.const 1024) "y"))`), noRest),
    /a data segment at 1024, below the stack pointer's initial value 4096/,
  );
  assert.throws(
    () => checkUndoLayout(wasm(`(module ${stackFirst} (global (export "g") (mut i32) (i32.const 0)))`), noRest),
    /2 mutable globals, not one/,
  );
  assert.throws(
    () => checkUndoLayout(wasm(`(module (memory 2) (global $sp (mut i32) (i32.const 4096)))`), noRest),
    /the stack pointer is not exported/,
  );
  assert.throws(
    () => checkUndoLayout(wasm(`(module ${stackFirst})`), wasm(`(module (memory 1) (data (i32.const 8192) "z"))`)),
    /the rest has 1 active data segments/,
  );
});
