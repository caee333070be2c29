//! What a tool call decided, as plain data: what it found, what it staged, what it lists for
//! a choice, or why it refused — with the bad value and the limit. Deciding returns one of
//! these and changes nothing; the caller applies the state change; src/workspace/words/ is
//! the one place that turns an outcome into words (docs/architecture.md#the-path-of-a-tool-call).

use std::ops::{Range, RangeInclusive};

use crate::matching::gutter::GutterKind;
use crate::matching::line_key::LineKey;
use crate::matching::near::NearMissView;
use crate::matching::recommend::Reason;
use crate::matching::three_way::ConflictReason;
use crate::matching::{CandidateQuality, MatchQuality};
use crate::session::Letter;
use crate::workspace::Tool;

/// What one edit call came to.
#[derive(Clone, Debug, PartialEq)]
pub enum EditOutcome {
    /// One edit (or a replace-all's places) staged, or shown with `preview_only`.
    Staged(Staged),
    /// Several places: lettered candidates wait for a choice; nothing staged.
    Listed(Listing),
    /// Nothing matched: the closest regions, perhaps offered as candidates.
    NoMatch(NearMisses),
    /// Nothing changed, and why.
    Refused(Refusal),
    /// The edit is a pending change already (the same call sent again): nothing new staged.
    AlreadyStaged(AlreadyStaged),
}

/// An edit sent again after it was staged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlreadyStaged {
    pub path: String,
    /// The pending change that holds it; `None`: it is in the committed text (saved).
    pub id: Option<Letter>,
    /// Its 1-based draft line.
    pub line: usize,
}

/// The text a search looked for, as the answer names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Needle {
    OldText(String),
    /// The start marker of `memo_replace_span`, before any span was found.
    SpanStart(String),
    Span {
        start: String,
        end: String,
    },
}

/// A fact the summary must carry besides the outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// old_text had copied line-number gutters on every line; they were stripped.
    GuttersStripped(GutterKind),
    /// The same gutters were stripped from new_text.
    NewTextGuttersStripped,
    /// A span marker is replaced too and new_text does not restate it.
    SpanMarkerLost { end: SpanEnd, marker: String },
    /// new_text of `memo_replace_lines` had line keys on every line; they were stripped.
    LineKeysStripped,
    /// old_text's escapes were read as characters (the escape tier).
    EscapesRead,
    /// A near-miss pick read old_text's and new_text's escapes as characters.
    PickEscapesRead,
    /// A near-miss pick read the document's escapes as the characters old_text has, and wrote
    /// the change with them (src/matching/three_way/decoded.rs).
    PickDocumentEscapesRead,
    /// A near-miss pick did not take old_text's gutters as text.
    PickGuttersIgnored,
    /// A near-miss pick kept the text there where it differs from old_text.
    KeptAsIs { places: usize, elided: bool },
    /// new_text's placeholder lines (old_text had none) were written as the lines of
    /// old_text they stand for (src/matching/elide/sketch.rs).
    PlaceholdersFilled { count: usize },
}

/// Which end of a span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanEnd {
    Start,
    End,
}

impl SpanEnd {
    /// The argument naming the marker (`old_span_start`).
    pub fn arg(self) -> &'static str {
        match self {
            SpanEnd::Start => "old_span_start",
            SpanEnd::End => "old_span_end",
        }
    }

    /// The flag that keeps the marker (`keep_start`).
    pub fn keep_flag(self) -> &'static str {
        match self {
            SpanEnd::Start => "keep_start",
            SpanEnd::End => "keep_end",
        }
    }
}

/// A staged (or previewed) edit.
#[derive(Clone, Debug, PartialEq)]
pub struct Staged {
    pub tool: Tool,
    pub path: String,
    /// 1-based line of the first edit, in the draft after it.
    pub line: usize,
    pub change: ChangeMade,
    /// The candidate letter the edit was chosen by.
    pub chosen: Option<Letter>,
    /// How the place was found; `None` for edits not found by a search (append, line keys).
    pub quality: Option<CandidateQuality>,
    /// Chars added minus chars removed.
    pub delta: isize,
    pub preview_only: bool,
    pub notes: Vec<Note>,
    /// The model must notice something: the answer is a `[Warning]`.
    pub warn: bool,
}

