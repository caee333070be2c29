// The co-editing view (coedit.html): a person's CodeMirror bound to a Y.Text with
// y-codemirror.next, beside an agent session (a Workspace over YjsStorage) on the same document
// of a Hocuspocus room. The agent publishes its pending changes in awareness as
// Y.RelativePositions; every person's editor draws the first as the agent's selection and lists
// all of them where they are now. Parameters (location.hash): server, room, path, agent=0 (no
// agent pane: a second person), name.
import "./coedit.css";
import { EditorView, lineNumbers } from "@codemirror/view";
import { EditorState } from "@codemirror/state";
import { yCollab } from "y-codemirror.next";
import { Workspace } from "@agentpad/core";
import type { ToolResponse } from "@agentpad/core";
import { publishAgentState, resolveAgentRanges } from "@agentpad/yjs";
import { connectHocuspocus, type Room } from "@agentpad/yjs/hocuspocus";

const SAMPLE = "# Release plan\n\nalpha = 1\nbeta = 1\ngamma = 1\n\nNotes: ship when the checks pass.\n";

function el<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`coedit.html has no #${id}`);
  return found as T;
}
const status = (text: string) => (el("coedit-status").textContent = text);

const params = new URLSearchParams(location.hash.slice(1));

async function start(server: string, roomName: string): Promise<void> {
  const path = params.get("path") ?? "notes.md";
  const withAgent = params.get("agent") !== "0";
  const personName = params.get("name") ?? `person ${Math.floor(Math.random() * 900 + 100)}`;
  status(`connecting to ${server} …`);

  // The agent's own connection and Y.Doc: it seeds the document once if the room has none.
  let agent: { room: Room; ws: Workspace } | undefined;
  if (withAgent) {
    const room = await connectHocuspocus({ url: server, room: roomName });
    if (!(await room.storage.list()).includes(path)) await room.storage.save(path, SAMPLE, "");
    const ws = await Workspace.create({ storage: room.storage, paths: [path], autoRebase: true });
    agent = { room, ws };
  }

  // The person's connection: another socket and Y.Doc, as another tab or machine would have.
  const personRoom = await connectHocuspocus({ url: server, room: roomName });
  const deadline = Date.now() + 10_000;
  while (!(await personRoom.storage.list()).includes(path)) {
    if (Date.now() > deadline) throw new Error(`the room "${roomName}" has no ${path} (open this page once without agent=0 to seed it)`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const ytext = await personRoom.storage.text(path);
  const awareness = personRoom.provider(path)?.awareness;
  if (ytext.doc === null || awareness == null) throw new Error("the person's document has no provider");
  const ydoc = ytext.doc;
  awareness.setLocalStateField("user", { name: personName, color: "#1f6feb", colorLight: "#c8dcff" });
  el("person-name").textContent = `(${personName})`;
  const view = new EditorView({
    parent: el("person-editor"),
    state: EditorState.create({
      doc: ytext.toString(),
      extensions: [lineNumbers(), EditorView.lineWrapping, EditorView.contentAttributes.of({ "aria-label": `${path}, shared document` }), yCollab(ytext, awareness)],
    }),
  });
  (el("person-editor") as HTMLElement & { editorView?: EditorView }).editorView = view;

  // The agent's pending changes and candidates as every person sees them: resolved against
  // their own doc, so they sit where the text they cover is now.
  const renderPending = () => {
    const text = ytext.toString();
    const items: HTMLElement[] = resolveAgentRanges(awareness, ydoc).map((r) => {
      const line = text.slice(0, r.from).split("\n").length;
      const li = document.createElement("li");
      li.dataset.testid = `${r.kind}-${r.id}`;
      li.dataset.line = String(line);
      const covered = JSON.stringify(text.slice(r.from, r.to));
      li.textContent =
        r.kind === "pending"
          ? `${r.id} · line ${line} · ${covered} → ${JSON.stringify(r.replacement ?? "")} (${r.agent})`
          : `candidate ${r.id}${r.recommended ? " (recommended)" : ""} · line ${line} · ${covered} (${r.agent})`;
      return li;
    });
    if (items.length === 0) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = "none";
      items.push(li);
    }
    el("agent-pending").replaceChildren(...items);
  };
  awareness.on("change", renderPending);
  ytext.observe(renderPending);
  renderPending();

  if (agent !== undefined) wireAgent(agent, path);
  else el("agent-pane").hidden = true;
  el("coedit").hidden = false;
  status(`connected to ${server}, room ${roomName}, ${path}`);
  document.body.dataset.ready = "true";
}

/** The agent pane: stage / commit / revert, and the awareness it publishes after each call. */
function wireAgent({ room, ws }: { room: Room; ws: Workspace }, path: string): void {
  const agentAwareness = room.provider(path)?.awareness;
  const publish = async (r: ToolResponse) => {
    if (agentAwareness == null) return;
    const ytext = await room.storage.text(path);
    publishAgentState(agentAwareness, ytext, r, { path, committed: ws.text(path), draft: ws.draft(path), name: "agent" });
  };
  const run = async (name: string, args: Record<string, unknown>) => {
    document.body.dataset.busy = "true";
    try {
      const r = await ws.callUntyped(name, args);
      el("agent-status").textContent = r.status;
      el("agent-response").textContent = r.markdown;
      await publish(r);
    } finally {
      document.body.dataset.busy = "false";
    }
  };
  el<HTMLFormElement>("agent-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void run("memo_replace", { old_text: el<HTMLTextAreaElement>("old-text").value, new_text: el<HTMLTextAreaElement>("new-text").value });
  });
  el("commit").addEventListener("click", () => void run("memo_commit", { summary: "from the co-editing view" }));
  el("revert").addEventListener("click", () => void run("memo_revert", { reason: "from the co-editing view" }));
  window.addEventListener("beforeunload", () => {
    ws.free();
    room.destroy();
  });
}

const server = params.get("server");
const roomName = params.get("room") ?? "demo";
if (server === null) {
  const form = el<HTMLFormElement>("connect");
  form.hidden = false;
  el<HTMLInputElement>("room-name").value = roomName;
  // `./build.sh serve` writes the address of the server it started beside the page.
  fetch("./collab.json")
    .then((r) => (r.ok ? r.json() : undefined))
    .then((found: { server?: unknown } | undefined) => {
      const input = el<HTMLInputElement>("server-url");
      if (typeof found?.server === "string" && input.value === "") input.value = found.server;
    })
    .catch(() => {}); // served without one: the person types the address
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    params.set("server", el<HTMLInputElement>("server-url").value.trim());
    params.set("room", el<HTMLInputElement>("room-name").value.trim());
    location.hash = params.toString();
    location.reload();
  });
  document.body.dataset.ready = "true";
} else {
  start(server, roomName).catch((err) => {
    status(`could not connect: ${err instanceof Error ? err.message : String(err)}`);
    document.body.dataset.ready = "error";
  });
}
