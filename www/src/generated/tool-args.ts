// GENERATED from the Rust core by src/typescript.rs: the tool registry (src/tools.rs), the arguments each tool takes. Do not edit by hand;
// regenerate with `AGENTPAD_WRITE_TS=1 cargo test --lib typescript` (the same test fails when this file is stale).
import type { Letter } from "./boundary.js";

/**
 * The tools, by verb, in registry order. A tool's name is `${prefix}_${verb}` (prefix `"memo"`
 * unless `toolPrefix` says otherwise).
 */
export type ToolVerb =
  | "read"
  | "replace"
  | "replace_span"
  | "replace_selection"
  | "replace_lines"
  | "append"
  | "preview"
  | "diff"
  | "commit"
  | "commit_auto"
  | "revert"
  | "discard"
  | "refresh"
  | "rebase"
  | "persist_as"
  | "begin_task"
  | "export_session"
  | "recall_context"
  | "search_memory";

/** The tool names under the default prefix, e.g. `"memo_replace_span"`. */
export type ToolName = `memo_${ToolVerb}`;

/** The arguments of each tool, by verb: what the core's checking accepts (null reads as absent). */
export interface ToolArgs {
  /** Read the document (the draft, with pending changes applied) with line-number gutters like `  12│ `. Returns its fingerprint. With line_keys=true each line is prefixed with a key like `12#a3f1│ ` for memo_replace_lines. */
  read: {
    /** First line to show (1-based). A whole number ≥ 1. */
    start_line?: number;
    /** Last line to show (inclusive). A whole number ≥ 1. */
    end_line?: number;
    /** Show the `  12│ ` gutters (default true). Gutters copied into old_text are not part of the text. */
    line_numbers?: boolean;
    /** Prefix each line with its key `12#a3f1│ ` (line number and a hash of the line) for memo_replace_lines. */
    line_keys?: boolean;
    /** `draft` (default: committed text plus pending changes) or `committed`. */
    view?: "draft" | "committed";
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** Replace a piece of text. Exact matches first; only if there is none, whitespace, indentation and look-alike differences are tolerated and the response says so ([Warning], match_quality). One match: the edit is staged as a lettered pending change with a diff preview (nothing is saved until memo_commit). Several: you get lettered candidates A–E; call again with match_id to stage one. None: the closest regions and what differs. Empty old_text appends new_text at the end. */
  replace: {
    /** The text to replace, copied from the document without line-number gutters. Empty: append. */
    old_text: string;
    /** The text to put in its place. */
    new_text: string;
    /** Letter of the candidate to stage when the text matches several places. */
    match_id?: Letter;
    /** Only count matches that start after the first occurrence of this text (e.g. a heading). */
    search_after?: string;
    /** List every candidate (up to Z) instead of the first five. */
    show_all_matches?: boolean;
    /** Show what would be staged without staging it. */
    preview_only?: boolean;
    /** Stage every exact match, each as its own lettered change. */
    replace_all?: boolean;
    /** How many matches you expect; if the count differs nothing is staged and you get the real count and lines. A whole number ≥ 1. */
    expected_occurrences?: number;
    /** Fingerprint from your last read; if the draft changed since, nothing is edited and you get StaleReference. */
    expected_fingerprint?: string;
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** Replace a region named by its first and last words instead of restating it: from the start of old_span_start to the end of the first old_span_end after it, markers included unless keep_start/keep_end. Several start markers: lettered candidates as for memo_replace. */
  replace_span: {
    /** Text where the region starts (e.g. a heading). */
    old_span_start: string;
    /** Text where the region ends: its first occurrence after the start marker. */
    old_span_end: string;
    /** The text that replaces the region (restate a marker you do not keep). */
    new_text: string;
    /** Only count matches that start after the first occurrence of this text (e.g. a heading). */
    search_after?: string;
    /** Keep old_span_start in the document; replace only what follows it. */
    keep_start?: boolean;
    /** Keep old_span_end in the document; replace only what precedes it. */
    keep_end?: boolean;
    /** Letter of the candidate to stage when the text matches several places. */
    match_id?: Letter;
    /** Show what would be staged without staging it. */
    preview_only?: boolean;
    /** Fingerprint from your last read; if the draft changed since, nothing is edited and you get StaleReference. */
    expected_fingerprint?: string;
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** Stage one candidate of the current selection (the lettered list from the last memo_replace or memo_replace_span, including close matches offered after NoMatch). */
  replace_selection: {
    /** Candidate letter "A"–"Z", or its 1-based number. A letter, or its 1-based number (1–26). */
    selection_id: Letter | number;
    /** Replacement; defaults to the new_text given with the search. */
    new_text?: string;
    /** Show what would be staged without staging it. */
    preview_only?: boolean;
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** Replace whole lines named by keys from memo_read(line_keys=true), e.g. start_key "12#a3f1". A key whose line changed since your read is refused (StaleReference) with the current lines. Empty new_text deletes the lines. */
  replace_lines: {
    /** Key of the first line to replace, like "12#a3f1". A line key like `"12#a3f1"` from `memo_read({ line_keys: true })`. */
    start_key: string;
    /** Key of the last line to replace (inclusive); default: start_key's line. A line key like `"12#a3f1"` from `memo_read({ line_keys: true })`. */
    end_key?: string;
    /** The lines that replace them, without gutters or keys. */
    new_text: string;
    /** Show what would be staged without staging it. */
    preview_only?: boolean;
    /** Fingerprint from your last read; if the draft changed since, nothing is edited and you get StaleReference. */
    expected_fingerprint?: string;
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** Append text at the end of the document (staged like any edit). The text is added as given: start it with a line break to begin a new line. */
  append: {
    /** The text to add at the end. */
    text: string;
    /** Show what would be staged without staging it. */
    preview_only?: boolean;
    /** Fingerprint from your last read; if the draft changed since, nothing is edited and you get StaleReference. */
    expected_fingerprint?: string;
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** Show the pending changes: `compact` (changed lines with context, the default), `full` (the changed lines only), `stats` (+N/-M chars and positions) or `diff` (unified). */
  preview: {
    /** `compact` (default), `full`, `stats` or `diff`. */
    format?: "compact" | "full" | "stats" | "diff";
    /** Lines of context around each change (default 3). A whole number ≥ 0. */
    context_lines?: number;
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** A unified diff: against="base" (default) shows the draft against the committed text; against="storage" shows what storage holds now against your draft (after a failed save or an external change). */
  diff: {
    /** `base` (default) or `storage`. */
    against?: "base" | "storage";
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** Apply all pending changes of all documents and save them, all or nothing. Ends the edit session and completes the current task; the summary is what the history keeps. */
  commit: {
    /** One line saying what the changes do. */
    summary: string;
    /** Complete and pop the current task (default true). */
    auto_pop_task?: boolean;
  };
  /** Commit with a generated summary. While candidates are pending it first stages the recommended one (refused when none is recommended). */
  commit_auto: Record<string, never>;
  /** Drop all pending changes and end the edit session without saving; the current task is marked Reverted. */
  revert: {
    /** Why the changes are dropped. */
    reason: string;
  };
  /** Drop all pending changes (like memo_revert). When storage is out of sync it also reloads the affected documents from storage. */
  discard: {
    /** Why the changes are dropped. */
    reason?: string;
  };
  /** Reload a document from storage, dropping its pending changes (use memo_rebase instead to keep the ones storage did not touch). */
  refresh: {
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** After storage changed underneath: re-apply your pending changes that do not overlap the external change onto the new text; the overlapping ones are listed as conflicts and dropped. */
  rebase: {
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** Save the draft of a document under a new path (recovery when saving to its own path fails). The new path must not exist yet. */
  persist_as: {
    /** Where to save the draft; must not exist in storage. */
    new_path: string;
    /** Document to work on; defaults to the workspace's default document. */
    path?: string;
  };
  /** Begin a (sub)task: its goal is shown in every response's task stack until a commit completes it or a revert abandons it. */
  begin_task: {
    /** What the task is for, in one line. */
    goal: string;
    /** The current task's id, to nest under it (default: the current task). */
    parent_task_id?: string;
  };
  /** The log of this workspace's calls: tool, arguments, status and time of each. */
  export_session: Record<string, never>;
  /** Recall the full stored context of earlier turns from the memory store, by turn number (the `[Turn N]` lines of the memory digest). */
  recall_context: {
    /** Turn numbers to recall, e.g. [2] or [2, 5]. 1 to 10 whole numbers, each ≥ 1. */
    turn_numbers: number[];
  };
  /** Keyword search over the memory store's turn summaries, insights, tags and stored contexts (Chinese and other CJK text included); best matches first. */
  search_memory: {
    /** Words to look for (any order). */
    query: string;
    /** Most results to return (default 5, at most 20). A whole number ≥ 1. */
    limit?: number;
  };
}
