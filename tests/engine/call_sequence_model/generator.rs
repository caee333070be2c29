//! Cases from a seed: a small deterministic generator (splitmix64) makes each case's documents,
//! their storage styles (CRLF, BOM) and its op list from a u64 seed, so a failure is replayable.

use super::env_u64;

#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

pub(super) const PATHS: [&str; 3] = ["a.md", "b.md", "c.md"];

const LINES: &[&str] = &[
    "timeout: 30",
    "  timeout: 30",
    "\tretry = 'yes'",
    "name = \"agent\"",
    "a - b - c",
    "key  value",
    "中文 配置 = 1",
    "emoji 😀 end",
    "",
    "    return x;",
    "}",
    "fn main() {",
    "  let s = \"it's\";",
    "// note – dash",
    "x’y said “hi”",
    "end",
    "timeout: 30 # again",
];

pub(super) const NEW_TEXTS: &[&str] = &["timeout: 60", "", "x", "two\nlines", "中", "😀!", "  indented", "end", "a - b"];

fn gen_doc(rng: &mut Rng) -> String {
    let n = 2 + rng.below(9) as usize;
    let mut lines: Vec<&str> = (0..n).map(|_| *rng.pick(LINES)).collect();
    if rng.below(3) == 0 {
        lines.push("");
    }
    lines.join("\n")
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Perturb {
    TrailingWs,
    Indent,
    Dedent,
    Unicode,
    WiderRuns,
}

#[derive(Clone, Debug)]
pub(super) enum Op {
    /// memo_replace with a needle cut from the draft (a char range, or whole lines), or the last
    /// listed needle again (`relist`).
    /// `match_id`: pick a candidate directly (a fresh query with several matches).
    Exact {
        doc: u64,
        a: u64,
        b: u64,
        lines: bool,
        relist: bool,
        new: u64,
        show_all: bool,
        match_id: Option<u64>,
        then_choose: Option<(u64, u64)>,
    },
    /// memo_replace with whole lines of the draft, perturbed, optionally with copied gutters;
    /// `new_text` is a unique marker.
    /// `fragment`: the needle starts and ends inside lines (`cols` picks where).
    Fuzzy {
        doc: u64,
        line: u64,
        count: u64,
        perturb: Perturb,
        gutter: bool,
        final_break: bool,
        fragment: Option<(u64, u64)>,
        then_choose: Option<(u64, u64)>,
    },
    /// memo_replace_selection: a live candidate, a letter out of range, a stale one, or a number.
    Choose {
        kind: u64,
        pick: u64,
    },
    Append {
        doc: u64,
        text: u64,
    },
    /// memo_commit; `fail`: which write of the commit fails (modulo the documents written + 1;
    /// the last value means none); `restore_fail`: which compensating write fails.
    Commit {
        fail: Option<u64>,
        restore_fail: Option<u64>,
    },
    Revert,
    Discard,
    /// Another program writes the document.
    External {
        doc: u64,
        kind: u64,
        at: u64,
    },
    Refresh {
        doc: u64,
    },
    Rebase {
        doc: u64,
    },
    /// memo_persist_as: save a draft under a new path (the recovery after a failed save).
    PersistAs {
        doc: u64,
    },
    /// A call that must be refused.
    Bad {
        kind: u64,
    },
    /// A call that changes nothing: read, preview, diff.
    Look {
        doc: u64,
        kind: u64,
    },
}

fn gen_op(rng: &mut Rng) -> Op {
    let w = rng.below(100);
    let doc = rng.below(3);
    match w {
        0..=21 => Op::Exact {
            doc,
            a: rng.next(),
            b: rng.below(12),
            lines: rng.below(2) == 0,
            relist: rng.below(4) == 0,
            new: rng.next(),
            show_all: rng.below(3) == 0,
            match_id: (rng.below(4) == 0).then(|| rng.next()),
            then_choose: (rng.below(2) == 0).then(|| (rng.below(8), rng.next())),
        },
        22..=39 => Op::Fuzzy {
            doc,
            line: rng.next(),
            count: 1 + rng.below(3),
            perturb: *rng.pick(&[Perturb::TrailingWs, Perturb::Indent, Perturb::Dedent, Perturb::Unicode, Perturb::WiderRuns]),
            gutter: rng.below(4) == 0,
            final_break: rng.below(4) == 0,
            fragment: (rng.below(3) == 0).then(|| (rng.next(), rng.next())),
            then_choose: (rng.below(2) == 0).then(|| (rng.below(8), rng.next())),
        },
        40..=49 => Op::Choose { kind: rng.below(8), pick: rng.next() },
        50..=57 => Op::Append { doc, text: rng.next() },
        58..=69 => Op::Commit { fail: (rng.below(2) == 0).then(|| rng.below(3)), restore_fail: (rng.below(3) == 0).then(|| rng.below(2)) },
        70..=72 => Op::Revert,
        73..=75 => Op::Discard,
        76..=85 => Op::External { doc, kind: rng.below(4), at: rng.next() },
        86..=88 => Op::Refresh { doc },
        89..=91 => Op::Rebase { doc },
        92..=93 => Op::Bad { kind: rng.below(7) },
        94..=95 => Op::PersistAs { doc },
        _ => Op::Look { doc, kind: rng.below(4) },
    }
}

pub(super) struct Case {
    pub(super) docs: Vec<String>,
    /// Per document, how storage holds it: CRLF line endings, a leading BOM.
    pub(super) styles: Vec<Style>,
    pub(super) ops: Vec<Op>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Style {
    pub(super) crlf: bool,
    pub(super) bom: bool,
}

/// The text as storage holds it (docs/architecture.md#text-and-positions: line endings and BOM are remembered and
/// restored on persist; the workspace works on LF text).
pub(super) fn raw(style: Style, lf: &str) -> String {
    let body = if style.crlf { lf.replace('\n', "\r\n") } else { lf.to_string() };
    if style.bom {
        format!("\u{FEFF}{body}")
    } else {
        body
    }
}

pub(super) fn gen_case(seed: u64) -> Case {
    let mut rng = Rng(seed);
    let ndocs = 2 + rng.below(2) as usize;
    let docs = (0..ndocs).map(|_| gen_doc(&mut rng)).collect();
    let styles = (0..ndocs).map(|_| Style { crlf: rng.below(3) == 0, bom: rng.below(4) == 0 }).collect();
    let max_ops = env_u64("AGENTPAD_MODEL_MAX_OPS").unwrap_or(40).max(6);
    let nops = 5 + rng.below(max_ops - 4) as usize;
    let ops = (0..nops).map(|_| gen_op(&mut rng)).collect();
    Case { docs, styles, ops }
}
