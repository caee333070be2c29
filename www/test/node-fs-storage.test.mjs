// NodeFsStorage on real temporary directories, through the BUILT package (www/dist) imported by
// name like workspace.test.mjs. External changes are made by other processes (`node -e`).
// Run: node --test www/test/node-fs-storage.test.mjs   (after tsc -p www)
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync,
} from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { after, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { NodeFsStorage, Workspace } from "@agentpad/core";

const run = promisify(execFile);
const dirs = [];

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), "agentpad-fs-"));
  dirs.push(dir);
  return dir;
}

after(async () => {
  for (const dir of dirs) {
    // Undo read-only modes so the tree can be removed.
    spawnSync("chmod", ["-R", "u+rwx", dir]);
    await rm(dir, { recursive: true, force: true });
  }
});

function hashOf(content) {
  return `sha256:${createHash("sha256").update(content).digest("hex").slice(0, 16)}`;
}

/** Writes files from ANOTHER process: `node -e` with a list of [relative path, text] pairs. */
function writeFromOtherProcess(dir, files) {
  const code = `const fs = require("node:fs"), path = require("node:path");
for (const [p, t] of JSON.parse(process.argv[1])) fs.writeFileSync(path.join(${JSON.stringify(dir)}, p), t);`;
  const r = spawnSync(process.execPath, ["-e", code, JSON.stringify(files)], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
}

async function waitFor(what, predicate, timeoutMs = 3000) {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("list: every regular file, recursively and sorted, without dot-directories and node_modules", async () => {
  const dir = await tempDir();
  for (const [path, text] of [
    ["b.md", "b"], ["a.md", "a"], ["docs/intro.md", "i"], ["docs/deep/x.txt", "x"], [".env", "E=1"],
    [".git/config", "[core]"], ["node_modules/pkg/index.js", "//"], ["docs/.cache/c.md", "c"],
  ]) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const storage = new NodeFsStorage(dir);
  assert.deepEqual(await storage.list(), [".env", "a.md", "b.md", "docs/deep/x.txt", "docs/intro.md"]);
  const mdOnly = new NodeFsStorage(dir, { extensions: [".md", "txt"] });
  assert.deepEqual(await mdOnly.list(), ["a.md", "b.md", "docs/deep/x.txt", "docs/intro.md"]);
  await assert.rejects(new NodeFsStorage(join(dir, "missing")).list(), /does not exist/);
});

test("load/save round trip: raw text (BOM, CRLF) in, new content hash out, atomic replace, parents created", async () => {
  const dir = await tempDir();
  const raw = "\uFEFFline one\r\nline two\r\n";
  writeFileSync(join(dir, "notes.md"), raw);
  chmodSync(join(dir, "notes.md"), 0o640);
  const storage = new NodeFsStorage(dir);

  const loaded = await storage.load("notes.md");
  assert.equal(loaded.text, raw, "the text is the file's bytes as UTF-8, BOM and CRLF kept");
  assert.equal(loaded.version, hashOf(readFileSync(join(dir, "notes.md"))));
  assert.equal(await storage.load("absent.md"), undefined);

  const inodeBefore = statSync(join(dir, "notes.md")).ino;
  const next = "\uFEFFline one\r\nline 2\r\n";
  const saved = await storage.save("notes.md", next, loaded.version);
  assert.equal(saved.version, hashOf(Buffer.from(next, "utf8")));
  assert.equal(readFileSync(join(dir, "notes.md"), "utf8"), next);
  assert.deepEqual(await storage.load("notes.md"), { text: next, version: saved.version });
  const after = statSync(join(dir, "notes.md"));
  assert.notEqual(after.ino, inodeBefore, "the file was replaced by a rename, not rewritten in place");
  assert.equal(after.mode & 0o777, 0o640, "the permission bits are kept");
  assert.deepEqual(readdirSync(dir), ["notes.md"], "no temporary file is left behind");

  const created = await storage.save("new/deeper/file.txt", "fresh\n", "");
  assert.equal(readFileSync(join(dir, "new/deeper/file.txt"), "utf8"), "fresh\n");
  assert.equal(created.version, hashOf("fresh\n"));
  assert.deepEqual(await storage.list(), ["new/deeper/file.txt", "notes.md"]);
});

test("versions are content hashes: same bytes → same version, an mtime change alone changes nothing", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "a.txt"), "same\n");
  writeFileSync(join(dir, "b.txt"), "same\n");
  writeFileSync(join(dir, "c.txt"), "other\n");
  const storage = new NodeFsStorage(dir);
  const a = (await storage.load("a.txt")).version;
  assert.match(a, /^sha256:[0-9a-f]{16}$/);
  assert.equal(a, hashOf("same\n"));
  assert.equal((await storage.load("b.txt")).version, a, "two files with the same bytes");
  assert.notEqual((await storage.load("c.txt")).version, a);

  const future = new Date(Date.now() + 3_600_000);
  utimesSync(join(dir, "a.txt"), future, future); // touch
  assert.equal((await storage.load("a.txt")).version, a, "touch keeps the version");
  writeFromOtherProcess(dir, [["a.txt", "same\n"]]); // rewrite the same bytes
  assert.equal((await storage.load("a.txt")).version, a, "rewriting the same bytes keeps the version");
  // A save expecting the version still succeeds after the touch: mtimes play no part.
  await storage.save("a.txt", "changed\n", a);
});

