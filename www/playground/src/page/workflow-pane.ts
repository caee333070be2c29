// The Workflow panel: state, flags, last call, pending changes, storage (with its
// actions: an external write, a failing save), the task stack and the tools.
import type { StorageEvent } from "../storage";
import { STATUS_TONE, h, renderTaskStack, renderToolChips } from "../render";
import { $, MODE_HINT, app, showNotice, recorder } from "./state";
import { toolSelect, fillConsole } from "./console-pane";

const externalLine = $("external-line") as HTMLInputElement;
const externalText = $("external-text") as HTMLTextAreaElement;

function describeEvent(e: StorageEvent): HTMLElement {
  switch (e.kind) {
    case "external":
      return h("li", { class: "ev external" }, h("span", { class: "tag warn" }, "external write"), ` ${e.path} → ${e.version}`);
    case "saved":
      return h("li", { class: "ev saved" }, h("span", { class: "tag ok" }, "saved"), ` ${e.path} → ${e.version}`);
    case "failed":
      return h(
        "li",
        { class: "ev failed", title: e.error ?? "" },
        h("span", { class: "tag bad" }, "save failed"),
        ` ${e.path}: ${e.error ?? ""}`,
      );
  }
}

/** State, mode, flags, last call, pending changes, storage, task stack and tools in one place. */
export function renderWorkflowPanel(): void {
  const ws = app.ws;
  const storage = app.storage;
  const state = ws ? ws.state : "–";
  const last = app.history[app.history.length - 1];
  const r = last?.response;

  const st = $("wf-state");
  st.textContent = state;
  st.dataset.state = ws ? ws.state : "";
  const mode = $("wf-mode");
  mode.textContent = app.persistMode;
  mode.dataset.mode = app.persistMode;
  $("mode-hint").textContent = MODE_HINT[app.persistMode];

  const flags = r?.flags.names ?? [];
  $("wf-flags").replaceChildren(
    ...(r === undefined
      ? [h("span", { class: "muted small" }, "(no call yet)")]
      : flags.length === 0
        ? [h("span", { class: "badge muted", "data-testid": "wf-flag" }, "-")]
        : flags.map((f) => h("span", { class: `badge flag flag-${f}`, "data-testid": "wf-flag" }, f))),
    ...(r ? [h("span", { class: "muted small", title: "flags.mask" }, ` mask ${r.flags.mask}`)] : []),
  );

  $("wf-last").replaceChildren(
    ...(last && r
      ? [
          h("span", { class: "mono small" }, `#${app.history.length} ${last.tool}`),
          " → ",
          h("span", { class: `badge ${STATUS_TONE[r.status] ?? "muted"}`, "data-testid": "wf-status" }, r.status),
          h("span", { class: "wf-summary", "data-testid": "wf-summary", title: r.summary }, r.summary),
        ]
      : [h("span", { class: "muted small" }, "(none)")]),
  );

  const changes = app.pending.changes;
  const pend = $("wf-pending");
  pend.dataset.count = String(changes.length);
  pend.replaceChildren(
    h("span", { class: "label" }, "pending"),
    changes.length === 0
      ? h("span", { class: "muted small" }, " none")
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
    const stored = [...app.seen.keys(), ...open.filter((p) => !app.seen.has(p))];
    for (const p of stored) {
      const version = storage.version(p);
      const tags: HTMLElement[] = [];
      if (version !== app.seen.get(p)) {
        tags.push(
          h(
            "span",
            { class: "tag warn", "data-testid": "storage-unseen", title: "the workspace reads it at the start of the next call" },
            "changed outside · the next call sees it",
          ),
        );
      } else if (open.includes(p) && storage.normalized(p) !== ws.text(p)) {
        tags.push(
          h(
            "span",
            { class: "tag muted", "data-testid": "storage-differs" },
            app.persistMode === "disabled" ? "differs: commits stay in memory" : "differs from the committed text",
          ),
        );
      }
      rows.append(
        h(
          "div",
          { class: `wf-doc${p === app.path ? " on-screen" : ""}`, "data-path": p },
          h("span", { class: "mono" }, p),
          h("span", { class: "badge small", "data-testid": "storage-version", title: "storage version" }, version ?? "(removed)"),
          h("span", { class: "muted small" }, `${(storage.read(p) ?? "").length} chars`),
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
            `next save fails${storage.armedSaveFailures > 1 ? ` (×${storage.armedSaveFailures})` : ""}`,
          ),
        ),
      );
    }
  }
  $("wf-storage").replaceChildren(rows);
  // The hand editor starts from what storage holds when it is opened (its toggle handler fills it;
  // kept while it is open and being edited). Closed, it holds nothing: a 10 MB text in a hidden
  // textarea made every later layout of the page slow.
  if (!($("external-edit") as HTMLDetailsElement).open) externalText.value = "";
  const events = storage ? storage.events.slice(-5) : [];
  $("wf-storage-log").replaceChildren(...events.map(describeEvent));
  const busy = app.busy || !ws;
  ($("external-write") as HTMLButtonElement).disabled = busy;
  ($("external-write-text") as HTMLButtonElement).disabled = busy;
  ($("fail-next-save") as HTMLButtonElement).disabled = busy;

  $("tasks").replaceChildren(renderTaskStack(r ? r.task_stack : []));

  $("wf-tools-count").textContent = ws ? `${app.visible.length} of ${app.allTools.length} visible in ${state}` : "";
  $("wf-tools").replaceChildren(
    renderToolChips(
      app.allTools,
      app.visible,
      state,
      (tool) => {
        fillConsole(tool, null);
        toolSelect.focus();
      },
      new Map([...app.toolStates].map(([n, t]) => [n, t.reason])),
    ),
  );
}

