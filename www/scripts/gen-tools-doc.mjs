// Writes docs/tools.md from the tool registry of the BUILT package (./build.sh pack builds it):
// every tool's description and arguments (its JSON Schema), the workflow states that offer it
// (asked of a workspace driven into each state), and a real call with the response the model
// reads, run on a small document. Deterministic: every call gets a fixed clock (`nowMs`), the
// storage is in memory, and nothing depends on the machine.
//
//   node www/scripts/gen-tools-doc.mjs          rewrite docs/tools.md
//   node www/scripts/gen-tools-doc.mjs --check  exit 1 when docs/tools.md differs from what it would write
//
// www/test/docs.test.mjs runs generateToolsDoc() and fails when docs/tools.md is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MemoryStorage, Workspace } from "@agentpad/core";

export const TOOLS_DOC = fileURLToPath(new URL("../../docs/tools.md", import.meta.url));

const PATH = "service.yaml";
const DOC = "# service\nname: orders\n# database\ndatabase.timeout: 30\n# api\napi.timeout: 30\n";
/** 2026-01-01T00:00:00Z; each call one second later. */
const EPOCH_MS = 1767225600000;

/** A fresh workspace on the sample document with a clock that ticks one second per call. */
async function open(options = {}) {
  const storage = new MemoryStorage({ [PATH]: DOC });
  const ws = await Workspace.create({ storage, memory: true, ...options });
  let tick = 0;
  const call = (name, args) => ws.call(name, args, { nowMs: EPOCH_MS + 1000 * ++tick });
  return { storage, ws, call };
}

const stage = (call) => call("memo_replace", { old_text: "name: orders", new_text: "name: billing" });

