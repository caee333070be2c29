// The model side of the agent pane: one request to an OpenAI-compatible chat endpoint
// (`POST {base}/chat/completions`: OpenAI, Ollama, LM Studio, a llama.cpp server, vLLM …) or to
// Anthropic's Messages API (`POST {base}/v1/messages`), by plain fetch, streamed (server-sent
// events, parsed here) or not. What comes back is the assistant message in the provider's own
// shape — the shape the package's `runToolCall` and `compressHistory` read — plus the usage the
// provider reports. Failures become a ProviderError a person can act on
// (docs/playground-agent.md#errors). The key is only ever put in a request header.

export type ProviderKind = "openai" | "anthropic";

export interface ProviderConfig {
  kind: ProviderKind;
  /** OpenAI-compatible: up to `/v1` (`http://127.0.0.1:11434/v1`); Anthropic: the origin (`https://api.anthropic.com`). */
  baseUrl: string;
  model: string;
  /** From sessionStorage; empty for a local server that needs none. */
  key: string;
  stream: boolean;
  maxTokens: number;
}

export interface Usage {
  input: number;
  output: number;
}

/** An OpenAI chat tool call as the model sent it (`arguments` is a string, maybe not JSON). */
export interface OpenAiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface OpenAiAssistant {
  role: "assistant";
  content: string | null;
  tool_calls?: OpenAiToolCall[];
}

export type AnthropicBlock = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };

export interface AnthropicAssistant {
  role: "assistant";
  content: AnthropicBlock[];
}

export interface Reply {
  /** The assistant message, ready to push onto the history. */
  message: OpenAiAssistant | AnthropicAssistant;
  text: string;
  /** The tool calls in the shape `ws.runToolCall(call, { format })` takes. */
  calls: (OpenAiToolCall | Extract<AnthropicBlock, { type: "tool_use" }>)[];
  /** As the provider reports it; null when it reports none (some local servers, a stream without usage). */
  usage: Usage | null;
}

export type ErrorKind = "auth" | "rate-limit" | "network" | "http" | "protocol" | "aborted";

/** A failed request, with what a person should do about it. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly status: number | null = null,
    /** Seconds to wait (a 429's or 529's `retry-after`), when the server said. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export interface RequestBody {
  system: string;
  /** The history with the live context already attached to its last user message. */
  messages: unknown[];
  tools: unknown[];
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

export function endpoint(c: Pick<ProviderConfig, "kind" | "baseUrl">): string {
  const base = trimSlash(c.baseUrl.trim());
  return c.kind === "anthropic" ? `${base}/v1/messages` : `${base}/chat/completions`;
}

function headers(c: ProviderConfig): Record<string, string> {
  const h: Record<string, string> = { "content-type": "application/json" };
  if (c.kind === "anthropic") {
    h["anthropic-version"] = "2023-06-01";
    // Anthropic answers a browser's CORS preflight only with this header.
    h["anthropic-dangerous-direct-browser-access"] = "true";
    if (c.key) h["x-api-key"] = c.key;
  } else if (c.key) {
    h.authorization = `Bearer ${c.key}`;
  }
  return h;
}

