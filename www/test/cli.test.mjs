// The `agentpad` command (dist/cli.js, the package's bin), run as a user runs it: a child Node
// process on transcript files, checked by its output and exit code.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const SESSIONS = fileURLToPath(new URL("../../tests/fixtures/sessions/", import.meta.url));
const FLOWS = readdirSync(SESSIONS).filter((f) => /^(example|scenario)-/.test(f)).sort();
const work = mkdtempSync(path.join(tmpdir(), "agentpad-cli-"));
test.after(() => rmSync(work, { recursive: true, force: true }));

function agentpad(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const flow = (prefix) => path.join(SESSIONS, FLOWS.find((f) => f.startsWith(prefix)));

test("agentpad replay --check: every built-in flow replays as recorded (exit 0)", () => {
  for (const f of FLOWS) {
    const r = agentpad("replay", path.join(SESSIONS, f), "--check");
    assert.equal(r.code, 0, `${f}: ${r.out}${r.err}`);
    assert.match(r.out, /^0 of \d+ responses differ from the recording\n$/, f);
  }
});

test("agentpad replay prints every step and each response's Markdown", () => {
  const r = agentpad("replay", flow("scenario-3"));
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /── step 1 · memo_replace \{"old_text":"cache\.size: 512","new_text":"cache\.size: 1024"\} → Success\nstatus: `Success`/);
  assert.match(r.out, /── step 2 · host: failNextSave\n/);
  assert.match(r.out, /── step 3 · memo_commit .* → PersistFailure\nstatus: `PersistFailure`\nstate: `OutOfSync`/);
  assert.match(r.out, /0 of 4 responses differ from the recording\n$/);
});

test("a response that differs from its recording: shown with the first differing line, exit 1", () => {
  const t = JSON.parse(readFileSync(flow("scenario-2"), "utf8"));
  t.steps[1].expect.markdown = t.steps[1].expect.markdown.replace("`Success`", "`Succes`");
  t.steps[2].expect.workflow_state = "PersistPending";
  const file = path.join(work, "changed.json");
  writeFileSync(file, JSON.stringify(t));
  const check = agentpad("replay", file, "--check");
  assert.equal(check.code, 1, check.err);
  assert.doesNotMatch(check.out, /step 1 /, "--check leaves out the steps as recorded");
  assert.match(check.out, /── step 2 · memo_replace_selection \{"selection_id":2\} → Success · DIFFERS\n  markdown differs from line 1:\n  - status: `Succes`\n  \+ status: `Success`\n/);
  assert.match(check.out, /── step 3 · memo_commit .* DIFFERS\n  workflow_state: recorded PersistPending, now Idle\n/);
  assert.match(check.out, /2 of 3 responses differ from the recording\n$/);
  const json = agentpad("replay", file, "--json");
  assert.equal(json.code, 1);
  const report = JSON.parse(json.out);
  assert.equal(report.differing, 2);
  assert.deepEqual(report.steps[2].differences.map((d) => d.field), ["workflow_state"]);
});

test("--locale zh replays in Chinese: the English recordings differ (exit 1)", () => {
  const r = agentpad("replay", flow("scenario-1-single-match.json"), "--locale", "zh");
  assert.equal(r.code, 1);
  assert.match(r.out, /### \[OK\] 概览/);
  assert.match(r.out, /2 of 2 responses differ from the recording\n$/);
});

test("agentpad record writes the expectations a replay then meets", () => {
  const bare = {
    format: "agentpad-transcript/1",
    documents: { "notes.md": "# Notes\nold line\n" },
    steps: [{ tool: "memo_replace", args: { old_text: "old line", new_text: "new line" } }, { tool: "memo_commit", args: { summary: "update" } }],
  };
  const input = path.join(work, "bare.json");
  const output = path.join(work, "recorded.json");
  writeFileSync(input, JSON.stringify(bare));
  const r = agentpad("record", input, "--out", output);
  assert.equal(r.code, 0, r.err);
  const recorded = JSON.parse(readFileSync(output, "utf8"));
  assert.deepEqual(recorded.steps.map((s) => s.expect.status), ["Success", "Success"]);
  assert.match(recorded.steps[1].expect.markdown, /^status: `Success`\nstate: `Idle`/);
  assert.equal(agentpad("replay", output, "--check").code, 0);
  assert.equal(JSON.parse(agentpad("record", input).out).steps.length, 2, "without --out: to stdout");
});

test("bad usage and bad input: a message saying what is wrong, the usage, exit 2", () => {
  const notJson = path.join(work, "not.json");
  writeFileSync(notJson, "{ nope");
  const notTranscript = path.join(work, "other.json");
  writeFileSync(notTranscript, JSON.stringify({ format: "something-else" }));
  for (const [args, message] of [
    [[], /agentpad: no command given\nusage:/],
    [["replay"], /replay needs a transcript file/],
    [["rewind", "x.json"], /unknown command "rewind"/],
    [["replay", path.join(work, "missing.json")], /cannot read .*missing\.json/],
    [["replay", notJson], /not\.json is not JSON/],
    [["replay", notTranscript], /not an agentpad-transcript\/1 transcript: "format" is "something-else"/],
    [["replay", flow("scenario-2"), "--locale", "fr"], /--locale must be "en" or "zh", got "fr"/],
    [["replay", flow("scenario-2"), "--bogus"], /Unknown option '--bogus'/],
  ]) {
    const r = agentpad(...args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.out}`);
    assert.match(r.err, message, args.join(" "));
    assert.equal(r.out, "", "nothing on stdout");
  }
  const help = agentpad("--help");
  assert.equal(help.code, 0);
  assert.match(help.out, /agentpad replay <transcript\.json> \[--locale en\|zh\] \[--check\] \[--json\]/);
  assert.match(agentpad("--version").out, /^\d+\.\d+\.\d+\n$/);
});

test("agentpad replay --sample runs the session shipped in the package; a bad combination is usage (exit 2)", () => {
  const r = agentpad("replay", "--sample", "--check");
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /^0 of 3 responses differ from the recording\n$/);
  const both = agentpad("replay", flow("scenario-2"), "--sample");
  assert.equal(both.code, 2);
  assert.match(both.err, /not both/);
  const none = agentpad("replay");
  assert.equal(none.code, 2);
  assert.match(none.err, /--sample/);
});

test("agentpad replay | head: the closed pipe ends the output quietly (no EPIPE crash)", () => {
  // Far more output than a pipe buffers (64 KiB), so the writes after `head` exits hit a closed
  // pipe: forty reads of a 4,000-line document.
  const doc = Array.from({ length: 4000 }, (_, i) => `line ${i} of a long document`).join("\n");
  const big = path.join(work, "big.json");
  const steps = Array.from({ length: 40 }, () => ({ tool: "memo_read", args: {} }));
  writeFileSync(big, JSON.stringify({ format: "agentpad-transcript/1", documents: { "big.txt": doc }, steps }));
  // A shell pipeline as a user types it; `head -n 1` exits after one line and closes the pipe.
  const r = spawnSync("bash", ["-c", `"${process.execPath}" "${CLI}" replay "${big}" | head -n 1; echo "rc=\${PIPESTATUS[0]}" >&2`], { encoding: "utf8" });
  assert.match(r.stdout, /^── step 1 · memo_read/);
  assert.doesNotMatch(r.stderr, /EPIPE|Error|at /, r.stderr);
  assert.match(r.stderr, /rc=0/);
});
