// agentpad-collab-server as a person first meets it: --help, import a folder of files, serve it
// (one log line per connection and store), export it back, byte for byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { person, waitFor } from "./helpers.mjs";
import { cli, kill, spawnServer } from "./server-process.mjs";

const run = (args) =>
  promisify(execFile)(process.execPath, [cli, ...args], { timeout: 20_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );

test("--help prints the usage; a bad option says what is wrong, without a stack trace", async () => {
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: agentpad-collab-server/);
  assert.match(help.stdout, /import .*--room/);
  assert.equal(help.stderr, "");
  const bad = await run(["--prot", "1"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Unknown option '--prot'/);
  assert.doesNotMatch(bad.stderr, /\n\s+at /, "no stack trace");
});

test("import a folder, serve it (logged), export it back byte for byte", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "agentpad-yjs-cli-"));
  let server;
  const closers = [];
  t.after(async () => {
    for (const c of closers) c();
    await kill(server);
    await rm(dir, { recursive: true, force: true });
  });
  const files = { "notes.md": "# Notes\r\nfirst\r\n", "sub/deep/todo.txt": "\ufeffbuy milk\n", "снимок.md": "текст\n" };
  const from = join(dir, "from");
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(from, path, ".."), { recursive: true });
    await writeFile(join(from, path), text);
  }
  await writeFile(join(from, "image.png"), Buffer.from([0x89, 0x50, 0xff, 0xfe]));
  const docs = join(dir, "docs");
  const imported = await run(["import", "--dir", docs, "--room", "team", from]);
  assert.equal(imported.code, 1, "one file skipped");
  assert.match(imported.stderr, /skipped image\.png: not UTF-8 text/);
  assert.equal(imported.stdout.split("\n").filter((l) => l.startsWith("imported ")).length, 3);

  server = await spawnServer(["--dir", docs, "--debounce", "20"]);
  const p = await person(server.url, "team", "notes.md");
  closers.push(() => p.destroy());
  assert.equal(p.text.toString(), "# Notes\nfirst\n");
  p.type(p.text.length, "second\n");
  await waitFor(() => /stored team\/notes\.md/.test(server.stderr()), "a store line on stderr");
  assert.match(server.stderr(), /connected team\/notes\.md \(socket /);
  const again = await run(["import", "--url", server.url, "--room", "team", from]);
  assert.match(again.stderr, /skipped notes\.md: the room already has it/);
  const txt = (await readdir(docs)).find((f) => f.startsWith("team_notes.md-") && f.endsWith(".txt"));
  assert.equal(await readFile(join(docs, txt), "utf8"), "# Notes\nfirst\nsecond\n", "the plain-text copy follows the stores");

  const out = join(dir, "out");
  const exported = await run(["export", "--dir", docs, "--room", "team", out]);
  assert.equal(exported.code, 0, exported.stderr);
  assert.equal(await readFile(join(out, "notes.md"), "utf8"), "# Notes\r\nfirst\r\nsecond\r\n", "line endings as imported");
  for (const path of ["sub/deep/todo.txt", "снимок.md"]) assert.equal(await readFile(join(out, path), "utf8"), files[path], path);
  const listed = await run(["list", "--dir", docs]);
  assert.deepEqual(listed.stdout.trim().split("\n").sort(), ["team", "team/notes.md", "team/sub/deep/todo.txt", "team/снимок.md"].sort());
});
