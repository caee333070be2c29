// The peers' real code as benchmark peers: the same `apply(doc, attempt, ctx)` as the emulations in
// ../peers/, synchronous, so the agent policy, the dry runs and the scorer treat real code and
// emulation alike (docs/editbench.md#real-code-runs).
// - AI and OH: bench/edits/src/real/bridge.py in the venv made by install.mjs, one long-lived
//   process per peer, spoken to through two named pipes (a synchronous request and answer);
// - CX: the Codex binary called as `apply_patch` with a patch in its own format (an Update File
//   hunk: the attempt's unchanged lines as context, its removed and added lines, and in duplicate
//   cases the anchor line as `@@` context), on a copy of the document in a scratch folder.
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { diffArrays } from "diff";
import { applied, error } from "../peers/common.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));

/** One bridge process for one peer, with a synchronous `call(request) → answer`. */
function bridge(python, peer) {
  const dir = mkdtempSync(join(tmpdir(), `editbench-${peer}-`));
  const req = join(dir, "req");
  const res = join(dir, "res");
  execFileSync("mkfifo", [req, res]);
  const child = spawn(python, [join(HERE, "bridge.py"), "--in", req, "--out", res, peer], { stdio: ["ignore", "ignore", "inherit"] });
  child.unref();
  const w = openSync(req, "w");
  const r = openSync(res, "r");
  let pending = "";
  const buf = Buffer.alloc(1 << 16);
  const line = () => {
    const chunks = [];
    for (;;) {
      const nl = pending.indexOf("\n");
      if (nl !== -1) {
        const out = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        return out;
      }
      const n = readSync(r, buf, 0, buf.length, null);
      if (n === 0) throw new Error(`the ${peer} bridge exited`);
      chunks.push(buf.subarray(0, n).toString("latin1"));
      pending += chunks.pop();
    }
  };
  // Bytes are gathered as latin1 and decoded as UTF-8 per line, so a character split between two
  // reads is put back together.
  const readLine = () => Buffer.from(line(), "latin1").toString("utf8");
  const ready = JSON.parse(readLine());
  if (!ready.ready?.includes(peer)) throw new Error(`the ${peer} bridge did not start`);
  return {
    call(request) {
      writeSync(w, JSON.stringify(request) + "\n");
      return JSON.parse(readLine());
    },
    close() {
      closeSync(w);
      closeSync(r);
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function viaBridge(b, peer) {
  return {
    apply(doc, attempt, { path }) {
      const a = b.call({ peer, name: path, doc, old_text: attempt.old_text, new_text: attempt.new_text });
      return a.kind === "applied" ? applied(a.doc, a.message) : error(a.message);
    },
  };
}

const toLines = (s) => {
  if (s === "") return [];
  const l = s.split("\n");
  if (l.length > 1 && l[l.length - 1] === "") l.pop();
  return l;
};

/** The attempt as Codex's own patch format: one Update File hunk with context lines. */
export function codexPatch(path, attempt, anchor) {
  const out = ["*** Begin Patch", `*** Update File: ${path}`, anchor ? `@@ ${anchor}` : "@@"];
  for (const part of diffArrays(toLines(attempt.old_text), toLines(attempt.new_text))) {
    const mark = part.added ? "+" : part.removed ? "-" : " ";
    for (const l of part.value) out.push(mark + l);
  }
  out.push("*** End Patch");
  return out.join("\n") + "\n";
}

function codex(bin) {
  return {
    apply(doc, attempt, { path, disambiguation }) {
      const dir = mkdtempSync(join(tmpdir(), "editbench-CX-"));
      try {
        const file = join(dir, path);
        writeFileSync(file, doc);
        const p = spawnSync(bin, [codexPatch(path, attempt, disambiguation?.anchor_line_text)], { cwd: dir, encoding: "utf8", timeout: 60_000 });
        const message = `${p.stdout ?? ""}${p.stderr ?? ""}`.split(`${dir}/`).join("").trim();
        const after = readFileSync(file, "utf8");
        return p.status === 0 ? applied(after, message) : error(message || `apply_patch exited with ${p.status ?? p.signal}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The real peers that `installed` (install.mjs's answer) makes available, keyed like PEERS. */
export function realPeers(installed) {
  const out = {};
  const closers = [];
  for (const key of ["AI", "OH"]) {
    if (!installed[key]?.ok) continue;
    const b = bridge(installed[key].python, key);
    closers.push(b);
    out[key] = viaBridge(b, key);
  }
  if (installed.CX?.ok) out.CX = codex(installed.CX.bin);
  return { peers: out, close: () => closers.forEach((b) => b.close()) };
}
