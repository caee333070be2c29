//! The work budget of one search (docs/reliability.md#matching-time-and-read-size): the fuzzy
//! tiers and the near-miss search count their work in units (about a nanosecond of native
//! work each: a byte scanned, a char normalised, a DP cell) and stop once a search has spent
//! [`SEARCH_BUDGET`], so no document makes one call block for long. A stopped search says so
//! ([`Stopped`]); it is never passed off as a complete one. The core reads no clock: the count
//! is the same on every machine, and tests check it, never a time.
//!
//! The meter is per thread and runs only inside [`metered`]: outside it nothing ever stops.

use std::cell::Cell;

/// Units one search may spend: the fuzzy steps of a `locate` and the near-miss search of the
/// same needle after it, together. A whole `memo_replace` measured 2.1–2.6 ns of wasm CPU time
/// per unit it counted (1.1–1.9 native; exact search and the answer uncounted), so a search
/// that spends all of it stays near 220 ms in wasm; the frozen worst cases of
/// `bench/speed/lib/worst.mjs` at 10 MB spend 49–80 M (docs/reliability.md).
pub const SEARCH_BUDGET: u64 = 85_000_000;

/// A search that stopped at its budget: how far it got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Candidate places examined before it stopped (fuzzy windows checked line by line, near-miss
    /// regions scored).
    pub candidates: usize,
    /// Units spent (at least the budget).
    pub units: u64,
}

#[derive(Clone, Copy)]
struct Meter {
    spent: u64,
    limit: u64,
    candidates: usize,
}

thread_local! {
    static METER: Cell<Meter> = const { Cell::new(Meter { spent: 0, limit: u64::MAX, candidates: 0 }) };
    /// Units charged on this thread in all, metered or not (for tests).
    static TOTAL: Cell<u64> = const { Cell::new(0) };
}

#[cfg(test)]
thread_local! {
    /// A smaller budget for unit tests, so that a small document can exceed it.
    static TEST_BUDGET: Cell<Option<u64>> = const { Cell::new(None) };
}

/// The budget of one search: [`SEARCH_BUDGET`] (in unit tests, what [`with_search_budget`]
/// set). Cost: O(1).
pub fn search_budget() -> u64 {
    #[cfg(test)]
    if let Some(units) = TEST_BUDGET.with(Cell::get) {
        return units;
    }
    SEARCH_BUDGET
}

/// Runs `f` with searches on this thread budgeted at `units` (unit tests only).
#[cfg(test)]
pub(crate) fn with_search_budget<T>(units: u64, f: impl FnOnce() -> T) -> T {
    let outer = TEST_BUDGET.with(|b| b.replace(Some(units)));
    let out = f();
    TEST_BUDGET.with(|b| b.set(outer));
    out
}

/// Units the running meter has spent. Cost: O(1).
pub fn spent() -> u64 {
    METER.with(|m| m.get().spent)
}

/// Runs `f` with a fresh meter of `limit` units (the enclosing meter is restored after), and
/// says whether it stopped. Cost: O(1) besides `f`.
pub fn metered<T>(limit: u64, f: impl FnOnce() -> T) -> (T, Option<Stopped>) {
    let outer = METER.with(|m| m.replace(Meter { spent: 0, limit, candidates: 0 }));
    let out = f();
    let inner = METER.with(|m| m.replace(outer));
    let stopped = (inner.spent > inner.limit).then_some(Stopped { candidates: inner.candidates, units: inner.spent });
    (out, stopped)
}

/// Counts `units` of work. Cost: O(1).
#[inline]
pub fn charge(units: u64) {
    METER.with(|m| {
        let mut meter = m.get();
        meter.spent = meter.spent.saturating_add(units);
        m.set(meter);
    });
    TOTAL.with(|t| t.set(t.get().saturating_add(units)));
}

/// Counts one candidate place examined. Cost: O(1).
#[inline]
pub fn candidate() {
    METER.with(|m| {
        let mut meter = m.get();
        meter.candidates += 1;
        m.set(meter);
    });
}

/// True once the running search has spent more than its budget: the search must stop. Cost: O(1).
#[inline]
pub fn exhausted() -> bool {
    METER.with(|m| {
        let meter = m.get();
        meter.spent > meter.limit
    })
}

/// Units charged on this thread so far, metered or not: a work count for tests. Cost: O(1).
pub fn units_charged() -> u64 {
    TOTAL.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meter_stops_past_its_limit_and_restores_the_outer_one() {
        let ((), stopped) = metered(10, || {
            charge(6);
            candidate();
            assert!(!exhausted());
            charge(5);
            assert!(exhausted());
            // A nested meter is its own; the outer one is back after it.
            let ((), inner) = metered(100, || charge(50));
            assert_eq!(inner, None);
            assert!(exhausted());
        });
        assert_eq!(stopped, Some(Stopped { candidates: 1, units: 11 }));
        charge(u64::MAX);
        assert!(!exhausted(), "outside a meter nothing stops");
        let ((), fine) = metered(10, || charge(10));
        assert_eq!(fine, None);
    }
}
