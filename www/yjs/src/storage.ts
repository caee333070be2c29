// YjsStorage: agentpad's StorageProvider over Yjs documents (docs/co-editing.md). One Y.Doc per
// path holds a Y.Text "text" with LF line breaks; an index Y.Doc holds a Y.Map "files" of
// path → { eol, bom }, the document list and how each is written back. Any Yjs provider can
// sync the docs (see hocuspocus.ts for Hocuspocus, several documents on one socket).
import * as Y from "yjs";
import type { StorageChange, StorageProvider, TextEdit } from "@agentpad/core";
import {
  applyEdits,
  checkEdits,
  DEFAULT_FORMAT,
  deltaToEdits,
  editBetween,
  joinStored,
  sha256Hex,
  splitStored,
  type TextFormat,
} from "./text.js";

/** The name of the Y.Text of a document doc, and of the index doc's Y.Map. */
export const TEXT_NAME = "text";
export const INDEX_NAME = "files";

/** Where a YjsStorage finds its documents. */
export interface YjsDocuments {
  /** The doc whose Y.Map "files" lists the documents (path → { eol, bom }). Synced before use. */
  readonly index: Y.Doc;
  /**
   * The doc of `path`, synced with its peers (its text is `getText("text")`). Called at most
   * once per path; the storage keeps what it returns.
   */
  open(path: string): Y.Doc | Promise<Y.Doc>;
  /**
   * Resolves true once every local change of `path`'s doc (and of the index) is acknowledged
   * where the docs are kept (a server), false when that does not happen within `ms` — at once
   * when there is no connection. Without it every save counts as stored (docs/co-editing.md §Stored).
   */
  whenStored?(path: string, ms: number): Promise<boolean>;
  /** Whether every local change of `path`'s doc (and of the index) is acknowledged now. */
  isStored?(path: string): boolean;
  /**
   * Why `path` cannot be written (a read-only connection, named with its reason), or undefined.
   * The storage refuses such a save before changing anything.
   */
  readOnly?(path: string): string | undefined;
}

/** A StorageChange with the exact change, when storage knows it (a Yjs event's delta). */
export interface YjsStorageChange extends StorageChange {
  /** The change as edits of the LF text before it (UTF-16 units). */
  edits?: TextEdit[];
}

/**
 * Documents in memory, for one process (tests, a playground page without a server): each path
 * gets a fresh Y.Doc. Link them to peers with any provider, or with `relay`.
 */
export function localDocuments(): YjsDocuments & { docs: Map<string, Y.Doc> } {
  const docs = new Map<string, Y.Doc>();
  return {
    index: new Y.Doc(),
    docs,
    open(path) {
      let doc = docs.get(path);
      if (doc === undefined) docs.set(path, (doc = new Y.Doc()));
      return doc;
    },
  };
}

function formatOf(value: unknown): TextFormat | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const v = value as { eol?: unknown; bom?: unknown };
  const eol = v.eol === "\r\n" || v.eol === "\r" || v.eol === "\n" ? v.eol : "\n";
  return { eol, bom: v.bom === true };
}

/**
 * A StorageProvider over Y.Docs. Versions are content hashes (SHA-256 of the text and its
 * format), computed only in `load` and `save`: the same text has the same version whatever its
 * history. `save` applies the write's edits (the agent's pending changes, exactly) in one
 * transaction whose origin is this storage, so its own commits never come back through `watch`
 * and a person's concurrent edit elsewhere in the text is kept, with their cursor.
 */
export class YjsStorage implements StorageProvider {
  /** Every change `watch` reports carries its exact edits: workspaces rebase over them by default. */
  readonly reportsExactChanges = true;
  readonly #source: YjsDocuments;
  readonly #files: Y.Map<unknown>;
  readonly #docs = new Map<string, Y.Text>();
  readonly #opening = new Map<string, Promise<Y.Text>>();
  readonly #listeners = new Set<(change: YjsStorageChange) => void>();
  #changes = 0;
  readonly #unobserve: (() => void)[] = [];
  /**
   * How long `save` waits for the server to acknowledge a write before it resolves
   * `stored: false` (ms; not at all when there is no connection). A loopback server answers
   * in ~1 ms.
   */
  ackTimeoutMs = 2_000;

