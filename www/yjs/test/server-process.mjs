// The collab server as a child process (the bin), for tests that kill it: started on a given
// port, stopped by pid.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const cli = fileURLToPath(new URL("../dist/server-cli.js", import.meta.url));

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `agentpad-collab-server serve` and resolves `{ child, url, stderr(), kill() }` once it
 * prints `ready`; rejects after 10 s or when it exits first. Kill it with `server.kill()` or
 * `kill(server)` (SIGKILL by pid; resolves once it has exited).
 */
export function spawnServer(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      process.kill(child.pid, "SIGKILL");
      reject(new Error(`the server did not print \`ready\` within 10 s; stderr: ${err}`));
    }, 10_000);
    child.stderr.on("data", (d) => (err += d));
    child.stdout.on("data", (d) => {
      out += d;
      const m = /ready (ws:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        const server = { child, url: m[1], stderr: () => err, kill: () => kill(server) };
        resolve(server);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it was ready; stderr: ${err}`));
    });
  });
}

/** SIGKILLs the server (if it runs) and resolves once it is gone. */
export function kill(server) {
  const { child } = server ?? {};
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(child.pid, "SIGKILL");
  return exited;
}