test("save with a stale expectedVersion rejects and leaves the file unchanged", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "doc.md"), "v1\n");
  const storage = new NodeFsStorage(dir);
  const { version } = await storage.load("doc.md");
  writeFromOtherProcess(dir, [["doc.md", "edited elsewhere\n"]]);
  await assert.rejects(storage.save("doc.md", "mine\n", version), (err) => {
    assert.match(err.message, /version mismatch for "doc\.md"/);
    assert.match(err.message, /load it again/);
    assert.ok(err.message.includes(version) && err.message.includes(hashOf("edited elsewhere\n")), err.message);
    return true;
  });
  assert.equal(readFileSync(join(dir, "doc.md"), "utf8"), "edited elsewhere\n");

  await assert.rejects(storage.save("doc.md", "mine\n", ""), /expected a new file, but it exists/);
  assert.equal(readFileSync(join(dir, "doc.md"), "utf8"), "edited elsewhere\n");
  await assert.rejects(storage.save("gone.md", "mine\n", version), /does not exist/);
  assert.equal(existsSync(join(dir, "gone.md")), false);
  assert.deepEqual(readdirSync(dir), ["doc.md"], "no temporary file is left behind");
});

test("paths that leave the directory are refused, and nothing is written outside", async () => {
  const parent = await tempDir();
  const dir = join(parent, "root");
  mkdirSync(dir);
  writeFileSync(join(parent, "outside.txt"), "secret\n");
  const storage = new NodeFsStorage(dir);
  for (const path of ["../outside.txt", "a/../../outside.txt", "..", "/etc/passwd", join(parent, "outside.txt"), "a\\..\\..\\x"]) {
    await assert.rejects(storage.load(path), /refused/, `load(${path})`);
    await assert.rejects(storage.save(path, "pwned\n", ""), /refused/, `save(${path})`);
  }
  await assert.rejects(storage.save("../x.md", "pwned\n", ""), (err) => {
    assert.match(err.message, /save\("\.\.\/x\.md"\) refused: "\.\." would leave the directory/);
    return true;
  });
  await assert.rejects(storage.load("./a.md"), /without empty or "\." segments/);
  await assert.rejects(storage.load(""), /non-empty string/);
  assert.equal(readFileSync(join(parent, "outside.txt"), "utf8"), "secret\n");
  assert.deepEqual(readdirSync(parent).sort(), ["outside.txt", "root"]);
  assert.deepEqual(readdirSync(dir), []);
});

