// A StorageProvider on a directory of the local file system (Node only: exported from node.ts).
import type { FSWatcher, Stats } from "node:fs";
import { COMMIT_ID, GitWorkTree } from "./git.js";
import { commitMessage } from "./git-message.js";
import { nodeBuiltin, requireFromHere } from "./node-builtins.js";
import type { CommitRecord, RecordResult, StorageChange, StorageProvider, StoredAt } from "./types.js";

// Not `import ... from "node:fs"`: its ES-module wrapper costs a cold start about 5 ms
// (node-builtins.ts).
const { constants: fsConstants, readdirSync, watch: fsWatch } = nodeBuiltin("node:fs");
const { access, chmod, lstat, mkdir, open, readdir, readFile, realpath, rename, stat, unlink } = nodeBuiltin("node:fs/promises");
const { basename, dirname, join, resolve, sep } = nodeBuiltin("node:path");

/**
 * The largest file `load` reads: MAX_DOCUMENT_BYTES of workspace.ts (128 MiB), restated rather
 * than imported so that this module stands alone (it loads no wasm; a test runs a copy of it).
 */
const MAX_FILE_BYTES = 128 * 1024 * 1024;

export interface NodeFsStorageOptions {
  /**
   * Quiet time (ms) after the last file-system event for a path before it is reported (default
   * 200). A burst of writes to one file gives one notification.
   */
  debounceMs?: number;
  /**
   * Only files ending with one of these (e.g. `[".md", ".txt"]`; the dot is optional) are listed
   * and reported by `watch`. `load` and `save` accept any path. Default: every file.
   */
  extensions?: string[];
  /**
   * Called with problems the watcher meets in the background (a file it cannot read, a listener
   * that throws, the watch itself failing). Default: `process.emitWarning`.
   */
  onError?: (error: Error) => void;
  /**
   * A save's lock on a file (docs/reliability.md §Locks) older than this many ms, not refreshed
   * by its holder, is taken over: the holder crashed. Default 10,000; at least 2,000. A save
   * waits for a held lock up to 1.5× this long, then rejects naming the lock.
   */
  lockStaleMs?: number;
  /**
   * Git mode (docs/workflow.md#git-mode): the directory must be in a git work tree (else the
   * constructor throws, saying so), and every call that saves becomes one git commit of exactly
   * the files it wrote, the summary as its subject and the changes in its body; the user's other
   * changes, staged or not, stay as they were. `memo_read({ version })` also takes a commit id.
   * Uses the `git` program (its configuration and hooks apply). Default false.
   */
  git?: boolean;
  /** Longest a git command (a commit with its hooks) may take, in ms (default 20,000). */
  gitTimeoutMs?: number;
}

/**
 * Where one recursive `fs.watch` is reliable: the OS watches trees (FSEvents, ReadDirectoryChangesW).
 * Node 20's recursive emulation on Linux watches each file's inode and misses a file replaced by
 * a rename for the second time (every atomic save), so there we watch each directory instead.
 */
const NATIVE_RECURSIVE = process.platform === "darwin" || process.platform === "win32";

/** Suffix of the temporary files `save` writes next to the target before renaming them. */
const TEMP_SUFFIX = ".agentpad-tmp";
/**
 * The names `save` gives its temporary files: `.<target name>.<pid>.<12 hex digits>.agentpad-tmp`.
 * Only files of exactly this shape are ever removed by the sweep (docs/reliability.md §Temporary files).
 */
const TEMP_NAME = /^\.(.+)\.\d+\.[0-9a-f]{12}\.agentpad-tmp$/;
/** Suffix of the lock directory `save` holds next to the target: `.<target name>.agentpad-lock`. */
const LOCK_SUFFIX = ".agentpad-lock";

/**
 * Storages by the real path of their directory: a save through one tells the others at once
 * (their fs.watch would say so only after its debounce, and a workspace would serve the old
 * text meanwhile). Weak: a storage nobody holds any more drops out.
 */
const peersByRoot = new Map<string, Set<WeakRef<NodeFsStorage>>>();

// node:crypto is loaded on the first load or save, not at import: loading it costs about 4 ms of
// a cold start that may never touch a file (MemoryStorage hosts, the CLI's --help).
const nodeCrypto = (): typeof import("node:crypto") => nodeBuiltin("node:crypto");
// proper-lockfile likewise, on the first save or sweep (it loads graceful-fs and signal-exit).
let lockfile: typeof import("proper-lockfile") | undefined;
const properLockfile = (): typeof import("proper-lockfile") =>
  (lockfile ??= requireFromHere()("proper-lockfile") as typeof import("proper-lockfile"));

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The version of some bytes: `"sha256:"` + the first 16 hex digits (64 bits) of their SHA-256.
 * A content hash, not an mtime: touching a file or rewriting the same bytes keeps its version, and
 * the same text has the same version in every NodeFsStorage (and in BrowserStorage).
 */
