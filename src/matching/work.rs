//! The work budget of one search (docs/reliability.md#matching-time-and-read-size): the fuzzy
//! tiers and the near-miss search count their work in units (about a nanosecond of native
//! work each: a byte scanned, a char normalised, a DP cell) and stop once a search has spent
//! [`SEARCH_BUDGET`], so no document makes one call block for long. A stopped search says so
//! ([`Stopped`]); it is never passed off as a complete one. The core reads no clock: the count
//! is the same on every machine, and tests check it, never a time.
//!
//! The budget is a value, [`Budget`], handed as `&mut Budget` to every tier of the ladder
//! (src/matching/ladder.rs) and to what they call, as `similar` hands its deadline on: a tier
//! cannot be written without receiving it, and no state is kept between calls.

/// Units one search may spend: the fuzzy steps of a `locate` and the near-miss search of the
/// same needle after it, together. A whole `memo_replace` measured 2.1–2.6 ns of wasm CPU time
/// per unit it counted (1.1–1.9 native; exact search and the answer uncounted), so a search
/// that spends all of it stays near 220 ms in wasm — on the VM of that day: on a slower one a
/// unit cost up to 3.3 ns, about 280 ms for all of it; the frozen worst cases of
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

/// The work one search may still do: units spent against a limit, and the candidate places
/// examined (for the [`Stopped`] report).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    spent: u64,
    limit: u64,
    candidates: usize,
}

impl Budget {
    /// A fresh budget of `limit` units. Cost: O(1).
    pub fn new(limit: u64) -> Budget {
        Budget { spent: 0, limit, candidates: 0 }
    }

    /// The budget of one search: [`SEARCH_BUDGET`]. Cost: O(1).
    pub fn search() -> Budget {
        Budget::new(SEARCH_BUDGET)
    }

    /// A budget that never runs out (work that must complete, e.g. a pick's placement). Cost: O(1).
    pub fn unlimited() -> Budget {
        Budget::new(u64::MAX)
    }

    /// What is left of this budget, as a fresh one: the near-miss search after the fuzzy steps
    /// of the same needle spends only the rest. Cost: O(1).
    pub fn rest(&self) -> Budget {
        Budget::new(self.limit.saturating_sub(self.spent))
    }

    /// Counts `units` of work. Cost: O(1).
    #[inline]
    pub fn charge(&mut self, units: u64) {
        self.spent = self.spent.saturating_add(units);
    }

    /// Counts one candidate place examined. Cost: O(1).
    #[inline]
    pub fn candidate(&mut self) {
        self.candidates += 1;
    }

    /// True once more than the limit was spent: the search must stop. Cost: O(1).
    #[inline]
    pub fn exhausted(&self) -> bool {
        self.spent > self.limit
    }

    /// Units spent so far. Cost: O(1).
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// The stop, once the budget is exhausted. Cost: O(1).
    pub fn stopped(&self) -> Option<Stopped> {
        self.exhausted().then_some(Stopped { candidates: self.candidates, units: self.spent })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_stops_past_its_limit_and_its_rest_is_fresh() {
        let mut b = Budget::new(10);
        b.charge(6);
        b.candidate();
        assert!(!b.exhausted() && b.stopped().is_none());
        assert_eq!(b.rest(), Budget::new(4));
        b.charge(5);
        assert!(b.exhausted());
        assert_eq!(b.stopped(), Some(Stopped { candidates: 1, units: 11 }));
        assert_eq!(b.rest(), Budget::new(0));
        let mut unlimited = Budget::unlimited();
        unlimited.charge(u64::MAX);
        unlimited.charge(1);
        assert!(!unlimited.exhausted(), "an unlimited budget never stops");
        let mut exact = Budget::new(10);
        exact.charge(10);
        assert_eq!(exact.stopped(), None, "the limit itself may be spent");
    }
}
