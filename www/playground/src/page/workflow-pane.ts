// The Workflow panel: state, flags, last call, pending changes, storage (with its
// actions: an external write, a failing save), the task stack and the tools.
import type { StorageEvent } from "../storage";
import { STATUS_TONE, h, renderTaskStack, renderToolChips } from "../render";
import { $ } from "./dom";
import { toolName, watch, type PageCommands, type PageState, type PageStore } from "./store";
import { t, type PhraseKey } from "../phrases";

const MODE_HINT: Record<PageState["options"]["persistMode"], PhraseKey> = {
  manual: "wf.hint_manual",
  immediate: "wf.hint_immediate",
  disabled: "wf.hint_disabled",
};

function describeEvent(e: StorageEvent): HTMLElement {
  switch (e.kind) {
    case "external":
      return h("li", { class: "ev external" }, h("span", { class: "tag warn" }, t("wf.ev_external")), ` ${e.path} → ${e.version}`);
    case "saved":
      return h("li", { class: "ev saved" }, h("span", { class: "tag ok" }, t("wf.ev_saved")), ` ${e.path} → ${e.version}`);
    case "failed":
      return h(
        "li",
        { class: "ev failed", title: e.error ?? "" },
        h("span", { class: "tag bad" }, t("wf.ev_failed")),
        ` ${e.path}: ${e.error ?? ""}`,
      );
  }
}

/** State, mode, flags, last call, pending changes, storage, task stack and tools in one place. */
function renderWorkflowPanel(s: PageState, fillConsole: (tool: string) => void): void {
  const ws = s.ws;
  const storage = s.storage;
  const state = ws ? ws.state : "–";
  const last = s.history[s.history.length - 1];
  const r = last?.response;

  const st = $("wf-state");
  st.textContent = state;
  st.dataset.state = ws ? ws.state : "";
  const mode = $("wf-mode");
  mode.textContent = s.options.persistMode;
  mode.dataset.mode = s.options.persistMode;
  $("mode-hint").textContent = t(MODE_HINT[s.options.persistMode]);

  const flags = r?.flags.names ?? [];
  $("wf-flags").replaceChildren(
    ...(r === undefined
      ? [h("span", { class: "muted small" }, t("wf.no_call_yet"))]
      : flags.length === 0
        ? [h("span", { class: "badge muted", "data-testid": "wf-flag" }, "-")]
        : flags.map((f) => h("span", { class: `badge flag flag-${f}`, "data-testid": "wf-flag" }, f))),
    ...(r ? [h("span", { class: "muted small", title: "flags.mask" }, t("wf.mask", { mask: r.flags.mask }))] : []),
  );

  $("wf-last").replaceChildren(
    ...(last && r
      ? [
          h("span", { class: "mono small" }, `#${s.history.length} ${last.tool}`),
          " → ",
          h("span", { class: `badge ${STATUS_TONE[r.status] ?? "muted"}`, "data-testid": "wf-status" }, r.status),
          h("span", { class: "wf-summary", "data-testid": "wf-summary", title: r.summary }, r.summary),
        ]
      : [h("span", { class: "muted small" }, t("wf.none"))]),
  );

  const changes = s.pending.changes;
  const pend = $("wf-pending");
  pend.dataset.count = String(changes.length);
  pend.replaceChildren(
    h("span", { class: "label" }, t("wf.pending")),
    changes.length === 0
      ? h("span", { class: "muted small" }, ` ${t("label.none")}`)
      : h(
          "span",
          { class: "wf-pending-list" },
          ` ${changes.length}: `,
          ...changes.map((c) =>
            h(
              "span",
              { class: "wf-change", title: `${c.old_text} → ${c.new_text}` },
              h("span", { class: "cand-badge" }, c.change_id),
              `${c.path}:${c.line} (${c.delta >= 0 ? "+" : ""}${c.delta})`,
            ),
          ),
        ),
  );

  // Storage: each document's stored version and how it relates to the workspace.
  const rows = h("div", { class: "wf-storage-rows" });
  if (ws && storage) {
    const open = ws.paths();
    const stored = [...s.seen.keys(), ...open.filter((p) => !s.seen.has(p))];
    for (const p of stored) {
      const version = storage.version(p);
      const tags: HTMLElement[] = [];
      if (version !== s.seen.get(p)) {
        tags.push(h("span", { class: "tag warn", "data-testid": "storage-unseen", title: t("wf.unseen_title") }, t("wf.unseen")));
      } else if (open.includes(p) && storage.normalized(p) !== ws.text(p)) {
        tags.push(
          h(
            "span",
            { class: "tag muted", "data-testid": "storage-differs" },
            t(s.options.persistMode === "disabled" ? "wf.differs_disabled" : "wf.differs"),
          ),
        );
      }
      rows.append(
        h(
          "div",
          { class: `wf-doc${p === s.path ? " on-screen" : ""}`, "data-path": p },
          h("span", { class: "mono" }, p),
          h("span", { class: "badge small", "data-testid": "storage-version", title: t("wf.storage_version") }, version ?? t("wf.removed")),
          h("span", { class: "muted small" }, t("wf.chars", { n: (storage.read(p) ?? "").length })),
          ...tags,
        ),
      );
    }
    if (storage.armedSaveFailures > 0) {
      rows.append(
        h(
          "div",
          { class: "wf-doc" },
          h(
            "span",
            { class: "tag bad", "data-testid": "armed-failures" },
            t("wf.next_save_fails") + (storage.armedSaveFailures > 1 ? ` (×${storage.armedSaveFailures})` : ""),
          ),
        ),
      );
    }
  }
  $("wf-storage").replaceChildren(rows);
  // The hand editor starts from what storage holds when it is opened (its toggle handler fills it;
  // kept while it is open and being edited). Closed, it holds nothing: a 10 MB text in a hidden
  // textarea made every later layout of the page slow.
  const externalText = $("external-text") as HTMLTextAreaElement;
  if (!($("external-edit") as HTMLDetailsElement).open) externalText.value = "";
  const events = storage ? storage.events.slice(-5) : [];
  $("wf-storage-log").replaceChildren(...events.map(describeEvent));
  const busy = s.busy || !ws;
  ($("external-write") as HTMLButtonElement).disabled = busy;
  ($("external-write-text") as HTMLButtonElement).disabled = busy;
  ($("fail-next-save") as HTMLButtonElement).disabled = busy;

  $("tasks").replaceChildren(renderTaskStack(r ? r.task_stack : [], toolName(s.options, "begin_task")));

  $("wf-tools-count").textContent = ws ? t("wf.tools_count", { visible: s.tools.visible.length, all: s.tools.all.length, state }) : "";
  $("wf-tools").replaceChildren(
    renderToolChips(s.tools.all, s.tools.visible, state, fillConsole, new Map([...s.tools.byName].map(([n, t]) => [n, t.reason]))),
  );
}

