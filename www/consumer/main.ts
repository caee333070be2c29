// A short agent flow written the way a TypeScript user would, against the installed package:
// compiled by run.sh with `tsc` (strict, no DOM lib) and run on plain Node ESM, no bundler.
import { MemoryStorage, Workspace, memoryBytes, type Candidate, type Response, type Status } from "agentpad";

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
  let r: Response = await ws.call("memo_replace", { old_text: "todo", new_text: "done" }, { toolCallId: "call_1" });
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

  const unknown = await ws.call("memo_nope", {});
  check("unknown tool → InvalidArguments, no throw", unknown.status === "InvalidArguments", unknown.status);
}
check("`using` disposed the workspace at the end of the block", disposed?.freed === true);
let message = "";
try {
  disposed?.text();
} catch (err) {
  message = (err as Error).message;
}
check("use after dispose is a clear error", /freed/.test(message), message);

console.log(`consumer-main: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
