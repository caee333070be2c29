// Writes the built-in transcripts (tests/fixtures/sessions/example-*.json, scenario-*.json): the example flows and the
// workflow scenarios (docs/workflow.md#transcripts), each recorded through the built package so
// that `expect` holds what the engine returns today. Run after an intended change to the responses (`node www/scripts/record-transcripts.mjs`),
// then read the diff of the fixtures: it is the change the model will see. The replay tests
// (www/test/transcript.test.mjs, the playground, `agentpad replay --check`) compare against them.
import { writeFileSync } from "node:fs";
import { recordTranscript } from "@agentpad/core";

const CONFIG_JSON = `{
  "name": "orders",
  "features": {
    "stable": ["A", "B", "C"],
    "experimental": []
  },
  "limits": { "rps": 50 }
}
`;

const TIMEOUTS_YAML = `# database connection
database.host: db.internal
database.timeout: 30

# API calls
api.base: https://api.example.com
api.timeout: 30
api.retries: 3

# cache expiry
cache.size: 512
cache.timeout: 30
`;

const MODULES_TOML = `[dependencies]
serde = "1.0"
ropey = "1.6"

[features]
default = []
`;

const flows = {
  "example-1-enable-feature": {
    title: "Example flow 1 · enable an experimental feature (task, read, replace, commit)",
    description:
      "The first example flow: the model opens a task, reads the config, stages one replacement and commits it; the commit closes the task. Responses in Chinese.",
    documents: { "config.json": CONFIG_JSON },
    options: { locale: "zh" },
    prompt: "请在配置文件中启用实验性功能 X",
    steps: [
      { say: "我需要先查看当前配置以确定正确位置" },
      { tool: "memo_begin_task", args: { goal: "启用实验性功能 X" } },
      { tool: "memo_read", args: {} },
      { say: "我需要在 experimental 数组中添加 \"X\"" },
      { tool: "memo_replace", args: { old_text: '"experimental": []', new_text: '"experimental": ["X"]' } },
      { say: "看起来正确，提交变更" },
      { tool: "memo_commit", args: { summary: "启用实验性功能 X" } },
    ],
  },
  "example-2-multimatch-letters": {
    title: "Example flow 2 · three matches, staged one letter at a time",
    description:
      "The second example flow: `timeout: 30` occurs three times, the response letters the candidates A–C and recommends one; the model stages each with match_id and commits all three at once.",
    documents: { "timeouts.yaml": TIMEOUTS_YAML },
    options: { locale: "zh" },
    prompt: "请将所有 timeout 从 30 改为 60",
    steps: [
      { tool: "memo_replace", args: { old_text: "timeout: 30", new_text: "timeout: 60" } },
      { say: "我需要修改所有三处，先从第一个开始" },
      { tool: "memo_replace", args: { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "A" } },
      { tool: "memo_replace", args: { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "B" } },
      { tool: "memo_replace", args: { old_text: "timeout: 30", new_text: "timeout: 60", match_id: "C" } },
      { tool: "memo_commit", args: { summary: "统一超时时间为 60 秒" } },
    ],
  },
  "example-3-nested-tasks": {
    title: "Example flow 3 · a nested task for a dependency check",
    description:
      "The third example flow: a task, a subtask under it, an edit committed with auto_pop_task (closing the subtask), then the main task's edit committed (closing it): the thought tree shows both.",
    documents: { "Cargo.toml": MODULES_TOML },
    options: { locale: "zh" },
    prompt: "请添加新功能模块 Y",
    steps: [
      { tool: "memo_begin_task", args: { goal: "添加新功能模块 Y" } },
      { say: "我需要先检查依赖版本是否满足要求" },
      { tool: "memo_begin_task", args: { goal: "检查依赖版本", parent_task_id: "1" } },
      { tool: "memo_replace", args: { old_text: 'serde = "1.0"', new_text: 'serde = "1.0.200"' } },
      { tool: "memo_commit", args: { summary: "依赖版本已确认满足要求", auto_pop_task: true } },
      { tool: "memo_replace", args: { old_text: "default = []", new_text: 'default = []\ny = ["serde"]' } },
      { tool: "memo_commit", args: { summary: "功能模块 Y 添加完成" } },
    ],
  },
  "scenario-1-single-match": {
    title: "Scenario 1 · a single match in manual mode (PersistPending, then commit)",
    description: "One exact match is staged at once (Success, PersistPending); memo_commit writes it and the workflow is Idle again.",
    documents: { "timeouts.yaml": TIMEOUTS_YAML },
    options: { persistMode: "manual" },
    steps: [
      { tool: "memo_replace", args: { old_text: "api.retries: 3", new_text: "api.retries: 5" } },
      { tool: "memo_commit", args: { summary: "five API retries" } },
    ],
  },
  "scenario-1-single-match-immediate": {
    title: "Scenario 1b · a single match in immediate mode (saved at once, Idle)",
    description: "With persistMode immediate the replacement is committed and saved by the same call; the workflow stays Idle.",
    documents: { "timeouts.yaml": TIMEOUTS_YAML },
    options: { persistMode: "immediate" },
    steps: [{ tool: "memo_replace", args: { old_text: "api.retries: 3", new_text: "api.retries: 5" } }],
  },
  "scenario-2-multi-match": {
    title: "Scenario 2 · several matches confirmed by selection",
    description: "Three matches give MultiMatch with candidates A–C and their [[SEL#…]] markers; memo_replace_selection stages the second; the commit writes it.",
    documents: { "timeouts.yaml": TIMEOUTS_YAML },
    steps: [
      { tool: "memo_replace", args: { old_text: "timeout: 30", new_text: "timeout: 45" } },
      { tool: "memo_replace_selection", args: { selection_id: 2 } },
      { tool: "memo_commit", args: { summary: "API timeout 45" } },
    ],
  },
  "scenario-3-persist-failure": {
    title: "Scenario 3 · a save fails (PersistFailure, OutOfSync), the model diffs and retries",
    description: "The storage fails the commit's save: PersistFailure and OutOfSync, the draft kept; memo_diff shows what is not saved; the second commit succeeds.",
    documents: { "timeouts.yaml": TIMEOUTS_YAML },
    steps: [
      { tool: "memo_replace", args: { old_text: "cache.size: 512", new_text: "cache.size: 1024" } },
      { host: "failNextSave", note: "the file is locked" },
      { tool: "memo_commit", args: { summary: "bigger cache" } },
      { tool: "memo_diff", args: {} },
      { tool: "memo_commit", args: { summary: "bigger cache" } },
    ],
  },
  "scenario-4-external-conflict": {
    title: "Scenario 4 · another program writes under a pending change (ExternalConflict)",
    description: "A change is pending when another program rewrites the file: the next editing call is not run and reports ExternalConflict and OutOfSync; memo_diff compares draft and storage; memo_refresh drops the draft for storage's text.",
    documents: { "timeouts.yaml": TIMEOUTS_YAML },
    steps: [
      { tool: "memo_replace", args: { old_text: "api.retries: 3", new_text: "api.retries: 4" } },
      { host: "write", path: "timeouts.yaml", text: TIMEOUTS_YAML.replace("cache.size: 512", "cache.size: 256"), note: "another program edits the file" },
      { tool: "memo_replace", args: { old_text: "api.timeout: 30", new_text: "api.timeout: 40" } },
      { tool: "memo_diff", args: { against: "storage" } },
      { tool: "memo_refresh", args: {} },
    ],
  },
  "scenario-5-read-only": {
    title: "Scenario 5 · read-only mode (persistMode disabled)",
    description: "Every write stays in memory: the commit succeeds in the cache and the flags carry PersistReadOnly, storage is untouched.",
    documents: { "timeouts.yaml": TIMEOUTS_YAML },
    options: { persistMode: "disabled" },
    steps: [
      { tool: "memo_replace", args: { old_text: "api.retries: 3", new_text: "api.retries: 9" } },
      { tool: "memo_commit", args: { summary: "nine retries, in memory" } },
      { tool: "memo_read", args: {} },
    ],
  },
};

for (const [name, flow] of Object.entries(flows)) {
  const recorded = await recordTranscript({ format: "agentpad-transcript/1", ...flow });
  const url = new URL(`../../tests/fixtures/sessions/${name}.json`, import.meta.url);
  writeFileSync(url, `${JSON.stringify(recorded, null, 2)}\n`);
  const summary = recorded.steps
    .filter((s) => s.tool)
    .map((s) => `${s.tool}→${s.expect.status}/${s.expect.workflow_state}`)
    .join(", ");
  console.log(`${name}: ${summary}`);
}
