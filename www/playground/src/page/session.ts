// The page's effects (docs/architecture.md#the-playground): creating and recreating the workspace,
// running calls on it, share links, imports and adopted replays. Each ends in actions dispatched
// to the store; no pane is called from here (main.ts hands these commands to the panes).
import { Workspace, isHostStep, isToolStep, type HostStep, type ToolState, type Transcript } from "@agentpad/core";
import type { AgentResponse, EditorState } from "../types";
import { SAMPLES, type Sample } from "../samples";
import { PlaygroundStorage } from "../storage";
import { SessionRecorder } from "../share";
import { transcriptFromHash, type AdoptedReplay } from "../replay-pane";
import { errorText } from "./dom";
import { t as say, tn } from "../phrases";
import {
  optionsFrom,
  toolName,
  toolsView,
  transcriptOptions,
  type Action,
  type LoadOptions,
  type PageCommands,
  type PageOptions,
  type PageStore,
  type PendingView,
  type SelectionView,
  type WorkspaceSettings,
} from "./store";

type Called = Extract<Action, { type: "called" }>;

/** Storage versions of every stored path: what the workspace has seen (it syncs at the start of every call). */
async function seenVersions(storage: PlaygroundStorage): Promise<Map<string, string | undefined>> {
  const seen = new Map<string, string | undefined>();
  for (const p of await storage.list()) seen.set(p, storage.version(p));
  return seen;
}

