// The tools under test, each as a session over one document: `edit(attempt, disambiguation)`,
// `pick(id)` (agentpad's candidates only), `read()` (what a re-read shows the model) and
// `current()`. Peers are the clean-room emulations in peers/; agentpad is driven through its real
// package API with an in-memory storage.
import { MemoryStorage, Workspace } from "@agentpad/core";
import { catN } from "./peers/common.mjs";
import * as aider from "./peers/aider.mjs";
import * as anthropic from "./peers/anthropic.mjs";
import * as cline from "./peers/cline.mjs";
import * as clineSdk from "./peers/cline-sdk.mjs";
import * as codex from "./peers/codex.mjs";
import * as cont from "./peers/continue.mjs";
import * as opencode from "./peers/opencode.mjs";
import * as openhands from "./peers/openhands.mjs";
import * as rooDiff from "./peers/roo-apply-diff.mjs";
import * as rooEdit from "./peers/roo-edit-file.mjs";
import * as zed from "./peers/zed.mjs";

/**
 * `granularity`: "line" when the tool can only match whole lines (its exact retry after a re-read
 * sends whole lines); `hint`: which disambiguation the duplicate cases give it; `hintEvery`: the
 * tool's call carries a line hint on every edit (Zed's `<old_text line=N>`), not only in duplicates.
 */
export const PEERS = [
  { key: "AQ", name: "Anthropic text editor (reference str_replace)", source: "anthropics/anthropic-quickstarts@44c2b5c (2025-06) computer-use-demo/computer_use_demo/tools/edit.py", mod: anthropic, granularity: "substring" },
  { key: "OH", name: "OpenHands ACI str_replace", source: "All-Hands-AI/openhands-aci@9d22d0d (2026-02) openhands_aci/editor/editor.py", mod: openhands, granularity: "substring" },
  { key: "CX", name: "Codex apply_patch", source: "openai/codex@7116353 codex-rs/apply-patch/src/{seek_sequence.rs,lib.rs}", mod: codex, granularity: "line", hint: "anchor" },
  { key: "AI", name: "Aider editblock", source: "Aider-AI/aider@5dc9490 (2026-05) aider/coders/editblock_coder.py", mod: aider, granularity: "line", format: "aider-block" },
  { key: "RO-d", name: "Roo Code apply_diff", source: "RooCodeInc/Roo-Code@cb83656 (2026-04) src/core/diff/strategies/multi-search-replace.ts", mod: rooDiff, granularity: "line", hint: "line" },
  { key: "RO-e", name: "Roo Code edit_file", source: "RooCodeInc/Roo-Code@cb83656 (2026-04) src/core/tools/EditFileTool.ts", mod: rooEdit, granularity: "substring", takesCount: true },
  { key: "CL", name: "Cline legacy replace_in_file matcher", source: "cline/cline@1f31738b32^ apps/vscode/src/core/assistant-message/diff.ts (constructNewFileContentV1)", mod: cline, granularity: "line", footnote: "a matcher Cline has since deleted as unused; Cline's current editor is CL-sdk" },
  { key: "CL-sdk", name: "Cline SDK editor (exact, unique)", source: "cline/cline@21cb8d2 (2026-08) sdk/packages/core/src/extensions/tools/executors/editor.ts", mod: clineSdk, granularity: "substring" },
  { key: "ZD", name: "Zed edit agent (streaming fuzzy matcher, a line hint on every edit)", source: "zed-industries/zed crates/agent/src/edit_agent: <old_text line=N> on every edit, the match nearest the hint within 200 lines (behaviour only; GPL-3.0, no code followed)", mod: { apply: zed.applyWithHint }, granularity: "line", hint: "line", hintEvery: true },
  { key: "ZD-nohint", name: "Zed's matcher without a line hint", source: "zed-industries/zed crates/agent/src/edit_agent (behaviour only)", mod: zed, granularity: "line", footnote: "Zed's edit tool sends a line hint with every edit; this is its matcher without one" },
  { key: "CO", name: "Continue find-and-replace", source: "continuedev/continue@d0a3c0b (2026-06) core/edit/searchAndReplace/", mod: cont, granularity: "substring" },
  { key: "OC", name: "opencode edit (replacer chain)", source: "anomalyco/opencode@00937b9 packages/opencode/src/tool/edit.ts", mod: opencode, granularity: "substring" },
];

