// The built-in transcripts: tests/fixtures/sessions/*.json (the example flows and workflow
// scenarios of docs/workflow.md#transcripts, each recorded by www/scripts/record-transcripts.mjs, plus the scripted 24-call session),
// bundled as JSON so the page replays them offline.
import type { Transcript } from "@agentpad/core";

const files = import.meta.glob<Transcript>("../../../tests/fixtures/sessions/*.json", { eager: true, import: "default" });

export interface BuiltinTranscript {
  /** The file name without `.json` (e.g. `scenario-2-multi-match`). */
  id: string;
  title: string;
  transcript: Transcript;
}

export const BUILTIN_TRANSCRIPTS: readonly BuiltinTranscript[] = Object.entries(files)
  .map(([file, transcript]) => {
    const id = file.replace(/^.*\//, "").replace(/\.json$/, "");
    const calls = transcript.steps.filter((s) => "tool" in s).length;
    return { id, title: transcript.title ?? `${id} (${calls} calls)`, transcript };
  })
  .sort((a, b) => a.id.localeCompare(b.id, "en"));
