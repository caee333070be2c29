// The JS host loop against storage providers that misbehave: text that is not valid Unicode,
// results of the wrong shape, calls that never settle, free() at awkward moments. Through the
// BUILT package; docs/reliability.md says what is promised. Each test failed before its fix.
// Run: node --test www/test/reliability-host.test.mjs   (after ./build.sh pack)
import assert from "node:assert/strict";
import test from "node:test";
import { MemoryStorage, Workspace } from "@agentpad/core";

const TEXT = "hello\nworld\n";
const CUT = "cut \uD83D here\n"; // a string cut inside an emoji: U+D83D has lost its pair

/** `promise`, or a failure naming `what` after `ms`. */
function within(ms, what, promise) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** A MemoryStorage whose load and save can be replaced while a workspace uses it. */
function hostile(docs = { "a.md": TEXT }) {
  const inner = new MemoryStorage(docs);
  const h = {
    inner,
    load: undefined,
    save: undefined,
    storage: {
      list: () => inner.list(),
      load: (path) => (h.load ? h.load(path) : inner.load(path)),
      save: (path, text, expected) => (h.save ? h.save(path, text, expected) : inner.save(path, text, expected)),
      watch: (listener) => inner.watch(listener),
    },
  };
  return h;
}

test("text with an unpaired surrogate from storage: the next call answers, naming the path and offset; nothing changes", async () => {
  const storage = new MemoryStorage({ "a.md": TEXT });
  const ws = await Workspace.create({ storage });
  storage.write("a.md", CUT);
  const r = await within(5000, "memo_read", ws.call("memo_read", {}));
  assert.equal(r.status, "Success", r.markdown);
  assert.match(r.summary, /a\.md changed in storage but could not be read: .*unpaired surrogate \(U\+D83D\) at UTF-16 offset 4/);
  assert.doesNotMatch(r.markdown, /argument `text`/, "blames an argument nobody sent");
  assert.equal(ws.text(), TEXT);
  assert.equal(ws.version(), "v1");
  // Told once; the next call is plain.
  const again = await ws.call("memo_read", {});
  assert.doesNotMatch(again.summary, /could not be read/);
  // Once storage holds valid text again, the change comes through (it was not dropped).
  storage.write("a.md", "mended\n");
  const mended = await ws.call("memo_read", {});
  assert.match(mended.content, /mended/);
  assert.equal(ws.text(), "mended\n");
  ws.free();
});

test("refresh and diff against storage that returns an unpaired surrogate answer with the path and offset", async () => {
  const h = hostile();
  const ws = await Workspace.create({ storage: h.storage });
  const staged = await ws.call("memo_replace", { old_text: "world", new_text: "there" });
  assert.equal(staged.status, "Success", staged.markdown);
  h.load = async () => ({ text: CUT, version: "v9" });
  for (const [tool, args] of [["memo_diff", { against: "storage" }], ["memo_refresh", {}], ["memo_discard", { reason: "start over" }]]) {
    const r = await within(5000, tool, ws.call(tool, args));
    assert.doesNotMatch(r.markdown, /the host reported no result/, `${tool}: ${r.markdown}`);
    if (r.status !== "Success") assert.match(r.summary, /a\.md.*unpaired surrogate \(U\+D83D\) at UTF-16 offset 4/, `${tool}: ${r.markdown}`);
    assert.equal(ws.text(), TEXT, `${tool}: the committed text changed`);
  }
  ws.free();
});

test("load results of the wrong shape during a call are a note naming the path, not a rejected call", async () => {
  for (const [label, load, says] of [
    ["no version", async () => ({ text: "new\n" }), /returned \{ text: string, version: undefined \}/],
    ["a number", async () => 42, /returned number/],
    ["a version that is a number", async () => ({ text: "x", version: 7 }), /returned \{ text: string, version: number \}/],
    ["a rejection", async () => Promise.reject(new Error("disk on fire")), /disk on fire/],
  ]) {
    const h = hostile();
    const ws = await Workspace.create({ storage: h.storage });
    h.load = load;
    h.inner.write("a.md", "changed\n");
    const r = await within(5000, label, ws.call("memo_read", {}));
    assert.equal(r.status, "Success", `${label}: ${r.markdown}`);
    assert.match(r.summary, /a\.md changed in storage but could not be read/, label);
    assert.match(r.summary, says, label);
    assert.equal(ws.text(), TEXT, label);
    ws.free();
  }
});

