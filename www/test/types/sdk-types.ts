// Type test: the adapters' outputs assigned to the SDKs' own types under
// `tsc --strict` (test/sdk-types.test.mjs runs `tsc -p test/types`). Never executed. The
// functions named readme* are the README's "Use it from TypeScript" snippets, kept compiling here.
import Anthropic from "@anthropic-ai/sdk";
import type { FunctionCall, FunctionDeclaration, GoogleGenAI, Part } from "@google/genai";
import type { CallToolRequest, CallToolResult, Tool as McpSdkTool } from "@modelcontextprotocol/sdk/types.js";
import { generateText, jsonSchema, stepCountIs, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, ChatCompletionTool, ChatCompletionToolMessageParam } from "openai/resources/chat/completions";
import type { FunctionTool, ResponseFunctionToolCall, ResponseInputItem } from "openai/resources/responses/responses";
import {
  MemoryStorage,
  Workspace,
  type AnthropicToolResult,
  type Candidate,
  type Letter,
  type MatchQuality,
  type OpenAIToolResult,
  type RecommendReason,
  type ToolResponse,
} from "@agentpad/core";

declare const ws: Workspace;

// --- tool definitions -------------------------------------------------------------------------
const chatTools: ChatCompletionTool[] = ws.tools({ format: "openai" });
const chatStrict: OpenAI.Chat.Completions.ChatCompletionTool[] = ws.tools({ format: "openai", strict: true });
const responsesTools: FunctionTool[] = ws.tools({ format: "openai-responses" });
const responsesTools2: OpenAI.Responses.Tool[] = ws.tools({ format: "openai-responses", strict: true });
const anthropicTools: Anthropic.Tool[] = ws.tools({ format: "anthropic" });
const anthropicUnion: Anthropic.ToolUnion[] = ws.tools({ format: "anthropic", strict: true });
const mcpTools: McpSdkTool[] = ws.tools({ format: "mcp" });
const geminiTools: FunctionDeclaration[] = ws.tools({ format: "gemini" });
const aiTools: ToolSet = ws.tools({ format: "ai-sdk", jsonSchema });
const aiStrict: ToolSet = ws.tools({ format: "ai-sdk", jsonSchema, strict: true });
void [chatTools, chatStrict, responsesTools, responsesTools2, anthropicTools, anthropicUnion, mcpTools, geminiTools, aiTools, aiStrict];

// The element type follows the format (not a union).
const first = ws.tools({ format: "openai" })[0];
if (first !== undefined) {
  const name: string = first.function.name;
  void name;
}
// @ts-expect-error: an unknown format
ws.tools({ format: "langchain" });
// @ts-expect-error: the AI SDK tools need its jsonSchema function
ws.tools({ format: "ai-sdk" });

// --- tool calls in, tool results out ----------------------------------------------------------
declare const chatCall: ChatCompletionMessageToolCall;
declare const responsesCall: ResponseFunctionToolCall;
declare const toolUse: Anthropic.ToolUseBlock;
declare const geminiCall: FunctionCall;
declare const mcpRequest: CallToolRequest;

export async function results(): Promise<void> {
  const chatResult: ChatCompletionToolMessageParam = await ws.runToolCall(chatCall, { format: "openai" });
  const chatMessage: ChatCompletionMessageParam = await ws.runToolCall(chatCall, { format: "openai" });
  const output: ResponseInputItem.FunctionCallOutput = await ws.runToolCall(responsesCall, { format: "openai-responses" });
  const input: ResponseInputItem = await ws.runToolCall(responsesCall, { format: "openai-responses" });
  const toolResult: Anthropic.ToolResultBlockParam = await ws.runToolCall(toolUse, { format: "anthropic" });
  const block: Anthropic.ContentBlockParam = await ws.runToolCall(toolUse, { format: "anthropic" });
  const part: Part = await ws.runToolCall(geminiCall, { format: "gemini" });
  const mcpResult: CallToolResult = await ws.runToolCall(mcpRequest.params, { format: "mcp" });
  // The "mcp" result is the Markdown only; a host gets the Response from onResponse.
  let structured: ToolResponse | undefined;
  await ws.runToolCall(mcpRequest.params, { format: "mcp", onResponse: (r) => (structured = r) });
  // @ts-expect-error: runToolCall leaves structuredContent out
  const absent: ToolResponse = (await ws.runToolCall(mcpRequest.params, { format: "mcp" })).structuredContent;
  const ours: OpenAIToolResult = await ws.runToolCall(chatCall, { format: "openai" });
  const isError: boolean = (await ws.runToolCall(toolUse, { format: "anthropic" })).is_error;
  void [chatResult, chatMessage, output, input, toolResult, block, part, mcpResult, structured, absent, ours, isError];
  // @ts-expect-error: an Anthropic block is not an OpenAI tool call
  await ws.runToolCall(toolUse, { format: "openai" });
  // @ts-expect-error: the result type follows the format
  const wrong: AnthropicToolResult = await ws.runToolCall(chatCall, { format: "openai" });
  void wrong;
}

