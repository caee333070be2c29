//! Line keys (`memo_read(line_keys=true)`, docs/tools.md#memo_replace_lines): `12#a3f1` names line 12
//! *as it was read* — the line number plus 4 hex digits of a hash of the line's text. An edit by
//! key checks the hash first, so a line that moved or changed since the read is refused instead
//! of silently editing whatever is at line 12 now.

use std::fmt;

use xxhash_rust::xxh3::xxh3_64;

/// A parsed line key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineKey {
    /// 1-based line number.
    pub line: usize,
    pub hash: u16,
}

/// Why a string is not a line key; the message says what one looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLineKey {
    pub got: String,
}

impl fmt::Display for BadLineKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a line key like \"12#a3f1\" (line number, `#`, 4 hex digits) as shown by memo_read(line_keys=true)")
    }
}

/// The 4-hex-digit hash of a line's text (without its line break).
pub fn line_hash(text: &str) -> u16 {
    (xxh3_64(text.as_bytes()) & 0xFFFF) as u16
}

impl LineKey {
    pub fn of(line: usize, text: &str) -> LineKey {
        LineKey { line, hash: line_hash(text) }
    }

    /// Parses `12#a3f1`; surrounding spaces and a trailing `│` (copied with the gutter) are
    /// tolerated. Line 0 is not a line.
    pub fn parse(s: &str) -> Result<LineKey, BadLineKey> {
        let bad = || BadLineKey { got: s.to_string() };
        let t = s.trim().trim_end_matches('│').trim_end();
        let (line, hash) = t.split_once('#').ok_or_else(bad)?;
        if line.is_empty() || line.len() > 9 || !line.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        if hash.len() != 4 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let line: usize = line.parse().map_err(|_| bad())?;
        if line == 0 {
            return Err(bad());
        }
        let hash = u16::from_str_radix(hash, 16).map_err(|_| bad())?;
        Ok(LineKey { line, hash })
    }

    /// Whether `text` (the line's current text) is still the line this key was made for.
    pub fn matches(&self, text: &str) -> bool {
        line_hash(text) == self.hash
    }
}

impl fmt::Display for LineKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{:04x}", self.line, self.hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_check_the_text() {
        let k = LineKey::of(12, "timeout: 30");
        let shown = k.to_string();
        assert!(shown.starts_with("12#") && shown.len() == 7, "{shown}");
        assert_eq!(LineKey::parse(&shown), Ok(k));
        assert_eq!(LineKey::parse(&format!("  {shown}│ ")), Ok(k));
        assert!(k.matches("timeout: 30"));
        assert!(!k.matches("timeout: 60"));
    }

    #[test]
    fn malformed_keys_are_refused() {
        for s in ["", "12", "#a3f1", "12#a3f", "12#a3f1x", "0#a3f1", "x#a3f1", "12#gggg", "-1#a3f1", "1234567890#a3f1"] {
            assert!(LineKey::parse(s).is_err(), "{s:?}");
        }
    }
}
