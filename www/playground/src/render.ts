// Pure rendering: each function takes data that came from the core (a Response, the draft text)
// and returns DOM. Nothing here matches, diffs or formats text: the core has done that already.

import type { AgentResponse, Candidate, PendingChange, SessionLogEntry, TaskEntry } from "./types";
import { focusableTables, renderMarkdownHtml } from "./markdown";
import { t as say } from "./phrases";

type Attrs = Record<string, string | number | boolean | undefined>;

/** Small DOM helper: h("div", { class: "x", "data-testid": "y" }, child, "text"). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

// ---------------------------------------------------------------- candidates' tiers

/** How a candidate was found, for styling: exact, a fuzzy tier (or gutters), or a near miss. */
export type CandidateTier = "exact" | "fuzzy" | "near";

export function candidateTier(c: Pick<Candidate, "match_quality">): CandidateTier {
  const q = c.match_quality;
  if (q === "exact") return "exact";
  return q.startsWith("similar:") ? "near" : "fuzzy";
}

/** The badge text: the letter, plus the match_quality when it is not exact (`B · indentation`). */
export function candidateLabel(c: Pick<Candidate, "id" | "match_quality">): string {
  return c.match_quality === "exact" ? c.id : `${c.id} · ${c.match_quality}`;
}

/** Tooltip of a tier. */
export function tierTitle(c: Candidate): string {
  switch (candidateTier(c)) {
    case "exact":
      return say("render.tier_exact");
    case "fuzzy":
      return say("render.tier_fuzzy", { quality: c.match_quality });
    case "near":
      return say("render.tier_near", { quality: c.match_quality });
  }
}

// ---------------------------------------------------------------- document view
// The document itself is a CodeMirror 6 view: src/docview.ts (badges built from candidateLabel).

/**
 * The candidates under the document, as a table: badge (letter and tier), line, match_quality,
 * the line's preview, flags, and an empty actions cell the caller may fill (row `data-candidate`).
 */
export function renderCandidateList(candidates: readonly Candidate[]): HTMLElement {
  const table = h(
    "table",
    { class: "cand-table", "data-testid": "candidate-list" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, say("render.col_id")),
        h("th", {}, say("render.col_line")),
        h("th", {}, say("render.col_quality")),
        h("th", {}, say("render.col_preview")),
        h("th", {}, h("span", { class: "sr-only" }, say("render.col_flags"))),
        h("th", {}, h("span", { class: "sr-only" }, say("render.col_actions"))),
      ),
    ),
  );
  const body = h("tbody");
  for (const c of candidates) {
    const tier = candidateTier(c);
    body.append(
      h(
        "tr",
        {
          class: [`tier-${tier}`, c.recommended ? "recommended" : "", c.stale ? "stale" : ""].join(" ").trim(),
          "data-candidate": c.id,
          "data-tier": tier,
        },
        h("td", {}, h("span", { class: `cand-badge tier-${tier}`, title: tierTitle(c) }, candidateLabel(c))),
        h("td", { class: "num" }, String(c.line)),
        h("td", { class: `quality tier-${tier}`, "data-testid": `candidate-quality-${c.id}`, title: tierTitle(c) }, c.match_quality),
        h("td", { class: "preview" }, h("code", {}, c.preview)),
        h(
          "td",
          { class: "flags" },
          c.recommended ? h("span", { class: "tag ok" }, say("render.recommended")) : null,
          c.stale ? h("span", { class: "tag muted" }, say("render.stale")) : null,
        ),
        h("td", { class: "actions" }),
      ),
    );
  }
  table.append(body);
  return table;
}

/**
 * A NoMatch's closest regions from the core's data (`near_misses`: header, then per differing
 * line its pieces), never re-read from the Markdown; what is only in the model's text is <del>,
 * what is only in the document <ins>. The core did the diffing.
 */
export type NearMiss = AgentResponse["near_misses"][number];
type NearMissLine = NearMiss["difference"]["lines"][number];

/** Spaces and tabs made visible inside a differing piece, as the core's text shows them. */
function visible(text: string): string {
  return text.replace(/ /g, "·").replace(/\t/g, "→");
}

function lineLabel(l: NearMissLine): string {
  if (l.at === "whole") return "";
  if (l.at === "line") return say("render.at_line", { line: l.line });
  return l.line === 0 ? say("render.before_line_1") : say("render.after_line", { line: l.line });
}