/// The pending changes one staging made or amended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChangeMade {
    /// The edit restores the committed text there: no pending change is left.
    Restored,
    /// One pending change; `places` > 1 for a replace-all merged into one change.
    One { id: Letter, amended: bool, places: usize },
    /// Several pending changes from `edits` edits.
    Several { ids: Vec<Letter>, edits: usize },
}

/// Candidates listed for a choice; nothing staged.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    pub why: ListReason,
    pub needle: Needle,
    pub path: String,
    /// Places that matched (more than are shown when `hidden` > 0).
    pub total: usize,
    pub recommended: Option<(Letter, Reason)>,
    /// Live matches the listing leaves out.
    pub hidden: usize,
    /// The first and last letter that can still be staged (`None`: none can).
    pub first: Option<Letter>,
    pub last: Option<Letter>,
    pub notes: Vec<Note>,
    pub warn: bool,
}

/// Why candidates are listed instead of one being staged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListReason {
    /// Several places match (`quality` of the first).
    Several { quality: MatchQuality },
    /// `expected_occurrences` differs from the places found (at `lines`, at most 26).
    ExpectedOccurrences { expected: usize, found: usize, lines: Vec<usize> },
    /// `replace_all` needs exact matches; these were found through a fuzzy tier.
    ReplaceAllNotExact { quality: MatchQuality, found: usize },
    /// `match_id` names a candidate of a listing of text storage has since replaced.
    ListingReloaded { letter: Letter },
    /// The one exact match starts (`at_start`) or ends inside a word or number of the
    /// document: `token` (line `line`), which the needle cuts; the pick would leave `written`
    /// where `there` is (the match with the cut words whole).
    CutsToken { line: usize, token: String, at_start: bool, there: String, written: String },
    /// `match_id` names a candidate of an earlier listing that is no longer open.
    ListingEnded { letter: Letter },
}

/// The answer to a search that found nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct NearMisses {
    pub needle: Needle,
    pub path: String,
    /// Only the text after `search_after` was searched.
    pub after_anchor: bool,
    /// The line where the needle occurs before the `search_after` text.
    pub before_anchor: Option<usize>,
    pub notes: Vec<Note>,
    /// The closest regions, closest first, lettered when offered as candidates.
    pub regions: Vec<NearMissView>,
    /// The closest region offered as candidate A, when a choice can be set.
    pub offered: Option<Offered>,
    /// Set when the search stopped at its work budget (matching::work): `regions` is then
    /// empty, and nothing is known about where the text is.
    pub stopped: Option<crate::matching::work::Stopped>,
}

/// The closest region, offered as candidate A.
#[derive(Clone, Debug, PartialEq)]
pub struct Offered {
    pub line: usize,
    pub similarity: f64,
    /// Candidates in all.
    pub count: usize,
    /// Why one of them is recommended, clearly the region meant (matching/near/clear_best.rs):
    /// the preview then shows the offered regions only, since the weaker ones would only
    /// distract, and none when only whitespace and line breaks differ, which the candidate's
    /// reason says (the JSON `near_misses` keeps every region and its difference).
    pub recommended: Option<crate::matching::recommend::Reason>,
    /// The candidates whose pick is refused (docs/decisions.md#offered-candidates-are-pickable):
    /// the answer says so now, rather than the pick after it.
    pub refused: Vec<RefusedPick>,
}

/// A near-miss candidate whose pick would be refused, and the line where the change meets
/// text the document changed (new_text's, the document's) when short enough to show.
#[derive(Clone, Debug, PartialEq)]
pub struct RefusedPick {
    pub letter: Letter,
    pub line: usize,
    pub clash: Option<(String, String)>,
}

/// What a near-miss candidate holds now, shown when its pick is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThereNow {
    pub letter: Letter,
    pub line: usize,
    pub text: String,
}