// ------------------------------------------------------------------ storage actions

/** storage.write(path, text): another program changed the document on screen. */
function writeExternally(text: string, what: string): void {
  const storage = app.storage;
  if (!storage || !app.ws || app.busy) return;
  const path = app.path;
  const version = storage.write(path, text);
  recorder.host({ host: "write", path, text });
  const pending = app.ws.draft(path) !== app.ws.text(path);
  showNotice(
    `storage.write("${path}", …) → ${version} (${what}). The next tool call sees it: ` +
      (pending
        ? "changes are pending, so expect ExternalConflict (state OutOfSync; commit blocked until memo_rebase, memo_refresh or memo_discard)."
        : "nothing is pending, so the workspace reloads it silently and says so in that call's summary."),
  );
  renderWorkflowPanel();
}

function simulateExternalWrite(): void {
  const storage = app.storage;
  if (!storage) return;
  const current = storage.read(app.path) ?? "";
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const sep = current === "" || current.endsWith("\n") ? "" : eol;
  const line = externalLine.value;
  writeExternally(current + sep + line + eol, `appended ${JSON.stringify(line)}`);
}

function failNextSave(): void {
  const storage = app.storage;
  if (!storage || app.busy) return;
  storage.failNext("save");
  recorder.host({ host: "failNextSave" });
  showNotice(
    `storage.failNext("save"): the next save rejects (${storage.armedSaveFailures} armed). ` +
      (app.persistMode === "disabled"
        ? "Persist mode is disabled, so nothing saves until you switch modes."
        : app.persistMode === "immediate"
          ? "In immediate mode the next successful edit saves: expect PersistFailure, state OutOfSync."
          : "Commit something: expect PersistFailure, state OutOfSync, the draft kept whole."),
  );
  renderWorkflowPanel();
}

$("external-write").addEventListener("click", simulateExternalWrite);
$("fail-next-save").addEventListener("click", failNextSave);
$("external-write-text").addEventListener("click", () => writeExternally(externalText.value, "edited by hand"));
$("external-load-text").addEventListener("click", () => {
  externalText.value = app.storage?.read(app.path) ?? "";
});
$("external-edit").addEventListener("toggle", () => {
  if (($("external-edit") as HTMLDetailsElement).open) externalText.value = app.storage?.read(app.path) ?? "";
});
