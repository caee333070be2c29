// `memo_read({ version })` of a version of a storage's own history (NodeFsStorage's git mode,
// docs/workflow.md#git-mode), answered in the core's own words. (The record of a commit is the
// core's `record` step: src/workspace/record.rs.)

import { WasmWorkspace } from "../pkg/agentpad.js";
import type { Step } from "./generated/boundary.js";
import type { WorkspaceConfig } from "./generated/options.js";
import type { StoredVersion, ToolResponse } from "./types.js";

/** `s` with the text `from` replaced by `to` where it occurs (split/join: no pattern characters). */
const swap = (s: string, from: string, to: string): string => (from === "" ? s : s.split(from).join(to));

/** The Markdown's `- summary: …` / `- guidance: …` line of `value` (one line, as the core renders it). */
const oneLine = (s: string): string =>
  s
    .trimEnd()
    .replace(/\r\n/g, "\n")
    .replace(/[\r\n]/g, " ⏎ ");

/**
 * `r` with its summary, guidance and their Markdown lines changed to `summary` and `guidance`
 * (undefined: kept), and its one-line view to `basic`. The overview's `- summary:` and
 * `- guidance:` lines are the first of their kind in every response (docs/responses.md#markdown-layout).
 */
function reworded(r: ToolResponse, summary: string, guidance: string | undefined, basic: string): ToolResponse {
  const out = { ...r } as ToolResponse & { markdown: string; markdown_basic: string; guidance: string | null };
  out.markdown = out.markdown.replace(/^- summary: .*$/m, () => `- summary: ${oneLine(summary)}`);
  out.markdown_basic = basic;
  out.summary = summary;
  if (guidance !== undefined) {
    out.markdown = out.markdown.replace(/^- guidance: .*$/m, () => `- guidance: ${oneLine(guidance)}`);
    out.guidance = guidance;
  }
  return out;
}

/** What the shell knows for a read of a stored version (see {@link readStoredVersion}). */
export interface StoredRead {
  /** The real workspace's options that shape a read (prefix, locale, read limits). */
  config: WorkspaceConfig;
  /** The tool name called (`memo_read`), the arguments, the path read and whether it was named. */
  name: string;
  args: Record<string, unknown>;
  path: string;
  pathNamed: boolean;
  /** The real workspace's state, flags and visible tools, for the header and the JSON. */
  state: string;
  flags: { mask: number; names: string[] };
  visibleTools: string[];
  nowMs: number;
}

/**
 * `memo_read({ version })` of a version the storage keeps (`found`), answered as the core answers
 * a read of its own versions: the text is opened in a scratch core as its `v0` and read there
 * (gutters, start_line/end_line, the read limits, every argument check), then the words naming
 * `v0` name the stored version, and the header and tools are the real workspace's. A storage's
 * `{ error }` is an `InvalidArguments` response saying why. Cost: one scratch core and the lines shown.
 */
export function readStoredVersion(read: StoredRead, version: string, found: StoredVersion): ToolResponse {
  const scratch = new WasmWorkspace(read.config);
  let r: ToolResponse;
  try {
    if ("error" in found) {
      // The core's own refusal of an unknown version, reworded: the id is a git commit id.
      scratch.open(read.path, "", "stored");
      r = (scratch.call(read.name, { version: "not-a-version" }, undefined, read.nowMs) as Step & { kind: "done" })
        .response as ToolResponse;
      const summary = `Invalid call: cannot read version ${JSON.stringify(version)} of ${read.path}: ${found.error}. Nothing was changed.`;
      r = reworded(
        r,
        summary,
        `Pass a commit id git log names (4 to 40 hex digits) or a version like "v3" that the live context or a commit named.`,
        swap(r.markdown_basic, r.summary.replace(/ Nothing was changed\.$/, ""), summary.replace(/ Nothing was changed\.$/, "")),
      );
    } else {
      scratch.open(read.path, found.text, "stored");
      const step = scratch.call(read.name, { ...read.args, version: "v0", path: read.path }, undefined, read.nowMs) as Step;
      if (step.kind !== "done") throw new Error(`agentpad: a read of a stored version asked for storage work (${step.kind})`);
      r = step.response as ToolResponse;
      const pathArg = read.pathNamed ? `, path="${read.path}"` : "";
      const words = (s: string): string =>
        swap(
          swap(swap(s, "version v0 (as it was when opened; ", `at ${found.label} (`), `version="v0"`, `version="${version}"${pathArg}`),
          "version v0",
          `version ${version}`,
        );
      r = reworded(r, words(r.summary), r.guidance === null ? undefined : words(r.guidance), words(r.markdown_basic));
    }
  } finally {
    scratch.free();
  }
  const flagsLine = read.flags.names.length === 0 ? "flags: -" : `flags: ${read.flags.names.map((n) => `\`${n}\``).join(", ")}`;
  const markdown = r.markdown.replace(/^state: `\w+`\nflags: .*$/m, () => `state: \`${read.state}\`\n${flagsLine}`);
  const basic = r.markdown_basic.replace(/ · Idle · /, () => ` · ${read.state} · `);
  return {
    ...r,
    workflow_state: read.state,
    flags: read.flags,
    visible_tools: read.visibleTools,
    next_actions: read.state === "Idle" ? r.next_actions : [],
    path: read.path,
    markdown,
    markdown_basic: basic,
  } as ToolResponse;
}
