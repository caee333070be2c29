// The stdio transport of agentpad-mcp, with a message limit that keeps the server alive.
// The SDK's StdioServerTransport closes the connection (and the server exits, losing staged
// work) when a message passes its 10 MiB buffer. Here stdin is split into lines first: a line
// within MAX_MESSAGE_BYTES goes to the SDK's transport whole (one buffer append, not one per
// chunk), a longer one is dropped as it streams and answered with a JSON-RPC error naming the
// limit (docs/decisions.md §Oversized MCP messages).

import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { MAX_DOCUMENT_BYTES } from "@agentpad/core";

/**
 * The largest message taken: twice agentpad's document limit, so a memo_create of any document
 * agentpad accepts fits even with JSON escaping of every other character.
 */
export const MAX_MESSAGE_BYTES = 2 * MAX_DOCUMENT_BYTES;

/** How much of an oversized message is kept to find its id. */
const HEAD_BYTES = 64 * 1024;

/**
 * The id of a JSON-RPC request from the start of its text, when it comes before the params
 * (as every client writes it); null otherwise (JSON-RPC's id for "could not tell").
 * @param {string} head
 * @returns {string | number | null}
 */
function sniffId(head) {
  const m = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(head);
  if (m === null) return null;
  const params = head.indexOf('"params"');
  if (params !== -1 && params < m.index) return null;
  return JSON.parse(m[1]);
}

/**
 * A StdioServerTransport on `input`/`output` whose messages are at most `limit` bytes; a larger
 * one is answered with error -32600 and the connection stays open.
 * @param {{ input?: NodeJS.ReadableStream, output?: NodeJS.WritableStream, limit?: number, log?: (line: string) => void }} [options]
 */
export function stdioTransport(options = {}) {
  const {
    input = process.stdin,
    output = process.stdout,
    limit = MAX_MESSAGE_BYTES,
    log = (line) => process.stderr.write(`${line}\n`),
  } = options;
  const lines = new PassThrough();
  /** @type {Buffer[]} */
  let parts = [];
  let size = 0;
  let oversized = false;
  /** @type {Buffer[]} */
  let head = [];
  let headSize = 0;

  const refuse = () => {
    const id = sniffId(Buffer.concat(head).toString("utf8"));
    const message =
      `Message too large: ${size} bytes, over agentpad-mcp's limit of ${limit} bytes per message. ` +
      `Documents up to ${MAX_DOCUMENT_BYTES} bytes (agentpad's limit) fit; send a smaller document or change it in parts (memo_replace).`;
    log(`agentpad-mcp: refused a message of ${size} bytes (limit ${limit}); still serving`);
    output.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32600, message } })}\n`);
  };

  /** @param {Buffer} chunk */
  const onData = (chunk) => {
    let at = 0;
    while (at < chunk.length) {
      const nl = chunk.indexOf(10, at);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(at, end);
      size += piece.length;
      if (!oversized && size > limit) {
        // From here the line is dropped as it streams; only its start is kept, for its id.
        oversized = true;
        for (const p of parts) {
          if (headSize >= HEAD_BYTES) break;
          head.push(p.subarray(0, HEAD_BYTES - headSize));
          headSize += head.at(-1).length;
        }
        parts = [];
      }
      if (oversized) {
        if (headSize < HEAD_BYTES) {
          head.push(piece.subarray(0, HEAD_BYTES - headSize));
          headSize += Math.min(piece.length, HEAD_BYTES - headSize);
        }
      } else {
        parts.push(piece);
      }
      if (nl === -1) break;
      // A whole line: hand it on, or answer that it was too large.
      if (oversized) refuse();
      else lines.write(Buffer.concat([...parts, Buffer.from("\n")]));
      parts = [];
      head = [];
      size = 0;
      headSize = 0;
      oversized = false;
      at = nl + 1;
    }
  };
  input.on("data", onData);
  let ended = false;
  const end = () => {
    if (!ended) lines.end();
    ended = true;
  };
  input.on("end", end);
  input.on("close", end);
  input.on("error", (err) => lines.destroy(err));
  return new StdioServerTransport(lines, output, { maxBufferSize: limit + 1 });
}
