// The agent-context panes: the task tree (ws.tasks()), the live-context block
// (ws.liveContext()) and the history token meter (ws.compressHistory()). Pure rendering of what
// the core returned. (The document view's cursor → line / UTF-16 column is in src/docview.ts.)

import type { LineCol, LiveContext, MemoryTurn, TaskEntry, TaskReport } from "./types";
import type { HistoryFormat, TranscriptMessage } from "./transcript";
import { h } from "./render";
import { focusableTables, renderMarkdownHtml } from "./markdown";
import { t as say, tn, type PhraseKey } from "./phrases";

/** A scrolling box keyboard users can reach (tab to it, then scroll with the arrow keys). */
function scrollable(label: PhraseKey): Record<string, string> {
  return { tabindex: "0", role: "region", "aria-label": say(label) };
}

// ---------------------------------------------------------------- task tree

type TaskNode = TaskReport["task_tree"][number];

const STATUS_MARK: Record<TaskNode["status"], string> = { Active: "●", Completed: "✓", Reverted: "↩" };
const STATUS_TONE: Record<TaskNode["status"], string> = { Active: "ok", Completed: "done", Reverted: "bad" };

function statusTag(status: TaskNode["status"]): HTMLElement {
  return h(
    "span",
    { class: `ttag ${STATUS_TONE[status]}`, "data-testid": "task-node-status" },
    h("span", { "aria-hidden": "true" }, `${STATUS_MARK[status]} `),
    say(`task.${status}`),
  );
}

/** The active stack as a nested list: each task is the child of the one before it (outermost first). */
function activeTree(stack: readonly TaskEntry[]): HTMLElement {
  const root = h("ul", { class: "ttree", "data-testid": "task-tree-active" });
  let list = root;
  stack.forEach((t, i) => {
    const current = i === stack.length - 1;
    const li = h(
      "li",
      { "data-task": t.task_id, "data-status": t.status, "data-depth": t.depth, class: current ? "current" : undefined },
      h(
        "div",
        { class: "tnode" },
        statusTag(t.status),
        h("span", { class: "tid" }, `#${t.task_id}`),
        h("span", { class: "tgoal" }, t.goal),
        current ? h("span", { class: "tag current-tag" }, say("render.current")) : null,
      ),
    );
    list.append(li);
    if (!current) {
      const sub = h("ul");
      li.append(sub);
      list = sub;
    }
  });
  return root;
}

function finishedNode(t: TaskNode): HTMLElement {
  const li = h(
    "li",
    { "data-task": t.task_id, "data-status": t.status },
    h(
      "div",
      { class: "tnode" },
      statusTag(t.status),
      h("span", { class: "tid" }, `#${t.task_id}`),
      h("span", { class: "tgoal" }, t.goal),
      t.summary !== null
        ? h(
            "span",
            { class: "tsummary", title: say(t.status === "Reverted" ? "tree.reason_title" : "tree.summary_title") },
            say(t.status === "Reverted" ? "tree.reason" : "tree.summary", { text: t.summary }),
          )
        : null,
    ),
  );
  if (t.children.length > 0) li.append(h("ul", {}, ...t.children.map(finishedNode)));
  return li;
}

/**
 * ws.tasks(): the active stack (outermost first, the innermost current) and the thought tree of
 * finished root tasks with their subtasks, then the Markdown lines the model reads. `beginTask`:
 * the tool that pushes a task, under the page's prefix.
 */
export function renderTaskTree(report: TaskReport, lang: string, beginTask: string): HTMLElement {
  const div = h("div", { class: "task-tree", "data-testid": "task-tree" });
  div.append(h("h3", {}, say("tree.active"), " ", h("span", { class: "muted small" }, "(task_stack)")));
  div.append(
    report.task_stack.length === 0
      ? h("p", { class: "muted small", "data-testid": "task-tree-active" }, say("tree.no_active", { begin: beginTask }))
      : activeTree(report.task_stack),
  );
  div.append(h("h3", {}, say("tree.finished"), " ", h("span", { class: "muted small" }, say("tree.finished_note"))));
  if (report.task_tree.length === 0) {
    div.append(h("p", { class: "muted small", "data-testid": "task-tree-finished" }, say("tree.none_yet")));
  } else {
    if (report.task_tree_earlier > 0) {
      div.append(h("p", { class: "muted small", "data-testid": "task-tree-earlier" }, tn("tree.earlier", report.task_tree_earlier)));
    }
    div.append(h("ul", { class: "ttree", "data-testid": "task-tree-finished" }, ...report.task_tree.map(finishedNode)));
  }
  div.append(
    h(
      "details",
      { class: "pane-details", open: true },
      h("summary", {}, say("tree.as_model_reads"), " ", h("span", { class: "muted small" }, "(ws.tasks().markdown)")),
      h(
        "pre",
        { class: "pane-pre", "data-testid": "task-tree-markdown", lang, ...scrollable("tree.markdown_label") },
        report.markdown === "" ? say("tree.empty") : report.markdown,
      ),
    ),
  );
  return div;
}