/// Why nothing was changed. Each variant carries the bad value and, where there is one, the limit.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// `expected_fingerprint` is not the draft's.
    DraftMoved { path: String, expected: String, now: String },
    /// `search_after` does not occur.
    AnchorMissing { path: String, anchor: String },
    /// `old_span_end` does not occur after `old_span_start` (first found at `start_line`).
    SpanEndMissing { path: String, start: String, end: String, start_line: usize },
    /// An empty old_text (an append) with arguments that choose among matches.
    AppendWithChoice { args: Vec<ChoiceArg> },
    /// A span marker argument is empty.
    EmptySpanMarker { end: SpanEnd },
    /// `memo_replace_selection` without a selection.
    NoSelection,
    /// `path` names another document than the selection's.
    SelectionElsewhere { given: String, selection_path: String },
    /// `selection_id` (as an index) is past the selection's `count` candidates (`A`–`last`;
    /// `None`: it has none).
    SelectionIdOutOfRange { index: usize, count: usize, last: Option<Letter> },
    /// `match_id` is past the `count` matches of `needle`.
    MatchIdOutOfRange { letter: Letter, needle: Needle, count: usize },
    /// A candidate whose text an edit staged since changed.
    StaleCandidate { letter: Letter },
    /// `start_key` is not a line key.
    NotALineKey,
    /// `end_key` comes before `start_key`.
    EndKeyBeforeStart { start: LineKey, end: LineKey },
    /// The keyed lines changed since the read; the current keys of lines `shown` are shown.
    LinesChanged { path: String, changes: Vec<LineChange>, shown: RangeInclusive<usize> },
    /// new_text is the text already there.
    SameText,
    /// More than `limit` pending changes (A–Z) would be needed for `edits` edits.
    TooManyChanges { limit: usize, edits: usize },
    /// A defect: the document was not prepared for editing.
    NotPrepared { path: String },
    /// A defect: `range` lies outside the `draft_len` chars of the draft.
    OutOfRange { path: String, range: Range<usize>, draft_len: usize },
    /// The edit would make the document `bytes` long (it is `now`), over `limit`.
    TooLarge { path: String, bytes: usize, now: usize, limit: usize },
    /// The lines around an elided old_text's `...` span `lines`, not the candidate.
    ElidedElsewhere { lines: (usize, usize), there: ThereNow },
    /// A line around an elided old_text's `...` occurs `count` times (1: only before the one
    /// above it), not once.
    ElidedAnchorNotOnce { path: String, piece: String, count: usize, there: ThereNow },
    /// old_text was found by the lines around its placeholders (`...`), and new_text's
    /// placeholders cannot be mapped to the lines those stand for (`why`).
    ElidedNewText { path: String, why: crate::matching::elide::Unmapped },
    /// The three-way apply refused the change at a near-miss candidate.
    PickConflict(Box<PickConflict>),
    /// More than `limit` places hold `needle` exactly: the search stopped counting there
    /// (docs/reliability.md §Matching time and read size). `replace_all`: the limit is the
    /// places one replace_all stages; otherwise the places a search collects to choose from.
    TooManyPlaces { needle: Needle, path: String, limit: usize, replace_all: bool },
}

/// An argument that chooses among matches, with the value given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChoiceArg {
    MatchId(String),
    ReplaceAll,
    ExpectedOccurrences(i64),
    SearchAfter(String),
}

/// A keyed line that is not what was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineChange {
    /// The line is past the `last` line of the draft.
    Gone { line: usize, last: usize },
    /// The line now holds `now` (key `now_key`), not the line of key `read`.
    Differs { line: usize, now: String, now_key: LineKey, read: LineKey },
    /// A line between the keys now holds `now`, not `was`: lines moved since the read.
    Moved { line: usize, now: String, now_key: LineKey, was: String },
}

/// A near-miss pick the three-way apply refused.
#[derive(Clone, Debug, PartialEq)]
pub struct PickConflict {
    pub reason: ConflictReason,
    /// old_text's text where the change could not be applied.
    pub touched: String,
    pub quality: CandidateQuality,
    pub there: ThereNow,
    /// The model's change, old_text → new_text, as a difference.
    pub change: crate::matching::near::Difference,
    /// What the change applied anyway would make of the text there, as a difference.
    pub proposal: Option<crate::matching::near::Difference>,
    /// The line the conflict is on, as new_text has it and as the text there has it (when
    /// both are short enough to show).
    pub clash: Option<(String, String)>,
}

