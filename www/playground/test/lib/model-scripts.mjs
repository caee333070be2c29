// The scripts the agent pane's tests run their model servers with (test/lib/model-servers.mjs),
// by name: each answers a request body and its index (0: the first request) with a reply.
import { nextMove, openAiAnswer, anthropicAnswer } from "./model-servers.mjs";

const stream = (body) => body?.stream === true;

export const scripts = {
  /** OpenAI-compatible: a 429 with `retry-after: 1` first, then a malformed call, MultiMatch → pick → commit. */
  "openai-429-malformed": (body, i) =>
    i === 0
      ? { status: 429, headers: { "retry-after": "1" }, json: { error: { message: "Rate limit reached for requests" } } }
      : openAiAnswer(nextMove(body.messages, { malformed: true }), { stream: stream(body) }),

  /** Anthropic: begin a task, a malformed call (its input JSON broken off), MultiMatch → pick → commit. */
  "anthropic-task-malformed": (body) => anthropicAnswer(nextMove(body.messages, { task: true, malformed: true }), { stream: stream(body) }),

  /** OpenAI-compatible, the plain flow: MultiMatch → pick → commit. */
  "openai-plain": (body) => openAiAnswer(nextMove(body.messages), { stream: stream(body) }),

  /** OpenAI-compatible: a call to a tool the workspace does not have, then arguments that are a JSON array, then the plain flow. */
  "openai-unknown-tool": (body, i) => {
    if (i === 0) return openAiAnswer({ call: { name: "memo_edit_line", args: { line: 45, text: "  timeout: 60" } } });
    if (i === 1) return openAiAnswer({ call: { name: "memo_replace", args: '["timeout: 30", "timeout: 60"]' } });
    return openAiAnswer(nextMove(body.messages));
  },

  /** A 401 whose message echoes the key the server refused (params.key). */
  "refuse-401": (_body, _i, params) => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${params.key}.` } } }),

  /** A/B: the variant with tool prefix `edit` makes a malformed call first and reports more tokens. */
  "ab-by-prefix": (body) => {
    const isB = body.tools.some((t) => t.function.name === "edit_replace");
    const move = nextMove(body.messages, { prefix: isB ? "edit" : "memo", malformed: isB });
    return openAiAnswer(move, { usage: isB ? { prompt_tokens: 1500, completion_tokens: 25 } : { prompt_tokens: 900, completion_tokens: 15 } });
  },

  /** Anthropic: a 429 with `retry-after: 30` first, then the plain flow. */
  "anthropic-429-long": (body, i) =>
    i === 0
      ? {
          status: 429,
          headers: { "retry-after": "30" },
          json: { type: "error", error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit" } },
        }
      : anthropicAnswer(nextMove(body.messages), { stream: stream(body), usage: { input_tokens: 700, output_tokens: 10 } }),

  /** OpenAI-compatible, streamed: the second answer sends some text, then stalls 5 s before its tool call. */
  "openai-stream-stalls": (body, i) => {
    const answer = openAiAnswer(nextMove(body.messages), { stream: true });
    if (i !== 1) return answer;
    const firstCall = answer.sse.findIndex((e) => e.data?.choices?.[0]?.delta?.tool_calls);
    return { sse: [...answer.sse.slice(0, firstCall), { pause: 5000 }, ...answer.sse.slice(firstCall)] };
  },

  /** A 429 whose `retry-after` is an HTTP date (params.at), as RFC 9110 allows. */
  "rate-limit-date": (_body, _i, params) => ({ status: 429, headers: { "retry-after": params.at }, json: { error: { message: "Slow down" } } }),

  /** Anthropic, streamed: the stream itself reports `overloaded_error` (a 529 that came as a 200). */
  "anthropic-stream-overloaded": () => ({
    sse: [
      { event: "message_start", data: { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: 10, output_tokens: 1 } } } },
      { event: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
    ],
  }),

  /** OpenAI-compatible: the second request hangs 3 s. */
  "openai-slow-second": async (body, i) => {
    if (i === 1) await new Promise((r) => setTimeout(r, 3000));
    return openAiAnswer(nextMove(body.messages));
  },
};
