// Share links: the page's session as an "agentpad-transcript/1" transcript
// without recorded expectations — the documents the workspace started from, its options, and the
// calls (and storage actions) in order — deflated (CompressionStream "deflate-raw") and base64url
// encoded in the URL hash, `#t=…`. Opening the link loads the documents with those options and
// runs the calls in order, so the page shows the same state.
import { TRANSCRIPT_FORMAT, parseTranscript } from "@agentpad/core";
import type { HostStep, Transcript, TranscriptOptions, TranscriptStep } from "@agentpad/core";

/** The hash key of a share link: `#t=<base64url of deflate-raw of the transcript's JSON>`. */
export const SHARE_KEY = "t";

/**
 * What the page did since its workspace was created: the starting documents, the options, and
 * each call and storage action in order. The page tells it (src/page/: begin on every new
 * workspace, call after every console call, host after every simulated write or armed save failure).
 */
export class SessionRecorder {
  #documents: Record<string, string> = {};
  #options: TranscriptOptions = {};
  #steps: TranscriptStep[] = [];
  #title = "agentpad playground session";

  /** A new workspace on `documents` (path → raw text as storage holds it) with `options`. */
  begin(documents: Record<string, string>, options: TranscriptOptions, title?: string): void {
    this.#documents = { ...documents };
    this.#options = { ...options };
    this.#steps = [];
    if (title !== undefined) this.#title = title;
  }

  call(tool: string, args: unknown): void {
    this.#steps.push({ tool, args: structuredClone(args) });
  }

  host(step: HostStep): void {
    this.#steps.push({ ...step });
  }

  get steps(): number {
    return this.#steps.length;
  }

  /** The session as a transcript (no `expect`: a share link records calls, not answers). */
  transcript(): Transcript {
    return {
      format: TRANSCRIPT_FORMAT,
      title: this.#title,
      description: `Shared from the agentpad playground: ${this.#steps.length} step${this.#steps.length === 1 ? "" : "s"} on ${Object.keys(this.#documents).join(", ")}.`,
      documents: { ...this.#documents },
      options: { ...this.#options },
      steps: this.#steps.map((s) => ({ ...s })),
    };
  }
}

// ------------------------------------------------------------------ encoding

function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("the link holds characters that are not base64url");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    throw new Error("the link is not valid base64url");
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const body = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** The transcript's JSON, deflated and base64url-encoded (the part after `#t=`). */
export async function encodeTranscript(t: Transcript): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(t));
  return toBase64Url(await pipe(json, new CompressionStream("deflate-raw")));
}

/**
 * The transcript a `#t=` value holds; throws an Error saying what is wrong (not base64url, not
 * deflate data, not JSON, not a transcript).
 */
export async function decodeTranscript(encoded: string): Promise<Transcript> {
  if (encoded === "") throw new Error("the link holds no session (#t= is empty)");
  const bytes = fromBase64Url(encoded);
  let json: string;
  try {
    json = new TextDecoder("utf-8", { fatal: true }).decode(await pipe(bytes, new DecompressionStream("deflate-raw")));
  } catch {
    throw new Error("the link's data does not inflate (deflate-raw): it is cut short or was not made by this page");
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw new Error(`the link's data is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseTranscript(value);
}

/** The `#t=` value of a URL hash (`#t=…`), or null when the hash is no share link. */
export function shareParam(hash: string): string | null {
  const h = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!h.startsWith(`${SHARE_KEY}=`)) return null;
  return h.slice(SHARE_KEY.length + 1);
}

/** The page's URL with `#t=<encoded>`. */
export function shareUrl(encoded: string, base: string = location.href): string {
  const url = new URL(base);
  url.hash = `${SHARE_KEY}=${encoded}`;
  return url.toString();
}