// ---- reads: memo_read of the draft or of a committed version ------------------------------

/// What `memo_read` of the draft (or the committed text) came to.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadOutcome {
    Read(ReadReport),
    /// `start_line` is past the `lines` of the document.
    StartPastEnd {
        path: String,
        start: usize,
        lines: usize,
    },
    /// `end_line` comes before `start_line`.
    EndBeforeStart {
        start: usize,
        end: usize,
    },
}

/// The lines a read showed, and what the model must know about them.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadReport {
    pub path: String,
    /// 1-based lines shown, first and last.
    pub first: usize,
    pub last_shown: usize,
    /// Lines of the document.
    pub lines: usize,
    pub of: ReadOf,
    /// The draft's fingerprint; `None` for the committed text.
    pub fingerprint: Option<String>,
    /// The other open documents (the first named, how many more), when the read named no path.
    pub other_documents: Option<(Vec<String>, usize)>,
    /// Candidates marked `[[SEL#X]]` in the text.
    pub marked: Vec<Letter>,
    /// Candidates left unmarked because the document holds marker-like text: letter and line.
    pub unmarked: Vec<(Letter, usize)>,
    pub gutter: ReadGutter,
    /// The option that ended the read early, and its value.
    pub stopped_by: Option<(&'static str, usize)>,
    /// Lines clipped at `line_chars` chars.
    pub clipped: Vec<usize>,
    pub line_chars: usize,
}

/// Which text a read showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadOf {
    Committed,
    /// The draft, with this many pending changes in the document.
    Draft {
        pending: usize,
    },
}

/// How the read prefixed its lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadGutter {
    Keys,
    Numbers,
    Bare,
}

/// What `memo_read(version)` came to.
#[derive(Clone, Debug, PartialEq)]
pub enum VersionOutcome {
    Read(VersionRead),
    /// `version` was passed with an argument (`arg`) that is for the current text.
    WithCurrentTextArg {
        arg: &'static str,
        version: String,
    },
    /// `given` (clipped) is no version id; the document is at `current`.
    NotAVersion {
        given: String,
        current: u64,
    },
    /// The document never had `version`; it is at `current`.
    NoSuchVersion {
        path: String,
        version: String,
        current: u64,
        path_arg: bool,
    },
    /// `version` aged out of the ring of `ring` versions costing at most `bytes` together
    /// (docs/workflow.md#live-context); the oldest kept is `oldest`.
    AgedOut {
        path: String,
        version: String,
        ring: usize,
        bytes: usize,
        oldest: u64,
        path_arg: bool,
    },
    /// The storage keeps a history but could not read `version` of `path` there (no such
    /// commit, no such file in it, not text): `why`, in the storage's words.
    StoredUnreadable {
        path: String,
        version: String,
        why: String,
    },
    /// Lines `start`–`end` are not among the `lines` of the version.
    LinesNotInVersion {
        path: String,
        version: String,
        start: usize,
        end: usize,
        lines: usize,
    },
}

/// The lines of a committed version a read showed.
#[derive(Clone, Debug, PartialEq)]
pub struct VersionRead {
    pub path: String,
    pub version: String,
    pub of: VersionOf,
    pub first: usize,
    pub last_shown: usize,
    pub lines: usize,
    /// The read stopped at a limit: there is more to read on.
    pub stopped: bool,
    /// Calls must name the document (it is not the first opened).
    pub path_arg: bool,
}

/// Which committed text a version is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VersionOf {
    /// The text the commit with this summary tried to save (its save failed).
    Failed { summary: String },
    /// As opened (`v0`).
    Opened,
    /// Before `memo_create` made the document (`v0`): empty.
    Created,
    /// The committed text now.
    Now,
    /// After the commit with this summary.
    After { summary: String },
    /// A version of the storage's own history (git mode: the commit's id and subject), read
    /// through [`super::Step::LoadAt`]; boxed, as it is rare and two strings long.
    Stored { commit: Box<(String, String)> },
}

