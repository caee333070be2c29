// Git behind NodeFsStorage's commits (docs/workflow.md#git-mode): the `git` program, run without a
// shell and with a time limit (docs/decisions.md#git-mode-runs-the-git-program). Node only.
import { nodeBuiltin } from "./node-builtins.js";

// Taken on first use: a storage without git never pays for it.
const cp = (): typeof import("node:child_process") => nodeBuiltin("node:child_process");

/** A git commit id as `memo_read({ version })` accepts one: 4 to 40 hex digits. */
export const COMMIT_ID = /^[0-9a-f]{4,40}$/i;

/** The largest file `show` reads: the storage's per-document limit (128 MiB). */
const MAX_SHOW_BYTES = 128 * 1024 * 1024;

/**
 * The environment of every git run: no prompt, no editor, no pager, pathspecs taken literally
 * (a file named `*.md` is that file), and git's messages in English (LC_MESSAGES=C) so that its
 * refusals can be recognised. Everything else is the user's: configuration, hooks, and the
 * character set and formats of their locale (an LC_ALL is spread over the other categories,
 * since it would override LC_MESSAGES).
 */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_TERMINAL_PROMPT: "0",
    GIT_EDITOR: "true",
    GIT_PAGER: "cat",
    GIT_LITERAL_PATHSPECS: "1",
  };
  const all = env.LC_ALL;
  if (all !== undefined && all !== "") {
    for (const category of ["LC_CTYPE", "LC_COLLATE", "LC_NUMERIC", "LC_TIME", "LC_MONETARY"]) env[category] = all;
  }
  delete env.LC_ALL;
  delete env.LANGUAGE;
  env.LC_MESSAGES = "C";
  return env;
}

export interface GitRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** Set when git was killed for taking longer than the time limit. */
  timedOut: boolean;
}

/** Stderr's last meaningful lines, for a message ("fatal: …", a hook's own words). */
export function gitWhy(run: GitRun): string {
  const lines = run.stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (run.timedOut) return lines.at(-1) ?? "git did not finish in time and was stopped";
  const text = lines.slice(-6).join(" ⏎ ");
  return text === "" ? `git exited with status ${run.code}` : text;
}

/** What `GitWorkTree.commit` came to. */
export type GitCommitResult = { ok: true; id: string; branch: string; nothing: boolean } | { ok: false; why: string; unstaged: boolean };

const notWorkTree = (dir: string): Error =>
  new Error(
    `NodeFsStorage: option git: ${dir} is inside a git repository but not in a work tree (a bare repository or a .git folder); serve a folder of a checkout, or leave the option out`,
  );

/**
 * A git work tree, checked when it is made: `new GitWorkTree(dir)` throws, naming the folder and
 * what to do, when `git` is not installed or `dir` is not inside a work tree (a bare repository,
 * a `.git` folder, no repository at all).
 */
