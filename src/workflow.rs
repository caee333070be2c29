//! Workflow: the state a workspace is in, the flags derived from it, and which tools it shows
//! (docs/workflow.md). States are derived from the workspace's data, never stored
//! beside it, so they cannot drift.

use std::fmt;

use serde::Serialize;

#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum WorkflowState {
    /// Cache and storage agree; nothing is pending.
    Idle,
    /// A multi-match waits for the agent to choose a candidate.
    SelectionPending,
    /// Changes are staged and wait for commit.
    PersistPending,
    /// Cache and storage disagree: a persist failed or storage changed underneath.
    OutOfSync,
    /// A refresh from storage is under way.
    Refreshing,
}

impl WorkflowState {
    pub fn as_str(self) -> &'static str {
        match self {
            WorkflowState::Idle => "Idle",
            WorkflowState::SelectionPending => "SelectionPending",
            WorkflowState::PersistPending => "PersistPending",
            WorkflowState::OutOfSync => "OutOfSync",
            WorkflowState::Refreshing => "Refreshing",
        }
    }
}

impl fmt::Display for WorkflowState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How commits reach storage (docs/workflow.md#persist-modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum PersistMode {
    /// Edits stage; `commit` applies and persists.
    #[default]
    Manual,
    /// Every successful edit is committed and persisted at once.
    Immediate,
    /// `commit` applies in memory only; nothing is written.
    Disabled,
}

impl PersistMode {
    pub fn parse(s: &str) -> Option<PersistMode> {
        match s {
            "manual" => Some(PersistMode::Manual),
            "immediate" => Some(PersistMode::Immediate),
            "disabled" => Some(PersistMode::Disabled),
            _ => None,
        }
    }
}

/// The bit flags, in bit order (docs/responses.md#flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Flags(u32);

impl Flags {
    pub const NONE: Flags = Flags(0);
    pub const SELECTION_PENDING: Flags = Flags(1 << 0);
    pub const PERSIST_PENDING: Flags = Flags(1 << 1);
    pub const OUT_OF_SYNC: Flags = Flags(1 << 2);
    pub const SCHEMA_VIOLATION: Flags = Flags(1 << 3);
    pub const PERSIST_READ_ONLY: Flags = Flags(1 << 4);
    pub const EXTERNAL_CONFLICT: Flags = Flags(1 << 5);
    pub const DIAGNOSTIC_HINT: Flags = Flags(1 << 6);
    /// A commit is applied in storage's local copy but not yet acknowledged where it is kept
    /// (docs/co-editing.md §Stored). Set in any state while it lasts.
    pub const NOT_STORED: Flags = Flags(1 << 7);

    const NAMES: [&'static str; 8] = [
        "SelectionPending",
        "PersistPending",
        "OutOfSync",
        "SchemaViolation",
        "PersistReadOnly",
        "ExternalConflict",
        "DiagnosticHint",
        "NotStored",
    ];

    pub fn mask(self) -> u32 {
        self.0
    }

    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Set flag names in bit order (stable for snapshots).
    pub fn names(self) -> Vec<&'static str> {
        Self::NAMES.iter().enumerate().filter(|(i, _)| self.0 & (1 << i) != 0).map(|(_, n)| *n).collect()
    }

    /// The flags a state and mode imply (docs/workflow.md#states-and-flags: required flags, plus
    /// `PersistReadOnly` whenever persistence is disabled).
    pub fn derive(state: WorkflowState, mode: PersistMode) -> Flags {
        let required = match state {
            WorkflowState::Idle => Flags::NONE,
            WorkflowState::SelectionPending => Flags::SELECTION_PENDING,
            WorkflowState::PersistPending => Flags::PERSIST_PENDING,
            WorkflowState::OutOfSync => Flags::OUT_OF_SYNC,
            WorkflowState::Refreshing => Flags::DIAGNOSTIC_HINT,
        };
        if mode == PersistMode::Disabled {
            required | Flags::PERSIST_READ_ONLY
        } else {
            required
        }
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

impl Serialize for Flags {
    /// `{ "mask": 6, "names": ["PersistPending", "DiagnosticHint"] }`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Flags", 2)?;
        st.serialize_field("mask", &self.0)?;
        st.serialize_field("names", &self.names())?;
        st.end()
    }
}

/// `{ mask, names }` as [`Flags`]'s `Serialize` writes it, for the generated TypeScript
/// (src/typescript.rs).
#[cfg(test)]
impl ts_rs::TS for Flags {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn docs() -> Option<String> {
        Some("/** The flags of a state: the bit mask and the names of the set bits, in bit order. */\n".into())
    }
    fn name(_: &ts_rs::Config) -> String {
        "Flags".into()
    }
    fn inline(_: &ts_rs::Config) -> String {
        let names = Self::NAMES.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(" | ");
        format!("{{ mask: number, names: Array<{names}>, }}")
    }
    fn decl(cfg: &ts_rs::Config) -> String {
        format!("type Flags = {};", Self::inline(cfg))
    }
    fn decl_concrete(cfg: &ts_rs::Config) -> String {
        Self::decl(cfg)
    }
    fn output_path() -> Option<std::path::PathBuf> {
        Some(std::path::PathBuf::from("Flags.ts"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_carries_its_required_flag() {
        use WorkflowState::*;
        for (state, flag) in [
            (Idle, Flags::NONE),
            (SelectionPending, Flags::SELECTION_PENDING),
            (PersistPending, Flags::PERSIST_PENDING),
            (OutOfSync, Flags::OUT_OF_SYNC),
            (Refreshing, Flags::DIAGNOSTIC_HINT),
        ] {
            for mode in [PersistMode::Manual, PersistMode::Immediate, PersistMode::Disabled] {
                let f = Flags::derive(state, mode);
                assert!(f.contains(flag), "{state} {mode:?}");
                assert_eq!(f.contains(Flags::PERSIST_READ_ONLY), mode == PersistMode::Disabled);
            }
        }
        assert_eq!(Flags::derive(Idle, PersistMode::Manual).names(), Vec::<&str>::new());
    }

    #[test]
    fn flag_json_has_mask_and_names_in_bit_order() {
        let f = Flags::PERSIST_PENDING | Flags::DIAGNOSTIC_HINT;
        assert_eq!(serde_json::to_string(&f).unwrap(), r#"{"mask":66,"names":["PersistPending","DiagnosticHint"]}"#);
    }
}
