// Plain JavaScript, plain Node ESM, no TypeScript and no bundler: the package resolves through
// its "exports" map ("node" condition) and works.
import { createRequire } from "node:module";
import * as agentpad from "@agentpad/core";

let passed = 0;
let failed = 0;
function check(what, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${what}`);
  } else {
    failed++;
    console.log(`FAIL ${what}${detail === undefined ? "" : `: ${JSON.stringify(detail)}`}`);
  }
}

check("exports Workspace, MemoryStorage, memoryBytes",
  ["Workspace", "MemoryStorage", "memoryBytes"].every((k) => k in agentpad), Object.keys(agentpad));
check("memoryBytes() is 0 before any workspace", agentpad.memoryBytes() === 0, agentpad.memoryBytes());
const resolved = import.meta.resolve("@agentpad/core");
check("resolves to the bundled Node entry dist/agentpad.node.js", resolved.endsWith("/node_modules/@agentpad/core/dist/agentpad.node.js"), resolved);
const pkg = createRequire(import.meta.url)("@agentpad/core/package.json");
check("package.json is exported", pkg.name === "@agentpad/core", pkg.name);

const storage = new agentpad.MemoryStorage({ "a.txt": "one two two\n" });
const ws = await agentpad.Workspace.create({ storage });
const r = await ws.call("memo_replace", { old_text: "one", new_text: "1" });
check("replace stages", r.status === "Success", r.status);
const c = await ws.call("memo_commit", { summary: "numbers" });
check("commit persists", c.status === "Success" && storage.read("a.txt") === "1 two two\n", storage.read("a.txt"));
ws.free();

console.log(`consumer-esm: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
