// An agent loop on the Vercel AI SDK (`generateText`) that edits files through agentpad.
//
//   AI_GATEWAY_API_KEY=… npx tsx examples/ai-sdk.ts [folder] ["prompt"]   (AI_MODEL, default openai/gpt-5)
//   (Node ≥ 22.6 can run it as it is: node --experimental-strip-types examples/ai-sdk.ts)
//
// Without a folder (argument or AGENTPAD_DIR) it edits a sample file in a temp folder.
// AGENTPAD_GIT=1 with a folder in a git checkout: each commit is also a git commit of the files
// it wrote (docs/workflow.md#git-mode); outside a checkout the storage refuses, saying so.
// What agentpad adds to the usual tool loop:
//   - the live context (the current document, recent diffs, editor state) is rebuilt for every
//     step and attached to the last user message, instead of old snapshots piling up in the chat;
//   - once an edit session is committed or reverted, its tool calls and results collapse into one
//     summary message (`compressHistory`), so a long session does not drag its history along.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generateText, jsonSchema, stepCountIs, type LanguageModel, type ModelMessage } from "ai";
import { NodeFsStorage, Workspace } from "@agentpad/core";

export interface RunOptions {
  /** Any AI SDK model (tests pass a MockLanguageModelV3). */
  model: LanguageModel;
  workspace: Workspace;
  prompt: string;
  /** Model steps before giving up. */
  maxSteps?: number;
}

const SYSTEM =
  "You edit the user's files with the memo_* tools: stage edits, then save them with memo_commit(summary). " +
  "The last user message ends with a Live Context block: the files as they are now, newer than anything earlier in the chat.";

/** Runs the loop until the model answers without a tool call; returns that answer. */
export async function run({ model, workspace: ws, prompt, maxSteps = 20 }: RunOptions): Promise<string> {
  let messages: ModelMessage[] = [{ role: "user", content: prompt }];
  let sessionEnded = false;
  for (let step = 0; step < maxSteps; step++) {
    // One model step per generateText call, because the live context is rebuilt after every tool
    // call. The tool list itself is the same in every workflow state (a call the state does not
    // allow is answered Blocked with what to do instead), so a multi-step generateText with one
    // fixed `tools` works too.
    const result = await generateText({
      model,
      system: SYSTEM,
      messages: withLiveContext(messages, ws),
      // `execute` runs the call and records its id; onResponse sees each call's whole Response:
      // `history_delta` is set when a commit or revert ended the edit session.
      tools: ws.tools({ format: "ai-sdk", jsonSchema, onResponse: (r) => (sessionEnded ||= r.history_delta !== null) }),
      stopWhen: stepCountIs(1),
    });
    messages.push(...result.response.messages);
    if (result.toolCalls.length === 0) return result.text;
    // Then the session's calls and results become one "[Edit session #1 committed] Summary: …"
    // message.
    if (sessionEnded) messages = ws.compressHistory(messages, { format: "ai-sdk" }).messages;
    sessionEnded = false;
  }
  throw new Error(`no final answer after ${maxSteps} steps`);
}

/** A copy of the messages whose last user message ends with the live context, one text part per section (002). */
function withLiveContext(messages: ModelMessage[], ws: Workspace): ModelMessage[] {
  const i = messages.findLastIndex((m) => m.role === "user");
  const user = messages[i];
  if (user?.role !== "user") return messages;
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
  // A model id string goes through the Vercel AI Gateway; any provider's model works the same.
  if (!process.env.AI_GATEWAY_API_KEY) throw new Error("set AI_GATEWAY_API_KEY to run this example (or pass a provider's model to run())");
  const dir = process.argv[2] ?? process.env.AGENTPAD_DIR ?? sampleFolder();
  const prompt = process.argv[3] ?? "In service.conf, set retry_timeout to 60 (leave timeout alone) and commit.";
  const ws = await Workspace.create({ storage: new NodeFsStorage(dir, { git: process.env.AGENTPAD_GIT === "1" }) });
  try {
    console.log(await run({ model: process.env.AI_MODEL ?? "openai/gpt-5", workspace: ws, prompt }));
    console.log(`\n${dir}/${ws.paths()[0]} now reads:\n${ws.text()}`);
  } finally {
    ws.free();
  }
}

// Only when run directly: tests import `run` and pass a MockLanguageModelV3.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
