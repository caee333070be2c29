// The response validator of the core (`agentpad::validate`), for agent developers who store,
// rewrite or forward responses and want to know the model still gets the layout of docs/responses.md#markdown-layout.

import { validateMarkdown } from "../pkg/agentpad.js";
import { ensureWasm } from "./loader.js";
import type { ValidationResult } from "./types.js";

/**
 * Checks a Markdown response (`response.markdown`) against the layout the model is promised:
 * header lines, Overview, Metrics, optional sections in order, the candidate table or list,
 * and flags consistent with the state. Resolves to every violation found (empty when valid)
 * and what could be read. Loads the wasm if no Workspace has yet.
 */
export async function validateResponse(markdown: string): Promise<ValidationResult> {
  if (typeof markdown !== "string") {
    throw new TypeError(`agentpad: validateResponse(markdown) needs a string, got ${typeof markdown}`);
  }
  await ensureWasm();
  return validateMarkdown(markdown) as ValidationResult;
}
