// The server module with the SDK's own Client over the SDK's in-memory transport pair.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, ProtocolError } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { NodeFsStorage } from "@agentpad/core";
import { createAgentpadServer } from "../server.js";
import { NOTES, candidateLetters, listChangedWatcher, namesOf, stateOf, statusOf, summaryOf, tempFolder, textOf } from "./helpers.mjs";

/** A server on a fresh temporary folder and a connected client. */
async function connect(options = {}) {
  const folder = tempFolder();
  const notes = [];
  const served = await createAgentpadServer({ dir: folder.dir, log: (line) => notes.push(line), ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await served.server.connect(serverSide);
  const client = new Client({ name: "agentpad-mcp-test", version: "0.0.0" });
  const listChanged = listChangedWatcher(client);
  await client.connect(clientSide);
  const done = async () => {
    await client.close();
    await served.close();
    folder.cleanup();
  };
  return { folder, notes, served, client, listChanged, done };
}

const offered = (ws) => ws.toolStates().filter((t) => t.available).map((t) => t.definition.name).sort();

test("visibleOnly: tools/list is the tools the workflow state offers, each with the core's JSON Schema", async () => {
  const { served, client, done } = await connect({ visibleOnly: true });
  try {
    const list = await client.listTools();
    assert.deepEqual(namesOf(list), offered(served.workspace));
    assert.ok(namesOf(list).includes("memo_replace"));
    assert.ok(!namesOf(list).includes("memo_replace_selection"), "no candidates listed yet");
    const replace = list.tools.find((t) => t.name === "memo_replace");
    const core = served.workspace.tools({ format: "mcp" }).find((t) => t.name === "memo_replace");
    assert.deepEqual(replace.inputSchema, core.inputSchema);
    assert.equal(replace.description, core.description);
    assert.match(client.getInstructions() ?? "", /`docs\/b\.txt`, `notes\.md`/);
  } finally {
    await done();
  }
});

test("documents: every text file opened, a binary one skipped with a note on the log", async () => {
  const { served, notes, done } = await connect();
  try {
    assert.deepEqual(served.paths, ["docs/b.txt", "notes.md"]);
    assert.deepEqual(served.skipped.map((s) => s.path), ["logo.bin"]);
    assert.deepEqual(notes, ["agentpad-mcp: skipped logo.bin: not UTF-8 text"]);
  } finally {
    await done();
  }
});

test("visibleOnly: replace → candidates → select → commit changes the file on disk, the list following the state", async () => {
  const { folder, client, listChanged, done } = await connect({ visibleOnly: true });
  try {
    const file = join(folder.dir, "notes.md");
    let changed = listChanged.next();
    const multi = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "foo", new_text: "bar" } });
    assert.equal(multi.isError, false);
    assert.equal(statusOf(multi), "MultiMatch");
    assert.deepEqual(candidateLetters(multi), ["A", "B", "C"]);
    assert.equal(multi.content[0].type, "text");
    assert.match(multi.content[0].text, /MultiMatch/);
    assert.match(multi.content[0].text, /beta foo/);
    await changed;
    const afterMulti = namesOf(await client.listTools());
    assert.ok(afterMulti.includes("memo_replace_selection"), afterMulti.join(" "));

    changed = listChanged.next();
    const staged = await client.callTool({ name: "memo_replace_selection", arguments: { selection_id: "B" } });
    assert.equal(staged.isError, false, staged.content[0].text);
    assert.equal(statusOf(staged), "Success");
    assert.equal(stateOf(staged), "PersistPending");
    assert.equal(readFileSync(file, "utf8"), NOTES, "nothing written before the commit");
    await changed;
    assert.ok(namesOf(await client.listTools()).includes("memo_commit"));

    changed = listChanged.next();
    const committed = await client.callTool({ name: "memo_commit", arguments: { summary: "foo → bar on the beta line" } });
    assert.equal(committed.isError, false, committed.content[0].text);
    assert.equal(statusOf(committed), "Success");
    assert.equal(readFileSync(file, "utf8"), "# Notes\nalpha foo\nbeta bar\ngamma foo\n");
    await changed;
    assert.ok(!namesOf(await client.listTools()).includes("memo_replace_selection"));
  } finally {
    await done();
  }
});