function body(c: ProviderConfig, b: RequestBody): string {
  if (c.kind === "anthropic") {
    return JSON.stringify({
      model: c.model,
      max_tokens: c.maxTokens,
      system: b.system,
      messages: b.messages,
      tools: b.tools,
      ...(c.stream ? { stream: true } : {}),
    });
  }
  return JSON.stringify({
    model: c.model,
    messages: [{ role: "system", content: b.system }, ...b.messages],
    tools: b.tools,
    ...(c.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/** `retry-after`: seconds, or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  const s = Number(value);
  if (Number.isFinite(s)) return s >= 0 ? s : null;
  // Only a date from here: Date.parse would read "-3" as the year -3.
  if (!/[a-z]/i.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The error text the server put in its body (OpenAI and Anthropic: `{ error: { message } }`). */
function serverMessage(text: string): string {
  try {
    const v = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof v.error === "string") return v.error;
    if (v.error && typeof v.error.message === "string") return v.error.message;
    if (typeof v.message === "string") return v.message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 300);
}

async function httpError(c: ProviderConfig, res: Response): Promise<ProviderError> {
  // A server may echo the key it refused: it is cut out before anything shows it.
  let said = serverMessage(await res.text().catch(() => ""));
  if (c.key) said = said.split(c.key).join("[key]");
  const where = endpoint(c);
  if (res.status === 401 || res.status === 403) {
    const what = c.key ? "refused the key" : "wants a key and none is set";
    return new ProviderError(
      "auth",
      `${res.status} from ${where}: the server ${what}. Paste the key for this provider (it stays in this tab's sessionStorage). Server said: ${said}`,
      res.status,
    );
  }
  if (res.status === 429 || res.status === 529) {
    const after = parseRetryAfter(res.headers.get("retry-after"));
    return new ProviderError(
      "rate-limit",
      `${res.status} from ${where}: rate limited or overloaded. Server said: ${said.replace(/\.?$/, ".")}`,
      res.status,
      after,
    );
  }
  return new ProviderError("http", `${res.status} ${res.statusText} from ${where}. Server said: ${said}`, res.status);
}

/** What a fetch that threw (no HTTP answer at all) means, for a person. */
export function networkMessage(url: string, origin: string): string {
  return (
    `Could not reach ${url}: the server is down, the address is wrong, or it refused this page's cross-origin request (CORS) — the browser does not say which. ` +
    `A local server must allow the origin ${origin}: Ollama: OLLAMA_ORIGINS=${origin} ollama serve (it allows localhost and 127.0.0.1 pages by default); ` +
    `LM Studio: turn on "Enable CORS" in the server settings (or lms server start --cors); ` +
    `llama.cpp's llama-server answers cross-origin requests as it is; another server must answer the preflight (OPTIONS) with Access-Control-Allow-Origin and Access-Control-Allow-Headers: authorization, content-type. ` +
    `See docs/playground-agent.md#cors.`
  );
}

/** One model request; rejects with a ProviderError. `onText` hears streamed text as it comes. */
export async function complete(
  c: ProviderConfig,
  b: RequestBody,
  signal: AbortSignal,
  onText: (text: string) => void = () => {},
): Promise<Reply> {
  const url = endpoint(c);
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", headers: headers(c), body: body(c, b), signal });
  } catch (e) {
    if (signal.aborted) throw new ProviderError("aborted", "Stopped.");
    throw new ProviderError("network", networkMessage(url, location.origin));
  }
  if (!res.ok) throw await httpError(c, res);
  try {
    if (c.stream && res.body && (res.headers.get("content-type") ?? "").includes("text/event-stream")) {
      return c.kind === "anthropic" ? await readAnthropicStream(res.body, onText) : await readOpenAiStream(res.body, onText);
    }
    const json: unknown = await res.json();
    return c.kind === "anthropic" ? anthropicReply(json) : openAiReply(json);
  } catch (e) {
    if (signal.aborted) throw new ProviderError("aborted", "Stopped.");
    if (e instanceof ProviderError) throw e;
    throw new ProviderError(
      "protocol",
      `The answer from ${url} is not what the ${c.kind === "anthropic" ? "Messages API" : "chat completions API"} returns: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

// ------------------------------------------------------------------ whole answers

function openAiReply(json: unknown): Reply {
  const v = json as { choices?: { message?: OpenAiAssistant }[]; usage?: { prompt_tokens?: number; completion_tokens?: number } };
  const m = v.choices?.[0]?.message;
  if (!m) throw new Error("no choices[0].message");
  const calls = (m.tool_calls ?? []).map((t, i) => ({
    id: t.id || `call_${i}`,
    type: "function" as const,
    function: {
      name: t.function?.name ?? "",
      arguments: typeof t.function?.arguments === "string" ? t.function.arguments : JSON.stringify(t.function?.arguments ?? {}),
    },
  }));
  const text = typeof m.content === "string" ? m.content : "";
  const message: OpenAiAssistant = { role: "assistant", content: m.content ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  const u = v.usage;
  return { message, text, calls, usage: u ? { input: u.prompt_tokens ?? 0, output: u.completion_tokens ?? 0 } : null };
}

function anthropicReply(json: unknown): Reply {
  const v = json as { content?: AnthropicBlock[]; usage?: { input_tokens?: number; output_tokens?: number } };
  if (!Array.isArray(v.content)) throw new Error("no content array");
  const content = v.content.filter((b) => b.type === "text" || b.type === "tool_use");
  const u = v.usage;
  return {
    message: { role: "assistant", content },
    text: content.map((b) => (b.type === "text" ? b.text : "")).join(""),
    calls: content.filter((b): b is Extract<AnthropicBlock, { type: "tool_use" }> => b.type === "tool_use"),
    usage: u ? { input: u.input_tokens ?? 0, output: u.output_tokens ?? 0 } : null,
  };
}

// ------------------------------------------------------------------ streams (server-sent events)

/** The `data:` payloads of an event stream, one per event (`[DONE]` included as it is). */
async function* sseData(stream: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const reader = stream.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, "");
      buffer = buffer.slice(nl + 1);
      if (line === "") {
        if (data.length > 0) yield { event, data: data.join("\n") };
        event = "";
        data = [];
      } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      else if (line.startsWith("event:")) event = line.slice(6).trim();
    }
  }
  if (data.length > 0) yield { event, data: data.join("\n") };
}

async function readOpenAiStream(stream: ReadableStream<Uint8Array>, onText: (t: string) => void): Promise<Reply> {
  let text = "";
  const calls: { id: string; name: string; args: string }[] = [];
  let usage: Usage | null = null;
  for await (const { data } of sseData(stream)) {
    if (data === "[DONE]") break;
    const chunk = JSON.parse(data) as {
      choices?: {
        delta?: {
          content?: string | null;
          tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
        };
      }[];
      usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
      error?: { message?: string };
    };
    if (chunk.error) throw new ProviderError("http", `The stream reported an error: ${chunk.error.message ?? JSON.stringify(chunk.error)}`);
    if (chunk.usage) usage = { input: chunk.usage.prompt_tokens ?? 0, output: chunk.usage.completion_tokens ?? 0 };
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue;
    if (delta.content) {
      text += delta.content;
      onText(text);
    }
    for (const t of delta.tool_calls ?? []) {
      const i = t.index ?? calls.length;
      calls[i] ??= { id: "", name: "", args: "" };
      if (t.id) calls[i].id = t.id;
      if (t.function?.name) calls[i].name += t.function.name;
      if (t.function?.arguments) calls[i].args += t.function.arguments;
    }
  }
  const toolCalls: OpenAiToolCall[] = calls
    .filter(Boolean)
    .map((c, i) => ({ id: c.id || `call_${i}`, type: "function", function: { name: c.name, arguments: c.args } }));
  const message: OpenAiAssistant = {
    role: "assistant",
    content: text === "" ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return { message, text, calls: toolCalls, usage };
}

async function readAnthropicStream(stream: ReadableStream<Uint8Array>, onText: (t: string) => void): Promise<Reply> {
  const blocks: ({ type: "text"; text: string } | { type: "tool_use"; id: string; name: string; json: string })[] = [];
  let usage: Usage | null = null;
  for await (const { data } of sseData(stream)) {
    const e = JSON.parse(data) as {
      type: string;
      index?: number;
      message?: { usage?: { input_tokens?: number; output_tokens?: number } };
      content_block?: { type: string; text?: string; id?: string; name?: string };
      delta?: { type?: string; text?: string; partial_json?: string };
      usage?: { input_tokens?: number; output_tokens?: number };
      error?: { type?: string; message?: string };
    };
    if (e.type === "error") {
      const overloaded = e.error?.type === "overloaded_error" || e.error?.type === "rate_limit_error";
      throw new ProviderError(
        overloaded ? "rate-limit" : "http",
        `The stream reported ${e.error?.type ?? "an error"}: ${e.error?.message ?? ""}`,
      );
    }
    if (e.type === "message_start" && e.message?.usage)
      usage = { input: e.message.usage.input_tokens ?? 0, output: e.message.usage.output_tokens ?? 0 };
    if (e.type === "message_delta" && e.usage) {
      usage = { input: e.usage.input_tokens ?? usage?.input ?? 0, output: e.usage.output_tokens ?? usage?.output ?? 0 };
    }
    if (e.type === "content_block_start" && e.content_block) {
      const b = e.content_block;
      blocks[e.index ?? blocks.length] =
        b.type === "tool_use" ? { type: "tool_use", id: b.id ?? "", name: b.name ?? "", json: "" } : { type: "text", text: b.text ?? "" };
    }
    if (e.type === "content_block_delta" && e.delta) {
      const b = blocks[e.index ?? blocks.length - 1];
      if (b?.type === "text" && e.delta.text) {
        b.text += e.delta.text;
        onText(blocks.map((x) => (x.type === "text" ? x.text : "")).join(""));
      }
      if (b?.type === "tool_use" && e.delta.partial_json) b.json += e.delta.partial_json;
    }
  }
  const content: AnthropicBlock[] = blocks.filter(Boolean).map((b) => {
    if (b.type === "text") return b;
    // A tool_use's input streams as JSON text; one that does not parse goes to runToolCall as the
    // text the model sent, which answers InvalidArguments quoting it.
    let input: unknown = b.json;
    if (b.json.trim() === "") input = {};
    else {
      try {
        input = JSON.parse(b.json);
      } catch {
        /* kept as sent */
      }
    }
    return { type: "tool_use", id: b.id, name: b.name, input };
  });
  return {
    message: { role: "assistant", content },
    text: content.map((b) => (b.type === "text" ? b.text : "")).join(""),
    calls: content.filter((b): b is Extract<AnthropicBlock, { type: "tool_use" }> => b.type === "tool_use"),
    usage,
  };
}