/// The versions a commit saved, for its guidance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedVersions {
    /// Each saved document and the version it is now; the first is the one named for reading back.
    pub now: Vec<(String, u64)>,
    /// The first document's version before the commit.
    pub before: u64,
    /// Calls must name the first document (it is not the first opened).
    pub path_arg: bool,
}

// ---- memory tools -------------------------------------------------------------------------

/// What `memo_recall_context` or `memo_search_memory` came to.
#[derive(Clone, Debug, PartialEq)]
pub enum MemoryOutcome {
    Recalled {
        turns: Vec<u32>,
    },
    /// `recall` refused; `known` is the stored range (`None`: the store is empty).
    NotRecalled {
        error: crate::memory::MemoryError,
        known: Option<(u32, u32)>,
    },
    Found {
        count: usize,
        query: String,
    },
    NotFound {
        query: String,
        why: NothingFound,
    },
}

/// Why a memory search found nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NothingFound {
    StoreEmpty,
    NoWords,
    /// No one of the `stored` turns holds a word of the query.
    NoTurnMatches {
        stored: usize,
    },
}

// ---- keeping cache and storage in step: memo_diff, memo_refresh, memo_rebase, memo_discard --

/// What a call about storage's text came to (src/workspace/sync.rs): a conflict reported, a
/// diff, a rebase, a reload, a discard, or a read that failed.
#[derive(Clone, Debug, PartialEq)]
pub enum SyncOutcome {
    /// Storage changed under pending changes; the editing call `tool` was not run.
    Conflict { documents: Vec<Conflicted>, tool: Tool },
    /// `memo_diff`: no pending changes in `path`.
    NoPendingChanges { path: String },
    /// `memo_diff`: the `pending` changes of `path` against the committed text (the caller adds
    /// the preview).
    DraftDiff { path: String, pending: usize },
    /// `memo_diff(against="storage")`: storage does not hold `path`; the draft has `draft_chars`.
    NotInStorage { path: String, draft_chars: usize },
    /// Storage's `version` of `path` is exactly the draft; `conflict`: storage changed under
    /// pending changes of `path` (to exactly what they make).
    StorageIsDraft { path: String, version: String, conflict: bool },
    /// Storage's `version` against the draft (the caller adds the patch); `conflict`: storage
    /// changed under pending changes of `path`.
    StorageDiff { path: String, version: String, conflict: bool },
    /// `memo_rebase`: storage made no change of `path` to rebase onto.
    NothingToRebase { path: String },
    /// `memo_rebase`: storage deleted `path`.
    RebaseOntoDeleted { path: String },
    /// `memo_rebase`: the changes `kept` moved onto storage's `version`; `dropped` overlapped it.
    Rebased { path: String, version: String, kept: Vec<Letter>, dropped: Vec<DroppedChange> },
    /// `memo_refresh`: storage no longer holds `path`; `conflict`: pending changes wait on it.
    RefreshDeleted { path: String, conflict: bool },
    /// `memo_refresh`: the text is storage's `version` already; nothing reloaded or dropped.
    AlreadyInStep { path: String, version: String },
    /// `memo_refresh`: reloaded storage's `version`, dropping `dropped` pending changes.
    Reloaded { path: String, version: String, dropped: usize },
    /// `memo_discard` while out of sync: `changes` dropped, the documents reloaded.
    Discarded { changes: usize, reason: String, reloaded: Vec<ReloadedDocument>, task: Option<TaskEnded> },
    /// Storage could not read `path`: `error`.
    LoadFailed { path: String, error: String },
}

/// A document storage changed under pending changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflicted {
    pub path: String,
    /// Storage's version now; `None`: deleted.
    pub version: Option<String>,
    /// Pending changes of the document.
    pub pending: usize,
}

/// A pending change a rebase dropped: its letter and its first place's old and new text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedChange {
    pub id: Letter,
    pub old_text: String,
    pub new_text: String,
}

/// A document a discard reloaded: the version storage holds (`None`: deleted there, the last
/// text kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReloadedDocument {
    pub path: String,
    pub version: Option<String>,
}

/// The current task a commit completed or a revert abandoned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskEnded {
    pub id: u32,
    pub goal: String,
}

