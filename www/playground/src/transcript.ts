// The chat transcript an agent loop would hold after the playground's calls, in each shape
// ws.compressHistory() reads (OpenAI chat, OpenAI Responses items, Anthropic, AI SDK), so that
// compression can be shown on it. The page builds the
// messages; what compression removes and saves comes from the core.

import type { HistoryFormat } from "@agentpad/core";
import { isWide } from "./cjk-ranges";

/** One call the transcript holds: the id passed to ws.call, the tool, its arguments, the Markdown the model read. */
export interface TranscriptCall {
  toolCallId: string;
  tool: string;
  args: Record<string, unknown>;
  markdown: string;
}

/** The shapes the core compresses (the package's own type). */
export type { HistoryFormat };

export type OpenAiMessage =
  | { role: "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export type AnthropicBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content: string };

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: string | AnthropicBlock[];
}

/** A Responses API input item: a message, a function call, its output. */
export type ResponsesItem =
  | { role: "user"; content: string }
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; call_id: string; output: string };

/** An AI SDK `ModelMessage` (the parts the loop makes). */
export type AiSdkMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: { type: "tool-call"; toolCallId: string; toolName: string; input: Record<string, unknown> }[] }
  | { role: "tool"; content: { type: "tool-result"; toolCallId: string; toolName: string; output: { type: "text"; value: string } }[] };

export type TranscriptMessage = OpenAiMessage | AnthropicMessage | ResponsesItem | AiSdkMessage;

/**
 * The user's request, then each call as the usual loop has it: an assistant message with the
 * call, answered by its result message (OpenAI: `tool_calls` + a `tool` message; Anthropic: a
 * `tool_use` block + a user message with the `tool_result`; AI SDK: a `tool-call` part + a `tool`
 * message with the `tool-result`), or for Responses the `function_call` and
 * `function_call_output` items.
 */
export function buildTranscript(request: string, calls: readonly TranscriptCall[], format: HistoryFormat): TranscriptMessage[] {
  if (format === "openai-responses") {
    const out: ResponsesItem[] = [{ role: "user", content: request }];
    for (const c of calls) {
      out.push({ type: "function_call", call_id: c.toolCallId, name: c.tool, arguments: JSON.stringify(c.args) });
      out.push({ type: "function_call_output", call_id: c.toolCallId, output: c.markdown });
    }
    return out;
  }
  if (format === "ai-sdk") {
    const out: AiSdkMessage[] = [{ role: "user", content: request }];
    for (const c of calls) {
      out.push({ role: "assistant", content: [{ type: "tool-call", toolCallId: c.toolCallId, toolName: c.tool, input: c.args }] });
      out.push({
        role: "tool",
        content: [{ type: "tool-result", toolCallId: c.toolCallId, toolName: c.tool, output: { type: "text", value: c.markdown } }],
      });
    }
    return out;
  }
  if (format === "openai") {
    const out: OpenAiMessage[] = [{ role: "user", content: request }];
    for (const c of calls) {
      out.push({
        role: "assistant",
        content: null,
        tool_calls: [{ id: c.toolCallId, type: "function", function: { name: c.tool, arguments: JSON.stringify(c.args) } }],
      });
      out.push({ role: "tool", tool_call_id: c.toolCallId, content: c.markdown });
    }
    return out;
  }
  const out: AnthropicMessage[] = [{ role: "user", content: request }];
  for (const c of calls) {
    out.push({ role: "assistant", content: [{ type: "tool_use", id: c.toolCallId, name: c.tool, input: c.args }] });
    out.push({ role: "user", content: [{ type: "tool_result", tool_use_id: c.toolCallId, content: c.markdown }] });
  }
  return out;
}

// The estimate the core uses for tokens_saved (src/history.rs `estimate_tokens`: one token per
// CJK character, one per four other characters, over each message's JSON). The page needs it only
// for the "before" total, so that before and after (= before − the core's tokens_saved) are on
// the core's scale. The CJK tables are rendered from the core's (src/text_rules.rs).

/** Estimated tokens of a text: one per CJK character, one per four other characters (rounded up). */
export function estimateTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    if (isWide(ch.codePointAt(0) ?? 0)) cjk++;
    else other++;
  }
  return cjk + Math.ceil(other / 4);
}

/** Estimated tokens of a transcript: the sum over its messages' JSON. */
export function estimateMessages(messages: readonly unknown[]): number {
  return messages.reduce<number>((sum, m) => sum + estimateTokens(JSON.stringify(m)), 0);
}
