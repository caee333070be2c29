//! Content and Preview: fenced code blocks only (item 7 of the layout).

use super::messages::quote;
use super::scan::{fence_open, is_blank, is_fence_close};
use super::{Kind, Rule, Section, Validator};

impl<'a> Validator<'a> {
    // Bounds: `i < s.body.len()` by the loop's condition, so `i + 1 ..` is a (possibly empty) tail.
    #[allow(clippy::indexing_slicing)]
    pub(super) fn fences(&mut self, kind: Kind, s: &Section<'a>) {
        let mut blocks = 0;
        let mut i = 0;
        while i < s.body.len() {
            let (n, line) = s.body[i];
            if let Some(len) = fence_open(line) {
                match s.body[i + 1..].iter().position(|(_, l)| is_fence_close(l, len)) {
                    Some(j) => {
                        blocks += 1;
                        i += j + 2;
                    }
                    None => {
                        self.report(n, Rule::Fence, format!("expected the fence opened here to close with a line of {len} or more backticks, found the end of the section"));
                        return;
                    }
                }
                continue;
            }
            if is_blank(line) {
                self.report(n, Rule::BlankLine, format!("expected no blank line outside the fenced block of {}", quote(s.heading)));
            } else {
                self.report(
                    n,
                    Rule::StrayText,
                    format!("expected only a fenced code block in {}, found {}", quote(s.heading), quote(line)),
                );
            }
            i += 1;
        }
        if blocks == 0 {
            let what = if kind == Kind::Content { "the text" } else { "the preview" };
            let at = s.body.first().map_or(s.line + 1, |(n, _)| *n);
            self.report(
                at,
                Rule::Fence,
                format!("expected {what} in a fenced code block (a line of 3 or more backticks before and after), found none"),
            );
        }
    }
}
