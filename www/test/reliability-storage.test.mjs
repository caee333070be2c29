// NodeFsStorage under concurrency and hostile folders, through the BUILT package on real
// temporary directories (docs/reliability.md says what is promised; each test here failed before
// the fix it guards). Other processes are real `node` processes, each bounded in time.
// Run: node --test www/test/reliability-storage.test.mjs   (after ./build.sh pack)
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, utimesSync, watch, writeFileSync,
} from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { NodeFsStorage, Workspace } from "@agentpad/core";

const dirs = [];
async function tempDir(prefix = "agentpad-rel-") {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
after(async () => {
  for (const dir of dirs) {
    spawnSync("chmod", ["-R", "u+rwx", dir]);
    await rm(dir, { recursive: true, force: true });
  }
});

const LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1} value ${i + 1}`);
const TEXT = `${LINES.join("\n")}\n`;

/** `promise`, or a failure naming `what` after `ms`: a hang must fail the test, not stall it. */
function within(ms, what, promise) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

async function stage(ws, line) {
  const r = await ws.call("memo_replace", { old_text: `value ${line}\n`, new_text: `value ${line} EDITED\n` });
  assert.equal(r.status, "Success", r.markdown);
}

/**
 * A workspace whose commit of notes.md has just failed (memo_persist_as is the recovery it
 * offers then): the file changed on disk behind it (its watcher waits 60 s to say so).
 */
async function afterFailedCommit(dir, storageOptions = {}) {
  const storage = new NodeFsStorage(dir, { debounceMs: 60_000, ...storageOptions });
  const ws = await Workspace.create({ storage, paths: ["notes.md"] });
  await stage(ws, 1);
  writeFileSync(join(dir, "notes.md"), `${TEXT}changed behind the workspace\n`);
  const failed = await ws.call("memo_commit", { summary: "edit line 1" });
  assert.equal(failed.status, "PersistFailure", failed.markdown);
  return { storage, ws };
}

test("two storages on one folder, commits at the same moment: no Success loses its edit (20 trials)", async (t) => {
  let failures = 0;
  for (let trial = 0; trial < 20; trial++) {
    const dir = await tempDir();
    writeFileSync(join(dir, "notes.md"), TEXT);
    const a = await Workspace.create({ storage: new NodeFsStorage(dir) });
    const b = await Workspace.create({ storage: new NodeFsStorage(dir) });
    await stage(a, 2);
    await stage(b, 8);
    const [ra, rb] = await within(20_000, "two commits", Promise.all([
      a.call("memo_commit", { summary: "edit line 2" }),
      b.call("memo_commit", { summary: "edit line 8" }),
    ]));
    const disk = readFileSync(join(dir, "notes.md"), "utf8");
    for (const [r, line] of [[ra, 2], [rb, 8]]) {
      assert.ok(r.status === "Success" || r.status === "PersistFailure", r.markdown);
      if (r.status === "Success") {
        assert.ok(disk.includes(`value ${line} EDITED\n`), `trial ${trial}: the commit of line ${line} said Success but its edit is not on disk:\n${disk}`);
      } else {
        failures++;
        assert.match(r.markdown, /version mismatch|changed/, r.markdown);
      }
    }
    assert.ok(ra.status === "Success" || rb.status === "Success", "one of the two commits goes through");
    a.free();
    b.free();
  }
  t.diagnostic(`${failures} of 20 trials refused one commit (version mismatch under the lock)`);
});

test("a second storage on the folder hears of the first one's commit at once (no stale 'no pending changes')", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "notes.md"), TEXT);
  const a = await Workspace.create({ storage: new NodeFsStorage(dir, { debounceMs: 500 }) });
  const b = await Workspace.create({ storage: new NodeFsStorage(dir, { debounceMs: 500 }) });
  await stage(a, 3);
  assert.equal((await a.call("memo_commit", { summary: "edit line 3" })).status, "Success");
  // Well within b's debounce: only a direct notice can have told b.
  const r = await b.call("memo_read", {});
  assert.equal(r.status, "Success", r.markdown);
  assert.match(r.content, /value 3 EDITED/, `b still serves the old text:\n${r.markdown}`);
  assert.equal(b.text(), readFileSync(join(dir, "notes.md"), "utf8"));
  a.free();
  b.free();
});

/** A child process with its own workspace on `dir`: stages an edit of `line`, commits on "go". */
const CHILD = `
const [url, dir, line] = process.argv.slice(1);
const { NodeFsStorage, Workspace } = await import(url);
const ws = await Workspace.create({ storage: new NodeFsStorage(dir) });
const staged = await ws.call("memo_replace", { old_text: "value " + line + "\\n", new_text: "value " + line + " EDITED\\n" });
if (staged.status !== "Success") { console.log(JSON.stringify({ error: staged.markdown })); process.exit(1); }
console.log("ready");
process.stdin.once("data", async () => {
  const r = await ws.call("memo_commit", { summary: "edit line " + line });
  console.log(JSON.stringify({ status: r.status, markdown: r.markdown }));
  process.exit(0);
});
`;

function startChild(dir, line) {
  const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD, import.meta.resolve("@agentpad/core"), dir, String(line)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const ready = new Promise((resolve, reject) => {
    const check = () => (out.includes("ready\n") ? resolve() : undefined);
    child.stdout.on("data", check);
    child.on("exit", (code) => reject(new Error(`child ${line} exited (${code}) before it was ready: ${out} ${err}`)));
  });
  const done = new Promise((resolve) => child.on("exit", (code) => resolve({ code, out, err })));
  return { child, ready, done };
}

test("two processes on one folder, commits at the same moment: no Success loses its edit (5 trials)", async () => {
  for (let trial = 0; trial < 5; trial++) {
    const dir = await tempDir();
    writeFileSync(join(dir, "notes.md"), TEXT);
    const children = [startChild(dir, 2), startChild(dir, 8)];
    try {
      await within(20_000, "children ready", Promise.all(children.map((c) => c.ready)));
      for (const c of children) c.child.stdin.write("go\n");
      const results = await within(30_000, "children's commits", Promise.all(children.map((c) => c.done)));
      const disk = readFileSync(join(dir, "notes.md"), "utf8");
      let successes = 0;
      for (const [i, { code, out, err }] of results.entries()) {
        assert.equal(code, 0, `child ${i}: ${out} ${err}`);
        const r = JSON.parse(out.trim().split("\n").at(-1));
        const line = i === 0 ? 2 : 8;
        if (r.status === "Success") {
          successes++;
          assert.ok(disk.includes(`value ${line} EDITED\n`), `trial ${trial}: process ${i} said Success but its edit is lost:\n${disk}`);
        } else {
          assert.equal(r.status, "PersistFailure", r.markdown);
        }
      }
      assert.ok(successes >= 1, `trial ${trial}: neither commit went through`);
    } finally {
      for (const c of children) c.child.kill("SIGKILL");
    }
  }
});

test("a crashed save's lock (not refreshed for lockStaleMs) is taken over; a fresh one is waited for", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "notes.md"), TEXT);
  const lock = join(dir, ".notes.md.agentpad-lock");
  // What a process killed while saving leaves: the lock directory, its mtime no longer refreshed.
  mkdirSync(lock);
  const old = new Date(Date.now() - 60_000);
  utimesSync(lock, old, old);
  const storage = new NodeFsStorage(dir, { lockStaleMs: 2000 });
  const loaded = await storage.load("notes.md");
  const saved = await within(10_000, "save past a stale lock", storage.save("notes.md", "after crash\n", loaded.version));
  assert.equal(readFileSync(join(dir, "notes.md"), "utf8"), "after crash\n");
  assert.ok(!existsSync(lock), "the lock is released after the save");
  // A lock held by a live save (refreshed) is waited for, then the version check runs under it.
  mkdirSync(lock);
  const started = Date.now();
  setTimeout(() => {
    writeFileSync(join(dir, "notes.md"), "the other save\n");
    rm(lock, { recursive: true });
  }, 600);
  await assert.rejects(
    within(10_000, "save behind a held lock", storage.save("notes.md", "mine\n", saved.version)),
    /version mismatch/,
  );
  assert.ok(Date.now() - started >= 500, "the save waited for the lock");
  assert.equal(readFileSync(join(dir, "notes.md"), "utf8"), "the other save\n");
});

test("an editor's save while a commit writes its temporary file is not overwritten", async () => {
  const dir = await tempDir();
  const file = join(dir, "notes.md");
  writeFileSync(file, TEXT);
  const ws = await Workspace.create({ storage: new NodeFsStorage(dir) });
  await stage(ws, 5);
  let editorSaved = false;
  // The temporary file appears after the version check and before the rename: the editor's
  // save lands exactly in that window.
  const watcher = watch(dir, (_event, name) => {
    if (editorSaved || !String(name).endsWith(".agentpad-tmp")) return;
    if (readFileSync(file, "utf8") !== TEXT) return; // the commit already renamed: too late to test
    writeFileSync(file, "the editor's text\n");
    editorSaved = true;
  });
  try {
    const r = await within(10_000, "commit", ws.call("memo_commit", { summary: "edit line 5" }));
    assert.ok(editorSaved, "the editor's save did not land inside the commit (the test proves nothing)");
    assert.equal(readFileSync(file, "utf8"), "the editor's text\n", "the editor's save was overwritten");
    assert.equal(r.status, "PersistFailure", r.markdown);
    assert.match(r.markdown, /changed on disk while it was being saved/);
    assert.ok(!readdirSync(dir).some((n) => n.endsWith(".agentpad-tmp")), "the temporary file is removed");
  } finally {
    watcher.close();
    ws.free();
  }
});

test("a symbolic link to a directory outside the root is refused for persist_as, load and save", async () => {
  const root = await tempDir();
  const outside = await tempDir("agentpad-outside-");
  writeFileSync(join(root, "notes.md"), TEXT);
  writeFileSync(join(outside, "secret.md"), "secret\n");
  symlinkSync(outside, join(root, "shared"), "dir");
  const { storage, ws } = await afterFailedCommit(root);
  const r = await within(5000, "persist_as", ws.call("memo_persist_as", { new_path: "shared/x.md" }));
  assert.equal(r.status, "PersistFailure", r.markdown);
  assert.match(r.markdown, /outside the directory/);
  assert.ok(!existsSync(join(outside, "x.md")), "persist_as wrote outside the root");
  await assert.rejects(storage.load("shared/secret.md"), /refused: it resolves through a symbolic link to .*outside the directory/);
  await assert.rejects(Workspace.create({ storage, paths: ["shared/secret.md"] }), /outside the directory/);
  await assert.rejects(storage.save("shared/secret.md", "overwritten\n", ""), /outside the directory/);
  assert.equal(readFileSync(join(outside, "secret.md"), "utf8"), "secret\n");
  // A link to a file inside the root is followed: the file it names is written, the link stays.
  symlinkSync(join(root, "notes.md"), join(root, "alias.md"));
  const alias = await storage.load("alias.md");
  await storage.save("alias.md", "through the link\n", alias.version);
  assert.equal(readFileSync(join(root, "notes.md"), "utf8"), "through the link\n");
  ws.free();
});

test("a named pipe is refused at once by load, save and persist_as (they used to hang)", async (t) => {
  const dir = await tempDir();
  writeFileSync(join(dir, "notes.md"), TEXT);
  const made = spawnSync("mkfifo", [join(dir, "pipe.md")]);
  if (made.status !== 0) {
    t.skip(`mkfifo is not available here: ${made.stderr}`);
    return;
  }
  const { storage, ws } = await afterFailedCommit(dir);
  await assert.rejects(within(3000, "load of a FIFO", storage.load("pipe.md")), /named pipe \(FIFO\), not a regular file/);
  await assert.rejects(within(3000, "save onto a FIFO", storage.save("pipe.md", "x", "")), /named pipe \(FIFO\)/);
  const r = await within(3000, "persist_as onto a FIFO", ws.call("memo_persist_as", { new_path: "pipe.md" }));
  assert.equal(r.status, "PersistFailure", r.markdown);
  assert.match(r.markdown, /named pipe/);
  assert.ok(statSync(join(dir, "pipe.md")).isFIFO(), "the pipe is still there");
  assert.equal((await ws.call("memo_read", {})).status, "Success", "the workspace still answers");
  ws.free();
});

test("a read-only file (0444) is not replaced: PersistFailure names its mode; other modes are kept", async () => {
  const dir = await tempDir();
  const file = join(dir, "notes.md");
  writeFileSync(file, TEXT);
  chmodSync(file, 0o444);
  const ws = await Workspace.create({ storage: new NodeFsStorage(dir) });
  await stage(ws, 4);
  const r = await ws.call("memo_commit", { summary: "edit line 4" });
  assert.equal(r.status, "PersistFailure", r.markdown);
  assert.match(r.markdown, /read-only \(mode 0444/);
  assert.equal(readFileSync(file, "utf8"), TEXT);
  assert.equal(statSync(file).mode & 0o777, 0o444);
  assert.match(ws.draft(), /value 4 EDITED/, "the staged change is kept to commit later");
  chmodSync(file, 0o640);
  const again = await ws.call("memo_commit", { summary: "edit line 4" });
  assert.equal(again.status, "Success", again.markdown);
  assert.equal(statSync(file).mode & 0o777, 0o640, "the replacement keeps the file's mode");
  assert.match(readFileSync(file, "utf8"), /value 4 EDITED/);
  ws.free();
});

test("temporary files of killed saves are removed when a storage opens the folder; nothing else is touched", async () => {
  const dir = await tempDir();
  mkdirSync(join(dir, "docs"));
  writeFileSync(join(dir, "notes.md"), TEXT);
  const leftovers = [".notes.md.4242.0123456789ab.agentpad-tmp", "docs/.intro.md.77.abcdefabcdef.agentpad-tmp", "docs/..env.5.000000000000.agentpad-tmp"];
  const foreign = ["notes.md.agentpad-tmp", ".notes.md.tmp", ".notes.md.4242.xyz.agentpad-tmp", "docs/.intro.md.77.abcdefabcdef.agentpad-tmp.bak"];
  for (const f of [...leftovers, ...foreign]) writeFileSync(join(dir, f), "partial");
  // A save under way holds its target's lock: its temporary file is its own.
  const busy = ".busy.md.99.fedcbafedcba.agentpad-tmp";
  writeFileSync(join(dir, busy), "being written");
  mkdirSync(join(dir, ".busy.md.agentpad-lock"));
  const storage = new NodeFsStorage(dir);
  assert.deepEqual(await storage.list(), [".notes.md.tmp", "docs/.intro.md.77.abcdefabcdef.agentpad-tmp.bak", "notes.md"]);
  for (const f of leftovers) assert.ok(!existsSync(join(dir, f)), `${f} was left`);
  for (const f of foreign) assert.ok(existsSync(join(dir, f)), `${f} is not the storage's and must stay`);
  assert.ok(existsSync(join(dir, busy)), "a temporary file whose save holds the lock must stay");
  assert.equal(readFileSync(join(dir, "notes.md"), "utf8"), TEXT);
});

test("a file over the size limit is refused before it is read, naming the limit", async () => {
  const dir = await tempDir();
  // 600 MB of NUL bytes, sparse: valid UTF-8 that costs no disk.
  const made = spawnSync("truncate", ["-s", String(600 * 1024 * 1024), join(dir, "big.md")]);
  assert.equal(made.status, 0, String(made.stderr));
  const storage = new NodeFsStorage(dir);
  const started = process.memoryUsage().rss;
  await assert.rejects(storage.load("big.md"), (e) => {
    assert.match(e.message, /"big\.md" is 629,145,600 bytes, over the limit of 134,217,728 bytes \(128 MiB\)/);
    assert.doesNotMatch(e.message, /not UTF-8/);
    return true;
  });
  assert.ok(process.memoryUsage().rss - started < 200 * 1024 * 1024, "the file was read into memory");
  await assert.rejects(Workspace.create({ storage }), /big\.md.*over the limit of 134,217,728 bytes/);
});
