// @agentpad/mcp as a consumer gets it (run.sh installs both packed tarballs): `npx agentpad-mcp
// --help` runs the bin; the server it starts speaks MCP on stdio (raw JSON-RPC here: the client
// SDK is not a dependency of the package) with the @agentpad/core installed next to it, not one from
// the registry; a replace → select → commit changes the file on disk. A result is the Markdown
// only (the facts are read from its header and candidate list, as the model reads them);
// --structured-content adds the Response as structuredContent.
// Prints "consumer-mcp: N passed, N failed".
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let passed = 0;
let failed = 0;
/** The Markdown of a tools/call response (its one text block), or "". */
const textOf = (response) => response?.result?.content?.[0]?.text ?? "";
/** The `status: \`X\`` of the Markdown header. */
const statusOf = (response) => /^status: `(\w+)`\n/.exec(textOf(response))?.[1];
/** The candidate letters of the `### [Target]` section (`- [A] …`). */
const lettersOf = (response) => {
  const section = textOf(response).split("### [Target] ")[1]?.split("\n### ")[0] ?? "";
  return [...section.matchAll(/^- \[([A-Z]+)\] /gm)].map((m) => m[1]).join("");
};

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

  // 3. The server on stdio: initialize, replace (3 matches), select B, commit; then a replace with
  // --structured-content.
  const dir = mkdtempSync(join(tmpdir(), "agentpad-consumer-mcp-"));
  try {
    writeFileSync(join(dir, "notes.md"), "alpha foo\nbeta foo\ngamma foo\n");
    const bin = realpathSync(join("node_modules", ".bin", "agentpad-mcp"));
    /** The bin on `dir` with `flags`, initialized; `call(id, name, args)` is one tools/call. */
    const serve = async (...flags) => {
      const child = spawn(process.execPath, [bin, "--dir", dir, ...flags], { stdio: ["pipe", "pipe", "pipe"] });
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
      check(`initialize ${flags.join(" ")}`, init?.result?.serverInfo?.name === "agentpad-mcp", JSON.stringify(init ?? err));
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      const call = (id, name, args) => request(id, "tools/call", { name, arguments: args });
      const end = async () => {
        child.stdin.end();
        const code = await exited;
        check(`exit 0 when stdin ends ${flags.join(" ")}`, code === 0, `exit ${code}: ${err}`);
        check(`stdout is JSON-RPC only ${flags.join(" ")}`, out.split("\n").every((l) => l === "" || JSON.parse(l).jsonrpc === "2.0"));
      };
      return { call, end };
    };

    // By default a result is the Markdown only.
    const plain = await serve();
    const multi = await plain.call(2, "memo_replace", { old_text: "foo", new_text: "bar" });
    check("memo_replace → MultiMatch, candidates A–C", statusOf(multi) === "MultiMatch" && lettersOf(multi) === "ABC", JSON.stringify(multi));
    check("a result is the Markdown only", JSON.stringify(Object.keys(multi?.result ?? {}).sort()) === '["content","isError"]', JSON.stringify(multi));
    const staged = await plain.call(3, "memo_replace_selection", { selection_id: "B" });
    check("memo_replace_selection → Success", statusOf(staged) === "Success", JSON.stringify(staged));
    const committed = await plain.call(4, "memo_commit", { summary: "foo → bar on the beta line" });
    check("memo_commit → Success", statusOf(committed) === "Success", JSON.stringify(committed));
    check("the file changed on disk", readFileSync(join(dir, "notes.md"), "utf8") === "alpha foo\nbeta bar\ngamma foo\n");
    await plain.end();

    // --structured-content adds the Response.
    const structured = await serve("--structured-content");
    const again = await structured.call(2, "memo_replace", { old_text: "foo", new_text: "baz" });
    const response = again?.result?.structuredContent;
    check(
      "--structured-content: the Response as structuredContent",
      response?.status === "MultiMatch" && response?.workflow_state === "SelectionPending" && response?.candidates?.map((c) => c.id).join("") === "AB" && response?.markdown === textOf(again),
      JSON.stringify(again),
    );
    await structured.end();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} catch (error) {
  failed++;
  console.log(`FAILED: ${error instanceof Error ? error.stack : error}`);
}
console.log(`consumer-mcp: ${passed} passed, ${failed} failed`);
