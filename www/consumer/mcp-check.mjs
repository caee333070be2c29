// @agentpad/mcp as a consumer gets it (run.sh installs both packed tarballs): `npx agentpad-mcp
// --help` runs the bin; the server it starts speaks MCP on stdio (raw JSON-RPC here: the client
// SDK is not a dependency of the package) with the @agentpad/core installed next to it, not one from
// the registry; a replace → select → commit changes the file on disk.
// Prints "consumer-mcp: N passed, N failed".
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAILED: ${name}${detail ? `: ${detail}` : ""}`);
  }
}

try {
  // 1. npx finds the bin; --help prints the usage and the client configuration.
  const help = execFileSync("npx", ["--no-install", "agentpad-mcp", "--help"], { encoding: "utf8" });
  check("npx agentpad-mcp --help", help.includes("Usage: agentpad-mcp --dir <folder>") && help.includes('"mcpServers"'), help);

  // 2. The @agentpad/core it imports is the one installed at the top (the tarball), not a second
  // copy, and the unrelated unscoped `agentpad` of the registry is nowhere in the tree.
  const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
  const resolved = lock.packages?.["node_modules/@agentpad/core"]?.resolved ?? "";
  const strangers = Object.keys(lock.packages ?? {}).filter((k) => /(^|\/)node_modules\/agentpad$/.test(k));
  check("@agentpad/core resolved from the tarball", resolved.startsWith("file:") && !lock.packages?.["node_modules/@agentpad/mcp/node_modules/@agentpad/core"], resolved);
  check("no unscoped `agentpad` package installed", strangers.length === 0, strangers.join(", "));

  // 3. The server on stdio: initialize, replace (3 matches), select B, commit.
  const dir = mkdtempSync(join(tmpdir(), "agentpad-consumer-mcp-"));
  try {
    writeFileSync(join(dir, "notes.md"), "alpha foo\nbeta foo\ngamma foo\n");
    const bin = realpathSync(join("node_modules", ".bin", "agentpad-mcp"));
    const child = spawn(process.execPath, [bin, "--dir", dir], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    const responses = new Map();
    const request = async (id, method, params) => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      for (let i = 0; i < 400 && !responses.has(id); i++) {
        for (const line of out.split("\n")) {
          if (line.trim() === "") continue;
          const message = JSON.parse(line);
          if (message.id !== undefined) responses.set(message.id, message);
        }
        if (!responses.has(id)) await new Promise((r) => setTimeout(r, 25));
      }
      return responses.get(id);
    };
    const init = await request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "consumer", version: "0" } });
    check("initialize", init?.result?.serverInfo?.name === "agentpad-mcp", JSON.stringify(init ?? err));
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    const call = (id, name, args) => request(id, "tools/call", { name, arguments: args });
    const multi = await call(2, "memo_replace", { old_text: "foo", new_text: "bar" });
    check("memo_replace → MultiMatch", multi?.result?.structuredContent?.candidates?.length === 3, JSON.stringify(multi));
    const staged = await call(3, "memo_replace_selection", { selection_id: "B" });
    check("memo_replace_selection → Success", staged?.result?.structuredContent?.status === "Success", JSON.stringify(staged));
    const committed = await call(4, "memo_commit", { summary: "foo → bar on the beta line" });
    check("memo_commit → Success", committed?.result?.structuredContent?.status === "Success", JSON.stringify(committed));
    check("the file changed on disk", readFileSync(join(dir, "notes.md"), "utf8") === "alpha foo\nbeta bar\ngamma foo\n");
    child.stdin.end();
    const code = await exited;
    check("exit 0 when stdin ends", code === 0, `exit ${code}: ${err}`);
    check("stdout is JSON-RPC only", out.split("\n").every((l) => l === "" || JSON.parse(l).jsonrpc === "2.0"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} catch (error) {
  failed++;
  console.log(`FAILED: ${error instanceof Error ? error.stack : error}`);
}
console.log(`consumer-mcp: ${passed} passed, ${failed} failed`);
