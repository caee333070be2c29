// The call history: pinned calls and this workspace's calls (★ ✎ ↻), export and import.
import { parseTranscript, recordTranscript, type Transcript } from "@agentpad/core";
import { PinStore, callKey } from "../history";
import { h } from "../render";
import { $, errorText } from "./dom";
import { watch, type PageCommands, type PageState, type PageStore } from "./store";
import { t as say, tn } from "../phrases";

function shortArgs(args: Record<string, unknown>): string {
  const t = JSON.stringify(args);
  return t.length > 60 ? `${t.slice(0, 59)}…` : t;
}

export function mountCallHistory(store: PageStore, page: PageCommands): void {
  const pins = new PinStore();

  /** ★ / ✎ / ↻ for a call (pinned or from this workspace). */
  function callActions(tool: string, args: Record<string, unknown>, status: string, what: string): HTMLElement[] {
    const pinned = pins.has(tool, args);
    const pin = h(
      "button",
      {
        type: "button",
        class: `icon pin${pinned ? " on" : ""}`,
        "data-testid": "pin-call",
        "aria-pressed": String(pinned),
        "aria-label": say("history.pin_label", { what }),
        title: say(pinned ? "history.unpin" : "history.pin_title"),
      },
      pinned ? "★" : "☆",
    );
    pin.addEventListener("click", () => {
      pins.toggle(tool, args, status);
      renderCallHistory();
      (
        document.querySelector<HTMLElement>(`[data-key="${CSS.escape(callKey(tool, args))}"] [data-testid="pin-call"]`) ??
        $("history-title")
      ).focus();
    });
    const edit = h(
      "button",
      {
        type: "button",
        class: "icon",
        "data-testid": "edit-call",
        "aria-label": say("history.edit_label", { what }),
        title: say("history.edit_title"),
      },
      "✎",
    );
    edit.addEventListener("click", () => store.dispatch({ type: "fillConsole", tool, args, focus: true }));
    const again = h(
      "button",
      {
        type: "button",
        class: "icon",
        "data-testid": "replay-call",
        "aria-label": say("history.rerun_label", { what }),
        title: say("history.rerun_title"),
      },
      "↻",
    );
    again.addEventListener("click", () => {
      store.dispatch({ type: "fillConsole", tool, args });
      void page.run(tool, args);
    });
    again.toggleAttribute("disabled", store.state.busy || !store.state.ws);
    return [pin, edit, again];
  }

  /** The pinned calls (top) and this workspace's calls: tool → status, the arguments, ★ ✎ ↻. */
  function renderCallHistory(): void {
    const s: PageState = store.state;
    $("pinned-calls").replaceChildren(
      ...pins.list.map((p, i) =>
        h(
          "li",
          { class: "call pinned", "data-key": callKey(p.tool, p.args), "data-testid": "pinned-call" },
          h(
            "span",
            { class: "chip call-chip", "data-testid": "pinned-chip", title: say("history.pinned_status", { status: p.status }) },
            `${p.tool} → ${p.status}`,
          ),
          h("code", { class: "call-args", title: JSON.stringify(p.args, null, 2) }, shortArgs(p.args)),
          ...callActions(p.tool, p.args, p.status, say("history.pinned_what", { n: i + 1, tool: p.tool })),
        ),
      ),
    );
    const hist = $("history");
    hist.replaceChildren(
      ...s.history.map((c, i) => {
        const b = h(
          "button",
          {
            type: "button",
            class: `chip call-chip${i === s.shown ? " active" : ""}`,
            "data-testid": "history-chip",
            title: say("history.show_title"),
            "aria-pressed": String(i === s.shown),
          },
          `${c.tool} → ${c.response.status}`,
        );
        b.addEventListener("click", () => store.dispatch({ type: "show", index: i }));
        return h(
          "li",
          { class: "call", "data-call": i + 1, "data-key": callKey(c.tool, c.args) },
          b,
          h("code", { class: "call-args", title: JSON.stringify(c.args, null, 2) }, shortArgs(c.args)),
          ...callActions(c.tool, c.args, c.response.status, say("history.call_what", { n: i + 1, tool: c.tool })),
        );
      }),
    );
    ($("history-export") as HTMLButtonElement).disabled = s.busy || !s.ws;
  }

  function historyMessage(text: string, bad = false): void {
    const el = $("history-message");
    el.textContent = text;
    el.classList.toggle("args-error", bad);
  }

  let exportUrl: string | null = null;

  /**
   * Export: the page's session (src/share.ts's recorder: the documents the workspace started from,
   * its options, the calls and storage actions in order) with each call's answer recorded by
   * recordTranscript() — an agentpad-transcript/1 file the Replay pane, `npx agentpad replay` and
   * Import load. Downloaded through a Blob URL and shown under the list.
   */
  async function exportHistory(): Promise<void> {
    let t: Transcript;
    try {
      t = await recordTranscript(page.transcript());
    } catch (e) {
      historyMessage(say("history.export_failed", { error: errorText(e) }), true);
      return;
    }
    t.title = `agentpad playground history (${store.state.history.length} call${store.state.history.length === 1 ? "" : "s"})`;
    const text = `${JSON.stringify(t, null, 2)}\n`;
    if (exportUrl) URL.revokeObjectURL(exportUrl);
    exportUrl = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const link = $("history-download") as HTMLAnchorElement;
    link.href = exportUrl;
    $("history-export-json").textContent = text;
    const view = $("history-export-view") as HTMLDetailsElement;
    view.hidden = false;
    view.open = true;
    const a = h("a", { href: exportUrl, download: "agentpad-history.json", hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    historyMessage(
      say("history.exported", {
        calls: tn("session.calls", store.state.history.length),
        chars: text.length.toLocaleString("en"),
        format: t.format,
      }),
    );
  }

  /** Import: an exported history (any agentpad-transcript/1): its documents and options, its calls run in order. */
  async function importHistory(file: File): Promise<void> {
    let t: Transcript;
    try {
      t = parseTranscript(JSON.parse(await file.text()));
    } catch (e) {
      historyMessage(say("history.import_refused", { file: file.name, error: errorText(e) }), true);
      return;
    }
    await page.openShared(t, () => say("history.imported_source", { file: file.name }));
    historyMessage(say("history.imported", { file: file.name, calls: tn("session.calls", store.state.history.length) }));
  }

  $("history-export").addEventListener("click", () => void exportHistory());
  const importInput = $("history-import") as HTMLInputElement;
  importInput.addEventListener("change", () => {
    const file = importInput.files?.[0];
    importInput.value = "";
    if (file) void importHistory(file);
  });

  watch(store, (s) => [s.revs.workspace, s.shown], renderCallHistory, false);
}
