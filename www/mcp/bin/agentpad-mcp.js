#!/usr/bin/env node
// agentpad-mcp --dir <folder>: the agentpad MCP server on stdio. stdout carries the protocol
// only; every note goes to stderr. Exit status: 0 after a clean shutdown, 1 when the server
// cannot start, 2 on bad usage.

// First: sets V8 flags for this process before the core compiles its wasm (v8-flags.js).
import "./v8-flags.js";
import { statSync } from "node:fs";
import { parseArgs } from "node:util";
import { CORE_OPTIONS } from "@agentpad/core";
import { VERSION, createAgentpadServer } from "../server.js";
import { stdioTransport } from "../stdio.js";

/** The workspace options the server offers as flags: every core option with a flag in its table. */
const CORE_FLAGS = CORE_OPTIONS.filter((o) => o.flag !== undefined);

/** `--max-task-depth <1-16>` and its doc, wrapped as the hand-written lines above are. */
function coreFlagHelp() {
  return CORE_FLAGS.map((o) => {
    const value =
      o.kind === "flag"
        ? ""
        : o.kind === "word"
          ? ` <${o.words.join("|")}>`
          : o.kind === "whole"
            ? ` <${o.min}-${o.max}>`
            : o.kind === "share"
              ? " <0-1>"
              : o.kind === "name"
                ? " <name>"
                : " <path>";
    const words = `${o.doc} Default: ${o.default}.`.split(" ");
    const lines = [];
    let line = "";
    for (const word of words) {
      if (line !== "" && line.length + 1 + word.length > 68) {
        lines.push(line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    lines.push(line);
    const head = `  ${o.flag}${value}`;
    return head.length < 26
      ? `${head.padEnd(26)}${lines.join(`\n${" ".repeat(26)}`)}`
      : `${head}\n${lines.map((l) => " ".repeat(26) + l).join("\n")}`;
  }).join("\n");
}

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
  --git                   <folder> must be in a git work tree: every commit the agent makes
                          is also one git commit of exactly the files it wrote (the summary
                          as its subject), leaving your other changes, staged or not, as
                          they were; memo_read(version) also takes a commit id
                          (docs/workflow.md#git-mode)
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

Workspace options (docs/options.md):
${coreFlagHelp()}

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
      git: { type: "boolean" },
      ...Object.fromEntries(CORE_FLAGS.map((o) => [o.flag.slice(2), { type: o.kind === "flag" ? "boolean" : "string" }])),
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
  if (values.git === true) usageError("--git needs --dir: a room has no git work tree");
  if (!/^wss?:\/\//.test(values.collab)) usageError(`--collab needs a ws:// or wss:// URL, got ${JSON.stringify(values.collab)}`);
  if (values.room === undefined || values.room === "") usageError("--collab needs --room <name>");
  collab = {
    url: values.collab,
    room: values.room,
    ...(values.token === undefined ? {} : { token: values.token }),
    ...(values.name === undefined ? {} : { name: values.name }),
  };
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

// The workspace options given as flags, by their JS names; the core checks each value (a bad one
// is a usage error naming the flag, below). Numbers are handed over as numbers.
/** @type {Record<string, unknown>} */
const coreOptions = {};
for (const o of CORE_FLAGS) {
  const value = values[o.flag.slice(2)];
  if (value === undefined) continue;
  coreOptions[o.name] = (o.kind === "whole" || o.kind === "share") && /^\d+(\.\d+)?$/.test(String(value)) ? Number(value) : value;
}
const persistMode = /** @type {"manual" | "immediate" | "disabled" | undefined} */ (coreOptions.persistMode);
let extensions;
if (values.ext !== undefined) {
  extensions = values.ext
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  if (extensions.length === 0) usageError("--ext needs at least one extension, e.g. --ext .md,.txt");
}

let served;
try {
  served = await createAgentpadServer({
    dir: values.dir ?? "",
    collab,
    extensions,
    ...coreOptions,
    git: values.git === true,
    visibleOnly: values["visible-only"] === true,
    structuredContent: values["structured-content"] === true,
  });
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  // An option the core refuses (e.g. a --tool-prefix with a dash) is bad usage.
  const option = /^InvalidArguments: option `(\w+)`/.exec(message);
  const flag = CORE_FLAGS.find((o) => o.name === option?.[1])?.flag;
  if (option !== null) usageError(flag === undefined ? message : message.replace(option[0], flag));
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
    `${skipped.length > 0 ? ` (${skipped.length} skipped)` : ""} on stdio; ${MODE_NOTES[persistMode ?? "manual"]}` +
    `${values.git === true ? "; git mode: every save is also a git commit of the files it wrote" : ""}\n`,
);
