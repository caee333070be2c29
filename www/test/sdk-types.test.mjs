// Type test of the SDK adapters: test/types/sdk-types.ts assigns
// ws.tools({ format }) and ws.runToolCall(…) to the real SDKs' types (openai, @anthropic-ai/sdk,
// ai, @google/genai, @modelcontextprotocol/sdk) and holds the README's snippets; it must compile
// under `tsc --strict` against the built package's .d.ts. Run: node --test test/sdk-types.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import test from "node:test";

const www = fileURLToPath(new URL("..", import.meta.url));

test("the adapters' outputs type-check as the SDKs' own types (tsc --strict)", () => {
  const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
  const r = spawnSync(process.execPath, [tsc, "-p", "test/types", "--pretty", "false"], { cwd: www, encoding: "utf8" });
  assert.equal(r.status, 0, `tsc -p test/types failed:\n${r.stdout}${r.stderr}`);
});
