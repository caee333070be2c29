// Transcripts: a saved agent session ("agentpad-transcript/1") replayed through a fresh workspace,
// each response compared with what the recording returned. The playground's replay and the
// `agentpad replay` command both run this, so a prompt or format change can be checked against
// saved sessions the same way everywhere.
import { MemoryStorage } from "./storage.js";
import type { Locale, PersistMode, ToolResponse } from "./types.js";
import { Workspace } from "./workspace.js";

export const TRANSCRIPT_FORMAT = "agentpad-transcript/1";

/** The Workspace.create options a transcript may set (no storage, no diagnostics sink). */
export interface TranscriptOptions {
  persistMode?: PersistMode;
  locale?: Locale;
  candidateStyle?: "table" | "list";
  toolPrefix?: string;
  memory?: boolean;
  [option: string]: unknown;
}

/** What the recording returned for a tool step; only the fields present are compared. */
export interface TranscriptExpectation {
  status?: string;
  workflow_state?: string;
  /** Whether the call ended an edit session (commit or revert: `history_delta` set). */
  ends_session?: boolean;
  /** The Markdown the model read, byte for byte. */
  markdown?: string;
  /** Other recorded facts (e.g. the edit session a call belongs to) are kept but not compared. */
  [recorded: string]: unknown;
}

/** Plain assistant text between calls: shown, not run. */
export interface SayStep {
  say: string;
}

/** One tool call as the model made it. */
export interface ToolStep {
  tool: string;
  args?: unknown;
  tool_call_id?: string;
  /** The shell's clock for this call (ms since the epoch); without it, a fixed clock (see {@link stepTime}). */
  at_ms?: number;
  note?: string;
  expect?: TranscriptExpectation;
}

/**
 * Something the host or another program does between calls: another program writes or deletes
 * a document (`write`, `delete`), or the storage fails the next save (`failNextSave`).
 */
export type HostStep =
  | { host: "write"; path: string; text: string; note?: string }
  | { host: "delete"; path: string; note?: string }
  | { host: "failNextSave"; note?: string };

export type TranscriptStep = SayStep | ToolStep | HostStep;

export interface Transcript {
  format: typeof TRANSCRIPT_FORMAT;
  /** A title for lists (the playground's transcript menu). */
  title?: string;
  description?: string;
  /** Path → raw text as storage holds it when the session starts. */
  documents: Record<string, string>;
  options?: TranscriptOptions;
  system?: string;
  prompt?: string;
  steps: TranscriptStep[];
}

/** One recorded field that the replay returned differently. */
export interface Difference {
  field: "status" | "workflow_state" | "ends_session" | "markdown";
  expected: string;
  actual: string;
  /** For `markdown`: the first line (1-based) that differs. */
  line?: number;
}

export interface ReplayedStep {
  /** Index in `transcript.steps`. */
  index: number;
  step: TranscriptStep;
  /** The response, for tool steps. */
  response?: ToolResponse;
  differences: Difference[];
}

export interface ReplayReport {
  steps: ReplayedStep[];
  /** Steps whose response differs from the recording. */
  differing: number;
  /** Tool steps run. */
  calls: number;
  /** What storage holds at the end, path → raw text. */
  storage: Record<string, string>;
}

export interface ReplayOptions {
  /** Overrides the transcript's options (e.g. a locale, to see the responses in Chinese). */
  options?: TranscriptOptions;
  /** Stop before this step index (the playground steps forward and back by replaying up to it). */
  until?: number;
  /** Called after each step, in order. */
  onStep?: (step: ReplayedStep) => void;
}

/** The fixed clock of a tool step without `at_ms`: 2025-01-01T00:00:00Z plus one second per step. */
export function stepTime(index: number): number {
  return Date.UTC(2025, 0, 1) + index * 1000;
}

export function isToolStep(step: TranscriptStep): step is ToolStep {
  return typeof (step as ToolStep).tool === "string";
}

export function isHostStep(step: TranscriptStep): step is HostStep {
  return typeof (step as HostStep).host === "string";
}

/**
 * Checks the shape of a parsed transcript and returns it typed; throws a TypeError naming the
 * first problem (with its step index) otherwise. Cost: O(steps).
 */