/// What storage did on its own, said once at the start of the next response's summary, or a
/// state every response says while it lasts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateNote {
    /// Reloaded at `version` (no pending changes).
    Reloaded { path: String, version: String },
    /// Deleted in storage; the text is kept.
    Deleted { path: String },
    /// Changed (`version`; `None`: deleted) while persistence is disabled: in-memory commits kept.
    KeptInMemory { path: String, version: Option<String> },
    /// Changed to `bytes` at `version`, over `limit`: not loaded, `kept` version kept.
    TooLarge { path: String, version: String, bytes: usize, limit: usize, kept: String },
    /// Changed but could not be read (`why`); the `kept` version is kept.
    Unreadable { path: String, why: String, kept: String },
    /// Storage changed under the pending changes of `paths` (said on every response while it lasts).
    Conflict { paths: Vec<String> },
    /// Persistence is disabled (said on every response whose summary does not say it).
    ReadOnly,
    /// The last saves of `paths` are applied in storage's local copy, not yet acknowledged
    /// where it is kept (said on every response while it lasts; `fresh`: by the call that saved).
    NotStored { paths: Vec<String>, fresh: bool },
    /// Storage acknowledged the saves of `path` it had only applied locally (said once).
    Stored { path: String },
    /// Changed at `version` under pending changes it did not overlap: the changes `kept` moved
    /// onto it (live co-editing, src/workspace/auto_rebase.rs); `had_choice`: a pending choice
    /// among candidates was dropped.
    Rebased { path: String, version: String, kept: Vec<String>, had_choice: bool },
}

// ---- ending a session: memo_commit, memo_revert, memo_persist_as, memo_create ---------------

/// What a call that saves or drops pending changes came to (src/workspace/persist.rs).
#[derive(Clone, Debug, PartialEq)]
pub enum PersistOutcome {
    /// `memo_commit` with nothing pending completed the current task.
    TaskCompleted(TaskEnded),
    /// `memo_commit` with nothing pending.
    NothingToCommit,
    /// The draft of `path` is `bytes` long, over `limit`: never written.
    DraftTooLarge { path: String, bytes: usize, limit: usize },
    /// Saved (or, persistence disabled, applied in memory) `changes` changes of `delta` chars.
    Committed(Committed),
    /// A write failed: what failed, what was written back, what storage kept.
    CommitFailed(CommitFailed),
    /// `memo_revert` with no session; `task` abandoned all the same.
    NothingToRevert { task: Option<TaskEnded> },
    /// `memo_revert`: `changes` dropped.
    Reverted { changes: usize, reason: String, task: Option<TaskEnded> },
    /// `memo_persist_as` with `new_path` empty.
    NewPathEmpty { path: String },
    /// `memo_persist_as` with a `new_path` that is open.
    NewPathOpen { path: String, new_path: String },
    /// `memo_persist_as` with a `new_path` that would leave the storage.
    NewPathUnsafe { path: String, new_path: String, why: UnsafePath },
    /// `memo_persist_as` with persistence disabled.
    PersistDisabled,
    /// The draft of `path` saved as `new_path` at `version` (`chars` long); `pending` stay.
    SavedAs { path: String, new_path: String, version: String, chars: usize, pending: usize },
    /// Saving the draft of `path` as `new_path` failed: `error`.
    SaveAsFailed { path: String, new_path: String, error: String },
}

/// What the pending changes do, for a generated commit summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingSummary {
    pub changes: usize,
    /// The documents changed, in the order of their changes.
    pub paths: Vec<String>,
    /// The first change's first place.
    pub old_text: String,
    pub new_text: String,
    /// Every place is that same edit, made this many times (more than once).
    pub repeated: Option<usize>,
}

/// A commit that saved.
#[derive(Clone, Debug, PartialEq)]
pub struct Committed {
    pub changes: usize,
    pub delta: isize,
    /// The commit's summary, as given.
    pub summary: String,
    /// Persistence disabled: applied in memory only.
    pub in_memory: bool,
    pub task: Option<TaskEnded>,
    /// What an immediate-mode edit staged, said before (its summary sentences).
    pub lead: Option<String>,
    /// The versions saved, for the guidance (`None`: nothing saved, e.g. no document).
    pub saved: Option<SavedVersions>,
    /// Candidates that waited for a choice, dropped by the commit (first and last letter).
    pub dropped: Option<(Letter, Letter)>,
}

