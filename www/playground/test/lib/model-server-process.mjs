// One scripted model server as a process of its own (test/lib/model-servers.mjs spawns it and
// stops it by pid): argv[2] is `{ script, params, cors, lifetimeMs, maxRequests }`; it reports
// `ready` with its origin, then each request and preflight, over IPC, and exits after lifetimeMs.
import { scriptedServer } from "./model-servers.mjs";
import { scripts } from "./model-scripts.mjs";

const { script, params, cors, lifetimeMs, maxRequests } = JSON.parse(process.argv[2]);
const run = scripts[script];
if (!run) {
  console.error(`no script named ${script}`);
  process.exit(2);
}
const srv = await scriptedServer({
  script: (body, i) => run(body, i, params),
  cors,
  lifetimeMs,
  maxRequests,
  onRecord: (kind, record) => process.send({ kind, record }),
});
setTimeout(() => process.exit(0), lifetimeMs).unref();
// The parent going away ends the child too.
process.on("disconnect", () => process.exit(0));
process.send({ kind: "ready", origin: srv.origin });
