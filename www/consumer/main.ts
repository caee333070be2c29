// A short agent flow written the way a TypeScript user would, against the installed package:
// compiled by run.sh with `tsc` (strict, no DOM lib) and run on plain Node ESM, no bundler.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BrowserStorage,
  MemoryStorage,
  NodeFsStorage,
  Workspace,
  memoryBytes,
  validateResponse,
  type Candidate,
  type DiagnosticRecord,
  type MatchQuality,
  type ToolResponse,
  type Status,
  type ToolArgs,
  type WorkspaceOptions,
} from "@agentpad/core";

let passed = 0;
let failed = 0;
function check(what: string, ok: boolean, detail?: unknown): void {
  if (ok) {
    passed++;
    console.log(`ok   ${what}`);
  } else {
    failed++;
    console.log(`FAIL ${what}${detail === undefined ? "" : `: ${JSON.stringify(detail)}`}`);
  }
}

const original = "# Tasks\r\n- write docs: todo\r\n- fix bug: todo\r\n- ship: todo\r\n";
const storage = new MemoryStorage({ "tasks.md": original });

// The types are real (not any): these lines must fail to compile.
// @ts-expect-error: an unknown tool format
const badFormat = (ws: Workspace) => ws.tools({ format: "gemini-ultra" });
void badFormat;
// @ts-expect-error: status is a union of literals
const badStatus: Status = "Fine";
void badStatus;

// Matching's types: match_quality is a typed string on every candidate, the options are numbers.
const quality: MatchQuality = "gutter+indentation";
void quality;
// @ts-expect-error: not a match quality
const badQuality: MatchQuality = "fuzzy";
void badQuality;
const qualityOf = (c: Candidate): string => c.match_quality;
void qualityOf;
// @ts-expect-error: match_quality is a string, not a number
const badQualityType = (c: Candidate): number => c.match_quality;
void badQualityType;
const options: WorkspaceOptions = { storage, nearMatchThreshold: 0.85, maxPreviewLength: 300 };
void options;
// @ts-expect-error: nearMatchThreshold is a number
const badThreshold: WorkspaceOptions = { storage, nearMatchThreshold: "0.85" };
void badThreshold;
// @ts-expect-error: maxPreviewLength is a number
const badPreviewLength: WorkspaceOptions = { storage, maxPreviewLength: true };
void badPreviewLength;
const selectionArgs: ToolArgs["replace_selection"] = { selection_id: 2 };
void selectionArgs;
// @ts-expect-error: selection ids are upper-case letters or numbers
const badSelection: ToolArgs["replace_selection"] = { selection_id: "b" };
void badSelection;

let disposed: Workspace | undefined;
{
  using ws = await Workspace.create({ storage, persistMode: "manual", locale: "en" });
  disposed = ws;
  check("memoryBytes() > 0 after create", memoryBytes() > 0, memoryBytes());

  const tools = ws.tools({ format: "openai" });
  check("openai tools include memo_replace", tools.some((t) => t.function.name === "memo_replace"));
  const anthropic = ws.tools({ format: "anthropic" });
  check("anthropic tools carry input_schema", anthropic.every((t) => typeof t.input_schema === "object"));

  // The model asks to replace "todo": three places match.
  let r: ToolResponse = await ws.call("memo_replace", { old_text: "todo", new_text: "done" }, { toolCallId: "call_1" });
  check("three matches → MultiMatch", r.status === "MultiMatch", r.status);
  const ids = r.candidates.map((c: Candidate) => c.id);
  check("candidates A, B, C", ids.join(",") === "A,B,C", ids);
  const draft = ws.draft();
  check(
    "candidate offsets slice the draft",
    r.candidates.every((c) => draft.slice(c.context_start, c.context_end) === "todo"),
  );
  check("state is SelectionPending", ws.state === "SelectionPending", ws.state);

  // It picks B.
  r = await ws.call("memo_replace", { old_text: "todo", new_text: "done", match_id: "B" }, { toolCallId: "call_2" });
  check("match_id B stages one change", r.status === "Success" && r.pending_changes.length === 1, r.status);
  check("the change is A on line 3", r.pending_changes[0]?.change_id === "A" && r.pending_changes[0]?.line === 3, r.pending_changes);
  check("state is PersistPending", ws.state === "PersistPending", ws.state);
  check("storage untouched before commit", storage.read("tasks.md") === original);

  r = await ws.call("memo_commit", { summary: "bug fixed" }, { toolCallId: "call_3" });
  check("commit succeeds", r.status === "Success", r.summary);
  check("storage has the change, CRLF kept", storage.read("tasks.md") === original.replace("fix bug: todo", "fix bug: done"), storage.read("tasks.md"));
  check("state is Idle", ws.state === "Idle", ws.state);
  check("markdown for the model", typeof r.markdown === "string" && r.markdown.length > 0);

  const unknown = await ws.callUntyped("memo_nope", {});
  check("unknown tool → InvalidArguments, no throw", unknown.status === "InvalidArguments", unknown.status);
}
check("`using` disposed the workspace at the end of the block", disposed?.freed === true);

