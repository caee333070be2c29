// The playground's storage: the package's MemoryStorage, plus a short log of what happened to it
// (external writes, saves, injected failures) and a count of armed save failures, so the page can
// show them. Reads, writes and versions are MemoryStorage's own.
import { MemoryStorage } from "@agentpad/core";

export interface StorageEvent {
  kind: "external" | "saved" | "failed";
  path: string;
  /** The new version (external, saved); undefined for a failure. */
  version?: string;
  /** Why a save failed. */
  error?: string;
}

export class PlaygroundStorage extends MemoryStorage {
  readonly events: StorageEvent[] = [];
  /** failNext("save") calls not yet used up by a save. */
  armedSaveFailures = 0;

  override async save(path: string, text: string, expectedVersion: string): Promise<{ version: string }> {
    const injected = this.armedSaveFailures > 0;
    if (injected) this.armedSaveFailures--;
    try {
      const result = await super.save(path, text, expectedVersion);
      this.#log({ kind: "saved", path, version: result.version });
      return result;
    } catch (e) {
      this.#log({ kind: "failed", path, error: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  }

  override write(path: string, text: string): string {
    const version = super.write(path, text);
    this.#log({ kind: "external", path, version });
    return version;
  }

  override failNext(operation: "list" | "load" | "save" = "save"): void {
    super.failNext(operation);
    if (operation === "save") this.armedSaveFailures++;
  }

  /** The stored text as the workspace sees it: BOM dropped, CRLF/CR → LF. */
  normalized(path: string): string | undefined {
    const raw = this.read(path);
    return raw === undefined ? undefined : raw.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  }

  #log(event: StorageEvent): void {
    this.events.push(event);
    if (this.events.length > 50) this.events.shift();
  }
}
