import { loadCases, materialize } from "../src/cases.mjs";
import { runCase } from "../src/agent.mjs";
import { peerTools, agentpadTool } from "../src/tools.mjs";
import { createPatch } from "diff";
// node tools/inspect-case.mjs <tool> <case id> [recommended|oracle] [v1|v2]: one tool on one case.
const [key, id, variant = "recommended", version = "v1"] = process.argv.slice(2);
const c = loadCases(version).find(x => x.id === id);
const tool = [...peerTools(), agentpadTool()].find(t => t.key === key);
const mat = materialize(c);
const r = await runCase(tool, c, mat, variant);
console.log(JSON.stringify({ outcome: r.outcome, bad: r.bad_kind, coll: r.collateral, calls: r.calls, landed_at: r.landed_at, steps: r.steps, transcript: r.transcript }));
console.log("ATTEMPT", JSON.stringify(c.attempt));
console.log(createPatch("expected→result", mat.expected, r.doc, "", "", { context: 1 }).slice(0, 3000));