export function parseTranscript(value: unknown): Transcript {
  const fail = (what: string): never => {
    throw new TypeError(`agentpad: not an ${TRANSCRIPT_FORMAT} transcript: ${what}`);
  };
  if (typeof value !== "object" || value === null) fail(`expected an object, got ${value === null ? "null" : typeof value}`);
  const t = value as Partial<Transcript>;
  if (t.format !== TRANSCRIPT_FORMAT) fail(`"format" is ${JSON.stringify(t.format)}, expected "${TRANSCRIPT_FORMAT}"`);
  if (typeof t.documents !== "object" || t.documents === null || Array.isArray(t.documents))
    fail(`"documents" must be an object of path → text`);
  for (const [path, text] of Object.entries(t.documents as object)) {
    if (typeof text !== "string") fail(`document ${JSON.stringify(path)} is ${typeof text}, expected a string`);
  }
  if (t.options !== undefined && (typeof t.options !== "object" || t.options === null)) fail(`"options" must be an object`);
  if (!Array.isArray(t.steps)) fail(`"steps" must be an array`);
  (t.steps as unknown[]).forEach((step, i) => {
    const s = step as Record<string, unknown>;
    if (typeof s !== "object" || s === null) fail(`step ${i} is ${s === null ? "null" : typeof s}`);
    if (typeof s.say === "string") return;
    if (typeof s.tool === "string") {
      if (s.at_ms !== undefined && !Number.isFinite(s.at_ms)) fail(`step ${i}: "at_ms" must be a number`);
      if (s.tool_call_id !== undefined && typeof s.tool_call_id !== "string") fail(`step ${i}: "tool_call_id" must be a string`);
      return;
    }
    if (s.host === "write" && typeof s.path === "string" && typeof s.text === "string") return;
    if (s.host === "delete" && typeof s.path === "string") return;
    if (s.host === "failNextSave") return;
    fail(`step ${i} is none of { say }, { tool, args }, { host: "write", path, text }, { host: "delete", path }, { host: "failNextSave" }`);
  });
  return value as Transcript;
}

/** The first line (1-based) where two texts differ. */
export function firstDifferentLine(a: string, b: string): number {
  const x = a.split("\n");
  const y = b.split("\n");
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i + 1;
}

/** The recorded fields `r` returned differently; a field not recorded is not compared. */
export function compareResponse(expect: TranscriptExpectation | undefined, r: ToolResponse): Difference[] {
  const out: Difference[] = [];
  if (expect === undefined) return out;
  if (expect.status !== undefined && expect.status !== r.status) {
    out.push({ field: "status", expected: expect.status, actual: r.status });
  }
  if (expect.workflow_state !== undefined && expect.workflow_state !== r.workflow_state) {
    out.push({ field: "workflow_state", expected: expect.workflow_state, actual: r.workflow_state });
  }
  const ended = r.history_delta !== null && r.history_delta !== undefined;
  if (expect.ends_session !== undefined && expect.ends_session !== ended) {
    out.push({ field: "ends_session", expected: String(expect.ends_session), actual: String(ended) });
  }
  if (expect.markdown !== undefined && expect.markdown !== r.markdown) {
    out.push({ field: "markdown", expected: expect.markdown, actual: r.markdown, line: firstDifferentLine(expect.markdown, r.markdown) });
  }
  return out;
}

/**
 * A transcript being replayed one step at a time: a fresh MemoryStorage holding its documents and
 * a Workspace on it. The playground steps forward with {@link TranscriptPlayer.next}; stepping
 * back is a new player run to the earlier step (replays are deterministic: each call gets its
 * step's `at_ms` or {@link stepTime}). The storage is a MemoryStorage holding the transcript's
 * documents, or one the caller makes (a subclass that logs, as the playground's does).
 */
export class TranscriptPlayer<S extends MemoryStorage = MemoryStorage> {
  readonly transcript: Transcript;
  /** The workspace options: the transcript's, then the caller's over them. */
  readonly options: TranscriptOptions;
  readonly storage: S;
  readonly workspace: Workspace;
  #at = 0;