/** Each tool's example: `setup` brings the workspace into a state where the call makes sense. */
const EXAMPLES = {
  memo_read: { args: { start_line: 1, end_line: 4 } },
  memo_replace: { args: { old_text: "name: orders", new_text: "name: billing" } },
  memo_replace_span: {
    args: { old_span_start: "# database", old_span_end: "timeout: 30", new_text: "# database (primary)\ndatabase.timeout: 45" },
  },
  memo_replace_selection: {
    setup: (call) => call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" }),
    args: { selection_id: "B" },
    note: 'after `memo_replace({ old_text: "timeout: 30", new_text: "timeout: 60" })` listed candidates A and B',
  },
  memo_replace_lines: {
    setup: async (call, ctx) => {
      const read = await call("memo_read", { line_keys: true, start_line: 2, end_line: 2 });
      ctx.key = /(\d+#[0-9a-f]{4})│/.exec(read.content ?? "")?.[1];
      if (ctx.key === undefined) throw new Error(`gen-tools-doc: no line key in ${JSON.stringify(read.content)}`);
    },
    args: (ctx) => ({ start_key: ctx.key, new_text: "name: billing" }),
    note: "with the key `memo_read({ line_keys: true })` showed for line 2",
  },
  memo_append: { args: { text: "# cache\ncache.timeout: 30\n" } },
  memo_create: { args: { path: "cache.yaml", text: "# cache\ncache.timeout: 30\n" } },
  memo_preview: { setup: stage, args: { format: "compact" }, note: "with one change staged" },
  memo_diff: { setup: stage, args: { against: "base" }, note: "with one change staged" },
  memo_commit: { setup: stage, args: { summary: "Rename the service to billing" }, note: "with one change staged" },
  memo_commit_auto: { setup: stage, args: {}, note: "with one change staged" },
  memo_revert: { setup: stage, args: { reason: "Wrong service" }, note: "with one change staged" },
  memo_undo: {
    setup: async (call) => {
      await stage(call);
      await call("memo_commit", { summary: "Rename the service to billing" });
    },
    args: {},
    note: "after one change was committed",
  },
  memo_discard: { setup: stage, args: { reason: "Start over" }, note: "with one change staged" },
  memo_refresh: {
    setup: async (call, ctx) => {
      await stage(call);
      ctx.storage.write(PATH, DOC.replace("api.timeout: 30", "api.timeout: 90"));
    },
    args: {},
    note: "with one change staged, after another program changed the file",
  },
  memo_rebase: {
    setup: async (call, ctx) => {
      await stage(call);
      ctx.storage.write(PATH, DOC.replace("api.timeout: 30", "api.timeout: 90"));
    },
    args: {},
    note: "with one change staged, after another program changed another line of the file",
  },
  memo_persist_as: {
    setup: async (call, ctx) => {
      await stage(call);
      ctx.storage.failNext("save");
      await call("memo_commit", { summary: "Rename the service" });
    },
    args: { new_path: "service.billing.yaml" },
    note: "after the commit's save failed",
  },
  memo_begin_task: { args: { goal: "Raise the API timeout" } },
  memo_export_session: { setup: stage, args: {}, note: "after one replace" },
  memo_recall_context: {
    setup: async (call, ctx) => addTurn(ctx.ws),
    args: { turn_numbers: [1] },
    note: "with one turn in the memory store (`ws.memory.add`)",
  },
  memo_search_memory: {
    setup: async (call, ctx) => addTurn(ctx.ws),
    args: { query: "timeout", limit: 3 },
    note: "with one turn in the memory store (`ws.memory.add`)",
  },
  memo_find: { args: { query: "api timeout", limit: 3 } },
};

function addTurn(ws) {
  ws.memory.add({
    atMs: EPOCH_MS,
    summary: "The API timeout is too short for batch imports",
    insights: ["api.timeout: 30 drops imports over 30 s"],
    context: "User: imports fail after 30 seconds.\nAssistant: api.timeout in service.yaml is 30.",
  });
}

/**
 * The states a tool can be offered in, each reached with real calls (label, setup, workspace
 * options). Refreshing is transient: a call never sees it.
 */
const STATES = [
  ["Idle", async () => {}],
  ["Idle in immediate mode", async () => {}, { persistMode: "immediate" }],
  ["SelectionPending", (call) => call("memo_replace", { old_text: "timeout: 30", new_text: "timeout: 60" })],
  ["PersistPending", stage],
  [
    "OutOfSync (save failed)",
    async (call, ctx) => {
      await stage(call);
      ctx.storage.failNext("save");
      await call("memo_commit", { summary: "x" });
    },
  ],
  [
    "OutOfSync (external change)",
    async (call, ctx) => {
      await stage(call);
      ctx.storage.write(PATH, DOC.replace("api.timeout: 30", "api.timeout: 90"));
      await call("memo_read", {});
    },
  ],
];

async function offeredIn() {
  const offered = new Map();
  for (const [label, setup, options] of STATES) {
    const ctx = await open(options);
    await setup(ctx.call, ctx);
    for (const s of ctx.ws.toolStates()) {
      if (!offered.has(s.definition.name)) offered.set(s.definition.name, []);
      if (s.available) offered.get(s.definition.name).push(label);
    }
    ctx.ws.free();
  }
  return offered;
}

function typeOf(schema) {
  if (schema.enum)
    return schema.enum.length > 6
      ? `${schema.type} (${schema.enum[0]}–${schema.enum.at(-1)})`
      : schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.type === "array") return `${typeOf(schema.items ?? {})}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (schema.oneOf || schema.anyOf) return (schema.oneOf ?? schema.anyOf).map(typeOf).join(" | ");
  return schema.type ?? "any";
}

function constraints(schema) {
  const out = [];
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.minItems !== undefined) out.push(`at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.minLength !== undefined) out.push(`at least ${schema.minLength} chars`);
  return out.length ? ` (${out.join(", ")})` : "";
}

const cell = (s) => String(s).replaceAll("|", "\\|").replaceAll("\n", " ");

function argumentTable(schema) {
  const props = Object.entries(schema.properties ?? {});
  if (props.length === 0) return "No arguments.\n";
  const required = new Set(schema.required ?? []);
  const rows = props.map(
    ([name, p]) =>
      `| \`${name}\` | ${cell(typeOf(p))} | ${required.has(name) ? "yes" : "–"} | ${cell((p.description ?? "") + constraints(p))} |`,
  );
  return ["| argument | type | required | meaning |", "| --- | --- | --- | --- |", ...rows, ""].join("\n");
}

/** A fence longer than any backtick run inside the text. */
function fence(text, info = "") {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = "`".repeat(longest + 1);
  return `${f}${info}\n${text.replace(/\n$/, "")}\n${f}\n`;
}

