//! Property tests for the memory store: export → import keeps every observable (records, search
//! results bit for bit, the export bytes), and search never panics and keeps its laws on arbitrary
//! queries (emoji, combining marks, mixed scripts, control chars).
#![cfg(not(target_arch = "wasm32"))]

use agentpad::memory::{MemoryError, MemoryStore, TurnRecord, MAX_AT_MS, SNIPPET_CHARS};
use proptest::prelude::*;

/// Text over a small mixed alphabet (so queries often hit) or any Unicode.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-zA-Z0-9 超时间改为秒性能瓶颈分析代码模块\n\t,.😀🎉\u{301}\u{200d}éÉßİ]{0,60}",
        1 => any::<String>(),
    ]
}

fn time() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("in range", |f| f.is_finite() && f.abs() < MAX_AT_MS),
        (0u64..4_000_000_000_000).prop_map(|n| n as f64),
        (-1e6f64..1e13),
    ]
}

fn store() -> impl Strategy<Value = MemoryStore> {
    prop::collection::vec((1u32..5, time(), text(), prop::collection::vec(text(), 0..3), text(), prop::collection::vec(text(), 0..2)), 0..8)
        .prop_map(|rows| {
            let mut m = MemoryStore::new();
            let mut turn = 0u32;
            for (gap, at_ms, summary, insights, context, tags) in rows {
                turn += gap;
                let r = TurnRecord { turn, at_ms, summary, insights, context, tags };
                match m.add(r) {
                    Ok(()) => {}
                    Err(MemoryError::InvalidTime { .. }) => {}
                    Err(e) => panic!("unexpected {e}"),
                }
            }
            m
        })
}

fn query() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-zA-Z0-9 超时间改为秒性能瓶颈分析代码模块,.😀🎉\u{301}\u{200d}éÉßİ]{0,12}",
        1 => any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn export_import_preserves_everything(m in store(), queries in prop::collection::vec(query(), 1..4), limit in 0usize..6) {
        let json = m.export();
        let back = MemoryStore::import(&json).expect("own export imports");
        prop_assert_eq!(&back, &m);
        prop_assert_eq!(back.export(), json);
        prop_assert_eq!(back.digest(), m.digest());
        for q in &queries {
            let a = m.search(q, limit);
            let b = back.search(q, limit);
            prop_assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(&b) {
                prop_assert_eq!(x.turn, y.turn);
                prop_assert_eq!(x.score.to_bits(), y.score.to_bits());
                prop_assert_eq!(&x.snippet, &y.snippet);
            }
        }
        let turns: Vec<u32> = m.records().iter().map(|r| r.turn).collect();
        prop_assert_eq!(back.recall(&turns).unwrap(), m.recall(&turns).unwrap());
    }

    #[test]
    fn search_laws_on_arbitrary_queries(m in store(), q in query(), limit in 0usize..10) {
        let hits = m.search(&q, limit);
        prop_assert!(hits.len() <= limit);
        prop_assert!(hits.len() <= m.len());
        for h in &hits {
            prop_assert!(h.score.is_finite() && h.score > 0.0, "{:?}", h);
            prop_assert!(h.snippet.chars().count() <= SNIPPET_CHARS, "{:?}", h);
            prop_assert!(m.get(h.turn).is_some());
        }
        for w in hits.windows(2) {
            prop_assert!(w[0].score > w[1].score || (w[0].score == w[1].score && w[0].turn > w[1].turn), "{:?}", w);
        }
        // Deterministic, and a smaller limit gives a prefix.
        prop_assert_eq!(&m.search(&q, limit), &hits);
        let fewer = m.search(&q, limit / 2);
        prop_assert_eq!(&hits[..fewer.len()], &fewer[..]);
    }

    #[test]
    fn every_query_term_of_a_summary_finds_it(m in store(), pick in any::<prop::sample::Index>()) {
        prop_assume!(!m.is_empty());
        let r = &m.records()[pick.index(m.len())];
        let terms = agentpad::memory::terms(&r.summary);
        prop_assume!(!terms.is_empty());
        let t = &terms[pick.index(terms.len())];
        let hits = m.search(t, m.len());
        prop_assert!(hits.iter().any(|h| h.turn == r.turn), "term {:?} of turn {} not found: {:?}", t, r.turn, hits);
    }

    #[test]
    fn stored_times_survive_json_exactly(at_ms in time()) {
        let mut m = MemoryStore::new();
        let r = TurnRecord { turn: 1, at_ms, summary: String::new(), insights: vec![], context: String::new(), tags: vec![] };
        if m.add(r).is_ok() {
            let stored = m.records()[0].at_ms;
            prop_assert!((stored - at_ms).abs() <= 0.0005 + at_ms.abs() * 1e-15, "{} -> {}", at_ms, stored);
            let back = MemoryStore::import(&m.export()).unwrap();
            prop_assert_eq!(back.records()[0].at_ms.to_bits(), stored.to_bits());
        } else {
            prop_assert!(at_ms.abs() >= MAX_AT_MS);
        }
    }

    #[test]
    fn import_never_panics(s in any::<String>()) {
        let _ = MemoryStore::import(&s);
    }

    #[test]
    fn import_of_mangled_export_never_panics(m in store(), cut in any::<prop::sample::Index>(), junk in any::<String>()) {
        let json = m.export();
        let mut at = cut.index(json.len() + 1);
        while !json.is_char_boundary(at) { at -= 1; }
        let _ = MemoryStore::import(&json[..at]);
        let _ = MemoryStore::import(&format!("{}{}{}", &json[..at], junk, &json[at..]));
    }

    #[test]
    fn recall_errors_name_exactly_the_unknown_turns(m in store(), asked in prop::collection::vec(0u32..40, 0..6)) {
        let known: Vec<u32> = m.records().iter().map(|r| r.turn).collect();
        let mut unknown: Vec<u32> = asked.iter().copied().filter(|t| !known.contains(t)).collect();
        unknown.sort_unstable();
        unknown.dedup();
        match m.recall(&asked) {
            Ok(rs) => {
                prop_assert!(unknown.is_empty());
                prop_assert_eq!(rs.iter().map(|r| r.turn).collect::<Vec<_>>(), asked);
            }
            Err(MemoryError::UnknownTurns { turns, known: range }) => {
                prop_assert_eq!(turns, unknown);
                prop_assert_eq!(range, m.known_range());
            }
            Err(e) => prop_assert!(false, "unexpected {}", e),
        }
    }
}