/** The whole document with `cat -n` gutters: what a peer's re-read shows. */
const catView = (text) => catN(text.replace(/\r\n?/g, "\n").replace(/^\uFEFF/, "").replace(/\n$/, "").split("\n"), 1);

export function peerTool(peer) {
  return {
    key: peer.key,
    name: peer.name,
    granularity: peer.granularity,
    hint: peer.hint,
    takesCount: peer.takesCount === true,
    hintEvery: peer.hintEvery === true,
    format: peer.format,
    footnote: peer.footnote,
    // The peers are pure functions, so the agent can ask whether a retry would be unique under the
    // tool's own matcher (a model widens its needle until the tool stops calling it ambiguous).
    dryRun: (doc, attempt) => !/multiple (occurrences|matches|locations)|appears \d+ times|found \d+ times/i.test(peer.mod.apply(doc, attempt, { path: "dry-run" }).message ?? ""),
    async open(doc, path) {
      let cur = doc;
      return {
        async edit(attempt, disambiguation) {
          const r = peer.mod.apply(cur, attempt, { path, disambiguation: peer.hint ? disambiguation : undefined });
          if (r.kind === "applied") cur = r.doc;
          return { kind: r.kind, message: r.message };
        },
        async read() {
          return catView(cur);
        },
        current: () => cur,
        close() {},
      };
    },
  };
}

export const peerTools = () => PEERS.map(peerTool);

/**
 * agentpad through @agentpad/core: memo_replace, memo_replace_selection, memo_read. `locale`:
 * the language of its responses ("en", the default, or "zh": the same calls, the model reads
 * Chinese, and the tokens counted are the Chinese responses').
 */
export function agentpadTool({ locale = "en" } = {}) {
  return {
    key: locale === "en" ? "agentpad" : `agentpad-${locale}`,
    name: locale === "en" ? "agentpad (memo_replace)" : `agentpad (memo_replace, responses in ${locale})`,
    granularity: "substring",
    hint: "anchor",
    takesCount: true,
    async open(doc, path) {
      const storage = new MemoryStorage({ [path]: doc });
      const ws = await Workspace.create({ storage, persistMode: "immediate", locale });
      const result = (r) => ({
        kind: r.status === "Success" ? "applied" : r.candidates.length > 0 && r.workflow_state === "SelectionPending" ? "candidates" : "error",
        message: r.markdown,
        status: r.status,
        quality: r.match_quality,
        candidates: r.candidates.map((c) => ({ id: c.id, start: c.context_start, end: c.context_end, recommended: c.recommended, quality: c.match_quality })),
      });
      return {
        steps: [],
        async edit(attempt, disambiguation) {
          const args = { old_text: attempt.old_text, new_text: attempt.new_text };
          if (disambiguation?.anchor_line_text) args.search_after = disambiguation.anchor_line_text;
          if (attempt.replace_all) Object.assign(args, { replace_all: true, expected_occurrences: attempt.expected_occurrences });
          this.steps.push({ tool: "memo_replace", args });
          return result(await ws.call("memo_replace", args));
        },
        async pick(id) {
          this.steps.push({ tool: "memo_replace_selection", args: { selection_id: id } });
          return result(await ws.call("memo_replace_selection", { selection_id: id }));
        },
        async read() {
          this.steps.push({ tool: "memo_read", args: {} });
          return (await ws.call("memo_read", {})).markdown;
        },
        current: () => storage.read(path),
        close: () => ws.free(),
      };
    },
  };
}
