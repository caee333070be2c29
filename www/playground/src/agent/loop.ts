// The agent loop of the agent pane: the package's own, as README.md ("With your LLM SDK") and
// www/examples/ run it — the tools from `ws.tools({ format })` on every request, each tool call
// through `ws.runToolCall(call, { format, onResponse })`, the live context attached to the last
// user message of every request (never kept in the history), and `ws.compressHistory(messages,
// { format })` once a commit or revert ended an edit session (docs/workflow.md). A step is one
// model request and the tool calls it made; a run steps until the model answers without a call.
// What a run measures is in docs/playground-agent.md#measures.
import {
  TRANSCRIPT_FORMAT,
  type ToolResponse,
  type Transcript,
  type TranscriptOptions,
  type TranscriptStep,
  type Workspace,
} from "@agentpad/core";
import { complete, ProviderError, type ProviderConfig, type Reply, type Usage } from "./provider";
import { t as say, tn } from "../phrases";

/** The Workspace.create options an A/B variant may set. */
export interface VariantOptions {
  locale: "en" | "zh";
  candidateStyle: "list" | "table";
  toolPrefix: string;
}

/** What the loop needs from its host: the workspace, and a way to run a call on it. */
export interface LoopHost {
  workspace(): Workspace | null;
  /** Runs the model's call through `ws.runToolCall` (the page: so that every pane shows it). */
  exec(call: unknown, format: "openai" | "anthropic"): Promise<{ result: unknown; response: ToolResponse }>;
}

/** One tool call of a run, as the model sent it and as the workspace answered it. */
export interface RunCall {
  id: string;
  tool: string;
  /** The arguments as the model sent them (a string for OpenAI, maybe not JSON). */
  sent: unknown;
  /** Whether the arguments were not JSON (or not an object), or the tool is none of the workspace's: the call is shown as sent. */
  malformed: boolean;
  status: string;
  state: string;
  summary: string;
  /** A write the workspace accepted (a staged or saved edit): the person can mark it wrong. */
  write: boolean;
  wrong: boolean;
  endsSession: boolean;
}

export interface RunEvent {
  kind: "request" | "text" | "call" | "wait" | "error" | "compressed" | "done";
  text: string;
}

export interface Measures {
  requests: number;
  calls: number;
  malformed: number;
  tokensIn: number;
  tokensOut: number;
  /** Requests whose answer reported no usage (then the token counts are short). */
  unreported: number;
  wallMs: number;
  retries: number;
  commits: number;
  /** null when the task has no check. */
  landed: boolean | null;
  wrong: number;
}

export type RunStatus = "idle" | "running" | "waiting" | "done" | "stopped" | "failed";

export interface RunSetup {
  provider: ProviderConfig;
  system: string;
  task: string;
  /** Landed when the saved document contains this text (empty: not checked). */
  expect: string;
  maxSteps: number;
  /** The documents the run starts from and the workspace's options (the saved transcript's). */
  documents: Record<string, string>;
  options: TranscriptOptions;
  label: string;
}

type Message = Record<string, unknown> & { role: string; content?: unknown };

const MAX_RETRIES = 3;
/** The wait when a 429 says nothing (seconds), doubled on each retry. */
const DEFAULT_WAIT = 2;

/** `{prefix}` in a system prompt is the variant's tool prefix. */
export const withPrefix = (system: string, prefix: string) => system.replaceAll("{prefix}", prefix);

export class AgentRun {
  readonly calls: RunCall[] = [];
  readonly events: RunEvent[] = [];
  readonly steps: TranscriptStep[] = [];
  status: RunStatus = "idle";
  /** The text streaming in for the request under way. */
  streaming = "";
  /** Seconds left in a retry-after wait (shown as it counts down). */
  waitLeft = 0;
  error: ProviderError | null = null;
  finalText = "";
  readonly usage: Usage = { input: 0, output: 0 };
  requests = 0;
  unreported = 0;
  retries = 0;
  wallMs = 0;
  landed: boolean | null = null;
  #messages: Message[];
  #abort: AbortController | null = null;
  /** Stop was pressed: a request under way is aborted, and no further request is made. */
  #stopRequested = false;
  readonly format: "openai" | "anthropic";

  constructor(
    readonly setup: RunSetup,
    readonly host: LoopHost,
    /** Called on every change, so the pane re-renders. */
    readonly changed: () => void,
  ) {
    this.format = setup.provider.kind;
    this.#messages = [{ role: "user", content: setup.task }];
  }

  get measures(): Measures {
    return {
      requests: this.requests,
      calls: this.calls.length,
      malformed: this.calls.filter((c) => c.malformed).length,
      tokensIn: this.usage.input,
      tokensOut: this.usage.output,
      unreported: this.unreported,
      wallMs: this.wallMs,
      retries: this.retries,
      commits: this.calls.filter((c) => c.endsSession && c.status === "Success").length,
      landed: this.landed,
      wrong: this.calls.filter((c) => c.wrong).length,
    };
  }