// --- history compression keeps each SDK's own message type ---------------------------------------
declare const chatHistory: ChatCompletionMessageParam[];
declare const responsesHistory: ResponseInputItem[];
declare const anthropicHistory: Anthropic.MessageParam[];
declare const aiHistory: ModelMessage[];
const chatCompressed: ChatCompletionMessageParam[] = ws.compressHistory(chatHistory, { format: "openai" }).messages;
const responsesCompressed: ResponseInputItem[] = ws.compressHistory(responsesHistory, { format: "openai-responses" }).messages;
const anthropicCompressed: Anthropic.MessageParam[] = ws.compressHistory(anthropicHistory, { format: "anthropic" }).messages;
const aiCompressed: ModelMessage[] = ws.compressHistory(aiHistory, { format: "ai-sdk" }).messages;
void [chatCompressed, responsesCompressed, anthropicCompressed, aiCompressed];
// @ts-expect-error: not a history format
ws.compressHistory(aiHistory, { format: "gemini" });

// --- README snippets ---------------------------------------------------------------------------
export async function readmeOpenAIChat(): Promise<void> {
  const openai = new OpenAI();
  const ws = await Workspace.create({ storage: new MemoryStorage({ "notes.md": "# Notes\n" }) });
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Add a TODO section." }];
  for (;;) {
    const completion = await openai.chat.completions.create({ model: "gpt-5", messages, tools: ws.tools({ format: "openai", strict: true }) });
    const message = completion.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) break;
    for (const call of message.tool_calls) messages.push(await ws.runToolCall(call, { format: "openai" }));
  }
}

export async function readmeOpenAIResponses(ws: Workspace): Promise<void> {
  const openai = new OpenAI();
  let response = await openai.responses.create({ model: "gpt-5", input: "Add a TODO section.", tools: ws.tools({ format: "openai-responses", strict: true }) });
  for (;;) {
    const calls = response.output.filter((item) => item.type === "function_call");
    if (calls.length === 0) break;
    const outputs: ResponseInputItem[] = [];
    for (const call of calls) outputs.push(await ws.runToolCall(call, { format: "openai-responses" }));
    response = await openai.responses.create({ model: "gpt-5", previous_response_id: response.id, input: outputs, tools: ws.tools({ format: "openai-responses", strict: true }) });
  }
}

export async function readmeAnthropic(ws: Workspace): Promise<void> {
  const anthropic = new Anthropic();
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Add a TODO section." }];
  for (;;) {
    const reply = await anthropic.messages.create({ model: "claude-sonnet-4-6", max_tokens: 4096, messages, tools: ws.tools({ format: "anthropic" }) });
    messages.push({ role: "assistant", content: reply.content });
    const uses = reply.content.filter((block) => block.type === "tool_use");
    if (uses.length === 0) break;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of uses) results.push(await ws.runToolCall(use, { format: "anthropic" }));
    messages.push({ role: "user", content: results });
  }
}

export async function readmeAiSdk(ws: Workspace, model: LanguageModel): Promise<string> {
  const { text } = await generateText({
    model,
    tools: ws.tools({ format: "ai-sdk", jsonSchema }),
    stopWhen: stepCountIs(10),
    prompt: "Add a TODO section.",
  });
  return text;
}