  private constructor(transcript: Transcript, options: TranscriptOptions, storage: S, workspace: Workspace) {
    this.transcript = transcript;
    this.options = options;
    this.storage = storage;
    this.workspace = workspace;
  }

  /** A player before the first step. Rejects on a malformed transcript, and like Workspace.create on bad options. */
  static async start(transcript: unknown, options?: TranscriptOptions): Promise<TranscriptPlayer>;
  static async start<S extends MemoryStorage>(
    transcript: unknown,
    options: TranscriptOptions | undefined,
    makeStorage: (documents: Record<string, string>) => S,
  ): Promise<TranscriptPlayer<S>>;
  static async start(
    transcript: unknown,
    options: TranscriptOptions = {},
    makeStorage: (documents: Record<string, string>) => MemoryStorage = (documents) => new MemoryStorage(documents),
  ): Promise<TranscriptPlayer<MemoryStorage>> {
    const t = parseTranscript(transcript);
    const merged = { ...(t.options ?? {}), ...options };
    const storage = makeStorage(t.documents);
    const workspace = await Workspace.create({ storage, ...merged });
    return new TranscriptPlayer(t, merged, storage, workspace);
  }

  /** The index of the next step (= steps done). */
  get position(): number {
    return this.#at;
  }

  get done(): boolean {
    return this.#at >= this.transcript.steps.length;
  }

  /** Runs the next step; undefined when there is none. */
  async next(): Promise<ReplayedStep | undefined> {
    const index = this.#at;
    const step = this.transcript.steps[index];
    if (step === undefined) return undefined;
    this.#at++;
    if (isToolStep(step)) {
      const response = await this.workspace.callUntyped(step.tool, step.args ?? {}, {
        toolCallId: step.tool_call_id,
        nowMs: step.at_ms ?? stepTime(index),
      });
      return { index, step, response, differences: compareResponse(step.expect, response) };
    }
    if (isHostStep(step)) {
      if (step.host === "write") this.storage.write(step.path, step.text);
      else if (step.host === "delete") this.storage.delete(step.path);
      else this.storage.failNext("save");
    }
    return { index, step, differences: [] };
  }

  /** Frees the workspace (its wasm memory). */
  free(): void {
    this.workspace.free();
  }
}

/**
 * Replays `transcript` from the start and compares every tool step's response with its
 * `expect`. Rejects only when the transcript is malformed or its options are refused; a call
 * that answers differently is a difference, not an error. Cost: that of the calls.
 */
export async function replayTranscript(transcript: unknown, replay: ReplayOptions = {}): Promise<ReplayReport> {
  const player = await TranscriptPlayer.start(transcript, replay.options);
  const until = Math.min(replay.until ?? Infinity, player.transcript.steps.length);
  const steps: ReplayedStep[] = [];
  try {
    while (player.position < until) {
      const done = await player.next();
      if (done === undefined) break;
      steps.push(done);
      replay.onStep?.(done);
    }
    const storage: Record<string, string> = {};
    for (const path of (await player.storage.list()).sort()) storage[path] = player.storage.read(path) ?? "";
    return {
      steps,
      differing: steps.filter((s) => s.differences.length > 0).length,
      calls: steps.filter((s) => s.response !== undefined).length,
      storage,
    };
  } finally {
    player.free();
  }
}

/**
 * The transcript with every tool step's `expect` set to what a replay returns now (status,
 * workflow state, whether it ended a session, the Markdown), other recorded fields kept: how a
 * saved session is (re)recorded after an intended format change.
 */
export async function recordTranscript(transcript: unknown, replay: Omit<ReplayOptions, "until"> = {}): Promise<Transcript> {
  const t = parseTranscript(transcript);
  const report = await replayTranscript(t, replay);
  const steps = t.steps.map((step, i) => {
    const r = report.steps[i]?.response;
    if (!isToolStep(step) || r === undefined) return step;
    const expect: TranscriptExpectation = {
      ...step.expect,
      status: r.status,
      workflow_state: r.workflow_state,
      ends_session: r.history_delta !== null && r.history_delta !== undefined,
      markdown: r.markdown,
    };
    return { ...step, expect };
  });
  return { ...t, steps };
}