function versionOf(bytes: Uint8Array): string {
  return `sha256:${nodeCrypto().createHash("sha256").update(bytes).digest("hex").slice(0, 16)}`;
}

function errorCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : undefined;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What a non-regular file is, for refusals ("a named pipe (FIFO)"). */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a named pipe (FIFO)";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/** `0o100444` → `"0444"`. */
function modeString(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

/** 629145600 → "629,145,600". */
const grouped = (n: number): string => n.toLocaleString("en-US");

/** The lock directory of `target`: `.<name>.agentpad-lock` beside it. */
function lockPathOf(target: string): string {
  return join(dirname(target), `.${basename(target)}${LOCK_SUFFIX}`);
}

/**
 * `abs` with every symbolic link of its existing part resolved (the missing rest appended as
 * written) and whether all of it exists. A dangling link counts as missing: a save replaces the
 * link itself, which stays inside the directory.
 */
async function realOf(abs: string): Promise<{ real: string; exists: boolean }> {
  const rest: string[] = [];
  for (let probe = abs; ;) {
    try {
      const real = await realpath(probe);
      return { real: rest.length === 0 ? real : join(real, ...rest), exists: rest.length === 0 };
    } catch (err) {
      const code = errorCode(err);
      const parent = dirname(probe);
      if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === probe) throw err;
      rest.unshift(basename(probe));
      probe = parent;
    }
  }
}