export function createSession(store: PageStore): PageCommands {
  /** What the page did since its workspace was created: a share link encodes it. */
  const recorder = new SessionRecorder();
  const state = () => store.state;

  function nextCallId(kind: string): string {
    store.dispatch({ type: "callId" });
    return `${kind}_${state().calls}`;
  }

  // ---------------------------------------------------------------- workspace lifecycle

  async function loadSample(sample: Sample, options: LoadOptions = {}): Promise<void> {
    state().ws?.free();
    store.dispatch({ type: "load", sample });
    const generation = state().generation;
    try {
      const texts = options.texts ?? { [sample.path]: sample.text };
      const storage = new PlaygroundStorage(texts);
      const o = state().options;
      // The live context, memory and token meter panes call sync methods whose code the
      // browser entry fetches on first use: load it with the workspace.
      await Workspace.loadAll();
      const ws = await Workspace.create({
        storage,
        persistMode: o.persistMode,
        locale: o.locale,
        candidateStyle: o.candidateStyle,
        memory: o.memory,
        toolPrefix: o.toolPrefix,
      });
      if (options.memory !== undefined) ws.memory.import(options.memory);
      if (generation !== state().generation) {
        ws.free(); // another sample was picked meanwhile
        return;
      }
      recorder.begin(texts, transcriptOptions(state())); // the share link starts from here
      const paths = ws.paths();
      const path = options.path && paths.includes(options.path) ? options.path : (paths[0] ?? sample.path);
      const seen = await seenVersions(storage);
      if (generation !== state().generation) {
        ws.free();
        return;
      }
      store.dispatch({ type: "created", ws, storage, path, seen, tools: ws.toolStates() });
      store.dispatch({ type: "fillConsole", tool: toolName(o, sample.suggested.verb), args: sample.suggested.args });
    } catch (e) {
      store.dispatch({ type: "fatal", message: say("session.create_failed", { error: errorText(e) }) });
    }
    store.dispatch({ type: "loaded", generation, notice: options.notice });
  }

  /**
   * Recreates the workspace with `change` (persist mode, locale, candidate style, memory) on the
   * current documents: each document's saved text (in disabled mode the text committed in memory,
   * which storage never saw). Pending changes, the selection, the task stack and the calls are
   * dropped; the page says so. (The core renders the Markdown when a call returns, so a new locale
   * or style shows from the next call on.)
   */
  async function recreate(change: Partial<WorkspaceSettings>): Promise<void> {
    const before = state();
    const { ws, storage } = before;
    const previousMode = before.options.persistMode;
    const changed = (Object.keys(change) as (keyof WorkspaceSettings)[]).filter(
      (k) => change[k] !== undefined && change[k] !== before.options[k],
    );
    store.dispatch({ type: "options", options: change });
    const o = state().options;
    if (!ws || !storage) {
      await loadSample(before.sample);
      return;
    }
    const open = ws.paths();
    const texts: Record<string, string> = {};
    for (const p of [...open, ...(await storage.list()).filter((x) => !open.includes(x))]) {
      const stored = storage.read(p);
      texts[p] = previousMode === "disabled" && open.includes(p) ? ws.text(p) : (stored ?? ws.text(p));
    }
    const history = before.history;
    const last = history[history.length - 1]?.response;
    const pending = last ? last.pending_changes.length : 0;
    const dropped = [
      pending > 0 ? tn("session.pending_changes", pending) : "",
      history.length > 0 ? tn("session.calls", history.length) : "",
      last && last.task_stack.length > 0 ? say("session.the_task_stack") : "",
    ].filter(Boolean);
    const source = say(previousMode === "disabled" ? "session.source_memory" : "session.source_saved");
    const what = changed.map((k) => `${k} "${o[k]}"`).join(", ") || `persistMode "${o.persistMode}"`;
    const fromNext = changed.some((k) => k === "locale" || k === "candidateStyle") ? say("session.from_next") : "";
    // The memory store is the host's: it goes over to the new workspace.
    const turns = ws.memory.turns().length;
    const kept = turns > 0 ? tn("session.kept_turns", turns) : "";
    await loadSample(before.sample, {
      texts,
      path: before.path,
      memory: turns > 0 ? ws.memory.export() : undefined,
      notice:
        say("session.recreated", { what, source, paths: Object.keys(texts).join(", ") }) +
        (dropped.length > 0 ? say("session.dropped", { dropped: dropped.join(say("session.list_sep")) }) : say("session.stop")) +
        fromNext +
        kept,
    });
  }

  // ---------------------------------------------------------------- calls

  async function run(tool: string, args: Record<string, unknown>): Promise<void> {
    const ws = state().ws;
    if (!ws || state().busy) return;
    const toolCallId = nextCallId("call");
    await perform(ws, tool, args, args, toolCallId, true, async () => ({
      response: await ws.callUntyped(tool, args, { toolCallId }),
      result: null,
    }));
  }

  async function runModelToolCall(
    call: unknown,
    format: "openai" | "anthropic",
    described: { tool: string; id: string; sent: unknown },
  ): Promise<{ result: unknown; response: AgentResponse } | null> {
    const ws = state().ws;
    if (!ws || state().busy) return null;
    let parsed: unknown = described.sent;
    if (typeof parsed === "string") {
      try {
        parsed = parsed.trim() === "" ? {} : JSON.parse(parsed);
      } catch {
        /* kept as sent */
      }
    }
    const args = (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : { "(as sent)": parsed }) as Record<
      string,
      unknown
    >;
    let out: { result: unknown; response: AgentResponse } | null = null;
    // No memo_preview of the page's own between the model's calls: the model's live context would
    // list a call it did not make (the pending diff is the response's own preview, as in a replay).
    await perform(ws, described.tool, args, parsed, described.id, false, async () => {
      let response: AgentResponse | null = null;
      const result = await ws.runToolCall(call as never, { format, onResponse: (r) => (response = r as AgentResponse) });
      if (!response) throw new Error("runToolCall returned without a response");
      out = { result, response };
      return out;
    });
    return out;
  }

  /** A call on the page's workspace, then one `called` action with what every pane renders from. */
  async function perform(
    ws: Workspace,
    tool: string,
    args: Record<string, unknown>,
    recorded: unknown,
    toolCallId: string,
    previewCalls: boolean,
    invoke: () => Promise<{ response: AgentResponse; result: unknown }>,
  ): Promise<void> {
    store.dispatch({ type: "busy", busy: true, calling: true });
    store.dispatch({ type: "notice", message: null }); // a notice announces what the next call will meet; this is that call
    const done: Called = { type: "called" };
    try {
      const { response: r } = await invoke();
      const s = state();
      done.record = { tool, args, response: r, locale: s.options.locale, toolCallId };
      recorder.call(tool, recorded);
      // A MultiMatch, or a NoMatch offering near misses: "use B" repeats it with match_id.
      if (tool.endsWith("_replace") && r.candidates.length > 0) {
        const { match_id: _drop, ...rest } = args;
        done.lastReplaceArgs = rest;
      }
      const paths = ws.paths();
      let path = s.path;
      if (r.path && paths.includes(r.path)) path = r.path;
      if (!paths.includes(path)) path = paths[0] ?? path;
      done.path = path;
      // Candidates are offsets into the draft as it is right after this call.
      if (r.candidates.length > 0) {
        done.selection = {
          path,
          draft: ws.draft(path),
          candidates: r.candidates,
          differs: r.status === "NoMatch" ? r.near_misses : null,
          ...(tool === toolName(s.options, "find") ? { found: true } : {}),
        };
      } else if (ws.state !== "SelectionPending") {
        done.selection = null;
      }
      const tools: ToolState[] = ws.toolStates(); // visibility follows the new state
      done.tools = tools;
      done.pending = previewCalls
        ? await pendingAfter(ws, r, tool, path, toolsView(tools, s.options, s.tools.defs).visible)
        : { preview: r.status !== "NoMatch" ? r.preview : null, changes: r.pending_changes, source: say("session.from_agent", { tool }) };
      if (s.storage) done.seen = await seenVersions(s.storage);
    } catch (e) {
      done.fatal = say("session.call_failed", { tool, error: errorText(e) });
    }
    store.dispatch(done);
  }

  /**
   * The pending diff: the response's own preview; when it has none (a MultiMatch, a read, a
   * refused call) and changes may be pending, ask the core with the preview tool for the document
   * on screen.
   */
  async function pendingAfter(
    ws: Workspace,
    r: AgentResponse,
    tool: string,
    path: string,
    visible: readonly string[],
  ): Promise<PendingView> {
    // A NoMatch's preview is what differs (shown under the candidates), not a pending diff.
    if (r.preview !== null && r.preview !== undefined && r.status !== "NoMatch") {
      return { preview: r.preview, changes: r.pending_changes, source: say("session.from", { tool }) };
    }
    const previewTool = toolName(state().options, "preview");
    // A successful preview call without a preview already says that nothing is pending.
    const answered = tool === previewTool && (r.status === "Success" || r.status === "NoOp");
    const mayHavePending = ws.state !== "Idle" || r.pending_changes.length > 0;
    if (mayHavePending && !answered && visible.includes(previewTool)) {
      const p: AgentResponse = await ws.callUntyped(previewTool, { path }, { toolCallId: nextCallId("auto_preview") });
      return { preview: p.preview, changes: p.pending_changes, source: say("session.from_auto", { tool: previewTool }) };
    }
    return { preview: null, changes: r.pending_changes, source: say("session.from", { tool }) };
  }

  // ---------------------------------------------------------------- the editor state and storage

  function setEditorState(editor: Omit<EditorState, "path">, fill = false): boolean {
    const { ws, path } = state();
    if (!ws) return false;
    const asked = fill ? editor : null;
    try {
      ws.setEditorState({ path, ...editor });
      store.dispatch({ type: "editorState", ok: true, asked, error: "" });
      return true;
    } catch (e) {
      store.dispatch({ type: "editorState", ok: false, asked, error: say("session.editor_refused", { error: errorText(e) }) });
      return false;
    }
  }

  /** storage.write(path, text): another program changed the document on screen. */
  function writeExternally(text: string, what: string): void {
    const { storage, ws, busy, path } = state();
    if (!storage || !ws || busy) return;
    const version = storage.write(path, text);
    recorder.host({ host: "write", path, text });
    const pending = ws.draft(path) !== ws.text(path);
    const p = state().options;
    store.dispatch({
      type: "notice",
      message:
        say("session.written", { path, version, what }) +
        (pending
          ? say("session.written_pending", {
              rebase: toolName(p, "rebase"),
              refresh: toolName(p, "refresh"),
              discard: toolName(p, "discard"),
            })
          : say("session.written_nothing_pending")),
    });
    store.dispatch({ type: "storageChanged" });
  }

  function failNextSave(): void {
    const { storage, busy, options } = state();
    if (!storage || busy) return;
    storage.failNext("save");
    recorder.host({ host: "failNextSave" });
    store.dispatch({
      type: "notice",
      message:
        say("session.fail_armed", { n: storage.armedSaveFailures }) +
        say(
          options.persistMode === "disabled"
            ? "session.fail_disabled"
            : options.persistMode === "immediate"
              ? "session.fail_immediate"
              : "session.fail_manual",
        ),
    });
    store.dispatch({ type: "storageChanged" });
  }

  // ---------------------------------------------------------------- replay, share links, imports

  /** The Replay pane's state becomes the page's: its workspace, storage and calls (src/replay-pane.ts). */
  function adoptReplay(v: AdoptedReplay): void {
    const s = state();
    if (s.ws && s.ws !== v.workspace) s.ws.free();
    const options: PageOptions = optionsFrom(v.options, s.boot);
    const ws = v.workspace;
    const last = v.calls[v.calls.length - 1];
    const r = last?.response;
    const paths = ws.paths();
    const path = r?.path && paths.includes(r.path) ? r.path : paths.includes(s.path) ? s.path : (paths[0] ?? s.path);
    const selection: SelectionView | null =
      r && r.candidates.length > 0 && ws.state === "SelectionPending"
        ? { path, draft: ws.draft(path), candidates: r.candidates, differs: r.status === "NoMatch" ? r.near_misses : null }
        : null;
    // The response's own preview only: a preview call here would be a call the transcript does not have.
    const pending: PendingView = r
      ? {
          preview: r.status !== "NoMatch" ? r.preview : null,
          changes: r.pending_changes,
          source: say("session.from_replay", { tool: last.tool }),
        }
      : { preview: null, changes: [], source: "" };
    recorder.begin(v.documents, v.options, v.title);
    for (const step of v.steps) {
      if (isToolStep(step)) recorder.call(step.tool, step.args ?? {});
      else if (isHostStep(step)) recorder.host(step);
    }
    store.dispatch({ type: "adopt", replay: v, options, path, selection, pending, tools: ws.toolStates() });
  }

  /** A storage action of a shared session, on the page's storage. */
  function hostAction(step: HostStep): void {
    const storage = state().storage;
    if (!storage) return;
    if (step.host === "write") storage.write(step.path, step.text);
    else if (step.host === "delete") storage.delete(step.path);
    else storage.failNext("save");
    recorder.host(step);
  }

  /** Load a shared session: its documents with its options, then its calls run in order as the console runs them. */
  async function openShared(t: Transcript, source?: () => string): Promise<void> {
    store.dispatch({ type: "share", share: "loading" });
    store.dispatch({ type: "options", options: optionsFrom(t.options ?? {}, state().boot) });
    const sample = SAMPLES.find((s) => s.path in t.documents) ?? state().sample;
    await loadSample(sample, { texts: t.documents });
    let calls = 0;
    for (const step of t.steps) {
      if (!state().ws) break;
      if (isToolStep(step)) {
        await run(step.tool, (step.args ?? {}) as Record<string, unknown>);
        calls++;
      } else if (isHostStep(step)) hostAction(step);
    }
    if (state().ws) {
      store.dispatch({
        type: "notice",
        // Said in the link's locale, which is the page's by now.
        message: say("session.opened", {
          source: source ? source() : say("session.opened_share_link"),
          paths: Object.keys(t.documents).join(", "),
          options: JSON.stringify(transcriptOptions(state())),
          calls: tn("session.calls", calls),
        }),
      });
    }
    store.dispatch({ type: "share", share: state().ws ? "loaded" : "error" });
  }

  /** A `#t=` hash: open it (true), or false when the hash is no share link. A link that does not decode is refused with a message. */
  async function openShareLink(hash: string): Promise<boolean> {
    let t: Transcript | null;
    try {
      t = await transcriptFromHash(hash);
    } catch (e) {
      await loadSample(state().sample);
      store.dispatch({
        type: "fatal",
        message: say("session.share_refused", { error: e instanceof Error ? e.message : String(e) }),
      });
      store.dispatch({ type: "share", share: "refused" });
      return true;
    }
    if (t === null) return false;
    await openShared(t);
    return true;
  }

  return {
    loadSample,
    recreate,
    run,
    runModelToolCall,
    setEditorState,
    writeExternally,
    failNextSave,
    transcript: () => recorder.transcript(),
    openShared,
    openShareLink,
    adoptReplay,
  };
}
