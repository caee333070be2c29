// The console's pinned calls: a call pinned from the call history is kept in
// localStorage, so it stays at the top of the list across a sample change, a workspace recreation
// (persist mode, locale, …) and a reload. A pin is the call (tool + arguments) and the status it
// had when pinned; ✎ puts it in the console, ↻ runs it on the current workspace.

export interface PinnedCall {
  tool: string;
  args: Record<string, unknown>;
  /** The status of the call when it was pinned. */
  status: string;
  pinnedAt: number;
}

const KEY = "agentpad-playground:pinned-calls";

/** Identity of a call: its tool and its arguments (keys sorted). */
export function callKey(tool: string, args: Record<string, unknown>): string {
  const sorted = (v: unknown): unknown =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : Array.isArray(v)
        ? v.map(sorted)
        : v;
  return `${tool} ${JSON.stringify(sorted(args))}`;
}

export class PinStore {
  #pins: PinnedCall[] = [];

  constructor() {
    try {
      const raw = localStorage.getItem(KEY);
      const list: unknown = raw ? JSON.parse(raw) : [];
      if (Array.isArray(list)) {
        this.#pins = list.filter(
          (p): p is PinnedCall =>
            typeof p === "object" && p !== null && typeof p.tool === "string" && typeof p.args === "object" && p.args !== null,
        );
      }
    } catch {
      this.#pins = []; // no storage (private mode) or a broken entry: start empty
    }
  }

  get list(): readonly PinnedCall[] {
    return this.#pins;
  }

  has(tool: string, args: Record<string, unknown>): boolean {
    const k = callKey(tool, args);
    return this.#pins.some((p) => callKey(p.tool, p.args) === k);
  }

  /** Pin (true) or unpin (false) the call; returns whether it is pinned now. */
  toggle(tool: string, args: Record<string, unknown>, status: string): boolean {
    const k = callKey(tool, args);
    const at = this.#pins.findIndex((p) => callKey(p.tool, p.args) === k);
    if (at >= 0) this.#pins.splice(at, 1);
    else this.#pins.push({ tool, args: structuredClone(args), status, pinnedAt: Date.now() });
    this.#save();
    return at < 0;
  }

  #save(): void {
    try {
      localStorage.setItem(KEY, JSON.stringify(this.#pins));
    } catch {
      // storage full or unavailable: the pins last for this page only
    }
  }
}