export class GitWorkTree {
  /** The folder git runs in (the storage's directory). */
  readonly dir: string;
  /** The top of the work tree. */
  readonly top: string;
  readonly timeoutMs: number;
  /** Commits of this process run one at a time (git's index lock refuses a second at once). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(dir: string, timeoutMs: number) {
    this.dir = dir;
    this.timeoutMs = timeoutMs;
    // A missing folder would look like a missing git below (spawn's ENOENT names no culprit).
    if (!nodeBuiltin("node:fs").statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new Error(
        `NodeFsStorage: option git: the directory ${dir} does not exist, so it is no git work tree; create it inside a checkout, or leave the option out`,
      );
    }
    let out: string;
    try {
      out = cp().execFileSync("git", ["rev-parse", "--is-inside-work-tree", "--show-toplevel"], {
        cwd: dir,
        env: gitEnv(),
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: timeoutMs,
      });
    } catch (err) {
      const e = err as { code?: string; stderr?: string; message?: string };
      if (e.code === "ENOENT") {
        throw new Error(
          `NodeFsStorage: option git needs the git program, which was not found on PATH; install git or leave the option out`,
        );
      }
      const why = (e.stderr ?? e.message ?? "").trim().split("\n")[0] ?? "";
      if (/must be run in a work tree/.test(why)) throw notWorkTree(dir);
      throw new Error(
        `NodeFsStorage: option git: ${dir} is not in a git work tree (${why}); run \`git init\` there first, or leave the option out`,
      );
    }
    const [inside, top] = out.trim().split("\n");
    if (inside !== "true" || top === undefined || top === "") throw notWorkTree(dir);
    this.top = top;
  }

  /**
   * Runs git with `args` in the folder: never throws, never through a shell, stdin closed.
   * After the time limit git is killed with everything it started (its process group: a hook
   * that hangs holds git's output pipes open, and waiting for them would not be bounded).
   * Output past `maxBytes` (default 16 MiB) is a failure too.
   */
  run(args: string[], options: { maxBytes?: number } = {}): Promise<GitRun> {
    const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    return new Promise((resolve) => {
      const group = process.platform !== "win32";
      const child = cp().spawn("git", args, {
        cwd: this.dir,
        env: gitEnv(),
        stdio: ["ignore", "pipe", "pipe"],
        detached: group,
        windowsHide: true,
      });
      const out: Buffer[] = [];
      let outBytes = 0;
      let err = "";
      let timedOut = false;
      let failure = "";
      const kill = (): void => {
        try {
          if (group && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
          else child.kill("SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        failure = `git did not finish within ${this.timeoutMs} ms (gitTimeoutMs) and was stopped, with the hooks it ran; if it left an index.lock in the repository's git folder, git refuses to work until that file is removed`;
        kill();
      }, this.timeoutMs);
      child.stdout.on("data", (chunk: Buffer) => {
        outBytes += chunk.length;
        if (outBytes > maxBytes) {
          if (failure === "") failure = `git wrote more than ${maxBytes} bytes`;
          kill();
        } else out.push(chunk);
      });
      child.stderr.on("data", (chunk: Buffer) => {
        if (err.length < 64 * 1024) err += chunk.toString("utf8");
      });
      child.on("error", (e) => {
        failure = e.message; // git could not be started (removed since the storage was made)
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        const ok = failure === "" && !timedOut;
        resolve({ code: ok ? code : null, stdout: Buffer.concat(out), stderr: failure === "" ? err : `${err}\n${failure}`, timedOut });
      });
    });
  }

  /**
   * One commit of exactly `paths` (relative to the folder) as they are on disk, with `message`:
   * `git commit --only -- paths`, which commits those paths' files and nothing else, so whatever
   * else the user staged or changed stays as it was, staged or not (a path git does not track
   * yet is `git add`ed first). Hooks and the user's configuration apply. Resolves to the
   * commit's (short) id and branch ("" when git's output did not say; `nothing`: no commit was
   * needed, the files are as HEAD has them), or to the reason it failed: nothing committed and
   * the index as it was (`unstaged: false` when taking an added file out again failed too).
   * Cost: one git process and the hooks; four for a file git does not track yet.
   */
  commit(paths: string[], message: string): Promise<GitCommitResult> {
    const run = this.#queue.then(() => this.#commit(paths, message));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #commit(paths: string[], message: string): Promise<GitCommitResult> {
    // Another process's git holds the index lock for a moment, or committed between this
    // commit's reading HEAD and moving it (git refuses the move, committing nothing): try again,
    // on the new HEAD, within the limit.
    const deadline = Date.now() + this.timeoutMs;
    const locked = (r: GitRun) =>
      r.code !== 0 && /index\.lock'?: File exists|cannot lock ref 'HEAD': is at [0-9a-f]+ but expected/.test(r.stderr);
    const retrying = async (args: string[]): Promise<GitRun> => {
      for (let pause = 20; ; pause = Math.min(500, pause * 2)) {
        const r = await this.run(args);
        if (!locked(r) || Date.now() + pause > deadline) return r;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    };
    const commit = () => retrying(["commit", "--only", "--no-edit", "-m", message, "--", ...paths]);
    let done = await commit();
    let added: string[] = [];
    if (done.code !== 0 && /did not match any file\(s\) known to git/.test(done.stderr)) {
      // A file git does not track yet (one memo_create made): staged for this commit only, and
      // taken out of the index again if no commit follows, so the index is as it was.
      const untracked = await this.run(["ls-files", "-z", "--others", "--", ...paths]);
      added = untracked.stdout
        .toString("utf8")
        .split("\0")
        .filter((p) => p !== "");
      if (added.length > 0) {
        const add = await retrying(["add", "--", ...added]);
        if (add.code !== 0) return { ok: false, why: `git add failed: ${gitWhy(add)}`, unstaged: await this.#unstage(added, retrying) };
        done = await commit();
      }
    }
    if (done.code !== 0) {
      const out = done.stdout.toString("utf8");
      // The saved text is what HEAD has already (an edit undone by hand): no commit to make.
      if (/nothing (added )?to commit|no changes added to commit/.test(out + done.stderr))
        return { ok: true, id: "", branch: "", nothing: true };
      return { ok: false, why: `git commit failed: ${gitWhy(done)}`, unstaged: await this.#unstage(added, retrying) };
    }
    // "[main 1a2b3c4] subject" or "[main (root-commit) 1a2b3c4] subject": git's short id, long
    // enough to be unique (asking for the full one would cost one more process per commit).
    const m = /^\[(.+?)(?: \(root-commit\))? ([0-9a-f]{4,40})\]/m.exec(done.stdout.toString("utf8"));
    return m === null ? { ok: true, id: "", branch: "", nothing: false } : { ok: true, id: m[2]!, branch: m[1]!, nothing: false };
  }

  /** Takes the files `git add` staged for a commit that did not happen out of the index again. */
  async #unstage(added: string[], retrying: (args: string[]) => Promise<GitRun>): Promise<boolean> {
    if (added.length === 0) return true;
    return (await retrying(["rm", "--cached", "-q", "--", ...added])).code === 0;
  }

  /**
   * The bytes of `path` (relative to the folder) at commit `id` (4–40 hex digits), its full
   * id and subject; or why not: no such commit, an ambiguous short id, no such file there.
   */
  async show(path: string, id: string): Promise<{ ok: true; bytes: Buffer; id: string; subject: string } | { ok: false; why: string }> {
    if (!COMMIT_ID.test(id)) return { ok: false, why: `"${id}" is not a git commit id (4 to 40 hex digits)` };
    const found = await this.run(["log", "-1", "--format=%H%n%s", `${id}^{commit}`, "--"]);
    if (found.code !== 0) {
      const ambiguous = /ambiguous/.test(found.stderr);
      return {
        ok: false,
        why: ambiguous ? `the short id ${id} names several objects; give more of its digits` : `the repository has no commit ${id}`,
      };
    }
    const [full = id, subject = ""] = found.stdout.toString("utf8").split("\n");
    const shown = await this.run(["show", `${full}:./${path}`], { maxBytes: MAX_SHOW_BYTES });
    if (shown.code !== 0) {
      return {
        ok: false,
        why: /exists on disk, but not in|does not exist in|not in '/.test(shown.stderr)
          ? `${path} is not in commit ${full.slice(0, 12)}`
          : gitWhy(shown),
      };
    }
    return { ok: true, bytes: shown.stdout, id: full, subject };
  }
}
