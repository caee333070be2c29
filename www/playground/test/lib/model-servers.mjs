// Scripted model servers for the agent pane's tests: an OpenAI-compatible chat endpoint
// (`POST /v1/chat/completions`) and an Anthropic-compatible one (`POST /v1/messages`) on
// 127.0.0.1, port 0. `spawnScriptedServer` runs one as a child process of its own
// (model-server-process.mjs), stopped by pid; the child is bounded (it exits after `lifetimeMs`
// and answers 503 past `maxRequests`). Each request is recorded (URL, headers, JSON body), sent to
// the test over IPC, and answered by a named script of model-scripts.mjs, `script(body, index,
// params)`: `{ status, headers, json }`, or `{ sse: [...] }` for a stream (`{ pause: ms }` in it stalls the stream). Not a test file itself
// (build.sh runs test/*.test.mjs).
import http from "node:http";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access",
  "access-control-expose-headers": "retry-after",
};

/**
 * Starts a server; resolves `{ origin, requests, preflights, close() }`. `cors: false` answers without CORS
 * headers (what a local server does before CORS is enabled).
 */
export function scriptedServer({ script, cors = true, lifetimeMs = 120_000, maxRequests = 100, onRecord = () => {} }) {
  const requests = [];
  const preflights = [];
  const server = http.createServer((req, res) => {
    const head = cors ? CORS : {};
    if (req.method === "OPTIONS") {
      preflights.push({ url: req.url, headers: req.headers });
      onRecord("preflight", { url: req.url, headers: req.headers });
      res.writeHead(204, head).end();
      return;
    }
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (raw += d));
    req.on("end", async () => {
      let body = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* recorded as null */
      }
      requests.push({ url: req.url, headers: req.headers, body });
      onRecord("request", { url: req.url, headers: req.headers, body });
      let reply;
      try {
        if (requests.length > maxRequests) throw new Error(`more than ${maxRequests} requests: the test loops`);
        reply = await script(body, requests.length - 1, req);
      } catch (e) {
        reply = { status: 500, json: { error: { message: `script failed: ${e.message}` } } };
      }
      if (reply.sse) {
        res.writeHead(200, { ...head, "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.on("error", () => {}); // the page may abort a stream (Stop): later writes go nowhere
        for (const ev of reply.sse) {
          if (res.destroyed) return;
          if (ev.pause) {
            // `{ pause: ms }`: the stream stalls a while, as a slow model's does.
            await new Promise((r) => setTimeout(r, ev.pause));
            continue;
          }
          res.write(`${ev.event ? `event: ${ev.event}\n` : ""}data: ${typeof ev.data === "string" ? ev.data : JSON.stringify(ev.data)}\n\n`);
          await new Promise((r) => setTimeout(r, 5));
        }
        res.end();
        return;
      }
      res.writeHead(reply.status ?? 200, { ...head, "content-type": "application/json", ...(reply.headers ?? {}) });
      res.end(JSON.stringify(reply.json ?? {}));
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const timer = setTimeout(() => {
        server.closeAllConnections?.();
        server.close();
      }, lifetimeMs);
      timer.unref();
      const { port } = server.address();
      resolve({
        origin: `http://127.0.0.1:${port}`,
        requests,
        preflights,
        close: () =>
          new Promise((done) => {
            clearTimeout(timer);
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

const child = fileURLToPath(new URL("./model-server-process.mjs", import.meta.url));

/**
 * A scripted server in a child process of its own: `script` names a script of model-scripts.mjs,
 * `params` are handed to it. Resolves `{ origin, pid, requests, preflights, close() }` once the
 * child prints `ready`; the records arrive over IPC as the child receives them. `close()` SIGKILLs
 * the child by pid and resolves once it has exited.
 */
export function spawnScriptedServer({ script, params = {}, cors = true, lifetimeMs = 120_000, maxRequests = 100 }) {
  const requests = [];
  const preflights = [];
  return new Promise((resolve, reject) => {
    const proc = fork(child, [JSON.stringify({ script, params, cors, lifetimeMs, maxRequests })], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
    let err = "";
    proc.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => {
      process.kill(proc.pid, "SIGKILL");
      reject(new Error(`the scripted server did not start within 10 s: ${err}`));
    }, 10_000);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the scripted server exited (${code}) before it was ready: ${err}`));
    });
    proc.on("message", (m) => {
      if (m.kind === "request") requests.push(m.record);
      else if (m.kind === "preflight") preflights.push(m.record);
      else if (m.kind === "ready") {
        clearTimeout(timer);
        const close = () => {
          if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
          const gone = new Promise((done) => proc.once("exit", done));
          process.kill(proc.pid, "SIGKILL");
          return gone;
        };
        resolve({ origin: m.origin, pid: proc.pid, requests, preflights, close, stderr: () => err });
      }
    });
  });
}

// ------------------------------------------------------------------ the scripted "model"

/** The last tool result the conversation holds (OpenAI `tool` message or Anthropic `tool_result`), as text. */
export function lastResult(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "tool") return m.content;
    if (Array.isArray(m.content)) {
      const r = [...m.content].reverse().find((b) => b.type === "tool_result");
      if (r) return typeof r.content === "string" ? r.content : JSON.stringify(r.content);
    }
    if (m.role === "assistant") return null;
  }
  return null;
}

/**
 * What a model that knows the timeouts task does next, read from the conversation: a
 * `memo_begin_task` first (when `task`), a malformed call (when `malformed`), then memo_replace → the api candidate of the MultiMatch →
 * memo_commit → a final sentence. `prefix` is the tool prefix the variant uses.
 */
export function nextMove(messages, { malformed = false, prefix = "memo", task = false } = {}) {
  const all = JSON.stringify(messages);
  if (/Edit session #\d+ committed|Committed \d+ change/.test(all)) return { text: "Done: the API timeout is 60 s and saved." };
  const last = lastResult(messages);
  if (last === null && task) return { call: { name: `${prefix}_begin_task`, args: { goal: "Raise the API timeout to 60 s" } } };
  if (last === null || (task && /Task #\d+ begun/.test(last))) {
    return malformed
      ? { call: { name: `${prefix}_replace`, args: '{"old_text": "timeout: 30", "new_text": ' } }
      : { call: { name: `${prefix}_replace`, args: { old_text: "timeout: 30", new_text: "timeout: 60" } } };
  }
  if (last.includes("InvalidArguments")) return { call: { name: `${prefix}_replace`, args: { old_text: "timeout: 30", new_text: "timeout: 60" } } };
  // A candidate list (`- [B] line 45: …`) or the table (`| B | … | api.timeout: 30 | …`).
  const pick = /\[([A-Z])\][^\n]*api\.timeout/.exec(last) ?? /\| ([A-Z]) \|[^\n]*api\.timeout/.exec(last);
  if (last.includes("MultiMatch") && pick) return { text: "Three places match; the api one is ", call: { name: `${prefix}_replace_selection`, args: { selection_id: pick[1] } } };
  if (last.includes("PersistPending")) return { call: { name: `${prefix}_commit`, args: { summary: "Raise the API timeout to 60 s" } } };
  return { text: `I do not know what to do with: ${last.slice(0, 80)}` };
}

let ids = 0;

/** An OpenAI chat completion for a move, whole or as stream chunks. */
export function openAiAnswer(move, { stream = false, usage = { prompt_tokens: 1000, completion_tokens: 20 } } = {}) {
  const id = `call_${++ids}`;
  const args = move.call ? (typeof move.call.args === "string" ? move.call.args : JSON.stringify(move.call.args)) : "";
  if (!stream) {
    const message = {
      role: "assistant",
      content: move.text ?? null,
      ...(move.call ? { tool_calls: [{ id, type: "function", function: { name: move.call.name, arguments: args } }] } : {}),
    };
    return { json: { id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, message, finish_reason: move.call ? "tool_calls" : "stop" }], usage } };
  }
  const chunk = (delta, extra = {}) => ({ data: { id: "chatcmpl-1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: null }], ...extra } });
  const sse = [chunk({ role: "assistant", content: "" })];
  if (move.text) for (const word of move.text.split(/(?<= )/)) sse.push(chunk({ content: word }));
  if (move.call) {
    sse.push(chunk({ tool_calls: [{ index: 0, id, type: "function", function: { name: move.call.name, arguments: "" } }] }));
    // The arguments arrive in pieces, as real servers send them.
    for (let i = 0; i < args.length; i += 7) sse.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + 7) } }] }));
  }
  sse.push({ data: { id: "chatcmpl-1", object: "chat.completion.chunk", choices: [], usage } });
  sse.push({ data: "[DONE]" });
  return { sse };
}

/** An Anthropic Messages answer for a move, whole or as a stream of events. */
export function anthropicAnswer(move, { stream = false, usage = { input_tokens: 1200, output_tokens: 30 } } = {}) {
  const id = `toolu_${++ids}`;
  const content = [];
  if (move.text) content.push({ type: "text", text: move.text });
  if (move.call) content.push({ type: "tool_use", id, name: move.call.name, input: move.call.args });
  if (!stream) {
    if (move.call && typeof move.call.args === "string") throw new Error("a whole Anthropic answer carries input as an object");
    return { json: { id: "msg_1", type: "message", role: "assistant", model: "scripted", content, stop_reason: move.call ? "tool_use" : "end_turn", usage } };
  }
  const sse = [{ event: "message_start", data: { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } } }];
  content.forEach((b, index) => {
    if (b.type === "text") {
      sse.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } });
      sse.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } } });
    } else {
      const json = typeof b.input === "string" ? b.input : JSON.stringify(b.input);
      sse.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } } });
      for (let i = 0; i < json.length; i += 9) sse.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json.slice(i, i + 9) } } });
    }
    sse.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  sse.push({ event: "message_delta", data: { type: "message_delta", delta: { stop_reason: move.call ? "tool_use" : "end_turn" }, usage: { output_tokens: usage.output_tokens } } });
  sse.push({ event: "message_stop", data: { type: "message_stop" } });
  return { sse };
}