test("a NoMatch is an isError result whose Markdown says NoMatch", async () => {
  const { client, done } = await connect();
  try {
    const r = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "not in the text", new_text: "x" } });
    assert.equal(r.isError, true);
    assert.equal(statusOf(r), "NoMatch");
    assert.match(r.content[0].text, /NoMatch/);
  } finally {
    await done();
  }
});

test("wrong arguments are agentpad's InvalidArguments (the SDK leaves the check to agentpad)", async () => {
  const { client, done } = await connect();
  try {
    const r = await client.callTool({ name: "memo_replace", arguments: { old_text: 5 } });
    assert.equal(r.isError, true);
    assert.equal(statusOf(r), "InvalidArguments");
    assert.match(summaryOf(r), /old_text/);
  } finally {
    await done();
  }
});

/** Resolves once `check()` is true; rejects after 5 s. */
async function until(check, what) {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("a file added to the folder after the start is served; memo_create makes one on disk at commit", async () => {
  const { folder, notes, served, client, done } = await connect();
  try {
    writeFileSync(join(folder.dir, "docs", "later.md"), "# Later\nadded after start\n");
    await until(() => served.workspace.paths().includes("docs/later.md"), "docs/later.md opened");
    assert.ok(notes.includes("agentpad-mcp: opened docs/later.md (new in the folder)"), notes.join("\n"));
    let r = await client.callTool({ name: "memo_read", arguments: { path: "docs/later.md" } });
    assert.equal(r.isError, false, r.content[0].text);
    assert.match(r.content[0].text, /added after start/);

    r = await client.callTool({ name: "memo_create", arguments: { path: "docs/new.md", text: "# New\n" } });
    assert.equal(statusOf(r), "Success", r.content[0].text);
    assert.ok(!existsSync(join(folder.dir, "docs", "new.md")), "nothing is written before the commit");
    r = await client.callTool({ name: "memo_commit", arguments: { summary: "add docs/new.md" } });
    assert.equal(statusOf(r), "Success", r.content[0].text);
    assert.equal(readFileSync(join(folder.dir, "docs", "new.md"), "utf8"), "# New\n");
    // An existing file is refused, and nothing changes on disk.
    r = await client.callTool({ name: "memo_create", arguments: { path: "notes.md", text: "x" } });
    assert.equal(statusOf(r), "InvalidArguments", r.content[0].text);
    assert.equal(readFileSync(join(folder.dir, "notes.md"), "utf8"), NOTES);
  } finally {
    await done();
  }
});

test("paths outside the folder are refused; nothing is written there", async () => {
  const { folder, client, done } = await connect();
  try {
    for (const path of ["../x", "../notes.md", "/etc/passwd"]) {
      const r = await client.callTool({ name: "memo_read", arguments: { path } });
      assert.equal(r.isError, true, path);
      assert.equal(statusOf(r), "InvalidArguments", path);
    }
    const r = await client.callTool({ name: "memo_replace", arguments: { path: "../x", old_text: "foo", new_text: "bar" } });
    assert.equal(r.isError, true);
    assert.ok(!existsSync(join(folder.root, "x")));
    // The storage itself refuses such paths too (agentpad never asks it for one it has not opened).
    await assert.rejects(new NodeFsStorage(folder.dir).save("../x", "y", ""), /refused/);
  } finally {
    await done();
  }
});

test("visibleOnly: a call of a tool the state does not offer is the SDK's protocol error (-32602 … disabled)", async () => {
  const { client, done } = await connect({ visibleOnly: true });
  try {
    await assert.rejects(
      client.callTool({ name: "memo_replace_selection", arguments: { selection_id: "A" } }),
      (err) => err instanceof ProtocolError && err.code === -32602 && /memo_replace_selection disabled/.test(err.message),
    );
  } finally {
    await done();
  }
});

test("by default every enabled tool is listed in every state; one the state does not offer answers Blocked", async () => {
  const { served, client, done } = await connect();
  try {
    const enabled = served.workspace.tools({ format: "json-schema" }).map((t) => t.name).sort();
    const idle = await client.listTools();
    assert.deepEqual(namesOf(idle), enabled);
    const r = await client.callTool({ name: "memo_replace_selection", arguments: { selection_id: "A" } });
    assert.equal(r.isError, true);
    assert.equal(statusOf(r), "Blocked");
    const multi = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "foo", new_text: "bar" } });
    assert.equal(statusOf(multi), "MultiMatch");
    assert.deepEqual(await client.listTools(), idle, "the listed tools are byte-identical after a state change");
  } finally {
    await done();
  }
});

