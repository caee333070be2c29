// Scale and integrity through the BUILT package: no leak over 10,000 create/call/free cycles,
// a 50 MB document that opens, edits and commits, the document size limit, and byte-exact round
// trips of tricky text through MemoryStorage and NodeFsStorage.
//
// The tests run in order in one process and wasm memory never shrinks: the leak test comes
// first, before the large documents grow the memory. Timings and memory are printed (`# …`
// diagnostics in the spec reporter) for the reader of the test log.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "node:test";
import { MAX_DOCUMENT_BYTES, MemoryStorage, NodeFsStorage, Workspace, memoryBytes } from "@agentpad/core";

const MIB = 1024 * 1024;
const mib = (bytes) => `${(bytes / MIB).toFixed(2)} MiB`;

// ---- leaks -------------------------------------------------------------------------------------

const CYCLES = 10_000;
const WARM_UP = 500;
// Flat means: no more than this above the memory at the end of the warm-up. Memory grows in
// 64 KiB pages and the allocator's free lists settle for a while after the warm-up (a freed block
// may be too small for the next request of a slightly different size, so the heap can take one
// more page now and then), so allow 16 pages. A leak of 110 bytes per cycle would exceed it over
// the 9,500 cycles measured.
const TOLERANCE = 1 * MIB;

test("10,000 create/call/free cycles keep the wasm memory flat (free and Symbol.dispose)", async (t) => {
  const doc = "# Notes\n\n- alpha: todo\n- beta: todo\n- gamma: todo\n";
  const at = new Map();
  const started = performance.now();
  for (let i = 1; i <= CYCLES; i++) {
    const storage = new MemoryStorage({ "notes.md": doc });
    const ws = await Workspace.create({ storage });
    const r = await ws.call("memo_replace", { old_text: "beta: todo", new_text: `beta: done ${i}` }, { toolCallId: `c${i}` });
    assert.equal(r.status, "Success");
    const c = await ws.call("memo_commit", { summary: `cycle ${i}` });
    assert.equal(c.status, "Success");
    assert.equal(storage.read("notes.md"), doc.replace("beta: todo", `beta: done ${i}`));
    // Half the cycles release through Symbol.dispose (what `using` calls), half through free().
    if (i % 2 === 0) ws[Symbol.dispose]();
    else ws.free();
    assert.equal(ws.freed, true);
    if (i === WARM_UP || i % 1000 === 0) at.set(i, memoryBytes());
  }
  const seconds = (performance.now() - started) / 1000;
  const base = at.get(WARM_UP);
  t.diagnostic(
    `${CYCLES} cycles in ${seconds.toFixed(1)} s; wasm memory at ${[...at].map(([i, b]) => `${i}: ${mib(b)}`).join(", ")}`,
  );
  for (const [i, bytes] of at) {
    if (i < WARM_UP) continue;
    assert.ok(bytes <= base + TOLERANCE, `memory at cycle ${i} is ${mib(bytes)}, more than ${mib(TOLERANCE)} above ${mib(base)} at cycle ${WARM_UP}`);
  }
  assert.ok(seconds < 60, `the cycles took ${seconds.toFixed(1)} s`);
});

test("the measurement sees a leak: workspaces kept alive grow the memory", async (t) => {
  // The control for the test above: the same cycles without free(), the workspaces held, must
  // show up in memoryBytes(); else a flat line would prove nothing.
  const before = memoryBytes();
  const kept = [];
  for (let i = 0; i < 2000; i++) {
    const ws = await Workspace.create({ storage: new MemoryStorage({ "notes.md": `line ${i}\n`.repeat(50) }) });
    await ws.call("memo_replace", { old_text: "line", new_text: "LINE", replace_all: true });
    kept.push(ws);
  }
  const grown = memoryBytes() - before;
  t.diagnostic(`2,000 workspaces kept alive: +${mib(grown)}`);
  assert.ok(grown > 2 * TOLERANCE, `only +${mib(grown)}`);
  for (const ws of kept) ws.free();
});

