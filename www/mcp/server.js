// agentpad-mcp: the agentpad workspace of one folder as an MCP server (the official MCP TypeScript
// SDK v2, @modelcontextprotocol/server). The bin (bin/agentpad-mcp.js) connects it to stdio; tests
// connect it in memory. Nothing here writes to stdout: that is the protocol's channel.

import { readFileSync } from "node:fs";
import { McpServer, fromJsonSchema } from "@modelcontextprotocol/server";
import { CORE_OPTIONS, MAX_DOCUMENT_BYTES, MemoryStorage, NodeFsStorage, Workspace } from "@agentpad/core";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));

/** How many skipped files are named on stderr; the rest are counted. */
const MAX_SKIP_NOTES = 10;

/** The version of this package (and of the agentpad it is released with). */
export const VERSION = version;

/**
 * The SDK validates a call's arguments against the registered schema before the handler runs,
 * and answers a mismatch with a bare error text. agentpad checks every argument itself and
 * answers `InvalidArguments` with what to fix and the tools to call next (and the call is in the
 * session log): so the schema is advertised as the core defines it, and the check is left to
 * agentpad.
 * @type {import("@modelcontextprotocol/server").jsonSchemaValidator}
 */
const agentpadValidates = {
  getValidator: () => (input) => ({ valid: true, data: /** @type {any} */ (input), errorMessage: undefined }),
};

/**
 * The server's own options; the workspace's (persistMode, locale, toolPrefix, candidateStyle, …:
 * docs/options.md) are taken beside them.
 * @typedef {AgentpadServerOwnOptions & import("@agentpad/core").CoreOptions} AgentpadServerOptions
 */

/**
 * @typedef {object} AgentpadServerOwnOptions
 * @property {string} dir The folder: every document is a file under it; paths leaving it are refused.
 * @property {string[]} [extensions] Only files ending with one of these (".md", ".txt", …) are opened. Default: every file.
 * @property {boolean} [git] Git mode (docs/workflow.md#git-mode): `dir` must be in a git work tree
 *   (else the server does not start), and every call that saves is also one git commit of exactly
 *   the files it wrote; `memo_read({ version })` also takes a commit id. Not with `collab`.
 * @property {boolean} [visibleOnly] List only the tools the workflow state offers, enabling and
 *   disabling them after each call (`notifications/tools/list_changed`). Default false: every tool
 *   the configuration enables is listed all the time — the list a client caches never changes,
 *   and a call the state does not offer gets agentpad's `Blocked` answer saying what to do instead.
 * @property {boolean} [structuredContent] Add the whole Response (status, workflow_state,
 *   candidates, …) to each result as `structuredContent`, for clients that are programs. Default
 *   false: a result is the Markdown only, because some clients (Claude Code) hand the model
 *   `JSON.stringify(structuredContent)` instead of the text, 4–5 times its tokens, and others
 *   forward both (docs/decisions.md#mcp-results-carry-the-markdown-only).
 * @property {(line: string) => void} [log] Where notes go (default: stderr).
 * @property {{ url: string, room: string, token?: string, name?: string }} [collab] Serve the documents of a
 *   Hocuspocus room instead of a folder (`dir` is then unused): the team's open documents, edited
 *   live with automatic rebase, the agent's pending changes and candidates published in
 *   awareness under `name` (default "agentpad-mcp") after each call (docs/co-editing.md §MCP).
 *   Needs the @agentpad/yjs package.
 */

/**
 * @typedef {object} AgentpadServer
 * @property {McpServer} server Connect it to a transport (`await server.connect(transport)`).
 * @property {Workspace} workspace The workspace it serves.
 * @property {NodeFsStorage} storage The storage on the folder.
 * @property {string[]} paths The documents opened, default first.
 * @property {{ path: string, reason: string }[]} skipped Files under the folder not opened (not UTF-8, too large).
 * @property {() => Promise<{ unstored: string[] }>} close Waits for calls under way, closes the server, frees the workspace and stops the watcher;
 *   with `collab`, waits (at most 5 s) for the server to acknowledge every change and resolves
 *   with the documents it had not (their changes are lost with this process). Idempotent.
 */

/**
 * Opens every document under `dir` (skipping, with a note, files that are not UTF-8 text or are
 * larger than agentpad's limit) and registers every tool of agentpad's registry on a new
 * McpServer, enabled when the workflow state offers it. After each call the enabled set follows
 * the new state; the SDK then sends `notifications/tools/list_changed`.
 *
 * Rejects when the folder cannot be listed or an option is invalid (the message says which).
 * @param {AgentpadServerOptions} options
 * @returns {Promise<AgentpadServer>}
 */
