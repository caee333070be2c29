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
import { setPageLocale, t } from "./phrases";
import { startLocale } from "./locale/choose";
import { connectionBadge, nextAgentConnection, type AgentConnection, type PersonConnection } from "./coedit-badge";

const SAMPLE = "# Release plan\n\nalpha = 1\nbeta = 1\ngamma = 1\n\nNotes: ship when the checks pass.\n";

function el<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`coedit.html has no #${id}`);
  return found as T;
}
const status = (text: string) => (el("coedit-status").textContent = text);

const params = new URLSearchParams(location.hash.slice(1));
// The view speaks the playground's languages: `locale=` in the hash or the query, else the browser's.
setPageLocale(startLocale(params.has("locale") ? `?locale=${params.get("locale")}` : location.search, navigator.language), "coedit.title");

/** Both connections: the person's socket and, on a page with the agent, the agent's own. */
const connection: { person: PersonConnection; agent: AgentConnection | null; ready: boolean } = {
  person: "connecting",
  agent: null,
  ready: false,
};

/** The connections as the page shows them (docs/co-editing.md §Playground); `detail` in the status line. */
function showConnection(person: PersonConnection | null, detail: string): void {
  if (person !== null) connection.person = person;
  const badge = el("connection");
  badge.dataset.state = connection.person;
  badge.dataset.agent = connection.agent ?? "none";
  badge.removeAttribute("data-t");
  badge.textContent = connectionBadge(connection.person, connection.agent, t);
  badge.title = detail;
  status(detail);
}

/**
 * Connects to the room, waiting for as long as the page is open: a page opened while the server
 * is down shows it offline, and its socket keeps reconnecting until the server is up.
 */
function connectWaiting(server: string, roomName: string, who: "agent" | "person"): Promise<Room> {
  let failures = 0;
  return connectHocuspocus({
    url: server,
    room: roomName,
    syncTimeoutMs: Infinity,
    maxDelay: 1_000,
    onStatus(s) {
      if (who === "agent" && connection.agent !== null) {
        const was = connection.agent;
        connection.agent = nextAgentConnection(was, s);
        // Once the page is up the person's socket speaks for itself; this is the agent's part only.
        if (connection.ready && was !== connection.agent)
          showConnection(null, t(connection.agent === "online" ? "coedit.agent_back" : "coedit.agent_lost", { server }));
      }
      if (s === "connected") failures = 0;
      else if (!connection.ready && (s === "disconnected" || failures > 0))
        showConnection(
          "offline",
          t("coedit.offline_tries", { server, who: t(who === "agent" ? "coedit.who_agent" : "coedit.who_person"), n: ++failures }),
        );
    },
  });
}

/** Colours for people, far apart; each person takes the first one no one else in the room has. */
const PALETTE = [
  ["#1f6feb", "#c8dcff"],
  ["#b42318", "#ffd6d1"],
  ["#067647", "#c6f0d9"],
  ["#7a2e9c", "#ecd6f7"],
  ["#b54708", "#fde4c8"],
  ["#0e7490", "#c9eef6"],
  ["#c11574", "#fbd3e8"],
  ["#4d5a00", "#e8efb8"],
] as const;