test("a save that resolves the wrong shape is a PersistFailure saying what a save must return", async () => {
  for (const [label, result, says] of [
    ["null", null, /storage\.save\("a\.md"\) resolved null; a StorageProvider's save must resolve to \{ version: string \}/],
    ["undefined", undefined, /resolved undefined; a StorageProvider's save must resolve to \{ version: string \}/],
    ["no version", {}, /resolved \{ version: undefined \}/],
    ["a numeric version", { version: 3 }, /resolved \{ version: 3 \}/],
  ]) {
    const h = hostile();
    const ws = await Workspace.create({ storage: h.storage });
    await ws.call("memo_replace", { old_text: "world", new_text: "there" });
    h.save = async () => result;
    const r = await ws.call("memo_commit", { summary: "greet" });
    assert.equal(r.status, "PersistFailure", `${label}: ${r.markdown}`);
    assert.match(r.summary, says, label);
    assert.doesNotMatch(r.summary, /Cannot destructure/, label);
    assert.match(ws.draft(), /there/, `${label}: the pending change is kept`);
    ws.free();
  }
});

test("Workspace.create names the document whose text has a broken character, and where", async () => {
  const storage = new MemoryStorage({ "a.md": TEXT, "b.md": CUT });
  await assert.rejects(Workspace.create({ storage }), (e) => {
    assert.match(e.message, /storage\.load\("b\.md"\) returned text with an unpaired surrogate \(U\+D83D\) at UTF-16 offset 4/);
    return true;
  });
});

test("a save that never settles ends in PersistFailure after storageTimeoutMs, and later calls run", async () => {
  const h = hostile();
  const ws = await Workspace.create({ storage: h.storage, storageTimeoutMs: 300 });
  await ws.call("memo_replace", { old_text: "world", new_text: "there" });
  h.save = () => new Promise(() => {});
  const queued = ws.call("memo_read", {});
  const r = await within(5000, "commit", ws.call("memo_commit", { summary: "greet" }));
  assert.equal(r.status, "PersistFailure", r.markdown);
  assert.match(r.summary, /storage did not answer within 300 ms \(the storageTimeoutMs option\)/);
  assert.equal((await within(5000, "the call queued behind", queued)).status, "Success");
  h.save = undefined;
  assert.equal((await ws.call("memo_commit", { summary: "greet" })).status, "Success");
  assert.equal(h.inner.read("a.md"), "hello\nthere\n");
  ws.free();
});

test("a load that never settles fails the call that needed it after storageTimeoutMs", async () => {
  const h = hostile();
  const ws = await Workspace.create({ storage: h.storage, storageTimeoutMs: 300 });
  await ws.call("memo_replace", { old_text: "world", new_text: "there" });
  h.load = () => new Promise(() => {});
  const r = await within(5000, "refresh", ws.call("memo_refresh", {}));
  assert.notEqual(r.status, "Success", r.markdown);
  assert.match(r.summary, /storage did not answer within 300 ms/);
  h.load = () => new Promise(() => {});
  await assert.rejects(
    within(5000, "create", Workspace.create({ storage: h.storage, storageTimeoutMs: 300 })),
    /storage\.load\("a\.md"\): the storage did not answer within 300 ms/,
  );
  ws.free();
});

test("free() settles every pending call with an error, even behind a storage call that never settles", async () => {
  const h = hostile();
  const ws = await Workspace.create({ storage: h.storage });
  await ws.call("memo_replace", { old_text: "world", new_text: "there" });
  h.save = () => new Promise(() => {});
  const commit = ws.call("memo_commit", { summary: "greet" });
  const behind = ws.call("memo_read", {});
  await new Promise((resolve) => setTimeout(resolve, 50)); // the commit is waiting on the save
  ws.free();
  await assert.rejects(within(1000, "the commit", commit), /freed .* before this call finished/);
  await assert.rejects(within(1000, "the call behind it", behind), /freed/);
  assert.equal(ws.freed, true);
});

test("free() from inside an argument getter does not throw, and the workspace is released after the call", async () => {
  const storage = new MemoryStorage({ "a.md": TEXT });
  const ws = await Workspace.create({ storage });
  let thrown;
  const args = {
    get path() {
      try {
        ws.free();
      } catch (err) {
        thrown = err;
      }
      return "a.md";
    },
  };
  await assert.rejects(within(2000, "the call", ws.call("memo_read", args)), /freed/);
  assert.equal(thrown, undefined, `free() threw: ${thrown?.message}`);
  assert.equal(ws.freed, true);
  assert.throws(() => ws.text(), /has been freed/);
  // The instance is really released: a second free is a no-op, and new workspaces work.
  ws.free();
  const next = await Workspace.create({ storage });
  assert.equal((await next.call("memo_read", {})).status, "Success");
  next.free();
});

test("storageTimeoutMs is checked: a whole number of ms from 1 to 2147483647", async () => {
  const storage = new MemoryStorage({ "a.md": TEXT });
  for (const bad of [0, -1, 1.5, "1000", 2 ** 31, NaN]) {
    await assert.rejects(Workspace.create({ storage, storageTimeoutMs: bad }), /`storageTimeoutMs` must be a whole number of ms from 1 to 2147483647/, String(bad));
  }
});
