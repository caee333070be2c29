//! The random text the generator tests share (tests/engine/never_wrong.rs, tests/engine/offered_pickable.rs):
//! a seeded generator, so a seed replays a case, and the word tokens an intended edit changes.

/// xorshift64*: the generator's only source of randomness, so a seed replays a case.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    pub fn num(&mut self) -> String {
        [1, 2, 3, 5, 8, 10, 16, 30, 60, 100, 250, 300, 1024][self.below(13)].to_string()
    }
}

/// `text` with its `nth` token equal to `token` replaced by `with`.
pub fn replace_token(text: &str, token: &str, nth: usize, with: &str) -> Option<String> {
    let &(at, t) = tokens(text).iter().filter(|(_, t)| *t == token).nth(nth)?;
    Some(format!("{}{with}{}", &text[..at], &text[at + t.len()..]))
}

/// The word tokens of `line` with their byte offsets: runs of letters and digits (CJK ideographs
/// excepted: each stays part of no word, so a Chinese line's numbers are its tokens).
pub fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let word = c.is_alphanumeric() && (c as u32) < 0x2E80;
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// `text` with one letter (its second) dropped from a word other than `token`: one of the first
/// four words of more than three chars that occur once in it, the drift a model makes elsewhere
/// in what it remembers. `None` when there is no such word. Cost: O(text · words).
pub fn drop_letter(r: &mut Rng, text: &str, token: &str) -> Option<String> {
    let toks = tokens(text);
    let &(at, t) = toks.iter().filter(|(_, t)| *t != token && t.chars().count() > 3 && text.matches(*t).count() == 1).nth(r.below(4))?;
    let cut = t.char_indices().nth(1)?.0;
    Some(format!("{}{}{}", &text[..at + cut], &t[cut + t[cut..].chars().next()?.len_utf8()..], &text[at + t.len()..]))
}

/// Identifier-like words for the code-like documents of the property tests.
pub const WORDS: &[&str] =
    &["alpha", "render", "buffer", "timeout", "worker", "queue", "parser", "config", "stream", "cache", "handler", "client"];

/// Chinese words for the CJK documents of the property tests.
pub const CJK: &[&str] = &["配置", "超时", "重试", "缓存", "服务", "日志", "队列", "用户"];