test("save into a read-only directory rejects with a message naming the path", async (t) => {
  const dir = await tempDir();
  chmodSync(dir, 0o755);
  const ro = join(dir, "ro");
  mkdirSync(ro);
  writeFileSync(join(ro, "kept.md"), "old\n");
  chmodSync(ro, 0o555);
  // A file where a directory is needed fails for every user, root included.
  writeFileSync(join(dir, "plain"), "file\n");
  const storage = new NodeFsStorage(dir);
  await assert.rejects(storage.save("plain/child.md", "x\n", ""), /cannot save "plain\/child\.md"/);

  let chmodWorks = false;
  try {
    writeFileSync(join(ro, ".probe"), "");
    rmSync(join(ro, ".probe"));
  } catch {
    chmodWorks = true;
  }
  let messages;
  if (chmodWorks) {
    const { version } = await storage.load("ro/kept.md");
    messages = [];
    for (const [path, expected] of [["ro/new.md", ""], ["ro/kept.md", version], ["ro/sub/new.md", ""]]) {
      messages.push(await storage.save(path, "new\n", expected).then(() => "saved", (err) => err.message));
    }
  } else if (process.getuid?.() === 0) {
    // Root ignores mode bits: make the same saves as user "nobody" in another process. It loads
    // a copy of the built module from a world-readable folder: the checkout may sit under a
    // folder "nobody" cannot enter (a fresh clone in a mktemp directory, as CI makes).
    const modDir = await tempDir();
    chmodSync(modDir, 0o755);
    // The whole dist folder: the module imports its siblings (git mode, the built-ins' loader).
    const distDir = fileURLToPath(new URL("../dist/", import.meta.url));
    for (const name of readdirSync(distDir).filter((n) => n.endsWith(".js"))) {
      writeFileSync(join(modDir, name), readFileSync(join(distDir, name)));
    }
    writeFileSync(join(modDir, "package.json"), JSON.stringify({ type: "module" }));
    const copy = join(modDir, "node-fs-storage.js");
    // The module requires proper-lockfile (and its dependencies) beside itself when it saves.
    const requireHere = createRequire(import.meta.url);
    const lockfileDir = dirname(requireHere.resolve("proper-lockfile/package.json"));
    const requireLockfile = createRequire(join(lockfileDir, "index.js"));
    for (const [name, from] of [
      ["proper-lockfile", lockfileDir],
      ["graceful-fs", dirname(requireLockfile.resolve("graceful-fs/package.json"))],
      ["signal-exit", dirname(requireLockfile.resolve("signal-exit/package.json"))],
    ]) {
      cpSync(from, join(modDir, "node_modules", name), { recursive: true });
    }
    spawnSync("chmod", ["-R", "a+rX", modDir]);
    const code = `const { NodeFsStorage } = await import(${JSON.stringify(pathToFileURL(copy).href)});
const storage = new NodeFsStorage(${JSON.stringify(dir)});
const { version } = await storage.load("ro/kept.md");
const out = [];
for (const [path, expected] of [["ro/new.md", ""], ["ro/kept.md", version], ["ro/sub/new.md", ""]]) {
  out.push(await storage.save(path, "new\\n", expected).then(() => "saved", (err) => err.message));
}
console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", uid: 65534, gid: 65534, cwd: tmpdir() });
    if (r.status !== 0 || r.error) {
      t.skip(`running as root, chmod 0o555 does not stop root, and a process as uid 65534 could not run (${r.error?.message ?? r.stderr.trim().split("\n").pop()}): read-only assertion skipped`);
      return;
    }
    messages = JSON.parse(r.stdout.trim().split("\n").pop());
  } else {
    t.skip("chmod 0o555 does not make the directory read-only here (and not root): read-only assertion skipped");
    return;
  }
  assert.match(messages[0], /NodeFsStorage: cannot save "ro\/new\.md" \(.*\): .*(EACCES|permission).*the file is unchanged/);
  assert.match(messages[1], /cannot save "ro\/kept\.md"/);
  assert.match(messages[2], /cannot save "ro\/sub\/new\.md"/);
  chmodSync(ro, 0o755);
  assert.deepEqual(readdirSync(ro), ["kept.md"], "nothing written, no temporary file");
  assert.equal(readFileSync(join(ro, "kept.md"), "utf8"), "old\n");
});

test("load rejects a file that is not UTF-8 text, naming it", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00]));
  const storage = new NodeFsStorage(dir);
  await assert.rejects(storage.load("image.png"), /"image\.png" is not UTF-8 text/);
});

test("watch: a write by another process is reported once with its content hash", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "doc.md"), "one\n");
  const storage = new NodeFsStorage(dir); // default debounce: 200 ms
  await storage.load("doc.md");
  const changes = [];
  const stop = storage.watch((change) => changes.push(change));
  try {
    const started = Date.now();
    writeFromOtherProcess(dir, [["doc.md", "two\n"]]);
    await waitFor("the external write", () => changes.length > 0);
    assert.ok(Date.now() - started >= 150, "reported after the debounce, not at once");
    assert.deepEqual(changes, [{ path: "doc.md", version: hashOf("two\n") }]);
    assert.equal((await storage.load("doc.md")).version, changes[0].version, "the reported version is what load gives");

    writeFromOtherProcess(dir, [["fresh.md", "new file\n"]]);
    await waitFor("the new file", () => changes.some((c) => c.path === "fresh.md"));
    assert.deepEqual(changes.at(-1), { path: "fresh.md", version: hashOf("new file\n") });

    spawnSync(process.execPath, ["-e", `require("node:fs").rmSync(${JSON.stringify(join(dir, "fresh.md"))})`]);
    await waitFor("the removal", () => changes.length === 3);
    assert.deepEqual(changes.at(-1), { path: "fresh.md", version: undefined });
    await sleep(400);
    assert.equal(changes.length, 3, `no further notification: ${JSON.stringify(changes)}`);
  } finally {
    stop();
  }
});

test("watch: several writes within the debounce window give ONE notification (the last content)", async () => {
  const dir = await tempDir();
  mkdirSync(join(dir, "sub"));
  writeFileSync(join(dir, "sub/burst.md"), "0\n");
  const storage = new NodeFsStorage(dir);
  const changes = [];
  const stop = storage.watch((change) => changes.push(change));
  try {
    // Another process writes 5 times, 30 ms apart, while this one's event loop runs.
    const code = `const fs = require("node:fs"); let i = 1;
const t = setInterval(() => { fs.writeFileSync(${JSON.stringify(join(dir, "sub/burst.md"))}, i + "\\n"); if (++i > 5) clearInterval(t); }, 30);`;
    await run(process.execPath, ["-e", code]);
    await waitFor("the burst", () => changes.length > 0);
    await sleep(600);
    assert.deepEqual(changes, [{ path: "sub/burst.md", version: hashOf("5\n") }]);
  } finally {
    stop();
  }
});

test("watch: every atomic replacement (temp file + rename, as editors save) is reported", async () => {
  const dir = await tempDir();
  mkdirSync(join(dir, "sub"));
  writeFileSync(join(dir, "sub/doc.md"), "0\n");
  const storage = new NodeFsStorage(dir, { debounceMs: 50 });
  const changes = [];
  const stop = storage.watch((change) => changes.push(change));
  try {
    for (const n of [1, 2, 3]) {
      const code = `const fs = require("node:fs");
fs.writeFileSync(${JSON.stringify(join(dir, "sub/.doc.md.swp"))}, "${n}\\n");
fs.renameSync(${JSON.stringify(join(dir, "sub/.doc.md.swp"))}, ${JSON.stringify(join(dir, "sub/doc.md"))});`;
      assert.equal(spawnSync(process.execPath, ["-e", code]).status, 0);
      await waitFor(`replacement ${n}`, () => changes.some((c) => c.path === "sub/doc.md" && c.version === hashOf(`${n}\n`)));
    }
    const docChanges = changes.filter((c) => c.path === "sub/doc.md");
    assert.deepEqual(docChanges.map((c) => c.version), [hashOf("1\n"), hashOf("2\n"), hashOf("3\n")]);
  } finally {
    stop();
  }
});

test("watch: files in new and moved-in directories are reported; a removed directory's files are removed", async () => {
  const parent = await tempDir();
  const dir = join(parent, "root");
  mkdirSync(dir);
  mkdirSync(join(parent, "elsewhere/inner"), { recursive: true });
  writeFileSync(join(parent, "elsewhere/inner/moved.md"), "moved\n");
  const storage = new NodeFsStorage(dir, { debounceMs: 50 });
  const changes = [];
  const stop = storage.watch((change) => changes.push(change));
  try {
    writeFromOtherProcess(parent, []); // (warm-up: the child process start is not part of the timing)
    const code = `const fs = require("node:fs");
fs.mkdirSync(${JSON.stringify(join(dir, "new/deeper"))}, { recursive: true });
fs.writeFileSync(${JSON.stringify(join(dir, "new/deeper/a.md"))}, "a\\n");`;
    assert.equal(spawnSync(process.execPath, ["-e", code]).status, 0);
    await waitFor("new/deeper/a.md", () => changes.some((c) => c.path === "new/deeper/a.md"));
    writeFromOtherProcess(dir, [["new/deeper/a.md", "a2\n"]]);
    await waitFor("the second write in the new directory", () => changes.some((c) => c.version === hashOf("a2\n")));

    spawnSync("mv", [join(parent, "elsewhere"), join(dir, "moved-in")]);
    await waitFor("moved-in/inner/moved.md", () => changes.some((c) => c.path === "moved-in/inner/moved.md"));
    assert.deepEqual(changes.find((c) => c.path === "moved-in/inner/moved.md"), { path: "moved-in/inner/moved.md", version: hashOf("moved\n") });

    spawnSync("rm", ["-rf", join(dir, "new")]);
    await waitFor("the removal of new/deeper/a.md", () => changes.some((c) => c.path === "new/deeper/a.md" && c.version === undefined));
  } finally {
    stop();
  }
});

test("watch: our own saves do not echo; unsubscribe and close stop notifications", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "doc.md"), "one\n");
  const storage = new NodeFsStorage(dir, { debounceMs: 50 });
  const changes = [];
  const stop = storage.watch((change) => changes.push(change));
  const { version } = await storage.load("doc.md");
  const saved = await storage.save("doc.md", "two\n", version);
  await storage.save("created/by-us.md", "hi\n", "");
  await sleep(500);
  assert.deepEqual(changes, [], "own saves are not reported");

  // A second storage object on the same directory is "another program" for the first.
  const other = new NodeFsStorage(dir);
  await other.save("doc.md", "three\n", saved.version);
  await waitFor("the other storage's save", () => changes.length === 1);
  assert.deepEqual(changes, [{ path: "doc.md", version: hashOf("three\n") }]);

  stop();
  stop(); // idempotent
  writeFromOtherProcess(dir, [["doc.md", "four\n"]]);
  await sleep(300);
  assert.equal(changes.length, 1, "no notification after unsubscribe");

  const again = [];
  storage.watch((change) => again.push(change));
  storage.close();
  writeFromOtherProcess(dir, [["doc.md", "five\n"]]);
  await sleep(300);
  assert.deepEqual(again, [], "no notification after close()");
});

test("watch: changes under .git and node_modules, and our temporary files, are not reported", async () => {
  const dir = await tempDir();
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, "node_modules/pkg"), { recursive: true });
  const storage = new NodeFsStorage(dir, { debounceMs: 50, extensions: [".md"] });
  const changes = [];
  const stop = storage.watch((change) => changes.push(change));
  try {
    writeFromOtherProcess(dir, [[".git/index", "x"], ["node_modules/pkg/a.md", "y"], ["build.log", "z"], ["real.md", "r\n"]]);
    await waitFor("real.md", () => changes.length > 0);
    await sleep(300);
    assert.deepEqual(changes, [{ path: "real.md", version: hashOf("r\n") }], "only the listed file (extensions: .md)");
  } finally {
    stop();
  }
});

test("watch: a listener that throws does not break the watcher or other listeners", async () => {
  const dir = await tempDir();
  const errors = [];
  const storage = new NodeFsStorage(dir, { debounceMs: 50, onError: (err) => errors.push(err.message) });
  const changes = [];
  const stopBad = storage.watch(() => {
    throw new Error("listener bug");
  });
  const stopGood = storage.watch((change) => changes.push(change));
  try {
    writeFromOtherProcess(dir, [["a.md", "1\n"]]);
    await waitFor("the first change", () => changes.length === 1);
    writeFromOtherProcess(dir, [["a.md", "2\n"]]);
    await waitFor("the second change", () => changes.length === 2);
    assert.deepEqual(errors, ["listener bug", "listener bug"]);
  } finally {
    stopBad();
    stopGood();
  }
  assert.throws(() => new NodeFsStorage(join(dir, "missing")).watch(() => {}), /cannot watch .*missing/);
});

test("a Workspace on NodeFsStorage commits to the file", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "tasks.md"), "- a: todo\r\n- b: todo\r\n");
  const storage = new NodeFsStorage(dir);
  const ws = await Workspace.create({ storage });
  try {
    assert.deepEqual(ws.paths(), ["tasks.md"]);
    const listed = await ws.call("memo_replace", { old_text: "todo", new_text: "done" });
    assert.equal(listed.status, "MultiMatch", listed.summary);
    const r = await ws.call("memo_replace", { old_text: "todo", new_text: "done", match_id: "B" });
    assert.equal(r.status, "Success", r.summary);
    const c = await ws.call("memo_commit", { summary: "b done" });
    assert.equal(c.status, "Success", c.summary);
    assert.equal(readFileSync(join(dir, "tasks.md"), "utf8"), "- a: todo\r\n- b: done\r\n");
  } finally {
    ws.free();
  }
});

test("Workspace on NodeFsStorage: another process writes the file while changes are pending → ExternalConflict, rebase, commit", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "server.toml"), "[http]\nport = 80\n\n[db]\npool = 4\n");
  const storage = new NodeFsStorage(dir, { debounceMs: 50 });
  const ws = await Workspace.create({ storage });
  const seen = [];
  const stop = storage.watch((change) => seen.push(change));
  try {
    const staged = await ws.call("memo_replace", { old_text: "port = 80", new_text: "port = 8080" });
    assert.equal(staged.workflow_state, "PersistPending");
    writeFromOtherProcess(dir, [["server.toml", "[http]\nport = 80\n\n[db]\npool = 16\n"]]);
    await waitFor("the watcher to report the external write", () => seen.some((c) => c.path === "server.toml"));
    const blocked = await ws.call("memo_commit", { summary: "port 8080" });
    assert.deepEqual([blocked.status, blocked.workflow_state], ["ExternalConflict", "OutOfSync"], blocked.markdown);
    assert.equal(readFileSync(join(dir, "server.toml"), "utf8"), "[http]\nport = 80\n\n[db]\npool = 16\n", "never overwritten");
    const diff = await ws.call("memo_diff", { against: "storage" });
    assert.match(diff.preview, /-pool = 16\n\+pool = 4/);
    const rebased = await ws.call("memo_rebase", {});
    assert.equal(rebased.status, "Success", rebased.markdown);
    const done = await ws.call("memo_commit", { summary: "port 8080" });
    assert.equal(done.status, "Success", done.markdown);
    assert.equal(readFileSync(join(dir, "server.toml"), "utf8"), "[http]\nport = 8080\n\n[db]\npool = 16\n");
    // our own save is not mistaken for an external change
    await sleep(200);
    const after = await ws.call("memo_read", {});
    assert.doesNotMatch(after.summary, /changed in storage/);
    assert.equal(after.workflow_state, "Idle");
  } finally {
    stop();
    ws.free();
  }
});
