// The server's folder (docs/co-editing.md §The server's folder): one file per document name
// whatever the name, legacy files still read, and a store that fails is reported to the clients
// in the document's awareness, retried, and never loses what was acknowledged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Y from "yjs";
import { connectHocuspocusNode, documentBase, legacyDocumentFile, listDocuments, startCollabServer, STORE_STATUS_FIELD } from "@agentpad/yjs/server";
import { person, waitFor } from "./helpers.mjs";

async function scratch(t) {
  const dir = await mkdtemp(join(tmpdir(), "agentpad-yjs-files-"));
  const servers = [];
  const closers = [];
  t.after(async () => {
    for (const c of closers.reverse()) c();
    for (const s of servers) await s.destroy();
    await rm(dir, { recursive: true, force: true });
  });
  const docs = join(dir, "docs");
  const lines = [];
  return {
    docs,
    lines,
    closers,
    async start(options = {}) {
      const s = await startCollabServer({ directory: docs, debounce: 30, log: (l) => lines.push(l), ...options });
      servers.push(s);
      return s;
    },
  };
}

const unacked = (provider) => provider.unsyncedChanges;
/** The store status the server publishes in a document's awareness, as `provider` sees it. */
const storeStatus = (provider) => [...provider.awareness.getStates().values()].find((s) => s[STORE_STATUS_FIELD])?.[STORE_STATUS_FIELD];

test("names that shared a file stay distinct across a restart; a 64-character Cyrillic name stores and reloads", async (t) => {
  const s = await scratch(t);
  let server = await s.start();
  const cyrillic = "Отчёт о работе отдела за третий квартал и планы на следующий год".padEnd(64, "ы");
  assert.equal(cyrillic.length, 64);
  const files = { "planα.md": "alpha's plan\n", "plan;1.md": "semicolon's plan\n", [`${cyrillic}.md`]: "квартальный отчёт\n" };
  let room = await connectHocuspocusNode({ url: server.url, room: "team" });
  for (const [path, text] of Object.entries(files)) await room.storage.save(path, text, "");
  await waitFor(() => [room.indexProvider, ...Object.keys(files).map((p) => room.provider(p))].every((p) => unacked(p) === 0), "every save acknowledged");
  room.destroy();
  await server.destroy();

  server = await s.start();
  room = await connectHocuspocusNode({ url: server.url, room: "team" });
  s.closers.push(() => room.destroy());
  assert.deepEqual((await room.storage.list()).sort(), Object.keys(files).sort());
  for (const [path, text] of Object.entries(files)) assert.equal((await room.storage.load(path))?.text, text, `${path} after the restart`);
  for (const f of await readdir(s.docs)) assert.ok(Buffer.byteLength(f) <= 100, `${f} is short enough for any file system, temp suffix included`);
  assert.deepEqual((await listDocuments(s.docs)).map((d) => d.name).sort(), ["team", ...Object.keys(files).map((p) => `team/${p}`)].sort(), "the full names are recovered from the files");
  assert.equal(await readFile(join(s.docs, `${documentBase(`team/${cyrillic}.md`)}.txt`), "utf8"), "квартальный отчёт\n", "a plain-text copy sits beside the snapshot");
  assert.ok(!s.lines.some((l) => /FAILED/.test(l)), s.lines.join("\n"));
});

test("a file in the legacy encoding is read, then replaced by a snapshot and set aside", async (t) => {
  const s = await scratch(t);
  await mkdir(s.docs, { recursive: true });
  const old = new Y.Doc();
  old.getText("text").insert(0, "written by the previous server\n");
  await writeFile(legacyDocumentFile(s.docs, "team/old notes.md"), Y.encodeStateAsUpdate(old));
  const server = await s.start();
  const p = await person(server.url, "team", "old notes.md");
  s.closers.push(() => p.destroy());
  assert.equal(p.text.toString(), "written by the previous server\n");
  const names = await readdir(s.docs);
  assert.ok(names.includes(`${documentBase("team/old notes.md")}.ydoc`), names.join(", "));
  assert.ok(names.includes("team%2fold%20notes.md.ydoc.migrated"), names.join(", "));
});

test("a store that fails is reported to the clients, retried, and loses nothing", async (t) => {
  const s = await scratch(t);
  let server = await s.start();
  const name = "team/blocked.md";
  const base = documentBase(name);
  // The log's first segment and the text copy cannot be written: directories stand in their way.
  const blockers = [join(s.docs, `${base}.1.ylog`), join(s.docs, `${base}.txt`)];
  for (const b of blockers) await mkdir(join(b, "in-the-way"), { recursive: true });
  const p = await person(server.url, "team", "blocked.md");
  s.closers.push(() => p.destroy());
  const other = await person(server.url, "team", "blocked.md");
  s.closers.push(() => other.destroy());

  p.type(0, "typed while the disk refuses\n");
  // Applied and shown to others at once; not acknowledged, and every client is told why.
  await waitFor(() => other.text.toString() === "typed while the disk refuses\n", "the other person to see the line");
  const failing = await waitFor(() => storeStatus(other.provider), "the store status in awareness");
  assert.equal(failing.document, name);
  assert.equal(failing.failing, "log");
  assert.match(failing.error, /EISDIR|directory/);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(unacked(p.provider), 1, "the update is held, not acknowledged");
  assert.ok(s.lines.some((l) => l.startsWith(`store FAILED ${name}: cannot write its log`)), s.lines.join("\n"));

  await rm(blockers[0], { recursive: true });
  await waitFor(() => unacked(p.provider) === 0, "the retried write to be acknowledged", 10_000);
  // Now the snapshot's text copy fails: reported as such, while updates are acknowledged.
  const snap = await waitFor(() => storeStatus(p.provider)?.failing === "snapshot" && storeStatus(p.provider), "the snapshot failure in awareness", 10_000);
  assert.match(snap.error, /EISDIR|ENOTEMPTY|directory/);
  p.type(0, "acknowledged while snapshots fail\n");
  await waitFor(() => unacked(p.provider) === 0, "an update acknowledged while the snapshot fails");

  await rm(blockers[1], { recursive: true });
  await waitFor(() => storeStatus(p.provider) === undefined, "the status to clear once a retry stores", 10_000);
  assert.ok(s.lines.some((l) => l === `store works again for ${name}`), s.lines.join("\n"));
  p.destroy();
  other.destroy();
  await server.destroy();
  server = await s.start();
  const fresh = await person(server.url, "team", "blocked.md");
  s.closers.push(() => fresh.destroy());
  assert.equal(fresh.text.toString(), "acknowledged while snapshots fail\ntyped while the disk refuses\n");
});

test("a read-only client's write is neither applied nor logged: a restart does not bring it in", async (t) => {
  const s = await scratch(t);
  const authenticate = (token) => (token === "reader" ? "read-only" : undefined);
  let server = await s.start({ authenticate });
  const writer = await person(server.url, "team", "ro.md", { token: "writer" });
  writer.type(0, "written by the writer\n");
  await waitFor(() => unacked(writer.provider) === 0, "the writer's line acknowledged");
  const reader = await person(server.url, "team", "ro.md", { token: "reader" });
  reader.type(0, "typed on a read-only token\n");
  await new Promise((r) => setTimeout(r, 200));
  writer.destroy();
  reader.destroy();
  await server.destroy();
  server = await s.start({ authenticate });
  const fresh = await person(server.url, "team", "ro.md", { token: "writer" });
  s.closers.push(() => fresh.destroy());
  assert.equal(fresh.text.toString(), "written by the writer\n");
});