test("Symbol.dispose frees: later use throws, a second dispose is harmless; `using` where supported", async () => {
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "a\n" }) });
  ws[Symbol.dispose]();
  assert.equal(ws.freed, true);
  assert.throws(() => ws.text(), /has been freed/);
  await assert.rejects(ws.call("memo_read", {}), /has been freed/);
  ws[Symbol.dispose]();
  ws.free();
  let usingSyntax = true;
  try {
    new Function("{ using x = null; }");
  } catch {
    usingSyntax = false; // Node 20 has Symbol.dispose but not the syntax
  }
  if (usingSyntax) {
    const run = new Function("Workspace", "MemoryStorage", `return (async () => {
      let outer;
      { using ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "a\\n" }) }); outer = ws; }
      return outer.freed;
    })();`);
    assert.equal(await run(Workspace, MemoryStorage), true);
  }
});

// ---- a 50 MB document -------------------------------------------------------------------------

/** ~50 MB of code-like lines: `unique_target` once, `rare_token()` every 50,000th line (≈14),
 * `shared_token(i % 7)` every 1000th. */
function fiftyMegabytes() {
  const lines = [];
  let bytes = 0;
  for (let i = 0; bytes < 50 * 1000 * 1000; i++) {
    const line =
      i === 123_456
        ? `    let unique_target = compute(${i}); // the one to find`
        : i % 50_000 === 25_000
          ? `    rare_token(); // a few times`
          : i % 1000 === 0
          ? `    shared_token(${i % 7}); // repeated`
          : `    let value_${i} = item_${i % 97}.field + ${i}; // filler text 中文 ✓`;
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  }
  return lines.join("\n") + "\n";
}

test("a 50 MB document opens, edits (unique and multi-match), commits through MemoryStorage", async (t) => {
  const doc = fiftyMegabytes();
  assert.ok(Buffer.byteLength(doc) > 50e6);
  const memBefore = memoryBytes();
  const timings = [];
  const timed = async (what, f) => {
    const t0 = performance.now();
    const out = await f();
    timings.push(`${what} ${(performance.now() - t0).toFixed(0)} ms`);
    return out;
  };
  const started = performance.now();
  const storage = new MemoryStorage({ "big.rs": doc });
  const ws = await timed("create", () => Workspace.create({ storage }));
  let r = await timed("unique replace", () =>
    ws.call("memo_replace", { old_text: "let unique_target = compute(123456);", new_text: "let unique_target = compute_fast(123456);" }),
  );
  assert.equal(r.status, "Success", r.markdown);
  // A needle on every 1000th line with the same argument: candidates; pick one by letter.
  r = await timed("multi-match", () => ws.call("memo_replace", { old_text: "shared_token(3);", new_text: "shared_token(30);" }));
  assert.equal(r.status, "MultiMatch", r.markdown);
  assert.ok(r.candidates.length >= 2);
  const pick = r.candidates[1];
  r = await timed("select B", () => ws.call("memo_replace_selection", { selection_id: pick.id }));
  assert.equal(r.status, "Success", r.markdown);
  // Every occurrence of another one at once.
  r = await timed("replace_all", () => ws.call("memo_replace", { old_text: "rare_token();", new_text: "rare_token(1);", replace_all: true }));
  assert.equal(r.status, "Success", r.markdown);
  const places = doc.split("rare_token();").length - 1;
  assert.match(r.summary, new RegExp(`\\(${places} places`), "a replace-all is one change however many places");
  r = await timed("append", () => ws.call("memo_append", { text: "// end of file\n" }));
  assert.equal(r.status, "Success", r.markdown);
  const rare = doc.split("rare_token();").length - 1;
  assert.ok(rare > 5 && rare < 24, `${rare} rare tokens`);
  // One change for the replace-all (with a place each; an earlier change it touches is merged
  // into it), one for the append, and the earlier ones it does not touch.
  assert.ok(r.pending_changes.length >= 2 && r.pending_changes.length <= 4, `${r.pending_changes.length} pending changes`);
  assert.equal(r.pending_changes.find((c) => c.places.length > 1)?.places.length, places, "the replace-all holds its places, not the text between them");
  r = await timed("commit", () => ws.call("memo_commit", { summary: "Scale test edits" }));
  assert.equal(r.status, "Success", r.markdown);

  // The expected text, built independently.
  const lines = doc.split("\n");
  const picked = lines.findIndex((l, i) => l.includes("shared_token(3);") && i + 1 === pick.line);
  assert.ok(picked >= 0, `candidate ${pick.id} is on line ${pick.line}`);
  lines[picked] = lines[picked].replace("shared_token(3);", "shared_token(30);");
  let expected = lines.join("\n").replace("compute(123456);", "compute_fast(123456);");
  expected = expected.replaceAll("rare_token();", "rare_token(1);") + "// end of file\n";
  const text = await timed("text()", () => ws.text());
  assert.ok(text === expected, "text() equals the expected string");
  assert.ok(storage.read("big.rs") === expected, "storage holds the expected string");
  assert.ok((await timed("draft()", () => ws.draft())) === expected);
  ws.free();
  const seconds = (performance.now() - started) / 1000;
  t.diagnostic(`50 MB (${Buffer.byteLength(doc)} bytes): ${seconds.toFixed(2)} s — ${timings.join(", ")}`);
  t.diagnostic(`wasm memory ${mib(memBefore)} → ${mib(memoryBytes())}`);
  assert.ok(seconds < 30, `${seconds.toFixed(1)} s`);
});