/** Directories `list` and `watch` never enter: dot-directories (`.git`, …) and `node_modules`. */
function skippedDirectory(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

/**
 * Documents are the files of a directory, addressed by relative paths with `/` separators
 * (`"notes.md"`, `"docs/intro.md"`).
 *
 * - **Versions are content hashes**: `"sha256:"` + 16 hex digits of the file's bytes, so an mtime
 *   change alone (touch, a checkout that restores the same bytes) is no change.
 * - `save(path, text, expectedVersion)` takes the file's lock (a directory
 *   `.<name>.agentpad-lock` beside it, `proper-lockfile`: every NodeFsStorage in every process
 *   honours it; a crashed holder's lock is taken over after `lockStaleMs`), re-reads the file and
 *   rejects, writing nothing, unless its hash is still `expectedVersion` (`""`: the file must not
 *   exist). It writes a temporary file in the same directory, flushed, checks the hash once more
 *   and renames the temporary file over the target, keeping the target's permission bits, then
 *   releases the lock. A program that ignores the lock and writes in the instant between that
 *   last check and the rename is overwritten (docs/reliability.md §What remains). Read-only
 *   files (no write bit, checked explicitly: root passes permission checks) are refused, naming
 *   their mode; parent directories are created as needed.
 * - `load` returns the raw text (UTF-8; BOM and line endings as stored) and rejects on bytes that
 *   are not UTF-8, so a binary file is never silently mangled, and on a file larger than
 *   `MAX_DOCUMENT_BYTES` (128 MiB) (checked before reading it).
 * - `load`, `save` resolve symbolic links and refuse a path whose real location is outside the
 *   directory, and anything that is not a regular file (a directory, a FIFO, a device).
 * - Temporary files a killed save left behind (named `.<name>.<pid>.<hex>.agentpad-tmp`, nothing
 *   else) are removed when the storage first opens the directory, unless a save holds the
 *   file's lock.
 * - Storages on the same real directory in one process tell each other of their saves at once.
 * - `list` returns every regular file under the directory, sorted, skipping dot-directories
 *   (`.git`, …), `node_modules`, symbolic links and the storage's own temporary files.
 * - `watch` uses `fs.watch` while anyone listens: one recursive watcher on macOS and Windows, one
 *   watcher per directory elsewhere (Node 20's recursive emulation on Linux loses a file after it
 *   is replaced by a rename), skipping the directories `list` skips. Events are debounced per
 *   path (`debounceMs`, default 200). It reports `{ path, version }` (`version` undefined when the
 *   file was removed) only when the hash differs from the last one this storage loaded, saved or
 *   reported for the path: its own saves do not echo. The watcher does not keep the process alive.
 * - Paths that leave the directory (`..`, absolute paths, `\`) are refused with an Error.
 */
export class NodeFsStorage implements StorageProvider {
  /** Absolute path of the directory. */
  readonly dir: string;
  readonly #debounceMs: number;
  readonly #extensions: string[] | undefined;
  readonly #onError: ((error: Error) => void) | undefined;
  /** Last version loaded, saved or reported per path; null: known to be absent. */
  readonly #known = new Map<string, string | null>();
  /** Per-path queue: saves and watcher checks of one path never interleave. */
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #subscriptions = new Set<{ listener: (change: StorageChange) => void }>();
  readonly #timers = new Map<string, { timer: ReturnType<typeof setTimeout>; first: number }>();
  /** The `fs.watch` watchers by directory ("" for the root) while anyone listens. */
  readonly #watchers = new Map<string, FSWatcher>();
  #watching = false;
  /** Bumped whenever watching stops, so checks already under way do not report afterwards. */
  #generation = 0;
  readonly #lockStaleMs: number;
  /** The sweep and registration of the first list, load or save (see #open). */
  #opening: Promise<string> | undefined;
  readonly #self = new WeakRef(this);
  /** The work tree in git mode. */
  readonly #git: GitWorkTree | undefined;

  constructor(dir: string, options: NodeFsStorageOptions = {}) {
    if (typeof dir !== "string" || dir === "") {
      throw new TypeError(`NodeFsStorage: the directory must be a non-empty string, got ${JSON.stringify(dir)}`);
    }
    const { debounceMs = 200, extensions, onError, lockStaleMs = 10_000, git = false, gitTimeoutMs = 20_000 } = options ?? {};
    if (typeof debounceMs !== "number" || !Number.isFinite(debounceMs) || debounceMs < 0) {
      throw new TypeError(`NodeFsStorage: debounceMs must be a number ≥ 0 (milliseconds), got ${JSON.stringify(debounceMs)}`);
    }
    if (extensions !== undefined && (!Array.isArray(extensions) || extensions.some((e) => typeof e !== "string" || e === ""))) {
      throw new TypeError(
        `NodeFsStorage: extensions must be an array of non-empty strings such as [".md", ".txt"], got ${JSON.stringify(extensions)}`,
      );
    }
    if (onError !== undefined && typeof onError !== "function") {
      throw new TypeError("NodeFsStorage: onError must be a function");
    }
    if (typeof lockStaleMs !== "number" || !Number.isFinite(lockStaleMs) || lockStaleMs < 2000) {
      throw new TypeError(`NodeFsStorage: lockStaleMs must be a number ≥ 2000 (milliseconds), got ${JSON.stringify(lockStaleMs)}`);
    }
    if (typeof git !== "boolean") {
      throw new TypeError(`NodeFsStorage: git must be true or false, got ${JSON.stringify(git)}`);
    }
    if (typeof gitTimeoutMs !== "number" || !Number.isInteger(gitTimeoutMs) || gitTimeoutMs < 1) {
      throw new TypeError(`NodeFsStorage: gitTimeoutMs must be a whole number of milliseconds ≥ 1, got ${JSON.stringify(gitTimeoutMs)}`);
    }
    this.dir = resolve(dir);
    // Checked now, not at the first commit: a folder that is no work tree is refused at once.
    this.#git = git ? new GitWorkTree(this.dir, gitTimeoutMs) : undefined;
    this.#debounceMs = debounceMs;
    this.#extensions = extensions?.map((e) => (e.startsWith(".") ? e : `.${e}`));
    this.#onError = onError;
    this.#lockStaleMs = lockStaleMs;
  }

  async list(): Promise<string[]> {
    await this.#open();
    const paths: string[] = [];
    const walk = async (rel: string): Promise<void> => {
      const abs = rel === "" ? this.dir : join(this.dir, ...rel.split("/"));
      let entries;
      try {
        entries = await readdir(abs, { withFileTypes: true });
      } catch (err) {
        if (rel === "" && errorCode(err) === "ENOENT") {
          throw new Error(`NodeFsStorage: the directory ${this.dir} does not exist; create it or pass another directory`);
        }
        if (rel !== "" && (errorCode(err) === "ENOENT" || errorCode(err) === "ENOTDIR")) return; // removed meanwhile
        throw new Error(`NodeFsStorage: cannot list ${abs}: ${messageOf(err)}`);
      }
      for (const entry of entries) {
        const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!skippedDirectory(entry.name)) await walk(path);
        } else if (entry.isFile() && this.#listed(path)) {
          paths.push(path);
        }
      }
    };
    await walk("");
    return paths.sort();
  }

  /**
   * The file's text and content hash, or undefined when it does not exist. Rejects (reading
   * nothing) when the path's real location is outside the directory, when it is not a regular
   * file (a FIFO, a device, a directory) or larger than `MAX_DOCUMENT_BYTES`, and on bytes that
   * are not UTF-8. Cost: one read and one SHA-256 of the file.
   */
  async load(path: string): Promise<{ text: string; version: string } | undefined> {
    const abs = this.#resolve(path, "load");
    const root = await this.#open();
    return this.#exclusive(path, async () => {
      const { target, exists } = await this.#locate(path, abs, root, "load");
      const bytes = exists ? await this.#read(path, target) : undefined;
      if (bytes === undefined) return undefined;
      let text: string;
      try {
        text = decoder.decode(bytes);
      } catch {
        throw new Error(`NodeFsStorage: "${path}" is not UTF-8 text (${abs}); open only text files (see the extensions option)`);
      }
      const version = versionOf(bytes);
      this.#known.set(path, version);
      return { text, version };
    });
  }

  /**
   * Writes `text` (UTF-8) if the file's content hash is still `expectedVersion` (`""` for a file
   * that must not exist yet); rejects and writes nothing on a mismatch, on a read-only file
   * (naming its mode), on a path whose real location is outside the directory, and on anything
   * that is not a regular file. Resolves to the new hash. Cost: the lock (one mkdir, waiting for
   * another save of the file if one holds it), two reads of the file, one write and fsync.
   */
  async save(path: string, text: string, expectedVersion: string): Promise<{ version: string }> {
    const abs = this.#resolve(path, "save");
    if (typeof text !== "string") {
      throw new TypeError(`NodeFsStorage: save("${path}"): the text must be a string, got ${typeof text}`);
    }
    if (typeof expectedVersion !== "string") {
      throw new TypeError(
        `NodeFsStorage: save("${path}"): expectedVersion must be a string ("" for a new file), got ${typeof expectedVersion}`,
      );
    }
    const root = await this.#open();
    const saved = await this.#exclusive(path, () => this.#save(path, abs, root, text, expectedVersion));
    this.#tellPeers(root, path, saved.version);
    return saved;
  }

  async #save(path: string, abs: string, root: string, text: string, expectedVersion: string): Promise<{ version: string }> {
    const cannot = (why: string) => new Error(`NodeFsStorage: cannot save "${path}" (${abs}): ${why}; the file is unchanged`);
    const located = await this.#locate(path, abs, root, "save");
    const target = located.target;
    if (!located.exists) {
      try {
        await mkdir(dirname(target), { recursive: true });
        // A link put in the way since #locate looked would lead the rename elsewhere.
        if ((await realpath(dirname(target))) !== dirname(target)) throw new Error(`${dirname(target)} became a symbolic link`);
      } catch (err) {
        throw cannot(messageOf(err));
      }
    }
    const lock = await this.#lock(path, abs, target);
    let tmp: string | undefined;
    try {
      // Under the lock: the version check, the write and the rename see no other agentpad save.
      const before = await this.#readIfPresent(path, target);
      const current = before === undefined ? "" : versionOf(before);
      if (current !== expectedVersion) {
        throw new Error(
          before === undefined
            ? `NodeFsStorage: version mismatch for "${path}": expected ${expectedVersion}, but the file does not exist (${abs}); nothing was written`
            : expectedVersion === ""
              ? `NodeFsStorage: version mismatch for "${path}": expected a new file, but it exists with version ${current}; load it first. Nothing was written`
              : `NodeFsStorage: version mismatch for "${path}": expected ${expectedVersion}, the file on disk is ${current} (it changed since it was loaded; load it again). Nothing was written`,
        );
      }
      const mode = before === undefined ? undefined : await this.#writableMode(path, target);
      const bytes = Buffer.from(text, "utf8");
      try {
        tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${nodeCrypto().randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
        const handle = await open(tmp, "wx", mode ?? 0o666);
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        if (mode !== undefined) await chmod(tmp, mode); // open's mode is masked by the umask
      } catch (err) {
        const code = errorCode(err);
        const hint =
          code === "EACCES" || code === "EPERM" || code === "EROFS" ? " (check the permissions of the file and its directory)" : "";
        throw cannot(`${messageOf(err)}${hint}`);
      }
      // The last look before the rename: a program that ignores the lock (an editor) may have
      // saved while the temporary file was written.
      const now = await this.#readIfPresent(path, target);
      if (now === undefined ? before !== undefined : before === undefined || !now.equals(before)) {
        throw new Error(
          `NodeFsStorage: "${path}" changed on disk while it was being saved (${abs}, now ${now === undefined ? "removed" : versionOf(now)}); nothing was written. Load it again`,
        );
      }
      const compromised = lock.compromised();
      if (compromised !== undefined) throw cannot(`the lock ${lock.path} was lost (${compromised.message})`);
      try {
        await rename(tmp, target);
      } catch (err) {
        throw cannot(messageOf(err));
      }
      tmp = undefined;
      const version = versionOf(bytes);
      this.#known.set(path, version);
      return { version };
    } finally {
      if (tmp !== undefined) await unlink(tmp).catch(() => {});
      await lock.release();
    }
  }

  /** Whether git mode is on (the `git` option). */
  get git(): boolean {
    return this.#git !== undefined;
  }

  /**
   * Git mode: one git commit of exactly `commit.paths`, as they are on disk now, with the summary
   * as the subject and the changes in the body (docs/workflow.md#git-mode). Resolves to what
   * happened, for the response. Without git mode, undefined. Cost: one git process (four for a
   * file git does not track yet) and the repository's hooks.
   */
  async afterCommit(commit: CommitRecord): Promise<RecordResult | undefined> {
    const git = this.#git;
    if (git === undefined || commit.paths.length === 0) return undefined;
    const paths = commit.paths.map((p) => (this.#resolve(p, "commit"), p));
    const done = await git.commit(paths, commitMessage(commit));
    if (!done.ok) return { kind: "failed", why: done.why, staged: !done.unstaged };
    if (done.nothing) return { kind: "unchanged" };
    return { kind: "recorded", id: done.id, branch: done.branch };
  }

  /**
   * Git mode: the text of `path` at the commit `version` (4–40 hex digits, short or long), read
   * from git, for `memo_read({ version })`. Undefined when git mode is off or `version` is no
   * commit id; `{ error }` when there is no such commit or file there, or it is not UTF-8.
   */
  async loadAt(path: string, version: string): Promise<StoredAt | undefined> {
    const git = this.#git;
    if (git === undefined || typeof version !== "string" || !COMMIT_ID.test(version)) return undefined;
    try {
      this.#resolve(path, "loadAt");
    } catch (err) {
      return { kind: "failed", why: messageOf(err) };
    }
    const shown = await git.show(path, version);
    if (!shown.ok) return { kind: "failed", why: shown.why };
    let text: string;
    try {
      text = decoder.decode(shown.bytes);
    } catch {
      return { kind: "failed", why: `${path} at git commit ${shown.id.slice(0, 12)} is not UTF-8 text` };
    }
    return { kind: "found", text, id: shown.id, subject: shown.subject };
  }

  /**
   * Subscribe to changes of the files (by other programs, or through another storage object).
   * The first listener starts a recursive `fs.watch` on the directory, the last one to leave
   * stops it. Throws if the directory cannot be watched (e.g. it does not exist).
   */
  watch(listener: (change: StorageChange) => void): () => void {
    if (typeof listener !== "function") {
      throw new TypeError("NodeFsStorage: watch(listener) needs a function");
    }
    if (!this.#watching) this.#start();
    const subscription = { listener };
    this.#subscriptions.add(subscription);
    return () => {
      if (this.#subscriptions.delete(subscription) && this.#subscriptions.size === 0) this.#stop();
    };
  }

  /** Stops watching and drops every listener. The storage stays usable (list, load, save, watch). */
  close(): void {
    this.#subscriptions.clear();
    this.#stop();
  }

  /** The absolute file of `path`, or an Error saying why the path is refused. */
  #resolve(path: string, operation: string): string {
    const refuse = (why: string): never => {
      throw new Error(`NodeFsStorage: ${operation}(${JSON.stringify(path)}) refused: ${why}`);
    };
    if (typeof path !== "string" || path === "") refuse("the path must be a non-empty string relative to the directory");
    if (path.includes("\0")) refuse("the path contains a NUL character");
    if (path.includes("\\")) refuse(`use "/" as the separator (no "\\")`);
    if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) {
      refuse(`absolute paths are not allowed; give a path relative to ${this.dir}`);
    }
    const segments = path.split("/");
    if (segments.includes("..")) refuse(`".." would leave the directory ${this.dir}`);
    if (segments.some((s) => s === "" || s === ".")) {
      refuse(`write the path without empty or "." segments (e.g. "docs/a.md", not "./docs//a.md")`);
    }
    const abs = join(this.dir, ...segments);
    if (!abs.startsWith(this.dir + sep)) refuse(`it resolves outside the directory ${this.dir}`);
    return abs;
  }

  #listed(path: string): boolean {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (name.endsWith(TEMP_SUFFIX)) return false;
    return this.#extensions === undefined || this.#extensions.some((e) => name.endsWith(e));
  }

  /**
   * Where `path` really is: `target` is `abs` with every symbolic link resolved (of the part that
   * exists), `exists` whether the file does. Refuses a target outside the directory's real path
   * and an existing target that is not a regular file.
   */
  async #locate(path: string, abs: string, root: string, operation: string): Promise<{ target: string; exists: boolean }> {
    let located;
    try {
      located = await realOf(abs);
    } catch (err) {
      throw new Error(`NodeFsStorage: cannot ${operation} "${path}" (${abs}): ${messageOf(err)}`);
    }
    const { real: target, exists } = located;
    if (!target.startsWith(root + sep)) {
      throw new Error(
        `NodeFsStorage: ${operation}(${JSON.stringify(path)}) refused: it resolves through a symbolic link to ${target}, outside the directory ${root}`,
      );
    }
    if (exists) {
      let st: Stats;
      try {
        st = await stat(target);
      } catch (err) {
        throw new Error(`NodeFsStorage: cannot ${operation} "${path}" (${abs}): ${messageOf(err)}`);
      }
      if (!st.isFile()) {
        throw new Error(`NodeFsStorage: ${operation}(${JSON.stringify(path)}) refused: ${abs} is ${kindOf(st)}, not a regular file`);
      }
    }
    return { target, exists };
  }

  /**
   * The bytes of the regular file `target`. Opened without blocking and checked on the open
   * handle, so a FIFO swapped in meanwhile is refused rather than waited on, and a file over
   * the size limit is refused before it is read.
   */
  async #read(path: string, target: string): Promise<Buffer> {
    const handle = await open(target, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0)).catch((err: unknown) => {
      throw new Error(`NodeFsStorage: cannot read "${path}" (${target}): ${messageOf(err)}`);
    });
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw new Error(`NodeFsStorage: "${path}" refused: ${target} is ${kindOf(st)}, not a regular file`);
      if (st.size > MAX_FILE_BYTES) {
        throw new Error(
          `NodeFsStorage: "${path}" is ${grouped(st.size)} bytes, over the limit of ${grouped(MAX_FILE_BYTES)} bytes (128 MiB) per document; it was not read (${target})`,
        );
      }
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /** The bytes of `target`, or undefined when it does not exist (any more). */
  async #readIfPresent(path: string, target: string): Promise<Buffer | undefined> {
    try {
      await lstat(target);
    } catch (err) {
      const code = errorCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw new Error(`NodeFsStorage: cannot read "${path}" (${target}): ${messageOf(err)}`);
    }
    return this.#read(path, target);
  }

  /**
   * The permission bits of the existing `target`, refusing a read-only file. The bits are
   * checked as well as access(): root passes access() whatever the mode, and a rename would
   * replace a read-only file without complaint.
   */
  async #writableMode(path: string, target: string): Promise<number> {
    const mode = (await stat(target)).mode & 0o7777;
    let writable = (mode & 0o222) !== 0;
    if (writable)
      writable = await access(target, fsConstants.W_OK).then(
        () => true,
        () => false,
      );
    if (!writable) {
      throw new Error(
        `NodeFsStorage: cannot save "${path}": the file is read-only (mode ${modeString(mode)}, ${target}); nothing was written. Make it writable (chmod u+w) to save it, or save under another name`,
      );
    }
    return mode;
  }

  /**
   * Takes the lock of `target` (docs/reliability.md §Locks): a directory beside it, made with
   * mkdir (atomic on every file system, also across machines), its mtime refreshed while held;
   * one older than lockStaleMs is a crashed holder's and is taken over. Waits for a held lock up
   * to 1.5× lockStaleMs (10 ms between tries, growing to 250 ms); any other failure (a directory
   * that cannot be written) rejects at once.
   */
  async #lock(
    path: string,
    abs: string,
    target: string,
  ): Promise<{ path: string; release: () => Promise<void>; compromised: () => Error | undefined }> {
    const lockPath = lockPathOf(target);
    const waitMs = 1.5 * this.#lockStaleMs;
    const deadline = Date.now() + waitMs;
    let lost: Error | undefined;
    for (let pause = 10; ; pause = Math.min(250, Math.ceil(pause * 1.3))) {
      try {
        const release = await properLockfile().lock(target, {
          realpath: false,
          lockfilePath: lockPath,
          stale: this.#lockStaleMs,
          retries: 0,
          onCompromised: (err: Error) => {
            lost = err;
          },
        });
        return {
          path: lockPath,
          release: () => release().catch(() => {}), // a lost lock has nothing left to release
          compromised: () => lost,
        };
      } catch (err) {
        const code = errorCode(err);
        if (code === "ELOCKED" && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, pause));
          continue;
        }
        const why =
          code === "ELOCKED"
            ? `another save holds its lock ${lockPath} (waited ${grouped(Math.round(waitMs / 1000))} s); if no agentpad process is saving it, remove that directory`
            : `cannot take its lock ${lockPath}: ${messageOf(err)}${code === "EACCES" || code === "EPERM" || code === "EROFS" ? " (check the permissions of the file and its directory)" : ""}`;
        throw new Error(`NodeFsStorage: cannot save "${path}" (${abs}): ${why}; the file is unchanged`);
      }
    }
  }

  /**
   * The directory's real path, once its first list, load or save has swept the temporary files
   * killed saves left and joined the storages of that directory in this process. A directory
   * that does not exist yet is looked at again by the next call.
   */
  #open(): Promise<string> {
    if (this.#opening !== undefined) return this.#opening;
    const opening = (async () => {
      const { real, exists } = await realOf(this.dir).catch(() => ({ real: this.dir, exists: false }));
      if (!exists) {
        this.#opening = undefined;
        return real;
      }
      let peers = peersByRoot.get(real);
      if (peers === undefined) peersByRoot.set(real, (peers = new Set()));
      peers.add(this.#self);
      await this.#sweep(this.dir);
      return real;
    })();
    this.#opening = opening;
    return opening;
  }

  /**
   * Removes the temporary files of saves that were killed: files named like ours whose target's
   * lock nobody holds (a save under way holds it; a crashed one's goes stale). Walks what `list`
   * walks; problems are reported to onError and do not fail the call that opened the storage.
   */
  async #sweep(abs: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const name = entry.name;
      if (entry.isDirectory()) {
        if (!skippedDirectory(name)) await this.#sweep(join(abs, name));
        continue;
      }
      const match = entry.isFile() ? TEMP_NAME.exec(name) : null;
      if (match === null) continue;
      const target = join(abs, match[1]!);
      let release: (() => Promise<void>) | undefined;
      try {
        release = await properLockfile().lock(target, {
          realpath: false,
          lockfilePath: lockPathOf(target),
          stale: this.#lockStaleMs,
          retries: 0,
        });
      } catch {
        continue; // a save holds the lock: the file is its own
      }
      try {
        await unlink(join(abs, name));
      } catch (err) {
        if (errorCode(err) !== "ENOENT")
          this.#report(new Error(`NodeFsStorage: cannot remove the leftover temporary file ${join(abs, name)}: ${messageOf(err)}`));
      } finally {
        await release().catch(() => {});
      }
    }
  }

  /** Tells the other storages on this directory (in this process) of a save at once. */
  #tellPeers(root: string, path: string, version: string): void {
    const peers = peersByRoot.get(root);
    if (peers === undefined) return;
    for (const ref of [...peers]) {
      const peer = ref.deref();
      if (peer === undefined) peers.delete(ref);
      else if (peer !== this) peer.#heard(path, version);
    }
    if (peers.size === 0) peersByRoot.delete(root);
  }

  /** Another storage on this directory saved `path` at `version`. */
  #heard(path: string, version: string): void {
    if (!this.#watching || this.#known.get(path) === version) return;
    this.#known.set(path, version);
    this.#notify({ path, version }, this.#generation);
  }

  /** Runs `task` after every earlier task of `path` (each settles before the next starts). */
  #exclusive<T>(path: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(path) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => {},
      () => {},
    );
    this.#queues.set(path, tail);
    void tail.then(() => {
      if (this.#queues.get(path) === tail) this.#queues.delete(path);
    });
    return result;
  }

  #start(): void {
    this.#watching = true;
    if (NATIVE_RECURSIVE) {
      try {
        this.#watchDirectory("", true);
      } catch (err) {
        this.#stop();
        throw new Error(`NodeFsStorage: cannot watch ${this.dir}: ${messageOf(err)}`);
      }
      return;
    }
    try {
      this.#watchTree("", true);
    } catch (err) {
      this.#stop();
      throw new Error(`NodeFsStorage: cannot watch ${this.dir}: ${messageOf(err)}`);
    }
  }

  #stop(): void {
    this.#generation++;
    this.#watching = false;
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    for (const rel of [...this.#watchers.keys()]) this.#unwatchDirectory(rel);
  }

  /**
   * One `fs.watch` on a directory (`rel` relative to the root, "" for the root itself). Its
   * events name entries of that directory (or, `recursive`, paths under it).
   * persistent: false — an idle watcher does not keep the process alive.
   */
  #watchDirectory(rel: string, recursive: boolean): void {
    if (this.#watchers.has(rel)) return;
    const abs = rel === "" ? this.dir : join(this.dir, ...rel.split("/"));
    const watcher = fsWatch(abs, { recursive, persistent: false }, (_event, filename) => {
      try {
        this.#onEvent(rel, filename);
      } catch (err) {
        this.#report(err);
      }
    });
    watcher.on("error", (err) => {
      // The directory went away (its parent's watcher reports that) or cannot be read any more.
      this.#unwatchDirectory(rel);
      const code = errorCode(err);
      if (code !== "ENOENT" && code !== "EPERM") {
        this.#report(new Error(`NodeFsStorage: watching ${abs} failed: ${messageOf(err)}`));
      }
    });
    this.#watchers.set(rel, watcher);
  }

  /** Watches `rel` and every directory under it that `list` would enter (synchronously). */
  #watchTree(rel: string, root: boolean): void {
    this.#watchDirectory(rel, false);
    const abs = rel === "" ? this.dir : join(this.dir, ...rel.split("/"));
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (err) {
      if (root) throw err;
      const code = errorCode(err);
      if (code !== "ENOENT" && code !== "ENOTDIR") this.#report(new Error(`NodeFsStorage: cannot watch ${abs}: ${messageOf(err)}`));
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !skippedDirectory(entry.name)) {
        const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
        try {
          this.#watchTree(child, false);
        } catch (err) {
          this.#report(new Error(`NodeFsStorage: cannot watch ${join(abs, entry.name)}: ${messageOf(err)}`));
        }
      }
    }
  }

  /** Stops watching `rel` and every directory under it. */
  #unwatchDirectory(rel: string): void {
    for (const [key, watcher] of [...this.#watchers]) {
      if (key === rel || rel === "" || key.startsWith(`${rel}/`)) {
        this.#watchers.delete(key);
        try {
          watcher.close();
        } catch (err) {
          this.#report(err);
        }
      }
    }
  }

  #onEvent(base: string, filename: string | Buffer | null): void {
    if (filename === null || filename === undefined) {
      // The platform did not say which entry: look again at every file we know of under `base`.
      for (const path of this.#known.keys()) {
        if (base === "" || path.startsWith(`${base}/`)) this.#schedule(path);
      }
      return;
    }
    const name = String(filename).split(sep).join("/");
    const path = base === "" ? name : `${base}/${name}`;
    const segments = path.split("/");
    if (segments.some((s) => s === "" || s === "." || s === "..")) return;
    if (segments.slice(0, -1).some(skippedDirectory)) return;
    if (path.endsWith(TEMP_SUFFIX) || path.endsWith(LOCK_SUFFIX)) return;
    this.#schedule(path);
  }

  /** Debounce per path: report `debounceMs` after the last event, or at the latest 10× that after the first. */
  #schedule(path: string): void {
    if (!this.#watching) return;
    const now = Date.now();
    const pending = this.#timers.get(path);
    if (pending !== undefined) clearTimeout(pending.timer);
    const first = pending?.first ?? now;
    const delay = Math.max(0, Math.min(this.#debounceMs, first + 10 * this.#debounceMs - now));
    const generation = this.#generation;
    const timer = setTimeout(() => {
      this.#timers.delete(path);
      this.#exclusive(path, () => this.#check(path, generation)).catch((err) => this.#report(err));
    }, delay);
    timer.unref?.();
    this.#timers.set(path, { timer, first });
  }

  /** Looks at `path` after its events settled and reports it if its content hash changed. */
  async #check(path: string, generation: number): Promise<void> {
    if (generation !== this.#generation) return;
    const abs = join(this.dir, ...path.split("/"));
    let isFile = false;
    let isDirectory = false;
    try {
      const st = await lstat(abs);
      isDirectory = st.isDirectory(); // a link to a directory is not followed
      // A link to a file counts as that file (save writes through it).
      isFile = st.isFile() || (st.isSymbolicLink() && (await stat(abs)).isFile());
    } catch (err) {
      const code = errorCode(err);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
    }
    if (generation !== this.#generation) return;
    if (isDirectory) {
      // A directory created or moved in: look at the files in it (each through its own check).
      const name = path.slice(path.lastIndexOf("/") + 1);
      if (skippedDirectory(name)) return;
      // Watch it first, then look: a file created meanwhile is seen by one or the other.
      if (!NATIVE_RECURSIVE) this.#watchTree(path, false);
      const inside = await this.#filesUnder(abs, path);
      if (generation !== this.#generation) return;
      for (const file of inside) this.#schedule(file);
      return;
    }
    if (!isFile) {
      // Removed (or replaced by something that is not a file), with whatever was under it.
      if (!NATIVE_RECURSIVE) this.#unwatchDirectory(path);
      const gone = [path, ...[...this.#known.keys()].filter((p) => p.startsWith(`${path}/`))];
      for (const p of gone) {
        if (typeof this.#known.get(p) === "string") {
          if (p !== path) {
            this.#schedule(p); // it may still exist if `path` was only renamed away and back
            continue;
          }
          this.#known.set(p, null);
          this.#notify({ path: p, version: undefined }, generation);
        }
      }
      return;
    }
    if (!this.#listed(path) && !this.#known.has(path)) return;
    let bytes: Buffer;
    try {
      bytes = await readFile(abs);
    } catch (err) {
      const code = errorCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") {
        this.#schedule(path); // removed while we looked: look again once it settles
        return;
      }
      throw new Error(`NodeFsStorage: cannot read "${path}" (${abs}) after a change: ${messageOf(err)}`);
    }
    const version = versionOf(bytes);
    if (this.#known.get(path) === version) return;
    this.#known.set(path, version);
    this.#notify({ path, version }, generation);
  }

  async #filesUnder(abs: string, rel: string): Promise<string[]> {
    const files: string[] = [];
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return files; // gone again: its own event says so
    }
    for (const entry of entries) {
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skippedDirectory(entry.name)) files.push(...(await this.#filesUnder(join(abs, entry.name), path)));
      } else if (entry.isFile() && this.#listed(path)) {
        files.push(path);
      }
    }
    return files;
  }

  #notify(change: StorageChange, generation: number): void {
    if (generation !== this.#generation) return;
    for (const { listener } of [...this.#subscriptions]) {
      try {
        listener({ ...change });
      } catch (err) {
        this.#report(err);
      }
    }
  }

  #report(err: unknown): void {
    const error = err instanceof Error ? err : new Error(String(err));
    try {
      if (this.#onError !== undefined) this.#onError(error);
      else process.emitWarning(error.message, { type: "NodeFsStorageWarning", detail: error.stack });
    } catch {
      // A failing error handler must not break the watcher.
    }
  }
}
