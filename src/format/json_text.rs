//! The JSON text a step crosses to JS in (src/wasm.rs): ASCII only, every other char written as
//! `\uXXXX` (two for a char past U+FFFF). JS's `TextDecoder` turns ASCII bytes into a string a
//! copy at a time but decodes other UTF-8 several times slower (in Node 20 a MultiMatch answer
//! of 5 KB on CJK text took longer to decode than `JSON.parse` took to read it), while
//! `JSON.parse` reads `\u` escapes nearly as fast as the chars: the JS object is the same,
//! sooner (docs/performance.md#cjk-text).
// Only the binding (wasm32) and the tests use it.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use std::io;

use serde::Serialize;

/// `value` as JSON text of ASCII chars only; the same JSON value `serde_json::to_string`
/// writes. Cost: O(size of the text).
pub(crate) fn ascii_json<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::with_capacity(1024);
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, AsciiOnly))?;
    // Only ASCII was written: never an error.
    String::from_utf8(out).map_err(|e| serde::ser::Error::custom(e.to_string()))
}

/// serde_json's compact output, its strings' chars past ASCII escaped.
struct AsciiOnly;

impl serde_json::ser::Formatter for AsciiOnly {
    fn write_string_fragment<W: ?Sized + io::Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        if fragment.is_ascii() {
            return writer.write_all(fragment.as_bytes());
        }
        let mut written = 0;
        for (at, c) in fragment.char_indices().filter(|(_, c)| !c.is_ascii()) {
            writer.write_all(fragment.as_bytes().get(written..at).unwrap_or_default())?;
            for unit in c.encode_utf16(&mut [0; 2]) {
                write_u_escape(writer, *unit)?;
            }
            written = at + c.len_utf8();
        }
        writer.write_all(fragment.as_bytes().get(written..).unwrap_or_default())
    }
}

/// `\u` and the 4 lowercase hex digits of `unit`.
fn write_u_escape<W: ?Sized + io::Write>(writer: &mut W, unit: u16) -> io::Result<()> {
    let hex = |shift: u16| b"0123456789abcdef".get(usize::from((unit >> shift) & 0xF)).copied().unwrap_or(b'0');
    writer.write_all(&[b'\\', b'u', hex(12), hex(8), hex(4), hex(0)])
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
}