test("by default a result is the Markdown only: no structuredContent, for any status", async () => {
  const { client, done } = await connect();
  try {
    const multi = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "foo", new_text: "bar" } });
    const staged = await client.callTool({ name: "memo_replace_selection", arguments: { selection_id: "A" } });
    const none = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "absent", new_text: "x" } });
    for (const [r, status] of [[multi, "MultiMatch"], [staged, "Success"], [none, "NoMatch"]]) {
      assert.equal(r.structuredContent, undefined, `${status}: ${JSON.stringify(r.structuredContent)?.slice(0, 80)}`);
      assert.equal(r.content.length, 1);
      assert.ok(textOf(r).startsWith(`status: \`${status}\`\n`), textOf(r));
      assert.equal(r.isError, status === "NoMatch");
    }
  } finally {
    await done();
  }
});

test("structuredContent: true adds the whole Response (status, workflow_state, candidates) beside the Markdown", async () => {
  const { client, done } = await connect({ structuredContent: true });
  try {
    const multi = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "foo", new_text: "bar" } });
    assert.equal(multi.structuredContent.status, "MultiMatch");
    assert.equal(multi.structuredContent.workflow_state, "SelectionPending");
    assert.deepEqual(multi.structuredContent.candidates.map((c) => c.id), ["A", "B", "C"]);
    assert.equal(multi.structuredContent.markdown, textOf(multi), "the text content is the Response's Markdown");
    const staged = await client.callTool({ name: "memo_replace_selection", arguments: { selection_id: "B" } });
    assert.equal(staged.structuredContent.status, "Success");
    assert.equal(staged.structuredContent.workflow_state, "PersistPending");
    assert.deepEqual(staged.structuredContent.candidates, []);
    const none = await client.callTool({ name: "memo_replace", arguments: { path: "notes.md", old_text: "absent", new_text: "x" } });
    assert.equal(none.isError, true);
    assert.equal(none.structuredContent.status, "NoMatch");
  } finally {
    await done();
  }
  await assert.rejects(createAgentpadServer({ dir: "/nonexistent-agentpad-dir", structuredContent: "yes" }), /structuredContent must be a boolean, got "yes"/);
});

test("options reach the workspace: tool prefix, locale; a bad one is refused before the folder is read", async () => {
  const { client, done } = await connect({ toolPrefix: "pad", locale: "zh" });
  try {
    const names = namesOf(await client.listTools());
    assert.ok(names.includes("pad_replace") && !names.includes("memo_replace"));
    const r = await client.callTool({ name: "pad_read", arguments: { path: "notes.md" } });
    assert.equal(statusOf(r), "Success");
  } finally {
    await done();
  }
  await assert.rejects(createAgentpadServer({ dir: "/nonexistent-agentpad-dir", toolPrefix: "a-b" }), /toolPrefix/);
  await assert.rejects(createAgentpadServer({ dir: "/nonexistent-agentpad-dir" }), /does not exist/);
});

test("close() frees the workspace and is idempotent", async () => {
  const { served, done } = await connect();
  await done();
  assert.equal(served.workspace.freed, true);
  await served.close();
});
