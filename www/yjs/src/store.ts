// The server's files (docs/co-editing.md §What stored means): per document a snapshot
// (`<base>.ydoc`), an append-only log of the updates acknowledged since (`<base>.<n>.ylog`,
// each update fsync'd before the server acknowledges it) and a plain-text copy (`<base>.txt`).
// `<base>` is a readable prefix of the name plus a hash of the whole name: one file per name,
// bounded length (docs/decisions.md §Document names on disk).
import { createHash } from "node:crypto";
import { closeSync, fdatasync, fsyncSync, openSync, writeSync } from "node:fs";
import { mkdir, open, readdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import * as Y from "yjs";

const SNAPSHOT_MAGIC = "agentpad-ydoc 1\n";
const LOG_MAGIC = "agentpad-ylog 1\n";
/** Characters kept from a name in the readable prefix; the rest become `_`. */
const PREFIX_CHARS = /[^A-Za-z0-9._-]/g;
const PREFIX_MAX = 48;

/** The base file name of a document: readable prefix, `-`, 24 hex digits of SHA-256(name). */
export function documentBase(name: string): string {
  const prefix = name.replace(PREFIX_CHARS, "_").slice(0, PREFIX_MAX);
  return `${prefix}-${createHash("sha256").update(name, "utf8").digest("hex").slice(0, 24)}`;
}

/** The encoding before names were hashed: `%` + hex of each UTF-16 unit (not injective). */
export function legacyDocumentFile(directory: string, name: string): string {
  return join(directory, `${name.replace(/[^A-Za-z0-9._-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`)}.ydoc`);
}

/** `<header line><JSON meta>\n<bytes>`: the name travels inside the file. */
function withHeader(magic: string, name: string, body?: Uint8Array): Buffer {
  const head = Buffer.from(`${magic}${JSON.stringify({ name })}\n`, "utf8");
  return body === undefined ? head : Buffer.concat([head, body]);
}

/** Splits a file written by `withHeader`; undefined when it is not one (a legacy snapshot). */
function parseHeader(magic: string, bytes: Buffer): { name: string; body: Buffer } | undefined {
  if (bytes.length < magic.length || bytes.toString("latin1", 0, magic.length) !== magic) return undefined;
  const end = bytes.indexOf(10, magic.length);
  if (end < 0) return undefined;
  const { name } = JSON.parse(bytes.toString("utf8", magic.length, end)) as { name: string };
  return { name, body: bytes.subarray(end + 1) };
}

/** The updates of a log body: `[u32 length][u32 crc32][update]`…, up to the first torn frame. */
function readFrames(body: Buffer): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at + 8 <= body.length) {
    const len = body.readUInt32LE(at);
    const sum = body.readUInt32LE(at + 4);
    if (at + 8 + len > body.length) break;
    const update = body.subarray(at + 8, at + 8 + len);
    if (crc32(update) !== sum) break; // a write the crash cut short: never acknowledged
    out.push(update);
    at += 8 + len;
  }
  return out;
}

function frame(update: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(update.length, 0);
  head.writeUInt32LE(crc32(update), 4);
  return Buffer.concat([head, update]);
}

export interface StoreStatus {
  /** "log": updates are not being acknowledged (held until a write succeeds); "snapshot": they are (the log holds them), the snapshot or text copy is not written. */
  what: "log" | "snapshot";
  error: string;
  /** Epoch milliseconds of the first failure in this run. */
  since: number;
}

export interface FileStoreOptions {
  /** fdatasync each log write before it counts (default true); false: written to the OS only. */
  fsync?: boolean;
  log?: (line: string) => void;
  /** A document's store started failing (a status) or works again (undefined). */
  onStatus?: (name: string, status: StoreStatus | undefined) => void;
}

interface Waiter {
  bytes: Buffer;
  resolve(): void;
}

/** One log file: frames written at known offsets, fdatasync'd in groups (one sync for all the writes that arrived while the previous one ran). */
class Segment {
  fd: number | undefined;
  /** Bytes known good (header + whole frames). */
  size = 0;
  queue: Waiter[] = [];
  busy = false;
  /** The updates in this segment, to carry over those a snapshot misses. */
  updates: Uint8Array[] = [];
  /** Failed attempts in a row (the retry backs off). */
  failures = 0;
  constructor(
    readonly path: string,
    readonly n: number,
  ) {}
}

interface DocState {
  base: string;
  /** Segments read at load or written since, oldest first. */
  segments: Segment[];
  /** The segment taking writes (a new one after each load and each snapshot). */
  current?: Segment;
  next: number;
  /** Loaded from a file in the legacy encoding: set aside once a snapshot replaces it. */
  legacy: boolean;
  status?: StoreStatus;
  retry?: NodeJS.Timeout;
  compacting?: Promise<void>;
}

/** A folder of documents. One server at a time (server.ts takes a lock on the folder). */
export class FileStore {
  readonly fsync: boolean;
  #docs = new Map<string, DocState>();
  #log: (line: string) => void;
  #onStatus: NonNullable<FileStoreOptions["onStatus"]>;

  constructor(
    readonly directory: string,
    options: FileStoreOptions = {},
  ) {
    this.fsync = options.fsync ?? true;
    this.#log = options.log ?? (() => {});
    this.#onStatus = options.onStatus ?? (() => {});
  }

  /** Reads a document into `doc`: its snapshot (or a legacy file) and every logged update. Returns what it read. */
  async load(name: string, doc: Y.Doc): Promise<{ snapshotBytes: number; logged: number; legacy: boolean }> {
    await mkdir(this.directory, { recursive: true });
    const base = documentBase(name);
    const file = join(this.directory, `${base}.ydoc`);
    let snapshotBytes = 0;
    let legacy = false;
    const bytes = await readIfExists(file);
    if (bytes !== undefined) {
      const parsed = parseHeader(SNAPSHOT_MAGIC, bytes);
      if (parsed === undefined) throw new Error(`${file} is not an agentpad snapshot`);
      if (parsed.name !== name) throw new Error(`${file} holds "${parsed.name}", not "${name}"`);
      Y.applyUpdate(doc, parsed.body);
      snapshotBytes = parsed.body.length;
    } else {
      const old = await readIfExists(legacyDocumentFile(this.directory, name));
      if (old !== undefined) {
        Y.applyUpdate(doc, old);
        snapshotBytes = old.length;
        legacy = true;
      }
    }
    const segments: Segment[] = [];
    const prefix = `${base}.`;
    const entries = await readdir(this.directory, { withFileTypes: true });
    for (const entry of entries.filter((e) => e.isFile() && e.name.startsWith(prefix) && e.name.endsWith(".ylog")).map((e) => e.name)) {
      const n = Number(entry.slice(prefix.length, -".ylog".length));
      if (!Number.isInteger(n)) continue;
      const seg = new Segment(join(this.directory, entry), n);
      const parsed = parseHeader(LOG_MAGIC, await readFile(seg.path));
      if (parsed !== undefined && parsed.name !== name) continue; // another name's (a hash collision): not ours to read or drop
      if (parsed !== undefined) seg.updates = readFrames(parsed.body);
      segments.push(seg); // a header cut short holds nothing acknowledged: dropped at the next snapshot
    }
    segments.sort((a, b) => a.n - b.n);
    let logged = 0;
    for (const seg of segments) {
      for (const u of seg.updates) {
        try {
          Y.applyUpdate(doc, u);
          logged++;
        } catch (err) {
          this.#log(`skipped an unreadable update of ${name} in ${seg.path}: ${(err as Error).message}`);
        }
      }
    }
    // Never append after a torn tail: new writes go to a new segment.
    const next = (segments.at(-1)?.n ?? 0) + 1;
    this.#docs.set(name, { base, segments, next, legacy });
    return { snapshotBytes, logged, legacy };
  }

  /** Appends an update to the document's log; resolves once it is on disk. A failing write is retried (with the document reported failing) until it succeeds. */
  append(name: string, update: Uint8Array): Promise<void> {
    const state = this.#docs.get(name);
    if (state === undefined) return Promise.reject(new Error(`document ${name} is not loaded`));
    const seg = state.current ?? this.#newSegment(state);
    seg.updates.push(update);
    return new Promise((resolve) => {
      seg.queue.push({ bytes: frame(update), resolve });
      this.#pump(name, state, seg);
    });
  }

  #newSegment(state: DocState): Segment {
    const seg = new Segment(join(this.directory, `${state.base}.${state.next}.ylog`), state.next);
    state.next++;
    state.segments.push(seg);
    state.current = seg;
    return seg;
  }

  /** Writes what is queued, then one fdatasync for all of it. */
  #pump(name: string, state: DocState, seg: Segment): void {
    if (seg.busy || seg.queue.length === 0) return;
    seg.busy = true;
    const batch = seg.queue.splice(0);
    const start = seg.size;
    try {
      seg.fd ??= openSync(seg.path, "w");
      if (seg.size === 0) {
        const head = withHeader(LOG_MAGIC, name);
        writeSync(seg.fd, head, 0, head.length, 0);
        seg.size = head.length;
      }
      let at = seg.size;
      for (const w of batch) at += writeSync(seg.fd, w.bytes, 0, w.bytes.length, at);
      seg.size = at;
    } catch (err) {
      seg.size = start;
      return this.#failed(name, state, seg, batch, "log", err);
    }
    const done = () => {
      seg.busy = false;
      seg.failures = 0;
      if (state.status?.what === "log") this.#ok(name, state);
      for (const w of batch) w.resolve();
      this.#pump(name, state, seg);
    };
    if (!this.fsync) return done();
    fdatasync(seg.fd, (err) => {
      if (err) {
        seg.size = start; // rewrite the batch: a failed sync may have dropped it
        return this.#failed(name, state, seg, batch, "log", err);
      }
      done();
    });
  }

  #failed(name: string, state: DocState, seg: Segment, batch: Waiter[], what: "log", err: unknown): void {
    seg.queue.unshift(...batch);
    seg.busy = false;
    this.#report(name, state, what, err);
    seg.failures++;
    setTimeout(() => this.#pump(name, state, seg), Math.min(5_000, 50 * 2 ** Math.min(seg.failures, 7))).unref();
  }

  #report(name: string, state: DocState, what: "log" | "snapshot", err: unknown): void {
    const error = err instanceof Error ? err.message : String(err);
    const first = state.status === undefined || state.status.what !== what || state.status.error !== error;
    state.status = { what, error, since: state.status?.since ?? Date.now() };
    if (first) {
      this.#log(
        `store FAILED ${name}: ${what === "log" ? "cannot write its log; updates are held, not acknowledged, until it can" : "cannot write its snapshot; acknowledged updates are safe in its log"}: ${error}`,
      );
      this.#onStatus(name, state.status);
    }
  }

  #ok(name: string, state: DocState): void {
    if (state.status === undefined) return;
    this.#log(`store works again for ${name}`);
    state.status = undefined;
    this.#onStatus(name, undefined);
  }

  /** The document's store failure, if its store is failing now. */
  status(name: string): StoreStatus | undefined {
    return this.#docs.get(name)?.status;
  }

  /** Whether the document is loaded here. */
  has(name: string): boolean {
    return this.#docs.has(name);
  }

  /**
   * Writes the snapshot (and the text copy) of `doc`, then drops the log segments it covers,
   * carrying over any logged update the snapshot misses (one logged but not applied yet).
   * A failure is reported and retried while the document stays loaded.
   */
  compact(name: string, doc: Y.Doc): Promise<void> {
    const state = this.#docs.get(name);
    if (state === undefined) return Promise.resolve();
    const run = async (): Promise<void> => {
      await state.compacting;
      const started = performance.now();
      // Synchronously: what the snapshot holds, and from here on writes go to a new segment.
      const update = Y.encodeStateAsUpdate(doc);
      const covered = Y.snapshot(doc);
      const text = doc.share.has("text") ? doc.getText("text").toString() : undefined;
      const old = state.segments.splice(0);
      this.#newSegment(state);
      try {
        const file = join(this.directory, `${state.base}.ydoc`);
        await writeDurably(file, withHeader(SNAPSHOT_MAGIC, name, update), this.fsync);
        if (text !== undefined) await writeDurably(join(this.directory, `${state.base}.txt`), Buffer.from(text, "utf8"), false);
      } catch (err) {
        state.segments.unshift(...old); // still needed: nothing replaced them (the next snapshot retries)
        this.#report(name, state, "snapshot", err);
        clearTimeout(state.retry);
        state.retry = setTimeout(() => void this.compact(name, doc).catch(() => {}), 1_000);
        state.retry.unref();
        throw err;
      }
      // The snapshot is on disk: the old segments can go, but not an update it does not hold.
      await Promise.all(old.map((seg) => idle(seg)));
      const missed = old.flatMap((seg) => seg.updates).filter((u) => !Y.snapshotContainsUpdate(covered, u));
      await Promise.all(missed.map((u) => this.append(name, u)));
      for (const seg of old) {
        if (seg.fd !== undefined) closeSync(seg.fd);
        await unlink(seg.path).catch((err) => (err as NodeJS.ErrnoException).code === "ENOENT" || Promise.reject(err));
      }
      if (state.legacy) {
        const legacyFile = legacyDocumentFile(this.directory, name);
        await rename(legacyFile, `${legacyFile}.migrated`).catch(() => {});
        state.legacy = false;
      }
      if (state.status?.what === "snapshot") this.#ok(name, state);
      const compacted = old.reduce((n, s) => n + s.updates.length, 0);
      this.#log(
        `stored ${name} (${update.length} bytes, ${compacted} logged update${compacted === 1 ? "" : "s"} compacted) in ${(performance.now() - started).toFixed(1)} ms`,
      );
    };
    const p = run();
    state.compacting = p.catch(() => {});
    return p;
  }

  /** Closes the document's files (after its writes finish); it stays on disk. */
  async release(name: string): Promise<void> {
    const state = this.#docs.get(name);
    if (state === undefined) return;
    this.#docs.delete(name);
    clearTimeout(state.retry);
    await state.compacting;
    for (const seg of state.segments) {
      await idle(seg);
      if (seg.fd !== undefined) closeSync(seg.fd);
      seg.fd = undefined;
    }
  }
}

/** Resolves once the segment has written and synced everything queued so far. */
function idle(seg: Segment): Promise<void> {
  if (!seg.busy && seg.queue.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => (!seg.busy && seg.queue.length === 0 ? resolve() : setTimeout(check, 2));
    check();
  });
}

async function readIfExists(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (err) {
    // A legacy name too long for a file was never stored under it.
    if (["ENOENT", "ENAMETOOLONG"].includes((err as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw err;
  }
}

/** temp file + (fsync) + rename: a crash leaves the old file or the new one, never half of one. */
async function writeDurably(file: string, bytes: Buffer, sync: boolean): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  if (sync) {
    const h = await open(tmp, "w");
    try {
      await h.writeFile(bytes);
      await h.datasync();
    } finally {
      await h.close();
    }
  } else {
    await writeFile(tmp, bytes);
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  if (sync) {
    const dir = openSync(join(file, ".."), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }
}

/** Every document in a folder: its name (from the file's header, or decoded from a legacy file name) and files. */
export async function listDocuments(directory: string): Promise<{ name: string; base: string; legacy: boolean }[]> {
  const out = new Map<string, { name: string; base: string; legacy: boolean }>();
  for (const entry of await readdir(directory)) {
    const m = /^(.*)\.(ydoc|\d+\.ylog)$/.exec(entry);
    if (m === null) continue;
    const bytes = await readFile(join(directory, entry));
    const parsed = parseHeader(entry.endsWith(".ydoc") ? SNAPSHOT_MAGIC : LOG_MAGIC, bytes);
    if (parsed !== undefined) {
      out.set(parsed.name, { name: parsed.name, base: documentBase(parsed.name), legacy: false });
    } else if (entry.endsWith(".ydoc")) {
      // Legacy: `%xx` escapes; read as two-digit codes (the encoding's only reading for names without characters past U+00FF).
      const name = m[1]!.replace(/%([0-9a-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      if (!out.has(name)) out.set(name, { name, base: m[1]!, legacy: true });
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Reads a document from the folder without a server (snapshot + log), for export. */
export async function readDocument(directory: string, name: string): Promise<Y.Doc> {
  const doc = new Y.Doc();
  await new FileStore(directory).load(name, doc);
  return doc;
}