// ---------------------------------------------------------------- live context

export type LiveView = "markdown" | "rendered" | "json";

/** The block in the chosen view: the Markdown as the model receives it, rendered, or the JSON. */
export function renderLiveContextView(lc: LiveContext, view: LiveView, lang: string): HTMLElement {
  switch (view) {
    case "markdown": {
      // The exact text: the content parts joined by "\n" (what `markdown` is), each in a span the
      // section links scroll to.
      const pre = h("pre", { class: "lc-raw", "data-testid": "live-context-markdown", lang, ...scrollable("lc.markdown_label") });
      const parts = lc.content_parts.map((p) => p.text);
      if (parts.join("\n") !== lc.markdown) {
        pre.textContent = lc.markdown;
        return pre;
      }
      parts.forEach((text, i) => {
        if (i > 0) pre.append("\n");
        pre.append(h("span", { "data-part": i }, text));
      });
      return pre;
    }
    case "rendered": {
      const div = h("div", {
        class: "markdown lc-rendered",
        "data-testid": "live-context-rendered",
        lang,
        ...scrollable("lc.rendered_label"),
      });
      div.innerHTML = renderMarkdownHtml(lc.markdown);
      focusableTables(div);
      return div;
    }
    case "json":
      return h(
        "pre",
        { class: "json lc-json", "data-testid": "live-context-json", ...scrollable("lc.json_label") },
        JSON.stringify(lc.json, null, 2),
      );
  }
}

