// The checks and conversions Workspace (workspace.ts) applies at the boundary: option names,
// what a storage hands back, time limits and the size limit. Plain functions, no state.

import { documentTooLargeMessage } from "../pkg/agentpad.js";
import { CORE_OPTIONS } from "./generated/options.js";
import type { TextEdit } from "./types.js";

/**
 * The largest document a Workspace holds: 134,217,728 bytes (128 MiB) of UTF-8 as storage holds
 * it (line breaks and BOM included). `Workspace.create` rejects a larger document with an Error
 * naming its path, its size and this limit; a larger text storage changes to is not loaded (the
 * next response says so); an edit that would grow a document past it returns
 * `InvalidArguments` and changes nothing. The core enforces it (`agentpad::MAX_DOCUMENT_BYTES`);
 * the shell refuses a string longer than this before copying it into wasm memory.
 */
export const MAX_DOCUMENT_BYTES = 128 * 1024 * 1024;

/** UTF-8 length of `s` (what the limit counts), without encoding it. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * A string longer than the limit in UTF-16 units is over it in UTF-8 bytes too: refuse it here
 * rather than copy it into wasm memory (which never shrinks). Shorter ones the core measures.
 */
export function tooLong(path: string, text: string): string | undefined {
  return text.length > MAX_DOCUMENT_BYTES ? documentTooLargeMessage(path, utf8Length(text)) : undefined;
}

/**
 * The options of Workspace.create: the core's, from its option table (docs/options.md), and the
 * package's own. Anything else is refused (a typo must not fall back to a default).
 */
export const CREATE_OPTIONS = [...CORE_OPTIONS.map((o) => o.name), "storage", "diagnostics", "paths", "storageTimeoutMs", "embed"];
/** The options of liveContext. */
export const LIVE_CONTEXT_OPTIONS = [
  "path",
  "editorState",
  "maxDocumentChars",
  "recentDiffs",
  "maxDiffChars",
  "anchor",
  "planHints",
  "diffDeadlineMs",
  "locale",
];

/** Throws naming the first key of `options` that is not one of `known`. */
export function checkKeys(options: object, known: string[], what: string): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new Error(`InvalidArguments: unknown ${what} option \`${key}\`; the known options are: ${known.join(", ")}`);
    }
  }
}

/**
 * The core names options as its snake_case keys (`max_task_depth`, `anchor.commits_back`); the
 * caller wrote them in camelCase (`maxTaskDepth`, `anchor.commitsBack`): say what they wrote.
 */
export function withCamelNames(err: unknown): unknown {
  if (err instanceof Error) {
    err.message = err.message.replace(
      /`([a-z][a-z0-9]*(?:[_.][a-z0-9]+)+)`/g,
      (_, name: string) => `\`${name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())}\``,
    );
  }
  return err;
}

/**
 * A path argument must be a string (or absent): wasm-bindgen's string conversion of anything
 * else writes out of bounds and traps inside the shared wasm instance.
 */
/**
 * What `storage.load(path)` returned, checked: a storage provider is host code, and a wrong
 * shape must fail here with its name rather than deep inside the core (or as "cannot read
 * properties of undefined"). `known(version)`: true for a version the workspace holds already
 * (the echo of its own save), whose text is not used — it is not scanned for unpaired
 * surrogates either, a scan V8 does in O(n) on every call for a string with any non-Latin-1 char
 * (35 ms for 10 MB).
 */
export function checkLoaded(
  path: string,
  doc: unknown,
  known?: (version: string) => boolean,
): { text: string; version: string } | undefined {
  if (doc === undefined || doc === null) return undefined;
  const d = doc as { text?: unknown; version?: unknown };
  if (typeof doc !== "object" || typeof d.text !== "string" || typeof d.version !== "string") {
    const got = typeof doc !== "object" ? typeof doc : `{ text: ${typeof d.text}, version: ${typeof d.version} }`;
    throw new TypeError(
      `agentpad: storage.load(${JSON.stringify(path)}) returned ${got}; a StorageProvider's load must resolve to { text: string, version: string }, or undefined when there is no such document`,
    );
  }
  if (known?.(d.version) === true) return { text: d.text, version: d.version };
  const at = unpairedSurrogateAt(d.text);
  if (at >= 0) {
    throw new TypeError(
      `agentpad: storage.load(${JSON.stringify(path)}) returned text with an unpaired surrogate (U+${d.text.charCodeAt(at).toString(16).toUpperCase()}) at UTF-16 offset ${at}, not valid Unicode (a string cut inside an emoji?); it was not loaded`,
    );
  }
  return { text: d.text, version: d.version };
}

