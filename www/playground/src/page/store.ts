// The page's one state store (docs/architecture.md#the-playground): the state is a value, changed
// only by dispatching an action through `reduce`, a pure function; panes subscribe and derive
// their view from it. The workspace and its storage are mutable handles the state points to: what
// a call, an editor-state change, a memory turn or an external write did to them is told by a
// revision counter (`revs`), as CodeMirror tells a transaction's effects.
//
// This module imports types only, so a test runs it without a browser (test/store.test.mjs).
import type { Transcript, TranscriptOptions, ToolState, Workspace } from "@agentpad/core";
import type {
  AgentResponse,
  Candidate,
  CandidateStyle,
  EditorState,
  LiveContextOptions,
  Locale,
  PendingChange,
  PersistMode,
  ToolDefinition,
} from "../types";
import type { NearMiss } from "../render";
import type { Sample } from "../samples";
import type { PlaygroundStorage } from "../storage";
import type { LiveView } from "../panes";
import type { HistoryFormat } from "../transcript";
import type { AgentRun } from "../agent/loop";
import type { AdoptedReplay } from "../replay-pane";

// ------------------------------------------------------------------ the store

export type Listener<S> = (state: S, previous: S) => void;

export interface Store<S, A> {
  readonly state: S;
  /** Runs `action` through the update function; subscribers hear of it once if the state changed. */
  dispatch(action: A): void;
  /** `listener(state, previous)` after every change; returns the unsubscribe. */
  subscribe(listener: Listener<S>): () => void;
}

/**
 * A store on `reduce`. A dispatch from a listener is queued and runs once every listener has heard
 * of the change being told, so each listener hears of every change once, in order.
 */
