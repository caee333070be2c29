//! How the violation messages show what was expected and what was found.

use crate::format::Words;

use super::Kind;

pub(super) fn header_form(key: &str) -> &'static str {
    match key {
        "status" => "status: `<Status>`",
        "state" => "state: `<WorkflowState>`",
        _ => "flags: `A`, `B` or flags: -",
    }
}

pub(super) fn order_list(w: &Words) -> String {
    Kind::ALL.iter().map(|k| k.word(w)).collect::<Vec<_>>().join(", ")
}

pub(super) fn known_list(w: &Words) -> String {
    let mut forms = vec![format!("`### [OK|Warning|Fail] {}`", w.overview)];
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
