// Transcript replay through the built package: every saved session in tests/fixtures/sessions/
// replays with no difference from its recording, and a recording that no longer matches is
// flagged field by field — what the playground's replay and `agentpad replay --check` rely on.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import test from "node:test";
import { TranscriptPlayer, Workspace, MemoryStorage, parseTranscript, recordTranscript, replayTranscript, stepTime } from "@agentpad/core";

const DIR = new URL("../../tests/fixtures/sessions/", import.meta.url);
const SESSIONS = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => ({ file: f, transcript: JSON.parse(readFileSync(new URL(f, DIR), "utf8")) }));
const FLOWS = SESSIONS.filter((s) => /^(example|scenario)-/.test(s.file));
const clone = (v) => JSON.parse(JSON.stringify(v));

test("the built-in flows are there: the three example flows and the five workflow scenarios", () => {
  const names = FLOWS.map((s) => s.file);
  for (const prefix of ["example-1", "example-2", "example-3", "scenario-1", "scenario-2", "scenario-3", "scenario-4", "scenario-5"]) {
    assert.ok(names.some((n) => n.startsWith(prefix)), `${prefix} is missing from ${names.join(", ")}`);
  }
  for (const { file, transcript } of FLOWS) {
    assert.equal(typeof transcript.title, "string", `${file} has a title for the playground's menu`);
    const tools = transcript.steps.filter((s) => s.tool);
    assert.ok(tools.length > 0 && tools.every((s) => typeof s.expect?.markdown === "string"), `${file}: every call has its recorded Markdown`);
  }
});

for (const { file, transcript } of SESSIONS) {
  test(`${file} replays with no difference from its recording`, async () => {
    const report = await replayTranscript(transcript);
    const differing = report.steps.filter((s) => s.differences.length > 0).map((s) => ({ index: s.index, tool: s.step.tool, differences: s.differences.map((d) => `${d.field} (line ${d.line ?? "-"})`) }));
    assert.deepEqual(differing, [], JSON.stringify(differing, null, 2));
    assert.equal(report.differing, 0);
    assert.equal(report.calls, transcript.steps.filter((s) => s.tool).length);
  });
}

test("the flows show what they describe: statuses, states, storage at the end", async () => {
  const byPrefix = (p) => FLOWS.find((s) => s.file.startsWith(p)).transcript;
  const statuses = async (p) => (await replayTranscript(byPrefix(p))).steps.filter((s) => s.response).map((s) => `${s.response.status}/${s.response.workflow_state}`);
  assert.deepEqual(await statuses("scenario-2"), ["MultiMatch/SelectionPending", "Success/PersistPending", "Success/Idle"]);
  assert.deepEqual(await statuses("scenario-3"), ["Success/PersistPending", "PersistFailure/OutOfSync", "Success/OutOfSync", "Success/Idle"]);
  assert.deepEqual(await statuses("scenario-4"), ["Success/PersistPending", "ExternalConflict/OutOfSync", "Success/OutOfSync", "Success/Idle"]);
  assert.deepEqual(await statuses("scenario-1-single-match-immediate"), ["Success/Idle"]);
  const readOnly = await replayTranscript(byPrefix("scenario-5"));
  assert.ok(readOnly.steps.filter((s) => s.response).every((s) => s.response.flags.names.includes("PersistReadOnly")));
  assert.equal(readOnly.storage["timeouts.yaml"], byPrefix("scenario-5").documents["timeouts.yaml"], "read-only: storage untouched");
  const a2 = await replayTranscript(byPrefix("example-2"));
  assert.equal((a2.storage["timeouts.yaml"].match(/timeout: 60/g) ?? []).length, 3, "all three timeouts committed");
  assert.match(a2.steps[0].response.markdown, /候选选区/, "the example flows answer in Chinese");
});

