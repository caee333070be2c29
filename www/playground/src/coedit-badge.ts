// The co-editing view's connection badge (docs/co-editing.md §Playground): the person's socket and
// the agent's own one (a second provider that reconnects with up to 1 s backoff). The agent's is
// shown too: after the server comes back the person's socket may be online while the agent's is
// still reconnecting, and a commit then answers Success with NotStored. No runtime imports, so
// test/locale.test.mjs checks the text of every pair of states in Node.
import type { PhraseKey } from "./locale/en";

export type PersonConnection = "connecting" | "online" | "offline";
export type AgentConnection = "connecting" | "online" | "reconnecting";

const PERSON: Record<PersonConnection, PhraseKey> = {
  connecting: "coedit.person_connecting",
  online: "coedit.person_online",
  offline: "coedit.person_offline",
};
const AGENT: Record<AgentConnection, PhraseKey> = {
  connecting: "coedit.agent_connecting",
  online: "coedit.agent_online",
  reconnecting: "coedit.agent_reconnecting",
};

/** "● online · agent ◌ reconnecting"; the person's part alone on a page without the agent (`agent=0`). */
export function connectionBadge(person: PersonConnection, agent: AgentConnection | null, say: (key: PhraseKey) => string): string {
  return agent === null ? say(PERSON[person]) : `${say(PERSON[person])} · ${say(AGENT[agent])}`;
}

/** The agent's connection after its socket reports `status`: once it has been online, a loss is a reconnect. */
export function nextAgentConnection(was: AgentConnection, status: string): AgentConnection {
  if (status === "connected") return "online";
  return was === "connecting" ? "connecting" : "reconnecting";
}
