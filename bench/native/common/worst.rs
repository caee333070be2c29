//! The worst-case shapes of the matcher, byte for byte as `bench/speed/lib/worst.mjs` builds
//! them (the report compares their FNV-1a): documents of about a tier's size and an old_text
//! that matches nowhere, so one memo_replace runs every step (docs/reliability.md §Matching
//! time and read size). Frozen; never tuned to suit agentpad.

use super::docs::{fnv1a32, out_dir};

/// One shape at one tier: the document and the needle.
pub struct Shape {
    pub name: &'static str,
    pub text: String,
    pub needle: String,
}

/// `unit` repeated to about `bytes` (whole units, at least one).
fn fill(unit: &str, bytes: usize) -> String {
    unit.repeat((bytes / unit.len()).max(1))
}

/// `s` with the char at `at` replaced by `c` (ASCII only).
fn spoil(s: &str, at: usize, c: char) -> String {
    let mut out = s.to_string();
    out.replace_range(at..at + 1, &c.to_string());
    out
}

const CSV_ROW: &str = "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n";
const CODE_LINE: &str = "    let value = compute(alpha, beta, gamma); // same line\n";
const WORDS: &str = "abcdefghij ";
const PROSE_LINE: &str = "the quick brown fox jumps over the lazy dog 0123456789\n";

/// Distinct code lines (no two alike), every one ending in `}`.
fn distinct_code(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 64);
    let mut i = 1u64;
    while out.len() < bytes {
        out.push_str(&format!("    fn item_{i}(x: u32) -> u32 {{ x * {} + {} }}\n", i % 97, i % 13));
        if i % 5 == 0 {
            out.push_str("}\n\n");
        }
        i += 1;
    }
    out
}

/// Every shape at `bytes`, in report order.
pub fn shapes(bytes: usize) -> Vec<Shape> {
    let code_needle = CODE_LINE.repeat(200);
    let long_needle = fill(WORDS, (bytes / 1000).max(2000));
    let big_needle = fill(PROSE_LINE, bytes / 100);
    vec![
        Shape { name: "csv-rows", text: fill(CSV_ROW, bytes), needle: spoil(&CSV_ROW.repeat(100), 1600, '1') },
        Shape { name: "identical-lines", text: fill(CODE_LINE, bytes), needle: spoil(&code_needle, code_needle.len() / 2, 'Q') },
        Shape { name: "brace-blank", text: fill("}\n\n", bytes), needle: format!("{}x", "}\n\n".repeat(200)) },
        Shape { name: "tokenless", text: distinct_code(bytes), needle: "}\n  }\n}".to_string() },
        Shape { name: "long-line", text: fill(WORDS, bytes), needle: spoil(&long_needle, long_needle.len() / 2, '#') },
        Shape { name: "big-needle", text: fill(PROSE_LINE, bytes), needle: spoil(&big_needle, big_needle.len() / 2, '#') },
    ]
}

/// The tiers: `AGENTPAD_BENCH_WORST_TIERS` (as the JS suite reads it) or `1MB,10MB`.
pub fn tiers() -> Vec<(String, usize)> {
    let spec = std::env::var("AGENTPAD_BENCH_WORST_TIERS").unwrap_or_else(|_| "1MB,10MB".to_string());
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|t| {
            let (n, unit) = t.split_at(t.len().saturating_sub(2));
            let n: usize = n.parse().unwrap_or_else(|_| panic!("bad worst-case tier {t:?}: use e.g. 1MB or 100KB"));
            let bytes = match unit {
                "MB" => n * 1_000_000,
                "KB" => n * 1_000,
                _ => panic!("bad worst-case tier {t:?}: use e.g. 1MB or 100KB"),
            };
            (t.to_string(), bytes)
        })
        .collect()
}

/// Writes `<out>/native-worst.json`: per tier and shape, the FNV-1a of `text + "\0" + needle`.
pub fn write_fingerprints(rows: &[(String, &Shape)]) {
    let dir = out_dir();
    std::fs::create_dir_all(&dir).expect("create the bench output directory");
    let entries: Vec<String> = rows
        .iter()
        .map(|(tier, s)| {
            format!(
                "  {{\"doc\": \"worst-{tier}\", \"work\": \"worst-{}\", \"fnv1a32\": \"{}\"}}",
                s.name,
                fnv1a32(&format!("{}\u{0}{}", s.text, s.needle))
            )
        })
        .collect();
    std::fs::write(dir.join("native-worst.json"), format!("[\n{}\n]\n", entries.join(",\n"))).expect("write native-worst.json");
}