/** UTF-16 offset of the first unpaired surrogate of `s`, or -1. Native check first (Node 20+). */
function unpairedSurrogateAt(s: string): number {
  if ((s as { isWellFormed?: () => boolean }).isWellFormed?.() === true) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c < 0xdc00 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    else return i;
  }
  return -1;
}

/**
 * The text a write sent as edits stands for: `edits` (sorted, not overlapping, UTF-16 offsets)
 * applied to `base`, the committed text this side keeps — slices and one join, as a commit
 * written in JS would make it. Throws (the write is then reported failed, nothing saved) when
 * there is no such text or an edit does not fit it.
 */
export function applyEdits(base: string | undefined, edits: readonly TextEdit[]): string {
  if (base === undefined)
    throw new Error("agentpad: the write came as edits of a committed text this side does not hold; nothing was saved");
  const parts: string[] = [];
  let at = 0;
  for (const e of edits) {
    if (!(e.from >= at && e.to >= e.from && e.to <= base.length))
      throw new Error("agentpad: the write's edits do not fit the committed text; nothing was saved");
    parts.push(base.slice(at, e.from), e.insert);
    at = e.to;
  }
  parts.push(base.slice(at));
  return parts.join("");
}

/**
 * What `storage.save(path)` resolved to, checked: `{ version: string, stored?: boolean }`.
 * Returns the version and whether the save is kept where storage keeps it (`stored: false`:
 * applied locally only, docs/co-editing.md §Stored).
 */
export function checkSaved(path: string, saved: unknown): { version: string; stored: boolean } {
  const version = (saved as { version?: unknown } | null | undefined)?.version;
  const stored = (saved as { stored?: unknown } | null | undefined)?.stored;
  if (typeof version !== "string") {
    const got = saved === null || typeof saved !== "object" ? String(saved) : `{ version: ${JSON.stringify(version) ?? typeof version} }`;
    throw new TypeError(
      `agentpad: storage.save(${JSON.stringify(path)}) resolved ${got}; a StorageProvider's save must resolve to { version: string }. The workspace cannot tell whether it wrote; load the file to check`,
    );
  }
  return { version, stored: stored !== false };
}

/** Default of the `storageTimeoutMs` option. */
const STORAGE_TIMEOUT_MS = 30_000;

/**
 * `promise`, or an Error once `ms` pass first: a storage call that never settles must not hold
 * every later call forever. What it does after that is not awaited.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${what}: the storage did not answer within ${ms} ms (the storageTimeoutMs option); whether it wrote is unknown, load the document to check`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function checkPath(path: unknown, method: string): void {
  if (path !== undefined && path !== null && typeof path !== "string") {
    throw new TypeError(`agentpad: ${method}(path) needs a string path, got ${typeof path}`);
  }
}

export const FREED =
  "agentpad: this Workspace has been freed (free() or Symbol.dispose) and can no longer be used; create a new one with Workspace.create()";
export const FREED_WHILE_WAITING =
  "agentpad: this Workspace was freed (free() or Symbol.dispose) before this call finished; whatever it saved stays saved, nothing else ran";

/** The storageTimeoutMs option, checked: a whole number of ms from 1 to 2^31-1 (setTimeout's limit). */
export function checkTimeout(ms: unknown): number {
  if (ms === undefined) return STORAGE_TIMEOUT_MS;
  if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 1 || ms > 2 ** 31 - 1) {
    throw new TypeError(
      `InvalidArguments: \`storageTimeoutMs\` must be a whole number of ms from 1 to 2147483647 (default ${STORAGE_TIMEOUT_MS}), got ${typeof ms === "number" ? ms : typeof ms}`,
    );
  }
  return ms;
}