  get busy(): boolean {
    return this.status === "running" || this.status === "waiting";
  }

  get finished(): boolean {
    return this.status === "done" || this.status === "stopped" || this.status === "failed";
  }

  /** The history the next request sends (without the live context). */
  get messages(): readonly Message[] {
    return this.#messages;
  }

  stop(): void {
    this.#stopRequested = true;
    this.#abort?.abort();
    if (!this.busy && !this.finished) this.#finish("stopped");
  }

  /** Steps until the model answers without a tool call, `maxSteps` is reached, or Stop. */
  async run(): Promise<void> {
    while (!this.finished) {
      await this.step();
      if (this.status === "idle" && this.requests >= this.setup.maxSteps) {
        this.#event("error", say("loop.step_limit", { n: this.setup.maxSteps }));
        this.#finish("stopped");
      }
    }
  }

  /** One model request and the tool calls it made. */
  async step(): Promise<void> {
    if (this.busy || this.finished) return;
    if (this.#stopRequested) {
      this.#finish("stopped");
      this.changed();
      return;
    }
    const ws = this.host.workspace();
    if (!ws) {
      this.#fail(new ProviderError("protocol", say("loop.no_workspace")));
      return;
    }
    const started = performance.now();
    this.status = "running";
    this.#abort = new AbortController();
    this.changed();
    try {
      const reply = await this.#request(ws, this.#abort.signal);
      if (!reply) return;
      await this.#answer(ws, reply);
    } catch (e) {
      // Not the model's mistake (those are results it reads): the host could not run the call.
      this.#fail(new ProviderError("protocol", say("loop.call_failed", { error: e instanceof Error ? e.message : String(e) })));
    } finally {
      this.wallMs += performance.now() - started;
      this.#abort = null;
      await this.#check();
      this.changed();
    }
  }

  /** The request with retries: a 429 waits `retry-after` (or 2, 4, 8 s) and tries again, up to three times. */
  async #request(ws: Workspace, signal: AbortSignal): Promise<Reply | null> {
    const tools = ws.tools({ format: this.format });
    for (let attempt = 0; ; attempt++) {
      this.streaming = "";
      this.requests++;
      const n = this.#messages.length;
      this.#event("request", tn("loop.request", n, { i: this.requests, tools: tools.length }));
      try {
        const reply = await complete(
          this.setup.provider,
          { system: this.setup.system, messages: this.#withLiveContext(ws), tools },
          signal,
          (text) => {
            this.streaming = text;
            this.changed();
          },
        );
        if (reply.usage) {
          this.usage.input += reply.usage.input;
          this.usage.output += reply.usage.output;
        } else this.unreported++;
        return reply;
      } catch (e) {
        const err = e instanceof ProviderError ? e : new ProviderError("protocol", e instanceof Error ? e.message : String(e));
        // Text that streamed in before the request ended goes to the log, marked, not left as if still streaming.
        if (this.streaming !== "") {
          this.#event("text", `${this.streaming.trimEnd()} ${say(err.kind === "aborted" ? "loop.stopped_mid" : "loop.cut_mid")}`);
          this.streaming = "";
        }
        if (err.kind === "aborted") {
          this.#finish("stopped");
          this.#event("done", "Stopped.");
          return null;
        }
        if (err.kind === "rate-limit" && attempt < MAX_RETRIES) {
          const wait = err.retryAfter ?? DEFAULT_WAIT * 2 ** attempt;
          const said = err.retryAfter !== null ? `retry-after: ${err.retryAfter}` : say("loop.no_retry_after");
          this.#event("wait", `${err.message} ${say("loop.waiting", { s: wait, said, n: attempt + 1, of: MAX_RETRIES })}`);
          this.retries++;
          if (!(await this.#wait(wait, signal))) {
            this.#finish("stopped");
            this.#event("done", say("loop.stopped_wait"));
            return null;
          }
          this.status = "running";
          continue;
        }
        this.#fail(err);
        return null;
      }
    }
  }

  async #wait(seconds: number, signal: AbortSignal): Promise<boolean> {
    this.status = "waiting";
    const end = performance.now() + seconds * 1000;
    while (!signal.aborted) {
      const left = end - performance.now();
      this.waitLeft = Math.max(0, Math.ceil(left / 1000));
      this.changed();
      if (left <= 0) return true;
      await new Promise((r) => setTimeout(r, Math.min(250, left)));
    }
    this.waitLeft = 0;
    return false;
  }

