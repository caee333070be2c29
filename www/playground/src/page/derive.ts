// Views derived from the state that more than one pane shows, computed once per state.
import type { LiveContext } from "../types";
import { errorText } from "./dom";
import { liveOptionsOf, type PageState } from "./store";

export type LiveResult = { ok: true; lc: LiveContext } | { ok: false; error: string };

let cached: { key: readonly unknown[]; value: LiveResult | null } | null = null;

/** What makes the live context differ: the workspace and what was done to it, the document, the options. */
export const liveContextKey = (s: PageState): readonly unknown[] => [
  s.ws,
  s.revs.workspace,
  s.revs.editor,
  s.revs.memory,
  s.path,
  s.liveOptions,
];

/**
 * ws.liveContext for the document on screen (the live-context pane shows it, the document pane
 * marks its editor state); null without a workspace.
 */
export function liveContextOf(s: PageState): LiveResult | null {
  const key = liveContextKey(s);
  if (cached && cached.key.length === key.length && cached.key.every((v, i) => Object.is(v, key[i]))) return cached.value;
  let value: LiveResult | null = null;
  if (s.ws) {
    try {
      value = { ok: true, lc: s.ws.liveContext(liveOptionsOf(s)) };
    } catch (e) {
      value = { ok: false, error: errorText(e) };
    }
  }
  cached = { key, value };
  return value;
}