  constructor(source: YjsDocuments) {
    if (source === null || typeof source !== "object" || !(source.index instanceof Y.Doc) || typeof source.open !== "function") {
      throw new TypeError("YjsStorage needs { index: Y.Doc, open(path) => Y.Doc } (see localDocuments() or connectHocuspocus())");
    }
    this.#source = source;
    this.#files = source.index.getMap(INDEX_NAME);
    const onIndex = (event: Y.YMapEvent<unknown>, tr: Y.Transaction) => {
      if (tr.origin === this) return;
      for (const [path, change] of event.changes.keys) {
        // A text change reports itself; the index says when a document comes or goes.
        if (change.action === "delete") this.#notify({ path, version: undefined });
        else if (change.action === "add") this.#notify({ path, version: `~${++this.#changes}` });
      }
    };
    this.#files.observe(onIndex);
    this.#unobserve.push(() => this.#files.unobserve(onIndex));
  }

  /** Paths in the index, sorted. Cost: O(documents). */
  async list(): Promise<string[]> {
    return [...this.#files.keys()].sort();
  }

  /** The stored text (format applied) and its hash version; undefined when not in the index. Cost: O(n). */
  async load(path: string): Promise<{ text: string; version: string } | undefined> {
    const format = formatOf(this.#files.get(path));
    if (format === undefined) return undefined;
    const text = await this.text(path);
    const lf = plainText(text, path);
    return { text: joinStored(lf, format), version: versionOf(lf, format) };
  }

  /** Whether every write to `path` is acknowledged where the docs are kept (true without a server). */
  isStored(path: string): boolean {
    return this.#source.isStored?.(path) ?? true;
  }

  /**
   * Writes `text` if the document is still at `expectedVersion` ("" creates one that must not
   * exist), applying `edits` — the write as replacements of the stored LF text — in one
   * transaction. Without edits (an older core, another caller) the write is the one edit between
   * the common prefix and suffix, which is safe only because the version matched. Rejects on a
   * version mismatch, or on edits that do not produce `text` or would split a surrogate pair,
   * and then changes nothing. Cost: O(n) for the hash and the check, plus O(edits) in Yjs.
   */
  async save(
    path: string,
    text: string,
    expectedVersion: string,
    edits?: readonly TextEdit[],
  ): Promise<{ version: string; stored?: boolean }> {
    if (typeof path !== "string" || typeof text !== "string" || typeof expectedVersion !== "string") {
      throw new TypeError(
        `YjsStorage.save(path, text, expectedVersion) needs strings, got ${typeof path}, ${typeof text}, ${typeof expectedVersion}`,
      );
    }
    const ytext = await this.text(path);
    // A read-only connection's writes are never taken by the server: refused before anything
    // changes, so the agent is never told it committed (docs/co-editing.md §Auth).
    const readOnly = this.#source.readOnly?.(path);
    if (readOnly !== undefined) throw new Error(`YjsStorage: "${path}" cannot be written: ${readOnly}. Nothing was changed.`);
    // From here to the end of the transaction nothing awaits: no remote update can land
    // between the version check and the write, nor between the write and the caller learning
    // the version.
    const known = formatOf(this.#files.get(path));
    const current = plainText(ytext, path);
    const { lf, format } = splitStored(text, known ?? DEFAULT_FORMAT);
    const have = known === undefined ? "" : versionOf(current, known);
    const next = versionOf(lf, format);
    if (known === undefined) {
      if (expectedVersion !== "")
        throw new Error(`YjsStorage: version mismatch for "${path}": expected ${expectedVersion}, but the document does not exist`);
      if (current !== "")
        throw new Error(
          `YjsStorage: "${path}" is not in the index but its Y.Text holds ${current.length} units; add it to the index or clear it first`,
        );
    } else if (have !== expectedVersion) {
      throw new Error(
        `YjsStorage: version mismatch for "${path}": expected ${expectedVersion || "a new document"}, storage has ${have} (someone edited it since it was read)`,
      );
    }
    const plan = edits === undefined ? editBetween(current, lf) : edits;
    const bad = checkEdits(current, plan);
    if (bad !== undefined) throw new Error(`YjsStorage: the write's edits for "${path}" cannot be applied: ${bad}. Nothing was changed.`);
    if (applyEdits(current, plan) !== lf) {
      throw new Error(
        `YjsStorage: the write's edits for "${path}" do not produce the text to save (they were made for another text). Nothing was changed.`,
      );
    }
    const doc = ytext.doc;
    if (doc === null) throw new Error(`YjsStorage: the Y.Text of "${path}" belongs to no Y.Doc`);
    doc.transact(() => {
      for (let i = plan.length - 1; i >= 0; i--) {
        const e = plan[i]!;
        if (e.to > e.from) ytext.delete(e.from, e.to - e.from);
        if (e.insert !== "") ytext.insert(e.from, e.insert);
      }
    }, this);
    if (known === undefined || known.eol !== format.eol || known.bom !== format.bom) {
      this.#source.index.transact(() => this.#files.set(path, { eol: format.eol, bom: format.bom }), this);
    }
    // Written locally; stored once the server acknowledges it (docs/co-editing.md §Stored).
    const stored = this.#source.whenStored === undefined ? true : await this.#source.whenStored(path, this.ackTimeoutMs);
    return stored ? { version: next } : { version: next, stored: false };
  }

  /** Removes `path` from the index and empties its text (one transaction each). Returns whether it existed. */
  async remove(path: string): Promise<boolean> {
    if (!this.#files.has(path)) return false;
    const ytext = await this.text(path);
    ytext.doc?.transact(() => ytext.delete(0, ytext.length), this);
    this.#source.index.transact(() => this.#files.delete(path), this);
    return true;
  }

  /**
   * Changes made by anyone but this storage: `{ path, version, edits }`, where `version` is a
   * cheap marker (the hash is computed on load) and `edits` the exact change of the text. Only
   * documents this storage has opened report text changes. Returns the unsubscribe function.
   */
  watch(listener: (change: YjsStorageChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** The Y.Text of `path` (opening its doc once), e.g. to bind an editor to it. */
  text(path: string): Promise<Y.Text> {
    const open = this.#docs.get(path);
    if (open !== undefined) return Promise.resolve(open);
    let opening = this.#opening.get(path);
    if (opening === undefined) {
      opening = Promise.resolve(this.#source.open(path)).then((doc) => {
        if (!(doc instanceof Y.Doc)) throw new TypeError(`YjsStorage: open(${JSON.stringify(path)}) returned ${typeof doc}, not a Y.Doc`);
        const ytext = doc.getText(TEXT_NAME);
        const onText = (event: Y.YTextEvent, tr: Y.Transaction) => {
          if (tr.origin === this) return; // our own commit: never echoed
          this.#notify({ path, version: `~${++this.#changes}`, edits: deltaToEdits(event.delta as never) });
        };
        ytext.observe(onText);
        this.#unobserve.push(() => ytext.unobserve(onText));
        this.#docs.set(path, ytext);
        this.#opening.delete(path);
        return ytext;
      });
      opening.catch(() => this.#opening.delete(path));
      this.#opening.set(path, opening);
    }
    return opening;
  }

  /** Stops observing the docs (they stay open: their owner destroys them). */
  destroy(): void {
    for (const off of this.#unobserve.splice(0)) off();
    this.#listeners.clear();
  }

  #notify(change: YjsStorageChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}

/**
 * The text of `ytext`, refusing one that holds an embed or a nested type (an image, a formula):
 * `toString()` leaves those out while Yjs positions count them, so an edit made against the
 * string would land beside its place (docs/co-editing.md §Layout). Cost: O(n); the delta is
 * walked only when the lengths differ.
 */
function plainText(ytext: Y.Text, path: string): string {
  const s = ytext.toString();
  if (s.length === ytext.length) return s;
  let at = 0;
  for (const op of ytext.toDelta() as { insert?: unknown }[]) {
    if (typeof op.insert === "string") {
      at += op.insert.length;
      continue;
    }
    let what: string;
    try {
      what =
        op.insert instanceof Y.AbstractType
          ? `a nested ${op.insert.constructor.name}`
          : `the embed ${JSON.stringify(op.insert)?.slice(0, 80)}`;
    } catch {
      what = "an embed";
    }
    throw new Error(
      `YjsStorage: "${path}" holds ${what} at offset ${at} of its text; agentpad edits plain text only and does not open or write it (an edit would land beside its place)`,
    );
  }
  throw new Error(
    `YjsStorage: "${path}" holds ${ytext.length - s.length} units that are not text (embeds); agentpad edits plain text only`,
  );
}

/** "y" + 24 hex digits of the SHA-256 of the format and the LF text. Cost: O(n). */
function versionOf(lf: string, format: TextFormat): string {
  const hex = sha256Hex(`${format.eol === "\n" ? "lf" : format.eol === "\r\n" ? "crlf" : "cr"}${format.bom ? "+bom" : ""}\0${lf}`);
  return `y${hex.slice(0, 24)}`;
}
