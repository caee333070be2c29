// An agent loop on the Anthropic Messages API that edits files through agentpad.
//
//   ANTHROPIC_API_KEY=… npx tsx examples/anthropic.ts [folder] ["prompt"]
//   (Node ≥ 22.6 can run it as it is: node --experimental-strip-types examples/anthropic.ts)
//
// Without a folder (argument or AGENTPAD_DIR) it edits a sample file in a temp folder.
// AGENTPAD_GIT=1 with a folder in a git checkout: each commit is also a git commit of the files
// it wrote (docs/workflow.md#git-mode); outside a checkout the storage refuses, saying so.
// What agentpad adds to the usual tool loop:
//   - the live context (the current document, recent diffs, editor state) is rebuilt for every
//     request and attached to the last user message, instead of old snapshots piling up in the chat;
//   - once an edit session is committed or reverted, its tool_use and tool_result blocks collapse
//     into one summary (`compressHistory`), so a long session does not drag its history along.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { NodeFsStorage, Workspace, type ToolResponse } from "@agentpad/core";

export interface RunOptions {
  /** An Anthropic client (tests pass one whose `fetch` returns canned messages). */
  client: Anthropic;
  workspace: Workspace;
  prompt: string;
  model?: string;
  /** Model requests before giving up. */
  maxTurns?: number;
}

const SYSTEM =
  "You edit the user's files with the memo_* tools: stage edits, then save them with memo_commit(summary). " +
  "The last user message ends with a Live Context block: the files as they are now, newer than anything earlier in the chat.";

/** Runs the loop until the model answers without a tool call; returns that answer's text. */
export async function run({ client, workspace: ws, prompt, model = "claude-sonnet-4-6", maxTurns = 20 }: RunOptions): Promise<string> {
  let messages: Anthropic.MessageParam[] = [{ role: "user", content: prompt }];
  for (let turn = 0; turn < maxTurns; turn++) {
    const reply = await client.messages.create({
      model,
      max_tokens: 4096,
      system: SYSTEM,
      messages: withLiveContext(messages, ws),
      // Which tools are visible depends on the workflow state (memo_replace_selection appears
      // after a MultiMatch, memo_commit once something is staged): ask before every request.
      tools: ws.tools({ format: "anthropic" }),
    });
    messages.push({ role: "assistant", content: reply.content });
    const uses = reply.content.filter((block) => block.type === "tool_use");
    if (uses.length === 0) {
      return reply.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    }
    // runToolCall never throws for the model's mistakes: a NoMatch or bad argument is a
    // tool_result with is_error the model reads. It records the id, which compressHistory needs.
    // onResponse sees each call's whole Response: `history_delta` is set when a commit or revert
    // ended the edit session.
    let sessionEnded = false;
    const onResponse = (r: ToolResponse) => (sessionEnded ||= r.history_delta !== null);
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of uses) results.push(await ws.runToolCall(use, { format: "anthropic", onResponse }));
    messages.push({ role: "user", content: results });
    // Then the session's blocks become one "[Edit session #1 committed] Summary: …" text, turns
    // still alternating.
    if (sessionEnded) messages = ws.compressHistory(messages, { format: "anthropic" }).messages;
  }
  throw new Error(`no final answer after ${maxTurns} requests`);
}

/**
 * The request's messages: a copy of the history whose last user message ends with the live
 * context, one text block per section (002) — after any tool_result blocks, which must come
 * first. The history itself never keeps a snapshot.
 */
function withLiveContext(messages: Anthropic.MessageParam[], ws: Workspace): Anthropic.MessageParam[] {
  const i = messages.findLastIndex((m) => m.role === "user");
  const user = messages[i];
  if (user === undefined) return messages;
  const content = typeof user.content === "string" ? [{ type: "text" as const, text: user.content }] : user.content;
  return messages.with(i, { role: "user", content: [...content, ...ws.liveContext().content_parts] });
}

/** A folder with a sample file to edit, when none is given. */
function sampleFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "agentpad-example-"));
  writeFileSync(join(dir, "service.conf"), "# Service\n\ntimeout = 30\nretry_timeout = 30\n");
  return dir;
}

async function main(): Promise<void> {
  if (!process.env.ANTHROPIC_API_KEY) throw new Error("set ANTHROPIC_API_KEY to run this example");
  const dir = process.argv[2] ?? process.env.AGENTPAD_DIR ?? sampleFolder();
  const prompt = process.argv[3] ?? "In service.conf, set retry_timeout to 60 (leave timeout alone) and commit.";
  const ws = await Workspace.create({ storage: new NodeFsStorage(dir, { git: process.env.AGENTPAD_GIT === "1" }) });
  try {
    console.log(await run({ client: new Anthropic(), workspace: ws, prompt }));
    console.log(`\n${dir}/${ws.paths()[0]} now reads:\n${ws.text()}`);
  } finally {
    ws.free();
  }
}

// Only when run directly: tests import `run` and pass a client with a mocked fetch.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
