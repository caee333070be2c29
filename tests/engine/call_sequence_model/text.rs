//! Text helpers and the oracle's own matcher: an independent line-window matcher per fuzzy tier,
//! written apart from `src/matching`, and the checks of a fuzzy outcome against it.

use super::generator::Perturb;
use crate::common::utf16_to_byte;
use agentpad::response::PendingChangeView;

pub(super) fn char_to_byte(s: &str, c: usize) -> usize {
    s.char_indices().nth(c).map_or(s.len(), |(b, _)| b)
}

/// Byte offsets of the non-overlapping occurrences, left to right (the engine's rule).
pub(super) fn occurrences(hay: &str, needle: &str) -> Vec<usize> {
    hay.match_indices(needle).map(|(i, _)| i).collect()
}

fn fold(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2035}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{2036}' => "\"",
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{2043}' => "-",
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => " ",
        '\u{200B}' | '\u{2060}' | '\u{FEFF}' => "",
        '\u{2026}' => "...",
        _ => return None,
    })
}

/// A text's lines under a tier's normalisation (docs/architecture.md#matching, cumulative tiers), written
/// independently of `src/matching/normalize.rs`.
pub(super) fn normalized(text: &str, tier: &str) -> Vec<String> {
    let rank = match tier {
        "trailing_whitespace" => 1,
        "indentation" => 2,
        "unicode" => 3,
        "whitespace" => 4,
        _ => 0,
    };
    text.split('\n')
        .map(|line| {
            let mut s: String =
                if rank >= 3 { line.chars().map(|c| fold(c).map_or(c.to_string(), str::to_string)).collect() } else { line.to_string() };
            if rank >= 1 {
                s = s.trim_end().to_string();
            }
            if rank >= 2 {
                s = s.trim_start().to_string();
            }
            if rank >= 4 {
                let mut out = String::new();
                for c in s.chars() {
                    if c.is_whitespace() {
                        if !out.ends_with(' ') {
                            out.push(' ');
                        }
                    } else {
                        out.push(c);
                    }
                }
                s = out;
            }
            s
        })
        .collect()
}

/// Whether `region` (ending at byte `end` of `draft`) normalises to the needle's lines; a needle
/// ending in a line break also matches at the very end of a draft without one (docs/architecture.md#matching: a
/// final break is trailing whitespace too).
pub(super) fn region_matches(draft: &str, start: usize, end: usize, needle: &str, quality: &str) -> bool {
    let tier = tier_of(quality);
    let got = normalized(&draft[start..end], tier);
    let mut want = normalized(needle, tier);
    if got == want {
        return true;
    }
    if end == draft.len() && tier != "exact" && needle.ends_with('\n') {
        want.pop();
        return got == want;
    }
    false
}

pub(super) const TIERS: [&str; 4] = ["trailing_whitespace", "indentation", "unicode", "whitespace"];

/// An independent line-window matcher for one tier (`fuzzy.rs` header): a needle of
/// k lines matches lines i..i+k when, normalised, its first line is a suffix of line i, its
/// middle lines equal, its last line a prefix of line i+k-1; one line: a substring. Returns the
/// start line of each match (a line once per occurrence for one-line needles).
pub(super) fn windows(draft: &str, needle: &str, tier: &str) -> Vec<usize> {
    let mut doc = normalized(draft, tier);
    let want = normalized(needle, tier);
    // A needle ending in a line break (its raw last line empty, not merely blank) also matches
    // at the end of a draft without a final break: `fuzzy::find`'s `open_end`.
    if needle.ends_with('\n') && !draft.is_empty() && !draft.ends_with('\n') {
        doc.push(String::new());
    }
    let k = want.len();
    let mut out = Vec::new();
    if k == 1 {
        if want[0].is_empty() {
            return out;
        }
        for (i, l) in doc.iter().enumerate() {
            out.extend(l.match_indices(want[0].as_str()).map(|_| i));
        }
        return out;
    }
    if k > doc.len() {
        return out;
    }
    for i in 0..=doc.len() - k {
        let ok = doc[i].ends_with(want[0].as_str())
            && (1..k - 1).all(|j| doc[i + j] == want[j])
            && doc[i + k - 1].starts_with(want[k - 1].as_str());
        if ok {
            out.push(i);
        }
    }
    out
}

