// The History tokens pane: the transcript the calls make, before and after compression.
import { renderTokenMeter } from "../panes";
import { buildTranscript, estimateMessages, type HistoryFormat } from "../transcript";
import { PREFIX, $, app, errorText } from "./state";

/** The user's request that opens the transcript (in the workspace's locale). */
function userRequest(): string {
  return app.locale === "zh"
    ? `请用 ${PREFIX}_* 工具编辑 ${app.sample.path}。`
    : `Please edit ${app.sample.path} with the ${PREFIX}_* tools.`;
}

export function renderTokenMeterPane(): void {
  const ws = app.ws;
  const out = $("token-meter");
  if (!ws) {
    out.replaceChildren();
    return;
  }
  const format = app.historyFormat;
  const calls = app.history.map((c) => ({ toolCallId: c.toolCallId, tool: c.tool, args: c.args, markdown: c.response.markdown }));
  const transcript = buildTranscript(userRequest(), calls, format);
  let compressed = transcript;
  let removed = 0;
  let saved = 0;
  let sessions: number[] = [];
  let error: string | null = null;
  try {
    const c = ws.compressHistory(transcript, { format });
    compressed = c.messages;
    removed = c.messages_removed;
    saved = c.tokens_saved;
    sessions = c.sessions;
  } catch (e) {
    error = errorText(e);
  }
  const before = estimateMessages(transcript);
  out.replaceChildren(
    renderTokenMeter({
      format,
      before: { messages: transcript.length, tokens: before },
      after: { messages: compressed.length, tokens: Math.max(0, before - saved) },
      messagesRemoved: removed,
      tokensSaved: saved,
      sessions,
      transcript,
      compressed,
      error,
    }),
  );
}

document.querySelectorAll<HTMLInputElement>('input[name="tm-format"]').forEach((radio) =>
  radio.addEventListener("change", () => {
    if (!radio.checked) return;
    app.historyFormat = radio.value as HistoryFormat;
    renderTokenMeterPane();
  }),
);