export function createStore<S, A>(initial: S, reduce: (state: S, action: A) => S): Store<S, A> {
  let state = initial;
  const listeners = new Set<Listener<S>>();
  const queue: A[] = [];
  let telling = false;
  return {
    get state() {
      return state;
    },
    dispatch(action: A) {
      queue.push(action);
      if (telling) return;
      telling = true;
      try {
        while (queue.length > 0) {
          const previous = state;
          const next = reduce(previous, queue.shift() as A);
          if (next === previous) continue;
          state = next;
          for (const l of [...listeners]) l(next, previous);
        }
      } finally {
        telling = false;
        queue.length = 0;
      }
    },
    subscribe(listener: Listener<S>) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Calls `render(state)` now and after every change of what `pick` returns (compared element by
 * element with Object.is): a pane's view is a function of those parts of the state.
 */
export function watch<S, A>(store: Store<S, A>, pick: (s: S) => readonly unknown[], render: (s: S) => void, now = true): () => void {
  let last = pick(store.state);
  if (now) render(store.state);
  return store.subscribe((s) => {
    const next = pick(s);
    if (next.length === last.length && next.every((v, i) => Object.is(v, last[i]))) return;
    last = next;
    render(s);
  });
}

// ------------------------------------------------------------------ the page's state

/** The options the page passes to Workspace.create; changing one recreates the workspace. */
export interface PageOptions {
  persistMode: PersistMode;
  locale: Locale;
  candidateStyle: CandidateStyle;
  /** `memory: true`: the workspace offers the recall and search-memory tools. */
  memory: boolean;
  /** The tools' prefix: every tool name the page writes is `${toolPrefix}_${verb}`. */
  toolPrefix: string;
}

/** The settings a header select or the memory checkbox changes. */
export type WorkspaceSettings = Omit<PageOptions, "toolPrefix">;

export const PERSIST_MODES: readonly PersistMode[] = ["manual", "immediate", "disabled"];
export const LOCALES: readonly Locale[] = ["en", "zh"];
export const CANDIDATE_STYLES: readonly CandidateStyle[] = ["list", "table"];
/** The `lang` of the Markdown views (the core's zh words are Simplified Chinese). */
export const LANG: Record<Locale, string> = { en: "en", zh: "zh-Hans" };

/** A tool's name under the page's prefix: `tool(s, "commit")` → `memo_commit`. */
export const toolName = (options: Pick<PageOptions, "toolPrefix">, verb: string): string => `${options.toolPrefix}_${verb}`;

/** The tools only a workspace created with `memory: true` offers. */
export const memoryTools = (o: Pick<PageOptions, "toolPrefix">): ReadonlySet<string> =>
  new Set([toolName(o, "recall_context"), toolName(o, "search_memory")]);

/**
 * The page's options as a transcript holds them. The prefix is written only when it is not the
 * one the page started with, so a share link of the default page reads as before.
 */
export function transcriptOptions(s: Pick<PageState, "options" | "boot">): TranscriptOptions {
  const o = s.options;
  return {
    persistMode: o.persistMode,
    locale: o.locale,
    candidateStyle: o.candidateStyle,
    ...(o.memory ? { memory: true } : {}),
    ...(o.toolPrefix !== s.boot.toolPrefix ? { toolPrefix: o.toolPrefix } : {}),
  };
}

/** A transcript's options as the page's (what it leaves out: the page's defaults). */
export function optionsFrom(t: TranscriptOptions, boot: PageOptions): PageOptions {
  return {
    persistMode: PERSIST_MODES.find((m) => m === t.persistMode) ?? boot.persistMode,
    locale: LOCALES.find((l) => l === t.locale) ?? boot.locale,
    candidateStyle: CANDIDATE_STYLES.find((c) => c === t.candidateStyle) ?? boot.candidateStyle,
    memory: t.memory === true,
    toolPrefix: typeof t.toolPrefix === "string" && t.toolPrefix !== "" ? t.toolPrefix : boot.toolPrefix,
  };
}

export interface CallRecord {
  tool: string;
  args: Record<string, unknown>;
  response: AgentResponse;
  /** The locale its Markdown was rendered in (the core renders at call time). */
  locale: Locale;
  /** The id passed to ws.call({ toolCallId }): the transcript's tool_call id for it. */
  toolCallId: string;
}

export interface SelectionView {
  path: string;
  draft: string; // the draft the candidates' offsets index
  candidates: Candidate[];
  /** A NoMatch's closest regions and what differs, as the core's data. */
  differs: readonly NearMiss[] | null;
  /** The units a find ranked: shown (and highlighted) although no choice is pending. */
  found?: boolean;
}

export interface PendingView {
  preview: string | null;
  changes: PendingChange[];
  source: string;
}

/** ws.toolStates(), filtered as the page offers them, in the core's order. */
export interface ToolsView {
  states: readonly ToolState[];
  /** Every tool known since the page started, visible or not. */
  defs: ReadonlyMap<string, ToolDefinition>;
  byName: ReadonlyMap<string, ToolState>;
  all: readonly string[];
  visible: readonly string[];
}

export interface AgentView {
  run: AgentRun | null;
  /** The page's earlier runs, oldest first. */
  earlier: readonly AgentRun[];
  ab: { a: AgentRun; b: AgentRun } | null;
  abError: string | null;
  /** Bumps when a run reports progress (runs are objects the loop updates in place). */
  rev: number;
}

export interface PageState {
  /** The options the page started with (a transcript leaves out what equals them). */
  readonly boot: PageOptions;
  readonly options: PageOptions;
  readonly sample: Sample;
  /** `document.body.dataset.ready`: "false" while a workspace is being created. */
  readonly ready: "false" | "true" | "error";
  /** What the page shows: a sample's id, or "replay" after adopting a replay. */
  readonly shownSample: string;
  /** `document.body.dataset.share`: opening a share link or an import. */
  readonly share: "" | "loading" | "loaded" | "error" | "refused";
  readonly ws: Workspace | null;
  readonly storage: PlaygroundStorage | null;
  readonly path: string;
  readonly tools: ToolsView;
  /** Storage version of each path when the workspace last ran a call (or was created). */
  readonly seen: ReadonlyMap<string, string | undefined>;
  /** Numbers the tool_call_ids the page passes (call_1, …; auto_preview_1, …). */
  readonly calls: number;
  readonly history: readonly CallRecord[];
  /** Index into history of the response on screen. */
  readonly shown: number;
  readonly selection: SelectionView | null;
  readonly pending: PendingView;
  readonly lastReplaceArgs: Record<string, unknown> | null;
  /** A call or a create is under way (the controls that would free the workspace are disabled). */
  readonly busy: boolean;
  /** A tool call is under way (`document.body.dataset.busy`). */
  readonly calling: boolean;
  /** Bumps on every loadSample, so a slow create that lost the race is freed. */
  readonly generation: number;
  readonly revs: {
    /** A create, a call or an adopted replay: every pane derives anew. */
    readonly workspace: number;
    /** ws.setEditorState took a state. */
    readonly editor: number;
    /** ws.memory.add stored a turn. */
    readonly memory: number;
    /** The storage changed outside a call (an external write, an armed failure). */
    readonly storage: number;
  };
  /** The last editor state asked for (the live-context form shows it when `fill`), and the core's refusal. */
  readonly editor: { readonly asked: Omit<EditorState, "path"> | null; readonly error: string };
  readonly liveView: LiveView;
  readonly liveOptions: Omit<LiveContextOptions, "path">;
  readonly historyFormat: HistoryFormat;
  readonly notice: string | null;
  readonly fatal: string | null;
  /** A pane asked for the console to hold a call (`seq` tells two equal requests apart). */
  readonly consoleFill: {
    readonly tool: string;
    readonly args: Record<string, unknown> | null;
    readonly focus: boolean;
    readonly seq: number;
  } | null;
  /** A pane asked the Replay pane to open a transcript. */
  readonly replayRequest: { readonly transcript: Transcript; readonly source: string; readonly seq: number } | null;
  readonly agent: AgentView;
}

const NO_TOOLS: ToolsView = { states: [], defs: new Map(), byName: new Map(), all: [], visible: [] };
const NO_PENDING: PendingView = { preview: null, changes: [], source: "" };

export function initialState(options: PageOptions, sample: Sample): PageState {
  return {
    boot: options,
    options,
    sample,
    ready: "false",
    shownSample: sample.id,
    share: "",
    ws: null,
    storage: null,
    path: "",
    tools: NO_TOOLS,
    seen: new Map(),
    calls: 0,
    history: [],
    shown: -1,
    selection: null,
    pending: NO_PENDING,
    lastReplaceArgs: null,
    busy: false,
    calling: false,
    generation: 0,
    revs: { workspace: 0, editor: 0, memory: 0, storage: 0 },
    editor: { asked: null, error: "" },
    liveView: "markdown",
    liveOptions: { anchor: "origin" },
    historyFormat: "openai",
    notice: null,
    fatal: null,
    consoleFill: null,
    replayRequest: null,
    agent: { run: null, earlier: [], ab: null, abError: null, rev: 0 },
  };
}

/** The tools a workspace offers the page: without `memory: true` the memory tools are left out. */
export function toolsView(states: readonly ToolState[], options: PageOptions, known: ReadonlyMap<string, ToolDefinition>): ToolsView {
  const hide = memoryTools(options);
  const offered = states.filter((t) => options.memory || !hide.has(t.definition.name));
  const defs = new Map(known);
  for (const t of offered) defs.set(t.definition.name, t.definition);
  return {
    states: offered,
    defs,
    byName: new Map(offered.map((t) => [t.definition.name, t])),
    all: offered.map((t) => t.definition.name),
    visible: offered.filter((t) => t.available).map((t) => t.definition.name),
  };
}

// ------------------------------------------------------------------ actions

export type Action =
  /** A new workspace is being made for `sample` (everything of the old one is dropped). */
  | { type: "load"; sample: Sample }
  | {
      type: "created";
      ws: Workspace;
      storage: PlaygroundStorage;
      path: string;
      seen: ReadonlyMap<string, string | undefined>;
      tools: readonly ToolState[];
    }
  /** The load of `generation` ended (the workspace made, or not). */
  | { type: "loaded"; generation: number; notice?: string }
  | { type: "options"; options: Partial<PageOptions> }
  | { type: "busy"; busy: boolean; calling?: boolean }
  /** One more tool_call_id taken. */
  | { type: "callId" }
  /** A call ended: what it changed (fields left out stay); always ends the busy state. */
  | {
      type: "called";
      record?: CallRecord;
      path?: string;
      selection?: SelectionView | null;
      pending?: PendingView;
      lastReplaceArgs?: Record<string, unknown> | null;
      tools?: readonly ToolState[];
      seen?: ReadonlyMap<string, string | undefined>;
      fatal?: string;
    }
  | {
      type: "adopt";
      replay: AdoptedReplay;
      options: PageOptions;
      path: string;
      selection: SelectionView | null;
      pending: PendingView;
      tools: readonly ToolState[];
    }
  | { type: "show"; index: number }
  | { type: "path"; path: string }
  | { type: "editorState"; ok: boolean; asked: Omit<EditorState, "path"> | null; error: string }
  | { type: "memoryAdded" }
  | { type: "storageChanged" }
  | { type: "liveView"; view: LiveView }
  | { type: "liveOptions"; options: Omit<LiveContextOptions, "path"> }
  | { type: "historyFormat"; format: HistoryFormat }
  | { type: "notice"; message: string | null }
  | { type: "fatal"; message: string | null }
  | { type: "share"; share: PageState["share"] }
  | { type: "fillConsole"; tool: string; args: Record<string, unknown> | null; focus?: boolean }
  | { type: "play"; transcript: Transcript; source: string }
  | { type: "agent"; agent: Partial<Omit<AgentView, "rev">> };

const bump = (s: PageState, key: keyof PageState["revs"]): PageState["revs"] => ({ ...s.revs, [key]: s.revs[key] + 1 });

/** The page's update function: pure, the previous state untouched. */
export function reduce(s: PageState, a: Action): PageState {
  switch (a.type) {
    case "load":
      return {
        ...s,
        sample: a.sample,
        generation: s.generation + 1,
        ready: "false",
        busy: true,
        fatal: null,
        notice: null,
        ws: null,
        storage: null,
        history: [],
        shown: -1,
        selection: null,
        pending: NO_PENDING,
        lastReplaceArgs: null,
        seen: new Map(),
        calls: 0,
      };
    case "created":
      return {
        ...s,
        ws: a.ws,
        storage: a.storage,
        path: a.path,
        seen: a.seen,
        tools: toolsView(a.tools, s.options, s.tools.defs),
      };
    case "loaded":
      if (a.generation !== s.generation) return s;
      return {
        ...s,
        busy: false,
        ready: s.ws ? "true" : "error",
        shownSample: s.sample.id,
        notice: a.notice !== undefined && s.ws ? a.notice : s.notice,
        revs: bump(s, "workspace"),
      };
    case "options":
      return { ...s, options: { ...s.options, ...a.options } };
    case "busy":
      return a.busy === s.busy && (a.calling ?? s.calling) === s.calling ? s : { ...s, busy: a.busy, calling: a.calling ?? s.calling };
    case "callId":
      return { ...s, calls: s.calls + 1 };
    case "called": {
      const history = a.record ? [...s.history, a.record] : s.history;
      return {
        ...s,
        history,
        shown: a.record ? history.length - 1 : s.shown,
        path: a.path ?? s.path,
        selection: a.selection !== undefined ? a.selection : s.selection,
        pending: a.pending ?? s.pending,
        lastReplaceArgs: a.lastReplaceArgs !== undefined ? a.lastReplaceArgs : s.lastReplaceArgs,
        tools: a.tools ? toolsView(a.tools, s.options, s.tools.defs) : s.tools,
        seen: a.seen ?? s.seen,
        fatal: a.fatal ?? s.fatal,
        busy: false,
        calling: false,
        revs: bump(s, "workspace"),
      };
    }
    case "adopt": {
      const v = a.replay;
      const history = v.calls.map((c) => ({ ...c, locale: a.options.locale }));
      return {
        ...s,
        generation: s.generation + 1, // a create still under way loses the race and frees its workspace
        options: a.options,
        ws: v.workspace,
        storage: v.storage,
        history,
        shown: history.length - 1,
        calls: history.length,
        seen: new Map(v.seen),
        lastReplaceArgs: null,
        path: a.path,
        selection: a.selection,
        pending: a.pending,
        tools: toolsView(a.tools, a.options, s.tools.defs),
        fatal: null,
        notice: v.notice,
        ready: "true",
        shownSample: "replay",
        revs: bump(s, "workspace"),
      };
    }
    case "show":
      return a.index === s.shown ? s : { ...s, shown: a.index };
    case "path":
      return { ...s, path: a.path };
    case "editorState":
      return { ...s, editor: { asked: a.asked, error: a.error }, revs: a.ok ? bump(s, "editor") : s.revs };
    case "memoryAdded":
      return { ...s, revs: bump(s, "memory") };
    case "storageChanged":
      return { ...s, revs: bump(s, "storage") };
    case "liveView":
      return a.view === s.liveView ? s : { ...s, liveView: a.view };
    case "liveOptions":
      return { ...s, liveOptions: a.options };
    case "historyFormat":
      return a.format === s.historyFormat ? s : { ...s, historyFormat: a.format };
    case "notice":
      return a.message === s.notice ? s : { ...s, notice: a.message };
    case "fatal":
      return a.message === s.fatal ? s : { ...s, fatal: a.message };
    case "share":
      return { ...s, share: a.share };
    case "fillConsole":
      return { ...s, consoleFill: { tool: a.tool, args: a.args, focus: a.focus ?? false, seq: (s.consoleFill?.seq ?? 0) + 1 } };
    case "play":
      return { ...s, replayRequest: { transcript: a.transcript, source: a.source, seq: (s.replayRequest?.seq ?? 0) + 1 } };
    case "agent":
      return { ...s, agent: { ...s.agent, ...a.agent, rev: s.agent.rev + 1 } };
  }
}

export type PageStore = Store<PageState, Action>;

/** The live-context options of the document on screen. */
export const liveOptionsOf = (s: PageState): LiveContextOptions => ({ path: s.path, ...s.liveOptions });

// ------------------------------------------------------------------ what panes may ask of the page

/**
 * The page's effects, made by src/page/session.ts and handed to each pane by main.ts: whatever
 * runs a call on, creates or replaces the workspace. A pane changes the rest of the state by
 * dispatching.
 */
export interface PageCommands {
  loadSample(sample: Sample, options?: LoadOptions): Promise<void>;
  /** Recreate the workspace with `change` on the current documents (the notice says what was dropped). */
  recreate(change: Partial<WorkspaceSettings>): Promise<void>;
  /** A call as the console runs it (a memo_preview of the page's own follows when needed). */
  run(tool: string, args: Record<string, unknown>): Promise<void>;
  /** A model's tool call through `ws.runToolCall`; null when the page is busy or has no workspace. */
  runModelToolCall(
    call: unknown,
    format: "openai" | "anthropic",
    described: { tool: string; id: string; sent: unknown },
  ): Promise<{ result: unknown; response: AgentResponse } | null>;
  /** ws.setEditorState on the document on screen; `fill`: the form shows it. */
  setEditorState(state: Omit<EditorState, "path">, fill?: boolean): boolean;
  /** storage.write of the document on screen, recorded for the share link. */
  writeExternally(text: string, what: string): void;
  failNextSave(): void;
  /** What the page did since its workspace was created, as a transcript (the share link's). */
  transcript(): Transcript;
  openShared(t: Transcript, source?: () => string): Promise<void>;
  openShareLink(hash: string): Promise<boolean>;
  adoptReplay(v: AdoptedReplay): void;
}

export interface LoadOptions {
  /** The documents to start from (path → text, the default document first); default: the sample's. */
  texts?: Record<string, string>;
  /** The document to show afterwards, if it is open. */
  path?: string;
  /** Said in the notice bar once the workspace is ready. */
  notice?: string;
  /** The memory store to carry over (ws.memory.export() of the workspace being replaced). */
  memory?: string;
}