  async #answer(ws: Workspace, reply: Reply): Promise<void> {
    this.#messages.push(reply.message as unknown as Message);
    this.streaming = "";
    if (reply.text.trim() !== "") {
      this.steps.push({ say: reply.text });
      this.#event("text", reply.text);
    }
    if (reply.calls.length === 0) {
      this.finalText = reply.text;
      this.#finish("done");
      this.#event("done", say("loop.over"));
      return;
    }
    const results: unknown[] = [];
    let sessionEnded = false;
    // The tools this request offered: a call to any other is malformed (docs/playground-agent.md#the-loop).
    const known = new Set(
      ws.tools({ format: this.format }).map((t) => {
        const d = t as { name?: string; function?: { name?: string } };
        return d.function?.name ?? d.name ?? "";
      }),
    );
    for (const call of reply.calls) {
      const { result, response } = await this.host.exec(call, this.format);
      sessionEnded ||= response.history_delta !== null;
      results.push(result);
      this.#record(call, response, known);
    }
    if (this.format === "anthropic") this.#messages.push({ role: "user", content: results });
    else this.#messages.push(...(results as Message[]));
    if (sessionEnded) {
      const before = this.#messages.length;
      this.#messages = ws.compressHistory(this.#messages, { format: this.format }).messages;
      this.#event("compressed", say("loop.compressed", { before, after: this.#messages.length }));
    }
    if (this.status === "running") this.status = this.#stopRequested ? "stopped" : "idle";
    if (this.#stopRequested) this.#event("done", say("loop.stopped_after"));
  }

  #record(call: Reply["calls"][number], r: ToolResponse, known: ReadonlySet<string>): void {
    const isOpenAi = "function" in call;
    const tool = isOpenAi ? call.function.name : call.name;
    const id = call.id;
    const sent: unknown = isOpenAi ? call.function.arguments : call.input;
    let args: unknown = sent;
    if (typeof sent === "string") {
      try {
        args = sent.trim() === "" ? {} : JSON.parse(sent);
      } catch {
        args = sent;
      }
    }
    const badArgs = args === null || typeof args !== "object" || Array.isArray(args);
    const malformed = badArgs || !known.has(tool);
    const write = (r.status === "Success" && r.pending_changes.length > 0) || (r.history_delta !== null && r.status === "Success");
    this.calls.push({
      id,
      tool,
      sent,
      malformed,
      status: r.status,
      state: r.workflow_state,
      summary: r.summary,
      write,
      wrong: false,
      endsSession: r.history_delta !== null,
    });
    // The transcript keeps the arguments as sent, so that a replay meets the same answer.
    this.steps.push({
      tool,
      args,
      tool_call_id: id,
      ...(malformed
        ? { note: badArgs ? "malformed arguments, as the model sent them" : "a tool the workspace does not have, as the model sent it" }
        : {}),
    });
    this.#event("call", `${tool} → ${r.status}`);
  }

  /** The request's messages: a copy whose last user message ends with the live context. */
  #withLiveContext(ws: Workspace): unknown[] {
    const parts = ws.liveContext().content_parts;
    let i = this.#messages.length - 1;
    while (i >= 0 && this.#messages[i].role !== "user") i--;
    const user = this.#messages[i];
    if (!user) return this.#messages;
    const content = typeof user.content === "string" ? [{ type: "text", text: user.content }] : (user.content as unknown[]);
    const out: unknown[] = [...this.#messages];
    out[i] = { ...user, content: [...content, ...parts] };
    return out;
  }

  /** Whether the saved document holds the expected text. */
  async #check(): Promise<void> {
    const expect = this.setup.expect.trim();
    const ws = this.host.workspace();
    if (expect === "" || !ws) return;
    this.landed = ws.paths().some((p) => ws.text(p).includes(expect));
  }

  #fail(err: ProviderError): void {
    this.error = err;
    this.#event("error", err.message);
    this.#finish("failed");
  }

  #finish(status: RunStatus): void {
    this.status = status;
    this.waitLeft = 0;
  }

  #event(kind: RunEvent["kind"], text: string): void {
    this.events.push({ kind, text });
    this.changed();
  }

  /** The run as an agentpad-transcript/1 (no key: it is never part of the setup's data). */
  transcript(): Transcript {
    const m = this.measures;
    return {
      format: TRANSCRIPT_FORMAT,
      title: `${this.setup.label}: ${this.setup.provider.model} (${m.calls} calls)`,
      description:
        `Agent run in the agentpad playground: ${this.setup.provider.kind} ${this.setup.provider.model}, ` +
        `${m.requests} requests, ${m.calls} calls, ${m.tokensIn} tokens in / ${m.tokensOut} out, ${(m.wallMs / 1000).toFixed(1)} s` +
        `${m.landed === null ? "" : m.landed ? ", landed" : ", not landed"}${m.wrong > 0 ? `, ${m.wrong} marked wrong` : ""}.`,
      documents: { ...this.setup.documents },
      options: { ...this.setup.options },
      system: this.setup.system,
      prompt: this.setup.task,
      steps: this.steps.map((s) => {
        const wrong = "tool" in s && this.calls.some((c) => c.id === s.tool_call_id && c.wrong);
        return wrong ? { ...s, note: "marked wrong by the person watching the run" } : { ...s };
      }),
    };
  }
}
