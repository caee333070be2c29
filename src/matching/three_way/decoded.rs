//! A region that writes escapes (`\"`, `\n`, `\\`: a string of a one-line JSON document) where
//! old_text holds the characters they stand for: the change is made on the region's decoded
//! reading and written back with the document's escapes (docs/decisions.md#offered-candidates-are-pickable).
//! Plain data, no wording.

use std::ops::Range;

use super::{merge, Merged, Outcome};
use crate::text_rules::myers_ops;

/// Most chars (the decoded region and the merge together) [`merge_decoded`] diffs.
const MAX_DECODED_CHARS: usize = 8_000;

/// The escapes [`decode`] reads: the letter after the backslash and the character.
const ESCAPES: [(char, char); 6] = [('n', '\n'), ('t', '\t'), ('r', '\r'), ('"', '"'), ('\'', '\''), ('\\', '\\')];

/// A region read with its escapes as the characters.
struct Decoded {
    chars: Vec<char>,
    /// The region's chars each decoded char came from (two for an escape).
    spans: Vec<Range<usize>>,
    /// Characters the region writes as an escape, and characters among [`ESCAPES`]' it
    /// writes as themselves (a JSON key's quotes).
    escaped: Vec<char>,
    raw: Vec<char>,
}

/// `region` read as [`super::unescape`] reads it, each char with where it came from. Cost: O(n).
fn decode(region: &str) -> Decoded {
    let r: Vec<char> = region.chars().collect();
    let mut d = Decoded { chars: Vec::new(), spans: Vec::new(), escaped: Vec::new(), raw: Vec::new() };
    let mut i = 0;
    while let Some(&c) = r.get(i) {
        let escape = (c == '\\').then(|| r.get(i + 1)).flatten().and_then(|n| ESCAPES.iter().find(|(letter, _)| letter == n));
        if let Some(&(_, real)) = escape {
            d.chars.push(real);
            d.spans.push(i..i + 2);
            if !d.escaped.contains(&real) {
                d.escaped.push(real);
            }
            i += 2;
            continue;
        }
        if ESCAPES.iter().any(|(_, real)| *real == c) && !d.raw.contains(&c) {
            d.raw.push(c);
        }
        d.chars.push(c);
        d.spans.push(i..i + 1);
        i += 1;
    }
    d
}

/// The change `old` → `new` merged ([`merge`]) onto `region` read with its escapes decoded,
/// and written back as the region writes it: its own chars where the merge keeps them, and
/// new text escaped as the region escapes those characters. `None` — the caller keeps the
/// plain reading — when the region has no escape, the decoded reading is not closer to `old`
/// than the region (`closer`: the caller's distance), the merge there conflicts, or new text
/// holds a character the region writes both escaped and as itself (a quote of a JSON string
/// and of its key) or, but for `'`, neither: which way to write it is not known.
/// Cost: one [`merge`] plus a char diff, O((r + m)·D); `None` past [`MAX_DECODED_CHARS`].
pub(super) fn merge_decoded(old: &str, new: &str, region: &str, closer: impl Fn(&str) -> bool) -> Option<Merged> {
    let d = decode(region);
    if d.escaped.is_empty() {
        return None;
    }
    let reading: String = d.chars.iter().collect();
    if !closer(&reading) {
        return None;
    }
    let Outcome::Merged(m) = merge(old, new, &reading) else {
        return None;
    };
    let merged: Vec<char> = m.text.chars().collect();
    if d.chars.len() + merged.len() > MAX_DECODED_CHARS {
        return None;
    }
    let r: Vec<char> = region.chars().collect();
    let mut text = String::new();
    for op in myers_ops(&d.chars, &merged) {
        let (tag, was, now) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            for span in d.spans.get(was)? {
                text.extend(r.get(span.clone())?);
            }
            continue;
        }
        for &c in merged.get(now)? {
            match ESCAPES.iter().find(|(_, real)| *real == c) {
                None => text.push(c),
                Some(&(letter, real)) => match (d.escaped.contains(&real), d.raw.contains(&real)) {
                    (true, false) => text.extend(['\\', letter]),
                    (false, true) => text.push(c),
                    (false, false) if real == '\'' => text.push(c),
                    _ => return None,
                },
            }
        }
    }
    Some(Merged { text, ..m })
}

#[cfg(test)]
mod tests {
    use super::merge_decoded;

    fn merged(old: &str, new: &str, region: &str) -> Option<String> {
        merge_decoded(old, new, region, |_| true).map(|m| m.text)
    }

    #[test]
    fn a_change_on_decoded_text_is_written_with_the_document_s_escapes() {
        let region = r#""msg":"He said \"hi\"\nbye","path":"C:\\tmp""#;
        let old = "\"msg\":\"He said \"hi\"\nbye\",\"path\":\"C:\\tmp\"";
        // A word: only it changes; the escapes around it stay as the document writes them.
        let new = old.replace("hi", "hello");
        assert_eq!(merged(old, &new, region).as_deref(), Some(r#""msg":"He said \"hello\"\nbye","path":"C:\\tmp""#));
        // A line break and a backslash new_text adds are escaped as the document escapes them.
        let new = old.replace("bye", "bye\nnow").replace("tmp", "tmp\\x");
        assert_eq!(merged(old, &new, region).as_deref(), Some(r#""msg":"He said \"hi\"\nbye\nnow","path":"C:\\tmp\\x""#));
        // A quote: the region writes quotes both ways (keys and text), so which is not known.
        assert_eq!(merged(old, &old.replace("bye", "bye \"x\""), region), None);
        // No escape in the region: nothing to decode.
        assert_eq!(merged("a b", "a c", "a  b"), None);
    }
}