// ---- the size limit ---------------------------------------------------------------------------

test("MAX_DOCUMENT_BYTES is 128 MiB", () => {
  assert.equal(MAX_DOCUMENT_BYTES, 134_217_728);
});

test("Workspace.create rejects a document over the limit with its path, size and the limit", async () => {
  // Longer than the limit in UTF-16 units: refused before it is copied into wasm memory.
  const storage = new MemoryStorage({ "small.md": "ok\n", "huge.log": "x".repeat(MAX_DOCUMENT_BYTES + 1) });
  await assert.rejects(Workspace.create({ storage }), (err) => {
    assert.ok(err instanceof Error);
    assert.match(err.message, /`huge\.log` is 134217729 bytes, over the limit of 134217728 bytes \(128 MiB\)/);
    return true;
  });
  // Short enough in UTF-16 units but over in UTF-8 bytes: the core measures and refuses it.
  const cjk = "中".repeat(MAX_DOCUMENT_BYTES / 3 + 1);
  await assert.rejects(Workspace.create({ storage: new MemoryStorage({ "cjk.txt": cjk }) }), (err) => {
    assert.match(err.message, new RegExp(`\`cjk\\.txt\` is ${cjk.length * 3} bytes, over the limit of 134217728 bytes`));
    return true;
  });
  // The other documents open fine without it.
  const ws = await Workspace.create({ storage, paths: ["small.md"] });
  assert.equal(ws.text(), "ok\n");
  ws.free();
});

test("a document at the limit: an edit past it returns InvalidArguments and changes nothing", async (t) => {
  const started = performance.now();
  const doc = "y".repeat(MAX_DOCUMENT_BYTES - 20) + "\nlast line: 1234567\n"; // exactly the limit
  assert.equal(doc.length, MAX_DOCUMENT_BYTES);
  const storage = new MemoryStorage({ "at-limit.txt": doc });
  const ws = await Workspace.create({ storage });
  let r = await ws.call("memo_replace", { old_text: "last line: 1234567", new_text: "last line: 12345678" });
  assert.equal(r.status, "InvalidArguments", r.markdown);
  assert.match(r.summary, /would make at-limit\.txt 134217729 bytes \(it is 134217728 now\), over the limit of 134217728 bytes \(128 MiB\)/);
  assert.match(r.guidance, /smaller new_text/);
  assert.equal(ws.state, "Idle");
  assert.deepEqual(r.pending_changes, []);
  r = await ws.call("memo_append", { text: "!" });
  assert.equal(r.status, "InvalidArguments", r.markdown);
  // A replacement of the same size is fine.
  r = await ws.call("memo_replace", { old_text: "last line: 1234567", new_text: "last line: 7654321" });
  assert.equal(r.status, "Success", r.markdown);
  ws.free();
  t.diagnostic(`128 MiB document: ${((performance.now() - started) / 1000).toFixed(2)} s; wasm memory ${mib(memoryBytes())}`);
});