// Workflow, zh list responses, the validator and diagnostics, as a user of the tarball sees them.
{
  const records: DiagnosticRecord[] = [];
  const storage = new MemoryStorage({ "t.yaml": "a.timeout: 30\nb.timeout: 30\n" });
  const ws = await Workspace.create({ storage, locale: "zh", candidateStyle: "list", diagnostics: { sink: (r) => records.push(r) } });
  const multi = await ws.call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" });
  check("zh list response lists candidates as `- [A] 第 1 行`", multi.markdown.includes("- [A] 第 1 行"), multi.markdown);
  const verdict = await validateResponse(multi.markdown);
  check("validateResponse accepts a real response", verdict.valid && verdict.status === "MultiMatch", verdict.violations);
  check("flags getter shows DiagnosticHint", ws.flags.names.includes("DiagnosticHint"), ws.flags);
  check("a MatchTrace record reached the sink", records.some((r) => r.category === "TextEdit.MatchTrace" && r.status === "MultiMatch"), records);
  await ws.call("memo_replace_selection", { selection_id: "A" });
  storage.write("t.yaml", "a.timeout: 30\nb.timeout: 45\n");
  const conflict = await ws.call("memo_commit", { summary: "s" });
  check("an external write under pending changes → ExternalConflict", conflict.status === "ExternalConflict", conflict.status);
  const rebased = await ws.call("memo_rebase", {});
  check("memo_rebase keeps the change", rebased.status === "Success" && ws.draft() === "a.timeout: 60\nb.timeout: 45\n", ws.draft());
  const done = await ws.call("memo_commit", { summary: "s" });
  check("commit after rebase", done.status === "Success" && ws.version() === "v3", ws.version());
  ws.free();
}

// Fuzzy tiers and near misses, with the new options.
{
  const code = new MemoryStorage({ "net.py": "def connect(host, port):\n\tif port:\n\t\treturn open_socket(host, port)\n" });
  using ws = await Workspace.create({ storage: code, nearMatchThreshold: 0.8, maxPreviewLength: 500 });
  // Spaces where the file has tabs: the indentation tier, new_text re-indented with tabs.
  let r: ToolResponse = await ws.call("memo_replace", {
    old_text: "if port:\n    return open_socket(host, port)",
    new_text: "if port:\n    return open_socket(host, port, timeout=5)",
  });
  check("indentation tier stages with a warning", r.status === "Success" && r.match_quality === "indentation" && r.summary.startsWith("[Warning] "), [r.status, r.match_quality]);
  check("tabs stay tabs", ws.draft().includes("\t\treturn open_socket(host, port, timeout=5)\n"), ws.draft());
  await ws.call("memo_revert", { reason: "try the typo" });

  // A typo: no match at any tier, the close region is candidate A. Picking it applies only the
  // change (old_text → new_text) onto the region's own text, so the typo is not written.
  r = await ws.call("memo_replace", { old_text: "return open_sockt(host, port)", new_text: "return open_sockt(host, port, timeout=5)" });
  const a: Candidate | undefined = r.candidates[0];
  const similar = a?.match_quality ?? "";
  check("near miss → NoMatch with candidate A", r.status === "NoMatch" && a?.id === "A", r.status);
  check("candidate A is similar:0.xx", /^similar:0\.\d\d$/.test(similar), similar);
  check("replace_selection is offered", ws.tools({ format: "openai" }).some((t) => t.function.name === "memo_replace_selection"));
  r = await ws.call("memo_replace_selection", { selection_id: "A" } satisfies ToolArgs["replace_selection"]);
  check("replace_selection stages the merge", r.status === "Success" && r.match_quality === `${similar}+merged`, [r.status, r.match_quality]);
  check("draft has the change on the document's own text", ws.draft().includes("\t\treturn open_socket(host, port, timeout=5)\n"), ws.draft());
}
let rejected = "";
try {
  await Workspace.create({ storage, nearMatchThreshold: 2 });
} catch (err) {
  rejected = (err as Error).message;
}
check("a bad nearMatchThreshold is rejected", /option `nearMatchThreshold` must be a number above 0 and at most 1/.test(rejected), rejected);
let message = "";
try {
  disposed?.text();
} catch (err) {
  message = (err as Error).message;
}
check("use after dispose is a clear error", /freed/.test(message), message);

// NodeFsStorage (Node entry only): a real directory, save + load round trip, content-hash versions.
{
  const dir = await mkdtemp(join(tmpdir(), "agentpad-consumer-fs-"));
  try {
    const files = new NodeFsStorage(dir, { debounceMs: 200 });
    const { version } = await files.save("docs/readme.md", "# Hello\r\n", "");
    check("NodeFsStorage save writes the file", (await readFile(join(dir, "docs/readme.md"), "utf8")) === "# Hello\r\n");
    check("NodeFsStorage versions are content hashes", /^sha256:[0-9a-f]{16}$/.test(version), version);
    const loaded = await files.load("docs/readme.md");
    check("NodeFsStorage load round trip", loaded?.text === "# Hello\r\n" && loaded.version === version, loaded);
    check("NodeFsStorage list", (await files.list()).join() === "docs/readme.md");
    let stale = "";
    await files.save("docs/readme.md", "# Other\n", "sha256:0000000000000000").catch((err: Error) => (stale = err.message));
    check("NodeFsStorage rejects a stale version", /version mismatch/.test(stale), stale);
    const unwatch = files.watch(() => {});
    unwatch();
    files.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
// Both entries export the same names (docs/decisions.md#one-set-of-names-in-every-entry): the
// Node entry's BrowserStorage is the real class, and needs an IndexedDB passed in.
{
  let refused = "";
  await BrowserStorage.open("agentpad").catch((err: Error) => (refused = err.message));
  check("the Node entry's BrowserStorage rejects clearly without an IndexedDB", /IndexedDB is not available here/.test(refused), refused);
}

console.log(`consumer-main: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