/// The tiers' laws for a fuzzy outcome at `quality` with `total` matches: no lower tier finds
/// anything, this tier finds something, and when its windows cannot overlap, as many as the
/// engine reported (so a single fuzzy match is never a guess among several).
pub(super) fn tier_laws(draft: &str, needle: &str, quality: &str, total: usize) -> Result<(), String> {
    let tier = tier_of(quality);
    let Some(rank) = TIERS.iter().position(|t| *t == tier) else { return Ok(()) };
    for lower in &TIERS[..rank] {
        let w = windows(draft, needle, lower);
        law!(w.is_empty(), "matched at {quality} but the lower tier {lower} already matches lines {w:?} of {draft:?} for {needle:?}");
    }
    let w = windows(draft, needle, tier);
    law!(!w.is_empty(), "matched at {quality} but the model finds no window for {needle:?} in {draft:?}");
    let k = needle.split('\n').count();
    let disjoint = k == 1 || w.windows(2).all(|p| p[1] >= p[0] + k);
    if disjoint {
        law!(
            w.len().min(26) == total.min(26),
            "{quality}: the model finds {} matches (lines {w:?}) of {needle:?} in {draft:?}, the engine {total}",
            w.len()
        );
    }
    Ok(())
}

/// The tier of a `match_quality` (`gutter+unicode` → `unicode`, `gutter` → exact).
pub(super) fn tier_of(quality: &str) -> &str {
    quality.strip_prefix("gutter+").unwrap_or(if quality == "gutter" { "exact" } else { quality })
}

/// The regions of `old` (byte ranges) that a replacement holding `marker` (plus indentation the
/// engine may add in front of it) can have replaced to give `new`.
pub(super) fn edited_regions(old: &str, new: &str, marker: &str) -> Vec<(usize, usize)> {
    let Some(m) = new.find(marker) else { return Vec::new() };
    let suffix = &new[m + marker.len()..];
    if !old.ends_with(suffix) {
        return Vec::new();
    }
    let p0 = &new[..m];
    let mut out = Vec::new();
    let mut cut = p0.len();
    loop {
        let p = &p0[..cut];
        if old.starts_with(p) && p.len() + suffix.len() <= old.len() {
            out.push((p.len(), old.len() - suffix.len()));
        }
        match p.chars().last() {
            Some(c @ (' ' | '\t')) => cut -= c.len_utf8(),
            _ => break,
        }
    }
    out
}

/// `base` with `changes` (UTF-16 positions into `base`) applied; Err when a change's old text is
/// not there.
pub(super) fn apply_changes(base: &str, changes: &[&PendingChangeView]) -> Result<String, String> {
    let mut cs: Vec<&&PendingChangeView> = changes.iter().collect();
    cs.sort_by_key(|c| std::cmp::Reverse(c.position));
    let mut out = base.to_string();
    for c in cs {
        let s = utf16_to_byte(base, c.position);
        let e = s + c.old_text.len();
        if base.get(s..e) != Some(c.old_text.as_str()) {
            return Err(format!(
                "change {} says old text {:?} at {} but the base holds {:?}",
                c.change_id,
                c.old_text,
                c.position,
                base.get(s..e.min(base.len()))
            ));
        }
        out.replace_range(s..e, &c.new_text);
    }
    Ok(out)
}

pub(super) fn perturb_lines(needle: &str, p: Perturb) -> String {
    needle
        .split('\n')
        .map(|l| match p {
            Perturb::TrailingWs => format!("{l} \t"),
            Perturb::Indent => {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("  {l}")
                }
            }
            Perturb::Dedent => l.trim_start().to_string(),
            Perturb::Unicode => l.replace('\'', "\u{2019}").replace('"', "\u{201C}").replace('-', "\u{2013}").replacen(' ', "\u{A0}", 1),
            Perturb::WiderRuns => {
                let lead = l.len() - l.trim_start().len();
                format!("{}{}", &l[..lead], l[lead..].replace(' ', "  "))
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
