// Transcript replay in the page: the package's TranscriptPlayer (the same
// engine as replayTranscript() and `agentpad replay`) on a PlaygroundStorage, so that the page's
// storage panel (versions, external writes, saves, armed failures) shows the replay's storage
// while its workspace is the page's.
import { TranscriptPlayer, isHostStep, isToolStep, replayTranscript } from "@agentpad/core";
import type { AgentResponse } from "./types";
import type { Difference, Transcript, TranscriptOptions, TranscriptStep, Workspace } from "@agentpad/core";
import { PlaygroundStorage } from "./storage";

/** One step as the page replayed it. */
export interface StepResult {
  index: number;
  step: TranscriptStep;
  /** The response, for tool steps. */
  response?: AgentResponse;
  /** The tool_call_id passed to ws.call (the step's own, or `replay_<index>`). */
  toolCallId?: string;
  /** Whether the step has a recording to compare with (a tool step with `expect`). */
  recorded: boolean;
  differences: Difference[];
}

/** A transcript replayed up to some step: its storage, its workspace and the results so far. */
export class ReplayRun {
  readonly #player: TranscriptPlayer<PlaygroundStorage>;
  readonly results: StepResult[] = [];
  /** Storage versions as the workspace last saw them (it syncs at the start of every call). */
  readonly seen = new Map<string, string | undefined>();

  private constructor(player: TranscriptPlayer<PlaygroundStorage>) {
    this.#player = player;
  }

  /** A run before the first step. Rejects on a malformed transcript or options Workspace.create refuses. */
  static async start(transcript: unknown, override: TranscriptOptions = {}): Promise<ReplayRun> {
    const player = await TranscriptPlayer.start(transcript, override, (documents) => new PlaygroundStorage(documents));
    const run = new ReplayRun(player);
    await run.#noteSeen();
    return run;
  }

  get transcript(): Transcript {
    return this.#player.transcript;
  }

  /** The options the workspace was created with (the transcript's, then the override). */
  get options(): TranscriptOptions {
    return this.#player.options;
  }

  get storage(): PlaygroundStorage {
    return this.#player.storage;
  }

  get workspace(): Workspace {
    return this.#player.workspace;
  }

  get position(): number {
    return this.#player.position;
  }

  get done(): boolean {
    return this.#player.done;
  }

  async #noteSeen(): Promise<void> {
    this.seen.clear();
    for (const p of await this.storage.list()) this.seen.set(p, this.storage.version(p));
  }

  /** Runs the next step; undefined when there is none. */
  async next(): Promise<StepResult | undefined> {
    const done = await this.#player.next();
    if (done === undefined) return undefined;
    const { index, step, differences } = done;
    const result: StepResult = isToolStep(step)
      ? {
          index,
          step,
          response: done.response as AgentResponse,
          toolCallId: step.tool_call_id ?? `replay_${index}`,
          recorded: step.expect !== undefined,
          differences,
        }
      : { index, step, recorded: false, differences };
    if (isToolStep(step)) await this.#noteSeen();
    this.results.push(result);
    return result;
  }

  /** Runs steps until `position` reaches `until` (or the end). */
  async runTo(until: number): Promise<void> {
    while (this.position < Math.min(until, this.transcript.steps.length)) await this.next();
  }

  /**
   * The package's replayTranscript() over the same steps, with the same options, on a fresh
   * MemoryStorage: the steps it finds differing (their indices). The page's count should be the
   * same — a check that the page's storage behaves as MemoryStorage does.
   */
  async check(): Promise<number[]> {
    const report = await replayTranscript(this.transcript, { options: this.options, until: this.position });
    return report.steps.filter((s) => s.differences.length > 0).map((s) => s.index);
  }

  free(): void {
    this.#player.free();
  }
}

/** How one step reads in a list: a short label and a longer title. */
export function describeStep(step: TranscriptStep): { kind: "say" | "tool" | "host"; label: string; detail: string } {
  if (isToolStep(step)) {
    const args = JSON.stringify(step.args ?? {});
    return { kind: "tool", label: step.tool, detail: args };
  }
  if (isHostStep(step)) {
    switch (step.host) {
      case "write":
        return {
          kind: "host",
          label: `storage.write("${step.path}")`,
          detail: `${step.text.length} chars${step.note ? ` · ${step.note}` : ""}`,
        };
      case "delete":
        return { kind: "host", label: `storage.delete("${step.path}")`, detail: step.note ?? "" };
      case "failNextSave":
        return { kind: "host", label: `storage.failNext("save")`, detail: step.note ?? "" };
    }
  }
  return { kind: "say", label: "assistant", detail: (step as { say: string }).say };
}
