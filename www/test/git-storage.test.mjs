// NodeFsStorage's git mode (docs/workflow.md#git-mode) on real git repositories in temporary
// folders, through the BUILT package (www/dist) imported by name, with the real `git` program.
// Run: node --test www/test/git-storage.test.mjs   (after tsc -p www and the rolldown step)
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { NodeFsStorage, Workspace, validateResponse } from "@agentpad/core";

const dirs = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), "agentpad-git-"));
  dirs.push(dir);
  return dir;
}

/** Runs git in `dir` and returns its stdout (throws on a non-zero exit). */
const gitIn =
  (dir) =>
  (...args) =>
    execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A repository with `files` committed as "init", an identity of its own and no global hooks. */
async function repo(files) {
  const dir = await tempDir();
  const git = gitIn(dir);
  git("init", "-q", "-b", "main");
  git("config", "user.email", "test@agentpad.invalid");
  git("config", "user.name", "Test");
  git("config", "commit.gpgsign", "false");
  git("config", "core.hooksPath", ".git/hooks");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  return { dir, git };
}

/** Files of commit `rev`, sorted. */
const filesOf = (git, rev = "HEAD") => git("show", "--name-only", "--format=", rev).trim().split("\n").filter(Boolean).sort();

test("each memo_commit becomes one git commit of exactly the files it wrote, the summary as subject and the changes in the body", async () => {
  const { dir, git } = await repo({ "a.md": "one\ntwo\nthree\n", "docs/b.md": "x\n", "c.md": "untouched\n" });
  const storage = new NodeFsStorage(dir, { git: true });
  assert.equal(storage.git, true);
  const ws = await Workspace.create({ storage });
  try {
    assert.equal((await ws.call("memo_begin_task", { goal: "Digits, not words" })).status, "Success");
    assert.equal((await ws.call("memo_replace", { old_text: "two", new_text: "2" })).status, "Success");
    assert.equal((await ws.call("memo_replace", { old_text: "x", new_text: "xy", path: "docs/b.md" })).status, "Success");
    const r = await ws.call("memo_commit", { summary: "Numbers as digits" });
    assert.equal(r.status, "Success", r.markdown);
    const id = git("rev-parse", "HEAD").trim();
    assert.match(r.summary, new RegExp(`Git commit ${id.slice(0, 7)} on main\\.$`));
    assert.match(r.markdown, new RegExp(`- summary: Committed 2 changes .*Git commit ${id.slice(0, 7)} on main\\.\\n`));
    // The one-line view keeps the first sentence; the record is for the detail view.
    assert.match(r.markdown_basic, /^\[OK\] Success · Idle · Committed 2 changes/);
    assert.equal((await validateResponse(r.markdown)).valid, true);

    assert.equal(git("rev-list", "--count", "HEAD").trim(), "2", "one commit, not one per file");
    assert.deepEqual(filesOf(git), ["a.md", "docs/b.md"]);
    assert.equal(git("log", "-1", "--format=%s").trim(), "Numbers as digits");
    assert.equal(
      git("log", "-1", "--format=%b").trim(),
      "A a.md line 2 (-2 chars)\nB docs/b.md line 1 (+1 chars)\n\nTask 1: Digits, not words\nWritten by agentpad (memo_commit): a.md, docs/b.md",
    );
    assert.equal(git("show", "HEAD:a.md"), "one\n2\nthree\n");
    assert.equal(git("status", "--porcelain"), "", "nothing left over");

    // A second commit, of a file memo_create made (untracked until then): its own git commit.
    assert.equal((await ws.call("memo_create", { path: "new/n.md", text: "fresh\n" })).status, "Success");
    assert.match((await ws.call("memo_commit", { summary: "A new note" })).summary, /Git commit/);
    assert.deepEqual(filesOf(git), ["new/n.md"]);
    assert.equal(git("show", "HEAD:new/n.md"), "fresh\n");
    assert.equal(git("rev-list", "--count", "HEAD").trim(), "3");

    // A tool that saves without a summary argument (memo_undo saves at once): its response's summary.
    const undo = await ws.call("memo_undo", { path: "new/n.md" });
    assert.equal(undo.status, "Success", undo.markdown);
    assert.equal(git("rev-list", "--count", "HEAD").trim(), "4");
    assert.equal(git("log", "-1", "--format=%s").trim(), undo.summary.replace(/ Git commit .*$/, ""));
    assert.equal(git("log", "-1", "--format=%b").trim(), "Written by agentpad (memo_undo): new/n.md", "no task, no changes listed");

    // A save that leaves a file as git's last commit has it: no commit, and the response says so.
    writeFileSync(join(dir, "c.md"), "touched by hand\n");
    await ws.call("memo_refresh", { path: "c.md" });
    await ws.call("memo_replace", { old_text: "touched by hand", new_text: "untouched", path: "c.md" });
    const same = await ws.call("memo_commit", { summary: "back as it was" });
    assert.equal(same.status, "Success", same.markdown);
    assert.match(same.summary, /No git commit: git's last commit has the files as they are\.$/);
    assert.equal(git("rev-list", "--count", "HEAD").trim(), "4");
    assert.equal(git("status", "--porcelain"), "");
  } finally {
    ws.free();
    storage.close();
  }
});

test("the user's other changes stay out of the commit, staged or unstaged as they were", async () => {
  const { dir, git } = await repo({ "a.md": "alpha\n", "staged.md": "s0\n", "dirty.md": "d0\n" });
  writeFileSync(join(dir, "staged.md"), "s1 staged\n");
  git("add", "staged.md");
  writeFileSync(join(dir, "staged.md"), "s2 staged, then changed again\n");
  writeFileSync(join(dir, "dirty.md"), "d1 unstaged\n");
  writeFileSync(join(dir, "untracked.md"), "u\n");
  const before = { status: git("status", "--porcelain"), cached: git("diff", "--cached"), worktree: git("diff") };
  assert.equal(before.status, " M dirty.md\nMM staged.md\n?? untracked.md\n");

  const storage = new NodeFsStorage(dir, { git: true });
  const ws = await Workspace.create({ storage, paths: ["a.md"] });
  try {
    await ws.call("memo_replace", { old_text: "alpha", new_text: "beta" });
    const r = await ws.call("memo_commit", { summary: "alpha to beta" });
    assert.equal(r.status, "Success", r.markdown);
    assert.deepEqual(filesOf(git), ["a.md"], "only the file the commit wrote");
    assert.equal(git("status", "--porcelain"), before.status, "the user's changes: same files, same staged/unstaged state");
    assert.equal(git("diff", "--cached"), before.cached, "what the user staged is still staged, unchanged");
    assert.equal(git("diff"), before.worktree);
    assert.equal(readFileSync(join(dir, "staged.md"), "utf8"), "s2 staged, then changed again\n");
  } finally {
    ws.free();
    storage.close();
  }
});

test("a git commit that fails after the save (a pre-commit hook) is reported as that: text saved, no git commit, nothing staged", async () => {
  const { dir, git } = await repo({ "a.md": "alpha\n", "other.md": "o\n" });
  writeFileSync(join(dir, "other.md"), "o staged\n");
  git("add", "other.md");
  const hook = join(dir, ".git", "hooks", "pre-commit");
  writeFileSync(hook, "#!/bin/sh\necho 'lint: trailing words not allowed' >&2\nexit 1\n");
  chmodSync(hook, 0o755);
  const storage = new NodeFsStorage(dir, { git: true });
  const ws = await Workspace.create({ storage, paths: ["a.md"] });
  try {
    await ws.call("memo_replace", { old_text: "alpha", new_text: "beta" });
    const r = await ws.call("memo_commit", { summary: "alpha to beta" });
    assert.equal(r.status, "Success", "the text is saved and kept");
    assert.equal(readFileSync(join(dir, "a.md"), "utf8"), "beta\n");
    assert.equal(ws.text("a.md"), "beta\n");
    assert.match(
      r.summary,
      /^\[Warning\] Committed 1 change .*The files are saved, but not committed to git: git commit failed: lint: trailing words not allowed\.$/,
    );
    assert.match(
      r.guidance,
      /git has no commit of it, and a\.md is not staged\. Tell the user; .*`git add -- a\.md && git commit -- a\.md`/,
    );
    assert.doesNotMatch(r.summary, /Git commit [0-9a-f]/, "no claim of a commit");
    assert.match(r.markdown, /- summary: \[Warning\] Committed .*not committed to git/);
    assert.match(r.markdown, /- guidance: The saved text is kept; git has no commit/);
    assert.match(r.markdown_basic, /^\[Warning\] Success · Idle · Committed 1 change/);
    assert.equal((await validateResponse(r.markdown)).valid, true);
    assert.equal(git("rev-list", "--count", "HEAD").trim(), "1", "no commit was made");
    assert.equal(git("status", "--porcelain"), " M a.md\nM  other.md\n", "a.md unstaged again; the user's staged file still staged");

    // Once the hook lets commits through, the next commit works (and takes a.md's whole text).
    // A new file whose commit fails is untracked again, as it was before the attempt.
    await ws.call("memo_create", { path: "fresh.md", text: "fresh\n" });
    const created = await ws.call("memo_commit", { summary: "a fresh file" });
    assert.match(created.summary, /The files are saved, but not committed to git: git commit failed: lint/);
    assert.match(created.guidance, /fresh\.md is not staged/);
    assert.equal(git("status", "--porcelain"), " M a.md\nM  other.md\n?? fresh.md\n");

    writeFileSync(hook, "#!/bin/sh\nexit 0\n");
    await ws.call("memo_replace", { old_text: "beta", new_text: "gamma" });
    const again = await ws.call("memo_commit", { summary: "beta to gamma" });
    assert.match(again.summary, /Git commit [0-9a-f]{7} on main\.$/, again.markdown);
    assert.deepEqual(filesOf(git), ["a.md"]);
    assert.equal(
      git("status", "--porcelain"),
      "M  other.md\n?? fresh.md\n",
      "fresh.md was saved by a commit git refused: left to the user",
    );
  } finally {
    ws.free();
    storage.close();
  }
});

test("a git commit is bounded in time: a hook that hangs is stopped after gitTimeoutMs, and the response says so", async () => {
  const { dir, git } = await repo({ "a.md": "alpha\n" });
  const hook = join(dir, ".git", "hooks", "pre-commit");
  writeFileSync(hook, "#!/bin/sh\nsleep 60\n");
  chmodSync(hook, 0o755);
  const storage = new NodeFsStorage(dir, { git: true, gitTimeoutMs: 1500 });
  const ws = await Workspace.create({ storage });
  try {
    await ws.call("memo_replace", { old_text: "alpha", new_text: "beta" });
    const started = Date.now();
    const r = await ws.call("memo_commit", { summary: "alpha to beta" });
    assert.ok(Date.now() - started < 15_000, `answered after ${Date.now() - started} ms: the hung hook was not waited for`);
    assert.equal(r.status, "Success");
    assert.equal(readFileSync(join(dir, "a.md"), "utf8"), "beta\n");
    assert.match(
      r.summary,
      /^\[Warning\] .*not committed to git: git commit failed: git did not finish within 1500 ms \(gitTimeoutMs\) and was stopped/,
    );
    assert.equal(git("rev-list", "--count", "HEAD").trim(), "1");
  } finally {
    ws.free();
    storage.close();
  }
});

test("git mode refuses, when the storage is made, a folder that is not a git work tree, and a bad option", async () => {
  const plain = await tempDir();
  writeFileSync(join(plain, "a.md"), "a\n");
  // Not a repository: say so and what to do (GIT_CEILING_DIRECTORIES: the temp folder's parents
  // may be inside some repository on a developer's machine).
  const env = process.env.GIT_CEILING_DIRECTORIES;
  process.env.GIT_CEILING_DIRECTORIES = tmpdir();
  try {
    assert.throws(
      () => new NodeFsStorage(plain, { git: true }),
      /NodeFsStorage: option git: .* is not in a git work tree \(fatal: not a git repository.*\); run `git init` there first, or leave the option out/,
    );
  } finally {
    if (env === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
    else process.env.GIT_CEILING_DIRECTORIES = env;
  }
  // Inside a repository but not a work tree: the .git folder, and a bare repository.
  const { dir } = await repo({ "a.md": "a\n" });
  assert.throws(() => new NodeFsStorage(join(dir, ".git"), { git: true }), /inside a git repository but not in a work tree/);
  const bare = await tempDir();
  gitIn(bare)("init", "-q", "--bare");
  assert.throws(() => new NodeFsStorage(bare, { git: true }), /inside a git repository but not in a work tree/);
  // A folder that does not exist is no work tree either.
  assert.throws(
    () => new NodeFsStorage(join(dir, "missing"), { git: true }),
    /the directory .*missing does not exist, so it is no git work tree/,
  );
  assert.throws(() => new NodeFsStorage(dir, { git: "yes" }), /git must be true or false, got "yes"/);
  assert.throws(() => new NodeFsStorage(dir, { git: true, gitTimeoutMs: 0 }), /gitTimeoutMs must be a whole number/);
  // Without the option nothing is asked of git, and a subfolder of a work tree is fine with it.
  assert.equal(new NodeFsStorage(plain).git, false);
  mkdirSync(join(dir, "sub"));
  writeFileSync(join(dir, "sub", "s.md"), "s\n");
  const sub = new NodeFsStorage(join(dir, "sub"), { git: true });
  const ws = await Workspace.create({ storage: sub });
  try {
    await ws.call("memo_replace", { old_text: "s", new_text: "t" });
    assert.match((await ws.call("memo_commit", { summary: "s to t" })).summary, /Git commit/);
    assert.deepEqual(filesOf(gitIn(dir)), ["sub/s.md"], "paths are the storage's, under the work tree's top");
    const head = gitIn(dir)("rev-parse", "--short", "HEAD").trim();
    assert.equal((await ws.call("memo_read", { version: head })).content, "1│ t\n", "read at a commit by the storage's path too");
  } finally {
    ws.free();
    sub.close();
  }
});

test("memo_read({ version }) reads a file as it was at a git commit, by a short or a long id", async () => {
  const { dir, git } = await repo({ "a.md": "one\ntwo\nthree\n", "b.md": "bee\n" });
  const first = git("rev-parse", "HEAD").trim();
  const storage = new NodeFsStorage(dir, { git: true });
  const ws = await Workspace.create({ storage });
  try {
    await ws.call("memo_replace", { old_text: "two", new_text: "TWO" });
    await ws.call("memo_commit", { summary: "shout two" });
    await ws.call("memo_replace", { old_text: "three", new_text: "3" }); // pending, not committed

    const short = await ws.call("memo_read", { version: first.slice(0, 7) });
    assert.equal(short.status, "Success", short.markdown);
    assert.equal(short.content, "1│ one\n2│ two\n3│ three\n");
    assert.equal(
      short.summary,
      `Read lines 1–3 of a.md at git commit ${first.slice(0, 7)} "init" (3 lines). Read-only: edits apply to the draft.`,
    );
    assert.equal(short.workflow_state, "PersistPending", "the header is the workspace's own state");
    assert.match(short.markdown, /^status: `Success`\nstate: `PersistPending`\nflags: `PersistPending`\n/);
    assert.match(
      short.markdown,
      new RegExp(`\\n- summary: Read lines 1–3 of a\\.md at git commit ${first.slice(0, 7)} "init" \\(3 lines\\)\\.`),
    );
    assert.equal(
      short.markdown_basic,
      `[OK] Success · PersistPending · Read lines 1–3 of a.md at git commit ${first.slice(0, 7)} "init" (3 lines).`,
    );
    assert.equal((await validateResponse(short.markdown)).valid, true);
    assert.equal(short.fingerprint, null, "an old text gives no fingerprint to edit with");
    assert.equal(ws.draft(), "one\nTWO\n3\n", "reading changed nothing");

    const long = await ws.call("memo_read", { version: first, start_line: 2, end_line: 2 });
    assert.equal(long.content, "2│ two\n");
    const head = await ws.call("memo_read", { version: git("rev-parse", "--short", "HEAD").trim(), path: "b.md", line_numbers: false });
    assert.equal(head.content, "bee\n");

    // The core's own versions still work, and bad ids are refused saying why.
    assert.equal((await ws.call("memo_read", { version: "v0" })).content, "1│ one\n2│ two\n3│ three\n");
    const missing = await ws.call("memo_read", { version: "deadbeef" });
    assert.equal(missing.status, "InvalidArguments");
    assert.match(missing.summary, /cannot read version "deadbeef" of a\.md: the repository has no commit deadbeef\. Nothing was changed\./);
    assert.match(
      missing.markdown,
      /\n- summary: Invalid call: cannot read version "deadbeef" of a\.md: the repository has no commit deadbeef\. Nothing was changed\.\n- guidance: Pass a commit id/,
    );
    assert.match(
      missing.markdown_basic,
      /^\[Fail\] InvalidArguments · PersistPending · Invalid call: cannot read version "deadbeef" of a\.md/,
    );
    assert.equal((await validateResponse(missing.markdown)).valid, true);
    writeFileSync(join(dir, "late.md"), "late\n");
    assert.equal(await ws.open("late.md"), true);
    const notThere = await ws.call("memo_read", { version: first.slice(0, 8), path: "late.md" });
    assert.equal(notThere.status, "InvalidArguments");
    assert.match(notThere.summary, /late\.md is not in commit/);
    const withView = await ws.call("memo_read", { version: first.slice(0, 8), view: "draft" });
    assert.equal(withView.status, "InvalidArguments");
    assert.match(withView.guidance, new RegExp(`read version ${first.slice(0, 8)}`));
  } finally {
    ws.free();
    storage.close();
  }
  // Without git mode a commit id is no version: the core says what a version looks like.
  const plain = new NodeFsStorage(dir);
  const ws2 = await Workspace.create({ storage: plain });
  try {
    const r = await ws2.call("memo_read", { version: first.slice(0, 7) });
    assert.equal(r.status, "InvalidArguments");
    assert.match(r.summary, /a version looks like "v3"/);
  } finally {
    ws2.free();
    plain.close();
  }
});

test("in immediate mode every edit is its own git commit; a file .gitignore names is saved and git's refusal said", async () => {
  const { dir, git } = await repo({ "a.md": "one two\n", ".gitignore": "*.log\n" });
  const storage = new NodeFsStorage(dir, { git: true });
  const ws = await Workspace.create({ storage, paths: ["a.md"], persistMode: "immediate" });
  try {
    const first = await ws.call("memo_replace", { old_text: "one", new_text: "1" });
    assert.match(first.summary, /Saved\..* Git commit [0-9a-f]{7} on main\.$/, first.markdown);
    await ws.call("memo_replace", { old_text: "two", new_text: "2" });
    assert.equal(git("rev-list", "--count", "HEAD").trim(), "3");
    assert.deepEqual(filesOf(git, "HEAD~1"), ["a.md"]);
    assert.equal(git("show", "HEAD:a.md"), "1 2\n");

    const created = await ws.call("memo_create", { path: "debug.log", text: "noise\n" });
    assert.equal(created.status, "Success", created.markdown);
    assert.equal(readFileSync(join(dir, "debug.log"), "utf8"), "noise\n", "saved");
    assert.match(
      created.summary,
      /^\[Warning\] .*The files are saved, but not committed to git: git add failed: The following paths are ignored/,
    );
    assert.equal(git("rev-list", "--count", "HEAD").trim(), "3");
    assert.equal(git("status", "--porcelain", "--ignored"), "!! debug.log\n", "still only ignored, not staged");
  } finally {
    ws.free();
    storage.close();
  }
});

test("a commit overtaken by another writer's commit (HEAD moved while it ran) is made again on the new HEAD", async () => {
  const { dir, git } = await repo({ "a.md": "alpha\n" });
  // The first time it runs, the hook commits as someone else would in that instant: git then
  // refuses to move HEAD ("cannot lock ref 'HEAD': is at … but expected …") and commits nothing.
  const hook = join(dir, ".git", "hooks", "pre-commit");
  writeFileSync(
    hook,
    [
      "#!/bin/sh",
      "if [ ! -f .git/moved ]; then",
      "  touch .git/moved",
      "  c=$(git commit-tree -p HEAD -m 'someone else' \"$(git rev-parse 'HEAD^{tree}')\")",
      '  git update-ref HEAD "$c"',
      "fi",
      "",
    ].join("\n"),
  );
  chmodSync(hook, 0o755);
  const storage = new NodeFsStorage(dir, { git: true });
  const ws = await Workspace.create({ storage });
  try {
    await ws.call("memo_replace", { old_text: "alpha", new_text: "beta" });
    const r = await ws.call("memo_commit", { summary: "alpha to beta" });
    assert.match(r.summary, /Git commit [0-9a-f]{7} on main\.$/, r.markdown);
    assert.equal(git("log", "--format=%s").trim(), "alpha to beta\nsomeone else\ninit", "both commits, one after the other");
    assert.equal(git("status", "--porcelain"), "");
  } finally {
    ws.free();
    storage.close();
  }
});

/** A process that opens `dir` in git mode and commits `rounds` edits to `path`, one git commit each. */
function committer(dir, path, rounds) {
  const script = `
    import { NodeFsStorage, Workspace } from "@agentpad/core";
    const storage = new NodeFsStorage(${JSON.stringify(dir)}, { git: true });
    const ws = await Workspace.create({ storage, paths: [${JSON.stringify(path)}] });
    for (let i = 1; i <= ${rounds}; i++) {
      await ws.call("memo_replace", { old_text: "", new_text: "line " + i + "\\n" });
      const r = await ws.call("memo_commit", { summary: ${JSON.stringify(path)} + " round " + i });
      if (!/Git commit [0-9a-f]{7}/.test(r.summary)) { console.error(r.markdown); process.exit(1); }
    }
    ws.free(); storage.close();
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: new URL("..", import.meta.url),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (c) => (err += c));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`committer of ${path} exited ${code}: ${err}`))));
  });
}

test("two processes committing at once leave a consistent history: every commit, each of its own file", async () => {
  const { dir, git } = await repo({ "p.md": "", "q.md": "" });
  const rounds = 6;
  await Promise.all([committer(dir, "p.md", rounds), committer(dir, "q.md", rounds)]);
  assert.equal(git("rev-list", "--count", "HEAD").trim(), String(1 + 2 * rounds));
  const subjects = [];
  for (const rev of git("rev-list", "HEAD~" + 2 * rounds + "..HEAD")
    .trim()
    .split("\n")) {
    const subject = git("log", "-1", "--format=%s", rev).trim();
    subjects.push(subject);
    assert.deepEqual(filesOf(git, rev), [subject.split(" ")[0]], `commit "${subject}" holds its own file only`);
  }
  for (const path of ["p.md", "q.md"]) {
    const own = subjects.filter((s) => s.startsWith(path)).reverse();
    assert.deepEqual(
      own,
      Array.from({ length: rounds }, (_, i) => `${path} round ${i + 1}`),
      "each process's commits, in its order",
    );
  }
  assert.equal(git("status", "--porcelain"), "", "every saved text is committed");
  assert.equal(readFileSync(join(dir, "p.md"), "utf8"), Array.from({ length: rounds }, (_, i) => `line ${i + 1}\n`).join(""));
  git("fsck", "--no-progress");
});

// A storage of the caller's own that keeps a history: what its afterCommit resolves to is data,
// and the core says it, in the workspace's locale; a throw is said as not known, the save kept.
test("afterCommit's result is worded by the core, in the locale; a throw keeps the save and says so", async () => {
  const { MemoryStorage } = await import("@agentpad/core");
  class Recording extends MemoryStorage {
    asked = [];
    answer = { kind: "recorded", id: "1a2b3c4", branch: "trunk" };
    async afterCommit(commit) {
      this.asked.push(commit);
      if (this.answer instanceof Error) throw this.answer;
      return this.answer;
    }
  }
  const storage = new Recording({ "a.md": "alpha\n" });
  const zh = await Workspace.create({ storage, locale: "zh" });
  try {
    await zh.open("a.md");
    await zh.call("memo_replace", { old_text: "alpha", new_text: "beta" });
    const r = await zh.call("memo_commit", { summary: "alpha to beta" });
    assert.equal(r.status, "Success", r.markdown);
    assert.match(r.summary, /已提交到 git：1a2b3c4（分支 trunk）。$/);
    assert.deepEqual(
      storage.asked.map((c) => [c.summary, c.tool, c.paths]),
      [["alpha to beta", "memo_commit", ["a.md"]]],
    );
    assert.equal(storage.asked[0].changes.length, 1, "the change the last response listed");
  } finally {
    zh.free();
  }
  storage.answer = new Error("disk quota");
  const en = await Workspace.create({ storage });
  try {
    await en.open("a.md");
    await en.call("memo_replace", { old_text: "beta", new_text: "gamma" });
    const r = await en.call("memo_commit", { summary: "beta to gamma" });
    assert.equal(r.status, "Success", "the text is saved and kept");
    assert.equal((await storage.load("a.md")).text, "gamma\n");
    assert.match(r.summary, /^\[Warning\] Committed 1 change.* The files are saved; recording the commit failed: disk quota\.$/);
    assert.match(r.guidance, /whether the storage recorded it is unknown/);
    assert.equal((await validateResponse(r.markdown)).valid, true);
  } finally {
    en.free();
  }
});
