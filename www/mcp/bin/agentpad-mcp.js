#!/usr/bin/env node
// agentpad-mcp --dir <folder>: the agentpad MCP server on stdio. stdout carries the protocol
// only; every note goes to stderr. Exit status: 0 after a clean shutdown, 1 when the server
// cannot start, 2 on bad usage.

import { statSync } from "node:fs";
import { parseArgs } from "node:util";
import { LOCALES } from "@agentpad/core";
import { VERSION, createAgentpadServer } from "../server.js";
import { stdioTransport } from "../stdio.js";

const USAGE = `Usage: agentpad-mcp --dir <folder> [options]
       agentpad-mcp --collab <ws-url> --room <name> [--token <token>] [options]

Serves the text files under <folder> to an MCP client over stdio: the client's model reads and
edits them with agentpad's tools (unambiguous matching, lettered candidates, staged changes,
commit/revert). Files are written only by a commit (or as --persist-mode says); paths that
leave the folder are refused. Files that are not UTF-8 text or are larger than 128 MiB are
skipped (noted on stderr).

Options:
  --dir <folder>          the folder to serve (required unless --collab)
  --collab <ws-url>       serve the documents a team has open in a Hocuspocus room instead
                          (live co-editing; needs @agentpad/yjs; docs/co-editing.md)
  --room <name>           the room (with --collab)
  --token <token>         sent to the server's auth hook (with --collab)
  --name <name>           the agent's name people see in their editors (with --collab;
                          default agentpad-mcp)
  --ext <list>            only files with these extensions, comma-separated (e.g. .md,.txt)
  --persist-mode <mode>   manual (default: commit writes), immediate (every edit writes),
                          disabled (nothing is written)
  --locale <en|zh>        language of the responses (default en)
  --tool-prefix <prefix>  tool names are <prefix>_<verb> (default memo)
  --visible-only          list only the tools the workflow state offers, changing the list
                          after calls (notifications/tools/list_changed; calling an unlisted
                          tool is a protocol error -32602 "Tool … disabled"); by default every
                          tool is listed all the time and a call the state does not allow is
                          answered Blocked, saying what to do instead
  --structured-content    add the whole response as JSON (structuredContent: status,
                          workflow_state, candidates, …) to each result, for clients that are
                          programs; by default a result is the Markdown only (some clients
                          give the model the JSON instead of the text, at several times the
                          tokens)
  -h, --help              show this help
  -v, --version           show the version

MCP client configuration (e.g. Claude Desktop's claude_desktop_config.json):
  { "mcpServers": { "agentpad": { "command": "npx", "args": ["-y", "@agentpad/mcp", "--dir", "/path/to/notes"] } } }
`;

function usageError(message) {
  process.stderr.write(`agentpad-mcp: ${message}\n\nRun agentpad-mcp --help for the options.\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      dir: { type: "string" },
      collab: { type: "string" },
      name: { type: "string" },
      room: { type: "string" },
      token: { type: "string" },
      ext: { type: "string" },
      "persist-mode": { type: "string" },
      locale: { type: "string" },
      "tool-prefix": { type: "string" },
      "visible-only": { type: "boolean" },
      "structured-content": { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (err) {
  usageError(err instanceof Error ? err.message : String(err));
}

// Help and version are not the protocol: they go to stdout, as a command line tool's do.
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (values.version) {
  process.stdout.write(`agentpad-mcp ${VERSION}\n`);
  process.exit(0);
}
let collab;
if (values.collab !== undefined) {
  if (values.dir !== undefined) usageError("--dir and --collab exclude each other: serve a folder or a room");
  if (!/^wss?:\/\//.test(values.collab)) usageError(`--collab needs a ws:// or wss:// URL, got ${JSON.stringify(values.collab)}`);
  if (values.room === undefined || values.room === "") usageError("--collab needs --room <name>");
  collab = { url: values.collab, room: values.room, ...(values.token === undefined ? {} : { token: values.token }), ...(values.name === undefined ? {} : { name: values.name }) };
} else {
  if (values.dir === undefined || values.dir === "") usageError("--dir <folder> is required");
  let isDir = false;
  try {
    isDir = statSync(values.dir).isDirectory();
  } catch {
    usageError(`--dir ${values.dir}: no such folder`);
  }
  if (!isDir) usageError(`--dir ${values.dir}: not a folder`);
}

const persistMode = values["persist-mode"];
if (persistMode !== undefined && !["manual", "immediate", "disabled"].includes(persistMode)) {
  usageError(`--persist-mode must be manual, immediate or disabled, got ${JSON.stringify(persistMode)}`);
}
const locale = values.locale;
if (locale !== undefined && !LOCALES.some((l) => l === locale)) {
  usageError(`--locale must be ${LOCALES.join(" or ")}, got ${JSON.stringify(locale)}`);
}
let extensions;
if (values.ext !== undefined) {
  extensions = values.ext.split(",").map((e) => e.trim()).filter((e) => e !== "");
  if (extensions.length === 0) usageError("--ext needs at least one extension, e.g. --ext .md,.txt");
}

let served;
try {
  served = await createAgentpadServer({
    dir: values.dir ?? "",
    collab,
    extensions,
    persistMode: /** @type {"manual" | "immediate" | "disabled" | undefined} */ (persistMode),
    locale: /** @type {import("@agentpad/core").Locale | undefined} */ (locale),
    toolPrefix: values["tool-prefix"],
    visibleOnly: values["visible-only"] === true,
    structuredContent: values["structured-content"] === true,
  });
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  // An option the core refuses (e.g. a --tool-prefix with a dash) is bad usage.
  if (message.startsWith("InvalidArguments: option")) usageError(message.replace(/^InvalidArguments: option `toolPrefix`/, "--tool-prefix"));
  process.stderr.write(`agentpad-mcp: cannot start: ${message}\n`);
  process.exit(1);
}

const { server, storage, paths, skipped } = served;
let exiting = false;
const shutdown = async (why) => {
  if (exiting) return;
  exiting = true;
  process.stderr.write(`agentpad-mcp: ${why}; shutting down\n`);
  const { unstored } = await served.close();
  // Non-zero when changes the agent committed never reached the server (docs/co-editing.md §Stored).
  process.exit(unstored.length > 0 ? 1 : 0);
};

// The transport closes when stdin ends (the client went away); a signal closes it too.
server.server.onclose = () => void shutdown("the client closed the connection");
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

// What the persist mode means for a client that starts one server per call (the MCP Inspector's
// --cli does): staged edits live in this process only (www/mcp/README.md#first-contact).
const MODE_NOTES = {
  manual: "persist mode manual: changes are saved on memo_commit; staged edits live in this process only",
  immediate: "persist mode immediate: every edit is saved at once",
  disabled: "persist mode disabled: nothing is saved",
};

// Oversized messages are answered with an error instead of closing the connection (stdio.js).
await server.connect(stdioTransport());
// One line, on stderr (stdout is the protocol): what is served, from where, and when it is written.
process.stderr.write(
  `agentpad-mcp ${VERSION}: serving ${paths.length} document${paths.length === 1 ? "" : "s"} from ${collab === undefined ? storage.dir : `room ${collab.room} at ${collab.url}`}` +
    `${skipped.length > 0 ? ` (${skipped.length} skipped)` : ""} on stdio; ${MODE_NOTES[persistMode ?? "manual"]}\n`,
);