test("an external change over the limit is not loaded; a refresh of it is refused", async () => {
  const storage = new MemoryStorage({ "notes.md": "alpha\nbeta\n" });
  const ws = await Workspace.create({ storage });
  let r = await ws.call("memo_replace", { old_text: "beta", new_text: "BETA" });
  assert.equal(r.status, "Success");
  storage.write("notes.md", "z".repeat(MAX_DOCUMENT_BYTES + 5));
  r = await ws.call("memo_preview", {});
  assert.match(r.summary, /notes\.md changed in storage \(version v2\) to 134217733 bytes, over the limit of 134217728 bytes per document: it was not loaded/);
  assert.equal(ws.text(), "alpha\nbeta\n");
  assert.equal(ws.draft(), "alpha\nBETA\n");
  r = await ws.call("memo_refresh", {});
  assert.equal(r.status, "Exception", r.markdown);
  assert.match(r.summary, /`notes\.md` is 134217733 bytes, over the limit of 134217728 bytes/);
  assert.equal(ws.draft(), "alpha\nBETA\n");
  ws.free();
});

test("a rebase onto a larger storage text that takes the draft past the limit: commit refuses it", async (t) => {
  const base = "w".repeat(MAX_DOCUMENT_BYTES - 100) + "\nend\n"; // the limit - 95
  const storage = new MemoryStorage({ "r.txt": base });
  const ws = await Workspace.create({ storage });
  let r = await ws.call("memo_append", { text: "a".repeat(60) + "\n" }); // the limit - 34
  assert.equal(r.status, "Success", r.markdown);
  const external = "header ".repeat(10) + "\n" + base; // the limit - 24: storage may hold it
  storage.write("r.txt", external);
  r = await ws.call("memo_rebase", {});
  assert.equal(r.status, "Success", r.markdown);
  assert.equal(ws.draft().length, MAX_DOCUMENT_BYTES + 37);
  r = await ws.call("memo_commit", { summary: "too large" });
  assert.equal(r.status, "InvalidArguments", r.markdown);
  assert.match(r.summary, /The draft of r\.txt is 134217765 bytes, over the limit of 134217728 bytes \(128 MiB\) per document\. Nothing was saved\./);
  assert.match(r.guidance, /memo_revert/);
  assert.ok(storage.read("r.txt") === external, "storage is unchanged");
  // Shrinking edits still pass, and then the commit goes through.
  r = await ws.call("memo_replace", { old_text: "header ".repeat(10) + "\n", new_text: "" });
  assert.equal(r.status, "Success", r.markdown);
  r = await ws.call("memo_commit", { summary: "smaller" });
  assert.equal(r.status, "Success", r.markdown);
  assert.ok(storage.read("r.txt") === base + "a".repeat(60) + "\n");
  ws.free();
  t.diagnostic(`wasm memory after the 128 MiB tests: ${mib(memoryBytes())}`);
});

// ---- text integrity ---------------------------------------------------------------------------

