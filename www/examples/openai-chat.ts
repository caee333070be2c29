// An agent loop on OpenAI Chat Completions that edits files through agentpad.
//
//   OPENAI_API_KEY=… npx tsx examples/openai-chat.ts [folder] ["prompt"]
//   (Node ≥ 22.6 can run it as it is: node --experimental-strip-types examples/openai-chat.ts)
//
// Without a folder (argument or AGENTPAD_DIR) it edits a sample file in a temp folder.
// AGENTPAD_GIT=1 with a folder in a git checkout: each commit is also a git commit of the files
// it wrote (docs/workflow.md#git-mode); outside a checkout the storage refuses, saying so.
// What agentpad adds to the usual tool loop:
//   - the live context (the current document, recent diffs, editor state) is rebuilt for every
//     request and attached to the last user message, instead of old snapshots piling up in the chat;
//   - once an edit session is committed or reverted, its tool calls and results collapse into one
//     summary message (`compressHistory`), so a long session does not drag its history along.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { NodeFsStorage, Workspace, type ToolResponse } from "@agentpad/core";

export interface RunOptions {
  /** An OpenAI client (tests pass one whose `fetch` returns canned completions). */
  client: OpenAI;
  workspace: Workspace;
  prompt: string;
  model?: string;
  /** Model requests before giving up. */
  maxTurns?: number;
}

const SYSTEM =
  "You edit the user's files with the memo_* tools: stage edits, then save them with memo_commit(summary). " +
  "The last user message ends with a Live Context block: the files as they are now, newer than anything earlier in the chat.";

/** Runs the loop until the model answers without a tool call; returns that answer. */
export async function run({ client, workspace: ws, prompt, model = "gpt-5", maxTurns = 20 }: RunOptions): Promise<string> {
  let messages: ChatCompletionMessageParam[] = [
    { role: "system", content: SYSTEM },
    { role: "user", content: prompt },
  ];
  for (let turn = 0; turn < maxTurns; turn++) {
    const completion = await client.chat.completions.create({
      model,
      messages: withLiveContext(messages, ws),
      // Which tools are visible depends on the workflow state (memo_replace_selection appears
      // after a MultiMatch, memo_commit once something is staged): ask before every request.
      tools: ws.tools({ format: "openai", strict: true }),
    });
    const message = completion.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content ?? "";
    // runToolCall never throws for the model's mistakes (unknown tool, bad JSON): those are
    // results the model reads. It records the call id, which compressHistory needs.
    // onResponse sees each call's whole Response: `history_delta` is set when a commit or revert
    // ended the edit session.
    let sessionEnded = false;
    const onResponse = (r: ToolResponse) => (sessionEnded ||= r.history_delta !== null);
    for (const call of message.tool_calls) messages.push(await ws.runToolCall(call, { format: "openai", onResponse }));
    // Then the session's calls and results become one "[Edit session #1 committed] Summary: …"
    // message (after all results of this turn: an assistant message's calls stay answered).
    if (sessionEnded) messages = ws.compressHistory(messages, { format: "openai" }).messages;
  }
  throw new Error(`no final answer after ${maxTurns} requests`);
}

/**
 * The request's messages: a copy of the history whose last user message ends with the live
 * context, one text part per section (002). The history itself never keeps a snapshot.
 */
function withLiveContext(messages: ChatCompletionMessageParam[], ws: Workspace): ChatCompletionMessageParam[] {
  const i = messages.findLastIndex((m) => m.role === "user");
  const user = messages[i];
  if (user?.role !== "user") return messages;
  const content = typeof user.content === "string" ? [{ type: "text" as const, text: user.content }] : user.content;
  return messages.with(i, { ...user, content: [...content, ...ws.liveContext().content_parts] });
}

/** A folder with a sample file to edit, when none is given. */
function sampleFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "agentpad-example-"));
  writeFileSync(join(dir, "service.conf"), "# Service\n\ntimeout = 30\nretry_timeout = 30\n");
  return dir;
}

async function main(): Promise<void> {
  if (!process.env.OPENAI_API_KEY) throw new Error("set OPENAI_API_KEY to run this example");
  const dir = process.argv[2] ?? process.env.AGENTPAD_DIR ?? sampleFolder();
  const prompt = process.argv[3] ?? "In service.conf, set retry_timeout to 60 (leave timeout alone) and commit.";
  const ws = await Workspace.create({ storage: new NodeFsStorage(dir, { git: process.env.AGENTPAD_GIT === "1" }) });
  try {
    console.log(await run({ client: new OpenAI(), workspace: ws, prompt }));
    console.log(`\n${dir}/${ws.paths()[0]} now reads:\n${ws.text()}`);
  } finally {
    ws.free();
  }
}

// Only when run directly: tests import `run` and pass a client with a mocked fetch.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