export async function createAgentpadServer(options) {
  const {
    dir,
    extensions,
    toolPrefix,
    visibleOnly = false,
    structuredContent = false,
    git = false,
    log = (line) => process.stderr.write(`${line}\n`),
  } = options;
  if (typeof structuredContent !== "boolean")
    throw new TypeError(`agentpad-mcp: option structuredContent must be a boolean, got ${JSON.stringify(structuredContent)}`);
  if (typeof git !== "boolean") throw new TypeError(`agentpad-mcp: option git must be a boolean, got ${JSON.stringify(git)}`);
  if (git && options.collab !== undefined)
    throw new TypeError("agentpad-mcp: option git needs a folder (dir), not collab: a room has no git work tree");
  // Every workspace option of the core's table given (persistMode, locale, toolPrefix,
  // candidateStyle, maxReadLines, …: docs/options.md) goes to Workspace.create as it is.
  const workspaceOptions = Object.fromEntries(
    CORE_OPTIONS.filter((o) => options[o.name] !== undefined).map((o) => [o.name, options[o.name]]),
  );
  // The core checks every option: ask it before reading the folder, so a bad one fails fast
  // with the core's message naming it.
  (await Workspace.create({ storage: new MemoryStorage({}), ...workspaceOptions })).free();

  const yjs = options.collab === undefined ? undefined : await importYjs();
  const room =
    options.collab === undefined || yjs === undefined
      ? undefined
      : await yjs.connectHocuspocusNode({
          url: options.collab.url,
          room: options.collab.room,
          ...(options.collab.token === undefined ? {} : { token: options.collab.token }),
        });
  const storage =
    room?.storage ??
    new NodeFsStorage(dir, {
      ...(extensions === undefined ? {} : { extensions }),
      ...(git ? { git } : {}),
      onError: (err) => log(`agentpad-mcp: watcher: ${err.message}`),
    });

  // Open what can be opened: one binary or huge file must not keep the rest from being served.
  const paths = [];
  const skipped = [];
  for (const path of await storage.list()) {
    let reason;
    try {
      const doc = await storage.load(path);
      if (doc === undefined) continue; // removed meanwhile
      const bytes = Buffer.byteLength(doc.text, "utf8");
      if (bytes > MAX_DOCUMENT_BYTES) reason = `${bytes} bytes, over agentpad's limit of ${MAX_DOCUMENT_BYTES}`;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      reason = message.includes("is not UTF-8 text") ? "not UTF-8 text" : message;
    }
    if (reason === undefined) paths.push(path);
    else skipped.push({ path, reason });
  }
  for (const { path, reason } of skipped.slice(0, MAX_SKIP_NOTES)) log(`agentpad-mcp: skipped ${path}: ${reason}`);
  if (skipped.length > MAX_SKIP_NOTES) {
    log(`agentpad-mcp: skipped ${skipped.length - MAX_SKIP_NOTES} more files (pass --ext to serve only some extensions)`);
  }

  const workspace = await Workspace.create({ storage, paths, ...workspaceOptions, ...(room === undefined ? {} : { autoRebase: true }) });

  // Files added to the folder later are served too: the storage's watch reports them, and they
  // are opened before the next call (a document memo_create made is open already).
  const unwatchNew =
    room === undefined
      ? storage.watch((change) => {
          const path = change?.path;
          if (typeof path !== "string" || workspace.freed || workspace.paths().includes(path)) return;
          workspace.open(path).then(
            (opened) => opened && log(`agentpad-mcp: opened ${path} (new in the folder)`),
            (err) => log(`agentpad-mcp: skipped ${path}: ${err instanceof Error ? err.message : String(err)}`),
          );
        })
      : undefined;

  const server = new McpServer(
    { name: "agentpad-mcp", version },
    {
      // One tools/list_changed per call, however many tools it enabled or disabled.
      debouncedNotificationMethods: ["notifications/tools/list_changed"],
      instructions: instructionsFor(
        room === undefined ? storage.dir : `the Hocuspocus room ${options.collab?.room} at ${options.collab?.url}`,
        workspace.paths(),
        toolPrefix ?? "memo",
        visibleOnly,
      ),
    },
  );

  /** Calls under way, so close() can let them finish (a commit writes files). */
  const running = new Set();
  /** @type {Map<string, import("@modelcontextprotocol/server").RegisteredTool>} */
  const registered = new Map();

  const sync = () => {
    if (!visibleOnly || workspace.freed) return;
    for (const state of workspace.toolStates()) {
      const tool = registered.get(state.definition.name);
      if (tool === undefined || tool.enabled === state.available) continue;
      if (state.available) tool.enable();
      else tool.disable();
    }
  };

  /**
   * One tools/call: the Markdown as text content; with `structuredContent`, the Response too
   * (handed over by onResponse: the "mcp" result format carries the Markdown only).
   * @param {string} name
   * @param {unknown} args
   */
  const runCall = async (name, args) => {
    /** @type {import("@agentpad/core").ToolResponse | undefined} */
    let response;
    const result = await workspace.runToolCall(
      { name, arguments: /** @type {Record<string, unknown>} */ (args ?? {}) },
      structuredContent || room !== undefined ? { format: "mcp", onResponse: (r) => (response = r) } : { format: "mcp" },
    );
    if (room !== undefined && response !== undefined) await publish(response);
    return response === undefined || !structuredContent
      ? result
      : { ...result, structuredContent: /** @type {import("@agentpad/core").ToolResponse & Record<string, unknown>} */ (response) };
  };

  /**
   * In a room, what the library's publishAgentState publishes, for every open document: the
   * agent's name, pending changes and candidates, so people see them in their editors
   * (docs/co-editing.md §Awareness). A document whose provider is gone is skipped.
   * @param {import("@agentpad/core").ToolResponse} response
   */
  const publish = async (response) => {
    if (room === undefined || workspace.freed) return;
    for (const path of workspace.paths()) {
      const awareness = room.provider(path)?.awareness;
      if (!awareness) continue;
      try {
        const ytext = await room.storage.text(path);
        yjs?.publishAgentState(awareness, ytext, response, {
          path,
          committed: workspace.text(path),
          draft: workspace.draft(path),
          name: options.collab?.name ?? "agentpad-mcp",
        });
      } catch (err) {
        log(`agentpad-mcp: awareness of ${path}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };

  // The enabled tools (the same in every state); toolStates() says which the state offers now.
  const offered = new Map(workspace.toolStates().map((s) => [s.definition.name, s.available]));
  for (const { name, description, input_schema } of workspace.tools({ format: "json-schema" })) {
    const tool = server.registerTool(name, { description, inputSchema: fromJsonSchema(input_schema, agentpadValidates) }, async (args) => {
      const call = runCall(name, args);
      running.add(call);
      try {
        return await call;
      } finally {
        running.delete(call);
        sync();
      }
    });
    // Registered enabled (no client is connected yet: no notification is sent).
    if (visibleOnly && !offered.get(name)) tool.disable();
    registered.set(name, tool);
  }

  let closing;
  const close = () =>
    (closing ??= (async () => {
      await Promise.allSettled([...running]);
      unwatchNew?.();
      await server.close().catch(() => {});
      workspace.free();
      if (room === undefined) {
        storage.close();
        return { unstored: [] };
      }
      // Commits the server has not acknowledged live only in this process: wait for them,
      // bounded, and say which are lost (docs/co-editing.md §Stored).
      const { unstored } = await room.destroy({ timeoutMs: 5_000 });
      if (unstored.length > 0) log(`agentpad-mcp: the server never acknowledged changes to ${unstored.join(", ")}: they are lost`);
      return { unstored };
    })());

  return { server, workspace, storage, paths: workspace.paths(), skipped, close };
}

/**
 * @agentpad/yjs's connector and awareness helper (an optional peer: only `--collab` needs it).
 */
async function importYjs() {
  try {
    const [server, main] = await Promise.all([import("@agentpad/yjs/server"), import("@agentpad/yjs")]);
    return { connectHocuspocusNode: server.connectHocuspocusNode, publishAgentState: main.publishAgentState };
  } catch {
    throw new Error(
      "--collab needs the @agentpad/yjs package: npm install @agentpad/yjs (or npx -p @agentpad/mcp -p @agentpad/yjs agentpad-mcp ...)",
    );
  }
}

/** What the server tells the client about itself (MCP `instructions`). */
function instructionsFor(dir, paths, prefix, visibleOnly) {
  const docs =
    paths.length === 0
      ? "No documents are open (the folder held no text files when the server started)."
      : `Open documents (paths relative to the folder; the first is the default when a call names no \`path\`): ${paths.map((p) => `\`${p}\``).join(", ")}.`;
  return [
    `agentpad edits the text files of ${dir}.`,
    docs,
    `Read with ${prefix}_read, change with ${prefix}_replace (an ambiguous match lists lettered candidates; pick one with ${prefix}_replace_selection), then ${prefix}_commit to write the files.`,
    visibleOnly
      ? "Which tools are offered follows the workflow state; the list changes after calls (tools/list_changed)."
      : "Every tool is always listed; a call the current state does not allow is answered Blocked with what to call instead.",
  ].join("\n");
}
