// The agent in awareness (docs/co-editing.md §Awareness): its name, its candidates and its
// pending changes as Y.RelativePosition ranges, so each person's editor shows them where they
// are now, however much has been typed since. y-codemirror.next draws a peer's `cursor` field
// as its selection: the agent puts its first pending change (or recommended candidate) there.
import * as Y from "yjs";

/** The field of the awareness state an agent publishes under. */
export const AWARENESS_FIELD = "agentpad";

/** What y-protocols' Awareness offers that this module uses. */
export interface AwarenessLike {
  setLocalStateField(field: string, value: unknown): void;
  getStates(): Map<number, Record<string, unknown>>;
}

/** One published range: `from`/`to` are `Y.relativePositionToJSON` values. */
export interface AgentRange {
  kind: "pending" | "candidate";
  /** The change's or candidate's letter. */
  id: string;
  from: unknown;
  to: unknown;
  /** A pending change's new text. */
  replacement?: string;
  recommended?: boolean;
  /**
   * Published at an earlier text: the agent has not seen the latest edits yet (its next call
   * takes them in). The range still follows the text it was made on.
   */
  behind?: boolean;
}

export interface AgentAwareness {
  name: string;
  ranges: AgentRange[];
}

/** The parts of an agentpad response this module reads (a `ToolResponse` fits). */
export interface ResponseLike {
  pending_changes?: readonly {
    change_id: string;
    path: string;
    position: number;
    old_text: string;
    new_text: string;
    /** Every place of the change (a replace-all has several); without it the change is its one place. */
    places?: readonly { position: number; old_text: string; new_text: string }[];
  }[];
  candidates?: readonly { id: string; context_start: number; context_end: number; recommended: boolean }[] | null;
}

/** Per awareness and path, the pending ranges last published from fresh positions. */
const lastPending = new WeakMap<AwarenessLike, Map<string, AgentRange[]>>();

/**
 * Publishes the agent's state for `path` after a call: its pending changes (positions index the
 * committed text, so they are computed only while `ytext` holds exactly `committed`) and its
 * candidates (offsets index the draft: published only when the draft is the committed text).
 * While `ytext` is ahead of the agent (someone typed since its last call), the pending changes
 * it published before and still has stay, marked `behind`: relative positions follow the text,
 * so they are still where the changes are. Returns the ranges published. Cost: O(n) to compare
 * the texts + O(ranges · log) in Yjs.
 */
export function publishAgentState(
  awareness: AwarenessLike,
  ytext: Y.Text,
  response: ResponseLike,
  options: { path: string; committed: string; draft: string; name?: string; color?: string; colorLight?: string },
): AgentRange[] {
  const name = options.name ?? "agent";
  const rel = (index: number, assoc: number) => Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(ytext, index, assoc));
  const ranges: AgentRange[] = [];
  let byPath = lastPending.get(awareness);
  if (byPath === undefined) lastPending.set(awareness, (byPath = new Map()));
  if (ytext.toString() !== options.committed) {
    const still = new Set((response.pending_changes ?? []).filter((c) => c.path === options.path).map((c) => c.change_id));
    ranges.push(...(byPath.get(options.path) ?? []).filter((r) => still.has(r.id)).map((r) => ({ ...r, behind: true })));
  } else {
    for (const c of response.pending_changes ?? []) {
      if (c.path !== options.path) continue;
      // Start sticks to the text after it, end to the text before: typing at either edge stays outside.
      for (const p of c.places ?? [c]) {
        ranges.push({
          kind: "pending",
          id: c.change_id,
          from: rel(p.position, 0),
          to: rel(p.position + p.old_text.length, -1),
          replacement: p.new_text,
        });
      }
    }
    if (options.draft === options.committed) {
      for (const c of response.candidates ?? []) {
        ranges.push({ kind: "candidate", id: c.id, from: rel(c.context_start, 0), to: rel(c.context_end, -1), recommended: c.recommended });
      }
    }
    byPath.set(
      options.path,
      ranges.filter((r) => r.kind === "pending"),
    );
  }
  awareness.setLocalStateField("user", { name, color: options.color ?? "#9a4d00", colorLight: options.colorLight ?? "#ffd8b0" });
  awareness.setLocalStateField(AWARENESS_FIELD, { name, ranges } satisfies AgentAwareness);
  const focus = ranges.find((r) => r.kind === "pending") ?? ranges.find((r) => r.recommended) ?? ranges[0];
  awareness.setLocalStateField("cursor", focus === undefined ? null : { anchor: focus.from, head: focus.to });
  return ranges;
}

/** A published range resolved against a person's own doc. */
export interface ResolvedRange extends Omit<AgentRange, "from" | "to"> {
  clientId: number;
  agent: string;
  from: number;
  to: number;
}

/**
 * Every agent range published in `awareness`, where it is now in `doc` (UTF-16 offsets of its
 * text). A range whose text has not arrived yet is left out: call again on the next update.
 * Cost: O(ranges · log) in Yjs.
 */
export function resolveAgentRanges(awareness: AwarenessLike, doc: Y.Doc): ResolvedRange[] {
  const out: ResolvedRange[] = [];
  for (const [clientId, state] of awareness.getStates()) {
    const published = state[AWARENESS_FIELD] as AgentAwareness | undefined;
    if (published === undefined || !Array.isArray(published.ranges)) continue;
    for (const r of published.ranges) {
      const from = Y.createAbsolutePositionFromRelativePosition(Y.createRelativePositionFromJSON(r.from), doc);
      const to = Y.createAbsolutePositionFromRelativePosition(Y.createRelativePositionFromJSON(r.to), doc);
      if (from === null || to === null) continue;
      out.push({ ...r, clientId, agent: published.name, from: from.index, to: Math.max(from.index, to.index) });
    }
  }
  return out;
}
