// The agent pane's provider module (src/agent/provider.ts) in Node, against the scripted model
// servers (each a process of its own, stopped by pid): what `retry-after` means in both its forms,
// and the errors a stream itself reports (docs/playground-agent.md#errors).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { importTs } from "./lib/load-ts.mjs";
import { spawnScriptedServer } from "./lib/model-servers.mjs";

const { complete, parseRetryAfter, ProviderError } = await importTs("src/agent/provider.ts");
globalThis.location ??= { origin: "http://127.0.0.1:5173" }; // the page's origin, named in network errors

const servers = [];
after(async () => {
  for (const s of servers) await s.close();
});
async function serve(options) {
  const s = await spawnScriptedServer(options);
  servers.push(s);
  return s;
}

const config = (kind, baseUrl, extra = {}) => ({ kind, baseUrl, model: "scripted-model", key: "", stream: false, maxTokens: 256, ...extra });
const request = { system: "s", messages: [{ role: "user", content: "hi" }], tools: [] };

test("retry-after: seconds, an HTTP date (rounded up, never negative), or nothing usable", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(parseRetryAfter("7", now), 7);
  assert.equal(parseRetryAfter("0", now), 0);
  assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now), 5);
  assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:04 GMT", now + 500), 4, "3.5 s left: rounded up to 4");
  assert.equal(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now), 0, "a date in the past: no wait");
  assert.equal(parseRetryAfter(null, now), null);
  assert.equal(parseRetryAfter("", now), null);
  assert.equal(parseRetryAfter("soon", now), null);
  assert.equal(parseRetryAfter("-3", now), null, "not a wait (the loop backs off instead)");
  assert.equal(parseRetryAfter("2026", now), 2026, "a number is seconds, never a year");
});

test("a 429 over HTTP with an HTTP-date retry-after becomes a rate-limit error with the wait in seconds", async () => {
  const at = new Date(Date.now() + 9_000).toUTCString();
  const srv = await serve({ script: "rate-limit-date", params: { at } });
  await assert.rejects(complete(config("openai", `${srv.origin}/v1`), request, new AbortController().signal), (e) => {
    assert.ok(e instanceof ProviderError);
    assert.equal(e.kind, "rate-limit");
    assert.equal(e.status, 429);
    assert.ok(e.retryAfter >= 7 && e.retryAfter <= 9, `retryAfter ${e.retryAfter}`);
    assert.match(e.message, /^429 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: rate limited or overloaded\. Server said: Slow down\.$/);
    return true;
  });
});

test("an Anthropic stream that reports overloaded_error is a rate-limit error (retried), not a protocol failure", async () => {
  const srv = await serve({ script: "anthropic-stream-overloaded" });
  await assert.rejects(complete(config("anthropic", srv.origin, { stream: true }), request, new AbortController().signal), (e) => {
    assert.equal(e.kind, "rate-limit");
    assert.equal(e.retryAfter, null, "no retry-after: the loop backs off 2, 4, 8 s");
    assert.match(e.message, /overloaded_error: Overloaded/);
    return true;
  });
});