test("a recording that no longer matches is flagged per field, with the first differing Markdown line", async () => {
  const t = clone(FLOWS.find((s) => s.file.startsWith("scenario-2")).transcript);
  const lines = t.steps[0].expect.markdown.split("\n");
  lines[5] = `${lines[5]} (edited)`;
  t.steps[0].expect.markdown = lines.join("\n");
  t.steps[2].expect.status = "NoMatch";
  const seen = [];
  const report = await replayTranscript(t, { onStep: (s) => seen.push(s.index) });
  assert.deepEqual(seen, [0, 1, 2], "onStep sees every step in order");
  assert.equal(report.differing, 2);
  const first = report.steps[0].differences;
  assert.deepEqual(first.map((d) => [d.field, d.line]), [["markdown", 6]]);
  assert.equal(first[0].actual, report.steps[0].response.markdown);
  assert.deepEqual(report.steps[2].differences, [{ field: "status", expected: "NoMatch", actual: "Success" }]);
});

test("a locale override replays in Chinese and every English recording is flagged", async () => {
  const t = FLOWS.find((s) => s.file.startsWith("scenario-2")).transcript;
  const report = await replayTranscript(t, { options: { locale: "zh" } });
  assert.equal(report.differing, 3);
  assert.match(report.steps[0].response.markdown, /候选选区/);
  assert.ok(report.steps.every((s) => s.differences.every((d) => d.field === "markdown")), "only the words differ, not the outcome");
});

test("stepping: a player stopped early, and one replayed to the same step, give the same responses", async () => {
  const t = FLOWS.find((s) => s.file.startsWith("scenario-3")).transcript;
  const player = await TranscriptPlayer.start(t);
  const forward = [];
  while (!player.done) forward.push(await player.next());
  assert.equal(await player.next(), undefined);
  assert.equal(player.position, t.steps.length);
  player.free();
  // "Back" one step = a replay up to it.
  const back = await replayTranscript(t, { until: t.steps.length - 1 });
  assert.equal(back.steps.length, t.steps.length - 1);
  back.steps.forEach((s, i) => assert.equal(s.response?.markdown, forward[i].response?.markdown, `step ${i}`));
  assert.equal(forward[1].response, undefined, "a host step has no response");
});

test("recordTranscript fills expect from the replay and keeps other recorded fields", async () => {
  const t = {
    format: "agentpad-transcript/1",
    documents: { "a.md": "one\ntwo\n" },
    steps: [{ tool: "memo_replace", args: { old_text: "two", new_text: "2" }, expect: { session: "s1" } }, { say: "done" }],
  };
  const recorded = await recordTranscript(t);
  assert.equal(recorded.steps[0].expect.session, "s1");
  assert.equal(recorded.steps[0].expect.status, "Success");
  assert.equal(recorded.steps[0].expect.ends_session, false);
  assert.match(recorded.steps[0].expect.markdown, /^status: `Success`/);
  assert.deepEqual(recorded.steps[1], { say: "done" });
  assert.equal((await replayTranscript(recorded)).differing, 0);
});

test("a malformed transcript is refused with the step and what was expected", () => {
  const ok = { format: "agentpad-transcript/1", documents: {}, steps: [] };
  for (const [bad, message] of [
    [null, /expected an object, got null/],
    [{ ...ok, format: "v0" }, /"format" is "v0"/],
    [{ ...ok, documents: { "a.md": 3 } }, /document "a\.md" is number/],
    [{ ...ok, steps: [{ say: "x" }, { tool: "memo_read", at_ms: "now" }] }, /step 1: "at_ms" must be a number/],
    [{ ...ok, steps: [{ host: "explode" }] }, /step 0 is none of/],
  ]) {
    assert.throws(() => parseTranscript(bad), (e) => e instanceof TypeError && message.test(e.message), String(message));
  }
});

test("call(…, { nowMs }) is the clock of the call: the session log shows it; a bad value is refused", async () => {
  const ws = await Workspace.create({ storage: new MemoryStorage({ "a.md": "x\n" }) });
  await ws.call("memo_replace", { old_text: "x", new_text: "y" }, { nowMs: stepTime(7) });
  const exported = await ws.call("memo_export_session", {}, { nowMs: stepTime(8) });
  assert.match(exported.markdown, new RegExp(String(stepTime(7))));
  await assert.rejects(ws.call("memo_read", {}, { nowMs: Number.NaN }), /needs a finite number of ms since the epoch, got NaN/);
  await assert.rejects(ws.call("memo_read", {}, { nowMs: "soon" }), /got string/);
  ws.free();
});
