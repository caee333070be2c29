//! The words the layout uses: format.rs's locale table, plus what it writes the same in every locale.

use crate::format::Locale;
use crate::response::Status;
use crate::workflow::{Flags, WorkflowState};

// The words of each locale are format.rs's own table ([`Words`], [`Locale::words`]): the
// validator reads what the formatter writes from the same place, so the two cannot drift. Only
// what format.rs writes the same in every locale without a table entry is spelled here.

/// Every locale ([`Locale::all`]).
pub(super) fn locales() -> impl Iterator<Item = Locale> {
    Locale::all()
}

/// The session log's table header (format.rs's constant).
pub(super) const LOG_HEADER: &str = crate::format::SESSION_LOG_HEADER;

/// How a Success or NoOp raised to `[Warning]` starts its summary (`Response::warn`; summaries
/// are not translated).
pub(super) const WARNING: &str = "[Warning]";

/// A `Words` template (`line {}`) split at its `{}`.
pub(super) fn template(t: &'static str) -> (&'static str, &'static str) {
    t.split_once("{}").unwrap_or((t, ""))
}

/// The candidate table's header (seven columns, then `Line`, `Recommended`, `Quality`), the same in every
/// locale. Spelled here, not taken from format.rs: it is what the layout requires, and a test
/// pins format.rs's `CANDIDATE_TABLE_HEADER` to it.
pub(super) const CANDIDATE_COLUMNS: [&str; 10] =
    ["Id", "MarkerStart", "MarkerEnd", "Preview", "Occurrence", "ContextStart", "ContextEnd", "Line", "Recommended", "Quality"];

pub(super) const METRIC_ROWS: [&str; 3] = ["delta", "new_length", "selection_count"];

pub(super) const SEVERITIES: [&str; 3] = ["OK", "Warning", "Fail"];

pub(super) const STATUSES: [Status; 10] = [
    Status::Success,
    Status::NoMatch,
    Status::MultiMatch,
    Status::NoOp,
    Status::PersistFailure,
    Status::ExternalConflict,
    Status::Exception,
    Status::InvalidArguments,
    Status::Blocked,
    Status::StaleReference,
];

pub(super) const STATES: [WorkflowState; 5] = [
    WorkflowState::Idle,
    WorkflowState::SelectionPending,
    WorkflowState::PersistPending,
    WorkflowState::OutOfSync,
    WorkflowState::Refreshing,
];

/// Every flag name, in bit order (`Flags::names` of all bits, so the order is workflow.rs's).
pub(super) fn flag_names() -> Vec<&'static str> {
    (Flags::SELECTION_PENDING
        | Flags::PERSIST_PENDING
        | Flags::OUT_OF_SYNC
        | Flags::SCHEMA_VIOLATION
        | Flags::PERSIST_READ_ONLY
        | Flags::EXTERNAL_CONFLICT
        | Flags::DIAGNOSTIC_HINT
        | Flags::NOT_STORED)
        .names()
}

/// docs/workflow.md#states-and-flags: the flag a state requires and the optional ones it allows. `PersistReadOnly` is
/// set in every state while persistence is disabled (`Flags::derive`), and `NotStored` while a
/// commit is unacknowledged, so both are allowed everywhere on top of this table.
pub(super) fn state_flags(state: WorkflowState) -> (Option<&'static str>, &'static [&'static str]) {
    match state {
        WorkflowState::Idle => (None, &["PersistReadOnly", "DiagnosticHint"]),
        WorkflowState::SelectionPending => (Some("SelectionPending"), &["PersistReadOnly", "DiagnosticHint"]),
        WorkflowState::PersistPending => (Some("PersistPending"), &["PersistReadOnly", "DiagnosticHint"]),
        WorkflowState::OutOfSync => (Some("OutOfSync"), &["ExternalConflict", "DiagnosticHint", "SchemaViolation", "PersistReadOnly"]),
        WorkflowState::Refreshing => (Some("DiagnosticHint"), &["SchemaViolation", "PersistReadOnly"]),
    }
}

/// States a status may come with, where the workflow restricts them (docs/workflow.md#states-and-flags).
pub(super) fn states_for(status: Status) -> Option<&'static [WorkflowState]> {
    match status {
        // (Idle / PersistPending: a `preview_only` listing lists candidates without selecting.)
        Status::MultiMatch => {
            Some(&[WorkflowState::SelectionPending, WorkflowState::OutOfSync, WorkflowState::Idle, WorkflowState::PersistPending])
        }
        Status::ExternalConflict | Status::PersistFailure => Some(&[WorkflowState::OutOfSync]),
        _ => None,
    }
}

/// `true` if `mark` is the `yes` word of `locale`.
pub(super) fn l_yes(locale: Option<Locale>, mark: &str) -> bool {
    locale.is_some_and(|l| l.words().yes == mark)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::scan::row_cells;

    #[test]
    fn state_table_agrees_with_flags_derive() {
        use crate::workflow::PersistMode;
        let known = flag_names();
        assert_eq!(known.len(), 8);
        for state in STATES {
            let (required, optional) = state_flags(state);
            assert_eq!(Flags::derive(state, PersistMode::Manual).names(), required.into_iter().collect::<Vec<_>>(), "{state}");
            assert!(optional.iter().all(|f| known.contains(f)));
        }
    }

    #[test]
    fn format_rs_writes_the_candidate_columns_of_the_layout() {
        assert_eq!(row_cells(crate::format::CANDIDATE_TABLE_HEADER).unwrap(), CANDIDATE_COLUMNS);
    }
}