async function example(name) {
  const spec = EXAMPLES[name];
  if (spec === undefined) throw new Error(`gen-tools-doc: no example for ${name}; add one to EXAMPLES`);
  const ctx = await open();
  await spec.setup?.(ctx.call, ctx);
  const args = typeof spec.args === "function" ? spec.args(ctx) : spec.args;
  const r = await ctx.call(name, args);
  ctx.ws.free();
  return { args, response: r, note: spec.note };
}

/** The whole of docs/tools.md, from the built package. */
export async function generateToolsDoc() {
  const { ws } = await open();
  const defs = ws.tools({ format: "json-schema" });
  ws.free();
  const offered = await offeredIn();

  const L = [];
  L.push(
    "# Tools",
    "",
    "<!-- Generated by www/scripts/gen-tools-doc.mjs from the built package's tool registry; do not edit.",
    "     Regenerate: ./build.sh pack && node www/scripts/gen-tools-doc.mjs (www/test/docs.test.mjs fails when this file is stale). -->",
    "",
    "Every tool an agent can call, as the registry defines it: the description and JSON Schema the",
    "model receives, the workflow states that offer it, and a real call on a small document with",
    "the Markdown the model reads back. The prefix `memo` is the default `toolPrefix`. Every tool",
    "takes `path` for a document other than the default one. `ws.tools()` lists every tool in",
    "every state; a call the state does not offer is answered `Blocked` with what to call instead",
    "(see [workflow.md#visible-tools](workflow.md#visible-tools)). While the workspace reads",
    "storage (state `Refreshing`) every call is `Blocked`.",
    "",
    "The sample document, `service.yaml`:",
    "",
    fence(DOC, "yaml"),
  );
  L.push(
    "Where each tool is offered (✓), each state reached with real calls:",
    "",
    `| tool | ${STATES.map(([label]) => label).join(" | ")} |`,
    `| --- | ${STATES.map(() => ":---:").join(" | ")} |`,
  );
  for (const d of defs) {
    const states = offered.get(d.name) ?? [];
    L.push(`| [\`${d.name}\`](#${d.name}) | ${STATES.map(([label]) => (states.includes(label) ? "✓" : "–")).join(" | ")} |`);
  }
  L.push("", "`memo_recall_context` and `memo_search_memory` exist only with `memory: true`.", "");
  L.push(
    "`memo_find` ranks the document's units (Markdown sections, paragraphs, fenced code blocks and",
    "list items; in code, blocks by indentation and the lines under a comment) by their words",
    "(BM25), and by meaning too when `Workspace.create` got an `embed` function",
    "([decisions.md#memo_find-ranking](decisions.md#memo_find-ranking)). Its letters name units",
    "for three tools: `memo_replace_selection(selection_id, new_text)` replaces a whole unit,",
    "`memo_replace(old_text, new_text, within)` searches only inside one, `memo_read(unit)` reads",
    "one. A letter stays valid while the edits inside its unit go on; an edit across its edge",
    "ends it. Listing awaits no choice: the workflow state stays as it was.",
    "",
  );
  for (const d of defs) {
    const { args, response, note } = await example(d.name);
    L.push(`## ${d.name}`, "", d.description, "", argumentTable(d.input_schema));
    L.push(`Offered in: ${statesOf(d.name, offered)}.`, "");
    L.push(`Example${note ? `, ${note}` : ""}:`, "", fence(`${d.name}(${JSON.stringify(args)})`, "js"));
    L.push(`Response (\`status\` ${response.status}, \`workflow_state\` ${response.workflow_state}), as the model reads it:`, "");
    L.push(fence(response.markdown, "markdown"));
  }
  return `${L.join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

function statesOf(name, offered) {
  const states = offered.get(name) ?? [];
  const where = states.length ? states.join(", ") : "none of the states reached here";
  const memory = name.endsWith("_recall_context") || name.endsWith("_search_memory") ? "; only with `memory: true`" : "";
  return `${where}${memory}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await generateToolsDoc();
  if (process.argv.includes("--check")) {
    let old = "";
    try {
      old = readFileSync(TOOLS_DOC, "utf8");
    } catch {}
    if (old !== text) {
      console.error("docs/tools.md is stale: run node www/scripts/gen-tools-doc.mjs");
      process.exit(1);
    }
    console.log("docs/tools.md is up to date");
  } else {
    writeFileSync(TOOLS_DOC, text);
    console.log(`wrote ${TOOLS_DOC}`);
  }
}
