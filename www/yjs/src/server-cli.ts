#!/usr/bin/env node
// agentpad-collab-server: the embedded Hocuspocus server, and moving files in and out of its
// folder (docs/co-editing.md §The server). `serve` prints one line `ready ws://host:port` on
// stdout when it listens and logs to stderr; it stops on SIGINT/SIGTERM after writing every open
// document's snapshot.
import { existsSync } from "node:fs";
import { readdir, readFile, mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { YjsStorage } from "./storage.js";
import { connectHocuspocusNode, listDocuments, readDocument, startCollabServer } from "./server.js";

const USAGE = `Usage: agentpad-collab-server [serve] --dir <folder> [--port N] [--host H] [--debounce ms] [--no-fsync]
       agentpad-collab-server import --dir <folder> --room <name> <files-folder>
       agentpad-collab-server import --url <ws-url> --room <name> [--token T] <files-folder>
       agentpad-collab-server export --dir <folder> --room <name> <files-folder>
       agentpad-collab-server list --dir <folder>

serve    Serves the documents stored in <folder> (created if missing) over Hocuspocus on
         127.0.0.1 (--port 0, the default, picks a free port; --host to bind another address).
         Prints "ready ws://host:port", then logs connections and stores on stderr. An update is
         acknowledged once it is in the document's log on disk; --no-fsync acknowledges it once
         the OS has it (survives the server, not the machine). --debounce: ms between a change
         and the document's snapshot (default 2000). Beside each snapshot (.ydoc) is a plain
         text copy (.txt) to read and back up.
import   Puts every UTF-8 text file under <files-folder> into the room as a document (path =
         its path under the folder). Documents the room already has are skipped and named.
         With --dir the folder must not be served right now; with --url it goes through the
         running server.
export   Writes every document of the room under <files-folder> (line endings and BOM as
         imported). Reads the folder directly: works with the server up or down.
list     Names every document stored in <folder> (rooms are the names without "/").

Options:
  -h, --help   show this help
`;

function usageError(message: string): never {
  process.stderr.write(`agentpad-collab-server: ${message}\n\nRun agentpad-collab-server --help for the usage.\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      host: { type: "string", default: "127.0.0.1" },
      dir: { type: "string" },
      debounce: { type: "string" },
      "no-fsync": { type: "boolean" },
      room: { type: "string" },
      url: { type: "string" },
      token: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  });
} catch (err) {
  usageError(err instanceof Error ? err.message : String(err));
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const command = positionals[0] ?? "serve";
const stamp = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

function needRoom(): string {
  const room = values.room;
  if (room === undefined || room === "" || room.includes("/")) usageError(`${command} needs --room <name> (a name without "/")`);
  return room;
}

function needFolder(): string {
  const folder = positionals[1];
  if (folder === undefined) usageError(`${command} needs the files folder after the options`);
  if (positionals.length > 2) usageError(`unexpected ${JSON.stringify(positionals[2])}`);
  return folder;
}

function needDir(): string {
  if (values.dir === undefined || values.dir === "") usageError(`${command} needs --dir <folder> (where the server stores documents)`);
  return values.dir;
}

/** Every file under `root`, as `/`-separated paths relative to it. */
async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    out.push(
      relative(root, join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name))
        .split(sep)
        .join("/"),
    );
  }
  return out.sort();
}

async function serve(): Promise<void> {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usageError(`--port must be 0..65535, got ${values.port}`);
  const debounce = values.debounce === undefined ? undefined : Number(values.debounce);
  if (debounce !== undefined && !(Number.isFinite(debounce) && debounce >= 0))
    usageError(`--debounce must be a number of milliseconds, got ${values.debounce}`);
  const server = await startCollabServer({
    port,
    host: values.host,
    directory: needDir(),
    log: stamp,
    ...(debounce === undefined ? {} : { debounce }),
    ...(values["no-fsync"] ? { fsync: false } : {}),
  });
  console.log(`ready ${server.url}`);
  stamp(
    `serving ${resolve(needDir())} at ${server.url}${values["no-fsync"] ? " (no fsync: acknowledged updates survive the server, not the machine)" : ""}`,
  );
  const stop = async (signal: string) => {
    stamp(`${signal}: writing snapshots and stopping`);
    await server.destroy();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

async function importFiles(): Promise<number> {
  const room = needRoom();
  const from = needFolder();
  if ((values.dir === undefined) === (values.url === undefined))
    usageError("import needs either --dir <folder> (server stopped) or --url <ws-url> (server running)");
  const embedded = values.dir === undefined ? undefined : await startCollabServer({ directory: values.dir });
  const url = embedded?.url ?? values.url!;
  let failed = 0;
  const imported: string[] = [];
  const r = await connectHocuspocusNode({ url, room, ...(values.token === undefined ? {} : { token: values.token }) });
  try {
    for (const path of await walk(from)) {
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await readFile(join(from, path)));
      } catch {
        process.stderr.write(`skipped ${path}: not UTF-8 text\n`);
        failed++;
        continue;
      }
      if ((await r.storage.load(path)) !== undefined) {
        process.stderr.write(`skipped ${path}: the room already has it\n`);
        failed++;
        continue;
      }
      await r.storage.save(path, text, "");
      imported.push(path);
      console.log(`imported ${path}`);
    }
    // Done once the server has acknowledged every update (each is then on its disk).
    const deadline = Date.now() + 30_000;
    const pending = () => [r.indexProvider, ...imported.map((p) => r.provider(p))].some((p) => p !== undefined && p.unsyncedChanges > 0);
    while (pending()) {
      if (Date.now() > deadline) throw new Error("the server did not acknowledge the import within 30 s");
      await new Promise((res) => setTimeout(res, 10));
    }
  } finally {
    r.destroy();
    await embedded?.destroy();
  }
  return failed;
}

async function exportFiles(): Promise<number> {
  const room = needRoom();
  const to = resolve(needFolder());
  const dir = needDir();
  if (!existsSync(dir)) throw new Error(`no such folder: ${dir}`);
  const storage = new YjsStorage({ index: await readDocument(dir, room), open: (path) => readDocument(dir, `${room}/${path}`) });
  let failed = 0;
  const paths = await storage.list();
  if (paths.length === 0)
    process.stderr.write(`room ${room} has no documents in ${dir} (list them with: agentpad-collab-server list --dir ${dir})\n`);
  for (const path of paths) {
    const file = resolve(to, path);
    if (!file.startsWith(to + sep)) {
      process.stderr.write(`skipped ${path}: it would leave ${to}\n`);
      failed++;
      continue;
    }
    const doc = await storage.load(path);
    if (doc === undefined) continue;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, doc.text);
    console.log(`exported ${path}`);
  }
  return failed;
}

try {
  if (command === "serve") await serve();
  else if (command === "import") process.exit((await importFiles()) > 0 ? 1 : 0);
  else if (command === "export") process.exit((await exportFiles()) > 0 ? 1 : 0);
  else if (command === "list") {
    for (const d of await listDocuments(needDir())) console.log(d.name);
  } else usageError(`unknown command ${JSON.stringify(command)} (serve, import, export, list)`);
} catch (err) {
  process.stderr.write(`agentpad-collab-server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