export function mountWorkflow(store: PageStore, page: PageCommands): void {
  const externalLine = $("external-line") as HTMLInputElement;
  const externalText = $("external-text") as HTMLTextAreaElement;
  const externalEdit = $("external-edit") as HTMLDetailsElement;
  const stored = () => store.state.storage?.read(store.state.path) ?? "";

  /** Appends the line in the field to the document on screen, as another program would. */
  function simulateExternalWrite(): void {
    if (!store.state.storage) return;
    const current = stored();
    const eol = current.includes("\r\n") ? "\r\n" : "\n";
    const sep = current === "" || current.endsWith("\n") ? "" : eol;
    const line = externalLine.value;
    page.writeExternally(current + sep + line + eol, t("wf.appended", { line: JSON.stringify(line) }));
  }

  $("external-write").addEventListener("click", simulateExternalWrite);
  $("fail-next-save").addEventListener("click", () => page.failNextSave());
  $("external-write-text").addEventListener("click", () => page.writeExternally(externalText.value, t("wf.edited_by_hand")));
  $("external-load-text").addEventListener("click", () => {
    externalText.value = stored();
  });
  externalEdit.addEventListener("toggle", () => {
    if (externalEdit.open) externalText.value = stored();
  });
  const fillConsole = (tool: string) => store.dispatch({ type: "fillConsole", tool, args: null, focus: true });
  watch(
    store,
    (s) => [s.revs.workspace, s.revs.storage],
    (s) => renderWorkflowPanel(s, fillConsole),
    false,
  );
}
