#!/usr/bin/env node
// agentpad-collab-server [--port N] [--host H] --dir <folder>: an embedded Hocuspocus server.
// Prints one line `ready ws://host:port` when it listens; stops on SIGINT/SIGTERM after storing
// every open document.
import { parseArgs } from "node:util";
import { startCollabServer } from "./server.js";

const { values } = parseArgs({
  options: { port: { type: "string", default: "0" }, host: { type: "string", default: "127.0.0.1" }, dir: { type: "string" }, debounce: { type: "string" } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`agentpad-collab-server: --port must be 0..65535, got ${values.port}`);
  process.exit(2);
}
if (values.dir === undefined) {
  console.error("agentpad-collab-server: --dir <folder> is needed (where documents are stored)");
  process.exit(2);
}
const server = await startCollabServer({
  port,
  host: values.host,
  directory: values.dir,
  ...(values.debounce === undefined ? {} : { debounce: Number(values.debounce) }),
});
console.log(`ready ${server.url}`);
const stop = async () => {
  await server.destroy();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
