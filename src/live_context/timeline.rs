//! The versions of the open documents (docs/workflow.md#live-context): commits, failed commits
//! and external changes in a ring bounded by count ([`RING`]) and by bytes ([`VERSION_BYTES`]),
//! and each document's text when it was opened (`v0`).
//!
//! Texts are ropes, and each version's text is an edit of the one before it (a commit applies
//! the pending changes to the committed rope; an external change is applied as the diff of the
//! two texts, `Text::reloaded`): a version shares every chunk its change did not touch with its
//! neighbours, so keeping it costs what changed. That cost is measured, not assumed
//! ([`crate::text::unshared_bytes`]), and the ring drops its oldest versions while their costs
//! add up to more than [`VERSION_BYTES`].

use std::collections::VecDeque;

use ropey::Rope;
use serde::Serialize;

use super::Anchor;
use crate::preview::ChangeSpan;
use crate::small_map::{SmallMap, SmallSet};
use crate::text::unshared_bytes;

/// Versions the timeline keeps (all documents together); older ones are dropped, except each
/// document's text when it was opened (the default anchor).
pub const RING: usize = 32;

/// Bytes the kept versions may cost together (each [`Version::bytes`]): beyond it the oldest
/// are dropped, though never the newest. 64 MiB keeps the [`RING`] versions of any document
/// whose changes replace less than 2 MiB each (a one-line change costs a few KB), while at the
/// document size limit (128 MiB) it holds the last change alone instead of 32 copies of the
/// text — more than wasm's 4 GiB (docs/decisions.md#versions-are-bounded-by-bytes-too).
pub const VERSION_BYTES: usize = 64 << 20;

/// What made a version.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionKind {
    /// A successful `memo_commit` (or an immediate-mode save).
    Commit,
    /// A commit whose save failed (`is_error`): `after` is what it tried to write; the
    /// document stayed at `before`.
    Failed,
    /// Storage changed the document (another program, a refresh).
    External,
}

/// One entry of the timeline.
#[derive(Clone, Debug)]
pub struct Version {
    pub path: String,
    /// Per document: 1 for the first version after opening (`v1`), …; a failed commit shares
    /// the number the next version will have.
    pub seq: u64,
    /// When it happened (ms since the epoch, the shell's clock).
    pub at_ms: f64,
    pub kind: VersionKind,
    /// The commit summary, or what happened.
    pub summary: String,
    /// The save error of a failed commit.
    pub error: Option<String>,
    pub before: Rope,
    pub after: Rope,
    /// The changed ranges, when known (a commit's pending changes); `None`: diff the texts.
    pub spans: Option<Vec<ChangeSpan>>,
    /// What keeping this version costs, set by [`Timeline::record`]: the bytes of `before`'s
    /// chunks that `after` does not share — the text the change replaced, which no newer text
    /// holds, so dropping the version (after the older ones) frees them; for a failed commit,
    /// `after`'s chunks that `before` does not share (the text it tried to save, which nothing
    /// else holds).
    pub bytes: usize,
}

impl Version {
    /// `v3`, or `v3-failed` for a commit that could not be saved.
    pub fn version_id(&self) -> String {
        match self.kind {
            VersionKind::Failed => format!("v{}-failed", self.seq),
            _ => format!("v{}", self.seq),
        }
    }
}

/// The versions of the open documents: a ring of the last [`RING`] costing at most
/// [`VERSION_BYTES`] together, and each document's text when it was opened (`v0`).
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    versions: VecDeque<Version>,
    /// The sum of the kept versions' [`Version::bytes`].
    bytes: usize,
    origins: SmallMap<String, Rope>,
    /// Documents `memo_create` made: their `v0` is the empty text before it.
    created: SmallSet<String>,
    seq: SmallMap<String, u64>,
}

impl Timeline {
    /// Remembers `text` as `path`'s `v0` the first time the document is opened. O(1) (the rope
    /// is shared).
    pub fn opened(&mut self, path: &str, text: &Rope) {
        self.origins.get_or_insert_with(path.to_string(), || text.clone());
    }

    /// Remembers that `memo_create` made `path`: its `v0` is the empty text before it, as for a
    /// document opened empty. O(documents).
    pub fn created(&mut self, path: &str) {
        self.origins.insert(path.to_string(), Rope::new());
        self.created.insert(path.to_string());
    }