export function renderNearMisses(misses: readonly NearMiss[]): HTMLElement {
  const pre = h("pre", {
    class: "near-diff",
    "data-testid": "near-miss-preview",
    tabindex: 0,
    role: "region",
    "aria-label": say("render.what_differs"),
  });
  for (const n of misses) {
    const head =
      (n.id ? `[${n.id}] ` : "") + say("render.near_head", { line: n.line, similarity: (Math.floor(n.similarity * 100) / 100).toFixed(2) });
    pre.append(h("span", { class: `nm-head${n.id ? " lettered" : ""}` }, head), "\n");
    for (const l of n.difference.lines) {
      const row = h("span", { class: "nm-line" }, lineLabel(l));
      for (const p of l.pieces) {
        if (p.kind === "same") row.append(p.text);
        else if (p.kind === "omitted") row.append(`…(${p.chars})…`);
        else {
          const more = p.more > 0 ? `…+${p.more}` : "";
          row.append(
            p.kind === "old_text"
              ? h("del", { title: say("render.only_old_text") }, visible(p.text) + more)
              : h("ins", { title: say("render.only_document") }, visible(p.text) + more),
          );
        }
      }
      pre.append(row, "\n");
    }
    if (n.difference.only_after_line !== null)
      pre.append(h("span", { class: "nm-line" }, say("render.differences_after", { line: n.difference.only_after_line })), "\n");
  }
  return pre;
}

// ---------------------------------------------------------------- pending changes

// The pending diff itself is a CodeMirror 6 view of the core's text: src/diffview.ts.

function formatDelta(delta: number): string {
  return delta >= 0 ? `+${delta}` : String(delta);
}

/** The pending_changes list: letter, path:line, old → new, delta. */
export function renderPendingChanges(changes: readonly PendingChange[]): HTMLElement {
  if (changes.length === 0) {
    return h("p", { class: "muted", "data-testid": "pending-changes" }, say("render.no_pending"));
  }
  const table = h(
    "table",
    { class: "changes", "data-testid": "pending-changes" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, say("render.col_id")),
        h("th", {}, say("render.col_line")),
        h("th", {}, say("render.col_old_new")),
        h("th", {}, "Δ"),
      ),
    ),
  );
  const body = h("tbody");
  for (const c of changes) {
    body.append(
      h(
        "tr",
        { "data-change": c.change_id },
        h(
          "td",
          {},
          h("span", { class: "cand-badge" }, c.change_id),
          c.amended ? h("span", { class: "tag muted" }, say("render.amended")) : null,
        ),
        h("td", { class: "num" }, `${c.path}:${c.line}`),
        h(
          "td",
          { class: "oldnew" },
          h("del", {}, c.old_text === "" ? "∅" : c.old_text),
          h("span", { class: "arrow" }, " → "),
          h("ins", {}, c.new_text === "" ? "∅" : c.new_text),
        ),
        h("td", { class: `num ${c.delta > 0 ? "pos" : c.delta < 0 ? "neg" : ""}` }, formatDelta(c.delta)),
      ),
    );
  }
  table.append(body);
  return table;
}

// ---------------------------------------------------------------- response

export const STATUS_TONE: Record<string, string> = {
  Success: "ok",
  NoOp: "muted",
  MultiMatch: "warn",
  NoMatch: "warn",
  StaleReference: "warn",
  Blocked: "warn",
  InvalidArguments: "bad",
  PersistFailure: "bad",
  ExternalConflict: "bad",
  Exception: "bad",
};

/** status / state / flags / match quality as badges. */
export function renderBadges(r: AgentResponse): HTMLElement {
  const flags = r.flags?.names ?? [];
  return h(
    "div",
    { class: "badges", "data-testid": "response-badges" },
    h("span", { class: "label" }, say("render.status")),
    h("span", { class: `badge ${STATUS_TONE[r.status] ?? "muted"}`, "data-testid": "status-badge" }, r.status),
    h("span", { class: "label" }, say("label.state")),
    h("span", { class: "badge state", "data-testid": "response-state-badge", "data-state": r.workflow_state }, r.workflow_state),
    h("span", { class: "label" }, say("wf.flags")),
    ...(flags.length === 0
      ? [h("span", { class: "badge muted", "data-testid": "flag-badge" }, "-")]
      : flags.map((f) => h("span", { class: "badge flag", "data-testid": "flag-badge" }, f))),
    r.match_quality ? h("span", { class: "label" }, say("render.match")) : null,
    r.match_quality
      ? h(
          "span",
          { class: `badge quality tier-${candidateTier({ match_quality: r.match_quality })}`, "data-testid": "match-quality" },
          r.match_quality,
        )
      : null,
  );
}

/** The Markdown the model reads, rendered (markdown-it, html off, then DOMPurify). */
export function renderMarkdown(markdown: string): HTMLElement {
  const div = h("div", {
    class: "markdown",
    "data-testid": "response-markdown",
    tabindex: 0,
    role: "region",
    "aria-label": say("render.response_markdown"),
  });
  div.innerHTML = renderMarkdownHtml(markdown);
  focusableTables(div);
  return div;
}

/** The whole Response as pretty JSON. */
export function renderJson(r: unknown): HTMLElement {
  return h(
    "pre",
    { class: "json", "data-testid": "response-json", tabindex: 0, role: "region", "aria-label": say("render.response_json") },
    JSON.stringify(r, null, 2),
  );
}

