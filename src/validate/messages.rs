//! How the violation messages show what was expected and what was found.

use crate::format::Words;

use super::Kind;

pub(super) fn order_list(w: &Words) -> String {
    Kind::ALL.iter().map(|k| k.word(w)).collect::<Vec<_>>().join(", ")
}

pub(super) fn known_list(w: &Words) -> String {
    let mut forms = vec!["`### [OK|Warning|Fail] <Status> · <WorkflowState>`".to_string()];
    forms.extend(Kind::ALL.iter().skip(1).map(|k| format!("`{}`", k.heading(w))));
    forms.join(", ")
}

pub(super) fn flag_list(flags: &[String]) -> String {
    if flags.is_empty() {
        "`flags: -`".into()
    } else {
        flags.join(", ")
    }
}

/// A found text for a message: quoted (control characters escaped), at most 80 chars.
pub(super) fn quote(s: &str) -> String {
    let clipped = crate::text_rules::clip(s, 80);
    format!("{clipped:?}")
}
