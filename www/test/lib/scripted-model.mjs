// What a scripted model answers through the providers' real SDK clients (the tests hand the
// clients a fetch that returns these bodies).

/** A Messages API response of a scripted Anthropic model. */
export const anthropicMessage = (content, stop_reason = "tool_use") => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-test",
  content,
  stop_reason,
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});
