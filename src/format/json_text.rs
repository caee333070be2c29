//! The JSON text a step crosses to JS in (src/wasm.rs): ASCII only, every other char written as
//! `\uXXXX` (two for a char past U+FFFF). JS's `TextDecoder` turns ASCII bytes into a string a
//! copy at a time but decodes other UTF-8 several times slower (in Node 20 a MultiMatch answer
//! of 5 KB on CJK text took longer to decode than `JSON.parse` took to read it), while
//! `JSON.parse` reads `\u` escapes nearly as fast as the chars: the JS object is the same,
//! sooner (docs/performance.md#cjk-text).
// Only the binding (wasm32) and the tests use it.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use serde::Serialize;

/// `value` as JSON text of ASCII chars only; the same JSON value `serde_json::to_string`
/// writes. serde_json's text with its chars past ASCII escaped afterwards, not a formatter of
/// its own: that would compile every `Serialize` of a step a second time (3 KB of wasm,
/// gzipped). Cost: O(size of the text).
pub(crate) fn ascii_json<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(value).map(escape_past_ascii)
}

/// `json` with every char past ASCII as `\u` escapes: such chars occur only inside strings
/// (keys included), where an escape is the same char. ASCII runs are copied whole.
fn escape_past_ascii(json: String) -> String {
    let Some(first) = json.bytes().position(|b| !b.is_ascii()) else { return json };
    let mut out = String::with_capacity(json.len() + json.len() / 2);
    let mut rest = json.as_str();
    let mut ascii = first;
    // `ascii` is where a char starts: a non-ASCII lead byte or the end.
    while let Some((run, tail)) = rest.split_at_checked(ascii) {
        out.push_str(run);
        let mut chars = tail.chars();
        let Some(c) = chars.next() else { break };
        for unit in c.encode_utf16(&mut [0; 2]) {
            push_u_escape(&mut out, *unit);
        }
        rest = chars.as_str();
        ascii = rest.bytes().position(|b| !b.is_ascii()).unwrap_or(rest.len());
    }
    out
}

/// `\u` and the 4 lowercase hex digits of `unit`.
fn push_u_escape(out: &mut String, unit: u16) {
    out.push_str("\\u");
    for shift in [12, 8, 4, 0] {
        out.push(char::from(b"0123456789abcdef".get(usize::from((unit >> shift) & 0xF)).copied().unwrap_or(b'0')));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn the_same_json_value_in_ascii() {
        let value = json!({
            "summary": "old_text `- [ ] 更新` matches 545 places · candidates A–E",
            "emoji": "x 😀 y\u{0301}",
            "quote\"and\\": ["tab\t", "nl\n", "\u{7f}\u{80}\u{ffff}\u{10000}\u{10ffff}", 3, null, true],
            "ключ": { "plain": "ascii only", "": "" },
        });
        let text = ascii_json(&value).unwrap();
        assert!(text.is_ascii(), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
        assert!(text.contains(r"\u66f4\u65b0"), "CJK as escapes: {text}");
        assert!(text.contains(r"\ud83d\ude00"), "past U+FFFF as a surrogate pair: {text}");
        // ASCII text is serde_json's own, byte for byte.
        let ascii = json!({"a": "x = 1;\n\"q\"", "b": [1, 2.5, "c"]});
        assert_eq!(ascii_json(&ascii).unwrap(), serde_json::to_string(&ascii).unwrap());
    }

    /// The escaping char by char, as it was written first: the run-copying one must agree.
    fn escaped_char_by_char(json: &str) -> String {
        let mut out = String::new();
        for c in json.chars() {
            if c.is_ascii() {
                out.push(c);
            } else {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    push_u_escape(&mut out, *unit);
                }
            }
        }
        out
    }

    #[test]
    fn runs_of_ascii_between_escapes_are_kept_whole() {
        for json in ["\"é\"", "\"aé\"", "\"éa\"", "\"ab│cd│\"", "\"│││\"", "{\"k😀\":\"x\u{0301}y\"}", "\"plain\"", "\"\""] {
            assert_eq!(escape_past_ascii(json.to_string()), escaped_char_by_char(json), "{json}");
        }
    }
}