/** The block's sections (one per content part: its heading line) as buttons. */
export function renderSectionNav(lc: LiveContext, lang: string, onPick: (index: number) => void): HTMLElement {
  const nav = h("nav", { class: "lc-sections", "aria-label": say("lc.sections"), "data-testid": "lc-sections", lang });
  lc.content_parts.forEach((p, i) => {
    const heading = (p.text.split("\n")[0] ?? "").replace(/^#+\s*/, "");
    const b = h(
      "button",
      { type: "button", class: "chip", "data-part": i, title: say("lc.scroll_to", { heading }) },
      heading || say("lc.part", { n: i + 1 }),
    );
    b.addEventListener("click", () => onPick(i));
    nav.append(b);
  });
  return nav;
}

/** "line 3, column 5" for a position. */
export function formatPos(p: LineCol): string {
  return `${p.line}:${p.column}`;
}

// ---------------------------------------------------------------- token meter

export interface MeterData {
  format: HistoryFormat;
  before: { messages: number; tokens: number };
  after: { messages: number; tokens: number };
  /** From the core: compressHistory's messages_removed, tokens_saved, sessions. */
  messagesRemoved: number;
  tokensSaved: number;
  sessions: number[];
  transcript: TranscriptMessage[];
  compressed: TranscriptMessage[];
  /** compressHistory threw (a malformed transcript): its message. */
  error: string | null;
}

function bar(label: string, value: number, max: number, cls: string, testid: string): HTMLElement {
  const pct = max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  return h(
    "div",
    { class: `tm-bar-row ${cls}` },
    h("span", { class: "tm-bar-label" }, label),
    h(
      "span",
      { class: "tm-bar-track", "aria-hidden": "true" },
      h("span", { class: "tm-bar-fill", "data-testid": testid, style: `width:${pct.toFixed(1)}%` }),
    ),
    h("span", { class: "tm-bar-value" }, say("tm.tokens", { n: value.toLocaleString("en") })),
  );
}

/**
 * Messages and estimated tokens of the transcript before and after ws.compressHistory(), the
 * difference (the core's messages_removed and tokens_saved), a bar of each total, and both
 * transcripts as JSON.
 */
export function renderTokenMeter(d: MeterData): HTMLElement {
  const div = h("div", {
    class: "token-meter",
    "data-testid": "token-meter",
    "data-format": d.format,
    "data-messages-before": d.before.messages,
    "data-messages-after": d.after.messages,
    "data-tokens-before": d.before.tokens,
    "data-tokens-after": d.after.tokens,
    "data-tokens-saved": d.tokensSaved,
  });
  if (d.error !== null) {
    div.append(h("p", { class: "args-error", role: "alert" }, say("tm.refused", { error: d.error })));
  }
  const pct = d.before.tokens > 0 ? Math.round((d.tokensSaved / d.before.tokens) * 100) : 0;
  const num = (n: number) => n.toLocaleString("en");
  div.append(
    h(
      "table",
      { class: "tm-table" },
      h("caption", { class: "sr-only" }, say("tm.caption", { format: d.format })),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, h("span", { class: "sr-only" }, say("tm.measure"))),
          h("th", { scope: "col" }, say("tm.before")),
          h("th", { scope: "col" }, say("tm.after")),
          h("th", { scope: "col" }, say("tm.change")),
        ),
      ),
      h(
        "tbody",
        {},
        h(
          "tr",
          { "data-testid": "tm-messages" },
          h("th", { scope: "row" }, say("tm.messages")),
          h("td", { class: "num" }, num(d.before.messages)),
          h("td", { class: "num" }, num(d.after.messages)),
          h(
            "td",
            { class: `num ${d.messagesRemoved > 0 ? "gain" : ""}` },
            d.messagesRemoved > 0 ? say("tm.removed", { n: num(d.messagesRemoved) }) : "–",
          ),
        ),
        h(
          "tr",
          { "data-testid": "tm-tokens" },
          h("th", { scope: "row", title: say("tm.tokens_title") }, say("tm.tokens_est")),
          h("td", { class: "num" }, num(d.before.tokens)),
          h("td", { class: "num" }, num(d.after.tokens)),
          h(
            "td",
            { class: `num ${d.tokensSaved > 0 ? "gain" : ""}` },
            d.tokensSaved > 0 ? say("tm.saved", { n: num(d.tokensSaved), pct }) : "–",
          ),
        ),
      ),
    ),
    h(
      "div",
      { class: "tm-bars" },
      bar(say("tm.before"), d.before.tokens, d.before.tokens, "before", "tm-bar-before"),
      bar(say("tm.after"), d.after.tokens, d.before.tokens, "after", "tm-bar-after"),
    ),
    h(
      "p",
      { class: "muted small", "data-testid": "tm-sessions" },
      d.sessions.length > 0
        ? tn("tm.replaced", d.sessions.length, { ids: d.sessions.map((s) => `#${s}`).join(", ") })
        : say("tm.no_session"),
    ),
    h(
      "details",
      { class: "pane-details" },
      h("summary", {}, say("tm.transcript_before", { n: d.before.messages })),
      h(
        "pre",
        { class: "json pane-pre", "data-testid": "tm-transcript-before", ...scrollable("tm.before_label") },
        JSON.stringify(d.transcript, null, 2),
      ),
    ),
    h(
      "details",
      { class: "pane-details" },
      h("summary", {}, say("tm.transcript_after", { n: d.after.messages })),
      h(
        "pre",
        { class: "json pane-pre", "data-testid": "tm-transcript-after", ...scrollable("tm.after_label") },
        JSON.stringify(d.compressed, null, 2),
      ),
    ),
  );
  return div;
}

// ---------------------------------------------------------------- memory

/** ws.memory: the digest the live context's Memory section carries, then the stored turns. */
export function renderMemory(turns: readonly MemoryTurn[], digest: string): HTMLElement {
  const div = h("div", { class: "memory-view", "data-testid": "memory-view", "data-turns": turns.length });
  div.append(
    h("h3", {}, say("mem.digest"), " ", h("span", { class: "muted small" }, say("mem.digest_note"))),
    h(
      "pre",
      { class: "pane-pre", "data-testid": "memory-digest", ...scrollable("mem.digest_label") },
      digest === "" ? say("mem.no_turn") : digest,
    ),
  );
  if (turns.length > 0) {
    div.append(
      h("h3", {}, say("mem.turns"), " ", h("span", { class: "muted small" }, say("mem.stored_count", { n: turns.length }))),
      h(
        "ol",
        { class: "mem-turns", "data-testid": "memory-turns" },
        ...turns.map((t) =>
          h(
            "li",
            { "data-turn": t.turn },
            h("span", { class: "tid" }, say("mem.turn", { n: t.turn })),
            " ",
            h("span", { class: "tgoal" }, t.summary),
            ...t.tags.map((tag) => h("span", { class: "tag muted" }, tag)),
            t.insights.length > 0 ? h("ul", { class: "mem-insights" }, ...t.insights.map((i) => h("li", {}, i))) : null,
            h("span", { class: "muted small mem-context" }, say("mem.context_chars", { n: t.context.length.toLocaleString("en") })),
          ),
        ),
      ),
    );
  }
  return div;
}
