// The message of a git-mode commit (docs/workflow.md#git-mode): the summary as the subject, the
// changes (letter, path, lines) and the files written in the body.
import type { CommitRecord } from "./types.js";

/** Lines listed per change before "…". */
const MAX_LINES_LISTED = 10;

/** `+3 chars`, `-2 chars`, `±0 chars`. */
const chars = (delta: number): string => `${delta > 0 ? "+" : delta < 0 ? "-" : "±"}${Math.abs(delta)} chars`;

/**
 * The commit message of `commit`:
 *
 * ```text
 * Rename the service to billing
 *
 * A service.yaml line 2 (+1 chars)
 * B docs/a.md lines 4, 9 (2 places, -6 chars)
 *
 * Task 2: Move the service to billing
 * Written by agentpad (memo_commit): service.yaml, docs/a.md
 * ```
 *
 * A multi-line summary keeps its first line as the subject and the rest before the changes; the
 * task line is there when a task was under way.
 */
export function commitMessage(commit: CommitRecord): string {
  const [subject = "", ...rest] = commit.summary.trim().split(/\r?\n/);
  const body: string[] = [];
  const more = rest.join("\n").trim();
  if (more !== "") body.push(more, "");
  const written = new Set(commit.paths);
  const changes = commit.changes.filter((c) => written.has(c.path));
  for (const c of changes) {
    const lines = c.places.length > 0 ? c.places.map((p) => p.line) : [c.line];
    const shown = lines.slice(0, MAX_LINES_LISTED).join(", ") + (c.place_count > MAX_LINES_LISTED ? ", …" : "");
    const places = c.place_count > 1 ? `${c.place_count} places, ` : "";
    body.push(`${c.change_id} ${c.path} line${lines.length > 1 ? "s" : ""} ${shown} (${places}${chars(c.delta)})`);
  }
  if (changes.length > 0) body.push("");
  if (commit.task !== undefined) body.push(`Task ${commit.task.id}: ${commit.task.goal.replace(/\s+/g, " ").trim()}`);
  body.push(`Written by agentpad (${commit.tool}): ${commit.paths.join(", ")}`);
  return `${subject.trim() === "" ? `agentpad ${commit.tool}` : subject.trim()}\n\n${body.join("\n")}\n`;
}
