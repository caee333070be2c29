//! What kept versions cost in memory (docs/performance.md#memory): a 4 MB document, 40 one-line
//! external changes, and apart from that 40 one-line commits, measured by a counting global
//! allocator — the bytes the process holds after opening, after the 40 changes, and at the peak
//! between. Native, so every allocation is seen and freed memory is not counted (wasm's memory
//! only grows: its size is a high-water mark). Not a criterion bench: it measures bytes once.
//!
//! Run through `./build.sh bench` (native part), or alone: `cargo bench --manifest-path bench/native/Cargo.toml --bench versions_memory`.
//! Writes `<out>/native-versions-memory.json` (`AGENTPAD_BENCH_OUT`, else `target/bench`).
//!
//! The document: 4,000,000 bytes of distinct code-like lines, so each edit's `old_text` is
//! unique. An external change rewrites line `k·1,500` as another program would and tells the
//! workspace (`storage_changed`, no pending changes: the text is taken); a commit stages the
//! same one-line change with `memo_replace` and saves it through a `MemoryStorage`. Every result
//! is checked against the expected text before a number is printed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use agentpad::{CallContext, Config, MemoryStorage, Status, Workspace};
use serde_json::json;

/// The system allocator, counting the bytes held now and the most held since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const BYTES: usize = 4_000_000;
const CHANGES: usize = 40;
const PATH: &str = "doc.rs";
const MB: f64 = 1e6;

fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Starts a new peak from what is held now.
fn reset_peak() {
    PEAK.store(live(), Ordering::Relaxed);
}

/// Distinct code-like lines, whole, up to at least `bytes`.
fn document(bytes: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut total = 0;
    while total < bytes {
        let i = lines.len();
        let line = format!("    let value_{i} = compute(item_{i}, {}) * {};  // step {i} of the pipeline", i % 97, i % 13);
        total += line.len() + 1;
        lines.push(line);
    }
    lines
}

fn joined(lines: &[String]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// One measurement: bytes held after opening, after the changes, the peak between, and the
/// mean time of one change.
struct Reading {
    opened: usize,
    after: usize,
    peak: usize,
    ms_per_change: f64,
    /// What the workspace counts its kept versions to cost (`Workspace::versions_bytes`).
    versions: usize,
}

impl Reading {
    fn json(&self, work: &str, doc_bytes: usize) -> String {
        format!(
            "  {{\"work\": \"{work}\", \"doc_bytes\": {doc_bytes}, \"changes\": {CHANGES}, \"opened_bytes\": {}, \"after_bytes\": {}, \"grown_bytes\": {}, \"peak_bytes\": {}, \"versions_bytes\": {}, \"ms_per_change\": {:.3}}}",
            self.opened,
            self.after,
            self.after.saturating_sub(self.opened),
            self.peak,
            self.versions,
            self.ms_per_change
        )
    }

    fn line(&self, work: &str) -> String {
        format!(
            "{work:<22} opened {:>7.1} MB   after {CHANGES} {:>7.1} MB   grown {:>7.1} MB   peak {:>7.1} MB   versions count {:>6.1} KB   {:>6.2} ms per change",
            self.opened as f64 / MB,
            self.after as f64 / MB,
            self.after.saturating_sub(self.opened) as f64 / MB,
            self.peak as f64 / MB,
            self.versions as f64 / 1e3,
            self.ms_per_change
        )
    }
}

/// The line the k-th change rewrites, and what it becomes.
fn target(lines: &[String], k: usize) -> (usize, String) {
    let at = (k + 1) * 1_500 % lines.len();
    (at, format!("{}  // changed {k}", lines[at]))
}

/// 40 external one-line changes to the open document, each taken as storage's new text.
fn external(lines: &[String]) -> Reading {
    let mut lines = lines.to_vec();
    let start = live();
    let mut ws = Workspace::new(Config::default());
    ws.open(PATH, &joined(&lines), "v0").expect("open");
    let opened = live() - start;
    reset_peak();
    let clock = Instant::now();
    for k in 0..CHANGES {
        let (at, line) = target(&lines, k);
        lines[at] = line;
        let stored = joined(&lines);
        assert!(ws.storage_changed(PATH, Some(&stored), Some(&format!("v{}", k + 1))), "change {k} was not taken");
    }
    let ms = clock.elapsed().as_secs_f64() * 1e3 / CHANGES as f64;
    let reading = Reading {
        opened,
        after: live() - start,
        peak: PEAK.load(Ordering::Relaxed) - start,
        ms_per_change: ms,
        versions: ws.versions_bytes(),
    };
    assert_eq!(ws.text(Some(PATH)).expect("text"), joined(&lines), "the workspace holds storage's text");
    drop(ws);
    reading
}

/// 40 one-line commits through a `MemoryStorage` (which holds the stored text, counted in both
/// readings alike; its log of writes is off).
fn commits(lines: &[String]) -> Reading {
    let mut lines = lines.to_vec();
    let start = live();
    let mut storage = MemoryStorage::new(&[(PATH, &joined(&lines))]);
    storage.log_writes = false; // the storage keeps the stored text only, not every write
    let mut ws = Workspace::new(Config::default());
    ws.open_from(&mut storage, PATH).expect("open");
    let opened = live() - start;
    reset_peak();
    let ctx = CallContext::default();
    let clock = Instant::now();
    for k in 0..CHANGES {
        let (at, line) = target(&lines, k);
        let r = ws.run("memo_replace", &json!({"old_text": lines[at], "new_text": line}), &ctx, &mut storage);
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
        let r = ws.run("memo_commit", &json!({"summary": format!("change {k}")}), &ctx, &mut storage);
        assert_eq!(r.status, Status::Success, "{}", r.markdown);
        lines[at] = line;
    }
    let ms = clock.elapsed().as_secs_f64() * 1e3 / CHANGES as f64;
    let reading = Reading {
        opened,
        after: live() - start,
        peak: PEAK.load(Ordering::Relaxed) - start,
        ms_per_change: ms,
        versions: ws.versions_bytes(),
    };
    assert_eq!(storage.text(PATH), Some(joined(&lines).as_str()), "storage holds every commit");
    drop(ws);
    drop(storage);
    reading
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that is not this bench's name skips it.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if filter.is_some_and(|f| !"versions_memory".contains(f.as_str())) {
        return;
    }
    let lines = document(BYTES);
    let doc_bytes = joined(&lines).len();
    println!(
        "versions memory: a {:.1} MB document ({} lines), {CHANGES} one-line changes; bytes held (counting allocator)",
        doc_bytes as f64 / MB,
        lines.len()
    );
    let ext = external(&lines);
    println!("{}", ext.line("external changes"));
    let com = commits(&lines);
    println!("{}", com.line("commits"));
    let dir = std::env::var("AGENTPAD_BENCH_OUT").map(std::path::PathBuf::from).unwrap_or_else(|_| {
        std::env::var("CARGO_TARGET_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|_| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
            .join("bench")
    });
    std::fs::create_dir_all(&dir).expect("create the bench output directory");
    let json = format!("[\n{},\n{}\n]\n", ext.json("external-40", doc_bytes), com.json("commit-40", doc_bytes));
    std::fs::write(dir.join("native-versions-memory.json"), json).expect("write the result");
}