    /// Whether `memo_create` made `path` (its `v0` is the empty text before it). O(log documents).
    pub fn was_created(&self, path: &str) -> bool {
        self.created.contains(path)
    }

    /// Forgets `path` altogether — its `v0`, its versions and their numbers — for a document
    /// made here and dropped unsaved: a document opened later at that path starts anew. O(RING).
    pub fn forget(&mut self, path: &str) {
        self.origins.remove(path);
        self.created.remove(path);
        self.seq.remove(path);
        self.versions.retain(|v| v.path != path);
        self.bytes = self.versions.iter().map(|v| v.bytes).sum();
    }

    /// Records a version, numbering it (`version.seq` is set here) and measuring what it costs
    /// (`version.bytes`); the oldest are dropped beyond [`RING`] versions, and while the kept
    /// ones cost more than [`VERSION_BYTES`] together (the newest always stays). A failed commit
    /// does not use up a version number. Cost: O(c·log c) for the c chunks of its two texts
    /// (about n / 1 KB), to measure it.
    pub fn record(&mut self, mut version: Version) {
        let counter = self.seq.get_or_insert_with(version.path.clone(), || 0);
        version.seq = *counter + 1;
        if version.kind != VersionKind::Failed {
            *counter = version.seq;
        }
        version.bytes = match version.kind {
            VersionKind::Failed => unshared_bytes(&version.after, &version.before),
            VersionKind::Commit | VersionKind::External => unshared_bytes(&version.before, &version.after),
        };
        self.bytes += version.bytes;
        self.versions.push_back(version);
        while self.versions.len() > RING || (self.bytes > VERSION_BYTES && self.versions.len() > 1) {
            if let Some(dropped) = self.versions.pop_front() {
                self.bytes = self.bytes.saturating_sub(dropped.bytes);
            }
        }
    }

    /// What the kept versions cost together (their [`Version::bytes`]): at most
    /// [`VERSION_BYTES`], or the newest version's cost when that alone is more. O(1).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Every version held, newest first (`path`: only that document's). O(RING).
    pub fn newest_first<'a>(&'a self, path: Option<&'a str>) -> impl Iterator<Item = &'a Version> + 'a {
        self.versions.iter().rev().filter(move |v| path.map_or(true, |p| v.path == p))
    }

    /// `path`'s text when it was opened.
    pub fn origin(&self, path: &str) -> Option<&Rope> {
        self.origins.get(path)
    }

    /// The number of `path`'s current committed version (0 before any commit).
    pub fn current_seq(&self, path: &str) -> u64 {
        self.seq.get(path).copied().unwrap_or(0)
    }

    /// The older text [`Anchor`] names for `path`, with its version number and time (None when
    /// unknown: the text when opened). `None` when the anchor is off or the document unknown.
    /// O(RING).
    pub fn anchor<'a>(&'a self, path: &'a str, anchor: Anchor, now_ms: f64) -> Option<AnchorPoint<'a>> {
        let origin = || self.origins.get(path).map(|rope| AnchorPoint { rope, seq: 0, at_ms: None });
        let mut saved = self.newest_first(Some(path)).filter(|v| v.kind != VersionKind::Failed);
        match anchor {
            Anchor::None => None,
            Anchor::Origin => origin(),
            Anchor::CommitsBack(k) => {
                // The text before the k-th newest version; the origin when there are fewer.
                match saved.nth(k.saturating_sub(1)) {
                    Some(v) if k > 0 => Some(AnchorPoint { rope: &v.before, seq: v.seq - 1, at_ms: None }),
                    _ if k == 0 => None,
                    _ => origin(),
                }
            }
            Anchor::AgeMs(age) => {
                // The newest version made at or before `now - age`: the text as it was then.
                let then = now_ms - age;
                match saved.find(|v| v.at_ms <= then) {
                    Some(v) => Some(AnchorPoint { rope: &v.after, seq: v.seq, at_ms: Some(v.at_ms) }),
                    None => origin(),
                }
            }
        }
    }
}

/// An anchor text found by [`Timeline::anchor`].
#[derive(Debug)]
pub struct AnchorPoint<'a> {
    pub rope: &'a Rope,
    pub seq: u64,
    pub at_ms: Option<f64>,
}
