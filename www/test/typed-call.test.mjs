// The typed API at run time, against the BUILT package: what the core really sends has exactly
// the fields the generated types (src/generated/boundary.ts, rendered from the Rust types) say,
// candidate ids are letters match_id takes, and callUntyped runs names under another toolPrefix.
// The compile-time half is test/types/sdk-types.ts (test/sdk-types.test.mjs).
// Run: node --test test/typed-call.test.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { MemoryStorage, Workspace } from "@agentpad/core";

const BOUNDARY = readFileSync(new URL("../src/generated/boundary.ts", import.meta.url), "utf8");

/** The top-level field names of `export type <name> = { … };` in the generated file. */
function fieldsOf(name) {
  const start = BOUNDARY.indexOf(`export type ${name} = {`);
  assert.ok(start >= 0, `boundary.ts declares ${name}`);
  const body = BOUNDARY.slice(start + `export type ${name} = `.length).replace(/\/\*\*[\s\S]*?\*\//g, "");
  const fields = [];
  let depth = 0;
  let token = "";
  for (const ch of body) {
    if (ch === "{" || ch === "[" || ch === "(" || ch === "<") depth++;
    else if (ch === "}" || ch === "]" || ch === ")" || ch === ">") depth--;
    if (depth === 0) break;
    if (depth === 1 && (ch === "," || ch === ";")) {
      token = "";
      continue;
    }
    if (depth === 1 && ch === ":" && !token.includes(":")) fields.push(token.replace(/^[\s{]+/, "").trim());
    token += ch;
  }
  return fields;
}

test("a response has exactly the fields of the generated ResponseData, a candidate those of Candidate", async () => {
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "x = 1\nx = 1\n" }) });
  const r = await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 2" });
  assert.equal(r.status, "MultiMatch");
  const responseFields = fieldsOf("ResponseData");
  assert.ok(responseFields.length > 20 && responseFields.includes("markdown_basic"), responseFields.join(", "));
  assert.deepEqual(Object.keys(r), responseFields);
  assert.deepEqual(Object.keys(r.candidates[0]), fieldsOf("Candidate"));
  const staged = await ws.call("memo_replace", { old_text: "x = 1", new_text: "x = 2", match_id: r.candidates[1].id });
  assert.equal(staged.status, "Success", staged.summary);
  assert.deepEqual(Object.keys(staged.pending_changes[0]), fieldsOf("PendingChange"));
  assert.deepEqual(Object.keys(staged.metrics), fieldsOf("Metrics"));
  ws.free();
});

test("a candidate's id is a letter that match_id and selection_id take", async () => {
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "t\nt\nt\n" }) });
  const r = await ws.call("memo_replace", { old_text: "t", new_text: "u" });
  assert.deepEqual(
    r.candidates.map((c) => c.id),
    ["A", "B", "C"],
  );
  const letters = /export type Letter = ([^;]*);/.exec(BOUNDARY)?.[1] ?? "";
  for (const c of r.candidates) assert.ok(letters.includes(`"${c.id}"`), `${c.id} is a Letter`);
  const chosen = await ws.call("memo_replace_selection", { selection_id: r.candidates[2].id });
  assert.equal(chosen.status, "Success", chosen.summary);
  assert.equal(chosen.pending_changes[0]?.line, 3);
  ws.free();
});

test("callUntyped runs the tools of another toolPrefix; the typed call's memo_ names are unknown there", async () => {
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "x\n" }), toolPrefix: "notes" });
  const name = ["notes", "read"].join("_");
  const read = await ws.callUntyped(name, {}, { toolCallId: "call_1" });
  assert.equal(read.status, "Success", read.summary);
  assert.match(read.content ?? "", /x/);
  const memo = await ws.call("memo_read");
  assert.equal(memo.status, "InvalidArguments");
  assert.match(memo.summary, /unknown tool `memo_read`/);
  ws.free();
});

test("call and callUntyped are one path: the same arguments give the same response", async () => {
  const a = await Workspace.create({ storage: new MemoryStorage({ "a.md": "x = 1\n" }) });
  const b = await Workspace.create({ storage: new MemoryStorage({ "a.md": "x = 1\n" }) });
  const typed = await a.call("memo_replace", { old_text: "x = 1", new_text: "x = 2" }, { nowMs: 1 });
  const untyped = await b.callUntyped("memo_replace", { old_text: "x = 1", new_text: "x = 2" }, { nowMs: 1 });
  assert.deepEqual(typed, untyped);
  await assert.rejects(() => b.callUntyped("memo_read", {}, { nowMs: Number.NaN }), /nowMs/);
  a.free();
  b.free();
});
