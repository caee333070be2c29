//! The parts of a [`Workspace`](super::Workspace)'s state, grouped so a reader sees what a call
//! may touch (docs/architecture.md#the-path-of-a-tool-call).

use crate::diagnostics::Diagnostics;
use crate::small_map::{SmallMap, SmallSet};
use crate::tasks::TaskStack;

use super::{find, history_book::HistoryBook, log, record, views, Awaiting, Config, Document, Session, Tool};

/// What the host set up: the configuration, the search budget and whether it embeds. Set by
/// `Workspace::new` and `set_embedder` (unit tests lower `search_limit`); no tool call changes it.
#[derive(Debug)]
pub(super) struct Settings {
    pub(super) config: Config,
    /// Units one search may spend ([`crate::matching::work::SEARCH_BUDGET`]; unit tests set a
    /// smaller one so a small document can exceed it). Each search gets it as a value.
    pub(super) search_limit: u64,
    /// The host embeds texts for `memo_find` (`set_embedder`); the vectors it gave are kept in
    /// [`Records::embed_cache`] (docs/decisions.md#memo_find-ranking).
    pub(super) embedder: bool,
}

/// The open documents and where each stands with storage. Changed by `open`, `memo_create`,
/// commits (in memory or saved, persist.rs), reloads from storage (sync.rs) and the host's
/// `set_held_by_host`.
#[derive(Debug)]
pub(super) struct Documents {
    pub(super) docs: SmallMap<String, Document>,
    /// Open paths, default first.
    pub(super) order: Vec<String>,
    /// Documents `memo_create` opened that storage may not hold yet (docs/tools.md §memo_create).
    pub(super) created: SmallSet<String>,
    /// Documents whose last save storage has applied locally but not yet acknowledged
    /// (src/workspace/stored.rs); `newly_unstored`: one was added during the call under way.
    pub(super) unstored: SmallSet<String>,
    pub(super) newly_unstored: bool,
    /// Documents committed in memory only (persistence disabled): their committed text is not
    /// what storage holds, so an external change must not silently replace it.
    pub(super) in_memory_commits: SmallSet<String>,
    /// The committed texts the host holds a copy of, by fingerprint (src/host_texts.rs): a
    /// commit writing one of them leaves its text out of the request (persist.rs).
    pub(super) held_by_host: Vec<(String, crate::text::Fingerprint)>,
}

/// Storage changes and failures: failed saves and external changes that conflict with pending
/// edits. Set by the storage's replies (saves, change notices; persist.rs, sync.rs) and cleared
/// by `memo_refresh`, `memo_rebase`, `memo_discard`, a save that succeeds or an edit that leaves
/// nothing to save; every response empties `reloaded_since_response` (`after_step`).
#[derive(Debug)]
pub(super) struct StorageSync {
    /// Documents whose last save failed, with the storage's error: the workflow is `OutOfSync`
    /// until a retry succeeds or their changes are dropped.
    pub(super) persist_failures: SmallMap<String, String>,
    /// Documents storage changed while they had pending changes, with what storage holds now
    /// (`None`: deleted). `OutOfSync` + `ExternalConflict` until refresh, rebase or discard.
    pub(super) conflicts: SmallMap<String, Option<Document>>,
    /// For a conflict, the exact external change from the committed text to the storage version
    /// named (composed from the storage's deltas), so `memo_rebase` maps through it instead of
    /// a diff (docs/co-editing.md#automatic-rebase). Checked before use.
    pub(super) exact_external: SmallMap<String, (String, crate::changeset::ChangeSet)>,
    /// A conflict the agent has not been told about: the next editing call reports it instead
    /// of running.
    pub(super) unreported_conflict: bool,
    /// Paths reloaded from storage since the last response: a `match_id` given now refers to
    /// letters shown over the text before it, so it is refused (docs/reliability.md).
    pub(super) reloaded_since_response: SmallSet<String>,
}

/// The edit session and the call under way: pending changes, the storage step awaited, and
/// what the last responses listed and said. Changed by every editing tool call; a commit,
/// revert or discard ends the session.
#[derive(Debug)]
pub(super) struct Turn {
    pub(super) session: Option<Session>,
    pub(super) next_session_id: u64,
    /// The storage step the call under way waits for.
    pub(super) awaiting: Option<Awaiting>,
    /// The candidate the last listing recommended (`memo_commit_auto` stages it).
    pub(super) recommended: Option<crate::session::Letter>,
    /// The searches whose edits were staged, latest last: the same call sent again is answered
    /// "already staged" (docs/workflow.md#visible-tools).
    pub(super) sent: Vec<crate::session::Sent>,
    /// The searches (path, query) that listed candidates, latest last (at most 32): a `match_id`
    /// for one of them whose listing is no longer open (an edit, commit or revert ended it) is
    /// refused and the current matches listed, never taken as a position in today's matches
    /// (docs/workflow.md#visible-tools).
    pub(super) listed: Vec<(String, String)>,
    /// The tool of the call under way (kept while its storage steps run), if the name is known.
    pub(super) call_tool: Option<Tool>,
    /// Said once, at the start of the next response's summary (e.g. a silent reload).
    pub(super) notes: Vec<String>,
    /// The pending list and task stack the model has: a response leaves them out of its Markdown
    /// unless they changed or the call previews or commits (docs/responses.md#markdown-layout).
    pub(super) said: views::Said,
}

/// What is kept across calls: tasks, the session log, history compression, diagnostics, the
/// live context's versions and memory, and the call's record for storage. Appended to by every
/// call; the host's setters (editor state, memory turns, diagnostics) change their own part.
#[derive(Debug)]
pub(super) struct Records {
    pub(super) tasks: TaskStack,
    pub(super) log: log::SessionLog,
    /// History compression (docs/workflow.md#history-compression): per open session, its calls'
    /// tool_call_ids and estimated tokens; the sessions that ended; and, for the call under way, what it is.
    pub(super) history: HistoryBook,
    /// Records for the host's debugging (docs/workflow.md#diagnostics); off unless enabled.
    pub(super) diagnostics: Diagnostics,
    /// Versions for the live context's recent and anchor diffs (docs/workflow.md#live-context).
    pub(super) timeline: crate::live_context::Timeline,
    /// The editor state the host set (live context).
    pub(super) editor: crate::live_context::EditorState,
    /// The turns the host stored for the memory tools and the live context's digest.
    pub(super) memory: crate::memory::MemoryStore,
    /// The host's embeddings for `memo_find`, by content hash of the text
    /// (docs/decisions.md#memo_find-ranking).
    pub(super) embed_cache: find::EmbedCache,
    /// The shell's time of the latest call: when its versions were made.
    pub(super) last_now_ms: f64,
    /// What this call saved, for a storage that records it (record.rs).
    pub(super) recording: record::Recording,
}