/** next_actions as buttons; the caller decides what a click does. */
export function renderNextActions(actions: readonly string[], onPick: (tool: string) => void): HTMLElement {
  const div = h("div", { class: "next-actions", "data-testid": "next-actions" });
  if (actions.length === 0) return div;
  div.append(h("span", { class: "label" }, say("render.next")));
  for (const a of actions) {
    const tool = a.split("(")[0].trim();
    const b = h("button", { type: "button", class: "chip", title: say("render.select_tool", { tool }) }, a);
    b.addEventListener("click", () => onPick(tool));
    div.append(b);
  }
  return div;
}

/**
 * The task stack (innermost last), one row per task indented by its depth, the innermost marked
 * "current". Each row carries data-depth and data-task for tests. `beginTask`: the tool that pushes
 * one, under the page's prefix.
 */
export function renderTaskStack(stack: readonly TaskEntry[], beginTask: string): HTMLElement {
  const div = h("div", { class: "tasks", "data-testid": "task-stack" });
  if (stack.length === 0) {
    div.append(h("span", { class: "muted small" }, say("render.no_task", { begin: beginTask })));
    return div;
  }
  stack.forEach((t, i) => {
    const current = i === stack.length - 1;
    const depth = Math.max(1, t.depth);
    div.append(
      h(
        "div",
        {
          class: `task${current ? " current" : ""}`,
          "data-testid": "task-entry",
          "data-task": t.task_id,
          "data-depth": depth,
          style: `padding-left:${(depth - 1) * 1.3}em`,
          title: say("render.task_title", { id: t.task_id, depth, status: t.status }),
        },
        depth > 1 ? h("span", { class: "tree", "aria-hidden": "true" }, "└ ") : null,
        h("span", { class: "task-id" }, `#${t.task_id}`),
        " ",
        h("span", { class: "task-goal" }, t.goal),
        " ",
        h("span", { class: `tag ${t.status === "Active" ? "ok" : "muted"}` }, t.status),
        current ? h("span", { class: "tag current-tag" }, say("render.current")) : null,
      ),
    );
  });
  return div;
}

/** memo_export_session's session_log as a table: #, tool, status, arguments, time, tool_call_id. */
export function renderSessionLog(log: readonly SessionLogEntry[]): HTMLElement {
  const t0 = log.length > 0 ? log[0].at_ms : 0;
  const table = h(
    "table",
    { class: "session-log", "data-testid": "session-log" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "#"),
        h("th", {}, say("render.col_tool")),
        h("th", {}, say("render.status")),
        h("th", {}, say("render.col_args")),
        h("th", { title: say("render.ms_title") }, "+ms"),
        h("th", {}, "tool_call_id"),
      ),
    ),
  );
  const body = h("tbody");
  for (const e of log) {
    const args = JSON.stringify(e.args ?? {});
    body.append(
      h(
        "tr",
        { "data-seq": e.seq },
        h("td", { class: "num" }, String(e.seq)),
        h("td", { class: "mono" }, e.tool),
        h(
          "td",
          {},
          e.status === null
            ? h("span", { class: "muted" }, "(running)")
            : h("span", { class: `badge small ${STATUS_TONE[e.status] ?? "muted"}` }, e.status),
        ),
        h("td", { class: "mono args", title: args }, args.length > 60 ? `${args.slice(0, 59)}…` : args),
        h("td", { class: "num" }, String(e.at_ms - t0)),
        h("td", { class: "mono muted" }, e.tool_call_id ?? "–"),
      ),
    );
  }
  table.append(body);
  return table;
}

/**
 * Every tool the page knows, as chips: visible ones (in `visible`) plain, hidden ones struck
 * through (calling one returns Blocked). A click picks the tool in the console.
 */
export function renderToolChips(
  all: readonly string[],
  visible: readonly string[],
  state: string,
  onPick: (tool: string) => void,
  /** Why a hidden tool is hidden (ws.toolStates()'s reason), for its title. */
  reasons?: ReadonlyMap<string, string | null>,
): HTMLElement {
  const div = h("div", { class: "tool-chips", "data-testid": "visible-tools" });
  const shown = new Set(visible);
  for (const name of all) {
    const on = shown.has(name);
    const b = h(
      "button",
      {
        type: "button",
        class: `chip tool-chip ${on ? "visible" : "hidden-tool"}`,
        "data-tool": name,
        "data-visible": on ? "true" : "false",
        title: on
          ? say("render.tool_visible", { name, state })
          : say("render.tool_hidden", { name, state }) + (reasons?.get(name) ? `: ${reasons.get(name)}` : ""),
      },
      name,
    );
    b.addEventListener("click", () => onPick(name));
    div.append(b);
  }
  return div;
}
