// One folder, two languages: the package's NodeFsStorage and the Rust crate's FsStorage (run as
// the native example `fs_appender`, built by the cargo layer of ./build.sh test) take the same
// save lock and write the same versions (docs/reliability.md#locks), so neither loses the
// other's update. Run: node --test www/test/fs-interop.test.mjs   (after ./build.sh pack)
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { NodeFsStorage } from "@agentpad/core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const targetDir = process.env.CARGO_TARGET_DIR ? resolve(root, process.env.CARGO_TARGET_DIR) : join(root, "target");
const appender = join(targetDir, "debug", "examples", "fs_appender");
// The lock library the package itself uses, resolved from the package's own dependencies.
const lockfile = createRequire(join(root, "www", "package.json"))("proper-lockfile");
const dirs = [];

before(() => {
  if (existsSync(appender)) return;
  // Normally built by `cargo test` (it builds the examples); alone, build it here.
  const built = spawnSync("cargo", ["build", "--example", "fs_appender"], { cwd: root, stdio: "inherit", timeout: 15 * 60_000 });
  assert.equal(built.status, 0, "cargo build --example fs_appender");
});

after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), "agentpad-interop-"));
  dirs.push(dir);
  return dir;
}

/** Runs the native appender; resolves to its stdout (the file's last version) or rejects with its stderr. */
function runAppender(dir, path, tag, count) {
  return new Promise((resolve, reject) => {
    const child = spawn(appender, [dir, path, tag, String(count)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out.trim());
      else reject(new Error(`fs_appender exited ${code}: ${err}`));
    });
  });
}

/** Appends `<tag> i` lines through NodeFsStorage, re-reading after a version mismatch. */
async function appendFromNode(storage, path, tag, count) {
  for (let i = 0; i < count; i++) {
    for (;;) {
      const stored = await storage.load(path);
      try {
        await storage.save(path, `${stored?.text ?? ""}${tag} ${i}\n`, stored?.version ?? "");
        break;
      } catch (err) {
        if (!/version mismatch|changed on disk/i.test(String(err?.message))) throw err;
      }
    }
  }
}

test("a Rust writer waits for the lock a Node save holds and then sees the Node text instead of overwriting it", async () => {
  const dir = await tempDir();
  const target = join(dir, "a.md");
  writeFileSync(target, "start\n");
  // Held the way NodeFsStorage holds it while it saves.
  const release = await lockfile.lock(target, { realpath: false, lockfilePath: join(dir, ".a.md.agentpad-lock"), stale: 10_000 });
  const rust = runAppender(dir, "a.md", "rust", 1);
  await new Promise((r) => setTimeout(r, 700));
  // The Node save, under its lock, writes after the Rust process has read "start\n".
  writeFileSync(target, "start\nnode\n");
  await release();
  await rust;
  // Without the shared lock the Rust save would have gone through at once and the Node text
  // would have replaced it: "start\nnode\n".
  assert.equal(readFileSync(target, "utf8"), "start\nnode\nrust 0\n");
});

test("a Node process and a Rust process appending to one file at the same time lose nothing and agree on its version", async () => {
  const dir = await tempDir();
  writeFileSync(join(dir, "log.md"), "");
  const storage = new NodeFsStorage(dir);
  try {
    const [rustVersion] = await Promise.all([runAppender(dir, "log.md", "rust", 30), appendFromNode(storage, "log.md", "node", 30)]);
    const lines = readFileSync(join(dir, "log.md"), "utf8").split("\n").filter(Boolean);
    assert.equal(lines.length, 60, lines.join("\n"));
    for (const tag of ["rust", "node"]) {
      const own = lines.filter((l) => l.startsWith(`${tag} `));
      assert.deepEqual(own, Array.from({ length: 30 }, (_, i) => `${tag} ${i}`), `${tag}'s lines, in order`);
    }
    const stored = await storage.load("log.md");
    assert.match(stored.version, /^sha256:[0-9a-f]{16}$/);
    if (lines.at(-1).startsWith("rust ")) assert.equal(rustVersion, stored.version, "the version of the same bytes, from either side");
    // The same bytes read by each side give one version string, whoever wrote last.
    const again = await runAppender(dir, "log.md", "rust", 0);
    assert.equal(again, stored.version);
  } finally {
    storage.close();
  }
});
