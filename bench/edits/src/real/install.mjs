// Installs the peers' real code from their registries, for the real-code runs (docs/editbench.md#real-code-runs):
//   node src/real/install.mjs [--dir target/editbench-peers]
// - aider-chat 0.86.2 (PyPI) into <dir>/venv-aider, without its dependencies (the model clients),
//   plus the three its editblock module imports on the way (oslex, packaging, rich, at aider's pins);
// - openhands-aci 0.3.3 (PyPI, needs Python ≥ 3.12) into <dir>/venv-oh, with its dependencies;
// - @openai/codex 0.171.0 (npm) into <dir>/codex: its native binary applies a patch offline when
//   called as `apply_patch` (no model, no network).
// Run by the bench command (`npm run real-peers`, `./build.sh bench`), never by ./build.sh test.
// A step that cannot be done (no Python 3.12, no network) is reported and its peer left out.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
export const DEFAULT_DIR = resolve(HERE, "../../../../target/editbench-peers");
export const VERSIONS = { aider: "0.86.2", openhands: "0.3.3", codex: "0.171.0" };

/** A Python 3.x with `minor` ≤ x ≤ `max` on PATH or under pyenv (the newest first), or null. */
export function findPython(minor, max) {
  const names = [];
  for (let m = max; m >= minor; m--) names.push(`python3.${m}`);
  names.push("python3");
  const pyenv = join(process.env.PYENV_ROOT ?? join(homedir(), ".pyenv"), "versions");
  for (const n of names) {
    for (const cand of [n, ...(existsSync(pyenv) ? readdirSafe(pyenv).map((v) => join(pyenv, v, "bin", n)) : [])]) {
      try {
        const v = execFileSync(cand, ["-c", "import sys; print(sys.version_info[1])"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, PYENV_VERSION: "" } }).trim();
        if (Number(v) >= minor && Number(v) <= max) return cand;
      } catch {}
    }
  }
  return null;
}

function readdirSafe(d) {
  try {
    return execFileSync("ls", [d], { encoding: "utf8" }).split("\n").filter(Boolean).sort().reverse();
  } catch {
    return [];
  }
}

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", ...opts });

function venv(dir, name, [minor, max], pkgs, noDeps) {
  const py = join(dir, name, "bin", "python");
  const stamp = join(dir, name, "editbench.json");
  const want = JSON.stringify(pkgs);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return { ok: true, python: py, cached: true };
  const base = findPython(minor, max);
  if (!base) return { ok: false, why: `no Python 3.${minor} to 3.${max} found` };
  run(base, ["-m", "venv", "--clear", join(dir, name)]);
  run(py, ["-m", "pip", "install", "-q", "--disable-pip-version-check", ...(noDeps ? ["--no-deps"] : []), ...pkgs], { timeout: 900_000 });
  writeFileSync(stamp, want);
  return { ok: true, python: py, cached: false };
}

/** Installs what is missing; returns { AI, OH, CX } each { ok, python | bin, why }. */
export function install(dir = DEFAULT_DIR, log = (s) => console.log(s)) {
  mkdirSync(dir, { recursive: true });
  const out = {};
  const step = (key, what, f) => {
    const t = performance.now();
    try {
      out[key] = f();
    } catch (e) {
      out[key] = { ok: false, why: String(e.stderr || e.message).trim().split("\n").slice(-1)[0].slice(0, 300) };
    }
    out[key].seconds = (performance.now() - t) / 1000;
    log(`real peers: ${what}: ${out[key].ok ? (out[key].cached ? "cached" : "installed") : `not available (${out[key].why})`} in ${out[key].seconds.toFixed(1)} s`);
  };
  step("AI", `aider-chat ${VERSIONS.aider}`, () => venv(dir, "venv-aider", [10, 12], [`aider-chat==${VERSIONS.aider}`, "oslex==0.1.3", "packaging==26.0", "rich==14.3.2"], true));
  step("OH", `openhands-aci ${VERSIONS.openhands}`, () => venv(dir, "venv-oh", [12, 13], [`openhands-aci==${VERSIONS.openhands}`], false));
  step("CX", `@openai/codex ${VERSIONS.codex}`, () => {
    const prefix = join(dir, "codex");
    const bin = join(prefix, "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex");
    if (process.platform !== "linux" || process.arch !== "x64") return { ok: false, why: "the bench installs the linux-x64 binary only" };
    const link = join(prefix, "apply_patch");
    if (!existsSync(bin)) {
      mkdirSync(prefix, { recursive: true });
      run("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--silent", `@openai/codex@${VERSIONS.codex}`], { timeout: 900_000 });
    }
    if (!existsSync(link)) run("ln", ["-s", bin, link]);
    const v = run(bin, ["--version"]).trim();
    return { ok: true, bin: link, version: v, cached: false };
  });
  return out;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const args = process.argv.slice(2);
  const dir = args.includes("--dir") ? resolve(args[args.indexOf("--dir") + 1]) : DEFAULT_DIR;
  const r = install(dir);
  process.exitCode = Object.values(r).every((x) => x.ok) ? 0 : 1;
}
