#!/usr/bin/env node
// `agentpad` on the command line (Node): replay a saved session headlessly, for prompt and
// format experiments — the same transcripts and the same replay as the playground's.
//
//   agentpad replay transcript.json [--locale zh] [--check] [--json]
//   agentpad replay --sample                          (the sample session shipped in the package)
//   agentpad record transcript.json [--out file]      (re-records `expect`: what it returns now)
//
// Exit codes: 0 every response as recorded; 1 some response differs; 2 bad usage or input.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ReplayedStep, TranscriptOptions } from "./node.js";

// Through the bundled Node entry (dist/agentpad.node.js, written by rolldown after tsc; it tells
// the loader where the wasm is), not tsc's dist/node.js and the dozen modules it imports one by
// one: ~10 ms less CPU per run of the command (docs/performance.md#cold-start). A computed
// specifier, since tsc has not got that file to resolve; the type is node.js's, its source.
const { LOCALES, isHostStep, isToolStep, recordTranscript, replayTranscript } = (await import(
  new URL("./agentpad.node.js", import.meta.url).href
)) as typeof import("./node.js");

/** A session shipped in the package (dist/sample-transcript.json), for a first `replay`. */
const SAMPLE = fileURLToPath(new URL("./sample-transcript.json", import.meta.url));

const USAGE = `usage:
  agentpad replay <transcript.json> [--locale en|zh] [--check] [--json]
  agentpad replay --sample [--locale en|zh] [--check] [--json]
      Runs every step of an agentpad-transcript/1 file (--sample: a three-call session that
      ships in the package, ${SAMPLE}) through a fresh workspace and prints each response's
      Markdown (with --check: only the responses that differ from the recording, and what
      differs; with --json: one JSON report). Exit code 1 when a response differs from its
      recording.
  agentpad record <transcript.json> [--out <file>] [--locale en|zh]
      Replays and writes the transcript with every call's expectation set to what it returns
      now (to --out, else to stdout).
  agentpad --help | --version`;

class UsageError extends Error {}

function readTranscript(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${path} is not JSON: ${(e as Error).message}`);
  }
}

function localeOption(value: string | undefined): TranscriptOptions {
  if (value === undefined) return {};
  const locale = LOCALES.find((l) => l === value);
  if (locale === undefined)
    throw new UsageError(`--locale must be ${LOCALES.map((l) => JSON.stringify(l)).join(" or ")}, got ${JSON.stringify(value)}`);
  return { locale };
}

function describe(s: ReplayedStep): string {
  const step = s.step;
  if (isToolStep(step)) return `${step.tool} ${JSON.stringify(step.args ?? {})}`;
  if (isHostStep(step)) return `host: ${step.host}${"path" in step ? ` ${step.path}` : ""}`;
  return `say: ${step.say}`;
}

function printDifferences(out: (line: string) => void, s: ReplayedStep): void {
  for (const d of s.differences) {
    if (d.field !== "markdown") {
      out(`  ${d.field}: recorded ${d.expected}, now ${d.actual}`);
      continue;
    }
    const line = d.line ?? 1;
    const recorded = d.expected.split("\n")[line - 1];
    const now = d.actual.split("\n")[line - 1];
    out(`  markdown differs from line ${line}:`);
    out(`  - ${recorded ?? "(end of the recorded response)"}`);
    out(`  + ${now ?? "(end of the response)"}`);
  }
}

async function replay(file: string, flags: { locale?: string; check?: boolean; json?: boolean }): Promise<number> {
  const transcript = readTranscript(file);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const report = await replayTranscript(transcript, {
    options: localeOption(flags.locale),
    onStep: (s) => {
      if (flags.json) return;
      const differs = s.differences.length > 0;
      if (flags.check && !differs) return;
      if (!flags.check && !isToolStep(s.step)) {
        out(`── step ${s.index + 1} · ${describe(s)}`);
        return;
      }
      if (s.response === undefined) return;
      out(`── step ${s.index + 1} · ${describe(s)} → ${s.response.status}${differs ? " · DIFFERS" : ""}`);
      if (flags.check) printDifferences(out, s);
      else {
        out(s.response.markdown);
        if (differs) printDifferences(out, s);
      }
    },
  });
  if (flags.json) {
    out(JSON.stringify(report, null, 2));
  } else {
    out(`${report.differing} of ${report.calls} responses differ from the recording`);
  }
  return report.differing > 0 ? 1 : 0;
}

async function record(file: string, flags: { out?: string; locale?: string }): Promise<number> {
  const recorded = await recordTranscript(readTranscript(file), { options: localeOption(flags.locale) });
  const text = `${JSON.stringify(recorded, null, 2)}\n`;
  if (flags.out !== undefined) {
    writeFileSync(flags.out, text);
    process.stderr.write(`agentpad: wrote ${flags.out}\n`);
  } else {
    process.stdout.write(text);
  }
  return 0;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        locale: { type: "string" },
        check: { type: "boolean" },
        json: { type: "boolean" },
        out: { type: "string", short: "o" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
        sample: { type: "boolean" },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.version) {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const [command, given, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(" ")}`);
  if (command !== "replay" && command !== "record") {
    throw new UsageError(command === undefined ? "no command given" : `unknown command ${JSON.stringify(command)}`);
  }
  if (values.sample && given !== undefined) throw new UsageError("give a transcript file or --sample, not both");
  const file = values.sample ? SAMPLE : given;
  if (file === undefined) throw new UsageError(`${command} needs a transcript file (or --sample for the one in the package)`);
  if (command === "replay") {
    if (values.out !== undefined) throw new UsageError("--out is for record");
    return replay(file, values);
  }
  if (values.check || values.json) throw new UsageError("--check and --json are for replay");
  return record(file, values);
}

// A reader that stops early (`agentpad replay t.json | head`) closes the pipe: that is the end of
// the output, not an error to report.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(process.exitCode ?? 0);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`agentpad: ${e.message}\n${USAGE}\n`);
    } else {
      process.stderr.write(`agentpad: ${e instanceof Error ? e.message : String(e)}\n`);
    }
    process.exitCode = 2;
  },
);