async function start(server: string, roomName: string): Promise<void> {
  const path = params.get("path") ?? "notes.md";
  const withAgent = params.get("agent") !== "0";
  const personName = params.get("name") ?? t("coedit.person", { n: Math.floor(Math.random() * 900 + 100) });
  if (withAgent) connection.agent = "connecting";
  showConnection("connecting", t("coedit.connecting_to", { server }));

  // The agent's own connection and Y.Doc: it seeds the document once if the room has none.
  let agent: { room: Room; ws: Workspace } | undefined;
  if (withAgent) {
    const room = await connectWaiting(server, roomName, "agent");
    if (!(await room.storage.list()).includes(path)) await room.storage.save(path, SAMPLE, "");
    const ws = await Workspace.create({ storage: room.storage, paths: [path], autoRebase: true });
    agent = { room, ws };
  }

  // The person's connection: another socket and Y.Doc, as another tab or machine would have.
  const personRoom = await connectWaiting(server, roomName, "person");
  // Waits for the document as long as it takes: someone opening the page with the agent seeds it.
  for (let waited = 0; !(await personRoom.storage.list()).includes(path); waited += 100) {
    if (waited === 3_000) status(t("coedit.no_document", { room: roomName, path }));
    await new Promise((r) => setTimeout(r, 100));
  }
  const ytext = await personRoom.storage.text(path);
  const awareness = personRoom.provider(path)?.awareness;
  if (ytext.doc === null || awareness == null) throw new Error("the person's document has no provider");
  const ydoc = ytext.doc;
  // A colour no one else in the room has; on a clash the later joiner (higher client id) moves.
  const pickColour = () => {
    const mine = awareness.getLocalState()?.user as { color?: string } | undefined;
    const taken = new Map<string, number>();
    for (const [id, state] of awareness.getStates()) {
      const c = (state.user as { color?: string } | undefined)?.color;
      if (id !== ydoc.clientID && typeof c === "string") taken.set(c, Math.min(id, taken.get(c) ?? id));
    }
    if (mine?.color !== undefined && !((taken.get(mine.color) ?? Infinity) < ydoc.clientID)) return;
    const [color, colorLight] = PALETTE.find(([c]) => !taken.has(c)) ?? PALETTE[ydoc.clientID % PALETTE.length]!;
    awareness.setLocalStateField("user", { name: personName, color, colorLight });
    const name = el("person-name");
    name.style.color = color;
    name.dataset.color = color;
  };
  pickColour();
  awareness.on("change", pickColour);
  el("person-name").textContent = `(${personName})`;
  personRoom.socket.on("status", ({ status: s }: { status: string }) => {
    if (s === "connected") showConnection("online", t("coedit.online", { server, room: roomName, path }));
    else showConnection("offline", t("coedit.offline", { server }));
  });
  const view = new EditorView({
    parent: el("person-editor"),
    state: EditorState.create({
      doc: ytext.toString(),
      extensions: [
        lineNumbers(),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ "aria-label": t("coedit.shared_document", { path }) }),
        yCollab(ytext, awareness),
      ],
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
          ? t("coedit.pending_item", { id: r.id, line, covered, replacement: JSON.stringify(r.replacement ?? ""), agent: r.agent })
          : t(r.recommended ? "coedit.candidate_item_recommended" : "coedit.candidate_item", { id: r.id, line, covered, agent: r.agent });
      return li;
    });
    if (items.length === 0) {
      const li = document.createElement("li");
      li.className = "muted";
      // Offline, the others' awareness is gone with the socket: nothing is known, which is not "none".
      li.textContent = t(connection.person === "offline" ? "coedit.none_offline" : "coedit.none");
      items.push(li);
    }
    el("agent-pending").replaceChildren(...items);
  };
  awareness.on("change", renderPending);
  personRoom.socket.on("status", renderPending); // after the badge's handler: it reads connection.person
  ytext.observe(renderPending);
  renderPending();

  if (agent !== undefined) wireAgent(agent, path);
  else el("agent-pane").hidden = true;
  el("coedit").hidden = false;
  connection.ready = true;
  showConnection("online", t("coedit.online", { server, room: roomName, path }));
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
  // A commit answered NotStored turns to stored on the page once storage acknowledges it (asked
  // every 250 ms, O(unstored documents)): the status line never keeps saying "not stored" about a
  // commit the server has (docs/co-editing.md §Stored).
  let watching: ReturnType<typeof setInterval> | undefined;
  const stopWatching = () => {
    clearInterval(watching);
    watching = undefined;
  };
  const watchStored = (status: string) => {
    watching = setInterval(() => {
      if (ws.unstored().includes(path)) return;
      stopWatching();
      el("agent-status").textContent = t("coedit.stored_now", { status });
    }, 250);
  };
  const run = async (name: string, args: Record<string, unknown>) => {
    document.body.dataset.busy = "true";
    stopWatching();
    try {
      const r = await ws.callUntyped(name, args);
      // A commit the server has not acknowledged is not a plain success (docs/co-editing.md §Stored).
      const notStored = r.flags.names.includes("NotStored");
      el("agent-status").textContent = notStored ? t("coedit.not_stored", { status: r.status }) : r.status;
      if (notStored) watchStored(r.status);
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
  el("commit").addEventListener("click", () => void run("memo_commit", { summary: t("coedit.commit_summary") }));
  el("revert").addEventListener("click", () => void run("memo_revert", { reason: t("coedit.commit_summary") }));
  window.addEventListener("beforeunload", () => {
    stopWatching();
    ws.free();
    void room.destroy({ timeoutMs: 0 });
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
    status(t("coedit.could_not_connect", { error: err instanceof Error ? err.message : String(err) }));
    document.body.dataset.ready = "error";
  });
}