export async function readmeGemini(ws: Workspace, ai: GoogleGenAI): Promise<void> {
  const contents: import("@google/genai").Content[] = [{ role: "user", parts: [{ text: "Add a TODO section." }] }];
  for (;;) {
    const response = await ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents,
      config: { tools: [{ functionDeclarations: ws.tools({ format: "gemini" }) }] },
    });
    const calls = response.functionCalls ?? [];
    if (calls.length === 0) break;
    contents.push(response.candidates![0]!.content!);
    const parts: Part[] = [];
    for (const call of calls) parts.push(await ws.runToolCall(call, { format: "gemini" }));
    contents.push({ role: "user", parts });
  }
}

export async function readmeMcp(ws: Workspace): Promise<void> {
  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
  const server = new Server({ name: "agentpad", version: "0.1.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: ws.tools({ format: "mcp" }) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ws.runToolCall(request.params, { format: "mcp" }));
}

// --- ws.call is typed by tool; the response narrows on status ---------------------------------
// The argument types are generated from the core's tool registry (www/src/generated/tool-args.ts),
// the response types from its Rust types (www/src/generated/boundary.ts).
export async function typedCalls(ws: Workspace): Promise<void> {
  const staged: ToolResponse = await ws.call("memo_replace", { old_text: "a", new_text: "b" });
  await ws.call("memo_read");
  await ws.call("memo_read", { start_line: 1, line_keys: true, view: "committed" });
  await ws.call("memo_preview", { format: "diff", context_lines: 0 });
  await ws.call("memo_commit_auto");
  await ws.call("memo_recall_context", { turn_numbers: [2, 5] }, { toolCallId: "call_1", nowMs: 0 });
  void staged;

  // @ts-expect-error: a misspelt tool
  await ws.call("memo_replac", { old_text: "a", new_text: "b" });
  // @ts-expect-error: a misspelt argument
  await ws.call("memo_replace", { old_txt: "a", new_text: "b" });
  // @ts-expect-error: a required argument left out
  await ws.call("memo_replace", { old_text: "a" });
  // @ts-expect-error: the arguments of a tool with required ones left out
  await ws.call("memo_commit");
  // @ts-expect-error: a wrong argument type
  await ws.call("memo_read", { start_line: "1" });
  // @ts-expect-error: not one of the values the registry allows
  await ws.call("memo_preview", { format: "unified" });
  // @ts-expect-error: match_id is a letter A–Z
  await ws.call("memo_replace", { old_text: "a", new_text: "b", match_id: "b" });
  // @ts-expect-error: a tool without arguments takes none
  await ws.call("memo_commit_auto", { summary: "x" });

  // Names from a model or under another toolPrefix: the untyped path, checked by the core.
  const fromModel: string = "memory_notebook_replace";
  const untyped: ToolResponse = await ws.callUntyped(fromModel, JSON.parse("{}"), { toolCallId: "call_2" });
  void untyped;
  // @ts-expect-error: a name held in a string is not a known tool name
  await ws.call(fromModel, {});

  // Narrowing on status reaches the candidates; a candidate's id is a Letter match_id takes.
  const r = await ws.call("memo_replace", { old_text: "todo", new_text: "done" });
  if (r.status === "MultiMatch") {
    const first: Candidate = r.candidates[0];
    await ws.call("memo_replace", { old_text: "todo", new_text: "done", match_id: first.id });
    await ws.call("memo_replace_selection", { selection_id: first.id });
    const letter: Letter = first.id;
    const matched: number = r.metrics.selection_count;
    const how: MatchQuality = r.match_quality;
    void [letter, matched, how];
  } else {
    // @ts-expect-error: outside MultiMatch a response may list no candidate
    const none: Candidate = r.candidates[0];
    // @ts-expect-error: nor say a selection count
    const count: number = r.metrics.selection_count;
    void [none, count];
  }
  // @ts-expect-error: not a status
  if (r.status === "Ok") return;
  const reason: RecommendReason | null | undefined = r.candidates[0]?.recommended_reason;
  const quality: MatchQuality | null = r.match_quality;
  const flags: string[] = r.flags.names;
  void [reason, quality, flags];
}
