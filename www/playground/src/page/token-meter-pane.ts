// The History tokens pane: the transcript the calls make, before and after compression.
import { renderTokenMeter } from "../panes";
import { buildTranscript, estimateMessages, type HistoryFormat } from "../transcript";
import { $, errorText } from "./dom";
import { watch, type PageState, type PageStore } from "./store";

/** The user's request that opens the transcript (in the workspace's locale). */
function userRequest(s: PageState): string {
  const prefix = s.options.toolPrefix;
  return s.options.locale === "zh"
    ? `请用 ${prefix}_* 工具编辑 ${s.sample.path}。`
    : `Please edit ${s.sample.path} with the ${prefix}_* tools.`;
}

function renderTokenMeterPane(s: PageState): void {
  const ws = s.ws;
  const out = $("token-meter");
  if (!ws) {
    out.replaceChildren();
    return;
  }
  const format = s.historyFormat;
  const calls = s.history.map((c) => ({ toolCallId: c.toolCallId, tool: c.tool, args: c.args, markdown: c.response.markdown }));
  const transcript = buildTranscript(userRequest(s), calls, format);
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

export function mountTokenMeter(store: PageStore): void {
  document.querySelectorAll<HTMLInputElement>('input[name="tm-format"]').forEach((radio) =>
    radio.addEventListener("change", () => {
      if (radio.checked) store.dispatch({ type: "historyFormat", format: radio.value as HistoryFormat });
    }),
  );
  watch(store, (s) => [s.revs.workspace, s.path, s.historyFormat], renderTokenMeterPane, false);
}
