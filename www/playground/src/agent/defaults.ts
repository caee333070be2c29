// The agent pane's defaults: the system prompt, a task per sample with the text its edit should
// leave in the saved document, and the provider presets (docs/playground-agent.md).

/** `{prefix}` is the workspace's tool prefix (memo unless an A/B variant sets another). */
export const DEFAULT_SYSTEM =
  "You edit the user's documents with the {prefix}_* tools. Change text with {prefix}_replace(old_text, new_text); " +
  "when it answers MultiMatch, read the lettered candidates and stage the right one with {prefix}_replace_selection(selection_id). " +
  "Nothing is saved until {prefix}_commit(summary). Every tool result says what to call next: follow it. " +
  "The last user message ends with a Live Context block: the documents as they are now, newer than anything earlier in the chat. " +
  "When the task is done and committed, answer with one short sentence and no tool call.";

export interface SampleTask {
  task: string;
  /** Landed when the saved document contains this text. */
  expect: string;
}

export const SAMPLE_TASKS: Record<string, SampleTask> = {
  timeouts: {
    task: "Raise the API call timeout (in the api section) from 30 to 60 seconds and save it. Leave the other timeouts alone.",
    expect: "  # API call timeout\n  timeout: 60",
  },
  config: { task: "Enable the experimental feature X and save it.", expect: '"experimental": ["X"]' },
  fuzzy: {
    task: "Make the retry loop catch ConnectionError as well as TimeoutError and save it.",
    expect: "except (TimeoutError, ConnectionError):",
  },
  "near-miss": { task: "Raise max_connections to 250 and save it.", expect: "max_connections = 250" },
};

export interface Preset {
  label: string;
  kind: "openai" | "anthropic";
  baseUrl: string;
  model: string;
}

export const PRESETS: readonly Preset[] = [
  { label: "OpenAI", kind: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-5-mini" },
  { label: "Anthropic", kind: "anthropic", baseUrl: "https://api.anthropic.com", model: "claude-sonnet-4-5" },
  { label: "Ollama (local)", kind: "openai", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3:8b" },
  { label: "LM Studio (local)", kind: "openai", baseUrl: "http://127.0.0.1:1234/v1", model: "local-model" },
  { label: "llama.cpp server (local)", kind: "openai", baseUrl: "http://127.0.0.1:8080/v1", model: "local" },
];

/** sessionStorage only (docs/playground-agent.md#the-key): one key per provider kind. */
export const KEY_STORAGE = (kind: "openai" | "anthropic") => `agentpad-playground:agent-key:${kind}`;
/** The settings that are no secret (provider, base URL, model, streaming) survive a reload. */
export const SETTINGS_STORAGE = "agentpad-playground:agent-settings";
