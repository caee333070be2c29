// Compiled with tsc --strict in a scratch project that installed the packed tarballs, then run:
// the shipped types and the runtime, as a user's project sees them.
import { Workspace } from "@agentpad/core";
import { YjsStorage, localDocuments, publishAgentState, resolveAgentRanges } from "@agentpad/yjs";
import { connectHocuspocusNode, startCollabServer } from "@agentpad/yjs/server";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let passed = 0;
let failed = 0;
function check(name: string, ok: boolean, detail = ""): void {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAILED: ${name} ${detail}`);
  }
}

const dir = mkdtempSync(join(tmpdir(), "yjs-consumer-"));
const server = await startCollabServer({ directory: dir, debounce: 50 });
try {
  const agent = await connectHocuspocusNode({ url: server.url, room: "c" });
  await agent.storage.save("a.md", "alpha = 1\nbeta = 1\n", "");
  const ws = await Workspace.create({ storage: agent.storage, autoRebase: true });
  const person = await connectHocuspocusNode({ url: server.url, room: "c" });
  const text = await person.storage.text("a.md");
  check("the person sees the seeded text at first sync", text.toString() === "alpha = 1\nbeta = 1\n", JSON.stringify(text.toString()));
  const staged = await ws.call("memo_replace", { old_text: "beta = 1", new_text: "beta = 2" });
  check("memo_replace", staged.status === "Success", staged.summary);
  const ranges = publishAgentState(agent.provider("a.md")!.awareness!, await agent.storage.text("a.md"), staged, {
    path: "a.md",
    committed: ws.text("a.md"),
    draft: ws.draft("a.md"),
  });
  check("the pending change is published", ranges.length === 1);
  text.doc!.transact(() => text.insert(0, "# top\n"), "person");
  await new Promise((r) => setTimeout(r, 200));
  const seen = resolveAgentRanges(person.provider("a.md")!.awareness!, text.doc!);
  check("the person resolves it where it is now", seen.length === 1 && text.toString().slice(seen[0]!.from, seen[0]!.to) === "beta = 1", JSON.stringify(seen));
  const committed = await ws.call("memo_commit", { summary: "beta" });
  check("memo_commit rebased over the person's line", committed.status === "Success" && committed.summary.includes("moved onto it"), committed.summary);
  await new Promise((r) => setTimeout(r, 200));
  check("both edits at the person", text.toString() === "# top\nalpha = 1\nbeta = 2\n", JSON.stringify(text.toString()));
  check("YjsStorage over local docs", (await new YjsStorage(localDocuments()).list()).length === 0);
  ws.free();
  agent.destroy();
  person.destroy();
} finally {
  await server.destroy();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`yjs-consumer: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