/// A commit whose writes failed.
#[derive(Clone, Debug, PartialEq)]
pub struct CommitFailed {
    /// Each document not saved, with storage's error.
    pub failures: Vec<(String, String)>,
    /// Documents written and then written back, with the version they are at now.
    pub restored: Vec<(String, String)>,
    /// Documents written that could not be written back: committed after all.
    pub kept_new: Vec<String>,
    pub lead: Option<String>,
    /// Candidates that waited for a choice, dropped by the commit (first and last letter).
    pub dropped: Option<(Letter, Letter)>,
    /// Failed documents storage holds another version of than the one the save expected (read
    /// again after the failure), with that version (`None`: deleted): a retry would fail the
    /// same way, so the answer offers what resolves it (docs/workflow.md#saving).
    pub changed: Vec<(String, Option<String>)>,
}

/// Why a model-given path must not reach the storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnsafePath {
    ControlChar,
    ParentSegment,
    Absolute,
}

/// Why `memo_create` created nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CreateRefusal {
    PathEmpty,
    /// `path` is open already.
    Exists {
        path: String,
    },
    Unsafe {
        path: String,
        why: UnsafePath,
    },
    TextEmpty,
    /// `bytes` of text, over `limit`.
    TooLarge {
        path: String,
        bytes: usize,
        limit: usize,
    },
}

// ---- the session: waiting, memo_preview, tasks, the session log ----------------------------

/// What a call about the session came to (src/workspace/mod.rs).
#[derive(Clone, Debug, PartialEq)]
pub enum SessionOutcome {
    /// A call while the workspace waits for storage.
    Waiting,
    /// A completion (`method`, step kind `kind`) nothing waits for; `what`: "write" or "read".
    WrongCompletion { what: &'static str, method: &'static str, kind: &'static str },
    /// `memo_preview`: no pending changes in `path`.
    NothingToPreview { path: String },
    /// `memo_preview`: `count` pending changes of `path` shown in `mode` (the caller adds them).
    Previewed { path: String, count: usize, mode: &'static str },
    /// `memo_begin_task` began task `id` at `depth`.
    TaskBegun { id: u32, goal: String, depth: usize },
    /// `memo_begin_task` refused: past the deepest nesting, not under the innermost task, no goal.
    TaskRefused { error: crate::tasks::TaskError },
    /// `memo_export_session`: the log of `calls` calls.
    SessionLog { calls: usize },
    /// `path` is not open (the error names the open documents).
    NotOpen { error: crate::workspace::WorkspaceError },
}

/// `memo_replace` found nothing in its document, but old_text occurs exactly in others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactlyElsewhere {
    pub path: String,
    /// The other documents, each with the line of its first occurrence (at most 3).
    pub places: Vec<(String, usize)>,
}

/// A near-miss pick whose change is already there: candidate `letter` at `line` of `path`
/// already reads as new_text would make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlreadyThere {
    pub letter: Letter,
    pub path: String,
    pub line: usize,
}

/// `memo_undo` when it commits nothing (docs/workflow.md#undo).
#[derive(Clone, Debug, PartialEq)]
pub enum UndoOutcome {
    /// No commit of `path` is kept to undo: none since it was opened (it is at `current`), or
    /// the ring no longer holds it.
    NothingToUndo { path: String, current: u64, path_arg: bool },
    /// `path` changed outside the workspace (version `now`) after its last commit `commit`
    /// (`summary`): undoing that commit whole would drop the outside change too.
    ChangedSince { path: String, commit: u64, summary: String, now: u64, path_arg: bool },
    /// The committed text of `path` already reads as `version`.
    AlreadyThere { path: String, version: String },
    /// The version asked for cannot be read (not a version id, never existed, aged out).
    Version(VersionOutcome),
}

/// `memo_undo` restored `path` to `version`: the lead of the commit that saves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undone {
    pub path: String,
    pub version: String,
    /// The commit undone (its version and summary) when no version was named.
    pub undone: Option<(u64, String)>,
}