const PIECES = [
  "plain words", " ", "\t", "\t\tindented", "\0", "nul\0inside", "😀", "👩\u200D💻", "🇯🇵", "中文字符",
  "日本語テキスト", "한국어", "e\u0301", "a\u0308\u0332", "\uFEFF", "\u200B", "\u00A0", "\u2028", "trailing   ", "é",
];
// Bracketed: a word next to it in a piece is not cut by the edit (one exact match cutting a word
// is a candidate to confirm, docs/architecture.md#matching).
const MARKER = "⟦EDIT_HERE_7f3a⟧";
const NEW_TEXT = "new\tline\nwith 中文 and 😀\0 e\u0301";
const APPENDED = "\nappended 👩\u200D💻\n";

/** A seeded document of PIECES in one line-ending style, and the bytes expected after the edit. */
function makeDoc(seed) {
  let s = seed * 2654435761 + 1;
  const rand = (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  const eol = ["\n", "\r\n", "\r"][seed % 3];
  const bom = seed % 2 === 1;
  const lines = Array.from({ length: 1 + rand(12) }, () => Array.from({ length: rand(5) }, () => PIECES[rand(PIECES.length)]).join(""));
  lines.splice(rand(lines.length + 1), 0, `${PIECES[rand(PIECES.length)]}${MARKER}${PIECES[rand(PIECES.length)]}`);
  const raw = (bom ? "\uFEFF" : "") + lines.join(eol) + (rand(2) ? eol : "");
  const style = /[\r\n]/.test(raw) ? eol : "\n"; // no line break: new ones are LF
  const expected = raw.replace(MARKER, NEW_TEXT.replaceAll("\n", style)) + APPENDED.replaceAll("\n", style);
  return { raw, expected };
}

async function editElsewhere(ws, path) {
  let r = await ws.call("memo_replace", { path, old_text: MARKER, new_text: NEW_TEXT });
  assert.equal(r.status, "Success", r.markdown);
  r = await ws.call("memo_append", { path, text: APPENDED });
  assert.equal(r.status, "Success", r.markdown);
  r = await ws.call("memo_commit", { summary: `edit ${path}` });
  assert.equal(r.status, "Success", r.markdown);
}

const normalised = (raw) => raw.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n").replaceAll("\r", "\n");

test("CRLF, CR, BOM, tabs, NUL, emoji, CJK, combining marks round-trip through MemoryStorage", async () => {
  for (let seed = 0; seed < 60; seed++) {
    const { raw, expected } = makeDoc(seed);
    const storage = new MemoryStorage({ "doc.txt": raw, "untouched.txt": raw });
    const ws = await Workspace.create({ storage });
    await editElsewhere(ws, "doc.txt");
    assert.ok(Buffer.from(storage.read("doc.txt"), "utf8").equals(Buffer.from(expected, "utf8")), `seed ${seed}: ${JSON.stringify(storage.read("doc.txt"))} != ${JSON.stringify(expected)}`);
    assert.equal(storage.read("untouched.txt"), raw);
    assert.equal(ws.text("doc.txt"), normalised(expected));
    ws.free();
  }
});

test("the same round trip through NodeFsStorage: the file's bytes are exactly the expected ones", async () => {
  const dir = mkdtempSync(join(tmpdir(), "agentpad-integrity-"));
  try {
    for (let seed = 0; seed < 24; seed++) {
      const { raw, expected } = makeDoc(seed);
      const file = `doc-${seed}.txt`;
      writeFileSync(join(dir, file), Buffer.from(raw, "utf8"));
      writeFileSync(join(dir, `untouched-${seed}.txt`), Buffer.from(raw, "utf8"));
      const storage = new NodeFsStorage(dir);
      const ws = await Workspace.create({ storage, paths: [file, `untouched-${seed}.txt`] });
      await editElsewhere(ws, file);
      ws.free();
      const bytes = readFileSync(join(dir, file));
      assert.ok(bytes.equals(Buffer.from(expected, "utf8")), `seed ${seed}: ${JSON.stringify(bytes.toString("utf8"))} != ${JSON.stringify(expected)}`);
      assert.ok(readFileSync(join(dir, `untouched-${seed}.txt`)).equals(Buffer.from(raw, "utf8")));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
